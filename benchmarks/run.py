"""Run every benchmark and write named figures, each a ratio to a baseline measured in the same run.

Run: ``python benchmarks/run.py --json out.json`` (a few minutes on one core; ``--only lun,pcc``
for a subset, ``--skip coupon,training`` to leave some out).

A figure is a ratio of two timings (or throughputs) taken in the same process, interleaved where
they are compared directly, so it can be compared across machines where an absolute time
cannot. Every figure records both sides (what, value, unit); the JSON also holds the machine, the
torch threads, and the 1/5/15-minute load averages before and after (a figure measured under
load is noisier, not biased: each side is the best of several interleaved rounds).

Benchmarks (``--only`` / ``--skip`` names):

* ``lun`` -- L^N_un (Merad et al. (6)) over a shared MoCo queue (B = 256, d = 128,
  N = 65 536, float32; benchmarks/bench_lun.py): the streaming kernel (numerics.streaming)
  as a fraction of the same run's float32 GEMM figure, forward and forward + backward, next to
  the unchunked formula it replaced; the float64 check of the value. On a machine with CUDA the
  same figures on the GPU (``lun_streaming.cuda.*``) against the GPU's GEMM.
* ``pcc`` -- p_cc (Merad et al. Lemma 2 (8), theorems.papers.merad.coupon) for Zipf and uniform rho against
  the previous implementation (benchmarks/_pcc_previous.py) timed in the same run, and Zipf
  against uniform; checks: the values agree, and Zipf rho with N_C <= 12 matches the mpmath twin
  to 1e-12 relative.
* ``chebyshev`` -- the distribution of T for uniform rho behind merad.coupon.chebyshev
  (theorems.papers.merad.coupon.chebyshev_lhs_grid: P(|T - N_C H_N_C| >= beta N_C) on the claim's 12 betas)
  at N_C = 100, 300, 1000 against the stage-by-stage version it replaced
  (benchmarks/_coupon_uniform_previous.py), timed in the same run; checks: the values agree
  to 1e-13 relative.
* ``coupon`` -- benchmarks/bench_coupon.py: p_cc against naive inclusion-exclusion, the mpmath
  twin and Monte Carlo on its grid of (rho, N_C, N).
* ``training`` -- benchmarks/bench_training.py: loss evaluations against per-sample loops and
  pure-Python floats, training steps in units of the same run's GEMM.
* ``search`` -- benchmarks/bench_search.py: the search with its tightness pass against the search without it
  (issue 29), at the audit profile over ``--search-seeds``: the fraction of thin mutants refuted and the median
  CPU seconds to the first refutation; the shipped bounds' best ratio per seed and its spread; checks: no twin
  is refuted, the spread of every best ratio stays below 5 %.
* ``audit`` -- ``clcheck audit --jobs 2`` against ``--jobs 1`` (issue 13, item 1) on a small
  claim set that trains nothing (``--audit-args``; default below): after an untimed warm-up run
  in a private run cache, ``--audit-rounds`` rounds of (jobs 1, jobs 2), the order alternating
  from round to round, each side's best wall time (the whole process, start-up included); checks
  that the two report.json agree apart from timings. Skipped, with the reason, where
  ``clcheck audit`` has no ``--jobs`` option.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import pathlib
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from _timing import figure, interleaved_best, load_average, machine  # noqa: E402

Result = tuple[dict[str, Any], dict[str, Any], dict[str, str]]  # figures, checks, skipped

#: what ``--audit-args`` defaults to: a small claim set that trains nothing, quick profile (the
#: timed audits take tens of seconds each); pass e.g. ``--audit-args "--profile quick"`` for all claims
AUDIT_CLAIMS = ("merad.coupon.mean", "merad.coupon.variance", "merad.coupon.chebyshev", "merad.tau_plus",
                "merad.lemma3", "merad.lemma3.steps")
DEFAULT_AUDIT_ARGS = "--profile quick " + " ".join(f"--claim {c}" for c in AUDIT_CLAIMS)


# -- lun ---------------------------------------------------------------------------------------------


def run_lun(args: argparse.Namespace) -> Result:
    import torch

    import bench_lun

    figures, checks, skipped = {}, {}, {}
    devices = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])
    if "cuda" not in devices:
        skipped["lun_streaming.cuda"] = "torch.cuda.is_available() is False on this machine"
    for dev in devices:
        r = bench_lun.measure(dev, rounds=args.rounds, seed=args.seed)
        figures.update(bench_lun.figures(r))
        e = r["rel_err_vs_float64_unchunked"]
        checks[f"lun_streaming.{dev}.float64_check"] = {
            "ok": e["kernel32"] <= max(1e-6, 4 * e["unchunked32"]) and e["kernel64"] <= 1e-13,
            "kernel_float32_rel_err": e["kernel32"], "unchunked_float32_rel_err": e["unchunked32"],
            "kernel_float64_rel_err": e["kernel64"],
            "rule": "kernel float32 error <= max(1e-6, 4 x the unchunked float32 error); float64 kernel <= 1e-13"}
        checks[f"lun_streaming.{dev}.fraction_of_gemm_target"] = {
            "ok": figures[f"lun_streaming.{dev}.fraction_of_gemm"]["value"] >= 0.6,
            "value": figures[f"lun_streaming.{dev}.fraction_of_gemm"]["value"], "target": 0.6}
    return figures, checks, skipped


# -- pcc ---------------------------------------------------------------------------------------------


def _zipf(n: int) -> np.ndarray:
    z = 1.0 / np.arange(1, n + 1)
    return z / z.sum()


PCC_CASES = [("zipf", 1000, 100_000), ("uniform", 1000, 100_000), ("zipf", 1000, 1001), ("zipf", 1000, 5000),
             ("zipf", 100, 2000)]


def run_pcc(args: argparse.Namespace) -> Result:
    import mpmath

    from _pcc_previous import p_cc_info_previous
    from theorems.papers.merad import coupon as cc

    figures, checks = {}, {}
    times: dict[tuple[str, int, int], dict[str, float]] = {}
    for kind, n, N in PCC_CASES:
        rho = _zipf(n) if kind == "zipf" else np.full(n, 1.0 / n)
        t = interleaved_best({"new": lambda: cc.p_cc_info(rho, N), "previous": lambda: p_cc_info_previous(rho, N)},
                             rounds=max(3, args.rounds), max_reps=5, min_total=0.1)
        times[(kind, n, N)] = t
        new, prev = cc.p_cc_info(rho, N), p_cc_info_previous(rho, N)
        name = f"p_cc.{kind}_{n}_{N}"
        figures[f"{name}.speedup_vs_previous"] = figure(
            t["previous"] / t["new"], ("p_cc_info (this version)", 1e3 * t["new"], "ms"),
            ("p_cc_info before issue 13 (benchmarks/_pcc_previous.py)", 1e3 * t["previous"], "ms"),
            higher_is_better=True, time_ms=1e3 * t["new"], n_merged=new.n_merged, max_width=new.max_width,
            **({"target_ms": 50.0} if (kind, n, N) == ("zipf", 1000, 100_000) else {}))
        checks[f"{name}.agrees_with_previous"] = {
            "ok": abs(new.log_p - prev.log_p) <= 1e-12 * max(1.0, abs(prev.log_p)),
            "log_p": new.log_p, "log_p_previous": prev.log_p, "abs_diff_log_p": abs(new.log_p - prev.log_p),
            "dropped_rel": new.dropped_rel}
    tz, tu = times[("zipf", 1000, 100_000)]["new"], times[("uniform", 1000, 100_000)]["new"]
    figures["p_cc.zipf_1000_100000.time_vs_uniform"] = figure(
        tz / tu, ("p_cc_info, Zipf rho, (N_C, N) = (1000, 100 000)", 1e3 * tz, "ms"),
        ("p_cc_info, uniform rho, same (N_C, N)", 1e3 * tu, "ms"), higher_is_better=False)
    checks["p_cc.zipf_1000_100000.under_50ms"] = {"ok": tz < 0.05, "time_ms": 1e3 * tz, "target_ms": 50.0}
    # accuracy against the mpmath twin (subset inclusion-exclusion at 40 digits + guard digits)
    worst, worst_case, n_cases = 0.0, None, 0
    for n in (2, 3, 5, 8, 12):
        rho = _zipf(n)
        for N in sorted({n, n + 1, n + 2, n + 5, 2 * n, 10 * n, 100 * n, 10_000, 100_000}):
            lm = float(mpmath.log(cc.p_cc_mp(rho, N, dps=40)))
            err = abs(math.expm1(cc.log_p_cc(rho, N) - lm))
            n_cases += 1
            if err >= worst:
                worst, worst_case = err, (n, N)
    checks["p_cc.zipf.vs_mp"] = {"ok": worst <= 1e-12, "max_rel_err": worst, "at (N_C, N)": worst_case,
                                 "cases": n_cases, "tolerance": 1e-12}
    return figures, checks, {}


# -- chebyshev (the distribution of T for uniform rho, merad.coupon.chebyshev) ------------------------

CHEBYSHEV_BETAS = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0, 10.0)  # the claim's grid


def run_chebyshev(args: argparse.Namespace) -> Result:
    from _coupon_uniform_previous import chebyshev_lhs_grid_previous
    from theorems.papers.merad import coupon as cc

    figures, checks = {}, {}
    for n in (100, 300, 1000):
        def new(n: int = n) -> np.ndarray:
            cc._harmonic_exact.cache_clear()  # E[T] recomputed every time, as the previous version does
            return cc.chebyshev_lhs_grid(n, CHEBYSHEV_BETAS)

        t = interleaved_best({"new": new, "previous": lambda: chebyshev_lhs_grid_previous(n, CHEBYSHEV_BETAS)},
                             rounds=max(2, args.rounds // 2))
        figures[f"chebyshev.grid_{n}.speedup_vs_previous"] = figure(
            t["previous"] / t["new"], ("chebyshev_lhs_grid (a filter cascade for P(T = t), the inclusion-exclusion series for P(T > t))",
                                       1e3 * t["new"], "ms"),
            ("the same before issue 13: 2 N_C lfilter calls, fsum prefixes, Fraction E[T] per beta",
             1e3 * t["previous"], "ms"), higher_is_better=True, betas=len(CHEBYSHEV_BETAS))
        got, ref = new(), chebyshev_lhs_grid_previous(n, CHEBYSHEV_BETAS)
        err = float(np.max(np.abs(got - ref) / ref))
        checks[f"chebyshev.grid_{n}.agrees_with_previous"] = {"ok": err <= 1e-13, "max_rel_diff": err,
                                                               "tolerance": 1e-13}
    return figures, checks, {}


# -- coupon (bench_coupon.py's grid) -------------------------------------------------------------------


def run_coupon(args: argparse.Namespace) -> Result:
    import bench_coupon

    figures, checks = {}, {}
    for r in bench_coupon.measure(20240601 + args.seed):
        name = f"coupon.{r['label']}_{r['n']}_{r['N']}"
        own = ("p_cc_info", 1e3 * r["t_pcc"], "ms")
        for key, what in (("t_naive", "naive float64 inclusion-exclusion"), ("t_mp", "p_cc_mp (40 digits)"),
                          ("t_mc", "Monte Carlo to 1e-6 relative (extrapolated)")):
            if r[key] is not None and math.isfinite(r[key]):
                short = {"t_naive": "naive_ie", "t_mp": "mp", "t_mc": "monte_carlo"}[key]
                figures[f"{name}.speedup_vs_{short}"] = figure(r[key] / r["t_pcc"], own, (what, 1e3 * r[key], "ms"),
                                                               higher_is_better=True)
        if r["err_pcc"] is not None:
            checks[f"{name}.vs_mp"] = {"ok": r["err_pcc"] <= 1e-12, "rel_err": r["err_pcc"],
                                       "naive_ie_rel_err": r["err_naive"]}
    return figures, checks, {}


# -- training (bench_training.py) ----------------------------------------------------------------------


def run_training(args: argparse.Namespace) -> Result:
    import torch

    import bench_training

    figures: dict[str, Any] = {}
    gen = torch.Generator().manual_seed(args.seed)
    torch.manual_seed(args.seed)
    peak = bench_training.matmul_gflops()
    t_gemm = 2 * 2048**3 / peak / 1e9
    gemm = ("float32 GEMM 2048^3", peak, "GFLOP/s")
    for r in bench_training.bench_losses(gen, peak):
        N = r["N"]
        vec = ("vectorized loss evaluation", 1e3 * r["t_vec"], "ms")
        figures[f"training.loss_eval.N{N}.speedup_vs_loop"] = figure(
            r["t_loop"] / r["t_vec"], vec, ("per-sample Python loop of torch ops", 1e3 * r["t_loop"], "ms"),
            higher_is_better=True, rel_err64=r["rel_err64"])
        figures[f"training.loss_eval.N{N}.speedup_vs_python_floats"] = figure(
            r["t_float"] / r["t_vec"], vec, ("pure-Python floats (extrapolated)", 1e3 * r["t_float"], "ms"),
            higher_is_better=True)
        if "t_unchunked" in r:
            figures[f"training.loss_eval.N{N}.fraction_of_gemm"] = figure(
                r["gflops"] / peak, ("streaming kernel", r["gflops"], "GFLOP/s"), gemm, higher_is_better=True,
                note="one 1-second best-of run; benchmarks/bench_lun.py (the 'lun' figures) interleaves its rounds")
    for r in bench_training.bench_training(gen, args.seed):
        figures[f"training.step.N{r['N']}.time_vs_gemm"] = figure(
            r["t_step"] / t_gemm, ("training step (sample, encode, loss, backward, Adam)", 1e3 * r["t_step"], "ms"),
            ("one float32 2048^3 GEMM", 1e3 * t_gemm, "ms"), higher_is_better=False)
    loop = bench_training.bench_train_loop(args.seed)
    t_step = loop["seconds"] / loop["steps"]
    figures["training.loop.N35.time_vs_gemm"] = figure(
        t_step / t_gemm, ("training.loop.train step, digits, N = 35", 1e3 * t_step, "ms"),
        ("one float32 2048^3 GEMM", 1e3 * t_gemm, "ms"), higher_is_better=False)
    return figures, {}, {}


# -- audit (hook for issue 13, item 1) -----------------------------------------------------------------


def _strip_timings(obj: Any) -> Any:
    """report.json without its timing fields (keys naming seconds, time, duration or elapsed)."""
    words = ("second", "time", "duration", "elapsed", "started", "finished", "date")
    if isinstance(obj, dict):
        return {k: _strip_timings(v) for k, v in obj.items() if not any(w in str(k).lower() for w in words)}
    if isinstance(obj, list):
        return [_strip_timings(v) for v in obj]
    return obj


def run_audit(args: argparse.Namespace) -> Result:
    """``clcheck audit --jobs 2`` against ``--jobs 1`` (same seed), once ``--jobs`` exists."""
    exe = shutil.which("clcheck", path=str(ROOT / ".venv" / "bin")) or shutil.which("clcheck")
    if exe is None:
        return {}, {}, {"audit.jobs": "no clcheck executable found (.venv/bin/clcheck or on PATH)"}
    help_text = subprocess.run([exe, "audit", "--help"], capture_output=True, text=True, cwd=ROOT).stdout
    if "--jobs" not in help_text:
        return {}, {}, {"audit.jobs": "clcheck audit has no --jobs option yet (issue 13, item 1): nothing to time; "
                                      "this benchmark runs by itself once the option exists"}
    extra = shlex.split(args.audit_args)
    with tempfile.TemporaryDirectory(prefix="clcheck-bench-audit-") as tmp:
        env = {**os.environ, "CLCHECK_CACHE": str(pathlib.Path(tmp) / "cache")}

        def run(jobs: int, out: str) -> tuple[float, int]:
            t0 = time.perf_counter()
            proc = subprocess.run([exe, "audit", "--jobs", str(jobs), *extra, "--out", str(pathlib.Path(tmp) / out)],
                                  capture_output=True, text=True, cwd=ROOT, env=env)
            return time.perf_counter() - t0, proc.returncode

        run(2, "warmup")  # trains and caches what the claims share: every timed audit starts warm
        best = {1: math.inf, 2: math.inf}
        codes: dict[int, int] = {}
        for r in range(max(1, args.audit_rounds)):
            for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):  # alternate the order: no side always runs first
                t, rc = run(jobs, f"jobs{jobs}")
                best[jobs], codes[jobs] = min(best[jobs], t), rc
        t1, t2, rc1, rc2 = best[1], best[2], codes[1], codes[2]
        reports = []
        for out in ("jobs1", "jobs2"):
            path = pathlib.Path(tmp) / out / "report.json"
            reports.append(_strip_timings(json.loads(path.read_text())) if path.is_file() else None)
    figures = {"audit.jobs2.speedup_vs_jobs1": figure(
        t1 / t2, ("clcheck audit --jobs 2 " + args.audit_args, t2, "s"),
        ("clcheck audit --jobs 1 " + args.audit_args, t1, "s"), higher_is_better=True, warm_cache=True,
        rounds=max(1, args.audit_rounds), cores=os.cpu_count())}
    same = reports[0] is not None and reports[0] == reports[1] and rc1 == rc2
    checks = {"audit.jobs2.same_report_as_jobs1": {
        "ok": same, "exit_codes": [rc1, rc2], "compared": "report.json without timing fields",
        **({} if same or None in reports else {"differences": _json_diff(reports[0], reports[1])})}}
    return figures, checks, {}


def _json_diff(a: Any, b: Any, path: str = "$", out: list[str] | None = None, limit: int = 20) -> list[str]:
    """Paths where two JSON values differ (at most ``limit``)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k} (only in {'jobs 1' if k in a else 'jobs 2'})")
            else:
                _json_diff(a[k], b[k], f"{path}.{k}", out, limit)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _json_diff(x, y, f"{path}[{i}]", out, limit)
    elif a != b:
        out.append(f"{path}: {str(a)[:60]!s} != {str(b)[:60]!s}")
    return out[:limit]


