"""`clcheck check --watch`: the files a claim's check reads from its plugin, and a wait until one of them changes."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable, Iterable


def plugin_files(module: str) -> list[Path]:
    """The Python files of the plugin that registered a claim: its package's (every .py under the package folder)
    or the single module's."""
    loaded = sys.modules.get(module)
    where = getattr(loaded, "__file__", None)
    if not where:
        return []
    package = sys.modules.get(module.rsplit(".", 1)[0]) if "." in module else loaded
    root = Path(getattr(package, "__file__", where)).parent if hasattr(package, "__path__") else None
    if root is None:
        return [Path(where)]
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _stamps(paths: Iterable[Path]) -> dict[Path, tuple[float, int]]:
    out = {}
    for p in paths:
        try:
            st = p.stat()
            out[p] = (st.st_mtime, st.st_size)
        except OSError:
            out[p] = (-1.0, -1)  # gone: a change once it comes back
    return out


def wait_for_change(paths: list[Path], poll: float = 0.5, sleep: Callable[[float], None] = time.sleep,
                    give_up: float | None = None) -> list[Path]:
    """Block until a file of ``paths`` changes (its modification time or size, or it appears or goes); the
    changed files. ``give_up`` seconds without a change: [] (for tests)."""
    before = _stamps(paths)
    waited = 0.0
    while give_up is None or waited < give_up:
        sleep(poll)
        waited += poll
        now = _stamps(paths)
        changed = [p for p in paths if now[p] != before[p]]
        if changed:
            return changed
    return []
