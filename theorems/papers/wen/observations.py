"""Wen & Li: the trained runs of the dynamics claims as observations -- one per configuration, with each
seed's outcome (a measured relation the engine decides, or None), the same rule on the run's own
initialization (``at_init``, per seed), and the regime conditions measured on that configuration.

* :func:`none_observations`: Theorem 3.2's rule (a reading of :func:`~theorems.papers.wen.readings.t32_outcome`)
  on the runs without augmentation (wen.theorem32, wen.footnote3);
* :func:`masks_observations`: Theorem 3.4's rule at the stage-III iterates a reading names (wen.theorem34,
  wen.footnote1);
* :func:`downstream_observations`: Corollaries 3.3 and 3.5, the probes on the frozen features against the
  raw-input probes of the same seed (wen.downstream: 3.5; wen.corollary_3_3: 3.3).
"""

from __future__ import annotations

import functools
from typing import Any

from theorems import Observation, holds
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import model as wm
from theorems.papers.wen.configs import cfg
from theorems.papers.wen.model import Data
from theorems.papers.wen.readings import t32_outcome
from theorems.papers.wen.report import fmt, in_regime

INIT = "the run's own initialization (w_i ~ N(0, I/d^2), with the trained network's bias rule)"


@functools.lru_cache(maxsize=64)
def raw(data: Data, seed: int) -> dict[str, float]:
    """The raw-input probes of one seed's probe data (the trivial baseline of a linear probe)."""
    return dy.raw_baseline(data, seed)


# == wen.theorem32, wen.footnote3 ========================================================================
def none_observations(cfgs: list[dy.Config], seeds: list[int], rule: str, whp: str = "1/d"
                      ) -> tuple[list[Observation], dict[dy.Config, list[dict[str, Any]]]]:
    """Theorem 3.2's rule per configuration, on the trained runs and on their initialization, with "w.h.p."
    read as ``whp`` (:data:`~theorems.papers.wen.readings.WHP_READINGS`). A raised bias outside the model's
    regime is not trained (it could not be evidence either way)."""
    observations, results = [], {}
    for c in cfgs:
        config = {"d": c.data.d, "kappa": c.data.kappa, "bias": c.learner.bias}
        model = dy.model_checks(c.data)
        if c.learner.bias > 0 and not in_regime(model):
            observations.append(Observation(config=config, holds=(), regime=tuple(model),
                                            note="not run: outside the regime by the exact model checks"))
            continue
        runs = [{**r, **dy.split_tail(c, r)} for r in dy.runs_of(c, seeds)]
        results[c] = runs
        raws = [raw(c.data, s) for s in seeds] if rule == "representation and probes" else [{}] * len(seeds)
        init = [t32_outcome(rule, r, rw, init=True, whp=whp) for r, rw in zip(runs, raws)]
        regime = dy.checks_none(c, runs) + (dy.raw_checks(c.data) if rule == "representation and probes" else [])
        observations.append(Observation(
            config=config, holds=tuple(t32_outcome(rule, r, rw, whp=whp) for r, rw in zip(runs, raws)),
            seeds=tuple(seeds), at_init=tuple(init), baseline=INIT, regime=tuple(regime),
            values={"q50": dy.mean(runs, "ratio_q50"), "q(1-1/d)": dy.mean(runs, "q_whp"),
                    "q(1-1/d) at init": dy.mean(runs, "init_q_whp"), "dense share": dy.mean(runs, "dense_share"),
                    "dense share at init": dy.mean(runs, "init_dense_share"), "R^2": dy.mean(runs, "r2"),
                    "acc": dy.mean(runs, "acc"),
                    "init holds": f"{sum(o is not None and holds(o) for o in init)}/{len(init)}"}))
    return observations, results


