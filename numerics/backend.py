"""Array backends: one formula, three evaluators.

Every quantity in :mod:`numerics` is written once against a :class:`Backend`
(the ``xp`` argument) chosen by the caller, the way mpmath writes its
high-level functions once against a context:

* :data:`FLOAT` -- numpy float64, vectorized: the fast screening pass;
* :func:`mp_backend` -- numpy object arrays of ``mpmath.mpf`` at a chosen
  precision: the confirmation pass that decides a refutation;
* :data:`TORCH` -- torch float64 tensors, differentiable: the adversarial search.

Because the float, high-precision and differentiable twins share one formula
they cannot drift apart.

Pitfall this layer exists for: ``log(sum(exp(x)))`` overflows at ``x = 710``
in float64 (``exp(710) = inf``); :meth:`Backend.logsumexp` shifts by the max.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np

Array = Any


class Backend:
    """Elementwise and reduction operations needed by the numerics."""

    name: str = "abstract"

    def asarray(self, x: Any) -> Array:
        raise NotImplementedError

    def exp(self, x: Array) -> Array:
        raise NotImplementedError

    def log(self, x: Array) -> Array:
        raise NotImplementedError

    def log1p(self, x: Array) -> Array:
        raise NotImplementedError

    def sqrt(self, x: Array) -> Array:
        raise NotImplementedError

    def logsumexp(self, x: Array, axis: int) -> Array:
        raise NotImplementedError

    def softplus(self, x: Array) -> Array:
        """zeta(t) = log(1 + e^t), Merad et al. (11), evaluated without overflow."""
        raise NotImplementedError

    def sum(self, x: Array, axis: int | None = None) -> Array:
        raise NotImplementedError

    def max(self, x: Array, axis: int | None = None) -> Array:
        raise NotImplementedError

    def min(self, x: Array, axis: int | None = None) -> Array:
        raise NotImplementedError

    def to_float(self, x: Any) -> float:
        return float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        """Context in which plain arithmetic on this backend's scalars is done."""
        return contextlib.nullcontext()


class NumpyBackend(Backend):
    """float64 numpy: the fast pass."""

    name = "float64"

    def asarray(self, x: Any) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def exp(self, x: Array) -> Array:
        return np.exp(x)

    def log(self, x: Array) -> Array:
        with np.errstate(divide="ignore"):
            return np.log(x)

    def log1p(self, x: Array) -> Array:
        return np.log1p(x)

    def sqrt(self, x: Array) -> Array:
        return np.sqrt(x)

    def logsumexp(self, x: Array, axis: int) -> Array:
        from scipy.special import logsumexp

        return logsumexp(x, axis=axis)

    def softplus(self, x: Array) -> Array:
        # logaddexp(0, t) = max(0,t) + log1p(exp(-|t|)): no overflow for t = 1e4
        return np.logaddexp(0.0, x)

    def sum(self, x: Array, axis: int | None = None) -> Array:
        return np.sum(x, axis=axis)

    def max(self, x: Array, axis: int | None = None) -> Array:
        return np.max(x, axis=axis)

    def min(self, x: Array, axis: int | None = None) -> Array:
        return np.min(x, axis=axis)


