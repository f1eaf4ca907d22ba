"""The pytest plugin collects the registered claims with the test files: pytest's count includes them.

The claims were once appended in ``pytest_collection_modifyitems``, after pytest had counted what it collected:
"collected N items" and ``--collect-only -q``'s "N tests collected" left out every claim that then ran.
"""

from __future__ import annotations

import re
import textwrap

import pytest
import torch  # noqa: F401  (loaded before pytester's in-process runs, which forget the modules they import)

MINE = textwrap.dedent('''
    from sympy import Le
    from theorems import Claim, Kind, parts, Plugin, Source
    from theorems.papers.merad import vectors as vec
    from theorems.papers.merad.vectors import Vectors
    PLUGIN = Plugin()

    PLUGIN.claim(Claim(id="mine.max_le_lse", kind=Kind.INEQUALITY, source=Source(file="x", numbering="y"),
                       statement=parts(Le(vec.max_x, vec.lse_x)), subjects=(Vectors(),)))
    register = PLUGIN.register
''')
TESTS = "def test_one():\n    pass\n\n\ndef test_two():\n    pass\n"


@pytest.fixture
def project(env_plugin, pytester: pytest.Pytester) -> pytest.Pytester:  # noqa: ANN001
    """A project of two tests whose ini collects the claims, with a user's plugin of one claim (``mine``)."""
    pytester.makepyfile(my_claims=MINE, test_few=TESTS)
    pytester.makeini("[pytest]\nclcheck_collect_claims = true\n")
    env_plugin("my_claims", folder=pytester.path)
    return pytester


def claim_count() -> int:
    from theorems.engine.registry import all_claims

    return len(all_claims())


def test_collected_counts_the_claims(project: pytest.Pytester) -> None:
    run = project.runpytest_inprocess("--collect-only", "-p", "no:cacheprovider")
    n = claim_count()
    assert n > 100 and f"collected {2 + n} items" in run.stdout.str(), run.stdout.str()[-2000:]
    quiet = project.runpytest_inprocess("--collect-only", "-q", "-p", "no:cacheprovider")
    lines = quiet.stdout.lines
    listed = [line for line in lines if "::" in line]
    assert listed[:2] == ["test_few.py::test_one", "test_few.py::test_two"]
    assert len(listed) == 2 + n and "claims::mine.max_le_lse" in listed
    assert any(re.fullmatch(rf"{2 + n} tests collected in .*", line) for line in lines), lines[-3:]


def test_a_marker_deselects_claims_as_any_test(project: pytest.Pytester) -> None:
    n = claim_count()
    run = project.runpytest_inprocess("--collect-only", "-q", "-m", "mine", "-p", "no:cacheprovider")
    assert [line for line in run.stdout.lines if "::" in line] == ["claims::mine.max_le_lse"]
    assert any(line.startswith(f"1/{2 + n} tests collected ({1 + n} deselected)") for line in run.stdout.lines), \
        run.stdout.lines[-3:]
    files = project.runpytest_inprocess("--collect-only", "-q", "-m", "not theorems", "-p", "no:cacheprovider")
    assert [line for line in files.stdout.lines if "::" in line] == ["test_few.py::test_one", "test_few.py::test_two"]


def test_no_claim_is_collected_when_pointed_at_a_file(project: pytest.Pytester) -> None:
    run = project.runpytest_inprocess("--collect-only", "-q", "test_few.py", "-p", "no:cacheprovider")
    assert [line for line in run.stdout.lines if "::" in line] == ["test_few.py::test_one", "test_few.py::test_two"]


def test_xdist_counts_and_runs_the_claims_its_workers_collect(project: pytest.Pytester) -> None:
    """Each worker collects the same items in the same order (xdist checks it); the controller's count is theirs."""
    run = project.runpytest_subprocess("-n", "2", "-m", "not theorems or mine", "-p", "no:cacheprovider")
    assert re.search(r"2 workers \[3 items\]", run.stdout.str()), run.stdout.str()[-3000:]
    run.assert_outcomes(passed=3)


def test_pytest_m_theorems_collects_the_claims_reuses_the_verdict_store_and_lists_the_slowest(
        env_plugin, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """`pytest -m theorems` collects the claims without the ini switch; the second run answers from the verdict store
    (its evidence replayed) and says so in the slowest-claims summary; --theorems-fresh searches again."""
    pytester.makepyfile(my_claims=MINE)
    env_plugin("my_claims", folder=pytester.path)
    monkeypatch.setenv("CLCHECK_CACHE", str(pytester.path / "cache"))
    monkeypatch.setenv("CLCHECK_STORE", "1")
    args = ("-m", "theorems and mine", "-p", "no:cacheprovider")
    first = pytester.runpytest_subprocess(*args)
    first.assert_outcomes(passed=1)
    assert "slowest 1 claims (0 of 1 reused from the verdict store)" in first.stdout.str()
    second = pytester.runpytest_subprocess(*args)
    second.assert_outcomes(passed=1)
    assert "(1 of 1 reused" in second.stdout.str() and "claims::mine.max_le_lse  (reused)" in second.stdout.str()
    fresh = pytester.runpytest_subprocess(*args, "--theorems-fresh")
    assert "(0 of 1 reused" in fresh.stdout.str()
