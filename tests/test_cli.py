"""The clcheck command line, the report format, and claims registered from outside the repository."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from theorems.engine.witness import subject_checksum
from theorems.frontend.cli import app
from theorems.frontend.report import REPORT_VERSION
from theorems.papers.merad.plugin import PAPER as MERAD

WITNESS_DIR = MERAD.witnesses

runner = CliRunner()
REPORT_KEYS = {"id", "kind", "source", "verdict", "examples", "min_slack", "worst_ratio", "witness",
               "certificate", "expected"}


def test_audit_writes_both_reports_with_the_documented_shape(tmp_path: Path) -> None:
    out = tmp_path / "report"
    res = runner.invoke(app, ["audit", "--claim", "merad.lse.nonneg", "--claim", "merad.coupon.variance",
                              "--budget", "15", "--adversarial-starts", "1", "--seed", "3",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads((out / "report.json").read_text())
    assert data["version"] == REPORT_VERSION and data["seed"] == 3
    assert [c["id"] for c in data["claims"]] == ["merad.coupon.variance", "merad.lse.nonneg"]
    for c in data["claims"]:
        assert REPORT_KEYS <= set(c)
        assert c["expected"] is True
    refuted = data["claims"][0]
    assert refuted["verdict"] == "refuted" and refuted["witness"]["claim"] == "merad.coupon.variance"
    md = (out / "report.md").read_text()
    assert "| `merad.coupon.variance` |" in md and "**refuted**" in md
    assert (out / "witnesses" / "merad.coupon.variance.json").exists()


def test_audit_exit_code_is_the_ci_gate(tmp_path: Path) -> None:
    res = runner.invoke(app, ["audit", "--claim", "no.such.claim", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "unknown claim" in res.output


@pytest.mark.parametrize("witness", sorted(p.name for p in WITNESS_DIR.glob("*.json")))
def test_replay_confirms_each_recorded_witness(witness: str) -> None:
    res = runner.invoke(app, ["replay", str(WITNESS_DIR / witness)])
    assert res.exit_code == 0, res.output
    assert "still refutes" in res.output
    if json.loads((WITNESS_DIR / witness).read_text()).get("kind") is None:  # a subject: each part re-evaluated
        assert "VIOLATED" in res.output  # (an experiment re-runs, a reach row is bounded again)


def test_replay_of_a_witness_that_holds_exits_1(tmp_path: Path) -> None:
    data = json.loads((WITNESS_DIR / "merad.prop1.part1.json").read_text())
    data["subject"]["values"]["mixture"]["points"] = [[[10.0], [-10.0]], [[0.0]]]
    data["subject"]["values"]["mixture"]["weights"] = [[0.5, 0.5], [1.0]]
    data["subject_sha256"] = subject_checksum(data["subject"])  # recorded on the edited subject
    path = tmp_path / "w.json"
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exit_code == 1 and "no longer refutes" in res.output


PLUGIN = textwrap.dedent('''
    """A user's own claim, outside the clcheck repository."""
    from sympy import Le
    from theorems import Claim, Kind, parts, Plugin, Source
    from theorems.papers.merad import mixtures as mx
    from theorems.papers.merad import vectors as vec
    from theorems.papers.merad.mixtures import Mixtures
    PLUGIN = Plugin()

    PLUGIN.claim(Claim(
        id="mine.mean_le_un_bound", kind=Kind.INEQUALITY,
        source=Source(file="my-paper.pdf", numbering="Lemma 9"),
        statement=parts(Le(mx.L_sup_mu, mx.L_un / mx.p_min + 2 * mx.N_C)),
        subjects=(Mixtures(classes=(1, 3)),),
    ))
    register = PLUGIN.register
