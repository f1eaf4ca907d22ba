"""benchmarks/run.py: its helpers and the baselines it times against (correctness only; no timings
are asserted anywhere: speed is measured by ``python benchmarks/run.py``, never tested)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCH))

import run as bench_run  # noqa: E402
from _coupon_uniform_previous import chebyshev_lhs_grid_previous  # noqa: E402

from numerics import coupon as cc  # noqa: E402


def test_every_benchmark_is_registered_and_selectable() -> None:
    assert set(bench_run.BENCHMARKS) == {"lun", "pcc", "chebyshev", "coupon", "training", "audit", "search"}
    for claim in bench_run.AUDIT_CLAIMS:
        assert f"--claim {claim}" in bench_run.DEFAULT_AUDIT_ARGS


def test_strip_timings_and_json_diff() -> None:
    a = {"claims": [{"id": "x", "verdict": "proved", "seconds": 1.5, "elapsed_s": 2}], "started": "t0"}
    b = {"claims": [{"id": "x", "verdict": "proved", "seconds": 9.0, "elapsed_s": 3}], "started": "t1"}
    assert bench_run._strip_timings(a) == bench_run._strip_timings(b) == {"claims": [{"id": "x", "verdict": "proved"}]}
    c = {"claims": [{"id": "x", "verdict": "refuted"}]}
    assert bench_run._json_diff(bench_run._strip_timings(a), c) == ["$.claims[0].verdict: proved != refuted"]


@pytest.mark.parametrize("n", [1, 2, 9, 40, 120])
def test_chebyshev_baseline_computes_what_the_claim_computes(n: int) -> None:
    betas = bench_run.CHEBYSHEV_BETAS
    ref = chebyshev_lhs_grid_previous(n, betas)
    got = cc.chebyshev_lhs_grid(n, betas)
    assert np.all(np.abs(got - ref) <= 1e-13 * ref)
