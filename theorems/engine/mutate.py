"""Mutation analysis of a claim's inequalities: what a ``consistent`` is worth (issue 40).

As mutation testing does for code, each inequality part of a statement claim is made a little stronger, and the
search is asked to refute the stronger statement. The mutants of a part (``mutations``), all paper-agnostic --
they read only the sympy relation:

* each numeric constant and each exponent moved by 1, 2, 5, 10 and 20 % (``AMOUNTS``) in the direction that
  strengthens the statement;
* each additive term dropped, where dropping it strengthens the statement;
* each side scaled by 1 -+ 1 % (``SIDE_AMOUNT``) in the direction that strengthens it;
* a non-strict inequality made strict.

"Strengthens" is measured, never guessed: the margin (smaller side - larger side) of the mutant is compared with
the printed part's on seeded subjects of the claim's drawn families (``direction``). A move that makes the part
stronger on some subjects and weaker on others is no strengthening, and is listed as skipped with why.

A mutant claim is the shipped claim reduced to the mutated part, with its prefix, hypotheses, the part's own
``applies`` and ``informative``, and its drawn subject families (learned snapshots are fixed data the search does
not move): no certificate, reading, recorded witness or sharp constant of the claim -- only the search decides it.
A mutant that survives is reported *true* only when a certificate shows it (``shown_true``: a certified sharp
constant of the part whose proved ``bound`` implies the mutant's, the implication proved by sympy); otherwise it is a mutant the search never
refutes. The sensitivity of a part is the smallest strengthening of its constants that the search refutes.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from numerics.seeds import run_seed
from theorems.engine.claim import Part, Sharp, StatementClaim
from theorems.engine.expression import CONSTANT, DROP, EXPONENT, at, canonical, places, replace, scaled_at
from theorems.engine.family import SubjectFamily
from theorems.engine.probe import evaluate
from theorems.engine.quantity import trivial_range
from theorems.engine.rules.compare import RTOL
from theorems.engine.search import admissible, sample_subjects
from theorems.engine.tightness import inequality_parts, sharp_report

#: how far each constant and exponent is moved, relative to its value (in the strengthening direction)
AMOUNTS = (Fraction(1, 100), Fraction(2, 100), Fraction(5, 100), Fraction(10, 100), Fraction(20, 100))
#: how far each side is scaled
SIDE_AMOUNT = Fraction(1, 100)
#: seeded subjects per drawn family on which a move's direction is measured
DIRECTION_SUBJECTS = 16
#: the relative step of the direction probe
PROBE_STEP = Fraction(1, 100)

SCALE, STRICT = "scale side", "strict"


@dataclass(frozen=True)
class Mutation:
    """One strengthening of one part: ``kind``, where (``path`` into the part's canonical relation, the smaller
    side first), by how much (``amount``, relative; 0 for a dropped term or a strict inequality) and the multiplier
    applied (``factor``: 1 + amount or 1 - amount, as measured to strengthen)."""

    claim_id: str
    part: str
    kind: str
    path: tuple[int, ...]
    what: str
    amount: Fraction = Fraction(0)
    factor: Fraction = Fraction(1)

    @property
    def key(self) -> str:
        """A stable name: the part, the kind, the position and the amount."""
        where = ".".join(map(str, self.path)) or "-"
        return f"{self.part} | {self.kind} {where} | {self.amount}"

    def describe(self) -> str:
        if self.kind in (CONSTANT, EXPONENT):
            return f"{self.kind} {self.what} x {self.factor} ({_percent(self.amount)} stronger)"
        if self.kind == SCALE:
            return f"{self.what} x {self.factor}"
        if self.kind == DROP:
            return f"term {self.what} dropped"
        return "made strict"

    def to_json(self) -> dict[str, Any]:
        return {"claim": self.claim_id, "part": self.part, "kind": self.kind, "path": list(self.path),
                "what": self.what, "amount": str(self.amount), "factor": str(self.factor),
                "description": self.describe()}

    @staticmethod
    def from_json(data: dict[str, Any]) -> "Mutation":
        return Mutation(str(data["claim"]), str(data["part"]), str(data["kind"]), tuple(int(i) for i in data["path"]),
                        str(data["what"]), Fraction(data["amount"]), Fraction(data["factor"]))


@dataclass(frozen=True)
class Skipped:
    """A move that is not a strengthening (or could not be measured), and why."""

    part: str
    kind: str
    what: str
    why: str


def _percent(amount: Fraction) -> str:
    return f"{float(amount) * 100:g} %"


def mutated_relation(part: Part, mutation: Mutation) -> sympy.core.relational.Relational:
    """The part's canonical relation with ``mutation`` applied."""
    rel = canonical(part)
    if mutation.kind == STRICT:
        return sympy.StrictLessThan(rel.lhs, rel.rhs, evaluate=False)
    if mutation.kind == DROP:
        parent_path, index = mutation.path[:-1], mutation.path[-1]
        parent = at(rel, parent_path)
        kept = [a for j, a in enumerate(parent.args) if j != index]
        return replace(rel, parent_path, sympy.Add(*kept))
    return scaled_at(rel, mutation.path, sympy.Rational(mutation.factor.numerator, mutation.factor.denominator))


