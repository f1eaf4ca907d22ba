"""The table of verdict rules: every rule that turns measurements into a verdict, by name.

A rule is a function of the verdict authority (:mod:`theorems.engine.rules`) registered here with
:func:`rule`; its name is ``<room>.<what it decides>`` (``statement.confirmed_violation``,
``compare.violation``, ``experiment.observation``, ...) and its docstring states the rule. The
rule tests (``tests/test_verdict_rules.py``) give every name at least one row, and the kept list of
hand breakages (``tests/rule_breakages.py``) breaks each one to see a row fail.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, TypeVar

if TYPE_CHECKING:
    from theorems.engine.verdict import Verdict

F = TypeVar("F", bound=Callable[..., Any])

#: the rooms of the authority, in the order the README presents them
ROOMS = ("compare", "informative", "statement", "asymptotic", "reach", "experiment", "proof", "reading", "gate",
         "claim", "mutate")


@dataclass(frozen=True)
class Rule:
    """One named rule: its room, its statement (the function's docstring) and the function."""

    name: str
    room: str
    doc: str
    fn: Callable[..., Any]

    def summary(self) -> str:
        """The rule's first sentence."""
        return self.doc.split("\n\n")[0].replace("\n", " ")


RULES: dict[str, Rule] = {}


def rule(name: str) -> Callable[[F], F]:
    """Register the decorated function as the rule ``name`` (``<room>.<what>``; each name once)."""
    room = name.split(".", 1)[0]
    if room not in ROOMS or "." not in name:
        raise ValueError(f"rule name {name!r}: must be <room>.<what> with room one of {', '.join(ROOMS)}")

    def register(fn: F) -> F:
        if name in RULES:
            raise ValueError(f"rule {name!r} is registered twice")
        doc = inspect.getdoc(fn)
        if not doc:
            raise ValueError(f"rule {name!r} ({fn.__qualname__}) has no docstring: a rule states itself")
        RULES[name] = Rule(name, room, doc, fn)
        return fn

    return register


@dataclass
class Judgement:
    """A verdict with its reason and the rule that decided it; for an experiment, the verdict map's rows,
    the existence witness, the qualifiers shown beside the verdict and the named results a proof rests on."""

    verdict: "Verdict"
    reason: str = ""
    rows: list[dict[str, Any]] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    qualifiers: list[str] = field(default_factory=list)
    modulo: list[str] = field(default_factory=list)  # proved, resting on these named results unproved
    rule: str = ""  # the name of the rule that decided the verdict
