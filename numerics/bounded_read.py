"""Reading a file a user hands over (a witness, a checkpoint): regular files only, a size limit,
a depth limit for JSON. A FIFO would block the reader forever, ``/dev/zero`` never ends, a
300 MB file would be read whole and a JSON document nested 100 000 deep overflows the parser's
stack: each is refused up front with a message naming the file.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from numerics.errors import InputFileError

MAX_JSON_DEPTH = 64  # a witness nests about 6 deep (subject -> mixture -> points -> class -> row -> value)


def read_regular_file(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of ``path``, refused unless it is a regular file of at most ``limit`` bytes.

    The file is opened without blocking (a FIFO opens at once) and its type is checked on the open
    descriptor, so nothing can swap it between the check and the read."""
    name = str(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputFileError(f"{what} {name!r} does not exist") from None
    except OSError as exc:
        raise InputFileError(f"{what} {name!r} cannot be read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = ("a directory" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode)
                    else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode) else "not a regular file")
            raise InputFileError(f"{what} {name!r} is {kind}: give a regular file")
        if info.st_size > limit:
            raise InputFileError(f"{what} {name!r} has {info.st_size} bytes, more than the limit of {limit}")
        with os.fdopen(fd, "rb") as handle:
            fd = -1  # the file object owns it now
            data = handle.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:  # it grew while we read it
        raise InputFileError(f"{what} {name!r} has more than {limit} bytes")
    return data


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is outside the range of a float")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON (a number must be finite)")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all distinct (JSON allows a repeated key; which value wins is a parser's choice)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} appears twice in one object")
        out[key] = value
    return out


def parse_json(data: bytes, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Strict JSON: UTF-8, finite numbers only (no ``NaN``, ``Infinity``, no ``1e999``), no key twice in an
    object, nesting of at most ``max_depth``; any failure is an InputFileError naming ``what``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputFileError(f"{what} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    try:
        value = json.loads(text, parse_float=_finite_float, parse_constant=_no_constant,
                           object_pairs_hook=_unique_keys)
    except RecursionError:
        raise InputFileError(f"{what} is nested too deeply (more than {max_depth} levels)") from None
    except json.JSONDecodeError as exc:
        raise InputFileError(f"{what} is not JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:
        raise InputFileError(f"{what} is not valid: {exc}") from None
    if _depth(value, max_depth) > max_depth:
        raise InputFileError(f"{what} is nested too deeply (more than {max_depth} levels)")
    return value


def _depth(value: Any, limit: int) -> int:
    """The nesting depth of a parsed JSON value (iterative; stops counting past ``limit``)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def read_json_file(path: str | Path, limit: int, what: str = "file") -> Any:
    """A regular file of at most ``limit`` bytes holding strict JSON (see :func:`parse_json`)."""
    return parse_json(read_regular_file(path, limit, what), f"{what} {str(path)!r}")
