"""The rows of the verdict rules: every rule of the authority (``theorems.engine.rules.RULES``) has at
least one row here, marked ``@rule(<name>)``, on the smallest claim or the smallest input on which the
rule decides.

The kept list of hand breakages, ``tests/rule_breakages.py``, breaks each rule and runs this file: every
breakage must make a row fail (``python tests/rule_breakages.py``). The subjects are fixed lists, so no row
depends on a search's luck: the rules are about what the engine does with evidence, not about finding it.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any, Iterable

import mpmath
import numpy as np
import pytest
import sympy

from numerics.certificate import Certificate, covering
from numerics.enclosure import Enclosure
from numerics.errors import PrecisionUnavailable
from theorems import (Assumption, Claim, ExperimentClaim, ExperimentOutcome, Growth, Informative, Kind, Le, Lt,
                      Observation, Part, Reading, RegimeCheck, Source, exists, forall, parts, quantity)
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.errors import ClaimError
from theorems.engine.family import SubjectFamily
from theorems.engine.rules.gate import disagree
from theorems.engine.proof import Instance, NamedResult, Proof, Step, StepStatus
from theorems.engine.proof_check import compose
from theorems.engine.experiment import MIN_SEEDS
from theorems.engine.rules.experiment import growth_verdict, map_witness, observation_verdict, read_map
from theorems.engine.measure import at_least, at_most, below, equal
from theorems.engine.rules.compare import ATOL, RTOL, decide
from theorems.engine.verdict import Verdict

SRC = Source("test", "test")
NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)
C, R, I, U, P, V = (Verdict.CONSISTENT, Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.UNTESTED, Verdict.PROVED,
                    Verdict.VACUOUS)

rule = pytest.mark.rule  # the rules of theorems.engine.rules a test pins (test_every_rule_has_a_row)

q = quantity("q_rule", range=(None, None), doc="the subject's value")
r = quantity("r_rule", range=(None, None), doc="a second value of the subject")
e = quantity("e_rule", range=(0, 1), doc="an error rate: trivially in [0, 1]")
g = quantity("g_rule", range=(None, None), doc="a value that depends on the working precision")
h = quantity("h_rule", range=(None, None), doc="a value whose float64 and mpmath values differ (h, h_mp)")
u = quantity("u_rule", range=(None, None), doc="+inf up to `inf_until` digits, then the subject's u")
m = quantity("m_rule", range=(None, None), doc="known only as the enclosure [m_lo, m_hi]")
w = quantity("w_rule", range=(None, None), doc="1 - (1 - e^-w_cancel) at the working precision: a digit loss inside")
v = quantity("v_rule", range=(None, None), doc="1 - e^-v_exp at the working precision: 1 once v_exp is large")
terms = quantity("terms_rule", range=(0, None), doc="the magnitude of the terms the residues are differences of")
res = quantity("residue_rule", range=(0, None), scale=terms, doc="terms * (the subject's res, or a rounding residue "
                                                                  "10^-(dps + 1) at dps digits)")
res_bare = quantity("residue_bare_rule", range=(0, None), doc="the same residue, no scale declared")


class Points(SubjectFamily):
    """A fixed list of subjects (dicts of floats): q, r and e are the subject's values; g shifts with the
    precision it is computed at (1 + 10 / dps in mpmath), so it never settles; h is ``h`` in float64 and
    ``h_mp`` in mpmath (a float screen to fool); u is +inf in mpmath up to ``inf_until`` digits, ``u``
    beyond, and ``u_float`` in float64; m is an enclosure (a Monte Carlo bracket)."""

    name = "fixed points"
    symbols = frozenset({q, r, e, g, h, u, m, w, v, terms, res, res_bare})

    def __init__(self, subjects: Iterable[dict[str, float]]) -> None:
        self.subjects = list(subjects)

    def exhaustive(self, quick: bool = False) -> Iterable[dict[str, float]]:
        return iter(self.subjects)

    def quantities(self, subject: dict[str, float], symbols: Iterable[sympy.Symbol], xp: Any,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        mp = xp.name == "mpmath"
        if mp and subject.get("no_hp"):
            raise PrecisionUnavailable("this subject has no high-precision value (a test's Monte Carlo estimate)")
        drift = 10.0 / xp.dps if mp else 0.0
        values = {q: subject.get("q", 0.0), r: subject.get("r", 0.0), e: subject.get("e", 0.0),
                  g: subject.get("g", 0.0) + drift,
                  h: _exact(subject.get("h_mp", subject.get("h", 0.0)), xp) if mp else subject.get("h", 0.0),
                  u: (math.inf if xp.dps <= subject.get("inf_until", 0) else _exact(subject.get("u", 0.0), xp)
                      + (drift if subject.get("u_drift") else 0.0)) if mp
                  else subject.get("u_float", subject.get("u", 0.0))}
        if mp and "w_cancel" in subject:  # computed as printed, losing about w_cancel / 2.3 digits
            values[w] = 1 - (1 - mpmath.exp(-subject["w_cancel"]))
        else:
            values[w] = 0.0
        values[v] = 1 - mpmath.exp(-subject.get("v_exp", 0)) if mp else 1.0
        values[terms] = subject.get("terms", 1.0)
        relative = (_exact(subject["res_mp"], xp) if "res_mp" in subject else mpmath.mpf(10) ** (-xp.dps - 1)) if mp \
            else subject.get("res", 1e-17)
        values[res] = values[res_bare] = values[terms] * relative
        out = {s: xp.asarray(values[s]) for s in symbols if s != m}
        if m in symbols:
            out[m] = Enclosure(subject.get("m_lo", 0.0), subject.get("m_hi", 0.0), alpha=1e-9, how="a bracket")
        return out

    def to_json(self, subject: dict[str, float]) -> dict[str, float]:
        return dict(subject)

    def from_json(self, data: dict[str, float]) -> dict[str, float]:
        return dict(data)

    def describe(self, subject: dict[str, float]) -> str:
        return str(subject)


class Drawn(Points):
    """The same subjects, drawn by the random search (a strategy), never listed."""

    def exhaustive(self, quick: bool = False) -> Iterable[dict[str, float]]:
        return iter(())

    def strategy(self) -> Any:
        from hypothesis import strategies as st

        return st.sampled_from(self.subjects)


def _exact(value: Any, xp: Any) -> Any:
    """A number given as a string ("1/3") is the exact value at the working precision; a float is itself."""
    return sympy.N(sympy.sympify(value), xp.dps) if isinstance(value, str) else value


def statement(relation: Any, subjects: list[dict[str, float]], **kw: Any) -> Verdict:
    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(relation) if not isinstance(relation, tuple) else relation,
                  subjects=(Points(subjects),), **kw)
    return check_claim(claim, NONE)


def cert(ok: bool = True, complete: bool = True, modulo: tuple[str, ...] = ()) -> Certificate:
    return Certificate(method="sympy", statement="s", domain="all n" if complete else "n <= 5", ok=ok,
                       complete=complete, modulo=modulo)


TOL_AT_1 = ATOL + RTOL * 1.0

# rule, claim builder, expected verdict
STATEMENT_RULES = [
    ("non-strict holds at the boundary", lambda: statement(Le(q, 1), [{"q": 1.0}, {"q": 0.5}]), C),
    ("strict fails at the boundary", lambda: statement(Lt(q, 1), [{"q": 1.0}, {"q": 0.5}]), R),
    ("strict: a float gap within the tolerance that stays is no counterexample",
     lambda: statement(Lt(q, 1), [{"q": 1 - TOL_AT_1 / 4}]), C),
    ("a margin inside the tolerance is not a violation", lambda: statement(Le(q, 1), [{"q": 1 + TOL_AT_1 / 4}]), C),
    ("a margin past the tolerance is a violation", lambda: statement(Le(q, 1), [{"q": 1 + 10 * TOL_AT_1}]), R),
    ("a bound above the trivial range is vacuous", lambda: statement(Le(e, 2), [{"e": 0.3}, {"e": 0.9}]), V),
    ("a bound inside the trivial range is informative", lambda: statement(Le(e, 0.95), [{"e": 0.3}, {"e": 0.9}]), C),
    ("a subject where the part cannot fail is uninformative", lambda: statement(
        (Part(Le(q, 1), "", None, Informative("q != 0", lambda s: s.get("q") != 0)),), [{"q": 0.0}]), U),
    ("a violation that never settles with the precision is not a counterexample",
     lambda: statement(Le(g, 1), [{"g": 1.0}]), C),
    ("hypotheses no subject meets leave the claim untested", lambda: statement(
        Le(q, 1), [{"q": 5.0}], assumptions=(Assumption("small", "q <= 1", lambda s: s["q"] <= 1),)), U),
    ("a certificate that the hypotheses cannot hold makes the claim vacuous", lambda: statement(
        Le(q, 1), [{"q": 5.0}], assumptions=(Assumption("small", "q <= 1", lambda s: s["q"] <= 1),),
        unsatisfiable=(lambda: cert(),)), V),
    ("under the hypotheses a violated conclusion refutes", lambda: statement(
        Le(q, 1), [{"q": 5.0}, {"q": 2.0}], assumptions=(Assumption("q >= 2", "", lambda s: s["q"] >= 2),)), R),
    ("a complete certificate proves", lambda: statement(Le(q, 1), [{"q": 0.5}], certificates=(lambda: cert(),)), P),
    ("a finite-range certificate gives at most consistent",
     lambda: statement(Le(q, 1), [{"q": 0.5}], certificates=(lambda: cert(complete=False),)), C),
    ("a vacuity certificate makes a bound vacuous", lambda: statement(
        Le(q, 1), [{"q": 0.5}], vacuity=(lambda: cert(),)), V),
]


@rule("compare.violation", "compare.strict", "compare.tolerance", "compare.same_margin", "compare.confirmation",
      "informative.declared", "informative.range", "informative.never_binds", "statement.confirmed_violation",
      "statement.never_binds", "statement.certified", "statement.informative", "statement.uninformative",
      "statement.premise_never_met", "statement.hypotheses_unsatisfiable", "statement.part_status")
@pytest.mark.parametrize("rule, build, expected", STATEMENT_RULES, ids=[r[0] for r in STATEMENT_RULES])
def test_statement_rule(rule: str, build: Any, expected: Verdict) -> None:
    result = build()
    assert result.verdict == expected, (rule, result.verdict, result.reason)


@rule("informative.declared")
def test_an_uninformative_subject_says_why_it_is_no_evidence() -> None:
    """The declared condition's ``why``: a run's snapshot whose property already held at initialization is no
    evidence, and the reason says so (not "equal by construction")."""
    from theorems.engine.rules.informative import declared_reason

    at_init = Informative("the initialization does not already satisfy it", lambda s: False,
                          why="the property already held at the run's initialization")
    equal = Informative("q != 0", lambda s: False)
    assert "already held at the run's initialization" in declared_reason(Part(Le(q, 1), "", None, at_init), {})
    assert "equal by construction" in declared_reason(Part(Le(q, 1), "", None, equal), {})
    assert declared_reason(Part(Le(q, 1), "", None, Informative("always", lambda s: True)), {}) is None


@rule("statement.hypotheses_unsatisfiable", "claim.error")
def test_an_unsatisfiable_certificate_contradicted_by_a_subject_is_an_error() -> None:
    result = statement(Le(q, 1), [{"q": 0.5}], unsatisfiable=(lambda: cert(),))
    assert result.verdict == Verdict.ERROR and "cannot hold together" in result.reason


# -- readings and prefixes ------------------------------------------------------------------------

SMALL = Assumption("small", "q <= 1", lambda s: s["q"] <= 1)


@rule("reading.disagree")
@pytest.mark.parametrize("literal_subjects, reading, headline, sensitive", [
    ([{"q": 5.0}, {"q": 0.5}], Reading("small only", "a remark", assumptions=(SMALL,)), R, True),
    ([{"q": 0.5}], Reading("small only", "a remark", assumptions=(SMALL,)), C, False),
    ([{"q": 5.0}], Reading("small only", "a remark", assumptions=(SMALL,)), R, False),  # the reading is untested
])
def test_every_reading_is_checked_and_the_headline_is_the_literal_one(
        literal_subjects: list, reading: Reading, headline: Verdict, sensitive: bool) -> None:
    result = statement(Le(q, 1), literal_subjects, readings=(reading,), prefix=(forall("x", "subjects"),))
    assert result.verdict == headline and result.reading_sensitive == sensitive
    assert [r["name"] for r in result.readings] == ["literal", reading.name]
    assert result.prefix[0]["name"] == "x" and result.readings[1]["hypotheses"] == ["small: q <= 1"]


def test_a_refuted_reading_keeps_a_witness_that_replays_under_that_reading() -> None:
    from theorems.engine.witness import replay

    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                  readings=(Reading("wider", "a footnote", subjects=(Points([{"q": 3.0}]),)),))
    result = check_claim(claim, NONE)
    assert result.verdict == C and result.readings[1]["verdict"] == "refuted"
    witness = result.readings[1]["witness"]
    assert witness["reading"] == "wider" and replay(witness, claim.reading_named("wider")).violated


@rule("reading.disagree")
@pytest.mark.parametrize("verdicts, sensitive", [
    (["consistent", "proved"], False), (["consistent", "refuted"], True), (["refuted", "vacuous"], True),
    (["consistent", "untested"], False), (["inconclusive", "refuted"], False)])
def test_readings_disagree_only_when_decided_outcomes_differ(verdicts: list[str], sensitive: bool) -> None:
    assert disagree(verdicts) == sensitive


@pytest.mark.parametrize("prefix, fragment", [
    ((exists("c", "c > 0", depends_on=("f",)), forall("f", "encoders")), "later"),
    ((forall("f"), exists("c", depends_on=("g",))), "unknown"),
    ((forall("f"), forall("f")), "twice"),
])
def test_a_constant_may_depend_only_on_objects_bound_before_it(prefix: tuple, fragment: str) -> None:
    with pytest.raises(ClaimError, match=fragment):
        Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),), prefix=prefix)


def test_an_existential_constant_depends_on_every_earlier_universal_object_by_default() -> None:
    result = statement(Le(q, 1), [{"q": 0.5}], prefix=(forall("f"), exists("c", asymptotic="O(1/eps)"), forall("eps")))
    assert [b["depends_on"] for b in result.prefix] == [[], ["f"], []]


# -- proof chains ------------------------------------------------------------------------------------

a, b, c_ = sympy.symbols("a b c", real=True)


@pytest.mark.parametrize("links, target, composes", [
    ([Le(a, b), Le(b, c_)], Le(a, c_), True),
    ([Le(a, b), sympy.GreaterThan(b, c_, evaluate=False)], Le(a, c_), False),  # mixed directions
    ([Le(a, b), Le(b, c_)], Lt(a, c_), False),  # non-strict links cannot give a strict claim
    ([Lt(a, b), Le(b, c_)], Le(a, c_), True),  # a strict link gives more than needed
    ([Le(a, b), Le(c_, a)], Le(a, c_), False),  # links that do not chain
])
def test_proof_chains_compose_only_when_they_must(links: list, target: Any, composes: bool) -> None:
    claim = Claim("t.chain", Kind.INEQUALITY, SRC, parts(target), certificates=(lambda: cert(),))
    proof = Proof("t.chain", tuple(Step(f"step {i}", rel) for i, rel in enumerate(links)))
    assert compose(proof, claim)[0] == composes


# -- experiments: one configuration -----------------------------------------------------------------

SEEDS = tuple(range(MIN_SEEDS))


@rule("experiment.observation")
@pytest.mark.parametrize("obs, expected, fragment", [
    (Observation({}, (True,) * MIN_SEEDS, SEEDS, at_init=False), C, ""),
    (Observation({}, (False,) * MIN_SEEDS, SEEDS, at_init=False), R, ""),
    (Observation({}, (True, False) + (True,) * (MIN_SEEDS - 2), SEEDS), I, "seeds disagree"),
    (Observation({}, (True,) * MIN_SEEDS, SEEDS, at_init=True), U, "uninformative"),
    (Observation({}, (False,) * MIN_SEEDS, SEEDS, at_init=True), R, ""),  # fails after training: evidence
    (Observation({}, (True,) * (MIN_SEEDS - 1), SEEDS[:-1]), I, "at least"),
    (Observation({}, (True,)), C, ""),  # a deterministic computation needs no seeds
    (Observation({}, (None,) + (True,) * (MIN_SEEDS - 1), SEEDS), I, "cannot tell"),
    (Observation({}, (True,) * MIN_SEEDS, SEEDS, regime=(RegimeCheck("width", "m >> d", 3, "m >= 10", False),)),
     U, "out of regime"),
    (Observation({}, (True,), by_construction="the bound is the triangle inequality on the checker's own rate"),
     U, "by construction"),  # can fail only by a bug: no evidence
    (Observation({}, (False,), by_construction="an identity of the encoding"), I, "encoding is wrong"),  # not the paper
])
def test_observation_rule(obs: Observation, expected: Verdict, fragment: str) -> None:
    verdict, why = observation_verdict(obs)
    assert verdict == expected and fragment in why, (verdict, why)


# -- experiments: verdict maps per quantifier ---------------------------------------------------------

def rows(*cells: tuple[Verdict, bool]) -> list[dict[str, Any]]:
    return [{"config": {"c": i}, "verdict": v, "in_regime": inside} for i, (v, inside) in enumerate(cells)]


@rule("experiment.map")
@pytest.mark.parametrize("cells, settings, forall_, exists_", [
    ([(C, True), (C, True)], C, C, C),
    ([(C, True), (R, True)], I, R, C),
    ([(R, True), (R, True)], R, R, R),
    ([(I, True), (R, True)], I, R, I),
    ([(C, True), (I, True)], I, I, C),
    ([(R, False), (C, True)], C, C, C),  # outside the regime: never evidence
    ([(R, False), (C, False)], U, U, U),
    ([(U, True), (C, True)], C, C, C),  # an uninformative configuration is not evidence either
])
def test_read_map_by_quantifier(cells: list, settings: Verdict, forall_: Verdict, exists_: Verdict) -> None:
    configs = rows(*cells)
    assert (read_map(configs), read_map(configs, "forall"), read_map(configs, "exists")) == (settings, forall_, exists_)


def test_read_map_rejects_an_unknown_quantifier_and_names_the_witness() -> None:
    with pytest.raises(ValueError, match="quantifier"):
        read_map(rows((C, True)), "most")
    assert map_witness(rows((C, False), (R, True), (C, True))) == {"c": 2}


def experiment(observations: list[Observation], quantifier: str = "forall", **outcome: Any) -> Any:
    def run(ctx: Any) -> ExperimentOutcome:
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[0],
                                 parameters={}, observations=observations, **outcome)
    claim = ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=run, quantifier=quantifier)
    return check_claim(claim, NONE)


def obs(verdict: Verdict, model: int = 0, part: str = "main", at_init: bool = False) -> Observation:
    holds = {C: True, R: False}[verdict]
    return Observation({"model": model}, (holds,) * MIN_SEEDS, SEEDS, at_init=at_init, part=part)


def fact_obs(fact: str) -> Observation:
    return Observation({"fact": fact}, (True,))


EXPERIMENT_RULES = [
    ("forall: one refuted model refutes", lambda: experiment([obs(C), obs(R, 1)]), R),
    ("forall: every model consistent", lambda: experiment([obs(C), obs(C, 1)]), C),
    ("settings: disagreeing settings are inconclusive", lambda: experiment([obs(C), obs(R, 1)], "settings"), I),
    ("exists: one consistent model is a witness", lambda: experiment([obs(R), obs(C, 1)], "exists"), C),
    ("exists: no witness is untested, never refuted", lambda: experiment([obs(R), obs(R, 1)], "exists"), U),
    ("exists: a failed universal part refutes",
     lambda: experiment([obs(C), obs(R, 1, part="universal")], "exists"), R),
    ("a property the untrained model has is no evidence", lambda: experiment([obs(C, at_init=True)]), U),
    ("a failed regime check of the whole experiment is untested", lambda: experiment(
        [obs(R)], regime=[RegimeCheck("width", "m >> d", 3, "m >= 10", False)]), U),
    ("complete certificates prove", lambda: experiment([obs(C)], certificates=[cert()]), P),
    ("finite-range certificates give at most consistent",
     lambda: experiment([obs(C)], certificates=[cert(complete=False)]), C),
    ("certificates must cover every observed fact",
     lambda: experiment([fact_obs("a"), fact_obs("b")], certificates=[covering(cert(), "a")]), C),
    ("certificates covering every observed fact prove",
     lambda: experiment([fact_obs("a"), fact_obs("b")], certificates=[covering(cert(), "a"), covering(cert(), "b")]),
     P),
    ("a measured growth alone is inconclusive", lambda: experiment(
        [obs(C)], growth=[Growth("r", "d", (8, 16, 32, 64), (1.0, 2.0, 4.0, 8.0))]), I),
    ("an exact infinite limit refutes", lambda: experiment(
        [obs(C)], growth=[Growth("r", "d", (8, 16, 32, 64), (1.0, 2.0, 4.0, 8.0), limit=math.inf)]), R),
    ("nothing measured is untested", lambda: experiment([]), U),
]


@rule("experiment.claim", "experiment.certified", "experiment.map", "experiment.observation")
@pytest.mark.parametrize("rule, build, expected", EXPERIMENT_RULES, ids=[r[0] for r in EXPERIMENT_RULES])
def test_experiment_rule(rule: str, build: Any, expected: Verdict) -> None:
    result = build()
    assert result.verdict == expected, (rule, result.verdict, result.reason)


@rule("experiment.growth")
@pytest.mark.parametrize("ratios, limit, expected", [
    ((1.0, 2.0, 4.0, 8.0), None, I),  # slope 1, rising: a measurement, never a refutation
    ((1.0, 1.01, 1.0, 1.02), None, C),  # flat
    ((1.0, 1.2, 1.4, 1.5), None, I),  # in between
    ((1.0, 2.0, 4.0, 3.0), None, I),  # steep but falling at the end: not shown to be unbounded
    ((1.0, 1.0, 1.0, 1.0), math.inf, R),  # sympy's limit decides
    ((1.0, 2.0, 4.0, 8.0), 2.0, C),
])
def test_growth_rule(ratios: tuple, limit: float | None, expected: Verdict) -> None:
    verdict, why = growth_verdict(Growth("r", "d", (8.0, 16.0, 32.0, 64.0), ratios, limit=limit))
    assert verdict == expected, why


def test_an_experiment_claim_quantifier_is_checked_at_registration() -> None:
    with pytest.raises(ClaimError, match="quantifier"):
        ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=lambda ctx: None, quantifier="most")
    with pytest.raises(ClaimError, match="does not have"):
        ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=lambda ctx: None,
                        readings=(Reading("x", "y", assumptions=()),))


def test_the_mpmath_backend_tells_its_precision() -> None:
    """The never-settling row relies on it (a backend without ``dps`` would make that row meaningless)."""
    from numerics.backend import mp_backend

    assert mp_backend(60).dps == 60 and mpmath.mpf(1) == 1 and np.isfinite(1.0)


# -- asymptotic statements along witness families; reachability of a conclusion -------------------------

def growing() -> Growth:
    """An experiment's family whose ratio has an exact infinite limit (refutes)."""
    return Growth("ratio along k", "k", (8.0, 16.0, 32.0, 64.0), (1.0, 2.0, 4.0, 8.0), limit=math.inf)


