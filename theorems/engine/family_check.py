"""A smoke test for subject families: every quantity, every backend, a few draws.

A quantity written with ``np.log`` instead of ``xp.log`` passes the float64 screen and fails
only when a candidate is confirmed in mpmath; this check finds that before an audit does, and
names the family, the quantity and the backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.enclosure import Enclosure
from numerics.errors import PrecisionUnavailable
from theorems.engine.family import SubjectFamily
from theorems.engine.search import sample_subjects

BACKENDS = ("float64", "mpmath", "torch")
AGREE = 1e-6  # float64 vs the other backends: relative (and absolute below 1) agreement


@dataclass
class FamilyCheckRow:
    family: str
    quantity: str
    status: dict[str, str] = field(default_factory=lambda: {b: "ok" for b in BACKENDS})

    @property
    def failed(self) -> bool:
        return any(not s.startswith(("ok", "n/a")) for s in self.status.values())

    def fail(self, backend: str, message: str) -> None:
        if not self.failed or self.status[backend].startswith(("ok", "n/a")):
            self.status[backend] = message


def _number(value: Any) -> float:
    if isinstance(value, Enclosure):
        return value.mid
    if hasattr(value, "detach"):
        value = value.detach()
    return float(value)


def _agree(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= AGREE * max(1.0, abs(a), abs(b))


def _describe(exc: BaseException) -> str:
    return f"fails: {type(exc).__name__}: {str(exc)[:120]}"


def check_family(family: SubjectFamily, draws: int = 3, seed: int = 0) -> list[FamilyCheckRow]:
    """One row per quantity of ``family`` with the status of each backend over ``draws`` subjects."""
    symbols = sorted(getattr(family, "symbols", ()) or (), key=lambda s: s.name)
    rows = {s: FamilyCheckRow(family.name, s.name) for s in symbols}
    subjects = sample_subjects(family, draws, seed)
    if not subjects:
        for row in rows.values():
            row.status = {b: "n/a (no subject could be drawn)" for b in BACKENDS}
        return list(rows.values())
    adversarial = bool(getattr(family, "differentiable", ())) and (
        family.strategy() is not None or family.random_start(np.random.default_rng(seed)) is not None)
    mp = mp_backend(30)
    for subject in subjects:
        for sym in symbols:
            row = rows[sym]
            try:
                with np.errstate(all="ignore"):
                    reference = _number(family.quantities(subject, [sym], FLOAT)[sym])
            except Exception as exc:  # noqa: BLE001 - the check reports whatever a quantity raises
                row.fail("float64", _describe(exc))
                continue
            try:
                with mp.precision():
                    value = _number(family.quantities(subject, [sym], mp)[sym])
                if not _agree(reference, value):
                    row.fail("mpmath", f"disagrees: float64 {reference:.10g} vs mpmath {value:.10g}")
            except PrecisionUnavailable as exc:
                row.status["mpmath"] = f"n/a ({exc})"
            except Exception as exc:  # noqa: BLE001
                row.fail("mpmath", _describe(exc))
            if not adversarial or sym not in family.differentiable:
                if row.status["torch"] == "ok":
                    row.status["torch"] = "n/a (not in the adversarial search)"
                continue
            try:
                xp = torch_backend()
                value = _number(family.quantities(subject, [sym], xp, params=family.params(subject))[sym])
                if not _agree(reference, value):
                    row.fail("torch", f"disagrees: float64 {reference:.10g} vs torch {value:.10g}")
            except Exception as exc:  # noqa: BLE001
                row.fail("torch", _describe(exc))
    return list(rows.values())


def check_families(families: list[SubjectFamily], draws: int, seed: int) -> list[FamilyCheckRow]:
    return [row for fam in families for row in check_family(fam, draws, seed)]
