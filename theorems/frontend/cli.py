"""The ``clcheck`` command line: audit claims, replay a witness, check proofs and families, train.

Every user error (an unknown claim, a missing or malformed file, a witness that does not
match its claim, a plugin that fails to import) is printed as one or two lines naming the
problem, with exit code 2; ``--debug`` shows the traceback instead.
"""

from __future__ import annotations

import functools
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, List, Optional

import mpmath
import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from numerics.bounded_read import read_json_file
from numerics import env
from numerics.errors import ClcheckError, OutputError
from numerics.seeds import MAX_AUDIT_SEED
from theorems.engine.budget import profile as named_profile
from theorems.engine import coverage as cov
from theorems.engine.claim import DefinitionClaim, ExperimentClaim, StatementClaim, UnencodableClaim
from theorems.engine.errors import (ClaimError, ExecutorUnavailable, InputFileError, OptionError, UnknownClaim,
                                    WitnessError)
from theorems.engine.family_check import check_families
from theorems.engine.mutate import Mutation, mutant_claim
from theorems.engine.limits import DEFAULT_CLAIM_SECONDS, Interrupted, interrupts_raise
from theorems.engine.prerequisite import prerequisites_of
from theorems.engine.registry import (all_claims, get, import_time_limit, origin, papers, proofs_for,
                                      registered_plugins, structure, unknown_prefixes)
from theorems.engine.rules import RULES, ROOMS
from theorems.engine.rules.compare import ATOL, is_violation, same_margin
from theorems.engine.rules.gate import gate
from theorems.engine.verdict import Verdict
from theorems.engine.reach import replay_row
from theorems.engine.witness import (read_witness, replay as replay_witness, replay_experiment,
                                     replay_closed, replay_parametric, replay_tightness, witness_files,
                                     write_witness)
from theorems.engine.check import check_claim
from theorems.frontend import evaluation as ev
from theorems.frontend import mutation as mt
from theorems.frontend import proof_pages as pf
from theorems.frontend import proof_run as pr
from theorems.frontend import schedule
from theorems.frontend import store
from theorems.frontend.outdir import ReportFolder
from theorems.frontend.report import evidence, fmt, verdict_counts, verdict_text, write_reports
from theorems.frontend.runner import Job, default_jobs, execute, write_files
from theorems.frontend.text import clean, shown
from theorems.frontend.watch import plugin_files, wait_for_change
from training.cli import train_command

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="A verification-backed checker for contrastive-learning theory.")
# a wide table when the output is not a terminal (CI logs), the terminal's width otherwise
console = Console() if sys.stdout.isatty() else Console(width=200)

VERDICT_STYLE = {"proved": "bold green", "consistent": "green", "refuted": "bold red", "vacuous": "bold yellow",
                 "not_encodable": "yellow", "untested": "bold magenta", "inconclusive": "yellow",
                 "definition": "dim", "error": "bold red"}
EXIT_USER_ERROR = 2
EXIT_INTERNAL_ERROR = 3
MAX_SEED = MAX_AUDIT_SEED  # the one seed rule (numerics.seeds) packs the audit seed into 16 bits
MAX_TIMEOUT = 10**6  # seconds (11 days): a finite limit the alarm timer accepts
MAX_REPORT_BYTES = 200_000_000  # a report.json given to `clcheck coverage --report`


_STATE = {"debug": False}


@app.callback()
def _options(debug: bool = typer.Option(False, "--debug", help="show the traceback of any error")) -> None:
    _STATE["debug"] = debug or env.flag("CLCHECK_DEBUG")  # CLCHECK_DEBUG=0 is off; a value it does not take: exit 2


