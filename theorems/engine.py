"""Check one claim: certificates, random search, adversarial search, confirmation, shrinking.

The order of work for a claim:

1. certificates (symbolic / SMT / interval proofs) are attempted;
2. random subjects are drawn with hypothesis (seeded), each evaluated in float64;
   candidates (see :mod:`theorems.tolerance`) are re-evaluated in mpmath, and a
   confirmed violation is handed back to hypothesis, which shrinks it;
3. the family's exhaustive subjects (if any) are checked one by one;
4. an adversarial search maximizes the margin lhs - rhs by gradient ascent
   (torch autograd through the same formulas) from many seeded starts;
5. the smallest confirmed violation is shrunk further by the family's greedy
   shrinker and saved as a witness; the largest one is reported as the worst.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from numerics.backend import FLOAT, mp_backend, torch_backend
from theorems.certify import Certificate, timed
from theorems.claim import Claim, Part
from theorems.evaluate import PartValue, applicable_parts, evaluate_parts, needed_symbols, torch_margin
from theorems.subjects.base import SubjectFamily
from theorems.tolerance import CONFIRM_DPS, is_candidate, is_violation
from theorems.verdict import ClaimResult, PartStats, Verdict

WITNESS_DIR = Path(__file__).parent / "witnesses"
SCREEN_AUDIT_EVERY = 10
MAX_DPS = 1920  # a violation must be stable when the precision is doubled, up to this
ENOUGH_VIOLATIONS = 3  # after this many confirmed violations, large subjects are not confirmed


@dataclass
class Budget:
    """How hard to search: random examples per claim, adversarial starts and steps."""

    examples: int = 200
    adversarial_starts: int = 8
    adversarial_steps: int = 150
    shrink_tries: int = 400
    quick_exhaustive: bool = False  # thinner exhaustive sweeps (the fast test profile)


@dataclass
class Probe:
    """One subject checked: float values, and high-precision values when it was a candidate."""

    family: SubjectFamily
    subject: Any
    values: list[PartValue]
    confirmed: list[PartValue] | None = None
    found_by: str = "random"
    dps: int = 0  # precision of ``confirmed``
    unstable: bool = False  # margins kept changing with the precision: not a counterexample

    @property
    def candidate(self) -> bool:
        return any(is_candidate(v.margin, v.tol, v.part.is_identity) for v in self.values)

    @property
    def violated(self) -> bool:
        return (self.confirmed is not None and not self.unstable
                and any(is_violation(v.certain_margin, v.tol) for v in self.confirmed))

    @property
    def best(self) -> list[PartValue]:
        """Each part's high-precision value where it was confirmed, its float value otherwise."""
        confirmed = {id(v.part): v for v in self.confirmed or []}
        return [confirmed.get(id(v.part), v) for v in self.values]

    @property
    def worst_margin(self) -> float:
        return max(v.margin for v in self.best)


class _Violation(Exception):
    """Raised inside the hypothesis test so that hypothesis shrinks the example."""


def evaluate(claim: Claim, family: SubjectFamily, subject: Any, dps: int | None = None,
             parts: list[Part] | None = None) -> list[PartValue]:
    """The applicable parts of ``claim`` (or just ``parts``) on ``subject``: float64, or mpmath
    at ``dps`` digits."""
    xp = FLOAT if dps is None else mp_backend(dps)
    parts = applicable_parts(claim, subject) if parts is None else parts
    with xp.precision():
        values = family.quantities(subject, needed_symbols(parts), xp)
        return evaluate_parts(parts, values, xp)


def probe(claim: Claim, family: SubjectFamily, subject: Any, found_by: str = "random",
          force_confirm: bool = False, confirm: bool = True) -> Probe:
    """Evaluate in float64; confirm in high precision the parts whose float margin asks for it
    (every part when ``force_confirm``)."""
    with np.errstate(all="ignore"):
        result = Probe(family, subject, evaluate(claim, family, subject), found_by=found_by)
    suspects = [v.part for v in result.values
                if confirm and (force_confirm or is_candidate(v.margin, v.tol, v.part.is_identity))]
    if suspects:
        try:
            result.confirmed = evaluate(claim, family, subject, dps=CONFIRM_DPS, parts=suspects)
            result.dps = CONFIRM_DPS
            if result.violated:
                _stabilize(claim, result)
        except NotImplementedError:
            result.confirmed = None  # no high-precision twin: the candidate stays unconfirmed
    return result


