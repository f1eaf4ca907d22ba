"""Subject families built from generic parts: no subclass, no per-backend code.

A :class:`Family` is named sizes (``dims``) and named parts; each part is a small object that
knows how to draw itself (hypothesis), check itself, map itself to unconstrained torch
parameters and back (the adversarial search), propose simpler values (shrinking) and write
itself as JSON (witnesses)::

    pairs = Family(
        "unit embeddings of positive pairs",
        dims={"n": (1, 5), "d": (1, 4)},
        parts={"x": Embeddings("n", "d", norm="unit"), "y": Embeddings("n", "d", norm="unit"),
               "p": Distribution("n"), "t": Scalar(0.1, 4.0)},
        quantities=(L_align, L_uniform),
    )

Quantities are declared with :func:`theorems.quantity` as ``formula(s, xp)``: ``s.x`` is part
``x`` in backend ``xp`` (float64, mpmath or torch), ``s.n`` a size (a Python int). Every
scalar, integer and size is itself a quantity of the family: ``pairs.symbol("t")``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.errors import ClaimError
from theorems.engine.quantity import declared
from theorems.engine.family import SubjectFamily

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

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        raise NotImplementedError

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        raise NotImplementedError

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

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        return float(rng.uniform(self.lo, self.hi))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        v = float(value)
        if not self.lo <= v <= self.hi:
            raise AssumptionError(f"part {name!r} = {v!r} is outside [{self.lo}, {self.hi}]")

    def to_param(self, value: Any) -> np.ndarray:
        t = min(max((float(value) - self.lo) / (self.hi - self.lo), 1e-12), 1 - 1e-12)
        return np.asarray(math.log(t / (1 - t)))

    def from_param(self, w: Any, xp: Backend) -> Any:
        return self.lo + (self.hi - self.lo) / (1 + xp.exp(-w))

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

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        return int(rng.integers(self.lo, self.hi + 1))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        if isinstance(value, bool) or int(value) != value or not self.lo <= int(value) <= self.hi:
            raise AssumptionError(f"part {name!r} = {value!r} is not an integer in [{self.lo}, {self.hi}]")

    def simpler(self, value: Any) -> Iterable[Any]:
        for v in sorted({self.lo, int(value) // 2, int(value) - 1}):
            if self.lo <= v < int(value):
                yield v

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

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        return self._constrain(rng.normal(size=shape) * float(rng.choice(self.scales)))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        v = np.asarray(value, dtype=float)
        if self.sign == "nonnegative" and np.any(v < 0) or self.sign == "positive" and np.any(v <= 0):
            raise AssumptionError(f"part {name!r} must be {self.sign}")
        if self.norm == "unit" and abs(float(np.linalg.norm(v)) - 1) > 1e-9:
            raise AssumptionError(f"part {name!r} must have norm 1, has {float(np.linalg.norm(v))!r}")

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

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        scale = float(rng.choice(self.scales)) if self.norm is None else self.radius / 2
        return self._constrain(rng.normal(size=shape) * scale)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        norms = np.linalg.norm(np.asarray(value, dtype=float), axis=1)
        if self.norm == "unit" and np.any(np.abs(norms - 1) > 1e-9):
            raise AssumptionError(f"part {name!r}: every row must have norm 1")
        if self.norm == "ball" and np.any(norms > self.radius * (1 + 1e-12)):
            raise AssumptionError(f"part {name!r}: every row must have norm <= {self.radius}")

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


@dataclass(frozen=True)
class Distribution(Part):
    """A probability vector over ``size`` outcomes, every mass > 0 (uniform or far from it:
    masses down to 10^-``decades``)."""

    size: str
    decades: float = 6.0
    kind = "distribution"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.size,)

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        uniform = st.just(np.full(shape, 1.0 / shape[0]))
        raw = st.lists(st.floats(-self.decades, 0.0), min_size=shape[0], max_size=shape[0])
        skewed = raw.map(lambda e: _normalized(np.power(10.0, np.asarray(e))))
        return st.one_of(uniform, skewed)

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        return _normalized(np.maximum(rng.dirichlet(np.full(shape[0], 0.7)), 1e-6))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        super().validate(value, shape, name)
        p = np.asarray(value, dtype=float)
        if np.any(p <= 0):
            raise AssumptionError(f"part {name!r} = {p.tolist()}: every mass must be > 0")
        if abs(float(p.sum()) - 1) > 1e-9:
            raise AssumptionError(f"part {name!r} sums to {float(p.sum())!r}, not 1")

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
        return _normalized(np.delete(np.asarray(value, dtype=float), index))


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

    def random(self, rng: np.random.Generator, shape: tuple[int, ...]) -> Any:
        n = shape[0]
        return self._from_upper(n, rng.uniform(0, self.max_weight, n * (n - 1) // 2))

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
class Subject:
    """A subject of a composed family: its sizes and the values of its parts (numpy / Python)."""

    dims: dict[str, int]
    values: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        values = object.__getattribute__(self, "values")
        if name in values:
            return values[name]
        dims = object.__getattribute__(self, "dims")
        if name in dims:
            return dims[name]
        raise AttributeError(name)


class View:
    """A subject seen from one backend: ``s.x`` is part x as a backend array (from the torch
    parameters during the adversarial search), ``s.n`` a size as a Python int."""

    def __init__(self, family: "Family", subject: Subject, xp: Backend, params: Sequence[Any] | None) -> None:
        self._family, self._subject, self._xp, self._params = family, subject, xp, params
        self._cache: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        if name in self._subject.dims:
            return self._subject.dims[name]
        if name not in self._cache:
            part = self._family.parts.get(name)
            if part is None:
                raise AttributeError(f"family {self._family.name!r} has no part or size {name!r}")
            value = self._subject.values[name]
            if isinstance(part, Integer):
                self._cache[name] = int(value)
            elif self._params is not None and part.continuous:
                self._cache[name] = part.from_param(self._params[self._family.continuous.index(name)], self._xp)
            else:
                self._cache[name] = self._xp.asarray(value)
        return self._cache[name]


class Family(SubjectFamily):
    """A subject family composed from named sizes and parts (see the module docstring).

    Args:
        name: how reports and witnesses name the family.
        dims: size name -> (min, max), drawn first; parts use them as their axes.
        parts: part name -> Part.
        quantities: symbols declared with :func:`theorems.quantity` (with a formula).
        examples: fixed subjects checked every time (``{"dims": {...}, "values": {...}}``).
        max_confirm_size: subjects with more numbers than this skip the periodic mpmath
            audit of the float screen (candidates are still confirmed).
    """

    def __init__(self, name: str, dims: Mapping[str, tuple[int, int]], parts: Mapping[str, Part],
                 quantities: Sequence[sympy.Symbol] = (), examples: Sequence[Mapping[str, Any]] = (),
                 max_confirm_size: int = 400) -> None:
        self.name = name
        self.dims = {k: (int(lo), int(hi)) for k, (lo, hi) in dims.items()}
        self.parts = dict(parts)
        for d, (lo, hi) in self.dims.items():
            if not 0 <= lo <= hi:
                raise ClaimError(f"family {name!r}: size {d!r} = ({lo}, {hi}) needs 0 <= min <= max")
        for pname, part in self.parts.items():
            if not isinstance(part, Part):
                raise ClaimError(f"family {name!r}: part {pname!r} is a {type(part).__name__}, not a Part "
                                 "(Scalar, Integer, Vector, Embeddings, Distribution, Graph)")
            unknown = [a for a in part.axes if a not in self.dims]
            if unknown:
                raise ClaimError(f"family {name!r}: part {pname!r} uses size(s) {unknown} not in dims {list(self.dims)}")
        clash = set(self.dims) & set(self.parts)
        if clash:
            raise ClaimError(f"family {name!r}: {sorted(clash)} are both a size and a part")
        self.formulas: dict[sympy.Symbol, Any] = {}
        nondiff: set[sympy.Symbol] = set()
        for sym in quantities:
            info = declared(sym)
            if info is None or info.formula is None:
                raise ClaimError(f"family {name!r}: {sym} was not declared with theorems.quantity(..., formula)")
            self.formulas[sym] = info.formula
            if not info.differentiable:
                nondiff.add(sym)
        self.part_symbols: dict[str, sympy.Symbol] = {}
        for pname, part in self.parts.items():
            if isinstance(part, (Scalar, Integer)):
                self.part_symbols[pname] = sympy.Symbol(pname, integer=True) if isinstance(part, Integer) \
                    else sympy.Symbol(pname, real=True)
        for d in self.dims:
            self.part_symbols[d] = sympy.Symbol(d, integer=True)
        self.symbols = frozenset(self.formulas) | frozenset(self.part_symbols.values())
        self.differentiable = self.symbols - nondiff
        self.continuous = [p for p, part in self.parts.items() if part.continuous]
        self.examples = [self.from_json(jf.plain(e)) for e in examples]
        self.max_confirm_size = max_confirm_size

    def symbol(self, name: str) -> sympy.Symbol:
        """The quantity symbol of a scalar, integer or size of this family."""
        try:
            return self.part_symbols[name]
        except KeyError:
            raise ClaimError(f"family {self.name!r} has no scalar, integer or size named {name!r} "
                             f"(it has {sorted(self.part_symbols)})") from None

    # -- drawing ----------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[Subject]:
        @st.composite
        def subjects(draw: Any) -> Subject:
            dims = {d: draw(st.integers(lo, hi)) for d, (lo, hi) in self.dims.items()}
            values = {p: draw(part.strategy(part.shape(dims))) for p, part in self.parts.items()}
            return Subject(dims, values)

        return subjects()

    def exhaustive(self, quick: bool = False) -> Iterable[Subject]:
        return list(self.examples)

    def random_start(self, rng: np.random.Generator) -> Subject | None:
        if not self.continuous:
            return None
        dims = {d: int(rng.integers(lo, hi + 1)) for d, (lo, hi) in self.dims.items()}
        return Subject(dims, {p: part.random(rng, part.shape(dims)) for p, part in self.parts.items()})

    # -- evaluation ---------------------------------------------------------------------
    def quantities(self, subject: Subject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        view = View(self, subject, xp, params)
        by_symbol = {s: n for n, s in self.part_symbols.items()}
        out = {}
        for sym in symbols:
            if sym in by_symbol:
                out[sym] = xp.asarray(view[by_symbol[sym]])
            elif sym in self.formulas:
                out[sym] = self.formulas[sym](view, xp)
            else:
                raise ClaimError(f"family {self.name!r} cannot compute {sym}")
        return out

    def cheap_to_confirm(self, subject: Subject) -> bool:
        return sum(int(np.size(v)) for v in subject.values.values()) <= self.max_confirm_size

    def validate(self, subject: Subject) -> None:
        if not isinstance(subject, Subject):
            raise AssumptionError(f"family {self.name!r} takes composed subjects, got {type(subject).__name__}")
        for d, (lo, hi) in self.dims.items():
            v = subject.dims.get(d)
            if v is None or not lo <= v <= hi:
                raise AssumptionError(f"size {d!r} = {v!r} is outside the family's range [{lo}, {hi}]")
        extra = set(subject.values) - set(self.parts)
        if extra or set(self.parts) - set(subject.values):
            raise AssumptionError(f"subject parts {sorted(subject.values)} do not match the family's "
                                  f"{sorted(self.parts)}")
        for p, part in self.parts.items():
            part.validate(subject.values[p], part.shape(subject.dims), p)

    # -- adversarial search --------------------------------------------------------------
    def params(self, subject: Subject) -> list[Any]:
        import torch

        return [torch.tensor(self.parts[p].to_param(subject.values[p]), dtype=torch.float64, requires_grad=True)
                for p in self.continuous]

    def from_params(self, subject: Subject, params: Sequence[Any]) -> Subject:
        from numerics.backend import torch_backend

        xp = torch_backend()
        values = dict(subject.values)
        for p, w in zip(self.continuous, params):
            value = self.parts[p].from_param(w.detach(), xp).numpy().astype(np.float64)
            values[p] = float(value) if isinstance(self.parts[p], Scalar) else value
        return Subject(dict(subject.dims), values)

    # -- shrinking and witnesses ----------------------------------------------------------
    def shrink(self, subject: Subject) -> Iterable[Subject]:
        for d, (lo, _) in self.dims.items():
            n = subject.dims[d]
            if n <= lo:
                continue
            for index in range(n):
                dims = {**subject.dims, d: n - 1}
                values = dict(subject.values)
                for p, part in self.parts.items():
                    for axis, a in enumerate(part.axes):
                        if a == d:
                            values[p] = part.delete(values[p], axis, index)
                yield Subject(dims, values)
        for p, part in self.parts.items():
            for simpler in part.simpler(subject.values[p]):
                yield Subject(dict(subject.dims), {**subject.values, p: simpler})

    def size(self, subject: Subject) -> tuple[float, ...]:
        nonzero = sum(int(np.count_nonzero(np.asarray(v, dtype=float))) for v in subject.values.values())
        return (*[subject.dims[d] for d in self.dims], nonzero)

    def to_json(self, subject: Subject) -> dict[str, Any]:
        return {"dims": dict(subject.dims),
                "values": {p: part.to_json(subject.values[p]) for p, part in self.parts.items()}}

    def from_json(self, data: Any) -> Subject:
        """Exact JSON types: ``dims`` the family's sizes, each an integer within its bounds, then ``values``
        exactly the family's parts, each read with the shape its sizes give (checked before any array is
        built); then :meth:`validate`."""
        where = self.name
        jf.fields(data, ("dims", "values"), (), where)
        jf.fields(data["dims"], tuple(self.dims), (), where, "dims")
        dims = {d: jf.as_integer(data["dims"][d], f"dims.{d}", lo, hi, where) for d, (lo, hi) in self.dims.items()}
        jf.fields(data["values"], tuple(self.parts), (), where, "values")
        values = {p: part.read(data["values"][p], part.shape(dims), p, where) for p, part in self.parts.items()}
        subject = Subject(dims, values)
        self.validate(subject)
        return subject

    def describe(self, subject: Subject) -> str:
        dims = ", ".join(f"{d}={v}" for d, v in subject.dims.items())
        parts = "; ".join(f"{p}={part.describe(subject.values[p])}" for p, part in self.parts.items())
        return f"{dims}; {parts}" if dims else parts


__all__ = ["Distribution", "Embeddings", "Family", "Graph", "Integer", "Part", "Scalar", "Subject", "Vector", "View"]
