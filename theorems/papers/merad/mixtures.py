"""Finite-mixture subjects for Merad et al. Section 3: a composed :class:`~theorems.subjects.Family`.

A subject is a finite mixture (the :class:`~theorems.subjects.mixture.Mixture` part: rho and per-class
weighted embedded points) plus the integers the claim is about: N negatives (6), k for (k+1)-way tasks
(9)-(10) and a task T (3). Draws: N_C from 1, d from 1, rho uniform or far from uniform (masses down to
1e-12), supports of 1..3 points, at scales from 1e-3 to 1e3 (dot products up to ~1e6, far past float64's
exp overflow at 710); N within the declared range (N >= N_C when asked, and small enough for the exact
enumeration of negative multisets), k in 1..N_C - 1, T a non-empty set of classes. One seeded strategy
draws both the random search's subjects and the adversary's starts.

Every quantity is a formula ``(s, xp)`` over ``s.mixture`` (:class:`~theorems.subjects.mixture.MixtureView`,
the backend arrays of :mod:`numerics.contrastive`), ``s.N``, ``s.k`` and ``s.task``; a paper adds its own the
same way and passes them to :func:`mixture_family` (``quantities=``).
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import contrastive as cl
from theorems.papers.merad import coupon
from numerics.backend import FLOAT, Backend
from numerics.contrastive import MixtureArrays
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture
from numerics.supervised import LinearFit, fit_linear_classifier
from theorems import quantity
from theorems.papers.merad import accuracy
from theorems.subjects.compose import Family, Snapshots, Subject
from theorems.subjects.mixture import Mixture, Subset, finite_mixture
from theorems.subjects.parts import Fixed, Given, Integer, Part

#: beyond this many negative multisets, L^N_un is a Monte Carlo Enclosure (Hoeffding radius)
EXACT_LIMIT = 200_000
MC_SAMPLES = 100_000
MC_ALPHA = 1e-9
#: the Monte Carlo sample of L^N_un is part of the quantity's definition: the same sample (this seed) at every audit
#: seed, so that a subject's value -- screened, confirmed, written to a witness and replayed -- is one number; its
#: error is the enclosure's Hoeffding radius (P(miss) <= MC_ALPHA). It is not a random run of an audit (those take
#: their seeds from numerics.seeds)
MC_SEED = 0

_FITS: "weakref.WeakKeyDictionary[FiniteMixture, dict[tuple[int, ...], LinearFit]]" = weakref.WeakKeyDictionary()


def linear_fit(mixture: FiniteMixture, task: Sequence[int]) -> LinearFit:
    """The float64 minimizer of (3) on ``task``, cached per mixture (re-used by the mp twin)."""
    cache = _FITS.setdefault(mixture, {})
    key = tuple(task)
    if key not in cache:
        cache[key] = fit_linear_classifier(MixtureArrays.from_mixture(mixture, FLOAT), key)
    return cache[key]


def _fitted_loss(arr: MixtureArrays, task: Sequence[int]) -> Any:
    """Upper bracket of L_sup(f, T) in ``arr.xp``: the infimum (3) is at most the objective at every W -- at the float64
    minimizer, and at the mean classifier W^mu evaluated exactly (L^mu_sup, (5)), where the minimizer started; the
    smaller of the two (the float minimizer rounds W^mu, so at 60 digits its objective may exceed L^mu_sup by that
    rounding, which says nothing of L_sup)."""
    fit = linear_fit(finite_mixture(arr), task)
    at_minimizer = cl.linear_classifier_loss(arr, task, arr.xp.asarray(fit.W))
    return arr.xp.minimum(at_minimizer, cl.l_sup_mu(arr, task))


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


def _l_un_n(arr: MixtureArrays, N: int) -> Any:
    """L^N_un exactly when the enumeration is small (pairs x multisets x points), else an Enclosure
    with P(miss) <= MC_ALPHA. For N = 1 the multisets are single points: L^1_un = L_un, exactly."""
    if N == 1:
        return cl.l_un(arr)
    M = arr.cls.size
    pairs = int(np.sum(np.bincount(arr.cls) ** 2))
    if pairs * cl.n_compositions(N, M) * M <= EXACT_LIMIT * 100 or arr.xp.name == "torch":
        return cl.l_un_n(arr, N, max_compositions=max(EXACT_LIMIT, cl.n_compositions(N, M)))
    return cl.l_un_n_monte_carlo(finite_mixture(arr), N, MC_SAMPLES, seed=MC_SEED, alpha=MC_ALPHA)


def _every(s: Any) -> tuple[int, ...]:
    return tuple(range(s.mixture.n_classes))


def _mean(values: list[Any]) -> Any:
    total = values[0]
    for v in values[1:]:
        total = total + v
    return total / len(values)


# -- the quantities of Merad et al. Section 3 (numbers are the paper's equations) -----------------
L_sup = quantity("L_sup", lambda s, xp: _fitted_loss(s.mixture, _every(s)), range=(0, None), differentiable=False,
                 doc="L_sup(f, C), (3) on the task C (an upper bracket: the objective at the L-BFGS minimizer)")
L_sup_mu = quantity("L_sup_mu", lambda s, xp: cl.l_sup_mu(s.mixture), range=(0, None), doc="L^mu_sup(f, C), (5)")
L_sup_T = quantity("L_sup_T", lambda s, xp: _fitted_loss(s.mixture, s.task or _every(s)), range=(0, None),
                   differentiable=False, doc="L_sup(f, T), (3) on the subject's task T (an upper bracket)")
L_sup_mu_T = quantity("L_sup_mu_T", lambda s, xp: cl.l_sup_mu(s.mixture, s.task or _every(s)), range=(0, None),
                      doc="L^mu_sup(f, T), (5)")
L_sup_k = quantity("L_sup_k", lambda s, xp: _mean([_fitted_loss(s.mixture, t)
                                                   for t in cl.tasks(s.mixture.n_classes, s.k)]),
                   range=(0, None), differentiable=False, doc="L_sup,k(f), (9) (an upper bracket)")
L_sup_mu_k = quantity("L_sup_mu_k", lambda s, xp: cl.l_sup_mu_k(s.mixture, s.k), range=(0, None),
                      doc="L^mu_sup,k(f), (10)")
L_un = quantity("L_un", lambda s, xp: cl.l_un(s.mixture), range=(0, None), doc="L_un(f) = L^1_un(f), (6)")
L_un_N = quantity("L_un_N", lambda s, xp: _l_un_n(s.mixture, s.N), range=(0, None), doc="L^N_un(f), (6)")
p_min = quantity("p_min", lambda s, xp: cl.p_min(s.mixture.rho, xp), range=(0, 1),
                 doc="p^rho_min = min_c rho(c), Lemma 1")
p_cc = quantity("p_cc", lambda s, xp: p_cc_value(s.mixture.rho, s.N, xp), range=(0, 1), doc="p^rho_cc(N), Lemma 2")
tau_plus = quantity("tau_plus", lambda s, xp: cl.tau_plus(s.mixture.rho, xp, 1), range=(0, 1),
                    doc="tau^+ = P(c = c'), Proposition 1 (1)")
tau_plus_N = quantity("tau_plus_N", lambda s, xp: cl.tau_plus(s.mixture.rho, xp, s.N), range=(0, 1),
                      doc="tau^+_N, Proposition 1 (2)")
N_C = quantity("N_C", lambda s, xp: xp.asarray(s.mixture.n_classes), integer=True, range=(1, None),
               doc="number of latent classes")
N = quantity("N", lambda s, xp: xp.asarray(s.N), integer=True, range=(1, None), doc="number of negatives in (6)")
k = quantity("k", lambda s, xp: xp.asarray(s.k), integer=True, range=(1, None), doc="(k+1)-way tasks, (9)-(10)")

#: every quantity a finite-mixture family computes (a paper's own come on top: ``quantities=``)
QUANTITIES = (L_sup, L_sup_mu, L_sup_T, L_sup_mu_T, L_sup_k, L_sup_mu_k, L_un, L_un_N, p_min, p_cc, tau_plus,
              tau_plus_N, N_C, N, k)

#: the support points up to which a subject's float screen is audited in mpmath (L_un costs ~M^3 / N_C
#: mpmath operations: fine for the random mixtures, not for M = 200), plus N and k
MAX_CONFIRM_POINTS = 40


def negatives_range(mix: FiniteMixture, negatives: tuple[int, int], n_at_least_classes: bool,
                    max_compositions: int | None) -> tuple[int, int]:
    """N for this mixture: the declared ``negatives``, at least N_C when ``n_at_least_classes``, and (with
    ``max_compositions``) small enough that the exact enumeration of negative multisets stays small."""
    lo, hi = negatives
    if n_at_least_classes:
        lo = max(lo, mix.n_classes)
    if max_compositions is not None:
        M = sum(mix.support_sizes)
        while hi > lo and cl.n_compositions(hi, M) > max_compositions:
            hi -= 1
    return lo, max(lo, hi)


def _parts(mixture: Mixture, negatives: tuple[int, int], n_at_least_classes: bool, max_compositions: int | None,
           k_max: int | None, with_task: bool) -> dict[str, Part]:
    """mixture, then N, k and the task drawn given it. ``k_max``: None for k = 1, else k in 1..min(k_max, N_C - 1)."""
    def n_part(c: Any) -> Part:
        return Integer(*negatives_range(c["mixture"], negatives, n_at_least_classes, max_compositions))

    def k_part(c: Any) -> Part:
        return Integer(1, max(1, min(k_max, c["mixture"].n_classes - 1)))  # type: ignore[type-var]

    return {"mixture": mixture, "N": Given(n_part),
            "k": Integer(1, 1) if k_max is None else Given(k_part),
            "task": Given(lambda c: Subset(c["mixture"].n_classes)) if with_task else Fixed(())}


def mixture_family(uniform: bool | None = None, classes: tuple[int, int] = (1, 4), dims: tuple[int, int] = (1, 3),
                   support: int = 3, negatives: tuple[int, int] = (1, 1), n_at_least_classes: bool = False,
                   with_k: bool = False, with_task: bool = False, max_compositions: int = 3000,
                   structured: float = 0.0, quantities: Sequence[sympy.Symbol] = ()) -> Family:
    """Random finite mixtures (Merad et al. Section 3 setting).

    Args:
        uniform: True for uniform rho only (Section 3.2), None for a mix of uniform and far-from-uniform rho.
        classes: (min, max) N_C.  dims: (min, max) d.  support: max points per class.
        negatives: (min, max) N; ``n_at_least_classes`` draws N >= N_C (Lemma 2 needs p_cc > 0).
        with_k: draw k with 2 <= k+1 <= N_C.  with_task: draw a task T subset of C, |T| >= 1.
        max_compositions: N is drawn small enough that the negative multisets number at most this.
        structured: the share (0..1) of the draws -- the random search's and so the adversary's starts -- taken
            from the structured two-class sub-family :func:`point_vs_pair` (one class a point mass far out,
            the other a symmetric pair near the origin), where Merad et al. Lemma 2 (8) is nearly tight;
            0 (the default) keeps the plain random mixtures.
        quantities: a paper's own quantities on these subjects (formulas ``(s, xp)``), on top of
            :data:`QUANTITIES`.
    """
    if not 0.0 <= structured <= 1.0:
        raise ValueError(f"structured = {structured} is not a share in [0, 1]")
    if structured and not (classes[0] <= 2 <= classes[1] and support >= 2 and not uniform and not with_k):
        raise ValueError("the structured sub-family has N_C = 2, supports of 1 and 2 points and a free rho")
    lo, hi = classes
    mixture = Mixture(classes=(max(lo, 2) if with_k else lo, hi), dims=dims, support=support, uniform=uniform,
                      structured=structured, structure=point_vs_pair_draws if structured else None)
    name = "random finite mixtures" + (" (uniform rho)" if uniform else "") + (
        " (with point-vs-pair draws)" if structured else "")
    return Family(name, dims={}, parts=_parts(mixture, negatives, n_at_least_classes, max_compositions,
                                              hi if with_k else None, with_task),
                  quantities=(*QUANTITIES, *quantities), max_confirm_size=MAX_CONFIRM_POINTS + 2)


#: the name the claims (and user plugins) construct the family by
Mixtures = mixture_family


def snapshot_family(name: str, snapshots: Snapshots, uniform: bool | None, classes: tuple[int, int],
                    dims: tuple[int, int], support: int, negatives: tuple[int, int], k_max: int,
                    quantities: Sequence[sympy.Symbol] = ()) -> Family:
    """Finite mixtures listed by ``snapshots`` (trained encoders: no random draws), within the given bounds
    (``validate`` and witness files enforce them): N anywhere in ``negatives``, k in 1..min(k_max, N_C - 1)."""
    mixture = Mixture(classes=classes, dims=dims, support=support, uniform=uniform)
    return Family(name, dims={}, parts=_parts(mixture, negatives, False, None, k_max, False),
                  quantities=(*QUANTITIES, *quantities), snapshots=snapshots,
                  max_confirm_size=MAX_CONFIRM_POINTS + 2)


def subject(mixture: FiniteMixture, N: int = 1, k: int = 1, task: Sequence[int] = (), source: str = "") -> Subject:
    """A subject of a finite-mixture family: the mixture, N, k and the task (empty: every class)."""
    return Subject({}, {"mixture": mixture, "N": int(N), "k": int(k), "task": tuple(int(t) for t in task)}, source)


_ANY = 2 ** 31
#: a family without bounds, to evaluate the quantities on any mixture (a training run's snapshot); never drawn
_EVALUATION = Family("finite mixtures (evaluation)", dims={},
                     parts={"mixture": Mixture(classes=(1, _ANY), dims=(1, _ANY), support=_ANY),
                            "N": Integer(1, _ANY), "k": Integer(1, _ANY), "task": Fixed(())},
                     quantities=QUANTITIES)


def evaluate(mixture: FiniteMixture, symbols: Iterable[sympy.Symbol], xp: Backend = FLOAT, N: int = 1,
             k: int = 1) -> dict[sympy.Symbol, Any]:
    """The quantities ``symbols`` on one mixture with N negatives and k (outside any family's bounds)."""
    return _EVALUATION.quantities(subject(mixture, N, k), symbols, xp)


# -- the structured sub-family where Lemma 2 (8) is nearly tight ----------------------------------------
#: the ranges its seeded draws use: the point class's mass, its distance, the pair's half-width. The ratio of
#: (8)'s sides tends to 1 - rho^N / (1 - (1 - rho)^N) (rho the point's mass) as far * spread grows with
#: spread << far: the draws aim at that region (rho <= 1/2, far >= 30), where the bound is nearly tight
POINT_MASS = (0.05, 0.5)
FAR = (30.0, 100.0, 300.0, 1000.0)
SPREAD = (0.3, 3.0)
STRUCTURED_SOURCE = "structured: point mass vs symmetric pair"


def point_vs_pair_mixture(rho_point: float, far: float, spread: float, direction: Any,
                          point_first: bool = True) -> FiniteMixture:
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
    return FiniteMixture.create(rho, pts, wts)


def point_vs_pair(rho_point: float, far: float, spread: float, direction: Any, N: int,
                  point_first: bool = True) -> Subject:
    """The subject of :func:`point_vs_pair_mixture` with N negatives."""
    return subject(point_vs_pair_mixture(rho_point, far, spread, direction, point_first), N=N,
                   source=STRUCTURED_SOURCE)


def is_point_vs_pair(mix: FiniteMixture) -> bool:
    """Whether a mixture has the structure of :func:`point_vs_pair_mixture` (a point and a symmetric pair)."""
    if mix.support_sizes not in ((1, 2), (2, 1)):
        return False
    (point,), pair = (mix.points[0], mix.points[1]) if mix.support_sizes[0] == 1 else (mix.points[1], mix.points[0])
    weights = mix.weights[0] if mix.support_sizes[0] == 2 else mix.weights[1]
    return bool(np.any(pair[0] != 0) and np.array_equal(pair[0], -pair[1]) and np.all(weights == 0.5)
                and np.linalg.norm(point) > np.linalg.norm(pair[0]))


def point_vs_pair_draws(part: Mixture) -> st.SearchStrategy[FiniteMixture]:
    """Seeded draws of the structured sub-family within the part's dimensions (see :func:`point_vs_pair_mixture`)."""
    @st.composite
    def draws(draw: Any) -> FiniteMixture:
        d = draw(st.integers(*part.dims))
        direction = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=d, max_size=d)))
        if not np.linalg.norm(direction) > accuracy.SHORTEST_PAIR_DIRECTION:  # a (nearly) zero draw: the first axis
            direction = np.eye(d)[0]
        return point_vs_pair_mixture(rho_point=draw(st.floats(*POINT_MASS)), far=draw(st.sampled_from(FAR)),
                                     spread=draw(st.floats(*SPREAD)), direction=direction,
                                     point_first=draw(st.booleans()))

    return draws()
