"""Ren & Li: what survives of the Stage-1 and Stage-2 statements whose displays are lost (issue 39, item 6).

Lemma B.10 ("Convergence rate of [lost]", "In Stage 1, we have, for any [lost], [lost]") keeps only that a
quantity converges at a rate in Stage 1: the sign of its rate. The quantity is reconstructed as the cosines rho_k
(line 242: "the rate at which [lost] and the noise-signal ratio converge to [lost]"; Lemma B.1's end conditions),
and the direction is measured on the finite-width runs of Algorithm 3.1 (the runs ren.stagewise and
ren.theorem43b read, shared through the cache): min_k rho_k rises over every logged interval of Stage 1. The
baseline is the run's own initialization (the path without Stage 1 does not rise). On the infinite-width flow the
same direction holds by the reconstruction's form and is shown as such (no evidence).

Lemma 5.3 ("reduce the condition number of [lost] to approximately [lost]", line 117; (10) lost) keeps only a
direction: the condition number falls during Stage 2. It is measured on the
infinite-width flow (the checker's reconstruction of (8), :mod:`theorems.papers.ren.flow`), started where Stage 1
ends (Lemma B.1's end conditions, reached by the contrastive flow at a small beta1) -- not at the aligned noiseless
start that ``ren.stage2_rate`` assumes with Section 5.4, so the noise part is present. The baseline for the
condition number is the same start continued WITHOUT Stage 2 (the non-contrastive flow, Lemma 5.1's 'can be
large'): a fall that the baseline shows too is no evidence for Stage 2. Exact flow, no seed. The noise-signal ratio
along Stage 2 (Lemma C.18, 'remains small', threshold lost) is shown and not decided: the direction 'never above its
start value' is not printed, and it fails on this flow (ren.lemma_c18's reason).
"""

from __future__ import annotations

import functools

import numpy as np

from theorems import (ExperimentOutcome, Observation, RegimeCheck, RunContext, above, at_least, below, holds,
                      markdown_table)
from theorems.papers.ren import flow, ode
from theorems.papers.ren.dynamics import merged_regime, run_checks, spectra, training_seeds
from theorems.papers.ren.model import (KAPPA_MAX, DataModel, RunSpec, b17, cached_stage1, geometric, model_checks,
                                       stage1_end, tracking_gap)

BETA1 = 0.05  # Stage 1's small inverse temperature (as ren.lemma_b17's cross-check)
BETA2 = 2.0  # Stage 2's inverse temperature (as ren.stage2_rate's quick grid)
T2_MAX = 20000.0  # flow-time horizon of Stage 2 (ren.stage2_rate's)
GRID = 600


