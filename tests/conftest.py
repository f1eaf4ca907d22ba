"""Fixtures shared by the tests of the command line and the plugin API."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

pytest_plugins = ["pytester"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", default=False,
                     help="run the tests of tests/slow_tests.txt too (the README's command leaves them to CI)")
    parser.addoption("--only-rule", default=None,
                     help="run only the tests marked @rule(NAME) (tests/rule_breakages.py tries these first)")


def _forget_modules(names: list[str]) -> None:
    for name in names:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            sys.modules.pop(module, None)


@pytest.fixture(autouse=True, scope="session")
def _no_verdict_store() -> Iterator[None]:
    """The test functions and their fixtures search afresh (CLCHECK_STORE=0, inherited by the commands they run): a
    test that checks a claim twice, or a report against another, must see what a check finds, not the verdict
    store. The store's own tests turn it on in a temporary cache; the claim items (``claims::<id>``) keep the
    setting the session started with (read by the clcheck pytest plugin before any fixture runs)."""
    saved = os.environ.get("CLCHECK_STORE")
    os.environ["CLCHECK_STORE"] = "0"
    yield
    if saved is None:
        os.environ.pop("CLCHECK_STORE", None)
    else:
        os.environ["CLCHECK_STORE"] = saved


@pytest.fixture
def user_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``load(module, source, entry_point=None)``: a user's plugin module (its ``register(registry)``), written
    beside the test and loaded into a copy of the registry as ``CLCHECK_PLUGINS`` (or an entry point of that
    name) would load it; the copy is dropped after the test."""
    from theorems.engine import registry

    monkeypatch.syspath_prepend(str(tmp_path))
    loaded: list[str] = []
    with registry.isolated() as copy:
        def load(module: str, source: str, entry_point: str | None = None) -> None:
            (tmp_path / f"{module}.py").write_text(source)
            loaded.append(module)
            copy.load_plugin(module, entry_point)

        yield load
    _forget_modules(loaded)


@pytest.fixture
def env_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``declare(module, source=None, folder=None)``: name a plugin in ``CLCHECK_PLUGINS`` (its source written
    beside the test, or a package already in ``folder``) and put it on the path; nothing is loaded here -- a
    copy of the registry, current during the test, loads it when it is next asked for claims, as in a fresh
    process."""
    from theorems.engine import registry

    declared: list[str] = []
    with registry.isolated() as copy:
        copy.all_loaded = False  # so that the next full listing reads the variable
        copy.loaded_prefixes = set()  # and a selection by prefix too (an earlier check may have marked its prefix)

        def declare(module: str, source: str | None = None, folder: Path | None = None) -> None:
            if source is not None:
                (tmp_path / f"{module}.py").write_text(source)
            monkeypatch.syspath_prepend(str(folder or tmp_path))
            declared.append(module)
            monkeypatch.setenv("CLCHECK_PLUGINS", ",".join(declared))

        yield declare
    _forget_modules(declared)


@pytest.fixture
def marker_items(pytester: pytest.Pytester) -> Callable[[str, str, int], None]:
    """``check(paper, select, passed)``: the paper's marker selects exactly its registered claims as pytest items
    (unknown markers are errors), and the ``passed`` items ``-k select`` picks among them run and pass. (Declare the
    plugin first, with ``env_plugin``.)"""
    import torch  # noqa: F401, PLC0415 - heavy: loaded before pytester's in-process runs, which forget what they import

    def check(paper: str, select: str, passed: int) -> None:
        from theorems.engine.registry import all_claims  # noqa: PLC0415 - the plugin declared by the test

        marker = ("--claims", "-m", paper, "--strict-markers", "-p", "no:cacheprovider")
        listed = pytester.runpytest_inprocess(*marker, "--collect-only", "-q").outlines
        assert [line for line in listed if line.startswith("claims::")] == \
            sorted(f"claims::{c.id}" for c in all_claims([paper]))
        pytester.runpytest_inprocess(*marker, "-k", select).assert_outcomes(passed=passed)

    return check


SLOW_LIST = Path(__file__).with_name("slow_tests.txt")


def _slow_tests() -> set[str]:
    lines = SLOW_LIST.read_text().splitlines() if SLOW_LIST.exists() else []
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests of ``slow_tests.txt`` are marked ``slow``: a run pointed at directories only (the README's test
    command) skips them unless its marker expression names ``slow`` (CI's ``pytest -m slow``) or ``--slow`` is
    given; a test named by its file or id runs. The search-power test runs only when selected (``-m
    search_power``; CI does): several minutes of audits. ``--only-rule NAME`` keeps only the tests marked
    ``@rule(NAME)``."""
    name = config.getoption("--only-rule")
    if name is not None:
        kept = [i for i in items if any(name in m.args for m in i.iter_markers("rule"))]
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
    slow = _slow_tests()
    markexpr = config.getoption("markexpr") or ""
    whole = all("::" not in a and Path(a).is_dir() for a in config.args) and "slow" not in markexpr \
        and not config.getoption("--slow")
    later = pytest.mark.skip(reason="slow: CI runs it with `pytest -m slow` (or run it with --slow, or by its file)")
    for item in items:
        if item.nodeid.split("[")[0] in slow:
            item.add_marker(pytest.mark.slow)
            if whole:
                item.add_marker(later)
    if "search_power" in markexpr:
        return
    skip = pytest.mark.skip(reason="the thin-mutant search test runs with -m search_power (several minutes; CI runs it)")
    for item in items:
        if "search_power" in item.keywords:
            item.add_marker(skip)
