"""The tolerance policy and every comparison rule, stated once (the README repeats it).

A claim part ``lhs <= rhs`` (or ``lhs = rhs``) has a *margin*: ``lhs - rhs`` for an
inequality, ``|lhs - rhs|`` for an identity. Its tolerance is relative to the magnitudes of the
terms being compared -- the scale, the largest |term| among the additive terms of both sides, as
evaluated, and a residue quantity's declared scale (``quantity(..., scale=...)``: the terms it is a
difference of) -- and to the resolution of the evaluation (:func:`part_tolerance`):

    tol = max(resolution * scale, TINY),  resolution = RTOL (float64) or RTOL_HP (60 digits).

A quantity whose high-precision value is exactly a float64 number may have been computed in float64
(or be an input given as one): a part using one is judged at the float resolution RTOL even at 60
digits, so a quantity's own rounding is never a counterexample. There is no absolute floor (TINY only
decides an exact tie of a strict part): ``t <= t/2`` at t = 1e-13 is violated, and ``0 < t`` holds
for every t > 0 the evaluation resolves.

* Screening (float64): an example is a *candidate* when its float margin is
  > -tol for an inequality (within tolerance of the boundary or beyond it), or
  > tol / 2 for an identity. Every candidate is re-evaluated in high precision,
  so float rounding can neither create a counterexample nor hide one that
  exceeds the tolerance.
* Confirmation (mpmath, ``CONFIRM_DPS`` digits): a part is *violated* only
  when its high-precision margin is > tol, and stays so with the same margin
  (to 1e-6 relative) when the precision is doubled (up to 1920 digits:
  :func:`confirmation`). Only confirmed violations refute.
* A strict part ``lhs < rhs`` must hold by more than the tolerance: its margin
  is shifted by 2 tol, so ``lhs`` within tol of ``rhs`` is a candidate; it is confirmed as a violation only as a
  tie -- the unshifted margin vanishing as the precision doubles (:func:`strict_tie`) -- and a gap that stays
  (1e-76, or one a float64-computed quantity fixes) is no counterexample.
* A side known only as an enclosure (a Monte Carlo bracket) gives one margin per corner; the
  violation is certain only when every corner violates (:func:`certain_margin`).
* Smaller deviations are reported (``min_slack`` may be slightly negative) but
  are below what the checker resolves.
* Non-finite sides are decided exactly, never by a tolerance (:func:`extended_margin`).
* A measured relation of an experiment (:class:`~theorems.engine.measure.Comparison`) holds float64
  numbers the plugin computed: it is decided at the float resolution with an absolute floor ATOL (a
  float difference carries no scale of its own terms), widened by the measurement's stated error
  (:func:`decide`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Iterable

import mpmath
import numpy as np

from numerics.enclosure import Enclosure
from theorems.engine.measure import AllOf, Comparison
from theorems.engine.rules.table import rule

RTOL = 1e-9  # the resolution of a float64 evaluation, relative to the scale of its terms
RTOL_HP = 1e-40  # the resolution of a CONFIRM_DPS-digit evaluation: 20 digits to spare for ill-conditioning
TINY = 1e-320  # below every float64 scale: only decides a strict part whose sides are exactly equal
TINY_HP = mpmath.mpf(2) ** -(10**6)  # the same at high precision, below any scale a 60-digit evaluation meets
ATOL = 1e-12  # a measured float64 relation's absolute floor (compare.measured)
CONFIRM_DPS = 60
#: a violation is confirmed only once it held, with the same margin, at every doubling up to this precision: a
#: quantity that loses digits inside its own code (1 - v with v = 1 - e^-1458, 633 digits) is exact only beyond them
MAX_DPS = 1920
SAME_MARGIN_RTOL = 1e-6  # two precisions agree on a margin to this relative difference


@rule("compare.part_tolerance")
def part_tolerance(scale: Any, float_resolution: bool, sensitivity: Any = 0) -> float:
    """A statement part's tolerance: the larger of its resolution times its scale (the largest |term| among the
    additive terms of both sides) and its sensitivity (how far lhs - rhs moves when each quantity moves by its own
    resolution: the inputs' rounding, to first order); the resolution is RTOL when evaluated in float64 or when a
    quantity's high-precision value is exactly a float64 number (it may have been computed in one), RTOL_HP at
    CONFIRM_DPS digits; never below TINY. No absolute floor: a violation the evaluation resolves is a violation at
    any scale."""
    resolution = RTOL if float_resolution else RTOL_HP
    if isinstance(scale, mpmath.mpf):  # kept at high precision: a scale of 1e-400 has a tolerance of its own
        if not mpmath.isfinite(scale):
            return TINY_HP
        return max(resolution * abs(scale), mpmath.mpf(sensitivity) if mpmath.isfinite(sensitivity) else 0, TINY_HP)
    value = resolution * abs(float(scale))
    return max(value, TINY) if math.isfinite(value) else TINY


@rule("compare.float_valued")
def float_valued(value: Any) -> bool:
    """A high-precision quantity value may have been computed in float64 (its part is then judged at the float
    resolution) when it is exactly a float64 number and not an integer; an enclosure's ends are floats; an array:
    any of its first 64 elements."""
    if isinstance(value, Enclosure):
        return True
    if isinstance(value, np.ndarray):
        return any(float_valued(v) for v in value.reshape(-1)[:64])
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value) or value == mpmath.floor(value):
            return False
        return mpmath.mpf(float(value)) == value
    return isinstance(value, (float, np.floating)) and not float(value).is_integer()


@rule("compare.tolerance")
def tolerance(lhs: Any, rhs: Any) -> float:
    """The tolerance of a measured float64 relation: ATOL + RTOL * max(|lhs|, |rhs|) over the finite sides (always a
    finite float)."""
    if isinstance(lhs, np.ndarray) or isinstance(rhs, np.ndarray):  # elementwise, for measured arrays
        sides = [np.abs(np.asarray(v, dtype=float)) for v in (lhs, rhs)]
        scale = np.maximum(*(np.where(np.isfinite(v), v, 0.0) for v in sides))
        return ATOL + RTOL * scale
    finite = [abs(float(v)) for v in (lhs, rhs) if math.isfinite(float(v))]
    return ATOL + RTOL * max(finite, default=0.0)


@rule("compare.candidate")
def is_candidate(margin: float, tol: float, identity: bool) -> bool:
    """The float screen: an example is re-evaluated in high precision when its float margin is > -tol
    (an inequality: within tolerance of the boundary or beyond it), > tol / 2 (an identity), or not finite (a NaN,
    or a side float64 could not represent: an overflow is decided at 60 digits, never as an infinity)."""
    if not math.isfinite(margin):  # NaN or +-inf: always look closer
        return True
    return margin > (tol / 2 if identity else -tol)


@rule("compare.violation")
def is_violation(margin: Any, tol: float) -> bool:
    """A high-precision margin is a violation when it is beyond the tolerance (> tol, compared in the margin's own
    precision: a 60-digit margin of 1e-350 is not rounded to 0; a margin of +inf, a side decided exactly as
    violated, is; a NaN margin never is: it is an error upstream)."""
    return bool(margin > tol)


@rule("compare.same_margin")
def same_margin(a: Any, b: Any, tol: float) -> bool:
    """Two evaluations of one margin agree: to SAME_MARGIN_RTOL relative, or within ``tol``, compared at high precision
    (two 60- and 120-digit margins of 1e-500 and 1e-1000 differ, though both are 0 in float64); equal infinities
    agree, a NaN agrees with nothing."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if mpmath.isinf(a) or mpmath.isinf(b):
        return a == b
    return bool(abs(a - b) <= SAME_MARGIN_RTOL * max(abs(a), abs(b)) + tol)


@rule("compare.strict")
def strict_margin(margin: float, tol: float) -> float:
    """A strict part ``a < b`` must hold by more than the tolerance: its margin is shifted up by 2 tol."""
    return margin + 2 * tol


@rule("compare.strict_tie")
def strict_tie(coarse_raw: Any, finer_raw: Any, tol: Any, dps: int) -> bool:
    """A strict part ``a < b`` violated only through the shift (its margin a - b within tol of 0) is a violation
    only when a = b: the margin vanishes as the precision doubles -- below a thousandth of its value at half the
    digits, or below the working precision's floor (scale 10^(-dps/2); the scale is tol / RTOL_HP). A margin that
    stays (a gap of 1e-76, or a difference a quantity computed in float64 fixes) is no tie, and no counterexample."""
    coarse, finer = abs(mpmath.mpf(coarse_raw)), abs(mpmath.mpf(finer_raw))
    floor = mpmath.mpf(tol) / RTOL_HP * mpmath.mpf(10) ** (-(dps // 2))
    return bool(finer == 0 or finer <= max(coarse * mpmath.mpf("1e-3"), floor))


@rule("compare.bracket")
def certain_margin(corner_margins: Iterable[float]) -> float:
    """Over the corners of the enclosures a part's sides depend on, the certain margin is the smallest: a
    violation is certain only when every corner violates (NaN if a corner is NaN)."""
    margins = list(corner_margins)
    if any(math.isnan(m) for m in margins):
        return math.nan
    return min(margins)


_EXTENDED = {None: 0.0, "+inf": math.inf, "-inf": -math.inf}


@rule("compare.extended_reals")
def extended_margin(part: Any, lhs_kind: str | None, rhs_kind: str | None) -> float:
    """A part with an infinite side is decided exactly in the extended reals, never by a tolerance: +inf
    when the relation is violated (``inf <= 1``, ``0 <= -inf``), -inf when it holds (``-inf <= 1``,
    ``inf = inf``); a finite side sits between -inf and +inf."""
    lhs, rhs = _EXTENDED[lhs_kind], _EXTENDED[rhs_kind]
    if part.is_identity:
        holds = lhs == rhs and lhs_kind is not None  # inf = inf; a finite side never equals inf
    else:
        small, large = (lhs, rhs) if part.canonical is part.relation else (rhs, lhs)
        holds = small < large if part.is_strict else small <= large
    return -math.inf if holds else math.inf


CONFIRMED, HOLDS, UNSTABLE, FINER = "confirmed", "holds", "unstable", "finer"


@rule("compare.confirmation")
def confirmation(coarse: list[Any], finer: list[Any], last: bool, dps: int = MAX_DPS) -> str:
    """A violation found at CONFIRM_DPS digits is kept only if it survives every doubling of the precision up to
    MAX_DPS.

    ``coarse`` and ``finer`` are a subject's part values at dps/2 and ``dps`` digits. No violation at ``dps``:
    "holds". Every violated part's margin the same at both (:func:`same_margin`) and finite, at ``dps`` >= MAX_DPS:
    "confirmed" (below it, "finer": a digit loss inside a quantity's own code shows only at enough digits). An
    infinite margin proves nothing by agreeing once (a rounding that made it infinite at 60 digits does so at 120):
    it is confirmed only when it stayed the same infinity up to the last precision (``last``). Otherwise "finer"
    (double again), or at the last precision "unstable" -- not a counterexample."""
    if not any(is_violation(b.certain_margin, b.tol) for b in finer):
        return HOLDS
    if any(is_violation(b.certain_margin, b.tol) and _shifted_only(b) and not strict_tie(a.raw_margin, b.raw_margin,
                                                                                       b.tol, dps)
           for a, b in zip(coarse, finer)):
        return UNSTABLE  # a strict part within tol of its boundary whose margin does not vanish: no tie
    stable = all(same_margin(a.margin, b.margin, a.tol) for a, b in zip(coarse, finer)
                 if is_violation(a.certain_margin, a.tol))
    infinite = any(math.isinf(b.margin) for b in finer if is_violation(b.certain_margin, b.tol))
    if stable and not infinite and dps >= MAX_DPS:
        return CONFIRMED
    if last:
        return CONFIRMED if stable and infinite else UNSTABLE
    return FINER


def _shifted_only(v: Any) -> bool:
    """A strict part's value violated only through the shift of compare.strict (its raw margin within tol)."""
    raw = getattr(v, "raw_margin", None)
    return raw is not None and not (mpmath.isnan(raw) or raw > v.tol)


_EXACT = (int, Fraction)


@rule("compare.enclosure")
def enclosure_holds(lo: Any, hi: Any, identity: bool, strict: bool, exact_zero: bool = False) -> bool | None:
    """A relation whose margin (small side - large side) is enclosed in [lo, hi] with certainty (an arb ball): holds
    when every point of the enclosure satisfies it, fails when none does, undecided (None) otherwise. A difference
    that is exactly zero (``exact_zero``: sympy simplifies it to 0) is decided exactly: an identity or ``a <= a``
    holds, ``a < a`` fails."""
    if exact_zero:
        return not strict
    if identity:
        return False if lo > 0 or hi < 0 else None
    if strict:
        return True if hi < 0 else (False if lo >= 0 else None)
    return True if hi <= 0 else (False if lo > 0 else None)


@rule("compare.measured")
def decide(measured: Any) -> bool:
    """An experiment's measured relation holds unless it is violated beyond what the checker resolves.

    ``Comparison(lhs, rel, rhs, error)``: exact sides (integers, fractions) are compared exactly; otherwise
    the margin (as for a statement part, strict relations shifted by 2 tol) is a violation only when it
    exceeds tol(lhs, rhs) + 2 error -- each side may be off by its stated error -- and, for an enclosure
    side, only when every corner does. A bool is an exact fact; ``AllOf`` holds when every item does.
    A NaN or non-numeric side raises ValueError: no verdict may rest on it."""
    if isinstance(measured, bool):
        return measured
    if isinstance(measured, AllOf):
        return all(decide(item) for item in measured.items)
    if not isinstance(measured, Comparison):
        raise ValueError(f"a run's outcome must be a bool, None or a Comparison, not "
                         f"{type(measured).__name__} {measured!r}")
    if _is_exact(measured.lhs) and _is_exact(measured.rhs):
        return _exact_holds(Fraction(measured.lhs), measured.relation, Fraction(measured.rhs))
    if isinstance(measured.lhs, np.ndarray) or isinstance(measured.rhs, np.ndarray):
        return _array_holds(measured)
    corners = [(lo, hi) for lo in _ends(measured.lhs, measured) for hi in _ends(measured.rhs, measured)]
    margins = []
    for lhs, rhs in corners:
        margin, tol = _measured_margin(lhs, measured.relation, rhs)
        margins.append(margin - tol - 2 * measured.error)
    return not is_violation(certain_margin(margins), 0.0)


def _array_holds(measured: Comparison) -> bool:
    """Every element of a measured relation between arrays (broadcast) holds, by the rule of :func:`decide`."""
    lhs, rhs = np.broadcast_arrays(np.asarray(measured.lhs, dtype=float), np.asarray(measured.rhs, dtype=float))
    if np.isnan(lhs).any() or np.isnan(rhs).any():
        raise ValueError(f"measured relation {measured.text()}: a side has a NaN -- no verdict may rest on it")
    finite = np.isfinite(lhs) & np.isfinite(rhs)
    exact = {"<=": np.less_equal, "<": np.less, ">=": np.greater_equal, ">": np.greater, "==": np.equal}
    if not exact[measured.relation](lhs[~finite], rhs[~finite]).all():  # infinite elements: the extended reals
        return False
    lhs, rhs = lhs[finite], rhs[finite]
    tol = tolerance(lhs, rhs)
    if measured.relation == "==":
        margin = np.abs(lhs - rhs)
    else:
        small, large = (lhs, rhs) if measured.relation in ("<=", "<") else (rhs, lhs)
        margin = small - large
        if measured.relation in ("<", ">"):
            margin = strict_margin(margin, tol)
    return not bool(np.any(margin - tol - 2 * measured.error > 0))


def _is_exact(v: Any) -> bool:
    return isinstance(v, _EXACT) and not isinstance(v, bool)


def _exact_holds(lhs: Fraction, relation: str, rhs: Fraction) -> bool:
    return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs, "==": lhs == rhs}[relation]


def _ends(side: Any, measured: Comparison) -> list[float]:
    values = [side.lo, side.hi] if isinstance(side, Enclosure) else [side]
    out = []
    for v in values:
        try:
            f = float(v)
        except (TypeError, ValueError):
            raise ValueError(f"measured relation {measured.text()}: a side is {type(v).__name__} {v!r}, not a "
                             "number") from None
        if math.isnan(f):
            raise ValueError(f"measured relation {measured.text()}: a side is NaN -- no verdict may rest on it")
        out.append(f)
    return out


def _measured_margin(lhs: float, relation: str, rhs: float) -> tuple[float, float]:
    """(margin, tol) of one corner of a measured relation (> tol: violated)."""
    if not (math.isfinite(lhs) and math.isfinite(rhs)):
        holds = _exact_holds(lhs, relation, rhs) if relation != "==" else lhs == rhs
        return (-math.inf if holds else math.inf), 0.0
    tol = tolerance(lhs, rhs)
    if relation == "==":
        return abs(lhs - rhs), tol
    small, large = (lhs, rhs) if relation in ("<=", "<") else (rhs, lhs)
    margin = small - large
    return (strict_margin(margin, tol) if relation in ("<", ">") else margin), tol
