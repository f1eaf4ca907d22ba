"""Wen & Li: the model, the masks, the exact second moments, the certificates, the metrics, the
regime checks and the seeds of the dynamics claims."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.seeds import run_seed, run_seeds
from theorems import MIN_SEEDS, RunContext, holds
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import dynamics_experiments as dyx
from theorems.papers.wen import exact_experiments as exx
from theorems.papers.wen import exact as ex
from theorems.papers.wen import model as wm


def test_model_as_printed() -> None:
    data = wm.Data()
    M = data.dictionary()
    assert np.allclose(M.T @ M, np.eye(data.d1))  # column-orthonormal
    assert data.p < data.sigma ** 2 < 1  # p << sigma^2 << 1
    x, z, xi = data.sample(20_000, np.random.default_rng(0))
    assert set(np.unique(z)) <= {-1.0, 0.0, 1.0}
    assert np.mean(z != 0) == pytest.approx(data.p, rel=0.1)
    assert np.mean(z == 1) == pytest.approx(np.mean(z == -1), rel=0.15)  # symmetric
    assert np.allclose(x, z @ M.T + xi)
    assert np.var(xi) == pytest.approx(data.sigma ** 2, rel=0.02)
    xa, za, _ = data.sample_active(500, np.random.default_rng(1))
    assert np.all(np.any(za != 0, axis=1))


def test_noise_variants_have_the_stated_covariance() -> None:
    rng = np.random.default_rng(2)
    for noise, excess in (("diagonal", 3.0), ("coordinate", 3.0), ("dense", 1.0)):
        data = wm.Data(noise=noise, excess=excess)
        _, _, xi = data.sample(60_000, rng)
        emp = xi.T @ xi / len(xi)
        assert np.abs(emp - data.noise_cov()).max() < 0.01
        assert np.mean(np.diag(data.noise_cov()))  # nonzero
    diag = wm.Data(noise="diagonal", excess=3.0).noise_variances()
    assert diag.mean() == pytest.approx(wm.Data().sigma ** 2) and diag.max() / diag.min() == pytest.approx(16.0)
    # the order of the variances is a model constant of its own (order_seed), not derived from dict_seed
    assert np.array_equal(diag, wm.Data(noise="diagonal", excess=3.0, dict_seed=1).noise_variances())
    u, s2 = wm.Data(noise="dense", excess=1.0).spike()
    assert np.allclose(wm.Data().dictionary().T @ u, 0) and np.linalg.norm(u) == pytest.approx(1.0)


def test_masks_are_complementary() -> None:
    rng = np.random.default_rng(0)
    x, _, _ = wm.Data().sample(64, rng)
    diag = wm.masks(64, x.shape[1], rng)
    assert set(np.unique(diag)) <= {0.0, 1.0}
    assert abs(diag.mean() - 0.5) < 0.05
    xp, xpp = wm.views(x, diag)
    assert np.allclose(0.5 * (xp + xpp), x)
    assert np.all((xp == 0) | (xpp == 0))  # disjoint supports


def test_mask_moment_matches_monte_carlo() -> None:
    out = ex.monte_carlo_moment(wm.Data(), 40_000, np.random.default_rng(3))
    assert out["max_z_masks"] < 5 and out["max_z_none"] < 5


def test_certificates() -> None:
    assert ex.certificate_mask_moment()["holds"]
    assert ex.certificate_noise_cancels()["holds"]
    cert = ex.certificate_conditional_independence()
    assert cert["diagonal_noise_decoupled"] and not cert["correlated_noise_decoupled"]
    assert ex.certificate_lemma_b3()["holds"]
    cov = ex.certificate_norm_covariance()
    assert cov["holds"] and cov["per_coordinate"] == "-4*s**2"


def test_norm_covariance_matches_monte_carlo() -> None:
    """The two masked noises are not independent unconditionally: Cov of their squared norms is -4 d sigma^4."""
    data = wm.Data()
    out = ex.decorrelation_mc(data, 40_000, np.random.default_rng(11))
    assert out["norm_cov_exact"] == pytest.approx(-4 * data.d * data.sigma ** 4)
    assert abs(out["norm_cov"] - out["norm_cov_exact"]) <= 4 * out["norm_cov_se"]
    assert out["max_z"] < 4.5


def test_stage1_rates_exact() -> None:
    data = wm.Data()
    r = wm.rates(data)
    assert r["masks"]["sparse_min"] > 0 and r["masks"]["dense_max"] <= 1e-12
    assert r["none"]["sparse_min"] == pytest.approx(data.p + data.sigma ** 2)
    assert r["none"]["dense_max"] == pytest.approx(data.sigma ** 2)
    spike = wm.rates(wm.Data(noise="dense", excess=3.0))
    assert spike["masks"]["dense_max"] > spike["masks"]["sparse_max"]  # a delocalized spike is not decoupled


def test_lemma_b3_bound_and_contrast() -> None:
    M = wm.Data(d=400, d1=50).dictionary()
    st = ex.lemma_b3_stats(M)
    uniform, per_pair = ex.lemma_b3_bound(st, 1 / 400, True), ex.lemma_b3_bound(st, 1 / 400, False)
    general = st["inf_norm"] * math.sqrt(2 * math.log(2 * st["pairs"] * 400))  # from ||M_j||_inf alone
    assert per_pair < uniform <= general
    draws = ex.lemma_b3_draws(M, 8, 0)
    assert draws["maxima"].max() <= uniform and draws["pair_max_count"] <= 8
    bad = ex.lemma_b3_draws(ex.coordinate_dictionary(400, 50), 2, 0)
    assert bad["maxima"] == pytest.approx([1.0, 1.0])  # |e_jj| = 1: the premise ||M_j||_inf small is needed
    assert ex.binomial_tail(40, 0, 0.01) == 1.0
    assert ex.binomial_tail(40, 1, 0.01) == pytest.approx(1 - 0.99 ** 40)


def test_z_radius_is_bonferroni() -> None:
    from scipy.special import ndtr

    r = ex.z_radius(100, 1e-3)
    assert 2 * 100 * ndtr(-r) == pytest.approx(1e-3)
    assert ex.z_radius(4160) > ex.z_radius(36)


def test_retention_fails_for_coordinate_atoms() -> None:
    rng = np.random.default_rng(5)
    good = ex.retention_row(wm.Data(d=400, d1=50).dictionary(), 0.25, 20, rng)
    bad = ex.retention_row(ex.coordinate_dictionary(100, 12), 0.25, 20, rng)
    assert good["masked_out"] < 1e-100 and good["cert_lost"] < 1e-3
    assert bad["masked_out"] == 1.0 and bad["decoded_both"] == 0.0


def test_lottery_probability_is_exact() -> None:
    assert wm.lottery_probability(3, 3, 1) == pytest.approx(6 / 27)
    assert wm.lottery_probability(4, 2, 2) == pytest.approx(6 / 16)
    rng = np.random.default_rng(6)
    tops = rng.integers(0, 6, (20_000, 42))
    counts = np.stack([np.sum(tops == j, axis=1) for j in range(6)], axis=1)
    assert np.mean(counts.min(axis=1) >= 2) == pytest.approx(wm.lottery_probability(42, 6, 2), abs=0.01)


def test_sym_relu_is_odd_and_linear_at_zero_bias() -> None:
    import torch

    u = np.linspace(-3, 3, 61)
    for b in (0.0, 0.5, 2.0):
        assert np.array_equal(wm.sym_relu(-u, b), -wm.sym_relu(u, b))
        assert np.all(wm.sym_relu(u[np.abs(u) <= b], b) == 0)
        t = torch.tensor(u)
        assert torch.equal(wm.sym_relu(-t, b), -wm.sym_relu(t, b))
    assert np.array_equal(wm.sym_relu(u, 0.0), u)


def test_metrics_on_hand_made_weights() -> None:
    data = wm.Data()
    M = data.dictionary()
    orth = np.random.default_rng(7).standard_normal(data.d)
    orth -= M @ (M.T @ orth)
    W = np.stack([3.0 * M[:, j] for j in range(data.d1) for _ in range(2)] + [orth])
    table = wm.atom_table(W, M)
    assert table["covered"] == data.d1 and table["min_count"] == 2 and table["singletons"] == 2 * data.d1
    # a dense-only network: the representation is all noise; an atom-aligned one: all signal
    rng = np.random.default_rng(8)
    dense = wm.representation_split(orth[None, :], np.zeros(1), data, 200, rng)
    assert np.all(dense["signal"] < 1e-9)
    atoms = wm.representation_split(M.T.copy(), 0.5 * np.ones(data.d1), data, 200, rng)
    assert np.median(atoms["signal"] / np.maximum(atoms["noise"], 1e-12)) > 1


def test_probe_baseline_matches_the_exact_oracle() -> None:
    data = wm.Data()
    raw = dy.raw_baseline(data, 0)
    assert raw["oracle_r2"] == pytest.approx(data.p / (data.p + data.sigma ** 2))
    assert abs(raw["r2"] - raw["oracle_r2"]) < 0.05


def test_regime_checks_catch_the_old_model() -> None:
    """The earlier model (p = 0.1 > sigma^2 = 0.0625, d = 100, d1 = 10) is outside the regime."""
    old = wm.Data(d=100, d1=10, sigma=0.25, kappa=0.625)
    failed = [c.name for c in dy.model_checks(old) if not holds(c.holds)]
    assert failed == ["dense noise dominating each sparse direction"]
    assert not all(holds(c.holds) for c in dy.raw_checks(old))
    assert all(holds(c.holds) for c in dy.model_checks(wm.Data()))
    # sigma^2/p = 4 exactly at the default model: the measured ratio (rounding ~1e-15) is decided by the engine
    kappa = dy.model_checks(wm.Data())[0]
    assert kappa.value == pytest.approx(dy.KAPPA_MIN) and holds(kappa.holds)


def test_growth_advantage_is_the_exact_rate_ratio() -> None:
    data, lrn = wm.Data(), wm.Learner(augment=False, bias=0.0)
    g = lrn.negatives / (lrn.negatives + 1) / lrn.tau
    rho = math.log1p(lrn.lr * g * (data.sigma ** 2 + data.p) - lrn.lr * lrn.lam) / \
        math.log1p(lrn.lr * g * data.sigma ** 2 - lrn.lr * lrn.lam)
    assert wm.growth_advantage(data, lrn, 10.0) == pytest.approx(10.0 ** (rho - 1))


def test_loss_is_finite_and_linear_at_zero_bias() -> None:
    import torch

    data = wm.Data()
    rng = np.random.default_rng(9)
    x, _, _ = data.sample(48, rng)
    xp, xpp = wm.views(x, wm.masks(48, data.d, rng))
    W = torch.randn(8, data.d, dtype=torch.float64, requires_grad=True)
    t = [torch.from_numpy(a) for a in (xp[:32], xpp[:32], x[32:])]
    loss = wm.contrastive_loss(W, torch.zeros(8, dtype=torch.float64), *t, 0.5)
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(W.grad).all()


def test_training_takes_the_seed(tmp_path, monkeypatch) -> None:
    """Same seed: bit-identical weights; another seed: another run (initialization and data)."""
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    lrn = wm.Learner(steps=20, log_every=10)
    a = wm.train(wm.Run(wm.Data(), lrn, 0))["W"]
    b = wm.train(wm.Run(wm.Data(), lrn, 0))["W"]
    c = wm.train(wm.Run(wm.Data(), lrn, 1))["W"]
    assert np.array_equal(a, b)
    assert not np.allclose(a, c)


def test_dynamics_claim_takes_the_audit_seed(tmp_path, monkeypatch) -> None:
    """wen.theorem34 (quick, MIN_SEEDS seeds of the audit seed's stream): the same seed gives the same
    measurements, recomputed from an empty cache; a different audit seed trains other runs, none shared."""
    def outcome(seed: int, cache: str) -> dict:
        monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / cache))
        return dyx.theorem34_experiment("some")(RunContext(seed=seed, quick=True)).to_json()

    first, again, other = outcome(0, "a"), outcome(0, "b"), outcome(1, "c")
    assert first == again
    assert first["seeds"] == run_seeds(0, dy.STREAM, MIN_SEEDS) and other["seeds"] == run_seeds(1, dy.STREAM, MIN_SEEDS)
    assert not set(first["seeds"]) & set(other["seeds"])
    assert other["observations"][0]["values"] != first["observations"][0]["values"]


def test_seeds_reach_the_engine_minimum() -> None:
    """Every seed list is MIN_SEEDS runs of a named stream (the one seed rule): audits at different seeds share
    none, and the claims' Monte Carlo streams are their own."""
    for quick in (True, False):
        assert len(dy.seeds(7, quick)) >= MIN_SEEDS and dy.seeds(7, quick)[0] == run_seed(7, dy.STREAM, 0)
        assert not set(dy.seeds(7, quick)) & set(dy.seeds(8, quick))
    streams = ("wen.lemma_b3", "wen.stage1_gradient", "wen.mask_decorrelation")
    assert all(len(exx.mc_seeds(3, s)) >= MIN_SEEDS for s in streams)
    assert len({seed for s in streams for seed in exx.mc_seeds(3, s)}) == len(streams) * MIN_SEEDS


def test_initial_weights_are_the_training_start(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    run = wm.Run(wm.Data(), wm.Learner(steps=0), 3)
    assert np.array_equal(wm.train(run)["W"], wm.initial_weights(run))
    assert not np.array_equal(wm.initial_weights(run), wm.initial_weights(wm.Run(wm.Data(), wm.Learner(), 4)))


def test_at_init_metrics_are_the_metrics_of_the_untrained_network() -> None:
    """Measured on arrays whose trained weights are the initialization (bias 0), the at-init metrics
    equal the trained ones; the untrained network fails Theorem 3.4's rule and passes Theorem 3.2's."""
    run = wm.Run(wm.Data(), wm.Learner(augment=False, bias=0.0), 5)
    W0 = wm.initial_weights(run)
    arrays = {"W": W0, "b": np.zeros(len(W0)), "step": np.array([0.0, 1.0]), "norm": np.array([1.0, 1.0]),
              "W_stage3": W0[None], "step_stage3": np.array([500.0])}
    m = dy._measure(run, arrays)
    for key in ("covered", "min_count", "dense_share", "ratio_q50", "ratio_q90", "r2", "acc"):
        assert m["init_" + key] == pytest.approx(m[key]), key
    d1, k = run.data.d1, wm.needed_per_atom(run.learner.m, run.data.d1)
    assert not holds(dy.theorem34_at_init(m, d1, k))
    assert holds(dy.theorem32_outcome(m["init_ratio_q50"], m["init_ratio_q90"], level="0.9"))
    assert m["init_dense_share"] > 0.5


def decided(outcome: object) -> bool | None:
    """A per-seed outcome as the engine decides it (None: the run cannot tell)."""
    return None if outcome is None else holds(outcome)


def test_per_seed_rules() -> None:
    """Each rule reports a measured relation (never a bool it decided with a tolerance of its own), counts as
    exact facts, and None where the run cannot tell; the engine's decision is the rule's outcome."""
    assert decided(dy.theorem32_outcome(0.5, 0.9)) is True
    assert decided(dy.theorem32_outcome(1.2, 1.5)) is False
    assert dy.theorem32_outcome(0.8, 1.1) is None
    assert dy.theorem32_outcome(float("nan"), 0.5) is None
    assert dy.theorem32_outcome(0.5, None) is None  # the w.h.p. quantile not estimable: holding cannot be shown
    assert decided(dy.theorem32_outcome(1.2, None)) is False
    assert decided(dy.theorem34_outcome(6, 2, 0.1, 6, 2)) is True
    assert dy.theorem34_outcome(5, 0, 0.1, 6, 2) is False  # an atom without a singleton neuron: an exact count
    assert decided(dy.theorem34_outcome(6, 2, 0.6, 6, 2)) is False
    assert dy.theorem34_outcome(6, 1, 0.1, 6, 2) is None  # below k but covered: Omega's constant unknown
    run = {"covered": 6, "min_count": 1, "dense_share": 0.1, "s3_covered": np.array([6, 6, 5]),
           "s3_min_count": np.array([2, 1, 0]), "s3_dense_share": np.array([0.1, 0.1, 0.1])}
    assert decided(dy.stage3_outcome(run, 6, 2, "some")) is True
    assert decided(dy.stage3_outcome(run, 6, 2, "every")) is False
    assert dy.stage3_outcome(run, 6, 2, "final") is None
    raw = {"r2": 0.2, "acc": 0.8}
    assert holds(dy.corollary35(0.7, 0.95, raw)) and not holds(dy.corollary35(0.21, 0.95, raw))
    assert holds(dy.corollary33(0.2, 0.8, raw)) and not holds(dy.corollary33(0.3, 0.8, raw))
    with pytest.raises(TypeError):  # a measured relation is not a bool: only the engine decides it
        bool(dy.corollary33(0.2, 0.8, raw))
    # at the threshold the engine's tolerance decides: a dense share DENSE_MAX (1 + 1e-12) is within it
    assert decided(dy.theorem34_outcome(6, 2, dy.DENSE_MAX * (1 + 1e-12), 6, 2)) is True


def test_no_certificate_claims_more_than_it_covers() -> None:
    """The certificates of stage1_gradient and mask_decorrelation cover an identity or finitely many d: none is
    complete (a statement about every d certified at some d is at most consistent). Lemma B.3's covers every d and
    every dictionary of the premise (issue 38: a symbolic d), modulo Hoeffding's inequality, and says so."""
    ctx = RunContext(seed=0, quick=True)
    for fn in (exx.stage1_gradient, exx.mask_decorrelation_experiment("conditioned on D")):
        certs = fn(ctx).certificates
        assert certs and all(c.ok and not c.complete for c in certs)
    for name in ("literal", "uniform over pairs", "w.h.p. = 1 - exp(-log^2 d)"):
        (cert,) = exx.lemma_b3_experiment(name)(ctx).certificates
        assert cert.ok and cert.complete and cert.modulo == (exx.HOEFFDING,) and "every d" in cert.domain


def test_mask_decorrelation_readings_measure_what_they_read() -> None:
    """Independence unconditionally fails exactly; given D (and along fixed directions) it holds."""
    from theorems.papers.wen.readings import DECORRELATION

    ctx = RunContext(seed=0, quick=True)
    part_i = {name: exx.mask_decorrelation_experiment(name)(ctx).observations[0].holds for name in DECORRELATION}
    assert part_i == {"literal": (False,), "conditioned on D": (True,), "uncorrelated along fixed directions": (True,)}


def test_no_verdict_in_the_plugin() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "theorems" / "papers" / "wen"
    assert not [p.name for p in root.glob("*.py") if "Verdict" in p.read_text()]