def mutated_part(part: Part, mutation: Mutation) -> Part:
    """The part with ``mutation`` applied; its own hypothesis and informative condition kept."""
    return dataclasses.replace(part, relation=mutated_relation(part, mutation),
                               label=f"{part} [mutant: {mutation.describe()}]")


def mutant_claim(claim: StatementClaim, mutation: Mutation) -> StatementClaim:
    """The claim reduced to the mutated part: its prefix and hypotheses, the part's own hypothesis, its drawn
    families and the equality cases of the part's sharp constants (``Sharp.attained``: subjects the search probes);
    nothing that decides it but the search (no certificate, reading, witness, or sharp constant's claim)."""
    part = next(p for p in claim.statement if str(p) == mutation.part)
    drawn = tuple(f for f in claim.subjects if f.origin != "learned")
    mutated = mutated_part(part, mutation)
    equality = tuple(Sharp(str(mutated), s.printed, s.sharp, certified=False, attained=s.attained)
                     for s in claim.sharp if s.part == mutation.part and s.attained is not None)
    return dataclasses.replace(
        claim, id=f"{claim.id}.mutant", statement=(mutated,), subjects=drawn,
        certificates=(), known_refutation=None, readings=(), sharp=equality, vacuity=(), unsatisfiable=(),
        artifacts=(), notation_slip="", derived="", asymptotic=(), parametric=(), reach=(), data_adversary=())


# -- which way strengthens ---------------------------------------------------------------------------------------
@dataclass
class _Subjects:
    """The seeded subjects a part is measured on: (family, subject) pairs where the part applies."""

    pairs: list[tuple[SubjectFamily, Any]] = field(default_factory=list)


def direction_subjects(claim: StatementClaim, part: Part, seed: int) -> _Subjects:
    """Seeded admissible subjects of the claim's drawn families on which ``part`` applies."""
    out = _Subjects()
    for i, family in enumerate(f for f in claim.subjects if f.origin != "learned"):
        try:
            drawn = sample_subjects(family, DIRECTION_SUBJECTS, run_seed(seed, f"mutate.direction/{claim.id}", i))
        except Exception:  # noqa: BLE001 - a family that cannot draw here measures nothing
            continue
        for subject in drawn:
            try:
                if admissible(claim, family, subject) and (part.applies is None or part.applies(subject)):
                    out.pairs.append((family, subject))
            except Exception:  # noqa: BLE001 - a subject its hypotheses cannot judge is not measured on
                continue
    return out


