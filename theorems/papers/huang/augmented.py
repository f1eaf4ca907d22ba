"""Exact finite-sum quantities of Huang et al. (augmented data, ICLR 2023 slides).

The setting (:class:`AugmentedSetting`): n samples x with latent class labels
(K classes), sample masses P(x) (class weights p_k = class mass), and for each
sample a finite augmentation set A(x) of ``a`` equally likely augmented inputs
(``inputs``, shape (n, a, m)) with the encoder values f(x') at each of them
(``feats``, shape (n, a, d)). By convention the first augmentation is the sample
itself (A(x) contains x), which is where the nearest-centre classifier G_f(x)
is evaluated.

Every formula is written once against a backend ``xp`` (float64 numpy, mpmath
object arrays, torch) through :class:`AugArrays`. Combinatorial quantities
(argmin sets, cliques, the main parts, S_eps) are computed in float64 / exact
rationals from the concrete setting.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import networkx as nx
import numpy as np

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems import Comparison, above, holds


# -- the setting -------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class AugmentedSetting:
    """n samples, K classes, a augmentations per sample, inputs in R^m, encoder values in R^d."""

    labels: np.ndarray  # (n,) ints in 0..K-1, every class non-empty
    mass: np.ndarray  # (n,) > 0, sums to 1
    inputs: np.ndarray  # (n, a, m) augmented inputs (A(x), x itself first)
    feats: np.ndarray  # (n, a, d) f(x') for every augmented input
    n_classes: int
    # results of the combinatorial functions below (nearest-centre sets, cliques, distances), which
    # depend only on the arrays: the arrays are read-only copies, so an entry can never go stale
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def create(cls, labels: Any, mass: Any, inputs: Any, feats: Any, n_classes: int | None = None
               ) -> "AugmentedSetting":
        labels = np.asarray(labels, dtype=int)
        mass = np.asarray(mass, dtype=float)
        inputs = np.asarray(inputs, dtype=float)
        feats = np.asarray(feats, dtype=float)
        if labels.ndim != 1 or labels.size == 0:
            raise AssumptionError(f"labels must be a non-empty 1-d array, got shape {labels.shape}")
        n = labels.size
        K = int(labels.max()) + 1 if n_classes is None else int(n_classes)
        if labels.min() < 0 or labels.max() >= K:
            raise AssumptionError(f"labels must lie in 0..{K - 1}, got {labels.tolist()}")
        missing = sorted(set(range(K)) - set(labels.tolist()))
        if missing:
            raise AssumptionError(f"class(es) {missing} have no sample: every latent class needs P[C_k] > 0")
        if mass.shape != (n,):
            raise AssumptionError(f"mass has shape {mass.shape}, expected ({n},)")
        if not np.all(np.isfinite(mass)) or np.any(mass <= 0):
            raise AssumptionError(f"sample masses must be finite and > 0, got {mass.tolist()}")
        if feats.ndim != 3 or feats.shape[0] != n or feats.shape[1] < 1 or feats.shape[2] < 1:
            raise AssumptionError(f"feats must have shape (n={n}, a>=1, d>=1), got {feats.shape}")
        if inputs.ndim != 3 or inputs.shape[:2] != feats.shape[:2] or inputs.shape[2] < 1:
            raise AssumptionError(f"inputs must have shape (n, a, m) = ({n}, {feats.shape[1]}, m), "
                                  f"got {inputs.shape}")
        if not (np.all(np.isfinite(feats)) and np.all(np.isfinite(inputs))):
            raise AssumptionError("inputs and encoder values must be finite")
        arrays = [np.array(a) for a in (labels, mass / mass.sum(), inputs, feats)]
        for a in arrays:
            a.setflags(write=False)
        return cls(*arrays, K)

    def memo(self, key: Any, compute: Any) -> Any:
        """``compute()`` once per setting and key."""
        if key not in self._memo:
            value = compute()
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            self._memo[key] = value
        return self._memo[key]

    @property
    def n(self) -> int:
        return int(self.labels.size)

    @property
    def a(self) -> int:
        return int(self.feats.shape[1])

    @property
    def d(self) -> int:
        return int(self.feats.shape[2])

    @property
    def class_mass(self) -> np.ndarray:
        return np.bincount(self.labels, weights=self.mass, minlength=self.n_classes)

    def with_feats(self, feats: np.ndarray) -> "AugmentedSetting":
        return AugmentedSetting.create(self.labels, self.mass, self.inputs, feats, self.n_classes)

    def to_json(self) -> dict[str, Any]:
        return {"labels": self.labels.tolist(), "mass": self.mass.tolist(), "inputs": self.inputs.tolist(),
                "feats": self.feats.tolist(), "n_classes": self.n_classes}

    @classmethod
    def from_json(cls, data: Any, where: str = "augmented setting", name: str = "setting",
                  classes: jf.Axis = (1, None), samples: jf.Axis = (1, None), augmentations: jf.Axis = (1, None),
                  input_dims: jf.Axis = (1, None), dims: jf.Axis = (1, None)) -> "AugmentedSetting":
        """Read a setting written by :meth:`to_json`: exact JSON types, K, n, |A|, m and d within the
        given bounds, every list's length checked before any array is built."""
        jf.fields(data, ("labels", "mass", "inputs", "feats", "n_classes"), (), where, name)
        K = jf.as_integer(data["n_classes"], f"{name}.n_classes", *jf.bounds(classes), where)
        labels = jf.integer_array(data["labels"], f"{name}.labels", (samples,), where, ("n (samples)",), 0, K - 1)
        n = labels.size
        mass = jf.real_array(data["mass"], f"{name}.mass", (n,), where, ("n (one mass per sample)",))
        feats = jf.real_array(data["feats"], f"{name}.feats", (n, augmentations, dims), where,
                              ("n (samples)", "|A(x)| (augmentations)", "d"))
        inputs = jf.real_array(data["inputs"], f"{name}.inputs", (n, feats.shape[1], input_dims), where,
                               ("n (samples)", "|A(x)| (as in feats)", "m (input dimension)"))
        return cls.create(labels, mass, inputs, feats, K)

    def describe(self) -> str:
        return (f"n={self.n}, K={self.n_classes}, |A|={self.a}, m={self.inputs.shape[2]}, d={self.d}, "
                f"p={np.round(self.class_mass, 4).tolist()}, labels={self.labels.tolist()}, "
                f"f={np.round(self.feats, 4).tolist()}")


