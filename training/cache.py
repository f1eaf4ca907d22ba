"""The one cache of trained runs: arrays keyed by everything that determines them.

A run is stored as one ``.npz`` under ``$CLCHECK_CACHE/runs`` (default ``.clcheck-cache/runs``),
named ``<namespace>-<key>.npz`` where the key hashes the run's full specification and
:data:`CACHE_VERSION`. Writes go to a temporary file first and are renamed into place, so a
run interrupted while saving never leaves a half-written entry behind.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Mapping

import numpy as np

CACHE_VERSION = "2"

Arrays = dict[str, np.ndarray]


def cache_dir() -> Path:
    return Path(os.environ.get("CLCHECK_CACHE", ".clcheck-cache"))


def run_key(spec: Mapping[str, Any]) -> str:
    """A short stable hash of a run's specification (JSON, sorted keys)."""
    blob = json.dumps({**spec, "cache_version": CACHE_VERSION}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def entry_path(namespace: str, spec: Mapping[str, Any]) -> Path:
    return cache_dir() / "runs" / f"{namespace}-{run_key(spec)}.npz"


def _save(path: Path, arrays: Arrays, spec: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as handle:
        np.savez_compressed(handle, **arrays, __spec__=json.dumps(dict(spec), sort_keys=True, default=str))
    os.replace(tmp, path)


def _load(path: Path) -> Arrays:
    with np.load(path) as data:
        return {k: data[k] for k in data.files if k != "__spec__"}


def cached_run(namespace: str, spec: Mapping[str, Any], compute: Callable[[], Arrays]) -> Arrays:
    """The arrays of the run ``spec``: loaded from the cache, or computed and stored."""
    path = entry_path(namespace, spec)
    if path.exists():
        return _load(path)
    arrays = {k: np.asarray(v) for k, v in compute().items()}
    _save(path, arrays, spec)
    return arrays
