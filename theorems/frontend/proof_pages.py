"""Step-checked proofs: read the plugins' proof pages, run each step's check, draw the blueprint graph.

Every numbered step of a page's "## Proof as printed" section ends with a tag

    [check: <claim id>]                       the whole claim covers the step
    [check: <claim id> part "<part label>"]   one part of a claim covers it
    [check: <ref>; <ref>]                     several checks
    [check: named <key>]                      an instance of a named result (Jensen, ...) whose
                                              hypotheses are checked (theorems.engine.named_results)
    [check: cert <key>]                       a registered certificate (sympy, z3, Coq, arb) of the step
    [check: assumption (<cited theorem>)]     a cited external theorem, taken on trust (shown as such)
    [check: unchecked (<reason>)]             nothing covers it

A page whose source gives no proof says so in its proof section with the comment
``<!-- proof: not printed (<what the source does instead, e.g. cites a textbook>) -->``; a
refuted claim then reports "proof not printed" instead of a broken step. A refuted step whose
refuting checks are all claims declared as notation slips (``notation_slip``), and which has a
certified or tested check of the reading the proof needs, is a *notation slip*: counted apart
from the mathematical errors.

(text in parentheses is commentary). A step's status is ``certified`` (every check is
certified), ``tested`` (checked numerically, not proved), ``refuted`` (a check refuted the
statement it covers: the printed proof breaks there), ``assumption`` (a cited external theorem,
the only kind of step taken on trust) or ``unchecked`` -- ``unchecked (circular)`` when its only check
is the page's own claim (the verdict the proof is meant to establish cannot check one of its steps). The dependency graph
joins each check to the claim whose proof uses it, plus the paper's structure edges
(e.g. Lemma 6 + Lemma 7 -> Theorem 1), coloured by verdict, the way a formalization
blueprint shows its progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from numerics.files import write_text_atomic
from theorems.engine.figures import save_figure, subplots
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict
from theorems.frontend.report import logical_form

TAG = re.compile(r"\[check:\s*(.*?)\]\s*\.?\s*$", re.S)
REF = re.compile(r'([a-z]+(?:\.[a-z0-9_]+)+)(?:\s+part\s+"([^"]+)")?')
STEP_START = re.compile(r"^(\d+)\.\s")
OUTSIDE_QUOTES_SEMICOLON = re.compile(r';(?=(?:[^"]*"[^"]*")*[^"]*$)')  # a ";" not inside a quoted part label
GENERATED_STATUS = re.compile(r"\*\*(certified|named-result|assumption|tested|refuted|unchecked)\b")
STATUS_ORDER = ("refuted", "unchecked", "assumption", "tested", "certified")
NOT_PRINTED = re.compile(r"<!--\s*proof:\s*not printed\s*\((.*?)\)\s*-->", re.S)
STEP_KINDS = ("certified", "named-result", "assumption", "tested", "refuted", "slip", "unchecked")
# a step checked by one part of a claim: a finite-range certificate is not a proof of the step
STEP_STATUS = {PartStatus.CERTIFIED: "certified", PartStatus.CERTIFIED_ON_RANGE: "tested", PartStatus.TESTED: "tested",
               PartStatus.REFUTED: "refuted", PartStatus.UNCHECKED: "unchecked"}
VERDICT_STATUS = {Verdict.PROVED: "certified", Verdict.CONSISTENT: "tested", Verdict.REFUTED: "refuted"}
COLOURS = {"certified": "#2e9d3a", "tested": "#a6dba0", "refuted": "#d7301f", "unchecked": "#bdbdbd",
           "not encoded": "#f0f0f0"}


@dataclass
class Step:
    number: int
    text: str
    refs: list[tuple[str, str | None]]
    status: str = "unchecked"
    cited: str | None = None  # a "[check: assumption (...)]" step: the cited theorem
    named: list[str] = field(default_factory=list)  # "[check: named <key>]": named-result instances
    certs: list[str] = field(default_factory=list)  # "[check: cert <key>]": registered certificates
    checks: list[dict[str, Any]] = field(default_factory=list)  # what the named results / certificates gave
    generated: bool = False  # a step of a section generated from a checked chain (status read from the page)
    slip: bool = False  # refuted only as printed ('='), while the reading the proof needs holds
    circular: bool = False  # its only check was its own claim: unchecked (circular)

    def status_text(self) -> str:
        return self.status + (" (notation slip)" if self.slip else " (circular)" if self.circular else "")


@dataclass
class Page:
    claim_id: str
    path: Path
    steps: list[Step] = field(default_factory=list)
    not_printed: str | None = None  # the source gives no proof: what it does instead


def _strip_comments(tag: str) -> str:
    """Drop (balanced) parenthesized commentary from a check tag, keeping quoted part labels."""
    out, depth, quoted = [], 0, False
    for ch in tag:
        if ch == '"' and depth == 0:
            quoted = not quoted
        if not quoted and ch == "(":
            depth += 1
            continue
        if not quoted and ch == ")" and depth:
            depth -= 1
            continue
        if depth == 0:
            out.append(ch)
    return "".join(out)


def parse_page(path: Path) -> Page:
    """The claim id (first heading) and the numbered steps of the proof section with their tags."""
    text = path.read_text()
    claim_id = text.splitlines()[0].lstrip("# ").strip()
    page = Page(claim_id, path)
    match = re.search(r"^## Proof as printed\n(.*?)(?=^## )", text, re.S | re.M)
    if not match:
        return page
    not_printed = NOT_PRINTED.search(match.group(1))
    page.not_printed = " ".join(not_printed.group(1).split()) if not_printed else None
    blocks: list[tuple[int, list[str]]] = []
    for line in match.group(1).splitlines():
        start = STEP_START.match(line)
        if start:
            blocks.append((int(start.group(1)), [line[start.end():]]))
        elif blocks and line.startswith("   "):
            blocks[-1][1].append(line.strip())
    for number, lines in blocks:
        body = " ".join(lines)
        tag = TAG.search(body)
        refs, named, certs = [], [], []
        for segment in (OUTSIDE_QUOTES_SEMICOLON.split(_strip_comments(tag.group(1))) if tag else []):
            words = segment.split()
            if len(words) >= 2 and words[0] in ("named", "cert"):
                (named if words[0] == "named" else certs).append(words[1].rstrip(".,"))
            else:
                refs += REF.findall(segment)
        cited = None
        if tag and tag.group(1).strip().startswith("assumption"):
            cited = tag.group(1).strip()[len("assumption"):].strip().strip("()").strip() or "a cited theorem"
            refs = []
        step = Step(number, TAG.sub("", body).strip(), [(cid, part or None) for cid, part in refs], cited=cited,
                    named=named, certs=certs)
        generated = GENERATED_STATUS.search(body) if not tag else None
        if generated:  # a step of a section generated from a checked chain: its status is written in it
            step.status, step.generated = generated.group(1), True
        page.steps.append(step)
    return page


def read_pages(papers: list[str] | None = None, directory: Path | None = None) -> list[Page]:
    """The proof pages of every registered paper (or of one folder), optionally filtered by id prefix.

    A page belongs to the paper whose prefix starts its claim id; a folder shared by several
    papers (this repository's proofs_md/) is read once per paper, each taking its own pages."""
    if directory is not None:
        sources = [(None, directory)]
    else:
        from theorems.engine.registry import papers as registered

        sources = [(p.prefix, p.pages) for p in registered() if p.pages is not None]
    pages: dict[Path, Page] = {}
    for prefix, folder in sources:
        for path in sorted(Path(folder).glob("*.md")):
            if path.name == "README.md" or path in pages:
                continue
            page = parse_page(path)
            if prefix is None or page.claim_id.split(".", 1)[0] == prefix:
                pages[path] = page
    out = sorted(pages.values(), key=lambda p: p.claim_id)
    if papers:
        out = [p for p in out if any(p.claim_id == x or p.claim_id.startswith(x.rstrip(".") + ".") for x in papers)]
    return out


def ref_status(claim_id: str, part: str | None, results: dict[str, ClaimResult]) -> str:
    result = results.get(claim_id)
    if result is None:
        return "unchecked"
    if part is not None:
        status = result.part_status.get(part)
        if status is None:
            raise KeyError(f"{claim_id} has no part labelled {part!r}: fix the tag in its proof page")
        return STEP_STATUS[status]
    return VERDICT_STATUS.get(result.verdict, "unchecked")


def combine(statuses: list[str]) -> str:
    """refuted if any check refutes; certified if all certify; named-result if all certify or are
    named results with checked hypotheses; tested if any tests; else unchecked."""
    if not statuses:
        return "unchecked"
    if "refuted" in statuses:
        return "refuted"
    if all(s == "certified" for s in statuses):
        return "certified"
    if all(s in ("certified", "named-result") for s in statuses):
        return "named-result"
    if any(s in ("tested", "certified", "named-result") for s in statuses):
        return "tested"
    return "unchecked"


_CHECK_CACHE: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}


