"""Search power (issues 29 and 40): the cases are `clcheck mutate`'s own mutants, not a hand list.

For each claim of ``GATED`` the mutants `clcheck mutate` makes (theorems.engine.mutate.mutations) of its constants
and exponents, moved 5 % or more in the direction that strengthens, are audited as `clcheck mutate --seeds 0-4
--max-survivor 5` audits them (the audit profile, each until its first refutation; a stronger move first on the
weaker one's witness): none may survive unless a certified sharp constant shows it true. Every such mutant of these
claims is false -- the printed constants are sharp there, and each mutant's witness from the full runs of
`clcheck mutate` (issue 40's note) confirms it at high precision -- so a survivor is lost search power. Every claim
here is proved: a refuted claim's mutants and twins would be refuted for its own error and measure nothing. Their
*twins*, the same constant moved by 5 % the other way (a weakening of a true claim), must never be refuted: a
refutation there would be a false one.

``thin_mutants.py`` keeps the hand list of moves past a sharp constant that lies away from the printed one (Huang's
3/4, the trace bound's 2, ...): the benchmark (``benchmarks/run.py --only search``) measures the search on them.

Several minutes of audits: the test runs with ``pytest -m search_power`` (CI runs it), not with the default test
command.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from theorems.engine.budget import PROFILES
from theorems.engine.check import check_claim
from theorems.engine.mutate import CONSTANT, EXPONENT, mutant_claim, mutations
from theorems.engine.registry import get
from theorems.engine.verdict import Verdict
from theorems.frontend import mutation as mt

SEEDS = (0, 1, 2, 3, 4)
GATED_AMOUNT = Fraction(1, 20)
#: claims whose every constant and exponent moved 5 % or more by `clcheck mutate` is false (or shown true), with why
GATED = {
    "huang.lemma2": "L_positive <= 2 sqrt(d L_1): Cauchy-Schwarz is an equality when the 1 - C_ii are equal",
    "huang.lemma1": "Err <= (1 - sigma) + P[not S_eps]: an equality when the misclassified samples are exactly those "
                    "outside the main parts or outside S_eps, disjointly",
    "merad.lemma1": "N_C = 2, one point per class, at large scale: the ratio tends to 1",
    "huang.theorem2.main_close": "2 eps approached by chords of a shrinking arc (Sharp.attained, certified)",
    "huang.barlow.trace_bound": "(1) is an identity before its last step, so its d - K is exact: a smaller multiple of "
                                "K fails where the dropped terms vanish",
}


def _gated(claim_id: str) -> list:
    found, _ = mutations(get(claim_id), 0)
    return [m for m in found if m.kind in (CONSTANT, EXPONENT) and m.amount >= GATED_AMOUNT]


def test_every_gated_claim_has_mutants_and_a_reason() -> None:
    for claim_id, why in GATED.items():
        assert why and _gated(claim_id), claim_id


@pytest.mark.search_power
@pytest.mark.parametrize("claim_id", sorted(GATED))
def test_no_strengthening_of_5_percent_or_more_survives(claim_id: str) -> None:
    from training.device import configure_process, deterministic_kernels  # heavy: imports torch

    configure_process()  # as an audit's worker runs each claim: one torch thread (fused Adam spins on more)
    deterministic_kernels()
    outcomes = mt.run(_gated(claim_id), SEEDS, PROFILES["audit"], 1, None)
    missed = mt.survivors_at_least(outcomes, float(GATED_AMOUNT))
    assert not missed, [(o["mutation"]["description"], o["reasons"][:1]) for o in missed]
    assert all(o["outcome"] in ("killed", "true") for o in outcomes), [o["outcome"] for o in outcomes]


@pytest.mark.search_power
@pytest.mark.parametrize("claim_id", sorted(GATED))
def test_the_twin_weakening_is_never_refuted(claim_id: str) -> None:
    """Each gated constant moved 5 % the weaker way (factor 2 - f for a strengthening factor f), at seeds 0-1: a
    constant's move is monotone, so the other way weakens (an exponent's need not be: x^a against x^b changes order at
    x = 1, and a move measured stronger on the sampled subjects may not be weaker the other way)."""
    from training.device import configure_process, deterministic_kernels  # heavy: imports torch

    configure_process()
    deterministic_kernels()
    five = [m for m in _gated(claim_id) if m.amount == GATED_AMOUNT and m.kind == CONSTANT]
    if not five:
        pytest.skip(f"{claim_id}: no constant among its gated moves (exponents only)")
    for m in five:
        twin = mutant_claim(get(claim_id), dataclasses.replace(m, factor=2 - m.factor))
        for seed in SEEDS[:2]:
            result = check_claim(twin, PROFILES["audit"], seed=seed)
            assert result.verdict != Verdict.REFUTED, (m.describe(), seed, result.reason)
