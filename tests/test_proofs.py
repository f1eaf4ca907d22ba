"""Step-checked proofs: tag parsing, status rules, and the tags of the real pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from theorems.engine import proof_check as pc
from theorems.engine.proof import ClaimRef
from theorems.engine.registry import all_claims
from theorems.engine.verdict import ClaimResult, Verdict
from theorems.frontend import proof_pages as pf
from theorems.frontend.cli import app

PAGE = '''# demo.claim

kind line

## Statement as printed

x

## Proof as printed

1. First step, by a fact. [check: demo.fact]
2. A step covered by one part
   of a claim, over two lines. [check: demo.claim part "a <= b (read as <=)"]
3. Two checks. [check: demo.fact; demo.other (a comment naming demo.ignored)]
4. Jensen. [check: unchecked (Jensen; tested end to end)]

## What the checker does
'''


def result(cid: str, verdict: Verdict, parts: dict[str, str] | None = None) -> ClaimResult:
    return ClaimResult(id=cid, kind="inequality", source="", statement="", verdict=verdict,
                       part_status=parts or {})


def test_tags_are_parsed_with_parts_lists_and_comments(tmp_path: Path) -> None:
    path = tmp_path / "demo.claim.md"
    path.write_text(PAGE)
    page = pf.parse_page(path)
    assert page.claim_id == "demo.claim"
    assert [s.number for s in page.steps] == [1, 2, 3, 4]
    assert all(s.kind == "tagged" for s in page.steps) and page.proof.source == "page tags"
    assert page.steps[0].refs == (ClaimRef("demo.fact"),)
    assert page.steps[1].refs == (ClaimRef("demo.claim", "a <= b (read as <=)"),)
    assert page.steps[2].refs == (ClaimRef("demo.fact"), ClaimRef("demo.other"))
    assert page.steps[3].refs == ()
    results = {"demo.fact": result("demo.fact", Verdict.PROVED),
               "demo.other": result("demo.other", Verdict.REFUTED),
               "demo.claim": result("demo.claim", Verdict.CONSISTENT, {"a <= b (read as <=)": "tested"})}
    checked = pc.check_page(page.proof, results)  # the engine judges a page's steps, as it judges a chain's
    assert [s.status for s in checked.steps] == ["certified", "tested", "refuted", "unchecked"]
    assert checked.chain_composes is None and checked.broken_step is None  # demo.claim is not refuted


def test_a_tag_naming_an_unknown_part_is_an_error() -> None:
    with pytest.raises(KeyError, match="no part labelled"):
        pc.ref_status("demo.claim", "missing", {"demo.claim": result("demo.claim", Verdict.CONSISTENT)})


def test_combine_rules() -> None:
    assert pc.combine([]) == "unchecked"
    assert pc.combine(["certified", "certified"]) == "certified"
    assert pc.combine(["certified", "tested"]) == "tested"
    assert pc.combine(["tested", "refuted"]) == "refuted"
    assert pc.combine(["unchecked"]) == "unchecked"


def test_every_tag_of_the_real_pages_names_a_registered_claim_and_part() -> None:
    claims = {c.id: c for c in all_claims()}
    pages = pf.read_pages()
    assert pages
    for page in pages:
        assert page.claim_id in claims, f"page for unregistered claim {page.claim_id}"
        assert page.steps, f"{page.claim_id}: no numbered proof step"
        for step in page.steps:
            for cid, part in ((r.claim, r.part) for r in step.refs):
                assert cid in claims or cid.startswith("merad.theorem"), f"{page.claim_id} step {step.number}: {cid}"
                if part is not None:
                    labels = [str(p) for p in claims[cid].statement]
                    assert part in labels, f"{page.claim_id} step {step.number}: no part {part!r} in {cid}"


def test_clcheck_proofs_writes_the_report_and_the_graph(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["proofs", "--paper", "merad.coupon", "--budget", "10", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    report = (tmp_path / "proofs.md").read_text()
    assert "`merad.coupon.mean`" in report and "| step | status |" in report  # pages checked through their tags
    assert "| proof not printed |" in report  # merad.coupon.variance: refuted, its value is cited
    assert (tmp_path / "proofs-graph.png").stat().st_size > 10_000
