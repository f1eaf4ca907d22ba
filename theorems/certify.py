"""Certificates: a proof object stored with the verdict (method, domain, details, time)."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable


@dataclass
class Certificate:
    """The outcome of one attempt to prove a statement.

    ``ok`` is True only when the method established the statement on ``domain``;
    ``method`` names it ("sympy", "enumeration", "z3", "arb branch-and-bound"...).
    """

    method: str
    statement: str
    domain: str
    ok: bool
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def timed(fn: Callable[[], Certificate]) -> Certificate:
    """Run a certificate function, record its time, and turn a crash into a failed certificate."""
    start = time.perf_counter()
    try:
        cert = fn()
    except Exception as exc:  # a certifier that crashes has not certified anything
        cert = Certificate(
            method=getattr(fn, "__name__", "certificate"), statement="", domain="",
            ok=False, details={"error": f"{type(exc).__name__}: {exc}"},
        )
    cert.seconds = time.perf_counter() - start
    return cert
