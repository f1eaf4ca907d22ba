"""The rules of mutation analysis: what a mutant's audits say of it, and what a part's mutants say of the search.

A mutant (:mod:`theorems.engine.mutate`) is a strengthening of one inequality part, audited like any claim at the
seeds given. Its outcome (:func:`mutant_outcome`) and a part's **sensitivity** (:func:`sensitivity`) are read here,
so that ``clcheck mutate`` and the audit's report say the same thing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from theorems.engine.rules.table import rule
from theorems.engine.verdict import Verdict

KILLED, TRUE, SURVIVED, UNINFORMATIVE, ERROR = "killed", "true", "survived", "uninformative", "error"
MOVES = ("constant", "exponent", "scale side")  # the moves whose amount a sensitivity is measured in


@rule("mutate.outcome")
def mutant_outcome(verdicts: Sequence[Verdict], shown_true: str, replayed: bool = False) -> str:
    """A mutant refuted at any seed, or violated by a weaker mutant's witness replayed at high precision
    (``replayed``), is killed (a refutation is confirmed and replayable, whatever the other seeds say); one never
    refuted is true when a certificate shows it (``shown_true``: why), an error when a seed's check failed or none
    ran, uninformative when no seed had an informative subject (untested, or vacuous: the strengthened bound still
    never binds), and otherwise survived -- a strengthening this search does not refute."""
    if replayed or Verdict.REFUTED in verdicts:
        return KILLED
    if shown_true:
        return TRUE
    if Verdict.ERROR in verdicts or not verdicts:
        return ERROR
    if all(v in (Verdict.UNTESTED, Verdict.VACUOUS) for v in verdicts):
        return UNINFORMATIVE  # no subject could have refuted it (a bound that never binds): no measure of the search
    return SURVIVED


@rule("mutate.sensitivity")
def sensitivity(outcomes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A part's sensitivity, from its mutants' outcomes (each: kind, amount, outcome): the smallest move of a
    constant, an exponent or a side that the search refutes (``refuted_at``), the largest such move it never refutes and no
    certificate shows true (``survives_at``: a miss), and the counts. A true or uninformative mutant is never a
    miss."""
    moved = [o for o in outcomes if o["kind"] in MOVES]
    killed = [Fraction(o["amount"]) for o in moved if o["outcome"] == KILLED]
    missed = [Fraction(o["amount"]) for o in moved if o["outcome"] == SURVIVED]
    counts = {k: sum(1 for o in outcomes if o["outcome"] == k) for k in (KILLED, TRUE, SURVIVED, UNINFORMATIVE, ERROR)}
    return {"refuted_at": str(min(killed)) if killed else None, "survives_at": str(max(missed)) if missed else None,
            "mutants": len(outcomes), **counts}


def sensitivity_text(s: dict[str, Any] | None) -> str:
    """The line beside a consistent inequality: what the last ``clcheck mutate`` found of its part."""
    if not s:
        return "sensitivity not measured (run clcheck mutate)"
    parts = []
    if s.get("refuted_at") is not None:
        parts.append(f"a {_percent(s['refuted_at'])} strengthening is refuted by this search")
    if s.get("survives_at") is not None:
        parts.append(f"a {_percent(s['survives_at'])} strengthening survives")
    if not parts:
        parts.append("every strengthening refuted or shown true" if s.get(KILLED) and s.get(TRUE)
                     else "every strengthening refuted" if s.get(KILLED)
                     else "every strengthening shown true (the printed constant is loose)" if s.get(TRUE)
                     else "no constant to move")
    return "; ".join(parts) + (f" ({s[KILLED]} of {s['mutants']} mutants refuted, {s[TRUE]} true, {s[SURVIVED]} "
                               f"survived" + (f", {s[UNINFORMATIVE]} uninformative" if s.get(UNINFORMATIVE) else "") + ")")


def _percent(amount: str) -> str:
    return f"{float(Fraction(amount)) * 100:g} %"
