"""The status of a printed proof's step, read from what checked it.

:mod:`theorems.engine.proof_check` and :mod:`theorems.engine.proof_eval` gather the checks of a step
(its certificates, the named result it invokes and that result's own proof, a cited theorem, the
claims and parts its page tag names, its evaluation on subjects and witnesses); the rules here turn
them into a :class:`~theorems.engine.proof.StepStatus`.
"""

from __future__ import annotations

from typing import Any, Sequence

from theorems.engine.proof import StepStatus
from theorems.engine.rules.table import rule
from theorems.engine.verdict import PartStatus, Verdict

CERTIFIED, NAMED, ASSUMPTION = StepStatus.CERTIFIED, StepStatus.NAMED, StepStatus.ASSUMPTION
TESTED, REFUTED, UNCHECKED = StepStatus.TESTED, StepStatus.REFUTED, StepStatus.UNCHECKED


@rule("proof.certificates")
def certificates_status(certificates: Sequence[Any]) -> StepStatus | None:
    """A step whose certificates all hold on their whole domain is certified -- a named-result step when they
    rest on results they do not prove (``modulo``); None when they do not settle it."""
    if not certificates or not all(c.ok and c.complete for c in certificates):
        return None
    return NAMED if any(c.modulo for c in certificates) else CERTIFIED


@rule("proof.named_result")
def named_status(hypotheses: Sequence[Any], result_proof: Any | None) -> StepStatus:
    """A step invoking a named result: every hypothesis certified for this instance -> named-result; certified
    outright only when, moreover, the result itself is proved on its whole domain resting on nothing and every
    hypothesis is certified on its whole domain; a failed hypothesis -> unchecked."""
    if not all(c.ok for c in hypotheses):
        return UNCHECKED
    proved = (result_proof is not None and result_proof.ok and result_proof.complete and not result_proof.modulo)
    return CERTIFIED if proved and all(c.complete for c in hypotheses) else NAMED


@rule("proof.certificate_key")
def certificate_status(certificate: Any) -> StepStatus:
    """A step checked by a registered certificate: certified when it proves the step on its whole domain
    (named-result when it rests on named results it does not prove), tested when it covers a finite range only,
    unchecked when it fails."""
    if not certificate.ok:
        return UNCHECKED
    if not certificate.complete:
        return TESTED
    return NAMED if certificate.modulo else CERTIFIED


@rule("proof.cited")
def cited_status(missing: Sequence[str]) -> StepStatus:
    """A step citing a theorem is an assumption of the proof when the claim's hypotheses provide everything the
    theorem needs; otherwise unchecked."""
    return UNCHECKED if missing else ASSUMPTION


@rule("proof.combine")
def combine(statuses: Sequence[StepStatus]) -> StepStatus:
    """Several checks of one step: refuted if any refutes; certified if all certify; named-result if all certify
    or are named results; tested if any tests, certifies or is a named result; else unchecked."""
    if not statuses:
        return UNCHECKED
    if REFUTED in statuses:
        return REFUTED
    if all(s == CERTIFIED for s in statuses):
        return CERTIFIED
    if all(s in (CERTIFIED, NAMED) for s in statuses):
        return NAMED
    if any(s in (TESTED, CERTIFIED, NAMED) for s in statuses):
        return TESTED
    return UNCHECKED


_VERDICT_STEP = {Verdict.PROVED: CERTIFIED, Verdict.CONSISTENT: TESTED, Verdict.REFUTED: REFUTED}
_PART_STEP = {PartStatus.CERTIFIED: CERTIFIED, PartStatus.CERTIFIED_ON_RANGE: TESTED, PartStatus.TESTED: TESTED,
              PartStatus.TRIVIAL: UNCHECKED, PartStatus.REFUTED: REFUTED, PartStatus.UNCHECKED: UNCHECKED}


@rule("proof.verdict_step")
def verdict_step(verdict: Verdict | None) -> StepStatus:
    """What a claim's verdict says of a step it checks: proved -> certified (a proof modulo named results too:
    its verdict is proved), consistent -> tested, refuted -> refuted; anything else (or no result) -> unchecked."""
    return UNCHECKED if verdict is None else _VERDICT_STEP.get(verdict, UNCHECKED)


@rule("proof.part_step")
def part_step(status: PartStatus) -> StepStatus:
    """What one part of a claim says of a step it checks: certified on the whole domain -> certified; certified on
    a finite range or tested -> tested (a finite range is not a proof); tested on uninformative subjects only ->
    unchecked; refuted -> refuted."""
    return _PART_STEP[PartStatus(status)]


@rule("proof.numeric_step")
def numeric_step(status: StepStatus, violated: bool, verdict: Verdict) -> StepStatus:
    """A step evaluated as a claim on subjects and on the claim's witnesses: a violation anywhere refutes it; a
    step its certificates left unchecked is tested when the evaluation is consistent or proved."""
    if violated:
        return REFUTED
    if status == UNCHECKED and verdict in (Verdict.CONSISTENT, Verdict.PROVED):
        return TESTED
    return status


@rule("proof.chain_certified")
def chain_certified(statuses: Sequence[StepStatus]) -> bool:
    """A chain's every step is certified, a cited theorem or a named result (what it rests on unproved is its
    ``modulo``): a composing chain of such steps certifies its claim's part."""
    return all(s in (CERTIFIED, ASSUMPTION, NAMED) for s in statuses)


@rule("proof.refuted_verdict")
def is_refuted(verdict: Verdict | None) -> bool:
    """A claim whose verdict is refuted has a broken step to locate (its first refuted step)."""
    return verdict == Verdict.REFUTED
