"""Tests of numerics.backend: the float64, mpmath, torch and arb evaluators agree, and do not overflow.

References are mpmath at 60 digits, computed here (not with the backend under test).
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch

from numerics.backend import FLOAT, MpBackend, arb_backend, mp_backend, torch_backend

REF_DPS = 60
TORCH = torch_backend()
MP = mp_backend(50)
ARB = arb_backend(200)

X1 = [-3.5, -0.75, 0.0, 1e-9, 0.4, 2.25, 7.0, 19.5, 35.0]
X2 = [[0.3, -1.2, 4.0], [-7.5, 2.0, 2.0], [1e-3, -2e-3, 12.0]]


def ref_scalar(fn: str, t: float) -> mpmath.mpf:
    with mpmath.workdps(REF_DPS):
        t = mpmath.mpf(t)
        if fn == "exp":
            return mpmath.exp(t)
        if fn == "log":
            return mpmath.log(t)
        if fn == "log1p":
            return mpmath.log1p(t)
        if fn == "softplus":
            return mpmath.log(1 + mpmath.exp(t))
        if fn == "sqrt":
            return mpmath.sqrt(t)
    raise KeyError(fn)


def ref_logsumexp(rows: list[list[float]]) -> list[mpmath.mpf]:
    with mpmath.workdps(REF_DPS):
        return [mpmath.log(mpmath.fsum(mpmath.exp(mpmath.mpf(v)) for v in row)) for row in rows]


def rel_err(x: object, ref: object) -> float:
    with mpmath.workdps(REF_DPS):
        x, ref = mpmath.mpf(x), mpmath.mpf(ref)
        if ref == 0:
            return float(abs(x))
        return float(abs(x - ref) / abs(ref))


def to_list(xp: object, a: object) -> list:
    if isinstance(a, torch.Tensor):
        return a.detach().tolist()
    return list(np.asarray(a, dtype=object).ravel())


BACKENDS = {"float": FLOAT, "mpmath": MP, "torch": TORCH, "arb": ARB}
HIGH = ("mpmath", "arb")  # the high-precision backends


@pytest.mark.parametrize("name", list(BACKENDS))
@pytest.mark.parametrize("fn", ["exp", "log", "log1p", "softplus", "sqrt"])
def test_elementwise_moderate_inputs(name: str, fn: str) -> None:
    xp = BACKENDS[name]
    xs = [abs(v) + 0.1 for v in X1] if fn in ("log", "sqrt") else X1
    xs = [v for v in xs if v > -1] if fn == "log1p" else xs
    with xp.precision():
        out = getattr(xp, fn)(xp.asarray(np.array(xs)))
        values = to_list(xp, out)
    assert len(values) == len(xs)
    tol = 1e-45 if name in HIGH else 4e-16
    for t, v in zip(xs, values):
        assert rel_err(v, ref_scalar(fn, t)) <= tol, (fn, t, v)


@pytest.mark.parametrize("name", list(BACKENDS))
@pytest.mark.parametrize("axis", [0, 1])
def test_logsumexp_moderate_inputs(name: str, axis: int) -> None:
    xp = BACKENDS[name]
    rows = X2 if axis == 1 else [list(col) for col in zip(*X2)]
    with xp.precision():
        values = to_list(xp, xp.logsumexp(xp.asarray(np.array(X2)), axis=axis))
    tol = 1e-45 if name in HIGH else 1e-15
    for v, r in zip(values, ref_logsumexp(rows)):
        assert rel_err(v, r) <= tol


@pytest.mark.parametrize("name", list(BACKENDS))
def test_backends_agree_with_each_other(name: str) -> None:
    """The same formula in two backends: a softplus/logsumexp composite, vs float64."""
    xp = BACKENDS[name]
    x = np.array(X2)
    with xp.precision():
        a = xp.asarray(x)
        out = xp.sum(xp.softplus(xp.logsumexp(a, axis=1)) + xp.log1p(xp.exp(-xp.sqrt(a * a))))
        v = xp.to_float(out)
    base = float(np.sum(np.logaddexp(0, FLOAT.logsumexp(x, 1)) + np.log1p(np.exp(-np.abs(x)))))
    assert v == pytest.approx(base, rel=1e-14)


def test_mp_logsumexp_with_minus_infinity() -> None:
    with MP.precision():
        ninf = mpmath.mpf("-inf")
        arr = np.array([[ninf, mpmath.mpf(0)], [ninf, ninf]], dtype=object)
        out = MP.logsumexp(arr, axis=1)
    assert out[0] == 0 and out[1] == ninf
    assert FLOAT.log(np.array([0.0]))[0] == -np.inf
    assert MP.log(mpmath.mpf(0)) == ninf


# -- extreme inputs ----------------------------------------------------------------------


EXTREME = [1e4, 710.0, 709.8, -700.0, -745.0, -1e4]


@pytest.mark.parametrize("name", ["float", "torch"])
@pytest.mark.parametrize("t", EXTREME)
def test_softplus_extremes(name: str, t: float) -> None:
    xp = BACKENDS[name]
    v = to_list(xp, xp.softplus(xp.asarray(np.array([t]))))[0]
    assert math.isfinite(v)
    exact = ref_scalar("softplus", t)
    if t == -745.0:
        # e^-745 ~ 4.9e-324 is subnormal: relative 1e-15 is not representable, 1 ulp is
        assert abs(mpmath.mpf(v) - exact) <= 2.0 ** -1074
    elif t == -1e4:
        assert v == 0.0  # e^-1e4 underflows to 0 (exact value ~1e-4343)
    else:
        assert rel_err(v, exact) <= 1e-15, (t, v)


@pytest.mark.parametrize("name", ["float", "torch"])
@pytest.mark.parametrize(
    "row",
    [[1e4, 1e4 - 1.0, 0.0], [710.0, 709.0, 711.5], [-745.0, -745.0, -746.0], [-1e4, -1e4 + 2.0],
     [1e4, -1e4]],
    ids=["1e4", "710", "-745", "-1e4", "mixed"],
)
def test_logsumexp_extremes(name: str, row: list[float]) -> None:
    xp = BACKENDS[name]
    v = to_list(xp, xp.logsumexp(xp.asarray(np.array([row])), axis=1))[0]
    assert math.isfinite(v)
    assert rel_err(v, ref_logsumexp([row])[0]) <= 1e-15, (row, v)


def test_arb_backend_extremes_are_enclosed() -> None:
    """Softplus and logsumexp at 1e4, 710, -745: no overflow, and the ball holds the exact value."""
    with ARB.precision():
        sp_ = ARB.softplus(ARB.asarray(np.array(EXTREME)))
        lse = ARB.logsumexp(ARB.asarray(np.array([[1e4, -1e4, 710.0]])), axis=1)
    for t, v in zip(EXTREME, sp_):
        with mpmath.workdps(REF_DPS):
            exact = mpmath.log1p(mpmath.exp(mpmath.mpf(t)))
        assert rel_err(v, exact) <= 1e-45
        assert v.rad() <= abs(v.mid()) * 2.0 ** -150
    assert rel_err(lse[0], ref_logsumexp([[1e4, -1e4, 710.0]])[0]) <= 1e-45


def test_mp_backend_extremes_are_exact() -> None:
    with MP.precision():
        sp = MP.softplus(MP.asarray(np.array(EXTREME)))
        lse = MP.logsumexp(MP.asarray(np.array([[1e4, -1e4, 710.0]])), axis=1)
    for t, v in zip(EXTREME, sp):
        assert rel_err(v, ref_scalar("softplus", t)) <= 1e-45
    assert rel_err(lse[0], ref_logsumexp([[1e4, -1e4, 710.0]])[0]) <= 1e-45


def test_torch_softplus_has_no_threshold_shortcut() -> None:
    """torch.nn.functional.softplus returns t for t > 20, off by log1p(e^-t) ~ 9.4e-14 at 30."""
    t = torch.tensor([30.0, 25.0, 21.0], dtype=torch.float64)
    out = TORCH.softplus(t)
    for ti, v in zip(t.tolist(), out.tolist()):
        exact = ref_scalar("softplus", ti)
        assert rel_err(v, exact) <= 1e-15
        with mpmath.workdps(REF_DPS):
            # the tail itself, log1p(e^-t) ~ e^-t, to a few ulps of t
            assert abs(mpmath.mpf(v) - ti - mpmath.log1p(mpmath.exp(-ti))) <= 2 * 2.0 ** -48
    assert out[0].item() != 30.0
    assert torch.nn.functional.softplus(t)[0].item() == 30.0  # the shortcut we must not use


def test_torch_backend_is_differentiable() -> None:
    x = torch.tensor([[0.5, -1.0, 3.0]], dtype=torch.float64, requires_grad=True)
    TORCH.sum(TORCH.softplus(x) + TORCH.logsumexp(x, axis=1)).backward()
    # the (1,)-shaped logsumexp is broadcast over the 3 columns before the sum
    expected = torch.sigmoid(x.detach()) + 3 * torch.softmax(x.detach(), dim=1)
    assert torch.allclose(x.grad, expected, rtol=1e-14, atol=0)


def test_torch_backend_is_a_singleton_of_float64() -> None:
    assert torch_backend() is TORCH
    assert TORCH.asarray([1, 2]).dtype == torch.float64
    assert TORCH.asarray(torch.tensor([1.0], dtype=torch.float32)).dtype == torch.float64


# -- mpmath precision context ----------------------------------------------------------------


def test_mp_precision_context_keeps_tiny_terms() -> None:
    xp = mp_backend(80)
    assert isinstance(xp, MpBackend) and xp.dps == 80
    outer = mpmath.mp.dps
    with xp.precision():
        assert mpmath.mp.dps == 80
        tiny = mpmath.mpf(10) ** -70
        s = tiny + 1 - 1
        assert s != 0
        # 1 + 1e-70 at 80 digits keeps ~10 digits of the tiny term: error <= ulp(1) ~ 1e-80
        assert abs(s - tiny) <= mpmath.mpf(10) ** -79
        assert abs(s - tiny) <= mpmath.mpf(10) ** -9 * tiny
        arr = xp.asarray(np.array([1.0, 1.0])) + np.array([tiny, 0], dtype=object)
        v = xp.sum(arr - 1)
        assert abs(v - tiny) <= mpmath.mpf(10) ** -79
    assert mpmath.mp.dps == outer
    # at the default 15 digits the same sum loses the tiny term entirely
    with mpmath.workdps(15):
        assert mpmath.mpf(10) ** -70 + 1 - 1 == 0


def test_mp_backend_asarray_is_exact() -> None:
    """float64 inputs convert without rounding (0.1 stays the binary double 0.1)."""
    xp = mp_backend(50)
    with xp.precision():
        a = xp.asarray(np.array([0.1, 1e-300, 2.0 ** 60 + 2.0 ** 8]))
        assert a[0] == mpmath.mpf(0.1) and a[0] != mpmath.mpf("0.1")
        assert a[1] == mpmath.mpf(1e-300)
        assert a[2] == mpmath.mpf(2) ** 60 + 256
        assert xp.asarray(np.float64(0.5)) == mpmath.mpf("0.5")


def test_mp_backend_operations_use_their_own_precision() -> None:
    """Elementwise functions set dps themselves, even outside the precision context."""
    xp = mp_backend(70)
    with mpmath.workdps(15):
        v = xp.exp(mpmath.mpf(1))
    with mpmath.workdps(80):
        assert abs(v - mpmath.e) < mpmath.mpf(10) ** -65


# -- the indexing and special operations plugins write formulas with -----------------------------

A = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0], [0.0, 4.0, 2.0]])


def _f(x) -> np.ndarray:
    return np.asarray(np.vectorize(float)(x.detach().numpy() if hasattr(x, "detach") else x), dtype=float)


@pytest.mark.parametrize("xp", [FLOAT, MP, TORCH, ARB], ids=["float", "mpmath", "torch", "arb"])
def test_gather_diagonal_transpose_stack_where(xp) -> None:
    a = xp.asarray(A)
    assert np.array_equal(_f(xp.gather(a, [2, 0])), A[[2, 0]])
    assert np.array_equal(_f(xp.gather(a, [1], axis=1)), A[:, [1]])
    assert np.array_equal(_f(xp.diagonal(a)), np.diag(A))
    assert np.array_equal(_f(xp.transpose(a)), A.T)
    assert np.array_equal(_f(xp.stack([a[0], a[1]])), A[:2])
    assert np.array_equal(_f(xp.where(A > 0, a, xp.asarray(np.zeros_like(A)))), np.where(A > 0, A, 0))
    assert np.array_equal(_f(xp.maximum(a, xp.asarray(0.5))), np.maximum(A, 0.5))
    assert abs(float(xp.mean(a)) - A.mean()) < 1e-12


@pytest.mark.parametrize("xp", [FLOAT, MP, TORCH, ARB], ids=["float", "mpmath", "torch", "arb"])
def test_xlogy_is_zero_where_x_is_zero_and_functions_take_python_constants(xp) -> None:
    out = _f(xp.xlogy(xp.asarray([0.0, 2.0]), xp.asarray([0.0, 3.0])))
    assert out[0] == 0.0 and abs(out[1] - 2 * math.log(3)) < 1e-12
    assert abs(float(xp.log(2)) - math.log(2)) < 1e-15 and abs(float(xp.sqrt(2)) - math.sqrt(2)) < 1e-15
    assert abs(float(xp.harmonic(4, 2)) - (1 + 1 / 4 + 1 / 9 + 1 / 16)) < 1e-15
    assert float(xp.binomial(6, 2)) == 15.0
    # torch's trigamma is accurate to ~1e-9 only; torch guides the adversary, it decides nothing
    accuracy = 1e-8 if xp is TORCH else 1e-12
    assert abs(float(xp.polygamma(1, xp.asarray(1.0))) - math.pi ** 2 / 6) < accuracy


def test_mpmath_harmonic_keeps_its_precision() -> None:
    mp = mp_backend(50)
    with mpmath.workdps(60):
        exact = mpmath.fsum(mpmath.mpf(1) / i ** 3 for i in range(1, 31))
        assert abs(mp.harmonic(30, 3) - exact) < mpmath.mpf(10) ** -45


def test_float_logsumexp_matches_scipy_including_non_finite_rows() -> None:
    """logsumexp_float64 (the fast float64 path) gives scipy's values: ties at the max, -inf rows,
    +inf and NaN entries, both axes, random rows (to a few ulps)."""
    from scipy.special import logsumexp

    from numerics.backend import logsumexp_float64

    rows = np.array([[0.0, 0.0, 0.0], [-np.inf, -np.inf, -np.inf], [1.0, np.inf, 2.0], [np.nan, 1.0, 2.0],
                     [-np.inf, 3.0, 3.0], [800.0, -800.0, 799.0]])
    got, want = logsumexp_float64(rows, 1), logsumexp(rows, axis=1)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.allclose(got[~np.isnan(got)], want[~np.isnan(want)], rtol=4e-16, atol=0)
    rng = np.random.default_rng(3)
    for axis in (0, 1):
        x = rng.normal(scale=30.0, size=(50, 7))
        assert np.allclose(logsumexp_float64(x, axis), logsumexp(x, axis=axis), rtol=4e-16, atol=0)