def writable(a: np.ndarray) -> np.ndarray:
    """A writable array with the values of ``a`` (a copy when ``a`` is one of a setting's read-only
    arrays): torch warns about tensors over read-only memory."""
    return a if a.flags.writeable else np.array(a)


# -- backend arrays --------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class AugArrays:
    """The setting in one backend: F (n, a, d), w (n,) masses, onehot (n, K)."""

    xp: Backend
    F: Any
    w: Any
    onehot: Any
    labels: np.ndarray
    # shared intermediate results (centres, scores, ...) of one evaluation: every quantity of a subject
    # is computed from the same arrays, so in torch the graph holds each intermediate once
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def once(self, key: str, compute: Any) -> Any:
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @classmethod
    def from_setting(cls, s: AugmentedSetting, xp: Backend, feats: Any = None) -> "AugArrays":
        F = xp.asarray(writable(s.feats)) if feats is None else feats
        w = xp.asarray(writable(s.mass))
        w = w / xp.sum(w)
        onehot = xp.asarray((s.labels[:, None] == np.arange(s.n_classes)[None, :]).astype(float))
        return cls(xp, F, w, onehot, s.labels)

    @property
    def n(self) -> int:
        return int(self.F.shape[0])

    @property
    def a(self) -> int:
        return int(self.F.shape[1])

    @property
    def d(self) -> int:
        return int(self.F.shape[2])

    def eye(self, k: int) -> Any:
        return self.xp.asarray(np.eye(k))


def class_weights(arr: AugArrays) -> Any:
    """p_k = P[C_k] (K,)."""
    return arr.once("p", lambda: arr.onehot.T @ arr.w)


def sample_means(arr: AugArrays) -> Any:
    """m_x = E_{x' in A(x)} f(x') (n, d)."""
    return arr.once("m", lambda: arr.xp.sum(arr.F, axis=1) / arr.a)


