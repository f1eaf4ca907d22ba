"""Theorem 1's eta(eps) = O(1/eps) decided by the engine (issue 38): huang.theorem1 (finite uniform augmentation
sets, the spike family) and huang.theorem1.general (continuous augmentation distributions, the tent and Gaussian
families, the zero-mass data set). Every expected verdict is the engine's rule applied to evidence computed here
independently of the plugin's code (sympy integrals, the exact sums of augmented.py, numerics.piecewise)."""

from __future__ import annotations

import pytest
import sympy

from numerics import piecewise as pw
from theorems import get
from theorems.engine.asymptotic import measure
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.rules.asymptotic import family_valid
from theorems.engine.verdict import Verdict
from theorems.papers.huang import continuous as hc
from theorems.papers.huang import readings as rd

QUICK = PROFILES["quick"]
a_sym = sympy.Symbol("a", positive=True)
t = sympy.Symbol("t", positive=True)


def _check(cid: str, reading: str):
    return check_claim(get(cid).reading_named(reading), QUICK)


def _measurement(result, family_prefix: str) -> dict:
    return next(m for m in result.asymptotic if m["family"].startswith(family_prefix))


# -- huang.theorem1: the spike family ----------------------------------------------------------------------------

def test_spike_closed_forms_are_the_exact_sums() -> None:
    """The family's closed forms at eps = 1/4 equal the exact sums of augmented.py at every a tried, with f
    1/2-Lipschitz throughout (L fixed); the engine's ratio R_eps eps / sqrt(L_align) = a / sqrt(8 (a - 1)) -> oo."""
    family = get("huang.theorem1").parametric[0]
    from theorems.papers.huang import subjects as aq
    for a in (2, 3, 7, 40, 64):
        row = rd.spike_ratio(a, eps=0.25)
        values = family.values(sympy.Integer(a))
        assert row["R_eps"] == float(values[aq.R_eps]) == 1.0 and row["L"] <= 0.5 + 1e-12
        assert row["L_align"] == pytest.approx(float(values[aq.L_align]), rel=1e-12)
    ratio = a_sym / sympy.sqrt(8 * (a_sym - 1))
    assert sympy.limit(ratio, a_sym, sympy.oo) == sympy.oo


@pytest.mark.parametrize("reading, expected, counts", [
    ("eta uniform over the augmentation sets", Verdict.REFUTED, True),  # c(L) fixed before the sets: the family counts
    ("literal", Verdict.PROVED, False),  # c may depend on the data: the family moves data, it does not count
    ("eta uniform over f", Verdict.PROVED, False),
])
def test_theorem1_spike_family_under_each_prefix(reading: str, expected: Verdict, counts: bool) -> None:
    result = _check("huang.theorem1", reading)
    assert result.verdict == expected, result.reason
    spike = _measurement(result, "one sample, |A(x)| = a")
    assert spike["limit"] == "oo" and spike["valid"] == counts
    if counts:
        assert result.rule == "statement.asymptotic_unbounded"
        assert result.witness["kind"] == "parametric" and result.witness["index"] == "a"
        assert sympy.simplify(sympy.sympify(result.witness["ratio"], locals={"a": a_sym})
                              - a_sym / sympy.sqrt(8 * (a_sym - 1))) == 0
    else:
        assert "moves 'data'" in spike["why_invalid"]


# -- huang.theorem1.general: closed forms computed here ------------------------------------------------------------

def _tent_align_by_integration() -> sympy.Expr:
    """L_align = 2 Var f for f = max(0, 2t - |s - 1/2|), s ~ U[0, 1] (0 < t < 1/4), by sympy integrals."""
    s = sympy.Symbol("s", real=True)
    lo, hi = sympy.Rational(1, 2) - 2 * t, sympy.Rational(1, 2) + 2 * t
    left, right = 2 * t - (sympy.Rational(1, 2) - s), 2 * t - (s - sympy.Rational(1, 2))
    mean = sympy.integrate(left, (s, lo, sympy.Rational(1, 2))) + sympy.integrate(right, (s, sympy.Rational(1, 2), hi))
    second = (sympy.integrate(left ** 2, (s, lo, sympy.Rational(1, 2)))
              + sympy.integrate(right ** 2, (s, sympy.Rational(1, 2), hi)))
    return sympy.expand(2 * (second - mean ** 2))


def test_tent_closed_forms() -> None:
    values = hc.tent_values(t)
    assert sympy.simplify(values[hc.L_align] - _tent_align_by_integration()) == 0
    assert values[hc.R_eps] == 1 and values[hc.eps_s] == t  # diam f([0, 1]) = 2t > t
    assert sympy.limit(t ** 2 / _tent_align_by_integration(), t, 0, "+") == sympy.oo
    # the general-L formula of the report section agrees at L = 1
    formula, _ = rd.tent_ratio_formula()
    syms = {x.name: x for x in formula.free_symbols}
    assert sympy.simplify(formula.subs({syms["L"]: 1, syms["epsilon"]: t}) - t ** 2 / values[hc.L_align]) == 0


