"""Run an audit's claims: in this process, in parallel processes, or as Ray tasks on a cluster.

Every executor runs the same job -- :func:`run_job` checks one claim by id in a fresh temporary
folder and returns its :class:`ClaimResult` together with the files its check wrote (figures);
the driver writes those files and the witnesses into the report folder. A claim's check depends
only on the claim, the budget and the seed, so the reports of ``--jobs 1``, ``--jobs N`` and
``--executor ray`` are identical (timings aside), and nothing depends on a shared filesystem.

In parallel the order of the work is chosen for the wall clock, never for the results: first the
prerequisites the claims share (training runs, :mod:`theorems.engine.prerequisite`), the longest
first, then the claims, the longest first (their measured or declared ``cost``); results arrive in
the order they finish and the caller puts them back in claim order.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from theorems.engine.budget import Budget
from theorems.engine.check import check_claim, error_result
from theorems.engine.errors import ExecutorUnavailable
from theorems.engine.limits import Interrupted, TimeLimitExceeded, time_limit, watchdog
from theorems.engine.prerequisite import Prerequisite, unique
from theorems.engine.registry import get
from theorems.engine.verdict import ClaimResult
from theorems.frontend import store
from theorems.frontend.workers import run_in_workers

Files = dict[str, bytes]


@dataclass(frozen=True)
class Job:
    """One claim to check; ``cost`` (its expected seconds) orders the parallel queue only."""

    claim_id: str
    budget: Budget
    seed: int
    timeout: float | None = None
    write_artifacts: bool = True
    cost: float = 1.0
    store: bool = False  # keep this check's result in the verdict store, and reuse its entry when its evidence replays
    fresh: bool = False  # with store: search anyway (the result still replaces the entry)


def run_job(job: Job) -> tuple[ClaimResult, Files]:
    """Check one claim (loading the plugins if this process has not) and collect the files it wrote."""
    from training.device import configure_process, deterministic_kernels  # heavy: torch (1 s), not in the driver

    configure_process()
    deterministic_kernels()
    with time_limit(job.timeout, "loading the claim's plugin"):  # where the plugin is not imported yet (Ray)
        claim = get(job.claim_id)

    def run() -> tuple[ClaimResult, Files]:
        with tempfile.TemporaryDirectory(prefix="clcheck-") as tmp:
            folder = Path(tmp)
            result = check_claim(claim, job.budget, seed=job.seed,
                                 artifact_dir=folder if job.write_artifacts else None, timeout=job.timeout)
            return result, {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    if not job.store:
        return run()
    return store.checked(claim, job.budget, job.seed, run, job.write_artifacts, job.fresh)


def run_prerequisite(prerequisite: Prerequisite, timeout: float | None = None) -> str | None:
    """Do one shared piece of work within ``timeout`` seconds; None, or the error it met (the claims
    that need it meet the same error in their own checks and report it there)."""
    from training.device import configure_process  # heavy: torch (1 s), not in the driver

    configure_process()
    try:
        with time_limit(timeout, f"the shared work {prerequisite.key!r}"):
            prerequisite.run()
    except Interrupted:
        raise
    except (Exception, SystemExit, KeyboardInterrupt, TimeLimitExceeded) as exc:  # noqa: BLE001 - reported by the claims that need it
        return f"{type(exc).__name__}: {exc}"
    return None


@dataclass(frozen=True)
class Shared:
    """A prerequisite as a task, with the time limit it runs under."""

    prerequisite: Prerequisite
    timeout: float | None = None

    @property
    def key(self) -> str:
        return self.prerequisite.key


Task = Job | Shared


def run_task(task: Task) -> tuple[Task, Any]:
    """A unit of work: shared work (-> its error or None) or a claim (-> result, files)."""
    if isinstance(task, Shared):
        return task, run_prerequisite(task.prerequisite, task.timeout)
    return task, run_job(task)


def run_guarded_task(task: Task) -> tuple[Task, Any]:
    """:func:`run_task` in a process that kills itself past the task's hard deadline (a Ray worker,
    where no driver can kill it: Ray then reports the worker's death, and the task is an error)."""
    with watchdog(hard_deadline(task)):
        return run_task(task)


def lost_task(task: Task, why: str) -> tuple[Task, Any]:
    """The outcome of a task that could not report one itself (its worker died or was stopped)."""
    if isinstance(task, Shared):
        return task, f"lost: {why}"

    return task, (error_result(get(task.claim_id), task.seed, f"lost: {why}"), {})


