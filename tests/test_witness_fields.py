"""Witness subjects are read field by field: exact JSON types, the family's bounds, shapes checked
on the nested lists before any array is built (numerics.json_fields and every family's from_json /
validate), and a bad witness replays as a named error (exit 2), never as an evaluation."""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from numerics import json_fields as jf
from numerics.errors import AssumptionError
from theorems.engine import registry
from theorems.engine.witness import subject_checksum
from theorems.frontend.cli import app
from theorems.subjects.compose import Distribution, Embeddings, Family, Graph, Integer, Scalar, Vector

ROOT = Path(__file__).resolve().parents[1]
WITNESSES = ROOT / "theorems/papers/merad/witnesses"
FAST = settings(max_examples=4, derandomize=True, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))
runner = CliRunner()


def refused(fn: Any, *fragments: str) -> str:
    """``fn()`` raises AssumptionError with a one-line message containing every fragment."""
    with pytest.raises(AssumptionError) as info:
        fn()
    message = str(info.value)
    assert "\n" not in message, message
    for fragment in fragments:
        assert fragment in message, message
    return message


# == (a) the readers ===============================================================================

@pytest.mark.parametrize("value, kind", [(1.9, "float"), (1.0, "float"), ("1", "string"), (True, "boolean"),
                                         (None, "null"), ([1], "list")])
def test_an_integer_field_takes_a_json_integer_only(value: Any, kind: str) -> None:
    refused(lambda: jf.integer({"N": value}, "N", 1, 5, "fam"), "fam: field N = ", f"JSON {kind}", "[1, 5]")


def test_an_integer_field_is_within_its_bounds() -> None:
    assert jf.integer({"N": 5}, "N", 1, 5, "fam") == 5 and type(jf.integer({"N": 1}, "N", 1, 5)) is int
    refused(lambda: jf.integer({"N": 6}, "N", 1, 5, "fam"), "fam: field N = 6 is outside [1, 5]")
    refused(lambda: jf.integer({"N": 0}, "N", 1, None, "fam"), "N = 0 is outside >= 1")
    refused(lambda: jf.integer({"N": 10 ** 400}, "N", 1, 5, "fam"), "an integer of", "bits")
    refused(lambda: jf.integer({}, "N", 1, 5, "fam"), "fam: the field N is missing")
    assert jf.integer({}, "N", 1, 5, "fam", default=1) == 1


@pytest.mark.parametrize("value, fragment", [(True, "JSON boolean"), ("0.5", "JSON string"), (None, "JSON null"),
                                             (float("nan"), "not finite"), (float("inf"), "not finite"),
                                             (-math.inf, "not finite"), (10 ** 400, "too large")])
def test_a_real_field_takes_a_finite_json_number(value: Any, fragment: str) -> None:
    refused(lambda: jf.real({"C": value}, "C", None, None, "fam"), "fam: field C = ", fragment)


def test_a_real_field_takes_integers_and_floats_within_its_bounds() -> None:
    assert jf.real({"C": 2}, "C", 0, 3) == 2.0 and type(jf.real({"C": 2}, "C")) is float
    assert jf.real({"C": 3.0}, "C", 0, 3) == 3.0
    refused(lambda: jf.real({"C": 3.5}, "C", 0, 3, "fam"), "field C = 3.5 is outside [0, 3]")
    refused(lambda: jf.real({"C": 0.0}, "C", 0.0, None, "fam", open_lo=True), "C = 0.0 is outside (0.0, inf]")
    assert jf.real({"C": math.inf}, "C", finite=False) == math.inf
    refused(lambda: jf.real({"C": math.nan}, "C", finite=False), "not finite")


def test_a_string_field() -> None:
    assert jf.string({"s": "abc"}, "s") == "abc" and jf.string({}, "s", default="") == ""
    refused(lambda: jf.string({"s": 1}, "s", "fam"), "field s = 1 is a JSON integer; a string is required")
    refused(lambda: jf.string({"s": "x"}, "s", "fam", choices=("a", "b")), "is not one of ['a', 'b']")
    refused(lambda: jf.string({"s": "x" * 20}, "s", "fam", max_length=10), "20 characters")


