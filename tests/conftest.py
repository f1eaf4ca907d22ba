"""Fixtures shared by the tests of the command line and the plugin API."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

pytest_plugins = ["pytester"]


def _isolated_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a test's plugins register (and which plugins count as loaded) is undone after the test."""
    from theorems.engine import registry

    for name in ("_CLAIMS", "_ORIGIN", "_PAPERS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.setattr(registry, "_PROOFS", {k: list(v) for k, v in registry._PROOFS.items()})
    monkeypatch.setattr(registry, "_IMPORTED", set(registry._IMPORTED))
    monkeypatch.setattr(registry, "_LOADED_PREFIXES", set(registry._LOADED_PREFIXES))
    monkeypatch.setattr(registry, "_ALL_LOADED", registry._ALL_LOADED)


def _forget_modules(names: list[str]) -> None:
    for name in names:
        for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            sys.modules.pop(module, None)


@pytest.fixture
def user_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``load(module, source, entry_point=None)``: a user's plugin module, written beside the test and
    imported in this process as ``CLCHECK_PLUGINS`` (or an entry point of that name) would import it;
    what it registers is gone after the test."""
    from theorems.engine import registry

    _isolated_registry(monkeypatch)
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded: list[str] = []

    def load(module: str, source: str, entry_point: str | None = None) -> None:
        (tmp_path / f"{module}.py").write_text(source)
        loaded.append(module)
        registry.import_plugin(module, entry_point)

    yield load
    _forget_modules(loaded)


@pytest.fixture
def env_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``declare(module, source=None, folder=None)``: name a plugin in ``CLCHECK_PLUGINS`` (its source
    written beside the test, or a package already in ``folder``) and put it on the path; nothing is
    imported here -- the registry's own loading imports it when it is next asked for claims, as in a
    fresh process. What it registers is gone after the test."""
    _isolated_registry(monkeypatch)
    from theorems.engine import registry

    monkeypatch.setattr(registry, "_ALL_LOADED", False)  # so that the next full listing reads the variable
    declared: list[str] = []

    def declare(module: str, source: str | None = None, folder: Path | None = None) -> None:
        if source is not None:
            (tmp_path / f"{module}.py").write_text(source)
        monkeypatch.syspath_prepend(str(folder or tmp_path))
        declared.append(module)
        monkeypatch.setenv("CLCHECK_PLUGINS", ",".join(declared))

    yield declare
    _forget_modules(declared)
