"""Array backends: one formula, three evaluators.

Every quantity in :mod:`numerics` (and every quantity a plugin declares) is written once
against a :class:`Backend` (the ``xp`` argument) chosen by the caller, the way mpmath writes
its high-level functions once against a context:

* :data:`FLOAT` -- numpy float64, vectorized: the fast screening pass;
* :func:`mp_backend` -- numpy object arrays of ``mpmath.mpf`` at a chosen precision: the
  confirmation pass that decides a refutation;
* :func:`torch_backend` -- torch float64 tensors, differentiable: the adversarial search;
* :func:`arb_backend` -- numpy object arrays of python-flint ``arb`` balls at a chosen precision
  (in bits): rigorous, every value is a ball that contains the exact value (see
  :class:`ArbBackend`), so a margin whose ball excludes 0 has a certain sign.

Because the float, high-precision and differentiable twins share one formula they cannot
drift apart. Every function also accepts plain Python numbers (``xp.log(2)`` is log 2 in the
backend's type), so a constant such as ``log(2)`` in a statement works in all three.

Pitfall this layer exists for: ``log(sum(exp(x)))`` overflows at ``x = 710`` in float64
(``exp(710) = inf``); :meth:`Backend.logsumexp` shifts by the max. ``x * log(y)`` is NaN at
``x = y = 0``; :meth:`Backend.xlogy` is 0 there, as the entropy convention needs.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import mpmath
import numpy as np
from flint import arb, fmpz

import numerics.derivative as derivative
from numerics.arb import NEG_INF, abs_ball, from_value, workprec

Array = Any


class Backend:
    """Elementwise, reduction and indexing operations needed by the numerics.

    Subclasses implement the primitives; the few derived operations (``mean``, ``xlogy``)
    are written once here in terms of them.
    """

    name: str = "abstract"

    # -- conversion --------------------------------------------------------------------
    def asarray(self, x: Any) -> Array:
        raise NotImplementedError

    def to_float(self, x: Any) -> float:
        return float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        """Context in which plain arithmetic on this backend's scalars is done."""
        return contextlib.nullcontext()

    # -- derivatives (numerics.derivative: autograd in torch, dual numbers in mpmath and float64) ------
    def grad(self, fn: Any, x: Array) -> Array:
        """The gradient of the scalar ``fn(x, xp)`` at ``x``, through the same formula, in this backend."""
        return derivative.gradient(fn, x, self, mp_backend(derivative.FLOAT_DPS))

    def jacobian(self, fn: Any, x: Array) -> Array:
        """The Jacobian of the vector ``fn(x, xp)`` at ``x`` (outputs x inputs), in this backend."""
        return derivative.jacobian(fn, x, self, mp_backend(derivative.FLOAT_DPS))

    # -- elementwise ---------------------------------------------------------------------
    def exp(self, x: Array) -> Array:
        raise NotImplementedError

    def log(self, x: Array) -> Array:
        raise NotImplementedError

    def log1p(self, x: Array) -> Array:
        raise NotImplementedError

    def sqrt(self, x: Array) -> Array:
        raise NotImplementedError

    def abs(self, x: Array) -> Array:
        raise NotImplementedError

    def softplus(self, x: Array) -> Array:
        """zeta(t) = log(1 + e^t), Merad et al. (11), evaluated without overflow."""
        raise NotImplementedError

    def maximum(self, a: Array, b: Array) -> Array:
        raise NotImplementedError

    def minimum(self, a: Array, b: Array) -> Array:
        raise NotImplementedError

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        """a where ``cond`` (a boolean numpy array or bool), b elsewhere."""
        raise NotImplementedError

    def xlogy(self, x: Array, y: Array) -> Array:
        """x log y, with 0 where x = 0 (whatever y): entropies and KL divergences."""
        raise NotImplementedError

    def polygamma(self, n: int, x: Array) -> Array:
        raise NotImplementedError

    # -- integer functions (values of the integers a statement is about) ----------------
    def harmonic(self, n: Any, m: Any = 1) -> Array:
        """H^(m)_n = sum_{i=1}^n i^-m (the generalized harmonic number), exact summation."""
        raise NotImplementedError

    def binomial(self, n: Any, k: Any) -> Array:
        raise NotImplementedError

    # -- reductions and indexing ----------------------------------------------------------
    def sum(self, x: Array, axis: int | None = None) -> Array:
        raise NotImplementedError

    def max(self, x: Array, axis: int | None = None) -> Array:
        """numpy's (float64 and object arrays: mpf compares exactly); a backend with its own arrays overrides it."""
        return np.max(x, axis=axis)

    def min(self, x: Array, axis: int | None = None) -> Array:
        return np.min(x, axis=axis)

    def logsumexp(self, x: Array, axis: int) -> Array:
        raise NotImplementedError

    def stack(self, xs: Sequence[Array], axis: int = 0) -> Array:
        raise NotImplementedError

    def mean(self, x: Array, axis: int | None = None) -> Array:
        n = int(np.prod(np.shape(x))) if axis is None else int(np.shape(x)[axis])
        return self.sum(x, axis) / n

    def gather(self, x: Array, index: Sequence[int] | np.ndarray, axis: int = 0) -> Array:
        """The entries of ``x`` at ``index`` along ``axis`` (x[index] for axis 0)."""
        idx = np.asarray(index, dtype=np.int64)
        return x[(slice(None),) * axis + (idx.tolist() if not isinstance(x, np.ndarray) else idx,)]

    def diagonal(self, x: Array) -> Array:
        """The main diagonal of a square matrix."""
        raise NotImplementedError

    def transpose(self, x: Array) -> Array:
        """The transpose of a matrix (the last two axes of a batch)."""
        raise NotImplementedError


