"""Benchmark training/ on CPU: training steps/s and L^N_un (6) evaluations/s for N = 1, 35, 1 024, 65 536.

Run: ``python benchmarks/bench_training.py [--seed S] [--threads T]`` (about a minute).
``benchmarks/run.py`` runs it too and turns its rows into named figures.

Setup: batch B = 256, representation d = 128, an MLP 64 -> 256 -> 128 on sklearn
digits (8x8 = 64 inputs), float32.
* Loss evaluations: ``contrastive_loss_n`` on given embeddings (B, d), (B, d),
  (B, N, d) for N <= 1 024; for N = 65 536 the negatives are a MoCo queue of
  precomputed embeddings (65 536, d) shared by the batch,
  ``contrastive_loss_shared_negatives``: the streaming kernel of numerics.streaming
  (chunks of the queue, one GEMM and an online log-sum-exp each; the (256 x 65 536)
  logits never exist), next to the unchunked formula it replaced (one matmul and a
  logsumexp over the whole logits). Each is compared, in the same run, with a per-sample
  Python loop over the batch (torch ops per sample) and with a pure-Python float loop
  (math.exp / math.log; timed on a few samples and extrapolated to B).
  The float64 check (rel.err64): the float32 value against the float64 value of the
  UNCHUNKED formula.
* Training steps: sample (1)/(2) indices, encode the 2B + BN inputs, loss,
  backward, Adam. For N = 65 536 (MoCo): encode 2B inputs, loss against the
  queue (no gradient through it), enqueue the detached positives.
* The machine's float32 matmul throughput (a 2 048^3 torch matmul), and the
  fraction of it that the N = 65 536 loss evaluation reaches (2 B d N flops).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time
from typing import Callable

import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from _timing import best_time  # noqa: E402  (benchmarks/ is on sys.path when run as a script)
from bench_lun import unchunked_loss  # noqa: E402
from training.data import LatentClassSampler, load_digits_data  # noqa: E402
from training.encoders import MLPEncoder  # noqa: E402
from training.losses import contrastive_loss_n, contrastive_loss_shared_negatives  # noqa: E402

B, D, D_IN, HIDDEN = 256, 128, 64, (256,)
NS = (1, 35, 1024, 65536)
QUEUE = 65536




def matmul_gflops(n: int = 2048) -> float:
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b  # warm-up
    t, _ = best_time(lambda: a @ b, min_total=1.0, max_reps=10)
    return 2 * n**3 / t / 1e9


def per_sample_loop(a: torch.Tensor, p: torch.Tensor, neg: Callable[[int], torch.Tensor]) -> torch.Tensor:
    """(6) one anchor at a time: log(1 + exp(logsumexp_i(f.f-_i) - f.f+)), a Python loop over the batch."""
    total = torch.zeros(())
    for b in range(a.shape[0]):
        s = neg(b) @ a[b]  # (N,)
        total = total + torch.logaddexp(torch.zeros(()), torch.logsumexp(s, 0) - a[b] @ p[b])
    return total / a.shape[0]


def python_floats(a: list[list[float]], p: list[list[float]], negs: Callable[[int], list[list[float]]],
                  rows: int) -> float:
    """The printed formula of (6) in pure Python floats on the first ``rows`` anchors (stable: max shifted out)."""
    total = 0.0
    for b in range(rows):
        s_pos = sum(x * y for x, y in zip(a[b], p[b]))
        s = [sum(x * y for x, y in zip(a[b], n)) for n in negs(b)]
        m = max(s_pos, *s)
        total += -(s_pos - m) + math.log(math.exp(s_pos - m) + sum(math.exp(v - m) for v in s))
    return total / rows


def bench_losses(gen: torch.Generator, peak: float) -> list[dict[str, float]]:
    print(f"\nL^N_un evaluations (B={B}, d={D}, float32, embeddings given)")
    print(f"{'N':>6} {'vectorized/s':>13} {'loop/s':>9} {'ratio':>7} {'floats/s*':>10} {'ratio':>9} "
          f"{'GFLOP/s':>8} {'|vec-loop|':>10} {'rel.err64':>10}")
    rows = []
    for N in NS:
        a = torch.randn(B, D, generator=gen) / math.sqrt(D)  # logits O(1)
        p = a + 0.1 * torch.randn(B, D, generator=gen) / math.sqrt(D)
        if N < QUEUE:
            negs = torch.randn(B, N, D, generator=gen) / math.sqrt(D)  # (B, N, d)
            vec = lambda: contrastive_loss_n(a, p, negs)  # noqa: E731
            neg_of = lambda b: negs[b]  # noqa: E731
        else:
            queue = torch.randn(N, D, generator=gen) / math.sqrt(D)  # (N, d), shared by the batch
            vec = lambda: contrastive_loss_shared_negatives(a, p, queue)  # noqa: E731
            neg_of = lambda b: queue  # noqa: E731
        with torch.no_grad():
            vec()
            t_vec, v = best_time(vec)
            t_loop, lv = best_time(lambda: per_sample_loop(a, p, neg_of), min_total=0.2, max_reps=3)
            if N < QUEUE:  # float64 reference of the same formula: the float32 rounding error
                ref = contrastive_loss_n(a.double(), p.double(), negs.double())
            else:  # float64 reference: the unchunked formula (as before the streaming kernel)
                ref = unchunked_loss(a.double(), p.double(), queue.double())
                t_mm, _ = best_time(lambda: a @ queue.T)  # the matmul alone: (256 x 128) @ (128 x 65536)
                t_unchunked, _ = best_time(lambda: unchunked_loss(a, p, queue))
        rows_py = max(1, min(B, 20000 // N))  # pure-Python cost ~ rows * N * d multiply-adds
        al, pl = a.tolist(), p.tolist()
        cache: dict[int, list[list[float]]] = {}
        negs_f = lambda b: cache.setdefault(b, neg_of(b).tolist())  # noqa: E731
        negs_f(0)
        t0 = time.perf_counter()
        python_floats(al, pl, negs_f, rows_py)
        t_float = (time.perf_counter() - t0) * B / rows_py  # extrapolated to the batch
        gflops = 2 * B * D * N / t_vec / 1e9
        err64 = abs(float(v) - float(ref)) / float(ref)
        print(f"{N:>6} {1 / t_vec:>13.1f} {1 / t_loop:>9.2f} {t_loop / t_vec:>6.0f}x {1 / t_float:>10.4f} "
              f"{t_float / t_vec:>8.0f}x {gflops:>8.1f} {abs(float(v) - float(lv)):>10.1e} {err64:>10.1e}")
        row = {"N": N, "t_vec": t_vec, "t_loop": t_loop, "t_float": t_float, "gflops": gflops, "rel_err64": err64}
        if N == QUEUE:
            print(f"       N = {N}: {gflops:.1f} GFLOP/s = {gflops / peak:.0%} of the {peak:.1f} GFLOP/s matmul "
                  f"(streaming kernel); the unchunked formula: {2 * B * D * N / t_unchunked / 1e9:.1f} GFLOP/s = "
                  f"{2 * B * D * N / t_unchunked / 1e9 / peak:.0%}, its matmul alone "
                  f"{2 * B * D * N / t_mm / 1e9:.1f} GFLOP/s")
            row.update(t_unchunked=t_unchunked, t_matmul_alone=t_mm, peak=peak)
        rows.append(row)
    print("  * pure-Python floats, timed on the first min(B, 20000 // N) anchors and extrapolated to B")
    print("  per-anchor negatives (N <= 1024) make (6) a batched matrix-VECTOR product: memory-bound;")
    print("  a shared queue makes it matrix-matrix products: compute-bound")
    return rows


def bench_training(gen: torch.Generator, seed: int) -> list[dict[str, float]]:
    X, y = load_digits_data()
    Xt = torch.from_numpy(X)
    print(f"\ntraining steps (B={B}, MLP 64 -> 256 -> 128, Adam lr 1e-3, sampling included)")
    print(f"{'N':>6} {'steps/s':>9} {'inputs/step':>12}")
    rows = []
    for N in NS:
        torch.manual_seed(seed)
        enc = MLPEncoder(D_IN, HIDDEN, D)
        opt = torch.optim.Adam(enc.parameters(), lr=1e-3)
        sampler = LatentClassSampler(X, y, seed=seed)
        queue = torch.nn.functional.normalize(torch.randn(QUEUE, D, generator=gen), dim=1)  # MoCo: precomputed
        state = {"ptr": 0}

        def step() -> float:
            if N < QUEUE:
                a, p, n = sampler.sample(B, N)  # batch
                z = enc(Xt[np.concatenate([a, p, n.ravel()])])  # (2B + BN, d)
                loss = contrastive_loss_n(z[:B], z[B:2 * B], z[2 * B:].reshape(B, N, D))  # loss
            else:
                a, p, _ = sampler.sample(B, 0)
                z = enc(Xt[np.concatenate([a, p])])  # (2B, d)
                loss = contrastive_loss_shared_negatives(z[:B], z[B:], queue)
            opt.zero_grad(set_to_none=True)
            loss.backward()  # backward
            opt.step()  # step
            if N == QUEUE:  # enqueue the positives, dropping the oldest (after backward: it reads the queue)
                i = state["ptr"]
                queue[i:i + B] = z[B:].detach()
                state["ptr"] = (i + B) % QUEUE
            return loss.item()

        step()  # warm-up
        t, _ = best_time(step, min_total=1.0 if N < 1024 else 2.0, max_reps=20 if N < 1024 else 3)
        inputs = 2 * B + (B * N if N < QUEUE else 0)
        print(f"{N:>6} {1 / t:>9.2f} {inputs:>12}")
        rows.append({"N": N, "t_step": t, "inputs": inputs})
    return rows


def bench_train_loop(seed: int) -> dict[str, float]:
    """The real loop (training.loop.train): seeding, deterministic kernels, sampling, logging."""
    from training.encoders import EncoderConfig
    from training.loop import TrainConfig, train

    cfg = TrainConfig(encoder=EncoderConfig(kind="mlp", hidden=HIDDEN, d_out=D), n_negatives=35, batch_size=B,
                      steps=30, log_every=10, seed=seed, device="cpu", out_dir=None)
    train(TrainConfig(**{**cfg.__dict__, "steps": 2}), progress=False)  # warm-up
    t0 = time.perf_counter()
    result = train(cfg, progress=False)
    dt = time.perf_counter() - t0
    print(f"\ntraining.loop.train, digits, N=35, {cfg.steps} steps: {cfg.steps / dt:.2f} steps/s "
          f"(deterministic kernels on; loss {result.history[0]['loss']:.3f} -> {result.history[-1]['loss']:.3f})")
    return {"steps": cfg.steps, "seconds": dt}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=0, help="torch intra-op threads (0: torch's default)")
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    t_start = time.perf_counter()
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, seed {args.seed} "
          f"(torch.Generator and LatentClassSampler seeded with it), device cpu")
    peak = matmul_gflops()
    print(f"float32 matmul throughput (2048^3, best of up to 10): {peak:.1f} GFLOP/s")
    bench_losses(gen, peak)
    bench_training(gen, args.seed)
    bench_train_loop(args.seed)
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")


if __name__ == "__main__":
    main()