def named_status(key: str) -> tuple[str, dict[str, Any]]:
    """A named-result instance: ``named-result`` when every hypothesis of the result is certified for it."""
    from numerics.certificate import timed
    from theorems.engine.named_results import named_step

    if ("named", key) not in _CHECK_CACHE:
        instance = named_step(key)
        if instance is None:
            raise KeyError(f"no named-result instance registered as {key!r}: fix the tag in its proof page")
        certs = {h: timed(fn) for h, fn in instance.checks.items()}
        ok = all(c.ok for c in certs.values())
        _CHECK_CACHE[("named", key)] = ("named-result" if ok else "unchecked", {
            "named": key, "result": instance.result.name, "statement": instance.result.statement,
            "status": "named-result" if ok else "unchecked",
            "hypotheses": {h: {"ok": c.ok, "method": c.method, "statement": c.statement, "domain": c.domain}
                           for h, c in certs.items()}})
    return _CHECK_CACHE[("named", key)]


def cert_status(key: str) -> tuple[str, dict[str, Any]]:
    """A registered certificate: ``certified`` when it proves the step on its whole domain, ``tested``
    when it covers a finite range only, ``unchecked`` when it fails."""
    from numerics.certificate import timed
    from theorems.engine.named_results import step_certificate

    if ("cert", key) not in _CHECK_CACHE:
        fn = step_certificate(key)
        if fn is None:
            raise KeyError(f"no step certificate registered as {key!r}: fix the tag in its proof page")
        c = timed(fn)
        status = ("certified" if c.complete else "tested") if c.ok else "unchecked"
        _CHECK_CACHE[("cert", key)] = (status, {"cert": key, "status": status, "method": c.method,
                                                "statement": c.statement, "domain": c.domain, "ok": c.ok,
                                                "complete": c.complete})
    return _CHECK_CACHE[("cert", key)]