def logsumexp_float64(x: Array, axis: int) -> np.ndarray:
    """log sum exp(x) along ``axis`` in float64: scipy.special.logsumexp's formula (the maximal
    terms apart, ``a_max + log(count) + log1p(rest / count)``, so that a sum dominated by its
    largest term loses no digits) without its per-call overhead (about 10x faster on the small
    arrays of the linear-classifier fits). A row of -inf gives -inf, a +inf or NaN entry gives
    +inf or NaN, as scipy does (tests/test_backend.py compares the two)."""
    x = np.asarray(x, dtype=np.float64)
    top = np.max(x, axis=axis, keepdims=True)
    finite = np.isfinite(top)
    shift = np.where(finite, top, 0.0)
    is_top = x == top
    count = np.sum(is_top, axis=axis, keepdims=True)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        rest = np.sum(np.where(is_top, 0.0, np.exp(x - shift)), axis=axis, keepdims=True)
        out = np.where(finite, shift + np.log(count) + np.log1p(rest / count), top)
    return np.squeeze(out, axis=axis)


class NumpyBackend(Backend):
    """float64 numpy: the fast pass."""

    name = "float64"

    def asarray(self, x: Any) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def exp(self, x: Array) -> Array:
        return np.exp(self.asarray(x))

    def log(self, x: Array) -> Array:
        with np.errstate(divide="ignore"):
            return np.log(self.asarray(x))

    def log1p(self, x: Array) -> Array:
        return np.log1p(self.asarray(x))

    def sqrt(self, x: Array) -> Array:
        return np.sqrt(self.asarray(x))

    def abs(self, x: Array) -> Array:
        return np.abs(self.asarray(x))

    def softplus(self, x: Array) -> Array:
        # logaddexp(0, t) = max(0,t) + log1p(exp(-|t|)): no overflow for t = 1e4
        return np.logaddexp(0.0, x)

    def maximum(self, a: Array, b: Array) -> Array:
        return np.maximum(a, b)

    def minimum(self, a: Array, b: Array) -> Array:
        return np.minimum(a, b)

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return np.where(cond, a, b)

    def xlogy(self, x: Array, y: Array) -> Array:
        from scipy.special import xlogy  # heavy (0.15 s): scipy.special, only on use

        return xlogy(x, y)

    def polygamma(self, n: int, x: Array) -> Array:
        from scipy.special import polygamma  # heavy (0.15 s): scipy.special, only on use

        return polygamma(int(n), x)

    def harmonic(self, n: Any, m: Any = 1) -> Array:
        n = _as_int(n, "harmonic(n, m): n")
        return np.float64(math.fsum(float(i) ** -float(m) for i in range(1, n + 1)))

    def binomial(self, n: Any, k: Any) -> Array:
        if float(n).is_integer() and float(k).is_integer():
            return np.float64(math.comb(int(n), int(k))) if 0 <= k <= n else np.float64(0.0)
        from scipy.special import binom  # heavy (0.15 s): scipy.special, only on use

        return np.float64(binom(float(n), float(k)))

    def sum(self, x: Array, axis: int | None = None) -> Array:
        return np.sum(x, axis=axis)

    def logsumexp(self, x: Array, axis: int) -> Array:
        return logsumexp_float64(x, axis)

    def stack(self, xs: Sequence[Array], axis: int = 0) -> Array:
        return np.stack([np.asarray(x, dtype=np.float64) for x in xs], axis=axis)

    def diagonal(self, x: Array) -> Array:
        return np.diagonal(x).copy()

    def transpose(self, x: Array) -> Array:
        return np.swapaxes(x, -1, -2)


