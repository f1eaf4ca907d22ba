"""Wen & Li (issue 39, items 2, 3 and 6): the readings of one printed object are one definition shared by every claim
that reads it ("with high probability", Theorem 3.2's "overwhelmed", Theorem 3.4's "some iterations T"); the probe
margin of Corollaries 3.3 / 3.5 is decided over its whole admissible range; Lemma A.2's surviving direction decides
through the engine against the run without augmentation. Stand-in evidence only (no training)."""

from __future__ import annotations

import numpy as np
import pytest

from theorems import holds
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import qualitative as qu
from theorems.papers.wen.readings import T32_READINGS, WHEN_READINGS, WHP_EXP, t32_outcome

NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)


def _names(claim_id: str) -> set[str]:
    return {r.name for r in get(claim_id).readings}


@pytest.mark.parametrize("claim_id", ["wen.lemma_b3", "wen.theorem32", "wen.footnote3"])
def test_with_high_probability_is_read_the_same_way_by_every_claim_that_says_it(claim_id: str) -> None:
    """The Notations' w.h.p. formula is lost: each claim marks that reading and lists the other one."""
    assert WHP_EXP in _names(claim_id)
    assert "with high probability" in get(claim_id).reconstructed and "1 - 1/d" in get(claim_id).reconstructed


def test_lemma_b3_lists_both_axes_of_its_readings() -> None:
    """per pair / uniform over the pairs, times the two readings of w.h.p. (the literal is per pair, 1 - 1/d)."""
    assert {"uniform over pairs", "per pair, " + WHP_EXP, WHP_EXP} <= _names("wen.lemma_b3")


def test_footnotes_carry_the_readings_of_the_theorem_they_read() -> None:
    assert set(T32_READINGS) <= _names("wen.theorem32") and set(T32_READINGS) <= _names("wen.footnote3")
    assert set(WHEN_READINGS) <= _names("wen.theorem34") and set(WHEN_READINGS) <= _names("wen.footnote1")


def test_theorem32_reads_the_whp_quantile_not_a_fixed_one() -> None:
    """Holding needs the (1 - 1/d)-quantile below 1; a 0.9-quantile below 1 with the w.h.p. quantile above is no
    evidence; under 1 - exp(-log^2 d) only a failure (median > 1) decides."""
    run = {"ratio_q50": 0.5, "ratio_q90": 0.9, "q_whp": 1.3}
    assert t32_outcome("representation", run, {}) is None
    assert holds(t32_outcome("representation", {**run, "q_whp": 0.95}, {}))
    assert t32_outcome("representation", {**run, "q_whp": 0.95}, {}, whp="exp(-log^2 d)") is None
    assert not holds(t32_outcome("representation", {**run, "ratio_q50": 1.2}, {}, whp="exp(-log^2 d)"))


def test_probe_margin_is_decided_over_its_whole_range() -> None:
    """A seed whose outcome changes inside [0, TOL] cannot tell; one that keeps it holds or fails."""
    assert dy.TOL_RANGE[0] == 0.0  # the literal margin: the corollaries print none
    raw = {"r2": 0.2, "acc": 0.895}
    assert dy.corollary33(0.21, 0.8, raw) is None  # better than raw by 0.01: fails at 0, holds at 0.02
    assert holds(dy.corollary33(0.2, 0.8, raw)) and not holds(dy.corollary33(0.3, 0.8, raw))
    assert dy.corollary35(0.7, 0.905, raw) is None  # beats raw accuracy by 0.01 only
    assert holds(dy.corollary35(0.7, 0.95, raw)) and not holds(dy.corollary35(0.7, 0.89, raw))


def _runs(stage2_fall: float, min_fire: float = 0.5) -> list[dict]:
    """Stand-in runs: sparse share 0.1 at init, 0.5 at the end of stage I, 0.5 + fall at the end of stage II."""
    steps = np.arange(0, 501, 25)
    share = np.interp(steps, [0, 200, 400, 500], [0.1, 0.5, 0.5 + stage2_fall, 0.5 + stage2_fall])
    return [{"step": steps, "share": share, "min_fire": min_fire}]


@pytest.mark.parametrize("masks, without, verdict", [(0.3, -0.01, Verdict.CONSISTENT),
                                                     (-0.1, -0.01, Verdict.REFUTED),
                                                     (0.3, 0.02, Verdict.UNTESTED)])
def test_lemma_a2_direction_against_the_run_without_augmentation(monkeypatch, masks: float, without: float,
                                                                 verdict: Verdict) -> None:
    """The dense share falling over stage II with masks is evidence only where the same schedule without
    augmentation does not show it too."""
    monkeypatch.setattr(qu.dy, "runs_of", lambda c, seeds: _runs(masks if c.learner.augment else without)
                        * len(seeds))
    result = check_claim(get("wen.lemma_a2"), NONE)
    assert result.verdict == verdict, result.reason
    assert "qualitative" in result.verdict_label
