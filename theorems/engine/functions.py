"""Which sympy functions a statement may print: the statement rows of the operation table
(:func:`numerics.operations.statement_operations`), each implemented in every backend a check evaluates in
(:func:`theorems.engine.evaluate.backend_functions`). Registration refuses a statement with another one
(:func:`unsupported` names it)."""

from __future__ import annotations

from typing import Iterable

import sympy

from numerics.operations import OPERATIONS, Operation, statement_names

#: the sympy functions a statement may use (log, exp, sqrt, log1p, Abs, Max, Min, harmonic, binomial, polygamma)
SUPPORTED_FUNCTIONS = statement_names()


def unsupported(expr: sympy.Expr, operations: Iterable[Operation] = OPERATIONS) -> list[str]:
    """The functions in ``expr`` that no backend implements (sorted names; empty when all are)."""
    supported = statement_names(operations)
    names = {type(f).__name__ for f in expr.atoms(sympy.Function)}
    names |= {"Sum (with several or infinite limits)" for s in expr.atoms(sympy.Sum)
              if len(s.limits) != 1 or any(b.has(sympy.oo, -sympy.oo) for b in s.limits[0][1:])}
    names |= {"Limit" for _ in expr.atoms(sympy.Limit)} | {"Integral" for _ in expr.atoms(sympy.Integral)}
    return sorted(n for n in names if n not in supported)
