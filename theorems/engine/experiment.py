"""Experiment claims: their outcome, and the statistics every experiment shares.

An experiment (training runs over seeds, a sweep of exact computations) reports a statistic,
an effect size, an interval for it with the interval's coverage, the seeds and every
parameter. The helpers here are the one place the interval over seeds, the verdict rules
and the markdown tables are written.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from theorems.engine.verdict import Verdict


@dataclass(frozen=True)
class RegimeCheck:
    """One condition of a theorem's regime, measured on the run: ``holds`` decides whether the
    run counts as evidence at all."""

    name: str
    text: str  # the condition as the paper states or needs it
    value: Any  # what was measured
    required: str  # the threshold, in words
    holds: bool

    def describe(self) -> str:
        value = f"{self.value:.4g}" if isinstance(self.value, float) else str(self.value)
        return f"{self.name}: {value} (required {self.required})"


@dataclass
class ExperimentOutcome:
    """The statistical verdict of an experiment claim.

    ``regime`` lists the conditions of the theorem measured on the runs (any failing one makes
    the verdict ``untested``); ``configurations`` the rows of a verdict map, one per setting of
    the free parameters the verdict depends on (each a dict with at least ``verdict`` and
    ``in_regime``); ``witness`` the model an existence claim found."""

    verdict: Verdict
    statistic: str  # what was measured, in words
    value: float  # the statistic's value
    effect_size: float
    interval: tuple[float, float]  # interval for the effect size
    seeds: list[int]
    parameters: dict[str, Any]
    markdown: str = ""  # tables and plots for the report
    interval_note: str = ""  # what the interval is (method and coverage)
    regime: list[RegimeCheck] = field(default_factory=list)
    configurations: list[dict[str, Any]] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    # a universal part of an existence claim (a bound said to hold along every path, beside the
    # "there exists"): when it fails inside the regime the claim is refuted, not "no witness"
    universal_failure: str = ""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["verdict"] = self.verdict.value
        d["configurations"] = [{k: (v.value if isinstance(v, Verdict) else v) for k, v in row.items()}
                               for row in self.configurations]
        return d

    @property
    def out_of_regime(self) -> list[RegimeCheck]:
        return [r for r in self.regime if not r.holds]

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


def read_map(configurations: Sequence[dict[str, Any]], quantifier: str = "settings") -> Verdict:
    """The verdict a verdict map reads over the configurations inside the regime (untested if none is).

    ``quantifier`` says what the map ranges over. "settings": free settings the checker chose where
    the source is silent; consistent if all are, refuted if all are, inconclusive if they disagree.
    "forall": models the statement quantifies over universally; one refuted configuration refutes,
    consistent only if all are. "exists": models the statement says some of satisfies; one consistent
    configuration is a witness, refuted only if all are."""
    if quantifier not in ("settings", "forall", "exists"):
        raise ValueError(f"read_map: quantifier={quantifier!r} must be 'settings', 'forall' or 'exists'")
    inside = [row["verdict"] for row in configurations if row.get("in_regime", True)]
    if not inside:
        return Verdict.UNTESTED
    if all(v == Verdict.CONSISTENT for v in inside) or (quantifier == "exists" and Verdict.CONSISTENT in inside):
        return Verdict.CONSISTENT
    if all(v == Verdict.REFUTED for v in inside) or (quantifier == "forall" and Verdict.REFUTED in inside):
        return Verdict.REFUTED
    return Verdict.INCONCLUSIVE


def map_witness(configurations: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The first configuration inside the regime that is consistent: the witness of an existence map."""
    for row in configurations:
        if row.get("in_regime", True) and row["verdict"] == Verdict.CONSISTENT:
            return {k: v for k, v in row.items()
                    if isinstance(v, (str, int, float)) and k not in ("verdict", "in_regime")}
    return None


MAP_COLOURS = {"consistent": "#2e9d3a", "refuted": "#d7301f", "inconclusive": "#f0b400", "untested": "#bdbdbd",
               "proved": "#1b6e2a", "vacuous": "#7f7f7f"}


def draw_verdict_map(configurations: Sequence[dict[str, Any]], x: str, y: str, path: Any, title: str) -> Any:
    """A figure of the verdict over two free parameters: one square per configuration, coloured by
    its verdict, hatched when the configuration is outside the theorem's regime."""
    from theorems.engine.figures import save_figure, subplots

    xs = sorted({row[x] for row in configurations})
    ys = sorted({row[y] for row in configurations})
    fig, ax = subplots(figsize=(1.2 + 0.9 * len(xs), 1.2 + 0.7 * len(ys)))
    for row in configurations:
        verdict = row["verdict"].value if isinstance(row["verdict"], Verdict) else str(row["verdict"])
        i, j = xs.index(row[x]), ys.index(row[y])
        ax.add_patch(_square(i, j, MAP_COLOURS.get(verdict, "#ffffff"), not row.get("in_regime", True)))
        ax.text(i + 0.5, j + 0.5, verdict[:5], ha="center", va="center", fontsize=7)
    ax.set_xlim(0, len(xs))
    ax.set_ylim(0, len(ys))
    ax.set_xticks([i + 0.5 for i in range(len(xs))], [f"{v:g}" if isinstance(v, float) else str(v) for v in xs])
    ax.set_yticks([j + 0.5 for j in range(len(ys))], [f"{v:g}" if isinstance(v, float) else str(v) for v in ys])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(title + " (hatched: outside the regime)", fontsize=9)
    return save_figure(fig, path, dpi=100)


def _square(i: int, j: int, colour: str, hatched: bool) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((i, j), 1, 1, facecolor=colour, edgecolor="black", hatch="//" if hatched else None)
