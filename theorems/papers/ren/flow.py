"""Ren & Li: exact closed forms of the model and its infinite-width gradient flow (numpy, no seed).

Everything here is deterministic; the reconstruction of each lost formula is given in
``proofs_md/ren.*.md`` with the passage it rests on.

* Latents and noises are uniform signs (z in {+-1}^r, xi in {+-1}^{d_xi}), so E w w^T = I and
  sums over {+-1}^r are exact (:func:`signs`).
* In the infinite-width limit the columns of P_A = W_A A / N_A and P_B = W_B B / N_B stay
  pairwise orthogonal except p_k against q_k (Section 5.2, (7)); each pair (p_k, q_k) moves in
  its own plane and the noise columns of Q_A, Q_B all keep one common norm. The flow is then an
  ODE in u_k, v_k in R^2 (the columns of W_A A, W_B B) and the two total noise norms X_A, X_B:

      du_k/dt = (sigma_k^2 / N_A) (g_k q_k - s p_k),   dv_k/dt = (sigma_k^2 / N_B) (g_k p_k - s q_k),
      dX_A/dt = -2 sigma_xi^2 s X_A / N_A^2,           s = sum_l g_l c_l,

  with N_A^2 = sum_k |u_k|^2 + X_A (population normalization E||f_A||^2 = 1), c_k = <p_k, q_k>,
  g_k = 1 (non-contrastive loss (4)) or g_k = 1 - lam tanh(beta c_k) (contrastive loss (3), the
  gradient rescaled by 1/beta); this is the reconstruction of (8), derived from Lemma A.7's
  sums (:func:`negative_term_enumerated`), and ``ren.lemma_a7`` checks it against autograd.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


# -- sums over {+-1}^r -------------------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def signs(r: int) -> np.ndarray:
    """All 2^r sign vectors, one per row (read-only)."""
    out = np.array(list(itertools.product((-1.0, 1.0), repeat=r)), dtype=float).reshape(-1, r)
    out.setflags(write=False)
    return out


def log_partition_enumerated(C: np.ndarray, beta: float, z: np.ndarray) -> np.ndarray:
    """log E_{z'} exp(beta z^T C z') for each row z, by summing over all 2^r sign vectors z'."""
    zp = signs(C.shape[1])
    s = beta * (np.atleast_2d(z) @ C @ zp.T)  # (n, 2^r)
    top = s.max(axis=1, keepdims=True)
    return (top[:, 0] + np.log(np.mean(np.exp(s - top), axis=1)))


def log_partition_closed(c: Sequence[float], beta: float) -> float:
    """Lemma A.7 / C.2: sum_k log cosh(beta c_k) (the same for every z when C = diag(c))."""
    return float(sum(math.log(math.cosh(beta * float(x))) for x in c))


def negative_term_enumerated(C: np.ndarray, beta: float) -> np.ndarray:
    """E_z [ z E_{z' ~ softmax_z}[z']^T ]: the negative-pair factor of the gradient with respect to
    C (divided by beta), by exact sums over z and z'."""
    z = signs(C.shape[0])
    s = beta * (z @ C @ z.T)  # rows z, columns z'
    w = np.exp(s - s.max(axis=1, keepdims=True))
    w /= w.sum(axis=1, keepdims=True)
    mean_zp = w @ z  # (2^r, r): E_{softmax}[z'] for each z
    return z.T @ mean_zp / len(z)


def cube_log_partition(c: Sequence[float], beta: float, z: np.ndarray) -> np.ndarray:
    """log E_{z'} exp(beta sum_k c_k z_k z'_k) for z' uniform on the cube [-sqrt3, sqrt3]^r (the
    latent law of the previous code): prod_k sinh(sqrt3 x_k)/(sqrt3 x_k), x_k = beta c_k z_k."""
    x = np.sqrt(3.0) * beta * np.atleast_2d(z) * np.asarray(c, dtype=float)
    zero = x == 0  # sinh(x) / x -> 1 as x -> 0: log 1 = 0 (exact); every x != 0 divides as it is
    safe = np.where(zero, 1.0, x)
    return np.sum(np.where(zero, 0.0, np.log(np.sinh(safe) / safe)), axis=1)


# -- metrics of an infinite-width state ---------------------------------------------------------
def alignment_exact(c: Sequence[float], ties: str = "fail") -> float:
    """Definition 4.1 by distance, exactly, for an infinite-width state with ±1 latents.

    With orthogonal columns and ±1 latents, ||f_A(x_A) - f_B(x_B')||^2 - ||f_A(x_A) - f_B(x_B)||^2
    = 4 sum_{k: z_k != z'_k} c_k (the noise norms are the same constant on both sides), so the score is
    2^-r sum over the 2^r sets S of coordinates where z and z' differ of 1[sum_S c_k > 0]
    (a tie counts 1/2 with ``ties="half"``)."""
    c = np.asarray(c, dtype=float)
    masks = (signs(len(c)) < 0).astype(float)
    gap = masks @ c
    wins = (gap > 0).astype(float) + (0.5 * (gap == 0) if ties == "half" else 0.0)
    return float(np.mean(wins))


@dataclass(frozen=True)
class FlowModel:
    """The data model of (1) seen by the infinite-width flow: the spectrum sigma of A and B
    (A^T A = B^T B = diag(sigma^2)), the noise scale sigma_xi of A_xi, B_xi on d_xi coordinates,
    and the weight lam of the negative pairs."""

    sigma: tuple[float, ...]
    sigma_xi: float
    d_xi: int
    lam: float = 1.0

    @property
    def r(self) -> int:
        return len(self.sigma)