def _margins(claim: StatementClaim, relation: Any, part: Part, subjects: _Subjects) -> list[tuple[float, float] | None]:
    """The float64 margin (smaller - larger side) of ``relation`` on each subject, with the scale of its sides
    (None where a side is undefined)."""
    probe = dataclasses.replace(part, relation=relation)
    out: list[tuple[float, float] | None] = []
    for family, subject in subjects.pairs:
        try:
            with np.errstate(all="ignore"):  # a side undefined here (a root of a negative) is None, not a warning
                value = evaluate(claim, family, subject, parts=[probe])[0]
            margin, scale = float(value.margin), max(abs(float(value.lhs)), abs(float(value.rhs)))
            out.append((margin, scale) if math.isfinite(margin) and math.isfinite(scale) else None)
        except Exception:  # noqa: BLE001 - a side undefined at this subject
            out.append(None)
    return out


def _compare(base: list[tuple[float, float] | None], moved: list[tuple[float, float] | None]) -> str:
    """'stronger' when the moved relation's margin is at least the printed one's on every subject where both are
    defined and larger on some (beyond float noise, relative to the printed sides), 'weaker' for the mirror image,
    'mixed' or 'none' else."""
    diffs = [(m[0] - b[0]) / max(b[1], 1e-300) for b, m in zip(base, moved) if b is not None and m is not None]
    noise = 64 * RTOL
    up, down = any(d > noise for d in diffs), any(d < -noise for d in diffs)
    if up and not down:
        return "stronger"
    if down and not up:
        return "weaker"
    return "mixed" if up and down else "none"


def mutations(claim: StatementClaim, seed: int = 0) -> tuple[list[Mutation], list[Skipped]]:
    """Every strengthening mutation of every inequality part of ``claim`` (see the module doc), and the moves
    that are not strengthenings, with why."""
    found: list[Mutation] = []
    skipped: list[Skipped] = []
    for part in inequality_parts(claim):
        label, rel = str(part), canonical(part)
        subjects = direction_subjects(claim, part, seed)
        if not subjects.pairs:
            skipped.append(Skipped(label, "all", "", "no drawn subject meets the hypotheses: nothing to measure "
                                   "a direction on"))
            continue
        base = _margins(claim, rel, part, subjects)
        if not isinstance(rel, sympy.StrictLessThan):
            found.append(Mutation(claim.id, label, STRICT, (), "<= to <"))
        moves = [((i,), SCALE, "larger side" if i else "smaller side") for i in (0, 1)]
        moves += [(path, kind, _shown(node)) for path, kind, node in places(rel)]
        for path, kind, what in moves:
            found_or_why = _measured(claim, part, subjects, base, path, kind, what)
            if isinstance(found_or_why, str):
                skipped.append(Skipped(label, kind, what, found_or_why))
                continue
            sign = found_or_why
            amounts = AMOUNTS if kind in (CONSTANT, EXPONENT) else (SIDE_AMOUNT,) if kind == SCALE else (Fraction(0),)
            for amount in amounts:
                found.append(Mutation(claim.id, label, kind, path, what, amount, 1 + sign * amount))
    return found, skipped


def _measured(claim: StatementClaim, part: Part, subjects: _Subjects, base: list[tuple[float, float] | None],
              path: tuple[int, ...], kind: str, what: str) -> int | str:
    """The sign (+1: multiply by 1 + a, -1: by 1 - a; 0 for a drop) that strengthens the move, or why none does."""
    probe = Mutation(claim.id, str(part), kind, path, what)
    if kind == DROP:
        verdict = _compare(base, _margins(claim, mutated_relation(part, probe), part, subjects))
        return 0 if verdict == "stronger" else f"dropping it is {_words(verdict)} on the sampled subjects"
    up = dataclasses.replace(probe, factor=1 + PROBE_STEP)
    down = dataclasses.replace(probe, factor=1 - PROBE_STEP)
    up_v = _compare(base, _margins(claim, mutated_relation(part, up), part, subjects))
    down_v = _compare(base, _margins(claim, mutated_relation(part, down), part, subjects))
    if up_v == "stronger":
        return 1
    if down_v == "stronger":
        return -1
    return f"moving it either way is not a strengthening on the sampled subjects (up: {_words(up_v)}, down: " \
           f"{_words(down_v)})"


