"""Subject families built from generic parts: no subclass, no per-backend code.

A :class:`Family` is named sizes (``dims``) and named parts (:mod:`theorems.subjects.parts`), drawn in the
order given (a :class:`~theorems.subjects.parts.Given` part is drawn from the sizes and the parts before
it)::

    pairs = Family(
        "unit embeddings of positive pairs",
        dims={"n": (1, 5), "d": (1, 4)},
        parts={"x": Embeddings("n", "d", norm="unit"), "y": Embeddings("n", "d", norm="unit"),
               "p": Distribution("n"), "t": Scalar(0.1, 4.0)},
        quantities=(L_align, L_uniform),
    )

Quantities are declared with :func:`theorems.quantity` as ``formula(s, xp)``: ``s.x`` is part
``x`` in backend ``xp`` (float64, mpmath or torch), ``s.n`` a size (a Python int). Every
scalar, integer and size is itself a quantity of the family: ``pairs.symbol("t")``. One seeded
hypothesis strategy draws the subjects of the random search and the starts of the adversary.

A family of trained encoders gets its subjects from :class:`Snapshots` (the snapshots of training
runs, with the runs as prerequisites) instead of random draws: ``Family(..., snapshots=Snapshots(...))``.
"""

from __future__ import annotations

import copy
import functools
import weakref
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend, torch_backend
from numerics.errors import AssumptionError
from theorems.engine.culprit import blame

SCALE_MOVES = (2.0, 0.5)  # the common factors the tightness search tries on a subject's free scale
JOINT_GRID = 8  # values per scalar parameter in the search's joint moves (an integer range of up to 32: every value)
from theorems.engine.errors import ClaimError
from theorems.engine.family import SubjectFamily
from theorems.engine.quantity import declared
from theorems.subjects.parts import (Distribution, Embeddings, Fixed, Given, Graph, Integer, JointDistribution, Part,
                                     Pinned, Scalar, Vector)

#: the last resolution of a subject's parts (Family.concrete_parts): subject -> (family, sizes, values, parts)
_CONCRETE: "weakref.WeakKeyDictionary[Subject, tuple]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True, eq=False)
class Subject:
    """A subject of a composed family: its sizes and the values of its parts (numpy / Python); ``source``
    says where a fixed subject came from (a training run and its step)."""

    dims: dict[str, int]
    values: dict[str, Any]
    source: str = ""

    def __getattr__(self, name: str) -> Any:
        values = object.__getattribute__(self, "values")
        if name in values:
            return values[name]
        dims = object.__getattribute__(self, "dims")
        if name in dims:
            return dims[name]
        raise AttributeError(name)

    def context(self) -> dict[str, Any]:
        """The sizes and the part values: what a :class:`~theorems.subjects.parts.Given` part reads."""
        return {**self.dims, **self.values}


@dataclass(frozen=True)
class Snapshots:
    """The subjects of a family of trained encoders: ``subjects(quick, seed)`` lists them (each a
    :class:`Subject`, or ``{"dims": ..., "values": ..., "source": ...}``) from the runs of the audit seed
    ``seed`` (the quick profile's small runs when ``quick``); ``prerequisites(quick, seed)`` are those runs,
    trained once ahead of the claims by a parallel audit. No random draws, no adversarial starts."""

    subjects: Callable[[bool, int], Iterable[Any]]
    prerequisites: Callable[[bool, int], Sequence[Any]] = lambda quick, seed: ()


class View:
    """A subject seen from one backend: ``s.x`` is part x as its part hands it to the backend (from the
    torch parameters during the adversarial search), ``s.n`` a size as a Python int."""

    def __init__(self, family: "Family", subject: Subject, xp: Backend, params: Sequence[Any] | None) -> None:
        self._family, self._subject, self._xp, self._params = family, subject, xp, params
        self._cache: dict[str, Any] = {}
        self._parts = family.concrete_parts(subject)
        self._continuous = [p for p, part in self._parts.items() if part.continuous]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        if name in self._subject.dims:
            return self._subject.dims[name]
        if name not in self._cache:
            part = self._parts.get(name)
            if part is None:
                raise AttributeError(f"family {self._family.name!r} has no part or size {name!r}")
            value = self._subject.values[name]
            if isinstance(part, Integer) or (isinstance(part, Pinned) and isinstance(part.part, Integer)):
                self._cache[name] = int(value)
            elif self._params is not None and part.continuous:
                self._cache[name] = part.from_param(self._params[self._continuous.index(name)], self._xp)
            else:
                self._cache[name] = part.to_backend(value, self._xp)
        return self._cache[name]

    @property
    def source(self) -> str:
        return self._subject.source


