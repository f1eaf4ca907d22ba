"""Which numbered statements of a paper's source text the registered claims cover.

Paper-agnostic: :func:`statements` lists the numbered statements (Lemma, Proposition, Theorem,
Corollary, Fact, Claim, Assumption, Definition, Remark, Induction Hypothesis, Algorithm) of a source
text -- plain text, markdown or LaTeX -- and :func:`claim_refs` reads which of them a claim's :class:`~theorems.engine.claim.Source` covers:
its ``covers`` field when given, otherwise the numbers written in its ``numbering`` text
(``"Lemma 1 (7) = Lemma 3.1"``, ``"Lemmas B.12, B.17"``, ``"Lemma C.19, Corollary C.20"``).

A statement is named by its kind and number, normalized (``"lemma b.17"`` -> ``"Lemma B.17"``). In
plain text and markdown a statement is a line that *starts* with its name, followed by nothing, a
period, a colon or a parenthesized title (``**Lemma 1.**``, ``Lemma 5.1 (Informal version ...).``,
``Definition 1 ((σ, δ)-Augmentation)``) -- not a sentence that cites it (``Lemma 4.2 allows ...``,
``Proof of Lemma 3.1.``). In LaTeX a statement is a numbered theorem-like environment; its number is
counted as LaTeX would (``\\newtheorem`` declarations, shared counters, ``[section]`` numbering,
letters after ``\\appendix``), and its ``\\label`` is an alias a claim may cover too.

Numbered equations are not listed: whether the text calls one a bound or an identity cannot be read
reliably from extracted text (their displays are often lost).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from numerics.bounded_read import read_regular_file

MAX_SOURCE_BYTES = 20_000_000  # a paper's source text; a larger file is refused, not read into memory

#: the statement kinds, and the spellings that name them (plurals and abbreviations included); a numbered remark,
#: induction hypothesis or algorithm is a numbered statement too
KINDS = ("Lemma", "Proposition", "Theorem", "Corollary", "Fact", "Claim", "Assumption", "Definition", "Remark",
         "Induction Hypothesis", "Algorithm")
_SPELLINGS = {
    "lemma": "Lemma", "lemmas": "Lemma", "lemmata": "Lemma", "lem": "Lemma",
    "proposition": "Proposition", "propositions": "Proposition", "prop": "Proposition", "props": "Proposition",
    "theorem": "Theorem", "theorems": "Theorem", "thm": "Theorem", "thms": "Theorem",
    "corollary": "Corollary", "corollaries": "Corollary", "cor": "Corollary", "coro": "Corollary",
    "fact": "Fact", "facts": "Fact",
    "claim": "Claim", "claims": "Claim",
    "assumption": "Assumption", "assumptions": "Assumption", "asm": "Assumption", "assump": "Assumption",
    "definition": "Definition", "definitions": "Definition", "def": "Definition", "defn": "Definition",
    "dfn": "Definition",
    "remark": "Remark", "remarks": "Remark", "rem": "Remark",
    "induction hypothesis": "Induction Hypothesis", "induction hypotheses": "Induction Hypothesis",
    "algorithm": "Algorithm", "algorithms": "Algorithm", "alg": "Algorithm",
}
# a multi-word kind matches with any whitespace between its words
_KIND_WORD = "|".join(k.replace(" ", r"\s+") for k in sorted(_SPELLINGS, key=len, reverse=True))
_NUMBER = r"(?:[A-Z]\.?)?\d+(?:\.\d+)*(?!\.?\d)"  # 1, 3.1, B.17, A1 (never a prefix of one)
_NAME = re.compile(rf"\b({_KIND_WORD})\b\.?\s*({_NUMBER})\b", re.IGNORECASE)

#: a line that starts a statement: optional markdown (#, >, **, *, _), the name, optional closing
#: emphasis, then the end of the line, a period, a colon, a dash or a parenthesized title
_HEADER = re.compile(
    rf"^\s*(?:[#>]+\s*)?(?:\*\*|\*|__|_)?\s*({_KIND_WORD})\.?\s+({_NUMBER})\s*(?:\*\*|\*|__|_)?\s*"
    r"(?P<rest>$|[.:]|\(|[—–-]\s)", re.IGNORECASE)


def normalize(name: str) -> str | None:
    """``"lemma b.17"`` -> ``"Lemma B.17"``; None if ``name`` is not one statement name."""
    m = re.fullmatch(rf"\s*({_KIND_WORD})\.?\s*({_NUMBER})\s*", name, re.IGNORECASE)
    return _key(m.group(1), m.group(2)) if m else None


def _key(kind: str, number: str) -> str:
    return f"{_SPELLINGS[' '.join(kind.lower().split())]} {number.upper()}"


@dataclass(frozen=True)
class Statement:
    """A numbered statement of a source file: ``key`` is ``"Lemma B.17"``; ``line`` 1-based."""

    kind: str
    number: str
    line: int
    title: str = ""
    label: str = ""  # LaTeX \label, an alias a claim may cover

    @property
    def key(self) -> str:
        return f"{self.kind} {self.number}"


# -- finding the statements ------------------------------------------------------------------------------
def statements(text: str) -> list[Statement]:
    """The numbered statements of ``text``, in order, each once (its first occurrence)."""
    found = _latex(text) if _is_latex(text) else _plain(text)
    seen: set[str] = set()
    out = []
    for s in found:
        if s.key not in seen:
            seen.add(s.key)
            out.append(s)
    return out


def read_statements(path: Path) -> list[Statement]:
    """The numbered statements of the file ``path``; a missing or unreadable file is an InputFileError."""
    text = read_regular_file(path, MAX_SOURCE_BYTES, "source file").decode("utf-8", errors="replace")
    return statements(text)


def _plain(text: str) -> list[Statement]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m is None or not m.group(1)[0].isupper():  # a statement's name is capitalized
            continue
        rest = line[m.start("rest"):].strip()
        out.append(Statement(_SPELLINGS[" ".join(m.group(1).lower().split())], m.group(2).upper(), i, _title(rest)))
    return out


def _title(rest: str) -> str:
    """The parenthesized title at the start of ``rest`` (balanced parentheses), or ''."""
    if not rest.startswith("("):
        return ""
    depth = 0
    for j, ch in enumerate(rest):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return rest[1:j].strip()
    return rest[1:].strip()


# -- LaTeX ------------------------------------------------------------------------------------------------
_NEWTHEOREM = re.compile(r"\\newtheorem(\*?)\{(\w+)\}\s*(?:\[(\w+)\])?\s*\{([^}]*)\}\s*(?:\[(\w+)\])?")
_LATEX_EVENT = re.compile(r"\\(appendix)\b|\\(section)(\*?)\s*[\[{]|\\begin\{(\w+)(\*?)\}(?:\s*\[([^\]]*)\])?")


def _is_latex(text: str) -> bool:
    return bool(re.search(r"\\newtheorem|\\begin\{(" + _KIND_WORD + r")\*?\}", text, re.IGNORECASE))


@dataclass
class _Env:
    kind: str
    counter: str
    within: str = ""  # "section": numbered S.n


def _environments(text: str) -> dict[str, _Env | None]:
    """Environment name -> how it is numbered; None for an environment declared unnumbered (``\\newtheorem*``)."""
    envs: dict[str, _Env | None] = {}
    for star, name, shared, printed, within in _NEWTHEOREM.findall(text):
        kind = _SPELLINGS.get(" ".join(printed.lower().split())) or _SPELLINGS.get(name.lower())
        if star:
            envs[name] = None
        if star or kind is None:
            continue
        base = envs.get(shared)
        envs[name] = _Env(kind, base.counter if base else (shared or name), base.within if base else within)
    return envs


def _latex(text: str) -> list[Statement]:
    envs = _environments(text)
    counters: dict[str, int] = {}
    section, appendix = 0, False
    out = []
    for m in _LATEX_EVENT.finditer(text):
        if m.group(1):
            appendix, section = True, 0
            continue
        if m.group(2):
            if not m.group(3):
                section += 1
                counters = {k: v for k, v in counters.items() if not _within(envs, k)}
            continue
        name, star, title = m.group(4), m.group(5), m.group(6) or ""
        env = envs[name] if name in envs else (_Env(_SPELLINGS[name.lower()], name) if name.lower() in _SPELLINGS
                                               else None)
        if env is None or star:
            continue
        counters[env.counter] = counters.get(env.counter, 0) + 1
        number = str(counters[env.counter])
        if env.within == "section":
            sec = chr(ord("A") + section - 1) if appendix and section > 0 else str(section)
            number = f"{sec}.{number}"
        end = text.find(f"\\end{{{name}}}", m.end())
        body = text[m.end(): end if end >= 0 else len(text)]
        label = re.search(r"\\label\{([^}]*)\}", body)
        out.append(Statement(env.kind, number, text.count("\n", 0, m.start()) + 1, title.strip(),
                             label.group(1) if label else ""))
    return out


def _within(envs: dict[str, _Env | None], counter: str) -> bool:
    return any(e is not None and e.counter == counter and e.within == "section" for e in envs.values())


# -- what a claim's source covers ---------------------------------------------------------------------------
#: a list after one name: "Lemmas B.12, B.17", "Corollaries 3.3 and 3.5"
_MORE = re.compile(rf"\s*(?:,|and|&)\s*({_NUMBER})\b")
#: a name cited only as a place ("remark after Proposition 1", "Section 3.1, after Lemma 2") is not covered
_PLACE_BEFORE = re.compile(r"\b(?:after|before|following|preceding)\s*$", re.IGNORECASE)


def parse_refs(numbering: str) -> list[str]:
    """The statement names written in a source's numbering text, in order, each once."""
    out: list[str] = []
    pos = 0
    while True:
        m = _NAME.search(numbering, pos)
        if m is None:
            break
        pos = m.end()
        names = [m.group(2)]
        while (more := _MORE.match(numbering, pos)) is not None:
            names.append(more.group(1))
            pos = more.end()
        if _PLACE_BEFORE.search(numbering[:m.start()]):
            continue
        for number in names:
            key = _key(m.group(1), number)
            if key not in out:
                out.append(key)
    return out


