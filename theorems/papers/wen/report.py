"""Wen & Li: the tables and plots of the report -- how measurements are shown, never what they decide.

A measured relation is shown as the engine decides it (:func:`theorems.holds`): the per-seed marks
(``+`` holds, ``-`` fails, ``?`` the run cannot tell), the at-init column and the regime tables.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np

from theorems import Observation, RegimeCheck, holds, markdown_table, median_interval_note, save_figure, subplots


def clean(v: Any) -> Any:
    """``v`` with numpy scalars and arrays as JSON values (the experiment's parameters)."""
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [clean(x) for x in v]
    if isinstance(v, np.ndarray):
        return clean(v.tolist())
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return v.item()
    return v


def fmt(values: Any) -> str:
    """A list of values as text (floats to 3 decimals)."""
    if values is None:
        return "-"
    return ", ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in values)


def marks(entries: Sequence[Any]) -> str:
    """Per-run outcomes as marks: + holds, - fails (as the engine decides a measured relation), ? cannot tell."""
    return "".join("?" if h is None else "+" if holds(h) else "-" for h in entries)


def in_regime(checks: Sequence[RegimeCheck]) -> bool:
    """Every regime condition holds, as the engine decides them."""
    return all(holds(c.holds) for c in checks)


def regime_lines(checks: list[RegimeCheck]) -> list[str]:
    return markdown_table([(c.name, c.text, c.value, c.required, "yes" if holds(c.holds) else "**no**")
                           for c in checks],
                          ["regime condition", "as the paper states or needs it", "measured", "required", "holds"])


def _at_init(obs: Observation) -> str:
    entries = obs.at_init if isinstance(obs.at_init, tuple) else (obs.at_init,)
    decided = [holds(v) for v in entries if v is not None]
    if not decided:
        return "-"
    return "**holds**" if any(decided) else "fails"


def observation_table(observations: list[Observation], keys: list[str]) -> list[str]:
    """Configurations with their per-seed outcomes, at-init outcome and measured values (no verdicts: the
    engine appends the verdict map)."""
    return markdown_table([(", ".join(f"{k}={v}" for k, v in o.config.items()), marks(list(o.holds)), _at_init(o),
                            *(o.values.get(k, "-") for k in keys),
                            "yes" if in_regime(o.regime) else
                            "no: " + ", ".join(c.name for c in o.regime if not holds(c.holds))) for o in observations],
                          ["configuration", "per seed (+ holds, - fails, ? cannot tell)", "at init", *keys, "in regime"])


def history_plot(groups: list[tuple[str, list[dict[str, Any]], str]], path: Path, title: str) -> None:
    """The training histories (mean sparse share and mean neuron norm per step) of groups of runs."""
    fig, axes = subplots(1, 2, figsize=(9, 3.4))
    for label, runs, colour in groups:
        for i, r in enumerate(runs):
            kw = {"label": label} if i == 0 else {}
            axes[0].plot(r["step"], r["share"], color=colour, alpha=0.8, lw=1.2, **kw)
            axes[1].plot(r["step"], r["norm"], color=colour, alpha=0.8, lw=1.2)
    axes[0].set_xlabel("SGD step")
    axes[0].set_ylabel("mean sparse share ||M^T w||^2 / ||w||^2")
    axes[0].set_ylim(0, 1.02)
    axes[1].set_xlabel("SGD step")
    axes[1].set_ylabel("mean ||w_i||")
    axes[0].legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    save_figure(fig, path, dpi=100)


def seed_note(n: int) -> str:
    return median_interval_note(n) if n > 1 else "one seed: no interval over seeds"
