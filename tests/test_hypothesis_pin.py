"""The Hypothesis behaviour clcheck pins (issue 42): tests that fail when the installed Hypothesis changes it.

Hypothesis (6.131 on) draws literals from the source of every local module a process has imported, so the
same seed gave other examples depending on what else the process had imported (``--jobs 1`` and ``--jobs N``
audits differed). ``theorems.engine.search.seed_only_draws`` empties that pool through Hypothesis's private
internals, because nothing public does (its docstring says why); pyproject.toml pins Hypothesis to the range
where that was tested. These tests say when the pin or the patch must be revisited: the installed version left
the pinned range, Hypothesis stopped drawing local literals (the patch can go), or the patch stopped stopping
it. (tests/test_engine.py checks the property on the random search itself.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

import hypothesis

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_hypothesis_is_in_the_pinned_range() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pin = next(Requirement(d) for d in deps if Requirement(d).name == "hypothesis")
    assert pin.specifier and hypothesis.__version__ in pin.specifier, (
        f"Hypothesis {hypothesis.__version__} is outside the tested range {pin.specifier}: run this file and "
        "tests/test_engine.py with it, then widen the pin")


def test_local_literals_move_the_draws_and_seed_only_draws_stops_them(tmp_path: Path) -> None:
    """In a fresh process (the pool only grows, and this one's depends on what ran before): importing a local
    module full of literals changes a seeded Hypothesis run's draws, and not inside ``seed_only_draws``."""
    values = ", ".join(f"{0.123457 + i / 1009:.6f}, {(i * 104729) % 999983 - 500000}" for i in range(300))
    (tmp_path / "pinned_literals.py").write_text(f"VALUES = [{values}]\n")
    code = textwrap.dedent(f"""
        import contextlib, importlib, json, sys
        from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st
        from theorems.engine.search import seed_only_draws

        def draws(context):
            out = []

            @seed(7)
            @settings(max_examples=150, database=None, deadline=None, phases=(Phase.generate,),
                      suppress_health_check=list(HealthCheck))
            @given(st.lists(st.floats(0, 1), min_size=4, max_size=4), st.integers(-10**6, 10**6))
            def collect(xs, k):
                out.append([xs, k])

            with context():
                collect()
            return out

        plain, pinned = draws(contextlib.nullcontext), draws(seed_only_draws)
        sys.path.insert(0, {str(tmp_path)!r})
        importlib.import_module("pinned_literals")  # a local module, as a user's plugin would be
        print(json.dumps({{"plain_moved": draws(contextlib.nullcontext) != plain,
                          "pinned_kept": draws(seed_only_draws) == pinned, "examples": len(plain)}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["examples"] == 150
    assert out["plain_moved"], (f"Hypothesis {hypothesis.__version__} no longer draws literals from local modules: "
                                "theorems.engine.search.seed_only_draws and the pin in pyproject.toml can go")
    assert out["pinned_kept"], (f"theorems.engine.search.seed_only_draws no longer keeps Hypothesis "
                                f"{hypothesis.__version__} from drawing local literals: its private internals changed")
