"""How long each claim is expected to take: the order of a parallel audit, nothing else.

A claim's expected seconds are those the last audit with the same profile measured (kept in
``$CLCHECK_CACHE/timings.json`` beside the cache of trained runs), or else the ``cost`` the plugin
declared. Two workers that take the long claims first finish together; taken in claim order, the
longest claim may start last and run alone. The results never depend on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from numerics.files import write_text_atomic


def _path() -> Path:
    from training.cache import cache_dir

    return cache_dir() / "timings.json"


def _read() -> dict[str, dict[str, float]]:
    try:
        data = json.loads(_path().read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def expected_seconds(claims: Iterable[Any], profile: str) -> dict[str, float]:
    """Claim id -> the seconds measured for it in the last audit with ``profile``, else its ``cost``."""
    measured = _read().get(profile, {})
    out = {}
    for claim in claims:
        value = measured.get(claim.id) if isinstance(measured, dict) else None
        out[claim.id] = float(value) if isinstance(value, (int, float)) and value >= 0 else float(claim.cost)
    return out


def record(results: Iterable[Any], profile: str) -> None:
    """Keep the measured seconds of ``results`` for the next audit with ``profile`` (atomically; a
    cache that cannot be written only loses the ordering hint)."""
    data = _read()
    section = data.get(profile) if isinstance(data.get(profile), dict) else {}
    section.update({r.id: round(float(r.seconds), 3) for r in results})
    data[profile] = section
    try:
        write_text_atomic(_path(), json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        pass
