"""A smoke test for subject families: every quantity, every backend, a few draws.

A quantity written with ``np.log`` instead of ``xp.log`` passes the float64 screen and fails
only when a candidate is confirmed in mpmath; this check finds that before an audit does, and
names the family, the quantity and the backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from numerics.backend import FLOAT, mp_backend, torch_backend
from numerics.enclosure import Enclosure
from numerics.errors import PrecisionUnavailable
from numerics.seeds import Stream
from theorems.engine.family import SubjectFamily
from theorems.engine.search import admissible, sample_subjects

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


def check_family(family: SubjectFamily, draws: int = 3, seed: int = 0,
                 claims: Sequence[Any] = ()) -> list[FamilyCheckRow]:
    """One row per quantity of ``family`` with the status of each backend over ``draws`` subjects.

    With ``claims`` (those that use the family), a quantity is evaluated only on subjects that some claim
    using it admits (the family's domain, the claim's hypotheses, a part that applies): a quantity is not
    asked to be finite where every claim excludes the subject. Subjects are drawn until each quantity has
    ``draws`` of them (at most ``EXTRA_DRAWS`` times more draws), so that a narrow hypothesis still gets
    its edge cases; a quantity that no admitted subject reached says so ("n/a")."""
    symbols = sorted(getattr(family, "symbols", ()) or (), key=lambda s: s.name)
    users = {sym: [c for c in claims if any(sym in part.free_symbols for part in c.statement)] for sym in symbols}
    if claims:
        symbols = [sym for sym in symbols if users[sym]]
    rows = {s: FamilyCheckRow(family.name, s.name) for s in symbols}
    stream = Stream(seed, f"check-family/{family.name}")  # the one seed rule (numerics.seeds)
    subjects = sample_subjects(family, draws * (EXTRA_DRAWS if claims else 1), stream.seed(0))
    if not subjects:
        for row in rows.values():
            row.status = {b: "n/a (no subject could be drawn)" for b in BACKENDS}
        return list(rows.values())
    adversarial = bool(getattr(family, "differentiable", ())) and (
        family.strategy() is not None or family.random_start(np.random.default_rng(stream.seed(1))) is not None)
    mp = mp_backend(30)
    done = {sym: 0 for sym in symbols}
    for subject in subjects:
        for sym in symbols:
            if done[sym] >= draws or (claims and not any(admissible(c, family, subject) for c in users[sym])):
                continue
            done[sym] += 1
            _check_quantity(rows[sym], family, subject, sym, mp, adversarial)
    for sym in symbols:
        if done[sym] == 0:
            rows[sym].status = {b: "n/a (no drawn subject met the hypotheses of the claims using it)"
                                for b in BACKENDS}
    return list(rows.values())


#: how many more subjects than asked check-family may draw to give every quantity its admitted subjects
EXTRA_DRAWS = 10


def _check_quantity(row: FamilyCheckRow, family: SubjectFamily, subject: Any, sym: Any, mp: Any,
                    adversarial: bool) -> None:
    """Evaluate one quantity on one subject in the three backends; record what fails or disagrees."""
    try:
        with np.errstate(all="ignore"):
            reference = _number(family.quantities(subject, [sym], FLOAT)[sym])
    except Exception as exc:  # noqa: BLE001 - the check reports whatever a quantity raises
        row.fail("float64", _describe(exc))
        return
    if not math.isfinite(reference):
        row.fail("float64", f"outside its domain: {reference} on {family.describe(subject)[:120]}")
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
        return
    try:
        xp = torch_backend()
        value = _number(family.quantities(subject, [sym], xp, params=family.params(subject))[sym])
        if not _agree(reference, value):
            row.fail("torch", f"disagrees: float64 {reference:.10g} vs torch {value:.10g}")
    except Exception as exc:  # noqa: BLE001
        row.fail("torch", _describe(exc))


def check_families(families: list[SubjectFamily], draws: int, seed: int,
                   claims_of: dict[int, list[Any]] | None = None) -> list[FamilyCheckRow]:
    """Every family's rows; ``claims_of`` maps ``id(family)`` to the claims that use it (their hypotheses
    decide which subjects count)."""
    return [row for fam in families for row in check_family(fam, draws, seed, (claims_of or {}).get(id(fam), ()))]
