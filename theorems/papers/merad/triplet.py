"""The fixed-triplet loss of Merad et al. Section 4, its derivatives, and the loss vectors.

For z = (z_1, z_2, z_3) in (R^d)^3 (anchor, positive, negative outputs),

    l(z) = zeta(u),  u = z_1^T (z_3 - z_2),  zeta(t) = log(1 + e^t)        (11)

Two independent derivations of the derivatives are provided, so that the
proof's formulas can be checked against a plain chain rule:

* chain rule: grad l = sigma(u) g with g = grad u = (z_3 - z_2, -z_1, z_1), and
  Hess l = sigma'(u) g g^T + sigma(u) M, M = d^2 u (constant, blocks 0/-I/+I);
* the proof of Lemma 5 (= Lemma 4.1): with cos_ij = z_i^T z_j and
  v = softmax(cos_12, cos_13): grad l = (v_1 - 1) dcos_12 + v_2 dcos_13 and
  Hess l = (v_1 - 1) d2cos_12 + v_2 d2cos_13 + (dcos_12 dcos_13) (diag(v) - v v^T) (dcos_12 dcos_13)^T.

Arrays are (3, d) for z and (3d,) for gradients (blocks z_1 | z_2 | z_3), in any backend.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from numerics.backend import Backend


def sigmoid(t: Any, xp: Backend) -> Any:
    """sigma(t) = exp(-zeta(-t)): no overflow for |t| large."""
    return xp.exp(-xp.softplus(-t))


def margin_u(z: Any) -> Any:
    """u = z_1^T (z_3 - z_2): the argument of zeta in (11)."""
    return (z[0] * (z[2] - z[1])).sum()


def loss(z: Any, xp: Backend) -> Any:
    """l(z) = zeta(z_1^T (z_3 - z_2)), (11)."""
    return xp.softplus(margin_u(z))


def softmax_v(z: Any, xp: Backend) -> tuple[Any, Any]:
    """v = softmax(cos_12, cos_13) = (sigma(-u), sigma(u)) (proof of Lemma 5)."""
    u = margin_u(z)
    return sigmoid(-u, xp), sigmoid(u, xp)


def _concat(blocks: list[Any], xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.cat(blocks)
    return np.concatenate(blocks)


def _zeros_like(a: Any, xp: Backend) -> Any:
    return a * 0


def grad_u(z: Any, xp: Backend) -> Any:
    """g = d u / d z = (z_3 - z_2, -z_1, z_1) in R^{3d}."""
    return _concat([z[2] - z[1], -z[0], z[0]], xp)


def dcos(z: Any, i: int, j: int, xp: Backend) -> Any:
    """dcos_ij = (A_i A_j^T + A_j A_i^T) z: z_j in block i, z_i in block j, 0 elsewhere."""
    blocks = [_zeros_like(z[0], xp) for _ in range(3)]
    blocks[i] = z[j]
    blocks[j] = z[i]
    return _concat(blocks, xp)


def gradient_chain_rule(z: Any, xp: Backend) -> Any:
    """grad l = sigma(u) g (chain rule)."""
    return sigmoid(margin_u(z), xp) * grad_u(z, xp)


def gradient_proof(z: Any, xp: Backend) -> Any:
    """grad l = (v_1 - 1) dcos_12 + v_2 dcos_13 (as printed in the proof of Lemma 5)."""
    v1, v2 = softmax_v(z, xp)
    return v1_minus_1(v2) * dcos(z, 0, 1, xp) + v2 * dcos(z, 0, 2, xp)


def v1_minus_1(v2: Any) -> Any:
    """v_1 - 1, evaluated as -v_2 (exact since v_1 + v_2 = 1): for u << 0, v_1 rounds to 1
    and the literal difference loses every digit of the tiny v_2."""
    return -v2


def d2cos(d: int, i: int, j: int) -> np.ndarray:
    """d2cos_ij = A_i A_j^T + A_j A_i^T, a constant (3d, 3d) matrix."""
    A = [np.zeros((3 * d, d)) for _ in range(3)]
    for k in range(3):
        A[k][k * d:(k + 1) * d, :] = np.eye(d)
    return A[i] @ A[j].T + A[j] @ A[i].T


def hessian_u(d: int) -> np.ndarray:
    """M = d^2 u / dz^2 = d2cos_13 - d2cos_12 (constant)."""
    return d2cos(d, 0, 2) - d2cos(d, 0, 1)


def _outer(a: Any, b: Any, xp: Backend) -> Any:
    if xp.name == "torch":
        return xp.torch.outer(a, b)
    return np.outer(a, b)


def hessian_chain_rule(z: Any, xp: Backend) -> Any:
    """Hess l = sigma'(u) g g^T + sigma(u) M, sigma' = sigma (1 - sigma)."""
    d = int(z.shape[1])
    u = margin_u(z)
    s, s_minus = sigmoid(u, xp), sigmoid(-u, xp)
    g = grad_u(z, xp)
    # array * scalar, never scalar * array: an mpf's __mul__ rejects an array with a TypeError that prints it whole
    return _outer(g, g, xp) * (s * s_minus) + xp.asarray(hessian_u(d)) * s


def hessian_proof(z: Any, xp: Backend) -> Any:
    """Hess l = (v_1-1) d2cos_12 + v_2 d2cos_13 + (dcos_12 dcos_13)(diag(v) - v v^T)(dcos_12 dcos_13)^T."""
    d = int(z.shape[1])
    v1, v2 = softmax_v(z, xp)
    return xp.asarray(d2cos(d, 0, 1)) * v1_minus_1(v2) + xp.asarray(d2cos(d, 0, 2)) * v2 \
        + curvature_term(z, xp)


def curvature_term(z: Any, xp: Backend) -> Any:
    """(dcos_12 dcos_13) dv = (a b)(diag(v) - v v^T)(a b)^T with a = dcos_12, b = dcos_13."""
    v1, v2 = softmax_v(z, xp)
    a, b = dcos(z, 0, 1, xp), dcos(z, 0, 2, xp)
    # (a b) [[v1 - v1^2, -v1 v2], [-v1 v2, v2 - v2^2]] (a b)^T; v_i - v_i^2 = v_1 v_2 exactly
    # (v_1 + v_2 = 1), written so to avoid 1 - 1 cancellation when one v_i is tiny
    w = v1 * v2
    return (_outer(a, a, xp) - _outer(a, b, xp) - _outer(b, a, xp) + _outer(b, b, xp)) * w


def loss_vectors(z: Any, xp: Backend) -> list[Any]:
    """loss_{i,j} = A_j^T grad l(z_i) for j = 1, 2, 3 (proof of Lemma 7), from the chain rule."""
    g = gradient_chain_rule(z, xp)
    d = int(z.shape[1])
    return [g[k * d:(k + 1) * d] for k in range(3)]


def norm(v: Any, xp: Backend) -> Any:
    return xp.sqrt((v * v).sum())


def frobenius_norm(H: Any, xp: Backend) -> Any:
    """Frobenius norm sqrt(sum_ij H_ij^2) of a matrix (the other reading of the proof's unsubscripted ||.||)."""
    return xp.sqrt((H * H).sum())


def spectral_norm(H: Any, xp: Backend) -> Any:
    """Operator 2-norm of a symmetric matrix: max |eigenvalue| (mpmath: eigsy at working precision)."""
    if xp.name == "torch":
        return xp.torch.linalg.eigvalsh(H).abs().max()
    if xp.name == "mpmath":
        with xp.precision():
            E = mpmath.eigsy(mpmath.matrix(H.tolist()), eigvals_only=True)  # without the vectors: 2.5x faster
            return max(abs(e) for e in E)
    return np.max(np.abs(np.linalg.eigvalsh(H)))
