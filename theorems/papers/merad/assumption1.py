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

import sympy

from numerics.certificate import Certificate
from theorems import ExperimentOutcome, Observation, RunContext

REUSE = "reusing a sample in two different triples invalidates Assumption 1"

# -- the readings of Assumption 1, defined once (issue 39 item 3): merad.assumption_1 and merad.theorem1 (its
# prefixes, its readings, its data adversary's hypotheses and its run's regime check) import these. The words that
# separate them: "all the samples x in X_data = U_i {x_i, x_i+, x_i-}" -- a union of sets, or the 3n samples of the
# n triples counted by position.
SEPARATING_WORDS = "'all the samples x in X_data = U_i {x_i, x_i+, x_i-}' (a union of sets, or the 3n samples by position)"
SET = ("X_data = U_i {x_i, x_i+, x_i-} a union of sets: its distinct elements unit-norm and delta-separated "
       "(x != x'; with x = x' allowed no data would satisfy it), so a sample reused in two triples is one element")
POSITIONS_NAME = "the 3n samples of the triples"
POSITIONS = ("the 3n samples of the n triples counted by position: 3n distinct unit samples, delta-separated (a "
             "sample reused in two triples is two samples at distance 0)")
POSITIONS_RESTS_ON = ("the remark after Lemma 4: Assumption 1 'requires that all samples are separated and, in "
                      "particular, distinct ... it would be invalidated simply by reusing a sample in two different "
                      "triples'")
#: the words taken without the unprinted convention x != x' that SET and POSITIONS both use: "||x - x'||_2 >= delta
#: for any x, x' in X_data" with x = x' allowed holds for no data set (0 >= delta > 0) -- Assumption 1 is then
#: unsatisfiable, every statement granting it (Lemma 6, Theorem 1) vacuous, and the remark true of every training set,
#: reuse or not. merad.assumption_1 decides it as a reading (untested: uninformative against a set without reuse);
#: merad.theorem1 cannot take it: a vacuous verdict needs certificates that the hypotheses cannot hold together
#: (``unsatisfiable``), which an ExperimentClaim and its readings do not have.
ANY_PAIR_NAME = "any pair x, x', x = x' included"
ANY_PAIR = ("'for any x, x' in X_data' with x = x' allowed (no 'x != x'' is printed): ||x - x|| = 0 >= delta > 0 fails, "
            "so no data set satisfies Assumption 1")
ANY_PAIR_RESTS_ON = "the words of Assumption 1 without the convention x != x' ('for any x, x' in X_data')"
READINGS = {"set": SET, "positions": POSITIONS, "any pair": ANY_PAIR}
#: a training set without reuse (3 triples of 9 distinct unit vectors): the baseline against which the remark is
#: informative -- a reading under which Assumption 1 fails on it too cannot credit the failure to reuse
NO_REUSE = ((0, 1, 2), (3, 4, 5), (6, 7, 8))


def separation(positions: list[np.ndarray], over: str) -> float:
    """Assumption 1's delta on the 3n samples ``positions`` (in triple order), read ``over`` the set X_data (exact
    duplicates merged: one element) or the 3n positions (a duplicate is at distance 0)."""
    if over not in READINGS:
        raise ValueError(f"Assumption 1 is read over {sorted(READINGS)}, not {over!r}")
    if over == "positions":
        return min_separation(list(positions))
    if over == "any pair":  # x = x' is a pair: every point is at distance 0 from itself
        return 0.0 if positions else math.inf
    unique: list[np.ndarray] = []
    for p in positions:
        if not any(np.array_equal(p, q) for q in unique):
            unique.append(p)
    return min_separation(unique)
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
    delta = separation(positions, over)
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


def assumption1_any_pair(ctx: RunContext) -> ExperimentOutcome:
    """The reading ANY_PAIR_NAME: Assumption 1 fails on the reusing set, and on the baseline NO_REUSE as well, so the
    remark's prediction is met without any evidence that reuse is what invalidates it (at_init: the baseline)."""
    positions = [SAMPLES[i] for t in TRIPLES for i in t]
    base = [np.eye(9)[i] for t in NO_REUSE for i in t]
    delta, delta0 = separation(positions, "any pair"), separation(base, "any pair")
    obs = Observation({"fact": REUSE, "over": "any pair", "triples": str(TRIPLES)}, holds=(not delta > 0,),
                      at_init=not delta0 > 0, baseline=f"a training set without reuse {NO_REUSE}",
                      values={"min separation": delta, "min separation without reuse": delta0})
    md = ["#### Assumption 1 read over any pair x, x' (x = x' included)", "",
          f"Min separation {delta:.6g} on the reusing triples {TRIPLES} and {delta0:.6g} on {NO_REUSE} (no reuse): "
          "Assumption 1 fails on both, so the remark's prediction holds whatever the data."]
    return ExperimentOutcome(statistic="min separation of X_data", value=delta, effect_size=delta,
                             interval=(delta, delta), seeds=[], interval_note="exact, no seed", observations=[obs],
                             parameters={"over": "any pair", "triples": str(TRIPLES)}, markdown="\n".join(md))


def any_pair_unsatisfiable() -> Certificate:
    """The reading ANY_PAIR_NAME can never hold: ||x - x||_2^2 = sum_k (x_k - x_k)^2 = 0 for every x in R^d (symbolic
    d), and 0 >= delta is false for every delta > 0 -- so no X_data satisfies Assumption 1 read over any pair, and
    every statement that grants it (Theorem 1) is vacuous under that reading (sympy)."""
    d, k = sympy.symbols("d k", integer=True, positive=True)
    delta = sympy.Symbol("delta", positive=True)
    x = sympy.IndexedBase("x", real=True)
    zero = sympy.simplify(sympy.Sum((x[k] - x[k]) ** 2, (k, 1, d)).doit()) == 0
    impossible = sympy.Ge(sympy.sqrt(0), delta) == sympy.false
    return Certificate(method="sympy (symbolic d)",
                       statement="||x - x'||_2 >= delta for any x, x' in X_data, x = x' included, holds for no X_data",
                       domain="every d >= 1, every X_data, every delta > 0", ok=bool(zero and impossible),
                       details={"||x - x||^2 = 0": zero, "0 >= delta false for delta > 0": impossible})


def assumption1_positions(ctx: RunContext) -> ExperimentOutcome:
    """The reading POSITIONS_NAME: the 3n samples of the triples, two positions of one sample included."""
    return assumption1(ctx, over="positions")
