"""Typed readers of JSON fields (the subjects of witness files), checked before anything is built.

A witness subject is untrusted input: every field is read with its exact JSON type and the bounds
its family declares, and nested lists are walked -- lengths first, element types second -- before
``np.asarray`` sees them, so that an oversized list is refused by a length check, never allocated.

The rules: an integer field takes a JSON integer only (not 1.0, 1.9, "1" or true); a real field
takes a JSON integer or float, never a boolean or a string, and must be finite unless the caller
allows otherwise; a string field takes a string. Every refusal is an :class:`AssumptionError` whose
one-line message names where the value came from (``where``: the family), the field, the offending
value and what is allowed, e.g. ``random finite mixtures: field N = 1000000 is outside [1, 1]``.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from numerics.errors import AssumptionError

#: inclusive (lo, hi) bounds of a length or a value; None on a side: unbounded there
Bounds = tuple[Any, Any]
#: one axis of an array: an exact length, (lo, hi) bounds, or None (any length)
Axis = int | Bounds | None

#: the most numbers any array field may hold when its family gives no tighter bound (a safety net)
MAX_ELEMENTS = 1_000_000

_MISSING = object()


# -- messages --------------------------------------------------------------------------------------
def show(value: Any, limit: int = 60) -> str:
    """A short rendering of a JSON value for a one-line message (long lists and strings summarized)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return repr(value) if value.bit_length() <= 64 else f"an integer of {value.bit_length()} bits"
    if isinstance(value, (list, tuple)):
        if len(value) > 8:
            return f"a list of {len(value)} items"
        text = "[" + ", ".join(show(v, limit) for v in value) + "]"
        return text if len(text) <= limit else f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with keys {sorted(map(str, value))[:6]}"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def json_type(value: Any) -> str:
    """The JSON name of a value's type (for 'is a JSON string; an integer is required')."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def allowed(lo: Any, hi: Any) -> str:
    """'[lo, hi]', '>= lo', '<= hi' or 'any value'."""
    if lo is not None and hi is not None:
        return f"[{lo}, {hi}]"
    if lo is not None:
        return f">= {lo}"
    if hi is not None:
        return f"<= {hi}"
    return "any value"


def _error(where: str, name: str, value: Any, requirement: str) -> AssumptionError:
    prefix = f"{where}: " if where else ""
    return AssumptionError(f"{prefix}field {name} = {show(value)} {requirement}")


# -- objects and keys ------------------------------------------------------------------------------
def fields(data: Any, required: Sequence[str], optional: Sequence[str] = (), where: str = "",
           name: str = "") -> Mapping[str, Any]:
    """``data`` is a JSON object with every ``required`` key and no key outside ``optional``."""
    label = f"field {name}" if name else "the subject"
    prefix = f"{where}: " if where else ""
    if not isinstance(data, dict):
        raise AssumptionError(f"{prefix}{label} must be a JSON object, got a JSON {json_type(data)}")
    missing = [k for k in required if k not in data]
    if missing:
        raise AssumptionError(f"{prefix}{label} lacks the field(s) {', '.join(missing)}")
    unknown = sorted(map(str, set(data) - set(required) - set(optional)))
    if unknown:
        raise AssumptionError(f"{prefix}{label} has unknown field(s) {', '.join(unknown)} "
                              f"(allowed: {', '.join([*required, *optional])})")
    return data


def _get(data: Mapping[str, Any], key: str, default: Any, where: str) -> Any:
    if key in data:
        return data[key]
    if default is _MISSING:
        prefix = f"{where}: " if where else ""
        raise AssumptionError(f"{prefix}the field {key} is missing")
    return default


# -- scalars ---------------------------------------------------------------------------------------
def as_integer(value: Any, name: str, lo: int | None = None, hi: int | None = None, where: str = "") -> int:
    """A JSON integer in [lo, hi] (not a float such as 1.0, a string or a boolean)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise _error(where, name, value, f"is a JSON {json_type(value)}; an integer in {allowed(lo, hi)} is required")
    value = int(value)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _error(where, name, value, f"is outside {allowed(lo, hi)}")
    return value


