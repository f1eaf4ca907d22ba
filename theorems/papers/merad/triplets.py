"""Triplet subjects for Merad et al. Section 4 (Lemma 3 = 5 = 4.1, Lemma 7 = 4 = 4.2), and scalars.

A triplet subject is a composed :class:`~theorems.subjects.Family` (:func:`Triplets`) with the size d and
three parts:

* ``C`` -- the radius of B^3 = {max_j ||z_j|| <= C}, drawn from :data:`RADII` (a
  :class:`~theorems.subjects.reals.Choice`; the adversary keeps it);
* ``z`` -- z = (z_1, z_2, z_3) in B^3 (a :class:`~theorems.papers.merad.triplet_parts.BallTriplet` given C);
* ``z_next`` -- the point z + z' after the step z', also in B^3, drawn near z (given C and z); the step
  is z' = z_next - z.

Two regions are drawn for z:

* ``ball``: z and z + z' anywhere in B^3, C from 0.05 to 30, d = 1..4;
* ``near_optimal``: norms in [eta, C] with z_2 close to z_1's direction and z_3
  close to its opposite (blended with a random direction by a weight in [0, 0.5]),
  so that u = z_1^T (z_3 - z_2) is very negative (down to about -2 C^2) and
  v_2 = sigma(u) tiny -- where Lemma 7's hypothesis eps < eta/2 holds. This
  region is sampled on purpose, not by luck.

The adversary moves z and z + z' through the smooth map onto the open ball (C fixed). :func:`Scalars` is
a real x in [lo, hi] (the elementary inequalities of the proof of Lemma 7, the softplus bounds).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable

import numpy as np

from theorems.papers.merad import triplet as tl
from numerics.backend import Backend
from theorems import quantity
from theorems.subjects.compose import Family
from theorems.subjects.parts import Given
from theorems.subjects.reals import Choice, ScalarWithPoints
from theorems.papers.merad.triplet_parts import BallTriplet, near_optimal, project_ball

# -- shared pieces of one subject: computed once per view (one backend, one subject) ------------------------------
_SHARED: "weakref.WeakKeyDictionary[Any, dict[str, Any]]" = weakref.WeakKeyDictionary()


def _shared(s: Any, key: str, make: Callable[[], Any]) -> Any:
    cache = _SHARED.setdefault(s, {})
    if key not in cache:
        cache[key] = make()
    return cache[key]


def _step(s: Any) -> Any:
    return _shared(s, "step", lambda: s.z_next - s.z)


def _grad(s: Any, xp: Backend) -> Any:
    return _shared(s, "grad", lambda: tl.gradient_chain_rule(s.z, xp))


def _hess(s: Any, xp: Backend) -> Any:
    return _shared(s, "hess", lambda: tl.hessian_chain_rule(s.z, xp))


def _v(s: Any, xp: Backend) -> tuple[Any, Any]:
    return _shared(s, "v", lambda: tl.softmax_v(s.z, xp))


def sqrt0(sq: Any, xp: Backend) -> Any:
    """sqrt(sq) for sq >= 0, the same value in every backend; in torch its derivative at sq = 0 is 0 (not
    the infinite one of sqrt, which makes the adversary's gradient NaN at a zero vector)."""
    if xp.name != "torch":
        return xp.sqrt(sq)
    t = xp.torch
    positive = sq > 0
    return t.where(positive, t.sqrt(t.where(positive, sq, t.ones_like(sq))), t.zeros_like(sq))


def norm0(v: Any, xp: Backend) -> Any:
    """||v|| through :func:`sqrt0` (the value of theorems.papers.merad.triplet.norm)."""
    return sqrt0((v * v).sum(), xp)


def _znorm(s: Any, xp: Backend, j: int) -> Any:
    return _shared(s, f"zn{j}", lambda: norm0(s.z[j], xp))


def _loss_norm(s: Any, xp: Backend, j: int) -> Any:
    return _shared(s, f"ln{j}", lambda: norm0(tl.loss_vectors(s.z, xp)[j], xp))


def _rel(a: Any, b: Any, xp: Backend) -> Any:
    """||a - b|| / max(||b||, 1e-300): relative difference of two arrays."""
    diff = tl.norm((a - b).reshape(-1), xp)
    scale = tl.norm(b.reshape(-1), xp)
    return diff / (scale + 1e-300)


def _maximum(a: Any, b: Any, xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.maximum(a, b)
    return a if a >= b else b


def _minimum(a: Any, b: Any, xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.minimum(a, b)
    return a if a <= b else b


#: the norms of the constant matrices d2cos_ij, per (d, backend, digits, norm): the same numbers for every subject
_D2COS_NORMS: dict[tuple[Any, ...], list[Any]] = {}


def _d2cos_norms(d: int, xp: Backend, norm: Callable[[Any, Backend], Any] = tl.spectral_norm) -> list[Any]:
    """||d2cos_ij|| for the three pairs; d2cos_ij depends on d only, so each backend and precision computes them once
    (torch's are computed afresh: they stay out of any other graph)."""
    def compute() -> list[Any]:
        return [norm(xp.asarray(tl.d2cos(d, i, j)), xp) for i, j in ((0, 1), (0, 2), (1, 2))]

    if xp.name == "torch":
        return compute()
    key = (d, xp.name, getattr(xp, "dps", None), getattr(xp, "prec", None), norm)
    if key not in _D2COS_NORMS:
        _D2COS_NORMS[key] = compute()
    return _D2COS_NORMS[key]


def _max_norm_prod(s: Any, xp: Backend) -> Any:
    n = [_znorm(s, xp, j) for j in range(3)]
    best = n[0] * n[0]
    for i in range(3):
        for j in range(3):
            best = _maximum(best, n[i] * n[j], xp)
    return best


def _softmax_jacobian(s: Any, xp: Backend) -> Any:
    """diag(v) - v v^T = v_1 v_2 [[1, -1], [-1, 1]]: eigenvalues 0 and 2 v_1 v_2."""
    v1_, v2_ = _v(s, xp)
    if xp.name == "torch":
        return xp.torch.stack([xp.torch.stack([v1_ - v1_ * v1_, -v1_ * v2_]),
                               xp.torch.stack([-v1_ * v2_, v2_ - v2_ * v2_])])
    return np.array([[v1_ - v1_ * v1_, -v1_ * v2_], [-v1_ * v2_, v2_ - v2_ * v2_]],
                    dtype=object if xp.name == "mpmath" else float)


def _q(name: str, formula: Callable[[Any, Any], Any], doc: str, range: Any = (0, None),
       differentiable: bool = True, scale: Any = None) -> Any:
    return quantity(name, formula, range=range, differentiable=differentiable, doc=doc, scale=scale)


# -- Merad et al. Section 4: a triplet z = (z_1, z_2, z_3), a step z' (Lemma 3 = Lemma 5 = Lemma 4.1) ----------
C = _q("C", lambda s, xp: s.C, "the radius of B^3 (Assumption 2)")
ell = _q("ell", lambda s, xp: tl.loss(s.z, xp), "l(z) = zeta(z_1^T (z_3 - z_2)), (11)")
ell_step = _q("ell_step", lambda s, xp: tl.loss(s.z_next, xp), "l(z + z')")
grad_dot_step = _q("grad_dot_step", lambda s, xp: (_grad(s, xp) * _step(s).reshape(-1)).sum(), "<grad l(z), z'>",
                   range=None)
step_sq = _q("step_sq", lambda s, xp: (_step(s) * _step(s)).sum(), "||z'||^2")
hess_norm = _q("hess_norm", lambda s, xp: tl.spectral_norm(_hess(s, xp), xp), "||Hess l(z)||_2")
grad_rel_err = _q("grad_rel_err", lambda s, xp: _rel(tl.gradient_proof(s.z, xp), _grad(s, xp), xp),
                  "the proof's gradient vs the chain rule", differentiable=False, scale=1)  # relative: terms of size 1
hess_rel_err = _q("hess_rel_err", lambda s, xp: _rel(tl.hessian_proof(s.z, xp), _hess(s, xp), xp),
                  "the proof's Hessian vs the chain rule", differentiable=False, scale=1)
dcos12_norm = _q("dcos12_norm", lambda s, xp: tl.norm(tl.dcos(s.z, 0, 1, xp), xp), "||dcos_12||",
                 differentiable=False)
dcos13_norm = _q("dcos13_norm", lambda s, xp: tl.norm(tl.dcos(s.z, 0, 2, xp), xp), "||dcos_13||",
                 differentiable=False)
dcos23_norm = _q("dcos23_norm", lambda s, xp: tl.norm(tl.dcos(s.z, 1, 2, xp), xp), "||dcos_23||",
                 differentiable=False)
z1_norm = _q("z1_norm", lambda s, xp: _znorm(s, xp, 0), "||z_1||", differentiable=False)
z2_norm = _q("z2_norm", lambda s, xp: _znorm(s, xp, 1), "||z_2||", differentiable=False)
z3_norm = _q("z3_norm", lambda s, xp: _znorm(s, xp, 2), "||z_3||", differentiable=False)
softmax_curv_norm = _q("softmax_curv_norm", lambda s, xp: tl.spectral_norm(_softmax_jacobian(s, xp), xp),
                       "||diag(v) - v v^T||", differentiable=False)
d2cos_norm_min = _q("d2cos_norm_min", lambda s, xp: min(_d2cos_norms(s.d, xp)), "min over pairs of ||d2cos_ij||",
                    differentiable=False)
d2cos_norm_max = _q("d2cos_norm_max", lambda s, xp: max(_d2cos_norms(s.d, xp)), "max over pairs of ||d2cos_ij||",
                    differentiable=False)
curv_term_norm = _q("curv_term_norm", lambda s, xp: tl.spectral_norm(tl.curvature_term(s.z, xp), xp),
                    "||(dcos_12 dcos_13) dv||")
max_norm_prod = _q("max_norm_prod", _max_norm_prod, "max_{i,j} ||z_i|| ||z_j||")
# the same matrix norms read as Frobenius norms (theorems.papers.merad.lemma3_norms: the proof prints ||.|| without
# a subscript); the vector norms are Euclidean in both readings
hess_norm_fro = _q("hess_norm_fro", lambda s, xp: tl.frobenius_norm(_hess(s, xp), xp), "||Hess l(z)||_F")
softmax_curv_norm_fro = _q("softmax_curv_norm_fro", lambda s, xp: tl.frobenius_norm(_softmax_jacobian(s, xp), xp),
                           "||diag(v) - v v^T||_F", differentiable=False)
d2cos_norm_min_fro = _q("d2cos_norm_min_fro", lambda s, xp: min(_d2cos_norms(s.d, xp, tl.frobenius_norm)),
                        "min over pairs of ||d2cos_ij||_F", differentiable=False)
d2cos_norm_max_fro = _q("d2cos_norm_max_fro", lambda s, xp: max(_d2cos_norms(s.d, xp, tl.frobenius_norm)),
                        "max over pairs of ||d2cos_ij||_F", differentiable=False)
curv_term_norm_fro = _q("curv_term_norm_fro", lambda s, xp: tl.frobenius_norm(tl.curvature_term(s.z, xp), xp),
                        "||(dcos_12 dcos_13) dv||_F")
# Lemma 7 (= Lemma 4 = Lemma 4.2)
v1 = _q("v1", lambda s, xp: _v(s, xp)[0], "softmax(z_1^T z_2, z_1^T z_3)_1", range=(0, 1))
v2 = _q("v2", lambda s, xp: _v(s, xp)[1], "= sigma(z_1^T (z_3 - z_2))", range=(0, 1))
eps = _q("eps", lambda s, xp: _maximum(_maximum(_loss_norm(s, xp, 0), _loss_norm(s, xp, 1), xp),
                                       _loss_norm(s, xp, 2), xp), "max_j ||loss_{i,j}||")
eta = _q("eta", lambda s, xp: _minimum(_minimum(_znorm(s, xp, 0), _znorm(s, xp, 1), xp), _znorm(s, xp, 2), xp),
         "min_j ||z_{i,j}||")
loss1_norm = _q("loss1_norm", lambda s, xp: _loss_norm(s, xp, 0), "||A_1^T grad l||, chain rule", differentiable=False)
loss2_norm = _q("loss2_norm", lambda s, xp: _loss_norm(s, xp, 1), "||A_2^T grad l||, chain rule", differentiable=False)
loss3_norm = _q("loss3_norm", lambda s, xp: _loss_norm(s, xp, 2), "||A_3^T grad l||, chain rule", differentiable=False)
loss1_printed = _q("loss1_printed", lambda s, xp: tl.norm((_v(s, xp)[0] - 1) * s.z[1] + _v(s, xp)[1] * s.z[2], xp),
                   "||(v_1 - 1) z_2 + v_2 z_3||", differentiable=False)
x_scalar = _q("x", lambda s, xp: s.x, "a scalar (the elementary inequalities of the proof of Lemma 7)", range=None)

#: every quantity of a triplet subject
QUANTITIES = (C, ell, ell_step, grad_dot_step, step_sq, hess_norm, grad_rel_err, hess_rel_err, dcos12_norm,
              dcos13_norm, dcos23_norm, z1_norm, z2_norm, z3_norm, softmax_curv_norm, d2cos_norm_min, d2cos_norm_max,
              curv_term_norm, max_norm_prod, v1, v2, eps, eta, loss1_norm, loss2_norm, loss3_norm, loss1_printed,
              hess_norm_fro, softmax_curv_norm_fro, d2cos_norm_min_fro, d2cos_norm_max_fro, curv_term_norm_fro)

#: the radii C the random triplets are drawn with (a shrunk or recorded C lies anywhere between)
RADII = (1.0, 0.05, 0.5, 2.0, 5.0, 10.0, 30.0)


#: the spreads of the step z' when z + z' may leave B^3 (``reach`` > 1): short, of the ball's size, far out
FAR_SPREADS = (0.5, 2.0, 8.0)


def triplet_parts(region: str, radius: Choice, reach: float = 1.0) -> dict[str, Any]:
    """The parts C, z (drawn in ``region``, given C) and z_next = z + z' (near z, given C and z), in the ball of
    radius ``reach`` C (``reach`` = 1: z + z' in B^3)."""
    spreads = (0.5, 1e-3, 2.0) if reach == 1.0 else FAR_SPREADS
    return {"C": radius,
            "z": Given(lambda c: BallTriplet("d", c["C"], draw=region)),
            "z_next": Given(lambda c: BallTriplet("d", reach * c["C"], draw="near", center=c["z"], spreads=spreads))}


def Triplets(region: str = "ball", dims: tuple[int, int] = (1, 4), reach: float = 1.0) -> Family:
    """Random triplets in B^3(C); ``region`` is "ball" or "near_optimal" (see the module docstring); z + z' lies
    in the ball of radius ``reach`` C (``reach`` > 1: the step may leave B^3)."""
    if region not in ("ball", "near_optimal"):
        raise ValueError(f"region = {region!r}: use 'ball' or 'near_optimal'")
    if not reach >= 1.0:
        raise ValueError(f"reach = {reach!r}: z + z' is drawn in the ball of radius reach C, reach >= 1")
    name = f"random triplets ({region})" + ("" if reach == 1.0 else f", z + z' within {reach:g} C")
    return Family(name, dims={"d": dims}, parts=triplet_parts(region, Choice(RADII), reach), quantities=QUANTITIES)


def Scalars(lo: float = 0.0, hi: float = 0.5) -> Family:
    """x in [lo, hi], with the endpoints, 1e-300 and 1e-8 (when inside) drawn often."""
    return Family(f"scalars in [{lo:g}, {hi:g}]", dims={},
                  parts={"x": ScalarWithPoints(float(lo), float(hi), points=(1e-300, 1e-8))}, quantities=(x_scalar,))


__all__ = ["QUANTITIES", "RADII", "Scalars", "Triplets", "near_optimal", "norm0", "project_ball", "sqrt0",
           "triplet_parts"]
