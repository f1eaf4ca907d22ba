"""z3 proofs of polynomial inequalities: a statement ``hypotheses => goal`` over the reals is proved
when z3 reports ``unsat`` for ``And(hypotheses, Not(goal))`` (nonlinear real arithmetic, QF_NRA).

``sat`` comes with a model: a counterexample, re-checked by evaluating the hypotheses and the goal
in it.  ``unknown`` (including a timeout) proves nothing.  Every query records the z3 result string,
the time it took and the query itself in SMT-LIB form.

A statement about every size n is proved size by size (:func:`prove_for_each_n`): such a
certificate covers n = 1..n_max only and says so (``complete=False``).
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any, Sequence

import sympy as sp
import z3

from numerics.certificate import Certificate

METHOD = "z3 (negation unsat)"

__all__ = ["METHOD", "prove_polynomial", "prove_for_each_n", "to_z3", "reals", "max_of"]


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


# ----------------------------------------------------------------------------- families of sizes

def reals(prefix: str, m: int) -> list[z3.ArithRef]:
    """Fresh real variables prefix1..prefixm."""
    return [z3.Real(f"{prefix}{i}") for i in range(1, m + 1)]


def max_of(name: str, terms: Sequence[z3.ArithRef]) -> tuple[z3.ArithRef, list]:
    """A fresh real m with m = max(terms): m >= every term and m equals one of them."""
    m = z3.Real(name)
    return m, [m >= t for t in terms] + [z3.Or([m == t for t in terms])]


def prove_for_each_n(name: str, statement: str, reduction: str, n_max: int, queries: Any,
                     timeout_ms: int) -> Certificate:
    """Run ``queries(n)`` -> list of (label, hypotheses, goal, variables) for every n = 1..n_max.

    ``reduction`` says how the statement became polynomial (it is part of the certificate's
    statement). The certificate covers n = 1..n_max only: ``complete`` is False."""
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
               "reduction": reduction, "per_n": per_n, "queries": sum(len(p["queries"]) for p in per_n),
               "truncation": f"n = 1..{n_max} only"}
    if not ok:
        details["failed_n"] = [p["n"] for p in per_n if not p["ok"]]
    return Certificate(method=METHOD, statement=f"{statement.replace('n_max', str(n_max))}. {reduction}",
                       domain=f"n = 1..{n_max}", ok=ok, details=details,
                       seconds=time.perf_counter() - start, complete=False)
