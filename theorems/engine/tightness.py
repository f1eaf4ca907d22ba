"""The tightness search: how close does each inequality come to binding (issue 29)?

For every inequality part the search climbs the part's **ratio** -- smaller side / larger side, where the
larger side is positive (the ratio the report prints; 1 is the boundary, above 1 a violation) -- and,
where the larger side is not positive, the part's normalized margin (a ratio is then reported only from
the subjects where it exists; a part with none reports no best ratio):

1. starts: the distinct best subjects the random, exhaustive and adversarial searches recorded for the part
   (the tracker keeps them) and as many draws of the family's own seeded strategy -- small subjects of drawn families
   only (learned snapshots are fixed data; a subject too large to confirm cheaply is not climbed);
2. gradient ascent on the ratio over the family's continuous parameters (Adam, the adversary's schedule),
   keeping the best point *inside* the hypotheses: a step that leaves them is not taken back into the
   score, the search goes on from it and only admissible points count;
3. discrete moves: the family's neighbours of the best point (its shrink proposals -- fewer classes, rows,
   dimensions, rounder values -- and each part's neighbouring values: the adjacent listed choice, the next
   integer), accepted when admissible and the ratio grows, until no neighbour improves or the move budget is
   spent; after a discrete move the ascent runs once more from the new point;
4. the best point found is probed like any subject (float screen, high-precision confirmation): a
   violation found here refutes the claim as any other would.

The tracker then holds each part's best ratio and the subject it was reached at, which the report gives
with a witness that replays (``clcheck replay``).
"""

from __future__ import annotations

import functools
import math
from typing import Any

from numerics.backend import torch_backend
from numerics.seeds import Stream
from theorems.engine.budget import Budget
from theorems.engine.claim import Le, Part, Sharp, StatementClaim
from theorems.engine.evaluate import applicable_parts, needed_symbols, side_functions
from theorems.engine.family import SubjectFamily
from theorems.engine.probe import Probe, Tracker, evaluate
from theorems.engine.rules import kinds
from theorems.engine.search import admissible, distinct, adversarial_starts, ascend
from theorems.engine.rules.compare import CONFIRM_DPS

RATIO = "smaller side / larger side"


def part_score(claim: StatementClaim, family: SubjectFamily, subject: Any, part: Part) -> float:
    """The part's ratio on ``subject`` (float64), or -inf where it has none (a side undefined, or the
    larger side not positive): what the discrete moves compare."""
    try:
        value = evaluate(claim, family, subject, parts=[part])[0]
    except Exception:  # noqa: BLE001 - a neighbour outside a quantity's domain is simply no improvement
        return -math.inf
    ratio = value.ratio
    return ratio if ratio is not None and math.isfinite(ratio) else -math.inf


def _torch_score(part: Part, values: dict[Any, Any], xp: Any) -> Any:
    """The differentiable score: the ratio where the larger side is positive, else the normalized margin."""
    torch = xp.torch
    syms, f_lhs, f_rhs = side_functions(part, xp)
    args = [values[s] for s in syms]
    lhs = torch.as_tensor(f_lhs(*args), dtype=torch.float64)
    rhs = torch.as_tensor(f_rhs(*args), dtype=torch.float64)
    small, large = (lhs, rhs) if part.canonical is part.relation else (rhs, lhs)
    if bool(large > 0):
        return small / large
    return (small - large) / (1.0 + torch.maximum(small.abs(), large.abs()).detach()) - 1.0


def _ascend(claim: StatementClaim, family: SubjectFamily, subject: Any, part: Part, steps: int, seed: int) -> Any:
    """Adam ascent on the part's score from ``subject`` (search.ascend); the best admissible point visited."""
    import torch  # heavy: only the ascent needs it

    xp = torch_backend()
    torch.manual_seed(seed)
    symbols = needed_symbols([part])
    return ascend(claim, family, subject, steps,
                  lambda params: _torch_score(part, family.quantities(subject, symbols, xp, params=params), xp))


SCALE_SWEEP = tuple(10.0 ** k for k in range(-6, 13))  # the common factors a start is tried at (1e-6 .. 1e12)


