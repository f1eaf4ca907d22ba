"""Contrastive and non-contrastive losses, each returning a scalar tensor.

Merad et al. (paper 000): L^N_un (6) and the fixed-triplet objective (11).
Huang et al. (paper 004): InfoNCE with ||f|| = 1 and the cross-correlation
(Barlow Twins) loss. Every log-sum-exp goes through ``torch.logsumexp`` (over a shared
queue of negatives: the streaming kernel of :mod:`numerics.streaming`) and every softplus
through ``torch.logaddexp(0, x)``:

* ``log(sum(exp(s)))`` overflows once a logit passes ~88 (float32) or ~709
  (float64): with logits of 1e3 it returns inf - inf = nan.
* ``torch.nn.functional.softplus`` returns x itself for x > 20 (its default
  threshold), dropping log(1 + e^{-x}) = 2.1e-9 at x = 20; ``logaddexp(0, x)``
  keeps it.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from numerics.errors import AssumptionError
from numerics.streaming import shared_queue_logsumexp


def _zeta(x: torch.Tensor) -> torch.Tensor:
    """zeta(x) = log(1 + e^x), the softplus of (11), without overflow or a threshold."""
    return torch.logaddexp(torch.zeros_like(x), x)


def _check(name: str, t: torch.Tensor, ndim: int) -> None:
    if t.ndim != ndim:
        raise AssumptionError(f"{name} has shape {tuple(t.shape)}: expected a {ndim}-d tensor")


def _check_pair(a: torch.Tensor, b: torch.Tensor, names: str = "anchor, positive") -> None:
    _check(names.split(", ")[0], a, 2)
    _check(names.split(", ")[1], b, 2)
    if a.shape != b.shape:
        raise AssumptionError(f"{names} have shapes {tuple(a.shape)} and {tuple(b.shape)}: they must match (B, d)")


def contrastive_loss_n(anchor: torch.Tensor, positive: torch.Tensor, negatives: torch.Tensor) -> torch.Tensor:
    """L^N_un of Merad et al. (6) on a batch, unnormalized dot products, no temperature.

    mean_b -log(e^{f.f+} / (e^{f.f+} + sum_i e^{f.f-_i})) = mean_b log(1 + sum_i exp(f^T (f-_i - f+))),
    computed as zeta(logsumexp_i(f.f-_i) - f.f+).

    anchor f(x): (B, d); positive f(x+): (B, d); negatives f(x-_i): (B, N, d).
    """
    _check_pair(anchor, positive)
    _check("negatives", negatives, 3)
    if negatives.shape[0] != anchor.shape[0] or negatives.shape[2] != anchor.shape[1] or negatives.shape[1] < 1:
        raise AssumptionError(f"negatives have shape {tuple(negatives.shape)}: expected (B, N, d) = "
                              f"({anchor.shape[0]}, N >= 1, {anchor.shape[1]})")
    pos = (anchor * positive).sum(-1)  # f(x)^T f(x+): (B,)
    neg = torch.einsum("bd,bnd->bn", anchor, negatives)  # f(x)^T f(x-_i): (B, N)
    return _zeta(torch.logsumexp(neg, dim=1) - pos).mean()


def contrastive_loss_shared_negatives(anchor: torch.Tensor, positive: torch.Tensor,
                                      queue: torch.Tensor, chunk: int | None = None) -> torch.Tensor:
    """L^N_un (6) when all B anchors share the same N negatives (a MoCo queue of embeddings).

    Equal to ``contrastive_loss_n(anchor, positive, queue.expand(B, N, d))``, but the
    log-sum-exp over the negatives is :func:`numerics.streaming.shared_queue_logsumexp`: chunks
    of ``chunk`` negatives (default: about 2^17 logits per chunk), one GEMM each and an online
    log-sum-exp, so neither a (B, N, d) tensor nor the (B, N) logits ever exist, in the
    forward or in the (chunked, recomputing) backward.

    anchor: (B, d); positive: (B, d); queue: (N, d).
    """
    _check_pair(anchor, positive)
    _check("queue", queue, 2)
    if queue.shape[1] != anchor.shape[1] or queue.shape[0] < 1:
        raise AssumptionError(f"queue has shape {tuple(queue.shape)}: expected (N >= 1, d = {anchor.shape[1]})")
    pos = (anchor * positive).sum(-1)  # (B,)
    lse = shared_queue_logsumexp(anchor, queue, chunk)  # (B,) log sum_n exp(f(x)^T f(x-_n))
    return _zeta(lse - pos).mean()


def triplet_objective(za: torch.Tensor, zp: torch.Tensor, zn: torch.Tensor) -> torch.Tensor:
    """The fixed-triplet objective of Merad et al. (11): sum_i zeta(z_{i,1}^T (z_{i,3} - z_{i,2})).

    A SUM over the n triplets (its n-th part is the empirical L_un of (6) with N = 1),
    zeta(x) = log(1 + e^x). za = f(x_i), zp = f(x_i^+), zn = f(x_i^-): each (n, d).
    """
    _check_pair(za, zp, "za, zp")
    _check_pair(za, zn, "za, zn")
    return _zeta((za * (zn - zp)).sum(-1)).sum()  # (n,) -> ()


def infonce_loss(f1: torch.Tensor, f2: torch.Tensor, fneg: torch.Tensor,
                 temperature: float = 1.0) -> torch.Tensor:
    """InfoNCE as in Huang et al. (paper 004) with ||f|| = 1:

    mean_b -log(e^{f(x1)^T f(x2)/t} / (e^{f(x1)^T f(x2)/t} + sum_i e^{f(x1)^T f(x-_i)/t})).

    The inputs are L2-normalized HERE (each row divided by its norm), so callers
    may pass raw encoder outputs. ``temperature`` t defaults to 1: the slides
    have no temperature. f1, f2: (B, d); fneg: (B, d) (one negative, as in the
    slides) or (B, N, d).
    """
    if not temperature > 0:
        raise AssumptionError(f"temperature={temperature!r}: the temperature must be > 0")
    if fneg.ndim == 2:
        fneg = fneg.unsqueeze(1)  # (B, 1, d)
    u1, u2, un = F.normalize(f1, dim=-1), F.normalize(f2, dim=-1), F.normalize(fneg, dim=-1)
    return contrastive_loss_n(u1 / temperature, u2, un)


def cross_correlation_loss(f1: torch.Tensor, f2: torch.Tensor, lam: float = 5e-3,
                           eps: float = 1e-12) -> torch.Tensor:
    """The cross-correlation (Barlow Twins) loss of Huang et al. (paper 004):

    sum_i (1 - C_ii)^2 + lam * sum_{i != j} C_ij^2,   C_ij = (1/B) sum_b g_i(x1_b) g_j(x2_b).

    Normalization (the slides' E_x E_{x' in A(x)} f_i(x')^2 = 1): each coordinate
    i of BOTH views is divided by the same scale
    s_i = sqrt((1/2B) sum_b (f_i(x1_b)^2 + f_i(x2_b)^2) + eps), the root mean square
    of coordinate i over the 2B outputs of the batch, so g = f / s has
    (1/2B) sum_b (g_i(x1_b)^2 + g_i(x2_b)^2) = 1 (up to eps). No mean is
    subtracted and the views are not standardized separately (Zbontar et al. do both).
    ``eps`` only guards a coordinate that is identically zero.
    ``lam`` defaults to 5e-3, Zbontar et al.'s value; the slides leave it free.
    f1, f2: (B, d).
    """
    _check_pair(f1, f2, "f1, f2")
    scale = torch.sqrt((f1.pow(2).sum(0) + f2.pow(2).sum(0)) / (2 * f1.shape[0]) + eps)  # s_i: (d,)
    g1, g2 = f1 / scale, f2 / scale  # (B, d)
    c = g1.T @ g2 / f1.shape[0]  # C: (d, d)
    diag = torch.diagonal(c)  # (d,)
    return (1 - diag).pow(2).sum() + lam * (c.pow(2).sum() - diag.pow(2).sum())


def positive_only_loss(f1: torch.Tensor, f2: torch.Tensor) -> torch.Tensor:
    """E ||f(x1) - f(x2)||^2 over the batch: the alignment term alone (non-contrastive).

    Without negatives or a regularizer it is minimized by a constant encoder (collapse).
    f1, f2: (B, d).
    """
    _check_pair(f1, f2, "f1, f2")
    return (f1 - f2).pow(2).sum(-1).mean()
