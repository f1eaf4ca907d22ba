"""Merad et al., issue 39: readings a referee would list, models as modulo, the untrained run as the baseline.

Each test computes the evidence it asserts about: the log_2 reading of Proposition 1 (1) at the refuting witness
(f = 0, N_C = 2, k = 1, where the natural-log reading fails and the log_2 one holds with equality), the shared
readings of Assumption 1 on a training set that reuses a sample, the modulo of the coupon-collector certificates
(the law of T is a model in the script, not derived from the draws), and the at-init baseline rule on recorded
snapshots."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy

from coq_support import needs_coq, shared_coq_cache
from theorems.engine.registry import all_claims
from theorems.papers.merad import assumption1, at_init, certificates, chebyshev_proof, finite_proofs
from theorems.papers.merad import claims as mc
from theorems.papers.merad import mixtures as mx
from theorems.papers.merad import theorem1_reach as t1
from theorems.subjects import Subject

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


def _claims():
    return {c.id: c for c in all_claims(papers=["merad"])}


# -- Proposition 1 (1): the log_2 reading --------------------------------------------------------------------

def _at_witness(relation: sympy.Basic) -> bool:
    """The relation at f = 0, N_C = 2, k = 1, uniform rho: every loss is log 2 (L_un = zeta(0); the 2-way task's
    cross-entropy at W^mu = 0 is log 2), tau+ = 1/2."""
    ln2 = sympy.log(2)
    values = {mx.L_sup_k: ln2, mx.L_sup_mu_k: ln2, mx.L_un: ln2, mx.tau_plus: sympy.Rational(1, 2), mx.k: 1}
    small, large = relation.lhs.subs(values), relation.rhs.subs(values)
    return bool(sympy.simplify(large - small) >= 0)


def test_prop1_part1_log2_reading_holds_where_the_natural_log_reading_fails() -> None:
    claim = _claims()["merad.prop1.part1"]
    (reading,) = [r for r in claim.readings if r.name == "log = log_2 throughout"]
    assert "log = log_2" in reading.rests_on and reading.known_refutation == ""
    literal_right = claim.statement[1].relation
    log2_right = reading.statement[1].relation
    assert not _at_witness(literal_right)  # 2 (log 2 - 1/2) < log 2
    assert _at_witness(log2_right)  # 1 <= 2 (1 - 1/2): equality
    # the log_2 reading is the natural-log bound with tau+ log 2 (part (2) at N = 1), divided by ln 2
    ln2 = sympy.log(2)
    k, t, lun = mx.k, mx.tau_plus, mx.L_un
    assert sympy.simplify(log2_right.rhs * ln2 - k / (1 - t) * (lun - t * ln2)) == 0
    assert finite_proofs.prop1_part1_log2_coq in reading.certificates


@needs_coq
def test_prop1_part1_log2_certificate_is_the_coq_proof_of_part2_rescaled() -> None:
    cert = finite_proofs.prop1_part1_log2_coq()
    assert cert.ok and cert.method == "coq" and cert.complete and cert.modulo == (), cert.details.get("reason")
    assert cert.details["rescaling_residual"] == "0"


def test_prop1_part2_has_no_reading_that_drops_rho_uniform() -> None:
    claim = _claims()["merad.prop1.part2"]
    assert mc.RHO_UNIFORM in claim.assumptions
    for reading in claim.readings:
        assert reading.assumptions is None or mc.RHO_UNIFORM in reading.assumptions, reading.name


# -- Assumption 1: one set of readings for merad.assumption_1 and merad.theorem1 -----------------------------

def test_assumption1_readings_are_shared_by_the_remark_and_theorem1() -> None:
    claims = _claims()
    remark, theorem = claims["merad.assumption_1"], claims["merad.theorem1"]
    assert [r.name for r in remark.readings] == [assumption1.POSITIONS_NAME, assumption1.ANY_PAIR_NAME]
    assert assumption1.SET in remark.literal
    positions = [r for r in theorem.readings if r.name.startswith(assumption1.POSITIONS_NAME)]
    assert len(positions) == 2
    for r in positions:
        assert assumption1.POSITIONS in r.prefix[0].over
    assert assumption1.SET in theorem.prefix[0].over
    assert assumption1.SET in t1.ASSUMPTION1_SET.name and assumption1.POSITIONS in t1.ASSUMPTION1_POSITIONS.name


def test_assumption1_separation_differs_exactly_on_a_reused_sample() -> None:
    e = np.eye(3)
    reused = [e[0], e[1], e[2], e[0]]  # x_0 in two triples
    assert assumption1.separation(reused, "positions") == 0.0
    assert assumption1.separation(reused, "set") == pytest.approx(math.sqrt(2))
    distinct = [e[0], e[1], e[2]]  # no reuse: the readings agree (the Theorem 1 runs' data)
    assert assumption1.separation(distinct, "set") == assumption1.separation(distinct, "positions")
    with pytest.raises(ValueError):
        assumption1.separation(distinct, "multiset")


# -- the coupon collector: proved modulo the model of T --------------------------------------------------------

def test_coupon_mean_certificate_is_modulo_the_geometric_stages() -> None:
    cert = certificates.coupon_mean()
    assert cert.ok and cert.modulo == (chebyshev_proof.COUPON_STAGES,)


@needs_coq
def test_coupon_coq_certificates_are_modulo_the_model_and_chebyshev_is_not() -> None:
    for cert in (chebyshev_proof.coupon_chebyshev_coq(), chebyshev_proof.coupon_variance_bound_coq(),
                 certificates.coupon_mean_coq()):
        assert cert.ok and cert.modulo == (chebyshev_proof.COUPON_STAGES,), cert.statement
    assert chebyshev_proof.chebyshev_coq().modulo == ()


# -- the untrained run as the baseline of the Section 5 statement observations ---------------------------------

def test_fig_and_assumption2_parts_carry_the_at_init_baseline() -> None:
    claims = _claims()
    for cid in ("merad.fig1", "merad.fig2", "merad.assumption2"):
        (part,) = claims[cid].statement
        assert part.informative is not None and part.informative.when == at_init.WHEN, cid


def test_norm_baseline_decides_informativeness() -> None:
    rule = at_init.norm_positive_at_init()
    snap = Subject({}, {"norm_min": 0.3, "norm_max": 1.0}, "test-run-a seed 0 step 40")
    assert rule.holds(snap)  # no baseline recorded: informative
    at_init.register("test-run-a seed 0 step 0", None, 0.2)  # the untrained run already has positive norms
    assert not rule.holds(snap)
    at_init.register("test-run-b seed 0 step 0", None, 0.0)  # an initialization with a zero output
    assert rule.holds(Subject({}, {"norm_min": 0.3, "norm_max": 1.0}, "test-run-b seed 0 step 40"))


def test_mixture_baseline_decides_informativeness() -> None:
    a, b = sympy.symbols("a b")
    calls = []

    def evaluate(mixture, symbols, N=1, k=1):
        calls.append(mixture)
        return {a: mixture[0], b: mixture[1]}

    rule = at_init.mixture_part_at_init(a, b, evaluate)

    def subject(run: str, step: int, mixture) -> Subject:
        return Subject({}, {"mixture": mixture, "N": 1, "k": 1, "task": ()}, f"{run} seed 0 step {step}")

    at_init.register("mix-run-a seed 0 step 0", (1, False), subject("mix-run-a", 0, (1.0, 2.0)))  # a <= b at init
    at_init.register("mix-run-b seed 0 step 0", (1, False), subject("mix-run-b", 0, (3.0, 2.0)))  # a > b at init
    assert not rule.holds(subject("mix-run-a", 50, (1.0, 5.0)))
    assert rule.holds(subject("mix-run-b", 50, (1.0, 5.0)))
    assert rule.holds(subject("mix-run-c", 50, (1.0, 5.0)))  # no recorded initialization
    rule.holds(subject("mix-run-a", 60, (1.0, 5.0)))
    assert len(calls) == 2  # one evaluation per run's baseline
