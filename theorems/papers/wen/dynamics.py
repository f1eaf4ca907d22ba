"""Wen & Li: the training runs of the dynamics claims, their per-run metrics (on the trained network
and on its own initialization), the regime checks measured on each configuration, and the per-seed
outcome of each claim's rule (True, False, or None when the run cannot tell). The engine reads
every verdict (by the rules the README's "Reading a verdict" states): nothing here decides one.

A configuration is a data model (Definition 2.1, footnote-1 noise variants), a learner (with or
without masks, the bias threshold) and a list of seeds: runs 0 .. MIN_SEEDS - 1 of the stream
:data:`STREAM` of the audit seed (the one seed rule, :func:`numerics.seeds.run_seeds`), shared by every
dynamics claim and every configuration (paired comparisons). Runs and their metrics are cached
(``training.cache.cached_run``); the same seed gives the same runs.

Every outcome and regime condition is a measured relation (:func:`theorems.at_most`, ...) or an exact
fact (a count): the engine decides it with its tolerance. Where a rule has three outcomes (holds, fails,
the run cannot tell), it asks the engine (:func:`theorems.holds`) which relation is decisive and reports
that relation.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from numerics.seeds import run_seeds
from theorems import MIN_SEEDS, AllOf, Comparison, RegimeCheck, above, at_least, at_most, below, holds
from theorems.papers.wen import model as wm
from theorems.papers.wen.exact import INF_LIMIT, z_radius
from theorems.papers.wen.model import Data, Learner, Run
from training.cache import cached_run

STREAM = "wen.dynamics"  # the training runs every dynamics claim shares (numerics.seeds)
N_SEEDS = MIN_SEEDS  # a run costs 1-2 s (measured), so the quick profile reads MIN_SEEDS seeds too
QUICK_SEEDS = MIN_SEEDS
EVAL_VERSION = "3"
N_REP = 4000  # samples (z != 0) for the per-sample representation split
N_FIRE = 4000  # samples for the firing rates
#: the probes' margin over the raw-input probes. Corollaries 3.3 / 3.5 print no margin (their bounds are lost; Section 3
#: compares with raw inputs: "more efficient than using raw inputs", "fail to achieve meaningful l2-loss/accuracy"), so
#: the literal margin is 0 and the checker's 0.02 is only a guard; each comparison also carries the probes' sampling
#: error (:func:`probe_errors`, ~0.003-0.01 at n = 20000), so equal probes are not "better" at margin 0. Every rule that uses it is decided over the whole range [0, TOL] (issue 39 item 2): a seed holds (fails)
#: only when it holds (fails) at every margin in the range, i.e. at the least favourable end; else it cannot tell.
TOL = 0.02
TOL_RANGE = (0.0, TOL)

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
    """The training seeds of the audit at ``seed``: runs 0, 1, ... of :data:`STREAM` (the one seed rule)."""
    return run_seeds(seed, STREAM, QUICK_SEEDS if quick else N_SEEDS)


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
    return [Config(Data(kappa=k), NONE) for k in (2.0, 4.0)] + [Config(Data(d=d), NONE) for d in TREND_DIMS[1:]]


TREND_DIMS = (64, 128, 256)  # Theorem 3.2's o(1) read along d (the default model at d = 64, 128, 256)


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
    # the run's own initialization, with the trained network's bias rule (b_i = c sigma ||w_i||): the
    # untrained network of the same architecture, on the same samples and probe data
    W0 = wm.initial_weights(run)
    b0 = run.learner.bias_factor(run.learner.steps) * data.sigma * np.linalg.norm(W0, axis=1)
    table0 = wm.atom_table(W0, M)
    q0 = _split_quantiles(W0, b0, x, z @ M.T, xi)
    pr0 = wm.probes(wm.features(W0, b0, xtr), ztr, wm.features(W0, b0, xte), zte)
    # the stage-III iterates (Theorem 3.4's "some iterations T")
    s3 = [wm.atom_table(Ws, M) for Ws in arrays["W_stage3"]]
    return {"singletons": table["singletons"], "counts": table["counts"], "covered": table["covered"],
            "min_count": table["min_count"], "max_count": table["max_count"], "dense_share": table["dense_share"],
            "min_fire": float(fire.min()), "informative": float(informative.mean()),
            "ratio_q50": float(np.median(ratio)) if ratio.size else float("nan"),
            "ratio_q90": float(np.quantile(ratio, 0.9)) if ratio.size else float("nan"),
            "ratio_q10": float(np.quantile(ratio, 0.1)) if ratio.size else float("nan"),
            "noise_fire": noise_fire, "r2": pr["r2"], "acc": pr["acc"], "growth": growth,
            "advantage": wm.growth_advantage(data, run.learner, growth),
            "init_covered": table0["covered"], "init_min_count": table0["min_count"],
            "init_dense_share": table0["dense_share"], "init_ratio_q50": q0[0], "init_ratio_q90": q0[1],
            "init_r2": pr0["r2"], "init_acc": pr0["acc"],
            "s3_step": np.asarray(arrays["step_stage3"], dtype=float),
            "s3_covered": np.array([t["covered"] for t in s3], dtype=float),
            "s3_min_count": np.array([t["min_count"] for t in s3], dtype=float),
            "s3_dense_share": np.array([t["dense_share"] for t in s3], dtype=float)}


def _split_quantiles(W: np.ndarray, b: np.ndarray, x: np.ndarray, signal: np.ndarray, xi: np.ndarray
                     ) -> tuple[float, float]:
    """(median, 0.9-quantile) over the samples with an active neuron of ||(W M z)_A|| / ||(W xi)_A||."""
    active = wm.features(W, b, x) != 0
    informative = active.any(axis=1)
    sig = np.linalg.norm((signal @ W.T) * active, axis=1)[informative]
    noi = np.linalg.norm((xi @ W.T) * active, axis=1)[informative]
    ratio = sig / np.maximum(noi, 1e-300)
    if not ratio.size:
        return float("nan"), float("nan")
    return float(np.median(ratio)), float(np.quantile(ratio, 0.9))


def raw_baseline(data: Data, seed: int) -> dict[str, float]:
    """The raw-input probes of one seed's probe data, with the test sizes their sampling errors need."""
    xtr, ztr, xte, zte = wm.probe_data(data, seed)
    n_cls = float(np.count_nonzero(zte @ wm.task_vector(data.d1)))
    return {**wm.probes(xtr, ztr, xte, zte), "oracle_r2": wm.oracle_raw_r2(data), "n_reg": float(len(zte)),
            "n_cls": n_cls}


