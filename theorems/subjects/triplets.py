"""Triplet subjects for Merad et al. Section 4 (Lemma 3 = 5 = 4.1, Lemma 7 = 4 = 4.2).

A subject is z = (z_1, z_2, z_3) in (R^d)^3, a step z' with z + z' in the same
ball, and the radius C of B^3 = {max_j ||z_j|| <= C}. Two regions are drawn:

* ``ball``: z and z + z' anywhere in B^3, C from 0.05 to 30, d = 1..4;
* ``near_optimal``: norms in [eta, C] with z_2 close to z_1's direction and z_3
  close to its opposite (blended with a random direction by a weight in [0, 0.5]),
  so that u = z_1^T (z_3 - z_2) is very negative (down to about -2 C^2) and
  v_2 = sigma(u) tiny -- where Lemma 7's hypothesis eps < eta/2 holds. This
  region is sampled on purpose, not by luck.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics import triplet as tl
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity

# -- Merad et al. Section 4: a triplet z = (z_1, z_2, z_3), a step z' (Lemma 3 = Lemma 5 = Lemma 4.1)
C = quantity("C", range=(0, None), doc="the radius of B^3 (Assumption 2)")
ell = quantity("ell", range=(0, None), doc="l(z) = zeta(z_1^T (z_3 - z_2)), (11)")
ell_step = quantity("ell_step", range=(0, None), doc="l(z + z')")
grad_dot_step = quantity("grad_dot_step", doc="<grad l(z), z'>")
step_sq = quantity("step_sq", range=(0, None), doc="||z'||^2")
hess_norm = quantity("hess_norm", range=(0, None), doc="||Hess l(z)||_2")
grad_rel_err = quantity("grad_rel_err", range=(0, None), doc="the proof's gradient vs the chain rule")
hess_rel_err = quantity("hess_rel_err", range=(0, None), doc="the proof's Hessian vs the chain rule")
dcos12_norm = quantity("dcos12_norm", range=(0, None), doc="||dcos_12||")
dcos13_norm = quantity("dcos13_norm", range=(0, None), doc="||dcos_13||")
dcos23_norm = quantity("dcos23_norm", range=(0, None), doc="||dcos_23||")
z1_norm = quantity("z1_norm", range=(0, None), doc="||z_1||")
z2_norm = quantity("z2_norm", range=(0, None), doc="||z_2||")
z3_norm = quantity("z3_norm", range=(0, None), doc="||z_3||")
softmax_curv_norm = quantity("softmax_curv_norm", range=(0, None), doc="||diag(v) - v v^T||")
d2cos_norm_min = quantity("d2cos_norm_min", range=(0, None), doc="min over pairs of ||d2cos_ij||")
d2cos_norm_max = quantity("d2cos_norm_max", range=(0, None), doc="max over pairs of ||d2cos_ij||")
curv_term_norm = quantity("curv_term_norm", range=(0, None), doc="||(dcos_12 dcos_13) dv||")
max_norm_prod = quantity("max_norm_prod", range=(0, None), doc="max_{i,j} ||z_i|| ||z_j||")
# Lemma 7 (= Lemma 4 = Lemma 4.2)
v1 = quantity("v1", range=(0, 1), doc="softmax(z_1^T z_2, z_1^T z_3)_1")
v2 = quantity("v2", range=(0, 1), doc="= sigma(z_1^T (z_3 - z_2))")
eps = quantity("eps", range=(0, None), doc="max_j ||loss_{i,j}||")
eta = quantity("eta", range=(0, None), doc="min_j ||z_{i,j}||")
loss1_norm = quantity("loss1_norm", range=(0, None), doc="||A_1^T grad l||, chain rule")
loss2_norm = quantity("loss2_norm", range=(0, None), doc="||A_2^T grad l||, chain rule")
loss3_norm = quantity("loss3_norm", range=(0, None), doc="||A_3^T grad l||, chain rule")
loss1_printed = quantity("loss1_printed", range=(0, None), doc="||(v_1 - 1) z_2 + v_2 z_3||")
x_scalar = quantity("x", doc="a scalar (the elementary inequalities of the proof of Lemma 7)")

RADII = (1.0, 0.05, 0.5, 2.0, 5.0, 10.0, 30.0)


@dataclass(frozen=True, eq=False)
class TripletSubject:
    """z (3, d), a step z' (3, d), and the radius C of B^3."""

    z: np.ndarray
    step: np.ndarray
    C: float
    source: str = ""  # where the subject came from (e.g. a trained network's outputs)

    @property
    def d(self) -> int:
        return int(self.z.shape[1])


