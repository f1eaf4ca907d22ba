"""Sharp constants of Huang et al.'s trace bound (1) and Theorem 4, with both sides checked (issue 15, item 6).

* (1), last step: ||sum_k p_k mu_k mu_k^T - I_d||^2 >= c p_k p_l (mu_k^T mu_l)^2 + d - K holds with c = 2, not
  only the printed c = 1: the dropped (l, k) term equals the (k, l) term. Upper side: sympy proves the
  identity (1) for symbolic d and K and z3 the sum-of-squares step (:func:`trace_bound_sharp`); lower side:
  K = 2 with every other term zero attains c = 2 exactly (:func:`trace_witnesses`).
* Theorem 4: mu_k^T mu_l <= sqrt(c/(p_k p_l) (L_2 + tau - (d - K)/2)) holds with c = 1, not only the printed
  c = 2 (:func:`theorem4_sharp_upper`: the same chain with the sharp trace bound; the sqrt 2 is lost in (1), not
  in (sqrt L_2 + sqrt tau)^2 <= 2 (L_2 + tau), which is tight at L_2 = tau). c = 1 is attained by matrices
  C = (I + M)/2 of the chain (:func:`theorem4_chain_witness`), but such a C is not the cross-correlation of an
  encoder (that needs C - M = sum_k p_k Cov_k >= 0).
* Theorem 4 over encoders: c = 3/4, certified (:func:`theorem4_encoder_sharp`, modulo three standard spectral
  results) and attained exactly by the constant encoder sqrt(3/2), d = 1, K = 2
  (:func:`theorem4_encoder_witness_exact`). The proof: C - M is PSD for every encoder (Coq, the law of total
  covariance); ||A + P||^2 + ||P||^2 = 2 ||P + A/2||^2 + ||A||^2/2 (A = M - I, P = C - M) >= sum_i h(lambda_i(M))
  (Higham's distance to the PSD cone), h(l) = (1 - l)^2/2 for l <= 1, (l - 1)^2 above; the nonzero spectra of
  U U^T and G = U^T U coincide and h(0) = 1/2, so the (d - K)/2 is exactly absorbed; |G_kl| <= (gamma_max -
  gamma_min)/2 (Rayleigh-Ritz) and h(a) + h(b) >= (a - b)^2/3 (z3) give p_k p_l t^2 = G_kl^2 <= (3/4) (L_2 + tau -
  (d - K)/2). The seeded search (:func:`theorem4_search`) stays as a cross-check.
* Theorem 1 on finite uniform augmentation sets of one size |A|: eta(eps) = sqrt(|A|)/eps, not only the checker's
  |A|/(sqrt 2 eps) (:func:`theorem1_sharp_constant`). Upper side: Coq (``coq/huang_theorem1_sharp.v``: a sample
  outside S_eps has L_align(x) = 2 Var f(A(x)) >= eps^2/|A|, then R_eps^2 <= R_eps); lower side: one sample whose two
  views are eps(1 + h) apart, every other view at their midpoint, needs R_eps^2 eps^2 / L_align = |A|/(1 + h)^2 ->
  |A| (exact sympy limit; the checker's own L_align formula evaluated exactly for |A| = 2..8).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import sympy
import z3
from sympy import IndexedBase, KroneckerDelta, Rational, Sum, sqrt, symbols

from numerics.backend import FLOAT
from numerics.certificate import Certificate
from numerics.seeds import run_seed
from numerics.smt import prove_polynomial
from theorems import NamedResult, RunContext, above, holds
from theorems.papers.huang import augmented as ag
from theorems.papers.huang import full_proofs
from theorems.papers.huang.plugin import PLUGIN
from theorems.papers.huang import certificates as hc

_d, _K = symbols("d K", integer=True, positive=True)
_a, _b, _k, _l = symbols("a b k l", integer=True, positive=True)
TRACE_SHARP = "||sum p mu mu^T - I_d||^2 >= 2 p_k p_l (mu_k^T mu_l)^2 + d - K (k != l)"
THEOREM4_SHARP = "mu_k^T mu_l <= sqrt(1/(p_k p_l) (L_2 + tau - (d - K)/2))"


def _in_range(expr: sympy.Expr, var: sympy.Symbol, bound: sympy.Symbol) -> sympy.Expr:
    """Drop the Piecewise((v, var <= bound), (0, True)) that a Kronecker-delta sum leaves inside a sum over
    var in 1..bound, where the condition holds (any other Piecewise is left alone, so the check then fails)."""
    def keep(e: sympy.Piecewise) -> sympy.Expr:
        value, cond = e.args[0]
        return value if cond in (sympy.Le(var, bound), sympy.Ge(bound, var)) else e
    return expr.replace(lambda e: isinstance(e, sympy.Piecewise), keep)


def _delta_sums(n: sympy.Symbol, i: sympy.Symbol, j: sympy.Symbol) -> bool:
    """sum_{i,j<=n} delta_ij x_ij = sum_i x_ii and sum_{i,j<=n} delta_ij = n (symbolic n)."""
    x = IndexedBase("x")
    diag = _in_range(Sum(KroneckerDelta(i, j) * x[i, j], (j, 1, n), (i, 1, n)).doit(), i, n)
    count = _in_range(Sum(KroneckerDelta(i, j), (j, 1, n), (i, 1, n)).doit(), i, n).doit()
    return sympy.simplify(diag - Sum(x[i, i], (i, 1, n))) == 0 and sympy.simplify(count - n) == 0


def trace_identity_all_sizes() -> Certificate:
    """(1) for symbolic d and K: ||U U^T - I_d||^2 - d = ||U^T U - I_K||^2 - K, and (U^T U)_kl = sqrt(p_k p_l) mu_k^T mu_l.

    (x - delta)^2 = x^2 - 2 delta x + delta for delta in {0, 1}; the Kronecker-delta sums; the quartic terms
    sum_{a,b} (sum_k U_ak U_bk)^2 and sum_{k,l} (sum_a U_ak U_al)^2 are the same 4-fold finite sum in another
    order (sympy reorder); the traces sum_a sum_k U_ak^2 likewise (the cyclicity of the trace, for all sizes)."""
    x, dl = symbols("x delta", real=True)
    U = IndexedBase("U", real=True)
    pointwise = all(sympy.expand((x - v) ** 2 - (x ** 2 - 2 * v * x + v)) == 0 for v in (0, 1))
    deltas = _delta_sums(_d, _a, _b) and _delta_sums(_K, _k, _l)
    quartic_dd = Sum(U[_a, _k] * U[_b, _k] * U[_a, _l] * U[_b, _l], (_k, 1, _K), (_l, 1, _K), (_a, 1, _d), (_b, 1, _d))
    quartic_kk = Sum(U[_a, _k] * U[_a, _l] * U[_b, _k] * U[_b, _l], (_a, 1, _d), (_b, 1, _d), (_k, 1, _K), (_l, 1, _K))
    quartic = sympy.simplify(quartic_dd.reorder((0, 2), (1, 3)) - quartic_kk) == 0
    trace = sympy.simplify(Sum(U[_a, _k] ** 2, (_k, 1, _K), (_a, 1, _d)).reorder((0, 1))
                           - Sum(U[_a, _k] ** 2, (_a, 1, _d), (_k, 1, _K))) == 0
    p, mu = IndexedBase("p", positive=True), IndexedBase("mu", real=True)
    entry = Sum(sqrt(p[_k]) * mu[_a, _k] * sqrt(p[_l]) * mu[_a, _l], (_a, 1, _d))
    entries = sympy.simplify(entry - sqrt(p[_k] * p[_l]) * Sum(mu[_a, _k] * mu[_a, _l], (_a, 1, _d))) == 0
    ok = bool(pointwise and deltas and quartic and trace and entries)
    return Certificate(
        method="sympy (symbolic d, K)",
        statement="||sum p mu mu^T - I_d||^2 = ||U^T U - I_K||^2 + d - K = sum_kl (sqrt(p_k p_l) mu_k^T mu_l - "
                  "delta_kl)^2 + d - K",
        domain="every d >= 1, K >= 1 (K > d included), every p > 0 and mu", ok=ok,
        details={"pointwise": pointwise, "delta_sums": deltas, "quartic_reorder": quartic, "trace_reorder": trace,
                 "gram_entries": entries},
        parts=(hc.TRACE_GRAM, hc.TRACE_SUM))


def _sum_of_squares_step(factor: sympy.Expr) -> Certificate:
    """z3: a double sum of squares with the (k, l) and (l, k) terms equal (G = U^T U is symmetric) is at least
    ``factor`` times the (k, l) term; the rest of the sum (diagonal and other off-diagonal terms) is >= 0."""
    total, rest, g_kl, g_lk = symbols("total rest g_kl g_lk", real=True)
    return prove_polynomial([rest >= 0, sympy.Eq(g_lk, g_kl), sympy.Eq(total, rest + g_kl ** 2 + g_lk ** 2)],
                            total >= factor * g_kl ** 2, [total, rest, g_kl, g_lk],
                            statement=f"sum_kl (G_kl - delta_kl)^2 >= {factor} G_kl^2 (k != l, G symmetric)",
                            domain="every K >= 2 and symmetric G")


def trace_bound_sharp(factor: sympy.Expr = sympy.Integer(2)) -> Certificate:
    """(1) with the factor ``factor`` on the pair term: certified for factor 2 (the sharp one) for all d, K;
    any factor > 2 fails (z3 returns a countermodel: every other term zero)."""
    identity = trace_identity_all_sizes()
    G = IndexedBase("U", real=True)
    symmetric = sympy.simplify(Sum(G[_a, _k] * G[_a, _l], (_a, 1, _d)) - Sum(G[_a, _l] * G[_a, _k], (_a, 1, _d))) == 0
    sos = _sum_of_squares_step(factor)
    ok = bool(identity.ok and symmetric and sos.ok)
    return Certificate(
        method="sympy (symbolic d, K) + z3 (negation unsat)",
        statement=f"||sum p mu mu^T - I_d||^2 >= {factor} p_k p_l (mu_k^T mu_l)^2 + d - K for every k != l",
        domain="every d >= 1, K >= 2, p > 0, mu", ok=ok,
        details={"identity": identity.ok, "gram_symmetric": symmetric, "sum_of_squares": sos.details.get("result"),
                 "counterexample": sos.details.get("counterexample")})


def theorem4_sharp_upper(c: sympy.Expr = sympy.Integer(1)) -> Certificate:
    """Theorem 4 with constant c: p_k p_l t^2 <= c (L_2 + tau - (d - K)/2), from ||M - I|| <= sqrt L_2 + sqrt tau
    (triangle inequality, tau >= ||C - M||^2), the sharp trace bound X^2 >= 2 p_k p_l t^2 + d - K and
    (sqrt L_2 + sqrt tau)^2 <= 2 (L_2 + tau) (z3 proves the whole scalar chain). Certified for c = 1; for
    c < 1 z3 finds a point of the chain where it fails (L_2 = tau, every other term zero)."""
    X, a, b, q, t, D = symbols("X a b q t D", real=True)  # X = ||M - I||, a = sqrt L_2, b = sqrt tau, D = d - K
    core = prove_polynomial([X >= 0, a >= 0, b >= 0, q > 0, X <= a + b, X ** 2 >= 2 * q * t ** 2 + D],
                            q * t ** 2 <= c * (a ** 2 + b ** 2 - D / 2), [X, a, b, q, t, D],
                            statement=f"p_k p_l t^2 <= {c} (L_2 + tau - (d - K)/2)",
                            domain="every L_2, tau >= 0, p_k p_l > 0, d, K")
    trace = trace_bound_sharp()
    return Certificate(
        method="z3 (negation unsat) + sympy (symbolic d, K)",
        statement=f"mu_k^T mu_l <= sqrt({c}/(p_k p_l) (L_2 + tau - (d - K)/2)) whenever ||C - sum p mu mu^T||^2 <= tau",
        domain="every encoder, every d, K >= 2, tau (the triangle inequality of the Frobenius norm is the named "
               "step huang.theorem4_triangle)", ok=bool(core.ok and trace.ok),
        details={"core": core.details.get("result"), "counterexample": core.details.get("counterexample"),
                 "sharp_trace_bound": trace.ok})


# -- Theorem 4 over encoders: the sharp constant 3/4 -------------------------------------------------------------
PSD_DISTANCE = NamedResult(
    "the Frobenius distance to the PSD cone (Higham 1988)",
    "for a real symmetric B with eigenvalues beta_i and every positive semi-definite P: ||P - B||_F^2 >= sum_i "
    "min(beta_i, 0)^2; and ||B||_F^2 = sum_i beta_i^2, the eigenvalues of B + c I being beta_i + c (the spectral "
    "theorem and the orthogonal invariance of ||.||_F)",
    ("B is real symmetric", "P is positive semi-definite"))
SAME_SPECTRUM = NamedResult(
    "the nonzero eigenvalues of U U^T and U^T U coincide",
    "for a real d x K matrix U, U U^T and U^T U have the same nonzero eigenvalues with the same multiplicities "
    "(the singular value decomposition)", ("U is a real matrix",))
RAYLEIGH = NamedResult(
    "the Rayleigh-Ritz bounds",
    "gamma_min(G) ||x||^2 <= x^T G x <= gamma_max(G) ||x||^2 for a real symmetric K x K matrix G and x in R^K, "
    "with equality at an eigenvector (so gamma_min(U^T U) = min_{||x|| = 1} ||U x||^2 >= 0)",
    ("G is real symmetric",))
ENCODER_MODULO = (PSD_DISTANCE.name, SAME_SPECTRUM.name, RAYLEIGH.name)


def h_penalty(x: z3.ArithRef) -> z3.ArithRef:
    """h(l) = (1 - l)^2/2 for l <= 1 and (l - 1)^2 for l > 1: one eigenvalue's share of L_2 + tau."""
    return z3.If(x <= 1, (1 - x) ** 2 / 2, (x - 1) ** 2)


