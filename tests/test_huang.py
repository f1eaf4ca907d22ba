"""Huang et al.: augmented-setting quantities vs direct loops, certificates, sigma(delta), claims."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from numerics import augmented as ag
from numerics.augmented import AugArrays, AugmentedSetting
from numerics.backend import FLOAT, mp_backend
from numerics.errors import AssumptionError
from theorems.papers.huang import certificates as proofs
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.registry import all_claims
from theorems.subjects.augmented import AugmentedFamily


def _setting(seed: int = 0, unit: bool = True) -> AugmentedSetting:
    rng = np.random.default_rng(seed)
    n, a, m, d, K = 5, 3, 2, 3, 2
    labels = np.array([0, 1, 0, 1, 1])
    X = rng.normal(size=(n, a, m))
    F = rng.normal(size=(n, a, d))
    if unit:
        F = F / np.linalg.norm(F, axis=2, keepdims=True)
    return AugmentedSetting.create(labels, rng.uniform(0.2, 1, size=n), X, F, K)


def _loops(s: AugmentedSetting) -> dict[str, float]:
    w, F, a, n, d = s.mass, s.feats, s.a, s.n, s.d
    p = [sum(w[x] for x in range(n) if s.labels[x] == k) for k in range(s.n_classes)]
    mu = [sum(w[x] * F[x, i] for x in range(n) if s.labels[x] == k for i in range(a)) / (a * p[k])
          for k in range(s.n_classes)]
    C = np.zeros((d, d))
    align = nce = l2 = pairs = 0.0
    for x in range(n):
        for i, j in itertools.product(range(a), repeat=2):
            C += w[x] / a ** 2 * np.outer(F[x, i], F[x, j])
            align += w[x] / a ** 2 * float(np.sum((F[x, i] - F[x, j]) ** 2))
            for y in range(n):
                for l in range(a):
                    s12, s1n = float(F[x, i] @ F[x, j]), float(F[x, i] @ F[y, l])
                    wt = w[x] * w[y] / a ** 3
                    nce += -wt * math.log(math.exp(s12) / (math.exp(s12) + math.exp(s1n)))
                    l2 += wt * math.log(math.exp(s12) + math.exp(s1n))
        for y in range(n):
            for i, l in itertools.product(range(a), repeat=2):
                pairs += w[x] * w[y] / a ** 2 * float(F[x, i] @ F[y, l])
    return {"C": C, "align": align, "nce": nce, "l2": l2, "pairs": pairs, "mu": np.array(mu)}


def test_quantities_match_direct_loops() -> None:
    s = _setting()
    ref = _loops(s)
    arr = AugArrays.from_setting(s, FLOAT)
    assert np.allclose(ag.cross_correlation(arr), ref["C"])
    assert np.allclose(ag.centres(arr), ref["mu"])
    assert math.isclose(ag.align_loss(arr), ref["align"], rel_tol=1e-12)
    assert math.isclose(ag.infonce(arr), ref["nce"], rel_tol=1e-12)
    assert math.isclose(ag.infonce_l2(arr), ref["l2"], rel_tol=1e-12)
    assert math.isclose(ag.simple_l2_pairs(arr), ref["pairs"], rel_tol=1e-12, abs_tol=1e-14)
    lam = 0.3
    parts = ag.crosscorr_parts(arr, lam)
    C = ref["C"]
    printed = sum((1 - C[i, i]) ** 2 for i in range(3)) + lam * sum(
        C[i, j] ** 2 for i in range(3) for j in range(3) if i != j)
    assert math.isclose(parts["loss"], printed, rel_tol=1e-12)
    # the same formulas at 50 digits
    mp = mp_backend(50)
    with mp.precision():
        arr_mp = AugArrays.from_setting(s, mp)
        assert abs(float(ag.infonce(arr_mp)) - ref["nce"]) < 1e-12


@pytest.mark.parametrize("cert", [proofs.infonce_decomposition, proofs.crosscorr_decomposition,
                                  proofs.barlow_trace_identity, proofs.simple_contrastive, proofs.nn_scores])
def test_identity_certificates_prove(cert) -> None:
    assert cert().ok


def test_sigma_delta_hand_made() -> None:
    # class 0: samples 0, 1, 2 on a line; 0 and 1 share an augmented input, 2 is 5 away; class 1: sample 3
    inputs = np.array([[[0.0], [1.0]], [[1.0], [2.0]], [[7.0], [8.0]], [[50.0], [51.0]]])
    feats = np.zeros((4, 2, 1))
    s = AugmentedSetting.create([0, 0, 0, 1], [1, 1, 3, 1], inputs, feats, 2)
    dist = ag.augmentation_distance(s)
    assert dist[0, 1] == 0 and dist[1, 2] == 5 and dist[0, 2] == 6
    sig, parts = ag.sigma_of(s, 0.0)
    assert parts == [[2], [3]] and sig == pytest.approx(3 / 5)  # {2} (mass 3) beats {0, 1} (mass 2)
    sig5, parts5 = ag.sigma_of(s, 5.0)
    assert parts5[0] == [1, 2] and sig5 == pytest.approx(4 / 5)
    sig6, _ = ag.sigma_of(s, 6.0)
    assert sig6 == 1.0
    # Err of a classifier that is wrong on sample 2 only
    err = ag.classification_error(s, [frozenset({0}), frozenset({0}), frozenset({1}), frozenset({1})])
    assert err == pytest.approx(3 / 6)


def test_nn_classifier_ties_are_reported() -> None:
    # mu_0 = mu_1 = 0: every point is a tie {0, 1} for both classifiers
    feats = np.array([[[1.0, 0.0]], [[-1.0, 0.0]], [[0.0, 1.0]], [[0.0, -1.0]]])
    s = AugmentedSetting.create([0, 0, 1, 1], [1, 1, 1, 1], np.zeros((4, 1, 1)), feats, 2)
    rep = ag.nn_classifier_report(s)
    assert rep["mismatch"] == 0 and rep["ties"] == 4
    assert ag.nn_predict(s)[0] == frozenset({0, 1})
    assert ag.classification_error(s, ag.nn_predict(s)) == 1.0  # a tie counts as a mistake


@pytest.mark.parametrize("bad", [
    dict(labels=[0, 2], mass=[1, 1]),  # class 1 empty
    dict(labels=[0, 1], mass=[1, -1]),  # negative mass
    dict(labels=[0, 1], mass=[1, 1], feats=np.full((2, 1, 1), np.nan)),
])
def test_bad_input_raises(bad) -> None:
    feats = bad.get("feats", np.zeros((2, 1, 1)))
    with pytest.raises(AssumptionError):
        AugmentedSetting.create(bad["labels"], bad["mass"], np.zeros((2, 1, 1)), feats)
    with pytest.raises(AssumptionError):
        ag.main_parts(_setting(), -1.0)


def test_json_round_trip() -> None:
    fam = AugmentedFamily(norm="sphere")
    s = fam.random_start(np.random.default_rng(3))
    back = fam.from_json(fam.to_json(s))
    assert np.array_equal(back.setting.feats, s.setting.feats) and np.array_equal(back.W, s.W)


EXPECTED = {
    "huang.infonce.decomposition": "proved",
    "huang.crosscorr.decomposition": "consistent",
    "huang.barlow.trace_identity": "consistent",
    "huang.simple_contrastive": "consistent",
    "huang.nn_classifier_linear": "consistent",
    "huang.barlow.trace_bound": "consistent",
    "huang.lemma2": "consistent",
    "huang.theorem4": "consistent",
    "huang.lemma1": "consistent",
    "huang.theorem1": "consistent",
    "huang.theorem2": "consistent",
    "huang.theorem3": "consistent",
    "huang.theorem1.general": "not_encodable",
    "huang.theorem3.general": "not_encodable",
}


def test_every_huang_id_is_registered() -> None:
    assert {c.id for c in all_claims(["huang"])} == set(EXPECTED)


@pytest.mark.parametrize("claim", all_claims(["huang"]), ids=lambda c: c.id)
def test_claim_verdict(claim) -> None:
    result = check_claim(claim, Budget(examples=12, adversarial_starts=1, adversarial_steps=10, shrink_tries=20,
                                       quick=True))
    assert result.verdict.value == EXPECTED[claim.id], result.reason
    assert result.expected
