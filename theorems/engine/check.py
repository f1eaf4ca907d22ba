"""Check one claim: one dispatch over the three claim types.

For a :class:`StatementClaim` the order of work is

1. certificates (symbolic / SMT / interval proofs) are attempted;
2. per subject family: random subjects drawn with hypothesis (seeded), each evaluated in
   float64, candidates re-evaluated in mpmath (:mod:`~theorems.engine.probe`); the family's
   exhaustive subjects; an adversarial gradient search (:mod:`~theorems.engine.search`);
3. the recorded witness (if any) is replayed;
4. the smallest confirmed violation is shrunk (:mod:`~theorems.engine.shrink`) and saved as a
   witness; the largest is reported as the worst.

An :class:`ExperimentClaim` runs its experiment; an :class:`UnencodableClaim` reports its reason; a
:class:`DefinitionClaim` is listed with what it defines.
"""

from __future__ import annotations

import functools
import math
import time
import traceback
from typing import Any
from pathlib import Path

import sympy

from numerics.certificate import timed
from numerics.data_adversary import propose
from numerics.errors import ClcheckError
from numerics.seeds import Stream
from theorems.engine.asymptotic_search import asymptotic_evidence
from theorems.engine.closed import decide as decide_closed
from theorems.engine.culprit import plugin_frame
from theorems.engine.budget import PROFILES, Budget
from theorems.engine.claim import (AnyClaim, ClaimBase, DefinitionClaim, ExperimentClaim, RunContext,
                                   StatementClaim, UnencodableClaim)
from theorems.engine.probe import Tracker
from theorems.engine.proof_check import certify_steps, claim_part
from theorems.engine.registry import proofs_for
from theorems.engine.rules import gate, kinds
from theorems.engine.reach import judged_rows, premise_conclusion, replay_row, rows_json
from theorems.engine.rules.experiment import (asymptotic_unbounded, conclusion_unreachable, experiment_verdict,
                                              hypotheses_unsatisfiable, one_sided_failure, one_sided_label,
                                              refuting_evidence, still_refutes)
from theorems.engine.rules.informative import never_binds
from theorems.engine.rules.statement import (StatementEvidence, chain_certifies, part_status, proof_modulo,
                                             refuted_parts, statement_verdict)
from theorems.engine.rules.table import Judgement
from theorems.engine.search import admissible, adversarial_search, exhaustive_search, random_search
from theorems.engine.shrink import shrink
from theorems.engine.tightness import RATIO, best_ratio, inequality_parts, sharp_report, tightness_search
from theorems.engine.errors import ClaimError, CulpritError
from theorems.engine.family import SubjectFamily
from theorems.engine.experiment import ExperimentOutcome, draw_verdict_map
from theorems.engine.logic import prefix_json, prefix_text
from theorems.engine.limits import Interrupted, TimeLimitExceeded, ctrl_c_is_interrupted, short_path, time_limit
from theorems.engine.verdict import ClaimResult, Extremes, PartStatus, Verdict
from theorems.engine.witness import (closed_witness, experiment_witness, parametric_witness,
                                     reach_witness, recorded_witness,
                                     recorded_witness_path,
                                     replay, replay_parametric, tightness_witness, witness_json,
                                     write_witness)


def check_claim(claim: AnyClaim, budget: Budget | None = None, seed: int = 0,
                witness_dir: Path | None = None, artifact_dir: Path | None = None,
                timeout: float | None = None) -> ClaimResult:
    """Run every check on ``claim`` -- under its literal reading and under each of its other readings --
    and return the literal reading's verdict (the headline) with the evidence and every reading's verdict.

    Nothing a claim's check raises escapes: an exception (a quantity that raises, a backend
    without a function, a certificate or an experiment that crashes), the claim's own
    ``sys.exit`` or ``KeyboardInterrupt``, or the time limit ``timeout`` (seconds) gives the
    verdict ``error`` with the exception and where it happened. Only a real Ctrl-C or SIGTERM
    (:class:`~theorems.engine.limits.Interrupted`) passes through.
    """
    budget = budget or PROFILES["audit"]
    start = time.perf_counter()
    result = blank_result(claim, seed)
    ctx = RunContext(seed, budget.quick, artifact_dir)
    try:
        with ctrl_c_is_interrupted(), time_limit(timeout, "the claim"):
            _check_isolated(claim.reading_named("literal"), result, budget, ctx, witness_dir)
            result.readings = [reading_json(claim, claim.literal, result)]
            for reading in claim.readings:
                sub = blank_result(claim, seed)
                _check_isolated(claim.under(reading), sub, budget, ctx, None)
                result.readings.append(reading_json(claim.under(reading), reading.rests_on, sub))
    except Interrupted:
        raise
    except TimeLimitExceeded as exc:  # the limit covers every reading: the claim is an error
        _failed(result, exc)
    result.reading_sensitive = gate.disagree([r["verdict"] for r in result.readings])
    if result.reading_sensitive:
        result.qualifiers.append("reading-sensitive: " + "; ".join(f"{r['name']}: {r['verdict']}"
                                                                     for r in result.readings))
    result.seconds = time.perf_counter() - start
    return result


