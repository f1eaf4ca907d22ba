"""Experiment claims: regimes, quantifiers and verdict maps (issue 10, items 5, 7, 8)."""

from __future__ import annotations

from typing import Any

import pytest

from theorems.engine.budget import Budget, profile
from theorems.engine.check import check_claim
from theorems.engine.claim import ExperimentClaim, Kind, RunContext, Source
from theorems.engine.experiment import ExperimentOutcome, RegimeCheck, map_witness, read_map
from theorems.engine.verdict import Verdict

SRC = Source(file="test", numbering="test")
C, R, I, U = Verdict.CONSISTENT, Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.UNTESTED


def rows(*cells: tuple[Verdict, bool]) -> list[dict[str, Any]]:
    return [{"config": f"c{i}", "bias": float(i), "verdict": v, "in_regime": inside}
            for i, (v, inside) in enumerate(cells)]


@pytest.mark.parametrize("cells, settings, forall, exists", [
    ([(C, True), (C, True)], C, C, C),
    ([(C, True), (R, True)], I, R, C),
    ([(R, True), (R, True)], R, R, R),
    ([(I, True), (R, True)], I, R, I),
    ([(C, True), (I, True)], I, I, C),
    ([(R, False), (C, True)], C, C, C),  # outside the regime: never evidence
    ([(R, False), (C, False)], U, U, U),
])
def test_read_map_by_quantifier(cells: list, settings: Verdict, forall: Verdict, exists: Verdict) -> None:
    configs = rows(*cells)
    assert read_map(configs) == settings
    assert read_map(configs, "forall") == forall
    assert read_map(configs, "exists") == exists


def test_read_map_rejects_an_unknown_quantifier() -> None:
    with pytest.raises(ValueError, match="quantifier"):
        read_map(rows((C, True)), "most")


def test_map_witness_is_the_first_consistent_configuration_inside_the_regime() -> None:
    assert map_witness(rows((C, False), (R, True), (C, True))) == {"config": "c2", "bias": 2.0}
    assert map_witness(rows((R, True), (C, False))) is None


def _outcome(verdict: Verdict, holds: bool = True, witness: dict | None = None) -> ExperimentOutcome:
    return ExperimentOutcome(verdict=verdict, statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0),
                             seeds=[0], parameters={}, witness=witness,
                             regime=[RegimeCheck("width", "m >> d", 3, "m >= 10", holds)])


def _check(outcome: ExperimentOutcome, quantifier: str = "forall") -> Any:
    claim = ExperimentClaim(id="test.exp", kind=Kind.DYNAMICS, source=SRC, experiment=lambda ctx: outcome,
                            encoding="test", quantifier=quantifier)
    return check_claim(claim, profile("quick"), seed=0)


def test_a_run_outside_the_regime_is_untested_never_refuted() -> None:
    result = _check(_outcome(R, holds=False))
    assert result.verdict == U and "out of regime: width: 3" in result.reason
    assert result.gate() == "undecided"


def test_a_refuted_run_inside_the_regime_fails_the_gate() -> None:
    result = _check(_outcome(R))
    assert result.verdict == R and result.gate() == "fail"


@pytest.mark.parametrize("verdict", [R, I])
def test_an_existence_claim_is_never_refuted(verdict: Verdict) -> None:
    result = _check(_outcome(verdict), quantifier="exists")
    assert result.verdict == U and "no witness found" in result.reason


def test_an_existence_claim_names_its_witness() -> None:
    result = _check(_outcome(C, witness={"config": "d=64, c=0", "d": 64}), quantifier="exists")
    assert result.verdict == C and result.qualifiers == ["witness found: d=64, c=0"]


def test_an_existence_claim_with_a_failed_universal_part_is_refuted() -> None:
    """"There exists a model ... and along every path the rate bound holds": a failed universal
    part inside the regime refutes the claim; only a missing witness is "untested"."""
    def run(universal_failure: str) -> Any:
        def experiment(ctx: RunContext) -> ExperimentOutcome:
            return ExperimentOutcome(verdict=Verdict.REFUTED, statistic="s", value=0.0, effect_size=0.0,
                                     interval=(0.0, 0.0), seeds=[0], parameters={},
                                     universal_failure=universal_failure)
        claim = ExperimentClaim(id="t.mixed", kind=Kind.DYNAMICS, source=Source("x", "x"), experiment=experiment,
                                quantifier="exists")
        return check_claim(claim, Budget(examples=0, adversarial_starts=0, quick=True))

    assert run("").verdict == Verdict.UNTESTED
    failed = run("the bound fails at kappa = 3")
    assert failed.verdict == Verdict.REFUTED and "kappa = 3" in failed.reason
