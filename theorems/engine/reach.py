"""Reachability of a conclusion and the data adversary (../shared/LOGICAL-FORM.md, "Deciding the main theorems",
items 2 and 3).

A claim that concludes ``Q <= level`` under hypotheses H declares :class:`Reach`: Q as a sympy expression in decision
variables (a predictor's weights, an encoder's outputs), the box H allows them (its ends expressions in objects the
prefix binds, ``|w| <= B``), the prefix object that is the level, and the values of the other objects to try. The
engine computes a certified lower bound on ``inf Q`` over the box (:mod:`numerics.reach`) at each configuration, and
-- where the level is reachable at all -- a value Q takes there (an upper bound on the infimum). The verdict
authority (:mod:`theorems.engine.rules.reach`) reads the rows with the prefix: a certified infimum above 0 at a
configuration the adversary chooses before the level refutes the reading (the adversary then picks a smaller level),
whatever a run shows; a level met by a choice the claim may make after it is a checked instance.

A claim quantified over data sets declares :class:`DataAdversary`: the data's structure and what the hypotheses
literally say about it (:mod:`numerics.data_adversary`), and what to do with each admissible data set the adversary
builds -- a subject of the claim's family (checked like a listed one), the certified infimum of the conclusion's
quantity on it (a reachability row), a short training run on it (reported, an illustration).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import sympy

from numerics import reach as nr
from numerics.data_adversary import DataSpec, Hypothesis, candidates
from theorems.engine.errors import ClaimError
from theorems.engine.rules.reach import reach_row_verdict

LEVELS = tuple(10.0 ** -k for k in range(1, 7))  # the levels a reachable conclusion is tried at (0.1 .. 1e-6)


@dataclass(frozen=True)
class Reach:
    """The conclusion ``quantity <= level`` and what the hypotheses allow: ``box`` maps each decision variable to
    its (lo, hi) -- ends are numbers or expressions in the objects of ``objects`` (``-oo``/``oo`` for none);
    ``level`` names the prefix object that is the level; ``objects`` gives, for each other prefix object the box
    depends on, the values to try (``{"B": (0.5, 1, 2, 8)}``); ``about`` names the object whose quantity it is
    (the predictor, the trained encoder): a hypothesis that constrains it constrains what the conclusion may
    reach."""

    name: str
    quantity: Any
    box: Mapping[sympy.Symbol, tuple[Any, Any]]
    level: str
    objects: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    about: str = ""
    terms: tuple[Any, ...] = ()  # the quantity as a sum (terms sharing no variable are bounded apart)
    # the largest value the level may take when a constant chosen by the claim or the checker fixes it (its stated
    # admissible range's upper end): the row refutes only when the infimum exceeds it (reach.unreachable)
    level_max: Any = None

    def __post_init__(self) -> None:
        if not self.box:
            raise ClaimError(f"reach {self.name!r}: the box of decision variables is empty")
        for name, values in self.objects.items():
            if not values:
                raise ClaimError(f"reach {self.name!r}: no values to try for {name!r}")

    def configurations(self) -> list[dict[str, Any]]:
        """Every combination of the objects' values (their product, in order)."""
        combos: list[dict[str, Any]] = [{}]
        for name, values in self.objects.items():
            combos = [{**c, name: v} for c in combos for v in values]
        return combos

    def infimum(self, config: Mapping[str, Any]) -> nr.InfimumBound:
        """The certified bounds on inf quantity over the box at one configuration."""
        values = {_symbol(self, k): v for k, v in config.items()}
        if self.terms:
            return nr.sum_infimum(list(self.terms), self.box, values)
        return nr.infimum(sympy.sympify(self.quantity), self.box, values)


def _symbol(reach: Reach, name: str) -> sympy.Symbol:
    """The symbol named ``name`` in the box's ends or the quantity (the objects' values substitute for it)."""
    exprs = [e for lo, hi in reach.box.values() for e in (lo, hi)] + [reach.quantity, *reach.terms]
    for expr in exprs:
        for s in sympy.sympify(expr).free_symbols:
            if s.name == name:
                return s
    raise ClaimError(f"reach {reach.name!r}: the object {name!r} appears neither in the box nor in the quantity")


@dataclass(frozen=True)
class DataAdversary:
    """A claim's universal over data sets, for the adversary: ``spec`` the data's structure, ``hypotheses`` what the
    claim's hypotheses literally say about a data set (Python predicates on the labelled list), and what to do with
    each admissible set: ``infimum(data)`` the certified infimum of the conclusion's quantity on it (any model: a
    relaxation such as :func:`numerics.reach.table_infimum`, one free output per distinct point, bounds every model
    from below), ``level`` the prefix object that is the level, ``data`` the prefix object that is the data set,
    ``train(data, seed)`` a short training run's final value of the quantity (an illustration, never evidence by
    itself), ``subject(data)`` a subject of the claim's family (statement claims)."""

    spec: DataSpec
    hypotheses: tuple[Hypothesis, ...] = ()
    infimum: Callable[[Any], nr.InfimumBound] | None = None
    level: str = "eps"
    data: str = "data"
    train: Callable[[Any, int], float] | None = None
    subject: Callable[[Any], Any] | None = None


def _text(q: Any) -> str:
    if q is None:
        return "none"
    if isinstance(q, Fraction):
        return f"{float(q):.6g}"
    return str(q)


