"""Evaluate a statement's parts on one subject, in one backend.

A part's two sides are compiled once per backend from sympy (:func:`side_functions`); every
sympy function a statement may print (``log``, ``sqrt``, ``Abs``, ``Max``, ``harmonic``,
``binomial``, ...) is mapped onto the backend's own implementation, so a constant such as
``log(2)`` is a float64, an mpf at the working precision, or a torch tensor as the pass needs.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

import mpmath
import numpy as np
import sympy
from sympy.codegen.cfunctions import log1p
from sympy.printing.numpy import NumPyPrinter
from sympy.printing.pycode import MpmathPrinter, PythonCodePrinter

from numerics.backend import Backend
from numerics.enclosure import Enclosure
from numerics.operations import statement_function, statement_operations
from theorems.engine.claim import Part
from theorems.engine.culprit import blame
from theorems.engine.rules.compare import (RTOL, RTOL_HP, certain_margin, extended_margin, float_valued,
                                           part_tolerance, strict_margin)

_BASE_MODULE = {"float64": "numpy", "mpmath": "mpmath", "torch": "math"}



def backend_functions(xp: Backend) -> dict[str, Callable[..., Any]]:
    """The sympy function names a statement may print (the statement rows of the backend's operation table,
    numerics.operations), implemented by backend ``xp``, and the loop a finite Sum prints."""
    functions = {op.sympy: statement_function(op, getattr(xp, op.name)) for op in statement_operations(xp.operations)}
    functions["_finite_sum"] = lambda term, lo, hi: _finite_sum(xp, term, lo, hi)
    return functions


def _finite_sum(xp: Backend, term: Callable[[Any], Any], lo: Any, hi: Any) -> Any:
    """sum_{i=lo}^{hi} term(i) for integer bounds, with i a number of the backend (exact in mpmath)."""
    first, last = _integer(lo), _integer(hi)
    total = xp.asarray(0.0)
    for i in range(first, last + 1):
        total = total + term(xp.asarray(float(i)))
    return total


def _integer(v: Any) -> int:
    f = float(v.detach()) if hasattr(v, "detach") else float(v)
    if not f.is_integer():
        raise ValueError(f"a Sum bound evaluates to {f!r}, not an integer")
    return int(f)


def _printer(xp: Backend) -> Any:
    """The printer lambdify would use for the backend, taught to print a finite Sum as a loop."""
    base = {"float64": NumPyPrinter, "mpmath": MpmathPrinter, "torch": PythonCodePrinter}[xp.name]

    class FiniteSums(base):  # type: ignore[misc, valid-type]
        def _print_Sum(self, expr: sympy.Sum) -> str:
            (var, lo, hi), = expr.limits
            return (f"_finite_sum(lambda {self._print(var)}: ({self._print(expr.function)}), "
                    f"{self._print(lo)}, {self._print(hi)})")

    names = {k: k for k in backend_functions(xp)}
    return FiniteSums({"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
                       "user_functions": names})


def stable_form(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite log(1 + y) as log1p(y) before evaluation.

    log(1 + 1e-61) is 0 in float64 and noise even at 60 digits; log1p(1e-61) is exact.
    (sympy's own log1p_opt turns log(1 + e^-x) into -x + log1p(e^x), which cancels; not used.)
    """
    def is_log_one_plus(e: sympy.Expr) -> bool:
        return isinstance(e, sympy.log) and e.args[0].is_Add and sympy.S.One in e.args[0].args

    return expr.replace(is_log_one_plus, lambda e: log1p(e.args[0] - 1))


@functools.lru_cache(maxsize=None)
def compiled(expr: sympy.Expr, symbols: tuple[sympy.Symbol, ...], xp: Backend) -> Callable[..., Any]:
    """``expr`` as a function of ``symbols`` evaluated with backend ``xp``."""
    return sympy.lambdify(symbols, stable_form(expr), modules=[backend_functions(xp), _BASE_MODULE[xp.name]],
                          printer=_printer(xp))


