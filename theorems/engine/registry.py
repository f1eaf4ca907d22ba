"""The registry: claims and the papers (plugins) that own them.

Every paper -- the four this repository ships and any outside package -- enters through the
same door: a module that calls :func:`register_paper` and :func:`register` when imported,
advertised under the ``clcheck.claims`` entry-point group (or named in the ``CLCHECK_PLUGINS``
environment variable, comma separated). The engine keeps no list of paper names: pytest
markers, recorded witnesses and proof pages all come from the :class:`Paper` a plugin declares.

An entry point's name is its paper's prefix (``merad = "theorems.papers.merad"``) and the plugin
registers only claims under it, so a selection by id or prefix imports just the plugins it names
(and every ``CLCHECK_PLUGINS`` module): ``clcheck audit --paper hyper`` does not import the others.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import sys
from dataclasses import dataclass, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Iterable, Iterator

from theorems.engine.claim import AnyClaim, ClaimBase
from theorems.engine.errors import ClaimError, PluginError, UnknownClaim
from theorems.engine.limits import TimeLimitExceeded, time_limit

ENTRY_POINT_GROUP = "clcheck.claims"
PLUGINS_VARIABLE = "CLCHECK_PLUGINS"


@dataclass(frozen=True)
class Paper:
    """A paper whose claims a plugin registers.

    ``prefix`` is the first component of its claim ids and its pytest marker; ``witnesses`` the
    folder of its recorded refutations (default: ``witnesses/`` beside the registering module);
    ``pages`` the folder of its proof pages (``<claim id>.md``), if it has any.
    """

    prefix: str
    title: str
    files: tuple[str, ...] = ()
    witnesses: Path | None = None
    pages: Path | None = None
    module: str = ""  # the plugin module that declared it (filled in by register_paper)

    def __post_init__(self) -> None:
        if not self.prefix or "." in self.prefix or self.prefix != self.prefix.lower() or " " in self.prefix:
            raise ClaimError(f"paper prefix {self.prefix!r} must be one lower-case word (it is the first "
                             "component of the paper's claim ids and its pytest marker)")


_CLAIMS: dict[str, AnyClaim] = {}
_ORIGIN: dict[str, str] = {}  # claim id -> plugin module to import to register it again
_PAPERS: dict[str, Paper] = {}
_STRUCTURE: list[tuple[str, str]] = []
_PROOFS: dict[str, list[Any]] = {}  # claim id -> its printed proofs (theorems.engine.proof.Proof)
_LOADING: list[tuple[str, str | None]] = []  # (plugin module, its entry-point name) being imported: a stack
_IMPORTED: set[str] = set()  # plugin modules imported (or being imported) through import_plugin
_LOADED_PREFIXES: set[str] = set()  # papers whose plugins load_plugins has imported
_ALL_LOADED = False


def _caller_module(depth: int = 2) -> tuple[str, Path | None]:
    """The module (and its file) of the function ``depth`` frames up: who called register()."""
    frame = sys._getframe(depth)
    path = frame.f_globals.get("__file__")
    return frame.f_globals.get("__name__", ""), (Path(path).resolve() if path else None)


def register_paper(paper: Paper) -> Paper:
    """Declare a paper (once per prefix); returns it with its module and witness folder filled in."""
    module, path = _caller_module()
    _check_entry_point_name(paper.prefix, f"paper {paper.prefix!r}")
    plugin = _LOADING[-1][0] if _LOADING else module
    witnesses = paper.witnesses or (path.parent / "witnesses" if path else None)
    paper = replace(paper, module=paper.module or plugin, witnesses=witnesses)
    existing = _PAPERS.get(paper.prefix)
    if existing is not None and existing.module != paper.module:
        raise ClaimError(f"paper prefix {paper.prefix!r} is already declared by {existing.module}")
    _PAPERS[paper.prefix] = paper
    return paper


def register(claim: AnyClaim) -> AnyClaim:
    """Add ``claim`` to the registry; an id may be registered only once."""
    if not isinstance(claim, ClaimBase):
        raise ClaimError(f"register() takes a claim (StatementClaim, ExperimentClaim or UnencodableClaim), "
                         f"got {type(claim).__name__}")
    existing = _CLAIMS.get(claim.id)
    if existing is not None and existing is not claim:
        raise ClaimError(f"claim id {claim.id!r} is already registered ({existing.source})")
    _check_entry_point_name(claim.paper, f"claim {claim.id!r}")
    _CLAIMS[claim.id] = claim
    _ORIGIN[claim.id] = _LOADING[-1][0] if _LOADING else _caller_module()[0]
    return claim


def _check_entry_point_name(prefix: str, what: str) -> None:
    """An entry point named X registers only paper X's claims (what lets a selection skip the rest)."""
    if _LOADING and _LOADING[-1][1] is not None and _LOADING[-1][1] != prefix:
        module, name = _LOADING[-1]
        raise ClaimError(f"plugin {module!r}, advertised as the entry point {name!r}, registers {what}: an "
                         f"entry point's name must be the prefix of the claims it registers ({prefix!r})")


