"""What every family built from trained encoders shares (the runs are :mod:`training.snapshots`).

The training runs as prerequisites (:func:`trained_runs`), a snapshot read as a finite mixture of the field's
shared library (:func:`snapshot_mixture`: class c = digit) and the :class:`Learned` mixin. A paper composes its
own families of trained encoders from these (Merad et al.'s: theorems/papers/merad/learned.py); their subjects
are the same objects as the random families', so the quantities, the shrinker and the witness format are
shared; only the source of the subjects differs (``origin = "learned"``), and the report says so.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from numerics.mixture import FiniteMixture
from theorems.engine.prerequisite import Prerequisite
from training.snapshots import RunSpec, Snapshot, ensure_trained, training_seconds


def trained_runs(runs: Iterable[RunSpec], seed: int) -> list[Prerequisite]:
    """The digits runs ``runs`` as the audit with seed ``seed`` trains them, as prerequisites."""
    out = []
    for spec in runs:
        spec = spec.for_audit_seed(seed)
        out.append(Prerequisite(f"digits-{spec.name}-{spec.key()}", ensure_trained, (spec,), training_seconds(spec)))
    return out


def snapshot_mixture(snap: Snapshot, uniform: bool) -> FiniteMixture:
    """Class c = digit; D_c uniform over the embedded evaluation images of digit c."""
    classes = np.unique(snap.labels)
    rho = np.full(classes.size, 1.0 / classes.size) if uniform else snap.class_freq / snap.class_freq.sum()
    return FiniteMixture.create(rho, [snap.embeddings[snap.labels == c] for c in classes])


class Learned:
    """Mixin for families of trained encoders: the subjects are the snapshots of the runs (the
    exhaustive list) -- no random draws and no adversarial starts. Put it first in the bases."""

    origin = "learned"

    def strategy(self) -> None:
        return None

    def random_start(self, rng: np.random.Generator) -> None:
        return None
