"""Ren & Li, Theorem 4.3 and Sections 5.3-5.4: training runs of Algorithm 3.1 on the paper's model.

Every run is a population gradient descent (:mod:`theorems.papers.ren.model`) at width 65 536 from
one training seed's initialization, compared with the seedless infinite-width flow of the same data
model (:mod:`theorems.papers.ren.flow`). Each configuration is run on :data:`N_SEEDS` training seeds,
runs 0, 1, ... of the stream :data:`TRAINING_STREAM` in the audit (:func:`training_seeds`, the one seed
rule); a configuration reports, per seed, the relation the sentence predicts as measured (the engine
decides it), the same on the run's own initialization, and the theorem's regime measured on the runs
(:func:`model_checks`, :func:`run_checks`). The engine reads the verdict (its verdict rules) by the
claim's quantifier over models; nothing here decides one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from numerics.seeds import run_seeds
from theorems import (MIN_SEEDS, AllOf, ExperimentOutcome, Observation, RegimeCheck, RunContext, above, at_least, at_most,
                      below, equal, holds, markdown_table, save_figure, subplots)
from theorems.papers.ren import flow, ode
from theorems.papers.ren.model import (
    KAPPA_MAX,
    MC_RADIUS,
    SHIFT,
    DataModel,
    RunSpec,
    alignment_enclosure,
    alignment_mc,
    b17,
    cached_train,
    flow_twin,
    geometric,
    model_checks,
    population_maps,
    stage1_end,
    tracking_gap,
    two_level,
)

EPS_ALIGN = 0.05  # aligned: Align >= 1 - eps (eps must exceed 2^-r, the ties of equal latents)
C_BALANCE = 2.0  # balanced: Bal >= r / c
COND_NEAR_ONE = 1.1  # Stage 2 runs until cond(P_A) <= 1.1 ("approximately 1", Section 5.4)
BETA1_SMALL = 0.1  # Stage 1's "small beta": lam * beta1 <= 0.1, the negative term within 10 % of g_k = 1
COND_GAP_MAX = math.log(1.15)  # tracking: cond(P_A) within 15 % of the flow's (time shift <= SHIFT)
RHO_GAP_MAX = 0.05  # tracking: min cosine within 0.05 of the flow's
WIDTH = 65536
N_ALIGN, N_ALIGN_QUICK = 20000, 5000
N_SEEDS = MIN_SEEDS  # training seeds per configuration, in both profiles
TRAINING_STREAM = "ren.training"  # one stream for every claim: the claims share their runs (and the cache)


def training_seeds(audit_seed: int) -> list[int]:
    """The training seeds of the audit at ``audit_seed``: runs 0 .. N_SEEDS - 1 of :data:`TRAINING_STREAM`
    (:func:`numerics.seeds.run_seeds`), the same for every claim of the paper, so they share their runs."""
    return run_seeds(audit_seed, TRAINING_STREAM, N_SEEDS)


def spectra(quick: bool) -> dict[str, tuple[float, ...]]:
    """The admissible data models swept by the universal claims (kappa <= KAPPA_MAX)."""
    k = KAPPA_MAX
    full = {"isotropic": (1.0,) * 5, f"B17 k={k:g}": b17(k), f"geometric k={k:g}": geometric(k),
            f"two-level k={k:g}": two_level(k), f"one-small k={k:g}": (k, k, k, k, 1.0)}
    if quick:
        return {name: full[name] for name in ("isotropic", f"B17 k={k:g}")}
    return full


# -- regime, metrics ---------------------------------------------------------------------------------
def run_checks(spec: RunSpec, run: dict[str, np.ndarray], gap: dict[str, float]) -> list[RegimeCheck]:
    """Conditions measured on the run: population normalization, width / step, small beta1. Each is a measured
    relation the engine decides; the gaps to the flow carry the flow's stated integration error (ren.ode)."""
    moments = np.asarray(run["second_moment"], dtype=float)
    norm_dev = float(np.max(np.abs(moments - 1.0)))
    checks = [
        RegimeCheck("population normalization", "f_A = W_A x / sqrt(E||W_A x||^2): E||f_A||^2 = 1 over the population "
                    "(exact second moment, every logged step)", norm_dev, "E||f_A||^2 = 1 (the engine's tolerance)",
                    equal(moments, np.ones_like(moments), what="E||f_A||^2 at every logged step")),
        RegimeCheck("width at initialization", f"at width {spec.m} the initial cond(P_A) is the infinite-width value "
                    "kappa: |log(cond_run(0) / kappa)|", gap["width_offset"], "<= 0.05",
                    at_most(gap["width_offset"], 0.05, what="|log(cond_run(0) / kappa)|")),
        RegimeCheck("width and step: condition number", f"the width-{spec.m} gradient descent tracks the infinite-width "
                    f"gradient flow: max |log(cond_run / cond_flow)| (time shift <= {float(SHIFT):g} t)", gap["cond_gap"],
                    f"<= log 1.15 = {COND_GAP_MAX:.3f}",
                    at_most(gap["cond_gap"], COND_GAP_MAX, error=ode.error(), what="max |log(cond_run / cond_flow)|")),
        RegimeCheck("width and step: alignment", "max |rho_min,run - rho_min,flow| (same time shift)", gap["rho_gap"],
                    f"<= {RHO_GAP_MAX:g}",
                    at_most(gap["rho_gap"], RHO_GAP_MAX, error=ode.error(), what="max |rho_min,run - rho_min,flow|")),
    ]
    if spec.method == "contrastive":
        checks.append(RegimeCheck("small beta1", "Stage 1 uses a small inverse temperature (Section 5.3: the negative "
                                  "term tanh(beta c) is then close to 0)", spec.model.lam * spec.beta1,
                                  f"lam * beta1 <= {BETA1_SMALL:g}",
                                  at_most(spec.model.lam * spec.beta1, BETA1_SMALL, what="lam * beta1")))
    return checks


