"""The one cache of trained runs: arrays keyed by everything that determines them.

A run is stored as one ``.npz`` under ``$CLCHECK_CACHE/runs`` (default ``.clcheck-cache/runs``),
named ``<namespace>-<key>.npz`` where the key is the first 16 hex digits of the SHA-256 of the
run's *spec blob*: its full specification and :data:`CACHE_VERSION` as JSON with sorted keys
(:func:`spec_blob`). Besides the arrays, an entry holds two reserved arrays: ``__spec__``, the spec
blob, and ``__sha256__``, the checksum (:func:`entry_checksum`): SHA-256 over the entry's file name
(``<namespace>-<key>.npz``), the spec blob and every array's name, dtype, shape and bytes. Four
things keep the cache sound when runs are interrupted or audits share it:

* writes go to a temporary file that is renamed into place, so an entry is complete or absent;
* the checksum is verified on load, against the name the entry is loaded under, and the stored
  spec blob must hash to the key in that name: an entry that is truncated, edited, written by an
  older version, or copied over another run's file (another key or namespace) is detected,
  removed and recomputed. The checksum protects against such accidents; it is not a signature --
  someone who edits an entry on purpose and recomputes the checksum (the recipe is above) is not
  stopped;
* computing an entry holds an exclusive lock on ``<entry>.lock`` (``fcntl.flock``): a second
  process that needs the same run waits for it and then loads it instead of training it again;
* the first time a process opens a cache folder, the temporaries that killed writers left there are
  removed (:func:`numerics.files.remove_stale_temporaries`; never a running writer's).
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

from numerics.files import atomic_path, cache_root, remove_stale_temporaries_once

# 3: training encodes each distinct image once; 4: in first-occurrence order (distinct_rows);
# 5: the checksum covers the entry's name and spec blob (an entry copied under another name is refused)
CACHE_VERSION = "5"
_CHECKSUM = "__sha256__"
_SPEC = "__spec__"

Arrays = dict[str, np.ndarray]


cache_dir = cache_root  # $CLCHECK_CACHE (numerics.files): the runs live in cache_dir() / "runs"


def spec_blob(spec: Mapping[str, Any]) -> str:
    """The canonical text of a run's specification: JSON with sorted keys, :data:`CACHE_VERSION`
    included (what :func:`run_key` hashes and an entry stores)."""
    return json.dumps({**spec, "cache_version": CACHE_VERSION}, sort_keys=True, default=str)


def _key_of_blob(blob: str) -> str:
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def run_key(spec: Mapping[str, Any]) -> str:
    """A short stable hash of a run's specification (JSON, sorted keys)."""
    return _key_of_blob(spec_blob(spec))


def entry_path(namespace: str, spec: Mapping[str, Any]) -> Path:
    return cache_dir() / "runs" / f"{namespace}-{run_key(spec)}.npz"


def checksum(arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over the arrays' names, dtypes, shapes and bytes (in name order)."""
    return _hash_arrays(hashlib.sha256(), arrays).hexdigest()


def _hash_arrays(h: Any, arrays: Mapping[str, np.ndarray]) -> Any:
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.tobytes())
    return h


def entry_checksum(file_name: str, blob: str, arrays: Mapping[str, np.ndarray]) -> str:
    """SHA-256 over the entry's file name (the key it answers), its spec blob and its arrays."""
    h = hashlib.sha256()
    for part in ("clcheck-run-entry", file_name, blob):
        data = part.encode()
        h.update(f"{len(data)}|".encode())
        h.update(data)
    return _hash_arrays(h, arrays).hexdigest()


def _save(path: Path, arrays: Arrays, spec: Mapping[str, Any]) -> None:
    blob = spec_blob(spec)
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez_compressed(handle, **arrays, **{_SPEC: blob, _CHECKSUM: entry_checksum(path.name, blob, arrays)})


def _tidy(folder: Path) -> None:
    remove_stale_temporaries_once(folder, recursive=False)  # temporaries of killed writers, once per process


def load_entry(path: Path) -> Arrays | None:
    """The arrays of a complete, intact entry; None when it is missing, truncated, corrupt, or not
    the entry of its file name (a stored spec that does not hash to the name's key, a checksum made
    for another name). A bad entry is removed, so that it is recomputed."""
    _tidy(path.parent)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            arrays = {k: data[k] for k in data.files if k not in (_SPEC, _CHECKSUM)}
            recorded = str(data[_CHECKSUM]) if _CHECKSUM in data.files else None
            blob = str(data[_SPEC]) if _SPEC in data.files else None
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
        recorded, blob, arrays = None, None, {}
    key = path.stem.rsplit("-", 1)[-1]
    if (recorded is not None and blob is not None and _key_of_blob(blob) == key
            and recorded == entry_checksum(path.name, blob, arrays)):
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
