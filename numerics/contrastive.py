"""Exact finite-mixture values of the losses of Merad et al. Section 3.

Every function takes a :class:`MixtureArrays` built for one backend ``xp``
(float64, mpmath or torch, see :mod:`numerics.backend`) and evaluates the
paper's formula once for all three. Notation (Merad et al.):

* D_sim (1): c ~ rho, then x, x+ ~ D_c independently;
* D_neg (2): x- ~ sum_c rho(c) D_c;
* mean classifier (4): W^mu_{c,:} = mu_c = E_{x~D_c} f(x);
* L^mu_sup(f, T) (5), L^N_un(f) (6), L^mu_sup,k (10).

L^N_un on learned embeddings at MoCo scale (B anchors sharing a queue of N negatives, a
log-sum-exp over B x N logits) is :mod:`numerics.streaming`: chunked, with an online
log-sum-exp and a chunked backward (torch); training.losses uses it.

These are the field's shared library, for outsiders too (an outside plugin such as
examples/infonce builds its claims on them), not one paper's own code: a paper's own numerics live
in its package (Merad et al.'s triplet loss and coupon collector: theorems/papers/merad/).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence, TypeVar

import numpy as np

from numerics.backend import FLOAT, Backend, logsumexp_float64
from numerics.enclosure import Enclosure
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture, check_k, check_negatives

#: exact enumeration of negative multisets is used up to this many multisets
MAX_COMPOSITIONS = 20_000


@dataclass(frozen=True, eq=False)
class MixtureArrays:
    """A finite mixture converted to one backend (rho and weights renormalized exactly).

    P: (M, d) support points; cls: (M,) class of each point (numpy ints);
    w: (M,) within-class masses; rho: (N_C,); pi: (M,) = rho[cls] * w, the
    D_neg mass of each point; onehot: (M, N_C) class indicator.
    """

    xp: Backend
    P: Any
    cls: np.ndarray
    w: Any
    rho: Any
    onehot: Any

    @classmethod
    def from_mixture(cls, mix: FiniteMixture, xp: Backend) -> "MixtureArrays":
        P, klass, w = mix.flat()
        return cls.build(xp, xp.asarray(P), klass, xp.asarray(w), xp.asarray(mix.rho))

    @classmethod
    def build(cls, xp: Backend, P: Any, klass: np.ndarray, w: Any, rho: Any) -> "MixtureArrays":
        n_classes = int(klass.max()) + 1
        onehot_np = (klass[:, None] == np.arange(n_classes)[None, :]).astype(np.float64)
        onehot = xp.asarray(onehot_np)
        # renormalize so that the high-precision twin sums to exactly 1
        rho = rho / xp.sum(rho)
        class_mass = _matvec_t(onehot, w)  # (N_C,) sum of w per class
        w = w / _gather(class_mass, klass)
        return cls(xp=xp, P=P, cls=klass, w=w, rho=rho, onehot=onehot)

    @property
    def n_classes(self) -> int:
        return int(self.onehot.shape[1])

    @property
    def pi(self) -> Any:
        return _gather(self.rho, self.cls) * self.w

    @property
    def mu(self) -> Any:
        """Class means mu_c = E_{x~D_c} f(x), (4): shape (N_C, d)."""
        return _transpose(self.onehot * self.w[:, None]) @ self.P

    @property
    def gram(self) -> Any:
        """f(x)^T f(x') for all pairs of support points: (M, M)."""
        return self.P @ _transpose(self.P)


def _transpose(a: Any) -> Any:
    return a.T


def _matvec_t(A: Any, v: Any) -> Any:
    """A^T v."""
    return A.T @ v


def _gather(v: Any, idx: np.ndarray) -> Any:
    return v[idx.tolist()] if not isinstance(v, np.ndarray) else v[idx]


def _rows(a: Any, idx: Sequence[int]) -> Any:
    return a[list(idx)]


# -- supervised side -------------------------------------------------------------


def task_weights(arr: MixtureArrays, task: Sequence[int]) -> tuple[list[int], Any]:
    """Rows of the points whose class is in T, and their D_T masses rho(c|T) w (Section 3)."""
    task = list(task)
    rows = [m for m in range(arr.cls.size) if int(arr.cls[m]) in task]
    mass_t = arr.xp.sum(_rows(arr.rho, task))
    weights = _rows(arr.pi, rows) / mass_t
    return rows, weights


def own_class_mask(own_col: Sequence[int], n_cols: int) -> np.ndarray:
    """-inf at each row's own column, 0 elsewhere: removes the own class from an LSE."""
    mask = np.zeros((len(own_col), n_cols))
    mask[np.arange(len(own_col)), list(own_col)] = -np.inf
    return mask


def _task_loss(arr: MixtureArrays, task: Sequence[int], W: Any) -> Any:
    """E_{(x,c)~D_T}[-log softmax(W f(x))_c] with W's rows indexed like ``task``.

    Each term is zeta(LSE_{c' != c}(s_c' - s_c)), not LSE(s) - s_c: when the own class
    wins by a wide margin the latter subtracts two nearly equal numbers (a loss of 1e-7
    came out with relative error 3e-9 in float64); the former keeps full relative accuracy.
    """
    xp = arr.xp
    task = list(task)
    rows, weights = task_weights(arr, task)
    if len(task) == 1:  # a one-class task: -log softmax = 0 exactly
        return xp.sum(weights) * 0
    scores = _rows(arr.P, rows) @ _transpose(W)  # (|rows|, |T|)
    own_col = [task.index(int(arr.cls[m])) for m in rows]
    own = scores[list(range(len(rows))), own_col]
    others = scores - own[:, None] + xp.asarray(own_class_mask(own_col, len(task)))
    return xp.sum(weights * xp.softplus(xp.logsumexp(others, axis=1)))


def l_sup_mu(arr: MixtureArrays, task: Sequence[int] | None = None) -> Any:
    """L^mu_sup(f, T) of (5): cross-entropy of the mean classifier (4) on task T."""
    task = list(range(arr.n_classes)) if task is None else list(task)
    return _task_loss(arr, task, _rows(arr.mu, task))


def linear_classifier_loss(arr: MixtureArrays, task: Sequence[int], W: Any) -> Any:
    """Objective of (3) at a given W in R^{|T| x d}: an upper bracket of L_sup(f, T)."""
    return _task_loss(arr, task, W)


def tasks(n_classes: int, k: int) -> list[tuple[int, ...]]:
    """All (k+1)-way tasks: the support of the uniform D^{k+1} of (9)."""
    check_k(k, n_classes)
    return list(itertools.combinations(range(n_classes), k + 1))


def l_sup_mu_k(arr: MixtureArrays, k: int) -> Any:
    """L^mu_sup,k(f) of (10): L^mu_sup averaged over uniformly drawn (k+1)-way tasks."""
    all_tasks = tasks(arr.n_classes, k)
    total = l_sup_mu(arr, all_tasks[0])
    for t in all_tasks[1:]:
        total = total + l_sup_mu(arr, t)
    return total / len(all_tasks)


# -- unsupervised side -----------------------------------------------------------


def _positive_pairs(arr: MixtureArrays) -> tuple[list[int], list[int]]:
    """Index pairs (anchor, positive) of support points of the same class: D_sim's support
    (anchor-major order)."""
    cls = np.asarray(arr.cls)
    A, B = np.nonzero(cls[:, None] == cls[None, :])
    return A.tolist(), B.tolist()


def _pair_logits(arr: MixtureArrays) -> tuple[Any, Any]:
    """x_{q,m} = f(x)^T (f(x-_m) - f(x+)) for each positive pair q and negative point m,
    and the D_sim mass of each pair q = rho(c) w_x w_{x+}."""
    A, B = _positive_pairs(arr)
    G = arr.gram
    GA = _rows(G, A)  # (Q, M)
    pos = GA[list(range(len(A))), B]  # f(x)^T f(x+)
    logits = GA - pos[:, None]
    pair_mass = _rows(arr.pi, A) * _rows(arr.w, B)
    return logits, pair_mass


def l_un(arr: MixtureArrays) -> Any:
    """L_un(f) = L^1_un(f) of (6): E zeta(f(x)^T (f(x-) - f(x+))) (proof of Lemma 1)."""
    xp = arr.xp
    logits, pair_mass = _pair_logits(arr)
    per_pair = xp.sum(xp.softplus(logits) * arr.pi[None, :], axis=1)
    return xp.sum(pair_mass * per_pair)


def compositions(N: int, M: int) -> np.ndarray:
    """All count vectors (n_1..n_M) >= 0 with sum N: the multisets of N negatives over M points."""
    out = []
    for bars in itertools.combinations(range(N + M - 1), M - 1):
        prev = -1
        row = []
        for b in bars:
            row.append(b - prev - 1)
            prev = b
        row.append(N + M - 1 - prev - 1)
        out.append(row)
    return np.asarray(out, dtype=np.int64).reshape(-1, M)


@functools.lru_cache(maxsize=64)
def _multisets(N: int, M: int) -> tuple[np.ndarray, np.ndarray]:
    """The count vectors of :func:`compositions` and their multinomial coefficients N!/prod n_m!
    (exact integers, an object array), computed once per (N, M) and shared read-only."""
    counts = compositions(N, M)
    coef = np.array([math.factorial(N) // math.prod(math.factorial(int(c)) for c in row) for row in counts],
                    dtype=object)
    counts.flags.writeable = coef.flags.writeable = False
    return counts, coef


def n_compositions(N: int, M: int) -> int:
    return math.comb(N + M - 1, M - 1)


def l_un_n(arr: MixtureArrays, N: int, max_compositions: int = MAX_COMPOSITIONS) -> Any:
    """L^N_un(f) of (6), exactly: sum over multisets of the N negatives with multinomial masses.

    For a positive pair with logits x_m = f(x)^T (f(x-_m) - f(x+)) and negative counts n,
    the integrand is log(1 + sum_m n_m e^{x_m}) = zeta(LSE_m(log n_m + x_m)).
    """
    N = check_negatives(N)
    xp = arr.xp
    M = arr.cls.size
    if n_compositions(N, M) > max_compositions:
        raise AssumptionError(
            f"N = {N} negatives over M = {M} support points give {n_compositions(N, M)} multisets,"
            f" more than the exact-enumeration limit {max_compositions}: use l_un_n_monte_carlo"
        )
    counts, coef = _multisets(N, M)  # (K, M), (K,)
    log_pi = xp.log(arr.pi)  # (M,)
    counts_b = xp.asarray(counts.astype(np.float64))
    # log P(counts) = log(multinomial coefficient) + sum_m n_m log pi_m
    log_prob = xp.log(xp.asarray(coef)) + xp.sum(counts_b * log_pi[None, :], axis=1)  # (K,)
    with np.errstate(divide="ignore"):
        log_counts = xp.log(counts_b)  # -inf where n_m = 0
    logits, pair_mass = _pair_logits(arr)  # (Q, M)
    inner = xp.logsumexp(log_counts[None, :, :] + logits[:, None, :], axis=2)  # (Q, K)
    per_pair = xp.sum(xp.exp(log_prob)[None, :] * xp.softplus(inner), axis=1)
    return xp.sum(pair_mass * per_pair)


def l_un_n_monte_carlo(
    mix: FiniteMixture, N: int, samples: int, seed: int, alpha: float = 1e-6
) -> Enclosure:
    """L^N_un(f) of (6) by sampling, with Hoeffding's radius on the bounded integrand.

    The integrand log(1 + sum_i e^{x_i}) lies in [log(1 + N e^{min x}), log(1 + N e^{max x})]
    where min/max run over all logits of the finite mixture, so Hoeffding's inequality gives
    P(|mean - L^N_un| >= r) <= alpha with r = range * sqrt(log(2/alpha) / (2 * samples)).
    Returns the enclosure [mean - r, mean + r] (its ``mid`` is the sample mean).

    The estimate is a deterministic function of its arguments, so the last few are kept
    (:data:`_MC_MEMO`): a figure that plots the values a check has just computed reuses them.
    """
    N = check_negatives(N)
    if samples < 1:
        raise AssumptionError(f"samples = {samples}: Monte Carlo needs at least one sample")
    key = _array_key((mix.rho, *mix.points, *mix.weights), N, samples, seed, alpha)
    return _kept(_MC_MEMO, _MC_MEMO_SIZE, key, lambda: _monte_carlo(mix, N, samples, seed, alpha))


#: the last Monte Carlo estimates, keyed by the mixture's bytes and the sampling parameters
_MC_MEMO: dict[str, Enclosure] = {}
_MC_MEMO_SIZE = 512


def _array_key(arrays: Iterable[Any], *params: Any) -> str:
    """A memo key: sha256 of ``params`` and of each array's shape and float64 bytes."""
    h = hashlib.sha256(repr(params).encode())
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.float64)
        h.update(repr(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


_T = TypeVar("_T")


def _kept(memo: dict[str, _T], size: int, key: str, make: Callable[[], _T]) -> _T:
    """``memo[key]``, made by ``make()`` when missing; the memo keeps its last ``size`` entries."""
    if key not in memo:
        while len(memo) >= size:
            memo.pop(next(iter(memo)))
        memo[key] = make()
    return memo[key]


#: rows of logits whose spread is below this are summed in exp space (no term underflows)
_EXP_SPREAD = 600.0


def _monte_carlo(mix: FiniteMixture, N: int, samples: int, seed: int, alpha: float) -> Enclosure:
    arr = MixtureArrays.from_mixture(mix, FLOAT)
    logits, pair_mass = _pair_logits(arr)
    pair_p = np.asarray(pair_mass, dtype=np.float64)
    pair_p = pair_p / pair_p.sum()
    pi = np.asarray(arr.pi)
    pi = pi / pi.sum()
    q, negs = _draws(pair_p, pi, samples, N, seed)
    top = logits.max(axis=1)
    if float(np.max(top - logits.min(axis=1))) <= _EXP_SPREAD:
        # sum_i e^{x_i} = e^{top_q} sum_i e^{x_i - top_q}: one exp per logit, not per draw; every
        # term is >= e^-600, far above float64's smallest normal, so no term is lost
        scaled = np.exp(logits - top[:, None])
        lse = top[q] + np.log(scaled.ravel()[q[:, None] * logits.shape[1] + negs].sum(axis=1))
    else:
        lse = logsumexp_float64(logits[q[:, None], negs], axis=1)  # (samples,)
    vals = np.logaddexp(0.0, lse)
    lo = float(np.logaddexp(0.0, np.log(N) + logits.min()))
    hi = float(np.logaddexp(0.0, np.log(N) + logits.max()))
    radius = (hi - lo) * math.sqrt(math.log(2.0 / alpha) / (2.0 * samples))
    return Enclosure.around(float(vals.mean()), radius, alpha,
                            f"Monte Carlo, {samples} samples (seed {seed}), Hoeffding radius {radius:.3g}")


def _draws(pair_p: np.ndarray, pi: np.ndarray, samples: int, N: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The sampled positive pairs q (samples,) and negatives (samples, N) of :func:`_monte_carlo`.

    They depend on the masses and the seed only, not on f: the snapshots of a training run (and
    runs on the same evaluation images) draw the same indices, so the last few are kept
    (:data:`_DRAWS_MEMO`) -- the same arrays, drawn once."""
    def draw() -> tuple[np.ndarray, np.ndarray]:
        rng = np.random.default_rng(seed)
        q = _choice(rng, pair_p, samples)
        negs = _choice(rng, pi, (samples, N))
        q.flags.writeable = negs.flags.writeable = False  # shared by every later call
        return q, negs

    return _kept(_DRAWS_MEMO, _DRAWS_MEMO_SIZE, _array_key((pair_p, pi), samples, N, seed), draw)


#: the last draws of :func:`_draws` (a few: (samples, N) indices are 28 MB at 100 000 x 35)
_DRAWS_MEMO: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_DRAWS_MEMO_SIZE = 4


#: buckets of the lookup table of :func:`_choice` (a power of 2: u * K is exact)
_CHOICE_BUCKETS = 1 << 14


def _choice(rng: np.random.Generator, p: np.ndarray, shape: int | tuple[int, ...]) -> np.ndarray:
    """``rng.choice(p.size, size=shape, p=p)`` (with replacement): the same draws, faster.

    numpy draws u = rng.random(shape) and returns searchsorted(cdf, u, side="right") with
    cdf = cumsum(p) / its last entry. The index is non-decreasing in u, so for u in the bucket
    [k / K, (k + 1) / K) (k = floor(u K), exact for K a power of 2) it lies between the indices
    of the bucket's two ends; where those agree (most buckets) it is read from a table, and only
    the rest is searched. Same random stream, same indices (tests/test_bench_sampling.py)."""
    cdf = np.asarray(p, dtype=np.float64).cumsum()
    cdf /= cdf[-1]
    u = rng.random(shape)
    K = _CHOICE_BUCKETS
    ends = cdf.searchsorted(np.arange(K + 1, dtype=np.float64) / K, side="right")
    k = (u * K).astype(np.intp)
    idx = ends[k]
    amb = np.flatnonzero(idx != ends[k + 1])
    if amb.size:
        flat = idx.reshape(-1)
        flat[amb] = cdf.searchsorted(u.reshape(-1)[amb], side="right")
    return idx.astype(np.int64, copy=False)


# -- class-distribution constants ---------------------------------------------------


def tau_plus(rho: Any, xp: Backend, N: int = 1) -> Any:
    """tau^+_N = P(c_i = c for all i) = sum_c rho(c)^(N+1) (after Proposition 1); tau^+ = tau^+_1."""
    N = check_negatives(N)
    return xp.sum(rho ** (N + 1))


def p_min(rho: Any, xp: Backend) -> Any:
    """p^rho_min = min_c rho(c) (Lemma 1)."""
    return xp.min(rho)
