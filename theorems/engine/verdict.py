"""Verdicts, part statuses, and the result of checking one claim.

A verdict is never a bare bool:

* ``proved``: every part is certified on the claim's whole domain and no numeric violation;
* ``consistent``: subjects satisfying the hypotheses were tried, none violated the statement;
  reports the count, the smallest slack and the worst ratio;
* ``refuted``: a violation confirmed in high precision, shrunk, saved so it replays;
* ``not_encodable``: the source leaves something unspecified (the reason is given);
* ``untested``: no drawn subject satisfied the hypotheses, every subject tried was
  uninformative (both sides equal by construction), an experiment ran outside its theorem's
  regime, or an existence claim found no witness at the settings tried -- never "consistent";
* ``vacuous``: the bound can never bind on the tested domain -- its larger side never drops
  below the smaller side's trivial bound (an error rate's 1, a cosine's 1, a declared range); the
  reason says why, and a certificate proves it where one can;
* ``inconclusive``: a statistical (experiment) claim whose effect and its opposite are both
  inside the measured interval;
* ``definition``: a numbered definition that asserts nothing to check (it is listed, with what it
  defines; a definition that asserts a property is a claim with one of the verdicts above);
* ``error``: the check itself failed (a quantity raised, a certificate crashed, the claim's time
  limit passed); the reason names the exception and where it happened. Other claims are unaffected.

Every verdict is decided by the verdict authority, :mod:`theorems.engine.rules` (the gate too:
:mod:`theorems.engine.rules.gate`); this module holds the vocabulary and the result. ``untested`` and
``inconclusive`` are *undecided* (:data:`UNDECIDED`).

A subject is *informative* for a part when the check could fail on it: not both sides equal by
construction (a part's declared ``informative`` predicate), and, for an inequality, the bound
strictly inside the trivial range of the quantity it bounds.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
from typing import Any


class Verdict(str, enum.Enum):
    PROVED = "proved"
    CONSISTENT = "consistent"
    REFUTED = "refuted"
    NOT_ENCODABLE = "not_encodable"
    UNTESTED = "untested"
    VACUOUS = "vacuous"
    INCONCLUSIVE = "inconclusive"
    DEFINITION = "definition"
    ERROR = "error"

    def __bool__(self) -> bool:  # like sympy relations: no silent truthiness
        raise TypeError("a Verdict is not a bool: compare it with Verdict.<NAME>")


UNDECIDED = frozenset({Verdict.UNTESTED, Verdict.INCONCLUSIVE})  # neither holds nor fails: see the gate above


class PartStatus(str, enum.Enum):
    """How far one part of a statement was checked."""

    CERTIFIED = "certified"  # a certificate covers it on the claim's whole domain
    CERTIFIED_ON_RANGE = "certified on a range"  # certified on a finite range, tested beyond it
    TESTED = "tested"  # evaluated on informative subjects, no violation
    TRIVIAL = "tested on uninformative subjects only"  # evaluated, but it could not have failed there
    REFUTED = "refuted"  # a confirmed violation
    UNCHECKED = "unchecked"  # nothing evaluated it

    def __bool__(self) -> bool:
        raise TypeError("a PartStatus is not a bool: compare it with PartStatus.<NAME>")


@dataclass
class Extremes:
    """The smallest slack and the worst ratio (smaller side / larger side) over some examples."""

    min_slack: float = float("inf")
    worst_ratio: float | None = None
    min_slack_subject: str = ""
    worst_ratio_subject: str = ""

    def record(self, slack: float, ratio: float | None, subject: str) -> None:
        slack = slack + 0.0  # no "-0" in reports
        if slack < self.min_slack:
            self.min_slack = slack
            self.min_slack_subject = subject
        if ratio is not None and (self.worst_ratio is None or ratio > self.worst_ratio):
            self.worst_ratio = ratio
            self.worst_ratio_subject = subject


@dataclass
class PartStats(Extremes):
    """One statement part over every example: extremes over all subjects, and over the
    informative ones only (``informative``), with the reasons the others could not fail."""

    label: str = ""
    examples: int = 0
    nontrivial_examples: int = 0
    informative: Extremes = field(default_factory=Extremes)
    trivial_reasons: dict[str, int] = field(default_factory=dict)  # why a subject was uninformative
    smallest_bound: float | None = None  # the smallest larger side seen (how close the bound came to binding)

    def record_value(self, slack: float, ratio: float | None, subject: str, trivial: str | None,
                     bound: float | None) -> None:
        self.examples += 1
        self.record(slack, ratio, subject)
        if bound is not None and (self.smallest_bound is None or bound < self.smallest_bound):
            self.smallest_bound = bound
        if trivial is None:
            self.nontrivial_examples += 1
            self.informative.record(slack, ratio, subject)
        else:
            self.trivial_reasons[trivial] = self.trivial_reasons.get(trivial, 0) + 1


@dataclass
class ClaimResult:
    """Everything the audit reports about one claim."""

    id: str
    kind: str
    source: str
    statement: str
    verdict: Verdict
    examples: int = 0
    rejected: int = 0
    adversarial_examples: int = 0
    candidates: int = 0
    float_screen: dict[str, Any] = field(default_factory=dict)
    min_slack: float | None = None
    worst_ratio: float | None = None
    nontrivial_examples: int = 0  # subjects informative for at least one part
    informative_min_slack: float | None = None
    informative_worst_ratio: float | None = None
    parts: list[PartStats] = field(default_factory=list)
    part_status: dict[str, PartStatus] = field(default_factory=dict)
    subjects: dict[str, int] = field(default_factory=dict)  # family name -> examples
    subject_kinds: dict[str, str] = field(default_factory=dict)  # family -> random / learned
    witness: dict[str, Any] | None = None
    worst_violation: dict[str, Any] | None = None
    certificate: list[dict[str, Any]] | None = None
    proof_chains: list[dict[str, Any]] = field(default_factory=list)  # the printed proofs' certification
    artifacts: list[str] = field(default_factory=list)  # markdown sections (tables, plots)
    experiment: dict[str, Any] | None = None  # ExperimentOutcome.to_json() for experiment claims
    expected: bool = True
    expected_note: str = ""
    reason: str = ""
    qualifiers: list[str] = field(default_factory=list)  # e.g. "checker-derived constant: ..."
    modulo: list[str] = field(default_factory=list)  # proved, resting on these named results unproved
    seconds: float = 0.0
    seed: int = 0
    # the logical form (theorems.engine.logic): the prefix in printed order, every reading with its
    # hypotheses and verdict (the literal one first: the headline), and whether decided readings disagree
    tightness: list[dict[str, Any]] = field(default_factory=list)  # per inequality part: best ratio, witness, sharp
    # asymptotic parts along witness families (theorems.engine.asymptotic): ratio, limit or fit, validity, verdict
    asymptotic: list[dict[str, Any]] = field(default_factory=list)
    # reachability of the conclusion and the data adversary's sets (theorems.engine.reach): bounds, verdicts
    reach: list[dict[str, Any]] = field(default_factory=list)
    one_sided: str = ""  # a consistent experiment that could not have refuted its statement: why (counted apart)
    reconstructed: str = ""  # the statement checked is the checker's reconstruction: what was inferred, from what
    qualitative: str = ""  # only the surviving qualitative content of a partly lost statement is checked: which
    by_construction: str = ""  # checks that hold by the checker's own construction (no evidence): why each holds
    # CPU seconds from the check's start to its first confirmed violation: for benchmarks, not in the report (two
    # identical audits' reports must not differ by it)
    first_violation_seconds: float | None = None
    prefix: list[dict[str, Any]] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)
    reading_sensitive: bool = False
    rule: str = ""  # the rule of the verdict authority (theorems.engine.rules) that decided the verdict
    reused: bool = False  # taken from the verdict store after its evidence replayed (theorems.frontend.store)

    @property
    def verdict_label(self) -> str:
        """The verdict as shown: ``proved (modulo: Jensen's inequality)`` when a proof rests on named results
        that are not themselves proved."""
        if self.verdict == Verdict.PROVED and self.modulo:
            label = f"proved (modulo: {', '.join(self.modulo)})"
        elif self.verdict == Verdict.CONSISTENT and self.one_sided:
            label = f"consistent (one-sided: {self.one_sided})"
        else:
            label = self.verdict.value
        label += f" (qualitative: {self.qualitative})" if self.qualitative else ""
        label += f" (reconstructed: {self.reconstructed})" if self.reconstructed else ""
        return label + (f" (checks by construction, no evidence: {self.by_construction})" if self.by_construction else "")

    @property
    def marks(self) -> list[str]:
        """The marks that qualify the verdict, in the order the label shows them (each is counted apart): modulo,
        one-sided, qualitative, reconstructed, by construction."""
        shown = {"modulo": self.verdict == Verdict.PROVED and bool(self.modulo),
                 "one-sided": self.verdict == Verdict.CONSISTENT and bool(self.one_sided),
                 "qualitative": bool(self.qualitative), "reconstructed": bool(self.reconstructed),
                 "by construction": bool(self.by_construction)}
        return [name for name, on in shown.items() if on]

    @property
    def undecided(self) -> bool:
        """Neither evidence for nor against the claim (untested, inconclusive)."""
        return self.verdict in UNDECIDED

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("first_violation_seconds")
        d["undecided"] = self.undecided
        d["verdict_label"] = self.verdict_label
        d["marks"] = self.marks
        d["verdict"] = self.verdict.value
        d["part_status"] = {k: PartStatus(v).value for k, v in self.part_status.items()}
        return d

    @staticmethod
    def from_json(data: dict[str, Any]) -> "ClaimResult":
        """The result :meth:`to_json` wrote (the verdict store reads it back): derived fields dropped, the verdict,
        part statuses and part statistics rebuilt; an unknown field is a KeyError."""
        d = {k: v for k, v in data.items() if k not in ("undecided", "verdict_label", "marks")}
        d["verdict"] = Verdict(d["verdict"])
        d["part_status"] = {k: PartStatus(v) for k, v in d.get("part_status", {}).items()}
        d["parts"] = [PartStats(**{**p, "informative": Extremes(**p["informative"])}) for p in d.get("parts", [])]
        unknown = set(d) - {f for f in ClaimResult.__dataclass_fields__}
        if unknown:
            raise KeyError(f"unknown result fields {sorted(unknown)}")
        return ClaimResult(**d)
