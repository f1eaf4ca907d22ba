"""Certified bounds on an infimum over an extended-real box: can a quantity reach a level at all?

Given a quantity ``Q(v)`` (a sympy expression in decision variables ``v``) and a box (each variable in
``[lo, hi]``, where ``lo`` may be ``-oo`` and ``hi`` may be ``+oo``), :func:`certified_infimum` returns an
:class:`Infimum`:

* ``lower`` -- a certified lower bound of ``inf_box Q``: ``Q(v) >= lower`` at every point of the box where
  ``Q`` is defined.  If ``lower > eps`` no admissible point reaches ``Q <= eps`` (:meth:`Infimum.unreachable`);
* ``upper`` -- a certified upper bound of ``Q`` at one concrete point of the box (``point``), hence of the
  infimum: every level ``>= upper`` is reached (:meth:`Infimum.reachable`).

Arithmetic.  Intervals are pairs of mpmath binary floating-point numbers (mpmath's ``iv`` layer,
:mod:`mpmath.libmp.libmpi`), with directed rounding: every operation returns an interval containing the
exact result for every point of its operands.  Ends may be ``-inf``/``+inf``: ``[10, +inf]`` stands for
``{x real: x >= 10}``, so ``exp(-[10, +inf]) = [0, 4.54e-5]`` and ``log(1 + exp([10, +inf])) = [10.00004, +inf]``.
The transcendental results (exp, log, roots) are computed 20 bits above the working precision and then
widened outward by a relative ``2^-(prec+10)``, so an error of a few ulps in mpmath's directed rounding
cannot make an enclosure too narrow.  Box ends are exact rationals (``Fraction``; a float is its exact
binary value, a string such as ``"0.1"`` is exactly 1/10; an irrational end such as ``sqrt(2)`` is
enclosed, the box for the lower bound rounded outward and the points for the upper bound kept inside).

The evaluator (:func:`enclosure`, compiled once per expression) supports symbols, integers, rationals,
floats (exact binary value), ``pi``, ``E``, ``Add``, ``Mul``, ``Pow`` with an integer exponent, a rational
exponent (base ``>= 0``; ``> 0`` for a negative exponent) or a symbolic exponent (``b^e = exp(e log b)``,
base ``> 0``), ``exp``, ``log``, ``sqrt``, ``Abs``, ``Max``, ``Min``.  Anything else raises
:class:`UnsupportedExpression` naming the node.  An operation whose argument interval is not certainly
inside its domain (``log`` of an interval reaching ``<= 0``, a negative power of an interval containing
0, a root of an interval reaching below 0) makes the evaluation *fail*: that leaf's lower bound is
``-inf`` (it certifies nothing) and the result counts it (``undefined_leaves``) while it stays.

Branch and bound.  A priority queue of leaves (a cover of the box) ordered by their lower bounds; the
leaf with the smallest lower bound is split -- along its widest side among those the monotonicity test
below did not settle (``(-oo, oo)`` first, then a half-infinite side whose finite end is nearest 0, then
the widest finite side; ties to the first variable by name): a finite side at its midpoint, ``[a, +oo]`` into ``[a, b]`` and ``[b, +oo]`` with
``b = a + max(2|a|, 1)`` (symmetrically for ``-oo``), ``(-oo, +oo)`` at 0.  The certified lower bound is
the least lower bound of the leaves (``-inf`` while a leaf where ``Q`` is undefined, or unbounded below,
remains; the search stops early when ``Q`` is certainly defined nowhere on the least leaf, since splitting
cannot help).  On a leaf ``X`` the lower bound is the best of

(a) the natural interval extension ``Q(X)``;
(b) for an expression without ``Abs``/``Max``/``Min`` whose gradient is certainly defined on ``X``: a
    monotonicity reduction (when ``dQ/dv_i >= 0`` on ``X`` and ``v_i``'s lower end is finite, ``Q`` at
    any point of ``X`` is at least ``Q`` at its projection on the face ``v_i = lo_i``; the same for
    ``<= 0`` and a finite upper end), then the natural extension and the mean-value form
    ``Q(c) + sum_i dQ/dv_i(X) (X'_i - c_i)`` on the reduced box ``X'`` (finite sides only).
    Both hold by the mean value theorem along segments inside ``X``.

Upper bounds: ``Q`` evaluated on the (degenerate) interval of a finite point of each examined leaf (its
centre, or the split point of a half-infinite side, and the centre of the reduced box); the least upper
end is kept, with its point.

Stopping: ``lower > target`` (refutation of ``Q <= target``), ``upper <= target`` (the level is reached),
``upper - lower <= max(atol, rtol |upper|)`` (the gap closed), the leaf with the least bound cannot be
split, or ``max_boxes`` leaves.  All decisions compare exact binary numbers or Fractions; nothing is
decided by a float tolerance, and the run is deterministic (ties in the queue broken by creation order).

Separable sums: an ``Add`` (or a positive constant times an ``Add``) whose terms fall into groups sharing
no variable is bounded group by group (the box is a product, so the infimum of the sum is the sum of the
infima); the lower bounds are added rounding down, the upper bounds rounding up, and the points joined.
Each group gets its own budget of ``max_boxes`` leaves and runs to its own gap (``target`` is checked on
the sum); a group equal to an earlier one up to a renaming of its variables (same box sides: one logit per
data point with the same label pattern) reuses that group's bounds.  ``boxes`` is the total of the groups'
covers.

:func:`parametric_infimum` tabulates the infimum over a grid of parameter values (objects fixed before
the decision variables, e.g. a weight bound ``B`` with ``box_of({"B": 2}) = {w: (-2, 2)}``).

Ground layer: imports nothing from ``theorems``.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

import mpmath
import mpmath.libmp as L
import sympy as sp
from mpmath.libmp import libmpi as LI

from numerics.certificate import Certificate
from numerics.errors import ClcheckError
from numerics.interval import UnsupportedExpression as _BallUnsupported

__all__ = ["Infimum", "UnsupportedExpression", "certified_infimum", "parametric_infimum", "enclosure",
           "METHOD"]

METHOD = "extended-real interval branch and bound (mpmath.iv)"

_F, _C = L.round_floor, L.round_ceiling
_FINF, _FNINF, _FNAN, _FZERO, _FONE = L.finf, L.fninf, L.fnan, L.fzero, L.fone
_GUARD = 20  # extra bits for transcendental functions


class UnsupportedExpression(_BallUnsupported, ClcheckError):
    """The expression contains a node the interval evaluator does not implement (the message names it).
    A subclass of :class:`numerics.interval.UnsupportedExpression` (a ValueError) and of ClcheckError."""


class _Undefined(ArithmeticError):
    """An operation's argument interval is not certainly inside its domain (log of an interval reaching
    <= 0, a negative power of an interval containing 0, ...): no enclosure on this leaf.  ``everywhere``:
    the argument is certainly outside the domain at every point (e.g. log of an interval <= 0), so the
    expression is defined nowhere on the leaf and splitting it cannot help."""

    def __init__(self, message: str, everywhere: bool = False):
        super().__init__(message)
        self.everywhere = everywhere


# ----------------------------------------------------------------------------- raw intervals
# An interval is a pair (a, b) of raw mpf tuples (mpmath.libmp), a <= b, ends possibly -inf / +inf.

def _is_inf(x) -> bool:
    return x == _FINF or x == _FNINF


def _check(iv):
    a, b = iv
    if a == _FNAN or b == _FNAN:
        raise _Undefined("NaN in an interval operation")
    return iv


def _widen(iv, prec: int):
    """Round a transcendental result (computed at prec + _GUARD bits) outward to prec bits, with a relative
    margin of 2^-(prec+10) in case mpmath's directed rounding is off by a few ulps."""
    a, b = iv
    if not _is_inf(a) and a != _FZERO:
        a = L.mpf_sub(a, L.mpf_shift(L.mpf_abs(a), -(prec + 10)), prec, _F)
    if not _is_inf(b) and b != _FZERO:
        b = L.mpf_add(b, L.mpf_shift(L.mpf_abs(b), -(prec + 10)), prec, _C)
    return a, b


