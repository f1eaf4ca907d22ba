"""The folder a command writes its report into (``--out``): contained, locked, written as one unit.

* **Whose folder.** ``--out`` must be new, empty, or a folder clcheck wrote before (it holds the marker file
  ``.clcheck-report``): never a plugin's or a source folder, never the working directory by accident
  (``--out .`` or ``--out ""`` there is refused unless it is such a folder), never a symbolic link.
* **One at a time.** A lock file beside the folder (``.<name>.clcheck-lock``) lets one command write it at a time;
  a second one is told which.
* **One unit.** An audit writes into a fresh staging folder beside ``--out`` and, once everything is written,
  puts it in place with a rename: the report and its witnesses always come from the same run, and a run that
  fails half way (a full disk, an error) leaves the previous report as it was. A command that adds files to a
  report (``clcheck proofs``) writes each file atomically into it.
* **Contained.** Every file goes to a path checked to stay inside the folder (no absolute path, no ``..``, no
  link followed).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path
from types import TracebackType

from numerics.errors import OutputError
from numerics.files import write_bytes_atomic, write_text_atomic
from theorems.engine.errors import OptionError

MARKER = ".clcheck-report"


def check_out(out: Path) -> Path:
    """``out`` as an absolute path, after checking that clcheck may write there (see the module docstring)."""
    path = Path(os.path.abspath(out if str(out) else "."))
    if path.is_symlink():
        raise OptionError(f"--out {str(out)!r} is a symbolic link: give the folder itself")
    if path.exists() and not path.is_dir():
        raise OptionError(f"--out {str(out)!r} is a file, not a folder")
    if path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file():
        raise OptionError(f"--out {str(out)!r} holds files clcheck did not write (no {MARKER} marker): give a new or "
                          "empty folder, or one an earlier clcheck command wrote")
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"--out {str(out)!r} cannot be made: {exc.strerror or exc}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(f"--out {str(out)!r}: its folder {str(parent)!r} is not writable")
    return path


def inside(folder: Path, *name: str) -> Path:
    """``folder / name...`` after checking that it stays inside ``folder`` (no absolute part, no '..', no link)."""
    relative = Path(*name)
    if relative.is_absolute() or ".." in relative.parts or not relative.parts:
        raise OutputError(f"refusing to write {str(relative)!r}: a report file must stay inside {str(folder)!r}")
    path = folder
    for part in relative.parts:
        path = path / part
        if path.is_symlink():
            raise OutputError(f"refusing to write through the symbolic link {str(path)!r} inside the report folder")
    if not os.path.abspath(path).startswith(os.path.abspath(folder) + os.sep):
        raise OutputError(f"refusing to write {str(relative)!r} outside {str(folder)!r}")
    return path


class ReportFolder:
    """``--out`` for one command: ``with ReportFolder(out, replace=True) as folder:`` write with
    ``folder.write_text(name, text)`` / ``folder.path(name)``, then ``folder.commit()``; leaving the block without a
    commit (an exception) removes what was staged and keeps the previous report."""

    def __init__(self, out: Path, replace: bool) -> None:
        self.out = check_out(out)
        self.replace = replace
        self.root = self.out  # where files go: the staging folder for a replacing command
        self._lock: int | None = None
        self._committed = False

    def __enter__(self) -> "ReportFolder":
        lock_path = self._lock_path = self.out.parent / f".{self.out.name}.clcheck-lock"
        try:
            self._lock = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OptionError(f"--out {str(self.out)!r} is being written by another clcheck command "
                              f"(pid {_holder(lock_path)}): wait for it or choose another folder") from None
        except OSError as exc:
            raise OutputError(f"--out {str(self.out)!r}: cannot lock it: {exc.strerror or exc}") from None
        os.ftruncate(self._lock, 0)
        os.write(self._lock, str(os.getpid()).encode())
        self._remove_leftovers()
        if self.replace:
            self.root = self.out.parent / f".{self.out.name}.staging-{os.getpid()}"
            shutil.rmtree(self.root, ignore_errors=True)
            self.root.mkdir()
        else:
            self.out.mkdir(exist_ok=True)
        return self

    def _remove_leftovers(self) -> None:
        """The staging or old folders a killed command left beside ``--out`` (we hold the lock: none is live)."""
        for pattern in (f".{self.out.name}.staging-*", f".{self.out.name}.old-*"):
            for leftover in self.out.parent.glob(pattern):
                if leftover.is_dir() and not leftover.is_symlink():
                    shutil.rmtree(leftover, ignore_errors=True)

    def path(self, *name: str) -> Path:
        """Where the file ``name`` goes (its folders made), checked to stay inside the report folder."""
        path = inside(self.root, *name)
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def write_text(self, name: str, text: str) -> None:
        write_text_atomic(self.path(*Path(name).parts), text)

    def write_bytes(self, name: str, data: bytes) -> None:
        write_bytes_atomic(self.path(*Path(name).parts), data)

    def commit(self) -> None:
        """Mark the folder as clcheck's and put it in place (for a replacing command: one rename)."""
        write_text_atomic(self.root / MARKER, json.dumps({"written_by": "clcheck"}) + "\n")
        if self.replace:
            old = self.out.parent / f".{self.out.name}.old-{os.getpid()}"
            if self.out.exists():
                os.rename(self.out, old)
            os.rename(self.root, self.out)
            shutil.rmtree(old, ignore_errors=True)
            self.root = self.out
        self._committed = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self.replace and not self._committed:
            shutil.rmtree(self.root, ignore_errors=True)
        if self._lock is not None:
            self._lock_path.unlink(missing_ok=True)  # before unlocking: a command waiting on it never holds a stale one
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            os.close(self._lock)
            self._lock = None


def _holder(lock_path: Path) -> str:
    try:
        return lock_path.read_text().strip() or "unknown"
    except OSError:
        return "unknown"
