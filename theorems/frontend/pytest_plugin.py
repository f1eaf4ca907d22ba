"""pytest plugin: every registered claim becomes a test item marked ``theorems`` and its paper.

Collection is opt-in (this plugin is installed for every pytest run in the environment): set
``clcheck_collect_claims = true`` in the ini file, or pass ``--claims``. Items are named
``claims::<id>`` and carry the markers ``theorems`` and the claim's paper prefix, registered
from the plugins' :class:`~theorems.engine.registry.Paper` declarations -- so
``pytest -m theorems`` runs them all and ``pytest -m <paper>`` one paper, an outside plugin's
included. They are collected with the test files, after them (a ``claims`` collector among the
session's children): pytest's "collected N items", ``--collect-only`` and pytest-xdist's
"[N items]" count them, and ``-m``/``-k`` deselect them like any test.

A claim's test passes when its verdict is the one the repository expects: ``proved`` or
``consistent`` for a claim with no recorded refutation, and ``refuted`` -- with the recorded
witness still refuting on replay -- for a claim recorded as refuted. An undecided verdict
(untested, inconclusive) is a skip that names the verdict and its reason, or a failure under
``--theorems-strict``. Anything else fails and prints the evidence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from theorems.engine.budget import PROFILES, profile
from theorems.engine.check import check_claim
from theorems.engine.limits import DEFAULT_CLAIM_SECONDS
from theorems.engine.registry import all_claims, get, papers
from theorems.engine.rules.gate import gate
from theorems.frontend import store

_ENABLED = pytest.StashKey[bool]()
_STORE = pytest.StashKey[bool]()  # the verdict store's setting (CLCHECK_STORE) as the session started


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("clcheck", "clcheck claims")
    group.addoption("--claims", action="store_true", default=False,
                    help="collect every registered clcheck claim as a test item")
    group.addoption("--theorems-seed", type=int, default=0,
                    help="seed of the claim search (printed in the header; replays a failure)")
    group.addoption("--theorems-profile", choices=sorted(PROFILES), default="quick",
                    help="search depth per claim: quick (default), audit or deep")
    group.addoption("--theorems-timeout", type=float, default=DEFAULT_CLAIM_SECONDS,
                    help=f"seconds per claim (default {DEFAULT_CLAIM_SECONDS:g}); past it the claim's verdict is error")
    group.addoption("--theorems-strict", action="store_true", default=False,
                    help="fail undecided claims (untested, inconclusive) instead of skipping them")
    group.addoption("--theorems-fresh", action="store_true", default=False,
                    help="search every claim again (by default an unchanged claim reuses the verdict store's "
                         "entry once its witnesses and best subjects replay)")
    group.addoption("--theorems-slowest", type=int, default=10,
                    help="list this many slowest claims at the end (0: none)")
    parser.addini("clcheck_collect_claims", "collect registered clcheck claims as tests", type="bool",
                  default=False)


def _enabled(config: pytest.Config) -> bool:
    """--claims; a marker expression that names ``theorems`` or a registered paper (``pytest -m theorems``, ``-m
    merad``, ``-m "theorems and not merad"``); or the ini switch when pytest was pointed at directories only (not at
    files)."""
    if config.getoption("--claims"):
        return True
    names = set(re.findall(r"[A-Za-z_][\w.]*", config.getoption("markexpr") or "")) - {"and", "or", "not"}
    if "theorems" in names:
        return True
    if names - {"slow", "search_power", "rule"} and names & {p.prefix for p in papers()}:
        return True  # `pytest -m merad`: one paper's claims
    if not config.getini("clcheck_collect_claims"):
        return False
    return all("::" not in a and Path(a).is_dir() for a in config.args)


def _collects(config: pytest.Config) -> bool:
    """False in pytest-xdist's controller, which hands the items out and collects none itself (its
    workers do): it loads no paper, and its workers start about 3.5 s sooner."""
    option = config.option
    distributing = ((bool(getattr(option, "numprocesses", None)) or (getattr(option, "dist", "no") != "no"
                                                                      and bool(getattr(option, "tx", None))))
                    and not config.getoption("collectonly"))
    return not distributing or hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "theorems: a registered clcheck claim (its verdict is checked)")
    config.stash[_ENABLED] = _enabled(config)
    config.stash[_STORE] = store.enabled()
    if config.stash[_ENABLED] and _collects(config):
        from training.device import configure_process  # heavy: imports torch (1 s), only when claims are collected

        configure_process()
        for paper in papers():
            config.addinivalue_line("markers", f"{paper.prefix}: claims of {paper.title}")


def pytest_report_header(config: pytest.Config) -> str | None:
    if not config.stash.get(_ENABLED, False):
        return None
    return (f"clcheck: --theorems-seed={config.getoption('--theorems-seed')} "
            f"--theorems-profile={config.getoption('--theorems-profile')}")


class ClaimItem(pytest.Item):
    """One registered claim, checked by the engine."""

    def __init__(self, *, claim_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim_id = claim_id

    def runtest(self) -> None:
        from training.device import deterministic_kernels  # heavy: imports torch (1 s), only when a claim runs

        deterministic_kernels()  # as an audit checks every claim
        budget = profile(self.config.getoption("--theorems-profile"))
        seed = self.config.getoption("--theorems-seed")
        claim = get(self.claim_id)

        def run() -> tuple[Any, dict[str, bytes]]:
            return check_claim(claim, budget, seed=seed, timeout=self.config.getoption("--theorems-timeout")), {}

        keep = self.config.stash.get(_STORE, False)  # as the session started: a test's fixture may change the env
        fresh = self.config.getoption("--theorems-fresh")
        result = (store.checked(claim, budget, seed, run, artifacts=False, fresh=fresh) if keep else run())[0]
        self.user_properties.append(("verdict", result.verdict_label))
        self.user_properties.append(("reused", result.reused))
        self.user_properties.append(("search_seconds", result.seconds))
        outcome = gate(result, strict=self.config.getoption("--theorems-strict"))
        if outcome == "fail":
            raise ClaimFailure(result.to_json())
        if outcome == "undecided":
            pytest.skip(f"claim {self.claim_id} undecided: {result.verdict.value}: {result.reason[:300]}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            data = excinfo.value.args[0]
            return (f"claim {self.claim_id}: verdict {data['verdict']} is not what the repository "
                    f"expects ({data['expected_note']})\n" + json.dumps(data, indent=2, default=str))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int, str]:
        return "claims", 0, f"claim {self.claim_id}"


class ClaimFailure(Exception):
    """The verdict differs from the recorded expectation."""


class ClaimCollector(pytest.Collector):
    """The virtual node holding one item per registered claim."""

    def collect(self) -> list[pytest.Item]:
        items = []
        for claim in all_claims():
            item = ClaimItem.from_parent(self, name=claim.id, claim_id=claim.id)
            item.add_marker("theorems")
            item.add_marker(claim.paper)
            items.append(item)
        return items


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The slowest claims (wall seconds of their test, and whether the verdict store answered), for the gate's log."""
    count = config.getoption("--theorems-slowest", default=0) if config.stash.get(_ENABLED, False) else 0
    if not count:
        return
    rows = []
    for outcome in ("passed", "failed", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            if getattr(report, "when", "") == "call" and str(getattr(report, "nodeid", "")).startswith("claims::"):
                props = dict(getattr(report, "user_properties", []))
                rows.append((report.duration, report.nodeid, props.get("reused", False)))
    if not rows:
        return
    rows.sort(reverse=True)
    reused = sum(1 for _, _, r in rows if r)
    terminalreporter.write_sep("=", f"slowest {min(count, len(rows))} claims ({reused} of {len(rows)} reused from "
                                    "the verdict store)")
    for seconds, nodeid, was_reused in rows[:count]:
        terminalreporter.write_line(f"{seconds:8.2f}s {nodeid}{'  (reused)' if was_reused else ''}")


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    """The session's own collection (the test files and directories it was pointed at) gains the ``claims``
    collector, last: its items are collected, counted and reported as the files' are (hook wrapped as
    pytest's cacheprovider wraps it to reorder the session's children). pytest-xdist's controller collects
    nothing; each worker collects the claims in the registry's order, the same in every worker."""
    report = yield
    if isinstance(collector, pytest.Session) and collector.config.stash.get(_ENABLED, False) and report.passed:
        report.result = [*report.result, ClaimCollector.from_parent(collector, name="claims", nodeid="claims")]
    return report
