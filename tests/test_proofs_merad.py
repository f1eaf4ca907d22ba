"""Merad et al.'s printed proofs: every step has a check, the step certificates prove what they say,
lemma7.steps / lemma3.steps are proved, and proofs.json holds every page (issue 15)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Iterator

import pytest
import sympy

from numerics import coq
from numerics.certificate import Certificate
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine import registry
from theorems.engine.named_results import JENSEN
from theorems.engine import proof_check as pc
from theorems.engine.proof import ClaimRef, Instance
from theorems.engine.registry import all_claims, proofs_for
from theorems.engine.verdict import ClaimResult, Verdict
from theorems.frontend import proof_pages as pf
from theorems.frontend import proof_run as pr
from theorems.papers.merad import certificates as certs
from theorems.papers.merad import step_checks


PAGE = '''# demo.claim

## Proof as printed

1. A cited theorem. [check: assumption (Someone et al., Theorem 6)]
2. Jensen. [check: named demo.jensen (convexity checked)]
3. An identity. [check: cert demo.identity]
4. A finite-range fact and a claim. [check: cert demo.finite; demo.fact]
5. A failing certificate. [check: cert demo.false]

## What the checker does
'''


def _ok(complete: bool = True) -> Certificate:
    return Certificate(method="sympy", statement="demo", domain="demo", ok=True, complete=complete)


@pytest.fixture
def demo() -> Iterator[None]:
    """The demo page's named step and certificates, in a copy of the registry that the test drops."""
    with registry.isolated() as reg:
        reg.named_step("demo.jensen", Instance(JENSEN, {"f is convex": _ok, "X is integrable": _ok}))
        reg.step_certificate("demo.identity", _ok)
        reg.step_certificate("demo.finite", lambda: _ok(complete=False))
        reg.step_certificate("demo.false", lambda: Certificate(method="z3", statement="x", domain="x", ok=False))
        yield


def test_named_cert_and_assumption_tags(tmp_path: Path, demo: None) -> None:
    path = tmp_path / "demo.claim.md"
    path.write_text(PAGE)
    page = pf.parse_page(path)
    assert page.steps[0].cited.name == "Someone et al., Theorem 6" and page.steps[0].refs == ()
    assert page.steps[1].named_keys == ("demo.jensen",) and page.steps[1].refs == ()
    assert page.steps[3].certificate_keys == ("demo.finite",) and page.steps[3].refs == (ClaimRef("demo.fact"),)
    fact = ClaimResult(id="demo.fact", kind="inequality", source="", statement="", verdict=Verdict.PROVED)
    checked = pc.check_page(page.proof, {"demo.fact": fact})
    assert [s.status for s in checked.steps] == ["assumption", "named-result", "certified", "tested", "unchecked"]
    entry = pc.page_entry(page.proof, {"demo.fact": fact}).to_json()
    assert entry["chain_composes"] is None and entry["broken_step"] is None
    assert entry["steps"][1]["method"] == "named result: Jensen's inequality"
    assert entry["steps"][0]["method"] == "cited theorem"


def test_combine_with_named_results() -> None:
    assert pc.combine(["certified", "named-result"]) == "named-result"
    assert pc.combine(["named-result", "tested"]) == "tested"
    assert pc.combine(["named-result", "refuted"]) == "refuted"


def test_no_merad_step_is_left_without_a_check() -> None:
    """Every step of a Merad page names a check (a claim, a named result, a certificate or a cited theorem),
    observation items included; every named key is registered and holds."""
    pages = pf.read_pages(["merad"])
    assert pages
    bare = set()
    for page in pages:
        if proofs_for(page.claim_id):
            continue  # the chain is checked, not the tags
        for step in page.steps:
            if not (step.refs or step.named_keys or step.certificate_keys or step.cited):
                bare.add((page.claim_id, step.number))
            for key in step.named_keys:  # hypotheses certified; certified when the named result is itself proved
                assert pc.named_check(key)[0] in ("named-result", "certified"), key
            for key in step.certificate_keys:
                status = pc.certificate_check(key)[0]
                if key in COUPON_MODEL_KEYS:  # issue 39: T's law is a model in the script, so these steps are
                    assert status == "named-result", key  # "modulo" it, never plain certified
                else:
                    assert status in ("certified", "tested"), key
    assert bare == set()


