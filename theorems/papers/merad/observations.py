"""The qualitative sentences of Merad et al.'s Section 5, read as measurable statements.

* "Both losses follow a similar trend" (Figure 1; "behave similarly", Figure 2): read here as
  *along every run, the two curves move together*: the Spearman rank correlation of L_un (or
  L^N_un) and L^mu_sup(f, C) over the logged steps is positive, and both losses change in the
  same direction between the first and the last logged step.
* Assumption 2's constants (Figure 3 and Section 4): over every logged step of the Section 5 runs
  and on the final outputs of the Theorem 1 runs (the fixed training triplets X_data that
  Assumption 2 is stated for), eta = min ||f(x)|| > 0 and C = max ||f(x)|| is finite.

These are the checker's readings of words, stated in each report. A reading that fails on some
run is ``inconclusive`` ("not seen on these runs"), never ``refuted``: the runs are a scaled-down
reproduction (digits instead of MNIST, FashionMNIST and CIFAR-10), not the paper's experiments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from theorems.engine.claim import RunContext
from theorems.engine.experiment import ExperimentOutcome
from theorems.engine.verdict import Verdict
from theorems.papers.merad import experiments as ex
from theorems.subjects import mixtures as mx

#: L^N_un for N >= 15 is a Monte Carlo estimate; for a rank correlation over the logged steps its centre at
#: this many samples (Hoeffding radius reported) is enough, and 10x cheaper than the claims' 100 000
TREND_SAMPLES = 10_000


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation (scipy), 0 when either curve is constant."""
    from scipy.stats import spearmanr

    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return 0.0
    return float(spearmanr(a, b).statistic)