def initial_state(model: FlowModel) -> np.ndarray:
    """Infinite-width initialization: |u_k| = |v_k| = sigma_k, u_k orthogonal to v_k, every noise
    column of squared norm sigma_xi^2 (W iid N(0, 1/m), m -> infinity)."""
    r = model.r
    u = np.zeros((r, 2))
    v = np.zeros((r, 2))
    u[:, 0] = model.sigma
    v[:, 1] = model.sigma
    X = model.d_xi * model.sigma_xi ** 2
    return np.concatenate([u.ravel(), v.ravel(), [X, X]])


def unpack(y: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray, float, float]:
    return y[:2 * r].reshape(r, 2), y[2 * r:4 * r].reshape(r, 2), float(y[4 * r]), float(y[4 * r + 1])


def rhs(y: np.ndarray, model: FlowModel, beta: float | None) -> np.ndarray:
    """The infinite-width flow (the reconstruction of (8)); beta None: the non-contrastive loss (4)."""
    r = model.r
    u, v, XA, XB = unpack(y, r)
    s2 = np.asarray(model.sigma, dtype=float) ** 2
    NA = math.sqrt(float(np.sum(u * u)) + XA)
    NB = math.sqrt(float(np.sum(v * v)) + XB)
    p, q = u / NA, v / NB
    c = np.sum(p * q, axis=1)
    g = np.ones(r) if beta is None else 1.0 - model.lam * np.tanh(beta * c)
    s = float(np.sum(g * c))
    du = (s2 / NA)[:, None] * (g[:, None] * q - s * p)
    dv = (s2 / NB)[:, None] * (g[:, None] * p - s * q)
    dXA = -2.0 * model.sigma_xi ** 2 * s * XA / NA ** 2
    dXB = -2.0 * model.sigma_xi ** 2 * s * XB / NB ** 2
    return np.concatenate([du.ravel(), dv.ravel(), [dXA, dXB]])


def tracked(y: np.ndarray, model: FlowModel) -> dict[str, Any]:
    """The quantities the paper tracks: a_k = |p_k|^2, b_k = |q_k|^2, c_k = <p_k, q_k>, the cosines
    rho_k, the noise fraction of E||f_A||^2, cond(P_A), the balance score (exact covariance)."""
    r = model.r
    u, v, XA, XB = unpack(y, r)
    NA2, NB2 = float(np.sum(u * u)) + XA, float(np.sum(v * v)) + XB
    a = np.sum(u * u, axis=1) / NA2
    b = np.sum(v * v, axis=1) / NB2
    c = np.sum(u * v, axis=1) / math.sqrt(NA2 * NB2)
    nu_a = XA / NA2
    eig = np.concatenate([a, np.full(model.d_xi, nu_a / max(model.d_xi, 1))])
    return {"a": a, "b": b, "c": c, "rho": c / np.sqrt(a * b), "noise_A": nu_a, "noise_B": XB / NB2,
            "noise_ratio": nu_a / float(np.sum(a)), "cond": math.sqrt(float(a.max() / a.min())),
            "balance": float(np.sum(eig ** 2) / eig.max() ** 2), "NA2": NA2, "NB2": NB2}


def aligned_state(a: Sequence[float], norm2: float, model: FlowModel) -> np.ndarray:
    """An exactly aligned, noiseless state: p_k = q_k with |p_k|^2 = a_k (sum a = 1), N^2 = norm2."""
    a = np.asarray(a, dtype=float)
    r = len(a)
    u = np.zeros((r, 2))
    u[:, 0] = np.sqrt(a * norm2)
    return np.concatenate([u.ravel(), u.ravel(), [0.0, 0.0]])


def log_ratio_rate(y: np.ndarray, model: FlowModel, beta: float | None, i: int, j: int) -> float:
    """d/dt log(a_i / a_j) along the flow, in closed form:
    (2 / N_A^2) [sigma_i^2 (g_i c_i / a_i - s) - sigma_j^2 (g_j c_j / a_j - s)]."""
    r = model.r
    q = tracked(y, model)
    s2 = np.asarray(model.sigma, dtype=float) ** 2
    c, a = q["c"], q["a"]
    g = np.ones(r) if beta is None else 1.0 - model.lam * np.tanh(beta * c)
    s = float(np.sum(g * c))
    return float(2.0 / q["NA2"] * (s2[i] * (g[i] * c[i] / a[i] - s) - s2[j] * (g[j] * c[j] / a[j] - s)))


def stage2_bound(y: np.ndarray, model: FlowModel, beta: float) -> tuple[float, float]:
    """Lemma C.19 as reconstructed, at an aligned noiseless state with i = argmax a, j = argmin a:
    the exact rate -(2 lam / N^2) [sigma_i^2 (T_i - psi) + sigma_j^2 (psi - T_j)] and the bound
    -(2 lam sigma_min^2 / N^2) (T_i - T_j), T_k = tanh(beta a_k), psi = sum_l a_l T_l."""
    q = tracked(y, model)
    a, NA2 = q["a"], q["NA2"]
    s2 = np.asarray(model.sigma, dtype=float) ** 2
    i, j = int(np.argmax(a)), int(np.argmin(a))
    T = np.tanh(beta * a)
    psi = float(np.sum(a * T))
    exact = -2.0 * model.lam / NA2 * (s2[i] * (T[i] - psi) + s2[j] * (psi - T[j]))
    bound = -2.0 * model.lam * float(s2.min()) / NA2 * (T[i] - T[j])
    return float(exact), float(bound)