def _split_identity() -> Certificate:
    """(sympy, entrywise, so for every d) C - I = A + P with A = M - I, P = C - M, and
    ||A + P||^2 + ||P||^2 = 2 ||P + A/2||^2 + ||A||^2/2."""
    c, m, dl = symbols("c m delta", real=True)
    A, P = m - dl, c - m
    decomposed = sympy.expand((c - dl) - (A + P)) == 0
    residual = sympy.expand((A + P) ** 2 + P ** 2 - 2 * (P + A / 2) ** 2 - A ** 2 / 2)
    return Certificate(
        method="sympy (entrywise)",
        statement="||C - I||^2 + ||C - M||^2 = 2 ||P + A/2||^2 + ||A||^2/2 with A = M - I, P = C - M (the identity "
                  "holds for each entry, so for the sum over the d^2 entries)",
        domain="every d and every real d x d matrices C, M", ok=bool(decomposed and residual == 0),
        details={"entry_residual": str(residual)})


def _eigen_terms() -> Certificate:
    """(z3) per eigenvalue alpha of A = M - I (lambda = 1 + alpha of M; beta = -alpha/2 of B = -A/2):
    2 min(beta, 0)^2 + alpha^2/2 = h(1 + alpha); h >= 0; h(0) = 1/2."""
    al, x = z3.Reals("alpha x")
    beta = -al / 2
    term = 2 * z3.If(beta < 0, beta * beta, 0) + al * al / 2
    goal = z3.And(term == h_penalty(1 + al), h_penalty(x) >= 0, h_penalty(z3.RealVal(0)) == z3.RealVal("1/2"))
    return prove_polynomial([], goal, [al, x], statement="2 min(-alpha/2, 0)^2 + alpha^2/2 = h(1 + alpha), h >= 0, "
                            "h(0) = 1/2", domain="every real alpha, x")


