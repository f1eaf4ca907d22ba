"""The registry: one object holding the claims, the papers that own them, their printed proofs and how the
results depend on each other -- and the plugins loaded into it.

Every paper -- the four this repository ships and any outside package -- enters through the same door: a
function ``register(registry)`` that declares its paper and adds its claims::

    def register(registry):
        registry.paper(Paper("hyper", "Wang & Isola (2020), ..."))
        registry.claim(Claim(...))
        registry.proof(Proof(...))            # optional: a printed proof as a chain of checked steps
        registry.edges([("hyper.a", "hyper.b")])  # optional: what uses what

advertised under the ``clcheck.claims`` entry-point group as ``module:register`` (or named in
``CLCHECK_PLUGINS``, comma separated, as ``module`` or ``module:function``). Importing a plugin module
has no side effect: only its ``register`` function adds to a registry. The engine keeps no list of
paper names: pytest markers, recorded witnesses and proof pages all come from the :class:`Paper` a
plugin declares.

An entry point's name is its paper's prefix (``merad = "theorems.papers.merad:register"``) and the
plugin adds only claims under it, so a selection by id or prefix loads just the plugins it names (and
every ``CLCHECK_PLUGINS`` one): ``clcheck audit --paper hyper`` does not import the others.

There is one current registry (:func:`current`); :func:`isolated` gives a block of code a copy of it --
what a test that loads a plugin of its own uses, so that nothing it adds outlives it.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import importlib
import os
from dataclasses import dataclass, field, replace
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from theorems.engine.claim import AnyClaim, ClaimBase, DefinitionClaim, Kind, Source, UnencodableClaim, numbered_id
from numerics import env
from theorems.engine.errors import ClaimError, PluginError, UnknownClaim
from theorems.engine.limits import Interrupted, TimeLimitExceeded, ctrl_c_is_interrupted, time_limit

ENTRY_POINT_GROUP = "clcheck.claims"
PLUGINS_VARIABLE = "CLCHECK_PLUGINS"


@dataclass(frozen=True)
class Paper:
    """A paper whose claims a plugin registers.

    ``prefix`` is the first component of its claim ids and its pytest marker; ``witnesses`` the
    folder of its recorded refutations (default: ``witnesses/`` beside the plugin's module);
    ``pages`` the folder of its proof pages (``<claim id>.md``), if it has any.
    """

    prefix: str
    title: str
    files: tuple[str, ...] = ()
    witnesses: Path | None = None
    pages: Path | None = None
    module: str = ""  # the plugin that declared it (filled in when it is added)

    def __post_init__(self) -> None:
        if not self.prefix or "." in self.prefix or self.prefix != self.prefix.lower() or " " in self.prefix:
            raise ClaimError(f"paper prefix {self.prefix!r} must be one lower-case word (it is the first "
                             "component of the paper's claim ids and its pytest marker)")


def _in(claim_id: str, prefixes: Iterable[str]) -> bool:
    return any(claim_id == p or claim_id.startswith(p.rstrip(".") + ".") for p in prefixes)


def _prefix(claim_id: str) -> str:
    """The paper prefix of a claim id or id prefix (``merad.lse`` -> ``merad``)."""
    return claim_id.split(".", 1)[0]


def _prefixes(ids: Iterable[str]) -> set[str]:
    return {_prefix(i) for i in ids}


def _split(spec: str) -> tuple[str, str]:
    """``module:function`` -> (module, function); a bare module names its ``register`` function."""
    module, _, function = spec.partition(":")
    return module.strip(), (function.strip() or "register")


@dataclass
class Registry:
    """Claims, papers, proofs and structure, and which plugins have been loaded into them."""

    claims: dict[str, AnyClaim] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)  # claim id -> the plugin (module) that added it
    papers_: dict[str, Paper] = field(default_factory=dict)
    proofs: dict[str, list[Any]] = field(default_factory=dict)
    edge_list: list[tuple[str, str]] = field(default_factory=list)
    named_steps: dict[str, Any] = field(default_factory=dict)  # proof-page key -> Instance of a named result
    step_certificates: dict[str, Any] = field(default_factory=dict)  # proof-page key -> () -> Certificate
    loaded: set[str] = field(default_factory=set)  # plugin specs loaded (or being loaded)
    loaded_prefixes: set[str] = field(default_factory=set)
    all_loaded: bool = False
    loading: list[tuple[str, str | None]] = field(default_factory=list)  # (plugin spec, entry-point name)

    # -- what a plugin's register(registry) calls -------------------------------------------------------
    def paper(self, paper: Paper) -> Paper:
        """Declare a paper (once per prefix); returns it with its module and witness folder filled in."""
        self._check_name(paper.prefix, f"paper {paper.prefix!r}")
        module = self._plugin_module()
        witnesses = paper.witnesses
        if witnesses is None and module:
            path = getattr(importlib.import_module(module), "__file__", None)
            witnesses = Path(path).resolve().parent / "witnesses" if path else None
        paper = replace(paper, module=paper.module or module, witnesses=witnesses)
        existing = self.papers_.get(paper.prefix)
        if existing is not None and existing.module != paper.module:
            raise ClaimError(f"plugin {module or paper.module!r} declares the paper prefix {paper.prefix!r}, which "
                             f"{existing.module} declares: a plugin registers only under its own prefix")
        self.papers_[paper.prefix] = paper
        return paper

    def claim(self, claim: AnyClaim) -> AnyClaim:
        """Add ``claim``; an id may be added only once."""
        if not isinstance(claim, ClaimBase):
            raise ClaimError(f"registry.claim() takes a claim (StatementClaim, ExperimentClaim, UnencodableClaim or "
                             f"DefinitionClaim), got {type(claim).__name__}")
        existing = self.claims.get(claim.id)
        if existing is not None and existing is not claim:
            raise ClaimError(f"claim id {claim.id!r} is already registered ({existing.source})")
        self._check_name(claim.paper, f"claim {claim.id!r}")
        self._check_owner(claim.paper, f"claim {claim.id!r}")
        self.claims[claim.id] = claim
        self.origins[claim.id] = self._plugin_module()
        return claim

    def proof(self, proof: Any) -> Any:
        """Record the printed proof of (a part of) a claim: a chain of checked steps."""
        self._check_name(_prefix(proof.claim), f"a proof of {proof.claim!r}")
        self.proofs.setdefault(proof.claim, []).append(proof)
        return proof

    def edges(self, edges: Iterable[tuple[str, str]]) -> None:
        """Record how a paper's results depend on each other (``(used, user)`` pairs), beyond what the proof
        pages' step tags say; nodes need not be registered claims (e.g. external lemmas)."""
        self.edge_list.extend(edges)

    def named_step(self, key: str, instance: Any) -> None:
        """An :class:`~theorems.engine.proof.Instance` of a named result that proof pages name as
        ``[check: named <key>]``."""
        self.named_steps[key] = instance

    def step_certificate(self, key: str, certificate: Callable[[], Any]) -> None:
        """A certificate function that proof pages name as ``[check: cert <key>]``."""
        self.step_certificates[key] = certificate

    def _plugin_module(self) -> str:
        return _split(self.loading[-1][0])[0] if self.loading else ""

    def _check_owner(self, prefix: str, what: str) -> None:
        """A plugin adds claims only under a prefix that is its own: not one another plugin module declared, nor
        the name of another installed plugin's entry point (a ``CLCHECK_PLUGINS`` module cannot add merad.*)."""
        module = self._plugin_module()
        if not module:
            return
        declared = self.papers_.get(prefix)
        if declared is not None and declared.module and declared.module != module:
            raise ClaimError(f"plugin {module!r} registers {what} under the prefix {prefix!r}, which the plugin "
                             f"{declared.module!r} declares: a plugin registers only under its own prefix")
        owner = _entry_point_owner(prefix)
        if owner is not None and _split(owner)[0] != module:
            raise ClaimError(f"plugin {module!r} registers {what} under the prefix {prefix!r}, the name of the "
                             f"installed plugin {owner!r}: a plugin registers only under its own prefix")

    def _check_name(self, prefix: str, what: str) -> None:
        """An entry point named X adds only paper X's claims (what lets a selection skip the rest)."""
        if self.loading and self.loading[-1][1] is not None and self.loading[-1][1] != prefix:
            spec, name = self.loading[-1]
            raise ClaimError(f"plugin {spec!r}, advertised as the entry point {name!r}, registers {what}: an "
                             f"entry point's name must be the prefix of the claims it registers ({prefix!r})")

    # -- loading plugins ----------------------------------------------------------------------------------
    def load_plugin(self, spec: str, entry_point: str | None = None) -> None:
        """Import the plugin ``module[:function]`` within the import time limit and call its function with
        this registry; a failure names the plugin. ``entry_point`` is the name it is advertised under: it
        may add only claims with that prefix."""
        seconds = _import_seconds()
        module, function = _split(spec)
        self.loaded.add(spec)
        self.loading.append((spec, entry_point))
        try:
            with ctrl_c_is_interrupted(), time_limit(seconds, f"importing plugin {module!r}"):
                target = getattr(importlib.import_module(module), function, None)
                if not callable(target):
                    raise PluginError(f"plugin module {module!r} has no function {function}(registry): a plugin "
                                      "declares its paper and claims in one (see the README, Adding a paper)")
                target(self)
        except (ClaimError, PluginError, Interrupted):
            raise
        except TimeLimitExceeded as exc:
            raise PluginError(f"plugin module {module!r} did not finish importing within {seconds:g} s "
                              f"(it was at {exc.where})") from None
        except SystemExit as exc:  # sys.exit or argparse at import or in register(): never the command's own exit
            raise PluginError(f"plugin {spec!r} called sys.exit({exc.code!r}) while loading: a plugin declares its "
                              "paper and claims, it never ends the command") from None
        except KeyboardInterrupt:  # raised by the plugin's code (a real Ctrl-C is Interrupted, above)
            raise PluginError(f"plugin {spec!r} raised KeyboardInterrupt while loading") from None
        except Exception as exc:
            raise PluginError(f"plugin module {module!r} could not be imported: {type(exc).__name__}: {exc}") from exc
        finally:
            self.loading.pop()

    def load(self, prefixes: Iterable[str] | None = None) -> None:
        """Load the plugins not loaded yet: all of them, or for a selection the entry points named by the
        paper ``prefixes`` (and every ``CLCHECK_PLUGINS`` plugin)."""
        wanted = None if prefixes is None else set(prefixes)
        if self.all_loaded or (wanted is not None and wanted <= self.loaded_prefixes):
            return  # without listing the entry points again (about 6 ms each time)
        if wanted is None:
            self.all_loaded = True
        else:
            self.loaded_prefixes.update(wanted)
        for spec, name in plugin_specs(wanted).items():
            if spec not in self.loaded:
                self.load_plugin(spec, name)

    # -- reading ----------------------------------------------------------------------------------------
    def all_claims(self, papers: list[str] | None = None, ids: list[str] | None = None) -> list[AnyClaim]:
        """All claims, or the union of those under the id prefixes ``papers`` (``--paper``) and those named in
        ``ids`` (``--claim``); only the plugins of the papers they name are loaded."""
        self.load(_prefixes([*(papers or []), *(ids or [])]) if papers or ids else None)
        claims = sorted(self.claims.values(), key=lambda c: c.id)
        if not papers and not ids:
            return claims
        unknown = sorted(set(ids or ()) - set(self.claims))
        if unknown:
            raise UnknownClaim(f"unknown claim id(s): {', '.join(unknown)}; `clcheck list` shows the registered ids")
        return [c for c in claims if (papers and _in(c.id, papers)) or c.id in (ids or ())]

    def get(self, claim_id: str) -> AnyClaim:
        self.load(_prefixes([claim_id]))
        try:
            return self.claims[claim_id]
        except KeyError:
            raise UnknownClaim(f"unknown claim id {claim_id!r}; `clcheck list` shows the registered ids") from None

    def unknown_prefixes(self, papers: Iterable[str]) -> list[str]:
        """The prefixes among ``papers`` that no registered claim id starts with."""
        papers = list(papers)
        self.load(_prefixes(papers))
        return [p for p in papers if not any(_in(c, [p]) for c in self.claims)]

    def proofs_for(self, claim_id: str) -> list[Any]:
        self.load(_prefixes([claim_id]))  # a claim's proofs are added by its own plugin
        return list(self.proofs.get(claim_id, []))

    def structure(self, papers: list[str] | None = None) -> list[tuple[str, str]]:
        self.load()
        return [(a, b) for a, b in self.edge_list if not papers or _in(b, papers)]

    def named(self, key: str) -> Any | None:
        """The named-result instance a page step names (every plugin loaded first)."""
        self.load()
        return self.named_steps.get(key)

    def certificate(self, key: str) -> Callable[[], Any] | None:
        """The step certificate a page step names (every plugin loaded first)."""
        self.load()
        return self.step_certificates.get(key)

    def papers(self) -> list[Paper]:
        """Declared papers, plus an undeclared paper for every other prefix of a registered claim."""
        self.load()
        out = dict(self.papers_)
        for claim in self.claims.values():
            if claim.paper not in out:
                out[claim.paper] = Paper(claim.paper, f"claims with ids {claim.paper}.*",
                                         module=self.origins.get(claim.id, ""))
        return [out[k] for k in sorted(out)]

    def paper_of(self, claim: ClaimBase) -> Paper:
        """The paper owning ``claim`` (an undeclared one when no plugin declared its prefix)."""
        declared = self.papers_.get(claim.paper)
        if declared is not None:
            return declared
        module = self.origins.get(claim.id, "")
        path = getattr(importlib.import_module(module), "__file__", None) if module else None
        return Paper(claim.paper, f"claims with ids {claim.paper}.*", module=module,
                     witnesses=Path(path).resolve().parent / "witnesses" if path else None)


class Plugin:
    """What a plugin declares, collected where it is written without touching any registry: ``paper`` and, as
    its modules are imported, its claims, proofs, edges, named steps and step certificates. The plugin's
    ``register(registry)`` hands them all over (:meth:`register`). A module builds its claims with
    ``PLUGIN.claim(Claim(...))``; importing it changes no registry."""

    def __init__(self, paper: Paper | None = None) -> None:
        self.paper = paper  # None: the claims' prefixes name an undeclared paper
        self.claims: list[AnyClaim] = []
        self.proofs: list[Any] = []
        self.edge_list: list[tuple[str, str]] = []
        self.named_steps: dict[str, Any] = {}
        self.step_certificates: dict[str, Any] = {}

    def claim(self, claim: AnyClaim) -> AnyClaim:
        self.claims.append(claim)
        return claim

    def not_encodable(self, name: str, kind: Kind, reason: str, file: str | None = None) -> AnyClaim:
        """Register the paper's numbered statement ``name`` (``"Lemma B.5"``) as not determined by its source, under
        its numbered id (:func:`~theorems.engine.claim.numbered_id`); ``reason`` says exactly what is missing.
        ``file``: the source file (default: the paper's only file)."""
        return self.claim(UnencodableClaim(id=self._numbered(name), kind=kind, source=self._source(name, file),
                                           reason=reason))

    def definition(self, name: str, defines: str, file: str | None = None) -> AnyClaim:
        """Register the paper's numbered definition ``name``, which asserts nothing to check, under its numbered id;
        ``defines`` says what it defines and where the plugin implements it (or that its content is lost)."""
        return self.claim(DefinitionClaim(id=self._numbered(name), kind=Kind.DEFINITION,
                                          source=self._source(name, file), defines=defines))

    def _numbered(self, name: str) -> str:
        if self.paper is None:
            raise ClaimError(f"{name!r}: a numbered id needs the plugin's paper (Plugin(paper(...)))")
        return numbered_id(self.paper.prefix, name)

    def _source(self, name: str, file: str | None) -> Source:
        assert self.paper is not None
        if file is None and len(self.paper.files) != 1:
            raise ClaimError(f"{name!r}: paper {self.paper.prefix!r} has {len(self.paper.files)} source files: "
                             "name one")
        return Source(file=file or self.paper.files[0], numbering=name, paper=self.paper.title, covers=(name,))

    def claim_named(self, claim_id: str) -> AnyClaim:
        """A claim this plugin declared (e.g. for its proofs, which read the claim's parts)."""
        for claim in self.claims:
            if claim.id == claim_id:
                return claim
        raise ClaimError(f"claim {claim_id!r} is not declared (yet) by this plugin: declare it before its proofs")

    def proof(self, proof: Any) -> Any:
        self.proofs.append(proof)
        return proof

    def edges(self, edges: Iterable[tuple[str, str]]) -> None:
        self.edge_list.extend(edges)

    def named_step(self, key: str, instance: Any) -> None:
        self.named_steps[key] = instance

    def step_certificate(self, key: str, certificate: Callable[[], Any]) -> None:
        self.step_certificates[key] = certificate

    def register(self, registry: Registry) -> None:
        """Hand everything collected to ``registry``."""
        if self.paper is not None:
            registry.paper(self.paper)
        for claim in self.claims:
            registry.claim(claim)
        for proof in self.proofs:
            registry.proof(proof)
        registry.edges(self.edge_list)
        for key, instance in self.named_steps.items():
            registry.named_step(key, instance)
        for key, certificate in self.step_certificates.items():
            registry.step_certificate(key, certificate)


def plugin_specs(prefixes: Iterable[str] | None) -> dict[str, str | None]:
    """Plugin spec (``module:function``) -> its entry-point name (None for a ``CLCHECK_PLUGINS`` one)."""
    wanted = None if prefixes is None else set(prefixes)
    names: dict[str, str | None] = {ep.value: ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)
                                    if wanted is None or ep.name in wanted}
    for spec in (m.strip() for m in os.environ.get(PLUGINS_VARIABLE, "").split(",")):
        if spec:
            names.setdefault(spec, None)
    return names


