"""What a claim's verdict depends on, as one SHA-256 (issue 41, the verdict store).

:func:`claim_fingerprint` walks the claim's declaration -- its statement (sympy ``srepr``), hypotheses, prefix,
readings, families, quantities, certificates, sharp rows, every nested value -- and hashes

* every plain value (text, numbers, sympy expressions, arrays) as it is;
* every function, class or method it reaches by its **own source** when it is defined in the module that declared
  the claim -- with the functions of that module it calls, transitively (so editing one claim's declaration changes
  that claim's fingerprint only, and editing a helper it uses changes it too) -- and by the **whole source file** of
  its module otherwise (a quantity's formula, a family, a certificate: an edit anywhere in that file
  changes every claim that uses something from it -- conservative, never stale);
* the plugin package's data files (Coq scripts, recorded witnesses: anything under the package folder that is not
  Python, Markdown or a cache); a plugin that is a single module has none.

:func:`engine_fingerprint` hashes the source of clcheck itself (``theorems/engine``, ``theorems/subjects``,
``numerics``) and the versions of the libraries that decide numbers (numpy, scipy, sympy, mpmath, hypothesis,
torch): any change there changes every key. Together with the seed and the budget they key a stored verdict.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import inspect
import sys
import types
from importlib import metadata
from pathlib import Path
from typing import Any, Iterable

import numpy as np
import sympy

from theorems.engine.claim import ClaimBase

#: the packages whose versions change numbers
LIBRARIES = ("numpy", "scipy", "sympy", "mpmath", "hypothesis", "torch", "python-flint", "z3-solver")
_ROOT = Path(__file__).resolve().parents[2]
#: clcheck's own source folders: the engine, the subject kit and the numerics
ENGINE_SOURCES = ("theorems/engine", "theorems/subjects", "numerics")


@functools.lru_cache(maxsize=None)
def _file_sha(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def _files_sha(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for p in sorted(paths):
        h.update(str(p.name).encode())
        h.update(_file_sha(str(p)).encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """clcheck's engine, subject kit and numerics sources, and the library versions."""
    h = hashlib.sha256()
    for folder in ENGINE_SOURCES:
        h.update(_files_sha((_ROOT / folder).rglob("*.py")).encode())
    for name in LIBRARIES:
        try:
            version = metadata.version(name)
        except metadata.PackageNotFoundError:
            version = "absent"
        h.update(f"{name}={version};".encode())
    h.update(f"python={sys.version_info[:3]}".encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _package_data(package: str) -> str:
    """The plugin package's non-Python files (Coq scripts, witnesses, pages excluded: they are reports)."""
    module = sys.modules.get(package)
    where = getattr(module, "__file__", None)
    if not where or not hasattr(module, "__path__"):
        return ""  # a single-module plugin has no data folder of its own (its folder may hold anything)
    folder = Path(where).parent
    return _files_sha(p for p in folder.rglob("*") if p.is_file() and p.suffix not in (".py", ".pyc", ".md")
                      and "__pycache__" not in p.parts and "pages" not in p.parts)


def _names(code: Any) -> set[str]:
    """The global names a code object and the code nested in it (lambdas, comprehensions) refer to."""
    if code is None:
        return set()
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def _order(item: Any) -> str:
    """A stable sort key for a set's items (a sympy symbol's repr omits its assumptions: srepr)."""
    return sympy.srepr(item) if isinstance(item, sympy.Basic) else repr(item)


class _Hasher:
    """A walk over a declaration, with cycle protection; ``home`` is the declaring module's name."""

    def __init__(self, home: str) -> None:
        self.home = home
        self.h = hashlib.sha256()
        self.seen: set[int] = set()
        self.modules: set[str] = set()

    def add(self, tag: str, text: str) -> None:
        self.h.update(tag.encode())
        self.h.update(text.encode("utf-8", "replace"))
        self.h.update(b"\0")

    def code(self, obj: Any) -> None:
        """A function, class or method: its own source in the home module, its module's file elsewhere."""
        module = getattr(obj, "__module__", None) or ""
        if module == self.home or module.startswith("<"):
            try:
                self.add("src", inspect.getsource(obj))
            except (OSError, TypeError):
                self.add("code", getattr(obj, "__qualname__", repr(obj)))
            closure = getattr(obj, "__closure__", None) or ()
            for cell in closure:  # the values a lambda captured (a family, a constant)
                try:
                    self.walk(cell.cell_contents)
                except ValueError:  # an empty cell
                    continue
            scope = getattr(obj, "__globals__", None) or {}
            for name in sorted(_names(getattr(obj, "__code__", None))):  # the module's own helpers it calls
                target = scope.get(name)
                if callable(target) and getattr(target, "__module__", None) == self.home:
                    self.walk(target)
            return
        self.modules.add(module)
        self.add("code", f"{module}.{getattr(obj, '__qualname__', '')}")

    def walk(self, obj: Any, depth: int = 0) -> None:
        if depth > 60:
            self.add("deep", type(obj).__name__)
            return
        if obj is None or isinstance(obj, (bool, int, float, complex, str, bytes)):
            self.add("v", repr(obj))
            return
        if isinstance(obj, enum.Enum):
            self.add("enum", f"{type(obj).__name__}.{obj.name}")
            return
        if isinstance(obj, sympy.Basic):
            self.add("sympy", sympy.srepr(obj))
            return
        if isinstance(obj, np.ndarray):
            self.add("array", f"{obj.dtype}{obj.shape}")
            self.h.update(np.ascontiguousarray(obj).tobytes())
            return
        if id(obj) in self.seen:
            self.add("again", type(obj).__name__)
            return
        self.seen.add(id(obj))
        if isinstance(obj, (types.FunctionType, types.BuiltinFunctionType, type)):
            self.code(obj)
            return
        if isinstance(obj, types.MethodType):
            self.code(obj.__func__)
            self.walk(obj.__self__, depth + 1)
            return
        if isinstance(obj, functools.partial):
            self.walk(obj.func, depth + 1)
            self.walk(obj.args, depth + 1)
            self.walk(obj.keywords, depth + 1)
            return
        if isinstance(obj, (list, tuple, set, frozenset)):
            items = sorted(obj, key=_order) if isinstance(obj, (set, frozenset)) else obj
            self.add("seq", f"{type(obj).__name__}{len(items)}")
            for item in items:
                self.walk(item, depth + 1)
            return
        if isinstance(obj, dict):
            self.add("dict", str(len(obj)))
            for key in sorted(obj, key=_order):
                self.walk(key, depth + 1)
                self.walk(obj[key], depth + 1)
            return
        if isinstance(obj, types.ModuleType):
            self.modules.add(obj.__name__)
            return
        self.code(type(obj))  # an instance: its class, then its state
        if dataclasses.is_dataclass(obj):
            for f in dataclasses.fields(obj):
                self.add("field", f.name)
                self.walk(getattr(obj, f.name), depth + 1)
            return
        state = getattr(obj, "__dict__", None)
        if isinstance(state, dict):  # walked in place: a temporary copy's id could be reused by the next one
            kept = sorted(k for k in state if not k.startswith("_cache"))
            self.add("state", str(len(kept)))
            for key in kept:
                self.add("attr", key)
                self.walk(state[key], depth + 1)
        else:
            self.add("opaque", type(obj).__qualname__)

    def digest(self) -> str:
        for name in sorted(self.modules):
            module = sys.modules.get(name)
            where = getattr(module, "__file__", None)
            self.add("module", f"{name}:{_file_sha(where) if where else 'builtin'}")
        return self.h.hexdigest()


def claim_fingerprint(claim: ClaimBase, home: str) -> str:
    """The SHA-256 of everything ``claim``'s check reads (see the module doc); ``home`` is the module that
    registered it (:func:`theorems.engine.registry.origin`)."""
    hasher = _Hasher(home)
    hasher.walk(claim)
    package = home.rsplit(".", 1)[0] if "." in home else home
    hasher.add("data", _package_data(package))
    return hasher.digest()
