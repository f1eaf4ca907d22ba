"""z3 proofs of polynomial inequalities: a statement ``hypotheses => goal`` over the reals is proved
when z3 reports ``unsat`` for ``And(hypotheses, Not(goal))`` (nonlinear real arithmetic, QF_NRA).

``sat`` comes with a model: a counterexample, re-checked by evaluating the hypotheses and the goal
in it.  ``unknown`` (including a timeout) proves nothing.  Every query records the z3 result string,
the time it took and the query itself in SMT-LIB form.

The log-sum-exp facts are turned into polynomial statements with ``y_i = exp(x_i)``: exp is a
bijection R -> (0, inf) and log is increasing, so e.g. ``LSE(x) <= x_k + log n`` is equivalent to
``sum_j y_j <= n y_k`` for all y in (0, inf)^n.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Sequence

import sympy as sp
import z3

from theorems.certify import Certificate

METHOD = "z3 (negation unsat)"

__all__ = [
    "METHOD", "prove_polynomial", "to_z3", "lse_max_bounds_smt", "lse_nonneg_smt", "lse_pairwise_smt",
    "lse_restriction_smt", "lse_bounds_smt", "softmax2_curvature_smt",
]


# ----------------------------------------------------------------------------- sympy -> z3

def _z3_rational(q: Fraction) -> z3.ArithRef:
    return z3.RealVal(f"{q.numerator}/{q.denominator}") if q.denominator != 1 else z3.RealVal(q.numerator)


def to_z3(e: Any, varmap: dict) -> Any:
    """Translate a sympy polynomial expression / relation / boolean formula into z3 (exact:
    floats become their exact binary value).  z3 expressions and Python numbers pass through."""
    if isinstance(e, (z3.ExprRef, bool)):
        return e
    if isinstance(e, Fraction):
        return _z3_rational(e)
    if isinstance(e, int):
        return z3.RealVal(e)
    if isinstance(e, float):
        return _z3_rational(Fraction(e))
    e = sp.sympify(e)
    if e is sp.true:
        return z3.BoolVal(True)
    if e is sp.false:
        return z3.BoolVal(False)
    if e.is_Symbol:
        if e not in varmap:
            varmap[e] = z3.Real(str(e))
        return varmap[e]
    if e.is_Rational:
        return _z3_rational(Fraction(int(e.p), int(e.q)))
    if e.is_Float:
        r = sp.Rational(e)
        return _z3_rational(Fraction(int(r.p), int(r.q)))
    if e.is_Add:
        return z3.Sum([to_z3(a, varmap) for a in e.args])
    if e.is_Mul:
        return z3.Product([to_z3(a, varmap) for a in e.args])
    if e.is_Pow:
        if not (e.exp.is_Integer and e.exp >= 0):
            raise ValueError(f"only nonnegative integer powers are polynomial: {e}")
        base = to_z3(e.base, varmap)
        return z3.Product([base] * int(e.exp)) if int(e.exp) > 0 else z3.RealVal(1)
    rel = {sp.GreaterThan: lambda a, b: a >= b, sp.StrictGreaterThan: lambda a, b: a > b,
           sp.LessThan: lambda a, b: a <= b, sp.StrictLessThan: lambda a, b: a < b,
           sp.Equality: lambda a, b: a == b, sp.Unequality: lambda a, b: a != b}
    for cls, op in rel.items():
        if isinstance(e, cls):
            return op(to_z3(e.lhs, varmap), to_z3(e.rhs, varmap))
    if isinstance(e, sp.And):
        return z3.And([to_z3(a, varmap) for a in e.args])
    if isinstance(e, sp.Or):
        return z3.Or([to_z3(a, varmap) for a in e.args])
    if isinstance(e, sp.Not):
        return z3.Not(to_z3(e.args[0], varmap))
    if isinstance(e, sp.Implies):
        return z3.Implies(to_z3(e.args[0], varmap), to_z3(e.args[1], varmap))
    raise ValueError(f"not a polynomial formula: {e}")


def _model_value(v: Any) -> str:
    if z3.is_rational_value(v):
        q = v.as_fraction()
        return str(Fraction(q.numerator, q.denominator))
    if z3.is_algebraic_value(v):
        return f"{v.approx(30).as_decimal(30)} (algebraic: {v.sexpr()})"
    return str(v)


# ----------------------------------------------------------------------------- the prover

def prove_polynomial(hypotheses: Sequence[Any], goal: Any, variables: Sequence[Any], statement: str,
                     domain: str, timeout_ms: int = 20000) -> Certificate:
    """Prove ``And(hypotheses) => goal`` over the reals: ``ok`` only if z3 answers ``unsat`` for
    ``And(hypotheses, Not(goal))``.

    ``hypotheses`` and ``goal`` are z3 boolean expressions or sympy relations/booleans over
    polynomials; ``variables`` are z3 reals or sympy symbols (used to report the model).  On ``sat``
    ``details["counterexample"]`` holds the model (re-checked: ``model_checked``); on ``unknown``
    (timeout included) ``details["reason"]`` says why.  A QF_NRA solver (nlsat) is tried first and,
    if it answers ``unknown`` with time left, z3's default solver."""
    start = time.perf_counter()
    varmap: dict = {}
    zvars = []
    for v in variables:
        if isinstance(v, z3.ExprRef):
            zvars.append(v)
        else:
            zv = to_z3(sp.Symbol(v) if isinstance(v, str) else v, varmap)
            zvars.append(zv)
    hyps = [to_z3(h, varmap) for h in hypotheses]
    zgoal = to_z3(goal, varmap)
    details: dict[str, Any] = {
        "solver": f"z3 {z3.get_version_string()}", "timeout_ms": timeout_ms,
        "hypotheses": [str(h) for h in hyps], "goal": str(zgoal),
        "variables": [str(v) for v in zvars], "attempts": [],
    }
    result = "unknown"
    for logic in ("QF_NRA", "default"):
        elapsed_ms = int((time.perf_counter() - start) * 1000)
        budget = max(1, timeout_ms - elapsed_ms)
        solver = z3.SolverFor("QF_NRA") if logic == "QF_NRA" else z3.Solver()
        solver.set("timeout", budget)
        solver.add(*hyps)
        solver.add(z3.Not(zgoal))
        if "query" not in details:
            details["query"] = solver.sexpr()  # SMT-LIB of the negated statement, before solving
        t0 = time.perf_counter()
        res = solver.check()
        result = str(res)
        attempt = {"logic": logic, "result": result, "seconds": time.perf_counter() - t0}
        if res == z3.unknown:
            attempt["reason"] = solver.reason_unknown()
        details["attempts"].append(attempt)
        if res != z3.unknown or time.perf_counter() - start >= timeout_ms / 1000:
            break
    details["result"] = result
    ok = result == "unsat"
    if result == "sat":
        model = solver.model()
        details["counterexample"] = {str(v): _model_value(model.eval(v, model_completion=True)) for v in zvars}
        try:
            holds = [z3.is_true(model.eval(h, model_completion=True)) for h in hyps]
            violated = z3.is_false(model.eval(zgoal, model_completion=True))
            details["model_checked"] = bool(all(holds) and violated)
        except z3.Z3Exception as exc:  # pragma: no cover - algebraic models evaluate fine in practice
            details["model_checked"] = f"could not evaluate: {exc}"
    elif result == "unknown":
        details["reason"] = details["attempts"][-1].get("reason", "unknown")
    details["seconds"] = time.perf_counter() - start
    return Certificate(method=METHOD, statement=statement, domain=domain, ok=ok, details=details,
                       seconds=time.perf_counter() - start)