''')


def test_a_claim_registered_outside_the_repo_reaches_the_audit(tmp_path: Path, env_plugin) -> None:  # noqa: ANN001
    """Through ``CLCHECK_PLUGINS`` as the audit reads it (in this process; test_reliability runs
    audits of such a plugin as processes, and CI runs pytest on the installed example plugin)."""
    env_plugin("my_claims", PLUGIN)
    res = runner.invoke(app, ["audit", "--paper", "mine", "--budget", "10", "--adversarial-starts", "1",
                              "--jobs", "1", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    assert [c["id"] for c in data["claims"]] == ["mine.mean_le_un_bound"]
    assert data["claims"][0]["verdict"] == "consistent"


def test_a_claim_registered_outside_the_repo_reaches_pytest_m_theorems(env_plugin, pytester) -> None:  # noqa: ANN001
    env_plugin("my_claims", PLUGIN)
    run = pytester.runpytest_inprocess("--claims", "-m", "theorems", "-k", "mine", "-p", "no:cacheprovider")
    run.assert_outcomes(passed=1)


def test_clcheck_train_checkpoints_and_resumes_with_the_saved_configuration(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = runner.invoke(app, ["train", "--data", "digits", "--encoder", "conv", "--n-negatives", "3",
                                "--steps", "4", "--batch", "16", "--device", "cpu", "--out", str(out),
                                "--no-progress"])
    assert first.exit_code == 0, first.output
    assert (out / "last.pt").exists()
    again = runner.invoke(app, ["train", "--resume", str(out / "last.pt"), "--steps", "6", "--device", "cpu",
                                "--out", str(out), "--no-progress"])
    assert again.exit_code == 0, again.output
    assert "for 6 steps" in again.output and "conv" in again.output


FALSE_PLUGIN = textwrap.dedent('''
    from sympy import Le
    from theorems import Claim, Kind, parts, Plugin, Source
    from theorems.papers.merad import mixtures as mx
    from theorems.papers.merad import vectors as vec
    from theorems.papers.merad.vectors import Vectors
    PLUGIN = Plugin()

    PLUGIN.claim(Claim(id="mine.lse_le_max", kind=Kind.INEQUALITY, source=Source(file="x", numbering="y"),
                   statement=parts(Le(vec.lse_x, vec.max_x)), subjects=(Vectors(),)))
    register = PLUGIN.register
''')


def test_an_unrecorded_refutation_fails_the_audit_gate(tmp_path: Path, user_plugin) -> None:  # noqa: ANN001
    user_plugin("false_claims", FALSE_PLUGIN)
    res = runner.invoke(app, ["audit", "--paper", "mine", "--budget", "10", "--adversarial-starts", "0",
                              "--jobs", "1", "--out", str(tmp_path / "out")])
    assert res.exit_code == 1, res.output
    claim = json.loads((tmp_path / "out" / "report.json").read_text())["claims"][0]
    assert claim["verdict"] == "refuted" and claim["expected"] is False
    assert (tmp_path / "out" / "witnesses" / "mine.lse_le_max.json").exists()


def test_listing_claims_does_not_import_torch() -> None:
    code = ("import sys\nfrom typer.testing import CliRunner\nfrom theorems.frontend.cli import app\n"
            "r = CliRunner().invoke(app, ['list', '--paper', 'merad.lse'])\n"
            "print(r.exit_code, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "False"]


UNDECIDED_PLUGIN = textwrap.dedent('''
    from sympy import Le
    from theorems import Assumption, Claim, Kind, parts, Plugin, Source
    from theorems.papers.merad import vectors as vec
    from theorems.papers.merad.vectors import Vectors
    PLUGIN = Plugin()

    never = Assumption("impossible", "no vector satisfies this", lambda s: False)
    PLUGIN.claim(Claim(id="mine.never_met", kind=Kind.INEQUALITY, source=Source(file="x", numbering="y"),
                   statement=parts(Le(vec.max_x, vec.lse_x)), assumptions=(never,), subjects=(Vectors(),)))
    register = PLUGIN.register
