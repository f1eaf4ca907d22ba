"""Benchmark p_cc (Merad et al. Lemma 2 (8)) against naive inclusion-exclusion and Monte Carlo.

Run: ``python benchmarks/bench_coupon.py [--seed S]`` (about a minute).
``benchmarks/run.py`` runs it too and turns its rows into named figures.

For each (N_C, N) and rho (uniform, and Zipf rho_c ~ 1/c) it times
* ``p_cc`` (exponential tilting, float64),
* naive float64 inclusion-exclusion: the uniform form
  sum_j (-1)^j C(n, j) (1 - j/n)^N for uniform rho, the 2^n subset form for
  non-uniform rho (only where 2^n is small),
* ``p_cc_mp`` (mpmath reference, where feasible),
* Monte Carlo (indicator that a Multinomial(N, rho) count vector has no zero):
  the number of samples for a 1e-6 relative 95% half-width,
  1.96^2 (1 - p) / (p 1e-12), is estimated from p = p_cc; a smaller batch is
  timed and the time is extrapolated.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import mpmath
import numpy as np
from scipy import special

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from _timing import best_time  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from theorems.papers.merad import coupon as cc  # noqa: E402

Z95 = 1.959963984540054
TARGET_REL = 1e-6




def naive_uniform(n: int, N: int) -> float:
    j = np.arange(n + 1, dtype=float)
    terms = (-1.0) ** j * special.comb(n, j) * (1.0 - j / n) ** N
    return float(np.sum(terms))


def naive_subsets(rho: np.ndarray, N: int) -> float:
    """sum over subsets S of (-1)^|S| (1 - rho(S))^N in float64, vectorized (2^n terms)."""
    n = rho.size
    masks = np.arange(2**n)
    bits = (masks[:, None] >> np.arange(n)) & 1
    mass = bits @ rho
    sign = np.where(bits.sum(axis=1) % 2, -1.0, 1.0)
    return float(np.sum(sign * np.clip(1.0 - mass, 0.0, None) ** N))


def mc_batch(rng: np.random.Generator, rho: np.ndarray, N: int, size: int) -> int:
    counts = rng.multinomial(N, rho, size=size)
    return int(np.count_nonzero(np.all(counts > 0, axis=1)))


def fmt_t(t: float | None) -> str:
    if t is None or not math.isfinite(t):
        return "n/a"
    if t >= 86400 * 365:
        return f"{t / (86400 * 365):.1e} y"
    if t >= 86400:
        return f"{t / 86400:.1f} d"
    if t >= 1:
        return f"{t:.2f} s"
    return f"{t * 1e3:.3g} ms"


def cases() -> list[tuple[str, int, int, np.ndarray]]:
    out: list[tuple[str, int, int, np.ndarray]] = []
    for n, N in [(10, 100), (100, 2000), (1000, 100_000)]:
        out.append(("uniform", n, N, np.full(n, 1.0 / n)))
        z = 1.0 / np.arange(1, n + 1)
        out.append(("zipf", n, N, z / z.sum()))
    # extra rows (not in the brief's grid): N closer to N_C, where naive inclusion-exclusion
    # cancels catastrophically (p is small, the alternating terms are not)
    out.append(("uniform*", 100, 150, np.full(100, 0.01)))
    out.append(("uniform*", 1000, 3000, np.full(1000, 0.001)))
    out.append(("uniform*", 1000, 7485, np.full(1000, 0.001)))
    return out


def measure(seed: int) -> list[dict]:
    """One row per case: times of p_cc, naive inclusion-exclusion, p_cc_mp and (extrapolated) Monte Carlo."""
    rng = np.random.default_rng(seed)
    rows = []
    for label, n, N, rho in cases():
        t_pcc, info = best_time(lambda: cc.p_cc_info(rho, N))
        p = info.p
        # mp reference
        uniform = label.startswith("uniform")
        if uniform or n <= 20:
            t_mp, p_mp = best_time(lambda: cc.p_cc_mp(rho, N, dps=40), min_total=0.0, max_reps=1)
            p_mp_f = float(p_mp)
            log_mp = float(mpmath.log(p_mp))
            err_pcc = abs(math.expm1(info.log_p - log_mp))
        else:
            t_mp, p_mp_f, err_pcc = None, None, None
        # naive inclusion-exclusion
        if uniform:
            t_naive, p_naive = best_time(lambda: naive_uniform(n, N))
        elif n <= 20:
            t_naive, p_naive = best_time(lambda: naive_subsets(rho, N))
        else:
            t_naive, p_naive = None, None
        err_naive = (
            abs(p_naive - p_mp_f) / p_mp_f if (p_naive is not None and p_mp_f) else None
        )
        # Monte Carlo; 1 - p from the Markov chain's missing-state mass where uniform
        q = cc.p_cc_uniform_dp(n, N)[1] if uniform else -math.expm1(info.log_p)
        n_req = Z95**2 * q / (p * TARGET_REL**2) if p > 0 else math.inf
        n_req_int = max(1, math.ceil(n_req))
        t0 = time.perf_counter()
        mc_batch(rng, rho, N, 200)
        per = (time.perf_counter() - t0) / 200
        batch = int(min(max(200, 0.4 / per), 2_000_000))
        t0 = time.perf_counter()
        hits = mc_batch(rng, rho, N, batch)
        per = (time.perf_counter() - t0) / batch
        t_mc = per * n_req_int
        p_hat = hits / batch
        hw = Z95 * math.sqrt(max(p_hat * (1 - p_hat), 0.0) / batch)
        rows.append(
            dict(
                label=label.rstrip("*"),
                n=n,
                N=N,
                case=f"{label:8s} {n:5d} {N:7d}",
                p=p,
                q=q,
                t_pcc=t_pcc,
                naive=p_naive,
                err_naive=err_naive,
                t_naive=t_naive,
                t_mp=t_mp,
                err_pcc=err_pcc,
                n_req=n_req,
                t_mc=t_mc,
                batch=batch,
                p_hat=p_hat,
                hw=hw,
                dropped=info.dropped_rel,
            )
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args()
    print(f"seed = {args.seed}")
    print(f"numpy {np.__version__}, mpmath {mpmath.__version__}")
    t_start = time.perf_counter()
    rows = measure(args.seed)

    def ratio(t: float | None, base: float) -> str:
        return "n/a" if t is None else f"{t / base:.3g}x"

    print()
    print("times: best of repeats; ratio = time / time(p_cc); MC time extrapolated from a timed batch")
    hdr = (
        f"{'rho':8s} {'N_C':>5s} {'N':>7s} | {'p_cc':>22s} {'1 - p':>8s} {'t p_cc':>9s} {'p_cc vs mp':>10s} |"
        f" {'naive IE':>11s} {'rel err':>9s} {'t naive':>9s} {'ratio':>8s} |"
        f" {'t mp':>9s} {'ratio':>8s} | {'MC samples':>10s} {'t MC (extrap.)':>14s} {'ratio':>9s}"
    )
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        naive = "infeasible" if r["naive"] is None else f"{r['naive']:.4e}"
        err_naive = "n/a" if r["err_naive"] is None else f"{r['err_naive']:.1e}"
        err_pcc = "n/a" if r["err_pcc"] is None else f"{r['err_pcc']:.1e}"
        print(
            f"{r['case']} | {r['p']:22.16e} {r['q']:8.2e} {fmt_t(r['t_pcc']):>9s} {err_pcc:>10s} |"
            f" {naive:>11s} {err_naive:>9s} {fmt_t(r['t_naive']):>9s} {ratio(r['t_naive'], r['t_pcc']):>8s} |"
            f" {fmt_t(r['t_mp']):>9s} {ratio(r['t_mp'], r['t_pcc']):>8s} |"
            f" {r['n_req']:10.3g} {fmt_t(r['t_mc']):>14s} {ratio(r['t_mc'], r['t_pcc']):>9s}"
        )
    print()
    print("Monte Carlo batches actually run (estimate +- 95% half-width vs p_cc):")
    for r in rows:
        print(f"  {r['case']}: {r['batch']:8d} samples, p_hat = {r['p_hat']:.6f} +- {r['hw']:.1e}"
              f" (p_cc = {r['p']:.6f}); p_cc dropped-mass bound {r['dropped']:.1e} relative")
    print()
    print("notes: 'MC samples' = 1.96^2 (1-p) / (p 1e-12) from p = p_cc; when 1 - p < 1e-12 this is")
    print("       < 1 sample (rounded up to 1): Monte Carlo cannot certify such a p, it only never")
    print("       sees a failure.  naive IE for non-uniform rho sums 2^N_C subsets (infeasible for")
    print("       N_C >= 100); rows marked * are extra (N nearer N_C, and N = E[T] = 7485 for")
    print("       N_C = 1000), to show where the naive sum cancels.  'p_cc vs mp' is |p/p_mp - 1|.")
    print(f"total benchmark time {time.perf_counter() - t_start:.1f} s")


if __name__ == "__main__":
    main()
