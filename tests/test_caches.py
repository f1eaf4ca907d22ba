"""The caches' integrity and files (issue 31): a cache entry answers only the key it was written for,
timings that do not verify are ignored, files are written with the user's umask, and the temporaries
a killed writer left behind are removed -- never a running writer's.

(The Coq cache's records: tests/test_coq.py.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from numerics import files
from training import cache


def _arrays(shift: float = 0.0) -> dict[str, np.ndarray]:
    return {"w": np.arange(6.0).reshape(2, 3) + shift, "steps": np.arange(3)}


# -- the cache of trained runs ------------------------------------------------------------------------

def test_an_entry_copied_over_another_runs_file_is_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    calls: list[str] = []

    def compute(tag: str, shift: float):
        return lambda: calls.append(tag) or _arrays(shift)

    a, b = {"run": "a"}, {"run": "b"}
    cache.cached_run("t", a, compute("a", 0.0))
    cache.cached_run("t", b, compute("b", 1.0))
    assert calls == ["a", "b"]
    shutil.copyfile(cache.entry_path("t", a), cache.entry_path("t", b))  # a's arrays under b's name
    got = cache.cached_run("t", b, compute("b", 1.0))
    assert calls == ["a", "b", "b"] and np.array_equal(got["w"], _arrays(1.0)["w"])
    # the same key under another namespace: not that namespace's entry either
    other = cache.entry_path("u", a)
    shutil.copyfile(cache.entry_path("t", a), other)
    assert cache.load_entry(other) is None and not other.exists()  # removed, so recomputed
    assert cache.cached_run("t", b, compute("b", 1.0)) is not None and calls == ["a", "b", "b"]  # intact: reused


def test_an_entry_whose_spec_does_not_hash_to_its_name_is_recomputed(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The stored spec must give the key in the file name, even when the checksum is recomputed for it."""
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    spec = {"run": 1}
    cache.cached_run("t", spec, _arrays)
    path = cache.entry_path("t", spec)
    with np.load(path) as data:
        stored = {k: data[k] for k in data.files}
    assert str(stored["__spec__"]) == cache.spec_blob(spec)
    arrays = {k: v for k, v in stored.items() if not k.startswith("__")}
    wrong = cache.spec_blob({"run": 2})
    np.savez_compressed(path, **arrays, __spec__=wrong, __sha256__=cache.entry_checksum(path.name, wrong, arrays))
    assert cache.load_entry(path) is None
    right = cache.spec_blob(spec)  # the same entry with its own spec verifies (so the spec is what failed)
    np.savez_compressed(path, **arrays, __spec__=right, __sha256__=cache.entry_checksum(path.name, right, arrays))
    assert cache.load_entry(path) is not None


