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
"""

from __future__ import annotations

from typing import Any

RTOL = 1e-9
ATOL = 1e-12
CONFIRM_DPS = 60


def tolerance(lhs: Any, rhs: Any) -> float:
    """ATOL + RTOL * max(|lhs|, |rhs|) (as a float; inf-safe)."""
    scale = max(abs(float(lhs)), abs(float(rhs)))
    return ATOL + RTOL * scale


def is_candidate(margin: float, tol: float, identity: bool) -> bool:
    """Float screening rule: should this example be re-evaluated in high precision?"""
    if margin != margin:  # NaN margin: always look closer
        return True
    return margin > (tol / 2 if identity else -tol)


def is_violation(margin: Any, tol: float) -> bool:
    """Confirmation rule: is the high-precision margin beyond the tolerance?"""
    return float(margin) > tol
