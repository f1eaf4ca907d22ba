"""Finite-mixture subjects for Merad et al. Section 3.

A subject is a finite mixture (rho, per-class weighted embedded points) plus
the integers the claim is about: N negatives, k for (k+1)-way tasks, and a
task T. Strategies draw N_C from 1, d from 1, rho uniform or far from uniform
(masses down to 1e-12), supports of 1..3 points, at scales from 1e-3 to 1e3
(dot products up to ~1e6, far past float64's exp overflow at 710).
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import contrastive as cl
from numerics import coupon
from numerics import json_fields as jf
from numerics.backend import FLOAT, Backend
from numerics.contrastive import MixtureArrays
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture
from numerics.supervised import LinearFit, fit_linear_classifier
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity

# -- the quantities of Merad et al. Section 3 (numbers are the paper's equations) -----------------
L_sup = quantity("L_sup", range=(0, None), doc="L_sup(f, C), (3) on the task C (an upper bracket)")
L_sup_mu = quantity("L_sup_mu", range=(0, None), doc="L^mu_sup(f, C), (5)")
L_sup_T = quantity("L_sup_T", range=(0, None), doc="L_sup(f, T), (3) on the subject's task T")
L_sup_mu_T = quantity("L_sup_mu_T", range=(0, None), doc="L^mu_sup(f, T), (5)")
L_sup_k = quantity("L_sup_k", range=(0, None), doc="L_sup,k(f), (9)")
L_sup_mu_k = quantity("L_sup_mu_k", range=(0, None), doc="L^mu_sup,k(f), (10)")
L_un = quantity("L_un", range=(0, None), doc="L_un(f) = L^1_un(f), (6)")
L_un_N = quantity("L_un_N", range=(0, None), doc="L^N_un(f), (6)")
p_min = quantity("p_min", range=(0, 1), doc="p^rho_min = min_c rho(c), Lemma 1")
p_cc = quantity("p_cc", range=(0, 1), doc="p^rho_cc(N), Lemma 2")
tau_plus = quantity("tau_plus", range=(0, 1), doc="tau^+ = P(c = c'), Proposition 1 (1)")
tau_plus_N = quantity("tau_plus_N", range=(0, 1), doc="tau^+_N, Proposition 1 (2)")
N_C = quantity("N_C", integer=True, range=(1, None), doc="number of latent classes")
N = quantity("N", integer=True, range=(1, None), doc="number of negatives in (6)")
k = quantity("k", integer=True, range=(1, None), doc="(k+1)-way tasks, (9)-(10)")

SCALES = (1.0, 0.1, 10.0, 1e-3, 1e3)


@dataclass(frozen=True, eq=False)
class MixtureSubject:
    """A finite mixture with the integers of the claim: N (6), k (9)-(10), task T (3)."""

    mixture: FiniteMixture
    N: int = 1
    k: int = 1
    task: tuple[int, ...] = ()
    source: str = ""  # where the subject came from (e.g. a learned encoder's run and step)

    @property
    def n_classes(self) -> int:
        return self.mixture.n_classes


_FITS: "weakref.WeakKeyDictionary[MixtureSubject, dict[tuple[int, ...], LinearFit]]" = (
    weakref.WeakKeyDictionary()
)


def linear_fit(subject: MixtureSubject, task: Sequence[int]) -> LinearFit:
    """The float64 minimizer of (3) on ``task``, cached per subject (re-used by the mp twin)."""
    cache = _FITS.setdefault(subject, {})
    key = tuple(task)
    if key not in cache:
        cache[key] = fit_linear_classifier(MixtureArrays.from_mixture(subject.mixture, FLOAT), key)
    return cache[key]


def p_cc_value(rho: Any, N: int, xp: Backend) -> Any:
    """p^rho_cc(N) in the backend: certified float / mpmath twin / torch inclusion-exclusion."""
    if xp.name == "float64":
        return np.float64(coupon.p_cc(np.asarray(rho, dtype=float), N))
    if xp.name == "mpmath":
        return coupon.p_cc_mp(list(rho), N, dps=getattr(xp, "dps", 60))
    # torch, small N_C only: sum over subsets S of (-1)^|S| (1 - rho(S))^N
    n = int(rho.shape[0])
    total = 0.0
    for r in range(n + 1):
        for S in itertools.combinations(range(n), r):
            mass = rho[list(S)].sum() if S else rho.sum() * 0
            total = total + (-1) ** r * (1 - mass) ** N
    return total


class Mixtures(SubjectFamily):
    """Random finite mixtures (Merad et al. Section 3 setting).

    Args:
        uniform: True for uniform rho only (Section 3.2), None for a mix of uniform and
            far-from-uniform rho.
        classes: (min, max) N_C.  dims: (min, max) d.  support: max points per class.
        negatives: (min, max) N; ``n_at_least_classes`` draws N >= N_C (Lemma 2 needs p_cc > 0).
        with_k: draw k with 2 <= k+1 <= N_C.  with_task: draw a task T subset of C, |T| >= 1.
        structured: the probability (0..1) that an adversarial start, and the share of the integer
            draw 0..99 that picks a hypothesis draw, come from the structured two-class sub-family
            :func:`point_vs_pair` (one class a point mass far out, the other a symmetric pair near the
            origin), where Merad et al. Lemma 2 (8) is nearly tight; 0 (the default) keeps the plain
            random mixtures. Drawn from the same seeded sources (hypothesis's seed, the start's rng).
    """

    def __init__(
        self,
        uniform: bool | None = None,
        classes: tuple[int, int] = (1, 4),
        dims: tuple[int, int] = (1, 3),
        support: int = 3,
        negatives: tuple[int, int] = (1, 1),
        n_at_least_classes: bool = False,
        with_k: bool = False,
        with_task: bool = False,
        max_compositions: int = 3000,
        structured: float = 0.0,
    ) -> None:
        self.uniform = uniform
        self.classes = classes
        self.dims = dims
        self.max_support = support
        self.negatives = negatives
        self.n_at_least_classes = n_at_least_classes
        self.with_k = with_k
        self.with_task = with_task
        self.max_compositions = max_compositions
        if not 0.0 <= structured <= 1.0:
            raise ValueError(f"structured = {structured} is not a share in [0, 1]")
        if structured and not (classes[0] <= 2 <= classes[1] and support >= 2 and not uniform and not with_k):
            raise ValueError("the structured sub-family has N_C = 2, supports of 1 and 2 points and a free rho")
        self.structured = structured
        self.name = "random finite mixtures" + (" (uniform rho)" if uniform else "") + (
            " (with point-vs-pair draws)" if structured else "")

    # -- drawing ---------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[MixtureSubject]:
        if not self.structured:
            return _mixture_subjects(self)
        share = round(self.structured * 100)
        return st.integers(0, 99).flatmap(
            lambda i: _point_vs_pair_subjects(self) if i < share else _mixture_subjects(self))

    def _n_range(self, n_classes: int, n_points: int) -> tuple[int, int]:
        lo, hi = self.negatives
        if self.n_at_least_classes:
            lo = max(lo, n_classes)
        # keep the exact enumeration of negative multisets small
        while hi > lo and cl.n_compositions(hi, n_points) > self.max_compositions:
            hi -= 1
        return lo, max(lo, hi)

    def random_start(self, rng: np.random.Generator) -> MixtureSubject:
        if self.structured and rng.random() < self.structured:
            return self._point_vs_pair_start(rng)
        lo, hi = self.classes
        n_classes = int(rng.integers(max(lo, 2 if self.with_k else lo), hi + 1))
        d = int(rng.integers(self.dims[0], self.dims[1] + 1))
        sizes = rng.integers(1, self.max_support + 1, size=n_classes)
        scale = float(rng.choice([0.3, 1.0, 3.0]))
        points = [rng.normal(size=(int(s), d)) * scale for s in sizes]
        if self.uniform:
            rho = np.full(n_classes, 1.0 / n_classes)
        else:
            rho = rng.dirichlet(np.full(n_classes, 0.7))
            rho = np.maximum(rho, 1e-6)
            rho = rho / rho.sum()
        weights = [rng.dirichlet(np.ones(int(s))) for s in sizes]
        mix = FiniteMixture.create(rho, points, weights)
        n_lo, n_hi = self._n_range(n_classes, int(sizes.sum()))
        N = int(rng.integers(n_lo, n_hi + 1))
        k = int(rng.integers(1, n_classes)) if self.with_k else 1
        task = tuple(range(n_classes)) if self.with_task else ()
        return MixtureSubject(mix, N=N, k=k, task=task)

    def _point_vs_pair_start(self, rng: np.random.Generator) -> MixtureSubject:
        """A seeded draw of the structured sub-family (see :func:`point_vs_pair`)."""
        d = int(rng.integers(self.dims[0], self.dims[1] + 1))
        n_lo, n_hi = self._n_range(2, 3)
        return point_vs_pair(rho_point=float(rng.uniform(*POINT_MASS)), far=float(rng.choice(FAR)),
                             spread=float(rng.uniform(*SPREAD)), direction=rng.normal(size=d),
                             N=int(rng.integers(n_lo, n_hi + 1)), point_first=bool(rng.integers(0, 2)))

    # -- evaluation --------------------------------------------------------------

    BASE_SYMBOLS = frozenset({L_sup, L_sup_mu, L_sup_T, L_sup_mu_T, L_sup_k, L_sup_mu_k, L_un, L_un_N, p_min, p_cc,
                              tau_plus, tau_plus_N, N_C, N, k})
    #: quantities a paper adds (e.g. the intermediate terms of a proof): symbol -> formula(subject, arrays, xp)
    extensions: dict[sympy.Symbol, Any] = {}

    @classmethod
    def extend(cls, symbol: sympy.Symbol, formula: Any) -> sympy.Symbol:
        """Teach every finite-mixture family a new quantity, written against the backend:
        ``formula(subject, arrays, xp)`` with ``arrays`` the subject's MixtureArrays in ``xp``."""
        cls.extensions[symbol] = formula
        return symbol

    @property
    def symbols(self) -> frozenset[sympy.Symbol]:  # type: ignore[override]
        return self.BASE_SYMBOLS | frozenset(self.extensions)

    @property
    def differentiable(self) -> frozenset[sympy.Symbol]:  # type: ignore[override]
        return self.symbols - {L_sup, L_sup_T, L_sup_k}  # the fitted W of (3) is not a torch function

    # -- the domain ----------------------------------------------------------------
    def class_bounds(self) -> tuple[int, int]:
        """N_C as drawn (at least 2 with k: (k+1)-way tasks need 2 <= k + 1 <= N_C)."""
        lo, hi = self.classes
        return (max(lo, 2) if self.with_k else lo), hi

    def size_bounds(self) -> dict[str, tuple[int, int]]:
        """The sizes the family draws: classes (N_C), dims (d), support (points per class)."""
        return {"classes": self.class_bounds(), "dims": tuple(self.dims), "support": (1, self.max_support)}

    def n_bounds(self, n_classes: int) -> tuple[int, int]:
        """N as drawn for N_C classes (the declared ``negatives``, N >= N_C when asked)."""
        lo, hi = self.negatives
        if self.n_at_least_classes:
            lo = max(lo, n_classes)
        return lo, max(lo, hi)

    def k_bounds(self, n_classes: int) -> tuple[int, int]:
        """k as drawn: 1..N_C - 1 with ``with_k``, else k = 1."""
        return (1, max(1, n_classes - 1)) if self.with_k else (1, 1)

    def validate(self, subject: MixtureSubject) -> None:
        """The family's bounds: N_C, d, support sizes, N and k as drawn, the task (distinct classes with
        ``with_task``, empty meaning every class as the shrinker leaves it; else none), rho uniform when
        asked."""
        mix = subject.mixture
        sizes = self.size_bounds()
        (c_lo, c_hi), (d_lo, d_hi), (s_lo, s_hi) = sizes["classes"], sizes["dims"], sizes["support"]
        n_lo, n_hi = self.n_bounds(mix.n_classes)
        k_lo, k_hi = self.k_bounds(mix.n_classes)
        task = list(subject.task)
        checks = [
            (c_lo <= mix.n_classes <= c_hi, f"N_C = {mix.n_classes} is outside [{c_lo}, {c_hi}]"),
            (d_lo <= mix.dim <= d_hi, f"d = {mix.dim} is outside [{d_lo}, {d_hi}]"),
            (all(s_lo <= n <= s_hi for n in mix.support_sizes),
             f"support sizes {list(mix.support_sizes)} are outside [{s_lo}, {s_hi}]"),
            (not self.uniform or mix.is_uniform(), "rho is not uniform"),
            (n_lo <= subject.N <= n_hi, f"N = {subject.N} is outside [{n_lo}, {n_hi}]"),
            (k_lo <= subject.k <= k_hi, f"k = {subject.k} is outside [{k_lo}, {k_hi}]"
             + (f": (k+1)-way tasks need 2 <= k+1 <= N_C = {mix.n_classes}" if self.with_k else "")),
            (all(0 <= t < mix.n_classes for t in task), f"task {task} names a missing class"),
            (len(set(task)) == len(task), f"task {task} repeats a class"),
            (self.with_task or not task, f"task {task}: this family's subjects have no task"),
        ]
        for ok, message in checks:
            if not ok:
                raise AssumptionError(f"{self.name}: {message}")

    def quantities(
        self, subject: MixtureSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
        params: Any = None,
    ) -> dict[sympy.Symbol, Any]:
        if params is None:
            arr = MixtureArrays.from_mixture(subject.mixture, xp)
        else:
            P, rho, w = self._unpack(subject, params)
            arr = MixtureArrays.build(xp, P, subject.mixture.flat()[1], w, rho)
        every = tuple(range(subject.n_classes))
        task = subject.task or every
        compute = {
            L_sup: lambda: _fitted_loss(subject, arr, every),
            L_sup_mu: lambda: cl.l_sup_mu(arr),
            L_sup_T: lambda: _fitted_loss(subject, arr, task),
            L_sup_mu_T: lambda: cl.l_sup_mu(arr, task),
            L_sup_k: lambda: _mean(
                [_fitted_loss(subject, arr, t) for t in cl.tasks(subject.n_classes, subject.k)]
            ),
            L_sup_mu_k: lambda: cl.l_sup_mu_k(arr, subject.k),
            L_un: lambda: cl.l_un(arr),
            L_un_N: lambda: _l_un_n(subject, arr),
            p_min: lambda: cl.p_min(arr.rho, xp),
            p_cc: lambda: p_cc_value(arr.rho, subject.N, xp),
            tau_plus: lambda: cl.tau_plus(arr.rho, xp, 1),
            tau_plus_N: lambda: cl.tau_plus(arr.rho, xp, subject.N),
            N_C: lambda: xp.asarray(subject.n_classes),
            N: lambda: xp.asarray(subject.N),
            k: lambda: xp.asarray(subject.k),
        }
        for sym, formula in self.extensions.items():
            compute.setdefault(sym, lambda formula=formula: formula(subject, arr, xp))
        return {s: compute[s]() for s in symbols}

    def cheap_to_confirm(self, subject: MixtureSubject) -> bool:
        # L_un costs ~M^3 / N_C mpmath operations: fine for the random mixtures, not for M = 200
        return sum(subject.mixture.support_sizes) <= 40

    # -- adversarial parameters --------------------------------------------------
    def params(self, subject: MixtureSubject) -> list[Any]:
        import torch

        mix = subject.mixture
        P, _, w = mix.flat()
        leaves = [torch.tensor(P, dtype=torch.float64, requires_grad=True),
                  torch.tensor(np.log(w), dtype=torch.float64, requires_grad=True)]
        if not self.uniform:
            leaves.append(torch.tensor(np.log(mix.rho), dtype=torch.float64, requires_grad=True))
        return leaves

    def _unpack(self, subject: MixtureSubject, params: Sequence[Any]) -> tuple[Any, Any, Any]:
        import torch

        P, log_w = params[0], params[1]
        if self.uniform:
            n = subject.n_classes
            rho = torch.full((n,), 1.0 / n, dtype=torch.float64)
        else:
            rho = torch.softmax(params[2], dim=0)
        return P, rho, torch.exp(log_w)  # MixtureArrays.build renormalizes w per class

    def from_params(self, subject: MixtureSubject, params: Sequence[Any]) -> MixtureSubject:
        P, rho, w = (t.detach().numpy().astype(np.float64) for t in self._unpack(subject, params))
        sizes = subject.mixture.support_sizes
        cuts = np.cumsum(sizes)[:-1]
        pts = np.split(P, cuts)
        ws = [x / x.sum() for x in np.split(w, cuts)]
        rho = rho / rho.sum()
        return replace(subject, mixture=FiniteMixture.create(rho, pts, ws))

    # -- shrinking ---------------------------------------------------------------
    def shrink(self, subject: MixtureSubject) -> Iterable[MixtureSubject]:
        mix = subject.mixture
        n = mix.n_classes
        for c in range(n):
            if n > 1:
                keep = [i for i in range(n) if i != c]
                rho = mix.rho[keep] / mix.rho[keep].sum()
                new = FiniteMixture.create(
                    rho, [mix.points[i] for i in keep], [mix.weights[i] for i in keep]
                )
                task = tuple(keep.index(t) for t in subject.task if t != c) if subject.task else ()
                yield replace(subject, mixture=new, k=min(subject.k, max(1, n - 2)), task=task)
        if subject.k > 1:
            yield replace(subject, k=subject.k - 1)
        if subject.N > 1:
            yield replace(subject, N=subject.N - 1)
        for c, p in enumerate(mix.points):
            for s in range(p.shape[0]):
                if p.shape[0] > 1:
                    pts = list(mix.points)
                    wts = list(mix.weights)
                    pts[c] = np.delete(p, s, axis=0)
                    wts[c] = np.delete(wts[c], s) / np.delete(wts[c], s).sum()
                    yield replace(subject, mixture=FiniteMixture.create(mix.rho, pts, wts))
        if mix.dim > 1:
            for j in range(mix.dim):
                pts = [np.delete(p, j, axis=1) for p in mix.points]
                yield replace(subject, mixture=FiniteMixture.create(mix.rho, pts, mix.weights))
        if not mix.is_uniform():
            yield replace(subject, mixture=FiniteMixture.create(
                np.full(n, 1.0 / n), mix.points, mix.weights))
        if any(w.size > 1 and np.ptp(w) > 0 for w in mix.weights):
            yield replace(subject, mixture=FiniteMixture.create(mix.rho, mix.points, None))
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1), lambda a: np.round(a, 3)):
            pts = [transform(p) for p in mix.points]
            if any(not np.array_equal(a, b) for a, b in zip(pts, mix.points)):
                yield replace(subject, mixture=FiniteMixture.create(mix.rho, pts, mix.weights))
        rounded = np.round(mix.rho, 2)
        if np.all(rounded > 0) and not np.array_equal(rounded / rounded.sum(), mix.rho):
            yield replace(subject, mixture=FiniteMixture.create(
                rounded / rounded.sum(), mix.points, mix.weights))

    def size(self, subject: MixtureSubject) -> tuple[float, ...]:
        mix = subject.mixture
        return (mix.n_classes, mix.dim, sum(mix.support_sizes), subject.N, subject.k)

    # -- serialization -------------------------------------------------------------
    def to_json(self, subject: MixtureSubject) -> dict[str, Any]:
        return {"mixture": subject.mixture.to_json(), "N": subject.N, "k": subject.k,
                "task": list(subject.task), "source": subject.source}

    def from_json(self, data: Any) -> MixtureSubject:
        """Exact JSON types, the family's sizes (N_C, support sizes, d: checked before any array is
        built), N, k and the task within the bounds N_C gives; :meth:`validate` checks the rest (rho
        uniform when asked)."""
        where = self.name
        check_fields(data, ("mixture", "N", "k"), ("task", "source"), where)
        sizes = self.size_bounds()
        mix = FiniteMixture.from_json(data["mixture"], where, "mixture", classes=sizes["classes"],
                                      support=sizes["support"], dims=sizes["dims"])
        n_lo, n_hi = self.n_bounds(mix.n_classes)
        k_lo, k_hi = self.k_bounds(mix.n_classes)
        task = jf.integer_list(data.get("task", []), "task", (0, mix.n_classes if self.with_task else 0), 0,
                               mix.n_classes - 1, where, unique=True)
        return MixtureSubject(mix, N=jf.integer(data, "N", n_lo, n_hi, where), k=jf.integer(data, "k", k_lo, k_hi, where),
                              task=tuple(task), source=jf.string(data, "source", where, default=""))

    def describe(self, subject: MixtureSubject) -> str:
        extra = f", N={subject.N}, k={subject.k}"
        if subject.task:
            extra += f", T={list(subject.task)}"
        return subject.mixture.describe() + extra


