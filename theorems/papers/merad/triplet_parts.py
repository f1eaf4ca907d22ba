"""Public parts for triplet losses: a triplet of points in a ball, a training set's triplets of sample
indices, and the outputs of an encoder on the samples (drawn where an optimizer leaves them).

* ``BallTriplet(size, radius, draw=, center=, spreads=)`` -- z = (z_1, z_2, z_3) in (R^d)^3 with every
  block in the closed ball of radius ``radius`` (B^3 of Merad et al. Section 4); drawn anywhere in the ball
  (``draw="ball"``), near the minimizers of the triplet loss (``"near_optimal"``), or near a given
  triplet ``center`` (``"near"``: the point z + z' after a step from z). The adversary moves each block
  through the smooth onto-the-ball map ``w -> radius tanh(|w|) w/|w|``;
* ``SampleTriplets(triplets, samples)`` -- n triplets (x_i, x_i+, x_i-) of distinct sample indices, an
  n x 3 integer array; ``samples=None``: every sample in exactly one triplet (3n samples);
* ``SampleOutputs(samples, cols, ...)`` -- the outputs f(x) in R^cols of an encoder on the samples, drawn
  uniformly in a box and then moved by a descent (``descend(Y, steps)``, e.g. projected gradient
  descent on the training loss), so that near-stationary points are drawn on purpose.

Compose them with :class:`theorems.subjects.Family`, conditioning with
:class:`~theorems.subjects.parts.Given`::

    Family("random triplets (ball)", dims={"d": (1, 4)},
           parts={"C": Choice((1.0, 0.05, 30.0)),
                  "z": Given(lambda c: BallTriplet("d", c["C"])),
                  "z_next": Given(lambda c: BallTriplet("d", c["C"], draw="near", center=c["z"]))},
           quantities=(...))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Mapping

import numpy as np
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems import ClaimError, at_most, holds
from theorems.papers.merad import accuracy
from theorems.subjects.parts import Part

_entry = st.floats(-1.0, 1.0)


def project_ball(z: np.ndarray, C: float) -> np.ndarray:
    """Scale each row of z into the closed ball of radius C (strictly inside by ``accuracy.BALL_INSET``, for
    rounding)."""
    out = np.array(z, dtype=np.float64)
    inside = C * (1 - accuracy.BALL_INSET)
    for j in range(out.shape[0]):
        n = np.linalg.norm(out[j])
        if n > inside:
            out[j] *= inside / n
    return out


def near_optimal(direction: np.ndarray, spread: np.ndarray, norms: np.ndarray, mix: float) -> np.ndarray:
    """z_2 ~ +z_1 direction, z_3 ~ -z_1 direction, blended with ``spread`` by ``mix``."""
    length = np.linalg.norm(direction)
    a = (direction / length if length > accuracy.SHORTEST_DIRECTION
         else np.ones_like(direction) / np.sqrt(direction.size))
    dirs = [a, a + mix * spread[0], -a + mix * spread[1]]
    return np.stack([norms[j] * dirs[j] / max(np.linalg.norm(dirs[j]), 1e-300) for j in range(3)])


@dataclass(frozen=True, eq=False)
class BallTriplet(Part):
    """z = (z_1, z_2, z_3), a 3 x d array (d = ``dims[size]``) with ||z_j|| <= ``radius`` for every block.

    ``draw``:

    * ``"ball"`` -- uniform entries in [-radius, radius], each block then projected into the ball;
    * ``"near_optimal"`` -- norms in [eta, radius] (eta a fraction 0.5, 0.1, 0.9 or 0.01 of the radius),
      z_2 close to z_1's direction and z_3 close to its opposite (blended with a random direction by a
      weight in [0, 0.5]): u = z_1^T (z_3 - z_2) very negative, sigma(u) tiny;
    * ``"near"`` -- ``center`` plus uniform entries in [-s radius, s radius] for s drawn from
      ``spreads``, projected into the ball (a step from ``center`` that stays in the ball).

    Valid values: finite 3 x d arrays inside the ball (||z_j|| <= radius as the engine decides it, with its
    tolerance: ``theorems.holds(theorems.at_most(...))``). The adversary's
    coordinates are w with z_j = radius tanh(|w_j|) w_j / |w_j|; ``simpler`` proposes zero and rounder
    values (projected into the ball); deleting coordinate i of the size removes column i.
    """

    size: str
    radius: float
    draw: str = "ball"
    center: Any = None
    spreads: tuple[float, ...] = (0.5, 1e-3, 2.0)
    kind = "ball triplet"

    def __post_init__(self) -> None:
        if self.draw not in ("ball", "near_optimal", "near"):
            raise ClaimError(f"BallTriplet(draw={self.draw!r}): use 'ball', 'near_optimal' or 'near'")
        if self.draw == "near" and self.center is None:
            raise ClaimError("BallTriplet(draw='near') needs the center triplet")
        if not (np.isfinite(self.radius) and self.radius > 0):
            raise ClaimError(f"BallTriplet(radius={self.radius!r}): need a finite radius > 0")

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.size,)

    def shape(self, dims: Mapping[str, int]) -> tuple[int, ...]:
        return (3, dims[self.size])

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        d, C = shape[1], float(self.radius)

        def entries(n: int) -> st.SearchStrategy[np.ndarray]:
            return st.lists(_entry, min_size=n, max_size=n).map(lambda e: np.asarray(e, dtype=np.float64))

        if self.draw == "ball":
            return entries(3 * d).map(lambda e: project_ball(e.reshape(3, d) * C, C))
        if self.draw == "near":
            center = np.asarray(self.center, dtype=np.float64)
            return st.tuples(entries(3 * d), st.sampled_from(self.spreads)).map(
                lambda t: project_ball(center + t[0].reshape(3, d) * C * t[1], C))

        def optimal(t: tuple[float, np.ndarray, np.ndarray, np.ndarray, float]) -> np.ndarray:
            eta_frac, raw_norms, direction, spread, mix = t
            norms = C * (eta_frac + (1 - eta_frac) * np.clip(raw_norms, 0, 1))
            return project_ball(near_optimal(direction, spread.reshape(2, d), norms, mix), C)

        return st.tuples(st.sampled_from([0.5, 0.1, 0.9, 0.01]), entries(3), entries(d), entries(2 * d),
                         st.floats(0.0, 0.5)).map(optimal)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        norms = np.linalg.norm(np.asarray(value, dtype=float), axis=1)
        if not holds(at_most(norms, float(self.radius), what="block norms <= radius")):
            raise AssumptionError(f"part {name!r}: block norms {np.round(norms, 6).tolist()} exceed the radius "
                                  f"{self.radius}")

    def to_param(self, value: Any) -> np.ndarray:
        x = np.asarray(value, dtype=float)
        out = np.zeros_like(x)
        for j in range(x.shape[0]):
            n = np.linalg.norm(x[j])
            if n > 0:
                out[j] = x[j] / n * np.arctanh(min(n / self.radius, 1 - 1e-9))
        return out

    def from_param(self, w: Any, xp: Backend) -> Any:
        """radius tanh(|w_j|)/|w_j| w_j per block, with tanh(r)/r = 1 - r^2/3 + 2 r^4/15 near r = 0: smooth
        (and free of 0/0 in autograd) at a zero or subnormal block."""
        if xp.name == "torch":
            t = xp.torch
            sq = (w * w).sum(dim=1, keepdim=True)
            r = sq.clamp_min(accuracy.TANH_TAYLOR_BELOW).sqrt()
            ratio = t.where(sq < accuracy.TANH_TAYLOR_BELOW, 1 - sq / 3 + 2 * sq * sq / 15, t.tanh(r) / r)
            return self.radius * ratio * w
        out = np.array(w, dtype=object if xp.name == "mpmath" else float)
        for j in range(out.shape[0]):
            sq = xp.sum(out[j] * out[j])
            r = xp.sqrt(sq)
            taylor = sq < accuracy.TANH_TAYLOR_BELOW
            out[j] = self.radius * (1 - sq / 3 + 2 * sq * sq / 15 if taylor else (1 - 2 / (xp.exp(2 * r) + 1)) / r) \
                * out[j]
        return out

    def from_torch(self, value: Any) -> np.ndarray:
        return project_ball(value.detach().numpy().astype(np.float64), self.radius)

    def simpler(self, value: Any) -> Iterable[Any]:
        v = np.asarray(value, dtype=float)
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1)):
            out = project_ball(transform(v), self.radius)
            if not np.array_equal(out, v):
                yield out

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return np.delete(np.asarray(value, dtype=float), index, axis=1)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.real_array(data, f"values.{name}", shape, where, ("blocks", self.size))

    def describe(self, value: Any) -> str:
        z = np.asarray(value, dtype=float)
        norms = np.round(np.linalg.norm(z, axis=1), 4).tolist()
        return f"|z_j|={norms}, u={float(z[0] @ (z[2] - z[1])):.4g}"


@dataclass(frozen=True, eq=False)
class SampleTriplets(Part):
    """n = ``dims[triplets]`` triplets (x_i, x_i+, x_i-) of sample indices: an n x 3 integer array, three
    distinct samples per row, of m = ``dims[samples]`` samples; a sample may serve several triplets.
    With ``samples=None`` every sample is in exactly one triplet: m = 3n and the array is a permutation of
    0..3n-1 (a subject without the size ``samples`` is read that way too).

    Not searched by the adversary. Deleting triplet i removes row i (with ``samples=None`` the remaining
    samples are renumbered in order, as :class:`SampleOutputs` with ``groups`` removes their rows);
    deleting sample i renumbers the later samples when no triplet uses i, and otherwise leaves an index
    -1, which the family refuses.
    """

    triplets: str = "n"
    samples: str | None = "m"
    count: int | None = None  # m, filled in from the sizes by resolve()
    continuous = False
    kind = "sample triplets"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.triplets,) if self.samples is None else (self.triplets, self.samples)

    def shape(self, dims: Mapping[str, int]) -> tuple[int, ...]:
        return (dims[self.triplets], 3)

    def resolve(self, context: Mapping[str, Any]) -> Part:
        m = context.get(self.samples) if self.samples is not None else None
        return replace(self, count=int(m) if m is not None else 3 * int(context[self.triplets]))

    @property
    def disjoint(self) -> bool:
        return self.samples is None

    def _m(self) -> int:
        if self.count is None:
            raise ClaimError("SampleTriplets: resolve() it from the sizes first (a Family does)")
        return self.count

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        n, m = shape[0], self._m()
        if self.disjoint:
            return st.permutations(list(range(3 * n))).map(lambda p: np.asarray(p, dtype=np.int64).reshape(n, 3))
        row = st.lists(st.integers(0, m - 1), min_size=3, max_size=3, unique=True)
        return st.lists(row, min_size=n, max_size=n).map(lambda rows: np.asarray(rows, dtype=np.int64).reshape(n, 3))

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return np.asarray(value, dtype=np.int64)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        T = np.asarray(value)
        if T.shape != shape or not np.issubdtype(T.dtype, np.integer):
            raise AssumptionError(f"part {name!r} must be an {shape[0]} x 3 array of sample indices, got shape {T.shape}")
        m = self._m()
        if T.size and (T.min() < 0 or T.max() >= m):
            raise AssumptionError(f"part {name!r} indexes samples outside 0..{m - 1}")
        if any(len(set(row.tolist())) != 3 for row in T):
            raise AssumptionError(f"part {name!r}: a triplet (x_i, x_i+, x_i-) is three distinct samples")
        if self.disjoint and np.unique(T).size != T.size:
            raise AssumptionError(f"part {name!r}: a sample serves two triplets")

    def delete(self, value: Any, axis: int, index: int) -> Any:
        T = np.asarray(value, dtype=np.int64)
        if axis == 0:
            out = np.delete(T, index, axis=0)
            if self.disjoint:  # renumber the remaining samples in order
                used = np.sort(out.ravel())
                out = np.searchsorted(used, out).astype(np.int64)
            return out
        if np.any(T == index):
            return np.where(T == index, -1, T)  # a used sample cannot go alone: refused by validate
        return np.where(T > index, T - 1, T)

    def size_of(self, value: Any) -> int:
        return int(np.size(value))

    def to_json(self, value: Any) -> Any:
        return np.asarray(value, dtype=np.int64).tolist()

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.integer_array(data, f"values.{name}", shape, where, (f"{self.triplets} (triplets)", "3 (x, x+, x-)"),
                                lo=0, hi=self._m() - 1)

    def describe(self, value: Any) -> str:
        T = np.asarray(value)
        return str(T.tolist()) if T.shape[0] <= 6 else f"{T.shape[0]} triplets of {np.unique(T).size} samples"


@dataclass(frozen=True, eq=False)
class SampleOutputs(Part):
    """The outputs f(x) of an encoder on the samples: a (``per`` dims[samples]) x dims[cols] array.

    Drawn (when ``descend`` is given) as uniform entries in [-scale, scale], then moved by
    ``descend(Y, steps)`` for a number of steps drawn from ``steps`` (0 keeps the uniform draw). Any finite
    array of that shape is valid; the adversary moves the entries freely; ``simpler`` proposes the values
    rounded to 0, 1 and 3 decimals. Deleting entry i of ``samples`` removes row i, or with ``groups`` (an
    index array, e.g. the triplets of disjoint samples) the rows ``groups[i]``; deleting a coordinate of
    ``cols`` removes that column. Without ``descend`` the part is never drawn (trained outputs).
    """

    samples: str
    cols: str
    per: int = 1
    groups: Any = None
    scale: float = 1.0
    steps: tuple[int, ...] = (0,)
    descend: Callable[[np.ndarray, int], np.ndarray] | None = None
    kind = "sample outputs"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.samples, self.cols)

    def shape(self, dims: Mapping[str, int]) -> tuple[int, ...]:
        return (self.per * dims[self.samples], dims[self.cols])

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if self.descend is None:
            raise ClaimError("SampleOutputs() without descend is never drawn (its family lists its subjects)")
        m, d = shape
        descend = self.descend

        def draw(t: tuple[list[float], int]) -> np.ndarray:
            return descend(np.asarray(t[0], dtype=np.float64).reshape(m, d) * self.scale, t[1])

        return st.tuples(st.lists(_entry, min_size=m * d, max_size=m * d), st.sampled_from(self.steps)).map(draw)

    def simpler(self, value: Any) -> Iterable[Any]:
        Y = np.asarray(value, dtype=float)
        for transform in (np.round, lambda a: np.round(a, 1), lambda a: np.round(a, 3)):
            out = transform(Y)
            if not np.array_equal(out, Y):
                yield out

    def delete(self, value: Any, axis: int, index: int) -> Any:
        Y = np.asarray(value, dtype=float)
        if axis == 1:
            return np.delete(Y, index, axis=1)
        rows = [index] if self.groups is None else np.asarray(self.groups)[index].tolist()
        return np.delete(Y, rows, axis=0)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        label = self.samples if self.per == 1 else f"{self.per} {self.samples} (samples)"
        return jf.real_array(data, f"values.{name}", shape, where, (label, self.cols))

    def describe(self, value: Any) -> str:
        norms = np.linalg.norm(np.asarray(value, dtype=float), axis=1)
        if norms.size <= 8:
            return f"|f(x)|={np.round(norms, 4).tolist()}"
        return f"|f(x)| in [{norms.min():.4g}, {norms.max():.4g}]"


__all__ = ["BallTriplet", "SampleOutputs", "SampleTriplets", "near_optimal", "project_ball"]
