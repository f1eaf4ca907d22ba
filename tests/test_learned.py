"""Learned encoders as subjects: snapshots, the cache, and the Section 5 experiments (quick sizes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from numerics.backend import FLOAT
from theorems import holds
from training import snapshots as learned
from theorems.papers.merad import experiments as ex
from theorems.papers.merad import mixtures as mx
from theorems.engine.budget import Budget
from theorems.engine.claim import RunContext
from theorems.engine.check import check_claim
from theorems.engine.probe import probe
from theorems.engine.witness import replay, witness_json
from theorems.engine.registry import get
from theorems.papers.merad.learned import NormSnapshots, learned_mixtures
from theorems.subjects.learned import snapshot_mixture
from theorems.engine.verdict import Verdict

TINY = learned.RunSpec("tiny", seed=3, n_negatives=1, steps=10, log_every=5, per_class=3)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    return tmp_path


def test_a_run_is_trained_once_then_read_from_the_cache(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snaps = learned.run_snapshots(TINY)
    assert [s.step for s in snaps] == [0, 5, 10]
    assert snaps[0].embeddings.shape == (30, TINY.d_out) and set(snaps[0].labels) == set(range(10))
    assert all(0 < s.norm_min <= s.norm_max for s in snaps)

    def no_training(spec: learned.RunSpec) -> None:
        raise AssertionError("retrained a cached run")

    monkeypatch.setattr(learned, "_train", no_training)
    again = learned.run_snapshots(TINY)
    np.testing.assert_array_equal(again[-1].embeddings, snaps[-1].embeddings)


def test_snapshot_mixtures_are_valid_subjects(cache: Path) -> None:
    snap = learned.run_snapshots(TINY)[-1]
    mix = snapshot_mixture(snap, uniform=False)
    assert mix.n_classes == 10 and mix.support_sizes == (3,) * 10
    assert abs(mix.rho.sum() - 1) < 1e-12 and mix.rho.min() == pytest.approx(snap.class_freq.min())
    fam = learned_mixtures([TINY], [TINY], ks=(1, 9))
    subjects = list(fam.exhaustive(quick=True))
    assert len(subjects) == 4 and {s.k for s in subjects} == {1, 9}
    values = fam.quantities(subjects[-1], [mx.L_un, mx.L_sup_mu, mx.L_sup], FLOAT)
    assert values[mx.L_sup] <= values[mx.L_sup_mu] + 1e-12
    assert fam.origin == "learned" and f"tiny seed {TINY.for_audit_seed(0).seed} step" in fam.describe(subjects[-1])


def test_a_witness_from_a_learned_subject_replays_without_the_encoder(cache: Path) -> None:
    claim = get("merad.lemma1")
    fam = learned_mixtures([TINY], [TINY])
    subject = next(iter(fam.exhaustive(quick=True)))
    data = witness_json(claim, probe(claim, fam, subject, force_confirm=True), seed=0, role="minimal")
    data["family"] = claim.subjects[-1].name  # the learned family registered on the claim
    assert replay(data, claim).confirmed is not None


def test_output_norm_subjects(cache: Path) -> None:
    fam = NormSnapshots([TINY], [TINY])
    subjects = list(fam.exhaustive(quick=True))
    assert len(subjects) == 3
    assert fam.to_json(fam.from_json(fam.to_json(subjects[0]))) == fam.to_json(subjects[0])
    assert subjects[0].norm_min <= subjects[0].norm_max and subjects[0].source


def test_theorem1_quick_experiment_decreases_the_loss_and_reports_its_numbers(cache: Path) -> None:
    outcome = ex.theorem1(RunContext(seed=0, quick=True, out_dir=cache))
    assert [o.config["eps"] for o in outcome.observations] == list(ex.EPS_GRID)  # measurements, no verdict
    assert all(not holds(o.at_init) and len(o.seeds) == 5 for o in outcome.observations)  # L^_un ~ n log 2 at step 0
    assert outcome.parameters["widths"] == list(ex.QUICK_WIDTHS)
    assert outcome.effect_size < 0  # log10(final / initial): the loss went down
    assert "| m |" in outcome.markdown and (cache / "merad.theorem1.png").exists()
    for run in ex.theorem1_runs(quick=True):
        assert run["history"][-1][1] < run["history"][0][1]


def test_observation_claims_run_on_the_quick_learned_runs(cache: Path) -> None:
    """The runs' snapshots are evaluated; a snapshot whose run already had the property at initialization is no
    evidence for training (issue 39): a claim with no other snapshot is untested, saying so."""
    for cid in ("merad.fig1", "merad.assumption2"):
        result = check_claim(get(cid), Budget(examples=0, adversarial_starts=0, quick=True))
        assert result.subject_kinds and set(result.subject_kinds.values()) == {"learned"}
        assert result.examples > 0
        if result.nontrivial_examples == 0:
            assert result.verdict == Verdict.UNTESTED and "initialization" in result.reason, result.to_json()
        else:
            assert result.verdict == Verdict.CONSISTENT, result.to_json()


def test_huang_learned_subjects_are_normalized_as_their_claims_assume(cache: Path) -> None:
    from theorems.papers.huang.experiments import learned_augmented
    from theorems.papers.huang.subjects import setting

    nce = list(learned_augmented("infonce").exhaustive(quick=True))
    bt = list(learned_augmented("barlow").exhaustive(quick=True))
    assert nce and bt and all(setting(s).feats.shape == (50, 3, 16) for s in nce + bt)
    f = setting(nce[-1]).feats
    np.testing.assert_allclose(np.linalg.norm(f, axis=2), 1.0, rtol=1e-12)  # ||f|| = 1 (InfoNCE)
    g = setting(bt[-1]).feats
    np.testing.assert_allclose((g ** 2).mean(axis=(0, 1)), 1.0, rtol=1e-12)  # E f_i^2 = 1 (Barlow)


def test_learned_subjects_follow_the_audit_seed() -> None:
    """Trained encoders are random choices too: the same audit seed gives the same runs and the
    same result, a different seed trains different runs (issue 10, item 10). Uses the shared cache
    (the quick runs of seed 0 are the ones the claims' tests train)."""
    def points(seed: int) -> list[np.ndarray]:
        fam = get("merad.fig1").subjects[0].for_seed(seed)
        return [np.concatenate(s.mixture.points) for s in fam.exhaustive(quick=True)]

    base, again, other = points(0), points(0), points(1)
    assert all(np.array_equal(a, b) for a, b in zip(base, again, strict=True))
    assert not any(np.allclose(a, b) for a, b in zip(base, other, strict=True))
    budget = Budget(examples=0, adversarial_starts=0, quick=True)
    r0, r0b, r1 = (check_claim(get("merad.fig1"), budget, seed=s) for s in (0, 0, 1))
    assert (r0.worst_ratio, r0.min_slack) == (r0b.worst_ratio, r0b.min_slack)
    assert (r0.worst_ratio, r0.min_slack) != (r1.worst_ratio, r1.min_slack)
    assert {r.seed for r in ex.for_seed(ex.FIG1_RUNS, 1)}.isdisjoint(r.seed for r in ex.for_seed(ex.FIG1_RUNS, 0))