# -- the structured sub-family where Lemma 2 (8) is nearly tight ----------------------------------------
#: the ranges its seeded draws use: the point class's mass, its distance, the pair's half-width. The ratio of
#: (8)'s sides tends to 1 - rho^N / (1 - (1 - rho)^N) (rho the point's mass) as far * spread grows with
#: spread << far: the draws aim at that region (rho <= 1/2, far >= 30), where the bound is nearly tight
POINT_MASS = (0.05, 0.5)
FAR = (30.0, 100.0, 300.0, 1000.0)
SPREAD = (0.3, 3.0)
STRUCTURED_SOURCE = "structured: point mass vs symmetric pair"


def point_vs_pair(rho_point: float, far: float, spread: float, direction: Any, N: int,
                  point_first: bool = True) -> MixtureSubject:
    """Two classes (Merad et al. Lemma 2 (8)): a point mass at far * u (mass rho_point) and a symmetric pair
    +-spread * u with weights 1/2 (mass 1 - rho_point), u = direction / ||direction||.

    Heuristic asymptotics (not certified; compared with exact values in tests/test_lemma2_structured.py): with
    far * spread >> log N and spread << far, L^mu_sup ~ (1 - rho_point) far spread / 2 and L^N_un ~ the same times
    1 - (1 - rho_point)^N, so the ratio of (8)'s sides tends to p_cc(N) / (1 - (1 - rho_point)^N) =
    1 - rho_point^N / (1 - (1 - rho_point)^N) (e.g. 62/63 for rho uniform, N = 6) as the scale grows."""
    u = np.asarray(direction, dtype=np.float64).reshape(-1)
    norm = float(np.linalg.norm(u))
    if not np.isfinite(norm) or norm == 0:
        raise AssumptionError("point_vs_pair: the direction must be a non-zero finite vector")
    u = u / norm
    point, pair = np.array([far * u]), np.array([spread * u, -spread * u])
    rho = [rho_point, 1.0 - rho_point]
    pts, wts = [point, pair], [np.array([1.0]), np.array([0.5, 0.5])]
    if not point_first:
        rho, pts, wts = rho[::-1], pts[::-1], wts[::-1]
    return MixtureSubject(FiniteMixture.create(rho, pts, wts), N=N, source=STRUCTURED_SOURCE)


