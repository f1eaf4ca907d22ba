"""The parts a subject family is composed of (:class:`theorems.subjects.Family`).

A part is one named piece of a subject: it draws itself (one hypothesis strategy: the random search and
the adversary's starts both draw from it), checks itself, maps itself to unconstrained torch parameters
and back (the adversarial search), hands itself to a backend (``to_backend``), proposes simpler values
(shrinking) and reads and writes itself as JSON (witnesses). The parts:

* ``Scalar(lo, hi)``, ``Integer(lo, hi)``, ``Fixed(value)`` -- a real, an integer, a fixed value;
* ``Vector(size, sign=, norm=)``, ``Embeddings(rows, cols, norm=)`` -- arrays over the family's sizes;
* ``Distribution(size)``, ``JointDistribution(*sizes)`` -- probability vectors and tables (every mass > 0);
* ``Graph(nodes)`` -- a weighted undirected graph;
* ``Given(make)`` -- a part drawn conditionally on the sizes and the parts before it:
  ``"k": Given(lambda s: Integer(1, s["mixture"].n_classes - 1))``;
* ``Mixture(...)`` (:mod:`theorems.subjects.mixture`) -- a labelled finite mixture: classes, masses,
  class-conditional supports with their weights, embeddings;
  ``Subset(n)`` (same module) -- a non-empty set of indices 0..n-1 (a task: a set of classes).
* ``Choice(values)``, ``ScalarWithPoints(lo, hi, points=)``, ``Measured(lo)``, ``WideVector(size)``
  (:mod:`theorems.subjects.reals`) -- a real drawn from levels, a scalar with points drawn often, a
  measured real (NaN allowed), a vector of reals from 1e-300 to 1e300;
* (Merad et al.'s ``BallTriplet``, ``SampleTriplets`` and ``SampleOutputs`` -- a triplet in a ball, a training
  set's triplets of sample indices, an encoder's outputs on the samples -- live with that paper:
  theorems/papers/merad/triplet_parts.py);
* (Huang et al.'s ``Augmentations`` and ``Encoder``, augmented data and an encoder's parameters on it, are
  that paper's own parts: theorems/papers/huang/augmentation.py.)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.errors import ClaimError

SCALES = (1.0, 0.1, 10.0)
_unit_floats = st.floats(-1.0, 1.0, allow_nan=False)


def _finite(value: np.ndarray, name: str) -> None:
    if not np.all(np.isfinite(value)):
        raise AssumptionError(f"part {name!r} contains NaN or inf")


class Part:
    """One named piece of a subject; ``axes`` are the names of the sizes its array uses."""

    axes: tuple[str, ...] = ()
    continuous = True  # takes part in the adversarial search
    kind = "part"

    def shape(self, dims: Mapping[str, int]) -> tuple[int, ...]:
        return tuple(dims[a] for a in self.axes)

    def resolve(self, context: Mapping[str, Any]) -> "Part":
        """The concrete part given the sizes and the parts drawn before it (a :class:`Given` builds one)."""
        return self

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        raise NotImplementedError

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """The value as a formula sees it: ``s.<part>`` in backend ``xp`` (default: an array of it)."""
        return xp.asarray(value)

    def size_of(self, value: Any) -> int:
        """How many numbers the value holds (the cost of confirming a subject in mpmath)."""
        return int(np.size(value))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        arr = np.asarray(value, dtype=float)
        if arr.shape != shape:
            raise AssumptionError(f"part {name!r} has shape {arr.shape}; its sizes give {shape}")
        _finite(arr, name)

    def to_param(self, value: Any) -> np.ndarray:
        """Unconstrained coordinates of ``value`` (their image under ``from_param`` is ``value``)."""
        return np.asarray(value, dtype=float)

    def from_param(self, w: Any, xp: Backend) -> Any:
        return w

    def simpler(self, value: Any) -> Iterable[Any]:
        return ()

    def scaled(self, value: Any, factor: float) -> Any | None:
        """The value with every coordinate multiplied by ``factor`` (a common scale of the subject, moved as one by
        the tightness search), or None when the part has no free scale (a norm, a range, a count)."""
        return None

    def neighbours(self, value: Any) -> Iterable[Any]:
        """Values one move away, for the tightness search's discrete moves (default: the simpler ones)."""
        return self.simpler(value)

    def grid(self, count: int) -> list[Any]:
        """Values across the part's whole range, for the search's joint moves (a scalar parameter or a radius moved
        with the subject): none for a part without a scalar range."""
        return []

    def delete(self, value: Any, axis: int, index: int) -> Any:
        """``value`` with entry ``index`` removed along its ``axis``-th axis."""
        return np.delete(np.asarray(value), index, axis=axis)

    def to_json(self, value: Any) -> Any:
        return np.asarray(value).tolist()

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        """The part's value from JSON with its exact types and ``shape`` (from the subject's sizes)
        checked before any array is built: finite reals of that shape. (A part written before this
        method existed, with only its own ``from_json``, is read by that ``from_json``; the family's
        ``validate`` checks the value afterwards.)"""
        if type(self).from_json is not Part.from_json:
            return self.from_json(data)
        return jf.real_array(data, f"values.{name}", shape, where, tuple(self.axes) or None)

    def from_json(self, data: Any) -> Any:
        return np.asarray(data, dtype=float)

    def describe(self, value: Any) -> str:
        return np.array2string(np.asarray(value), precision=4, threshold=12, separator=", ")


