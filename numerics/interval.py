"""Rigorous branch-and-bound proofs of ``g(x) >= 0`` on a box, on python-flint's arb balls.

Library: python-flint (FLINT/Arb ball arithmetic, see :mod:`numerics.arb`).  Every value is a
ball ``[m +/- r]``; every operation returns a ball that contains the exact result for every point
of its inputs (midpoint rounding errors go into the radius, radii are rounded up), and a
comparison is True only when it holds for every point.  Box endpoints are exact rationals
(``fractions.Fraction``) throughout; a box enters the arithmetic as a ball containing it
(:func:`numerics.arb.box_ball`, cut at 0 exactly when the box is on one side of 0), and a point as
a ball containing it (a point ball when it is dyadic, as every bisection point of a dyadic box is).
Each evaluation runs at ``prec`` bits inside its own ``workprec`` block.

A box is *certified* when a rigorous lower bound of ``g`` on it is ``>= 0``.  On every box the
prover tries, in order,

(a) the natural ball extension of ``g`` (every algebraically equivalent form that sympy produces --
    the original and ``factor(cancel(.))`` -- is evaluated and the balls are intersected, which is
    still an enclosure);
(b) a second-order Taylor form around the centre ``c``:
    ``g(c + h) = g(c) + grad g(c).h + 1/2 h^T H(xi) h`` with ``xi`` in the box, so
    ``g >= g(c) + min_h [grad g(c).h + 1/2 h^T [H] h]`` where ``[H]`` is the ball Hessian over
    the box; the quadratic term is lower-bounded with Gershgorin
    (``lambda_min >= min_i (H_ii.lo - sum_{j!=i} |H_ij|)``) and, separately, with the diagonal
    plus off-diagonal absorption, and the resulting separable 1-D problems are minimised exactly;
(c) the same expansion at every vertex ``v`` of the box, where ``h`` has a fixed sign in every
    coordinate: this certifies a box touching the zero set of ``g`` at a corner when ``g(v) >= 0``
    and the gradient points inward-up (or vanishes with a nonnegative curvature).

If no test succeeds the widest side is bisected (exactly: endpoints are rationals).  Point values
``g(c)``, ``g(v)`` are ball evaluations at the exact point; when such a ball contains 0 without
being 0 (``log(3) - log(1 + 1 + 1)`` is ``0 +/- 2^-127``) the exact sympy value is used if sympy
evaluates it to a rational number.  A *counterexample* is a centre or vertex where ``g`` is
certainly negative (the whole ball is ``< 0``): the prover stops at once with ``ok=False`` -- a
false statement never certifies.  Every lower bound a certificate reports is a float rounded
down from the ball's lower end.

Floats inside expressions are taken at their exact binary value; write ``sympy.Rational`` for an
exact decimal.  ``g`` must be defined on the whole box: an operation whose argument ball is not
certainly inside its domain (``log`` of a ball reaching 0, ``sqrt`` of a ball reaching below 0)
raises ``ValueError`` and leaves that box undecided.  The derivative tests need ``g`` to be C^2 on
the box; expressions with ``Abs``/``Max``/``Min`` are handled by the natural extension only.

This replaces an earlier prover on ``mpmath.iv`` (endpoint intervals); the algorithm is the same,
the arithmetic is FLINT's.
"""

from __future__ import annotations

import inspect
import itertools
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import mpmath
import mpmath.libmp as libmp
import sympy as sp
from flint import arb

from numerics import arb as A
from numerics.certificate import Certificate
from numerics.operations import OPERATIONS, Operation, ball_log, ball_sqrt, interval_operations, statement_function

LIBRARY = A.LIBRARY

__all__ = [
    "LIBRARY", "IntervalFunction", "UnsupportedExpression", "Ball", "interval_eval",
    "to_fraction", "fraction_text", "prove_nonnegative", "combine", "truncated", "number_text",
    "INTERVAL_FUNCTIONS",
]


class UnsupportedExpression(ValueError):
    """The expression uses an operation the ball evaluator does not implement."""


# ----------------------------------------------------------------------------- exact numbers

def to_fraction(value: Any) -> Fraction:
    """An exact rational from a box endpoint: Fraction, int, float (its exact binary value),
    a string such as ``"1/2"`` or ``"0.1"`` (exactly 1/10), or a sympy rational/float."""
    if isinstance(value, bool):
        raise TypeError("a bool is not a box endpoint")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"box endpoint must be finite, got {value!r}")
        return Fraction(value)
    if isinstance(value, str):
        return Fraction(value.strip())
    if isinstance(value, sp.Basic):
        if value.is_Rational:
            return Fraction(int(value.p), int(value.q))
        if value.is_Float:
            r = sp.Rational(value)  # exact binary value of the float
            return Fraction(int(r.p), int(r.q))
        raise ValueError(f"box endpoint must be an exact number, got {value}")
    raise TypeError(f"cannot use {value!r} as an exact box endpoint")