def project_ball(z: np.ndarray, C: float) -> np.ndarray:
    """Scale each block z_j into the closed ball of radius C (strictly inside, for rounding)."""
    out = np.array(z, dtype=np.float64)
    for j in range(3):
        n = np.linalg.norm(out[j])
        if n > C * (1 - 1e-12):
            out[j] *= C * (1 - 1e-12) / n
    return out


def near_optimal(direction: np.ndarray, spread: np.ndarray, norms: np.ndarray, mix: float) -> np.ndarray:
    """z_2 ~ +z_1 direction, z_3 ~ -z_1 direction, blended with ``spread`` by ``mix``."""
    length = np.linalg.norm(direction)
    a = direction / length if length > 1e-100 else np.ones_like(direction) / np.sqrt(direction.size)
    dirs = [a, a + mix * spread[0], -a + mix * spread[1]]
    return np.stack([norms[j] * dirs[j] / max(np.linalg.norm(dirs[j]), 1e-300) for j in range(3)])


class Triplets(SubjectFamily):
    """Random triplets in B^3(C); ``region`` is "ball" or "near_optimal"."""

    def __init__(self, region: str = "ball", dims: tuple[int, int] = (1, 4)) -> None:
        if region not in ("ball", "near_optimal"):
            raise ValueError(f"region = {region!r}: use 'ball' or 'near_optimal'")
        self.region = region
        self.dims = dims
        self.name = f"random triplets ({region})"

    def strategy(self) -> st.SearchStrategy[TripletSubject]:
        return _triplets(self)

    @property
    def symbols(self) -> frozenset[sympy.Symbol]:  # type: ignore[override]
        return frozenset(_COMPUTE)

    def radius_bounds(self) -> tuple[float | None, float | None]:
        """C as drawn (RADII) or shrunk (rounded): in [min RADII, max RADII]."""
        return min(RADII), max(RADII)

    def validate(self, subject: TripletSubject) -> None:
        """z and z' are finite 3 x d arrays with d in ``dims``; C is finite, > 0 and within
        :meth:`radius_bounds`."""
        z, step = np.asarray(subject.z), np.asarray(subject.step)
        if z.ndim != 2 or z.shape[0] != 3 or step.shape != z.shape:
            raise AssumptionError(f"{self.name}: z and z' must both be 3 x d arrays, got {z.shape} and {step.shape}")
        if not (np.all(np.isfinite(z)) and np.all(np.isfinite(step))):
            raise AssumptionError(f"{self.name}: z, z' must be finite")
        if not self.dims[0] <= subject.d <= self.dims[1]:
            raise AssumptionError(f"{self.name}: d = {subject.d} is outside {list(self.dims)}")
        lo, hi = self.radius_bounds()
        C = subject.C
        if not (np.isfinite(C) and C > 0 and (lo is None or C >= lo) and (hi is None or C <= hi)):
            raise AssumptionError(f"{self.name}: C = {C!r} is outside {jf.allowed(lo, hi)} (and C > 0)")

    differentiable = frozenset({C, ell, ell_step, grad_dot_step, step_sq, hess_norm,
                                curv_term_norm, max_norm_prod, eps, eta, v1, v2})

    def quantities(self, subject: TripletSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        if params is None:
            z, step = xp.asarray(subject.z), xp.asarray(subject.step)
        else:
            z, step = self._unpack(subject, params)
        ctx = _Context(z, step, subject, xp)
        return {s: _COMPUTE[s](ctx) for s in symbols}

    # -- adversarial parameters: a smooth map onto the open ball ----------------------------
    def random_start(self, rng: np.random.Generator) -> TripletSubject:
        C = float(rng.choice([0.3, 1.0, 3.0]))
        d = int(rng.integers(self.dims[0], self.dims[1] + 1))
        if self.region == "near_optimal":
            z = near_optimal(rng.normal(size=d), rng.normal(size=(2, d)), rng.uniform(0.5, 1, 3) * C,
                             float(rng.uniform(0, 0.5)))
        else:
            z = project_ball(rng.normal(size=(3, d)) * C / 2, C)
        target = project_ball(z + rng.normal(size=(3, d)) * C / 4, C)
        return TripletSubject(z, target - z, C)

    def params(self, subject: TripletSubject) -> list[Any]:
        import torch

        def inverse(x: np.ndarray) -> np.ndarray:  # w with C tanh(|w|) w/|w| = x
            out = np.zeros_like(x)
            for j in range(3):
                r = np.linalg.norm(x[j]) / subject.C
                if r > 0:
                    out[j] = x[j] / np.linalg.norm(x[j]) * np.arctanh(min(r, 1 - 1e-9))
            return out

        return [torch.tensor(inverse(subject.z), dtype=torch.float64, requires_grad=True),
                torch.tensor(inverse(subject.z + subject.step), dtype=torch.float64, requires_grad=True)]

    def _unpack(self, subject: TripletSubject, params: Sequence[Any]) -> tuple[Any, Any]:
        import torch

        def to_ball(w: Any) -> Any:
            n = torch.linalg.norm(w, dim=1, keepdim=True).clamp_min(1e-300)
            return subject.C * torch.tanh(n) * w / n

        z = to_ball(params[0])
        return z, to_ball(params[1]) - z

    def from_params(self, subject: TripletSubject, params: Sequence[Any]) -> TripletSubject:
        z, step = (t.detach().numpy().astype(np.float64) for t in self._unpack(subject, params))
        z = project_ball(z, subject.C)
        return replace(subject, z=z, step=project_ball(z + step, subject.C) - z)

    # -- shrinking ----------------------------------------------------------------------------
    def shrink(self, subject: TripletSubject) -> Iterable[TripletSubject]:
        if subject.d > 1:
            for j in range(subject.d):
                yield replace(subject, z=np.delete(subject.z, j, axis=1), step=np.delete(subject.step, j, axis=1))
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1)):
            z = project_ball(transform(subject.z), subject.C)
            if not np.array_equal(z, subject.z):
                yield replace(subject, z=z, step=project_ball(z + subject.step, subject.C) - z)
            target = project_ball(transform(subject.z + subject.step), subject.C)
            if not np.array_equal(target, subject.z + subject.step):
                yield replace(subject, step=target - subject.z)
        if subject.C != round(subject.C) and round(subject.C) > 0:
            C = float(round(subject.C))
            z = project_ball(subject.z, C)
            yield TripletSubject(z, project_ball(z + subject.step, C) - z, C)

    def size(self, subject: TripletSubject) -> tuple[float, ...]:
        return (subject.d, float(np.count_nonzero(subject.z)), subject.C)

    def to_json(self, subject: TripletSubject) -> dict[str, Any]:
        return {"z": subject.z.tolist(), "step": subject.step.tolist(), "C": subject.C,
                "source": subject.source}

    def from_json(self, data: Any) -> TripletSubject:
        where = self.name
        check_fields(data, ("z", "step", "C"), ("source",), where)
        z = jf.real_array(data["z"], "z", (3, self.dims), where, ("blocks", "d"))
        step = jf.real_array(data["step"], "step", (3, z.shape[1]), where, ("blocks", "d (as in z)"))
        lo, hi = self.radius_bounds()
        C = jf.real(data, "C", lo, hi, where, open_lo=lo == 0)
        return TripletSubject(z, step, C, source=jf.string(data, "source", where, default=""))

    def describe(self, subject: TripletSubject) -> str:
        norms = np.round(np.linalg.norm(subject.z, axis=1), 4).tolist()
        u = float(subject.z[0] @ (subject.z[2] - subject.z[1]))
        return f"d={subject.d}, C={subject.C:g}, |z_j|={norms}, u={u:.4g}"


