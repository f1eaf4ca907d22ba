"""Fault injection: the checker under non-finite values, hostile data files, exits, kills and hangs.

Every test states a promise of the README's "Faults and bad input" and breaks it on purpose with
generated input (Hypothesis, seeded), so that what issue 31 found stays fixed. No assertion depends on
how fast the machine is: what must time out blocks forever, what must finish computes nothing slow.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from theorems import Claim, Kind, Le, Eq, Source, Verdict, parts, quantity
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.evaluate import value_kind
from theorems.engine.rules.compare import extended_margin
from theorems.engine.witness import read_witness, replay, subject_checksum
from theorems.frontend.cli import app
from theorems.frontend.workers import run_in_workers
from theorems.subjects import Family, Vector

ROOT = Path(__file__).resolve().parents[1]
WITNESS = ROOT / "theorems/papers/merad/witnesses/merad.prop1.part1.json"
SRC = Source("test", "test")
TINY = Budget(examples=5, adversarial_starts=1, adversarial_steps=3, shrink_tries=5, quick=True)
runner = CliRunner()
FAULTS = settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def _lines(text: str) -> list[str]:
    return [line for line in text.strip().splitlines() if line.strip()]


def assert_named_exit_2(result: Any, *fragments: str) -> None:
    """Exit 2, a message of at most two lines naming the fragments, no traceback."""
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and len(_lines(result.output)) <= 2, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


# -- 1. non-finite values are evidence, not noise ---------------------------------------------------

SPECIAL = {"nan": math.nan, "+inf": math.inf, "-inf": -math.inf, "zero": 0.0, "one": 1.0, "huge": 1e300}


def _constant_family(value: float) -> tuple[Family, sympy.Symbol, sympy.Symbol]:
    """A family whose quantities ``q`` and its twin ``r`` are ``value`` on every subject."""
    q = quantity("q_const", lambda s, xp: xp.sum(s.v * 0) + value, range=(None, None))
    r = quantity("r_const", lambda s, xp: xp.sum(s.v * 0) + value, range=(None, None))
    return Family("vectors", dims={"n": (1, 2)}, parts={"v": Vector("n")}, quantities=(q, r)), q, r


def _log(x: float) -> float:
    return -math.inf if x == 0 else math.log(x)


@FAULTS
@given(st.sampled_from(sorted(SPECIAL)), st.sampled_from(["le_one", "ge_minus_ten", "log_ge", "eq_twin"]))
def test_non_finite_sides_are_decided_exactly_and_nan_is_an_error(name: str, form: str) -> None:
    value = SPECIAL[name]
    if form == "log_ge" and value < 0:
        return  # log of a negative number is complex: the NaN case covers an undefined side
    fam, q, r = _constant_family(value)
    relation = {"le_one": Le(q, 1), "ge_minus_ten": Le(-10, q), "log_ge": Le(-10, sympy.log(q)), "eq_twin": Eq(q, r)}[form]
    claim = Claim("t.nonfinite", Kind.INEQUALITY, SRC, parts(relation), subjects=(fam,))
    result = check_claim(claim, TINY)
    if math.isnan(value):
        assert result.verdict == Verdict.ERROR, (result.verdict, result.reason)
        assert "q_const" in result.reason and "NaN" in result.reason and "subject" in result.reason
        return
    holds = {"le_one": value <= 1, "ge_minus_ten": -10 <= value, "log_ge": -10 <= _log(value) if value > 0 or
             value == 0 else True, "eq_twin": True}[form]
    if not holds:
        assert result.verdict == Verdict.REFUTED, (name, form, result.verdict, result.reason)
        assert replay(result.witness, claim).violated  # the saved witness replays
    else:
        assert result.verdict not in (Verdict.REFUTED, Verdict.ERROR), (name, form, result.verdict, result.reason)
        if math.isinf(value):  # a side at +-inf that holds decides nothing: never informative
            assert result.nontrivial_examples == 0 and result.verdict != Verdict.CONSISTENT, result.verdict


KINDS = [None, "+inf", "-inf"]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.sampled_from(KINDS), st.sampled_from(KINDS), st.sampled_from(["le", "lt", "eq"]))
def test_extended_margin_is_the_order_of_the_extended_reals(lhs: str | None, rhs: str | None, op: str) -> None:
    x, y = sympy.symbols("x y", real=True)
    part = parts({"le": Le(x, y), "lt": sympy.Lt(x, y), "eq": Eq(x, y)}[op])[0]
    if lhs is None and rhs is None:
        return  # finite sides take the tolerance route
    as_float = {None: 0.0, "+inf": math.inf, "-inf": -math.inf}
    a, b = as_float[lhs], as_float[rhs]
    holds = {"le": a <= b, "lt": a < b, "eq": a == b and lhs is not None}[op]
    margin = extended_margin(part, lhs, rhs)
    assert margin == (-math.inf if holds else math.inf)


def test_value_kind_reads_each_backend_in_its_own_type() -> None:
    import mpmath
    import numpy as np
    import torch

    assert value_kind(mpmath.mpf("1e400")) is None  # finite in mpmath, though inf as a float
    assert value_kind(mpmath.mpf("-inf")) == "-inf" and value_kind(mpmath.nan) == "NaN"
    assert value_kind(mpmath.mpc(1, 1)) == "complex" and value_kind(np.float64("nan")) == "NaN"
    assert value_kind(torch.tensor(float("inf"))) == "+inf" and value_kind(np.array([2.0])) is None


def test_hypothesis_errors_other_than_unsatisfiable_are_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search that breaks (here: a target Hypothesis refuses) is an error of the check, not a note."""
    import theorems.engine.search as search

    fam, q, _ = _constant_family(0.5)
    claim = Claim("t.target", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(fam,))
    real_target = search.target
    monkeypatch.setattr(search, "target", lambda value, label="": real_target(math.nan))  # hypothesis.target
    result = check_claim(claim, TINY)
    assert result.verdict == Verdict.ERROR and "InvalidArgument" in result.reason


