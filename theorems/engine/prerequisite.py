"""Work that several claims share (a training run), done once and ahead of the claims.

A claim that checks trained encoders needs their runs; several claims need the same ones (the
claims about a paper's figures share its training runs). Each claim would train a missing run
itself (the cache of trained runs lets one process train it while the others wait), but a
parallel audit does better: it collects the prerequisites of every selected claim, keeps one per
``key``, and runs them as jobs of their own, the longest first, before the claims -- so two cores
train two runs at once instead of one core training while the other waits on the run's lock.

A prerequisite only fills a cache: its result is discarded and a failure is ignored (the claim
that needs the run meets the same error in its own isolated check and reports it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:
    from theorems.engine.claim import AnyClaim


@dataclass(frozen=True)
class Prerequisite:
    """``fn(*args)`` (a module-level function, so that it can be shipped to another process) fills
    a cache several claims read; ``cost`` is its rough duration in seconds (the order of the jobs)."""

    key: str
    fn: Callable[..., Any] = field(compare=False)
    args: tuple[Any, ...] = field(default=(), compare=False)
    cost: float = field(default=1.0, compare=False)

    def run(self) -> None:
        self.fn(*self.args)


def prerequisites_of(claim: "AnyClaim", quick: bool, seed: int) -> list[Prerequisite]:
    """What ``claim`` needs before it runs, for the profile (``quick``) and the audit seed: its own
    ``prerequisites(quick, seed)`` and those of its subject families."""
    found: list[Prerequisite] = list(claim.prerequisites(quick, seed)) if claim.prerequisites else []
    for family in getattr(claim, "subjects", ()):
        found.extend(family.prerequisites(quick, seed))
    return found


def unique(prerequisites: Iterable[Prerequisite]) -> list[Prerequisite]:
    """One prerequisite per key: the first one given, in the order given."""
    seen: dict[str, Prerequisite] = {}
    for p in prerequisites:
        seen.setdefault(p.key, p)
    return list(seen.values())
