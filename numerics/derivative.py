"""Derivatives through the same formula in every backend: ``xp.grad(fn, x)``.

A quantity that needs a gradient (a gradient identity, a first-order condition) writes its function once,
``fn(x, xp)`` against the backend ``xp``, and asks the backend for its gradient at ``x``:

* torch -- autograd, with ``create_graph`` so that the adversarial search can climb through it;
* mpmath -- forward-mode dual numbers (:class:`Dual`) at the working precision, one pass per coordinate:
  exact derivative rules evaluated at 60 digits and beyond, as the confirmation needs;
* float64 -- the same dual numbers at ``FLOAT_DPS`` digits, rounded once to float64: the derivative is as
  accurate as a float64 number can be, so the float screen compares like with like (a finite difference
  would lose half the digits and make the screen unreliable). ``fn`` may use values it captured from the
  float64 view (numpy scalars and arrays mix with dual numbers), which torch autograd would refuse.

The dual backend differentiates ``+ - * / **``, ``@``, indexing, ``sum``, ``logsumexp`` and every row of
:mod:`numerics.operations` with a ``dual`` form (``exp``, ``log``, ``softplus``, ``polygamma``, ...: this
module holds the elementary rules that table uses); the cost is one pass of the formula per input
coordinate, in mpmath (meant for inputs of up to a few hundred coordinates).

Pitfall this module exists for: ``(f(x + h) - f(x)) / h`` at h = 1e-8 keeps about 8 of float64's 16
digits, so a float margin and its 60-digit twin differ by ~1e-8 relative and the screen is marked
unreliable; the dual numbers and autograd keep every digit.
"""

from __future__ import annotations

from typing import Any, Callable

import mpmath
import numpy as np

Formula = Callable[[Any, Any], Any]
FLOAT_DPS = 30  # the digits the float64 derivative is computed at before its one rounding


class Dual:
    """a + b eps with eps^2 = 0: ``value`` and ``tangent`` (mpf or float); arithmetic carries the tangent."""

    __slots__ = ("value", "tangent")

    def __init__(self, value: Any, tangent: Any = 0) -> None:
        self.value, self.tangent = value, tangent

    @staticmethod
    def lift(x: Any) -> "Dual":
        return x if isinstance(x, Dual) else Dual(x, 0)

    def __add__(self, other: Any) -> "Dual":
        o = Dual.lift(other)
        return Dual(self.value + o.value, self.tangent + o.tangent)

    __radd__ = __add__

    def __sub__(self, other: Any) -> "Dual":
        o = Dual.lift(other)
        return Dual(self.value - o.value, self.tangent - o.tangent)

    def __rsub__(self, other: Any) -> "Dual":
        return Dual.lift(other) - self

    def __mul__(self, other: Any) -> "Dual":
        o = Dual.lift(other)
        return Dual(self.value * o.value, self.tangent * o.value + self.value * o.tangent)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> "Dual":
        o = Dual.lift(other)
        return Dual(self.value / o.value, (self.tangent * o.value - self.value * o.tangent) / (o.value * o.value))

    def __rtruediv__(self, other: Any) -> "Dual":
        return Dual.lift(other) / self

    def __neg__(self) -> "Dual":
        return Dual(-self.value, -self.tangent)

    def __pos__(self) -> "Dual":
        return self

    def __pow__(self, k: Any) -> "Dual":
        if isinstance(k, Dual):
            return dual_exp(k * dual_log(self))
        if k == 0:
            return Dual(self.value ** 0, 0)
        return Dual(self.value ** k, k * self.value ** (k - 1) * self.tangent)

    def __abs__(self) -> "Dual":
        return self if self.value >= 0 else -self

    def __lt__(self, other: Any) -> bool:
        return self.value < Dual.lift(other).value

    def __le__(self, other: Any) -> bool:
        return self.value <= Dual.lift(other).value

    def __gt__(self, other: Any) -> bool:
        return self.value > Dual.lift(other).value

    def __ge__(self, other: Any) -> bool:
        return self.value >= Dual.lift(other).value

    def __float__(self) -> float:
        return float(self.value)

    def __repr__(self) -> str:
        return f"Dual({self.value}, {self.tangent})"