class Family(SubjectFamily):
    """A subject family composed from named sizes and parts (see the module docstring).

    Args:
        name: how reports and witnesses name the family.
        dims: size name -> (min, max), drawn first; parts use them as their axes.
        parts: part name -> Part, drawn in this order (a ``Given`` part after the parts it reads).
        quantities: symbols declared with :func:`theorems.quantity` (with a formula).
        examples: fixed subjects checked every time (``{"dims": {...}, "values": {...}}``); or a function
            ``examples(quick) -> iterable`` of them (each a :class:`Subject` or such a mapping), listed lazily by
            ``exhaustive`` -- a long sweep that is thinner at the quick profile.
        snapshots: the subjects of trained encoders (then no random draws; ``origin`` is "learned").
        ranges: a quantity's trivial range on this family's subjects, where it is tighter than the declared one
            (a cosine on unit-norm encoders: [-1, 1]) -- what the informative rule compares a bound with.
        adversary: False when no gradient search applies (integer values, constructed subjects).
        max_confirm_size: subjects with more numbers than this skip the periodic mpmath
            audit of the float screen (candidates are still confirmed).
    """

    def __init__(self, name: str, dims: Mapping[str, tuple[int, int]], parts: Mapping[str, Part],
                 quantities: Sequence[sympy.Symbol] = (),
                 examples: Sequence[Mapping[str, Any]] | Callable[[bool], Iterable[Any]] = (),
                 snapshots: Snapshots | None = None, max_confirm_size: int = 400,
                 ranges: Mapping[sympy.Symbol, tuple[float, float]] | None = None, adversary: bool = True) -> None:
        self.name = name
        self.dims = {k: (int(lo), int(hi)) for k, (lo, hi) in dims.items()}
        self.parts = dict(parts)
        for d, (lo, hi) in self.dims.items():
            if not 0 <= lo <= hi:
                raise ClaimError(f"family {name!r}: size {d!r} = ({lo}, {hi}) needs 0 <= min <= max")
        for pname, part in self.parts.items():
            if not isinstance(part, Part):
                raise ClaimError(f"family {name!r}: part {pname!r} is a {type(part).__name__}, not a Part "
                                 "(theorems.subjects: Scalar, Integer, Fixed, Vector, Embeddings, Distribution, "
                                 "JointDistribution, Graph, Given, Mixture)")
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
            if isinstance(part, (Scalar, Integer)) or (isinstance(part, Fixed) and isinstance(part.value, (int, float))):
                integer = isinstance(part, Integer) or (isinstance(part, Fixed) and isinstance(part.value, int))
                self.part_symbols[pname] = sympy.Symbol(pname, integer=True) if integer else sympy.Symbol(pname, real=True)
        for d in self.dims:
            self.part_symbols[d] = sympy.Symbol(d, integer=True)
        self.symbols = frozenset(self.formulas) | frozenset(self.part_symbols.values())
        self.differentiable = self.symbols - nondiff if adversary else frozenset()
        self.ranges = dict(ranges or {})
        self.snapshots = snapshots
        self.origin = "learned" if snapshots is not None else "random"
        self.listed = examples if callable(examples) else None
        self.examples = [] if callable(examples) else [self.from_json(jf.plain(e)) for e in examples]
        self.max_confirm_size = max_confirm_size

    def symbol(self, name: str) -> sympy.Symbol:
        """The quantity symbol of a scalar, integer, numeric fixed part or size of this family."""
        try:
            return self.part_symbols[name]
        except KeyError:
            raise ClaimError(f"family {self.name!r} has no scalar, integer or size named {name!r} "
                             f"(it has {sorted(self.part_symbols)})") from None

    def span_of(self, name: str) -> tuple[float, float, bool] | None:
        """(lo, hi, integer) of a size, a scalar or an integer part: the range a grid over it may take; None for
        anything else."""
        if name in self.dims:
            lo, hi = self.dims[name]
            return float(lo), float(hi), True
        part = self.parts.get(name)
        if isinstance(part, Scalar):
            return part.lo, part.hi, False
        if isinstance(part, Integer):
            return float(part.lo), float(part.hi), True
        return None

    def pinned(self, values: Mapping[str, Any]) -> "Family":
        """This family with some sizes and parts held at one value each (their quantity symbols unchanged): what the
        engine's grid over an asymptotic parameter climbs at one point of the grid."""
        out = copy.copy(self)
        out.dims, out.parts = dict(self.dims), dict(self.parts)
        for name, value in values.items():
            if name in out.dims:
                out.dims[name] = (int(value), int(value))
            elif name in out.parts:
                part = out.parts[name]
                out.parts[name] = Pinned(part.part if isinstance(part, Pinned) else part, value)
            else:
                raise ClaimError(f"family {self.name!r} has no size or part {name!r} to pin")
        out.examples, out.listed = [], None
        return out

    def range_of(self, symbol: sympy.Symbol) -> tuple[float, float]:
        """A quantity's trivial range on this family: the family's own (``ranges``), else the declared one."""
        return self.ranges.get(symbol) or super().range_of(symbol)

    def concrete_parts(self, subject: Subject) -> dict[str, Part]:
        """The family's parts for this subject, every ``Given`` resolved from the sizes and earlier parts. The last
        resolution is kept per subject (the search evaluates one subject thousands of times) and reused only for
        this very family and the very same size and value objects."""
        values = list(subject.values.values())
        kept = _CONCRETE.get(subject)
        if kept is not None and kept[0]() is self and kept[1] == subject.dims and len(kept[2]) == len(values) \
                and all(a is b for a, b in zip(kept[2], values)):
            return dict(kept[3])
        context: dict[str, Any] = dict(subject.dims)
        out = {}
        for name, part in self.parts.items():
            out[name] = part.resolve(context)
            if name in subject.values:
                context[name] = subject.values[name]
        _CONCRETE[subject] = (weakref.ref(self), dict(subject.dims), values, out)
        return dict(out)

    # -- drawing ----------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[Subject] | None:
        """The one seeded strategy of the family: the random search draws it, and the adversary starts from
        its draws (theorems.engine.search)."""
        if self.snapshots is not None:
            return None

        @st.composite
        def subjects(draw: Any) -> Subject:
            dims = {d: draw(st.integers(lo, hi)) for d, (lo, hi) in self.dims.items()}
            context: dict[str, Any] = dict(dims)
            values = {}
            for p, raw in self.parts.items():
                part = raw.resolve(context)
                values[p] = context[p] = draw(part.strategy(part.shape(dims)))
            return Subject(dims, values)

        return subjects()

    def exhaustive(self, quick: bool = False) -> Iterable[Subject]:
        yield from self.examples
        if self.listed is not None:
            for item in self.listed(quick):
                yield item if isinstance(item, Subject) else self.from_json(jf.plain(item))
        if self.snapshots is not None:
            for item in self.snapshots.subjects(quick, self.seed):
                yield item if isinstance(item, Subject) else Subject(dict(item["dims"]), dict(item["values"]),
                                                                     str(item.get("source", "")))

    def prerequisites(self, quick: bool, seed: int) -> Sequence[Any]:
        return self.snapshots.prerequisites(quick, seed) if self.snapshots is not None else ()

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
                out[sym] = blame(f"quantity {sym}", functools.partial(self.formulas[sym], view, xp),
                                 lambda: f"on the subject {self.describe(subject)[:200]} of family {self.name!r} "
                                         f"({xp.name})")
            else:
                raise ClaimError(f"family {self.name!r} cannot compute {sym}")
        return out

    def cheap_to_confirm(self, subject: Subject) -> bool:
        parts = self.concrete_parts(subject)
        return sum(parts[p].size_of(v) for p, v in subject.values.items()) <= self.max_confirm_size

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
        for p, part in self.concrete_parts(subject).items():
            part.validate(subject.values[p], part.shape(subject.dims), p)

    # -- adversarial search --------------------------------------------------------------
    def random_start(self, rng: np.random.Generator) -> Subject | None:
        return None  # the adversary starts from the strategy's own draws (theorems.engine.search)

    def params(self, subject: Subject) -> list[Any]:
        import torch  # heavy: only the adversarial search needs it

        parts = self.concrete_parts(subject)
        return [torch.tensor(part.to_param(subject.values[p]), dtype=torch.float64, requires_grad=True)
                for p, part in parts.items() if part.continuous]

    def from_params(self, subject: Subject, params: Sequence[Any]) -> Subject:
        xp = torch_backend()
        values = dict(subject.values)
        continuous = [(p, part) for p, part in self.concrete_parts(subject).items() if part.continuous]
        for (p, part), w in zip(continuous, params):
            value = part.from_param(w.detach(), xp)
            values[p] = part.from_torch(value) if hasattr(part, "from_torch") else (
                float(value) if isinstance(part, Scalar) else value.numpy().astype(np.float64))
        return Subject(dict(subject.dims), values, subject.source)

    # -- shrinking and witnesses ----------------------------------------------------------
    def shrink(self, subject: Subject) -> Iterable[Subject]:
        parts = self.concrete_parts(subject)
        for d, (lo, _) in self.dims.items():
            n = subject.dims[d]
            if n <= lo:
                continue
            for index in range(n):
                dims = {**subject.dims, d: n - 1}
                values = dict(subject.values)
                for p, part in parts.items():
                    for axis, a in enumerate(part.axes):
                        if a == d:
                            values[p] = part.delete(values[p], axis, index)
                yield Subject(dims, values, subject.source)
        for p, part in parts.items():
            for simpler in part.simpler(subject.values[p]):
                yield Subject(dict(subject.dims), {**subject.values, p: simpler}, subject.source)

    def neighbours(self, subject: Subject) -> Iterable[Subject]:
        """One move away (for the tightness search): the whole subject at twice and half its scale (every part with a
        free scale multiplied together: embeddings, points, vectors), the shrink proposals, then each part's
        neighbouring values (adjacent choices and integers)."""
        for factor in SCALE_MOVES:
            moved = self.scaled(subject, factor)
            if moved is not None:
                yield moved
        yield from self.shrink(subject)
        for p, part in self.concrete_parts(subject).items():
            for value in part.neighbours(subject.values[p]):
                yield Subject(dict(subject.dims), {**subject.values, p: value}, subject.source)

    def joint_moves(self, subject: Subject) -> Iterable[tuple[str, Any, list[Subject]]]:
        """For each scalar or integer part and each value of its grid (:meth:`Part.grid`): the subject with the part
        at that value, and the same with every part that has a free scale multiplied by value / old value (the
        points moved to the new radius), when that ratio is positive."""
        for name, part in self.concrete_parts(subject).items():
            if not isinstance(part, (Scalar, Integer)):
                continue
            old = subject.values[name]
            for value in part.grid(JOINT_GRID):
                if value == old:
                    continue
                moved = Subject(dict(subject.dims), {**subject.values, name: value}, subject.source)
                candidates = [moved]
                scaled = self.scaled(moved, value / old) if old and value / old > 0 else None
                if scaled is not None:
                    candidates.append(Subject(dict(scaled.dims), {**scaled.values, name: value}, subject.source))
                yield name, value, candidates

    def scaled(self, subject: Subject, factor: float) -> Subject | None:
        """The subject with every part that has a free scale (embeddings, points, vectors) multiplied by ``factor``;
        None when no part has one."""
        parts = self.concrete_parts(subject)
        moved = {p: parts[p].scaled(v, factor) for p, v in subject.values.items()}
        if all(m is None for m in moved.values()):
            return None
        return Subject(dict(subject.dims), {p: subject.values[p] if m is None else m for p, m in moved.items()},
                       subject.source)

    def size(self, subject: Subject) -> tuple[float, ...]:
        parts = self.concrete_parts(subject)
        nonzero = sum(parts[p].nonzero(v) if hasattr(parts[p], "nonzero") else
                      int(np.count_nonzero(np.asarray(v, dtype=float))) for p, v in subject.values.items()
                      if not isinstance(parts[p], Fixed))
        return (*[subject.dims[d] for d in self.dims], nonzero)

    def to_json(self, subject: Subject) -> dict[str, Any]:
        parts = self.concrete_parts(subject)
        out = {"dims": dict(subject.dims),
               "values": {p: part.to_json(subject.values[p]) for p, part in parts.items()}}
        if subject.source:
            out["source"] = subject.source
        return out

    def from_json(self, data: Any) -> Subject:
        """Exact JSON types: ``dims`` the family's sizes, each an integer within its bounds, then ``values``
        exactly the family's parts, each read with the shape its sizes give (checked before any array is
        built; a ``Given`` part from the parts read before it); then :meth:`validate`."""
        where = self.name
        jf.fields(data, ("dims", "values"), ("source",), where)
        jf.fields(data["dims"], tuple(self.dims), (), where, "dims")
        dims = {d: jf.as_integer(data["dims"][d], f"dims.{d}", lo, hi, where) for d, (lo, hi) in self.dims.items()}
        jf.fields(data["values"], tuple(self.parts), (), where, "values")
        context: dict[str, Any] = dict(dims)
        values = {}
        for p, raw in self.parts.items():
            part = raw.resolve(context)
            values[p] = context[p] = part.read(data["values"][p], part.shape(dims), p, where)
        subject = Subject(dims, values, jf.string(data, "source", where, default="") if "source" in data else "")
        self.validate(subject)
        return subject

    def describe(self, subject: Subject) -> str:
        parts = self.concrete_parts(subject)
        dims = ", ".join(f"{d}={v}" for d, v in subject.dims.items())
        text = "; ".join(f"{p}={part.describe(subject.values[p])}" for p, part in parts.items()
                         if not isinstance(part, Fixed) or len(part.describe(subject.values[p])) < 40)
        text = f"{dims}; {text}" if dims else text
        return f"[{subject.source}] {text}" if subject.source else text


__all__ = ["Distribution", "Embeddings", "Family", "Fixed", "Given", "Graph", "Integer", "JointDistribution", "Part",
           "Scalar", "Snapshots", "Subject", "Vector", "View"]
