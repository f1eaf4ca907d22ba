#!/usr/bin/env python
"""End-to-end probes of clcheck under bad input and faults, run against a checkout.

    .venv/bin/python scripts/fault_probes.py --checkout /work/before --json /tmp/before.json
    .venv/bin/python scripts/fault_probes.py --checkout . --only nan-quantity,witness-plugin-this

Every probe runs ``<python> -m theorems.frontend.cli ...`` (some also the console-script form) as a
subprocess with PYTHONPATH=<checkout>[:extra] first on the path, in a fresh temporary directory
with a fresh CLCHECK_CACHE, CLCHECK_COQ_CACHE unset, and a wall-clock limit (its whole process
group is killed past it: the probe is then "hang"). Probes run one after the other. Fault plugins
are written into the probe's directory and named in CLCHECK_PLUGINS. The script prints a markdown
table ``| probe | promised behaviour | observed | held |``; --json saves the results. It measures
only: it never changes clcheck.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

SMALL = ["--profile", "quick", "--budget", "20", "--adversarial-starts", "1", "--adversarial-steps", "10"]
CONSOLE = "import sys; from theorems.frontend.cli import main; sys.argv[0] = 'clcheck'; main()"
HANG = 60.0  # the limit of the runs whose promise is "no hang" (a tiny audit takes ~5 s)
PROBES: dict[str, tuple[str, Callable]] = {}


def probe(name: str, promise: str) -> Callable:
    def register(fn: Callable) -> Callable:
        PROBES[name] = (promise, fn)
        return fn
    return register


# -- running clcheck --------------------------------------------------------------------------------

@dataclass
class Run:
    rc: int | None
    out: str
    err: str
    seconds: float
    hung: bool
    maxrss_kb: int | None = None

    @property
    def text(self) -> str:
        return self.out + self.err

    @property
    def lines(self) -> list[str]:
        return [line for line in self.text.splitlines() if line.strip()]

    def brief(self, n: int = 2) -> str:
        if self.hung:
            return f"HANG (killed after {self.seconds:.0f} s)"
        shown = [line.strip(" │┃") for line in self.lines  # no progress bar, no borders
                 if "━" not in line and not line.lstrip().startswith(tuple("┏┡└┌╭╰"))]
        head = " / ".join(line.strip()[:110] for line in shown[:n])
        more = f" ({len(self.lines)} lines)" if len(self.lines) > n else ""
        return f"exit {self.rc} in {self.seconds:.1f} s: {head}{more}"

    def user_error(self, *fragments: str) -> bool:
        """Exit 2, no traceback, at most two non-empty lines, every fragment named."""
        return (not self.hung and self.rc == 2 and "Traceback" not in self.text and len(self.lines) <= 2
                and all(f in self.text for f in fragments))


class Ctx:
    """One probe's sandbox: a temporary directory (the cwd), a cache, plugins, the runs made."""

    def __init__(self, checkout: Path, python: str, root: Path, name: str, timeout: float) -> None:
        self.checkout, self.python, self.timeout = checkout, python, timeout
        self.dir = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=root))
        self.cache = self.dir / "cache"
        self.path: list[str] = []  # extra PYTHONPATH entries
        self.plugins = ""
        self.hung = False

    def env(self, cache: Path | None = None, path: list[str] | None = None, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("CLCHECK_COQ_CACHE", "CLCHECK_PLUGINS", "CLCHECK_DEBUG", "PYTHONPATH")}
        env["PYTHONPATH"] = os.pathsep.join([str(self.checkout), *(self.path if path is None else path)])
        env["CLCHECK_CACHE"] = str(cache or self.cache)
        if self.plugins:
            env["CLCHECK_PLUGINS"] = self.plugins
        env.update(extra)
        return env

    def command(self, args: list[str], console: bool = False) -> list[str]:
        # the console script has its own folder, not the cwd, on sys.path: -P drops the cwd
        return [self.python, "-P", "-c", CONSOLE, *args] if console else [
            self.python, "-m", "theorems.frontend.cli", *args]

    def start(self, args: list[str], *, console: bool = False, cwd: Path | None = None, env: dict | None = None,
              prefix: list[str] = (), rlimit_as: int | None = None) -> tuple[subprocess.Popen, Path, Path]:
        stamp = f"{time.monotonic_ns()}"
        out, err = self.dir / f".out-{stamp}", self.dir / f".err-{stamp}"

        def limits() -> None:
            if rlimit_as:
                import resource
                resource.setrlimit(resource.RLIMIT_AS, (rlimit_as, rlimit_as))

        with open(out, "wb") as o, open(err, "wb") as e:
            proc = subprocess.Popen([*prefix, *self.command(args, console)], cwd=cwd or self.dir,
                                    env=env or self.env(), stdout=o, stderr=e, stdin=subprocess.DEVNULL,
                                    start_new_session=True, umask=0o022, preexec_fn=limits)
        return proc, out, err

    def run(self, *args: str, timeout: float | None = None, time_v: bool = False, **kw) -> Run:
        rss = self.dir / f".rss-{time.monotonic_ns()}"
        prefix = ["/usr/bin/time", "-v", "-o", str(rss)] if time_v else []
        t0 = time.monotonic()
        proc, out, err = self.start(list(args), prefix=prefix, **kw)
        hung = False
        try:
            proc.wait(timeout=timeout or self.timeout)
        except subprocess.TimeoutExpired:
            hung = self.hung = True
            kill_group(proc)
        except BaseException:  # Ctrl-C of this script: the run is in a session of its own, stop it too
            kill_group(proc)
            raise
        seconds = time.monotonic() - t0
        maxrss = None
        if time_v and rss.exists():
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", rss.read_text())
            maxrss = int(m.group(1)) if m else None
        read = lambda p: p.read_bytes().decode("utf-8", "replace")[-200_000:]  # noqa: E731
        return Run(None if hung else proc.returncode, read(out), read(err), seconds, hung, maxrss)

    def audit(self, *args: str, out: str = "out", **kw) -> Run:
        return self.run("audit", *SMALL, "--out", out, *args, **kw)

    def plugin(self, body: str) -> None:
        """Write a fault plugin (the shared header + ``body``) and load it through CLCHECK_PLUGINS."""
        folder = self.dir / "plugins"
        folder.mkdir(exist_ok=True)
        (folder / "fp_plugin.py").write_text(PLUGIN_HEADER + body)
        self.path.append(str(folder))
        self.plugins = "fp_plugin"

    def report(self, out: str = "out") -> dict | None:
        try:
            return json.loads((self.dir / out / "report.json").read_text())
        except (OSError, ValueError):
            return None


def kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def claims_of(report: dict | None) -> dict[str, dict]:
    return {c["id"]: c for c in (report or {}).get("claims", [])}


def verdicts(report: dict | None) -> str:
    if report is None:
        return "no report.json"
    return ", ".join(f"{i} {c['verdict']}" for i, c in claims_of(report).items()) + (
        " (partial)" if report.get("partial") else "")


def reason(report: dict | None, claim: str) -> str:
    return str(claims_of(report).get(claim, {}).get("reason", ""))


PLUGIN_HEADER = '''
import math, os, signal, sys, time
from sympy import log
from theorems import Claim, ExperimentClaim, ExperimentOutcome, Kind, Le, Paper, Source, parts, quantity
from theorems.subjects import Family, Vector

try:  # a plugin hands its claims to register(registry) (issue 28)
    from theorems import Plugin
    PLUGIN = Plugin(Paper("fp", "fault probe plugin"))
    add, register = PLUGIN.claim, PLUGIN.register
except ImportError:  # a checkout before it: claims registered as the module is imported
    from theorems import register as add, register_paper
    register_paper(Paper("fp", "fault probe plugin"))
SRC = Source("probe", "probe")

@quantity(range=(0, None))
def square(s, xp):
    return xp.sum(s.v * s.v)

@quantity(range=(0, None))
def square_plus(s, xp):
    return xp.sum(s.v * s.v) + 1

def family(*extra):
    return Family("vectors", dims={"n": (1, 3)}, parts={"v": Vector("n")}, quantities=(square, square_plus, *extra))

add(Claim("fp.good", Kind.INEQUALITY, SRC, parts(Le(square, square_plus)), subjects=(family(),)))

def experiment(cid, fn, **kw):
    add(ExperimentClaim(cid, Kind.DYNAMICS, SRC, experiment=fn, **kw))

'''


def quantity_plugin(name: str, expr: str, claim: str) -> str:
    """A plugin with quantity ``name`` (returning ``expr``) and the claim fp.q: ``claim``."""
    return (f"@quantity\ndef {name}(s, xp):\n    return {expr}\n\n"
            f"add(Claim('fp.q', Kind.INEQUALITY, SRC, parts({claim}), subjects=(family({name}),)))\n")


# -- witnesses ----------------------------------------------------------------------------------------

def witness(ctx: Ctx, name: str) -> dict:
    for root in (ctx.checkout, Path("/work/main")):
        path = root / "theorems/papers/merad/witnesses" / f"{name}.json"
        if path.exists():
            return json.loads(path.read_text())
    raise FileNotFoundError(name)


