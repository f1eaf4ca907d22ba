"""Check a printed proof: does the chain compose, what is each step's status, where does it break.

* :func:`compose` -- the links chain by transitivity (each link starts where the previous one
  ended) and their composite relation is the claim's part, or implies it through a certified
  ``conclude`` step;
* :func:`certify_steps` -- every step's certificates, named-result hypotheses and citations
  (cheap: the claim's own check uses it to call a claim proved from its chain);
* :func:`check_proof` -- all of that, plus every step evaluated on the subjects the claim is
  tested on and on its witnesses; for a refuted claim, the first step that fails on a witness is
  the *broken step*.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import sympy

from numerics.certificate import Certificate, timed
from theorems.engine.budget import Budget
from theorems.engine.claim import Part, StatementClaim
from theorems.engine.errors import ClaimError, WitnessError
from theorems.engine.probe import probe
from theorems.engine.proof import Proof, Step, StepStatus
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict

_UP = (sympy.LessThan, sympy.StrictLessThan)
_DOWN = (sympy.GreaterThan, sympy.StrictGreaterThan)


@dataclass
class StepResult:
    """What the checker found for one step."""

    number: int
    text: str
    relation: str
    reason: str
    kind: str
    status: StepStatus
    method: str
    certificates: list[dict[str, Any]] = field(default_factory=list)
    numeric: dict[str, Any] | None = None  # the step checked on subjects: verdict, examples, informative, slack
    margins: dict[str, float] = field(default_factory=dict)  # witness role -> margin (> 0: the step fails there)
    failing: list[str] = field(default_factory=list)  # the witnesses on which a violation is confirmed
    note: str = ""
    slip: bool = False

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["status"] = self.status.value
        return d


@dataclass
class ProofResult:
    claim: str
    part: str | None
    where: str
    not_printed: bool
    steps: list[StepResult]
    chain_composes: bool
    chain_note: str
    broken_step: dict[str, Any] | None = None
    wrong_steps: list[int] = field(default_factory=list)  # refuted steps of a claim that still holds
    slips: list[int] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)

    @property
    def all_certified(self) -> bool:
        return all(s.status in (StepStatus.CERTIFIED, StepStatus.ASSUMPTION) for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["steps"] = [s.to_json() for s in self.steps]
        return d


# -- composition -----------------------------------------------------------------------------

def claim_part(proof: Proof, claim: StatementClaim) -> Part:
    parts = [p for p in claim.statement if proof.part is None or str(p) == proof.part]
    if len(parts) != 1:
        labels = ", ".join(repr(str(p)) for p in claim.statement)
        raise ClaimError(f"the proof of {claim.id} names part {proof.part!r}; the claim's parts are {labels}")
    return parts[0]


def _same(a: sympy.Expr, b: sympy.Expr) -> bool:
    return sympy.simplify(sympy.sympify(a) - sympy.sympify(b)) == 0


def _composite(links: list[Step]) -> tuple[sympy.core.relational.Relational | None, str]:
    """The relation A_0 op A_n the links chain to, or None with the reason they do not chain."""
    rels = [s.relation for s in links]
    if any(r is None for r in rels):
        return None, "a link has no relation"
    for i in range(len(rels) - 1):
        if not _same(rels[i].rhs, rels[i + 1].lhs):
            return None, f"link {i + 2} does not start where link {i + 1} ends ({rels[i].rhs} vs {rels[i + 1].lhs})"
    directions = {"up" if isinstance(r, _UP) else "down" if isinstance(r, _DOWN) else "eq" for r in rels}
    if {"up", "down"} <= directions:
        return None, "the links mix <= and >= (a chain must go one way)"
    strict = any(isinstance(r, (sympy.StrictLessThan, sympy.StrictGreaterThan)) for r in rels)
    first, last = rels[0].lhs, rels[-1].rhs
    if directions == {"eq"}:
        return sympy.Eq(first, last, evaluate=False), ""
    if "up" in directions:
        return (sympy.StrictLessThan if strict else sympy.LessThan)(first, last, evaluate=False), ""
    return (sympy.StrictGreaterThan if strict else sympy.GreaterThan)(first, last, evaluate=False), ""


def _implies_same(composite: sympy.core.relational.Relational, target: sympy.core.relational.Relational) -> bool:
    """The composite relation is the target (same sides up to orientation, at least as strong)."""
    def canon(r: Any) -> tuple[sympy.Expr, sympy.Expr, str]:
        if isinstance(r, sympy.Equality):
            return r.lhs, r.rhs, "eq"
        small, large = (r.rhs, r.lhs) if isinstance(r, _DOWN) else (r.lhs, r.rhs)
        strict = isinstance(r, (sympy.StrictLessThan, sympy.StrictGreaterThan))
        return small, large, "lt" if strict else "le"

    cs, cl, cop = canon(composite)
    ts, tl, top = canon(target)
    if top == "eq":
        return cop == "eq" and ((_same(cs, ts) and _same(cl, tl)) or (_same(cs, tl) and _same(cl, ts)))
    strong_enough = cop in ("eq", "lt") or top == "le"
    return strong_enough and _same(cs, ts) and _same(cl, tl)


def compose(proof: Proof, claim: StatementClaim, conclude_ok: bool | None = None) -> tuple[bool, str]:
    """Whether the links chain to the claim's part (directly, or through a certified conclude step)."""
    target = claim_part(proof, claim).relation
    links = [s for s in proof.steps if s.kind == "link"]
    concludes = [s for s in proof.steps if s.kind == "conclude"]
    if not links:
        if concludes and concludes[-1].relation is not None and _implies_same(concludes[-1].relation, target):
            return True, "the proof is one step: the claim itself"
        return False, "the proof has no chain of links"
    composite, why = _composite(links)
    if composite is None:
        return False, why
    if _implies_same(composite, target):
        return True, f"the links chain to {composite}, the claim's part"
    if concludes:
        final = concludes[-1]
        if final.relation is None or not _implies_same(final.relation, target):
            return False, f"the conclude step is not the claim's part {target}"
        if conclude_ok is False:
            return False, f"the links chain to {composite}; the step concluding {target} from it is not certified"
        return True, f"the links chain to {composite}, which implies {target} (conclude step)"
    return False, f"the links chain to {composite}, not to the claim's part {target}"