def _counting() -> Certificate:
    """(sympy) with the r common nonzero eigenvalues (h-sum S), M (d x d) has d - r zeros and G (K x K) K - r:
    (S + (d - r) h(0)) - (d - K)/2 = S + (K - r) h(0) since h(0) = 1/2 (K > d included)."""
    S, r = symbols("S r", real=True)
    h0 = Rational(1, 2)
    ok = sympy.expand(S + (_d - r) * h0 - (_d - _K) / 2 - (S + (_K - r) * h0)) == 0
    return Certificate(method="sympy", statement="sum_{i<=d} h(lambda_i(M)) - (d - K)/2 = sum_{j<=K} h(gamma_j(G))",
                       domain="every d, K and rank r <= min(d, K)", ok=bool(ok))


def _polarization() -> Certificate:
    """(sympy) x = e_k + s e_l (s = +-1, k != l): x^T G x = G_kk + 2 s G_kl + G_ll for symmetric G (only the
    {k, l} block is read), ||x||^2 = 2, so G_kl = ((e_k+e_l)^T G (e_k+e_l) - (e_k-e_l)^T G (e_k-e_l))/4; and
    G_kl = sqrt(p_k) mu_k^T sqrt(p_l) mu_l, so G_kl^2 = p_k p_l (mu_k^T mu_l)^2."""
    gkk, gkl, gll, t = symbols("G_kk G_kl G_ll t", real=True)
    pk, pl = symbols("p_k p_l", positive=True)
    G = sympy.Matrix([[gkk, gkl], [gkl, gll]])
    form = {sg: (sympy.Matrix([[1, sg]]) * G * sympy.Matrix([1, sg]))[0] for sg in (1, -1)}
    ok = (sympy.expand(form[1] - form[-1] - 4 * gkl) == 0
          and all(sympy.expand(form[sg] - (gkk + 2 * sg * gkl + gll)) == 0 for sg in (1, -1))
          and sympy.expand((sqrt(pk) * sqrt(pl) * t) ** 2 - pk * pl * t ** 2) == 0)
    return Certificate(method="sympy", statement="4 G_kl = (e_k+e_l)^T G (e_k+e_l) - (e_k-e_l)^T G (e_k-e_l), "
                       "||e_k +- e_l||^2 = 2, G_kl^2 = p_k p_l (mu_k^T mu_l)^2",
                       domain="every K >= 2, k != l, symmetric G, p > 0", ok=bool(ok))