def _stabilize(claim: Claim, result: Probe) -> None:
    """Keep a violation only if its margins survive doubling the precision.

    60 digits are not always enough: for u = 660, v_2 = sigma(u) = 1 - e^-660 rounds to 1
    and -log(1 - v_2) becomes inf. The margins of the violated parts at dps and 2 dps must
    agree (to 1e-6 relative, or within the tolerance); otherwise the precision is doubled,
    up to MAX_DPS. A violation that never stabilizes is not a counterexample.
    """
    dps = result.dps
    parts = [v.part for v in result.confirmed]
    while dps * 2 <= MAX_DPS:
        finer = evaluate(claim, result.family, result.subject, dps=dps * 2, parts=parts)
        stable = all(
            abs(float(a.margin) - float(b.margin)) <= 1e-6 * max(abs(float(a.margin)), abs(float(b.margin))) + a.tol
            for a, b in zip(result.confirmed, finer) if is_violation(a.certain_margin, a.tol)
        )
        result.confirmed, result.dps = finer, dps * 2
        if stable or not result.violated:
            return
        dps *= 2
    result.unstable = True


@dataclass
class _Tracker:
    """Statistics over every example, and the confirmed violations."""

    claim: Claim
    examples: int = 0
    adversarial: int = 0
    rejected: int = 0
    candidates: int = 0
    per_family: dict[str, int] = field(default_factory=dict)
    parts: dict[str, PartStats] = field(default_factory=dict)
    violations: list[Probe] = field(default_factory=list)
    hypothesis_minimal: Probe | None = None
    # audit of the float screen: every SCREEN_AUDIT_EVERY-th example is re-evaluated in
    # high precision even when it is no candidate; if float and mpmath margins ever differ
    # by more than tol/2, the screen is unreliable for this claim and everything is confirmed
    seen: int = 0
    screen_audits: int = 0
    screen_max_error: float = 0.0  # max |float margin - mp margin| / tol over audited examples
    screen_unreliable: bool = False
    unstable: int = 0  # candidates whose high-precision margin never stabilized
    screen_skipped: int = 0  # screen audits skipped: the subject is too large for mpmath
    unconfirmed: int = 0  # large-subject candidates left unconfirmed once the claim was refuted

    def probe(self, family: SubjectFamily, subject: Any, found_by: str = "random") -> Probe:
        self.seen += 1
        force = self.screen_unreliable or self.seen % SCREEN_AUDIT_EVERY == 0
        cheap = family.cheap_to_confirm(subject)
        if force and not cheap:
            force, self.screen_skipped = False, self.screen_skipped + 1
        if not cheap and len(self.violations) >= ENOUGH_VIOLATIONS:
            # the claim is already refuted several times over: a large subject's float
            # candidate is recorded as unconfirmed instead of paying for mpmath again
            p = probe(self.claim, family, subject, found_by, confirm=False)
            self.unconfirmed += int(p.candidate)
            return p
        p = probe(self.claim, family, subject, found_by, force_confirm=force)
        if p.confirmed is not None:
            self.screen_audits += 1
            floats = {id(v.part): v for v in p.values}
            for h in p.confirmed:
                f = floats[id(h.part)]
                err = abs(f.margin - float(h.margin)) / max(h.tol, 1e-300)
                if not math.isnan(err):
                    self.screen_max_error = max(self.screen_max_error, err)
                if err > 0.5 or math.isnan(err):
                    self.screen_unreliable = True
        return p

    def record(self, p: Probe, adversarial: bool = False) -> None:
        if adversarial:
            self.adversarial += 1
        else:
            self.examples += 1
        self.per_family[p.family.name] = self.per_family.get(p.family.name, 0) + 1
        self.candidates += int(p.candidate)
        self.unstable += int(p.unstable)
        desc = p.family.describe(p.subject)
        for v in p.best:
            label = str(v.part)
            stats = self.parts.setdefault(label, PartStats(label))
            stats.record(float(v.slack), v.ratio, desc)
        if p.violated:
            self.violations.append(p)


