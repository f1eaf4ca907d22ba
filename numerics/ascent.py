"""Adam with an exponentially decaying step, for the adversarial ascents.

The same update as ``torch.optim.Adam(groups, fused=fused)`` stepped with
``torch.optim.lr_scheduler.ExponentialLR(opt, gamma)``: the same kernels
(``torch.optim.adam.adam``, the functional form the optimizer calls), the same
state (float32 step counters, zero moments) and the same learning rates
(lr <- lr * gamma after each step), so an ascent visits the same points
(tests/test_ascent.py compares them bit for bit). It
exists because constructing ``torch.optim.Optimizer`` imports torch's compiler
stack (about 2 s), which every process that checks a claim would pay once;
the functional form does not.
"""

from __future__ import annotations

from typing import Sequence

import torch
from torch.optim.adam import adam


class DecayingAdam:
    """Adam (betas 0.9, 0.999, eps 1e-8, no weight decay) over groups of tensors, each group with its
    own learning rate, every rate multiplied by ``gamma`` after each step."""

    def __init__(self, groups: Sequence[tuple[Sequence[torch.Tensor], float]], gamma: float,
                 fused: bool | None = True) -> None:
        self.groups = [(list(params), float(lr)) for params, lr in groups]
        self.gamma = float(gamma)
        self.fused = fused  # None: torch's default for the tensors (on CPU the single-tensor loop)
        self.state: dict[int, tuple[torch.Tensor, torch.Tensor, torch.Tensor]] = {}

    def zero_grad(self) -> None:
        for params, _ in self.groups:
            for p in params:
                p.grad = None

    def step(self) -> None:
        """One Adam step on every tensor with a gradient, then the decay of the learning rates."""
        for g, (params, lr) in enumerate(self.groups):
            live = [p for p in params if p.grad is not None]
            if live:
                states = [self._state(p) for p in live]
                with torch.no_grad():
                    adam(live, [p.grad for p in live], [s[0] for s in states], [s[1] for s in states], [],
                         [s[2] for s in states], fused=self.fused, amsgrad=False, beta1=0.9, beta2=0.999, lr=lr,
                         weight_decay=0.0, eps=1e-8, maximize=False)
            self.groups[g] = (params, lr * self.gamma)

    def _state(self, p: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(exp_avg, exp_avg_sq, step) of ``p``, created as torch.optim.Adam creates them."""
        if id(p) not in self.state:
            self.state[id(p)] = (torch.zeros_like(p, memory_format=torch.preserve_format),
                                 torch.zeros_like(p, memory_format=torch.preserve_format),
                                 torch.zeros((), dtype=torch.float32, device=p.device))
        return self.state[id(p)]
