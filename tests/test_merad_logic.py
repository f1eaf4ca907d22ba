"""Merad et al.: the logical form of every claim (prefixes, readings), the experiments as measurements only, and the
certificates' domains (issue 27)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from theorems import holds
from numerics.errors import AssumptionError
from theorems.engine.claim import RunContext
from theorems.engine.logic import EXISTS, check_prefix
from theorems.engine.registry import all_claims
from theorems.engine.rules.experiment import experiment_verdict
from theorems.engine.verdict import Verdict
from theorems.papers.merad import certificates as certs
from theorems.papers.merad import experiments as ex
from theorems.papers.merad import observations as ob
from theorems.papers.merad import sharp_constants as sc
from theorems.engine.search import sample_subjects
from theorems.papers.merad.training_sets import TrainingSets
from theorems.subjects import Subject

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "theorems" / "papers" / "merad"


def _claims() -> dict:
    return {c.id: c for c in all_claims(papers=["merad"])}


def test_no_module_of_the_plugin_names_a_verdict() -> None:
    offenders = [f"{p.name}:{i}" for p in PLUGIN.glob("*.py")
                 for i, line in enumerate(p.read_text().splitlines(), 1) if "Verdict" in line]
    assert not offenders, offenders


def test_every_claim_has_a_prefix_and_every_page_shows_it() -> None:
    claims = _claims()
    assert len(claims) >= 24
    for cid, claim in claims.items():
        assert claim.prefix, cid
        check_prefix(cid, claim.prefix)
        page = (ROOT / "proofs_md" / f"{cid}.md").read_text()
        assert "## Logical form" in page and "Prefix:" in page and "Readings:" in page, cid
        # the section sits right after the statement, before the assumptions
        assert page.index("## Statement as printed") < page.index("## Logical form") < page.index("## Assumptions"), cid
        for reading in claim.readings:
            assert reading.name in page, (cid, reading.name)


def _bound(prefix: tuple, name: str):
    return next(b for b in prefix if b.name == name)


def test_theorem1_prefix_in_printed_order() -> None:
    claim = _claims()["merad.theorem1"]
    names = [b.name for b in claim.prefix]
    # Assumptions 1 and 2 are granted first, then 'let eps > 0', then the width, the initialization, nu and T
    assert names.index("(eta, C)") < names.index("eps") < names.index("c_m") < names.index("m") < names.index("T")
    c_m, nu, T = (_bound(claim.prefix, n) for n in ("c_m", "nu", "T"))
    assert c_m.quantifier == EXISTS and c_m.depends_on == ()  # as printed: an absolute constant
    assert "m" not in T.depends_on and "eps" in T.depends_on and "m" in nu.depends_on  # T = O(.../eps^2), no m
    proof, positions, run, any_pair = claim.readings
    assert any_pair.unsatisfiable and any_pair.prefix is None  # Assumption 1 over any pair: no data set grants it
    assert "(eta, C)" in _bound(proof.prefix, "c_m").depends_on  # as proved: Lemma 6 at eps eta/(2n)
    assert "(eta, C)" in _bound(proof.prefix, "T").depends_on
    # issue 38: the positions reading keeps (eta, C) before eps; the run reading binds it after the run
    pnames, rnames = [b.name for b in positions.prefix], [b.name for b in run.prefix]
    assert pnames.index("(eta, C)") < pnames.index("eps")
    assert rnames.index("eps") < rnames.index("T") < rnames.index("(eta, C)")
    assert _bound(run.prefix, "(eta, C)").quantifier == EXISTS


def test_lemma2_omega_constant_is_existential_and_absolute() -> None:
    c_N = _bound(_claims()["merad.lemma2"].prefix, "c_N")
    assert c_N.quantifier == EXISTS and c_N.depends_on == () and "Omega" in c_N.asymptotic


# -- certificates cover exactly the domain they say -------------------------------------------------------
def test_neg_log_is_certified_on_the_printed_range_and_the_half_range_certificates_say_they_are_partial() -> None:
    full = certs.neg_log1m_symbolic()
    assert full.ok and full.complete and full.parts == (certs.NEG_LOG,) and "[0, 1)" in full.domain
    half = certs.neg_log1m_interval()
    assert half.ok and not half.complete
    steps = _claims()["merad.lemma7.steps"]
    assert any(getattr(f.parts.get("x"), "hi", 0) > 0.99 for f in steps.subjects)  # the printed x < 1 is sampled
    ratio = next(p for p in steps.statement if str(p) == certs.RATIO)
    assert ratio.applies(type("S", (), {"x": 0.4})()) and not ratio.applies(type("S", (), {"x": 0.7})())


def test_finite_range_certificates_are_not_complete() -> None:
    assert certs.sup_le_mean_feasibility().ok and not certs.sup_le_mean_feasibility().complete
    lower = sc.witness_symbolic()
    assert lower.ok and not lower.complete and "d = 2, 3, 4" in lower.domain
    assert not certs.rearrangement_counts().complete and not certs.tau_plus_general().complete


def test_no_complete_certificate_claims_a_finite_range() -> None:
    """A certificate's domain naming a finite range ('N_C <= 12', 'n = 1..4', 'd = 2, 3, 4') is complete=False."""
    finite = re.compile(r"<= ?\d|= 1\.\.\d|\bin \{|d = 2, 3, 4")
    for claim in _claims().values():
        for make in getattr(claim, "certificates", ()):
            cert = make()
            if cert.ok and cert.complete and cert.parts != ():
                assert not finite.search(cert.domain) or "every" in cert.domain, (claim.id, cert.method, cert.domain)


