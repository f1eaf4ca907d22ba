"""Public parts for reals and index sets that the generic parts (:mod:`theorems.subjects.parts`) do not cover.

* ``Choice(values, lo=, hi=, open_lo=)`` -- a real drawn from a list of levels (a radius C drawn from a few
  scales), never moved by the adversary; any real in [lo, hi] is a valid value (a shrunk or recorded one);
  with no ``values`` it is never drawn (a radius read off trained outputs);
* ``ScalarWithPoints(lo, hi, points=)`` -- a :class:`~theorems.subjects.parts.Scalar` that also draws the
  listed points often (values where float64 is fragile: 1e-300, 1e-8);
* ``Measured(lo=)`` -- a real measured on a training run: >= ``lo``, or NaN (a diverged run stays a
  subject; the claim says what NaN means -- a witness file cannot hold one);
* ``WideVector(size, factor=)`` -- a vector of ``factor * size`` reals from 1e-300 to 1e300 in magnitude
  (and 709, 710, -745, where exp overflows or underflows), unconstrained for the adversary.

(A set of indices is :class:`theorems.subjects.mixture.Subset`.)

Each is a :class:`~theorems.subjects.parts.Part`: compose them with :class:`theorems.subjects.Family`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import numpy as np
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.errors import ClaimError
from theorems.subjects.parts import Part, Scalar


class _Real(Part):
    """A real number (not searched by the adversary): how every backend and witness sees it."""

    continuous = False

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return xp.asarray(float(value))

    def size_of(self, value: Any) -> int:
        return 1

    def to_json(self, value: Any) -> Any:
        return float(value)


@dataclass(frozen=True)
class Choice(_Real):
    """A real drawn from ``values`` (not searched by the adversary); valid anywhere in [lo, hi] (default:
    the range of ``values``; ``open_lo``: in (lo, hi]; ``hi=None``: no upper bound). ``simpler`` proposes
    the nearest integer. With no ``values`` the part is never drawn (a family of trained outputs)."""

    values: tuple[float, ...] = ()
    lo: float | None = None
    hi: float | None = None
    open_lo: bool = False
    kind = "choice"

    def __post_init__(self) -> None:
        values = tuple(float(v) for v in self.values)
        object.__setattr__(self, "values", values)
        if self.lo is None and values:
            object.__setattr__(self, "lo", min(values))
        if self.hi is None and values:
            object.__setattr__(self, "hi", max(values))
        if not all(math.isfinite(v) for v in values):
            raise ClaimError(f"Choice({values}): every value must be finite")
        for v in values:
            if not self._inside(v):
                raise ClaimError(f"Choice: value {v} is outside {self._range()}")

    def _inside(self, v: float) -> bool:
        below = self.lo is not None and (v <= self.lo if self.open_lo else v < self.lo)
        return math.isfinite(v) and not below and not (self.hi is not None and v > self.hi)

    def _range(self) -> str:
        hi = "inf" if self.hi is None else self.hi
        return f"({self.lo}, {hi}]" if self.open_lo else jf.allowed(self.lo, self.hi)

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if not self.values:
            raise ClaimError("Choice() without values is never drawn (its family lists its subjects)")
        return st.sampled_from(self.values)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        v = float(value)
        if not self._inside(v):
            raise AssumptionError(f"part {name!r} = {v!r} is outside {self._range()}")

    def simpler(self, value: Any) -> Iterable[Any]:
        r = float(round(float(value)))
        if r != float(value) and self._inside(r):
            yield r

    def neighbours(self, value: Any) -> Iterable[Any]:
        """The listed values next to ``value`` (below and above it)."""
        ordered = sorted(set(self.values))
        below = [v for v in ordered if v < float(value)]
        above = [v for v in ordered if v > float(value)]
        return below[-1:] + above[:1]

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.as_real(data, f"values.{name}", self.lo, self.hi, where, open_lo=self.open_lo)

    def describe(self, value: Any) -> str:
        return f"{float(value):g}"


@dataclass(frozen=True)
class ScalarWithPoints(Scalar):
    """A real in [lo, hi] like :class:`~theorems.subjects.parts.Scalar` (the adversary moves it through a
    logistic map), drawn as the endpoints or the listed ``points`` inside [lo, hi] or any float between;
    ``simpler`` proposes lo, hi and the value rounded to 1 and 3 decimals."""

    points: tuple[float, ...] = ()
    kind = "scalar"

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        special = [v for v in (self.lo, self.hi, *self.points) if self.lo <= v <= self.hi]
        return st.one_of(st.sampled_from(special), st.floats(self.lo, self.hi))

    def simpler(self, value: Any) -> Iterable[Any]:
        for v in (self.lo, self.hi, round(float(value), 1), round(float(value), 3)):
            if v != value and self.lo <= v <= self.hi:
                yield float(v)


@dataclass(frozen=True)
class Measured(_Real):
    """A real measured on a run (a norm of trained outputs): >= ``lo`` (+inf included) or NaN (never drawn;
    the family's :class:`~theorems.subjects.Snapshots` list it). A witness holds a finite value >= ``lo``."""

    lo: float = 0.0
    kind = "measured"

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        raise ClaimError("Measured() is never drawn (its family lists its subjects)")

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        v = float(value)
        if v < self.lo:  # NaN passes: a diverged run stays a subject
            raise AssumptionError(f"part {name!r} = {v!r} must be >= {self.lo} (or NaN)")

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.as_real(data, f"values.{name}", None if math.isnan(self.lo) else self.lo, None, where)

    def describe(self, value: Any) -> str:
        return f"{float(value):.4g}"


#: entries of a wide vector: moderate, large, huge, and the points where exp overflows or underflows
WIDE_ENTRIES = st.one_of(
    st.floats(-10.0, 10.0),
    st.floats(-1e4, 1e4),
    st.floats(-1e300, 1e300),
    st.sampled_from([0.0, -0.0, 709.0, 710.0, -745.0, 1e-300]),
)


@dataclass(frozen=True)
class WideVector(Part):
    """A vector of ``factor * dims[size]`` reals, drawn either entry by entry from :data:`WIDE_ENTRIES` (from
    1e-300 to 1e300 in magnitude, mixed) or at one scale (uniform entries in [-s, s] for s in ``scales``:
    where the adversary, which starts from these draws, can bring entries together); the adversary moves
    its entries freely. Deleting entry ``i`` of the size removes the entries ``factor i .. factor i +
    factor - 1`` (a pair, for ``factor=2``)."""

    size: str
    factor: int = 1
    scales: tuple[float, ...] = (0.1, 1.0, 10.0)
    kind = "vector"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.size,)

    def shape(self, dims: Mapping[str, int]) -> tuple[int, ...]:
        return (self.factor * dims[self.size],)

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        wide = st.lists(WIDE_ENTRIES, min_size=shape[0], max_size=shape[0]).map(
            lambda e: np.asarray(e, dtype=np.float64))
        if not self.scales:
            return wide
        one_scale = st.tuples(st.lists(st.floats(-1.0, 1.0), min_size=shape[0], max_size=shape[0]),
                              st.sampled_from(self.scales)).map(lambda t: np.asarray(t[0], dtype=np.float64) * t[1])
        return st.one_of(wide, one_scale)

    def simpler(self, value: Any) -> Iterable[Any]:
        v = np.asarray(value, dtype=float)
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1)):
            out = transform(v)
            if not np.array_equal(out, v):
                yield out

    def delete(self, value: Any, axis: int, index: int) -> Any:
        v = np.asarray(value, dtype=float)
        return np.delete(v, range(self.factor * index, self.factor * index + self.factor))

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        label = self.size if self.factor == 1 else f"{self.factor} {self.size} (entries)"
        return jf.real_array(data, f"values.{name}", shape, where, (label,))

    def describe(self, value: Any) -> str:
        return np.array2string(np.asarray(value), precision=4, threshold=8)


__all__ = ["Choice", "Measured", "ScalarWithPoints", "WideVector", "WIDE_ENTRIES"]
