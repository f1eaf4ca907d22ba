"""Certificates: a proof object stored with the verdict (method, domain, details, time)."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable


@dataclass
class Certificate:
    """The outcome of one attempt to prove a statement.

    ``ok`` is True only when the method established the statement on ``domain``;
    ``method`` names it ("sympy", "enumeration", "z3", "interval branch-and-bound"...);
    ``parts`` says which parts of the claim's statement it covers (None: the whole statement).
    """

    method: str
    statement: str
    domain: str
    ok: bool
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    parts: tuple[str, ...] | None = None  # labels of the statement parts it proves (None: all)
    complete: bool = True  # False: proved only on a finite range (e.g. N_C <= 12), not the claim's domain

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def covering(cert: Certificate, *labels: str) -> Certificate:
    """The same certificate, declared to prove only the parts with these labels."""
    cert.parts = tuple(labels)
    return cert


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
