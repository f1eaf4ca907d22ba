"""The one seed rule: every random run's seed from the audit seed, the stream and the run's index.

A *stream* names what the runs belong to -- a claim's search pass (``"merad.lemma1/random/0"``), a training
run several claims share (``"huang-infonce"``), a paper's seeds over models (``"ren.stagewise"``) -- and
``index`` numbers its runs (0, 1, ...). The seed packs the three into one integer below 2**62:

    run = audit_seed * 2**16 + index                  (32 bits: audit seeds and indices below 2**16)
    seed = h30(stream) * 2**32 + (run XOR h32(stream))

with h30, h32 digests (SHA-256) of the stream's name. Its low 32 bits alone are one-to-one in (audit seed, index)
for a fixed stream -- torch's CPU generator and numpy's legacy ``seed`` read only those -- so audits at different
seeds share no run even there, and two runs of one audit differ in their index; the high bits separate the
streams for the consumers that read all 64 (numpy's ``default_rng``, hypothesis).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

MAX_AUDIT_SEED = 2**16 - 1  # audit seeds 0 .. 65 535
MAX_INDEX = 2**16 - 1  # runs per stream and audit


def stream_digest(stream: str) -> int:
    """A 64-bit digest of a stream's name (SHA-256)."""
    return int.from_bytes(hashlib.sha256(stream.encode()).digest()[:8], "big")


def run_seed(audit_seed: int, stream: str, index: int = 0) -> int:
    """The seed of run ``index`` of ``stream`` in the audit at ``audit_seed`` (see the module docstring)."""
    if isinstance(audit_seed, bool) or not isinstance(audit_seed, int) or not 0 <= audit_seed <= MAX_AUDIT_SEED:
        raise ValueError(f"run_seed: audit_seed={audit_seed!r} must be an integer in 0..{MAX_AUDIT_SEED}")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_INDEX:
        raise ValueError(f"run_seed: index={index!r} must be an integer in 0..{MAX_INDEX}")
    if not isinstance(stream, str) or not stream:
        raise ValueError(f"run_seed: stream={stream!r} must be a non-empty name")
    digest = stream_digest(stream)
    run = (audit_seed << 16) | index
    return ((digest >> 34) << 32) | (run ^ (digest & 0xFFFFFFFF))


def run_seeds(audit_seed: int, stream: str, count: int) -> list[int]:
    """The seeds of runs 0 .. count - 1 of ``stream`` in the audit at ``audit_seed``."""
    return [run_seed(audit_seed, stream, i) for i in range(count)]


@dataclass(frozen=True)
class Stream:
    """A named stream of runs in the audit at ``audit_seed``: ``seed(i)`` is run i's seed (:func:`run_seed`),
    ``child(name)`` a stream of its own below this one (``"merad.lemma1/adversary"``)."""

    audit_seed: int
    name: str

    def seed(self, index: int = 0) -> int:
        return run_seed(self.audit_seed, self.name, index)

    def child(self, name: str) -> "Stream":
        return Stream(self.audit_seed, f"{self.name}/{name}")
