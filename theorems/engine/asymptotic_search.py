"""The engine's own witness families for an asymptotic part: the tightness search at each point of a geometric grid
of the parameter (../shared/LOGICAL-FORM.md, "Deciding the main theorems", item 1).

For a part ``lhs = O(g)`` as ``t -> limit`` whose parameter is a scalar, integer or size of a subject family, the
engine picks one start subject, then for each t of a geometric grid toward the limit (inside the family's range)
pins the parameter to t and the family's parts that the prefix binds before the constant (or that the constant
may depend on) to their values at the start, and climbs ``|lhs| / g`` over everything else with its own ascent
(:func:`theorems.engine.tightness.tightness_search`). The best ratio at each t is a measurement: its growth is
fitted and reported (never a refutation; :mod:`theorems.engine.rules.asymptotic`). Parts are matched to prefix
objects by name: name a family's parts as the prefix names the objects they stand for.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Sequence

import sympy

from numerics.seeds import Stream
from theorems.engine.asymptotic import Asymptotic, Measurement, fill_fit, measure
from theorems.engine.budget import Budget
from theorems.engine.claim import Le, Part, StatementClaim
from theorems.engine.probe import Tracker
from theorems.engine.rules.asymptotic import constant_may_depend_on, family_valid, family_verdict
from theorems.engine.search import adversarial_starts, admissible
from theorems.engine.tightness import best_ratio, tightness_search

GRID_POINTS = 6  # values of the parameter per engine family


def _ratio_part(part: Asymptotic) -> tuple[Part, bool]:
    """The relation whose tightness ratio the ascent climbs, and whether the measured ratio is its inverse: for O,
    |lhs| <= g (ratio |lhs|/g, climbed up); for Omega, g <= |lhs| (ratio g/|lhs|: its inverse is |lhs|/g, climbed
    down)."""
    if part.notation == "Omega":
        return Part(Le(part.g, sympy.Abs(part.lhs)), f"g / |lhs| of {part}"), True
    return Part(Le(sympy.Abs(part.lhs), part.g), f"|lhs| / g of {part}"), False


def parameter_grid(lo: float, hi: float, limit: Any, integer: bool, count: int = GRID_POINTS) -> list[float]:
    """``count`` values from the far end of [lo, hi] toward the end the limit points at, geometric where the range
    is positive (integers rounded, repeats dropped); empty when the range has one point."""
    toward_small = bool(limit is not None and sympy.sympify(limit) <= sympy.sympify(lo))
    if not hi > lo:
        return []
    if lo > 0:
        values = [lo * (hi / lo) ** (k / (count - 1)) for k in range(count)]
    else:
        values = [lo + (hi - lo) * k / (count - 1) for k in range(count)]
    if integer:
        values = [float(round(v)) for v in values]
    values = sorted(set(values), reverse=toward_small)
    return values


def searched_families(claim: StatementClaim, part: Asymptotic, budget: Budget, stream: Stream) -> list[Measurement]:
    """One measurement per subject family whose parameter part the grid can pin (see the module doc)."""
    out = []
    if part.parameter is None or budget.tightness_starts <= 0:
        return out
    name = part.parameter.name
    for i, family in enumerate(getattr(claim, "subjects", ())):  # an experiment claim has no subject families
        if not hasattr(family, "pinned") or family.origin == "learned":
            continue
        span = family.span_of(name)
        if span is None:
            continue
        out.append(_measure_family(claim, part, family, span, budget, stream.child(f"family{i}")))
    return out


def _fixed_names(claim: StatementClaim, part: Asymptotic, family: Any) -> tuple[list[str], list[str]]:
    """(the family's parts held fixed across the grid: bound before the constant or among its dependencies; the
    parts moved with the parameter)."""
    before = constant_may_depend_on(claim.prefix, part.constant)
    parts = [p for p in family.parts if p != part.parameter.name]
    fixed = [p for p in parts if p in before]
    return fixed, [p for p in parts if p not in before]


def _measure_family(claim: StatementClaim, part: Asymptotic, family: Any, span: tuple[float, float, bool],
                    budget: Budget, stream: Stream) -> Measurement:
    lo, hi, integer = span
    relation, inverted = _ratio_part(part)
    fixed, moved = _fixed_names(claim, part, family)
    m = Measurement(str(part), f"engine: tightness search over {part.parameter} on {family.name}",
                    tuple(moved) + (part.parameter.name,), part.notation, "search", index=str(part.parameter))
    view = dataclasses.replace(claim, statement=(relation,), sharp=(), readings=(), known_refutation=None,
                               asymptotic=(), parametric=(), reach=(), data_adversary=(), certificates=(), subjects=(family,))
    starts = [s for s in adversarial_starts(family, 4, stream.child("start")) if admissible(view, family, s)]
    if not starts:
        m.error = f"no drawn subject of {family.name} met the hypotheses"
        return m
    start = starts[0]
    for k, t in enumerate(parameter_grid(lo, hi, part.limit, integer)):
        pinned = family.pinned({part.parameter.name: int(t) if integer else t,
                                **{p: start.values[p] for p in fixed}})
        at_t = dataclasses.replace(view, subjects=(pinned,))
        tracker = Tracker(at_t)
        tightness_search(at_t, pinned, budget, stream.child(f"t{k}"), tracker)
        _, ratio, _ = best_ratio(at_t, tracker, str(relation))
        if ratio is None or not math.isfinite(ratio) or ratio <= 0:
            continue
        m.xs.append(float(t))
        m.ratios.append(1.0 / ratio if inverted else ratio)
    if len(m.xs) < 3:
        m.error = f"the search found a ratio at {len(m.xs)} of the grid's values only"
    fill_fit(m, sympy.sympify(part.limit) == 0)
    return m



def asymptotic_evidence(claim: Any, budget: Budget, stream: Stream) -> list[Measurement]:
    """Every asymptotic part along every family -- the claim's parametric families and the engine's own -- each
    with its validity under the prefix and its verdict (theorems.engine.rules.asymptotic)."""
    out = []
    for i, part in enumerate(claim.asymptotic):
        measured = [measure(part, family) for family in claim.parametric]
        measured += searched_families(claim, part, budget, stream.child(f"part{i}"))
        for m in measured:
            valid, why = family_valid(claim.prefix, part.constant, m.moves)
            if m.valid and not valid:
                m.valid, m.why_invalid = False, why
            m.verdict, m.why = family_verdict(m.notation, m.limit, m.slope, m.stderr, m.error)
            out.append(m)  # an invalid family's verdict is reported (what it would say), never counted
    return out
