"""The checker's readings of Merad et al.'s qualitative Section 5 sentences (theorems/papers/merad/observations.py):
measurements only (Observation per N, one outcome per seed, the baseline beside them); the engine judges."""

from __future__ import annotations

import numpy as np
import pytest

from theorems.engine.rules.experiment import experiment_verdict
from theorems import holds
from theorems.engine.verdict import Verdict
from theorems.papers.merad import observations as ob
from training.snapshots import RunSpec

RUNS = tuple(RunSpec("demo", seed=s, n_negatives=1) for s in range(5))
FALLING = ([2.0, 1.5, 1.0, 0.8], [1.5, 1.2, 0.9, 0.85])
FLAT_BASELINE = ([0.7, 0.7, 0.7, 0.7], [2.3, 2.3, 2.3, 2.3])  # a baseline with no trend fails the reading


def _curves(pairs: dict[int, tuple], baseline: tuple = FLAT_BASELINE):
    def curve(spec: RunSpec, mc_seed: int):
        un, sup = pairs[spec.seed]
        bun, bsup = baseline
        return np.arange(len(un)) * 25, np.array(un), np.array(sup), 0.0, np.array(bun), np.array(bsup)
    return curve


@pytest.mark.parametrize("last, expected", [
    (([3.0, 2.0, 1.5, 1.2], [2.0, 1.4, 1.1, 1.0]), Verdict.CONSISTENT),   # both fall together on every seed
    (([3.0, 2.0, 1.5, 1.2], [1.0, 1.1, 1.4, 2.0]), Verdict.INCONCLUSIVE),  # one seed: one falls, the other rises
    (([3.0, 2.0, 1.5, 1.2], [1.0, 1.0, 1.0, 1.0]), Verdict.INCONCLUSIVE),  # a flat curve has no trend
])
def test_similar_trend_gives_one_outcome_per_seed(monkeypatch: pytest.MonkeyPatch, last, expected) -> None:
    monkeypatch.setattr(ob, "_unsupervised_curve", _curves({0: FALLING, 1: FALLING, 2: FALLING, 3: FALLING, 4: last}))
    outcome = ob.similar_trend(RUNS, "demo", "L_un", 0)
    (obs,) = outcome.observations
    assert obs.seeds == (0, 1, 2, 3, 4) and all(holds(h) for h in obs.holds[:4])
    assert not any(holds(b) for b in obs.at_init)
    assert experiment_verdict("settings", outcome).verdict == expected
    assert outcome.value == sum(holds(h) for h in obs.holds)


def test_a_baseline_that_meets_the_reading_makes_the_observation_uninformative(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rescaled untrained encoder's curves fall together as the trained ones do: no evidence
    monkeypatch.setattr(ob, "_unsupervised_curve", _curves({s: FALLING for s in range(5)}, baseline=FALLING))
    outcome = ob.similar_trend(RUNS, "demo", "L_un", 0)
    assert all(holds(b) for b in outcome.observations[0].at_init)
    judged = experiment_verdict("settings", outcome)
    assert judged.verdict == Verdict.UNTESTED and "uninformative" in judged.reason


def test_the_baseline_counts_where_it_meets_the_reading_on_one_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    curves = _curves({s: FALLING for s in range(5)})  # flat baseline on every seed ...
    def one_seed_moves(spec: RunSpec, mc_seed: int):
        steps, un, sup, r, bun, bsup = curves(spec, mc_seed)
        return (steps, un, sup, r, *(map(np.array, FALLING) if spec.seed == 3 else (bun, bsup)))  # ... but seed 3
    monkeypatch.setattr(ob, "_unsupervised_curve", one_seed_moves)
    for average in (False, True):
        outcome = ob.similar_trend(RUNS, "demo", "L_un", 0, average=average)
        assert any(holds(b) for b in outcome.observations[0].at_init)  # seed 3 (and, averaged, the mean curve)
        assert experiment_verdict("settings", outcome).verdict == Verdict.UNTESTED


def test_the_average_reading_reads_the_mean_curves(monkeypatch: pytest.MonkeyPatch) -> None:
    # four runs fall together, one has its sup curve rising a little: the mean curves still move together
    rising = ([2.0, 1.5, 1.0, 0.8], [0.8, 0.85, 0.9, 0.95])
    monkeypatch.setattr(ob, "_unsupervised_curve", _curves({0: FALLING, 1: FALLING, 2: FALLING, 3: FALLING, 4: rising}))
    per_run = experiment_verdict("settings", ob.similar_trend(RUNS, "demo", "L_un", 0))
    average = ob.similar_trend(RUNS, "demo", "L_un", 0, average=True)
    (obs,) = average.observations
    assert obs.seeds == () and len(obs.holds) == 1  # one curve: the mean of the runs
    assert per_run.verdict == Verdict.INCONCLUSIVE and experiment_verdict("settings", average).verdict == Verdict.CONSISTENT


def test_moves_together_needs_a_positive_rank_correlation_and_the_same_direction() -> None:
    assert holds(ob.moves_together(np.array([3.0, 2.0, 1.0]), np.array([2.0, 1.5, 1.0]))[0])
    assert not holds(ob.moves_together(np.array([3.0, 2.0, 1.0]), np.array([1.0, 1.5, 2.0]))[0])
    # same direction first -> last but a negative rank correlation along the way
    held, rho, same = ob.moves_together(np.array([3.0, 1.0, 1.5, 2.0, 2.5, 0.5]), np.array([3.0, 4.0, 3.8, 3.6, 3.4, 2.9]))
    assert holds(same) and rho < 0 and not holds(held)
    # a flat L^mu_sup has no direction to share
    assert not holds(ob.moves_together(np.array([3.0, 2.0, 1.0]), np.array([1.0, 1.0, 1.0]))[0])


def test_the_monte_carlo_radius_is_the_stated_error_of_the_unsupervised_side() -> None:
    # L^mu_sup falls; the estimate of L^N_un rises by 0.1 from first to last: with no error that is the opposite
    # direction, within a Monte Carlo radius of 0.1 the estimates cannot tell the direction apart
    un, sup = np.array([3.0, 2.0, 1.0, 3.1]), np.array([2.0, 1.5, 1.2, 1.0])
    assert not holds(ob.moves_together(un, sup)[2])
    assert holds(ob.moves_together(un, sup, error=0.1)[2])
    assert not holds(ob.moves_together(un, sup, error=0.01)[2])


def test_the_monte_carlo_sample_comes_from_the_audit_seeds_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    def curve(spec: RunSpec, mc_seed: int):
        seen.append(mc_seed)
        return _curves({s: FALLING for s in range(5)})(spec, mc_seed)
    monkeypatch.setattr(ob, "_unsupervised_curve", curve)
    for audit_seed in (0, 1):
        ob.similar_trend(RUNS, "demo", "L_un", audit_seed)
    from numerics.seeds import run_seed
    assert seen == [run_seed(0, ob.TREND_STREAM)] * 5 + [run_seed(1, ob.TREND_STREAM)] * 5
