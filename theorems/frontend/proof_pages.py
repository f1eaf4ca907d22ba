"""Proof pages: read them into the engine's proofs, and render what the engine found.

A page's "## Proof as printed" section lists numbered steps, each ending with a ``[check: ...]``
tag (the syntax is :func:`theorems.engine.proof.tagged_step`'s); a page whose source gives no proof
says so in that section with ``<!-- proof: not printed (<what the source does instead>) -->``.
:func:`parse_page` turns a page into a :class:`~theorems.engine.proof.Proof` of tagged steps;
:mod:`theorems.engine.proof_check` decides every step's status, the broken step and the proofs.json
record (:func:`~theorems.engine.proof_check.page_entry`). This module renders them: the summary
``proofs.md``, the checker block of each page and the dependency graph, which joins each check to the
claim whose proof uses it, plus the paper's structure edges (e.g. Lemma 6 + Lemma 7 -> Theorem 1),
coloured by verdict, the way a formalization blueprint shows its progress.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import networkx as nx

from numerics.coq import write_scripts
from numerics.files import write_text_atomic
from theorems.engine.figures import save_figure, subplots
from theorems.engine.proof import PAGE, Proof, Step, tagged_step
from theorems.engine.proof_check import STEP_KINDS, ClaimProofs, ProofResult, page_entry, verdict_status
from theorems.engine.registry import papers as registered_papers
from theorems.engine.verdict import ClaimResult, Verdict
from theorems.frontend.proof_run import proof_section
from theorems.frontend.report import coq_certificates, logical_form

STEP_START = re.compile(r"^(\d+)\.\s")
NOT_PRINTED = re.compile(r"<!--\s*proof:\s*not printed\s*\((.*?)\)\s*-->", re.S)
COLOURS = {"certified": "#2e9d3a", "tested": "#a6dba0", "refuted": "#d7301f", "unchecked": "#bdbdbd",
           "not encoded": "#f0f0f0"}
__all__ = ["STEP_KINDS", "Page", "parse_page", "read_pages", "judge", "referenced_ids", "broken_text",
           "draw_graph", "write_summary", "write_coq_scripts", "checker_block", "write_checker_block"]


@dataclass(frozen=True)
class Page:
    """A proof page: its file and the proof it holds (the engine's Proof, every step tagged)."""

    path: Path
    proof: Proof

    @property
    def claim_id(self) -> str:
        return self.proof.claim

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.proof.steps

    @property
    def not_printed(self) -> str | None:
        """What the source does instead of a proof, when it gives none."""
        return self.proof.instead if self.proof.not_printed else None


def parse_page(path: Path) -> Page:
    """The claim id (first heading) and the numbered steps of the proof section, each with its tag."""
    text = path.read_text()
    claim_id = text.splitlines()[0].lstrip("# ").strip()
    match = re.search(r"^## Proof as printed\n(.*?)(?=^## )", text, re.S | re.M)
    if not match:
        return Page(path, Proof(claim_id, (), where=path.name, source=PAGE))
    not_printed = NOT_PRINTED.search(match.group(1))
    blocks: list[tuple[int, list[str]]] = []
    for line in match.group(1).splitlines():
        start = STEP_START.match(line)
        if start:
            blocks.append((int(start.group(1)), [line[start.end():]]))
        elif blocks and line.startswith("   "):
            blocks[-1][1].append(line.strip())
    steps = tuple(tagged_step(number, " ".join(lines)) for number, lines in blocks)
    return Page(path, Proof(claim_id, steps, where=path.name, not_printed=not_printed is not None,
                            instead=" ".join(not_printed.group(1).split()) if not_printed else "", source=PAGE))


def read_pages(papers: list[str] | None = None, directory: Path | None = None) -> list[Page]:
    """The proof pages of every registered paper (or of one folder), optionally filtered by id prefix.

    A page belongs to the paper whose prefix starts its claim id; a folder shared by several
    papers (this repository's proofs_md/) is read once per paper, each taking its own pages."""
    if directory is not None:
        sources = [(None, directory)]
    else:
        sources = [(p.prefix, p.pages) for p in registered_papers() if p.pages is not None]
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


def judge(pages: list[Page], results: Mapping[str, ClaimResult],
          chains: Mapping[str, ClaimProofs] | None = None) -> dict[str, ClaimProofs]:
    """Each page's record, decided by the engine: its claim's checked chains, else its tags."""
    chains = chains or {}
    return {p.claim_id: page_entry(p.proof, results, chains.get(p.claim_id)) for p in pages}


def referenced_ids(pages: list[Page]) -> set[str]:
    return {p.claim_id for p in pages} | {r.claim for p in pages for s in p.steps for r in s.refs}


def broken_text(broken: dict[str, Any] | None) -> str:
    """The broken-step cell of a summary table."""
    if broken is None:
        return "-"
    if broken.get("not_printed"):
        return "proof not printed"
    return f"step {broken['index']}" + (" (notation slip)" if broken.get("slip") else "")


def _verdict(entry: ClaimProofs | None) -> str:
    return entry.result.verdict_label if entry is not None and entry.result is not None else "not encoded"


def draw_graph(pages: list[Page], structure: list[tuple[str, str]], results: Mapping[str, ClaimResult],
               path: Path, checked: Mapping[str, ClaimProofs] | None = None) -> None:
    """Checks -> the claims whose proofs use them, plus structure edges (arrows with heads); each
    node coloured by its claim's status and labelled with how many of its chain's steps are certified."""
    checked = checked or {}
    graph = nx.DiGraph()
    for page in pages:
        graph.add_node(page.claim_id)
        for step in page.steps:
            for ref in step.refs:
                if ref.claim != page.claim_id:
                    graph.add_edge(ref.claim, page.claim_id)
    graph.add_edges_from(structure)
    if nx.is_directed_acyclic_graph(graph):
        for layer, nodes in enumerate(nx.topological_generations(graph)):
            for n in nodes:
                graph.nodes[n]["layer"] = layer
        pos = nx.multipartite_layout(graph, subset_key="layer", align="horizontal", scale=2)
        pos = {n: (x, -y) for n, (x, y) in pos.items()}
    else:
        pos = nx.spring_layout(graph, seed=0)
    statuses = {n: verdict_status(results[n]).value if n in results else "not encoded" for n in graph.nodes}
    labels = {}
    for n in graph.nodes:
        entry = checked.get(n)
        counts = entry.counts() if entry is not None and entry.proofs and not entry.from_page else None
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


def write_summary(pages: list[Page], entries: Mapping[str, ClaimProofs], graph_png: Path | None, path: Path) -> None:
    """proofs.md: the step counts of every page, then each page's steps with their status (``entries``:
    the records :func:`judge` returns)."""
    lines = ["# clcheck proofs: step-checked proofs", ""]
    if graph_png is not None:
        lines += [f"![dependency graph]({graph_png.name})", ""]
    totals = {k: 0 for k in STEP_KINDS}
    rows = []
    for page in pages:
        entry = entries[page.claim_id]
        counts = entry.counts()
        for k in STEP_KINDS:
            totals[k] += counts[k]
        rows.append(f"| `{page.claim_id}` | {_verdict(entry)} | {sum(counts.values())} | "
                    + " | ".join(str(counts[k]) for k in STEP_KINDS) + f" | {broken_text(entry.broken_step)} |")
    lines += [f"Steps over all pages: {sum(totals.values())}; " + ", ".join(f"{k} {v}" for k, v in totals.items()) + ".",
              "", "| page | claim verdict | steps | " + " | ".join(STEP_KINDS) + " | broken step |",
              "| --- | --- | --- | " + " | ".join("---" for _ in STEP_KINDS) + " | --- |", *rows]
    for page in pages:
        entry = entries[page.claim_id]
        lines += ["", f"## `{page.claim_id}` ([page]({page.path.name}))", ""]
        if not entry.from_page:
            lines += [line for line in proof_section(entry, 0) if not line.startswith("<!--")]
            continue
        lines += ["| step | status | checked by | step as printed |", "| --- | --- | --- | --- |"]
        for step in entry.steps:
            refs = "; ".join(step.refs) or "-"
            text = step.text.replace("|", "\\|")
            if len(text) > 160:
                text = text[:157] + "..."
            lines.append(f"| {step.number} | **{step.status_text()}** | {refs.replace('|', '/')} | {text} |")
    write_text_atomic(path, "\n".join(lines) + "\n")


def write_coq_scripts(out_dir: Path, checked: Mapping[str, ClaimProofs]) -> list[Path]:
    """``<out>/coq/``: the script of every Coq certificate this run used (the claims' and the chains'
    steps'), with ``check.sh`` that re-checks them all with coqc (numerics.coq.write_scripts)."""
    claims = {claim_id: [*coq_certificates(e.result)] if e.result is not None else [] for claim_id, e in checked.items()}
    for claim_id, e in checked.items():
        claims[claim_id] += [c for s in e.steps if s.kind != "tagged" for c in s.certificates]
    return write_scripts((), out_dir, claims=claims)


BEGIN, END = "<!-- checker:begin -->", "<!-- checker:end -->"


def checker_block(page: ProofResult, result: ClaimResult | None, seed: int) -> str:
    """What the checker found for a page (``page``: the engine's check of it): verdict, certificates,
    and each step's status."""
    lines = [BEGIN, f"**Checker result** (`clcheck proofs`, seed {seed}):"]
    if result is None:
        lines.append("- not encoded")
    else:
        lines.append(f"- verdict: **{result.verdict_label}**"
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
        lines.append(f"- step {step.number}: {step.status.value}"
                     + (" (notation slip: printed '=')" if step.slip else
                        " (circular: its only check is its own claim)" if step.circular else "")
                     + "".join(f"; {c['method']}: {c['statement']}" for c in step.checks if "cert" in c))
    if result is not None and result.verdict == Verdict.REFUTED:
        lines.append(f"- broken step: {broken_text(page.broken_step)}")
    lines.append(END)
    return "\n".join(lines)


def write_checker_block(page: Page, checked: ProofResult, result: ClaimResult | None, seed: int) -> None:
    """Put the checker block (``checked``: the engine's check of the page as it is now on disk) right under
    the page's "## Verdict" heading, replacing an old one."""
    text = page.path.read_text()
    block = checker_block(checked, result, seed)
    if BEGIN in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.replace("## Verdict\n", "## Verdict\n\n" + block + "\n", 1)
    write_text_atomic(page.path, text)
