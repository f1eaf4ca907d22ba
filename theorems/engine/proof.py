"""A printed proof as a chain of checked steps.

A :class:`Proof` belongs to a claim (and to one of its parts): an ordered list of
:class:`Step`, each a relation between expressions over quantities the checker can evaluate,
with the reason the paper gives. ``link`` steps form the chain ``A_0 op A_1 op ... op A_n``
(each link's left side is the previous link's right side); ``fact`` steps are side facts the
links use; a ``conclude`` step is the claim's relation, which the chain's composite relation
must imply (a rearrangement, certified on its own).

Every step is checked -- there is no unchecked step:

* **certified**: certificates (sympy, z3, Coq, arb) prove the step on the claim's whole domain;
* **named result**: an instance of a standard theorem (Jensen's inequality, Chebyshev's ...), a
  reusable :class:`NamedResult` with hypotheses, each hypothesis of the instance certified;
* **assumption**: a cited external theorem (:class:`Cited`), the only steps taken on trust --
  shown as such, and the claim's own hypotheses must provide what it needs;
* **tested / refuted**: the step's relation evaluated on every subject the claim is tested on,
  its witnesses included.

The first step that fails on a refuted claim's witnesses is its broken step.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import sympy

from theorems.engine.errors import ClaimError

if TYPE_CHECKING:
    from numerics.certificate import Certificate
    from theorems.engine.family import SubjectFamily
    from theorems.engine.informative import Informative


class StepStatus(str, enum.Enum):
    CERTIFIED = "certified"
    NAMED = "named-result"
    ASSUMPTION = "assumption"
    TESTED = "tested"
    REFUTED = "refuted"
    UNCHECKED = "unchecked"

    def __bool__(self) -> bool:
        raise TypeError("a StepStatus is not a bool: compare it with StepStatus.<NAME>")


@dataclass(frozen=True)
class NamedResult:
    """A standard theorem used by many proofs, with the hypotheses every instance must meet."""

    name: str
    statement: str
    hypotheses: tuple[str, ...]


@dataclass(frozen=True)
class Instance:
    """One application of a :class:`NamedResult`: a certificate for each of its hypotheses."""

    result: NamedResult
    checks: dict[str, Callable[[], "Certificate"]]  # hypothesis text -> certificate that the instance meets it

    def __post_init__(self) -> None:
        missing = [h for h in self.result.hypotheses if h not in self.checks]
        if missing:
            raise ClaimError(f"an instance of {self.result.name} does not check its hypothesis(es): {missing}")


@dataclass(frozen=True)
class Cited:
    """An external theorem the proof cites and the checker takes as an assumption.

    ``needs`` maps each hypothesis of the cited theorem to the name of the claim's assumption
    that provides it (the engine checks that the claim declares that assumption)."""

    name: str
    statement: str
    needs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One step of a printed proof.

    ``relation`` is the step over quantities (None only for a step that is a pure citation);
    ``kind``: "link" (in the chain), "fact" (used by the links) or "conclude" (the claim's
    relation, implied by the chain); ``slip``: the paper prints "=" where only the relation
    given here holds (a notation slip, reported apart from mathematical errors).
    """

    text: str
    relation: sympy.core.relational.Relational | None = None
    reason: str = ""
    kind: str = "link"
    certificates: tuple[Callable[[], "Certificate"], ...] = ()
    named: Instance | None = None
    cited: Cited | None = None
    applies: Callable[[Any], bool] | None = None
    informative: "Informative | None" = None
    slip: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("link", "fact", "conclude"):
            raise ClaimError(f"step {self.text[:40]!r}: kind={self.kind!r} must be 'link', 'fact' or 'conclude'")
        if self.relation is None and self.cited is None:
            raise ClaimError(f"step {self.text[:40]!r} has no relation to check and cites nothing: "
                             "every step must be checkable")


@dataclass(frozen=True)
class Proof:
    """The printed proof of (one part of) a claim.

    ``part`` is the label of the part the chain proves (None: the claim's only part);
    ``subjects`` where the steps are evaluated (default: the claim's families); ``where`` the
    place the proof is printed; ``not_printed`` says the paper gives no proof (the steps are
    then the standard argument, marked as such).
    """

    claim: str
    steps: tuple[Step, ...]
    part: str | None = None
    subjects: tuple["SubjectFamily", ...] = ()
    where: str = ""
    not_printed: bool = False

    def __post_init__(self) -> None:
        if not self.steps:
            raise ClaimError(f"the proof of {self.claim} has no step")
