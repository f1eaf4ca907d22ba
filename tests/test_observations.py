"""The checker's readings of Merad et al.'s qualitative Section 5 sentences (theorems/papers/merad/observations.py)."""

from __future__ import annotations

import numpy as np
import pytest

from theorems.engine.verdict import Verdict
from theorems.papers.merad import observations as ob
from training.snapshots import RunSpec

RUNS = (RunSpec("demo", seed=0, n_negatives=1), RunSpec("demo", seed=1, n_negatives=1))


def _curves(pairs: dict[int, tuple[list[float], list[float]]]):
    def curve(spec: RunSpec):
        un, sup = pairs[spec.seed]
        return np.arange(len(un)) * 25, np.array(un), np.array(sup), 0.0
    return curve


@pytest.mark.parametrize("second, expected", [
    (([3.0, 2.0, 1.5, 1.2], [2.0, 1.4, 1.1, 1.0]), Verdict.CONSISTENT),   # both fall together
    (([3.0, 2.0, 1.5, 1.2], [1.0, 1.1, 1.4, 2.0]), Verdict.INCONCLUSIVE),  # one falls while the other rises
    (([3.0, 2.0, 1.5, 1.2], [1.0, 1.0, 1.0, 1.0]), Verdict.INCONCLUSIVE),  # a flat curve has no trend
])
def test_similar_trend_needs_every_run_to_move_together(monkeypatch: pytest.MonkeyPatch, second, expected) -> None:
    monkeypatch.setattr(ob, "_unsupervised_curve", _curves({0: ([2.0, 1.5, 1.0, 0.8], [1.5, 1.2, 0.9, 0.85]),
                                                             1: second}))
    outcome = ob.similar_trend(RUNS, "demo", "L_un")
    assert outcome.verdict == expected
    assert outcome.value == sum(row["verdict"] == Verdict.CONSISTENT for row in outcome.configurations)
    assert outcome.verdict != Verdict.REFUTED  # a reading of words on stand-in data is never a refutation
