"""Ren & Li, issue 39: reconstructions marked, checks by construction named, constants decided over their
admissible range, and the surviving direction of Lemma 5.3 checked against a baseline. Each test can fail: it
asserts what the engine decides from evidence stated here, or a mark the encoding must carry."""

from __future__ import annotations

import numpy as np
import pytest

from theorems import RunContext
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.rules.experiment import experiment_verdict, observation_verdict
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.ren import exact, qualitative, reconstructed
from theorems.papers.ren.model import model_checks, DataModel, b17

QUICK = RunContext(seed=0, quick=True)

RECONSTRUCTED = ("ren.lemma_a7", "ren.lemma_4_5", "ren.lemma_b9", "ren.lemma_c2", "ren.lemma_b17", "ren.stage2_rate")


@pytest.mark.parametrize("claim_id", RECONSTRUCTED)
def test_every_reconstruction_is_marked_with_its_source_lines(claim_id: str) -> None:
    claim = get(claim_id)
    assert claim.reconstructed, f"{claim_id} checks a reconstruction but carries no mark"
    assert "lost" in claim.reconstructed and ("line" in claim.reconstructed or "Section" in claim.reconstructed)


def test_lemma_c2_is_proved_only_as_a_reconstruction() -> None:
    result = check_claim(get("ren.lemma_c2"), PROFILES["quick"])
    assert result.verdict == Verdict.PROVED
    assert "(reconstructed: " in result.verdict_label and "inferred, not read" in result.verdict_label


def test_lemma_b9_checks_hold_by_construction_and_are_no_evidence() -> None:
    outcome = reconstructed.lemma_b9(QUICK)
    assert len(outcome.observations) == 2 and all(o.by_construction for o in outcome.observations)
    verdict = experiment_verdict("forall", outcome)
    assert verdict.verdict == Verdict.UNTESTED, verdict.reason  # held by construction: no evidence either way


def test_the_b12_and_c19_bounds_are_named_by_construction_but_the_printed_conclusions_are_not() -> None:
    b17 = exact.lemma_b17(QUICK)
    universal = [o for o in b17.observations if o.part == "universal"]
    main = [o for o in b17.observations if o.part == "main"]
    assert universal and all(o.by_construction for o in universal)
    assert main and not any(o.by_construction for o in main) and all(o.at_init is not None for o in main)
    s2 = exact.stage2_rate(QUICK)
    c19 = [o for o in s2.observations if o.config["statement"].startswith("C.19")]
    c20 = [o for o in s2.observations if o.config["statement"].startswith("C.20")]
    assert c19 and all(o.by_construction for o in c19) and c20 and not any(o.by_construction for o in c20)


# -- Section 4 example: decided over the admissible range eps in (0, 1/2), c >= 1 ------------------------------------
def _failing(outcome) -> set[int]:
    return {o.config["r"] for o in outcome.observations if observation_verdict(o)[0] == Verdict.REFUTED}


def test_the_example_fails_only_at_r1_over_the_admissible_range() -> None:
    # closed forms: Align = 1 - 2^-r > 1/2 iff r >= 2; Bal(small delta) = 1 + (r-1) delta^4 < r iff r >= 2
    assert _failing(exact.unbalanced_experiment(QUICK)) == {1}
    assert exact.admissible_r0() == 2
    assert _failing(exact.unbalanced_large_r(QUICK)) == set()


def test_the_checkers_former_constants_decide_nothing(monkeypatch) -> None:
    """Moving the checker's eps and c (issue 38's 0.05 and 2) leaves every configuration's outcome unchanged."""
    before = [observation_verdict(o)[0] for o in exact.unbalanced_experiment(QUICK).observations]
    monkeypatch.setattr(exact, "EPS_ALIGN", 0.001)
    monkeypatch.setattr(exact, "C_BALANCE", 7.0)
    assert [observation_verdict(o)[0] for o in exact.unbalanced_experiment(QUICK).observations] == before


def test_shrinking_the_admissible_eps_range_would_refute_more(monkeypatch) -> None:
    """The range's end decides: with eps < 0.05 (instead of 1/2) the dimensions r <= 4 fail -- issue 38's
    refutation, which came from the constant, not from the example."""
    monkeypatch.setattr(exact, "EPS_SUP", 0.05)
    assert _failing(exact.unbalanced_experiment(QUICK)) == {1, 2, 3, 4}


# -- Lemma 5.3: the direction, against the non-contrastive continuation --------------------------------------------
def _fake_runs(cond_end: float, baseline: float):
    model = DataModel(sigma=b17(5.0))
    res = {"start": {"noise_ratio": 0.002, "cond": 11.0},
           "stage2": {"t_end": 30.0, "noise": np.array([0.002, 0.01]), "cond": np.array([11.0, cond_end])},
           "baseline_cond": baseline, "baseline_noise_max": 0.002, "t1": 90.0, "checks": model_checks(model)}
    return lambda quick: (("B17 k=5", res),)


