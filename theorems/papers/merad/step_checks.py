"""Checks of single steps of Merad et al.'s printed proofs that the proof pages name in their tags.

A page step tagged ``[check: cert <key>]`` is certified by the certificate registered here under
``<key>`` (sympy identities over symbolic sizes: every N, every n); ``[check: named <key>]`` is an
instance of a named standard result (Jensen's inequality, monotonicity) whose hypotheses are certified
for the instance. A certificate that covers a finite range only (``complete=False``, exact enumeration
with symbolic rho) leaves the step ``tested`` (the README's "Proof chains" lists the tags).
"""

from __future__ import annotations

from dataclasses import replace

import itertools
import math

import sympy
import z3

from numerics.certificate import Certificate
from theorems import (CHEBYSHEV, convex_by_second_derivative, finite_support, Instance, JENSEN, MONOTONE, NamedResult,
                      nonnegative_by_sympy)
from theorems.papers.merad import chebyshev_proof
from theorems.papers.merad import finite_proofs
from theorems.papers.merad.certificates import lemma7_loss_vectors_symbolic
from theorems.papers.merad.plugin import PLUGIN

_t = sympy.Symbol("t", real=True)
_y = sympy.Symbol("y", nonnegative=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_i = sympy.Symbol("i", integer=True)
_s = sympy.Function("s")
_s0 = sympy.Symbol("s0", real=True)
ZETA = sympy.log(1 + sympy.exp(_t))


def _exp_equal(lhs: sympy.Expr, rhs: sympy.Expr) -> bool:
    """log-identity check: exp is injective, so lhs = rhs iff exp(lhs) = exp(rhs)."""
    return sympy.simplify(sympy.expand(sympy.exp(lhs)).doit() - sympy.expand(sympy.exp(rhs)).doit()) == 0


def rewrite_un_lse() -> Certificate:
    """(6) rewritten: -log(e^{s_0}/(e^{s_0} + sum_{i<=N} e^{s_i})) = LSE(0, s_1 - s_0, ..., s_N - s_0), every N."""
    total = sympy.Sum(sympy.exp(_s(_i)), (_i, 1, _N))
    lhs = -sympy.log(sympy.exp(_s0) / (sympy.exp(_s0) + total))
    rhs = sympy.log(1 + sympy.Sum(sympy.exp(_s(_i) - _s0), (_i, 1, _N)))
    return Certificate(method="sympy (symbolic N)",
                       statement="-log(e^{s_0} / (e^{s_0} + sum_{i=1}^N e^{s_i})) = LSE(0, s_1 - s_0, ..., s_N - s_0), "
                                 "with s_0 = f(x)^T f(x+), s_i = f(x)^T f(x-_i): the integrand of (6) in its LSE "
                                 "form, so the two expectations are equal",
                       domain="every N >= 1 and every real s_0, ..., s_N (symbolic N)", ok=_exp_equal(lhs, rhs))


def rewrite_un_softplus() -> Certificate:
    """(6) at N = 1: -log(e^{s+}/(e^{s+} + e^{s-})) = zeta(s- - s+)."""
    sp_, sm = sympy.symbols("s_plus s_minus", real=True)
    lhs = -sympy.log(sympy.exp(sp_) / (sympy.exp(sp_) + sympy.exp(sm)))
    return Certificate(method="sympy", statement="-log(e^{s+} / (e^{s+} + e^{s-})) = zeta(s- - s+) = "
                                                 "log(1 + e^{s- - s+}): the integrand of (6) at N = 1",
                       domain="every real s+, s-", ok=_exp_equal(lhs, ZETA.subs(_t, sm - sp_)))


def zeta_is_lse() -> Certificate:
    """zeta(t) = log(1 + e^t) = LSE(0, t)."""
    return Certificate(method="sympy", statement="zeta(t) = log(1 + e^t) = log(e^0 + e^t) = LSE(0, t)",
                       domain="every real t", ok=_exp_equal(ZETA, sympy.log(sympy.exp(0) + sympy.exp(_t))))


def cross_entropy_of_mean_classifier() -> Certificate:
    """-log softmax_c(W^mu f(x)) = LSE_j(f(x)^T (mu_j - mu_c)) for every number of classes n."""
    n = sympy.Symbol("n", integer=True, positive=True)
    sc = sympy.Symbol("s_c", real=True)
    lhs = -sympy.log(sympy.exp(sc) / sympy.Sum(sympy.exp(_s(_i)), (_i, 1, n)))
    rhs = sympy.log(sympy.Sum(sympy.exp(_s(_i) - sc), (_i, 1, n)))
    return Certificate(method="sympy (symbolic n)",
                       statement="-log(e^{s_c} / sum_{j=1}^n e^{s_j}) = LSE_j(s_j - s_c), s_j = f(x)^T mu_j the "
                                 "logits of W^mu: the integrand of (5) is LSE(a) with a_j = f(x)^T (mu_j - mu_c)",
                       domain="every n >= 1 and every real s_1..s_n (symbolic n)", ok=_exp_equal(lhs, rhs))


# the proofs' Jensen step on finite distributions, for phi(t) = log(1 + sum_i e^{t_i}), proved in merad_lemma12.v
JENSEN_FINITE = NamedResult("Jensen's inequality (finite distributions, phi(t) = log(1 + sum_i e^{t_i}))",
                            JENSEN.statement, JENSEN.hypotheses, proof=finite_proofs.jensen_coq)


def _jensen(convex: object, what: str) -> Instance:
    return Instance(JENSEN_FINITE, {"f is convex": convex, "X is integrable": lambda: finite_support(what)})


def _lse_convex_every_n() -> Certificate:
    """LSE(0, .) = phi is convex on R^N for every N: it lies above its tangent planes (phi_tangent, Coq)."""
    return replace(finite_proofs.jensen_coq(), statement="phi(t) = LSE(0, t) lies above its tangent planes: convex, every N")


def _softplus_convex() -> Certificate:
    return convex_by_second_derivative(ZETA, _t, "zeta(t) = log(1 + e^t) (composed with the linear map "
                                                  "t -> f(x)^T t, still convex)")


def p_cc_event(max_classes: int = 3, max_n: int = 5) -> Certificate:
    """P(|J| = N_C) = p_cc(N) = P(T <= N): with symbolic rho, the probability that N draws cover every class
    (enumerated) equals the coupon collector's P(T <= N) by inclusion-exclusion."""
    ok, checked = True, []
    for nc in range(1, max_classes + 1):
        rho = sympy.symbols(f"r1:{nc + 1}", positive=True)
        for n in range(nc, max_n + 1):
            covered = sum(math.prod(rho[c] for c in draw) for draw in itertools.product(range(nc), repeat=n)
                          if len(set(draw)) == nc)
            incl_excl = sum((-1) ** len(S) * (sum(rho[c] for c in range(nc) if c not in S)) ** n
                            for r in range(nc + 1) for S in itertools.combinations(range(nc), r))
            ok &= sympy.expand((covered - incl_excl).subs(rho[-1], 1 - sum(rho[:-1]))) == 0
            checked.append((nc, n))
    return Certificate(method="sympy (exact enumeration, symbolic rho)",
                       statement="P(|J| = N_C) for N i.i.d. draws from rho equals P(T <= N) = sum_S (-1)^|S| "
                                 "(1 - rho(S))^N (T the coupon collector's time), which is p^rho_cc(N)",
                       domain=f"N_C <= {max_classes}, N_C <= N <= {max_n}, every rho (symbolic)", ok=bool(ok),
                       complete=False, details={"sizes": checked})


def uniform_subsets() -> Certificate:
    """Uniform rho: given distinct c_1..c_k != c, the set {c_1..c_k} is uniform over the k-subsets of C minus {c}."""
    k, nc = sympy.symbols("k N_C", integer=True, positive=True)
    i = sympy.Symbol("i", integer=True)
    tuple_prob = sympy.Product(1 / nc, (i, 1, k)).doit()
    ok = sympy.simplify(tuple_prob - nc ** (-k)) == 0 and not (tuple_prob.free_symbols - {k, nc})
    return Certificate(method="sympy (symbolic N_C, k)",
                       statement="under uniform rho every ordered k-tuple of classes has probability "
                                 "prod_i rho(c_i) = N_C^(-k), the same for every tuple; each k-subset of C minus {c} "
                                 "is the set of exactly k! ordered tuples of distinct classes, so conditioned on "
                                 "'distinct and != c' the set is uniform over the C(N_C - 1, k) subsets",
                       domain="every N_C >= 2 and 1 <= k <= N_C - 1 (symbolic)", ok=bool(ok))


def first_index_law() -> Certificate:
    """Given that some c-_i != c, the first such c-_{i*} has law rho(. | . != c), for every N (sympy, symbolic N):
    the event {i* = j, c-_j = c'} has probability rho(c)^(j-1) rho(c') (the draws after j are free), so
    P(c-_{i*} = c', some c-_i != c) = sum_{j=1}^N rho(c)^(j-1) rho(c') = rho(c') (1 - rho(c)^N) / (1 - rho(c)), and
    P(some c-_i != c) = 1 - rho(c)^N; rho(c) < 1 because rho(c') > 0 (written rho(c) = 1/(1 + w), w > 0)."""
    n = sympy.Symbol("N", integer=True, positive=True)
    j = sympy.Symbol("j", integer=True, positive=True)
    w, rt = sympy.symbols("w rho_t", positive=True)
    rc = 1 / (1 + w)
    joint = sympy.Sum(rc ** (j - 1) * rt, (j, 1, n)).doit()
    residual = sympy.simplify(joint / (1 - rc ** n) - rt / (1 - rc))
    return Certificate(method="sympy (symbolic N)",
                       statement="P(c-_{i*} = c' | exists i: c-_i != c) = rho(c') / (1 - rho(c)) for c' != c, i* the "
                                 "first index with c-_i != c: sum_j rho(c)^(j-1) rho(c') / (1 - rho(c)^N)",
                       domain="every N >= 1, every rho with rho(c) < 1 (symbolic)", ok=residual == 0,
                       details={"residual": str(residual)})


def _log1p_increasing() -> Certificate:
    d = sympy.diff(sympy.log(1 + _y), _y)
    return Certificate(method="sympy (derivative)", statement=f"g(y) = log(1 + y) is non-decreasing: g'(y) = {d} > 0",
                       domain="every y >= 0", ok=bool(sympy.ask(sympy.Q.positive(d), sympy.Q.nonnegative(_y))))


PLUGIN.step_certificate("merad.rewrite_un_lse", rewrite_un_lse)
PLUGIN.step_certificate("merad.rewrite_un_softplus", rewrite_un_softplus)
PLUGIN.step_certificate("merad.zeta_is_lse", zeta_is_lse)
PLUGIN.step_certificate("merad.cross_entropy_mean_classifier", cross_entropy_of_mean_classifier)
PLUGIN.step_certificate("merad.p_cc_event", p_cc_event)
PLUGIN.step_certificate("merad.uniform_subsets", uniform_subsets)
PLUGIN.step_certificate("merad.first_index_law", first_index_law)
PLUGIN.named_step("merad.jensen_softplus", _jensen(_softplus_convex, "zeta(f(x)^T (f(x-) - f(x+))) given (c, c-, x)"))
PLUGIN.named_step("merad.jensen_lse", _jensen(_lse_convex_every_n,
                                              "LSE(0, f(x)^T (f(x-_i) - f(x+))) given (c, c-_1..c-_N, x)"))
PLUGIN.named_step("merad.monotone_log1p", Instance(MONOTONE, {
    "g is non-decreasing": _log1p_increasing,
    "a <= b": lambda: nonnegative_by_sympy(sympy.exp(_t), "the dropped terms e^{a_i} (b - a is their sum)"),
}))


# -- certificates of steps of the registered chains (theorems/papers/merad/proofs.py) ----------------------

def lemma7_v2_bound() -> Certificate:
    """v_2 <= eps/eta: ||loss_{i,3}|| = v_2(z_i) ||z_{i,1}|| (certified symbolically, see
    certificates.lemma7_loss_vectors_symbolic) and ||z_{i,1}|| >= eta > 0 give v_2(z_i) <= ||loss_{i,3}|| / eta
    <= max_{i,j} ||loss_{i,j}|| / eta for every i, hence for the max over i (z3)."""
    formula = lemma7_loss_vectors_symbolic()
    v, n, l3, L, eta = z3.Reals("v n l3 L eta")
    s = z3.SolverFor("QF_NRA")
    s.add(v >= 0, eta > 0, n >= eta, l3 == v * n, l3 <= L, z3.Not(v * eta <= L))
    ok = formula.ok and s.check() == z3.unsat
    return Certificate(method="sympy + z3", statement="||loss_{i,3}|| = v_2 ||z_{i,1}||, ||z_{i,1}|| >= eta > 0 and "
                                                      "||loss_{i,3}|| <= max_{i,j} ||loss_{i,j}|| imply v_2 <= max ||loss|| / eta "
                                                      "(then for the max over i)",
                       domain="every training set with eta = min ||f(x)|| > 0 (Assumption 2)", ok=bool(ok))


def lemma7_v2_bound_doubled() -> Certificate:
    """2 v_2 <= 2 max ||loss|| / eta: the previous certificate, multiplied by 2 > 0."""
    base = lemma7_v2_bound()
    return Certificate(method=base.method, statement="2 v_2 <= 2 max ||loss_{i,j}|| / eta (the bound v_2 <= max ||loss|| / "
                                                     "eta multiplied by 2 > 0)", domain=base.domain, ok=base.ok)


def lemma7_max_loss_identity() -> Certificate:
    """max_i zeta(u_i) = -log(1 - max_i v_2(z_i)): zeta(u) = -log(1 - sigma(u)) for every u (sympy) and both
    zeta and sigma are increasing (derivatives sigma(u) > 0 and sigma(u)(1 - sigma(u)) > 0), so both maxima are
    taken at the same i (the largest u_i)."""
    u = sympy.Symbol("u", real=True)
    sigma = 1 / (1 + sympy.exp(-u))
    identity = _exp_equal(ZETA.subs(_t, u), -sympy.log(1 - sigma))
    zeta_up = sympy.simplify(sympy.diff(ZETA.subs(_t, u), u) - sigma) == 0 and sympy.ask(sympy.Q.positive(sigma),
                                                                                          sympy.Q.real(u)) is not False
    sigma_up = sympy.simplify(sympy.diff(sigma, u) - sigma * (1 - sigma)) == 0
    return Certificate(method="sympy", statement="zeta(u) = -log(1 - sigma(u)); zeta' = sigma > 0 and sigma' = sigma(1 - sigma) > 0, "
                                                 "so max_i zeta(u_i) and max_i sigma(u_i) are taken at the same i",
                       domain="every training set (every real u_i)", ok=bool(identity and zeta_up and sigma_up))


def uniform_task_reindexing() -> Certificate:
    """T_k = L^mu_sup,k under uniform rho: the integrand of (10) for the task T = {c} u S with label c is
    -log softmax_c = log(1 + sum_{c' in S} e^{a(x, c')}) (sympy, symbolic k), and a uniform (k+1)-subset T with a
    uniform label c in T is the same law as c uniform on C and S a uniform k-subset of C minus {c}:
    1/C(N_C, k+1) * 1/(k+1) = 1/N_C * 1/C(N_C - 1, k) (sympy combsimp, symbolic N_C, k)."""
    k, nc = sympy.symbols("k N_C", integer=True, positive=True)
    law = sympy.simplify(sympy.combsimp(1 / sympy.binomial(nc, k + 1) / (k + 1) - 1 / nc / sympy.binomial(nc - 1, k)))
    total = sympy.Sum(sympy.exp(_s(_i)), (_i, 1, k))
    ce = _exp_equal(-sympy.log(sympy.exp(_s0) / (sympy.exp(_s0) + total)),
                    sympy.log(1 + sympy.Sum(sympy.exp(_s(_i) - _s0), (_i, 1, k))))
    return Certificate(method="sympy (symbolic N_C, k)",
                       statement="-log softmax_c(W^mu_T f(x)) = log(1 + sum_{c' in T minus c} e^{a(x, c')}) and "
                                 "P(T, c) = 1/C(N_C, k+1) 1/(k+1) = 1/N_C 1/C(N_C-1, k): (10) under uniform rho is T_k",
                       domain="every N_C >= 2, 1 <= k <= N_C - 1 (symbolic)", ok=bool(law == 0 and ce),
                       details={"law residual": str(law)})


# -- the Chebyshev bound after Lemma 2 (merad.coupon.chebyshev's page) ---------------------------------------

def geometric_variance() -> Certificate:
    """Each stage T_i ~ Geom(p), 0 < p <= 1, has E T_i = 1/p and Var T_i = (1 - p)/p^2 (finite): sympy sums the
    series for p = 1/(1 + w), w > 0 (p = 1 is the constant T_i = 1, variance 0)."""
    t = sympy.Symbol("t", integer=True, positive=True)
    w = sympy.Symbol("w", positive=True)
    p = 1 / (1 + w)
    m1 = sympy.Sum(t * p * (1 - p) ** (t - 1), (t, 1, sympy.oo)).doit()
    m2 = sympy.Sum(t ** 2 * p * (1 - p) ** (t - 1), (t, 1, sympy.oo)).doit()
    ok = sympy.simplify(m1 - 1 / p) == 0 and sympy.simplify(m2 - m1 ** 2 - (1 - p) / p ** 2) == 0
    return Certificate(method="sympy (series)", statement="T = sum of N_C independent geometric stages, each with a finite "
                                                          "variance (1 - p_i)/p_i^2: Var(T) is finite",
                       domain="every N_C >= 1 (p_i = (N_C - i + 1)/N_C in (0, 1])", ok=bool(ok))


def _chebyshev_a_positive() -> Certificate:
    beta, nc = sympy.symbols("beta N_C", positive=True)
    return nonnegative_by_sympy(beta * nc, "a = beta N_C > 0 (beta > 0, N_C >= 1)")


# the instance's Chebyshev inequality is the one for distributions on the naturals, proved in merad_chebyshev.v
CHEBYSHEV_ON_N = NamedResult("Chebyshev's inequality (distributions on the naturals)", CHEBYSHEV.statement,
                             CHEBYSHEV.hypotheses, proof=chebyshev_proof.chebyshev_coq)
PLUGIN.step_certificate("merad.coupon_variance_bound", chebyshev_proof.coupon_variance_bound_coq)
PLUGIN.named_step("merad.chebyshev_coupon", Instance(CHEBYSHEV_ON_N, {
    "a > 0": _chebyshev_a_positive, "X has a finite variance": geometric_variance}))


# -- Theorem 1 = Lemma 6 applied with eps' = eps eta / (2n), then Lemma 7 (Section 8) ------------------------
_eps, _eta, _n, _delta, _d, _poly = sympy.symbols("epsilon eta n delta d P", positive=True)
EPS_PRIME = _eps * _eta / (2 * _n)  # the substitution the proof of Theorem 1 prints


def theorem1_lemma7_hypothesis() -> Certificate:
    """Lemma 7 needs eps' < eta/2; with eps' = eps eta/(2n) that is eps < n (every eta, n > 0)."""
    solved = sympy.solve_univariate_inequality(EPS_PRIME < _eta / 2, _eps, relational=False)
    ok = sympy.simplify((_eta / 2 - EPS_PRIME) - _eta / (2 * _n) * (_n - _eps)) == 0  # eta/(2n) > 0
    return Certificate(method="sympy (symbolic substitution)",
                       statement="eps' = eps eta/(2n) < eta/2  <=>  eps < n  (eta/2 - eps' = eta (n - eps)/(2n))",
                       domain="every eps, eta, n > 0", ok=bool(ok), details={"solution_in_eps": str(solved)})


def theorem1_lemma7_bound() -> Certificate:
    """Lemma 7's conclusion 2 eps'/eta with eps' = eps eta/(2n) is eps/n: the eta cancels."""
    bound = sympy.simplify(2 * EPS_PRIME / _eta)
    return Certificate(method="sympy (symbolic substitution)",
                       statement=f"2 eps'/eta with eps' = eps eta/(2n) simplifies to {bound}",
                       domain="every eps, eta, n > 0", ok=sympy.simplify(bound - _eps / _n) == 0)


def theorem1_sum_bound() -> Certificate:
    """n terms, each at most eps/n, sum to at most eps: sum_{i=1}^n eps/n = eps (symbolic n)."""
    i = sympy.Symbol("i", integer=True, positive=True)
    total = sympy.simplify(sympy.Sum(_eps / _n, (i, 1, _n)).doit())
    return Certificate(method="sympy (symbolic n)",
                       statement=f"L^_un(f) = sum_{{i<=n}} l(z_i) <= sum_{{i<=n}} eps/n = {total}",
                       domain="every n >= 1, eps > 0 (each term bounded by the step before)",
                       ok=sympy.simplify(total - _eps) == 0)


def theorem1_lemma6_price() -> Certificate:
    """Lemma 6's width m >= P d/eps' and steps T = P/(delta^2 eps'^2) with eps' = eps eta/(2n), derived
    symbolically (P stands for the poly(n, L, 1/delta) factor Lemma 6 leaves unspecified): the substitution
    brings 1/eta into m and 1/eta^2 into T, dependences the statement of Theorem 1 does not show."""
    width = sympy.simplify(_poly * _d / EPS_PRIME)
    steps = sympy.simplify(_poly / (_delta ** 2 * EPS_PRIME ** 2))
    eta_power_m = sympy.degree(sympy.denom(sympy.together(width)), _eta)
    eta_power_t = sympy.degree(sympy.denom(sympy.together(steps)), _eta)
    ok = (sympy.simplify(width - 2 * _n * _poly * _d / (_eps * _eta)) == 0
          and sympy.simplify(steps - 4 * _n ** 2 * _poly / (_delta ** 2 * _eps ** 2 * _eta ** 2)) == 0)
    return Certificate(method="sympy (symbolic substitution)",
                       statement=f"m >= P d/eps' = {width} and T = P/(delta^2 eps'^2) = {steps}: the width grows as "
                                 f"eta^-{eta_power_m} and the number of steps as eta^-{eta_power_t}",
                       domain="every eps, eta, n, delta, d, P > 0 (P = Lemma 6's unspecified poly(n, L, 1/delta))",
                       ok=bool(ok), details={"m": str(width), "T": str(steps), "eta_power_m": int(eta_power_m),
                                             "eta_power_T": int(eta_power_t)})


PLUGIN.step_certificate("merad.theorem1_lemma7_hypothesis", theorem1_lemma7_hypothesis)
PLUGIN.step_certificate("merad.theorem1_lemma7_bound", theorem1_lemma7_bound)
PLUGIN.step_certificate("merad.theorem1_sum_bound", theorem1_sum_bound)
PLUGIN.step_certificate("merad.theorem1_lemma6_price", theorem1_lemma6_price)
