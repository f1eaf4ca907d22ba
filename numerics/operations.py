"""The backend operations, each declared once: one row per operation, one column per evaluator.

A row (:class:`Operation`) names the backend method (``xp.log``), the sympy function a formula
prints for it (``"log"``; None for a helper that only numerics code calls, such as ``softplus``),
and one *form* per evaluator:

* ``float64`` -- numpy on float64 arrays (the backend converts the arguments);
* ``mpmath`` -- one mpf (or Python number) per argument, at the backend's working precision;
* ``arb`` -- one python-flint ball per argument: the result must contain the exact value;
* ``torch`` -- ``(torch, *tensors)``: the torch module first, so this module never imports torch;
* ``dual`` -- dual numbers (:class:`numerics.derivative.Dual`) or mpf: the derivative rule;
* ``interval`` -- balls, as ``arb``, but raising ``ValueError`` where the ball is not certainly
  inside the domain (what the interval prover, :mod:`numerics.interval`, needs).

A form may be :class:`Absent`, with the reason. As mpmath declares a function once and each
context installs it (``SpecialFunctions.defined_functions``), everything else is derived from this
table: every :class:`numerics.backend.Backend` class gets one method per row, the evaluator's map
and the registration whitelist are :func:`statement_operations`, and the interval compiler reads
:func:`interval_operations`. Adding an operation is one row here.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import mpmath
import numpy as np
from flint import arb, fmpz

from numerics.arb import NEG_INF, abs_ball, from_value
from numerics.derivative import Dual, dual_exp, dual_log, dual_log1p, dual_sqrt

__all__ = [
    "Absent", "Operation", "OPERATIONS", "COLUMNS", "CHECK_COLUMNS", "statement_operations", "statement_names",
    "interval_operations", "statement_function", "ball_log", "ball_sqrt", "exact_number", "integer_argument",
]

#: the evaluators, in the order a row lists its forms
COLUMNS = ("float64", "mpmath", "arb", "torch", "dual", "interval")
#: the backends a check evaluates a statement in (theorems.engine.evaluate): a statement may print a
#: row's sympy function when the row has a form in each
CHECK_COLUMNS = ("float64", "mpmath", "torch")


@dataclass(frozen=True)
class Absent:
    """A form an evaluator does not have, and why."""

    reason: str


Form = Callable[..., Any] | Absent


@dataclass(frozen=True)
class Operation:
    """One backend operation: ``xp.<name>(*args)`` in every backend, and the sympy function ``sympy``."""

    name: str
    sympy: str | None
    doc: str
    float64: Form
    mpmath: Form
    arb: Form
    torch: Form
    dual: Form
    interval: Form
    fold: bool = False  # sympy's function takes any number of arguments (Max): the binary form, left to right
    smooth: bool = True  # differentiable everywhere: the interval prover's second-order tests apply (not |x|, max)

    def form(self, column: str) -> Form:
        """The form for ``column`` (Absent for a column the table does not know, e.g. the abstract Backend)."""
        return getattr(self, column) if column in COLUMNS else Absent(f"no column {column!r} in the table")

    def has(self, column: str) -> bool:
        return not isinstance(self.form(column), Absent)


# ----------------------------------------------------------------------------- argument helpers

def exact_number(v: Any) -> Any:
    """A Python/numpy scalar as something mpf takes without rounding (numpy scalars as Python ones)."""
    if isinstance(v, (np.floating, np.integer)):
        return v.item()
    return v


def integer_argument(v: Any, what: str) -> int:
    """``v`` (a number, 0-d array or tensor) as an int; ValueError when it is not an integer."""
    f = float(v)
    if not f.is_integer():
        raise ValueError(f"{what} = {v!r} must be an integer")
    return int(f)


def _ball_integer(b: arb) -> int | None:
    """The integer an exact ball is, None for any other ball."""
    if b.is_exact() and b.is_finite() and b.is_integer():
        return int(b.unique_fmpz())
    return None


def _exact_integer(b: arb, what: str) -> int:
    n = _ball_integer(b)
    if n is None:
        raise ValueError(f"{what} = {b} must be an exact integer")
    return n


# ----------------------------------------------------------------------------- float64 forms

def _np_log(x: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore"):  # log 0 = -inf, quietly
        return np.log(x)


def _np_xlogy(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    from scipy.special import xlogy  # heavy (0.15 s): scipy.special, only on use

    return xlogy(x, y)


def _np_polygamma(n: Any, x: np.ndarray) -> np.ndarray:
    from scipy.special import polygamma  # heavy (0.15 s): scipy.special, only on use

    return polygamma(int(n), x)


def _float_harmonic(n: Any, m: Any = 1) -> np.float64:
    count = integer_argument(n, "harmonic(n, m): n")
    return np.float64(math.fsum(float(i) ** -float(m) for i in range(1, count + 1)))


def _float_binomial(n: Any, k: Any) -> np.float64:
    if float(n).is_integer() and float(k).is_integer():
        return np.float64(math.comb(int(n), int(k))) if 0 <= k <= n else np.float64(0.0)
    from scipy.special import binom  # heavy (0.15 s): scipy.special, only on use

    return np.float64(binom(float(n), float(k)))


# ----------------------------------------------------------------------------- mpmath forms

def _mp_softplus(t: Any) -> Any:
    return (t if t > 0 else mpmath.mpf(0)) + mpmath.log1p(mpmath.exp(-abs(t)))  # the float64 twin's form


def _mp_harmonic(n: Any, m: Any = 1) -> Any:
    count = integer_argument(n, "harmonic(n, m): n")
    m = mpmath.mpf(exact_number(m))
    if m == 1:
        return mpmath.harmonic(count)
    return mpmath.fsum(mpmath.mpf(i) ** -m for i in range(1, count + 1))


def _mp_binomial(n: Any, k: Any) -> Any:
    return mpmath.binomial(exact_number(n), exact_number(k))


# ----------------------------------------------------------------------------- arb forms (balls in, a ball out)

def _arb_softplus(t: arb) -> arb:
    if t > 0:  # t + log1p(e^-t): e^t is never formed for large t
        return t + (-t).exp().log1p()
    return t.exp().log1p()  # t <= 0 or a ball around 0: log1p(e^t) is well conditioned


def _arb_polygamma(n: arb, x: arb) -> arb:
    order = _exact_integer(n, "polygamma(n, x): n")
    if order == 0:
        return x.digamma()
    sign = -1 if order % 2 == 0 else 1  # psi^(n)(x) = (-1)^(n+1) n! zeta(n+1, x)
    return sign * math.factorial(order) * arb(order + 1).zeta(x)


def _arb_harmonic(n: arb, m: Any = 1) -> arb:
    count = _exact_integer(n, "harmonic(n, m): n")
    m = from_value(m)
    if count <= 0:
        return arb(0)
    if m == 1:
        return arb(count + 1).digamma() + arb.const_euler()  # H_n = psi(n + 1) + gamma
    if m > 1:
        return m.zeta() - m.zeta(arb(count + 1))  # zeta(m) - zeta(m, n + 1)
    total = arb(0)
    for i in range(1, count + 1):
        total += arb(i) ** (-m)
    return total


def _arb_binomial(n: arb, k: arb) -> arb:
    ni, ki = _ball_integer(n), _ball_integer(k)
    if ni is not None and ki is not None:
        return arb(fmpz(math.comb(ni, ki))) if 0 <= ki <= ni else arb(0)
    return (n + 1).gamma() * (k + 1).rgamma() * (n - k + 1).rgamma()


# ----------------------------------------------------------------------------- interval forms (checked domains)

def ball_log(x: arb) -> arb:
    """log of a ball certainly > 0 (ValueError otherwise: no enclosure)."""
    if not x > 0:
        raise ValueError(f"log of a ball not certainly > 0: {x}")
    return x.log()


def ball_sqrt(x: arb) -> arb:
    """sqrt of a ball certainly >= 0 (ValueError otherwise)."""
    if not x >= 0:
        raise ValueError(f"sqrt of a ball not certainly >= 0: {x}")
    return x.sqrt()


def _ball_log1p(x: arb) -> arb:
    if not x > -1:
        raise ValueError(f"log1p of a ball not certainly > -1: {x}")
    return x.log1p()


def _monotone(fn: Callable[[arb], arb], x: arb) -> arb:
    """``fn`` over the ball ``x``, for ``fn`` monotone on it: the union of its values at the two ends
    (arb's digamma of a wide ball is far wider than that)."""
    if x.is_exact():
        return fn(x)
    return fn(x.lower()).union(fn(x.upper()))


def _ball_polygamma(n: arb, x: arb) -> arb:
    """psi^(n) on a ball certainly > 0, where it is monotone (psi^(n+1) has no zero there)."""
    if not x > 0:
        raise ValueError(f"polygamma(n, x) with x a ball not certainly > 0: {x}")
    return _monotone(lambda t: _arb_polygamma(n, t), x)


def _ball_harmonic(n: arb, m: Any = 1) -> arb:
    """H^(m)_n; for a ball n (not an exact integer), its continuation psi(n + 1) + gamma or zeta(m) - zeta(m, n + 1),
    increasing in n > -1."""
    if _ball_integer(n) is not None:
        return _arb_harmonic(n, m)
    m = from_value(m)
    if not n > -1 or not (m == 1 or m > 1):
        raise ValueError(f"harmonic(n, m) needs n > -1 and m >= 1 off the integers: n = {n}, m = {m}")
    if m == 1:
        return _monotone(lambda t: (t + 1).digamma() + arb.const_euler(), n)
    return _monotone(lambda t: m.zeta() - m.zeta(t + 1), n)


def _ball_binomial(n: arb, k: arb) -> arb:
    out = _arb_binomial(n, k)
    if out.is_nan() or not out.is_finite():
        raise ValueError(f"binomial({n}, {k}): gamma(n + 1) has a pole in the ball")
    return out


# ----------------------------------------------------------------------------- dual-number forms

def _dual_softplus(t: Any) -> Any:
    return t + dual_log1p(dual_exp(-t)) if t > 0 else dual_log1p(dual_exp(t))  # finite for large t


def _dual_polygamma(n: Any, x: Any) -> Any:
    order = integer_argument(_integer_value(n, "polygamma(n, x): n"), "polygamma(n, x): n")
    if isinstance(x, Dual):  # d/dx psi^(n)(x) = psi^(n+1)(x)
        return Dual(mpmath.polygamma(order, x.value), mpmath.polygamma(order + 1, x.value) * x.tangent)
    return mpmath.polygamma(order, x)


def _integer_value(v: Any, what: str) -> Any:
    """An integer argument's value; ValueError when it carries a derivative (a function of integers has none)."""
    if isinstance(v, Dual):
        if v.tangent != 0:
            raise ValueError(f"{what} is an integer: no derivative with respect to it")
        return v.value
    return v


def _on_integers(fn: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``fn`` of integer arguments, in the dual backend: plain values in, no derivative out."""
    @functools.wraps(fn)
    def apply(*args: Any) -> Any:
        return fn(*(_integer_value(a, what) for a in args))
    return apply


# ----------------------------------------------------------------------------- the table

_NOT_PRINTED = Absent("no sympy function denotes it: formulas call the backend method, "
                      "the interval compiler never meets it")
_PROOFS_ONLY = Absent("only interval proofs use it, and registration refuses a statement that prints it "
                      "(forms for float64, mpmath and torch would make it printable)")

OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "log", "log", "xp.log(x): the natural logarithm; log 0 = -inf.",
        float64=_np_log,
        mpmath=lambda x: mpmath.log(x) if x != 0 else mpmath.mpf("-inf"),
        arb=lambda x: NEG_INF if x.is_zero() else x.log(),
        torch=lambda torch, x: torch.log(x),
        dual=dual_log,
        interval=ball_log,
    ),
    Operation(
        "exp", "exp", "xp.exp(x): e^x.",
        float64=np.exp,
        mpmath=mpmath.exp,
        arb=lambda x: x.exp(),
        torch=lambda torch, x: torch.exp(x),
        dual=dual_exp,
        interval=lambda x: x.exp(),
    ),
    Operation(
        "sqrt", "sqrt", "xp.sqrt(x): the square root (sympy prints x**(1/2) as sqrt).",
        float64=np.sqrt,
        mpmath=mpmath.sqrt,
        arb=lambda x: x.sqrt(),
        torch=lambda torch, x: torch.sqrt(x),
        dual=dual_sqrt,
        interval=ball_sqrt,
    ),
    Operation(
        "log1p", "log1p", "xp.log1p(x): log(1 + x), exact near x = 0; log1p(-1) = -inf.",
        float64=np.log1p,
        mpmath=mpmath.log1p,
        arb=lambda x: NEG_INF if (x + 1).is_zero() else x.log1p(),
        torch=lambda torch, x: torch.log1p(x),
        dual=dual_log1p,
        interval=_ball_log1p,
    ),
    Operation(
        "abs", "Abs", "xp.abs(x): |x| (the arb ball of a ball around 0 has a lower end >= 0).",
        float64=np.abs,
        mpmath=lambda x: abs(mpmath.mpf(x)),
        arb=abs_ball,
        torch=lambda torch, x: torch.abs(x),
        dual=abs,
        interval=abs_ball,
        smooth=False,
    ),
    Operation(
        "maximum", "Max", "xp.maximum(a, b): the larger, elementwise (arb: a ball containing max(x, y) for all x, y).",
        float64=np.maximum,
        mpmath=lambda a, b: mpmath.mpf(a if a >= b else b),
        arb=lambda a, b: a.max(b),
        torch=lambda torch, a, b: torch.maximum(a, b),
        dual=lambda a, b: a if a >= b else b,
        interval=lambda a, b: a.max(b),
        fold=True,
        smooth=False,
    ),
    Operation(
        "minimum", "Min", "xp.minimum(a, b): the smaller, elementwise (arb: a ball containing min(x, y) for all x, y).",
        float64=np.minimum,
        mpmath=lambda a, b: mpmath.mpf(a if a <= b else b),
        arb=lambda a, b: a.min(b),
        torch=lambda torch, a, b: torch.minimum(a, b),
        dual=lambda a, b: a if a <= b else b,
        interval=lambda a, b: a.min(b),
        fold=True,
        smooth=False,
    ),
    Operation(
        "harmonic", "harmonic", "xp.harmonic(n, m=1): H^(m)_n = sum_{i=1}^n i^-m, the generalized harmonic number.",
        float64=_float_harmonic,
        mpmath=_mp_harmonic,
        arb=_arb_harmonic,
        torch=lambda torch, n, m=1: torch.as_tensor(float(_float_harmonic(n, m)), dtype=torch.float64),
        dual=_on_integers(_mp_harmonic, "harmonic(n, m): n, m"),
        interval=_ball_harmonic,
    ),
    Operation(
        "binomial", "binomial",
        "xp.binomial(n, k): n choose k (gamma(n+1) / (gamma(k+1) gamma(n-k+1)) off the integers).",
        float64=_float_binomial,
        mpmath=_mp_binomial,
        arb=_arb_binomial,
        torch=lambda torch, n, k: torch.as_tensor(float(_float_binomial(float(n), float(k))), dtype=torch.float64),
        dual=_on_integers(_mp_binomial, "binomial(n, k): n, k"),
        interval=_ball_binomial,
    ),
    Operation(
        "polygamma", "polygamma", "xp.polygamma(n, x): psi^(n)(x), the n-th derivative of the digamma function.",
        float64=_np_polygamma,
        mpmath=lambda n, x: mpmath.polygamma(int(n), x),
        arb=_arb_polygamma,
        torch=lambda torch, n, x: torch.polygamma(int(n), x),
        dual=_dual_polygamma,
        interval=_ball_polygamma,
    ),
    Operation(
        "softplus", None, "xp.softplus(t): zeta(t) = log(1 + e^t), Merad et al. (11), evaluated without overflow.",
        float64=lambda x: np.logaddexp(0.0, x),  # max(0,t) + log1p(exp(-|t|)): no overflow for t = 1e4
        mpmath=_mp_softplus,
        arb=_arb_softplus,
        # not torch.nn.functional.softplus: its threshold=20 returns t, off by e^-20
        torch=lambda torch, x: torch.logaddexp(torch.zeros_like(x), x),
        dual=_dual_softplus,
        interval=_NOT_PRINTED,
    ),
    Operation(
        "xlogy", None, "xp.xlogy(x, y): x log y, with 0 where x = 0 (whatever y): entropies and KL divergences.",
        float64=_np_xlogy,
        mpmath=lambda x, y: mpmath.mpf(0) if x == 0 else x * mpmath.log(y),
        arb=lambda x, y: arb(0) if x.is_zero() else x * y.log(),
        torch=lambda torch, x, y: torch.xlogy(x, y),
        dual=lambda x, y: mpmath.mpf(0) if x == 0 else x * dual_log(y),
        interval=_NOT_PRINTED,
    ),
    Operation(
        "sin", "sin", "xp.sin(x): the sine (interval proofs only).",
        float64=_PROOFS_ONLY, mpmath=_PROOFS_ONLY, arb=_PROOFS_ONLY, torch=_PROOFS_ONLY, dual=_PROOFS_ONLY,
        interval=lambda x: x.sin(),
    ),
    Operation(
        "cos", "cos", "xp.cos(x): the cosine (interval proofs only).",
        float64=_PROOFS_ONLY, mpmath=_PROOFS_ONLY, arb=_PROOFS_ONLY, torch=_PROOFS_ONLY, dual=_PROOFS_ONLY,
        interval=lambda x: x.cos(),
    ),
)


# ----------------------------------------------------------------------------- what is derived from it

def statement_operations(table: Iterable[Operation] = OPERATIONS) -> tuple[Operation, ...]:
    """The rows a statement may print: a sympy function, and a form in every backend a check evaluates in."""
    return tuple(op for op in table if op.sympy is not None and all(op.has(c) for c in CHECK_COLUMNS))


def statement_names(table: Iterable[Operation] = OPERATIONS) -> tuple[str, ...]:
    """The sympy function names a statement may print (the registration whitelist), in table order."""
    return tuple(op.sympy for op in statement_operations(table) if op.sympy is not None)


def interval_operations(table: Iterable[Operation] = OPERATIONS) -> dict[str, Operation]:
    """sympy function name -> row, for the rows the interval compiler evaluates."""
    return {op.sympy: op for op in table if op.sympy is not None and op.has("interval")}


def statement_function(op: Operation, binary: Callable[..., Any]) -> Callable[..., Any]:
    """What a printed ``op.sympy(...)`` calls, given the row's form: folded pairwise for an n-ary sympy function."""
    if op.fold:
        return lambda *args: functools.reduce(binary, args)
    return binary


def _check(table: Sequence[Operation]) -> None:
    """Names and sympy names are unique; each form is a callable or Absent."""
    for key in ("name", "sympy"):
        names = [getattr(op, key) for op in table if getattr(op, key) is not None]
        if len(names) != len(set(names)):
            raise ValueError(f"duplicate {key} in the operation table: {sorted(names)}")
    for op in table:
        bad = [c for c in COLUMNS if not (callable(op.form(c)) or isinstance(op.form(c), Absent))]
        if bad:
            raise TypeError(f"operation {op.name}: the forms {bad} are neither callables nor Absent")


_check(OPERATIONS)
