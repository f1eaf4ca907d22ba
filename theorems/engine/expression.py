"""Places in a part's relation: its numeric constants, exponents and terms, and how to rebuild it with one replaced.

The mutation analysis (:mod:`theorems.engine.mutate`) moves these places; the tracker (:mod:`theorems.engine.probe`)
asks whether a subject's ratio depends on them at all (an equality that holds whatever the constants -- a zero
encoder, a single class -- says nothing of how sharp they are).
"""

from __future__ import annotations

from typing import Iterator, Sequence

import sympy

from theorems.engine.claim import Part

CONSTANT, EXPONENT, DROP = "constant", "exponent", "drop term"
_OPAQUE = (sympy.Tuple, sympy.Indexed, sympy.logic.boolalg.Boolean)  # limits, indices, conditions: not constants


def canonical(part: Part) -> sympy.core.relational.Relational:
    """The part with its smaller side first (``a >= b`` read as ``b <= a``), unevaluated."""
    rel = part.canonical
    return type(rel)(rel.lhs, rel.rhs, evaluate=False)


def at(expr: sympy.Basic, path: Sequence[int]) -> sympy.Basic:
    """The node at ``path`` (argument indices from the root)."""
    for i in path:
        expr = expr.args[i]
    return expr


def replace(expr: sympy.Basic, path: Sequence[int], new: sympy.Basic) -> sympy.Basic:
    """``expr`` with the node at ``path`` replaced by ``new`` (the nodes above rebuilt by sympy)."""
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = replace(args[path[0]], path[1:], new)
    if isinstance(expr, sympy.core.relational.Relational):
        return type(expr)(*args, evaluate=False)
    return expr.func(*args)


def places(expr: sympy.Basic, path: tuple[int, ...] = (), parent: sympy.Basic | None = None
           ) -> Iterator[tuple[tuple[int, ...], str, sympy.Basic]]:
    """Every place of ``expr``, in a fixed order: (path, kind, node) for each non-zero numeric constant (an exponent
    when it is a power's exponent) and each term of a sum."""
    if path and isinstance(expr, _OPAQUE) and not isinstance(expr, sympy.core.relational.Relational):
        return
    if isinstance(expr, (sympy.Number, sympy.NumberSymbol)) and expr != 0:
        kind = EXPONENT if isinstance(parent, sympy.Pow) and path[-1] == 1 else CONSTANT
        yield path, kind, expr
        return
    if isinstance(expr, sympy.Add) and len(expr.args) > 1:
        for i, term in enumerate(expr.args):
            yield path + (i,), DROP, term
    for i, arg in enumerate(expr.args):
        yield from places(arg, path + (i,), expr)


def scaled_at(rel: sympy.core.relational.Relational, path: Sequence[int], factor: sympy.Rational
              ) -> sympy.core.relational.Relational:
    """``rel`` with the node at ``path`` multiplied by ``factor``."""
    return replace(rel, path, factor * at(rel, path))


def constant_paths(part: Part) -> list[tuple[int, ...]]:
    """The paths of the part's numeric constants and exponents in its canonical relation."""
    return [path for path, kind, _ in places(canonical(part)) if kind in (CONSTANT, EXPONENT)]
