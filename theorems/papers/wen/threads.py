"""Wen & Li: every experiment runs with BLAS and torch on one thread (on 2 shared cores threaded BLAS stalls)."""

from __future__ import annotations

import contextlib
import functools
from typing import Callable, Iterator

from threadpoolctl import threadpool_limits

from theorems import ExperimentOutcome, RunContext


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """BLAS on one thread (on 2 shared cores threaded BLAS stalls), torch likewise."""
    import torch  # heavy (1 s): only around the training runs

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(1):
            yield
    finally:
        torch.set_num_threads(threads)


def one_thread(fn: Callable[[RunContext], ExperimentOutcome]) -> Callable[[RunContext], ExperimentOutcome]:
    """``fn`` run on one thread (BLAS and torch)."""
    @functools.wraps(fn)
    def wrapped(ctx: RunContext) -> ExperimentOutcome:
        with _one_thread():
            return fn(ctx)
    return wrapped
