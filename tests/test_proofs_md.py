"""Every registered claim has a page in proofs_md/ that states what the repository expects of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from theorems.engine.registry import all_claims, paper_of

PAGES = Path(__file__).resolve().parents[1] / "proofs_md"
SHIPPED = ("merad", "huang", "ren", "wen")
HEADINGS = ["## Statement as printed", "## Assumptions", "## Proof as printed", "## What the checker does",
            "## Verdict"]


@pytest.mark.parametrize("claim", all_claims(), ids=lambda c: c.id)
def test_page_exists_with_its_sections_and_verdict(claim) -> None:
    folder = paper_of(claim).pages
    if folder is None and claim.paper not in SHIPPED:
        pytest.skip(f"the outside plugin of {claim.id} keeps no proof pages (pages= is optional outside the repository)")
    assert folder is not None, f"the plugin of {claim.id} declares no folder of proof pages"
    if claim.paper in SHIPPED:
        assert folder == PAGES, "the shipped papers keep their pages in proofs_md/"
    page = folder / f"{claim.id}.md"
    assert page.exists(), f"missing proofs_md/{claim.id}.md"
    text = page.read_text()
    assert text.startswith(f"# {claim.id}")
    positions = [text.find(h) for h in HEADINGS]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), "sections missing or out of order"
    verdict = text[positions[-1]:].lower()
    recorded = getattr(claim, "known_refutation", None)
    if recorded:
        assert "refuted" in verdict and recorded in text
    else:
        assert "refuted" not in verdict.split("\n", 3)[2], "page announces a refutation the repository does not record"
    steps = [line for line in text[positions[2]:positions[3]].splitlines() if line[:1].isdigit()]
    assert steps, "the proof section lists no numbered step"