def _command(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a command, turning a user error into a named one- or two-line message (exit 2) and an
    internal error into a short message pointing at --debug (exit 3)."""
    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except ClcheckError as exc:
            if _STATE["debug"]:
                raise
            console.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
            raise typer.Exit(EXIT_USER_ERROR) from None
        except Exception as exc:  # an internal bug: a short message, the traceback with --debug
            if _STATE["debug"]:
                raise
            console.print(f"[red]internal error:[/red] {type(exc).__name__}: {shown(str(exc))}\n"
                          "rerun the command with --debug for the traceback", highlight=False)
            raise typer.Exit(EXIT_INTERNAL_ERROR) from None

    return run


def _progress() -> Progress:
    """The progress bar of the commands that check many claims."""
    return Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                    TimeElapsedColumn(), console=console)


def _select(paper: Optional[List[str]], claim: Optional[List[str]]) -> list:
    """The claims under the ``--paper`` prefixes and those named by ``--claim`` (a union); an unknown
    prefix or id is a named error, the same for every command."""
    unknown = unknown_prefixes(paper or [])
    if unknown:
        raise UnknownClaim(f"no registered claim has the prefix {', '.join(map(repr, unknown))}; "
                       "`clcheck list` shows the registered ids")
    claims = all_claims(papers=paper, ids=claim)
    if not claims:
        raise UnknownClaim("no registered claim matches the selection; `clcheck list` shows the registered ids")
    return claims


def _seconds(option: str, value: Optional[float]) -> Optional[float]:
    """A finite, positive number of seconds (or None)."""
    if value is not None and not (math.isfinite(value) and value > 0):
        raise OptionError(f"{option} {value}: give a finite number of seconds")
    return value


def _budget(profile: str, budget: Optional[int], starts: Optional[int], steps: Optional[int]):  # noqa: ANN202
    return named_profile(profile).with_overrides(examples=budget, adversarial_starts=starts, adversarial_steps=steps)


@app.command()
@_command
def audit(
    claim: Optional[List[str]] = typer.Option(None, "--claim", help="claim id (repeatable)"),
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix, e.g. merad (repeatable)"),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="seed of every random choice (stated in the report)"),
    profile: str = typer.Option("audit", "--profile", help="search depth: quick, audit or deep"),
    budget: Optional[int] = typer.Option(None, "--budget", min=0, help="random examples per claim (overrides the profile)"),
    adversarial_starts: Optional[int] = typer.Option(None, "--adversarial-starts", min=0,
                                                     help="gradient-ascent starts per family"),
    adversarial_steps: Optional[int] = typer.Option(None, "--adversarial-steps", min=0, help="steps per start"),
    out: Path = typer.Option(Path("audit-report"), "--out", help="directory for report.md / report.json"),
    claim_timeout: Optional[float] = typer.Option(None, "--claim-timeout", min=1, max=MAX_TIMEOUT,
                                                  help="seconds per claim (and per shared training run; default "
                                                       f"{DEFAULT_CLAIM_SECONDS:g}); past it the claim's verdict is error"),
    jobs: Optional[int] = typer.Option(None, "--jobs", min=1, help="parallel processes (default: all cores); with "
                                       "--executor ray, the CPUs of the local Ray instance"),
    executor: str = typer.Option("local", "--executor", help="local (processes on this machine) or ray"),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster address (with --executor ray)"),
    strict: bool = typer.Option(False, "--strict", help="exit 1 on undecided verdicts (untested, inconclusive) too"),
    sources: Optional[Path] = typer.Option(None, "--sources", help="folder of the papers' source files, for the "
                                           "coverage table (default: $CLCHECK_SOURCES or ../shared/papers)"),
    fresh: bool = typer.Option(False, "--fresh", help="search every claim again (the verdict store is not read; "
                               "its entries are replaced)"),
) -> None:
    """Check every selected claim; write report.md, report.json and witnesses/; exit 1 on any unexpected verdict.

    An unchanged claim (same statement, hypotheses, families, quantities' source, engine, seed and budget) reuses
    its stored verdict once its witnesses and best subjects replay (theorems.frontend.store); ``--fresh`` (or
    CLCHECK_STORE=0) searches every claim.

    Every claim runs in a worker process (``--jobs`` of them): a claim that exits, kills its worker
    or hangs past its time limit gets the verdict error and the rest goes on. Ctrl-C (or SIGTERM)
    writes the reports of the claims finished so far, marked partial, and exits 130 (143)."""
    from training.device import configure_process, deterministic_kernels  # heavy: torch (1 s), not for list/--help

    if executor not in ("local", "ray"):
        raise OptionError(f"--executor {executor!r}: use local or ray")
    if address is not None and jobs is not None:
        raise OptionError("--jobs with --address: the cluster's resources decide how many tasks run at once")
    _seconds("--claim-timeout", claim_timeout)
    with import_time_limit(claim_timeout):  # a plugin that hangs at import is a named error
        claims = _select(paper, claim)
    claim_timeout = DEFAULT_CLAIM_SECONDS if claim_timeout is None else claim_timeout  # bounded by default
    plan = _budget(profile, budget, adversarial_starts, adversarial_steps)
    if executor == "ray":
        _require_ray()
    report = ReportFolder(out, replace=True)  # checked before anything runs: new, empty, or clcheck's own
    configure_process()
    processes = jobs or default_jobs()
    deterministic_kernels()  # here once: forked workers inherit it, and no claim's time limit pays for it
    expected = schedule.expected_seconds(claims, profile)
    shared = (p for c in claims for p in prerequisites_of(c, plan.quick, seed))  # listed only if run in parallel
    results = []
    interrupted: int | None = None
    with report, interrupts_raise(), _progress() as progress:
        task = progress.add_task("auditing", total=len(claims))

        def collect(result: Any, files: dict[str, bytes]) -> None:
            write_files(report, files)
            for name, witness in witness_files(result):
                write_witness(witness, report.path("witnesses", name))
            results.append(result)
            progress.update(task, description=f"checked {result.id}")
            progress.advance(task)

        def trained(prerequisite: Any, error: str | None) -> None:
            progress.update(task, description=f"prepared {prerequisite.key}" + (" (failed)" if error else ""))

        try:
            keep = store.enabled()
            execute([Job(c.id, plan, seed, claim_timeout, cost=expected[c.id], store=keep, fresh=fresh) for c in claims],
                    executor,
                    processes, address, collect, shared, trained, prerequisite_timeout=claim_timeout)
        except Interrupted as stop:
            interrupted = stop.code
        planned = [c.id for c in claims]
        results.sort(key=lambda r: planned.index(r.id))  # a parallel audit finishes in its own order
        if interrupted is None:
            schedule.record(results, profile)
        counted = _audit_coverage(claims, results, sources)
        mt.annotate(results)  # the last `clcheck mutate`'s sensitivity beside each inequality
        write_reports(results, seed, report.root, {"profile": profile, **plan.__dict__}, planned=planned,
                      coverage=counted)
        report.commit()  # the report and its witnesses, from this run, in place at once
    _print_table(results, seed)
    reused = sum(r.reused for r in results)
    if reused:
        console.print(f"reused from the verdict store (evidence replayed): {reused} of {len(results)} claims; "
                      "--fresh searches them again")
    if counted == {}:
        console.print("coverage: source files not found")
    console.print(f"reports: {out / 'report.md'} and {out / 'report.json'}")
    if interrupted is not None:
        console.print(f"[bold yellow]interrupted: the reports are partial ({len(results)} of {len(claims)} "
                      "claims checked)[/bold yellow]")
        raise typer.Exit(interrupted)
    _exit_on_gate(results, strict)


def _audit_coverage(claims: list, results: list, sources: Optional[Path]) -> Optional[dict]:
    """Paper prefix -> statement counts for the audited papers whose source files are known and found; {} if
    none was found, None if no audited paper names its files. Never an error: a file that cannot be read
    counts as not found."""
    verdicts = {r.id: r.verdict.value for r in results}
    no_evidence = [r.id for r in results if r.by_construction and r.undecided]
    folder = cov.sources_dir(sources)
    known = [p for p in papers() if p.files and any(c.paper == p.prefix for c in claims)]
    counted = {}
    for p in known:
        paths = cov.find_sources(p.files, folder)
        if paths is None:
            continue
        mine = all_claims(papers=[p.prefix])
        try:
            counted[p.prefix] = cov.counts(cov.coverage_of(paths, [(c.id, c.source) for c in mine]),
                                           {**_coverage_verdicts(mine, None), **verdicts},
                                           [c.id for c in mine if c.reconstructed],
                                           [c.id for c in mine if c.qualitative], no_evidence)
        except ClcheckError:
            continue
    return counted if known else None


def _exit_on_gate(results: Iterable[Any], strict: bool) -> None:
    """Name the undecided claims; exit 1 if any claim fails the gate (see theorems.engine.verdict)."""
    results = list(results)
    undecided = [r.id for r in results if gate(r) == "undecided"]
    if undecided:
        console.print(f"[bold yellow]undecided (untested or inconclusive): {', '.join(undecided)}[/bold yellow]")
    failed = [r.id for r in results if gate(r, strict) == "fail"]
    if failed:
        console.print(f"[bold red]unexpected verdicts: {', '.join(failed)}[/bold red]")
        raise typer.Exit(1)


def _require_ray() -> None:
    """--executor ray without a working Ray is a user error, said before anything runs."""
    try:
        import ray  # noqa: F401 - optional extra (clcheck[ray]); the executor imports it again (cached)
    except Exception as exc:  # noqa: BLE001 - not installed, or installed but broken
        raise ExecutorUnavailable(f"--executor ray needs Ray, which cannot be imported ({type(exc).__name__}: "
                                  f"{exc}): pip install 'clcheck[ray]'") from None


_GATE_TEXT = {"pass": "yes", "undecided": "[yellow]undecided[/yellow]", "fail": "[red]NO[/red]"}


def _print_table(results: list, seed: int) -> None:
    table = Table(title=f"clcheck audit (seed {seed})")
    for col in ("id", "kind", "verdict", "examples", "informative", "min slack", "worst ratio",
                "certificate / witness / reason", "expected"):
        table.add_column(col, overflow="fold")
    for r in results:
        v = r.verdict.value
        table.add_row(shown(r.id), r.kind, Text(clean(verdict_text(r), newlines=False), style=VERDICT_STYLE.get(v, "")),
                      f"{r.examples}+{r.adversarial_examples}", str(r.nontrivial_examples),
                      fmt(r.informative_min_slack), fmt(r.informative_worst_ratio),
                      Text(clean(evidence(r), newlines=False)[:80]), _GATE_TEXT[gate(r)])
    console.print(table)
    console.print(f"verdicts: {verdict_counts(results)}")


def _seed_range(text: str) -> tuple[int, ...]:
    """``0-4`` or ``0,2,5``: the audit seeds, each within the one seed rule's range."""
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-", 1))
            seeds = tuple(range(lo, hi + 1))
        else:
            seeds = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise OptionError(f"--seeds {text!r}: give a range such as 0-4 or a list such as 0,2,5") from None
    if not seeds or any(not 0 <= s <= MAX_SEED for s in seeds) or len(set(seeds)) != len(seeds):
        raise OptionError(f"--seeds {text!r}: give distinct seeds between 0 and {MAX_SEED}")
    return seeds


@app.command()
@_command
def mutate(
    claim: Optional[List[str]] = typer.Option(None, "--claim", help="claim id (repeatable)"),
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix, e.g. hyper (repeatable)"),
    seeds: str = typer.Option("0-4", "--seeds", help="audit seeds each mutant is searched at: 0-4 or 0,2,5"),
    profile: str = typer.Option("audit", "--profile", help="search depth: quick, audit or deep"),
    out: Path = typer.Option(Path("mutate-report"), "--out", help="directory for mutate.json, report.md, witnesses/"),
    jobs: Optional[int] = typer.Option(None, "--jobs", min=1, help="parallel processes (default: all cores)"),
    claim_timeout: Optional[float] = typer.Option(None, "--claim-timeout", min=1, max=MAX_TIMEOUT,
                                                  help=f"seconds per mutant and seed (default {DEFAULT_CLAIM_SECONDS:g})"),
    max_survivor: Optional[float] = typer.Option(None, "--max-survivor", min=0, max=100,
                                                 help="exit 1 when a constant, exponent or side strengthened by this "
                                                      "many percent or more survives (a CI gate on search power)"),
) -> None:
    """Mutation analysis: audit each strengthening of the selected claims' inequalities (constants and exponents
    moved 1-20 %, terms dropped, sides scaled by 1 %, strict) and report each part's sensitivity -- the smallest
    strengthening the search refutes, with its witness, and the mutants it never refutes."""
    seed_list = _seed_range(seeds)
    _seconds("--claim-timeout", claim_timeout)
    if not (claim or paper):
        raise OptionError("name what to mutate: --paper P or --claim ID (a whole installation is hours of audits)")
    claims = _select(paper, claim)
    plan = _budget(profile, None, None, None)
    report = ReportFolder(out, replace=True)
    planned = mt.plan(claims, seed_list[0])
    console.print(f"{len(planned.mutants)} mutants of {len(claims) - len(planned.not_mutated)} claims; seeds "
                  f"{', '.join(map(str, seed_list))}; profile {profile}", highlight=False)
    with report, interrupts_raise(), _progress() as progress:
        task = progress.add_task("mutating", total=len(planned.mutants))

        def tick(done: int) -> None:
            progress.advance(task, done)

        outcomes = mt.run(planned.mutants, seed_list, plan, jobs or default_jobs(),
                          DEFAULT_CLAIM_SECONDS if claim_timeout is None else claim_timeout, tick)
        table = mt.summarize(outcomes)
        data = mt.mutate_json(outcomes, table, planned, seed_list, profile)
        mt.write_outputs(report, data)
        report.commit()
    mt.store(table, seed_list, profile)
    shown = Table(title="sensitivity: the smallest strengthening the search refutes")
    for col in ("claim", "part", "sensitivity"):
        shown.add_column(col, overflow="fold")
    for row in mt.terminal_rows(table):
        shown.add_row(*(clean(x) for x in row))
    console.print(shown)
    for claim_id, why in planned.not_mutated.items():
        console.print(f"not mutated: {claim_id}: {why}", highlight=False)
    console.print(f"reports: {out / 'mutate.json'} and {out / 'report.md'}")
    if max_survivor is not None:
        missed = mt.survivors_at_least(outcomes, max_survivor / 100)
        for o in missed:
            console.print(f"[bold red]survived[/bold red] {o['claim']}: {shown(o['mutation']['description'])} "
                          f"(part {shown(o['part'])})", highlight=False)
        if missed:
            raise typer.Exit(1)


@app.command()
@_command
def replay(witness: Path = typer.Argument(..., help="a witness JSON written by `clcheck audit`")) -> None:
    """Re-evaluate a saved counterexample in high precision; exit 0 iff it still refutes its claim."""
    data = read_witness(witness)
    plugin = data.get("plugin")
    # a witness is data: it may name only a plugin this installation registers (or a module inside one),
    # and nothing is imported from that name: the claim's own plugin is loaded by the claim's prefix
    known = registered_plugins()
    if plugin is not None and not any(plugin == m or str(plugin).startswith(m + ".") for m in known):
        raise WitnessError(f"the witness names the plugin module {plugin!r}, which is not a registered plugin "
                           "(a clcheck.claims entry point or a CLCHECK_PLUGINS module): nothing was imported")
    try:
        claim = _mutant_of(data) if "mutation" in data else get(data["claim"])
    except KeyError:
        hint = (f"its plugin {plugin!r} does not register it" if plugin else
                "the witness does not name its plugin: load it with CLCHECK_PLUGINS=<module>")
        raise WitnessError(f"the witness is of claim {data['claim']!r}, which is not registered ({hint})") from None
    reading = data.get("reading", "literal")
    if not isinstance(reading, str):
        raise WitnessError("the witness's field reading must be a string (the name of one of the claim's readings)")
    try:
        claim = claim.reading_named(reading)
    except ClaimError as exc:
        raise WitnessError(str(exc)) from None
    if data.get("kind") in ("experiment", "reach"):
        (_replay_experiment if data["kind"] == "experiment" else _replay_reach)(data, claim)
        return
    if not isinstance(claim, StatementClaim):
        raise WitnessError(f"claim {claim.id} is not a statement claim: its witnesses are experiment witnesses")
    special = {"tightness": _replay_tightness, "closed": _replay_closed,
               "parametric": _replay_parametric}.get(data.get("kind"))
    if special is not None:
        special(data, claim)
        return
    p = replay_witness(data, claim)
    console.print(f"claim {claim.id}: {shown(claim.statement_text())}")
    console.print(f"subject: {shown(p.family.describe(p.subject))}")
    for v in p.confirmed or []:
        status = "[red]VIOLATED[/red]" if is_violation(v.certain_margin, v.tol) else "holds"
        console.print(f"  {shown(str(v.part))} \\[{v.part.relation}]: left side {mpmath.nstr(v.lhs, 25)}, right side "
                      f"{mpmath.nstr(v.rhs, 25)}; violated by {mpmath.nstr(v.margin, 15)} "
                      f"(tolerance {mpmath.nstr(v.tol, 3)}): {status}")
    if p.violated:
        console.print(f"[bold red]the witness still refutes {claim.id}[/bold red] (mpmath, {p.dps} digits)")
    else:
        console.print(f"[yellow]the witness no longer refutes {claim.id}[/yellow]")
        raise typer.Exit(1)


def _mutant_of(data: dict) -> Any:
    """The mutant a `clcheck mutate` witness refutes, rebuilt from its recorded mutation and the claim as it is now
    (a part that no longer exists, or a mutation that is not one, is a named error)."""
    try:
        mutation = Mutation.from_json(data["mutation"])
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise WitnessError(f"the witness's field mutation is malformed ({type(exc).__name__}: {exc})") from None
    shipped = get(mutation.claim_id)
    if not isinstance(shipped, StatementClaim) or not any(str(p) == mutation.part for p in shipped.statement):
        raise WitnessError(f"the witness mutates the part {mutation.part!r} of {mutation.claim_id}, which it does not "
                           "have (was the claim edited since `clcheck mutate`?)")
    try:
        return mutant_claim(shipped, mutation)
    except (IndexError, TypeError, ValueError) as exc:
        raise WitnessError(f"the witness's mutation does not apply to {mutation.claim_id} as it is now: {exc}") from None


def _replay_tightness(data: dict, claim: Any) -> None:
    """A tightness witness: the part's ratio on the recorded subject, again, in high precision. It records how close
    the claim came to binding, not a refutation: exit 0 only if the subject violates the claim (a replay exits 0
    only for a witness that refutes), else 1, saying whether it reaches the recorded ratio (compare.same_margin)."""
    ratio, p = replay_tightness(data, claim)
    recorded = float(data["ratio"])
    console.print(f"claim {claim.id}, part {shown(str(data['part']))}")
    console.print(f"subject: {shown(p.family.describe(p.subject))}")
    console.print(f"smaller side / larger side: {ratio!r} (mpmath, {p.dps} digits); recorded {recorded!r}")
    if p.violated:
        console.print(f"[bold red]the subject violates {claim.id}[/bold red]")
        return
    reached = ratio is not None and same_margin(ratio, recorded, ATOL)
    console.print(("the witness reaches the recorded ratio" if reached else
                   "[yellow]the witness no longer reaches the recorded ratio[/yellow]")
                  + f"; a tightness witness does not refute {claim.id} (exit 1)")
    raise typer.Exit(1)


def _replay_closed(data: dict, claim: Any) -> None:
    """A closed part's witness: enclose its margin again (arb); exit 0 iff the enclosure still refutes it."""
    decided = replay_closed(data, claim)
    console.print(f"claim {claim.id}, closed part {shown(decided.relation)}")
    console.print(f"small side - large side in [{shown(decided.lower)}, {shown(decided.upper)}] (arb)")
    if decided.holds is False:
        console.print(f"[bold red]the closed part still refutes {claim.id}[/bold red]")
        return
    console.print(f"[yellow]the closed part no longer refutes {claim.id}[/yellow]")
    raise typer.Exit(1)


def _replay_parametric(data: dict, claim: Any) -> None:
    """An asymptotic part's witness family: take the ratio's exact limit again (sympy), under the reading's prefix;
    exit 0 iff the family still refutes the part."""
    m = replay_parametric(data, claim)
    console.print(f"claim {claim.id} (reading {claim.reading}), part {shown(m.part)}")
    console.print(f"family {shown(m.family)} (moves {shown(', '.join(m.moves))}): |lhs|/g = {shown(m.ratio)}, limit "
                  f"{shown(m.limit or '-')} as {m.index} tends to its limit")
    if m.valid and m.verdict == Verdict.REFUTED:
        console.print(f"[bold red]the family still refutes {claim.id}[/bold red]: {shown(m.why)}")
        return
    console.print(f"[yellow]the family no longer refutes {claim.id}[/yellow]: "
                  f"{shown(m.why if m.valid else m.why_invalid)}")
    raise typer.Exit(1)


def _replay_reach(data: dict, claim: Any) -> None:
    """A reachability witness: bound the conclusion's infimum again at the recorded configuration (or on the data
    adversary's set); exit 0 iff it is still certified unreachable."""
    row = replay_row(data, claim)
    where = row.get("config") if data.get("adversary") is None else f"the data set {row.get('kind')}"
    console.print(f"claim {claim.id} (reading {claim.reading}): {shown(str(row.get('reach') or 'data adversary'))} at "
                  f"{shown(str(where))}")
    console.print(f"certified inf Q >= {shown(str(row.get('lower_text', row.get('lower'))))}; a value Q takes: "
                  f"{shown(str(row.get('upper_text', row.get('upper'))))}")
    if row.get("verdict") == Verdict.REFUTED:
        console.print(f"[bold red]the conclusion is still unreachable: the witness still refutes {claim.id}[/bold red]: "
                      f"{shown(row['why'])}")
        return
    console.print(f"[yellow]the conclusion is no longer certified unreachable: the witness no longer refutes {claim.id}"
                  f"[/yellow]: {shown(str(row.get('why')))}")
    raise typer.Exit(1)


def _replay_experiment(data: dict, claim: Any) -> None:
    """An experiment witness: run the experiment again at the recorded audit seed and profile; exit 0 iff the
    recorded configuration (or witness family) still refutes the claim."""
    from training.device import configure_process, deterministic_kernels  # heavy: torch (1 s), not for list/--help

    if not isinstance(claim, ExperimentClaim):
        raise WitnessError(f"claim {claim.id} is not an experiment claim: an experiment witness cannot replay on it")
    configure_process()
    deterministic_kernels()
    still, why = replay_experiment(data, claim)
    console.print(f"claim {claim.id} (reading {claim.reading}): {shown(str(data.get('description', '')))}")
    console.print(f"ran the experiment again (audit seed {data['audit_seed']}, "
                  f"{'quick' if data['quick'] else 'audit'} profile): {shown(why[:400])}")
    if still:
        console.print(f"[bold red]the recorded evidence still refutes {claim.id}[/bold red]")
    else:
        console.print(f"[yellow]the recorded evidence no longer refutes {claim.id}[/yellow]")
        raise typer.Exit(1)


@app.command()
@_command
def proofs(
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix of the proofs to check"),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED),
    profile: str = typer.Option("quick", "--profile", help="search depth: quick, audit or deep"),
    budget: Optional[int] = typer.Option(None, "--budget", min=0, help="random examples per claim and per step"),
    out: Path = typer.Option(Path("audit-report"), "--out"),
    write_pages: bool = typer.Option(False, "--write-pages", help="regenerate each page's proof section from this run"),
) -> None:
    """Check every printed proof step by step: certificates, named results, citations, and each step
    on the claim's subjects and witnesses; write proofs.json, proofs.md and the dependency graph."""
    from training.device import configure_process, deterministic_kernels  # heavy: torch (1 s), not for list/--help

    if paper:
        _select(paper, None)  # an unknown prefix is the same named error as in audit and list
    plan = _budget(profile, budget, None, None)
    configure_process()
    deterministic_kernels()
    folder = ReportFolder(out, replace=False)  # checked before anything runs: new, empty, or clcheck's own
    pages = pf.read_pages(paper)
    registered = {c.id: c for c in all_claims()}
    edges = structure(paper)
    chained = {p.claim_id for p in pages if proofs_for(p.claim_id)}
    tagged = [p for p in pages if p.claim_id not in chained]
    needed = sorted((chained | pf.referenced_ids(tagged) | {n for e in edges for n in e}) & set(registered))
    with _progress() as progress:
        task = progress.add_task("checking", total=len(needed))

        def tick(cid: str) -> None:
            progress.update(task, description=f"checking {cid}")
            progress.advance(task)

        checked = pr.run_proofs([registered[c] for c in needed], plan, seed, tick)
    results = {cid: entry.result for cid, entry in checked.items()}
    entries = pf.judge(pages, results, checked)  # each page: its checked chains, else its tags
    with folder:
        graph = folder.path("proofs-graph.png")
        pf.draw_graph(pages, edges, results, graph, checked)
        pr.write_proofs_json(entries, seed, folder.path("proofs.json"))
        pf.write_summary(pages, entries, graph, folder.path("proofs.md"))
        pf.write_coq_scripts(folder.root, checked)
        folder.commit()
    if write_pages:
        for page in pages:
            if page.claim_id in chained:
                pr.write_proof_section(page.path, checked[page.claim_id], seed)
            fresh = pf.parse_page(page.path)  # the page as it is now (a chained claim's section just generated)
            pf.write_checker_block(fresh, pf.judge([fresh], results)[page.claim_id].proofs[0],
                                   results.get(page.claim_id), seed)
    table = Table(title="step-checked proofs")
    for col in ("page", "verdict", "steps", *pf.STEP_KINDS, "broken step"):
        table.add_column(col)
    for page in pages:
        entry = entries[page.claim_id]
        counts = entry.counts()
        table.add_row(page.claim_id, entry.result.verdict_label if entry.result is not None else "not encoded",
                      str(sum(counts.values())), *(str(counts[k]) for k in pf.STEP_KINDS),
                      pf.broken_text(entry.broken_step))
    console.print(table)
    console.print(f"report: {out / 'proofs.md'}; {out / 'proofs.json'}; graph: {graph}")
    _exit_on_gate(results.values(), strict=False)


@app.command("check")
@_command
def check(
    claim_id: str = typer.Argument(..., help="the claim's id (`clcheck list` shows them)"),
    profile: str = typer.Option("quick", "--profile", help="search depth: quick (default), audit or deep"),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="seed of every random choice"),
    fresh: bool = typer.Option(False, "--fresh", help="search again (ignore the verdict store)"),
    watch: bool = typer.Option(False, "--watch", help="check again whenever a file of the claim's plugin changes "
                               "(Ctrl-C stops)"),
    claim_timeout: Optional[float] = typer.Option(None, "--claim-timeout", min=1, max=MAX_TIMEOUT,
                                                  help=f"seconds (default {DEFAULT_CLAIM_SECONDS:g})"),
) -> None:
    """Check one claim, in this process: its verdict, why, its evidence and each part's best ratio -- seconds for a
    simple inequality at the quick profile. Exit 1 when the verdict fails the gate (as `clcheck audit`)."""
    claim = get(claim_id)
    if watch:
        _watch_check(claim_id, [a for a in sys.argv[1:] if a != "--watch"])
        return
    _seconds("--claim-timeout", claim_timeout)
    from training.device import configure_process, deterministic_kernels  # heavy: torch (1 s)

    configure_process()
    deterministic_kernels()
    plan = named_profile(profile)

    def run() -> tuple[Any, dict[str, bytes]]:
        with console.status(f"checking {claim_id} ({profile} profile, seed {seed}) ..."):
            return check_claim(claim, plan, seed=seed, timeout=claim_timeout or DEFAULT_CLAIM_SECONDS), {}

    result = (store.checked(claim, plan, seed, run, artifacts=False, fresh=fresh) if store.enabled() else run())[0]
    v = result.verdict.value
    console.print(Text(f"{claim_id}: {clean(verdict_text(result), newlines=False)}", style=VERDICT_STYLE.get(v, "")))
    if result.reason:
        console.print(f"why: {shown(result.reason[:600])}", highlight=False)
    console.print(f"evidence: {shown(clean(evidence(result), newlines=False)[:400])}", highlight=False)
    console.print(f"examples: {result.examples} + {result.adversarial_examples} adversarial, "
                  f"{result.nontrivial_examples} informative; {result.seconds:.1f} s"
                  + (" (reused from the verdict store, evidence replayed; --fresh searches again)"
                     if result.reused else ""), highlight=False)
    for row in result.tightness:
        console.print(f"  best ratio of {shown(str(row['part']))}: {fmt(row.get('best_ratio'))}"
                      + (f" (found by {row['found_by']})" if row.get("found_by") else ""), highlight=False)
    if result.witness is not None:
        console.print("witness: `clcheck audit --claim " + claim_id + "` writes it; subject: "
                      + shown(str(result.witness.get("description", ""))[:300]), highlight=False)
    if gate(result) == "fail":
        raise typer.Exit(1)


def _watch_check(claim_id: str, argv: list[str]) -> None:
    """Run `clcheck check` (without --watch) in a fresh process, then again each time the plugin's files change."""
    files = plugin_files(origin(claim_id) or "")
    if not files:
        raise OptionError(f"claim {claim_id}: its plugin's files cannot be found, so there is nothing to watch")
    try:
        while True:
            subprocess.run([sys.executable, "-m", "theorems.frontend.cli", *argv], check=False)
            console.print(f"[dim]watching {len(files)} file(s) of {origin(claim_id)}; Ctrl-C stops[/dim]")
            changed = wait_for_change(files)
            console.print(f"[dim]changed: {', '.join(p.name for p in changed)}[/dim]")
    except KeyboardInterrupt:
        console.print("stopped watching")


@app.command("eval")
@_command
def eval_command(
    claim_id: str = typer.Argument(..., help="the claim whose families, quantities and parts to use"),
    family: Optional[str] = typer.Option(None, "--family", help="the family (default: the claim's first)"),
    subject: Optional[Path] = typer.Option(None, "--subject", help="a witness JSON (a counterexample or a report's "
                                           "best subject) or a plain subject JSON of --family"),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED, help="the draw, without --subject"),
    quantity: Optional[List[str]] = typer.Option(None, "--quantity", "-q", help="a quantity to show (repeatable; "
                                                 "default: every one the claim's parts use)"),
    dps: int = typer.Option(60, "--dps", min=15, max=10_000, help="mpmath digits"),
) -> None:
    """Evaluate quantities and the claim's parts on one subject, in every backend: values, sides, slack, ratio."""
    claim = get(claim_id)
    if not isinstance(claim, StatementClaim):
        raise OptionError(f"claim {claim_id} is not a statement over quantities: nothing to evaluate")
    result = ev.evaluate_subject(claim, family, subject, seed, list(quantity or []), dps)
    console.print(f"{claim_id} on {shown(result.origin)}", highlight=False)
    console.print(f"subject: {shown(result.family.describe(result.subject)[:400])}", highlight=False)
    table = Table(title="quantities")
    columns = list(result.quantities[0]) if result.quantities else ["quantity"]
    for col in columns:
        table.add_column(col, overflow="fold")
    for row in result.quantities:
        table.add_row(*(shown(ev.shown_number(row.get(c))) for c in columns))
    console.print(table)
    parts = Table(title=f"parts (sides at {dps} digits; slack = larger side - smaller side)")
    for col in ("part", "left side", "right side", "slack", "ratio", "float64 ratio", "holds"):
        parts.add_column(col, overflow="fold")
    for row in result.parts:
        parts.add_row(shown(row["part"]), ev.shown_number(row["lhs"]), ev.shown_number(row["rhs"]),
                      ev.shown_number(row["slack"], 6), ev.shown_number(row["ratio"]),
                      ev.shown_number(row["float64 ratio"]), "yes" if row["holds"] else "[red]NO[/red]")
    console.print(parts if result.parts else "no part of the claim applies to this subject")