def _check_isolated(claim: AnyClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
                    witness_dir: Path | None) -> None:
    """One reading's check; what it raises (the time limit aside) is that reading's ``error``."""
    try:
        _check(claim, result, budget, ctx, witness_dir)
    except (Interrupted, TimeLimitExceeded):
        raise
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # one broken claim never sinks an audit
        _failed(result, exc)
    result.reconstructed = kinds.reconstructed_mark(result.verdict, claim.reconstructed)
    rows = (result.experiment or {}).get("configurations", ())
    result.by_construction = kinds.by_construction_mark(result.verdict, [r.get("by_construction", "") for r in rows])
    result.qualitative = kinds.qualitative_mark(result.verdict, claim.qualitative)


def reading_json(claim: AnyClaim, rests_on: str, result: ClaimResult) -> dict:
    """One reading in the report: what it reads, its prefix and hypotheses, its verdict and evidence."""
    return {"name": claim.reading, "rests_on": rests_on, "prefix": prefix_text(claim.prefix),
            "hypotheses": claim.hypotheses_text(), "verdict": result.verdict.value, "modulo": list(result.modulo),
            "reconstructed": result.reconstructed, "qualitative": result.qualitative,
            "by_construction": result.by_construction, "marks": result.marks,
            "reason": result.reason, "qualifiers": list(result.qualifiers), "examples": result.examples + result.adversarial_examples,
            "informative": result.nontrivial_examples, "expected": result.expected,
            "witness": result.witness if claim.reading != "literal" else None}


def blank_result(claim: AnyClaim, seed: int) -> ClaimResult:
    """The result of ``claim`` before anything is checked (verdict untested), with its prefix."""
    return ClaimResult(id=claim.id, kind=claim.kind.value, source=str(claim.source),
                       statement=claim.statement_text(), verdict=kinds.pending().verdict, seed=seed,
                       prefix=prefix_json(claim.prefix))


def error_result(claim: AnyClaim, seed: int, reason: str) -> ClaimResult:
    """The verdict ``error`` for a check that could not report itself (its worker process died or was
    stopped past its time limit): ``reason`` says what happened."""
    result = blank_result(claim, seed)
    _error(result, reason)
    result.readings = [reading_json(claim, claim.literal, result)]
    return result


def _failed(result: ClaimResult, exc: BaseException) -> None:
    """Record an exception as the verdict ``error``, naming it and where it happened: a user-facing error's own
    message (it names the culprit -- the quantity, hypothesis or part, the subject -- and the plugin's line);
    otherwise the innermost frame outside the engine it came from (for a time limit, the frame that was running
    when it fired)."""
    if isinstance(exc, ClcheckError):
        what, where = f"{type(exc).__name__}: {exc}", ""
    elif isinstance(exc, TimeLimitExceeded):
        what, where = f"timeout: {exc}", exc.where
    else:
        frames = traceback.extract_tb(exc.__traceback__)
        where = plugin_frame(exc) or (f"{short_path(frames[-1].filename)}:{frames[-1].lineno} (in {frames[-1].name})"
                                      if frames else "")
        if isinstance(exc, SystemExit):
            what = f"SystemExit: the claim's code called sys.exit({exc.code!r})"
        elif isinstance(exc, KeyboardInterrupt):
            what = "KeyboardInterrupt raised by the claim's code (not a Ctrl-C)"
        else:
            what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    _error(result, what + (f" at {where}" if where else ""))


def _error(result: ClaimResult, reason: str) -> None:
    _apply(result, kinds.error(reason))
    result.expected, result.expected_note = gate.expected(result.verdict, False, False, False)