def _random_search(claim: Claim, family: SubjectFamily, budget: int, seed: int, tracker: _Tracker) -> None:
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings, target
    from hypothesis import seed as hypothesis_seed
    from hypothesis.errors import HypothesisException

    state = {"shrinking": False}

    @hypothesis_seed(seed)
    @settings(max_examples=budget, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
              phases=(Phase.generate, Phase.target, Phase.shrink), print_blob=False)
    @given(family.strategy())
    def search(subject: Any) -> None:
        if not claim.hypotheses_hold(subject) or not applicable_parts(claim, subject):
            if not state["shrinking"]:
                tracker.rejected += 1
            from hypothesis import reject

            reject()
        p = tracker.probe(family, subject)
        target(max(v.normalized_margin for v in p.best))
        if state["shrinking"]:
            if p.violated:
                tracker.hypothesis_minimal = p
                raise _Violation
            return
        tracker.record(p)
        if p.violated:
            state["shrinking"] = True
            tracker.hypothesis_minimal = p
            raise _Violation

    try:
        search()
    except _Violation:
        pass
    except HypothesisException as exc:  # e.g. Unsatisfiable: every draw was rejected
        tracker.parts.setdefault("_search", PartStats(f"hypothesis: {type(exc).__name__}"))
    except BaseExceptionGroup:  # several distinct failures were shrunk: all are _Violation
        pass


def _adversarial_search(claim: Claim, family: SubjectFamily, budget: Budget, seed: int,
                        tracker: _Tracker) -> None:
    if not claim.adversarial or budget.adversarial_starts <= 0:
        return
    if family.random_start(np.random.default_rng(seed)) is None:
        return
    import torch

    xp = torch_backend()
    for start in range(budget.adversarial_starts):
        rng = np.random.default_rng([seed, start])
        torch.manual_seed(seed * 1_000 + start)
        subject = family.random_start(rng)
        if subject is None or not claim.hypotheses_hold(subject):
            continue
        parts = applicable_parts(claim, subject)
        mask = [
            p in parts and p.relation.free_symbols <= family.differentiable for p in claim.statement
        ]
        if not any(mask):
            return
        symbols = set().union(*(p.relation.free_symbols for p, m in zip(claim.statement, mask) if m))
        params = family.params(subject)
        opt = torch.optim.Adam(params, lr=0.05)
        # decay the step to 1% of its start so that the ascent settles on thin maxima
        schedule = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.01 ** (1 / budget.adversarial_steps))
        best_value, best_params = -math.inf, [t.detach().clone() for t in params]
        for _ in range(budget.adversarial_steps):
            opt.zero_grad()
            margin = torch_margin(claim, family.quantities(subject, symbols, xp, params=params), mask)
            if not torch.isfinite(margin):
                break
            value = margin.item()
            if value > best_value and claim.hypotheses_hold(family.from_params(subject, params)):
                best_value = value  # the best point visited inside the hypotheses
                best_params = [t.detach().clone() for t in params]
            (-margin).backward()
            opt.step()
            schedule.step()
        end = family.from_params(subject, best_params)
        if claim.hypotheses_hold(end):
            tracker.record(tracker.probe(family, end, found_by="adversarial"), adversarial=True)


def _shrink(claim: Claim, start: Probe, tries: int, tracker: "_Tracker") -> Probe:
    """Greedy: take the first simpler subject that still violates (confirmed), until none does."""
    family, current = start.family, start
    improved = True
    while improved and tries > 0:
        improved = False
        for candidate in family.shrink(current.subject):
            tries -= 1
            if tries < 0:
                break
            if not claim.hypotheses_hold(candidate) or not applicable_parts(claim, candidate):
                continue
            p = tracker.probe(family, candidate, found_by=current.found_by)
            if p.violated:
                current, improved = p, True
                break
    return current