def centres(arr: AugArrays) -> Any:
    """mu_k = E_{x in C_k} E_{x' in A(x)} f(x') (K, d)."""
    return arr.once("mu", lambda: ((arr.onehot * arr.w[:, None]).T @ sample_means(arr)) / class_weights(arr)[:, None])


def cross_correlation(arr: AugArrays) -> Any:
    """C = E_x E_{x1, x2 in A(x)} f(x1) f(x2)^T, x1, x2 independent uniform in A(x) (d, d).

    Written as the average over all a^2 ordered pairs (not via the sample means)."""
    return arr.once("C", lambda: _cross_correlation(arr))


def _cross_correlation(arr: AugArrays) -> Any:
    F = arr.F
    outer = F[:, :, None, :, None] * F[:, None, :, None, :]  # (n, a, a, d, d)
    per_x = arr.xp.sum(arr.xp.sum(outer, axis=1), axis=1) / (arr.a * arr.a)  # (n, d, d)
    return arr.xp.sum(per_x * arr.w[:, None, None], axis=0)


def centre_second_moment(arr: AugArrays) -> Any:
    """sum_k p_k mu_k mu_k^T (d, d)."""
    mu, p = centres(arr), class_weights(arr)
    return mu.T @ (mu * p[:, None])


def frob_sq(arr: AugArrays, M: Any) -> Any:
    return arr.xp.sum(M * M)


def barlow_trace_sides(arr: AugArrays) -> dict[str, Any]:
    """The three printed forms of (1): ||sum p mu mu^T - I_d||^2, ||U^T U - I_K||^2 and the double sum."""
    xp = arr.xp
    mu, p = centres(arr), class_weights(arr)
    K, d = int(mu.shape[0]), arr.d
    U = (mu * xp.sqrt(p)[:, None]).T  # (d, K): columns sqrt(p_k) mu_k
    lhs = frob_sq(arr, U @ U.T - arr.eye(d))
    gram = frob_sq(arr, U.T @ U - arr.eye(K))
    dots = mu @ mu.T  # (K, K)
    sq = xp.sqrt(p[:, None] * p[None, :])
    double_sum = xp.sum((sq * dots - arr.eye(K)) ** 2)
    return {"lhs": lhs, "gram": gram, "sum": double_sum}


def pair_terms(arr: AugArrays) -> tuple[Any, Any, Any]:
    """(mu_k^T mu_l (K, K), p_k (K,), p_k p_l (K, K))."""
    mu, p = centres(arr), class_weights(arr)
    return mu @ mu.T, p, p[:, None] * p[None, :]


# -- alignment, InfoNCE, cross-correlation, simple contrastive ------------------------------------
def align_loss(arr: AugArrays) -> Any:
    """L_align = L_positive = E_x E_{x1, x2 in A(x)} ||f(x1) - f(x2)||^2 (all a^2 ordered pairs)."""
    return arr.once("align", lambda: _align_loss(arr))


def _align_loss(arr: AugArrays) -> Any:
    diff = arr.F[:, :, None, :] - arr.F[:, None, :, :]  # (n, a, a, d)
    sq = arr.xp.sum(diff * diff, axis=3)  # (n, a, a)
    per_x = arr.xp.sum(arr.xp.sum(sq, axis=2), axis=1) / (arr.a * arr.a)
    return arr.xp.sum(per_x * arr.w)


def _pos_neg_scores(arr: AugArrays) -> tuple[Any, Any]:
    """s_pos[x, i, j] = f(x_i)^T f(x_j); s_neg[x, i, x', l] = f(x_i)^T f(x'_l)."""
    return arr.once("scores", lambda: _scores(arr))


def _scores(arr: AugArrays) -> tuple[Any, Any]:
    F = arr.F
    s_pos = arr.xp.sum(F[:, :, None, :] * F[:, None, :, :], axis=3)  # (n, a, a)
    s_neg = arr.xp.sum(F[:, :, None, None, :] * F[None, None, :, :, :], axis=4)  # (n, a, n, a)
    return s_pos, s_neg


def _infonce_weights(arr: AugArrays) -> Any:
    """P(x) P(x') / a^3 on the (x, i, j, x', l) grid."""
    return arr.once("nce_w", lambda: _nce_weights(arr))


