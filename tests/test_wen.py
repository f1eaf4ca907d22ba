"""Wen & Li: masks, activation, metrics, certificates and the verdicts of the wen claims."""

from __future__ import annotations

import numpy as np
import pytest

from theorems.papers.wen import claims as wen
from theorems.papers.wen import model as wm
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.registry import get


def test_masks_are_complementary() -> None:
    rng = np.random.default_rng(0)
    x, _, _ = wm.sample(64, rng)
    diag = wm.masks(64, x.shape[1], rng)
    assert set(np.unique(diag)) <= {0.0, 1.0}
    xp, xpp = wm.views(x, diag)
    assert np.array_equal(0.5 * (xp + xpp), x)
    assert np.all((xp == 0) | (xpp == 0))  # disjoint supports


def test_sym_relu_is_odd_numpy_and_torch() -> None:
    import torch

    u = np.linspace(-3, 3, 61)
    for b in (0.0, 0.5, 2.0):
        assert np.array_equal(wm.sym_relu(-u, b), -wm.sym_relu(u, b))
        assert np.all(wm.sym_relu(u[np.abs(u) <= b], b) == 0)
        t = torch.tensor(u)
        assert torch.equal(wm.sym_relu(-t, b), -wm.sym_relu(t, b))


def test_sparse_share_on_hand_made_weights() -> None:
    M = wm.dictionary()
    assert np.allclose(M.T @ M, np.eye(M.shape[1]))
    atom = 3.0 * M[:, 2]
    orth = np.random.default_rng(1).standard_normal(M.shape[0])
    orth -= M @ (M.T @ orth)
    share = wm.sparse_share(np.stack([atom, orth]), M)
    assert share[0] == pytest.approx(1.0) and share[1] == pytest.approx(0.0, abs=1e-12)
    assert wm.singletons(np.stack([atom, orth]), M) == (1, 1)


def test_sympy_certificates() -> None:
    assert wen.certificate_decorrelation(3)["holds"]
    cert = wen.certificate_recovery(3)
    assert cert["var_formula"] and cert["bound_identity"]


def test_recovery_bound_exact() -> None:
    exact = wen.exact_recovery()
    assert np.all(exact["corr_plus"] >= exact["corr"] / np.sqrt(2))


def test_loss_is_finite_and_views_used() -> None:
    import torch

    rng = np.random.default_rng(2)
    x, _, _ = wm.sample(16, rng)
    xp, xpp = wm.views(x, wm.masks(16, x.shape[1], rng))
    W = torch.randn(wm.WIDTH, x.shape[1], dtype=torch.float64, requires_grad=True)
    loss = wm.contrastive_loss(W, torch.zeros(wm.WIDTH, dtype=torch.float64), *(torch.from_numpy(a) for a in (xp, xpp, x)))
    loss.backward()
    assert torch.isfinite(loss) and torch.isfinite(W.grad).all()


@pytest.mark.parametrize("claim_id", ["wen.mask_decorrelation", "wen.theorem32", "wen.theorem34", "wen.downstream"])
def test_expected_verdict(claim_id: str) -> None:
    claim = get(claim_id)
    result = check_claim(claim, Budget(examples=0, adversarial_starts=0, quick=True))
    assert result.expected, result.expected_note + " " + result.reason
    assert result.verdict.value in claim.expect
