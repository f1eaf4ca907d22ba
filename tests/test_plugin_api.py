"""The public API as an outsider uses it: quantities declared once, families composed from parts,
claims about them searched, refuted, shrunk, recorded and replayed -- without a subclass."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy
from sympy import log, sqrt

from theorems import Claim, ClaimError, Eq, Ge, Kind, Le, Source, parts, quantity
from theorems.engine.budget import Budget
from theorems.engine.check import check_claim
from theorems.engine.family_check import check_family
from theorems.engine.witness import replay
from theorems.engine.verdict import Verdict
from theorems.subjects import Distribution, Embeddings, Family, Graph, Integer, Scalar, Vector

ROOT = Path(__file__).resolve().parents[1]
SRC = Source("test", "test")
FAST = Budget(examples=60, adversarial_starts=2, adversarial_steps=30, shrink_tries=200)


@quantity(range=(0, None))
def sq_norm(s, xp):
    """||v||^2."""
    return xp.sum(s.v * s.v)


@quantity
def weighted_mean(s, xp):
    """sum_i p_i v_i."""
    return xp.sum(s.p * s.v)


vectors = Family("vectors with a distribution", dims={"n": (2, 4)},
                 parts={"v": Vector("n"), "p": Distribution("n"), "c": Scalar(0.5, 2.0), "m": Integer(1, 3)},
                 quantities=(sq_norm, weighted_mean))


def test_a_true_claim_over_new_quantities_is_consistent_with_adversarial_examples() -> None:
    # (sum p_i v_i)^2 <= sum p_i v_i^2 <= ||v||^2 (Jensen, then p_i <= 1)
    claim = Claim("t.jensen", Kind.INEQUALITY, SRC, parts(Le(weighted_mean ** 2, sq_norm)), subjects=(vectors,))
    result = check_claim(claim, FAST, seed=1)
    assert result.verdict == Verdict.CONSISTENT
    assert result.examples == FAST.examples and result.adversarial_examples > 0


def test_a_false_claim_is_refuted_shrunk_inside_the_family_and_replays() -> None:
    claim = Claim("t.false", Kind.INEQUALITY, SRC, parts(Le(sq_norm, weighted_mean ** 2)), subjects=(vectors,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED
    subject = result.witness["subject"]
    assert subject["dims"]["n"] == 2  # shrunk to the family's smallest size, never below it
    assert replay(result.witness, claim).violated
    assert result.witness["subject_sha256"] and result.witness["plugin"] is None  # unregistered: no plugin


def test_constants_such_as_log2_and_sqrt2_work_in_every_backend_and_in_the_adversary() -> None:
    claim = Claim("t.constants", Kind.INEQUALITY, SRC,
                  parts(Le(weighted_mean ** 2, sq_norm + log(2) * sqrt(2) * vectors.symbol("c"))), subjects=(vectors,))
    result = check_claim(claim, FAST, seed=2)
    assert result.verdict == Verdict.CONSISTENT and result.adversarial_examples > 0


def test_integer_parts_and_sizes_are_quantities_too() -> None:
    n, m = vectors.symbol("n"), vectors.symbol("m")
    claim = Claim("t.sizes", Kind.INEQUALITY, SRC, parts(Le(m, n + 1)), subjects=(vectors,))
    assert check_claim(claim, FAST, seed=0).verdict == Verdict.CONSISTENT
    with pytest.raises(ClaimError, match="no scalar, integer or size named 'w'"):
        vectors.symbol("w")


def test_registration_names_the_assumption_that_decides_a_relation() -> None:
    nonneg = sympy.Symbol("L_nonneg", nonnegative=True)
    with pytest.raises(ClaimError, match="nonnegative=True of the symbol L_nonneg"):
        Claim("t.folded", Kind.INEQUALITY, SRC, parts(Ge(nonneg, 0)), subjects=(vectors,))
    with pytest.raises(ClaimError, match="constant True"):
        Claim("t.folded2", Kind.INEQUALITY, SRC, parts(sympy.Ge(nonneg, 0)), subjects=(vectors,))


def test_registration_names_a_quantity_the_family_cannot_compute() -> None:
    stranger = quantity("stranger_quantity", range=(0, None))
    with pytest.raises(ClaimError, match="cannot compute stranger_quantity"):
        Claim("t.stranger", Kind.INEQUALITY, SRC, parts(Le(stranger, 1)), subjects=(vectors,))


def test_two_modules_may_declare_a_quantity_of_the_same_name() -> None:
    from theorems.papers.huang.subjects import L_align as huang_align

    mine = quantity("L_align", lambda s, xp: xp.sum(s.v * 0), range=(0, 4))
    assert mine != huang_align and str(mine) == str(huang_align) == "L_align"
    assert mine.quantity.range == (0.0, 4.0) and huang_align.quantity.range == (0.0, float("inf"))
    assert mine.quantity.formula is not huang_align.quantity.formula


def test_check_family_names_the_backend_where_a_quantity_fails() -> None:
    @quantity
    def numpy_log(s, xp):
        return np.log(xp.sum(s.v * s.v) + 1)  # np.log, not xp.log: breaks on mpmath numbers

    fam = Family("np.log family", dims={"n": (1, 3)}, parts={"v": Vector("n")}, quantities=(numpy_log,))
    rows = {r.quantity: r for r in check_family(fam, draws=2, seed=0)}
    assert rows["numpy_log"].status["float64"] == "ok"
    assert rows["numpy_log"].status["mpmath"].startswith("fails")
    assert rows["numpy_log"].failed and not rows["n"].failed


@quantity
def spectral_loss(s, xp):
    """HaoChen et al. (2021): -2 E_{x,x+} f(x)^T f(x+) + E_{x,x'} (f(x)^T f(x'))^2 on the graph A."""
    total = xp.sum(s.A)
    w = xp.sum(s.A, axis=1) / total
    G = s.F @ xp.transpose(s.F)
    return -2 * xp.sum(s.A / total * G) + xp.sum(w[:, None] * w[None, :] * G * G)


@quantity(range=(0, None))
def factorization_gap(s, xp):
    """||A_bar - F' F'^T||_F^2 - ||A_bar||_F^2 with A_bar = D^-1/2 A D^-1/2 and F'_x = sqrt(w_x) f(x)."""
    deg = xp.sum(s.A, axis=1)
    inv = 1 / xp.sqrt(deg)
    a_bar = s.A * inv[:, None] * inv[None, :]
    scaled = s.F * xp.sqrt(deg / xp.sum(deg))[:, None]
    diff = a_bar - scaled @ xp.transpose(scaled)
    return xp.sum(diff * diff) - xp.sum(a_bar * a_bar)


