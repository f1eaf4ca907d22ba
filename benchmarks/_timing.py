"""Shared timing helper of the benchmark scripts."""

from __future__ import annotations

import math
import time
from typing import Callable


def best_time(fn: Callable[[], object], min_total: float = 0.2, max_reps: int = 50) -> tuple[float, object]:
    """Smallest wall time over repetitions (at least one, until ~min_total seconds)."""
    best, out, spent, reps = math.inf, None, 0.0, 0
    while reps < max_reps and (reps == 0 or spent < min_total):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best, spent, reps = min(best, dt), spent + dt, reps + 1
    return best, out