# -- certificates, named results, citations ---------------------------------------------------------

def _cited_status(step: Step, claim: StatementClaim) -> tuple[StepStatus, str]:
    provided = {a.name for a in claim.assumptions}
    missing = [f"{need} (from {name!r})" for need, name in step.cited.needs.items() if name not in provided]
    if missing:
        return StepStatus.UNCHECKED, f"the claim's hypotheses do not provide what {step.cited.name} needs: {missing}"
    return StepStatus.ASSUMPTION, f"assumed: {step.cited.name} -- {step.cited.statement}"


def certify_step(step: Step, claim: StatementClaim) -> tuple[StepStatus, str, list[Certificate]]:
    """The status a step has from its certificates, named result or citation alone
    (UNCHECKED when it needs a numeric check)."""
    if step.cited is not None:
        status, note = _cited_status(step, claim)
        return status, "cited theorem", []
    certs = [timed(c) for c in step.certificates]
    if certs and all(c.ok and c.complete for c in certs):
        return StepStatus.CERTIFIED, " + ".join(sorted({c.method for c in certs})), certs
    if step.named is not None:
        checks = [timed(fn) for fn in step.named.checks.values()]
        certs += checks
        if all(c.ok for c in checks):
            return StepStatus.NAMED, f"named result: {step.named.result.name}", certs
    return StepStatus.UNCHECKED, "", certs


def certify_steps(proof: Proof, claim: StatementClaim) -> ProofResult:
    """Every step's certificates; the chain's composition. No numeric evaluation."""
    results = []
    assumptions = []
    for i, step in enumerate(proof.steps, 1):
        status, method, certs = certify_step(step, claim)
        note = ""
        if step.cited is not None:
            status, note = _cited_status(step, claim)
            if status == StepStatus.ASSUMPTION:
                assumptions.append(step.cited.name)
        results.append(StepResult(i, step.text, str(step.relation) if step.relation is not None else "", step.reason,
                                  step.kind, status, method, [c.to_json() for c in certs], note=note, slip=step.slip))
    conclude_ok = all(r.status == StepStatus.CERTIFIED for r, s in zip(results, proof.steps) if s.kind == "conclude")
    composes, note = compose(proof, claim, conclude_ok)
    return ProofResult(claim.id, proof.part, proof.where, proof.not_printed, results, composes, note,
                       slips=[r.number for r in results if r.slip], assumptions=assumptions)


# -- the full check ------------------------------------------------------------------------------

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
    from theorems.engine.witness import witness_subject

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
    from theorems.engine.check import check_claim

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
        violated = numeric.verdict == Verdict.REFUTED
        for role, data in witnesses.items():
            margin, fails, why = _margin_on(sc, data, claim)
            if margin is not None:
                res.margins[role] = margin
                if fails:
                    res.failing.append(role)
                    violated = True
            elif why:
                res.note = (res.note + "; " if res.note else "") + f"{role}: {why}"
        if violated:
            res.status = StepStatus.REFUTED
            res.method = res.method or "numeric"
        elif res.status == StepStatus.UNCHECKED and numeric.verdict in (Verdict.CONSISTENT, Verdict.PROVED):
            res.status, res.method = StepStatus.TESTED, "numeric"
        elif res.status == StepStatus.UNCHECKED:
            res.note = (res.note + "; " if res.note else "") + f"numeric check: {numeric.verdict.value} ({numeric.reason})"
    if claim_result.verdict == Verdict.REFUTED:
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


def part_status_from(result: ProofResult) -> PartStatus | None:
    """The status a fully certified, composing chain gives the part it proves."""
    return PartStatus.CERTIFIED if result.chain_composes and result.all_certified else None