@dataclass(frozen=True)
class MpBackend(Backend):
    """numpy object arrays of mpmath.mpf at ``dps`` decimal digits.

    Each operation sets the working precision itself, so the backend object can be used
    directly; plain ``+ - * / @`` on mpf objects use the global precision, which
    :meth:`precision` sets for a block.
    """

    dps: int = 60
    name: str = field(default="mpmath", init=False)

    def _map(self, fn: Any, *xs: Array) -> Array:
        with mpmath.workdps(self.dps):
            if any(isinstance(x, np.ndarray) for x in xs):
                arrays = np.broadcast_arrays(*[np.asarray(x, dtype=object) for x in xs])
                out = np.empty(arrays[0].shape, dtype=object)
                flat_out = out.reshape(-1)
                for i, vals in enumerate(zip(*[a.reshape(-1) for a in arrays])):
                    flat_out[i] = fn(*vals)
                return out
            return fn(*xs)

    def asarray(self, x: Any) -> Array:
        with mpmath.workdps(self.dps):
            if isinstance(x, np.ndarray) and x.dtype == object:
                return self._map(mpmath.mpf, x)
            arr = np.asarray(x)
            if arr.ndim == 0:
                return mpmath.mpf(_exact(arr.item()))
            return self._map(lambda v: mpmath.mpf(_exact(v)), arr.astype(object))

    def to_float(self, x: Any) -> float:
        return float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        return mpmath.workdps(self.dps)

    def exp(self, x: Array) -> Array:
        return self._map(mpmath.exp, x)

    def log(self, x: Array) -> Array:
        return self._map(lambda v: mpmath.log(v) if v != 0 else mpmath.mpf("-inf"), x)

    def log1p(self, x: Array) -> Array:
        return self._map(mpmath.log1p, x)

    def sqrt(self, x: Array) -> Array:
        return self._map(mpmath.sqrt, x)

    def abs(self, x: Array) -> Array:
        return self._map(lambda v: abs(mpmath.mpf(v)), x)

    def softplus(self, x: Array) -> Array:
        def one(t: Any) -> Any:
            # max(0,t) + log1p(exp(-|t|)): same form as the float twin
            return (t if t > 0 else mpmath.mpf(0)) + mpmath.log1p(mpmath.exp(-abs(t)))

        return self._map(one, x)

    def maximum(self, a: Array, b: Array) -> Array:
        return self._map(lambda u, v: u if u >= v else v, a, b)

    def minimum(self, a: Array, b: Array) -> Array:
        return self._map(lambda u, v: u if u <= v else v, a, b)

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return np.where(cond, a, b)

    def xlogy(self, x: Array, y: Array) -> Array:
        return self._map(lambda u, v: mpmath.mpf(0) if u == 0 else u * mpmath.log(v), x, y)

    def polygamma(self, n: int, x: Array) -> Array:
        return self._map(lambda v: mpmath.polygamma(int(n), v), x)

    def harmonic(self, n: Any, m: Any = 1) -> Array:
        n = _as_int(n, "harmonic(n, m): n")
        with mpmath.workdps(self.dps):
            m = mpmath.mpf(_exact(m))
            if m == 1:
                return mpmath.harmonic(n)
            return mpmath.fsum(mpmath.mpf(i) ** -m for i in range(1, n + 1))

    def binomial(self, n: Any, k: Any) -> Array:
        with mpmath.workdps(self.dps):
            return mpmath.binomial(_exact(n), _exact(k))

    def sum(self, x: Array, axis: int | None = None) -> Array:
        with mpmath.workdps(self.dps):
            if axis is None:
                return mpmath.fsum(np.ravel(x))
            return np.sum(x, axis=axis)

    def logsumexp(self, x: Array, axis: int) -> Array:
        with mpmath.workdps(self.dps):
            m = np.max(x, axis=axis, keepdims=True)
            m = np.where(m == mpmath.mpf("-inf"), mpmath.mpf(0), m)
            shifted = self.exp(x - m)
            s = np.sum(shifted, axis=axis, keepdims=True)
            out = np.squeeze(m + self.log(s), axis=axis)
            return out[()] if out.ndim == 0 else out

    def stack(self, xs: Sequence[Array], axis: int = 0) -> Array:
        return np.stack([np.asarray(x, dtype=object) for x in xs], axis=axis)

    def diagonal(self, x: Array) -> Array:
        return np.diagonal(x).copy()

    def transpose(self, x: Array) -> Array:
        return np.swapaxes(x, -1, -2)


