"""Parallel and distributed audits give the same report as a sequential one (timings aside)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
# fast claims, one refuted (its witnesses must be written identically) and one with a figure
CLAIMS = ["merad.lse.nonneg", "merad.coupon.variance", "merad.prop1.rearrangement", "merad.tau_plus"]


def without_timings(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: without_timings(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [without_timings(v) for v in obj]
    return obj


def audit(out: Path, *extra: str) -> dict[str, Any]:
    args = [sys.executable, "-m", "theorems.frontend.cli", "audit", "--profile", "quick", "--out", str(out), *extra]
    for cid in CLAIMS:
        args += ["--claim", cid]
    run = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=dict(os.environ), timeout=900)
    assert run.returncode in (0, 1), run.stdout + run.stderr
    return without_timings(json.loads((out / "report.json").read_text()))


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in ("report.json", "report.md")}


@pytest.fixture(scope="module")
def sequential(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    out = tmp_path_factory.mktemp("jobs1")
    return audit(out, "--jobs", "1"), out


def test_jobs_2_gives_the_report_of_jobs_1(sequential: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    report, out1 = sequential
    assert report == audit(tmp_path, "--jobs", "2")
    assert [c["id"] for c in report["claims"]] == sorted(CLAIMS)
    assert files(out1) == files(tmp_path) and "witnesses/merad.coupon.variance.json" in files(tmp_path)


def test_the_ray_executor_gives_the_same_report(sequential: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'clcheck[ray]'")
    report, out1 = sequential
    assert report == audit(tmp_path, "--executor", "ray")
    assert files(out1) == files(tmp_path)
