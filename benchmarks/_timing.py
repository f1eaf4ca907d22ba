"""Shared helpers of the benchmark scripts: timing, the machine, figures."""

from __future__ import annotations

import math
import os
import platform
import time
from typing import Any, Callable


def best_time(fn: Callable[[], object], min_total: float = 0.2, max_reps: int = 50) -> tuple[float, object]:
    """Smallest wall time over repetitions (at least one, until ~min_total seconds)."""
    best, out, spent, reps = math.inf, None, 0.0, 0
    while reps < max_reps and (reps == 0 or spent < min_total):
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        best, spent, reps = min(best, dt), spent + dt, reps + 1
    return best, out


def interleaved_best(fns: dict[str, Callable[[], object]], rounds: int = 5, sync: Callable[[], None] | None = None,
                     min_total: float = 0.0, max_reps: int = 1) -> dict[str, float]:
    """Best wall time of each function, measured in alternating rounds (a, b, c, a, b, c, ...).

    A figure that is a ratio of two of these compares the two under the same conditions: on a
    shared machine a burst of other work slows whichever is running, and taking each one's best
    over interleaved rounds keeps the burst out of the ratio. ``sync`` (e.g. torch.cuda.synchronize)
    is called before and after every timed call."""
    best = {k: math.inf for k in fns}
    for fn in fns.values():  # warm-up
        fn()
        if sync:
            sync()
    for _ in range(rounds):
        for name, fn in fns.items():
            def timed() -> None:
                if sync:
                    sync()
                fn()
                if sync:
                    sync()
            t, _ = best_time(timed, min_total=min_total, max_reps=max_reps)
            best[name] = min(best[name], t)
    return best


def load_average() -> list[float] | None:
    """(1, 5, 15)-minute load averages, or None where the platform has none."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import numpy as np

    info: dict[str, Any] = {"platform": platform.platform(), "python": platform.python_version(),
                            "numpy": np.__version__, "cpus": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        info["cpu"] = platform.processor()
    try:
        import torch

        info["torch"] = str(torch.__version__)
        info["torch_threads"] = torch.get_num_threads()
        info["cuda"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    except ImportError:  # pragma: no cover
        pass
    return info


def figure(value: float, numerator: tuple[str, float, str], baseline: tuple[str, float, str], *,
           higher_is_better: bool, note: str = "", **details: Any) -> dict[str, Any]:
    """A named figure: ``value`` = numerator / baseline (or baseline / numerator for a speed-up),
    both measured in the same run; each side says what it is, its value and its unit."""
    return {"value": value, "higher_is_better": higher_is_better,
            "numerator": {"what": numerator[0], "value": numerator[1], "unit": numerator[2]},
            "baseline": {"what": baseline[0], "value": baseline[1], "unit": baseline[2]},
            **({"note": note} if note else {}), **details}
