"""Rigorous real arithmetic with python-flint's arb balls: conversions, precision, comparisons.

An arb ball ``[m +/- r]`` (a binary floating-point midpoint ``m`` with ``prec`` bits and a radius
``r``) stands for every real number in ``[m - r, m + r]``.  The guarantee python-flint inherits
from FLINT/Arb is *containment*: every operation (``+ - * /``, ``exp``, ``log``, ``sqrt``, ...)
returns a ball that contains the exact result of the operation applied to *every* point of its
input balls; rounding errors of the midpoint computation are added to the radius (radii are
rounded up).  Consequently a comparison such as ``a < b`` is True only when it holds for every
pair of points of the two balls, and False when it fails or is undecided -- never a guess.
An operation undefined on part of its input (``log`` of a ball containing 0) returns a NaN ball
or an infinite one, which compares False with everything.

This module holds the conversions the rest of :mod:`numerics` needs:

* :func:`from_fraction` -- a ball containing an exact rational (exact when it is a dyadic
  number that fits the precision, e.g. every float and every bisection point of a dyadic box);
* :func:`box_ball` -- a ball containing ``[lo, hi]`` whose lower end is exactly ``0`` when
  ``lo >= 0`` (and upper end ``0`` when ``hi <= 0``), so that ``sqrt`` of a variable ranging
  over ``[0, b]`` stays defined;
* :func:`lower_float` / :func:`upper_float` -- a Python float rounded *down* / *up* from a
  ball's lower / upper end (what a report may print without overstating a bound);
* :func:`lower_fraction` / :func:`upper_fraction` -- the ends as exact rationals;
* :func:`excludes_zero`, :func:`ball_json` -- for margins: a refutation's margin is a ball that
  excludes zero, reported with its radius.

Precision is set per block with :func:`workprec` (python-flint's context is global: every
function here that computes sets it itself).
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager
from fractions import Fraction
from typing import Any

import flint
from flint import arb, ctx, fmpq, fmpz

LIBRARY = f"python-flint {flint.__version__} (arb)"

__all__ = [
    "LIBRARY", "arb", "workprec", "from_fraction", "from_value", "box_ball", "is_nan",
    "exact_fraction", "lower_end", "upper_end", "lower_fraction", "upper_fraction", "lower_float", "upper_float", "radius_float",
    "certainly_negative", "certainly_nonnegative", "certainly_positive", "excludes_zero",
    "ball_json", "abs_ball", "even_power", "NEG_INF", "POS_INF",
]

NEG_INF = arb.neg_inf()
POS_INF = arb.pos_inf()


def workprec(prec: int) -> AbstractContextManager[Any]:
    """Context in which arb arithmetic uses ``prec`` bits (python-flint's context is global)."""
    return ctx.workprec(int(prec))


# ----------------------------------------------------------------------------- to balls

def from_fraction(q: Fraction | int) -> arb:
    """A ball containing the rational ``q`` at the current precision (a point ball when exact)."""
    if isinstance(q, int) and not isinstance(q, bool):
        return arb(fmpz(q))
    return arb(fmpq(int(q.numerator), int(q.denominator)))


def from_value(v: Any) -> arb:
    """A ball containing ``v``: an arb, int, float (its exact binary value), Fraction, a string
    such as ``"0.1"`` (a ball containing 1/10), an mpmath mpf (exact) or a numpy scalar."""
    if isinstance(v, arb):
        return v
    if isinstance(v, bool):
        raise TypeError("a bool is not a number")
    if hasattr(v, "item") and not isinstance(v, (int, float)):  # numpy scalar
        v = v.item()
    if isinstance(v, int):
        return arb(fmpz(v))
    if isinstance(v, float):
        return arb(v)  # a double is exact at any precision >= 53 bits
    if isinstance(v, Fraction):
        return from_fraction(v)
    if isinstance(v, (fmpz, fmpq)):
        return arb(v)
    if hasattr(v, "_mpf_"):  # mpmath.mpf: an exact binary number
        sign, man, exp, _ = v._mpf_
        if not man and exp:  # +-inf or nan
            f = float(v)
            return arb("nan") if f != f else (POS_INF if f > 0 else NEG_INF)
        if not man:
            return arb(0)
        man, exp = (-int(man) if sign else int(man)), int(exp)
        return from_fraction(Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp))
    if isinstance(v, str):
        return arb(v)
    raise TypeError(f"cannot make an arb ball from {v!r}")


def box_ball(lo: Fraction, hi: Fraction) -> arb:
    """A ball containing ``[lo, hi]`` (``lo <= hi`` exact rationals).

    A ball's radius is a 30-bit upper bound, so the ball may reach slightly beyond ``[lo, hi]``;
    where that would cross 0 (``lo >= 0`` or ``hi <= 0``) the ball is cut at 0 exactly
    (``nonnegative_part``), which keeps ``sqrt(x)`` and ``x^(1/3)`` defined on ``[0, b]``."""
    if lo == hi:
        ball = from_fraction(lo)
    else:
        mid = from_fraction((lo + hi) / 2)
        half = from_fraction((hi - lo) / 2).upper()
        ball = arb(mid.mid(), half + mid.rad())
    if lo >= 0:
        ball = ball.nonnegative_part()
    elif hi <= 0:
        ball = -((-ball).nonnegative_part())
    return ball


