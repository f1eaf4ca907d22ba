"""Certificates: the outcome of one attempt to prove a statement (method, domain, details, time).

A certificate is a value: nothing mutates it after it is made. ``covering`` and ``timed``
return new certificates (``dataclasses.replace``), so a certificate handed to a reader is
the one its prover produced.

What goes into a report is :meth:`Certificate.to_json`: everything but ``volatile``, the facts of
this one run that must not make two identical audits' reports differ (whether a cache answered,
a cache file's or an executable's absolute path, when and how fast a tool ran).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable


@dataclass(frozen=True)
class Certificate:
    """One proof attempt.

    ``ok`` is True only when the method established the statement on ``domain``;
    ``method`` names it ("sympy", "z3", "interval branch-and-bound", ...);
    ``parts`` says which parts of a claim's statement it covers (None: the whole statement);
    ``complete`` is False when the proof covers a finite range only (e.g. N_C <= 12), not
    the claim's whole domain -- such a certificate never makes a claim "proved";
    ``modulo`` names the standard results (Jensen's inequality, Chebyshev's inequality, ...) the proof
    invokes without proving them: a claim it covers is "proved (modulo: ...)", counted apart;
    ``volatile`` holds what differs between two runs of the same check (e.g. Coq's cache hit or
    miss, the coqc path, the time of the original check): kept for the caller, left out of
    :meth:`to_json` (and so of reports) and of comparisons.
    """

    method: str
    statement: str
    domain: str
    ok: bool
    details: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    parts: tuple[str, ...] | None = None
    complete: bool = True
    modulo: tuple[str, ...] = ()
    volatile: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Everything but ``volatile``: what a report keeps."""
        data = asdict(self)
        data.pop("volatile", None)
        return data

    def with_details(self, **extra: Any) -> "Certificate":
        """The same certificate with more details (a new object)."""
        return replace(self, details={**self.details, **extra})


def covering(cert: Certificate, *labels: str) -> Certificate:
    """The same certificate, declared to prove only the parts with these labels."""
    return replace(cert, parts=tuple(labels))


def timed(fn: Callable[[], Certificate]) -> Certificate:
    """Run a certificate function and record its time; a crash is a failed certificate."""
    start = time.perf_counter()
    try:
        cert = fn()
    except Exception as exc:  # a certifier that crashes has not certified anything
        cert = Certificate(method=getattr(fn, "__name__", "certificate"), statement="", domain="",
                           ok=False, details={"error": f"{type(exc).__name__}: {exc}"})
    return replace(cert, seconds=time.perf_counter() - start)