def _nce_weights(arr: AugArrays) -> Any:
    w = arr.w
    return (w[:, None, None, None, None] * w[None, None, None, :, None]) / (arr.a ** 3)


def infonce(arr: AugArrays) -> Any:
    """L_InfoNCE = -E log e^{s12} / (e^{s12} + e^{s1-}) = E softplus(s1- - s12) (as printed)."""
    s_pos, s_neg = _pos_neg_scores(arr)
    z = s_neg[:, :, None, :, :] - s_pos[:, :, :, None, None]  # (n, a, a, n, a)
    return arr.xp.sum(arr.xp.softplus(z) * _infonce_weights(arr))


def infonce_l1(arr: AugArrays) -> Any:
    """L_1 = 1/2 E ||f(x1) - f(x2)||^2 - 1 (the slide's underbrace)."""
    return align_loss(arr) / 2 - 1


def infonce_l2(arr: AugArrays) -> Any:
    """L_2 = E log(e^{s12} + e^{s1-}) = E [max + log1p(e^{-|s12 - s1-|})] (no overflow)."""
    return arr.once("l2", lambda: _infonce_l2(arr))


def _infonce_l2(arr: AugArrays) -> Any:
    s_pos, s_neg = _pos_neg_scores(arr)
    sp = s_pos[:, :, :, None, None]
    sn = s_neg[:, :, None, :, :]
    lse = sp + arr.xp.softplus(sn - sp)
    return arr.xp.sum(lse * _infonce_weights(arr))


def crosscorr_parts(arr: AugArrays, lam: Any) -> dict[str, Any]:
    """L_Cross-Corr as printed, its L_1 = sum_i (1 - C_ii)^2 and L_2 = ||C - I_d||^2."""
    xp = arr.xp
    C = cross_correlation(arr)
    I = arr.eye(arr.d)
    diag = xp.sum(C * I, axis=1)
    off = xp.asarray(1 - np.eye(arr.d))
    l1 = xp.sum((1 - diag) ** 2)
    printed = l1 + lam * xp.sum(C * C * off)
    l2 = frob_sq(arr, C - I)
    return {"loss": printed, "l1": l1, "l2": l2, "C": C}


def coordinate_second_moments(arr: AugArrays) -> Any:
    """E_x E_{x' in A(x)} f_i(x')^2 for each i (d,)."""
    per_x = arr.xp.sum(arr.F * arr.F, axis=1) / arr.a  # (n, d)
    return arr.xp.sum(per_x * arr.w[:, None], axis=0)


def simple_l2_pairs(arr: AugArrays) -> Any:
    """L'_2 = E_{x, x'} E_{x1 in A(x), x- in A(x')} f(x1)^T f(x-) (x, x' independent)."""
    _, s_neg = _pos_neg_scores(arr)
    w = arr.w
    weights = (w[:, None, None, None] * w[None, None, :, None]) / (arr.a ** 2)
    return arr.xp.sum(s_neg * weights)


def simple_l2_mean(arr: AugArrays) -> Any:
    """||E_x E_{x1 in A(x)} f(x1)||^2."""
    mbar = arr.xp.sum(sample_means(arr) * arr.w[:, None], axis=0)
    return arr.xp.sum(mbar * mbar)


# -- classifiers (exact rationals) ------------------------------------------------------------
def _fractions(a: np.ndarray) -> list:
    return [Fraction(float(v)) for v in np.ravel(a)]


def exact_centres(s: AugmentedSetting) -> list[list[Fraction]]:
    """mu_k in exact rational arithmetic from the float64 data (masses taken as given)."""
    w = [Fraction(float(v)) for v in s.mass]
    total = sum(w)
    w = [v / total for v in w]
    out = []
    for k in range(s.n_classes):
        pk = sum(w[x] for x in range(s.n) if s.labels[x] == k)
        mu = [Fraction(0)] * s.d
        for x in range(s.n):
            if s.labels[x] != k:
                continue
            for i in range(s.a):
                for j in range(s.d):
                    mu[j] += w[x] * Fraction(float(s.feats[x, i, j])) / s.a
        out.append([m / pk for m in mu])
    return out