def fraction_text(q: Fraction) -> str:
    return str(q)


def number_text(v: Any) -> str:
    """A float as its repr, anything else as the exact rational it denotes."""
    return repr(v) if isinstance(v, float) else fraction_text(to_fraction(v))


# ----------------------------------------------------------------------------- the result of interval_eval

def _exact_mpf(t: arb) -> mpmath.mpf:
    """An exact arb end (or +-inf / nan) as an mpmath number, without rounding."""
    if t.is_nan():
        return mpmath.mpf("nan")
    if not t.is_finite():
        return mpmath.mpf("-inf") if t < 0 else mpmath.mpf("inf")
    man, exp = t.mid().man_exp()
    return mpmath.mp.make_mpf(libmp.from_man_exp(int(man), int(exp)))


@dataclass(frozen=True)
class Ball:
    """An enclosure computed by :func:`interval_eval`: the arb ``ball`` and its ends.

    ``a`` and ``b`` are the lower and upper ends as exact ``mpmath.mpf`` numbers (rounded outward
    by arb, never by the conversion); ``lo``/``hi`` are the same as Fractions (None when infinite).
    """

    ball: arb

    @property
    def a(self) -> mpmath.mpf:
        if self.ball.is_nan():
            return mpmath.mpf("-inf")
        return _exact_mpf(A.lower_end(self.ball))

    @property
    def b(self) -> mpmath.mpf:
        if self.ball.is_nan():
            return mpmath.mpf("inf")
        return _exact_mpf(A.upper_end(self.ball))

    @property
    def lo(self) -> Fraction | None:
        return A.lower_fraction(self.ball)

    @property
    def hi(self) -> Fraction | None:
        return A.upper_fraction(self.ball)

    @property
    def mid(self) -> mpmath.mpf:
        return _exact_mpf(self.ball.mid())

    @property
    def rad(self) -> float:
        return A.radius_float(self.ball)

    def lower_float(self) -> float | str:
        return A.lower_float(self.ball)

    def upper_float(self) -> float | str:
        return A.upper_float(self.ball)

    def __repr__(self) -> str:
        return f"Ball({self.ball})"


# ----------------------------------------------------------------------------- evaluator

#: what has no second derivative everywhere: the table's non-smooth rows, and sympy constructs outside the table
_NON_SMOOTH = tuple(getattr(sp, op.sympy) for op in OPERATIONS if op.sympy and not op.smooth) + (
    sp.Heaviside, sp.sign, sp.DiracDelta, sp.Piecewise, sp.Derivative, sp.Subs)


#: the sympy functions the compiler evaluates: the rows of numerics.operations with an interval form
INTERVAL_FUNCTIONS = tuple(interval_operations())


def _takes(fn: Callable, count: int) -> bool:
    """``fn`` accepts ``count`` positional arguments (True when its signature cannot be read)."""
    try:
        inspect.signature(fn).bind(*range(count))
    except TypeError:
        return False
    except ValueError:  # a builtin without a signature
        return True
    return True


def _div(num: arb, den: arb) -> arb:
    if not (den > 0 or den < 0):
        return arb("nan")  # a denominator ball containing 0: no finite enclosure
    return num / den