def _rounded(value: np.ndarray) -> Iterable[np.ndarray]:
    for transform in (np.round, lambda a: np.round(a, 1), lambda a: np.round(a, 3)):
        out = transform(value)
        if not np.array_equal(out, value):
            yield out


def _simpler_array(value: Any, constrain: Any, can_be_zero: bool) -> Iterable[np.ndarray]:
    """Zero (when the constraint allows it), then rounder values, each mapped back onto the constraint."""
    v = np.asarray(value, dtype=float)
    if can_be_zero and np.any(v != 0):
        yield np.zeros_like(v)
    for r in _rounded(v):
        r = constrain(r)
        if not np.array_equal(r, v):
            yield r


@dataclass(frozen=True)
class Scalar(Part):
    """A real number in [lo, hi] (endpoints drawn often)."""

    lo: float
    hi: float
    kind = "scalar"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo < self.hi):
            raise ClaimError(f"Scalar({self.lo}, {self.hi}): need finite lo < hi")

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        ends = st.sampled_from([self.lo, self.hi, (self.lo + self.hi) / 2])
        return st.one_of(ends, st.floats(self.lo, self.hi, allow_nan=False))


    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        v = float(value)
        if not self.lo <= v <= self.hi:
            raise AssumptionError(f"part {name!r} = {v!r} is outside [{self.lo}, {self.hi}]")

    def to_param(self, value: Any) -> np.ndarray:
        t = min(max((float(value) - self.lo) / (self.hi - self.lo), 1e-12), 1 - 1e-12)
        return np.asarray(math.log(t / (1 - t)))

    def from_param(self, w: Any, xp: Backend) -> Any:
        return self.lo + (self.hi - self.lo) / (1 + xp.exp(-w))

    def grid(self, count: int) -> list[Any]:
        """``count`` values from lo to hi: geometric when the range is positive, else evenly spaced."""
        if self.lo > 0:
            return [self.lo * (self.hi / self.lo) ** (k / (count - 1)) for k in range(count)]
        return [self.lo + (self.hi - self.lo) * k / (count - 1) for k in range(count)]

    def simpler(self, value: Any) -> Iterable[Any]:
        for v in (round(float(value)), 1.0, round(float(value), 1), round(float(value), 3), self.lo):
            if v != value and self.lo <= v <= self.hi:
                yield float(v)

    def to_json(self, value: Any) -> Any:
        return float(value)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.as_real(data, f"values.{name}", self.lo, self.hi, where)

    def from_json(self, data: Any) -> Any:
        return float(data)

    def describe(self, value: Any) -> str:
        return f"{float(value):.6g}"