def nearest_centre_sets(s: AugmentedSetting, points: np.ndarray) -> list[tuple[frozenset[int], frozenset[int]]]:
    """For each point z: (argmin_k ||z - mu_k||, argmax_k (W z + b)_k), W_k = mu_k, b_k = -||mu_k||^2/2.

    Both as full sets (ties explicit), exact: a point is decided in float64 only when, for both sets,
    one class beats every other by more than GAP * (1 + ||z||^2 + max_k ||mu_k||^2) -- several orders of
    magnitude above the float64 rounding error of these sums and of the centres (about
    (n |A| + d) 2^-53 relative); every other point is decided in exact rational arithmetic."""
    pts = np.asarray(points, dtype=float).reshape(-1, s.d)
    mu = float_centres(s)
    D = np.sum((pts[:, None, :] - mu[None, :, :]) ** 2, axis=2)
    S = pts @ mu.T - np.sum(mu * mu, axis=1)[None, :] / 2
    # the float screen's width per point: a numerical-method setting (GAP), not a tolerance of the result --
    # the sets stay exact (GAP is far above float64 rounding; a point whose float winner does not lead by this
    # much is decided in rational arithmetic)
    screen = GAP * (1 + np.sum(pts * pts, axis=1) + float(np.max(np.sum(mu * mu, axis=1))))
    out: list[tuple[frozenset[int], frozenset[int]] | None] = []
    undecided = []
    for i in range(pts.shape[0]):
        near = np.flatnonzero(D[i] <= D[i].min() + screen[i])
        best = np.flatnonzero(S[i] >= S[i].max() - screen[i])
        if near.size == 1 and best.size == 1:
            out.append((frozenset({int(near[0])}), frozenset({int(best[0])})))
        else:
            out.append(None)
            undecided.append(i)
    if undecided:
        exact = _exact_nearest_sets(s, pts[undecided])
        for i, sets in zip(undecided, exact):
            out[i] = sets
    return out  # type: ignore[return-value]


GAP = 1e-9  # the float screen of nearest_centre_sets, relative: ~1e6 x the float64 rounding of its sums


def _exact_nearest_sets(s: AugmentedSetting, points: np.ndarray) -> list[tuple[frozenset[int], frozenset[int]]]:
    """The two sets of :func:`nearest_centre_sets` in exact rational arithmetic."""
    mus = s.memo("exact_centres", lambda: exact_centres(s))
    out = []
    for z in np.asarray(points, dtype=float).reshape(-1, s.d):
        zf = _fractions(z)
        dist = [sum((a - b) ** 2 for a, b in zip(zf, mu)) for mu in mus]
        score = [sum(a * b for a, b in zip(zf, mu)) - sum(b * b for b in mu) / 2 for mu in mus]
        dmin, smax = min(dist), max(score)
        out.append((frozenset(k for k, v in enumerate(dist) if v == dmin),
                    frozenset(k for k, v in enumerate(score) if v == smax)))
    return out


def nn_classifier_report(s: AugmentedSetting) -> dict[str, int]:
    """Over every augmented point: how many argmin/argmax sets differ, and how many are ties."""
    sets = s.memo("nn_all", lambda: nearest_centre_sets(s, s.feats.reshape(-1, s.d)))
    return {"mismatch": sum(a != b for a, b in sets), "ties": sum(len(a) > 1 for a, _ in sets),
            "points": len(sets)}


def _nn_score_terms(arr: AugArrays) -> tuple[Any, Any, Any, Any]:
    """At every point z (rows) and class k (columns): -||z - mu_k||^2/2, z^T mu_k, ||mu_k||^2/2 and ||z||^2/2 (computed
    once per backend arrays: the gap and its scale read the same terms)."""
    return arr.once("nn_terms", lambda: _score_term_arrays(arr))


def _score_term_arrays(arr: AugArrays) -> tuple[Any, Any, Any, Any]:
    xp = arr.xp
    mu = centres(arr)
    Z = arr.F.reshape(arr.n * arr.a, arr.d) if xp.name != "torch" else arr.F.reshape(-1, arr.d)
    diff = Z[:, None, :] - mu[None, :, :]
    return -xp.sum(diff * diff, axis=2) / 2, Z @ mu.T, xp.sum(mu * mu, axis=1)[None, :] / 2, \
        xp.sum(Z * Z, axis=1)[:, None] / 2


