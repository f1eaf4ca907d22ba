"""Wen & Li: the training runs of the dynamics claims, their per-run metrics, the regime checks
measured on each configuration, and the verdict of each configuration.

A configuration is a data model (Definition 2.1, footnote-1 noise variants), a learner (with or
without masks, the bias threshold) and a list of seeds (the audit seed and the next ones). Runs and
their metrics are cached (``training.cache.cached_run``); the same seed gives the same runs.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from theorems.engine.experiment import RegimeCheck
from theorems.engine.verdict import Verdict
from theorems.papers.wen import model as wm
from theorems.papers.wen.model import Data, Learner, Run

N_SEEDS = 2
QUICK_SEEDS = 1
EVAL_VERSION = "2"
N_REP = 4000  # samples (z != 0) for the per-sample representation split
N_FIRE = 4000  # samples for the firing rates
TOL = 0.02  # probe levels: "beats" / "no better than" the raw baseline by more than this

# regime thresholds (each a reading of a sentence of the paper; see proofs_md/wen.*.md)
KAPPA_MIN = 4.0  # "dense noise dominating each sparse direction": sigma^2 >= 4 p
SIGMA_TAIL = 0.05  # "sigma = o(1)": P(|<M_j, xi>| >= 1/2) = 2 Phi(-1/(2 sigma)) <= 5 %
NORM_RATIO = 4.0  # "large norm": E||xi||^2 = d sigma^2 >= 4 (a present atom has ||M_j z_j||^2 = 1)
ADVANTAGE_MAX = 2.0  # A.5 premise: the exact stage-I sparse advantage over the growth phase <= 2
LOTTERY_MIN = 0.9  # "m >> d1": P(every atom is the top atom of >= k neurons at initialization) >= 0.9
RAW_R2_MAX = 0.25  # "a linear probe on raw inputs fails": exact oracle R^2 of <a, z> from x <= 1/4
RAW_ERR_MIN = 0.10  # ... and the oracle linear classifier of sign(<a, z>) errs on >= 10 % ("constant probability")
ALIVE_MIN = 0.01  # footnote 3 "as long as the neurons are not killed": each neuron active on >= 1 %
DENSE_MAX = 0.2  # "suppress the dense features": at most 20 % of ||W||_F^2 outside span(M)
DENSE_FAIL = 0.5


@dataclass(frozen=True)
class Config:
    data: Data
    learner: Learner

    def label(self) -> str:
        d, lrn = self.data, self.learner
        noise = "" if d.noise == "isotropic" else f", {d.noise} x{d.excess:g}"
        return f"d={d.d}, kappa={d.kappa:g}{noise}, {'masks' if lrn.augment else 'none'}, c={lrn.bias:g}"


def seeds(seed: int, quick: bool) -> list[int]:
    return [seed + i for i in range(QUICK_SEEDS if quick else N_SEEDS)]


MASKS = Learner(augment=True, bias=2.5)
NONE = Learner(augment=False, bias=0.0)


def masks_grid(quick: bool) -> list[Config]:
    if quick:
        return [Config(Data(), MASKS)]
    out = [Config(Data(kappa=k), wm.with_(MASKS, bias=c)) for k in (2.0, 4.0) for c in (1.5, 2.5)]
    return out + [Config(Data(d=128), MASKS)]


def none_grid(quick: bool) -> list[Config]:
    """Theorem 3.2's models at bias 0, as its proof trains (Lemmas F.1, F.2; footnote 4)."""
    if quick:
        return [Config(Data(), NONE)]
    return [Config(Data(kappa=k), NONE) for k in (2.0, 4.0)] + [Config(Data(d=128), NONE)]


def bias_grid(quick: bool) -> list[Config]:
    """Footnote 3's biases without augmentation: the bias threshold c (b_i = c sigma ||w_i||) raised
    as with masks, at the default noise level (and at sigma^2/p = 2 in the full profile)."""
    kappas = (4.0,) if quick else (2.0, 4.0)
    return [Config(Data(kappa=k), wm.with_(NONE, bias=c)) for k in kappas for c in (0.0, 1.5, 2.5)]


# the downstream model: as the default but d1 = 16 atoms (m = 8 d1), so that a linear classifier on raw
# inputs fails (sigma^2 d1 = 1; at d1 = 6 the raw classifier is right on 93 % of the samples)
DOWNSTREAM_DATA = Data(d1=16)
DOWNSTREAM_M = 128


