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


# -- the steps of the proof (merad.lemma3.steps) and (12): proved bounds under the printed ones, for clcheck mutate --
def test_the_steps_bounds_certify_and_smaller_constants_fail() -> None:
    from theorems.papers.merad import steps_sharp as ss
    assert ss.dcos_sharp().ok and ss.curvature_sharp().ok and ss.hessian_steps_upper().ok and ss.quadratic_bound_upper().ok
    assert ss.hessian_steps_upper().complete and ss.quadratic_bound_upper().complete
    assert not ss.dcos_sharp(Fraction(19, 10)).ok  # ||dcos_ij||^2 = 2 max^2 at equal norms
    assert not ss.curvature_sharp(Fraction(7, 5)).ok
    assert not ss.hessian_steps_upper(Fraction(7, 5)).ok


def test_the_equality_triplets_attain_the_steps_sharp_bounds() -> None:
    """At the witness, ||dcos_ij|| = sqrt 2 max and the curvature term = 3/2 M (ratio 1), and ||Hess l|| = lam(M),
    inside [lam(M), 3/2 M + sqrt 2] -- evaluated by the claim's own quantities at 40 digits."""
    from theorems.engine.probe import evaluate
    from theorems import Le, Part
    registry.load_plugins(["merad"])
    steps = registry.get("merad.lemma3.steps")
    rows = {s.part: s for s in steps.sharp}
    cases = steps.sharp[0].attained()
    assert len(cases) == 5 and all(family is steps.subjects[0] for family, _ in cases)
    for family, subject in cases:
        for label, row in rows.items():
            lower = evaluate(steps, family, subject, dps=40, parts=[Part(Le(*row.sides), "sharp")])[0]
            upper = evaluate(steps, family, subject, dps=40, parts=[Part(Le(*row.bound), "bound")])[0]
            assert float(lower.ratio) == pytest.approx(1.0, rel=1e-12), label
            assert upper.margin <= upper.tol and float(upper.ratio) <= 1.0 + 1e-12, label


@pytest.mark.parametrize("claim_id", ["merad.lemma3", "merad.lemma3.steps"])
def test_every_constant_moved_5_percent_or_more_is_shown_true_by_a_proved_bound(claim_id: str) -> None:
    """The printed constants of Lemma 3 and of its proof's norm steps are loose (3/2 against 8, sqrt 2 against 2):
    clcheck mutate's 5-20 % strengthenings of them all hold, and a certified bound shows each."""
    from theorems.engine.mutate import CONSTANT, mutations, shown_true
    registry.load_plugins(["merad"])
    claim = registry.get(claim_id)
    from theorems.papers.merad.certificates import SOFTMAX_CURVATURE
    moved = [m for m in mutations(claim, 0)[0] if m.kind == CONSTANT and m.amount >= Fraction(1, 20)
             and any(s.part == m.part for s in claim.sharp)]
    sharp_already = [m for m in moved if m.part == SOFTMAX_CURVATURE]  # 2 v1 v2 <= 1/2 is attained: these are false
    moved = [m for m in moved if m not in sharp_already]
    assert len(moved) == (12 if claim_id == "merad.lemma3" else 18)  # 2 constants of 2 parts; 1 of 4 parts and 2 of 1, x 5, 10, 20 %
    assert all(shown_true(claim, m) for m in moved), [m.describe() for m in moved if not shown_true(claim, m)]
    assert len(sharp_already) == (0 if claim_id == "merad.lemma3" else 3)
    assert not any(shown_true(claim, m) for m in sharp_already)
