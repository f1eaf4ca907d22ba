"""Time limits and interruptions: what may stop a claim's check, and how each is told apart.

* :class:`TimeLimitExceeded` -- a time limit passed (a claim's ``--claim-timeout``, a shared
  training run's, a plugin's import). A BaseException, so that no search library mistakes it for a
  failing example and keeps going; its message names the code that was running when it fired.
* :class:`Interrupted` -- a real Ctrl-C or SIGTERM, raised by a signal handler: it ends the audit
  (with a partial report) and is the one exception a claim's isolation lets through. A plain
  ``KeyboardInterrupt`` or ``SystemExit`` raised by a claim's own code is that claim's error.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
import traceback
from pathlib import Path
from typing import Any, Iterator


#: a claim's time limit when none is given (``clcheck audit --claim-timeout``, ``pytest --theorems-timeout``): far
#: beyond any shipped claim's time (the slowest, about a minute warm), and a hung quantity still ends
DEFAULT_CLAIM_SECONDS = 3600.0


class TimeLimitExceeded(BaseException):
    """A time limit passed; ``where`` is the innermost frame that was running (file:line (function))."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (exit 130) or SIGTERM (exit 143), raised by :func:`interrupts_raise` handlers."""

    def __init__(self, code: int = 130) -> None:
        super().__init__(code)
        self.code = code


def short_path(filename: str) -> str:
    """A file name relative to the working directory or to this repository, when it is inside one."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        try:
            return str(Path(filename).resolve().relative_to(root))
        except (ValueError, OSError):
            continue
    return filename


def frame_location(frame: Any) -> str:
    """``file:line (in function)`` of a frame, or '' without one."""
    if frame is None:
        return ""
    info = traceback.extract_stack(frame, limit=1)[-1]
    return f"{short_path(info.filename)}:{info.lineno} (in {info.name})"


@contextlib.contextmanager
def time_limit(seconds: float | None, what: str) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` ("<what>'s time limit of N s passed") after ``seconds`` of wall
    clock, naming where the code was. Main thread only (elsewhere there is no limit: a caller that
    needs one enforces it from outside, as the audit's worker pool does). Limits nest: inside an outer
    limit that passes first, the outer one stays in charge; otherwise the inner one runs and the outer
    one is re-armed with what is left of it when the block ends."""
    if not seconds or threading.current_thread() is not threading.main_thread():
        yield
        return
    outer, _ = signal.getitimer(signal.ITIMER_REAL)
    if outer and outer <= seconds:  # the enclosing limit passes first: it decides
        yield
        return
    started = time.monotonic()

    def expire(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"{what}'s time limit of {seconds:g} s passed", frame_location(frame))

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer:  # re-arm the enclosing limit with what is left of it (at once if nothing is)
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-3))


@contextlib.contextmanager
def watchdog(seconds: float | None) -> Iterator[None]:
    """Kill this process (SIGKILL) if the block is still running after ``seconds``: the last resort for
    a task stuck where no alarm reaches it (code in C with the alarm blocked), in a process whose
    death its driver notices (a Ray worker: the task is then that claim's error)."""
    if not seconds:
        yield
        return
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGKILL))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@contextlib.contextmanager
def interrupts_raise(signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """While inside, SIGINT raises ``Interrupted(130)`` and SIGTERM ``Interrupted(143)``; the previous
    handlers come back after. In a thread other than the main one nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise Interrupted(128 + signum)

    previous = {sig: signal.signal(sig, stop) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def ctrl_c_is_interrupted() -> contextlib.AbstractContextManager[None]:
    """Where Ctrl-C still has Python's default handler (a check run from pytest or a script), make it
    raise :class:`Interrupted`, so that a real Ctrl-C is told apart from a claim's own
    ``KeyboardInterrupt``; a handler someone installed (the audit's) is left alone."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        return interrupts_raise((signal.SIGINT,))
    return contextlib.nullcontext()