def measured() -> Growth:
    """The same ratios with no limit: a measured growth only (inconclusive)."""
    return Growth("ratio along k", "k", (8.0, 16.0, 32.0, 64.0), (1.0, 2.0, 4.0, 8.0))


P_dev, Var_f, eps_a = sympy.symbols("P_dev Var_f eps_a", positive=True)
t_a = sympy.Symbol("t", positive=True)
UNIFORM_C = (exists("c", "c > 0", asymptotic="O(Var/eps)"), forall("f", "1-Lipschitz maps"), forall("eps", "eps > 0"))
C_PER_F = (forall("f", "1-Lipschitz maps"), exists("c", "c > 0", asymptotic="O(Var/eps)"), forall("eps", "eps > 0"))


def bump_family(moves: tuple[str, ...] = ("f", "eps")) -> Any:
    """The shrinking bump on U[0, 1] (eps = t/2): P = t - 2t^2, Var = 2t^3/3 - t^4 (closed forms near t -> 0+)."""
    from theorems.engine.asymptotic import Parametric

    return Parametric("shrinking bump", moves, values=lambda t: {P_dev: t - 2 * t**2, Var_f: 2 * t**3 / 3 - t**4,
                                                              eps_a: t / 2}, index=t_a, limit=0)


def asymptotic_claim(g_of: Any, prefix: tuple = UNIFORM_C, families: tuple = (), notation: str = "O",
                     **kw: Any) -> Any:
    from theorems.engine.asymptotic import Asymptotic

    part = Asymptotic(P_dev, g_of, None, None, notation, "c", "P <= c g")
    return Claim("t.asym", Kind.INEQUALITY, SRC, (), asymptotic=(part,), parametric=families or (bump_family(),),
                 prefix=prefix, **kw)


