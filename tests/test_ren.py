"""Ren & Li: metrics on hand-made cases, the model as printed (+-1 latents, population normalization),
the exactness of the reduced parametrization, the infinite-width flow, and the audit seed."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.registry import all_claims, get
from theorems.papers.ren import flow
from theorems.papers.ren.model import (
    DataModel,
    RunSpec,
    alignment_score,
    b17,
    balance_score,
    condition_number,
    initial_factor,
    loss_function,
    population_maps,
    stable_rank,
    state_metrics,
    train,
)

REN_IDS = {"ren.alignment_score", "ren.balance_score", "ren.unbalanced_example", "ren.theorem43a", "ren.theorem43b",
           "ren.stagewise", "ren.lemma_a7", "ren.lemma_b17", "ren.stage2_rate"}


def test_the_catalog_ids_are_registered() -> None:
    from theorems.engine.claim import DefinitionClaim, UnencodableClaim

    ids = {c.id for c in all_claims(["ren"])}
    assert REN_IDS <= ids
    # the other ids are the numbered statements the catalog does not name (issue 30): ren.<kind>_<number>
    assert all(re.fullmatch(r"ren\.(lemma|corollary|algorithm)_[0-9a-c_]+", i) for i in ids - REN_IDS), ids - REN_IDS
    assert get("ren.theorem43a").quantifier == "exists" and get("ren.theorem43b").quantifier == "exists"
    assert get("ren.lemma_b17").quantifier == "exists" and get("ren.stagewise").quantifier == "settings"
    assert all(c.prefix for c in all_claims(["ren"]) if not isinstance(c, (UnencodableClaim, DefinitionClaim))), \
        "every checked claim declares its quantifier prefix"


def _bound(prefix, name):
    names = [b.name for b in prefix]
    return names.index(name), prefix[names.index(name)]


def test_theorem43b_binds_the_betas_before_the_model_and_its_reading_after() -> None:
    """As printed, (beta1, beta2) come before 'for any valid model' and may not depend on it; the reading
    'betas chosen per model' binds them after the model, and reads the models universally."""
    claim = get("ren.theorem43b")
    i_b1, beta1 = _bound(claim.prefix, "beta1")
    i_model, model = _bound(claim.prefix, "model")
    assert i_b1 < i_model and model.quantifier == "forall"
    assert "model" not in beta1.dependencies(claim.prefix[:i_b1])
    per_model = claim.reading_named("betas chosen per model")
    j_b1, beta1_r = _bound(per_model.prefix, "beta1")
    j_model, _ = _bound(per_model.prefix, "model")
    assert j_model < j_b1 and "model" in beta1_r.dependencies(per_model.prefix[:j_b1])
    assert per_model.quantifier == "forall"


def test_stagewise_readings_differ_in_what_beta1_may_depend_on() -> None:
    claim = get("ren.stagewise")
    relative = claim.reading_named("beta1 small relative to the Stage-1 length")
    i_b1, beta1 = _bound(relative.prefix, "beta1")
    assert "T1" in beta1.dependencies(relative.prefix[:i_b1])
    fixed = claim.reading_named("every small beta1, any Stage-1 length")
    i_t1, _ = _bound(fixed.prefix, "T1")
    i_b1, beta1 = _bound(fixed.prefix, "beta1")
    assert beta1.quantifier == "forall" and i_b1 < i_t1


# -- metrics ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("r", [1, 2, 5])
def test_stable_rank_of_identity_is_r(r: int) -> None:
    assert stable_rank(np.eye(r)) == pytest.approx(r)
    assert stable_rank(3.0 * np.eye(r)) == pytest.approx(r)


def test_stable_rank_of_rank_one_is_one() -> None:
    u, v = np.array([1.0, 2.0, -1.0]), np.array([0.5, 0.0, 3.0, 1.0])
    assert stable_rank(np.outer(u, v)) == pytest.approx(1.0)
    assert stable_rank(np.diag([4.0, 1.0])) == pytest.approx(17 / 16)


def test_balance_score_is_stable_rank_of_covariance() -> None:
    z = flow.signs(3)
    assert balance_score(z) == pytest.approx(3.0)
    assert balance_score(np.outer(z[:, 0], [1.0, 2.0, 3.0])) == pytest.approx(1.0)


def test_constant_map_scores_exactly_zero_and_exactly_half() -> None:
    a, b = np.tile([0.6, 0.8], (10, 1)), np.tile([1.0, 0.0], (10, 1))
    assert alignment_score(a, b, b, ties="fail") == 0.0
    assert alignment_score(a, b, b, ties="half") == 0.5
    assert flow.alignment_exact(np.zeros(4), "fail") == 0.0 and flow.alignment_exact(np.zeros(4), "half") == 0.5


def test_alignment_is_by_distance_not_inner_product() -> None:
    fa = np.array([[1.0, 0.0]])
    pos, neg = np.array([[0.9, 0.0]]), np.array([[3.0, 0.0]])  # the negative has the larger inner product
    assert alignment_score(fa, pos, neg) == 1.0  # but the positive is the closer one


def test_exact_alignment_of_learned_states_is_one_minus_two_to_minus_r() -> None:
    assert flow.alignment_exact(np.array([0.4, 0.3, 0.2, 0.1, 0.05])) == 1 - 2 ** -5
    assert flow.alignment_exact(np.array([0.4, 0.3, 0.2, 0.1, 0.05]), "half") == 1 - 2 ** -6


def test_condition_number() -> None:
    assert condition_number(np.diag([5.0, 2.0, 1.0])) == pytest.approx(5.0)
    assert condition_number(np.outer([1.0, 1.0], [1.0, 0.0])) == float("inf")
    assert condition_number(np.diag([4.0, 2.0, 0.0]), rank=2) == pytest.approx(2.0)


# -- the model as printed --------------------------------------------------------------------------
def test_latents_and_noises_are_uniform_signs() -> None:
    s = DataModel().sample(500, np.random.default_rng(0))
    for key in ("wa", "wb", "wb_neg"):
        assert set(np.unique(s[key])) == {-1.0, 1.0}
    assert np.array_equal(s["wa"][:, :5], s["wb"][:, :5])  # a positive pair shares z


def test_population_normalization_is_exact_over_the_population() -> None:
    model = DataModel(sigma=(2.0, 1.0), sigma_xi=0.5, d_xi=2)
    Y = initial_factor(model, 64, seed=3)
    MA, _ = population_maps(Y, model)
    w = flow.signs(model.k)  # every input of the population, equally likely
    assert np.mean(np.sum((w @ MA.T) ** 2, axis=1)) == pytest.approx(1.0, abs=1e-12)
    assert np.std(np.linalg.norm(w @ MA.T, axis=1)) > 1e-3  # not normalized per sample


def test_reduced_parametrization_is_exact() -> None:
    """Gradient descent on the full W_A, W_B (m x d, explicit A, A_xi) and on the triangular factor
    of [Y_A, Y_B] give the same population maps, step by step."""
    import torch

    model = DataModel(sigma=(3.0, 1.0, 0.5), sigma_xi=0.3, d_xi=2, lam=1.0)
    m, d = 40, 7
    rng = np.random.default_rng(0)
    A, Axi = model.matrices(d, rng)
    B, Bxi = model.matrices(d, rng)
    WA0, WB0 = rng.standard_normal((m, d)) / math.sqrt(m), rng.standard_normal((m, d)) / math.sqrt(m)
    MA, MB = np.hstack([A, Axi]), np.hstack([B, Bxi])
    D = model.diag()
    Yfull = np.hstack([WA0 @ MA / D, WB0 @ MB / D])
    R = np.linalg.qr(Yfull, mode="r")
    WA = torch.tensor(WA0, requires_grad=True)
    WB = torch.tensor(WB0, requires_grad=True)
    Yr = torch.tensor(R, requires_grad=True)
    loss = loss_function(model)
    tMA, tMB, tD = torch.tensor(MA), torch.tensor(MB), torch.tensor(D)
    for beta in (None, 2.0):
        for _ in range(5):
            Y_of_W = torch.cat([WA @ tMA / tD, WB @ tMB / tD], 1)
            gA, gB = torch.autograd.grad(loss(Y_of_W, beta), [WA, WB])
            gY, = torch.autograd.grad(loss(Yr, beta), [Yr])
            with torch.no_grad():
                WA -= 0.3 * gA
                WB -= 0.3 * gB
                Yr -= 0.3 * gY
        full = state_metrics(torch.cat([WA @ tMA / tD, WB @ tMB / tD], 1).detach().numpy(), model)
        reduced = state_metrics(Yr.detach().numpy(), model)
        for key in ("cond", "cond_B", "rho_min", "noise_ratio", "balance"):
            assert reduced[key] == pytest.approx(full[key], rel=1e-9, abs=1e-12), key


def test_bartlett_factor_has_the_law_of_the_gaussian_qr_factor() -> None:
    model = DataModel(sigma=(1.0,) * 2, d_xi=1)
    grams = [initial_factor(model, 50, seed) for seed in range(400)]
    mean = np.mean([R.T @ R for R in grams], axis=0)  # E[G^T G] = I for G iid N(0, 1/m)
    assert np.allclose(mean, np.eye(2 * model.k), atol=0.03)
    assert all(np.allclose(R, np.triu(R)) and np.all(np.diag(R) > 0) for R in grams[:5])
    assert np.array_equal(initial_factor(model, None, 0), np.eye(2 * model.k))


def test_infinite_width_flow_matches_autograd() -> None:
    from theorems.papers.ren.exact import _autograd_flow, _plane_state

    model = DataModel(sigma=(2.0, 1.0, 0.7), sigma_xi=0.4, d_xi=2, lam=0.8)
    y = _plane_state(np.random.default_rng(1), model.r, model.d_xi)
    for beta in (None, 3.0):
        auto, leak = _autograd_flow(y, model, beta)
        assert np.allclose(auto, flow.rhs(y, model.flow(), beta), rtol=1e-10, atol=1e-12)
        assert leak < 1e-12


def test_lemma_a7_closed_form_on_pm1_but_not_on_the_cube() -> None:
    c = np.array([0.5, -0.2, 0.1])
    vals = flow.log_partition_enumerated(np.diag(c), 4.0, flow.signs(3))
    assert np.allclose(vals, flow.log_partition_closed(c, 4.0), atol=1e-13)
    cube = flow.cube_log_partition(c, 4.0, np.array([[0.1, 0.1, 0.1], [1.7, 1.7, 1.7]]))
    assert abs(cube[1] - cube[0]) > 0.5


# -- runs and the audit seed -----------------------------------------------------------------------
def test_training_is_deterministic_in_its_seed() -> None:
    spec = RunSpec("noncontrastive", DataModel(sigma=b17(2.0)), m=4096, seed=0, max_steps=60)
    a, b = train(spec), train(spec)
    c = train(RunSpec("noncontrastive", DataModel(sigma=b17(2.0)), m=4096, seed=1, max_steps=60))
    assert np.array_equal(a["cond"], b["cond"]) and np.array_equal(a["Y_end"], b["Y_end"])
    assert not np.array_equal(a["cond"], c["cond"])


def test_a_dynamics_claim_takes_the_audit_seed(tmp_path, monkeypatch) -> None:
    """ren.theorem43a (quick): the same audit seed gives the same measurements (computed twice, in two
    fresh caches), another audit seed trains on other seeds (the one seed rule: runs 0..4 of the stream
    ren.training) and gives other runs."""
    from numerics.seeds import run_seeds
    from theorems import MIN_SEEDS
    from theorems.papers.ren import dynamics

    claim = get("ren.theorem43a")

    def outcome(seed: int, cache: str) -> dict:
        monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / cache))
        dynamics.measure.cache_clear()
        return check_claim(claim, PROFILES["quick"], seed=seed).experiment

    first, again, other = outcome(0, "a"), outcome(0, "b"), outcome(1, "c")
    assert first["configurations"] == again["configurations"] and first["value"] == again["value"]
    assert first["seeds"] == run_seeds(0, "ren.training", MIN_SEEDS) == dynamics.training_seeds(0)
    assert other["seeds"] == run_seeds(1, "ren.training", MIN_SEEDS) and not set(first["seeds"]) & set(other["seeds"])
    key = "cond(end) median"
    assert [row[key] for row in first["configurations"]] != [row[key] for row in other["configurations"]]
    assert all(len(row["holds"]) == MIN_SEEDS and row["at_init"] is not None for row in first["configurations"])


# -- measurements, not verdicts --------------------------------------------------------------------
def test_merged_regime_keeps_the_worst_run() -> None:
    from theorems import at_most, holds
    from theorems.engine.experiment import RegimeCheck
    from theorems.papers.ren.dynamics import merged_regime

    ok = [RegimeCheck("gap", "t", 0.05, "<= 0.1", at_most(0.05, 0.1))]
    bad = [RegimeCheck("gap", "t", 0.2, "<= 0.1", at_most(0.2, 0.1))]
    merged = merged_regime([ok, ok, bad])
    assert len(merged) == 1 and merged[0].value == 0.2 and not holds(merged[0].holds)
    assert holds(merged_regime([ok, ok])[0].holds)


def _fake_runs(monkeypatch, works):
    """Replace the training runs of ren.theorem43b by synthetic measurements: run (pair, sigma, seed) ends
    balanced iff works(pair, sigma, seed)."""
    from numerics.enclosure import Enclosure
    from theorems import at_most
    from theorems.engine.experiment import RegimeCheck
    from theorems.papers.ren import dynamics

    def fake(spec, n_align, end_stream=None, at_t1=False):
        ok = works((spec.beta1, spec.beta2), spec.model.sigma, spec.seed)
        return {"checks": (RegimeCheck("gap", "t", 0.0, "<= 0.1", at_most(0.0, 0.1)),), "in_regime": True,
                "align0": 0.7, "align0_mc": Enclosure(0.69, 0.71), "align_end": 0.98, "align_end_mc": Enclosure(0.97, 0.99),
                "bal0": 4.0, "bal_end": 4.8 if ok else 1.2, "cond_end": 1.05, "cond_T1": 9.0, "T1": 300, "steps": 600,
                "flow_cond_end": 1.05, "cond_gap": 0.01}

    monkeypatch.setattr(dynamics, "measure", fake)


def test_theorem43b_literal_needs_one_pair_for_every_model(monkeypatch) -> None:
    """Each pair works on one model only: the literal reading (a pair before the model) finds no witness,
    the reading 'betas chosen per model' is consistent -- the order of the quantifiers decides."""
    from theorems.engine.claim import RunContext
    from theorems.engine.rules.experiment import experiment_verdict
    from theorems.engine.verdict import Verdict
    from theorems.papers.ren import dynamics

    pairs = [(b1, b2) for b1 in dynamics.betas(False)[0] for b2 in dynamics.betas(False)[1]]
    models = list(dynamics.spectra(False).values())
    _fake_runs(monkeypatch, lambda pair, sigma, seed: pairs.index(pair) == models.index(sigma) % len(pairs))
    ctx = RunContext(seed=0, quick=False)
    literal = experiment_verdict("exists", dynamics.theorem43b(ctx))
    per_model = experiment_verdict("forall", dynamics.theorem43b_per_model(ctx))
    assert literal.verdict == Verdict.UNTESTED and "no witness" in literal.reason
    assert per_model.verdict == Verdict.CONSISTENT
    _fake_runs(monkeypatch, lambda pair, sigma, seed: pair == pairs[1])
    assert experiment_verdict("exists", dynamics.theorem43b(ctx)).witness["beta2"] == pairs[1][1]
    seeds = dynamics.training_seeds(0)
    _fake_runs(monkeypatch, lambda pair, sigma, seed: seeds.index(seed) % 2 == 0)  # the seeds disagree: never a witness
    assert experiment_verdict("exists", dynamics.theorem43b(ctx)).verdict == Verdict.UNTESTED


def test_the_constant_map_certificate_covers_every_constant_map() -> None:
    from theorems.papers.ren.exact import constant_map_certificate

    const = constant_map_certificate()
    assert const.ok and const.complete  # every constant map: the two distances are one expression


def test_a_fixed_beta1_undoes_the_stage1_growth_eventually() -> None:
    """The infinite-width Stage-1 flow at a fixed beta1: cond(P_A) grows past kappa, then comes back to it
    at a finite time after T*, later for a smaller beta1."""
    from theorems.papers.ren.dynamics import reversal_time

    fast, slow = reversal_time(0.1), reversal_time(0.05)
    assert fast["peak"] > 5.0 and fast["T*"] < fast["T_back"] < slow["T_back"] < math.inf


# -- the stated ODE error ----------------------------------------------------------------------------
def test_the_stated_ode_error_bounds_the_global_error() -> None:
    """ren.ode.ERROR bounds the global error of what the claims read off an integrated flow (log cond(P_A), min
    rho_k), measured against the same flow at rtol 1e-13: Stage 1 (non-contrastive, beta1 = 0.02, 0.1) and Stage 2
    (beta2 = 2) on every data model of the sweeps (ren.theorem43a's included), and the aligned noiseless Stage-2
    start of C.19/C.20 at its finer settings."""
    from scipy.integrate import solve_ivp

    from theorems.papers.ren import ode
    from theorems.papers.ren.dynamics import spectra
    from theorems.papers.ren.model import geometric, stage1_end, two_level

    reference = {"method": ode.METHOD, "rtol": 1e-13, "atol": 1e-15}

    def read(fm, y0, beta, horizon, stage2=False):
        ts = np.linspace(0.0, horizon, 400)
        out = []
        for opts in (ode.settings(stage2), reference):
            sol = solve_ivp(lambda t, y: flow.rhs(y, fm, beta), (0.0, horizon), y0, t_eval=ts, **opts)
            assert sol.success
            tq = [flow.tracked(y, fm) for y in sol.y.T]
            out.append((np.log([q["cond"] for q in tq]), np.array([q["rho"].min() for q in tq])))
        (lc, rho), (lc_ref, rho_ref) = out
        return max(float(np.max(np.abs(lc - lc_ref))), float(np.max(np.abs(rho - rho_ref))))

    worst = 0.0
    models = [*spectra(False).values(), *(b17(k) for k in (1.1, 1.2, 1.5, 3.0)), geometric(1.5), two_level(1.5)]
    for sigma in models:
        model = DataModel(sigma=sigma)
        fm = model.flow()
        for beta, horizon in ((None, 300.0), (0.02, 300.0), (0.1, 2000.0), (2.0, 300.0)):
            worst = max(worst, read(fm, flow.initial_state(fm), beta, horizon))
        q = flow.tracked(stage1_end(model)["y1"], fm)
        fm0 = flow.FlowModel(fm.sigma, 0.0, model.d_xi, fm.lam)
        start = flow.aligned_state(q["a"] / q["a"].sum(), q["NA2"], fm0)
        worst = max(worst, read(fm0, start, 2.0, 2000.0, stage2=True))
    assert worst <= ode.ERROR / 2, worst


def test_the_cube_partition_takes_the_limit_at_zero_exactly() -> None:
    """log(sinh x / x) is 0 at x = 0 (the 0/0 guard is the exact test x == 0), and tiny x divide as they are."""
    x = math.sqrt(3.0) * 0.5
    out = flow.cube_log_partition([0.5, 0.0, 1e-300], 1.0, np.array([[1.0, 1.0, 1.0]]))
    assert out[0] == pytest.approx(math.log(math.sinh(x) / x), rel=1e-15)
