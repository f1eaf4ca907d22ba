"""Exact 1-D piecewise-linear functions and densities, and their moments and tail probabilities.

Breakpoints and values are sympy expressions: exact rationals (ints, Fractions, floats taken at their exact
binary value), or expressions in ONE parameter symbol t (``t``, ``1/2 - t``, ``t**2``). With a parameter every
comparison -- the order of two breakpoints, the side a crossing point falls on, the sign of a slope -- is decided
near the parameter's limit (``near=(t, 0, "+")``, ``(t, sympy.oo)``) by the sign of the expression's leading
term there (:class:`Near`), so a result is an exact closed form valid on a neighbourhood of the limit and
``sympy.limit`` of a ratio of two results is a certified limit. An expression whose sign cannot be decided
there (identically 0 where a strict order is needed) raises ``ValueError`` naming it. No float is used.

* :class:`PiecewiseLinear` -- a continuous function through points (``bump`` builds a hat);
* :class:`PiecewiseLinearDensity`, :class:`Uniform`, :class:`DensityMixture` -- densities on an interval;
* :func:`expectation`, :func:`variance`, :func:`probability` (and :func:`prob_above`, :func:`prob_below`,
  :func:`prob_deviation`) of f(X) for X ~ a density -- exact;
* :func:`certified_expectation` -- an arb enclosure of E g(f(X)) for a non-polynomial g (exp, log);
* :class:`UniformBox` with :func:`box_expectation` and :func:`box_prob_above` -- an affine map of a uniform
  point of a box.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

import sympy
from flint import acb, arb, fmpq

from numerics.arb import lower_float, upper_float, workprec
from numerics.enclosure import Enclosure

Expr = sympy.Expr


# -- exact numbers and signs near a limit -------------------------------------------------------------------
def exact(v: Any) -> Expr:
    """``v`` as an exact sympy number or expression (a float at its exact binary value; no bool, no NaN)."""
    if isinstance(v, bool):
        raise TypeError("a bool is not a number")
    if hasattr(v, "item") and not isinstance(v, sympy.Basic):  # numpy scalar
        v = v.item()
    if isinstance(v, int):
        return sympy.Integer(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} is not a finite number")
        return sympy.Rational(*v.as_integer_ratio())
    if isinstance(v, Fraction):
        return sympy.Rational(v.numerator, v.denominator)
    if isinstance(v, sympy.Basic):
        return sympy.sympify(v)
    raise TypeError(f"{v!r} ({type(v).__name__}) is not an exact number or sympy expression")


def as_fraction(v: Expr) -> Fraction:
    """A rational sympy number as a Fraction (ValueError for anything else)."""
    v = sympy.sympify(v)
    if not v.is_Rational:
        raise ValueError(f"{v} is not a rational number")
    return Fraction(int(v.p), int(v.q))


def _tidy(e: Expr) -> Expr:
    return e if e.is_Rational else sympy.cancel(sympy.together(e))


def _number_sign(e: Expr, what: Expr) -> int:
    if e.is_Rational:
        return (e.p > 0) - (e.p < 0)
    if e.is_zero:
        return 0
    if e.is_positive:
        return 1
    if e.is_negative:
        return -1
    raise ValueError(f"cannot decide the sign of {what}")


def _lowest_coefficient(p: Expr, s: sympy.Symbol) -> Expr:
    terms = sympy.Poly(p, s).terms()  # highest degree first
    c = terms[-1][1]
    if c.free_symbols:
        raise sympy.PolynomialError(f"coefficient {c} is not a number")
    return c


@functools.lru_cache(maxsize=8192)
def _sign_near(e: Expr, t: sympy.Symbol, point: Expr, direction: str) -> int:
    s = sympy.Dummy("s", positive=True)
    sub = 1 / s if point == sympy.oo else -1 / s if point == -sympy.oo else point + s if direction == "+" else point - s
    moved = sympy.cancel(sympy.together(e.subs(t, sub)))
    if moved == 0:
        return 0
    try:  # a rational function of s: the lowest-order coefficients of numerator and denominator decide
        num, den = sympy.fraction(moved)
        return _number_sign(_lowest_coefficient(num, s) * _lowest_coefficient(den, s), e)
    except sympy.PolynomialError:
        pass
    try:  # algebraic (sqrt(t), t**(1/3)): the coefficient of the leading term
        c, _ = moved.leadterm(s)
        if not c.free_symbols and c != 0:
            return _number_sign(c, e)
    except (ValueError, NotImplementedError, TypeError):
        pass
    lim = sympy.limit(sympy.sign(moved), s, 0, "+")
    if lim in (-1, 1):
        return int(lim)
    raise ValueError(f"cannot decide the sign of {e} near {t} -> {point}{direction}")


@dataclass(frozen=True)
class Near:
    """Where comparisons are decided: ``symbol`` -> ``point`` from side ``direction`` ("+" or "-"; ignored at
    +-oo). ``sign(e)`` is the sign e eventually has there."""

    symbol: sympy.Symbol
    point: Expr = sympy.Integer(0)
    direction: str = "+"

    def __post_init__(self) -> None:
        if not isinstance(self.symbol, sympy.Symbol) or self.direction not in ("+", "-"):
            raise ValueError(f"near=({self.symbol}, {self.point}, {self.direction!r}): need a Symbol and '+' or '-'")
        object.__setattr__(self, "point", sympy.sympify(self.point))

    def sign(self, e: Expr) -> int:
        e = sympy.sympify(e)
        if not e.free_symbols:
            return _number_sign(e, e)
        if e.free_symbols != {self.symbol}:
            raise ValueError(f"{e} has symbols other than the parameter {self.symbol}")
        return _sign_near(e, self.symbol, self.point, self.direction)

    def __str__(self) -> str:
        return f"{self.symbol} -> {self.point}{'' if self.point.is_infinite else self.direction}"


NearSpec = Near | tuple[Any, ...] | None


def as_near(spec: NearSpec) -> Near | None:
    """``None``, a :class:`Near` or a tuple ``(t, point)`` / ``(t, point, "+")``."""
    return spec if spec is None or isinstance(spec, Near) else Near(*spec)


def sign(e: Any, near: NearSpec = None) -> int:
    """The sign of ``e`` (-1, 0, 1): exactly for a number, eventually near the limit for an expression in t."""
    e = exact(e)
    n = as_near(near)
    if e.free_symbols and n is None:
        raise ValueError(f"{e} depends on {sorted(map(str, e.free_symbols))}: pass near=(t, point, side)")
    return n.sign(e) if n is not None else _number_sign(e, e)


def _joint(*nears: NearSpec) -> Near | None:
    found = {n for n in map(as_near, nears) if n is not None}
    if len(found) > 1:
        raise ValueError(f"objects decided near different limits: {', '.join(map(str, found))}")
    return found.pop() if found else None


def _strict(lo: Expr, hi: Expr, near: Near | None, what: str) -> None:
    if sign(hi - lo, near) <= 0:
        raise ValueError(f"{what}: need {lo} < {hi}" + (f" near {near}" if near else "") + f" ({hi - lo} is not > 0)")


def _sorted_points(points: Iterable[Expr], near: Near | None) -> list[Expr]:
    """Sorted, the (eventually) equal ones merged."""
    out: list[Expr] = []
    for p in sorted(points, key=functools.cmp_to_key(lambda a, b: sign(a - b, near))):
        if not out or sign(p - out[-1], near) != 0:
            out.append(p)
    return out


def _lerp(x0: Expr, x1: Expr, y0: Expr, y1: Expr, x: Expr) -> Expr:
    return _tidy(y0 + (y1 - y0) * (x - x0) / (x1 - x0))


# -- functions ----------------------------------------------------------------------------------------------
class PiecewiseLinear:
    """The continuous function through (xs[i], ys[i]) on [xs[0], xs[-1]] (xs increasing, decided ``near``)."""

    def __init__(self, xs: Sequence[Any], ys: Sequence[Any], near: NearSpec = None) -> None:
        self.xs, self.ys, self.near = tuple(map(exact, xs)), tuple(map(exact, ys)), as_near(near)
        if len(self.xs) < 2 or len(self.xs) != len(self.ys):
            raise ValueError(f"PiecewiseLinear needs >= 2 points and as many values ({len(self.xs)}, {len(self.ys)})")
        for a, b in zip(self.xs, self.xs[1:]):
            _strict(a, b, self.near, "PiecewiseLinear breakpoints")

    @classmethod
    def bump(cls, center: Any, height: Any, halfwidth: Any, domain: tuple[Any, Any] = (0, 1),
             near: NearSpec = None) -> "PiecewiseLinear":
        """The hat max(0, height (1 - |x - center| / halfwidth)) on ``domain`` (for height = halfwidth:
        max(0, h - |x - c|))."""
        c, h, w = exact(center), exact(height), exact(halfwidth)
        return cls([c - w, c, c + w], [0, h, 0], near).restricted(*domain)

    @classmethod
    def constant(cls, value: Any, domain: tuple[Any, Any] = (0, 1), near: NearSpec = None) -> "PiecewiseLinear":
        return cls(domain, (value, value), near)

    @property
    def domain(self) -> tuple[Expr, Expr]:
        return self.xs[0], self.xs[-1]

    def _at(self, x: Expr) -> Expr:
        """f(x), extended by its end values outside its domain."""
        if sign(x - self.xs[0], self.near) <= 0:
            return self.ys[0]
        for i in range(len(self.xs) - 1):
            if sign(self.xs[i + 1] - x, self.near) >= 0:
                return _lerp(self.xs[i], self.xs[i + 1], self.ys[i], self.ys[i + 1], x)
        return self.ys[-1]

    def __call__(self, x: Any) -> Expr:
        x = exact(x)
        lo, hi = self.domain
        if sign(x - lo, self.near) < 0 or sign(hi - x, self.near) < 0:
            raise ValueError(f"{x} is outside the domain [{lo}, {hi}]")
        return self._at(x)

    def restricted(self, lo: Any, hi: Any) -> "PiecewiseLinear":
        """The function on [lo, hi] (beyond its own domain: its end values)."""
        lo, hi = exact(lo), exact(hi)
        _strict(lo, hi, self.near, "restricted")
        inner = [x for x in self.xs if sign(x - lo, self.near) > 0 and sign(hi - x, self.near) > 0]
        xs = [lo, *inner, hi]
        return PiecewiseLinear(xs, [self._at(x) for x in xs], self.near)

    def slopes(self) -> tuple[Expr, ...]:
        return tuple(_tidy((y1 - y0) / (x1 - x0))
                     for x0, x1, y0, y1 in zip(self.xs, self.xs[1:], self.ys, self.ys[1:]))

    def lipschitz(self) -> Expr:
        """max |slope| (the smallest Lipschitz constant)."""
        mags = [s if sign(s, self.near) >= 0 else -s for s in self.slopes()]
        return functools.reduce(lambda a, b: a if sign(a - b, self.near) >= 0 else b, mags)

    def __repr__(self) -> str:
        return f"PiecewiseLinear(xs={list(self.xs)}, ys={list(self.ys)})"


# -- densities ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """The density on (a, b) is linear from ``pa`` (at a+) to ``pb`` (at b-)."""

    a: Expr
    b: Expr
    pa: Expr
    pb: Expr

    def at(self, x: Expr) -> Expr:
        return _lerp(self.a, self.b, self.pa, self.pb, x)


class _Density:
    """A piecewise-linear density (possibly discontinuous at its breakpoints): ``pieces`` cover its support."""

    pieces: tuple[Piece, ...]
    near: Near | None

    @property
    def support(self) -> tuple[Expr, Expr]:
        return self.pieces[0].a, self.pieces[-1].b

    def breakpoints(self) -> list[Expr]:
        return [self.pieces[0].a, *(p.b for p in self.pieces)]

    def mass(self) -> Expr:
        return _tidy(sum(((p.b - p.a) * (p.pa + p.pb) / 2 for p in self.pieces), sympy.Integer(0)))


class PiecewiseLinearDensity(_Density):
    """The density through (xs[i], ps[i]) (ps >= 0); ``normalize``: divided by its integral, else it must be 1."""

    def __init__(self, xs: Sequence[Any], ps: Sequence[Any], normalize: bool = False, near: NearSpec = None) -> None:
        f = PiecewiseLinear(xs, ps, near)
        self.near = f.near
        for p in f.ys:
            if sign(p, self.near) < 0:
                raise ValueError(f"density value {p} is negative")
        self.pieces = tuple(Piece(a, b, pa, pb) for a, b, pa, pb in zip(f.xs, f.xs[1:], f.ys, f.ys[1:]))
        total = self.mass()
        if normalize:
            if sign(total, self.near) <= 0:
                raise ValueError(f"density integrates to {total}, cannot normalize")
            self.pieces = tuple(Piece(p.a, p.b, _tidy(p.pa / total), _tidy(p.pb / total)) for p in self.pieces)
        elif _tidy(total - 1) != 0:
            raise ValueError(f"density integrates to {total}, not 1 (pass normalize=True)")

    def __repr__(self) -> str:
        return f"PiecewiseLinearDensity({[(p.a, p.pa, p.pb) for p in self.pieces]}, b={self.support[1]})"


class Uniform(PiecewiseLinearDensity):
    """The uniform density on [a, b]."""

    def __init__(self, a: Any, b: Any, near: NearSpec = None) -> None:
        a, b = exact(a), exact(b)
        super().__init__([a, b], [1 / (b - a)] * 2, near=near)


class DensityMixture(_Density):
    """sum_j w_j p_j for densities p_j and weights w_j >= 0 summing to 1 (exactly)."""

    def __init__(self, components: Sequence[tuple[Any, _Density]], near: NearSpec = None) -> None:
        if not components:
            raise ValueError("DensityMixture needs at least one component")
        weights = [exact(w) for w, _ in components]
        dens = [d for _, d in components]
        self.near = _joint(near, *(d.near for d in dens))
        if any(sign(w, self.near) < 0 for w in weights) or _tidy(sum(weights) - 1) != 0:
            raise ValueError(f"mixture weights {weights} must be >= 0 and sum to 1")
        points = _sorted_points([x for d in dens for x in d.breakpoints()], self.near)
        pieces = []
        for u, v in zip(points, points[1:]):
            pa = pb = sympy.Integer(0)
            for w, d in zip(weights, dens):
                piece = _covering(d.pieces, u, v, self.near)
                if piece is not None:
                    pa, pb = pa + w * piece.at(u), pb + w * piece.at(v)
            pieces.append(Piece(u, v, _tidy(pa), _tidy(pb)))
        self.pieces = tuple(pieces)


def _covering(pieces: Sequence[Piece], u: Expr, v: Expr, near: Near | None) -> Piece | None:
    """The piece containing (u, v) (a sub-interval of the common refinement), None outside the support."""
    for p in pieces:
        if sign(u - p.a, near) >= 0 and sign(p.b - v, near) >= 0:
            return p
    return None


# -- exact functionals --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Cell:
    """A sub-interval of length h on which the density goes linearly pa -> pb and f goes fa -> fb."""

    h: Expr
    pa: Expr
    pb: Expr
    fa: Expr
    fb: Expr

    def mass(self, v0: Expr, v1: Expr) -> Expr:
        """The density's mass over the local coordinates [v0, v1] of [0, 1]."""
        return self.h * (self.pa * (v1 - v0) + (self.pb - self.pa) * (v1 ** 2 - v0 ** 2) / 2)


