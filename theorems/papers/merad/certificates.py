"""Certificates for the facts of Merad et al.: sympy, z3, interval (arb) and Coq.

Each function returns a :class:`~numerics.certificate.Certificate` that says what was proved and on
which domain: "all N_C, N" when it was proved with symbolic sizes or in Coq by induction, or a finite
range when it was proved size by size (``complete=False``). The Coq certificates (``*_coq``, listed per
claim in :data:`COQ_CERTIFICATES`) are formal proofs checked by ``coqc``. Each fact keeps its strongest
certificate (the one covering the printed domain, e.g. Coq by induction) and at most one independent
cross-check (z3 for small n, interval boxes, a finite enumeration).
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import sympy
import z3
from sympy import BlockMatrix, Identity, ZeroMatrix, block_collapse
from sympy import (Interval, Piecewise, S, Sum, binomial, combsimp, exp, expand, harmonic,
                   log, oo, simplify, solveset, symbols)

from numerics.certificate import Certificate, covering
from numerics.interval import prove_nonnegative
from theorems.papers.merad import provers
from theorems.papers.merad.chebyshev_proof import COUPON_STAGES

# labels of the statement parts (theorems/papers/merad/claims.py) that the certificates below cover
TAU_GENERAL = "P(c_i = c for all i) = sum_c rho(c)^(N+1)"
TAU_UNIFORM = "uniform rho: = N_C^(-N)"
REARRANGE_COUNTS = ("min over c- of #k-subsets containing c- = C(N_C-2,k-1)",
                    "max over c- of #k-subsets containing c- = C(N_C-2,k-1)")
REARRANGE_AVERAGE = "average over k-subsets of sum_i v_ci = k/(N_C-1) sum_c- v_c-"


def tau_plus_uniform() -> Certificate:
    """sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) for all positive integers N_C, N."""
    n, N, c = symbols("N_C N c", positive=True, integer=True)
    lhs = Sum((1 / n) ** (N + 1), (c, 1, n)).doit()
    residual = simplify(lhs - n ** (-N))
    return Certificate(
        method="sympy", statement="sum_c (1/N_C)^(N+1) = N_C^(-N)",
        domain="all integers N_C >= 1, N >= 1 (symbolic)", ok=residual == 0,
        details={"lhs": str(lhs), "residual": str(residual)}, parts=(TAU_UNIFORM,),
    )


def tau_plus_general(max_classes: int = 3, max_n: int = 3) -> Certificate:
    """P(c_i = c for all i) over the product space C^(N+1) = sum_c rho(c)^(N+1), symbolic rho."""
    checked = []
    ok = True
    for n_classes in range(1, max_classes + 1):
        rho = symbols(f"rho1:{n_classes + 1}", positive=True)
        for N in range(1, max_n + 1):
            prob = S.Zero
            for tup in itertools.product(range(n_classes), repeat=N + 1):
                indicator = 1 if all(t == tup[0] for t in tup) else 0
                term = S.One
                for t in tup:
                    term *= rho[t]
                prob += indicator * term
            residual = expand(prob - sum(r ** (N + 1) for r in rho))
            ok &= residual == 0
            checked.append((n_classes, N))
    return Certificate(
        method="sympy (expansion over the product space)",
        statement="P(c_i = c for all i | c, c_1..c_N iid rho) = sum_c rho(c)^(N+1)",
        domain=f"symbolic rho, N_C <= {max_classes}, N <= {max_n}", ok=ok,
        details={"sizes": checked}, parts=(TAU_GENERAL,), complete=False,
    )


def tau_plus_independence() -> Certificate:
    """sum_c rho(c) prod_{i=1}^N rho(c) = sum_c rho(c)^(N+1) for symbolic N_C, N and rho.

    The product is P(c_1 = ... = c_N = c | c) for independent draws from rho; the
    certificate proves the algebra for all sizes, the independence is the model.
    """
    n, N = symbols("N_C N", positive=True, integer=True)
    c, i = symbols("c i", positive=True, integer=True)
    rho = sympy.IndexedBase("rho", positive=True)
    lhs = Sum(rho[c] * sympy.Product(rho[c], (i, 1, N)), (c, 1, n)).doit()
    residual = simplify(lhs - Sum(rho[c] ** (N + 1), (c, 1, n)))
    return Certificate(
        method="sympy", statement="sum_c rho(c) prod_{i<=N} rho(c) = sum_c rho(c)^(N+1)",
        domain="all N_C >= 1, N >= 1 and every rho (symbolic); c, c_1..c_N independent draws from rho",
        ok=residual == 0, details={"lhs": str(lhs), "residual": str(residual)}, parts=(TAU_GENERAL,),
    )


def rearrangement_ratio() -> Certificate:
    """C(N_C-2, k-1) / C(N_C-1, k) = k/(N_C-1) for all N_C >= 2, 1 <= k <= N_C-1."""
    n, k = symbols("N_C k", positive=True, integer=True)
    residual = simplify(combsimp(binomial(n - 2, k - 1) / binomial(n - 1, k)) - k / (n - 1))
    return Certificate(
        method="sympy (combsimp)", statement="C(N_C-2,k-1)/C(N_C-1,k) = k/(N_C-1)",
        domain="all integers N_C >= 2, 1 <= k <= N_C - 1 (symbolic); with the counts this gives "
               "the average over k-subsets", ok=residual == 0,
        details={"residual": str(residual)}, parts=(REARRANGE_AVERAGE,), complete=False,
    )


def rearrangement_counts(max_classes: int = 12) -> Certificate:
    """Each c- in C minus {c} lies in exactly C(N_C-2, k-1) of the k-subsets (enumerated)."""
    ok = True
    for n in range(2, max_classes + 1):
        for k in range(1, n):
            counts = [0] * (n - 1)
            for subset in itertools.combinations(range(n - 1), k):
                for c in subset:
                    counts[c] += 1
            ok &= all(cnt == binomial(n - 2, k - 1) for cnt in counts)
    return Certificate(
        method="enumeration", statement="#{k-subsets of C minus {c} containing c-} = C(N_C-2,k-1)",
        domain=f"every N_C <= {max_classes} and every 1 <= k <= N_C - 1", ok=ok,
        parts=REARRANGE_COUNTS, complete=False,
    )


def coupon_mean() -> Certificate:
    """E[T] = N_C H_{N_C}: geometric stages with success p_i = (N_C-i+1)/N_C have mean 1/p_i."""
    p = symbols("p", positive=True)
    t = symbols("t", positive=True, integer=True)
    geometric_mean = Sum(t * p * (1 - p) ** (t - 1), (t, 1, oo)).doit()
    # the sum converges for |1-p| < 1; check that (0, 1] lies inside that region
    (pw,) = [a for a in sympy.preorder_traversal(geometric_mean) if isinstance(a, Piecewise)]
    value, condition = pw.args[0]
    region = solveset(condition, p, S.Reals)
    mean_ok = Interval.Lopen(0, 1).is_subset(region) and simplify(p * value - 1 / p) == 0
    n, i, j = symbols("N_C i j", positive=True, integer=True)
    # reindex i -> j = N_C + 1 - i, a bijection of {1..N_C}: the summand becomes N_C / j
    summand = (n / (n - i + 1)).subs(i, n + 1 - j)
    total = Sum(summand, (j, 1, n)).doit()
    residual = simplify(total - n * harmonic(n))
    return Certificate(
        method="sympy", statement="E[Geom(p)] = 1/p on (0,1] and sum_i N_C/(N_C-i+1) = N_C H_{N_C}",
        domain="all integers N_C >= 1 (symbolic); uses the decomposition of T into independent "
               "geometric stages with p_i = (N_C - i + 1)/N_C",
        ok=bool(mean_ok) and residual == 0, modulo=(COUPON_STAGES,),
        details={"geometric_mean": str(geometric_mean), "stages_sum": str(total),
                 "residual": str(residual)},
    )


def sup_le_mean_feasibility() -> Certificate:
    """inf_W J(W) <= J(W^mu) = (5): W^mu of (4) is one of the W of (3).

    Proved by building (3)'s objective J(W) and (5) independently as sympy
    expressions for small symbolic settings and checking J(W^mu) - (5) == 0.
    """
    checked = []
    ok = True
    for n_classes, dim, support in itertools.product((2, 3), (1, 2), (1, 2)):
        rho = symbols(f"rho1:{n_classes + 1}", positive=True)
        pts = [[[sympy.Symbol(f"y_{c}_{s}_{a}", real=True) for a in range(dim)]
                for s in range(support)] for c in range(n_classes)]
        wts = [[sympy.Symbol(f"w_{c}_{s}", positive=True) for s in range(support)]
               for c in range(n_classes)]
        W = [[sympy.Symbol(f"W_{c}_{a}", real=True) for a in range(dim)] for c in range(n_classes)]
        mu = [[sum(wts[c][s] * pts[c][s][a] for s in range(support)) for a in range(dim)]
              for c in range(n_classes)]

        def score(row: list, y: list) -> sympy.Expr:
            return sum(r * v for r, v in zip(row, y))

        def objective_3(Wm: list) -> sympy.Expr:  # (3) at a given W
            return sum(
                rho[c] * wts[c][s] * -log(exp(score(Wm[c], pts[c][s]))
                                          / sum(exp(score(Wm[e], pts[c][s])) for e in range(n_classes)))
                for c in range(n_classes) for s in range(support))

        mean_loss_5 = sum(  # (5) written from its own definition
            rho[c] * wts[c][s] * -log(exp(score(mu[c], pts[c][s]))
                                      / sum(exp(score(mu[e], pts[c][s])) for e in range(n_classes)))
            for c in range(n_classes) for s in range(support))
        substituted = objective_3(W).subs(
            {W[c][a]: mu[c][a] for c in range(n_classes) for a in range(dim)}, simultaneous=True)
        ok &= sympy.simplify(substituted - mean_loss_5) == 0
        checked.append((n_classes, dim, support))
    return Certificate(
        method="sympy (feasibility of W^mu in (3))",
        statement="L_sup(f,T) = inf_W J(W) <= J(W^mu) = L^mu_sup(f,T)",
        domain="the infimum bound holds for every setting (W^mu is a feasible W); J(W^mu) = (5) "
               f"checked symbolically for (N_C, d, support) in {checked} only",
        ok=ok, complete=False,
    )





# -- Section 4 --------------------------------------------------------------------------------
SOFTMAX_CURVATURE = "||diag(v) - v v^T|| <= 1/2"
D2COS = ("min_ij ||d2cos_ij|| = 1", "max_ij ||d2cos_ij|| = 1")
NEG_LOG = "-log(1-x) <= x/(1-x) on [0,1)"  # as printed: "for 0 <= x < 1"
RATIO = "x/(1-x) <= 2x on [0,1/2]"
SOFTPLUS_LIMITS = ("zeta(x) ~ x as x -> +oo", "zeta(x) -> 0 as x -> -oo")
SOFTPLUS_BOUNDS = ("0 <= zeta(x) - x <= e^-x for x >= 0", "0 <= zeta(x) <= e^x for x <= 0")


def softmax_curvature_interval() -> Certificate:
    """||diag(v) - v v^T|| = 2 v_1 v_2 <= 1/2 on the simplex of R^2, by interval branch-and-bound."""
    return covering(provers.softmax2_curvature_le_half(), SOFTMAX_CURVATURE)


def d2cos_norm_symbolic() -> Certificate:
    """||A_i A_j^T + A_j A_i^T|| = 1 for every d: S = that matrix is symmetric with S^2 = P, a
    non-zero orthogonal projector (identity on blocks i and j), so its eigenvalues are in {-1, 0, 1}."""
    d = symbols("d", positive=True, integer=True)
    I, O = Identity(d), ZeroMatrix(d, d)
    ok = True
    checked = []
    for i, j in ((0, 1), (0, 2), (1, 2)):
        blocks = [[O] * 3 for _ in range(3)]
        blocks[i][j] = I
        blocks[j][i] = I
        S = BlockMatrix(blocks)
        square = block_collapse(S * S)
        projector = [[I if (r == c and r in (i, j)) else O for c in range(3)] for r in range(3)]
        same = all(sympy.simplify(square.blocks[r, c] - projector[r][c]) == ZeroMatrix(d, d)
                   or square.blocks[r, c] == projector[r][c] for r in range(3) for c in range(3))
        ok &= bool(same) and S.T == S
        checked.append(f"({i + 1},{j + 1})")
    return Certificate(
        method="sympy (block matrices, symbolic d)",
        statement="d2cos_ij = A_i A_j^T + A_j A_i^T is symmetric with (d2cos_ij)^2 = diag(I on blocks i, j): "
                  "eigenvalues in {-1, 0, 1}, norm 1",
        domain=f"all d >= 1 (symbolic), pairs {', '.join(checked)}", ok=ok, parts=D2COS, modulo=(SPECTRAL_NORM,),
    )


def neg_log1m_interval() -> Certificate:
    """On [0, 1/2] only (the range the proof uses); the inequality is printed for 0 <= x < 1."""
    return replace(covering(provers.neg_log1m_le_ratio(), NEG_LOG), complete=False)


def neg_log1m_symbolic() -> Certificate:
    """-log(1-x) <= x/(1-x) for every x in [0, 1), as printed: g(x) = x/(1-x) + log(1-x) has g(0) = 0 and
    g'(x) = x/(1-x)^2 >= 0 on [0, 1) (sympy), so g >= 0 there (mean value theorem)."""
    x = symbols("x", real=True)
    g = x / (1 - x) + log(1 - x)
    derivative = sympy.simplify(sympy.diff(g, x) - x / (1 - x) ** 2)
    y = symbols("y", positive=True)  # y = 1 - x in (0, 1]: g'(x) = (1 - y)/y^2 >= 0 for y <= 1
    sign = sympy.simplify((x / (1 - x) ** 2).subs(x, 1 - y) - (1 - y) / y ** 2)
    at_zero = g.subs(x, 0)
    return Certificate(method="sympy (derivative sign and value at 0)",
                       statement="g(x) = x/(1-x) + log(1-x): g(0) = 0 and g'(x) = x/(1-x)^2 = (1-y)/y^2 >= 0 with "
                                 "y = 1 - x in (0, 1], so -log(1-x) <= x/(1-x) on [0, 1)",
                       domain="every real x in [0, 1) (the printed range)", ok=bool(derivative == 0 and sign == 0
                                                                                      and at_zero == 0),
                       details={"g'(x) - x/(1-x)^2": str(derivative), "g(0)": str(at_zero)}, parts=(NEG_LOG,))


