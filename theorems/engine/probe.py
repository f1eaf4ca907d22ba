"""Evaluate a claim on one subject: the float64 screen, the high-precision confirmation, and
the bookkeeping over every subject a check tries (see :mod:`theorems.engine.rules.compare`)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy

from numerics.backend import FLOAT, mp_backend
from numerics.errors import PrecisionUnavailable
from theorems.engine.claim import Part, StatementClaim
from theorems.engine.expression import canonical, constant_paths, scaled_at
from theorems.engine.evaluate import PartValue, applicable_parts, evaluate_parts, needed_symbols
from theorems.engine.rules.informative import bound_value, trivial_reason
from theorems.engine.culprit import blame, check_number, check_pure
from theorems.engine.errors import UndefinedValue
from theorems.engine.rules.compare import (CONFIRM_DPS, CONFIRMED, FINER, HOLDS, MAX_DPS, confirmation, is_candidate,
                                           is_violation, same_margin)
from theorems.engine.verdict import PartStats
from theorems.engine.family import SubjectFamily

SCREEN_AUDIT_EVERY = 10
ENOUGH_VIOLATIONS = 3  # after this many confirmed violations, large subjects are not confirmed, and a part violated
# this many times is not settled again by doubling the precision on a subject a search only records
KEEP_BEST = 3  # per part, the subjects with the largest ratio kept for the tightness search
DEGENERATE_BAND = 1e-9  # a ratio this close to 1 is an equality case: is it one whatever the part's constants?
PERTURBATION = sympy.Rational(1001, 1000)  # how far a constant is moved to see whether the ratio depends on it
KEEP_UNDECIDED = 3  # the undecided candidates a report names
PURE_CHECKS = 2  # per family, the first subjects on which every quantity is evaluated twice (and every violated one)


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
    unconfirmable: str = ""  # why a candidate has no high-precision value (PrecisionUnavailable's message)
    # violated at CONFIRM_DPS digits only, never doubled: every part it violates was confirmed violated
    # ENOUGH_VIOLATIONS times already (a subject a search only records); no counterexample by itself
    provisional: bool = False

    @property
    def candidate(self) -> bool:
        return any(is_candidate(v.margin, v.tol, v.part.is_identity) for v in self.values)

    @property
    def violated(self) -> bool:
        return (self.confirmed is not None and not self.unstable and not self.provisional
                and any(is_violation(v.certain_margin, v.tol) for v in self.confirmed))

    @property
    def violated_parts(self) -> set[str]:
        """The labels of the parts its high-precision values violate (at whatever precision they were taken)."""
        return {str(v.part) for v in self.confirmed or [] if is_violation(v.certain_margin, v.tol)}

    @property
    def best(self) -> list[PartValue]:
        """Each part's high-precision value where it was confirmed, its float value otherwise."""
        confirmed = {id(v.part): v for v in self.confirmed or []}
        return [confirmed.get(id(v.part), v) for v in self.values]

    @property
    def worst_margin(self) -> float:
        return max(v.margin for v in self.best)


def evaluate(claim: StatementClaim, family: SubjectFamily, subject: Any, dps: int | None = None,
             parts: list[Part] | None = None) -> list[PartValue]:
    """The applicable parts of ``claim`` (or just ``parts``) on ``subject``: float64, or mpmath
    at ``dps`` digits."""
    xp = FLOAT if dps is None else mp_backend(dps)
    parts = applicable_parts(claim, subject) if parts is None else parts
    symbols = needed_symbols(parts)

    def where() -> str:
        return f"on the subject {family.describe(subject)[:200]} of family {family.name!r} ({xp.name})"

    with xp.precision():
        values = blame(f"computing {', '.join(s.name for s in symbols)}",
                       lambda: family.quantities(subject, symbols, xp), where)
        for s in symbols:
            check_number(s.name, values[s], where)
        return evaluate_parts(parts, values, xp, where)