#: step certificates that rest on the coupon-collector model (chebyshev_proof.COUPON_STAGES)
COUPON_MODEL_KEYS = {"merad.coupon_variance_bound"}


def test_assumption_only_for_cited_theorems() -> None:
    for page in pf.read_pages(["merad"]):
        for step in page.steps:
            if step.cited is not None:
                assert "Allen-Zhu" in step.cited.name, (page.claim_id, step.number)


def test_step_certificates_hold_and_detect_a_false_variant() -> None:
    for fn in (step_checks.rewrite_un_lse, step_checks.rewrite_un_softplus, step_checks.zeta_is_lse,
               step_checks.cross_entropy_of_mean_classifier, step_checks.uniform_subsets,
               step_checks.lemma7_v2_bound, step_checks.lemma7_max_loss_identity,
               step_checks.uniform_task_reindexing):
        c = fn()
        assert c.ok and c.complete, fn.__name__
    assert step_checks.p_cc_event(2, 3).ok and step_checks.first_index_law().ok and step_checks.first_index_law().complete
    t = sympy.Symbol("t", real=True)
    assert not step_checks._exp_equal(sympy.log(1 + sympy.exp(t)), sympy.log(2 + sympy.exp(t)))


def test_lemma3_and_lemma7_step_certificates() -> None:
    for fn in (certs.lemma7_loss_vectors_symbolic, certs.lemma3_gradient_symbolic, certs.lemma3_dcos_norms,
               certs.lemma3_hessian_symbolic, certs.lemma3_curvature_norms, certs.lemma3_from_steps):
        c = fn()
        assert c.ok and c.complete and c.parts, fn.__name__
    claims = {c.id: c for c in all_claims(papers=["merad"])}
    for cid, fns in (("merad.lemma7.steps", (certs.lemma7_loss_vectors_symbolic,)),
                     ("merad.lemma3.steps", (certs.lemma3_gradient_symbolic, certs.lemma3_hessian_symbolic)),
                     ("merad.lemma3", (certs.lemma3_from_steps,))):
        labels = {str(p) for p in claims[cid].statement}
        for fn in fns:
            assert set(fn().parts) <= labels, (cid, fn.__name__)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not on PATH: the Coq certificates cannot be checked")
def test_lemma7_steps_is_proved_from_its_steps() -> None:
    claim = next(c for c in all_claims(papers=["merad"]) if c.id == "merad.lemma7.steps")
    result = check_claim(claim, Budget(examples=10, adversarial_starts=1, adversarial_steps=5, quick=True), seed=0)
    assert result.verdict == Verdict.PROVED, result.reason
    methods = {c["method"] for c in result.certificate or [] if c["ok"]}
    assert any(m.startswith("coq") or "Coq" in m for m in methods), methods
    assert coq.coqc_path() is not None


