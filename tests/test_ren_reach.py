"""Ren & Li, Theorem 4.3 (b): no pair of maps gets 1 - Align below 2^-(r+1)(1 + 2^-d_xi) (issue 38).

The bound is checked against the data model's sampler (exact enumeration over every latent/noise draw, random
tables of maps with ties, and the linear maps that attain it), then the ENGINE's decision is pinned from the exact
infimum computed here. Issue 39: Definition 4.1's eps is lost and admissible in (0, 1/2), so the rows are decided
with level_max = 1/2 and refute nothing (the largest bound is 3/8); at the checker's former eps = 0.05 the rows
r <= 3 would refute by experiment.unreachable (kept as a test that the level, not the runs, moved the verdict)."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction

import numpy as np
import pytest
import sympy

from theorems import ExperimentOutcome, Observation
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.experiment import MIN_SEEDS
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.papers.ren import alignment_reach
from theorems.papers.ren.model import DataModel

NONE = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)


def signs(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product((-1, 1), repeat=n))


def exact_misalignment(fa: dict, fb: dict, r: int, d_xi: int) -> Fraction:
    """1 - Align exactly: the failure probability of ||fA(xA) - fB(xB)|| < ||fA(xA) - fB(xB')|| over every draw of
    the sampler's z, xi_A, xi_B, z', xi_B' (uniform signs, independent)."""
    fail, total = 0, 0
    for z, xa, xb, zn, xbn in itertools.product(signs(r), signs(d_xi), signs(d_xi), signs(r), signs(d_xi)):
        a = fa[(z, xa)]
        pos = sum((u - v) ** 2 for u, v in zip(a, fb[(z, xb)]))
        neg = sum((u - v) ** 2 for u, v in zip(a, fb[(zn, xbn)]))
        fail += not (pos < neg)
        total += 1
    return Fraction(fail, total)


@pytest.mark.parametrize("r, d_xi", [(1, 1), (1, 2), (2, 1), (2, 2)])
def test_no_pair_of_maps_beats_the_bound(r: int, d_xi: int) -> None:
    """Random tables (coarse integer outputs: many ties) and random real tables: 1 - Align >= the bound."""
    rng = np.random.default_rng(r * 10 + d_xi)
    inputs = list(itertools.product(signs(r), signs(d_xi)))
    b = Fraction(str(alignment_reach.bound(r, d_xi)))
    for trial in range(40):
        draw = (lambda: tuple(int(v) for v in rng.integers(-1, 2, 2))) if trial % 2 else \
            (lambda: tuple(float(v) for v in rng.standard_normal(2)))
        fa, fb = {w: draw() for w in inputs}, {w: draw() for w in inputs}
        assert exact_misalignment(fa, fb, r, d_xi) >= b


@pytest.mark.parametrize("r, d_xi", [(1, 1), (2, 2), (1, 3)])
def test_linear_maps_of_model_2_attain_the_bound(r: int, d_xi: int) -> None:
    """P_A = P_B = I, Q_A = Q_B = delta diag(1, 2, 4, ...): ties only when xi_B = xi_B', none across z' != z."""
    delta = 0.01
    scale = [delta * 2 ** k for k in range(d_xi)]
    f = {(z, x): tuple(z) + tuple(s * v for s, v in zip(scale, x)) for z, x in itertools.product(signs(r), signs(d_xi))}
    assert exact_misalignment(f, f, r, d_xi) == Fraction(str(alignment_reach.bound(r, d_xi)))


def test_the_sampler_draws_the_negative_independently() -> None:
    """The argument's premises on model.py's sampler: P[z' = z] = 2^-r and P[xi_B' = xi_B] = 2^-d_xi (5 SE)."""
    model = DataModel(sigma=(1.0, 1.0), d_xi=2)
    s = model.sample(200000, np.random.default_rng(0))
    r = model.r
    same_z = np.all(s["wb_neg"][:, :r] == s["wa"][:, :r], axis=1)
    same_xi = np.all(s["wb_neg"][:, r:] == s["wb"][:, r:], axis=1)
    for observed, p in ((same_z.mean(), 2.0 ** -r), (same_xi[same_z].mean(), 2.0 ** -model.d_xi)):
        n = len(same_z) if p == 2.0 ** -r else same_z.sum()
        assert abs(observed - p) <= 5 * np.sqrt(p * (1 - p) / n)
    assert np.array_equal(s["wa"][:, :r], s["wb"][:, :r])  # the positive shares z


def _runs_all_aligned(ctx) -> ExperimentOutcome:
    """A stand-in for the training runs in which every run ends aligned and balanced: the reach decides anyway."""
    seeds = list(range(MIN_SEEDS))
    return ExperimentOutcome(statistic="s", value=0.0, effect_size=0.0, interval=(0.0, 0.0), seeds=seeds,
                             parameters={}, observations=[Observation({"pair": 0}, (True,) * MIN_SEEDS, tuple(seeds))])


def _checked(claim):
    claim = dataclasses.replace(claim, experiment=_runs_all_aligned, readings=tuple(
        dataclasses.replace(rd, experiment=_runs_all_aligned if rd.experiment is not None else None)
        for rd in claim.readings))
    return check_claim(claim, NONE)


def test_no_admissible_eps_is_out_of_reach_so_the_reach_refutes_nothing() -> None:
    """Issue 39: Definition 4.1's eps is lost; admissible in (0, 1/2) (line 56). The largest bound over the rows,
    3/8 at r = 1, d_xi = 1, is below 1/2, so no row refutes (the runs decide); at the checker's former 0.05 they did."""
    claim = get("ren.theorem43b")
    assert alignment_reach.MISALIGNMENT.level_max == sympy.Rational(1, 2) == alignment_reach.MISALIGNMENT_R0.level_max
    result = _checked(claim)
    assert result.verdict != Verdict.REFUTED and result.rule != "experiment.unreachable", result.reason
    assert len(result.reach) == 6
    for row in result.reach:
        exact = alignment_reach.bound(row["config"]["r"], row["config"]["d_xi"])
        printed = sympy.sympify(row["exact"])  # the engine's exact infimum, in d_xi
        assert printed.subs({s: row["config"]["d_xi"] for s in printed.free_symbols if s.name == "d_xi"}) == exact
        assert sympy.Rational(1, 20) < exact <= sympy.Rational(3, 8) < sympy.Rational(1, 2)
        assert row["verdict"] != Verdict.REFUTED
    verdicts = {rd["name"]: rd["verdict"] for rd in result.readings}
    assert verdicts["betas chosen per model"] != "refuted" and verdicts["r >= r0(eps)"] == "consistent"
    assert alignment_reach.r0_for(sympy.Rational(1, 20), 5) == 4 == alignment_reach.r0_for(sympy.Rational(1, 20), 1)


def test_a_checker_fixed_eps_of_005_would_refute_by_unreachable() -> None:
    """The same rows with the level capped at the checker's former eps = 0.05: refuted by experiment.unreachable --
    the verdict moves with the admissible range, which is why the range must come from the source."""
    claim = get("ren.theorem43b")
    capped = dataclasses.replace(alignment_reach.MISALIGNMENT, level_max=sympy.Rational(1, 20))
    result = _checked(dataclasses.replace(claim, reach=(capped,), readings=()))
    assert result.verdict == Verdict.REFUTED and result.rule == "experiment.unreachable", result.reason


def test_r4_and_r5_are_reachable_at_the_fixed_eps() -> None:
    """Why the adversary's r stop at 3: from r = 4 the bound is below 0.05 for every d_xi (the checker's r = 5
    models can be aligned)."""
    for d_xi in (1, 2, 5, 10):
        assert alignment_reach.bound(3, d_xi) > sympy.Rational(1, 20) >= alignment_reach.bound(4, d_xi)


def test_the_r0_reading_rows_are_the_claims_choice_after_eps() -> None:
    result = _checked(get("ren.theorem43b").under(get("ren.theorem43b").readings[1]))
    assert result.verdict == Verdict.CONSISTENT, result.reason
    for row in result.reach:
        exact = alignment_reach.bound(row["config"]["r0"], row["config"]["d_xi"])
        assert Fraction(row["upper"]) == Fraction(str(exact)) <= Fraction(1, 10)  # reached at the grid's 0.1
        assert "the claim chooses r0 (after eps)" in row["why"]


def test_theorem43a_runs_that_all_hold_are_consistent_one_sided() -> None:
    claim = get("ren.theorem43a")
    result = check_claim(dataclasses.replace(claim, experiment=_runs_all_aligned, readings=()), NONE)
    assert result.verdict == Verdict.CONSISTENT, result.reason
    assert result.verdict_label.startswith("consistent (one-sided: an existential data model")


@pytest.mark.parametrize("claim_id, constant, moves, valid", [
    ("ren.theorem43b", "c0", ("d",), True),  # 'some small constant': depends_on=(), printed after d
    ("ren.theorem43b", "m0", ("d",), False),  # the width threshold may grow with d
    ("ren.theorem43b", "m0", ("m",), True),  # "sufficiently large": m universal after m0
    ("ren.lemma_b9", "C", ("beta",), True),  # 'up to a multiplicative constant': C(state), not C(beta)
    ("ren.lemma_b9", "C", ("state",), False),
    ("ren.lemma_4_5", "delta", ("P_A",), True),  # delta(c) before the model's P_A, Q_A
])
def test_the_engine_reads_each_constant_with_its_declared_dependencies(claim_id, constant, moves, valid) -> None:
    from theorems.engine.rules.asymptotic import family_valid

    ok, why = family_valid(get(claim_id).prefix, constant, moves)
    assert ok == valid, why