def witness_json(claim: Claim, p: Probe, seed: int, role: str) -> dict[str, Any]:
    """A replayable record of a confirmed violation."""
    parts = []
    for v in p.best:
        parts.append({
            "part": str(v.part), "lhs": mpmath.nstr(v.lhs, 30), "rhs": mpmath.nstr(v.rhs, 30),
            "margin": mpmath.nstr(v.margin, 20), "certain_margin": float(v.certain_margin),
            "bracketed": v.bracketed, "tol": v.tol, "violated": is_violation(v.certain_margin, v.tol),
        })
    return {
        "version": 1, "claim": claim.id, "role": role, "family": p.family.name,
        "statement": claim.statement_text(), "description": p.family.describe(p.subject),
        "subject": p.family.to_json(p.subject), "dps": p.dps, "seed": seed,
        "found_by": p.found_by, "parts": parts,
    }


def family_by_name(claim: Claim, name: str) -> SubjectFamily:
    for fam in claim.subjects:
        if fam.name == name:
            return fam
    raise KeyError(f"claim {claim.id} has no subject family named {name!r}")


def replay(data: dict[str, Any], claim: Claim) -> Probe:
    """Re-evaluate a saved witness in high precision."""
    family = family_by_name(claim, data["family"])
    subject = family.from_json(data["subject"])
    return probe(claim, family, subject, found_by=data.get("found_by", "witness"), force_confirm=True)


def recorded_witness(claim: Claim) -> dict[str, Any] | None:
    if claim.known_refutation is None:
        return None
    path = WITNESS_DIR / claim.known_refutation
    return json.loads(path.read_text()) if path.exists() else None


def check_claim(claim: Claim, budget: Budget | None = None, seed: int = 0,
                witness_dir: Path | None = None, artifact_dir: Path | None = None) -> ClaimResult:
    """Run every check on ``claim`` and return its verdict with the evidence."""
    budget = budget or Budget()
    start = time.perf_counter()
    result = ClaimResult(
        id=claim.id, kind=claim.kind.value, source=str(claim.source),
        statement=claim.statement_text(), verdict=Verdict.UNTESTED, seed=seed,
    )
    if claim.not_encodable is not None and not claim.statement:
        result.verdict = Verdict.NOT_ENCODABLE
        result.reason = claim.not_encodable
        result.expected = True
        result.seconds = time.perf_counter() - start
        return result

    if claim.experiment is not None and not claim.statement:
        outcome = claim.experiment(seed, budget.quick_exhaustive, artifact_dir)
        result.verdict = outcome.verdict
        result.experiment = outcome.to_json()
        result.reason = f"{outcome.statistic} = {outcome.value:.4g}; effect size {outcome.effect_size:.4g}, " \
                        f"interval [{outcome.interval[0]:.4g}, {outcome.interval[1]:.4g}] " \
                        f"({outcome.interval_note}); seeds {outcome.seeds}"
        result.artifacts = [outcome.markdown] if outcome.markdown else []
        _judge_expected(claim, result, None, None)
        result.seconds = time.perf_counter() - start
        return result

    certificates: list[Certificate] = [timed(c) for c in claim.certificates]
    tracker = _Tracker(claim)
    families = claim.subjects
    for i, family in enumerate(families):
        share = budget.examples // max(1, len(families))
        if share > 0 and family.strategy() is not None:
            _random_search(claim, family, share, seed + 7919 * i, tracker)
        for subject in family.exhaustive(quick=budget.quick_exhaustive):
            if claim.hypotheses_hold(subject) and applicable_parts(claim, subject):
                tracker.record(tracker.probe(family, subject, found_by="exhaustive"))
        _adversarial_search(claim, family, budget, seed + 104729 * i, tracker)

    recorded = recorded_witness(claim)
    replayed = replay(recorded, claim) if recorded is not None else None
    if replayed is not None and replayed.violated:
        replayed.found_by = "recorded witness"
        tracker.violations.append(replayed)

    _fill_stats(result, tracker, families)
    result.certificate = [c.to_json() for c in certificates] or None
    result.part_status = part_status(claim, certificates, tracker)
    proved = all(status == "certified" for status in result.part_status.values())

    if tracker.violations:
        result.verdict = Verdict.REFUTED
        smallest = min(
            ([tracker.hypothesis_minimal] if tracker.hypothesis_minimal else []) + tracker.violations,
            key=lambda p: (p.family.size(p.subject), -p.worst_margin),
        )
        minimal = _shrink(claim, smallest, budget.shrink_tries, tracker)
        worst = max(tracker.violations + [minimal], key=lambda p: float(p.worst_margin))
        result.witness = witness_json(claim, minimal, seed, "minimal")
        result.worst_violation = witness_json(claim, worst, seed, "worst")
        if witness_dir is not None:
            witness_dir.mkdir(parents=True, exist_ok=True)
            (witness_dir / f"{claim.id}.json").write_text(json.dumps(result.witness, indent=2))
            (witness_dir / f"{claim.id}.worst.json").write_text(json.dumps(result.worst_violation, indent=2))
    elif proved and certificates:
        result.verdict = Verdict.PROVED
    elif tracker.examples + tracker.adversarial > 0:
        result.verdict = Verdict.CONSISTENT
    else:
        result.verdict = Verdict.UNTESTED
        result.reason = "no drawn subject satisfied the hypotheses"

    _judge_expected(claim, result, recorded, replayed)
    if artifact_dir is not None:
        result.artifacts = [make(artifact_dir, seed, budget.quick_exhaustive) for make in claim.artifacts]
    result.seconds = time.perf_counter() - start
    return result