@app.command("rules")
@_command
def rules(room: Optional[str] = typer.Option(None, "--room", help=f"one room: {', '.join(ROOMS)}")) -> None:
    """Print the verdict authority's table: every rule that turns measurements into a verdict, with its statement."""
    if room is not None and room not in ROOMS:
        raise OptionError(f"--room {room!r}: the rooms are {', '.join(ROOMS)}")
    for r in ROOMS:
        if room not in (None, r):
            continue
        console.print(f"[bold]{r}[/bold]")
        for name, rule in RULES.items():
            if rule.room == r:
                console.print(f"  [cyan]{shown(name)}[/cyan]: {shown(rule.summary())}")


@app.command("list")
@_command
def list_claims(paper: Optional[List[str]] = typer.Option(None, "--paper")) -> None:
    """List the registered claims with their kind, source and statement."""
    table = Table(title="registered claims")
    for col in ("id", "kind", "source", "statement"):
        table.add_column(col, overflow="fold")
    for c in (_select(paper, None) if paper else all_claims()):
        table.add_row(c.id, c.kind.value, str(c.source), c.statement_text())
    console.print(table)
    console.print("papers: " + "; ".join(f"{p.prefix} ({p.module})" for p in papers()))


@app.command("coverage")
@_command
def coverage(
    source: Optional[List[Path]] = typer.Argument(None, help="the paper's source files (default: the files its "
                                                   "plugin names, in --sources)"),
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix of the claims to match (repeatable)"),
    report: Optional[Path] = typer.Option(None, "--report", help="a report.json: show each claim's verdict"),
    sources: Optional[Path] = typer.Option(None, "--sources", help="folder of the source files (default: "
                                           "$CLCHECK_SOURCES or ../shared/papers beside the repository)"),
) -> None:
    """List the numbered statements (Lemma, Proposition, Theorem, Corollary, Fact, Claim, Assumption,
    Definition, Remark, Induction Hypothesis, Algorithm) of a paper's source text, the claims that cover each
    (with their verdicts, given --report), and the uncovered ones."""
    claims = _select(paper, None) if paper else all_claims()
    if source:
        paths = {p.name: p for p in source}
        for p in source:
            if not p.is_file():
                raise InputFileError(f"source file {str(p)!r} does not exist")
    else:
        folder = cov.sources_dir(sources)
        wanted = sorted({f for pp in papers() if not paper or pp.prefix in paper for f in pp.files})
        paths = cov.find_sources(wanted, folder) or {}
        if not paths:
            raise InputFileError(f"the source files of {', '.join(paper or ['the papers'])} are not in {str(folder)!r}: "
                                 "name them as SOURCE, or use --sources or CLCHECK_SOURCES")
    verdicts, marks = _coverage_verdicts(claims, report), _coverage_marks(claims, report)
    rows = cov.coverage_of(paths, [(c.id, c.source) for c in claims])
    table = Table(title="numbered statements and the claims covering them")
    for col in ("file", "line", "statement", "title", "claims"):
        table.add_column(col, overflow="fold")
    rebuilt, partial = {c.id for c in claims if c.reconstructed}, {c.id for c in claims if c.qualitative}
    no_evidence = {c for c, m in marks.items() if "by construction" in m and verdicts.get(c) in ("untested", "inconclusive")}
    for r in rows:
        cited = ", ".join((f"{c} ({verdicts[c]})" if c in verdicts else c) + "".join(f" [{m}]" for m in marks.get(c, ()))
                          for c in r.claims)
        table.add_row(r.file, str(r.statement.line), r.statement.key, shown(r.statement.title[:40]),
                      shown(cited) if cited else "[red]uncovered[/red]")
    console.print(table)
    for name in paths:
        mine = [r for r in rows if r.file == name]
        n = cov.counts(mine, verdicts, rebuilt, partial, no_evidence)
        uncovered = ": " + ", ".join(r.statement.key for r in mine if not r.covered) if n["missing"] else ""
        console.print(f"{name}: {n['numbered']} numbered, {n['covered']} covered, {n['qualitative']} checked "
                      f"(qualitative), {n['reconstructed']} checked only as the checker's reconstruction, "
                      f"{n['by_construction']} checked only by construction (no evidence), "
                      f"{n['not_encodable']} not encodable, {n['definitions']} definitions, {n['missing']} "
                      f"missing{uncovered}", highlight=False)
        if not any(name in cov.source_files(c.source) for c in claims):
            console.print(f"  no selected claim cites {name}", highlight=False)


