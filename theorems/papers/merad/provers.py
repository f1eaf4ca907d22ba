"""Merad et al.'s elementary facts as stand-alone provable statements (z3 and interval boxes).

The log-sum-exp facts of the proofs of Lemmas 1 and 2 become polynomial statements with
``y_i = exp(x_i)``: exp is a bijection R -> (0, inf) and log is increasing, so e.g.
``LSE(x) <= x_k + log n`` is equivalent to ``sum_j y_j <= n y_k`` for all y in (0, inf)^n; z3
proves them for each n <= n_max. The scalar facts of Lemmas 5-7 and the softplus bounds of
Lemma 6 are proved on boxes by the interval branch-and-bound of :mod:`numerics.interval`.
"""

from __future__ import annotations

import time
from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from numerics.certificate import Certificate
from numerics.interval import combine, fraction_text, number_text, prove_nonnegative, to_fraction, truncated
from numerics.smt import max_of, prove_for_each_n, prove_polynomial, reals

_SUBST = ("Substituting y_i = exp(x_i) (exp is a bijection R -> (0, inf) and log is increasing, so the "
          "polynomial statement is equivalent)")


def _lse_fact(name: str, statement: str, polynomial: str, n_max: int, queries: Any,
              timeout_ms: int) -> Certificate:
    """A log-sum-exp fact proved for n = 1..n_max through its polynomial form."""
    return prove_for_each_n(name, statement, f"{_SUBST}: {polynomial}", n_max, queries, timeout_ms)


def lse_max_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for x in R^n, n = 1..n_max."""
    def queries(n):
        y = reals("y", n)
        pos = [yi > 0 for yi in y]
        m, is_max = max_of("m", y)
        total = z3.Sum(y)
        return [("max <= LSE", pos + is_max, m <= total, y + [m]),
                ("LSE <= max + log n", pos + is_max, total <= n * m, y + [m])]
    return _lse_fact("lse_max_bounds", "For every n in 1..n_max and x in R^n: max_i x_i <= LSE(x) <= max_i x_i + "
                 "log n, LSE(x) = log(sum_i exp(x_i))",
                 "for y in (0, inf)^n and m = max_j y_j (m >= y_j for all j, m = y_k for some k): "
                 "m <= sum_j y_j and sum_j y_j <= n*m", n_max, queries, timeout_ms)


def lse_nonneg_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) >= 0 whenever some x_i >= 0."""
    def queries(n):
        y = reals("y", n)
        hyps = [yi > 0 for yi in y] + [z3.Or([yi >= 1 for yi in y])]
        return [("some y_i >= 1 => sum y >= 1", hyps, z3.Sum(y) >= 1, y)]
    return _lse_fact("lse_nonneg", "For every n in 1..n_max and x in R^n with max_i x_i >= 0: LSE(x) >= 0",
                 "for y in (0, inf)^n with y_i >= 1 for some i: sum_j y_j >= 1", n_max, queries, timeout_ms)


def lse_pairwise_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) + log n for x in R^{2n}."""
    def queries(n):
        y = reals("y", 2 * n)
        pairs = [y[2 * j] + y[2 * j + 1] for j in range(n)]
        m, is_max = max_of("m", pairs)
        hyps = [yi > 0 for yi in y] + is_max
        return [("sum_j p_j <= n max_j p_j", hyps, z3.Sum(pairs) <= n * m, y + [m])]
    return _lse_fact("lse_pairwise", "For every n in 1..n_max and x in R^{2n}: LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) "
                 "+ log n",
                 "for y in (0, inf)^{2n}, p_j = y_{2j-1} + y_{2j} and m = max_j p_j: sum_j p_j <= n*m",
                 n_max, queries, timeout_ms)


def lse_restriction_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S (S = first s indices, by permutation symmetry)."""
    def queries(n):
        y = reals("y", n)
        pos = [yi > 0 for yi in y]
        return [(f"S = first {s} indices", pos, z3.Sum(y[:s]) <= z3.Sum(y), y) for s in range(1, n + 1)]
    return _lse_fact("lse_restriction", "For every n in 1..n_max, x in R^n and non-empty S subset {1..n}: "
                 "LSE(x_S) <= LSE(x) (LSE is symmetric in its arguments, so S = {1..s}, s = 1..n, covers "
                 "every S up to a permutation)",
                 "for y in (0, inf)^n: sum_{i<=s} y_i <= sum_i y_i, s = 1..n", n_max, queries, timeout_ms)


def lse_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> list[Certificate]:
    """The four log-sum-exp facts, one Certificate per fact."""
    return [lse_max_bounds_smt(n_max, timeout_ms), lse_nonneg_smt(n_max, timeout_ms),
            lse_pairwise_smt(n_max, timeout_ms), lse_restriction_smt(n_max, timeout_ms)]