def source_files(source: Any) -> list[str]:
    """The file names a Source records (``"a.txt; b.txt"`` -> both)."""
    return [f.strip() for f in re.split(r"[;,]", getattr(source, "file", "") or "") if f.strip()]


def claim_refs(source: Any) -> list[tuple[str | None, str]]:
    """(file or None for any of the claim's files, statement name or LaTeX label) a Source covers: its
    ``covers`` entries (``"Lemma 3.1"`` or ``"001_x.txt: Lemma 3.1"``) when given, else the names parsed
    from its ``numbering``."""
    covers: Sequence[str] = getattr(source, "covers", ()) or ()
    if not covers:
        return [(None, k) for k in parse_refs(getattr(source, "numbering", "") or "")]
    out: list[tuple[str | None, str]] = []
    for entry in covers:
        file, sep, name = entry.rpartition(": ")
        name = name if sep else entry
        out.append((file.strip() if sep else None, normalize(name) or name.strip()))
    return out


@dataclass
class Row:
    """One numbered statement and the claims that cover it."""

    file: str
    statement: Statement
    claims: list[str] = field(default_factory=list)

    @property
    def covered(self) -> bool:
        return bool(self.claims)


def match(sources: dict[str, list[Statement]], claims: Iterable[tuple[str, Any]]) -> list[Row]:
    """A row per statement of each source file (``file name -> statements``), with the ids of the claims
    (``(id, Source)`` pairs) whose source names the file and covers the statement by its name or label."""
    rows = {(f, s.key): Row(f, s) for f, stmts in sources.items() for s in stmts}
    labels = {(f, s.label): s.key for f, stmts in sources.items() for s in stmts if s.label}
    for claim_id, source in claims:
        files = [f for f in source_files(source) if f in sources]
        for file, name in claim_refs(source):
            for f in ([file] if file is not None else files):
                if f not in sources:
                    continue
                row = rows.get((f, name)) or rows.get((f, labels.get((f, name), "")))
                if row is not None and claim_id not in row.claims:
                    row.claims.append(claim_id)
    return list(rows.values())