def _scalar_chain(c: sympy.Expr) -> tuple[Certificate, Certificate]:
    """(z3) the whole scalar chain, each hypothesis one step: p_k p_l t^2 <= c (L_2 + tau - (d - K)/2); and then
    t <= s for s >= 0 with p_k p_l s^2 = c (L_2 + tau - (d - K)/2) (the square root)."""
    L2, tP, tau, HM, HG, D, R, a, b, ha, hb, qp, qm, g, pp, t, s = z3.Reals(
        "L2 tP tau HM HG D R a b ha hb qp qm g pp t s")
    cz = z3.RealVal(str(sympy.nsimplify(c)))
    Y = L2 + tau - D / 2
    hyps = [L2 >= 0, tP >= 0,
            L2 + tP >= HM,                          # split identity + Higham + per-eigenvalue terms (P = C - M PSD)
            tau >= tP,                              # tau admissible: tau >= ||C - M||^2
            HM - D / 2 == HG,                       # same nonzero spectrum, h(0) = 1/2
            HG == ha + hb + R, R >= 0,              # gamma_max, gamma_min and the other K - 2 eigenvalues (h >= 0)
            a >= b, b >= 0, ha == h_penalty(a), hb == h_penalty(b),  # gamma_min >= 0: x^T G x = ||U x||^2
            2 * b <= qp, qp <= 2 * a, 2 * b <= qm, qm <= 2 * a,   # Rayleigh-Ritz at e_k +- e_l (norm^2 2)
            4 * g == qp - qm,                       # polarization
            pp > 0, pp * t * t == g * g]            # G_kl^2 = p_k p_l t^2
    variables = [L2, tP, tau, HM, HG, D, R, a, b, ha, hb, qp, qm, g, pp, t]
    core = prove_polynomial(hyps, pp * t * t <= cz * Y, variables,
                            statement=f"p_k p_l t^2 <= {c} (L_2 + tau - (d - K)/2)",
                            domain="every real value of the chain's quantities meeting its steps")
    root = prove_polynomial([pp > 0, cz > 0, pp * t * t <= cz * Y, s >= 0, pp * s * s == cz * Y], t <= s,
                            [pp, t, s, L2, tau, D], statement=f"t <= sqrt({c}/(p_k p_l) Y) from p_k p_l t^2 <= {c} Y",
                            domain="every p_k p_l > 0, t, Y")
    return core, root


def theorem4_encoder_sharp(c: sympy.Expr = Rational(3, 4)) -> Certificate:
    """Theorem 4 over encoders with the constant c: mu_k^T mu_l <= sqrt(c/(p_k p_l) (L_2 + tau - (d - K)/2)).
    Certified for c = 3/4 (Coq: C - M PSD; sympy: the identities; z3: the scalar chain), modulo
    :data:`ENCODER_MODULO`; for c < 3/4 z3 returns a point of the chain where it fails (the constant encoder
    sqrt(3/2), d = 1, K = 2 attains 3/4: :func:`theorem4_encoder_witness_exact`)."""
    psd = full_proofs.crosscorr_psd_coq()
    steps = {"C - M is PSD (Coq)": psd, "split identity": _split_identity(), "eigenvalue terms": _eigen_terms(),
             "spectrum counting": _counting(), "polarization and Gram entry": _polarization()}
    core, root = _scalar_chain(c)
    steps.update({"scalar chain": core, "square root": root})
    ok = all(cert.ok for cert in steps.values())
    return Certificate(
        method="coq (C - M PSD) + sympy (identities, symbolic d, K) + z3 (scalar chain, negation unsat)",
        statement=f"mu_k^T mu_l <= sqrt({c}/(p_k p_l) (L_2 + tau - (d - K)/2)) for every encoder, every k != l and "
                  f"every tau >= ||C - sum_k p_k mu_k mu_k^T||^2, C = E_x E_{{x1,x2 in A(x)}} f(x1) f(x2)^T, L_2 = "
                  f"||C - I_d||^2 (equivalently p_k p_l (mu_k^T mu_l)^2 <= {c} (L_2 + tau - (d - K)/2))",
        domain="every encoder with values in R^d (its Lipschitz constant and (sigma, delta) are not used) on every "
               "finite data distribution as the checker encodes it: n samples with masses > 0, each in exactly one "
               "of K >= 2 non-empty classes (a partition, as the slides' latent classes), finite augmentation sets "
               "(any slot probabilities), x1, x2 independent given x; every d >= 1, k != l, tau >= ||C - M||^2. "
               "For non-finite distributions the PSD step is the law of total covariance (finite second moments): "
               "not certified here. Rests on three standard spectral results (modulo)",
        ok=ok, modulo=ENCODER_MODULO,
        details={"steps": {name: cert.ok for name, cert in steps.items()},
                 "named_results": {r.name: r.statement for r in (PSD_DISTANCE, SAME_SPECTRUM, RAYLEIGH)},
                 "instances": {PSD_DISTANCE.name: "B = (I - M)/2 (symmetric), P = C - M (PSD: Coq "
                                                  "crosscorr_minus_centres_psd)",
                               SAME_SPECTRUM.name: "U = [sqrt(p_k) mu_k]_k (d x K, real)",
                               RAYLEIGH.name: "G = U^T U (symmetric), x = e_k +- e_l"},
                 "core": core.details.get("result"), "counterexample": core.details.get("counterexample"),
                 "model_checked": core.details.get("model_checked"),
                 "psd_coq": {"ok": psd.ok, "assumptions": psd.details.get("assumptions")}})


