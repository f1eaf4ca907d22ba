"""Main theorems decided by the engine (issue 38): asymptotic parts along parametric families, continuous subjects,
reachability of a conclusion, the data adversary and joint moves -- each table row in both directions (a true
statement not refuted, a false one refuted), none taken from the shipped papers."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import sympy

from numerics import piecewise as pw
from numerics.data_adversary import DataSpec, listed_points_distinct_and_separated, point_set_separated
from numerics.reach import table_infimum
from theorems import (Assumption, Claim, DataAdversary, ExperimentClaim, ExperimentOutcome, Kind, Le, Observation,
                      Parametric, Reach, Reading, Source, at_most, big_o, exists, forall, parts, quantity)
from theorems.engine.budget import PROFILES, Budget
from theorems.engine.check import check_claim
from theorems.engine.experiment import MIN_SEEDS
from theorems.engine.verdict import Verdict
from theorems.subjects import Density, Family, Integer, PiecewiseLinearMap, Scalar, Vector
from theorems.subjects.continuous import as_backend, as_rational

SRC = Source("test", "issue 38")
QUICK = PROFILES["quick"]
C, R, U = Verdict.CONSISTENT, Verdict.REFUTED, Verdict.UNTESTED


# -- (i) Chebyshev on continuous subjects, and a constant independent of f ----------------------------------

@quantity(range=(0, 1), differentiable=False, doc="P(|f(X) - E f(X)| > eps), exact")
def cheb_P(s: Any, xp: Any) -> Any:
    return as_backend(pw.prob_deviation(s.X, s.f, pw.expectation(s.X, s.f), as_rational(s.eps)), xp)


@quantity(range=(0, None), differentiable=False, doc="Var f(X), exact")
def cheb_Var(s: Any, xp: Any) -> Any:
    return as_backend(pw.variance(s.X, s.f), xp)


P_dev, Var_f = cheb_P, cheb_Var
LIPSCHITZ_MAPS = Family("1-Lipschitz piecewise-linear maps of a uniform X on [0, 1]", dims={},
                        parts={"X": Density(uniform=True, pieces=1), "f": PiecewiseLinearMap(lipschitz=1.0),
                               "eps": Scalar(0.01, 1.0)},
                        quantities=(P_dev, Var_f), adversary=False)
eps = LIPSCHITZ_MAPS.symbol("eps")
t = sympy.Symbol("t", positive=True)


def bump(index: sympy.Symbol) -> dict[sympy.Symbol, Any]:
    """f_t = max(0, t - |x - 1/2|) (1-Lipschitz) on X ~ U[0, 1], eps = t/2: exact closed forms near t -> 0+."""
    near = (index, 0, "+")
    X, f = pw.Uniform(0, 1, near=near), pw.PiecewiseLinear.bump(sympy.Rational(1, 2), index, index, near=near)
    return {P_dev: pw.prob_deviation(X, f, pw.expectation(X, f, near=near), index / 2, near=near),
            Var_f: pw.variance(X, f, near=near), eps: index / 2}


BUMP = Parametric("shrinking bump f_t = max(0, t - |x - 1/2|), eps = t/2", ("f", "eps"), values=bump, index=t, limit=0)
C_FIRST = (exists("c", "c > 0", asymptotic="c independent of f"), forall("f", "1-Lipschitz f on [0, 1]"),
           forall("eps", "eps > 0"))


def chebyshev(bound_of: Any) -> Any:
    """'P(|f(X) - E f(X)| > eps) <= c <bound> with c independent of f': an asymptotic part with a uniform constant,
    checked along the bump, plus the continuous subjects."""
    return Claim("t.chebyshev", Kind.INEQUALITY, SRC, (), prefix=C_FIRST, parametric=(BUMP,),
                 asymptotic=(big_o(P_dev, bound_of, constant="c", label=f"P <= c {bound_of}"),))


@pytest.mark.parametrize("bound_of, expected, limit", [
    (Var_f / eps ** 2, C, "3/8"),  # Chebyshev: the ratio tends to 3/8
    (Var_f / eps, R, "oo"),  # no c independent of f: P eps / Var -> oo
])
def test_i_a_constant_independent_of_f_along_the_bump(bound_of: Any, expected: Verdict, limit: str) -> None:
    result = check_claim(chebyshev(bound_of), QUICK)
    assert result.verdict == expected, result.reason
    assert result.asymptotic[0]["limit"] == limit and result.asymptotic[0]["source"] == "closed form"
    if expected == R:
        assert result.witness["kind"] == "parametric" and result.rule == "statement.asymptotic_unbounded"


def test_i_chebyshev_holds_on_continuous_subjects() -> None:
    """'for every 1-Lipschitz f on [0, 1] and X uniform, P(|f(X) - Ef(X)| > eps) <= Var f(X) / eps^2'."""
    claim = Claim("t.chebyshev_subjects", Kind.INEQUALITY, SRC, parts(Le(P_dev, Var_f / eps ** 2)),
                  subjects=(LIPSCHITZ_MAPS,), prefix=(forall("f", ""), forall("eps", "")))
    result = check_claim(claim, QUICK)
    assert result.verdict == C and result.nontrivial_examples > 20, result.reason


def test_i_a_false_constant_on_continuous_subjects_is_refuted_exactly() -> None:
    """P <= Var/(4 eps^2) fails at X ~ U[0, 1], f(x) = x, eps = 1/4 (P = 1/2 > 1/3): exact values, then the engine."""
    f, X = pw.PiecewiseLinear([0, 1], [0, 1]), pw.Uniform(0, 1)
    exact_p = pw.prob_deviation(X, f, pw.expectation(X, f), sympy.Rational(1, 4))
    assert exact_p == sympy.Rational(1, 2) and pw.variance(X, f) / (4 * sympy.Rational(1, 16)) == sympy.Rational(1, 3)
    claim = Claim("t.chebyshev_false", Kind.INEQUALITY, SRC, parts(Le(P_dev, Var_f / (4 * eps ** 2))),
                  subjects=(LIPSCHITZ_MAPS,))
    assert check_claim(claim, QUICK).verdict == R


# -- (ii) reachability: a weight bound granted before eps -------------------------------------------------

w = sympy.Symbol("w", real=True)
B = sympy.Symbol("B", positive=True)
LOGISTIC_ON_ONE = Reach("logistic loss of w x on x = 1, y = +1", sympy.log(1 + sympy.exp(-w)), {w: (-B, B)}, "eps",
                        {"B": (0.5, 2, 8, 32)}, about="w")


@pytest.mark.parametrize("prefix, expected", [
    ((forall("B", "B > 0"), forall("eps", "eps > 0"), exists("w", "|w| <= B")), R),  # B before eps: refuted
    ((forall("eps", "eps > 0"), exists("B", "B > 0"), exists("w", "|w| <= B")), C),  # B after eps: reachable
])
def test_ii_a_bound_granted_before_eps_makes_small_eps_unreachable(prefix: tuple, expected: Verdict) -> None:
    claim = Claim("t.logistic", Kind.INEQUALITY, SRC, (), prefix=prefix, reach=(LOGISTIC_ON_ONE,))
    result = check_claim(claim, QUICK)
    assert result.verdict == expected, result.reason
    first = result.reach[0]
    assert first["exact"] == str(sympy.log(1 + sympy.exp(-B)))  # the infimum, exactly: log(1 + e^-B)
    if expected == R:
        assert result.witness["kind"] == "reach" and result.rule == "statement.unreachable"


# -- (iii) the data adversary: a point SET that is separated ---------------------------------------------

def _gd_loss(data: Any, seed: int, steps: int = 400) -> float:
    """Gradient descent on the logistic loss of a Gaussian-kernel model (bandwidth 1/4: the features of 1-separated
    points are nearly orthogonal) on the labelled list; the final training loss."""
    x = np.array([float(p) for p, _ in data])
    y = np.array([float(v) for _, v in data])
    features = np.exp(-((x[:, None] - x[None, :]) ** 2) / (2 * 0.25 ** 2))
    a = np.random.default_rng(seed).normal(0, 0.01, len(x))
    for _ in range(steps):
        margins = y * (features @ a)
        grad = features.T @ (-y / (1 + np.exp(margins))) / len(x)
        a -= 2.0 * grad
    return float(np.mean(np.logaddexp(0, -y * (features @ a))))


def _natural_runs(ctx: Any) -> ExperimentOutcome:
    """The one natural data set (five separated points, alternating labels), MIN_SEEDS runs, one level per row: a
    run that reaches the level supports the claim; one that does not cannot tell (its T may be too small)."""
    data = tuple((float(i), 1 if i % 2 else -1) for i in range(5))
    seeds = list(range(MIN_SEEDS))
    finals = [_gd_loss(data, s) for s in seeds]
    rows = [Observation({"eps": level}, tuple(at_most(v, level) if v <= level else None for v in finals), tuple(seeds))
            for level in (0.5, 0.3)]
    return ExperimentOutcome("final training loss", float(np.median(finals)), 0.0, (min(finals), max(finals)), seeds,
                             {"points": 5}, observations=rows)


def _adversary(hypothesis: Any) -> DataAdversary:
    return DataAdversary(DataSpec(dim=1, delta=1.0, min_size=1, max_size=8), (hypothesis,), infimum=table_infimum,
                         level="eps", data="data", train=_gd_loss)


def gd_claim() -> Any:
    prefix = (forall("data", "labelled lists whose point set is 1-separated"), forall("eps", "eps > 0"),
              exists("T", "a number of steps"))
    return ExperimentClaim(
        "t.gd_reaches", Kind.DYNAMICS, SRC, experiment=_natural_runs, quantifier="forall", prefix=prefix,
        one_sided="a run that does not reach eps within its steps cannot tell",
        data_adversary=(_adversary(point_set_separated(1.0)),),
        readings=(Reading("distinct points", "'the listed points are distinct' (and 1-separated)",
                          data_adversary=(_adversary(listed_points_distinct_and_separated(1.0)),)),))


def test_iii_one_point_listed_twice_with_both_labels_refutes_the_set_reading() -> None:
    result = check_claim(gd_claim(), QUICK)
    assert result.verdict == R and result.rule == "experiment.unreachable", result.reason
    refuting = [r for r in result.reach if r.get("verdict") == "refuted"]
    assert refuting and all(r["size"] >= 2 for r in refuting)
    both = next(r for r in result.reach if r["kind"] == "duplicate-both-labels")
    assert both["admissible"] and sympy.sympify(both["exact"]) == sympy.log(2) and both["trained"] >= np.log(2) - 1e-9
    distinct = result.readings[1]
    assert distinct["verdict"] != "refuted", distinct["reason"]
    assert result.reading_sensitive


# -- (iv) joint moves: a radius with the points at that radius --------------------------------------------

@quantity(range=(0, None), doc="||x||")
def joint_norm(s: Any, xp: Any) -> Any:
    return xp.sqrt(xp.sum(s.x * s.x))



norm_x = joint_norm


def radius_family(examples: tuple = (), scales: tuple = (0.1, 1.0)) -> Family:
    return Family("points in the ball of radius R", dims={"d": (2, 2)},
                  parts={"R": Integer(1, 30), "x": Vector("d", scales=scales)}, quantities=(norm_x,),
                  examples=examples)


IN_BALL = Assumption("||x|| <= R", "the point lies in the ball of radius R (exactly: the floats' binary values)",
                     lambda s: sum(Fraction(v) ** 2 for v in s.x) <= s.R ** 2)


def radius_claim(family: Family, exceeded: bool) -> Any:
    """'||x||^2 <= 4 R + 4' for ||x|| <= R: false only at radius >= 5 (R^2 > 4 R + 4 from R > 2 + 2 sqrt 2), with the
    point near the sphere; the true twin '||x||^2 <= R^2' binds on the sphere at every radius."""
    R_sym = family.symbol("R")
    rhs = 4 * R_sym + 4 if exceeded else R_sym ** 2
    return Claim("t.radius", Kind.INEQUALITY, SRC, parts(Le(norm_x ** 2, rhs)), subjects=(family,),
                 assumptions=(IN_BALL,))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("exceeded, expected", [(True, R), (False, C)])
def test_iv_a_bound_exceeded_only_at_large_radii_is_found_at_every_seed(seed: int, exceeded: bool,
                                                                        expected: Verdict) -> None:
    result = check_claim(radius_claim(radius_family(), exceeded), QUICK, seed=seed)
    assert result.verdict == expected, result.reason


ON_THE_UNIT_SPHERE = ({"dims": {"d": 2}, "values": {"R": 1, "x": [1.0, 0.0]}},)
ONLY_TIGHTNESS = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=20, quick=True,
                        tightness_starts=1, tightness_moves=30)


def test_iv_the_joint_move_is_what_finds_it() -> None:
    """From the point on the unit sphere (R = 1) with no random draw and no ascent, only the joint move (R = 5, the
    point moved to radius 5) reaches the violation; without joint moves the same search does not."""
    family = radius_family(ON_THE_UNIT_SPHERE, scales=(0.1,))
    family.strategy = lambda: None  # type: ignore[method-assign]  # the listed start only
    found = check_claim(radius_claim(family, True), ONLY_TIGHTNESS)
    assert found.verdict == R and "joint" in found.worst_violation["found_by"], found.reason
    family.joint_moves = lambda subject: ()  # type: ignore[method-assign]
    assert check_claim(radius_claim(family, True), ONLY_TIGHTNESS).verdict == C


def test_iv_a_pinned_integer_built_by_a_given_reaches_the_formulas_as_an_int() -> None:
    """A joint move pins an integer part that a ``Given`` builds (Merad's N): every backend's formula sees a Python
    int at the pinned value, so exact combinatorics (``math.comb``) works in the torch ascent too."""
    import math

    from numerics.backend import FLOAT, mp_backend, torch_backend
    from theorems.subjects import Given, Subject

    @quantity(range=(1, None), doc="C(n + 1, 2), with n from math.comb")
    def pairs_of(s: Any, xp: Any) -> Any:
        assert type(s.n) is int, type(s.n)
        return xp.asarray(float(math.comb(s.n + 1, 2)))

    family = Family("an integer built by a Given", dims={}, parts={"n": Given(lambda ctx: Integer(1, 9))},
                    quantities=(pairs_of,))
    pinned = family.pinned({"n": 7})
    for xp, params in ((FLOAT, None), (mp_backend(), None), (torch_backend(), [])):
        out = pinned.quantities(Subject({}, {"n": 7}), [pairs_of], xp, params=params)
        assert float(out[pairs_of]) == 28.0, (xp.name, out)


# -- (1) the engine's own families: the tightness search at each point of a grid of the parameter ----------

@quantity(range=(0, 1), doc="a, a free number in [0, 1]")
def grid_a(s: Any, xp: Any) -> Any:
    return xp.asarray(s.a)


@quantity(range=(0, None), doc="the parameter e itself")
def grid_e(s: Any, xp: Any) -> Any:
    return xp.asarray(s.e)


GRID_FAMILY = Family("a in [0, 1] and e in [1e-3, 1]", dims={}, parts={"a": Scalar(0.0, 1.0), "e": Scalar(1e-3, 1.0)},
                     quantities=(grid_a, grid_e))
GRID_E = GRID_FAMILY.symbol("e")


@pytest.mark.parametrize("g, verdict, slope", [
    (1 / GRID_E, C, 0.0),  # a/e = O(1/e): the best ratio at every e is 1, exponent 0
    (sympy.Integer(1), Verdict.INCONCLUSIVE, 1.0),  # a/e = O(1) as e -> 0+: the best ratio 1/e grows, exponent 1
])
def test_1_the_engine_grid_over_the_parameter(g: Any, verdict: Verdict, slope: float) -> None:
    """With no plugin family, the engine pins e at each point of its grid (toward the limit 0), climbs a/e with its
    own ascent there, and fits the best ratios against 1/e (the exponent of the growth as e -> 0+): a bounded ratio
    counts as consistent on that family, a growth alone is inconclusive (never a refutation)."""
    claim = Claim("t.grid", Kind.INEQUALITY, SRC, (), subjects=(GRID_FAMILY,),
                  prefix=(exists("c", "c > 0", asymptotic="O"), forall("a", ""), forall("e", "")),
                  asymptotic=(big_o(grid_a / GRID_E, g, parameter=GRID_E, limit=0, constant="c"),))
    result = check_claim(claim, QUICK)
    (row,) = [m for m in result.asymptotic if m["source"] == "search"]
    assert len(row["xs"]) >= 5 and row["xs"] == sorted(row["xs"], reverse=True), row
    assert row["slope"] == pytest.approx(slope, abs=0.05), row
    assert result.verdict == verdict, result.reason
