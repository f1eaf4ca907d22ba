"""Continuous subjects: a density on an interval and a piecewise-linear map, as parts of a composed family.

* ``Density(domain=(lo, hi), pieces=(1, 3), uniform=None)`` -- a piecewise-linear density (uniform, or through
  a few random knots) on a sub-interval of [lo, hi] (often all of it);
* ``PiecewiseLinearMap(lipschitz=L, domain=(lo, hi), pieces=(1, 4))`` -- a continuous piecewise-linear function
  on [lo, hi] with every |slope| <= L (checked exactly; ``lipschitz=None``: no bound).

A value is :class:`Knots` (the knots and the values at them, floats as drawn and written); a formula sees the
exact object of :mod:`numerics.piecewise` (every float taken at its exact binary value, a density's heights
normalized exactly), so ``E f(X)``, ``Var f(X)`` and ``P(|f(X) - m| > e)`` are exact rationals, handed to the
backend by :func:`as_backend`::

    @quantity(differentiable=False)
    def var_f(s, xp):
        return as_backend(pw.variance(s.X, s.f), xp)

    family = Family("maps of densities", dims={},
                    parts={"X": Density(), "f": PiecewiseLinearMap(lipschitz=1.0), "eps": Scalar(0.01, 1.0)},
                    quantities=(var_f,))

(:func:`as_rational` reads a backend scalar such as ``s.eps`` back exactly; give a map the domain of the density
it is applied to -- a density reaching outside the map's domain raises ValueError.) Neither part is moved by the
torch adversary (``continuous = False``); declare their quantities ``differentiable=False``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

import mpmath
import numpy as np
from flint import arb, fmpq
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics import piecewise as pw
from numerics.arb import workprec
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.errors import ClaimError
from theorems.subjects.parts import Part

GRID = 4  # knots are drawn at 4 decimals of the domain: pieces no shorter than 1e-4 of it
SCALES = (1.0, 0.1, 10.0)  # slope bounds drawn for a map without a Lipschitz bound


# -- exact values in a backend ------------------------------------------------------------------------------
def as_backend(value: Any, xp: Backend) -> Any:
    """An exact rational (sympy Rational, Fraction, int) in backend ``xp``: float64 -> float (correctly rounded),
    mpmath -> mpf rounded once at the working precision, arb -> a ball containing it, torch -> a float64 tensor."""
    q = pw.as_fraction(pw.exact(value))
    if xp.name == "mpmath":
        with xp.precision():
            return mpmath.mpf(mpmath.libmp.from_rational(q.numerator, q.denominator, mpmath.mp.prec, "n"))
    if xp.name == "arb":
        with workprec(xp.prec):  # type: ignore[attr-defined]
            return arb(fmpq(q.numerator, q.denominator))
    if xp.name == "float64":
        return float(q)
    return xp.asarray(float(q))


def as_rational(v: Any) -> Fraction:
    """A backend scalar (float, numpy, mpf, exact arb ball, tensor) as the exact rational it holds."""
    if hasattr(v, "detach"):  # torch
        v = float(v.detach())
    if isinstance(v, np.ndarray):
        v = v.item()
    if hasattr(v, "item") and not isinstance(v, (int, float)):
        v = v.item()
    if isinstance(v, arb):
        if not v.is_exact():
            raise ValueError(f"{v} is not an exact ball")
        v = v.mid().man_exp()
        return Fraction(int(v[0])) * Fraction(2) ** int(v[1])
    if isinstance(v, mpmath.mpf):
        man, exp = v.man_exp
        return Fraction(int(man)) * Fraction(2) ** int(exp)
    if isinstance(v, float) and not math.isfinite(v):
        raise ValueError(f"{v!r} is not finite")
    return Fraction(v)


# -- the value ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Knots:
    """Knots ``xs`` (increasing) and the values ``ys`` at them, as floats."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "xs", tuple(float(x) for x in self.xs))
        object.__setattr__(self, "ys", tuple(float(y) for y in self.ys))

    def slopes(self) -> list[Fraction]:
        """The exact slopes (the floats at their exact values)."""
        x, y = [Fraction(v) for v in self.xs], [Fraction(v) for v in self.ys]
        return [(y[i + 1] - y[i]) / (x[i + 1] - x[i]) for i in range(len(x) - 1)]


def _cuts(us: list[float], full: bool) -> list[float]:
    cuts = sorted({round(u, GRID) for u in us})
    if len(cuts) < 2:
        cuts = [0.0, 1.0]
    if full:
        cuts[0], cuts[-1] = 0.0, 1.0
    return cuts


def _bounds(value: int | tuple[int, int], name: str) -> tuple[int, int]:
    lo, hi = (1, value) if isinstance(value, int) else value
    if not 1 <= int(lo) <= int(hi):
        raise ClaimError(f"{name}: pieces = {value!r} needs 1 <= min <= max")
    return int(lo), int(hi)