def _shown(node: sympy.Basic) -> str:
    """A constant or term as the report names it (a long float rounded to 10 digits)."""
    return sympy.sstr(node.evalf(10) if isinstance(node, sympy.Float) else node)


def _words(verdict: str) -> str:
    return {"weaker": "a weakening", "mixed": "stronger on some subjects and weaker on others",
            "none": "no change beyond rounding", "stronger": "a strengthening"}[verdict]


# -- a surviving mutant shown true -------------------------------------------------------------------------------
def _real_form(expr: sympy.Expr, roots: dict[sympy.Expr, sympy.Symbol],
               lower: dict[sympy.Symbol, float] | None = None) -> sympy.Expr:
    """``expr`` over real symbols, each square root of a non-constant a non-negative symbol (its value is real
    wherever the claim is evaluated: a side that is not real is an error, never a verdict), an inverse square root a
    positive one. The same radicand gets the same symbol in every expression passed with one ``roots``."""
    real = {s: _assumed(s, (lower or {}).get(s)) for s in expr.free_symbols}
    expr = expr.xreplace(real)

    def root(base: sympy.Expr, positive: bool) -> sympy.Symbol:
        key = sympy.simplify(base)
        if key not in roots:
            roots[key] = sympy.Symbol(f"_sqrt{len(roots)}", nonnegative=True)
        return roots[key] if not positive else sympy.Symbol(roots[key].name + "_pos", positive=True)

    return expr.replace(lambda e: isinstance(e, sympy.Pow) and not e.base.is_number and e.exp in (sympy.S.Half, -sympy.S.Half),
                        lambda e: root(e.base, e.exp < 0) ** (1 if e.exp > 0 else -1))


def _assumed(symbol: sympy.Symbol, lower: float | None = None) -> sympy.Symbol:
    """The quantity as a real symbol, non-negative (positive) when its declared range (or ``lower``, the lower end of
    a family part's range) starts at 0 (above 0)."""
    lo = max(trivial_range(symbol)[0], -math.inf if lower is None else lower)
    if lo > 0:
        return sympy.Symbol(f"_r_{symbol.name}", positive=True)
    if lo >= 0:
        return sympy.Symbol(f"_r_{symbol.name}", nonnegative=True)
    return sympy.Symbol(f"_r_{symbol.name}", real=True)


def implies(stronger: sympy.core.relational.Relational, weaker: sympy.core.relational.Relational,
            lower: dict[sympy.Symbol, float] | None = None) -> bool:
    """Whether sympy proves that ``stronger`` (small_s <= large_s) implies ``weaker`` (small_w <= large_w) wherever
    both sides are real, given the quantities' declared ranges and ``lower`` (the lower ends of family parts' ranges:
    ``part_lower_ends``): (large_w - small_w) - lam (large_s - small_s) >= 0 identically for some lam >= 0 -- lam = 1,
    then the ratios of the two gaps' coefficients of a common term (a side scaled by 1.01 needs lam = 1.01). A strict
    ``weaker`` (small_w < large_w) needs that difference > 0 identically."""
    roots: dict[sympy.Expr, sympy.Symbol] = {}
    weak = _real_form(weaker.rhs, roots, lower) - _real_form(weaker.lhs, roots, lower)
    strong = _real_form(stronger.rhs, roots, lower) - _real_form(stronger.lhs, roots, lower)
    strict = isinstance(weaker, sympy.StrictLessThan)
    try:
        for lam in _multipliers(weak, strong):
            gap = weak - lam * strong
            factored = sympy.simplify(sympy.factor(gap))
            if bool(factored.is_positive if strict else factored.is_nonnegative) or _termwise_nonnegative(gap, strict):
                return True
    except Exception:  # noqa: BLE001 - sympy cannot decide: not shown
        return False
    return False


