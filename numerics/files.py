"""Atomic file writes: a temporary file in the target's folder, then a rename. A reader (or a
crash) never sees a half-written report, witness, cache entry or checkpoint. And where the
cache lives (:func:`cache_root`)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a fresh temporary path next to ``path``; on success rename it onto ``path``, on
    failure remove it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_text_atomic(path: str | Path, text: str) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text)


def write_bytes_atomic(path: str | Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def cache_root() -> Path:
    """The folder of every cache (trained runs, Coq results, timings): ``$CLCHECK_CACHE``, else
    ``.clcheck-cache``; set but empty it is the default too, never the working directory."""
    return Path(os.environ.get("CLCHECK_CACHE") or ".clcheck-cache")
