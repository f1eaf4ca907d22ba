"""training.losses against direct Python-loop evaluations of the printed formulas (floats, math.exp/math.log).

Merad et al. (6) and (11); Huang et al.'s InfoNCE (||f|| = 1) and cross-correlation loss.
For large logits the reference divides numerator and denominator of the printed
ratio by the same e^m (an exact identity), since math.exp overflows past ~709.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from numerics.errors import AssumptionError
from training.losses import (contrastive_loss_n, contrastive_loss_shared_negatives, cross_correlation_loss,
                             infonce_loss, positive_only_loss, triplet_objective)

TOL = 1e-10


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOL, abs_tol=TOL)


def dot(u: list[float], v: list[float]) -> float:
    return sum(a * b for a, b in zip(u, v))


def neg_log_ratio(s_pos: float, s_negs: list[float]) -> float:
    """-log(e^{s+} / (e^{s+} + sum_i e^{s-_i})) with e^m divided out of both (m = the largest logit):
    = -(s+ - m) + log(e^{s+ - m} + sum_i e^{s-_i - m}), as log(e^u) = u (e^u alone underflows for u < -708)."""
    m = max([s_pos, *s_negs])
    den = math.exp(s_pos - m) + sum(math.exp(s - m) for s in s_negs)
    return -(s_pos - m) + math.log(den)


def ref_contrastive(a: np.ndarray, p: np.ndarray, n: np.ndarray) -> float:
    """(6): the batch mean of -log(e^{f.f+} / (e^{f.f+} + sum_i e^{f.f-_i}))."""
    total = 0.0
    for b in range(a.shape[0]):
        fa = a[b].tolist()
        total += neg_log_ratio(dot(fa, p[b].tolist()), [dot(fa, n[b, i].tolist()) for i in range(n.shape[1])])
    return total / a.shape[0]


def ref_zeta(x: float) -> float:
    """log(1 + e^x) = x + log(1 + e^{-x}) for x > 0."""
    return x + math.log(1.0 + math.exp(-x)) if x > 0 else math.log(1.0 + math.exp(x))


def ref_triplet(za: np.ndarray, zp: np.ndarray, zn: np.ndarray) -> float:
    """(11): sum_i zeta(z_{i,1}^T (z_{i,3} - z_{i,2}))."""
    total = 0.0
    for i in range(za.shape[0]):
        diff = [c - b for b, c in zip(zp[i].tolist(), zn[i].tolist())]
        total += ref_zeta(dot(za[i].tolist(), diff))
    return total


def unit(v: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in v))
    return [x / norm for x in v]


def ref_infonce(f1: np.ndarray, f2: np.ndarray, fneg: np.ndarray, t: float = 1.0) -> float:
    total = 0.0
    for b in range(f1.shape[0]):
        u1, u2, un = unit(f1[b].tolist()), unit(f2[b].tolist()), unit(fneg[b].tolist())
        total += neg_log_ratio(dot(u1, u2) / t, [dot(u1, un) / t])
    return total / f1.shape[0]


def ref_cross_corr(f1: np.ndarray, f2: np.ndarray, lam: float, eps: float = 1e-12) -> float:
    B, d = f1.shape
    s = [math.sqrt(sum(f1[b, i] ** 2 + f2[b, i] ** 2 for b in range(B)) / (2 * B) + eps) for i in range(d)]
    loss = 0.0
    for i in range(d):
        for j in range(d):
            c = sum((f1[b, i] / s[i]) * (f2[b, j] / s[j]) for b in range(B)) / B
            loss += (1.0 - c) ** 2 if i == j else lam * c ** 2
    return loss


def ref_positive(f1: np.ndarray, f2: np.ndarray) -> float:
    return sum(sum((x - y) ** 2 for x, y in zip(f1[b].tolist(), f2[b].tolist())) for b in range(len(f1))) / len(f1)


def t64(*arrays: np.ndarray) -> list[torch.Tensor]:
    return [torch.tensor(a, dtype=torch.float64, requires_grad=True) for a in arrays]


# scale 1: logits O(1); scale 11: dot products of d = 8 coordinates reach ~1e3
SCALES = [0.3, 1.0, 11.0]


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("N", [1, 5])
def test_contrastive_loss_n_matches_loop(scale: float, N: int) -> None:
    rng = np.random.default_rng(1)
    a, p, n = rng.normal(size=(6, 8)) * scale, rng.normal(size=(6, 8)) * scale, rng.normal(size=(6, N, 8)) * scale
    assert close(contrastive_loss_n(*t64(a, p, n)).item(), ref_contrastive(a, p, n))


def test_large_logits_overflow_the_naive_formula_but_not_ours() -> None:
    a = np.array([[30.0, 20.0, 0.0]])
    p = np.array([[10.0, 0.0, 0.0]])  # f.f+ = 300
    n = np.array([[[35.0, 10.0, 0.0], [33.0, 14.0, 2.0]]])  # f.f-_i = 1250, 1270
    with pytest.raises(OverflowError):  # the printed formula, evaluated literally
        math.exp(dot(a[0].tolist(), n[0, 0].tolist()))
    at, pt, nt = t64(a, p, n)
    pos, neg = (at * pt).sum(-1), torch.einsum("bd,bnd->bn", at, nt)
    naive = -torch.log(torch.exp(pos) / (torch.exp(pos) + torch.exp(neg).sum(1)))
    assert not torch.isfinite(naive).all()
    ours = contrastive_loss_n(at, pt, nt)
    ref = ref_contrastive(a, p, n)
    assert torch.isfinite(ours) and close(ours.item(), ref)
    assert abs(ref - (970.0 + math.log(1.0 + math.exp(-20.0) + math.exp(-970.0)))) < 1e-12


@pytest.mark.parametrize("scale", SCALES)
def test_triplet_objective_is_a_sum_and_matches_loop(scale: float) -> None:
    rng = np.random.default_rng(2)
    za, zp, zn = (rng.normal(size=(7, 8)) * scale for _ in range(3))
    value = triplet_objective(*t64(za, zp, zn)).item()
    assert close(value, ref_triplet(za, zp, zn))
    # (11) is a sum: its n-th part is (6) with N = 1
    assert close(value / 7, contrastive_loss_n(*t64(za, zp, zn[:, None, :])).item())


def test_triplet_objective_keeps_the_tail_softplus_drops() -> None:
    """F.softplus returns x for x > 20, dropping log(1 + e^{-x}) ~ 7.6e-10 at x = 21; (11) must keep it."""
    za, zp, zn = np.array([[1.0]]), np.array([[0.0]]), np.array([[21.0]])
    ref = ref_triplet(za, zp, zn)
    assert abs(F.softplus(torch.tensor(21.0, dtype=torch.float64)).item() - ref) > TOL
    assert close(triplet_objective(*t64(za, zp, zn)).item(), ref)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("temperature", [1.0, 0.1, 1e-3])
def test_infonce_matches_loop(scale: float, temperature: float) -> None:
    rng = np.random.default_rng(3)
    f1, f2, fn = (rng.normal(size=(5, 8)) * scale for _ in range(3))
    assert close(infonce_loss(*t64(f1, f2, fn), temperature=temperature).item(),
                 ref_infonce(f1, f2, fn, temperature))


def test_infonce_normalizes_its_inputs_and_defaults_to_temperature_one() -> None:
    rng = np.random.default_rng(4)
    f1, f2, fn = t64(*(rng.normal(size=(5, 8)) for _ in range(3)))
    base = infonce_loss(f1, f2, fn)
    assert close(infonce_loss(3 * f1, 0.5 * f2, 7 * fn).item(), base.item())
    assert close(base.item(), infonce_loss(f1, f2, fn, temperature=1.0).item())
    assert close(base.item(), infonce_loss(f1, f2, fn[:, None, :]).item())  # (B, d) == (B, 1, d)
    with pytest.raises(AssumptionError, match="temperature"):
        infonce_loss(f1, f2, fn, temperature=0.0)


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("lam", [0.0, 5e-3, 1.0])
def test_cross_correlation_matches_loop(scale: float, lam: float) -> None:
    rng = np.random.default_rng(5)
    f1 = rng.normal(size=(9, 4)) * scale
    f2 = f1 + 0.3 * rng.normal(size=(9, 4)) * scale
    assert close(cross_correlation_loss(*t64(f1, f2), lam=lam).item(), ref_cross_corr(f1, f2, lam))


def test_cross_correlation_is_zero_at_whitened_identical_views() -> None:
    """With f1 = f2 = sqrt(B) Q (orthonormal columns): E[f_i^2] = 1 and C = I, so the loss is 0."""
    q, _ = np.linalg.qr(np.random.default_rng(6).normal(size=(16, 4)))
    f = np.sqrt(16) * q
    assert abs(cross_correlation_loss(*t64(f, f), lam=1.0).item()) < 1e-10
    # the normalization makes the loss invariant to a per-coordinate rescaling of both views
    scaled = f * np.array([1.0, 10.0, 0.1, 3.0])
    assert abs(cross_correlation_loss(*t64(scaled, scaled), lam=1.0).item()) < 1e-10


def test_positive_only_loss_matches_loop_and_collapse_is_optimal() -> None:
    rng = np.random.default_rng(7)
    f1, f2 = rng.normal(size=(6, 5)), rng.normal(size=(6, 5))
    assert close(positive_only_loss(*t64(f1, f2)).item(), ref_positive(f1, f2))
    const = np.ones((6, 5))
    assert positive_only_loss(*t64(const, const)).item() == 0.0


@pytest.mark.parametrize("K", [1, 17])
def test_shared_negatives_equal_broadcast_queue(K: int) -> None:
    rng = np.random.default_rng(8)
    a, p, queue = rng.normal(size=(6, 8)) * 3, rng.normal(size=(6, 8)) * 3, rng.normal(size=(K, 8)) * 3
    at, pt, qt = t64(a, p, queue)
    shared = contrastive_loss_shared_negatives(at, pt, qt)
    broadcast = contrastive_loss_n(at, pt, qt.expand(6, K, 8))
    assert close(shared.item(), broadcast.item())
    assert close(shared.item(), ref_contrastive(a, p, np.broadcast_to(queue, (6, K, 8))))


def _all_losses(a: torch.Tensor, p: torch.Tensor, n: torch.Tensor) -> dict[str, torch.Tensor]:
    return {
        "contrastive": contrastive_loss_n(a, p, n[:, None, :]),
        "shared": contrastive_loss_shared_negatives(a, p, n),
        "triplet": triplet_objective(a, p, n),
        "infonce": infonce_loss(a, p, n),
        "barlow": cross_correlation_loss(a, p + n, lam=0.1),
        "positive": positive_only_loss(a, p + n),
    }


@pytest.mark.parametrize("name", ["contrastive", "shared", "triplet", "infonce", "barlow", "positive"])
def test_gradients_flow(name: str) -> None:
    rng = np.random.default_rng(9)
    a, p, n = t64(*(rng.normal(size=(5, 6)) for _ in range(3)))
    loss = _all_losses(a, p, n)[name]
    assert loss.ndim == 0
    loss.backward()
    for t in (a, p, n):
        assert t.grad is not None and torch.isfinite(t.grad).all() and t.grad.abs().sum() > 0


def test_gradient_at_large_logits_is_finite() -> None:
    a, p, n = t64(np.full((2, 4), 20.0), np.full((2, 4), -20.0), np.full((2, 3, 4), 20.0))
    loss = contrastive_loss_n(a, p, n)  # logits +-1600
    loss.backward()
    assert torch.isfinite(loss) and all(torch.isfinite(t.grad).all() for t in (a, p, n))


def test_shape_errors_name_the_argument() -> None:
    a = torch.zeros(4, 3)
    with pytest.raises(AssumptionError, match="negatives"):
        contrastive_loss_n(a, a, torch.zeros(4, 3))
    with pytest.raises(AssumptionError, match="anchor, positive"):
        contrastive_loss_n(a, torch.zeros(4, 2), torch.zeros(4, 1, 3))
    with pytest.raises(AssumptionError, match="queue"):
        contrastive_loss_shared_negatives(a, a, torch.zeros(5, 2))
