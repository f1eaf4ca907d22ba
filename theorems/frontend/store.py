"""The verdict store (issue 41): an unchanged claim's verdict is reused, never trusted blindly.

Like Hypothesis's example database and pytest's cache, it lives in the cache folder
(``$CLCHECK_CACHE/verdicts/<claim id>.json``, one entry per claim: the last check). An entry is keyed by

* the claim's fingerprint (:func:`theorems.engine.fingerprint.claim_fingerprint`: its statement, hypotheses,
  families, quantities' source, certificates, the plugin's Coq scripts and witnesses),
* the engine's fingerprint (clcheck's own source and the numeric libraries' versions),
* the seed and the whole budget (the profile and every override),

and a lookup with another key is a miss: the claim is searched again and the entry replaced. A hit is reused
only after :func:`revalidate` says so, so the store never makes a verdict stronger than a fresh run would:

* ``refuted``: its witness (and each reading's) is replayed at high precision and must still violate -- a closed
  part is enclosed again, a parametric family's limit taken again, a reachability row bounded again;
* ``consistent``, ``untested``, ``inconclusive``: every best subject of the tightness rows is replayed at high
  precision and must not violate, at the ratio recorded;
* ``proved``, ``vacuous``: the certificate records must hash to the digest stored with them (their inputs -- the
  certificate functions' source and the plugin's Coq scripts -- are in the key already);
* ``error`` is never stored; an experiment's evidence is its run, whose inputs are in the key (it is not re-run).

Nothing half-written is left: entries are written atomically; an unreadable entry is a miss (and rewritten).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import math
import re
from pathlib import Path
from typing import Any, Callable

from numerics import env
from numerics.files import cache_root, write_text_atomic
from theorems.engine.budget import Budget
from theorems.engine.claim import AnyClaim, StatementClaim
from theorems.engine.fingerprint import claim_fingerprint, engine_fingerprint
from theorems.engine.registry import origin
from theorems.engine.rules.compare import ATOL, same_margin
from theorems.engine.verdict import ClaimResult, Verdict
from theorems.engine.witness import replay, replay_closed, replay_parametric, replay_tightness
from theorems.engine.reach import replay_row

FORMAT = 1
MAX_ENTRY_BYTES = 50_000_000
_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def enabled() -> bool:
    """The store is on unless CLCHECK_STORE=0 (the test suite's own tests run with it off)."""
    return env.flag("CLCHECK_STORE", default=True)


def folder() -> Path:
    return cache_root() / "verdicts"


def key(claim: AnyClaim, budget: Budget, seed: int, artifacts: bool = True) -> str:
    """The entry's key: the claim's and the engine's fingerprints, the seed, the budget and whether the check wrote
    its files (figures: an audit's; a pytest item's check writes none)."""
    data = {"format": FORMAT, "claim": claim.id, "fingerprint": claim_fingerprint(claim, origin(claim.id) or ""),
            "engine": engine_fingerprint(), "seed": seed, "budget": dataclasses.asdict(budget), "artifacts": artifacts}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _path(claim_id: str) -> Path:
    return folder() / f"{_SAFE.sub('_', claim_id)}.json"


def _certificates_digest(result: dict[str, Any]) -> str:
    records = [{k: v for k, v in c.items() if k != "seconds"} for c in result.get("certificate") or []]
    return hashlib.sha256(json.dumps(records, sort_keys=True, default=str).encode()).hexdigest()


def save(claim: AnyClaim, budget: Budget, seed: int, result: ClaimResult, files: dict[str, bytes],
         artifacts: bool = True, entry_key: str | None = None) -> None:
    """Keep ``result`` (and the files its check wrote) as the claim's entry; an error is not kept. ``entry_key``: the
    key taken before the check (a check may fill caches on the objects the fingerprint walks)."""
    if result.verdict == Verdict.ERROR:
        return
    data = result.to_json()
    entry = {"format": FORMAT, "key": entry_key or key(claim, budget, seed, artifacts), "claim": claim.id, "result": data,
             "certificates": _certificates_digest(data),
             "files": {name: base64.b64encode(blob).decode() for name, blob in files.items()}}
    try:
        write_text_atomic(_path(claim.id), json.dumps(entry, default=str, allow_nan=True))
    except OSError:
        return  # a read-only cache: nothing stored, nothing wrong


def load(claim: AnyClaim, budget: Budget, seed: int, artifacts: bool = True, entry_key: str | None = None
         ) -> tuple[ClaimResult, dict[str, bytes]] | None:
    """The stored result under this exact key (``entry_key``, else computed), or None (no entry, another key, an
    unreadable entry)."""
    path = _path(claim.id)
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(path.read_text())
        if entry.get("format") != FORMAT or entry.get("key") != (entry_key or key(claim, budget, seed, artifacts)):
            return None
        if entry.get("certificates") != _certificates_digest(entry["result"]):
            return None
        result = ClaimResult.from_json(entry["result"])
        files = {name: base64.b64decode(blob) for name, blob in entry.get("files", {}).items()}
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return result, files


def _still_refutes(witness: dict[str, Any] | None, claim: AnyClaim) -> bool:
    """The recorded refutation, replayed: True only if it still refutes (an experiment's is in the key)."""
    if witness is None:
        return False
    kind = witness.get("kind")
    if kind == "experiment":
        return True
    if not isinstance(claim, StatementClaim):
        return kind == "reach" and replay_row(witness, claim)["verdict"] == Verdict.REFUTED
    if kind == "closed":
        return replay_closed(witness, claim).holds is False
    if kind == "parametric":
        return replay_parametric(witness, claim).verdict == Verdict.REFUTED
    if kind == "reach":
        return replay_row(witness, claim)["verdict"] == Verdict.REFUTED
    return bool(replay(witness, claim).violated)


def _best_subjects_hold(claim: StatementClaim, result: ClaimResult) -> bool:
    """Every tightness row's best subject, replayed: no violation, and the recorded ratio reached again."""
    for row in result.tightness:
        witness = row.get("witness")
        if witness is None:
            continue
        ratio, probe = replay_tightness(witness, claim)
        if probe.violated:
            return False
        recorded = witness.get("ratio")
        if recorded is not None and ratio is not None and math.isfinite(float(recorded)) \
                and not same_margin(float(ratio), float(recorded), ATOL):
            return False
    return True


def revalidate(claim: AnyClaim, result: ClaimResult) -> str:
    """Why the stored result cannot be reused ("" when it can): see the module doc."""
    try:
        if result.verdict == Verdict.REFUTED:
            if not _still_refutes(result.witness, claim):
                return "its witness no longer refutes the claim"
        elif result.verdict in (Verdict.CONSISTENT, Verdict.UNTESTED, Verdict.INCONCLUSIVE) \
                and isinstance(claim, StatementClaim):
            if not _best_subjects_hold(claim, result):
                return "a best subject no longer replays as recorded"
        for reading in result.readings:
            if reading.get("verdict") == Verdict.REFUTED.value and reading.get("witness") is not None \
                    and reading.get("name") not in (None, claim.reading):
                if not _still_refutes(reading["witness"], claim.reading_named(reading["name"])):
                    return f"the witness of the reading {reading['name']!r} no longer refutes it"
    except Exception as exc:  # noqa: BLE001 - a replay that cannot run is no reuse: the claim is searched again
        return f"its evidence could not be replayed ({type(exc).__name__})"
    return ""


def reuse(claim: AnyClaim, budget: Budget, seed: int, artifacts: bool = True, entry_key: str | None = None
          ) -> tuple[ClaimResult, dict[str, bytes]] | None:
    """The stored result, revalidated, marked reused; None when the claim must be searched."""
    stored = load(claim, budget, seed, artifacts, entry_key)
    if stored is None:
        return None
    result, files = stored
    if revalidate(claim, result):
        return None
    result.reused = True
    return result, files


def checked(claim: AnyClaim, budget: Budget, seed: int, run: Callable[[], tuple[ClaimResult, dict[str, bytes]]],
            artifacts: bool = True, fresh: bool = False) -> tuple[ClaimResult, dict[str, bytes]]:
    """The one path of every caller (audit jobs, `clcheck check`, pytest's claim items): the stored result when it is
    reused (never with ``fresh``), else ``run()``'s, kept. The key is taken once, before the check: a check may fill
    caches on the objects the fingerprint walks."""
    entry_key = key(claim, budget, seed, artifacts)
    stored = None if fresh else reuse(claim, budget, seed, artifacts, entry_key)
    if stored is not None:
        return stored
    result, files = run()
    save(claim, budget, seed, result, files, artifacts, entry_key)
    return result, files
