"""Check a printed proof: does the chain compose, what is each step's status, where does it break.

The one place where step statuses, broken steps and the proofs.json records are decided, for both
kinds of :class:`~theorems.engine.proof.Proof`:

* :func:`compose` -- the links chain by transitivity (each link starts where the previous one
  ended) and their composite relation is the claim's part, or implies it through a certified
  ``conclude`` step;
* :func:`certify_steps` -- every step's certificates, named-result hypotheses and citations
  (cheap: the claim's own check uses it to call a claim proved from its chain);
* :func:`theorems.engine.proof_eval.check_proof` -- all of that, plus every step evaluated (it
  lives above :mod:`theorems.engine.check`, which this module serves);
* :func:`check_page` -- a proof page: each tagged step from the checks its tag names (the verdicts
  of claims and the statuses of their parts, registered certificates and named-result instances,
  a cited theorem), with the notation-slip and circular-check rules; for a refuted claim, the
  first refuted step is the broken step (or "proof not printed");
* :class:`ClaimProofs` -- a claim's verdict with its checked proofs: step counts, broken step and
  its proofs.json record.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

import sympy

from numerics.certificate import Certificate, timed
from theorems.engine.claim import Part, StatementClaim
from theorems.engine.errors import ClaimError
from theorems.engine.proof import CHAIN, PAGE, ClaimRef, NamedResult, Proof, Step, StepStatus
from theorems.engine import registry
from theorems.engine.registry import get
from theorems.engine.rules import proof as rule
from theorems.engine.verdict import ClaimResult, PartStatus

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
    circular: bool = False  # a page step whose only check was its own claim: unchecked (circular)
    checks: list[dict[str, Any]] = field(default_factory=list)  # a page step: what each check of its tag gave
    refs: list[str] = field(default_factory=list)  # a page step: the claims (and parts) its tag names
    rests_on: list[str] = field(default_factory=list)  # a named-result step: the results it uses unproved

    @property
    def counted_as(self) -> str:
        """The column of the step counts: its status, or "slip" for a step refuted only as printed."""
        return "slip" if self.slip and self.status == StepStatus.REFUTED else self.status.value

    def status_text(self) -> str:
        return self.status.value + (" (notation slip)" if self.slip and self.status == StepStatus.REFUTED
                                    else " (circular)" if self.circular else "")

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
    chain_composes: bool | None  # None: a page (no chain of relations encoded)
    chain_note: str
    broken_step: dict[str, Any] | None = None
    wrong_steps: list[int] = field(default_factory=list)  # refuted steps of a claim that still holds
    slips: list[int] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    source: str = CHAIN
    instead: str = ""  # a proof not printed: what the source does instead

    @property
    def all_certified(self) -> bool:
        """Every step certified, or resting on a cited theorem or an unproved named result (see ``modulo``)."""
        return rule.chain_certified([s.status for s in self.steps])

    @property
    def modulo(self) -> list[str]:
        """The results the proof rests on without a proof of them: cited theorems and named results whose
        own proof is not certified (a composing chain of certified steps otherwise is a proof outright)."""
        named = [name for s in self.steps if s.status == StepStatus.NAMED for name in s.rests_on]
        return sorted(set(self.assumptions) | set(named))

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
    status = rule.cited_status(missing)
    if missing:
        return status, f"the claim's hypotheses do not provide what {step.cited.name} needs: {missing}"
    return status, f"assumed: {step.cited.name} -- {step.cited.statement}"


def certify_step(step: Step, claim: StatementClaim) -> tuple[StepStatus, str, list[Certificate]]:
    """The status a step has from its certificates, named result or citation alone
    (UNCHECKED when it needs a numeric check)."""
    if step.cited is not None:
        return _cited_status(step, claim)[0], "cited theorem", []
    certs = [timed(c) for c in step.certificates]
    status = rule.certificates_status(certs)
    if status == StepStatus.NAMED:
        return status, NAMED_PREFIX + ", ".join(sorted({m for c in certs for m in c.modulo})), certs
    if status == StepStatus.CERTIFIED:
        return status, " + ".join(sorted({c.method for c in certs})), certs
    if step.named is not None:
        checks = [timed(fn) for fn in step.named.checks.values()]
        certs += checks
        proof = named_result_proof(step.named.result)
        status = rule.named_status(checks, proof)
        if status == StepStatus.CERTIFIED:
            return status, f"{step.named.result.name}, proved: {proof.method}", [*certs, proof]
        if status == StepStatus.NAMED:
            return status, NAMED_PREFIX + step.named.result.name, certs
    return StepStatus.UNCHECKED, "", certs


def _rests_on(step: Step, certs: list[Certificate]) -> list[str]:
    """What a named-result step rests on unproved: its certificates' ``modulo``, else its named result."""
    resting = sorted({m for c in certs for m in c.modulo})
    return resting or ([step.named.result.name] if step.named is not None else [])