_ASSIGNED: dict[tuple[str, int], Step] = {}  # (claim id, step number) -> the step as assign() checked it this run


def assign(pages: list[Page], results: dict[str, ClaimResult]) -> None:
    for page in pages:
        for step in page.steps:
            if step.generated:
                continue
            if step.cited is not None:
                step.status = "assumption"
                continue
            # a check by the page's own claim (its verdict, or its only part) is circular: the step would be
            # "checked" by the very verdict the proof is meant to establish; it counts only beside a check of its own
            refs = [ref for ref in step.refs if not _circular(ref, page.claim_id)]
            step.circular = len(refs) < len(step.refs) and not (refs or step.named or step.certs)
            statuses = [ref_status(cid, part, results) for cid, part in refs]
            ref_statuses = dict(zip(refs, statuses))
            step.checks = []
            for key in step.named:
                status, info = named_status(key)
                statuses.append(status)
                step.checks.append(info)
            for key in step.certs:
                status, info = cert_status(key)
                statuses.append(status)
                step.checks.append(info)
            step.status = combine(statuses)
            step.slip = step.status == "refuted" and is_slip(step, ref_statuses)
            _ASSIGNED[(page.claim_id, step.number)] = step


def _circular(ref: tuple[str, str | None], claim_id: str) -> bool:
    """A check by the page's own claim as a whole -- its verdict, or its only part, the statement the proof
    establishes. (A part of the claim that is one of the proof's own relations is evaluated on its own.)"""
    cid, part = ref
    if cid != claim_id:
        return False
    if part is None:
        return True
    from theorems.engine.registry import get

    try:
        claim = get(cid)
    except KeyError:
        return False  # not registered: the tag's own check reports it
    return len(getattr(claim, "statement", ())) <= 1