def alignment_at(spec: RunSpec, run: dict[str, np.ndarray], key: str, n: int, stream: int) -> tuple[float, Any]:
    """Definition 4.1 (by distance, strict inequality) at a snapshot, on n fresh triples drawn from the
    run's training seed: the Monte Carlo score, and the population score's enclosure (alignment_enclosure)."""
    rng = np.random.default_rng([spec.seed, 4101, stream])
    score, se = alignment_mc(run[key], spec.model, rng, n)
    return score, alignment_enclosure(score, se, n)


def aligned(m: dict[str, Any], key: str) -> Any:
    """Definition 4.1's 'aligned', Align >= 1 - eps, as measured at ``key`` (the population score's Monte Carlo
    enclosure against the threshold: the engine decides)."""
    return at_least(m[key + "_mc"], 1 - EPS_ALIGN, what=f"{key} (Monte Carlo) >= 1 - eps")


def index_at(run: dict[str, np.ndarray], step: int) -> int:
    """The index of a logged step (the steps are integers, logged exactly)."""
    return int(np.flatnonzero(run["step"] == step)[0])


def merged_regime(runs: Sequence[Sequence[RegimeCheck]], extra: Sequence[RegimeCheck] = ()) -> tuple[RegimeCheck, ...]:
    """The regime of a configuration run on several seeds (or models): each condition with its worst
    measured value (every threshold here is an upper bound), holding only if it held on every run."""
    out = []
    for group in zip(*runs):
        values = [c.value for c in group]
        numeric = all(isinstance(v, (int, float)) for v in values)
        worst = max(values) if numeric else values[0]
        text = group[0].text + (f" (the worst of {len(group)} runs)" if len(group) > 1 else "")
        out.append(RegimeCheck(group[0].name, text, worst, group[0].required, AllOf(tuple(c.holds for c in group))))
    return tuple(out) + tuple(extra)


@functools.lru_cache(maxsize=None)
def measure(spec: RunSpec, n_align: int, end_stream: int | None = None, at_t1: bool = False) -> dict[str, Any]:
    """One run, measured: its regime, and the metrics the claims read (kept for the process, so the
    readings of a claim share the runs and their measurements)."""
    run = cached_train(spec)
    gap = tracking_gap(spec, run)
    checks = tuple(model_checks(spec.model) + run_checks(spec, run, gap))
    i1 = index_at(run, int(run["t1"]))
    none = (float("nan"), None)
    (a0, a0_mc), (a_end, a_end_mc), (a_t1, a_t1_mc) = (
        alignment_at(spec, run, "Y0", n_align, 0),
        alignment_at(spec, run, "Y_end", n_align, end_stream) if end_stream is not None else none,
        alignment_at(spec, run, "Y1", n_align, 3) if at_t1 else none)
    return {"checks": checks, "in_regime": all(holds(c.holds) for c in checks), "seed": spec.seed,
            "align0": a0, "align0_mc": a0_mc, "align_end": a_end, "align_end_mc": a_end_mc, "align_T1": a_t1,
            "align_T1_mc": a_t1_mc,
            "bal0": float(run["balance"][0]), "bal_end": float(run["balance"][-1]),
            "cond0": float(run["cond"][0]), "cond_T1": float(run["cond"][i1]), "cond_end": float(run["cond"][-1]),
            "peak_stage1": float(np.max(run["cond"][:i1 + 1])), "rho_min_T1": float(run["rho_min"][i1]),
            "rho_min_end": float(run["rho_min"][-1]), "T1": int(run["t1"]), "steps": int(run["step"][-1]),
            "converged": bool(run["converged"]), "grad_rel": float(run["grad"][-1] / run["grad"][0]),
            "stationary": spec.stationary, **gap}


