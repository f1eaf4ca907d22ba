"""Merad et al. Lemma 2 (8): the structured two-class sub-family (point mass vs symmetric pair) of merad.lemma2's
subjects reaches the region where L^mu_sup(f,C) <= L^N_un(f)/p_cc(N) is nearly tight."""

from __future__ import annotations

from numerics.seeds import Stream
import numpy as np
import pytest

from numerics.backend import FLOAT
from numerics.errors import AssumptionError
from theorems.engine.registry import get
from theorems.engine.search import adversarial_starts, admissible, sample_subjects
from theorems.subjects import Family, Subject
from theorems.papers.merad import mixtures as mx


def _ratio(family: Family, subject: Subject) -> float:
    q = family.quantities(subject, [mx.L_sup_mu, mx.L_un_N, mx.p_cc], FLOAT)
    return float(q[mx.L_sup_mu]) / (float(q[mx.L_un_N]) / float(q[mx.p_cc]))


def _lemma2() -> tuple[object, Family]:
    claim = get("merad.lemma2")
    family = next(f for f in claim.subjects if f.origin == "random" and f.parts["mixture"].structured)
    return claim, family


@pytest.mark.parametrize("rho_point", [0.5, 0.3])
def test_point_vs_pair_is_nearly_tight_at_large_scale(rho_point: float) -> None:
    claim, family = _lemma2()
    near = mx.point_vs_pair(rho_point, far=1000.0, spread=1.0, direction=[1.0, -2.0], N=6)
    assert admissible(claim, family, near)  # rho > 0, N >= N_C, inside the family's bounds
    assert claim.hypotheses_hold(near)
    r_near = _ratio(family, near)
    assert 0.95 <= r_near <= 1.0  # nearly tight, and the lemma (a true bound) holds
    # the ratio's limit as the scale grows: 1 - rho^N / (1 - (1 - rho)^N); the large-scale ratio approaches it
    limit = 1 - rho_point ** 6 / (1 - (1 - rho_point) ** 6)
    assert abs(r_near - limit) < 0.02
    # and the ratio grows with the scale
    r_small = _ratio(family, mx.point_vs_pair(rho_point, far=10.0, spread=1.0, direction=[1.0, -2.0], N=6))
    assert r_small < r_near


def test_point_vs_pair_structure() -> None:
    s = mx.point_vs_pair(0.4, far=30.0, spread=2.0, direction=[0.0, 3.0, 4.0], N=4, point_first=False)
    mix = s.mixture
    assert mix.n_classes == 2 and mix.rho.tolist() == pytest.approx([0.6, 0.4])
    pair, point = mix.points
    assert np.allclose(pair[0], -pair[1]) and mix.weights[0].tolist() == [0.5, 0.5]
    assert np.linalg.norm(point[0]) == pytest.approx(30.0) and np.linalg.norm(pair[0]) == pytest.approx(2.0)
    with pytest.raises(AssumptionError):
        mx.point_vs_pair(0.4, 30.0, 2.0, [0.0, 0.0], N=4)


def test_structured_draws_follow_the_seed() -> None:
    _, family = _lemma2()
    a, b = sample_subjects(family, 40, seed=3), sample_subjects(family, 40, seed=3)
    assert [family.describe(s) for s in a] == [family.describe(s) for s in b]
    assert any(mx.is_point_vs_pair(s.mixture) for s in a)
    assert any(not mx.is_point_vs_pair(s.mixture) for s in a)
    # the adversary starts from draws of the same strategy (one sampler), chosen with the seed
    starts, again = adversarial_starts(family, 20, Stream(5, "t")), adversarial_starts(family, 20, Stream(5, "t"))
    assert [family.describe(s) for s in starts] == [family.describe(s) for s in again]
    kinds = {mx.is_point_vs_pair(s.mixture) for s in starts}
    assert kinds == {True, False}
    for s in starts + a:
        family.validate(s)  # every draw lies in the family's bounds


def test_plain_families_are_unchanged_and_bad_shares_rejected() -> None:
    plain = mx.Mixtures(classes=(1, 3), negatives=(1, 6), n_at_least_classes=True)
    assert plain.parts["mixture"].structured == 0
    assert not any(mx.is_point_vs_pair(s.mixture) for s in sample_subjects(plain, 20, seed=0))
    with pytest.raises(ValueError):
        mx.Mixtures(structured=1.5)
    with pytest.raises(ValueError):
        mx.Mixtures(uniform=True, structured=0.3)  # the sub-family needs a free rho
