"""The environment variables clcheck reads, parsed strictly: a value that is not what the variable takes is a
named error, never read as something else (``CLCHECK_DEBUG=0`` is off, ``CLCHECK_DEBUG=maybe`` an error)."""

from __future__ import annotations

import math
import os

from numerics.errors import ClcheckError

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")


class EnvironmentValueError(ClcheckError, ValueError):
    """An environment variable holds a value it does not take (the message names the variable)."""


def flag(name: str, default: bool = False) -> bool:
    """A yes/no variable: 1, true, yes, on (any case) are yes; 0, false, no, off and empty are no; unset is
    ``default``."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise EnvironmentValueError(f"{name}={raw!r}: use 1 or 0 (also true/false, yes/no, on/off)")


def seconds(name: str, default: float) -> float:
    """A positive, finite number of seconds; unset or empty is ``default``."""
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise EnvironmentValueError(f"{name}={raw!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise EnvironmentValueError(f"{name}={raw!r}: the number of seconds must be finite and > 0")
    return value
