"""Checks of single steps of Huang et al.'s printed proof ideas that the proof pages name in their tags.

``[check: cert <key>]`` steps are certified by the certificates registered here (sympy for symbolic
sizes, z3 for the scalar algebra); ``[check: named <key>]`` steps are instances of named standard
results (Cauchy--Schwarz, the triangle inequality, monotonicity) whose hypotheses are certified for the
instance. The README's "Proof chains" lists the tags.
"""

from __future__ import annotations

import sympy
from sympy import E, IndexedBase, Sum, exp, log, simplify, symbols

from numerics.certificate import Certificate
from numerics.smt import prove_polynomial
from theorems import Instance, MONOTONE, NamedResult
from theorems.papers.huang.plugin import PLUGIN
from theorems.papers.huang import certificates as hc
from theorems.papers.huang import full_proofs

CAUCHY_SCHWARZ = NamedResult(
    "the Cauchy-Schwarz inequality", "u^T v <= ||u|| ||v|| for u, v in R^d (Euclidean inner product)",
    ("u and v are real vectors of the same finite dimension", "the norms are the Euclidean ones of that inner product"),
    proof=full_proofs.cauchy_schwarz_coq)
TRIANGLE = NamedResult(
    "the triangle inequality", "||A + B|| <= ||A|| + ||B|| for the Euclidean norm of R^d and the Frobenius norm of "
    "d x d matrices", ("||.|| is a norm",), proof=full_proofs.triangle_coq)

_d = sympy.Symbol("d", integer=True, positive=True)
_i = sympy.Symbol("i", integer=True, positive=True)


# -- Lemma 2 ------------------------------------------------------------------------------------------
def lemma2_alignment_identity() -> Certificate:
    """Lemma 2, step 1: E||f(x1) - f(x2)||^2 = sum_i (2 E f_i^2 - 2 C_ii) = 2 sum_i (1 - C_ii) when E f_i^2 = 1.

    (sympy, symbolic d and |A| = a) pointwise ||u - v||^2 = sum u_i^2 + sum v_i^2 - 2 sum u_i v_i; the
    average over the a^2 ordered pairs (x1, x2) of g(x1) equals the average over A(x) of g (the x2 sum
    is a constant factor a), the same for g(x2); E f_i(x1) f_i(x2) = C_ii by definition; then E f_i^2 = 1."""
    u, v, m, C = IndexedBase("u"), IndexedBase("v"), IndexedBase("m"), IndexedBase("C")
    pointwise = simplify(sympy.expand(Sum(sympy.expand((u[_i] - v[_i]) ** 2), (_i, 1, _d))
                                      - (Sum(u[_i] ** 2, (_i, 1, _d)) + Sum(v[_i] ** 2, (_i, 1, _d))
                                         - 2 * Sum(u[_i] * v[_i], (_i, 1, _d)))))
    a = sympy.Symbol("a", integer=True, positive=True)
    j, l = symbols("j l", integer=True, positive=True)
    g = sympy.Function("g")
    marginal = simplify(Sum(Sum(g(j) / a ** 2, (l, 1, a)), (j, 1, a)).doit() - Sum(g(j), (j, 1, a)) / a)
    after = Sum(2 * m[_i] - 2 * C[_i], (_i, 1, _d))
    normalized = simplify(after.xreplace({m[_i]: 1}).doit() - 2 * Sum(1 - C[_i], (_i, 1, _d)).doit())
    ok = pointwise == 0 and marginal == 0 and normalized == 0
    return Certificate(
        method="sympy (symbolic d, |A|)",
        statement="E_x E_{x1,x2} ||f(x1) - f(x2)||^2 = sum_i (2 E f_i^2 - 2 C_ii) = 2 sum_i (1 - C_ii) when "
                  "E_x E_{x' in A(x)} f_i(x')^2 = 1 (Lemma 2's normalization)",
        domain="every d, every |A(x)|, every finite augmented setting (x1, x2 independent uniform in A(x)); for other "
               "augmentation distributions the averaging step is that x1 and x2 each have the augmentation "
               "distribution as marginal (a stated step; the pointwise expansion is proved for symbolic d)",
        ok=bool(ok), details={"pointwise_residual": str(pointwise), "marginal_residual": str(marginal),
                              "normalized_residual": str(normalized)})


