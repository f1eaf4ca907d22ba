"""Coq proofs of Merad et al.'s Lemma 1 (7), Lemma 2 (8) and Proposition 1 (2) on their printed domains.

The script ``coq/merad_lemma12.v`` formalizes Section 3's setting for every number
of classes N_C, every rho, every dimension d and every encoder: "any encoder f" acts on the losses only through
the embedded points, so class c is a finite distribution ``D c = [(w, f(x)); ...]`` of points of R^d (weights
>= 0 summing to 1, any number of points) and every expectation of (3)-(6) is an exact finite weighted sum:

* mu_c = E_{D_c} f(x) (4); L_sup(f, T) = inf_W of the cross-entropy (3) (``Lsup ... m``: m is that
  infimum); L^mu_sup(f, T) = the objective (3) at W = W^mu (5), with D_T(c) = rho(c)/rho(T);
* L^N_un(f) (6) = E over c ~ rho, x, x+ ~ D_c and N negatives drawn i.i.d. from D_neg = sum_c rho(c) D_c
  (c- = c allowed) of -log(e^{f(x)^T f(x+)} / (e^{f(x)^T f(x+)} + sum_i e^{f(x)^T f(x-_i)})); L_un = L^1_un;
* p^rho_cc(N) = P_{I ~ rho^N}(every class occurs in I); tau+_N = sum_c rho(c) rho(c)^N; L^mu_sup,k (10) the
  uniform average over the (k+1)-subsets of C (enumerated once each).

Jensen's inequality is proved in the script (the tangent plane of the convex phi(t) = log(1 + sum_i e^{t_i}) at
the conditional mean, from 1 + u <= e^u), so no certificate here is "modulo" anything. The test hooks
(``log_factor``, ``pcc_factor``, ``k_factor``) change one constant of the statement only: Coq must then reject
the unchanged proof.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy

from numerics import coq
from numerics.certificate import Certificate
from numerics.interval import to_fraction

PACKAGE = "theorems.papers.merad"
# one script proves all three (and the remark after (5)): every certificate names all its theorems, so that one
# coqc run (and one cache entry) serves them
LEMMA12_THEOREMS = ("jensen_lower", "lemma1_left", "lemma1_right", "lemma2_product", "lemma2_right", "pcc_pos",
                    "lemma2", "first_index", "pair_count", "Lsup_mu_k_bound", "prop1_left", "prop1_right")
PROP1_THEOREMS = LEMMA12_THEOREMS

SETTING = ("every N_C >= 1, every rho on the N_C classes with rho(c) > 0 summing to 1, every d >= 0, every "
           "encoder: each class a finite distribution of embedded points f(x) in R^d (weights >= 0 summing to "
           "1, any number of points), so every expectation of (3)-(6) is an exact finite sum")


def _q(v: Any) -> str:
    return coq.coq_number(to_fraction(v))


def _name(base: str, tag: str, factor: Any) -> str:
    """The script's file name; a changed constant (a test of a false statement) gets its own name."""
    f = to_fraction(factor)
    return base if f == 1 else f"{base}_{tag}{f.numerator}_{f.denominator}"


def lemma12_script(*, log_factor: Any = 1, pcc_factor: Any = 1) -> str:
    """``coq/merad_lemma12.v``; ``log_factor`` multiplies log N_C in (7), ``pcc_factor`` multiplies p_cc(N) in the
    denominators of (8) (test hooks: a factor on the wrong side makes Coq reject the unchanged proof)."""
    text = coq.packaged_script(PACKAGE, "merad_lemma12")
    if to_fraction(log_factor) != 1:
        text = coq.restated(text, "/ pmin + ln (INR NC).\n", f"/ pmin + {_q(log_factor)} * ln (INR NC).\n")
    if to_fraction(pcc_factor) != 1:
        text = coq.restated(text, "<= LunN d NC rho D N / pcc NC rho N.\n",
                            f"<= LunN d NC rho D N / ({_q(pcc_factor)} * pcc NC rho N).\n", count=2)
    return text


def prop1_script(*, k_factor: Any = 1) -> str:
    """``coq/merad_lemma12.v``; ``k_factor`` multiplies the constant k/(1 - tau+_N) of Proposition 1 (2)."""
    text = coq.packaged_script(PACKAGE, "merad_lemma12")
    if to_fraction(k_factor) != 1:
        text = coq.restated(text, "<= INR k / (1 - tau NC rho N) *", f"<= INR k * {_q(k_factor)} / (1 - tau NC rho N) *")
    return text


