"""Merad et al.'s elementary facts as stand-alone provable statements (Coq, z3 and interval boxes).

Each fact keeps its strongest certificate and at most one independent cross-check (claims.py lists them):

**Coq** (:mod:`numerics.coq`, the scripts ``coq/*.v`` beside this module): the log-sum-exp facts of the
proofs of Lemmas 1 and 2 for *every* n (by induction on lists), the scalar facts of Lemmas 3, 6 and 7
(x/(1-x) <= 2x on [0, 1/2], 0 <= log(1+t) <= t on [0, 1] and the softplus bounds for every real x,
||diag(v) - v v^T|| = 2 v1 v2 <= 1/2 on the simplex), the coupon collector's mean and variance for every
number of classes (geometric stages, Coquelicot series), tau+_N for uniform rho, the k-subset counts of
Proposition 3.3 and the sharp constant of Lemma 7's scalar step. Each proof is its own (no numeric step);
the functions ``*_coq`` check them with coqc.

**z3** (the cross-check of the log-sum-exp facts): they become polynomial statements with
``y_i = exp(x_i)``: exp is a bijection R -> (0, inf) and log is increasing, so e.g.
``LSE(x) <= x_k + log n`` is equivalent to ``sum_j y_j <= n y_k`` for all y in (0, inf)^n; z3 proves them
for each n <= n_max.

**Intervals** (the cross-check of the scalar facts of Lemmas 3 and 7): proved on boxes by the arb
branch-and-bound of :mod:`numerics.interval`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy as sp
import z3

from numerics import coq
from numerics.certificate import Certificate
from numerics.interval import prove_nonnegative, to_fraction
from numerics.smt import max_of, prove_for_each_n, reals
from theorems.papers.merad import chebyshev_proof

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


# -- Coq certificates: proofs of their own, checked by coqc (numerics.coq) ------------------------
#
# The scripts are the .v files of coq/ beside this module (package data), each proving a group of facts
# from Coq's standard library (Reals) and, for the geometric stages of the coupon collector and the
# derivatives of Lemma 3's sharp constant, Coquelicot. A changed constant (``log_n_factor``, ``slope``,
# ``ratio_factor``, ``curvature_bound``, ``mean_factor``: test hooks) changes only the statement: the
# proof is the same text, and Coq rejects it when the statement is false.

LSE_THEOREMS = ("lse_max_bounds", "lse_nonneg", "lse_restriction", "lse_pairs_identity", "lse_pairs_bound",
                "lse_pairwise")
SCALAR_THEOREMS = ("neg_log1m_le_ratio", "ratio_le_twice", "log1p_le", "log1p_nonneg", "softplus_bounds_pos",
                   "softplus_bounds_neg", "softmax2_norm", "softmax2_curvature")
COUNT_THEOREMS = ("tau_plus_uniform",)
REARRANGE_THEOREMS = ("choose_length", "choose_sizes", "subsets_containing", "subsets_total")
SHARP_THEOREMS = ("neg_log1m_sharp", "neg_log1m_sharp_attained", "neg_log1m_no_smaller")


def script(name: str) -> str:
    """The text of the Coq script ``coq/<name>.v`` shipped with this module."""
    return coq.packaged_script(__package__, name)


def _coq_q(v: Any) -> str:
    """An exact number as Coq text (``1``, ``(1 / 2)``)."""
    return coq.coq_number(to_fraction(v))


def _scaled(term: str, factor: Any) -> str:
    q = to_fraction(factor)
    return term if q == 1 else f"{term} * {_coq_q(q)}"


def _prefix(factor: Any) -> str:
    q = to_fraction(factor)
    return "" if q == 1 else f"{_coq_q(q)} * "


def lse_script(log_n_factor: Any = 1) -> str:
    """The log-sum-exp script; ``log_n_factor`` multiplies log n in the upper bounds (a factor < 1 makes
    the statement false, and Coq must reject the unchanged proof)."""
    text = script("merad_lse")
    if to_fraction(log_n_factor) == 1:
        return text
    for term, count in (("ln (INR (length (x :: l)))", 1), ("ln (INR (length (p :: ps)))", 2)):
        text = coq.restated(text, f"+ {term}.\n", f"+ {_scaled(term, log_n_factor)}.\n", count)
    return text


def scalar_script(*, slope: Any = 1, ratio_factor: Any = 2, curvature_bound: Any = "1/2") -> str:
    """The scalar-facts script; ``slope`` (log(1+t) <= slope t), ``ratio_factor`` (x/(1-x) <= factor x)
    and ``curvature_bound`` (2 v1 v2 <= bound) change only the statements."""
    text = script("merad_scalar")
    if to_fraction(slope) != 1:
        for end in ("ln (1 + t) <= t.", "zeta x - x <= exp (- x).", "zeta x <= exp x."):
            head, tail = end.rsplit("<= ", 1)
            text = coq.restated(text, end, f"{head}<= {_prefix(slope)}{tail}")
    if to_fraction(ratio_factor) != 2:
        text = coq.restated(text, "x / (1 - x) <= 2 * x.", f"x / (1 - x) <= {_coq_q(ratio_factor)} * x.")
    if to_fraction(curvature_bound) != to_fraction("1/2"):
        bound = _coq_q(curvature_bound)
        text = coq.restated(text, "2 * v1 * v2 <= (1 / 2) /\\", f"2 * v1 * v2 <= {bound} /\\")
        text = coq.restated(text, "<= ((1 / 2)) ^ 2 *", f"<= ({bound}) ^ 2 *")
    return text


def count_script() -> str:
    """The tau+ script (coq/merad_counting.v)."""
    return script("merad_counting")


def _coq(name: str, script: str, theorems: tuple[str, ...], statement: str, domain: str, *,
         complete: bool = True, timeout: float = 120.0, **extra: Any) -> Certificate:
    every = next(group for group in (LSE_THEOREMS, SCALAR_THEOREMS, COUNT_THEOREMS, REARRANGE_THEOREMS, SHARP_THEOREMS)
                 if theorems[0] in group)
    return coq.check_script(name, script, theorems, statement, domain, complete=complete, timeout=timeout,
                            coq_statements=coq.theorem_statements(script, theorems), details=extra or None,
                            check_theorems=every)


def _script_name(base: str, *params: Any) -> str:
    """A script's file name; a changed constant (a test of a false statement) gets its own name."""
    changed = [str(p).replace("/", "_").replace("-", "m").replace(".", "p") for p in params if p is not None]
    return base if not changed else base + "_" + "_".join(changed)