@dataclass(frozen=True)
class Integer(Part):
    """An integer in [lo, hi] (not part of the adversarial search)."""

    lo: int
    hi: int
    continuous = False
    kind = "integer"

    def __post_init__(self) -> None:
        if not self.lo <= self.hi:
            raise ClaimError(f"Integer({self.lo}, {self.hi}): need lo <= hi")

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        return st.integers(self.lo, self.hi)


    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        if isinstance(value, bool) or int(value) != value or not self.lo <= int(value) <= self.hi:
            raise AssumptionError(f"part {name!r} = {value!r} is not an integer in [{self.lo}, {self.hi}]")

    def simpler(self, value: Any) -> Iterable[Any]:
        for v in sorted({self.lo, int(value) // 2, int(value) - 1}):
            if self.lo <= v < int(value):
                yield v

    def neighbours(self, value: Any) -> Iterable[Any]:
        """The integers next to ``value`` inside [lo, hi]."""
        return [v for v in (int(value) - 1, int(value) + 1) if self.lo <= v <= self.hi]

    def grid(self, count: int) -> list[Any]:
        """Every integer of a range of at most ``4 count`` values; else ``count`` spread geometrically (or evenly
        when the range reaches 0 or below), the ends included."""
        if self.hi - self.lo + 1 <= 4 * count:
            return list(range(self.lo, self.hi + 1))
        if self.lo > 0:
            spread = {round(self.lo * (self.hi / self.lo) ** (k / (count - 1))) for k in range(count)}
        else:
            spread = {round(self.lo + (self.hi - self.lo) * k / (count - 1)) for k in range(count)}
        return sorted(spread)

    def to_json(self, value: Any) -> Any:
        return int(value)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return jf.as_integer(data, f"values.{name}", self.lo, self.hi, where)

    def from_json(self, data: Any) -> Any:
        return int(data)

    def describe(self, value: Any) -> str:
        return str(int(value))


@dataclass(frozen=True)
class Vector(Part):
    """A vector of length ``size`` with entries in [-scale, scale] for a drawn scale;
    ``sign``: None, "nonnegative" or "positive"; ``norm``: None or "unit" (||v|| = 1)."""

    size: str
    sign: str | None = None
    norm: str | None = None
    scales: tuple[float, ...] = SCALES
    kind = "vector"

    def __post_init__(self) -> None:
        if self.sign not in (None, "nonnegative", "positive") or self.norm not in (None, "unit"):
            raise ClaimError(f"Vector(sign={self.sign!r}, norm={self.norm!r}): sign is None, 'nonnegative' "
                             "or 'positive'; norm is None or 'unit'")

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.size,)

    def _constrain(self, raw: np.ndarray) -> np.ndarray:
        v = np.abs(raw) if self.sign else raw
        if self.sign == "positive":
            v = np.where(v == 0, 1e-3, v)
        if self.norm == "unit":
            n = np.linalg.norm(v)
            v = v / n if n > 0 else np.full_like(v, 1 / math.sqrt(v.size))
        return v

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        entries = st.lists(_unit_floats, min_size=shape[0], max_size=shape[0])
        return st.tuples(entries, st.sampled_from(self.scales)).map(
            lambda e: self._constrain(np.asarray(e[0], dtype=float) * e[1]))


    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        v = np.asarray(value, dtype=float)
        if self.sign == "nonnegative" and np.any(v < 0) or self.sign == "positive" and np.any(v <= 0):
            raise AssumptionError(f"part {name!r} must be {self.sign}")
        if self.norm == "unit" and abs(float(np.linalg.norm(v)) - 1) > 1e-9:
            raise AssumptionError(f"part {name!r} must have norm 1, has {float(np.linalg.norm(v))!r}")

    def scaled(self, value: Any, factor: float) -> Any | None:
        return np.asarray(value, dtype=float) * factor if self.norm is None else None

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """A unit vector as the formulas see it: normalized in the backend's own precision (a row stored in
        float64 is on the sphere only to rounding; at 60 digits it is put on it exactly)."""
        v = xp.asarray(value)
        return v / xp.sqrt(xp.sum(v * v)) if self.norm == "unit" else v

    def to_param(self, value: Any) -> np.ndarray:
        v = np.asarray(value, dtype=float)
        return np.log(np.maximum(v, 1e-300)) if self.sign else v

    def from_param(self, w: Any, xp: Backend) -> Any:
        v = xp.exp(w) if self.sign else w
        if self.norm == "unit":
            v = v / xp.sqrt(xp.sum(v * v))
        return v

    def simpler(self, value: Any) -> Iterable[Any]:
        return _simpler_array(value, self._constrain, self.sign is None and self.norm is None)

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return self._constrain(np.delete(np.asarray(value, dtype=float), index))


@dataclass(frozen=True)
class Embeddings(Part):
    """A table of ``rows`` embeddings in R^``cols``; ``norm``: None, "unit" (each row on the
    sphere) or "ball" (each row of norm <= ``radius``)."""

    rows: str
    cols: str
    norm: str | None = None
    radius: float = 1.0
    scales: tuple[float, ...] = SCALES
    kind = "embeddings"

    def __post_init__(self) -> None:
        if self.norm not in (None, "unit", "ball"):
            raise ClaimError(f"Embeddings(norm={self.norm!r}): use None, 'unit' or 'ball'")

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.rows, self.cols)

    def _constrain(self, raw: np.ndarray) -> np.ndarray:
        out = np.array(raw, dtype=float)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        if self.norm == "unit":
            zero = norms[:, 0] == 0
            out[zero] = 1 / math.sqrt(out.shape[1])
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            return out / norms
        if self.norm == "ball":
            limit = self.radius * (1 - 1e-12)
            return np.where(norms > limit, out * limit / np.maximum(norms, 1e-300), out)
        return out

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        entries = st.lists(_unit_floats, min_size=shape[0] * shape[1], max_size=shape[0] * shape[1])
        scale = st.sampled_from(self.scales if self.norm is None else (self.radius,))
        return st.tuples(entries, scale).map(
            lambda e: self._constrain(np.asarray(e[0], dtype=float).reshape(shape) * e[1]))


    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        norms = np.linalg.norm(np.asarray(value, dtype=float), axis=1)
        if self.norm == "unit" and np.any(np.abs(norms - 1) > 1e-9):
            raise AssumptionError(f"part {name!r}: every row must have norm 1")
        if self.norm == "ball" and np.any(norms > self.radius * (1 + 1e-12)):
            raise AssumptionError(f"part {name!r}: every row must have norm <= {self.radius}")

    def scaled(self, value: Any, factor: float) -> Any | None:
        return np.asarray(value, dtype=float) * factor if self.norm is None else None

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """Rows on the sphere (``unit``) or in the ball (``ball``) as the formulas see them: normalized (projected) in
        the backend's own precision, so that a row stored in float64 -- on the sphere or inside the ball only to
        rounding -- is exactly on it (in it) at 60 digits."""
        v = xp.asarray(value)
        if self.norm is None or (self.norm == "ball" and xp.name != "mpmath"):
            return v
        norms = xp.sqrt(xp.sum(v * v, axis=1))[:, None]
        if self.norm == "unit":
            return v / norms
        # a ball at high precision: a row stored a rounding beyond the radius is put on it (inside rows unchanged)
        scale = np.array([[self.radius / n if n > self.radius else 1] for n in np.asarray(norms).reshape(-1)],
                         dtype=object)
        return v * scale

    def to_param(self, value: Any) -> np.ndarray:
        v = np.asarray(value, dtype=float)
        if self.norm != "ball":
            return v
        norms = np.linalg.norm(v, axis=1, keepdims=True)
        r = np.minimum(norms / self.radius, 1 - 1e-9)
        return np.where(norms > 0, v / np.maximum(norms, 1e-300) * np.arctanh(r), 0.0)

    def from_param(self, w: Any, xp: Backend) -> Any:
        if self.norm is None:
            return w
        norms = xp.sqrt(xp.sum(w * w, axis=1))[:, None]
        if self.norm == "unit":
            return w / norms
        return self.radius * (1 - 2 / (xp.exp(2 * norms) + 1)) * w / (norms + 1e-300)  # R tanh(|w|) w/|w|

    def simpler(self, value: Any) -> Iterable[Any]:
        return _simpler_array(value, self._constrain, self.norm != "unit")

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return self._constrain(np.delete(np.asarray(value, dtype=float), index, axis=axis))


