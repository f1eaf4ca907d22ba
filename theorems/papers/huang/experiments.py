"""Huang et al. on trained encoders: InfoNCE and cross-correlation (Barlow Twins) on digits.

Encoders (the small conv net) are trained with two augmented views of each image as the
positive pair (``positives="views"``: random shifts and noise), by InfoNCE and by the
cross-correlation loss, 3 seeds each. A snapshot becomes an augmented-data subject: 5 images
per digit (n = 50 samples, equal masses), A(x) = the image and 2 fixed augmented views, and
the encoder's values on them -- normalized to the sphere for InfoNCE (the slides assume
||f|| = 1) and per coordinate (E f_i^2 = 1) for the cross-correlation loss.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from numerics.seeds import run_seed
from training.snapshots import RunSpec, Snapshot, run_snapshots
from theorems import Prerequisite, RunContext, save_figure, subplots
from theorems.subjects import Family, Snapshots, Subject
from theorems.subjects.learned import trained_runs
from theorems.papers.huang import augmented as ag
from theorems.papers.huang.augmentation import AugmentedData
from theorems.papers.huang.subjects import KNOBS, RADII, learned_family, make_subject, separated_plan, setting

SEEDS = (0, 1, 2)
EPS = 0.5  # S_eps: every pair of a sample's augmentations within 0.5 in the embedding
LAMBDA = 5e-3  # the cross-correlation loss's off-diagonal weight


def _runs(loss: str, quick: bool) -> tuple[RunSpec, ...]:
    """The training runs, numbered by their index in SEEDS: ``spec.for_audit_seed(seed)`` (or ``trained_runs``) is
    the run the audit at ``seed`` trains (the one seed rule); the subject families take the audit seed from
    ``SubjectFamily.for_seed``, the report artifacts from ``RunContext.seed``."""
    steps, log_every, seeds = (30, 15, SEEDS[:1]) if quick else (300, 100, SEEDS)
    return tuple(RunSpec(f"huang-{loss}", seed=s, loss=loss, positives="views", augment=True, aug_views=2,
                         per_class=5, steps=steps, log_every=log_every, batch_size=128) for s in seeds)


def delta_for(inputs: np.ndarray, labels: np.ndarray) -> float:
    """delta = the median augmentation distance d_A between two samples of the same digit."""
    s = ag.AugmentedSetting.create(labels, np.full(labels.size, 1 / labels.size), inputs,
                                   np.zeros(inputs.shape[:2] + (1,)), 10)
    dist = ag.augmentation_distance(s)
    same = (labels[:, None] == labels[None, :]) & ~np.eye(labels.size, dtype=bool)
    return float(np.median(dist[same]))


def subject(snap: Snapshot, norm: str) -> Subject:
    n = snap.labels.size
    data = AugmentedData.create(snap.labels, np.full(n, 1.0 / n), snap.aug_inputs, 10)
    return make_subject("table", norm, data, snap.aug_feats, r=1.0, lam=LAMBDA, eps=EPS,
                        delta=delta_for(snap.aug_inputs, snap.labels), samples=False, source=snap.describe())


def learned_augmented(loss: str) -> Family:
    """Snapshots of InfoNCE ("sphere": ||f|| = 1) or cross-correlation ("coord": E f_i^2 = 1) runs on digits, as
    table encoders with K = 10 digits (the random families' K <= 4 would reject every snapshot)."""
    norm = "sphere" if loss == "infonce" else "coord"

    def subjects(quick: bool, seed: int) -> Iterable[Subject]:
        for spec in _runs(loss, quick):
            for snap in run_snapshots(spec.for_audit_seed(seed)):
                yield subject(snap, norm)

    def prerequisites(quick: bool, seed: int) -> list[Prerequisite]:
        return trained_runs(_runs(loss, quick), seed)

    return learned_family(f"learned encoders (digits, {loss}, two views)", norm, LAMBDA,
                          Snapshots(subjects, prerequisites))


def learned_families() -> tuple[Family, Family]:
    return learned_augmented("infonce"), learned_augmented("barlow")


def sigma_and_theorem2(ctx: RunContext) -> str:
    """The plots of the report: sigma against delta, and the Theorem 2 bound against Err(G_f)."""
    out_dir, quick = ctx.out_dir, ctx.quick
    snaps = [s for spec in _runs("infonce", quick) for s in run_snapshots(spec.for_audit_seed(ctx.seed))]
    first = setting(subject(snaps[0], "sphere"))
    deltas = np.quantile(ag.augmentation_distance(first), np.linspace(0.02, 1.0, 15))
    sigmas = [ag.sigma_of(first, float(d))[0] for d in deltas]
    points = []
    for snap in snaps:
        s = setting(subject(snap, "sphere"))
        sigma, _ = ag.sigma_of(s, delta_for(snap.aug_inputs, snap.labels))
        err = ag.classification_error(s, ag.nn_predict(s))
        points.append((snap.describe(), (1 - sigma) + ag.r_eps(s, EPS), err))
    out_dir.mkdir(parents=True, exist_ok=True)
    fig, (a1, a2) = subplots(1, 2, figsize=(10, 4))
    a1.plot(deltas, sigmas, "o-")
    a1.set_xlabel("delta")
    a1.set_ylabel("sigma (maximum-clique main parts)")
    a1.set_title("(sigma, delta)-augmentation of the digits subject")
    bound = [p[1] for p in points]
    err = [p[2] for p in points]
    a2.scatter(bound, err)
    top = max(bound + err + [1e-3])
    a2.plot([0, top], [0, top], "k--", lw=1, label="Err = bound")
    a2.set_xlabel("(1 - sigma) + R_eps (Theorem 2's bound)")
    a2.set_ylabel("measured Err(G_f)")
    a2.set_title("InfoNCE encoders on digits")
    a2.legend(fontsize=8)
    png = save_figure(fig, out_dir / "huang.sigma_theorem2.png", dpi=100)
    lines = ["#### sigma(delta) and Theorem 2's bound on InfoNCE encoders trained on digits", "",
             f"![sigma and Theorem 2]({png.name})", "",
             "| snapshot | (1 - sigma) + R_eps | Err(G_f) |", "| --- | --- | --- |"]
    lines += [f"| {d} | {b:.3f} | {e:.3f} |" for d, b, e in points]
    offsets = SEEDS[:1] if quick else SEEDS
    lines += ["", (f"Training seeds {', '.join(str(s) for s in offsets)} of the audit seed {ctx.seed} "
                   "(the one seed rule: numerics.seeds.run_seed).")]
    lines += ["", (f"eps = {EPS}; delta = the median same-digit augmentation distance. The bound of Theorem 2 "
                   "needs its divergence condition too (checked per subject by huang.theorem2); this table shows "
                   "the two sides for every snapshot.")]
    return "\n".join(lines)


BOUNDARY_STREAM = "huang.theorem2_boundary"


def theorem2_boundary(ctx: RunContext) -> str:
    """Theorem 2 where it says something: separated subjects pushed toward the divergence condition's
    boundary (their seed from the audit seed: the one seed rule, stream BOUNDARY_STREAM), their bound
    (1 - sigma) + R_eps against Err(G_f)."""
    rng = np.random.default_rng(run_seed(ctx.seed, BOUNDARY_STREAM))
    n = 24 if ctx.quick else 80
    rows = []
    for i in range(n):
        plan = separated_plan(rng, int(rng.integers(2, 5)), float(rng.choice(RADII)), KNOBS[i % len(KNOBS)])
        with np.errstate(all="ignore"):
            s = plan.toward_boundary()
        terms = ag.divergence_terms(s.setting, s.r, s.delta, s.eps)
        if not terms.holds_robustly:
            continue
        err = ag.classification_error(s.setting, ag.nn_predict(s.setting))
        main_mass, _, main_size = ag.main_good_misclassified(s.setting, s.delta, s.eps)
        rows.append((plan.K, plan.knob, 1 - terms.sigma + terms.R, err, main_mass, main_size, terms.slack / s.r ** 2))
    informative = [r for r in rows if 0 < r[2] < 1]
    lines = ["#### Theorem 2 near its divergence condition's boundary", "",
             (f"{n} separated subjects drawn for audit seed {ctx.seed}, each moved by bisection to where the "
              f"divergence condition (as printed, with a slack above {ag.CONDITION_MARGIN:g} r^2) barely holds; "
              f"{len(rows)} meet it, "
              f"{len(informative)} with a bound strictly between 0 and 1, "
              f"{sum(r[3] > 0 for r in informative)} of them with Err(G_f) > 0.")]
    if ctx.out_dir is not None and rows:
        ctx.out_dir.mkdir(parents=True, exist_ok=True)
        fig, ax = subplots(1, 1, figsize=(5, 4))
        for knob, marker in zip(("mass", "pull", "noise"), "os^"):
            pts = [r for r in rows if r[1] == knob]
            ax.scatter([r[2] for r in pts], [r[3] for r in pts], marker=marker, label=f"knob: {knob}", alpha=0.7)
        top = max([r[2] for r in rows] + [r[3] for r in rows] + [1e-3])
        ax.plot([0, top], [0, top], "k--", lw=1, label="Err = bound")
        ax.set_xlabel("(1 - sigma) + R_eps")
        ax.set_ylabel("Err(G_f)")
        ax.set_title("divergence condition at its boundary")
        ax.legend(fontsize=8)
        png = save_figure(fig, ctx.out_dir / "huang.theorem2_boundary.png", dpi=100)
        lines += ["", f"![Theorem 2 at the boundary]({png.name})"]
    if informative:
        worst = max(informative, key=lambda r: r[3] / r[2])
        lines += ["", (f"Largest Err/bound: {worst[3]:.4f} / {worst[2]:.4f} (K = {worst[0]}, knob {worst[1]}); "
                       f"misclassified mass inside the main parts and S_eps: max {max(r[4] for r in rows):.3g} "
                       f"over {sum(r[5] for r in rows)} such samples; relative slack of the condition: median "
                       f"{float(np.median([r[6] for r in rows])):.2e}.")]
    return "\n".join(lines)
