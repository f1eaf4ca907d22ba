"""xp.grad and xp.jacobian (numerics.derivative): the same formula differentiated in every backend --
torch autograd, dual numbers in mpmath, and dual numbers rounded once in float64 -- against closed forms."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import torch

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.derivative import Dual

MP = mp_backend(60)
BACKENDS = {"float64": FLOAT, "mpmath": MP, "torch": torch_backend()}
ROW = np.array([0.7, -1.3, 0.2, 2.5])


def _softmax(v: np.ndarray, tau: float) -> np.ndarray:
    e = np.exp((v - v.max()) / tau)
    return e / e.sum()


def _array(xp, values):  # noqa: ANN001
    return xp.asarray(np.asarray(values, dtype=float))


def _numpy(value) -> np.ndarray:  # noqa: ANN001
    return value.detach().numpy() if isinstance(value, torch.Tensor) else np.asarray(value, dtype=object).astype(float)


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_the_gradient_of_the_contrastive_loss_is_the_softmax_minus_the_positive(name: str) -> None:
    """d/ds [LSE(s/tau) - s_0/tau] = (softmax(s/tau) - e_0) / tau, with tau captured from the backend's own
    values (the closure a quantity writes: a float64 tau is a numpy value, which torch autograd refuses)."""
    xp = BACKENDS[name]
    tau = xp.asarray(0.4)
    grad = xp.grad(lambda v, xq: xq.logsumexp(v / tau, axis=0) - v[0] / tau, _array(xp, ROW))
    expected = (_softmax(ROW, 0.4) - np.eye(ROW.size)[0]) / 0.4
    np.testing.assert_allclose(_numpy(grad), expected, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", sorted(BACKENDS))
def test_the_jacobian_of_a_matrix_product_and_elementwise_functions(name: str) -> None:
    """J of x -> (A x, exp(x) * log1p(x^2), sqrt(1 + x^2)) has the closed form (A; diag(...); diag(...))."""
    xp = BACKENDS[name]
    A = np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]])
    x = np.array([0.3, -0.8, 1.1])

    def f(v, xq):  # noqa: ANN001, ANN202
        Av = xq.asarray(A) @ v
        return xq.stack([Av[0], Av[1], *(xq.exp(v) * xq.log1p(v * v)), *xq.sqrt(1 + v * v)])

    J = _numpy(xp.jacobian(f, _array(xp, x)))
    elementwise = np.exp(x) * np.log1p(x * x) + np.exp(x) * 2 * x / (1 + x * x)
    expected = np.vstack([A, np.diag(elementwise), np.diag(x / np.sqrt(1 + x * x))])
    np.testing.assert_allclose(J, expected, rtol=1e-12, atol=1e-15)


def test_the_mpmath_gradient_carries_every_digit() -> None:
    """At 60 digits the dual numbers give d/dx exp(x) at x = 1/3 to 55 digits (a finite difference keeps 30)."""
    with mpmath.workdps(60):
        x = mpmath.mpf(1) / 3
        g = MP.grad(lambda v, xq: xq.sum(xq.exp(v)), np.array([x], dtype=object))[0]
        assert abs(g - mpmath.exp(x)) < mpmath.mpf(10) ** -55


def test_the_float64_gradient_is_rounded_once() -> None:
    """float64's derivative is the 30-digit dual derivative rounded once: it equals the correctly rounded
    closed form where a float64 evaluation of the formula itself would be off by ulps."""
    x = np.array([0.1, 0.2, 0.7])
    g = FLOAT.grad(lambda v, xq: xq.sum(v * v * v) / 3, x)  # d/dx x^3/3 = x^2
    assert isinstance(g, np.ndarray) and g.dtype == np.float64
    with mpmath.workdps(40):
        assert [float(mpmath.mpf(v) ** 2) for v in x] == g.tolist()


def test_the_torch_gradient_can_be_climbed_through() -> None:
    """The adversary differentiates a gradient identity's margin: the torch gradient keeps its graph."""
    xp = BACKENDS["torch"]
    x = torch.tensor([0.5, -0.25], dtype=torch.float64, requires_grad=True)
    g = xp.grad(lambda v, xq: xq.sum(v * v * v), x)  # 3 x^2
    (second,) = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(second, 6 * x.detach())


def test_the_dual_numbers_obey_the_product_and_quotient_rules() -> None:
    a, b = Dual(2.0, 1.0), Dual(3.0, -2.0)
    assert ((a * b).value, (a * b).tangent) == (6.0, 1.0 * 3.0 + 2.0 * -2.0)
    q = a / b
    assert q.value == pytest.approx(2 / 3) and q.tangent == pytest.approx((1.0 * 3.0 - 2.0 * -2.0) / 9.0)
    assert (a ** 3).tangent == pytest.approx(3 * 4.0)


def test_a_backend_without_a_derivative_says_so() -> None:
    from numerics.backend import arb_backend

    with pytest.raises(NotImplementedError, match="no gradient"):
        arb_backend().grad(lambda v, xq: xq.sum(v), arb_backend().asarray(np.array([1.0])))