def run_search(args: argparse.Namespace) -> Result:
    """The search with its tightness pass against the previous search, at the audit profile (bench_search.py)."""
    import bench_search

    seeds = [int(s) for s in args.search_seeds.split(",") if s]
    r = bench_search.measure(seeds)
    new, old = r["tightness"], r["previous"]
    figures = {
        "search.mutants.fraction_refuted": figure(
            new["fraction_refuted"] / max(old["fraction_refuted"], 1e-9),
            ("thin mutants refuted, with the tightness pass", new["fraction_refuted"], "fraction of (mutant, seed)"),
            ("thin mutants refuted, previous search", old["fraction_refuted"], "fraction of (mutant, seed)"),
            higher_is_better=True, missed=new["missed"], missed_previous=old["missed"])}
    if new["median_cpu_to_first"] and old["median_cpu_to_first"]:
        figures["search.mutants.cpu_to_first_refutation"] = figure(
            new["median_cpu_to_first"] / old["median_cpu_to_first"],
            ("median CPU to the first refutation, tightness pass", new["median_cpu_to_first"], "s"),
            ("median CPU to the first refutation, previous search", old["median_cpu_to_first"], "s"),
            higher_is_better=False, note="over the refuted (mutant, seed) runs of each search")
    for part, ratios in new["best_ratios"].items():
        before = old["best_ratios"][part]
        if all(v is not None for v in ratios + before) and min(before) > 0:
            figures[f"search.best_ratio.{part}"] = figure(
                min(ratios) / min(before), ("worst seed's best ratio, tightness pass", min(ratios), "ratio"),
                ("worst seed's best ratio, previous search", min(before), "ratio"), higher_is_better=True,
                per_seed=ratios, per_seed_previous=before, spread=new["spread"][part],
                spread_previous=old["spread"][part])
    checks = {"search.twins_never_refuted": {"ok": new["twins_refuted"] == 0, "twins_refuted": new["twins_refuted"]},
              "search.best_ratio_spread_below_5_percent": {
                  "ok": all(v is not None and v < 0.05 for v in new["spread"].values()),
                  "spread": new["spread"]}}
    return figures, checks, {}