def _iv_fraction(q: Fraction, prec: int):
    return (L.from_rational(q.numerator, q.denominator, prec, _F),
            L.from_rational(q.numerator, q.denominator, prec, _C))


def _iv_side(lo: Fraction | None, hi: Fraction | None, prec: int):
    """The interval of a box side (None: an infinite end)."""
    a = _FNINF if lo is None else L.from_rational(lo.numerator, lo.denominator, prec, _F)
    b = _FINF if hi is None else L.from_rational(hi.numerator, hi.denominator, prec, _C)
    return a, b


def _mul(s, t, prec):
    if (s[0] == _FZERO and s[1] == _FZERO) or (t[0] == _FZERO and t[1] == _FZERO):
        return _FZERO, _FZERO  # 0 times any real number (an infinite end is a limit, not a member)
    return _check(LI.mpi_mul(s, t, prec))


def _contains_zero(iv) -> bool:
    return L.mpf_le(iv[0], _FZERO) and L.mpf_ge(iv[1], _FZERO)


def _text(iv) -> str:
    return f"[{L.to_str(iv[0], 8)}, {L.to_str(iv[1], 8)}]"


def _pow_int(s, n: int, prec: int):
    if n >= 0:
        return _check(LI.mpi_pow_int(s, n, prec))
    if _contains_zero(s):
        raise _Undefined(f"negative power {n} of an interval containing 0 {_text(s)}",
                         s[0] == _FZERO and s[1] == _FZERO)
    return _check(LI.mpi_div((_FONE, _FONE), LI.mpi_pow_int(s, -n, prec + _GUARD), prec))


def _pow_rational(s, p: int, q: int, prec: int):
    """s^(p/q), q > 1, for a base certainly >= 0 (> 0 when p < 0)."""
    a, b = s
    if L.mpf_lt(a, _FZERO) or (p < 0 and a == _FZERO):
        raise _Undefined(f"power {p}/{q} of an interval reaching {'below ' if p > 0 else ''}0 {_text(s)}",
                         L.mpf_lt(b, _FZERO) or (p < 0 and b == _FZERO))
    wp = prec + _GUARD
    m = abs(p)
    lo = L.mpf_nthroot(L.mpf_pow_int(a, m, wp, _F), q, wp, _F)
    hi = L.mpf_nthroot(L.mpf_pow_int(b, m, wp, _C), q, wp, _C)
    y = _widen((lo, hi), prec)
    if p < 0:
        y = _check(LI.mpi_div((_FONE, _FONE), y, prec))
    return _check(y)


def _exp(s, prec):
    return _check(_widen(LI.mpi_exp(s, prec + _GUARD), prec))


