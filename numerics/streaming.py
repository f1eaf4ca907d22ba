"""Streaming log-sum-exp over a shared queue of negatives: L^N_un of Merad et al. (6) at MoCo scale.

With B anchors f(x_b) sharing the same N negatives f(x-_n) (the rows of a MoCo queue), (6) is

    L^N_un = mean_b zeta(lse_b - f(x_b)^T f(x+_b)),   lse_b = log sum_n exp(f(x_b)^T f(x-_n)),

and all the work is in lse: a (B, d) @ (d, N) matrix product and a log-sum-exp over its
B x N entries. :func:`shared_queue_logsumexp` computes lse chunk by chunk over the queue, with
an online (streaming) log-sum-exp, so the B x N logits never exist as one array: per chunk of
C negatives, one GEMM writes the (B, C) logits into a buffer that stays in cache, and three
in-place passes (subtract the row shift, exp, row sum) fold it into a running pair

    (m_b, s_b)  with  lse_b = m_b + log s_b,   s_b >= 1 (float64 accumulator).

The shift m_b is the exact row maximum of the first chunk, and after each chunk it is moved to
the running lse (m_b <- m_b + log s_b, s_b <- s_b e^{m_old - m_new}, exact up to rounding), so
every exponential of a later chunk is at most e^{max - lse} <= 1 unless that chunk holds a logit
above the running lse. Such a logit (more than log(float max) = 88.7 in float32, 709.8 in
float64, above it) makes the chunk's row sum overflow; the sum is then not finite, and those
rows of that chunk are redone with their exact maximum as the shift. Nothing is ever lost:
a term below the shift by more than ~87 (float32) underflows, but s_b >= 1, so the lost mass
is < N e^{-87} relative. ``exact_max=True`` (the default on CUDA, where the overflow test
would cost a host synchronisation per chunk) takes the row maximum of every chunk instead: one
more read pass, no test.

The gradient is a custom :class:`torch.autograd.Function` with a chunked backward: for each
chunk the logits are recomputed (one GEMM), turned into softmax weights in place,
P = exp(S - lse), and two GEMMs accumulate dA = diag(g) P Q_c and dQ_c = P^T diag(g) A.
Memory stays O(B C + (B + N) d) in the forward and the backward; the backward saves only
the inputs and lse (B values).

Pitfall this module exists for: ``torch.logsumexp(anchor @ queue.T, 1)`` at B = 256,
N = 65 536 materialises 64 MiB of logits and reads them four times from main memory (max,
subtract, exp, sum); the matrix product then runs at a fraction of the machine's GEMM speed.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from numerics.errors import AssumptionError

__all__ = ["shared_queue_logsumexp", "shared_queue_logsumexp_reference", "default_chunk", "CHUNK_ELEMENTS"]

#: target number of logits per chunk (B x C): 2^17 floats = 512 KiB in float32, an L2 cache
CHUNK_ELEMENTS = 2**17
#: smallest and largest default chunk length C (negatives per chunk)
MIN_CHUNK, MAX_CHUNK = 256, 8192


def default_chunk(batch: int, n_negatives: int) -> int:
    """Chunk length C for B = ``batch`` anchors: about CHUNK_ELEMENTS logits per chunk."""
    c = CHUNK_ELEMENTS // max(1, batch)
    c = max(MIN_CHUNK, min(MAX_CHUNK, c))
    return max(1, min(c, n_negatives))


def shared_queue_logsumexp_reference(anchor: torch.Tensor, queue: torch.Tensor) -> torch.Tensor:
    """lse_b = log sum_n exp(anchor_b . queue_n), unchunked: materialises the (B, N) logits."""
    return torch.logsumexp(anchor @ queue.T, dim=1)


def shared_queue_logsumexp(anchor: torch.Tensor, queue: torch.Tensor, chunk: int | None = None,
                           exact_max: bool | None = None) -> torch.Tensor:
    """lse_b = log sum_n exp(anchor_b . queue_n) for anchor (B, d), queue (N, d): shape (B,).

    Streams over the queue in chunks of ``chunk`` rows (default :func:`default_chunk`), never
    forming the (B, N) logits; differentiable in both arguments (chunked backward).
    ``exact_max`` takes every chunk's row maximum as the shift (default: only on CUDA).
    """
    if anchor.ndim != 2 or queue.ndim != 2:
        raise AssumptionError(f"anchor {tuple(anchor.shape)}, queue {tuple(queue.shape)}: expected (B, d) and (N, d)")
    if queue.shape[1] != anchor.shape[1] or queue.shape[0] < 1:
        raise AssumptionError(f"queue has shape {tuple(queue.shape)}: expected (N >= 1, d = {anchor.shape[1]})")
    if anchor.dtype != queue.dtype or anchor.device != queue.device:
        raise AssumptionError(f"anchor ({anchor.dtype}, {anchor.device}) and queue ({queue.dtype}, {queue.device}) "
                              "must share dtype and device")
    if not anchor.dtype.is_floating_point:
        raise AssumptionError(f"dtype {anchor.dtype}: a floating-point dtype is needed")
    if chunk is None:
        chunk = default_chunk(anchor.shape[0], queue.shape[0])
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise AssumptionError(f"chunk = {chunk!r}: must be a positive integer")
    if exact_max is None:
        exact_max = anchor.device.type != "cpu"
    return _SharedQueueLSE.apply(anchor, queue, int(chunk), bool(exact_max))


_LOG2E = 1.0 / math.log(2.0)
_LN2 = math.log(2.0)


def _floor2(dtype: torch.dtype) -> float:
    """log2 of the smallest normal number: exponents are clamped here (see _exp2_shifted_)."""
    return float(math.log2(torch.finfo(dtype).tiny))


def _exp2_shifted_(S: torch.Tensor, shift: torch.Tensor) -> torch.Tensor:
    """S <- 2^max(S - shift, log2(tiny)), in place.

    The clamp keeps every result a normal number: torch's vectorized float32 exp/exp2 take a
    slow path (10-20x) on inputs whose result is subnormal or zero, which a trained encoder's
    logits (spread over hundreds) would hit for most entries. A clamped entry contributes
    2^-126 (float32) instead of something smaller, next to a row sum >= 1: a relative bias
    below N 2^-126."""
    return S.sub_(shift).clamp_(min=_floor2(S.dtype)).exp2_()


def _lse_forward(A: torch.Tensor, Q: torch.Tensor, chunk: int, exact_max: bool) -> torch.Tensor:
    """The streaming forward pass (no autograd): lse (B,) in A's dtype.

    Works in base 2: the anchors are scaled by log2(e) once (B x d), so the GEMM yields
    logits / ln 2 and the exponential is exp2 (about twice as fast as exp in torch's float32
    kernels); lse = ln 2 (m + log2 s)."""
    B, N = A.shape[0], Q.shape[0]
    if B == 0:
        return A.new_empty(0)
    # accumulate the chunk sums in float64 (on CUDA float32 stays float32: no fast float64 there)
    acc = torch.float64 if A.device.type == "cpu" or A.dtype == torch.float64 else A.dtype
    A2 = A * _LOG2E
    if exact_max:
        return _lse_forward_exact_max(A2, Q, chunk, acc)
    n_chunks = -(-N // chunk)
    buf = A.new_empty(B, min(chunk, N))
    partial = A.new_empty(n_chunks, B)  # row sums of 2^(logit2 - m), one row per chunk
    m = A.new_zeros(B, 1)
    for j in range(n_chunks):
        Qc = Q[j * chunk:(j + 1) * chunk]
        S = buf if Qc.shape[0] == buf.shape[1] else A.new_empty(B, Qc.shape[0])
        torch.mm(A2, Qc.t(), out=S)  # (B, C) logits / ln 2: the GEMM
        if j == 0:  # the shift: each row's exact maximum over the first chunk
            m = S.amax(dim=1, keepdim=True)
            m = torch.where(torch.isfinite(m), m, torch.zeros_like(m))
        _exp2_shifted_(S, m)  # in place, in cache
        torch.sum(S, dim=1, out=partial[j])
    sums = partial.to(acc)
    # a chunk sum above this (inf included: a logit > m + log2(float max)) is redone; the others
    # then add up to at most half the float range
    finite = sums <= torch.finfo(A.dtype).max / (2.0 * n_chunks)
    lse2 = m.squeeze(1).to(acc) + torch.log2(torch.where(finite, sums, 0).sum(dim=0))
    if not bool(finite.all()):  # redo those (chunk, row) pairs with their own maximum
        bad = ~finite
        for j in torch.unique(bad.nonzero()[:, 0]).tolist():
            rows = bad[j].nonzero().squeeze(1)
            lse_c = torch.logsumexp((A[rows] @ Q[j * chunk:(j + 1) * chunk].t()).to(acc), dim=1) * _LOG2E
            lse2[rows] = torch.logaddexp2(lse2[rows], lse_c)
    return (lse2 * _LN2).to(A.dtype)


def _lse_forward_exact_max(A2: torch.Tensor, Q: torch.Tensor, chunk: int, acc: torch.dtype) -> torch.Tensor:
    """Streaming forward with every chunk's row maximum as the shift (no overflow test, no sync)."""
    B, N = A2.shape[0], Q.shape[0]
    buf = A2.new_empty(B, min(chunk, N))
    m = torch.full((B, 1), -math.inf, dtype=A2.dtype, device=A2.device)
    s = torch.zeros(B, dtype=acc, device=A2.device)
    for start in range(0, N, chunk):
        Qc = Q[start:start + chunk]
        S = buf if Qc.shape[0] == buf.shape[1] else A2.new_empty(B, Qc.shape[0])
        torch.mm(A2, Qc.t(), out=S)
        new = torch.maximum(m, S.amax(dim=1, keepdim=True))
        new = torch.where(torch.isfinite(new), new, torch.zeros_like(new))
        s = s * torch.exp2((m - new).to(acc)).squeeze(1)  # 2^-inf = 0 at the start
        _exp2_shifted_(S, new)
        s = s + S.sum(dim=1).to(acc)
        m = new
    return ((m.squeeze(1).to(acc) + torch.log2(s)) * _LN2).to(A2.dtype)


