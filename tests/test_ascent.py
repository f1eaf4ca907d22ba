"""The adversarial ascents' Adam: torch.optim.Adam + ExponentialLR, bit for bit, without torch's compiler."""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch

from numerics.ascent import DecayingAdam


def _ascend(make_optimizer: object, steps: int = 40) -> list[torch.Tensor]:
    torch.manual_seed(0)
    a = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(4, dtype=torch.float64, requires_grad=True)
    step = make_optimizer([([a], 0.05), ([b], 0.01)], 0.01 ** (1 / steps))  # type: ignore[operator]
    for i in range(steps):
        step.zero_grad() if hasattr(step, "zero_grad") else None
        loss = (a.sin() ** 2).sum() + (b ** 3).sum() * (1 if i % 7 else 0)  # b's gradient is 0 at some steps
        (-loss).backward()
        step.step()
    return [a.detach(), b.detach()]


class _TorchAdam:
    """The reference: torch.optim.Adam over the groups, stepped with ExponentialLR."""

    def __init__(self, groups: list[tuple[list[torch.Tensor], float]], gamma: float, fused: bool | None) -> None:
        self.opt = torch.optim.Adam([{"params": p, "lr": lr} for p, lr in groups], fused=fused)
        self.schedule = torch.optim.lr_scheduler.ExponentialLR(self.opt, gamma=gamma)

    def zero_grad(self) -> None:
        self.opt.zero_grad()

    def step(self) -> None:
        self.opt.step()
        self.schedule.step()


@pytest.mark.parametrize("fused", [True, None])
def test_decaying_adam_is_torch_adam_with_exponential_lr_bit_for_bit(fused: bool | None) -> None:
    ours = _ascend(lambda groups, gamma: DecayingAdam(groups, gamma, fused=fused))
    theirs = _ascend(lambda groups, gamma: _TorchAdam(groups, gamma, fused))
    assert all(torch.equal(x, y) for x, y in zip(ours, theirs))
    moved = _ascend(lambda groups, gamma: DecayingAdam(groups, gamma * 0.999, fused=fused))
    assert not torch.equal(moved[0], ours[0])  # the decay is applied


def test_checking_a_claim_does_not_import_the_compiler_stack() -> None:
    """The deterministic switch and the ascents' Adam leave torch._dynamo unimported (2 s per process)."""
    code = ("import sys\n"
            "from training.device import configure_process, deterministic_kernels\n"
            "configure_process(); deterministic_kernels()\n"
            "import torch\n"
            "assert torch.are_deterministic_algorithms_enabled() and torch.is_deterministic_algorithms_warn_only_enabled()\n"
            "from theorems.engine.budget import profile\n"
            "from theorems.engine.check import check_claim\n"
            "from theorems.engine.registry import get\n"
            "result = check_claim(get('merad.lse.nonneg'), profile('quick'), seed=0)\n"
            "assert result.adversarial_examples > 0, result.adversarial_examples\n"
            "print(sorted(m for m in sys.modules if m.startswith(('torch._dynamo', 'torch._inductor'))))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "[]", run.stdout