def lse_max_bounds_coq(log_n_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for every n >= 1 and x in R^n (Coq, induction on lists)."""
    f = to_fraction(log_n_factor)
    rhs = "log n" if f == 1 else f"{f} * log n"
    return _coq(_script_name("merad_lse", None if f == 1 else f), lse_script(f), ("lse_max_bounds",),
                f"For every n >= 1 and x in R^n: max_i x_i <= LSE(x) <= max_i x_i + {rhs}, "
                "LSE(x) = log(sum_i exp(x_i)) (Coq: x is a list, by induction on it)",
                "every n >= 1 and every x in R^n (Coq, by induction)", timeout=timeout)


def lse_nonneg_coq(timeout: float = 120.0) -> Certificate:
    """LSE(x) >= 0 whenever some x_i >= 0, for every n (Coq)."""
    return _coq("merad_lse", lse_script(), ("lse_nonneg",),
                "For every n >= 1 and x in R^n with x_i >= 0 for some i: LSE(x) >= 0 (Coq)",
                "every n >= 1 and every x in R^n with some x_i >= 0 (Coq, by induction)", timeout=timeout)


def lse_restriction_coq(timeout: float = 120.0) -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S, for every n (Coq: x_S is a subsequence of x)."""
    return _coq("merad_lse", lse_script(), ("lse_restriction",),
                "For every n >= 1, x in R^n and non-empty S subset {1..n}: LSE(x_S) <= LSE(x), x_S the "
                "entries of x at the indices in S (Coq: a subsequence of the list x)",
                "every n >= 1, every x in R^n and every non-empty S (Coq, by induction)", timeout=timeout)


def lse_pairwise_coq(log_n_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """LSE(x) = LSE(LSE pairs) and LSE(LSE pairs) <= max_j LSE(pair j) + log n for x in R^{2n}, every n."""
    f = to_fraction(log_n_factor)
    rhs = "log n" if f == 1 else f"{f} * log n"
    return _coq(_script_name("merad_lse", None if f == 1 else f), lse_script(f),
                ("lse_pairs_identity", "lse_pairs_bound", "lse_pairwise"),
                f"For every n >= 1 and x in R^(2n): LSE(x) = LSE(LSE(x1,x2), ..., LSE(x_(2n-1),x_(2n))) and "
                f"LSE(x) <= max_j LSE(x_(2j-1), x_(2j)) + {rhs} (Coq: x as the list of its n pairs)",
                "every n >= 1 and every x in R^(2n) (Coq, by induction)", timeout=timeout)


def softmax2_curvature_coq(bound: Any = "1/2", timeout: float = 120.0) -> Certificate:
    """||diag(v) - v v^T||_2 = 2 v1 v2 <= 1/2 on the simplex of R^2 (Coq, from the operator norm)."""
    b = to_fraction(bound)
    return _coq(_script_name("merad_scalar", None if b == Fraction(1, 2) else f"curv{b}"),
                scalar_script(curvature_bound=b), ("softmax2_norm", "softmax2_curvature"),
                f"||diag(v) - v v^T||_2 = 2 v1 v2 <= {b} for every v in the simplex of R^2 (Coq: ||M u||^2 <= "
                "(2 v1 v2)^2 ||u||^2 for every u in R^2 with equality at u = (1, -1), and 2 v1 v2 <= "
                f"{b}; M written entry by entry)",
                "every v1, v2 >= 0 with v1 + v2 = 1 and every u in R^2 (Coq)", timeout=timeout)


def ratio_le_twice_coq(factor: Any = 2, timeout: float = 120.0) -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2] (Coq: x(1-2x) >= 0 by nra)."""
    f = to_fraction(factor)
    return _coq(_script_name("merad_scalar", None if f == 2 else f"ratio{f}"), scalar_script(ratio_factor=f),
                ("ratio_le_twice",),
                f"x/(1-x) <= {f}x for every x in [0, 1/2] (Coq: multiply by 1 - x > 0, then nonlinear "
                "arithmetic)", "every real x in [0, 1/2] (Coq)", timeout=timeout)


def softplus_bounds_coq(slope: Any = 1, timeout: float = 120.0) -> Certificate:
    """0 <= log(1+t) <= t on [0, 1], hence 0 <= zeta(x) - x <= e^-x (x >= 0) and 0 <= zeta(x) <= e^x
    (x <= 0) for every real x, through t = e^-|x| (Coq)."""
    s = to_fraction(slope)
    t_rhs = "t" if s == 1 else f"{s} t"
    e_rhs = ("e^-x", "e^x") if s == 1 else (f"{s} e^-x", f"{s} e^x")
    return _coq(_script_name("merad_scalar", None if s == 1 else f"slope{s}"), scalar_script(slope=s),
                ("log1p_le", "log1p_nonneg", "softplus_bounds_pos", "softplus_bounds_neg"),
                f"0 <= log(1+t) <= {t_rhs} for t in [0, 1]; with t = e^-x (x >= 0): 0 <= zeta(x) - x <= "
                f"{e_rhs[0]}, with t = e^x (x <= 0): 0 <= zeta(x) <= {e_rhs[1]}, zeta(x) = log(1 + e^x) (Coq)",
                "every real x (x >= 0 and x <= 0 respectively; Coq)", timeout=timeout)


def coupon_mean_coq(mean_factor: Any = 1, timeout: float = 180.0) -> Certificate:
    """E[T] = n H_n for every n, from T's law (coupon_law_moments of merad_chebyshev.v); ``mean_factor``
    multiplies n H_n (a test hook: Coq must then reject the unchanged proof)."""
    f = to_fraction(mean_factor)
    text = chebyshev_proof.chebyshev_script()
    if f != 1:
        text = coq.restated(text, "  moments (coupon_law n) (INR n * harm 1 n) m2\n",
                            f"  moments (coupon_law n) ({_coq_q(f)} * (INR n * harm 1 n)) m2\n")
    cert = chebyshev_proof.check(text, _script_name("merad_chebyshev", None if f == 1 else f"mean{f}"), timeout)
    return replace(cert, statement="E[T] = N_C H_{N_C} for every N_C: T's law is the convolution of its independent "
                                   "geometric stages (P(T_i = t) = p_i (1-p_i)^(t-1), p_i = (N_C - i + 1)/N_C), and "
                                   "its mean is the sum of theirs (coupon_law_moments: Coquelicot series, Cauchy "
                                   "products; Coq)", domain="every integer N_C >= 1 (Coq)")


def tau_plus_uniform_coq(timeout: float = 120.0) -> Certificate:
    """sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) for every N_C >= 1 and N >= 0 (Coq)."""
    return _coq("merad_counting", count_script(), ("tau_plus_uniform",),
                "sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) (Coq)",
                "every integer N_C >= 1 and N >= 0 (Coq, by induction on N_C)", timeout=timeout)


def rearrangement_coq(timeout: float = 120.0) -> Certificate:
    """The k-subset counts of the proof of Proposition 3.3 for every N_C and k (Coq, induction on lists): the
    k-subsets of a list of m distinct classes (order-preserving sublists of length k) number C(m, k), each class
    lies in exactly C(m-1, k-1) of them, and sum_S sum_{i in S} v_i = C(m-1, k-1) sum_i v_i."""
    return _coq("merad_rearrangement", script("merad_rearrangement"), REARRANGE_THEOREMS,
                "For every m = N_C - 1 >= 1 and 1 <= k <= m, with the k-subsets of C minus {c} enumerated as the "
                "order-preserving sublists of length k of a list of m distinct classes: there are C(m, k) of them, "
                "every class lies in exactly C(m-1, k-1) = C(N_C-2, k-1) of them, and sum_S sum_{i in S} v_i = "
                "C(m-1, k-1) sum_i v_i for every v (Coq, by induction on the list)",
                "every integer N_C >= 2, 1 <= k <= N_C - 1, every v (Coq, by induction)", timeout=timeout)


def lemma7_sharp_constant_coq(timeout: float = 120.0) -> Certificate:
    """The sharp constant of Lemma 7's scalar step: -log(1-x) <= 2 ln 2 x on [0, 1/2] (upper certificate) and no
    c < 2 ln 2 works (lower certificate: equality at x = 1/2), both in Coq."""
    return _coq("merad_lemma7_sharp", script("merad_lemma7_sharp"), SHARP_THEOREMS,
                "Sharp constant of the scalar step of Lemma 7: -log(1-x) <= 2 ln 2 x for every x in [0, 1/2] (upper "
                "certificate), with equality at x = 1/2, so no c < 2 ln 2 satisfies -log(1-x) <= c x on [0, 1/2] "
                "(lower certificate); the proof's chain -log(1-x) <= x/(1-x) <= 2x uses c = 2 (Coq)",
                "every real x in [0, 1/2]; every real c < 2 ln 2 (Coq)", timeout=timeout)
