"""Ren & Li's Definition 4.2 facts proved in Coq for every rank (theorems/papers/ren/coq/ren_balance.v):
the true script is accepted and every constant moved 1 % to the wrong side is rejected by coqc; the claim is
proved modulo the singular value decomposition, the population fact outright."""

from __future__ import annotations

import pytest
from coq_support import needs_coq, shared_coq_cache

from numerics import coq
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.ren import certificates as rc

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


SCRIPT = coq.packaged_script("theorems.papers.ren", rc.SCRIPT)

# each theorem's printed constant, moved 1 % to the wrong side (the statement becomes false)
MUTANTS = {
    "range_upper": ("Theorem stable_rank_range : 1 <= stable_rank x l <= r.",
                    "Theorem stable_rank_range : 1 <= stable_rank x l <= 99 / 100 * r."),
    "range_lower": ("Theorem stable_rank_range : 1 <= stable_rank x l <= r.",
                    "Theorem stable_rank_range : 101 / 100 <= stable_rank x l <= r."),
    "equal": ("(forall y, In y (x :: l) -> y = x) -> stable_rank x l = r.",
              "(forall y, In y (x :: l) -> y = x) -> stable_rank x l = 101 / 100 * r."),
    "ratio": ("m <= c * lmin x l -> r / (c * c) <= stable_rank x l.",
              "m <= c * lmin x l -> 101 / 100 * r / (c * c) <= stable_rank x l."),
    "second_moment": ("cube (length u) (fun w => dot u w * dot v w) = dot u v.",
                      "cube (length u) (fun w => dot u w * dot v w) = 101 / 100 * dot u v."),
}


@needs_coq
def test_the_stable_rank_and_population_facts_are_proved_for_every_rank():
    facts, population = rc.stable_rank_facts(), rc.population_covariance()
    assert facts.ok and facts.complete and facts.modulo == (rc.SVD,), facts.details.get("reason")
    assert population.ok and population.complete and not population.modulo
    assert set(facts.parts) == {rc.RANGE, rc.EQUAL, rc.UNEQUAL, rc.RATIO} and population.parts == (rc.POPULATION,)


@needs_coq
@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_constant_one_percent_on_the_wrong_side_is_rejected(name: str):
    old, new = MUTANTS[name]
    mutant = rc._check(rc.THEOREMS, "mutant", script=coq.restated(SCRIPT, old, new), name=f"ren_balance_{name}")
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"


@needs_coq
def test_ren_balance_score_is_proved_modulo_the_svd():
    result = check_claim(get("ren.balance_score"), PROFILES["quick"])
    assert result.verdict == Verdict.PROVED and result.modulo == [rc.SVD], result.reason


# -- Lemma A.7's printed facts and the Section 4 example's closed forms, for every r (issue 32) -------------------
A7_SCRIPT = coq.packaged_script("theorems.papers.ren", rc.A7_SCRIPT)
EXAMPLE_SCRIPT = coq.packaged_script("theorems.papers.ren", rc.EXAMPLE_SCRIPT)
A7_MUTANTS = {
    "partition x 1.01": ("= prod_cosh beta c.", "= 101 / 100 * prod_cosh beta c."),
    "softmax mean x 1.01": ("= nth k z 0 * tanh (beta * nth k c 0)", "= 101 / 100 * nth k z 0 * tanh (beta * nth k c 0)"),
    "negative factor x 1.01": ("then tanh (beta * nth k c 0) else 0.", "then 101 / 100 * tanh (beta * nth k c 0) else 0."),
    "flip x 1.01": ("sim c (mult2 s z) (mult2 s z') = sim c z z'.", "sim c (mult2 s z) (mult2 s z') = 101 / 100 * sim c z z'."),
}
EXAMPLE_MUTANTS = {
    "Align with 0.99 2^-r": ("= 1 - / 2 ^ length a.", "= 1 - 99 / 100 * / 2 ^ length a."),
    "Bal with 1.01 (r - 1) delta^4": ("= 1 + INR n * delta ^ 4.", "= 1 + 101 / 100 * INR n * delta ^ 4."),
}


@needs_coq
def test_lemma_a7_facts_and_the_example_closed_forms_are_proved_for_every_r():
    a7 = rc.a7_facts()
    assert a7.ok and a7.complete and not a7.modulo, a7.details.get("output")
    assert set(a7.parts) == {rc.A7_PARTITION, rc.A7_NEGATIVE, rc.A7_FLIP}  # not (c): the reconstruction stays tested
    for script in (A7_SCRIPT, EXAMPLE_SCRIPT):
        assert "Admitted" not in script and "Axiom" not in script
    large, small = rc.unbalanced_closed_forms(5, 5), rc.unbalanced_closed_forms(1, 5)
    assert large.ok and large.complete and large.modulo == (rc.SVD_DIAGONAL,)
    assert set(large.parts) == {rc.EXAMPLE, rc.REPLACEMENT} and small.parts == ()  # below r0 it proves no fact asked


@needs_coq
@pytest.mark.parametrize("name", list(A7_MUTANTS) + list(EXAMPLE_MUTANTS))
def test_a_lemma_a7_or_example_constant_one_percent_off_is_rejected(name: str):
    if name in A7_MUTANTS:
        script, stem, theorems = A7_SCRIPT, rc.A7_SCRIPT, rc.A7_THEOREMS
        old, new = A7_MUTANTS[name]
    else:
        script, stem, theorems = EXAMPLE_SCRIPT, rc.EXAMPLE_SCRIPT, rc.EXAMPLE_THEOREMS
        old, new = EXAMPLE_MUTANTS[name]
    mutant = rc._check(theorems, "mutant", script=coq.restated(script, old, new), name=f"{stem}_mutant",
                       everything=theorems)
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"


@needs_coq
def test_lemma_a7_is_certified_for_its_printed_facts_and_tested_for_the_reconstruction():
    result = check_claim(get("ren.lemma_a7"), PROFILES["quick"])
    assert result.verdict == Verdict.CONSISTENT, result.reason
    assert any("certified on the whole domain for some facts only" in q and rc.A7_FLOW in q for q in result.qualifiers)


@needs_coq
def test_the_unbalanced_example_fails_at_small_r_and_is_proved_for_r_large_enough():
    result = check_claim(get("ren.unbalanced_example"), PROFILES["quick"])
    assert result.verdict == Verdict.REFUTED and "'r': 1" in result.reason, result.reason
    (large,) = [r for r in result.readings if r["name"] == "r large enough"]
    assert large["verdict"] == "proved" and large["modulo"] == [rc.SVD_DIAGONAL], large
