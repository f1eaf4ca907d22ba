"""Child processes that never outlive their caller: each runs in a process group of its own, and the whole group
is killed when it passes its time limit or when anything stops the caller (a claim's time limit, Ctrl-C, an
error) -- a prover's helper processes go with it."""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Finished:
    """What a child process did: its exit code (None when it was killed at its time limit) and its output."""

    returncode: int | None
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


def run_group(args: Sequence[str], timeout: float, cwd: str | None = None) -> Finished:
    """Run ``args`` (text output captured) in a new process group; past ``timeout`` seconds, or on any exception in
    the caller while it runs, kill the group (SIGKILL) and reap it."""
    proc = subprocess.Popen(list(args), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return Finished(proc.returncode, out, err)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return Finished(None, out or "", err or "")
    except BaseException:
        _kill_group(proc)
        proc.communicate()
        raise


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
