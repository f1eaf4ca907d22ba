"""numerics.reach (certified lower bounds on an infimum) and numerics.data_adversary (admissible data sets)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from numerics.certificate import Certificate
from numerics.data_adversary import (DataSpec, candidates, listed_points_distinct_and_separated,
                                     point_set_separated, propose)
from numerics.interval import interval_eval
from numerics.reach import certified_infimum, infimum, table_infimum, unreachable

w, x, y, z = sp.symbols("w x y z", real=True)
B = sp.Symbol("B", positive=True)
LOGISTIC = sp.log(1 + sp.exp(-w * x * y))


def _ball(e: sp.Expr):
    return interval_eval(e, {})


# ----------------------------------------------------------------------------- (i) one point, |w| <= B

def test_logistic_exact_infimum_is_a_function_of_B() -> None:
    bound = infimum(LOGISTIC, {w: (-B, B)}, {x: 1, y: 1, B: 2})
    assert bound.exact is not None and sp.simplify(bound.exact - sp.log(1 + sp.exp(-B))) == 0
    assert bound.attained is True and "monotone" in bound.method
    assert bound.proof is not None and bound.proof.ok  # the interval cross-check at B = 2
    cert = bound.certificate()
    assert isinstance(cert, Certificate) and cert.ok and cert.complete


@pytest.mark.parametrize("b", [1, 2, 5])
def test_logistic_certified_lower_bound_is_below_and_tight(b: int) -> None:
    bound = certified_infimum(LOGISTIC, {w: (-B, B)}, {x: 1, y: 1, B: b})
    truth = _ball(sp.log(1 + sp.exp(-sp.Integer(b))))
    assert isinstance(bound.lower, Fraction) and bound.exact is None
    assert bound.lower <= truth.lo and truth.hi - bound.lower < Fraction(1, 10 ** 6)
    assert bound.upper is not None and bound.upper >= truth.hi
    cert = bound.certificate()
    assert cert.ok and cert.complete
    half = sp.log(1 + sp.exp(-sp.Integer(b))) / 2
    assert unreachable(bound, half) and not unreachable(bound, 2 * half)
    assert unreachable(infimum(LOGISTIC, {w: (-B, B)}, {x: 1, y: 1, B: b}, verify=False), half)


def test_unbounded_infimum_by_critical_point_and_limits() -> None:
    bound = infimum((sp.log(1 + sp.exp(-z)) + sp.log(1 + sp.exp(z))) / 2, {z: (-sp.oo, sp.oo)})
    assert bound.exact == sp.log(2) and bound.attained is True
    assert bound.certificate().ok and bound.certificate().complete
    truncated = certified_infimum(sp.log(1 + sp.exp(-z)), {z: (-sp.oo, sp.oo)}, truncate=40)
    assert not truncated.complete and not truncated.certificate().complete  # covers [-40, 40] only
    assert -Fraction(1, 10 ** 8) < truncated.lower <= truncated.upper < Fraction(1, 10 ** 17)


# ----------------------------------------------------------------------------- (ii) the table model

def test_table_model_one_point_with_both_labels_costs_log_2() -> None:
    bound = table_infimum([(0.5, 1), (0.5, -1)])
    assert bound.exact == sp.log(2) and bound.lower == sp.log(2) and bound.attained is True
    assert unreachable(bound, Fraction(1, 2)) and bound.certificate().ok


def test_table_model_two_points_reach_zero_without_attaining_it() -> None:
    bound = table_infimum([(0.5, 1), (1.5, -1)])
    assert bound.exact == 0 and bound.attained is False and len(bound.parts) == 2
    assert not unreachable(bound, 0) and unreachable(bound, -Fraction(1, 10 ** 9))


# ----------------------------------------------------------------------------- (iii) the data adversary

def _both_labels_on_one_point(data) -> bool:
    return len(data) == 2 and data[0][0] == data[1][0] and {lab for _, lab in data} == {-1, 1}


def test_adversary_admits_a_repeated_point_under_the_set_reading_only() -> None:
    spec = DataSpec(dim=1, labels=(-1, 1), delta=1)
    set_reading = [point_set_separated(1)]
    list_reading = [listed_points_distinct_and_separated(1)]
    admitted = propose(spec, set_reading, seed=0)
    assert any(_both_labels_on_one_point(p.data) for p in admitted)
    assert not any(_both_labels_on_one_point(p.data) for p in propose(spec, list_reading, seed=0))
    refused = [p for p in candidates(spec, list_reading, seed=0) if _both_labels_on_one_point(p.data)]
    assert refused and refused[0].failed == (list_reading[0].name,)
    for hyps in (set_reading, list_reading):
        for p in propose(spec, hyps, seed=0):
            assert all(h.holds(p.data) for h in hyps) and {h.name for h in hyps} <= set(p.passed)
    pair = next(p for p in admitted if _both_labels_on_one_point(p.data))
    assert table_infimum(pair.data).exact == sp.log(2)  # every table predictor pays log 2 on it


def test_adversary_is_deterministic_and_keeps_minimal_separation() -> None:
    spec = DataSpec(dim=3, labels=(0, 1, 2), delta=0.1, min_size=2, max_size=10)
    hyps = [point_set_separated(0.1)]
    first, again = propose(spec, hyps, seed=7), propose(spec, hyps, seed=7)
    assert [p.data for p in first] == [p.data for p in again]
    assert {"min-separation", "delta-chain", "duplicate-every-label", "extreme-separation"} <= {p.kind for p in first}
    assert all(spec.min_size <= len(p.data) <= spec.max_size for p in first)


# ----------------------------------------------------------------------------- (iv) several variables

def test_multivariable_interval_bound_is_certified_below_the_minimum() -> None:
    q = x ** 2 + y ** 2 - x * y
    bound = infimum(q, {x: (-1, 2), y: (sp.Rational(1, 3), 2)})  # minimum 1/12 at (1/6, 1/3)
    assert bound.exact is None and isinstance(bound.lower, Fraction)
    assert bound.lower <= Fraction(1, 12) and Fraction(1, 12) - bound.lower < Fraction(1, 10 ** 6)
    cert = bound.certificate()
    assert cert.ok and cert.complete and "branch-and-bound" in cert.method
