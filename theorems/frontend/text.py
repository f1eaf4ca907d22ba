"""Text read from files, made safe to print: control characters escaped, rich markup escaped.

A witness's description, a claim's reason, a plugin's message may hold escape sequences (clear the screen, set
the window title, a hyperlink, a fake status line after a carriage return); printed raw they act on the terminal.
Every text the command line prints goes through :func:`shown`.
"""

from __future__ import annotations

import re
from typing import Any

from rich.markup import escape

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def clean(text: Any, newlines: bool = True) -> str:
    """``text`` with every control character (C0 and C1, DEL, line/paragraph separators, bidirectional overrides)
    written as its escape (``\\x1b``); a newline is kept when ``newlines``, escaped otherwise."""
    out = _CONTROL.sub(lambda m: repr(m.group())[1:-1], str(text))
    return out if newlines else out.replace("\n", "\\n")


def shown(text: Any) -> str:
    """``text`` ready for rich's console: control characters escaped, markup escaped."""
    return escape(clean(text))
