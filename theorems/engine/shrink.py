"""Shrinking a confirmed violation to a minimal witness.

Greedy: take the first simpler subject the family proposes that stays inside the family's
domain, meets the claim's hypotheses and still violates (confirmed in high precision); repeat
until none does. A proposal outside the family's bounds (say N_C = 1 for a family drawn from
2..4) is skipped, never evaluated; a subject already visited is never proposed again, so two
proposals that lead to each other cannot make the shrinker cycle.
"""

from __future__ import annotations

from typing import Any

from theorems.engine.claim import StatementClaim
from theorems.engine.family import SubjectFamily
from theorems.engine.probe import Probe, Tracker
from theorems.engine.search import admissible
from theorems.engine.witness import subject_checksum


def _key(family: SubjectFamily, subject: Any) -> str:
    try:
        return subject_checksum(family.to_json(subject))
    except NotImplementedError:  # a family without witnesses: identity is the best we have
        return str(id(subject))


def shrink(claim: StatementClaim, start: Probe, tries: int, tracker: Tracker) -> Probe:
    """The simplest violating subject reachable from ``start`` within ``tries`` proposals."""
    family, current = start.family, start
    seen = {_key(family, start.subject)}
    improved = True
    while improved and tries > 0:
        improved = False
        for candidate in family.shrink(current.subject):
            tries -= 1
            if tries < 0:
                break
            if not admissible(claim, family, candidate):
                continue  # outside the family's domain (an emptied class, say): not even written down
            key = _key(family, candidate)
            if key in seen:
                continue
            seen.add(key)
            p = tracker.probe(family, candidate, found_by=current.found_by, always=True)
            if p.violated:
                current, improved = p, True
                break
    return current
