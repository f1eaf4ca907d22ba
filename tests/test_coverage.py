"""`clcheck coverage`: the numbered statements of a paper's source text and the claims covering them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from theorems.engine import coverage as cov
from theorems.engine.claim import Source
from theorems.engine.registry import all_claims, papers
from theorems.frontend.cli import app
from theorems.frontend.report import coverage_markdown

runner = CliRunner()
SOURCES = cov.sources_dir()
SEEDS = {"000_446b1395972c3412.txt", "001_024f140e13f62c31.txt", "002_1392d7a5a1d595de.txt",
         "003_06cb9bda3a5102d9.txt", "004_86d461343230f9e1.txt"}
needs_seeds = pytest.mark.skipif(not all((SOURCES / f).is_file() for f in SEEDS),
                                 reason=f"the seed papers are not in {SOURCES} (set CLCHECK_SOURCES)")

#: the statements covered by a registered claim today: a lower bound (a claim may be added, none lost)
#: how many numbered statements each seed file has (the parser must keep finding them all)
NUMBERED = {"000_446b1395972c3412.txt": 12, "001_024f140e13f62c31.txt": 4, "002_1392d7a5a1d595de.txt": 53,
            "003_06cb9bda3a5102d9.txt": 42, "004_86d461343230f9e1.txt": 7}


def keys(text: str) -> list[str]:
    return [s.key for s in cov.statements(text)]


# -- the parser ---------------------------------------------------------------------------------------------
def test_plain_text_statements_not_citations() -> None:
    text = ("Lemma 1. For any encoder f one has\n"
            "the proof of Lemma 1 is in the appendix.\n"
            "Lemma 4.2 allows us to deduce that ...\n"
            "Proof of Lemma 3.1. We first rewrite\n"
            "Theorem 4.3.\n"
            "Lemma B.13 .\n"
            "Definition 1 ((σ, δ)-Augmentation)\n"
            "Fact A.1 (approximation of gradients).\n"
            "Assumption 2: the norms are bounded\n"
            "Corollary C.20 (Convergence rate).\n"
            "Lemma 5.1 (Informal version of Lemma B.1).\n"
            "lemma 9. lower case is a citation\n"
            "Theorem 4.3.\n")  # repeated (slides): listed once
    assert keys(text) == ["Lemma 1", "Theorem 4.3", "Lemma B.13", "Definition 1", "Fact A.1", "Assumption 2",
                          "Corollary C.20", "Lemma 5.1"]
    titles = {s.key: s.title for s in cov.statements(text)}
    assert titles["Definition 1"] == "(σ, δ)-Augmentation" and titles["Lemma 5.1"] == "Informal version of Lemma B.1"
    assert [s.line for s in cov.statements(text)][:2] == [1, 5]


def test_markdown_statements() -> None:
    text = ("## 3 Results\n\n**Lemma 1.** For any encoder $f$, one has\n\n"
            "**Proposition 2** (3.3 (restated)). *Consider the loss*\n\n"
            "*Proof of Lemma 1.* We first rewrite\n\n"
            "### Theorem 2 (Main Result)\n\n> **Claim 3.** inside a quote\n")
    assert keys(text) == ["Lemma 1", "Proposition 2", "Theorem 2", "Claim 3"]


def test_latex_statements_are_counted_as_latex_would() -> None:
    text = r"""