def checksum(subject: object) -> str:
    return hashlib.sha256(json.dumps(subject, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def resealed(data: dict) -> dict:
    return {**data, "subject_sha256": checksum(data["subject"])}


def replay(ctx: Ctx, data: dict | str, *, console: bool = False, **kw) -> Run:
    path = ctx.dir / "w.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
    kw.setdefault("rlimit_as", 4 << 30)  # replay loads no torch; a file read without bound stops at 4 GB
    return ctx.run("replay", str(path), console=console, **kw)


def replay_error(ctx: Ctx, data: dict | str, *named: str, **kw) -> tuple[bool, str]:
    """Exit 2 with a one- or two-line error that names each of ``named``."""
    r = replay(ctx, data, **kw)
    return r.user_error(*named), r.brief()


# -- false `consistent` -------------------------------------------------------------------------------

@probe("nan-quantity", "Le(q, 1), q NaN on every subject: verdict error naming q; exit 1; never consistent")
def nan_quantity(ctx: Ctx):
    ctx.plugin(quantity_plugin("qnan", "xp.sum(s.v * s.v) * float('nan')", "Le(qnan, 1)"))
    r = ctx.audit("--claim", "fp.q", "--claim", "fp.good", "--jobs", "1")
    rep = ctx.report()
    v = claims_of(rep).get("fp.q", {}).get("verdict")
    return r.rc == 1 and v == "error" and "qnan" in reason(rep, "fp.q"), \
        f"exit {r.rc}; fp.q {v}: {reason(rep, 'fp.q')[:120]}"


@probe("inf-quantity", "q = +inf, Le(q, 1): refuted (exit 1), witness under <out>/witnesses/")
def inf_quantity(ctx: Ctx):
    ctx.plugin(quantity_plugin("qinf", "xp.sum(s.v * s.v) * 0 + float('inf')", "Le(qinf, 1)"))
    r = ctx.audit("--claim", "fp.q", "--jobs", "1")
    rep = ctx.report()
    v = claims_of(rep).get("fp.q", {}).get("verdict")
    wit = sorted(p.name for p in (ctx.dir / "out/witnesses").glob("*.json"))
    return r.rc == 1 and v == "refuted" and "fp.q.json" in wit, \
        f"exit {r.rc}; fp.q {v}: {reason(rep, 'fp.q')[:100]}; witnesses {wit}"


@probe("log-of-zero", "q = 0 everywhere, Le(-10, log(q)) (-10 <= -inf): refuted")
def log_of_zero(ctx: Ctx):
    ctx.plugin(quantity_plugin("qzero", "xp.sum(s.v * s.v) * 0", "Le(-10, log(qzero))"))
    r = ctx.audit("--claim", "fp.q", "--jobs", "1")
    rep = ctx.report()
    v = claims_of(rep).get("fp.q", {}).get("verdict")
    return r.rc == 1 and v == "refuted", f"exit {r.rc}; fp.q {v}: {reason(rep, 'fp.q')[:120]}"


@probe("nan-target", "NaN not swallowed as a hypothesis note: verdict error, reason without InvalidArgument/note")
def nan_target(ctx: Ctx):
    ctx.plugin(quantity_plugin("qnan", "xp.sum(s.v * s.v) * float('nan')", "Le(qnan, 1)"))
    r = ctx.audit("--claim", "fp.q", "--jobs", "1")
    rep = ctx.report()
    v, why = claims_of(rep).get("fp.q", {}).get("verdict"), reason(rep, "fp.q")
    bad = [w for w in ("InvalidArgument", "note") if w in why]
    return v == "error" and not bad, f"exit {r.rc}; fp.q {v}: {why[:120]}" + (f"; mentions {bad}" if bad else "")


# -- code run from a data file ------------------------------------------------------------------------

def plugin_field(ctx: Ctx, module: str, absent: str) -> tuple[bool, str]:
    data = {**witness(ctx, "merad.prop1.part1"), "plugin": module}
    runs = [replay(ctx, data, console=c) for c in (False, True)]
    ok = all(r.user_error() and absent not in r.text for r in runs)
    seen = [f"{absent!r} printed" for r in runs if absent in r.text]
    return ok, f"-m: {runs[0].brief()} | console: {runs[1].brief()}" + (f" [{'; '.join(seen)}]" if seen else "")


@probe("witness-plugin-this", '"plugin": "this": exit 2, one/two-line error, the Zen of Python not printed')
def witness_plugin_this(ctx: Ctx):
    return plugin_field(ctx, "this", "Beautiful is better than ugly")


@probe("witness-plugin-venv", '"plugin": "venv.__main__": exit 2, one/two lines, no new directory in cwd')
def witness_plugin_venv(ctx: Ctx):
    before = set(os.listdir(ctx.dir))
    ok, seen = plugin_field(ctx, "venv.__main__", "usage: venv")
    new = sorted(p for p in set(os.listdir(ctx.dir)) - before if (ctx.dir / p).is_dir())
    return ok and not new, seen + (f"; new dirs {new}" if new else "")


@probe("witness-plugin-unittest", '"plugin": "unittest.__main__": exit 2, one/two lines, no unittest output')
def witness_plugin_unittest(ctx: Ctx):
    return plugin_field(ctx, "unittest.__main__", "Ran ")


def evil(ctx: Ctx) -> tuple[dict, Path]:
    marker = ctx.dir / "MARKER"
    (ctx.dir / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('imported')\n")
    return {**witness(ctx, "merad.prop1.part1"), "plugin": "evil"}, marker


@probe("witness-plugin-beside", '"plugin": "evil", evil.py in cwd (-m form): exit 2, evil.py not imported')
def witness_plugin_beside(ctx: Ctx):
    data, marker = evil(ctx)
    r = replay(ctx, data)
    return r.user_error() and not marker.exists(), r.brief() + ("; MARKER written" if marker.exists() else "")


@probe("witness-plugin-beside-path", "same with PYTHONPATH=<checkout>:. (-m and console forms): exit 2, no marker")
def witness_plugin_beside_path(ctx: Ctx):
    data, marker = evil(ctx)
    seen, ok = [], True
    for console in (False, True):
        marker.unlink(missing_ok=True)
        r = replay(ctx, data, console=console, env=ctx.env(path=["."]))
        ok &= r.user_error() and not marker.exists()
        seen.append(("console: " if console else "-m: ") + r.brief() + ("; MARKER written" if marker.exists() else ""))
    return ok, " | ".join(seen)


@probe("witness-no-checksum", "subject_sha256 deleted: exit 2 (checksum required)")
def witness_no_checksum(ctx: Ctx):
    data = witness(ctx, "merad.prop1.part1")
    del data["subject_sha256"]
    return replay_error(ctx, data)


# -- hangs and lost reports ---------------------------------------------------------------------------

def two_claims(ctx: Ctx, body: str, jobs: str, bad: str = "fp.bad", *extra: str) -> tuple[bool, str]:
    """Audit a faulty experiment claim with the good claim: bad is error, report complete, exit 1."""
    ctx.plugin(body)
    r = ctx.audit("--claim", bad, "--claim", "fp.good", "--jobs", jobs, *extra, timeout=HANG)
    rep = ctx.report()
    ok = (not r.hung and r.rc == 1 and rep is not None and set(claims_of(rep)) == {bad, "fp.good"}
          and claims_of(rep)[bad]["verdict"] == "error")
    return ok, f"{r.brief(1)}; report: {verdicts(rep)}; {reason(rep, bad)[:80]}"


@probe("sys-exit-jobs1", "experiment calls sys.exit(0), --jobs 1, with a good claim: it is error, report has both, exit 1")
def sys_exit_jobs1(ctx: Ctx):
    return two_claims(ctx, "experiment('fp.bad', lambda ctx: sys.exit(0))\n", "1")


@probe("sys-exit-jobs2", "same with --jobs 2: same promise, no hang")
def sys_exit_jobs2(ctx: Ctx):
    return two_claims(ctx, "experiment('fp.bad', lambda ctx: sys.exit(0))\n", "2")


KILL = "experiment('fp.bad', lambda ctx: os.kill(os.getpid(), signal.SIGKILL))\n"


@probe("kill-worker-jobs2", "experiment SIGKILLs its process, --jobs 2: error, report written, exit 1, no hang")
def kill_worker_jobs2(ctx: Ctx):
    return two_claims(ctx, KILL, "2")


@probe("kill-worker-jobs1", "same with --jobs 1: report written with that claim error, exit 1 (the audit survives)")
def kill_worker_jobs1(ctx: Ctx):
    return two_claims(ctx, KILL, "1")


@probe("hang-past-timeout-jobs2", "busy loop + C-level sleep(600) with SIGALRM/SIGINT blocked; --jobs 2 "
       "--claim-timeout 5: both error, audit done within ~30 s")
def hang_past_timeout(ctx: Ctx):
    ctx.plugin("def busy(ctx):\n    while True:\n        pass\n\n"
               "def csleep(ctx):\n    import ctypes\n"
               "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGINT})\n"
               "    ctypes.CDLL(None).sleep(600)\n\n"
               "experiment('fp.busy', busy)\nexperiment('fp.csleep', csleep)\n")
    alone = ctx.audit("--claim", "fp.busy", "--claim", "fp.good", "--jobs", "2", "--claim-timeout", "5",
                      out="busy", timeout=HANG)  # the pure-Python loop alone, for the record
    r = ctx.audit("--claim", "fp.busy", "--claim", "fp.csleep", "--jobs", "2", "--claim-timeout", "5", timeout=HANG)
    rep = ctx.report()
    got = claims_of(rep)
    ok = (not r.hung and r.seconds <= 40 and all(got.get(c, {}).get("verdict") == "error"
                                                 for c in ("fp.busy", "fp.csleep")))
    return ok, f"busy loop + good claim alone: {alone.brief(1)}, report: {verdicts(ctx.report('busy'))} | " \
               f"busy + C sleep: {r.brief(1)}; report: {verdicts(rep)}"


@probe("keyboard-interrupt-in-claim", "experiment raises KeyboardInterrupt, --jobs 1 and --jobs 2: claim error, "
       "complete report, exit 1 (at least a partial report)")
def keyboard_interrupt(ctx: Ctx):
    ctx.plugin("def interrupt(ctx):\n    raise KeyboardInterrupt\n\nexperiment('fp.bad', interrupt)\n")
    seen, ok = [], True
    for jobs in ("1", "2"):
        r = ctx.audit("--claim", "fp.bad", "--claim", "fp.good", "--jobs", jobs, out=f"out{jobs}", timeout=HANG)
        rep = ctx.report(f"out{jobs}")
        ok &= (r.rc == 1 and rep is not None and not rep.get("partial") and len(claims_of(rep)) == 2
               and claims_of(rep)["fp.bad"]["verdict"] == "error")
        seen.append(f"jobs {jobs}: {r.brief(1)}; report: {verdicts(rep)}")
    return ok, " | ".join(seen)


@probe("plugin-import-hang", "plugin import sleeps 600 s: `audit --claim-timeout 5 --paper fp` gives a named "
       "error within ~30 s, `list` (no time limit given: the default import limit, 60 s) within ~75 s")
def plugin_import_hang(ctx: Ctx):
    ctx.plugin("time.sleep(600)\n")
    runs = [(ctx.audit("--claim-timeout", "5", "--paper", "fp", timeout=HANG), 40),
            (ctx.run("list", timeout=HANG + 30), 75)]
    ok = all(not r.hung and r.rc not in (0, None) and r.seconds <= limit and "fp_plugin" in r.text
             and "Traceback" not in r.text for r, limit in runs)
    return ok, f"audit: {runs[0][0].brief(1)} | list: {runs[1][0].brief(1)}"


@probe("prerequisite-hang", "a claim's prerequisite sleeps 600 s; --jobs 2 --claim-timeout 5: no hang, report written")
def prerequisite_hang(ctx: Ctx):
    ctx.plugin("from theorems.engine.prerequisite import Prerequisite\n\n"
               "def forever():\n    time.sleep(600)\n\n"
               "def needs(quick, seed):\n    return [Prerequisite('fp.forever', forever, cost=5.0)]\n\n"
               "def measured(ctx):\n    try:  # measurements only (issue 27)\n"
               "        return ExperimentOutcome('x', 0.0, 0.0, (0.0, 0.0), [0], {})\n"
               "    except TypeError:  # a checkout before it: the outcome carried its verdict\n"
               "        from theorems import Verdict\n"
               "        return ExperimentOutcome(Verdict.CONSISTENT, 'x', 0.0, 0.0, (0.0, 0.0), [0], {})\n\n"
               "experiment('fp.bad', measured, prerequisites=needs)\n")
    r = ctx.audit("--claim", "fp.bad", "--claim", "fp.good", "--jobs", "2", "--claim-timeout", "5", timeout=HANG)
    rep = ctx.report()
    return not r.hung and r.seconds <= 40 and rep is not None, f"{r.brief(1)}; report: {verdicts(rep)}"


# -- witnesses and caches -----------------------------------------------------------------------------

def edited(name: str, edit: Callable[[dict], None], *named: str) -> Callable[[Ctx], tuple[bool, str]]:
    def run(ctx: Ctx) -> tuple[bool, str]:
        data = witness(ctx, name)
        subject = data["subject"]
        edit(subject.get("values", subject))  # a composed family's subject keeps its parts under "values"
        return replay_error(ctx, resealed(data), *named)
    return run


def set_key(key: str, value: object) -> Callable[[dict], None]:
    return lambda s: s.__setitem__(key, value)


def big_class(s: dict) -> None:
    s["mixture"]["points"][0] = [[0.0]] * 200_000
    s["mixture"]["weights"][0] = [1 / 200_000] * 200_000


for _name, _promise, _witness, _edit, _named in [
    ("witness-N-huge", "prop1.part1 subject N = 10**6 (checksum valid): exit 2, named", "merad.prop1.part1",
     set_key("N", 10 ** 6), ("N", "1000000")),
    ("witness-N-float", "N = 1.9: exit 2, named", "merad.prop1.part1", set_key("N", 1.9), ("N", "1.9")),
    ("witness-N-string", 'N = "1": exit 2, named', "merad.prop1.part1", set_key("N", "1"), ("N", "string")),
    ("witness-extra-key", "an unknown extra key in the subject: exit 2, named", "merad.prop1.part1",
     set_key("extra", 1), ("extra",)),
    ("witness-200k-points", "a class of 200000 points: exit 2, named (no long computation)", "merad.prop1.part1",
     big_class, ("200000",)),
    ("witness-lemma7-norm", "lemma7 witness with C = 1 while an output row has norm 3: exit 2, named",
     "merad.lemma7", set_key("C", 1.0), ("lemma7",)),
]:
    probe(_name, _promise)(edited(_witness, _edit, *_named))


@probe("witness-N-1e999", "N = 1e999 written literally in the JSON text: exit 2, named")
def witness_n_1e999(ctx: Ctx):
    data = witness(ctx, "merad.prop1.part1")
    values = data["subject"].get("values", data["subject"])  # a composed family's subject: its parts under "values"
    values["N"] = 123456789
    data["subject_sha256"] = checksum(json.loads(json.dumps(data["subject"]).replace("123456789", "1e999")))
    # (what a reader computes: json reads 1e999 as inf)
    return replay_error(ctx, json.dumps(data).replace("123456789", "1e999"))


@probe("witness-deep-nesting", 'JSON nested 100000 deep: exit 2, one/two lines')
def witness_deep(ctx: Ctx):
    return replay_error(ctx, "[" * 100_000 + "]" * 100_000)


@probe("witness-dev-zero", "/dev/zero as the witness path: exit 2, no unbounded read (run under a 4 GB limit)")
def witness_dev_zero(ctx: Ctx):
    r = ctx.run("replay", "/dev/zero", rlimit_as=4 << 30, timeout=60)
    return r.user_error(), r.brief()


@probe("witness-fifo", "a FIFO as the witness path: exit 2, no hang")
def witness_fifo(ctx: Ctx):
    fifo = ctx.dir / "w.json"
    os.mkfifo(fifo)
    r = ctx.run("replay", str(fifo), timeout=30)
    return r.user_error(), r.brief()


@probe("witness-300mb", "a 300 MB witness (padding string): exit 2; peak memory stays small (/usr/bin/time)")
def witness_300mb(ctx: Ctx):
    data = witness(ctx, "merad.prop1.part1")
    base = replay(ctx, data, time_v=True)
    path = ctx.dir / "big.json"
    with open(path, "w") as f:
        f.write(json.dumps(data)[:-1] + ', "padding": "')
        for _ in range(300):
            f.write("x" * 1_000_000)
        f.write('"}')
    r = ctx.run("replay", str(path), time_v=True, rlimit_as=4 << 30)
    path.unlink()
    grew = (r.maxrss_kb - base.maxrss_kb) // 1024 if r.maxrss_kb and base.maxrss_kb else None
    memory = f"peak RSS {r.maxrss_kb // 1024 if r.maxrss_kb else '?'} MB (plain witness: " \
             f"{base.maxrss_kb // 1024 if base.maxrss_kb else '?'} MB)"
    return r.user_error() and (grew is None or grew < 100), f"{r.brief(1)}; {memory}"


@probe("witness-coupon-out-of-range", "coupon.variance witness with n just above the family's range: exit 2, named")
def witness_coupon(ctx: Ctx):
    query = ("from theorems.engine.registry import get\nf = get('merad.coupon.variance').subjects[0]\n"
             "part = getattr(f, 'parts', {}).get('N_C')\n"
             "print(part.hi if part is not None else max(getattr(f, 'max_n', 0), getattr(f, 'exhaustive_n', 0)) or 1000)")
    got = subprocess.run([ctx.python, "-c", query], cwd=ctx.dir, env=ctx.env(), capture_output=True, text=True,
                         timeout=120)
    hi = int(got.stdout.strip().splitlines()[-1]) if got.returncode == 0 else 1000
    data = witness(ctx, "merad.coupon.variance")
    subject = data["subject"]
    if "values" in subject:  # a composed family's subject (issue 28): {"dims": ..., "values": {"N_C": ...}}
        subject["values"]["N_C"] = hi + 1
    else:  # the hand-written family's subject before it
        subject["n"] = hi + 1
    ok, seen = replay_error(ctx, resealed(data))
    return ok, f"n = {hi + 1}: {seen}"


COQ_CLAIMS = ("--claim", "merad.lse.nonneg", "--claim", "merad.coupon.mean", "--jobs", "1")


def coq_records(ctx: Ctx) -> list[Path]:
    return sorted((ctx.cache / "coq").glob("*.json"))


@probe("coq-cache-edit", 'a Coq cache record set "ok": true with garbage "output": re-checked by coqc on the next audit')
def coq_cache_edit(ctx: Ctx):
    first = ctx.audit(*COQ_CLAIMS)
    records = coq_records(ctx)
    if not records:
        return None, f"skipped: no Coq cache record written ({first.brief(1)})"
    target = next((p for p in records if not json.loads(p.read_text()).get("ok")), records[0])
    record = json.loads(target.read_text())
    record.update(ok=True, output=str(record.get("output", "")) + "\nGARBAGE: not what coqc printed")
    target.write_text(json.dumps(record, indent=1))
    planted = target.read_text()
    r = ctx.audit(*COQ_CLAIMS, out="out2")
    rechecked = not target.exists() or target.read_text() != planted
    state = sorted(set(re.findall(r'"cache": "(\w+)"', (ctx.dir / "out2/report.json").read_text()))) \
        if (ctx.dir / "out2/report.json").exists() else []
    return rechecked, f"{r.brief(1)}; record {'rewritten' if rechecked else 'left as edited (trusted)'}; " \
                      f"report cache states {state}"


@probe("coq-cache-swap", "one Coq cache record copied over another's file name: detected, re-checked")
def coq_cache_swap(ctx: Ctx):
    first = ctx.audit(*COQ_CLAIMS)
    records = coq_records(ctx)
    if len(records) < 2:
        return None, f"skipped: {len(records)} Coq record(s) written, need 2 ({first.brief(1)})"
    source, target = records[0], records[1]
    shutil.copyfile(source, target)
    r = ctx.audit(*COQ_CLAIMS, out="out2")
    rechecked = target.read_bytes() != source.read_bytes()
    return rechecked, f"{r.brief(1)}; copied record {'rewritten' if rechecked else 'left in place'}"


@probe("training-cache-swap", "a run .npz copied over another's name: detected, recomputed")
def training_cache_swap(ctx: Ctx):
    # merad.fig1 at --profile quick trains one small run per audit seed: seeds 0 and 1 give two entries
    entries = lambda: set((ctx.cache / "runs").glob("*.npz"))  # noqa: E731
    first = ctx.audit("--claim", "merad.fig1", "--jobs", "1", "--seed", "0", out="s0", timeout=180)
    seed0 = entries()
    second = ctx.audit("--claim", "merad.fig1", "--jobs", "1", "--seed", "1", out="s1", timeout=180)
    seed1 = entries() - seed0
    if first.hung or second.hung or len(seed0) != 1 or len(seed1) != 1:
        return None, f"skipped: could not get one entry per seed ({first.brief(1)} | {second.brief(1)})"
    (source,), (target,) = seed0, seed1
    shutil.copyfile(source, target)
    r = ctx.audit("--claim", "merad.fig1", "--jobs", "1", "--seed", "1", out="s1b", timeout=180)
    recomputed = not target.exists() or target.read_bytes() != source.read_bytes()
    return recomputed, f"training {first.seconds:.0f} s + {second.seconds:.0f} s; rerun of seed 1 {r.brief(1)}; " \
                       f"seed 0's entry under seed 1's name {'recomputed' if recomputed else 'loaded as its own run'}"


# -- the rest -----------------------------------------------------------------------------------------

@probe("train-resume-random", "train --resume <random bytes>: exit 2 naming the file")
def train_resume_random(ctx: Ctx):
    (ctx.dir / "random.pt").write_bytes(os.urandom(4096))
    r = ctx.run("train", "--data", "synthetic", "--steps", "2", "--no-progress", "--resume", "random.pt",
                "--out", "d")
    return r.user_error("random.pt"), r.brief()


@probe("train-resume-truncated", "train --resume of a checkpoint truncated to half: exit 2 naming the file")
def train_resume_truncated(ctx: Ctx):
    made = ctx.run("train", "--data", "synthetic", "--steps", "2", "--no-progress", "--out", "d")
    ckpt = ctx.dir / "d/last.pt"
    if not ckpt.exists():
        return None, f"skipped: no checkpoint written ({made.brief(1)})"
    with open(ckpt, "r+b") as f:
        f.truncate(ckpt.stat().st_size // 2)
    r = ctx.run("train", "--resume", "d/last.pt", "--steps", "4", "--no-progress", "--out", "d2")
    return r.user_error("last.pt"), r.brief()


@probe("executor-ray-missing", "--executor ray with `import ray` failing: exit 2")
def executor_ray(ctx: Ctx):
    (ctx.dir / "noray/ray").mkdir(parents=True)
    (ctx.dir / "noray/ray/__init__.py").write_text("raise ImportError('ray is not installed (probe)')\n")
    ctx.plugin("")
    ctx.path.insert(0, str(ctx.dir / "noray"))
    r = ctx.audit("--claim", "fp.good", "--executor", "ray", timeout=HANG)
    return r.user_error(), r.brief()


def cli_error(*args: str, plugin: bool = False) -> Callable[[Ctx], tuple[bool, str]]:
    def run(ctx: Ctx) -> tuple[bool, str]:
        if plugin:
            ctx.plugin("")
        r = ctx.run(*args, timeout=HANG)
        return r.user_error(), r.brief(3)
    return run


@probe("seed-too-big", "--seed 9223372036854775808: exit 2, refused up front (no report)")
def seed_too_big(ctx: Ctx):
    ctx.plugin("")
    r = ctx.audit("--claim", "fp.good", "--seed", "9223372036854775808", "--jobs", "1")
    written = (ctx.dir / "out/report.json").exists()
    return r.user_error() and not written, r.brief() + ("; report.json written" if written else "")


probe("claim-timeout-inf", "--claim-timeout inf: exit 2")(cli_error(
    "audit", *SMALL, "--out", "out", "--claim", "fp.good", "--claim-timeout", "inf", "--jobs", "1", plugin=True))


@probe("list-unknown-paper", "list --paper nosuch: exit 2 like audit --paper nosuch")
def list_unknown(ctx: Ctx):
    ref, r = ctx.audit("--paper", "nosuch"), ctx.run("list", "--paper", "nosuch")
    return r.user_error(), f"list: {r.brief(1)} | audit: {ref.brief(1)}"


probe("proofs-unknown-paper", "proofs --paper nosuch: exit 2 like audit --paper nosuch")(cli_error(
    "proofs", "--paper", "nosuch", "--out", "p"))


@probe("paper-and-claim-union", "audit --paper fp --claim merad.lse.nonneg: the union of both selections is audited")
def paper_claim_union(ctx: Ctx):
    ctx.plugin("")
    r = ctx.audit("--paper", "fp", "--claim", "merad.lse.nonneg", "--jobs", "1", timeout=HANG)
    ids = sorted(claims_of(ctx.report()))
    return ids == ["fp.good", "merad.lse.nonneg"], f"{r.brief(1)}; report ids {ids}"


@probe("budget-zero-reason", "--budget 0 --adversarial-starts 0 on a statement claim: reason does not say "
       "'no drawn subject satisfied the hypotheses'")
def budget_zero(ctx: Ctx):
    ctx.plugin("")
    r = ctx.run("audit", "--profile", "quick", "--budget", "0", "--adversarial-starts", "0", "--claim", "fp.good",
                "--out", "out", "--jobs", "1")
    rep = ctx.report()
    why = reason(rep, "fp.good")
    return rep is not None and "no drawn subject satisfied the hypotheses" not in why, \
        f"exit {r.rc}; {verdicts(rep)}: {why[:120]}"


@probe("timeout-location", "quantity sleeps 100 s, --claim-timeout 3: the reason names the plugin file, not check.py")
def timeout_location(ctx: Ctx):
    ctx.plugin(quantity_plugin("qslow", "time.sleep(100) or xp.sum(s.v * s.v)", "Le(qslow, square_plus)"))
    r = ctx.audit("--claim", "fp.q", "--claim-timeout", "3", "--jobs", "1", timeout=HANG)
    why = reason(ctx.report(), "fp.q")
    return "fp_plugin.py" in why and "check.py" not in why, f"exit {r.rc}; fp.q: {why[:140]}"


@probe("newline-in-exception", 'a quantity raises "line one\\nline two": report.md keeps one table row per claim')
def newline_in_exception(ctx: Ctx):
    ctx.plugin(quantity_plugin("qraise", "(_ for _ in ()).throw(RuntimeError('line one\\nline two'))",
                               "Le(qraise, 1)"))
    r = ctx.audit("--claim", "fp.q", "--claim", "fp.good", "--jobs", "1")
    md = (ctx.dir / "out/report.md")
    if not md.exists():
        return False, f"{r.brief(1)}; no report.md"
    lines = md.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| id "))
    table = []
    for line in lines[start + 2:]:
        if not line.strip():
            break
        table.append(line)
    broken = [line for line in table if not (line.startswith("|") and line.rstrip().endswith("|"))]
    ok = len(table) == 2 and not broken
    return ok, f"exit {r.rc}; claims table has {len(table)} lines for 2 claims" + (
        f"; broken lines {broken[:2]}" if broken else "")


def tmp_files(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*.tmp")) if out.exists() else []


@probe("killed-audit-tmp", "SIGKILL an audit mid-run, then a second audit into the same --out: no *.tmp remain "
       "(planted: a killed writer's temporary -- this host, a pid that has exited -- and one of the older "
       "naming, an hour old)")
def killed_audit(ctx: Ctx):
    ctx.plugin("def sleepy(ctx):\n    time.sleep(60)\n\nexperiment('fp.sleepy', sleepy)\n")
    out = ctx.dir / "out"
    (out / "witnesses").mkdir(parents=True)
    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid no longer runs
    host = re.sub(r"[^A-Za-z0-9-]", "_", socket.gethostname())[:32] or "host"
    (out / f".report.json.{host}.{gone.pid}.abcd1234.tmp").write_text("{")
    old_naming = out / ".report.md.abcd1234.tmp"
    old_naming.write_text("#")
    os.utime(old_naming, (time.time() - 3600, time.time() - 3600))
    proc, _, _ = ctx.start(["audit", *SMALL, "--out", "out", "--paper", "fp", "--jobs", "1"])
    time.sleep(8)  # imports take ~3 s; then the good claim is written and the sleepy one runs
    kill_group(proc)
    after_kill = tmp_files(out)
    r = ctx.audit("--claim", "fp.good", "--jobs", "1")
    left = tmp_files(out)
    return not left and not r.hung, f"after the kill: {after_kill}; second audit {r.brief(1)}; left: {left}"


@probe("stale-witness", "a stale witnesses/merad.prop1.part1.json in --out; audit of a consistent claim only: "
       "removed or marked")
def stale_witness(ctx: Ctx):
    ctx.plugin("")
    stale = ctx.dir / "out/witnesses/merad.prop1.part1.json"
    stale.parent.mkdir(parents=True)
    stale.write_text(json.dumps(witness(ctx, "merad.prop1.part1")))
    r = ctx.audit("--claim", "fp.good", "--jobs", "1")
    texts = "".join(p.read_text() for p in (ctx.dir / "out").glob("report.*"))
    marked = "merad.prop1.part1" in texts
    return not stale.exists() or marked, f"exit {r.rc}; stale witness " + (
        "removed" if not stale.exists() else "marked in the report" if marked else "left, unmentioned")


def strip_seconds(x: object) -> object:
    if isinstance(x, dict):
        return {k: strip_seconds(v) for k, v in x.items() if k != "seconds" and not k.endswith("_seconds")}
    if isinstance(x, list):
        return [strip_seconds(v) for v in x]
    return x


@probe("reproducible-report", "two audits, same claims and seed, two dirs (one cache): report.json identical "
       "but for seconds; no absolute paths, no cache hit/miss")
def reproducible(ctx: Ctx):
    ctx.plugin("")
    args = ("--claim", "fp.good", "--claim", "merad.lse.nonneg", "--jobs", "1")
    runs = [ctx.audit(*args, out=o, timeout=HANG) for o in ("a", "b")]
    texts = [(ctx.dir / o / "report.json").read_text() if (ctx.dir / o / "report.json").exists() else ""
             for o in ("a", "b")]
    if not all(texts):
        return False, f"no report: {runs[0].brief(1)} | {runs[1].brief(1)}"
    same = strip_seconds(json.loads(texts[0])) == strip_seconds(json.loads(texts[1]))
    paths = sorted({m.replace(str(ctx.dir), "<probe dir>")
                    for t in texts for m in re.findall(r'"(/(?:tmp|usr|home|work|root|opt)[^"]*)"', t)})
    state = sorted({m for t in texts for m in re.findall(r'"cache": "(\w+)"', t)})
    seen = f"identical but for seconds: {same}; absolute paths: {[p[:50] for p in paths[:3]]}" + \
        (f" (+{len(paths) - 3})" if len(paths) > 3 else "") + f"; cache states: {state}"
    return same and not paths and not set(state) & {"hit", "miss"}, seen


@probe("file-modes", "under umask 022 report.json and a cache file are mode 0644 (not 0600)")
def file_modes(ctx: Ctx):
    ctx.plugin("")
    r = ctx.audit("--claim", "fp.good", "--claim", "merad.lse.nonneg", "--jobs", "1")
    report = ctx.dir / "out/report.json"
    cached = sorted(p for p in ctx.cache.rglob("*") if p.is_file() and not p.name.endswith(".lock"))
    modes = {str(p.relative_to(ctx.dir)): oct(p.stat().st_mode & 0o777) for p in [report, *cached[:2]] if p.exists()}
    ok = report.exists() and bool(cached) and all(m == "0o644" for m in modes.values())
    return ok, f"exit {r.rc}; modes {modes}"


probe("bad-option", "audit --budget abc: exit 2, at most two lines")(cli_error("audit", "--budget", "abc"))


# -- main ---------------------------------------------------------------------------------------------

def verify(checkout: Path, python: str, root: Path) -> None:
    """Abort unless the checkout's own modules are what the subprocesses import."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    got = subprocess.run([python, "-c", "import theorems, training, numerics; "
                          "print(theorems.__file__); print(training.__file__); print(numerics.__file__)"],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    files = got.stdout.split()
    if got.returncode != 0 or len(files) != 3 or not all(Path(f).resolve().is_relative_to(checkout) for f in files):
        sys.exit(f"abort: with PYTHONPATH={checkout} the imported modules are {files or got.stderr.strip()}, "
                 f"not the checkout's")


def cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parents[1])
    ap.add_argument("--python", default=sys.executable, help="the interpreter to run clcheck with")
    ap.add_argument("--only", default="", help="comma-separated probe names")
    ap.add_argument("--json", type=Path, help="save the results here")
    ap.add_argument("--markdown", type=Path, help="save the table here too")
    ap.add_argument("--timeout", type=float, default=90.0, help="default seconds per clcheck run")
    ap.add_argument("--keep", action="store_true", help="keep the probes' temporary directories")
    ap.add_argument("--list", action="store_true", help="list the probes and exit")
    args = ap.parse_args()
    if args.list:
        for name, (promise, _) in PROBES.items():
            print(f"{name}: {promise}")
        return
    names = [n.strip() for n in args.only.split(",") if n.strip()] or list(PROBES)
    unknown = [n for n in names if n not in PROBES]
    if unknown:
        sys.exit(f"unknown probe(s): {', '.join(unknown)}; --list shows them")
    checkout = args.checkout.resolve()
    root = Path(tempfile.mkdtemp(prefix="clcheck-probes-"))
    try:
        run_probes(args, names, checkout, root)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


def run_probes(args: argparse.Namespace, names: list[str], checkout: Path, root: Path) -> None:
    verify(checkout, args.python, root)
    commit = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    results, t0 = [], time.monotonic()
    for name in names:
        promise, fn = PROBES[name]
        ctx = Ctx(checkout, args.python, root, name, args.timeout)
        start = time.monotonic()
        try:
            held, observed = fn(ctx)
        except Exception as exc:  # a probe that could not be built is reported, not fatal
            held, observed = None, f"skipped: the probe itself failed: {type(exc).__name__}: {exc}"
        observed = observed.replace(str(ctx.dir), "<probe dir>").replace(str(checkout), "<checkout>")
        status = "hang" if ctx.hung and held is not True else \
            {True: "held", False: "failed", None: "skipped"}[held]
        results.append({"probe": name, "promise": promise, "status": status, "held": held,
                        "observed": observed, "seconds": round(time.monotonic() - start, 1)})
        print(f"[{time.monotonic() - t0:6.0f} s] {name}: {status} -- {observed[:160]}", file=sys.stderr, flush=True)
        if not args.keep:
            shutil.rmtree(ctx.dir, ignore_errors=True)
    total = time.monotonic() - t0
    mark = {"held": "yes", "failed": "NO", "hang": "hang", "skipped": "skipped"}
    rows = ["| probe | promised behaviour | observed | held |", "| --- | --- | --- | --- |"]
    rows += [f"| {r['probe']} | {cell(r['promise'])} | {cell(r['observed'])} | {mark[r['status']]} |" for r in results]
    counts = {s: sum(r["status"] == s for r in results) for s in mark}
    summary = (f"\n{checkout} ({commit or 'no git'}): " + ", ".join(f"{v} {k}" for k, v in counts.items())
               + f"; {total:.0f} s in total")
    table = "\n".join(rows) + "\n" + summary + "\n"
    print(table)
    if args.markdown:
        args.markdown.write_text(table)
    if args.json:
        args.json.write_text(json.dumps({"checkout": str(checkout), "commit": commit, "seconds": round(total, 1),
                                         "counts": counts, "probes": results}, indent=2))


if __name__ == "__main__":
    main()