class _Knotted(Part):
    """What both parts share: knots on a domain, their checks, JSON, shrinking by dropping a knot."""

    domain: tuple[float, float]
    pieces: tuple[int, int]
    continuous = False  # the torch adversary does not move it
    full_domain = True  # the knots span the whole domain

    def _setup(self, name: str) -> None:
        lo, hi = (float(v) for v in self.domain)
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ClaimError(f"{name}(domain={self.domain!r}): need finite lo < hi")
        object.__setattr__(self, "domain", (lo, hi))
        object.__setattr__(self, "pieces", _bounds(self.pieces, name))

    def _xs(self, cuts: list[float]) -> tuple[float, ...]:
        lo, hi = self.domain
        return tuple(lo if u == 0 else hi if u == 1 else lo + (hi - lo) * u for u in cuts)

    def _problem(self, value: Any) -> str | None:
        """What is wrong with the value (None: valid)."""
        if not isinstance(value, Knots):
            return f"is a {type(value).__name__}, not Knots"
        xs, ys = value.xs, value.ys
        lo, hi = self.domain
        if len(xs) != len(ys) or not self.pieces[0] <= len(xs) - 1 <= self.pieces[1]:
            return f"has {len(xs)} knots and {len(ys)} values; need {self.pieces[0] + 1}..{self.pieces[1] + 1} of each"
        if not all(map(math.isfinite, xs + ys)):
            return "has a NaN or infinite knot or value"
        if any(b <= a for a, b in zip(xs, xs[1:])):
            return f"knots {list(xs)} are not increasing"
        if xs[0] < lo or xs[-1] > hi or (self.full_domain and (xs[0] != lo or xs[-1] != hi)):
            return f"knots span [{xs[0]}, {xs[-1]}], not {'' if self.full_domain else 'within '}[{lo}, {hi}]"
        return None

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        problem = self._problem(value)
        if problem:
            raise AssumptionError(f"part {name!r} {problem}")

    def _valid(self, value: Knots) -> bool:
        return self._problem(value) is None

    def _dropped(self, value: Knots) -> Iterable[Knots]:
        """The value without one interior knot."""
        for i in range(1, len(value.xs) - 1):
            yield Knots(value.xs[:i] + value.xs[i + 1:], value.ys[:i] + value.ys[i + 1:])

    def _rounded(self, value: Knots) -> Iterable[Knots]:
        for digits in (0, 1, 3):
            yield Knots(value.xs, tuple(round(y, digits) for y in value.ys))
            yield Knots((value.xs[0], *(round(x, digits) for x in value.xs[1:-1]), value.xs[-1]), value.ys)

    def _proposals(self, value: Knots, first: Iterable[Knots]) -> Iterable[Knots]:
        seen = {value}
        for v in (*first, *self._dropped(value), *self._rounded(value)):
            if v not in seen and self._valid(v):
                seen.add(v)
                yield v

    def size_of(self, value: Any) -> int:
        return 2 * len(value.xs)

    def nonzero(self, value: Any) -> int:
        return len(value.xs) + sum(1 for y in value.ys if y != 0)

    def to_json(self, value: Any) -> Any:
        return {"xs": list(value.xs), "ys": list(value.ys)}

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        """Exact JSON types: ``{"xs": [...], "ys": [...]}`` of equal lengths within the part's pieces + 1."""
        jf.fields(data, ("xs", "ys"), (), where, f"values.{name}")
        knots = (self.pieces[0] + 1, self.pieces[1] + 1)
        xs = jf.real_array(data["xs"], f"values.{name}.xs", (knots,), where, ("knots",))
        ys = jf.real_array(data["ys"], f"values.{name}.ys", (len(xs),), where, ("knots",))
        return Knots(tuple(xs.tolist()), tuple(ys.tolist()))

    def from_json(self, data: Any) -> Any:
        return self.read(data, (), type(self).__name__, "")

    def describe(self, value: Any) -> str:
        return "[" + ", ".join(f"({x:.4g}, {y:.4g})" for x, y in zip(value.xs, value.ys)) + "]"