def probe_errors(r2: float, acc: float, raw: dict[str, float]) -> tuple[float, float]:
    """Standard errors of the probes' gains over the raw-input probes (same test samples): the sum of the two
    standard errors (a bound on the difference's, whatever their correlation) -- binomial for the accuracies
    (n_cls test samples with <a, z> != 0), normal-theory sqrt(4 R^2 (1 - R^2)^2 / n) for the R^2 (an
    approximation). Zero when the raw probes carry no test size (stand-in data)."""
    n_reg, n_cls = raw.get("n_reg", 0.0), raw.get("n_cls", 0.0)
    if not (n_reg > 0 and n_cls > 0):
        return 0.0, 0.0

    def se_r2(v: float) -> float:
        v = min(max(v, 0.0), 1.0)
        return math.sqrt(4.0 * v * (1.0 - v) ** 2 / n_reg)

    def se_acc(v: float) -> float:
        return math.sqrt(max(v * (1.0 - v), 0.0) / n_cls)
    return se_r2(r2) + se_r2(raw["r2"]), se_acc(acc) + se_acc(raw["acc"])


def runs_of(config: Config, seed_list: list[int]) -> list[dict[str, Any]]:
    return [evaluate(Run(config.data, config.learner, s)) for s in seed_list]


# == regime checks ========================================================================================
def model_checks(data: Data) -> list[RegimeCheck]:
    """Conditions of Definition 2.1 read at finite size, exact on the model."""
    from scipy.special import ndtr  # heavy (0.15 s): the normal CDF (scipy.stats.norm.cdf's core, 0.5 s)

    M = data.dictionary()
    along = data.atom_noise()  # noise variance along each atom (sigma^2 for isotropic noise)
    kappa = float(along.min() / data.p)
    tail = float(2.0 * ndtr(-1.0 / (2.0 * math.sqrt(along.max()))))
    inf = float(np.abs(M).max() * math.sqrt(data.d / math.log(data.d)))
    return [
        RegimeCheck("dense noise dominating each sparse direction", "p << sigma^2 (Lemma F.1, Sections A.5 and 3)",
                    kappa, f"min_j M_j^T Sigma_xi M_j / p >= {KAPPA_MIN:g}", at_least(kappa, KAPPA_MIN)),
        RegimeCheck("sigma = o(1)", "|<M_j, xi>| = o(1) w.h.p. (Section 2.1)", tail,
                    f"max_j P(|<M_j, xi>| >= 1/2) <= {SIGMA_TAIL:g}", at_most(tail, SIGMA_TAIL)),
        RegimeCheck("||M_j||_inf small", "||M_j||_inf <= O~(1/sqrt d) (Definition 2.1)", inf,
                    f"max |M_kj| sqrt(d / log d) <= {INF_LIMIT:g}", at_most(inf, INF_LIMIT)),
    ]


