"""The numerical-method settings of the merad package, stated once: the accuracy targets and the switches of the
algorithms that compute a quantity or draw a subject, each with the error it implies.

None of them decides anything about a claim or a run: a relation between measured values is reported as
``theorems.at_most(lhs, rhs, error=...)`` (``equal``, ``below``, ...) and the engine decides it with its own
tolerance (``theorems.holds``). What is here only steers an algorithm -- where a series stops, when an exact
fallback runs, how far inside a ball a projection lands, which branch of a formula is evaluated, which float
candidates are re-evaluated at 60 digits -- and a change of any of them changes a computation's cost or a draw,
never the rule by which a value is judged.
"""

from __future__ import annotations

#: p_cc (:func:`theorems.papers.merad.coupon.p_cc_info`): the probability mass the tilted convolution drops
#: (windows, trimming, the Poisson merge) is bounded by Chernoff's tail bound and kept below this fraction of
#: r_N; ``PccInfo.dropped_rel`` reports the bound reached, so dropping costs p_cc at most this relative error
DROPPED_MASS = 1e-20

#: P(T > t) by the inclusion-exclusion series (``coupon._upper_tail_series``): a term below this fraction of
#: the first ends the series (Bonferroni: the truncation error is at most that term, which is added to the
#: series' error bound)
SERIES_TERM_CUTOFF = 1e-17

#: the series' value is used only when its whole error bound (roundings and truncation) is at most this fraction
#: of the value; otherwise the exact cascade computes P(T > t)
SERIES_ERROR = 1e-13

#: ``triplet_parts.project_ball`` scales a block longer than (1 - BALL_INSET) C down to that length: the
#: projected point stays inside the closed ball of radius C after rounding
BALL_INSET = 1e-12

#: ``triplet_parts.near_optimal``: a drawn direction shorter than this is replaced by the all-ones direction
#: (dividing by a length this small would leave few significant digits in the unit vector)
SHORTEST_DIRECTION = 1e-100

#: ``BallTriplet.from_param``: tanh(r)/r is evaluated as its Taylor polynomial 1 - r^2/3 + 2 r^4/15 when
#: r^2 is below this (the omitted terms are below 17 r^6 / 315 < 1e-25 relative), free of 0/0 in autograd
TANH_TAYLOR_BELOW = 1e-8

#: ``mixtures.point_vs_pair_draws``: a drawn direction shorter than this is replaced by the first axis (its
#: normalization would lose digits)
SHORTEST_PAIR_DIRECTION = 1e-6

#: ``lemma3_tightness``: the float64 values of ||Hess l|| the ascent ends at are re-evaluated at 60 digits when
#: they lie within this relative distance of the best float value (float64 rounding, about 1e-15 relative here,
#: cannot reorder values further apart)
FLOAT_TIE = 1e-9

__all__ = ["BALL_INSET", "DROPPED_MASS", "FLOAT_TIE", "SERIES_ERROR", "SERIES_TERM_CUTOFF", "SHORTEST_DIRECTION",
           "SHORTEST_PAIR_DIRECTION", "TANH_TAYLOR_BELOW"]