@st.composite
def _point_vs_pair_subjects(draw: Any, family: Mixtures) -> MixtureSubject:
    d = draw(st.integers(family.dims[0], family.dims[1]))
    direction = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=d, max_size=d)))
    if not np.linalg.norm(direction) > 1e-6:  # a (nearly) zero draw: take the first axis
        direction = np.eye(d)[0]
    n_lo, n_hi = family._n_range(2, 3)
    return point_vs_pair(rho_point=draw(st.floats(*POINT_MASS)), far=draw(st.sampled_from(FAR)),
                         spread=draw(st.floats(*SPREAD)), direction=direction, N=draw(st.integers(n_lo, n_hi)),
                         point_first=draw(st.booleans()))


#: beyond this many negative multisets, L^N_un is a Monte Carlo Enclosure (Hoeffding radius)
EXACT_LIMIT = 200_000
MC_SAMPLES = 100_000
MC_ALPHA = 1e-9


def _l_un_n(subject: MixtureSubject, arr: MixtureArrays) -> Any:
    """L^N_un exactly when the enumeration is small (pairs x multisets x points), else an Enclosure
    with P(miss) <= MC_ALPHA. For N = 1 the multisets are single points: L^1_un = L_un, exactly."""
    if subject.N == 1:
        return cl.l_un(arr)
    M = arr.cls.size
    pairs = sum(n * n for n in subject.mixture.support_sizes)
    if pairs * cl.n_compositions(subject.N, M) * M <= EXACT_LIMIT * 100 or arr.xp.name == "torch":
        return cl.l_un_n(arr, subject.N, max_compositions=max(EXACT_LIMIT, cl.n_compositions(subject.N, M)))
    return cl.l_un_n_monte_carlo(subject.mixture, subject.N, MC_SAMPLES, seed=0, alpha=MC_ALPHA)