#: how long past its own time limit a task may run before its worker is killed: the in-process alarm
#: normally ends it first; code stuck in C (which the alarm cannot interrupt) is stopped here
GRACE_SECONDS = 15.0


def hard_deadline(task: Task) -> float | None:
    """Seconds after which a task's worker is killed (None: the task has no time limit)."""
    return None if task.timeout is None else task.timeout + GRACE_SECONDS


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def queue(jobs: Sequence[Job], prerequisites: Sequence[Shared]) -> list[Task]:
    """The parallel order: the prerequisites, then the claims, each the longest first (ties keep
    the order given)."""
    return [*sorted(prerequisites, key=lambda p: -p.prerequisite.cost), *sorted(jobs, key=lambda j: -j.cost)]


def run_local(tasks: list[Task], processes: int) -> Iterator[tuple[Task, Any]]:
    """Each task with its outcome, from ``processes`` worker processes in the order they finish
    (:mod:`theorems.frontend.workers`): a task that kills its worker, exits it or hangs past its hard
    deadline gets an ``error`` outcome and the rest goes on. ``processes`` = 0 runs the tasks in this
    process, in order (no isolation beyond the claim's own)."""
    if processes <= 0:
        for task in tasks:
            yield run_task(task)
        return
    for _, outcome in run_in_workers(tasks, processes, run_task, lost_task, hard_deadline):
        yield outcome


def run_ray(tasks: list[Task], address: str | None, processes: int) -> Iterator[tuple[Task, Any]]:
    """Each task with its outcome as they finish, each task a Ray task (on the cluster at
    ``address``, or a local Ray instance of ``processes`` CPUs started here when ``address`` is
    None). Ray starts them in the order given: the prerequisites first. A task whose worker dies is
    not retried: its outcome is an ``error`` naming Ray's exception."""
    try:
        import ray  # optional extra (clcheck[ray]): only --executor ray
    except ImportError:
        raise ExecutorUnavailable("--executor ray needs Ray, which is not installed: pip install 'clcheck[ray]'") from None
    started = False
    if not ray.is_initialized():
        forwarded = {k: v for k, v in os.environ.items() if k in ("CLCHECK_PLUGINS", "CLCHECK_CACHE")}
        ray.init(address=address, num_cpus=None if address else processes, ignore_reinit_error=True,
                 log_to_driver=False, runtime_env={"env_vars": forwarded})
        started = True
    try:
        remote = ray.remote(max_retries=0)(run_guarded_task)
        submitted = {remote.remote(task): task for task in tasks}
        pending = list(submitted)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            try:
                yield ray.get(done[0])
            except Exception as exc:  # noqa: BLE001 - the task's worker died, or Ray failed it
                yield lost_task(submitted[done[0]], f"Ray: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        if started:
            ray.shutdown()


def write_files(folder: Any, files: Files) -> None:
    """Write what a job produced into the report folder (a :class:`~theorems.frontend.outdir.ReportFolder`: each
    file atomically, at a path checked to stay inside it)."""
    for name, data in files.items():
        folder.write_bytes(name, data)


def execute(jobs: list[Job], executor: str, processes: int, address: str | None,
            on_result: Callable[[ClaimResult, Files], Any], prerequisites: Iterable[Prerequisite] = (),
            on_prerequisite: Callable[[Prerequisite, str | None], Any] | None = None,
            prerequisite_timeout: float | None = None) -> None:
    """Run every job with the chosen executor, handing each result to ``on_result`` as it finishes
    (in job order with one process). The prerequisites (one per key, each within
    ``prerequisite_timeout`` seconds) run first where the claims run in parallel; with one process
    (``--jobs 1``) each claim does what it needs itself, and ``prerequisites`` (it may be a lazy
    iterable) is not even read. ``processes`` = 0 runs everything in this process."""
    parallel = executor == "ray" or processes > 1
    shared = [Shared(p, prerequisite_timeout) for p in unique(prerequisites)] if parallel else []
    tasks = queue(jobs, shared) if parallel else list(jobs)
    outcomes = run_ray(tasks, address, processes) if executor == "ray" else run_local(tasks, processes)
    for task, outcome in outcomes:
        if isinstance(task, Shared):
            if on_prerequisite is not None:
                on_prerequisite(task.prerequisite, outcome)
        else:
            on_result(*outcome)
