"""Certified lower bounds on an infimum: is a conclusion ``Q <= level`` reachable at all?

For "under H, the conclusion Q <= eps is reached" (../shared/LOGICAL-FORM.md, "Deciding the main theorems",
item 2) this computes a certified lower bound of ``inf Q`` over a box of decision variables whose ends may
be expressions in earlier-bound symbols (``w in [-B, B]``), at given values of those symbols:

* exact route (:func:`infimum`, one variable): sympy's derivative decides monotonicity, else its real
  critical points (``solveset``) and the ends (limits at an infinite end) are compared; the answer is the
  infimum as a sympy expression in the symbols of the box's ends (``log(1 + exp(-B))``), with whether it is
  attained; where the box is bounded at the given values it is cross-checked by the numeric route;
* certified numeric route (:func:`certified_infimum`, any number of variables, a bounded box): a value
  ``U`` that ``Q`` takes (sampling, local refinement, an arb upper end at a rational point), then
  ``Q - L >= 0`` proved for ``L = U - gap`` by the branch and bound of :func:`numerics.interval.prove_nonnegative`;
* finite sums (:func:`sum_infimum`): terms sharing no decision variable split the problem (the box is a
  product), so the infimum of the sum is the sum of the infima; :func:`table_infimum` is the training loss
  of a "table" model (one logit per distinct input point) on a labelled list.

:func:`unreachable` is True when the certified lower bound exceeds a level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Hashable, Mapping, Sequence

import numpy as np
import sympy as sp
from scipy.optimize import minimize
from sympy.calculus.util import continuous_domain

from numerics import reach_bb
from numerics.certificate import Certificate
from numerics.interval import fraction_text, interval_eval, prove_nonnegative

__all__ = ["InfimumBound", "infimum", "certified_infimum", "sum_infimum", "table_model", "table_infimum",
           "logistic_loss", "unreachable"]

Box = Mapping[sp.Symbol, tuple[Any, Any]]
_NON_SMOOTH = (sp.Abs, sp.Max, sp.Min, sp.Piecewise, sp.sign, sp.Heaviside, sp.floor, sp.ceiling)


def _sym(x: Any) -> sp.Expr:
    """An exact sympy number or expression (floats at their exact binary value, +-inf as +-oo)."""
    if isinstance(x, Fraction):
        return sp.Rational(x.numerator, x.denominator)
    if isinstance(x, float):
        return sp.oo if x == math.inf else -sp.oo if x == -math.inf else sp.Rational(x)
    if isinstance(x, str):
        return sp.sympify(x.strip(), rational=True)
    return sp.sympify(x)


def _rat(q: Fraction) -> sp.Rational:
    return sp.Rational(q.numerator, q.denominator)


def _ball(e: sp.Expr):
    return interval_eval(e, {})


def _float_down(q: Fraction) -> float:
    f = float(q)
    return math.nextafter(f, -math.inf) if Fraction(f) > q else f


def _round_down(x: Fraction, bits: int = 64) -> Fraction:
    k = bits - max(0, abs(int(x)).bit_length())
    return Fraction(math.floor(x * 2 ** k), 2 ** k)


# ----------------------------------------------------------------------------- the result

@dataclass(frozen=True)
class InfimumBound:
    """``inf expr`` over ``box`` at ``values``: ``lower <= inf`` (the exact infimum as a sympy number on
    the exact route, a rational proved by ``proof`` on the numeric one; None: no bound), ``exact`` the
    infimum as a sympy expression in the box's symbols (None: numeric only), ``upper`` a value ``expr``
    takes on the box, ``complete`` False when only a truncation of the box was covered."""

    expr: sp.Expr
    box: tuple[tuple[sp.Symbol, sp.Expr, sp.Expr], ...]
    values: tuple[tuple[sp.Symbol, sp.Expr], ...]
    lower: sp.Expr | Fraction | None
    exact: sp.Expr | None
    method: str
    attained: bool | None = None
    upper: Fraction | None = None
    complete: bool = True
    proof: Certificate | None = None
    parts: tuple["InfimumBound", ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def lower_end(self) -> Fraction | None:
        """A rational ``<= inf``: ``lower`` itself, or the lower end of an arb ball around the exact value."""
        if self.lower is None or isinstance(self.lower, Fraction):
            return self.lower
        if self.lower == -sp.oo:
            return None
        if self.lower.is_Rational:
            return Fraction(int(self.lower.p), int(self.lower.q))
        return _ball(self.lower).lo

    def domain(self) -> str:
        box = ", ".join(f"{v} in {'(' if lo == -sp.oo else '['}{lo}, {hi}{')' if hi == sp.oo else ']'}"
                        for v, lo, hi in self.box)
        vals = ", ".join(f"{s} = {v}" for s, v in self.values)
        return f"{box} at {vals}" if vals else box

    def certificate(self) -> Certificate:
        """``inf expr >= lower`` on the box: ``ok`` when established, ``complete`` only on the whole box."""
        lo = self.lower_end()
        statement = f"inf of {self.expr} >= {self.lower if self.lower is not None else '-oo'}" + (
            f" (>= {_float_down(lo)!r})" if lo is not None and not isinstance(self.lower, Fraction) else "")
        details: dict[str, Any] = {"route": self.method, "exact": None if self.exact is None else str(self.exact),
                                   "attained": self.attained, **self.details,
                                   "upper": None if self.upper is None else fraction_text(self.upper)}
        if self.parts:
            certs = [p.certificate() for p in self.parts]
            details["parts"] = [c.to_json() for c in certs]
            return Certificate(method=self.method, statement=statement, domain=self.domain(),
                               ok=self.lower is not None and all(c.ok for c in certs), details=details,
                               complete=all(c.complete for c in certs))
        if self.exact is not None:
            if self.proof is not None:
                details["interval_check"] = self.proof.to_json()
            return Certificate(method=f"sympy ({self.method})", statement=statement, domain=self.domain(),
                               ok=True, details=details, complete=self.complete)
        ok = self.lower is not None and self.proof is not None and self.proof.ok
        if self.proof is not None:
            details.update(self.proof.details)
        return Certificate(method=self.proof.method if self.proof else self.method, statement=statement,
                           domain=self.domain(), ok=ok, details=details, complete=self.complete and ok,
                           seconds=self.proof.seconds if self.proof else 0.0)


def unreachable(bound: InfimumBound, level: Any) -> bool:
    """True when the certified lower bound of ``inf Q`` is ``> level``: ``Q <= level`` holds nowhere on the box."""
    lo = bound.lower_end()
    lv = _sym(level)
    if lo is None or lv == sp.oo:
        return False
    if lv == -sp.oo:
        return True
    hi = _ball(lv).hi
    return hi is not None and lo > hi


# ----------------------------------------------------------------------------- inputs

def _normalise(box: Box, values: Mapping[sp.Symbol, Any] | None):
    box_t = tuple((v, _sym(lo), _sym(hi)) for v, (lo, hi) in box.items())
    vals = {s: _sym(x) for s, x in (values or {}).items()}
    return box_t, vals


def _check_symbols(expr: sp.Expr, box_t, vals) -> None:
    free = expr.free_symbols | {s for _, lo, hi in box_t for s in lo.free_symbols | hi.free_symbols}
    missing = free - {v for v, _, _ in box_t} - set(vals)
    if missing:
        raise ValueError(f"no value for {sorted(map(str, missing))}: give them in values")


def _pack(vals: Mapping[sp.Symbol, sp.Expr]) -> tuple[tuple[sp.Symbol, sp.Expr], ...]:
    return tuple(sorted(vals.items(), key=lambda kv: str(kv[0])))


# ----------------------------------------------------------------------------- exact route (one variable)

def _le(a: sp.Expr, b: sp.Expr) -> bool | None:
    """a <= b for real numbers (+-oo allowed), exactly or by arb balls; None when undecided."""
    rel = sp.Le(a, b)
    if rel in (sp.true, sp.false):
        return bool(rel)
    ba, bb = _ball(a), _ball(b)
    if ba.hi is not None and bb.lo is not None and ba.hi <= bb.lo:
        return True
    if ba.lo is not None and bb.hi is not None and ba.lo > bb.hi:
        return False
    return None


def _exact_1d(q0: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, vals) -> dict[str, Any] | str:
    """The infimum of ``q0`` over ``[lo, hi]`` as a sympy expression, or the reason there is none."""
    if q0.has(*_NON_SMOOTH):
        return "not smooth (Abs/Max/Min/Piecewise/...)"
    r = sp.Dummy(var.name, real=True)
    q = q0.subs(var, r)
    lo_at, hi_at = lo.subs(vals), hi.subs(vals)
    if _le(lo_at, hi_at) is not True:
        return f"empty or undecided range [{lo_at}, {hi_at}]"
    if not sp.Interval(lo_at, hi_at).is_subset(continuous_domain(q.subs(vals), r, sp.S.Reals)):
        return "not continuous on the range"
    d = sp.diff(q, r)
    if sp.count_ops(d) > 400:
        return "derivative too large"

    def end(e: sp.Expr) -> tuple[sp.Expr, bool]:
        infinite = e.subs(vals) in (sp.oo, -sp.oo)
        return (sp.limit(q, r, e.subs(vals)) if infinite else q.subs(r, e)), not infinite

    d_at = d.subs(vals)
    if d.is_nonpositive or d_at.is_nonpositive:
        how, cands = "monotone: decreasing", [("upper end", *end(hi))]
    elif d.is_nonnegative or d_at.is_nonnegative:
        how, cands = "monotone: increasing", [("lower end", *end(lo))]
    else:
        crit = sp.solveset(d, r, sp.S.Reals)
        if not isinstance(crit, sp.FiniteSet):
            crit = sp.solveset(d_at, r, sp.S.Reals)
        if not isinstance(crit, sp.FiniteSet):  # e.g. periodic: finitely many in a bounded range
            crit = sp.solveset(d_at, r, sp.Interval(lo_at, hi_at))
        if not isinstance(crit, sp.FiniteSet):
            return f"critical points not a finite set: {crit}"
        how = "critical points and ends"
        cands = [("lower end", *end(lo)), ("upper end", *end(hi))]
        for c in crit:
            c_at = c.subs(vals)
            inside = [_le(lo_at, c_at), _le(c_at, hi_at)]
            if None in inside:
                return f"undecided whether the critical point {c_at} is in range"
            if all(inside):
                cands.append((f"critical point {c}", q.subs(r, c), True))
    return _least(cands, vals, how)


def _least(cands, vals, how: str) -> dict[str, Any] | str:
    """The least candidate value at ``vals`` (ties resolved exactly; attained ones preferred)."""
    rows, infinite = [], {}
    for name, value, attained in cands:
        at = sp.simplify(value.subs(vals)) if value.subs(vals).has(sp.Limit) else value.subs(vals)
        if at == -sp.oo:
            return {"value": -sp.oo, "at": -sp.oo, "attained": False, "how": how, "candidates": {name: "-oo"}}
        if at == sp.oo:
            infinite[name] = "oo"
            continue
        if not at.is_number or at.has(sp.AccumBounds, sp.nan, sp.zoo, sp.Limit, sp.I):
            return f"candidate {name} has no real value: {at}"
        rows.append((name, value, at, attained, _ball(at)))
    if not rows:
        return "every candidate is +oo"
    rows.sort(key=lambda row: (row[4].a, not row[3]))
    best = rows[0]
    for other in rows[1:]:
        b_hi, o_lo = best[4].hi, other[4].lo
        if b_hi is not None and o_lo is not None and b_hi <= o_lo:
            continue
        if (best[2] - other[2]).equals(0):
            best = best if best[3] or not other[3] else other
            continue
        return f"cannot order the candidates {best[0]} and {other[0]}"
    return {"value": best[1], "at": best[2], "attained": best[3], "how": f"{how}; least: {best[0]}",
            "candidates": {**{name: str(at) for name, _, at, _, _ in rows}, **infinite}}


def _exact_route(expr, box_t, vals) -> dict[str, Any] | str:
    (var, lo, hi), = box_t
    end_syms = lo.free_symbols | hi.free_symbols
    data = {s: v for s, v in vals.items() if s not in end_syms}
    reasons = []
    for sub in ([data, vals] if data != vals else [vals]):
        try:
            res = _exact_1d(expr.subs(sub), var, lo.subs(sub), hi.subs(sub), vals)
        except Exception as exc:  # sympy could not decide: no exact answer, the numeric route remains
            res = f"{type(exc).__name__}: {exc}"
        if isinstance(res, dict):
            return res
        reasons.append(res)
    return "; ".join(reasons)


# ----------------------------------------------------------------------------- numeric route

def _rational_box(box_t, vals, truncate):
    """Rational ends containing the box at ``vals`` (irrational ends rounded outward); infinite ends cut at
    +-truncate.  Returns (box, complete)."""
    out, complete = {}, True
    for v, lo, hi in box_t:
        ends = []
        for e, side in ((lo.subs(vals), "lo"), (hi.subs(vals), "hi")):
            if e in (sp.oo, -sp.oo):
                if truncate is None:
                    raise ValueError(f"{v} ranges to {e}: give truncate=R (the proof then covers [-R, R] only)")
                complete = False
                ends.append(Fraction(truncate) * (1 if e == sp.oo else -1))
            elif e.is_Rational:
                ends.append(Fraction(int(e.p), int(e.q)))
            else:
                ball = _ball(e)
                ends.append(ball.lo if side == "lo" else ball.hi)
        out[v] = (ends[0], ends[1])
    return out, complete


def _value_upper(g: sp.Expr, point: Mapping[sp.Symbol, Fraction]) -> Fraction | None:
    try:
        return interval_eval(g, dict(point)).hi
    except (ValueError, ArithmeticError):
        return None


def _upper_bound(g: sp.Expr, rbox: Mapping[sp.Symbol, tuple[Fraction, Fraction]], seed: int):
    """A rational ``U`` with ``g(p) <= U`` at a rational point ``p`` of the box: grid or random samples,
    every corner and L-BFGS-B from the best three, each candidate evaluated in arb."""
    vs = list(rbox)
    lo = np.array([float(rbox[v][0]) for v in vs])
    hi = np.array([float(rbox[v][1]) for v in vs])
    n = len(vs)
    m = max(2, min(65, int(round(4096 ** (1 / n)))))
    if m ** n <= 6000:
        axes = [np.linspace(a, b, m) for a, b in zip(lo, hi)]
        pts = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, n)
    else:
        pts = lo + (hi - lo) * np.random.default_rng(seed).random((4096, n))
    if n <= 10:
        corners = np.array([[hi[i] if (k >> i) & 1 else lo[i] for i in range(n)] for k in range(2 ** n)])
        pts = np.vstack([pts, corners])
    try:
        f = sp.lambdify(vs, g, modules="numpy")
        with np.errstate(all="ignore"):
            ys = np.broadcast_to(np.asarray(f(*pts.T), dtype=float), (len(pts),)).copy()
    except Exception:  # no float evaluation: the centre only
        f, ys = None, np.full(len(pts), np.inf)
    ys[~np.isfinite(ys)] = np.inf
    cands = [pts[i] for i in np.argsort(ys)[:3] if np.isfinite(ys[i])]
    if f is not None:
        for x0 in list(cands):
            try:
                with np.errstate(all="ignore"):
                    res = minimize(lambda x: float(f(*x)), x0, method="L-BFGS-B", bounds=list(zip(lo, hi)))
                if np.isfinite(res.fun):
                    cands.append(res.x)
            except Exception:  # a failed refinement leaves the samples
                pass
    points = [{v: min(max(Fraction(float(x[i])), rbox[v][0]), rbox[v][1]) for i, v in enumerate(vs)} for x in cands]
    points.append({v: (a + b) / 2 for v, (a, b) in rbox.items()})
    best: tuple[Fraction, dict] | None = None
    for p in points:
        u = _value_upper(g, p)
        if u is not None and (best is None or u < best[0]):
            best = (u, p)
    return best


def certified_infimum(expr: sp.Expr, box: Box, values: Mapping[sp.Symbol, Any] | None = None, *,
                      tol: float = 1e-9, truncate: Any = None, max_boxes: int = 4000, prec: int = 128,
                      seed: int = 0) -> InfimumBound:
    """A rational ``L <= inf expr`` on the box, proved by interval branch and bound, within about
    ``tol * max(1, |inf|)`` of the infimum when the prover certifies it (the gap grows 64-fold per failed
    attempt, five attempts, then the natural arb enclosure of the whole box).  Infinite ends need
    ``truncate``; the bound then covers ``[-truncate, truncate]`` only (``complete=False``)."""
    box_t, vals = _normalise(box, values)
    _check_symbols(expr, box_t, vals)
    g = sp.sympify(expr).subs(vals)
    if truncate is None and any(e.subs(vals) in (sp.oo, -sp.oo) for _, lo, hi in box_t for e in (lo, hi)):
        return _extended(expr, g, box_t, vals, max_boxes)
    rbox, complete = _rational_box(box_t, vals, truncate)
    best = _upper_bound(g, rbox, seed)
    upper, point = best if best else (None, None)
    lower, proof, attempts = None, None, []
    gap = Fraction(tol) * max(1, abs(upper)) if upper is not None else None
    for _ in range(5 if upper is not None else 0):
        level = _round_down(upper - gap)
        proof = prove_nonnegative(g - _rat(level), rbox, statement=f"{g} >= {fraction_text(level)}",
                                  max_boxes=max_boxes, prec=prec, record_boxes=False)
        attempts.append({"level": fraction_text(level), "ok": proof.ok, "reason": proof.details.get("reason")})
        if proof.ok:
            lower = level
            break
        cx = proof.details.get("counterexample")
        u = _value_upper(g, {v: Fraction(cx["point"][str(v)]) for v in rbox}) if cx else None
        if u is not None and u < upper:
            upper, point = u, {v: Fraction(cx["point"][str(v)]) for v in rbox}
        else:
            gap *= 64
    if lower is None:
        try:
            nat = interval_eval(g, rbox).lo
        except (ValueError, ArithmeticError):
            nat = None
        if nat is not None:
            level = _round_down(nat - Fraction(1, 2 ** 60) * max(1, abs(nat)))
            proof = prove_nonnegative(g - _rat(level), rbox, statement=f"{g} >= {fraction_text(level)}",
                                      max_boxes=max_boxes, prec=prec, record_boxes=False)
            attempts.append({"level": fraction_text(level), "ok": proof.ok, "natural": True})
            lower = level if proof.ok else None
    details = {"attempts": attempts,
               "rational_box": {str(v): [fraction_text(a), fraction_text(b)] for v, (a, b) in rbox.items()},
               "upper_at": None if point is None else {str(v): fraction_text(q) for v, q in point.items()}}
    if not complete:
        details["truncation"] = f"infinite ends cut at +-{truncate}"
    return InfimumBound(expr=sp.sympify(expr), box=box_t, values=_pack(vals), lower=lower, exact=None,
                        method="interval branch and bound", upper=upper, complete=complete, proof=proof,
                        details=details)


def _extended(expr: sp.Expr, g: sp.Expr, box_t, vals, max_boxes: int) -> InfimumBound:
    """The certified numeric route over a box with infinite ends, without truncation: the interval branch and
    bound of :mod:`numerics.reach_bb` (mpmath intervals with infinite ends, half-infinite sides split outward)."""
    found = reach_bb.certified_infimum(g, {v: (lo.subs(vals), hi.subs(vals)) for v, lo, hi in box_t},
                                       max_boxes=max_boxes)
    return InfimumBound(expr=sp.sympify(expr), box=box_t, values=_pack(vals), lower=found.lower_fraction, exact=None,
                        method=found.method, upper=found.upper_fraction, complete=True, proof=found.certificate(),
                        details={"leaves": found.boxes, "stopped": found.stopped})


# ----------------------------------------------------------------------------- the entry point

def infimum(expr: sp.Expr, box: Box, values: Mapping[sp.Symbol, Any] | None = None, *, verify: bool = True,
            **numeric: Any) -> InfimumBound:
    """``inf expr`` over the box at ``values``: the exact route for one variable (the infimum as a function
    of the symbols in the box's ends, the other symbols at their values; cross-checked by the numeric route
    when the box is bounded and ``verify``), else :func:`certified_infimum` (``numeric`` its options)."""
    expr = sp.sympify(expr)
    box_t, vals = _normalise(box, values)
    _check_symbols(expr, box_t, vals)
    reason = "more than one variable"
    if len(box_t) == 1:
        res = _exact_route(expr, box_t, vals)
        if isinstance(res, dict):
            bound = InfimumBound(expr=expr, box=box_t, values=_pack(vals), lower=res["at"], exact=res["value"],
                                 method=res["how"], attained=res["attained"],
                                 details={"candidates": res["candidates"]})
            bounded = all(e.subs(vals) not in (sp.oo, -sp.oo) for _, lo, hi in box_t for e in (lo, hi))
            if not (verify and bounded and res["at"] != -sp.oo):
                return bound
            check = certified_infimum(expr, box, values, **{**numeric, "truncate": None})
            exact_ball = _ball(res["at"])
            consistent = ((check.lower is None or exact_ball.hi is None or check.lower <= exact_ball.hi)
                          and (check.upper is None or exact_ball.lo is None or exact_ball.lo <= check.upper))
            if consistent:
                return replace(bound, upper=check.upper, proof=check.proof)
            return replace(check, details={**check.details, "exact_rejected": str(res["value"])})
        reason = res
    bound = certified_infimum(expr, box, values, **numeric)
    return replace(bound, details={**bound.details, "no_exact": reason})


# ----------------------------------------------------------------------------- sums over a data set

def sum_infimum(terms: Sequence[sp.Expr], box: Box, values: Mapping[sp.Symbol, Any] | None = None, *,
                mean: bool = False, **options: Any) -> InfimumBound:
    """``inf`` of ``sum(terms)`` (or their mean) over the box: terms sharing no decision variable form
    independent problems whose infima add up (exact when every part is exact), each solved by :func:`infimum`."""
    terms = [sp.sympify(t) for t in terms]
    if not terms:
        raise ValueError("no terms")
    box_t, vals = _normalise(box, values)
    weight = sp.Rational(1, len(terms)) if mean else sp.Integer(1)
    parts = []
    for group in reach_bb.components(terms, list(box)):
        sub = sp.Add(*(terms[i] for i in group))
        sub_box = {v: box[v] for v in box if v in sub.free_symbols}
        if not sub_box:
            at = sub.subs(vals)
            parts.append(InfimumBound(expr=sub, box=(), values=_pack(vals), lower=at, exact=sub,
                                      method="constant", attained=True))
        else:
            parts.append(infimum(sub, sub_box, values, **options))
    if all(p.exact is not None for p in parts):
        lower: sp.Expr | Fraction | None = weight * sp.Add(*(p.lower for p in parts))
        exact = weight * sp.Add(*(p.exact for p in parts))
    else:
        ends = [p.lower_end() for p in parts]
        lower = None if None in ends else Fraction(int(weight.p), int(weight.q)) * sum(ends, Fraction(0))
        exact = None
    attained = None if any(p.attained is None for p in parts) else all(p.attained for p in parts)
    uppers = [p.upper for p in parts]
    upper = None if None in uppers else Fraction(int(weight.p), int(weight.q)) * sum(uppers, Fraction(0))
    return InfimumBound(expr=weight * sp.Add(*terms), box=box_t, values=_pack(vals), lower=lower, exact=exact,
                        method=f"sum of {len(parts)} independent infima (no shared decision variable)",
                        attained=attained, upper=upper, complete=all(p.complete for p in parts),
                        parts=tuple(parts), details={"groups": len(parts), "terms": len(terms)})


def logistic_loss(z: sp.Expr, y: Any) -> sp.Expr:
    """``log(1 + exp(-y z))``: the logistic loss of the logit ``z`` on the label ``y`` in {-1, +1}."""
    return sp.log(1 + sp.exp(-_sym(y) * z))


def _key(p: Any) -> Hashable:
    p = p.tolist() if hasattr(p, "tolist") else p
    return tuple(p) if isinstance(p, (list, tuple)) else p


def table_model(data: Sequence[tuple[Any, Any]], loss: Callable[[sp.Expr, Any], sp.Expr] = logistic_loss,
                bound: Any = None) -> tuple[list[sp.Expr], dict[sp.Symbol, tuple[Any, Any]], dict[Hashable, sp.Symbol]]:
    """The per-example losses of a table model on ``[(x_i, y_i)]``: one logit ``z_p`` per distinct point,
    in ``[-bound, bound]`` (the real line when None).  Returns (terms, box, point -> logit)."""
    logits: dict[Hashable, sp.Symbol] = {}
    terms = []
    for x, y in data:
        z = logits.setdefault(_key(x), sp.Symbol(f"z{len(logits)}", real=True))
        terms.append(loss(z, y))
    b = sp.oo if bound is None else _sym(bound)
    return terms, {z: (-b, b) for z in logits.values()}, logits


def table_infimum(data: Sequence[tuple[Any, Any]], loss: Callable[[sp.Expr, Any], sp.Expr] = logistic_loss,
                  bound: Any = None, values: Mapping[sp.Symbol, Any] | None = None, **options: Any) -> InfimumBound:
    """``inf`` over the logits of the mean training loss of a table model on ``data`` (see :func:`table_model`)."""
    terms, box, _ = table_model(data, loss, bound)
    return sum_infimum(terms, box, values, mean=True, **options)
