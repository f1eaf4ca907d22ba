"""Witnesses: replayable records of confirmed violations.

A witness names its claim, the plugin module that registers the claim (so ``clcheck replay``
can load it), the subject family, the subject itself (JSON) with a SHA-256 checksum of it,
and both printed sides and the margin of every part at the confirming precision. Replay
re-evaluates the subject in high precision after checking that it is the recorded subject,
lies in the family's domain and meets the claim's hypotheses.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import mpmath

from numerics.bounded_read import read_json_file
from numerics.errors import AssumptionError, InputFileError
from numerics.files import write_text_atomic
from theorems.engine.asymptotic import measure
from theorems.engine.claim import RunContext, StatementClaim
from theorems.engine.closed import decide as decide_closed
from theorems.engine.errors import WitnessError
from theorems.engine.logic import slug
from theorems.engine.probe import Probe, probe
from theorems.engine.registry import origin, paper_of
from theorems.engine.rules.asymptotic import family_valid, family_verdict
from theorems.engine.rules.compare import is_violation
from theorems.engine.rules.experiment import experiment_verdict, still_refutes
from theorems.engine.family import SubjectFamily

WITNESS_VERSION = 2
MAX_WITNESS_BYTES = 32 * 2**20  # a learned encoder's subject (1 797 digits x d = 64) is under 4 MB
REQUIRED_FIELDS = ("claim", "family", "subject", "subject_sha256")
EXPERIMENT_FIELDS = ("claim", "kind", "evidence", "audit_seed", "quick")
TIGHTNESS_FIELDS = ("claim", "kind", "family", "part", "ratio", "subject", "subject_sha256")
CLOSED_FIELDS = ("claim", "kind", "part")
PARAMETRIC_FIELDS = ("claim", "kind", "part", "family")
REACH_FIELDS = ("claim", "kind", "row")


def subject_checksum(subject_json: Any) -> str:
    """SHA-256 of the subject's canonical JSON (sorted keys, no spaces)."""
    blob = json.dumps(subject_json, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def witness_json(claim: StatementClaim, p: Probe, seed: int, role: str) -> dict[str, Any]:
    """A replayable record of a confirmed violation (``role``: "minimal" or "worst")."""
    parts = []
    for v in p.best:
        parts.append({
            "part": str(v.part), "relation": str(v.part.relation),
            "lhs": mpmath.nstr(v.lhs, 30), "rhs": mpmath.nstr(v.rhs, 30),
            "margin": mpmath.nstr(v.margin, 20), "certain_margin": _number(v.certain_margin),
            "bracketed": v.bracketed, "tol": mpmath.nstr(v.tol, 6), "violated": is_violation(v.certain_margin, v.tol),
        })
    subject = p.family.to_json(p.subject)
    return {
        "version": WITNESS_VERSION, "claim": claim.id, "reading": claim.reading, "plugin": origin(claim.id), "role": role,
        "family": p.family.name, "statement": claim.statement_text(),
        "description": p.family.describe(p.subject), "subject": subject,
        "subject_sha256": subject_checksum(subject), "dps": p.dps, "seed": seed,
        "found_by": p.found_by, "parts": parts,
    }


def tightness_witness(claim: StatementClaim, p: Probe, part: str, ratio: float, seed: int) -> dict[str, Any] | None:
    """A replayable record of the subject where part ``part`` came closest to binding (its ratio smaller side /
    larger side); None for a family that cannot write its subjects."""
    try:
        subject = p.family.to_json(p.subject)
    except NotImplementedError:
        return None
    return {"version": WITNESS_VERSION, "kind": "tightness", "claim": claim.id, "reading": claim.reading,
            "plugin": origin(claim.id), "family": p.family.name, "part": part, "ratio": ratio,
            "description": p.family.describe(p.subject), "subject": subject,
            "subject_sha256": subject_checksum(subject), "seed": seed, "found_by": p.found_by}


def replay_tightness(data: dict[str, Any], claim: StatementClaim) -> tuple[float | None, Probe]:
    """The recorded part's ratio on the witness subject, re-evaluated in high precision."""
    family, subject = witness_subject(data, claim)
    p = probe(claim, family, subject, found_by="tightness witness", force_confirm=True)
    for v in p.confirmed or []:
        if str(v.part) == data["part"]:
            return v.ratio, p
    raise WitnessError(f"claim {claim.id} has no inequality part labelled {data['part']!r} on this subject")


def closed_witness(claim: StatementClaim, closed: dict[str, Any], seed: int) -> dict[str, Any]:
    """The witness of a closed part found false: the part and the enclosure of its margin; ``clcheck replay``
    encloses it again."""
    return {"version": WITNESS_VERSION, "kind": "closed", "claim": claim.id, "reading": claim.reading,
            "plugin": origin(claim.id), "role": "minimal", "statement": claim.statement_text(),
            "description": f"the closed part {closed['part']}: margin in [{closed['lower']}, {closed['upper']}]",
            "part": closed["part"], "seed": seed, "found_by": "interval arithmetic"}


def replay_closed(data: dict[str, Any], claim: StatementClaim) -> Any:
    """Enclose the witness's closed part again: its :class:`~theorems.engine.closed.ClosedPart`."""
    for part in claim.statement:
        if str(part) == data["part"] and not part.free_symbols:
            decided = decide_closed(part)
            if decided is None:
                raise WitnessError(f"the closed part {data['part']!r} of {claim.id} cannot be enclosed")
            return decided
    raise WitnessError(f"claim {claim.id} has no closed part labelled {data['part']!r}")


def parametric_witness(claim: StatementClaim, m: Any, seed: int) -> dict[str, Any]:
    """The witness of an asymptotic part refuted along a closed-form family: the part, the family's name, the ratio
    and its exact limit; ``clcheck replay`` takes the limit again from the claim's family of that name."""
    return {"version": WITNESS_VERSION, "kind": "parametric", "claim": claim.id, "reading": claim.reading,
            "plugin": origin(claim.id), "role": "minimal", "statement": claim.statement_text(),
            "description": f"`{m.part}` along {m.family} (moves {', '.join(m.moves)}): {m.why}", "part": m.part,
            "family": m.family, "ratio": m.ratio, "limit": m.limit, "index": m.index, "seed": seed,
            "found_by": "witness family"}


def replay_parametric(data: dict[str, Any], claim: StatementClaim) -> Any:
    """Measure the witness's part along the claim's family of that name again, under the claim's prefix: the
    :class:`~theorems.engine.asymptotic.Measurement` with its validity and verdict."""
    part = next((a for a in claim.asymptotic if str(a) == data["part"]), None)
    if part is None:
        raise WitnessError(f"claim {claim.id} (reading {claim.reading!r}) has no asymptotic part {data['part']!r}")
    family = next((f for f in claim.parametric if f.name == data["family"]), None)
    if family is None:
        known = ", ".join(repr(f.name) for f in claim.parametric) or "none"
        raise WitnessError(f"claim {claim.id} (reading {claim.reading!r}) has no parametric family named "
                           f"{data['family']!r} (its families: {known})")
    m = measure(part, family)
    valid, why = family_valid(claim.prefix, part.constant, m.moves)
    if m.valid and not valid:
        m.valid, m.why_invalid = False, why
    m.verdict, m.why = family_verdict(m.notation, m.limit, m.slope, m.stderr, m.error)
    return m


def reach_witness(claim: Any, row: dict[str, Any], seed: int) -> dict[str, Any]:
    """The witness of a conclusion unreachable under the hypotheses: the reach check's configuration (or the data
    adversary's data set) and the certified lower bound on the infimum; ``clcheck replay`` computes it again."""
    where = row.get("config") if row.get("adversary") is None else f"the data set {row.get('kind')}"
    return {"version": WITNESS_VERSION, "kind": "reach", "claim": claim.id, "reading": claim.reading,
            "plugin": origin(claim.id), "role": "minimal", "statement": claim.statement_text(),
            "description": f"{row.get('reach') or 'data adversary'} at {where}: {row['why']}",
            "row": {**row, "verdict": getattr(row.get("verdict"), "value", row.get("verdict"))},
            "adversary": row.get("adversary"), "seed": seed, "found_by": "reachability"}


def experiment_witness(claim: Any, evidence: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """The witness of a refuted experiment claim: the refuting configuration (or witness family) and where to
    run the experiment again to see it (the audit seed and the profile)."""
    what = (f"configuration {evidence['config']}" if "config" in evidence else f"witness family {evidence['growth']}")
    return {"version": WITNESS_VERSION, "kind": "experiment", "claim": claim.id, "reading": claim.reading,
            "plugin": origin(claim.id), "role": "minimal", "statement": claim.statement_text(),
            "description": f"{what}: {evidence['why']}", "evidence": evidence, "audit_seed": ctx.seed,
            "quick": bool(ctx.quick), "found_by": "experiment"}


def replay_experiment(data: dict[str, Any], claim: Any) -> tuple[bool, str]:
    """Run the claim's experiment again at the witness's audit seed and profile: (still refutes, why)."""
    evidence, seed, quick = data.get("evidence"), data.get("audit_seed"), data.get("quick")
    if not isinstance(evidence, dict) or not isinstance(seed, int) or isinstance(seed, bool) or not isinstance(quick, bool):
        raise WitnessError("an experiment witness needs the fields evidence (an object), audit_seed (an integer) "
                           "and quick (true or false)")
    outcome = claim.experiment(RunContext(seed, quick, None))
    judgement = experiment_verdict(claim.quantifier, outcome)
    return still_refutes(judgement, outcome.growth, evidence), judgement.reason


def witness_files(result: Any) -> list[tuple[str, dict[str, Any]]]:
    """The witness files of a claim's result: ``<id>.json`` and ``<id>.worst.json`` for the literal
    reading, ``<id>@<reading>.json`` for another reading's refutation."""
    out = [(f"{result.id}{suffix}.json", w) for suffix, w in (("", result.witness), (".worst", result.worst_violation))
           if w is not None]
    out += [(f"{result.id}@{slug(r['name'])}.json", r["witness"]) for r in result.readings
            if r.get("witness") is not None]
    out += [(f"{result.id}.tight{i}.json", row["witness"]) for i, row in enumerate(result.tightness, 1)
            if row.get("witness") is not None]
    return out


def _number(x: Any) -> float | str:
    """A float, or its name when it is not finite (JSON has no inf: "inf", "-inf")."""
    value = float(x)
    return value if math.isfinite(value) else str(value)


def write_witness(data: dict[str, Any], path: Path) -> None:
    """Write a witness atomically (a temporary file, then a rename): never half-written."""
    write_text_atomic(path, json.dumps(data, indent=2))


def read_witness(path: Path) -> dict[str, Any]:
    """Load a witness file; a missing, unreadable, oversized, non-regular or malformed file is a
    WitnessError naming it (see :mod:`numerics.bounded_read`)."""
    try:
        data = read_json_file(path, MAX_WITNESS_BYTES, "witness file")
    except InputFileError as exc:
        raise WitnessError(str(exc)) from None
    if not isinstance(data, dict):
        raise WitnessError(f"witness file {str(path)!r} holds a JSON {type(data).__name__}, not an object")
    needed = {"experiment": EXPERIMENT_FIELDS, "tightness": TIGHTNESS_FIELDS,
              "closed": CLOSED_FIELDS, "parametric": PARAMETRIC_FIELDS, "reach": REACH_FIELDS}.get(data.get("kind"), REQUIRED_FIELDS)
    missing = [k for k in needed if k not in data]
    if missing:
        raise WitnessError(f"witness file {str(path)!r} lacks the field(s) {', '.join(missing)}: "
                           "it was not written by clcheck audit")
    wrong = [k for k in ("claim", "family", "subject_sha256", "part", "reading", "kind") if k in data
             and not isinstance(data[k], str)]
    wrong += [k for k in ("plugin",) if k in data and not isinstance(data[k], (str, type(None)))]
    if wrong:
        raise WitnessError(f"witness file {str(path)!r}: the field(s) {', '.join(wrong)} must be strings")
    kind = data.get("kind")
    if kind == "tightness" and not _finite_number(data["ratio"]):
        raise WitnessError(f"witness file {str(path)!r}: the field ratio must be a finite number, not {data['ratio']!r}")
    if kind == "experiment" and not (isinstance(data["evidence"], dict) and isinstance(data["audit_seed"], int)
                                     and not isinstance(data["audit_seed"], bool) and isinstance(data["quick"], bool)):
        raise WitnessError(f"witness file {str(path)!r}: an experiment witness needs evidence (an object), audit_seed "
                           "(an integer) and quick (true or false)")
    return data


def _finite_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def family_by_name(claim: StatementClaim, name: str) -> SubjectFamily:
    for fam in claim.subjects:
        if fam.name == name:
            return fam
    names = ", ".join(repr(f.name) for f in claim.subjects) or "none"
    raise WitnessError(f"claim {claim.id} has no subject family named {name!r} (its families: {names})")


def witness_subject(data: dict[str, Any], claim: StatementClaim) -> tuple[SubjectFamily, Any]:
    """The family and the subject of a witness, after checking it is the recorded, valid subject."""
    family = family_by_name(claim, str(data["family"]))
    recorded = data.get("subject_sha256")
    if recorded is None:
        raise WitnessError(f"this witness of {claim.id} has no subject_sha256: its subject cannot be checked "
                           "against the one recorded when the violation was confirmed")
    if recorded != subject_checksum(data["subject"]):
        raise WitnessError(f"the subject of this witness of {claim.id} was edited: its checksum no longer "
                           "matches the one recorded when the violation was confirmed")
    try:
        subject = family.from_json(data["subject"])
        family.validate(subject)
    except (AssumptionError, KeyError, TypeError, ValueError) as exc:
        why = str(exc).removeprefix(f"{family.name}: ")  # the family's own messages start with its name
        raise WitnessError(f"the witness subject is not a valid subject of family {family.name!r}: {why}") from None
    failed = [a.name for a in claim.assumptions if not a.holds(subject)]
    if failed:
        raise WitnessError(f"the witness subject violates the hypotheses of {claim.id}: {', '.join(failed)}")
    return family, subject


def replay(data: dict[str, Any], claim: StatementClaim) -> Probe:
    """Re-evaluate a saved witness in high precision (every part confirmed)."""
    family, subject = witness_subject(data, claim)
    return probe(claim, family, subject, found_by=data.get("found_by", "witness"), force_confirm=True)


def recorded_witness_path(claim: Any) -> Path | None:
    """Where the owning plugin keeps the claim's recorded refutation (None if none is recorded)."""
    if not claim.known_refutation:  # None, or "" (a reading that records no refutation)
        return None
    folder = paper_of(claim).witnesses
    return None if folder is None else folder / claim.known_refutation


def recorded_witness(claim: Any) -> dict[str, Any] | None:
    path = recorded_witness_path(claim)
    return read_witness(path) if path is not None and path.exists() else None