@rule("asymptotic.family_valid")
@pytest.mark.parametrize("prefix, moves, valid", [
    (UNIFORM_C, ("f", "eps"), True),  # c is chosen before f and eps: they may move with t
    (C_PER_F, ("f", "eps"), False),  # c may depend on f: a family moving f is no witness
    (C_PER_F, ("eps",), True),
    (UNIFORM_C, ("g",), False),  # an object the prefix does not bind
    ((forall("f", ""), exists("c", "", depends_on=()), forall("eps", "")), ("f", "eps"), True),  # c depends on nothing
    ((forall("f", ""), forall("x", ""), exists("c", "", depends_on=("f",)), forall("eps", "")), ("x",), True),
    ((forall("f", ""), forall("x", ""), exists("c", "", depends_on=("f",)), forall("eps", "")), ("f",), False),
    ((exists("c", ""), exists("f", ""), forall("eps", "")), ("f",), False),  # the claim chooses f, not the adversary
])
def test_which_families_count_under_a_prefix(prefix: tuple, moves: tuple, valid: bool) -> None:
    from theorems.engine.rules.asymptotic import family_valid

    assert family_valid(prefix, "c", moves)[0] is valid


@rule("asymptotic.limit")
@pytest.mark.parametrize("notation, limit, expected", [
    ("O", "oo", R), ("O", "3/8", C), ("O", "0", C), ("Omega", "0", R), ("Omega", "oo", C), ("Theta", "0", R),
    ("Theta", "oo", R), ("Theta", "1", C)])
def test_an_exact_limit_decides_a_closed_form_family(notation: str, limit: str, expected: Verdict) -> None:
    from theorems.engine.rules.asymptotic import limit_verdict

    assert limit_verdict(notation, limit)[0] == expected


@rule("asymptotic.growth", "asymptotic.family")
@pytest.mark.parametrize("notation, slope, error, expected", [
    ("O", 1.0, "", I),  # a measured growth never refutes
    ("O", 0.02, "", C), ("O", -1.0, "", C), ("O", 0.18, "", I), ("Omega", -1.0, "", I), ("Omega", 1.0, "", C),
    ("O", None, "", I), ("O", 0.0, "sympy could not take the limit", I)])
def test_a_measured_growth_is_inconclusive_and_a_flat_one_consistent(notation: str, slope: float | None, error: str,
                                                                     expected: Verdict) -> None:
    from theorems.engine.rules.asymptotic import family_verdict

    assert family_verdict(notation, "", slope, 0.01, error)[0] == expected


@rule("statement.asymptotic_unbounded", "statement.informative", "statement.asymptotic_no_witness")
@pytest.mark.parametrize("g_of, prefix, expected", [
    (Var_f / eps_a, UNIFORM_C, R),  # the ratio P eps / Var -> oo along the bump: no c independent of f
    (Var_f / eps_a**2, UNIFORM_C, C),  # Chebyshev's form: the ratio tends to 3/8
    (Var_f / eps_a, C_PER_F, U),  # c may depend on f: the bump is no witness, and no other family is given
    (Var_f / eps_a ** 2, C_PER_F, U),  # nor is its bounded ratio evidence
])
def test_an_asymptotic_part_is_decided_along_its_families_by_the_prefix(g_of: Any, prefix: tuple,
                                                                        expected: Verdict) -> None:
    result = check_claim(asymptotic_claim(g_of, prefix), NONE)
    assert result.verdict == expected, result.reason
    if expected == R:
        assert result.witness["kind"] == "parametric" and result.witness["limit"] == "oo"


def test_a_parametric_witness_replays_by_taking_the_limit_again() -> None:
    from theorems.engine.witness import replay_parametric

    claim = asymptotic_claim(Var_f / eps_a**2, readings=(Reading("c linear in 1/eps", "a misreading",
                                                                 asymptotic=(asymptotic_claim(Var_f / eps_a).asymptotic),),))
    result = check_claim(claim, NONE)
    assert result.verdict == C and result.readings[1]["verdict"] == "refuted"
    witness = result.readings[1]["witness"]
    assert replay_parametric(witness, claim.reading_named("c linear in 1/eps")).verdict == R
    assert replay_parametric(witness, claim.reading_named("literal") if False else
                             claim.reading_named("c linear in 1/eps")).limit == "oo"
    with pytest.raises(Exception, match="no parametric family"):
        replay_parametric({**witness, "family": "another"}, claim.reading_named("c linear in 1/eps"))


def test_a_family_whose_parameter_does_not_reach_the_printed_limit_is_no_witness() -> None:
    from theorems.engine.asymptotic import Asymptotic, Parametric

    part = Asymptotic(P_dev, Var_f / eps_a, eps_a, 0, "O", "c", "P = O(Var/eps) as eps -> 0")
    stuck = Parametric("eps stays 1", ("f", "eps"), values=lambda t: {P_dev: t, Var_f: t**2, eps_a: sympy.Integer(1)},
                       index=t_a, limit=0)
    claim = Claim("t.asym", Kind.INEQUALITY, SRC, (), asymptotic=(part,), parametric=(stuck,), prefix=UNIFORM_C)
    result = check_claim(claim, NONE)
    assert result.verdict == U and "tends to 1, not to 0" in result.reason


@rule("statement.asymptotic_open")
def test_a_numeric_family_that_grows_leaves_the_claim_inconclusive_with_its_fit() -> None:
    from theorems.engine.asymptotic import Parametric

    grid = Parametric("sampled bump", ("f", "eps"), sample=lambda t: {P_dev: t, Var_f: t**3, eps_a: t / 2},
                      grid=(0.1, 0.01, 0.001, 0.0001), index=t_a, limit=0)
    result = check_claim(asymptotic_claim(Var_f / eps_a, families=(grid,)), NONE)
    assert result.verdict == I and "slope" in result.reason, result.reason
    assert result.asymptotic[0]["slope"] == pytest.approx(1.0, abs=1e-6)


w_r, B_r = sympy.Symbol("w_r", real=True), sympy.Symbol("B", positive=True)


def reach_claim(prefix: tuple, objects: dict | None = None, **kw: Any) -> Any:
    """'a linear predictor with |w| <= B reaches logistic loss <= eps on x = 1, y = +1' under ``prefix``."""
    from theorems.engine.reach import Reach

    reach = Reach("logistic loss on (1, +1)", sympy.log(1 + sympy.exp(-w_r)), {w_r: (-B_r, B_r)}, "eps",
                  objects or {"B": (1, 4, 16)}, about="w")
    return Claim("t.reach", Kind.INEQUALITY, SRC, (), reach=(reach,), prefix=prefix, **kw)


EVERY_B_EVERY_EPS = (forall("B", "B > 0"), forall("eps", "eps > 0"), exists("w", "|w| <= B"))
EVERY_EPS_SOME_B = (forall("eps", "eps > 0"), exists("B", "B > 0"), exists("w", "|w| <= B"))
SOME_B_EVERY_EPS = (exists("B", "B > 0"), forall("eps", "eps > 0"), exists("w", "|w| <= B"))


@rule("statement.unreachable", "reach.unreachable", "reach.claim", "reach.reachable", "reach.claim_chooses",
      "statement.reach_open")
@pytest.mark.parametrize("prefix, expected", [
    (EVERY_B_EVERY_EPS, R),  # inf = log(1 + e^-B) > 0, and the adversary picks eps after B
    (EVERY_EPS_SOME_B, C),  # the claim picks B after eps: reached at the grid's levels
    (SOME_B_EVERY_EPS, R),  # the claim picks B first, but log(1 + e^-B) > 0 for every B > 0 (sympy)
])
def test_reachability_is_read_with_the_prefix(prefix: tuple, expected: Verdict) -> None:
    result = check_claim(reach_claim(prefix), NONE)
    assert result.verdict == expected, result.reason
    if expected == R:
        assert result.witness["kind"] == "reach" and "log(1 + exp(-B))" in str(result.reach[0]["exact"])


EPS_CHOSEN = (forall("B", "B > 0"), exists("eps", "a level the claim (or the checker) picks, eps <= 0.2"),
              exists("w", "|w| <= B"))


@rule("reach.unreachable")
@pytest.mark.parametrize("B_values, level_max, expected", [
    ((1.0,), 0.2, R),  # inf log(1 + e^-1) = 0.313 > 0.2: no admissible eps is reachable, whoever picks it
    ((2.0,), 0.2, C),  # inf log(1 + e^-2) = 0.127 <= 0.2: some admissible eps is reachable -- not refuted
    ((1.0,), None, C),  # an existential level with no admissible range stated: the claim picks it, never refuted
])
def test_a_level_with_an_admissible_range_refutes_only_above_its_largest_value(B_values: tuple, level_max: Any,
                                                                              expected: Verdict) -> None:
    from theorems.engine.reach import Reach

    reach = Reach("logistic loss on (1, +1)", sympy.log(1 + sympy.exp(-w_r)), {w_r: (-B_r, B_r)}, "eps",
                  {"B": B_values}, about="w", level_max=level_max)
    result = check_claim(Claim("t.reach", Kind.INEQUALITY, SRC, (), reach=(reach,), prefix=EPS_CHOSEN), NONE)
    assert (result.verdict == R) == (expected == R), result.reason


@pytest.mark.parametrize("B_values", [(1e-3,), (1.8,)])  # inf log(1 + e^-1.8) = 0.152: above the level 0.1
def test_a_level_no_grid_value_reaches_leaves_the_reading_untested(B_values: tuple) -> None:
    result = check_claim(reach_claim(EVERY_EPS_SOME_B, {"B": B_values}), NONE)
    assert result.verdict == U and result.rule == "statement.reach_open", result.reason
    assert all("the claim chooses B (after eps)" in r["why"] for r in result.reach), result.reach


def test_a_positive_infimum_at_some_values_of_an_object_chosen_first_refutes_nothing() -> None:
    """inf of w^2 + (B - 3)^2 over |w| <= 1 is (B - 3)^2: positive at the grid's B = 1, 4, but 0 at B = 3, which the
    claim may choose (sympy cannot certify it positive for every B): not refuted."""
    from theorems.engine.reach import Reach

    reach = Reach("a bounded-weight quantity", w_r ** 2 + (B_r - 3) ** 2, {w_r: (-1, 1)}, "eps", {"B": (1, 4)})
    claim = Claim("t.reach", Kind.INEQUALITY, SRC, (), prefix=SOME_B_EVERY_EPS, reach=(reach,))
    result = check_claim(claim, NONE)
    assert result.verdict != R and not any(r["uniform"] for r in result.reach), result.reason