def test_fields_are_exactly_the_declared_ones() -> None:
    assert jf.fields({"a": 1}, ("a",), ("b",)) == {"a": 1}
    refused(lambda: jf.fields({"a": 1, "zz": 2}, ("a",), ("b",), "fam"), "fam: the subject has unknown field(s) zz")
    refused(lambda: jf.fields({}, ("a",), (), "fam", "mixture"), "field mixture lacks the field(s) a")
    refused(lambda: jf.fields([1], ("a",), (), "fam"), "must be a JSON object, got a JSON list")


def test_a_real_array_checks_shape_and_elements_before_building() -> None:
    a = jf.real_array([[1, 2.5], [3.0, -4]], "Y", ((1, 3), 2), "fam")
    assert a.dtype == np.float64 and a.shape == (2, 2) and a[1, 1] == -4.0
    assert jf.real_array([], "x", ((0, 3),)).shape == (0,)
    refused(lambda: jf.real_array([[1.0], [2.0, 3.0]], "Y", (None, None), "fam", ("m", "d")),
            "field Y[1] = [2.0, 3.0] is ragged: d = 2 here but 1 in the first row")
    refused(lambda: jf.real_array([[1.0, 2.0]] * 4, "Y", ((1, 3), 2), "fam", ("m", "d")), "Y", "has m = 4, outside [1, 3]")
    refused(lambda: jf.real_array([[1.0, 2.0, 3.0]], "Y", ((1, 3), 2), "fam", ("m", "d")), "Y[0]", "has d = 3, outside [2, 2]")
    refused(lambda: jf.real_array([[1.0, True]], "Y", (1, 2), "fam"), "field Y[0][1] = true is a JSON boolean")
    refused(lambda: jf.real_array([[1.0, "2"]], "Y", (1, 2), "fam"), "Y[0][1] = '2' is a JSON string")
    refused(lambda: jf.real_array([[1.0, None]], "Y", (1, 2), "fam"), "Y[0][1] = null")
    refused(lambda: jf.real_array([[1.0, [2.0]]], "Y", (1, 2), "fam"), "Y[0][1] = [2.0] is a JSON list")
    refused(lambda: jf.real_array([1.0, 2.0], "Y", (2, 1), "fam"), "field Y[0] = 1.0 is a JSON float; a list")
    refused(lambda: jf.real_array("abc", "Y", (None,), "fam"), "field Y = 'abc' is a JSON string; a list")
    refused(lambda: jf.real_array([[0.0, math.nan]], "Y", (1, 2), "fam"), "field Y[0][1] = nan is not finite")
    refused(lambda: jf.real_array([[0.0, -math.inf]], "Y", (1, 2), "fam"), "Y[0][1] = -inf is not finite")
    refused(lambda: jf.real_array([0.5, -0.1], "rho", (2,), "fam", lo=0.0), "field rho[1] = -0.1 is outside >= 0.0")


def test_integer_arrays_and_lists() -> None:
    T = jf.integer_array([[2, 1, 0]], "T", ((1, 3), 3), "fam", lo=0, hi=2)
    assert T.dtype == np.int64 and T.tolist() == [[2, 1, 0]]
    refused(lambda: jf.integer_array([[2, 1, 3]], "T", ((1, 3), 3), "fam", lo=0, hi=2), "field T[0][2] = 3 is outside [0, 2]")
    refused(lambda: jf.integer_array([[2, 1, 0.0]], "T", ((1, 3), 3), "fam"), "T[0][2] = 0.0 is a JSON float")
    assert jf.integer_list([0, 2], "task", (0, 3), 0, 2, "fam", unique=True) == [0, 2]
    refused(lambda: jf.integer_list([0, 0], "task", (0, 3), 0, 2, "fam", unique=True), "field task = [0, 0] repeats")


