"""Seed-stable verdicts (issue 27, item 6): every experiment claim of the shipped papers, audited at
seeds 0, 1 and 2, gives no two decided verdicts that differ -- where its runs disagree, the engine says
``inconclusive`` (and lists the seeds) instead of letting the audit seed pick the answer.

Run at the quick profile (the audit profile's three audits are measured in the closing note of issue 27);
a claim whose verdict changes with the seed fails here, whatever the verdicts are.
"""

from __future__ import annotations

import pytest

from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.claim import ExperimentClaim
from theorems.engine.rules.gate import disagree
from theorems.engine.registry import all_claims

PAPERS = ["merad", "huang", "ren", "wen"]
EXPERIMENTS = [c.id for c in all_claims(papers=PAPERS) if isinstance(c, ExperimentClaim)]


@pytest.mark.parametrize("claim_id", EXPERIMENTS)
def test_an_experiment_verdict_does_not_change_with_the_audit_seed(claim_id: str) -> None:
    claim = next(c for c in all_claims(ids=[claim_id]))
    verdicts = {seed: check_claim(claim, PROFILES["quick"], seed=seed).verdict.value for seed in (0, 1, 2)}
    assert "error" not in verdicts.values(), verdicts
    assert not disagree(list(verdicts.values())), f"{claim_id}: the verdict depends on the audit seed: {verdicts}"