def probe(claim: StatementClaim, family: SubjectFamily, subject: Any, found_by: str = "random",
          force_confirm: bool = False, confirm: bool = True, refuted: frozenset[str] = frozenset()) -> Probe:
    """Evaluate in float64; confirm in high precision the parts whose float margin asks for it
    (every part when ``force_confirm``). A violation at CONFIRM_DPS digits of ``refuted`` parts only (labels of parts
    already confirmed violated often enough) is left provisional instead of settled by :func:`stabilize`.

    A side without a real value (NaN, complex) in high precision -- or in float64 where there is
    no high-precision twin -- raises :class:`UndefinedValue` naming the part, the quantities, the
    subject and the backend: no verdict may rest on it."""
    with np.errstate(all="ignore"):
        result = Probe(family, subject, evaluate(claim, family, subject), found_by=found_by)
    suspects = [v.part for v in result.values
                if confirm and (force_confirm or is_candidate(v.margin, v.tol, v.part.is_identity))]
    if suspects:
        try:
            result.confirmed = evaluate(claim, family, subject, dps=CONFIRM_DPS, parts=suspects)
        except PrecisionUnavailable as exc:
            _refuse_undefined(result.values, family, subject, "float64 (no high-precision evaluation exists)")
            result.unconfirmable = str(exc) or "no high-precision evaluation exists"
            return result  # the candidate stays undecided: the claim is then inconclusive, never consistent
        result.dps = CONFIRM_DPS
        _refuse_undefined(result.confirmed, family, subject, f"mpmath at {CONFIRM_DPS} digits")
        if result.violated:
            if result.violated_parts <= refuted:
                result.provisional = True
            else:
                stabilize(claim, result)
    return result


def _refuse_undefined(values: list[PartValue], family: SubjectFamily, subject: Any, backend: str) -> None:
    for v in values:
        if v.undefined is not None:
            raise UndefinedValue(f"{v.undefined}, on the subject {family.describe(subject)} of family "
                                 f"{family.name!r}, in {backend}")


def stabilize(claim: StatementClaim, result: Probe) -> None:
    """Keep a violation only if its margins survive doubling the precision.

    60 digits are not always enough: for u = 660, v_2 = sigma(u) = 1 - e^-660 rounds to 1
    and -log(1 - v_2) becomes inf. The margins of the violated parts at dps and 2 dps must
    agree (to 1e-6 relative, or within the tolerance); otherwise the precision is doubled,
    up to MAX_DPS. An infinite margin (a side decided at +-inf) proves nothing by agreeing once --
    a rounding that made it infinite at 60 digits makes it infinite at 120 -- so it must stay the
    same infinity at every precision up to MAX_DPS. A violation that never stabilizes is not a
    counterexample.
    """
    parts = [v.part for v in result.confirmed]
    while result.dps * 2 <= MAX_DPS:
        dps = result.dps * 2
        finer = evaluate(claim, result.family, result.subject, dps=dps, parts=parts)
        _refuse_undefined(finer, result.family, result.subject, f"mpmath at {dps} digits")
        state = confirmation(result.confirmed, finer, last=dps * 2 > MAX_DPS, dps=dps)
        result.confirmed, result.dps = finer, dps
        if state != FINER:
            result.unstable = state not in (CONFIRMED, HOLDS)
            return
    result.unstable = True  # (unreachable: the last doubling always decides)


def _shape(p: Probe) -> tuple | None:
    """A subject's shape as its family measures it (dimensions, classes, nonzero entries), with the family: two best
    subjects of one shape are one local optimum. None for a family that measures none (each subject its own)."""
    try:
        size = tuple(p.family.size(p.subject))
    except Exception:  # noqa: BLE001 - a family that cannot measure this subject: no shape
        return None
    return (p.family.name, size) if size else None