# ----------------------------------------------------------------------------- from balls

def _end_prec(a: arb) -> int:
    """Bits enough to write a ball's ends without further rounding in practice (they are rounded
    outward in any case: a lower end rounded down is still a lower end)."""
    return max(int(ctx.prec), int(a.mid().bits()) + 64)


def lower_end(a: arb) -> arb:
    """The lower end of the ball as an exact arb (arb's ``lower()`` rounds down at the current
    precision; this one uses enough bits for the midpoint)."""
    with workprec(_end_prec(a)):
        return a.lower()


def upper_end(a: arb) -> arb:
    """The upper end of the ball as an exact arb (rounded up, with enough bits)."""
    with workprec(_end_prec(a)):
        return a.upper()


def is_nan(a: arb) -> bool:
    return bool(a.is_nan())


def exact_fraction(a: arb) -> Fraction:
    """The exact value of an exact finite ball (a point), e.g. ``a.lower()`` of a finite ball."""
    if not a.is_exact() or not a.is_finite():
        raise ValueError(f"not an exact finite number: {a}")
    man, exp = a.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def lower_fraction(a: arb) -> Fraction | None:
    """The lower end of the ball as an exact rational (None when it is -inf or NaN)."""
    if a.is_nan() or not a.is_finite():
        return None
    return exact_fraction(lower_end(a))


def upper_fraction(a: arb) -> Fraction | None:
    """The upper end of the ball as an exact rational (None when it is +inf or NaN)."""
    if a.is_nan() or not a.is_finite():
        return None
    return exact_fraction(upper_end(a))


def _round_exact(t: arb, down: bool) -> float:
    """A float <= t (down) or >= t (up) for an exact finite arb ``t``: nearest, then one step."""
    f = float(t)
    if math.isinf(f):  # beyond the float range
        if down:
            return f if f < 0 else math.nextafter(math.inf, 0.0)
        return f if f > 0 else math.nextafter(-math.inf, 0.0)
    g = arb(f)
    if down and g > t:
        f = math.nextafter(f, -math.inf)
    elif not down and g < t:
        f = math.nextafter(f, math.inf)
    return f


def lower_float(a: arb) -> float | str:
    """A float <= every point of the ball ("-inf" / "nan" as strings: JSON-safe)."""
    if a.is_nan():
        return "nan"
    lo = lower_end(a)
    return "-inf" if not lo.is_finite() else _round_exact(lo, True)


def upper_float(a: arb) -> float | str:
    """A float >= every point of the ball ("inf" / "nan" as strings: JSON-safe)."""
    if a.is_nan():
        return "nan"
    hi = upper_end(a)
    return "inf" if not hi.is_finite() else _round_exact(hi, False)


def radius_float(a: arb) -> float:
    """The ball's radius as a float rounded up (inf for a non-finite ball)."""
    if a.is_nan() or not a.is_finite():
        return math.inf
    return _round_exact(a.rad(), False)


def certainly_negative(a: arb) -> bool:
    """Every point of the ball is < 0."""
    return bool(a < 0)


def certainly_positive(a: arb) -> bool:
    """Every point of the ball is > 0."""
    return bool(a > 0)


def certainly_nonnegative(a: arb) -> bool:
    """Every point of the ball is >= 0."""
    return bool(a >= 0)


def excludes_zero(a: arb) -> bool:
    """The ball lies entirely on one side of 0 (its sign is certain)."""
    return bool(a > 0 or a < 0)


def ball_json(a: arb) -> dict[str, Any]:
    """A JSON-safe record of a ball: midpoint (decimal string), radius (float rounded up) and its
    ends as floats rounded outward."""
    return {"mid": a.mid().str(30, radius=False) if a.is_finite() and not a.is_nan() else str(a),
            "rad": radius_float(a), "lower": lower_float(a), "upper": upper_float(a)}


# ----------------------------------------------------------------------------- tight helpers

def abs_ball(a: arb) -> arb:
    """A ball containing ``{|x| : x in a}`` whose lower end is >= 0 (arb's ``abs`` of a ball
    around 0 keeps the radius, so its lower end would be negative)."""
    if a >= 0:
        return a
    if a <= 0:
        return -a
    return arb(0).union(a.abs_upper()).nonnegative_part()


def even_power(a: arb, n: int) -> arb:
    """``a^n`` for an even ``n >= 0``: a ball with a lower end >= 0 (``x^2`` on ``[-1, 1]`` is
    ``[0, 1]``; ball multiplication alone would give ``[-1, 1]``)."""
    if n == 0:
        return arb(1)
    if a >= 0 or a <= 0:
        return a ** n
    return arb(0).union(arb(a.abs_upper()) ** n).nonnegative_part()