def register_proof(proof: Any) -> Any:
    """Record the printed proof of (a part of) a claim: a chain of checked steps."""
    _check_entry_point_name(_prefix(proof.claim), f"a proof of {proof.claim!r}")
    _PROOFS.setdefault(proof.claim, []).append(proof)
    return proof


def proofs_for(claim_id: str) -> list[Any]:
    load_plugins(_prefixes([claim_id]))  # a claim's proofs are registered by its own plugin
    return list(_PROOFS.get(claim_id, []))


def add_structure(edges: Iterable[tuple[str, str]]) -> None:
    """Record how a paper's results depend on each other (``(used, user)`` pairs), beyond what
    the proof pages' step tags say; nodes need not be registered claims (e.g. external lemmas)."""
    _STRUCTURE.extend(edges)


def _in(claim_id: str, prefixes: Iterable[str]) -> bool:
    return any(claim_id == p or claim_id.startswith(p.rstrip(".") + ".") for p in prefixes)


def structure(papers: list[str] | None = None) -> list[tuple[str, str]]:
    load_plugins()
    return [(a, b) for a, b in _STRUCTURE if not papers or _in(b, papers)]


def _plugin_names(prefixes: Iterable[str] | None) -> dict[str, str | None]:
    """plugin module -> its entry-point name (None for a ``CLCHECK_PLUGINS`` module)."""
    wanted = None if prefixes is None else set(prefixes)
    names: dict[str, str | None] = {ep.value: ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)
                                    if wanted is None or ep.name in wanted}
    for module in (m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(",")):
        if module:
            names.setdefault(module, None)
    return names


def registered_plugins() -> dict[str, str | None]:
    """Every plugin module this installation knows -- the ``clcheck.claims`` entry points and the
    ``CLCHECK_PLUGINS`` modules -- with its entry-point name (None for a ``CLCHECK_PLUGINS`` one).
    Nothing is imported: a data file (a witness) may only name one of these."""
    return _plugin_names(None)


#: how long importing one plugin module may take (seconds): a plugin that hangs at import is a named
#: error, not a hung command. ``CLCHECK_IMPORT_TIMEOUT`` overrides it; ``clcheck audit --claim-timeout``
#: lowers it to the claim's limit
IMPORT_SECONDS = 60.0
_IMPORT_LIMIT: list[float] = []


@contextlib.contextmanager
def import_time_limit(seconds: float | None) -> Iterator[None]:
    """Inside, importing one plugin may take at most ``seconds`` (None: the default)."""
    _IMPORT_LIMIT.append(seconds or _import_seconds())
    try:
        yield
    finally:
        _IMPORT_LIMIT.pop()


def _import_seconds() -> float:
    if _IMPORT_LIMIT:
        return _IMPORT_LIMIT[-1]
    try:
        value = float(os.environ.get("CLCHECK_IMPORT_TIMEOUT") or IMPORT_SECONDS)
    except ValueError:
        raise PluginError(f"CLCHECK_IMPORT_TIMEOUT={os.environ['CLCHECK_IMPORT_TIMEOUT']!r} is not a number of "
                          "seconds") from None
    return value if math.isfinite(value) and value > 0 else IMPORT_SECONDS


