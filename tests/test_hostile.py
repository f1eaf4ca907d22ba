"""A self-fuzzing suite (issue 37): Hypothesis generates hostile claims and checks the engine's invariants against a
ground truth computed without the engine.

Each case is a random relation over one or two quantities, at random scales (1e-300 .. 1e300, zero, ties), on a
short fixed list of subjects, with quantities that behave well or badly: return NaN, inf, complex numbers, arrays,
None or strings, raise, edit their subject, draw unseeded random numbers, or compute in float64 where the check
asks for 60 digits. The ground truth evaluates the same relation on the same subjects with sympy and mpmath at
120 digits, never through the engine. The invariants:

* never ``consistent`` or ``proved`` on a statement the ground truth refutes on a listed subject;
* never ``refuted`` on a statement the ground truth proves on every listed subject (float-computed quantities
  included: their own rounding is not a counterexample);
* a quantity that misbehaves (raises, NaN, complex, None, a string, an edit, a second value) gives ``error``,
  naming the quantity -- never a verdict that says more than was checked;
* ids that could climb out of a folder are refused at registration.
"""

from __future__ import annotations

import math
import random
from typing import Any, Iterable

import mpmath
import numpy as np
import pytest
import sympy
from hypothesis import HealthCheck, given, settings, strategies as st

from theorems import Claim, Kind, Source, parts
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.errors import ClaimError
from theorems.engine.family import SubjectFamily
from theorems.engine.quantity import quantity
from theorems.engine.verdict import Verdict

CASES = 150  # generated claims per run (the count the closing note reports)
SRC = Source("hostile", "hostile")
LISTED = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=3, quick=True, tightness_starts=0)
a = quantity("a_hostile", range=(None, None), doc="the subject's first value, as its behaviour says")
b = quantity("b_hostile", range=(None, None), doc="the subject's second value")
GOOD = ("exact", "float_only")
BAD = ("nan", "complex", "none", "string", "raises", "mutates", "random")


class Listed(SubjectFamily):
    """Subjects are dicts {"a": x, "b": y} of floats; ``a`` behaves as ``behaviour`` says."""

    name = "hostile list"
    symbols = frozenset({a, b})

    def __init__(self, subjects: Iterable[dict[str, float]], behaviour: str, formula: sympy.Expr) -> None:
        self.subjects, self.behaviour, self.formula = list(subjects), behaviour, formula

    def exhaustive(self, quick: bool = False) -> Iterable[dict[str, float]]:
        return iter(self.subjects)

    def quantities(self, subject: dict, symbols: Iterable[sympy.Symbol], xp: Any, params: Any = None) -> dict:
        out = {}
        for s in symbols:
            x = subject["a" if s == a else "b"]
            out[s] = self._value(x, subject, xp) if s == a else xp.asarray(x)
        return out

    def _value(self, x: float, subject: dict, xp: Any) -> Any:
        kind = self.behaviour
        if kind == "exact":  # the formula of x at the backend's own precision
            return sympy.lambdify(sympy.Symbol("x"), self.formula, "mpmath" if xp.name == "mpmath" else "numpy")(
                xp.asarray(x))
        if kind == "float_only":  # the same formula, computed in float64 whatever the backend
            return xp.asarray(float(sympy.lambdify(sympy.Symbol("x"), self.formula, "math")(float(x))))
        if kind == "nan":
            return xp.asarray(math.nan)
        if kind == "complex":
            return mpmath.mpc(x, 1) if xp.name == "mpmath" else np.complex128(x + 1j)
        if kind == "none":
            return None
        if kind == "string":
            return str(x)
        if kind == "raises":
            raise ZeroDivisionError("a quantity that divides by zero")
        if kind == "mutates":
            subject["a"] = 2 * x + 1.0  # a real edit at every scale
            return xp.asarray(x)
        if kind == "random":
            return xp.asarray(x * (1 + random.random()) + random.random())  # a second value at every scale
        raise AssertionError(kind)

    def to_json(self, subject: dict) -> dict:
        return dict(subject)

    def from_json(self, data: dict) -> dict:
        return dict(data)

    def describe(self, subject: dict) -> str:
        return str(subject)


x = sympy.Symbol("x")
FORMULAS = [x, 2 * x, x / 3, x + 1, sympy.log(1 + x ** 2), sympy.exp(-x ** 2), sympy.sqrt(x ** 2 + 1) - 1,
            x ** 2, x * sympy.Rational(7, 5)]
