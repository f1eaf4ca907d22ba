"""Ren & Li: metrics on hand-made cases, the data model, and every ren claim's expected verdict."""

from __future__ import annotations

import numpy as np
import pytest

from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.registry import get
from theorems.papers.ren.model import (DataModel, alignment_score, balance_score, condition_number, stable_rank)

REN_IDS = ["ren.alignment_score", "ren.balance_score", "ren.unbalanced_example", "ren.theorem43a",
           "ren.theorem43b", "ren.stagewise"]


@pytest.mark.parametrize("r", [1, 2, 5])
def test_stable_rank_of_identity_is_r(r: int) -> None:
    assert stable_rank(np.eye(r)) == pytest.approx(r)
    assert stable_rank(3.0 * np.eye(r)) == pytest.approx(r)


def test_stable_rank_of_rank_one_is_one() -> None:
    u, v = np.array([1.0, 2.0, -1.0]), np.array([0.5, 0.0, 3.0, 1.0])
    assert stable_rank(np.outer(u, v)) == pytest.approx(1.0)
    assert stable_rank(np.diag([4.0, 1.0])) == pytest.approx(17 / 16)


def test_balance_score_is_stable_rank_of_covariance() -> None:
    rng = np.random.default_rng(0)
    z = rng.standard_normal((50_000, 3))
    assert balance_score(z) == pytest.approx(3.0, rel=0.05)
    assert balance_score(np.outer(z[:, 0], [1.0, 2.0, 3.0])) == pytest.approx(1.0)


def test_alignment_score_of_constant_map_at_most_half() -> None:
    c = np.tile([0.6, 0.8], (10, 1))
    neg = np.roll(c, 1, axis=0)
    assert alignment_score(c, c, neg, ties="fail") == 0.0
    assert alignment_score(c, c, neg, ties="half") == 0.5


def test_alignment_score_perfect_and_reversed() -> None:
    e = np.eye(4)
    assert alignment_score(e, e, np.roll(e, 1, axis=0)) == 1.0
    assert alignment_score(e, np.roll(e, 1, axis=0), e) == 0.0


def test_condition_number() -> None:
    assert condition_number(np.diag([5.0, 2.0, 1.0])) == pytest.approx(5.0)
    assert condition_number(np.eye(3)) == pytest.approx(1.0)
    assert condition_number(np.outer([1.0, 1.0], [1.0, 0.0])) == float("inf")
    assert condition_number(np.diag([4.0, 2.0, 0.0]), rank=2) == pytest.approx(2.0)


@pytest.mark.parametrize("kappa", [1.0, 10.0, 50.0])
def test_data_model_condition_number_is_kappa(kappa: float) -> None:
    model = DataModel(kappa=kappa)
    mats = model.matrices(3)
    for name in ("A", "B"):
        assert condition_number(mats[name]) == pytest.approx(kappa)
        # the noise lives in the complement of the signal's range
        assert np.abs(mats[name].T @ mats[name + "_xi"]).max() < 1e-10
    data = model.sample(mats, 7, np.random.default_rng(0))
    assert data["xa"].shape == (7, model.d) and data["z"].shape == (7, model.r)


@pytest.mark.parametrize("claim_id", REN_IDS)
def test_ren_claim_expected_verdict(claim_id: str) -> None:
    claim = get(claim_id)
    result = check_claim(claim, Budget(examples=0, adversarial_starts=0, quick=True))
    assert result.verdict.value in claim.expect, result.reason
    assert result.expected