def test_a_graph_claim_spectral_loss_equals_the_factorization_gap() -> None:
    graphs = Family("graphs with features", dims={"n": (2, 4), "k": (1, 2)},
                    parts={"A": Graph("n"), "F": Embeddings("n", "k")},
                    quantities=(spectral_loss, factorization_gap))
    connected = (lambda s: bool(np.all(np.sum(s.A, axis=1) > 0)),)
    from theorems import Assumption

    claim = Claim("t.spectral", Kind.IDENTITY, SRC, parts(Eq(spectral_loss, factorization_gap)), subjects=(graphs,),
                  assumptions=(Assumption("no isolated node", "every degree > 0", connected[0]),))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.CONSISTENT and result.examples > 0


def test_a_greater_or_equal_part_reports_its_printed_sides() -> None:
    claim = Claim("t.ge", Kind.INEQUALITY, SRC, parts(Ge(weighted_mean ** 2, sq_norm)), subjects=(vectors,))
    result = check_claim(claim, FAST, seed=0)
    assert result.verdict == Verdict.REFUTED
    part = result.witness["parts"][0]
    assert ">=" in part["relation"] and part["violated"]
    assert float(part["lhs"]) < float(part["rhs"])  # the printed left side is the smaller one: a violation


def _plugin_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT / "examples" / "hypersphere"),
            "CLCHECK_PLUGINS": "hypersphere_claims", "CLCHECK_CACHE": str(tmp_path / "cache")}