class _Masses(Part):
    """Masses over the part's axes, every one > 0, summing to 1: drawn uniform or far from it (masses down to
    10^-``decades`` before normalizing); the adversary moves their logs (a softmax maps them back)."""

    decades: float

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        n = int(np.prod(shape))
        uniform = st.just(np.full(shape, 1.0 / n))
        raw = st.lists(st.floats(-self.decades, 0.0), min_size=n, max_size=n)
        return st.one_of(uniform, raw.map(lambda e: _normalized(np.power(10.0, np.asarray(e)).reshape(shape))))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        p = np.asarray(value, dtype=float)
        if np.any(p <= 0):
            raise AssumptionError(f"part {name!r} = {p.tolist()}: every mass must be > 0")
        if abs(float(p.sum()) - 1) > 1e-9:
            raise AssumptionError(f"part {name!r} sums to {float(p.sum())!r}, not 1")

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """The masses as the formulas see them: normalized in the backend's own precision (float64 masses sum to 1
        only to rounding; at 60 digits 1/3 + 1/3 + 1/3 in float64 is 1 - 5.6e-17, and an identity that needs the sum
        to be 1 would fail by that much)."""
        p = xp.asarray(value)
        return p / xp.sum(p)

    def to_param(self, value: Any) -> np.ndarray:
        return np.log(np.asarray(value, dtype=float))

    def from_param(self, w: Any, xp: Backend) -> Any:
        e = xp.exp(w - xp.max(w))
        return e / xp.sum(e)

    def simpler(self, value: Any) -> Iterable[Any]:
        p = np.asarray(value, dtype=float)
        uniform = np.full_like(p, 1.0 / p.size)
        if not np.allclose(p, uniform, rtol=0, atol=1e-15):
            yield uniform
        r = np.round(p, 2)
        if np.all(r > 0) and not np.array_equal(_normalized(r), p):
            yield _normalized(r)

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return _normalized(np.delete(np.asarray(value, dtype=float), index, axis=axis))


