"""Continuous augmentation distributions for Theorem 1 (huang.theorem1.general): subjects and witness families.

The slides' Theorem 1 speaks of any augmentation set A(x) and the expectation E_{x1, x2 in A(x)} over it; the finite
uniform sets of augmented.py (huang.theorem1) are one case. Here:

* a subject is ONE sample x (the data distribution a point mass, so R_eps is 0 or 1) with the augmentation set
  A(x) = [0, 1] and x1, x2 drawn independently from a piecewise-linear density ``data`` on [0, 1] (a
  :class:`~theorems.subjects.Density`: it may charge a sub-interval only or leave a piece uncharged -- the reading
  decides whether that is admissible); the encoder ``f`` is a 1-Lipschitz piecewise-linear map on [0, 1]
  (``L`` = 1: the ratio R_eps^2 eps^2 / L_align is unchanged when f and eps are scaled together, so L = 1 loses
  nothing); ``eps`` in [1e-3, 1];
* R_eps = 1[diam f(A(x)) > eps] (S_eps: every pair of A(x) within eps; the diameter of f over the SET A(x) =
  [0, 1], attained at f's knots), L_align = E ||f(x1) - f(x2)||^2 = 2 Var f(x1) -- both exact (numerics.piecewise);
* the same two functions, fed exact objects in a parameter t near its limit, give the closed forms of the
  witness families (:func:`tent_family`), so a family's values are the subjects' quantities, not retyped.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy

from numerics import piecewise as pw
from theorems import Assumption, Informative, Parametric, quantity
from theorems.subjects import Density, Family, Fixed, PiecewiseLinearMap, Scalar
from theorems.subjects.continuous import Knots, as_backend, as_rational

EPS_RANGE = (1e-3, 1.0)


# -- the exact quantities -------------------------------------------------------------------------------------------
def _extreme(values: tuple[Any, ...], largest: bool, near: Any = None) -> Any:
    """The largest (or smallest) of exact values, compared near the parameter's limit when they hold one."""
    def pick(a: Any, b: Any) -> Any:
        s = pw.sign(a - b, near)
        return a if (s >= 0) == largest else b
    return functools.reduce(pick, values)


def diameter(f: pw.PiecewiseLinear, near: Any = None) -> Any:
    """diam f(A(x)) for A(x) = f's whole domain (1-D, continuous piecewise linear: max - min over its knots)."""
    return sympy.simplify(_extreme(f.ys, True, near) - _extreme(f.ys, False, near))


def r_eps(f: pw.PiecewiseLinear, eps: Any, near: Any = None) -> Any:
    """R_eps of one sample: 1 when some x1, x2 in A(x) have |f(x1) - f(x2)| > eps (x outside S_eps), else 0."""
    return sympy.Integer(1 if pw.sign(diameter(f, near) - pw.exact(eps), near) > 0 else 0)


def l_align(density: Any, f: pw.PiecewiseLinear, near: Any = None) -> Any:
    """L_align = E_{x1, x2 iid density} |f(x1) - f(x2)|^2 = 2 Var f(x1) (exact)."""
    return sympy.Integer(2) * pw.variance(density, f, near=near)


@quantity(range=(0, 1), differentiable=False, doc="R_eps = P[x not in S_eps] of the one sample (0 or 1), exact")
def R_eps(s: Any, xp: Any) -> Any:
    return as_backend(r_eps(s.f, as_rational(s.eps)), xp)


@quantity(range=(0, None), differentiable=False, doc="L_align = E_{x1, x2} |f(x1) - f(x2)|^2 = 2 Var f(x1), exact")
def L_align(s: Any, xp: Any) -> Any:
    return as_backend(l_align(s.data, s.f), xp)


@quantity(range=(0, 1), differentiable=False,
          doc="R_eps where L_align = 0 (else 0): what R_eps^2 <= eta(eps)^2 L_align says there for a finite eta")
def R_eps_unaligned(s: Any, xp: Any) -> Any:
    zero = l_align(s.data, s.f) == 0
    return as_backend(r_eps(s.f, as_rational(s.eps)) if zero else 0, xp)


def _exact_parts(s: Any) -> tuple[Any, Any]:
    """(density, f) as exact objects: a hypothesis sees the subject's raw values (Knots), a formula exact ones."""
    density, f = s.data, s.f
    if isinstance(density, Knots):
        density = pw.PiecewiseLinearDensity(density.xs, density.ys, normalize=True)
    if isinstance(f, Knots):
        f = pw.PiecewiseLinear(f.xs, f.ys)
    return density, f


def _full_support(s: Any) -> bool:
    density, _ = _exact_parts(s)
    lo, hi = density.support
    return lo == 0 and hi == 1 and all(p.pa + p.pb > 0 for p in density.pieces)


