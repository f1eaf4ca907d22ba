"""Check one claim: one dispatch over the three claim types.

For a :class:`StatementClaim` the order of work is

1. certificates (symbolic / SMT / interval proofs) are attempted;
2. per subject family: random subjects drawn with hypothesis (seeded), each evaluated in
   float64, candidates re-evaluated in mpmath (:mod:`~theorems.engine.probe`); the family's
   exhaustive subjects; an adversarial gradient search (:mod:`~theorems.engine.search`);
3. the recorded witness (if any) is replayed;
4. the smallest confirmed violation is shrunk (:mod:`~theorems.engine.shrink`) and saved as a
   witness; the largest is reported as the worst.

An :class:`ExperimentClaim` runs its experiment; an :class:`UnencodableClaim` reports its reason.
"""

from __future__ import annotations

import functools
import math
import time
from pathlib import Path
from numerics.certificate import Certificate, timed
from theorems.engine.budget import PROFILES, Budget
from theorems.engine.claim import (AnyClaim, ClaimBase, ExperimentClaim, RunContext, StatementClaim,
                                   UnencodableClaim)
from theorems.engine.probe import Probe, Tracker
from theorems.engine.search import adversarial_search, exhaustive_search, random_search
from theorems.engine.shrink import shrink
from theorems.engine.tolerance import is_violation
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict
from theorems.engine.witness import recorded_witness, recorded_witness_path, replay, witness_json, write_witness


def check_claim(claim: AnyClaim, budget: Budget | None = None, seed: int = 0,
                witness_dir: Path | None = None, artifact_dir: Path | None = None) -> ClaimResult:
    """Run every check on ``claim`` and return its verdict with the evidence."""
    budget = budget or PROFILES["audit"]
    start = time.perf_counter()
    result = ClaimResult(id=claim.id, kind=claim.kind.value, source=str(claim.source),
                         statement=claim.statement_text(), verdict=Verdict.UNTESTED, seed=seed)
    _check(claim, result, budget, RunContext(seed, budget.quick, artifact_dir), witness_dir)
    result.seconds = time.perf_counter() - start
    return result


@functools.singledispatch
def _check(claim: ClaimBase, result: ClaimResult, budget: Budget, ctx: RunContext,
           witness_dir: Path | None) -> None:
    raise TypeError(f"no check for claims of type {type(claim).__name__}")