@pytest.mark.parametrize("cond_end, baseline, expected", [
    (1.001, 13.8, Verdict.CONSISTENT),  # Stage 2 lowers cond, the continuation does not: informative
    (12.0, 13.8, Verdict.REFUTED),  # cond does not fall
    (1.001, 2.0, Verdict.UNTESTED),  # the continuation lowers it too: no evidence for Stage 2
])
def test_lemma_5_3_direction_and_its_baseline(monkeypatch, cond_end: float, baseline: float, expected: Verdict) -> None:
    monkeypatch.setattr(qualitative, "_runs", _fake_runs(cond_end, baseline))
    verdict = experiment_verdict("forall", qualitative.stage2_from_stage1(QUICK))
    assert verdict.verdict == expected, verdict.reason


def test_lemma_5_3_is_qualitative_and_c18_stays_not_encodable_with_its_measurement() -> None:
    claim = get("ren.lemma_5_3")
    assert claim.qualitative and "direction" in claim.qualitative and "lost" in claim.qualitative
    c18 = get("ren.lemma_c18")
    assert getattr(c18, "reason", "") and "FAILS" in c18.reason and "refutes nothing printed" in c18.reason


# -- Lemma B.10: the direction of Stage 1's convergence, against the untrained run (issue 39, item 6) ----------------
def _fake_stage1(rho: list[float]):
    """Every model and seed gets the same min-cosine path; the flow rows a nondecreasing one."""
    def run(model, seed):
        return {"rho": np.array(rho), "noise": np.linspace(0.02, 0.01, len(rho)), "t1": 20 * (len(rho) - 1),
                "checks": model_checks(model)}

    def flow_path(model):
        return {"rho": np.tile(np.linspace(0.0, 0.995, 50)[:, None], (1, model.r)), "t1": 80.0, "reached": True}
    return run, flow_path


@pytest.mark.parametrize("rho, expected", [
    ([0.0, 0.3, 0.6, 0.9, 0.995], Verdict.CONSISTENT),  # rises over every interval: informative against the untrained run
    ([0.0, 0.3, 0.25, 0.9, 0.995], Verdict.REFUTED),  # one interval falls: some rho_k fell
    ([0.0, 0.5, 0.5, 0.9, 0.995], Verdict.REFUTED),  # a flat interval short of the limit is no rise
    ([0.0, 1 - 1e-8, 1 - 1e-8 + 1e-14, 1 - 1e-8], Verdict.CONSISTENT),  # converged: undecidable intervals not read
])
def test_lemma_b10_direction_and_its_baseline(monkeypatch, rho: list[float], expected: Verdict) -> None:
    run, flow_path = _fake_stage1(rho)
    monkeypatch.setattr(qualitative, "_stage1_run", run)
    monkeypatch.setattr(qualitative, "_flow_stage1", flow_path)
    outcome = qualitative.stage1_convergence(QUICK)
    verdict = experiment_verdict("forall", outcome)
    assert verdict.verdict == expected, verdict.reason
    finite = [o for o in outcome.observations if not o.by_construction]
    assert finite and all(observation_verdict(o)[0] != Verdict.UNTESTED for o in finite)  # the baseline never rises


def test_lemma_b10_flow_rows_are_no_evidence(monkeypatch) -> None:
    run, flow_path = _fake_stage1([0.0, 0.3, 0.6, 0.9, 0.995])
    monkeypatch.setattr(qualitative, "_stage1_run", run)
    monkeypatch.setattr(qualitative, "_flow_stage1", flow_path)
    rows = [o for o in qualitative.stage1_convergence(QUICK).observations if o.by_construction]
    assert rows and all(observation_verdict(o)[0] == Verdict.UNTESTED for o in rows)


def test_lemma_b10_is_qualitative_reconstructed_and_one_sided() -> None:
    claim = get("ren.lemma_b10")
    assert claim.qualitative and "lost" in claim.qualitative and "direction" in claim.qualitative
    assert "lost" in claim.reconstructed and "line 242" in claim.reconstructed
    assert claim.one_sided and "beta1" in claim.one_sided
    names = {b.name: b.quantifier for b in claim.prefix}
    assert names["m"] == names["beta1"] != names["model"]  # Lemma B.1 chooses both: existential


def test_lemma_5_3_declares_the_theorems_existential_temperatures() -> None:
    claim = get("ren.lemma_5_3")
    quantifiers = {b.name: b.quantifier for b in claim.prefix}
    assert quantifiers["beta1"] == quantifiers["beta2"] != quantifiers["model"]
    assert claim.one_sided and "beta2" in claim.one_sided


def test_every_remaining_lost_statement_says_what_survives() -> None:
    from theorems.engine.claim import UnencodableClaim
    from theorems.engine.registry import all_claims

    lost = [c for c in all_claims(["ren"]) if isinstance(c, UnencodableClaim)]
    assert lost and "ren.lemma_b10" not in {c.id for c in lost}
    silent = [c.id for c in lost if "surviv" not in c.reason.lower()]
    assert not silent, f"not_encodable reasons that do not say what survives: {silent}"