def _log(s, prec):
    if L.mpf_le(s[0], _FZERO):
        raise _Undefined(f"log of an interval reaching <= 0 {_text(s)}", L.mpf_le(s[1], _FZERO))
    return _check(_widen(LI.mpi_log(s, prec + _GUARD), prec))


def _max(s, t):
    return (s[0] if L.mpf_ge(s[0], t[0]) else t[0]), (s[1] if L.mpf_ge(s[1], t[1]) else t[1])


def _min(s, t):
    return (s[0] if L.mpf_le(s[0], t[0]) else t[0]), (s[1] if L.mpf_le(s[1], t[1]) else t[1])


# ----------------------------------------------------------------------------- the evaluator

class _Program:
    """Sympy expressions compiled into a straight-line program over raw intervals at ``prec`` bits (each
    distinct subexpression evaluated once per call; no algebraic rewriting such as ``sympy.cse``'s
    ``2**(-x) -> 1/2**x``, which would divide by an enclosure reaching 0).  ``program(env)`` -> one interval
    per expression, ``env`` one interval per variable; raises :class:`_Undefined` where an operation leaves
    its domain."""

    def __init__(self, exprs: Sequence[sp.Expr], variables: Sequence[sp.Symbol], prec: int):
        self.prec = int(prec)
        self._index = {v: i for i, v in enumerate(variables)}
        self._nvars = len(self._index)
        self._steps: list[Callable] = []
        self._memo: dict[sp.Basic, Callable] = {}
        self._outs = [self._compile(sp.sympify(e)) for e in exprs]

    def __call__(self, env: list) -> list:
        env = list(env)
        for fn in self._steps:
            env.append(fn(env))
        return [fn(env) for fn in self._outs]

    def _compile(self, e: sp.Basic) -> Callable:
        got = self._memo.get(e)
        if got is not None:
            return got
        fn = self._build(e)
        if not (e.is_Symbol or e.is_Number):
            slot = self._nvars + len(self._steps)
            self._steps.append(fn)
            fn = lambda env, slot=slot: env[slot]  # noqa: E731
        self._memo[e] = fn
        return fn

    def _const(self, iv):
        return lambda env: iv

    def _build(self, e: sp.Basic) -> Callable:
        prec = self.prec
        if e.is_Symbol:
            if e not in self._index:
                raise UnsupportedExpression(f"free symbol {e} has no range (give it a box side or substitute a value)")
            i = self._index[e]
            return lambda env: env[i]
        if e.is_Number:
            if e.is_Rational:
                return self._const(_iv_fraction(Fraction(int(e.p), int(e.q)), prec))
            if e.is_Float:
                raw = e._mpf_
                return self._const((L.mpf_pos(raw, prec, _F), L.mpf_pos(raw, prec, _C)))
            raise UnsupportedExpression(f"number {e} ({type(e).__name__})")
        if e is sp.pi:
            return self._const(LI.mpi_pi(prec))
        if e is sp.E:
            one = (_FONE, _FONE)
            return lambda env: _exp(one, prec)
        if e.is_Add:
            fs = [self._compile(a) for a in e.args]

            def add(env, fs=fs):
                acc = fs[0](env)
                for f in fs[1:]:
                    acc = LI.mpi_add(acc, f(env), prec)
                return _check(acc)
            return add
        if e.is_Mul:
            fs = [self._compile(a) for a in e.args]

            def mul(env, fs=fs):
                acc = fs[0](env)
                for f in fs[1:]:
                    acc = _mul(acc, f(env), prec)
                return acc
            return mul
        if e.is_Pow:
            return self._compile_pow(e)
        if isinstance(e, sp.exp):
            f = self._compile(e.args[0])
            return lambda env: _exp(f(env), prec)
        if isinstance(e, sp.log) and len(e.args) == 1:
            f = self._compile(e.args[0])
            return lambda env: _log(f(env), prec)
        if isinstance(e, sp.Abs):
            f = self._compile(e.args[0])
            return lambda env: LI.mpi_abs(f(env), prec)
        if isinstance(e, (sp.Max, sp.Min)):
            fs = [self._compile(a) for a in e.args]
            op = _max if isinstance(e, sp.Max) else _min

            def fold(env, fs=fs, op=op):
                acc = fs[0](env)
                for f in fs[1:]:
                    acc = op(acc, f(env))
                return acc
            return fold
        raise UnsupportedExpression(f"unsupported node {type(e).__name__}: {e} (supported: numbers, pi, E, +, *, "
                                    "integer/rational/positive-base powers, exp, log, sqrt, Abs, Max, Min)")

    def _compile_pow(self, e: sp.Pow) -> Callable:
        prec = self.prec
        base, expo = e.base, e.exp
        fb = self._compile(base)
        if expo.is_Integer:
            n = int(expo)
            return lambda env: _pow_int(fb(env), n, prec)
        if expo.is_Rational:
            p, q = int(expo.p), int(expo.q)
            return lambda env: _pow_rational(fb(env), p, q, prec)
        if expo.is_Float:
            raise UnsupportedExpression(f"power with a float exponent: {e} (write a Rational)")
        fe = self._compile(expo)

        def general(env):  # b^e = exp(e log b), b > 0
            b = fb(env)
            if L.mpf_le(b[0], _FZERO):
                raise _Undefined(f"power with a symbolic exponent of a base reaching <= 0 {_text(b)}",
                                 L.mpf_lt(b[1], _FZERO))
            return _exp(_mul(fe(env), _log(b, prec + _GUARD), prec + _GUARD), prec)
        return general