class IntervalFunction:
    """A list of sympy expressions compiled (after ``sympy.cse``) into a straight-line program of
    arb operations at ``prec`` bits.  ``f(*balls)`` returns one ball per expression; each contains
    the expression's value at every point of the argument balls.

    Supported: symbols, integers, rationals, floats (exact binary value), pi, E, Add, Mul,
    Pow with integer, half-integer, rational or (for a positive base) symbolic exponents, and the
    functions of ``operations`` with an interval form (:data:`INTERVAL_FUNCTIONS`: exp, log, log1p,
    Abs, Max, Min, harmonic, binomial, polygamma, sin, cos).  An operation undefined on part of its
    input (log or sqrt of a ball reaching below 0) raises ``ValueError``; a division by a ball
    containing 0 gives a NaN ball (no finite enclosure).
    """

    def __init__(self, exprs: Sequence[sp.Expr], variables: Sequence[sp.Symbol], prec: int, *,
                 operations: Iterable[Operation] = OPERATIONS):
        self.prec = int(prec)
        self.functions = interval_operations(operations)
        self.variables = tuple(variables)
        self._index = {v: i for i, v in enumerate(self.variables)}
        exprs = [sp.sympify(e) for e in exprs]
        replacements, reduced = sp.cse(exprs, symbols=sp.numbered_symbols("_cse"))
        self._nslots = len(self.variables) + len(replacements)
        self._steps: list[tuple[int, Callable]] = []
        with A.workprec(self.prec):
            for sym, sub in replacements:
                fn = self._compile(sub)
                self._index[sym] = len(self._index)
                self._steps.append((self._index[sym], fn))
            self._outs = [self._compile(e) for e in reduced]

    def __call__(self, *values: arb) -> list[arb]:
        if len(values) != len(self.variables):
            raise TypeError(f"expected {len(self.variables)} balls, got {len(values)}")
        with A.workprec(self.prec):
            env = list(values) + [None] * (self._nslots - len(values))
            for slot, fn in self._steps:
                env[slot] = fn(env)
            return [fn(env) for fn in self._outs]

    # -- compilation (constants are made at ``prec`` bits) ---------------------------------
    @staticmethod
    def _const(c: arb) -> Callable:
        return lambda env: c

    def _compile(self, e: sp.Basic) -> Callable:
        if e.is_Symbol:
            if e not in self._index:
                raise UnsupportedExpression(f"free symbol {e} is not a variable")
            i = self._index[e]
            return lambda env: env[i]
        if e.is_Number:
            if e.is_Rational:
                return self._const(A.from_fraction(Fraction(int(e.p), int(e.q))))
            if e.is_Float:
                r = sp.Rational(e)
                return self._const(A.from_fraction(Fraction(int(r.p), int(r.q))))
            raise UnsupportedExpression(f"number {e}")
        if e is sp.pi:
            return self._const(arb.pi())
        if e is sp.E:
            return self._const(arb.const_e())
        if e.is_Add:
            fs = [self._compile(a) for a in e.args]

            def add(env, fs=fs):
                acc = fs[0](env)
                for f in fs[1:]:
                    acc = acc + f(env)
                return acc
            return add
        if e.is_Mul:
            num, den = [], []
            for a in e.args:
                if a.is_Pow and a.exp.is_Integer and a.exp < 0:
                    den.append(self._compile(a.base ** (-a.exp)))
                else:
                    num.append(self._compile(a))

            def mul(env, num=num, den=den):
                acc = num[0](env) if num else arb(1)
                for f in num[1:]:
                    acc = acc * f(env)
                if den:
                    d = den[0](env)
                    for f in den[1:]:
                        d = d * f(env)
                    acc = _div(acc, d)
                return acc
            return mul
        if e.is_Pow:
            return self._compile_pow(e.base, e.exp)
        op = self.functions.get(type(e).__name__)
        if op is not None and e.is_Function and not isinstance(type(e), sp.core.function.UndefinedFunction):
            return self._compile_operation(op, e)
        raise UnsupportedExpression(f"{type(e).__name__}: {e}")

    def _compile_operation(self, op: Operation, e: sp.Expr) -> Callable:
        """A row of the operation table applied to its compiled arguments (n-ary Max/Min folded pairwise)."""
        if not op.fold and not _takes(op.interval, len(e.args)):
            raise UnsupportedExpression(f"{type(e).__name__} with {len(e.args)} arguments: {e}")
        fn = statement_function(op, op.interval)
        fs = [self._compile(a) for a in e.args]
        return lambda env: fn(*[f(env) for f in fs])

    def _compile_pow(self, base: sp.Expr, expo: sp.Expr) -> Callable:
        fb = self._compile(base)
        if expo.is_Integer:
            n = int(expo)
            if n >= 0:
                if n % 2 == 0:
                    return lambda env: A.even_power(fb(env), n)  # x^2 on [-1, 1] is [0, 1]
                return lambda env: fb(env) ** n
            m = -n
            if m % 2 == 0:
                return lambda env: _div(arb(1), A.even_power(fb(env), m))
            return lambda env: _div(arb(1), fb(env) ** m)
        if expo.is_Rational or expo.is_Float:
            r = sp.Rational(expo)
            p, q = int(r.p), int(r.q)
            if q == 2:
                def half_pow(env, p=p):
                    s = ball_sqrt(fb(env))  # ValueError if the base ball reaches below 0
                    return s ** p if p >= 0 else _div(arb(1), s ** (-p))
                return half_pow
            rq = A.from_fraction(Fraction(p, q))

            def rat_pow(env, rq=rq, positive=p > 0):
                x = fb(env)
                if x > 0:
                    return (rq * x.log()).exp()
                if not x >= 0:
                    raise ValueError("rational power of a ball reaching below 0")
                if not positive:
                    raise ValueError("negative power of a ball containing 0")
                # x^r with r > 0 is increasing on [0, b]: [0, b^r]
                top = x.upper()
                top_r = (rq * top.log()).exp() if top > 0 else arb(0)
                return arb(0).union(top_r).nonnegative_part()
            return rat_pow
        fe = self._compile(expo)
        return lambda env: (fe(env) * ball_log(fb(env))).exp()