def _apply(result: ClaimResult, judgement: Judgement) -> None:
    """Take the authority's judgement: the verdict, its reason (when it gives one) and the deciding rule."""
    result.verdict = judgement.verdict
    if judgement.reason:
        result.reason = judgement.reason
    result.rule = judgement.rule


@functools.singledispatch
def _check(claim: ClaimBase, result: ClaimResult, budget: Budget, ctx: RunContext,
           witness_dir: Path | None) -> None:
    raise TypeError(f"no check for claims of type {type(claim).__name__}")


@_check.register
def _(claim: UnencodableClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    _apply(result, kinds.not_encodable(claim.reason))
    result.expected = True


@_check.register
def _(claim: DefinitionClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    _apply(result, kinds.definition(claim.defines))
    result.expected = True


@_check.register
def _(claim: ExperimentClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    if claim.unsatisfiable:
        proofs = [timed(c) for c in claim.unsatisfiable]
        result.certificate = [c.to_json() for c in proofs]
        vacuous = hypotheses_unsatisfiable(proofs)
        if vacuous is not None:  # an impossible premise: nothing to run
            _apply(result, vacuous)
            _judge_expected(claim, result, False)
            return
    outcome = claim.experiment(ctx)
    if not isinstance(outcome, ExperimentOutcome):
        raise CulpritError(f"the experiment of {claim.id} returned {type(outcome).__name__} {str(outcome)[:60]!r}, not "
                           "an ExperimentOutcome (its measurements)")
    reach = premise_conclusion(claim, ctx.seed)
    result.reach = rows_json(reach)
    measured = asymptotic_evidence(claim, budget, Stream(ctx.seed, f"{claim.id}/{claim.reading}/asymptotic"))
    result.asymptotic = [m.to_json() for m in measured]
    judgement = experiment_verdict(claim.quantifier, outcome)
    unreachable = conclusion_unreachable(judged_rows(reach), judgement)
    unbounded = asymptotic_unbounded([dict(m.__dict__) for m in measured], judgement)
    if unreachable is not None:
        judgement = unreachable
        result.witness = reach_witness(claim, next(r for r in reach if r.get("verdict") == Verdict.REFUTED), ctx.seed)
    elif unbounded is not None:
        judgement = unbounded
        result.witness = parametric_witness(claim, next(m for m in measured if m.valid and m.verdict == Verdict.REFUTED),
                                            ctx.seed)
    elif judgement.verdict == Verdict.REFUTED and claim.one_sided:
        judgement = one_sided_failure(judgement, claim.one_sided)
    elif judgement.verdict == Verdict.REFUTED:
        evidence = refuting_evidence(judgement, outcome.growth)
        if evidence is not None:
            result.witness = experiment_witness(claim, evidence, ctx)
    one_sided = one_sided_label(judgement.verdict, claim.one_sided, bool(judged_rows(reach)))
    if one_sided:
        result.one_sided = one_sided
    recorded = recorded_witness(claim)
    if recorded is not None and recorded.get("kind") == "reach":
        still = replay_row(recorded, claim)["verdict"] == Verdict.REFUTED
    elif recorded is not None and recorded.get("kind") == "parametric":
        still = replay_parametric(recorded, claim).verdict == Verdict.REFUTED
    else:
        still = recorded is not None and still_refutes(judgement, outcome.growth, recorded.get("evidence") or {})
    _apply(result, judgement)
    result.reason = judgement.reason
    result.qualifiers.extend(judgement.qualifiers)
    result.modulo = judgement.modulo
    result.experiment = {**outcome.to_json(), "configurations": [_row_json(r) for r in judgement.rows],
                         "witness": judgement.witness}
    result.certificate = [c.to_json() for c in outcome.certificates] or None
    result.artifacts = [outcome.markdown] if outcome.markdown else []
    if outcome.map_axes is not None and ctx.out_dir is not None and judgement.rows:
        x, y, title = outcome.map_axes
        drawn = [{**r["config"], "verdict": r["verdict"], "in_regime": r["in_regime"]} for r in judgement.rows
                 if x in r["config"] and y in r["config"]]
        if drawn:
            draw_verdict_map(drawn, x, y, Path(ctx.out_dir) / f"{claim.id}.map.png", title)
            result.artifacts.append(f"![verdict map]({claim.id}.map.png)")
    _judge_expected(claim, result, still)


def _row_json(row: dict) -> dict:
    """A verdict-map row for the report (the verdict as its name)."""
    return {k: (v.value if isinstance(v, Verdict) else v) for k, v in row.items()}


@_check.register
def _(claim: StatementClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    closed = [c for c in (decide_closed(p) for p in claim.statement if not p.free_symbols) if c is not None]
    certificates = [timed(c) for c in claim.certificates] + [c.certificate() for c in closed if c.holds]
    tracker = Tracker(claim)
    families = claim.subjects
    equality = equality_cases(claim)
    for i, family in enumerate(families):
        family = family.for_seed(ctx.seed)
        share = budget.examples // max(1, len(families))
        stream = Stream(ctx.seed, f"{claim.id}/{claim.reading}/family{i}")  # the one seed rule (numerics.seeds)
        _equality_cases(claim, family, equality, tracker)
        if share > 0 and family.strategy() is not None:
            random_search(claim, family, share, stream.child("random"), tracker)
        exhaustive_search(claim, family, budget.quick, tracker)
        adversarial_search(claim, family, budget, stream.child("adversary"), tracker)
        tightness_search(claim, family, budget, stream.child("tightness"), tracker)

    _adversary_subjects(claim, ctx.seed, tracker)
    tracker.confirm_best()
    recorded = recorded_witness(claim)
    replayed = replay(recorded, claim) if recorded is not None and recorded.get("kind") not in SPECIAL_WITNESSES \
        else None
    if replayed is not None and replayed.violated:
        replayed.found_by = "recorded witness"
        tracker.violations.append(replayed)
    still_refutes = replayed is not None and replayed.violated
    if recorded is not None and recorded.get("kind") == "parametric":
        still_refutes = replay_parametric(recorded, claim).verdict == Verdict.REFUTED
    if recorded is not None and recorded.get("kind") == "reach":
        still_refutes = replay_row(recorded, claim)["verdict"] == Verdict.REFUTED

    _fill_stats(result, tracker, claim)
    result.tightness = _tightness(claim, tracker, ctx.seed)
    result.first_violation_seconds = tracker.first_violation_cpu
    vacuity = [timed(c) for c in claim.vacuity]
    impossible = [timed(c) for c in claim.unsatisfiable]
    result.certificate = [c.to_json() for c in certificates + vacuity + impossible] or None
    labels = [str(p) for p in claim.statement]
    result.part_status = part_status(labels, certificates, refuted_parts(tracker.violations),
                                     {label: s.nontrivial_examples for label, s in tracker.parts.items()})
    modulo = proof_modulo(labels, certificates)
    _apply_proof_chains(claim, result, modulo)
    if claim.derived:
        result.qualifiers.append(f"checker-derived constant: {claim.derived}")

    measured = asymptotic_evidence(claim, budget, Stream(ctx.seed, f"{claim.id}/{claim.reading}/asymptotic"))
    result.asymptotic = [m.to_json() for m in measured]
    reach = premise_conclusion(claim, ctx.seed)
    result.reach = rows_json(reach)
    evidence = StatementEvidence(
        asymptotic=[dict(m.__dict__) for m in measured], reach=judged_rows(reach),
        tried=tracker.examples + tracker.adversarial, informative=tracker.nontrivial, rejected=tracker.rejected,
        violations=len(tracker.violations), undecided=list(tracker.undecided), unsatisfiable=impossible, vacuity=vacuity,
        closed_violations=[c.to_json() for c in closed if c.holds is False],
        never_binds=never_binds(list(tracker.parts.values())),
        part_status=result.part_status, trivial_summary=_trivial_summary(tracker),
        vacuity_reason=_vacuity_reason(tracker),
        budget_note=(f"the budget gives {budget.examples} random examples and {budget.adversarial_starts} "
                     "adversarial starts, and no family lists fixed subjects"))
    _apply(result, statement_verdict(evidence))
    if result.verdict == Verdict.PROVED:
        result.modulo = sorted({name for label in result.part_status for name in modulo.get(label, ())})
    if result.verdict == Verdict.REFUTED and tracker.violations:
        _record_violation(claim, result, tracker, budget, ctx, witness_dir)
    elif result.verdict == Verdict.REFUTED and result.rule == "statement.closed_violation":
        result.witness = closed_witness(claim, evidence.closed_violations[0], ctx.seed)
    elif result.verdict == Verdict.REFUTED and result.rule == "statement.unreachable":
        result.witness = reach_witness(claim, next(r for r in reach if r.get("verdict") == Verdict.REFUTED), ctx.seed)
    elif result.verdict == Verdict.REFUTED and result.rule == "statement.asymptotic_unbounded":
        result.witness = parametric_witness(claim, next(m for m in measured if m.valid and m.verdict == Verdict.REFUTED),
                                            ctx.seed)
    for stats in tracker.parts.values():
        if stats.examples and not stats.nontrivial_examples and result.verdict == Verdict.CONSISTENT:
            result.qualifiers.append(f"part `{stats.label}` was uninformative on every subject "
                                     f"({', '.join(stats.trivial_reasons)})")

    _judge_expected(claim, result, still_refutes)
    if ctx.out_dir is not None:
        result.artifacts = [make(ctx) for make in claim.artifacts]


SPECIAL_WITNESSES = ("parametric", "reach", "closed")  # witnesses without a subject to replay


def equality_cases(claim: StatementClaim) -> list[tuple[str, Any]]:
    """Where the claim's sharp constants are attained (``Sharp.attained``): (family name, subject) pairs. A pair
    whose family is not one of the claim's is a fault of the claim (ClaimError, named)."""
    names = {f.name for f in claim.subjects}
    out: list[tuple[str, Any]] = []
    for sharp in claim.sharp:
        if sharp.attained is None:
            continue
        for family, subject in sharp.attained():
            if family.name not in names:
                raise ClaimError(f"claim {claim.id}: an equality case of the sharp constant {sharp.sharp[:60]!r} is "
                                 f"a subject of family {family.name!r}, which is not one of the claim's subjects")
            out.append((family.name, subject))
    return out


def _equality_cases(claim: StatementClaim, family: SubjectFamily, cases: list[tuple[str, Any]],
                    tracker: Tracker) -> None:
    """Probe the equality cases that belong to ``family`` (always confirmed; recorded as the search's own subjects,
    so the tightness search climbs from them)."""
    for name, subject in cases:
        if name != family.name:
            continue
        if admissible(claim, family, subject):
            tracker.record(tracker.probe(family, subject, found_by="equality case of a sharp constant", always=True,
                                         record_only=True),
                           adversarial=True)
        else:
            tracker.rejected += 1


def _adversary_subjects(claim: StatementClaim, seed: int, tracker: Tracker) -> None:
    """Each admissible data set a data adversary builds, as a subject of the claim's first family (checked like a
    listed subject: always confirmed, never screened away)."""
    for adversary in claim.data_adversary:
        if adversary.subject is None or not claim.subjects:
            continue
        family = claim.subjects[0].for_seed(seed)
        for proposal in propose(adversary.spec, adversary.hypotheses, seed):
            subject = adversary.subject(proposal.data)
            if admissible(claim, family, subject):
                tracker.record(tracker.probe(family, subject, found_by=f"data adversary ({proposal.kind})",
                                             always=True), adversarial=True)
            else:
                tracker.rejected += 1


def _record_violation(claim: StatementClaim, result: ClaimResult, tracker: Tracker, budget: Budget,
                      ctx: RunContext, witness_dir: Path | None) -> None:
    """Shrink the smallest confirmed violation to the minimal witness; keep the worst one too."""
    if claim.notation_slip:
        result.qualifiers.append(f"notation slip: {claim.notation_slip}")
    smallest = min(
        ([tracker.hypothesis_minimal] if tracker.hypothesis_minimal else []) + tracker.violations,
        key=lambda p: (p.family.size(p.subject), -p.worst_margin),
    )
    minimal = shrink(claim, smallest, budget.shrink_tries, tracker)
    worst = max(tracker.violations + [minimal], key=lambda p: float(p.worst_margin))
    result.witness = witness_json(claim, minimal, ctx.seed, "minimal")
    result.worst_violation = witness_json(claim, worst, ctx.seed, "worst")
    if witness_dir is not None:  # the command line writes them itself, from the result
        write_witness(result.witness, witness_dir / f"{claim.id}.json")
        write_witness(result.worst_violation, witness_dir / f"{claim.id}.worst.json")


def _apply_proof_chains(claim: StatementClaim, result: ClaimResult, modulo: dict[str, list[str]]) -> None:
    """Each printed proof of the claim, certified step by step: a part its chain certifies
    (statement.proof_chain) is certified, resting on what the chain or its certificates rest on."""
    for proof in proofs_for(claim.id):
        checked = certify_steps(proof, claim)
        label = str(claim_part(proof, claim))
        result.proof_chains.append({"part": label, "chain_composes": checked.chain_composes,
                                    "certified_steps": sum(s.status.value == "certified" for s in checked.steps),
                                    "steps": len(checked.steps), "assumptions": checked.assumptions,
                                    "modulo": checked.modulo,
                                    "coq": [c for s in checked.steps for c in s.certificates if c.get("method") == "coq"]})
        status = result.part_status.get(label)
        before = modulo.get(label, []) if status == PartStatus.CERTIFIED else None
        certified, rests_on = chain_certifies(bool(checked.chain_composes), checked.all_certified, status,
                                              checked.modulo, before)
        if certified:
            result.part_status[label] = PartStatus.CERTIFIED
            if rests_on:
                modulo[label] = rests_on
            else:
                modulo.pop(label, None)


def _trivial_summary(tracker: Tracker) -> str:
    return "; ".join(f"`{s.label}`: " + ", ".join(f"{reason} ({n} subjects)" for reason, n in s.trivial_reasons.items())
                     for s in tracker.parts.values() if s.trivial_reasons)


def _vacuity_reason(tracker: Tracker) -> str:
    seen = "; ".join(f"`{s.label}`: smallest bound seen {s.smallest_bound:.4g} over {s.examples} subjects "
                     f"({', '.join(s.trivial_reasons)})" for s in tracker.parts.values()
                     if s.examples and s.smallest_bound is not None)
    return f"the bound never binds: {seen}" if seen else "the bound never binds"


def _tightness(claim: StatementClaim, tracker: Tracker, seed: int) -> list[dict[str, Any]]:
    """Per inequality part: the best ratio found, where, and a witness that replays it; with the sharp
    constant where the claim declares one."""
    out = []
    sharp: dict[str, list] = {}
    for s in claim.sharp:  # a part may have several sharp constants (over every matrix, over encoders, ...)
        sharp.setdefault(s.part, []).append(s)
    for part in inequality_parts(claim):
        label = str(part)
        best, ratio, precision = best_ratio(claim, tracker, label)
        row: dict[str, Any] = {"part": label, "relation": sympy.sstr(part.relation), "measure": RATIO,
                               "best_ratio": ratio, "precision": precision, "witness": None}
        if best is not None:
            row["found_by"] = best.found_by
            row["witness"] = tightness_witness(claim, best, label, ratio, seed)
        apart = tracker.degenerate.get(label, [])
        if apart:  # equality cases that hold whatever the constants: not a measure of how sharp they are
            row["degenerate"] = {"subjects": len(apart), "example": apart[0][1].family.describe(apart[0][1].subject)[:200]}
        if label in sharp:
            row["sharp_constants"] = [sharp_report(s, claim, best) for s in sharp[label]]
        out.append(row)
    return out


def _fill_stats(result: ClaimResult, tracker: Tracker, claim: StatementClaim) -> None:
    result.examples = tracker.examples
    result.adversarial_examples = tracker.adversarial
    result.rejected = tracker.rejected
    result.candidates = tracker.candidates
    result.float_screen = tracker.screen_report()
    result.subjects = dict(tracker.per_family)
    result.subject_kinds = {f.name: f.origin for f in claim.subjects}
    result.parts = list(tracker.parts.values())
    result.nontrivial_examples = tracker.nontrivial
    result.min_slack, result.worst_ratio = _extremes(result.parts)
    result.informative_min_slack, result.informative_worst_ratio = _extremes([s.informative for s in result.parts])
    if tracker.search_notes:
        result.reason = "; ".join(tracker.search_notes)


def _extremes(stats: list[Extremes]) -> tuple[float | None, float | None]:
    slacks = [s.min_slack for s in stats if math.isfinite(s.min_slack)]
    ratios = [s.worst_ratio for s in stats if s.worst_ratio is not None]
    return (min(slacks) if slacks else None), (max(ratios) if ratios else None)


def _judge_expected(claim: ClaimBase, result: ClaimResult, still: bool) -> None:
    """Whether the verdict is the one the repository records (gate.expected)."""
    recorded = bool(getattr(claim, "known_refutation", None))  # "" (a reading's "none under this reading") records nothing
    path = short_path(str(recorded_witness_path(claim))) if recorded else ""
    vacuity = bool(getattr(claim, "vacuity", ()) or getattr(claim, "unsatisfiable", ()))
    result.expected, result.expected_note = gate.expected(result.verdict, recorded, still, vacuity, path)
