"""Ren & Li: one relation measured many times (at every state, matrix or sign vector of a check), gathered into one
measured relation between arrays -- the engine decides it elementwise (every element must hold), and the report
keeps one entry instead of thousands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from theorems import AllOf, Comparison, holds


class Sides:
    """The two sides of one relation, as measured case by case (:meth:`add`), then :meth:`relation`."""

    def __init__(self) -> None:
        self.lhs: list[np.ndarray] = []
        self.rhs: list[np.ndarray] = []

    def add(self, lhs: Any, rhs: Any) -> None:
        """One case: ``lhs`` and ``rhs`` (numbers or arrays; a scalar side is broadcast to the other's shape)."""
        lhs, rhs = np.broadcast_arrays(np.asarray(lhs, dtype=float), np.asarray(rhs, dtype=float))
        self.lhs.append(np.ravel(lhs))
        self.rhs.append(np.ravel(rhs))

    def __len__(self) -> int:
        return sum(len(x) for x in self.lhs)

    def relation(self, make: Callable[..., Comparison], what: str, error: float = 0.0) -> Comparison | AllOf:
        """``make(lhs, rhs, error, what)`` (theorems.at_most, equal, ...) over every case added; no case: an empty
        conjunction (nothing was measured, nothing fails)."""
        if not self.lhs:
            return AllOf(())
        return make(np.concatenate(self.lhs), np.concatenate(self.rhs), error=error, what=what)

    def violations(self, make: Callable[..., Comparison], error: float = 0.0) -> int:
        """How many of the cases the engine decides violated (each element on its own, for the report)."""
        if not self.lhs:
            return 0
        lhs, rhs = np.concatenate(self.lhs), np.concatenate(self.rhs)
        return sum(not holds(make(float(a), float(b), error=error)) for a, b in zip(lhs, rhs))