def _med(ms: Sequence[dict[str, Any]], key: str) -> float:
    return float(np.median([m[key] for m in ms]))


def _held(outcomes: Sequence[Any]) -> str:
    """How many runs the property held on, as the engine decides each."""
    return f"{sum(holds(h) for h in outcomes if h is not None)}/{len(outcomes)}"


def _stationary(m: dict[str, Any]) -> Any:
    """The run reached an approximate stationary point: |grad| <= ``stationary`` |grad_0| at its end."""
    return at_most(m["grad_rel"], m["stationary"], what="|grad| / |grad_0|")


def _norm_mc(spec: RunSpec, run: dict[str, np.ndarray], n: int) -> tuple[float, float, float]:
    """Monte Carlo cross-check of the population normalization at the end: mean ||f_A||^2 over n
    inputs, its standard error, and the spread (std) of ||f_A(x)|| (0 for per-sample normalization)."""
    MA, _ = population_maps(run["Y_end"], spec.model)
    s = spec.model.sample(n, np.random.default_rng([spec.seed, 4102]))
    sq = np.sum((s["wa"] @ MA.T) ** 2, axis=1)
    return float(sq.mean()), float(sq.std() / math.sqrt(n)), float(np.sqrt(sq).std())


# == Theorem 4.3 (a): there EXISTS a data model ... ===============================================
def _nc_spec(sigma: tuple[float, ...], seed: int) -> RunSpec:
    return RunSpec("noncontrastive", DataModel(sigma=sigma), m=WIDTH, seed=seed, stationary=2e-3, max_steps=3000)


def _theorem43a(ctx: RunContext, cs: Sequence[float], from_training: bool) -> ExperimentOutcome:
    quick = ctx.quick
    seeds = training_seeds(ctx.seed)
    kappas = (1.2, 5.0) if quick else (1.1, 1.2, 1.5, 3.0, 5.0)
    family = {f"B17 k={k:g}": b17(k) for k in kappas}
    if not quick:
        family.update({"geometric k=1.5": geometric(1.5), "two-level k=1.5": two_level(1.5)})
    n_align = N_ALIGN_QUICK if quick else N_ALIGN
    observations, table, runs = [], [], {}
    for name, sigma in family.items():
        ms = [measure(_nc_spec(sigma, s), n_align, end_stream=1) for s in seeds]
        runs[name] = ms
        r = len(sigma)
        regime = merged_regime([m["checks"] for m in ms])
        for c in cs:
            # the property the sentence predicts, per seed: an approximate stationary point, aligned, not balanced
            outcome = tuple(_stationary(m) & aligned(m, "align_end") & below(m["bal_end"], r / c, what="Bal(end) < r/c")
                            for m in ms)
            if from_training:  # per seed: the engine reads 'held on any run's initialization'
                at_init = tuple(below(m["bal0"], r / c, what="Bal(0) < r/c") for m in ms)
                baseline = "the run's initialization: Bal(0) < r/c already, so 'not balanced' would not come from training"
            else:
                at_init = tuple(aligned(m, "align0") & below(m["bal0"], r / c, what="Bal(0) < r/c") for m in ms)
                baseline = "the run's initialization (aligned and not balanced before any step)"
            values = {"Align(0) max": max(m["align0"] for m in ms), "Align(end) min": min(m["align_end"] for m in ms),
                      "Bal(0) min": min(m["bal0"] for m in ms), "Bal(end) max": max(m["bal_end"] for m in ms),
                      "r/c": r / c, "cond(0) median": _med(ms, "cond0"), "cond(end) median": _med(ms, "cond_end"),
                      "converged": _held([m["converged"] for m in ms])}
            observations.append(Observation({"spectrum": name, "c": c}, holds=outcome, seeds=tuple(seeds),
                                            at_init=at_init, baseline=baseline, regime=regime, values=values))
            table.append((name, c, _held(outcome), "yes" if all(holds(ch.holds) for ch in regime) else "no",
                          max(m["steps"] for m in ms),
                          max(m["grad_rel"] for m in ms), values["Align(0) max"], values["Align(end) min"],
                          _med(ms, "bal0"), _med(ms, "bal_end"), r / c, values["cond(0) median"],
                          values["cond(end) median"], _med(ms, "flow_cond_end")))
    drop = {name: _med(ms, "bal0") - _med(ms, "bal_end") for name, ms in runs.items()}
    shown = max(drop, key=drop.get)
    spec0 = _nc_spec(family[shown], seeds[0])
    mc_mean, mc_se, spread = _norm_mc(spec0, cached_train(spec0), n_align)
    md = ["#### Theorem 4.3 (a): non-contrastive training, search over admissible data models", "",
          *markdown_table(table, ("data model", "c", "seeds where it held", "in regime", "steps (max)",
                                  "|grad| / |grad_0| (max)", "Align(0) (max)", "Align(end) (min)", "Bal(0) (median)",
                                  "Bal(end) (median)", "r/c", "cond(P_A) init", "cond(P_A) end", "flow cond end")), "",
          (f"Training seeds {seeds} (audit seed {ctx.seed}). Measured per seed: whether the run reaches an approximate "
          f"stationary point (|grad| <= 2e-3 |grad_0|), ends aligned (Align >= {1 - EPS_ALIGN:g}) and not balanced "
          "(Bal < r/c); at initialization: " + ("whether Bal(0) < r/c already (this reading asks the imbalance to come "
          "from training)." if from_training else "whether the untrained model is already aligned and not balanced.")
          + " The engine reads the configurations as an existence claim (one configuration where the property held on "
          "every seed, inside the regime and informative, is a witness)."), "",
          (f"Population normalization at {shown} (seed {seeds[0]}), Monte Carlo cross-check over {n_align} inputs: "
          f"mean ||f_A||^2 = {mc_mean:.4f} +- {mc_se:.4f}; the norms ||f_A(x)|| spread with std {spread:.3g} "
          "(per-sample normalization would give 0).")]
    finals = [m["bal_end"] for ms in runs.values() for m in ms]
    return ExperimentOutcome(
        statistic=f"median final balance score of {shown} (the largest balance drop)",
        value=_med(runs[shown], "bal_end"), effect_size=drop[shown], interval=(min(finals), max(finals)), seeds=seeds,
        interval_note="effect: median Bal(0) - Bal(end) of that model; interval: [min, max] final balance over every "
                      "run (models x seeds; exact population covariance)",
        parameters=_parameters(spec0, quick, searched=list(family), c_values=list(cs), training_seeds=seeds),
        observations=observations, markdown="\n".join(md), map_axes=("spectrum", "c", "Theorem 4.3 (a)"))