def import_plugin(module: str, entry_point: str | None = None) -> None:
    """Import one plugin module (its claims register themselves) within the import time limit; a
    failure names the module. ``entry_point`` is the name it is advertised under: it may register
    only claims with that prefix."""
    seconds = _import_seconds()
    _IMPORTED.add(module)
    _LOADING.append((module, entry_point))
    try:
        with time_limit(seconds, f"importing plugin {module!r}"):
            importlib.import_module(module)
    except ClaimError:
        raise
    except TimeLimitExceeded as exc:
        raise PluginError(f"plugin module {module!r} did not finish importing within {seconds:g} s "
                          f"(it was at {exc.where})") from None
    except Exception as exc:
        raise PluginError(f"plugin module {module!r} could not be imported: {type(exc).__name__}: {exc}") from exc
    finally:
        _LOADING.pop()


def load_plugins(prefixes: Iterable[str] | None = None) -> None:
    """Import the plugin modules not imported yet: all of them, or for a selection the entry points
    named by the paper ``prefixes`` (and every ``CLCHECK_PLUGINS`` module)."""
    global _ALL_LOADED
    wanted = None if prefixes is None else set(prefixes)
    if _ALL_LOADED or (wanted is not None and wanted <= _LOADED_PREFIXES):
        return  # without listing the entry points again (about 6 ms each time)
    if wanted is None:
        _ALL_LOADED = True
    else:
        _LOADED_PREFIXES.update(wanted)
    for module, name in _plugin_names(wanted).items():
        if module not in _IMPORTED:
            import_plugin(module, name)


def _prefix(claim_id: str) -> str:
    """The paper prefix of a claim id or id prefix (``merad.lse`` -> ``merad``)."""
    return claim_id.split(".", 1)[0]


def _prefixes(ids: Iterable[str]) -> set[str]:
    return {_prefix(i) for i in ids}


def all_claims(papers: list[str] | None = None, ids: list[str] | None = None) -> list[AnyClaim]:
    """Registered claims: all of them, or the union of those under the id prefixes ``papers``
    (``--paper``) and those named in ``ids`` (``--claim``); only the plugins of the papers they name
    are imported. An unknown id is a KeyError naming it."""
    load_plugins(_prefixes([*(papers or []), *(ids or [])]) if papers or ids else None)
    claims = sorted(_CLAIMS.values(), key=lambda c: c.id)
    if not papers and not ids:
        return claims
    unknown = sorted(set(ids or ()) - set(_CLAIMS))
    if unknown:
        raise UnknownClaim(f"unknown claim id(s): {', '.join(unknown)}; `clcheck list` shows the registered ids")
    return [c for c in claims if (papers and _in(c.id, papers)) or c.id in (ids or ())]


def unknown_prefixes(papers: Iterable[str]) -> list[str]:
    """The prefixes among ``papers`` that no registered claim id starts with."""
    load_plugins(_prefixes(papers))
    return [p for p in papers if not any(_in(c, [p]) for c in _CLAIMS)]


def get(claim_id: str) -> AnyClaim:
    load_plugins(_prefixes([claim_id]))
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise UnknownClaim(f"unknown claim id {claim_id!r}; `clcheck list` shows the registered ids") from None


def registered(claim_id: str) -> AnyClaim:
    """A claim this process has registered so far, without loading plugins: for a plugin's own modules
    at import time (e.g. its proofs module reading the parts of a claim its claims module registered)."""
    try:
        return _CLAIMS[claim_id]
    except KeyError:
        raise ClaimError(f"claim {claim_id!r} is not registered (yet): register it before its proofs") from None


def origin(claim_id: str) -> str | None:
    """The plugin module that registered the claim (what a witness records so replay can load it)."""
    return _ORIGIN.get(claim_id)


def papers() -> list[Paper]:
    """Declared papers, plus an undeclared paper for every other prefix of a registered claim."""
    load_plugins()
    out = dict(_PAPERS)
    for claim in _CLAIMS.values():
        if claim.paper not in out:
            out[claim.paper] = Paper(claim.paper, f"claims with ids {claim.paper}.*", module=_ORIGIN[claim.id])
    return [out[k] for k in sorted(out)]


def paper_of(claim: ClaimBase) -> Paper:
    """The paper owning ``claim`` (an undeclared one when no plugin declared its prefix)."""
    declared = _PAPERS.get(claim.paper)
    if declared is not None:
        return declared
    module = _ORIGIN.get(claim.id, "")
    path = getattr(importlib.import_module(module), "__file__", None) if module else None
    return Paper(claim.paper, f"claims with ids {claim.paper}.*", module=module,
                 witnesses=Path(path).resolve().parent / "witnesses" if path else None)