# -- witnesses, evaluated with the same formulas as the claims (augmented.py) ---------------------------------
@dataclass(frozen=True)
class WitnessRow:
    label: str
    ratio: float  # the constant this subject needs (sharp means: the sup of this over subjects)
    note: str


def _setting(class_values: np.ndarray, masses: np.ndarray) -> ag.AugmentedSetting:
    """One sample per class, one augmentation, embedded at class_values[k] (a constant encoder per class)."""
    K, d = class_values.shape
    feats = class_values[:, None, :]
    inputs = np.arange(K, dtype=float)[:, None, None] * np.ones((1, 1, 1))
    return ag.AugmentedSetting.create(np.arange(K), masses, inputs, feats, K)


def _quantities(s: ag.AugmentedSetting) -> dict[str, float]:
    arr = ag.AugArrays.from_setting(s, FLOAT)
    sides = ag.barlow_trace_sides(arr)
    dots, p, pp = (np.asarray(v, dtype=float) for v in ag.pair_terms(arr))
    C, M = ag.cross_correlation(arr), ag.centre_second_moment(arr)
    return {"lhs": float(sides["lhs"]), "t": float(dots[0, 1]), "pp": float(pp[0, 1]),
            "L2": float(ag.frob_sq(arr, C - np.eye(s.d))), "tau": float(ag.frob_sq(arr, C - M)),
            "d": float(s.d), "K": float(s.n_classes)}


def trace_witnesses(shifts: tuple[float, ...] = (0.5, 0.1, 0.01, 0.0)) -> list[WitnessRow]:
    """K = d = 2, p = (1/2, 1/2), mu_1 = sqrt(2 (1 + h)) e_1, mu_2 = sqrt(2) (cos, sin)(pi/3): the diagonal terms
    (p_k ||mu_k||^2 - 1)^2 vanish at h = 0. Ratio (lhs - (d - K)) / (p_k p_l (mu_k^T mu_l)^2) -> 2 as h -> 0."""
    rows = []
    for h in shifts:
        vals = np.array([[np.sqrt(2 * (1 + h)), 0.0], [np.sqrt(2) * np.cos(np.pi / 3), np.sqrt(2) * np.sin(np.pi / 3)]])
        q = _quantities(_setting(vals, np.array([0.5, 0.5])))
        rows.append(WitnessRow(f"h = {h:g}", (q["lhs"] - (q["d"] - q["K"])) / (q["pp"] * q["t"] ** 2),
                               "K = d = 2, one sample per class"))
    return rows


def theorem4_ratio(q: dict[str, float]) -> float:
    """The constant a subject needs in Theorem 4's form: p_k p_l t^2 / (L_2 + tau - (d - K)/2) (printed: 2)."""
    return q["pp"] * q["t"] ** 2 / (q["L2"] + q["tau"] - (q["d"] - q["K"]) / 2)


def theorem4_encoder_witness() -> WitnessRow:
    """d = 1, K = 2, p = (1/2, 1/2), f = sqrt(3/2) on every input: t = 3/2, L_2 = 1/4, tau = 0, ratio 3/4."""
    q = _quantities(_setting(np.full((2, 1), np.sqrt(1.5)), np.array([0.5, 0.5])))
    return WitnessRow("constant encoder sqrt(3/2), d = 1, K = 2", theorem4_ratio(q),
                      f"t = {q['t']:.6g}, L_2 = {q['L2']:.6g}, tau = {q['tau']:.3g}")


class _ExactArrays:
    """Exact arithmetic for :class:`augmented.AugArrays` on numpy object arrays of sympy numbers: the checker's
    own formulas (sums over axes, matrix products), evaluated without rounding."""

    name = "sympy (exact)"

    def asarray(self, x: object) -> np.ndarray:
        return np.vectorize(sympy.sympify, otypes=[object])(np.asarray(x, dtype=object))

    def sum(self, x: np.ndarray, axis: int | None = None) -> object:
        return np.sum(x, axis=axis)


def exact_quantities(class_values: list[list[sympy.Expr]], masses: list[sympy.Expr]) -> dict[str, sympy.Expr]:
    """Theorem 4's quantities at the pair (0, 1) of a setting with one sample per class and one augmentation,
    f = class_values[k] on class k, evaluated exactly with the checker's formulas (augmented.py)."""
    K, d = len(class_values), len(class_values[0])
    xp = _ExactArrays()
    F = xp.asarray(np.array(class_values, dtype=object).reshape(K, 1, d))
    w = xp.asarray(np.array(masses, dtype=object))
    onehot = xp.asarray(np.eye(K, dtype=int))
    arr = ag.AugArrays(xp, F, w, onehot, np.arange(K))  # type: ignore[arg-type]
    C, M = ag.cross_correlation(arr), ag.centre_second_moment(arr)
    dots, _, pp = ag.pair_terms(arr)
    eye = xp.asarray(np.eye(d, dtype=int))
    return {"t": sympy.simplify(dots[0, 1]), "pp": sympy.simplify(pp[0, 1]),
            "L2": sympy.simplify(ag.frob_sq(arr, C - eye)), "tau": sympy.simplify(ag.frob_sq(arr, C - M)),
            "d": sympy.Integer(d), "K": sympy.Integer(K)}


