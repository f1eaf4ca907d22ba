"""Ren & Li: what survives of the Stage-2 statements whose displays are lost (issue 39, item 6).

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

from theorems import ExperimentOutcome, Observation, RegimeCheck, RunContext, below, holds, markdown_table
from theorems.papers.ren import flow, ode
from theorems.papers.ren.model import KAPPA_MAX, DataModel, b17, geometric, model_checks, stage1_end

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
