"""z3 certificates: polynomial facts are proved by unsat of the negation; false ones are refused."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp
import z3

from numerics import smt as S
from numerics.certificate import Certificate
from theorems.papers.merad import provers as merad


def _dumps(cert: Certificate) -> str:
    return json.dumps(cert.to_json(), allow_nan=False)


def test_lse_bounds_smt_all_facts():
    certs = [merad.lse_max_bounds_smt(6), merad.lse_nonneg_smt(6), merad.lse_pairwise_smt(6),
             merad.lse_restriction_smt(6)]
    assert len(certs) == 4
    for cert in certs:
        assert cert.ok, cert.details
        assert cert.method == "z3 (negation unsat)"
        assert cert.domain == "n = 1..6"
        assert "y_i = exp(x_i)" in cert.statement
        per_n = cert.details["per_n"]
        assert [p["n"] for p in per_n] == list(range(1, 7))
        assert all(q["result"] == "unsat" for p in per_n for q in p["queries"])
        json.loads(_dumps(cert))
    # restriction: every S = first s indices, s = 1..n
    assert [len(p["queries"]) for p in certs[3].details["per_n"]] == list(range(1, 7))


@pytest.mark.parametrize("fn", [merad.lse_max_bounds_smt, merad.lse_nonneg_smt, merad.lse_pairwise_smt,
                                merad.lse_restriction_smt])
def test_individual_facts(fn):
    cert = fn(3)
    assert cert.ok and cert.domain == "n = 1..3"


@pytest.mark.parametrize("n", range(1, 7))
def test_refuses_sum_le_n_minus_1_times_max(n):
    y = [z3.Real(f"y{i}") for i in range(1, n + 1)]
    hyps = [yi > 0 for yi in y] + [y[0] >= yi for yi in y]
    cert = S.prove_polynomial(hyps, z3.Sum(y) <= (n - 1) * y[0], y, "sum y <= (n-1) y_k", f"n = {n}")
    assert not cert.ok and cert.details["result"] == "sat"
    assert cert.details["model_checked"] is True
    ce = {k: Fraction(v) for k, v in cert.details["counterexample"].items()}
    assert sum(ce.values()) > (n - 1) * ce["y1"]
    _dumps(cert)


def test_refuses_softmax2_049_z3_and_sympy_inputs():
    v1, v2 = z3.Reals("v1 v2")
    cert = S.prove_polynomial([v1 >= 0, v2 >= 0, v1 + v2 == 1], 2 * v1 * v2 <= z3.RealVal("49/100"),
                              [v1, v2], "2 v1 v2 <= 0.49", "simplex")
    assert not cert.ok and cert.details["result"] == "sat" and cert.details["model_checked"] is True
    a, b = sp.symbols("a b", real=True)
    hyps = [sp.Ge(a, 0), sp.Ge(b, 0), sp.Eq(a + b, 1)]
    bad = S.prove_polynomial(hyps, sp.Le(2 * a * b, sp.Float(0.49)), [a, b], "0.49", "simplex")
    assert not bad.ok and "counterexample" in bad.details
    good = S.prove_polynomial(hyps, sp.Le(2 * a * b, sp.Rational(1, 2)), [a, b], "1/2", "simplex")
    assert good.ok and "(assert" in good.details["query"]
    _dumps(bad), _dumps(good)


def test_unknown_is_not_a_proof(monkeypatch):
    class Stub:
        def __init__(self, *a):
            pass

        def set(self, *a):
            pass

        def add(self, *a):
            pass

        def sexpr(self):
            return "(stub)"

        def check(self):
            return z3.unknown

        def reason_unknown(self):
            return "timeout"

    monkeypatch.setattr(z3, "SolverFor", Stub)
    monkeypatch.setattr(z3, "Solver", Stub)
    x = z3.Real("x")
    cert = S.prove_polynomial([], x * x >= 0, [x], "x^2 >= 0", "R", timeout_ms=100)
    assert not cert.ok and cert.details["result"] == "unknown" and cert.details["reason"] == "timeout"
    _dumps(cert)
