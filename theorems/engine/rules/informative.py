"""When a check could not have failed: uninformative subjects and bounds that cannot bind.

A subject is *uninformative* for a part when

* the part's declared :class:`~theorems.engine.informative.Informative` condition fails on it -- both
  sides are equal by construction there (a zero step in a smoothness inequality, a zero encoder in an
  identity between losses), so no constant and no formula could be caught; or
* (inequalities) the bound is not strictly inside the trivial range of the quantity it bounds:
  for ``S <= B`` with S a quantity of trivial range [lo, hi], a right side B >= hi says nothing
  (an error rate is at most 1 anyway); for ``B <= S``, a left side B <= lo says nothing.

The trivial ranges come from the subject family (``SubjectFamily.range_of``), which by default
reads the range declared with :func:`theorems.quantity`.
"""

from __future__ import annotations

import math
from typing import Any

import sympy

from theorems.engine.rules.table import rule

RANGE_RULE = "range"  # the prefix of every reason the range rule gives (a vacuous bound)


@rule("informative.declared")
def declared_reason(part: Any, subject: Any) -> str | None:
    """A subject on which the part's declared ``Informative`` condition fails is uninformative (both sides are
    equal by construction there, or the property already held at the run's initialization: its ``why``)."""
    informative = part.informative
    if informative is not None and not informative.holds(subject):
        return f"not {informative.when} ({informative.why})"
    return None


@rule("informative.range")
def range_reason(part: Any, value: Any, family: Any) -> str | None:
    """An inequality whose bound is not strictly inside the trivial range of the quantity it bounds is
    uninformative: for ``S <= B``, B >= max S - tol (B > max S for a strict part); for ``B <= S``,
    B <= min S + tol (B < min S for a strict part). A side at +-inf is decided exactly, never evidence."""
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


def trivial_reason(part: Any, value: Any, family: Any, subject: Any) -> str | None:
    """Why ``part`` could not have failed on ``subject`` (None: the subject is informative): the declared
    condition first, then the range rule."""
    return declared_reason(part, subject) or range_reason(part, value, family)


def bound_value(part: Any, value: Any) -> float | None:
    """The bound's value (the larger side of ``S <= B``), to report how close it came to binding."""
    if part.is_identity:
        return None
    return float(value.sides[1]) if isinstance(part.canonical.lhs, sympy.Symbol) else None


@rule("informative.never_binds")
def never_binds(part_stats: Any) -> bool:
    """A bound never binds when subjects were tried, none was informative for any part, and every reason
    was the range rule: the bound never dropped below the trivial bound of what it bounds."""
    tried = [s for s in part_stats if s.examples]
    return (bool(tried) and all(s.nontrivial_examples == 0 for s in tried)
            and all(reason.startswith(RANGE_RULE) for s in tried for reason in s.trivial_reasons))
