"""Huang et al. proved on the printed domain (issue 32): the Coq script coq/huang_finite_sums.v proves (1), its last
step, Theorem 4, Lemma 2 (Cauchy-Schwarz proved), the cross-correlation decomposition, the linear form of the NN
classifier and the simple contrastive identity for every size; the same proof of a statement with a constant moved
1 % to the wrong side is rejected; the claims wire the certificates, and their checks say `proved` (test_huang.py).

coqc runs once per script text: the results are cached in a temporary $CLCHECK_CACHE."""

from __future__ import annotations

import pytest
from coq_support import needs_coq, shared_coq_cache
import sympy

from numerics import coq
from theorems.engine.registry import all_claims
from theorems.papers.huang import certificates as hc
from theorems.papers.huang import full_proofs as fp
from theorems.papers.huang import sharp_constants as sc

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


TRUE = {
    "huang.barlow.trace_identity": fp.trace_identity_coq,
    "huang.barlow.trace_bound": fp.trace_bound_coq,
    "huang.theorem4": fp.theorem4_coq,
    "huang.lemma2": fp.lemma2_coq,
    "huang.crosscorr.decomposition": fp.crosscorr_coq,
    "huang.nn_classifier_linear": fp.nn_classifier_coq,
    "huang.simple_contrastive": fp.simple_contrastive_coq,
    "huang.theorem2.main_close": fp.main_close_coq,
    "huang.theorem1": fp.theorem1_coq,
}


@needs_coq
@pytest.mark.parametrize("claim_id", list(TRUE))
def test_true_statements_are_accepted_by_coq(claim_id: str) -> None:
    cert = TRUE[claim_id]()
    d = cert.details
    assert cert.ok, d.get("output")
    assert cert.method == "coq" and cert.complete and cert.modulo == ()
    assert "Admitted" not in d["script"] and "Axiom" not in fp.script()
    assert d["assumptions"] and all(a.startswith(coq.ALLOWED_AXIOM_PREFIXES) for a in d["assumptions"])
    for thm in d["theorems"]:
        assert thm in d["coq_statements"]


@needs_coq
def test_the_statements_quantify_over_every_size() -> None:
    """d, K (and n, |A|) are universally quantified naturals, not fixed sizes."""
    stmts = fp.theorem4_coq().details["coq_statements"]
    assert stmts["theorem4"].startswith("forall d K p mu (C : nat -> nat -> R) tau k l")
    assert "sqrt (2 / (p k * p l) * (fro d (fun a b => C a b - delta a b) + tau - (INR d - INR K) / 2))" in stmts["theorem4"]
    assert "fro d (fun a b => C a b - cmom K p mu a b) <= tau" in stmts["theorem4"]
    lemma2 = fp.lemma2_coq().details["coq_statements"]["lemma2"]
    assert lemma2.startswith("forall n m d w q F") and "2 * sqrt (INR d * L1 n m d w q F)" in lemma2
    bound = fp.trace_bound_coq().details["coq_statements"]["trace_bound"]
    assert "p k * p l * dot d mu k l ^ 2 + INR d - INR K" in bound