@_check.register
def _(claim: UnencodableClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    result.verdict = Verdict.NOT_ENCODABLE
    result.reason = claim.reason
    result.expected = True


@_check.register
def _(claim: ExperimentClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    outcome = claim.experiment(ctx)
    result.verdict = outcome.verdict
    result.experiment = outcome.to_json()
    result.reason = outcome.summary()
    result.artifacts = [outcome.markdown] if outcome.markdown else []
    result.expected = result.verdict.value in claim.expect
    if not result.expected:
        result.expected_note = (f"unexpected verdict {result.verdict.value}: the repository expects "
                                f"{' or '.join(claim.expect)}")


@_check.register
def _(claim: StatementClaim, result: ClaimResult, budget: Budget, ctx: RunContext,
      witness_dir: Path | None) -> None:
    certificates = [timed(c) for c in claim.certificates]
    tracker = Tracker(claim)
    families = claim.subjects
    for i, family in enumerate(families):
        share = budget.examples // max(1, len(families))
        if share > 0 and family.strategy() is not None:
            random_search(claim, family, share, ctx.seed + 7919 * i, tracker)
        exhaustive_search(claim, family, budget.quick, tracker)
        adversarial_search(claim, family, budget, ctx.seed + 104729 * i, tracker)

    recorded = recorded_witness(claim)
    replayed = replay(recorded, claim) if recorded is not None else None
    if replayed is not None and replayed.violated:
        replayed.found_by = "recorded witness"
        tracker.violations.append(replayed)

    _fill_stats(result, tracker, claim)
    result.certificate = [c.to_json() for c in certificates] or None
    result.part_status = part_status(claim, certificates, tracker)
    proved = all(status == PartStatus.CERTIFIED for status in result.part_status.values())

    if tracker.violations:
        result.verdict = Verdict.REFUTED
        smallest = min(
            ([tracker.hypothesis_minimal] if tracker.hypothesis_minimal else []) + tracker.violations,
            key=lambda p: (p.family.size(p.subject), -p.worst_margin),
        )
        minimal = shrink(claim, smallest, budget.shrink_tries, tracker)
        worst = max(tracker.violations + [minimal], key=lambda p: float(p.worst_margin))
        result.witness = witness_json(claim, minimal, ctx.seed, "minimal")
        result.worst_violation = witness_json(claim, worst, ctx.seed, "worst")
        if witness_dir is not None:
            write_witness(result.witness, witness_dir / f"{claim.id}.json")
            write_witness(result.worst_violation, witness_dir / f"{claim.id}.worst.json")
    elif proved and certificates:
        result.verdict = Verdict.PROVED
    elif tracker.examples + tracker.adversarial > 0:
        result.verdict = Verdict.CONSISTENT
    else:
        result.verdict = Verdict.UNTESTED
        result.reason = "no drawn subject satisfied the hypotheses"

    _judge_expected(claim, result, replayed)
    if ctx.out_dir is not None:
        result.artifacts = [make(ctx) for make in claim.artifacts]


def part_status(claim: StatementClaim, certificates: list[Certificate], tracker: Tracker) -> dict[str, PartStatus]:
    """Per part: refuted (a confirmed violation), certified (an ok certificate covers it on the
    whole domain), certified on a range (and tested), tested, or unchecked."""
    labels = [str(p) for p in claim.statement]
    covered: set[str] = set()  # proved on the claim's whole domain
    partial: set[str] = set()  # proved on a finite range only
    for c in certificates:
        if c.ok:
            (covered if c.complete else partial).update(labels if c.parts is None else c.parts)
    refuted = {str(v.part) for p in tracker.violations for v in p.confirmed or []
               if is_violation(v.certain_margin, v.tol)}
    status = {}
    for label in labels:
        if label in refuted:
            status[label] = PartStatus.REFUTED
        elif label in covered:
            status[label] = PartStatus.CERTIFIED
        elif label in tracker.parts:
            status[label] = PartStatus.CERTIFIED_ON_RANGE if label in partial else PartStatus.TESTED
        else:
            status[label] = PartStatus.UNCHECKED
    return status


def _fill_stats(result: ClaimResult, tracker: Tracker, claim: StatementClaim) -> None:
    result.examples = tracker.examples
    result.adversarial_examples = tracker.adversarial
    result.rejected = tracker.rejected
    result.candidates = tracker.candidates
    result.float_screen = tracker.screen_report()
    result.subjects = dict(tracker.per_family)
    result.subject_kinds = {f.name: f.origin for f in claim.subjects}
    result.parts = list(tracker.parts.values())
    slacks = [s.min_slack for s in result.parts if math.isfinite(s.min_slack)]
    ratios = [s.worst_ratio for s in result.parts if s.worst_ratio is not None]
    result.min_slack = min(slacks) if slacks else None
    result.worst_ratio = max(ratios) if ratios else None
    if tracker.search_notes:
        result.reason = "; ".join(tracker.search_notes)


def _judge_expected(claim: StatementClaim, result: ClaimResult, replayed: Probe | None) -> None:
    if claim.known_refutation is not None:
        still = replayed is not None and replayed.violated
        result.expected = result.verdict == Verdict.REFUTED and still
        result.expected_note = (
            f"recorded refutation ({recorded_witness_path(claim)})"
            + ("; the recorded witness still refutes" if still else "; the recorded witness NO LONGER refutes")
        )
        return
    result.expected = result.verdict in (Verdict.PROVED, Verdict.CONSISTENT)
    if not result.expected:
        result.expected_note = f"unexpected verdict {result.verdict.value}: the repository expects proved or consistent"
