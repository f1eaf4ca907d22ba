"""The one seed rule (numerics.seeds): every run's seed from the audit seed, the stream and the run's index; audits at
different seeds share no run."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from numerics.seeds import MAX_AUDIT_SEED, MAX_INDEX, Stream, run_seed, run_seeds
from theorems.engine.prerequisite import prerequisites_of
from theorems.engine.registry import all_claims

audit = st.integers(0, MAX_AUDIT_SEED)
index = st.integers(0, MAX_INDEX)
name = st.text(min_size=1, max_size=20)


@settings(max_examples=300, deadline=None)
@given(audit, audit, name, index, index)
def test_one_stream_never_repeats_a_seed_across_audits_or_runs(a: int, b: int, stream: str, i: int, j: int) -> None:
    assert (run_seed(a, stream, i) == run_seed(b, stream, j)) == ((a, i) == (b, j))


@settings(max_examples=300, deadline=None)
@given(audit, audit, name, index, index)
def test_the_low_32_bits_alone_never_repeat_within_a_stream(a: int, b: int, stream: str, i: int, j: int) -> None:
    """torch's CPU generator and numpy's legacy seed read only the low 32 bits of a seed."""
    low = lambda seed: seed & 0xFFFFFFFF  # noqa: E731
    assert (low(run_seed(a, stream, i)) == low(run_seed(b, stream, j))) == ((a, i) == (b, j))


def test_torch_draws_differ_between_audit_seeds() -> None:
    import torch

    draws = []
    for audit_seed in (0, 1, 2):
        torch.manual_seed(run_seed(audit_seed, "merad-fig1", 0))
        draws.append(torch.randn(4))
    assert not torch.equal(draws[0], draws[1]) and not torch.equal(draws[1], draws[2])


@settings(max_examples=100, deadline=None)
@given(audit, name, index)
def test_a_seed_fits_every_consumer(a: int, stream: str, i: int) -> None:
    seed = run_seed(a, stream, i)
    assert 0 <= seed < 2**62 and Stream(a, stream).seed(i) == seed
    assert Stream(a, "x").child(stream).seed(i) == run_seed(a, f"x/{stream}", i)


@pytest.mark.parametrize("bad", [dict(audit_seed=-1), dict(audit_seed=MAX_AUDIT_SEED + 1), dict(index=MAX_INDEX + 1),
                                 dict(stream=""), dict(audit_seed=True)])
def test_out_of_range_arguments_are_named(bad: dict) -> None:
    args = {"audit_seed": 0, "stream": "s", "index": 0, **bad}
    with pytest.raises(ValueError, match=next(iter(bad))):
        run_seed(**args)


def test_audits_at_seeds_0_1_2_share_no_training_run() -> None:
    """Every shipped claim's prerequisites (the training runs it needs, each keyed by its spec and seed), at both
    profiles: the runs of audit seeds 0, 1 and 2 are pairwise disjoint."""
    runs = {}
    for seed in (0, 1, 2):
        runs[seed] = {p.key for claim in all_claims() for quick in (True, False)
                      for p in prerequisites_of(claim, quick, seed)}
    assert runs[0], "no claim declares a training run: the test would check nothing"
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert not runs[a] & runs[b], f"audits {a} and {b} share runs: {sorted(runs[a] & runs[b])[:5]}"


def test_run_seeds_counts_its_runs() -> None:
    assert run_seeds(3, "s", 4) == [run_seed(3, "s", i) for i in range(4)]