def _cells(density: _Density, f: PiecewiseLinear, near: NearSpec) -> tuple[list[_Cell], Near | None]:
    n = _joint(near, density.near, f.near)
    (lo, hi), (flo, fhi) = density.support, f.domain
    if sign(lo - flo, n) < 0 or sign(fhi - hi, n) < 0:
        raise ValueError(f"the density's support [{lo}, {hi}] is not inside f's domain [{flo}, {fhi}]")
    inner = [x for x in f.xs if sign(x - lo, n) > 0 and sign(hi - x, n) > 0]
    points = _sorted_points([*density.breakpoints(), *inner], n)
    cells = []
    for u, v in zip(points, points[1:]):
        p = _covering(density.pieces, u, v, n)
        if p is None:
            continue
        cells.append(_Cell(_tidy(v - u), p.at(u), p.at(v), f._at(u), f._at(v)))
    return cells, n


def expectation(density: _Density, f: PiecewiseLinear, power: int = 1, near: NearSpec = None) -> Expr:
    """E f(X)^power for X ~ ``density`` (exact: a polynomial integrated on each common sub-interval)."""
    if isinstance(power, bool) or not isinstance(power, int) or power < 0:
        raise ValueError(f"power = {power!r} must be an integer >= 0")
    cells, _ = _cells(density, f, near)
    total = sympy.Integer(0)
    for c in cells:  # h * int_0^1 (pa + dp v) (fa + df v)^k dv
        dp, df = c.pb - c.pa, c.fb - c.fa
        total += c.h * sum((sympy.binomial(power, j) * c.fa ** (power - j) * df ** j
                            * (c.pa / (j + 1) + dp / sympy.Integer(j + 2)) for j in range(power + 1)), sympy.Integer(0))
    return _tidy(total)