def ratio_le_twice_interval() -> Certificate:
    return covering(provers.ratio_le_twice(), RATIO)


def softplus_limits_symbolic() -> Certificate:
    """lim zeta(x)/x = 1 at +oo and lim zeta(x) = 0 at -oo, by sympy's limit."""
    x = symbols("x", real=True)
    zeta = sympy.log(1 + sympy.exp(x))
    at_plus = sympy.limit(zeta / x, x, oo)
    at_minus = sympy.limit(zeta, x, -oo)
    return Certificate(
        method="sympy (limit)", statement="lim_{x->+oo} zeta(x)/x = 1 and lim_{x->-oo} zeta(x) = 0",
        domain="the limits themselves", ok=at_plus == 1 and at_minus == 0,
        details={"at_plus": str(at_plus), "at_minus": str(at_minus)}, parts=SOFTPLUS_LIMITS,
    )


def softplus_bounds_interval() -> Certificate:
    """0 <= log(1+t) <= t on t in [0, 1]; with t = e^-|x| this is both quantitative bounds for every x."""
    t = symbols("t", real=True)
    upper = prove_nonnegative(t - sympy.log(1 + t), {t: ("0", "1")}, statement="log(1+t) <= t on [0,1]")
    lower = prove_nonnegative(sympy.log(1 + t), {t: ("0", "1")}, statement="log(1+t) >= 0 on [0,1]")
    return Certificate(
        method=upper.method,
        statement="0 <= log(1+t) <= t for t in [0,1]; t = e^-x (x >= 0) gives 0 <= zeta(x) - x <= e^-x "
                  "and t = e^x (x <= 0) gives 0 <= zeta(x) <= e^x",
        domain="every real x (through the substitution t = e^-|x| in (0, 1])",
        ok=upper.ok and lower.ok, details={"upper": upper.details, "lower": lower.details},
        parts=SOFTPLUS_BOUNDS,
    )


