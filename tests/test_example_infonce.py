"""The second outside plugin (examples/infonce): a labelled mixture, an expectation over K draws and a
gradient identity, through the public API only. Its claims run under pytest with their marker; its
quantities agree with closed forms; and each claim's check can fail: a wrong constant or sign is refuted."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy
import torch  # noqa: F401  (loaded before pytester's in-process run, which forgets the modules it imported)

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.mixture import FiniteMixture
from theorems import Claim, Eq, Kind, Le, Source, parts
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.verdict import Verdict
from theorems.subjects import Subject

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "infonce"
FAST = Budget(examples=60, adversarial_starts=2, adversarial_steps=30, shrink_tries=200)
SRC = Source("test", "a mutated printed statement")


@pytest.fixture
def ic(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    monkeypatch.syspath_prepend(str(FOLDER))
    import infonce_claims

    yield infonce_claims
    sys.modules.pop("infonce_claims", None)


def _mixture_subject(points: list[list[list[float]]], rho: list[float], K: int, t: float) -> Subject:
    weights = [np.full(len(p), 1.0 / len(p)) for p in points]
    mix = FiniteMixture.create(np.asarray(rho), [np.asarray(p, dtype=float) for p in points], weights)
    return Subject({}, {"mixture": mix, "K": K, "t": t})


def _brute_force_ince(points: list[list[list[float]]], rho: list[float], K: int, t: float) -> float:
    """Poole et al. (12) by enumerating the K-tuples of draws (ordered, not multisets)."""
    flat = [(c, np.asarray(z, dtype=float), rho[c] / len(pts)) for c, pts in enumerate(points) for z in pts]
    mu = [np.mean(np.asarray(pts, dtype=float), axis=0) for pts in points]
    total = 0.0
    for draw in np.ndindex(*([len(flat)] * K)):
        mass = math.prod(flat[a][2] for a in draw)
        terms = [t * flat[a][1] @ mu[flat[a][0]] - math.log(np.mean([math.exp(t * flat[a][1] @ mu[flat[b][0]])
                                                                     for b in draw])) for a in draw]
        total += mass * np.mean(terms)
    return total


def test_its_claims_are_items_under_its_marker_and_one_runs(tmp_path: Path, env_plugin, marker_items,  # noqa: ANN001
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Its paper's marker selects exactly its claims as pytest items, and a selected item runs and passes. Every
    claim's verdict is checked by CI's audit of the example plugins (``.ci/run``), not again here."""
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    env_plugin("infonce_claims", folder=FOLDER)
    marker_items("infonce", "gradient and negative", passed=1)


def test_i_nce_over_multisets_is_the_average_over_ordered_draws(ic) -> None:  # noqa: ANN001
    points, rho = [[[1.0, 0.0], [0.5, 0.5]], [[-1.0, 0.2]]], [0.3, 0.7]
    subject = _mixture_subject(points, rho, K=3, t=1.5)
    expected = _brute_force_ince(points, rho, 3, 1.5)
    for xp in (FLOAT, mp_backend(40), torch_backend()):
        value = ic.mixtures.quantities(subject, [ic.I_NCE], xp)[ic.I_NCE]
        assert float(value) == pytest.approx(expected, rel=1e-12)


def test_i_cz_merges_equal_embeddings(ic) -> None:  # noqa: ANN001
    """Distinct embeddings: I(C; Z) = H(C). The same embedding in both classes: that value of Z carries no
    information, I = 0 when it is the only one."""
    rho = [0.25, 0.75]
    distinct = _mixture_subject([[[1.0]], [[2.0]]], rho, K=2, t=1.0)
    entropy = -sum(p * math.log(p) for p in rho)
    assert float(ic.mixtures.quantities(distinct, [ic.I_CZ], FLOAT)[ic.I_CZ]) == pytest.approx(entropy, rel=1e-14)
    same = _mixture_subject([[[1.0]], [[1.0]]], rho, K=2, t=1.0)
    assert abs(float(ic.mixtures.quantities(same, [ic.I_CZ], mp_backend(40))[ic.I_CZ])) < 1e-30


def test_the_gradient_quantities_match_the_closed_form(ic) -> None:  # noqa: ANN001
    sim, tau = np.array([0.3, 0.9, -0.4]), 0.2
    P = np.exp(sim / tau) / np.exp(sim / tau).sum()
    subject = Subject({"n": 3}, {"sim": sim, "tau": tau, "j": 2})
    values = ic.rows.quantities(subject, [ic.dL_ds_ii, ic.dL_ds_ij, ic.P_ij, ic.P_neg], FLOAT)
    assert float(values[ic.dL_ds_ii]) == pytest.approx((P[0] - 1) / tau, rel=1e-13)
    assert float(values[ic.dL_ds_ij]) == pytest.approx(P[2] / tau, rel=1e-13)
    assert float(values[ic.P_neg]) == pytest.approx(P[1] + P[2], rel=1e-13)


@pytest.mark.parametrize("mutation", ["no 1/tau", "wrong sign", "P_ij for the positive"])
def test_a_wrong_gradient_identity_is_refuted(ic, mutation: str) -> None:  # noqa: ANN001
    tau = ic.rows.symbol("tau")
    relation = {"no 1/tau": Eq(ic.dL_ds_ij, ic.P_ij), "wrong sign": Eq(ic.dL_ds_ii, ic.P_neg / tau),
                "P_ij for the positive": Eq(ic.dL_ds_ii, -ic.P_ij / tau)}[mutation]
    claim = Claim("t.gradient", Kind.IDENTITY, SRC, parts(relation), subjects=(ic.rows,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED, result.reason


def test_the_printed_gradient_identities_pass_the_float_screen(ic) -> None:  # noqa: ANN001
    """Through xp.grad the float64 margin is within the tolerance of its 60-digit twin: the screen is reliable."""
    claim = Claim("t.gradient", Kind.IDENTITY, SRC, parts(Eq(ic.dL_ds_ij, ic.P_ij / ic.rows.symbol("tau"))),
                  subjects=(ic.rows,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.CONSISTENT and not result.float_screen["unreliable"]
    assert result.float_screen["audited"] > 0


@pytest.mark.parametrize("mutation", ["log(K - 1)", "I_CZ - 1/100"])
def test_a_bound_made_too_tight_is_refuted(ic, mutation: str) -> None:  # noqa: ANN001
    K = ic.mixtures.symbol("K")
    bound = {"log(K - 1)": sympy.log(K - 1), "I_CZ - 1/100": ic.I_CZ - sympy.Rational(1, 100)}[mutation]
    claim = Claim("t.bound", Kind.INEQUALITY, SRC, parts(Le(ic.I_NCE, bound)), subjects=(ic.mixtures,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED, result.reason
