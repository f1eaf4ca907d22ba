"""Training sets of fixed triplets: the setting of Lemma 7 (= Lemma 4 = Lemma 4.2) as printed.

A subject (a composed :class:`~theorems.subjects.Family`, :func:`TrainingSets`) is the outputs Y (m x d)
of f on the m samples of X_data (part ``Y``, a :class:`~theorems.papers.merad.triplet_parts.SampleOutputs`) and
n triplets (x_i, x_i+, x_i-) given as rows of sample indices T (n x 3; part ``T``, a
:class:`~theorems.papers.merad.triplet_parts.SampleTriplets`), three distinct samples each (the least the
names "a sample, a positive, a negative" say), and the radius C (part ``C``). L^_un(f) = sum_i l(z_i) (11) with
z_i = (Y[T_i0], Y[T_i1], Y[T_i2]); its gradient with respect to the outputs of f is the m x d
array whose row x sums loss_{i,j} = A_j^T grad l(z_i) over every (i, j) with T_ij = x. Nothing
forces the samples of different triplets to differ (Lemma 7 grants Assumption 2 only), so a
sample may serve several triplets and their loss vectors may cancel in the gradient.

The hypothesis ||grad L^_un|| <= eps < eta/2 asks for a near-stationary point: random outputs
rarely meet it, so each drawn subject is first moved by gradient descent on L^_un (inside the ball
of Assumption 2) -- the points an optimizer reaches, where the lemma is meant to apply: Y is drawn given
T and C (a :class:`~theorems.subjects.parts.Given` part). The adversary moves Y freely (C and T fixed).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from theorems.papers.merad import triplet as tl
from numerics.backend import Backend
from theorems import quantity
from theorems.papers.merad.experiments import D_OUT, N_TRIPLETS
from theorems.papers.merad.triplet_parts import SampleOutputs, SampleTriplets
from theorems.subjects import Choice, Family, Given, Snapshots, Subject
from theorems.papers.merad.triplets import norm0, sqrt0


def _triplets(Y: Any, T: np.ndarray) -> list[Any]:
    return [Y[[int(a), int(b), int(c)]] for a, b, c in T]


def gradient(Y: Any, T: np.ndarray, xp: Backend) -> Any:
    """grad of sum_i l(z_i) with respect to the rows of Y: each row sums the loss vectors of its uses."""
    rows: list[list[Any]] = [[] for _ in range(int(Y.shape[0]))]
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


def _on_outputs(fn: Callable[[Any, np.ndarray, Backend], Any]) -> Callable[[Any, Backend], Any]:
    return lambda s, xp: fn(s.Y, s.T, xp)


max_loss = quantity("max_loss", _on_outputs(lambda Y, T, xp: _max([tl.loss(z, xp) for z in _triplets(Y, T)], xp)),
                    range=(0, None), differentiable=False, doc="max_i l(z_i) over the n triplets")
grad_norm = quantity("grad_norm", _on_outputs(lambda Y, T, xp: sqrt0(xp.sum(gradient(Y, T, xp) ** 2), xp)),
                     range=(0, None), doc="||grad L^_un(f)||, gradient in the outputs of f")
grad_norm_slots = quantity(
    "grad_norm_slots",
    _on_outputs(lambda Y, T, xp: sqrt0(_sum([(v * v).sum() for z in _triplets(Y, T) for v in tl.loss_vectors(z, xp)],
                                            Y[0, 0] * 0), xp)),
    range=(0, None), doc="||grad L^_un|| in the 3n output slots z_i = (f(x_i), f(x_i+), f(x_i-)): sqrt(sum_ij "
                         "||loss_{i,j}||^2), a sample's uses kept apart (the proof's loss vectors)")
eta_data = quantity("eta_data", _on_outputs(lambda Y, T, xp: xp.min(sqrt0(xp.sum(Y * Y, axis=1), xp))),
                    range=(0, None), doc="min_x ||f(x)|| over X_data (Assumption 2)")
max_loss_vector = quantity(
    "max_loss_vector",
    _on_outputs(lambda Y, T, xp: _max([norm0(v, xp) for z in _triplets(Y, T) for v in tl.loss_vectors(z, xp)], xp)),
    range=(0, None), doc="max_{i,j} ||loss_{i,j}||")
max_v2 = quantity("max_v2", _on_outputs(lambda Y, T, xp: _max([tl.softmax_v(z, xp)[1] for z in _triplets(Y, T)], xp)),
                  range=(0, 1), differentiable=False, doc="max_i v_2(z_i) = sigma(z_i1^T (z_i3 - z_i2))")
#: every quantity of a training set (max_loss and max_v2 are kept out of the adversary, as before: a max)
QUANTITIES = (max_loss, grad_norm, eta_data, max_loss_vector, max_v2, grad_norm_slots)


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


#: the radii C the random training sets are drawn with
RADII = (1.0, 3.0, 0.5)
#: the learning rate of the descent that draws the outputs
LR = 0.05


def outputs_part(samples: str, steps: int, per: int = 1) -> Given:
    """Y given T and C: uniform in [-C, C] per entry, then ``0``, ``steps`` or ``4 steps`` steps of projected
    gradient descent on L^_un in the ball of radius C (``per=3``: the samples are the triplets' own, m = 3n)."""
    def make(c: Any) -> SampleOutputs:
        T, C = np.asarray(c["T"], dtype=np.int64), float(c["C"])
        return SampleOutputs(samples, "d", per=per, groups=T if per > 1 else None, scale=C,
                             steps=(0, steps, 4 * steps), descend=lambda Y, k: descend(Y, T, C, k, LR))

    return Given(make)


def TrainingSets(samples: tuple[int, int] = (3, 6), triplets: tuple[int, int] = (1, 3),
                 dims: tuple[int, int] = (1, 3), steps: int = 300, disjoint: bool = False) -> Family:
    """Random training sets: m samples, n triplets over them (shared samples allowed), d = 1..3,
    outputs moved by gradient descent toward a stationary point of L^_un.

    ``disjoint``: every sample in exactly one triplet (m = 3n), as in Theorem 1's setting (Assumption 1);
    the sizes are then n and d (m = 3n within ``samples`` for every n in ``triplets``)."""
    if disjoint and not (samples[0] <= 3 * triplets[0] and 3 * triplets[1] <= samples[1]):
        raise ValueError(f"disjoint triplets need m = 3n in {list(samples)} for every n in {list(triplets)}")
    name = "training sets of fixed triplets" + (" (every sample in one triplet)" if disjoint else "")
    if disjoint:
        return Family(name, dims={"n": triplets, "d": dims},
                      parts={"C": Choice(RADII), "T": SampleTriplets("n", None),
                             "Y": outputs_part("n", steps, per=3)}, quantities=QUANTITIES)
    return Family(name, dims={"m": samples, "n": triplets, "d": dims},
                  parts={"C": Choice(RADII), "T": SampleTriplets("n", "m"), "Y": outputs_part("m", steps)},
                  quantities=QUANTITIES)


def LearnedTrainingSets(outputs: Callable[[bool, int], list[tuple[str, np.ndarray]]], label: str, needs: Any = None,
                        triplets: int = N_TRIPLETS, dims: int = D_OUT) -> Family:
    """The outputs of the Section 4 network after gradient descent (merad.theorem1's runs): every
    sample of X_data in exactly one triplet, as the runs draw them (n = ``triplets`` triplets, m = 3 n
    samples, outputs in R^``dims``; the shrinker may drop triplets and coordinates). C is the largest
    output norm of the run: any finite C > 0. ``outputs(quick, seed)`` lists (description, z (n, 3, d));
    ``needs(quick, seed)`` are the runs' prerequisites."""

    def subjects(quick: bool, seed: int) -> Any:
        for description, z in outputs(quick, seed):  # z: (n, 3, d), the n triplets' outputs
            n = z.shape[0]
            Y = np.asarray(z, dtype=np.float64).reshape(3 * n, -1)
            T = np.arange(3 * n).reshape(n, 3)
            yield Subject({"n": n, "d": Y.shape[1]}, {"C": float(np.max(np.linalg.norm(Y, axis=1))), "T": T, "Y": Y},
                          description)

    return Family(f"learned encoders ({label})", dims={"n": (1, triplets), "d": (1, dims)},
                  parts={"C": Choice((), lo=0.0, open_lo=True), "T": SampleTriplets("n", None),
                         "Y": Given(lambda c: SampleOutputs("n", "d", per=3, groups=np.asarray(c["T"])))},
                  quantities=QUANTITIES, max_confirm_size=10 ** 9,
                  snapshots=Snapshots(subjects, (lambda quick, seed: needs(quick, seed)) if needs else
                                      (lambda quick, seed: ())))


__all__ = ["LR", "LearnedTrainingSets", "QUANTITIES", "RADII", "TrainingSets", "descend", "eta_data", "grad_norm",
           "grad_norm_slots", "gradient", "max_loss", "max_loss_vector", "max_v2", "outputs_part"]
