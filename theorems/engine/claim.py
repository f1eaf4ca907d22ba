"""What a claim is: three distinct types, one for each way a paper's sentence can be checked.

* :class:`StatementClaim` -- a statement over named quantities (sympy relations, its *parts*)
  with declared hypotheses, checked on subjects by search, confirmation and certificates;
* :class:`ExperimentClaim` -- a sentence about training runs or a measured effect, checked by
  an experiment that returns a statistical outcome;
* :class:`UnencodableClaim` -- a sentence whose source leaves something unspecified; the
  reason says what;
* :class:`DefinitionClaim` -- a numbered definition that asserts nothing to check: listed with what
  it defines (so that every numbered statement of a paper has an id).

Modelled on sympy's relational objects: a part keeps its relation as printed (``a >= b`` stays
``a >= b``; :meth:`Part.canonical` is the relation's own ``reversed`` form ``b <= a``), and
truth is never a bare bool but a :class:`~theorems.engine.verdict.ClaimResult`. Hypotheses are
declared as data (name, text, predicate), not buried in code.

Relations are best built with :func:`Le`, :func:`Ge`, :func:`Lt`, :func:`Gt`, :func:`Eq` of
this module: they keep the relation unevaluated, so registration can tell when sympy would
decide it from a symbol's assumptions alone (``Ge(L, 0)`` with ``L`` nonnegative is ``True``,
a check that could never fail) and name the assumption that did it.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

import sympy
from sympy.logic.boolalg import BooleanAtom

from theorems.engine.errors import ClaimError
from theorems.engine.functions import SUPPORTED_FUNCTIONS, unsupported
from theorems.engine.logic import Reading, check_prefix, slug
from theorems.engine.quantity import declared

if TYPE_CHECKING:
    from numerics.certificate import Certificate
    from theorems.engine.asymptotic import Asymptotic, Parametric
    from theorems.engine.reach import DataAdversary, Reach
    from theorems.engine.informative import Informative
    from theorems.engine.experiment import ExperimentOutcome, Growth
    from theorems.engine.family import SubjectFamily
    from theorems.engine.logic import Bound
    from theorems.engine.prerequisite import Prerequisite


class Kind(str, enum.Enum):
    """The four kinds of claims of CLAIMS.md, and a numbered definition (which asserts nothing to check)."""

    IDENTITY = "identity"
    INEQUALITY = "inequality"
    OBSERVATION = "observation"
    DYNAMICS = "dynamics"
    DEFINITION = "definition"


@dataclass(frozen=True)
class Source:
    """Where a claim is printed: file and the paper's number in each version.

    ``covers`` lists the numbered statements the claim checks, e.g. ``("Lemma 1", "Lemma 3.1")``; an entry
    may name its file (``"001_x.txt: Lemma 3.1"``), otherwise it is looked up in each of the claim's files.
    Left empty, the statement names written in ``numbering`` are used (:mod:`theorems.engine.coverage`)."""

    file: str
    numbering: str  # e.g. "Lemma 1 (7) = Lemma 3.1"
    paper: str = ""
    covers: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.numbering} [{self.file}]"


@dataclass(frozen=True)
class Assumption:
    """A hypothesis of the claim, checked on every subject before the statement."""

    name: str
    text: str
    holds: Callable[[Any], bool]


@dataclass(frozen=True)
class RunContext:
    """What an experiment or a report section gets: the audit's seed, the profile, and where
    figures go (None: no files are written, e.g. in pytest)."""

    seed: int = 0
    quick: bool = False
    out_dir: Path | None = None


_GREATER = (sympy.GreaterThan, sympy.StrictGreaterThan)

#: a claim id: the paper prefix and components of letters, digits, '_' and '-' (it names the claim's witness files,
#: so nothing that could climb out of a folder: no '/', no '..', no leading '.')
CLAIM_ID = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9][a-z0-9_\-]*)+")
MAX_ID_LENGTH = 120


@dataclass(frozen=True)
class Part:
    """One relation of a statement, as printed, with a label used in reports."""

    relation: sympy.core.relational.Relational
    label: str = ""
    applies: Callable[[Any], bool] | None = None  # part-specific hypothesis (None: always)
    informative: "Informative | None" = None  # when the part can fail (None: wherever it applies)

    @property
    def is_identity(self) -> bool:
        return isinstance(self.relation, sympy.Equality)

    @property
    def is_strict(self) -> bool:
        """a < b (or a > b): violated when the margin is within the tolerance of 0, too."""
        return isinstance(self.relation, (sympy.StrictLessThan, sympy.StrictGreaterThan))

    @property
    def canonical(self) -> sympy.core.relational.Relational:
        """The relation with its smaller side on the left (``b <= a`` for a printed ``a >= b``)."""
        rel = self.relation
        return rel.reversed if isinstance(rel, _GREATER) else rel

    @functools.cached_property
    def free_symbols(self) -> frozenset[sympy.Symbol]:
        """The relation's symbols, kept: sympy walks the whole expression on every call, and a
        search asks for them on every subject."""
        return frozenset(self.relation.free_symbols)

    @functools.cached_property
    def scale_terms(self) -> tuple[sympy.Expr, ...]:
        """The declared scales of the part's residue quantities (``quantity(..., scale=...)``), sorted by the
        quantity's name: terms of the part's scale beside its sides' own."""
        infos = [declared(s) for s in sorted(self.free_symbols, key=lambda s: s.name)]
        return tuple(info.scale for info in infos if info is not None and info.scale is not None)

    @functools.cached_property
    def symbols(self) -> tuple[sympy.Symbol, ...]:
        """The free symbols and those of their declared scales, sorted by name: the order the compiled sides take
        them in (a family computes every one)."""
        scales = set().union(*(t.free_symbols for t in self.scale_terms))
        return tuple(sorted(self.free_symbols | scales, key=lambda s: s.name))

    def __str__(self) -> str:
        return self.label or sympy.sstr(self.relation)


