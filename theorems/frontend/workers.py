"""A pool of forked worker processes that no task can take down with it.

``multiprocessing.Pool`` loses a task whose worker dies (a SIGKILL, ``os._exit``, a crash in C code)
and then waits for it forever; it cannot stop a task stuck in C code that ignores signals either.
Here each worker has its own pipe, the driver waits on every pipe and on every worker's exit at
once, and:

* a result arrives -> it is handed on, the worker takes the next task;
* a worker exits without a result -> its task's outcome is ``lost(task, why)`` ("killed by signal
  SIGKILL", "exited with status 0") and a fresh worker takes its place;
* a task runs past its hard deadline (``deadline(task)`` seconds: its own time limit plus a grace
  period, in which the task's in-process alarm normally ends it first) -> its worker is killed and
  the outcome is ``lost(task, ...)`` as well.

Workers ignore Ctrl-C (the driver stops them and writes the partial report) and are killed when
the driver leaves, however it leaves.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator, Sequence

Outcome = Any


@dataclass
class _Worker:
    process: Any
    conn: Connection
    task: Any = None
    deadline: float | None = None


def _serve(conn: Connection, run: Callable[[Any], Outcome], failed: Callable[[Any, str], Outcome]) -> None:
    """A worker's loop: take a task, send back ``run(task)``; an exception that escapes ``run`` (or a
    result that cannot be sent) is sent back as ``failed(task, why)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the whole process group: the driver's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker inherits the driver's handler
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        try:
            outcome = run(message)
        except BaseException as exc:  # noqa: BLE001 - reported as the task's outcome
            outcome = failed(message, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(outcome)
        except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be pickled
            conn.send(failed(message, f"its result could not be sent back: {type(exc).__name__}: {exc}"))


def _exit_text(code: int | None) -> str:
    if code is None:
        return "did not exit"
    if code < 0:
        try:
            return f"was killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code} (the task's code ended the process)"


def run_in_workers(tasks: Sequence[Any], processes: int, run: Callable[[Any], Outcome],
                   failed: Callable[[Any, str], Outcome],
                   deadline: Callable[[Any], float | None] = lambda task: None) -> Iterator[tuple[Any, Outcome]]:
    """Each task with its outcome, in the order they finish, from ``processes`` forked workers.

    ``run`` (a module-level function or one the fork inherits) runs in a worker; ``failed(task, why)``
    builds the outcome of a task that could not report one; ``deadline(task)`` is the wall-clock
    seconds after which its worker is killed (None: no limit)."""
    context = multiprocessing.get_context("fork")
    pending = deque(tasks)
    workers: list[_Worker] = []

    def spawn() -> _Worker:
        parent, child = context.Pipe()
        process = context.Process(target=_serve, args=(child, run, failed), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    def retire(worker: _Worker, grace: float = 0.0) -> None:
        worker.process.join(grace)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()

    try:
        workers = [spawn() for _ in range(max(1, min(processes, len(pending))))]
        while pending or any(w.task is not None for w in workers):
            for w in workers:
                if w.task is None and pending:
                    w.task = pending.popleft()
                    seconds = deadline(w.task)
                    w.deadline = None if seconds is None else time.monotonic() + seconds
                    w.conn.send(w.task)
            busy = [w for w in workers if w.task is not None]
            limits = [w.deadline for w in busy if w.deadline is not None]
            timeout = max(0.0, min(limits) - time.monotonic()) if limits else None
            wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
            for w in busy:
                done, outcome, replace = _collect(w, failed)
                if not done:
                    continue
                task, w.task, w.deadline = w.task, None, None
                if replace:  # a dead or stuck worker: a fresh one takes its place
                    retire(w)
                    workers[workers.index(w)] = spawn()
                yield task, outcome
    finally:  # idle workers take the stop sentinel and exit; a busy one (an interrupted audit) is killed
        for w in workers:
            idle = w.task is None
            if idle:
                try:
                    w.conn.send(None)
                except (OSError, ValueError):
                    idle = False
            retire(w, grace=5.0 if idle else 0.0)


def _collect(w: _Worker, failed: Callable[[Any, str], Outcome]) -> tuple[bool, Outcome, bool]:
    """(whether the task is done, its outcome, whether its worker must be replaced)."""
    if w.conn.poll():
        try:
            return True, w.conn.recv(), not w.process.is_alive()
        except (EOFError, OSError):
            pass  # it died while sending: as below
    if not w.process.is_alive():
        w.process.join()
        return True, failed(w.task, f"the worker process running it {_exit_text(w.process.exitcode)}"), True
    if w.deadline is not None and time.monotonic() >= w.deadline:
        return True, failed(w.task, "it ran past its hard deadline (its time limit plus a grace period) and did "
                                    "not stop: its worker process was killed"), True
    return False, None, False