def is_slip(step: Step, ref_statuses: dict[tuple[str, str | None], str]) -> bool:
    """A refuted step is a notation slip when every check that refutes it is a claim declared as a
    notation slip and some other check (the reading the proof needs) is certified or tested;
    ``ref_statuses`` is the status of each (claim, part) the step's tag names, as assign() found it."""
    from theorems.engine.registry import get

    def declared_slip(cid: str) -> bool:
        try:
            return bool(getattr(get(cid), "notation_slip", ""))
        except KeyError:  # a check named by a page but not registered declares nothing
            return False

    refuting = [cid for (cid, _), status in ref_statuses.items() if status == "refuted"]
    holding = [cid for (cid, _), status in ref_statuses.items() if status in ("certified", "tested")]
    return (bool(refuting) and bool(holding) and not step.named and not step.certs
            and all(declared_slip(cid) for cid in refuting))


def broken_step(page: Page, entry: Any, result: ClaimResult | None) -> dict[str, Any] | None:
    """Where a refuted claim's proof breaks: from its checked chains, else its first refuted page step
    (flagged when that is a notation slip), else None; ``{"not_printed": ...}`` when the source gives
    no proof."""
    if entry is not None and entry.proofs:
        return entry.broken_step
    if result is None or result.verdict != Verdict.REFUTED:
        return None
    if page.not_printed:
        return {"index": None, "not_printed": page.not_printed}
    first = next((s for s in page.steps if s.status == "refuted"), None)
    if first is None:
        return None
    return {"index": first.number, "text": first.text, "witness": "the checks its tag names",
            **({"slip": True} if first.slip else {})}


def broken_text(broken: dict[str, Any] | None) -> str:
    """The broken-step cell of a summary table."""
    if broken is None:
        return "-"
    if broken.get("not_printed"):
        return "proof not printed"
    return f"step {broken['index']}" + (" (notation slip)" if broken.get("slip") else "")


def referenced_ids(pages: list[Page]) -> set[str]:
    return {p.claim_id for p in pages} | {cid for p in pages for s in p.steps for cid, _ in s.refs}


def node_status(node: str, results: dict[str, ClaimResult]) -> str:
    result = results.get(node)
    if result is None:
        return "not encoded"
    return VERDICT_STATUS.get(result.verdict, "unchecked")


def step_counts(page: Page, entry: Any = None) -> dict[str, int]:
    """How many steps of a page have each status: from its checked proof chains when it has them,
    from its [check: ...] tags otherwise."""
    if entry is not None and entry.proofs:
        return entry.counts()
    return {k: sum((("slip" if step.slip else step.status) == k) for step in page.steps) for k in STEP_KINDS}


