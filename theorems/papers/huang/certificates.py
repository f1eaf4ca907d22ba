"""Symbolic certificates (sympy) for the identities of Huang et al. (theorems/papers/huang/claims.py).

``complete=True`` only where sympy proved the statement for symbolic sizes; the others are
proved size by size (``complete=False``, the domain says which sizes).
"""

from __future__ import annotations

import itertools

import sympy
from sympy import IndexedBase, Matrix, Sum, eye, exp, expand, log, simplify, sqrt, symbols

from numerics.certificate import Certificate

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
        domain="every d (symbolic), every finite augmentation setting, ||f|| = 1", ok=exp_ok and residual == 0,
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


def barlow_trace_identity(max_size: int = 3) -> Certificate:
    """(1): both equalities for symbolic mu_k (d x K entries) and p_k, every d, K <= max_size (K > d too)."""
    ok, sizes = True, []
    for d, K in itertools.product(range(1, max_size + 1), repeat=2):
        p = symbols(f"p1:{K + 1}", positive=True)
        mu = Matrix(d, K, lambda a, k: sympy.Symbol(f"mu_{k}_{a}", real=True))
        U = Matrix(d, K, lambda a, k: sqrt(p[k]) * mu[a, k])
        M = sum((p[k] * mu[:, k] * mu[:, k].T for k in range(K)), sympy.zeros(d, d))
        lhs = sum(x ** 2 for x in (M - eye(d)))
        gram = sum(x ** 2 for x in (U.T * U - eye(K)))
        double = sum((sqrt(p[k] * p[l]) * (mu[:, k].T * mu[:, l])[0, 0] - (1 if k == l else 0)) ** 2
                     for k in range(K) for l in range(K))
        ok &= expand(lhs - (gram + d - K)) == 0 and expand(gram - double) == 0
        sizes.append((d, K))
    return Certificate(
        method="sympy (symbolic matrices)", statement=f"{TRACE_GRAM}; {TRACE_SUM}",
        domain=f"d, K <= {max_size} (including K > d), every p > 0 and mu", ok=ok, details={"(d, K)": sizes},
        parts=(TRACE_GRAM, TRACE_SUM), complete=False,
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