def test_a_huge_list_is_refused_by_its_length_in_microseconds_never_built() -> None:
    row = [0.0, 1.0]
    huge = [row] * 200_000  # one row object repeated: the test itself builds nothing large
    start = time.perf_counter()
    message = refused(lambda: jf.real_array(huge, "points[0]", ((1, 3), 2), "fam", ("n_c", "d")),
                      "fam: field points[0] = a list of 200000 items has n_c = 200000, outside [1, 3]")
    assert time.perf_counter() - start < 0.05 and len(message) < 200
    flat = [0.0] * 2_000_000
    start = time.perf_counter()  # no axis bound: the total count is the safety net
    refused(lambda: jf.real_array(flat, "x", (None,), "fam"), f"more than {jf.MAX_ELEMENTS} entries")
    refused(lambda: jf.real_array([row] * (jf.MAX_ELEMENTS // 2 + 1), "Y", (None, None), "fam"), "more than")
    assert time.perf_counter() - start < 0.5


def test_messages_stay_short_and_plain_turns_numpy_into_json() -> None:
    assert jf.show(list(range(100))) == "a list of 100 items" and jf.show("x" * 500).endswith("...")
    assert jf.show(True) == "true" and jf.show(None) == "null"
    assert jf.plain({"a": np.arange(2), "b": (np.float64(1.5), [np.int64(3)])}) == {"a": [0, 1], "b": [1.5, [3]]}
    assert type(jf.plain(np.int64(3))) is int


# == (b) every shipped family ======================================================================

def _shipped_families() -> list[Any]:
    """Every subject family of the shipped papers' claims (one entry per distinct object)."""
    out: dict[int, Any] = {}
    for claim in registry.all_claims(papers=["merad", "huang"]):
        for family in getattr(claim, "subjects", ()) or ():
            out.setdefault(id(family), family)
    return list(out.values())


PAIRS = Family("unit embeddings of pairs (test)", dims={"n": (2, 4), "d": (1, 3)},
               parts={"x": Embeddings("n", "d", norm="unit"), "y": Embeddings("n", "d", norm="ball", radius=2.0),
                      "v": Vector("n", sign="positive"), "p": Distribution("n"), "g": Graph("n"),
                      "t": Scalar(0.1, 5.0), "j": Integer(1, 3)},
               examples=[{"dims": {"n": 2, "d": 1},
                          "values": {"x": np.array([[1.0], [-1.0]]), "y": [[0.5], [1.0]], "v": [1.0, 2.0],
                                     "p": [0.5, 0.5], "g": [[0.0, 1.0], [1.0, 0.0]], "t": 1.0, "j": 2}}])
FAMILIES = _shipped_families() + [PAIRS]
RANDOM = [f for f in FAMILIES if f.origin != "learned"]
LEARNED = [f for f in FAMILIES if f.origin == "learned"]
assert RANDOM and LEARNED


def _id(family: Any) -> str:
    return f"{type(family).__name__}[{family.name}]"


def load(family: Any, data: Any) -> Any:
    """What replay does with a witness subject: read it, then check it against the family."""
    subject = family.from_json(data)
    family.validate(subject)
    return subject


def same_json(a: Any, b: Any, path: str = "") -> None:
    """Equal JSON with the same types (floats within 1e-15: a setting renormalizes its masses)."""
    assert type(a) is type(b), (path, a, b)
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            same_json(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            same_json(x, y, f"{path}[{i}]")
    elif isinstance(a, float):
        assert abs(a - b) <= 1e-15 * max(1.0, abs(a)), (path, a, b)
    else:
        assert a == b, (path, a, b)


def round_trip(family: Any, subject: Any) -> dict[str, Any]:
    family.validate(subject)  # the family's own subject is in its domain
    data = json.loads(json.dumps(family.to_json(subject)))  # through a file, as a witness is
    back = load(family, data)
    same_json(json.loads(json.dumps(family.to_json(back))), data)
    return data


@pytest.mark.parametrize("family", RANDOM, ids=_id)
def test_a_family_reads_back_what_it_draws_and_lists(family: Any) -> None:
    @FAST
    @given(family.strategy())
    def drawn(subject: Any) -> None:
        round_trip(family, subject)

    drawn()
    listed = list(itertools.islice(family.exhaustive(quick=True), 60))
    for subject in listed:
        round_trip(family, subject)
    start = family.random_start(np.random.default_rng(0))
    if start is not None:
        round_trip(family, start)


def _leaves(data: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, value) of a JSON document: objects, lists and scalars."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:2]):  # the first two entries of each list are enough
            yield from _leaves(v, path + (i,))


def _replace(data: Any, path: tuple, value: Any) -> Any:
    out = copy.deepcopy(data)
    if not path:
        return value
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def _corruptions(value: Any) -> list[tuple[str, Any]]:
    """Ways to break a field of this JSON type: a wrong type, NaN/inf, out of bounds, an oversized list."""
    if isinstance(value, bool):
        return [("string", "true")]
    if isinstance(value, int):
        return [("float", value + 0.5), ("whole float", float(value)), ("string", str(value)), ("bool", True),
                ("null", None), ("huge", 10 ** 6), ("negative", -1)]
    if isinstance(value, float):
        return [("string", str(value)), ("bool", False), ("null", None), ("nan", math.nan), ("inf", math.inf),
                ("-inf", -math.inf)]
    if isinstance(value, str):
        return [("integer", 5), ("list", [value])]
    if isinstance(value, list):
        row = value[0] if value else 0
        return [("huge list", [row] * 200_000), ("string", "x")]
    if isinstance(value, dict):
        return [("extra key", {**value, "unexpected_field": 1}), ("list", [value])]
    return []


def _named(path: tuple, kind: str) -> str:
    """The field a refusal must name: the last key of the path (the extra key for an added one)."""
    if kind == "extra key":
        return "unexpected_field"
    keys = [k for k in path if isinstance(k, str)]
    return keys[-1] if keys else "subject"


@st.composite
def corrupted(draw: Any, family: Any) -> tuple[dict[str, Any], str, str]:
    """A subject of the family with one field broken: (data, the field to name, what was done)."""
    subject = draw(family.strategy())
    data = json.loads(json.dumps(family.to_json(subject)))
    targets = [(p, v) for p, v in _leaves(data) if _corruptions(v)]
    path, value = draw(st.sampled_from(targets))
    kind, bad = draw(st.sampled_from(_corruptions(value)))
    return _replace(data, path, bad), _named(path, kind), f"{kind} at {list(path)}"


@pytest.mark.parametrize("family", RANDOM, ids=_id)
def test_a_family_refuses_a_witness_with_one_broken_field_naming_it(family: Any) -> None:
    @settings(max_examples=8, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(corrupted(family))
    def broken(case: tuple[dict[str, Any], str, str]) -> None:
        data, field, what = case
        start = time.perf_counter()
        with pytest.raises(AssumptionError) as info, no_array_from_a_huge_list():
            load(family, data)
        message = str(info.value)
        assert field in message and "\n" not in message, (what, message)
        assert time.perf_counter() - start < 1.0, what  # refused by a check, not after building it

    broken()


@contextlib.contextmanager
def no_array_from_a_huge_list() -> Iterator[None]:
    """Inside, numpy refuses to build an array from a list of 100 000 items or more (a test of "refused
    by a length check before any array is built")."""
    real = {name: getattr(np, name) for name in ("asarray", "array")}

    def guarded(name: str) -> Any:
        def build(obj: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(obj, (list, tuple)) and len(obj) >= 100_000:
                raise AssertionError(f"np.{name} was given a list of {len(obj)} items")
            return real[name](obj, *args, **kwargs)
        return build

    try:
        for name in real:
            setattr(np, name, guarded(name))
        yield
    finally:
        for name, fn in real.items():
            setattr(np, name, fn)


def test_the_guard_sees_an_array_built_from_a_huge_list() -> None:
    with pytest.raises(AssertionError, match="list of 200000 items"), no_array_from_a_huge_list():
        np.asarray([0.0] * 200_000)


# -- the learned families: their subjects come from trained runs (bigger than the random ones) ------

def _snapshots(spec: Any) -> list[Any]:
    """Two logged steps of a run with the run's own sizes (10 digits x per_class images, d_out outputs,
    the image and its views on 8 x 8 inputs), without training it."""
    from training.snapshots import Snapshot

    rng = np.random.default_rng(spec.seed)
    n = 10 * spec.per_class
    labels = np.repeat(np.arange(10), spec.per_class)
    out = []
    for step in (0, spec.steps):
        emb = rng.normal(size=(n, spec.d_out))
        views = 1 + spec.aug_views
        aug_in = rng.uniform(0, 16, size=(n, views, 64)) if spec.aug_views else None
        aug_feats = rng.normal(size=(n, views, spec.d_out)) if spec.aug_views else None
        norms = np.linalg.norm(emb, axis=1)
        out.append(Snapshot(spec, step, 1.0, emb, labels, float(norms.min()), float(norms.max()),
                            np.full(10, 0.1), aug_in, aug_feats))
    return out


@pytest.fixture
def untrained_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    import theorems.papers.huang.experiments as huang_ex
    from theorems.papers.merad import experiments as merad_ex
    from theorems.papers.merad import learned as merad_learned

    monkeypatch.setattr(merad_learned, "run_snapshots", _snapshots)
    monkeypatch.setattr(huang_ex, "run_snapshots", _snapshots)
    shape = (merad_ex.N_TRIPLETS, 3, merad_ex.D_OUT)  # the Theorem 1 runs' outputs
    monkeypatch.setattr(merad_ex, "theorem1_runs", lambda quick, seed=0: [
        {"width": 16, "seed": s, "outputs": np.random.default_rng(s).normal(size=shape)} for s in (0, 1)])


@pytest.mark.parametrize("family", LEARNED, ids=_id)
@pytest.mark.parametrize("quick", [True, False], ids=["quick runs", "audit runs"])
def test_a_learned_family_reads_back_the_subjects_of_its_runs(family: Any, quick: bool, untrained_runs: None) -> None:
    subjects = list(itertools.islice(family.exhaustive(quick=quick), 3))
    assert subjects
    for subject in subjects:
        data = round_trip(family, subject)
        first = next(k for k, v in data.items() if isinstance(v, (list, dict)) or k.startswith("norm"))
        bad = _replace(data, (first,), "not a number or a list")
        refused(lambda: load(family, bad), first)
        refused(lambda: load(family, {**data, "unexpected_field": 0}), "unexpected_field")


# == (c) replay of edited copies of the recorded witnesses ========================================

def edited(tmp_path: Path, name: str, edit: Any) -> Path:
    """A copy of a recorded witness with its subject edited and its checksum recomputed (so that the
    subject itself, not the checksum, is what replay refuses)."""
    data = json.loads((WITNESSES / name).read_text())
    edit(data["subject"])
    data["subject_sha256"] = subject_checksum(data["subject"])
    data["plugin"] = "theorems.papers.merad"  # the registered plugin that registers the claim
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def replay_refuses(path: Path, *fragments: str) -> str:
    start = time.perf_counter()
    res = runner.invoke(app, ["replay", str(path)])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output, res.output
    assert len([line for line in res.output.strip().splitlines() if line.strip()]) <= 2, res.output
    text = " ".join(res.output.split())  # the console wraps long lines
    for fragment in fragments:
        assert fragment in text, res.output
    assert time.perf_counter() - start < 5, res.output
    return res.output


def _huge_class(subject: dict[str, Any]) -> None:
    subject["values"]["mixture"]["points"][0] = [[0.0]] * 200_000
    subject["values"]["mixture"]["weights"][0] = [1 / 200_000] * 200_000


@pytest.mark.parametrize("name, edit, fragments", [
    ("merad.prop1.part1.json", lambda s: s["values"].__setitem__("N", 10 ** 6), ["field values.N = 1000000 is outside [1, 1]"]),
    ("merad.prop1.part1.json", lambda s: s["values"].__setitem__("N", 1.9), ["field values.N = 1.9 is a JSON float"]),
    ("merad.prop1.part1.json", lambda s: s["values"].__setitem__("N", 1.0), ["field values.N = 1.0 is a JSON float"]),
    ("merad.prop1.part1.json", lambda s: s["values"].__setitem__("N", "1"), ["field values.N = '1' is a JSON string"]),
    ("merad.prop1.part1.json", lambda s: s["values"].__setitem__("N", True), ["field values.N = true is a JSON boolean"]),
    ("merad.prop1.part1.json", lambda s: s.__setitem__("extra", 1), ["unknown field(s) extra"]),
    ("merad.prop1.part1.json", lambda s: s["values"]["mixture"].__setitem__("extra", 1), ["unknown field(s) extra"]),
    ("merad.prop1.part1.json", _huge_class, ["mixture.points[0]", "200000", "[1, 3]"]),
    ("merad.prop1.part1.json", lambda s: s["values"]["mixture"].__setitem__("rho", [0.2] * 5), ["N_C (classes) = 5", "[2, 4]"]),
    ("merad.prop1.part1.json", lambda s: s["values"]["mixture"]["points"][0][0].__setitem__(0, "0.0"),
     ["field values.mixture.points[0][0][0] = '0.0' is a JSON string"]),
    ("merad.coupon.variance.json", lambda s: s["values"].__setitem__("N_C", 10 ** 6),
     ["field values.N_C = 1000000 is outside [1, 1000]"]),
    ("merad.coupon.variance.json", lambda s: s["values"].__setitem__("N_C", "1"),
     ["field values.N_C = '1' is a JSON string"]),
    ("merad.coupon.variance.json", lambda s: s["values"].__setitem__("beta", 1.0),
     ["field values has unknown field(s) beta"]),
    ("merad.lemma3.printed_equalities.json", lambda s: s["values"].__setitem__("z", [[0.0] * 5] * 3),
     ["values.z[0]", "d = 5"]),
    ("merad.lemma7.json", lambda s: s["values"].__setitem__("C", 1.0), ["Assumption 2"]),
    ("merad.lemma7.json", lambda s: s["values"].__setitem__("T", [[2, 1, 0]] * 200_000),
     ["field values.T", "200000", "[2, 2]"]),
    ("merad.lemma7.json", lambda s: s["values"].__setitem__("T", [[2, 1, 3], [2, 0, 1]]),
     ["field values.T[0][2] = 3 is outside [0, 2]"]),
], ids=["N=10^6", "N=1.9", "N=1.0", "N='1'", "N=true", "extra key", "extra key in mixture", "200000-point class",
        "5 classes", "point as a string", "coupon N_C=10^6", "coupon N_C string", "coupon beta without a grid",
        "triplet d=5", "lemma7 norm 3 > C=1",
        "200000 triplets", "index out of range"])
def test_an_edited_witness_outside_its_family_or_hypotheses_replays_as_a_named_error(
        tmp_path: Path, name: str, edit: Any, fragments: list[str]) -> None:
    replay_refuses(edited(tmp_path, name, edit), *fragments)


def test_the_lemma7_witness_itself_still_replays(tmp_path: Path) -> None:
    """The control of the Assumption 2 case: the recorded subject (max ||f(x)|| = 3 = C) replays."""
    res = runner.invoke(app, ["replay", str(edited(tmp_path, "merad.lemma7.json", lambda s: None))])
    assert res.exit_code == 0, res.output
    assert "still refutes merad.lemma7" in res.output