class _Context:
    """Lazily computed pieces shared by the quantities of one subject."""

    def __init__(self, z: Any, step: Any, subject: TripletSubject, xp: Backend) -> None:
        self.z, self.step, self.subject, self.xp = z, step, subject, xp
        self._cache: dict[str, Any] = {}

    def get(self, key: str, fn: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    @property
    def grad(self) -> Any:
        return self.get("grad", lambda: tl.gradient_chain_rule(self.z, self.xp))

    @property
    def hess(self) -> Any:
        return self.get("hess", lambda: tl.hessian_chain_rule(self.z, self.xp))

    @property
    def v(self) -> tuple[Any, Any]:
        return self.get("v", lambda: tl.softmax_v(self.z, self.xp))

    def znorm(self, j: int) -> Any:
        return self.get(f"zn{j}", lambda: tl.norm(self.z[j], self.xp))

    def loss_norm(self, j: int) -> Any:
        return self.get(f"ln{j}", lambda: tl.norm(tl.loss_vectors(self.z, self.xp)[j], self.xp))


def _rel(a: Any, b: Any, xp: Backend) -> Any:
    """||a - b|| / max(||b||, 1e-300): relative difference of two arrays."""
    diff = tl.norm((a - b).reshape(-1), xp)
    scale = tl.norm(b.reshape(-1), xp)
    return diff / (scale + 1e-300)


def _max_norm_prod(c: _Context) -> Any:
    n = [c.znorm(j) for j in range(3)]
    best = n[0] * n[0]
    for i in range(3):
        for j in range(3):
            best = _maximum(best, n[i] * n[j], c.xp)
    return best


def _maximum(a: Any, b: Any, xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.maximum(a, b)
    return a if a >= b else b


def _minimum(a: Any, b: Any, xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.minimum(a, b)
    return a if a <= b else b


def _d2cos_norms(d: int, xp: Backend) -> list[Any]:
    return [tl.spectral_norm(xp.asarray(tl.d2cos(d, i, j)), xp) for i, j in ((0, 1), (0, 2), (1, 2))]


_COMPUTE: dict[sympy.Symbol, Any] = {
    C: lambda c: c.xp.asarray(c.subject.C),
    ell: lambda c: tl.loss(c.z, c.xp),
    ell_step: lambda c: tl.loss(c.z + c.step, c.xp),
    grad_dot_step: lambda c: (c.grad * c.step.reshape(-1)).sum(),
    step_sq: lambda c: (c.step * c.step).sum(),
    hess_norm: lambda c: tl.spectral_norm(c.hess, c.xp),
    grad_rel_err: lambda c: _rel(tl.gradient_proof(c.z, c.xp), c.grad, c.xp),
    hess_rel_err: lambda c: _rel(tl.hessian_proof(c.z, c.xp), c.hess, c.xp),
    dcos12_norm: lambda c: tl.norm(tl.dcos(c.z, 0, 1, c.xp), c.xp),
    dcos13_norm: lambda c: tl.norm(tl.dcos(c.z, 0, 2, c.xp), c.xp),
    dcos23_norm: lambda c: tl.norm(tl.dcos(c.z, 1, 2, c.xp), c.xp),
    z1_norm: lambda c: c.znorm(0),
    z2_norm: lambda c: c.znorm(1),
    z3_norm: lambda c: c.znorm(2),
    # diag(v) - v v^T = v_1 v_2 [[1, -1], [-1, 1]]: eigenvalues 0 and 2 v_1 v_2
    softmax_curv_norm: lambda c: tl.spectral_norm(_softmax_jacobian(c), c.xp),
    d2cos_norm_min: lambda c: min(_d2cos_norms(c.subject.d, c.xp)),
    d2cos_norm_max: lambda c: max(_d2cos_norms(c.subject.d, c.xp)),
    curv_term_norm: lambda c: tl.spectral_norm(tl.curvature_term(c.z, c.xp), c.xp),
    max_norm_prod: _max_norm_prod,
    v1: lambda c: c.v[0],
    v2: lambda c: c.v[1],
    eps: lambda c: _maximum(_maximum(c.loss_norm(0), c.loss_norm(1), c.xp), c.loss_norm(2), c.xp),
    eta: lambda c: _minimum(_minimum(c.znorm(0), c.znorm(1), c.xp), c.znorm(2), c.xp),
    loss1_norm: lambda c: c.loss_norm(0),
    loss2_norm: lambda c: c.loss_norm(1),
    loss3_norm: lambda c: c.loss_norm(2),
    loss1_printed: lambda c: tl.norm((c.v[0] - 1) * c.z[1] + c.v[1] * c.z[2], c.xp),
}


def _softmax_jacobian(c: _Context) -> Any:
    v1, v2 = c.v
    xp = c.xp
    if xp.name == "torch":
        return xp.torch.stack([xp.torch.stack([v1 - v1 * v1, -v1 * v2]),
                               xp.torch.stack([-v1 * v2, v2 - v2 * v2])])
    return np.array([[v1 - v1 * v1, -v1 * v2], [-v1 * v2, v2 - v2 * v2]], dtype=object if xp.name == "mpmath" else float)


@st.composite
def _triplets(draw: Any, family: Triplets) -> TripletSubject:
    d = draw(st.integers(family.dims[0], family.dims[1]))
    C = draw(st.sampled_from(RADII))

    def vec(n: int) -> np.ndarray:
        return np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=n, max_size=n)), dtype=np.float64)

    if family.region == "near_optimal":
        eta_frac = draw(st.sampled_from([0.5, 0.1, 0.9, 0.01]))
        norms = C * (eta_frac + (1 - eta_frac) * np.clip(vec(3), 0, 1))
        direction = vec(d)
        z = near_optimal(direction, vec(2 * d).reshape(2, d), norms, draw(st.floats(0.0, 0.5)))
        z = project_ball(z, C)
    else:
        z = project_ball(vec(3 * d).reshape(3, d) * C, C)
    target = project_ball(z + vec(3 * d).reshape(3, d) * C * draw(st.sampled_from([0.5, 1e-3, 2.0])), C)
    return TripletSubject(z, target - z, float(C))


