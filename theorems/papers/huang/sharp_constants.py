"""Sharp constants of Huang et al.'s trace bound (1) and Theorem 4, with both sides checked (issue 15, item 6).

* (1), last step: ||sum_k p_k mu_k mu_k^T - I_d||^2 >= c p_k p_l (mu_k^T mu_l)^2 + d - K holds with c = 2, not
  only the printed c = 1: the dropped (l, k) term equals the (k, l) term. Upper side: sympy proves the
  identity (1) for symbolic d and K and z3 the sum-of-squares step (:func:`trace_bound_sharp`); lower side:
  K = 2 with every other term zero attains c = 2 exactly (:func:`trace_witnesses`).
* Theorem 4: mu_k^T mu_l <= sqrt(c/(p_k p_l) (L_2 + tau - (d - K)/2)) holds with c = 1, not only the printed
  c = 2 (:func:`theorem4_sharp_upper`: the same chain with the sharp trace bound; the sqrt 2 is lost in (1), not
  in (sqrt L_2 + sqrt tau)^2 <= 2 (L_2 + tau), which is tight at L_2 = tau). c = 1 is attained by matrices
  C = (I + M)/2 of the chain (:func:`theorem4_chain_witness`), but such a C is not the cross-correlation of an
  encoder (that needs C - M = sum_k p_k Cov_k >= 0). Encoders reach c = 3/4 exactly
  (:func:`theorem4_encoder_witness`); that 3/4 is their supremum is an estimate (a seeded search,
  :func:`theorem4_search`), not certified.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import sympy
from sympy import IndexedBase, KroneckerDelta, Sum, sqrt, symbols

from numerics.backend import FLOAT
from numerics.certificate import Certificate
from numerics.seeds import run_seed
from numerics.smt import prove_polynomial
from theorems import RunContext, above, holds
from theorems.papers.huang import augmented as ag
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
    ratio found. Evidence for the estimate 3/4, not a proof. ``seed`` is the audit seed (its run's seed comes
    from the one seed rule, stream SEARCH_STREAM)."""
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
    """Both sharp constants with their certificates and evaluated witnesses (what the pages show); ``seed`` is
    the audit seed of the encoder search."""
    trace = trace_witnesses()
    return {
        "trace_bound": {"printed": 1, "sharp": 2, "upper_certificate": trace_bound_sharp().ok,
                        "factor_2.1_certified": trace_bound_sharp(sympy.Rational(21, 10)).ok,
                        "witnesses": [(r.label, r.ratio) for r in trace]},
        "theorem4": {"printed": 2, "certified_upper": 1, "upper_certificate": theorem4_sharp_upper().ok,
                     "c_0.9_certified": theorem4_sharp_upper(sympy.Rational(9, 10)).ok,
                     "chain_witness": theorem4_chain_witness().ratio,
                     "encoder_witness": theorem4_encoder_witness().ratio,
                     "encoder_search": theorem4_search(seed).ratio},
    }


def write_artifact(ctx: RunContext) -> str:
    """The report section: both sharp constants, their certificates and the evaluated witnesses."""
    s = summary(ctx.seed)
    tb, t4 = s["trace_bound"], s["theorem4"]
    lines = ["#### Sharp constants (Huang (1) and Theorem 4)", "",
             f"- (1): printed factor {tb['printed']}, sharp factor {tb['sharp']}; upper certificate "
             f"{'ok' if tb['upper_certificate'] else 'FAILED'} (factor 2.1: "
             f"{'certified (wrong!)' if tb['factor_2.1_certified'] else 'not certified'}); witnesses "
             + ", ".join(f"{lab}: {r:.6g}" for lab, r in tb["witnesses"]),
             f"- Theorem 4: printed constant {t4['printed']}, certified constant {t4['certified_upper']} "
             f"({'ok' if t4['upper_certificate'] else 'FAILED'}; c = 0.9: "
             f"{'certified (wrong!)' if t4['c_0.9_certified'] else 'not certified'}); chain witness "
             f"{t4['chain_witness']:.6g}; encoder witness {t4['encoder_witness']:.6g}; search (audit seed {ctx.seed}) "
             f"{t4['encoder_search']:.6g}"]
    return "\n".join(lines)


PLUGIN.step_certificate("huang.trace_identity_all_sizes", trace_identity_all_sizes)
PLUGIN.step_certificate("huang.trace_bound_sharp", trace_bound_sharp)
PLUGIN.step_certificate("huang.trace_bound_printed", lambda: trace_bound_sharp(sympy.Integer(1)))
PLUGIN.step_certificate("huang.theorem4_sharp_upper", theorem4_sharp_upper)