def _coverage_verdicts(claims: list, report: Optional[Path]) -> dict[str, str]:
    """Claim id -> verdict: not_encodable for an UnencodableClaim, definition for a DefinitionClaim, and every
    verdict of ``report``."""
    verdicts = {c.id: "not_encodable" for c in claims if isinstance(c, UnencodableClaim)}
    verdicts.update({c.id: "definition" for c in claims if isinstance(c, DefinitionClaim)})
    if report is None:
        return verdicts
    data = read_json_file(report, MAX_REPORT_BYTES, "--report file")
    try:
        verdicts.update({str(c["id"]): str(c["verdict"]) for c in data["claims"]})
    except (KeyError, TypeError) as exc:
        raise InputFileError(f"--report {str(report)!r} is not a clcheck report.json ({type(exc).__name__}: {exc})") from None
    return verdicts


def _coverage_marks(claims: list, report: Optional[Path]) -> dict[str, list[str]]:
    """Claim id -> the marks its verdict carries: qualitative and reconstructed as the claims declare them, and
    every mark of ``report`` (modulo, one-sided, by construction, ...), in the order the label shows them."""
    marks = {c.id: [m for m, on in (("qualitative", c.qualitative), ("reconstructed", c.reconstructed)) if on]
             for c in claims}
    if report is not None:
        data = read_json_file(report, MAX_REPORT_BYTES, "--report file")
        for c in data.get("claims", ()) if isinstance(data, dict) else ():
            if isinstance(c, dict) and isinstance(c.get("marks"), list):
                marks[str(c.get("id"))] = [str(m) for m in c["marks"]]
    return marks