def interval_eval(expr: sp.Expr, values: Mapping[sp.Symbol, Any], prec: int = 128) -> Ball:
    """Enclosure of ``expr`` over a box: ``values`` maps each symbol to an exact number or to a pair
    ``(lo, hi)`` of exact numbers.  Returns a :class:`Ball` (``.ball`` the arb ball, ``.a``/``.b``
    its ends as exact mpmath numbers)."""
    variables = list(values)
    f = IntervalFunction([expr], variables, prec)
    args = []
    with A.workprec(prec):
        for v in variables:
            val = values[v]
            if isinstance(val, (tuple, list)):
                lo, hi = to_fraction(val[0]), to_fraction(val[1])
                if lo > hi:
                    raise ValueError(f"empty range for {v}: [{lo}, {hi}]")
                args.append(A.box_ball(lo, hi))
            else:
                args.append(A.from_fraction(to_fraction(val)))
    return Ball(f(*args)[0])


# ----------------------------------------------------------------------------- lower bounds (exact arbs)

_NEG_INF = A.NEG_INF
_ZERO = arb(0)


def _lo(x: arb) -> arb:
    """The lower end of a ball as an exact arb (-inf for NaN: it bounds nothing)."""
    return _NEG_INF if x.is_nan() else x.lower()


def _ge0(t: arb) -> bool:
    return bool(t >= 0)


def _lt0(t: arb) -> bool:
    return bool(t < 0)


def _finite(x: arb) -> bool:
    return not x.is_nan() and bool(x.is_finite())


def _amin(ts) -> arb:
    """The minimum of exact arbs (NaN counts as -inf)."""
    out = None
    for t in ts:
        if t.is_nan():
            return _NEG_INF
        if out is None or t < out:
            out = t
    return _NEG_INF if out is None else out


def _amax(ts) -> arb:
    """The maximum of exact arbs (NaN entries are ignored)."""
    out = None
    for t in ts:
        if t.is_nan():
            continue
        if out is None or t > out:
            out = t
    return _NEG_INF if out is None else out


def _absup(x: arb) -> arb:
    """An exact upper bound of |x| over the ball."""
    return arb(x.abs_upper())


def _phi(a_ball: arb, w: arb, d: arb) -> arb:
    """Rigorous lower bound (an exact arb) of  min_{t in [0, w]} (a t + d t^2 / 2)  for every
    a in the ball ``a_ball``, every width in the ball ``w`` (w >= 0), and a curvature ``d``
    (an exact arb; the true quadratic coefficient is >= d).

    For fixed t the expression is affine in a, so the minimum over t is concave in a and its
    minimum over the ball is attained at an end of it: both ends are tried.  All arithmetic is
    ball arithmetic and only lower ends are kept."""
    if d.is_nan() or not _finite(a_ball) or not _finite(w) or not d.is_finite():
        return _NEG_INF
    if not d > 0:
        # concave (or linear) in t: the minimum is at t = 0 (value 0) or t = w
        v = _lo(a_ball * w + d * w * w / 2)
        return v if _lt0(v) else _ZERO
    worst = []
    for a in (a_ball.lower(), a_ball.upper()):
        if _ge0(a):
            worst.append(_ZERO)                            # increasing on [0, w]: min 0 at t = 0
        elif _ge0(_lo(-a - d * w)):
            worst.append(_lo(a * w + d * w * w / 2))       # vertex -a/d >= w: min at t = w
        else:
            worst.append(_lo(-(a * a) / (2 * d)))          # unconstrained minimum: always valid
    return _amin(worst)


def _forms(e: sp.Expr) -> list[sp.Expr]:
    forms = [e]
    try:
        alt = sp.factor(sp.cancel(sp.together(e)))
        if alt != e and not alt.has(sp.zoo, sp.nan, sp.oo, sp.I):
            forms.append(alt)
    except Exception:  # pragma: no cover - a failed rewrite just means one form
        pass
    return forms


