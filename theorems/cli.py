"""The ``clcheck`` command line: audit the registered claims, replay a witness, list claims."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import mpmath
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

app = typer.Typer(add_completion=False, help="A verification-backed checker for contrastive-learning theory.")
# a wide table when the output is not a terminal (CI logs), the terminal's width otherwise
console = Console() if sys.stdout.isatty() else Console(width=200)

VERDICT_STYLE = {"proved": "bold green", "consistent": "green", "refuted": "bold red",
                 "not_encodable": "yellow", "untested": "bold magenta", "inconclusive": "yellow"}


def _progress() -> Progress:
    """The progress bar of the commands that check many claims."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TimeElapsedColumn(), console=console)


@app.command()
def audit(
    claim: Optional[List[str]] = typer.Option(None, "--claim", help="claim id (repeatable)"),
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix, e.g. merad (repeatable)"),
    seed: int = typer.Option(0, "--seed", help="seed of every random choice (stated in the report)"),
    budget: int = typer.Option(200, "--budget", help="random examples per claim"),
    adversarial_starts: int = typer.Option(8, "--adversarial-starts", help="gradient-ascent starts per family"),
    adversarial_steps: int = typer.Option(150, "--adversarial-steps", help="steps per start"),
    out: Path = typer.Option(Path("audit-report"), "--out", help="directory for report.md / report.json"),
) -> None:
    """Check every selected claim; write report.md, report.json and witnesses/; exit 1 on any unexpected verdict."""
    from theorems.engine import Budget, check_claim
    from theorems.registry import all_claims
    from theorems.report import write_reports

    try:
        claims = all_claims(papers=paper, ids=claim)
    except KeyError as exc:
        console.print(f"[red]{exc.args[0]}[/red]")
        raise typer.Exit(2)
    if not claims:
        console.print("[red]no registered claim matches the selection[/red]")
        raise typer.Exit(2)
    plan = Budget(examples=budget, adversarial_starts=adversarial_starts, adversarial_steps=adversarial_steps)
    results = []
    with _progress() as progress:
        task = progress.add_task("auditing", total=len(claims))
        for c in claims:
            progress.update(task, description=f"auditing {c.id}")
            results.append(check_claim(c, plan, seed=seed, witness_dir=out / "witnesses", artifact_dir=out))
            progress.advance(task)
    budget_info = {"examples": budget, "adversarial_starts": adversarial_starts,
                   "adversarial_steps": adversarial_steps}
    write_reports(results, seed, out, budget_info)
    _print_table(results, seed)
    console.print(f"reports: {out / 'report.md'} and {out / 'report.json'}")
    unexpected = [r.id for r in results if not r.expected]
    if unexpected:
        console.print(f"[bold red]unexpected verdicts: {', '.join(unexpected)}[/bold red]")
        raise typer.Exit(1)


def _print_table(results: list, seed: int) -> None:
    from theorems.report import evidence, fmt

    table = Table(title=f"clcheck audit (seed {seed})")
    for col in ("id", "kind", "verdict", "examples", "min slack", "worst ratio", "certificate / witness", "expected"):
        table.add_column(col, overflow="fold")
    for r in results:
        v = r.verdict.value
        table.add_row(r.id, r.kind, f"[{VERDICT_STYLE.get(v, '')}]{v}[/]",
                      f"{r.examples}+{r.adversarial_examples}", fmt(r.min_slack), fmt(r.worst_ratio),
                      evidence(r)[:80], "yes" if r.expected else "[red]NO[/red]")
    console.print(table)