def _scale_sweep(claim: StatementClaim, family: SubjectFamily, subject: Any, part: Part) -> Any:
    """The subject at the scale, of a geometric grid, where the part's ratio is largest (the subject itself when it
    has no free scale, or no scaled copy does better): a bound approached only at large or small scales is reached
    whatever scale the start was drawn at."""
    best, best_score = subject, part_score(claim, family, subject, part)
    for factor in SCALE_SWEEP:
        moved = family.scaled(subject, factor)
        if moved is None:
            return subject
        if admissible(claim, family, moved) and any(q is part for q in applicable_parts(claim, moved)):
            score = part_score(claim, family, moved, part)
            if score > best_score:
                best, best_score = moved, score
    return best


def _climb(claim: StatementClaim, family: SubjectFamily, subject: Any, part: Part, moves: int) -> Any:
    """Greedy discrete moves: the first admissible neighbour with a larger ratio, until none or out of moves."""
    best, best_score = subject, part_score(claim, family, subject, part)
    improved = True
    while improved and moves > 0:
        improved = False
        for candidate in family.neighbours(best):
            moves -= 1
            if moves < 0:
                break
            if not admissible(claim, family, candidate):
                continue
            score = part_score(claim, family, candidate, part)
            if score > best_score:
                best, best_score, improved = candidate, score, True
                break
    return best


JOINT_STEPS = 5  # a joint move's own ascent: adversarial_steps // JOINT_STEPS steps


def _joint(claim: StatementClaim, family: SubjectFamily, subject: Any, part: Part, budget: Budget, stream: Stream,
           climbs: bool, tracker: Tracker) -> Any:
    """Joint moves (family.joint_moves): for each value of each scalar parameter's grid, the best admissible
    candidate (the subject with the value, or moved to its scale), climbed by its own short ascent with the
    parameter held at that value; each end is probed (a violation there refutes like any other). The best point
    overall is returned."""
    best, best_score = subject, part_score(claim, family, subject, part)
    for k, (name, value, candidates) in enumerate(family.joint_moves(subject)):
        scored = [(part_score(claim, family, c, part), i) for i, c in enumerate(candidates)
                  if admissible(claim, family, c) and any(q is part for q in applicable_parts(claim, c))]
        if not scored:
            continue
        score, i = max(scored)
        end = candidates[i]
        if climbs and hasattr(family, "pinned"):
            end = _ascend(claim, family.pinned({name: value}), end, part, budget.adversarial_steps // JOINT_STEPS,
                          stream.seed(k))
            score = part_score(claim, family, end, part)
        if score > best_score and admissible(claim, family, end):
            best, best_score = end, score
    if best is not subject:
        tracker.record(tracker.probe(family, best, found_by="tightness (joint move)", record_only=True),
                       adversarial=True)
    return best


def inequality_parts(claim: StatementClaim) -> list[Part]:
    """The parts a tightness search climbs: every inequality (identities have no ratio)."""
    return [p for p in claim.statement if p.free_symbols and not p.is_identity]