@app.command("check-family")
@_command
def check_family(
    claim: Optional[List[str]] = typer.Option(None, "--claim", help="claim id (repeatable)"),
    paper: Optional[List[str]] = typer.Option(None, "--paper", help="id prefix (repeatable)"),
    draws: int = typer.Option(3, "--draws", min=1, help="subjects drawn per family"),
    seed: int = typer.Option(0, "--seed", min=0, max=MAX_SEED),
) -> None:
    """Evaluate every quantity of the selected claims' subject families in float64, mpmath and
    torch on a few draws that the claims using it admit (their hypotheses); name the backend and quantity
    that fail. Exit 1 on any failure."""
    families: dict[int, Any] = {}
    users: dict[int, list[Any]] = {}
    for c in _select(paper, claim):
        if isinstance(c, StatementClaim):
            for fam in c.subjects:
                families.setdefault(id(fam), fam)
                users.setdefault(id(fam), []).append(c)
    rows = check_families(list(families.values()), draws, seed, users)
    table = Table(title=f"quantities per backend ({draws} draws per family, seed {seed})")
    for col in ("family", "quantity", "float64", "mpmath", "torch"):
        table.add_column(col, overflow="fold")
    for row in rows:
        table.add_row(row.family, row.quantity, *(_cell(row.status[b]) for b in ("float64", "mpmath", "torch")))
    console.print(table)
    failed = [r for r in rows if r.failed]
    if failed:
        console.print(f"[bold red]{len(failed)} quantity/backend pair(s) failed[/bold red]")
        raise typer.Exit(1)