@pytest.mark.parametrize("prefix", [
    (forall("eps", "eps > 0"), exists("w", "any real w")),  # inf 0, never attained: no positive bound
    (forall("B", "B > 0"), exists("eps", "a level the claim picks"), exists("w", "|w| <= B")),  # not the adversary's
])
def test_no_refutation_without_a_positive_infimum_at_the_adversarys_level(prefix: tuple) -> None:
    from theorems.engine.reach import Reach

    unbounded = Reach("logistic loss on (1, +1), any weight", sympy.log(1 + sympy.exp(-w_r)),
                      {w_r: (-sympy.oo, sympy.oo)}, "eps", {})
    bounded = Reach("logistic loss on (1, +1)", sympy.log(1 + sympy.exp(-w_r)), {w_r: (-B_r, B_r)}, "eps",
                    {"B": (1, 4)})
    claim = Claim("t.reach", Kind.INEQUALITY, SRC, (), prefix=prefix,
                  reach=(unbounded if len(prefix) == 2 else bounded,))
    assert check_claim(claim, NONE).verdict != R


def test_a_reach_witness_replays_by_bounding_the_infimum_again() -> None:
    from theorems.engine.reach import replay_row

    claim = reach_claim(EVERY_B_EVERY_EPS)
    result = check_claim(claim, NONE)
    assert replay_row(result.witness, claim)["verdict"] == R
    assert replay_row(result.witness, reach_claim(EVERY_EPS_SOME_B))["verdict"] != R


def reach_experiment(prefix: tuple, one_sided: str = "", **kw: Any) -> Any:
    from theorems.engine.reach import Reach

    def run(ctx: Any) -> ExperimentOutcome:
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[0],
                                 parameters={}, observations=[obs(C)])
    reach = () if prefix is None else (Reach("logistic loss on (1, +1)", sympy.log(1 + sympy.exp(-w_r)),
                                             {w_r: (-B_r, B_r)}, "eps", {"B": (1, 4)}),)
    claim = ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=run, quantifier="forall", reach=reach,
                            prefix=prefix or EVERY_B_EVERY_EPS, one_sided=one_sided, **kw)
    return check_claim(claim, NONE)


@rule("experiment.unreachable", "experiment.one_sided")
def test_an_unreachable_conclusion_refutes_an_experiment_whatever_its_runs_show() -> None:
    assert reach_experiment(EVERY_B_EVERY_EPS).verdict == R  # every run reached eps: still refuted
    assert reach_experiment(EVERY_EPS_SOME_B).verdict == C
    labelled = reach_experiment(None, one_sided="a run that does not reach eps cannot tell")
    assert labelled.verdict == C and labelled.verdict_label.startswith("consistent (one-sided: a run")
    checked = reach_experiment(EVERY_EPS_SOME_B, one_sided="a run that does not reach eps cannot tell")
    assert checked.verdict == C and checked.verdict_label == "consistent"


@rule("experiment.hypotheses_unsatisfiable")
def test_an_experiment_whose_hypotheses_cannot_hold_is_vacuous_and_runs_nothing() -> None:
    ran: list[int] = []

    def run(ctx: Any) -> ExperimentOutcome:
        ran.append(1)
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[0],
                                 parameters={}, observations=[obs(R)])

    impossible = ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=run,
                                 unsatisfiable=(lambda: Certificate(method="sympy", statement="||x - x|| = 0 < delta",
                                                                    domain="every delta > 0", ok=True),))
    result = check_claim(impossible, NONE)
    assert result.verdict == V and "cannot hold together" in result.reason and not ran and result.expected
    failed = dataclasses.replace(impossible, unsatisfiable=(lambda: cert(ok=False),))
    assert check_claim(failed, NONE).verdict == R and ran  # a failed certificate says nothing: the runs decide


@rule("experiment.one_sided_failure")
def test_a_one_sided_experiment_whose_runs_fail_is_inconclusive_unless_the_statement_itself_refutes() -> None:
    """Runs at the checker's choice of an object the sentence leaves to the claim (one-sided) cannot refute: a failure
    there is inconclusive; the same failure without the one-sided declaration refutes; a reach row that refutes from
    the statement itself still refutes a one-sided claim."""
    from theorems.engine.reach import Reach

    def failing(one_sided: str, prefix: tuple | None = None) -> Any:
        def run(ctx: Any) -> ExperimentOutcome:
            return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[0],
                                     parameters={}, observations=[obs(R)])
        reach = () if prefix is None else (Reach("logistic loss on (1, +1)", sympy.log(1 + sympy.exp(-w_r)),
                                                 {w_r: (-B_r, B_r)}, "eps", {"B": (1, 4)}),)
        return check_claim(ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=run, quantifier="forall",
                                           one_sided=one_sided, reach=reach, prefix=prefix or EVERY_B_EVERY_EPS), NONE)

    why = "beta is the sentence's 'there exist beta', fixed at the checker's 0.05"
    held_back = failing(why)
    assert held_back.verdict == I and held_back.rule == "experiment.one_sided_failure" and why in held_back.reason
    assert held_back.witness is None and failing("").verdict == R
    assert failing(why, EVERY_B_EVERY_EPS).verdict == R  # unreachable whatever beta: the statement refutes itself


def asymptotic_experiment(prefix: tuple, family_limit: Any) -> Any:
    """An experiment whose runs all hold, with the part 'x = O(1) as t -> 0+' along the family x = 1/t (exact limit
    oo) or x = 2 + t (limit 2), moving x and t."""
    from theorems import Parametric, big_o

    x_s, t_s = sympy.symbols("x_exp t_exp", positive=True)

    def run(ctx: Any) -> ExperimentOutcome:
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[0],
                                 parameters={}, observations=[obs(C)])
    family = Parametric("x_t", ("x", "t"), values=lambda t: {x_s: family_limit(t), t_s: t}, index=t_s, limit=0)
    return ExperimentClaim("t.exp_asym", Kind.DYNAMICS, SRC, experiment=run, prefix=prefix, parametric=(family,),
                           asymptotic=(big_o(x_s, sympy.Integer(1), parameter=t_s, limit=0, constant="c"),))


C_FIRST_EXP = (exists("c", "c > 0", asymptotic="O(1)"), forall("x", ""), forall("t", ""))
C_LAST_EXP = (forall("x", ""), forall("t", ""), exists("c", "c > 0", asymptotic="O(1)", depends_on=("x", "t")))


@rule("experiment.asymptotic_unbounded")
@pytest.mark.parametrize("prefix, limit, verdict", [
    (C_FIRST_EXP, lambda t: 1 / t, R),  # c before x and t, the ratio 1/t -> oo: refuted whatever the runs show
    (C_FIRST_EXP, lambda t: 2 + t, C),  # a bounded ratio: the runs decide
    (C_LAST_EXP, lambda t: 1 / t, C),  # c may depend on what the family moves: the family does not count
])
def test_an_unbounded_asymptotic_part_refutes_an_experiment_whatever_its_runs_show(prefix: tuple, limit: Any,
                                                                                   verdict: Verdict) -> None:
    claim = asymptotic_experiment(prefix, limit)
    result = check_claim(claim, NONE)
    assert result.verdict == verdict, result.reason
    if verdict == R:
        from theorems.engine.witness import replay_parametric

        assert result.rule == "experiment.asymptotic_unbounded" and result.witness["kind"] == "parametric"
        assert replay_parametric(result.witness, claim).verdict == R


@rule("statement.never_binds")
def test_an_incomplete_vacuity_certificate_does_not_make_a_bound_vacuous() -> None:
    assert statement(Le(q, 1), [{"q": 0.5}], vacuity=(lambda: cert(complete=False),)).verdict == C


@rule("experiment.still_refutes")
def test_a_refuted_experiment_names_its_configuration_and_its_witness_replays() -> None:
    from theorems.engine.witness import replay_experiment

    def run(ctx: Any) -> ExperimentOutcome:
        return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=[ctx.seed],
                                 parameters={}, observations=[obs(C), obs(R, 7)])
    claim = ExperimentClaim("t.exp", Kind.DYNAMICS, SRC, experiment=run)
    result = check_claim(claim, NONE, seed=3)
    assert result.verdict == R and "refuted at {'model': 7}" in result.reason
    witness = result.witness
    assert witness["kind"] == "experiment" and witness["evidence"]["config"] == {"model": 7}
    assert witness["audit_seed"] == 3 and replay_experiment(witness, claim)[0]
    assert not replay_experiment({**witness, "evidence": {"config": {"model": 0}}}, claim)[0]


# -- proved (modulo: named results) ------------------------------------------------------------------
JENSEN_TEST = NamedResult("Jensen (test)", "f(E X) <= E f(X)", ("f convex",))


def modulo_cert(*names: str, complete: bool = True) -> Certificate:
    return Certificate(method="coq", statement="s", domain="all n", ok=True, complete=complete, modulo=names)


@rule("statement.modulo", "statement.certified")
@pytest.mark.parametrize("certificates, verdict, modulo", [
    ((lambda: modulo_cert("Jensen (test)"),), P, ["Jensen (test)"]),
    ((lambda: modulo_cert("Jensen (test)"), lambda: cert()), P, []),  # one proof outright is enough
    ((lambda: modulo_cert("B"), lambda: modulo_cert("A", "C")), P, ["B"]),  # the proof resting on fewer results
    ((lambda: modulo_cert("Jensen (test)", complete=False),), C, []),
])
def test_a_certificate_resting_on_named_results_proves_modulo_them(certificates: tuple, verdict: Verdict,
                                                                   modulo: list[str]) -> None:
    result = statement(Le(q, 1), [{"q": 0.5}], certificates=certificates)
    assert (result.verdict, result.modulo) == (verdict, modulo)
    assert result.verdict_label == (f"proved (modulo: {', '.join(modulo)})" if modulo else verdict.value)


def _chain_claim(named: NamedResult, claim_id: str) -> Any:
    claim = Claim(claim_id, Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),))
    hyp = Instance(named, {"f convex": lambda: cert()})
    proof = Proof(claim_id, (Step("q <= b", Le(q, b), certificates=(lambda: cert(),)),
                             Step("b <= 1 by Jensen", Le(b, 1), named=hyp)))
    return claim, proof


@rule("statement.proof_chain", "proof.named_result", "proof.certificates", "proof.chain_certified")
@pytest.mark.parametrize("proof_of_result, verdict, modulo", [
    (None, P, ["Jensen (test, {i})"]),  # the named result is not proved: proved modulo it
    (lambda: cert(), P, []),  # the named result is itself proved on its whole domain: proved outright
    (lambda: cert(complete=False), P, ["Jensen (test, {i})"]),  # proved on a range only: still modulo it
    (lambda: cert(ok=False), P, ["Jensen (test, {i})"]),
])
def test_a_chain_through_a_named_result_is_proved_outright_only_when_the_result_is_proved(
        proof_of_result: Any, verdict: Verdict, modulo: list[str]) -> None:
    from theorems.engine import registry

    i = id(proof_of_result)  # a name per row: a named result's own proof is checked once per process
    named = NamedResult(f"Jensen (test, {i})", "f(E X) <= E f(X)", ("f convex",), proof=proof_of_result)
    claim, proof = _chain_claim(named, f"t.chain{i}")
    with registry.isolated() as reg:
        reg.proof(proof)
        result = check_claim(claim, NONE)
    assert (result.verdict, result.modulo) == (verdict, [m.format(i=i) for m in modulo]), result.proof_chains


def test_proofs_modulo_named_results_are_counted_apart() -> None:
    from theorems.frontend.report import verdict_counts

    outright = statement(Le(q, 1), [{"q": 0.5}], certificates=(lambda: cert(),))
    modulo = statement(Le(q, 1), [{"q": 0.5}], certificates=(lambda: modulo_cert("Jensen (test)"),))
    assert verdict_counts([outright, modulo, modulo]) == "proved (modulo named results) 2, proved 1"


def test_a_reading_inherits_the_certificates_unless_it_overrides_them() -> None:
    claim = Claim("t.read", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                  certificates=(lambda: cert(),),
                  readings=(Reading("same proof", "the same words"), Reading("other", "other words", certificates=())))
    result = check_claim(claim, NONE)
    assert [r["verdict"] for r in result.readings] == ["proved", "proved", "consistent"]


