"""The engine's verdict rules, one small synthetic claim per rule (issue 27, item 8).

Each row builds the smallest claim on which one rule decides the verdict, and each rule was broken by
hand once to see its row fail (the closing note of issue 27 lists the breakages and the rows that
caught them). The subjects are fixed lists, so no row depends on a search's luck: the rules are about
what the engine does with evidence, not about finding it.
"""

from __future__ import annotations

import math
from typing import Any, Iterable

import mpmath
import numpy as np
import pytest
import sympy

from numerics.certificate import Certificate, covering
from theorems import (Assumption, Claim, ExperimentClaim, ExperimentOutcome, Growth, Informative, Kind, Le, Lt,
                      Observation, Part, Reading, RegimeCheck, Source, exists, forall, parts, quantity)
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.errors import ClaimError
from theorems.engine.family import SubjectFamily
from theorems.engine.logic import disagree
from theorems.engine.proof import Instance, NamedResult, Proof, Step
from theorems.engine.proof_check import compose
from theorems.engine.rules import MIN_SEEDS, growth_verdict, map_witness, observation_verdict, read_map
from theorems.engine.tolerance import ATOL, RTOL
from theorems.engine.verdict import Verdict

SRC = Source("test", "test")
NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)
C, R, I, U, P, V = (Verdict.CONSISTENT, Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.UNTESTED, Verdict.PROVED,
                    Verdict.VACUOUS)

q = quantity("q_rule", range=(None, None), doc="the subject's value")
e = quantity("e_rule", range=(0, 1), doc="an error rate: trivially in [0, 1]")
g = quantity("g_rule", range=(None, None), doc="a value that depends on the working precision")


class Points(SubjectFamily):
    """A fixed list of subjects (dicts of floats): q and e are the subject's values; g shifts with the
    precision it is computed at (1 + 10 / dps in mpmath), so it never settles."""

    name = "fixed points"
    symbols = frozenset({q, e, g})

    def __init__(self, subjects: Iterable[dict[str, float]]) -> None:
        self.subjects = list(subjects)

    def exhaustive(self, quick: bool = False) -> Iterable[dict[str, float]]:
        return iter(self.subjects)

    def quantities(self, subject: dict[str, float], symbols: Iterable[sympy.Symbol], xp: Any,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        drift = 10.0 / xp.dps if xp.name == "mpmath" else 0.0
        values = {q: subject.get("q", 0.0), e: subject.get("e", 0.0), g: subject.get("g", 0.0) + drift}
        return {s: xp.asarray(values[s]) for s in symbols}

    def to_json(self, subject: dict[str, float]) -> dict[str, float]:
        return dict(subject)

    def from_json(self, data: dict[str, float]) -> dict[str, float]:
        return dict(data)

    def describe(self, subject: dict[str, float]) -> str:
        return str(subject)


def statement(relation: Any, subjects: list[dict[str, float]], **kw: Any) -> Verdict:
    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(relation) if not isinstance(relation, tuple) else relation,
                  subjects=(Points(subjects),), **kw)
    return check_claim(claim, NONE)


def cert(ok: bool = True, complete: bool = True) -> Certificate:
    return Certificate(method="sympy", statement="s", domain="all n" if complete else "n <= 5", ok=ok,
                       complete=complete)


TOL_AT_1 = ATOL + RTOL * 1.0

# rule, claim builder, expected verdict
STATEMENT_RULES = [
    ("non-strict holds at the boundary", lambda: statement(Le(q, 1), [{"q": 1.0}, {"q": 0.5}]), C),
    ("strict fails at the boundary", lambda: statement(Lt(q, 1), [{"q": 1.0}, {"q": 0.5}]), R),
    ("strict fails within the tolerance of the boundary", lambda: statement(Lt(q, 1), [{"q": 1 - TOL_AT_1 / 4}]), R),
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


@pytest.mark.parametrize("rule, build, expected", STATEMENT_RULES, ids=[r[0] for r in STATEMENT_RULES])
def test_statement_rule(rule: str, build: Any, expected: Verdict) -> None:
    result = build()
    assert result.verdict == expected, (rule, result.verdict, result.reason)


def test_an_unsatisfiable_certificate_contradicted_by_a_subject_is_an_error() -> None:
    result = statement(Le(q, 1), [{"q": 0.5}], unsatisfiable=(lambda: cert(),))
    assert result.verdict == Verdict.ERROR and "cannot hold together" in result.reason


# -- readings and prefixes ------------------------------------------------------------------------

SMALL = Assumption("small", "q <= 1", lambda s: s["q"] <= 1)


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
])
def test_observation_rule(obs: Observation, expected: Verdict, fragment: str) -> None:
    verdict, why = observation_verdict(obs)
    assert verdict == expected and fragment in why, (verdict, why)


