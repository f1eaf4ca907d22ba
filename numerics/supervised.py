"""L_sup(f, T) of Merad et al. (3): the best linear classifier's cross-entropy.

(3) is an infimum over W in R^{|T| x d} of a convex function. We minimize it
with L-BFGS started at the mean classifier W^mu of (4); the value at the
returned W is re-evaluated with any backend, so it is a rigorous *upper*
bracket of L_sup (it is the objective at a concrete W). The lower bracket is
0 (the objective is a cross-entropy); the optimizer's stopping rule is a
gradient norm <= GTOL, and the reported ``grad_norm`` says how close to
stationary it got. When the classes are linearly separable the infimum is 0
and is not attained: the upper bracket then decreases towards 0 as the
iteration budget grows.

Every claim of Section 3 has L_sup on the *left* of "<=": an upper bracket is
exactly what checking L_sup <= X needs (and L_sup <= L^mu_sup holds for the
bracket by construction, since the search starts at W^mu and only descends).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from numerics.backend import FLOAT
from numerics.contrastive import MixtureArrays, own_class_mask, task_weights

GTOL = 1e-10
MAX_ITER = 500


@dataclass(frozen=True)
class LinearFit:
    """The minimizer found for (3) on one task: W (|T|, d), its objective and gradient norm."""

    task: tuple[int, ...]
    W: np.ndarray
    value: float
    grad_norm: float


def fit_linear_classifier(arr: MixtureArrays, task: Sequence[int] | None = None) -> LinearFit:
    """Minimize the objective of (3) over W for task T, starting from W^mu (float64)."""
    if arr.xp is not FLOAT:
        raise TypeError("fit_linear_classifier optimizes in float64: pass FLOAT arrays")
    task = tuple(range(arr.n_classes)) if task is None else tuple(task)
    rows, weights = task_weights(arr, task)
    X = np.asarray(arr.P)[rows]  # (R, d)
    wts = np.asarray(weights)
    own = np.array([task.index(int(arr.cls[m])) for m in rows])
    shape = (len(task), X.shape[1])

    exclude_own = own_class_mask(own, len(task))
    at_own = (np.arange(len(own)), own)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The objective of (3) and its gradient, each row's term zeta(LSE_{c' != c}(s_c' - s_c)) as
        t + log1p(expm1(-t) + sum_{c' != c} e^{m_c' - t}) with t = max(0, max margin): no cancellation
        when the own class wins by far (t = 0, the sum tiny) and no overflow when it loses (the sum is
        then >= 1). Few numpy calls: L-BFGS evaluates it tens of thousands of times per audit."""
        W = theta.reshape(shape)
        S = X @ W.T
        margins = S - S[at_own][:, None] + exclude_own  # -inf at the own class
        t = np.maximum(margins.max(axis=1), 0.0)
        E = np.exp(margins - t[:, None])  # 0 at the own class
        rest = E.sum(axis=1)
        val = float(wts @ (t + np.log1p(np.expm1(-t) + rest)))
        denom = np.exp(-t) + rest  # e^-t (1 + sum_{c' != c} e^{m_c'})
        G = E / denom[:, None]  # softmax(S) off the own class
        G[at_own] = -rest / denom  # softmax(S)_c - 1
        return val, ((G * wts[:, None]).T @ X).ravel()

    W0 = np.asarray(arr.mu)[list(task)]
    start_val, _ = objective(W0.ravel())
    from scipy.optimize import minimize  # here: its import is 0.4 s of every process that never fits

    res = minimize(
        objective, W0.ravel(), jac=True, method="L-BFGS-B",
        options={"gtol": GTOL, "maxiter": MAX_ITER, "ftol": 1e-15},
    )
    W = res.x.reshape(shape)
    val, grad = objective(res.x)
    if not val <= start_val:  # never worse than W^mu: keep the start point
        W, val, grad = W0, start_val, objective(W0.ravel())[1]
    return LinearFit(task=task, W=W, value=val, grad_norm=float(np.linalg.norm(grad)))