def _unsupervised_curve(spec: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Per logged step of one run: steps, L_un (exact, N = 1) or the Monte Carlo L^N_un, L^mu_sup(f, C);
    and the largest Monte Carlo radius (0 when exact)."""
    from numerics import contrastive as cl
    from theorems.subjects.learned import snapshot_mixture
    from training.snapshots import run_snapshots

    steps, un, sup, radius = [], [], [], 0.0
    for snap in run_snapshots(spec):
        values = ex.snapshot_values(snap, [mx.L_un, mx.L_sup_mu] if spec.n_negatives == 1 else [mx.L_sup_mu])
        if spec.n_negatives == 1:
            un.append(values[mx.L_un])
        else:
            mixture = snapshot_mixture(snap, uniform=False)
            enclosure = cl.l_un_n_monte_carlo(mixture, spec.n_negatives, TREND_SAMPLES, seed=0, alpha=1e-9)
            un.append((enclosure.lo + enclosure.hi) / 2)
            radius = max(radius, (enclosure.hi - enclosure.lo) / 2)
        sup.append(values[mx.L_sup_mu])
        steps.append(snap.step)
    return np.array(steps), np.array(un), np.array(sup), radius


def similar_trend(runs: tuple, figure: str, loss: str) -> ExperimentOutcome:
    """Figures 1 and 2: do L_un (L^N_un) and L^mu_sup(f, C) follow a similar trend along each run?"""
    rows, rhos = [], []
    for spec in runs:
        steps, un, sup, radius = _unsupervised_curve(spec)
        rho = _spearman(un, sup)
        same_direction = np.sign(un[-1] - un[0]) == np.sign(sup[-1] - sup[0]) != 0
        rhos.append(rho)
        rows.append({"N": spec.n_negatives, "seed": spec.seed, "spearman": rho, "same_direction": bool(same_direction),
                     "un": (float(un[0]), float(un[-1])), "sup": (float(sup[0]), float(sup[-1])), "radius": radius,
                     "steps": len(steps), "verdict": Verdict.CONSISTENT if rho > 0 and same_direction
                     else Verdict.INCONCLUSIVE, "in_regime": True})
    held = sum(r["verdict"] == Verdict.CONSISTENT for r in rows)
    verdict = Verdict.CONSISTENT if held == len(rows) else Verdict.INCONCLUSIVE
    lines = [f"#### {figure}: do both losses follow a similar trend?", "",
             f"Read as: along every run, the Spearman rank correlation of {loss} and L^mu_sup(f, C) over the logged "
             "steps is positive, and both change in the same direction from the first to the last logged step. "
             "Consistent if every run meets it, inconclusive otherwise (never refuted: digits stand in for the "
             "paper's data).", "",
             f"| N | seed | logged steps | Spearman | {loss}: first -> last | L^mu_sup: first -> last | same direction |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        mc = f" (MC radius <= {r['radius']:.2g})" if r["radius"] else ""
        lines.append(f"| {r['N']} | {r['seed']} | {r['steps']} | {r['spearman']:.3f} | {r['un'][0]:.4g} -> "
                     f"{r['un'][1]:.4g}{mc} | {r['sup'][0]:.4g} -> {r['sup'][1]:.4g} | {r['same_direction']} |")
    return ExperimentOutcome(
        verdict=verdict, statistic="runs whose two loss curves move together", value=float(held),
        effect_size=float(np.median(rhos)), interval=(float(np.min(rhos)), float(np.max(rhos))),
        seeds=sorted({r["seed"] for r in rows}), interval_note=f"[min, max] Spearman over {len(rows)} runs",
        parameters={"runs": len(rows), "negatives": sorted({r["N"] for r in rows}),
                    "monte_carlo_samples": TREND_SAMPLES if any(r["radius"] for r in rows) else 0},
        markdown="\n".join(lines), configurations=[{k: v for k, v in r.items() if k not in ("un", "sup")} for r in rows])


def figure1_trend(ctx: RunContext) -> ExperimentOutcome:
    runs = ex.for_seed(ex.QUICK_N1 if ctx.quick else ex.FIG1_RUNS, ctx.seed)
    return similar_trend(runs, "Figure 1 (N = 1)", "L_un")


def figure2_trend(ctx: RunContext) -> ExperimentOutcome:
    runs = ex.for_seed(ex.QUICK_N15 if ctx.quick else ex.FIG2_RUNS, ctx.seed)
    return similar_trend(runs, "Figure 2 (N = 15, 25, 35)", "L^N_un")


def assumption2_constants(ctx: RunContext) -> ExperimentOutcome:
    """Assumption 2's eta > 0 and finite C: on every logged step of the Section 5 runs, and on the final
    outputs of the Theorem 1 runs (the fixed triplets X_data the assumption is stated for; those runs log
    their outputs at the end of training only, so "during training" is not checked there)."""
    section5 = ex.for_seed((ex.QUICK_N1 + ex.QUICK_N15) if ctx.quick else (ex.FIG1_RUNS + ex.FIG2_RUNS), ctx.seed)
    rows = []
    for spec in section5:
        _, eta, C = ex.norm_extremes(spec)
        rows.append({"runs": f"Section 5, N = {spec.n_negatives}, seed {spec.seed}", "where": "every logged step",
                     "eta": eta, "C": C})
    for run in ex.theorem1_runs(ctx.quick, ctx.seed):
        norms = np.linalg.norm(np.asarray(run["outputs"], dtype=float), axis=-1)
        rows.append({"runs": f"Theorem 1, width {run['width']}, seed {run['seed']}", "where": "final outputs",
                     "eta": float(np.min(norms)), "C": float(np.max(norms))})
    for r in rows:
        r["verdict"] = Verdict.CONSISTENT if r["eta"] > 0 and np.isfinite(r["C"]) else Verdict.INCONCLUSIVE
        r["in_regime"] = True
    held = sum(r["verdict"] == Verdict.CONSISTENT for r in rows)
    eta, C = min(r["eta"] for r in rows), max(r["C"] for r in rows)
    lines = ["#### Assumption 2's constants on the runs", "",
             "Read as: 0 < eta = min ||f(x)|| and C = max ||f(x)|| < infinity, over every logged step of the Section 5 "
             "runs and on the final outputs of the Theorem 1 runs (a diverged run has non-finite outputs and fails). "
             "Over a finite run these are all a 'constant' can mean; the values are what Lemma 7 (eps < eta/2) "
             f"and Lemma 3 (2 + 8C^2) would use. Over all runs: eta = {eta:.4g}, C = {C:.4g}.", "",
             "| runs | where | eta | C |", "| --- | --- | --- | --- |",
             *(f"| {r['runs']} | {r['where']} | {r['eta']:.4g} | {r['C']:.4g} |" for r in rows)]
    return ExperimentOutcome(
        verdict=Verdict.CONSISTENT if held == len(rows) else Verdict.INCONCLUSIVE,
        statistic="runs with eta > 0 and a finite C", value=float(held), effect_size=eta, interval=(eta, C),
        seeds=sorted({int(r["runs"].rsplit(" ", 1)[1]) for r in rows}), interval_note="[eta, C] over all runs",
        parameters={"section5_runs": len(section5), "theorem1_runs": len(rows) - len(section5)},
        markdown="\n".join(lines), configurations=rows)