@functools.lru_cache(maxsize=None)
def term_functions(part: Part, xp: Backend) -> tuple[Callable[..., Any], ...]:
    """Each additive term of both printed sides, and the declared scale of each residue quantity in them
    (``quantity(..., scale=...)``), compiled for ``xp``: what a part's scale is measured on."""
    syms = part.symbols
    terms = [t for side in (part.relation.lhs, part.relation.rhs) for t in sympy.Add.make_args(sympy.sympify(side))]
    terms += list(part.scale_terms)
    return tuple(compiled(t, syms, xp) for t in terms if t.free_symbols or t.is_number)


def part_scale(part: Part, args: list[Any], xp: Backend) -> Any:
    """The largest |term| among the finite additive terms of the part's sides and its residues' declared scales (0
    when there is none): the magnitude a margin is compared against (compare.part_tolerance)."""
    best = xp.asarray(0.0)
    for term in term_functions(part, xp):
        value = term(*args)
        if value_kind(value) is None and not (hasattr(value, "shape") and getattr(value, "size", 1) != 1):
            best = xp.maximum(best, xp.abs(xp.asarray(value)))
    return best


def side_functions(part: Part, xp: Backend) -> tuple[tuple[sympy.Symbol, ...], Callable[..., Any], Callable[..., Any]]:
    """The part's symbols (sorted by name) and its two printed sides compiled for ``xp``."""
    syms = part.symbols
    return syms, compiled(part.relation.lhs, syms, xp), compiled(part.relation.rhs, syms, xp)


def _margin(part: Part, lhs: Any, rhs: Any, abs_: Callable[[Any], Any]) -> Any:
    """How far the part is from being violated (> 0: violated): see tolerance.py."""
    if part.is_identity:
        return abs_(lhs - rhs)
    small_is_left = part.canonical is part.relation
    return lhs - rhs if small_is_left else rhs - lhs


def value_kind(value: Any) -> str | None:
    """None for a finite real number; ``"+inf"``, ``"-inf"``, ``"NaN"`` or ``"complex"`` otherwise.

    Decided in the value's own type: a finite mpf beyond float64's range (1e400) is finite, and a
    one-element array or tensor is its element."""
    if hasattr(value, "detach"):  # a torch tensor
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        if value.size != 1:
            return None  # not a scalar side: the formulas' own business
        value = value.reshape(-1)[0]
    if isinstance(value, (complex, np.complexfloating, mpmath.mpc)):
        return "complex"
    if isinstance(value, mpmath.mpf):
        if mpmath.isnan(value):
            return "NaN"
        return None if not mpmath.isinf(value) else ("+inf" if value > 0 else "-inf")
    f = float(value)
    if math.isnan(f):
        return "NaN"
    return None if math.isfinite(f) else ("+inf" if f > 0 else "-inf")


SCORE_CAP = 10.0  # |normalized margin| of a finite violation is below 2: an infinite one scores above it


@dataclass
class PartValue:
    """One part on one subject: both printed sides, the margin (see tolerance.py) and the tolerance."""

    part: Part
    lhs: Any  # the printed left side's value
    rhs: Any  # the printed right side's value
    margin: float
    tol: float
    certain_margin: float | None = None  # smallest margin over enclosure corners (= margin if exact)
    bracketed: bool = False
    undefined: str | None = None  # why a side has no real value (NaN, complex), naming the quantities
    raw_margin: Any = None  # a strict part's certain margin before the shift by 2 tol (compare.strict_tie)

    def __post_init__(self) -> None:
        if self.certain_margin is None:
            self.certain_margin = self.margin

    @property
    def slack(self) -> float:
        return -self.margin

    @property
    def sides(self) -> tuple[Any, Any]:
        """(smaller, larger) side as the claim states them (printed order for an identity)."""
        return (self.lhs, self.rhs) if self.part.canonical is self.part.relation else (self.rhs, self.lhs)

    @property
    def ratio(self) -> float | None:
        """smaller side / larger side for an inequality whose larger side is above the part's tolerance (None for
        identities, and where the larger side is 0 up to the tolerance: a rounding residue of 1e-16 is no scale --
        -4t over it read -1.8e15)."""
        if self.part.is_identity:
            return None
        small, large = (float(v) for v in self.sides)
        if large > float(self.tol) and math.isfinite(large) and math.isfinite(small):
            return small / large
        return None

    @property
    def normalized_margin(self) -> float:
        """The margin over the sides' scale: a finite score for a search to climb (a side decided
        exactly at +-inf scores +-SCORE_CAP)."""
        margin = float(self.margin)
        if not math.isfinite(margin):
            return -SCORE_CAP if math.isnan(margin) else math.copysign(SCORE_CAP, margin)
        scale = max((abs(float(v)) for v in (self.lhs, self.rhs) if math.isfinite(float(v))), default=0.0)
        return max(-SCORE_CAP, min(SCORE_CAP, margin / (1.0 + scale)))