def test_gaussian_closed_forms() -> None:
    from sympy.stats import E, Normal
    x1, x2 = Normal("x1", 0, 1), Normal("x2", 0, 1)
    assert sympy.simplify(E((x1 - x2) ** 2)) == 2 == hc.gaussian_align()
    assert sympy.limit(t ** 2 / 2, t, sympy.oo) == sympy.oo


def test_tent_counts_only_where_f_is_bound_after_the_constant() -> None:
    claim = get("huang.theorem1.general")
    moves = hc.tent_family().moves
    assert not family_valid(claim.prefix, "c", moves)[0]  # literal: c(data, f, L)
    assert family_valid(claim.reading_named("eta uniform over f").prefix, "c", moves)[0]  # c(data, L), then f
    # the Gaussian family tends to eps -> oo: no witness for the part as eps -> 0 (any prefix)
    assert not measure(claim.asymptotic[0], hc.gaussian_family()).valid


def test_eta_uniform_over_f_is_refuted_by_the_tent() -> None:
    result = _check("huang.theorem1.general", "eta uniform over f")
    assert result.verdict == Verdict.REFUTED and result.rule == "statement.asymptotic_unbounded", result.reason
    assert result.witness["kind"] == "parametric" and result.witness["limit"] == "oo"
    ratio = sympy.sympify(result.witness["ratio"], locals={"t": t})
    assert sympy.simplify(ratio - t ** 2 / _tent_align_by_integration()) == 0


def test_global_reading_is_refuted_by_gaussian_augmentation() -> None:
    result = _check("huang.theorem1.general", "eta(eps) <= c/eps for every eps > 0")
    assert result.verdict == Verdict.REFUTED and result.rule == "statement.asymptotic_unbounded", result.reason
    assert result.witness["kind"] == "parametric"
    assert sympy.simplify(sympy.sympify(result.witness["ratio"], locals={"t": t}) - t ** 2 / 2) == 0


def test_zero_mass_part_refutes_any_distribution_and_is_outside_full_support() -> None:
    """Density 2 on [0, 1/2], f = 0 there and slope 1 after, eps = 1/4: L_align = 0 (exact) while diam f([0, 1]) =
    1/2 > 1/4, so R_eps = 1 and R_eps^2 <= eta^2 L_align fails for every finite eta. Admissible only when the
    density may miss part of A(x)."""
    density = pw.PiecewiseLinearDensity([0, sympy.Rational(1, 2)], [2, 2])
    f = pw.PiecewiseLinear([0, sympy.Rational(1, 2), 1], [0, 0, sympy.Rational(1, 2)])
    assert 2 * pw.variance(density, f) == 0 and max(f.ys) - min(f.ys) == sympy.Rational(1, 2)
    subject = hc.WITH_ZERO_MASS_PART.examples[0]
    assert not hc.FULL_SUPPORT.holds(subject)
    result = _check("huang.theorem1.general", "any distribution on A(x)")
    assert result.verdict == Verdict.REFUTED and result.rule == "statement.confirmed_violation", result.reason


def test_literal_general_is_consistent() -> None:
    """With the constant allowed to depend on f and full support, only eps moves: for a fixed f, R_eps <= 1 makes
    R_eps^2 eps^2 / L_align <= eps^2 / L_align -> 0 (a log-log slope of -2 in 1/eps once eps < diam f), and
    L_align = 0 forces f constant on A(x), R_eps = 0. The tent is reported but does not count."""
    density, f = pw.Uniform(0, 1), pw.PiecewiseLinear([0, 1], [0, 1])  # one fixed f: L_align = 1/6, diam 1
    ratios = [e ** 2 / (2 * pw.variance(density, f)) for e in (sympy.Rational(1, 10), sympy.Rational(1, 100))]
    assert ratios[1] / ratios[0] == sympy.Rational(1, 100)  # slope -2 in 1/eps: bounded as eps -> 0
    result = _check("huang.theorem1.general", "literal")
    assert result.verdict == Verdict.CONSISTENT and result.rule == "statement.informative", result.reason
    assert result.nontrivial_examples > 0  # subjects with L_align = 0 met R_eps = 0
    tent = _measurement(result, "tent")
    assert tent["limit"] == "oo" and not tent["valid"]  # reported, not counted
    # the engine's own grid over eps (once the parameter is the family's part symbol): bounded, slope -2
    searched = [m for m in result.asymptotic if m["source"] == "search"]
    assert all(m["valid"] and m["verdict"] == Verdict.CONSISTENT for m in searched)
    assert all(m["slope"] == pytest.approx(-2.0, abs=0.05) for m in searched if m["slope"] is not None)