def theorem43a(ctx: RunContext) -> ExperimentOutcome:
    """Non-contrastive training on admissible data models: runs ending aligned and not balanced (c = 2).

    Until an approximate stationary point; 'not balanced' is Bal < r/c with c Definition 4.2's
    constant, the one part (b) uses."""
    return _theorem43a(ctx, (C_BALANCE,), from_training=False)


def theorem43a_c_with_model(ctx: RunContext) -> ExperimentOutcome:
    """As the literal reading, with the balance constant c chosen with the data model (c in 1.5, 2, 3)."""
    return _theorem43a(ctx, (C_BALANCE,) if ctx.quick else (1.5, C_BALANCE, 3.0), from_training=False)


def theorem43a_from_training(ctx: RunContext) -> ExperimentOutcome:
    """As the literal reading, a data model counting only if its initialization is still balanced.

    The imbalance must then come from training."""
    return _theorem43a(ctx, (C_BALANCE,), from_training=True)


# == Theorem 4.3 (b): there exist beta1, beta2 such that FOR ANY valid data model ... ===============
def _contrastive_spec(sigma: tuple[float, ...], seed: int, beta1: float, beta2: float,
                      t1_factor: float = 1.0) -> RunSpec:
    return RunSpec("contrastive", DataModel(sigma=sigma), m=WIDTH, seed=seed, beta1=beta1, beta2=beta2,
                   t1_factor=t1_factor, cond_target=COND_NEAR_ONE, max_steps=3000, max_steps2=3000)


def betas(quick: bool) -> tuple[tuple[float, ...], tuple[float, ...]]:
    return ((0.05,), (2.0,)) if quick else ((0.02, 0.1), (2.0, 5.0))


def _ok_43b(m: dict[str, Any], r: int) -> Any:
    """Theorem 4.3 (b)'s conclusion on one run, as measured: aligned and balanced at the end."""
    return aligned(m, "align_end") & at_least(m["bal_end"], r / C_BALANCE, what="Bal(end) >= r/c")


def _runs_43b(ctx: RunContext) -> tuple[list[int], dict[str, tuple[float, ...]], list[tuple[float, float]],
                                         dict[tuple[tuple[float, float], str], list[dict[str, Any]]]]:
    seeds = training_seeds(ctx.seed)
    b1s, b2s = betas(ctx.quick)
    models = spectra(ctx.quick)
    pairs = [(b1, b2) for b1 in b1s for b2 in b2s]
    n_align = N_ALIGN_QUICK if ctx.quick else N_ALIGN
    runs = {(pair, name): [measure(_contrastive_spec(sigma, s, *pair), n_align, end_stream=2) for s in seeds]
            for pair in pairs for name, sigma in models.items()}
    return seeds, models, pairs, runs


