"""Standard results that printed proofs invoke by name, and checks of their hypotheses.

A proof step that says "by Jensen's inequality" is an :class:`~theorems.engine.proof.Instance`
of :data:`JENSEN`: the step is accepted as a named result only when every hypothesis of the
theorem is certified for the instance (the function is convex, the variable integrable).
"""

from __future__ import annotations

import sympy

from numerics.certificate import Certificate
from theorems.engine.proof import NamedResult

JENSEN = NamedResult(
    "Jensen's inequality", "f(E[X]) <= E[f(X)] for a convex f and an integrable X",
    ("f is convex", "X is integrable"))
CHEBYSHEV = NamedResult(
    "Chebyshev's inequality", "P(|X - E X| >= a) <= Var(X) / a^2 for a > 0 and X with a finite variance",
    ("a > 0", "X has a finite variance"))
PRODUCT_BOUND = NamedResult(
    "the product bound", "prod_i (1 + a_i) >= 1 + sum_i a_i for a_i >= 0 (expand the product)",
    ("a_i >= 0",))
MONOTONE = NamedResult(
    "monotonicity", "g(a) <= g(b) for a <= b and a non-decreasing g", ("g is non-decreasing", "a <= b"))


def convex_by_second_derivative(expr: sympy.Expr, var: sympy.Symbol, name: str) -> Certificate:
    """f'' >= 0 everywhere, decided by sympy (the second derivative simplifies to a sum of squares,
    a positive quotient, ...)."""
    second = sympy.simplify(sympy.diff(expr, var, 2))
    nonneg = sympy.ask(sympy.Q.nonnegative(second), sympy.Q.real(var))
    if nonneg is not True:
        nonneg = bool(second.is_nonnegative)
    return Certificate(method="sympy (second derivative)", statement=f"{name} is convex: ({second}) >= 0",
                       domain=f"every real {var}", ok=bool(nonneg), details={"second_derivative": str(second)})


def finite_support(what: str) -> Certificate:
    """On the finite subjects a claim is checked on, every expectation is a finite sum (a structural
    fact of the subject family, stated as such in the certificate's method)."""
    return Certificate(method="finite support (structural)",
                       statement=f"{what} is integrable: on finite subjects the expectation is a finite sum",
                       domain="the finite subjects the claim is checked on", ok=True)


def nonnegative_by_sympy(expr: sympy.Expr, name: str) -> Certificate:
    """``expr >= 0`` for every real value of its symbols, decided by sympy's assumptions."""
    ok = sympy.ask(sympy.Q.nonnegative(expr), sympy.And(*[sympy.Q.real(s) for s in expr.free_symbols]))
    return Certificate(method="sympy (assumptions)", statement=f"{name}: {expr} >= 0",
                       domain="every real value of " + (", ".join(sorted(map(str, expr.free_symbols))) or "-"),
                       ok=ok is True)


def implied_by_positive_multiple(premise: sympy.core.relational.Relational,
                                 conclusion: sympy.core.relational.Relational,
                                 positive: dict[sympy.Symbol, sympy.Expr], why: str) -> Certificate:
    """``premise`` implies ``conclusion`` because the conclusion's margin is a positive multiple of
    the premise's: (c_small - c_large) = r * (p_small - p_large) with r > 0, where ``positive``
    rewrites the symbols in terms of positive ones (e.g. tau = 1/(1 + u), u > 0) so that sympy
    can decide the sign of r."""
    def margin(rel: sympy.core.relational.Relational) -> sympy.Expr:
        if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
            return rel.rhs - rel.lhs
        return rel.lhs - rel.rhs

    ratio = sympy.simplify(margin(conclusion) / margin(premise))
    sign = sympy.simplify(ratio.subs(positive))
    ok = bool(sign.is_positive)
    return Certificate(method="sympy (positive multiple)", statement=f"{premise} implies {conclusion}",
                       domain=why, ok=ok, details={"ratio": str(ratio), "ratio_rewritten": str(sign)})