BENCHMARKS: dict[str, Callable[[argparse.Namespace], Result]] = {
    "lun": run_lun, "pcc": run_pcc, "chebyshev": run_chebyshev, "coupon": run_coupon, "training": run_training,
    "audit": run_audit, "search": run_search}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=pathlib.Path, default=None, help="write the figures here")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch intra-op threads (default 1, as the figures are defined; 0: torch's default)")
    parser.add_argument("--only", default="", help=f"comma-separated subset of {','.join(BENCHMARKS)}")
    parser.add_argument("--skip", default="", help="comma-separated benchmarks to leave out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timing rounds (best of each)")
    parser.add_argument("--audit-rounds", type=int, default=2,
                        help="timed (jobs 1, jobs 2) rounds of the audit benchmark (best of each)")
    parser.add_argument("--search-seeds", default="0,1,2,3,4", help="audit seeds of the search benchmark")
    parser.add_argument("--audit-args", default=DEFAULT_AUDIT_ARGS,
                        help=f"arguments of the timed audits besides --jobs and --out (default {DEFAULT_AUDIT_ARGS!r})")
    args = parser.parse_args()
    only = [s for s in args.only.split(",") if s]
    skip = {s for s in args.skip.split(",") if s}
    unknown = sorted((set(only) | skip) - set(BENCHMARKS))
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}: choose from {list(BENCHMARKS)}")
    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    report: dict[str, Any] = {
        "command": " ".join(["python", *sys.argv]),
        "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average_start": load_average(), "machine": machine(),
        "figures": {}, "checks": {}, "skipped": {}, "seconds": {}}
    print(f"load average {report['load_average_start']}, torch threads {torch.get_num_threads()}")
    for name, fn in BENCHMARKS.items():
        if (only and name not in only) or name in skip:
            report["skipped"][name] = "not selected (--only/--skip)"
            continue
        print(f"\n== {name} ==", flush=True)
        t0 = time.perf_counter()
        figures, checks, skipped = fn(args)
        report["seconds"][name] = round(time.perf_counter() - t0, 1)
        report["figures"].update(figures)
        report["checks"].update(checks)
        report["skipped"].update(skipped)
        for fname, f in figures.items():
            print(f"  {fname:56s} {f['value']:10.4g}   ({f['numerator']['value']:.4g} {f['numerator']['unit']}"
                  f" vs {f['baseline']['value']:.4g} {f['baseline']['unit']})")
        for cname, c in checks.items():
            print(f"  check {cname:50s} {'ok' if c['ok'] else 'FAILED'}")
        for sname, reason in skipped.items():
            print(f"  skipped {sname}: {reason}")
    report["load_average_end"] = load_average()
    print(f"\nload average {report['load_average_start']} -> {report['load_average_end']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=float) + "\n")
        print(f"wrote {args.json}")
    failed = [k for k, c in report["checks"].items() if not c["ok"]]
    if failed:
        print(f"checks failed: {failed}")


if __name__ == "__main__":
    main()