def as_real(value: Any, name: str, lo: float | None = None, hi: float | None = None, where: str = "",
            finite: bool = True, open_lo: bool = False) -> float:
    """A JSON number (integer or float, not a boolean or a string), finite unless ``finite=False``,
    in [lo, hi] (``open_lo``: in (lo, hi])."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise _error(where, name, value, f"is a JSON {json_type(value)}; a real number is required")
    try:
        x = float(value)
    except OverflowError:
        raise _error(where, name, value, "is too large for a float64") from None
    if math.isnan(x) or (finite and math.isinf(x)):
        raise _error(where, name, value, "is not finite (NaN or inf); a finite real number is required")
    below = lo is not None and (x <= lo if open_lo else x < lo)
    if below or (hi is not None and x > hi):
        rng = f"({lo}, {hi if hi is not None else 'inf'}]" if open_lo else allowed(lo, hi)
        raise _error(where, name, value, f"is outside {rng}")
    return x


def as_string(value: Any, name: str, where: str = "", choices: Sequence[str] | None = None,
              max_length: int = 10_000) -> str:
    """A JSON string (one of ``choices`` when given)."""
    if not isinstance(value, str):
        raise _error(where, name, value, f"is a JSON {json_type(value)}; a string is required")
    if len(value) > max_length:
        raise _error(where, name, value, f"is {len(value)} characters long; at most {max_length} are allowed")
    if choices is not None and value not in choices:
        raise _error(where, name, value, f"is not one of {list(choices)}")
    return value


def integer(data: Mapping[str, Any], key: str, lo: int | None = None, hi: int | None = None, where: str = "",
            default: Any = _MISSING) -> int:
    """The integer field ``key`` of ``data`` (see :func:`as_integer`); ``default`` when absent, if given."""
    value = _get(data, key, default, where)
    return value if key not in data else as_integer(value, key, lo, hi, where)


def real(data: Mapping[str, Any], key: str, lo: float | None = None, hi: float | None = None, where: str = "",
         finite: bool = True, open_lo: bool = False, default: Any = _MISSING) -> float:
    """The real field ``key`` of ``data`` (see :func:`as_real`)."""
    value = _get(data, key, default, where)
    return value if key not in data else as_real(value, key, lo, hi, where, finite, open_lo)


def string(data: Mapping[str, Any], key: str, where: str = "", choices: Sequence[str] | None = None,
           default: Any = _MISSING, max_length: int = 10_000) -> str:
    """The string field ``key`` of ``data`` (see :func:`as_string`)."""
    value = _get(data, key, default, where)
    return value if key not in data else as_string(value, key, where, choices, max_length)


# -- nested lists ----------------------------------------------------------------------------------
def bounds(axis: Axis) -> tuple[Any, Any]:
    """The (lo, hi) of an axis (an exact length n is (n, n); None is (None, None))."""
    if axis is None:
        return None, None
    if isinstance(axis, (int, np.integer)):
        return int(axis), int(axis)
    lo, hi = axis
    return lo, hi


def check_shape(value: Any, name: str, shape: Sequence[Axis], where: str = "",
                axes: Sequence[str] | None = None, max_elements: int = MAX_ELEMENTS) -> tuple[list[Any], tuple[int, ...]]:
    """Walk nested lists level by level: each level must be lists of one common length within its
    axis's bounds, and the running number of entries at most ``max_elements``; a length is checked
    before the level below is visited. Returns the leaves (flattened, row-major) and the shape."""
    level: list[Any] = [value]
    dims: list[int] = []
    count = 1
    for i, axis in enumerate(shape):
        lo, hi = bounds(axis)
        label = axes[i] if axes is not None and i < len(axes) else f"axis {i}"
        length: int | None = None
        nxt: list[Any] = []
        for j, node in enumerate(level):
            if not isinstance(node, (list, tuple)):
                raise _error(where, f"{name}{_index(dims, j)}", node,
                             f"is a JSON {json_type(node)}; a list ({label}) is required")
            n = len(node)
            if length is None:
                length = n
                if (lo is not None and n < lo) or (hi is not None and n > hi):
                    raise _error(where, f"{name}{_index(dims, j)}", node, f"has {label} = {n}, outside {allowed(lo, hi)}")
                count *= max(n, 1)
                if count > max_elements:
                    raise _error(where, name, value, f"has more than {max_elements} entries ({label} = {n})")
            elif n != length:
                raise _error(where, f"{name}{_index(dims, j)}", node,
                             f"is ragged: {label} = {n} here but {length} in the first row")
            nxt.extend(node)
        dims.append(length if length is not None else 0)
        level = nxt
    return level, tuple(dims)


def _index(dims: Sequence[int], flat: int) -> str:
    if not dims or not all(dims):
        return ""
    return "".join(f"[{int(i)}]" for i in np.unravel_index(flat, tuple(dims)))


def real_array(value: Any, name: str, shape: Sequence[Axis], where: str = "", axes: Sequence[str] | None = None,
               lo: float | None = None, hi: float | None = None, finite: bool = True,
               max_elements: int = MAX_ELEMENTS) -> np.ndarray:
    """A float64 array of the given shape bounds from nested lists of JSON numbers (checked first)."""
    leaves, dims = check_shape(value, name, shape, where, axes, max_elements)
    for pos, v in enumerate(leaves):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise _error(where, f"{name}{_index(dims, pos)}", v,
                         f"is a JSON {json_type(v)}; a real number is required")
        if type(v) is float and v - v == 0 and lo is None and hi is None:
            continue  # the common case: a finite float and no value bounds
        as_real(v, f"{name}{_index(dims, pos)}", lo, hi, where, finite)
    return np.asarray(value, dtype=np.float64).reshape(dims)


def integer_array(value: Any, name: str, shape: Sequence[Axis], where: str = "",
                  axes: Sequence[str] | None = None, lo: int | None = None, hi: int | None = None,
                  max_elements: int = MAX_ELEMENTS) -> np.ndarray:
    """An int64 array of the given shape bounds from nested lists of JSON integers in [lo, hi]."""
    leaves, dims = check_shape(value, name, shape, where, axes, max_elements)
    for pos, v in enumerate(leaves):
        as_integer(v, f"{name}{_index(dims, pos)}", lo, hi, where)
    return np.asarray(value, dtype=np.int64).reshape(dims)


def integer_list(value: Any, name: str, length: Axis = None, lo: int | None = None, hi: int | None = None,
                 where: str = "", unique: bool = False) -> list[int]:
    """A list of JSON integers in [lo, hi] with a length within ``length`` (distinct when ``unique``)."""
    out = [int(v) for v in integer_array(value, name, (length,), where, ("length",), lo, hi)]
    if unique and len(set(out)) != len(out):
        raise _error(where, name, value, "repeats an entry; the entries must be distinct")
    return out


def plain(value: Any) -> Any:
    """``value`` with numpy arrays and scalars and tuples turned into JSON's lists and numbers (for
    subjects written in Python rather than read from a file, e.g. a family's fixed examples)."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


__all__ = ["MAX_ELEMENTS", "allowed", "as_integer", "as_real", "as_string", "bounds", "check_shape", "fields", "integer",
           "integer_array", "integer_list", "json_type", "plain", "real", "real_array", "show", "string"]