\newtheorem{theorem}{Theorem}[section]
\newtheorem{lemma}[theorem]{Lemma}
\newtheorem{assumption}{Assumption}
\newtheorem*{remark}{Remark}
\section{Setting}
\begin{assumption}\label{as:bounded} bounded \end{assumption}
\begin{lemma}[Error rate]\label{lem:err} ... \end{lemma}
\begin{theorem} ... \end{theorem}
\begin{remark} unnumbered \end{remark}
\section{Main}
\begin{lemma}\label{lem:two} ... \end{lemma}
\begin{assumption} second \end{assumption}
\appendix
\section{Proofs}
\begin{lemma}\label{lem:app} ... \end{lemma}
\begin{theorem*} unnumbered \end{theorem*}
"""
    found = cov.statements(text)
    assert [s.key for s in found] == ["Assumption 1", "Lemma 1.1", "Theorem 1.2", "Lemma 2.1", "Assumption 2",
                                      "Lemma A.1"]
    assert found[1].title == "Error rate" and found[1].label == "lem:err"


def test_latex_without_newtheorem_counts_each_kind() -> None:
    text = r"\begin{lemma}a\end{lemma} \begin{definition}b\end{definition} \begin{lemma}\label{x}c\end{lemma}"
    assert keys(text) == ["Lemma 1", "Definition 1", "Lemma 2"]


def test_names_are_normalized() -> None:
    assert cov.normalize("lemma b.17") == "Lemma B.17" == cov.normalize("Lemma B.17")
    assert cov.normalize("Thm. 4") == "Theorem 4" and cov.normalize("Lemma 1 (7)") is None


# -- what a claim's Source covers -----------------------------------------------------------------------------
@pytest.mark.parametrize("numbering, expected", [
    ("Lemma 1 (7) = Lemma 3.1", ["Lemma 1", "Lemma 3.1"]),
    ("Lemma 2 = Lemma 7 (Section 8) = Lemma 4.2", ["Lemma 2", "Lemma 7", "Lemma 4.2"]),
    ("Theorem 4.3 (a)", ["Theorem 4.3"]),
    ("Lemmas B.12, B.17", ["Lemma B.12", "Lemma B.17"]),
    ("Lemma C.19, Corollary C.20, Section 5.4", ["Lemma C.19", "Corollary C.20"]),
    ("Corollaries 3.3, 3.5", ["Corollary 3.3", "Corollary 3.5"]),
    ("Lemmas C.2, A.2, A.5 (F.1)", ["Lemma C.2", "Lemma A.2", "Lemma A.5"]),
    ("Theorem 3.2 (with Appendices A.5, F)", ["Theorem 3.2"]),
    ("remark after Proposition 1; proof of Proposition 2 (2) = Proposition 3.3 (2)",
     ["Proposition 2", "Proposition 3.3"]),
    ("Section 3.1, after Lemma 2", []),
    ("slide 'Barlow Twins'", []),
])
def test_numbering_text_is_parsed(numbering: str, expected: list[str]) -> None:
    assert cov.parse_refs(numbering) == expected


def test_remarks_induction_hypotheses_and_algorithms_are_numbered_statements() -> None:
    text = ("Remark 2.4.\nOur theory ...\nInduction Hypothesis C.4.\n(a) ...\nInduction  Hypothesis D.1 (stage II).\n"
            "Algorithm 3.1 (Training algorithm).\nsee Remark 2.4 above; by Induction Hypothesis C.4, ...\n")
    assert keys(text) == ["Remark 2.4", "Induction Hypothesis C.4", "Induction Hypothesis D.1", "Algorithm 3.1"]
    assert cov.normalize("induction hypotheses e.2") == "Induction Hypothesis E.2"
    assert cov.parse_refs("Induction Hypotheses C.4 and D.1, Remark 2.4") == [
        "Induction Hypothesis C.4", "Induction Hypothesis D.1", "Remark 2.4"]


def test_claims_match_by_their_source_files_and_numbers() -> None:
    a, b = cov.statements("Lemma 1. x\nProposition 1. y\n"), cov.statements("Lemma 3.1. x\nLemma 1. z\n")
    claims = [
        ("p.one", Source("a.txt; b.txt", "Lemma 1 = Lemma 3.1")),  # Lemma 1 in both files, as printed in each
        ("p.prop", Source("a.txt", "Proposition 1 = Proposition 3.3")),  # 3.3 is in no file of its own
        ("p.exp", Source("a.txt; b.txt", "see the text", covers=("b.txt: Lemma 1",))),  # structured, file given
        ("p.other", Source("c.txt", "Lemma 1")),  # cites another file
    ]
    rows = {(r.file, r.statement.key): r.claims for r in cov.match({"a.txt": a, "b.txt": b}, claims)}
    assert rows == {("a.txt", "Lemma 1"): ["p.one"], ("a.txt", "Proposition 1"): ["p.prop"],
                    ("b.txt", "Lemma 3.1"): ["p.one"], ("b.txt", "Lemma 1"): ["p.one", "p.exp"]}
    n = cov.counts(cov.match({"a.txt": a, "b.txt": b}, claims), {"p.prop": "not_encodable"})
    assert n == {"numbered": 4, "covered": 3, "qualitative": 0, "reconstructed": 0, "by_construction": 0,
                 "not_encodable": 1, "definitions": 0, "missing": 0}
    n = cov.counts(cov.match({"a.txt": a, "b.txt": b}, claims), {"p.prop": "definition", "p.exp": "not_encodable"})
    assert n == {"numbered": 4, "covered": 3, "qualitative": 0, "reconstructed": 0, "by_construction": 0, "not_encodable": 0,
                 "definitions": 1, "missing": 0}


def test_covers_replaces_the_numbering_and_may_name_a_label() -> None:
    tex = cov.statements(r"\begin{lemma}\label{lem:key}x\end{lemma}\begin{theorem}y\end{theorem}")
    src = Source("p.tex", "Lemma 1 and Theorem 1", covers=("lem:key",))
    rows = cov.match({"p.tex": tex}, [("p.c", src)])
    assert [(r.statement.key, r.claims) for r in rows] == [("Lemma 1", ["p.c"]), ("Theorem 1", [])]


# -- the seed papers ------------------------------------------------------------------------------------------
@needs_seeds
@pytest.mark.parametrize("file, present", [
    ("000_446b1395972c3412.txt", ["Lemma 1", "Lemma 7", "Proposition 2", "Assumption 1", "Theorem 1"]),
    ("001_024f140e13f62c31.txt", ["Proposition 3.3", "Lemma 4.1", "Lemma 4.2", "Lemma B.1"]),
    ("002_1392d7a5a1d595de.txt", ["Lemma B.17", "Definition 4.1", "Theorem 4.3", "Corollary C.20"]),
    ("003_06cb9bda3a5102d9.txt", ["Fact A.1", "Theorem 3.4", "Corollary 3.5", "Definition 2.3"]),
    ("004_86d461343230f9e1.txt", ["Theorem 4", "Lemma 1", "Lemma 2", "Definition 1"]),
])
def test_seed_files_statements(file: str, present: list[str]) -> None:
    found = [s.key for s in cov.read_statements(SOURCES / file)]
    assert set(present) <= set(found)
    assert "Lemma 4" not in found or file == "000_446b1395972c3412.txt"  # "Lemma 4.2 allows ..." is no Lemma 4


def _rows_now() -> dict[str, list[cov.Row]]:
    out: dict[str, list[cov.Row]] = {}
    for paper in papers():
        paths = cov.find_sources(paper.files, SOURCES)
        if paths is None:
            continue
        for r in cov.coverage_of(paths, [(c.id, c.source) for c in all_claims(papers=[paper.prefix])]):
            out.setdefault(r.file, []).append(r)
    return out


@needs_seeds
def test_every_numbered_statement_of_the_seed_files_has_an_id() -> None:
    """Issue 30: every numbered statement is covered by a registered id (checked, not_encodable or a definition); a
    statement that loses its id, or a parser that stops finding one, fails here."""
    rows = _rows_now()
    assert {f: len(r) for f, r in rows.items()} == NUMBERED
    lost = {f: [r.statement.key for r in rs if not r.covered] for f, rs in rows.items()}
    assert not any(lost.values()), f"numbered statements without an id: {lost}"


@needs_seeds
def test_new_ids_follow_the_numbered_scheme_and_catalog_ids_keep_theirs() -> None:
    rows = {(r.file, r.statement.key): r.claims for rs in _rows_now().values() for r in rs}
    assert rows[("002_1392d7a5a1d595de.txt", "Lemma B.5")] == ["ren.lemma_b5"]
    assert rows[("003_06cb9bda3a5102d9.txt", "Induction Hypothesis C.4")] == ["wen.induction_hypothesis_c4"]
    assert rows[("002_1392d7a5a1d595de.txt", "Lemma B.17")] == ["ren.lemma_b17", "ren.theorem43a"]
    assert "wen.stage1_gradient" in rows[("003_06cb9bda3a5102d9.txt", "Lemma F.1")]
    assert rows[("004_86d461343230f9e1.txt", "Definition 1")] == ["huang.definition_1"]


# -- the command ---------------------------------------------------------------------------------------------
@needs_seeds
def test_cli_lists_statements_and_claims(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text(json.dumps({"claims": [{"id": "ren.lemma_b17", "verdict": "consistent"}]}))
    res = runner.invoke(app, ["coverage", "--paper", "ren", "--report", str(report), str(SOURCES / "002_1392d7a5a1d595de.txt")])
    assert res.exit_code == 0, res.output
    assert "Lemma B.17" in res.output and "ren.lemma_b17 (consistent)" in res.output
    assert "002_1392d7a5a1d595de.txt: 53 numbered" in res.output and "ren.lemma_b5 (not_encodable)" in res.output
    assert "ren.algorithm_3_1 (definition)" in res.output and "0 missing" in res.output


@needs_seeds
def test_cli_finds_the_papers_files_in_sources() -> None:
    res = runner.invoke(app, ["coverage", "--paper", "merad", "--sources", str(SOURCES)])
    assert res.exit_code == 0, res.output
    assert "000_446b1395972c3412.txt: 12 numbered" in res.output and "001_024f140e13f62c31.txt" in res.output


def test_cli_missing_source_is_one_line_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["coverage", "--paper", "huang", str(tmp_path / "nothere.txt")])
    assert res.exit_code == 2
    assert res.output.strip().count("\n") == 0 and "nothere.txt" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["coverage", "--paper", "huang", "--sources", str(tmp_path)])
    assert res.exit_code == 2 and "not in" in res.output and "Traceback" not in res.output


def test_report_section() -> None:
    assert coverage_markdown({}) [-1] == "coverage: source files not found"
    lines = coverage_markdown({"ren": {"numbered": 53, "covered": 4, "qualitative": 1, "reconstructed": 7,
                                       "by_construction": 2, "not_encodable": 40, "definitions": 1, "missing": 0}})
    assert lines[-1] == "| ren | 53 | 4 | 1 | 7 | 2 | 40 | 1 | 0 |"
