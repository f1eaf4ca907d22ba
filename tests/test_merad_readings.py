"""Merad et al., issue 39 item 3: the readings of Lemma 3's matrix norm and of Lemma 7's gradient.

Lemma 3 (= Lemma 5 = Lemma 4.1): the proof prints its matrix norms without a subscript. The spectral reading (literal)
is the one its values fix; the Frobenius reading makes ||d2cos_ij||_F = sqrt(2d) and ||Hess l(0)||_F = sqrt(d) > 2 for
d >= 5. The tests compute these values in three backends, check that the three claims share one definition of the
readings (theorems.papers.merad.lemma3_norms), and that no certificate of a Frobenius reading covers a matrix-norm part.
Lemma 7: the gradient in the 3n output slots keeps a shared sample's loss vectors apart (no cancellation)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics.backend import FLOAT, mp_backend, torch_backend
from theorems.engine.registry import all_claims
from theorems.papers.merad import assumption1, at_init, learned
from theorems.papers.merad import certificates as proofs
from theorems.papers.merad import claims as mc
from theorems.papers.merad import lemma3_norms as l3n
from theorems.papers.merad import training_sets as ts
from theorems.papers.merad import triplet as tl
from theorems.papers.merad import triplets as tp
from theorems.papers.merad.training_sets import TrainingSets
from theorems.papers.merad.triplets import Triplets
from theorems.subjects import Subject

LEMMA3_CLAIMS = ("merad.lemma3", "merad.lemma3.steps", "merad.lemma3.printed_equalities")
BACKENDS = {"float": lambda: FLOAT, "mp": lambda: mp_backend(40), "torch": torch_backend}


def _claims():
    return {c.id: c for c in all_claims(papers=["merad"])}


def _triplet(z: np.ndarray, C: float = 1.0) -> Subject:
    return Subject({"d": z.shape[1]}, {"C": C, "z": z, "z_next": z.copy()}, "test triplet")


def _values(z: np.ndarray, quantities: list, backend: str) -> list[float]:
    out = Triplets("ball", dims=(1, 8)).quantities(_triplet(z), quantities, BACKENDS[backend]())
    return [float(out[q]) for q in quantities]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
@pytest.mark.parametrize("d", [1, 4, 5, 8])
def test_spectral_and_frobenius_norms_separate_where_the_proof_prints_its_values(d: int, backend: str) -> None:
    """At z = 0: ||d2cos_ij|| = 1 (spectral) vs sqrt(2d) (Frobenius); Hess l(0) = M/2 has spectral norm sqrt(2)/2 and
    Frobenius norm sqrt(d), above the printed 2 + 8 max ||z_i|| ||z_j|| = 2 exactly when d >= 5."""
    z = np.zeros((3, d))
    spec_min, spec_max, fro_min, fro_max, hess2, hessF, bound = _values(
        z, [tp.d2cos_norm_min, tp.d2cos_norm_max, tp.d2cos_norm_min_fro, tp.d2cos_norm_max_fro, tp.hess_norm,
            tp.hess_norm_fro, tp.max_norm_prod], backend)
    assert spec_min == pytest.approx(1.0) and spec_max == pytest.approx(1.0)
    assert fro_min == pytest.approx(math.sqrt(2 * d)) and fro_max == pytest.approx(math.sqrt(2 * d))
    assert hess2 == pytest.approx(math.sqrt(2) / 2) and hessF == pytest.approx(math.sqrt(d))
    assert (hessF > 2 + 8 * bound + 1e-9) == (d >= 5)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_softmax_and_curvature_norms_agree_in_both_readings(backend: str) -> None:
    """diag(v) - v v^T and the curvature term are rank one: their Frobenius and spectral norms coincide."""
    rng = np.random.default_rng(3)
    z = rng.normal(size=(3, 3))
    s2, sF, c2, cF, h2, hF = _values(z, [tp.softmax_curv_norm, tp.softmax_curv_norm_fro, tp.curv_term_norm,
                                         tp.curv_term_norm_fro, tp.hess_norm, tp.hess_norm_fro], backend)
    assert sF == pytest.approx(s2, rel=1e-12) and cF == pytest.approx(c2, rel=1e-12)
    assert h2 <= hF + 1e-12  # ||H||_2 <= ||H||_F: the Frobenius route part implies the spectral one
    H = tl.hessian_chain_rule(z, FLOAT)
    assert hF == pytest.approx(float(np.linalg.norm(H, "fro")), rel=1e-12)


def test_lemma3_claims_share_one_definition_of_the_norm_readings() -> None:
    claims = _claims()
    for cid in LEMMA3_CLAIMS:
        claim = claims[cid]
        assert l3n.SPECTRAL in claim.literal, cid
        frobenius = [r for r in claim.readings if r.name.startswith(l3n.FROBENIUS_NAME)]
        assert frobenius, cid
        for r in frobenius:
            assert r.rests_on.startswith(l3n.FROBENIUS_RESTS_ON), (cid, r.name)
            assert r.subjects and all(f.dims["d"][1] >= 5 for f in r.subjects), (cid, r.name)  # where it can fail
            assert r.known_refutation.startswith(cid + "@"), (cid, r.name)
    assert l3n.STATEMENT_NORM in claims["merad.lemma3"].encoding


def test_frobenius_readings_keep_every_printed_hypothesis() -> None:
    claims = _claims()
    lemma3 = claims["merad.lemma3"]
    (reading,) = [r for r in lemma3.readings if r.name == l3n.FROBENIUS_NAME]
    assert reading.assumptions is None  # z, z + z' in B^3 as in the literal reading
    assert [str(p) for p in reading.statement][:2] == [str(p) for p in lemma3.statement]


def test_base_point_reading_frees_only_the_step_and_keeps_only_the_hessian_certificate() -> None:
    """'base point in B^3, any step': z stays in B^3 (the hypothesis is kept), z + z' may leave it; the Taylor step of
    lemma3_from_steps needs the segment in B^3, so its certificate covers the Hessian bound only."""
    (reading,) = [r for r in _claims()["merad.lemma3"].readings if r.name == "base point in B^3, any step"]
    assert reading.assumptions == (mc.BASE_IN_BALL,)
    inside, outside = np.zeros((3, 2)), np.full((3, 2), 5.0)
    assert mc.BASE_IN_BALL.holds(Subject({"d": 2}, {"C": 1.0, "z": inside, "z_next": outside}, ""))
    assert not mc.BASE_IN_BALL.holds(Subject({"d": 2}, {"C": 1.0, "z": outside, "z_next": inside}, ""))
    assert not mc.IN_BALL.holds(Subject({"d": 2}, {"C": 1.0, "z": inside, "z_next": outside}, ""))
    (make,) = reading.certificates
    cert = make()
    assert cert.ok and set(cert.parts) == {proofs.LEMMA3_PARTS[1]}
    assert all(f.name.endswith(f"within {mc.REACH:g} C") for f in reading.subjects)


def test_no_certificate_of_a_frobenius_reading_covers_a_matrix_norm_part() -> None:
    frobenius_labels = {l3n.HESS_F, l3n.SOFTMAX_F, *l3n.D2COS_F, l3n.CURV_F, l3n.HESS_NORM_F, l3n.PRINTED_CURV_F,
                        l3n.PRINTED_HESS_F}
    for cid in LEMMA3_CLAIMS:
        for r in _claims()[cid].readings:
            if not r.name.startswith(l3n.FROBENIUS_NAME):
                continue
            assert r.certificates is not None, (cid, r.name)  # never the literal proof's certificates by inheritance
            for make in r.certificates:
                cert = make()
                assert cert.ok and cert.parts is not None and not (set(cert.parts) & frobenius_labels), make.__name__


def test_read_as_le_reading_is_the_step_certificate_s_statement() -> None:
    (reading,) = [r for r in _claims()["merad.lemma3.printed_equalities"].readings if r.name == "'=' read as '<='"]
    cert = proofs.lemma3_curvature_norms()
    assert cert.ok and {str(p) for p in reading.statement} <= set(cert.parts)


# -- Lemma 7: the gradient in the 3n output slots ------------------------------------------------------------------

def _training_set(Y: np.ndarray, T: np.ndarray) -> Subject:
    m, n, d = Y.shape[0], T.shape[0], Y.shape[1]
    return Subject({"m": m, "n": n, "d": d}, {"C": 1.0, "T": T, "Y": Y}, "test training set")


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_slot_gradient_keeps_a_shared_sample_s_loss_vectors_apart(backend: str) -> None:
    """x_2 anchors (x_2, x_1, x_0) and (x_2, x_0, x_1) with f(x_0) = f(x_1) (the literal reading's witness shape): the
    per-sample gradient cancels, the slot gradient is sqrt(sum_ij ||loss_ij||^2) > 0."""
    Y = np.array([[0.3, 0.4], [0.3, 0.4], [0.6, -0.8]])
    T = np.array([[2, 1, 0], [2, 0, 1]])
    s = _training_set(Y, T)
    out = TrainingSets().quantities(s, [ts.grad_norm, ts.grad_norm_slots, ts.max_loss_vector], BACKENDS[backend]())
    per_sample, slots, biggest = (float(out[q]) for q in (ts.grad_norm, ts.grad_norm_slots, ts.max_loss_vector))
    assert per_sample == pytest.approx(0.0, abs=1e-12)
    expected = math.sqrt(sum(float(np.sum(v * v)) for t in T for v in tl.loss_vectors(Y[t], FLOAT)))
    assert slots == pytest.approx(expected, rel=1e-12) and slots >= biggest > 0


def test_slot_gradient_equals_the_per_sample_one_without_shared_samples() -> None:
    rng = np.random.default_rng(5)
    Y = rng.normal(size=(6, 2))
    T = np.array([[0, 1, 2], [3, 4, 5]])
    out = TrainingSets().quantities(_training_set(Y, T), [ts.grad_norm, ts.grad_norm_slots], FLOAT)
    assert float(out[ts.grad_norm_slots]) == pytest.approx(float(out[ts.grad_norm]), rel=1e-12)


def test_lemma7_slot_reading_keeps_assumption2_and_reads_only_the_gradient() -> None:
    claim = _claims()["merad.lemma7"]
    (slots,) = [r for r in claim.readings if r.name == "gradient in the 3n output slots"]
    names = [a.name for a in slots.assumptions]
    assert "Assumption 2" in names and len(names) == len(claim.assumptions)
    assert slots.subjects is None  # the literal training sets: a sample may serve several triplets


def test_lemma7_reading_certificates_prove_the_conclusion_label_only_under_their_readings() -> None:
    claim = _claims()["merad.lemma7"]
    by_name = {r.name: r for r in claim.readings}
    assert not claim.certificates  # the literal reading (shared samples, per-sample gradient) is refuted, not proved
    for name, make in (("gradient in the 3n output slots", proofs.lemma7_slots_from_steps),
                       ("every sample in one triplet", proofs.lemma7_disjoint_from_steps)):
        assert by_name[name].certificates == (make,)
        cert = make()
        assert cert.ok and cert.complete and set(cert.parts) == {str(p) for p in claim.statement}
        assert cert.details["chain (z3)"] is True


# -- Assumption 2: one definition of "during and at the end of the training" for its two claims --------------------

def test_assumption2_readings_are_shared_by_both_claims() -> None:
    claims = _claims()
    for cid in ("merad.assumption2", "merad.assumption2.constants"):
        claim = claims[cid]
        assert claim.literal == mc.ASSUMPTION2_LITERAL, cid
        (end,) = [r for r in claim.readings if r.name == mc.ASSUMPTION2_END]
        assert end.rests_on == mc.ASSUMPTION2_END_RESTS_ON, cid


class _Snap:
    def __init__(self, i: int) -> None:
        self.i, self.norm_min, self.norm_max = i, 0.5 + i, 1.0 + i

    def describe(self) -> str:
        return f"run step {self.i}"


class _Spec:
    def for_audit_seed(self, seed: int) -> "_Spec":
        return self


def test_end_only_norm_snapshots_keep_the_last_step_and_the_initialization_baseline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    registered = []
    monkeypatch.setattr(learned, "run_snapshots", lambda spec: [_Snap(0), _Snap(1), _Snap(2)])
    monkeypatch.setattr(at_init, "register", lambda source, key, value: registered.append((source, value)))
    every = list(learned.NormSnapshots([_Spec()], [], end_only=False).snapshots.subjects(False, 0))
    last = list(learned.NormSnapshots([_Spec()], [], end_only=True).snapshots.subjects(False, 0))
    assert [s.source for s in every] == ["run step 0", "run step 1", "run step 2"]
    assert [s.source for s in last] == ["run step 2"]
    assert registered == [("run step 0", 0.5), ("run step 0", 0.5)]  # the baseline stays the initialization


# -- Assumption 1 without the convention x != x' ------------------------------------------------------------------

def test_assumption1_any_pair_reading_fails_on_every_set_so_the_remark_is_uninformative() -> None:
    e = np.eye(3)
    assert assumption1.separation([e[0], e[1], e[2]], "any pair") == 0.0  # no reuse, still 0: x = x' is a pair
    assert assumption1.separation([e[0], e[1], e[2]], "set") > 0
    outcome = assumption1.assumption1_any_pair(None)  # type: ignore[arg-type]
    (obs,) = outcome.observations
    assert obs.holds == (True,) and obs.at_init is True  # met on the baseline without reuse: no evidence
    outcome_set = assumption1.assumption1(None)  # type: ignore[arg-type]
    assert outcome_set.observations[0].at_init is None  # the literal reading has no such baseline
    (reading,) = [r for r in _claims()["merad.assumption_1"].readings if r.name == assumption1.ANY_PAIR_NAME]
    assert reading.experiment is assumption1.assumption1_any_pair
    assert assumption1.ANY_PAIR_NAME in _claims()["merad.theorem1"].encoding
