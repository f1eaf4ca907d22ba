"""What an experiment measures on one run: a relation between two numbers, never its truth.

A plugin reports ``Comparison(lhs, "<=", rhs, error=...)`` -- the two sides as computed and a bound on
each side's measurement error (an ODE solver's tolerance, a Monte Carlo radius; 0 for an exact
computation) -- and the engine decides whether it holds, with its own tolerance
(:func:`theorems.engine.rules.compare.decide`). A plain ``bool`` stays allowed for a fact decided
exactly (a count, an equality of rationals): it carries no tolerance to hide. ``a & b`` is the
conjunction of two measurements. A measurement is never a bool itself (like a sympy relation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

RELATIONS = ("<=", "<", ">=", ">", "==")


@dataclass(frozen=True)
class Comparison:
    """``lhs relation rhs`` as measured on one run; ``error`` bounds each side's measurement error."""

    lhs: Any
    relation: str
    rhs: Any
    error: float = 0.0
    what: str = ""

    def __post_init__(self) -> None:
        if self.relation not in RELATIONS:
            raise ValueError(f"Comparison relation {self.relation!r}: must be one of {', '.join(RELATIONS)}")
        if isinstance(self.error, bool) or not isinstance(self.error, (int, float)) \
                or not math.isfinite(self.error) or self.error < 0:
            raise ValueError(f"Comparison error {self.error!r}: must be a finite number >= 0 (a bound on each side's "
                             "measurement error)")

    def __and__(self, other: "Comparison | AllOf | bool") -> "AllOf":
        return AllOf((self, other))

    def __bool__(self) -> bool:
        raise TypeError("a Comparison relation is not a bool: the engine decides it (theorems.engine.rules)")

    def text(self) -> str:
        """``lhs <= rhs`` with the values (and the error when there is one)."""
        err = f" (error {self.error:.3g})" if self.error else ""
        what = f"{self.what}: " if self.what else ""
        return f"{what}{_short(self.lhs)} {self.relation} {_short(self.rhs)}{err}"


@dataclass(frozen=True)
class AllOf:
    """Every item holds: measurements and exact facts (bools) taken together."""

    items: tuple[Any, ...]

    def __and__(self, other: "Comparison | AllOf | bool") -> "AllOf":
        return AllOf((*self.items, other))

    def __bool__(self) -> bool:
        raise TypeError("AllOf is not a bool: the engine decides it (theorems.engine.rules)")

    def text(self) -> str:
        return " and ".join(i.text() if hasattr(i, "text") else str(i) for i in self.items)


def worst_element(c: Comparison) -> tuple[Any, Any, int]:
    """For a comparison between arrays: the pair of elements closest to violating it (or beyond) and how many
    pairs there are; a scalar comparison is its own worst element (count 1)."""
    if not (isinstance(c.lhs, np.ndarray) or isinstance(c.rhs, np.ndarray)):
        return c.lhs, c.rhs, 1
    lhs, rhs = np.broadcast_arrays(np.asarray(c.lhs, dtype=float), np.asarray(c.rhs, dtype=float))
    if lhs.size == 0:
        return None, None, 0
    gap = {"<=": lhs - rhs, "<": lhs - rhs, ">=": rhs - lhs, ">": rhs - lhs, "==": np.abs(lhs - rhs)}[c.relation]
    i = int(np.nanargmax(gap)) if not np.all(np.isnan(gap)) else 0
    return float(lhs.flat[i]), float(rhs.flat[i]), int(lhs.size)


def at_most(lhs: Any, rhs: Any, error: float = 0.0, what: str = "") -> Comparison:
    """lhs <= rhs, as measured."""
    return Comparison(lhs, "<=", rhs, error, what)


def below(lhs: Any, rhs: Any, error: float = 0.0, what: str = "") -> Comparison:
    """lhs < rhs, as measured."""
    return Comparison(lhs, "<", rhs, error, what)


def at_least(lhs: Any, rhs: Any, error: float = 0.0, what: str = "") -> Comparison:
    """lhs >= rhs, as measured."""
    return Comparison(lhs, ">=", rhs, error, what)


def above(lhs: Any, rhs: Any, error: float = 0.0, what: str = "") -> Comparison:
    """lhs > rhs, as measured."""
    return Comparison(lhs, ">", rhs, error, what)


def equal(lhs: Any, rhs: Any, error: float = 0.0, what: str = "") -> Comparison:
    """lhs = rhs, as measured."""
    return Comparison(lhs, "==", rhs, error, what)


def _short(v: Any) -> str:
    try:
        return f"{float(v):.6g}"
    except (TypeError, ValueError):
        return str(v)