RELATIONS = [sympy.LessThan, sympy.StrictLessThan, sympy.GreaterThan, sympy.StrictGreaterThan]
scales = st.sampled_from([0.0, 1e-300, 1e-150, 1e-13, 1e-4, 1.0, 3.0, 1e4, 1e13, 1e150])
values = st.tuples(scales, st.floats(-2, 2, allow_nan=False, allow_infinity=False))


@st.composite
def claims(draw: Any) -> tuple[Any, str, sympy.Expr, Any, float, list[dict]]:
    formula = draw(st.sampled_from(FORMULAS))
    relation = draw(st.sampled_from(RELATIONS))
    coefficient = draw(st.sampled_from([sympy.Integer(1), sympy.Rational(1, 2), sympy.Integer(2), sympy.Rational(999, 1000)]))
    behaviour = draw(st.sampled_from(GOOD + GOOD + BAD))
    subjects = []
    for _ in range(draw(st.integers(1, 3))):
        (scale, u), (scale_b, w) = draw(values), draw(values)
        subjects.append({"a": float(scale * u), "b": float(scale_b * w)})
    return formula, behaviour, relation, coefficient, subjects


def truth(formula: sympy.Expr, relation: Any, coefficient: sympy.Expr, subject: dict, exact_a: bool) -> bool | None:
    """The relation ``a  rel  coefficient * b`` on the subject at 120 digits, with ``a`` = formula(x) (or its
    float64 value when the quantity computes in float64): True, False, or None when too close to tell."""
    with mpmath.workdps(120):
        if exact_a:
            av = sympy.N(formula.subs(x, sympy.Float(subject["a"], 120)), 120)
        else:
            av = sympy.Float(float(sympy.lambdify(x, formula, "math")(subject["a"])), 120)
        bv = sympy.N(coefficient * sympy.Float(subject["b"], 120), 120)
        small, large = (av, bv) if relation in (sympy.LessThan, sympy.StrictLessThan) else (bv, av)
        margin = mpmath.mpf(str(small - large))
        scale = max(abs(mpmath.mpf(str(av))), abs(mpmath.mpf(str(bv))), mpmath.mpf(10) ** -400)
    if abs(margin) <= scale * mpmath.mpf(10) ** -30:  # a tie, or too close for this ground truth to judge
        return None if margin != 0 else relation in (sympy.LessThan, sympy.GreaterThan)
    return bool(margin < 0)


@settings(max_examples=CASES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
          database=None)
@given(claims())
def test_no_verdict_says_more_than_the_ground_truth(case: tuple) -> None:
    formula, behaviour, relation, coefficient, subjects = case
    family = Listed(subjects, behaviour, formula)
    claim = Claim("hostile.case", Kind.INEQUALITY, SRC, parts(relation(a, coefficient * b, evaluate=False)),
                  subjects=(family,))
    result = check_claim(claim, LISTED)
    verdict = result.verdict
    if behaviour in BAD:
        assert verdict == Verdict.ERROR, (behaviour, verdict, result.reason)
        assert "a_hostile" in result.reason or "computing" in result.reason, result.reason
        return
    truths = [truth(formula, relation, coefficient, dict(s), behaviour == "exact") for s in subjects]
    # subjects where the claim does not apply are none here: every listed subject is checked
    if False in truths:
        assert verdict not in (Verdict.CONSISTENT, Verdict.PROVED), (case, truths, verdict, result.reason)
    if all(t is True for t in truths):
        assert verdict != Verdict.REFUTED, (case, truths, result.witness)


@pytest.mark.parametrize("bad_id", ["a/../b.c", "merad.../../etc", "x..y", ".x.y", "A.b", "a b.c", "a.b/c", "a.b\\c",
                                    "a." + "x" * 200, "a.\x1b[2J", "a.b\nc"])
def test_an_id_that_could_name_a_path_outside_its_folder_is_refused(bad_id: str) -> None:
    with pytest.raises(ClaimError, match="claim id"):
        Claim(bad_id, Kind.INEQUALITY, SRC, parts(sympy.LessThan(a, 1, evaluate=False)),
              subjects=(Listed([], "exact", x),))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.text(min_size=1, max_size=40))
def test_every_accepted_id_is_a_safe_file_name(text: str) -> None:
    claim_id = f"hostile.{text}"
    try:
        Claim(claim_id, Kind.INEQUALITY, SRC, parts(sympy.LessThan(a, 1, evaluate=False)),
              subjects=(Listed([], "exact", x),))
    except ClaimError:
        return
    assert "/" not in claim_id and "\\" not in claim_id and ".." not in claim_id and claim_id.isprintable()


