"""The layout's import rules, read from the source: each room imports only the rooms below it.

numerics (ground) < theorems.engine < theorems.subjects < theorems.papers < theorems.frontend;
training sits beside the engine (it imports numerics only). The engine and the front end name
no paper: papers enter through the registry.
"""

from __future__ import annotations

import ast
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("merad", "huang", "ren", "wen")


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def files(package: str) -> list[Path]:
    return sorted((ROOT / package.replace(".", "/")).rglob("*.py"))


FORBIDDEN = {
    "numerics": ("theorems", "training"),
    "training": ("theorems",),
    "theorems.engine": ("theorems.subjects", "theorems.papers", "theorems.frontend", "training"),
    "theorems.subjects": ("theorems.papers", "theorems.frontend"),
    "theorems.papers": ("theorems.frontend",),
}


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_each_room_imports_only_the_rooms_below_it(room: str) -> None:
    offenders = {str(f.relative_to(ROOT)): sorted(m for m in imported_modules(f)
                                                  if any(m == b or m.startswith(b + ".") for b in FORBIDDEN[room]))
                 for f in files(room)}
    offenders = {f: m for f, m in offenders.items() if m}
    assert not offenders, f"{room} imports rooms above it: {offenders}"


def test_no_paper_module_imports_another_paper() -> None:
    for paper in PAPERS:
        for f in files(f"theorems.papers.{paper}"):
            others = [m for m in imported_modules(f) for p in PAPERS
                      if p != paper and m.startswith(f"theorems.papers.{p}")]
            assert not others, f"{f} imports {others}"


@pytest.mark.parametrize("room", ["theorems.engine", "theorems.frontend", "theorems.subjects"])
def test_engine_front_end_and_subjects_keep_no_list_of_paper_names(room: str) -> None:
    for f in files(room):
        text = f.read_text()
        for paper in PAPERS:
            assert f'"{paper}"' not in text and f"'{paper}'" not in text, f"{f} names the paper {paper!r}"


def test_the_shipped_papers_enter_through_the_entry_point_group() -> None:
    from importlib.metadata import entry_points

    registered = {ep.name: ep.value for ep in entry_points(group="clcheck.claims")}
    assert {p: f"theorems.papers.{p}:register" for p in PAPERS}.items() <= registered.items()


def test_every_file_lives_in_a_named_room() -> None:
    rooms = {"engine", "subjects", "papers", "frontend"}
    loose = [f.name for f in (ROOT / "theorems").glob("*.py") if f.name != "__init__.py"]
    assert not loose, f"files outside the rooms of theorems/: {loose}"
    assert {d.name for d in (ROOT / "theorems").iterdir() if d.is_dir() and d.name != "__pycache__"} == rooms


def test_no_paper_module_names_a_verdict() -> None:
    """The engine alone turns evidence into a verdict (theorems.engine.rules, theorems.engine.check): a
    paper's code measures and certifies, it never decides -- no module under theorems/papers (nor the
    example plugin) reads or builds a Verdict."""
    offenders = []
    for root in (ROOT / "theorems" / "papers", ROOT / "examples"):
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text())
            names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
            if "Verdict" in names or any(m.endswith(".verdict") or m.endswith("Verdict")
                                         for m in imported_modules(path)):
                offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def test_every_shipped_claim_declares_its_quantifier_prefix() -> None:
    """Every claim that is checked; a not-encodable statement's quantifiers are lost with it, and a definition binds
    nothing to check (either may still declare a prefix)."""
    from theorems.engine.claim import DefinitionClaim, UnencodableClaim
    from theorems.engine.registry import all_claims

    missing = [c.id for c in all_claims(papers=list(PAPERS))
               if not c.prefix and not isinstance(c, (UnencodableClaim, DefinitionClaim))]
    assert not missing, f"claims without a prefix (theorems.forall / theorems.exists): {missing}"


def test_the_papers_use_the_public_api_only() -> None:
    """theorems/papers/* are plugins like an outsider's: they import from ``theorems``, ``theorems.subjects`` and
    ``numerics`` (and their own package) -- never the engine's or the front end's modules, not even by name."""
    offenders = [str(p.relative_to(ROOT)) for p in (ROOT / "theorems" / "papers").rglob("*.py")
                 if "theorems.engine" in p.read_text() or "theorems.frontend" in p.read_text()
                 or "theorems/engine" in p.read_text() or "theorems/frontend" in p.read_text()]
    assert not offenders, offenders


