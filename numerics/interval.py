"""Rigorous branch-and-bound proofs of ``g(x) >= 0`` on a box, with outward-rounded intervals.

Library: ``mpmath.iv`` (endpoint intervals ``[a, b]``; every operation rounds the lower endpoint
down and the upper endpoint up, and an exact endpoint such as ``0`` stays exact).  Each call uses
its own interval context (``MPIntervalContext``), so the precision set here never leaks into the
global ``mpmath.iv``.

A box is *certified* when a rigorous lower bound of ``g`` on it is ``>= 0``.  On every box the
prover tries, in order,

(a) the natural interval extension of ``g`` (every algebraically equivalent form that sympy
    produces -- the original and ``factor(cancel(.))`` -- is evaluated and the enclosures are
    intersected, which is still an enclosure);
(b) a second-order Taylor form around the centre ``c``:
    ``g(c + h) = g(c) + grad g(c).h + 1/2 h^T H(xi) h`` with ``xi`` in the box, so
    ``g >= g(c) + min_h [grad g(c).h + 1/2 h^T [H] h]`` where ``[H]`` is the interval Hessian
    over the box; the quadratic term is lower-bounded with Gershgorin
    (``lambda_min >= min_i (H_ii.lo - sum_{j!=i} |H_ij|)``) and, separately, with the diagonal
    plus off-diagonal absorption, and the resulting separable 1-D problems are minimised exactly;
(c) the same expansion at every vertex ``v`` of the box, where ``h`` has a fixed sign in every
    coordinate: this certifies a box touching the zero set of ``g`` at a corner when ``g(v) >= 0``
    and the gradient points inward-up (or vanishes with a nonnegative curvature).

If no test succeeds the widest side is bisected (exact rational arithmetic: box endpoints are
``fractions.Fraction`` throughout).  Point values ``g(c)``, ``g(v)`` are interval evaluations at
the exact rational point; when such an interval straddles 0 the exact sympy value is used if
sympy evaluates it to a rational number (this is what lets ``g(v) = 0`` be *exactly* 0, e.g.
``log(1 + e^0 + e^0) - log 3``).  A centre or vertex where ``g`` is certainly negative (the
upper end of its interval value is ``< 0``) is a counterexample: the prover stops at once with
``ok=False`` -- a false statement never certifies.

Floats inside expressions are taken at their exact binary value; write ``sympy.Rational`` for an
exact decimal.  ``g`` must be defined on the whole box (an operation undefined on part of a box --
log or sqrt of an interval reaching below 0 -- makes that box undecided); the rewritten forms are
equal to ``g`` wherever ``g`` is defined.  The derivative tests need ``g`` to be C^2 on the box; expressions with
``Abs``/``Max``/``Min`` are handled by the natural extension only.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import mpmath.libmp as libmp
import sympy as sp
from mpmath.ctx_iv import MPIntervalContext

from numerics.certificate import Certificate

LIBRARY = "mpmath.iv"
_FNAN = libmp.fnan
_FZERO = libmp.fzero

__all__ = [
    "LIBRARY", "IntervalFunction", "UnsupportedExpression", "interval_context", "interval_eval",
    "to_fraction", "fraction_text", "prove_nonnegative", "combine", "truncated", "number_text",
]


class UnsupportedExpression(ValueError):
    """The expression uses an operation the interval evaluator does not implement."""


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


def interval_context(prec: int = 128) -> MPIntervalContext:
    """A private mpmath interval context with ``prec`` bits (outward rounding is built in)."""
    ctx = MPIntervalContext()
    ctx.prec = prec
    return ctx


def _enclose(ctx: MPIntervalContext, q: Fraction):
    """The tightest ``prec``-bit interval containing the rational ``q`` (exact when dyadic).
    Rounding direction matters here: p/q is rounded down for the lower end and up for the upper."""
    if q.denominator == 1:
        return ctx.mpf(q.numerator)
    return ctx.mpf(q.numerator) / ctx.mpf(q.denominator)


def _hull(ctx: MPIntervalContext, lo_iv, hi_iv):
    """[lower end of lo_iv, upper end of hi_iv]: an outward enclosure of [lo, hi]."""
    return ctx.make_mpf((lo_iv._mpi_[0], hi_iv._mpi_[1]))


def _point(ctx: MPIntervalContext, t):
    return ctx.make_mpf((t, t))


def _lo(x):
    return x._mpi_[0]


def _hi(x):
    return x._mpi_[1]


def _is_nan(t) -> bool:
    return t == _FNAN


def _ge0(t) -> bool:
    """t >= 0 for an mpf value (nan is never >= 0; note libmp.mpf_sign(nan) == 0)."""
    return not _is_nan(t) and libmp.mpf_sign(t) >= 0


def _lt0(t) -> bool:
    return not _is_nan(t) and libmp.mpf_sign(t) < 0


def _finite_iv(x) -> bool:
    a, b = x._mpi_
    return not (_is_nan(a) or _is_nan(b) or a in (libmp.finf, libmp.fninf) or b in (libmp.finf, libmp.fninf))


def _mpf_min(ts: Iterable):
    out = None
    for t in ts:
        if _is_nan(t):
            return libmp.fninf
        if out is None or libmp.mpf_lt(t, out):
            out = t
    return out


def _mpf_max(ts: Iterable):
    out = None
    for t in ts:
        if _is_nan(t):
            continue
        if out is None or libmp.mpf_gt(t, out):
            out = t
    return libmp.fninf if out is None else out


def _float_rounded(t, rnd: str) -> float | str:
    """A float rounded toward -inf (rnd="f") or +inf (rnd="c"), or a string for +-inf / nan."""
    if _is_nan(t):
        return "nan"
    if t == libmp.fninf:
        return "-inf"
    if t == libmp.finf:
        return "inf"
    return libmp.to_float(t, rnd=rnd)


def _float_down(t) -> float | str:
    """A float <= t (JSON-safe): lower bounds are stored rounded down."""
    return _float_rounded(t, "f")


def _float_up(t) -> float | str:
    """A float >= t (JSON-safe): upper bounds are stored rounded up."""
    return _float_rounded(t, "c")


def _iv_json(x) -> list[float | str]:
    """Interval endpoints as floats, the lower one rounded down and the upper one rounded up."""
    a, b = x._mpi_
    return [_float_down(a), _float_up(b)]


# ----------------------------------------------------------------------------- evaluator

_NON_SMOOTH = (sp.Abs, sp.Max, sp.Min, sp.Heaviside, sp.sign, sp.DiracDelta, sp.Piecewise,
               sp.Derivative, sp.Subs)


class IntervalFunction:
    """A list of sympy expressions compiled (after ``sympy.cse``) into a straight-line program of
    ``mpmath.iv`` operations.  ``f(*intervals)`` returns one interval per expression; each is an
    enclosure of the expression's range over the argument box (outward rounding everywhere).

    Supported: symbols, integers, rationals, floats (exact binary value), pi, E, Add, Mul,
    Pow with integer, half-integer, rational or (for a positive base) symbolic exponents, exp, log,
    sqrt, Abs, Max, Min, sin, cos.  An operation undefined on part of its input (log or sqrt of an
    interval reaching below 0) raises ``ValueError``; a division by an interval containing 0
    gives an unbounded interval.
    """

    def __init__(self, exprs: Sequence[sp.Expr], variables: Sequence[sp.Symbol], ctx: MPIntervalContext):
        self.ctx = ctx
        self.variables = tuple(variables)
        self._index = {v: i for i, v in enumerate(self.variables)}
        exprs = [sp.sympify(e) for e in exprs]
        replacements, reduced = sp.cse(exprs, symbols=sp.numbered_symbols("_cse"))
        self._nslots = len(self.variables) + len(replacements)
        self._steps: list[tuple[int, Callable]] = []
        for sym, sub in replacements:
            fn = self._compile(sub)
            self._index[sym] = len(self._index)
            self._steps.append((self._index[sym], fn))
        self._outs = [self._compile(e) for e in reduced]

    def __call__(self, *values):
        if len(values) != len(self.variables):
            raise TypeError(f"expected {len(self.variables)} intervals, got {len(values)}")
        env = list(values) + [None] * (self._nslots - len(values))
        for slot, fn in self._steps:
            env[slot] = fn(env)
        return [fn(env) for fn in self._outs]

    # -- compilation -----------------------------------------------------------------------
    def _const(self, q: Fraction):
        c = _enclose(self.ctx, q)
        return lambda env: c

    def _compile(self, e: sp.Basic) -> Callable:
        ctx = self.ctx
        if e.is_Symbol:
            if e not in self._index:
                raise UnsupportedExpression(f"free symbol {e} is not a variable")
            i = self._index[e]
            return lambda env: env[i]
        if e.is_Number:
            if e.is_Rational:
                return self._const(Fraction(int(e.p), int(e.q)))
            if e.is_Float:
                r = sp.Rational(e)
                return self._const(Fraction(int(r.p), int(r.q)))
            raise UnsupportedExpression(f"number {e}")
        if e is sp.pi:
            c = ctx.pi
            return lambda env: c
        if e is sp.E:
            c = ctx.e
            return lambda env: c
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
                acc = num[0](env) if num else ctx.one
                for f in num[1:]:
                    acc = acc * f(env)
                if den:
                    d = den[0](env)
                    for f in den[1:]:
                        d = d * f(env)
                    acc = acc / d
                return acc
            return mul
        if e.is_Pow:
            return self._compile_pow(e.base, e.exp)
        if isinstance(e, sp.exp):
            f = self._compile(e.args[0])
            return lambda env: ctx.exp(f(env))
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise UnsupportedExpression("log with a base")
            f = self._compile(e.args[0])
            return lambda env: ctx.log(f(env))
        if isinstance(e, sp.Abs):
            f = self._compile(e.args[0])
            return lambda env: abs(f(env))
        if isinstance(e, (sp.Max, sp.Min)):
            fs = [self._compile(a) for a in e.args]
            pick = _mpf_max if isinstance(e, sp.Max) else _mpf_min

            def extremum(env, fs=fs, pick=pick):
                vals = [f(env) for f in fs]
                # the max (min) of intervals is taken endpoint by endpoint: exact, no rounding
                return ctx.make_mpf((pick(_lo(v) for v in vals), pick(_hi(v) for v in vals)))
            return extremum
        if isinstance(e, sp.sin):
            f = self._compile(e.args[0])
            return lambda env: ctx.sin(f(env))
        if isinstance(e, sp.cos):
            f = self._compile(e.args[0])
            return lambda env: ctx.cos(f(env))
        raise UnsupportedExpression(f"{type(e).__name__}: {e}")

    def _compile_pow(self, base: sp.Expr, expo: sp.Expr) -> Callable:
        ctx = self.ctx
        fb = self._compile(base)
        if expo.is_Integer:
            n = int(expo)
            if n >= 0:
                return lambda env: fb(env) ** n  # integer power: even powers are >= 0, exact 0 kept
            return lambda env: ctx.one / (fb(env) ** (-n))
        if expo.is_Rational or expo.is_Float:
            r = sp.Rational(expo)
            p, q = int(r.p), int(r.q)
            if q == 2:
                def half_pow(env, p=p):
                    s = ctx.sqrt(fb(env))  # ValueError if the base interval reaches below 0
                    return s ** p if p >= 0 else ctx.one / (s ** (-p))
                return half_pow
            rq = _enclose(ctx, Fraction(p, q))

            def rat_pow(env, rq=rq, positive=p > 0):
                x = fb(env)
                a, b = x._mpi_
                if _lt0(a) or _is_nan(a):
                    raise ValueError("rational power of an interval reaching below 0")
                if libmp.mpf_sign(a) > 0:
                    return ctx.exp(rq * ctx.log(x))
                if not positive:
                    raise ValueError("negative power of an interval containing 0")
                # x^r with r > 0 is increasing on [0, b]: [0, b^r]
                top = ctx.exp(rq * ctx.log(_point(ctx, b))) if libmp.mpf_sign(b) > 0 else ctx.zero
                return ctx.make_mpf((_FZERO, _hi(top)))
            return rat_pow
        fe = self._compile(expo)
        return lambda env: ctx.exp(fe(env) * ctx.log(fb(env)))


def interval_eval(expr: sp.Expr, values: Mapping[sp.Symbol, Any], prec: int = 128):
    """Enclosure of ``expr`` over a box: ``values`` maps each symbol to an exact number or to a pair
    ``(lo, hi)`` of exact numbers.  Returns an ``mpmath`` interval (``ivmpf``)."""
    ctx = interval_context(prec)
    variables = list(values)
    f = IntervalFunction([expr], variables, ctx)
    args = []
    for v in variables:
        val = values[v]
        if isinstance(val, (tuple, list)):
            lo, hi = to_fraction(val[0]), to_fraction(val[1])
            args.append(_hull(ctx, _enclose(ctx, lo), _enclose(ctx, hi)))
        else:
            args.append(_enclose(ctx, to_fraction(val)))
    return f(*args)[0]


# ----------------------------------------------------------------------------- bounds

def _phi(ctx, A, w, d):
    """Rigorous lower bound (a point interval) of  min_{t in [0, w]} (a t + d t^2 / 2)  for every
    a in the interval ``A``, every width in the interval ``w`` (w >= 0), and a curvature ``d``
    (a point interval; the true quadratic coefficient is >= d).

    For fixed t the expression is affine in a, so the minimum over t is concave in a and its
    minimum over A is attained at an endpoint of A: both endpoints are tried.  All arithmetic is
    interval arithmetic, and only lower endpoints are kept (rounding down is what matters)."""
    dt = _lo(d)
    if _is_nan(dt) or not _finite_iv(A) or not _finite_iv(w):
        return _point(ctx, libmp.fninf)
    if not libmp.mpf_sign(dt) > 0:
        # concave (or linear) in t: the minimum is at t = 0 (value 0) or t = w
        v = _lo(A * w + d * w * w / 2)
        return _point(ctx, v if _lt0(v) else _FZERO)
    worst = []
    for a in (A.a, A.b):
        if _ge0(_lo(a)):
            worst.append(_FZERO)                            # increasing on [0, w]: min 0 at t = 0
        elif _ge0(_lo(-a - d * w)):
            worst.append(_lo(a * w + d * w * w / 2))        # vertex -a/d >= w: min at t = w
        else:
            worst.append(_lo(-(a * a) / (2 * d)))           # unconstrained minimum: always valid
    return _point(ctx, _mpf_min(worst))


class _Prover:
    def __init__(self, expr, variables, prec, refute_hint):
        self.expr = expr
        self.variables = list(variables)
        self.n = len(self.variables)
        self.ctx = interval_context(prec)
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
        self.f_g = IntervalFunction(self.g_forms, self.variables, self.ctx)
        self.f_h = IntervalFunction(h_exprs, self.variables, self.ctx) if h_exprs else None
        self.f_point = IntervalFunction([expr] + self.grad, self.variables, self.ctx)
        self.n_forms = len(self.g_forms) + len(h_exprs)

    # -- evaluations ---------------------------------------------------------------------------
    def point(self, pt: tuple[Fraction, ...]):
        """(g, grad) at an exact point, as intervals; None where undefined.  Cached."""
        if pt in self.point_cache:
            return self.point_cache[pt]
        ctx = self.ctx
        try:
            vals = self.f_point(*[_enclose(ctx, q) for q in pt])
        except (ValueError, ZeroDivisionError, ArithmeticError):
            vals = None
        if vals is not None:
            g = vals[0]
            if _lt0(_lo(g)) and not _lt0(_hi(g)):
                exact = self._exact_value(pt)
                if exact is not None:
                    vals = [_enclose(ctx, exact)] + vals[1:]
                    self.exact_points.append({str(v): fraction_text(q) for v, q in zip(self.variables, pt)})
            if any(not _finite_iv(v) for v in vals):
                vals = None if not _finite_iv(vals[0]) else [vals[0]]
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
        """(G, H) enclosures over the box; H is a dict (i, j) -> interval, or None."""
        ctx = self.ctx
        X = [_hull(ctx, _enclose(ctx, lo), _enclose(ctx, hi)) for lo, hi in box]
        try:
            G = _intersect(ctx, self.f_g(*X))  # an unbounded enclosure simply fails test (a)
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
            H[key] = _intersect(ctx, vals[pos:pos + len(fs)])
            pos += len(fs)
        if any(not _finite_iv(h) for h in H.values()):
            H = None
        return G, H

    # -- the three tests -----------------------------------------------------------------------
    def _hij(self, H, i, j):
        return H[(i, j)] if i <= j else H[(j, i)]

    def _gershgorin(self, H):
        ctx = self.ctx
        rows = []
        for i in range(self.n):
            acc = self._hij(H, i, i)
            for j in range(self.n):
                if j != i:
                    acc = acc - abs(self._hij(H, i, j))
            rows.append(_lo(acc))
        return _point(ctx, _mpf_min(rows))

    def centre_bound(self, centre_vals, H, lam, radii):
        ctx = self.ctx
        g, grad = centre_vals[0], centre_vals[1:]
        # Gershgorin: 1/2 h^T H h >= lam/2 |h|^2 ; min over h_i in [-r, r] of a h + lam/2 h^2
        # equals min over s in [0, r] of -|a| s + lam/2 s^2 (worst a: largest |a|)
        total = g
        for i in range(self.n):
            total = total + _phi(ctx, _point(ctx, _lo(-abs(grad[i]))), radii[i], lam)
        best = _lo(total)
        if self.n > 1:
            # diagonal + absorbed off-diagonal: 1/2 h^T H h >= sum_i [D_i/2 h_i^2 - 1/2 |h_i| K_i],
            # K_i = sum_{j != i} |H_ij| r_j   (|h_j| <= r_j)
            total = g
            for i in range(self.n):
                K = ctx.zero
                for j in range(self.n):
                    if j != i:
                        K = K + abs(self._hij(H, i, j)) * radii[j]
                coeff = _point(ctx, _lo(-(abs(grad[i]) + K / 2)))
                total = total + _phi(ctx, coeff, radii[i], _point(ctx, _lo(self._hij(H, i, i))))
            best = _mpf_max([best, _lo(total)])
        return best

    def vertex_bound(self, vals, signs, H, lam, widths):
        """Lower bound on the box from the expansion at a vertex; h_i = s_i t_i, t_i in [0, w_i]."""
        ctx = self.ctx
        g, grad = vals[0], vals[1:]
        A = [grad[i] if signs[i] > 0 else -grad[i] for i in range(self.n)]  # inward derivatives
        # lam: Gershgorin bound of [H]; the spectrum of S H S (S = diag(signs)) equals that of H
        total = g
        for i in range(self.n):
            total = total + _phi(ctx, A[i], widths[i], lam)
        best = _lo(total)
        if self.n > 1:
            # 1/2 sum_{i!=j} s_i s_j H_ij t_i t_j >= 1/2 sum_i t_i sum_{j!=i} N_ij w_j with
            # N_ij = min(0, lower(s_i s_j H_ij)) <= 0 and t_j <= w_j
            total = g
            for i in range(self.n):
                C = A[i]
                for j in range(self.n):
                    if j != i:
                        h = self._hij(H, i, j)
                        if signs[i] * signs[j] < 0:
                            h = -h
                        N = _lo(h)
                        if _lt0(N):
                            C = C + _point(ctx, N) * widths[j] / 2
                total = total + _phi(ctx, C, widths[i], _point(ctx, _lo(self._hij(H, i, i))))
            best = _mpf_max([best, _lo(total)])
        return best

    def examine(self, box):
        """('certified', lower, test) | ('counterexample', point, g) | ('undecided', G, best)."""
        ctx = self.ctx
        centre = tuple((lo + hi) / 2 for lo, hi in box)
        cv = self.point(centre)
        if cv is not None and self.refute_hint and _lt0(_hi(cv[0])):
            return ("counterexample", centre, cv[0])
        G, H = self.box_values(box)
        best = libmp.fninf
        if G is not None and not _is_nan(_lo(G)):
            best = _lo(G)
            if _ge0(best):
                return ("certified", best, "natural")
        if H is None:
            return ("undecided", G, best)
        radii = [_enclose(ctx, (hi - lo) / 2) for lo, hi in box]
        lam = self._gershgorin(H)
        if cv is not None and len(cv) == self.n + 1:
            b = self.centre_bound(cv, H, lam, radii)
            if _ge0(b):
                return ("certified", b, "taylor-centre")
            best = _mpf_max([best, b])
        widths = [_enclose(ctx, hi - lo) for lo, hi in box]
        for choice in itertools.product((0, 1), repeat=self.n):
            vertex = tuple(box[i][choice[i]] for i in range(self.n))
            vv = self.point(vertex)
            if vv is None:
                continue
            if self.refute_hint and _lt0(_hi(vv[0])):
                return ("counterexample", vertex, vv[0])
            if _lt0(_lo(vv[0])) or len(vv) != self.n + 1:
                continue  # the bound is <= g(v) here, cannot be >= 0
            signs = [1 if c == 0 else -1 for c in choice]
            b = self.vertex_bound(vv, signs, H, lam, widths)
            if _ge0(b):
                return ("certified", b, "taylor-vertex")
            best = _mpf_max([best, b])
        return ("undecided", G, best)


def _forms(e: sp.Expr) -> list[sp.Expr]:
    forms = [e]
    try:
        alt = sp.factor(sp.cancel(sp.together(e)))
        if alt != e and not alt.has(sp.zoo, sp.nan, sp.oo, sp.I):
            forms.append(alt)
    except Exception:  # pragma: no cover - a failed rewrite just means one form
        pass
    return forms


def _intersect(ctx, vals):
    """Intersection of enclosures of the same range (all valid, so the intersection is too).
    An empty intersection would signal an invalid rewrite: then only the first form is used."""
    good = [v for v in vals if not (_is_nan(_lo(v)) or _is_nan(_hi(v)))]
    if not good:
        return vals[0]
    a = _mpf_max(_lo(v) for v in good)
    b = _mpf_min(_hi(v) for v in good)
    if libmp.mpf_gt(a, b):
        return vals[0]
    return ctx.make_mpf((a, b))


def _box_json(box) -> list[list[str]]:
    return [[fraction_text(lo), fraction_text(hi)] for lo, hi in box]


def _box_width(box) -> Fraction:
    return max((hi - lo for lo, hi in box), default=Fraction(0))


def prove_nonnegative(expr: sp.Expr, box: Mapping[sp.Symbol, tuple[Any, Any]], statement: str,
                      max_boxes: int = 20000, prec: int = 128, *, domain: str | None = None,
                      refute_hint: bool = True, min_width: Any = None,
                      record_boxes: bool = True) -> Certificate:
    """Prove ``expr >= 0`` on the box ``{symbol: (lo, hi)}`` by branch-and-bound (see module doc).

    ``ok`` is True only when every part of the box was certified.  ``details["boxes"]`` lists the
    certified boxes (endpoints as exact strings), each with its proved lower bound (a float rounded
    down) and the test that certified it.  On failure ``details`` holds ``counterexample`` (an exact
    point where ``g`` is certainly negative, with the interval value of ``g`` there) or
    ``failed_box`` (the smallest box that could not be decided, with the enclosure of ``g`` on it).
    ``min_width``: a box whose widest side is below this is not bisected further (default: the
    initial widest side times 2^-60)."""
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
    method = f"interval branch-and-bound ({LIBRARY}, outward rounding, prec={prec})"
    if domain is None:
        domain = ", ".join(f"{v} in [{fraction_text(lo)}, {fraction_text(hi)}]" for v, (lo, hi) in zip(variables, root))
    if min_width is None:
        min_width = _box_width(root) / 2 ** 60
    min_width = to_fraction(min_width)

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
        "max_boxes": max_boxes,
    }

    def finish(ok: bool) -> Certificate:
        details["boxes_certified"] = len(certified)
        details["tests_used"] = tests_used
        lows = [b["lower"] for b in certified if isinstance(b["lower"], float)]
        details["min_certified_lower_bound"] = min(lows) if lows else None
        if record_boxes:
            details["boxes"] = certified
        details["exact_point_values"] = prover.exact_points[:50]
        return Certificate(method=method, statement=statement, domain=domain, ok=ok, details=details,
                           seconds=time.perf_counter() - start)

    certified: list[dict[str, Any]] = []
    tests_used: dict[str, int] = {}
    stack = [root]
    examined = 0
    smallest: dict[str, Any] | None = None
    smallest_width: Fraction | None = None
    while stack:
        cur = stack.pop()
        if examined >= max_boxes:
            details["boxes_examined"] = examined
            details["reason"] = f"max_boxes={max_boxes} reached with {len(stack) + 1} boxes left"
            details["failed_box"] = smallest or {"box": _box_json(cur)}
            return finish(False)
        examined += 1
        verdict = prover.examine(cur)
        if verdict[0] == "certified":
            _, lower, test = verdict
            certified.append({"box": _box_json(cur), "lower": _float_down(lower), "test": test})
            tests_used[test] = tests_used.get(test, 0) + 1
            continue
        if verdict[0] == "counterexample":
            _, pt, g = verdict
            details["boxes_examined"] = examined
            details["reason"] = "g < 0 at a point (rigorous: the upper end of the enclosure is < 0)"
            details["counterexample"] = {
                "point": {str(v): fraction_text(q) for v, q in zip(variables, pt)},
                "g_interval": _iv_json(g), "g": _float_up(_hi(g)),
            }
            return finish(False)
        _, G, best = verdict
        width = _box_width(cur)
        if smallest_width is None or width <= smallest_width:
            smallest_width = width
            smallest = {"box": _box_json(cur),
                        "g_interval": _iv_json(G) if G is not None else None,
                        "best_lower_bound": _float_down(best)}
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
        stack.append(right)
        stack.append(left)
    details["boxes_examined"] = examined
    return finish(True)


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


def number_text(v: Any) -> str:
    """A float as its repr, anything else as the exact rational it denotes."""
    return repr(v) if isinstance(v, float) else fraction_text(to_fraction(v))