def _check(name: str, script: str, theorems: tuple[str, ...], every: tuple[str, ...], statement: str, domain: str,
           timeout: float) -> Certificate:
    return coq.check_script(name, script, theorems, statement, domain, complete=True, timeout=timeout,
                            coq_statements=coq.theorem_statements(script, theorems), check_theorems=every)


def lemma1_coq(log_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """Lemma 1 (7): L_sup(f, C) <= L^mu_sup(f, C) <= L_un(f)/p_min + log N_C, on the whole printed domain (Coq)."""
    f = to_fraction(log_factor)
    log_term = "log N_C" if f == 1 else f"{f} log N_C"
    return _check(_name("merad_lemma12", "log", f), lemma12_script(log_factor=f),
                  ("jensen_lower", "lemma1_left", "lemma1_right"), LEMMA12_THEOREMS,
                  "Lemma 1 (7): L_sup(f, C) <= L^mu_sup(f, C) (lemma1_left: the infimum over W of (3) is at most its "
                  "value at W = W^mu, which is (5)) and L^mu_sup(f, C) <= L_un(f)/p + " + log_term + " for every "
                  "p with 0 < p <= rho(c) for all c, in particular p = p^rho_min (lemma1_right). Proof: Jensen "
                  "given (c, x, c-) by the tangent line of the convex zeta at the mean (jensen_lower, proved), "
                  "then sum_c- rho(c-) zeta(a_c-) >= p sum_c- zeta(a_c-) >= p (LSE(a) - log N_C) (zeta >= 0, "
                  "zeta(t) >= t) and -log softmax_c(W^mu f(x)) = LSE(a) (Coq)",
                  SETTING + " (Coq, by induction on the lists)", timeout)


def lemma2_coq(pcc_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """Lemma 2 (8): L_sup(f, C) <= L^mu_sup(f, C) <= L^N_un(f)/p^rho_cc(N), every N >= N_C (Coq)."""
    f = to_fraction(pcc_factor)
    denominator = "p^rho_cc(N)" if f == 1 else f"({f} p^rho_cc(N))"
    return _check(_name("merad_lemma12", "pcc", f), lemma12_script(pcc_factor=f),
                  ("jensen_lower", "lemma1_left", "lemma2_product", "lemma2_right", "pcc_pos", "lemma2"),
                  LEMMA12_THEOREMS,
                  "Lemma 2 (8): L_sup(f, C) <= L^mu_sup(f, C) (lemma1_left) and L^mu_sup(f, C) <= L^N_un(f)/"
                  + denominator + " for every N with p^rho_cc(N) > 0 (lemma2_right), which is every N >= N_C "
                  "(pcc_pos; lemma2); p^rho_cc(N) L^mu_sup(f, C) <= L^N_un(f) for every N (lemma2_product). "
                  "N = Omega(N_C log N_C) is not needed: every N it admits with p_cc(N) > 0 is covered. Proof: "
                  "Jensen given (c, x, I) by the tangent plane of log(1 + sum_i e^{t_i}) (jensen_lower, proved), "
                  "then LSE(a_1..a_N_C) <= log(1 + sum_i e^{a_I_i}) when I covers C, >= 0 otherwise (Coq)",
                  SETTING + "; every number of negatives N (Coq, by induction on the lists and on N)", timeout)


def prop1_part2_coq(k_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """Proposition 1 (2): L_sup,k <= L^mu_sup,k <= k/(1 - tau+_N) (L^N_un - tau+_N log(N+1)) (Coq)."""
    f = to_fraction(k_factor)
    const = "k" if f == 1 else f"{f} k"
    return _check(_name("merad_lemma12", "k", f), prop1_script(k_factor=f), ("prop1_left", "prop1_right"),
                  PROP1_THEOREMS,
                  "Proposition 1 (2): L_sup,k(f) <= L^mu_sup,k(f) (prop1_left: task by task, the infimum of (3) is "
                  "at most its value at W^mu) and L^mu_sup,k(f) <= " + const + "/(1 - tau+_N) (L^N_un(f) - "
                  "tau+_N log(N + 1)) (prop1_right), tau+_N = sum_c rho(c)^(N+1). Proof: Jensen (jensen_lower, "
                  "proved); by induction on N, E_I log(L + sum_i e^{a_I_i}) >= q^N log(L + N) + (1 - q^N)/(N_C - 1) "
                  "sum_{j != c} zeta(a_j) (first_index: the split 'all c_i = c' / the first i with c_i != c, "
                  "q = 1/N_C); LSE over a task <= sum of zeta over its other classes; every ordered pair of "
                  "distinct classes lies in C(N_C - 2, k - 1) of the (k+1)-subsets (pair_count) and "
                  "C(N_C, k+1)(k+1)k = N_C(N_C - 1)C(N_C - 2, k - 1) (Coq)",
                  "rho uniform on every N_C >= 2 classes, every k with 2 <= k + 1 <= N_C, every N >= 1, every "
                  "d >= 0, every encoder (each class a finite distribution of embedded points: exact finite sums; "
                  "Coq, by induction)", timeout)


#: the factors of the mutant tests (a constant moved 1 % to the wrong side)
MUTANTS = {"lemma1": Fraction(99, 100), "lemma2": Fraction(101, 100), "prop1": Fraction(99, 100)}


def sup_le_mean_coq(timeout: float = 120.0) -> Certificate:
    """The remark after (5): L_sup(f, T) <= L^mu_sup(f, T) for every task T (lemma1_left, Coq)."""
    return _check("merad_lemma12", lemma12_script(), ("lemma1_left",), LEMMA12_THEOREMS,
                  "L_sup(f, T) <= L^mu_sup(f, T) for every task T, every non-empty subset of C: L_sup(f, T) is the "
                  "infimum over W of the objective J(W) of (3) restricted to T, L^mu_sup(f, T) = J(W^mu) with the mean "
                  "classifier W^mu of (4), one of the W (lemma1_left)", SETTING + " (Coq)", timeout)


def jensen_coq(timeout: float = 120.0) -> Certificate:
    """The named result of the proofs' Jensen step, proved: phi(t) = log(1 + sum_i e^{t_i}) (zeta for one negative,
    LSE(0, .) for N) lies above its tangent plane, so E phi(T) >= phi(E T) on every finite distribution."""
    return _check("merad_lemma12", lemma12_script(), ("jensen_lower",), LEMMA12_THEOREMS,
                  "Jensen's inequality for phi(t) = log(1 + sum_i exp(t_i)) on finite distributions, in the form the proofs "
                  "of Lemmas 1 and 2 use it: L^N_un(f) >= E_{c, x, c-_1..c-_N} phi(a_{c-_1}, ..., a_{c-_N}) (the tangent "
                  "plane of phi at the mean lies below phi: phi_tangent, from 1 + u <= e^u)", SETTING + " (Coq)", timeout)


def prop1_part1_log2_coq(timeout: float = 120.0) -> Certificate:
    """Proposition 1 (1) read with log = log_2 throughout (the proof's 'use log = log_2 without loss of generality'):
    L_sup,k/ln 2 <= L^mu_sup,k/ln 2 <= k/(1 - tau+) (L_un/ln 2 - tau+). Multiplying by ln 2 > 0 this is
    prop1_left / prop1_right of the Coq script at N = 1 (tau+_1 = tau+, tau+_1 log(1 + 1) = tau+ ln 2); the
    rescaling is checked symbolically (sympy) and the inequality itself is the Coq proof of Proposition 1 (2)."""
    lun, t, k = sympy.symbols("L_un tau k", real=True)
    ln2 = sympy.log(2)
    # log_2-reading right side times ln 2 minus the natural-log side of (2) at N = 1: must vanish identically
    rescaled = sympy.simplify(ln2 * (k / (1 - t) * (lun / ln2 - t)) - k / (1 - t) * (lun - t * sympy.log(1 + 1)))
    # and each side of the left inequality scales by the same positive factor 1/ln 2
    positive = bool(sympy.ask(sympy.Q.positive(1 / ln2)))
    base = prop1_part2_coq(timeout=timeout)
    ok = bool(base.ok and rescaled == 0 and positive)
    details = dict(base.details, rescaling_residual=str(rescaled), reduction="N = 1 of prop1_left / prop1_right, "
                   "both sides divided by ln 2 > 0")
    return replace(base, ok=ok, details=details,
                   statement="Proposition 1 (1) with log = log_2 throughout in (3)-(6): L_sup,k(f)/ln 2 <= "
                             "L^mu_sup,k(f)/ln 2 <= k/(1 - tau+) (L_un(f)/ln 2 - tau+), i.e. (times ln 2 > 0, sympy) "
                             "Proposition 1 (2) at N = 1, tau+_1 = tau+ (prop1_left, prop1_right; Coq)",
                   domain="rho uniform on every N_C >= 2 classes, every k with 2 <= k + 1 <= N_C, every d >= 0, every "
                          "encoder (Coq, the N = 1 instance of the proof of Proposition 1 (2))")