# -- hostile plugins, paths, witnesses and environments, through the command line ----------------------------------
import json  # noqa: E402
import os  # noqa: E402
from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from theorems.frontend.cli import app  # noqa: E402
from theorems.frontend.outdir import MARKER, ReportFolder  # noqa: E402

runner = CliRunner()
PLUGIN = '''
from theorems import Claim, Kind, Le, Paper, Plugin, Source, parts, quantity
from theorems.subjects import Family, Vector
{before}
PLUGIN = Plugin(Paper("{prefix}", "a hostile paper"))

@quantity
def v_first(s, xp):
    return s.v[0] * s.v[0]

fam = Family("vectors", dims={{"n": (1, 2)}}, parts={{"v": Vector("n")}}, quantities=(v_first,))
PLUGIN.claim(Claim("{claim}", Kind.INEQUALITY, Source("x", "x"), parts(Le(-1, v_first)), subjects=(fam,)))


def register(registry):
    {in_register}
    PLUGIN.register(registry)
'''


def _plugin(env_plugin: Any, module: str, prefix: str = "hostile", claim: str = "hostile.bounded", before: str = "",
            in_register: str = "pass") -> None:
    env_plugin(module, PLUGIN.format(before=before, prefix=prefix, claim=claim, in_register=in_register))


def _named_exit_2(result: Any, *fragments: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output, result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.mark.parametrize("before, in_register", [
    ("import sys; sys.exit(0)", "pass"),  # at import
    ("", "import sys; sys.exit(0)"),  # in register()
    ("", "raise KeyboardInterrupt"),
    ("import argparse; argparse.ArgumentParser().parse_args(['--nope'])", "pass"),  # argparse exits 2 itself
])
def test_a_plugin_that_exits_while_loading_is_a_named_error_never_a_green_gate(env_plugin: Any, tmp_path: Path,
                                                                                before: str, in_register: str) -> None:
    _plugin(env_plugin, "exiting_plugin", before=before, in_register=in_register)
    result = runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(tmp_path / "out")])
    _named_exit_2(result, "exiting_plugin")
    assert not (tmp_path / "out" / "report.json").exists()


@pytest.mark.parametrize("prefix", ["merad", "hostile"])  # declaring merad's paper, or only a claim under it
def test_a_plugin_registers_only_under_its_own_prefix(env_plugin: Any, tmp_path: Path, prefix: str) -> None:
    _plugin(env_plugin, "squatting_plugin", prefix=prefix, claim="merad.fake")
    result = runner.invoke(app, ["audit", "--claim", "merad.fake", "--jobs", "1", "--out", str(tmp_path / "out")])
    _named_exit_2(result, "squatting_plugin", "its own prefix")


def test_out_must_be_new_empty_or_clcheck_s_own_and_is_locked(env_plugin: Any, tmp_path: Path) -> None:
    _plugin(env_plugin, "plain_plugin")
    source = tmp_path / "plugin_folder"
    source.mkdir()
    (source / "witnesses").mkdir()
    kept = source / "witnesses" / "recorded.json"
    kept.write_text("{}")
    for out in (str(source), str(source / "witnesses")):
        _named_exit_2(runner.invoke(app, ["audit", "--paper", "hostile", "--out", out]), "did not write")
    assert kept.read_text() == "{}"
    link = tmp_path / "link"
    link.symlink_to(source)
    _named_exit_2(runner.invoke(app, ["audit", "--paper", "hostile", "--out", str(link)]), "symbolic link")
    out = tmp_path / "report"
    with ReportFolder(out, replace=True):  # another command is writing it
        _named_exit_2(runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(out)]),
                      "another clcheck command")
    done = runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert (out / MARKER).is_file() and (out / "report.json").is_file()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging folder, no lock left


def test_a_failed_audit_leaves_the_previous_report_whole(env_plugin: Any, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _plugin(env_plugin, "disk_plugin")
    out = tmp_path / "report"
    assert runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(out)]).exit_code == 0
    before = (out / "report.json").read_bytes()

    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("theorems.frontend.report.write_text_atomic", full_disk)
    result = runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(out)])
    assert result.exit_code != 0
    assert (out / "report.json").read_bytes() == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # the staged run is gone


@pytest.mark.parametrize("field, text", [("claim", "merad.x\x1b[2J\x1b]0;owned\x07"),
                                         ("plugin", "evil\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"),
                                         ("reading", "literal\x1b[1A\x1b[2K[bold green]all claims proved")])