# ----------------------------------------------------------------------------- ready-made LSE facts

_SUBST = ("Substituting y_i = exp(x_i) (exp is a bijection R -> (0, inf) and log is increasing, so the "
          "polynomial statement is equivalent)")


def _ys(m: int) -> list[z3.ArithRef]:
    return [z3.Real(f"y{i}") for i in range(1, m + 1)]


def _max_var(name: str, terms: Sequence[z3.ArithRef]) -> tuple[z3.ArithRef, list]:
    """A fresh real m with m = max(terms): m >= every term and m equals one of them."""
    m = z3.Real(name)
    return m, [m >= t for t in terms] + [z3.Or([m == t for t in terms])]


def _fact(name: str, statement: str, polynomial: str, n_max: int, queries, timeout_ms: int) -> Certificate:
    """Run ``queries(n)`` -> list of (label, hypotheses, goal, variables) for every n = 1..n_max."""
    start = time.perf_counter()
    per_n = []
    for n in range(1, n_max + 1):
        results = []
        for label, hyps, goal, variables in queries(n):
            c = prove_polynomial(hyps, goal, variables, f"{name}, n={n}, {label}", f"n = {n}", timeout_ms)
            entry = {"label": label, "result": c.details["result"], "seconds": c.seconds,
                     "goal": c.details["goal"], "hypotheses": c.details["hypotheses"]}
            for key in ("counterexample", "reason"):
                if key in c.details:
                    entry[key] = c.details[key]
            results.append(entry)
        per_n.append({"n": n, "ok": all(r["result"] == "unsat" for r in results), "queries": results})
    ok = all(p["ok"] for p in per_n)
    details = {"solver": f"z3 {z3.get_version_string()}", "timeout_ms": timeout_ms,
               "substitution": _SUBST, "polynomial_statement": polynomial, "per_n": per_n,
               "queries": sum(len(p["queries"]) for p in per_n)}
    if not ok:
        details["failed_n"] = [p["n"] for p in per_n if not p["ok"]]
    statement = statement.replace("n_max", str(n_max))
    cert = Certificate(method=METHOD, statement=f"{statement}. {_SUBST}: {polynomial}",
                       domain=f"n = 1..{n_max}", ok=ok, details=details,
                       seconds=time.perf_counter() - start)
    # proved for n <= n_max only (each n is a separate query), not for every n
    cert.details["truncation"] = f"n = 1..{n_max} only"
    cert.complete = False
    return cert