NAMED_PREFIX = "named result: "
_NAMED_PROOFS: dict[str, Certificate | None] = {}  # a named result's own proof, checked once per process


def named_result_proof(result: NamedResult) -> Certificate | None:
    """The certificate of a named result itself (None when it has no proof): checked once per process."""
    if result.name not in _NAMED_PROOFS:
        _NAMED_PROOFS[result.name] = timed(result.proof) if result.proof is not None else None
    return _NAMED_PROOFS[result.name]


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
                                  step.kind, status, method, [c.to_json() for c in certs], note=note, slip=step.slip,
                                  rests_on=_rests_on(step, certs) if status == StepStatus.NAMED else []))
    conclude_ok = all(r.status == StepStatus.CERTIFIED for r, s in zip(results, proof.steps) if s.kind == "conclude")
    composes, note = compose(proof, claim, conclude_ok)
    return ProofResult(claim.id, proof.part, proof.where, proof.not_printed, results, composes, note,
                       slips=[r.number for r in results if r.slip], assumptions=assumptions)


# -- proof pages: each tagged step from the checks its tag names -----------------------------------------
STEP_KINDS = ("certified", "named-result", "assumption", "tested", "refuted", "slip", "unchecked")
PAGE_NOTE = "no chain of relations encoded: each step is checked by the claims its page tag names"


def verdict_status(result: ClaimResult | None) -> StepStatus:
    """What a claim's verdict says of a step (or of a node of the dependency graph) it checks (proof.verdict_step)."""
    return rule.verdict_step(None if result is None else result.verdict)


def ref_status(claim_id: str, part: str | None, results: Mapping[str, ClaimResult]) -> StepStatus:
    """The status a claim (its verdict) or one of its parts gives a step it checks."""
    result = results.get(claim_id)
    if result is None:
        return StepStatus.UNCHECKED
    if part is None:
        return verdict_status(result)
    status = result.part_status.get(part)
    if status is None:
        raise KeyError(f"{claim_id} has no part labelled {part!r}: fix the tag in its proof page")
    return rule.part_step(PartStatus(status))


combine = rule.combine  # several checks of one step (proof.combine)


_KEYED: dict[tuple[str, str], tuple[StepStatus, dict[str, Any]]] = {}  # (kind, key) -> its check, once per process


def named_check(key: str) -> tuple[StepStatus, dict[str, Any]]:
    """A registered named-result instance: NAMED when every hypothesis of the result is certified for it;
    CERTIFIED when, moreover, the result itself is proved and the hypotheses on their whole domain."""
    if ("named", key) not in _KEYED:
        instance = registry.current().named(key)
        if instance is None:
            raise KeyError(f"no named-result instance registered as {key!r}: fix the tag in its proof page")
        certs = {h: timed(fn) for h, fn in instance.checks.items()}
        proof = named_result_proof(instance.result)
        proved = proof is not None and proof.ok and proof.complete and not proof.modulo
        status = rule.named_status(list(certs.values()), proof)
        _KEYED[("named", key)] = (status, {
            "named": key, "result": instance.result.name, "statement": instance.result.statement,
            "status": status.value, "result_proved": proved,
            **({"methods": [proof.method]} if proved else {}),
            "hypotheses": {h: {"ok": c.ok, "method": c.method, "statement": c.statement, "domain": c.domain}
                           for h, c in certs.items()}})
    return _KEYED[("named", key)]


def certificate_check(key: str) -> tuple[StepStatus, dict[str, Any]]:
    """A registered certificate: CERTIFIED when it proves the step on its whole domain, TESTED when it
    covers a finite range only, UNCHECKED when it fails."""
    if ("cert", key) not in _KEYED:
        fn = registry.current().certificate(key)
        if fn is None:
            raise KeyError(f"no step certificate registered as {key!r}: fix the tag in its proof page")
        c = timed(fn)
        status = rule.certificate_status(c)
        _KEYED[("cert", key)] = (status, {"cert": key, "status": status.value, "method": c.method,
                                          "statement": c.statement, "domain": c.domain, "ok": c.ok,
                                          "complete": c.complete, "modulo": list(c.modulo)})
    return _KEYED[("cert", key)]