def _unevaluated(cls: type) -> Callable[[Any, Any], Any]:
    def build(lhs: Any, rhs: Any) -> Any:
        return cls(sympy.sympify(lhs), sympy.sympify(rhs), evaluate=False)

    build.__name__ = cls.__name__
    build.__doc__ = f"sympy.{cls.__name__}(lhs, rhs), kept unevaluated (see the module docstring)."
    return build


Le = _unevaluated(sympy.LessThan)
Lt = _unevaluated(sympy.StrictLessThan)
Ge = _unevaluated(sympy.GreaterThan)
Gt = _unevaluated(sympy.StrictGreaterThan)
Eq = _unevaluated(sympy.Equality)


def parts(*relations: Any, labels: Sequence[str] = ()) -> tuple[Part, ...]:
    """Build statement parts from sympy relations (labels optional)."""
    labels = list(labels) + [""] * (len(relations) - len(labels))
    return tuple(Part(r, label) for r, label in zip(relations, labels))


def _check_relation(claim_id: str, index: int, part: Part) -> None:
    """Reject a part that is not a relation, or that sympy decides from assumptions alone."""
    rel = part.relation
    where = f"claim {claim_id}, part {index + 1} ({part.label or sympy.sstr(rel)!r})"
    if isinstance(rel, BooleanAtom) or isinstance(rel, bool):
        raise ClaimError(
            f"{where} is the constant {rel}: sympy decided the relation before registration, from "
            "its symbols' assumptions (e.g. nonnegative=True makes Ge(L, 0) True), so the check "
            "could never fail. Build it with theorems.Ge/Le/Eq (kept unevaluated) to have the "
            "assumption named, or drop the assumption.")
    if not isinstance(rel, sympy.core.relational.Relational):
        raise ClaimError(f"{where} is a {type(rel).__name__}, not a sympy relation (Le, Ge, Eq, Lt, Gt)")
    if rel.has(sympy.nan, sympy.zoo):
        raise ClaimError(f"{where} contains a NaN or complex-infinite constant: it cannot be evaluated")
    if not rel.free_symbols:
        return  # a closed statement (e.g. a printed limit) is for certificates: sympy deciding it is a proof
    missing = unsupported(rel)
    if missing:
        raise ClaimError(f"{where} uses {', '.join(missing)}, which clcheck cannot evaluate in float64, mpmath and "
                         f"torch; supported: {', '.join(SUPPORTED_FUNCTIONS)}, finite Sum, + - * / and powers")
    evaluated = type(rel)(rel.lhs, rel.rhs)
    if isinstance(evaluated, BooleanAtom):
        for sym in sorted(rel.free_symbols, key=lambda s: s.name):
            plain = sympy.Symbol(sym.name, real=True)
            if not isinstance(type(rel)(*(side.subs(sym, plain) for side in (rel.lhs, rel.rhs))), BooleanAtom):
                assumed = {k: v for k, v in sym.assumptions0.items() if v and k in _TELLING}
                raise ClaimError(
                    f"{where} is always {evaluated}: sympy decides it from the assumption "
                    f"{', '.join(f'{k}=True' for k in sorted(assumed)) or 'set'} of the symbol {sym.name}, "
                    "so the check could never fail. Drop the assumption (declare the quantity's range "
                    "with theorems.quantity(..., range=...) instead).")
        raise ClaimError(f"{where} is always {evaluated} whatever the quantities' values: nothing to check")