class _SharedQueueLSE(torch.autograd.Function):
    """lse over a shared queue with a chunked, recomputing backward."""

    @staticmethod
    def forward(ctx: Any, anchor: torch.Tensor, queue: torch.Tensor, chunk: int,  # type: ignore[override]
                exact_max: bool) -> torch.Tensor:
        A, Q = anchor.contiguous(), queue.contiguous()
        lse = _lse_forward(A, Q, chunk, exact_max)
        ctx.save_for_backward(A, Q, lse)
        ctx.chunk = chunk
        return lse

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx: Any, grad: torch.Tensor) -> tuple[torch.Tensor | None, ...]:  # type: ignore[override]
        A, Q, lse = ctx.saved_tensors
        need_a, need_q = ctx.needs_input_grad[0], ctx.needs_input_grad[1]
        if not (need_a or need_q):
            return None, None, None, None
        chunk, N = ctx.chunk, Q.shape[0]
        g = grad.to(A.dtype).unsqueeze(1)  # (B, 1) d loss / d lse_b
        gA = torch.zeros_like(A) if need_a else None
        gQ = torch.empty_like(Q) if need_q else None
        Ag = A * g if need_q else None  # diag(g) A
        A2 = A * _LOG2E
        shift = (lse * _LOG2E).unsqueeze(1)
        buf = A.new_empty(A.shape[0], min(chunk, N))
        for start in range(0, N, chunk):
            Qc = Q[start:start + chunk]
            P = buf if Qc.shape[0] == buf.shape[1] else A.new_empty(A.shape[0], Qc.shape[0])
            torch.mm(A2, Qc.t(), out=P)
            _exp2_shifted_(P, shift)  # softmax weights exp(logit - lse) <= 1
            if gA is not None:
                gA.addmm_(P, Qc)
            if gQ is not None:
                torch.mm(P.t(), Ag, out=gQ[start:start + chunk])
        if gA is not None:
            gA.mul_(g)
        return gA, gQ, None, None
