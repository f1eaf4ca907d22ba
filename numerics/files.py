"""Atomic file writes: a temporary file in the target's folder, then a rename. A reader (or a
crash) never sees a half-written report, witness, cache entry or checkpoint. And where the
cache lives (:func:`cache_root`).

Modes: the temporary is created private (``tempfile.mkstemp``: 0600) and given the mode an
ordinary ``open()`` would have given the file (``0o666 & ~umask``) just before the rename, so
reports, witnesses, cache entries and checkpoints are written with the user's umask (0644 under
the usual 022), not 0600.

Temporaries are named ``.<name>.<host>.<pid>.<random>.tmp`` (the host name with anything but
letters, digits and ``-`` replaced by ``_``): a process killed between creating one and renaming
it leaves it behind, and :func:`remove_stale_temporaries` can tell from the name whether its writer
is gone (same host, process not running) and remove it. Temporaries of other hosts are removed
once a day old; those of the older naming (``.<name>.<random>.tmp``, no owner) once 10 minutes
old. A running writer's temporary is never removed. (A pid namespace other than this one under the
same host name -- two containers sharing a folder and a host name -- would defeat the liveness test;
give containers their own host names.)
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

from numerics.errors import OutputError

__all__ = ["atomic_path", "write_text_atomic", "write_bytes_atomic", "cache_root", "current_umask",
           "remove_stale_temporaries", "remove_stale_temporaries_once"]

_UMASK_LOCK = threading.Lock()


def current_umask() -> int:
    """The process's umask, read without changing it where Linux shows it (``/proc/self/status``);
    elsewhere by setting and restoring it under a lock (set to 0o077 meanwhile, so that a file
    another thread creates in that instant is more private, never less)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        old = os.umask(0o077)
        os.umask(old)
    return old


def _host() -> str:
    """This machine's name as it appears in temporary names: no dots, at most 32 characters."""
    return re.sub(r"[^A-Za-z0-9-]", "_", socket.gethostname())[:32] or "host"


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a fresh temporary path next to ``path`` (named after its writer: host and pid); on
    success give it the umask's mode and rename it onto ``path``, on failure remove it."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{_host()}.{os.getpid()}.",
                                    suffix=".tmp")
    except OSError as exc:  # a folder that cannot be made or written: the user's to fix, named
        raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~current_umask())
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise OutputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
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


# ----------------------------------------------------------------------------- stale temporaries

# mkstemp's random part: 8 characters of [a-z0-9_]
_OWNED = re.compile(r"^\.(?P<name>.+)\.(?P<host>[A-Za-z0-9_-]{1,32})\.(?P<pid>[0-9]{1,10})\.[a-z0-9_]{8}\.tmp$")
_UNOWNED = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")  # the naming before the writer was recorded
OTHER_HOST_AGE = 24 * 3600.0   # seconds: a temporary of another machine is removed once this old
UNOWNED_AGE = 600.0            # seconds: a temporary of the older naming is removed once this old
_REUSE_SLACK = 60.0            # seconds: a pid whose process started this long after the file's last
                               # write is another process (the pid was reused): its writer is gone


def _process_start(pid: int) -> tuple[str, float] | None:
    """(state, start time in seconds since the epoch) of a running process, from /proc; None where
    /proc does not tell."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        fields = stat[stat.rindex(")") + 2:].split()
        state, ticks = fields[0], int(fields[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return state, boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return None


def _writer_alive(pid: int, modified: float) -> bool:
    """Whether process ``pid`` of this machine may still be writing a file last modified at
    ``modified``: it exists, is not a zombie, and did not start after the file was written (a
    recycled pid). When in doubt: alive."""
    if pid <= 0:
        return True  # no writer has this pid: when in doubt, keep the file
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        pass  # EPERM: it exists (another user's process)
    info = _process_start(pid)
    if info is None:
        return True
    state, started = info
    if state == "Z":
        return False  # exited, not yet reaped: it writes nothing more
    return started <= modified + _REUSE_SLACK


def _is_stale(name: str, modified: float, now: float, host: str) -> bool:
    owned = _OWNED.match(name)
    if owned:
        if owned["host"] == host:
            return not _writer_alive(int(owned["pid"]), modified)
        return now - modified > OTHER_HOST_AGE
    if _UNOWNED.match(name):
        return now - modified > UNOWNED_AGE
    return False


def remove_stale_temporaries(folder: str | Path, recursive: bool = True) -> int:
    """Remove the temporaries of :func:`atomic_path` under ``folder`` whose writer is gone (killed
    between writing and renaming): same host and the process no longer runs (or its pid was
    reused); another host's once a day old; the older unowned naming once 10 minutes old. A
    running process's temporary is never removed; nothing but ``.<...>.tmp`` files of these
    namings is touched, symbolic links are not followed. Returns how many files were removed;
    errors (a file removed meanwhile, a folder not readable) are skipped."""
    folder = Path(folder)
    if not folder.is_dir():
        return 0
    host, now, removed = _host(), time.time(), 0
    walk = os.walk(folder) if recursive else [(str(folder), [], os.listdir(folder))]
    for root, _dirs, names in walk:
        for name in names:
            if not (name.startswith(".") and name.endswith(".tmp")):
                continue
            path = Path(root) / name
            try:
                st = path.lstat()
                if not path.is_file() or path.is_symlink():
                    continue
                if _is_stale(name, st.st_mtime, now, host):
                    path.unlink()
                    removed += 1
            except OSError:
                continue
    return removed


_TIDIED: set[str] = set()
_TIDIED_LOCK = threading.Lock()


def remove_stale_temporaries_once(folder: str | Path, recursive: bool = True) -> int:
    """:func:`remove_stale_temporaries` the first time a process opens ``folder`` (a cache folder);
    0 on later calls. Never raises: cleaning only saves space."""
    key = os.path.abspath(folder)
    with _TIDIED_LOCK:
        if key in _TIDIED:
            return 0
        _TIDIED.add(key)
    try:
        return remove_stale_temporaries(folder, recursive)
    except OSError:
        return 0
