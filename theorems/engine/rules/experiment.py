"""The verdict rules of experiment claims: where an experiment's measurements become a verdict.

An experiment returns measurements (:class:`~theorems.engine.experiment.Observation`,
:class:`~theorems.engine.experiment.Growth`, certificates); a claim declares how its sentence
quantifies over models (``forall``, ``exists``, or ``settings`` the checker chose where the source is
silent). The rules, each pinned by ``tests/test_verdict_rules.py``:

* **one configuration** (:func:`observation_verdict`): outside its regime -> untested; the property
  held on every seed -> consistent, unless it already holds on the run's initialization or trivial
  baseline (then untested: uninformative); failed on every seed -> refuted; seeds disagree or a run
  cannot tell -> inconclusive, listing the seeds; fewer than :data:`MIN_SEEDS` seeds -> at most
  inconclusive (a deterministic computation has no seeds and needs none);
* **a verdict map** (:func:`read_map`), over the informative configurations inside the regime:
  ``settings``: consistent if all are, refuted if all are, else inconclusive; ``forall``: one refuted
  configuration refutes, consistent only if all are; ``exists``: one consistent configuration is a
  witness, refuted only if all are; no informative configuration -> untested;
* **growth** (:func:`growth_verdict`): a limit along the family (sympy) decides; else the log-log slope
  -- bounded (consistent), unbounded (refuted), or inconclusive in between;
* **the claim** (:func:`experiment_verdict`): a failed regime check -> untested; an existence claim is
  never refuted by a search that found nothing (untested, "no witness found"), but is refuted when a
  universal part stated beside it fails inside the regime; otherwise a refutation anywhere refutes,
  consistent needs every reading of the map and every growth measurement consistent; ``proved`` only
  when certificates cover the claim's whole printed domain (``complete``) -- a certificate at some
  values only is reported with its domain and gives at most ``consistent``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from theorems.engine.experiment import MIN_SEEDS, ExperimentOutcome, Growth, Observation, RegimeCheck
from theorems.engine.rules.compare import decide
from theorems.engine.rules.reach import reach_verdict
from theorems.engine.rules.table import Judgement, rule
from theorems.engine.verdict import Verdict

QUANTIFIERS = ("settings", "forall", "exists")
C, R, I, U = Verdict.CONSISTENT, Verdict.REFUTED, Verdict.INCONCLUSIVE, Verdict.UNTESTED


def outcomes(obs: Observation) -> list[bool | None]:
    """Each run's outcome, decided by the engine (compare.measured): a measured relation, an exact fact (a
    bool), or None when the run cannot tell."""
    return [None if h is None else decide(h) for h in obs.holds]


def regime_holds(check: RegimeCheck) -> bool:
    """A regime condition, decided by the engine when it is measured (compare.measured)."""
    return decide(check.holds)


def init_holds(obs: Observation) -> bool:
    """Whether the property already held at initialization or on the baseline: on any seed where ``at_init`` is
    per seed (the conservative reading: one untrained run that has it makes the configuration uninformative)."""
    entries = obs.at_init if isinstance(obs.at_init, tuple) else (obs.at_init,)
    return any(decide(v) for v in entries if v is not None)


@rule("experiment.observation")
def observation_verdict(obs: Observation) -> tuple[Verdict, str]:
    """One configuration: outside its regime -> untested; not run -> untested; a run that cannot tell ->
    inconclusive; a check that holds by the checker's own construction is no evidence either way (held: untested,
    uninformative; failed: inconclusive, the encoding is wrong); held on every seed -> consistent, unless it already
    holds on the run's initialization or baseline (untested: uninformative); failed on every seed -> refuted; seeds
    disagree -> inconclusive, listing them; fewer than MIN_SEEDS seeds -> at most inconclusive (a deterministic
    computation has no seeds)."""
    failed = [r for r in obs.regime if not regime_holds(r)]
    if failed:
        return U, "out of regime: " + "; ".join(r.describe() for r in failed)
    if not obs.holds:
        return U, "not run"
    held_on = outcomes(obs)
    undetermined = [s for s, h in zip(obs.seeds or range(len(held_on)), held_on) if h is None]
    if undetermined:
        return I, f"the run cannot tell on seeds {undetermined}"
    if obs.by_construction:  # it can fail only by a bug of the encoding: no evidence either way
        if all(held_on):
            return U, f"uninformative: holds by construction ({obs.by_construction})"
        return I, f"fails although it holds by construction ({obs.by_construction}): the encoding is wrong, not the paper"
    if all(held_on):
        if init_holds(obs):
            return U, f"uninformative: the property already holds on {obs.baseline}"
        verdict = C
    elif not any(held_on):
        verdict = R
    else:
        held = [s for s, h in zip(obs.seeds, held_on) if h]
        failed_on = [s for s, h in zip(obs.seeds, held_on) if not h]
        return I, f"seeds disagree: holds on seeds {held}, fails on seeds {failed_on}"
    if obs.seeds and len(obs.seeds) < MIN_SEEDS:
        return I, (f"{'held' if verdict == C else 'failed'} on all {len(obs.seeds)} seeds, but a verdict is read "
                   f"over at least {MIN_SEEDS}")
    return verdict, ""


@rule("experiment.map")
def read_map(rows: Sequence[dict[str, Any]], quantifier: str = "settings") -> Verdict:
    """A verdict map is read over its informative configurations inside the regime, as the sentence
    quantifies over models: ``settings`` (chosen by the checker): consistent if all are, refuted if all are,
    else inconclusive; ``forall``: one refuted configuration refutes, consistent only if all are; ``exists``:
    one consistent configuration is a witness, refuted only if all are; none informative -> untested."""
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"read_map: quantifier={quantifier!r} must be one of {', '.join(QUANTIFIERS)}")
    inside = [row["verdict"] for row in rows if row.get("in_regime", True) and row.get("informative", True)]
    inside = [v for v in inside if v != U]
    if not inside:
        return U
    if all(v == C for v in inside) or (quantifier == "exists" and C in inside):
        return C
    if all(v == R for v in inside) or (quantifier == "forall" and R in inside):
        return R
    return I


def map_witness(rows: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The first consistent configuration inside the regime: the witness of an existence map."""
    for row in rows:
        if row.get("in_regime", True) and row["verdict"] == C:
            return {k: v for k, v in row.get("config", row).items()
                    if isinstance(v, (str, int, float)) and k not in ("verdict", "in_regime")}
    return None


