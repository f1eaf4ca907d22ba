"""The claim registry: built-in claims, plus claims registered by other packages.

A package outside this repository registers claims by calling :func:`register`
at import time and advertising the module under the ``clcheck.claims`` entry
point group (or by naming it in the ``CLCHECK_PLUGINS`` environment variable,
comma separated). ``clcheck audit`` and ``pytest -m theorems`` both read the
registry through :func:`all_claims`.
"""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points

from theorems.claim import Claim

_REGISTRY: dict[str, Claim] = {}
_STRUCTURE: list[tuple[str, str]] = []
_LOADED = False
BUILTIN_MODULES = ("theorems.merad", "theorems.huang", "theorems.ren", "theorems.wen")


def register(claim: Claim) -> Claim:
    """Add ``claim`` to the registry; an id may be registered only once."""
    existing = _REGISTRY.get(claim.id)
    if existing is not None and existing is not claim:
        raise ValueError(f"claim id {claim.id!r} is already registered ({existing.source})")
    _REGISTRY[claim.id] = claim
    return claim


def add_structure(edges: list[tuple[str, str]]) -> None:
    """Record how a paper's results depend on each other (``(used, user)`` pairs), beyond what
    the proof pages' step tags say; nodes need not be registered claims (e.g. external lemmas)."""
    _STRUCTURE.extend(edges)


def structure(papers: list[str] | None = None) -> list[tuple[str, str]]:
    load_all()
    if not papers:
        return list(_STRUCTURE)
    return [(a, b) for a, b in _STRUCTURE
            if any(b == p or b.startswith(p.rstrip(".") + ".") for p in papers)]


def load_all() -> None:
    """Import the built-in claim modules and every plugin module (once)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for module in BUILTIN_MODULES:
        importlib.import_module(module)
    for ep in entry_points(group="clcheck.claims"):
        ep.load()
    for module in filter(None, os.environ.get("CLCHECK_PLUGINS", "").split(",")):
        importlib.import_module(module.strip())


def all_claims(papers: list[str] | None = None, ids: list[str] | None = None) -> list[Claim]:
    """Registered claims, optionally filtered by id prefix (``--paper``) or exact ids."""
    load_all()
    claims = sorted(_REGISTRY.values(), key=lambda c: c.id)
    if papers:
        claims = [c for c in claims if any(c.id == p or c.id.startswith(p.rstrip(".") + ".") for p in papers)]
    if ids:
        unknown = sorted(set(ids) - set(_REGISTRY))
        if unknown:
            raise KeyError(f"unknown claim id(s): {', '.join(unknown)}")
        claims = [c for c in claims if c.id in ids]
    return claims


def get(claim_id: str) -> Claim:
    load_all()
    try:
        return _REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"unknown claim id {claim_id!r}; `clcheck list` shows the registered ids") from None