# the same proof, a statement with a constant moved 1 % to the wrong side: (theorem, old text, new text)
MUTANTS = {
    # the sharp factor 2 of (1) (the printed 1 is implied; 1.01 would still be true)
    "(1) with factor 2.02": ("trace_bound_sharp", ">= 2 * (p k * p l * dot d mu k l ^ 2)",
                             ">= (202 / 100) * (p k * p l * dot d mu k l ^ 2)"),
    "(1) with d - 0.99 K": ("trace_gram", "(sqrt (p l) * mu a l)) - delta k l) + INR d - INR K.\nProof.\n  intros d K p mu Hp. rewrite",
                           "(sqrt (p l) * mu a l)) - delta k l) + INR d - (99 / 100) * INR K.\nProof.\n  intros d K p mu Hp. rewrite"),
    # Theorem 4: the chain's sharp constant 1 (the printed 2 -> 1.98 would still be true)
    "Theorem 4 with 0.99": ("theorem4_sharp", "dot d mu k l <= sqrt (1 / (p k * p l)",
                            "dot d mu k l <= sqrt ((99 / 100) / (p k * p l)"),
    "Lemma 2 with 1.98": ("lemma2", "Lpos n m d w q F <= 2 * sqrt (INR d * L1 n m d w q F).",
                          "Lpos n m d w q F <= (198 / 100) * sqrt (INR d * L1 n m d w q F)."),
    "Cauchy-Schwarz with 0.99": ("cauchy_schwarz", "<= sum n (fun i => u i ^ 2) * sum n (fun i => v i ^ 2).",
                                 "<= (99 / 100) * sum n (fun i => u i ^ 2) * sum n (fun i => v i ^ 2)."),
    "cross-correlation with 0.99 lambda": ("crosscorr_decomposition", "= (1 - lam) * sum d",
                                           "= (1 - (99 / 100) * lam) * sum d"),
    "NN bias -0.99 ||mu||^2/2": ("nn_argmin_argmax", "sum d (fun a => mu a k * z a) + - (1 / 2) * sum d",
                                 "sum d (fun a => mu a k * z a) + - (99 / 200) * sum d"),
    "simple contrastive with 0.99": ("simple_contrastive", "= sum d (fun a => sum n",
                                     "= (99 / 100) * sum d (fun a => sum n"),
    "main_close with 1.98 eps": ("main_close", "vnorm d (vsub (f x1) (f y1)) <= L * delta + 2 * eps.",
                                 "vnorm d (vsub (f x1) (f y1)) <= L * delta + (198 / 100) * eps."),
    "vector triangle with 0.99": ("vec_triangle", "<= vnorm n u + vnorm n v.", "<= (99 / 100) * (vnorm n u + vnorm n v)."),
    "Theorem 1 step with 2.02": ("theorem1_step", "2 * eps ^ 2 * Reps n w out / (INR a * INR a) <= Lalign n a d w F.",
                                 "(202 / 100) * eps ^ 2 * Reps n w out / (INR a * INR a) <= Lalign n a d w F."),
    "Theorem 1 with |A|^2/2 * 0.99": ("theorem1_main", "Reps n w out ^ 2 <= INR a ^ 2 / 2 * Lalign n a d w F / eps ^ 2.",
                                      "Reps n w out ^ 2 <= (99 / 100) * (INR a ^ 2 / 2 * Lalign n a d w F / eps ^ 2)."),
}


@needs_coq
@pytest.mark.parametrize("name", list(MUTANTS))
def test_mutants_are_rejected_by_coq(name: str) -> None:
    theorem, old, new = MUTANTS[name]
    text = coq.restated(fp.script(), old, new)
    cert = fp.check((theorem,), name, "mutant", text=text, name="huang_finite_sums_mutant")
    assert not cert.ok
    assert cert.details["reason"] == "Coq rejected the script"


def test_sympy_and_z3_cross_checks() -> None:
    """The cross-checks wired beside the Coq proofs: (1) for symbolic d, K (sympy); the sharp factor 2 of its last
    step (sympy + z3), 2.02 rejected; the finite-size expansions."""
    assert sc.trace_identity_all_sizes().ok
    assert sc.trace_bound_sharp().ok and not sc.trace_bound_sharp(sympy.Rational(202, 100)).ok
    assert hc.crosscorr_decomposition().ok and hc.simple_contrastive().ok and hc.nn_scores().ok


def test_claims_wire_the_proofs() -> None:
    claims = {c.id: c for c in all_claims(["huang"])}
    for claim_id, fn in TRUE.items():
        assert fn in claims[claim_id].certificates, claim_id
    labels = [str(p) for p in claims["huang.nn_classifier_linear"].statement]
    assert labels == [fp.NN_SETS, hc.NN_SCORES]
    # the finite-size (1) is replaced by the all-sizes proofs (one cross-check per fact)
    assert not hasattr(hc, "barlow_trace_identity")
    assert sc.trace_identity_all_sizes in claims["huang.barlow.trace_identity"].certificates


def test_the_claims_the_scripts_prove_read_proved_in_the_claim_checks() -> None:
    """tests/test_huang.py checks every huang claim (all its readings) and, with coqc present, asserts proved for
    exactly these: the claims whose Coq scripts are checked here."""
    from test_huang import PROVED_BY_COQ  # noqa: PLC0415 - the other test module's list

    assert PROVED_BY_COQ == set(TRUE)