def draw_graph(pages: list[Page], structure: list[tuple[str, str]], results: dict[str, ClaimResult],
               path: Path, checked: dict[str, Any] | None = None) -> None:
    """Checks -> the claims whose proofs use them, plus structure edges (arrows with heads); each
    node coloured by its claim's status and labelled with how many of its proof steps are certified."""
    import networkx as nx

    checked = checked or {}
    graph = nx.DiGraph()
    for page in pages:
        graph.add_node(page.claim_id)
        for step in page.steps:
            for cid, _ in step.refs:
                if cid != page.claim_id:
                    graph.add_edge(cid, page.claim_id)
    graph.add_edges_from(structure)
    if nx.is_directed_acyclic_graph(graph):
        for layer, nodes in enumerate(nx.topological_generations(graph)):
            for n in nodes:
                graph.nodes[n]["layer"] = layer
        pos = nx.multipartite_layout(graph, subset_key="layer", align="horizontal", scale=2)
        pos = {n: (x, -y) for n, (x, y) in pos.items()}
    else:
        pos = nx.spring_layout(graph, seed=0)
    statuses = {n: node_status(n, results) for n in graph.nodes}
    labels = {}
    for n in graph.nodes:
        counts = checked[n].counts() if n in checked and checked[n].proofs else None
        extra = f"\n{counts['certified']}/{sum(counts.values())} certified" if counts else ""
        labels[n] = n.replace(" (", "\n(") + extra
    fig, ax = subplots(figsize=(15, 9))
    nx.draw_networkx_edges(graph, pos, ax=ax, arrows=True, arrowstyle="-|>", arrowsize=16, edge_color="#555555",
                           connectionstyle="arc3,rad=0.05", node_size=1100)
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_size=1100, edgecolors="black",
                           node_color=[COLOURS[statuses[n]] for n in graph.nodes])
    nx.draw_networkx_labels(graph, pos, ax=ax, font_size=6, labels=labels)
    for status, colour in COLOURS.items():
        ax.scatter([], [], c=colour, edgecolors="black", label=status)
    ax.legend(loc="lower left", fontsize=8, title="claim status")
    ax.set_title("Which checks each proof rests on (arrow: used by); node: certified steps of its proof")
    ax.axis("off")
    save_figure(fig, path, dpi=110)


def write_report(pages: list[Page], results: dict[str, ClaimResult], graph_png: Path | None,
                 path: Path, checked: dict[str, Any] | None = None) -> None:
    checked = checked or {}
    kinds = STEP_KINDS
    lines = ["# clcheck proofs: step-checked proofs", ""]
    if graph_png is not None:
        lines += [f"![dependency graph]({graph_png.name})", ""]
    totals = {k: 0 for k in kinds}
    rows = []
    for page in pages:
        verdict = results[page.claim_id].verdict.value if page.claim_id in results else "not encoded"
        counts = step_counts(page, checked.get(page.claim_id))
        for k in kinds:
            totals[k] += counts[k]
        broken = broken_step(page, checked.get(page.claim_id), results.get(page.claim_id))
        rows.append(f"| `{page.claim_id}` | {verdict} | {sum(counts.values())} | "
                    + " | ".join(str(counts[k]) for k in kinds) + f" | {broken_text(broken)} |")
    lines += [f"Steps over all pages: {sum(totals.values())}; " + ", ".join(f"{k} {v}" for k, v in totals.items()) + ".",
              "", "| page | claim verdict | steps | " + " | ".join(kinds) + " | broken step |",
              "| --- | --- | --- | " + " | ".join("---" for _ in kinds) + " | --- |", *rows]
    for page in pages:
        entry = checked.get(page.claim_id)
        lines += ["", f"## `{page.claim_id}` ([page]({page.path.name}))", ""]
        if entry is not None and entry.proofs:
            from theorems.frontend.proof_run import proof_section

            lines += [line for line in proof_section(entry, 0) if not line.startswith("<!--")]
            continue
        lines += ["| step | status | checked by | step as printed |", "| --- | --- | --- | --- |"]
        for step in page.steps:
            refs = "; ".join(cid + (f' part "{part}"' if part else "") for cid, part in step.refs) or "-"
            text = step.text.replace("|", "\\|")
            if len(text) > 160:
                text = text[:157] + "..."
            status = step.status_text()
            lines.append(f"| {step.number} | **{status}** | {refs.replace('|', '/')} | {text} |")
    write_text_atomic(path, "\n".join(lines) + "\n")
    complete_proofs_json(path.parent / "proofs.json", pages, results)
    write_coq_scripts(path.parent, results, checked)


