"""numerics.streaming: the chunked, online log-sum-exp over a shared queue of negatives (Merad et al. (6)).

Every value and gradient is compared with the UNCHUNKED reference ``torch.logsumexp(anchor @ queue.T, 1)``
(float64; autograd through it for the gradients) and, on small cases, with mpmath at 50 digits
from the exact float64 inputs. Large logits (|a.q| up to 1e5) make the naive exp overflow; logits
that jump by more than log(float max) from one chunk to the next exercise the overflow redo.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from numerics.errors import AssumptionError
from numerics.streaming import default_chunk, shared_queue_logsumexp, shared_queue_logsumexp_reference
from training.losses import contrastive_loss_n, contrastive_loss_shared_negatives

REL64 = 1e-13


def _inputs(B: int, N: int, d: int, scale: float, seed: int = 0, dtype: torch.dtype = torch.float64,
            grad: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    a = (torch.randn(B, d, generator=g, dtype=torch.float64) * scale).to(dtype)
    q = (torch.randn(N, d, generator=g, dtype=torch.float64) * scale).to(dtype)
    return a.requires_grad_(grad), q.requires_grad_(grad)


def rel(x: torch.Tensor, ref: torch.Tensor) -> float:
    return float(((x.double() - ref.double()).abs() / ref.double().abs().clamp(min=1.0)).max())


def mp_lse(a: np.ndarray, q: np.ndarray) -> list[mpmath.mpf]:
    """log sum_n exp(a_b . q_n) at 50 digits, every product and sum exact in mpmath."""
    out = []
    with mpmath.workdps(50):
        for row in a.tolist():
            logits = [mpmath.fsum(mpmath.mpf(x) * mpmath.mpf(y) for x, y in zip(row, qn)) for qn in q.tolist()]
            top = max(logits)
            out.append(top + mpmath.log(mpmath.fsum(mpmath.exp(v - top) for v in logits)))
    return out


CASES = [(1, 1, 3), (1, 7, 2), (5, 1, 4), (6, 100, 8), (17, 1000, 5), (64, 3000, 16)]
CHUNKS = [1, 3, 64, 999, 1000, 5000, None]


@pytest.mark.parametrize("B, N, d", CASES)
@pytest.mark.parametrize("exact_max", [False, True])
def test_values_match_unchunked_reference(B: int, N: int, d: int, exact_max: bool) -> None:
    for scale in (0.1, 1.0, 10.0):
        a, q = _inputs(B, N, d, scale, seed=B + N)
        ref = shared_queue_logsumexp_reference(a, q)
        for chunk in CHUNKS:
            if chunk is not None and N > 200 * chunk:  # keep the test quick: <= 200 chunks
                continue
            got = shared_queue_logsumexp(a, q, chunk, exact_max=exact_max)
            assert got.shape == (B,) and got.dtype == torch.float64
            assert rel(got, ref) < REL64, (scale, chunk)


def test_matches_mpmath_at_large_logits_where_naive_exp_overflows() -> None:
    for scale in (30.0, 300.0):  # |a . q| up to ~1e4 and ~1e6 (d = 3)
        a, q = _inputs(4, 40, 3, scale, seed=3)
        naive = torch.log(torch.exp(a @ q.T).sum(1))
        assert not torch.isfinite(naive).all()  # exp(710) = inf in float64
        ref = mp_lse(a.numpy(), q.numpy())
        for chunk in (1, 7, 40, None):
            for exact_max in (False, True):
                got = shared_queue_logsumexp(a, q, chunk, exact_max=exact_max)
                assert torch.isfinite(got).all()
                for g, r in zip(got.tolist(), ref):
                    assert abs(g - float(r)) <= REL64 * max(1.0, abs(float(r))), (scale, chunk, g, r)


@pytest.mark.parametrize("dtype, jump", [(torch.float64, 1000.0), (torch.float32, 200.0), (torch.float64, 1e5)])
def test_logits_that_jump_between_chunks_are_redone(dtype: torch.dtype, jump: float) -> None:
    """Row 0's logits rise by ``jump`` (> log(float max)) per chunk: every chunk after the first
    overflows at the first chunk's shift and is redone; row 1's fall (they underflow to nothing);
    row 2 is flat. The queue is q_n = (n // chunk) e_0 + (small noise) e_1."""
    chunk, n_chunks = 16, 6
    n = torch.arange(chunk * n_chunks, dtype=torch.float64)
    q = torch.stack([torch.div(n, chunk, rounding_mode="floor"), torch.sin(n)], dim=1)
    a = torch.tensor([[jump, 1.0], [-jump, 1.0], [0.0, 1.0]], dtype=torch.float64)
    ref = shared_queue_logsumexp_reference(a, q)
    for exact_max in (False, True):
        got = shared_queue_logsumexp(a.to(dtype), q.to(dtype), chunk, exact_max=exact_max)
        tol = REL64 if dtype == torch.float64 else 1e-6
        assert rel(got, ref) < tol, (exact_max, got, ref)


def test_float32_spread_logits_stay_accurate() -> None:
    """Logits spread over ~[-2000, 2000] in float32: most exponentials underflow (the clamped path)."""
    a, q = _inputs(32, 4096, 8, 8.0, seed=5)
    ref = shared_queue_logsumexp_reference(a, q)  # float64
    spread = float((a @ q.T).max() - (a @ q.T).min())
    assert spread > 1000
    got = shared_queue_logsumexp(a.float(), q.float(), 256)
    unchunked32 = shared_queue_logsumexp_reference(a.float(), q.float())
    # the same float32 accuracy as the unchunked float32 formula
    assert rel(got, ref) < max(2e-6, 4 * rel(unchunked32, ref))


def test_float32_kernel_matches_float64_reference_like_the_unchunked_formula() -> None:
    a, q = _inputs(256, 65536 // 8, 128, 1 / math.sqrt(128), seed=7)
    ref = shared_queue_logsumexp_reference(a, q)
    got = shared_queue_logsumexp(a.float(), q.float())
    unchunked32 = shared_queue_logsumexp_reference(a.float(), q.float())
    assert rel(got, ref) < max(1e-6, 4 * rel(unchunked32, ref))


# -- gradients -------------------------------------------------------------------------------------


def _grads(fn, a: torch.Tensor, q: torch.Tensor, weights: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    a_, q_ = a.detach().clone().requires_grad_(True), q.detach().clone().requires_grad_(True)
    (fn(a_, q_) * weights).sum().backward()
    return a_.grad, q_.grad


def grad_tol(a: torch.Tensor, q: torch.Tensor) -> float:
    """Relative tolerance of a gradient: the softmax weights exp(logit - lse) carry the absolute
    rounding error of logit - lse, a few ulps of the largest |logit| (in the reference too)."""
    return 1e-12 + 8 * 2.2e-16 * float((a @ q.T).abs().max())


@pytest.mark.parametrize("scale", [0.3, 3.0, 100.0])
@pytest.mark.parametrize("chunk", [1, 5, 64, None])
def test_gradients_match_autograd_through_the_reference(scale: float, chunk: int | None) -> None:
    a, q = _inputs(7, 130, 5, scale, seed=11)
    weights = torch.linspace(-1.0, 2.0, 7, dtype=torch.float64)  # any upstream gradient, signs included
    ga_ref, gq_ref = _grads(shared_queue_logsumexp_reference, a, q, weights)
    tol = grad_tol(a, q)
    for exact_max in (False, True):
        ga, gq = _grads(lambda x, y: shared_queue_logsumexp(x, y, chunk, exact_max=exact_max), a, q, weights)
        scale_a = float(ga_ref.abs().max()) or 1.0
        scale_q = float(gq_ref.abs().max()) or 1.0
        assert float((ga - ga_ref).abs().max()) <= tol * scale_a, (scale, chunk)
        assert float((gq - gq_ref).abs().max()) <= tol * scale_q, (scale, chunk)


def test_gradcheck_small_double() -> None:
    a, q = _inputs(3, 11, 4, 1.0, seed=2, grad=True)
    assert torch.autograd.gradcheck(lambda x, y: shared_queue_logsumexp(x, y, 4), (a, q))


def test_gradient_only_for_the_anchor_when_the_queue_is_constant() -> None:
    a, q = _inputs(5, 50, 3, 1.0, seed=4)
    a.requires_grad_(True)  # the MoCo case: no gradient through the queue
    shared_queue_logsumexp(a, q, 8).sum().backward()
    a_ref = a.detach().clone().requires_grad_(True)
    shared_queue_logsumexp_reference(a_ref, q).sum().backward()
    assert torch.allclose(a.grad, a_ref.grad, rtol=1e-12, atol=1e-14) and q.grad is None


def test_gradients_at_logits_of_1e5_are_finite_and_correct() -> None:
    a, q = _inputs(4, 33, 3, 300.0, seed=9)
    weights = torch.ones(4, dtype=torch.float64)
    ga_ref, gq_ref = _grads(shared_queue_logsumexp_reference, a, q, weights)
    ga, gq = _grads(lambda x, y: shared_queue_logsumexp(x, y, 5), a, q, weights)
    assert torch.isfinite(ga).all() and torch.isfinite(gq).all()
    assert float((a @ q.T).abs().max()) > 1e4
    tol = grad_tol(a, q)
    assert float((ga - ga_ref).abs().max()) <= tol * float(ga_ref.abs().max())
    assert float((gq - gq_ref).abs().max()) <= tol * float(gq_ref.abs().max())


# -- memory: the (B, N) logits never exist ----------------------------------------------------------


class _LargestTensor(TorchDispatchMode):
    """Records the largest number of elements of any tensor an aten op returns."""

    def __init__(self) -> None:
        super().__init__()
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # type: ignore[no-untyped-def]
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                self.largest = max(self.largest, t.numel())
        return out


def test_neither_forward_nor_backward_builds_the_logits() -> None:
    B, N, d, chunk = 16, 2048, 4, 64
    a, q = _inputs(B, N, d, 1.0, seed=1, grad=True)
    with _LargestTensor() as mode:
        shared_queue_logsumexp(a, q, chunk).sum().backward()
    assert mode.largest <= max(B * chunk, N * d) < B * N
    with _LargestTensor() as mode_ref:  # the check itself sees the unchunked (B, N) logits
        shared_queue_logsumexp_reference(a, q)
    assert mode_ref.largest >= B * N


# -- the loss of training.losses and a training step -------------------------------------------------


def _old_shared_loss(anchor: torch.Tensor, positive: torch.Tensor, queue: torch.Tensor) -> torch.Tensor:
    """The unchunked formula contrastive_loss_shared_negatives had before the kernel."""
    pos = (anchor * positive).sum(-1)
    lse = torch.logsumexp(anchor @ queue.T, dim=1)
    return torch.logaddexp(torch.zeros_like(lse), lse - pos).mean()


@pytest.mark.parametrize("scale", [0.2, 2.0, 40.0])
def test_loss_and_its_gradients_equal_the_unchunked_formula(scale: float) -> None:
    g = torch.Generator().manual_seed(13)
    a, p, q = (torch.randn(n, 6, generator=g, dtype=torch.float64) * scale for n in (9, 9, 300))
    grads = []
    for loss_fn in (lambda x, y, z: contrastive_loss_shared_negatives(x, y, z, chunk=32), _old_shared_loss):
        x, y, z = (t.clone().requires_grad_(True) for t in (a, p, q))
        loss = loss_fn(x, y, z)
        loss.backward()
        grads.append((loss.detach(), x.grad, y.grad, z.grad))
    tol = grad_tol(a, q)
    for new, old in zip(*grads):
        assert torch.allclose(new, old, rtol=0, atol=tol * float(old.abs().max() + 1))
    # and the broadcast per-anchor form of (6)
    assert torch.allclose(grads[0][0], contrastive_loss_n(a, p, q.expand(9, 300, 6)), rtol=1e-12)


def test_moco_training_steps_equal_the_unchunked_ones() -> None:
    """Adam steps of an MLP against a fixed queue (the benchmark's MoCo step) in float64: the
    parameters after training with the kernel equal those with the unchunked formula."""
    params = []
    for loss_fn in (lambda a, p, q: contrastive_loss_shared_negatives(a, p, q, chunk=100), _old_shared_loss):
        torch.manual_seed(0)
        enc = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8)).double()
        opt = torch.optim.Adam(enc.parameters(), lr=1e-2)
        g = torch.Generator().manual_seed(1)
        queue = torch.nn.functional.normalize(torch.randn(1000, 8, generator=g, dtype=torch.float64), dim=1)
        for _ in range(5):
            x = torch.randn(16, 10, generator=g, dtype=torch.float64)
            z = enc(torch.cat([x, x + 0.1 * torch.randn(16, 10, generator=g, dtype=torch.float64)]))
            loss = loss_fn(z[:16], z[16:], queue)
            opt.zero_grad()
            loss.backward()
            opt.step()
        params.append(torch.cat([t.detach().ravel() for t in enc.parameters()]))
    assert torch.allclose(params[0], params[1], rtol=1e-10, atol=1e-12)


def test_bad_arguments_are_named() -> None:
    a, q = _inputs(3, 10, 4, 1.0)
    for chunk in (0, -1, 2.5, True):
        with pytest.raises(AssumptionError, match="chunk"):
            shared_queue_logsumexp(a, q, chunk)  # type: ignore[arg-type]
    with pytest.raises(AssumptionError, match="queue"):
        shared_queue_logsumexp(a, q[:, :3])
    with pytest.raises(AssumptionError, match="dtype"):
        shared_queue_logsumexp(a, q.float())
    with pytest.raises(AssumptionError, match="queue"):
        contrastive_loss_shared_negatives(a, a, q[:, :2])
    assert default_chunk(256, 65536) * 256 == 2**17 and default_chunk(4, 10) == 10
