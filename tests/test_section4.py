"""Merad et al. Section 4: the triplet loss's derivatives, Lemma 3's tightness search, precision."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from sympy import Eq, log

from theorems.papers.merad import triplet as tl
from numerics.backend import FLOAT, mp_backend, torch_backend
from theorems.papers.merad import triplets as tp
from theorems.engine.claim import Claim, Kind, Source, parts
from theorems.engine.probe import probe
from theorems.papers.merad.lemma3_tightness import hessian_norm_sup
from theorems.subjects import Subject
from theorems.papers.merad.triplets import Triplets

RNG = np.random.default_rng(0)


def autograd(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    zt = torch.tensor(z, dtype=torch.float64)

    def f(flat: torch.Tensor) -> torch.Tensor:
        w = flat.reshape(3, -1)
        return torch.nn.functional.softplus((w[0] * (w[2] - w[1])).sum(), beta=1, threshold=1e9)

    flat = zt.reshape(-1)
    grad = torch.autograd.functional.jacobian(f, flat).numpy()
    hess = torch.autograd.functional.hessian(f, flat).numpy()
    return grad, hess


@pytest.mark.parametrize("d", [1, 2, 4])
@pytest.mark.parametrize("scale", [0.1, 1.0, 3.0])
def test_closed_forms_match_autograd(d: int, scale: float) -> None:
    for _ in range(5):
        z = RNG.normal(size=(3, d)) * scale
        grad, hess = autograd(z)
        for g in (tl.gradient_chain_rule(z, FLOAT), tl.gradient_proof(z, FLOAT)):
            np.testing.assert_allclose(g, grad, rtol=1e-10, atol=1e-12)
        for h in (tl.hessian_chain_rule(z, FLOAT), tl.hessian_proof(z, FLOAT)):
            np.testing.assert_allclose(h, hess, rtol=1e-10, atol=1e-12)
        blocks = np.concatenate(tl.loss_vectors(z, FLOAT))
        np.testing.assert_allclose(blocks, grad, rtol=1e-10, atol=1e-12)


def test_high_precision_twin_agrees_with_float_and_torch() -> None:
    z = RNG.normal(size=(3, 3))
    mp = mp_backend(50)
    with mp.precision():
        h_mp = np.array(tl.hessian_proof(mp.asarray(z), mp), dtype=float)
        n_mp = float(tl.spectral_norm(tl.hessian_chain_rule(mp.asarray(z), mp), mp))
    np.testing.assert_allclose(h_mp, tl.hessian_proof(z, FLOAT), rtol=1e-13, atol=1e-15)
    xp = torch_backend()
    n_torch = float(tl.spectral_norm(tl.hessian_chain_rule(torch.tensor(z), xp), xp))
    assert math.isclose(n_mp, n_torch, rel_tol=1e-12)


def test_proof_gradient_keeps_relative_accuracy_when_v2_is_tiny() -> None:
    # u = z1.(z3 - z2) = -60: v2 = e^-60; a literal v1 - 1 would be 0 in float64
    z = np.array([[1.0], [30.0], [-30.0]])
    g = tl.gradient_proof(z, FLOAT)
    exact = tl.gradient_chain_rule(z, FLOAT)
    np.testing.assert_allclose(g, exact, rtol=1e-13)
    assert np.all(np.abs(g) > 0)


def test_a_violation_that_vanishes_with_more_digits_is_not_a_counterexample() -> None:
    # zeta(u) = -log(1 - v2) is exact, but at u = 660 v2 = 1 - e^-660 rounds to 1 at 60 digits
    claim = Claim("test.precision", Kind.IDENTITY, Source("t", "t"), parts(Eq(tp.ell, -log(1 - tp.v2))),
                  subjects=(Triplets(),))
    z = np.array([[22.0], [0.0], [30.0]])
    subject = Subject({"d": 1}, {"C": 30.0, "z": z, "z_next": z.copy()})  # the step z' = z_next - z is 0
    p = probe(claim, claim.subjects[0], subject)
    assert p.candidate  # float64 gives inf
    assert not p.violated
    assert p.dps > 60


def test_tightness_search_beats_a_known_point_and_stays_below_both_bounds() -> None:
    C = 1.0
    known = np.array([[C, 0.0], [0.0, C], [0.0, -C]])  # u = 0, ||grad u||^2 = 6 C^2
    floor = float(tl.spectral_norm(tl.hessian_chain_rule(known, FLOAT), FLOAT))
    found, z = hessian_norm_sup(C, 2, starts=4, steps=120, seed=0)
    assert found >= floor - 1e-9
    assert found <= 1.5 * C * C + math.sqrt(2) + 1e-9 <= 2 + 8 * C * C
    assert np.all(np.linalg.norm(z, axis=1) <= C + 1e-12)