def _label(pair: tuple[float, float]) -> str:
    return f"b1={pair[0]:g}, b2={pair[1]:g}"


def _table_43b(models: dict[str, tuple[float, ...]], pairs: list[tuple[float, float]],
               runs: dict[tuple[tuple[float, float], str], list[dict[str, Any]]]) -> list[str]:
    rows = []
    for pair in pairs:
        for name, sigma in models.items():
            ms = runs[(pair, name)]
            rows.append((_label(pair), name, _held([_ok_43b(m, len(sigma)) for m in ms]),
                         "yes" if all(m["in_regime"] for m in ms) else "no", _med(ms, "T1"), max(m["steps"] for m in ms),
                         min(m["align_end"] for m in ms), _med(ms, "bal0"), min(m["bal_end"] for m in ms),
                         _med(ms, "cond_T1"), _med(ms, "cond_end"), _med(ms, "flow_cond_end"), max(m["cond_gap"] for m in ms)))
    return markdown_table(rows, ("(beta1, beta2)", "data model", "seeds aligned and balanced", "in regime",
                                 "T1 (steps, median)", "steps (max)", "Align(end) (min)", "Bal(0) (median)",
                                 "Bal(end) (min)", "cond(P_A) at T1", "cond(P_A) end", "flow cond end",
                                 "max |log cond gap| to the flow"))


def _outcome_43b(ctx: RunContext, seeds: list[int], models: dict[str, tuple[float, ...]], pairs: list[tuple[float, float]],
                 runs: dict[tuple[tuple[float, float], str], list[dict[str, Any]]], observations: list[Observation],
                 rule: str, map_axes: tuple[str, str, str]) -> ExperimentOutcome:
    margin = {pair: min(m["bal_end"] / (len(models[name]) / C_BALANCE) for name in models for m in runs[(pair, name)])
              for pair in pairs}
    best = max(pairs, key=margin.get)
    finals = [m["bal_end"] for name in models for m in runs[(best, name)]]
    align0 = max(m["align0"] for ms in runs.values() for m in ms)
    md = ["#### Theorem 4.3 (b): contrastive training, every admissible data model for each (beta1, beta2)", "",
          *_table_43b(models, pairs, runs), "",
          (f"Training seeds {seeds} (audit seed {ctx.seed}). Measured per run: aligned (Align >= {1 - EPS_ALIGN:g}) "
          f"and balanced (Bal >= r/{C_BALANCE:g}) at the end; Stage 1 lasts until the end-of-Stage-1 conditions of "
          f"Lemma B.1 (every cosine >= 0.99, noise-to-signal <= 0.01), Stage 2 until cond(P_A) <= {COND_NEAR_ONE:g} "
          f"(at most 3000 steps). At initialization no run is aligned (Align(0) <= {align0:.3f}), so the property "
          "fails on the untrained model. " + rule), "",
          figure(ctx, [_contrastive_spec(models[name], seeds[0], *best) for name in models], "ren.fig1.png")]
    return ExperimentOutcome(
        statistic=f"worst final balance score over the admissible models and seeds at ({_label(best)})",
        value=min(finals), effect_size=margin[best] - 1.0, interval=(min(finals), max(finals)), seeds=seeds,
        interval_note="effect: min Bal / (r/c) - 1 over models and seeds for that pair; interval: [min, max] final "
                      "balance over the models and seeds for that pair (exact population covariance)",
        parameters=_parameters(_contrastive_spec(models[next(iter(models))], seeds[0], *best), ctx.quick,
                               beta1_grid=sorted({p[0] for p in pairs}), beta2_grid=sorted({p[1] for p in pairs}),
                               models=list(models), training_seeds=seeds),
        observations=observations, markdown="\n".join(md), map_axes=map_axes)


