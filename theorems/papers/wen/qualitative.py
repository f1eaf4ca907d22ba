"""Wen & Li: the surviving qualitative content of statements whose displays are lost (issue 39, item 6),
checked on the training runs the dynamics claims already have (cached; nothing new is trained).

* :func:`stage1_direction` (``wen.theorem_c1``): Theorem C.1's conclusions are lost; Section A.2's prose
  (line 202: "the weights of neurons will mostly consist of the sparse features rather than the dense
  features") survives. Checked: its direction -- with the masks, the sparse share of ||W||_F^2 grows over
  stage I (bias 0) from its value at initialization. Not checked: "mostly" (> 1/2) at T1, because T1 ("the
  iteration when [lost] for all the neurons", line 360) is lost: the share at the checker's stage-I end
  (step 200) would be read at an iteration the checker chose.
* :func:`dense_every_iteration` (``wen.fact_f4``): Fact F.4's inequality is lost; "At each iteration [lost],
  the learned network without augmentations satisfies [lost]", which "directly leads to" Theorem 3.2
  (line 897: the sparse signal overwhelmed by the dense noise), survives. Checked: its time-independent
  content read on the weights ("we call the learned weights ... features", Section 2.2) -- without
  augmentation, at every logged iteration, less than half of ||W||_F^2 lies in span(M). The untrained
  network already has it (share ~ d1/d), so the check is informative only if a run ever leaves it.
* :func:`stage2_dense_direction` (``wen.lemma_a2``): Lemma A.2's display (and Lemma D.4's) is lost; its
  sentence "[the dense-feature gradient] shall be somehow small" (line 218) survives. Checked: its direction
  over stage II (the bias rising) -- the dense share of ||W||_F^2 falls from the end of stage I to the end
  of stage II -- against the same schedule trained without augmentation (where the same fall is no
  evidence). Not checked: "small" against the lost quantity.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from theorems import ExperimentOutcome, Observation, RunContext, above, below
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen.configs import cfg
from theorems.papers.wen.observations import INIT
from theorems.papers.wen.report import clean, in_regime, observation_table, seed_note
from theorems.papers.wen.threads import one_thread

#: "mostly consist of the sparse features rather than the dense features" / "dominated by the dense noise"
HALF = 0.5


def _stage1(run: dict[str, Any], stage1: int) -> tuple[np.ndarray, np.ndarray]:
    steps, share = np.asarray(run["step"]), np.asarray(run["share"])
    keep = steps <= stage1
    return steps[keep], share[keep]


def stage1_configs(quick: bool) -> list[dy.Config]:
    """The masks configurations of wen.theorem34's map with distinct stage-I dynamics: the bias threshold c
    acts only after stage I (b = 0 there), so runs differing only in c share their stage I and count once."""
    out, seen = [], set()
    for c in dy.masks_grid(quick):
        if c.data not in seen:
            seen.add(c.data)
            out.append(cfg(c.data, c.learner))
    return out


def stage1_direction() -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def theorem_c1(ctx: RunContext) -> ExperimentOutcome:
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, gaps = [], []
        for c in stage1_configs(ctx.quick):
            config = {"setting": f"d={c.data.d} k={c.data.kappa:g}", "augmentation": "masks"}
            model = dy.model_checks(c.data)
            if not in_regime(model):
                observations.append(Observation(config=config, holds=(), regime=tuple(model), note="not run"))
                continue
            runs = dy.runs_of(c, seeds)
            ends = [_stage1(r, c.learner.stage1) for r in runs]
            share0 = [float(sh[0]) for _, sh in ends]
            share1 = [float(sh[-1]) for _, sh in ends]
            gaps += [b - a for a, b in zip(share0, share1)]
            observations.append(Observation(
                config=config, seeds=tuple(seeds),
                holds=tuple(above(b, a, what="sparse share at the end of stage I against its value at "
                                  "initialization") for a, b in zip(share0, share1)),
                at_init=tuple(above(a, a, what="sparse share of the untrained network against itself")
                              for a in share0),
                baseline=INIT + ": no step taken, the share is its initial value",
                regime=(*model, dy.width_check(c.learner.m, c.data.d1)),
                values={"share at init": [round(a, 3) for a in share0],
                        "share at stage-I end": [round(b, 3) for b in share1],
                        "stage-I end (step)": int(ends[0][0][-1]),
                        "> 1/2 at stage-I end (not judged: T1 lost)": sum(b > HALF for b in share1)}))
        gap = np.array(gaps) if gaps else np.array([np.nan])
        lines = ["#### Theorem C.1 (qualitative): the sparse share of the weights grows over stage I (masks)", "",
                 "Sparse share = ||P_M W||_F^2 / ||W||_F^2 averaged over neurons (model.py sparse_share), logged "
                 "every 25 steps; stage I is the bias-0 phase (steps <= 200). Per seed: the share at the end of "
                 "stage I exceeds its value at initialization. Reuses wen.theorem34's runs (one per model: the "
                 "bias threshold acts after stage I). 'Mostly' (> 1/2) is shown, not judged: T1 is lost.", "",
                 *observation_table(observations, ["share at init", "share at stage-I end"])]
        return ExperimentOutcome(
            statistic="sparse share of ||W||_F^2 at the end of stage I minus at initialization (masks), median "
                      "over configurations and seeds",
            value=float(np.nanmedian(gap)), effect_size=float(np.nanmedian(gap)),
            interval=(float(np.nanmin(gap)), float(np.nanmax(gap))), seeds=seeds,
            interval_note=seed_note(len(seeds)) + " (range over configurations and seeds)",
            parameters=clean({**dy.parameters(), "configs": [c.data for c in stage1_configs(ctx.quick)]}),
            observations=observations, markdown="\n".join(lines))
    return theorem_c1


def dense_every_iteration() -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def fact_f4(ctx: RunContext) -> ExperimentOutcome:
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, worst = [], []
        for c in [cfg(c.data, c.learner) for c in dy.none_grid(ctx.quick)]:
            config = {"setting": f"d={c.data.d} k={c.data.kappa:g}", "augmentation": "none"}
            model = dy.model_checks(c.data)
            if not in_regime(model):
                observations.append(Observation(config=config, holds=(), regime=tuple(model), note="not run"))
                continue
            runs = dy.runs_of(c, seeds)
            peak = [float(np.max(r["share"])) for r in runs]
            share0 = [float(np.asarray(r["share"])[0]) for r in runs]
            worst += peak
            observations.append(Observation(
                config=config, seeds=tuple(seeds),
                holds=tuple(below(p, HALF, what="largest sparse share of ||W||_F^2 over the logged iterations")
                            for p in peak),
                at_init=tuple(below(a, HALF, what="sparse share of the untrained network") for a in share0),
                baseline=INIT, regime=tuple(model),
                values={"share at init": [round(a, 3) for a in share0],
                        "max share over iterations": [round(p, 3) for p in peak]}))
        peak = np.array(worst) if worst else np.array([np.nan])
        lines = ["#### Fact F.4 (qualitative): without augmentation the weights stay dominated by the dense noise "
                 "at every iteration", "",
                 "Per seed: the largest sparse share of ||W||_F^2 over the logged iterations (every 25 steps, "
                 "steps 0..500) is below 1/2. The untrained network already has the property (share ~ d1/d).", "",
                 *observation_table(observations, ["share at init", "max share over iterations"])]
        return ExperimentOutcome(
            statistic="largest sparse share of ||W||_F^2 over the iterations and seeds (no augmentation)",
            value=float(np.nanmax(peak)), effect_size=float(HALF - np.nanmax(peak)),
            interval=(float(HALF - np.nanmax(peak)), float(HALF - np.nanmin(peak))), seeds=seeds,
            interval_note="range of 1/2 - max share over configurations and seeds",
            parameters=clean({**dy.parameters()}), observations=observations, markdown="\n".join(lines))
    return fact_f4


# == wen.lemma_a2 ==========================================================================================
def _share_at(run: dict[str, Any], step: int) -> float:
    """The sparse share of ||W||_F^2 at the logged step ``step`` (the stage boundaries are logged steps)."""
    steps, share = np.asarray(run["step"]), np.asarray(run["share"])
    return float(share[int(np.flatnonzero(steps == step)[0])])


def stage2_pairs(quick: bool) -> list[tuple[dy.Config, dy.Config]]:
    """(masks, no augmentation) pairs with the same model and the same bias schedule: the masks configurations of
    wen.theorem34's map whose schedule wen.footnote3 also trains without augmentation (footnote 3's bias grid)."""
    baselines = {(c.data, c.learner.bias): cfg(c.data, c.learner) for c in dy.bias_grid(quick) if c.learner.bias > 0}
    return [(cfg(c.data, c.learner), baselines[(c.data, c.learner.bias)]) for c in dy.masks_grid(quick)
            if (c.data, c.learner.bias) in baselines]


def _dense_fall(run: dict[str, Any], lrn: Any, what: str):
    """Over stage II (bias rising, steps stage1 .. stage1 + ramp) the dense share of ||W||_F^2 falls."""
    start, end = lrn.stage1, lrn.stage1 + lrn.ramp
    return below(1.0 - _share_at(run, end), 1.0 - _share_at(run, start),
                 what=f"dense share at the end of stage II (step {end}) against its value at the end of stage I "
                      f"(step {start}), {what}")


def stage2_dense_direction() -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def lemma_a2(ctx: RunContext) -> ExperimentOutcome:
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, gaps = [], []
        for mc, nc in stage2_pairs(ctx.quick):
            config = {"setting": f"d={mc.data.d} k={mc.data.kappa:g}", "bias": mc.learner.bias}
            model = dy.model_checks(mc.data)
            if not in_regime(model):
                observations.append(Observation(config=config, holds=(), regime=tuple(model), note="not run"))
                continue
            aug, none = dy.runs_of(mc, seeds), dy.runs_of(nc, seeds)
            start, end = mc.learner.stage1, mc.learner.stage1 + mc.learner.ramp
            fall = [_share_at(r, end) - _share_at(r, start) for r in aug]
            fall0 = [_share_at(r, end) - _share_at(r, start) for r in none]
            gaps += fall
            observations.append(Observation(
                config=config, seeds=tuple(seeds),
                holds=tuple(_dense_fall(r, mc.learner, "with masks") for r in aug),
                at_init=tuple(_dense_fall(r, nc.learner, "without augmentation, same bias schedule") for r in none),
                baseline="the same model and bias schedule trained without augmentation (wen.footnote3's run of the "
                         "same seed); the untrained network cannot move, so it fails the direction",
                regime=(*model, dy.width_check(mc.learner.m, mc.data.d1), dy.alive_check(aug, mc.learner)),
                values={"dense-share fall over stage II (masks)": [round(f, 3) for f in fall],
                        "dense-share fall over stage II (no augmentation)": [round(f, 3) for f in fall0]}))
        gap = np.array(gaps) if gaps else np.array([np.nan])
        lines = ["#### Lemma A.2 (qualitative): over stage II the dense features do not keep up with the sparse ones",
                 "", "Per seed of the masks runs whose bias schedule wen.footnote3 also trains without augmentation: "
                 "the dense share of ||W||_F^2 (outside span M) at the end of stage II (the bias has risen to c sigma "
                 "||w_i||) is below its value at the end of stage I. The baseline is the run of the same seed without "
                 "augmentation under the same schedule: where it shows the same fall, the configuration is "
                 "uninformative. 'Small' (the lost comparison) is not judged.", "",
                 *observation_table(observations, ["dense-share fall over stage II (masks)",
                                                   "dense-share fall over stage II (no augmentation)"])]
        return ExperimentOutcome(
            statistic="sparse share of ||W||_F^2 at the end of stage II minus at the end of stage I (masks), median "
                      "over configurations and seeds",
            value=float(np.nanmedian(gap)), effect_size=float(np.nanmedian(gap)),
            interval=(float(np.nanmin(gap)), float(np.nanmax(gap))), seeds=seeds,
            interval_note=seed_note(len(seeds)) + " (range over configurations and seeds)",
            parameters=clean({**dy.parameters(), "pairs": [f"{m.label()} | {n.label()}"
                                                           for m, n in stage2_pairs(ctx.quick)]}),
            observations=observations, markdown="\n".join(lines))
    return lemma_a2