def test_proofs_json_holds_every_page(tmp_path: Path) -> None:
    """proofs.json gets a record for every page (chained or not) with the required fields."""
    pages = pf.read_pages(["merad.lse", "merad.coupon"])
    results = {p.claim_id: ClaimResult(id=p.claim_id, kind="inequality", source="", statement="",
                                       verdict=Verdict.CONSISTENT) for p in pages}
    path = tmp_path / "proofs.json"
    pr.write_proofs_json(pf.judge(pages, results), 0, path)
    data = json.loads(path.read_text())["claims"]
    assert set(data) == {p.claim_id for p in pages}
    # the calls `clcheck proofs` makes (every record from the engine's judge, the summary beside it)
    (tmp_path / "cli").mkdir()
    entries = pf.judge(pages, results)
    pr.write_proofs_json(entries, 0, tmp_path / "cli" / "proofs.json")
    pf.write_summary(pages, entries, None, tmp_path / "cli" / "proofs.md")
    assert json.loads((tmp_path / "cli" / "proofs.json").read_text())["claims"] == data
    for cid, entry in data.items():
        assert {"verdict", "steps", "broken_step", "chain_composes"} <= set(entry), cid
        for step in entry["steps"]:
            assert step["status"] in pr.STEP_KINDS and "method" in step and "margins" in step, (cid, step)


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not on PATH: the Coq certificates cannot be checked")
def test_rearrangement_counts_in_coq_and_a_false_variant_is_rejected() -> None:
    from theorems.papers.merad import provers

    good = provers.rearrangement_coq()
    assert good.ok and good.complete, good.details.get("reason")
    false_script = coq.restated(provers.script("merad_rearrangement"),
                                "count_in y (choose (S k) l) = binom (length l - 1) k.",
                                "count_in y (choose (S k) l) = binom (length l) k.")
    bad = coq.check_script("merad_rearrangement_false", false_script, provers.REARRANGE_THEOREMS, "false variant",
                           "test", use_cache=False)
    assert not bad.ok
    claims = {c.id: c for c in all_claims(papers=["merad"])}
    labels = {str(p) for p in claims["merad.prop1.rearrangement"].statement}
    for fn in (certs.rearrangement_counts_coq, certs.rearrangement_average_coq):
        c = fn()
        assert c.ok and c.complete and set(c.parts) <= labels


def test_chebyshev_step_is_a_checked_instance() -> None:
    """Its hypotheses are certified and Chebyshev's inequality on the naturals is itself proved (merad_chebyshev.v):
    the step is certified, not a named result taken on trust."""
    status, info = pc.named_check("merad.chebyshev_coupon")
    proved = coq.coqc_path() is not None  # without coqc the result's proof fails: a named-result step
    assert (status, info["result_proved"]) == (("certified", True) if proved else ("named-result", False)), info
    assert step_checks.geometric_variance().ok


def test_checker_block_of_a_reparsed_page_keeps_the_assigned_statuses(tmp_path: Path, demo: None) -> None:
    path = tmp_path / "demo.block.md"
    path.write_text(PAGE.replace("# demo.claim", "# demo.block").replace("\n## What the checker does\n",
                                                                         "\n## What the checker does\n\n## Verdict\n"))
    page = pf.parse_page(path)  # as `clcheck proofs --write-pages` calls it
    pf.write_checker_block(page, pf.judge([page], {})[page.claim_id].proofs[0], None, 0)
    text = path.read_text()
    assert "- step 1: assumption" in text and "- step 3: certified" in text
    fresh = pf.parse_page(path)  # the block is rewritten in place from the engine's check of the page
    pf.write_checker_block(fresh, pc.check_page(fresh.proof, {}), None, 0)
    assert path.read_text() == text


def _result(cid: str, verdict: Verdict, parts: dict[str, str] | None = None) -> ClaimResult:
    from theorems.engine.verdict import PartStatus

    r = ClaimResult(id=cid, kind="inequality", source="", statement="", verdict=verdict)
    r.part_status = {label: PartStatus(status) for label, status in (parts or {}).items()}
    return r


_PRINTED = ("printed: ||(dcos12 dcos13) dv|| = 8 max_ij ||z_i|| ||z_j||", "printed: ||Hess l|| = 2 + 8 max_ij ||z_i|| ||z_j||")
_READ_AS_LE = ("||(dcos12 dcos13) dv|| <= 8 max_ij ||z_i|| ||z_j|| (read as <=)",
               "||Hess l|| <= 2 + 8 max_ij ||z_i|| ||z_j|| (read as <=)")


