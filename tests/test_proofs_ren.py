"""Ren & Li's Definition 4.2 facts proved in Coq for every rank (theorems/papers/ren/coq/ren_balance.v):
the true script is accepted and every constant moved 1 % to the wrong side is rejected by coqc; the claim is
proved modulo the singular value decomposition, the population fact outright."""

from __future__ import annotations

import pytest
from coq_support import coq_cache, needs_coq

from numerics import coq
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.ren import certificates as rc

session_cache = pytest.fixture(scope="module", autouse=True)(coq_cache)


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