def write_coq_scripts(out_dir: Path, results: dict[str, ClaimResult], checked: dict[str, Any]) -> list[Path]:
    """``<out>/coq/``: the script of every Coq certificate this run used (the claims' and the chains'
    steps'), with ``check.sh`` that re-checks them all with coqc (numerics.coq.write_scripts)."""
    from numerics.coq import write_scripts

    certs: list[Any] = [c for r in results.values() for c in (r.certificate or ())]
    for entry in checked.values():
        for proof in getattr(entry, "proofs", []):
            for step in proof.steps:
                certs += list(step.certificates)
    return write_scripts(certs, out_dir)


def _ref_methods(claim_id: str, part: str | None, results: dict[str, ClaimResult]) -> list[str]:
    """The methods of the certificates that cover a referenced claim (or one of its parts)."""
    result = results.get(claim_id)
    out = []
    for cert in (result.certificate or []) if result is not None else []:
        covered = cert.get("parts")
        if cert.get("ok") and (part is None or covered is None or part in covered):
            out.append(str(cert.get("method", "")))
    return sorted(set(out))


def _part_slack(result: ClaimResult, part: str | None) -> float | None:
    """The smallest slack the check found for a claim (or one of its parts): over the informative
    subjects when there were any; > 0 means the relation held with room everywhere."""
    if part is not None:
        for stats in result.parts:
            if stats.label == part:
                slack = stats.informative.min_slack if stats.nontrivial_examples else stats.min_slack
                return None if slack == float("inf") else slack
        return None
    slack = result.informative_min_slack if result.informative_min_slack is not None else result.min_slack
    return slack


def legacy_entry(page: Page, results: dict[str, ClaimResult]) -> dict[str, Any]:
    """proofs.json's record of a page whose proof is not (yet) a chain of relations: each step with the
    status of the claims its tag names (their certificate methods; as ``margins``, minus the smallest slack
    of each named claim or part over its subjects and witnesses -- > 0: it fails there), the broken
    step of a refuted claim (the first refuted step), and ``chain_composes`` None (no chain encoded)."""
    result = results.get(page.claim_id)
    steps = []
    for step in page.steps:
        checks = []
        for cid, part in step.refs:
            ref = results.get(cid)
            checks.append({"claim": cid, "part": part, "status": ref_status(cid, part, results) if ref else "unchecked",
                           "verdict": ref.verdict.value if ref else None,
                           "methods": _ref_methods(cid, part, results),
                           "min_slack": _part_slack(ref, part) if ref else None})
        checks += step.checks
        methods = sorted({m for c in checks if c["status"] == "certified" for m in c.get("methods", [])}
                         | {c["method"] for c in checks if "cert" in c and c["status"] in ("certified", "tested")})
        named = [c["result"] for c in checks if "named" in c]
        method = ("cited theorem" if step.status == "assumption"
                  else "named result: " + ", ".join(named) if step.status == "named-result" and named
                  else " + ".join(methods) if methods
                  else "numeric" if step.status in ("tested", "refuted") else "")
        steps.append({"number": step.number, "text": step.text, "status": step.status, "slip": step.slip,
                      "circular": step.circular,
                      "method": method, "checks": checks, "note": step.cited or "",
                      "margins": {c["claim"] + (f" part {c['part']!r}" if c["part"] else ""): -c["min_slack"]
                                  for c in checks if c.get("min_slack") is not None}})
    broken = broken_step(page, None, result)
    return {"claim": page.claim_id, "verdict": result.verdict.value if result is not None else "not encoded",
            "qualifiers": result.qualifiers if result is not None else [],
            "chain_composes": None, "chain_note": "no chain of relations encoded: each step is checked by the "
                                                  "claims its page tag names",
            "broken_step": None if broken is None or broken.get("not_printed") else broken,
            "proof_printed": page.not_printed is None, "not_printed": page.not_printed, "source": "page tags", "steps": steps, "proofs": []}