def _stage2(model: DataModel, quick: bool) -> dict:
    from scipy.integrate import solve_ivp  # heavy (0.3 s): only the flow experiments

    fm = model.flow()
    start = stage1_end(model, beta=BETA1)
    y1 = start["y1"]
    q1 = flow.tracked(y1, fm)

    def settled(t: float, y: np.ndarray) -> float:  # stop once the condition number is within 1e-3 of 1
        return flow.tracked(y, fm)["cond"] - 1.001

    settled.terminal = True  # type: ignore[attr-defined]
    out = {}
    for name, beta in (("stage2", BETA2), ("baseline", None)):
        sol = solve_ivp(lambda t, y, beta=beta: flow.rhs(y, fm, beta), (0.0, T2_MAX), y1, dense_output=True,
                        events=settled if beta is not None else None, **ode.settings(stage2=True))
        t_end = float(sol.t[-1])
        ts = np.linspace(0.0, t_end, GRID // (3 if quick else 1))
        tq = [flow.tracked(sol.sol(t), fm) for t in ts]
        out[name] = {"t_end": t_end, "noise": np.array([x["noise_ratio"] for x in tq]),
                     "cond": np.array([x["cond"] for x in tq])}
    # the baseline runs for the same time as Stage 2 (its horizon is T2_MAX; compare at Stage 2's end time)
    b = out["baseline"]
    t2 = out["stage2"]["t_end"]
    idx = int(np.searchsorted(np.linspace(0.0, b["t_end"], len(b["cond"])), t2, side="right")) - 1
    checks = model_checks(model) + [
        RegimeCheck("end of Stage 1 reached", "the infinite-width contrastive flow at beta1 = 0.05 meets Lemma B.1's "
                    "end-of-Stage-1 conditions (every cosine >= 0.99, noise-to-signal <= 0.01) within flow time 5000",
                    start["t1"], "finite", bool(start["reached"]))]
    return {"start": q1, "stage2": out["stage2"], "baseline_cond": float(b["cond"][max(idx, 0)]),
            "baseline_noise_max": float(b["noise"][:max(idx, 0) + 1].max()), "t1": start["t1"],
            "checks": checks}


@functools.lru_cache(maxsize=2)
def _runs(quick: bool) -> tuple[tuple[str, dict], ...]:
    """The Stage-2 runs of every model (one integration each)."""
    models = {f"B17 k={KAPPA_MAX:g}": b17(KAPPA_MAX)} if quick else {
        "B17 k=2": b17(2.0), f"B17 k={KAPPA_MAX:g}": b17(KAPPA_MAX), f"geometric k={KAPPA_MAX:g}": geometric(KAPPA_MAX)}
    return tuple((name, _stage2(DataModel(sigma=sigma, lam=1.0), quick)) for name, sigma in models.items())


def stage2_from_stage1(ctx: RunContext) -> ExperimentOutcome:
    """Lemma 5.3, qualitative: cond(P_A) ends Stage 2 below its start value (the non-contrastive continuation beside
    it); the noise-signal ratio along Stage 2 is shown, not decided (Lemma C.18's threshold is lost)."""
    observations, rows = [], []
    runs = _runs(bool(ctx.quick))
    models = [name for name, _ in runs]
    for name, res in runs:
        s2, q1 = res["stage2"], res["start"]
        noise0, noise_max = float(q1["noise_ratio"]), float(s2["noise"].max())
        cond0, cond_end = float(q1["cond"]), float(s2["cond"][-1])
        regime = tuple(res["checks"])
        observations.append(Observation(
            {"model": name, "statement": "5.3: cond(P_A) at the end of Stage 2 < at its start"},
            holds=(below(cond_end, cond0, error=ode.error(cond0), what="cond at the end of Stage 2 < cond at its start"),),
            at_init=below(res["baseline_cond"], cond0, error=ode.error(cond0),
                          what="cond, non-contrastive continuation, < cond at the start"),
            baseline="the same start continued without Stage 2 (the non-contrastive flow, same flow time)",
            regime=regime, values={"cond at start": cond0, "cond at end": cond_end,
                                   "cond, baseline at the same time": res["baseline_cond"],
                                   "Stage-2 flow time": s2["t_end"], "noise ratio at start (shown)": noise0,
                                   "max noise ratio over Stage 2 (shown, not decided)": noise_max}))
        rows.append((name, res["t1"], noise0, noise_max, cond0, cond_end, res["baseline_cond"], s2["t_end"],
                     "yes" if all(holds(c.holds) for c in regime) else "no"))
    md = ["#### Stage 2 from the end of Stage 1 (infinite width): what Lemma 5.3 keeps (and Lemma C.18's ratio, shown)", "",
          *markdown_table(rows, ("model", "T1", "noise ratio at start", "max noise ratio in Stage 2", "cond at start",
                                 "cond at end", "cond, non-contrastive continuation", "Stage-2 flow time",
                                 "in regime")), "",
          f"Stage 1: contrastive flow at beta1 = {BETA1:g} until Lemma B.1's end conditions; Stage 2: beta2 = {BETA2:g}, "
          f"until cond(P_A) <= 1.001 or flow time {T2_MAX:g}; baseline: the non-contrastive flow from the same start "
          f"for the same time. Integrated with rtol {ode.STAGE2_RTOL:g}. Only the direction of Lemma 5.3 is decided "
          "(its target 'approximately [lost]' is lost); the noise ratio is shown, not decided: Lemma C.18's 'remains "
          "small' has no surviving threshold, and the direction 'never above its start value' is not printed."]
    worst = max(r[5] / r[4] for r in rows)
    return ExperimentOutcome(
        statistic="largest cond(P_A) at the end of Stage 2 / at its start", value=worst, effect_size=worst,
        interval=(min(r[5] / r[4] for r in rows), max(r[5] / r[4] for r in rows)), seeds=[],
        interval_note="exact flow (no seed): interval = [min, max] of cond(end)/cond(start) over the models",
        parameters={"beta1": BETA1, "beta2": BETA2, "models": models}, observations=observations,
        markdown="\n".join(md))


# -- Lemma B.10: the direction of the Stage-1 convergence (finite-width runs, and the flow shown) --------------------
FLOW_GRID = 400  # grid points of the Stage-1 flow path (by-construction rows)
#: a logged interval whose start is within this of the limit (1 - min rho_k <= CONVERGED) is already converged: a rise
#: there is at most this large, within a thousand times a float64 comparison's resolution (1e-9 at scale 1), so the
#: direction is decided only on the intervals that start farther out (shown on the others)
CONVERGED = 1e-6


def _flow_stage1(model: DataModel) -> dict:
    """The infinite-width Stage-1 path at beta1 (Lemma B.1's end conditions): every cosine rho_k on a grid."""
    fm = model.flow()
    end = stage1_end(model, beta=BETA1)
    ts = np.linspace(0.0, end["t1"] if end["reached"] else float(end["sol"].t[-1]), FLOW_GRID)
    rho = np.array([flow.tracked(end["sol"].sol(t), fm)["rho"] for t in ts])
    return {"rho": rho, "t1": end["t1"], "reached": end["reached"]}


@functools.lru_cache(maxsize=None)
def _stage1_run(model: DataModel, seed: int) -> dict:
    """One finite-width Stage-1 run (Algorithm 3.1 at beta1, width 65 536; cached, shared with ren.stagewise), its
    min cosine and noise-signal ratio at the logged steps, and its regime (dynamics.run_checks)."""
    spec = RunSpec("contrastive", model=model, seed=seed, beta1=BETA1)
    run = cached_stage1(spec)
    gap = tracking_gap(spec, run)
    i1 = int(np.flatnonzero(run["step"] == run["t1"])[0])
    checks = model_checks(model) + run_checks(spec, run, gap) + [
        RegimeCheck("end of Stage 1 reached", "Lemma B.1's end conditions (min cosine >= 0.99, noise-to-signal <= 0.01) "
                    "hold at a logged step", float(run["t_star"]), ">= 0 (reached)", bool(int(run["t_star"]) >= 0))]
    return {"rho": np.asarray(run["rho_min"][:i1 + 1], dtype=float),
            "noise": np.asarray(run["noise_ratio"][:i1 + 1], dtype=float), "t1": int(run["t1"]), "checks": checks}


def _read(rho: np.ndarray) -> np.ndarray:
    """The logged intervals on which the direction is decided: those that start short of the limit (1 - rho >
    CONVERGED), and always the first (from the initialization)."""
    out = 1.0 - rho[:-1] > CONVERGED
    out[0] = True
    return out


def stage1_convergence(ctx: RunContext) -> ExperimentOutcome:
    """Lemma B.10, qualitative: min_k rho_k rises over every logged interval of Stage 1 (finite width, one
    observation per model over the training seeds; the untrained run beside it); the infinite-width flow's per-k
    direction is shown as holding by construction; the noise-signal ratio (Lemma B.11's subject) is shown only."""
    seeds = training_seeds(ctx.seed)
    observations, rows = [], []
    for name, sigma in spectra(bool(ctx.quick)).items():
        model = DataModel(sigma=sigma)
        runs = [_stage1_run(model, s) for s in seeds]
        holds_, init_ = [], []
        for res in runs:
            rho = res["rho"]
            out = _read(rho)
            holds_.append(above(rho[1:][out], rho[:-1][out], what="min_k rho_k at the end of each logged interval of "
                                "Stage 1 that starts short of 1 > at its start"))
            still = np.full(int(out.sum()), rho[0])  # the untrained run: no step taken, rho stays at its start
            init_.append(above(still, still, what="untrained: min_k rho_k at the end of each interval > at its start"))
        rises = [float(np.min(np.diff(r["rho"])[_read(r["rho"])])) for r in runs]
        noise_falls = [float(np.max(np.diff(r["noise"]))) for r in runs]
        observations.append(Observation(
            {"model": name, "setting": "finite width 65 536", "statement": "B.10: min_k rho_k rises over every "
             "logged interval of Stage 1"}, holds=tuple(holds_), seeds=tuple(seeds), at_init=tuple(init_),
            baseline="the run's initialization (no Stage 1: min_k rho_k stays at its start)",
            regime=merged_regime([r["checks"] for r in runs]),
            values={"smallest rise of min rho_k per logged interval (over seeds)": min(rises),
                    "min rho_k at initialization (seed median)": float(np.median([r["rho"][0] for r in runs])),
                    "largest change of the noise-signal ratio per logged interval (shown, not decided)": max(noise_falls),
                    "T1 (steps, seed median)": float(np.median([r["t1"] for r in runs]))}))
        fl = _flow_stage1(model)
        step = np.diff(fl["rho"], axis=0)
        observations.append(Observation(
            {"model": name, "setting": "infinite-width flow", "statement": "B.10: every rho_k nondecreasing along "
             "Stage 1"}, holds=(at_least(fl["rho"][1:], fl["rho"][:-1], error=ode.error(),
                                          what="rho_k at each grid time >= at the previous"),),
            by_construction="on the reconstructed flow (8) the radial part -s p_k of du_k/dt leaves the angle of u_k "
                            "unchanged and the rest, g_k q_k with g_k = 1 - lam tanh(beta1 c_k) > 0 (lam = 1), turns "
                            "u_k toward v_k (and v_k toward u_k): rho_k cannot fall on it",
            regime=tuple(model_checks(model)) + (RegimeCheck(
                "end of Stage 1 reached", "the flow at beta1 meets Lemma B.1's end conditions within flow time 5000",
                fl["t1"], "finite", bool(fl["reached"])),),
            values={"smallest step of rho_k on the grid": float(step.min())}))
        rows.append((name, min(rises), max(noise_falls), float(step.min()),
                     "yes" if all(holds(c.holds) for r in runs for c in r["checks"]) else "no"))
    md = ["#### Stage 1: what Lemma B.10 keeps (the direction of the cosines' convergence)", "",
          *markdown_table(rows, ("model", "smallest rise of min rho_k per logged interval (width 65 536, over seeds)",
                                 "largest change of the noise ratio per interval (shown)",
                                 "smallest step of rho_k, infinite-width flow (by construction)", "in regime")), "",
          f"Algorithm 3.1 at beta1 = {BETA1:g}, width 65 536, {len(seeds)} training seeds per model, logged every 20 "
          "steps until Lemma B.1's end conditions. Decided: min_k rho_k rises over every logged interval that starts "
          f"short of the limit (1 - min rho_k > {CONVERGED:g}; the later ones are converged to within the comparison's "
          "resolution). A fall of the minimum is a fall of some rho_k (the new minimum is some rho_j, below the old "
          "minimum and so below rho_j's start): it refutes 'every rho_k moves toward 1'; a rise of the minimum is "
          "a consequence of that direction, not all of it. The untrained run is the baseline. The noise-signal ratio is shown, not decided: Lemma B.11's quantity is a lost "
          "substitute for it."]
    worst = min(r[1] for r in rows)
    return ExperimentOutcome(
        statistic="smallest rise of min_k rho_k over a logged interval of Stage 1 (finite width)", value=worst,
        effect_size=worst, interval=(worst, max(r[1] for r in rows)), seeds=list(seeds),
        interval_note="[min, max] over the models of the smallest rise over the seeds",
        parameters={"beta1": BETA1, "width": 65536, "models": [r[0] for r in rows]}, observations=observations,
        markdown="\n".join(md))
