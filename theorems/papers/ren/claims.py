"""Claims of Ren & Li (multimodal contrastive learning with normalized linear learners).

Source: ``002_1392d7a5a1d595de.txt``. The extracted text lost its inline formulas; the model,
losses and metrics are rebuilt from the words (``theorems/papers/ren/model.py``; every choice is listed
in ``proofs_md/ren.*.md``). The two definitions are checked by exact computations on finite
sets, the Section 4 example by computing its scores, and Theorem 4.3 and the stage-wise picture
of Sections 5.3-5.4 as dynamics claims over seeds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from theorems.engine.claim import ExperimentClaim, Kind, RunContext, Source
from theorems.engine.figures import save_figure, subplots
from theorems.engine.registry import add_structure, register
from theorems.papers.ren.model import (
    DataModel,
    TrainSpec,
    alignment_score,
    balance_score,
    cached_train,
    condition_number,
    stable_rank,
)
from theorems.engine.experiment import ExperimentOutcome, markdown_table, median_interval_note, rule
from theorems.engine.verdict import Verdict

FILE = "002_1392d7a5a1d595de.txt"
SEEDS = (0, 1, 2, 3, 4)
QUICK_SEEDS = (0, 1)
ALIGNED = 0.95  # "aligned": alignment score >= 1 - eps with eps = 0.05
C_BALANCE = 2.0  # "balanced": balance score >= r / c with c = 2
COND_NEAR_ONE = 2.0  # "condition number near 1": cond(W_A A) <= 2
FULL = dict(steps1=500, steps2=1500)
QUICK = dict(steps1=200, steps2=400, log_every=25)
BASE = dict(r=5, d=20, m=32, kappa=10.0, sigma_xi=0.1, batch=256, lr=0.5, beta1=0.01, beta2=5.0, lam=1.0)


def source(numbering: str) -> Source:
    return Source(file=FILE, numbering=numbering, paper="Ren & Li")



# == Definition 4.1: alignment score ==========================================================
def alignment_experiment(ctx: RunContext) -> ExperimentOutcome:
    """Constant maps on random finite sets: exactly 0 with strict inequality (ties fail),
    exactly 1/2 with random tie-breaking (ties count 1/2); an injective map scores 1."""
    seed, quick = ctx.seed, ctx.quick
    rng = np.random.default_rng(seed)
    sets = 20 if quick else 200
    worst_fail, worst_half, injective = 0.0, 0.0, 1.0
    for _ in range(sets):
        n, m = int(rng.integers(2, 50)), int(rng.integers(1, 8))
        c = rng.standard_normal(m)
        c = c / np.linalg.norm(c)
        fa = np.tile(c, (n, 1))  # every input mapped to the same point
        perm = np.roll(np.arange(n), 1)
        worst_fail = max(worst_fail, alignment_score(fa, fa, fa[perm], ties="fail"))
        worst_half = max(worst_half, alignment_score(fa, fa, fa[perm], ties="half"))
        # sanity: distinct unit vectors (identity map on distinct points) are told apart
        e = rng.standard_normal((n, m + 2))
        e /= np.linalg.norm(e, axis=1, keepdims=True)
        injective = min(injective, alignment_score(e, e, e[perm], ties="fail"))
    ok = worst_fail <= 0.5 and worst_half <= 0.5
    verdict = Verdict.CONSISTENT if ok else Verdict.REFUTED
    md = "\n".join([
        "#### Definition 4.1: alignment score of a constant map", "",
        "| tie rule | max alignment score of a constant map over the sets | claimed bound |",
        "| --- | --- | --- |",
        f"| strict inequality (ties fail) | {worst_fail:g} | <= 1/2 (paper: 0) |",
        f"| random tie-break (ties count 1/2) | {worst_half:g} | <= 1/2 (paper: 1/2) |", "",
        f"{sets} random finite sets (n in [2, 49] pairs, output dimension in [1, 7]); scores computed "
        f"exactly (equal inner products compare equal in floating point). Sanity check: mapping distinct "
        f"inputs to distinct unit vectors scores min {injective:g}.",
    ])
    return ExperimentOutcome(
        verdict=verdict, statistic="max alignment score of a constant map (ties count 1/2)", value=worst_half,
        effect_size=0.5 - worst_half, interval=(worst_fail, worst_half), seeds=[seed],
        interval_note="exact values: [score with ties failing, score with ties counting 1/2]",
        parameters={"sets": sets, "tie_rules": ["fail", "half"]}, markdown=md)


# == Definition 4.2: balance score ===========================================================
def balance_experiment(ctx: RunContext) -> ExperimentOutcome:
    """Stable rank in [1, rank]; = rank iff equal nonzero singular values; sigma_1/sigma_r <= c
    implies stable rank >= r/c^2; on embeddings f = M z with isotropic z: cond(M) <= c gives
    balance >= r/c^4 (Sigma = M M^T has eigenvalues sigma_i(M)^2)."""
    seed, quick = ctx.seed, ctx.quick
    rng = np.random.default_rng(seed)
    trials = 100 if quick else 2000
    tol = 1e-9
    viol = {"range": 0, "equal": 0, "unequal": 0, "ratio": 0}
    min_slack = {"range": np.inf, "ratio": np.inf}
    for _ in range(trials):
        r = int(rng.integers(1, 8))
        p, q = r + int(rng.integers(0, 5)), r + int(rng.integers(0, 5))
        U, _ = np.linalg.qr(rng.standard_normal((p, p)))
        V, _ = np.linalg.qr(rng.standard_normal((q, q)))
        s = np.sort(np.exp(rng.uniform(-3, 3, r)))[::-1]
        M = (U[:, :r] * s) @ V[:, :r].T
        sr = stable_rank(M)
        min_slack["range"] = min(min_slack["range"], sr - 1, r - sr)
        viol["range"] += not (1 - tol <= sr <= r * (1 + tol))
        c = s[0] / s[-1]
        min_slack["ratio"] = min(min_slack["ratio"], sr - r / c ** 2)
        viol["ratio"] += not sr >= r / c ** 2 * (1 - tol)
        if r > 1 and s[0] > s[-1] * (1 + 1e-6):
            viol["unequal"] += not sr < r
        E = (U[:, :r] * float(rng.uniform(0.1, 10))) @ V[:, :r].T  # equal nonzero singular values
        viol["equal"] += not abs(stable_rank(E) - r) <= tol * r
    # Definition 4.2 on embeddings: f = M z, z uniform on the cube (isotropic covariance)
    r = 5
    M = np.diag(np.geomspace(1, 3, r))
    z = np.sqrt(3) * rng.uniform(-1, 1, (20000, r))
    emb_bal = balance_score(z @ M.T)
    emb_bound = r / condition_number(M) ** 4
    ok = not any(viol.values())
    verdict = Verdict.CONSISTENT if ok else Verdict.REFUTED
    md = "\n".join([
        "#### Definition 4.2: stable rank facts on random matrices", "",
        "| fact | violations | min slack |", "| --- | --- | --- |",
        f"| 1 <= ||M||_F^2/||M||_2^2 <= rank M | {viol['range']} | {min_slack['range']:.3g} |",
        f"| equal nonzero singular values => stable rank = rank | {viol['equal']} | - |",
        f"| unequal singular values => stable rank < rank | {viol['unequal']} | - |",
        f"| sigma_1/sigma_r <= c => stable rank >= r/c^2 | {viol['ratio']} | {min_slack['ratio']:.3g} |", "",
        f"{trials} random matrices of rank r in [1, 7], sizes up to (r+4) x (r+4), log-uniform spectra in "
        f"[e^-3, e^3]; relative tolerance {tol:g}. On embeddings f = M z (z uniform on the cube, "
        f"cond(M) = 3, r = 5, 20 000 samples): balance score {emb_bal:.3f} >= r/cond^4 = {emb_bound:.3f}.",
    ])
    return ExperimentOutcome(
        verdict=verdict, statistic="violations of the three stable-rank facts", value=float(sum(viol.values())),
        effect_size=float(min_slack["ratio"]), interval=(float(min_slack["range"]), float(min_slack["ratio"])),
        seeds=[seed], interval_note="exact minima over the matrices: [min slack of 1 <= sr <= r, "
        "min slack of sr >= r/c^2]", parameters={"trials": trials, "tolerance": tol}, markdown=md)


# == Section 4: the rank-one-dominated example ==================================================
def example_scores(delta: float, seed: int = 0, n: int = 20000) -> dict[str, float]:
    """W_A A = W_B B = diag(1, delta, ..., delta) (W = M A^+, so the noise is annihilated)."""
    model = DataModel()
    mats = model.matrices(seed)
    data = model.sample(mats, n, np.random.default_rng(seed + 1))
    M = np.diag([1.0] + [delta] * (model.r - 1))
    WA, WB = M @ np.linalg.pinv(mats["A"]), M @ np.linalg.pinv(mats["B"])
    fa, fb = data["xa"] @ WA.T, data["xb"] @ WB.T
    fa /= np.linalg.norm(fa, axis=1, keepdims=True)
    fb /= np.linalg.norm(fb, axis=1, keepdims=True)
    return {"align": alignment_score(fa, fb, np.roll(fb, 1, axis=0)), "balance": balance_score(fa),
            "cond": condition_number(WA @ mats["A"])}


def unbalanced_experiment(ctx: RunContext) -> ExperimentOutcome:
    seed, quick = ctx.seed, ctx.quick
    r = DataModel().r
    deltas = (0.01, 0.05, 0.1, 1.0)
    n = 4000 if quick else 20000
    rows = {d: example_scores(d, seed, n) for d in deltas}
    small = [rows[d] for d in deltas if d < 1]
    aligned_unbal = all(x["align"] >= ALIGNED and x["balance"] < r / C_BALANCE for x in small)
    balanced_fix = rows[1.0]["align"] >= ALIGNED and rows[1.0]["balance"] >= r / C_BALANCE
    if aligned_unbal and balanced_fix:
        verdict = Verdict.CONSISTENT
    elif all(x["align"] < ALIGNED or x["balance"] >= r / C_BALANCE for x in small):
        verdict = Verdict.REFUTED
    else:
        verdict = Verdict.INCONCLUSIVE
    lines = ["#### Section 4 example: W_A A = W_B B = diag(1, delta, ..., delta)", "",
             "| delta | alignment score | balance score | cond(W_A A) | aligned (>= 0.95) | balanced (>= r/2) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for d in deltas:
        x = rows[d]
        lines.append(f"| {d:g} | {x['align']:.4f} | {x['balance']:.4f} | {x['cond']:.3g} | "
                     f"{x['align'] >= ALIGNED} | {x['balance'] >= r / C_BALANCE} |")
    lines += ["", f"Data model (1) with r = {r}, d = 20, kappa = 10, sigma_xi = 0.1, {n} held-out pairs; "
              "W_A = diag(1, delta, ...) A^+ maps x_A to (z_1, delta z_2, ..., delta z_r) before normalization. "
              "delta = 1 is the paper's balanced replacement (recovers z)."]
    worst = max(small, key=lambda x: x["balance"])
    return ExperimentOutcome(
        verdict=verdict, statistic="max balance score of the delta < 1 examples", value=worst["balance"],
        effect_size=rows[1.0]["balance"] - worst["balance"],
        interval=(min(x["align"] for x in small), max(x["balance"] for x in small)), seeds=[seed],
        interval_note="computed on held-out pairs: [min alignment score, max balance score] over delta < 1",
        parameters={"deltas": deltas, "n_pairs": n, "aligned_threshold": ALIGNED, "c": C_BALANCE},
        markdown="\n".join(lines))


# == Theorem 4.3 and Sections 5.3-5.4: training runs ============================================
def _specs(method: str, quick: bool) -> list[TrainSpec]:
    seeds = QUICK_SEEDS if quick else SEEDS
    sched = QUICK if quick else FULL
    return [TrainSpec(method=method, seed=s, **BASE, **sched) for s in seeds]


def runs(quick: bool) -> dict[str, list[dict[str, np.ndarray]]]:
    return {m: [cached_train(s) for s in _specs(m, quick)] for m in ("noncontrastive", "contrastive")}


def _params(quick: bool) -> dict[str, Any]:
    return {**BASE, **(QUICK if quick else FULL), "seeds": list(QUICK_SEEDS if quick else SEEDS),
            "aligned_threshold": ALIGNED, "balance_c": C_BALANCE, "cond_near_one": COND_NEAR_ONE,
            "eval_pairs": TrainSpec(method="x").n_eval}


def figure(out_dir: Path | None, quick: bool) -> str:
    """Figure 1 style: cond(W_A A), alignment and balance along training, both methods."""
    if out_dir is None:
        return ""
    data = runs(quick)
    steps1 = (QUICK if quick else FULL)["steps1"]
    fig, axes = subplots(1, 3, figsize=(15, 3.6))
    for (key, title), ax in zip((("cond", "condition number of W_A A"), ("align", "alignment score"),
                                 ("balance", "balance score (stable rank)")), axes):
        for method, colour in (("contrastive", "tab:blue"), ("noncontrastive", "tab:orange")):
            curves = data[method]
            for c in curves:
                ax.plot(c["step"], c[key], color=colour, alpha=0.25, lw=1)
            ax.plot(curves[0]["step"], np.mean([c[key] for c in curves], axis=0), color=colour, lw=2,
                    label=f"{method} (mean of {len(curves)} runs)")
        ax.axvline(steps1, color="k", ls="--", lw=1, label="contrastive: beta1 -> beta2")
        if key == "cond":
            ax.set_yscale("log")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("training step")
        ax.legend(fontsize=7)
    fig.suptitle("Ren & Li Figure 1 (re-run): contrastive vs non-contrastive, normalized linear learners",
                 fontsize=11)
    save_figure(fig, out_dir / "ren.fig1.png", dpi=100)
    return "![Ren & Li Figure 1 re-run](ren.fig1.png)"





def theorem43a(ctx: RunContext) -> ExperimentOutcome:
    """Non-contrastive: aligned but not balanced; cond(W_A A) grows from its initial value."""
    quick, out_dir = ctx.quick, ctx.out_dir
    r = BASE["r"]
    nc = runs(quick)["noncontrastive"]
    growth = np.array([np.log(c["cond"][-1] / c["cond"][0]) for c in nc])
    aligned = [c["align"][-1] >= ALIGNED for c in nc]
    unbalanced = [c["balance"][-1] < r / C_BALANCE for c in nc]
    positive = all(aligned) and all(unbalanced) and growth.min() > 0
    negative = all(not u for u in unbalanced) or all(not a for a in aligned) or growth.max() < 0
    seeds = [int(s.seed) for s in _specs("noncontrastive", quick)]
    rows = [(s, float(c["align"][-1]), float(c["balance"][-1]), float(c["cond"][0]), float(c["cond"][-1]), float(g))
            for s, c, g in zip(seeds, nc, growth)]
    md = ["#### Theorem 4.3 (a): non-contrastive training", "",
          *markdown_table(rows, ("seed", "final alignment", "final balance", "cond(W_A A) at init", "final cond(W_A A)",
                         "log(final/init cond)")), "",
          f"Verdict rule: consistent if every seed ends aligned (score >= {ALIGNED}), not balanced (balance < "
          f"r/{C_BALANCE:g} = {r / C_BALANCE:g}) and with the whole [min, max] interval of log(final/init cond) "
          "above 0; refuted if every seed is balanced, or none aligned, or the interval is below 0; inconclusive "
          "otherwise.", "", figure(out_dir, quick)]
    return ExperimentOutcome(
        verdict=rule(positive, negative), statistic="median final balance score (non-contrastive)",
        value=float(np.median([c["balance"][-1] for c in nc])), effect_size=float(np.median(growth)),
        interval=(float(growth.min()), float(growth.max())), seeds=seeds,
        interval_note=median_interval_note(len(nc)) + " (effect: log(final cond / initial cond))",
        parameters=_params(quick), markdown="\n".join(md))


def theorem43b(ctx: RunContext) -> ExperimentOutcome:
    """Contrastive (beta1 small, then beta2): aligned and balanced, cond(W_A A) near 1."""
    quick, out_dir = ctx.quick, ctx.out_dir
    r = BASE["r"]
    data = runs(quick)
    co, nc = data["contrastive"], data["noncontrastive"]
    diff = np.array([a["balance"][-1] - b["balance"][-1] for a, b in zip(co, nc)])
    ok = [c["align"][-1] >= ALIGNED and c["balance"][-1] >= r / C_BALANCE and c["cond"][-1] <= COND_NEAR_ONE
          for c in co]
    positive = all(ok) and diff.min() > 0
    negative = all(c["balance"][-1] < r / C_BALANCE for c in co) or diff.max() < 0
    seeds = [int(s.seed) for s in _specs("contrastive", quick)]
    rows = [(s, float(c["align"][-1]), float(c["balance"][-1]), float(c["cond"][-1]), float(b["balance"][-1]), float(d))
            for s, c, b, d in zip(seeds, co, nc, diff)]
    md = ["#### Theorem 4.3 (b): contrastive training, beta1 then beta2", "",
          *markdown_table(rows, ("seed", "final alignment", "final balance", "final cond(W_A A)",
                         "non-contrastive final balance", "balance difference (paired)")), "",
          f"Verdict rule: consistent if every seed ends aligned (>= {ALIGNED}), balanced (>= r/{C_BALANCE:g}) with "
          f"cond(W_A A) <= {COND_NEAR_ONE:g}, and the whole [min, max] interval of the paired balance difference "
          "(contrastive - non-contrastive, same seed = same data model and initialisation) is above 0; refuted if "
          "no seed is balanced or the interval is below 0; inconclusive otherwise.", "", figure(out_dir, quick)]
    return ExperimentOutcome(
        verdict=rule(positive, negative), statistic="median final cond(W_A A) (contrastive)",
        value=float(np.median([c["cond"][-1] for c in co])), effect_size=float(np.median(diff)),
        interval=(float(diff.min()), float(diff.max())), seeds=seeds,
        interval_note=median_interval_note(len(co)) + " (effect: paired balance difference)",
        parameters=_params(quick), markdown="\n".join(md))


def stagewise(ctx: RunContext) -> ExperimentOutcome:
    """Stage 1 aligns while cond grows; stage 2 (negative pairs at beta2) shrinks cond."""
    quick, out_dir = ctx.quick, ctx.out_dir
    co = runs(quick)["contrastive"]
    steps1 = (QUICK if quick else FULL)["steps1"]
    i1 = [int(np.searchsorted(c["step"], steps1)) for c in co]
    g1 = np.array([np.log(c["cond"][i] / c["cond"][0]) for c, i in zip(co, i1)])
    g2 = np.array([np.log(c["cond"][-1] / c["cond"][i]) for c, i in zip(co, i1)])
    aligned1 = [c["align"][i] >= ALIGNED for c, i in zip(co, i1)]
    positive = all(aligned1) and g1.min() > 0 and g2.max() < 0
    negative = g1.max() < 0 or g2.min() > 0
    seeds = [int(s.seed) for s in _specs("contrastive", quick)]
    rows = [(s, float(c["align"][i]), float(c["cond"][0]), float(c["cond"][i]), float(c["cond"][-1]), float(a), float(b))
            for s, c, i, a, b in zip(seeds, co, i1, g1, g2)]
    md = ["#### Sections 5.3-5.4: the two stages of contrastive training", "",
          *markdown_table(rows, ("seed", "alignment at end of stage 1", "cond at init", "cond at end of stage 1",
                         "cond at end of stage 2", "log cond change, stage 1", "log cond change, stage 2")), "",
          "Verdict rule: consistent if every seed is aligned at the end of stage 1, the [min, max] interval of "
          "the stage-1 log change of cond(W_A A) is above 0 and that of stage 2 below 0; refuted if the stage-1 "
          "interval is below 0 or the stage-2 interval above 0; inconclusive otherwise.", "",
          figure(out_dir, quick)]
    return ExperimentOutcome(
        verdict=rule(positive, negative), statistic="median log cond change in stage 1",
        value=float(np.median(g1)), effect_size=float(np.median(g2)),
        interval=(float(g2.min()), float(g2.max())), seeds=seeds,
        interval_note=median_interval_note(len(co)) + f" (effect: stage-2 log change; stage-1 interval "
        f"[{g1.min():.3g}, {g1.max():.3g}])", parameters=_params(quick), markdown="\n".join(md))


# == registration ===============================================================================
register(ExperimentClaim(
    id="ren.alignment_score", kind=Kind.IDENTITY, source=source("Definition 4.1 and the note after it"),
    experiment=alignment_experiment,
    encoding="Alignment score = accuracy of telling a positive pair from a negative pair by comparing inner "
             "products of the unit outputs; a constant map is checked exactly on random finite sets under both "
             "tie rules (ties fail: 0; ties count 1/2: 1/2).",
))
register(ExperimentClaim(
    id="ren.balance_score", kind=Kind.IDENTITY, source=source("Definition 4.2"),
    experiment=balance_experiment,
    encoding="Balance score = stable rank ||Sigma||_F^2/||Sigma||_2^2 of the output covariance; the range "
             "[1, rank], equality iff equal singular values, and sigma_1/sigma_r <= c => stable rank >= r/c^2 are "
             "checked on random matrices.",
))
register(ExperimentClaim(
    id="ren.unbalanced_example", kind=Kind.INEQUALITY, source=source("Section 4, 'Why balance representations "
                                                                      "are important?'"),
    experiment=unbalanced_experiment,
    encoding="W_A A = W_B B = diag(1, delta, ..., delta), delta in {0.01, 0.05, 0.1}: alignment >= 0.95 and "
             "balance < r/2 on held-out pairs of the data model; delta = 1 must be balanced.",
))
register(ExperimentClaim(
    id="ren.theorem43a", kind=Kind.DYNAMICS, source=source("Theorem 4.3 (a), Lemma B.17"),
    experiment=theorem43a,
    encoding="Minibatch gradient descent on -mean cos(f_A, f_B) with the data model of ren_model.py, 5 seeds.",
))
register(ExperimentClaim(
    id="ren.theorem43b", kind=Kind.DYNAMICS, source=source("Theorem 4.3 (b)"),
    experiment=theorem43b,
    encoding="Algorithm 3.1: symmetric InfoNCE with negative weight lam and inverse temperature beta1 = 0.01 "
             "(stage 1) then beta2 = 5 (stage 2), gradients rescaled by 1/beta, 5 seeds.",
))
register(ExperimentClaim(
    id="ren.stagewise", kind=Kind.DYNAMICS, source=source("Sections 5.3-5.4"),
    experiment=stagewise,
    encoding="The contrastive runs of ren.theorem43b, cond(W_A A) at init, end of stage 1, end of stage 2.",
))
add_structure([
    ("ren.alignment_score", "ren.unbalanced_example"), ("ren.balance_score", "ren.unbalanced_example"),
    ("ren.alignment_score", "ren.theorem43a"), ("ren.balance_score", "ren.theorem43a"),
    ("ren.alignment_score", "ren.theorem43b"), ("ren.balance_score", "ren.theorem43b"),
    ("ren.stagewise", "ren.theorem43b"),
])