def _entry_point_owner(prefix: str) -> str | None:
    """The plugin spec of the installed entry point named ``prefix`` (None: no entry point has that name)."""
    return _entry_point_names().get(prefix)


@functools.lru_cache(maxsize=1)
def _entry_point_names() -> dict[str, str]:
    """Entry-point name -> plugin spec, read once per process (listing them costs about 6 ms)."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def registered_plugins() -> dict[str, str | None]:
    """Every plugin module this installation knows -- the ``clcheck.claims`` entry points and the
    ``CLCHECK_PLUGINS`` plugins -- with its entry-point name. Nothing is imported: a data file (a witness)
    may only name one of these."""
    return {_split(spec)[0]: name for spec, name in plugin_specs(None).items()}


# -- the current registry ------------------------------------------------------------------------------
_STACK: list[Registry] = [Registry()]


def current() -> Registry:
    """The registry the commands, the engine and the pytest plugin read."""
    return _STACK[-1]


@contextlib.contextmanager
def isolated(registry: Registry | None = None) -> Iterator[Registry]:
    """Inside, the current registry is ``registry`` or a copy of the current one: what the block adds or
    loads is gone after it (a test that loads a plugin of its own)."""
    fresh = registry if registry is not None else copy.deepcopy(current())
    _STACK.append(fresh)
    try:
        yield fresh
    finally:
        _STACK.remove(fresh)


#: how long loading one plugin may take (seconds): a plugin that hangs at import is a named error, not a
#: hung command. ``CLCHECK_IMPORT_TIMEOUT`` overrides it; ``clcheck audit --claim-timeout`` lowers it
IMPORT_SECONDS = 60.0
_IMPORT_LIMIT: list[float] = []


@contextlib.contextmanager
def import_time_limit(seconds: float | None) -> Iterator[None]:
    """Inside, loading one plugin may take at most ``seconds`` (None: the default)."""
    _IMPORT_LIMIT.append(seconds or _import_seconds())
    try:
        yield
    finally:
        _IMPORT_LIMIT.pop()


def _import_seconds() -> float:
    if _IMPORT_LIMIT:
        return _IMPORT_LIMIT[-1]
    return env.seconds("CLCHECK_IMPORT_TIMEOUT", IMPORT_SECONDS)


# -- reading the current registry (the engine's, the commands' and the tests' one way in) -----------------
def all_claims(papers: list[str] | None = None, ids: list[str] | None = None) -> list[AnyClaim]:
    return current().all_claims(papers, ids)


def get(claim_id: str) -> AnyClaim:
    return current().get(claim_id)


def unknown_prefixes(papers: Iterable[str]) -> list[str]:
    return current().unknown_prefixes(papers)


def proofs_for(claim_id: str) -> list[Any]:
    return current().proofs_for(claim_id)


def structure(papers: list[str] | None = None) -> list[tuple[str, str]]:
    return current().structure(papers)


def papers() -> list[Paper]:
    return current().papers()


def paper_of(claim: ClaimBase) -> Paper:
    return current().paper_of(claim)


def origin(claim_id: str) -> str | None:
    """The plugin module that added the claim (what a witness records)."""
    return current().origins.get(claim_id)


def load_plugins(prefixes: Iterable[str] | None = None) -> None:
    current().load(prefixes)


def load_plugin(spec: str, entry_point: str | None = None) -> None:
    current().load_plugin(spec, entry_point)


Registering = Callable[[Registry], None]
