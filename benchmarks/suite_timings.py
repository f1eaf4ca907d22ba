"""How long the user's loop and CI take (issue 41), measured on fresh clones, and the verdict store's speed-up.

    python benchmarks/suite_timings.py --readme      # the README's test command on a fresh clone (setup included)
    python benchmarks/suite_timings.py --ci          # .ci/run on a fresh clone, with each of its steps
    python benchmarks/suite_timings.py --store merad # clcheck audit --paper merad twice in a new cache: the ratio
    python benchmarks/suite_timings.py --slow-list   # rewrite tests/slow_tests.txt from a timed run of every test

A fresh clone is ``git clone`` of this repository's HEAD into a temporary folder, with ``../shared`` (the papers)
copied beside it, as CI sees it. Wall-clock seconds of whole commands; the store's figure is a ratio of two runs
in the same process tree (second audit / first), with the check that both give the same verdicts. ``--json`` writes
the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW_SECONDS = 1.5  # a test function (all its parametrizations) slower than this on a fresh clone is marked slow
README_TEST = "./scripts/setup && .venv/bin/python -m pytest -n auto -p no:cacheprovider -q"


def fresh_clone(where: Path) -> Path:
    """A clone of HEAD in ``where``/main, the papers beside it."""
    subprocess.run(["git", "clone", "-q", str(ROOT), str(where / "main")], check=True)
    shared = ROOT.parent / "shared"
    if shared.is_dir():
        shutil.copytree(shared, where / "shared")
    return where / "main"


def timed(command: str, cwd: Path, log: Path, env: dict[str, str] | None = None) -> tuple[float, int]:
    start = time.perf_counter()
    with log.open("w") as out:
        code = subprocess.run(command, shell=True, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                              env={**os.environ, **(env or {})}).returncode
    return time.perf_counter() - start, code


def readme(keep: Path | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="clcheck-readme-") as tmp:
        clone = fresh_clone(Path(tmp))
        seconds, code = timed(README_TEST, clone, (keep or Path(tmp)) / "readme.log")
    return {"readme_test_seconds": round(seconds, 1), "exit": code}


def ci(keep: Path | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="clcheck-ci-") as tmp:
        clone = fresh_clone(Path(tmp))
        log = (keep or Path(tmp)) / "ci.log"
        start = time.time()
        seconds, code = timed("./.ci/run", clone, log)
        steps = _steps(log.read_text(errors="replace"), start)
    return {"ci_seconds": round(seconds, 1), "exit": code, "steps": steps}


def _steps(text: str, start: float) -> dict[str, float]:
    """Seconds per step of .ci/run, from its "== step (HH:MM:SS) ==" lines (setup: from the start)."""
    marks = [(m.group(1), m.group(2)) for m in re.finditer(r"^== (.+) \((\d\d:\d\d:\d\d)\) ==$", text, re.M)]
    out, previous, name = {}, None, "setup"
    day = time.strftime("%Y-%m-%d", time.gmtime(start))
    for title, clock in marks:
        at = time.mktime(time.strptime(f"{day} {clock}", "%Y-%m-%d %H:%M:%S")) - time.timezone
        out[name] = round(at - (start if previous is None else previous), 1)
        previous, name = at, title
    return out


def store(paper: str) -> dict:
    """``clcheck audit --paper`` twice, the first ``--fresh`` (a full search; the trained runs already cached, so
    it times the search, not the training), the second reusing the verdict store: the ratio and the verdicts."""
    with tempfile.TemporaryDirectory(prefix="clcheck-store-") as tmp:
        env = {**os.environ, "CLCHECK_STORE": "1"}
        runs = []
        for name, extra in (("first", ["--fresh"]), ("second", [])):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "theorems.frontend.cli", "audit", "--paper", paper, "--out",
                            str(Path(tmp) / name), *extra], env=env, cwd=ROOT, capture_output=True)
            seconds = time.perf_counter() - start
            claims = json.loads((Path(tmp) / name / "report.json").read_text())["claims"]
            runs.append((seconds, {c["id"]: c["verdict"] for c in claims}, sum(c["reused"] for c in claims)))
    (first, v1, _), (second, v2, reused) = runs
    return {"paper": paper, "first_seconds": round(first, 1), "second_seconds": round(second, 1),
            "ratio": round(second / first, 3), "same_verdicts": v1 == v2, "reused": reused, "claims": len(v2)}


def slow_list() -> dict:
    """Every test, timed (``--slow``), on a fresh clone; tests/slow_tests.txt rewritten from the slow ones."""
    with tempfile.TemporaryDirectory(prefix="clcheck-slow-") as tmp:
        clone = fresh_clone(Path(tmp))
        log = Path(tmp) / "durations.log"
        timed("./scripts/setup >/dev/null && .venv/bin/python -m pytest -n auto -p no:cacheprovider -q --slow "
              "--durations=0", clone, log)
        per: dict[str, float] = defaultdict(float)
        for line in log.read_text(errors="replace").splitlines():
            m = re.match(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(\S+)", line)
            if m:
                per[m.group(2).split("[")[0]] += float(m.group(1))
    slow = sorted(name for name, seconds in per.items() if seconds > SLOW_SECONDS)
    path = ROOT / "tests" / "slow_tests.txt"
    header = [line for line in path.read_text().splitlines() if line.startswith("#")] if path.exists() else []
    path.write_text("\n".join(header + slow) + "\n")
    return {"slow_tests": len(slow), "slow_seconds": round(sum(per[n] for n in slow), 1),
            "other_seconds": round(sum(per.values()) - sum(per[n] for n in slow), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", action="store_true")
    parser.add_argument("--ci", action="store_true")
    parser.add_argument("--store", metavar="PAPER")
    parser.add_argument("--slow-list", action="store_true")
    parser.add_argument("--logs", type=Path, help="keep the commands' logs in this folder")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.logs:
        args.logs.mkdir(parents=True, exist_ok=True)
    figures = {}
    if args.readme:
        figures["readme"] = readme(args.logs)
    if args.ci:
        figures["ci"] = ci(args.logs)
    if args.store:
        figures["store"] = store(args.store)
    if args.slow_list:
        figures["slow_list"] = slow_list()
    if not figures:
        parser.print_help()
        return 2
    print(json.dumps(figures, indent=1))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