def enclosure(expr: Any, box: Mapping[Any, tuple[Any, Any]] | None = None, dps: int = 40) -> tuple[mpmath.mpf, mpmath.mpf]:
    """An interval ``(a, b)`` (mpmath numbers, rounded outward) containing ``expr`` at every point of ``box``
    (``{symbol or name: (lo, hi)}``, ends possibly infinite).  Raises :class:`UnsupportedExpression` for an
    unsupported node and ``ArithmeticError`` when an operation leaves its domain on the box."""
    expr = sp.sympify(expr)
    prec = L.dps_to_prec(dps)
    sides = _normalise_box(expr, box or {}, prec)
    prog = _Program([expr], [s.symbol for s in sides], prec)
    a, b = prog([_iv_side(s.lo, s.hi, prec) for s in sides])[0]
    return _mpf(a), _mpf(b)


# ----------------------------------------------------------------------------- exact numbers

def _mpf(raw) -> mpmath.mpf:
    return mpmath.mp.make_mpf(raw)


def _frac(raw) -> Fraction:
    """The exact value of a finite raw mpf."""
    sign, man, exp, _ = raw
    v = Fraction(man) * (Fraction(2) ** exp)
    return -v if sign else v


def _raw_from_fraction(q: Fraction, prec: int, rnd) -> tuple:
    return L.from_rational(q.numerator, q.denominator, prec, rnd)


def _level_interval(level: Any, prec: int):
    """An enclosure of a level (number, string, Fraction, sympy expression, +-oo)."""
    if isinstance(level, mpmath.mpf):
        raw = level._mpf_
        return raw, raw
    if isinstance(level, Fraction):
        return _iv_fraction(level, prec)
    if isinstance(level, float):
        if math.isinf(level):
            return (_FINF, _FINF) if level > 0 else (_FNINF, _FNINF)
        raw = L.from_float(level)
        return raw, raw
    e = sp.sympify(level, rational=isinstance(level, str))
    if e == sp.oo:
        return _FINF, _FINF
    if e == -sp.oo:
        return _FNINF, _FNINF
    if e.free_symbols:
        raise ValueError(f"level {e} is not a number (free symbols {sorted(map(str, e.free_symbols))})")
    return _Program([e], [], prec)([])[0]


def _down_float(raw) -> float:
    """A float <= the number (for reports)."""
    if raw == _FNINF:
        return -math.inf
    if raw == _FINF:
        return math.inf
    return L.to_float(raw, rnd=_F)


def _up_float(raw) -> float:
    if raw == _FINF:
        return math.inf
    if raw == _FNINF:
        return -math.inf
    return L.to_float(raw, rnd=_C)


def _exact_text(raw) -> str:
    if _is_inf(raw):
        return "-oo" if raw == _FNINF else "oo"
    return str(_frac(raw))


# ----------------------------------------------------------------------------- boxes

@dataclass(frozen=True)
class _Side:
    symbol: sp.Symbol
    lo: Fraction | None          # None: -oo (outer end, for the lower bound)
    hi: Fraction | None          # None: +oo
    inner_lo: Fraction | None    # the ends points for upper bounds must respect (== lo/hi for rational ends)
    inner_hi: Fraction | None
    text: str

    @property
    def finite(self) -> bool:
        return self.lo is not None and self.hi is not None


def _end(value: Any, prec: int, is_lo: bool) -> tuple[Fraction | None, Fraction | None, str]:
    """(outer, inner, text) for a box end: exact rationals stay exact, irrational ends are enclosed."""
    if isinstance(value, bool):
        raise TypeError("a bool is not a box end")
    if isinstance(value, Fraction):
        return value, value, str(value)
    if isinstance(value, int):
        return Fraction(value), Fraction(value), str(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError("a box end is NaN")
        if math.isinf(value):
            if (value < 0) != is_lo:
                raise ValueError(f"box end {value}: a lower end cannot be +oo nor an upper end -oo")
            return None, None, "-oo" if value < 0 else "oo"
        return Fraction(value), Fraction(value), repr(value)
    if isinstance(value, mpmath.mpf):
        if mpmath.isinf(value) or mpmath.isnan(value):
            return _end(float(value), prec, is_lo)
        q = _frac(value._mpf_)
        return q, q, str(q)
    if isinstance(value, str) and value.strip().lower() in ("inf", "+inf", "-inf", "oo", "+oo", "-oo", "infinity",
                                                            "-infinity", "+infinity"):
        return _end(-math.inf if value.strip().startswith("-") else math.inf, prec, is_lo)
    e = sp.sympify(value, rational=isinstance(value, str))
    if e in (sp.oo, -sp.oo):
        return _end(math.inf if e == sp.oo else -math.inf, prec, is_lo)
    if e.is_Rational:
        q = Fraction(int(e.p), int(e.q))
        return q, q, str(q)
    if e.is_Float:
        q = _frac(e._mpf_)
        return q, q, str(e)
    if e.free_symbols or not e.is_number:
        raise ValueError(f"box end {e} is not a number: give the parameters values first")
    a, b = _Program([e], [], prec + 64)([])[0]
    if _is_inf(a) or _is_inf(b):
        raise ValueError(f"box end {e} has no finite enclosure")
    lo_q, hi_q = _frac(a), _frac(b)
    return (lo_q, hi_q, str(e)) if is_lo else (hi_q, lo_q, str(e))


def _normalise_box(expr: sp.Expr, box: Mapping[Any, tuple[Any, Any]], prec: int) -> list[_Side]:
    by_name: dict[str, tuple[Any, Any]] = {}
    for key, ends in box.items():
        name = key.name if isinstance(key, sp.Symbol) else str(key)
        if name in by_name:
            raise ValueError(f"variable {name} given twice in the box")
        by_name[name] = tuple(ends)
    names = {s.name: s for s in expr.free_symbols}
    if len(names) != len(expr.free_symbols):
        raise ValueError(f"two different symbols share a name in {expr}")
    missing = sorted(n for n in names if n not in by_name)
    if missing:
        raise ValueError(f"no range for {missing}: give each free symbol of the expression a box side "
                         "(or substitute the parameters' values first)")
    sides = []
    for name in sorted(names):
        lo_v, hi_v = by_name[name]
        lo, ilo, lt = _end(lo_v, prec, True)
        hi, ihi, ht = _end(hi_v, prec, False)
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"empty box side {name} in [{lt}, {ht}]")
        text = f"{name} in {'(' if lo is None else '['}{lt}, {ht}{')' if hi is None else ']'}"
        sides.append(_Side(names[name], lo, hi, ilo, ihi, text))
    return sides