def _cs_dimension() -> Certificate:
    """u = (1 - C_ii)_i and v = (1, ..., 1) are real d-vectors; ||v||^2 = sum_{i<=d} 1 = d (symbolic d)."""
    C = IndexedBase("C", real=True)
    ones = Sum(1, (_i, 1, _d)).doit()
    real = (1 - C[_i]).is_real is not False
    return Certificate(method="sympy (symbolic d)", statement="u = (1 - C_ii)_{i<=d}, v = (1, ..., 1) in R^d; "
                                                              "||v||^2 = d", domain="every d >= 1",
                       ok=bool(simplify(ones - _d) == 0 and real), details={"||v||^2": str(ones)})


def _cs_norms() -> Certificate:
    """u^T v = sum_i (1 - C_ii) and ||u||^2 = sum_i (1 - C_ii)^2 = L_1 for the Euclidean inner product."""
    C = IndexedBase("C", real=True)
    dot = Sum((1 - C[_i]) * 1, (_i, 1, _d))
    ok = simplify(dot - Sum(1 - C[_i], (_i, 1, _d))) == 0
    return Certificate(method="sympy (symbolic d)", statement="u^T v = sum_i (1 - C_ii), ||u||^2 = sum_i (1 - C_ii)^2 "
                                                              "= L_1, so u^T v <= ||u|| ||v|| reads "
                                                              "sum_i (1 - C_ii) <= sqrt(d L_1)",
                       domain="every d >= 1", ok=bool(ok))


# -- Theorem 3 (collapsed case) ------------------------------------------------------------------------
def theorem3_drop_terms() -> Certificate:
    """Theorem 3, collapsed case, step 1: every term log(e + e^{v_k^T v_l}) of L_2 is positive, so L_2 >= one term.

    (sympy) with ||v_k|| = 1, e^{v_k^T v_k} = e; log(e + e^t) - 1 = log(1 + e^{t - 1}) > 0 for every real t
    (exp-equality of the rewrite, log(1 + y) > 0 for y > 0). (stated: the model) every augmentation of a
    class-k sample embeds to v_k, so mu_k = v_k and the InfoNCE L_2 groups by classes into
    sum_{k,l} p_k p_l log(e + e^{v_k^T v_l})."""
    t = sympy.Symbol("t", real=True)
    y = sympy.Symbol("y", positive=True)
    rewrite = simplify(exp(log(E + exp(t)) - 1) - (1 + exp(t - 1))) == 0
    positive = log(1 + y).is_positive is True and exp(t - 1).is_positive is True
    return Certificate(
        method="sympy; the collapsed model stated",
        statement="L_2 = sum_{k,l} p_k p_l log(e + e^{mu_k^T mu_l}) >= p_k p_l log(e + e^{mu_k^T mu_l}) "
                  "(every term >= p p 1 > 0)",
        domain="every collapsed encoder (class k -> unit v_k), every K >= 2 and p",
        ok=bool(rewrite and positive),
        details={"stated": ["augmentations of a class-k sample embed to v_k: mu_k = v_k, f(x1)^T f(x2) = 1",
                            "x, x' independent: the sum over (x, x') groups into sum_{k,l} p_k p_l"]})


def _log_nondecreasing() -> Certificate:
    x = sympy.Symbol("x", positive=True)
    ok = sympy.diff(log(x), x).is_positive is True
    return Certificate(method="sympy", statement="g = log is increasing on (0, inf): g'(x) = 1/x > 0",
                       domain="every x > 0", ok=bool(ok))


def _exp_of_step1() -> Certificate:
    """a = e^{mu_k^T mu_l} <= b = exp(L_2/(p_k p_l)) - e: exp (increasing, exp' = exp > 0) applied to step 1
    L_2/(p_k p_l) >= log(e + e^t), and exp(log(e + e^t)) = e + e^t; b > 0 since b >= e^t."""
    t = sympy.Symbol("t", real=True)
    ok = exp(t).is_positive is True and simplify(exp(log(E + exp(t))) - E - exp(t)) == 0
    return Certificate(method="sympy", statement="L_2/(p_k p_l) >= log(e + e^t) => e^t <= exp(L_2/(p_k p_l)) - e",
                       domain="every real t = mu_k^T mu_l and L_2", ok=bool(ok))


