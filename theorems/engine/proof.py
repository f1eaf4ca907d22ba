"""A printed proof as a chain of checked steps.

A :class:`Proof` belongs to a claim (and to one of its parts): an ordered list of
:class:`Step`, each a relation between expressions over quantities the checker can evaluate,
with the reason the paper gives. ``link`` steps form the chain ``A_0 op A_1 op ... op A_n``
(each link's left side is the previous link's right side); ``fact`` steps are side facts the
links use; a ``conclude`` step is the claim's relation, which the chain's composite relation
must imply (a rearrangement, certified on its own).

Every step of a chain is checked -- a chain has no unchecked step:

* **certified**: certificates (sympy, z3, Coq, arb) prove the step on the claim's whole domain;
* **named result**: an instance of a standard theorem (Jensen's inequality, Chebyshev's ...), a
  reusable :class:`NamedResult` with hypotheses, each hypothesis of the instance certified;
* **assumption**: a cited external theorem (:class:`Cited`), the only steps taken on trust --
  shown as such, and the claim's own hypotheses must provide what it needs;
* **tested / refuted**: the step's relation evaluated on every subject the claim is tested on,
  its witnesses included.

The first step that fails on a refuted claim's witnesses is its broken step.

A proof page (``proofs_md/<claim>.md``) is the same :class:`Proof`, ``source=PAGE``: its numbered
steps are ``tagged`` steps, each checked by what its ``[check: ...]`` tag names (:func:`tagged_step`
reads the tag) -- claims or parts of claims (:class:`ClaimRef`), registered certificates and
named-result instances (by key), or a cited theorem. :mod:`theorems.engine.proof_check` judges both
kinds of proof: step status, broken step and the proofs.json record.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import sympy

from theorems.engine.errors import ClaimError

if TYPE_CHECKING:
    from numerics.certificate import Certificate
    from theorems.engine.family import SubjectFamily
    from theorems.engine.informative import Informative


CHAIN, PAGE = "proof chain", "page tags"  # where a Proof comes from (its proofs.json "source")


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
    """A standard theorem used by many proofs, with the hypotheses every instance must meet.

    ``proof`` certifies the theorem itself (in the generality its instances use): a step that invokes
    it is certified only when that certificate holds on its whole domain and the instance's hypotheses
    are certified; without it the step is a named result and what it proves is "proved (modulo: name)"."""

    name: str
    statement: str
    hypotheses: tuple[str, ...]
    proof: Callable[[], "Certificate"] | None = None


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
class ClaimRef:
    """A step checked by a claim's verdict, or by the status of one of its parts (a page tag's
    ``<claim>`` or ``<claim> part "<label>"``)."""

    claim: str
    part: str | None = None

    def __str__(self) -> str:
        return self.claim + (f' part "{self.part}"' if self.part else "")


@dataclass(frozen=True)
class Step:
    """One step of a printed proof.

    ``relation`` is the step over quantities (None only for a step that is a pure citation or a
    tagged step); ``kind``: "link" (in the chain), "fact" (used by the links), "conclude" (the
    claim's relation, implied by the chain) or "tagged" (a page step checked by its tag: ``refs``,
    ``certificate_keys``, ``named_keys``, ``cited``); ``slip``: the paper prints "=" where only the
    relation given here holds (a notation slip, reported apart from mathematical errors);
    ``number``: the number the page prints (default: the position); ``status``: a page step whose
    status is written on the page (a section generated from a checked chain).
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
    refs: tuple[ClaimRef, ...] = ()
    certificate_keys: tuple[str, ...] = ()
    named_keys: tuple[str, ...] = ()
    number: int | None = None
    status: StepStatus | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("link", "fact", "conclude", "tagged"):
            raise ClaimError(f"step {self.text[:40]!r}: kind={self.kind!r} must be 'link', 'fact', 'conclude' or "
                             "'tagged'")
        if self.kind != "tagged" and self.relation is None and self.cited is None:
            raise ClaimError(f"step {self.text[:40]!r} has no relation to check and cites nothing: "
                             "every step must be checkable")


