"""The qualitative sentences of Merad et al.'s Section 5, read as measurable statements.

* "Both losses follow a similar trend" (Figure 1; "behave similarly", Figure 2): read here as
  *along every run, the two curves move together*: the Spearman rank correlation of L_un (or
  L^N_un) and L^mu_sup(f, C) over the logged steps is positive, and both losses change in the
  same direction between the first and the last logged step (each a relation the engine decides;
  L^N_un for N >= 15 is a Monte Carlo estimate whose radius is the stated error of its side). The
  other reading the caption allows ("5 runs are displayed together with their average"): the same
  property of the runs' average curves. The baseline is a trajectory without learning: the untrained encoder (step 0)
  with its outputs rescaled along the run's own mean output norm (the untrained model has no
  trend of its own; a rescaling is what a run does that learns nothing but the scale). Where that
  baseline meets the reading on any seed (any run, or the runs' average), the reading does not
  separate training from a rescaling, and the observation is uninformative (a conservative rule:
  measured, the baseline met it on 1 to 5 of the 5 seeds depending on the audit seed, so a
  rule "on every seed" would let the audit seed decide).
* Assumption 2's constants (Figure 3 and Section 4): on every logged step of the Section 5 runs
  and of the Theorem 1 runs (the fixed training triplets X_data that Assumption 2 is stated for),
  eta = min ||f(x)|| > 0 and C = max ||f(x)|| is finite; the baseline is the run's initialization.

These functions measure; the engine's verdict rules read the verdict: a run on which the
reading fails is an observation that fails (the runs are a scaled-down reproduction -- digits instead
of MNIST, FashionMNIST and CIFAR-10 -- which the claims' quantifier "settings" says).
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from numerics import contrastive as cl
from numerics.seeds import run_seed
from theorems import AllOf, Comparison, ExperimentOutcome, Observation, RunContext, above, below, holds
from theorems.papers.merad import experiments as ex
from theorems.papers.merad import mixtures as mx
from theorems.subjects.learned import snapshot_mixture
from training.snapshots import run_snapshots

#: L^N_un for N >= 15 is a Monte Carlo estimate; for a rank correlation over the logged steps its centre at
#: this many samples (Hoeffding radius reported) is enough, and 10x cheaper than the claims' 100 000
TREND_SAMPLES = 10_000


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman's rank correlation (scipy), 0 when either curve is constant."""
    from scipy.stats import spearmanr  # heavy (0.5 s): scipy.stats, only the trend readings

    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return 0.0
    return float(spearmanr(a, b).statistic)


#: the Monte Carlo estimate's miss probability (its Hoeffding radius holds with probability 1 - TREND_ALPHA)
TREND_ALPHA = 1e-9
#: the stream of the Monte Carlo samples of the trend readings (numerics.seeds): one seed per audit, the same sample
#: for every logged step, run and baseline of that audit (common random numbers: the curves' ranks are not
#: shuffled by sampling noise)
TREND_STREAM = "merad.trend/monte_carlo"


def _un_value(snap: Any, N: int, mc_seed: int) -> tuple[float, float]:
    """L_un (exact, N = 1) or the centre of the Monte Carlo L^N_un of one snapshot, and the Monte Carlo radius."""
    if N == 1:
        return ex.snapshot_values(snap, [mx.L_un])[mx.L_un], 0.0
    enclosure = cl.l_un_n_monte_carlo(snapshot_mixture(snap, uniform=False), N, TREND_SAMPLES, seed=mc_seed,
                                      alpha=TREND_ALPHA)
    return (enclosure.lo + enclosure.hi) / 2, (enclosure.hi - enclosure.lo) / 2