# assumptions that can decide an inequality on their own
_TELLING = ("positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero", "extended_positive",
            "extended_nonnegative", "extended_negative", "extended_nonpositive")


@dataclass(frozen=True)
class ClaimBase:
    """Fields every claim has (see ../shared/CLAIMS.md for the ids)."""

    id: str
    kind: Kind
    source: Source
    _: KW_ONLY
    notes: str = ""
    encoding: str = ""  # how the printed words became this claim
    # scheduling only (never the verdict): roughly the claim's seconds in the audit profile, so that a
    # parallel audit starts the long claims first; an audit's measured times replace it when known
    cost: float = 1.0
    # work shared with other claims (training runs): prerequisites(quick, seed) -> [Prerequisite]
    prerequisites: "Callable[[bool, int], Sequence[Prerequisite]] | None" = None
    # the logical form (theorems.engine.logic): the objects the sentence binds, in printed order, and the
    # sentence's other readings (the claim's own fields are the literal reading)
    prefix: "tuple[Bound, ...]" = ()
    readings: "tuple[Reading, ...]" = ()
    literal: str = "the sentence as printed"  # what the literal reading rests on, in words
    reading: str = "literal"  # which reading this claim object is (set by under())
    # the premise-conclusion check (theorems.engine.reach): whether a conclusion Q <= level is reachable at all under
    # the hypotheses, and the data sets an adversary builds within what the hypotheses literally allow
    reach: "tuple[Reach, ...]" = ()
    data_adversary: "tuple[DataAdversary, ...]" = ()
    # the statement checked is the checker's reconstruction, not the printed one (a display the extraction lost):
    # what was inferred, from what -- carried by the verdict label, counted apart, never the paper's result proved
    reconstructed: str = ""
    # only the qualitative content of a partly lost statement is checked (a direction, a sign, a monotonicity, an
    # ordering): what survives and is checked -- carried by the verdict label, counted apart
    qualitative: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or len(self.id) > MAX_ID_LENGTH or not CLAIM_ID.fullmatch(self.id):
            raise ClaimError(f"claim id {self.id!r} must be lower case and dot separated, '<paper>.<name>' (e.g. "
                             "'merad.lemma1'): letters, digits, '_' and '-' in each component, at most "
                             f"{MAX_ID_LENGTH} characters (it names the claim's files)")
        object.__setattr__(self, "prefix", check_prefix(self.id, self.prefix))
        object.__setattr__(self, "readings", tuple(self.readings))
        names = ["literal"]
        slugs = {slug("literal"): "literal"}
        for reading in self.readings:
            if not isinstance(reading, Reading):
                raise ClaimError(f"claim {self.id}: readings take theorems.Reading(...), got {type(reading).__name__}")
            if reading.name in names:
                raise ClaimError(f"claim {self.id}: two readings are named {reading.name!r}")
            if slug(reading.name) in slugs:  # a reading's witness file is <id>@<slug>.json: one file per reading
                raise ClaimError(f"claim {self.id}: readings {slugs[slug(reading.name)]!r} and {reading.name!r} have "
                                 f"the same file name part {slug(reading.name)!r}: rename one")
            names.append(reading.name)
            slugs[slug(reading.name)] = reading.name
            wrong = sorted(set(reading.overrides()) - set(self.reading_fields()))
            if wrong:
                raise ClaimError(f"claim {self.id}: reading {reading.name!r} overrides {', '.join(wrong)}, which a "
                                 f"{type(self).__name__} does not have (it reads: {', '.join(self.reading_fields())})")
            if reading.prefix is not None:
                check_prefix(f"{self.id} (reading {reading.name!r})", reading.prefix)
            if type(self).__post_init__ is not ClaimBase.__post_init__:
                self.under(reading)  # validates the reading's statement and families now, at registration

    def reading_fields(self) -> tuple[str, ...]:
        """The fields a reading of this kind of claim may override."""
        return ("prefix",)

    def under(self, reading: "Reading") -> "ClaimBase":
        """This claim read as ``reading`` says: the literal claim with the reading's overrides, and no
        further readings."""
        return dataclasses.replace(self, readings=(), reading=reading.name, **reading.overrides())

    def reading_named(self, name: str) -> "ClaimBase":
        """This claim under the reading called ``name`` ("literal": the claim itself, without readings)."""
        if name == "literal":
            return dataclasses.replace(self, readings=()) if self.readings else self
        for reading in self.readings:
            if reading.name == name:
                return self.under(reading)
        known = ", ".join(["literal"] + [r.name for r in self.readings])
        raise ClaimError(f"claim {self.id} has no reading named {name!r} (its readings: {known})")

    def hypotheses_text(self) -> list[str]:
        """The hypotheses of this reading, in words (for reports)."""
        return []

    @property
    def paper(self) -> str:
        """The id's first component: the paper prefix (and pytest marker)."""
        return self.id.split(".", 1)[0]

    def statement_text(self) -> str:
        return ""


