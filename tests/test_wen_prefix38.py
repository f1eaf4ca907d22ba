"""Wen & Li (issue 38): which families the engine lets move what (asymptotic.family_valid on the declared prefixes),
and the one-sided label the engine gives the experiments that can support but never refute their statement."""

from __future__ import annotations

import dataclasses

import pytest

from theorems import ExperimentOutcome, Observation
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.experiment import MIN_SEEDS
from theorems.engine.registry import get
from theorems.engine.rules.asymptotic import family_valid
from theorems.engine.verdict import Verdict

NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)


@pytest.mark.parametrize("claim_id, constant, moves, valid", [
    # Õ's constant: universal w.r.t. d (Notations), may depend on the premise's C_M only
    ("wen.lemma_b3", "C", ("d",), True), ("wen.lemma_b3", "C", ("d", "M"), True),
    ("wen.lemma_b3", "C", ("C_M",), False),
    # Omega(m/d1): a universal constant, printed last (depends_on=()): a family may move m and the model
    ("wen.theorem34", "c_Omega", ("m",), True), ("wen.theorem34", "c_Omega", ("model", "m"), True),
    # o(1) as d -> infinity: a function of d alone, so a family may move the model (and with it d)
    ("wen.theorem32", "o1", ("model",), True),
])
def test_the_engine_lets_a_family_move_what_the_constant_may_not_depend_on(claim_id, constant, moves, valid) -> None:
    ok, why = family_valid(get(claim_id).prefix, constant, moves)
    assert ok == valid, why


def _consistent_runs(ctx) -> ExperimentOutcome:
    seeds = list(range(MIN_SEEDS))
    return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=seeds,
                             parameters={}, observations=[Observation({"setting": 0}, (True,) * MIN_SEEDS,
                                                                      tuple(seeds))])


@pytest.mark.parametrize("claim_id", ["wen.theorem34", "wen.downstream"])
def test_a_consistent_run_of_a_one_sided_experiment_is_labelled_one_sided(claim_id: str) -> None:
    """Runs that all hold (a stand-in): the engine says 'consistent (one-sided: ...)' with the claim's own reason,
    since no reachability check or data adversary is applied to these claims."""
    claim = get(claim_id)
    assert claim.one_sided and not claim.reach and not claim.data_adversary
    result = check_claim(dataclasses.replace(claim, experiment=_consistent_runs, readings=()), NONE)
    assert result.verdict == Verdict.CONSISTENT, result.reason
    assert result.verdict_label.startswith("consistent (one-sided: " + claim.one_sided[:20])


def test_footnote1_is_not_one_sided_its_literal_refutation_is_recorded() -> None:
    """footnote1's literal 'forall' over noise variants is refuted by a run (recorded witness): not one-sided."""
    claim = get("wen.footnote1")
    assert claim.known_refutation == "wen.footnote1.json" and not claim.one_sided


# -- wen.lemma_b3: the Hoeffding bound for every d (issue 38) -----------------------------------------------------
def test_hoeffding_with_the_variance_proxy_bounds_the_exact_tail() -> None:
    """The certificate's chain on a small dictionary, exactly over all 2^d masks: P(|e_jj'| >= t) <= 2 exp(-t^2 /
    (2 s2_jj')) and s2_jj' <= ||M_j||_inf^2."""
    import itertools

    import numpy as np

    rng = np.random.default_rng(3)
    d, d1 = 10, 3
    M, _ = np.linalg.qr(rng.standard_normal((d, d1)))
    signs = np.array(list(itertools.product((-1.0, 1.0), repeat=d)))
    for j, jp in itertools.product(range(d1), repeat=2):
        e = np.abs(signs @ (M[:, j] * M[:, jp]))
        s2 = float(np.sum(M[:, j] ** 2 * M[:, jp] ** 2))
        assert s2 <= float(np.max(M[:, j] ** 2)) + 1e-15
        for t in np.linspace(0.05, 1.0, 20):
            assert np.mean(e >= t) <= 2 * np.exp(-t ** 2 / (2 * s2)) + 1e-12


@pytest.mark.parametrize("uniform, whp", [(False, "1/d"), (True, "1/d"), (True, "exp(-log^2 d)")])
def test_the_polylog_of_each_reading_dominates_log_2p_over_delta(uniform: bool, whp: str) -> None:
    """lam(d) >= log(2 P / delta) at P = d^2 (uniform) or 1, numerically on d = 2 .. 10^6, beside the sympy check."""
    import math

    from theorems.papers.wen import exact as ex

    cert = ex.certificate_lemma_b3_every_d(uniform, whp)
    assert cert["holds"]
    for d in (2, 3, 10, 100, 10 ** 4, 10 ** 6):
        L = math.log(2 * d)
        lam = {(False, "1/d"): L, (True, "1/d"): 3 * L}.get((uniform, whp), (1 + L) ** 2)
        log_delta = math.log(d) if whp == "1/d" else math.log(d) ** 2
        assert math.log(2 * (d ** 2 if uniform else 1)) + log_delta <= lam + 1e-12


def test_the_engine_proves_lemma_b3_modulo_hoeffding_with_the_every_d_certificate() -> None:
    from numerics.certificate import Certificate
    from theorems.papers.wen import exact_experiments as exx

    for name, (uniform, whp) in (("literal", (False, "1/d")), ("uniform over pairs", (True, "1/d"))):
        cert = exx._lemma_b3_certificate(uniform, whp)

        def runs(ctx, cert=cert) -> ExperimentOutcome:
            outcome = _consistent_runs(ctx)
            return dataclasses.replace(outcome, certificates=[cert])

        claim = dataclasses.replace(get("wen.lemma_b3"), experiment=runs, readings=())
        result = check_claim(claim, NONE)
        assert result.verdict == Verdict.PROVED and exx.HOEFFDING in result.modulo, (name, result.reason)
        partial = dataclasses.replace(cert, complete=False)  # the bound at the computed d only: consistent at most
        claim = dataclasses.replace(claim, experiment=lambda ctx: dataclasses.replace(_consistent_runs(ctx),
                                                                                      certificates=[partial]))
        assert check_claim(claim, NONE).verdict == Verdict.CONSISTENT
        assert isinstance(cert, Certificate)
