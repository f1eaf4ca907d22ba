"""Step-checked proofs: read the plugins' proof pages, run each step's check, draw the blueprint graph.

Every numbered step of a page's "## Proof as printed" section ends with a tag

    [check: <claim id>]                       the whole claim covers the step
    [check: <claim id> part "<part label>"]   one part of a claim covers it
    [check: <ref>; <ref>]                     several checks
    [check: unchecked (<reason>)]             nothing covers it

(text in parentheses is commentary). A step's status is ``certified`` (every check is
certified), ``tested`` (checked numerically, not proved), ``refuted`` (a check refuted the
statement it covers: the printed proof breaks there) or ``unchecked``. The dependency graph
joins each check to the claim whose proof uses it, plus the paper's structure edges
(e.g. Lemma 6 + Lemma 7 -> Theorem 1), coloured by verdict, the way a formalization
blueprint shows its progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from theorems.engine.figures import save_figure, subplots
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict

TAG = re.compile(r"\[check:\s*(.*?)\]\s*\.?\s*$", re.S)
REF = re.compile(r'([a-z]+(?:\.[a-z0-9_]+)+)(?:\s+part\s+"([^"]+)")?')
STEP_START = re.compile(r"^(\d+)\.\s")
STATUS_ORDER = ("refuted", "unchecked", "tested", "certified")
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


@dataclass
class Page:
    claim_id: str
    path: Path
    steps: list[Step] = field(default_factory=list)


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
        refs = REF.findall(_strip_comments(tag.group(1))) if tag else []
        page.steps.append(Step(number, TAG.sub("", body).strip(),
                               [(cid, part or None) for cid, part in refs]))
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
    """refuted if any check refutes; certified if all certify; tested if any tests; else unchecked."""
    if not statuses:
        return "unchecked"
    if "refuted" in statuses:
        return "refuted"
    if all(s == "certified" for s in statuses):
        return "certified"
    if any(s in ("tested", "certified") for s in statuses):
        return "tested"
    return "unchecked"


def assign(pages: list[Page], results: dict[str, ClaimResult]) -> None:
    for page in pages:
        for step in page.steps:
            step.status = combine([ref_status(cid, part, results) for cid, part in step.refs])


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
    kinds = ("certified", "named-result", "assumption", "tested", "refuted", "unchecked")
    if entry is not None and entry.proofs:
        return entry.counts()
    return {k: sum(step.status == k for step in page.steps) for k in kinds}


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
    kinds = ("certified", "named-result", "assumption", "tested", "refuted", "unchecked")
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
        entry = checked.get(page.claim_id)
        broken = entry.broken_step if entry is not None else None
        rows.append(f"| `{page.claim_id}` | {verdict} | {sum(counts.values())} | "
                    + " | ".join(str(counts[k]) for k in kinds)
                    + f" | {('step ' + str(broken['index'])) if broken else '-'} |")
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
            lines.append(f"| {step.number} | **{step.status}** | {refs.replace('|', '/')} | {text} |")
    path.write_text("\n".join(lines) + "\n")


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
        for cert in result.certificate or []:
            if cert["ok"]:
                scope = "" if cert.get("complete", True) else " (finite range only)"
                lines.append(f"- certificate: {cert['method']} on {cert['domain']}{scope}")
        if result.witness is not None:
            lines.append(f"- minimal witness: {result.witness['description']}")
        for label, status in result.part_status.items():
            lines.append(f"- part `{label}`: {status.value}")
    for step in page.steps:
        lines.append(f"- step {step.number}: {step.status}")
    lines.append(END)
    return "\n".join(lines)


def write_back(page: Page, result: ClaimResult | None, seed: int) -> None:
    """Put the checker block right under the page's "## Verdict" heading (replacing an old one)."""
    text = page.path.read_text()
    block = checker_block(page, result, seed)
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.replace("## Verdict\n", "## Verdict\n\n" + block + "\n", 1)
    page.path.write_text(text)