@dataclass(frozen=True)
class Density(_Knotted):
    """A density proportional to the piecewise-linear heights ``ys`` >= 0 at knots ``xs`` inside ``domain``
    (``pieces``: (min, max) linear pieces). ``uniform``: True for constant heights only, False for none, None
    for both. Half the draws span the whole domain, the others a sub-interval (the density jumps at its ends)."""

    domain: tuple[float, float] = (0.0, 1.0)
    pieces: int | tuple[int, int] = (1, 3)
    uniform: bool | None = None
    kind = "density"
    full_domain = False

    def __post_init__(self) -> None:
        self._setup("Density")
        if self.uniform not in (None, True, False):
            raise ClaimError(f"Density(uniform={self.uniform!r}): use None, True or False")

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        @st.composite
        def densities(draw: Any) -> Knots:
            n = draw(st.integers(*self.pieces))
            cuts = _cuts(draw(st.lists(st.floats(0.0, 1.0), min_size=n + 1, max_size=n + 1)), draw(st.booleans()))
            flat = self.uniform if self.uniform is not None else draw(st.booleans())
            height = st.one_of(st.just(0.0), st.floats(0.0, 1.0))
            ys = [1.0] * len(cuts) if flat else draw(st.lists(height, min_size=len(cuts), max_size=len(cuts)))
            if not any(a + b > 0 for a, b in zip(ys, ys[1:])):
                ys = [1.0] * len(cuts)
            return Knots(self._xs(cuts), tuple(ys))

        return densities().filter(self._valid)

    def _problem(self, value: Any) -> str | None:
        problem = super()._problem(value)
        if problem:
            return problem
        ys = value.ys
        if any(y < 0 for y in ys) or not any(a + b > 0 for a, b in zip(ys, ys[1:])):
            return f"heights {list(ys)} must be >= 0 with a positive integral"
        if self.uniform is not None and self.uniform != (len(set(ys)) == 1):
            return f"heights {list(ys)} must {'' if self.uniform else 'not '}be constant"
        return None

    def simpler(self, value: Any) -> Iterable[Any]:
        lo, hi = self.domain
        flat = Knots(value.xs, (1.0,) * len(value.xs))
        return self._proposals(value, (Knots((lo, hi), (1.0, 1.0)), flat))

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """The exact density (:class:`numerics.piecewise.PiecewiseLinearDensity`, normalized), in every backend."""
        return pw.PiecewiseLinearDensity(value.xs, value.ys, normalize=True)

    def describe(self, value: Any) -> str:
        return "density ~ " + super().describe(value)


@dataclass(frozen=True)
class PiecewiseLinearMap(_Knotted):
    """A continuous piecewise-linear function on ``domain`` with ``pieces`` (min, max) linear pieces and every
    |slope| <= ``lipschitz`` exactly (None: slopes drawn at the scales 1, 0.1, 10 and not bounded)."""

    lipschitz: float | None = 1.0
    domain: tuple[float, float] = (0.0, 1.0)
    pieces: int | tuple[int, int] = (1, 4)
    kind = "piecewise-linear map"

    def __post_init__(self) -> None:
        self._setup("PiecewiseLinearMap")
        if self.lipschitz is not None and not (math.isfinite(self.lipschitz) and self.lipschitz >= 0):
            raise ClaimError(f"PiecewiseLinearMap(lipschitz={self.lipschitz!r}): need a finite bound >= 0 or None")

    def _values(self, xs: tuple[float, ...], y0: float, slopes: list[float]) -> tuple[float, ...]:
        """ys from y0 and the slopes, each step shrunk until its exact slope is within the bound."""
        ys = [y0]
        for x0, x1, s in zip(xs, xs[1:], slopes):
            y = ys[-1] + s * (x1 - x0)
            for _ in range(8):
                if self._slope_ok(x0, x1, ys[-1], y):
                    break
                s *= 1 - 1e-9
                y = ys[-1] + s * (x1 - x0)
            else:
                y = ys[-1]
            ys.append(y)
        return tuple(ys)

    def _slope_ok(self, x0: float, x1: float, y0: float, y1: float) -> bool:
        if self.lipschitz is None:
            return math.isfinite(y1)
        return abs(Fraction(y1) - Fraction(y0)) <= Fraction(self.lipschitz) * (Fraction(x1) - Fraction(x0))

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        lo, hi = self.domain

        @st.composite
        def maps(draw: Any) -> Knots:
            n = draw(st.integers(*self.pieces))
            xs = self._xs(_cuts(draw(st.lists(st.floats(0.0, 1.0), min_size=n - 1, max_size=n - 1)) + [0.0, 1.0],
                                True))
            bound = self.lipschitz if self.lipschitz is not None else draw(st.sampled_from(SCALES))
            slopes = draw(st.lists(st.one_of(st.sampled_from([0.0, 1.0, -1.0]), st.floats(-1.0, 1.0)),
                                   min_size=len(xs) - 1, max_size=len(xs) - 1))
            y0 = draw(st.floats(-1.0, 1.0)) * bound * (hi - lo)
            return Knots(xs, self._values(xs, y0, [s * bound for s in slopes]))

        return maps().filter(self._valid)

    def _problem(self, value: Any) -> str | None:
        problem = super()._problem(value)
        if problem or self.lipschitz is None:
            return problem
        steep = [s for s in value.slopes() if abs(s) > Fraction(self.lipschitz)]
        return f"has slope {float(steep[0]):.6g} steeper than {self.lipschitz}" if steep else None

    def simpler(self, value: Any) -> Iterable[Any]:
        return self._proposals(value, (Knots(value.xs, (0.0,) * len(value.xs)),))

    def to_backend(self, value: Any, xp: Backend) -> Any:
        """The exact function (:class:`numerics.piecewise.PiecewiseLinear`), in every backend."""
        return pw.PiecewiseLinear(value.xs, value.ys)

    def describe(self, value: Any) -> str:
        return "f through " + super().describe(value)


__all__ = ["Density", "Knots", "PiecewiseLinearMap", "as_backend", "as_rational"]