def nn_score_gap(arr: AugArrays) -> Any:
    """max over points z and classes k of |-||z - mu_k||^2/2 - ((W z + b)_k - ||z||^2/2)|, with W z + b =
    (z^T mu_k - ||mu_k||^2/2)_k."""
    xp = arr.xp
    left, dots, half_mu, half_z = _nn_score_terms(arr)
    gap = left - (dots - half_mu - half_z)
    return xp.max(xp.sqrt(gap * gap))


def nn_score_terms(arr: AugArrays) -> Any:
    """The largest |term| of nn_score_gap's identity over points and classes: the scale its residue is
    compared against (a residue's rounding is relative to the terms it is a difference of)."""
    xp = arr.xp
    largest = [xp.max(xp.sqrt(t * t)) for t in _nn_score_terms(arr)]
    return functools.reduce(xp.maximum, largest)


def nn_predict(s: AugmentedSetting) -> list[frozenset[int]]:
    """G_f(x) for each sample: the argmin set at f(x) (x = its first augmentation)."""
    return s.memo("nn_predict", lambda: [a for a, _ in nearest_centre_sets(s, s.feats[:, 0, :])])


# -- alignment sets, augmentation distance, (sigma, delta) ----------------------------------------
def alignment_diameters(s: AugmentedSetting) -> np.ndarray:
    """max_{x1, x2 in A(x)} ||f(x1) - f(x2)|| per sample (n,)."""
    return s.memo("diameters", lambda: _alignment_diameters(s))


def _alignment_diameters(s: AugmentedSetting) -> np.ndarray:
    diff = s.feats[:, :, None, :] - s.feats[:, None, :, :]
    return np.sqrt(np.max(np.sum(diff * diff, axis=3), axis=(1, 2)))


def good_alignment(s: AugmentedSetting, eps: float) -> np.ndarray:
    """The indicator of S_eps per sample: every pair of augmentations within eps in the embedding."""
    if not eps >= 0:
        raise AssumptionError(f"eps = {eps}: S_eps needs eps >= 0")
    return alignment_diameters(s) <= eps


def r_eps(s: AugmentedSetting, eps: float) -> float:
    """R_eps = P[x not in S_eps]."""
    return float(np.sum(s.mass[~good_alignment(s, eps)]))


def augmentation_distance(s: AugmentedSetting) -> np.ndarray:
    """d_A(x1, x2) = min over x1' in A(x1), x2' in A(x2) of ||x1' - x2'|| (n, n)."""
    return s.memo("d_A", lambda: _augmentation_distance(s))


def _augmentation_distance(s: AugmentedSetting) -> np.ndarray:
    X = s.inputs
    diff = X[:, None, :, None, :] - X[None, :, None, :, :]  # (n, n, a, a, m)
    return np.sqrt(np.min(np.sum(diff * diff, axis=4), axis=(2, 3)))


def main_parts(s: AugmentedSetting, delta: float, exact_limit: int = 10) -> list[list[int]]:
    """C^0_k: a maximum-mass clique of {x in C_k} joined when d_A <= delta, per class.

    Small classes: every subset is tried (exact, ties broken by the first in lexicographic order);
    larger ones: networkx.max_weight_clique with integer weights (masses scaled by 1e9)."""
    if not delta >= 0:
        raise AssumptionError(f"delta = {delta}: the (sigma, delta) definition needs delta >= 0")
    return [list(c) for c in s.memo(("main_parts", float(delta), exact_limit),
                                    lambda: _main_parts(s, delta, exact_limit))]


def _main_parts(s: AugmentedSetting, delta: float, exact_limit: int) -> list[list[int]]:
    dist = augmentation_distance(s)
    out = []
    for k in range(s.n_classes):
        members = [int(x) for x in np.flatnonzero(s.labels == k)]
        if len(members) <= exact_limit:
            best, best_mass = [members[0]], -1.0
            for r in range(len(members), 0, -1):
                for sub in itertools.combinations(members, r):
                    if all(dist[i, j] <= delta for i, j in itertools.combinations(sub, 2)):
                        m = float(np.sum(s.mass[list(sub)]))
                        if m > best_mass:
                            best, best_mass = list(sub), m
            out.append(sorted(best))
        else:
            g = nx.Graph()
            for x in members:
                g.add_node(x, weight=max(1, int(round(s.mass[x] * 1e9))))
            for i, j in itertools.combinations(members, 2):
                if dist[i, j] <= delta:
                    g.add_edge(i, j)
            clique, _ = nx.max_weight_clique(g, weight="weight")
            out.append(sorted(int(c) for c in clique))
    return out


