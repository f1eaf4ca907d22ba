"""Symbolic certificates (sympy) for the identities of Merad et al. Section 3.

Each function returns a :class:`~theorems.certify.Certificate` that says what
was proved and on which domain: "all N_C, N" when sympy proved it with
symbolic sizes, or a finite range when it was proved size by size.
"""

from __future__ import annotations

import itertools

import sympy
from sympy import (Interval, Piecewise, S, Sum, binomial, combsimp, exp, expand, harmonic,
                   log, oo, simplify, solveset, symbols)

from theorems.certify import Certificate


def tau_plus_uniform() -> Certificate:
    """sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) for all positive integers N_C, N."""
    n, N, c = symbols("N_C N c", positive=True, integer=True)
    lhs = Sum((1 / n) ** (N + 1), (c, 1, n)).doit()
    residual = simplify(lhs - n ** (-N))
    return Certificate(
        method="sympy", statement="sum_c (1/N_C)^(N+1) = N_C^(-N)",
        domain="all integers N_C >= 1, N >= 1 (symbolic)", ok=residual == 0,
        details={"lhs": str(lhs), "residual": str(residual)},
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
        details={"sizes": checked},
    )


def rearrangement_ratio() -> Certificate:
    """C(N_C-2, k-1) / C(N_C-1, k) = k/(N_C-1) for all N_C >= 2, 1 <= k <= N_C-1."""
    n, k = symbols("N_C k", positive=True, integer=True)
    residual = simplify(combsimp(binomial(n - 2, k - 1) / binomial(n - 1, k)) - k / (n - 1))
    return Certificate(
        method="sympy (combsimp)", statement="C(N_C-2,k-1)/C(N_C-1,k) = k/(N_C-1)",
        domain="all integers N_C >= 2, 1 <= k <= N_C - 1 (symbolic)", ok=residual == 0,
        details={"residual": str(residual)},
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