@app.command()
def replay(witness: Path = typer.Argument(..., help="a witness JSON written by `clcheck audit`")) -> None:
    """Re-evaluate a saved counterexample in high precision; exit 0 iff it still refutes its claim."""
    from theorems.engine import replay as replay_witness
    from theorems.registry import get

    data = json.loads(witness.read_text())
    claim = get(data["claim"])
    p = replay_witness(data, claim)
    console.print(f"claim {claim.id}: {claim.statement_text()}")
    console.print(f"subject: {p.family.describe(p.subject)}")
    for v in p.confirmed or []:
        status = "[red]VIOLATED[/red]" if float(v.margin) > v.tol else "holds"
        console.print(f"  {v.part}: left {mpmath.nstr(v.lhs, 25)}  right {mpmath.nstr(v.rhs, 25)}  "
                      f"margin {mpmath.nstr(v.margin, 15)} (tolerance {v.tol:.3g}) {status}")
    if p.violated:
        console.print(f"[bold red]the witness still refutes {claim.id}[/bold red] (mpmath, {data['dps']} digits)")
    else:
        console.print(f"[yellow]the witness no longer refutes {claim.id}[/yellow]")
        raise typer.Exit(1)


@app.command()
def proofs(
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix of the pages to check"),
    seed: int = typer.Option(0, "--seed"),
    budget: int = typer.Option(100, "--budget", help="random examples per claim"),
    out: Path = typer.Option(Path("audit-report"), "--out"),
    write_pages: bool = typer.Option(False, "--write-pages", help="record each page's step statuses in the page"),
) -> None:
    """Run the check behind every step of the proofs_md pages; write proofs.md and the dependency graph."""
    from theorems import proofs as pf
    from theorems.engine import Budget, check_claim
    from theorems.registry import all_claims, structure

    pages = pf.read_pages(paper)
    registered = {c.id: c for c in all_claims()}
    edges = structure(paper)
    nodes = pf.referenced_ids(pages) | {n for edge in edges for n in edge}
    needed = sorted(nodes & set(registered))
    plan = Budget(examples=budget, adversarial_starts=4, adversarial_steps=100)
    results = {}
    with _progress() as progress:
        task = progress.add_task("checking", total=len(needed))
        for cid in needed:
            progress.update(task, description=f"checking {cid}")
            results[cid] = check_claim(registered[cid], plan, seed=seed)
            progress.advance(task)
    pf.assign(pages, results)
    out.mkdir(parents=True, exist_ok=True)
    graph = out / "proofs-graph.png"
    pf.draw_graph(pages, edges, results, graph)
    pf.write_report(pages, results, graph, out / "proofs.md")
    if write_pages:
        for page in pages:
            pf.write_back(page, results.get(page.claim_id), seed)
    table = Table(title="step-checked proofs")
    for col in ("page", "verdict", "steps", "certified", "tested", "refuted", "unchecked"):
        table.add_column(col)
    for page in pages:
        verdict = results[page.claim_id].verdict.value if page.claim_id in results else "not encoded"
        counts = [sum(s.status == k for s in page.steps) for k in ("certified", "tested", "refuted", "unchecked")]
        table.add_row(page.claim_id, verdict, str(len(page.steps)), *map(str, counts))
    console.print(table)
    console.print(f"report: {out / 'proofs.md'}; graph: {graph}")
    unexpected = [r.id for r in results.values() if not r.expected]
    if unexpected:
        console.print(f"[bold red]unexpected verdicts: {', '.join(unexpected)}[/bold red]")
        raise typer.Exit(1)


@app.command("list")
def list_claims(paper: Optional[List[str]] = typer.Option(None, "--paper")) -> None:
    """List the registered claims with their kind and source."""
    from theorems.registry import all_claims

    table = Table(title="registered claims")
    for col in ("id", "kind", "source", "statement"):
        table.add_column(col, overflow="fold")
    for c in all_claims(papers=paper):
        table.add_row(c.id, c.kind.value, str(c.source), c.statement_text())
    console.print(table)


def _register_train() -> None:
    """`clcheck train`: the training module's command (CPU or CUDA, checkpoints, resume)."""
    from training.cli import train_command

    app.command("train", help="Train an encoder (digits or synthetic data); checkpoints and resume.")(train_command)


_register_train()

if __name__ == "__main__":  # pragma: no cover
    app()
