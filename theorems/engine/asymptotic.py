"""Asymptotic statements: ``lhs = O(g)`` (Omega, Theta) as a parameter tends to a limit -- or with one constant
for every object bound after it -- checked along parametric witness families whose objects the prefix lets depend
on the family's index (../shared/LOGICAL-FORM.md, "Deciding the main theorems", item 1).

A claim declares its asymptotic parts (:class:`Asymptotic`: the expression, the bound, the parameter and its limit
when the sentence has one, and the prefix object that is the hidden constant) and its witness families
(:class:`Parametric`: which prefix objects move with the index, and either closed forms of the quantities in the
index -- valid near its limit -- or their numbers on a grid). The engine measures:

* on a closed-form family, the ratio ``|lhs| / g`` as a sympy expression and its exact limit (``sympy.limit``);
* on a numeric family, the ratio on the grid at 60 digits and the fitted exponent with its standard error;
* on the engine's own families (:mod:`theorems.engine.asymptotic_search`), the tightness search's best ratio at each
  point of a geometric grid of the parameter, its own ascent per point, the objects bound before the constant fixed;

and the verdict authority (:mod:`theorems.engine.rules.asymptotic`) decides: a family that moves an object the
constant may depend on is no witness under that reading; a certified unbounded ratio refutes; a measured growth
alone leaves the claim inconclusive; bounded ratios on every family tried give consistent on those families.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import mpmath
import numpy as np
import sympy

from theorems.engine.errors import ClaimError

NOTATIONS = ("O", "Omega", "Theta")
INDEX = sympy.Symbol("t", positive=True)  # a family's index when neither it nor the part names one


@dataclass(frozen=True)
class Asymptotic:
    """``lhs = <notation>(g)`` as ``parameter`` tends to ``limit`` (from ``direction``), or -- ``parameter`` None --
    ``|lhs| <= c g`` for one constant and every object bound after it. The hidden constant is the prefix object
    ``constant``; it may depend only on what the prefix lets it. ``lhs`` and ``g`` are sympy expressions over
    quantities (and the parameter)."""

    lhs: sympy.Expr
    g: sympy.Expr
    parameter: sympy.Symbol | None = None
    limit: Any = None
    notation: str = "O"
    constant: str = "c"
    label: str = ""
    direction: str = "+"

    def __post_init__(self) -> None:
        object.__setattr__(self, "lhs", sympy.sympify(self.lhs))
        object.__setattr__(self, "g", sympy.sympify(self.g))
        if self.notation not in NOTATIONS:
            raise ClaimError(f"asymptotic part {self}: notation {self.notation!r} must be one of {', '.join(NOTATIONS)}")
        if self.parameter is not None and not isinstance(self.parameter, sympy.Symbol):
            raise ClaimError(f"asymptotic part {self}: the parameter must be a sympy Symbol")
        if (self.parameter is None) != (self.limit is None):
            raise ClaimError(f"asymptotic part {self}: give the parameter and its limit together (or neither: one "
                             "constant for every later object)")
        if self.direction not in ("+", "-"):
            raise ClaimError(f"asymptotic part {self}: direction must be '+' or '-'")

    def __str__(self) -> str:
        if self.label:
            return self.label
        where = f" as {self.parameter} -> {self.limit}" if self.parameter is not None else " (uniform constant)"
        return f"{self.lhs} = {self.notation}({self.g}){where}"

    @property
    def quantities(self) -> set[sympy.Symbol]:
        """The symbols a family must give values of (the parameter aside)."""
        return (self.lhs.free_symbols | self.g.free_symbols) - {self.parameter}


def _make(notation: str) -> Callable[..., Asymptotic]:
    def build(lhs: Any, g: Any, parameter: sympy.Symbol | None = None, limit: Any = None, constant: str = "c",
              label: str = "", direction: str = "+") -> Asymptotic:
        return Asymptotic(lhs, g, parameter, limit, notation, constant, label, direction)
    build.__name__ = {"O": "big_o", "Omega": "big_omega", "Theta": "big_theta"}[notation]
    build.__doc__ = {"O": "``lhs = O(g)``: |lhs| <= c g near the limit, for the prefix's constant c.",
                     "Omega": "``lhs = Omega(g)``: |lhs| >= c g near the limit.",
                     "Theta": "``lhs = Theta(g)``: both."}[notation]
    return build


big_o, big_omega, big_theta = _make("O"), _make("Omega"), _make("Theta")


@dataclass(frozen=True)
class Parametric:
    """A witness family s(t): ``moves`` names the prefix objects it varies with its index t; ``values(t)`` gives
    the part's quantities as sympy expressions in t (closed forms valid near the limit: the ratio's limit is
    exact), or ``sample(t)`` their numbers at a value of t, read on ``grid`` (60 digits; a measured growth, never
    a proof). The index is ``index`` (default: the part's parameter, else ``t``) and tends to ``limit`` (default:
    the part's limit; required for a uniform-constant part). A part with a parameter other than the index needs
    the parameter among the values, tending to its printed limit along the family."""

    name: str
    moves: tuple[str, ...]
    values: Callable[[sympy.Symbol], dict[sympy.Symbol, Any]] | None = None
    sample: Callable[[Any], dict[sympy.Symbol, Any]] | None = None
    grid: tuple[Any, ...] = ()
    index: sympy.Symbol | None = None
    limit: Any = None
    direction: str = "+"
    description: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(self.moves))
        if (self.values is None) == (self.sample is None):
            raise ClaimError(f"parametric family {self.name!r}: give closed forms (values=) or numbers (sample=), "
                             "one of them")
        if self.sample is not None and len(self.grid) < 3:
            raise ClaimError(f"parametric family {self.name!r}: a numeric family needs a grid of at least 3 values")

    def index_for(self, part: Asymptotic) -> tuple[sympy.Symbol, Any, str]:
        """(index symbol, its limit, direction) of this family for ``part``."""
        index = self.index or part.parameter or INDEX
        limit = self.limit if self.limit is not None else part.limit
        if limit is None:
            raise ClaimError(f"parametric family {self.name!r}: the part {part} has no parameter, so the family must "
                             "say where its index tends (limit=)")
        return index, sympy.sympify(limit), self.direction if self.limit is not None else part.direction


@dataclass
class Measurement:
    """What one family gave one asymptotic part: the ratio |lhs|/g, its exact limit (closed forms) or its values on
    a grid and their fit, whether the family is a witness under the prefix and why not."""

    part: str
    family: str
    moves: tuple[str, ...]
    notation: str
    source: str  # "closed form", "grid" or "search"
    valid: bool = True
    why_invalid: str = ""
    ratio: str = ""  # the ratio as a sympy expression in the index (closed forms)
    limit: str = ""  # its exact limit ("oo", "0", "3/8"), "" when none was computed
    index: str = ""
    xs: list[float] = field(default_factory=list)
    ratios: list[float] = field(default_factory=list)
    slope: float | None = None
    stderr: float | None = None
    error: str = ""  # what went wrong computing it (a limit sympy could not take, a quantity undefined)
    verdict: Any = None  # the family's verdict (rules.asymptotic), set by the check
    why: str = ""

    def to_json(self) -> dict[str, Any]:
        out = dict(self.__dict__)
        out["moves"] = list(self.moves)
        out["verdict"] = getattr(self.verdict, "value", self.verdict)
        return out


def _limit(expr: sympy.Expr, index: sympy.Symbol, limit: Any, direction: str) -> sympy.Expr:
    if limit in (sympy.oo, -sympy.oo):
        return sympy.limit(expr, index, limit)
    return sympy.limit(expr, index, limit, direction)


def _decided(value: Any) -> bool:
    return not (isinstance(value, sympy.Limit) or value.has(sympy.AccumBounds) or value is sympy.nan
                or value.has(sympy.nan))


def measure_closed(part: Asymptotic, family: Parametric) -> Measurement:
    """The ratio ``|lhs| / g`` along a closed-form family and its exact limit (sympy); invalid when the part's
    parameter does not tend to its printed limit along the family."""
    index, limit, direction = family.index_for(part)
    out = Measurement(str(part), family.name, family.moves, part.notation, "closed form", index=str(index))
    values = {sym: sympy.sympify(v) for sym, v in family.values(index).items()}
    if part.parameter is not None and part.parameter != index:
        if part.parameter not in values:
            out.valid, out.why_invalid = False, f"the family gives no value of the parameter {part.parameter}"
            return out
        reached = _limit(values[part.parameter], index, limit, direction)
        if not _decided(reached) or sympy.simplify(reached - sympy.sympify(part.limit)) != 0:
            out.valid, out.why_invalid = False, (f"the parameter {part.parameter} tends to {reached}, not to "
                                                 f"{part.limit}, along the family")
            return out
    elif part.parameter == index and sympy.simplify(limit - sympy.sympify(part.limit)) != 0:
        out.valid, out.why_invalid = False, f"the family's index tends to {limit}, not to {part.limit}"
        return out
    missing = sorted(s.name for s in part.quantities if s not in values)
    if missing:
        out.error = f"the family gives no closed form for {', '.join(missing)}"
        return out
    ratio = sympy.simplify(sympy.Abs(part.lhs.subs(values)) / part.g.subs(values))
    out.ratio = str(ratio)
    try:
        reached = _limit(ratio, index, limit, direction)
    except (NotImplementedError, ValueError, TypeError) as exc:
        out.error = f"sympy could not take the limit: {type(exc).__name__}: {exc}"
        return out
    if not _decided(reached):
        out.error = f"sympy could not decide the limit ({reached})"
    else:
        out.limit = str(reached)
    return out


def measure_grid(part: Asymptotic, family: Parametric, dps: int = 60) -> Measurement:
    """The ratio |lhs|/g at each grid value of the family's index, at ``dps`` digits, and its fitted exponent."""
    index, limit, _ = family.index_for(part)
    out = Measurement(str(part), family.name, family.moves, part.notation, "grid", index=str(index))
    with mpmath.workdps(dps):
        for t in family.grid:
            values = dict(family.sample(t))
            values.setdefault(index, t)
            if part.parameter is not None:
                values.setdefault(part.parameter, t)
            try:
                lhs = mpmath.mpf(sympy.N(part.lhs.subs(values), dps))
                g = mpmath.mpf(sympy.N(part.g.subs(values), dps))
            except (TypeError, ValueError) as exc:
                out.error = f"at {index} = {t}: {exc}"
                return out
            if g <= 0 or not mpmath.isfinite(lhs) or not mpmath.isfinite(g):
                out.error = f"at {index} = {t}: g = {mpmath.nstr(g, 6)}, lhs = {mpmath.nstr(lhs, 6)} (g must be > 0)"
                return out
            out.xs.append(float(t))
            out.ratios.append(float(abs(lhs) / g))
    fill_fit(out, limit == 0)
    return out


def fill_fit(m: Measurement, toward_zero: bool) -> None:
    """The fitted growth of ``m.ratios`` toward the index's limit (see :func:`fit`); too few positive points: none."""
    points = [(x, r) for x, r in zip(m.xs, m.ratios) if x > 0 and r > 0 and math.isfinite(r)]
    if len(points) >= 3:
        m.slope, m.stderr = fit([x for x, _ in points], [r for _, r in points], toward_zero)


def fit(xs: Sequence[float], ratios: Sequence[float], toward_zero: bool) -> tuple[float, float]:
    """The log-log slope of the ratio against the index (against 1/t when the limit is 0, so that a positive
    slope always means growth toward the limit) and its standard error."""
    x = np.log(1.0 / np.asarray(xs, dtype=float)) if toward_zero else np.log(np.asarray(xs, dtype=float))
    y = np.log(np.asarray(ratios, dtype=float))
    design = np.vstack([x, np.ones_like(x)]).T
    (slope, _), residual, *_ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(x) - 2
    sigma2 = float(residual[0]) / dof if dof > 0 and residual.size else 0.0
    spread = float(np.sum((x - x.mean()) ** 2))
    return float(slope), (math.sqrt(sigma2 / spread) if spread > 0 else math.inf)


def measure(part: Asymptotic, family: Parametric) -> Measurement:
    """One plugin family's measurement of one part (closed forms or a grid)."""
    return measure_closed(part, family) if family.values is not None else measure_grid(part, family)