# -- 2. data files never run code; 3. every witness field is checked -------------------------------

HOSTILE_MODULES = ["this", "antigravity", "venv.__main__", "unittest.__main__", "evil_module_beside_the_witness",
                   "os", "subprocess", "theorems.papers.merad.claims.x.y", "..", "theorems_papers_merad"]


@FAULTS
@given(st.sampled_from(HOSTILE_MODULES) | st.from_regex(r"[a-z_]{1,12}(\.[a-z_]{1,8}){0,2}", fullmatch=True))
def test_a_witness_may_name_only_a_registered_plugin(tmp_path_factory: pytest.TempPathFactory, module: str) -> None:
    from theorems.engine.registry import registered_plugins

    known = registered_plugins()
    if any(module == m or module.startswith(m + ".") for m in known):
        return  # a registered plugin (or a module inside one): allowed, and still nothing is imported by name
    folder = tmp_path_factory.mktemp("hostile")
    marker = folder / "imported"
    (folder / "evil_module_beside_the_witness.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    data = json.loads(WITNESS.read_text())
    data["plugin"] = module
    path = folder / "w.json"
    path.write_text(json.dumps(data))
    before = set(sys.modules)
    sys.path.insert(0, str(folder))
    try:
        result = runner.invoke(app, ["replay", str(path)])
    finally:
        sys.path.remove(str(folder))
    assert_named_exit_2(result, "not a registered plugin", "nothing was imported")
    assert not marker.exists() and "Beautiful is better than ugly" not in result.output
    assert module not in set(sys.modules) - before


def _witness_file(folder: Path, edit: Any) -> Path:
    data = json.loads(WITNESS.read_text())
    edit(data)
    data["subject_sha256"] = subject_checksum(data["subject"])  # the checksum passes: the field checks must refuse
    path = folder / "w.json"
    path.write_text(json.dumps(data))
    return path


FIELD_EDITS = {
    "N 10^6": (lambda d: d["subject"]["values"].__setitem__("N", 10**6), "N"),
    "N 1.9": (lambda d: d["subject"]["values"].__setitem__("N", 1.9), "N"),
    "N '1'": (lambda d: d["subject"]["values"].__setitem__("N", "1"), "N"),
    "N true": (lambda d: d["subject"]["values"].__setitem__("N", True), "N"),
    "extra key": (lambda d: d["subject"].__setitem__("extra", 1), "extra"),
    "200 000 points": (lambda d: d["subject"]["values"]["mixture"]["points"].__setitem__(0, [[0.5]] * 200_000), "points"),
}


@pytest.mark.parametrize("edit", sorted(FIELD_EDITS))
def test_a_witness_field_outside_its_family_is_refused_before_evaluation(tmp_path: Path, edit: str) -> None:
    change, fragment = FIELD_EDITS[edit]
    assert_named_exit_2(runner.invoke(app, ["replay", str(_witness_file(tmp_path, change))]), fragment)


@pytest.mark.parametrize("content, fragment", [
    (b'{"claim": "merad.prop1.part1", "family": "x", "subject": {"N": 1e999}, "subject_sha256": "0"}', "outside the range"),
    (b'{"claim": "merad.prop1.part1", "family": "x", "subject": {"N": NaN}, "subject_sha256": "0"}', "NaN is not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"\xff\xfe not text", "not UTF-8"),
])
def test_a_malformed_witness_file_is_refused(tmp_path: Path, content: bytes, fragment: str) -> None:
    path = tmp_path / "w.json"
    path.write_bytes(content)
    assert_named_exit_2(runner.invoke(app, ["replay", str(path)]), fragment)


def test_a_witness_that_is_no_regular_file_or_too_large_is_refused_without_reading_it(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # opening it for reading would block forever without a writer
    assert_named_exit_2(runner.invoke(app, ["replay", str(fifo)]), "is a FIFO")
    assert_named_exit_2(runner.invoke(app, ["replay", "/dev/zero"]), "is a device")
    assert_named_exit_2(runner.invoke(app, ["replay", str(tmp_path)]), "is a directory")
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:  # a sparse 300 MB file: nothing is written, nothing may be read
        handle.truncate(300 * 2**20)
    assert_named_exit_2(runner.invoke(app, ["replay", str(big)]), "more than the limit")
    with pytest.raises(Exception, match="is a FIFO"):
        read_witness(fifo)


# -- 4. no hang, no silent exit: the worker pool ------------------------------------------------------

def _task(kind: str) -> str:
    """Run in a worker: what each kind of task does to its process."""
    if kind == "ok":
        return "done"
    if kind == "raise":
        raise ValueError("a task's own error")
    if kind == "exit":
        os._exit(0)  # no SystemExit, no cleanup: the process is simply gone
    if kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if kind == "hang":  # deaf to the alarm and to SIGTERM: only a kill ends it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM})
        while True:
            time.sleep(3600)
    raise AssertionError(kind)


def _lost(kind: str, why: str) -> str:
    return f"lost: {why}"


@settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(["ok", "ok", "raise", "exit", "kill", "hang"]), min_size=1, max_size=6),
       st.integers(1, 3))
def test_the_worker_pool_survives_exits_kills_and_hangs(kinds: list[str], processes: int) -> None:
    outcomes = list(run_in_workers(kinds, processes, _task, _lost, deadline=lambda k: 0.5 if k == "hang" else None))
    assert sorted(k for k, _ in outcomes) == sorted(kinds)  # every task comes back exactly once
    for kind, outcome in outcomes:
        expected = {"ok": "done", "raise": "lost: ValueError: a task's own error",
                    "exit": "lost: the worker process running it exited with status 0",
                    "kill": "lost: the worker process running it was killed by signal SIGKILL",
                    "hang": "lost: it ran past its hard deadline"}[kind]
        assert outcome.startswith(expected), (kind, outcome)


FAULT_PLUGIN = '''
import os, signal, sys, time
from theorems import ExperimentClaim, Kind, Paper, Plugin, Source, UnencodableClaim

PLUGIN = Plugin(Paper("boom", "claims that attack their own process"))

def do_exit(ctx):
    sys.exit(0)

def do_kill(ctx):
    os.kill(os.getpid(), signal.SIGKILL)

def do_interrupt(ctx):
    raise KeyboardInterrupt

def do_hang(ctx):
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM})
    while True:
        time.sleep(3600)

for name, fn in [("exit", do_exit), ("kill", do_kill), ("interrupt", do_interrupt), ("hang", do_hang)]:
    PLUGIN.claim(ExperimentClaim(f"boom.{name}", Kind.DYNAMICS, Source("x", "x"), experiment=fn))
PLUGIN.claim(UnencodableClaim("boom.fine", Kind.INEQUALITY, Source("x", "x"), reason="nothing to compute"))
register = PLUGIN.register
'''


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_claims_that_exit_kill_interrupt_or_hang_are_errors_and_the_report_is_whole(
        env_plugin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str) -> None:  # noqa: ANN001
    from theorems.frontend import runner as executor

    monkeypatch.setattr(executor, "GRACE_SECONDS", 1.0)  # the hang is killed 1 s past its limit
    env_plugin("boom_plugin", FAULT_PLUGIN)
    out = tmp_path / "report"
    res = runner.invoke(app, ["audit", "--paper", "boom", "--claim-timeout", "2", "--jobs", jobs, "--out", str(out)])
    assert res.exit_code == 1, res.output
    report = json.loads((out / "report.json").read_text())
    verdicts = {c["id"]: (c["verdict"], c["reason"]) for c in report["claims"]}
    assert not report["partial"] and set(verdicts) == {"boom.exit", "boom.kill", "boom.interrupt", "boom.hang",
                                                       "boom.fine"}
    assert verdicts["boom.fine"][0] == "not_encodable"
    for cid, fragment in [("boom.exit", "sys.exit(0)"), ("boom.kill", "SIGKILL"),
                          ("boom.interrupt", "KeyboardInterrupt raised by the claim's code"),
                          ("boom.hang", "hard deadline")]:
        assert verdicts[cid][0] == "error" and fragment in verdicts[cid][1], verdicts[cid]


def test_a_plugin_that_hangs_at_import_is_a_named_error(env_plugin, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("CLCHECK_IMPORT_TIMEOUT", "1")
    env_plugin("hanging_plugin", "import signal, time\nsignal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})\n"
                                 "time.sleep(3600)\n")
    assert_named_exit_2(runner.invoke(app, ["list"]), "hanging_plugin", "did not finish importing within 1 s")


def test_a_shared_training_run_that_hangs_obeys_the_time_limit() -> None:
    from theorems.engine.prerequisite import Prerequisite
    from theorems.frontend.runner import Shared, run_local

    stuck = Shared(Prerequisite("stuck", time.sleep, (3600,)), timeout=1.0)
    [(task, outcome)] = list(run_local([stuck], 1))
    assert task == stuck and "time limit of 1 s passed" in outcome


# -- 6. bounded options, named errors, one selection rule --------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["audit", "--seed", str(2**63)], "--seed"),
    (["audit", "--claim-timeout", "inf"], "--claim-timeout"),
    (["audit", "--claim-timeout", "nan"], "--claim-timeout"),
    (["list", "--paper", "nosuch"], "'nosuch'"),
    (["proofs", "--paper", "nosuch"], "'nosuch'"),
    (["audit", "--paper", "nosuch"], "'nosuch'"),
])
def test_bad_options_and_selections_are_named_errors(tmp_path: Path, args: list[str], fragment: str) -> None:
    res = runner.invoke(app, [*args, "--out", str(tmp_path / "out")] if args[0] != "list" else args)
    assert res.exit_code == 2 and fragment in res.output, res.output
    assert not (tmp_path / "out").exists()


