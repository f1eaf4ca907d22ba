"""Derivatives through the same formula in every backend: ``xp.grad(fn, x)``.

A quantity that needs a gradient (a gradient identity, a first-order condition) writes its function once,
``fn(x, xp)`` against the backend ``xp``, and asks the backend for its gradient at ``x``:

* torch -- autograd, with ``create_graph`` so that the adversarial search can climb through it;
* float64 -- the same formula in torch float64 with autograd, returned as a numpy array: exact derivative
  rules, each operation rounded once, as the float screen needs (a finite difference would lose half the
  digits and make the screen unreliable);
* mpmath -- forward-mode dual numbers (:class:`Dual`) at the working precision, one pass per coordinate:
  exact derivative rules evaluated at 60 digits and beyond, as the confirmation needs.

Pitfall this module exists for: ``(f(x + h) - f(x)) / h`` at h = 1e-8 keeps about 8 of float64's 16
digits, so a float margin and its 60-digit twin differ by ~1e-8 relative and the screen is marked
unreliable; the dual numbers and autograd keep every digit.
"""

from __future__ import annotations

from typing import Any, Callable

import mpmath
import numpy as np

Formula = Callable[[Any, Any], Any]


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
    functions also take dual numbers."""

    class DualMpBackend(type(base)):  # type: ignore[misc]
        def asarray(self, x: Any) -> Any:
            if isinstance(x, Dual):
                return x
            if isinstance(x, np.ndarray) and x.dtype == object and any(isinstance(v, Dual) for v in x.reshape(-1)):
                return x
            return super().asarray(x)

        def to_float(self, x: Any) -> float:
            return float(x.value if isinstance(x, Dual) else x)

        def exp(self, x: Any) -> Any:
            return self._map(dual_exp, x)

        def log(self, x: Any) -> Any:
            return self._map(dual_log, x)

        def log1p(self, x: Any) -> Any:
            return self._map(dual_log1p, x)

        def sqrt(self, x: Any) -> Any:
            return self._map(dual_sqrt, x)

        def abs(self, x: Any) -> Any:
            return self._map(abs, x)

        def softplus(self, x: Any) -> Any:  # log(1 + e^t), written to stay finite for large t
            return self._map(lambda t: t + dual_log1p(dual_exp(-t)) if t > 0 else dual_log1p(dual_exp(t)), x)

        def maximum(self, a: Any, b: Any) -> Any:
            return self._map(lambda u, v: u if u >= v else v, a, b)

        def minimum(self, a: Any, b: Any) -> Any:
            return self._map(lambda u, v: u if u <= v else v, a, b)

        def sum(self, x: Any, axis: int | None = None) -> Any:
            if axis is not None:
                return np.sum(x, axis=axis)
            terms = [Dual.lift(v) for v in np.ravel(np.asarray(x, dtype=object))]
            with mpmath.workdps(self.dps):  # fsum on values and on tangents: one rounding each
                return Dual(mpmath.fsum(t.value for t in terms), mpmath.fsum(t.tangent for t in terms))

    backend = DualMpBackend(dps=base.dps)
    return backend


def gradient(fn: Formula, x: Any, xp: Any, torch_xp: Any = None) -> Any:
    """The gradient of the scalar ``fn(x, xp)`` at ``x``, in backend ``xp`` (see the module docstring);
    ``torch_xp`` is the torch backend the float64 derivative runs the formula in."""
    if xp.name == "torch":
        import torch  # heavy: only a derivative needs it

        x = x if x.requires_grad else x.detach().requires_grad_(True)
        (g,) = torch.autograd.grad(fn(x, xp), x, create_graph=True)
        return g
    if xp.name == "float64":
        import torch  # heavy: only a derivative needs it

        xt = torch.tensor(np.asarray(x, dtype=np.float64), dtype=torch.float64, requires_grad=True)
        (g,) = torch.autograd.grad(fn(xt, torch_xp), xt)
        return g.detach().numpy()
    if xp.name == "mpmath":
        dual = _dual_backend(xp)
        values = np.asarray(x, dtype=object)
        flat = values.reshape(-1)
        out = np.empty(flat.size, dtype=object)
        with mpmath.workdps(xp.dps):
            for i in range(flat.size):
                seeded = np.array([Dual(mpmath.mpf(v), 1 if j == i else 0) for j, v in enumerate(flat)],
                                  dtype=object).reshape(values.shape)
                y = fn(seeded if values.ndim else seeded.reshape(()).item(), dual)
                y = y.reshape(()).item() if isinstance(y, np.ndarray) else y
                out[i] = y.tangent if isinstance(y, Dual) else mpmath.mpf(0)
        return out.reshape(values.shape) if values.ndim else out[0]
    raise NotImplementedError(f"the {xp.name} backend has no gradient: differentiate in float64, mpmath or torch")


def jacobian(fn: Formula, x: Any, xp: Any, torch_xp: Any = None) -> Any:
    """The Jacobian (outputs x inputs) of the vector ``fn(x, xp)`` at ``x``, in backend ``xp``."""
    if xp.name == "torch":
        import torch  # heavy: only a derivative needs it

        return torch.autograd.functional.jacobian(lambda t: fn(t, xp), x, create_graph=True)
    if xp.name == "float64":
        import torch  # heavy: only a derivative needs it

        xt = torch.tensor(np.asarray(x, dtype=np.float64), dtype=torch.float64)
        return torch.autograd.functional.jacobian(lambda t: fn(t, torch_xp), xt).detach().numpy()
    if xp.name == "mpmath":
        dual = _dual_backend(xp)
        values = np.asarray(x, dtype=object)
        flat = values.reshape(-1)
        columns = []
        with mpmath.workdps(xp.dps):
            for i in range(flat.size):
                seeded = np.array([Dual(mpmath.mpf(v), 1 if j == i else 0) for j, v in enumerate(flat)],
                                  dtype=object).reshape(values.shape)
                y = np.asarray(fn(seeded, dual), dtype=object).reshape(-1)
                columns.append([v.tangent if isinstance(v, Dual) else mpmath.mpf(0) for v in y])
        return np.array(columns, dtype=object).T
    raise NotImplementedError(f"the {xp.name} backend has no Jacobian: differentiate in float64, mpmath or torch")
