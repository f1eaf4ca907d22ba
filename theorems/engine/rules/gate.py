"""Readings and the gate: the headline, reading-sensitivity, what the repository expects, pass or fail.

The gate (the audit's exit code, a claim's pytest item): a claim fails when its verdict is not the one the
repository expects -- proved or consistent for a claim with no recorded refutation; refuted, with the
recorded witness still refuting on replay, for a claim recorded as refuted; vacuous for a claim carrying a
vacuity certificate. ``untested`` and ``inconclusive`` are *undecided*: reported, a pytest skip, a failure
only under ``--strict``.
"""

from __future__ import annotations

from typing import Any, Sequence

from theorems.engine.rules.table import rule
from theorems.engine.verdict import UNDECIDED, Verdict

#: the verdicts that say the statement holds, fails or cannot bind: readings disagree when they fall in
#: two of these classes (an undecided reading disagrees with nothing)
OUTCOME = {"proved": "holds", "consistent": "holds", "refuted": "fails", "vacuous": "vacuous"}


@rule("reading.disagree")
def disagree(verdicts: Sequence[str]) -> bool:
    """A claim is reading-sensitive when its decided readings give different outcomes (holds: proved or
    consistent; fails: refuted; vacuous); undecided readings disagree with nothing."""
    return len({OUTCOME[v] for v in verdicts if v in OUTCOME}) > 1


@rule("gate.expected")
def expected(verdict: Verdict, recorded_refutation: bool, still_refutes: bool, recorded_vacuity: bool,
             recorded_path: str = "") -> tuple[bool, str]:
    """Whether the verdict is the one the repository records, and why: an undecided verdict is expected whatever is
    recorded (it is the absence of evidence: reported, not a failure unless strict -- a recorded refutation this run
    could not reproduce either way, such as a quick profile's inconclusive run, included); a recorded refutation
    expects refuted with its witness still refuting; a vacuity certificate expects vacuous; otherwise proved or
    consistent."""
    if recorded_refutation and verdict in UNDECIDED:
        return True, (f"undecided ({verdict.value}): this run neither reproduces nor contradicts the recorded refutation "
                      f"({recorded_path}); not a failure unless --strict")
    if recorded_refutation:
        note = (f"recorded refutation ({recorded_path})" + ("; the recorded witness still refutes" if still_refutes
                                                            else "; the recorded witness NO LONGER refutes"))
        return verdict == Verdict.REFUTED and still_refutes, note
    if verdict == Verdict.VACUOUS and recorded_vacuity:
        return True, ("recorded as vacuous: the repository holds a certificate that the bound cannot bind or that "
                      "the hypotheses cannot hold together")
    if verdict in UNDECIDED:
        return True, f"undecided ({verdict.value}): reported with its reason; not a failure unless --strict"
    if verdict in (Verdict.PROVED, Verdict.CONSISTENT):
        return True, ""
    if verdict == Verdict.ERROR:
        return False, "the check failed with an error: the claim was not checked"
    return False, f"unexpected verdict {verdict.value}: the repository expects proved or consistent"


@rule("gate.outcome")
def gate(result: Any, strict: bool = False) -> str:
    """"fail" when the verdict is not the expected one (or, with ``strict``, undecided); "undecided" for
    untested and inconclusive; else "pass"."""
    undecided = result.verdict in UNDECIDED
    if not result.expected or (strict and undecided):
        return "fail"
    return "undecided" if undecided else "pass"
