"""Closed parts: a relation with no free symbol (``log 3 <= 1``) needs no subject -- it is decided outright by
interval arithmetic (arb balls, outward rounding, ``numerics.interval``): certified when the enclosure of
``lhs - rhs`` lies on the right side of 0, refuted when it lies entirely on the wrong side, left to certificates
otherwise (a printed limit, a function the interval compiler does not know, an enclosure that straddles 0)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy

from numerics.certificate import Certificate
from numerics.interval import UnsupportedExpression, interval_eval
from theorems.engine.rules.compare import enclosure_holds

PRECISION_BITS = 256  # arb's working precision: an enclosure of a closed formula narrower than 1e-70

METHOD = "arb interval arithmetic (a closed formula: no free symbol)"


@dataclass(frozen=True)
class ClosedPart:
    """One closed part decided: ``holds`` True (certified), False (violated for certain) or None (undecided);
    ``lower``/``upper`` enclose ``lhs - rhs`` (as printed: for ``a >= b``, of ``b - a``)."""

    label: str
    relation: str
    holds: bool | None
    lower: str
    upper: str

    def certificate(self) -> Certificate:
        return Certificate(method=METHOD, statement=self.relation, domain="the whole domain (no free symbol)",
                           ok=bool(self.holds), parts=(self.label,),
                           details={"enclosure of small side - large side": [self.lower, self.upper]})

    def to_json(self) -> dict[str, Any]:
        return {"part": self.label, "relation": self.relation, "holds": self.holds, "lower": self.lower,
                "upper": self.upper}


def decide(part: Any) -> ClosedPart | None:
    """The closed part decided by an arb enclosure of its margin (None: the interval compiler cannot evaluate it)."""
    relation = part.canonical
    difference = sympy.sympify(relation.lhs) - sympy.sympify(relation.rhs)
    try:
        ball = interval_eval(difference, {}, prec=PRECISION_BITS)
    except (UnsupportedExpression, ValueError, TypeError, ZeroDivisionError):
        return None
    lo, hi = ball.a, ball.b
    exact_zero = lo <= 0 <= hi and sympy.simplify(difference) == 0
    holds = enclosure_holds(lo, hi, part.is_identity, part.is_strict, exact_zero)
    return ClosedPart(str(part), str(part.relation), holds, str(lo), str(hi))