@rule("claim.sharp_certified")
@pytest.mark.parametrize("certificates, certified", [
    ((lambda: cert(),), True),  # its certificate passes on the whole domain
    ((lambda: cert(complete=False),), False),  # on part of it only: an estimate
    ((lambda: cert(ok=False),), False),  # a failed certificate: an estimate
    ((lambda: 1 / 0,), False),  # a certificate that cannot run certifies nothing
])
def test_a_sharp_constant_is_labelled_certified_only_when_its_certificates_pass(certificates: tuple,
                                                                               certified: bool) -> None:
    from theorems import Sharp

    claim = Claim("t.sharp", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]),
                  subjects=(Points([{"q": 0.5}, {"q": 1.5}]),),
                  sharp=(Sharp("q <= 2", "2", "3/2", certified=True, sides=(q, sympy.Rational(3, 2)),
                               certificates=certificates),))
    (row,) = check_claim(claim, NONE).tightness
    (shown,) = row["sharp_constants"]
    assert shown["certified"] is certified
    assert ("(certified)" if certified else "(an estimate)") in shown["text"]
    with pytest.raises(ClaimError, match="certified=True needs the certificates"):
        Sharp("q <= 2", "2", "3/2", certified=True)


def test_a_part_shows_each_of_its_sharp_constants_with_its_own_label() -> None:
    """Two sharp constants of one part (a certified one over a wider class, an estimate over a narrower one) are
    both shown, in the order declared, each certified only by its own certificates and each with its own reach."""
    from theorems import Sharp
    from theorems.frontend.report import markdown

    claim = Claim("t.sharp", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]),
                  subjects=(Points([{"q": 0.5}, {"q": 1.5}]),),
                  sharp=(Sharp("q <= 2", "2", "7/4 over every subject", certified=True, sides=(q, sympy.Rational(7, 4)),
                               certificates=(lambda: cert(),)),
                         Sharp("q <= 2", "2", "3/2 over the narrower class", certified=True,
                               sides=(q, sympy.Rational(3, 2)), certificates=(lambda: cert(ok=False),))))
    result = check_claim(claim, NONE)
    (row,) = result.tightness
    wide, narrow = row["sharp_constants"]
    assert (wide["certified"], narrow["certified"]) == (True, False)
    assert wide["reached"] == pytest.approx(1.5 / 1.75) and narrow["reached"] == 1.0
    text = markdown([result], 0, {})
    assert text.index("7/4 over every subject (certified)") < text.index("3/2 over the narrower class (an estimate)")


def test_an_inequality_reports_its_best_ratio_and_the_sharp_constant_beside_the_printed_one() -> None:
    from theorems import Sharp

    claim = Claim("t.sharp", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]),
                  subjects=(Points([{"q": 0.5}, {"q": 1.5}]),),
                  sharp=(Sharp("q <= 2", "2", "3/2", certified=True, sides=(q, sympy.Rational(3, 2)),
                               certificates=(lambda: cert(),)),))
    (row,) = check_claim(claim, NONE).tightness
    assert row["best_ratio"] == 0.75 and row["precision"].startswith("mpmath")
    (shown,) = row["sharp_constants"]
    assert shown["reached"] == 1.0 and "search reached 1 of the sharp bound" in shown["text"]
    with pytest.raises(ClaimError, match="sharp constants name parts it does not have"):
        Claim("t.sharp2", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]), subjects=(Points([]),),
              sharp=(Sharp("no such part", "2", "1", certified=False),))


# -- comparisons: the tolerance policy at its edges ------------------------------------------------------------

def tol_at(x: float) -> float:
    return ATOL + RTOL * abs(x)


@rule("compare.violation")
def test_a_margin_of_exactly_the_tolerance_is_not_a_violation_and_the_next_float_is() -> None:
    from theorems.engine.rules.compare import is_violation

    tol = tol_at(1.0)
    assert not is_violation(tol, tol) and is_violation(np.nextafter(tol, 1.0), tol)
    assert is_violation(2 * tol, tol) and not is_violation(0.0, tol) and is_violation(math.inf, tol)


@rule("compare.tolerance")
def test_the_tolerance_grows_with_the_larger_side() -> None:
    from theorems.engine.rules.compare import tolerance

    assert tolerance(1e6, 2.0) == ATOL + RTOL * 1e6 and tolerance(0.0, math.inf) == ATOL
    # at scale 1e6 a margin of 1e-6 is rounding, not a counterexample
    assert statement(Le(q, 1e6), [{"q": 1e6 * (1 + 1e-12)}]).verdict == C


@rule("compare.candidate")
@pytest.mark.parametrize("relation, subject", [
    (Le(h - 2, -1), {"h": 1 - 1e-9 / 2, "h_mp": 2.0}),  # float margin -tol/4 (tol = 1e-9 * 2): a candidate
    (sympy.Eq(h - 2, -1, evaluate=False), {"h": 1 + 1.5e-9, "h_mp": 2.0}),  # an identity off by 0.75 tol
    (Le(h - 2, -1), {"h": math.nan, "h_mp": 2.0}),  # a NaN in float64 is always looked at closer
])
def test_the_float_screen_sends_near_misses_to_high_precision(relation: Any, subject: dict) -> None:
    """Drawn subjects (never listed) whose part has no ratio (its larger side is negative): only the screen can
    send them to 60 digits."""
    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(relation), subjects=(Drawn([subject]),))
    assert check_claim(claim, Budget(examples=3, adversarial_starts=0, adversarial_steps=0, quick=True,
                                     tightness_starts=0)).verdict == R


@rule("compare.same_margin", "compare.confirmation")
@pytest.mark.parametrize("subject, expected", [
    ({"inf_until": 120, "u": 0.5, "u_float": math.inf}, C),  # +inf at 60 and 120 digits, 0.5 beyond: agreeing once
    ({"inf_until": 10_000, "u": 0.5, "u_float": math.inf}, R),  # +inf at every precision: confirmed
    ({"inf_until": 60, "u": 0.5, "u_float": math.inf}, C),  # the violation is gone at 120 digits
    ({"inf_until": 60, "u": 1.0, "u_float": math.inf, "u_drift": True}, C),  # +inf, then a margin that never settles
    ({"inf_until": 960, "u": 2.0, "u_float": math.inf}, C),  # +inf up to 960 digits, 2 at 1920: never the same margin
])
def test_an_infinite_margin_is_confirmed_only_when_it_stays_infinite(subject: dict, expected: Verdict) -> None:
    assert statement(Le(u, 1), [subject]).verdict == expected


@rule("compare.same_margin")
def test_margins_below_the_float_range_are_compared_at_high_precision() -> None:
    """A rounding residue that shrinks with the precision (1e-62, 1e-122, ...) never settles, even where float64
    would read every one of them as 0."""
    from theorems.engine.rules.compare import same_margin

    with mpmath.workdps(60):
        assert not same_margin(mpmath.mpf("1e-482"), mpmath.mpf("1e-961"), mpmath.mpf("1e-522"))
        assert same_margin(mpmath.mpf("1e-482"), mpmath.mpf("1e-482") * (1 + mpmath.mpf("1e-9")), 0.0)


@rule("compare.part_tolerance")
def test_a_difference_below_what_the_inputs_resolve_is_not_a_counterexample() -> None:
    """|v - 1| with v = 1 - e^-5000 (2171 digits to tell from 1) is 0 at every precision the check reaches, while
    e^-5000 on the left is exact: the tolerance includes how far |v - 1| moves with v's own rounding."""
    assert statement(Le(h, sympy.Abs(v - 1)), [{"h": 0.0, "h_mp": "exp(-5000)", "v_exp": 5000}]).verdict == C


@rule("compare.confirmation")
def test_a_digit_loss_inside_a_quantity_is_not_a_counterexample() -> None:
    """e^-900 (1e-391) against 1 - (1 - e^-900), which is 0 at 60, 120 and 240 digits: the same margin at 60 and
    120 digits, but equal at 480 -- a violation is confirmed only once it held up to MAX_DPS digits."""
    assert statement(Le(h, w), [{"h": 0.0, "h_mp": "exp(-900)", "w_cancel": 900}]).verdict == C
    assert statement(Le(h, w), [{"h": 0.0, "h_mp": "2*exp(-900)", "w_cancel": 900}]).verdict == R


@rule("compare.confirmation")
def test_a_violation_that_disappears_at_double_precision_is_not_one() -> None:
    assert statement(Le(h, 1), [{"h": 1.0, "h_mp": 1.0}, {"h": 0.5}]).verdict == C
    from theorems.engine.rules.compare import CONFIRMED, FINER, HOLDS, UNSTABLE, confirmation
    from types import SimpleNamespace as NS

    v = lambda margin: NS(margin=margin, certain_margin=margin, tol=1e-12)  # noqa: E731
    assert confirmation([v(1.0)], [v(-1.0)], last=False) == HOLDS
    assert confirmation([v(1.0)], [v(1.0)], last=False) == CONFIRMED
    assert confirmation([v(1.0)], [v(0.5)], last=False) == FINER
    assert confirmation([v(1.0)], [v(0.5)], last=True) == UNSTABLE
    assert confirmation([v(math.inf)], [v(math.inf)], last=False) == FINER
    assert confirmation([v(math.inf)], [v(math.inf)], last=True) == CONFIRMED


@rule("compare.bracket")
@pytest.mark.parametrize("lo, hi, expected", [(0.5, 1.5, C), (1.2, 1.5, R), (0.2, 0.6, C)])
def test_a_bracket_refutes_only_when_every_end_violates(lo: float, hi: float, expected: Verdict) -> None:
    assert statement(Le(m, 1), [{"m_lo": lo, "m_hi": hi}]).verdict == expected


@rule("statement.unconfirmed_candidate")
@pytest.mark.parametrize("subject, expected", [({"q": 2.0, "no_hp": True}, I), ({"q": 0.5, "no_hp": True}, C),
                                               ({"q": 2.0}, R)])
def test_a_candidate_no_high_precision_value_can_decide_leaves_the_claim_inconclusive(subject: dict,
                                                                                       expected: Verdict) -> None:
    result = statement(Le(q, 1), [subject])
    assert result.verdict == expected, result.reason
    if expected == I:
        assert result.reason.startswith("unconfirmed violation") and "no high-precision value" in result.reason


@rule("compare.candidate")
def test_a_float64_overflow_is_decided_at_high_precision() -> None:
    """inf <= inf in float64, 1e400 <= 1e399 at 60 digits: a drawn subject whose float side overflowed is confirmed,
    never decided in the extended reals from its float values."""
    overflow = {"h": math.inf, "h_mp": "10**400", "u_float": math.inf, "u": "10**399"}
    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(h, u)), subjects=(Drawn([overflow]),))
    assert check_claim(claim, Budget(examples=3, adversarial_starts=0, adversarial_steps=0, quick=True,
                                     tightness_starts=0)).verdict == R


@rule("compare.candidate")
def test_a_best_subject_is_evaluated_at_high_precision_whatever_the_screen_says() -> None:
    """A drawn subject the screen passes (0.5 <= 1 in float64, 2 <= 1 at 60 digits) is the part's best ratio: it is
    confirmed before the verdict, never judged on its float values alone."""
    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(h, 1)), subjects=(Drawn([{"h": 0.5, "h_mp": "2"}]),))
    assert check_claim(claim, Budget(examples=3, adversarial_starts=0, adversarial_steps=0, quick=True,
                                     tightness_starts=0)).verdict == R


@rule("compare.candidate")
def test_a_listed_example_is_evaluated_at_high_precision_whatever_the_screen_says() -> None:
    """-2 <= -1 in float64, 0 <= -1 at 60 digits (no ratio: the larger side is negative, so no tightness pass looks)."""
    assert statement(Le(h, -1), [{"h": -2.0, "h_mp": "0"}]).verdict == R