def theorem4_encoder_witness_exact() -> tuple[sympy.Expr, dict[str, sympy.Expr]]:
    """The constant encoder sqrt(3/2), d = 1, K = 2, p = (1/2, 1/2), exactly: t = 3/2, L_2 = 1/4, tau = 0 and the
    constant it needs, p_k p_l t^2 / (L_2 + tau - (d - K)/2) = (9/16)/(3/4) = 3/4 -- so no c < 3/4 holds."""
    half = Rational(1, 2)
    q = exact_quantities([[sqrt(Rational(3, 2))], [sqrt(Rational(3, 2))]], [half, half])
    ratio = sympy.simplify(q["pp"] * q["t"] ** 2 / (q["L2"] + q["tau"] - (q["d"] - q["K"]) / 2))
    return ratio, q


def theorem4_chain_witness(s: float = 0.5) -> WitnessRow:
    """The chain's equality case, as matrices: K = d = 2, G = U^T U = [[1, s], [s, 1]], C = (I + M)/2 (so
    L_2 = tau = ||I - M||^2/4): ratio 1. C - M = (I - M)/2 has the eigenvalue -s/2 < 0, so no encoder has it."""
    U = np.array([[1.0, s], [0.0, np.sqrt(1 - s * s)]])  # unit columns with inner product s
    M = U @ U.T
    C = (np.eye(2) + M) / 2
    q = {"pp": 0.25, "t": s / 0.5, "L2": float(np.sum((C - np.eye(2)) ** 2)), "tau": float(np.sum((C - M) ** 2)),
         "d": 2.0, "K": 2.0}
    return WitnessRow(f"chain matrices, s = {s:g}", theorem4_ratio(q),
                      f"min eigenvalue of C - M = {float(np.linalg.eigvalsh(C - M).min()):.3g} (< 0: not an encoder)")


SEARCH_STREAM = "huang.theorem4_search"


def theorem4_search(seed: int = 0, starts: int = 40, steps: int = 200) -> WitnessRow:
    """Seeded hill climb over encoders (K = 2, d in 1..3, 2 samples per class, 2 augmentations): the largest
    ratio found -- a cross-check of the certified 3/4 (:func:`theorem4_encoder_sharp`), which it must never
    exceed. ``seed`` is the audit seed (its run's seed comes from the one seed rule, stream SEARCH_STREAM)."""
    rng = np.random.default_rng(run_seed(seed, SEARCH_STREAM))
    labels = np.array([0, 0, 1, 1])

    def ratio(F: np.ndarray, w: np.ndarray) -> float:
        s = ag.AugmentedSetting.create(labels, w / w.sum(), np.arange(8, dtype=float).reshape(4, 2, 1), F, 2)
        q = _quantities(s)
        den = q["L2"] + q["tau"] - (q["d"] - q["K"]) / 2
        # den >= p_k p_l t^2 >= 0 (the certified chain); only where the engine resolves den > 0 is the ratio a
        # measurement (near 0/0 its float value is rounding): elsewhere the point does not count (ratio 0)
        return q["pp"] * q["t"] ** 2 / den if holds(above(den, 0.0, what="L_2 + tau - (d - K)/2")) else 0.0

    best = 0.0
    for start in range(starts):
        d = 1 + start % 3
        F, w = rng.normal(size=(4, 2, d)), rng.uniform(0.5, 1.5, size=4)
        cur = ratio(F, w)
        for _ in range(steps):
            F2, w2 = F + 0.05 * rng.normal(size=F.shape), np.clip(w + 0.02 * rng.normal(size=4), 0.05, None)
            r2 = ratio(F2, w2)
            if r2 >= cur:
                F, w, cur = F2, w2, r2
        best = max(best, cur)
    return WitnessRow(f"seeded search (audit seed {seed}, {starts} starts x {steps} steps)", best,
                      "largest constant needed by an encoder found")


def summary(seed: int = 0) -> dict[str, object]:
    """The sharp constants with their certificates and evaluated witnesses (what the pages show): (1)'s factor 2,
    Theorem 4's c = 1 over every matrix C and c = 3/4 over encoders; ``seed`` is the audit seed of the encoder
    search (a cross-check of the certified 3/4: it never exceeds it)."""
    trace = trace_witnesses()
    encoders = theorem4_encoder_sharp()
    return {
        "trace_bound": {"printed": 1, "sharp": 2, "upper_certificate": trace_bound_sharp().ok,
                        "factor_2.1_certified": trace_bound_sharp(sympy.Rational(21, 10)).ok,
                        "witnesses": [(r.label, r.ratio) for r in trace]},
        "theorem4": {"printed": 2, "certified_upper": 1, "upper_certificate": theorem4_sharp_upper().ok,
                     "c_0.9_certified": theorem4_sharp_upper(sympy.Rational(9, 10)).ok,
                     "chain_witness": theorem4_chain_witness().ratio,
                     "encoders_sharp": "3/4", "encoders_certificate": encoders.ok,
                     "encoders_modulo": list(encoders.modulo),
                     "c_0.74_certified_over_encoders": theorem4_encoder_sharp(Rational(74, 100)).ok,
                     "encoder_witness": theorem4_encoder_witness().ratio,
                     "encoder_witness_exact": str(theorem4_encoder_witness_exact()[0]),
                     "encoder_search": theorem4_search(seed).ratio},
    }