def theorem43b(ctx: RunContext) -> ExperimentOutcome:
    """Algorithm 3.1 per (beta1, beta2): every model of the sweep ends aligned and balanced, on every seed.

    The pair is chosen before the model, as printed."""
    seeds, models, pairs, runs = _runs_43b(ctx)
    observations = []
    for pair in pairs:
        every = [runs[(pair, name)] for name in models]
        outcome = tuple(AllOf(tuple(_ok_43b(ms[i], len(models[name])) for ms, name in zip(every, models)))
                        for i in range(len(seeds)))
        at_init = tuple(AllOf(tuple(aligned(ms[i], "align0") & at_least(ms[i]["bal0"], len(sigma) / C_BALANCE,
                                                                         what="Bal(0) >= r/c")
                                    for ms, sigma in zip(every, models.values()))) for i in range(len(seeds)))
        worst = min((m for ms in every for m in ms), key=lambda m: m["bal_end"])
        observations.append(Observation(
            {"beta1": pair[0], "beta2": pair[1], "models": f"all {len(models)}"}, holds=outcome, seeds=tuple(seeds),
            at_init=at_init, baseline="the initialization (every model aligned and balanced before training)",
            regime=merged_regime([m["checks"] for ms in every for m in ms]),
            values={"worst Bal(end)": worst["bal_end"], "worst Align(end)": min(m["align_end"] for ms in every for m in ms),
                    "max cond(end)": max(m["cond_end"] for ms in every for m in ms),
                    "max Align(0)": max(m["align0"] for ms in every for m in ms)}))
    rule = ("Literal reading (there exist beta1, beta2 such that for any valid model): one configuration per pair, "
            "holding on a seed when every model of the sweep ends aligned and balanced on that seed; the pair may not "
            "depend on the model. A pair is a witness when that held on every seed inside the regime.")
    return _outcome_43b(ctx, seeds, models, pairs, runs, observations, rule,
                        ("beta1", "beta2", "Theorem 4.3 (b): (beta1, beta2) working for every model"))


def theorem43b_per_model(ctx: RunContext) -> ExperimentOutcome:
    """As the literal reading, with (beta1, beta2) chosen after the data model (a pair per model)."""
    seeds, models, pairs, runs = _runs_43b(ctx)
    observations = []
    for name, sigma in models.items():
        r = len(sigma)
        scored = []
        for index, pair in enumerate(pairs):
            ms = runs[(pair, name)]
            oks = tuple(_ok_43b(m, r) for m in ms)
            scored.append((all(m["in_regime"] for m in ms), sum(holds(ok) for ok in oks), -index, pair, oks, ms))
        inside, _, _, pair, oks, ms = max(scored, key=lambda t: t[:3])  # the search for this model's pair
        observations.append(Observation(
            {"spectrum": name, "betas": _label(pair)}, holds=oks, seeds=tuple(seeds),
            at_init=tuple(aligned(m, "align0") & at_least(m["bal0"], r / C_BALANCE, what="Bal(0) >= r/c") for m in ms),
            baseline="the run's initialization (aligned and balanced before training)",
            regime=merged_regime([m["checks"] for m in ms]),
            values={"Bal(end) min": min(m["bal_end"] for m in ms), "Align(end) min": min(m["align_end"] for m in ms),
                    "pairs tried": len(pairs)}))
    rule = ("Reading 'betas chosen per model' (for every model there exist beta1, beta2): one configuration per model, "
            "with the first pair of the grid (inside the regime) that worked on the most seeds.")
    return _outcome_43b(ctx, seeds, models, pairs, runs, observations, rule,
                        ("spectrum", "betas", "Theorem 4.3 (b): a pair per model"))


# == Sections 5.3-5.4: the two stages ============================================================
STAGEWISE_MODEL = b17(KAPPA_MAX)
REVERSAL_BETAS = (0.1, 0.05, 0.02, 0.01)  # the infinite-width flow's reversal time at these beta1


def _picture(m: dict[str, Any], align_key: str, c0: float, c1: float, c2: float) -> Any:
    """The stage-wise picture on one trajectory, as measured: Stage 1 ends aligned with cond(P_A) above its
    start, and Stage 2 lowers it."""
    return (aligned(m, align_key) & above(c1, c0, what="cond(T1) > cond(0)")
            & below(c2, c1, what="cond(end) < cond(T1)"))


@functools.lru_cache(maxsize=None)
def reversal_time(beta1: float, lam: float = 1.0, horizon: float = 1e5) -> dict[str, float]:
    """The infinite-width Stage-1 flow at a fixed beta1 on Lemma B.17's spectrum: T* (the end-of-Stage-1
    conditions of Lemma B.1), the peak of cond(P_A), and the first time after T* at which cond(P_A) is back
    at its initial value kappa (inf if not within ``horizon``): for every beta1 > 0 the O(beta1) negative
    term eventually undoes Stage 1's growth."""
    from scipy.integrate import solve_ivp  # heavy (0.3 s): scipy.integrate, only the flow experiments

    model = DataModel(sigma=STAGEWISE_MODEL, lam=lam)
    fm = model.flow()
    end = stage1_end(model, beta=beta1)
    if not end["reached"]:
        return {"T*": float("nan"), "peak": float("nan"), "T_back": float("nan")}
    kappa = model.kappa

    def back(t: float, y: np.ndarray) -> float:
        return flow.tracked(y, fm)["cond"] - kappa

    back.terminal, back.direction = True, -1  # type: ignore[attr-defined]
    sol = solve_ivp(lambda t, y: flow.rhs(y, fm, beta1), (end["t1"], horizon), end["y1"], events=back,
                    dense_output=True, **ode.settings())
    ts = np.linspace(end["t1"], float(sol.t[-1]), 400)
    peak = max(flow.tracked(sol.sol(t), fm)["cond"] for t in ts)
    t_back = float(sol.t_events[0][0]) if len(sol.t_events[0]) else float("inf")
    return {"T*": float(end["t1"]), "peak": float(peak), "T_back": t_back}