class ArbBackend(Backend):
    """numpy object arrays of python-flint ``arb`` balls at ``prec`` bits: rigorous enclosures.

    Every value is a ball ``[m +/- r]`` that contains the exact value of the formula (FLINT/Arb's
    containment guarantee: each operation's result contains the exact result for every point of
    its input balls; midpoint rounding goes into the radius).  Inputs convert exactly: a float is
    its binary value, an int or a Fraction a point ball when it fits ``prec`` bits (a ball
    containing it otherwise), an mpmath number likewise.

    Operations that choose between values are written so that the result still encloses the
    exact one when balls overlap: ``maximum``/``max`` use arb's ``max`` (a ball containing
    ``max(x, y)`` for every ``x``, ``y`` in the balls), never a comparison that would pick one
    ball; ``logsumexp`` shifts by the *midpoint* of the max ball (``LSE(x) = m + log sum
    exp(x - m)`` holds for every real ``m``, so any exact shift is correct; the midpoint keeps
    ``exp`` in range).  ``abs`` of a ball around 0 has a lower end >= 0.  ``log`` of exactly 0
    is ``-inf``; ``log``/``sqrt`` of a ball reaching below their domain is NaN (no enclosure).

    Elementwise functions set the precision themselves; plain ``+ - * /`` on balls use
    python-flint's global precision, which :meth:`precision` sets for a block (as for mpmath).
    Python comparisons of balls (``a < b``) are True only when certain.
    """

    name = "arb"

    def __init__(self, prec: int = 200) -> None:
        if int(prec) < 53:
            raise ValueError(f"arb backend precision {prec} < 53 bits: floats would not convert exactly")
        self.prec = int(prec)

    def __repr__(self) -> str:
        return f"ArbBackend(prec={self.prec})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArbBackend) and other.prec == self.prec

    def __hash__(self) -> int:
        return hash(("arb", self.prec))

    # -- conversion --------------------------------------------------------------------
    def _one(self, v: Any) -> Any:
        return from_value(v)

    def _map(self, fn: Any, *xs: Array) -> Array:
        with workprec(self.prec):
            if any(isinstance(x, np.ndarray) for x in xs):
                arrays = np.broadcast_arrays(*[np.asarray(x, dtype=object) for x in xs])
                out = np.empty(arrays[0].shape, dtype=object)
                flat_out = out.reshape(-1)
                for i, vals in enumerate(zip(*[a.reshape(-1) for a in arrays])):
                    flat_out[i] = fn(*[self._one(v) for v in vals])
                return out
            return fn(*[self._one(v) for v in xs])

    def asarray(self, x: Any) -> Array:
        with workprec(self.prec):
            if isinstance(x, np.ndarray) and x.dtype == object:
                return self._map(lambda v: v, x)
            arr = np.asarray(x)
            if arr.ndim == 0:
                return self._one(arr.item())
            return self._map(lambda v: v, arr.astype(object))

    def to_float(self, x: Any) -> float:
        """The midpoint as the nearest float (for display and screening, not for decisions)."""
        if isinstance(x, np.ndarray):
            x = x.item()
        return float(self._one(x).mid()) if not isinstance(x, (int, float)) else float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        return workprec(self.prec)

    # -- elementwise ---------------------------------------------------------------------
    def exp(self, x: Array) -> Array:
        return self._map(lambda v: v.exp(), x)

    def log(self, x: Array) -> Array:
        return self._map(lambda v: NEG_INF if v.is_zero() else v.log(), x)

    def log1p(self, x: Array) -> Array:
        return self._map(lambda v: NEG_INF if (v + 1).is_zero() else v.log1p(), x)

    def sqrt(self, x: Array) -> Array:
        return self._map(lambda v: v.sqrt(), x)

    def abs(self, x: Array) -> Array:
        return self._map(abs_ball, x)

    def softplus(self, x: Array) -> Array:
        def one(t: Any) -> Any:
            if t > 0:  # t + log1p(e^-t): e^t is never formed for large t
                return t + (-t).exp().log1p()
            return t.exp().log1p()  # t <= 0 or a ball around 0: log1p(e^t) is well conditioned

        return self._map(one, x)

    def maximum(self, a: Array, b: Array) -> Array:
        return self._map(lambda u, v: u.max(v), a, b)

    def minimum(self, a: Array, b: Array) -> Array:
        return self._map(lambda u, v: u.min(v), a, b)

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        out = np.where(cond, np.asarray(self.asarray(a), dtype=object), np.asarray(self.asarray(b), dtype=object))
        return out[()] if out.ndim == 0 else out

    def xlogy(self, x: Array, y: Array) -> Array:
        return self._map(lambda u, v: arb(0) if u.is_zero() else u * v.log(), x, y)

    def polygamma(self, n: int, x: Array) -> Array:
        n = int(n)
        if n == 0:
            return self._map(lambda v: v.digamma(), x)

        sign = -1 if n % 2 == 0 else 1  # psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x)
        return self._map(lambda v: sign * math.factorial(n) * arb(n + 1).zeta(v), x)

    def harmonic(self, n: Any, m: Any = 1) -> Array:
        n = _as_int(n, "harmonic(n, m): n")
        with workprec(self.prec):
            m = self._one(m)
            if n <= 0:
                return arb(0)
            if m == 1:
                return arb(n + 1).digamma() + arb.const_euler()  # H_n = psi(n + 1) + gamma
            if m > 1:
                return m.zeta() - m.zeta(arb(n + 1))  # zeta(m) - zeta(m, n + 1)
            total = arb(0)
            for i in range(1, n + 1):
                total += arb(i) ** (-m)
            return total

    def binomial(self, n: Any, k: Any) -> Array:
        with workprec(self.prec):
            fn, fk = float(n), float(k)
            if fn.is_integer() and fk.is_integer():
                ni, ki = int(fn), int(fk)
                return arb(fmpz(math.comb(ni, ki))) if 0 <= ki <= ni else arb(0)
            nb, kb = self._one(n), self._one(k)
            return (nb + 1).gamma() * (kb + 1).rgamma() * (nb - kb + 1).rgamma()

    # -- reductions and indexing ----------------------------------------------------------
    def sum(self, x: Array, axis: int | None = None) -> Array:
        with workprec(self.prec):
            if axis is None:
                total = arb(0)
                for v in np.ravel(np.asarray(x, dtype=object)):
                    total += self._one(v)
                return total
            return np.sum(np.asarray(x, dtype=object), axis=axis)

    def mean(self, x: Array, axis: int | None = None) -> Array:
        n = int(np.prod(np.shape(x))) if axis is None else int(np.shape(x)[axis])
        with workprec(self.prec):
            return self.sum(x, axis) / n

    def _reduce(self, x: Array, axis: int | None, pick: str) -> Array:
        arr = np.asarray(x, dtype=object)
        op = np.frompyfunc((lambda u, v: u.max(v)) if pick == "max" else (lambda u, v: u.min(v)), 2, 1)
        with workprec(self.prec):
            arr = self._map(lambda v: v, arr) if arr.ndim else self._one(arr.item())
            if np.ndim(arr) == 0:
                return arr
            if axis is None:
                return op.reduce(np.ravel(arr))
            return op.reduce(arr, axis=axis)

    def max(self, x: Array, axis: int | None = None) -> Array:
        return self._reduce(x, axis, "max")

    def min(self, x: Array, axis: int | None = None) -> Array:
        return self._reduce(x, axis, "min")

    def logsumexp(self, x: Array, axis: int) -> Array:
        arr = self.asarray(np.asarray(x, dtype=object))
        with workprec(self.prec):
            m = np.expand_dims(self.max(arr, axis=axis), axis)
            # any real shift is exact: LSE(x) = s + log sum exp(x - s); take the midpoint of max
            shift = np.frompyfunc(lambda b: b.mid() if b.is_finite() and not b.is_nan() else arb(0), 1, 1)(m)
            s = np.sum(self.exp(arr - shift), axis=axis, keepdims=True)
            out = np.squeeze(shift + self.log(s), axis=axis)
            return out[()] if out.ndim == 0 else out

    def stack(self, xs: Sequence[Array], axis: int = 0) -> Array:
        return np.stack([np.asarray(self.asarray(x), dtype=object) for x in xs], axis=axis)

    def diagonal(self, x: Array) -> Array:
        return np.diagonal(x).copy()

    def transpose(self, x: Array) -> Array:
        return np.swapaxes(x, -1, -2)

