"""Experiment claims: their outcome, and the statistics every experiment shares.

An experiment (training runs over seeds, a sweep of exact computations) reports a statistic,
an effect size, an interval for it with the interval's coverage, the seeds and every
parameter, and the measurements the engine reads a verdict from (:class:`Observation`,
:class:`Growth`, certificates). An experiment never decides: :mod:`theorems.engine.rules` does.
The helpers here are the one place the interval over seeds and the markdown tables are written.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np

from theorems.engine.figures import save_figure, subplots
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


@dataclass(frozen=True)
class Observation:
    """One configuration of an experiment, measured -- never judged: whether the property the claim
    predicts held on each seed's run (``holds``: True, False, or None when the run cannot tell), and
    on the run's own initialization or a trivial baseline (``at_init``; None where there is none), so
    that the engine can tell evidence from a property the untrained model already has.

    ``config`` is the setting (JSON values: the model, the free parameters); ``seeds`` the seed of each
    entry of ``holds`` (empty for a deterministic computation, which has one entry); ``regime`` the
    theorem's conditions measured on this configuration; ``values`` the measured numbers the report
    shows; ``part`` is "main", or "universal" for a universal part stated beside an existence claim
    (read over every configuration: one failure inside the regime refutes the claim); ``weak`` says,
    when not empty, why the configuration is only weakly informative (a bound nothing comes near)."""

    config: dict[str, Any]
    holds: tuple[bool | None, ...]
    seeds: tuple[int, ...] = ()
    at_init: bool | None | tuple[bool | None, ...] = None
    baseline: str = "the run's initialization"
    regime: tuple[RegimeCheck, ...] = ()
    values: dict[str, Any] = field(default_factory=dict)
    note: str = ""
    part: str = "main"
    weak: str = ""

    def __post_init__(self) -> None:
        if self.seeds and len(self.seeds) != len(self.holds):
            raise ValueError(f"Observation {self.config}: {len(self.holds)} outcomes for {len(self.seeds)} seeds")
        if self.part not in ("main", "universal"):
            raise ValueError(f"Observation {self.config}: part={self.part!r} must be 'main' or 'universal'")

    @property
    def init_holds(self) -> bool:
        """Whether the property already held at initialization: on any seed where ``at_init`` is per seed (the
        conservative reading: one untrained run that has it makes the configuration uninformative)."""
        if isinstance(self.at_init, tuple):
            return any(bool(v) for v in self.at_init)
        return bool(self.at_init)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Growth:
    """The ratio an asymptotic claim (O, Omega, poly, Õ) bounds, measured along a parametric witness
    family s(k): ``ratios[i]`` at ``parameter`` = ``xs[i]``. The engine reads it: sympy's limit along
    the family where the experiment has one (``limit``: a number, or ``math.inf``), else the slope of
    log(ratio) against log(k) by least squares -- at most ``bounded_slope``: bounded along the family
    (evidence, never a proof); at least ``unbounded_slope`` with the ratio rising over the last half of
    the range: it grows without bound and refutes the O(.) claim; in between: inconclusive."""

    name: str
    parameter: str
    xs: tuple[float, ...]
    ratios: tuple[float, ...]
    bounded_slope: float = 0.1
    unbounded_slope: float = 0.25
    limit: float | None = None
    limit_note: str = ""

    def to_json(self) -> dict[str, Any]:
        """As JSON (a non-finite number as its name: "inf")."""
        def plain(v: Any) -> Any:
            return str(v) if isinstance(v, float) and not math.isfinite(v) else v
        return {k: (tuple(plain(x) for x in v) if isinstance(v, tuple) else plain(v)) for k, v in asdict(self).items()}


@dataclass
class ExperimentOutcome:
    """What an experiment measured. It holds no verdict: the engine reads one from the
    ``observations`` (by the claim's quantifier over models), the ``growth`` measurements and the
    ``certificates`` (:mod:`theorems.engine.rules`).

    ``regime`` lists conditions of the theorem measured on the whole experiment (any failing one makes
    the verdict ``untested``); ``statistic``, ``value``, ``effect_size`` and ``interval`` summarize it
    for the report; ``map_axes`` = (x, y, title) asks the engine to draw the verdict map over two
    configuration keys."""

    statistic: str  # what was measured, in words
    value: float  # the statistic's value
    effect_size: float
    interval: tuple[float, float]  # interval for the effect size
    seeds: list[int]
    parameters: dict[str, Any]
    observations: list[Observation] = field(default_factory=list)
    growth: list[Growth] = field(default_factory=list)
    certificates: list[Any] = field(default_factory=list)  # numerics.certificate.Certificate, with their domains
    markdown: str = ""  # tables and plots for the report
    interval_note: str = ""  # what the interval is (method and coverage)
    regime: list[RegimeCheck] = field(default_factory=list)
    map_axes: tuple[str, str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "statistic": self.statistic, "value": self.value, "effect_size": self.effect_size,
            "interval": list(self.interval), "seeds": list(self.seeds), "parameters": self.parameters,
            "interval_note": self.interval_note, "regime": [asdict(r) for r in self.regime],
            "observations": [o.to_json() for o in self.observations], "growth": [g.to_json() for g in self.growth],
            "certificates": [c.to_json() for c in self.certificates],
        }

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


def markdown_table(rows: Iterable[Sequence[Any]], header: Sequence[str]) -> list[str]:
    """A markdown table; floats with 4 significant digits."""
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    for row in rows:
        out.append("| " + " | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row) + " |")
    return out


MAP_COLOURS = {"consistent": "#2e9d3a", "refuted": "#d7301f", "inconclusive": "#f0b400", "untested": "#bdbdbd",
               "proved": "#1b6e2a", "vacuous": "#7f7f7f"}


def draw_verdict_map(configurations: Sequence[dict[str, Any]], x: str, y: str, path: Any, title: str) -> Any:
    """A figure of the verdict over two free parameters: one square per configuration, coloured by
    its verdict, hatched when the configuration is outside the theorem's regime."""
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
    from matplotlib.patches import Rectangle  # heavy: matplotlib, only when a regime map is drawn

    return Rectangle((i, j), 1, 1, facecolor=colour, edgecolor="black", hatch="//" if hatched else None)
