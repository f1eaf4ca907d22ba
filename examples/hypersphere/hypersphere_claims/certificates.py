"""A sympy certificate for the lower end of L_uniform (Wang & Isola 2020, Section 4.1): -2t <= L_uniform(f; t).

Proof: L_uniform = log E exp(-t D), D = ||f(x) - f(y)||^2 for x, y iid. Jensen's inequality (log E e^X >= E X)
gives L_uniform >= -t E D; for unit vectors D = 2 - 2 f(x)^T f(y), and E f(x)^T f(y) = ||E f(x)||^2 >= 0 for
independent x, y (bilinearity), so E D <= 2 and L_uniform >= -2t for t >= 0. The printed -4t (from D <= 4) is
loose by 2: the constant 2 is approached by an antipodal pair of mass 1/2 each as t -> 0 (L = log((1 + e^-4t)/2)
= -2t + O(t^2)). The certificate checks the algebra with sympy and names Jensen's inequality.
"""

from __future__ import annotations

import sympy

from numerics.certificate import Certificate

JENSEN = "Jensen's inequality for the concave log (log E e^X >= E X)"

_d, _n = sympy.symbols("d n", integer=True, positive=True)


def uniform_lower_bound(constant: int | sympy.Rational = 2) -> Certificate:
    """-2t <= L_uniform for every encoder onto the sphere and every t >= 0 (sympy, symbolic d and n; modulo Jensen);
    ``constant`` in place of 2 (a test hook: a smaller one must fail)."""
    k = sympy.Symbol("k", integer=True)
    u, v = sympy.IndexedBase("u"), sympy.IndexedBase("v")
    # ||u - v||^2 = ||u||^2 + ||v||^2 - 2 u^T v, coordinate sums over k = 1..d: = 2 - 2 u^T v on the sphere
    square = sympy.Sum((u[k] - v[k]) ** 2, (k, 1, _d))
    split = sympy.Sum(u[k] ** 2, (k, 1, _d)) + sympy.Sum(v[k] ** 2, (k, 1, _d)) - 2 * sympy.Sum(u[k] * v[k], (k, 1, _d))
    pair_ok = sympy.simplify(sympy.expand(square.expand() - split.expand())) == 0
    # E_{x,y iid} f(x)^T f(y) = sum_ij p_i p_j (F^T F)_ij = p^T F^T F p = ||F p||^2 = ||E f||^2 >= 0 (F: d x n columns f_i)
    F, p = sympy.MatrixSymbol("F", _d, _n), sympy.MatrixSymbol("p", _n, 1)
    mean_ok = sympy.simplify(p.T * (F.T * F) * p - (F * p).T * (F * p)) in (0, sympy.ZeroMatrix(1, 1))
    # -t E D = -t (2 - 2 m) >= -2t for t >= 0, m = ||E f||^2 >= 0
    t, m = sympy.symbols("t m", nonnegative=True)
    chain_ok = bool(sympy.expand(-t * (2 - 2 * m) + constant * t).is_nonnegative)
    return Certificate(method="sympy (symbolic d and n)",
                       statement="L_uniform = log E exp(-t D) >= -t E D (Jensen) = -t (2 - 2 ||E f||^2) >= -2t",
                       domain="every n, d, masses p, encoder onto the unit sphere and t >= 0",
                       ok=bool(pair_ok and mean_ok and chain_ok), modulo=(JENSEN,),
                       details={"||u - v||^2 = ||u||^2 + ||v||^2 - 2 u^T v": bool(pair_ok),
                                "sum_ij p_i p_j f_i^T f_j = ||F p||^2": bool(mean_ok), "-t(2 - 2m) >= -2t": chain_ok})


def antipodal_limit() -> Certificate:
    """No constant below 2 holds: an antipodal pair u, -u of mass 1/2 each has L_uniform = log((1 + e^-4t)/2), and
    L_uniform/(-t) -> 2 as t -> 0+ (sympy limit)."""
    t = sympy.Symbol("t", positive=True)
    at_pair = sympy.log((1 + sympy.exp(-4 * t)) / 2)
    limit = sympy.limit(at_pair / (-t), t, 0, "+")
    return Certificate(method="sympy (exact limit)",
                       statement="at an antipodal pair of mass 1/2 each, L_uniform/(-t) -> 2 as t -> 0+: no constant "
                                 "c < 2 gives -c t <= L_uniform for every t > 0",
                       domain="t -> 0+", ok=bool(limit == 2), details={"limit": str(limit)})
