"""Benchmark L^N_un (Merad et al. (6)) over a shared queue of negatives against the machine's float32 GEMM.

Run: ``python benchmarks/bench_lun.py [--threads 1] [--device cpu|cuda] [--chunk C] [--sweep]``
(about 20 s on one thread).

Setup (issue 13, item 3): B = 256 anchors, d = 128, a MoCo queue of N = 65 536 negatives shared
by the batch, float32, logits O(1). Timed in interleaved rounds (best of each, so a burst of other
work on a shared machine does not enter the ratios):

* the float32 GEMM figure: a 2048^3 ``torch.matmul`` (4096^3 on CUDA), 2 n^3 flops;
* ``contrastive_loss_shared_negatives`` -- the streaming kernel of numerics.streaming -- forward
  only, and forward + backward with respect to the anchors and positives (a MoCo training step's
  loss; the queue takes no gradient);
* the unchunked formula it replaced, ``zeta(logsumexp(anchor @ queue.T) - pos).mean()``, the same
  two ways.

Flops counted: 2 B d N for a forward, 4 B d N for forward + backward (the two GEMMs a backward
needs at least; the kernel's recomputation of the logits in its backward is counted as overhead).
The float64 check: each float32 loss against the float64 value of the UNCHUNKED formula.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
from typing import Any, Callable

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from _timing import figure, interleaved_best, load_average  # noqa: E402
from numerics.streaming import default_chunk  # noqa: E402
from training.losses import contrastive_loss_shared_negatives  # noqa: E402

B, D, N = 256, 128, 65536


def unchunked_loss(anchor: torch.Tensor, positive: torch.Tensor, queue: torch.Tensor) -> torch.Tensor:
    """The formula before the kernel: the (B, N) logits as one array, torch.logsumexp over them."""
    pos = (anchor * positive).sum(-1)
    lse = torch.logsumexp(anchor @ queue.T, dim=1)
    return torch.logaddexp(torch.zeros_like(lse), lse - pos).mean()


def _step(loss_fn: Callable[..., torch.Tensor], a: torch.Tensor, p: torch.Tensor,
          q: torch.Tensor) -> Callable[[], object]:
    """Forward + backward with respect to anchor and positive (the queue is a constant)."""
    def run() -> object:
        a_, p_ = a.detach().requires_grad_(True), p.detach().requires_grad_(True)
        return torch.autograd.grad(loss_fn(a_, p_, q), (a_, p_))
    return run


def measure(device: str = "cpu", batch: int = B, d: int = D, n: int = N, chunk: int | None = None,
            rounds: int = 5, seed: int = 0, gemm_n: int | None = None) -> dict[str, Any]:
    """Times (seconds, best over interleaved rounds), GFLOP/s and float64 errors of one configuration."""
    dev = torch.device(device)
    sync = torch.cuda.synchronize if dev.type == "cuda" else None
    gemm_n = gemm_n or (4096 if dev.type == "cuda" else 2048)
    gen = torch.Generator().manual_seed(seed)
    a = (torch.randn(batch, d, generator=gen) / math.sqrt(d)).to(dev)  # logits O(1)
    p = (a.cpu() + 0.1 * torch.randn(batch, d, generator=gen) / math.sqrt(d)).to(dev)
    q = (torch.randn(n, d, generator=gen) / math.sqrt(d)).to(dev)
    x, y = torch.randn(gemm_n, gemm_n, device=dev), torch.randn(gemm_n, gemm_n, device=dev)
    kernel = lambda a_, p_, q_: contrastive_loss_shared_negatives(a_, p_, q_, chunk)  # noqa: E731
    with torch.no_grad():
        fns = {"gemm": lambda: x @ y, "kernel": lambda: kernel(a, p, q), "unchunked": lambda: unchunked_loss(a, p, q)}
        times = interleaved_best(fns, rounds=rounds, sync=sync)
    times.update(interleaved_best({"gemm_again": lambda: x @ y, "kernel_step": _step(kernel, a, p, q),
                                   "unchunked_step": _step(unchunked_loss, a, p, q)}, rounds=rounds, sync=sync))
    times["gemm"] = min(times["gemm"], times.pop("gemm_again"))
    with torch.no_grad():
        ref = float(unchunked_loss(a.double(), p.double(), q.double()))
        errs = {"kernel32": abs(float(kernel(a, p, q)) - ref) / abs(ref),
                "unchunked32": abs(float(unchunked_loss(a, p, q)) - ref) / abs(ref),
                "kernel64": abs(float(kernel(a.double(), p.double(), q.double())) - ref) / abs(ref)}
    fwd, step = 2 * batch * d * n, 4 * batch * d * n
    gflops = {"gemm": 2 * gemm_n**3 / times["gemm"] / 1e9,
              "kernel": fwd / times["kernel"] / 1e9, "unchunked": fwd / times["unchunked"] / 1e9,
              "kernel_step": step / times["kernel_step"] / 1e9, "unchunked_step": step / times["unchunked_step"] / 1e9}
    return {"device": device, "B": batch, "d": d, "N": n, "chunk": chunk or default_chunk(batch, n),
            "gemm_n": gemm_n, "threads": torch.get_num_threads(), "times_s": times, "gflops": gflops,
            "rel_err_vs_float64_unchunked": errs, "float64_reference": ref}


def figures(r: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Named figures (ratios to baselines of the same run) from :func:`measure`."""
    dev, g, t = r["device"], r["gflops"], r["times_s"]
    shape = f"B={r['B']}, d={r['d']}, N={r['N']}, float32, {r['threads']} thread(s)" if dev == "cpu" else \
        f"B={r['B']}, d={r['d']}, N={r['N']}, float32, {dev}"
    gemm = (f"float32 GEMM {r['gemm_n']}^3 (torch.matmul)", g["gemm"], "GFLOP/s")
    out = {
        f"lun_streaming.{dev}.fraction_of_gemm": figure(
            g["kernel"] / g["gemm"], ("L^N_un, shared queue, streaming kernel, forward (2BdN flops)", g["kernel"],
                                      "GFLOP/s"), gemm, higher_is_better=True, shape=shape, chunk=r["chunk"],
            time_ms=1e3 * t["kernel"], target=0.6),
        f"lun_unchunked.{dev}.fraction_of_gemm": figure(
            g["unchunked"] / g["gemm"], ("L^N_un, shared queue, unchunked logsumexp (before), forward",
                                         g["unchunked"], "GFLOP/s"), gemm, higher_is_better=True, shape=shape,
            time_ms=1e3 * t["unchunked"]),
        f"lun_streaming.{dev}.speedup_vs_unchunked": figure(
            t["unchunked"] / t["kernel"], ("streaming kernel, forward", 1e3 * t["kernel"], "ms"),
            ("unchunked logsumexp, forward", 1e3 * t["unchunked"], "ms"), higher_is_better=True, shape=shape),
        f"lun_streaming.{dev}.step.fraction_of_gemm": figure(
            g["kernel_step"] / g["gemm"], ("streaming kernel, forward + backward (4BdN flops)", g["kernel_step"],
                                           "GFLOP/s"), gemm, higher_is_better=True, shape=shape,
            time_ms=1e3 * t["kernel_step"], note="the backward recomputes the logits chunk by chunk (one more GEMM)"),
        f"lun_unchunked.{dev}.step.fraction_of_gemm": figure(
            g["unchunked_step"] / g["gemm"], ("unchunked, forward + backward (4BdN flops)", g["unchunked_step"],
                                              "GFLOP/s"), gemm, higher_is_better=True, shape=shape,
            time_ms=1e3 * t["unchunked_step"]),
    }
    e = r["rel_err_vs_float64_unchunked"]
    out[f"lun_streaming.{dev}.float32_error_vs_unchunked"] = figure(
        e["kernel32"] / e["unchunked32"] if e["unchunked32"] else math.nan,
        ("|kernel float32 - unchunked float64| / value", e["kernel32"], "relative"),
        ("|unchunked float32 - unchunked float64| / value", e["unchunked32"], "relative"),
        higher_is_better=False, shape=shape, kernel_float64_rel_err=e["kernel64"],
        note="the float64 check: the kernel's float32 rounding error next to the unchunked formula's")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1, help="torch intra-op threads (0: torch's default)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--chunk", type=int, default=None, help="negatives per chunk (default: numerics.streaming)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sweep", action="store_true", help="also sweep the chunk length")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, device {args.device}, load {load_average()}")
    r = measure(args.device, chunk=args.chunk, rounds=args.rounds)
    for name, f in figures(r).items():
        print(f"{name:48s} {f['value']:8.3f}   {f['numerator']['value']:10.4g} {f['numerator']['unit']}"
              f" vs {f['baseline']['value']:.4g} {f['baseline']['unit']}")
    if args.sweep:
        print("\nchunk sweep (forward, fraction of the GEMM figure):")
        for c in (128, 256, 512, 1024, 2048, 4096):
            s = measure(args.device, chunk=c, rounds=max(2, args.rounds // 2))
            print(f"  chunk {c:5d}: {s['gflops']['kernel'] / s['gflops']['gemm']:.3f}"
                  f"  (step {s['gflops']['kernel_step'] / s['gflops']['gemm']:.3f})")
    print(f"load {load_average()}")


if __name__ == "__main__":
    main()
