"""The verdict store (issue 41): an unchanged claim reuses its verdict after its evidence replays, an edited claim
is searched again (and only it), and no stored entry makes a verdict stronger than a fresh check would."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from theorems.engine import registry
from theorems.engine.budget import PROFILES
from theorems.engine.fingerprint import claim_fingerprint
from theorems.engine.verdict import Verdict
from theorems.frontend import store
from theorems.frontend.cli import app
from theorems.frontend.runner import Job, run_job

runner = CliRunner()

PLUGIN = textwrap.dedent('''
    from sympy import Le, Rational
    from theorems import Claim, Kind, parts, Plugin, Source, quantity
    from theorems.subjects import Family, Scalar

    def _identity(v):
        return v * HELPER_FACTOR

    @quantity(range=(0, None))
    def X_st(s, xp):
        """the drawn value"""
        return _identity(s.x)

    SCALARS = Family("scalars in [0.1, 10]", dims={}, parts={"x": Scalar(0.1, 10.0)}, quantities=(X_st,))
    PLUGIN = Plugin()
    PLUGIN.claim(Claim(id="st.holds", kind=Kind.INEQUALITY, source=Source(file="x", numbering="1"),
                       statement=parts(Le(X_st, CONSTANT_A * X_st)), subjects=(SCALARS,)))
    PLUGIN.claim(Claim(id="st.fails", kind=Kind.INEQUALITY, source=Source(file="x", numbering="2"),
                       statement=parts(Le(X_st, Rational(9, 10) * X_st)), subjects=(SCALARS,)))
    register = PLUGIN.register
''')


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("CLCHECK_STORE", "1")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def _load(folder: Path, constant: str, helper: str = "1") -> registry.Registry:
    """A fresh copy of the registry with the plugin as written now (CONSTANT_A = ``constant``, the helper's factor
    ``helper``)."""
    (folder / "store_claims.py").write_text(PLUGIN.replace("CONSTANT_A", constant).replace("HELPER_FACTOR", helper))
    sys.modules.pop("store_claims", None)
    fresh = registry.Registry()
    fresh.load_plugin("store_claims", "st")
    return fresh


def _audit(folder: Path, name: str, *extra: str) -> dict:
    res = runner.invoke(app, ["audit", "--paper", "st", "--profile", "quick", "--jobs", "1", "--out",
                              str(folder / name), *extra])
    assert res.exit_code == 1, res.output  # st.fails is an unrecorded refutation: the gate fails, as it should
    return {c["id"]: c for c in json.loads((folder / name / "report.json").read_text())["claims"]}


def test_a_second_audit_reuses_every_unchanged_verdict_and_an_edit_searches_only_the_edited_claim(cache) -> None:
    with registry.isolated(_load(cache, "Rational(2)")):
        first = _audit(cache, "first")
        second = _audit(cache, "second")
        fresh = _audit(cache, "fresh", "--fresh")
    assert {k: c["verdict"] for k, c in first.items()} == {"st.holds": "consistent", "st.fails": "refuted"}
    assert not any(c["reused"] for c in first.values()) and all(c["reused"] for c in second.values())
    assert {k: c["verdict"] for k, c in second.items()} == {k: c["verdict"] for k, c in first.items()}
    assert second["st.fails"]["witness"] == first["st.fails"]["witness"]
    assert not any(c["reused"] for c in fresh.values())
    with registry.isolated(_load(cache, "Rational(3)")):  # one claim edited: only it is searched again
        edited = _audit(cache, "edited")
    assert not edited["st.holds"]["reused"] and edited["st.fails"]["reused"]
    assert "*reused*" in (cache / "second" / "report.md").read_text()


def test_the_fingerprint_changes_with_the_claims_own_declaration_and_the_helpers_it_uses(cache) -> None:
    def prints(constant: str, helper: str = "1") -> dict[str, str]:
        with registry.isolated(_load(cache, constant, helper)) as reg:
            return {c: claim_fingerprint(reg.get(c), "store_claims") for c in ("st.holds", "st.fails")}

    two, again, three = prints("Rational(2)"), prints("Rational(2)"), prints("Rational(3)")
    assert two == again
    assert two["st.holds"] != three["st.holds"] and two["st.fails"] == three["st.fails"]
    helper = prints("Rational(2)", helper="1.0")  # a helper the quantity calls, edited: both claims use it
    assert helper["st.holds"] != two["st.holds"] and helper["st.fails"] != two["st.fails"]


@pytest.mark.parametrize("tamper", ["witness holds", "best ratio", "certificate", "other seed"])
def test_a_stored_entry_whose_evidence_no_longer_replays_is_searched_again(cache, tamper: str) -> None:
    """A refuted entry whose witness no longer violates, a consistent one whose best subject no longer reaches its
    recorded ratio, an entry whose certificate records were altered, and a lookup under another seed: each is a
    miss, and the claim is checked afresh."""
    budget = PROFILES["quick"]
    with registry.isolated(_load(cache, "Rational(2)")) as reg:
        claim_id = "st.fails" if tamper == "witness holds" else "st.holds"
        result, _ = run_job(Job(claim_id, budget, 0, store=True, write_artifacts=False))
        assert not result.reused and run_job(Job(claim_id, budget, 0, store=True, write_artifacts=False))[0].reused
        path = store._path(claim_id)
        entry = json.loads(path.read_text())
        data = entry["result"]
        if tamper == "witness holds":
            data["witness"]["subject"]["values"]["x"] = 0.0  # X <= 0.9 X holds at x = 0: no violation
        elif tamper == "best ratio":
            (row,) = data["tightness"]
            row["witness"]["ratio"] = 0.25  # the ratio of X <= 2 X is 1/2 at every subject
        elif tamper == "certificate":
            data["certificate"] = [{"method": "sympy", "statement": "s", "domain": "all", "ok": True}]
        path.write_text(json.dumps(entry))
        seed = 1 if tamper == "other seed" else 0
        assert store.reuse(reg.get(claim_id), budget, seed, artifacts=False) is None
        again, _ = run_job(Job(claim_id, budget, seed, store=True, write_artifacts=False))
    assert not again.reused and again.verdict == (Verdict.REFUTED if claim_id == "st.fails" else Verdict.CONSISTENT)


def test_an_error_is_never_stored_and_an_unreadable_entry_is_a_miss(cache) -> None:
    budget = PROFILES["quick"]
    with registry.isolated(_load(cache, "Rational(2)")) as reg:
        claim = reg.get("st.holds")
        result, _ = run_job(Job("st.holds", budget, 0, store=True, write_artifacts=False))
        store._path("st.holds").write_text("{not json")
        assert store.reuse(claim, budget, 0, artifacts=False) is None
        store._path("st.holds").unlink()
        result.verdict = Verdict.ERROR
        store.save(claim, budget, 0, result, {}, artifacts=False)
        assert not store._path("st.holds").exists()


def test_a_check_leaves_the_claims_fingerprint_as_it_was() -> None:
    """The key is the same before and after a check in one process (a walk that took a temporary's reused id for
    an object seen before gave merad.lemma7.steps another key after its check), and the same in another order."""
    from theorems.engine.budget import Budget
    from theorems.engine.check import check_claim
    from theorems.engine.registry import get, origin

    tiny = Budget(examples=6, adversarial_starts=1, adversarial_steps=5, shrink_tries=5, quick=True)
    claims = [get("merad.lemma7.steps"), get("merad.lse.max_bounds")]
    before = [claim_fingerprint(c, origin(c.id) or "") for c in claims]
    for c in claims:
        check_claim(c, tiny)
    assert [claim_fingerprint(c, origin(c.id) or "") for c in reversed(claims)] == before[::-1]
