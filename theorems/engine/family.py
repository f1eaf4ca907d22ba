"""The interface of a family of test subjects, grouped by the stage that uses each member.

Most users never subclass it: :class:`theorems.subjects.compose.Family` builds a family from
generic parts (distributions, embedding tables, vectors, scalars, integers, graphs). The
hand-written families of the shipped papers implement it directly.

* drawing: ``strategy`` (random subjects), ``exhaustive`` (a fixed list);
* evaluation: ``symbols`` (what it computes), ``quantities`` (their values in a backend),
  ``range_of`` (a quantity's trivial range on these subjects), ``cheap_to_confirm``;
* the domain: ``validate`` (raise :class:`~numerics.errors.AssumptionError` for a subject outside
  the family's bounds -- shrinking and replay rely on it);
* adversarial search (optional): ``differentiable``, ``random_start``, ``params``, ``from_params``;
* shrinking and witnesses: ``shrink``, ``size``, ``to_json``, ``from_json``, ``describe``.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.quantity import trivial_range

if TYPE_CHECKING:
    from theorems.engine.prerequisite import Prerequisite


def check_fields(data: Any, required: Sequence[str], optional: Sequence[str] = (), family: str = "") -> None:
    """A witness subject has exactly the family's fields: a missing one or an unknown one (a field
    the family would silently ignore) raises AssumptionError naming it. The typed readers of the
    fields themselves are :mod:`numerics.json_fields` (re-exported here as ``json_fields``)."""
    json_fields.fields(data, required, optional, where=family)


class SubjectFamily:
    """Base class; subclasses set ``name`` and ``symbols`` and implement what they support."""

    name: str = "subjects"
    origin: str = "random"  # "random" draws or "learned" encoders (training module)
    symbols: frozenset[sympy.Symbol] | None = None  # the quantities it computes (None: not declared)
    differentiable: frozenset[sympy.Symbol] = frozenset()  # those it can compute from torch params

    seed: int = 0  # the audit seed the family was drawn for (see for_seed)

    # -- drawing ---------------------------------------------------------------
    def for_seed(self, seed: int) -> "SubjectFamily":
        """This family for the audit seed ``seed``: a copy whose ``seed`` is set. Families whose
        subjects come from random choices outside hypothesis (trained encoders) derive those
        choices from ``self.seed``, so that a different audit seed gives different runs."""
        if seed == self.seed:
            return self
        twin = copy.copy(self)
        twin.seed = seed
        return twin

    def strategy(self) -> st.SearchStrategy[Any] | None:
        """Random subjects (None: the family has only its exhaustive list, e.g. learned encoders)."""
        return None

    def exhaustive(self, quick: bool = False) -> Iterable[Any]:
        """Subjects checked one by one in addition to random draws (default: none);
        ``quick`` asks for a thinner sweep (the fast test profile)."""
        return ()

    def prerequisites(self, quick: bool, seed: int) -> Sequence["Prerequisite"]:
        """Shared work its exhaustive list reads (training runs), for the profile and the audit seed:
        a parallel audit does it once, ahead of the claims (theorems.engine.prerequisite)."""
        return ()

    # -- evaluation --------------------------------------------------------------
    def quantities(self, subject: Any, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        """Values of ``symbols`` on ``subject``; with ``params`` (torch) use those instead."""
        raise NotImplementedError(f"family {self.name!r} does not evaluate quantities")

    def range_of(self, symbol: sympy.Symbol) -> tuple[float, float]:
        """The trivial range of a quantity on this family's subjects (default: its declared range;
        a family may know a tighter one, e.g. a cosine on unit-norm encoders)."""
        return trivial_range(symbol)

    def cheap_to_confirm(self, subject: Any) -> bool:
        """Whether re-evaluating every part in mpmath is affordable (for the float-screen audit;
        candidates are always confirmed, whatever the cost)."""
        return True

    # -- the domain ----------------------------------------------------------------
    def validate(self, subject: Any) -> None:
        """Raise AssumptionError if ``subject`` lies outside the family's bounds (default: any
        subject of the family's type is in its domain)."""

    # -- adversarial search ----------------------------------------------------------
    def random_start(self, rng: np.random.Generator) -> Any | None:
        """A random subject to start gradient ascent from (None: no adversary)."""
        return None

    def params(self, subject: Any) -> list[Any]:
        """Leaf torch tensors (requires_grad) that parametrize ``subject``."""
        raise NotImplementedError(f"family {self.name!r} has no adversarial parametrization")

    def from_params(self, subject: Any, params: Sequence[Any]) -> Any:
        """The concrete (float64) subject at the given parameters."""
        raise NotImplementedError(f"family {self.name!r} has no adversarial parametrization")

    # -- shrinking and witnesses ------------------------------------------------------
    def shrink(self, subject: Any) -> Iterable[Any]:
        """Simpler subjects to try, simplest first (default: none)."""
        return ()

    def scaled(self, subject: Any, factor: float) -> Any | None:
        """The subject at ``factor`` times its free scale (the tightness search's scale sweep); None: no free scale."""
        return None

    def neighbours(self, subject: Any) -> Iterable[Any]:
        """Subjects one move away, for the tightness search (default: the shrink proposals)."""
        return self.shrink(subject)

    def joint_moves(self, subject: Any) -> Iterable[tuple[str, Any, list[Any]]]:
        """Joint moves of a scalar parameter and the subject (the tightness search climbs each on its own): for
        each parameter with a range and each value of its grid, (name, value, candidate subjects) -- the subject
        with the parameter set to the value, and with its free scale moved along in proportion (a radius with the
        points at that radius). Default: none."""
        return ()

    def size(self, subject: Any) -> tuple[float, ...]:
        return ()

    def to_json(self, subject: Any) -> dict[str, Any]:
        raise NotImplementedError(f"family {self.name!r} cannot write witnesses")

    def from_json(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError(f"family {self.name!r} cannot read witnesses")

    def describe(self, subject: Any) -> str:
        return repr(subject)
