"""``clcheck mutate``: audit every strengthening of a claim's inequalities, and say how strong a ``consistent`` is.

The mutants come from :mod:`theorems.engine.mutate`, their outcomes and each part's sensitivity from the rules of
:mod:`theorems.engine.rules.mutate`. Each mutant is audited at every seed given, in ``--jobs`` forked workers
(:func:`~theorems.frontend.workers.run_in_workers`: one that dies or hangs is an error, the rest goes on), and stops
at its first refutation (a confirmed, replayable violation: what a search can say of a false statement). The run
writes ``mutate.json``, ``report.md`` and a witness per killed mutant (``clcheck replay`` rebuilds the mutant from
it), and keeps each part's sensitivity in ``$CLCHECK_CACHE/sensitivity.json``, where the audit's report reads it
beside every consistent inequality (keyed by the part's printed relation: an edited part reads "not measured").
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import sympy

from numerics.files import write_text_atomic
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.claim import StatementClaim
from theorems.engine.mutate import Mutation, mutant_claim, mutations, shown_true
from theorems.engine.registry import get
from theorems.engine.rules.mutate import KILLED, MOVES, SURVIVED, TRUE, mutant_outcome, sensitivity, sensitivity_text
from theorems.engine.tightness import inequality_parts
from theorems.engine.verdict import Verdict
from theorems.engine.witness import replay as replay_witness
from theorems.frontend.report import cell
from theorems.frontend.workers import run_in_workers
from training.cache import cache_dir

FORMAT = 1
STORE = "sensitivity.json"


@dataclass(frozen=True)
class MutantTask:
    """The mutants of one place of one part (a constant's amounts in ascending order, or a single move), audited in
    one worker: ``true_because[i]`` is why mutant i is true when a certificate shows it (it is then not searched)."""

    mutations: tuple[dict[str, Any], ...]
    true_because: tuple[str, ...]
    seeds: tuple[int, ...]
    budget: Budget
    timeout: float | None


def run_mutants(task: MutantTask) -> list[dict[str, Any]]:
    """Audit one place's mutants (in a worker), the weakest first. A mutant shown true is not searched; one that the
    witness of a weaker, refuted mutant still violates (replayed at high precision) is refuted by that witness; any
    other is searched at each seed until its first refutation."""
    from training.device import configure_process, deterministic_kernels  # heavy: torch, only in a worker

    configure_process()
    deterministic_kernels()
    out: list[dict[str, Any]] = []
    witness: dict[str, Any] | None = None
    for data, why_true in zip(task.mutations, task.true_because):
        mutation = Mutation.from_json(data)
        claim = mutant_claim(get(mutation.claim_id), mutation)
        start = time.process_time()
        row = {"mutation": data, "verdicts": [], "seeds": [], "witness": None, "reasons": [], "true_because": why_true,
               "found_by": "", "replayed": False}
        if not why_true and witness is not None and _still_violates(witness, claim):
            row.update(replayed=True, witness={**witness, "mutation": data},
                       found_by="the witness of a weaker mutant, replayed at high precision")
        elif not why_true:
            for seed in task.seeds:
                result = check_claim(claim, task.budget, seed=seed, timeout=task.timeout)
                row["verdicts"].append(result.verdict.value)
                row["seeds"].append(seed)
                row["reasons"].append(result.reason[:300])
                if result.verdict == Verdict.REFUTED:
                    row["witness"] = None if result.witness is None else {**result.witness, "mutation": data}
                    row["found_by"] = f"search, seed {seed}"
                    break
        witness = row["witness"] or witness
        row["cpu_seconds"] = round(time.process_time() - start, 2)
        out.append(row)
    return out


def _still_violates(witness: dict[str, Any], claim: StatementClaim) -> bool:
    """Whether a recorded witness violates ``claim`` too, confirmed at high precision (never raises)."""
    try:
        return bool(replay_witness(witness, claim).violated)
    except Exception:  # noqa: BLE001 - a witness that does not fit this mutant refutes nothing
        return False


def lost_mutants(task: MutantTask, why: str) -> list[dict[str, Any]]:
    """The outcomes of mutants whose worker died or hung: no verdict (mutate.outcome reads it as an error), named."""
    return [{"mutation": m, "verdicts": [], "seeds": [], "witness": None, "reasons": [why], "true_because": t,
             "found_by": "", "replayed": False, "cpu_seconds": 0.0} for m, t in zip(task.mutations, task.true_because)]


def _deadline(task: MutantTask) -> float | None:
    return None if task.timeout is None else task.timeout * len(task.seeds) * len(task.mutations) + 60.0


@dataclass
class Plan:
    """What one ``clcheck mutate`` run audits: the mutants of each claim, and what it leaves out (and why)."""

    mutants: list[Mutation]
    skipped: dict[str, list[dict[str, str]]]  # claim id -> moves that are no strengthening
    not_mutated: dict[str, str]  # claim id -> why it has no mutants


def plan(claims: Iterable[Any], seed: int) -> Plan:
    """The mutants of the selected claims; claims without an inequality part or drawn subjects are listed apart."""
    out = Plan([], {}, {})
    for claim in claims:
        if not isinstance(claim, StatementClaim):
            out.not_mutated[claim.id] = (f"a {type(claim).__name__}: its statement is "
                                         + ("code (an experiment), not a sympy relation" if hasattr(claim, "experiment")
                                            else "not checked on subjects"))
            continue
        if not inequality_parts(claim):
            out.not_mutated[claim.id] = "no inequality part (identities and asymptotic parts are not mutated)"
            continue
        if not any(f.origin != "learned" for f in claim.subjects):
            out.not_mutated[claim.id] = "only learned subjects (fixed snapshots a search does not move)"
            continue
        found, skipped = mutations(claim, seed)
        out.mutants += found
        out.skipped[claim.id] = [{"part": s.part, "kind": s.kind, "what": s.what, "why": s.why} for s in skipped]
    return out


def tasks(mutants: list[Mutation], seeds: tuple[int, ...], budget: Budget, timeout: float | None) -> list[MutantTask]:
    """One task per place (claim, part, kind, position), its amounts ascending; which mutants a certificate shows
    true is decided here, in the driver."""
    groups: dict[tuple, list[Mutation]] = {}
    for m in mutants:
        groups.setdefault((m.claim_id, m.part, m.kind, m.path), []).append(m)
    out = []
    for group in groups.values():
        group.sort(key=lambda m: m.amount)
        out.append(MutantTask(tuple(m.to_json() for m in group),
                              tuple(shown_true(get(m.claim_id), m) for m in group), seeds, budget, timeout))
    return out


def run(mutants: list[Mutation], seeds: tuple[int, ...], budget: Budget, jobs: int, timeout: float | None,
        tick: Callable[[int], None] = lambda done: None) -> list[dict[str, Any]]:
    """Audit every mutant in ``jobs`` workers; each outcome read by the rules (killed, true, survived, error)."""
    outcomes = []
    for _, rows in run_in_workers(tasks(mutants, seeds, budget, timeout), jobs, run_mutants, lost_mutants, _deadline):
        tick(len(rows))
        outcomes += rows
    order = {json.dumps(m.to_json(), sort_keys=True): i for i, m in enumerate(mutants)}
    outcomes.sort(key=lambda o: order[json.dumps(o["mutation"], sort_keys=True)])
    for o in outcomes:
        mutation = Mutation.from_json(o["mutation"])
        o["outcome"] = mutant_outcome([Verdict(v) for v in o["verdicts"]], o["true_because"], o["replayed"])
        o["kind"], o["amount"], o["part"], o["claim"] = (mutation.kind, str(mutation.amount), mutation.part,
                                                         mutation.claim_id)
    return outcomes


def summarize(outcomes: list[dict[str, Any]]) -> dict[str, dict[str, dict[str, Any]]]:
    """claim id -> part -> its sensitivity (mutate.sensitivity), the relation it was measured on, the smallest
    refuted mutant's witness, and the mutants never refuted."""
    table: dict[str, dict[str, dict[str, Any]]] = {}
    grouped: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for o in outcomes:
        grouped.setdefault((o["claim"], o["part"]), []).append(o)
    for (claim_id, part), rows in grouped.items():
        s = sensitivity(rows)
        killed = sorted((o for o in rows if o["outcome"] == KILLED and o["kind"] in ("constant", "exponent")),
                        key=lambda o: float(Mutation.from_json(o["mutation"]).amount))
        s["witness"] = killed[0]["witness"] if killed else None
        s["smallest_refuted"] = killed[0]["mutation"]["description"] if killed else None
        s["never_refuted"] = [o["mutation"]["description"] + (f" (true: {o['true_because']})" if o["outcome"] == TRUE
                                                              else "") for o in rows if o["outcome"] in (SURVIVED, TRUE)]
        s["relation"] = _relation_of(claim_id, part)
        table.setdefault(claim_id, {})[part] = s
    return table


def _relation_of(claim_id: str, part: str) -> str:
    claim = get(claim_id)
    return next(sympy.sstr(p.relation) for p in claim.statement if str(p) == part)


# -- outputs -----------------------------------------------------------------------------------------------------
def mutate_json(outcomes: list[dict[str, Any]], table: dict[str, Any], planned: Plan, seeds: tuple[int, ...],
                profile: str) -> dict[str, Any]:
    return {"format": FORMAT, "seeds": list(seeds), "profile": profile, "sensitivity": table,
            "mutants": outcomes, "skipped": planned.skipped, "not_mutated": planned.not_mutated}


def markdown(data: dict[str, Any]) -> str:
    """The report section: per claim and part the sensitivity, the smallest refuted mutant, the survivors."""
    lines = ["## Mutation analysis (`clcheck mutate`)", "",
             f"Seeds {', '.join(map(str, data['seeds']))}; profile {data['profile']}. Each mutant strengthens one "
             "inequality part (a constant or exponent moved 1-20 %, a term dropped, a side scaled by 1 %, strict); "
             "killed: refuted at some seed; true: a certificate shows it; survived: never refuted.", "",
             "| claim | part | sensitivity | smallest refuted | never refuted |", "| --- | --- | --- | --- | --- |"]
    for claim_id, parts in data["sensitivity"].items():
        for part, s in parts.items():
            lines.append(f"| {cell(claim_id)} | {cell(part)} | {cell(sensitivity_text(s))} | "
                         f"{cell(s['smallest_refuted'] or '-')} | {cell('; '.join(s['never_refuted']) or '-')} |")
    if data["not_mutated"]:
        lines += ["", "Not mutated: " + "; ".join(f"{k} ({v})" for k, v in data["not_mutated"].items())]
    skipped = sum(len(v) for v in data["skipped"].values())
    if skipped:
        lines += ["", f"{skipped} moves were no strengthening on the sampled subjects (listed in mutate.json)."]
    return "\n".join(lines) + "\n"


def store(table: dict[str, dict[str, dict[str, Any]]], seeds: tuple[int, ...], profile: str) -> None:
    """Keep each part's sensitivity for the audit's report, keyed by claim, part and its printed relation."""
    kept = read_store()
    for claim_id, parts in table.items():
        for part, s in parts.items():
            kept.setdefault(claim_id, {})[part] = {**{k: v for k, v in s.items() if k != "witness"},
                                                   "seeds": list(seeds), "profile": profile}
    write_text_atomic(cache_dir() / STORE, json.dumps({"format": FORMAT, "claims": kept}, indent=1, sort_keys=True))


def read_store() -> dict[str, dict[str, dict[str, Any]]]:
    """The kept sensitivities ({} when none was measured, or the file is damaged: it only informs a report)."""
    try:
        data = json.loads((cache_dir() / STORE).read_text())
        if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("claims"), dict):
            return {k: v for k, v in data["claims"].items() if isinstance(v, dict)}
    except Exception:  # noqa: BLE001 - a missing or damaged store reads as nothing measured
        pass
    return {}