def _circular(ref: ClaimRef, claim_id: str) -> bool:
    """A check by the page's own claim as a whole -- its verdict, or its only part, the statement the proof
    establishes. (A part of the claim that is one of the proof's own relations is evaluated on its own.)"""
    if ref.claim != claim_id:
        return False
    if ref.part is None:
        return True
    try:
        claim = get(ref.claim)
    except KeyError:
        return False  # not registered: the tag's own check reports it
    return len(getattr(claim, "statement", ())) <= 1


def _declared_slip(claim_id: str) -> bool:
    try:
        return bool(getattr(get(claim_id), "notation_slip", ""))
    except KeyError:  # a check named by a page but not registered declares nothing
        return False


def _is_slip(step: Step, ref_statuses: list[tuple[ClaimRef, StepStatus]]) -> bool:
    """A refuted step is a notation slip when every check that refutes it is a claim declared as a
    notation slip and some other check (the reading the proof needs) is certified or tested."""
    refuting = [ref.claim for ref, status in ref_statuses if status == StepStatus.REFUTED]
    holding = [ref.claim for ref, status in ref_statuses if status in (StepStatus.CERTIFIED, StepStatus.TESTED)]
    return (bool(refuting) and bool(holding) and not step.named_keys and not step.certificate_keys
            and all(_declared_slip(cid) for cid in refuting))


def _ref_methods(ref: ClaimRef, result: ClaimResult) -> list[str]:
    """The methods of the certificates that cover a referenced claim (or one of its parts)."""
    out = []
    for cert in result.certificate or []:
        covered = cert.get("parts")
        if cert.get("ok") and (ref.part is None or covered is None or ref.part in covered):
            out.append(str(cert.get("method", "")))
    return sorted(set(out))


def _part_slack(result: ClaimResult, part: str | None) -> float | None:
    """The smallest slack the check found for a claim (or one of its parts): over the informative
    subjects when there were any; > 0 means the relation held with room everywhere."""
    if part is not None:
        for stats in result.parts:
            if stats.label == part:
                slack = stats.informative.min_slack if stats.nontrivial_examples else stats.min_slack
                return None if slack == float("inf") else slack
        return None
    return result.informative_min_slack if result.informative_min_slack is not None else result.min_slack


def _ref_check(ref: ClaimRef, results: Mapping[str, ClaimResult]) -> dict[str, Any]:
    result = results.get(ref.claim)
    return {"claim": ref.claim, "part": ref.part,
            "status": ref_status(ref.claim, ref.part, results).value if result else StepStatus.UNCHECKED.value,
            "verdict": result.verdict.value if result else None,
            "methods": _ref_methods(ref, result) if result else [],
            "min_slack": _part_slack(result, ref.part) if result else None}


def check_tagged_step(step: Step, number: int, claim_id: str, results: Mapping[str, ClaimResult]) -> StepResult:
    """A page step's status from the checks its tag names; ``margins`` are minus the smallest slack of each
    named claim or part over its subjects and witnesses (> 0: it fails there)."""
    number = step.number if step.number is not None else number
    checks = [_ref_check(ref, results) for ref in step.refs]
    margins = {c["claim"] + (f" part {c['part']!r}" if c["part"] else ""): -c["min_slack"]
               for c in checks if c.get("min_slack") is not None}
    out = StepResult(number, step.text, "", "", step.kind, StepStatus.UNCHECKED, "", margins=margins,
                     note=step.cited.name if step.cited is not None else "", refs=[str(r) for r in step.refs])
    if step.cited is not None:
        out.status, out.method = StepStatus.ASSUMPTION, "cited theorem"
        return out
    out.checks = checks
    if step.status is not None:  # a step of a section generated from a checked chain: its status is written in it
        out.status = step.status
    else:
        # a check by the page's own claim (its verdict, or its only part) is circular: the step would be "checked"
        # by the very verdict the proof is meant to establish; it counts only beside a check of its own
        refs = [ref for ref in step.refs if not _circular(ref, claim_id)]
        out.circular = len(refs) < len(step.refs) and not (refs or step.named_keys or step.certificate_keys)
        ref_statuses = [(ref, ref_status(ref.claim, ref.part, results)) for ref in refs]
        keyed = [named_check(key) for key in step.named_keys] + [certificate_check(key)
                                                                 for key in step.certificate_keys]
        out.status = combine([status for _, status in ref_statuses] + [status for status, _ in keyed])
        out.slip = out.status == StepStatus.REFUTED and _is_slip(step, ref_statuses)
        out.checks = checks + [info for _, info in keyed]
    named = [c["result"] for c in out.checks if "named" in c and not c.get("result_proved")]
    named += [m for c in out.checks if "cert" in c and c["status"] == StepStatus.NAMED.value for m in c["modulo"]]
    methods = sorted({m for c in out.checks if c["status"] == "certified" for m in c.get("methods", [])}
                     | {c["method"] for c in out.checks if "cert" in c and c["status"] in ("certified", "tested")})
    out.rests_on = named if out.status == StepStatus.NAMED else []
    out.method = (NAMED_PREFIX + ", ".join(named) if out.status == StepStatus.NAMED and named
                  else " + ".join(methods) if methods
                  else "numeric" if out.status in (StepStatus.TESTED, StepStatus.REFUTED) else "")
    return out