def downstream_pairs(quick: bool) -> list[tuple[Config, Config]]:
    """(masks, none) pairs: the downstream model's default pair and the main model's pairs (shared
    with wen.theorem32/34). Without augmentation the bias is 0, as in the proof of Corollary 3.3."""
    dm, dn = wm.with_(MASKS, m=DOWNSTREAM_M), wm.with_(NONE, m=DOWNSTREAM_M)
    out = [(Config(DOWNSTREAM_DATA, dm), Config(DOWNSTREAM_DATA, dn))]
    if quick:
        return out
    out += [(Config(Data(), wm.with_(MASKS, bias=cm)), Config(Data(), NONE)) for cm in (1.5, 2.5)]
    out.append((Config(Data(d=128), MASKS), Config(Data(d=128), NONE)))
    out.append((Config(Data(kappa=2.0), MASKS), Config(Data(kappa=2.0), NONE)))
    return out


def footnote_grid(quick: bool) -> list[Config]:
    variants = [("diagonal", 3.0), ("dense", 3.0)] if quick else \
        [("diagonal", 3.0), ("coordinate", 3.0), ("dense", 1.0), ("dense", 3.0)]
    return [Config(Data(noise=n, excess=e), MASKS) for n, e in variants]


# == one run and its metrics ===========================================================================
def evaluate(run: Run) -> dict[str, Any]:
    """Train (cached) and measure (cached): weights, history and every metric the claims read."""
    from training.cache import cached_run

    arrays = wm.run_cached(run)
    spec = {**run.spec(), "eval": EVAL_VERSION}
    metrics = cached_run("wen-eval", spec, lambda: _measure(run, arrays))
    return {**arrays, **{k: (v.item() if np.ndim(v) == 0 else v) for k, v in metrics.items()}, "seed": run.seed}


