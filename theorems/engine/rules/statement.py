"""The verdict of a statement claim, read from the evidence its check gathered.

:mod:`theorems.engine.check` gathers the evidence (certificates, the subjects tried and how many
were informative, confirmed violations, asymptotic parts along witness families, reachability, proof chains) into a
:class:`StatementEvidence`; :func:`statement_verdict` reads the verdict by the first rule of
:data:`CASCADE` that applies. The order is the rules' priority: a proof that the hypotheses cannot
hold together comes first, a confirmed violation before any certificate, vacuity before proof.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from theorems.engine.errors import ClaimError
from theorems.engine.rules.compare import is_violation
from theorems.engine.rules.reach import reach_verdict
from theorems.engine.rules.table import Judgement, rule
from theorems.engine.verdict import PartStatus, Verdict


@dataclass
class StatementEvidence:
    """What a statement claim's check found; the numbers and texts the rules' reasons quote."""

    tried: int = 0  # subjects that met the hypotheses and were evaluated (random, exhaustive, adversarial)
    informative: int = 0  # of those, informative for at least one part
    rejected: int = 0  # drawn subjects that did not meet the hypotheses
    violations: int = 0  # confirmed violations
    undecided: list[str] = field(default_factory=list)  # candidates no high-precision value could decide
    closed_violations: list[dict[str, Any]] = field(default_factory=list)  # closed parts an enclosure refutes
    # asymptotic parts along witness families: dicts with part, family, valid, why_invalid and the family's
    # verdict and why (theorems.engine.rules.asymptotic)
    asymptotic: list[dict[str, Any]] = field(default_factory=list)
    # reachability rows with a verdict (theorems.engine.reach: a reach check's configurations, the data adversary's
    # admissible sets with a certified infimum)
    reach: list[dict[str, Any]] = field(default_factory=list)
    unsatisfiable: list[Any] = field(default_factory=list)  # certificates claiming the hypotheses cannot hold together
    vacuity: list[Any] = field(default_factory=list)  # certificates claiming the bound cannot bind
    never_binds: bool = False  # the range rule made every subject uninformative
    part_status: dict[str, PartStatus] = field(default_factory=dict)
    trivial_summary: str = ""  # why the subjects were uninformative, per part
    vacuity_reason: str = ""  # the smallest bounds seen (for a bound that never binds)
    budget_note: str = ""  # what the budget allowed (for "nothing was drawn")


StatementRule = Callable[[StatementEvidence], "Judgement | None"]
CASCADE: list[tuple[str, StatementRule]] = []


def _cascade(name: str) -> Callable[[StatementRule], StatementRule]:
    """A statement rule: registered in the table and appended to the cascade in priority order."""
    def add(fn: StatementRule) -> StatementRule:
        rule(name)(fn)
        CASCADE.append((name, fn))
        return fn
    return add


@_cascade("statement.hypotheses_unsatisfiable")
def _unsatisfiable(ev: StatementEvidence) -> Judgement | None:
    """A certificate that holds and says the hypotheses cannot hold together makes the claim vacuous -- unless
    subjects met them, which proves the certificate or a hypothesis predicate wrong (an error)."""
    proofs = [c for c in ev.unsatisfiable if c.ok]
    if not proofs:
        return None
    if ev.tried > 0:
        raise ClaimError(f"a certificate says the hypotheses cannot hold together, yet {ev.tried} subjects met them: "
                         "the certificate or a hypothesis predicate is wrong")
    return Judgement(Verdict.VACUOUS, "the hypotheses cannot hold together: " + "; ".join(
        f"{c.statement} [{c.method}, {c.domain}]" for c in proofs))


@_cascade("statement.confirmed_violation")
def _violated(ev: StatementEvidence) -> Judgement | None:
    """A violation confirmed in high precision (compare.violation, compare.confirmation) refutes."""
    return Judgement(Verdict.REFUTED) if ev.violations > 0 else None


@_cascade("statement.unreachable")
def _unreachable(ev: StatementEvidence) -> Judgement | None:
    """A conclusion the hypotheses make unreachable (reach.claim: a certified infimum above a level the adversary
    picks afterwards) refutes, with no subject needed."""
    judged = reach_verdict(ev.reach)
    return judged if judged is not None and judged.verdict == Verdict.REFUTED else None


@_cascade("statement.closed_violation")
def _closed(ev: StatementEvidence) -> Judgement | None:
    """A closed part (no free symbol) whose interval enclosure of its margin lies entirely on the wrong side of the
    boundary refutes, with no subject needed (``log 3 <= 1``)."""
    if not ev.closed_violations:
        return None
    c = ev.closed_violations[0]
    return Judgement(Verdict.REFUTED, f"the closed part `{c['part']}` is false: its margin (small side - large side) "
                                      f"lies in [{c['lower'][:24]}, {c['upper'][:24]}] (arb interval arithmetic)")


@_cascade("statement.asymptotic_unbounded")
def _asymptotic_refuted(ev: StatementEvidence) -> Judgement | None:
    """An asymptotic part whose ratio a valid witness family certifiably drives past any constant (an exact limit:
    asymptotic.limit) refutes -- only a family the prefix lets depend on the parameter counts."""
    refuting = [m for m in ev.asymptotic if m["valid"] and m["verdict"] == Verdict.REFUTED]
    if not refuting:
        return None
    m = refuting[0]
    return Judgement(Verdict.REFUTED, f"`{m['part']}` along the family {m['family']} (it moves "
                                      f"{', '.join(m['moves']) or 'nothing'}): {m['why']}")


@_cascade("statement.unconfirmed_candidate")
def _unconfirmed(ev: StatementEvidence) -> Judgement | None:
    """A candidate violation that no high-precision value can confirm or dismiss (a quantity without a 60-digit
    evaluation on that subject) leaves the claim inconclusive, naming it -- never consistent."""
    if not ev.undecided:
        return None
    return Judgement(Verdict.INCONCLUSIVE, "unconfirmed violation: the float screen found a candidate no "
                                           "high-precision evaluation can decide: " + "; ".join(ev.undecided))


@_cascade("statement.never_binds")
def _vacuous(ev: StatementEvidence) -> Judgement | None:
    """A bound that never binds -- a vacuity certificate that holds on the whole domain, or every subject tried
    uninformative by the range rule (informative.never_binds) -- is vacuous."""
    proofs = [c for c in ev.vacuity if c.ok and c.complete]
    if not (proofs or ev.never_binds):
        return None
    reason = ev.vacuity_reason or "the bound never binds"
    if proofs:
        reason += ". Proved: " + "; ".join(f"{c.statement} [{c.method}, {c.domain}]" for c in proofs)
    return Judgement(Verdict.VACUOUS, reason)


@_cascade("statement.asymptotic_open")
def _asymptotic_open(ev: StatementEvidence) -> Judgement | None:
    """An asymptotic part whose ratio a valid family shows growing only as a measurement (a fitted exponent), or
    whose family could not be read (a limit sympy cannot take), leaves the claim inconclusive, with the fit."""
    open_ = [m for m in ev.asymptotic if m["valid"] and m["verdict"] in (Verdict.INCONCLUSIVE, Verdict.UNTESTED)]
    if not open_:
        return None
    return Judgement(Verdict.INCONCLUSIVE, "; ".join(f"`{m['part']}` along {m['family']}: {m['why']}" for m in open_))


@_cascade("statement.certified")
def _certified(ev: StatementEvidence) -> Judgement | None:
    """Every part certified on the claim's whole domain (statement.part_status: by certificates or checked proof
    chains) proves the claim."""
    proved = bool(ev.part_status) and all(s == PartStatus.CERTIFIED for s in ev.part_status.values())
    return Judgement(Verdict.PROVED) if proved else None


@_cascade("statement.informative")
def _consistent(ev: StatementEvidence) -> Judgement | None:
    """Informative subjects tried without a violation -- or, with no subject tried, asymptotic parts bounded along
    every valid witness family, or a conclusion reached at some level of the reachability check (reach.claim) --
    give consistent."""
    bounded = [m for m in ev.asymptotic if m["valid"] and m["verdict"] == Verdict.CONSISTENT]
    reached = reach_verdict(ev.reach)
    bounded_only = bool(bounded) and ev.tried == 0
    if reached is not None and reached.verdict == Verdict.CONSISTENT and ev.informative == 0 and not bounded:
        return reached
    if not (ev.informative > 0 or bounded_only):
        return None
    if bounded:
        return Judgement(Verdict.CONSISTENT, "bounded along the witness families "
                                             + ", ".join(sorted({m["family"] for m in bounded})) + " (not a proof)")
    return Judgement(Verdict.CONSISTENT)


@_cascade("statement.asymptotic_no_witness")
def _asymptotic_no_witness(ev: StatementEvidence) -> Judgement | None:
    """Asymptotic parts whose every witness family is invalid under the prefix (each moves an object the constant
    may depend on), with no subject tried: untested, naming why each family does not count."""
    if ev.tried > 0 or not ev.asymptotic or any(m["valid"] for m in ev.asymptotic):
        return None
    return Judgement(Verdict.UNTESTED, "no witness family counts under this prefix: " + "; ".join(
        f"{m['family']}: {m['why_invalid']}" for m in ev.asymptotic))


@_cascade("statement.reach_open")
def _reach_open(ev: StatementEvidence) -> Judgement | None:
    """Reachability rows, no subject tried, and no row decided (no level reached, nothing refuted): untested, with
    what the rows say (reach.claim)."""
    if ev.tried > 0 or not ev.reach:
        return None
    return reach_verdict(ev.reach)


@_cascade("statement.uninformative")
def _uninformative(ev: StatementEvidence) -> Judgement | None:
    """Subjects tried, none informative: untested, with why each part could not fail."""
    if ev.tried == 0:
        return None
    return Judgement(Verdict.UNTESTED, "every subject tried was uninformative: " + ev.trivial_summary)


@_cascade("statement.nothing_drawn")
def _nothing_drawn(ev: StatementEvidence) -> Judgement | None:
    """Nothing drawn at all (the budget and no listed subjects): untested."""
    if ev.rejected > 0:
        return None
    return Judgement(Verdict.UNTESTED, f"nothing was drawn: {ev.budget_note}" if ev.budget_note else
                     "nothing was drawn")


@_cascade("statement.premise_never_met")
def _premise(ev: StatementEvidence) -> Judgement | None:
    """Subjects drawn, none met the hypotheses: untested."""
    return Judgement(Verdict.UNTESTED, "no drawn subject satisfied the hypotheses")


def statement_verdict(ev: StatementEvidence) -> Judgement:
    """The verdict of a statement claim: the first rule of the cascade that applies, named in ``rule``."""
    for name, fn in CASCADE:
        judged = fn(ev)
        if judged is not None:
            judged.rule = name
            return judged
    raise AssertionError("the last rule of the cascade always applies")


@rule("statement.part_status")
def part_status(labels: Sequence[str], certificates: Sequence[Any], refuted: set[str],
                informative: dict[str, int]) -> dict[str, PartStatus]:
    """Per part: refuted (a confirmed violation), certified (an ok complete certificate covers it on the whole
    domain), tested on uninformative subjects only, certified on a finite range (and tested), tested (on
    informative subjects), or unchecked (nothing evaluated it). ``informative`` maps each evaluated part to its
    informative subjects."""
    covered: set[str] = set()
    partial: set[str] = set()
    for c in certificates:
        if c.ok:
            (covered if c.complete else partial).update(labels if c.parts is None else c.parts)
    status = {}
    for label in labels:
        if label in refuted:
            status[label] = PartStatus.REFUTED
        elif label in covered:
            status[label] = PartStatus.CERTIFIED
        elif label in informative and not informative[label]:
            status[label] = PartStatus.TRIVIAL
        elif label in informative:
            status[label] = PartStatus.CERTIFIED_ON_RANGE if label in partial else PartStatus.TESTED
        else:
            status[label] = PartStatus.UNCHECKED
    return status


def refuted_parts(violations: Sequence[Any]) -> set[str]:
    """The parts a confirmed violation refutes (its high-precision values beyond the tolerance)."""
    return {str(v.part) for p in violations for v in p.confirmed or [] if is_violation(v.certain_margin, v.tol)}


@rule("statement.modulo")
def proof_modulo(labels: Sequence[str], certificates: Sequence[Any]) -> dict[str, list[str]]:
    """Per part proved by certificates: the named results the best of them (the fewest) rests on unproved; a
    part proved outright by one certificate rests on none."""
    best: dict[str, list[str]] = {}
    for c in certificates:
        if c.ok and c.complete:
            for label in labels if c.parts is None else c.parts:
                if label not in best or len(c.modulo) < len(best[label]):
                    best[label] = sorted(c.modulo)
    return {label: names for label, names in best.items() if names}


@rule("statement.proof_chain")
def chain_certifies(composes: bool, all_certified: bool, status: PartStatus | None, chain_modulo: list[str],
                    before: list[str] | None) -> tuple[bool, list[str]]:
    """A part whose printed proof composes and has every step certified, cited or a named result is certified
    (unless refuted); it rests on the cited theorems and unproved named results of the chain, or on what its
    certificates rest on (``before``, None when no certificate proves it) when that is less."""
    if not (composes and all_certified) or status == PartStatus.REFUTED:
        return False, before or []
    best = chain_modulo if before is None or len(chain_modulo) < len(before) else before
    return True, best
