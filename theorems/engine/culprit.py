"""Name the culprit: a failure inside a claim's own code -- a quantity, a hypothesis, a part's formula -- becomes a
:class:`~theorems.engine.errors.CulpritError` that names it, the subject and the backend, and the line of the
plugin's code it came from, never only the engine's file where it surfaced."""

from __future__ import annotations

import copy
import json
import traceback
from typing import Any, Callable, Iterable

import mpmath
import numpy as np

from numerics.enclosure import Enclosure
from numerics.errors import ClcheckError, PrecisionUnavailable
from theorems.engine.errors import CulpritError
from theorems.engine.limits import Interrupted, TimeLimitExceeded, short_path

#: exceptions that are messages of their own, never a culprit's failure: a quantity's way of saying "no value here"
PASS_THROUGH = (ClcheckError, PrecisionUnavailable, Interrupted, TimeLimitExceeded)
_ENGINE = ("theorems/engine/", "theorems/subjects/compose.py", "numerics/backend.py", "numerics/operations.py",
           "sympy/", "mpmath/", "numpy/", "<lambdifygenerated")


def plugin_frame(exc: BaseException) -> str:
    """The innermost frame of ``exc``'s traceback outside the engine and the numerical libraries (the plugin's
    line), as ``file:line (in function)``; '' when every frame is the engine's."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if not any(part in f.filename.replace("\\", "/") for part in _ENGINE)]
    if not frames:
        return ""
    f = frames[-1]
    return f"{short_path(f.filename)}:{f.lineno} (in {f.name})"


def blame(what: str, call: Callable[[], Any], where: Callable[[], str]) -> Any:
    """``call()``; an exception it raises (other than a message of its own) becomes a CulpritError naming ``what``
    and ``where()`` (the subject and backend, described only when needed)."""
    try:
        return call()
    except PASS_THROUGH:
        raise
    except (Exception, SystemExit, KeyboardInterrupt) as exc:  # a claim's own code: never a silent exit
        text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise CulpritError(f"{what} raised {text} {where()}", plugin_frame(exc)) from exc


NUMBER_TYPES = (int, float, np.number, np.ndarray, mpmath.mpf, mpmath.mpc, Enclosure)


def check_number(name: str, value: Any, where: Callable[[], str]) -> None:
    """A quantity's value is a number (or an array, a tensor, an enclosure): anything else names the quantity."""
    if isinstance(value, bool) or not (isinstance(value, NUMBER_TYPES) or hasattr(value, "detach")):
        raise CulpritError(f"quantity {name} returned {type(value).__name__} {str(value)[:60]!r}, not a number, "
                           f"{where()}")


def same_values(a: Any, b: Any) -> bool:
    """Two evaluations of one quantity agree exactly (NaN agrees with NaN; arrays and enclosures entrywise)."""
    if isinstance(a, Enclosure) or isinstance(b, Enclosure):
        return a == b
    if hasattr(a, "detach"):
        a, b = a.detach().cpu().numpy(), b.detach().cpu().numpy()
    left, right = np.asarray(a, dtype=object).reshape(-1), np.asarray(b, dtype=object).reshape(-1)
    return left.shape == right.shape and all(x == y or (x != x and y != y) for x, y in zip(left, right))


def check_pure(family: Any, subject: Any, symbols: Iterable[Any], xp: Any) -> None:
    """Each quantity, evaluated on two independent copies of ``subject``, gives the same value and leaves its copy
    as it was: a quantity that draws unseeded random numbers or edits its subject is a named error, not evidence."""
    try:
        _check_pure(family, subject, list(symbols), xp)
    except PrecisionUnavailable:  # no value in this backend on this subject: nothing to compare
        return


def _check_pure(family: Any, subject: Any, symbols: list[Any], xp: Any) -> None:
    first, second = copy.deepcopy(subject), copy.deepcopy(subject)
    before = _fingerprint(family, first)
    for sym in symbols:
        where = lambda: f"on the subject {family.describe(subject)[:200]} of family {family.name!r} ({xp.name})"  # noqa: E731
        with xp.precision():
            a = blame(f"quantity {sym}", lambda: family.quantities(first, [sym], xp)[sym], where)
            b = blame(f"quantity {sym}", lambda: family.quantities(second, [sym], xp)[sym], where)
        if not same_values(a, b):
            raise CulpritError(f"quantity {sym} is not deterministic: two evaluations on copies of one subject gave "
                               f"{str(a)[:40]} and {str(b)[:40]} {where()} (draw with the subject's seed, not a "
                               "global random state)")
        if before is not None and _fingerprint(family, first) != before:
            raise CulpritError(f"quantity {sym} changed its subject when evaluated ({where()}): a quantity reads "
                               "its subject, never edits it")


def _fingerprint(family: Any, subject: Any) -> str | None:
    """The subject's JSON form (None for a family that has none)."""
    try:
        return json.dumps(family.to_json(subject), sort_keys=True, default=str)
    except NotImplementedError:
        return None
