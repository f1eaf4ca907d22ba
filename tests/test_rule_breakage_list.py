"""The kept list of rule breakages stays true to the tree: each one applies, names a rule, and every rule is broken
at least once (running them is ``python tests/rule_breakages.py``, a step of .ci/run)."""

from __future__ import annotations

import pytest

from rule_breakages import BREAKAGES, GUARANTEES, applies
from theorems.engine.rules import RULES


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[f"{b.rule}:{i}" for i, b in enumerate(BREAKAGES)])
def test_each_breakage_applies_to_exactly_one_place_and_names_a_rule(breakage) -> None:
    assert breakage.rule in RULES or breakage.rule in GUARANTEES, f"{breakage.rule!r} is neither a rule nor a guarantee"
    assert applies(breakage) is None, applies(breakage)
    assert breakage.old != breakage.new and breakage.why


def test_every_rule_and_guarantee_is_broken_at_least_once() -> None:
    missing = (set(RULES) | set(GUARANTEES)) - {b.rule for b in BREAKAGES}
    assert not missing, sorted(missing)
