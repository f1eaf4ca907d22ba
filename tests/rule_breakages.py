"""The kept list of hand breakages of the verdict rules, and the command that re-runs them.

Each :class:`Breakage` changes one rule of ``theorems/engine/rules/`` (an exact text, replaced once) in
the way a careless edit would; the rule tests (``tests/test_verdict_rules.py``) must then fail. A
breakage that changes no behaviour is marked ``equivalent`` with the reason, and is expected to pass.

    python tests/rule_breakages.py            # every breakage, two at a time
    python tests/rule_breakages.py --only compare.violation --jobs 1

Each breakage runs in a copy of the ``theorems`` and ``numerics`` packages put first on the path (the working tree
is never edited), in a fork of the runner: the third-party libraries are imported once (``PRELOAD``), clcheck's own
packages and the test modules afresh from the copy in each fork (the canary checks that they are). The copy keeps the
packages' compiled bytecode (only the edited file compiles again), and pytest runs with ``--assert=plain``: only the
exit status counts, and rewriting the test modules' assertions was a third of each fork. The baselines (the tests
unbroken, the canary) share the queue with the breakages, which are judged only if the baselines pass. Exit 0 when
every breakage is caught and every equivalent one passes; 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_TESTS = ("tests/test_verdict_rules.py",)
HOSTILE_TESTS = ("tests/test_hostile.py",)
RULES = "theorems/engine/rules/"

#: the guarantees of the README ("Guarantees") that live outside the rules, each broken below like a rule
GUARANTEES = {
    "guarantee.every_candidate_decided": "a float overflow or a listed example is decided at high precision",
    "guarantee.pure_quantities": "a quantity is evaluated twice on copies of its subject",
    "guarantee.culprit_named": "a failure inside a quantity, hypothesis or part names it",
    "guarantee.plugins_contained": "a plugin neither ends the command nor registers under another's prefix",
    "guarantee.outputs_contained": "--out is new, empty or clcheck's, locked, written as one unit; ids are safe",
    "guarantee.clean_text": "control characters are escaped; JSON is strict; variables are parsed strictly",
    "guarantee.bounded": "a prover's whole process group dies at its time limit",
}
#: where each guarantee outside the rule tests is pinned: the hostile suite's tests that name it (pytest -k)
GUARANTEE_TESTS = {
    "guarantee.pure_quantities": "ground_truth",
    "guarantee.culprit_named": "ground_truth",
    "guarantee.plugins_contained": "exits_while_loading or own_prefix",
    "guarantee.outputs_contained": "new_empty or failed_audit or accepted_id or could_name",
    "guarantee.clean_text": "escape or key_twice or environment",
    "guarantee.bounded": "process_group",
}


@dataclass(frozen=True)
class Breakage:
    """One hand breakage: in ``file``, ``old`` (occurring exactly once) becomes ``new``."""

    rule: str  # the rule it breaks (a name of theorems.engine.rules.RULES, or of GUARANTEES)
    file: str  # relative to the repository's root
    old: str
    new: str
    why: str  # what the broken rule would then do wrong
    equivalent: str = ""  # non-empty: no behaviour changes (why); expected to pass the rule tests
    tests: tuple[str, ...] = RULE_TESTS  # the test files that must catch it (a guarantee's: GUARANTEE_TESTS)


C, I, S, E, P, G, K, A, RE, M = (RULES + f for f in ("compare.py", "informative.py", "statement.py", "experiment.py",
                                                      "proof.py", "gate.py", "kinds.py", "asymptotic.py", "reach.py",
                                                      "mutate.py"))
EV = "theorems/engine/evaluate.py"  # a part's scale (compare.part_tolerance's input)

BREAKAGES = [
    # -- compare: the tolerance policy
    Breakage("compare.tolerance", C, "return ATOL + RTOL * max(finite, default=0.0)", "return ATOL",
             "an absolute tolerance only: rounding at scale 1e6 becomes a counterexample"),
    Breakage("compare.tolerance", C, "return ATOL + RTOL * max(finite, default=0.0)",
             "return ATOL + RTOL * max(finite, default=0.0) * 1e4", "a tolerance 1e4 times too loose hides violations"),
    Breakage("compare.candidate", C, "return margin > (tol / 2 if identity else -tol)",
             "return margin > (tol / 2 if identity else 0.0)",
             "the float screen loosened: a near miss in float64 is never confirmed in high precision"),
    Breakage("compare.candidate", C, "return margin > (tol / 2 if identity else -tol)",
             "return margin > (tol if identity else -tol)", "an identity's screen loosened to a whole tolerance"),
    Breakage("compare.candidate", C, "    if not math.isfinite(margin):  # NaN or +-inf: always look closer",
             "    if margin != margin:", "a float64 overflow (inf <= inf) is decided in the extended reals instead of "
             "at 60 digits"),
    Breakage("compare.candidate", C, "    if not math.isfinite(margin):  # NaN or +-inf: always look closer",
             "    if math.isinf(margin):", "a NaN in float64 is never looked at in high precision"),
    Breakage("compare.violation", C, "return bool(margin > tol)", "return bool(margin >= tol)",
             "a margin of exactly the tolerance counts as a violation"),
    Breakage("compare.violation", C, "return bool(margin > tol)", "return bool(margin > 0)",
             "the tolerance is ignored: rounding refutes"),
    Breakage("compare.violation", C, "return bool(margin > tol)", "return bool(margin > 10 * tol)",
             "a violation must exceed ten tolerances"),
    Breakage("compare.violation", C, "return bool(margin > tol)", "return float(margin) > tol",
             "a 60-digit margin is rounded to float64 first: a violation of 1e-350 underflows to none"),
    Breakage("compare.same_margin", C,
             "return bool(abs(a - b) <= SAME_MARGIN_RTOL * max(abs(a), abs(b)) + tol)", "return True",
             "a margin that keeps moving with the precision is taken as stable"),
    Breakage("compare.same_margin", C, "        return a == b\n    return bool(", "        return True\n    return bool(",
             "an infinite margin agrees with a finite one: a violation infinite at 60 digits and drifting beyond is "
             "confirmed"),
    Breakage("compare.part_tolerance", C, "resolution = RTOL if float_resolution else RTOL_HP", "resolution = RTOL",
             "a 60-digit evaluation is judged at float resolution: a violation by 1e-20 relative is hidden"),
    Breakage("compare.part_tolerance", C, "if mpmath.isfinite(sensitivity) else 0, TINY_HP)",
             "if mpmath.isfinite(sensitivity) else 0, mpmath.mpf(1e-12))",
             "an absolute floor: t <= t/2 at t = 1e-13 is hidden"),
    Breakage("compare.part_tolerance", C, "if mpmath.isfinite(sensitivity) else 0, TINY_HP)",
             "if mpmath.isfinite(sensitivity) else 0)", "0 < 0 (an exact tie of a strict part) holds"),
    Breakage("compare.part_tolerance", C, "mpmath.mpf(sensitivity) if mpmath.isfinite(sensitivity) else 0,",
             "0,", "the inputs' rounding is ignored: 1 - v with v rounded to 1 refutes a true identity"),
    Breakage("compare.part_tolerance", C, "    if isinstance(scale, mpmath.mpf):", "    if False:",
             "a 60-digit scale rounded to float64: below 1e-308 every violation is hidden by the float floor"),
    Breakage("compare.part_tolerance", EV, "    terms += list(part.scale_terms)\n", "",
             "a residue's declared scale ignored: its own rounding reads as a violation, kept until 1920 digits"),
    Breakage("compare.part_tolerance", EV, "    terms += list(part.scale_terms)\n",
             "    terms += [10**10 * t for t in part.scale_terms]\n",
             "a residue's declared scale inflated: a real residue of 1e-6 hides in the tolerance"),
    Breakage("compare.float_valued", C, "        return mpmath.mpf(float(value)) == value", "        return False",
             "a quantity computed in float64 is judged at 60-digit resolution: its own rounding refutes"),
    Breakage("compare.float_valued", C, "        if not mpmath.isfinite(value) or value == mpmath.floor(value):",
             "        if not mpmath.isfinite(value):", "an integer counts as float-computed"),
    Breakage("compare.same_margin", C, "    a, b = mpmath.mpf(a), mpmath.mpf(b)\n", "    a, b = float(a), float(b)\n",
             "margins below float64's range read as equal: a rounding residue that shrinks with the precision is "
             "confirmed"),
    Breakage("compare.strict_tie", C, "    return bool(finer == 0 or finer <= max(coarse * mpmath.mpf(\"1e-3\"), floor))",
             "    return True", "a strict part refuted by a gap below the tolerance that stays at every precision"),
    Breakage("compare.strict_tie", C, "        return UNSTABLE  # a strict part", "        pass  # a strict part",
             "the confirmation ignores whether a strict part's margin is a tie"),
    Breakage("compare.strict", C, "return margin + 2 * tol", "return margin",
             "a strict part holds within the tolerance of its boundary"),
    Breakage("compare.bracket", C, "    return min(margins)", "    return max(margins)",
             "a bracket refutes when only its worst end violates"),
    Breakage("compare.extended_reals", C, "holds = small < large if part.is_strict else small <= large",
             "holds = True", "an infinite side always holds: inf <= 1 passes"),
    Breakage("compare.extended_reals", C, "holds = small < large if part.is_strict else small <= large",
             "holds = small <= large", "a strict part with two equal infinite sides holds (inf < inf)"),
    Breakage("compare.confirmation", C, "    if stable and not infinite and dps >= MAX_DPS:\n        return CONFIRMED",
             "    if stable and dps >= MAX_DPS:\n        return CONFIRMED", "an infinite margin is confirmed by agreeing once"),
    Breakage("compare.confirmation", C, "    if stable and not infinite and dps >= MAX_DPS:\n        return CONFIRMED",
             "    if stable and not infinite:\n        return CONFIRMED",
             "a violation is confirmed at 120 digits: a digit loss inside a quantity (391 digits) refutes a true claim"),
    Breakage("compare.confirmation", C, "        return CONFIRMED if stable and infinite else UNSTABLE",
             "        return CONFIRMED", "a margin that never settles is confirmed at the last precision"),
    Breakage("compare.confirmation", C, "        return HOLDS\n    if any(", "        return CONFIRMED\n    if any(",
             "a violation gone at double precision is confirmed"),
    Breakage("compare.measured", C, "margins.append(margin - tol - 2 * measured.error)",
             "margins.append(margin - tol)", "a measurement's stated error is ignored: solver noise refutes"),
    Breakage("compare.measured", C, "margins.append(margin - tol - 2 * measured.error)",
             "margins.append(margin - tol - measured.error)", "only one side's error is allowed for"),
    Breakage("compare.measured", C, "    if _is_exact(measured.lhs) and _is_exact(measured.rhs):", "    if False:",
             "exact integers compared with a float tolerance: 10^20 + 1 <= 10^20 passes"),
    Breakage("compare.measured", C, "return all(decide(item) for item in measured.items)",
             "return any(decide(item) for item in measured.items)", "a conjunction holds when one item does"),
    Breakage("compare.measured", C, "    return not is_violation(certain_margin(margins), 0.0)",
             "    return not is_violation(max(margins), 0.0)", "a measured bracket fails when only its worst end does"),
    Breakage("compare.measured", C, "        if math.isnan(f):", "        if False:", "a NaN side is compared (as never violated)"),
    # -- informative subjects
    Breakage("informative.declared", I, "return f\"not {informative.when} ({informative.why})\"",
             "return f\"not {informative.when} (both sides equal by construction)\"",
             "an uninformative run snapshot is said to be equal by construction"),
    Breakage("informative.declared", I, "if informative is not None and not informative.holds(subject):",
             "if False:", "a subject on which both sides are equal by construction counts as evidence"),
    Breakage("informative.range", I, "(large > hi if strict else large >= hi - value.tol)",
             "(large > hi if strict else large > hi)", "a bound equal to its trivial maximum (e <= 1) counts as evidence"),
    Breakage("informative.range", I, "(small < lo if strict else small <= lo + value.tol)",
             "(small < lo if strict else small < lo)", "a bound equal to its trivial minimum (0 <= e) counts as evidence"),
    Breakage("informative.range", I, "(large > hi if strict else large >= hi - value.tol)",
             "(large >= hi if strict else large >= hi - value.tol)",
             "a strict bound at the trivial maximum (e < 1) is taken as unable to fail"),
    Breakage("informative.range", I, "        return \"a side is infinite (decided exactly in the extended reals)\"\n",
             "        return None\n", "a relation decided at infinity counts as evidence"),
    Breakage("informative.never_binds", I, "all(reason.startswith(RANGE_RULE) for s in tried for reason in s.trivial_reasons)",
             "True", "any uninformative subject makes a bound vacuous"),
    Breakage("informative.never_binds", I, "(bool(tried) and all(s.nontrivial_examples == 0 for s in tried)",
             "(bool(tried)", "a bound that binds on some subjects is vacuous"),
    # -- the statement cascade
    Breakage("statement.hypotheses_unsatisfiable", S, "    if ev.tried > 0:\n        raise ClaimError",
             "    if False:\n        raise ClaimError",
             "a certificate contradicted by subjects meeting the hypotheses makes the claim vacuous"),
    Breakage("statement.hypotheses_unsatisfiable", S, "proofs = [c for c in ev.unsatisfiable if c.ok]",
             "proofs = list(ev.unsatisfiable)", "a failed unsatisfiability certificate makes the claim vacuous"),
    Breakage("statement.confirmed_violation", S, "if ev.violations > 0 else None", "if ev.violations > 1 else None",
             "one confirmed violation does not refute"),
    Breakage("compare.enclosure", C, "    if exact_zero:\n        return not strict", "    if exact_zero:\n        return True",
             "an exact tie of a strict closed part (2 log 2 < log 4) reads as holding"),
    Breakage("compare.enclosure", C, "    return True if hi <= 0 else (False if lo > 0 else None)",
             "    return True if lo <= 0 else (False if hi > 0 else None)", "an enclosure straddling 0 reads as holding"),
    Breakage("statement.closed_violation", S, "    if not ev.closed_violations:\n        return None\n    c = ev",
             "    if True:\n        return None\n    c = ev", "a closed statement found false by interval arithmetic is ignored"),
    Breakage("statement.unconfirmed_candidate", S, "    if not ev.undecided:\n        return None\n    return Judgement(Verdict.INCONCLUSIVE",
             "    if True:\n        return None\n    return Judgement(Verdict.INCONCLUSIVE",
             "a candidate no high-precision value can decide is dropped: the claim reads consistent"),
    Breakage("statement.never_binds", S, "proofs = [c for c in ev.vacuity if c.ok and c.complete]",
             "proofs = [c for c in ev.vacuity if c.ok]", "a vacuity certificate on a finite range makes a bound vacuous"),
    Breakage("statement.never_binds", S, "    if not (proofs or ev.never_binds):", "    if not ev.never_binds:",
             "a vacuity certificate is ignored"),
    Breakage("statement.certified", S, "all(s == PartStatus.CERTIFIED for s in ev.part_status.values())",
             "any(s == PartStatus.CERTIFIED for s in ev.part_status.values())",
             "one certified part proves the whole claim"),
    Breakage("statement.informative", S, "if not (ev.informative > 0 or bounded_only)", "if not (ev.tried > 0 or bounded_only)",
             "uninformative subjects count as evidence"),
    Breakage("statement.uninformative", S, "    if ev.tried == 0:\n        return None\n    return Judgement(Verdict.UNTESTED, \"every",
             "    return Judgement(Verdict.UNTESTED, \"every", "nothing drawn is reported as every subject uninformative"),
    Breakage("statement.nothing_drawn", S, "    if ev.rejected > 0:\n        return None\n    return Judgement(Verdict.UNTESTED, f\"nothing",
             "    return Judgement(Verdict.UNTESTED, f\"nothing",
             "subjects rejected by the hypotheses are reported as nothing drawn"),
    Breakage("statement.premise_never_met", S, "    return Judgement(Verdict.UNTESTED, \"no drawn subject satisfied the hypotheses\")",
             "    return Judgement(Verdict.CONSISTENT, \"no drawn subject satisfied the hypotheses\")",
             "a claim whose hypotheses no subject met reads consistent"),
    Breakage("statement.part_status", S, "        if label in refuted:\n            status[label] = PartStatus.REFUTED\n        elif label in covered:",
             "        if label in covered:\n            status[label] = PartStatus.CERTIFIED\n        elif label in refuted:",
             "a (wrong) certificate hides a confirmed violation of its part"),
    Breakage("statement.part_status", S, "(covered if c.complete else partial)", "covered",
             "a finite-range certificate certifies a part: the claim reads proved"),
    Breakage("statement.part_status", S, "PartStatus.CERTIFIED_ON_RANGE if label in partial else PartStatus.TESTED",
             "PartStatus.TESTED", "a finite-range certificate is not shown"),
    Breakage("statement.part_status", S, "elif label in informative and not informative[label]:", "elif False:",
             "a part evaluated on uninformative subjects only reads tested"),
    Breakage("statement.modulo", S, "if label not in best or len(c.modulo) < len(best[label]):",
             "if label not in best or len(c.modulo) > len(best[label]):", "the proof resting on more results is shown"),
    Breakage("statement.proof_chain", S, "if not (composes and all_certified) or status == PartStatus.REFUTED:",
             "if not (composes and all_certified):", "a certified chain hides a confirmed violation of its part"),
    Breakage("statement.proof_chain", S, "if not (composes and all_certified) or status == PartStatus.REFUTED:",
             "if not all_certified or status == PartStatus.REFUTED:", "a chain that does not compose certifies its part"),
    Breakage("statement.proof_chain", S, "best = chain_modulo if before is None or len(chain_modulo) < len(before) else before",
             "best = before if before is not None else chain_modulo",
             "a chain resting on fewer results than the certificates does not lower the modulo"),
    # -- asymptotic parts along witness families
    Breakage("asymptotic.family_valid", A, "        if moved in dependencies:", "        if False:",
             "a family that moves an object the constant may depend on counts as a witness"),
    Breakage("asymptotic.family_valid", A, "        if where.quantifier != \"forall\":", "        if False:",
             "a family that moves an object the claim chooses counts as a witness"),
    Breakage("asymptotic.family_valid", A, "    return {d for dep in prefix[position].dependencies(prefix[:position]) for d in _names(dep)}",
             "    return {b.name for b in prefix[:position]}",
             "the constant's position, not its declared dependencies, decides: a uniform constant's family is refused"),
    Breakage("asymptotic.limit", A, "fails = (notation in (\"O\", \"Theta\") and infinite)", "fails = (False)",
             "an infinite limit of |lhs|/g does not refute O(g)"),
    Breakage("asymptotic.limit", A, "or (notation in (\"Omega\", \"Theta\") and zero)", "or (False)",
             "a ratio tending to 0 does not refute Omega(g)"),
    Breakage("asymptotic.growth", A, "    if against >= UNBOUNDED_SLOPE:\n        return Verdict.INCONCLUSIVE",
             "    if against >= UNBOUNDED_SLOPE:\n        return Verdict.REFUTED", "a measured growth refutes"),
    Breakage("asymptotic.growth", A, "    if against <= BOUNDED_SLOPE:", "    if abs(slope) <= BOUNDED_SLOPE:",
             "a ratio that decays along an O family is not bounded"),
    Breakage("asymptotic.family", A, "    if error:\n        return Verdict.INCONCLUSIVE", "    if False:\n        return Verdict.INCONCLUSIVE",
             "a family that could not be measured is read as if measured"),
    Breakage("statement.asymptotic_unbounded", S, "refuting = [m for m in ev.asymptotic if m[\"valid\"] and m[\"verdict\"] == Verdict.REFUTED]",
             "refuting = [m for m in ev.asymptotic if m[\"verdict\"] == Verdict.REFUTED]",
             "a family the prefix does not let move refutes"),
    Breakage("statement.asymptotic_unbounded", S, "    if not refuting:\n        return None\n    m = refuting[0]",
             "    if True:\n        return None\n    m = refuting[0]", "an unbounded exact limit does not refute"),
    Breakage("statement.asymptotic_open", S, "open_ = [m for m in ev.asymptotic if m[\"valid\"] and m[\"verdict\"] in (Verdict.INCONCLUSIVE, Verdict.UNTESTED)]",
             "open_ = []", "a measured growth is hidden: the claim reads consistent"),
    Breakage("statement.asymptotic_no_witness", S, "    if ev.tried > 0 or not ev.asymptotic or any(m[\"valid\"] for m in ev.asymptotic):",
             "    if True:", "no valid witness family reads as nothing drawn"),
    Breakage("statement.informative", S, "    bounded = [m for m in ev.asymptotic if m[\"valid\"] and m[\"verdict\"] == Verdict.CONSISTENT]",
             "    bounded = [m for m in ev.asymptotic if m[\"verdict\"] == Verdict.CONSISTENT]",
             "a bounded ratio along a family the prefix does not let move counts as evidence"),
    # -- reachability of a conclusion
    Breakage("reach.unreachable", RE, "    if low is None or low <= 0:\n        return False, \"\"", "    if low is None:\n        return False, \"\"",
             "an infimum of 0 (reachable in the limit) refutes"),
    Breakage("reach.unreachable", RE, "or (chosen and not uniform):", "or False:",
             "a positive infimum at one value the claim chooses before the level refutes, not shown for every value"),
    Breakage("reach.unreachable", RE, "if any(i > li for _, i in chosen) or", "if",
             "an object the claim chooses after the level (a value per level) counts as the adversary's"),
    Breakage("reach.unreachable", RE, "    if cap is not None and low <= cap:", "    if False:",
             "an infimum below the largest admissible level refutes"),
    Breakage("reach.unreachable", RE, "    if lvl.quantifier != \"forall\" and cap is None:", "    if False:",
             "a level the claim chooses counts as the adversary's"),
    Breakage("reach.reachable", RE, "if up <= Fraction(lv)]", "if up <= 2 * Fraction(lv)]",
             "a value above the level counts as reaching it"),
    Breakage("reach.claim_chooses", RE, "        if b.quantifier != \"forall\":\n            chosen.append", "        if False:\n            chosen.append",
             "the report does not say which objects the claim chooses"),
    Breakage("reach.claim", RE, "    if refuting:\n        r = refuting[0]", "    if False:\n        r = refuting[0]",
             "an unreachable conclusion does not refute"),
    Breakage("reach.claim", RE, "    if reached:\n        return Judgement(Verdict.CONSISTENT", "    if rows:\n        return Judgement(Verdict.CONSISTENT",
             "configurations that reached no level count as evidence"),
    Breakage("statement.unreachable", S, "    return judged if judged is not None and judged.verdict == Verdict.REFUTED else None",
             "    return None", "a statement claim ignores an unreachable conclusion"),
    Breakage("statement.reach_open", S, "    if ev.tried > 0 or not ev.reach:\n        return None\n    return reach_verdict(ev.reach)",
             "    return None", "reachability rows that decided nothing read as nothing drawn"),
    Breakage("experiment.unreachable", E, "    if reached is None or reached.verdict != R:\n        return None",
             "    if True:\n        return None", "an experiment's runs hide an unreachable conclusion"),
    Breakage("experiment.asymptotic_unbounded", E, "    if not refuting:\n        return None\n    m = refuting[0]",
             "    return None\n    m = refuting[0]", "an experiment's runs hide an exact unbounded ratio"),
    Breakage("experiment.asymptotic_unbounded", E, "refuting = [m for m in measured if m[\"valid\"] and m[\"verdict\"] == R]",
             "refuting = [m for m in measured if m[\"verdict\"] == R]",
             "a family that moves what the constant may depend on refutes an experiment"),
    Breakage("experiment.one_sided", E, "    return one_sided if verdict == C and one_sided and not premise_checked else \"\"",
             "    return \"\"", "a one-sided experiment's consistent verdict is not labelled"),
    Breakage("experiment.one_sided", E, "    return one_sided if verdict == C and one_sided and not premise_checked else \"\"",
             "    return one_sided if verdict == C and one_sided else \"\"",
             "the label stays after reachability and the data adversary were applied"),
    # -- experiments
    Breakage("experiment.hypotheses_unsatisfiable", E, "    held = [c for c in proofs if c.ok]",
             "    held = list(proofs)", "a failed certificate of impossible hypotheses makes an experiment vacuous"),
    Breakage("experiment.one_sided_failure", E, "    if judgement.verdict != R or not one_sided:\n        return judgement",
             "    if True:\n        return judgement", "a failure at the checker's choice refutes a one-sided claim"),
    Breakage("experiment.observation", E, "    failed = [r for r in obs.regime if not regime_holds(r)]",
             "    failed = []", "a run outside its theorem's regime counts as evidence"),
    Breakage("experiment.observation", E, "    if obs.by_construction:  #", "    if False:  #",
             "a check that holds by the checker's own construction counts as evidence"),
    Breakage("experiment.observation", E, "        return I, f\"fails although it holds by construction", "        return R, f\"fails although it holds by construction",
             "a failed check of the checker's own construction refutes the paper"),
    Breakage("experiment.observation", E, "        if init_holds(obs):", "        if False:",
             "a property the untrained model already has counts as evidence"),
    Breakage("experiment.observation", E, "    elif not any(held_on):", "    elif not all(held_on):",
             "one failing seed refutes while the others hold"),
    Breakage("experiment.observation", E, "    if obs.seeds and len(obs.seeds) < MIN_SEEDS:", "    if False:",
             "a verdict is read from fewer than MIN_SEEDS seeds"),
    Breakage("experiment.observation", E, "    if undetermined:\n        return I,", "    if False:\n        return I,",
             "a run that cannot tell counts as holding"),
    Breakage("experiment.observation", E, "    return any(decide(v) for v in entries if v is not None)",
             "    return all(decide(v) for v in entries if v is not None)",
             "a property held at initialization on one seed only still counts as evidence"),
    Breakage("experiment.map", E, "if row.get(\"in_regime\", True) and row.get(\"informative\", True)]",
             "if row.get(\"informative\", True)]", "configurations outside the regime count as evidence"),
    Breakage("experiment.map", E, "(quantifier == \"forall\" and R in inside)", "(quantifier == \"forall\" and False)",
             "for all models: one refuted model does not refute"),
    Breakage("experiment.map", E, "(quantifier == \"exists\" and C in inside)", "(quantifier == \"exists\" and False)",
             "there exists a model: a witness is not enough"),
    Breakage("experiment.map", E, "    inside = [v for v in inside if v != U]\n", "",
             "an untested configuration blocks consistency"),
    Breakage("experiment.growth", E, "        return I, (f\"{where}: {fit.text()} >= {g.unbounded_slope:g}: measured growth",
             "        return R, (f\"{where}: {fit.text()} >= {g.unbounded_slope:g}: measured growth",
             "a measured growth (a fit, not a certified bound) refutes"),
    Breakage("experiment.growth", E, "        if math.isinf(g.limit):", "        if False:",
             "an infinite limit is read as bounded"),
    Breakage("experiment.growth", E, "    if fit.slope <= g.bounded_slope:", "    if fit.slope <= g.unbounded_slope:",
             "a slope between bounded and unbounded reads bounded"),
    Breakage("experiment.claim", E, "        if universal_verdict == R:", "        if False:",
             "an existence claim ignores the failure of a universal part stated beside it"),
    Breakage("experiment.claim", E, "        return Judgement(U, f\"no witness found", "        return Judgement(R, f\"no witness found",
             "an existence claim is refuted by a search that found nothing"),
    Breakage("experiment.claim", E, "    if out_of_regime:\n", "    if False:\n",
             "an experiment outside its theorem's regime is evidence"),
    Breakage("experiment.certified", E, "    if len(ok) == len(certificates) and all(c.complete for c in ok) and not uncovered:",
             "    if len(ok) == len(certificates) and not uncovered:",
             "a finite-range certificate beside complete ones makes an experiment proved"),
    Breakage("experiment.certified", E, "    whole = any(c.complete and c.parts is None for c in ok)",
             "    whole = any(c.parts is None for c in ok)", "a finite-range certificate covers every fact",
             equivalent="the same certificate then fails all(c.complete): the first condition stays false"),
    Breakage("experiment.certified", E, "if not whole and observed_fact(o) not in covered})", "if False})",
             "certificates need not cover every observed fact"),
    Breakage("experiment.still_refutes", E, "row[\"config\"] == recorded.get(\"config\") and row[\"verdict\"] == R and row[\"in_regime\"]",
             "row[\"config\"] == recorded.get(\"config\") and row[\"verdict\"] == R",
             "a recorded configuration now outside the regime still refutes"),
    # -- proof steps
    Breakage("proof.certificates", P, "if not certificates or not all(c.ok and c.complete for c in certificates):",
             "if not certificates or not all(c.ok for c in certificates):", "a finite-range certificate certifies a step"),
    Breakage("proof.certificates", P, "return NAMED if any(c.modulo for c in certificates) else CERTIFIED",
             "return CERTIFIED", "a step certified modulo a named result counts as proved outright"),
    Breakage("proof.named_result", P, "return CERTIFIED if proved and all(c.complete for c in hypotheses) else NAMED",
             "return CERTIFIED if proved else NAMED", "hypotheses certified on a range only give an outright proof"),
    Breakage("proof.named_result", P, "result_proof.complete and not result_proof.modulo)",
             "result_proof.complete)", "a named result proved modulo another counts as proved outright"),
    Breakage("proof.named_result", P, "    if not all(c.ok for c in hypotheses):\n        return UNCHECKED\n", "",
             "a named result whose hypotheses fail still supports the step"),
    Breakage("proof.certificate_key", P, "    if not certificate.complete:\n        return TESTED\n", "",
             "a finite-range certificate certifies a page step"),
    Breakage("proof.cited", P, "return UNCHECKED if missing else ASSUMPTION", "return ASSUMPTION",
             "a cited theorem whose needs are not provided is assumed anyway"),
    Breakage("proof.combine", P, "    if REFUTED in statuses:\n        return REFUTED\n", "",
             "a refuting check of a step is outvoted"),
    Breakage("proof.combine", P, "    if all(s in (CERTIFIED, NAMED) for s in statuses):\n        return NAMED\n", "",
             "a step certified or resting on named results reads tested"),
    Breakage("proof.verdict_step", P, "Verdict.CONSISTENT: TESTED", "Verdict.CONSISTENT: CERTIFIED",
             "a consistent claim certifies the steps it checks"),
    Breakage("proof.part_step", P, "PartStatus.CERTIFIED_ON_RANGE: TESTED", "PartStatus.CERTIFIED_ON_RANGE: CERTIFIED",
             "a part certified on a finite range certifies a step"),
    Breakage("proof.part_step", P, "PartStatus.TRIVIAL: UNCHECKED", "PartStatus.TRIVIAL: TESTED",
             "a part tested on uninformative subjects only tests a step"),
    Breakage("proof.numeric_step", P, "    if violated:\n        return REFUTED\n", "",
             "a step that fails on a witness is not refuted"),
    Breakage("proof.chain_certified", P, "return all(s in (CERTIFIED, ASSUMPTION, NAMED) for s in statuses)",
             "return all(s in (CERTIFIED, ASSUMPTION, NAMED, TESTED) for s in statuses)",
             "a tested step lets a chain prove its claim"),
    Breakage("proof.refuted_verdict", P, "return verdict == Verdict.REFUTED", "return False",
             "a refuted claim's broken step is never located"),
    # -- readings and the gate
    Breakage("reading.disagree", G, "return len({OUTCOME[v] for v in verdicts if v in OUTCOME}) > 1",
             "return len(set(verdicts)) > 1", "an undecided reading makes a claim reading-sensitive"),
    Breakage("gate.expected", G, "return verdict == Verdict.REFUTED and still_refutes, note",
             "return verdict == Verdict.REFUTED, note", "a recorded witness that no longer refutes passes the gate"),
    Breakage("gate.expected", G, "    if recorded_refutation and verdict in UNDECIDED:", "    if False:",
             "a run that cannot reproduce a recorded refutation (inconclusive) fails the gate without --strict"),
    Breakage("gate.expected", G, "    if verdict == Verdict.VACUOUS and recorded_vacuity:",
             "    if verdict == Verdict.VACUOUS:", "an unrecorded vacuous bound passes the gate"),
    Breakage("gate.expected", G, "        return False, \"the check failed with an error: the claim was not checked\"",
             "        return True, \"the check failed with an error: the claim was not checked\"",
             "an error passes the gate"),
    Breakage("gate.outcome", G, "    if not result.expected or (strict and undecided):",
             "    if not result.expected:", "--strict lets undecided verdicts pass"),
    Breakage("gate.outcome", G, "    return \"undecided\" if undecided else \"pass\"", "    return \"pass\"",
             "undecided verdicts are reported as passing"),
    # -- the guarantees outside the rules (README, "Guarantees"), broken the same way
    Breakage("guarantee.every_candidate_decided", "theorems/engine/check.py", "    tracker.confirm_best()\n", "",
             "a part's best subject is judged on its float values alone"),
    Breakage("guarantee.every_candidate_decided", "theorems/engine/search.py",
             'tracker.probe(family, subject, found_by="exhaustive", always=True)',
             'tracker.probe(family, subject, found_by="exhaustive")', "a listed example the float screen passes is never "
             "evaluated at 60 digits"),
    Breakage("guarantee.pure_quantities", "theorems/engine/culprit.py", "        _check_pure(family, subject, list(symbols), xp)",
             "        pass", "a quantity drawing unseeded random numbers or editing its subject gives a verdict"),
    Breakage("guarantee.culprit_named", "theorems/engine/culprit.py", "    if isinstance(value, bool) or not (",
             "    if False and (", "a quantity returning a string or None surfaces as an engine error, unnamed"),
    Breakage("guarantee.culprit_named", "theorems/engine/culprit.py", '        raise CulpritError(f"{what} raised {text} {where()}", plugin_frame(exc)) from exc',
             "        raise", "an exception inside a quantity names an engine file, not the quantity"),
    Breakage("guarantee.plugins_contained", "theorems/engine/registry.py",
             "        except SystemExit as exc:  # sys.exit or argparse at import or in register(): never the command's own exit",
             "        except ZeroDivisionError as exc:", "a plugin's sys.exit at import ends the audit with exit 0"),
    Breakage("guarantee.plugins_contained", "theorems/engine/registry.py",
             "        self._check_owner(claim.paper, f\"claim {claim.id!r}\")\n", "",
             "a plugin registers claims under another paper's prefix"),
    Breakage("guarantee.outputs_contained", "theorems/frontend/outdir.py",
             "    if path.is_dir() and any(path.iterdir()) and not (path / MARKER).is_file():",
             "    if False:", "--out inside a plugin folder replaces its recorded witnesses"),
    Breakage("guarantee.outputs_contained", "theorems/frontend/outdir.py",
             "            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)", "            pass",
             "two audits write one --out at once"),
    Breakage("guarantee.outputs_contained", "theorems/frontend/outdir.py",
             "        if self.replace and not self._committed:\n            shutil.rmtree(self.root, ignore_errors=True)",
             "        if False:\n            shutil.rmtree(self.root, ignore_errors=True)",
             "a failed audit leaves its half-written staging folder behind"),
    Breakage("guarantee.outputs_contained", "theorems/engine/claim.py",
             "CLAIM_ID = re.compile(r\"[a-z][a-z0-9_]*(\\.[a-z0-9][a-z0-9_\\-]*)+\")",
             "CLAIM_ID = re.compile(r\"[a-z][a-z0-9_]*(\\.[^ ]+)+\")", "a claim id with '../' writes outside --out"),
    Breakage("guarantee.clean_text", "theorems/frontend/text.py", "    out = _CONTROL.sub(lambda m: repr(m.group())[1:-1], str(text))",
             "    out = str(text)", "escape sequences in a witness clear the screen"),
    Breakage("guarantee.clean_text", "numerics/bounded_read.py", "            raise ValueError(f\"the key {key!r} appears twice in one object\")",
             "            pass", "a witness with a key twice is read with whichever value came last"),
    Breakage("guarantee.clean_text", "numerics/env.py", "    raise EnvironmentValueError(f\"{name}={raw!r}: use 1 or 0 (also true/false, yes/no, on/off)\")",
             "    return True", "CLCHECK_DEBUG=maybe turns debugging on"),
    Breakage("guarantee.bounded", "numerics/proc.py", "        os.killpg(proc.pid, signal.SIGKILL)", "        proc.kill()",
             "a hung prover's child process outlives it"),
    # -- the kinds
    Breakage("claim.not_encodable", K, "return Judgement(Verdict.NOT_ENCODABLE, reason)",
             "return Judgement(Verdict.UNTESTED, reason)", "a lost statement reads untested"),
    Breakage("claim.definition", K, "return Judgement(Verdict.DEFINITION, f\"a definition: {defines}\")",
             "return Judgement(Verdict.CONSISTENT, f\"a definition: {defines}\")", "a definition reads consistent"),
    Breakage("claim.pending", K, "return Judgement(Verdict.UNTESTED, \"not checked\")",
             "return Judgement(Verdict.CONSISTENT, \"not checked\")", "a claim not yet checked reads consistent"),
    Breakage("claim.error", K, "return Judgement(Verdict.ERROR, what)", "return Judgement(Verdict.UNTESTED, what)",
             "a crashed check reads untested"),
    Breakage("claim.sharp_certified", K, "return bool(declared and results and all(c.ok and c.complete for c in results))",
             "return bool(declared)", "a sharp constant is labelled certified on the plugin's word"),
    Breakage("claim.sharp_certified", K, "all(c.ok and c.complete for c in results))",
             "all(c.ok for c in results))", "a certificate on part of the domain certifies the sharp constant"),
    Breakage("claim.qualitative", K, "    return \" \".join(qualitative.split())", "    return \"\"",
             "a check of only the surviving content reads as the whole statement checked"),
    Breakage("mutate.outcome", M, "    if replayed or Verdict.REFUTED in verdicts:\n        return KILLED\n    if shown_true:",
             "    if shown_true:\n        return TRUE\n    if replayed or Verdict.REFUTED in verdicts:",
             "a certificate outranks a refutation of the mutant"),
    Breakage("mutate.outcome", M, "    if replayed or Verdict.REFUTED in verdicts:", "    if Verdict.REFUTED in verdicts:",
             "a weaker mutant's witness that violates this mutant is ignored"),
    Breakage("mutate.outcome", M, "    if Verdict.ERROR in verdicts or not verdicts:", "    if not verdicts:",
             "a mutant whose check failed reads survived"),
    Breakage("mutate.outcome", M, "    if all(v in (Verdict.UNTESTED, Verdict.VACUOUS) for v in verdicts):",
             "    if False:", "a mutant no subject could refute counts as a miss of the search"),
    Breakage("mutate.sensitivity", M, "    missed = [Fraction(o[\"amount\"]) for o in moved if o[\"outcome\"] == SURVIVED]",
             "    missed = [Fraction(o[\"amount\"]) for o in moved if o[\"outcome\"] in (SURVIVED, TRUE)]",
             "a true mutant counts as a miss of the search"),
    Breakage("mutate.sensitivity", M, "str(min(killed)) if killed", "str(max(killed)) if killed",
             "the sensitivity is the largest refuted move"),
    Breakage("claim.by_construction", K, "    return \"; \".join(reasons)", "    return \"\"",
             "a check that holds by construction reads as evidence"),
    Breakage("claim.by_construction", K, "if not reasons or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR)",
             "if not reasons or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR, Verdict.UNTESTED)",
             "an untested verdict left by checks that hold by construction loses its mark"),
    Breakage("claim.reconstructed", K, "    return \" \".join(reconstructed.split())", "    return \"\"",
             "a verdict on the checker's reconstruction reads as the paper's statement checked"),
    Breakage("claim.reconstructed", K, "reconstructed.strip() or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR)",
             "reconstructed.strip() or verdict in (Verdict.NOT_ENCODABLE, Verdict.DEFINITION, Verdict.ERROR, Verdict.REFUTED)",
             "a refutation of a reconstruction loses its mark"),
]


@dataclass
class Outcome:
    breakage: Breakage
    caught: bool
    seconds: float
    detail: str

    @property
    def ok(self) -> bool:
        return self.caught != bool(self.breakage.equivalent)


def applies(b: Breakage) -> str | None:
    """Why the breakage cannot be applied (its text is not in the file exactly once), or None."""
    path = ROOT / b.file
    if not path.is_file():
        return f"{b.file} does not exist"
    count = path.read_text().count(b.old)
    return None if count == 1 else f"the text to replace occurs {count} times in {b.file}"


#: the third-party modules every rule test imports, loaded once by the runner: each breakage's pytest runs in a fork
#: of it (the theorems, numerics and training packages and the test modules are imported afresh from the copy)
PRELOAD = ("numpy", "scipy", "scipy.special", "scipy.stats", "sympy", "mpmath", "hypothesis", "pytest", "typer",
           "rich", "networkx", "torch", "xdist")
FRESH = ("theorems", "numerics", "training", "conftest", "coq_support", "rule_breakages", "thin_mutants")


def _preload() -> None:
    import importlib  # noqa: PLC0415 - only the runner's own process needs it

    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # an optional one: the child imports what it needs
            continue


def _prepare(b: Breakage, tmp: str) -> None:
    """The copy of the packages with ``b`` applied, in ``tmp``."""
    shutil.copytree(ROOT / "theorems", Path(tmp) / "theorems",
                    ignore=shutil.ignore_patterns("*.v", "witnesses"))
    shutil.copytree(ROOT / "numerics", Path(tmp) / "numerics")
    for kept in ("witnesses", "coq"):  # package data some imports read: linked, not copied
        for src in (ROOT / "theorems").rglob(kept):
            dst = Path(tmp) / src.relative_to(ROOT)
            if src.is_dir() and not dst.exists():
                dst.symlink_to(src)
    target = Path(tmp) / b.file
    target.write_text(target.read_text().replace(b.old, b.new, 1))


def _command(b: Breakage, only_rule: bool) -> list[str]:
    args = ["-q", "-x", "--assert=plain", "-p", "no:cacheprovider", "-p", "no:xdist", "--rootdir", str(ROOT), "-c",
            str(ROOT / "pyproject.toml"), "-W", "ignore", *_selection(b)]
    return args + (["--only-rule", b.rule] if only_rule else [])


def _fork_pytest(args: list[str], tmp: str, out: Path) -> int:
    """Start pytest ``args`` in a fork whose ``theorems`` and ``numerics`` come from ``tmp``; its output to ``out``."""
    pid = os.fork()
    if pid:
        return pid
    code = 3
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.chdir(tmp)
        os.environ.update(PYTHONDONTWRITEBYTECODE="1", OMP_NUM_THREADS="1",
                          PYTHONPATH=tmp + os.pathsep + os.environ.get("PYTHONPATH", ""))
        sys.dont_write_bytecode = True
        sys.path.insert(0, tmp)
        for name in [m for m in sys.modules if m.split(".")[0] in FRESH or m.split(".")[0].startswith("test_")]:
            del sys.modules[name]
        import pytest  # noqa: PLC0415 - preloaded: the fork's own reference

        code = int(pytest.main(args))
    except BaseException:  # noqa: BLE001 - anything that stops pytest is "could not run"
        code = 3
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


@dataclass
class _Running:
    breakage: Breakage
    tmp: tempfile.TemporaryDirectory
    out: Path
    only_rule: bool
    start: float


def run_all(breakages: list[Breakage], jobs: int, timeout: float = 600.0) -> list[Outcome]:
    """Each breakage's rule tests in a fork of this process (``jobs`` at once): the rows pinned to its rule first
    (fast), then, if they do not catch it, every test the breakage names."""
    _preload()
    outcomes: dict[int, Outcome] = {}
    queue = list(enumerate(breakages))
    running: dict[int, tuple[int, _Running]] = {}

    def start(index: int, b: Breakage, only_rule: bool, tmp: tempfile.TemporaryDirectory | None = None,
              began: float | None = None) -> None:
        if tmp is None:
            tmp = tempfile.TemporaryDirectory(prefix="rule-breakage-")
            _prepare(b, tmp.name)
        out = Path(tmp.name) / f"pytest-{int(only_rule)}.out"
        pid = _fork_pytest(_command(b, only_rule), tmp.name, out)
        running[pid] = (index, _Running(b, tmp, out, only_rule, began or time.perf_counter()))

    while queue or running:
        while queue and len(running) < max(1, jobs):
            index, b = queue.pop(0)
            problem = applies(b)
            if problem:
                outcomes[index] = Outcome(b, False, 0.0, problem)
                continue
            start(index, b, only_rule=not b.rule.startswith("guarantee."))
        if not running:
            continue
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            for child, (index, r) in list(running.items()):
                if time.perf_counter() - r.start > timeout:
                    os.kill(child, 9)
            time.sleep(0.02)
            continue
        index, r = running.pop(pid)
        code = os.waitstatus_to_exitcode(status)
        last = (r.out.read_text(errors="replace").strip().splitlines() or [""])[-1]
        if r.only_rule and code != 1:  # the pinned rows did not catch it: every test the breakage names
            start(index, r.breakage, only_rule=False, tmp=r.tmp, began=r.start)
            continue
        seconds = time.perf_counter() - r.start
        r.tmp.cleanup()
        if code not in (0, 1):
            outcomes[index] = Outcome(r.breakage, False, seconds, f"pytest could not run (exit {code}): {last}")
        else:
            outcomes[index] = Outcome(r.breakage, code == 1, seconds, last)
    return [outcomes[i] for i in range(len(breakages))]


def _selection(b: Breakage) -> list[str]:
    """The test files (and ``-k`` expression) that must catch ``b``."""
    if b.rule in GUARANTEE_TESTS or b.rule == "guarantee.all":
        select = GUARANTEE_TESTS.get(b.rule) or " or ".join(sorted(set(GUARANTEE_TESTS.values())))
        return ["-k", select, *(str(ROOT / t) for t in HOSTILE_TESTS)]
    return [str(ROOT / t) for t in b.tests]


UNBROKEN = Breakage("compare.tolerance", C, "RTOL = 1e-9", "RTOL = 1e-9", "nothing: the rule tests as they are")
UNBROKEN_GUARANTEES = Breakage("guarantee.all", C, "RTOL = 1e-9", "RTOL = 1e-9", "nothing: the guarantees' tests")
CANARY = Breakage("compare.violation", C, "return bool(margin > tol)", "return not bool(margin > tol)",
                  "the canary: every verdict turned over (if this passes, the copy is not what the tests import)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="breakages run at once (default 2)")
    parser.add_argument("--only", action="append", default=[], help="only the breakages of this rule (repeatable)")
    args = parser.parse_args(argv)
    chosen = [b for b in BREAKAGES if not args.only or b.rule in args.only]
    if not chosen:
        print(f"no breakage of {args.only}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    # the baselines first in the same queue (the breakages do not wait for them; they are judged only if the
    # baselines pass)
    unbroken, guarantees, canary, *outcomes = run_all([UNBROKEN, UNBROKEN_GUARANTEES, CANARY, *chosen], args.jobs)
    for baseline in (unbroken, guarantees):
        if baseline.caught or "passed" not in baseline.detail:
            print(f"the tests fail without any breakage ({baseline.detail}): fix them first", file=sys.stderr)
            return 2
    if not canary.caught:
        print(f"the canary breakage was not caught ({canary.detail}): the rule tests do not import the patched copy",
              file=sys.stderr)
        return 2
    for o in outcomes:
        status = ("caught" if o.caught else "SURVIVED") if not o.breakage.equivalent else \
            ("equivalent (passes)" if not o.caught else "EQUIVALENT BUT CAUGHT")
        print(f"{status:22} {o.breakage.rule:36} {o.breakage.why[:70]}  [{o.seconds:.1f} s]")
        if not o.ok:
            print(f"{'':22} {o.detail}")
    bad = [o for o in outcomes if not o.ok]
    equivalent = sum(bool(o.breakage.equivalent) for o in outcomes)
    print(f"{len(outcomes) - equivalent - sum(1 for o in bad if not o.breakage.equivalent)} of "
          f"{len(outcomes) - equivalent} breakages caught; {equivalent} marked equivalent; "
          f"{time.perf_counter() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