def softmax2_curvature_smt(timeout_ms: int = 20000) -> Certificate:
    """2 v1 v2 <= 1/2 for v1, v2 >= 0 with v1 + v2 = 1 (= ||diag(v) - v v^T||_2 <= 1/2 on the simplex)."""
    v1, v2 = z3.Reals("v1 v2")
    return prove_polynomial(
        [v1 >= 0, v2 >= 0, v1 + v2 == 1], 2 * v1 * v2 <= z3.RealVal("1/2"), [v1, v2],
        "||diag(v) - v v^T||_2 <= 1/2 for v in the simplex of R^2: the spectral norm was computed in closed "
        "form for 2x2 (diag(v) - v v^T = v1 v2 [[1,-1],[-1,1]], eigenvalues 0 and 2 v1 v2), so the claim is "
        "2 v1 v2 <= 1/2 for v1, v2 >= 0, v1 + v2 = 1",
        "v1, v2 >= 0, v1 + v2 = 1", timeout_ms)


# -- scalar facts on boxes (interval branch-and-bound) ----------------------------------------

_x = sp.Symbol("x", real=True)
_t = sp.Symbol("t", real=True)


def neg_log1m_le_ratio(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """-log(1-x) <= x/(1-x) on [0, 1/2], i.e. g(x) = x/(1-x) + log(1-x) >= 0 (g(0) = 0)."""
    g = _x / (1 - _x) + sp.log(1 - _x)
    return prove_nonnegative(
        g, {_x: ("0", "1/2")},
        "-log(1-x) <= x/(1-x) for all x in [0, 1/2]  (proved as x/(1-x) + log(1-x) >= 0)",
        max_boxes, prec, domain="x in [0, 1/2]")


def ratio_le_twice(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2], i.e. 2x - x/(1-x) >= 0 (equality at both ends)."""
    g = 2 * _x - _x / (1 - _x)
    return prove_nonnegative(
        g, {_x: ("0", "1/2")},
        "x/(1-x) <= 2x for all x in [0, 1/2]  (proved as 2x - x/(1-x) >= 0)",
        max_boxes, prec, domain="x in [0, 1/2]")


def _softmax2_closed_form() -> dict[str, Any]:
    """sympy check that diag(v) - v v^T = t(1-t)[[1,-1],[-1,1]] for v = (t, 1-t), eigenvalues 0, 2t(1-t)."""
    v = sp.Matrix([_t, 1 - _t])
    M = sp.diag(_t, 1 - _t) - v * v.T
    target = _t * (1 - _t) * sp.Matrix([[1, -1], [-1, 1]])
    identity = all(sp.expand(e) == 0 for e in (M - target))
    eig = {sp.factor(k): m for k, m in M.eigenvals().items()}
    eig_ok = set(sp.expand(k) for k in eig) == {0, sp.expand(2 * _t * (1 - _t))}
    return {"matrix_identity": bool(identity), "eigenvalues": sorted(str(k) for k in eig),
            "eigenvalues_are_0_and_2t(1-t)": bool(eig_ok)}


def softmax2_curvature_le_half(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """||diag(v) - v v^T||_2 <= 1/2 on the simplex of R^2, via 1/2 - 2t(1-t) >= 0 on [0, 1]."""
    g = sp.Rational(1, 2) - 2 * _t * (1 - _t)
    cert = prove_nonnegative(
        g, {_t: ("0", "1")},
        "||diag(v) - v v^T||_2 <= 1/2 for every v in the simplex of R^2. The spectral norm was "
        "computed in closed form for 2x2: with v = (t, 1-t), diag(v) - v v^T = t(1-t)[[1,-1],[-1,1]], "
        "whose eigenvalues are 0 and 2t(1-t) >= 0, so the norm is 2t(1-t); proved 1/2 - 2t(1-t) >= 0 "
        "for t in [0, 1]",
        max_boxes, prec, domain="v = (t, 1-t), t in [0, 1]")
    check = _softmax2_closed_form()
    closed_form_ok = check["matrix_identity"] and check["eigenvalues_are_0_and_2t(1-t)"]
    return replace(cert.with_details(closed_form_check=check), ok=cert.ok and closed_form_ok)


def lse_bounds_box(n: int, lo: Any, hi: Any, *, log_n_factor: Any = 1, max_boxes: int = 20000,
                   prec: int = 128) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for x in [lo, hi]^n, LSE(x) = log sum_i exp(x_i).

    Reduction (exact): on the region R_k = {x in [lo,hi]^n : x_k = max_j x_j} put
    u_j = x_k - x_j in [0, hi - lo] (j != k); then LSE(x) - x_k = log(1 + sum_{j!=k} e^{-u_j}).
    The right-hand side is the same function of the n-1 variables u for every k, so proving
    0 <= log(1 + sum_j e^{-u_j}) <= log n on the box [0, hi-lo]^(n-1) (which contains the image
    of every R_k) proves both bounds on all of [lo, hi]^n.  The identity is checked with sympy.
    ``log_n_factor`` replaces log n by factor*log n in the upper bound (a factor < 1 gives a false
    statement, which must not certify)."""
    start = time.perf_counter()
    if n < 2:
        raise ValueError("n >= 2 (for n = 1, LSE(x) = x)")
    flo, fhi = to_fraction(lo), to_fraction(hi)
    if flo > fhi:
        raise ValueError("lo > hi")
    factor = sp.Rational(str(to_fraction(log_n_factor)))
    D = fhi - flo
    u = sp.symbols(f"u1:{n}", real=True)
    S = 1 + sum(sp.exp(-uj) for uj in u)
    ubox = {uj: (Fraction(0), D) for uj in u}
    # sympy check of the reduction for k = n: LSE(x_k - u, x_k) - x_k == log(S)
    xk = sp.Symbol("x_k", real=True)
    lse = sp.log(sum(sp.exp(xk - uj) for uj in u) + sp.exp(xk))
    reduction_ok = bool(sp.simplify(sp.exp(lse - xk - sp.log(S)) - 1) == 0)
    dom = f"x in [{number_text(lo)}, {number_text(hi)}]^{n}"
    ustr = f"u in [0, {fraction_text(D)}]^{n - 1}"
    lower = prove_nonnegative(sp.log(S), ubox,
                              f"LSE(x) - max(x) = log(1 + sum_j exp(-u_j)) >= 0 on {ustr}",
                              max_boxes, prec, domain=ustr)
    upper = prove_nonnegative(factor * sp.log(n) - sp.log(S), ubox,
                              f"max(x) + {'' if factor == 1 else str(factor) + '*'}log({n}) - LSE(x) = "
                              f"{'' if factor == 1 else str(factor) + '*'}log({n}) - "
                              f"log(1 + sum_j exp(-u_j)) >= 0 on {ustr}",
                              max_boxes, prec, domain=ustr)
    rhs = "log" if factor == 1 else f"{factor}*log"
    statement = (f"max(x) <= LSE(x) <= max(x) + {rhs}({n}) for all x in [{number_text(lo)}, {number_text(hi)}]^{n}, "
                 f"LSE(x) = log(sum_i exp(x_i))")
    cert = combine([lower, upper], statement, dom, {
        "reduction": ("on {x_k = max}: u_j = x_k - x_j in [0, hi-lo], LSE(x) - x_k = "
                      "log(1 + sum_{j!=k} exp(-u_j)); same function for every k, so one proof "
                      "on [0, hi-lo]^(n-1) covers every region"),
        "reduction_checked_by_sympy": reduction_ok, "n": n,
    }, start)
    cert = replace(cert, ok=cert.ok and reduction_ok)
    return truncated(cert, f"proved on the box [{number_text(lo)}, {number_text(hi)}]^{n} only, not on R^{n}")


def softplus_limit_bounds(X: Any = 20.0, max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """0 <= zeta(x) - x <= e^{-x} on [0, X] and 0 <= zeta(x) <= e^{x} on [-X, 0],
    zeta(x) = log(1 + e^x) (so zeta(x) ~ x at +inf and zeta(x) -> 0 at -inf)."""
    start = time.perf_counter()
    fX = to_fraction(X)
    if fX < 0:
        raise ValueError("X >= 0")
    # g(x) ~ exp(-2x)/2 is computed as a difference of O(x) terms: keep ~3x bits beyond the default
    prec = max(prec, int(3 * float(fX)) + 64)
    zeta = sp.log(1 + sp.exp(_x))
    pos, neg = (Fraction(0), fX), (-fX, Fraction(0))
    Xs = number_text(X)
    specs = [
        (zeta - _x, pos, f"zeta(x) - x >= 0 on [0, {Xs}]"),
        (sp.exp(-_x) - (zeta - _x), pos, f"zeta(x) - x <= exp(-x) on [0, {Xs}]"),
        (zeta, neg, f"zeta(x) >= 0 on [-{Xs}, 0]"),
        (sp.exp(_x) - zeta, neg, f"zeta(x) <= exp(x) on [-{Xs}, 0]"),
    ]
    parts = [prove_nonnegative(g, {_x: b}, s, max_boxes, prec,
                               domain=f"x in [{fraction_text(b[0])}, {fraction_text(b[1])}]") for g, b, s in specs]
    statement = (f"0 <= zeta(x) - x <= exp(-x) for x in [0, {Xs}] and 0 <= zeta(x) <= exp(x) for x in "
                 f"[-{Xs}, 0], zeta(x) = log(1 + exp(x))  (on these ranges: zeta(x) ~ x as x -> +inf "
                 f"and zeta(x) -> 0 as x -> -inf)")
    cert = combine(parts, statement, f"x in [-{Xs}, {Xs}]", {"X": Xs}, start)
    return truncated(cert, f"proved for |x| <= {Xs} only; the limits follow from the bounds, "
                                 "which are here certified on this range")


def ready_made_certificates() -> list[Certificate]:
    """Every ready-made interval certificate with its default parameters."""
    return [neg_log1m_le_ratio(), ratio_le_twice(), softmax2_curvature_le_half(),
            lse_bounds_box(2, -5.0, 5.0), lse_bounds_box(3, -5.0, 5.0), softplus_limit_bounds()]
