"""Subject families built from trained encoders (the runs are :mod:`training.snapshots`).

The subjects are the same :class:`MixtureSubject` / :class:`TripletSubject` objects as the
random families, so the quantities, the shrinker and the witness format are shared; only the
source of the subjects differs (``origin = "learned"``), and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import sympy

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity
from theorems.subjects.mixtures import Mixtures, MixtureSubject
from theorems.subjects.triplets import TripletSubject, Triplets
from theorems.engine.prerequisite import Prerequisite
from training.snapshots import RunSpec, Snapshot, ensure_trained, run_snapshots, training_seconds

# learned encoders (Merad et al. Section 5, Figure 3 / Assumption 2)
out_norm_min = quantity("out_norm_min", range=(0, None), doc="min_x ||f(x)|| over the data")
out_norm_max = quantity("out_norm_max", range=(0, None), doc="max_x ||f(x)|| over the data")


def trained_runs(runs: Iterable[RunSpec], seed: int) -> list[Prerequisite]:
    """The digits runs ``runs`` as the audit with seed ``seed`` trains them, as prerequisites."""
    out = []
    for spec in runs:
        spec = spec.for_audit_seed(seed)
        out.append(Prerequisite(f"digits-{spec.name}-{spec.key()}", ensure_trained, (spec,), training_seconds(spec)))
    return out


#: the latent classes of scikit-learn's digits (the data every trained run of this package uses)
DIGIT_CLASSES = 10


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


class LearnedMixtures(Learned, Mixtures):
    """Snapshots of trained runs as finite mixtures.

    Args:
        runs: the full set of runs (audit); ``quick_runs`` the small set the fast test
            profile uses (trained in seconds, cached).
        uniform: rho uniform (Proposition 1) instead of the digits' class frequencies.
        ks: the k of (9)-(10) to pair with each snapshot (Proposition 1); N comes from the run.
        every_step: every logged snapshot (else the first and last of each run; the quick sweep
            always takes those two only).
    """

    def __init__(self, runs: Sequence[RunSpec], quick_runs: Sequence[RunSpec], uniform: bool = False,
                 ks: Sequence[int] = (1,), label: str = "", every_step: bool = True) -> None:
        super().__init__(uniform=uniform)
        self.runs, self.quick_runs, self.ks = tuple(runs), tuple(quick_runs), tuple(ks)
        self.every_step = every_step  # False: only each run's first and last snapshot
        self.name = "learned encoders (digits" + (f", {label}" if label else "") + ")"
        # the sizes of the runs' snapshots (the bounds validate() and from_json() enforce): a class per
        # digit, per_class evaluation images each, the encoder's output dimension, N up to the runs' own
        specs = self.runs + self.quick_runs
        self.classes = (1, DIGIT_CLASSES)
        self.dims = (1, max((s.d_out for s in specs), default=1))
        self.max_support = max((s.per_class for s in specs), default=1)
        self.negatives = (1, max((s.n_negatives for s in specs), default=1))  # the shrinker lowers N

    def k_bounds(self, n_classes: int) -> tuple[int, int]:
        """k as listed (``ks``), at most N_C - 1 (the shrinker lowers k with N_C)."""
        return 1, max(1, min(max(self.ks, default=1), n_classes - 1))

    def prerequisites(self, quick: bool, seed: int) -> list[Prerequisite]:
        return trained_runs(self.quick_runs if quick else self.runs, seed)

    def exhaustive(self, quick: bool = False) -> Iterable[MixtureSubject]:
        for spec in self.quick_runs if quick else self.runs:
            snaps = run_snapshots(spec.for_audit_seed(self.seed))
            if quick or not self.every_step:
                snaps = [snaps[0], snaps[-1]]
            for snap in snaps:
                mix = snapshot_mixture(snap, self.uniform)
                for k in self.ks:
                    yield MixtureSubject(mix, N=spec.n_negatives, k=k, task=(), source=snap.describe())

    def describe(self, subject: MixtureSubject) -> str:
        return f"[{subject.source}] " + super().describe(subject)


class LearnedTriplets(Learned, Triplets):
    """Network outputs on fixed training triplets: z_i = (f(x_i), f(x_i+), f(x_i-)).

    ``outputs(quick, seed)`` returns, for the full or the quick sweep and the audit seed, a list of
    (description, z (n, 3, d)).
    """

    def __init__(self, outputs: Callable[[bool, int], list[tuple[str, np.ndarray]]], label: str,
                 dims: tuple[int, int] = (1, 64)) -> None:
        super().__init__("ball", dims=dims)
        self.outputs = outputs
        self.name = f"learned encoders ({label})"

    def radius_bounds(self) -> tuple[float | None, float | None]:
        """C is the largest output norm of the run: any finite C > 0."""
        return 0.0, None

    def exhaustive(self, quick: bool = False) -> Iterable[TripletSubject]:
        for description, triplets in self.outputs(quick, self.seed):
            C = float(np.max(np.linalg.norm(triplets, axis=2)))
            for i, z in enumerate(triplets):
                yield TripletSubject(np.asarray(z, dtype=np.float64), np.zeros_like(z), C,
                                     source=f"{description}, triplet {i}")

    def describe(self, subject: TripletSubject) -> str:
        return f"[{subject.source}] " + super().describe(subject)


@dataclass(frozen=True)
class NormSubject:
    """The min and max output norm over the data at one logged step of one run."""

    norm_min: float
    norm_max: float
    source: str = ""


class NormSnapshots(Learned, SubjectFamily):
    """min/max ||f(x)|| along training (Merad et al. Assumption 2, Figure 3)."""

    def __init__(self, runs: Sequence[RunSpec], quick_runs: Sequence[RunSpec]) -> None:
        self.runs, self.quick_runs = tuple(runs), tuple(quick_runs)
        self.name = "learned encoders (digits, output norms)"

    symbols = frozenset({out_norm_min, out_norm_max})

    def prerequisites(self, quick: bool, seed: int) -> list[Prerequisite]:
        return trained_runs(self.quick_runs if quick else self.runs, seed)

    def exhaustive(self, quick: bool = False) -> Iterable[NormSubject]:
        for spec in self.quick_runs if quick else self.runs:
            for snap in run_snapshots(spec.for_audit_seed(self.seed)):
                yield NormSubject(snap.norm_min, snap.norm_max, snap.describe())

    def quantities(self, subject: NormSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        value = {out_norm_min: subject.norm_min, out_norm_max: subject.norm_max}
        return {s: xp.asarray(value[s]) for s in symbols}

    def validate(self, subject: NormSubject) -> None:
        """Norms are >= 0 and the minimum is at most the maximum (a diverged run's NaN stays a subject:
        the claim, not the domain, says what it means; a witness file cannot hold one, see from_json)."""
        lo, hi = subject.norm_min, subject.norm_max
        if lo < 0 or hi < 0 or lo > hi:
            raise AssumptionError(f"{self.name}: norm_min = {lo!r}, norm_max = {hi!r}: need "
                                  "0 <= norm_min <= norm_max")

    def to_json(self, subject: NormSubject) -> dict[str, Any]:
        return {"norm_min": subject.norm_min, "norm_max": subject.norm_max, "source": subject.source}

    def from_json(self, data: Any) -> NormSubject:
        where = self.name
        check_fields(data, ("norm_min", "norm_max"), ("source",), where)
        lo = jf.real(data, "norm_min", 0.0, None, where)
        return NormSubject(lo, jf.real(data, "norm_max", lo, None, where), jf.string(data, "source", where, default=""))

    def describe(self, subject: NormSubject) -> str:
        return f"[{subject.source}] min ||f|| = {subject.norm_min:.4g}, max ||f|| = {subject.norm_max:.4g}"