def _fitted_loss(subject: MixtureSubject, arr: MixtureArrays, task: Sequence[int]) -> Any:
    """Upper bracket of L_sup(f, T): the objective of (3) at the float64 minimizer, in ``arr.xp``."""
    fit = linear_fit(subject, task)
    return cl.linear_classifier_loss(arr, task, arr.xp.asarray(fit.W))


def _mean(values: list[Any]) -> Any:
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total / len(values)


def _rho_strategy(n_classes: int, uniform: bool | None) -> st.SearchStrategy[np.ndarray]:
    uniform_rho = st.just(np.full(n_classes, 1.0 / n_classes))
    if uniform:
        return uniform_rho
    # far from uniform: masses whose logs span 12 decades (tiny masses included)
    raw = st.lists(st.floats(-12.0, 0.0), min_size=n_classes, max_size=n_classes).map(
        lambda e: np.power(10.0, np.asarray(e))
    )
    skewed = raw.map(lambda r: r / r.sum())
    return st.one_of(uniform_rho, skewed) if uniform is None else skewed


@st.composite
def _mixture_subjects(draw: Any, family: Mixtures) -> MixtureSubject:
    lo, hi = family.classes
    if family.with_k:
        lo = max(lo, 2)
    n_classes = draw(st.integers(lo, hi))
    d = draw(st.integers(family.dims[0], family.dims[1]))
    scale = draw(st.sampled_from(SCALES))
    rho = draw(_rho_strategy(n_classes, family.uniform))
    points, weights = [], []
    for _ in range(n_classes):
        size = draw(st.integers(1, family.max_support))
        coords = draw(st.lists(st.floats(-1.0, 1.0), min_size=size * d, max_size=size * d))
        points.append(np.asarray(coords).reshape(size, d) * scale)
        raw_w = draw(st.lists(st.floats(0.05, 1.0), min_size=size, max_size=size))
        weights.append(np.asarray(raw_w) / np.sum(raw_w))
    mix = FiniteMixture.create(rho, points, weights)
    n_lo, n_hi = family._n_range(n_classes, sum(mix.support_sizes))
    N = draw(st.integers(n_lo, n_hi))
    k = draw(st.integers(1, n_classes - 1)) if family.with_k else 1
    task: tuple[int, ...] = ()
    if family.with_task:
        members = draw(st.lists(st.integers(0, n_classes - 1), min_size=1, unique=True))
        task = tuple(sorted(members))
    return MixtureSubject(mix, N=N, k=k, task=task)
