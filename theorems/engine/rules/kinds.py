"""Verdicts fixed by what a claim is, or by a check that could not run."""

from __future__ import annotations

from typing import Iterable

from theorems.engine.rules.table import Judgement, rule
from theorems.engine.verdict import Verdict


@rule("claim.pending")
def pending() -> Judgement:
    """A claim not yet checked is untested: the verdict every check starts from."""
    return Judgement(Verdict.UNTESTED, "not checked")


@rule("claim.not_encodable")
def not_encodable(reason: str) -> Judgement:
    """A sentence whose source leaves something unspecified is not_encodable, with what is missing."""
    return Judgement(Verdict.NOT_ENCODABLE, reason)


@rule("claim.definition")
def definition(defines: str) -> Judgement:
    """A numbered definition that asserts nothing to check is listed as a definition, with what it defines."""
    return Judgement(Verdict.DEFINITION, f"a definition: {defines}")


@rule("claim.error")
def error(what: str) -> Judgement:
    """A check that failed (an exception, the time limit, a dead worker) gives error, naming what happened:
    the claim was not checked."""
    return Judgement(Verdict.ERROR, what)


@rule("claim.reconstructed")
def reconstructed_mark(verdict: Verdict, reconstructed: str) -> str:
    """A claim whose statement is the checker's reconstruction (``reconstructed``: what was inferred, from what)
    carries the mark on every verdict that says something of its statement -- its proof or refutation is of the
    reconstruction, not of the paper's statement -- and is counted apart."""
    if not reconstructed.strip() or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR):
        return ""
    return " ".join(reconstructed.split())


@rule("claim.qualitative")
def qualitative_mark(verdict: Verdict, qualitative: str) -> str:
    """A claim that checks only what survives of a partly lost statement (``qualitative``: a direction, a sign, a
    monotonicity -- and what is lost) carries the mark on every verdict that says something of it, and is counted
    apart from the statements checked whole."""
    if not qualitative.strip() or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR):
        return ""
    return " ".join(qualitative.split())


@rule("claim.by_construction")
def by_construction_mark(verdict: Verdict, checks: Iterable[str]) -> str:
    """A claim some of whose checks hold by the checker's own construction (``checks``: why each holds, as the
    observations state it) carries the mark on every verdict that says something of it -- those checks are no
    evidence either way -- and is counted apart; each reason is named once."""
    reasons = list(dict.fromkeys(" ".join(c.split()) for c in checks if c and c.strip()))
    if not reasons or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR):
        return ""
    return "; ".join(reasons)


@rule("claim.sharp_certified")
def sharp_certified(declared: bool, results: list | None) -> bool:
    """A sharp constant is labelled certified only when the claim says so and every certificate it names ran and
    passed on its whole domain (``results``: None when one could not run); otherwise it is an estimate."""
    return bool(declared and results and all(c.ok and c.complete for c in results))