FULL_SUPPORT = Assumption(
    "full support on A(x)",
    "the augmentation density charges every sub-interval of A(x) = [0, 1] (its knots span [0, 1], no piece of "
    "zero height at both ends): the distribution of x1, x2 'in A(x)' is spread over all of A(x)", _full_support)


def _aligned(s: Any) -> bool:
    return l_align(*_exact_parts(s)) == 0


ALIGNED = Informative("L_align = 0", _aligned)

# -- the subjects ---------------------------------------------------------------------------------------------------
ZERO_MASS_PART = {"dims": {}, "values": {"data": {"xs": [0.0, 0.5], "ys": [1.0, 1.0]},
                                         "f": {"xs": [0.0, 0.5, 1.0], "ys": [0.0, 0.0, 0.5]},
                                         "L": 1.0, "eps": 0.25}}
"""A(x) = [0, 1], the density 2 on [0, 1/2] and 0 on (1/2, 1]; f = 0 on [0, 1/2], slope 1 after: L_align = 0 while
diam f(A(x)) = 1/2 > eps = 1/4, R_eps = 1."""


def continuous_family(examples: tuple[dict[str, Any], ...] = ()) -> Family:
    """One sample, A(x) = [0, 1], an augmentation density ``data`` (1-3 linear pieces, on [0, 1] or a sub-interval),
    a 1-Lipschitz piecewise-linear encoder ``f`` (1-4 pieces), L = 1, eps in [1e-3, 1]."""
    return Family("one sample, A(x) = [0, 1], piecewise-linear augmentation density, 1-Lipschitz piecewise-linear f",
                  dims={}, parts={"data": Density(domain=(0.0, 1.0), pieces=(1, 3)),
                                  "f": PiecewiseLinearMap(lipschitz=1.0, domain=(0.0, 1.0), pieces=(1, 4)),
                                  "L": Fixed(1.0), "eps": Scalar(*EPS_RANGE)},
                  quantities=(R_eps, L_align, R_eps_unaligned), examples=examples, adversary=False)


CONTINUOUS = continuous_family()
WITH_ZERO_MASS_PART = continuous_family((ZERO_MASS_PART,))
# The asymptotic part's parameter: the family's part eps, so that the engine also runs its own grid over eps
# (the engine's asymptotic search) besides the plugin's closed-form families.
eps_s = CONTINUOUS.symbol("eps")

# -- witness families -----------------------------------------------------------------------------------------------
T = sympy.Symbol("t", positive=True)
TENT_L = sympy.Integer(1)


def tent_values(t: sympy.Symbol) -> dict[sympy.Symbol, Any]:
    """A(x) = [0, 1] with the uniform density (full support), f_t = max(0, 2t - L|s - 1/2|) (L = 1: the same
    L-Lipschitz class as the subjects), eps = t: R_eps and L_align by the subjects' own functions on exact objects
    near t -> 0+ (ratio 3 L^2 / (32 t (L - 3 t)))."""
    near = (t, 0, "+")
    density = pw.Uniform(0, 1, near=near)
    f = pw.PiecewiseLinear.bump(sympy.Rational(1, 2), 2 * t, 2 * t / TENT_L, near=near)
    return {R_eps: r_eps(f, t, near), L_align: l_align(density, f, near), eps_s: t}


def tent_family() -> Parametric:
    return Parametric("tent f_t = max(0, 2t - |s - 1/2|) on A(x) = [0, 1] uniform, eps = t (L = 1)", ("f", "eps"),
                      values=tent_values, index=T, limit=0)


@functools.lru_cache(maxsize=1)
def gaussian_align() -> sympy.Expr:
    """L_align for x1, x2 iid N(0, 1) (A(x) = R, Gaussian augmentation) and f(s) = s: E (x1 - x2)^2 = 2 (sympy)."""
    a, b = sympy.symbols("a b", real=True)
    phi = sympy.exp(-(a ** 2 + b ** 2) / 2) / (2 * sympy.pi)
    return sympy.simplify(sympy.integrate((a - b) ** 2 * phi, (a, -sympy.oo, sympy.oo), (b, -sympy.oo, sympy.oo)))


def gaussian_values(t: sympy.Symbol) -> dict[sympy.Symbol, Any]:
    """A(x) = R with x1, x2 iid N(0, 1) (full support on A(x)), f(s) = s (1-Lipschitz), eps = t: f(A(x)) = R is
    unbounded, so R_eps = 1 for every eps; L_align = 2 (sympy)."""
    return {R_eps: sympy.Integer(1), L_align: gaussian_align(), eps_s: t}


def gaussian_family() -> Parametric:
    return Parametric("Gaussian augmentation x1, x2 ~ N(x, 1) on A(x) = R, f(s) = s, eps = t -> oo", ("eps",),
                      values=gaussian_values, index=T, limit=sympy.oo)