@dataclass
class Tracker:
    """Statistics over every example of one claim's check, and the confirmed violations.

    The float screen is audited: every SCREEN_AUDIT_EVERY-th example is re-evaluated in high
    precision even when it is no candidate; if float and mpmath margins ever differ by more
    than tol/2, the screen is unreliable for this claim and everything is confirmed.
    """

    claim: StatementClaim
    examples: int = 0
    adversarial: int = 0
    nontrivial: int = 0  # subjects informative for at least one part
    rejected: int = 0
    candidates: int = 0
    per_family: dict[str, int] = field(default_factory=dict)
    parts: dict[str, PartStats] = field(default_factory=dict)
    violations: list[Probe] = field(default_factory=list)
    hypothesis_minimal: Probe | None = None
    undecided: list[str] = field(default_factory=list)  # candidates no high-precision value could decide (a few)
    pure_checked: dict[str, int] = field(default_factory=dict)  # family -> subjects checked for pure quantities
    search_notes: list[str] = field(default_factory=list)  # e.g. hypothesis: Unsatisfiable
    seen: int = 0
    screen_audits: int = 0
    screen_max_error: float = 0.0  # max |float margin - mp margin| / tol over audited examples
    screen_unreliable: bool = False
    unstable: int = 0  # candidates whose high-precision margin never stabilized
    screen_skipped: int = 0  # screen audits skipped: the subject is too large for mpmath
    unconfirmed: int = 0  # candidates left unconfirmed (no high-precision twin, or already refuted)
    best: dict[str, list[tuple[float, Probe]]] = field(default_factory=dict)  # part -> its best ratios, largest first
    # part -> subjects at an equality that holds whatever one of the part's constants (a zero encoder, a single class):
    # they say nothing of how sharp that constant is, so they are kept apart from the best ratios (and still confirmed)
    degenerate: dict[str, list[tuple[float, Probe]]] = field(default_factory=dict)
    _perturbed: dict[str, list[Part]] = field(default_factory=dict)  # part -> its copies, one constant moved
    started: float = field(default_factory=time.process_time)  # CPU clock when the check began
    first_violation_cpu: float | None = None  # CPU seconds from the start to the first confirmed violation

    def best_for(self, label: str) -> list[Probe]:
        """The informative subjects with the largest ratio of part ``label`` seen so far (largest first)."""
        return [p for _, p in self.best.get(label, [])]

    def probe(self, family: SubjectFamily, subject: Any, found_by: str = "random", always: bool = False,
              record_only: bool = False) -> Probe:
        """Screen ``subject`` in float64 and confirm its candidates; ``always``: evaluate it at high precision
        whatever the screen says (a listed example, a shrink proposal), where it is cheap to. ``record_only``: the
        search only records this subject (no step depends on whether it violates), so a violation of parts already
        confirmed violated ENOUGH_VIOLATIONS times is left provisional (an unconfirmed candidate), not settled up to
        MAX_DPS digits again."""
        self.seen += 1
        force = always or self.screen_unreliable or self.seen % SCREEN_AUDIT_EVERY == 0
        cheap = family.cheap_to_confirm(subject)
        if force and not cheap:
            force, self.screen_skipped = False, self.screen_skipped + 1
        if not cheap and len(self.violations) >= ENOUGH_VIOLATIONS:
            # the claim is already refuted several times over: a large subject's float
            # candidate is recorded as unconfirmed instead of paying for mpmath again
            p = probe(self.claim, family, subject, found_by, confirm=False)
            if not any(math.isnan(v.margin) for v in p.values):  # a NaN is always looked at closer
                self.unconfirmed += int(p.candidate)
                return p
        early = cheap and self.pure_checked.get(family.name, 0) < PURE_CHECKS
        if early:  # before anything evaluates the subject: an edit a quantity makes is seen on the copies
            self.pure_checked[family.name] = self.pure_checked.get(family.name, 0) + 1
            self._check_pure(family, subject, (FLOAT, mp_backend(CONFIRM_DPS)))
        p = probe(self.claim, family, subject, found_by, force_confirm=force,
                  refuted=self.refuted_enough() if record_only else frozenset())
        if p.violated and cheap and not early:  # every confirmed violation rests on pure quantities
            self._check_pure(family, subject, (mp_backend(CONFIRM_DPS),))
        if (p.candidate and p.confirmed is None) or p.provisional:
            self.unconfirmed += 1
            if p.unconfirmable and len(self.undecided) < KEEP_UNDECIDED:
                self.undecided.append(f"{family.describe(p.subject)[:200]} ({p.unconfirmable})")
        if p.confirmed is not None:
            self.screen_audits += 1
            floats = {id(v.part): v for v in p.values}
            for h in p.confirmed:  # the float screen's error, in units of its own (float) tolerance
                f = floats[id(h.part)]
                err = 0.0 if same_margin(f.margin, h.margin, 0.0) else abs(f.margin - float(h.margin)) / max(f.tol, 1e-300)
                if not math.isnan(err):
                    self.screen_max_error = max(self.screen_max_error, err)
                if err > 0.5 or math.isnan(err):
                    self.screen_unreliable = True
        return p

    def refuted_enough(self) -> frozenset[str]:
        """The labels of the parts confirmed violated on ENOUGH_VIOLATIONS subjects or more."""
        counts: dict[str, int] = {}
        for v in self.violations:
            for label in v.violated_parts:
                counts[label] = counts.get(label, 0) + 1
        return frozenset(label for label, n in counts.items() if n >= ENOUGH_VIOLATIONS)

    def record(self, p: Probe, adversarial: bool = False) -> None:
        if adversarial:
            self.adversarial += 1
        else:
            self.examples += 1
        self.per_family[p.family.name] = self.per_family.get(p.family.name, 0) + 1
        self.candidates += int(p.candidate)
        self.unstable += int(p.unstable)
        desc = p.family.describe(p.subject)
        informative = False
        for v in p.best:
            label = str(v.part)
            stats = self.parts.setdefault(label, PartStats(label=label))
            trivial = trivial_reason(v.part, v, p.family, p.subject)
            informative |= trivial is None
            stats.record_value(float(v.slack), v.ratio, desc, trivial, bound_value(v.part, v))
            if trivial is None and v.ratio is not None and math.isfinite(v.ratio):
                self._keep_best(label, float(v.ratio), p)
        self.nontrivial += int(informative)
        if p.violated:
            self.violations.append(p)
            if self.first_violation_cpu is None:
                self.first_violation_cpu = time.process_time() - self.started

    def _check_pure(self, family: SubjectFamily, subject: Any, backends: tuple[Any, ...]) -> None:
        symbols = needed_symbols(applicable_parts(self.claim, subject))
        for xp in backends:
            check_pure(family, subject, symbols, xp)

    def confirm_best(self) -> None:
        """Each part's best subjects, evaluated at high precision where the float screen left them (the screen only
        orders the work: a subject closest to binding is never judged on its float values alone)."""
        for kept in [*self.best.values(), *self.degenerate.values()]:
            for i, (ratio, p) in enumerate(kept):
                if p.confirmed is None and not p.unconfirmable and p.family.cheap_to_confirm(p.subject):
                    q = self.probe(p.family, p.subject, found_by=p.found_by, always=True)
                    kept[i] = (ratio, q)
                    if q.violated and not any(v.subject is q.subject for v in self.violations):
                        self.violations.append(q)

    def _keep_best(self, label: str, ratio: float, p: Probe) -> None:
        """Keep the KEEP_BEST probes with the largest ratio of a part, one per shape of subject (the tightness search's
        starts: distinct local optima; the report's best-ratio witness); an equality case that holds whatever one of the part's constants goes to
        ``degenerate`` instead (kept and confirmed all the same)."""
        if abs(ratio - 1.0) <= DEGENERATE_BAND and self._insensitive(label, ratio, p):
            kept = self.degenerate.setdefault(label, [])
            if len(kept) < KEEP_BEST:
                kept.append((ratio, p))
            return
        kept = self.best.setdefault(label, [])
        shape = _shape(p)
        rival = next((i for i, (_, q) in enumerate(kept) if shape is not None and _shape(q) == shape), None)
        if rival is not None:  # one local optimum per shape (dimensions, support): distinct starts for the climb
            if ratio > kept[rival][0]:
                kept[rival] = (ratio, p)
                kept.sort(key=lambda rp: -rp[0])
            return
        if len(kept) < KEEP_BEST or ratio > kept[-1][0]:
            kept.append((ratio, p))
            kept.sort(key=lambda rp: -rp[0])
            del kept[KEEP_BEST:]

    def _insensitive(self, label: str, ratio: float, p: Probe) -> bool:
        """Whether the part's ratio on ``p``'s subject stays where it is when one of its numeric constants or
        exponents moves by 0.1 %: an equality there says nothing of that constant (False for a part without
        constants, or where a moved part is undefined)."""
        if label not in self._perturbed:
            part = next((q for q in self.claim.statement if str(q) == label), None)
            self._perturbed[label] = [] if part is None else [
                Part(scaled_at(canonical(part), path, PERTURBATION), label, part.applies, part.informative)
                for path in constant_paths(part)]
        moved = self._perturbed[label]
        if not moved:
            return False
        try:
            values = evaluate_parts(moved, p.family.quantities(p.subject, needed_symbols(moved), FLOAT), FLOAT)
        except Exception:  # noqa: BLE001 - a moved part undefined here: not shown insensitive
            return False
        return any(v.ratio is not None and abs(float(v.ratio) - ratio) <= DEGENERATE_BAND for v in values)

    def screen_report(self) -> dict[str, Any]:
        return {"audited": self.screen_audits, "max_error_in_tol": self.screen_max_error,
                "unreliable": self.screen_unreliable, "unstable_candidates": self.unstable,
                "skipped_large_subjects": self.screen_skipped,
                "unconfirmed_candidates": self.unconfirmed}