# -- log-sum-exp facts: SMT for n <= 6, the cross-check of the Coq proofs (finite ranges: complete=False) -----
LSE_MAX = ("max(x) <= LSE(x)", "LSE(x) <= max(x) + log n")
LSE_PAIRWISE = ("LSE(x) = LSE(LSE(x1,x2),...)", "LSE(LSE pairs) <= max_j LSE(pair j) + log n")


def lse_max_bounds_smt() -> Certificate:
    return covering(provers.lse_max_bounds_smt(), *LSE_MAX)


def lse_nonneg_smt() -> Certificate:
    return provers.lse_nonneg_smt()


def lse_pairwise_smt() -> Certificate:
    return covering(provers.lse_pairwise_smt(), LSE_PAIRWISE[1])


def lse_pairwise_identity(max_pairs: int = 4) -> Certificate:
    """log sum_j exp(log(e^x_{2j-1} + e^x_{2j})) = log sum_i e^x_i, symbolic x, n <= max_pairs."""
    ok = True
    for n in range(1, max_pairs + 1):
        x = symbols(f"x1:{2 * n + 1}", real=True)
        pairs = [sympy.log(sympy.exp(x[2 * j]) + sympy.exp(x[2 * j + 1])) for j in range(n)]
        lhs = sympy.log(sum(sympy.exp(p) for p in pairs))
        rhs = sympy.log(sum(sympy.exp(v) for v in x))
        ok &= simplify(lhs - rhs) == 0
    return Certificate(method="sympy", statement="LSE(x) = LSE(LSE(x1,x2), ..., LSE(x_{2n-1},x_{2n}))",
                       domain=f"symbolic x in R^(2n), n = 1..{max_pairs}", ok=ok,
                       parts=(LSE_PAIRWISE[0],), complete=False)