def _cell(status: str) -> str:
    return status if status.startswith(("ok", "n/a")) else f"[red]{status}[/red]"


def _register_train() -> None:
    """`clcheck train`: the training module's command (torch is imported only when it runs)."""
    app.command("train", help="Train an encoder (digits or synthetic data); checkpoints and resume.")(
        _command(train_command))


_register_train()


def main(argv: Optional[List[str]] = None) -> None:
    """The ``clcheck`` entry point; ``--debug`` may stand anywhere on the command line. A bad option
    or value is two lines (what is wrong, where the help is), exit 2."""
    args = list(sys.argv[1:] if argv is None else argv)
    if "--debug" in args:
        args = ["--debug"] + [a for a in args if a != "--debug"]
    try:
        env.flag("CLCHECK_DEBUG")
    except ClcheckError as exc:  # read before any command: a bad value is the command's named error
        console.print(f"[red]error:[/red] {shown(str(exc))}", highlight=False)
        sys.exit(EXIT_USER_ERROR)
    try:
        code = app(args=args, prog_name="clcheck", standalone_mode=False)
    except typer.Abort:
        console.print("[red]aborted[/red]")
        sys.exit(1)
    except typer.TyperException as exc:  # a usage error: an unknown option, a value of the wrong type or range
        context = getattr(exc, "ctx", None)
        command = context.command_path if context is not None else "clcheck"
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        console.print(f"[red]error:[/red] {shown(' '.join(message.split()))}", highlight=False)
        console.print(f"see `{command} --help`", highlight=False)
        sys.exit(getattr(exc, "exit_code", EXIT_USER_ERROR))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
