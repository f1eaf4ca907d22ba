"""Merad et al.'s coupon-collector Chebyshev bound proved in Coq for every N_C >= 1 and beta > 0
(theorems/papers/merad/coq/merad_chebyshev.v): the true script is accepted, each constant moved 1 % to the wrong
side is rejected by coqc, the script's law of T is the distribution the checker computes P_dev from, and the
claim is proved."""

from __future__ import annotations

from fractions import Fraction

import pytest
from coq_support import needs_coq, shared_coq_cache

from numerics import coq
from theorems.papers.merad import coupon
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.merad import chebyshev_proof as cp

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


# the generic steps' constants, moved 1 % to the wrong side (each statement becomes false)
MUTANTS = {
    "bienayme": ("moments (conv a b) (m1 + n1) (m2 + 2 * (m1 * n1) + n2).",
                 "moments (conv a b) (m1 + n1) (m2 + 202 / 100 * (m1 * n1) + n2)."),
    "chebyshev": ("Series (dev_event a m1 r) <= (m2 - m1 ^ 2) / r ^ 2.",
                  "Series (dev_event a m1 r) <= 99 / 100 * ((m2 - m1 ^ 2) / r ^ 2)."),
    "variance": ("     <= (INR N ^ 2 * harm 2 N - INR N * harm 1 N) / (beta * INR N) ^ 2.",
                 "     <= 99 / 100 * ((INR N ^ 2 * harm 2 N - INR N * harm 1 N) / (beta * INR N) ^ 2)."),
}


@needs_coq
def test_the_bound_is_proved_for_every_n_and_beta():
    cert = cp.coupon_chebyshev_coq()
    # the law of T as a convolution of independent geometric stages is the model the script states, not proved from
    # the draws: the certificate rests on it (issue 39)
    assert cert.ok and cert.complete and cert.modulo == (cp.COUPON_STAGES,) and cert.parts is None, \
        cert.details.get("reason")
    assert set(cert.details["theorems"]) == set(cp.THEOREMS)
    assert cert.details["coq_statements"]["coupon_chebyshev"].endswith("<= PI ^ 2 / (6 * beta ^ 2)")


@needs_coq
@pytest.mark.parametrize("factors", [{"basel_factor": Fraction(99, 100)}, {"bound_factor": Fraction(99, 100)}])
def test_pi_squared_over_six_times_0_99_is_rejected(factors):
    """(a) sum_{k<=N} 1/k^2 <= 0.99 pi^2/6 (false for large N) and the final bound times 0.99: coqc rejects both."""
    mutant = cp.coupon_chebyshev_coq(**factors)
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"
    assert mutant.details["script_name"] != f"{cp.SCRIPT}.v"


@needs_coq
@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_generic_step_moved_one_percent_is_rejected(name: str):
    old, new = MUTANTS[name]
    mutant = cp.check(coq.restated(cp.chebyshev_script(), old, new), name=f"{cp.SCRIPT}_{name}")
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"


def _coq_law(n: int, t_max: int) -> list[Fraction]:
    """The script's coupon_law n on 0..t_max: delta0 convolved with stage_pmf (p_stage n i), i = 1..n."""
    law = [Fraction(1)] + [Fraction(0)] * t_max  # delta0 t = 0 ^ t
    for i in range(1, n + 1):
        p = Fraction(n - i + 1, n)  # p_stage n i
        stage = [Fraction(0)] + [p * (1 - p) ** (t - 1) for t in range(1, t_max + 1)]  # stage_pmf
        law = [sum(law[k] * stage[t - k] for k in range(t + 1)) for t in range(t_max + 1)]  # conv
    return law


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_the_scripts_law_of_t_is_the_checkers(n: int):
    """coupon_law is the distribution theorems.papers.merad.coupon computes P_dev from, and its event
    beta n <= |t - n H_n| gives the checker's P_dev."""
    t_max = 60
    law = _coq_law(n, t_max)
    checker = coupon.coupon_distribution(n, t_max)
    assert all(abs(float(a) - float(b)) <= 1e-12 for a, b in zip(law, checker))
    mean = n * sum(Fraction(1, k) for k in range(1, n + 1))
    for beta in (Fraction(1, 4), Fraction(1), Fraction(3, 2), Fraction(3)):
        inside = sum(law[t] for t in range(t_max + 1) if abs(t - mean) < beta * n)  # the complement, finite
        assert max(t for t in range(t_max + 1) if abs(t - mean) < beta * n) < t_max
        assert abs(float(1 - inside) - coupon.chebyshev_lhs(n, beta)) <= 1e-12


@needs_coq
def test_merad_coupon_chebyshev_is_proved_modulo_the_model_of_t():
    result = check_claim(get("merad.coupon.chebyshev"), PROFILES["quick"])
    assert result.verdict == Verdict.PROVED and result.modulo == [cp.COUPON_STAGES], result.reason


@needs_coq
def test_the_variance_bound_reading_is_proved_and_a_tighter_bound_rejected():
    """merad.coupon.variance: the printed '=' stays refuted; the reading 'Var(T) <= (N_C pi)^2/6' is proved, and the
    same proof with the bound shrunk by 1 % is rejected."""
    cert = cp.coupon_variance_bound_coq()
    assert cert.ok and cert.complete and cert.parts == (cp.VARIANCE_BOUND,)
    old = "m2 - (INR N * harm 1 N) ^ 2 <= (INR N * PI) ^ 2 / 6."
    mutant = cp.check(coq.restated(cp.chebyshev_script(), old, "m2 - (INR N * harm 1 N) ^ 2 <= 99 / 100 * ((INR N * PI) ^ 2 / 6)."),
                      "merad_chebyshev_variance_mutant")
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"
    result = check_claim(get("merad.coupon.variance"), PROFILES["quick"])
    readings = {r["name"]: r["verdict"] for r in result.readings}
    assert result.verdict == Verdict.REFUTED and readings["an upper bound on the variance"] == "proved", readings