# -- experiments: verdict maps per quantifier ---------------------------------------------------------

def rows(*cells: tuple[Verdict, bool]) -> list[dict[str, Any]]:
    return [{"config": {"c": i}, "verdict": v, "in_regime": inside} for i, (v, inside) in enumerate(cells)]


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
    ("a growth without bound refutes", lambda: experiment(
        [obs(C)], growth=[Growth("r", "d", (8, 16, 32, 64), (1.0, 2.0, 4.0, 8.0))]), R),
    ("nothing measured is untested", lambda: experiment([]), U),
]


@pytest.mark.parametrize("rule, build, expected", EXPERIMENT_RULES, ids=[r[0] for r in EXPERIMENT_RULES])
def test_experiment_rule(rule: str, build: Any, expected: Verdict) -> None:
    result = build()
    assert result.verdict == expected, (rule, result.verdict, result.reason)


@pytest.mark.parametrize("ratios, limit, expected", [
    ((1.0, 2.0, 4.0, 8.0), None, R),  # slope 1, rising
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


# -- asymptotic statements: growth along witness families --------------------------------------------

def growing() -> Growth:
    return Growth("ratio along k", "k", (8.0, 16.0, 32.0, 64.0), (1.0, 2.0, 4.0, 8.0))


def flat() -> Growth:
    return Growth("ratio along k", "k", (8.0, 16.0, 32.0, 64.0), (1.0, 1.0, 1.01, 1.0))


@pytest.mark.parametrize("growth, expected", [((growing,), R), ((flat,), C), ((), C)])
def test_an_asymptotic_statement_is_refuted_by_a_family_along_which_its_ratio_grows(growth: tuple,
                                                                                      expected: Verdict) -> None:
    result = statement(Le(q, 1), [{"q": 0.5}], growth=growth)
    assert result.verdict == expected, result.reason
    if expected == R:
        assert result.witness["kind"] == "growth" and result.witness["growth"]["name"] == "ratio along k"


def test_a_growth_witness_replays_by_measuring_the_family_again(tmp_path: Any) -> None:
    from theorems.engine.witness import replay_growth

    claim = Claim("t.rule", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(Points([{"q": 0.5}]),),
                  readings=(Reading("uniform constant", "the O(.) read as uniform", growth=(growing,)),))
    result = check_claim(claim, NONE)
    assert result.verdict == C and result.readings[1]["verdict"] == "refuted"
    witness = result.readings[1]["witness"]
    assert replay_growth(witness, claim.reading_named("uniform constant"))[1] == R
    with pytest.raises(Exception, match="no witness family"):
        replay_growth({"growth": {"name": "another"}}, claim.reading_named("uniform constant"))


def test_an_incomplete_vacuity_certificate_does_not_make_a_bound_vacuous() -> None:
    assert statement(Le(q, 1), [{"q": 0.5}], vacuity=(lambda: cert(complete=False),)).verdict == C


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


def test_an_inequality_reports_its_best_ratio_and_the_sharp_constant_beside_the_printed_one() -> None:
    from theorems import Sharp

    claim = Claim("t.sharp", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]),
                  subjects=(Points([{"q": 0.5}, {"q": 1.5}]),),
                  sharp=(Sharp("q <= 2", "2", "3/2", certified=True, sides=(q, sympy.Rational(3, 2))),))
    (row,) = check_claim(claim, NONE).tightness
    assert row["best_ratio"] == 0.75 and row["precision"].startswith("mpmath")
    assert row["sharp_constant"]["reached"] == 1.0 and "search reached 1 of the sharp bound" in row["sharp_constant"]["text"]
    with pytest.raises(ClaimError, match="sharp constants name parts it does not have"):
        Claim("t.sharp2", Kind.INEQUALITY, SRC, parts(Le(q, 2), labels=["q <= 2"]), subjects=(Points([]),),
              sharp=(Sharp("no such part", "2", "1", certified=False),))