def _exact(v: Any) -> Any:
    """Convert a Python/numpy scalar to something mpf takes without rounding."""
    if isinstance(v, (np.floating, np.integer)):
        return v.item()
    return v


def _as_int(v: Any, what: str) -> int:
    f = float(v)
    if not f.is_integer():
        raise ValueError(f"{what} = {v!r} must be an integer")
    return int(f)


class TorchBackend(Backend):
    """torch float64: the differentiable pass used by the adversarial search."""

    name = "torch"

    def __init__(self) -> None:
        import torch  # heavy (1 s): only the torch backend needs it

        self.torch = torch

    def asarray(self, x: Any) -> Array:
        t = self.torch
        if isinstance(x, t.Tensor):
            return x.to(t.float64)
        return t.as_tensor(np.asarray(x, dtype=np.float64))

    def to_float(self, x: Any) -> float:
        return float(x.detach()) if hasattr(x, "detach") else float(x)

    def exp(self, x: Array) -> Array:
        return self.torch.exp(self.asarray(x))

    def log(self, x: Array) -> Array:
        return self.torch.log(self.asarray(x))

    def log1p(self, x: Array) -> Array:
        return self.torch.log1p(self.asarray(x))

    def sqrt(self, x: Array) -> Array:
        return self.torch.sqrt(self.asarray(x))

    def abs(self, x: Array) -> Array:
        return self.torch.abs(self.asarray(x))

    def softplus(self, x: Array) -> Array:
        # not torch.nn.functional.softplus: its threshold=20 returns t, off by e^-20
        x = self.asarray(x)
        return self.torch.logaddexp(self.torch.zeros_like(x), x)

    def maximum(self, a: Array, b: Array) -> Array:
        return self.torch.maximum(self.asarray(a), self.asarray(b))

    def minimum(self, a: Array, b: Array) -> Array:
        return self.torch.minimum(self.asarray(a), self.asarray(b))

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return self.torch.where(self.torch.as_tensor(cond), self.asarray(a), self.asarray(b))

    def xlogy(self, x: Array, y: Array) -> Array:
        return self.torch.xlogy(self.asarray(x), self.asarray(y))

    def polygamma(self, n: int, x: Array) -> Array:
        return self.torch.polygamma(int(n), self.asarray(x))

    def harmonic(self, n: Any, m: Any = 1) -> Array:
        return self.asarray(float(FLOAT.harmonic(n, m)))  # n is an integer: no gradient to keep

    def binomial(self, n: Any, k: Any) -> Array:
        return self.asarray(float(FLOAT.binomial(float(n), float(k))))

    def sum(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.sum(x) if axis is None else self.torch.sum(x, dim=axis)

    def max(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.max(x) if axis is None else self.torch.max(x, dim=axis).values

    def min(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.min(x) if axis is None else self.torch.min(x, dim=axis).values

    def logsumexp(self, x: Array, axis: int) -> Array:
        return self.torch.logsumexp(x, dim=axis)

    def stack(self, xs: Sequence[Array], axis: int = 0) -> Array:
        return self.torch.stack([self.asarray(x) for x in xs], dim=axis)

    def gather(self, x: Array, index: Sequence[int] | np.ndarray, axis: int = 0) -> Array:
        idx = self.torch.as_tensor(np.asarray(index, dtype=np.int64))
        return self.torch.index_select(x, axis, idx)

    def diagonal(self, x: Array) -> Array:
        return self.torch.diagonal(x)

    def transpose(self, x: Array) -> Array:
        return self.torch.transpose(x, -1, -2)


FLOAT = NumpyBackend()


def mp_backend(dps: int = 60) -> MpBackend:
    """High-precision backend with ``dps`` decimal digits (confirmation pass)."""
    return MpBackend(dps=dps)


def arb_backend(prec: int = 200) -> ArbBackend:
    """Rigorous backend: python-flint arb balls at ``prec`` bits (200 bits is about 60 digits)."""
    return ArbBackend(prec=prec)


_TORCH: TorchBackend | None = None


def torch_backend() -> TorchBackend:
    """The differentiable backend (imports torch on first use)."""
    global _TORCH
    if _TORCH is None:
        _TORCH = TorchBackend()
    return _TORCH
