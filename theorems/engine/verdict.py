"""Verdicts, part statuses, and the result of checking one claim.

A verdict is never a bare bool:

* ``proved``: every part is certified on the claim's whole domain and no numeric violation;
* ``consistent``: subjects satisfying the hypotheses were tried, none violated the statement;
  reports the count, the smallest slack and the worst ratio;
* ``refuted``: a violation confirmed in high precision, shrunk, saved so it replays;
* ``not_encodable``: the source leaves something unspecified (the reason is given);
* ``untested``: no drawn subject satisfied the hypotheses -- never "consistent";
* ``inconclusive``: a statistical (experiment) claim whose effect and its opposite are both
  inside the measured interval.
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
    INCONCLUSIVE = "inconclusive"

    def __bool__(self) -> bool:  # like sympy relations: no silent truthiness
        raise TypeError("a Verdict is not a bool: compare it with Verdict.<NAME>")


class PartStatus(str, enum.Enum):
    """How far one part of a statement was checked."""

    CERTIFIED = "certified"  # a certificate covers it on the claim's whole domain
    CERTIFIED_ON_RANGE = "certified on a range"  # certified on a finite range, tested beyond it
    TESTED = "tested"  # evaluated on subjects, no violation
    REFUTED = "refuted"  # a confirmed violation
    UNCHECKED = "unchecked"  # nothing evaluated it

    def __bool__(self) -> bool:
        raise TypeError("a PartStatus is not a bool: compare it with PartStatus.<NAME>")


@dataclass
class PartStats:
    """Extremes of one statement part over all examples."""

    label: str
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
    parts: list[PartStats] = field(default_factory=list)
    part_status: dict[str, PartStatus] = field(default_factory=dict)
    subjects: dict[str, int] = field(default_factory=dict)  # family name -> examples
    subject_kinds: dict[str, str] = field(default_factory=dict)  # family -> random / learned
    witness: dict[str, Any] | None = None
    worst_violation: dict[str, Any] | None = None
    certificate: list[dict[str, Any]] | None = None
    artifacts: list[str] = field(default_factory=list)  # markdown sections (tables, plots)
    experiment: dict[str, Any] | None = None  # ExperimentOutcome.to_json() for experiment claims
    expected: bool = True
    expected_note: str = ""
    reason: str = ""
    seconds: float = 0.0
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict.value
        d["part_status"] = {k: PartStatus(v).value for k, v in self.part_status.items()}
        return d