def test_a_bad_option_is_two_lines(capsys: pytest.CaptureFixture[str]) -> None:
    from theorems.frontend.cli import main

    for argv in (["audit", "--budget", "abc"], ["audit", "--no-such-option"], ["replay"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        out = capsys.readouterr()
        assert stop.value.code == 2 and len(_lines(out.out + out.err)) == 2, out
        assert (out.out + out.err).startswith("error:") and "--help" in out.out + out.err


def test_paper_and_claim_select_their_union(tmp_path: Path) -> None:
    res = runner.invoke(app, ["audit", "--paper", "merad.lse", "--claim", "merad.tau_plus", "--profile", "quick",
                              "--budget", "5", "--adversarial-starts", "0", "--jobs", "1", "--out", str(tmp_path)])
    ids = [c["id"] for c in json.loads((tmp_path / "report.json").read_text())["claims"]]
    assert res.exit_code in (0, 1) and "merad.tau_plus" in ids and any(i.startswith("merad.lse.") for i in ids), ids


def test_a_zero_budget_says_nothing_was_drawn() -> None:
    fam, q, _ = _constant_family(0.5)
    claim = Claim("t.zero", Kind.INEQUALITY, SRC, parts(Le(q, 1)), subjects=(fam,))
    result = check_claim(claim, Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=0,
                                       tightness_starts=0))
    assert result.verdict == Verdict.UNTESTED and "nothing was drawn" in result.reason


# -- 7. clean outputs --------------------------------------------------------------------------------

def test_an_audit_clears_stale_witnesses_and_temporaries_and_writes_one_row_per_claim(
        env_plugin, tmp_path: Path) -> None:  # noqa: ANN001
    env_plugin("newline_plugin", '''
from theorems import Claim, Kind, Le, Paper, parts, Plugin, quantity, Source
from theorems.subjects import Family, Vector
PLUGIN = Plugin(Paper("nl", "a message with newlines"))

@quantity
def broken(s, xp):
    raise RuntimeError("line one\\nline two | with a pipe")

fam = Family("vectors", dims={"n": (1, 2)}, parts={"v": Vector("n")}, quantities=(broken,))
PLUGIN.claim(Claim("nl.broken", Kind.INEQUALITY, Source("x", "x"), parts(Le(broken, 1)), subjects=(fam,)))
register = PLUGIN.register
''')
    out = tmp_path / "report"
    (out / "witnesses").mkdir(parents=True)
    (out / ".clcheck-report").write_text("{}")  # an earlier audit's folder: replaced as a whole
    stale = out / "witnesses" / "merad.prop1.part1.json"
    stale.write_text("{}")
    leftover = out / ".report.json.otherhost.99999999.abcdefgh.tmp"  # another machine's, a week old
    leftover.write_text("partial")
    os.utime(leftover, (time.time() - 7 * 86400, time.time() - 7 * 86400))
    res = runner.invoke(app, ["audit", "--paper", "nl", "--jobs", "1", "--out", str(out)])
    assert res.exit_code == 1, res.output
    assert not stale.exists() and not leftover.exists()
    rows = [line for line in (out / "report.md").read_text().splitlines() if line.startswith("| `nl.broken`")]
    assert len(rows) == 1 and "line one line two" in rows[0] and "\\| with a pipe" in rows[0], rows
    assert oct((out / "report.json").stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
