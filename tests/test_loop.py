"""The user's loop (issue 41): `clcheck eval` on a subject, `clcheck check` on one claim, `--watch`'s wait."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from theorems.frontend.cli import app
from theorems.frontend.watch import plugin_files, wait_for_change
from theorems.papers.merad.plugin import PAPER as MERAD

runner = CliRunner()
WITNESS = MERAD.witnesses / "merad.prop1.part1.json"


def test_check_prints_one_claims_verdict_and_evidence_and_gates_like_an_audit() -> None:
    res = runner.invoke(app, ["check", "merad.lse.nonneg", "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "merad.lse.nonneg: proved" in res.output and "evidence:" in res.output and "best ratio" in res.output
    refuted = runner.invoke(app, ["check", "merad.coupon.variance"])  # recorded as refuted: passes the gate
    assert refuted.exit_code == 0 and "refuted" in refuted.output and "witness:" in refuted.output
    unknown = runner.invoke(app, ["check", "merad.no_such_claim"])
    assert unknown.exit_code == 2 and "unknown claim" in unknown.output and "Traceback" not in unknown.output


def test_eval_on_a_witness_shows_every_backend_and_the_violated_part() -> None:
    res = runner.invoke(app, ["eval", "merad.prop1.part1", "--subject", str(WITNESS), "--dps", "40"])
    assert res.exit_code == 0, res.output
    assert "float64" in res.output and "mpmath 40 digits" in res.output and "the subject of the witness" in res.output
    assert "NO" in res.output  # the witness violates the part


def test_eval_draws_a_seeded_subject_and_names_bad_input() -> None:
    first = runner.invoke(app, ["eval", "merad.lse.max_bounds", "--seed", "4", "-q", "lse_x"])
    again = runner.invoke(app, ["eval", "merad.lse.max_bounds", "--seed", "4", "-q", "lse_x"])
    assert first.exit_code == 0 and first.output == again.output and "lse_x" in first.output
    bad = runner.invoke(app, ["eval", "merad.lse.max_bounds", "-q", "no_such_quantity"])
    assert bad.exit_code == 2 and "has no quantity 'no_such_quantity'" in bad.output


def test_a_plain_subject_needs_its_family_and_must_be_valid(tmp_path: Path) -> None:
    data = json.loads(WITNESS.read_text())
    plain = tmp_path / "subject.json"
    plain.write_text(json.dumps(data["subject"]))
    res = runner.invoke(app, ["eval", "merad.prop1.part1", "--subject", str(plain)])
    assert res.exit_code == 2 and "needs --family" in res.output
    res = runner.invoke(app, ["eval", "merad.prop1.part1", "--subject", str(plain), "--family", data["family"]])
    assert res.exit_code == 0, res.output
    plain.write_text(json.dumps({"dims": {}, "values": {}}))
    res = runner.invoke(app, ["eval", "merad.prop1.part1", "--subject", str(plain), "--family", data["family"]])
    assert res.exit_code == 2 and "not a valid subject" in res.output and "Traceback" not in res.output


def test_watch_waits_for_a_change_of_the_plugins_files(tmp_path: Path) -> None:
    files = plugin_files("theorems.papers.merad.claims")
    assert any(p.name == "claims.py" for p in files) and all(p.suffix == ".py" for p in files)
    watched = [tmp_path / "a.py", tmp_path / "b.py"]
    for p in watched:
        p.write_text("x = 1\n")
    assert wait_for_change(watched, poll=0.0, sleep=lambda s: None, give_up=0.0) == []
    assert wait_for_change(watched, poll=1.0, sleep=lambda s: None, give_up=3.0) == []  # nothing changed

    def edit(_: float) -> None:
        watched[1].write_text("x = 22\n")

    assert wait_for_change(watched, poll=1.0, sleep=edit, give_up=3.0) == [watched[1]]