def variance(density: _Density, f: PiecewiseLinear, near: NearSpec = None) -> Expr:
    """Var f(X) = E f(X)^2 - (E f(X))^2."""
    return _tidy(expectation(density, f, 2, near) - expectation(density, f, 1, near) ** 2)


def _tail(cells: Sequence[_Cell], c: Expr, side: int, near: Near | None) -> Expr:
    """P(side * (f(X) - c) > 0), the crossing point of each cell solved exactly."""
    total = sympy.Integer(0)
    for cell in cells:
        ga, gb = side * (cell.fa - c), side * (cell.fb - c)
        sa, sb = sign(ga, near), sign(gb, near)
        if sa >= 0 and sb >= 0 and (sa or sb):
            total += cell.mass(sympy.Integer(0), sympy.Integer(1))
        elif sa * sb < 0:
            cross = _tidy(ga / (ga - gb))
            total += cell.mass(cross, sympy.Integer(1)) if sb > 0 else cell.mass(sympy.Integer(0), cross)
    return _tidy(total)


def probability(density: _Density, f: PiecewiseLinear, lower: Any = None, upper: Any = None,
                near: NearSpec = None) -> Expr:
    """P(f(X) < lower or f(X) > upper) (a side whose bound is None is empty; lower <= upper)."""
    cells, n = _cells(density, f, near)
    lo = None if lower is None else exact(lower)
    hi = None if upper is None else exact(upper)
    if lo is not None and hi is not None and sign(hi - lo, n) < 0:
        raise ValueError(f"lower = {lo} > upper = {hi}")
    total = sympy.Integer(0)
    if lo is not None:
        total += _tail(cells, lo, -1, n)
    if hi is not None:
        total += _tail(cells, hi, 1, n)
    return _tidy(total)


