"""Huang et al.'s Lemma 1 proved in Coq for every finite distribution (theorems/papers/huang/coq/huang_lemma1.v):
the script is accepted, the claim is proved, and the bound with its constant moved 1 % to the wrong side (or
without the hypothesis that G is correct on the main parts inside S_eps) is rejected by coqc."""

from __future__ import annotations

import pytest
from coq_support import needs_coq, shared_coq_cache

from numerics import coq
from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.huang import lemma1_proof

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


SCRIPT = coq.packaged_script("theorems.papers.huang", lemma1_proof.SCRIPT)
BOUND = "  over_classes P_error cs <= (1 - sigma) * over_classes P cs + over_classes P_not_S cs."
MUTANTS = {
    "sigma_term": (BOUND, "  over_classes P_error cs <= 99 / 100 * ((1 - sigma) * over_classes P cs) + over_classes P_not_S cs."),
    "not_S_term": (BOUND, "  over_classes P_error cs <= (1 - sigma) * over_classes P cs + 99 / 100 * over_classes P_not_S cs."),
    "no_hypothesis": ("  (forall c x, In c cs -> In x c -> main x = true -> in_S x = true -> correct x = true) ->\n"
                      "  over_classes P_error cs <= (1 - sigma) * over_classes P cs",
                      "  over_classes P_error cs <= (1 - sigma) * over_classes P cs"),
}


@needs_coq
def test_lemma1_is_proved_for_every_finite_distribution():
    cert = lemma1_proof.lemma1_coq()
    assert cert.ok and cert.complete and not cert.modulo, cert.details.get("reason")
    result = check_claim(get("huang.lemma1"), PROFILES["quick"])
    assert result.verdict == Verdict.PROVED and result.modulo == [], result.reason


@needs_coq
@pytest.mark.parametrize("name", list(MUTANTS))
def test_a_weakened_constant_or_a_dropped_hypothesis_is_rejected(name: str):
    old, new = MUTANTS[name]
    mutant = lemma1_proof.lemma1_coq(coq.restated(SCRIPT, old, new), name=f"huang_lemma1_{name}")
    assert not mutant.ok and mutant.details["reason"] == "Coq rejected the script"