@dataclass(frozen=True)
class MpBackend(Backend):
    """numpy object arrays of mpmath.mpf at ``dps`` decimal digits.

    Use inside ``with mp_backend(60) as xp:`` only if you need the context;
    each operation sets the working precision itself, so the backend object
    can also be used directly.
    """

    dps: int = 60
    name: str = field(default="mpmath", init=False)

    def _map(self, fn: Any, x: Array) -> Array:
        with mpmath.workdps(self.dps):
            if isinstance(x, np.ndarray):
                out = np.empty(x.shape, dtype=object)
                flat_in = x.ravel()
                flat_out = out.ravel()
                for i, v in enumerate(flat_in):
                    flat_out[i] = fn(v)
                return out
            return fn(x)

    def asarray(self, x: Any) -> Array:
        with mpmath.workdps(self.dps):
            if isinstance(x, np.ndarray) and x.dtype == object:
                return self._map(mpmath.mpf, x)
            arr = np.asarray(x)
            if arr.ndim == 0:
                return mpmath.mpf(_exact(arr.item()))
            return self._map(lambda v: mpmath.mpf(_exact(v)), arr.astype(object))

    def exp(self, x: Array) -> Array:
        return self._map(mpmath.exp, x)

    def log(self, x: Array) -> Array:
        return self._map(lambda v: mpmath.log(v) if v != 0 else mpmath.mpf("-inf"), x)

    def log1p(self, x: Array) -> Array:
        return self._map(mpmath.log1p, x)

    def sqrt(self, x: Array) -> Array:
        return self._map(mpmath.sqrt, x)

    def logsumexp(self, x: Array, axis: int) -> Array:
        with mpmath.workdps(self.dps):
            m = np.max(x, axis=axis, keepdims=True)
            m = np.where(m == mpmath.mpf("-inf"), mpmath.mpf(0), m)
            shifted = self.exp(x - m)
            s = np.sum(shifted, axis=axis, keepdims=True)
            out = np.squeeze(m + self.log(s), axis=axis)
            return out[()] if out.ndim == 0 else out

    def softplus(self, x: Array) -> Array:
        def one(t: Any) -> Any:
            # max(0,t) + log1p(exp(-|t|)): same form as the float twin
            return (t if t > 0 else mpmath.mpf(0)) + mpmath.log1p(mpmath.exp(-abs(t)))

        return self._map(one, x)

    def sum(self, x: Array, axis: int | None = None) -> Array:
        with mpmath.workdps(self.dps):
            if axis is None:
                return mpmath.fsum(np.ravel(x))
            return np.sum(x, axis=axis)

    def max(self, x: Array, axis: int | None = None) -> Array:
        return np.max(x, axis=axis)

    def min(self, x: Array, axis: int | None = None) -> Array:
        return np.min(x, axis=axis)

    def to_float(self, x: Any) -> float:
        return float(x)

    def precision(self) -> contextlib.AbstractContextManager[Any]:
        # +, -, *, / and @ on mpf objects use the global precision: set it
        return mpmath.workdps(self.dps)


def _exact(v: Any) -> Any:
    """Convert a Python/numpy scalar to something mpf takes without rounding."""
    if isinstance(v, (np.floating, np.integer)):
        return v.item()
    return v


class TorchBackend(Backend):
    """torch float64: the differentiable pass used by the adversarial search."""

    name = "torch"

    def __init__(self) -> None:
        import torch

        self.torch = torch

    def asarray(self, x: Any) -> Array:
        t = self.torch
        if isinstance(x, t.Tensor):
            return x.to(t.float64)
        return t.as_tensor(np.asarray(x, dtype=np.float64))

    def exp(self, x: Array) -> Array:
        return self.torch.exp(x)

    def log(self, x: Array) -> Array:
        return self.torch.log(x)

    def log1p(self, x: Array) -> Array:
        return self.torch.log1p(x)

    def sqrt(self, x: Array) -> Array:
        return self.torch.sqrt(x)

    def logsumexp(self, x: Array, axis: int) -> Array:
        return self.torch.logsumexp(x, dim=axis)

    def softplus(self, x: Array) -> Array:
        # not torch.nn.functional.softplus: its threshold=20 returns t, off by e^-20
        return self.torch.logaddexp(self.torch.zeros_like(x), x)

    def sum(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.sum(x) if axis is None else self.torch.sum(x, dim=axis)

    def max(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.max(x) if axis is None else self.torch.max(x, dim=axis).values

    def min(self, x: Array, axis: int | None = None) -> Array:
        return self.torch.min(x) if axis is None else self.torch.min(x, dim=axis).values

    def to_float(self, x: Any) -> float:
        return float(x.detach()) if hasattr(x, "detach") else float(x)


FLOAT = NumpyBackend()


def mp_backend(dps: int = 60) -> MpBackend:
    """High-precision backend with ``dps`` decimal digits (confirmation pass)."""
    return MpBackend(dps=dps)


_TORCH: TorchBackend | None = None


def torch_backend() -> TorchBackend:
    """The differentiable backend (imports torch on first use)."""
    global _TORCH
    if _TORCH is None:
        _TORCH = TorchBackend()
    return _TORCH