def prob_above(density: _Density, f: PiecewiseLinear, c: Any, near: NearSpec = None) -> Expr:
    """P(f(X) > c)."""
    return probability(density, f, upper=c, near=near)


def prob_below(density: _Density, f: PiecewiseLinear, c: Any, near: NearSpec = None) -> Expr:
    """P(f(X) < c)."""
    return probability(density, f, lower=c, near=near)


def prob_deviation(density: _Density, f: PiecewiseLinear, m: Any, e: Any, near: NearSpec = None) -> Expr:
    """P(|f(X) - m| > e) for e >= 0."""
    m, e = exact(m), exact(e)
    if sign(e, _joint(near, density.near, f.near)) < 0:
        raise ValueError(f"deviation {e} is negative")
    return probability(density, f, lower=m - e, upper=m + e, near=near)


# -- certified expectations of non-polynomial functions -----------------------------------------------------
#: g by name: (z, analytic) -> g(z) on acb balls (analytic: the integrator asks for a holomorphy check)
G_BY_NAME: dict[str, Callable[[acb, bool], acb]] = {
    "exp": lambda z, analytic: z.exp(),
    "log": lambda z, analytic: z.log(analytic=analytic),
    "sqrt": lambda z, analytic: z.sqrt(analytic=analytic),
    "log1p_exp": lambda z, analytic: (1 + z.exp()).log(analytic=analytic),  # softplus
}


