"""Reachability of a conclusion ``Q <= level``: what a certified infimum says under the prefix.

The bounds come from :mod:`theorems.engine.reach` (certified by :mod:`numerics.reach`); these rules read them with
the order in which the sentence introduces its objects:

* a certified ``inf Q > 0`` at a configuration of objects the adversary chooses (universal ones) -- before the
  level or beside it -- refutes: the adversary then picks a positive level below the infimum, and nothing the
  hypotheses allow reaches it (reach.unreachable);
* the same bound at a value the claim itself chooses (an existential object) says nothing: another value may
  reach the level (reach.claim_chooses);
* a value Q takes at an admissible point, at or below a level, is an instance where the conclusion is reached
  (reach.reachable);
* a claim's reachability verdict: refuted by any unreachable row, consistent when some level was reached and
  none refuted, otherwise untested (reach.claim).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from numerics.interval import to_fraction
from theorems.engine.errors import ClaimError
from theorems.engine.rules.table import Judgement, rule
from theorems.engine.verdict import Verdict


def _names(entry: str) -> set[str]:
    return {n.strip(" ()") for n in entry.split(",") if n.strip(" ()")}


def _bound(prefix: Sequence[Any], name: str, what: str) -> tuple[int, Any]:
    for i, b in enumerate(prefix):
        if name in _names(b.name):
            return i, b
    raise ClaimError(f"the {what} {name!r} is not bound in the prefix ({', '.join(b.name for b in prefix)})")


def _fraction(text: Any) -> Fraction | None:
    """A number exactly (numerics.interval.to_fraction: an int, a float's binary value, a "p/q" string, a sympy
    rational); None stays None."""
    return None if text is None else to_fraction(text)


@rule("reach.unreachable")
def unreachable(prefix: Sequence[Any], level: str, objects: Sequence[str], lower: Any,
                uniform: bool = False, level_max: Any = None) -> tuple[bool, str]:
    """A certified ``inf Q >= lower > 0`` over what the hypotheses allow, with a universal level, refutes when the
    adversary may pick the level after every object the infimum depends on: at a configuration of universal objects
    (the adversary's choices), or -- for objects the claim chooses before the level -- when the infimum is certified
    positive for every value the claim may choose (``uniform``: its exact form is positive on their whole domain,
    sympy). The adversary then picks ``level = lower / 2``: no admissible object reaches ``Q <= level``. An object the
    claim chooses after the level (a value per level) is never the adversary's: no refutation. With ``level_max``
    (the largest value the level may take: a constant the claim or the checker chooses, within its stated
    admissible range), whoever chooses the level, it refutes only when ``lower > level_max``: no admissible level
    is reachable."""
    low = _fraction(lower)
    if low is None or low <= 0:
        return False, ""
    li, lvl = _bound(prefix, level, "level")
    cap = _fraction(level_max)
    if cap is not None and low <= cap:
        return False, f"inf Q >= {float(low):.6g} is not above the largest admissible {level} = {float(cap):.6g}"
    if lvl.quantifier != "forall" and cap is None:
        return False, f"the level {level} is existential: the claim chooses it"
    chosen = [(o, i) for o in objects for i, b in [_bound(prefix, o, "object")] if b.quantifier != "forall"]
    if any(i > li for _, i in chosen) or (chosen and not uniform):
        return False, ""
    every = (f" -- and for every value of {', '.join(o for o, _ in chosen)} the claim may choose before {level} (the "
             "exact infimum is positive on their whole domain, sympy)") if chosen else ""
    if cap is not None:
        return True, (f"inf Q >= {float(low):.6g} > {float(cap):.6g}, the largest admissible {level}, on everything "
                      f"the hypotheses allow{every}: no admissible {level} is reachable (the hypotheses granted, as "
                      "the prefix binds them)")
    return True, (f"inf Q >= {float(low):.6g} > 0 on everything the hypotheses allow{every}: the adversary's "
                  f"{level} = {float(low / 2):.6g} is unreachable (the hypotheses granted, as the prefix binds them)")


@rule("reach.claim_chooses")
def claim_chooses(prefix: Sequence[Any], level: str, objects: Sequence[str]) -> str:
    """The configuration's objects the claim chooses itself (existential), and when: before the level (one value
    for every level) or after it (a value per level). A positive infimum at such a value refutes nothing."""
    li, _ = _bound(prefix, level, "level")
    chosen = []
    for o in objects:
        i, b = _bound(prefix, o, "object")
        if b.quantifier != "forall":
            chosen.append(f"{o} ({'before' if i < li else 'after'} {level})")
    return ", ".join(chosen)


@rule("reach.reachable")
def reachable(upper: Any, levels: Sequence[float]) -> list[float]:
    """The levels a value Q takes at an admissible point (an upper bound on the infimum, rounded up) meets:
    instances where the conclusion is reached."""
    up = _fraction(upper)
    return [] if up is None else [lv for lv in levels if up <= Fraction(lv)]


def reach_row_verdict(prefix: Sequence[Any], level: str, objects: Sequence[str], lower: Any, upper: Any,
                      levels: Sequence[float], uniform: bool = False, level_max: Any = None) -> tuple[Verdict, str]:
    """One configuration's verdict (reach.unreachable, reach.claim_chooses, reach.reachable)."""
    refutes, why = unreachable(prefix, level, objects, lower, uniform, level_max)
    if refutes:
        return Verdict.REFUTED, why
    reached = reachable(upper, levels)
    chosen = claim_chooses(prefix, level, objects)
    low = _fraction(lower)
    note = (f"; inf Q >= {float(low):.6g} here, but the claim chooses {chosen}" if low is not None and low > 0 and chosen
            else "")
    if reached:
        return Verdict.CONSISTENT, f"Q <= {level} reached for {level} = {', '.join(f'{x:g}' for x in reached)}{note}"
    bound = f"inf Q >= {float(low):.6g}" if low is not None else "no lower bound"
    taken = f"the smallest value Q was seen to take, {float(_fraction(upper)):.6g}, is above every level of the grid" \
        if upper is not None else "no admissible point was evaluated"
    return Verdict.UNTESTED, f"not decided: {bound} (no positive bound at the adversary's choice), and {taken}{note}"


@rule("reach.claim")
def reach_verdict(rows: Sequence[dict[str, Any]]) -> Judgement | None:
    """A claim's reachability rows: any refuting row refutes (the first is named); some level reached and none
    refuted: consistent on those instances; rows but no level reached: untested; no rows: no judgement."""
    if not rows:
        return None
    refuting = [r for r in rows if r.get("verdict") == Verdict.REFUTED]
    if refuting:
        r = refuting[0]
        where = r.get("config") or r.get("kind") or ""
        return Judgement(Verdict.REFUTED, f"reachability ({r.get('reach') or 'data set ' + str(r.get('kind'))}) at "
                                          f"{where}: {r['why']}")
    reached = [r for r in rows if r.get("verdict") == Verdict.CONSISTENT]
    if reached:
        return Judgement(Verdict.CONSISTENT, f"reachability: the conclusion is reached on {len(reached)} of "
                                             f"{len(rows)} configurations (certified values)")
    return Judgement(Verdict.UNTESTED, "reachability: no configuration reached a level of the grid")