def complete_proofs_json(path: Path, pages: list[Page], results: dict[str, ClaimResult]) -> None:
    """Add to proofs.json (written by ``clcheck proofs`` for the chained proofs) a record for every other
    page, so that it holds every claim with a proof page."""
    import json

    data = json.loads(path.read_text()) if path.exists() else {"claims": {}}
    claims = data.setdefault("claims", {})
    for page in pages:
        if page.claim_id not in claims:
            claims[page.claim_id] = legacy_entry(page, results)
        else:
            claims[page.claim_id].setdefault("source", "proof chain")
    data["claims"] = dict(sorted(claims.items()))
    write_text_atomic(path, json.dumps(data, indent=2, default=str))


BEGIN, END = "<!-- checker:begin -->", "<!-- checker:end -->"


def checker_block(page: Page, result: ClaimResult | None, seed: int) -> str:
    """What the checker found for this page: verdict, certificates, and each step's status."""
    lines = [BEGIN, f"**Checker result** (`clcheck proofs`, seed {seed}):"]
    if result is None:
        lines.append("- not encoded")
    else:
        lines.append(f"- verdict: **{result.verdict.value}**"
                     + (f"; min slack {result.min_slack:.4g}" if result.min_slack is not None else "")
                     + (f"; worst ratio {result.worst_ratio:.4g}" if result.worst_ratio is not None else ""))
        lines += [f"- {line}" for line in logical_form(result)[:1]]
        if len(result.readings) > 1:
            lines.append("- readings" + (" (reading-sensitive)" if result.reading_sensitive else "") + ": "
                         + "; ".join(f"{r['name']}: {r['verdict']}" for r in result.readings))
        for cert in result.certificate or []:
            if cert["ok"]:
                scope = "" if cert.get("complete", True) else " (finite range only)"
                lines.append(f"- certificate: {cert['method']} on {cert['domain']}{scope}")
        if result.witness is not None:
            lines.append(f"- minimal witness: {result.witness['description']}")
        for label, status in result.part_status.items():
            lines.append(f"- part `{label}`: {status.value}")
    for step in page.steps:
        lines.append(f"- step {step.number}: {step.status}" + (" (notation slip: printed '=')" if step.slip else
                                                                " (circular: its only check is its own claim)"
                                                                if step.circular else "")
                     + "".join(f"; {c['method']}: {c['statement']}" for c in step.checks if "cert" in c))
    if result is not None and result.verdict == Verdict.REFUTED:
        lines.append(f"- broken step: {broken_text(broken_step(page, None, result))}")
    lines.append(END)
    return "\n".join(lines)


def write_back(page: Page, result: ClaimResult | None, seed: int) -> None:
    """Put the checker block right under the page's "## Verdict" heading (replacing an old one)."""
    for step in page.steps:  # a page re-parsed after assign(): its steps' statuses from this run
        if not step.generated and (page.claim_id, step.number) in _ASSIGNED:
            checked = _ASSIGNED[(page.claim_id, step.number)]
            step.status, step.slip, step.checks = checked.status, checked.slip, checked.checks
            step.circular = checked.circular
        elif step.cited is not None:
            step.status = "assumption"
    text = page.path.read_text()
    block = checker_block(page, result, seed)
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.replace("## Verdict\n", "## Verdict\n\n" + block + "\n", 1)
    write_text_atomic(page.path, text)
