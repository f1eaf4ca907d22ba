"""Training sets of fixed triplets: the setting of Lemma 7 (= Lemma 4 = Lemma 4.2) as printed.

A subject is the outputs Y (m x d) of f on the m samples of X_data and n triplets
(x_i, x_i+, x_i-) given as rows of sample indices T (n x 3), three distinct samples each (the
least the names "a sample, a positive, a negative" say). L^_un(f) = sum_i l(z_i) (11) with
z_i = (Y[T_i0], Y[T_i1], Y[T_i2]); its gradient with respect to the outputs of f is the m x d
array whose row x sums loss_{i,j} = A_j^T grad l(z_i) over every (i, j) with T_ij = x. Nothing
forces the samples of different triplets to differ (Lemma 7 grants Assumption 2 only), so a
sample may serve several triplets and their loss vectors may cancel in the gradient.

The hypothesis ||grad L^_un|| <= eps < eta/2 asks for a near-stationary point: random outputs
rarely meet it, so each drawn subject is first moved by gradient descent on L^_un (inside the ball
of Assumption 2) -- the points an optimizer reaches, where the lemma is meant to apply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics import triplet as tl
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity
from theorems.papers.merad.experiments import D_OUT, N_TRIPLETS
from theorems.subjects.learned import Learned

max_loss = quantity("max_loss", range=(0, None), doc="max_i l(z_i) over the n triplets")
grad_norm = quantity("grad_norm", range=(0, None), doc="||grad L^_un(f)||, gradient in the outputs of f")
eta_data = quantity("eta_data", range=(0, None), doc="min_x ||f(x)|| over X_data (Assumption 2)")
max_loss_vector = quantity("max_loss_vector", range=(0, None), doc="max_{i,j} ||loss_{i,j}||")
max_v2 = quantity("max_v2", range=(0, 1), doc="max_i v_2(z_i) = sigma(z_i1^T (z_i3 - z_i2))")


@dataclass(frozen=True, eq=False)
class TrainingSet:
    """Outputs Y (m, d) of f on X_data, triplets T (n, 3) of sample indices, the radius C."""

    Y: np.ndarray
    T: np.ndarray
    C: float
    source: str = ""

    @property
    def m(self) -> int:
        return int(self.Y.shape[0])


#: the radii C the random training sets are drawn with
RADII = (1.0, 3.0, 0.5)


def _triplets(Y: Any, T: np.ndarray) -> list[Any]:
    return [Y[[int(a), int(b), int(c)]] for a, b, c in T]


def gradient(Y: Any, T: np.ndarray, xp: Backend) -> Any:
    """grad of sum_i l(z_i) with respect to the rows of Y: each row sums the loss vectors of its uses."""
    rows = [[] for _ in range(int(Y.shape[0]))]
    for z, idx in zip(_triplets(Y, T), T):
        for vec, j in zip(tl.loss_vectors(z, xp), idx):
            rows[int(j)].append(vec)
    zero = Y[0] * 0
    return xp.stack([_sum(r, zero) for r in rows])


def _sum(vectors: list[Any], zero: Any) -> Any:
    total = zero
    for v in vectors:
        total = total + v
    return total


def _max(values: list[Any], xp: Backend) -> Any:
    return xp.max(xp.stack(values))


_COMPUTE = {
    max_loss: lambda Y, T, xp: _max([tl.loss(z, xp) for z in _triplets(Y, T)], xp),
    grad_norm: lambda Y, T, xp: xp.sqrt(xp.sum(gradient(Y, T, xp) ** 2)),
    eta_data: lambda Y, T, xp: xp.min(xp.sqrt(xp.sum(Y * Y, axis=1))),
    max_loss_vector: lambda Y, T, xp: _max([tl.norm(v, xp) for z in _triplets(Y, T) for v in tl.loss_vectors(z, xp)],
                                           xp),
    max_v2: lambda Y, T, xp: _max([tl.softmax_v(z, xp)[1] for z in _triplets(Y, T)], xp),
}


def _fast_gradient(Y: np.ndarray, T: np.ndarray) -> np.ndarray:
    """The same gradient in closed form, vectorized over the triplets (float64, for the descent only):
    with u = a^T (n - p) and s = sigma(u), dl/da = s (n - p), dl/dp = -s a, dl/dn = s a."""
    a, p, n = Y[T[:, 0]], Y[T[:, 1]], Y[T[:, 2]]
    s = 1.0 / (1.0 + np.exp(-np.sum(a * (n - p), axis=1, keepdims=True)))
    grad = np.zeros_like(Y)
    np.add.at(grad, T[:, 0], s * (n - p))
    np.add.at(grad, T[:, 1], -s * a)
    np.add.at(grad, T[:, 2], s * a)
    return grad


def descend(Y: np.ndarray, T: np.ndarray, C: float, steps: int, lr: float) -> np.ndarray:
    """Projected gradient descent on L^_un inside the ball of radius C (Assumption 2's upper bound)."""
    for _ in range(steps):
        Y = Y - lr * _fast_gradient(Y, T)
        norms = np.linalg.norm(Y, axis=1, keepdims=True)
        Y = np.where(norms > C, Y * C / np.maximum(norms, C), Y)
    return Y


class TrainingSets(SubjectFamily):
    """Random training sets: m samples, n triplets over them (shared samples allowed), d = 1..3,
    outputs moved by gradient descent toward a stationary point of L^_un."""

    symbols = frozenset(_COMPUTE)
    differentiable = frozenset(_COMPUTE) - {max_loss, max_v2}  # max is fine for torch, kept simple

    def __init__(self, samples: tuple[int, int] = (3, 6), triplets: tuple[int, int] = (1, 3),
                 dims: tuple[int, int] = (1, 3), steps: int = 300, disjoint: bool = False) -> None:
        self.samples, self.triplet_range, self.dims, self.steps = samples, triplets, dims, steps
        # disjoint: every sample in exactly one triplet (m = 3n), as in Theorem 1's setting (Assumption 1)
        self.disjoint = disjoint
        if disjoint and not (samples[0] <= 3 * triplets[0] and 3 * triplets[1] <= samples[1]):
            raise ValueError(f"disjoint triplets need m = 3n in {list(samples)} for every n in {list(triplets)}")
        self.name = "training sets of fixed triplets" + (" (every sample in one triplet)" if disjoint else "")

    def strategy(self) -> st.SearchStrategy[TrainingSet]:
        return _training_sets(self)

    def quantities(self, subject: TrainingSet, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        Y = xp.asarray(subject.Y) if params is None else params[0]
        return {s: _COMPUTE[s](Y, subject.T, xp) for s in symbols}

    def radius_bounds(self) -> tuple[float, float | None]:
        """C as drawn (RADII): in [0.5, 3]."""
        return min(RADII), max(RADII)

    def validate(self, subject: TrainingSet) -> None:
        """Sizes m, d, n within the family's bounds, Y finite, T an n x 3 array of sample indices with three
        distinct samples per triplet, C finite and within :meth:`radius_bounds`. That the outputs lie in the
        ball of radius C is Assumption 2, a hypothesis of the claim (merad.lemma7), not checked here."""
        Y, T = np.asarray(subject.Y), np.asarray(subject.T)
        if Y.ndim != 2 or T.ndim != 2 or T.shape[1] != 3 or not np.all(np.isfinite(Y)):
            raise AssumptionError(f"{self.name}: Y must be a finite m x d array and T an n x 3 index array")
        if not (self.samples[0] <= Y.shape[0] <= self.samples[1] and self.dims[0] <= Y.shape[1] <= self.dims[1]
                and self.triplet_range[0] <= T.shape[0] <= self.triplet_range[1]):
            raise AssumptionError(f"{self.name}: sizes m={Y.shape[0]}, d={Y.shape[1]}, n={T.shape[0]} outside "
                                  f"m in {list(self.samples)}, d in {list(self.dims)}, n in {list(self.triplet_range)}")
        if T.size and (T.min() < 0 or T.max() >= Y.shape[0]):
            raise AssumptionError(f"{self.name}: T indexes samples outside 0..{Y.shape[0] - 1}")
        if any(len(set(row.tolist())) != 3 for row in T):
            raise AssumptionError(f"{self.name}: a triplet (x_i, x_i+, x_i-) is three distinct samples of X_data")
        if self.disjoint and np.unique(T).size != T.size:
            raise AssumptionError(f"{self.name}: a sample serves two triplets")
        lo, hi = self.radius_bounds()
        C = subject.C
        if not (np.isfinite(C) and C > 0 and C >= lo and (hi is None or C <= hi)):
            raise AssumptionError(f"{self.name}: C = {C!r} is outside {jf.allowed(lo, hi)} (and C > 0)")

    # -- adversary: the outputs Y are the parameters -------------------------------------------------
    def random_start(self, rng: np.random.Generator) -> TrainingSet:
        m = int(rng.integers(self.samples[0], self.samples[1] + 1))
        n = int(rng.integers(self.triplet_range[0], self.triplet_range[1] + 1))
        d = int(rng.integers(self.dims[0], self.dims[1] + 1))
        if self.disjoint:
            m, T = 3 * n, rng.permutation(3 * n).reshape(n, 3)
        else:
            T = np.stack([rng.choice(m, 3, replace=False) for _ in range(n)])
        C = float(rng.choice([1.0, 3.0]))
        return TrainingSet(descend(rng.normal(size=(m, d)) * C / 2, T, C, self.steps, 0.05), T, C)

    def params(self, subject: TrainingSet) -> list[Any]:
        import torch

        return [torch.tensor(subject.Y, dtype=torch.float64, requires_grad=True)]

    def from_params(self, subject: TrainingSet, params: Sequence[Any]) -> TrainingSet:
        return replace(subject, Y=params[0].detach().numpy().astype(np.float64))

    # -- shrinking and witnesses ----------------------------------------------------------------------
    def shrink(self, subject: TrainingSet) -> Iterable[TrainingSet]:
        T, Y = subject.T, subject.Y
        if T.shape[0] > self.triplet_range[0]:
            for i in range(T.shape[0]):
                yield replace(subject, T=np.delete(T, i, axis=0))
        used = sorted(set(T.ravel().tolist()))
        if len(used) < Y.shape[0] and len(used) >= self.samples[0]:
            remap = {old: new for new, old in enumerate(used)}
            yield replace(subject, Y=Y[used], T=np.vectorize(remap.get)(T))
        if Y.shape[1] > self.dims[0]:
            for j in range(Y.shape[1]):
                yield replace(subject, Y=np.delete(Y, j, axis=1))
        for transform in (np.round, lambda a: np.round(a, 1), lambda a: np.round(a, 3)):
            rounded = transform(Y)
            if not np.array_equal(rounded, Y):
                yield replace(subject, Y=rounded)

    def size(self, subject: TrainingSet) -> tuple[float, ...]:
        return (subject.T.shape[0], subject.m, subject.Y.shape[1], float(np.count_nonzero(subject.Y)))

    def to_json(self, subject: TrainingSet) -> dict[str, Any]:
        return {"Y": subject.Y.tolist(), "T": subject.T.tolist(), "C": subject.C, "source": subject.source}

    def from_json(self, data: Any) -> TrainingSet:
        where = self.name
        check_fields(data, ("Y", "T", "C"), ("source",), where)
        Y = jf.real_array(data["Y"], "Y", (self.samples, self.dims), where, ("m (samples)", "d"))
        T = jf.integer_array(data["T"], "T", (self.triplet_range, 3), where, ("n (triplets)", "3 (x, x+, x-)"),
                             lo=0, hi=Y.shape[0] - 1)
        lo, hi = self.radius_bounds()
        C = jf.real(data, "C", lo, hi, where, open_lo=lo == 0)
        return TrainingSet(Y, T, C, jf.string(data, "source", where, default=""))

    def describe(self, subject: TrainingSet) -> str:
        norms = np.round(np.linalg.norm(subject.Y, axis=1), 4).tolist()
        return f"m={subject.m}, d={subject.Y.shape[1]}, triplets={subject.T.tolist()}, |f(x)|={norms}"


class LearnedTrainingSets(Learned, TrainingSets):
    """The outputs of the Section 4 network after gradient descent (merad.theorem1's runs): every
    sample of X_data in exactly one triplet, as the runs draw them (n = ``triplets`` triplets, m = 3 n
    samples, outputs in R^``dims``; the shrinker may drop triplets, samples and coordinates)."""

    def __init__(self, outputs: Any, label: str, needs: Any = None, triplets: int = N_TRIPLETS,
                 dims: int = D_OUT) -> None:
        super().__init__(samples=(3, 3 * triplets), triplets=(1, triplets), dims=(1, dims))
        self.outputs, self.needs = outputs, needs  # needs(quick, seed): the runs' prerequisites
        self.name = f"learned encoders ({label})"

    def radius_bounds(self) -> tuple[float, float | None]:
        """C is the largest output norm of the run: any finite C > 0."""
        return 0.0, None

    def validate(self, subject: TrainingSet) -> None:
        """The bounds of :class:`TrainingSets`, and no sample in two triplets (the runs' training sets)."""
        super().validate(subject)
        used = np.asarray(subject.T).ravel()
        if np.unique(used).size != used.size:
            raise AssumptionError(f"{self.name}: a sample serves two triplets; in the runs' training sets every "
                                  "sample is in exactly one triplet")

    def prerequisites(self, quick: bool, seed: int) -> Any:
        return self.needs(quick, seed) if self.needs else ()

    def exhaustive(self, quick: bool = False) -> Iterable[TrainingSet]:
        for description, z in self.outputs(quick, self.seed):  # z: (n, 3, d), the n triplets' outputs
            n = z.shape[0]
            Y = np.asarray(z, dtype=np.float64).reshape(3 * n, -1)
            T = np.arange(3 * n).reshape(n, 3)
            yield TrainingSet(Y, T, float(np.max(np.linalg.norm(Y, axis=1))), source=description)

    def describe(self, subject: TrainingSet) -> str:
        return f"[{subject.source}] m={subject.m}, n={subject.T.shape[0]}, d={subject.Y.shape[1]}"


@st.composite
def _training_sets(draw: Any, family: TrainingSets) -> TrainingSet:
    if family.disjoint:  # every sample in exactly one triplet
        n = draw(st.integers(*family.triplet_range))
        d = draw(st.integers(*family.dims))
        m = 3 * n
        T = np.asarray(draw(st.permutations(list(range(m)))), dtype=np.int64).reshape(n, 3)
    else:
        m = draw(st.integers(*family.samples))
        n = draw(st.integers(*family.triplet_range))
        d = draw(st.integers(*family.dims))
        rows = [draw(st.lists(st.integers(0, m - 1), min_size=3, max_size=3, unique=True)) for _ in range(n)]
        T = np.asarray(rows, dtype=np.int64)
    C = draw(st.sampled_from(RADII))
    Y0 = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=m * d, max_size=m * d))).reshape(m, d) * C
    steps = draw(st.sampled_from([0, family.steps, 4 * family.steps]))
    return TrainingSet(descend(Y0, T, C, steps, 0.05), T, C)
