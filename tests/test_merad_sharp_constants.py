"""Merad et al. Lemma 3 (= Lemma 5 = Lemma 4.1): the sharp constant of ||Hess l|| on B^3, certified on both sides
(theorems/papers/merad/sharp_constants.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from numerics import coq
from theorems.papers.merad import triplet as tl
from numerics.backend import FLOAT
from theorems.engine import registry
from theorems.papers.merad import sharp_constants as sc

KEYS = ("merad.lemma3_sharp_hessian_form", "merad.lemma3_sharp_sigma", "merad.lemma3_sharp_hess_u",
        "merad.lemma3_sharp_grad", "merad.lemma3_sharp_upper", "merad.lemma3_sharp_lower",
        "merad.lemma3_sharp_constant")


def _hess_norm(z: np.ndarray) -> float:
    return float(np.linalg.norm(tl.hessian_chain_rule(z, FLOAT), 2))


def test_pieces_certify_and_wrong_constants_fail() -> None:
    assert sc.hessian_form().ok and sc.hess_u_norm().ok and sc.sigma_facts().ok
    assert sc.grad_norm_bound().ok and sc.composition_z3().ok
    # the same proofs with smaller constants are false and must not certify
    assert not sc.grad_norm_bound(Fraction(59, 10)).ok
    assert not sc.composition_z3(Fraction(7, 5)).ok


def test_upper_lower_and_limit() -> None:
    upper, lower, sharp = sc.sharp_upper(), sc.sharp_lower(), sc.sharp_constant()
    assert upper.ok and lower.ok and sharp.ok
    # the lower bound's witness is computed for d = 2, 3, 4 (d > 4 by an argument not machine-checked): not complete
    assert upper.complete and not lower.complete and not sharp.complete
    assert sharp.details["limit lower/C^2"] == "3/2" and sharp.details["limit upper/C^2"] == "3/2"
    assert sharp.details["limit printed/C^2"] == "8"
    assert sc.for_claim().parts == ()  # beside merad.lemma3, covering none of its printed parts


def test_registered_for_the_proof_page() -> None:
    for key in KEYS:
        assert registry.current().certificate(key) is not None, key


@pytest.mark.parametrize("C", [0.1, 0.7, 3.0, 40.0])
def test_witness_value_is_the_hessian_norm_there(C: float) -> None:
    """The symbolic lam(C) against an independent float evaluation of ||Hess l|| at the witness (d = 2, 3)."""
    lam = (3 * C * C + math.sqrt(9 * C ** 4 + 8)) / 4
    for d in (2, 3):
        z = np.array(sc.witness(C, d), dtype=float)
        assert _hess_norm(z) == pytest.approx(lam, rel=1e-12)
    assert lam > 1.5 * C * C and lam <= 1.5 * C * C + math.sqrt(2)


def test_random_points_of_the_ball_stay_below_the_upper_bound() -> None:
    """Points of B^3 (on and inside the boundary, u near 0 included) never exceed 1.5 C^2 + sqrt 2."""
    rng = np.random.default_rng(7)
    for _ in range(300):
        d = int(rng.integers(1, 5))
        C = float(10 ** rng.uniform(-1.5, 1.5))
        w = rng.normal(size=(3, d))
        w /= np.linalg.norm(w, axis=1, keepdims=True)
        z = C * w * rng.uniform(0.5, 1.0, size=(3, 1)) ** rng.integers(0, 2)
        if rng.random() < 0.5 and d >= 2:  # push u = z1.(z3 - z2) to 0 by making z1 orthogonal to z3 - z2
            diff = z[2] - z[1]
            if np.linalg.norm(diff) > 0:
                z[0] -= (z[0] @ diff) / (diff @ diff) * diff
        assert _hess_norm(z) <= 1.5 * C * C + math.sqrt(2) + 1e-9 * (1 + C * C)


@pytest.mark.skipif(coq.coqc_path() is None, reason="coqc not installed")
def test_coq_accepts_the_script_and_rejects_a_smaller_constant() -> None:
    assert sc.scalar_facts_coq().ok
    assert not sc.scalar_facts_coq(leading=Fraction(7, 5)).ok
    # the Coq script is the cross-check of the scalar pieces: the method of each end names it
    assert "coq" in sc.sharp_upper().method and "coq" in sc.sharp_lower().method