def test_no_subject_family_is_a_hand_written_subclass() -> None:
    """Every family is composed of public parts: the engine's composed Family is the one SubjectFamily subclass
    under theorems/subjects and theorems/papers."""
    subclasses = []
    for root in (ROOT / "theorems" / "subjects", ROOT / "theorems" / "papers"):
        for path in root.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ClassDef) and any(ast.unparse(b).endswith("SubjectFamily") for b in node.bases):
                    subclasses.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert subclasses == ["theorems/subjects/compose.py:Family"], subclasses


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports, at the top or inside functions (what runs on first use),
    not under ``if TYPE_CHECKING:``; ``from package import submodule`` depends on the submodule."""
    modules = {}
    for pkg in ("theorems", "numerics", "training"):
        for path in (ROOT / pkg).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text())
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules]
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def test_the_import_graph_has_no_cycle() -> None:
    """File-level imports, inside functions included, form no cycle: a module's dependencies can be read
    from its imports, and no module needs another to be half-initialized."""
    import networkx as nx

    graph = nx.DiGraph([(a, b) for a, bs in import_graph().items() for b in bs])
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, cycles


# -- function-local imports: only for a heavy or an optional dependency, with the reason beside it --------------

#: third-party roots a function may import on use (import times measured on top of the base stack: numpy,
#: sympy, mpmath, z3, flint, networkx, hypothesis, threadpoolctl, scipy itself and the engine, ~0.5 s together);
#: any ``scipy.<submodule>`` is heavy too (scipy.special 0.15 s, scipy.optimize 0.2 s, scipy.integrate 0.3 s,
#: scipy.stats 0.5 s, scipy.signal 0.7 s), ``scipy`` itself is not
HEAVY_THIRD_PARTY = {
    "torch": "heavy: 1 s",
    "sklearn": "heavy: 0.6-0.7 s (and it loads scipy.stats)",
    "matplotlib": "heavy: 0.3 s for matplotlib.figure",
    "ray": "optional: the extra clcheck[ray], not always installed",
}
#: first-party modules that import one of those at their top (so importing them is as heavy)
HEAVY_FIRST_PARTY = {
    "numerics.ascent": "imports torch",
    "numerics.streaming": "imports torch",
    "training.data": "imports scipy.spatial (0.15 s)",
    "training.device": "imports torch",
    "training.encoders": "imports torch",
    "training.loop": "imports torch",
    "training.losses": "imports torch",
}
_PRAGMA = re.compile(r"noqa(:\s*[A-Z]+[0-9]+(\s*,\s*[A-Z]+[0-9]+)*)?|type:\s*ignore(\[[^\]]*\])?")


def import_targets(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement reads (``from scipy import optimize`` reads scipy.optimize)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    module = "." * node.level + (node.module or "")
    return [f"{module}.{alias.name}" for alias in node.names]


def is_heavy(name: str) -> bool:
    root = name.split(".")[0]
    return (root in HEAVY_THIRD_PARTY or (root == "scipy" and name != "scipy")
            or any(name == m or name.startswith(m + ".") for m in HEAVY_FIRST_PARTY))


def function_local_imports(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """The import statements inside a function (or a method, or a function nested in one)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text()), False)
    return found


def reasons(path: Path) -> dict[int, str]:
    """Line -> the text of its comment, without the pragmas (noqa, type: ignore) that say no reason."""
    with tokenize.open(path) as f:
        comments = {t.start[0]: t.string for t in tokenize.generate_tokens(f.readline) if t.type == tokenize.COMMENT}
    return {line: text for line, text in comments.items() if re.search(r"[A-Za-z]{3}", _PRAGMA.sub("", text[1:]))}


def test_a_function_imports_only_a_heavy_or_optional_dependency_with_the_reason_beside_it() -> None:
    """An import inside a function is kept only for an optional or heavy dependency (HEAVY_THIRD_PARTY,
    a scipy submodule, HEAVY_FIRST_PARTY), with a comment on its (first) line saying why; everything else
    is imported at the top of the module."""
    light, unexplained = [], []
    for pkg in ("theorems", "numerics", "training"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            why = reasons(path)
            for node in function_local_imports(path):
                where = f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}"
                if not all(is_heavy(name) for name in import_targets(node)):
                    light.append(where)
                elif node.lineno not in why:
                    unexplained.append(where)
    assert not light, f"light imports inside functions (move them to the top of the module): {light}"
    assert not unexplained, f"imports inside functions without the reason in a comment beside them: {unexplained}"