def applicable_parts(claim: Any, subject: Any) -> list[Part]:
    """The parts to evaluate on ``subject``: those whose own hypothesis (``Part.applies``)
    holds; a part without free symbols (e.g. a printed limit) is for certificates only."""
    return [p for p in claim.statement
            if p.free_symbols and (p.applies is None or p.applies(subject))]


def needed_symbols(parts: list[Part]) -> tuple[sympy.Symbol, ...]:
    """The quantities the parts use, sorted by name: a family computes them in this order, so that
    a shared subexpression's gradient (and any float sum) accumulates in the same order in every
    process (a set's order follows Python's per-process string hashing; with it, an adversarial
    ascent differed in the last digit from one run to the next)."""
    out: set[sympy.Symbol] = set()
    for p in parts:
        out |= set(p.symbols)
    return tuple(sorted(out, key=lambda s: s.name))


def evaluate_parts(parts: list[Part], values: dict[sympy.Symbol, Any], xp: Backend,
                   where: Callable[[], str] = lambda: "") -> list[PartValue]:
    """Both sides and the margin of each part, from quantity values in backend ``xp``.

    A side at +-inf is decided exactly (:func:`extended_margin`); a side that is NaN or complex
    gets a NaN margin and says why in ``undefined`` (the probe turns it into an error)."""
    out = []
    for part in parts:
        syms, f_lhs, f_rhs = side_functions(part, xp)
        corners = []
        undefined = None
        for args in _corners([values[s] for s in syms], xp):
            lhs = blame(f"the left side of part `{part}`", lambda: f_lhs(*args), where)
            rhs = blame(f"the right side of part `{part}`", lambda: f_rhs(*args), where)
            kinds = value_kind(lhs), value_kind(rhs)
            if kinds == (None, None):
                margin = _margin(part, lhs, rhs, abs)
                margin = margin if xp.name == "mpmath" else xp.to_float(margin)  # mpf keeps a 1e-350 margin
            elif {"NaN", "complex"} & set(kinds):
                margin = math.nan
                undefined = undefined or _undefined(part, kinds, syms, args)
            else:
                margin = extended_margin(part, *kinds)
            corners.append((margin, lhs, rhs, args))
        # an Enclosure-valued quantity (a Monte Carlo estimate with its confidence radius) gives
        # several corners: report the worst one, and call a violation certain only if every
        # corner violates (the statements are monotone in each enclosed quantity)
        margin_f, lhs, rhs, args = max(corners, key=lambda c: -math.inf if math.isnan(c[0]) else c[0])
        if undefined is not None:
            margin_f = math.nan
        coarse = xp.name != "mpmath" or any(float_valued(a) for a in args)
        sensitivity = _sensitivity(args, f_lhs, f_rhs, xp) if xp.name == "mpmath" and undefined is None else 0
        tol = part_tolerance(_scale_of(part, args, xp), float_resolution=coarse, sensitivity=sensitivity)
        raw = None
        if part.is_strict:  # "a < b" must hold by more than the tolerance (compare.strict)
            raw = certain_margin(c[0] for c in corners) if undefined is None else math.nan
            corners = [(strict_margin(c[0], tol), *c[1:]) for c in corners]
            margin_f = strict_margin(margin_f, tol)
        certain = math.nan if undefined is not None else certain_margin(c[0] for c in corners)
        out.append(PartValue(part, lhs, rhs, margin_f, tol, certain_margin=certain,
                             bracketed=len(corners) > 1, undefined=undefined, raw_margin=raw))
    return out


