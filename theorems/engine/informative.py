"""When a check could not have failed: uninformative subjects and bounds that cannot bind.

A subject is *uninformative* for a part when

* the part's declared :class:`Informative` condition fails on it -- both sides are equal by
  construction there (a zero step in a smoothness inequality, a zero encoder in an identity
  between losses), so no constant and no formula could be caught; or
* (inequalities) the bound is not strictly inside the trivial range of the quantity it bounds:
  for ``S <= B`` with S a quantity of trivial range [lo, hi], a right side B >= hi says nothing
  (an error rate is at most 1 anyway); for ``B <= S``, a left side B <= lo says nothing.

The trivial ranges come from the subject family (:meth:`SubjectFamily.range_of`), which by default
reads the range declared with :func:`theorems.quantity`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

import sympy

from theorems.engine.claim import Part
from theorems.engine.evaluate import PartValue

RANGE_RULE = "range"  # the prefix of every reason the range rule gives (a vacuous bound)


@dataclass(frozen=True)
class Informative:
    """The condition under which a part can fail; ``when`` says it in words (e.g. "z' != 0")."""

    when: str
    holds: Callable[[Any], bool]


def trivial_reason(part: Part, value: PartValue, family: Any, subject: Any) -> str | None:
    """Why ``part`` could not have failed on ``subject`` (None: the subject is informative)."""
    informative = part.informative
    if informative is not None and not informative.holds(subject):
        return f"not {informative.when} (both sides equal by construction)"
    if not math.isfinite(value.margin):
        return "a side is infinite (decided exactly in the extended reals)"
    if part.is_identity:
        return None
    canonical = part.canonical
    small, large = (float(v) for v in value.sides)
    strict = part.is_strict
    if isinstance(canonical.lhs, sympy.Symbol):
        hi = family.range_of(canonical.lhs)[1]
        if math.isfinite(hi) and (large > hi if strict else large >= hi - value.tol):
            return f"{RANGE_RULE}: the bound is not below the trivial maximum {hi:g} of {canonical.lhs}"
    if isinstance(canonical.rhs, sympy.Symbol):
        lo = family.range_of(canonical.rhs)[0]
        if math.isfinite(lo) and (small < lo if strict else small <= lo + value.tol):
            return f"{RANGE_RULE}: the bound is not above the trivial minimum {lo:g} of {canonical.rhs}"
    return None


def bound_value(part: Part, value: PartValue) -> float | None:
    """The bound's value (the larger side of ``S <= B``), to report how close it came to binding."""
    if part.is_identity:
        return None
    return float(value.sides[1]) if isinstance(part.canonical.lhs, sympy.Symbol) else None