@rule("compare.extended_reals")
@pytest.mark.parametrize("relation, subject, expected", [
    (Le(q, 1), {"q": math.inf}, R),  # inf <= 1 is false: decided exactly
    (Le(r, q), {"q": -math.inf, "r": 0.0}, R),  # 0 <= -inf is false
    (Lt(q, r), {"q": 1.0, "r": math.inf}, U),  # 1 < inf holds, exactly: never informative
    (Lt(q, r), {"q": math.inf, "r": math.inf}, R),  # inf < inf is false
    (Le(q, r), {"q": math.inf, "r": math.inf}, U),  # inf <= inf holds
])
def test_infinite_sides_are_decided_in_the_extended_reals(relation: Any, subject: dict, expected: Verdict) -> None:
    assert statement(relation, [subject]).verdict == expected


@rule("compare.part_tolerance")
@pytest.mark.parametrize("relation, subject, expected", [
    (Le(q, q / 2), {"q": 1e-13}, R),  # false by a factor of 2 at a tiny scale: no absolute floor hides it
    (Le(q, q / 2), {"q": 1e200}, R),  # and at a huge one
    (Le(q, 0), {"q": 1e-13}, R),
    (Le(q, 0), {"q": 1e-300}, R),
    (Lt(0, q), {"q": 1e-13}, C),  # a true strict statement near zero holds
    (Lt(0, q), {"q": 1e-300}, C),
    (Lt(0, q), {"q": 0.0}, R),  # 0 < 0 is false: an exact tie of a strict part
    (Le(h, 0), {"h": 0.0, "h_mp": "10**-400"}, R),  # 0 in float64, 1e-400 at 60 digits: decided at 60 digits
    (Le(q * (1 + sympy.Rational(1, 10**12)), q), {"q": 1e-4}, C),  # a float input: judged at the float resolution
])
def test_the_tolerance_is_relative_to_the_terms_at_every_scale(relation: Any, subject: dict, expected: Verdict) -> None:
    assert statement(relation, [subject]).verdict == expected


@rule("compare.part_tolerance")
@pytest.mark.parametrize("relation, subject, expected", [
    (sympy.Eq(res, 0, evaluate=False), {"terms": 1e6}, C),  # a rounding residue of terms of size 1e6: within tol
    (sympy.Eq(res, 0, evaluate=False), {"terms": 1.0, "res": 1e-6, "res_mp": "10**-6"}, R),  # a residue that is real
    (sympy.Eq(res, 0, evaluate=False), {"terms": 1e-30, "res": 1e-6, "res_mp": "10**-6"}, R),  # at a tiny scale too
    (sympy.Eq(res, 0, evaluate=False), {"terms": 1.0, "res": 1e-17, "res_mp": "10**-30"}, R),  # beyond 60 digits' tol
    (Le(res, 1), {"terms": 1e6, "res": 1e-3, "res_mp": "10**-3"}, R),  # the scale never loosens a bound: 1000 <= 1
])
def test_a_residue_quantity_is_judged_against_its_declared_scale(relation: Any, subject: dict,
                                                                  expected: Verdict) -> None:
    """``quantity(..., scale=terms)``: the part's scale includes the magnitude of the terms the residue is a
    difference of, so its own rounding is within the tolerance, and a residue the evaluation resolves is not."""
    assert statement(relation, [subject]).verdict == expected


@rule("compare.part_tolerance")
def test_a_residue_without_a_declared_scale_is_only_dismissed_by_doubling_the_precision() -> None:
    """The same rounding residue, no scale: its scale is itself, so it reads as a violation at 60 digits that only
    the doublings up to MAX_DPS show unstable -- never a counterexample, but never dismissed by the tolerance."""
    from theorems.engine.probe import probe
    from theorems.engine.rules.compare import MAX_DPS

    subject = {"terms": 1e6}
    for residue, settled_at in ((res, None), (res_bare, MAX_DPS)):
        claim = Claim("t.rule", Kind.IDENTITY, SRC, parts(sympy.Eq(residue, 0, evaluate=False)),
                      subjects=(Points([subject]),))
        p = probe(claim, claim.subjects[0], subject, force_confirm=True)
        assert not p.violated and (p.dps == settled_at if settled_at else p.dps == 60 and not p.unstable), residue
        assert p.unstable == (settled_at is not None)


def test_a_scale_must_be_a_positive_number_or_an_expression_of_quantities() -> None:
    for bad in ("terms", -1, 0, sympy.Symbol("x_plain"), sympy.I):
        with pytest.raises(ClaimError, match="scale="):
            quantity("residue_bad", range=(0, None), scale=bad)
    assert quantity("residue_ok", range=(0, None), scale=2 * terms + 1).quantity.scale == 2 * terms + 1


def test_a_family_that_cannot_compute_a_residue_s_scale_is_refused() -> None:
    class NoTerms(Points):
        symbols = frozenset({res})

    with pytest.raises(ClaimError, match="cannot compute terms_rule"):
        Claim("t.rule", Kind.IDENTITY, SRC, parts(sympy.Eq(res, 0, evaluate=False)), subjects=(NoTerms([{}]),))


@rule("compare.part_tolerance", "compare.float_valued")
@pytest.mark.parametrize("h_mp, expected", [
    ("1/3", R),  # computed at 60 digits: violated by 1e-20 relative, far beyond the 60-digit resolution
    (1 / 3, C),  # a float64 number (computed in floats, or an input): its rounding is not a counterexample
])
def test_a_violation_beyond_the_high_precision_resolution_counts_and_float_rounding_does_not(
        h_mp: Any, expected: Verdict) -> None:
    bound = sympy.Rational(1, 3) - sympy.Rational(1, 10**20) / 3
    assert statement(Le(h, bound), [{"h": 1 / 3, "h_mp": h_mp}]).verdict == expected


@rule("compare.float_valued")
def test_which_values_count_as_float_computed() -> None:
    from theorems.engine.rules.compare import float_valued

    with mpmath.workdps(60):
        assert float_valued(mpmath.mpf(1 / 3)) and not float_valued(mpmath.mpf(1) / 3)
        assert not float_valued(mpmath.mpf(3)) and not float_valued(mpmath.inf)  # integers are exact
        assert float_valued(np.array([mpmath.mpf(2), mpmath.mpf(0.1)])) and float_valued(Enclosure(0.0, 1.0))


@rule("compare.strict", "compare.strict_tie")
def test_a_strict_part_within_the_tolerance_is_refuted_only_by_a_tie() -> None:
    """a < b within tol of its boundary is a candidate (the shift of compare.strict); it is refuted only when the
    sides tie -- the margin vanishes as the precision doubles -- never by a gap that stays (1e-50 at every precision,
    or a float input's 2.5e-10): those hold, at a resolution the report states."""
    from theorems.engine.rules.compare import strict_margin, strict_tie

    assert strict_margin(-1.0, 0.25) == -0.5
    assert statement(Lt(q, 1), [{"q": 1 - 0.5 * tol_at(1.0)}]).verdict == C  # a float gap that stays
    assert statement(Lt(h, 1), [{"h": 1.0, "h_mp": "1 - 10**-50"}]).verdict == C  # a real gap below RTOL_HP
    assert statement(Lt(h, 1), [{"h": 1.0, "h_mp": "1"}]).verdict == R  # an exact tie at every precision
    assert statement(Lt(h, 1), [{"h": 1.0, "h_mp": "1 + 10**-50"}]).verdict == C  # above b by less than tol: not a tie
    assert strict_tie(mpmath.mpf("1e-60"), mpmath.mpf("1e-120"), 1e-40, 120)  # noise shrinking with the digits
    assert strict_tie(0, 0, 1e-40, 120) and not strict_tie(mpmath.mpf("1e-50"), mpmath.mpf("1e-50"), 1e-40, 240)


# -- measured relations of experiments -------------------------------------------------------------------------

def measured_run(*outcomes: Any) -> Verdict:
    return experiment([Observation({"fact": "f"}, tuple(outcomes))]).verdict


@rule("compare.measured")
@pytest.mark.parametrize("build, expected", [
    (lambda: at_most(1.0 + 5e-7, 1.0, error=1e-6), C),  # within the stated error of each side
    (lambda: at_most(1.0 + 1.5e-6, 1.0, error=1e-6), C),  # each side may be off by the error: 2 errors in all
    (lambda: at_most(1.0 + 3e-6, 1.0, error=1e-6), R),
    (lambda: at_most(1.0 + 1e-6, 1.0), R),  # no error stated: the tolerance alone
    (lambda: at_most(1.0 + tol_at(1.0) / 2, 1.0), C),
    (lambda: at_most(10 ** 20 + 1, 10 ** 20), R),  # integers are compared exactly, however large
    (lambda: equal(Fraction(1, 3), Fraction(1, 3)), C),
    (lambda: at_most(0.5, 1.0) & at_most(2.0, 1.0), R),  # every item of a conjunction must hold
    (lambda: at_most(Enclosure(0.5, 1.5), 1.0), C),  # a bracket fails only when every end does
    (lambda: at_most(Enclosure(1.2, 1.5), 1.0), R),
    (lambda: below(1.0, 1.0 + tol_at(1.0)), R),  # strict: by more than the tolerance
    (lambda: at_least(2.0, math.inf), R),
])
def test_a_measured_relation_is_decided_by_the_engine(build: Any, expected: Verdict) -> None:
    assert measured_run(build()) == expected


@rule("compare.measured")
@pytest.mark.parametrize("bad", [math.nan, "False", 0.0, np.float64(1.0)])
def test_an_outcome_that_is_no_outcome_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="outcome"):
        Observation({"fact": "f"}, (bad,))
    with pytest.raises(ValueError, match="NaN"):
        decide(at_most(math.nan, 1.0))


def test_one_seed_read_twice_is_not_two_runs() -> None:
    with pytest.raises(ValueError, match="repeat"):
        Observation({}, (True,) * MIN_SEEDS, (0,) * MIN_SEEDS)


@rule("experiment.observation", "compare.measured")
def test_a_measured_regime_check_and_baseline_are_decided_by_the_engine() -> None:
    inside = RegimeCheck("width", "m >> d", 10.0, "m >= 10", at_least(10.0 - tol_at(10.0) / 2, 10.0))
    outside = RegimeCheck("width", "m >> d", 9.0, "m >= 10", at_least(9.0, 10.0))
    assert observation_verdict(Observation({}, (True,) * MIN_SEEDS, SEEDS, regime=(inside,)))[0] == C
    assert observation_verdict(Observation({}, (True,) * MIN_SEEDS, SEEDS, regime=(outside,)))[0] == U
    assert observation_verdict(Observation({}, (True,) * MIN_SEEDS, SEEDS, at_init=at_most(0.5, 1.0)))[0] == U
    assert observation_verdict(Observation({}, (True,) * MIN_SEEDS, SEEDS, at_init=at_most(1.5, 1.0)))[0] == C


# -- informative subjects at the edges of the trivial range --------------------------------------------------

@rule("informative.range")
@pytest.mark.parametrize("relation, expected", [
    (Le(e, 1), V),  # a bound equal to the trivial maximum cannot bind
    (Le(e, 1 - tol_at(1.0) / 2), V),  # nor one within the tolerance of it
    (Le(0, e), V),  # nor one equal to the trivial minimum
    (Lt(e, 1), C),  # a strict bound at the maximum can fail (e = 1): informative
    (Le(e, 0.99), C),
])
def test_a_bound_at_its_trivial_value_is_vacuous(relation: Any, expected: Verdict) -> None:
    assert statement(relation, [{"e": 0.3}, {"e": 0.9}]).verdict == expected


@rule("informative.never_binds")
def test_a_bound_that_binds_on_some_subject_is_not_vacuous() -> None:
    assert statement(Le(e, q), [{"e": 0.3, "q": 2.0}, {"e": 0.3, "q": 0.9}]).verdict == C


@rule("informative.range")
def test_a_side_decided_at_infinity_is_never_evidence() -> None:
    assert statement(Le(q, r), [{"q": 1.0, "r": math.inf}]).verdict == U


