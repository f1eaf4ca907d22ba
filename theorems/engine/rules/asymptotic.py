"""Asymptotic parts: which witness families count under a prefix, and what their ratios say.

The measurements come from :mod:`theorems.engine.asymptotic`; the rules here turn them into a verdict for one
asymptotic part along one family, and the statement cascade (:mod:`theorems.engine.rules.statement`) combines the
families.
"""

from __future__ import annotations

from typing import Any, Sequence

from theorems.engine.rules.table import rule
from theorems.engine.verdict import Verdict

UNBOUNDED_SLOPE = 0.25  # a fitted log-log slope at least this: measured growth (never a proof)
BOUNDED_SLOPE = 0.1  # at most this: bounded along the family (not a proof either)
_INFINITE = ("oo", "-oo", "zoo")


def _names(entry: str) -> set[str]:
    return {n.strip(" ()") for n in entry.split(",") if n.strip(" ()")}


def constant_may_depend_on(prefix: Sequence[Any], constant: str) -> set[str]:
    """The objects the constant may depend on: its declared ``depends_on``, else every universal object bound before
    it (theorems.engine.logic.Bound.dependencies). "for every x there is c(depending on nothing)" is "there is c for
    every x": an object bound earlier but outside the dependencies may move."""
    position = next((i for i, b in enumerate(prefix) if constant in _names(b.name)), None)
    if position is None:
        return set()
    return {d for dep in prefix[position].dependencies(prefix[:position]) for d in _names(dep)}


@rule("asymptotic.family_valid")
def family_valid(prefix: Sequence[Any], constant: str, moves: Sequence[str]) -> tuple[bool, str]:
    """A family witnesses against an asymptotic part only when every object it moves with its index is universal
    (the adversary's) and outside what the part's hidden constant may depend on (its declared ``depends_on``, else
    every universal object bound before it): the constant is fixed before the family moves them. A family that
    moves an object the constant may depend on is no witness under that reading; neither is one that moves an
    object the prefix does not bind, or an existential one (the claim chooses it)."""
    if not any(constant in _names(b.name) for b in prefix):
        return False, f"the prefix binds no constant {constant!r}"
    dependencies = constant_may_depend_on(prefix, constant)
    for moved in moves:
        where = next((b for b in prefix if moved in _names(b.name)), None)
        if where is None:
            return False, f"it moves {moved!r}, which the prefix does not bind"
        if moved in dependencies:
            return False, f"it moves {moved!r}, which the constant {constant} may depend on"
        if where.quantifier != "forall":
            return False, f"it moves {moved!r}, which is existential: the claim, not the adversary, chooses it"
    return True, ""


@rule("asymptotic.limit")
def limit_verdict(notation: str, limit: str) -> tuple[Verdict, str]:
    """Along a closed-form family the exact limit of lhs/g decides: O fails when it is infinite, Omega when it is 0,
    Theta when either; otherwise the ratio stays bounded (and away from 0) along this family -- evidence, not a
    proof for other families."""
    infinite, zero = limit in _INFINITE, limit == "0"
    fails = (notation in ("O", "Theta") and infinite) or (notation in ("Omega", "Theta") and zero)
    if fails:
        what = "grows without bound" if infinite else "tends to 0"
        return Verdict.REFUTED, f"the ratio {what} (exact limit {limit}, sympy)"
    return Verdict.CONSISTENT, f"the ratio tends to {limit} (exact limit, sympy): bounded along this family"


@rule("asymptotic.family")
def family_verdict(notation: str, limit: str, slope: float | None, stderr: float | None, error: str) -> tuple[Verdict, str]:
    """One valid family's verdict: what went wrong computing it leaves it inconclusive; an exact limit decides
    (asymptotic.limit); else the fit of its grid (asymptotic.growth)."""
    if error:
        return Verdict.INCONCLUSIVE, f"not measured: {error}"
    if limit:
        return limit_verdict(notation, limit)
    return growth_verdict(notation, slope, stderr)


@rule("asymptotic.growth")
def growth_verdict(notation: str, slope: float | None, stderr: float | None) -> tuple[Verdict, str]:
    """Along a numeric family only the fitted exponent of lhs/g is known: growth (O) or decay (Omega) of at least
    UNBOUNDED_SLOPE leaves the claim inconclusive with the fit -- a measurement never refutes; a ratio that grows
    (O) or decays (Omega) by at most BOUNDED_SLOPE is consistent along this family; in between, inconclusive."""
    if slope is None:
        return Verdict.INCONCLUSIVE, "no fit (fewer than 3 positive finite points)"
    fit = f"log-log slope {slope:.3f} +- {stderr:.3f}"
    against = slope if notation == "O" else -slope if notation == "Omega" else abs(slope)
    if against >= UNBOUNDED_SLOPE:
        return Verdict.INCONCLUSIVE, f"measured {'growth' if slope > 0 else 'decay'} ({fit}; not certified)"
    if against <= BOUNDED_SLOPE:
        return Verdict.CONSISTENT, f"bounded along this family ({fit}; not a proof)"
    return Verdict.INCONCLUSIVE, f"between bounded and unbounded ({fit})"
