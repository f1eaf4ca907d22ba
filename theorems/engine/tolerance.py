"""The tolerance policy, stated once (the README repeats it).

A claim part ``lhs <= rhs`` (or ``lhs = rhs``) has a *margin*: ``lhs - rhs`` for an
inequality, ``|lhs - rhs|`` for an identity. Its tolerance is

    tol(lhs, rhs) = ATOL + RTOL * max(|lhs|, |rhs|).

* Screening (float64): an example is a *candidate* when its float margin is
  > -tol for an inequality (within tolerance of the boundary or beyond it), or
  > tol / 2 for an identity. Every candidate is re-evaluated in high precision,
  so float rounding can neither create a counterexample nor hide one that
  exceeds the tolerance.
* Confirmation (mpmath, ``CONFIRM_DPS`` digits): a part is *violated* only
  when its high-precision margin is > tol, and stays so with the same margin
  (to 1e-6 relative) when the precision is doubled (up to 1920 digits; see
  ``theorems.engine.probe.stabilize``). Only confirmed violations refute.
* A strict part ``lhs < rhs`` must hold by more than the tolerance: its margin
  is shifted by 2 tol, so ``lhs`` within tol of ``rhs`` counts as a violation.
* Smaller deviations are reported (``min_slack`` may be slightly negative) but
  are below what the checker resolves.
* Non-finite sides are decided exactly, never by a tolerance: with a side at +-inf the
  relation is decided in the extended reals (``inf <= 1`` is violated, ``0 <= -inf`` is
  violated, ``-inf <= 1`` holds, ``inf = inf`` holds) and the margin is +inf (violated) or
  -inf (holds); the tolerance is taken over the finite sides only, so it is always finite.
  An infinite margin is confirmed only when it stays the same infinity at every precision up to
  1920 digits (a side made infinite by rounding becomes finite at some precision).
  A NaN (or complex) side is no evidence either way: the claim's verdict is ``error``,
  naming the quantity, the subject and the backend (:mod:`theorems.engine.evaluate`).
"""

from __future__ import annotations

import math
from typing import Any

RTOL = 1e-9
ATOL = 1e-12
CONFIRM_DPS = 60


def tolerance(lhs: Any, rhs: Any) -> float:
    """ATOL + RTOL * max(|lhs|, |rhs|) over the finite sides: always a finite float."""
    finite = [abs(float(v)) for v in (lhs, rhs) if math.isfinite(float(v))]
    return ATOL + RTOL * max(finite, default=0.0)


def is_candidate(margin: float, tol: float, identity: bool) -> bool:
    """Float screening rule: should this example be re-evaluated in high precision?"""
    if margin != margin:  # NaN margin: always look closer
        return True
    return margin > (tol / 2 if identity else -tol)


def is_violation(margin: Any, tol: float) -> bool:
    """Confirmation rule: is the high-precision margin beyond the tolerance? (A margin of +inf,
    a side decided exactly as violated, is; a NaN margin never is: it is an error upstream.)"""
    return float(margin) > tol


def same_margin(a: Any, b: Any, tol: float) -> bool:
    """Two evaluations of one margin agree (to 1e-6 relative, or within ``tol``); equal
    infinities agree, a NaN agrees with nothing."""
    a, b = float(a), float(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b)) + tol
