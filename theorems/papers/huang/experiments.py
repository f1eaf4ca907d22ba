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

from numerics import augmented as ag
from training.snapshots import RunSpec, Snapshot, run_snapshots
from theorems.engine.claim import RunContext
from theorems.engine.figures import save_figure, subplots
from theorems.subjects.augmented import AugmentedFamily, AugSubject, build

SEEDS = (0, 1, 2)
EPS = 0.5  # S_eps: every pair of a sample's augmentations within 0.5 in the embedding
LAMBDA = 5e-3  # the cross-correlation loss's off-diagonal weight


def _runs(loss: str, quick: bool) -> tuple[RunSpec, ...]:
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


def subject(snap: Snapshot, norm: str) -> AugSubject:
    n = snap.labels.size
    return build(snap.labels, np.full(n, 1.0 / n), snap.aug_inputs, 10, "table", norm, None, snap.aug_feats,
                 r=1.0, lam=LAMBDA, eps=EPS, delta=delta_for(snap.aug_inputs, snap.labels))


class LearnedAugmented(AugmentedFamily):
    """Snapshots of InfoNCE ("sphere") or cross-correlation ("coord") runs on digits."""

    origin = "learned"

    def __init__(self, loss: str) -> None:
        norm = "sphere" if loss == "infonce" else "coord"
        super().__init__(encoder="table", norm=norm, name=f"learned encoders (digits, {loss}, two views)")
        self.loss = loss

    def strategy(self) -> None:
        return None

    def random_start(self, rng: np.random.Generator) -> None:
        return None

    def exhaustive(self, quick: bool = False) -> Iterable[AugSubject]:
        for spec in _runs(self.loss, quick):
            for snap in run_snapshots(spec):
                yield subject(snap, self.norm)

    def shrink(self, subject: AugSubject) -> Iterable[AugSubject]:
        return ()


def learned_families() -> tuple[LearnedAugmented, LearnedAugmented]:
    return LearnedAugmented("infonce"), LearnedAugmented("barlow")


def sigma_and_theorem2(ctx: RunContext) -> str:
    """The plots of the report: sigma against delta, and the Theorem 2 bound against Err(G_f)."""
    out_dir, quick = ctx.out_dir, ctx.quick
    snaps = [s for spec in _runs("infonce", quick) for s in run_snapshots(spec)]
    first = subject(snaps[0], "sphere")
    deltas = np.quantile(ag.augmentation_distance(first.setting), np.linspace(0.02, 1.0, 15))
    sigmas = [ag.sigma_of(first.setting, float(d))[0] for d in deltas]
    points = []
    for snap in snaps:
        s = subject(snap, "sphere").setting
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
    lines += ["", f"eps = {EPS}; delta = the median same-digit augmentation distance. The bound of Theorem 2 "
              "needs its divergence condition too (checked per subject by huang.theorem2); this table shows "
              "the two sides for every snapshot."]
    return "\n".join(lines)

