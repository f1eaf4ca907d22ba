"""Evaluate a printed proof's steps: each step checked as a claim of its own on the claim's
subjects and on its witnesses; for a refuted claim, the first step that fails on a witness is the
*broken step*. Certification and composition come from :mod:`theorems.engine.proof_check`."""

from __future__ import annotations

from typing import Any

from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.claim import Part, StatementClaim
from theorems.engine.errors import ClaimError, WitnessError
from theorems.engine.probe import probe
from theorems.engine.proof import Proof, Step, StepStatus
from theorems.engine.proof_check import ProofResult, certify_steps, compose
from theorems.engine.rules import proof as rule
from theorems.engine.verdict import ClaimResult
from theorems.engine.witness import witness_subject


def step_claim(claim: StatementClaim, proof: Proof, step: Step, number: int) -> StatementClaim:
    """The step as a claim of its own, on the claim's hypotheses and subjects."""
    return StatementClaim(f"{claim.id}.step{number}", claim.kind, claim.source,
                          (Part(step.relation, step.text[:80], applies=step.applies, informative=step.informative),),
                          assumptions=claim.assumptions, subjects=proof.subjects or claim.subjects,
                          adversarial=claim.adversarial)


def _witnesses(claim_result: ClaimResult, recorded: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    out = {}
    if claim_result.witness is not None:
        out["minimal witness"] = claim_result.witness
    if claim_result.worst_violation is not None:
        out["worst violation"] = claim_result.worst_violation
    if recorded is not None:
        out["recorded witness"] = recorded
    return out


def _margin_on(step_claim_: StatementClaim, data: dict[str, Any],
               claim: StatementClaim) -> tuple[float | None, bool, str]:
    """The step's margin on a witness subject (> 0: it fails there), whether that is a confirmed
    violation, and why there is no margin when there is none."""
    try:
        family, subject = witness_subject(data, claim)
        if family not in step_claim_.subjects:
            return None, False, f"the step is not evaluated on family {family.name!r}"
        p = probe(step_claim_, family, subject, force_confirm=True)
    except (WitnessError, ClaimError) as exc:
        return None, False, str(exc)
    if not p.confirmed:
        return None, False, "the step does not apply to this subject"
    return max(float(v.certain_margin) for v in p.confirmed), p.violated, ""


def check_proof(proof: Proof, claim: StatementClaim, claim_result: ClaimResult, budget: Budget, seed: int,
                recorded: dict[str, Any] | None = None) -> ProofResult:
    """Certify, evaluate and locate: the complete check of a printed proof."""
    result = certify_steps(proof, claim)
    witnesses = _witnesses(claim_result, recorded)
    for number, (step, res) in enumerate(zip(proof.steps, result.steps), 1):
        if step.relation is None or not step.relation.free_symbols:
            continue
        if step.kind == "conclude":  # an implication from the chain: its certificate decides, not the values
            if res.status == StepStatus.UNCHECKED:
                res.note = "a conclusion from the chain needs a certificate of the implication"
            continue
        sc = step_claim(claim, proof, step, number)
        numeric = check_claim(sc, budget, seed=seed)
        res.numeric = {"verdict": numeric.verdict.value, "examples": numeric.examples + numeric.adversarial_examples,
                       "nontrivial_examples": numeric.nontrivial_examples,
                       "min_slack": numeric.informative_min_slack, "reason": numeric.reason}
        violated = rule.is_refuted(numeric.verdict)
        for role, data in witnesses.items():
            margin, fails, why = _margin_on(sc, data, claim)
            if margin is not None:
                res.margins[role] = margin
                if fails:
                    res.failing.append(role)
                    violated = True
            elif why:
                res.note = (res.note + "; " if res.note else "") + f"{role}: {why}"
        status = rule.numeric_step(res.status, violated, numeric.verdict)
        if status != res.status:
            res.status, res.method = status, (res.method or "numeric") if violated else "numeric"
        elif res.status == StepStatus.UNCHECKED:
            res.note = (res.note + "; " if res.note else "") + f"numeric check: {numeric.verdict.value} ({numeric.reason})"
    if rule.is_refuted(claim_result.verdict):
        result.broken_step = _first_failing(result)
    else:
        result.wrong_steps = [r.number for r in result.steps if r.status == StepStatus.REFUTED]
    conclude_ok = all(r.status == StepStatus.CERTIFIED for r, s in zip(result.steps, proof.steps) if s.kind == "conclude")
    result.chain_composes, result.chain_note = compose(proof, claim, conclude_ok)
    return result


def _first_failing(result: ProofResult) -> dict[str, Any] | None:
    """The first step in the proof's order that fails on a witness (or on its own search)."""
    for role in ("minimal witness", "recorded witness", "worst violation"):
        for r in result.steps:
            if role in r.failing:
                return {"index": r.number, "text": r.text, "relation": r.relation, "witness": role,
                        "margin": r.margins[role]}
    for r in result.steps:
        if r.status == StepStatus.REFUTED:
            return {"index": r.number, "text": r.text, "relation": r.relation, "witness": "its own search",
                    "margin": -(r.numeric or {}).get("min_slack", 0.0) if r.numeric else None}
    return None
