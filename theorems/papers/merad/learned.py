"""Merad et al.'s families of trained encoders (Section 5): snapshots of the digits runs as the Section 3 finite
mixtures (:func:`learned_mixtures`), as triplets of Section 4 (:func:`LearnedTriplets`), and their output norms
(:func:`NormSnapshots`, Assumption 2 / Figure 3).

The subjects are the same objects as the random families' (:mod:`theorems.papers.merad.mixtures`,
:mod:`theorems.papers.merad.triplets`), so the quantities, the shrinker and the witness format are shared; only
the source of the subjects differs (``origin = "learned"``). The runs and a snapshot's mixture are the field's
(:mod:`theorems.subjects.learned`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

import numpy as np
import sympy

from theorems import quantity
from theorems.papers.merad import at_init
from theorems.papers.merad.mixtures import snapshot_family
from theorems.papers.merad.mixtures import subject as mixture_subject
from theorems.papers.merad.triplets import QUANTITIES as TRIPLET_QUANTITIES, triplet_parts
from theorems.subjects import Choice, Family, Given, Measured, Snapshots, Subject
from theorems.subjects.learned import snapshot_mixture, trained_runs
from training.snapshots import RunSpec, run_snapshots

# learned encoders (Merad et al. Section 5, Figure 3 / Assumption 2)
out_norm_min = quantity("out_norm_min", lambda s, xp: s.norm_min, range=(0, None), doc="min_x ||f(x)|| over the data")
out_norm_max = quantity("out_norm_max", lambda s, xp: s.norm_max, range=(0, None), doc="max_x ||f(x)|| over the data")

#: the latent classes of scikit-learn's digits (the data every trained run of this package uses)
DIGIT_CLASSES = 10


def learned_mixtures(runs: Sequence[RunSpec], quick_runs: Sequence[RunSpec], uniform: bool = False,
                     ks: Sequence[int] = (1,), label: str = "", every_step: bool = True,
                     quantities: Sequence[sympy.Symbol] = ()) -> Family:
    """Snapshots of trained runs as finite mixtures: a composed family whose subjects are the snapshots
    (:class:`~theorems.subjects.Snapshots`: no random draws, the runs as prerequisites).

    Args:
        runs: the full set of runs (audit); ``quick_runs`` the small set the fast test
            profile uses (trained in seconds, cached).
        uniform: rho uniform (Proposition 1) instead of the digits' class frequencies.
        ks: the k of (9)-(10) to pair with each snapshot (Proposition 1); N comes from the run.
        every_step: every logged snapshot (else the first and last of each run; the quick sweep
            always takes those two only).
        quantities: a paper's own quantities on these subjects, on top of the finite-mixture ones.
    """
    runs, quick_runs, ks = tuple(runs), tuple(quick_runs), tuple(ks)

    def subjects(quick: bool, seed: int) -> Iterable[Any]:
        for spec in quick_runs if quick else runs:
            snaps = run_snapshots(spec.for_audit_seed(seed))
            if quick or not every_step:
                snaps = [snaps[0], snaps[-1]]
            for snap in snaps:
                mix = snapshot_mixture(snap, uniform)
                for k in ks:
                    subject = mixture_subject(mix, N=spec.n_negatives, k=k, source=snap.describe())
                    if snap is snaps[0]:  # the run's initialization: the baseline of merad.at_init
                        at_init.register(subject.source, (k, uniform), subject)
                    yield subject

    # the sizes of the runs' snapshots (the bounds validate() and witness files enforce): a class per digit,
    # per_class evaluation images each, the encoder's output dimension, N up to the runs' own, k as listed
    # (at most N_C - 1)
    specs = runs + quick_runs
    return snapshot_family(
        "learned encoders (digits" + (f", {label}" if label else "") + ")",
        Snapshots(subjects, lambda quick, seed: trained_runs(quick_runs if quick else runs, seed)),
        uniform=uniform, classes=(1, DIGIT_CLASSES), dims=(1, max((s.d_out for s in specs), default=1)),
        support=max((s.per_class for s in specs), default=1),
        negatives=(1, max((s.n_negatives for s in specs), default=1)), k_max=max(ks, default=1),
        quantities=quantities)


def LearnedTriplets(outputs: Callable[[bool, int], list[tuple[str, np.ndarray]]], label: str,
                    dims: tuple[int, int] = (1, 64)) -> Family:
    """Network outputs on fixed training triplets: z_i = (f(x_i), f(x_i+), f(x_i-)), a composed family with the
    parts of :func:`~theorems.papers.merad.triplets.Triplets` (z' = 0: z_next = z) and C the largest output norm
    of the run (any finite C > 0).

    ``outputs(quick, seed)`` returns, for the full or the quick sweep and the audit seed, a list of
    (description, z (n, 3, d)).
    """

    def subjects(quick: bool, seed: int) -> Iterable[Subject]:
        for description, triplets in outputs(quick, seed):
            C = float(np.max(np.linalg.norm(triplets, axis=2)))
            for i, z in enumerate(triplets):
                z = np.asarray(z, dtype=np.float64)
                yield Subject({"d": z.shape[1]}, {"C": C, "z": z, "z_next": z.copy()}, f"{description}, triplet {i}")

    return Family(f"learned encoders ({label})", dims={"d": dims},
                  parts=triplet_parts("ball", Choice((), lo=0.0, open_lo=True)), quantities=TRIPLET_QUANTITIES,
                  snapshots=Snapshots(subjects), max_confirm_size=10 ** 9)


def NormSnapshots(runs: Sequence[RunSpec], quick_runs: Sequence[RunSpec], end_only: bool = False) -> Family:
    """min/max ||f(x)|| along training (Merad et al. Assumption 2, Figure 3): one subject per logged step of
    each run (``end_only``: the last logged step only, 'at the end of the training'), parts ``norm_min`` >= 0 and
    ``norm_max`` >= norm_min (a diverged run's NaN stays a subject: the claim, not the domain, says what it means; a
    witness file cannot hold one)."""
    runs, quick_runs = tuple(runs), tuple(quick_runs)

    def subjects(quick: bool, seed: int) -> Iterable[Subject]:
        for spec in quick_runs if quick else runs:
            snaps = run_snapshots(spec.for_audit_seed(seed))
            if snaps:  # the run's initialization: the baseline of merad.at_init
                at_init.register(snaps[0].describe(), None, snaps[0].norm_min)
            for snap in snaps[-1:] if end_only else snaps:
                yield Subject({}, {"norm_min": snap.norm_min, "norm_max": snap.norm_max}, snap.describe())

    name = "learned encoders (digits, output norms" + (", last logged step)" if end_only else ")")
    return Family(name, dims={},
                  parts={"norm_min": Measured(0.0), "norm_max": Given(lambda c: Measured(c["norm_min"]))},
                  quantities=(out_norm_min, out_norm_max),
                  snapshots=Snapshots(subjects, lambda quick, seed: trained_runs(quick_runs if quick else runs, seed)))


__all__ = ["DIGIT_CLASSES", "LearnedTriplets", "NormSnapshots", "learned_mixtures", "out_norm_max", "out_norm_min"]