# == wen.theorem34, wen.footnote1 ========================================================================
def masks_observations(cfgs: list[dy.Config], seeds: list[int], when: str, base_model: bool = False
                       ) -> tuple[list[Observation], dict[dy.Config, list[dict[str, Any]]]]:
    """Theorem 3.4's rule per configuration, at the stage-III iterates ``when`` says and at the run's
    initialization. ``base_model``: the model checks read the isotropic part of the noise (footnote 1
    itself allows directions with larger variance than sigma^2)."""
    observations, results = [], {}
    for c in cfgs:
        config = {"bias": c.learner.bias, "setting": f"d={c.data.d} k={c.data.kappa:g}"
                  + ("" if c.data.noise == "isotropic" else f" {c.data.noise}"),
                  "noise": c.data.noise, "excess": c.data.excess}
        model = dy.model_checks(wm.with_(c.data, noise="isotropic", excess=0.0) if base_model else c.data)
        if not in_regime(model):
            observations.append(Observation(config=config, holds=(), regime=tuple(model),
                                            note="not run: outside the regime by the exact model checks"))
            continue
        runs = dy.runs_of(c, seeds)
        results[c] = runs
        d1, k = c.data.d1, wm.needed_per_atom(c.learner.m, c.data.d1)
        observations.append(Observation(
            config=config, holds=tuple(dy.stage3_outcome(r, d1, k, when) for r in runs), seeds=tuple(seeds),
            at_init=tuple(dy.theorem34_at_init(r, d1, k) for r in runs), baseline=INIT,
            regime=(*model, dy.width_check(c.learner.m, d1), dy.alive_check(runs, c.learner)),
            values={"k": k, "min singletons per atom": fmt([r["min_count"] for r in runs]),
                    "atoms covered": fmt([r["covered"] for r in runs]),
                    "dense share": fmt([round(r["dense_share"], 3) for r in runs]),
                    "stage-III min count (min over T)": fmt([int(min(r["s3_min_count"])) for r in runs]),
                    "dense share at init": dy.mean(runs, "init_dense_share"),
                    "noise fire": dy.mean(runs, "noise_fire")}))
    return observations, results


# == wen.downstream ======================================================================================
def downstream_observations(quick: bool, seeds: list[int], corollaries: tuple[str, ...] = ("3.5 (masks)", "3.3 (none)")
                            ) -> tuple[list[Observation], tuple[Any, ...]]:
    """Corollaries 3.5 (masks) and 3.3 (none) -- those named in ``corollaries`` -- per (masks, none) pair of
    the map, on the trained runs and on their initialization, against the raw-input probes of the same seed;
    and the default pair's (runs with masks, runs without augmentation, raw probes, regime checks)."""
    observations, base = [], None
    for mcfg, ncfg in dy.downstream_pairs(quick):
        mcfg, ncfg = cfg(mcfg.data, mcfg.learner), cfg(ncfg.data, ncfg.learner)
        data = mcfg.data
        setting = f"d={data.d} d1={data.d1} k={data.kappa:g} c={mcfg.learner.bias:g}"
        model = dy.model_checks(data)
        checks = [*model, *dy.raw_checks(data)]
        if not in_regime(model):
            for cor in corollaries:
                observations.append(Observation(config={"setting": setting, "corollary": cor}, holds=(),
                                                regime=tuple(checks), note="not run"))
            continue
        aug, none = dy.runs_of(mcfg, seeds), dy.runs_of(ncfg, seeds)
        raws = [raw(data, s) for s in seeds]
        for cor, runs, learner, test in (("3.5 (masks)", aug, mcfg.learner, dy.corollary35),
                                         ("3.3 (none)", none, ncfg.learner, dy.corollary33)):
            if cor not in corollaries:
                continue
            regime = [*checks, dy.alive_check(runs, learner)] + ([dy.width_check(learner.m, data.d1)]
                                                                if learner.augment else [])
            observations.append(Observation(
                config={"setting": setting, "corollary": cor}, holds=tuple(test(r["r2"], r["acc"], rw)
                                                                           for r, rw in zip(runs, raws)),
                seeds=tuple(seeds), at_init=tuple(test(r["init_r2"], r["init_acc"], rw) for r, rw in zip(runs, raws)),
                baseline=INIT + " and the raw input x", regime=tuple(regime),
                values={"gain over raw (min of R^2, acc)": fmt([round(dy.largest_margin(r["r2"], r["acc"], rw), 4)
                                                                for r, rw in zip(runs, raws)]),
                        "R^2": fmt([r["r2"] for r in runs]), "acc": fmt([r["acc"] for r in runs]),
                        "R^2 at init": fmt([r["init_r2"] for r in runs]),
                        "acc at init": fmt([r["init_acc"] for r in runs]),
                        "raw R^2": fmt([rw["r2"] for rw in raws]), "raw acc": fmt([rw["acc"] for rw in raws]),
                        "oracle raw R^2": raws[0]["oracle_r2"], "oracle raw acc": wm.oracle_raw_accuracy(data)}))
        if base is None:  # the first pair is the default: the downstream model, masks c = 2.5 / none b = 0
            base = (aug, none, raws, checks)
    return observations, base
