"""Audit reports: ``report.json`` (read by other tools) and ``report.md`` (read by people)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from numerics.coq import write_scripts  # coq/<name>.v and coq/check.sh: re-check the formal proofs by hand
from numerics.files import write_text_atomic
from theorems.engine.rules.compare import ATOL, CONFIRM_DPS, RTOL
from theorems.engine.rules.gate import gate
from theorems.engine.rules.mutate import sensitivity_text
from theorems.engine.verdict import ClaimResult

REPORT_VERSION = 2


def report_json(results: list[ClaimResult], seed: int, budget: dict[str, Any],
                planned: list[str] | None = None) -> dict[str, Any]:
    done = [r.id for r in results]
    missing = [c for c in planned or done if c not in done]
    return {
        "version": REPORT_VERSION,
        "seed": seed,
        "budget": budget,
        "partial": bool(missing),
        "claims_missing": missing,
        "claims": [_sanitize(r.to_json()) for r in results],
    }


def _sanitize(obj: Any) -> Any:
    """JSON has no inf/nan: write them as strings."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _sanitize(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_sanitize(v) for v in obj]
    return obj


def fmt(x: float | None, digits: int = 4) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return f"{x:.{digits}g}"


def verdict_text(r: ClaimResult) -> str:
    """The verdict with what qualifies it (a checker-derived constant, a witness found, ...)."""
    return r.verdict_label + (f" ({'; '.join(r.qualifiers)})" if r.qualifiers else "")


def verdict_counts(results: list[ClaimResult]) -> str:
    """How many claims got each verdict, each mark counted apart (ClaimResult.marks): a proof that rests on
    unproved named results (modulo), a consistent experiment that could not have refuted its statement
    (one-sided), a check of only the qualitative content that survives of a statement (qualitative), a verdict on
    the checker's reconstruction of a statement (reconstructed), and a claim some of whose checks hold by the
    checker's own construction (checks by construction: no evidence either way)."""
    counts: dict[str, int] = {}
    for r in results:
        key = r.verdict.value + "".join(f" ({MARK_COUNTED[m]})" for m in r.marks)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{key} {n}" for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


#: how each mark of ClaimResult.marks reads in the verdict counts
MARK_COUNTED = {"modulo": "modulo named results", "one-sided": "one-sided", "qualitative": "qualitative",
                "reconstructed": "reconstructed", "by construction": "checks by construction"}


def cell(text: str) -> str:
    """Text for one cell of a markdown table: on one line (a message's newlines would end the row), pipes
    escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def evidence(r: ClaimResult) -> str:
    """Certificate methods or the witness, for the table's last column (one line, pipes escaped)."""
    return cell(_evidence(r))


def _evidence(r: ClaimResult) -> str:
    if r.witness is not None:
        return f"witness: {r.witness['description']}"
    if r.certificate:
        ok = [c for c in r.certificate if c["ok"]]
        if ok:
            return "; ".join(f"{c['method']} ({c['domain']})" for c in ok)
        return "certificate attempt failed"
    return r.reason or ""


