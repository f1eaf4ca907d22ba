"""The logical form of a claim: its quantifier prefix and its readings (../shared/LOGICAL-FORM.md).

A printed sentence is a formula with a quantifier prefix, hypotheses and a conclusion. Two sentences
with the same relation can be different theorems -- "for every f, g_f(n) = O(h(n))" lets the constant
depend on f, "g(n) = O(h(n)) for every f" does not -- so every claim declares

* its **prefix**: the objects the sentence binds, in the order it introduces them, each with its
  quantifier, its domain in words and, for an existential object, the earlier objects it may depend
  on (:func:`forall`, :func:`exists`). A constant introduced before another may not depend on it:
  :func:`check_prefix` refuses a dependency on a later or unknown object. Universal objects are what
  the search (the adversary) chooses, in that order: a subject fixes every universal object at once,
  so an adversary that sees the earlier ones may choose the later ones -- that is the joint draw.
  Existential objects are what the claim's construction supplies (an explicit constant of the
  statement, a checker-derived one, a witness an experiment finds). Asymptotic notation (O, Omega,
  poly, "small", "large") is an existential constant with the dependencies the sentence gives it
  (``asymptotic=`` names the notation as printed).
* its **readings**: where the words admit more than one reading (a set vs a list in which a sample
  may recur, a hypothesis "during and at the end of training", a remark that widens a hypothesis,
  "for all" vs "there exists"), the claim lists the other readings beside the literal one (the
  claim's own fields: the words as printed, nothing added). Each :class:`Reading` names what it rests
  on and overrides what it reads differently (hypotheses, subjects, prefix, experiment, the
  quantifier over models); the engine checks every reading the same way, the headline verdict is the
  literal reading's, and a claim whose readings disagree is *reading-sensitive*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from theorems.engine.errors import ClaimError

if TYPE_CHECKING:
    from theorems.engine.claim import Assumption, Part
    from theorems.engine.family import SubjectFamily

FORALL = "forall"
EXISTS = "exists"
_SYMBOL = {FORALL: "∀", EXISTS: "∃"}


@dataclass(frozen=True)
class Bound:
    """One object a sentence binds: ``name``, its quantifier, its domain ``over`` (in words), and for an
    existential object the earlier objects it may depend on (``depends_on``; ``None``: every earlier
    universal object, the default reading of "there exists"); ``asymptotic`` names the notation when
    the object is the hidden constant of an O(.), Omega(.), poly(.), "small" or "large"."""

    name: str
    quantifier: str
    over: str = ""
    depends_on: tuple[str, ...] | None = None
    asymptotic: str = ""

    def text(self, earlier: Sequence["Bound"] = ()) -> str:
        """``∀ f ∈ encoders`` or ``∃ C(f, d) > 0``: the quantifier, the name, what it depends on, the domain."""
        deps = self.dependencies(earlier)
        name = f"{self.name}({', '.join(deps)})" if self.quantifier == EXISTS and deps else self.name
        domain = f" ∈ {self.over}" if self.over else ""
        note = f" [the constant of {self.asymptotic}]" if self.asymptotic else ""
        return f"{_SYMBOL[self.quantifier]} {name}{domain}{note}"

    def dependencies(self, earlier: Sequence["Bound"]) -> tuple[str, ...]:
        """What this object may depend on: its declared ``depends_on``, or (existential objects) every
        earlier universal object; nothing for a universal object."""
        if self.quantifier == FORALL:
            return ()
        if self.depends_on is not None:
            return self.depends_on
        return tuple(b.name for b in earlier if b.quantifier == FORALL)

    def to_json(self, earlier: Sequence["Bound"] = ()) -> dict[str, Any]:
        return {"name": self.name, "quantifier": self.quantifier, "over": self.over,
                "depends_on": list(self.dependencies(earlier)), "asymptotic": self.asymptotic}


def forall(name: str, over: str = "") -> Bound:
    """A universally bound object: the adversary chooses it (after every object bound before it)."""
    return Bound(name, FORALL, over)


def exists(name: str, over: str = "", depends_on: Sequence[str] | None = None, asymptotic: str = "") -> Bound:
    """An existentially bound object; ``depends_on`` lists the earlier objects it may depend on (None:
    every earlier universal one). ``asymptotic``: the notation it is the constant of ("O(1/eps)")."""
    return Bound(name, EXISTS, over, None if depends_on is None else tuple(depends_on), asymptotic)


def check_prefix(claim_id: str, prefix: Sequence[Bound]) -> tuple[Bound, ...]:
    """The prefix as a tuple, after checking it: bound objects, each name once, known quantifiers, and
    every dependency on an object bound *earlier* (a constant introduced before another may not
    depend on it)."""
    seen: list[str] = []
    for i, bound in enumerate(prefix):
        if not isinstance(bound, Bound):
            raise ClaimError(f"claim {claim_id}: prefix entry {i + 1} is a {type(bound).__name__}; build it with "
                             "theorems.forall(...) / theorems.exists(...)")
        if bound.quantifier not in (FORALL, EXISTS):
            raise ClaimError(f"claim {claim_id}: the quantifier of {bound.name!r} is {bound.quantifier!r}; "
                             "use 'forall' or 'exists'")
        if not bound.name or bound.name in seen:
            raise ClaimError(f"claim {claim_id}: the prefix binds {bound.name!r} twice (or an empty name)")
        if bound.quantifier == FORALL and bound.depends_on:
            raise ClaimError(f"claim {claim_id}: {bound.name!r} is universal: it depends on nothing (the "
                             "adversary chooses it after the objects bound before it)")
        later = [d for d in bound.depends_on or () if d not in seen]
        if later:
            names = [b.name for b in prefix]
            kind = ["later" if d in names else "unknown" for d in later]
            raise ClaimError(f"claim {claim_id}: {bound.name!r} depends on {', '.join(later)} "
                             f"({', '.join(kind)}): an object may depend only on objects bound before it")
        seen.append(bound.name)
    return tuple(prefix)


def prefix_text(prefix: Sequence[Bound]) -> str:
    """The prefix in one line, in printed order: ``∀ f ∈ encoders, ∃ C(f) > 0, ∀ n ≥ 1``."""
    return ", ".join(b.text(prefix[:i]) for i, b in enumerate(prefix))


def prefix_json(prefix: Sequence[Bound]) -> list[dict[str, Any]]:
    return [b.to_json(prefix[:i]) for i, b in enumerate(prefix)]


@dataclass(frozen=True)
class Reading:
    """Another reading of the claim's sentence (the claim's own fields are the literal one).

    ``name`` says what the reading takes the words to mean; ``rests_on`` which words it reads ("the
    remark after Assumption 1", "Theorem 1's setting: every sample in one triplet", "the catalog's
    summary"). Every field left ``None`` is the literal reading's: a reading overrides only what it
    reads differently -- the hypotheses (``assumptions``), the subject families (``subjects``), the
    statement's parts (``statement``), the ``prefix``, an experiment claim's ``experiment`` or its
    ``quantifier`` over models, the recorded witness of a refutation (``known_refutation``; "" records
    none under this reading, where the literal one records a witness), the
    certificates that its hypotheses cannot hold together (``unsatisfiable``), the witness families
    of an asymptotic statement (``growth``) and the ``certificates`` (a reading inherits the literal
    one's; give ``()`` where a proof of the literal reading does not prove this one, e.g. its constant
    depends on an object the reading binds later)."""

    name: str
    rests_on: str
    prefix: tuple[Bound, ...] | None = None
    assumptions: "tuple[Assumption, ...] | None" = None
    subjects: "tuple[SubjectFamily, ...] | None" = None
    statement: "tuple[Part, ...] | None" = None
    experiment: Callable[..., Any] | None = None
    quantifier: str | None = None
    known_refutation: str | None = None
    unsatisfiable: tuple[Callable[..., Any], ...] | None = None
    certificates: tuple[Callable[..., Any], ...] | None = None
    asymptotic: tuple[Any, ...] | None = None
    parametric: tuple[Any, ...] | None = None
    reach: tuple[Any, ...] | None = None
    data_adversary: tuple[Any, ...] | None = None

    def overrides(self) -> dict[str, Any]:
        """The claim fields this reading replaces."""
        fields = ("prefix", "assumptions", "subjects", "statement", "experiment", "quantifier", "known_refutation",
                  "unsatisfiable", "certificates", "asymptotic", "parametric", "reach", "data_adversary")
        return {f: getattr(self, f) for f in fields if getattr(self, f) is not None}


def slug(name: str) -> str:
    """A reading's name as a file-name part: lower case, words joined by '-'."""
    out = "".join(ch.lower() if ch.isalnum() else "-" for ch in name)
    return "-".join(w for w in out.split("-") if w)[:48] or "reading"
