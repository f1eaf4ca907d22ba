"""Merad et al., Assumption 1 and the remark the paper makes about it (Section 4, the paragraph before Section 5):
"Assumption 1 requires that all samples are separated and, in particular, distinct. [...] Indeed, it would be
invalidated simply by reusing a sample in two different triples" (issue 30).

Assumption 1 asks ||x - x'|| >= delta for any x, x' in X_data = U_i {x_i, x_i+, x_i-}, a union of sets. Read over the
set (x != x' its distinct elements: with x = x' allowed no data would satisfy it), a sample reused in two triples is one
element, and reuse does not invalidate the assumption; read over the 3n samples of the n triples (two positions), it
does. The check is exact on one constructed training set: two triples sharing their anchor, five distinct unit vectors.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from theorems import ExperimentOutcome, Observation, RunContext

REUSE = "reusing a sample in two different triples invalidates Assumption 1"
TRIPLES = ((0, 1, 2), (0, 3, 4))  # the anchor x_0 serves both triples
SAMPLES = np.eye(5)  # unit vectors, pairwise sqrt(2) apart


def min_separation(points: list[np.ndarray]) -> float:
    """min ||x - x'|| over pairs of distinct positions (0 when a point repeats); inf for fewer than two."""
    return min((float(np.linalg.norm(a - b)) for a, b in itertools.combinations(points, 2)), default=math.inf)


def assumption1(ctx: RunContext, over: str = "set") -> ExperimentOutcome:
    """Whether Assumption 1 holds on a training set that reuses a sample, read ``over`` the set X_data ("set") or the
    3n samples of the triples ("positions"); the remark predicts it does not."""
    positions = [SAMPLES[i] for t in TRIPLES for i in t]
    distinct = [SAMPLES[i] for i in sorted({i for t in TRIPLES for i in t})]
    points = distinct if over == "set" else positions
    unit = all(abs(float(np.linalg.norm(p)) - 1.0) == 0.0 for p in points)
    delta = min_separation(points)
    holds = unit and delta > 0
    obs = Observation({"fact": REUSE, "over": over, "triples": str(TRIPLES)}, holds=(not holds,),
                      values={"min separation": delta, "Assumption 1 holds": holds})
    md = [f"#### Assumption 1 on two triples sharing their anchor (read over the {over})", "",
          f"Triples {TRIPLES} of the unit vectors e_0..e_4: {len(points)} points, min separation {delta:.6g}; "
          f"Assumption 1 {'holds (delta = ' + format(delta, '.6g') + ')' if holds else 'fails'} -- the remark predicts "
          "that it fails."]
    return ExperimentOutcome(statistic="min separation of X_data", value=delta, effect_size=delta,
                             interval=(delta, delta), seeds=[], interval_note="exact, no seed", observations=[obs],
                             parameters={"over": over, "triples": str(TRIPLES)}, markdown="\n".join(md))


def assumption1_positions(ctx: RunContext) -> ExperimentOutcome:
    """The reading 'the 3n samples of the triples, two positions of one sample included'."""
    return assumption1(ctx, over="positions")
