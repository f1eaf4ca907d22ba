"""The public parts of the Section 4 families (theorems.subjects.reals, theorems.papers.merad.triplet_parts) and the
composed families built from them: triplets, scalars, vectors, training sets, output norms."""

from __future__ import annotations

import math

from numerics.seeds import Stream
import numpy as np
import pytest
import torch

from numerics.backend import FLOAT, torch_backend
from numerics.errors import AssumptionError
from theorems.engine.search import adversarial_starts, sample_subjects
from theorems.papers.merad.training_sets import TrainingSets, grad_norm
from theorems.papers.merad.triplet_parts import BallTriplet, SampleOutputs, SampleTriplets
from theorems.subjects import Choice, Family, Given, Measured, Subject
from theorems.papers.merad import triplets as tp
from theorems.subjects.reals import WideVector
from theorems.papers.merad.triplets import Scalars, Triplets
from theorems.papers.merad.vectors import Vectors


def test_a_ball_triplet_maps_its_parameters_onto_the_ball_with_finite_gradients_at_zero_blocks() -> None:
    part = BallTriplet("d", 2.0)
    z = np.array([[1.5, 0.3], [5e-323, -1e-185], [0.0, 0.0]])  # a subnormal and a zero block: hypothesis draws them
    w = torch.tensor(part.to_param(z), requires_grad=True)
    back = part.from_param(w, torch_backend())
    np.testing.assert_allclose(back.detach().numpy(), [[1.5, 0.3], [0, 0], [0, 0]], atol=1e-12)
    (back ** 2).sum().backward()
    assert torch.all(torch.isfinite(w.grad))
    far = part.from_param(torch.tensor([[400.0, 0.0], [0.0, 0.0], [1e-5, 0.0]]), torch_backend())
    assert float(far[0, 0]) == pytest.approx(2.0) and float(far[2, 0]) == pytest.approx(2e-5)
    with pytest.raises(AssumptionError, match="exceed the radius"):
        part.validate(np.array([[3.0, 0.0], [0.0, 0.0], [0.0, 0.0]]), (3, 2), "z")


def test_triplet_norms_have_a_finite_torch_gradient_at_a_zero_block() -> None:
    fam = Triplets("ball")
    z = np.array([[1.0], [0.0], [0.5]])
    subject = Subject({"d": 1}, {"C": 1.0, "z": z, "z_next": z.copy()})
    params = fam.params(subject)
    values = fam.quantities(subject, [tp.max_norm_prod, tp.eta, tp.eps], torch_backend(), params=params)
    sum(values.values()).backward()
    assert torch.all(torch.isfinite(params[0].grad))  # z (z_next plays no part in these)
    floats = fam.quantities(subject, [tp.max_norm_prod, tp.eta], FLOAT)
    assert float(floats[tp.max_norm_prod]) == pytest.approx(1.0) and float(floats[tp.eta]) == 0.0


def test_the_step_is_z_next_minus_z_and_the_regions_are_drawn_in_the_ball() -> None:
    for region in ("ball", "near_optimal"):
        fam = Triplets(region)
        for s in sample_subjects(fam, 30, seed=1):
            fam.validate(s)
            assert np.all(np.linalg.norm(s.z, axis=1) <= s.C * (1 + 1e-12)) and s.C in tp.RADII
            values = fam.quantities(s, [tp.step_sq, tp.ell_step], FLOAT)
            assert float(values[tp.step_sq]) == pytest.approx(float(np.sum((s.z_next - s.z) ** 2)), rel=1e-12, abs=1e-300)
    us = [float(s.z[0] @ (s.z[2] - s.z[1])) for s in sample_subjects(Triplets("near_optimal"), 30, seed=2)]
    assert min(us) < -1.0  # the near-optimal region reaches tiny v_2 on purpose


def test_the_adversary_starts_from_the_families_own_draws() -> None:
    for fam in (Triplets("ball"), Scalars(0.0, 0.5), Vectors(), TrainingSets()):
        starts = adversarial_starts(fam, 4, Stream(0, "t"))
        assert len(starts) == 4
        for s in starts:
            fam.validate(s)
            back = fam.from_params(s, fam.params(s))
            fam.validate(back)


def test_choice_and_measured_parts() -> None:
    radius = Choice((1.0, 0.05, 30.0))
    assert (radius.lo, radius.hi) == (0.05, 30.0) and list(radius.simpler(2.4)) == [2.0]
    with pytest.raises(AssumptionError, match="outside"):
        radius.validate(31.0, (), "C")
    learned = Choice((), lo=0.0, open_lo=True)
    learned.validate(1e6, (), "C")
    with pytest.raises(AssumptionError):
        learned.read(0.0, (), "C", "fam")
    norms = Family("norms (test)", {}, {"lo": Measured(0.0), "hi": Given(lambda c: Measured(c["lo"]))})
    norms.validate(Subject({}, {"lo": math.nan, "hi": math.nan}))  # a diverged run stays a subject
    with pytest.raises(AssumptionError, match="must be >="):
        norms.validate(Subject({}, {"lo": 2.0, "hi": 1.0}))


def test_a_wide_vector_of_pairs_deletes_a_pair_and_keeps_its_length_even() -> None:
    fam = Vectors(even=True)
    s = Subject({"n_pairs": 2}, {"x": np.array([1.0, 2.0, 3.0, 4.0])})
    fam.validate(s)
    shrunk = [t for t in fam.shrink(s) if t.n_pairs == 1]
    assert [t.x.tolist() for t in shrunk] == [[3.0, 4.0], [1.0, 2.0]]
    with pytest.raises(AssumptionError):
        fam.validate(Subject({"n_pairs": 2}, {"x": np.array([1.0, 2.0, 3.0])}))
    assert WideVector("n").shape({"n": 3}) == (3,)


def test_sample_triplets_and_outputs_shrink_together() -> None:
    shared = TrainingSets()
    s = Subject({"m": 4, "n": 2, "d": 1}, {"C": 1.0, "T": np.array([[0, 1, 3], [3, 1, 0]]),
                                          "Y": np.array([[0.5], [-0.5], [0.9], [0.1]])})
    shared.validate(s)
    valid = []
    for t in shared.shrink(s):
        try:
            shared.validate(t)
            valid.append(t)
        except AssumptionError:
            pass
    unused = [t for t in valid if t.m == 3]  # sample 2 serves no triplet: dropped, the later ones renumbered
    assert len(unused) == 1 and unused[0].T.tolist() == [[0, 1, 2], [2, 1, 0]]
    assert unused[0].Y.ravel().tolist() == [0.5, -0.5, 0.1]
    disjoint = TrainingSets(samples=(3, 9), disjoint=True)
    d = Subject({"n": 2, "d": 1}, {"C": 1.0, "T": np.array([[4, 0, 2], [1, 5, 3]]),
                                  "Y": np.arange(6, dtype=float)[:, None] / 10})
    disjoint.validate(d)
    first = next(t for t in disjoint.shrink(d) if t.n == 1)  # drop triplet 0 and its samples 0, 2, 4
    assert first.T.tolist() == [[0, 2, 1]] and first.Y.ravel().tolist() == [0.1, 0.3, 0.5]
    disjoint.validate(first)
    values = TrainingSets().quantities(d, [grad_norm], FLOAT)  # the default family reads a 3n-sample subject
    assert float(values[grad_norm]) > 0
    assert isinstance(SampleTriplets("n", None).resolve({"n": 2}), SampleTriplets)
    with pytest.raises(Exception):
        SampleOutputs("m", "d").strategy((2, 1))  # no descent: never drawn (trained outputs)