def test_escape_sequences_in_a_witness_are_never_printed_raw(tmp_path: Path, field: str, text: str) -> None:
    """Text read from a witness reaches the terminal only escaped: in the error naming it (an unknown claim, plugin
    or reading) as anywhere else."""
    from theorems.papers.merad.plugin import PAPER as MERAD

    data = json.loads((MERAD.witnesses / "merad.coupon.variance.json").read_text())
    data[field] = text
    path = tmp_path / "w.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output and "\\x1b" in result.output


def test_escape_sequences_in_a_plugin_s_texts_are_never_printed_raw(env_plugin: Any, tmp_path: Path) -> None:
    """A plugin's reason text holding a clear-screen, a window title and a fake status line after a carriage return:
    the audit's table shows them escaped."""
    env_plugin("noisy_plugin", '''
from theorems import Kind, Paper, Plugin, Source, UnencodableClaim
PLUGIN = Plugin(Paper("noisy", "a paper with loud texts"))
PLUGIN.claim(UnencodableClaim("noisy.lost", Kind.INEQUALITY, Source("x", "x"),
                              reason="lost\\x1b[2J\\x1b]0;owned\\x07\\r[bold green]all claims proved"))
register = PLUGIN.register
''')
    result = runner.invoke(app, ["audit", "--paper", "noisy", "--jobs", "1", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output and "\x07" not in result.output and "\\x1b" in result.output


def test_a_witness_with_a_key_twice_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text('{"claim": "merad.coupon.variance", "claim": "merad.lemma1"}')
    _named_exit_2(runner.invoke(app, ["replay", str(path)]), "appears twice")


@pytest.mark.parametrize("value, ok", [("0", True), ("false", True), ("1", True), ("maybe", False), ("2", False)])
def test_environment_variables_are_parsed_strictly(monkeypatch: pytest.MonkeyPatch, value: str, ok: bool) -> None:
    from theorems.frontend.cli import main

    monkeypatch.setenv("CLCHECK_DEBUG", value)
    with pytest.raises(SystemExit) as stop:
        main(["list", "--paper", "merad"])
    assert (stop.value.code == 0) == ok


def test_a_corrupted_timings_cache_is_recomputed_never_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from theorems.frontend import schedule

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    for content in ("{" * 100000, '{"format": 1, "profiles": {"audit": {"x": "NaN"}}}', "\x00\xff"):
        (tmp_path / "cache" / "timings.json").write_text(content, errors="ignore") if isinstance(content, str) else None
        assert schedule.expected_seconds([], "audit") == {}


def test_a_hung_prover_s_process_group_dies_with_it(tmp_path: Path) -> None:
    """A child that starts a grandchild and hangs: past the time limit both are gone."""
    from numerics.proc import run_group

    pid_file = tmp_path / "grandchild.pid"
    script = f"import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(9)']); " \
             f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(9)"
    import sys
    import time

    started = time.monotonic()
    done = run_group([sys.executable, "-c", script], timeout=2.0)
    assert done.timed_out and time.monotonic() - started < 7  # not held until the grandchild's own end (9 s)
    grandchild = int(pid_file.read_text())
    time.sleep(0.2)
    stat = Path(f"/proc/{grandchild}/stat")
    assert not stat.exists() or stat.read_text().split(") ")[1].startswith("Z")  # gone, or a zombie awaiting init


def test_two_readings_whose_file_names_collide_are_refused() -> None:
    from theorems import Reading

    with pytest.raises(ClaimError, match="same file name part"):
        Claim("hostile.readings", Kind.INEQUALITY, SRC, parts(sympy.LessThan(a, 1, evaluate=False)),
              subjects=(Listed([], "exact", x),),
              readings=(Reading("Set, not list", "a"), Reading("set not list", "b")))


def test_every_claim_is_bounded_by_default(env_plugin: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --claim-timeout an audit still gives each claim (and each training run) the default limit."""
    from theorems.engine.limits import DEFAULT_CLAIM_SECONDS
    from theorems.frontend import cli

    _plugin(env_plugin, "bounded_plugin")
    seen: dict[str, Any] = {}

    def execute(jobs: Any, *args: Any, prerequisite_timeout: Any = None, **kwargs: Any) -> None:
        seen["timeouts"] = {j.timeout for j in jobs}
        seen["prerequisite"] = prerequisite_timeout

    monkeypatch.setattr(cli, "execute", execute)
    runner.invoke(app, ["audit", "--paper", "hostile", "--jobs", "1", "--out", str(tmp_path / "out")])
    assert seen == {"timeouts": {DEFAULT_CLAIM_SECONDS}, "prerequisite": DEFAULT_CLAIM_SECONDS}
