"""Merad et al., issue 38: Theorem 1's conclusion against its hypotheses (the Assumption 2 reach row, the data
adversary over triplet data sets), the uniformity of Assumption 2's constants over eps, and Lemma 2's prefix.

Every verdict asserted here is the engine's rule (theorems.engine.rules.reach, rules.experiment) applied to evidence
the test computes itself: the exact infimum log(1 + e^{-2C^2}) of one triplet's term over the Cauchy-Schwarz box, the
exact value log 2 of the triplet (a, b, b) for every encoder, 2 log 2 for the swapped pair."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from theorems.engine.reach import LEVELS, data_rows, judged_rows, premise_conclusion, reach_rows
from theorems.engine.registry import all_claims
from theorems.engine.rules.experiment import conclusion_unreachable
from theorems.engine.rules.table import Judgement
from theorems.engine.verdict import Verdict
from theorems.papers.merad import claims as mc
from theorems.papers.merad import theorem1_reach as t1

R, C_, U = Verdict.REFUTED, Verdict.CONSISTENT, Verdict.UNTESTED
C = sympy.Symbol("C", positive=True)
zeta = lambda x: sympy.log(1 + sympy.exp(x))  # noqa: E731


def _claim(cid: str, reading: str = "literal"):
    claim = {c.id: c for c in all_claims(papers=["merad"])}[cid]
    if reading == "literal":
        return claim
    return claim.under(next(r for r in claim.readings if r.name == reading))


# -- the reach row: Assumption 2 granted before eps -------------------------------------------------------

def test_the_reach_row_is_one_triplets_term_over_the_cauchy_schwarz_box() -> None:
    """zeta increasing on [-2C^2, 2C^2]: the exact infimum is zeta(-2C^2), positive for every C > 0."""
    exact = zeta(-2 * C ** 2)
    x = sympy.Symbol("x", real=True)
    assert sympy.diff(zeta(x), x).is_positive and exact.is_positive
    reach = t1.assumption2_box()
    for value in t1.RADII:
        bound = reach.infimum({"C": value})
        assert sympy.simplify(bound.exact - exact) == 0
        lo = bound.lower_end()
        assert lo is not None and float(lo) <= float(exact.subs(C, value)) <= float(lo) + 1e-12


@pytest.mark.parametrize("reading", ["literal", "constants depending on eta and C",
                                     "the 3n samples of the triples, Assumption 2 granted before eps"])
def test_assumption2_granted_before_eps_refutes_theorem1(reading: str) -> None:
    """(eta, C) universal and bound before eps: at C = 0.5 the exact infimum zeta(-1/2) = 0.474 > 0, so the engine's
    reach.unreachable refutes, and experiment.unreachable refutes the claim whatever its runs show."""
    claim = _claim("merad.theorem1", reading)
    inf_at = {v: float(zeta(-2 * sympy.nsimplify(v) ** 2)) for v in t1.RADII}
    assert all(x > 0 for x in inf_at.values())
    rows = reach_rows(claim.reach[0], claim.prefix)
    assert [r["verdict"] for r in rows] == [R] * len(t1.RADII)
    judged = conclusion_unreachable(judged_rows(rows), Judgement(C_, "the runs reached every eps"))
    assert judged is not None and judged.verdict == R and judged.rule == "experiment.unreachable"


def test_constants_of_the_run_leave_the_conclusion_reachable() -> None:
    """(eta, C) chosen after eps: no refutation; the levels reached are exactly those >= zeta(-2C^2) (computed here)."""
    claim = _claim("merad.theorem1", "the 3n samples of the triples, (eta, C) of the run")
    rows = reach_rows(claim.reach[0], claim.prefix)
    assert all(r["verdict"] != R for r in rows)
    for value, row in zip(t1.RADII, rows):
        exact = float(zeta(-2 * sympy.nsimplify(value) ** 2))
        expected = C_ if any(exact <= lv for lv in LEVELS) else U
        assert row["verdict"] == expected, (value, row["why"])
    assert rows[-1]["verdict"] == C_  # C = 3: zeta(-18) = 1.5e-8 <= 1e-6


# -- the data adversary over triplet data sets ----------------------------------------------------------

def test_a_triplet_with_positive_equal_to_negative_costs_log2_for_every_encoder() -> None:
    """(a, b, b): t = f(a)^T (f(b) - f(b)) = 0 for every f, so L^_un = log 2 (random encoders, any dimension)."""
    rng = np.random.default_rng(0)
    for d in (1, 3, 8):
        a, b = rng.normal(size=d) * 10, rng.normal(size=d) * 10
        assert math.isclose(math.log1p(math.exp(float(a @ (b - b)))), math.log(2))
    trips = t1.triplets_of(((0.0, -1), (0.0, 1)))
    assert trips == [(t1.ANCHOR, 0.0, 0.0)]
    assert t1.triplet_infimum(((0.0, -1), (0.0, 1))).exact == sympy.log(2)


def test_the_swapped_pair_costs_2log2_and_the_relaxation_bounds_random_encoders() -> None:
    """(a, b, c), (a, c, b): zeta(t) + zeta(-t) >= 2 log 2 (equality at t = 0), and the relaxation's bound is below
    L^_un of random encoders on random triplet sets built from lists."""
    x = sympy.Symbol("x", real=True)
    assert sympy.simplify(zeta(x) + zeta(-x) - x - 2 * zeta(-x)) == 0  # zeta(x) = x + zeta(-x)
    terms, box = t1.triplet_terms([(t1.ANCHOR, 1.0, 2.0), (t1.ANCHOR, 2.0, 1.0)])
    from numerics.reach import sum_infimum
    assert sympy.simplify(sum_infimum(terms, box).exact - 2 * sympy.log(2)) == 0
    rng = np.random.default_rng(1)
    for _ in range(30):
        k = int(rng.integers(2, 7))
        data = tuple((float(rng.integers(-3, 4)), int(rng.choice([-1, 1]))) for _ in range(k))
        trips = t1.triplets_of(data)
        if not trips:
            continue
        bound = float(t1.triplet_infimum(data).lower_end())
        samples = {p for tr in trips for p in tr}
        for _ in range(5):
            z = {p: rng.normal(size=4) * 3 for p in samples}
            loss = sum(np.logaddexp(0.0, z[a] @ (z[q] - z[p])) for a, p, q in trips)
            assert loss >= bound - 1e-9


def test_the_set_reading_of_assumption1_admits_a_b_b_and_the_engine_refutes() -> None:
    claim = _claim("merad.theorem1")
    rows = data_rows(claim.data_adversary[0], claim.prefix, seed=0)
    both = next(r for r in rows if r["kind"] == "duplicate-both-labels")
    assert both["admissible"] and sympy.sympify(both["exact"]) == sympy.log(2) and both["verdict"] == R
    assert all(r["verdict"] == R for r in rows if r.get("exact") and sympy.sympify(r["exact"]).is_positive)


@pytest.mark.parametrize("reading", ["the 3n samples of the triples, Assumption 2 granted before eps",
                                     "the 3n samples of the triples, (eta, C) of the run"])
def test_the_positions_reading_of_assumption1_excludes_every_repeated_sample(reading: str) -> None:
    claim = _claim("merad.theorem1", reading)
    rows = data_rows(claim.data_adversary[0], claim.prefix, seed=0)
    admitted = [r for r in rows if r["admissible"]]
    assert admitted and all(sympy.sympify(r["exact"]) == 0 for r in admitted)  # inf zeta over R: 0, not attained
    assert not any(r.get("verdict") == R for r in rows)
    assert not next(r for r in rows if r["kind"] == "duplicate-both-labels")["admissible"]


def test_only_the_run_reading_survives_every_premise_check() -> None:
    survived = []
    for reading in ["literal", "constants depending on eta and C",
                    "the 3n samples of the triples, Assumption 2 granted before eps",
                    "the 3n samples of the triples, (eta, C) of the run"]:
        rows = judged_rows(premise_conclusion(_claim("merad.theorem1", reading), 0))
        judged = conclusion_unreachable(rows, Judgement(C_, "runs"))
        if judged is None:
            survived.append(reading)
    assert survived == ["the 3n samples of the triples, (eta, C) of the run"]


# -- Assumption 2's constants uniform over eps ----------------------------------------------------------

def test_c_min_tends_to_infinity() -> None:
    """n zeta(-2 C^2) <= eps iff C^2 >= 1/2 log(1/(e^{eps/n} - 1)), which -> +oo as eps -> 0+."""
    c2 = t1.c_min_squared()
    assert sympy.limit(c2.subs(t1.n, 20), t1.eps, 0, "+") == sympy.oo
    at = sympy.sqrt(c2.subs({t1.n: 20, t1.eps: 1}))
    assert math.isclose(float(at), 1.219, abs_tol=1e-3)
    assert math.isclose(float(20 * zeta(-2 * at ** 2)), 1.0, rel_tol=1e-12)


def test_constants_uniform_over_eps_are_refuted_by_the_uniform_rule() -> None:
    """(eta, C) existential BEFORE eps: the engine refutes only because zeta(-2C^2) is positive for every C > 0."""
    claim = _claim("merad.assumption2.constants", "(eta, C) uniform over eps")
    assert zeta(-2 * C ** 2).is_positive
    rows = reach_rows(claim.reach[0], claim.prefix)
    assert rows and all(r["verdict"] == R and r["uniform"] for r in rows)
    literal = _claim("merad.assumption2.constants")
    assert not literal.reach and literal.one_sided


# -- Lemma 2: an absolute constant is bound first ---------------------------------------------------------

def test_lemma2_binds_its_absolute_constant_first() -> None:
    prefix = _claim("merad.lemma2").prefix
    assert prefix[0].name == "c_N" and prefix[0].depends_on == () and prefix[1].name == mc.SETTING.name


# -- Lemma 7: the data adversary's swapped pair -------------------------------------------------------------

def test_lemma7_swapped_pair_from_the_adversary_is_admitted_and_violates() -> None:
    """[(x, +1), (x, -1)] is the swapped pair (x, u, v), (x, v, u): L^_un = zeta(t) + zeta(-t) is stationary only at
    t = 0, where the gradient vanishes and l = log 2 > 2 eps / eta for the tightest eps = ||grad||."""
    from theorems.engine.search import admissible
    from theorems.papers.merad import lemma7_data as l7
    from theorems.papers.merad import training_sets as ts
    from numerics.backend import FLOAT
    claim = _claim("merad.lemma7")
    family = claim.subjects[0].for_seed(0)
    s = l7.subject(((0.0, 1), (0.0, -1)))
    Y, T = s.values["Y"], s.values["T"]
    assert T.tolist() == [[2, 0, 1], [2, 1, 0]]
    t = float(Y[2] @ (Y[1] - Y[0]))
    grad = float(np.linalg.norm(ts._fast_gradient(Y, T)))
    eta = float(np.min(np.linalg.norm(Y, axis=1)))
    assert abs(t) < 1e-12 and grad < 1e-12 and eta > 0.1 and math.log(2) - 1e-9 > 2 * grad / eta
    assert admissible(claim, family, s)
    q = family.quantities(s, [ts.max_loss, ts.grad_norm, ts.eta_data], FLOAT)
    assert float(q[ts.max_loss]) > 2 * float(q[ts.grad_norm]) / float(q[ts.eta_data])
    disjoint = _claim("merad.lemma7", "every sample in one triplet")
    d_subject = disjoint.data_adversary[0].subject(((0.0, 1), (0.0, -1)))
    assert not admissible(disjoint, disjoint.subjects[0].for_seed(0), d_subject)  # u, v serve two triplets