@dataclass(frozen=True)
class Sharp:
    """A sharp constant of an inequality part, beside the printed one (a part may have several, each over its own
    class -- the proof's chain over every matrix, the encoders -- and the report shows each): ``printed`` and
    ``sharp`` in words,
    ``certified`` when a certificate proves the sharp value -- ``certificates``, the functions that prove it: the
    report labels it certified only when they all pass on their whole domain (else it is an estimate) -- and
    ``sides`` -- the part's (smaller, larger) sides with the sharp constant in place of the printed one, as
    expressions over the claim's quantities -- so the report can say how close the search came to the sharp bound
    (their ratio at the subject with the best ratio). ``attained`` lists where the sharp bound is attained or
    approached -- its equality cases, as ``(family, subject)`` pairs of the claim's own families (a function, called
    once per check): the search probes them on the claim, climbs from them, and probes them on every mutant of the
    part (`clcheck mutate`), so a strengthening that fails only on the equality set is found without a sampler
    tuned to it. They are subjects like any other: they decide nothing by themselves. ``bound`` -- (smaller,
    larger) sides of a bound that ``certificates`` prove at every subject of the part's domain: the sides with the
    sharp constant when it is exact, with the certified upper end when the sharp constant is only bracketed (then
    ``sides`` may hold the lower end, for the ratio). `clcheck mutate` reports a surviving mutant of the part
    *true* only when a certified row's ``bound`` implies it; ``sides`` are never read as a proved bound, and
    ``bound`` is read on the claim as printed (its literal statement and hypotheses), never on a reading.
    ``bound_by`` names the certificates that prove ``bound`` when they are not all of ``certificates`` (a bracketed
    constant whose lower end is certified on part of the domain only: the bound is shown by its upper end's)."""

    part: str
    printed: str
    sharp: str
    certified: bool
    sides: tuple[Any, Any] | None = None
    certificates: tuple[Callable[[], "Certificate"], ...] = ()
    attained: Callable[[], Sequence[tuple[Any, Any]]] | None = None
    bound: tuple[Any, Any] | None = None
    bound_by: tuple[Callable[[], "Certificate"], ...] = ()

    def __post_init__(self) -> None:
        if self.certified and not self.certificates:
            raise ClaimError(f"sharp constant of {self.part!r}: certified=True needs the certificates that prove it "
                             "(certificates=...); without them it is an estimate (certified=False)")
        if self.bound is not None and not self.certified:
            raise ClaimError(f"sharp constant of {self.part!r}: bound=... is a bound its certificates prove; an "
                             "estimate (certified=False) proves none")
        if self.bound_by and self.bound is None:
            raise ClaimError(f"sharp constant of {self.part!r}: bound_by=... names the certificates of bound=..., "
                             "which is not given")