def width_check(m: int, d1: int) -> RegimeCheck:
    k = wm.needed_per_atom(m, d1)
    prob = wm.lottery_probability(m, d1, k)
    return RegimeCheck("width m >> d1", f"every atom is the top atom of >= Omega(m/d1) = {k} neurons at "
                       "initialization w.h.p. (Lemma B.2 (f), Theorem 3.4)", prob,
                       f"exact probability >= {LOTTERY_MIN:g} (m = {m}, d1 = {d1})", at_least(prob, LOTTERY_MIN))


def raw_checks(data: Data) -> list[RegimeCheck]:
    """The raw-input probes fail: the oracle R^2 (exact) and the oracle classifier's error (Monte Carlo over
    ORACLE_SAMPLES samples; its error: the Monte Carlo radius, z_radius(1) binomial standard errors)."""
    r2 = wm.oracle_raw_r2(data)
    err = 1.0 - wm.oracle_raw_accuracy(data)  # over wm.ORACLE_SAMPLES samples
    radius = z_radius(1) * math.sqrt(err * (1.0 - err) / wm.ORACLE_SAMPLES)
    return [RegimeCheck("a linear probe on raw inputs failing (regression)", "'the noise level is still much larger "
                        "than the signal size, thus linear models will fail' (Section 3)", r2,
                        f"exact oracle R^2 of <a, z> from x <= {RAW_R2_MAX:g}", at_most(r2, RAW_R2_MAX)),
            RegimeCheck("a linear probe on raw inputs failing (classification)", "'linear models will fail with "
                        "constant probability' (Section 3)", err, f"error of the oracle linear classifier "
                        f"sign(<M a, x>) >= {RAW_ERR_MIN:g}", at_least(err, RAW_ERR_MIN, error=radius))]


def norm_check(data: Data) -> RegimeCheck:
    e = data.d * data.sigma ** 2
    return RegimeCheck("dense noise with large norm", "||xi|| >> ||M z|| (Introduction, Section 2.1)", e,
                       f"E||xi||^2 = d sigma^2 >= {NORM_RATIO:g}", at_least(e, NORM_RATIO))


def alive_check(runs: list[dict[str, Any]], learner: Learner) -> RegimeCheck:
    low = min(r["min_fire"] for r in runs)
    return RegimeCheck("neurons not killed", "footnote 3: 'as long as the neurons are not killed'", low,
                       f"every neuron active on >= {ALIVE_MIN:g} of the samples",
                       True if learner.bias == 0 else at_least(low, ALIVE_MIN))


def advantage_check(runs: list[dict[str, Any]]) -> RegimeCheck:
    a = max(r["advantage"] for r in runs)
    return RegimeCheck("approximately equal growth without masks",
                       "Section A.5 / Lemma F.1: the sparse rate p + sigma^2 and the dense rate sigma^2 are approximately "
                       "equal, 'the difference does not matter since the growth rate is exponential'", a,
                       f"exact-rate advantage F^(rho-1) over the measured growth F <= {ADVANTAGE_MAX:g}",
                       at_most(a, ADVANTAGE_MAX))


def checks_masks(config: Config, runs: list[dict[str, Any]]) -> list[RegimeCheck]:
    return [*model_checks(config.data), width_check(config.learner.m, config.data.d1),
            alive_check(runs, config.learner)]


def checks_none(config: Config, runs: list[dict[str, Any]]) -> list[RegimeCheck]:
    return [*model_checks(config.data), norm_check(config.data), advantage_check(runs),
            alive_check(runs, config.learner)]


# == per-seed outcomes of each rule: a measured relation (the engine decides it), an exact fact, or None ==========
def theorem32_outcome(q50: float, q_whp: float | None, level: str = "1 - 1/d") -> Comparison | None:
    """Per sample the noise part of the representation exceeds the signal part w.h.p.: the (1 - delta)-
    quantile ``q_whp`` of signal/noise < 1 holds (None: delta is too small for the run's samples to
    estimate that quantile, so holding cannot be shown); the signal part exceeds it for most samples
    (median > 1) fails under every reading of "w.h.p." (delta < 1/2); in between the run cannot tell.
    The decisive relation is reported."""
    if not math.isfinite(q50):
        return None
    if q_whp is not None and math.isfinite(q_whp):
        noise_wins = below(q_whp, 1.0, what=f"({level})-quantile of signal/noise")
        if holds(noise_wins):
            return noise_wins
    noise_wins_mostly = at_most(q50, 1.0, what="median of signal/noise")
    if not holds(noise_wins_mostly):
        return noise_wins_mostly
    return None


