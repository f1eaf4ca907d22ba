"""Finite-mixture settings of Merad et al. Section 3.

A setting is a class distribution rho over N_C latent classes and, for each
class c, a finite weighted support of embedded points f(x) in R^d: D_c puts
mass w_{c,s} on the point y_{c,s}. On such a setting every expectation of
Section 3 ((1)-(10)) is a finite sum, so every quantity has an exact value.

The field's shared library, for outsiders too (an outside plugin such as examples/infonce builds its
settings on it), not one paper's own code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from numerics import json_fields as jf
from numerics.errors import AssumptionError

#: |sum(rho) - 1| allowed for a distribution given in float64
SUM_TOL = 1e-9


def check_distribution(p: Sequence[float], name: str, where: str) -> np.ndarray:
    """Validate a probability vector with positive entries; return it as float64."""
    arr = np.asarray(p, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise AssumptionError(f"{name} must be a non-empty 1-d vector, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise AssumptionError(f"{name} = {arr.tolist()} contains NaN or inf")
    for i, v in enumerate(arr):
        if v < 0:
            raise AssumptionError(f"{name}[{i}] = {v} is negative: a distribution has entries >= 0")
        if v == 0:
            raise AssumptionError(f"{name}[{i}] = 0: {where} requires every mass to be > 0")
    total = float(np.sum(arr))
    if abs(total - 1.0) > SUM_TOL:
        raise AssumptionError(
            f"{name} sums to {total!r}, not 1 (tolerance {SUM_TOL}): pass a probability vector"
        )
    return arr


@dataclass(frozen=True, eq=False)
class FiniteMixture:
    """rho over classes and, per class, weighted embedded points (Merad et al. (1)-(2)).

    Attributes:
        rho: (N_C,) class distribution, rho(c) > 0, sums to 1.
        points: list of N_C arrays of shape (n_c, d): the values f(x) on the support of D_c.
        weights: list of N_C arrays of shape (n_c,): D_c's masses, each summing to 1.
    """

    rho: np.ndarray
    points: tuple[np.ndarray, ...]
    weights: tuple[np.ndarray, ...]

    @classmethod
    def create(
        cls,
        rho: Sequence[float],
        points: Sequence[Any],
        weights: Sequence[Sequence[float]] | None = None,
    ) -> "FiniteMixture":
        """Validate and build a setting; raises :class:`AssumptionError` naming the problem."""
        rho_arr = check_distribution(rho, "rho", "Merad et al. Section 3 (rho(c) > 0)")
        n_classes = rho_arr.size
        if len(points) != n_classes:
            raise AssumptionError(
                f"rho has {n_classes} classes but points has {len(points)} class supports"
            )
        pts: list[np.ndarray] = []
        dim: int | None = None
        for c, p in enumerate(points):
            arr = np.asarray(p, dtype=np.float64)
            if arr.ndim != 2 or arr.shape[0] == 0:
                raise AssumptionError(
                    f"points[{c}] must be a non-empty (n_c, d) array, got shape {arr.shape}"
                )
            if not np.all(np.isfinite(arr)):
                raise AssumptionError(f"points[{c}] contains NaN or inf embeddings")
            if dim is None:
                dim = arr.shape[1]
            elif arr.shape[1] != dim:
                raise AssumptionError(
                    f"points[{c}] has dimension d = {arr.shape[1]} but points[0] has d = {dim}:"
                    " all embeddings must live in the same R^d"
                )
            pts.append(arr)
        if dim == 0:
            raise AssumptionError("embeddings must have dimension d >= 1")
        if weights is None:
            wts = [np.full(p.shape[0], 1.0 / p.shape[0]) for p in pts]
        else:
            if len(weights) != n_classes:
                raise AssumptionError(
                    f"weights has {len(weights)} entries for {n_classes} classes"
                )
            wts = []
            for c, (w, p) in enumerate(zip(weights, pts)):
                warr = check_distribution(w, f"weights[{c}]", f"the support of D_{c}")
                if warr.size != p.shape[0]:
                    raise AssumptionError(
                        f"weights[{c}] has {warr.size} masses for {p.shape[0]} points"
                    )
                wts.append(warr)
        return cls(rho=rho_arr, points=tuple(pts), weights=tuple(wts))

    # -- shape -----------------------------------------------------------------
    @property
    def n_classes(self) -> int:
        return int(self.rho.size)

    @property
    def dim(self) -> int:
        return int(self.points[0].shape[1])

    @property
    def support_sizes(self) -> tuple[int, ...]:
        return tuple(int(p.shape[0]) for p in self.points)

    def flat(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """All support points stacked: (P (M,d), class index (M,), within-class weight (M,))."""
        P = np.concatenate(self.points, axis=0)
        cls = np.concatenate([np.full(p.shape[0], c) for c, p in enumerate(self.points)])
        w = np.concatenate(self.weights)
        return P, cls, w

    def is_uniform(self) -> bool:
        """rho uniform over C (Merad et al. Section 3.2), up to float64 rounding."""
        return bool(np.max(self.rho) - np.min(self.rho) <= 4 * np.finfo(float).eps)

    @property
    def max_norm(self) -> float:
        P, _, _ = self.flat()
        return float(np.max(np.linalg.norm(P, axis=1)))

    # -- serialization (witness files) -----------------------------------------
    def to_json(self) -> dict[str, Any]:
        # repr of a float64 round-trips exactly
        return {
            "rho": [float(v) for v in self.rho],
            "points": [p.tolist() for p in self.points],
            "weights": [w.tolist() for w in self.weights],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "finite mixture", name: str = "mixture",
                  classes: jf.Axis = (1, None), support: jf.Axis = (1, None), dims: jf.Axis = (1, None)
                  ) -> "FiniteMixture":
        """Read a setting written by :meth:`to_json`: exact JSON types, the number of classes, the
        support sizes and the dimension within the given bounds, every list's length checked before
        any array is built (``where``: who reads it, for the messages)."""
        jf.fields(data, ("rho", "points", "weights"), (), where, name)
        rho = jf.real_array(data["rho"], f"{name}.rho", (classes,), where, ("N_C (classes)",))
        n = rho.size
        pts, wts = data["points"], data["weights"]
        jf.check_shape(pts, f"{name}.points", (n,), where, ("one support per class of rho",))
        jf.check_shape(wts, f"{name}.weights", (n,), where, ("one weight vector per class of rho",))
        points = [jf.real_array(p, f"{name}.points[{c}]", (support, dims), where, ("n_c (points)", "d"))
                  for c, p in enumerate(pts)]
        weights = [jf.real_array(w, f"{name}.weights[{c}]", (points[c].shape[0],), where, ("n_c (masses)",))
                   for c, w in enumerate(wts)]
        return cls.create(rho, points, weights)

    def describe(self) -> str:
        return (
            f"N_C={self.n_classes}, d={self.dim}, support={list(self.support_sizes)}, "
            f"rho={np.round(self.rho, 4).tolist()}, max|f|={self.max_norm:.3g}"
        )


def check_k(k: int, n_classes: int) -> int:
    """(k+1)-way tasks over N_C classes need 2 <= k + 1 <= N_C ((9)-(10) of Merad et al.)."""
    if not isinstance(k, (int, np.integer)) or not (2 <= k + 1 <= n_classes):
        raise AssumptionError(
            f"k = {k} is out of range: (k+1)-way tasks need 2 <= k + 1 <= N_C = {n_classes}"
        )
    return int(k)


def check_negatives(N: int) -> int:
    """The number of negatives N of (6) is an integer >= 1."""
    if not isinstance(N, (int, np.integer)) or N < 1:
        raise AssumptionError(f"N = {N} is out of range: (6) needs N >= 1 negative samples")
    return int(N)


def log_n_compositions(N: int, M: int) -> float:
    """log C(N + M - 1, M - 1): the number of multisets of N negatives over M points."""
    return math.lgamma(N + M) - math.lgamma(N + 1) - math.lgamma(M)