def lse_max_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for x in R^n, n = 1..n_max."""
    def queries(n):
        y = _ys(n)
        pos = [yi > 0 for yi in y]
        m, is_max = _max_var("m", y)
        total = z3.Sum(y)
        return [("max <= LSE", pos + is_max, m <= total, y + [m]),
                ("LSE <= max + log n", pos + is_max, total <= n * m, y + [m])]
    return _fact("lse_max_bounds", "For every n in 1..n_max and x in R^n: max_i x_i <= LSE(x) <= max_i x_i + "
                 "log n, LSE(x) = log(sum_i exp(x_i))",
                 "for y in (0, inf)^n and m = max_j y_j (m >= y_j for all j, m = y_k for some k): "
                 "m <= sum_j y_j and sum_j y_j <= n*m", n_max, queries, timeout_ms)


def lse_nonneg_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) >= 0 whenever some x_i >= 0."""
    def queries(n):
        y = _ys(n)
        hyps = [yi > 0 for yi in y] + [z3.Or([yi >= 1 for yi in y])]
        return [("some y_i >= 1 => sum y >= 1", hyps, z3.Sum(y) >= 1, y)]
    return _fact("lse_nonneg", "For every n in 1..n_max and x in R^n with max_i x_i >= 0: LSE(x) >= 0",
                 "for y in (0, inf)^n with y_i >= 1 for some i: sum_j y_j >= 1", n_max, queries, timeout_ms)


def lse_pairwise_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) + log n for x in R^{2n}."""
    def queries(n):
        y = _ys(2 * n)
        pairs = [y[2 * j] + y[2 * j + 1] for j in range(n)]
        m, is_max = _max_var("m", pairs)
        hyps = [yi > 0 for yi in y] + is_max
        return [("sum_j p_j <= n max_j p_j", hyps, z3.Sum(pairs) <= n * m, y + [m])]
    return _fact("lse_pairwise", "For every n in 1..n_max and x in R^{2n}: LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) "
                 "+ log n",
                 "for y in (0, inf)^{2n}, p_j = y_{2j-1} + y_{2j} and m = max_j p_j: sum_j p_j <= n*m",
                 n_max, queries, timeout_ms)


def lse_restriction_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S (S = first s indices, by permutation symmetry)."""
    def queries(n):
        y = _ys(n)
        pos = [yi > 0 for yi in y]
        return [(f"S = first {s} indices", pos, z3.Sum(y[:s]) <= z3.Sum(y), y) for s in range(1, n + 1)]
    return _fact("lse_restriction", "For every n in 1..n_max, x in R^n and non-empty S subset {1..n}: "
                 "LSE(x_S) <= LSE(x) (LSE is symmetric in its arguments, so S = {1..s}, s = 1..n, covers "
                 "every S up to a permutation)",
                 "for y in (0, inf)^n: sum_{i<=s} y_i <= sum_i y_i, s = 1..n", n_max, queries, timeout_ms)


def lse_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> list[Certificate]:
    """The four log-sum-exp facts, one Certificate per fact."""
    return [lse_max_bounds_smt(n_max, timeout_ms), lse_nonneg_smt(n_max, timeout_ms),
            lse_pairwise_smt(n_max, timeout_ms), lse_restriction_smt(n_max, timeout_ms)]


def softmax2_curvature_smt(timeout_ms: int = 20000) -> Certificate:
    """2 v1 v2 <= 1/2 for v1, v2 >= 0 with v1 + v2 = 1 (= ||diag(v) - v v^T||_2 <= 1/2 on the simplex)."""
    v1, v2 = z3.Reals("v1 v2")
    return prove_polynomial(
        [v1 >= 0, v2 >= 0, v1 + v2 == 1], 2 * v1 * v2 <= z3.RealVal("1/2"), [v1, v2],
        "||diag(v) - v v^T||_2 <= 1/2 for v in the simplex of R^2: the spectral norm was computed in closed "
        "form for 2x2 (diag(v) - v v^T = v1 v2 [[1,-1],[-1,1]], eigenvalues 0 and 2 v1 v2), so the claim is "
        "2 v1 v2 <= 1/2 for v1, v2 >= 0, v1 + v2 = 1",
        "v1, v2 >= 0, v1 + v2 = 1", timeout_ms)
