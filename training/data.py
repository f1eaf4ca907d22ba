"""Offline data: sklearn digits, latent-class sampling (Merad et al. (1), (2)), fixed triplets (Section 4)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy.spatial.distance import pdist

from numerics.errors import AssumptionError


def load_digits_data() -> tuple[np.ndarray, np.ndarray]:
    """sklearn's 8x8 digits (shipped with scikit-learn): X float32 (1797, 64) in [0, 1], y int64 (1797,).
    Fresh copies of arrays read once per process (sklearn parses its CSV in about 0.13 s)."""
    X, y = _digits()
    return X.copy(), y.copy()


@functools.cache
def _digits() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits  # heavy (0.6 s): only when the digits are first read

    digits = load_digits()
    X = (digits.data / 16.0).astype(np.float32)  # pixel values are 0..16
    return X, digits.target.astype(np.int64)


def _validate_rho(rho: Sequence[float] | np.ndarray, n_classes: int) -> np.ndarray:
    """rho as a float64 (n_classes,) array; Section 3 requires sum rho = 1 and rho(c) > 0 for every c."""
    r = np.asarray(rho, dtype=np.float64)
    if r.shape != (n_classes,):
        raise AssumptionError(f"rho has shape {r.shape}: expected one probability per class, ({n_classes},)")
    if not np.all(np.isfinite(r)):
        raise AssumptionError(f"rho = {r.tolist()} is not finite")
    bad = np.flatnonzero(r <= 0)
    if bad.size:
        raise AssumptionError(f"rho[{bad[0]}] = {r[bad[0]]}: the paper requires rho(c) > 0 for every class "
                              "(Merad et al. Section 3)")
    if abs(r.sum() - 1.0) > 1e-6:
        raise AssumptionError(f"rho sums to {r.sum()!r}: the paper requires sum_c rho(c) = 1 (Merad et al. Section 3)")
    return r / r.sum()


class LatentClassSampler:
    """Index batches from D_sim (1) and D_neg (2) of Merad et al. over a labelled data set.

    D_c is the uniform distribution on the members of class c. ``rho`` (one entry
    per class, in sorted label order) defaults to the empirical class frequencies.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, rho: Sequence[float] | np.ndarray | None = None,
                 seed: int = 0) -> None:
        y = np.asarray(y)
        if y.ndim != 1 or len(y) != len(X):
            raise AssumptionError(f"y has shape {y.shape} for X of {len(X)} rows: expected one label per row")
        self.classes, counts = np.unique(y, return_counts=True)  # (K,), (K,)
        self.rho = counts / counts.sum() if rho is None else _validate_rho(rho, len(self.classes))
        self.order = np.argsort(np.searchsorted(self.classes, y), kind="stable")  # row ids grouped by class
        self.start = np.concatenate([[0], np.cumsum(counts)[:-1]])  # (K,) first position of each class
        self.counts = counts  # (K,)
        self.rng = np.random.default_rng(seed)

    def _member(self, cls: np.ndarray) -> np.ndarray:
        """A uniform member (row id) of each class in ``cls`` (any shape), independently, with replacement."""
        return self.order[self.start[cls] + self.rng.integers(0, self.counts[cls])]

    def sample(self, batch: int, n_negatives: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """anchor_idx (B,), positive_idx (B,), negative_idx (B, N) as int64 row ids.

        (x, x+) ~ D_sim (1): c ~ rho, then x and x+ drawn independently from D_c
        (x+ may equal x). Each negative ~ D_neg (2): its own class ~ rho, then a member.
        """
        if batch < 1 or n_negatives < 0:
            raise AssumptionError(f"batch={batch}, n_negatives={n_negatives}: need batch >= 1, n_negatives >= 0")
        c = self.rng.choice(len(self.classes), size=batch, p=self.rho)  # (B,)
        anchor, positive = self._member(c), self._member(c)  # (B,), (B,)
        cn = self.rng.choice(len(self.classes), size=(batch, n_negatives), p=self.rho)  # (B, N)
        return anchor, positive, self._member(cn).reshape(batch, n_negatives)


def augment(x_batch: np.ndarray, rng: np.random.Generator, max_shift: int = 1,
            noise_std: float = 0.05) -> np.ndarray:
    """A random shift of each 8x8 image by up to ``max_shift`` pixels (zero fill) plus N(0, noise_std^2)
    noise, clipped to [0, 1]. x_batch: (B, 64), (B, 8, 8) or (B, 1, 8, 8); returns float32 of the same shape."""
    x = np.asarray(x_batch, dtype=np.float32)
    if x.ndim < 2 or x[0].size != 64:
        raise AssumptionError(f"augment got shape {x.shape}: expected 8x8 images as (B, 64) or (B, 8, 8)")
    b, p = x.shape[0], max_shift
    padded = np.pad(x.reshape(b, 8, 8), ((0, 0), (p, p), (p, p)))  # (B, 8+2p, 8+2p)
    dy, dx = rng.integers(-p, p + 1, size=b), rng.integers(-p, p + 1, size=b)  # (B,), (B,)
    rows = (np.arange(8)[None, :] + p - dy[:, None])[:, :, None]  # (B, 8, 1)
    cols = (np.arange(8)[None, :] + p - dx[:, None])[:, None, :]  # (B, 1, 8)
    shifted = padded[np.arange(b)[:, None, None], rows, cols]  # (B, 8, 8): image moved by (dy, dx)
    noisy = shifted + rng.normal(0.0, noise_std, size=shifted.shape)
    return np.clip(noisy, 0.0, 1.0).astype(np.float32).reshape(x.shape)


def views(x: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two independent augmentations x1, x2 in A(x) of the same images (Huang et al.)."""
    return augment(x, rng), augment(x, rng)


def synthetic_latent_classes(n_classes: int = 10, dim: int = 64, per_class: int = 100,
                             rho: Sequence[float] | np.ndarray | None = None, seed: int = 0,
                             spread: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian latent classes: centres mu_c ~ N(0, I_dim), points mu_c + spread * N(0, I_dim).

    Class c gets round(rho(c) * n_classes * per_class) points (at least 1), i.e.
    ``per_class`` each when rho is None (uniform). Returns X float32 (n, dim), y int64 (n,).
    """
    if n_classes < 1 or dim < 1 or per_class < 1 or not spread >= 0:
        raise AssumptionError(f"n_classes={n_classes}, dim={dim}, per_class={per_class}, spread={spread}: "
                              "need positive sizes and spread >= 0")
    r = np.full(n_classes, 1.0 / n_classes) if rho is None else _validate_rho(rho, n_classes)
    sizes = np.maximum(1, np.rint(r * n_classes * per_class).astype(int))  # (K,)
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(n_classes, dim))  # (K, dim)
    y = np.repeat(np.arange(n_classes), sizes)  # (n,)
    X = centres[y] + spread * rng.normal(size=(len(y), dim))  # (n, dim)
    return X.astype(np.float32), y.astype(np.int64)


@dataclass(frozen=True)
class TripletSet:
    """n fixed triplets of Merad et al. Section 4, each row normalized (Assumption 1).

    xa, xp, xn: (n, d) float64 anchors x_i, positives x_i^+, negatives x_i^-;
    delta: min ||x - x'|| over the 3n samples (Assumption 1's separation);
    index: (n, 3) row ids of (x_i, x_i^+, x_i^-) in the source X.
    """

    xa: np.ndarray
    xp: np.ndarray
    xn: np.ndarray
    delta: float
    index: np.ndarray


def fixed_triplets(X: np.ndarray, y: np.ndarray, n: int, seed: int = 0) -> TripletSet:
    """n triplets (anchor, positive of the same class, negative of another class), no sample used twice.

    Anchor classes are drawn with probability proportional to the unused members
    of each class (the empirical rho). Rows are normalized to ||x|| = 1 and delta
    is the smallest pairwise distance among the 3n samples (Assumption 1).
    """
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y)
    if X.ndim != 2 or y.shape != (len(X),):
        raise AssumptionError(f"X {X.shape}, y {y.shape}: expected X (rows, d) and one label per row")
    if n < 1 or 3 * n > len(X):
        raise AssumptionError(f"n={n} triplets need 3n = {3 * n} distinct samples but X has {len(X)} rows")
    rng = np.random.default_rng(seed)
    pools = {c: list(rng.permutation(np.flatnonzero(y == c))) for c in np.unique(y)}
    index = np.empty((n, 3), dtype=np.int64)
    for i in range(n):
        anchor_ok = [c for c, p in pools.items() if len(p) >= 2 and any(len(q) for d, q in pools.items() if d != c)]
        if not anchor_ok:
            raise AssumptionError(f"n={n}: ran out of distinct samples after {i} triplets (each needs two members "
                                  "of one class and one of another); use a smaller n")
        w = np.array([len(pools[c]) for c in anchor_ok], dtype=np.float64)
        c = anchor_ok[rng.choice(len(anchor_ok), p=w / w.sum())]
        others = [d for d, q in pools.items() if d != c and q]
        w = np.array([len(pools[d]) for d in others], dtype=np.float64)
        d = others[rng.choice(len(others), p=w / w.sum())]
        index[i] = pools[c].pop(), pools[c].pop(), pools[d].pop()
    norms = np.linalg.norm(X[index], axis=-1)  # (n, 3)
    if np.any(norms == 0):
        row = int(index.reshape(-1)[np.argmin(norms.reshape(-1))])
        raise AssumptionError(f"X[{row}] = 0 cannot be normalized to ||x|| = 1 (Merad et al. Assumption 1)")
    xs = X[index] / norms[..., None]  # (n, 3, d)
    dist = pdist(xs.reshape(3 * n, -1))  # (3n(3n-1)/2,)
    delta = float(dist.min()) if dist.size else float("inf")
    if delta == 0.0:
        raise AssumptionError("two of the 3n normalized triplet samples coincide: delta = 0, but Merad et al. "
                              "Assumption 1 requires ||x - x'|| >= delta > 0; remove duplicate rows of X")
    return TripletSet(xa=np.ascontiguousarray(xs[:, 0]), xp=np.ascontiguousarray(xs[:, 1]),
                      xn=np.ascontiguousarray(xs[:, 2]), delta=delta, index=index)