TAIL_VERSION = "1"


def split_tail(config: Config, run: dict[str, Any]) -> dict[str, float]:
    """Theorem 3.2's per-sample split at the w.h.p. level of the literal reading (delta = 1/d, shared with
    wen.lemma_b3): the (1 - 1/d)-quantile of ||signal part|| / ||noise part|| over N_REP fresh samples (z != 0),
    on the trained network and on its initialization (cached; the trained weights are the cached run's)."""
    data, lrn = config.data, config.learner
    spec = {**Run(data, lrn, run["seed"]).spec(), "tail": TAIL_VERSION}

    def compute() -> dict[str, float]:
        rng = np.random.default_rng([run["seed"], data.d, 7])
        x, z, xi = data.sample_active(N_REP, rng)
        signal = z @ data.dictionary().T
        W0 = wm.initial_weights(Run(data, lrn, run["seed"]))
        b0 = lrn.bias_factor(lrn.steps) * data.sigma * np.linalg.norm(W0, axis=1)
        level = 1.0 - 1.0 / data.d
        return {"q_whp": _split_quantile(np.asarray(run["W"]), np.asarray(run["b"]), x, signal, xi, level),
                "init_q_whp": _split_quantile(W0, b0, x, signal, xi, level), "n": float(N_REP)}
    return {k: float(v) for k, v in cached_run("wen-tail", spec, compute).items()}


def _split_quantile(W: np.ndarray, b: np.ndarray, x: np.ndarray, signal: np.ndarray, xi: np.ndarray,
                    level: float) -> float:
    active = wm.features(W, b, x) != 0
    informative = active.any(axis=1)
    sig = np.linalg.norm((signal @ W.T) * active, axis=1)[informative]
    noi = np.linalg.norm((xi @ W.T) * active, axis=1)[informative]
    ratio = sig / np.maximum(noi, 1e-300)
    return float(np.quantile(ratio, level)) if ratio.size else float("nan")


def theorem34_outcome(covered: float, min_count: float, dense_share: float, d1: int, k: int
                      ) -> Comparison | AllOf | bool | None:
    """Every atom has >= k = ceil(m / (4 d1)) singleton neurons and <= DENSE_MAX of ||W||_F^2 lies
    outside span(M): holds; an atom without any singleton neuron (no constant of Omega(m/d1) can
    help) or more than DENSE_FAIL outside span(M): fails; otherwise the run cannot tell. The counts are
    exact (integers); the dense share is a measured relation; the decisive one is reported."""
    covered, min_count = int(covered), int(min_count)
    if covered < d1:
        return False  # an atom without a singleton neuron: an exact count
    learned = at_least(min_count, k, what="min singletons per atom") & at_most(dense_share, DENSE_MAX,
                                                                                 what="dense share")
    if holds(learned):
        return learned
    not_dense = at_most(dense_share, DENSE_FAIL, what="dense share")
    if not holds(not_dense):
        return not_dense
    return None


def stage3_outcome(run: dict[str, Any], d1: int, k: int, when: str) -> Comparison | AllOf | bool | None:
    """Theorem 3.4's rule over the stage-III iterates of one run: ``when`` = "some" (some iterate T,
    as printed: "for some iterations T"), "every" (every logged stage-III iterate) or "final". Over
    several iterates the decisive one's outcome is reported: the first holding (some) or failing
    (every) iterate, the final iterate when all fail (some), all of them when all hold (every)."""
    if when == "final":
        return theorem34_outcome(run["covered"], run["min_count"], run["dense_share"], d1, k)
    outs = [theorem34_outcome(c, n, s, d1, k) for c, n, s in
            zip(run["s3_covered"], run["s3_min_count"], run["s3_dense_share"])]
    decided = [None if o is None else holds(o) for o in outs]
    if when == "some":
        if True in decided:
            return outs[decided.index(True)]
        return outs[-1] if all(h is False for h in decided) else None
    if False in decided:
        return outs[decided.index(False)]
    return AllOf(tuple(outs)) if all(h is True for h in decided) else None


def theorem34_at_init(run: dict[str, Any], d1: int, k: int) -> Comparison | AllOf | bool | None:
    """Theorem 3.4's rule on the run's initialization (an at_init entry: the engine decides it)."""
    return theorem34_outcome(run["init_covered"], run["init_min_count"], run["init_dense_share"], d1, k)


