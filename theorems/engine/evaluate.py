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

import sympy

from numerics.backend import Backend
from numerics.enclosure import Enclosure
from theorems.engine.claim import Part
from theorems.engine.tolerance import tolerance

_BASE_MODULE = {"float64": "numpy", "mpmath": "mpmath", "torch": "math"}

#: the sympy functions a statement may use; each has an implementation in every backend
SUPPORTED_FUNCTIONS = ("log", "exp", "sqrt", "log1p", "Abs", "Max", "Min", "harmonic", "binomial", "polygamma")


def backend_functions(xp: Backend) -> dict[str, Callable[..., Any]]:
    """The sympy function names a statement may print, implemented by backend ``xp``."""
    return {
        "log": xp.log, "exp": xp.exp, "sqrt": xp.sqrt, "log1p": xp.log1p, "Abs": xp.abs,
        "Max": lambda *a: functools.reduce(xp.maximum, a), "Min": lambda *a: functools.reduce(xp.minimum, a),
        "harmonic": xp.harmonic, "binomial": xp.binomial, "polygamma": xp.polygamma,
        "_finite_sum": lambda term, lo, hi: _finite_sum(xp, term, lo, hi),
    }


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


def unsupported(expr: sympy.Expr) -> list[str]:
    """The functions in ``expr`` that no backend implements (sorted names; empty when all are)."""
    names = {type(f).__name__ for f in expr.atoms(sympy.Function)}
    names |= {"Sum (with several or infinite limits)" for s in expr.atoms(sympy.Sum)
              if len(s.limits) != 1 or any(b.has(sympy.oo, -sympy.oo) for b in s.limits[0][1:])}
    names |= {"Limit" for _ in expr.atoms(sympy.Limit)} | {"Integral" for _ in expr.atoms(sympy.Integral)}
    return sorted(n for n in names if n not in SUPPORTED_FUNCTIONS)


def _printer(xp: Backend) -> Any:
    """The printer lambdify would use for the backend, taught to print a finite Sum as a loop."""
    from sympy.printing.numpy import NumPyPrinter
    from sympy.printing.pycode import MpmathPrinter, PythonCodePrinter

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
    from sympy.codegen.cfunctions import log1p

    def is_log_one_plus(e: sympy.Expr) -> bool:
        return isinstance(e, sympy.log) and e.args[0].is_Add and sympy.S.One in e.args[0].args

    return expr.replace(is_log_one_plus, lambda e: log1p(e.args[0] - 1))


@functools.lru_cache(maxsize=None)
def compiled(expr: sympy.Expr, symbols: tuple[sympy.Symbol, ...], xp: Backend) -> Callable[..., Any]:
    """``expr`` as a function of ``symbols`` evaluated with backend ``xp``."""
    return sympy.lambdify(symbols, stable_form(expr), modules=[backend_functions(xp), _BASE_MODULE[xp.name]],
                          printer=_printer(xp))


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
        """smaller side / larger side for an inequality whose larger side is > 0 (None for identities)."""
        if self.part.is_identity:
            return None
        small, large = (float(v) for v in self.sides)
        if large > 0 and math.isfinite(large) and math.isfinite(small):
            return small / large
        return None

    @property
    def normalized_margin(self) -> float:
        lhs, rhs = float(self.lhs), float(self.rhs)
        return self.margin / (1.0 + max(abs(lhs), abs(rhs)))


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
        out |= p.free_symbols
    return tuple(sorted(out, key=lambda s: s.name))


def evaluate_parts(parts: list[Part], values: dict[sympy.Symbol, Any], xp: Backend) -> list[PartValue]:
    """Both sides and the margin of each part, from quantity values in backend ``xp``."""
    out = []
    for part in parts:
        syms, f_lhs, f_rhs = side_functions(part, xp)
        corners = []
        for args in _corners([values[s] for s in syms], xp):
            lhs, rhs = f_lhs(*args), f_rhs(*args)
            corners.append((xp.to_float(_margin(part, lhs, rhs, abs)), lhs, rhs))
        # an Enclosure-valued quantity (a Monte Carlo estimate with its confidence radius) gives
        # several corners: report the worst one, and call a violation certain only if every
        # corner violates (the statements are monotone in each enclosed quantity)
        margin_f, lhs, rhs = max(corners, key=lambda c: c[0])
        lhs_f, rhs_f = xp.to_float(lhs), xp.to_float(rhs)
        tol = tolerance(lhs_f, rhs_f) if math.isfinite(lhs_f) and math.isfinite(rhs_f) else 0.0
        if part.is_strict:  # "a < b" must hold by more than the tolerance: shift the margin by 2 tol
            corners = [(c[0] + 2 * tol, c[1], c[2]) for c in corners]
            margin_f += 2 * tol
        out.append(PartValue(part, lhs, rhs, margin_f, tol, certain_margin=min(c[0] for c in corners),
                             bracketed=len(corners) > 1))
    return out


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
