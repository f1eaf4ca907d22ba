"""How long each claim is expected to take: the order of a parallel audit, nothing else.

A claim's expected seconds are those the last audit with the same profile measured (kept in
``$CLCHECK_CACHE/timings.json`` beside the cache of trained runs), or else the ``cost`` the plugin
declared. Two workers that take the long claims first finish together; taken in claim order, the
longest claim may start last and run alone. The results never depend on it.

The file is ``{"format": 1, "profiles": {profile: {claim id: seconds}}, "sha256": <checksum>}``;
the checksum is the SHA-256 of the canonical JSON (sorted keys, no spaces) of
``{"file": "timings.json", "format": 1, "profiles": ...}``. A file that does not verify (edited by
hand, truncated, of an older version without the checksum, values that are not seconds) is ignored
and rewritten by the next audit: it only orders work. Like every cache checksum, it guards against
accidents (corruption, truncation, a stray edit), not against someone who edits the file on purpose
and recomputes it -- who could only change the order of the claims anyway.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any, Iterable

from numerics.files import remove_stale_temporaries_once, write_text_atomic
from training.cache import cache_dir

FORMAT = 1
_NAME = "timings.json"


def _path() -> Path:
    folder = cache_dir()
    remove_stale_temporaries_once(folder, recursive=False)  # a killed audit's temporary timings
    return folder / _NAME


def _checksum(profiles: Any) -> str:
    blob = json.dumps({"file": _NAME, "format": FORMAT, "profiles": profiles}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def _valid(profiles: Any) -> bool:
    return isinstance(profiles, dict) and all(
        isinstance(section, dict) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
            for v in section.values())
        for section in profiles.values())


def _read() -> dict[str, dict[str, float]]:
    """The measured seconds per profile, or nothing when the file is missing or does not verify."""
    try:
        data = json.loads(_path().read_text())
        if (isinstance(data, dict) and data.get("format") == FORMAT and _valid(data.get("profiles"))
                and data.get("sha256") == _checksum(data["profiles"])):
            return data["profiles"]
    except Exception:  # noqa: BLE001 - a cache is never trusted nor fatal: any damage (nesting, types) reads as empty
        pass
    return {}


def expected_seconds(claims: Iterable[Any], profile: str) -> dict[str, float]:
    """Claim id -> the seconds measured for it in the last audit with ``profile``, else its ``cost``."""
    measured = _read().get(profile, {})
    out = {}
    for claim in claims:
        value = measured.get(claim.id)
        out[claim.id] = float(value) if value is not None else float(claim.cost)
    return out


def record(results: Iterable[Any], profile: str) -> None:
    """Keep the measured seconds of ``results`` for the next audit with ``profile`` (atomically; a
    cache that cannot be written only loses the ordering hint)."""
    profiles = _read()
    section = dict(profiles.get(profile, {}))
    for r in results:
        seconds = float(r.seconds)
        if math.isfinite(seconds) and seconds >= 0:
            section[r.id] = round(seconds, 3)
    profiles[profile] = section
    try:
        write_text_atomic(_path(), json.dumps({"format": FORMAT, "profiles": profiles,
                                               "sha256": _checksum(profiles)}, indent=1, sort_keys=True))
    except (OSError, ValueError):
        pass