def _stagewise(ctx: RunContext, length_rule: str) -> ExperimentOutcome:
    quick, seeds = ctx.quick, training_seeds(ctx.seed)
    b1s, b2s = betas(quick)
    factors = (1.0, 2.0) if quick else (1.0, 2.0, 4.0)
    n_align = N_ALIGN_QUICK if quick else N_ALIGN
    observations, table = [], []
    for b1 in b1s:
        for f in factors:
            specs = [_contrastive_spec(STAGEWISE_MODEL, s, b1, b2s[0], t1_factor=f) for s in seeds]
            ms = [measure(spec, n_align, at_t1=True) for spec in specs]
            lam = specs[0].model.lam
            extra = []
            if length_rule == "literal":
                extra.append(RegimeCheck("Stage 1 ends at T*", "Lemma B.1: T1 is the earliest time the end-of-Stage-1 "
                                         "conditions hold (T1 / T*)", f, "= 1", f == 1.0))
            elif length_rule == "relative":
                extra.append(RegimeCheck("beta1 small for this Stage-1 length", "the O(beta1) negative term integrated "
                                         "over Stage 1: lam * beta1 * T1 / T*", lam * b1 * f, f"<= {BETA1_SMALL:g}",
                                         at_most(lam * b1 * f, BETA1_SMALL, what="lam * beta1 * T1 / T*")))
            regime = merged_regime([m["checks"] for m in ms], extra)
            outcome = tuple(_picture(m, "align_T1", m["cond0"], m["cond_T1"], m["cond_end"]) for m in ms)
            # the untrained model as a run of zero steps: cond(T1) = cond(end) = cond(0)
            at_init = tuple(_picture(m, "align0", m["cond0"], m["cond0"], m["cond0"]) for m in ms)
            values = {"Align(T1) min": min(m["align_T1"] for m in ms), "Align(0) max": max(m["align0"] for m in ms),
                      "cond(0) median": _med(ms, "cond0"), "cond(T1) min": min(m["cond_T1"] for m in ms),
                      "cond(T1) median": _med(ms, "cond_T1"), "cond(end) max": max(m["cond_end"] for m in ms),
                      "flow cond(T1)": _med(ms, "flow_cond_t1")}
            observations.append(Observation({"beta1": b1, "t1_factor": f}, holds=outcome, seeds=tuple(seeds),
                                            at_init=at_init, baseline="the untrained model (a run of zero steps)",
                                            regime=regime, values=values))
            table.append((b1, f, _held(outcome), "yes" if all(holds(c.holds) for c in regime) else
                          "no: " + ", ".join(c.name for c in regime if not holds(c.holds)), _med(ms, "T1"),
                          values["Align(T1) min"], values["cond(0) median"], _med(ms, "peak_stage1"),
                          values["cond(T1) median"], values["flow cond(T1)"], _med(ms, "cond_end")))
    reversal = [(b, *reversal_time(b).values()) for b in REVERSAL_BETAS]
    rev_rows = [(b, ts, peak, tb, tb / ts if math.isfinite(tb) else float("inf"), b * tb / ts if math.isfinite(tb)
                 else float("inf")) for b, ts, peak, tb in reversal]
    md = ["#### Sections 5.3-5.4: Stage 1 then Stage 2, over beta1 and the length of Stage 1", "",
          *markdown_table(table, ("beta1", "T1 / T*", "seeds where it held", "in regime", "T1 (steps, median)",
                                  "Align at T1 (min)", "cond(P_A) init", "max cond in Stage 1", "cond at T1 (median)",
                                  "flow cond at T1", "cond end (median)")), "",
          (f"Training seeds {seeds} (audit seed {ctx.seed}); data model: Lemma B.17's spectrum sigma = "
          f"{STAGEWISE_MODEL}, beta2 = {b2s[0]:g}. T* = the first time the end-of-Stage-1 conditions of Lemma B.1 hold "
          "(every cosine >= 0.99, noise-to-signal <= 0.01); Stage 1 runs for T1 = (T1/T*) T*. Measured per seed: "
          f"Stage 1 ends aligned (Align >= {1 - EPS_ALIGN:g}) with cond(T1) > cond(0), and Stage 2 lowers it "
          "(cond(end) < cond(T1)); the untrained model (zero steps) fails it by construction."), "",
          "The infinite-width Stage-1 flow at a fixed beta1 (lam = 1, same spectrum): when the O(beta1) negative term "
          "brings cond(P_A) back to its initial value kappa = 5:", "",
          *markdown_table(rev_rows, ("beta1", "T* (flow time)", "peak cond", "T_back (cond = kappa again)",
                                     "T_back / T*", "beta1 T_back / T*")), "",
          ("T_back / T* grows as beta1 decreases, roughly like 1/beta1 (the last column stays within a factor 3): at "
          "every fixed beta1 tried a Stage 1 long enough undoes the growth, so 'a small beta1' is small relative to "
          "the length of Stage 1.")]
    return ExperimentOutcome(
        statistic="median log(cond(T1) / cond(0)) over the runs (Stage 1)",
        value=float(np.median([math.log(o.values["cond(T1) median"] / o.values["cond(0) median"]) for o in observations])),
        effect_size=float(np.median([math.log(o.values["cond(end) max"] / o.values["cond(T1) median"])
                                     for o in observations])),
        interval=(min(o.values["cond(T1) min"] for o in observations), max(o.values["cond(T1) median"] for o in observations)),
        seeds=seeds, interval_note="effect: median Stage-2 log change of cond(P_A) (worst seed at the end); interval: "
                                   "[min cond(T1) over every run, max median cond(T1) over the configurations]",
        parameters=_parameters(_contrastive_spec(STAGEWISE_MODEL, seeds[0], b1s[0], b2s[0]), quick,
                               beta1_grid=list(b1s), t1_factors=list(factors), training_seeds=seeds,
                               reversal_betas=list(REVERSAL_BETAS)),
        observations=observations, markdown="\n".join(md),
        map_axes=("beta1", "t1_factor", "Stage-wise picture: beta1 x T1/T*"))