# -- the statement cascade, rule by rule ------------------------------------------------------------------------

@rule("statement.hypotheses_unsatisfiable")
def test_a_failed_certificate_of_unsatisfiable_hypotheses_proves_nothing() -> None:
    assert statement(Le(q, 1), [{"q": 0.5}], unsatisfiable=(lambda: cert(ok=False),)).verdict == C


@rule("statement.premise_never_met", "statement.nothing_drawn")
def test_subjects_rejected_by_the_hypotheses_are_not_nothing_drawn() -> None:
    result = statement(Le(q, 1), [{"q": 5.0}], assumptions=(Assumption("small", "q <= 1", lambda s: s["q"] <= 1),))
    assert result.rule == "statement.premise_never_met" and "no drawn subject satisfied" in result.reason


@rule("statement.proof_chain")
def test_a_chain_of_certified_steps_that_does_not_compose_proves_nothing() -> None:
    from theorems.engine import registry

    claim = Claim("t.nocompose", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),))
    proof = Proof("t.nocompose", (Step("q <= b", Le(q, b), certificates=(lambda: cert(),)),
                                  Step("c <= 1", Le(c_, 1), certificates=(lambda: cert(),))))
    with registry.isolated() as reg:
        reg.proof(proof)
        result = check_claim(claim, NONE)
    assert result.verdict == C and result.proof_chains[0]["chain_composes"] is False


@rule("statement.closed_violation", "statement.certified", "compare.enclosure")
@pytest.mark.parametrize("relation, expected", [
    (Le(sympy.log(3), 1), R),  # log 3 = 1.0986...: false, no subject needed
    (Le(sympy.log(2), 1), P),  # proved by the enclosure
    (sympy.Eq(sympy.log(4), 2 * sympy.log(2), evaluate=False), P),  # an exact identity
    (Lt(sympy.pi, sympy.Rational(22, 7)), P), (Lt(sympy.Rational(22, 7), sympy.pi), R),
    (Lt(2 * sympy.log(2), sympy.log(4)), R),  # an exact tie: a < a is false
    (Le(sympy.log(1 + sympy.Rational(1, 10**100)), 0), U),  # false by 1e-100: the enclosure straddles 0, undecided
])
def test_a_closed_statement_is_decided_without_subjects(relation: Any, expected: Verdict) -> None:
    from theorems.engine.witness import replay_closed

    claim = Claim("t.closed", Kind.INEQUALITY, SRC, parts(relation))
    result = check_claim(claim, NONE)
    assert result.verdict == expected, result.reason
    if expected == R:
        assert result.witness["kind"] == "closed" and replay_closed(result.witness, claim).holds is False


@rule("statement.nothing_drawn", "statement.uninformative")
def test_nothing_drawn_is_untested_and_says_so() -> None:
    result = statement(Le(q, 1), [])
    assert result.verdict == U and result.reason.startswith("nothing was drawn") and result.rule == "statement.nothing_drawn"


@rule("statement.certified", "statement.part_status")
def test_one_certified_part_does_not_prove_the_other() -> None:
    partial = Certificate(method="sympy", statement="s", domain="all n", ok=True, complete=True, parts=("a",))
    result = statement(parts(Le(q, 1), Le(q, 2), labels=["a", "b"]), [{"q": 0.5}], certificates=(lambda: partial,))
    assert result.verdict == C and result.part_status == {"a": "certified", "b": "tested"}


@rule("statement.part_status")
def test_part_statuses_name_refuted_ranges_and_uninformative_parts() -> None:
    wrong = statement(Le(q, 1), [{"q": 5.0}], certificates=(lambda: cert(),))
    assert wrong.verdict == R and wrong.part_status == {"q_rule <= 1": "refuted"}
    ranged = statement(Le(q, 1), [{"q": 0.5}], certificates=(lambda: cert(complete=False),))
    assert ranged.part_status == {"q_rule <= 1": "certified on a range"}
    trivial = statement(Le(e, 2), [{"e": 0.5}])
    assert trivial.part_status == {"e_rule <= 2": "tested on uninformative subjects only"}


@rule("statement.confirmed_violation")
def test_the_deciding_rule_is_named() -> None:
    assert statement(Le(q, 1), [{"q": 5.0}]).rule == "statement.confirmed_violation"
    assert statement(Le(q, 1), [{"q": 0.5}]).rule == "statement.informative"


@rule("statement.proof_chain", "statement.modulo")
def test_a_chain_resting_on_fewer_results_than_the_certificate_sets_the_modulo() -> None:
    from theorems.engine import registry

    named = NamedResult("Jensen (chain row)", "f(E X) <= E f(X)", ("f convex",))
    claim, proof = _chain_claim(named, "t.chainmod")
    claim = Claim("t.chainmod", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                  certificates=(lambda: modulo_cert("A", "B"),))
    with registry.isolated() as reg:
        reg.proof(proof)
        result = check_claim(claim, NONE)
    assert (result.verdict, result.modulo) == (P, ["Jensen (chain row)"])


@rule("statement.proof_chain")
def test_a_certified_chain_does_not_override_a_violation() -> None:
    from theorems.engine import registry

    named = NamedResult("Jensen (violated row)", "f(E X) <= E f(X)", ("f convex",))
    claim, proof = _chain_claim(named, "t.chainviol")
    claim = Claim("t.chainviol", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 5.0}]),))
    with registry.isolated() as reg:
        reg.proof(proof)
        result = check_claim(claim, NONE)
    assert result.verdict == R and result.part_status == {"q_rule <= 1": "refuted"}


# -- proof steps -------------------------------------------------------------------------------------------------

@rule("proof.certificates", "proof.chain_certified")
@pytest.mark.parametrize("step_certificate, verdict, modulo", [
    (lambda: cert(complete=False), C, []),  # a finite-range certificate does not certify a step
    (lambda: modulo_cert("Taylor (test)"), P, ["Taylor (test)"]),  # a step resting on a named result: modulo it
    (lambda: cert(), P, []),
])
def test_a_chain_step_is_certified_only_on_its_whole_domain(step_certificate: Any, verdict: Verdict,
                                                             modulo: list[str]) -> None:
    from theorems.engine import registry

    cid = f"t.step{id(step_certificate)}"
    claim = Claim(cid, Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),))
    proof = Proof(cid, (Step("q <= b", Le(q, b), certificates=(lambda: cert(),)),
                        Step("b <= 1", Le(b, 1), certificates=(step_certificate,))))
    with registry.isolated() as reg:
        reg.proof(proof)
        result = check_claim(claim, NONE)
    assert (result.verdict, result.modulo) == (verdict, modulo)


@rule("proof.named_result")
def test_a_named_result_step_is_certified_outright_only_with_every_proof_complete() -> None:
    from theorems.engine.rules.proof import named_status

    S = StepStatus
    assert named_status([cert()], cert()) == S.CERTIFIED
    assert named_status([cert(complete=False)], cert()) == S.NAMED  # a hypothesis certified on a range only
    assert named_status([cert()], modulo_cert("X")) == S.NAMED  # the result's proof rests on another
    assert named_status([cert()], None) == S.NAMED
    assert named_status([cert(ok=False)], cert()) == S.UNCHECKED


@rule("proof.certificate_key", "proof.cited", "proof.combine", "proof.verdict_step", "proof.part_step",
      "proof.numeric_step", "proof.chain_certified", "proof.refuted_verdict")
def test_step_statuses_from_their_checks() -> None:
    from theorems.engine.rules import proof as pr

    S = StepStatus
    assert [pr.certificate_status(c) for c in (cert(), cert(complete=False), cert(ok=False), modulo_cert("X"))] == \
        [S.CERTIFIED, S.TESTED, S.UNCHECKED, S.NAMED]
    assert (pr.cited_status([]), pr.cited_status(["x"])) == (S.ASSUMPTION, S.UNCHECKED)
    assert pr.combine([]) == S.UNCHECKED and pr.combine([S.CERTIFIED, S.REFUTED]) == S.REFUTED
    assert pr.combine([S.CERTIFIED, S.CERTIFIED]) == S.CERTIFIED and pr.combine([S.CERTIFIED, S.NAMED]) == S.NAMED
    assert pr.combine([S.CERTIFIED, S.TESTED]) == S.TESTED and pr.combine([S.UNCHECKED, S.NAMED]) == S.TESTED
    assert pr.combine([S.UNCHECKED, S.ASSUMPTION]) == S.UNCHECKED
    assert [pr.verdict_step(v) for v in (P, C, R, I, None)] == [S.CERTIFIED, S.TESTED, S.REFUTED, S.UNCHECKED,
                                                                 S.UNCHECKED]
    from theorems.engine.verdict import PartStatus as PS
    assert [pr.part_step(p) for p in (PS.CERTIFIED, PS.CERTIFIED_ON_RANGE, PS.TESTED, PS.TRIVIAL, PS.REFUTED)] == \
        [S.CERTIFIED, S.TESTED, S.TESTED, S.UNCHECKED, S.REFUTED]
    assert pr.numeric_step(S.CERTIFIED, True, C) == S.REFUTED and pr.numeric_step(S.UNCHECKED, False, C) == S.TESTED
    assert pr.numeric_step(S.UNCHECKED, False, I) == S.UNCHECKED and pr.numeric_step(S.NAMED, False, C) == S.NAMED
    assert pr.chain_certified([S.CERTIFIED, S.NAMED, S.ASSUMPTION]) and not pr.chain_certified([S.CERTIFIED, S.TESTED])
    assert pr.is_refuted(R) and not pr.is_refuted(C)


# -- experiments: certificates, replay ----------------------------------------------------------------------------

@rule("experiment.certified")
def test_one_finite_range_certificate_among_complete_ones_keeps_an_experiment_consistent() -> None:
    assert experiment([obs(C)], certificates=[cert(), cert(complete=False)]).verdict == C
    assert experiment([obs(C)], certificates=[cert(), cert(ok=False)]).verdict == C


@rule("experiment.still_refutes")
def test_a_recorded_configuration_refutes_only_inside_the_regime() -> None:
    from theorems.engine.rules.experiment import Judgement, still_refutes

    judged = Judgement(R, "", rows=[{"config": {"c": 1}, "verdict": R, "in_regime": False}])
    assert not still_refutes(judged, [], {"config": {"c": 1}})
    judged.rows[0]["in_regime"] = True
    assert still_refutes(judged, [], {"config": {"c": 1}}) and not still_refutes(judged, [], {"config": {"c": 2}})
    assert still_refutes(judged, [growing()], {"growth": "ratio along k"})
    assert not still_refutes(judged, [measured()], {"growth": "ratio along k"})


@rule("experiment.claim")
def test_an_existence_claim_is_never_refuted_by_its_own_search_and_names_its_rule() -> None:
    result = experiment([obs(R)], "exists")
    assert result.verdict == U and result.rule == "experiment.claim"


# -- the gate and the kinds ---------------------------------------------------------------------------------------

@rule("gate.expected")
@pytest.mark.parametrize("verdict, recorded, still, vacuity, expected", [
    (R, True, True, False, True),
    (R, True, False, False, False),  # a recorded witness that no longer refutes fails the gate
    (C, True, False, False, False),
    (C, False, False, False, True), (P, False, False, False, True),
    (R, False, False, False, False),
    (V, False, False, True, True), (V, False, False, False, False),
    (U, False, False, False, True), (I, False, False, False, True),  # undecided: reported, not failed
    (I, True, False, False, True),  # undecided against a recorded refutation: reported, not failed (strict fails it)
    (Verdict.ERROR, False, False, False, False),
])
def test_what_the_repository_expects(verdict: Verdict, recorded: bool, still: bool, vacuity: bool,
                                     expected: bool) -> None:
    from theorems.engine.rules.gate import expected as expected_rule

    assert expected_rule(verdict, recorded, still, vacuity)[0] == expected