def _ball(q: Expr) -> arb:
    f = as_fraction(q)
    return arb(fmpq(f.numerator, f.denominator))


def certified_expectation(density: _Density, g: str | Callable[[acb, bool], acb], f: PiecewiseLinear,
                          prec: int = 128) -> Enclosure:
    """An enclosure (alpha = 0) of E g(f(X)) computed with arb (``acb.integral`` on each common sub-interval);
    ``g`` a name in :data:`G_BY_NAME` or a function (z: acb, analytic: bool) -> acb. Rational inputs only."""
    fn = G_BY_NAME[g] if isinstance(g, str) else g
    cells, n = _cells(density, f, None)
    if n is not None:
        raise ValueError("certified_expectation takes rational breakpoints and values (no parameter)")
    with workprec(prec):
        total = arb(0)
        for c in cells:
            if c.pa == 0 and c.pb == 0:
                continue  # no mass: g(f) need not be defined there
            h, pa, dp, fa, df = (_ball(q) for q in (c.h, c.pa, c.pb - c.pa, c.fa, c.fb - c.fa))
            if c.fb == c.fa:
                part = (h * (pa + dp / 2) * fn(acb(fa), False)).real
            else:
                part = (acb.integral(lambda v, analytic: (pa + dp * v) * fn(fa + df * v, analytic), 0, 1) * h).real
            total += part
        if not total.is_finite():
            raise ValueError(f"E g(f(X)) is not finite here (g undefined or unbounded on f's range): {total}")
        return Enclosure(float(lower_float(total)), float(upper_float(total)), 0.0, f"arb, {prec} bits")