@pytest.mark.parametrize("module", sorted(HEAVY_FIRST_PARTY))
def test_the_first_party_modules_listed_as_heavy_are_heavy(module: str) -> None:
    """Each imports a heavy dependency (or another module listed as heavy) at its top: the list is not stale."""
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text())
    top = [name for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
           for name in import_targets(node)]
    assert any(is_heavy(name) and not name.startswith(module + ".") for name in top), (module, top)


def test_no_test_module_imports_the_benchmarks() -> None:
    """benchmarks/ holds scripts, run as scripts: a test runs them in a subprocess (tests/test_bench.py) and reads
    the data they share with the tests from tests/ (tests/thin_mutants.py) -- no test imports a benchmark module
    nor puts benchmarks/ on its ``sys.path``."""
    scripts = {p.stem for p in (ROOT / "benchmarks").glob("*.py")} | {"benchmarks"}
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text())
        named = [m for m in imported_modules(path) if m.split(".")[0] in scripts]
        assigned = {t.id: ast.unparse(node.value) for node in ast.walk(tree) if isinstance(node, ast.Assign)
                    for t in node.targets if isinstance(t, ast.Name)}
        on_path = [ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Call)
                   and ast.unparse(node.func).endswith(("path.insert", "path.append", "path.extend", "syspath_prepend"))
                   and any("benchmarks" in ast.unparse(arg)
                           or any("benchmarks" in assigned.get(n.id, "") for n in ast.walk(arg) if isinstance(n, ast.Name))
                           for arg in node.args)]
        if named or on_path:
            offenders.append(f"{path.relative_to(ROOT)}: {named + on_path}")
    assert not offenders, offenders


def test_verdicts_are_decided_by_the_authority_only() -> None:
    """One verdict authority: outside ``theorems/engine/rules/`` (and the vocabulary in ``verdict.py``) a verdict is
    only ever read (compared), never produced -- no ``Verdict.<NAME>`` outside a comparison -- and no module outside
    the rules assigns a verdict except from the authority's judgement (``result.verdict = judgement.verdict``)."""
    offenders = []
    for path in sorted((ROOT / "theorems").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("theorems/engine/rules/") or rel == "theorems/engine/verdict.py":
            continue
        tree = ast.parse(path.read_text())
        compared = {id(n) for c in ast.walk(tree) if isinstance(c, ast.Compare)
                    for operand in [c.left, *c.comparators] for n in ast.walk(operand)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Verdict"
                    and node.attr.isupper() and id(node) not in compared):
                offenders.append(f"{rel}:{node.lineno} Verdict.{node.attr}")
            if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "verdict"
                                                     for t in node.targets)
                    and not (isinstance(node.value, ast.Attribute) and node.value.attr == "verdict")):
                offenders.append(f"{rel}:{node.lineno} assigns a verdict")
    assert not offenders, offenders


def test_no_tolerance_literal_decides_in_a_paper() -> None:
    """Plugins measure; the engine decides with its tolerance. No comparison in theorems/papers (or the examples)
    has a small float literal (0 < |x| <= 1e-5) or a name like TOL among its operands: a relation is reported as
    ``theorems.at_most(lhs, rhs, error=...)`` and decided by the engine."""
    offenders = []
    for root in (ROOT / "theorems" / "papers", ROOT / "examples"):
        for path in sorted(root.rglob("*.py")):
            tree = ast.parse(path.read_text())
            for c in ast.walk(tree):
                if not isinstance(c, ast.Compare):
                    continue
                for operand in [c.left, *c.comparators]:
                    for n in ast.walk(operand):
                        small = (isinstance(n, ast.Constant) and isinstance(n.value, float)
                                 and 0 < abs(n.value) <= 1e-5)
                        named = isinstance(n, ast.Name) and "TOL" in n.id.upper()
                        if small or named:
                            offenders.append(f"{path.relative_to(ROOT)}:{c.lineno} {ast.unparse(c)[:80]}")
    assert not offenders, "\n".join(offenders)


def test_every_seed_comes_from_the_one_seed_rule() -> None:
    """No arithmetic on a seed outside ``numerics/seeds.py``: a run's seed is ``run_seed(audit_seed, stream, index)``
    (``s + i`` would let audits at seeds 0 and 1 share runs)."""
    offenders = []
    for pkg in ("theorems", "numerics", "training"):
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if path.relative_to(ROOT).as_posix() == "numerics/seeds.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mult, ast.Sub)):
                    names = [n.id if isinstance(n, ast.Name) else n.attr for n in (node.left, node.right)
                             if isinstance(n, (ast.Name, ast.Attribute))]
                    if any("seed" in nm.lower() and not nm.lower().endswith("seeds") for nm in names):
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)[:60]}")
    assert not offenders, "\n".join(offenders)