def lse_restriction_smt() -> Certificate:
    return provers.lse_restriction_smt()


# -- Coq certificates (numerics.coq): formal proofs checked by coqc, for every n where the fact is about
# every n. Without coqc on PATH each is a failed certificate saying "coqc not found: the step stays
# tested"; the z3, interval and sympy certificates above stay where they are the right tool.
COUPON_MEAN = "E[T] = N_C H_{N_C}"

# standard results some certificates below use without proving them (their ``modulo``: the claims they cover are
# "proved (modulo: ...)" -- issue 32, named results are honest)
CAUCHY_SCHWARZ = "the Cauchy-Schwarz inequality"
SPECTRAL_NORM = "the spectral norm of a symmetric matrix is its largest absolute eigenvalue"
RANK_ONE_NORM = "the spectral norm of g g^T is ||g||^2"
NORM_TRIANGLE = "the triangle inequality of the spectral norm"
TAYLOR = "Taylor's theorem with integral remainder"


def lse_max_bounds_coq() -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for every n and x (Coq, induction on lists)."""
    return covering(provers.lse_max_bounds_coq(), *LSE_MAX)


def lse_nonneg_coq() -> Certificate:
    """LSE(x) >= 0 when some x_i >= 0, every n (Coq)."""
    return provers.lse_nonneg_coq()


def lse_pairwise_coq() -> Certificate:
    """LSE(x) = LSE(LSE pairs) <= max_j LSE(pair j) + log n, every n (Coq)."""
    return covering(provers.lse_pairwise_coq(), *LSE_PAIRWISE)


def lse_restriction_coq() -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S, every n (Coq)."""
    return provers.lse_restriction_coq()


def softmax_curvature_coq() -> Certificate:
    """||diag(v) - v v^T|| = 2 v1 v2 <= 1/2 on the simplex of R^2 (Coq)."""
    return covering(provers.softmax2_curvature_coq(), SOFTMAX_CURVATURE)