def stagewise(ctx: RunContext) -> ExperimentOutcome:
    """Stage 1 (small beta1, until T*) aligns while cond(P_A) grows; Stage 2 (beta2) lowers it.

    T* is Lemma B.1's end of Stage 1; longer Stage-1 lengths are run and reported outside the regime."""
    return _stagewise(ctx, "literal")


def stagewise_any_length(ctx: RunContext) -> ExperimentOutcome:
    """As the literal reading, for every Stage-1 length T1 = T*, 2T*, 4T* at each small beta1."""
    return _stagewise(ctx, "any")


def stagewise_relative(ctx: RunContext) -> ExperimentOutcome:
    """As the literal reading, for Stage-1 lengths with lam * beta1 * T1/T* <= 0.1."""
    return _stagewise(ctx, "relative")


# -- shared ---------------------------------------------------------------------------------------------
def _parameters(spec: RunSpec, quick: bool, **extra: Any) -> dict[str, Any]:
    m = spec.model
    return {"r": m.r, "d_xi": m.d_xi, "sigma": list(m.sigma), "sigma_xi": m.sigma_xi, "lam": m.lam, "width": spec.m,
            "eta0": spec.eta0, "eta": round(spec.eta, 6), "stage1_end": f"rho_min >= {1 - spec.tol_rho:g} and "
            f"noise/signal <= {spec.tol_noise:g}", "aligned": f"Align >= {1 - EPS_ALIGN:g} (Monte Carlo, +- {MC_RADIUS} "
            "standard errors)", "ode": f"{ode.METHOD}, rtol {ode.RTOL:g}, atol {ode.ATOL:g}, stated error {ode.ERROR:g}",
            "balanced": f"Bal >= r/{C_BALANCE:g}", "profile": "quick" if quick else "audit", **extra}


def figure(ctx: RunContext, specs: list[RunSpec], name: str) -> str:
    """Figure 1 style: cond(P_A), min cosine and balance along training for the given runs, with the
    infinite-width flow dashed."""
    if ctx.out_dir is None:
        return ""

    fig, axes = subplots(1, 3, figsize=(15, 3.6))
    for spec in specs:
        run = cached_train(spec)
        twin = flow_twin(spec, run, refine=4)
        label = f"sigma = {tuple(round(s, 2) for s in spec.model.sigma)}"
        for ax, key in zip(axes, ("cond", "rho_min", "balance")):
            line, = ax.plot(run["t"], run[key], lw=1.5, label=label)
            ax.plot(twin["t"], twin[key], ls="--", lw=1, color=line.get_color())
    for ax, title in zip(axes, ("condition number of P_A", "min cosine rho_k", "balance score")):
        ax.set_title(title + " (dashed: infinite-width flow)", fontsize=9)
        ax.set_xlabel("flow time t = eta x steps")
    axes[0].set_yscale("log")
    axes[0].legend(fontsize=6)
    save_figure(fig, Path(ctx.out_dir) / name, dpi=100)
    return f"![Ren & Li Figure 1 re-run]({name})"