def _split_point(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    if lo is None and hi is None:
        return Fraction(0)
    if hi is None:
        return lo + max(2 * abs(lo), Fraction(1))
    if lo is None:
        return hi - max(2 * abs(hi), Fraction(1))
    return (lo + hi) / 2


def _split_key(lo: Fraction | None, hi: Fraction | None):
    """Larger is split first: (-oo, oo), then half-infinite sides whose finite end is nearest 0, then the
    widest finite side."""
    if lo is None and hi is None:
        return (2, Fraction(0))
    if lo is None or hi is None:
        return (1, -abs(hi if lo is None else lo))
    return (0, hi - lo)


def _inside_point(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """A finite point of a side: its centre, or the split point of an infinite side."""
    return _split_point(lo, hi)


# ----------------------------------------------------------------------------- the result

@dataclass(frozen=True)
class Infimum:
    """Certified bounds on ``inf_box expr``.

    ``lower``: ``expr >= lower`` at every point of the box where it is defined (an mpmath number, an exact
    binary value rounded down, possibly ``-inf``); ``upper``: ``expr(point) <= upper`` (rounded up, ``+inf``
    when no point could be evaluated) so ``inf <= upper``; ``point``: variable name -> exact coordinate
    (text of a rational); ``boxes``: leaves in the final cover; ``complete``: the lower bound exceeds the
    requested ``target`` or the gap ``upper - lower`` closed; ``stopped``: why the search ended;
    ``undefined_leaves``: leaves of the final cover on which ``expr`` could not be evaluated (each
    contributes ``-inf``); ``parts``: the group results of a separable sum."""

    expr: sp.Expr
    domain: str
    lower: mpmath.mpf
    upper: mpmath.mpf
    point: dict[str, str]
    boxes: int
    method: str
    complete: bool
    stopped: str
    target: Any = None
    undefined_leaves: int = 0
    undefined_reason: str | None = None
    parts: tuple["Infimum", ...] = ()
    seconds: float = field(default=0.0, compare=False)

    @property
    def lower_fraction(self) -> Fraction | None:
        """``lower`` as an exact Fraction (None when it is -inf)."""
        return None if mpmath.isinf(self.lower) else _frac(self.lower._mpf_)

    @property
    def upper_fraction(self) -> Fraction | None:
        return None if mpmath.isinf(self.upper) else _frac(self.upper._mpf_)

    def unreachable(self, level: Any) -> bool:
        """True when certainly ``lower > level``: ``expr <= level`` holds at no point of the box."""
        lv = _level_interval(level, L.dps_to_prec(50))
        return L.mpf_gt(self.lower._mpf_, lv[1])

    def reachable(self, level: Any) -> bool:
        """True when certainly ``upper <= level``: ``expr(point) <= level``."""
        lv = _level_interval(level, L.dps_to_prec(50))
        return L.mpf_le(self.upper._mpf_, lv[0])

    def certificate(self) -> Certificate:
        """``expr >= lower`` on the box (``ok`` when ``lower`` is finite; the proof covers the whole box,
        infinite sides included, so ``complete`` is True whenever ``ok``)."""
        lo_raw = self.lower._mpf_
        ok = not _is_inf(lo_raw)
        details: dict[str, Any] = {
            "lower": _down_float(lo_raw), "lower_exact": _exact_text(lo_raw),
            "upper": _up_float(self.upper._mpf_), "upper_exact": _exact_text(self.upper._mpf_),
            "point": dict(self.point), "leaves": self.boxes, "stopped": self.stopped,
            "gap_closed_or_target_reached": self.complete, "library": f"mpmath {mpmath.__version__} (iv)",
        }
        if self.target is not None:
            details["target"] = str(self.target)
            details["target_reached"] = self.unreachable(self.target)
        if self.undefined_leaves:
            details["undefined_leaves"] = self.undefined_leaves
            details["undefined_reason"] = self.undefined_reason
        if self.parts:
            details["parts"] = [p.certificate().to_json() for p in self.parts]
        statement = f"{self.expr} >= {_exact_text(lo_raw)}" + (f" (>= {_down_float(lo_raw)!r})" if ok else "")
        return Certificate(method=self.method, statement=f"{statement} on {self.domain}", domain=self.domain,
                           ok=ok, details=details, seconds=self.seconds, complete=ok)


# ----------------------------------------------------------------------------- branch and bound (one group)

@dataclass
class _Leaf:
    box: tuple[tuple[Fraction | None, Fraction | None], ...]
    lower: tuple                      # raw mpf
    split: int                        # the coordinate to split
    undefined: str | None = None      # why the expression could not be evaluated on the leaf
    nowhere: bool = False             # ... and it is certainly defined at no point of the leaf


class _Solver:
    def __init__(self, expr: sp.Expr, sides: list[_Side], prec: int):
        self.expr = expr
        self.sides = sides
        self.vars = [s.symbol for s in sides]
        self.n = len(sides)
        self.prec = prec
        self.f = _Program([expr], self.vars, prec)
        self.grad = None
        if not expr.has(sp.Abs, sp.Max, sp.Min):
            try:
                self.grad = _Program([sp.diff(expr, v) for v in self.vars], self.vars, prec)
            except UnsupportedExpression:
                self.grad = None
        self.best_upper = _FINF
        self.best_point: dict[str, str] = {}
        self._points: dict[tuple, tuple | None] = {}

    def env(self, box):
        return [_iv_side(lo, hi, self.prec) for lo, hi in box]

    def point_env(self, pt):
        return [_iv_fraction(q, self.prec) for q in pt]

    def at_point(self, pt: tuple[Fraction, ...]) -> tuple | None:
        """Q on the interval of an exact point (None where undefined), cached; a point inside the box (its
        inner ends) may improve the upper bound."""
        if pt in self._points:
            return self._points[pt]
        try:
            val = self.f(self.point_env(pt))[0]
        except (_Undefined, ArithmeticError, ValueError):
            val = None
        self._points[pt] = val
        inside = all((s.inner_lo is None or q >= s.inner_lo) and (s.inner_hi is None or q <= s.inner_hi)
                     for q, s in zip(pt, self.sides))
        if val is not None and inside and L.mpf_lt(val[1], self.best_upper):
            self.best_upper = val[1]
            self.best_point = {str(v): str(q) for v, q in zip(self.vars, pt)}
        return val

    def choose_split(self, box, reduced: set[int]) -> int:
        cands = [i for i in range(self.n) if i not in reduced and not (box[i][0] is not None and box[i][0] == box[i][1])]
        if not cands:
            cands = [i for i in range(self.n) if not (box[i][0] is not None and box[i][0] == box[i][1])]
        if not cands:
            return -1
        return max(cands, key=lambda i: (_split_key(*box[i]), -i))

    def examine(self, box) -> _Leaf:
        prec = self.prec
        # an upper bound at a finite point of the leaf
        self.at_point(tuple(_inside_point(lo, hi) for lo, hi in box))
        try:
            F = self.f(self.env(box))[0]
        except _Undefined as exc:
            return _Leaf(box, _FNINF, self.choose_split(box, set()), undefined=str(exc), nowhere=exc.everywhere)
        best = F[0]
        reduced: set[int] = set()
        if self.grad is not None:
            try:
                G = self.grad(self.env(box))
            except (_Undefined, ArithmeticError):
                G = None
            if G is not None:
                red = list(box)
                for i, (ga, gb) in enumerate(G):
                    lo, hi = box[i]
                    if lo is not None and L.mpf_ge(ga, _FZERO) and lo != hi:
                        red[i] = (lo, lo)
                        reduced.add(i)
                    elif hi is not None and L.mpf_le(gb, _FZERO) and lo != hi:
                        red[i] = (hi, hi)
                        reduced.add(i)
                red = tuple(red)
                if reduced:
                    try:
                        Fr = self.f(self.env(red))[0]
                        if L.mpf_gt(Fr[0], best):
                            best = Fr[0]
                    except (_Undefined, ArithmeticError):
                        pass
                if all(lo is not None and hi is not None for lo, hi in red):
                    c = tuple((lo + hi) / 2 for lo, hi in red)
                    fc = self.at_point(c)
                    if fc is not None:
                        acc = (fc[0], fc[0])
                        try:
                            for i, (lo, hi) in enumerate(red):
                                if lo == hi:
                                    continue
                                h = _iv_side(lo - c[i], hi - c[i], prec)
                                acc = LI.mpi_add(acc, _mul(G[i], h, prec), prec)
                            acc = _check(acc)
                            if L.mpf_gt(acc[0], best):
                                best = acc[0]
                        except (_Undefined, ArithmeticError):
                            pass
        return _Leaf(box, best, self.choose_split(box, reduced))

    def run(self, target, max_boxes: int, rtol: Fraction, atol: Fraction):
        counter = 0
        root = tuple((s.lo, s.hi) for s in self.sides)
        leaf = self.examine(root)
        heap = [(_Key(leaf.lower), counter, leaf)]
        stopped = "budget"
        while True:
            _, _, top = heap[0]
            lower = top.lower
            if target is not None and L.mpf_gt(lower, target[1]):
                stopped = "target reached (lower > target)"
                break
            if target is not None and L.mpf_le(self.best_upper, target[0]):
                stopped = "target reached from above (upper <= target)"
                break
            if _gap_closed(lower, self.best_upper, rtol, atol):
                stopped = "gap closed"
                break
            if top.nowhere:
                stopped = "the expression is defined nowhere on a leaf (its lower bound stays -inf)"
                break
            if top.split < 0:
                stopped = "the least leaf is a point"
                break
            if len(heap) >= max_boxes:
                stopped = "budget"
                break
            heapq.heappop(heap)
            i = top.split
            lo, hi = top.box[i]
            m = _split_point(lo, hi)
            for part in ((lo, m), (m, hi)):
                box = top.box[:i] + (part,) + top.box[i + 1:]
                child = self.examine(box)
                counter += 1
                heapq.heappush(heap, (_Key(child.lower), counter, child))
        lower = heap[0][2].lower
        undefined = [lf for _, _, lf in heap if lf.undefined]
        return lower, stopped, len(heap), undefined


class _Key:
    """Heap key: a raw mpf compared exactly."""
    __slots__ = ("raw",)

    def __init__(self, raw):
        self.raw = raw

    def __lt__(self, other):
        return L.mpf_lt(self.raw, other.raw)

    def __eq__(self, other):
        return L.mpf_eq(self.raw, other.raw)


def _gap_closed(lower, upper, rtol: Fraction, atol: Fraction) -> bool:
    if _is_inf(lower) or _is_inf(upper):
        return False
    lo, up = _frac(lower), _frac(upper)
    return up - lo <= max(atol, rtol * abs(up))


# ----------------------------------------------------------------------------- the entry points

def components(terms: Sequence[sp.Expr], variables: Iterable[sp.Symbol] | None = None) -> list[list[int]]:
    """Indices of ``terms`` grouped so that no two groups share a variable (every free symbol, or only those of
    ``variables``): terms of different groups can be bounded apart (union-find, in the terms' order)."""
    keep = None if variables is None else set(variables)
    parent = list(range(len(terms)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    owner: dict[sp.Symbol, int] = {}
    for i, t in enumerate(terms):
        for v in sorted(t.free_symbols if keep is None else t.free_symbols & keep, key=lambda s: s.name):
            if v in owner:
                parent[root(i)] = root(owner[v])
            else:
                owner[v] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(terms)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _groups(expr: sp.Expr) -> tuple[Fraction, list[sp.Expr]]:
    """(c, groups) with expr = c * sum(groups), c > 0 rational, groups sharing no free symbol."""
    c = Fraction(1)
    body = expr
    if expr.is_Mul:
        coeff, rest = expr.as_coeff_Mul()
        if coeff.is_Rational and coeff > 0 and rest.is_Add:
            c, body = Fraction(int(coeff.p), int(coeff.q)), rest
    if not body.is_Add:
        return c, [body]
    terms = list(body.args)
    return c, [sp.Add(*(terms[i] for i in group)) for group in components(terms)]


def _single(expr, sides, prec, target_iv, max_boxes, rtol, atol, target) -> Infimum:
    start = time.perf_counter()
    domain = ", ".join(s.text for s in sides) or "(no variables)"
    if not sides:  # a constant
        try:
            a, b = _Program([expr], [], prec)([])[0]
            und, reason = 0, None
        except _Undefined as exc:
            a, b, und, reason = _FNINF, _FINF, 1, str(exc)
        done = (target_iv is not None and L.mpf_gt(a, target_iv[1])) or _gap_closed(a, b, rtol, atol)
        return Infimum(expr=expr, domain=domain, lower=_mpf(a), upper=_mpf(b), point={}, boxes=1,
                       method=f"{METHOD}: constant", complete=bool(done), stopped="constant", target=target,
                       undefined_leaves=und, undefined_reason=reason, seconds=time.perf_counter() - start)
    solver = _Solver(expr, sides, prec)
    lower, stopped, leaves, undefined = solver.run(target_iv, max_boxes, rtol, atol)
    complete = (target_iv is not None and L.mpf_gt(lower, target_iv[1])) or \
        _gap_closed(lower, solver.best_upper, rtol, atol)
    how = "natural extension" + (" + monotonicity and mean-value forms" if solver.grad is not None else "")
    return Infimum(expr=expr, domain=domain, lower=_mpf(lower), upper=_mpf(solver.best_upper),
                   point=solver.best_point, boxes=leaves, method=f"{METHOD}: {how}", complete=bool(complete),
                   stopped=stopped, target=target, undefined_leaves=len(undefined),
                   undefined_reason=undefined[0].undefined if undefined else None,
                   seconds=time.perf_counter() - start)


def certified_infimum(expr: Any, box: Mapping[Any, tuple[Any, Any]], target: Any = None, max_boxes: int = 2000,
                      dps: int = 40, *, rtol: Any = Fraction(1, 10 ** 6), atol: Any = Fraction(1, 10 ** 9),
                      separate: bool = True) -> Infimum:
    """Certified bounds on ``inf expr`` over ``box`` (``{symbol or name: (lo, hi)}``, ends exact numbers or
    ``-oo``/``+oo``; every free symbol of ``expr`` needs a side).  See the module docstring.

    ``target``: a level (number or sympy expression); the search stops as soon as ``lower > target`` or
    ``upper <= target``.  ``max_boxes``: the most leaves of the cover (per group of a separable sum).
    ``dps``: decimal digits of the interval arithmetic.  ``rtol``/``atol``: the search stops when
    ``upper - lower <= max(atol, rtol |upper|)`` (exact comparison).  ``separate``: bound the groups of a
    separable sum one by one."""
    start = time.perf_counter()
    expr = sp.sympify(expr)
    prec = L.dps_to_prec(dps)
    rtol, atol = Fraction(rtol), Fraction(atol)
    sides = _normalise_box(expr, box, prec)
    target_iv = None if target is None else _level_interval(target, prec)
    c, groups = _groups(expr) if separate else (Fraction(1), [expr])
    if len(groups) == 1:
        return _single(expr, sides, prec, target_iv, max_boxes, rtol, atol, target)
    by_symbol = {s.symbol: s for s in sides}
    parts, solved = [], {}
    for g in groups:
        vs = sorted(g.free_symbols, key=lambda s: s.name)
        # a group equal to an earlier one up to renaming its variables (same box sides) has the same bounds
        canon = g.xreplace({v: sp.Symbol(f"_v{i}", **v.assumptions0) for i, v in enumerate(vs)})
        key = (sp.srepr(canon), tuple((by_symbol[v].lo, by_symbol[v].hi, by_symbol[v].inner_lo, by_symbol[v].inner_hi)
                                      for v in vs))
        if key in solved:
            first, first_vs = solved[key]
            rename = {str(a): str(b) for a, b in zip(first_vs, vs)}
            parts.append(replace(first, expr=g, domain=", ".join(by_symbol[v].text for v in vs),
                                 point={rename[k]: q for k, q in first.point.items()}, seconds=0.0))
            continue
        part = _single(g, [by_symbol[v] for v in vs], prec, None, max_boxes, rtol, atol, None)
        solved[key] = (part, vs)
        parts.append(part)
    # sum, scaled by c > 0: exact rationals, then rounded down / up
    if any(mpmath.isinf(p.lower) for p in parts):
        lower_raw = _FNINF
    else:
        lower_raw = _raw_from_fraction(c * sum((p.lower_fraction for p in parts), Fraction(0)), prec, _F)
    if any(mpmath.isinf(p.upper) for p in parts):
        upper_raw = _FINF
    else:
        upper_raw = _raw_from_fraction(c * sum((p.upper_fraction for p in parts), Fraction(0)), prec, _C)
    point: dict[str, str] = {}
    for p in parts:
        point.update(p.point)
    reached = target_iv is not None and L.mpf_gt(lower_raw, target_iv[1])
    complete = reached or all(p.complete for p in parts)
    if reached:
        stopped = "target reached (lower > target)"
    elif target_iv is not None and L.mpf_le(upper_raw, target_iv[0]):
        stopped = "target reached from above (upper <= target)"
    else:
        stopped = "; ".join(sorted({p.stopped for p in parts}))
    undefined = [p for p in parts if p.undefined_leaves]
    scale = "" if c == 1 else f" (times {c})"
    return Infimum(expr=expr, domain=", ".join(s.text for s in sides), lower=_mpf(lower_raw), upper=_mpf(upper_raw),
                   point=point, boxes=sum(p.boxes for p in parts),
                   method=f"{METHOD}: separable sum of {len(parts)} groups sharing no variable{scale}",
                   complete=bool(complete), stopped=stopped, target=target,
                   undefined_leaves=sum(p.undefined_leaves for p in parts),
                   undefined_reason=undefined[0].undefined_reason if undefined else None, parts=tuple(parts),
                   seconds=time.perf_counter() - start)


def parametric_infimum(expr: Any, box_of: Callable[[dict[str, Any]], Mapping[Any, tuple[Any, Any]]],
                       parameters: Sequence[Any], values: Iterable[Any], **options: Any) -> list[tuple[dict[str, Any], Infimum]]:
    """For each assignment of the ``parameters`` (symbols or names) in ``values`` -- each a mapping
    name -> value, a tuple aligned with ``parameters``, or a scalar when there is one parameter -- the
    parameters are substituted into ``expr`` and :func:`certified_infimum` runs over ``box_of(assignment)``.
    Returns ``[(assignment, Infimum), ...]`` in the order of ``values``.  ``options`` go to
    :func:`certified_infimum`; a ``target`` may be a callable of the assignment."""
    expr = sp.sympify(expr)
    names = [p.name if isinstance(p, sp.Symbol) else str(p) for p in parameters]
    syms = {s.name: s for s in expr.free_symbols}
    out = []
    for v in values:
        if isinstance(v, Mapping):
            assignment = {(k.name if isinstance(k, sp.Symbol) else str(k)): x for k, x in v.items()}
        elif isinstance(v, (tuple, list)):
            if len(v) != len(names):
                raise ValueError(f"values {v} do not match parameters {names}")
            assignment = dict(zip(names, v))
        elif len(names) == 1:
            assignment = {names[0]: v}
        else:
            raise ValueError(f"value {v!r}: give a mapping or a tuple for the parameters {names}")
        if set(assignment) != set(names):
            raise ValueError(f"assignment {assignment} does not match parameters {names}")
        subs = {syms[n]: _exact_sympy(x) for n, x in assignment.items() if n in syms}
        opts = dict(options)
        if callable(opts.get("target")):
            opts["target"] = opts["target"](assignment)
        out.append((assignment, certified_infimum(expr.subs(subs), box_of(dict(assignment)), **opts)))
    return out


def _exact_sympy(x: Any) -> sp.Expr:
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    if isinstance(x, float):
        return sp.Rational(x)  # exact binary value
    if isinstance(x, str):
        return sp.sympify(x, rational=True)
    return sp.sympify(x)