def write_artifact(ctx: RunContext) -> str:
    """The report section: the sharp constants, their certificates and the evaluated witnesses."""
    s = summary(ctx.seed)
    tb, t4 = s["trace_bound"], s["theorem4"]
    lines = ["#### Sharp constants (Huang (1) and Theorem 4)", "",
             f"- (1): printed factor {tb['printed']}, sharp factor {tb['sharp']}; upper certificate "
             f"{'ok' if tb['upper_certificate'] else 'FAILED'} (factor 2.1: "
             f"{'certified (wrong!)' if tb['factor_2.1_certified'] else 'not certified'}); witnesses "
             + ", ".join(f"{lab}: {r:.6g}" for lab, r in tb["witnesses"]),
             f"- Theorem 4 over every matrix C: printed constant {t4['printed']}, sharp constant of the proof's chain "
             f"{t4['certified_upper']} ({'certified' if t4['upper_certificate'] else 'certificate FAILED'}; c = 0.9: "
             f"{'certified (wrong!)' if t4['c_0.9_certified'] else 'not certified'}); chain witness "
             f"{t4['chain_witness']:.6g} (C - M not PSD: not an encoder)",
             f"- Theorem 4 over encoders: sharp constant {t4['encoders_sharp']} "
             f"({'certified' if t4['encoders_certificate'] else 'certificate FAILED'}, modulo "
             f"{'; '.join(t4['encoders_modulo'])}; c = 0.74: "
             f"{'certified (wrong!)' if t4['c_0.74_certified_over_encoders'] else 'not certified (z3 countermodel)'}); "
             f"attained exactly by the constant encoder sqrt(3/2), d = 1, K = 2 (exact ratio "
             f"{t4['encoder_witness_exact']}); cross-check: seeded search (audit seed {ctx.seed}) "
             f"{t4['encoder_search']:.6g}"]
    return "\n".join(lines)


# -- Theorem 1: the sharp constant eta(eps) = sqrt(|A|)/eps on finite uniform augmentation sets ------------------------
A_SIZE = sympy.Symbol("A", integer=True, positive=True)  # |A|, the one size of the augmentation sets
THEOREM1_SHARP = "R_eps^2 <= |A| L_align / eps^2, i.e. eta(eps) = sqrt(|A|)/eps (finite uniform A(x), one size |A|)"
WITNESS_SIZES = tuple(range(2, 9))  # the sizes at which the closed form is checked against the checker's formula


def theorem1_witness_views(a: int, gap: object) -> list[object]:
    """The views of the witness sample on a line (d = 1): f = 0 and f = gap (the far pair), every other view at the
    midpoint gap/2."""
    return [0 * gap, gap] + [gap / 2] * (a - 2)  # type: ignore[operator]


def theorem1_witness_setting(a: int, eps: float, h: float, spacing: float = 1.0) -> ag.AugmentedSetting:
    """One sample of mass 1 with |A| = a views (:func:`theorem1_witness_views`, gap eps (1 + h)); its augmented
    inputs ``spacing`` apart, so f is (eps (1 + h)/spacing)-Lipschitz on them: any L > 0 is met by a wide spacing."""
    feats = np.array(theorem1_witness_views(a, eps * (1 + h)), dtype=float).reshape(1, a, 1)
    inputs = spacing * np.arange(a, dtype=float).reshape(1, a, 1)
    return ag.AugmentedSetting.create([0], [1.0], inputs, feats)


def theorem1_witness_align_exact(a: int, gap: sympy.Expr) -> sympy.Expr:
    """L_align of the witness sample, exactly, by the checker's own formula (augmented.align_loss: the mean of the
    a^2 ordered pairs' squared distances, mass 1) on numpy object arrays of sympy expressions."""
    xp = _ExactArrays()
    F = xp.asarray(np.array(theorem1_witness_views(a, gap), dtype=object).reshape(1, a, 1))
    arr = ag.AugArrays(xp, F, xp.asarray(np.array([1], dtype=object)), xp.asarray(np.ones((1, 1), dtype=int)),
                       np.zeros(1, dtype=int))  # type: ignore[arg-type]
    return sympy.simplify(ag.align_loss(arr))


def theorem1_witness_ratio() -> tuple[sympy.Expr, sympy.Expr, dict[str, object]]:
    """The constant the witness family needs, R_eps^2 eps^2 / L_align, for symbolic |A| = A >= 2, h > 0, eps > 0,
    and its exact limit h -> 0+. L_align by the variance identity (proved for every |A| in Coq: pair_sum_vec) --
    the mean of the views is gap/2, their squared distances to it sum to gap^2/2, so the pairs sum to |A| gap^2 and
    L_align = gap^2/|A| -- checked against the checker's align_loss for |A| in WITNESS_SIZES; R_eps = 1: the only
    sample is outside S_eps (its diameter gap = eps (1 + h) > eps; the checker's r_eps agrees at float points)."""
    eps, h = sympy.symbols("eps h", positive=True)
    gap = eps * (1 + h)
    A = A_SIZE
    mean = sympy.simplify((0 + gap + (A - 2) * gap / 2) / A)
    spread = sympy.simplify((0 - mean) ** 2 + (gap - mean) ** 2 + (A - 2) * (gap / 2 - mean) ** 2)
    align = sympy.simplify(2 * A * spread / A ** 2)  # pair sum / |A|^2 (x1, x2 uniform on the a^2 ordered pairs)
    diameter_outside = bool(sympy.simplify(gap - eps).is_positive)  # the far pair is more than eps apart
    formula = {a: sympy.simplify(theorem1_witness_align_exact(a, gap) - align.subs(A, a)) == 0 for a in WITNESS_SIZES}
    floats = {(a, e, hh): ag.r_eps(theorem1_witness_setting(a, e, hh), e) for a in (2, 5)
              for e, hh in ((0.3, 1e-3), (1.0, 1e-9))}
    R = sympy.Integer(1)  # the only sample (mass 1) is outside S_eps
    ratio = sympy.simplify(R ** 2 * eps ** 2 / align)
    limit = sympy.limit(ratio, h, 0, "+")
    checks = {"mean_is_midpoint": sympy.simplify(mean - gap / 2) == 0,
              "align_closed_form": str(align), "checker_formula_matches": formula,
              "diameter_above_eps": diameter_outside,
              "checker_r_eps_is_1": all(v == 1.0 for v in floats.values())}
    return ratio, limit, checks