def sigma_of(s: AugmentedSetting, delta: float) -> tuple[float, list[list[int]]]:
    """sigma = min_k P[C^0_k] / P[C_k] with the maximum cliques as main parts."""
    parts = main_parts(s, delta)
    pk = s.class_mass
    ratios = [float(np.sum(s.mass[c])) / float(pk[k]) for k, c in enumerate(parts)]
    return min(ratios), parts


def classification_error(s: AugmentedSetting, predictions: Sequence[frozenset[int]]) -> float:
    """Err(G) = sum_k P[G(x) != k, x in C_k]; a tie (several argmin) counts as an error."""
    wrong = [not (len(p) == 1 and int(s.labels[x]) in p) for x, p in enumerate(predictions)]
    return float(np.sum(s.mass[np.asarray(wrong, dtype=bool)]))


def lipschitz(s: AugmentedSetting, linear: np.ndarray | None = None) -> tuple[float, bool]:
    """(L, exact): the operator norm of a linear f (exact), else the max ratio
    ||f(u) - f(v)|| / ||u - v|| over pairs of augmented inputs -- exact for f restricted to the data
    (and for an extension to R^m by Kirszbraun), a lower bound for the original f. Equal inputs with
    different outputs give L = inf. (Vectorized over all pairs: the same ratios as a loop.)"""
    if linear is not None:
        return float(np.linalg.norm(np.asarray(linear, dtype=float), 2)), True
    return s.memo("lipschitz", lambda: _lipschitz_on_data(s))


def _lipschitz_on_data(s: AugmentedSetting) -> tuple[float, bool]:
    X = s.inputs.reshape(-1, s.inputs.shape[2])
    Y = s.feats.reshape(-1, s.d)
    iu = np.triu_indices(X.shape[0], k=1)
    if iu[0].size == 0:
        return 0.0, False
    dx = np.sqrt(np.sum((X[:, None, :] - X[None, :, :]) ** 2, axis=2))[iu]
    dy = np.sqrt(np.sum((Y[:, None, :] - Y[None, :, :]) ** 2, axis=2))[iu]
    if np.any((dx == 0) & (dy > 0)):
        return float("inf"), False
    keep = dx > 0
    return (float(np.max(dy[keep] / dx[keep])) if np.any(keep) else 0.0), False


# -- Theorem 2: the divergence condition and the main parts inside S_eps ---------------------------
@dataclass(frozen=True)
class DivergenceTerms:
    """Every term of Theorem 2's divergence condition on one subject, as printed.

    rho_max = 2(1 - sigma) + R_eps / min_l p_l + sigma (L delta / r + 2 eps / r) (the slides'
    min_l rho_l read as min_l p_l), Delta_mu = 1 - min_k ||mu_k||^2 / r^2, threshold =
    r^2 (1 - rho_max - sqrt(2 rho_max) - Delta_mu / 2); the condition is mu_l^T mu_k < threshold
    for every l != k (``slack`` = threshold - max_{l != k} mu_l^T mu_k, > 0 when it holds).

    ``holds`` is the printed strict inequality evaluated in float64 (no tolerance: it shows the condition as
    printed; no hypothesis reads it). ``robust_condition`` is the hypothesis the claims use, as a measured
    relation the engine decides: slack > ``CONDITION_MARGIN r^2`` (and L finite); ``holds_robustly`` is
    the engine's decision of it. The theorem assumes ||f|| = r exactly, which float64 encoder values
    meet only to about 1e-16 relative (the subjects are checked to the engine's tolerance, ~1e-9 relative),
    and the condition is not robust to it: if every value has norm r(1 - eta), every class collapsed to one
    point satisfies it (Delta_mu = 2 eta - eta^2 puts the threshold at r^2 (1 - eta + eta^2/2) above
    mu^T mu = r^2 (1 - eta)^2) while G_f ties everywhere (Err = 1). A subject counts as meeting the
    hypothesis only when the condition holds beyond what such norm errors can move its two sides."""

    r: float
    sigma: float
    main: list[list[int]]
    R: float
    L: float
    rho: float
    delta_mu: float
    threshold: float
    max_dot: float

    @property
    def slack(self) -> float:
        return self.threshold - self.max_dot

    @property
    def holds(self) -> bool:
        return bool(np.isfinite(self.L) and self.max_dot < self.threshold)

    @property
    def robust_condition(self) -> "Comparison | bool":
        """slack > CONDITION_MARGIN r^2 as a measured relation (an infinite L fails the hypothesis: False)."""
        if not np.isfinite(self.L):
            return False
        return above(self.slack, CONDITION_MARGIN * self.r ** 2, what="divergence condition: slack vs margin")

    @property
    def holds_robustly(self) -> bool:
        return holds(self.robust_condition)