@dataclass(frozen=True)
class StatementClaim(ClaimBase):
    """A statement over named quantities, checked on subjects.

    ``statement`` is a tuple of :class:`Part`; ``subjects`` the families of test subjects;
    ``certificates`` functions that try to prove it (symbolically, by SMT, by intervals);
    ``known_refutation`` names the witness file, in the owning plugin's witness folder, when
    the repository records the claim as refuted; ``artifacts`` add report sections
    (``fn(RunContext) -> markdown``); ``derived`` says which constant of the statement the
    checker derived itself (it is shown beside the verdict); ``vacuity`` are certificates that
    the bound can never bind (the verdict is then ``vacuous``, with the proof); ``notation_slip``
    says why a refutation of this claim is a slip of notation (the source prints "=" where its
    argument gives, and needs, only "<="): the verdict stays ``refuted``, qualified as a slip, and
    proof summaries count it apart from the mathematical errors. ``unsatisfiable`` are certificates that
    the hypotheses can never hold together (premise-conclusion consistency: the claim is then
    ``vacuous``, with the proof; a subject that meets the hypotheses contradicts such a certificate,
    and the check is an ``error``). ``growth`` measures, for an asymptotic statement (an O(.) whose
    constant the prefix binds), the ratio it bounds along parametric witness families
    (:class:`~theorems.engine.experiment.Growth`): a ratio that grows without bound refutes it (the
    witness names the family and replays by measuring it again), one between bounded and unbounded
    leaves it inconclusive.
    """

    statement: tuple[Part, ...]
    assumptions: tuple[Assumption, ...] = ()
    subjects: tuple["SubjectFamily", ...] = ()
    certificates: tuple[Callable[[], "Certificate"], ...] = ()
    known_refutation: str | None = None
    adversarial: bool = True
    artifacts: tuple[Callable[[RunContext], str], ...] = ()
    derived: str = ""  # a constant the source leaves unspecified, replaced by one the checker derived
    vacuity: tuple[Callable[[], "Certificate"], ...] = ()  # certificates that the bound can never bind
    notation_slip: str = ""  # why a refutation of it is a notation slip, not a mathematical error
    # certificates that the hypotheses cannot hold together (the implication is then vacuous)
    unsatisfiable: tuple[Callable[[], "Certificate"], ...] = ()
    # the sharp constant of an inequality part, beside the printed one (the report gives both and the search's best)
    sharp: tuple["Sharp", ...] = ()
    # asymptotic parts (O, Omega, Theta as a parameter tends to a limit) and the parametric witness families they are
    # checked along (theorems.engine.asymptotic): the prefix decides which families count
    asymptotic: tuple["Asymptotic", ...] = ()
    parametric: tuple["Parametric", ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        labels = [str(p) for p in self.statement]
        unknown = [s.part for s in self.sharp if s.part not in labels]
        if unknown:
            raise ClaimError(f"claim {self.id}: sharp constants name parts it does not have: {unknown}")
        if not self.statement and not self.asymptotic and not self.reach and not self.data_adversary:
            raise ClaimError(f"claim {self.id} has an empty statement: give parts(...), asymptotic parts or a "
                             "reachability check, or register an ExperimentClaim or an UnencodableClaim")
        _check_asymptotic(self.id, self.prefix, self.asymptotic, bool(self.parametric or self.subjects))
        for i, part in enumerate(self.statement):
            if not isinstance(part, Part):
                raise ClaimError(f"claim {self.id}: statement entry {i + 1} is a {type(part).__name__}; "
                                 "build the statement with parts(...)")
            _check_relation(self.id, i, part)
        closed = all(not p.free_symbols for p in self.statement)  # decided by interval arithmetic (engine.closed)
        if not (self.subjects or self.certificates or closed or self.parametric or self.reach or self.data_adversary):
            raise ClaimError(f"claim {self.id} has neither subjects nor certificates: nothing can check it")
        for family in self.subjects:
            known = getattr(family, "symbols", None)
            if known is None:
                continue
            for part in self.statement:
                missing = set(part.symbols) - set(known)
                if part.applies is None and missing:
                    raise ClaimError(
                        f"claim {self.id}: subject family {family.name!r} cannot compute "
                        f"{', '.join(sorted(s.name for s in missing))} (part {str(part)!r}); it computes "
                        f"{', '.join(sorted(s.name for s in known))}")

    def reading_fields(self) -> tuple[str, ...]:
        return ("prefix", "assumptions", "subjects", "statement", "known_refutation", "unsatisfiable",
                "certificates", "asymptotic", "parametric", "reach", "data_adversary")

    def under(self, reading: "Reading") -> "StatementClaim":
        """As ClaimBase.under; a reading that restates the statement keeps the sharp rows of the parts it still has
        (a row of a part it replaced says nothing of the reading's own part)."""
        overrides = reading.overrides()
        if "statement" in overrides:
            labels = {str(p) for p in overrides["statement"]}
            overrides["sharp"] = tuple(s for s in self.sharp if s.part in labels)
        return dataclasses.replace(self, readings=(), reading=reading.name, **overrides)

    def hypotheses_text(self) -> list[str]:
        return [f"{a.name}: {a.text}" for a in self.assumptions]

    def hypotheses_hold(self, subject: Any) -> bool:
        return all(a.holds(subject) for a in self.assumptions)

    def statement_text(self) -> str:
        return " and ".join([sympy.sstr(p.relation) for p in self.statement] + [str(a) for a in self.asymptotic])


def _check_asymptotic(claim_id: str, prefix: Sequence[Any], asymptotic: Sequence[Any], has_families: bool) -> None:
    """An asymptotic part names a constant the prefix binds, and has families to be checked along."""
    bound = {n.strip() for b in prefix for n in b.name.split(",")}
    for a in asymptotic:
        if a.constant not in bound:
            raise ClaimError(f"claim {claim_id}: the asymptotic part {a} names the constant {a.constant!r}, which the "
                             "prefix does not bind (declare it with theorems.exists(..., asymptotic=...))")
    if asymptotic and not has_families:
        raise ClaimError(f"claim {claim_id}: asymptotic parts need parametric witness families (parametric=...)")


@dataclass(frozen=True)
class ExperimentClaim(ClaimBase):
    """A sentence checked by an experiment: ``experiment(RunContext) -> ExperimentOutcome``.

    ``quantifier`` is how the sentence quantifies over its models: "forall" (every admissible
    model: one refuted configuration refutes), "exists" (some model: the experiment searches for a
    witness; finding none at the settings tried is ``untested``, never ``refuted``), or "settings"
    (free settings the checker chose where the source is silent: consistent if every configuration
    is, refuted if every one is, inconclusive otherwise). The experiment returns measurements; the
    engine reads the verdict (:mod:`theorems.engine.rules`). ``known_refutation`` names the recorded
    witness of a refutation the repository accepts: the refuting configuration (or witness family),
    which replays by running the experiment again at the recorded audit seed and profile. The outcome's regime checks decide whether a run counts at all: a run outside the
    theorem's regime is ``untested``, never evidence either way.
    """

    experiment: Callable[[RunContext], "ExperimentOutcome"]
    quantifier: str = "forall"
    # why the experiment can support its universal statement but never refute it (a run that does not reach the
    # conclusion cannot tell): its consistent verdict is labelled one-sided until a reachability check or a data
    # adversary is applied to it (theorems.engine.rules.experiment, experiment.one_sided)
    one_sided: str = ""
    known_refutation: str | None = None  # a recorded refutation: the witness file (a configuration) in witnesses/
    # asymptotic parts checked along closed-form parametric families, as for a statement claim: an exact unbounded
    # ratio along a family the prefix lets move refutes whatever the runs show (experiment.asymptotic_unbounded)
    asymptotic: tuple["Asymptotic", ...] = ()
    parametric: tuple["Parametric", ...] = ()
    # certificates that the hypotheses can never hold together: the sentence is then vacuous and nothing is run
    # (experiment.hypotheses_unsatisfiable), as for a statement claim
    unsatisfiable: tuple[Callable[[], "Certificate"], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_asymptotic(self.id, self.prefix, self.asymptotic, bool(self.parametric))
        for q in [self.quantifier] + [r.quantifier for r in self.readings if r.quantifier is not None]:
            if q not in ("forall", "exists", "settings"):
                raise ClaimError(f"claim {self.id}: quantifier={q!r} must be 'forall', 'exists' or 'settings'")

    def reading_fields(self) -> tuple[str, ...]:
        return ("prefix", "experiment", "quantifier", "known_refutation", "reach", "data_adversary", "asymptotic",
                "parametric", "unsatisfiable")

    def hypotheses_text(self) -> list[str]:
        doc = (getattr(self.experiment, "__doc__", "") or "").strip().split("\n\n")[0]  # its first paragraph
        return [f"models read {self.quantifier}" + (f"; experiment: {' '.join(doc.split())}" if doc else "")]

    def statement_text(self) -> str:
        return self.notes or self.encoding


@dataclass(frozen=True)
class UnencodableClaim(ClaimBase):
    """A sentence the source leaves unspecified; ``reason`` says exactly what is missing."""

    reason: str

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.reason.strip():
            raise ClaimError(f"claim {self.id}: an UnencodableClaim must say what the source leaves unspecified")


@dataclass(frozen=True)
class DefinitionClaim(ClaimBase):
    """A numbered definition (or algorithm) that asserts nothing checkable: listed, never judged. ``defines`` says
    what it defines and where the checker implements it (or that its content is lost). A definition that does
    assert something -- a normalization, a range, a property -- is a claim of its own kind instead."""

    defines: str

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.defines.strip():
            raise ClaimError(f"claim {self.id}: a DefinitionClaim must say what it defines")
        if self.kind != Kind.DEFINITION:
            raise ClaimError(f"claim {self.id}: a DefinitionClaim has kind Kind.DEFINITION, got {self.kind.value}")


def numbered_id(prefix: str, name: str) -> str:
    """The id of a paper's numbered statement that the catalog does not name: ``<prefix>.<kind>_<number>``, lower
    case, dots and spaces as underscores (``numbered_id("p", "Lemma B.5")`` -> ``"p.lemma_b5"``; ``"Remark 2.4"``
    -> ``"<prefix>.remark_2_4"``, ``"Induction Hypothesis C.4"`` -> ``"<prefix>.induction_hypothesis_c4"``)."""
    words = name.strip().lower().split()
    if len(words) < 2:
        raise ClaimError(f"{name!r} is not a numbered statement's name (kind and number, e.g. 'Lemma B.5')")
    kind, number = "_".join(words[:-1]), words[-1]
    number = re.sub(r"^([a-z])\.", r"\1", number).replace(".", "_")  # B.5 -> b5, 2.4 -> 2_4
    return f"{prefix}.{kind}_{number}"


#: the name most users write: a claim with a statement
Claim = StatementClaim
AnyClaim = StatementClaim | ExperimentClaim | UnencodableClaim | DefinitionClaim
