"""Certificates for the facts of Merad et al.: sympy, z3, interval (arb) and Coq.

Each function returns a :class:`~numerics.certificate.Certificate` that says what was proved and on
which domain: "all N_C, N" when it was proved with symbolic sizes or in Coq by induction, or a finite
range when it was proved size by size (``complete=False``). The Coq certificates (``*_coq``, listed per
claim in :data:`COQ_CERTIFICATES`) are formal proofs checked by ``coqc``; a statement may carry several
certificates.
"""

from __future__ import annotations

import itertools

import sympy
from sympy import (Interval, Piecewise, S, Sum, binomial, combsimp, exp, expand, harmonic,
                   log, oo, simplify, solveset, symbols)

from numerics.certificate import Certificate, covering
from numerics.interval import prove_nonnegative
from theorems.papers.merad import provers

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
        ok=bool(mean_ok) and residual == 0,
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
               f"checked symbolically for (N_C, d, support) in {checked}",
        ok=ok,
    )





# -- Section 4 --------------------------------------------------------------------------------
SOFTMAX_CURVATURE = "||diag(v) - v v^T|| <= 1/2"
D2COS = ("min_ij ||d2cos_ij|| = 1", "max_ij ||d2cos_ij|| = 1")
NEG_LOG = "-log(1-x) <= x/(1-x) on [0,1/2]"
RATIO = "x/(1-x) <= 2x on [0,1/2]"
SOFTPLUS_LIMITS = ("zeta(x) ~ x as x -> +oo", "zeta(x) -> 0 as x -> -oo")
SOFTPLUS_BOUNDS = ("0 <= zeta(x) - x <= e^-x for x >= 0", "0 <= zeta(x) <= e^x for x <= 0")


def softmax_curvature_interval() -> Certificate:
    """||diag(v) - v v^T|| = 2 v_1 v_2 <= 1/2 on the simplex of R^2, by interval branch-and-bound."""
    return covering(provers.softmax2_curvature_le_half(), SOFTMAX_CURVATURE)


def softmax_curvature_smt() -> Certificate:
    """The same fact as a polynomial inequality, by z3."""
    return covering(provers.softmax2_curvature_smt(), SOFTMAX_CURVATURE)


def d2cos_norm_symbolic() -> Certificate:
    """||A_i A_j^T + A_j A_i^T|| = 1 for every d: S = that matrix is symmetric with S^2 = P, a
    non-zero orthogonal projector (identity on blocks i and j), so its eigenvalues are in {-1, 0, 1}."""
    from sympy import BlockMatrix, Identity, ZeroMatrix, block_collapse

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
        domain=f"all d >= 1 (symbolic), pairs {', '.join(checked)}", ok=ok, parts=D2COS,
    )


def neg_log1m_interval() -> Certificate:
    return covering(provers.neg_log1m_le_ratio(), NEG_LOG)


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


# -- log-sum-exp facts: SMT for n <= 6 and interval boxes (finite ranges: complete=False) ---------
LSE_MAX = ("max(x) <= LSE(x)", "LSE(x) <= max(x) + log n")
LSE_PAIRWISE = ("LSE(x) = LSE(LSE(x1,x2),...)", "LSE(LSE pairs) <= max_j LSE(pair j) + log n")


def lse_max_bounds_smt() -> Certificate:
    return covering(provers.lse_max_bounds_smt(), *LSE_MAX)


def lse_max_bounds_boxes() -> Certificate:
    return covering(provers.lse_bounds_box(3, -50, 50), *LSE_MAX)


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


def neg_log1m_coq() -> Certificate:
    """-log(1-x) <= x/(1-x) on [0, 1/2] (Coq)."""
    return covering(provers.neg_log1m_le_ratio_coq(), NEG_LOG)


def ratio_le_twice_coq() -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2] (Coq)."""
    return covering(provers.ratio_le_twice_coq(), RATIO)


def softplus_bounds_coq() -> Certificate:
    """0 <= zeta(x) - x <= e^-x (x >= 0) and 0 <= zeta(x) <= e^x (x <= 0), every real x (Coq)."""
    return covering(provers.softplus_bounds_coq(), *SOFTPLUS_BOUNDS)


def coupon_mean_coq() -> Certificate:
    """E[T] = N_C H_{N_C} for every N_C, from the geometric stages (Coq + Coquelicot)."""
    return covering(provers.coupon_mean_coq(), COUPON_MEAN)


def coupon_variance_coq() -> Certificate:
    """Var(T) = N_C^2 H^(2)_{N_C} - N_C H_{N_C} for every N_C (Coq). It is not the printed value, so it
    covers no part of merad.coupon.variance: it is the correct formula beside the refuted one."""
    return provers.coupon_variance_coq()


def tau_plus_uniform_coq() -> Certificate:
    """sum_c (1/N_C)^(N+1) = N_C^(-N) for every N_C, N (Coq)."""
    return covering(provers.tau_plus_uniform_coq(), TAU_UNIFORM)


# which claim each Coq certificate belongs to (claims.py lists certificates per claim; these go beside
# the ones it lists today). coupon_variance_coq proves the correct variance, not the printed one: it is
# for a proof step (the Chebyshev bound's variance), not a certificate of merad.coupon.variance.
COQ_CERTIFICATES = {
    "merad.lse.max_bounds": (lse_max_bounds_coq,),
    "merad.lse.nonneg": (lse_nonneg_coq,),
    "merad.lse.pairwise": (lse_pairwise_coq,),
    "merad.lse.restriction": (lse_restriction_coq,),
    "merad.lemma3.steps": (softmax_curvature_coq,),
    "merad.lemma7.steps": (neg_log1m_coq, ratio_le_twice_coq),
    "merad.softplus.limits": (softplus_bounds_coq,),
    "merad.coupon.mean": (coupon_mean_coq,),
    "merad.tau_plus": (tau_plus_uniform_coq,),
}