@rule("gate.outcome")
def test_the_gate_fails_unexpected_verdicts_and_undecided_ones_only_when_strict() -> None:
    from types import SimpleNamespace as NS
    from theorems.engine.rules.gate import gate

    assert [gate(NS(verdict=v, expected=x)) for v, x in ((C, True), (U, True), (R, False))] == \
        ["pass", "undecided", "fail"]
    assert gate(NS(verdict=U, expected=True), strict=True) == "fail"
    assert gate(NS(verdict=C, expected=True), strict=True) == "pass"


@rule("claim.not_encodable", "claim.definition", "claim.error", "claim.pending")
def test_verdicts_fixed_by_the_kind_of_claim() -> None:
    from theorems.engine.claim import DefinitionClaim, UnencodableClaim

    lost = check_claim(UnencodableClaim("t.lost", Kind.INEQUALITY, SRC, reason="the display is lost"), NONE)
    defn = check_claim(DefinitionClaim("t.def", Kind.DEFINITION, SRC, defines="sigma"), NONE)
    assert (lost.verdict.value, lost.reason, defn.verdict.value) == ("not_encodable", "the display is lost", "definition")
    boom = Claim("t.boom", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": "x"}]),))
    result = check_claim(boom, NONE)
    assert result.verdict == Verdict.ERROR and not result.expected
    from theorems.engine.check import blank_result
    assert blank_result(boom, 0).verdict == U


@rule("claim.reconstructed")
def test_a_reconstructed_statement_is_marked_and_counted_apart() -> None:
    """A claim whose statement is the checker's reconstruction carries the mark on its verdict (proved, refuted,
    consistent alike), in its readings and in the counts; a lost statement (not_encodable) carries none; the
    coverage counts a statement checked only through reconstructions apart from the covered ones."""
    from theorems.engine.claim import UnencodableClaim
    from theorems.engine.coverage import Row, Statement, counts
    from theorems.frontend.report import verdict_counts

    guess = "the bound's constant, inferred from the proof's last line"
    held = check_claim(Claim("t.rec", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                             reconstructed=guess), NONE)
    failed = check_claim(Claim("t.rec2", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 3.0}]),),
                               reconstructed=guess), NONE)
    plain = check_claim(Claim("t.plain", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),)),
                        NONE)
    lost = check_claim(UnencodableClaim("t.lost", Kind.INEQUALITY, SRC, reason="lost", reconstructed=guess), NONE)
    assert held.verdict == C and held.verdict_label == f"consistent (reconstructed: {guess})"
    assert failed.verdict == R and failed.verdict_label.endswith(f"(reconstructed: {guess})")
    assert held.readings[0]["reconstructed"] == guess and not plain.reconstructed and not lost.reconstructed
    assert verdict_counts([held, plain, failed]) == "consistent 1, consistent (reconstructed) 1, refuted (reconstructed) 1"
    rows = [Row("f", Statement("Lemma", "1", 1), ["t.rec"]), Row("f", Statement("Lemma", "2", 2), ["t.rec", "t.plain"]),
            Row("f", Statement("Lemma", "3", 3), []), Row("f", Statement("Lemma", "4", 4), ["t.part"])]
    n = counts(rows, {"t.rec": "consistent", "t.plain": "consistent", "t.part": "consistent"}, ["t.rec"], ["t.part"])
    assert (n["covered"], n["reconstructed"], n["qualitative"], n["missing"]) == (1, 1, 1, 1)


@rule("claim.qualitative")
def test_a_check_of_the_surviving_content_only_is_marked_and_counted_apart() -> None:
    from theorems.frontend.report import verdict_counts

    what = "the direction survives (the bound decreases in beta); its constant is lost"
    part = check_claim(Claim("t.part", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                             qualitative=what), NONE)
    assert part.verdict == C and part.verdict_label == f"consistent (qualitative: {what})"
    assert part.readings[0]["qualitative"] == what and verdict_counts([part]) == "consistent (qualitative) 1"


@rule("claim.by_construction")
def test_checks_that_hold_by_construction_are_marked_on_the_verdict_and_counted_apart() -> None:
    """A check that holds by the checker's own construction is no evidence: the claim's verdict carries the mark
    (each reason once) whether it is decided by other checks or left untested, report.json lists it among the marks,
    the counts keep it apart, and the coverage counts a statement checked only by such claims apart."""
    from theorems.engine.claim import UnencodableClaim
    from theorems.engine.coverage import Row, Statement, counts
    from theorems.engine.rules.kinds import by_construction_mark
    from theorems.frontend.report import verdict_counts

    why = "the bound is the triangle inequality applied to the checker's own rate"
    built = Observation({"model": 1}, (True,) * MIN_SEEDS, SEEDS, by_construction=why)
    with_evidence = experiment([obs(C), built, Observation({"model": 2}, (True,), by_construction=why)])
    only_built = experiment([built])
    plain = experiment([obs(C)])
    assert with_evidence.verdict == C and with_evidence.by_construction == why
    assert with_evidence.verdict_label == f"consistent (checks by construction, no evidence: {why})"
    assert only_built.verdict == U and only_built.marks == ["by construction"] and not plain.by_construction
    assert with_evidence.to_json()["marks"] == ["by construction"] and plain.to_json()["marks"] == []
    assert with_evidence.readings[0]["by_construction"] == why
    assert verdict_counts([with_evidence, only_built, plain]) == (
        "consistent 1, consistent (checks by construction) 1, untested (checks by construction) 1")
    lost = check_claim(UnencodableClaim("t.lost", Kind.INEQUALITY, SRC, reason="lost"), NONE)
    assert by_construction_mark(lost.verdict, [why]) == "" and by_construction_mark(C, ["", "  "]) == ""
    rows = [Row("f", Statement("Lemma", "1", 1), ["t.built"]), Row("f", Statement("Lemma", "2", 2), ["t.built", "t.ok"])]
    n = counts(rows, {"t.built": "untested", "t.ok": "consistent"}, by_construction=["t.built"])
    assert (n["covered"], n["by_construction"]) == (1, 1)


@rule("mutate.outcome")
@pytest.mark.parametrize("verdicts, shown, outcome", [
    ([C, R], "", "killed"),  # refuted at one seed: killed, whatever the others say
    ([R], "implied by a certified bound", "killed"),  # a refutation outranks a certificate (the encoding is wrong)
    ([C, C], "implied by a certified bound", "true"),  # never refuted, and a certificate shows it true
    ([C, U], "", "survived"),  # never refuted, nothing shows it true: a miss of the search
    ([C, Verdict.ERROR], "", "error"),  # a seed's check failed
    ([], "", "error"),  # no verdict at all: its worker died
    ([V, U], "", "uninformative"),  # the strengthened bound never binds: no measure of the search, and no miss
])
def test_a_mutant_is_killed_by_any_refutation_and_true_only_when_a_certificate_shows_it(
        verdicts: list, shown: str, outcome: str) -> None:
    from theorems.engine.rules.mutate import mutant_outcome
    assert mutant_outcome(verdicts, shown) == outcome
    assert mutant_outcome([], "", replayed=True) == "killed"  # a weaker mutant's witness violates it too


@rule("mutate.sensitivity")
def test_a_parts_sensitivity_is_its_smallest_refuted_move_and_a_true_mutant_is_never_a_miss() -> None:
    from theorems.engine.rules.mutate import sensitivity, sensitivity_text

    rows = [{"kind": "constant", "amount": "1/100", "outcome": "survived"},
            {"kind": "constant", "amount": "1/20", "outcome": "killed"},
            {"kind": "constant", "amount": "1/5", "outcome": "killed"},
            {"kind": "exponent", "amount": "1/10", "outcome": "true"},
            {"kind": "drop term", "amount": "0", "outcome": "killed"}]
    s = sensitivity(rows)
    assert (s["refuted_at"], s["survives_at"], s["killed"], s["true"], s["survived"], s["mutants"]) == (
        "1/20", "1/100", 3, 1, 1, 5)
    vacuous = sensitivity([{"kind": "constant", "amount": "1/5", "outcome": "uninformative"}])
    assert vacuous["survives_at"] is None and vacuous["uninformative"] == 1
    assert sensitivity_text(s).startswith("a 5 % strengthening is refuted by this search; a 1 % strengthening survives")
    only_true = sensitivity([{"kind": "constant", "amount": "1/5", "outcome": "true"}])
    assert only_true["survives_at"] is None and only_true["refuted_at"] is None
    assert sensitivity_text(only_true).startswith("every strengthening shown true")
    assert sensitivity_text(sensitivity([{"kind": "strict", "amount": "0", "outcome": "killed"}])).startswith(
        "every strengthening refuted (")
    assert sensitivity_text(sensitivity([{"kind": "drop term", "amount": "0", "outcome": "killed"},
                                         {"kind": "constant", "amount": "1/5", "outcome": "true"}])).startswith(
        "every strengthening refuted or shown true")
    assert sensitivity_text(None).startswith("sensitivity not measured")


def test_a_sharp_constant_resting_on_named_results_says_so() -> None:
    from theorems import Sharp

    claim = Claim("t.sharp", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]),
                  subjects=(Points([{"q": 0.5}]),),
                  sharp=(Sharp("q <= 2", "2", "3/2", certified=True, sides=(q, sympy.Rational(3, 2)),
                               certificates=(lambda: cert(modulo=("Rayleigh-Ritz",)),)),))
    (shown,) = check_claim(claim, NONE).tightness[0]["sharp_constants"]
    assert shown["certified"] and shown["modulo"] == ["Rayleigh-Ritz"] and "(certified modulo: Rayleigh-Ritz)" in shown["text"]


# -- the table itself ---------------------------------------------------------------------------------------------

def test_every_rule_has_a_row_and_every_row_names_a_rule() -> None:
    """Each rule of the authority is pinned by at least one test of this file (``@rule(...)``), and a mark names
    only rules that exist."""
    import ast
    from pathlib import Path

    from theorems.engine.rules import RULES

    tree = ast.parse(Path(__file__).read_text())
    marked = {arg.value for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "rule"
              for arg in node.args if isinstance(arg, ast.Constant)}
    assert not (set(RULES) - marked), f"rules without a row: {sorted(set(RULES) - marked)}"
    assert not (marked - set(RULES)), f"rows naming no rule: {sorted(marked - set(RULES))}"
    assert all(r.doc and r.room == name.split(".")[0] for name, r in RULES.items())


def test_a_recorded_subject_violating_only_parts_refuted_often_enough_is_left_provisional() -> None:
    """Once a part is confirmed violated on ENOUGH_VIOLATIONS subjects, a subject a search only records (an adversarial
    or tightness end point) that violates that part alone is not settled up to MAX_DPS digits again: it stays a
    provisional, unconfirmed candidate. A subject violating any other part, or probed by a step that depends on the
    answer (a random draw, a shrink), is settled as before."""
    from theorems.engine.probe import ENOUGH_VIOLATIONS, Tracker
    from theorems.engine.rules.compare import CONFIRM_DPS, MAX_DPS

    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(q, 1), Le(r, 1)), subjects=(Points([]),))
    family, tracker = claim.subjects[0], Tracker(claim)
    for i in range(ENOUGH_VIOLATIONS):
        assert not tracker.refuted_enough()
        tracker.record(tracker.probe(family, {"q": 2.0 + i}, record_only=True))  # settled: q <= 1 not yet refuted enough
    assert len(tracker.violations) == ENOUGH_VIOLATIONS and tracker.refuted_enough() == {str(claim.statement[0])}
    alone = tracker.probe(family, {"q": 9.0}, record_only=True)
    assert alone.provisional and not alone.violated and alone.dps == CONFIRM_DPS and tracker.unconfirmed == 1
    both = tracker.probe(family, {"q": 9.0, "r": 5.0}, record_only=True)  # r <= 1 is violated for the first time
    assert both.violated and not both.provisional and both.dps == MAX_DPS
    drawn = tracker.probe(family, {"q": 9.0})  # a step that depends on the answer: always settled
    assert drawn.violated and drawn.dps == MAX_DPS
    tracker.record(alone)
    assert len(tracker.violations) == ENOUGH_VIOLATIONS  # a provisional violation is never counted as one
