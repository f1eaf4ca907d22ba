"""`clcheck eval`: the REPL step of writing a claim (issue 41) -- named quantities and a claim's parts on one subject.

The subject is a witness file's (a counterexample's, or a tightness row's best subject: ``kind: tightness``), a
plain subject JSON (``{"dims": ..., "values": ...}``) of a named family, or a seeded draw of a family. Each
quantity is evaluated in every backend -- float64, mpmath at ``dps`` digits, torch (float64, when installed) --
and each applicable part of the claim gives its two sides, its slack (larger side - smaller side) and its ratio
(smaller side / larger side), in float64 and at ``dps`` digits, and whether it holds there by the one tolerance
rule (rules.compare.is_violation; a single subject at ``dps`` digits, not a confirmed counterexample: `clcheck
check` and `clcheck audit` decide).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mpmath
import sympy

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.bounded_read import read_json_file
from numerics.errors import AssumptionError
from theorems.engine.claim import StatementClaim
from theorems.engine.errors import InputFileError, OptionError, WitnessError
from theorems.engine.evaluate import applicable_parts
from theorems.engine.family import SubjectFamily
from theorems.engine.probe import evaluate
from theorems.engine.rules.compare import is_violation
from theorems.engine.search import sample_subjects
from theorems.engine.witness import family_by_name, witness_subject

MAX_SUBJECT_BYTES = 50_000_000
DRAWS = 8  # a seed's draw is the last of this many (the first are the simplest: zeros, one point)


@dataclass
class Evaluation:
    """What `clcheck eval` prints: where the subject came from, the quantities per backend, the parts."""

    family: SubjectFamily
    subject: Any
    origin: str
    quantities: list[dict[str, Any]]
    parts: list[dict[str, Any]]


def subject_of(claim: StatementClaim, family_name: str | None, subject_file: Path | None,
               seed: int) -> tuple[SubjectFamily, Any, str]:
    """The family and subject to evaluate on, and a sentence saying where it came from."""
    if subject_file is not None:
        data = read_json_file(subject_file, MAX_SUBJECT_BYTES, "subject file")
        if not isinstance(data, dict):
            raise InputFileError(f"subject file {str(subject_file)!r} holds a JSON {type(data).__name__}, not an object")
        if "subject" in data and "family" in data:  # a witness (counterexample or tightness best subject)
            family, subject = witness_subject(data, claim)
            return family, subject, f"the subject of the witness {subject_file}"
        if family_name is None:
            raise OptionError("a plain subject JSON needs --family NAME (the family it is a subject of)")
        family = family_by_name(claim, family_name)
        try:
            subject = family.from_json(data)
            family.validate(subject)
        except (AssumptionError, KeyError, TypeError, ValueError) as exc:
            raise WitnessError(f"{subject_file}: not a valid subject of family {family.name!r}: {exc}") from None
        return family, subject, f"the subject in {subject_file}"
    if not claim.subjects:
        raise OptionError(f"claim {claim.id} has no subject family to draw from")
    family = family_by_name(claim, family_name) if family_name else claim.subjects[0]
    family = family.for_seed(seed)
    drawn = sample_subjects(family, DRAWS, seed)  # Hypothesis draws its simplest subjects first: take the last
    if not drawn:
        raise OptionError(f"family {family.name!r} drew no subject (it has no strategy and an empty list)")
    return family, drawn[-1], f"a draw of family {family.name!r} at seed {seed}"


def _number(value: Any) -> Any:
    """A backend's value as a Python number (float or mpf) or its text when it is an array."""
    try:
        if hasattr(value, "detach"):
            value = value.detach().numpy()
        if hasattr(value, "shape") and getattr(value, "shape", ()) != ():
            return str(value)
        return value if isinstance(value, mpmath.mpf) else float(value)
    except (TypeError, ValueError):
        return str(value)


def quantity_rows(family: SubjectFamily, subject: Any, symbols: list[sympy.Symbol], dps: int) -> list[dict[str, Any]]:
    """Each quantity in float64, at ``dps`` digits and in torch; a backend that cannot evaluate it says why."""
    backends: list[tuple[str, Any]] = [("float64", FLOAT), (f"mpmath {dps} digits", mp_backend(dps))]
    try:
        backends.append(("torch float64", torch_backend()))
    except ImportError:  # torch is optional here
        pass
    rows = [{"quantity": s.name} for s in symbols]
    for label, xp in backends:
        try:
            with xp.precision():
                values = family.quantities(subject, symbols, xp)
            for row, s in zip(rows, symbols):
                row[label] = _number(values[s])
        except Exception as exc:  # noqa: BLE001 - a backend without this quantity: said, not raised
            for row in rows:
                row[label] = f"not evaluated: {type(exc).__name__}: {str(exc)[:120]}"
    return rows


def part_rows(claim: StatementClaim, family: SubjectFamily, subject: Any, dps: int) -> list[dict[str, Any]]:
    """Each applicable part: its relation, its sides, slack and ratio in float64 and at ``dps`` digits."""
    rows = []
    low = evaluate(claim, family, subject)
    high = evaluate(claim, family, subject, dps=dps)
    for f, h in zip(low, high):
        small, large = h.sides
        rows.append({"part": str(f.part), "relation": str(f.part.relation), "lhs": h.lhs, "rhs": h.rhs,
                     "slack": large - small, "ratio": h.ratio, "float64 slack": float(f.slack),
                     "float64 ratio": f.ratio, "holds": not is_violation(h.certain_margin, h.tol),
                     "undefined": h.undefined or ""})
    return rows


def evaluate_subject(claim: StatementClaim, family_name: str | None, subject_file: Path | None, seed: int,
                     quantities: list[str], dps: int) -> Evaluation:
    """The quantities (those named, else every one the claim's parts use) and the parts on the chosen subject."""
    family, subject, origin = subject_of(claim, family_name, subject_file, seed)
    available = {s.name: s for s in family.symbols}
    if quantities:
        unknown = [q for q in quantities if q not in available]
        if unknown:
            raise OptionError(f"family {family.name!r} has no quantity {', '.join(map(repr, unknown))}; it has "
                              f"{', '.join(sorted(available))}")
        symbols = [available[q] for q in quantities]
    else:
        used = {s for p in applicable_parts(claim, subject) for s in p.symbols}
        symbols = sorted((s for s in used if s in family.symbols), key=lambda s: s.name)
    parts = part_rows(claim, family, subject, dps) if applicable_parts(claim, subject) else []
    return Evaluation(family, subject, origin, quantity_rows(family, subject, symbols, dps), parts)


def shown_number(value: Any, digits: int = 17) -> str:
    """A value for the terminal: mpf at ``digits`` significant digits, floats by repr, None as '-'."""
    if value is None:
        return "-"
    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, digits)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    return str(value)