def counts(rows: Sequence[Row], verdicts: dict[str, str] | None = None,
           reconstructed: Iterable[str] = (), qualitative: Iterable[str] = (),
           by_construction: Iterable[str] = ()) -> dict[str, int]:
    """``numbered``; ``covered`` (by a claim that checks the printed statement); ``reconstructed`` (checked only
    through claims whose statement is the checker's reconstruction, ids in ``reconstructed``: never counted as the
    paper's statement checked); ``not_encodable`` (covered only by claims whose verdict is not_encodable);
    ``definitions`` (covered only by definitions, which assert nothing to check, and not_encodable claims);
    ``qualitative`` (checked only in the qualitative content that survives: claim ids in ``qualitative``);
    ``by_construction`` (covered only by claims left undecided because their checks hold by the checker's own
    construction -- ids in ``by_construction``: no evidence either way); ``missing`` (covered by no claim)."""
    verdicts, guessed, partial, built = verdicts or {}, set(reconstructed), set(qualitative), set(by_construction)
    covered = [r for r in rows if r.covered]
    unencodable = [r for r in covered if all(verdicts.get(c) == "not_encodable" for c in r.claims)]
    definitions = [r for r in covered if r not in unencodable
                   and all(verdicts.get(c) in ("definition", "not_encodable") for c in r.claims)]
    rebuilt = [r for r in covered if r not in unencodable and r not in definitions
               and all(c in guessed or verdicts.get(c) in ("definition", "not_encodable") for c in r.claims)]
    survives = [r for r in covered if r not in unencodable and r not in definitions and r not in rebuilt
                and all(c in partial or c in guessed or verdicts.get(c) in ("definition", "not_encodable")
                        for c in r.claims)]
    placed = unencodable + definitions + rebuilt + survives
    no_evidence = [r for r in covered if r not in placed
                   and all(c in built or verdicts.get(c) in ("definition", "not_encodable") for c in r.claims)]
    return {"numbered": len(rows),
            "covered": len(covered) - len(placed) - len(no_evidence),
            "qualitative": len(survives), "reconstructed": len(rebuilt), "by_construction": len(no_evidence),
            "not_encodable": len(unencodable),
            "definitions": len(definitions), "missing": len(rows) - len(covered)}


# -- where the source files are ------------------------------------------------------------------------------
SOURCES_VARIABLE = "CLCHECK_SOURCES"
#: the default folder of the papers' source files: ../shared/papers relative to the repository root
DEFAULT_SOURCES = Path(__file__).resolve().parents[3] / "shared" / "papers"


def sources_dir(option: Path | None = None) -> Path:
    """The folder of the source files: ``option`` (``--sources``), else ``CLCHECK_SOURCES``, else the default."""
    if option is not None:
        return Path(option)
    env = os.environ.get(SOURCES_VARIABLE)
    return Path(env) if env else DEFAULT_SOURCES


def find_sources(files: Sequence[str], directory: Path) -> dict[str, Path] | None:
    """File name -> path in ``directory`` for each of ``files``; None if any is missing (or none is named)."""
    paths = {f: Path(directory) / f for f in files}
    return paths if paths and all(p.is_file() for p in paths.values()) else None


def coverage_of(paths: dict[str, Path], claims: Iterable[tuple[str, Any]]) -> list[Row]:
    """The rows of :func:`match` for the source files ``paths`` (file name -> path)."""
    return match({name: read_statements(path) for name, path in paths.items()}, claims)