def _sensitivity(args: list[Any], f_lhs: Callable[..., Any], f_rhs: Callable[..., Any], xp: Backend) -> Any:
    """How much the part's difference lhs - rhs moves when each quantity value moves by its own resolution (a value
    computed at high precision by RTOL_HP relative, one that may have been computed in float64 by RTOL): the
    first-order error the inputs' rounding can make, summed over the quantities. A difference below it is not
    resolved at this precision (``1 - v`` with v = 1 - e^-900 rounded to 1 at 60 digits)."""
    def difference(values: list[Any]) -> Any:
        lhs, rhs = f_lhs(*values), f_rhs(*values)
        return lhs - rhs if value_kind(lhs) is None and value_kind(rhs) is None else None

    base = difference(args)
    if base is None:
        return 0
    total = xp.asarray(0.0)
    for i, a in enumerate(args):
        if isinstance(a, Enclosure) or value_kind(a) is not None:
            continue
        moved = list(args)
        moved[i] = a + a * (RTOL if float_valued(a) else RTOL_HP)  # in the value's precision (1 + 1e-40 is 1 in float64)
        try:
            shifted = difference(moved)
        except (ArithmeticError, ValueError):  # moving the value leaves the formula's domain: no first-order bound
            continue
        if shifted is not None:
            total = total + xp.abs(xp.asarray(shifted - base))
    return total


def _scale_of(part: Part, args: list[Any], xp: Backend) -> Any:
    """The part's scale at the enclosures' lower ends (an enclosure's width is its own business: the corners)."""
    plain = [xp.asarray(a.lo) if isinstance(a, Enclosure) else a for a in args]
    return part_scale(part, plain, xp)


def _undefined(part: Part, kinds: tuple[str | None, str | None], syms: tuple[sympy.Symbol, ...],
               args: list[Any]) -> str:
    """Which side of ``part`` has no real value, and which of its quantities are NaN or complex."""
    sides = [f"its {name} side {side} is {kind}" for name, side, kind
             in (("left", part.relation.lhs, kinds[0]), ("right", part.relation.rhs, kinds[1]))
             if kind in ("NaN", "complex")]
    bad = [f"{s} = {value_kind(a)}" for s, a in zip(syms, args) if value_kind(a) in ("NaN", "complex")]
    infinite = [f"{s} = {value_kind(a)}" for s, a in zip(syms, args) if value_kind(a) in ("+inf", "-inf")]
    cause = (f"quantity {', '.join(bad)}" if bad else
             f"no quantity is NaN: the formula combines {', '.join(infinite)}" if infinite else
             "no quantity is NaN or infinite: the formula itself has no real value here")
    return f"part `{part}`: {' and '.join(sides)} ({cause})"


def _corners(args: list[Any], xp: Backend) -> list[list[Any]]:
    """Every combination of the end points of the Enclosure-valued arguments."""
    out: list[list[Any]] = [[]]
    for a in args:
        options = [xp.asarray(a.lo), xp.asarray(a.hi)] if isinstance(a, Enclosure) else [a]
        out = [prefix + [o] for prefix in out for o in options]
    return out


def torch_margin(parts: list[Part], values: dict[sympy.Symbol, Any], xp: Backend) -> Any:
    """The largest normalized margin over ``parts``, as a differentiable tensor."""
    torch = xp.torch
    best = None
    for part in parts:
        syms, f_lhs, f_rhs = side_functions(part, xp)
        args = [values[s] for s in syms]
        lhs = torch.as_tensor(f_lhs(*args), dtype=torch.float64)
        rhs = torch.as_tensor(f_rhs(*args), dtype=torch.float64)
        m = _margin(part, lhs, rhs, torch.abs) / (1.0 + torch.maximum(lhs.abs(), rhs.abs()).detach())
        best = m if best is None else torch.maximum(best, m)
    return best