@dataclass(frozen=True)
class Distribution(_Masses):
    """A probability vector over ``size`` outcomes, every mass > 0 (uniform or far from it:
    masses down to 10^-``decades``)."""

    size: str
    decades: float = 6.0
    kind = "distribution"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.size,)


def _normalized(p: np.ndarray) -> np.ndarray:
    return p / p.sum()


@dataclass(frozen=True)
class Graph(Part):
    """A finite weighted undirected graph on ``nodes`` vertices: a symmetric adjacency matrix
    with weights in [0, ``max_weight``] and a zero diagonal."""

    nodes: str
    max_weight: float = 1.0
    kind = "graph"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.nodes, self.nodes)

    def _from_upper(self, n: int, weights: Sequence[float]) -> np.ndarray:
        A = np.zeros((n, n))
        A[np.triu_indices(n, 1)] = weights
        return A + A.T

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        n = shape[0]
        weight = st.one_of(st.just(0.0), st.just(self.max_weight), st.floats(0.0, self.max_weight))
        return st.lists(weight, min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2).map(
            lambda w: self._from_upper(n, w))


    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        A = np.asarray(value, dtype=float)
        if not np.array_equal(A, A.T) or np.any(np.diag(A) != 0):
            raise AssumptionError(f"part {name!r} must be symmetric with a zero diagonal")
        if np.any(A < 0) or np.any(A > self.max_weight):
            raise AssumptionError(f"part {name!r}: weights must lie in [0, {self.max_weight}]")

    def to_param(self, value: Any) -> np.ndarray:
        r = np.clip(np.asarray(value, dtype=float) / self.max_weight, 0.0, 1 - 1e-9)
        return np.sqrt(r / (1 - r))  # inverse of w -> max_weight w^2 / (1 + w^2)

    def from_param(self, w: Any, xp: Backend) -> Any:
        sym = (w + xp.transpose(w)) / 2
        A = self.max_weight * sym * sym / (1 + sym * sym)  # in [0, max_weight), 0 at w = 0
        return A * xp.asarray(1.0 - np.eye(int(w.shape[0])))

    def simpler(self, value: Any) -> Iterable[Any]:
        A = np.asarray(value, dtype=float)
        for i, j in zip(*np.triu_indices(A.shape[0], 1)):
            if A[i, j] != 0:
                B = A.copy()
                B[i, j] = B[j, i] = 0.0
                yield B
        for r in _rounded(A):
            if np.all(r <= self.max_weight) and np.all(r >= 0):
                yield r