# -- Theorem 4 ----------------------------------------------------------------------------------------
def _frobenius_is_euclidean() -> Certificate:
    """||M||_F^2 = sum_{a,b} M_ab^2 is the Euclidean norm of vec(M) (a norm: the triangle inequality holds)."""
    n = sympy.Symbol("n", integer=True, positive=True)
    a, b = symbols("a b", integer=True, positive=True)
    M = IndexedBase("M", real=True)
    frob = Sum(M[a, b] ** 2, (a, 1, n), (b, 1, n))
    vec = Sum(M[a, b] * M[a, b], (a, 1, n), (b, 1, n))
    return Certificate(method="sympy (symbolic size)", statement="||M||_F = sqrt(vec(M)^T vec(M)), the Euclidean "
                                                                 "norm on R^{d x d}", domain="every d",
                       ok=bool(simplify(frob - vec) == 0))


def theorem4_algebra() -> Certificate:
    """Theorem 4, last step (z3): X <= sqrt(L_2) + sqrt(tau), X^2 >= p_k p_l t^2 + d - K and
    (sqrt(L_2) + sqrt(tau))^2 <= 2 (L_2 + tau) give p_k p_l t^2 <= 2 (L_2 + tau - (d - K)/2), i.e. the
    printed bound t <= sqrt(2/(p_k p_l) (L_2 + tau - (d - K)/2)) (the root is of a non-negative number;
    t <= |t|). X = ||sum p mu mu^T - I||, a = sqrt(L_2), b = sqrt(tau)."""
    X, a, b, q, t, D = symbols("X a b q t D", real=True)  # D = d - K, q = p_k p_l
    return prove_polynomial(
        [X >= 0, a >= 0, b >= 0, q > 0, X <= a + b, X ** 2 >= q * t ** 2 + D],
        q * t ** 2 <= 2 * (a ** 2 + b ** 2 - D / 2), [X, a, b, q, t, D],
        statement="||sum p mu mu^T - I|| <= sqrt(L_2) + sqrt(tau) and (1) => p_k p_l (mu_k^T mu_l)^2 <= "
                  "2 (L_2 + tau - (d - K)/2) (via (sqrt L_2 + sqrt tau)^2 <= 2 (L_2 + tau))",
        domain="every real L_2, tau >= 0, p_k p_l > 0, d, K")


def theorem3_vacuity_general() -> Certificate:
    return hc.theorem3_never_binds()


PLUGIN.step_certificate("huang.lemma2_alignment_identity", lemma2_alignment_identity)
PLUGIN.named_step("huang.lemma2_cauchy_schwarz", Instance(CAUCHY_SCHWARZ, {
    "u and v are real vectors of the same finite dimension": _cs_dimension,
    "the norms are the Euclidean ones of that inner product": _cs_norms}))
PLUGIN.step_certificate("huang.theorem3_drop_terms", theorem3_drop_terms)
PLUGIN.named_step("huang.theorem3_solve", Instance(MONOTONE, {
    "g is non-decreasing": _log_nondecreasing, "a <= b": _exp_of_step1}))
PLUGIN.step_certificate("huang.theorem3_never_binds", theorem3_vacuity_general)
PLUGIN.step_certificate("huang.theorem3_collapsed_never_binds", hc.theorem3_collapsed_never_binds)
PLUGIN.named_step("huang.theorem4_triangle", Instance(TRIANGLE, {"||.|| is a norm": _frobenius_is_euclidean}))
PLUGIN.step_certificate("huang.theorem4_algebra", theorem4_algebra)
PLUGIN.step_certificate("huang.theorem1_algebra", hc.theorem1_algebra)

# the claims' own certificates, named by the proof pages as checks of the steps they prove (a step checked only
# by its own claim's verdict would be circular, issue 27 item 7)
PLUGIN.step_certificate("huang.infonce_pointwise", hc.infonce_decomposition)
PLUGIN.step_certificate("huang.crosscorr_split", full_proofs.crosscorr_coq)
PLUGIN.step_certificate("huang.nn_scores", hc.nn_scores)
PLUGIN.step_certificate("huang.simple_contrastive_expansion", full_proofs.simple_contrastive_coq)
