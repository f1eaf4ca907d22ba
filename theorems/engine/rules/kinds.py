"""Verdicts fixed by what a claim is, or by a check that could not run."""

from __future__ import annotations

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
