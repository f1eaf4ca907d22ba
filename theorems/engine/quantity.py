"""Declaring a quantity: a sympy symbol for statements, its formula, and its trivial range.

A quantity is declared once, as a function written against the backend (``xp``: float64,
mpmath or torch, see :mod:`numerics.backend`), and used in statements through its symbol::

    from theorems import quantity

    @quantity(range=(0, 4))
    def L_align(s, xp):
        '''E ||f(x) - f(y)||^2 over positive pairs (Wang & Isola (2020), alpha = 2).'''
        d = s.x - s.y
        return xp.sum(s.p * xp.sum(d * d, axis=1))

    # L_align is now a sympy Symbol: Le(L_align, 4 * t) is a statement over it

``range`` is the quantity's trivial range (an error rate's [0, 1], a cosine's [-1, 1]): a
bound at or beyond it says nothing, and the report counts such subjects as uninformative.
``scale`` is for a residue -- a difference the quantity computes itself, as in ``Eq(gap, 0)`` for an identity
checked over many points: the magnitude of the terms it is a difference of (a number, or an expression of other
quantities). A part's tolerance is relative to the magnitudes of its terms (compare.part_tolerance); a residue
alone carries none, so without ``scale`` its own rounding (1e-61 at 60 digits) reads as a violation that only
doubling the precision up to 1920 digits dismisses. ``range=(0, None), scale=1`` for a relative error.
The symbol carries no sympy assumption but ``real`` (or ``integer``), so sympy never decides
a relation from the range alone; it is a :class:`QuantitySymbol` carrying its declaration, and
two modules may declare quantities of the same name without clashing. A symbol computed by a hand-written family is declared the
same way without a formula: ``L_un = quantity("L_un", range=(0, None))``.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Callable

import sympy

from theorems.engine.errors import ClaimError

Formula = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class Quantity:
    """What a quantity declaration says: its formula (if any), trivial range and origin."""

    name: str
    formula: Formula | None
    range: tuple[float, float]
    differentiable: bool
    doc: str
    module: str
    scale: sympy.Expr | None = None  # a residue's terms' magnitude (a number or an expression of quantities)


class QuantitySymbol(sympy.Symbol):
    """A sympy symbol that is a declared quantity and carries its declaration (``.quantity``).

    Two modules may both declare a quantity called ``L_align``: each gets its own symbol (the
    declaring module is part of the symbol's identity), printed with the same name.
    """

    __slots__ = ("quantity",)

    def __new__(cls, quantity_: Quantity, **assumptions: bool) -> "QuantitySymbol":
        obj = sympy.Symbol.__xnew__(cls, quantity_.name, **assumptions)
        obj.quantity = quantity_
        return obj

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return (self.quantity,), dict(self._assumptions_orig)

    def _hashable_content(self) -> tuple[Any, ...]:
        return (*super()._hashable_content(), self.quantity.module)


def _bounds(range_: tuple[float | None, float | None] | None, name: str) -> tuple[float, float]:
    if range_ is None:
        return (-math.inf, math.inf)
    try:
        lo, hi = range_
    except (TypeError, ValueError):
        raise ClaimError(f"quantity {name!r}: range={range_!r} must be a pair (lo, hi); use None for no bound") from None
    lo = -math.inf if lo is None else float(lo)
    hi = math.inf if hi is None else float(hi)
    if not lo <= hi:
        raise ClaimError(f"quantity {name!r}: range ({lo}, {hi}) is empty")
    return lo, hi


def _scale(scale: Any, name: str) -> sympy.Expr | None:
    if scale is None:
        return None
    try:
        expr = sympy.sympify(scale, strict=True)
    except (sympy.SympifyError, TypeError):
        raise ClaimError(f"quantity {name!r}: scale={scale!r} must be a number or an expression of quantities") from None
    stray = [s for s in getattr(expr, "free_symbols", ()) if not isinstance(s, QuantitySymbol)]
    if not isinstance(expr, sympy.Expr) or stray or (expr.is_number and not (expr.is_real and expr.is_positive)):
        raise ClaimError(f"quantity {name!r}: scale={scale!r} must be a positive number or an expression of "
                         "declared quantities")
    return expr


def _declare(name: str, formula: Formula | None, range_: Any, integer: bool, differentiable: bool,
             doc: str, module: str, scale: Any = None) -> QuantitySymbol:
    if not isinstance(name, str) or not name.isidentifier():
        raise ClaimError(f"quantity name {name!r} must be a Python identifier (it names a sympy symbol)")
    if formula is not None and not callable(formula):
        raise ClaimError(f"quantity {name!r}: formula must be a function (s, xp) -> value")
    info = Quantity(name, formula, _bounds(range_, name), differentiable, doc, module, _scale(scale, name))
    return QuantitySymbol(info, integer=True) if integer else QuantitySymbol(info, real=True)


def quantity(name: str | Formula | None = None, formula: Formula | None = None, *,
             range: tuple[float | None, float | None] | None = None, integer: bool = False,
             differentiable: bool = True, doc: str = "", scale: Any = None) -> Any:
    """Declare a quantity and return its sympy symbol (or a decorator that does).

    * ``quantity("L_un", range=(0, None))`` -- a symbol computed by a hand-written family;
    * ``quantity("L_align", fn, range=(0, 4))`` -- with its formula ``fn(s, xp)``;
    * ``@quantity(range=(0, 4))`` above ``def L_align(s, xp): ...`` -- the same, named after
      the function (its docstring becomes ``doc``).

    ``differentiable=False`` keeps the quantity out of the torch adversary (for formulas that
    use argmax, sorting or other steps without a gradient). ``scale``: a residue's terms' magnitude (the
    module doc).
    """
    module = sys._getframe(1).f_globals.get("__name__", "")
    if callable(name):  # @quantity without arguments
        fn = name
        return _declare(fn.__name__, fn, range, integer, differentiable, doc or (fn.__doc__ or "").strip(), module,
                        scale)
    if name is not None:
        return _declare(name, formula, range, integer, differentiable, doc, module, scale)

    def decorate(fn: Formula) -> sympy.Symbol:
        return _declare(fn.__name__, fn, range, integer, differentiable, doc or (fn.__doc__ or "").strip(), module,
                        scale)

    return decorate


def declared(symbol: sympy.Symbol) -> Quantity | None:
    """What was declared about ``symbol`` (None for a symbol made without :func:`quantity`)."""
    return symbol.quantity if isinstance(symbol, QuantitySymbol) else None


def trivial_range(symbol: sympy.Symbol) -> tuple[float, float]:
    """The declared range of a quantity ((-inf, inf) when nothing was declared)."""
    info = declared(symbol)
    return info.range if info is not None else (-math.inf, math.inf)