def ratio_le_twice_coq() -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2] (Coq)."""
    return covering(provers.ratio_le_twice_coq(), RATIO)


def softplus_bounds_coq() -> Certificate:
    """0 <= zeta(x) - x <= e^-x (x >= 0) and 0 <= zeta(x) <= e^x (x <= 0), every real x (Coq)."""
    return covering(provers.softplus_bounds_coq(), *SOFTPLUS_BOUNDS)


def coupon_mean_coq() -> Certificate:
    """E[T] = N_C H_{N_C} for every N_C, from the geometric stages (Coq + Coquelicot)."""
    return covering(provers.coupon_mean_coq(), COUPON_MEAN)


def tau_plus_uniform_coq() -> Certificate:
    """sum_c (1/N_C)^(N+1) = N_C^(-N) for every N_C, N (Coq)."""
    return covering(provers.tau_plus_uniform_coq(), TAU_UNIFORM)


# which claim each Coq certificate belongs to (claims.py lists certificates per claim; these go beside
# the ones it lists today). The correct variance of T is proved in merad_chebyshev.v (chebyshev_proof), for the
# Chebyshev step and the reading "Var(T) <= (N_C pi)^2/6" of merad.coupon.variance.
COQ_CERTIFICATES = {
    "merad.lse.max_bounds": (lse_max_bounds_coq,),
    "merad.lse.nonneg": (lse_nonneg_coq,),
    "merad.lse.pairwise": (lse_pairwise_coq,),
    "merad.lse.restriction": (lse_restriction_coq,),
    "merad.lemma3.steps": (softmax_curvature_coq,),
    "merad.lemma7.steps": (ratio_le_twice_coq,),
    "merad.softplus.limits": (softplus_bounds_coq,),
    "merad.coupon.mean": (coupon_mean_coq,),
    "merad.tau_plus": (tau_plus_uniform_coq,),
}


# -- Lemma 7's loss vectors and zeta = -log(1 - v_2): symbolic, every dimension d -----------------------
LEMMA7_TRIPLET_PARTS = ("||loss_1|| = ||(v1-1) z2 + v2 z3||", "||loss_2|| = |v1-1| ||z1||",
                        "||loss_3|| = v2 ||z1||", "zeta(z1^T(z3-z2)) = -log(1 - v2)")


def _zero_matrix(m: object) -> bool:
    return bool(getattr(m, "is_ZeroMatrix", False)) or m == 0


def _same_matrix(x: object, e: object) -> bool:
    """x = e for matrix expressions (a derivative that vanishes may come back as the scalar 0)."""
    if _zero_matrix(e):
        return _zero_matrix(sympy.simplify(x))
    return _zero_matrix(sympy.simplify(x - e))


def lemma7_loss_vectors_symbolic() -> Certificate:
    """The four triplet facts of the proof of Lemma 7 for every d, by sympy.

    With u = z_1^T (z_3 - z_2), l(z) = zeta(u) and v = softmax(z_1^T z_2, z_1^T z_3) = (sigma(-u), sigma(u)):
    the matrix calculus of sympy gives grad_{z_1} u = z_3 - z_2, grad_{z_2} u = -z_1, grad_{z_3} u = z_1 for
    d x 1 matrix symbols (any d), zeta'(u) = sigma(u), so loss_{i,1} = sigma(u)(z_3 - z_2),
    loss_{i,2} = -sigma(u) z_1, loss_{i,3} = sigma(u) z_1. Each printed form is the same scalar multiple of
    the same vector (the coefficients' differences simplify to 0), and ||c w|| = |c| ||w||, with
    |v_1 - 1| = v_2 = sigma(u) >= 0. Finally -log(1 - v_2) - zeta(u) simplifies to 0."""
    d = symbols("d", integer=True, positive=True)
    z1, z2, z3 = (sympy.MatrixSymbol(n, d, 1) for n in ("z1", "z2", "z3"))
    u_expr = (z1.T * (z3 - z2))
    grads = [sympy.simplify(u_expr.diff(z)) for z in (z1, z2, z3)]
    expected = [z3 - z2, -z1, z1]
    grads_ok = all(_zero_matrix(sympy.simplify(g - e)) for g, e in zip(grads, expected))
    u = symbols("u", real=True)
    zeta = sympy.log(1 + sympy.exp(u))
    sigma = 1 / (1 + sympy.exp(-u))
    v1, v2 = 1 - sigma, sigma  # softmax(s2, s3) with s3 - s2 = u
    checks = {
        "zeta'(u) = sigma(u)": sympy.simplify(sympy.diff(zeta, u) - sigma) == 0,
        "softmax_2(s2, s3) = sigma(s3 - s2)": sympy.simplify(
            sympy.exp(symbols("s3", real=True)) / (sympy.exp(symbols("s2", real=True)) + sympy.exp(symbols("s3", real=True)))
            - sigma.subs(u, symbols("s3", real=True) - symbols("s2", real=True))) == 0,
        # loss_1: sigma (z3 - z2) vs (v1 - 1) z2 + v2 z3: coefficients of z2 and z3
        "loss_1 coefficient of z2": sympy.simplify(-sigma - (v1 - 1)) == 0,
        "loss_1 coefficient of z3": sympy.simplify(sigma - v2) == 0,
        # loss_2 = -sigma z1: ||.|| = sigma ||z1|| = |v1 - 1| ||z1|| (v1 - 1 = -sigma <= 0)
        "|v1 - 1| = sigma": sympy.simplify(sympy.Abs(v1 - 1) - sigma) == 0,
        "loss_3: |sigma| = v2": sympy.simplify(sympy.Abs(sigma) - v2) == 0,
        "zeta(u) = -log(1 - v2)": sympy.simplify(sympy.expand_log(-sympy.log(1 - v2) - zeta, force=True)) == 0
                                  or sympy.simplify(sympy.exp(-sympy.log(1 - v2)) - sympy.exp(zeta)) == 0,
    }
    checks["grad u = (z3 - z2, -z1, z1) (matrix symbols, any d)"] = bool(grads_ok)
    return Certificate(
        method="sympy (matrix calculus, symbolic d)",
        statement="loss_{i,1} = sigma(u)(z3 - z2) = (v1 - 1) z2 + v2 z3, ||loss_{i,2}|| = |v1 - 1| ||z1||, "
                  "||loss_{i,3}|| = v2 ||z1|| and zeta(u) = -log(1 - v2), u = z1^T (z3 - z2)",
        domain="every d >= 1 and every z in (R^d)^3 (symbolic)", ok=all(checks.values()),
        details={"checks": {k: bool(v) for k, v in checks.items()}, "gradients": [str(g) for g in grads]},
        parts=LEMMA7_TRIPLET_PARTS)


# -- Lemma 3's intermediate facts (merad.lemma3.steps): symbolic d, sympy matrix calculus + z3 ---------------
LEMMA3_GRADIENT = "gradient = (v1-1) dcos12 + v2 dcos13 (relative error 0)"
LEMMA3_DCOS = ("||dcos12|| <= 2 max(||z1||,||z2||)", "||dcos13|| <= 2 max(||z1||,||z3||)",
               "||dcos23|| <= 2 max(||z2||,||z3||)")
LEMMA3_HESSIAN = "Hessian = (v1-1) d2cos12 + v2 d2cos13 + (dcos12 dcos13) dv (relative error 0)"
LEMMA3_CURV = "||(dcos12 dcos13) dv|| <= 8 max_ij ||z_i|| ||z_j|| (read as <=)"
LEMMA3_HESS_NORM = "||Hess l|| <= 2 + 8 max_ij ||z_i|| ||z_j|| (read as <=)"


def _blocks_of_gradients() -> dict[str, list[object]]:
    """grad_z of cos_ij = z_i^T z_j and of u = cos_13 - cos_12, block by block, for d x 1 matrix symbols."""
    d = symbols("d", integer=True, positive=True)
    z = [sympy.MatrixSymbol(f"z{i}", d, 1) for i in (1, 2, 3)]
    out = {}
    for name, expr in (("cos12", z[0].T * z[1]), ("cos13", z[0].T * z[2]), ("cos23", z[1].T * z[2]),
                       ("u", z[0].T * (z[2] - z[1]))):
        # a block the expression does not contain has derivative 0 (sympy leaves it unevaluated)
        out[name] = [sympy.simplify(expr.diff(zk)) if zk in expr.atoms(sympy.MatrixSymbol) else sympy.ZeroMatrix(d, 1)
                     for zk in z]
    out["z"] = z
    return out


def lemma3_gradient_symbolic() -> Certificate:
    """(v1 - 1) dcos12 + v2 dcos13 = sigma(u) grad u, block by block, for every d (sympy)."""
    g = _blocks_of_gradients()
    z1, z2, z3 = g["z"]
    u = symbols("u", real=True)
    sigma = 1 / (1 + sympy.exp(-u))
    v1, v2 = 1 - sigma, sigma
    a, b = symbols("a b", real=True)  # placeholders for v1 - 1 and v2 in the block combination
    blocks_ok = (all(_same_matrix(x, e) for x, e in zip(g["cos12"], [z2, z1, sympy.ZeroMatrix(*z1.shape)]))
                 and all(_same_matrix(x, e) for x, e in zip(g["cos13"], [z3, sympy.ZeroMatrix(*z1.shape), z1]))
                 and all(_same_matrix(x, e) for x, e in zip(g["u"], [z3 - z2, -z1, z1])))
    # blocks of (v1-1) dcos12 + v2 dcos13 - sigma(u) grad u: (a z2 + b z3 - s(z3 - z2), a z1 + s z1, b z1 - s z1)
    coeffs = [(a + sigma, b - sigma), (a + sigma,), (b - sigma,)]
    coeff_ok = all(sympy.simplify(c.subs({a: v1 - 1, b: v2})) == 0 for block in coeffs for c in block)
    zeta_ok = sympy.simplify(sympy.diff(sympy.log(1 + sympy.exp(u)), u) - sigma) == 0
    return Certificate(method="sympy (matrix calculus, symbolic d)",
                       statement="grad l = zeta'(u) grad u = sigma(u) (z3 - z2, -z1, z1) equals (v1 - 1) dcos12 + "
                                 "v2 dcos13 with dcos12 = (z2, z1, 0), dcos13 = (z3, 0, z1), v1 - 1 = -sigma(u), "
                                 "v2 = sigma(u): the relative error is 0",
                       domain="every d >= 1 and every z in (R^d)^3 (symbolic)",
                       ok=bool(blocks_ok and coeff_ok and zeta_ok), parts=(LEMMA3_GRADIENT,),
                       details={"blocks": bool(blocks_ok), "coefficients": bool(coeff_ok), "zeta'": bool(zeta_ok)})


def lemma3_dcos_norms() -> Certificate:
    """||dcos_ij||^2 = ||z_i||^2 + ||z_j||^2 (its blocks are z_j, z_i, 0) <= 4 max(||z_i||, ||z_j||)^2 (z3)."""
    g = _blocks_of_gradients()
    z1, z2, z3_ = g["z"]
    zero = sympy.ZeroMatrix(*z1.shape)
    expected = {"cos12": [z2, z1, zero], "cos13": [z3_, zero, z1], "cos23": [zero, z3_, z2]}
    blocks_ok = all(_same_matrix(x, e) for k, es in expected.items() for x, e in zip(g[k], es))
    a, b, m = z3.Reals("a b m")
    s = z3.SolverFor("QF_NRA")
    s.add(a >= 0, b >= 0, m >= a, m >= b, z3.Or(m == a, m == b), z3.Not(a * a + b * b <= 4 * m * m))
    bound_ok = s.check() == z3.unsat
    return Certificate(method="sympy (matrix calculus, symbolic d) + z3",
                       statement="dcos_ij has blocks z_j (block i), z_i (block j) and 0, so ||dcos_ij||^2 = ||z_i||^2 + "
                                 "||z_j||^2 <= 2 max^2 <= (2 max(||z_i||, ||z_j||))^2 (z3: a, b >= 0, m = max(a, b) => "
                                 "a^2 + b^2 <= 4 m^2; sqrt is increasing)",
                       domain="every d >= 1 and every z in (R^d)^3", ok=bool(blocks_ok and bound_ok),
                       parts=LEMMA3_DCOS, details={"blocks": bool(blocks_ok), "z3": bool(bound_ok)})


def lemma3_hessian_symbolic() -> Certificate:
    """(v1-1) d2cos12 + v2 d2cos13 + (dcos12 dcos13)(diag(v) - v v^T)(dcos12 dcos13)^T = sigma'(u) g g^T + sigma(u) M
    with g = dcos13 - dcos12 = grad u and M = d2cos13 - d2cos12 = Hess u (sympy, matrix symbols of any size)."""
    n = symbols("n", integer=True, positive=True)
    G12, G13 = sympy.MatrixSymbol("G12", n, 1), sympy.MatrixSymbol("G13", n, 1)
    H12, H13 = sympy.MatrixSymbol("H12", n, n), sympy.MatrixSymbol("H13", n, n)
    u = symbols("u", real=True)
    sigma = 1 / (1 + sympy.exp(-u))
    v = [1 - sigma, sigma]
    M = [[v[0] - v[0] ** 2, -v[0] * v[1]], [-v[1] * v[0], v[1] - v[1] ** 2]]
    G = [G12, G13]
    curvature = sum((M[p][q] * G[p] * G[q].T for p in range(2) for q in range(2)), sympy.ZeroMatrix(n, n))
    printed = (v[0] - 1) * H12 + v[1] * H13 + curvature
    d2zeta = sympy.diff(sympy.log(1 + sympy.exp(u)), u, 2)
    g = G13 - G12
    chain = d2zeta * g * g.T + sigma * (H13 - H12)
    diff = sympy.expand(printed - chain)
    # collect the scalar coefficient of each matrix monomial and simplify it
    terms: dict[str, object] = {}
    for term in sympy.Add.make_args(diff) if not isinstance(diff, sympy.MatAdd) else diff.args:
        coeff, mat = term.as_coeff_mmul()
        key = str(mat)
        terms[key] = terms.get(key, 0) + coeff
    ok = all(sympy.simplify(c) == 0 for c in terms.values())
    return Certificate(method="sympy (matrix symbols, any size)",
                       statement="the printed Hessian (v1-1) d2cos12 + v2 d2cos13 + (dcos12 dcos13)(diag(v) - v v^T)"
                                 "(dcos12 dcos13)^T equals the chain rule zeta''(u) g g^T + zeta'(u) Hess u with "
                                 "g = dcos13 - dcos12 = grad u and Hess u = d2cos13 - d2cos12 (u = cos13 - cos12)",
                       domain="every d >= 1 and every z in (R^d)^3 (symbolic)", ok=bool(ok), parts=(LEMMA3_HESSIAN,),
                       details={"monomials": {k: str(sympy.simplify(c)) for k, c in terms.items()}})


def lemma3_curvature_norms() -> Certificate:
    """The curvature term is v1 v2 g g^T (the Hessian identity), of norm v1 v2 ||g||^2 with ||g||^2 =
    ||z3 - z2||^2 + 2||z1||^2; with 2 v1 v2 <= 1/2, |z2.z3| <= ||z2|| ||z3|| (Cauchy-Schwarz) and
    M = max_ij ||z_i|| ||z_j|| >= each ||z_i||^2, z3 proves v1 v2 ||g||^2 <= 8 M; then the triangle inequality
    with ||d2cos_ij|| = 1 and |v1 - 1|, v2 <= 1 gives ||Hess l|| <= 2 + 8 M."""
    g = _blocks_of_gradients()
    z1, z2, z3_ = g["z"]
    grad_ok = all(_same_matrix(x, e) for x, e in zip(g["u"], [z3_ - z2, -z1, z1]))
    w, a, b, c, p, M = z3.Reals("w a b c p M")
    curv = w * (b * b + c * c - 2 * p + 2 * a * a)  # v1 v2 ||g||^2, p = z2.z3
    hyps = [w >= 0, 4 * w <= 1, a >= 0, b >= 0, c >= 0, p * p <= b * b * c * c, M >= a * a, M >= b * b, M >= c * c]
    s1 = z3.SolverFor("QF_NRA")
    s1.add(*hyps, z3.Not(curv <= 8 * M))
    curv_ok = s1.check() == z3.unsat
    nH, nc, v1, v2 = z3.Reals("nH nc v1 v2")
    s2 = z3.SolverFor("QF_NRA")
    s2.add(v1 >= 0, v2 >= 0, v1 + v2 == 1, nc <= 8 * M, nH <= (1 - v1) * 1 + v2 * 1 + nc, z3.Not(nH <= 2 + 8 * M))
    hess_ok = s2.check() == z3.unsat
    return Certificate(method="sympy (matrix calculus) + z3",
                       statement="||(dcos12 dcos13) dv|| = v1 v2 ||g||^2 <= 8 max_ij ||z_i|| ||z_j|| and ||Hess l|| <= "
                                 "|v1 - 1| ||d2cos12|| + v2 ||d2cos13|| + ||curvature|| <= 2 + 8 max_ij ||z_i|| ||z_j|| "
                                 "(rank-one norm, Cauchy-Schwarz, 2 v1 v2 <= 1/2, ||d2cos_ij|| = 1, triangle inequality)",
                       domain="every d >= 1 and every z in (R^d)^3", ok=bool(grad_ok and curv_ok and hess_ok),
                       parts=(LEMMA3_CURV, LEMMA3_HESS_NORM),
                       modulo=(CAUCHY_SCHWARZ, RANK_ONE_NORM, NORM_TRIANGLE, SPECTRAL_NORM),
                       details={"grad u blocks": bool(grad_ok), "curvature <= 8M (z3)": bool(curv_ok),
                                "Hessian <= 2 + 8M (z3)": bool(hess_ok)})


LEMMA3_PARTS = ("(12): l(z+z') <= l(z) + <grad l(z), z'> + (2+8C^2)/2 ||z'||^2",
                "||Hess l(z)|| <= 2 + 8C^2 on B^3 (the proof's route to (12))")


def lemma3_from_steps() -> Certificate:
    """Lemma 3 from its certified steps: ||Hess l(z)|| <= 2 + 8 max_ij ||z_i|| ||z_j|| for every z
    (lemma3_curvature_norms), and max_ij ||z_i|| ||z_j|| <= C^2 on B^3 (z3), so ||Hess l|| <= 2 + 8C^2 on B^3;
    (12) is then Taylor's theorem with integral remainder along the segment [z, z + z'], which lies in the
    convex set B^3 when both ends do (the claim's hypothesis): l(z+z') - l(z) - <grad l(z), z'> =
    int_0^1 (1-t) z'^T Hess l(z + t z') z' dt <= (2 + 8C^2)/2 ||z'||^2."""
    steps = lemma3_curvature_norms()
    a, b, c, C, H, M = z3.Reals("a b c C H M")
    s = z3.SolverFor("QF_NRA")
    norms = (a, b, c)
    s.add(C >= 0, *[x >= 0 for x in norms], *[x <= C for x in norms],
          *[M >= x * y for x in norms for y in norms], z3.Or(*[M == x * y for x in norms for y in norms]),
          H <= 2 + 8 * M, z3.Not(H <= 2 + 8 * C * C))
    ball_ok = s.check() == z3.unsat
    return Certificate(method="z3 + Taylor's theorem (integral remainder) on the convex set B^3",
                       statement="||Hess l(z)|| <= 2 + 8 max_ij ||z_i|| ||z_j|| <= 2 + 8C^2 on B^3, and (12) by Taylor's "
                                 "theorem with integral remainder along [z, z + z'] (in B^3, which is convex)",
                       domain="every d >= 1, C >= 0, z and z + z' in B^3", ok=bool(steps.ok and ball_ok),
                       parts=LEMMA3_PARTS, modulo=(*steps.modulo, TAYLOR),
                       details={"hessian bound (every z)": steps.ok, "on B^3 (z3)": bool(ball_ok)})


def lemma3_route_only() -> Certificate:
    """lemma3_from_steps covering the Hessian bound on B^3 only (at every z of B^3): the certificate of a reading in
    which z + z' may leave B^3, where the Taylor step along [z, z + z'] (inside the convex B^3) no longer applies."""
    cert = lemma3_from_steps()
    return replace(cert, parts=(LEMMA3_PARTS[1],), domain="every d >= 1, C >= 0, z in B^3 (the Hessian bound only)")


LEMMA7_CONCLUSION = "l(z_i) <= 2 eps / eta for every i"


def lemma7_slots_from_steps() -> Certificate:
    """Lemma 7 read with the gradient in the 3n output slots, from its certified steps: that gradient is the vector of
    the loss vectors, so ||loss_{i,3}|| <= ||grad|| <= eps; ||loss_{i,3}|| = v_2 ||z_{i,1}|| and l(z_i) = -log(1 - v_2)
    (lemma7_loss_vectors_symbolic); ||z_{i,1}|| >= eta (Assumption 2) and eps < eta/2 give v_2 <= eps/eta < 1/2 (z3);
    -log(1 - x) <= x/(1 - x) <= 2x on [0, 1/2] (neg_log1m_interval, ratio_le_twice_interval) gives l(z_i) <= 2 v_2 <=
    2 eps/eta (z3)."""
    steps = [lemma7_loss_vectors_symbolic(), neg_log1m_interval(), ratio_le_twice_interval()]
    v2, n1, eta, eps, g, loss, ratio = z3.Reals("v2 n1 eta eps g loss ratio")
    s = z3.SolverFor("QF_NRA")
    # g^2 = sum_ij ||loss_ij||^2 >= (v2 n1)^2; loss = -log(1 - v2) <= ratio = v2/(1 - v2) <= 2 v2 on [0, 1/2]
    s.add(v2 >= 0, v2 < 1, eta > 0, n1 >= eta, g >= 0, g * g >= (v2 * n1) * (v2 * n1), g <= eps, 2 * eps < eta,
          z3.Implies(v2 <= z3.RealVal(1) / 2, z3.And(loss <= ratio, ratio <= 2 * v2)), z3.Not(loss <= 2 * eps / eta))
    chain_ok = s.check() == z3.unsat
    return Certificate(method="z3 + the certified steps of merad.lemma7.steps",
                       statement="with the gradient in the 3n output slots, ||loss_{i,3}|| = v_2 ||z_{i,1}|| <= ||grad|| "
                                 "<= eps, ||z_{i,1}|| >= eta > 2 eps, so v_2 <= eps/eta < 1/2 and l(z_i) = -log(1 - v_2) "
                                 "<= v_2/(1 - v_2) <= 2 v_2 <= 2 eps/eta",
                       domain="every training set (shared samples allowed), every d >= 1, Assumption 2, ||grad|| <= eps "
                              "< eta/2 (gradient in the 3n output slots)",
                       ok=bool(chain_ok and all(c.ok for c in steps)), parts=(LEMMA7_CONCLUSION,),
                       details={"chain (z3)": bool(chain_ok), **{c.method + f" #{i}": c.ok for i, c in enumerate(steps)}})


def lemma7_disjoint_from_steps() -> Certificate:
    """Lemma 7 with every sample in one triplet: the gradient in the outputs of f has one row per sample, the sum of
    the loss vectors of its uses -- one use each -- so it is the gradient in the 3n output slots (the same vector, rows
    permuted) and lemma7_slots_from_steps applies."""
    cert = lemma7_slots_from_steps()
    return replace(cert, statement="every sample in one triplet: the gradient in the outputs of f is the vector of the "
                                   "3n loss vectors (one use per sample), so " + cert.statement,
                   domain="training sets with every sample in one triplet, every d >= 1, Assumption 2, ||grad|| <= eps "
                          "< eta/2")


def rearrangement_counts_coq() -> Certificate:
    """Each c- of C minus {c} lies in exactly C(N_C-2, k-1) of the k-subsets, every N_C and k (Coq)."""
    return covering(provers.rearrangement_coq(), *REARRANGE_COUNTS)


def rearrangement_average_coq() -> Certificate:
    """The average over k-subsets of sum_i v_ci is k/(N_C-1) sum_c- v_c-, every N_C and k: Coq proves
    sum_S sum_{i in S} v_i = C(N_C-2, k-1) sum v and #S = C(N_C-1, k); sympy's combsimp gives the ratio
    C(N_C-2, k-1)/C(N_C-1, k) = k/(N_C-1) for symbolic N_C, k."""
    coq_part, ratio = provers.rearrangement_coq(), rearrangement_ratio()
    return Certificate(method=coq_part.method,  # "coq": the script is in the report's coq/ folder
                       statement="average over k-subsets of sum_i v_ci = (C(N_C-2,k-1) sum v) / C(N_C-1,k) = "
                                 "k/(N_C-1) sum v: the total and the count by Coq, the ratio by sympy",
                       domain="every integer N_C >= 2, 1 <= k <= N_C - 1 (Coq by induction; sympy symbolic)",
                       ok=bool(coq_part.ok and ratio.ok), parts=(REARRANGE_AVERAGE,),
                       details={**coq_part.details, "ratio (sympy combsimp)": ratio.details})


COQ_CERTIFICATES["merad.prop1.rearrangement"] = (rearrangement_counts_coq, rearrangement_average_coq)


def lemma7_sharp_constant() -> Certificate:
    """Reported beside merad.lemma7.steps, covering none of its parts: the sharp constant 2 ln 2 (~1.3863) of
    -log(1-x) <= c x on [0, 1/2], both certificates in Coq (the printed chain gives c = 2)."""
    return replace(provers.lemma7_sharp_constant_coq(), parts=())


COQ_CERTIFICATES["merad.lemma7.steps"] = (*COQ_CERTIFICATES["merad.lemma7.steps"], lemma7_sharp_constant)