def _measure(run: Run, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    data = run.data
    W, b = arrays["W"], arrays["b"]
    M = data.dictionary()
    rng = np.random.default_rng([run.seed, data.d, 5])
    table = wm.atom_table(W, M)
    fire = wm.firing(W, b, data, N_FIRE, rng)
    x, z, xi = data.sample_active(N_REP, rng)
    s_in, n_in = (z @ M.T) @ W.T, xi @ W.T
    active = wm.features(W, b, x) != 0
    informative = active.any(axis=1)
    sig = np.linalg.norm(s_in * active, axis=1)[informative]
    noi = np.linalg.norm(n_in * active, axis=1)[informative]
    ratio = sig / np.maximum(noi, 1e-300)
    noise_fire = float(np.mean(wm.features(W, b, xi) != 0))
    xtr, ztr, xte, zte = wm.probe_data(data, run.seed)
    pr = wm.probes(wm.features(W, b, xtr), ztr, wm.features(W, b, xte), zte)
    stage1 = arrays["step"] <= run.learner.stage1  # the bias-0 phase (stage I)
    growth = float(np.max(arrays["norm"][stage1]) / arrays["norm"][0])
    return {"singletons": table["singletons"], "counts": table["counts"], "covered": table["covered"],
            "min_count": table["min_count"], "max_count": table["max_count"], "dense_share": table["dense_share"],
            "min_fire": float(fire.min()), "informative": float(informative.mean()),
            "ratio_q50": float(np.median(ratio)) if ratio.size else float("nan"),
            "ratio_q90": float(np.quantile(ratio, 0.9)) if ratio.size else float("nan"),
            "ratio_q10": float(np.quantile(ratio, 0.1)) if ratio.size else float("nan"),
            "noise_fire": noise_fire, "r2": pr["r2"], "acc": pr["acc"], "growth": growth,
            "advantage": wm.growth_advantage(data, run.learner, growth)}


def raw_baseline(data: Data, seed: int) -> dict[str, float]:
    xtr, ztr, xte, zte = wm.probe_data(data, seed)
    return {**wm.probes(xtr, ztr, xte, zte), "oracle_r2": wm.oracle_raw_r2(data)}


def runs_of(config: Config, seed_list: list[int]) -> list[dict[str, Any]]:
    return [evaluate(Run(config.data, config.learner, s)) for s in seed_list]


# == regime checks ========================================================================================
def model_checks(data: Data) -> list[RegimeCheck]:
    """Conditions of Definition 2.1 read at finite size, exact on the model."""
    from scipy.special import ndtr  # the normal CDF: scipy.stats.norm.cdf computes ndtr (and imports in ~1 s)

    M = data.dictionary()
    along = data.atom_noise()  # noise variance along each atom (sigma^2 for isotropic noise)
    kappa = float(along.min() / data.p)
    tail = float(2.0 * ndtr(-1.0 / (2.0 * math.sqrt(along.max()))))
    inf = float(np.abs(M).max() * math.sqrt(data.d / math.log(data.d)))
    return [
        RegimeCheck("dense noise dominating each sparse direction", "p << sigma^2 (Lemma F.1/A.5, Section 3)",
                    kappa, f"min_j M_j^T Sigma_xi M_j / p >= {KAPPA_MIN:g}", kappa >= KAPPA_MIN - 1e-12),
        RegimeCheck("sigma = o(1)", "|<M_j, xi>| = o(1) w.h.p. (Section 2.1)", tail,
                    f"max_j P(|<M_j, xi>| >= 1/2) <= {SIGMA_TAIL:g}", tail <= SIGMA_TAIL),
        RegimeCheck("||M_j||_inf small", "||M_j||_inf <= O~(1/sqrt d) (Definition 2.1)", inf,
                    "max |M_kj| sqrt(d / log d) <= 3", inf <= 3.0),
    ]


def width_check(m: int, d1: int) -> RegimeCheck:
    k = wm.needed_per_atom(m, d1)
    prob = wm.lottery_probability(m, d1, k)
    return RegimeCheck("width m >> d1", f"every atom is the top atom of >= Omega(m/d1) = {k} neurons at "
                       "initialization w.h.p. (Lemma B.2 (f), Theorem 3.4)", prob,
                       f"exact probability >= {LOTTERY_MIN:g} (m = {m}, d1 = {d1})", prob >= LOTTERY_MIN)


def raw_checks(data: Data) -> list[RegimeCheck]:
    r2 = wm.oracle_raw_r2(data)
    err = 1.0 - wm.oracle_raw_accuracy(data)
    return [RegimeCheck("a linear probe on raw inputs failing (regression)", "'the noise level is still much larger "
                        "than the signal size, thus linear models will fail' (Section 3)", r2,
                        f"exact oracle R^2 of <a, z> from x <= {RAW_R2_MAX:g}", r2 <= RAW_R2_MAX),
            RegimeCheck("a linear probe on raw inputs failing (classification)", "'linear models will fail with "
                        "constant probability' (Section 3)", err, f"error of the oracle linear classifier "
                        f"sign(<M a, x>) >= {RAW_ERR_MIN:g}", err >= RAW_ERR_MIN)]


def norm_check(data: Data) -> RegimeCheck:
    e = data.d * data.sigma ** 2
    return RegimeCheck("dense noise with large norm", "||xi|| >> ||M z|| (Introduction, Section 2.1)", e,
                       f"E||xi||^2 = d sigma^2 >= {NORM_RATIO:g}", e >= NORM_RATIO)


def alive_check(runs: list[dict[str, Any]], learner: Learner) -> RegimeCheck:
    low = min(r["min_fire"] for r in runs)
    return RegimeCheck("neurons not killed", "footnote 3: 'as long as the neurons are not killed'", low,
                       f"every neuron active on >= {ALIVE_MIN:g} of the samples",
                       learner.bias == 0 or low >= ALIVE_MIN)


def advantage_check(runs: list[dict[str, Any]]) -> RegimeCheck:
    a = max(r["advantage"] for r in runs)
    return RegimeCheck("approximately equal growth without masks",
                       "Lemma A.5/F.1: the sparse rate p + sigma^2 and the dense rate sigma^2 are approximately "
                       "equal, 'the difference does not matter since the growth rate is exponential'", a,
                       f"exact-rate advantage F^(rho-1) over the measured growth F <= {ADVANTAGE_MAX:g}",
                       a <= ADVANTAGE_MAX)


def checks_masks(config: Config, runs: list[dict[str, Any]]) -> list[RegimeCheck]:
    return [*model_checks(config.data), width_check(config.learner.m, config.data.d1),
            alive_check(runs, config.learner)]


def checks_none(config: Config, runs: list[dict[str, Any]]) -> list[RegimeCheck]:
    return [*model_checks(config.data), norm_check(config.data), advantage_check(runs),
            alive_check(runs, config.learner)]


# == per-configuration verdicts ================================================================================
def verdict_theorem32(runs: list[dict[str, Any]]) -> Verdict:
    """Per sample the noise part of the representation exceeds the signal part w.h.p. (q90 < 1) in
    every seed: consistent; the signal part exceeds it for most samples (median > 1) in every seed:
    refuted; inconclusive otherwise."""
    q90 = [r["ratio_q90"] for r in runs]
    q50 = [r["ratio_q50"] for r in runs]
    if all(v < 1 for v in q90):
        return Verdict.CONSISTENT
    if all(v > 1 for v in q50):
        return Verdict.REFUTED
    return Verdict.INCONCLUSIVE


def theorem34_holds(r: dict[str, Any], d1: int, k: int) -> bool:
    return r["covered"] == d1 and r["min_count"] >= k and r["dense_share"] <= DENSE_MAX


def theorem34_fails(r: dict[str, Any], d1: int) -> bool:
    return r["covered"] < d1 or r["dense_share"] > DENSE_FAIL


def verdict_theorem34(runs: list[dict[str, Any]], d1: int, m: int) -> Verdict:
    """Every atom covered by >= k = ceil(m / (4 d1)) singleton neurons and the dense share <= 0.2 in
    every seed: consistent; an atom never learned or the dense share > 1/2 in every seed: refuted."""
    k = wm.needed_per_atom(m, d1)
    if all(theorem34_holds(r, d1, k) for r in runs):
        return Verdict.CONSISTENT
    if all(theorem34_fails(r, d1) for r in runs):
        return Verdict.REFUTED
    return Verdict.INCONCLUSIVE


def corollaries(aug: dict[str, Any], none: dict[str, Any], raw: dict[str, float]) -> tuple[bool, bool]:
    """(Corollary 3.5 holds, Corollary 3.3 holds) for one seed.

    3.5: with masks both probes beat the raw-input probes by more than TOL and leave the failing
    levels (R^2 > RAW_R2_MAX, error < RAW_ERR_MIN); 3.3: without augmentation neither probe beats
    the raw-input probes by more than TOL and both stay at failing levels (R^2 <= RAW_R2_MAX,
    error >= RAW_ERR_MIN). Chance is R^2 = 0 and accuracy 1/2."""
    c35 = (aug["r2"] > raw["r2"] + TOL and aug["acc"] > raw["acc"] + TOL
           and aug["r2"] > RAW_R2_MAX and 1.0 - aug["acc"] < RAW_ERR_MIN)
    c33 = (none["r2"] <= raw["r2"] + TOL and none["acc"] <= raw["acc"] + TOL
           and none["r2"] <= RAW_R2_MAX and 1.0 - none["acc"] >= RAW_ERR_MIN)
    return c35, c33


def verdict_downstream(pairs: list[tuple[dict[str, Any], dict[str, Any]]], raw: dict[str, float]) -> Verdict:
    res = [corollaries(a, n, raw) for a, n in pairs]
    if all(c35 and c33 for c35, c33 in res):
        return Verdict.CONSISTENT
    if all(not c35 for c35, _ in res) or all(not c33 for _, c33 in res):
        return Verdict.REFUTED
    return Verdict.INCONCLUSIVE


def mean(runs: list[dict[str, Any]], key: str) -> float:
    return float(np.mean([r[key] for r in runs]))


def row(config: Config, runs: list[dict[str, Any]], checks: list[RegimeCheck], verdict: Verdict,
        **extra: Any) -> dict[str, Any]:
    failed = [c.name for c in checks if not c.holds]
    return {"config": config.label(), "d": config.data.d, "kappa": config.data.kappa, "bias": config.learner.bias,
            "noise": config.data.noise, "excess": config.data.excess, "augment": config.learner.augment,
            "verdict": verdict, "in_regime": not failed, "out_of_regime": failed,
            "regime": {c.name: c.value for c in checks}, "seeds": [r.get("seed") for r in runs], **extra}


def parameters() -> dict[str, Any]:
    return {"data": asdict(Data()), "p": Data().p, "masks_learner": asdict(MASKS), "none_learner": asdict(NONE),
            "init_std": "1/d", "seeds_full": N_SEEDS, "seeds_quick": QUICK_SEEDS,
            "thresholds": {"kappa_min": KAPPA_MIN, "sigma_tail": SIGMA_TAIL, "norm_ratio": NORM_RATIO,
                           "advantage_max": ADVANTAGE_MAX, "lottery_min": LOTTERY_MIN, "raw_r2_max": RAW_R2_MAX,
                           "raw_err_min": RAW_ERR_MIN,
                           "alive_min": ALIVE_MIN, "dense_max": DENSE_MAX, "singleton_cos2": wm.SINGLETON,
                           "per_atom_constant": wm.PER_ATOM, "probe_tol": TOL}}
