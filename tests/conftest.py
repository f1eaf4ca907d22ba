"""Fixtures shared by the tests of the command line and the plugin API."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Iterator

import pytest

pytest_plugins = ["pytester"]


@pytest.fixture
def user_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """``load(module, source, entry_point=None)``: a user's plugin module, written beside the test and
    imported in this process as ``CLCHECK_PLUGINS`` (or an entry point of that name) would import it;
    what it registers is gone after the test."""
    from theorems.engine import registry

    for name in ("_CLAIMS", "_ORIGIN", "_PAPERS"):
        monkeypatch.setattr(registry, name, dict(getattr(registry, name)))
    monkeypatch.setattr(registry, "_PROOFS", {k: list(v) for k, v in registry._PROOFS.items()})
    monkeypatch.setattr(registry, "_IMPORTED", set(registry._IMPORTED))
    monkeypatch.syspath_prepend(str(tmp_path))
    loaded: list[str] = []

    def load(module: str, source: str, entry_point: str | None = None) -> None:
        (tmp_path / f"{module}.py").write_text(source)
        loaded.append(module)
        registry.import_plugin(module, entry_point)

    yield load
    for module in loaded:
        sys.modules.pop(module, None)