@pytest.mark.parametrize("reading", ["certified", "refuted"])
def test_a_printed_equality_is_a_notation_slip_only_while_its_reading_holds(reading: str) -> None:
    """merad.lemma3.printed_equalities is declared a notation slip: its refuted steps count as slips (apart
    from the errors) while the '<=' reading holds; if the reading failed too, they are plain refuted steps."""
    page = next(p for p in pf.read_pages(["merad.lemma3.printed_equalities"]) if p.claim_id.endswith("equalities"))
    steps = {label: "certified" for label in ("||dcos12|| <= 2 max(||z1||,||z2||)", "||dcos13|| <= 2 max(||z1||,||z3||)",
                                               "||diag(v) - v v^T|| <= 1/2", "min_ij ||d2cos_ij|| = 1",
                                               "max_ij ||d2cos_ij|| = 1")}
    steps.update({label: reading for label in _READ_AS_LE})
    results = {"merad.lemma3.printed_equalities": _result("merad.lemma3.printed_equalities", Verdict.REFUTED,
                                                          {label: "refuted" for label in _PRINTED}),
               "merad.lemma3.steps": _result("merad.lemma3.steps", Verdict.PROVED, steps)}
    entry = pc.page_entry(page.proof, results)
    counts, broken = entry.counts(), entry.broken_step
    if reading == "certified":
        assert (counts["slip"], counts["refuted"]) == (2, 0)
        assert pf.broken_text(broken) == "step 3 (notation slip)"
    else:
        assert (counts["slip"], counts["refuted"]) == (0, 2)
        assert pf.broken_text(broken) == "step 3"


def test_a_refuted_claim_without_a_printed_proof_says_so() -> None:
    page = pf.read_pages(["merad.coupon.variance"])[0]
    assert page.not_printed and "Motwani" in page.not_printed
    refuted = _result("merad.coupon.variance", Verdict.REFUTED)
    entry = pc.page_entry(page.proof, {"merad.coupon.variance": refuted})
    assert pf.broken_text(entry.broken_step) == "proof not printed"
    record = entry.to_json()
    assert record["proof_printed"] is False and record["broken_step"] is None and "Motwani" in record["not_printed"]


def test_theorem1_substitution_is_derived_symbolically(monkeypatch: pytest.MonkeyPatch) -> None:
    """eps' = eps eta/(2n) in Lemma 7 gives eps/n per triplet and eps in total, and brings eta^-1 into the
    width and eta^-2 into the steps; a wrong substitution (eps eta / n) is not certified."""
    for fn in (step_checks.theorem1_lemma7_hypothesis, step_checks.theorem1_lemma7_bound,
               step_checks.theorem1_sum_bound, step_checks.theorem1_lemma6_price):
        assert fn().ok and fn().complete, fn.__name__
    price = step_checks.theorem1_lemma6_price().details
    assert (price["eta_power_m"], price["eta_power_T"]) == (1, 2)
    eps, eta, n = (sympy.Symbol(s, positive=True) for s in ("epsilon", "eta", "n"))
    monkeypatch.setattr(step_checks, "EPS_PRIME", eps * eta / n)
    assert not step_checks.theorem1_lemma7_bound().ok
    assert not step_checks.theorem1_lemma6_price().ok


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not on PATH: the Coq certificates cannot be checked")
@pytest.mark.parametrize("cid", ["merad.lse.max_bounds", "merad.lse.nonneg", "merad.lse.pairwise",
                                 "merad.lse.restriction", "merad.lemma7.steps"])
def test_fact_claims_have_a_composing_certified_chain_per_part(cid: str) -> None:
    from theorems.engine.proof_check import certify_steps

    claim = next(c for c in all_claims(ids=[cid]))
    chains = proofs_for(cid)
    assert sorted(p.part for p in chains) == sorted(str(p) for p in claim.statement)
    for proof in chains:
        checked = certify_steps(proof, claim)
        assert checked.chain_composes and checked.all_certified, (proof.part, checked.chain_note)