@dataclass(frozen=True)
class ScalarSubject:
    """A real x (the elementary inequalities of the proof of Lemma 7)."""

    x: float


class Scalars(SubjectFamily):
    """x in [lo, hi], with the endpoints and values near them drawn often."""

    def __init__(self, lo: float = 0.0, hi: float = 0.5) -> None:
        self.lo, self.hi = lo, hi
        self.name = f"scalars in [{lo:g}, {hi:g}]"

    def strategy(self) -> st.SearchStrategy[ScalarSubject]:
        return st.one_of(st.sampled_from([self.lo, self.hi, 1e-300, 1e-8]).filter(lambda v: self.lo <= v <= self.hi),
                         st.floats(self.lo, self.hi)).map(ScalarSubject)

    symbols = frozenset({x_scalar})
    differentiable = symbols

    def validate(self, subject: ScalarSubject) -> None:
        if not self.lo <= subject.x <= self.hi:
            raise AssumptionError(f"{self.name}: x = {subject.x!r} is outside [{self.lo}, {self.hi}]")

    def quantities(self, subject: ScalarSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        x = xp.asarray(subject.x) if params is None else self._clip(params[0])
        return {s: x for s in symbols}

    def _clip(self, w: Any) -> Any:
        import torch

        return self.lo + (self.hi - self.lo) * torch.sigmoid(w)

    def random_start(self, rng: np.random.Generator) -> ScalarSubject:
        return ScalarSubject(float(rng.uniform(self.lo, self.hi)))

    def params(self, subject: ScalarSubject) -> list[Any]:
        import torch

        t = (subject.x - self.lo) / (self.hi - self.lo)
        t = min(max(t, 1e-12), 1 - 1e-12)
        return [torch.tensor(np.log(t / (1 - t)), dtype=torch.float64, requires_grad=True)]

    def from_params(self, subject: ScalarSubject, params: Sequence[Any]) -> ScalarSubject:
        return ScalarSubject(float(self._clip(params[0]).detach()))

    def shrink(self, subject: ScalarSubject) -> Iterable[ScalarSubject]:
        for v in (self.lo, self.hi, round(subject.x, 1), round(subject.x, 3)):
            if v != subject.x and self.lo <= v <= self.hi:
                yield ScalarSubject(float(v))

    def to_json(self, subject: ScalarSubject) -> dict[str, Any]:
        return {"x": subject.x}

    def from_json(self, data: Any) -> ScalarSubject:
        check_fields(data, ("x",), (), self.name)
        return ScalarSubject(jf.real(data, "x", self.lo, self.hi, self.name))

    def describe(self, subject: ScalarSubject) -> str:
        return f"x={subject.x!r}"
