"""The third outside plugin (examples/arora): Arora et al. (2019), Section 4, on finite mixtures, through the public
API only. Its claims run under pytest with their marker; its quantities agree with a brute-force numpy computation
written independently here (loops over (x, x+, x-) and over class pairs); its equality case is one; and each claim's
check can fail: a statement made a little stronger is refuted."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy
import torch  # noqa: F401  (loaded before pytester's in-process run, which forgets the modules it imported)

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.mixture import FiniteMixture
from theorems import Claim, Kind, Le, Source, parts
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.verdict import Verdict
from theorems.subjects import Subject

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "examples" / "arora"
FAST = Budget(examples=60, adversarial_starts=2, adversarial_steps=30, shrink_tries=200)
SRC = Source("test", "a mutated printed statement")
LOSS = {"hinge": lambda v: max(0.0, 1.0 - v), "logistic": lambda v: math.log2(1.0 + math.exp(-v))}

# a 3-class mixture, d = 2, skewed rho, unequal supports and masses
RHO = [0.5, 0.3, 0.2]
POINTS = [[[1.0, 0.2], [0.3, -0.4]], [[-0.5, 0.9]], [[0.1, 0.1], [-1.2, 0.0], [0.4, 0.7]]]
WEIGHTS = [[0.25, 0.75], [1.0], [0.2, 0.3, 0.5]]


@pytest.fixture
def ac(monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    monkeypatch.syspath_prepend(str(FOLDER))
    import arora_claims

    yield arora_claims
    for name in [m for m in sys.modules if m == "arora_claims" or m.startswith("arora_claims.")]:
        sys.modules.pop(name, None)


def _subject(rho: list[float], points: list, weights: list) -> Subject:
    mix = FiniteMixture.create(np.asarray(rho), [np.asarray(p, dtype=float) for p in points],
                               [np.asarray(w, dtype=float) for w in weights])
    return Subject({}, {"mixture": mix})


def _brute_force(loss: str, rho: list[float], points: list, weights: list) -> dict[str, float]:
    """Section 4 by enumeration: (c, c-) ~ rho^2, x, x+ ~ D_c, x- ~ D_{c-}; L^mu_sup over the ordered pairs c+ != c-."""
    l, K = LOSS[loss], len(rho)
    pts = [[(np.asarray(z), w) for z, w in zip(points[k], weights[k])] for k in range(K)]
    mu = [sum(w * z for z, w in pts[k]) for k in range(K)]
    un = same = sup = 0.0
    for c in range(K):
        for cn in range(K):
            for x, wx in pts[c]:
                for xp_, wp in pts[c]:
                    for xn, wn in pts[cn]:
                        term = rho[c] * rho[cn] * wx * wp * wn * l(float(x @ (xp_ - xn)))
                        un += term
                        same += term if c == cn else 0.0
                if c != cn:
                    sup += rho[c] * rho[cn] * wx * l(float(x @ (mu[c] - mu[cn])))
    tau = sum(r * r for r in rho)
    return {"L_un": un, "L_same": same / tau, "L_sup": sup / (1 - tau), "tau": tau}


@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_the_quantities_match_a_brute_force_enumeration(ac, loss: str) -> None:  # noqa: ANN001
    expected = _brute_force(loss, RHO, POINTS, WEIGHTS)
    subject = _subject(RHO, POINTS, WEIGHTS)
    q = ac.Q[loss]
    for xp in (FLOAT, mp_backend(40), torch_backend()):
        values = ac.two_plus.quantities(subject, [q["L_un"], q["L_sup"], ac.tau], xp)
        assert float(values[q["L_un"]]) == pytest.approx(expected["L_un"], rel=1e-12)
        assert float(values[q["L_sup"]]) == pytest.approx(expected["L_sup"], rel=1e-12)
        assert float(values[ac.tau]) == pytest.approx(expected["tau"], rel=1e-14)
        same = ac.any_classes.quantities(subject, [q["L_same"], ac.P_same], xp)
        assert float(same[q["L_same"]]) == pytest.approx(expected["L_same"], rel=1e-12)
        assert float(same[ac.P_same]) == pytest.approx(expected["tau"], rel=1e-14)


@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_lemma_4_3_is_an_equality_for_an_encoder_constant_on_each_class(ac, loss: str) -> None:  # noqa: ANN001
    """f constant on each class (one point per class): (L_un - tau)/(1 - tau) = L^mu_sup, at 60 digits."""
    subject = _subject([0.6, 0.4], [[[0.35, -0.15]], [[-0.1, 0.55]]], [[1.0], [1.0]])
    q = ac.Q[loss]
    xp = mp_backend(60)
    with xp.precision():  # as the engine evaluates: every operation at 60 digits
        v = ac.two_plus.quantities(subject, [q["L_un"], q["L_sup"], ac.tau], xp)
        gap = (v[q["L_un"]] - v[ac.tau]) / (1 - v[ac.tau]) - v[q["L_sup"]]
    assert abs(float(gap)) < 1e-50 and float(v[q["L_sup"]]) > 0.1


def test_the_lemma_4_3_certificates_pass(ac) -> None:  # noqa: ANN001
    for loss in ("hinge", "logistic"):
        assert ac.certificates.lemma43_upper(loss).ok
    assert ac.certificates.lemma43_attained().ok


@pytest.mark.parametrize("mutation", ["bound x 99/100", "no 1/(1 - tau)", "2 tau for tau"])
def test_a_lemma_4_3_made_stronger_is_refuted(ac, mutation: str) -> None:  # noqa: ANN001
    q, tau = ac.Q["logistic"], ac.tau
    bound = {"bound x 99/100": sympy.Rational(99, 100) * (q["L_un"] - tau) / (1 - tau),
             "no 1/(1 - tau)": q["L_un"] - tau, "2 tau for tau": (q["L_un"] - 2 * tau) / (1 - tau)}[mutation]
    claim = Claim("t.lemma", Kind.INEQUALITY, SRC, parts(Le(q["L_sup"], bound)), subjects=(ac.two_plus,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED, result.reason


@pytest.mark.parametrize("loss", ["hinge", "logistic"])
def test_a_same_class_bound_above_one_is_refuted(ac, loss: str) -> None:  # noqa: ANN001
    claim = Claim("t.same", Kind.INEQUALITY, SRC, parts(Le(sympy.Rational(101, 100), ac.Q[loss]["L_same"])),
                  subjects=(ac.any_classes,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED, result.reason


def test_its_claims_are_items_under_its_marker_and_one_runs(tmp_path: Path, env_plugin, marker_items,  # noqa: ANN001
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Its paper's marker selects exactly its claims as pytest items, and a selected item runs and passes. Every
    claim's verdict is checked by CI's audit of the example plugins (``.ci/run``), not again here."""
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    env_plugin("arora_claims", folder=FOLDER)
    marker_items("arora", "tau and not lemma and not same", passed=1)