def tightness_search(claim: StatementClaim, family: SubjectFamily, budget: Budget, stream: Stream,
                     tracker: Tracker) -> None:
    """Climb every inequality part's ratio on ``family`` (see the module doc); the end points are probed."""
    if budget.tightness_starts <= 0 or not claim.adversarial or family.origin == "learned":
        return  # learned snapshots are fixed data, not a space to climb
    for index, part in enumerate(inequality_parts(claim)):
        label = str(part)
        starts = distinct(family, [p.subject for p in tracker.best_for(label) if p.family is family])
        part_stream = stream.child(f"part{index}")
        starts += adversarial_starts(family, budget.tightness_starts, part_stream.child("starts"))
        climbs = part.free_symbols <= family.differentiable
        for n, subject in enumerate(starts):
            if subject is None or not family.cheap_to_confirm(subject) or not admissible(claim, family, subject) \
                    or not any(q is part for q in applicable_parts(claim, subject)):
                continue  # a large subject (every neighbour costs a full evaluation) is left where it is
            ascent = part_stream.child(f"ascent{n}")
            end = _ascend(claim, family, subject, part, budget.adversarial_steps, ascent.seed(0)) if climbs else subject
            end = _scale_sweep(claim, family, end, part)
            moved = _climb(claim, family, end, part, budget.tightness_moves)
            if climbs and moved is not end:
                moved = _ascend(claim, family, moved, part, budget.adversarial_steps // 2, ascent.seed(1))
            end = moved
            if n == 0:  # the best start: every value of each scalar parameter, the subject moved along
                end = _joint(claim, family, end, part, budget, ascent.child("joint"), climbs, tracker)
            if admissible(claim, family, end):
                tracker.record(tracker.probe(family, end, found_by="tightness", record_only=True), adversarial=True)


def sharp_report(sharp: Sharp, claim: StatementClaim, best: Probe | None) -> dict[str, Any]:
    """The printed and the sharp constant of a part, and how close the best subject came to the sharp bound:
    the ratio of ``sharp.sides`` there (float64), when the claim gives them."""
    reached = None
    if best is not None and sharp.sides is not None:
        versus = Part(Le(*sharp.sides), "sharp bound")
        try:
            reached = evaluate(claim, best.family, best.subject, parts=[versus])[0].ratio
        except Exception:  # noqa: BLE001 - a bound undefined at the subject: nothing reached to report
            reached = None
    certificates = _sharp_certificates(sharp)
    certified = kinds.sharp_certified(sharp.certified, certificates)
    modulo = sorted({name for c in certificates or () for name in c.modulo}) if certified else []
    label = ("certified" + (f" modulo: {', '.join(modulo)}" if modulo else "")) if certified else "an estimate"
    text = (f"printed {sharp.printed}; sharp {sharp.sharp} ({label})"
            + (f"; search reached {reached:.4g} of the sharp bound" if reached is not None else ""))
    return {"printed": sharp.printed, "sharp": sharp.sharp, "certified": certified, "modulo": modulo,
            "reached": reached, "text": text, "certificates": [c.to_json() for c in certificates or ()]}


def _sharp_certificates(sharp: Sharp) -> list | None:
    """The sharp constant's certificates (None when one cannot run: it certifies nothing)."""
    return _run_certificates(sharp.certificates)


@functools.lru_cache(maxsize=None)
def _run_certificates(makers: tuple) -> list | None:
    """Run certificate functions once per process: a sharp row's certificates are asked for by every reading's
    tightness rows and by every mutant `clcheck mutate` shows true (they take no input: the same answer each time)."""
    try:
        return [make() for make in makers]
    except Exception:  # noqa: BLE001 - a certificate that cannot run certifies nothing
        return None


def sharp_certified(sharp: Sharp) -> bool:
    """Whether the sharp constant is labelled certified (claim.sharp_certified): its certificates are run now."""
    return kinds.sharp_certified(sharp.certified, _sharp_certificates(sharp))


def best_ratio(claim: StatementClaim, tracker: Tracker, label: str) -> tuple[Probe | None, float | None, str]:
    """The part's best ratio over the subjects the tracker kept, re-evaluated at CONFIRM_DPS digits where the
    subject is cheap to confirm (a float ratio near a rounding artefact -- a subnormal side, a cancellation --
    is not a best ratio): (the subject's probe, its ratio, and where it came from: "mpmath, 60 digits on the stored
    inputs" -- the subject's float64 values read exactly, not a 60-digit optimum -- or "float64")."""
    best: tuple[Probe | None, float | None, str] = (None, None, "float64")
    for p in tracker.best_for(label):
        value, precision = None, "float64"
        if p.family.cheap_to_confirm(p.subject):
            try:
                hp = evaluate(claim, p.family, p.subject, dps=CONFIRM_DPS,
                              parts=[q for q in claim.statement if str(q) == label])[0]
                value = hp.ratio
                precision = f"mpmath, {CONFIRM_DPS} digits on the stored inputs (float64 values read exactly)"
            except Exception:  # noqa: BLE001 - no high-precision twin for this subject: keep its float ratio
                value = None
        if value is None:  # no high-precision ratio (no twin, or a larger side not positive there): the float one
            value = next((float(v.ratio) for v in p.best if str(v.part) == label and v.ratio is not None), None)
            precision = "float64"
        if value is not None and (best[1] is None or value > best[1]):
            best = (p, float(value), precision)
    return best