def reach_rows(reach: Reach, prefix: Sequence[Any]) -> list[dict[str, Any]]:
    """One row per configuration: the certified lower bound on the infimum, a value the quantity takes, and the
    row's verdict under the prefix (rules.reach)."""
    rows = []
    for config in reach.configurations():
        row = _bound_row(reach.name, config, lambda: reach.infimum(config))
        row["verdict"], row["why"] = reach_row_verdict(prefix, reach.level, tuple(config), row["lower"],
                                                      row["upper"], LEVELS, row.get("uniform", False),
                                                      reach.level_max)
        row["level_max"] = None if reach.level_max is None else _plain(reach.level_max)
        rows.append(row)
    return rows


def _bound_row(name: str, config: Mapping[str, Any], compute: Callable[[], nr.InfimumBound]) -> dict[str, Any]:
    row: dict[str, Any] = {"reach": name, "config": {k: _plain(v) for k, v in config.items()}}
    try:
        bound = compute()
    except (ValueError, TypeError, ArithmeticError, NotImplementedError) as exc:
        row.update(lower=None, upper=None, exact=None, certificate=None,
                   error=f"{type(exc).__name__}: {exc}")
        return row
    lower = bound.lower_end()
    row["uniform"] = bool(bound.exact is not None and bound.exact.free_symbols and bound.exact.is_positive)
    row.update(lower=None if lower is None else str(lower),
               upper=None if bound.upper is None else str(bound.upper),
               exact=None if bound.exact is None else str(bound.exact), complete=bound.complete,
               certificate=bound.certificate().to_json(), error="")
    row["lower_text"], row["upper_text"] = _text(lower), _text(bound.upper)
    return row


def _plain(v: Any) -> Any:
    if isinstance(v, (int, str)) or v is None:
        return v
    try:
        return float(v)
    except (TypeError, ValueError):
        return str(v)


def data_rows(adversary: DataAdversary, prefix: Sequence[Any], seed: int) -> list[dict[str, Any]]:
    """One row per data set the adversary built: whether the hypotheses admit it (and which failed), and for an
    admitted one the certified infimum of the conclusion's quantity on it with its verdict under the prefix, and the
    short training run's final value."""
    rows = []
    for proposal in candidates(adversary.spec, adversary.hypotheses, seed):
        row: dict[str, Any] = {"kind": proposal.kind, "tries": proposal.tries, "admissible": proposal.admissible,
                               "failed": list(proposal.failed), "size": len(proposal.data),
                               "data": [[_plain(x) if not isinstance(x, tuple) else [float(c) for c in x], _plain(y)]
                                        for x, y in proposal.data]}
        if proposal.admissible and adversary.infimum is not None:
            bound = _bound_row(f"data set {proposal.kind}", {},
                               lambda: adversary.infimum(proposal.data))
            row.update({k: bound[k] for k in ("lower", "upper", "exact", "certificate", "error", "lower_text", "upper_text")
                        if k in bound})
            row["verdict"], row["why"] = reach_row_verdict(prefix, adversary.level, (adversary.data,), bound["lower"],
                                                          bound["upper"], LEVELS)
        if proposal.admissible and adversary.train is not None:
            try:
                final = float(adversary.train(proposal.data, seed))
                row["trained"] = final if math.isfinite(final) else str(final)
            except Exception as exc:  # noqa: BLE001 - a run that fails on an adversarial set is reported, not fatal
                row["trained"] = f"{type(exc).__name__}: {exc}"
        rows.append(row)
    return rows


def premise_conclusion(claim: Any, seed: int) -> list[dict[str, Any]]:
    """Every reachability row of a claim: its declared reach checks at each configuration, then each data set its
    data adversaries built (the admissible ones with a certified infimum carry a verdict)."""
    rows = [row for r in claim.reach for row in reach_rows(r, claim.prefix)]
    for i, adversary in enumerate(claim.data_adversary):
        rows += [{**row, "adversary": i} for row in data_rows(adversary, claim.prefix, seed)]
    return rows


def judged_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows that carry a verdict (a reach configuration, an admissible data set with an infimum)."""
    return [r for r in rows if r.get("verdict") is not None]


def rows_json(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "verdict": getattr(r.get("verdict"), "value", r.get("verdict"))} for r in rows]


def replay_row(data: Mapping[str, Any], claim: Any) -> dict[str, Any]:
    """The row a reach witness records, computed again from the claim: its reach check at the recorded
    configuration, or its data adversary's data set of the recorded kind."""
    if data.get("adversary") is not None:
        index = data["adversary"]
        if not isinstance(index, int) or not 0 <= index < len(claim.data_adversary):
            raise ClaimError(f"claim {claim.id} has no data adversary {index!r}")
        seed = data.get("seed", 0)
        rows = data_rows(claim.data_adversary[index], claim.prefix, seed if isinstance(seed, int) else 0)
        found = [r for r in rows if r["kind"] == data.get("row", {}).get("kind")]
        if not found:
            raise ClaimError(f"the data adversary of {claim.id} no longer builds a data set of kind "
                             f"{data.get('row', {}).get('kind')!r}")
        return found[0]
    name = data.get("row", {}).get("reach")
    reach = next((r for r in claim.reach if r.name == name), None)
    if reach is None:
        raise ClaimError(f"claim {claim.id} has no reach check named {name!r}")
    config = dict(data.get("row", {}).get("config") or {})
    row = _bound_row(reach.name, config, lambda: reach.infimum(config))
    row["verdict"], row["why"] = reach_row_verdict(claim.prefix, reach.level, tuple(config), row["lower"], row["upper"],
                                                  LEVELS, row.get("uniform", False), reach.level_max)
    return row