def _intersect(vals: list[arb]) -> arb:
    """Intersection of enclosures of the same range (all valid, so the intersection is too).
    An empty intersection would signal an invalid rewrite: then only the first form is used."""
    good = [v for v in vals if not v.is_nan()]
    if not good:
        return vals[0]
    out = good[0]
    for v in good[1:]:
        if not out.overlaps(v):
            return vals[0]
        out = out.intersection(v)
    return out


class _Prover:
    def __init__(self, expr, variables, prec, refute_hint):
        self.expr = expr
        self.variables = list(variables)
        self.n = len(self.variables)
        self.prec = int(prec)
        self.refute_hint = refute_hint
        self.exact_points: list[dict[str, str]] = []
        self.point_cache: dict[tuple, Any] = {}
        self.g_forms = _forms(expr)  # equivalent forms for range evaluation, enclosures intersected
        self.smooth = not any(expr.has(t) for t in _NON_SMOOTH)
        if self.smooth:
            try:
                self._compile_programs(with_derivatives=True)
            except UnsupportedExpression:
                self.smooth = False  # a derivative the evaluator cannot handle: natural extension only
        if not self.smooth:
            self._compile_programs(with_derivatives=False)

    def _compile_programs(self, with_derivatives: bool) -> None:
        expr, hess = self.expr, {}
        self.grad = []
        if with_derivatives:
            self.grad = [sp.diff(expr, v) for v in self.variables]
            for i in range(self.n):
                for j in range(i, self.n):
                    hess[(i, j)] = sp.diff(self.grad[i], self.variables[j])
            if any(h.has(t) for h in list(hess.values()) + self.grad for t in _NON_SMOOTH):
                raise UnsupportedExpression("non-smooth derivative")
        self.hess_keys = sorted(hess)
        self.h_forms = [_forms(hess[k]) for k in self.hess_keys]
        h_exprs = [f for fs in self.h_forms for f in fs]
        # separate programs: a Hessian undefined on a box must not spoil the natural extension of g
        self.f_g = IntervalFunction(self.g_forms, self.variables, self.prec)
        self.f_h = IntervalFunction(h_exprs, self.variables, self.prec) if h_exprs else None
        self.f_point = IntervalFunction([expr] + self.grad, self.variables, self.prec)
        self.n_forms = len(self.g_forms) + len(h_exprs)

    # -- evaluations ---------------------------------------------------------------------------
    def point(self, pt: tuple[Fraction, ...]):
        """(g, grad) at an exact point, as balls; None where undefined.  Cached."""
        if pt in self.point_cache:
            return self.point_cache[pt]
        with A.workprec(self.prec):
            try:
                vals = self.f_point(*[A.from_fraction(q) for q in pt])
            except (ValueError, ZeroDivisionError, ArithmeticError):
                vals = None
            if vals is not None:
                g = vals[0]
                if not g.is_nan() and _lt0(g.lower()) and not _lt0(g):
                    exact = self._exact_value(pt)
                    if exact is not None:
                        vals = [A.from_fraction(exact)] + vals[1:]
                        self.exact_points.append({str(v): fraction_text(q) for v, q in zip(self.variables, pt)})
                if any(not _finite(v) for v in vals):
                    vals = None if not _finite(vals[0]) else [vals[0]]
        self.point_cache[pt] = vals
        return vals

    def _exact_value(self, pt) -> Fraction | None:
        """g at a rational point when sympy evaluates it to an exact rational (e.g. log(1) = 0)."""
        if self.expr.has(sp.Float):
            return None
        try:
            val = self.expr.subs({v: sp.Rational(q.numerator, q.denominator) for v, q in zip(self.variables, pt)})
            if not val.is_Rational and val.is_number and sp.count_ops(val) <= 60:
                val = sp.simplify(val)
        except Exception:  # pragma: no cover - sympy failures simply mean "not exact"
            return None
        if val.is_Rational:
            return Fraction(int(val.p), int(val.q))
        return None

    def box_values(self, box):
        """(G, H) enclosures over the box; H is a dict (i, j) -> ball, or None."""
        with A.workprec(self.prec):
            X = [A.box_ball(lo, hi) for lo, hi in box]
        try:
            G = _intersect(self.f_g(*X))  # an unbounded enclosure simply fails test (a)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return None, None  # g undefined on part of the box (or not provably defined)
        if not self.smooth or self.f_h is None:
            return G, None
        try:
            vals = self.f_h(*X)
        except (ValueError, ZeroDivisionError, ArithmeticError):
            return G, None
        H = {}
        pos = 0
        for key, fs in zip(self.hess_keys, self.h_forms):
            H[key] = _intersect(vals[pos:pos + len(fs)])
            pos += len(fs)
        if any(not _finite(h) for h in H.values()):
            H = None
        return G, H

    # -- the three tests (all inside workprec(prec)) -------------------------------------------
    def _hij(self, H, i, j):
        return H[(i, j)] if i <= j else H[(j, i)]

    def _gershgorin(self, H) -> arb:
        rows = []
        for i in range(self.n):
            acc = self._hij(H, i, i)
            for j in range(self.n):
                if j != i:
                    acc = acc - _absup(self._hij(H, i, j))
            rows.append(_lo(acc))
        return _amin(rows)

    def centre_bound(self, centre_vals, H, lam, radii) -> arb:
        g, grad = centre_vals[0], centre_vals[1:]
        # Gershgorin: 1/2 h^T H h >= lam/2 |h|^2 ; min over h_i in [-r, r] of a h + lam/2 h^2
        # equals min over s in [0, r] of -|a| s + lam/2 s^2 (worst a: largest |a|)
        total = g
        for i in range(self.n):
            total = total + _phi(-_absup(grad[i]), radii[i], lam)
        best = _lo(total)
        if self.n > 1:
            # diagonal + absorbed off-diagonal: 1/2 h^T H h >= sum_i [D_i/2 h_i^2 - 1/2 |h_i| K_i],
            # K_i = sum_{j != i} |H_ij| r_j   (|h_j| <= r_j)
            total = g
            for i in range(self.n):
                K = arb(0)
                for j in range(self.n):
                    if j != i:
                        K = K + _absup(self._hij(H, i, j)) * radii[j]
                coeff = _lo(-(_absup(grad[i]) + K / 2))
                total = total + _phi(coeff, radii[i], _lo(self._hij(H, i, i)))
            best = _amax([best, _lo(total)])
        return best

    def vertex_bound(self, vals, signs, H, lam, widths) -> arb:
        """Lower bound on the box from the expansion at a vertex; h_i = s_i t_i, t_i in [0, w_i]."""
        g, grad = vals[0], vals[1:]
        Adir = [grad[i] if signs[i] > 0 else -grad[i] for i in range(self.n)]  # inward derivatives
        # lam: Gershgorin bound of [H]; the spectrum of S H S (S = diag(signs)) equals that of H
        total = g
        for i in range(self.n):
            total = total + _phi(Adir[i], widths[i], lam)
        best = _lo(total)
        if self.n > 1:
            # 1/2 sum_{i!=j} s_i s_j H_ij t_i t_j >= 1/2 sum_i t_i sum_{j!=i} N_ij w_j with
            # N_ij = min(0, lower(s_i s_j H_ij)) <= 0 and t_j <= w_j
            total = g
            for i in range(self.n):
                C = Adir[i]
                for j in range(self.n):
                    if j != i:
                        h = self._hij(H, i, j)
                        if signs[i] * signs[j] < 0:
                            h = -h
                        N = _lo(h)
                        if _lt0(N):
                            C = C + N * widths[j] / 2
                total = total + _phi(C, widths[i], _lo(self._hij(H, i, i)))
            best = _amax([best, _lo(total)])
        return best

    def examine(self, box):
        """('certified', lower, test) | ('counterexample', point, g) | ('undecided', G, best)."""
        centre = tuple((lo + hi) / 2 for lo, hi in box)
        cv = self.point(centre)
        if cv is not None and self.refute_hint and _lt0(cv[0]):
            return ("counterexample", centre, cv[0])
        G, H = self.box_values(box)
        with A.workprec(self.prec):
            best = _NEG_INF
            if G is not None and not G.is_nan():
                best = _lo(G)
                if _ge0(best):
                    return ("certified", best, "natural")
            if H is None:
                return ("undecided", G, best)
            radii = [A.from_fraction((hi - lo) / 2) for lo, hi in box]
            lam = self._gershgorin(H)
            if cv is not None and len(cv) == self.n + 1:
                b = self.centre_bound(cv, H, lam, radii)
                if _ge0(b):
                    return ("certified", b, "taylor-centre")
                best = _amax([best, b])
            widths = [A.from_fraction(hi - lo) for lo, hi in box]
        for choice in itertools.product((0, 1), repeat=self.n):
            vertex = tuple(box[i][choice[i]] for i in range(self.n))
            vv = self.point(vertex)
            if vv is None:
                continue
            if self.refute_hint and _lt0(vv[0]):
                return ("counterexample", vertex, vv[0])
            if not _ge0(_lo(vv[0])) or len(vv) != self.n + 1:
                continue  # the bound is <= g(v) here, cannot be >= 0
            signs = [1 if c == 0 else -1 for c in choice]
            with A.workprec(self.prec):
                b = self.vertex_bound(vv, signs, H, lam, widths)
            if _ge0(b):
                return ("certified", b, "taylor-vertex")
            best = _amax([best, b])
        return ("undecided", G, best)


