"""The one cache of trained runs: arrays keyed by everything that determines them.

A run is stored as one ``.npz`` under ``$CLCHECK_CACHE/runs`` (default ``.clcheck-cache/runs``),
named ``<namespace>-<key>.npz`` where the key hashes the run's full specification and
:data:`CACHE_VERSION`. Three things keep the cache sound when runs are interrupted or audits
share it:

* writes go to a temporary file that is renamed into place, so an entry is complete or absent;
* every entry carries a SHA-256 checksum of its arrays, checked on load: a truncated or edited
  entry is detected, removed and recomputed;
* computing an entry holds an exclusive lock on ``<entry>.lock`` (``fcntl.flock``): a second
  process that needs the same run waits for it and then loads it instead of training it again.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import zipfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from numerics.files import atomic_path, cache_root
CACHE_VERSION = "4"  # 3: training encodes each distinct image once; 4: in first-occurrence order (distinct_rows)
_CHECKSUM = "__sha256__"
_SPEC = "__spec__"

Arrays = dict[str, np.ndarray]


cache_dir = cache_root  # $CLCHECK_CACHE (numerics.files): the runs live in cache_dir() / "runs"


def run_key(spec: Mapping[str, Any]) -> str:
    """A short stable hash of a run's specification (JSON, sorted keys)."""
    blob = json.dumps({**spec, "cache_version": CACHE_VERSION}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def entry_path(namespace: str, spec: Mapping[str, Any]) -> Path:
    return cache_dir() / "runs" / f"{namespace}-{run_key(spec)}.npz"


def checksum(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over the arrays' names, dtypes, shapes and bytes (in name order)."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _save(path: Path, arrays: Arrays, spec: Mapping[str, Any]) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez_compressed(handle, **arrays, **{_SPEC: json.dumps(dict(spec), sort_keys=True, default=str),
                                                 _CHECKSUM: checksum(arrays)})


def load_entry(path: Path) -> Arrays | None:
    """The arrays of a complete, intact entry; None when it is missing, truncated or corrupt
    (a corrupt entry is removed, so that it is recomputed)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files if k not in (_SPEC, _CHECKSUM)}
            recorded = str(data[_CHECKSUM]) if _CHECKSUM in data.files else None
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        recorded, arrays = None, {}
    if recorded is not None and recorded == checksum(arrays):
        return arrays
    path.unlink(missing_ok=True)
    return None


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def cached_run(namespace: str, spec: Mapping[str, Any], compute: Callable[[], Arrays]) -> Arrays:
    """The arrays of the run ``spec``: loaded from the cache, or computed (once, across processes)
    and stored."""
    path = entry_path(namespace, spec)
    arrays = load_entry(path)
    if arrays is not None:
        return arrays
    with _locked(path):
        arrays = load_entry(path)  # another process may have finished it while we waited
        if arrays is None:
            arrays = {k: np.asarray(v) for k, v in compute().items()}
            _save(path, arrays, spec)
    return arrays
