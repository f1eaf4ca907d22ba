"""Tests of numerics.contrastive (and numerics.supervised) against Merad et al. Section 3.

Every loss is compared with a DIRECT, UNVECTORIZED evaluation of the paper's
formula written here with plain Python loops:

* (1) D_sim: loop over classes c ~ rho, then x ~ D_c and x+ ~ D_c;
* (2) D_neg^{(x)N}: loop over all *ordered* N-tuples of negative support points
  (itertools.product) with product probabilities -- deliberately not the
  multiset/multinomial enumeration used by ``l_un_n``;
* (5) the mean classifier's cross-entropy -log(exp(s_c) / sum_{c' in T} exp(s_c'))
  evaluated literally (no log-sum-exp shift);
* (10) the average over uniformly drawn *distinct* classes, enumerated as ordered
  (k+1)-tuples (itertools.permutations), not as the code's combinations;
* tau^+_N = P[c_i = c for all i] by enumerating (c, c_1..c_N) ~ rho^{(x)N+1}.

The reference is written once against a "math module" ``M`` and evaluated with
``math`` (float64) and with ``mpmath`` at 60 digits (which never overflows, so it
also serves as the reference at embedding norms of 1e3).

Mixtures use dyadic rho and weights (k / 2^m), so they are exact in float64
and sum to exactly 1: the reference and the code see the same distribution.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
import pytest

from numerics import contrastive as C
from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.mixture import FiniteMixture
from numerics.supervised import fit_linear_classifier

REL = 1e-12  # float64 / torch / mpmath backends vs the float64 reference
MP_REL = 1e-40  # mpmath backend (50 digits) vs the 60-digit reference
MP_DPS = 50
REF_DPS = 60


# -- mixtures ----------------------------------------------------------------------


def dyadic_distribution(rng: np.random.Generator, n: int, denom: int = 64) -> list[float]:
    """n positive masses k_i / denom summing to exactly 1 (exact in float64)."""
    counts = rng.multinomial(denom - n, [1.0 / n] * n) + 1
    return [float(k) / denom for k in counts]


@dataclass(frozen=True)
class Spec:
    name: str
    rho: tuple[float, ...]
    points: tuple[tuple[tuple[float, ...], ...], ...]
    weights: tuple[tuple[float, ...], ...]

    def mixture(self) -> FiniteMixture:
        return FiniteMixture.create(
            list(self.rho), [np.array(p) for p in self.points], [list(w) for w in self.weights]
        )

    @property
    def n_classes(self) -> int:
        return len(self.rho)


def random_spec(seed: int, n_classes: int, d: int, sizes: Sequence[int], scale: float = 1.5) -> Spec:
    rng = np.random.default_rng(seed)
    rho = dyadic_distribution(rng, n_classes)
    points, weights = [], []
    for s in sizes:
        pts = rng.normal(0.0, scale, size=(s, d))
        points.append(tuple(tuple(float(v) for v in row) for row in pts))
        weights.append(tuple(dyadic_distribution(rng, s, 16)))
    return Spec(
        f"seed{seed}-NC{n_classes}-d{d}-s{''.join(map(str, sizes))}",
        tuple(rho), tuple(points), tuple(weights),
    )


def shared_point_spec() -> Spec:
    """Two classes share a support point (duplicates across classes are legal)."""
    p = (0.7, -1.1)
    return Spec(
        "shared-point",
        (0.25, 0.75),
        (((1.2, 0.3), p), (p, (-0.4, 0.9))),
        ((0.5, 0.5), (0.375, 0.625)),
    )


SPECS = [
    random_spec(1, 2, 1, (1, 2)),
    random_spec(2, 2, 2, (2, 2)),
    random_spec(3, 3, 1, (2, 1, 2)),
    random_spec(4, 3, 2, (2, 2, 2)),
    random_spec(5, 3, 2, (1, 1, 1)),
    shared_point_spec(),
]
SPEC_IDS = [s.name for s in SPECS]

BACKENDS = ["float", "mpmath", "torch"]


def evaluate(backend: str, mix: FiniteMixture, fn: Callable[[C.MixtureArrays, Any], Any]) -> Any:
    """fn(arr, xp) on the mixture converted to one backend (mpmath: inside its precision)."""
    if backend == "float":
        xp = FLOAT
        return fn(C.MixtureArrays.from_mixture(mix, xp), xp)
    if backend == "torch":
        xp = torch_backend()
        return fn(C.MixtureArrays.from_mixture(mix, xp), xp)
    xp = mp_backend(MP_DPS)
    with xp.precision():
        return fn(C.MixtureArrays.from_mixture(mix, xp), xp)


def as_number(v: Any) -> Any:
    """A backend scalar as float (float/torch) or mpf (mpmath, exact)."""
    if isinstance(v, mpmath.mpf):
        return v
    if hasattr(v, "detach"):
        return float(v.detach())
    return float(v)


def rel_err(x: Any, ref: Any) -> float:
    with mpmath.workdps(REF_DPS):
        x = mpmath.mpf(x)
        ref = mpmath.mpf(ref)
        return float(abs(x - ref) / abs(ref))


# -- the direct reference ----------------------------------------------------------


class Direct:
    """Merad et al. (1)-(10) on a finite mixture, with plain loops, in the number system M."""

    def __init__(self, spec: Spec, M: Any) -> None:
        self.M = M
        num = M.mpf if M is mpmath else float
        self.rho = [num(r) for r in spec.rho]
        self.points = [[[num(v) for v in y] for y in pts] for pts in spec.points]
        self.weights = [[num(w) for w in ws] for ws in spec.weights]
        self.n_classes = len(self.rho)

    @staticmethod
    def dot(a: Sequence[Any], b: Sequence[Any]) -> Any:
        total = 0
        for u, v in zip(a, b):
            total = total + u * v
        return total

    def mu(self, c: int) -> list[Any]:
        """(4): W^mu_{c,:} = E_{x ~ D_c} f(x)."""
        d = len(self.points[c][0])
        out = []
        for j in range(d):
            s = 0
            for w, y in zip(self.weights[c], self.points[c]):
                s = s + w * y[j]
            out.append(s)
        return out

    def l_sup_mu(self, task: Sequence[int]) -> Any:
        """(5) with D_T(x, c) = rho(c | T) D_c(x)."""
        M = self.M
        rho_T = 0
        for c in task:
            rho_T = rho_T + self.rho[c]
        mus = {c: self.mu(c) for c in task}
        total = 0
        for c in task:
            for w, y in zip(self.weights[c], self.points[c]):
                numer = M.exp(self.dot(mus[c], y))
                denom = 0
                for c2 in task:
                    denom = denom + M.exp(self.dot(mus[c2], y))
                total = total + (self.rho[c] / rho_T) * w * (-M.log(numer / denom))
        return total

    def l_sup_mu_k(self, k: int) -> Any:
        """(10): draw k+1 *distinct* classes uniformly (ordered draws), average (5)."""
        total = 0
        count = 0
        for draw in itertools.permutations(range(self.n_classes), k + 1):
            total = total + self.l_sup_mu(draw)
            count += 1
        return total / count

    def negatives(self) -> list[tuple[Any, list[Any]]]:
        """(2): D_neg puts mass rho(c) w_{c,s} on y_{c,s}."""
        out = []
        for c in range(self.n_classes):
            for w, y in zip(self.weights[c], self.points[c]):
                out.append((self.rho[c] * w, y))
        return out

    def triples(self, N: int):
        """Yield (probability, x, x+, X-) over D_sim (x) D_neg^{(x)N}, ordered N-tuples."""
        negs = self.negatives()
        for c in range(self.n_classes):
            for wx, x in zip(self.weights[c], self.points[c]):
                for wp, xpos in zip(self.weights[c], self.points[c]):
                    p_pair = self.rho[c] * wx * wp
                    for tup in itertools.product(negs, repeat=N):
                        p = p_pair
                        for pn, _ in tup:
                            p = p * pn
                        yield p, x, xpos, [y for _, y in tup]

    def integrand(self, x: Any, xpos: Any, negs: Sequence[Any]) -> Any:
        """-log(exp(f(x)^T f(x+)) / (exp(f(x)^T f(x+)) + sum_{x-} exp(f(x)^T f(x-)))), (6)."""
        M = self.M
        pos = M.exp(self.dot(x, xpos))
        denom = pos
        for y in negs:
            denom = denom + M.exp(self.dot(x, y))
        return -M.log(pos / denom)

    def l_un_n(self, N: int) -> Any:
        total = 0
        for p, x, xpos, negs in self.triples(N):
            total = total + p * self.integrand(x, xpos, negs)
        return total

    def l_un_n_moments(self, N: int) -> tuple[Any, Any, Any, Any]:
        """(E g, E g^2, min g, max g) of the integrand g of (6) over its support."""
        m1 = m2 = 0
        lo, hi = None, None
        for p, x, xpos, negs in self.triples(N):
            g = self.integrand(x, xpos, negs)
            m1 = m1 + p * g
            m2 = m2 + p * g * g
            lo = g if lo is None or g < lo else lo
            hi = g if hi is None or g > hi else hi
        return m1, m2, lo, hi

    def tau_plus(self, N: int) -> Any:
        """P[c_i = c for all i | (c, c_1..c_N) ~ rho^{(x)N+1}], by enumeration."""
        total = 0
        for draw in itertools.product(range(self.n_classes), repeat=N + 1):
            if all(ci == draw[0] for ci in draw):
                p = 1
                for ci in draw:
                    p = p * self.rho[ci]
                total = total + p
        return total

    def p_min(self) -> Any:
        best = self.rho[0]
        for r in self.rho[1:]:
            if r < best:
                best = r
        return best


@functools.lru_cache(maxsize=None)
def reference(spec: Spec, quantity: str, arg: Any = None, precise: bool = False) -> Any:
    """The direct reference: float64 (math) or 60-digit (mpmath)."""
    if precise:
        with mpmath.workdps(REF_DPS):
            return _reference(Direct(spec, mpmath), quantity, arg)
    return _reference(Direct(spec, math), quantity, arg)


def _reference(ref: Direct, quantity: str, arg: Any) -> Any:
    if quantity == "mu":
        return [ref.mu(c) for c in range(ref.n_classes)]
    if quantity == "l_sup_mu":
        return ref.l_sup_mu(arg)
    if quantity == "l_sup_mu_k":
        return ref.l_sup_mu_k(arg)
    if quantity == "l_un_n":
        return ref.l_un_n(arg)
    if quantity == "moments":
        return ref.l_un_n_moments(arg)
    if quantity == "tau_plus":
        return ref.tau_plus(arg)
    if quantity == "p_min":
        return ref.p_min()
    raise KeyError(quantity)


def check(backend: str, spec: Spec, value: Any, quantity: str, arg: Any = None) -> None:
    """value agrees with the float64 reference to REL (and, for mpmath, the 60-digit one to MP_REL)."""
    v = as_number(value)
    ref = reference(spec, quantity, arg)
    assert rel_err(v, ref) <= REL, (backend, quantity, arg, v, ref)
    if backend == "mpmath":
        assert isinstance(v, mpmath.mpf), type(v)
        ref_hi = reference(spec, quantity, arg, precise=True)
        assert rel_err(v, ref_hi) <= MP_REL, (quantity, arg, v, ref_hi)


def all_tasks(n_classes: int) -> list[tuple[int, ...]]:
    """Every ordered task of >= 2 distinct classes (row order of W^mu follows the task)."""
    out: list[tuple[int, ...]] = []
    for size in range(2, n_classes + 1):
        out.extend(itertools.permutations(range(n_classes), size))
    return out


# -- exact values vs the direct formula ---------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_mu_matches_class_means(spec: Spec, backend: str) -> None:
    mu = evaluate(backend, spec.mixture(), lambda arr, xp: arr.mu)
    ref = reference(spec, "mu")
    ref_hi = reference(spec, "mu", precise=True)
    assert tuple(mu.shape) == (spec.n_classes, len(spec.points[0][0]))
    for c in range(spec.n_classes):
        for j in range(len(ref[c])):
            v = as_number(mu[c, j])
            assert abs(v - ref[c][j]) <= REL * max(1.0, abs(ref[c][j]))
            if backend == "mpmath":
                with mpmath.workdps(REF_DPS):
                    assert abs(v - ref_hi[c][j]) <= mpmath.mpf(MP_REL) * max(1, abs(ref_hi[c][j]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_l_sup_mu_whole_task_and_subtasks(spec: Spec, backend: str) -> None:
    """(5) on T = C (default argument) and on every ordered sub-task, D_T(c) = rho(c)/rho(T)."""
    full = tuple(range(spec.n_classes))
    tasks = all_tasks(spec.n_classes)

    def fn(arr: C.MixtureArrays, xp: Any) -> Any:
        return C.l_sup_mu(arr), [C.l_sup_mu(arr, t) for t in tasks]

    whole, per_task = evaluate(backend, spec.mixture(), fn)
    check(backend, spec, whole, "l_sup_mu", full)
    for t, v in zip(tasks, per_task):
        check(backend, spec, v, "l_sup_mu", t)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_l_sup_mu_k_is_average_over_distinct_draws(spec: Spec, backend: str) -> None:
    ks = list(range(1, spec.n_classes))
    values = evaluate(backend, spec.mixture(), lambda arr, xp: [C.l_sup_mu_k(arr, k) for k in ks])
    for k, v in zip(ks, values):
        check(backend, spec, v, "l_sup_mu_k", k)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_l_un_single_negative(spec: Spec, backend: str) -> None:
    v = evaluate(backend, spec.mixture(), lambda arr, xp: C.l_un(arr))
    check(backend, spec, v, "l_un_n", 1)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_l_un_n_over_ordered_negative_tuples(spec: Spec, backend: str) -> None:
    Ns = [1, 2, 3]
    values = evaluate(backend, spec.mixture(), lambda arr, xp: [C.l_un_n(arr, N) for N in Ns])
    for N, v in zip(Ns, values):
        check(backend, spec, v, "l_un_n", N)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_l_un_n_at_one_equals_l_un(spec: Spec, backend: str) -> None:
    a, b = evaluate(backend, spec.mixture(), lambda arr, xp: (C.l_un_n(arr, 1), C.l_un(arr)))
    assert rel_err(as_number(a), as_number(b)) <= (1e-40 if backend == "mpmath" else 1e-13)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("spec", SPECS, ids=SPEC_IDS)
def test_tau_plus_and_p_min(spec: Spec, backend: str) -> None:
    def fn(arr: C.MixtureArrays, xp: Any) -> Any:
        return (
            C.tau_plus(arr.rho, xp),
            [C.tau_plus(arr.rho, xp, N) for N in (1, 2, 3)],
            C.p_min(arr.rho, xp),
        )

    t_default, t_n, pmin = evaluate(backend, spec.mixture(), fn)
    check(backend, spec, t_default, "tau_plus", 1)
    for N, v in zip((1, 2, 3), t_n):
        check(backend, spec, v, "tau_plus", N)
    check(backend, spec, pmin, "p_min")


@pytest.mark.parametrize("backend", BACKENDS)
def test_renormalization_of_nearly_normalized_rho(backend: str) -> None:
    """rho summing to 1 - 1e-12 (inside the tolerance) is renormalized, not used as is."""
    spec = SPECS[3]
    rho = np.array(spec.rho) * (1 - 1e-12)
    mix = FiniteMixture.create(list(rho), [np.array(p) for p in spec.points],
                               [list(w) for w in spec.weights])
    v = evaluate(backend, mix, lambda arr, xp: (xp.sum(arr.rho), C.l_un_n(arr, 2)))
    assert rel_err(as_number(v[0]), 1.0) <= 1e-15
    assert rel_err(as_number(v[1]), reference(spec, "l_un_n", 2)) <= REL


# -- closed forms -------------------------------------------------------------------------


CONSTANT_F = [
    ("zero", 0.0),
    ("constant", 0.8),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,value", CONSTANT_F, ids=[n for n, _ in CONSTANT_F])
def test_constant_encoder_closed_forms(backend: str, name: str, value: float) -> None:
    """f constant (f = 0 or f = v for every x): L^mu_sup(f,T) = log|T|, L^mu_sup,k = log(k+1),
    L^N_un = log(N+1), L_un = log 2, whatever rho and D_c are."""
    rng = np.random.default_rng(7)
    n_classes, d = 3, 2
    v = np.full(d, value)
    points = [np.tile(v, (s, 1)) for s in (2, 1, 2)]
    weights = [dyadic_distribution(rng, p.shape[0], 16) for p in points]
    mix = FiniteMixture.create(dyadic_distribution(rng, n_classes), points, weights)
    tasks = all_tasks(n_classes)

    def fn(arr: C.MixtureArrays, xp: Any) -> Any:
        return (
            C.l_sup_mu(arr),
            [C.l_sup_mu(arr, t) for t in tasks],
            [C.l_sup_mu_k(arr, k) for k in (1, 2)],
            C.l_un(arr),
            [C.l_un_n(arr, N) for N in (1, 2, 3)],
        )

    whole, per_task, per_k, lun, lun_n = evaluate(backend, mix, fn)
    tol = 1e-40 if backend == "mpmath" else 1e-14
    with mpmath.workdps(REF_DPS):
        assert rel_err(as_number(whole), mpmath.log(n_classes)) <= tol
        for t, val in zip(tasks, per_task):
            assert rel_err(as_number(val), mpmath.log(len(t))) <= tol, t
        for k, val in zip((1, 2), per_k):
            assert rel_err(as_number(val), mpmath.log(k + 1)) <= tol, k
        assert rel_err(as_number(lun), mpmath.log(2)) <= tol
        for N, val in zip((1, 2, 3), lun_n):
            assert rel_err(as_number(val), mpmath.log(N + 1)) <= tol, N


# -- large scales ---------------------------------------------------------------------------


def large_spec(seed: int, n_classes: int) -> Spec:
    """Embeddings of norm 1e3 (dot products ~1e6), d = 2, with one point shared by every
    class so that L^mu_sup is of order 1e6 too (no relative comparison of an e^{-1e5})."""
    rng = np.random.default_rng(seed)
    shared = 1e3 * np.array([math.cos(0.3 + seed), math.sin(0.3 + seed)])
    points, weights = [], []
    for _ in range(n_classes):
        angle = rng.uniform(0, 2 * math.pi)
        own = 1e3 * np.array([math.cos(angle), math.sin(angle)])
        points.append((tuple(float(v) for v in own), tuple(float(v) for v in shared)))
        weights.append(tuple(dyadic_distribution(rng, 2, 16)))
    return Spec(f"large-{seed}-NC{n_classes}", tuple(dyadic_distribution(rng, n_classes)),
                tuple(points), tuple(weights))


LARGE_SPECS = [large_spec(11, 2), large_spec(12, 3)]


def large_quantities(spec: Spec) -> Callable[[C.MixtureArrays, Any], list[tuple[str, Any, Any]]]:
    tasks = [tuple(range(spec.n_classes)), (1, 0)]

    def fn(arr: C.MixtureArrays, xp: Any) -> list[tuple[str, Any, Any]]:
        out = [("l_sup_mu", t, C.l_sup_mu(arr, t)) for t in tasks]
        out += [("l_sup_mu_k", k, C.l_sup_mu_k(arr, k)) for k in range(1, spec.n_classes)]
        out += [("l_un_n", 1, C.l_un(arr))]
        out += [("l_un_n", N, C.l_un_n(arr, N)) for N in (1, 2, 3)]
        return out

    return fn


@pytest.mark.parametrize("spec", LARGE_SPECS, ids=[s.name for s in LARGE_SPECS])
def test_large_scale_finite_and_matches_mpmath(spec: Spec) -> None:
    mix = spec.mixture()
    assert mix.max_norm == pytest.approx(1e3)
    fn = large_quantities(spec)
    exact = evaluate("mpmath", mix, fn)
    for name, arg, v in exact:
        # the mpmath backend is itself right at this scale (direct formula, 60 digits)
        ref = reference(spec, name, arg, precise=True)
        assert rel_err(v, ref) <= 1e-30, (name, arg)
        assert v > 1e3, (name, arg)  # the mixture was built so that no value is ~0
    for backend in ("float", "torch"):
        for (name, arg, v), (_, _, m) in zip(evaluate(backend, mix, fn), exact):
            x = as_number(v)
            assert math.isfinite(x), (backend, name, arg, x)
            assert rel_err(x, m) <= 1e-9, (backend, name, arg, x, m)


# -- Monte Carlo --------------------------------------------------------------------------


MC_SPEC = SPECS[3]  # N_C = 3, d = 2, supports of 2


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_monte_carlo_interval_covers_exact(seed: int) -> None:
    N = 2
    exact = reference(MC_SPEC, "l_un_n", N)
    est = C.l_un_n_monte_carlo(MC_SPEC.mixture(), N, samples=3000, seed=seed, alpha=1e-12)
    lo, hi = est.lo, est.hi
    assert lo <= exact <= hi
    assert est.alpha == 1e-12 and "3000 samples" in est.how and f"seed {seed}" in est.how


def test_monte_carlo_is_unbiased_within_five_sigma() -> None:
    """A sharper check than Hoeffding: the sample mean is within 5 exact standard errors."""
    N = 3
    m1, m2, _, _ = reference(MC_SPEC, "moments", N)
    sigma = math.sqrt(m2 - m1 * m1)
    n = 200_000
    for seed in (5, 6):
        est = C.l_un_n_monte_carlo(MC_SPEC.mixture(), N, samples=n, seed=seed)
        assert abs(est.mid - m1) <= 5 * sigma / math.sqrt(n), (est.mid, m1, sigma)


def test_monte_carlo_radius_is_rigorous_hoeffding() -> None:
    """The radius uses a range containing every value of the integrand (exhaustive)."""
    N, n, alpha = 2, 500, 1e-6
    _, _, gmin, gmax = reference(MC_SPEC, "moments", N)
    est = C.l_un_n_monte_carlo(MC_SPEC.mixture(), N, samples=n, seed=0, alpha=alpha)
    assert est.radius >= (gmax - gmin) * math.sqrt(math.log(2 / alpha) / (2 * n)) * (1 - 1e-12)
    assert gmin - 1e-12 <= est.mid <= gmax + 1e-12


def test_monte_carlo_radius_shrinks_like_inverse_sqrt_samples() -> None:
    mix = MC_SPEC.mixture()
    radii = {n: C.l_un_n_monte_carlo(mix, 2, samples=n, seed=3).radius for n in (100, 400, 1600)}
    assert radii[100] > 0
    assert radii[100] / radii[400] == pytest.approx(2.0, rel=1e-12)
    assert radii[400] / radii[1600] == pytest.approx(2.0, rel=1e-12)
    # smaller alpha, wider interval
    assert C.l_un_n_monte_carlo(mix, 2, 100, 3, alpha=1e-12).radius > radii[100]


def test_monte_carlo_reproducible_by_seed() -> None:
    mix = MC_SPEC.mixture()
    a = C.l_un_n_monte_carlo(mix, 3, samples=1000, seed=42)
    b = C.l_un_n_monte_carlo(mix, 3, samples=1000, seed=42)
    c = C.l_un_n_monte_carlo(mix, 3, samples=1000, seed=43)
    assert a.mid == b.mid and a.radius == b.radius
    assert a.mid != c.mid


# -- the linear classifier of (3) ---------------------------------------------------------


def nonseparable_mixture() -> FiniteMixture:
    """Every class has the same support (spanning R^2 positively): (3) has a finite minimizer."""
    pts = [[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]
    return FiniteMixture.create(
        [0.25, 0.375, 0.375], [pts, pts, pts],
        [[0.5, 0.25, 0.25], [0.125, 0.5, 0.375], [0.25, 0.25, 0.5]],
    )


def separable_mixture() -> FiniteMixture:
    return FiniteMixture.create([0.5, 0.5], [[[1.0, 0.0], [1.0, 0.5]], [[-1.0, 0.0], [-1.0, -0.5]]])


def mp_objective(mix: FiniteMixture, task: Sequence[int], W: np.ndarray) -> Any:
    xp = mp_backend(MP_DPS)
    with xp.precision():
        arr = C.MixtureArrays.from_mixture(mix, xp)
        return C.linear_classifier_loss(arr, task, xp.asarray(W))


def torch_gradient_norm(mix: FiniteMixture, task: Sequence[int], W: np.ndarray) -> float:
    """Gradient of the objective of (3) by autograd through linear_classifier_loss."""
    import torch

    xp = torch_backend()
    arr = C.MixtureArrays.from_mixture(mix, xp)
    Wt = torch.tensor(W, dtype=torch.float64, requires_grad=True)
    C.linear_classifier_loss(arr, task, Wt).backward()
    return float(torch.linalg.norm(Wt.grad))


@pytest.mark.parametrize("task", [(0, 1, 2), (2, 0)])
def test_fit_linear_classifier_nonseparable(task: tuple[int, ...]) -> None:
    mix = nonseparable_mixture()
    arr = C.MixtureArrays.from_mixture(mix, FLOAT)
    fit = fit_linear_classifier(arr, task)
    assert fit.task == task and fit.W.shape == (len(task), 2)
    mean_loss = float(C.l_sup_mu(arr, task))
    assert fit.value <= mean_loss
    assert fit.value < mean_loss - 1e-3  # the mean classifier is not optimal here
    assert fit.grad_norm < 1e-7
    assert torch_gradient_norm(mix, task, fit.W) < 1e-7
    # the value at the returned W, re-evaluated at 50 digits
    assert rel_err(fit.value, mp_objective(mix, task, fit.W)) <= REL
    # ... and the objective at a perturbed W is not lower (convex, stationary point)
    rng = np.random.default_rng(0)
    for _ in range(5):
        W2 = fit.W + 1e-3 * rng.normal(size=fit.W.shape)
        assert float(mp_objective(mix, task, W2)) >= fit.value - 1e-14


def test_fit_linear_classifier_default_task_and_float_only() -> None:
    mix = nonseparable_mixture()
    fit = fit_linear_classifier(C.MixtureArrays.from_mixture(mix, FLOAT))
    assert fit.task == (0, 1, 2)
    with pytest.raises(TypeError):
        fit_linear_classifier(C.MixtureArrays.from_mixture(mix, torch_backend()))


def test_fit_linear_classifier_separable_goes_to_zero() -> None:
    mix = separable_mixture()
    arr = C.MixtureArrays.from_mixture(mix, FLOAT)
    fit = fit_linear_classifier(arr)
    assert 0 <= fit.value < 1e-3
    assert fit.value <= float(C.l_sup_mu(arr))
    exact = mp_objective(mix, (0, 1), fit.W)
    assert 0 < exact < 1e-3
    assert rel_err(fit.value, exact) <= 1e-4


def test_fit_value_matches_mpmath_objective_when_separable() -> None:
    # regression: logsumexp(S) - S_own cancelled here (value 8e-6 relatively below the truth)
    mix = separable_mixture()
    fit = fit_linear_classifier(C.MixtureArrays.from_mixture(mix, FLOAT))
    exact = mp_objective(mix, (0, 1), fit.W)
    assert rel_err(fit.value, exact) <= REL


@pytest.mark.parametrize("backend", ["float", "torch"])
def test_l_sup_mu_relative_accuracy_on_well_separated_mixture(backend: str) -> None:
    # regression: logsumexp(scores) - own lost 3.5e-9 relative accuracy on a 1.67e-7 loss
    spec = Spec("separated", (0.5, 0.5), (((3.0,), (2.5,)), ((-3.0,),)), ((0.5, 0.5), (1.0,)))
    v = evaluate(backend, spec.mixture(), lambda arr, xp: C.l_sup_mu(arr))
    assert rel_err(as_number(v), reference(spec, "l_sup_mu", (0, 1), precise=True)) <= REL


@pytest.mark.parametrize("scale", [1.0, 12.0])
def test_monte_carlo_exp_space_sum_equals_per_draw_logsumexp(scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """The exp-space sum (rows of moderate spread) and the per-draw log-sum-exp (wide rows) give
    the same estimate on the same draws; the memo returns what it stored for the same arguments."""
    mix = SPECS[3].mixture()
    mix = type(mix)(mix.rho, tuple(p * scale for p in mix.points), mix.weights)  # spread grows ~ scale^2
    monkeypatch.setattr(C, "_MC_MEMO", {})
    fast = C.l_un_n_monte_carlo(mix, 4, samples=5000, seed=7)
    assert C.l_un_n_monte_carlo(mix, 4, samples=5000, seed=7) is fast
    monkeypatch.setattr(C, "_MC_MEMO", {})
    monkeypatch.setattr(C, "_EXP_SPREAD", -1.0)  # every row through the per-draw log-sum-exp
    slow = C.l_un_n_monte_carlo(mix, 4, samples=5000, seed=7)
    assert fast.mid == pytest.approx(slow.mid, rel=1e-13, abs=1e-13), (fast, slow)
    assert fast.radius == pytest.approx(slow.radius, rel=1e-14)