def _box_json(box) -> list[list[str]]:
    return [[fraction_text(lo), fraction_text(hi)] for lo, hi in box]


def _box_width(box) -> Fraction:
    return max((hi - lo for lo, hi in box), default=Fraction(0))


def _ball_json(x: arb | None) -> list[float | str] | None:
    """A ball's ends as floats, the lower one rounded down and the upper one rounded up."""
    if x is None:
        return None
    return [A.lower_float(x), A.upper_float(x)]


def prove_nonnegative(expr: sp.Expr, box: Mapping[sp.Symbol, tuple[Any, Any]], statement: str,
                      max_boxes: int = 20000, prec: int = 128, *, domain: str | None = None,
                      refute_hint: bool = True, min_width: Any = None,
                      record_boxes: bool = True, max_prec: int | None = None) -> Certificate:
    """Prove ``expr >= 0`` on the box ``{symbol: (lo, hi)}`` by branch-and-bound (see module doc).

    ``ok`` is True only when every part of the box was certified.  ``details["boxes"]`` lists the
    certified boxes (endpoints as exact strings), each with its proved lower bound (a float rounded
    down) and the test that certified it.  On failure ``details`` holds ``counterexample`` (an exact
    point where ``g`` is certainly negative, with the ball value of ``g`` there) or ``failed_box``
    (the smallest box that could not be decided, with the enclosure of ``g`` on it).
    ``min_width``: a box whose widest side is below this is not bisected further (default: the
    initial widest side times 2^-60).

    Precision: boxes start at ``prec`` bits.  An undecided box whose enclosure of ``g`` is limited by
    rounding rather than by its width (the ball's radius is below ``2^(24 - prec)`` times its
    magnitude, at least 1) is examined again at twice the precision, up to ``max_prec`` (default
    ``8 * prec``), before it is bisected: ``log(1 + 2 e^-100) >= 0`` needs more than 128 bits."""
    start = time.perf_counter()
    expr = sp.sympify(expr)
    variables = list(box)
    for v in variables:
        if not isinstance(v, sp.Symbol):
            raise TypeError(f"box keys must be sympy Symbols, got {v!r}")
    extra = expr.free_symbols - set(variables)
    if extra:
        raise ValueError(f"expression has symbols without a range: {sorted(map(str, extra))}")
    root = tuple((to_fraction(box[v][0]), to_fraction(box[v][1])) for v in variables)
    for v, (lo, hi) in zip(variables, root):
        if lo > hi:
            raise ValueError(f"empty range for {v}: [{lo}, {hi}]")
    method = f"interval branch-and-bound ({LIBRARY}, ball arithmetic, prec={prec})"
    if domain is None:
        domain = ", ".join(f"{v} in [{fraction_text(lo)}, {fraction_text(hi)}]" for v, (lo, hi) in zip(variables, root))
    if min_width is None:
        min_width = _box_width(root) / 2 ** 60
    min_width = to_fraction(min_width)

    max_prec = 8 * prec if max_prec is None else max(int(max_prec), prec)
    try:
        prover = _Prover(expr, variables, prec, refute_hint)
    except UnsupportedExpression as exc:
        return Certificate(method=method, statement=statement, domain=domain, ok=False,
                           details={"error": f"unsupported expression: {exc}", "expression": str(expr)},
                           seconds=time.perf_counter() - start)
    details: dict[str, Any] = {
        "library": LIBRARY, "prec": prec, "expression": str(expr), "goal": "expression >= 0",
        "variables": [str(v) for v in variables], "box": _box_json(root),
        "derivative_tests": prover.smooth, "equivalent_forms": prover.n_forms,
        "max_boxes": max_boxes, "max_prec": max_prec,
        "rounding": "arb ball arithmetic: every operation encloses the exact result for every point of "
                    "its inputs; a box is certified when the lower end of a ball enclosing g on it is >= 0; "
                    "reported lower bounds are floats rounded down",
    }

    def finish(ok: bool) -> Certificate:
        details["boxes_certified"] = len(certified)
        details["tests_used"] = tests_used
        lows = [b["lower"] for b in certified if isinstance(b["lower"], float)]
        details["min_certified_lower_bound"] = min(lows) if lows else None
        if record_boxes:
            details["boxes"] = certified
        details["exact_point_values"] = [p for pr in provers.values() for p in pr.exact_points][:50]
        details["precisions_used"] = sorted(provers)
        return Certificate(method=method, statement=statement, domain=domain, ok=ok, details=details,
                           seconds=time.perf_counter() - start)

    provers = {prec: prover}

    def prover_at(p: int) -> _Prover:
        if p not in provers:
            provers[p] = _Prover(expr, variables, p, refute_hint)
        return provers[p]

    certified: list[dict[str, Any]] = []
    tests_used: dict[str, int] = {}
    stack: list[tuple[tuple, int]] = [(root, prec)]
    examined = 0
    smallest: dict[str, Any] | None = None
    smallest_width: Fraction | None = None
    while stack:
        cur, cur_prec = stack.pop()
        if examined >= max_boxes:
            details["boxes_examined"] = examined
            details["reason"] = f"max_boxes={max_boxes} reached with {len(stack) + 1} boxes left"
            details["failed_box"] = smallest or {"box": _box_json(cur)}
            return finish(False)
        examined += 1
        verdict = prover_at(cur_prec).examine(cur)
        if verdict[0] == "certified":
            _, lower, test = verdict
            certified.append({"box": _box_json(cur), "lower": A.lower_float(lower), "test": test})
            if cur_prec != prec:
                certified[-1]["prec"] = cur_prec
            tests_used[test] = tests_used.get(test, 0) + 1
            continue
        if verdict[0] == "counterexample":
            _, pt, g = verdict
            details["boxes_examined"] = examined
            details["reason"] = "g < 0 at a point (rigorous: the whole ball of g there is < 0)"
            details["counterexample"] = {
                "point": {str(v): fraction_text(q) for v, q in zip(variables, pt)},
                "g_interval": _ball_json(g), "g": A.upper_float(g), "g_ball": A.ball_json(g),
            }
            return finish(False)
        _, G, best = verdict
        width = _box_width(cur)
        if smallest_width is None or width <= smallest_width:
            smallest_width = width
            smallest = {"box": _box_json(cur), "g_interval": _ball_json(G),
                        "best_lower_bound": A.lower_float(best)}
        if cur_prec < max_prec and _rounding_limited(G, cur_prec):
            stack.append((cur, min(2 * cur_prec, max_prec)))  # same box, more bits
            continue
        if width <= min_width:
            details["boxes_examined"] = examined
            details["reason"] = f"undecided box narrower than min_width={fraction_text(min_width)}"
            details["failed_box"] = smallest
            return finish(False)
        i = max(range(len(cur)), key=lambda k: cur[k][1] - cur[k][0])
        lo, hi = cur[i]
        mid = (lo + hi) / 2
        left = cur[:i] + ((lo, mid),) + cur[i + 1:]
        right = cur[:i] + ((mid, hi),) + cur[i + 1:]
        stack.append((right, cur_prec))
        stack.append((left, cur_prec))
    details["boxes_examined"] = examined
    return finish(True)


