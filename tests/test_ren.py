"""Ren & Li: metrics on hand-made cases, the model as printed (+-1 latents, population normalization),
the exactness of the reduced parametrization, the infinite-width flow, and the audit seed."""

from __future__ import annotations

import math

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
    assert {c.id for c in all_claims(["ren"])} == REN_IDS
    assert get("ren.theorem43a").quantifier == "exists" and get("ren.theorem43b").quantifier == "exists"
    assert get("ren.lemma_b17").quantifier == "exists" and get("ren.stagewise").quantifier == "forall"


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
    """ren.theorem43a (quick): the same seed gives the same outcome (computed twice, in two fresh
    caches), a different seed gives different runs."""
    claim = get("ren.theorem43a")

    def outcome(seed: int, cache: str) -> dict:
        monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / cache))
        result = check_claim(claim, PROFILES["quick"], seed=seed)
        return result.experiment

    first, again, other = outcome(0, "a"), outcome(0, "b"), outcome(1, "c")
    strip = lambda e: [{k: v for k, v in row.items()} for row in e["configurations"]]
    assert strip(first) == strip(again) and first["value"] == again["value"]
    assert first["seeds"] == [0] and other["seeds"] == [1]
    assert [row["cond_end"] for row in first["configurations"]] != [row["cond_end"] for row in other["configurations"]]
