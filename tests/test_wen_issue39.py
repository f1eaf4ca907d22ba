"""Wen & Li (issue 39): reconstructions marked, Corollary 3.3 split from wen.downstream (it holds on the untrained
network), the by-construction part of the stage-I rule, and the surviving qualitative content of Theorem C.1 and
Fact F.4 checked on the existing runs. Each test decides through the engine (check_claim) on stand-in evidence whose
outcome follows from the engine's rules, or checks a mark against the printed source."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from theorems import ExperimentOutcome, Observation, RunContext, holds
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.experiment import MIN_SEEDS
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import exact_experiments as exx
from theorems.papers.wen import qualitative as qu

NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)
SOURCE = Path("/work/shared/papers/003_06cb9bda3a5102d9.txt")
TRAINED = ("wen.theorem32", "wen.footnote3", "wen.theorem34", "wen.footnote1", "wen.downstream", "wen.corollary_3_3",
           "wen.theorem_c1", "wen.fact_f4")


@pytest.mark.parametrize("claim_id", TRAINED)
def test_every_claim_trained_on_the_lost_loss_is_marked_reconstructed(claim_id: str) -> None:
    """The contrastive loss (2.2) is a lost display (the source prints '(2.2) |'): every claim whose runs train it
    carries the mark, and the downstream claims also name the reconstructed tasks of Definition 3.1."""
    claim = get(claim_id)
    assert "(2.2)" in claim.reconstructed
    if claim_id in ("wen.downstream", "wen.corollary_3_3"):
        assert "Definition 3.1" in claim.reconstructed
    if SOURCE.exists():
        lines = SOURCE.read_text().splitlines()
        assert lines[86].strip() == "(2.2) |", "the display the mark says is lost is printed after all"


@pytest.mark.parametrize("claim_id", ["wen.lemma_b3", "wen.stage1_gradient", "wen.mask_decorrelation"])
def test_the_exact_claims_name_their_reconstruction(claim_id: str) -> None:
    assert "Definition 2.3" in get(claim_id).reconstructed  # the masks' law and views are lost (lines 89-90)


def _stand_in(at_init: tuple[bool, ...], trained: tuple[bool, ...]):
    seeds = tuple(range(MIN_SEEDS))

    def experiment(ctx) -> ExperimentOutcome:
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=list(seeds),
                                 parameters={}, observations=[Observation({"setting": 0}, trained, seeds,
                                                                          at_init=at_init)])
    return experiment


def test_corollary_3_3_is_untested_when_the_untrained_network_already_fails_its_probes() -> None:
    """Corollary 3.3's rule on features whose probes equal the raw-input probes (what the untrained network at b = 0
    gives: a random linear map of x) holds; measured there too, the engine reads the trained runs as no evidence."""
    raw = {"r2": 0.20, "acc": 0.83}
    rule = dy.corollary33(raw["r2"], raw["acc"], raw)
    assert holds(rule)
    claim = get("wen.corollary_3_3")
    same = (rule,) * MIN_SEEDS
    untested = check_claim(dataclasses.replace(claim, experiment=_stand_in(same, same), readings=()), NONE)
    assert untested.verdict == Verdict.UNTESTED, untested.reason
    assert "reconstructed" in untested.verdict_label
    # had the untrained network's probes beaten the raw input, the same trained runs would be evidence
    better = dy.corollary33(0.6, 0.95, raw)
    informative = check_claim(dataclasses.replace(claim, experiment=_stand_in((better,) * MIN_SEEDS, same),
                                                  readings=()), NONE)
    assert informative.verdict == Verdict.CONSISTENT, informative.reason


def test_downstream_is_corollary_3_5_alone() -> None:
    assert get("wen.downstream").source.numbering == "Corollary 3.5"
    assert get("wen.corollary_3_3").source.numbering == "Corollary 3.3"
    assert not get("wen.corollary_3_3").one_sided  # 'no matter how many': a universal n, a failure would refute


def test_the_by_construction_part_of_the_stage1_rule_is_the_regime_check_itself() -> None:
    """sigma^2/(sigma^2 + p) = kappa/(kappa + 1) >= 0.8 exactly when kappa >= 4 (the regime check): inside the regime
    that part cannot fail, so it is marked by_construction; the dictionary-dependent part stays evidence."""
    assert (dy.KAPPA_MIN / (dy.KAPPA_MIN + 1) >= exx.RATIO_NONE_MIN
            and (dy.KAPPA_MIN - 0.01) / (dy.KAPPA_MIN + 0.99) < exx.RATIO_NONE_MIN)
    out = exx.stage1_gradient(RunContext(seed=0, quick=True))
    fixed = [o for o in out.observations if o.by_construction]
    evidence = [o for o in out.observations if not o.by_construction]
    assert fixed and len(fixed) == len(evidence)
    for o in evidence:
        assert "dense/sparse (none)" not in o.values or "min sparse rate / p (masks)" in o.values
        assert all(h is None or "dense/sparse" not in str(h) for h in o.holds)
    assert all(h is None or "dense/sparse" in str(h) for o in fixed for h in o.holds)


def _fake_runs(shares: list[list[float]]):
    steps = np.arange(0, 501, 25)
    return [{"step": steps, "share": np.interp(steps, np.linspace(0, 500, len(s)), s)} for s in shares]


@pytest.mark.parametrize("rising, verdict", [(True, Verdict.CONSISTENT), (False, Verdict.REFUTED)])
def test_theorem_c1_direction_decides_through_the_engine(monkeypatch, rising: bool, verdict: Verdict) -> None:
    """Stand-in runs (no training): the sparse share rising over stage I on every seed is consistent; flat-then-
    falling on every seed, inside the regime, refutes the direction; the untrained network never has it."""
    shares = [[0.1, 0.3, 0.5, 0.9]] if rising else [[0.1, 0.05, 0.05, 0.9]]
    monkeypatch.setattr(qu.dy, "runs_of", lambda c, seeds: _fake_runs(shares * len(seeds)))
    result = check_claim(get("wen.theorem_c1"), NONE)
    assert result.verdict == verdict, result.reason
    assert "qualitative" in result.verdict_label


def test_fact_f4_is_untested_because_the_untrained_network_is_dense(monkeypatch) -> None:
    monkeypatch.setattr(qu.dy, "runs_of", lambda c, seeds: _fake_runs([[0.09, 0.15, 0.13]] * len(seeds)))
    result = check_claim(get("wen.fact_f4"), NONE)
    assert result.verdict == Verdict.UNTESTED, result.reason
    assert "qualitative" in result.verdict_label
