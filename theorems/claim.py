"""What a claim is: a registered statement about named quantities, with its source.

Modelled on sympy's relational objects: a statement is a tuple of sympy
relations (its *parts*: ``L_sup <= L_sup_mu <= ...`` is two parts); truth is
never a bare bool but a :class:`~theorems.verdict.ClaimResult`.
Assumptions are declared as data (name, text, predicate), not buried in code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import sympy

if TYPE_CHECKING:
    from theorems.certify import Certificate
    from theorems.subjects.base import SubjectFamily


class Kind(str, enum.Enum):
    """The four kinds of claims of CLAIMS.md."""

    IDENTITY = "identity"
    INEQUALITY = "inequality"
    OBSERVATION = "observation"
    DYNAMICS = "dynamics"


@dataclass(frozen=True)
class Source:
    """Where a claim is printed: file and the paper's number in each version."""

    file: str
    numbering: str  # e.g. "Lemma 1 (7) = Lemma 3.1"
    paper: str = ""

    def __str__(self) -> str:
        return f"{self.numbering} [{self.file}]"


@dataclass(frozen=True)
class Assumption:
    """A hypothesis of the claim, checked on every subject before the statement."""

    name: str
    text: str
    holds: Callable[[Any], bool]


@dataclass(frozen=True)
class Part:
    """One relation of a statement, with a label used in reports."""

    relation: sympy.core.relational.Relational
    label: str = ""
    applies: Callable[[Any], bool] | None = None  # part-specific hypothesis (None: always)

    @property
    def is_identity(self) -> bool:
        return isinstance(self.relation, sympy.Equality)

    @property
    def is_strict(self) -> bool:
        """a < b (or a > b): violated when the margin is within the tolerance of 0, too."""
        return isinstance(self.relation, (sympy.StrictLessThan, sympy.StrictGreaterThan))

    def sides(self) -> tuple[sympy.Expr, sympy.Expr]:
        """(small, large) for an inequality, (lhs, rhs) for an identity."""
        rel = self.relation
        if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
            return rel.rhs, rel.lhs
        return rel.lhs, rel.rhs

    def __str__(self) -> str:
        return self.label or sympy.sstr(self.relation)


@dataclass(frozen=True)
class Claim:
    """A registered claim (see ../shared/CLAIMS.md for the ids).

    ``statement`` is a tuple of :class:`Part`; ``subjects`` the families of
    test subjects it is checked on; ``certificates`` functions that try to prove
    it (symbolically, by SMT or by interval arithmetic); ``known_refutation``
    names the witness file in ``theorems/witnesses/`` when the repository records
    the claim as refuted; ``not_encodable`` explains what the source leaves unspecified.
    """

    id: str
    kind: Kind
    source: Source
    statement: tuple[Part, ...]
    assumptions: tuple[Assumption, ...] = ()
    subjects: tuple["SubjectFamily", ...] = ()
    certificates: tuple[Callable[[], "Certificate"], ...] = ()
    known_refutation: str | None = None
    not_encodable: str | None = None
    notes: str = ""
    encoding: str = ""  # how the printed words became this statement
    adversarial: bool = True
    # extra report sections: fn(out_dir, seed, quick) -> markdown (tables, plots written to out_dir)
    artifacts: tuple[Callable[[Any, int, bool], str], ...] = ()
    # dynamics claims: fn(seed, quick, out_dir) -> ExperimentOutcome (a statistical verdict over seeds)
    experiment: Callable[[int, bool, Any], Any] | None = None
    # verdicts that count as expected (default: proved or consistent; refuted when a witness is recorded)
    expect: tuple[str, ...] = ("proved", "consistent")

    def __post_init__(self) -> None:
        if self.id != self.id.lower() or " " in self.id:
            raise ValueError(f"claim id {self.id!r} must be lower case, dot separated")
        if not self.statement and self.not_encodable is None and self.experiment is None:
            raise ValueError(f"claim {self.id} has no statement, experiment or not_encodable reason")

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    def hypotheses_hold(self, subject: Any) -> bool:
        return all(a.holds(subject) for a in self.assumptions)

    def statement_text(self) -> str:
        return " and ".join(sympy.sstr(p.relation) for p in self.statement)


def parts(*relations: Any, labels: Sequence[str] = ()) -> tuple[Part, ...]:
    """Build statement parts from sympy relations (labels optional)."""
    labels = list(labels) + [""] * (len(relations) - len(labels))
    return tuple(Part(r, l) for r, l in zip(relations, labels))

