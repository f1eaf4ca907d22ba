"""Device choice, optional mixed precision and seeding for the training loop.

Training runs on CUDA when it is available; tests and benchmarks run on CPU,
where a fixed seed gives bit-identical parameters (``seed_everything``).
"""

from __future__ import annotations

import contextlib
import random
import re
import sys
from typing import ContextManager

import numpy as np
import torch
from threadpoolctl import threadpool_limits

from numerics.errors import AssumptionError

_CUDA = re.compile(r"cuda(?::(\d+))?")


def select_device(requested: str = "auto") -> torch.device:
    """The torch device for ``requested``: "auto" (CUDA if available, else CPU), "cpu", "cuda" or "cuda:N"."""
    name = requested.strip().lower() if isinstance(requested, str) else requested
    if name == "auto":
        return torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
    if name == "cpu":
        return torch.device("cpu")
    match = _CUDA.fullmatch(name) if isinstance(name, str) else None
    if match is None:
        raise AssumptionError(f"device={requested!r} is not a device: use 'auto', 'cpu', 'cuda' or 'cuda:N'")
    if not torch.cuda.is_available():
        raise AssumptionError(f"device={requested!r} but torch.cuda.is_available() is False: "
                              "use device='auto' or 'cpu' on this machine")
    if match.group(1) is None:
        return torch.device("cuda")
    index, count = int(match.group(1)), torch.cuda.device_count()
    if index >= count:
        raise AssumptionError(f"device={requested!r} but only {count} CUDA device(s) are visible: "
                              f"use an index in 0..{count - 1}")
    return torch.device("cuda", index)


def autocast_context(device: torch.device, enabled: bool = False) -> ContextManager[object]:
    """Mixed precision on CUDA (bfloat16 where supported, else float16); a no-op context on CPU or when disabled."""
    if not enabled or device.type != "cuda":
        return contextlib.nullcontext()
    dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    return torch.autocast(device_type="cuda", dtype=dtype)


def seed_everything(seed: int, device: torch.device | None = None) -> None:
    """Seed python's ``random``, numpy's legacy global RNG and torch (all devices).

    On CPU (``device`` None or a CPU device) also request deterministic
    kernels (``warn_only=True``: an op without a deterministic kernel warns
    instead of failing), so a fixed seed gives bit-identical parameters.
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise AssumptionError(f"seed={seed!r}: the seed must be a non-negative integer")
    random.seed(int(seed))
    np.random.seed(int(seed) % 2**32)
    torch.manual_seed(int(seed))  # seeds CUDA generators too
    if device is None or device.type == "cpu":
        deterministic_kernels()


def configure_process(threads: int = 1) -> None:
    """Process-wide torch settings, made once by the entry points (CLI, pytest plugin, benchmarks).

    One thread, for torch and for numpy's BLAS (OpenBLAS takes every core by default): on 2 shared
    cores small steps stall 10-50x when two threads wait on each other, and a parallel audit's
    worker processes would each start a thread per core. Library functions never change these
    settings themselves. Deterministic kernels are asked for where claims are checked and runs
    trained (:func:`deterministic_kernels`): the request imports torch's compiler stack (about 2 s),
    which a command that does neither (list, replay) should not pay.
    """
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    threadpool_limits(threads)


def deterministic_kernels() -> None:
    """Deterministic kernels (``warn_only``): a fixed seed gives bit-identical parameters on CPU.
    Called by ``training.loop.optimize`` (the loop every training run goes through) and before
    every claim's check (so that no claim's numbers depend on what ran before it in its process).

    ``torch.use_deterministic_algorithms`` sets this switch and imports torch's compiler stack
    (about 2 s per process) to set inductor's own flag, which only compiled code reads. Nothing
    here compiles: unless the compiler is already loaded, the switch is set alone.

    Deterministic mode also fills every new uninitialized tensor with NaN, a debugging aid against
    kernels that read memory they never wrote. That fill was 13 % of a training step, and a run
    trained with and without it is bit-identical (tested), so it is switched off."""
    if not torch.are_deterministic_algorithms_enabled():  # a strict mode set by the caller stays
        switch = getattr(torch._C, "_set_deterministic_algorithms", None)
        if switch is None or "torch._inductor.config" in sys.modules:
            torch.use_deterministic_algorithms(True, warn_only=True)
        else:
            switch(True, warn_only=True)
    torch.utils.deterministic.fill_uninitialized_memory = False  # type: ignore[attr-defined]
