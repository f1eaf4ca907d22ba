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
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from numerics.files import write_bytes_atomic
from theorems.engine.budget import Budget
from theorems.engine.prerequisite import Prerequisite, unique
from theorems.engine.verdict import ClaimResult

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


def run_job(job: Job) -> tuple[ClaimResult, Files]:
    """Check one claim (loading the plugins if this process has not) and collect the files it wrote."""
    from theorems.engine.check import check_claim
    from theorems.engine.registry import get
    from training.device import configure_process, deterministic_kernels

    configure_process()
    deterministic_kernels()
    claim = get(job.claim_id)
    with tempfile.TemporaryDirectory(prefix="clcheck-") as tmp:
        folder = Path(tmp)
        result = check_claim(claim, job.budget, seed=job.seed, artifact_dir=folder if job.write_artifacts else None,
                             timeout=job.timeout)
        files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return result, files


def run_prerequisite(prerequisite: Prerequisite) -> str | None:
    """Do one shared piece of work; None, or the error it met (the claims that need it meet the
    same error in their own checks and report it there)."""
    from training.device import configure_process

    configure_process()
    try:
        prerequisite.run()
    except Exception as exc:  # noqa: BLE001 - reported by the claims that need it
        return f"{type(exc).__name__}: {exc}"
    return None


Task = Job | Prerequisite


def run_task(task: Task) -> tuple[Task, Any]:
    """A pool's unit of work: a prerequisite (-> its error or None) or a claim (-> result, files)."""
    return task, (run_prerequisite(task) if isinstance(task, Prerequisite) else run_job(task))


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C (sent to the whole process group) to the driver, which stops them
    and writes the report. SIGTERM gets its default back (a forked worker inherits the driver's
    handler): it is how ``Pool.terminate`` stops a worker, and a worker that ignored it would be
    waited for forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def queue(jobs: Sequence[Job], prerequisites: Sequence[Prerequisite]) -> list[Task]:
    """The parallel order: the prerequisites, then the claims, each the longest first (ties keep
    the order given)."""
    return [*sorted(prerequisites, key=lambda p: -p.cost), *sorted(jobs, key=lambda j: -j.cost)]


def run_local(tasks: list[Task], processes: int) -> Iterator[tuple[Task, Any]]:
    """Each task with its outcome: in this process in the given order (``processes`` = 1), else
    from a process pool in the order they finish."""
    if processes <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield run_task(task)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    pool = context.Pool(min(processes, len(tasks)), initializer=_ignore_interrupts, maxtasksperchild=None)
    finished = False
    try:
        for item in pool.imap_unordered(run_task, tasks, chunksize=1):
            yield item
        finished = True
    finally:
        if finished:  # every worker is idle: let them take the stop sentinel and exit
            pool.close()
        else:  # interrupted or failed: stop the workers now
            pool.terminate()
        pool.join()


def run_ray(tasks: list[Task], address: str | None, processes: int) -> Iterator[tuple[Task, Any]]:
    """Each task with its outcome as they finish, each task a Ray task (on the cluster at
    ``address``, or a local Ray instance of ``processes`` CPUs started here when ``address`` is
    None). Ray starts them in the order given: the prerequisites first."""
    try:
        import ray
    except ImportError:
        raise ImportError("--executor ray needs Ray: pip install 'clcheck[ray]'") from None
    started = False
    if not ray.is_initialized():
        forwarded = {k: v for k, v in os.environ.items() if k in ("CLCHECK_PLUGINS", "CLCHECK_CACHE")}
        ray.init(address=address, num_cpus=None if address else processes, ignore_reinit_error=True,
                 log_to_driver=False, runtime_env={"env_vars": forwarded})
        started = True
    try:
        remote = ray.remote(run_task)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def write_files(out: Path, files: Files) -> None:
    """Write what a job produced into the report folder (each file atomically)."""
    for name, data in files.items():
        write_bytes_atomic(out / name, data)


def execute(jobs: list[Job], executor: str, processes: int, address: str | None,
            on_result: Callable[[ClaimResult, Files], Any], prerequisites: Iterable[Prerequisite] = (),
            on_prerequisite: Callable[[Prerequisite, str | None], Any] | None = None) -> None:
    """Run every job with the chosen executor, handing each result to ``on_result`` as it finishes
    (in job order when run in this process). The prerequisites (one per key) run first where the
    claims run in parallel; in this process (``--jobs 1``) each claim does what it needs itself, and
    ``prerequisites`` (it may be a lazy iterable) is not even read."""
    parallel = executor == "ray" or processes > 1
    tasks = queue(jobs, unique(prerequisites)) if parallel else list(jobs)
    outcomes = run_ray(tasks, address, processes) if executor == "ray" else run_local(tasks, processes)
    for task, outcome in outcomes:
        if isinstance(task, Prerequisite):
            if on_prerequisite is not None:
                on_prerequisite(task, outcome)
        else:
            on_result(*outcome)
