"""The condition under which a part can fail (the rules that read it: :mod:`theorems.engine.rules.informative`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Informative:
    """The condition under which a part can fail; ``when`` says it in words (e.g. "z' != 0"), ``why`` why a
    subject that fails it is no evidence (both sides equal there by construction, or -- for a snapshot of a run --
    the property already held at the run's initialization)."""

    when: str
    holds: Callable[[Any], bool]
    why: str = "both sides equal by construction"