# -- boxes --------------------------------------------------------------------------------------------------
class UniformBox:
    """The uniform distribution on the box prod_i [a_i, b_i] (a_i < b_i, decided ``near``)."""

    def __init__(self, bounds: Sequence[tuple[Any, Any]], near: NearSpec = None) -> None:
        self.bounds = tuple((exact(a), exact(b)) for a, b in bounds)
        self.near = as_near(near)
        if not self.bounds:
            raise ValueError("UniformBox needs at least one coordinate")
        for a, b in self.bounds:
            _strict(a, b, self.near, "UniformBox side")

    def _affine(self, w: Sequence[Any], b: Any) -> tuple[list[Expr], Expr]:
        if len(w) != len(self.bounds):
            raise ValueError(f"w has {len(w)} coordinates, the box {len(self.bounds)}")
        return [exact(x) for x in w], exact(b)


def box_expectation(box: UniformBox, w: Sequence[Any], b: Any, power: int = 1) -> Expr:
    """E (w.X + b)^power for X uniform on the box, power 1 or 2."""
    ws, b0 = box._affine(w, b)
    mean = b0 + sum((wi * (lo + hi) / 2 for wi, (lo, hi) in zip(ws, box.bounds)), sympy.Integer(0))
    if power == 1:
        return _tidy(mean)
    if power == 2:
        return _tidy(mean ** 2 + sum((wi ** 2 * (hi - lo) ** 2 / 12 for wi, (lo, hi) in zip(ws, box.bounds)),
                                     sympy.Integer(0)))
    raise ValueError(f"power = {power!r}: box_expectation takes 1 or 2")


def box_prob_above(box: UniformBox, w: Sequence[Any], b: Any, c: Any, near: NearSpec = None) -> Expr:
    """P(w.X + b > c) for X uniform on the box: the exact volume of the box cut by the half-space, by inclusion-
    exclusion over the box's corners: vol{sum u_i y_i <= r} = sum_S (-1)^|S| (r - sum_S u_i L_i)_+^n / (n! prod u_i)."""
    n = _joint(near, box.near)
    ws, b0 = box._affine(w, b)
    low = b0  # min of w.x + b over the box; then w.x + b = low + sum |w_i| y_i, y_i in [0, L_i]
    us, ls = [], []
    for wi, (lo, hi) in zip(ws, box.bounds):
        s = sign(wi, n)
        low += wi * lo if s >= 0 else wi * hi
        if s != 0:
            us.append(wi if s > 0 else -wi)
            ls.append(hi - lo)
    r = _tidy(exact(c) - low)
    if not us:
        return sympy.Integer(1 if sign(-r, n) > 0 else 0)
    k = len(us)
    below = sympy.Integer(0)
    for chosen in itertools.product((0, 1), repeat=k):
        shift = _tidy(r - sum((u * L for u, L, on in zip(us, ls, chosen) if on), sympy.Integer(0)))
        if sign(shift, n) > 0:
            below += (-1) ** sum(chosen) * shift ** k
    below = below / (sympy.factorial(k) * sympy.Mul(*us) * sympy.Mul(*ls))
    return _tidy(1 - below)


__all__ = ["DensityMixture", "Enclosure", "G_BY_NAME", "Near", "Piece", "PiecewiseLinear", "PiecewiseLinearDensity",
           "Uniform", "UniformBox", "as_fraction", "as_near", "box_expectation", "box_prob_above",
           "certified_expectation", "exact", "expectation", "prob_above", "prob_below", "prob_deviation",
           "probability", "sign", "variance"]