def survivors_at_least(outcomes: list[dict[str, Any]], amount: float) -> list[dict[str, Any]]:
    """The mutants moved by ``amount`` (relative) or more -- a constant, an exponent or a side -- that survived: neither
    refuted nor shown true (mutate.outcome)."""
    return [o for o in outcomes if o["outcome"] == SURVIVED and o["kind"] in MOVES
            and float(Fraction(o["amount"])) >= amount - 1e-12]


def annotate(results: Iterable[Any]) -> None:
    """Give each inequality row of the results (ClaimResult.tightness) its kept sensitivity, when it was measured on
    the part as it is now (None otherwise: the report says "not measured")."""
    kept = read_store()
    for r in results:
        for row in r.tightness:
            s = kept.get(r.id, {}).get(row["part"])
            row["sensitivity"] = s if isinstance(s, dict) and s.get("relation") == row.get("relation") else None


def terminal_rows(table: dict[str, dict[str, dict[str, Any]]]) -> list[tuple[str, str, str]]:
    return [(claim_id, part, sensitivity_text(s)) for claim_id, parts in table.items() for part, s in parts.items()]


def write_outputs(folder: Any, data: dict[str, Any]) -> None:
    """mutate.json, report.md and the killed mutants' witnesses into ``folder`` (a ReportFolder: committed whole)."""
    folder.write_text("mutate.json", json.dumps(data, indent=1, default=str))
    folder.write_text("report.md", markdown(data))
    for i, o in enumerate(data["mutants"]):
        if o.get("witness"):
            folder.write_text(f"witnesses/{o['claim']}.mutant{i}.json", json.dumps(o["witness"], indent=1, default=str))