def test_an_entry_of_the_previous_format_is_recomputed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An entry whose checksum covers its arrays only (CACHE_VERSION 4) does not verify."""
    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    path = cache.entry_path("t", {"run": 1})
    path.parent.mkdir(parents=True)
    np.savez_compressed(path, **_arrays(), __spec__=json.dumps({"run": 1}), __sha256__=cache.checksum(_arrays()))
    assert cache.load_entry(path) is None and not path.exists()


# -- timings.json ---------------------------------------------------------------------------------------

def test_timings_that_do_not_verify_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from theorems.frontend import schedule

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    claims = [SimpleNamespace(id="c.long", cost=5.0), SimpleNamespace(id="c.short", cost=1.0)]
    schedule.record([SimpleNamespace(id="c.long", seconds=42.5)], "audit")
    assert schedule.expected_seconds(claims, "audit") == {"c.long": 42.5, "c.short": 1.0}
    path = tmp_path / "timings.json"
    data = json.loads(path.read_text())
    assert data["sha256"] and data["profiles"] == {"audit": {"c.long": 42.5}}
    data["profiles"]["audit"]["c.short"] = 1000.0  # edited by hand, the checksum left as it was
    path.write_text(json.dumps(data))
    assert schedule.expected_seconds(claims, "audit") == {"c.long": 5.0, "c.short": 1.0}  # the declared costs
    path.write_text(json.dumps({"audit": {"c.long": 42.5}}))  # the older format, without a checksum
    assert schedule.expected_seconds(claims, "audit") == {"c.long": 5.0, "c.short": 1.0}
    schedule.record([SimpleNamespace(id="c.short", seconds=2.0)], "audit")  # rewritten, verifying again
    assert schedule.expected_seconds(claims, "audit") == {"c.long": 5.0, "c.short": 2.0}


# -- modes ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_atomic_writes_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        assert files.current_umask() == umask
        files.write_text_atomic(tmp_path / "report.json", "{}")
        with files.atomic_path(tmp_path / "sub" / "entry.npz") as tmp, open(tmp, "wb") as handle:
            np.savez_compressed(handle, x=np.ones(2))
    finally:
        os.umask(old)
    assert (tmp_path / "report.json").stat().st_mode & 0o777 == mode
    assert (tmp_path / "sub" / "entry.npz").stat().st_mode & 0o777 == mode
    assert files.current_umask() == old


# -- stale temporaries --------------------------------------------------------------------------------------

def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _temp(folder: Path, name: str, age: float = 0.0) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("partial")
    if age:
        t = time.time() - age
        os.utime(path, (t, t))
    return path


def test_atomic_path_names_its_temporary_after_its_writer(tmp_path: Path) -> None:
    with files.atomic_path(tmp_path / "report.json") as tmp:
        tmp.write_text("{}")
        assert tmp.name.startswith(f".report.json.{files._host()}.{os.getpid()}.") and tmp.name.endswith(".tmp")
        assert files.remove_stale_temporaries(tmp_path) == 0 and tmp.exists()  # a running writer's: kept
    assert (tmp_path / "report.json").read_text() == "{}" and not tmp.exists()


def test_stale_temporaries_of_gone_writers_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    host, dead = files._host(), _dead_pid()
    live = _temp(tmp_path, f".report.json.{host}.{os.getpid()}.abcd_123.tmp")  # this process: running
    gone = _temp(tmp_path / "witnesses", f".w.json.{host}.{dead}.k2j4h5g6.tmp")
    gone_here = _temp(tmp_path, f".x.npz.{host}.{dead}.zzzzzzzz.tmp")  # a second ago: the writer is gone
    far_fresh = _temp(tmp_path, ".a.json.otherhost.12.abcdefgh.tmp", age=3600)
    far_old = _temp(tmp_path, ".b.json.otherhost.12.abcdefgh.tmp", age=2 * 86400)
    unowned_fresh = _temp(tmp_path, ".c.json.q1w2e3r4.tmp", age=60)
    unowned_old = _temp(tmp_path, ".d.json.q1w2e3r4.tmp", age=3600)
    unrelated = [_temp(tmp_path, "notes.tmp", age=10 * 86400), _temp(tmp_path, ".hidden.tmp", age=10 * 86400),
                 _temp(tmp_path, ".e.json.lock", age=10 * 86400)]
    assert files.remove_stale_temporaries(tmp_path, recursive=False) == 3 and gone.exists()  # not the sub-folder's
    assert files.remove_stale_temporaries(tmp_path) == 1
    assert not any(p.exists() for p in (gone, gone_here, far_old, unowned_old))
    assert all(p.exists() for p in (live, far_fresh, unowned_fresh, *unrelated))


def test_a_temporary_older_than_its_pids_process_is_stale(tmp_path: Path) -> None:
    """A recycled pid: a process with this pid runs, but it started after the file's last write."""
    info = files._process_start(os.getpid())
    if info is None:
        pytest.skip("/proc does not give process start times here")
    host = files._host()
    recycled = _temp(tmp_path, f".r.json.{host}.{os.getpid()}.abcdefgh.tmp")
    before_me = info[1] - 3600.0  # an hour before this process started
    os.utime(recycled, (before_me, before_me))
    mine = _temp(tmp_path, f".m.json.{host}.{os.getpid()}.abcdefgh.tmp")
    assert files.remove_stale_temporaries(tmp_path) == 1
    assert not recycled.exists() and mine.exists()


def test_opening_a_cache_removes_the_temporaries_of_killed_writers(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from numerics import coq

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    host, dead = files._host(), _dead_pid()
    runs_tmp = _temp(tmp_path / "runs", f".t-0123456789abcdef.npz.{host}.{dead}.abcdefgh.tmp")
    coq_tmp = _temp(tmp_path / "coq", f".{'0' * 64}.json.{host}.{dead}.abcdefgh.tmp")
    assert cache.load_entry(cache.entry_path("t", {"run": 1})) is None
    assert not runs_tmp.exists()
    assert coq._cache_read("0" * 64, {}) is None
    assert not coq_tmp.exists()
    again = _temp(tmp_path / "runs", f".t-0123456789abcdef.npz.{host}.{dead}.abcdefgh.tmp")
    cache.load_entry(cache.entry_path("t", {"run": 1}))
    assert again.exists()  # once per process and folder
