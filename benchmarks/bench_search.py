"""Search power at the sharp constant (issue 29): the search with its tightness pass against the search without it
(the previous search: ``tightness_starts=0``), both at the audit profile, in the same run.

* Thin mutants (``MUTANTS`` of ``tests/thin_mutants.py``): the fraction refuted over audit seeds and the CPU seconds
  from the start of a check to its first confirmed violation (median over the refuted runs); the twins must never be
  refuted.
* True bounds (``TRUE_BOUNDS``, shipped inequalities): each part's best ratio per seed, and its spread over the
  seeds (max/min - 1).
"""

from __future__ import annotations

import pathlib
import statistics
import sys
from typing import Any

# the thin mutants are test data about the shipped claims, kept with the tests (tests/thin_mutants.py)
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))

from thin_mutants import MUTANTS  # noqa: E402

from theorems import get  # noqa: E402
from theorems.engine.budget import PROFILES, Budget  # noqa: E402
from theorems.engine.check import check_claim  # noqa: E402

TRUE_BOUNDS = ("merad.lse.max_bounds", "merad.lemma7.steps", "merad.lemma1", "merad.lemma3", "huang.barlow.trace_bound",
               "huang.lemma2", "huang.theorem4")
SEARCHES = {"tightness": PROFILES["audit"], "previous": PROFILES["audit"].with_overrides(tightness_starts=0)}


def mutant_runs(seeds: list[int], budget: Budget) -> list[dict[str, Any]]:
    rows = []
    for m in MUTANTS:
        for seed in seeds:
            false = check_claim(m.false(), budget, seed=seed)
            true = check_claim(m.true(), budget, seed=seed)
            rows.append({"mutant": m.name, "seed": seed, "refuted": false.verdict.value == "refuted",
                         "cpu_to_first": false.first_violation_seconds,
                         "twin_refuted": true.verdict.value == "refuted"})
    return rows


def best_ratios(seeds: list[int], budget: Budget) -> dict[str, list[float | None]]:
    out: dict[str, list[float | None]] = {}
    for claim_id in TRUE_BOUNDS:
        for seed in seeds:
            for row in check_claim(get(claim_id), budget, seed=seed).tightness:
                out.setdefault(f"{claim_id}: {row['part']}", []).append(row["best_ratio"])
    return out


def spread(values: list[float | None]) -> float | None:
    found = [v for v in values if v is not None and v > 0]
    return max(found) / min(found) - 1 if len(found) == len(values) and found else None


def measure(seeds: list[int]) -> dict[str, Any]:
    """Both searches on the mutants and the true bounds."""
    from training.device import deterministic_kernels  # heavy: imports torch

    deterministic_kernels()
    out: dict[str, Any] = {}
    for name, budget in SEARCHES.items():
        runs = mutant_runs(seeds, budget)
        cpu = [r["cpu_to_first"] for r in runs if r["refuted"] and r["cpu_to_first"] is not None]
        ratios = best_ratios(seeds, budget)
        out[name] = {"fraction_refuted": sum(r["refuted"] for r in runs) / len(runs),
                     "twins_refuted": sum(r["twin_refuted"] for r in runs),
                     "median_cpu_to_first": statistics.median(cpu) if cpu else None,
                     "missed": [(r["mutant"], r["seed"]) for r in runs if not r["refuted"]],
                     "best_ratios": ratios, "spread": {k: spread(v) for k, v in ratios.items()}}
    return out