def check_page(proof: Proof, results: Mapping[str, ClaimResult]) -> ProofResult:
    """A proof page: every tagged step from its checks; for a refuted claim, the first refuted step is the
    broken step (flagged when it is a notation slip), or ``{"index": None, "not_printed": ...}`` when the
    source gives no proof."""
    if proof.source != PAGE:
        raise ClaimError(f"check_page takes a proof page; the proof of {proof.claim} is a {proof.source}")
    steps = [check_tagged_step(step, i, proof.claim, results) for i, step in enumerate(proof.steps, 1)]
    out = ProofResult(proof.claim, proof.part, proof.where, proof.not_printed, steps, None, PAGE_NOTE,
                      slips=[s.number for s in steps if s.slip and s.status == StepStatus.REFUTED],
                      assumptions=[s.note for s in steps if s.status == StepStatus.ASSUMPTION],
                      source=PAGE, instead=proof.instead)
    result = results.get(proof.claim)
    if result is not None and rule.is_refuted(result.verdict):
        if proof.not_printed:
            out.broken_step = {"index": None, "not_printed": proof.instead}
        else:
            first = next((s for s in steps if s.status == StepStatus.REFUTED), None)
            if first is not None:
                out.broken_step = {"index": first.number, "text": first.text, "witness": "the checks its tag names",
                                   **({"slip": True} if first.slip else {})}
    elif result is not None:
        out.wrong_steps = [s.number for s in steps if s.status == StepStatus.REFUTED]
    return out


# -- a claim with its checked proofs ------------------------------------------------------------------
@dataclass
class ClaimProofs:
    """A claim's verdict (None: a page whose claim is not encoded) and the check of each of its printed
    proofs: its chains, or its page."""

    claim: str
    result: ClaimResult | None
    proofs: list[ProofResult] = field(default_factory=list)

    @property
    def from_page(self) -> bool:
        return bool(self.proofs) and all(p.source == PAGE for p in self.proofs)

    @property
    def steps(self) -> list[StepResult]:
        return [s for p in self.proofs for s in p.steps]

    @property
    def broken_step(self) -> dict[str, Any] | None:
        return next((p.broken_step for p in self.proofs if p.broken_step), None)

    def counts(self) -> dict[str, int]:
        steps = [s.counted_as for s in self.steps]
        return {k: steps.count(k) for k in STEP_KINDS}

    def to_json(self) -> dict[str, Any]:
        verdict = self.result.verdict.value if self.result is not None else "not encoded"
        qualifiers = self.result.qualifiers if self.result is not None else []
        broken = self.broken_step
        if self.from_page:
            page = self.proofs[0]
            return {"claim": self.claim, "verdict": verdict, "qualifiers": qualifiers, "chain_composes": None,
                    "chain_note": page.chain_note,
                    "broken_step": None if broken is None or broken.get("not_printed") else broken,
                    "proof_printed": not page.not_printed, "not_printed": page.instead if page.not_printed else None,
                    "source": PAGE, "steps": [s.to_json() for s in page.steps], "proofs": []}
        return {
            "claim": self.claim, "verdict": verdict, "qualifiers": qualifiers,
            "chain_composes": all(p.chain_composes for p in self.proofs) if self.proofs else None,
            "broken_step": broken,
            "proof_printed": not all(p.not_printed for p in self.proofs) if self.proofs else None,
            "source": CHAIN,
            "steps": [s.to_json() for s in self.steps],  # every step of every chain, in order
            "proofs": [p.to_json() for p in self.proofs],
        }


def page_entry(page: Proof, results: Mapping[str, ClaimResult], chains: ClaimProofs | None = None) -> ClaimProofs:
    """The record of a proof page's claim: its checked chains when it has them (the page's proof section is
    then generated from them), else the page checked through its tags."""
    if chains is not None and chains.proofs:
        return chains
    return ClaimProofs(page.claim, results.get(page.claim), [check_page(page, results)])


def proofs_json(entries: Mapping[str, ClaimProofs], seed: int) -> dict[str, Any]:
    """proofs.json: every claim's record, by id."""
    return {"seed": seed, "claims": {cid: entries[cid].to_json() for cid in sorted(entries)}}