def corollary35_at(r2: float, acc: float, raw: dict[str, float], margin: float) -> AllOf:
    """Corollary 3.5 on one encoder at one probe margin: both probes beat the raw-input probes by more
    than ``margin`` and leave the failing levels (R^2 > RAW_R2_MAX, error < RAW_ERR_MIN)."""
    e_r2, e_acc = probe_errors(r2, acc, raw)
    return (above(r2, raw["r2"] + margin, error=e_r2, what=f"R^2 against raw R^2 + margin {margin:g}")
            & above(acc, raw["acc"] + margin, error=e_acc, what=f"accuracy against raw accuracy + margin {margin:g}")
            & above(r2, RAW_R2_MAX, what="R^2") & below(1.0 - acc, RAW_ERR_MIN, what="error"))


def corollary33_at(r2: float, acc: float, raw: dict[str, float], margin: float) -> AllOf:
    """Corollary 3.3 on one encoder at one probe margin: neither probe beats the raw-input probes by
    more than ``margin`` and both stay at failing levels (R^2 <= RAW_R2_MAX, error >= RAW_ERR_MIN)."""
    e_r2, e_acc = probe_errors(r2, acc, raw)
    return (at_most(r2, raw["r2"] + margin, error=e_r2, what=f"R^2 against raw R^2 + margin {margin:g}")
            & at_most(acc, raw["acc"] + margin, error=e_acc, what=f"accuracy against raw accuracy + margin {margin:g}")
            & at_most(r2, RAW_R2_MAX, what="R^2") & at_least(1.0 - acc, RAW_ERR_MIN, what="error"))


def over_margins(rule: Any, r2: float, acc: float, raw: dict[str, float]) -> AllOf | None:
    """``rule`` decided over every margin in TOL_RANGE: the rule is monotone in the margin, so it holds
    at every margin iff it holds at the least favourable end, and fails at every margin iff it fails at
    the most favourable one. The decisive relation is reported; None when the two ends disagree (the
    outcome would rest on the checker's margin)."""
    ends = [rule(r2, acc, raw, m) for m in TOL_RANGE]
    if all(holds(e) for e in ends):
        return ends[0] & ends[1]
    if not any(holds(e) for e in ends):
        return next(e for e in ends if not holds(e))
    return None


def corollary35(r2: float, acc: float, raw: dict[str, float]) -> AllOf | None:
    """Corollary 3.5 over the admissible probe margins [0, TOL] (:func:`over_margins`)."""
    return over_margins(corollary35_at, r2, acc, raw)


def corollary33(r2: float, acc: float, raw: dict[str, float]) -> AllOf | None:
    """Corollary 3.3 over the admissible probe margins [0, TOL] (:func:`over_margins`). Chance: R^2 = 0,
    accuracy 1/2."""
    return over_margins(corollary33_at, r2, acc, raw)


def largest_margin(r2: float, acc: float, raw: dict[str, float]) -> float:
    """The smaller of the two probes' gains over the raw-input probes: Corollary 3.5's beat part holds for
    every margin below it, Corollary 3.3's no-better part for every margin at or above it (for the report)."""
    return float(min(r2 - raw["r2"], acc - raw["acc"]))


def mean(runs: list[dict[str, Any]], key: str) -> float:
    return float(np.mean([r[key] for r in runs]))


def config_values(config: Config) -> dict[str, Any]:
    """A configuration's settings as JSON values (the keys of the verdict map)."""
    return {"d": config.data.d, "d1": config.data.d1, "kappa": config.data.kappa, "bias": config.learner.bias,
            "noise": config.data.noise, "excess": config.data.excess, "m": config.learner.m,
            "augment": config.learner.augment}


def parameters() -> dict[str, Any]:
    return {"data": asdict(Data()), "p": Data().p, "masks_learner": asdict(MASKS), "none_learner": asdict(NONE),
            "init_std": "1/d", "seeds_full": N_SEEDS, "seeds_quick": QUICK_SEEDS,
            "thresholds": {"kappa_min": KAPPA_MIN, "sigma_tail": SIGMA_TAIL, "norm_ratio": NORM_RATIO,
                           "advantage_max": ADVANTAGE_MAX, "lottery_min": LOTTERY_MIN, "raw_r2_max": RAW_R2_MAX,
                           "raw_err_min": RAW_ERR_MIN,
                           "alive_min": ALIVE_MIN, "dense_max": DENSE_MAX, "singleton_cos2": wm.SINGLETON,
                           "per_atom_constant": wm.PER_ATOM, "probe_margin_range": list(TOL_RANGE)}}