def _rounding_limited(G: arb | None, prec: int) -> bool:
    """The enclosure of g is as narrow as ``prec``-bit rounding allows: more width will not help,
    more bits may."""
    if G is None or not _finite(G):
        return False
    with A.workprec(prec + 32):
        scale = arb(1).max(A.abs_ball(G).upper())
        return bool(G.rad() <= scale * arb(2) ** (24 - prec))


# ----------------------------------------------------------------------------- combining proofs

def combine(parts: list[Certificate], statement: str, domain: str, extra: dict[str, Any],
            start: float) -> Certificate:
    """One certificate for a statement proved in several pieces (ok when every piece is ok)."""
    details = dict(extra)
    details["parts"] = [{"statement": c.statement, "domain": c.domain, "ok": c.ok,
                         "seconds": c.seconds, "details": c.details} for c in parts]
    details["boxes_certified"] = sum(c.details.get("boxes_certified", 0) for c in parts)
    return Certificate(method=parts[0].method, statement=statement, domain=domain,
                       ok=all(c.ok for c in parts), details=details,
                       seconds=time.perf_counter() - start)


def truncated(cert: Certificate, why: str) -> Certificate:
    """The same certificate, recorded as covering a finite truncation of the natural domain."""
    return replace(cert.with_details(truncation=why), complete=False)
