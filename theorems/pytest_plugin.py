"""pytest plugin: every registered claim becomes a test item marked ``theorems``.

Collection is opt-in (this plugin is installed for every pytest run in the
environment): set ``clcheck_collect_claims = true`` in the ini file, or pass
``--claims``. Items are named ``claims::<id>`` and carry the markers
``theorems`` and the paper's prefix (``merad``, ``huang``, ``ren``, ``wen``),
so ``pytest -m theorems`` runs them and ``pytest -m merad`` runs one paper.

A claim's test passes when its verdict is the one the repository expects:
``proved``/``consistent`` for a claim with no recorded refutation, and
``refuted`` -- with the recorded witness still refuting on replay -- for a
claim recorded as refuted. Anything else fails and prints the evidence.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

PAPER_MARKERS = {
    "merad": "claims of Merad et al. (000/001)",
    "huang": "claims of Huang et al. (004)",
    "ren": "claims of Ren & Li (002)",
    "wen": "claims of Wen & Li (003)",
}
PROFILES = {
    # examples per claim, adversarial starts, adversarial steps, quick exhaustive sweeps
    "default": (100, 4, 100, True),
    "deep": (400, 16, 250, False),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("clcheck", "clcheck claims")
    group.addoption("--claims", action="store_true", default=False,
                    help="collect every registered clcheck claim as a test item")
    group.addoption("--theorems-seed", type=int, default=0,
                    help="seed of the claim search (printed in the header; replays a failure)")
    group.addoption("--theorems-profile", choices=sorted(PROFILES), default="default",
                    help="search depth per claim: default (fast) or deep")
    parser.addini("clcheck_collect_claims", "collect registered clcheck claims as tests", type="bool",
                  default=False)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "theorems: a registered clcheck claim (its verdict is checked)")
    for name, text in PAPER_MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")


def _enabled(config: pytest.Config) -> bool:
    """--claims, or the ini switch when pytest was pointed at directories only (not at files)."""
    if config.getoption("--claims"):
        return True
    if not config.getini("clcheck_collect_claims"):
        return False
    from pathlib import Path

    return all("::" not in a and Path(a).is_dir() for a in config.args)


def pytest_report_header(config: pytest.Config) -> str | None:
    if not _enabled(config):
        return None
    return (f"clcheck: --theorems-seed={config.getoption('--theorems-seed')} "
            f"--theorems-profile={config.getoption('--theorems-profile')}")


class ClaimItem(pytest.Item):
    """One registered claim, checked by the engine."""

    def __init__(self, *, claim_id: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim_id = claim_id

    def runtest(self) -> None:
        from theorems.engine import Budget, check_claim
        from theorems.registry import get

        examples, starts, steps, quick = PROFILES[self.config.getoption("--theorems-profile")]
        seed = self.config.getoption("--theorems-seed")
        budget = Budget(examples, starts, steps, quick_exhaustive=quick)
        result = check_claim(get(self.claim_id), budget, seed=seed)
        self.user_properties.append(("verdict", result.verdict.value))
        if not result.expected:
            raise ClaimFailure(result.to_json())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailure):
            data = excinfo.value.args[0]
            return (f"claim {self.claim_id}: verdict {data['verdict']} is not what the repository "
                    f"expects ({data['expected_note']})\n" + json.dumps(data, indent=2, default=str))
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[str, int, str]:
        return "claims", 0, f"claim {self.claim_id}"


class ClaimFailure(Exception):
    """The verdict differs from the recorded expectation."""


class ClaimCollector(pytest.Collector):
    """The virtual node holding one item per registered claim."""

    def collect(self) -> list[pytest.Item]:
        from theorems.registry import all_claims

        items = []
        for claim in all_claims():
            item = ClaimItem.from_parent(self, name=claim.id, claim_id=claim.id)
            item.add_marker("theorems")
            if claim.paper in PAPER_MARKERS:
                item.add_marker(claim.paper)
            items.append(item)
        return items


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if not _enabled(config) or getattr(session, "_clcheck_added", False):
        return
    session._clcheck_added = True  # type: ignore[attr-defined]
    collector = ClaimCollector.from_parent(session, name="claims", nodeid="claims")
    items.extend(collector.collect())
