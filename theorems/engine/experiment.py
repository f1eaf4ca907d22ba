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
from theorems.engine.measure import AllOf, Comparison, worst_element
from theorems.engine.verdict import Verdict

MIN_SEEDS = 5  # an experiment verdict is read over at least this many seeds (theorems.engine.rules.experiment)


def outcome(value: Any, where: str, allow_none: bool = True) -> "bool | None | Comparison | AllOf":
    """A run's outcome as an experiment may report it: a Comparison relation (or AllOf), an exact fact (a bool;
    numpy's bool is taken as one), or None when the run cannot tell. Anything else -- a NaN, a string, a number
    -- is refused, naming where: the engine, not the plugin, turns numbers into outcomes."""
    if value is None and allow_none:
        return None
    if isinstance(value, (Comparison, AllOf, bool)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise ValueError(f"{where}: an outcome must be True, False, None or a Comparison (theorems.at_most, "
                     f"...), not {type(value).__name__} {value!r}")


def outcome_json(value: Any) -> Any:
    """A run's outcome as JSON: a bool or None as itself, a measured relation with its numbers."""
    if isinstance(value, Comparison):
        lhs, rhs, count = worst_element(value)
        out = {"lhs": _plain(lhs), "relation": value.relation, "rhs": _plain(rhs), "error": value.error,
               "what": value.what}
        return out if count == 1 else {**out, "elements": count, "shown": "the pair closest to violating it"}
    if isinstance(value, AllOf):
        return {"all_of": [outcome_json(v) for v in value.items]}
    return value


def _plain(v: Any) -> Any:
    """A JSON number (a non-finite one as its name), or the value's text."""
    if isinstance(v, (bool, str)) or v is None:
        return v
    if isinstance(v, int):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return f if math.isfinite(f) else str(f)


@dataclass(frozen=True)
class RegimeCheck:
    """One condition of a theorem's regime, measured on the run: whether it holds decides whether the run
    counts as evidence at all. ``holds`` is the measured relation (:class:`~theorems.engine.measure.Comparison`,
    decided by the engine with its tolerance) or an exact fact (a bool)."""

    name: str
    text: str  # the condition as the paper states or needs it
    value: Any  # what was measured
    required: str  # the threshold, in words
    holds: "bool | Comparison | AllOf"

    def __post_init__(self) -> None:
        object.__setattr__(self, "holds", outcome(self.holds, f"RegimeCheck {self.name!r}", allow_none=False))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "text": self.text, "value": _plain(self.value), "required": self.required,
                "holds": outcome_json(self.holds)}

    def describe(self) -> str:
        value = f"{self.value:.4g}" if isinstance(self.value, float) else str(self.value)
        return f"{self.name}: {value} (required {self.required})"


@dataclass(frozen=True)
class Observation:
    """One configuration of an experiment, measured -- never judged: what the property the claim predicts
    measured on each seed's run (``holds``: a :class:`~theorems.engine.measure.Comparison` the engine
    decides with its tolerance, an exact fact as a bool, or None when the run cannot tell), and on the run's
    own initialization or a trivial baseline (``at_init``, likewise; None where there is none), so that the
    engine can tell evidence from a property the untrained model already has.

    ``config`` is the setting (JSON values: the model, the free parameters); ``seeds`` the seed of each
    entry of ``holds`` (empty for a deterministic computation, which has one entry); ``regime`` the
    theorem's conditions measured on this configuration; ``values`` the measured numbers the report
    shows; ``part`` is "main", or "universal" for a universal part stated beside an existence claim
    (read over every configuration: one failure inside the regime refutes the claim); ``weak`` says,
    when not empty, why the configuration is only weakly informative (a bound nothing comes near);
    ``by_construction`` says, when not empty, why the property holds by the checker's own construction (an
    identity of its own encoding, a bound applied to its own rate): such a check can fail only by a bug, so a
    held outcome is no evidence for the paper's statement."""

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
    by_construction: str = ""

    def __post_init__(self) -> None:
        where = f"Observation {self.config}"
        if not isinstance(self.holds, (tuple, list)):
            raise ValueError(f"{where}: holds must be a tuple with one outcome per run, not {type(self.holds).__name__}")
        object.__setattr__(self, "holds", tuple(outcome(h, where) for h in self.holds))
        if isinstance(self.at_init, (tuple, list)):
            object.__setattr__(self, "at_init", tuple(outcome(h, f"{where} at_init") for h in self.at_init))
        else:
            object.__setattr__(self, "at_init", outcome(self.at_init, f"{where} at_init"))
        if self.seeds and len(self.seeds) != len(self.holds):
            raise ValueError(f"{where}: {len(self.holds)} outcomes for {len(self.seeds)} seeds")
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError(f"{where}: the seeds {list(self.seeds)} repeat -- one run read twice is not two runs")
        if self.part not in ("main", "universal"):
            raise ValueError(f"{where}: part={self.part!r} must be 'main' or 'universal'")

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["holds"] = [outcome_json(h) for h in self.holds]
        d["at_init"] = ([outcome_json(h) for h in self.at_init] if isinstance(self.at_init, tuple)
                        else outcome_json(self.at_init))
        d["regime"] = [r.to_json() for r in self.regime]
        return d


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
            "interval_note": self.interval_note, "regime": [r.to_json() for r in self.regime],
            "observations": [o.to_json() for o in self.observations], "growth": [g.to_json() for g in self.growth],
            "certificates": [c.to_json() for c in self.certificates],
        }

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
