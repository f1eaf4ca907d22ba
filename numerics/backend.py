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
drift apart. Each elementwise operation (``exp``, ``log``, ``harmonic``, ...) is declared once, as a
row of :mod:`numerics.operations` with one form per backend; every class takes its methods from it.
Every function also accepts plain Python numbers (``xp.log(2)`` is log 2 in the backend's type), so a
constant such as ``log(2)`` in a statement works in all three.

Pitfall this layer exists for: ``log(sum(exp(x)))`` overflows at ``x = 710`` in float64
(``exp(710) = inf``); :meth:`Backend.logsumexp` shifts by the max. ``x * log(y)`` is NaN at
``x = y = 0``; :meth:`Backend.xlogy` is 0 there, as the entropy convention needs.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Sequence

import mpmath
import numpy as np
from flint import arb

import numerics.derivative as derivative
from numerics.arb import from_value, workprec
from numerics.operations import OPERATIONS, Absent, Form, Operation, exact_number

Array = Any


class Backend:
    """Elementwise, reduction and indexing operations needed by the numerics.

    Subclasses implement the primitives; the few derived operations (``mean``, ``gather``)
    are written once here in terms of them. The elementwise operations (``exp``, ``log``, ``maximum``,
    ``harmonic``, ...) are the rows of :data:`numerics.operations.OPERATIONS`: every class gets one
    method per row of its ``operations`` table, the row's form for its ``column``, applied by its
    :meth:`_apply`.
    """

    name: str = "abstract"
    column: ClassVar[str] = "abstract"  # the column of the operation table this backend evaluates
    operations: ClassVar[tuple[Operation, ...]] = OPERATIONS

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        install_operations(cls)

    def _apply(self, form: Callable[..., Any], *args: Any) -> Array:
        """A row's form (its ``column``) applied to the arguments: conversion and elementwise mapping."""
        raise NotImplementedError

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

    # -- elementwise: exp, log, ..., one method per row of numerics.operations (install_operations) --
    def where(self, cond: Any, a: Array, b: Array) -> Array:
        """a where ``cond`` (a boolean numpy array or bool), b elsewhere."""
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


def _operation_method(op: Operation, column: str) -> Callable[..., Array]:
    """The method ``xp.<op.name>`` of a backend evaluating ``column``: the row's form, or a refusal naming why."""
    form: Form = op.form(column)
    if isinstance(form, Absent):
        reason = form.reason

        def method(self: Backend, *args: Any) -> Array:
            raise NotImplementedError(f"the {self.name} backend has no {op.name}: {reason}")
    else:
        def method(self: Backend, *args: Any) -> Array:
            return self._apply(form, *args)
    method.__name__ = op.name
    method.__doc__ = op.doc
    return method


def install_operations(cls: type[Backend]) -> None:
    """Give ``cls`` one method per row of its operation table (its own, so a class cannot drift from it)."""
    for op in cls.operations:
        if op.name in vars(cls):
            raise TypeError(f"{cls.__name__}.{op.name} is a row of numerics.operations: declare its form there")
        method = _operation_method(op, cls.column)
        method.__qualname__ = f"{cls.__qualname__}.{op.name}"
        setattr(cls, op.name, method)


install_operations(Backend)


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
    column = "float64"

    def asarray(self, x: Any) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def _apply(self, form: Callable[..., Any], *args: Any) -> Array:
        return form(*(self.asarray(a) for a in args))

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return np.where(cond, a, b)

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
    column: ClassVar[str] = "mpmath"

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
                return mpmath.mpf(exact_number(arr.item()))
            return self._map(lambda v: mpmath.mpf(exact_number(v)), arr.astype(object))

    def to_float(self, x: Any) -> float:
        return float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        return mpmath.workdps(self.dps)

    def _apply(self, form: Callable[..., Any], *args: Any) -> Array:
        return self._map(form, *args)

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return np.where(cond, a, b)

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
    column = "arb"

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

    # -- elementwise (the table's arb forms, on balls) -----------------------------------
    def _apply(self, form: Callable[..., Any], *args: Any) -> Array:
        return self._map(form, *args)

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        out = np.where(cond, np.asarray(self.asarray(a), dtype=object), np.asarray(self.asarray(b), dtype=object))
        return out[()] if out.ndim == 0 else out

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


class TorchBackend(Backend):
    """torch float64: the differentiable pass used by the adversarial search."""

    name = "torch"
    column = "torch"

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

    def _apply(self, form: Callable[..., Any], *args: Any) -> Array:
        return form(self.torch, *(self.asarray(a) for a in args))

    def where(self, cond: Any, a: Array, b: Array) -> Array:
        return self.torch.where(self.torch.as_tensor(cond), self.asarray(a), self.asarray(b))

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