# -- Lemma 7's second reading: every sample in one triplet ----------------------------------------------------
def test_disjoint_training_sets_put_every_sample_in_one_triplet() -> None:
    fam = TrainingSets(samples=(3, 9), disjoint=True)
    for s in sample_subjects(fam, 5, seed=0):  # the draws the random search and the adversary start from
        assert s.Y.shape[0] == 3 * s.T.shape[0] and np.unique(s.T).size == s.T.size
        fam.validate(s)
    for s in fam.shrink(sample_subjects(fam, 5, seed=0)[-1]):  # dropping a triplet drops its samples
        if s.n >= 1:
            assert s.Y.shape[0] == 3 * s.n and sorted(s.T.ravel().tolist()) == list(range(3 * s.n))
    witness = json.loads((PLUGIN / "witnesses" / "merad.lemma7.json").read_text())["subject"]
    shared = TrainingSets().from_json(witness)  # the literal reading's witness: x_2 anchors two triplets
    shared = Subject({k: v for k, v in shared.dims.items() if k != "m"}, shared.values)  # as a 3n-sample set
    with pytest.raises(AssumptionError, match="serves two triplets"):
        fam.validate(shared)
    with pytest.raises(ValueError):
        TrainingSets(samples=(3, 6), triplets=(1, 3), disjoint=True)  # m = 9 would be out of range


# -- experiments return measurements; the engine reads them --------------------------------------------------
def _gd_runs(final: float, eta: float = 0.5) -> list[dict]:
    history = [(0, 13.0), (10, 1.0), (20, 0.2), (30, final)]
    norms = [(0, 1.0, 2.0), (30, eta, 3.0)]
    return [{"width": w, "seed": s, "history": history, "outputs": np.ones((ex.N_TRIPLETS, 3, ex.D_OUT)),
             "delta": 0.2, "norms": norms} for w in (16, 128) for s in range(5)]


def test_theorem1_unreached_eps_cannot_tell_and_never_refutes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ex, "theorem1_runs", lambda quick, seed=0: _gd_runs(0.05))
    outcome = ex.theorem1(RunContext(seed=0, quick=True))
    by_eps = {o.config["eps"]: o for o in outcome.observations}
    assert all(holds(h) for h in by_eps[1.0].holds) and by_eps[0.003].holds == (None,) * 5
    assert by_eps[1.0].holds[0].lhs == 1.0  # the relation measured at the first logged step reaching eps = 1
    assert not any(holds(o.at_init) for o in outcome.observations)
    judged = experiment_verdict("forall", outcome)
    assert judged.verdict == Verdict.INCONCLUSIVE  # some eps not reached at this width: cannot tell, not refuted


def test_theorem1_out_of_regime_when_assumption2_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ex, "theorem1_runs", lambda quick, seed=0: _gd_runs(1e-4, eta=0.0))
    judged = experiment_verdict("forall", ex.theorem1(RunContext(seed=0, quick=True)))
    assert judged.verdict == Verdict.UNTESTED
    assert all(not row["in_regime"] and "Assumption 2" in row["why"] for row in judged.rows)


def test_theorem1_consistent_when_every_seed_reaches_every_eps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ex, "theorem1_runs", lambda quick, seed=0: _gd_runs(1e-4))
    outcome = ex.theorem1(RunContext(seed=0, quick=True))
    assert outcome.growth and outcome.growth[0].parameter == "1/eps"
    assert experiment_verdict("forall", outcome).verdict == Verdict.CONSISTENT


def test_assumption2_constants_is_uninformative_where_the_initialization_meets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    groups = [({"runs": "demo", "setting": "m = 16"}, [(s, [(1.0, 2.0), (0.5, 3.0)]) for s in range(5)])]
    monkeypatch.setattr(ob, "_norm_groups", lambda ctx: groups)
    judged = experiment_verdict("settings", ob.assumption2_constants(RunContext(seed=0, quick=True)))
    assert judged.verdict == Verdict.UNTESTED and "uninformative" in judged.reason
    collapsed = [({"runs": "demo", "setting": "m = 16"}, [(s, [(1.0, 2.0), (0.0, 3.0)]) for s in range(5)])]
    monkeypatch.setattr(ob, "_norm_groups", lambda ctx: collapsed)
    outcome = ob.assumption2_constants(RunContext(seed=0, quick=True))
    assert outcome.observations[0].holds == (False,) * 5  # an output collapsed to 0 during training
    end_only = ob.assumption2_constants(RunContext(seed=0, quick=True), end_only=True)
    assert end_only.observations[0].holds == (False,) * 5