# The checker's hypothesis, a modelling choice (not a tolerance of a comparison): the divergence condition must
# hold with a slack above CONDITION_MARGIN r^2, because a norm error of ~1e-9 r (what ||f|| = r is checked to)
# moves mu^T mu and the threshold by ~1e-9 r^2, and the condition is not robust to it (see DivergenceTerms).
CONDITION_MARGIN = 1e-6


def divergence_terms(s: AugmentedSetting, r: float, delta: float, eps: float) -> DivergenceTerms:
    """The terms of Theorem 2's condition (float64; L = :func:`lipschitz` on the data)."""
    L, _ = lipschitz(s)
    sig, main = sigma_of(s, delta)
    R = r_eps(s, eps)
    rho = 2 * (1 - sig) + R / float(np.min(s.class_mass)) + sig * (L * delta / r + 2 * eps / r)
    mu = float_centres(s)
    delta_mu = 1 - float(np.min(np.sum(mu ** 2, axis=1))) / r ** 2
    with np.errstate(invalid="ignore"):
        threshold = r ** 2 * (1 - rho - np.sqrt(2 * rho) - delta_mu / 2)
    K = s.n_classes
    dots = mu @ mu.T
    off = [float(dots[l, k]) for k in range(K) for l in range(K) if k != l]
    return DivergenceTerms(float(r), sig, main, R, L, float(rho), float(delta_mu), float(threshold),
                           max(off) if off else -np.inf)


def float_centres(s: AugmentedSetting) -> np.ndarray:
    """mu_k in float64 (K, d)."""
    w = s.mass / s.mass.sum()
    onehot = (s.labels[:, None] == np.arange(s.n_classes)[None, :]).astype(float)
    p = onehot.T @ w
    return ((onehot * w[:, None]).T @ np.mean(s.feats, axis=1)) / p[:, None]


def main_good_misclassified(s: AugmentedSetting, delta: float, eps: float) -> tuple[float, int, int]:
    """(mass, count, size) for the samples of (C^0_1 u ... u C^0_K) n S_eps: the mass and number of
    those G_f misclassifies (a tie is a mistake), and how many samples the set holds."""
    _, main = sigma_of(s, delta)
    good = good_alignment(s, eps)
    pred = nn_predict(s)
    mass, count, size = 0.0, 0, 0
    for part in main:
        for x in part:
            if not good[x]:
                continue
            size += 1
            if pred[x] != frozenset({int(s.labels[x])}):
                mass += float(s.mass[x])
                count += 1
    return mass, count, size


def main_good_spread(s: AugmentedSetting, delta: float, eps: float) -> float:
    """max ||f(x1) - f(y1)|| over x, y of one class's main part inside S_eps and x1 in A(x), y1 in A(y)
    (0 when no class has such a sample): the step of Theorem 2's proof that the slides do not print."""
    _, main = sigma_of(s, delta)
    good = good_alignment(s, eps)
    best = 0.0
    for part in main:
        members = [x for x in part if good[x]]
        if not members:
            continue
        F = s.feats[members].reshape(-1, s.d)
        diff = F[:, None, :] - F[None, :, :]
        best = max(best, float(np.sqrt(np.max(np.sum(diff * diff, axis=2)))))
    return best