def _unary(f: Callable[[Any], Any], df: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(x: Any) -> Any:
        if isinstance(x, Dual):
            return Dual(f(x.value), df(x.value) * x.tangent)
        return f(x)
    return apply


dual_exp = _unary(mpmath.exp, mpmath.exp)
dual_log = _unary(mpmath.log, lambda v: 1 / v)
dual_log1p = _unary(mpmath.log1p, lambda v: 1 / (1 + v))
dual_sqrt = _unary(mpmath.sqrt, lambda v: 1 / (2 * mpmath.sqrt(v)))


def _dual_backend(base: Any) -> Any:
    """The mpmath backend ``base`` (its own class, so this module imports no backend) whose elementwise
    functions also take dual numbers: the ``dual`` forms of the operation table."""

    class DualMpBackend(type(base)):  # type: ignore[misc]
        column = "dual"

        def asarray(self, x: Any) -> Any:
            if isinstance(x, Dual):
                return x
            if isinstance(x, np.ndarray) and x.dtype == object and any(isinstance(v, Dual) for v in x.reshape(-1)):
                return x
            return super().asarray(x)

        def to_float(self, x: Any) -> float:
            return float(x.value if isinstance(x, Dual) else x)

        def sum(self, x: Any, axis: int | None = None) -> Any:
            if axis is not None:
                return np.sum(x, axis=axis)
            terms = [Dual.lift(v) for v in np.ravel(np.asarray(x, dtype=object))]
            with mpmath.workdps(self.dps):  # fsum on values and on tangents: one rounding each
                return Dual(mpmath.fsum(t.value for t in terms), mpmath.fsum(t.tangent for t in terms))

    backend = DualMpBackend(dps=base.dps)
    return backend


def _as_float(value: Any) -> Any:
    """A derivative computed in mpmath, rounded once to float64 (an array or a number)."""
    return np.asarray(value, dtype=object).astype(np.float64) if isinstance(value, np.ndarray) else float(value)


def gradient(fn: Formula, x: Any, xp: Any, mp_xp: Any = None) -> Any:
    """The gradient of the scalar ``fn(x, xp)`` at ``x``, in backend ``xp`` (see the module docstring);
    ``mp_xp`` is the mpmath backend (at ``FLOAT_DPS`` digits) the float64 derivative is computed in."""
    if xp.name == "torch":
        import torch  # heavy: only a derivative in the torch backend needs it

        x = x if x.requires_grad else x.detach().requires_grad_(True)
        (g,) = torch.autograd.grad(fn(x, xp), x, create_graph=True)
        return g
    if xp.name == "float64":
        return _as_float(gradient(fn, np.asarray(x, dtype=np.float64), mp_xp))
    if xp.name == "mpmath":
        values = np.asarray(x, dtype=object)
        out = [_scalar(y).tangent if isinstance(_scalar(y), Dual) else mpmath.mpf(0)
               for y in _passes(fn, values, xp)]
        return np.array(out, dtype=object).reshape(values.shape) if values.ndim else out[0]
    raise NotImplementedError(f"the {xp.name} backend has no gradient: differentiate in float64, mpmath or torch")


def jacobian(fn: Formula, x: Any, xp: Any, mp_xp: Any = None) -> Any:
    """The Jacobian (outputs x inputs) of the vector ``fn(x, xp)`` at ``x``, in backend ``xp``."""
    if xp.name == "torch":
        import torch  # heavy: only a derivative in the torch backend needs it

        return torch.autograd.functional.jacobian(lambda t: fn(t, xp), x, create_graph=True)
    if xp.name == "float64":
        return _as_float(jacobian(fn, np.asarray(x, dtype=np.float64), mp_xp))
    if xp.name == "mpmath":
        columns = [[v.tangent if isinstance(v, Dual) else mpmath.mpf(0) for v in np.asarray(y, dtype=object).reshape(-1)]
                   for y in _passes(fn, np.asarray(x, dtype=object), xp)]
        return np.array(columns, dtype=object).T
    raise NotImplementedError(f"the {xp.name} backend has no Jacobian: differentiate in float64, mpmath or torch")


def _scalar(y: Any) -> Any:
    return y.reshape(()).item() if isinstance(y, np.ndarray) else y


def _passes(fn: Formula, values: np.ndarray, xp: Any) -> list[Any]:
    """``fn`` evaluated once per input coordinate, that coordinate seeded with tangent 1 (forward mode)."""
    dual = _dual_backend(xp)
    flat = values.reshape(-1)
    out = []
    with mpmath.workdps(xp.dps):
        for i in range(flat.size):
            seeded = np.array([Dual(mpmath.mpf(v), 1 if j == i else 0) for j, v in enumerate(flat)],
                              dtype=object).reshape(values.shape)
            out.append(fn(seeded if values.ndim else seeded.reshape(()).item(), dual))
    return out
