"""Merad et al.'s coupon-collector Chebyshev bound (Section 3.1, after Lemma 2), proved in Coq for every N_C >= 1
and every beta > 0 (``coq/merad_chebyshev.v``):

    P(|T - N_C H_{N_C}| >= beta N_C) <= pi^2 / (6 beta^2),

T the number of uniform draws needed to see all N_C coupons. The script proves, with no unproved step:

(a) ``harm2_le_pi2_6``: H^(2)_N = sum_{k<=N} 1/k^2 <= PI^2/6 for every N (Coq's PI), from the exact identity
    H^(2)_N = PI^2/6 - 2 B_N/A_N, A_m = int_0^{PI/2} cos^{2m}, B_m = int_0^{PI/2} x^2 cos^{2m} (two integrations
    by parts, written as explicit antiderivatives), and B_N >= 0 < A_N;
(b) ``conv_moments`` (Bienaymé: the law of a sum of independent variables on the naturals is the convolution of
    their laws -- a Cauchy product of series -- and its mean and variance are the sums) and ``chebyshev``
    (P(|X - E X| >= r) <= Var X / r^2 for a pmf with a finite second moment; the event's probability is a
    convergent series);
(c) ``coupon_law_moments`` / ``coupon_chebyshev``: T's law is the convolution of its N geometric stages
    (stage i succeeds with p_i = (N - i + 1)/N, the law theorems.papers.merad.coupon builds P_dev from), E T = N H_N,
    Var T = N^2 H^(2)_N - N H_N <= N^2 PI^2/6, so P(|T - N H_N| >= beta N) <= PI^2/(6 beta^2).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from numerics import coq
from numerics.certificate import Certificate
from numerics.interval import to_fraction

PACKAGE = "theorems.papers.merad"
SCRIPT = "merad_chebyshev"
THEOREMS = ("harm2_le_pi2_6", "conv_moments", "chebyshev", "coupon_law_moments", "coupon_chebyshev_variance",
            "coupon_chebyshev", "coupon_variance_le")
# merad.coupon.variance's reading "an upper bound on the variance" (claims.py)
VARIANCE_BOUND = "Var(T) <= (N_C pi)^2/6"
# the claim's one statement part (theorems/papers/merad/claims.py, merad.coupon.chebyshev)
PART = "P(|T - N_C H_N_C| >= beta N_C) <= pi^2/(6 beta^2)"

# the statements a test moves 1 % to the wrong side (each occurs once in the script)
BASEL = "forall N, harm 2 N <= PI ^ 2 / 6."
BOUND = "     <= PI ^ 2 / (6 * beta ^ 2)."

STATEMENT = ("For every integer N_C >= 1 and real beta > 0: the series sum_t P(T = t) [|t - N_C H_{N_C}| >= beta N_C] "
             "converges and is <= PI^2/(6 beta^2) (Coq's PI), where P(T = .) is the law of T = T_1 + ... + T_{N_C}, "
             "the independent geometric stages (P(T_i = t) = p_i (1-p_i)^(t-1), t >= 1, p_i = (N_C - i + 1)/N_C): "
             "the convolution of the stage laws -- the law the checker's P_dev is computed from. Proved in Coq "
             "(Coquelicot series and integrals): Chebyshev's inequality for a pmf on the naturals with a finite "
             "second moment; Bienaymé for a convolution (means and variances add up, Cauchy products), so "
             "E T = N_C H_{N_C} and Var T = N_C^2 H^(2)_{N_C} - N_C H_{N_C}; and H^(2)_N <= PI^2/6 for every N "
             "(H^(2)_N = PI^2/6 - 2 B_N/A_N with A_m = int_0^{PI/2} cos^{2m} x dx, "
             "B_m = int_0^{PI/2} x^2 cos^{2m} x dx >= 0, Daners' integrals)")
DOMAIN = "every integer N_C >= 1 and every real beta > 0 (Coq)"

# The model the coupon-collector certificates rest on (issue 39 item 4): the script *defines* T's law as the
# convolution of N_C independent geometric stages; that the waiting time of i.i.d. uniform draws has this law
# (the stage lengths are independent and geometric: the memoryless/strong Markov step) is not proved in it.
# Every certificate that covers a statement about T is therefore "proved (modulo: this model)".
COUPON_STAGES = ("the law of T (i.i.d. uniform draws until all N_C coupons are seen) is the convolution of N_C "
                 "independent geometric stages with p_i = (N_C - i + 1)/N_C")


def _coq_factor(factor: Any) -> str:
    """``factor * `` as Coq text (empty for 1)."""
    q = to_fraction(factor)
    return "" if q == 1 else f"{coq.coq_number(q)} * "


def chebyshev_script(*, basel_factor: Any = 1, bound_factor: Any = 1) -> str:
    """The script; ``basel_factor`` multiplies PI^2/6 in (a), ``bound_factor`` the final pi^2/(6 beta^2) (test hooks:
    a factor < 1 makes the statement stronger, and coqc must reject the unchanged proof)."""
    text = coq.packaged_script(PACKAGE, SCRIPT)
    if to_fraction(basel_factor) != 1:
        text = coq.restated(text, BASEL, f"forall N, harm 2 N <= {_coq_factor(basel_factor)}(PI ^ 2 / 6).")
    if to_fraction(bound_factor) != 1:
        text = coq.restated(text, BOUND, f"     <= {_coq_factor(bound_factor)}(PI ^ 2 / (6 * beta ^ 2)).")
    return text


def _name(basel_factor: Any, bound_factor: Any) -> str:
    """The script's file name; a changed constant gets its own name (and cache entry)."""
    tags = [f"{label}{str(to_fraction(f)).replace('/', '_')}" for label, f in (("basel", basel_factor),
                                                                              ("bound", bound_factor))
            if to_fraction(f) != 1]
    return "_".join([SCRIPT, *tags])