@dataclass(frozen=True)
class Fixed(Part):
    """A fixed value (a number, a tuple, an array): always this value, never searched."""

    value: Any
    continuous = False
    kind = "fixed"

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        return st.just(self.value)

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return value if isinstance(value, (int, str, tuple)) else xp.asarray(value)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        same = np.array_equal(np.asarray(value), np.asarray(self.value)) if not isinstance(self.value, str) \
            else value == self.value
        if not same:
            raise AssumptionError(f"part {name!r} = {jf.show(self.to_json(value))} must be {jf.show(self.to_json(self.value))}")

    def to_json(self, value: Any) -> Any:
        return np.asarray(value).tolist() if isinstance(value, np.ndarray) else jf.plain(value)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        expected = self.to_json(self.value)
        if json.dumps(data, sort_keys=True) != json.dumps(expected, sort_keys=True):  # exact types: true is not 1
            raise AssumptionError(f"{where}: field values.{name} = {jf.show(data)} must be {jf.show(expected)}")
        return self.value

    def from_json(self, data: Any) -> Any:
        return self.value

    def size_of(self, value: Any) -> int:
        return 0

    def describe(self, value: Any) -> str:
        return str(self.to_json(value))


@dataclass(frozen=True)
class JointDistribution(_Masses):
    """A joint distribution on a finite product: a probability table over the sizes ``sizes`` (every mass
    > 0, the table sums to 1; uniform or far from it, masses down to 10^-``decades`` before normalizing)."""

    sizes: tuple[str, ...]
    decades: float = 6.0
    kind = "joint distribution"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self.sizes)


@dataclass(frozen=True, eq=False)
class Pinned(Part):
    """A part held at one value (the engine's grid over an asymptotic parameter and its joint moves pin a part):
    it draws only that value, is never searched, and hands it to the formulas, reads and writes it as the original
    part does."""

    part: Part
    value: Any
    continuous = False
    kind = "pinned"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return self.part.axes

    def resolve(self, context: Mapping[str, Any]) -> Part:
        """The pinned part of a ``Given`` is the concrete part it builds, still pinned."""
        inner = self.part.resolve(context)
        return self if inner is self.part else Pinned(inner, self.value)

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        return st.just(self.value)

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return int(value) if isinstance(self.part, Integer) else self.part.to_backend(value, xp)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        self.part.validate(value, shape, name)
        if json.dumps(self.part.to_json(value)) != json.dumps(self.part.to_json(self.value)):
            raise AssumptionError(f"part {name!r} is pinned to {self.part.describe(self.value)}")

    def size_of(self, value: Any) -> int:
        return self.part.size_of(value)

    def to_json(self, value: Any) -> Any:
        return self.part.to_json(value)

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return self.part.read(data, shape, name, where)

    def describe(self, value: Any) -> str:
        return self.part.describe(value)


@dataclass(frozen=True)
class Given(Part):
    """A part drawn conditionally: ``make(context)`` returns the concrete part from the sizes and the
    values of the parts listed before it (``context["n"]``, ``context["mixture"]``). Everything a part does
    -- drawing, checking, the adversary, shrinking, JSON -- is the concrete part's, resolved each time."""

    make: Callable[[Mapping[str, Any]], Part]
    kind = "given"

    def resolve(self, context: Mapping[str, Any]) -> Part:
        part = self.make(context)
        if not isinstance(part, Part) or isinstance(part, Given):
            raise ClaimError(f"Given(...) built a {type(part).__name__}: it must return a concrete Part")
        return part

    @property
    def continuous(self) -> bool:  # type: ignore[override]
        return False  # the concrete part decides, subject by subject (see Family.continuous_parts)
