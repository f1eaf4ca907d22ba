"""Which sympy functions a statement may print: each has an implementation in every backend
(:func:`theorems.engine.evaluate.backend_functions`). Registration refuses a statement with another one
(:func:`unsupported` names it)."""

from __future__ import annotations

import sympy

#: the sympy functions a statement may use; each has an implementation in every backend
SUPPORTED_FUNCTIONS = ("log", "exp", "sqrt", "log1p", "Abs", "Max", "Min", "harmonic", "binomial", "polygamma")


def unsupported(expr: sympy.Expr) -> list[str]:
    """The functions in ``expr`` that no backend implements (sorted names; empty when all are)."""
    names = {type(f).__name__ for f in expr.atoms(sympy.Function)}
    names |= {"Sum (with several or infinite limits)" for s in expr.atoms(sympy.Sum)
              if len(s.limits) != 1 or any(b.has(sympy.oo, -sympy.oo) for b in s.limits[0][1:])}
    names |= {"Limit" for _ in expr.atoms(sympy.Limit)} | {"Integral" for _ in expr.atoms(sympy.Integral)}
    return sorted(n for n in names if n not in SUPPORTED_FUNCTIONS)