@dataclass(frozen=True)
class Proof:
    """The printed proof of (one part of) a claim.

    ``part`` is the label of the part the chain proves (None: the claim's only part);
    ``subjects`` where the steps are evaluated (default: the claim's families); ``where`` the
    place the proof is printed; ``not_printed`` says the paper gives no proof (the steps are
    then the standard argument, marked as such; ``instead``: what the source does instead, e.g.
    cites a textbook); ``source``: CHAIN (registered by a paper's proofs module) or PAGE (read
    from a proof page, every step ``tagged``).
    """

    claim: str
    steps: tuple[Step, ...]
    part: str | None = None
    subjects: tuple["SubjectFamily", ...] = ()
    where: str = ""
    not_printed: bool = False
    instead: str = ""
    source: str = CHAIN

    def __post_init__(self) -> None:
        if self.source not in (CHAIN, PAGE):
            raise ClaimError(f"the proof of {self.claim}: source={self.source!r} must be {CHAIN!r} or {PAGE!r}")
        if not self.steps and self.source == CHAIN:
            raise ClaimError(f"the proof of {self.claim} has no step")
        if any((s.kind == "tagged") != (self.source == PAGE) for s in self.steps):
            raise ClaimError(f"the proof of {self.claim}: tagged steps belong to proof pages, and only to them")


# -- the tags of a proof page ----------------------------------------------------------------------------
TAG = re.compile(r"\[check:\s*(.*?)\]\s*\.?\s*$", re.S)
_REF = re.compile(r'([a-z]+(?:\.[a-z0-9_]+)+)(?:\s+part\s+"([^"]+)")?')
_OUTSIDE_QUOTES_SEMICOLON = re.compile(r';(?=(?:[^"]*"[^"]*")*[^"]*$)')  # a ";" not inside a quoted part label
_GENERATED_STATUS = re.compile(r"\*\*(" + "|".join(s.value for s in StepStatus) + r")\b")


def _strip_comments(tag: str) -> str:
    """Drop (balanced) parenthesized commentary from a check tag, keeping quoted part labels."""
    out, depth, quoted = [], 0, False
    for ch in tag:
        if ch == '"' and depth == 0:
            quoted = not quoted
        if not quoted and ch == "(":
            depth += 1
            continue
        if not quoted and ch == ")" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
    return "".join(out)


def tagged_step(number: int, body: str) -> Step:
    """A numbered page step from its text, which ends with its tag:

    ``[check: <claim>]``, ``[check: <claim> part "<label>"]``, several separated by ``;``,
    ``[check: cert <key>]`` (a registered certificate), ``[check: named <key>]`` (a registered
    named-result instance), ``[check: assumption (<cited theorem>)]`` or ``[check: unchecked
    (<reason>)]``; text in parentheses is commentary. A step without a tag whose text carries a
    bold status (``**certified**``) is a step of a section generated from a checked chain: it keeps
    that status."""
    tag = TAG.search(body)
    refs: list[ClaimRef] = []
    named: list[str] = []
    certs: list[str] = []
    for segment in (_OUTSIDE_QUOTES_SEMICOLON.split(_strip_comments(tag.group(1))) if tag else []):
        words = segment.split()
        if len(words) >= 2 and words[0] in ("named", "cert"):
            (named if words[0] == "named" else certs).append(words[1].rstrip(".,"))
        else:
            refs += [ClaimRef(cid, part or None) for cid, part in _REF.findall(segment)]
    cited = None
    if tag and tag.group(1).strip().startswith("assumption"):
        name = tag.group(1).strip()[len("assumption"):].strip().strip("()").strip() or "a cited theorem"
        cited, refs = Cited(name, ""), []
    generated = _GENERATED_STATUS.search(body) if not tag else None
    return Step(TAG.sub("", body).strip(), kind="tagged", refs=tuple(refs), certificate_keys=tuple(certs),
                named_keys=tuple(named), cited=cited, number=number,
                status=StepStatus(generated.group(1)) if generated else None)