@functools.lru_cache(maxsize=64)
def _unsupervised_curve(spec: Any, mc_seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray,
                                                           np.ndarray]:
    """Per logged step of one run: steps, L_un (exact, N = 1) or the Monte Carlo L^N_un (its sample seeded by
    ``mc_seed``), L^mu_sup(f, C); the largest Monte Carlo radius (0 when exact); and the same two losses along the
    baseline: the untrained encoder's outputs (step 0) times s_t = mean ||f_t(x)|| / mean ||f_0(x)|| (the run's own
    scale at step t). Cached per run: every reading of a claim reads the same curves."""
    snaps = run_snapshots(spec)
    first = snaps[0]
    scale0 = float(np.mean(np.linalg.norm(first.embeddings, axis=1)))
    steps, un, sup, base_un, base_sup, radius = [], [], [], [], [], 0.0
    for snap in snaps:
        value, r = _un_value(snap, spec.n_negatives, mc_seed)
        un.append(value)
        sup.append(ex.snapshot_values(snap, [mx.L_sup_mu])[mx.L_sup_mu])
        rescaled = dataclasses.replace(first, embeddings=first.embeddings
                                       * (float(np.mean(np.linalg.norm(snap.embeddings, axis=1))) / scale0))
        b, rb = _un_value(rescaled, spec.n_negatives, mc_seed)
        base_un.append(b)
        base_sup.append(ex.snapshot_values(rescaled, [mx.L_sup_mu])[mx.L_sup_mu])
        radius = max(radius, r, rb)
        steps.append(snap.step)
    return (np.array(steps), np.array(un), np.array(sup), radius, np.array(base_un), np.array(base_sup))


def moves_together(un: np.ndarray, sup: np.ndarray, error: float = 0.0) -> tuple[AllOf, float, AllOf | bool]:
    """The reading of "both losses follow a similar trend" on two curves, as relations the engine decides: the
    Spearman rank correlation is > 0, and both losses moved the same way from the first to the last logged step
    (both down, or both up; ``error`` bounds the error of each value of ``un``: its Monte Carlo radius).
    Returns (the reading, the Spearman, the same-direction part)."""
    rho = _spearman(un, sup)
    if sup[-1] == sup[0]:
        same: AllOf | bool = False  # L^mu_sup did not move: no direction to share
    else:
        moved = below if sup[-1] < sup[0] else above  # the direction L^mu_sup moved; the engine decides both
        same = AllOf((moved(float(sup[-1]), float(sup[0]), what="L^mu_sup: last vs first logged step"),
                      moved(float(un[-1]), float(un[0]), error=error, what="unsupervised loss: last vs first")))
    return AllOf((above(rho, 0.0, what="Spearman rank correlation"), same)), rho, same


BASELINE = ("a trajectory without learning: the untrained encoder (step 0) with its outputs rescaled along the run's "
            "mean output norm")


def _decided(relation: Comparison | AllOf | bool) -> bool:
    """The engine's decision of a measured relation, for the report's tables and counts."""
    return holds(relation)