def test_the_example_plugin_ships_its_marker_pages_and_recorded_witness(tmp_path: Path, env_plugin,  # noqa: ANN001
                                                                      marker_items,  # noqa: ANN001
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Named in ``CLCHECK_PLUGINS``: its pages and recorded witness are found, its paper's marker selects exactly its
    claims as pytest items (unknown markers are errors here), and they run: the refuted one with a recorded witness
    passes, as its refutation is recorded. Every claim's verdict is CI's audit of the example plugins."""
    from theorems.engine.registry import all_claims, paper_of
    from theorems.engine.witness import recorded_witness_path

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    env_plugin("hypersphere_claims", folder=ROOT / "examples" / "hypersphere")
    marker_items("hyper", "pdist or align_cosine", passed=2)
    claim = [c for c in all_claims(["hyper"]) if c.known_refutation][0]
    assert str(paper_of(claim).pages).endswith("hypersphere_claims/pages")
    assert str(recorded_witness_path(claim)).endswith("witnesses/hyper.uniform_cloning.pdist.json")


def test_a_selection_imports_only_the_plugins_it_names(tmp_path: Path) -> None:
    code = ("import sys\nfrom theorems.engine.registry import all_claims, get\n"
            "print(len(all_claims(['hyper'])), get('hyper.uniform_cloning.pdist').id,"
            " [m for m in ('theorems.papers.merad', 'theorems.papers.huang') if m in sys.modules])\n"
            "get('merad.lse.nonneg')\n"
            "print('theorems.papers.merad' in sys.modules, 'theorems.papers.huang' in sys.modules)\n"
            "print(len({c.paper for c in all_claims()}))\n")
    out = subprocess.run([sys.executable, "-c", code], env=_plugin_env(tmp_path), capture_output=True, text=True,
                         check=True).stdout.split()
    assert int(out[0]) > 0 and out[1:] == ["hyper.uniform_cloning.pdist", "[]", "True", "False", "5"]


MISNAMED_PLUGIN = '''
from sympy import Le
from theorems import Claim, Kind, parts, Plugin, Source
from theorems.papers.merad import vectors as vec
from theorems.papers.merad.vectors import Vectors
PLUGIN = Plugin()

PLUGIN.claim(Claim("mine.max_le_lse", Kind.INEQUALITY, Source("x", "y"), parts(Le(vec.max_x, vec.lse_x)),
               subjects=(Vectors(),)))
register = PLUGIN.register
'''


def test_an_entry_point_registers_only_claims_under_its_name(user_plugin) -> None:  # noqa: ANN001
    from theorems.engine import registry

    with pytest.raises(ClaimError, match="entry point 'other'.*must be the prefix"):
        user_plugin("misnamed_claims", MISNAMED_PLUGIN, entry_point="other")
    assert "mine.max_le_lse" not in registry.current().claims
    user_plugin("misnamed_claims", MISNAMED_PLUGIN, entry_point="mine")
    assert registry.origin("mine.max_le_lse") == "misnamed_claims"


def test_replay_loads_only_a_registered_plugin(tmp_path: Path) -> None:
    """The witness's claim is loaded through the registry (its prefix's entry point, CLCHECK_PLUGINS);
    a plugin module the witness names that is not registered is never imported, even when it is on
    the path."""
    witness = ROOT / "examples/hypersphere/hypersphere_claims/witnesses/hyper.uniform_cloning.pdist.json"
    assert json.loads(witness.read_text())["plugin"] == "hypersphere_claims"
    env = {**_plugin_env(tmp_path), "CLCHECK_PLUGINS": "hypersphere_claims"}
    run = subprocess.run([sys.executable, "-m", "theorems.frontend.cli", "replay", str(witness)], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 0 and "still refutes hyper.uniform_cloning.pdist" in run.stdout, run.stdout + run.stderr
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({**json.loads(witness.read_text()), "plugin": "no_such_plugin_module"}))
    run = subprocess.run([sys.executable, "-m", "theorems.frontend.cli", "replay", str(elsewhere)], env=env,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "no_such_plugin_module" in run.stdout and "not a registered plugin" in run.stdout
    assert "Traceback" not in run.stdout + run.stderr