"""Run an audit's claims: in this process, in parallel processes, or as Ray tasks on a cluster.

Every executor runs the same job -- :func:`run_job` checks one claim by id in a fresh temporary
folder and returns its :class:`ClaimResult` together with the files its check wrote (figures);
the driver writes those files and the witnesses into the report folder. A claim's check depends
only on the claim, the budget and the seed, so the reports of ``--jobs 1``, ``--jobs N`` and
``--executor ray`` are identical (timings aside), and nothing depends on a shared filesystem.
"""

from __future__ import annotations

import os
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from numerics.files import write_bytes_atomic
from theorems.engine.budget import Budget
from theorems.engine.verdict import ClaimResult

Files = dict[str, bytes]


@dataclass(frozen=True)
class Job:
    """One claim to check."""

    claim_id: str
    budget: Budget
    seed: int
    timeout: float | None = None
    write_artifacts: bool = True


def run_job(job: Job) -> tuple[ClaimResult, Files]:
    """Check one claim (loading the plugins if this process has not) and collect the files it wrote."""
    from theorems.engine.check import check_claim
    from theorems.engine.registry import get
    from training.device import configure_process

    configure_process()
    claim = get(job.claim_id)
    with tempfile.TemporaryDirectory(prefix="clcheck-") as tmp:
        folder = Path(tmp)
        result = check_claim(claim, job.budget, seed=job.seed, artifact_dir=folder if job.write_artifacts else None,
                             timeout=job.timeout)
        files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
    return result, files


def _ignore_interrupts() -> None:
    """Pool workers leave Ctrl-C (sent to the whole process group) to the driver, which stops them
    and writes the report. SIGTERM gets its default back (a forked worker inherits the driver's
    handler): it is how ``Pool.terminate`` stops a worker, and a worker that ignored it would be
    waited for forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def run_local(jobs: list[Job], processes: int) -> Iterator[tuple[ClaimResult, Files]]:
    """The results in the order of ``jobs``: in this process (``processes`` = 1) or a process pool."""
    if processes <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield run_job(job)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork")
    pool = context.Pool(min(processes, len(jobs)), initializer=_ignore_interrupts, maxtasksperchild=None)
    finished = False
    try:
        for item in pool.imap(run_job, jobs, chunksize=1):
            yield item
        finished = True
    finally:
        if finished:  # every worker is idle: let them take the stop sentinel and exit
            pool.close()
        else:  # interrupted or failed: stop the workers now
            pool.terminate()
        pool.join()


def run_ray(jobs: list[Job], address: str | None) -> Iterator[tuple[ClaimResult, Files]]:
    """The results in the order of ``jobs``, each job a Ray task (on the cluster at ``address``, or a
    local Ray instance started here when ``address`` is None)."""
    try:
        import ray
    except ImportError:
        raise ImportError("--executor ray needs Ray: pip install 'clcheck[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 runtime_env={"env_vars": {k: v for k, v in os.environ.items()
                                           if k in ("CLCHECK_PLUGINS", "CLCHECK_CACHE")}})
        started = True
    try:
        task = ray.remote(run_job)
        refs = [task.remote(job) for job in jobs]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def write_files(out: Path, files: Files) -> None:
    """Write what a job produced into the report folder (each file atomically)."""
    for name, data in files.items():
        write_bytes_atomic(out / name, data)


def execute(jobs: list[Job], executor: str, processes: int, address: str | None,
            on_result: Callable[[ClaimResult, Files], Any]) -> None:
    """Run every job with the chosen executor, handing each result (in job order) to ``on_result``."""
    results = run_ray(jobs, address) if executor == "ray" else run_local(jobs, processes)
    for result, files in results:
        on_result(result, files)