def part_status(claim: Claim, certificates: list[Certificate], tracker: "_Tracker") -> dict[str, str]:
    """Per part: refuted (a confirmed violation), certified (an ok certificate covers it),
    tested (evaluated on some subject), or unchecked."""
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
            status[label] = "refuted"
        elif label in covered:
            status[label] = "certified"
        elif label in tracker.parts:
            status[label] = "tested" + (" (certified on a range)" if label in partial else "")
        else:
            status[label] = "unchecked"
    return status


def _fill_stats(result: ClaimResult, tracker: _Tracker, families: tuple[SubjectFamily, ...]) -> None:
    result.examples = tracker.examples
    result.adversarial_examples = tracker.adversarial
    result.rejected = tracker.rejected
    result.candidates = tracker.candidates
    result.float_screen = {"audited": tracker.screen_audits, "max_error_in_tol": tracker.screen_max_error,
                           "unreliable": tracker.screen_unreliable, "unstable_candidates": tracker.unstable,
                           "skipped_large_subjects": tracker.screen_skipped,
                           "unconfirmed_after_refutation": tracker.unconfirmed}
    result.subjects = dict(tracker.per_family)
    result.subject_kinds = {f.name: f.origin for f in families}
    result.parts = [s for k, s in tracker.parts.items() if not k.startswith("_")]
    slacks = [s.min_slack for s in result.parts if math.isfinite(s.min_slack)]
    ratios = [s.worst_ratio for s in result.parts if s.worst_ratio is not None]
    result.min_slack = min(slacks) if slacks else None
    result.worst_ratio = max(ratios) if ratios else None


def _judge_expected(claim: Claim, result: ClaimResult, recorded: dict[str, Any] | None,
                    replayed: Probe | None) -> None:
    if claim.known_refutation is not None:
        still = replayed is not None and replayed.violated
        result.expected = result.verdict == Verdict.REFUTED and still
        result.expected_note = (
            f"recorded refutation (theorems/witnesses/{claim.known_refutation})"
            + ("; the recorded witness still refutes" if still else "; the recorded witness NO LONGER refutes")
        )
        return
    result.expected = result.verdict.value in claim.expect
    if not result.expected:
        result.expected_note = (f"unexpected verdict {result.verdict.value}: the repository expects "
                                f"{' or '.join(claim.expect)}")