def _coefficients(expr: sympy.Expr, symbols: set[sympy.Symbol]) -> dict[sympy.Expr, sympy.Expr]:
    """The expanded ``expr`` as {symbolic factor: its numeric coefficient} (the constant under the factor 1)."""
    out: dict[sympy.Expr, sympy.Expr] = {}
    for term in sympy.Add.make_args(sympy.expand(expr)):
        coefficient, factor = term.as_independent(*symbols, as_Add=False)
        out[factor] = out.get(factor, sympy.S.Zero) + coefficient
    return out


def _multipliers(weak: sympy.Expr, strong: sympy.Expr) -> list[sympy.Expr]:
    """1, then each positive ratio of the coefficients the two gaps give one symbolic term (the candidates for lam)."""
    symbols = weak.free_symbols | strong.free_symbols
    w, s = _coefficients(weak, symbols), _coefficients(strong, symbols)
    ratios = [sympy.nsimplify(w[f] / s[f], rational=False) for f in w if f != 1 and f in s and s[f] != 0]
    return [sympy.S.One] + [r for r in dict.fromkeys(ratios) if r != 1 and bool(r.is_positive)]


def _termwise_nonnegative(gap: sympy.Expr, strict: bool = False) -> bool:
    """A sufficient test sympy's sign rules miss (20 - 10 sqrt 2 + 49 M): the expanded gap's terms grouped by their
    symbolic factor, each factor non-negative with a non-negative sum of numeric coefficients, the constant too;
    ``strict``: and the constant positive (then the gap is > 0 everywhere)."""
    groups = _coefficients(gap, gap.free_symbols)
    nonnegative = all(bool(c.is_nonnegative) and (factor == 1 or bool(factor.is_nonnegative))
                      for factor, c in groups.items())
    return nonnegative and (not strict or bool(groups.get(sympy.S.One, sympy.S.Zero).is_positive))


def part_lower_ends(claim: StatementClaim) -> dict[sympy.Symbol, float]:
    """The lowest value a scalar or size of the claim's families takes (over the families that have it): a sign
    every subject the mutant is audited on has."""
    lower: dict[sympy.Symbol, float] = {}
    for family in claim.subjects:
        for name, symbol in getattr(family, "part_symbols", {}).items():
            span = family.span_of(name)
            if span is not None:
                lower[symbol] = min(lower.get(symbol, math.inf), span[0])
    return lower


def shown_true(claim: StatementClaim, mutation: Mutation) -> str:
    """Why a mutant is true, when a certificate shows it: a sharp constant of its part, certified (its own
    certificates pass on their whole domain; the named results they rest on are named), whose proved ``bound``
    implies the mutant's (``implies``); else ""."""
    part = next(p for p in claim.statement if str(p) == mutation.part)
    mutant = mutated_relation(part, mutation)
    lower = part_lower_ends(claim)
    for sharp in claim.sharp:
        if sharp.part != mutation.part or sharp.bound is None:
            continue
        bound = sympy.LessThan(sharp.bound[0], sharp.bound[1], evaluate=False)
        if not implies(bound, mutant, lower):
            continue
        proved_by = dataclasses.replace(sharp, certificates=sharp.bound_by) if sharp.bound_by else sharp
        shown = sharp_report(proved_by, claim, None)
        if shown["certified"]:
            modulo = f" (modulo: {', '.join(shown['modulo'])})" if shown["modulo"] else ""
            return (f"implied by the certified bound {sympy.sstr(bound)} (sharp constant: {sharp.sharp}){modulo}, "
                    "given the quantities' declared ranges and the signs of the families' scalars")
    return ""