@dataclass(frozen=True)
class Fit:
    """Least squares of log(ratio) on log(k): the slope, its standard error, and whether the ratio rose
    over the last half of the range."""

    slope: float
    stderr: float
    rising: bool

    def text(self) -> str:
        return f"log-log slope {self.slope:.3f} +- {self.stderr:.3f}" + (", rising at the end" if self.rising else "")


def fit_growth(xs: Sequence[float], ratios: Sequence[float]) -> Fit:
    """The log-log fit of ``ratios`` against ``xs`` (at least two positive points)."""
    x, y = np.log(np.asarray(xs, dtype=float)), np.log(np.asarray(ratios, dtype=float))
    design = np.vstack([x, np.ones_like(x)]).T
    (slope, _), residual, *_ = np.linalg.lstsq(design, y, rcond=None)
    dof = len(x) - 2
    sigma2 = float(residual[0]) / dof if dof > 0 and residual.size else 0.0
    spread = float(np.sum((x - x.mean()) ** 2))
    stderr = math.sqrt(sigma2 / spread) if spread > 0 else math.inf
    half = np.asarray(ratios, dtype=float)[len(ratios) // 2:]
    return Fit(float(slope), stderr, bool(len(half) > 1 and np.all(np.diff(half) > 0)))


@rule("experiment.growth")
def growth_verdict(g: Growth) -> tuple[Verdict, str]:
    """Along a witness family: sympy's limit decides (infinite: refuted; finite: consistent); else the
    log-log slope: <= bounded_slope -> consistent (not a proof), >= unbounded_slope -> inconclusive with the fit
    (a measured growth never refutes), in between -> inconclusive;
    fewer than 3 positive finite points -> untested."""
    where = f"{g.name} along {g.parameter} = {g.xs[0]:g}..{g.xs[-1]:g}" if g.xs else g.name
    if g.limit is not None:
        note = f" ({g.limit_note})" if g.limit_note else ""
        if math.isinf(g.limit):
            return R, f"{where}: the limit is infinite{note}: it grows without bound"
        return C, f"{where}: the limit is {g.limit:.4g}{note}: bounded along this family"
    points = [(x, r) for x, r in zip(g.xs, g.ratios) if x > 0 and r > 0 and math.isfinite(r)]
    if len(points) < 3:
        return U, f"{where}: fewer than 3 positive finite points to fit"
    fit = fit_growth(*zip(*points))
    if fit.slope <= g.bounded_slope:
        return C, f"{where}: {fit.text()} <= {g.bounded_slope:g}: bounded along this family (not a proof)"
    if fit.slope >= g.unbounded_slope:
        return I, (f"{where}: {fit.text()} >= {g.unbounded_slope:g}: measured growth along this family (a fit, not "
                   "a certified bound: inconclusive)")
    return I, f"{where}: {fit.text()}: between bounded (<= {g.bounded_slope:g}) and unbounded (>= {g.unbounded_slope:g})"


def _decided(obs: Observation) -> list[bool | None]:
    """Each run's outcome as decided (a row of the report); an undecidable entry (a NaN side) is reported by
    observation_verdict's error, not here."""
    try:
        return outcomes(obs)
    except ValueError:
        return [None] * len(obs.holds)


def _plain_at_init(obs: Observation) -> Any:
    entries = obs.at_init if isinstance(obs.at_init, tuple) else (obs.at_init,)
    decided = [None if v is None else decide(v) for v in entries]
    return decided if isinstance(obs.at_init, tuple) else decided[0]


def observation_rows(observations: Sequence[Observation]) -> list[dict[str, Any]]:
    """One row per observation: its configuration, measured values, verdict and why."""
    rows = []
    for obs in observations:
        verdict, why = observation_verdict(obs)
        rows.append({"config": obs.config, "part": obs.part, "verdict": verdict, "why": why, "note": obs.note,
                     "in_regime": all(regime_holds(r) for r in obs.regime),
                     "informative": not (why.startswith("uninformative")), "seeds": list(obs.seeds),
                     "holds": _decided(obs), "at_init": _plain_at_init(obs), "weak": obs.weak,
                     "by_construction": obs.by_construction, **obs.values})
    return rows


@rule("experiment.claim")
def experiment_verdict(quantifier: str, outcome: ExperimentOutcome) -> Judgement:
    """An experiment claim: a failed regime check -> untested; an existence claim is consistent on a witness,
    refuted only when a universal part stated beside it fails inside the regime, otherwise untested ("no
    witness found"); else a refutation anywhere refutes, consistent needs the map and every growth
    measurement consistent, and certificates may then make it proved (experiment.certified)."""
    judgement = _experiment_judgement(quantifier, outcome)
    judgement.rule = "experiment.claim"
    return judgement


def _experiment_judgement(quantifier: str, outcome: ExperimentOutcome) -> Judgement:
    rows = observation_rows(outcome.observations)
    growth = [(g, *growth_verdict(g)) for g in outcome.growth]
    measured = f"Measured: {outcome.summary()}"
    out_of_regime = [r for r in outcome.regime if not regime_holds(r)]
    if out_of_regime:
        return Judgement(U, "out of regime: " + "; ".join(r.describe() for r in out_of_regime) + f". {measured}", rows)
    main = [r for r in rows if r["part"] == "main"]
    universal = [r for r in rows if r["part"] == "universal"]
    qualifiers = [f"weakly informative: {r['weak']}" for r in rows if r["weak"] and r["verdict"] == C]
    universal_verdict = read_map(universal, "forall") if universal else None
    if quantifier == "exists":
        if universal_verdict == R:
            failing = [r["config"] for r in universal if r["verdict"] == R]
            return Judgement(R, f"universal part violated at {failing}. {measured}", rows, qualifiers=qualifiers)
        if read_map(main, "exists") == C:
            witness = map_witness(main)
            return Judgement(C, measured, rows, witness, qualifiers + [f"witness found: {witness}"])
        return Judgement(U, f"no witness found at these settings (an existence claim is never refuted by a "
                            f"search). {measured}", rows, qualifiers=qualifiers)
    verdicts = ([read_map(main, quantifier)] if main else []) + [v for _, v, _ in growth]
    if universal_verdict is not None:
        verdicts.append(universal_verdict)
    reasons = [why for _, v, why in growth if v == R] or [why for _, v, why in growth]
    refuting = [r for r in main + universal if r["verdict"] == R and r["in_regime"] and r["informative"]]
    if refuting and (R in verdicts):
        reasons.insert(0, "refuted at " + "; ".join(f"{r['config']} ({r['why'] or 'failed on every seed'})"
                                                  for r in refuting[:3]))
    if not verdicts:
        return Judgement(U, f"nothing was measured. {measured}", rows)
    if R in verdicts:
        verdict = R
    elif all(v == C for v in verdicts):
        verdict = C
    elif I in verdicts:
        verdict = I
    else:
        verdict = U
    if verdict == U and main and not any(r["in_regime"] for r in main):
        reasons.insert(0, "out of regime: no configuration is inside the theorem's regime ("
                          + "; ".join(sorted({r["why"] for r in main if r["why"]}))[:300] + ")")
    elif verdict == U and main and not any(r["informative"] for r in main if r["in_regime"]):
        whys = sorted({r["why"] for r in main if r["in_regime"] and r["why"]})
        reasons.insert(0, "uninformative in every configuration inside the regime: " + ("; ".join(whys)[:300] or
                          "the property already holds on the untrained model or baseline"))
    disagreeing = [f"{r['config']}: {r['why']}" for r in main if r["verdict"] == I]
    if verdict == I and disagreeing:
        reasons.insert(0, "; ".join(disagreeing[:4]))
    modulo: list[str] = []
    if verdict == C and outcome.certificates:
        verdict, note = _certified(outcome.certificates, outcome.observations)
        qualifiers.append(note)
        if verdict == Verdict.PROVED:
            modulo = sorted({name for c in outcome.certificates for name in c.modulo})
    reason = "; ".join(reasons + [measured]) if reasons else measured
    return Judgement(verdict, reason, rows, qualifiers=qualifiers, modulo=modulo)


def refuting_evidence(judgement: Judgement, growth: Sequence[Growth]) -> dict[str, Any] | None:
    """What refutes an experiment claim, as a witness can name it: the first refuted configuration inside the
    regime (its config), else the first witness family that grows without bound (its name)."""
    for row in judgement.rows:
        if row["verdict"] == R and row["in_regime"] and row["informative"]:
            return {"config": row["config"], "part": row["part"], "seeds": row["seeds"], "holds": row["holds"],
                    "why": row["why"]}
    for g in growth:
        verdict, why = growth_verdict(g)
        if verdict == R:
            return {"growth": g.name, "why": why}
    return None


@rule("experiment.still_refutes")
def still_refutes(judgement: Judgement, growth: Sequence[Growth], recorded: dict[str, Any]) -> bool:
    """A recorded experiment witness still refutes when the configuration it names is refuted inside the
    regime, or the witness family it names still grows without bound."""
    if "growth" in recorded:
        return any(g.name == recorded["growth"] and growth_verdict(g)[0] == R for g in growth)
    return any(row["config"] == recorded.get("config") and row["verdict"] == R and row["in_regime"]
               for row in judgement.rows)


def observed_fact(obs: Observation) -> str:
    """What an observation checks, as a certificate's ``parts`` name it: its config's "fact" or "statement"
    (else the whole config)."""
    return str(obs.config.get("fact", obs.config.get("statement", obs.config)))


@rule("experiment.certified")
def _certified(certificates: Sequence[Any], observations: Sequence[Observation] = ()) -> tuple[Verdict, str]:
    """An experiment claim found consistent is proved when every certificate holds on the claim's whole printed domain and together they cover
    every observed fact (a certificate's ``parts`` name the facts -- :func:`observed_fact` -- it proves;
    None: all of them); else consistent, saying on which domain the certificates hold and
    which facts none covers."""
    ok = [c for c in certificates if c.ok]
    covered = {p for c in ok if c.complete and c.parts is not None for p in c.parts}
    whole = any(c.complete and c.parts is None for c in ok)
    uncovered = sorted({observed_fact(o) for o in observations if not whole and observed_fact(o) not in covered})
    if len(ok) == len(certificates) and all(c.complete for c in ok) and not uncovered:
        return Verdict.PROVED, "certified on the whole domain: " + "; ".join(f"{c.method} ({c.domain})" for c in ok)
    if len(ok) == len(certificates) and all(c.complete for c in ok):
        return C, ("certified on the whole domain for some facts only: "
                   + "; ".join(f"{c.method} ({c.domain})" for c in ok) + f"; tested only: {uncovered}")
    partial = "; ".join(f"{c.method} ({c.domain}){'' if c.complete else ' -- this range only'}" for c in ok)
    failed = [c.statement for c in certificates if not c.ok]
    return C, ("certified on part of the domain only: " + (partial or "none")
               + (f"; not certified: {failed}" if failed else ""))


@rule("experiment.unreachable")
def conclusion_unreachable(rows: Sequence[dict[str, Any]], judgement: Judgement) -> Judgement | None:
    """A conclusion the hypotheses make unreachable (reach.claim refutes: a certified infimum above a level the
    adversary picks afterwards) refutes the experiment claim whatever its runs show; the runs' rows stay in the
    report."""
    reached = reach_verdict(rows)
    if reached is None or reached.verdict != R:
        return None
    return Judgement(R, f"{reached.reason} -- whatever a run shows. The runs: {judgement.reason}", judgement.rows,
                     rule="experiment.unreachable")


@rule("experiment.asymptotic_unbounded")
def asymptotic_unbounded(measured: Sequence[dict[str, Any]], judgement: Judgement) -> Judgement | None:
    """An asymptotic part whose ratio a valid closed-form family certifiably drives past any constant (an exact
    limit: asymptotic.limit) refutes the experiment claim whatever its runs show -- only a family the prefix lets
    depend on the parameter counts; a measured growth never refutes."""
    refuting = [m for m in measured if m["valid"] and m["verdict"] == R]
    if not refuting:
        return None
    m = refuting[0]
    return Judgement(R, f"`{m['part']}` along {m['family']}: {m['why']} -- whatever a run shows. The runs: "
                        f"{judgement.reason}", judgement.rows, rule="experiment.asymptotic_unbounded")


@rule("experiment.hypotheses_unsatisfiable")
def hypotheses_unsatisfiable(proofs: Sequence[Any]) -> Judgement | None:
    """Certificates that hold and say the sentence's hypotheses can never hold together make an experiment claim
    vacuous (an implication with an impossible premise), with the proofs; no run is needed or counted. A failed
    certificate says nothing (None: the runs decide)."""
    held = [c for c in proofs if c.ok]
    if not held:
        return None
    return Judgement(Verdict.VACUOUS, "the hypotheses cannot hold together: " + "; ".join(
        f"{c.statement} [{c.method}, {c.domain}]" for c in held), rule="experiment.hypotheses_unsatisfiable")


@rule("experiment.one_sided_failure")
def one_sided_failure(judgement: Judgement, one_sided: str) -> Judgement:
    """A one-sided experiment (it can support but never refute its statement: ``one_sided`` says why -- an object
    the sentence leaves to the claim, fixed here at the checker's choice) whose runs fail is inconclusive, never
    refuted: the failure refutes only the checker's choice. A refutation that follows from the statement itself (a
    reachability row, an unbounded asymptotic family) is decided before this rule and stands."""
    if judgement.verdict != R or not one_sided:
        return judgement
    return Judgement(I, f"fails at the checker's choice, which the statement does not fix ({one_sided}): a failure "
                        f"there refutes only that choice. {judgement.reason}", judgement.rows,
                     qualifiers=judgement.qualifiers, rule="experiment.one_sided_failure")


@rule("experiment.one_sided")
def one_sided_label(verdict: Verdict, one_sided: str, premise_checked: bool) -> str:
    """An experiment that can support but never refute its universal statement (the claim says why in
    ``one_sided``) is labelled while it is consistent and no reachability check or data adversary was applied to
    it: ``consistent (one-sided: why)``, counted apart in the report."""
    return one_sided if verdict == C and one_sided and not premise_checked else ""