''')


def test_an_undecided_claim_passes_the_gate_unless_strict(tmp_path: Path, user_plugin,  # noqa: ANN001
                                                          pytester: pytest.Pytester) -> None:
    """In this process: the plugin's registration is undone after the test (``user_plugin``)."""
    user_plugin("undecided_claims", UNDECIDED_PLUGIN)
    base = ["audit", "--paper", "mine", "--budget", "5", "--adversarial-starts", "0", "--jobs", "1",
            "--out", str(tmp_path / "out")]
    res = runner.invoke(app, base)
    assert res.exit_code == 0, res.output
    assert "undecided (untested or inconclusive): mine.never_met" in " ".join(res.output.split())
    claim = json.loads((tmp_path / "out" / "report.json").read_text())["claims"][0]
    assert claim["verdict"] == "untested" and claim["undecided"] is True
    strict = runner.invoke(app, base + ["--strict"])
    assert strict.exit_code == 1, strict.output
    args = ["--claims", "-m", "theorems", "-k", "mine", "-rs", "-p", "no:cacheprovider"]
    skipped = pytester.runpytest_inprocess(*args)
    skipped.assert_outcomes(skipped=1)
    assert "undecided: untested" in skipped.stdout.str()
    failed = pytester.runpytest_inprocess(*args, "--theorems-strict")
    failed.assert_outcomes(failed=1)


def test_the_xdist_controller_loads_no_paper(pytester: pytest.Pytester) -> None:
    """Under ``-n 2`` the controller collects nothing (its workers do), so it imports no paper; a
    worker, and a run without ``-n``, collect the claims."""
    from theorems.frontend.pytest_plugin import _collects

    assert not _collects(pytester.parseconfigure("-n", "2", "-p", "no:cacheprovider"))
    assert _collects(pytester.parseconfigure("-n", "0", "-p", "no:cacheprovider"))
    assert _collects(pytester.parseconfigure("-p", "no:cacheprovider"))


def test_an_inequality_reports_its_best_ratio_with_a_witness_that_replays(tmp_path: Path) -> None:
    """report.json gives every inequality part's best ratio; its witness replays to the same ratio -- exit 1 all the
    same, since a tightness witness refutes nothing (a replay exits 0 only for a refutation) -- and an edited ratio is
    reported as no longer reached (exit 1)."""
    out = tmp_path / "report"
    res = runner.invoke(app, ["audit", "--claim", "merad.lse.max_bounds", "--profile", "quick", "--out", str(out)])
    assert res.exit_code == 0, res.output
    (claim,) = json.loads((out / "report.json").read_text())["claims"]
    rows = {t["part"]: t for t in claim["tightness"]}
    assert set(rows) == {"max(x) <= LSE(x)", "LSE(x) <= max(x) + log n"}
    assert all(0 < t["best_ratio"] <= 1 + 1e-9 for t in rows.values())
    assert "tightness of `LSE(x) <= max(x) + log n`: best smaller side / larger side" in (out / "report.md").read_text()
    witness = out / "witnesses" / "merad.lse.max_bounds.tight2.json"
    replayed = runner.invoke(app, ["replay", str(witness)])
    assert replayed.exit_code == 1 and "reaches the recorded ratio" in replayed.output, replayed.output
    assert "does not refute" in replayed.output
    data = json.loads(witness.read_text())
    data["ratio"] = data["ratio"] * 0.9
    witness.write_text(json.dumps(data))
    edited = runner.invoke(app, ["replay", str(witness)])
    assert edited.exit_code == 1 and "no longer reaches" in edited.output
    data["ratio"] = "0.5"
    witness.write_text(json.dumps(data))
    malformed = runner.invoke(app, ["replay", str(witness)])
    assert malformed.exit_code == 2 and "ratio must be a finite number" in malformed.output


def test_rules_prints_the_authority_table_and_names_a_wrong_room() -> None:
    from theorems.engine.rules import RULES

    res = runner.invoke(app, ["rules"])
    assert res.exit_code == 0 and all(name in res.output for name in RULES)
    one = runner.invoke(app, ["rules", "--room", "gate"])
    assert "gate.outcome" in one.output and "statement.certified" not in one.output
    bad = runner.invoke(app, ["rules", "--room", "nope"])
    assert bad.exit_code == 2 and "the rooms are" in bad.output