def check(script: str, name: str = SCRIPT, timeout: float = 180.0) -> Certificate:
    """Check a (possibly restated) chebyshev script with coqc: every theorem, allowed axioms only."""
    cert = coq.check_script(name, script, THEOREMS, STATEMENT, DOMAIN, complete=True, timeout=timeout,
                            coq_statements=coq.theorem_statements(script, THEOREMS))
    # T's law is the script's definition (the convolution of the stages), not derived from the draws
    return replace(cert, modulo=(COUPON_STAGES,))


def coupon_chebyshev_coq(basel_factor: Any = 1, bound_factor: Any = 1, timeout: float = 180.0) -> Certificate:
    """P(|T - N_C H_{N_C}| >= beta N_C) <= pi^2/(6 beta^2) for every N_C >= 1 and beta > 0 (Coq, no named result
    left unproved: Chebyshev, Bienaymé and sum 1/k^2 <= pi^2/6 are proved in the script)."""
    return check(chebyshev_script(basel_factor=basel_factor, bound_factor=bound_factor),
                 _name(basel_factor, bound_factor), timeout)


def coupon_variance_bound_coq(timeout: float = 180.0) -> Certificate:
    """Var(T) <= (N_C pi)^2/6 for every N_C (the reading of merad.coupon.variance that the Chebyshev step uses;
    the printed equality is false and this certificate covers only the reading's part)."""
    cert = check(chebyshev_script(), SCRIPT, timeout)
    return replace(cert, statement="Var(T) = N_C^2 H^(2)_{N_C} - N_C H_{N_C} <= (N_C PI)^2/6 for every N_C >= 1, T's law "
                                   "the convolution of its independent geometric stages (coupon_variance_le, from "
                                   "coupon_law_moments and H^(2)_N <= PI^2/6 in the same script)",
                   domain="every integer N_C >= 1 (Coq)", parts=(VARIANCE_BOUND,))


def chebyshev_coq(timeout: float = 180.0) -> Certificate:
    """The named result: Chebyshev's inequality for a pmf on the naturals with a finite second moment."""
    cert = check(chebyshev_script(), SCRIPT, timeout)
    return replace(cert, statement="P(|X - E X| >= r) <= Var X / r^2 for every r > 0 and every distribution on the naturals "
                                   "with a finite second moment (chebyshev; the event's probability is a convergent series)",
                   domain="every pmf on the naturals with finite moments, every r > 0 (Coq)", parts=(),
                   modulo=())  # Chebyshev itself is about any pmf: no coupon model