def similar_trend(runs: tuple, figure: str, loss: str, audit_seed: int, average: bool = False) -> ExperimentOutcome:
    """Figures 1 and 2: do L_un (L^N_un) and L^mu_sup(f, C) follow a similar trend? One observation per N: per run
    (``average`` False: each seed's run is one outcome) or on the runs' average curves (``average`` True). The
    Monte Carlo samples of L^N_un come from the audit seed's stream :data:`TREND_STREAM`."""
    mc_seed = run_seed(audit_seed, TREND_STREAM)
    rows, observations, rhos = [], [], []
    for N in sorted({spec.n_negatives for spec in runs}):
        group = [spec for spec in runs if spec.n_negatives == N]
        curves = [_unsupervised_curve(spec, mc_seed) for spec in group]
        per_run = []
        for spec, (steps, un, sup, radius, bun, bsup) in zip(group, curves):
            held, rho, same = moves_together(un, sup, radius)
            base_held, base_rho, base_same = moves_together(bun, bsup, radius)
            rhos.append(rho)
            per_run.append((held, base_held))
            rows.append({"N": N, "seed": spec.seed, "steps": len(steps), "spearman": rho,
                         "same_direction": _decided(same), "un": (float(un[0]), float(un[-1])),
                         "sup": (float(sup[0]), float(sup[-1])), "radius": radius, "holds": _decided(held),
                         "baseline_spearman": base_rho, "baseline_same_direction": _decided(base_same),
                         "baseline_holds": _decided(base_held)})
        if average:
            length = min(len(c[0]) for c in curves)
            mean = [np.mean([c[k][:length] for c in curves], axis=0) for k in (1, 2, 4, 5)]
            radius = max(c[3] for c in curves)  # an average of estimates each within its radius is within the largest
            held, rho, same = moves_together(mean[0], mean[1], radius)
            base_held, base_rho, _ = moves_together(mean[2], mean[3], radius)
            observations.append(Observation(
                config={"N": N, "curve": f"average of {len(group)} runs"}, holds=(held,), seeds=(),
                at_init=(base_held, *(b for _, b in per_run)),
                baseline=BASELINE + " (on their average, or on any one run)",
                values={"spearman": rho, "same_direction": _decided(same), "baseline_spearman": base_rho,
                        "runs": [spec.seed for spec in group]}))
        else:
            met = [_decided(b) for _, b in per_run]
            observations.append(Observation(
                config={"N": N}, holds=tuple(h for h, _ in per_run), seeds=tuple(spec.seed for spec in group),
                at_init=tuple(b for _, b in per_run), baseline=BASELINE + " (on at least one seed)",
                values={"spearman": [r["spearman"] for r in rows if r["N"] == N], "baseline_holds": met},
                note=f"the baseline meets the reading on {sum(met)} of {len(per_run)} seeds"))
    what = "the runs' average curves" if average else "along every run"
    lines = [f"#### {figure}: do both losses follow a similar trend? ({what})", "",
             f"Read as: {what}, the Spearman rank correlation of {loss} and L^mu_sup(f, C) over the logged steps is "
             "positive, and both change in the same direction from the first to the last logged step. Baseline: "
             f"{BASELINE}; an observation whose baseline meets the reading on any seed (any run, or the average) "
             "is uninformative.", "",
             f"| N | seed | logged steps | Spearman | {loss}: first -> last | L^mu_sup: first -> last | same direction | "
             "baseline Spearman | baseline same direction |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        mc = f" (MC radius <= {r['radius']:.2g})" if r["radius"] else ""
        lines.append(f"| {r['N']} | {r['seed']} | {r['steps']} | {r['spearman']:.3f} | {r['un'][0]:.4g} -> "
                     f"{r['un'][1]:.4g}{mc} | {r['sup'][0]:.4g} -> {r['sup'][1]:.4g} | {r['same_direction']} | "
                     f"{r['baseline_spearman']:.3f} | {r['baseline_same_direction']} |")
    return ExperimentOutcome(
        statistic="runs whose two loss curves move together", value=float(sum(r["holds"] for r in rows)),
        effect_size=float(np.median(rhos)), interval=(float(np.min(rhos)), float(np.max(rhos))),
        seeds=sorted({r["seed"] for r in rows}), interval_note=f"[min, max] Spearman over {len(rows)} runs",
        parameters={"runs": len(rows), "negatives": sorted({r["N"] for r in rows}), "average": average,
                    "monte_carlo_samples": TREND_SAMPLES if any(r["radius"] for r in rows) else 0},
        markdown="\n".join(lines), observations=observations)


def _fig1_runs(ctx: RunContext) -> tuple:
    return ex.for_seed(ex.QUICK_N1_SEEDS if ctx.quick else ex.FIG1_RUNS, ctx.seed)


def _fig2_runs(ctx: RunContext) -> tuple:
    return ex.for_seed(ex.QUICK_N15_SEEDS if ctx.quick else ex.FIG2_RUNS, ctx.seed)


def figure1_trend(ctx: RunContext) -> ExperimentOutcome:
    """Figure 1: L_un and L^mu_sup move together along every run (N = 1)."""
    return similar_trend(_fig1_runs(ctx), "Figure 1 (N = 1)", "L_un", ctx.seed)


def figure1_trend_average(ctx: RunContext) -> ExperimentOutcome:
    """Figure 1: L_un and L^mu_sup move together on the runs' average curves (N = 1)."""
    return similar_trend(_fig1_runs(ctx), "Figure 1 (N = 1)", "L_un", ctx.seed, average=True)


def figure2_trend(ctx: RunContext) -> ExperimentOutcome:
    """Figure 2: L^N_un and L^mu_sup move together along every run (N = 15, 25, 35)."""
    return similar_trend(_fig2_runs(ctx), "Figure 2 (N = 15, 25, 35)", "L^N_un", ctx.seed)


def figure2_trend_average(ctx: RunContext) -> ExperimentOutcome:
    """Figure 2: L^N_un and L^mu_sup move together on the runs' average curves (N = 15, 25, 35)."""
    return similar_trend(_fig2_runs(ctx), "Figure 2 (N = 15, 25, 35)", "L^N_un", ctx.seed, average=True)


def _norm_groups(ctx: RunContext) -> list[tuple[dict[str, Any], list[tuple[int, list[tuple[float, float]]]]]]:
    """Per group of runs (a Section 5 N, a Theorem 1 width): its config and, per run, its seed and the
    (min ||f(x)||, max ||f(x)||) of every logged step, the first being the initialization."""
    section5 = ex.for_seed((ex.QUICK_N1_SEEDS + ex.QUICK_N15_SEEDS) if ctx.quick else (ex.FIG1_RUNS + ex.FIG2_RUNS),
                           ctx.seed)
    groups: dict[tuple, list] = {}
    for spec in section5:
        key = ("Section 5", f"N = {spec.n_negatives}")
        groups.setdefault(key, []).append((spec.seed, [(s.norm_min, s.norm_max) for s in run_snapshots(spec)]))
    for run in ex.theorem1_runs(ctx.quick, ctx.seed):
        key = ("Theorem 1", f"m = {run['width']}")
        groups.setdefault(key, []).append((run["seed"], [(float(a), float(b)) for _, a, b in run["norms"]]))
    return [({"runs": runs, "setting": setting}, members) for (runs, setting), members in groups.items()]


def _in_shell(norms: list[tuple[float, float]]) -> tuple[bool, float, float]:
    """0 < eta = min ||f(x)|| and C = max ||f(x)|| < inf over these logged steps."""
    eta = min(a for a, _ in norms)
    C = max(b for _, b in norms)
    return bool(np.isfinite(eta) and eta > 0 and np.isfinite(C)), float(eta), float(C)


def assumption2_constants(ctx: RunContext, end_only: bool = False) -> ExperimentOutcome:
    """Assumption 2's eta > 0 and finite C on every logged step (``end_only``: the last logged step) of the
    Section 5 runs and of the Theorem 1 runs; the baseline is each run's initialization (its first logged step)."""
    observations, rows = [], []
    for config, members in _norm_groups(ctx):
        held, init = [], []
        for seed, norms in members:
            ok, eta, C = _in_shell(norms[-1:] if end_only else norms)
            ok0, eta0, C0 = _in_shell(norms[:1])
            held.append(ok)
            init.append(ok0)
            rows.append({**config, "seed": seed, "eta": eta, "C": C, "eta_init": eta0, "C_init": C0})
        observations.append(Observation(
            config=config, holds=tuple(held), seeds=tuple(seed for seed, _ in members), at_init=all(init),
            baseline="the run's initialization (step 0)",
            values={"eta": min(r["eta"] for r in rows[-len(members):]), "C": max(r["C"] for r in rows[-len(members):])}))
    eta, C = min(r["eta"] for r in rows), max(r["C"] for r in rows)
    where = "the last logged step" if end_only else "every logged step"
    lines = [f"#### Assumption 2's constants on the runs ({where})", "",
             f"Read as: 0 < eta = min ||f(x)|| and C = max ||f(x)|| < infinity over {where} of every run (a diverged run "
             "has non-finite outputs and fails). Over a finite run these are all a 'constant' can mean; the values are "
             f"what Lemma 7 (eps < eta/2) and Lemma 3 (2 + 8C^2) would use. Over all runs: eta = {eta:.4g}, C = {C:.4g}. "
             "The initialization (step 0) is the baseline: it meets the reading too whenever no output is exactly 0.",
             "", "| runs | setting | seed | eta | C | eta at step 0 | C at step 0 |", "| --- | --- | --- | --- | --- | --- | --- |",
             *(f"| {r['runs']} | {r['setting']} | {r['seed']} | {r['eta']:.4g} | {r['C']:.4g} | {r['eta_init']:.4g} | "
               f"{r['C_init']:.4g} |" for r in rows)]
    return ExperimentOutcome(
        statistic="runs with eta > 0 and a finite C", value=float(sum(o for ob in observations for o in ob.holds)),
        effect_size=eta, interval=(eta, C), seeds=sorted({r["seed"] for r in rows}), interval_note="[eta, C] over all runs",
        parameters={"groups": len(observations), "runs": len(rows), "where": where},
        markdown="\n".join(lines), observations=observations)


def assumption2_constants_at_end(ctx: RunContext) -> ExperimentOutcome:
    """Assumption 2's eta > 0 and finite C at the end of training only (the last logged step of every run)."""
    return assumption2_constants(ctx, end_only=True)