def markdown(results: list[ClaimResult], seed: int, budget: dict[str, Any], missing: list[str] | None = None) -> str:
    lines = [
        "# clcheck audit",
        "",
        *([f"**PARTIAL REPORT**: the audit was interrupted; not checked: {', '.join(missing)}.", ""] if missing else []),
        f"Seed {seed}; budget per claim: {budget}. Tolerance policy: see README (RTOL={RTOL:g}, ATOL={ATOL:g};"
        f" violations confirmed at {CONFIRM_DPS} digits).",
        "",
        f"Verdicts: {verdict_counts(results)}.",
        "",
        *([f"Reused from the verdict store, after their witnesses and best subjects replayed: "
           f"{sum(r.reused for r in results)} of {len(results)} claims (marked *reused*; `--fresh` searches them "
           "again).", ""] if any(r.reused for r in results) else []),
        "Examples: random + adversarial; informative: subjects on which the check could have failed "
        "(see README, Reading a verdict). Slack and ratio over informative subjects.",
        "",
        "| id | source | kind | verdict | examples | informative | min slack | worst ratio | certificate or witness "
        "| expected |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        examples = f"{r.examples}+{r.adversarial_examples} adv"
        lines.append(
            f"| `{cell(r.id)}` | {cell(r.source)} | {r.kind} | **{cell(verdict_text(r))}**{' *reused*' if r.reused else ''} "
            f"| {examples} | {r.nontrivial_examples} | "
            f"{fmt(r.informative_min_slack)} | {fmt(r.informative_worst_ratio)} | {evidence(r)} | "
            f"{ {'pass': 'yes', 'undecided': 'undecided', 'fail': 'NO'}[gate(r)]} |"
        )
    lines += ["", "## Details", ""]
    for r in results:
        lines += _details(r)
    return "\n".join(lines) + "\n"


def _details(r: ClaimResult) -> list[str]:
    out = [f"### `{r.id}` -- {verdict_text(r)}", "", f"Statement: `{r.statement}`", "",
           f"Source: {r.source}. Time {r.seconds:.1f} s"
           + (" (the stored check's: reused, its evidence replayed)." if r.reused else "."), ""]
    out += logical_form(r) + [""]
    if r.subjects:
        kinds = ", ".join(f"{name} ({r.subject_kinds.get(name, 'random')}): {n}" for name, n in r.subjects.items())
        out.append(f"Subjects: {kinds}; rejected by the hypotheses: {r.rejected}; "
                   f"float candidates re-evaluated in high precision: {r.candidates}.")
    if r.float_screen:
        fs = r.float_screen
        out.append(f"Float screen audit: {fs['audited']} examples re-evaluated in mpmath, largest "
                   f"float-vs-mpmath margin difference {fs['max_error_in_tol']:.2g} tolerances"
                   + (" -- UNRELIABLE: every example was confirmed in high precision" if fs["unreliable"] else ".")
                   + (f" Skipped on {fs['skipped_large_subjects']} subjects too large for mpmath (their candidate "
                      "parts were still confirmed)." if fs.get("skipped_large_subjects") else "")
                   + (f" {fs['unconfirmed_candidates']} float candidates were left unconfirmed (no "
                      "high-precision value, or large subjects of a claim already refuted)."
                      if fs.get("unconfirmed_candidates") else ""))
    for p in r.parts:
        info = p.informative
        out.append(f"- part `{p.label}`: {p.nontrivial_examples} of {p.examples} subjects informative; over them "
                   f"min slack {fmt(info.min_slack)} (at {info.min_slack_subject or '-'}), worst ratio smaller side / "
                   f"larger side {fmt(info.worst_ratio)} (at {info.worst_ratio_subject or '-'}); over all subjects "
                   f"min slack {fmt(p.min_slack)}, worst ratio {fmt(p.worst_ratio)}"
                   + (f"; uninformative: {', '.join(f'{k} ({n})' for k, n in p.trivial_reasons.items())}"
                      if p.trivial_reasons else ""))
    for i, t in enumerate(r.tightness, 1):
        if t["best_ratio"] is None:
            out.append(f"- tightness of `{t['part']}`: no informative subject with a positive larger side")
            continue
        out.append(f"- tightness of `{t['part']}`: best {t['measure']} {fmt(t['best_ratio'], 6)} ({t['precision']}; found by "
                   f"{t['found_by']}; witness `witnesses/{r.id}.tight{i}.json`, `clcheck replay` re-evaluates it)"
                   + "".join(f"; {s['text']}" for s in t.get("sharp_constants", ()))
                   + (f"; left out: {t['degenerate']['subjects']} equality subject(s) whose sides are equal whatever "
                      f"the part's constants (e.g. {t['degenerate']['example']})" if t.get("degenerate") else ""))
    out += sensitivity_lines(r)
    out += asymptotic_lines(r.asymptotic) + reach_lines(r.reach)
    if r.certificate:
        for c in r.certificate:
            out.append(f"- certificate [{c['method']}] {'PROVED' if c['ok'] else 'not proved'}: "
                       f"{c['statement']} on {c['domain']} ({c['seconds']:.2f} s)")
    for role, w in (("minimal witness", r.witness), ("worst violation", r.worst_violation)):
        if w is not None:
            out.append(f"- {role} ({w['found_by']}): {w['description']}")
            for part in w.get("parts", []):
                if part["violated"]:
                    relation = part.get("relation", part["part"])
                    out.append(f"  - `{relation}` fails: left side {part['lhs']}, right side {part['rhs']} "
                               f"(violated by {part['margin']})")
    if r.reason:
        reason = str(r.reason).replace("\n", "\n  ")  # a message's further lines stay inside its list item
        out.append(f"- {'measured' if r.experiment else 'reason'}: {reason}")
    if r.experiment:
        params = ", ".join(f"{k}={v}" for k, v in r.experiment["parameters"].items())
        out.append(f"- parameters: {params}")
        for check in r.experiment.get("regime", []):
            out.append(f"- regime: {check['name']} -- {check['text']}: measured {check['value']}, required "
                       f"{check['required']}: {'holds' if check['holds'] else 'FAILS'}")
        if r.experiment.get("configurations"):
            out += ["", "Verdict map (every configuration):", "", *_configuration_table(r.experiment["configurations"])]
    if r.expected_note:
        out.append(f"- expectation: {r.expected_note}")
    if r.part_status:
        out.append("- part status: " + "; ".join(f"`{k}`: {v.value}" for k, v in r.part_status.items()))
    for section in r.artifacts:
        out += ["", section]
    out.append("")
    return out


def sensitivity_lines(r: ClaimResult) -> list[str]:
    """Beside a consistent claim, each inequality part's sensitivity from the last `clcheck mutate` (the tightness
    row's ``sensitivity``, or "not measured"): how much stronger a statement this search refutes."""
    if r.verdict.value != "consistent":
        return []
    return [f"- sensitivity of `{t['part']}`: {sensitivity_text(t.get('sensitivity'))}"
            + (f" (mutate, seeds {', '.join(map(str, t['sensitivity']['seeds']))}, profile "
               f"{t['sensitivity']['profile']})" if t.get("sensitivity") else "") for t in r.tightness]


def asymptotic_lines(measured: list[dict[str, Any]]) -> list[str]:
    """One line per asymptotic part and witness family: what the family moves, whether the prefix lets it count,
    the ratio |lhs|/g and its exact limit or its fit, and the family's verdict."""
    out = []
    for m in measured:
        what = (f"|lhs|/g = `{m['ratio']}`, limit `{m['limit'] or '-'}` (sympy)" if m["source"] == "closed form" else
                f"|lhs|/g on {len(m['xs'])} values of {m['index']}" + (
                    f", log-log slope {m['slope']:.3f} +- {m['stderr']:.3f}" if m["slope"] is not None else ""))
        counted = "counts" if m["valid"] else f"does NOT count ({m['why_invalid']})"
        out.append(f"- asymptotic `{cell(m['part'])}` along {cell(m['family'])} (moves {', '.join(m['moves'])}; "
                   f"{counted}): {what}; {m['verdict']}: {cell(m['why'] or m['error'])}")
    return out


def reach_lines(rows: list[dict[str, Any]]) -> list[str]:
    """One line per reachability row: the configuration or the adversary's data set, the certified lower bound on
    the infimum of the conclusion's quantity, a value it takes, and the row's verdict."""
    out = []
    for row in rows:
        if "kind" in row:
            where = f"data set `{row['kind']}` ({row['tries']}; {row['size']} items)"
            if not row["admissible"]:
                out.append(f"- data adversary: {where}: not admitted by the hypotheses ({', '.join(row['failed'])})")
                continue
        else:
            where = f"{row['reach']} at {row['config']}"
        bound = (f"error: {row['error']}" if row.get("error") else
                 f"certified inf >= {row.get('lower_text', '-')}" + (f" (exactly {row['exact']})" if row.get("exact")
                                                                     else "")
                 + f", a value taken {row.get('upper_text', '-')}")
        trained = f"; short training run: final {fmt(row['trained']) if isinstance(row['trained'], float) else row['trained']}" \
            if "trained" in row else ""
        verdict = f"; {row['verdict']}: {cell(row['why'])}" if row.get("verdict") else ""
        out.append(f"- reachability: {cell(where)}: {bound}{trained}{verdict}")
    return out


def logical_form(r: ClaimResult) -> list[str]:
    """The claim's prefix and its readings with their verdicts (markdown lines)."""
    prefix = ", ".join(f"{'∀' if b['quantifier'] == 'forall' else '∃'} {b['name']}"
                       + (f"({', '.join(b['depends_on'])})" if b["quantifier"] == "exists" and b["depends_on"] else "")
                       + (f" ∈ {b['over']}" if b["over"] else "")
                       + (f" [the constant of {b['asymptotic']}]" if b["asymptotic"] else "") for b in r.prefix)
    out = [f"Prefix: {prefix}" if prefix else "Prefix: not declared"]
    if len(r.readings) <= 1:
        out.append("Readings: one reading (the literal one)." if r.readings else "Readings: not checked.")
        return out
    out.append("Readings" + (" (**reading-sensitive**: decided readings disagree):" if r.reading_sensitive else ":"))
    for i, reading in enumerate(r.readings):
        hyp = "; ".join(reading["hypotheses"]) or "none beyond the prefix"
        out.append(f"- {'literal (headline)' if i == 0 else reading['name']} -- {reading['rests_on']}: "
                   f"**{reading['verdict']}**" + (f" ({reading['reason'][:300]})" if reading["reason"] else "")
                   + f"; hypotheses: {hyp}" + (f"; prefix: {reading['prefix']}" if i and reading["prefix"] else ""))
    return out


def _configuration_table(rows: list[dict[str, Any]]) -> list[str]:
    """The verdict map: one row per configuration (its settings, verdict, why, per-seed outcomes, values)."""
    flat = []
    for row in rows:
        config = row.get("config", {}) if isinstance(row.get("config"), dict) else {"config": row.get("config")}
        outcome = "".join("+" if h else "-" if h is False else "?" for h in row.get("holds", []))
        flat.append({**config, "verdict": row.get("verdict"), "why": row.get("why", ""), "note": row.get("note", ""),
                     "per seed (+ holds)": outcome, "at init": row.get("at_init"),
                     **{k: v for k, v in row.items() if k not in ("config", "verdict", "why", "note", "holds", "at_init", "seeds",
                                                                  "part", "informative", "weak")
                        and not isinstance(v, (list, dict))}})
    keys = list(dict.fromkeys(k for row in flat for k in row))
    out = ["| " + " | ".join(cell(k) for k in keys) + " |", "| " + " | ".join("---" for _ in keys) + " |"]
    for row in flat:
        out.append("| " + " | ".join(fmt(row.get(k)) if isinstance(row.get(k), float) else cell(row.get(k, ""))
                                      for k in keys) + " |")
    return out


def write_reports(results: list[ClaimResult], seed: int, out_dir: Path, budget: dict[str, Any],
                  planned: list[str] | None = None, coverage: dict[str, dict[str, int]] | None = None) -> None:
    """report.json and report.md (each written atomically); ``planned`` lists the claims the audit
    meant to check, so an interrupted audit's reports say which are missing. ``coverage``: paper prefix ->
    its statement counts (:func:`theorems.engine.coverage.counts`); empty: the source files were not found."""
    out_dir.mkdir(parents=True, exist_ok=True)
    data = report_json(results, seed, budget, planned)
    if coverage is not None:
        data["coverage"] = coverage
    text = markdown(results, seed, budget, data["claims_missing"])
    if coverage is not None:
        text += "\n" + "\n".join(coverage_markdown(coverage)) + "\n"
    write_text_atomic(out_dir / "report.json", json.dumps(data, indent=2, default=str))
    write_text_atomic(out_dir / "report.md", text)

    write_scripts((), out_dir, claims={r.id: coq_certificates(r) for r in results})


def coq_certificates(r: ClaimResult) -> list[dict[str, Any]]:
    """The certificates of a claim, of the steps of its printed proof chains and of its sharp constants
    (write_scripts keeps the Coq ones)."""
    return (list(r.certificate or ()) + [c for chain in r.proof_chains for c in chain.get("coq", ())]
            + [c for row in r.tightness for s in row.get("sharp_constants", ()) for c in s.get("certificates", ())])


def coverage_markdown(coverage: dict[str, dict[str, int]]) -> list[str]:
    """The coverage section of report.md: a row per paper (``clcheck coverage`` lists the statements)."""
    if not coverage:
        return ["## Coverage", "", "coverage: source files not found"]
    lines = ["## Coverage", "", "Numbered statements of each paper's source files and how many the claims cover "
             "(`clcheck coverage --paper <prefix>` lists them).", "",
             "| paper | numbered | covered | checked (qualitative) | reconstructed only | by construction only "
             "| not encodable | definitions | missing |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for prefix, n in coverage.items():
        lines.append(f"| {cell(prefix)} | {n['numbered']} | {n['covered']} | {n.get('qualitative', 0)} | "
                     f"{n.get('reconstructed', 0)} | {n.get('by_construction', 0)} | {n['not_encodable']} | "
                     f"{n.get('definitions', 0)} | {n['missing']} |")
    return lines
