"""Symbolic certificates (sympy) for the identities of Huang et al. (theorems/papers/huang/claims.py).

``complete=True`` only where sympy proved the statement for symbolic sizes; the others are
proved size by size (``complete=False``, the domain says which sizes).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import replace

import sympy
from sympy import Eq, IndexedBase, Matrix, Sum, eye, exp, expand, log, simplify, symbols

from numerics.certificate import Certificate
from numerics.interval import interval_eval
from numerics.smt import prove_polynomial

INFONCE = "L_InfoNCE = L_1 + L_2 (||f|| = 1)"
CROSSCORR = "L_Cross-Corr = (1 - lambda) L_1 + lambda L_2"
TRACE_GRAM = "||sum p mu mu^T - I_d||^2 = ||U^T U - I_K||^2 + d - K"
TRACE_SUM = "||U^T U - I_K||^2 + d - K = sum_kl (sqrt(p_k p_l) mu_k^T mu_l - delta_kl)^2 + d - K"
SIMPLE = "E f(x1)^T f(x-) = ||E_x E_x1 f(x1)||^2"
NN_SCORES = "-||f(x) - mu_k||^2/2 = (W f(x) + b)_k - ||f(x)||^2/2"


def infonce_decomposition() -> Certificate:
    """Pointwise: -log(e^a/(e^a+e^b)) = (1/2||u - v||^2 - 1) + log(e^a + e^b) with a = u.v, ||u|| = ||v|| = 1.

    ||u - v||^2 = ||u||^2 + ||v||^2 - 2 u.v is proved for symbolic d (sympy Sum linearity);
    the expectation of a pointwise identity is the identity of the expectations."""
    d = sympy.Symbol("d", integer=True, positive=True)
    i = sympy.Symbol("i", integer=True, positive=True)
    u, v = IndexedBase("u"), IndexedBase("v")
    expansion = Sum(expand((u[i] - v[i]) ** 2), (i, 1, d)) - (
        Sum(u[i] ** 2, (i, 1, d)) + Sum(v[i] ** 2, (i, 1, d)) - 2 * Sum(u[i] * v[i], (i, 1, d)))
    exp_ok = simplify(expand(expansion)) == 0
    a, b = symbols("a b", real=True)
    nu, nv = sympy.Integer(1), sympy.Integer(1)  # ||u||^2 = ||v||^2 = 1
    lhs = -log(exp(a) / (exp(a) + exp(b)))
    rhs = (sympy.Rational(1, 2) * (nu + nv - 2 * a) - 1) + log(exp(a) + exp(b))
    residual = simplify(sympy.expand_log(lhs - rhs, force=True))
    return Certificate(
        method="sympy", statement=INFONCE,
        domain="every d (symbolic), every distribution of x, x' and of the augmentations, ||f|| = 1: the identity "
               "is proved pointwise (every real a = f(x1)^T f(x2), b = f(x1)^T f(x-)); with ||f|| = 1 every term is "
               "bounded, so it holds for the expectations (linearity of the expectation, a stated step)",
        ok=exp_ok and residual == 0,
        details={"expansion_residual": str(simplify(expand(expansion))), "pointwise_residual": str(residual)},
        parts=(INFONCE,),
    )


def crosscorr_decomposition(max_d: int = 5) -> Certificate:
    """sum (1 - C_ii)^2 + lam sum_{i != j} C_ij^2 = (1 - lam) sum (1 - C_ii)^2 + lam ||C - I||^2, symbolic C."""
    lam = sympy.Symbol("lambda", real=True)
    ok, sizes = True, []
    for d in range(1, max_d + 1):
        C = Matrix(d, d, lambda i, j: sympy.Symbol(f"C_{i}_{j}", real=True))
        l1 = sum((1 - C[i, i]) ** 2 for i in range(d))
        off = sum(C[i, j] ** 2 for i in range(d) for j in range(d) if i != j)
        l2 = sum(x ** 2 for x in (C - eye(d)))
        ok &= expand(l1 + lam * off - ((1 - lam) * l1 + lam * l2)) == 0
        sizes.append(d)
    return Certificate(
        method="sympy (symbolic C, lambda)", statement=CROSSCORR,
        domain=f"d <= {max_d}, every C and lambda (for all d: ||C - I||^2 splits into the diagonal "
               "sum (1 - C_ii)^2 and the off-diagonal sum C_ij^2)", ok=ok, details={"d": sizes},
        parts=(CROSSCORR,), complete=False,
    )


def simple_contrastive(max_n: int = 3, max_a: int = 2, max_d: int = 2) -> Certificate:
    """sum_{x,x'} w_x w_x' (1/a^2) sum_{i,l} f(x_i).f(x'_l) = ||sum_x w_x (1/a) sum_i f(x_i)||^2, symbolic."""
    ok, sizes = True, []
    for n, a, d in itertools.product(range(1, max_n + 1), range(1, max_a + 1), range(1, max_d + 1)):
        w = symbols(f"w1:{n + 1}", positive=True)
        f = [[[sympy.Symbol(f"f_{x}_{i}_{c}", real=True) for c in range(d)] for i in range(a)] for x in range(n)]
        lhs = sum(w[x] * w[y] * sympy.Rational(1, a * a) * sum(f[x][i][c] * f[y][l][c] for c in range(d))
                  for x in range(n) for y in range(n) for i in range(a) for l in range(a))
        mean = [sum(w[x] * sympy.Rational(1, a) * f[x][i][c] for x in range(n) for i in range(a)) for c in range(d)]
        ok &= expand(lhs - sum(m ** 2 for m in mean)) == 0
        sizes.append((n, a, d))
    return Certificate(
        method="sympy (expansion; x, x' independent)", statement=SIMPLE,
        domain=f"n <= {max_n}, |A| <= {max_a}, d <= {max_d}, every mass and encoder value", ok=ok,
        details={"(n, a, d)": sizes}, parts=(SIMPLE,), complete=False,
    )


def nn_scores() -> Certificate:
    """-||z - mu||^2/2 = (z.mu - ||mu||^2/2) - ||z||^2/2 for symbolic d (sympy Sum linearity)."""
    d = sympy.Symbol("d", integer=True, positive=True)
    i = sympy.Symbol("i", integer=True, positive=True)
    z, mu = IndexedBase("z"), IndexedBase("mu")
    lhs = -Sum(expand((z[i] - mu[i]) ** 2), (i, 1, d)) / 2
    rhs = Sum(z[i] * mu[i], (i, 1, d)) - Sum(mu[i] ** 2, (i, 1, d)) / 2 - Sum(z[i] ** 2, (i, 1, d)) / 2
    residual = simplify(expand(lhs - rhs))
    return Certificate(
        method="sympy", statement=NN_SCORES, domain="every d (symbolic), every z and mu_k", ok=residual == 0,
        details={"residual": str(residual)}, parts=(NN_SCORES,),
    )


# -- Theorem 1: the algebra from the combinatorial step to the printed statement -----------------------
THEOREM1_STEP = "L_align >= 2 eps^2 R_eps / |A|^2 (the combinatorial step)"
THEOREM1_MAIN = "R_eps^2 <= eta(eps)^2 L_align with eta(eps) = |A|/(sqrt(2) eps)"


def theorem1_algebra() -> Certificate:
    """z3: 0 <= R <= 1, eps > 0, |A| >= 1 and the step L >= 2 eps^2 R / |A|^2 imply
    R^2 <= |A|^2 L / (2 eps^2). Both inequalities are stated multiplied out (by |A|^2 > 0 and by
    2 eps^2 > 0, which keeps their direction), so the query is polynomial. It proves the statement
    *from the step*; the step itself (a sample outside S_eps has an ordered pair of augmentations, and
    its reverse, farther than eps apart) is tested as the claim's second part, not certified here --
    so this certificate covers no part on its own."""
    R, eps, A, L = symbols("R eps A L", real=True)
    cert = prove_polynomial(
        [R >= 0, R <= 1, eps > 0, A >= 1, L * A ** 2 >= 2 * eps ** 2 * R], 2 * eps ** 2 * R ** 2 <= A ** 2 * L,
        [R, eps, A, L],
        statement=f"{THEOREM1_STEP} => {THEOREM1_MAIN} (0 <= R_eps <= 1, eps > 0, |A| >= 1)",
        domain="every real R in [0, 1], eps > 0, |A| >= 1, L_align (conditional on the step, which is "
               "tested, not certified)")
    return replace(cert, parts=())


# -- Theorem 3: the bound can never bind on unit-norm encoders ------------------------------------------
LOG2_ENCLOSURE = (sympy.Rational(6931471805, 10 ** 10), sympy.Rational(6931471806, 10 ** 10))


def _lower(expr: sympy.Expr) -> float:
    """A rigorous lower bound of a closed expression (mpmath.iv, outward rounding)."""
    return float(interval_eval(expr, {}).a)


def theorem3_never_binds(collapsed: bool = False, extra: float = 0) -> Certificate:
    """mu_k^T mu_l <= 1 < log(exp((L_2 + tau)/(p_k p_l)) - exp(1 - eps)) for every unit-norm encoder.

    The chain (every step either proved by a tool here or stated as a modelling fact):

    1. (z3) u, v > 0 => u^2 + v^2 >= 2uv; with u = e^{a/2}, v = e^{b/2} and log increasing:
       log(e^a + e^b) >= log 2 + (a + b)/2 pointwise, so L_2 >= log 2 + (E s12 + E s1-)/2.
    2. (sympy) ||u - v||^2 = 2 - 2 u^T v for unit u, v (symbolic d): E s12 = 1 - L_align/2.
    3. (stated: the model) E s12 = E_x ||E_{x1 in A(x)} f(x1)||^2 >= 0, because x1 and x2 are drawn
       independently from A(x) (the numerics average all |A|^2 ordered pairs, x1 = x2 included); so
       L_align <= 2 on the sphere. E s1- = ||E f||^2 >= 0 because x and x' are independent
       (huang.simple_contrastive). p_k + p_l <= 1 (disjoint classes). Under Theorem 3's hypotheses
       (sigma = 1, delta = 0, eps = 0, R_eps = 0) every sample's augmentations embed to one point:
       E s12 = 1, L_align = 0 (``collapsed``).
    4. (z3) with lambda in a rational enclosure of log 2 (checked by interval arithmetic) and those
       facts as hypotheses: w = (L_2 + tau)/(p_k p_l) >= 4 lambda (>= 4 lambda + 2 when collapsed), for
       every tau >= 0 (p_k p_l <= 1/4 is part of the query).
    5. (stated: monotonicity) exp and log are increasing and exp(1 - eps) <= e for eps >= 0, so the
       bound is >= log(exp(4 log 2) - e) = log(16 - e) (collapsed: log(16 e^2 - e)).
    6. (mpmath.iv) log(16 - e) - 1 > 0 (collapsed: log(16 e^2 - e) - 1 > 0), rigorous lower bound.
    7. (stated) ||mu_k|| <= 1 by Jensen and mu_k^T mu_l <= ||mu_k|| ||mu_l|| <= 1 (Cauchy-Schwarz): the
       trivial range the family declares for mu_k^T mu_l.

    ``extra`` (tests only) asks the core query for a larger exponent than the chain gives, which must fail.
    """
    start = time.perf_counter()
    lam_lo, lam_hi = LOG2_ENCLOSURE
    enclosure_ok = _lower(sympy.log(2) - lam_lo) > 0 and _lower(lam_hi - sympy.log(2)) > 0

    u, v = symbols("u v", real=True)
    amgm = prove_polynomial([u > 0, v > 0], u ** 2 + v ** 2 >= 2 * u * v, [u, v],
                            statement="u, v > 0 => u^2 + v^2 >= 2 u v (AM-GM)", domain="every u, v > 0")

    d = sympy.Symbol("d", integer=True, positive=True)
    i = sympy.Symbol("i", integer=True, positive=True)
    x, y = IndexedBase("u"), IndexedBase("v")
    residual = simplify(expand(Sum(expand((x[i] - y[i]) ** 2), (i, 1, d))
                               - (Sum(x[i] ** 2, (i, 1, d)) + Sum(y[i] ** 2, (i, 1, d)) - 2 * Sum(x[i] * y[i], (i, 1, d)))))
    unit_ok = residual == 0  # with sum u_i^2 = sum v_i^2 = 1: ||u - v||^2 = 2 - 2 u^T v

    lam, S12, Sm, A, L2, pk, pl, q, tau, w = symbols("lambda S12 Sm A L2 p_k p_l q tau w", real=True)
    hyps = [lam >= lam_lo, lam <= lam_hi, Eq(S12, 1 - A / 2), Sm >= 0, L2 >= lam + (S12 + Sm) / 2,
            pk >= 0, pl >= 0, pk + pl <= 1, Eq(q, pk * pl), q > 0, tau >= 0, Eq(w * q, L2 + tau)]
    hyps.append(Eq(S12, 1) if collapsed else S12 >= 0)  # sympy.Eq: '==' would compare the expressions
    goal = w >= 4 * lam + (2 if collapsed else 0) + extra
    core = prove_polynomial(hyps, goal, [lam, S12, Sm, A, L2, pk, pl, q, tau, w],
                            statement="(L_2 + tau)/(p_k p_l) >= " + ("4 log 2 + 2" if collapsed else "4 log 2"),
                            domain="every tau >= 0, p_k, p_l >= 0 with p_k + p_l <= 1, p_k p_l > 0")

    # how far the AM-GM argument reaches without E f(x1)^T f(x2) >= 0: L_align <= 1 + 3 log 2 (~3.08) still
    # gives (L_2 + tau)/(p_k p_l) >= 1 + log 2, i.e. exp(.) >= 2e and a bound >= 1
    reach_hyps = hyps[:-1] + [A >= 0, A <= 1 + 3 * lam + extra]  # hyps[-1]: the E f(x1)^T f(x2) fact
    reach = prove_polynomial(reach_hyps, w >= 1 + lam, [lam, S12, Sm, A, L2, pk, pl, q, tau, w],
                             statement="L_align <= 1 + 3 log 2 => (L_2 + tau)/(p_k p_l) >= 1 + log 2",
                             domain="every tau >= 0, p_k + p_l <= 1, without E f(x1)^T f(x2) >= 0")

    floor = sympy.log(16 * sympy.E ** 2 - sympy.E) if collapsed else sympy.log(16 - sympy.E)
    floor_iv = interval_eval(floor, {})
    margin = _lower(floor - 1)
    ok = bool(enclosure_ok and amgm.ok and unit_ok and core.ok and margin > 0)  # ``reach`` is a remark
    case = ("Theorem 3's hypotheses (sigma = 1, delta = 0, eps = 0, R_eps = 0: L_align = 0)" if collapsed
            else "every unit-norm encoder (L_align <= 2 since x1, x2 are independent in A(x))")
    return Certificate(
        method="z3 (negation unsat) + mpmath.iv + sympy; modelling steps stated",
        statement=(f"mu_k^T mu_l <= 1 < {'log(16 e^2 - e)' if collapsed else 'log(16 - e)'} <= "
                   "log(exp((L_2 + tau)/(p_k p_l)) - exp(1 - eps)) for every k != l, tau >= 0, eps >= 0: "
                   "the bound never drops below the trivial maximum 1 of mu_k^T mu_l"),
        domain=f"{case}; every data and augmentation distribution with x1, x2 independent given x and x, x' "
               "independent (the chain's steps are pointwise or use only that independence; finite settings "
               "included), K >= 2, every p",
        ok=ok, seconds=time.perf_counter() - start, parts=(),
        details={
            "bound_floor": str(floor), "bound_floor_enclosure": [float(floor_iv.a), float(floor_iv.b)],
            "floor_minus_1_lower_bound": margin,
            "log2_enclosure": [str(lam_lo), str(lam_hi)], "log2_enclosure_checked": enclosure_ok,
            "amgm": amgm.details.get("result"), "unit_norm_expansion_residual": str(residual),
            "core": {"result": core.details.get("result"), "hypotheses": core.details.get("hypotheses"),
                     "goal": core.details.get("goal")},
            "reach": {"statement": reach.statement, "result": reach.details.get("result"),
                      "hypotheses": reach.details.get("hypotheses"), "goal": reach.details.get("goal")},
            "certified_steps": ["AM-GM (z3)", "||u - v||^2 = 2 - 2u.v (sympy, every d)",
                                "(L_2 + tau)/(p_k p_l) >= floor exponent (z3, log 2 enclosed)",
                                "floor > 1 (interval arithmetic)"],
            "stated_steps": ["x1, x2 independent given x: E f(x1)^T f(x2) = E_x ||E_{x1} f(x1)||^2 >= 0"
                             + (" (collapsed: = 1)" if collapsed else ""),
                             "x, x' independent: E f(x1)^T f(x-) = ||E f||^2 >= 0 (huang.simple_contrastive)",
                             "p_k + p_l <= 1 (disjoint classes); expectation of the pointwise AM-GM bound",
                             "exp, log increasing; exp(1 - eps) <= e for eps >= 0",
                             "mu_k^T mu_l <= ||mu_k|| ||mu_l|| <= 1 (Cauchy-Schwarz, Jensen)"],
        },
    )


def theorem3_collapsed_never_binds() -> Certificate:
    return theorem3_never_binds(collapsed=True)
