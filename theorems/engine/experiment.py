"""Experiment claims: their outcome, and the statistics every experiment shares.

An experiment (training runs over seeds, a sweep of exact computations) reports a statistic,
an effect size, an interval for it with the interval's coverage, the seeds and every
parameter. The helpers here are the one place the interval over seeds, the verdict rules
and the markdown tables are written.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from theorems.engine.verdict import Verdict


@dataclass
class ExperimentOutcome:
    """The statistical verdict of an experiment claim."""

    verdict: Verdict
    statistic: str  # what was measured, in words
    value: float  # the statistic's value
    effect_size: float
    interval: tuple[float, float]  # interval for the effect size
    seeds: list[int]
    parameters: dict[str, Any]
    markdown: str = ""  # tables and plots for the report
    interval_note: str = ""  # what the interval is (method and coverage)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict.value
        return d

    def summary(self) -> str:
        """One line for the report's reason column."""
        return (f"{self.statistic} = {self.value:.4g}; effect size {self.effect_size:.4g}, interval "
                f"[{self.interval[0]:.4g}, {self.interval[1]:.4g}] ({self.interval_note}); seeds {self.seeds}")


def seed_interval(effects: Iterable[float]) -> tuple[float, float]:
    """[min, max] of the per-seed effects."""
    values = np.asarray(list(effects), dtype=float)
    return float(values.min()), float(values.max())


def median_interval_note(n: int) -> str:
    """What [min, max] over n seeds is: a distribution-free interval for the median effect.

    P(min <= median <= max) = 1 - 2 * 2^-n for n i.i.d. draws of a continuous effect."""
    return (f"[min, max] over {n} seeds: a distribution-free interval for the median of the per-seed "
            f"effect, coverage 1 - 2^(1-{n}) = {1 - 2.0 ** (1 - n):.3g}")


def rule(positive: bool, negative: bool) -> Verdict:
    """consistent when the predicted effect is established, refuted when its opposite is."""
    return Verdict.CONSISTENT if positive else Verdict.REFUTED if negative else Verdict.INCONCLUSIVE


def sign_rule(effects: Sequence[float]) -> Verdict:
    """consistent: every seed shows the predicted sign (> 0); refuted: every seed the opposite."""
    values = np.asarray(effects, dtype=float)
    return rule(bool(np.all(values > 0)), bool(np.all(values < 0)))


def markdown_table(rows: Iterable[Sequence[Any]], header: Sequence[str]) -> list[str]:
    """A markdown table; floats with 4 significant digits."""
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    for row in rows:
        out.append("| " + " | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row) + " |")
    return out
