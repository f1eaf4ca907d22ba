"""benchmarks/run.py: its options, its helpers and the baselines it times against (correctness only; no timings
are asserted anywhere: speed is measured by ``python benchmarks/run.py``, never tested).

The scripts run in a subprocess, as they are run: no test imports ``benchmarks/`` (tests/test_architecture.py),
whose scripts put themselves and the repository on ``sys.path`` and would name modules (``run``, ``_timing``)
in the test process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "benchmarks" / "run.py"
BENCHMARKS = {"lun", "pcc", "chebyshev", "coupon", "training", "audit", "search"}


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/run.py ARGS``, from the repository's root."""
    return subprocess.run([sys.executable, str(RUN), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_every_benchmark_is_registered_and_selectable() -> None:
    helped = bench("--help")
    assert helped.returncode == 0, helped.stderr
    listed = " ".join(helped.stdout.split()).split("comma-separated subset of ")[1].split()[0]
    assert set(listed.split(",")) == BENCHMARKS
    unknown = bench("--only", "chebyshev,nonesuch")
    assert unknown.returncode == 2 and "unknown benchmark(s) ['nonesuch']" in unknown.stderr, unknown.stderr


def test_the_audit_helpers_strip_timings_and_diff_json() -> None:
    """run.py's own helpers, read by running the script under another name (its ``main`` does not run)."""
    code = textwrap.dedent(f"""
        import json, runpy
        run = runpy.run_path({str(RUN)!r}, run_name="bench_run")
        strip, diff = run["_strip_timings"], run["_json_diff"]
        a = {{"claims": [{{"id": "x", "verdict": "proved", "seconds": 1.5, "elapsed_s": 2}}], "started": "t0"}}
        b = {{"claims": [{{"id": "x", "verdict": "proved", "seconds": 9.0, "elapsed_s": 3}}], "started": "t1"}}
        c = {{"claims": [{{"id": "x", "verdict": "refuted"}}]}}
        print(json.dumps({{"a": strip(a), "b": strip(b), "diff": diff(strip(a), c),
                          "claims_in_default_args": all(f"--claim {{claim}}" in run["DEFAULT_AUDIT_ARGS"]
                                                        for claim in run["AUDIT_CLAIMS"])}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["a"] == out["b"] == {"claims": [{"id": "x", "verdict": "proved"}]}
    assert out["diff"] == ["$.claims[0].verdict: proved != refuted"]
    assert out["claims_in_default_args"]


def test_the_chebyshev_baseline_computes_what_the_claim_computes(tmp_path: Path) -> None:
    """The benchmark's own check: the stage-by-stage version it times against (benchmarks/_coupon_uniform_previous.py)
    agrees with theorems.papers.merad.coupon.chebyshev_lhs_grid on the claim's betas to 1e-13 relative (a few seconds)."""
    out = tmp_path / "chebyshev.json"
    done = bench("--only", "chebyshev", "--rounds", "1", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    checks = json.loads(out.read_text())["checks"]
    assert len(checks) == 3 and all(c["ok"] for c in checks.values()), checks
