"""The untrained run as the baseline of Section 5's statement observations (issue 39 item 2).

merad.fig1, merad.fig2 and merad.assumption2 are statement claims checked on the snapshots of training runs. Their
experiment twins (merad.fig1.trend, merad.assumption2.constants) compare with the run's initialization through
``Observation(at_init=...)``; a statement claim has no observation, so the same rule is a part's
:class:`~theorems.Informative` condition here: a snapshot is informative only when its run's *initialization*
(the first logged snapshot, step 0) does not already satisfy the part. Where the untrained encoder already
satisfies it, no snapshot of that run can tell training's effect, and the engine's rule (every subject
uninformative -> untested) applies.

The families (:mod:`theorems.papers.merad.learned`) record each run's first snapshot as they list its subjects
(:func:`register`); a subject that is not a run's snapshot has no baseline and stays informative (the rule applies
"where a trivial baseline exists").
"""

from __future__ import annotations

from typing import Any, Callable

import sympy

from theorems import Informative

#: (run, key) -> the run's first snapshot: a mixture subject (key (k, uniform rho): same N and k), or its min output
#: norm (key None)
_BASELINE: dict[tuple[str, Any], Any] = {}

WHY = "the property already held at the run's initialization: no evidence for training"
WHEN = "the run's initialization (step 0) does not already satisfy it"


def run_of(source: str) -> str:
    """The run a snapshot's source names ('<run> seed <s> step <t>' -> '<run> seed <s>')."""
    return source.rsplit(" step ", 1)[0]


def register(source: str, key: Any, baseline: Any) -> None:
    """Record the first snapshot (``baseline``) of the run of the snapshot ``source`` (``key``: (k, uniform) or None)."""
    _BASELINE[(run_of(source), key)] = baseline


def baseline(source: str, key: Any) -> Any:
    """The recorded first snapshot of that run, or None."""
    return _BASELINE.get((run_of(source), key))


def _bounds(value: Any) -> tuple[float, float]:
    """(lo, hi) of a quantity's value (an enclosure's ends, or a float twice)."""
    if hasattr(value, "lo"):
        return float(value.lo), float(value.hi)
    return float(value), float(value)


def mixture_part_at_init(small: sympy.Expr, large: sympy.Expr, evaluate: Callable[..., dict],
                         uniform: bool = False) -> Informative:
    """Informative when the run's first snapshot does not *certainly* satisfy small <= large: its value of
    ``small`` at the enclosures' upper ends above ``large`` at their lower ends (the quantities of these parts
    enter ``large`` increasingly, a Monte Carlo L^N_un included; the others are exact)."""
    symbols = sorted(small.free_symbols | large.free_symbols, key=str)
    decided: dict[tuple[int, str], bool] = {}  # (id, run) of a baseline -> whether it already satisfies the part

    def informative(s: Any) -> bool:
        base = baseline(getattr(s, "source", ""), (getattr(s, "k", None), uniform))
        if base is None:
            return True  # not a run's snapshot: no baseline
        key = (id(base), run_of(getattr(s, "source", "")))
        if key not in decided:
            values = evaluate(base.mixture, symbols, N=base.N, k=base.k)
            lo = {sym: _bounds(values[sym])[0] for sym in symbols}
            hi = {sym: _bounds(values[sym])[1] for sym in symbols}
            decided[key] = float(small.subs(hi)) <= float(large.subs(lo))
        return not decided[key]

    return Informative(WHEN, informative, why=WHY)


def norm_positive_at_init() -> Informative:
    """Informative when the run's first snapshot does not already have min_x ||f(x)|| > 0."""
    def informative(s: Any) -> bool:
        base = baseline(getattr(s, "source", ""), None)
        return True if base is None else not float(base) > 0
    return Informative(WHEN, informative, why=WHY)