def theorem1_sharp_constant(eta_sq: sympy.Expr = A_SIZE) -> Certificate:
    """Theorem 1 on finite uniform augmentation sets of one size |A| with the constant eta(eps)^2 = eta_sq/eps^2
    (eta_sq an expression in A_SIZE; sharp: |A|). Upper side: Coq proves R_eps^2 <= |A| L_align/eps^2
    (full_proofs.theorem1_sharp_coq) and sympy that eta_sq >= |A| for every |A| >= 1; lower side: the witness
    family needs |A|/(1 + h)^2 -> |A| (exact limit), and sympy that eta_sq <= |A| for every |A| >= 1. Passes only for
    a constant equal to |A| (a smaller one, e.g. 0.81 |A| or |A|^(9/10), fails the upper side -- the family beats it;
    a larger one, the lower side)."""
    start = time.perf_counter()
    coq_upper = full_proofs.theorem1_sharp_coq()
    ratio, limit, checks = theorem1_witness_ratio()
    limit_is_A = sympy.simplify(limit - A_SIZE) == 0
    at_least = sympy.simplify(eta_sq - A_SIZE).is_nonnegative is True  # valid: implied by the Coq bound
    at_most = sympy.simplify(limit - eta_sq).is_nonnegative is True  # sharp: the family needs all of it
    steps = {"R_eps^2 <= |A| L_align / eps^2 (Coq)": coq_upper.ok, "constant >= |A| (sympy)": at_least,
             "witness limit = |A| (sympy)": limit_is_A, "constant <= witness limit (sympy)": at_most,
             "mean of the views = midpoint": checks["mean_is_midpoint"],
             "closed form = the checker's align_loss": all(checks["checker_formula_matches"].values()),
             "witness outside S_eps": checks["diameter_above_eps"] and checks["checker_r_eps_is_1"]}
    return Certificate(
        method="coq (upper side) + sympy (exact witness limit, the checker's formula evaluated exactly)",
        statement=f"R_eps^2 <= ({eta_sq}) L_align / eps^2 for every subject, and no smaller constant: the family with "
                  "two views eps (1 + h) apart and every other view at their midpoint needs R_eps^2 eps^2 / L_align = "
                  f"{ratio} -> {limit} as h -> 0+ (sharp eta(eps) = sqrt(|A|)/eps)",
        domain="upper side: every n, |A| >= 1, d, every encoder (no Lipschitz hypothesis used), sample masses summing "
               "to 1, each A(x) uniform on the same number |A| of augmentations (the checker's finite settings), every "
               "eps > 0; lower side: every |A| >= 2 (symbolic), every eps > 0 and every L > 0 (the witness inputs can "
               "be spaced so that f is L-Lipschitz). At |A| = 1 no sample is outside S_eps (R_eps = 0), so every "
               "constant holds there and sqrt(|A|)/eps is valid but not needed. Sets of different sizes are not "
               "settings of the checker and are not covered",
        ok=bool(all(steps.values())), seconds=time.perf_counter() - start, parts=(), complete=True,
        details={"steps": steps, "witness_ratio": str(ratio), "witness_limit": str(limit),
                 "checker_formula_sizes": {str(k): v for k, v in checks["checker_formula_matches"].items()},
                 "align_closed_form": checks["align_closed_form"],
                 # a smaller constant is false, not only unproved: the family's limit exceeds it at |A| = 2
                 "witness_beats_constant_at_A_2": bool(sympy.simplify((limit - eta_sq).subs(A_SIZE, 2)) > 0),
                 "coq": {"ok": coq_upper.ok,
                 "assumptions": coq_upper.details.get("assumptions"), "reason": coq_upper.details.get("reason")}})


def main_close_sharp() -> Certificate:
    """Theorem 2's first step with the constant 2 of eps, sharp. Upper side: Coq (full_proofs.main_close_coq). Lower
    side: the chain of :func:`theorems.papers.huang.equality_cases.main_close_chain` with b = 0 (x and y share the
    view at angle a, delta = 0, L = 1) needs the constant chord(2a)/chord(a) = sin(a)/sin(a/2) -> 2 as a -> 0+
    (exact sympy limit)."""
    start = time.perf_counter()
    upper = full_proofs.main_close_coq()
    a = symbols("a", positive=True)
    needed = sympy.sin(a) / sympy.sin(a / 2)  # chord(2a)/chord(a), chord(t) = 2 sin(t/2)
    limit = sympy.limit(needed, a, 0, "+")
    below = sympy.simplify(needed - 2 * sympy.cos(a / 2)) == 0  # below 2 at every a > 0: approached, not attained
    steps = {"||f(x1) - f(y1)|| <= L delta + 2 eps (Coq)": upper.ok, "chain needs sin(a)/sin(a/2) -> 2 (sympy)":
             sympy.simplify(limit - 2) == 0, "sin(a)/sin(a/2) = 2 cos(a/2) (sympy)": below}
    return Certificate(
        method="coq (upper side) + sympy (exact limit of the chain)",
        statement="||f(x1) - f(y1)|| <= L delta + c eps holds for c = 2 and for no smaller c: unit-norm views at the "
                  "angles 0, a (x) and a, 2a (y; shared view, delta = 0, L = 1) need c = 2 cos(a/2) -> 2 as a -> 0+",
        domain="upper side: every encoder with a Lipschitz constant L on the augmented inputs, every delta, eps >= 0 "
               "(Coq); lower side: sphere encoders f(x') = x'/||x'|| on unit-circle inputs, every a in (0, pi)",
        ok=bool(all(steps.values())), seconds=time.perf_counter() - start, parts=(), complete=True,
        details={"steps": steps, "coq": {"ok": upper.ok, "reason": upper.details.get("reason")}})


PLUGIN.step_certificate("huang.trace_identity_all_sizes", trace_identity_all_sizes)
PLUGIN.step_certificate("huang.trace_bound_sharp", trace_bound_sharp)
PLUGIN.step_certificate("huang.trace_bound_printed", lambda: trace_bound_sharp(sympy.Integer(1)))
PLUGIN.step_certificate("huang.theorem4_sharp_upper", theorem4_sharp_upper)
PLUGIN.step_certificate("huang.theorem4_encoder_sharp", theorem4_encoder_sharp)
