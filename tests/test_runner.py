"""Parallel and distributed audits give the same report as a sequential one (timings aside)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import pytest
from typer.testing import CliRunner

from theorems.frontend.cli import app

# fast claims, one refuted (its witnesses must be written identically) and one with a figure
CLAIMS = ["merad.lse.nonneg", "merad.coupon.variance", "merad.prop1.rearrangement", "merad.tau_plus"]


def without_timings(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: without_timings(v) for k, v in obj.items() if k != "seconds"}
    if isinstance(obj, list):
        return [without_timings(v) for v in obj]
    return obj


def audit(out: Path, *extra: str) -> dict[str, Any]:
    """The audit of CLAIMS in this process, as ``clcheck audit`` runs it (its report, timings aside)."""
    args = ["audit", "--profile", "quick", "--out", str(out), *extra]
    for cid in CLAIMS:
        args += ["--claim", cid]
    res = CliRunner().invoke(app, args)
    assert res.exit_code in (0, 1), res.output
    return without_timings(json.loads((out / "report.json").read_text()))


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name not in ("report.json", "report.md")}


def compiled_coq(run: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """``run()``'s report and whether it ran coqc itself: a compilation counted in this process
    (``numerics.coq.compilations``) or a Coq cache record written (by a worker process too). The
    report no longer says whether the cache answered (that is not in certificates' details)."""
    from numerics import coq

    def records() -> dict[str, int]:
        folder = coq.cache_dir()
        return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.json")} if folder.is_dir() else {}

    count, before = coq.compilations(), records()
    report = run()
    return report, coq.compilations() != count or records() != before


@pytest.fixture(scope="module")
def sequential(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """The --jobs 1 report. When its audit compiled Coq scripts (a cold cache), a second audit on the
    warm cache must give the same report: a report holds no cache state."""
    out = tmp_path_factory.mktemp("jobs1")
    report, compiled = compiled_coq(lambda: audit(out, "--jobs", "1"))
    if compiled:
        assert audit(tmp_path_factory.mktemp("jobs1warm"), "--jobs", "1") == report
    return report, out


def test_a_report_names_no_absolute_path_and_no_cache_state(sequential: tuple[dict[str, Any], Path]) -> None:
    _, out = sequential
    text = (out / "report.json").read_text()
    for fragment in (str(out), str(Path.home()), "/usr/bin", '"hit"', '"miss"', "cache_file"):
        assert fragment not in text, fragment


def test_jobs_2_gives_the_report_of_jobs_1(sequential: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    report, out1 = sequential
    assert report == audit(tmp_path, "--jobs", "2")
    assert [c["id"] for c in report["claims"]] == sorted(CLAIMS)
    assert files(out1) == files(tmp_path) and "witnesses/merad.coupon.variance.json" in files(tmp_path)


def test_the_ray_executor_gives_the_same_report(sequential: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'clcheck[ray]'")
    report, out1 = sequential
    # the driver in this process, a local Ray instance of one CPU: one Ray worker process (each one imports
    # clcheck and torch) carries every task across Ray's object store; out-of-order results are --jobs 2's test
    assert report == audit(tmp_path, "--executor", "ray", "--jobs", "1")
    assert files(out1) == files(tmp_path)


class FakeRay:
    """What run_ray asks of Ray, recorded; tasks run here, in order."""

    def __init__(self) -> None:
        self.init_kwargs: dict[str, Any] | None = None
        self.stopped = False
        self.options: dict[str, Any] = {}

    def is_initialized(self) -> bool:
        return self.init_kwargs is not None

    def init(self, **kwargs: Any) -> None:
        self.init_kwargs = kwargs

    def remote(self, fn: Any = None, **options: Any) -> Any:
        if fn is None:  # ray.remote(max_retries=0)(fn)
            self.options = options
            return lambda f: self.remote(f)
        return type("Remote", (), {"remote": staticmethod(lambda task: fn(task))})

    def wait(self, pending: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return pending[:num_returns], pending[num_returns:]

    def get(self, ref: Any) -> Any:
        return ref

    def shutdown(self) -> None:
        self.stopped = True


@pytest.mark.parametrize("address, cpus", [(None, 3), ("ray://head:10001", None)])
def test_a_local_ray_instance_gets_jobs_cpus_and_a_cluster_its_own(monkeypatch: pytest.MonkeyPatch,
                                                                    address: str | None, cpus: int | None) -> None:
    from theorems.frontend import runner

    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(runner, "run_guarded_task", lambda task: (task, task * 2))
    assert list(runner.run_ray([1, 2], address, 3)) == [(1, 2), (2, 4)]
    assert fake.init_kwargs is not None and fake.init_kwargs["num_cpus"] == cpus
    assert fake.init_kwargs["address"] == address and fake.stopped
    assert fake.options == {"max_retries": 0}  # a task whose worker dies is an error, never run again


def test_a_ray_task_whose_worker_died_is_that_claims_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from theorems.engine.budget import PROFILES
    from theorems.frontend import runner

    class CrashingRay(FakeRay):
        def get(self, ref: Any) -> Any:
            raise RuntimeError("WorkerCrashedError: the worker died unexpectedly")

    monkeypatch.setitem(sys.modules, "ray", CrashingRay())
    monkeypatch.setattr(runner, "run_guarded_task", lambda task: (task, None))
    job = runner.Job("merad.tau_plus", PROFILES["quick"], 3)
    [(task, (result, files))] = list(runner.run_ray([job], None, 1))
    assert task is job and files == {} and result.verdict.value == "error" and result.seed == 3
    assert result.id == "merad.tau_plus" and "worker died" in result.reason


def test_jobs_with_a_cluster_address_is_a_named_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["audit", "--claim", "merad.lse.nonneg", "--executor", "ray", "--address",
                                   "ray://head:10001", "--jobs", "2", "--out", str(tmp_path)])
    assert res.exit_code == 2 and "--jobs with --address" in res.output, res.output


# -- the order of a parallel audit (never its results) ------------------------------------------


def _fill(path: str) -> None:
    Path(path).write_text("done")


def _fail(path: str) -> None:
    raise OSError(f"cannot train {path}")


def test_prerequisites_are_kept_once_per_key_and_run_longest_first(tmp_path: Path) -> None:
    from theorems.engine.prerequisite import Prerequisite, unique
    from theorems.frontend.runner import Job, Shared, queue, run_local
    from theorems.engine.budget import PROFILES

    a = Prerequisite("a", _fill, (str(tmp_path / "a"),), cost=1.0)
    b = Prerequisite("b", _fill, (str(tmp_path / "b"),), cost=5.0)
    shared = unique([a, b, Prerequisite("a", _fail, ("other",), cost=9.0)])  # the first "a" is kept
    assert [p.key for p in shared] == ["a", "b"] and shared[0].fn is _fill
    jobs = [Job("x.short", PROFILES["quick"], 0, cost=1.0), Job("x.long", PROFILES["quick"], 0, cost=7.0)]
    order = queue(jobs, [Shared(p) for p in shared])
    assert [getattr(t, "key", None) or t.claim_id for t in order] == ["b", "a", "x.long", "x.short"]
    bad = Prerequisite("bad", _fail, (str(tmp_path / "c"),))
    outcomes = dict((t.key, r) for t, r in run_local([Shared(p) for p in [*shared, bad]], 2))
    assert outcomes["a"] is None and outcomes["b"] is None and "cannot train" in outcomes["bad"]
    assert (tmp_path / "a").read_text() == (tmp_path / "b").read_text() == "done"


def test_an_audit_in_this_process_does_not_even_list_the_prerequisites(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    """--jobs 1: each claim does what it needs itself; the driver never lists the prerequisites
    (for the audit profile that took 0.7 s of start-up)."""
    from typer.testing import CliRunner

    from theorems.frontend import cli
    from theorems.frontend.cli import app

    def never(*args: Any) -> Any:
        raise AssertionError("the prerequisites were listed")

    monkeypatch.setattr(cli, "prerequisites_of", never)  # the name the audit command calls
    run = CliRunner().invoke(app, ["audit", "--claim", "merad.lse.nonneg", "--profile", "quick", "--jobs", "1",
                                   "--out", str(tmp_path / "out")])
    assert run.exit_code == 0, run.output
    assert [c["id"] for c in json.loads((tmp_path / "out" / "report.json").read_text())["claims"]] == ["merad.lse.nonneg"]


def test_claims_declare_the_training_runs_they_share() -> None:
    """merad.fig1 and merad.fig1.trend need the same 5 runs: an audit of both trains them once."""
    from theorems.engine.prerequisite import prerequisites_of, unique
    from theorems.engine.registry import get

    fig1, trend = (prerequisites_of(get(c), False, 0) for c in ("merad.fig1", "merad.fig1.trend"))
    assert len(fig1) == len(trend) == 5 and {p.key for p in fig1} == {p.key for p in trend}
    assert len(unique(fig1 + trend)) == 5
    seed1 = prerequisites_of(get("merad.fig1"), False, 1)
    assert not {p.key for p in seed1} & {p.key for p in fig1}  # another audit seed trains other runs
    assert len(prerequisites_of(get("merad.theorem1"), False, 0)) == 15


def test_expected_seconds_come_from_the_last_audit_else_the_declared_cost(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from theorems.engine.registry import get
    from theorems.engine.verdict import ClaimResult, Verdict
    from theorems.frontend import schedule

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    claims = [get("merad.fig2"), get("merad.tau_plus")]
    declared = schedule.expected_seconds(claims, "audit")
    assert declared == {"merad.fig2": get("merad.fig2").cost, "merad.tau_plus": get("merad.tau_plus").cost}
    done = ClaimResult(id="merad.tau_plus", kind="identity", source="", statement="", verdict=Verdict.PROVED,
                       seconds=42.5)
    schedule.record([done], "audit")
    assert schedule.expected_seconds(claims, "audit")["merad.tau_plus"] == 42.5
    assert schedule.expected_seconds(claims, "quick")["merad.tau_plus"] == get("merad.tau_plus").cost
    (tmp_path / "timings.json").write_text("{not json")
    assert schedule.expected_seconds(claims, "audit") == declared  # a broken file is only a lost hint
