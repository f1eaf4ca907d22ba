"""Coq certificates: Merad et al.'s facts are accepted by coqc; false statements, rejected scripts,
Admitted lemmas and a missing coqc never certify; the cache records the coqc version, says "hit" (in
the certificate's volatile facts, never in its report) and refuses a record that does not verify.

Tests that run coqc are skipped, with the reason, when coqc is not on PATH. Within a session the
results are cached in a temporary $CLCHECK_CACHE, so each script is checked by coqc once.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from coq_support import coq_cache, needs_coq
import sympy as sp

from numerics import coq
from numerics.certificate import Certificate
from theorems.papers.merad import certificates as certs
from theorems.papers.merad import chebyshev_proof
from theorems.papers.merad import finite_proofs
from theorems.papers.merad import provers as merad
from theorems.papers.merad import sharp_constants

session_cache = pytest.fixture(scope="module", autouse=True)(coq_cache)


def _dumps(cert: Certificate) -> str:
    return json.dumps(cert.to_json(), allow_nan=False)


TRUE_FACTS = {
    "lse_max_bounds": merad.lse_max_bounds_coq,
    "lse_nonneg": merad.lse_nonneg_coq,
    "lse_restriction": merad.lse_restriction_coq,
    "lse_pairwise": merad.lse_pairwise_coq,
    "softmax2_curvature": merad.softmax2_curvature_coq,
    "ratio_le_twice": merad.ratio_le_twice_coq,
    "softplus_bounds": merad.softplus_bounds_coq,
    "coupon_mean": merad.coupon_mean_coq,
    "tau_plus_uniform": merad.tau_plus_uniform_coq,
}


@needs_coq
@pytest.mark.parametrize("name", list(TRUE_FACTS))
def test_merad_facts_are_accepted_by_coq(name):
    cert = TRUE_FACTS[name]()
    d = cert.details
    assert cert.ok, d.get("output")
    assert cert.method == "coq" and cert.complete
    assert d["coqc_version"].startswith("The Coq Proof Assistant")
    assert cert.volatile["cache"] in ("hit", "miss") and d["returncode"] == 0
    assert d["sha256"] == coq.script_sha256(d["script"])
    assert d["recheck"] == f"coqc -q {d['script_name']}"
    for thm in d["theorems"]:
        assert f"Theorem {thm} :" in d["script"] and thm in d["coq_statements"]
    assert "Print Assumptions" in d["script"] and "Admitted" not in d["script"]
    assert d["assumptions"] and all(a.startswith(coq.ALLOWED_AXIOM_PREFIXES) for a in d["assumptions"])
    json.loads(_dumps(cert))


@needs_coq
def test_the_lse_theorems_quantify_over_every_n():
    """The Coq statements are about lists of any length (not n <= 6): complete=True is earned."""
    stmts = merad.lse_max_bounds_coq().details["coq_statements"]
    assert stmts["lse_max_bounds"].startswith("forall (x : R) (l : list R)")
    assert "INR (length (x :: l))" in stmts["lse_max_bounds"]
    pairs = merad.lse_pairwise_coq().details["coq_statements"]
    assert pairs["lse_pairwise"].startswith("forall (p : R * R) (ps : list (R * R))")
    mean = merad.coupon_mean_coq().details["coq_statements"]["coupon_law_moments"]
    assert mean.startswith("forall n : nat")


FALSE_FACTS = {
    "LSE(x) <= max(x) + log(n)/2": lambda: merad.lse_max_bounds_coq("1/2"),
    "pairwise with log(n)/2": lambda: merad.lse_pairwise_coq("1/2"),
    "log(1+t) <= t/2": lambda: merad.softplus_bounds_coq("1/2"),
    "x/(1-x) <= 3x/2": lambda: merad.ratio_le_twice_coq("3/2"),
    "2 v1 v2 <= 49/100": lambda: merad.softmax2_curvature_coq("49/100"),
    "E[T] = 2 n H_n": lambda: merad.coupon_mean_coq(2),
}


@needs_coq
@pytest.mark.parametrize("name", list(FALSE_FACTS))
def test_false_statements_are_rejected(name):
    """The same proof text with a false statement: Coq rejects it, the certificate is not ok."""
    cert = FALSE_FACTS[name]()
    assert not cert.ok
    assert cert.details["reason"] == "Coq rejected the script"
    assert cert.details["returncode"] not in (0, None)
    assert "Error" in cert.details["output"]
    _dumps(cert)


# a statement over nat needs no library (coqc checks it in 0.1 s; Reals and Lra take 1.2 s to load)
SMALL = "Theorem small : forall n : nat, 0 <= 2 * n.\nProof. intros n. apply le_0_n. Qed.\n"


@needs_coq
def test_a_script_coq_rejects_is_not_ok():
    bad = SMALL.replace("0 <= 2 * n", "1 <= 2 * n").replace("Theorem small", "Theorem small_bad")
    cert = coq.check_script("small_bad", bad, ["small_bad"], "1 <= 2n", "n >= 0")
    assert not cert.ok and cert.details["reason"] == "Coq rejected the script"


@needs_coq
def test_admitted_and_axioms_do_not_certify():
    admitted = SMALL.replace("Proof. intros n. apply le_0_n. Qed.", "Admitted.").replace("small", "small_admitted")
    cert = coq.check_script("small_admitted", admitted, ["small_admitted"], "admitted", "n >= 0")
    assert not cert.ok and "small_admitted" in cert.details["reason"]  # coqc accepts it; the assumptions do not
    axiom = ("From Coq Require Import Reals.\nOpen Scope R_scope.\nAxiom cheat : forall x : R, x = 0.\n"
             "Theorem one_is_zero : 1 = 0.\nProof. apply cheat. Qed.\n")
    cert = coq.check_script("small_axiom", axiom, ["one_is_zero"], "1 = 0", "-")
    assert not cert.ok and "cheat" in cert.details["reason"]


def _record_path(session_cache, cert: Certificate):
    return session_cache / "coq" / f"{cert.details['sha256']}.json"


def _rewrite(path, record: dict, *, checksum: bool) -> None:
    """Write ``record`` as the cache record at ``path``; ``checksum=True`` recomputes its checksum (the
    record then verifies unless its fields contradict each other or its key)."""
    if checksum:
        record["checksum"] = coq._record_checksum(record)
    path.write_text(json.dumps(record))


def _check(tag: str, *, rejected: bool = False, **kw) -> Certificate:
    """A one-theorem script over nat (0.1 s of coqc), named by ``tag``; ``rejected``: a false statement."""
    name = f"small_{tag}"
    script = SMALL.replace("small", name)
    if rejected:
        script = script.replace("0 <= 2 * n", "1 <= 2 * n")
    return coq.check_script(name, script, [name], "s", "d", **kw)


VOLATILE = ("cache", "cache_file", "coqc", "checked_at", "coqc_seconds")


@needs_coq
def test_cache_records_the_version_and_reports_hits(session_cache):
    before = coq.compilations()
    first = _check("cached")
    second = _check("cached")
    assert first.ok and second.ok and coq.compilations() == before + 1
    assert first.volatile["cache"] == "miss" and second.volatile["cache"] == "hit"
    path = _record_path(session_cache, first)
    assert second.volatile["cache_file"] == str(path) and second.volatile["coqc"] == coq.coqc_path()
    record = json.loads(path.read_text())
    assert record["key"] == {"sha256": first.details["sha256"], "coqc_version": coq.coqc_version(),
                             "libraries": first.details["libraries"], "print_assumptions": True}
    assert record["result"]["ok"] is True and record["checksum"] == coq._record_checksum(record)
    assert second.volatile["coqc_seconds"] == first.volatile["coqc_seconds"]  # the original check's time
    # another coqc version (the checksum recomputed: only the key differs): the record is not reused
    record["key"]["coqc_version"] = "The Coq Proof Assistant, version 0.0"
    _rewrite(path, record, checksum=True)
    third = _check("cached")
    assert third.ok and third.volatile["cache"] == "miss" and coq.compilations() == before + 2
    assert json.loads(path.read_text())["key"]["coqc_version"] == coq.coqc_version()  # rewritten
    off = _check("cached", use_cache=False)
    assert off.ok and off.volatile["cache"] == "disabled" and coq.compilations() == before + 3


@needs_coq
def test_a_hit_and_a_miss_give_the_same_report(session_cache):
    """Nothing volatile in details: the certificate's JSON (its report) is the same whether coqc ran or
    the cache answered, timings aside; the volatile facts stay on the certificate."""
    miss, hit = _check("same_report"), _check("same_report")
    assert (miss.volatile["cache"], hit.volatile["cache"]) == ("miss", "hit")
    reports = [{k: v for k, v in c.to_json().items() if k != "seconds"} for c in (miss, hit)]
    assert reports[0] == reports[1]
    assert "volatile" not in reports[0] and not set(VOLATILE) & set(reports[0]["details"])
    assert reports[0]["details"]["coqc_version"] == coq.coqc_version() and reports[0]["details"]["libraries"]
    assert all(k in miss.volatile for k in VOLATILE)


@needs_coq
def test_an_edited_record_is_checked_again(session_cache):
    """A script Coq rejects, its record edited to ok: true: coqc runs again, the certificate is not ok,
    and the record is rewritten."""
    first = _check("edited", rejected=True)
    assert not first.ok and first.details["reason"] == "Coq rejected the script"
    path = _record_path(session_cache, first)
    record = json.loads(path.read_text())
    assert record["result"]["ok"] is False
    record["result"]["ok"], record["result"]["reason"] = True, None
    _rewrite(path, record, checksum=False)
    before = coq.compilations()
    again = _check("edited", rejected=True)
    assert not again.ok and again.volatile["cache"] == "miss" and coq.compilations() == before + 1
    assert json.loads(path.read_text())["result"]["ok"] is False
    assert _check("edited", rejected=True).volatile["cache"] == "hit"  # the rewritten record verifies
    # every field edited to agree with ok: true, but the checksum left as it was
    record = json.loads(path.read_text())
    record["result"].update(ok=True, reason=None, returncode=0, assumptions=[], closed=True)
    _rewrite(path, record, checksum=False)
    before = coq.compilations()
    again = _check("edited", rejected=True)
    assert not again.ok and again.volatile["cache"] == "miss" and coq.compilations() == before + 1


@needs_coq
def test_a_record_whose_fields_contradict_ok_is_checked_again(session_cache):
    """ok: true with a checksum that matches (recomputed), but the record's own return code (or
    assumptions, or types) do not give ok: the rule that wrote it is applied again."""
    first = _check("contradicts", rejected=True)
    path = _record_path(session_cache, first)
    original = json.loads(path.read_text())
    edits = [
        {"ok": True, "reason": None},                                                    # returncode != 0
        {"ok": True, "reason": None, "returncode": 0, "assumptions": ["cheat"]},          # an axiom outside
        {"ok": True, "reason": None, "returncode": 0, "assumptions": [], "closed": False},  # nothing printed
        {"ok": True, "reason": None, "returncode": 0.0, "assumptions": [], "closed": True},  # wrong types,
        {"ok": True, "reason": None, "returncode": 0, "assumptions": [], "closed": "yes"},  # whose values
        {"ok": 1, "reason": None, "returncode": 0, "assumptions": [], "closed": True},      # would pass
    ]
    for edit in edits:
        record = json.loads(json.dumps(original))
        record["result"].update(edit)
        _rewrite(path, record, checksum=True)
        before = coq.compilations()
        again = _check("contradicts", rejected=True)
        assert not again.ok and again.volatile["cache"] == "miss", edit
        assert coq.compilations() == before + 1, edit
    # the rule itself: the same fields with ok consistent do verify (so the edits above are what failed)
    _rewrite(path, json.loads(json.dumps(original)), checksum=True)
    assert _check("contradicts", rejected=True).volatile["cache"] == "hit"


@needs_coq
def test_a_record_copied_over_another_scripts_file_is_checked_again(session_cache):
    good, bad = _check("copy_good"), _check("copy_bad", rejected=True)
    assert good.ok and not bad.ok
    _record_path(session_cache, bad).write_text(_record_path(session_cache, good).read_text())
    before = coq.compilations()
    again = _check("copy_bad", rejected=True)
    assert not again.ok and again.volatile["cache"] == "miss" and coq.compilations() == before + 1
    assert json.loads(_record_path(session_cache, bad).read_text())["key"]["sha256"] == bad.details["sha256"]


@needs_coq
def test_a_truncated_or_old_record_is_checked_again(session_cache):
    first = _check("truncated")
    path = _record_path(session_cache, first)
    text = path.read_text()
    old_format = {"sha256": first.details["sha256"], "coqc_version": coq.coqc_version(),
                  "libraries": first.details["libraries"], "ok": True, "returncode": 0, "assumptions": []}
    for broken in (text[: len(text) // 2], text.replace('"format": 2', '"format": 1'), json.dumps(old_format)):
        path.write_text(broken)
        before = coq.compilations()
        again = _check("truncated")
        assert again.ok and again.volatile["cache"] == "miss" and coq.compilations() == before + 1
        assert json.loads(path.read_text())["checksum"]  # rewritten whole


@needs_coq
def test_a_timeout_is_not_ok_and_not_cached(session_cache):
    script = SMALL.replace("small", "small_slow")
    cert = coq.check_script("small_slow", script, ["small_slow"], "s", "d", timeout=0.001)
    assert not cert.ok and "did not finish" in cert.details["reason"]
    assert not (session_cache / "coq" / f"{cert.details['sha256']}.json").exists()


def test_without_coqc_the_step_stays_tested(monkeypatch):
    monkeypatch.setenv("CLCHECK_COQC", "/nonexistent/coqc")
    cert = merad.lse_max_bounds_coq()
    assert not cert.ok
    assert cert.details["reason"] == coq.NOT_FOUND == "coqc not found: the step stays tested"
    assert cert.volatile["cache"] == "not used"  # a cached success is not a proof without coqc
    assert "cache" not in cert.details and "cache" not in cert.to_json()["details"]
    assert "Theorem lse_max_bounds" in cert.details["script"]  # kept for checking by hand
    _dumps(cert)


@needs_coq
def test_write_scripts_and_recheck_by_hand(tmp_path):
    run = [certs.lse_max_bounds_coq(), certs.lse_nonneg_coq(), certs.ratio_le_twice_coq(),
           merad.lse_max_bounds_coq("1/2"), certs.d2cos_norm_symbolic()]
    paths = coq.write_scripts([c.to_json() if i % 2 else c for i, c in enumerate(run)], tmp_path)
    names = sorted(p.name for p in paths)
    assert names == ["merad_lse.v", "merad_lse_1_2.v", "merad_scalar.v"]  # one file per script, sympy skipped
    assert (tmp_path / "coq" / "check.sh").exists()
    readme = (tmp_path / "coq" / "README.md").read_text()
    assert "accepted by coqc" in readme and "not certified" in readme
    assert "Which scripts prove which claim" not in readme  # no claims given: no per-claim table
    # by hand: the written file is exactly the certified script and coqc accepts it
    lse = tmp_path / "coq" / "merad_lse.v"
    assert lse.read_text() == run[0].details["script"]
    done = subprocess.run([coq.coqc_path(), "-q", lse.name], cwd=lse.parent, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


t = sp.Symbol("t", real=True)


@needs_coq
def test_prove_box_with_the_interval_tactic():
    ok = coq.prove_box(1 - sp.log(1 + t), {t: ("0", "1")}, "log(1+t) <= 1 on [0, 1]", name="box_log1p_le_1")
    assert ok.ok and ok.details["tactic"] == "interval", ok.details.get("output")
    assert "interval with" in ok.details["script"]
    bad = coq.prove_box(t / 2 - sp.log(1 + t), {t: ("0", "1")}, "log(1+t) <= t/2 on [0, 1]",
                        name="box_log1p_half")
    assert not bad.ok and bad.details["reason"] == "Coq rejected the script"


def test_coq_expressions():
    x, y = sp.symbols("x y", real=True)
    assert coq.coq_number(sp.Rational(-3, 4)) == "(-(3 / 4))"
    assert coq.coq_expr(sp.log(1 - x) + 2 * x) == "((2 * x) + (ln (1 + ((-1) * x))))"
    text = coq.coq_expr(sp.sqrt(x) * sp.exp(-y) / (1 + x ** 2))
    assert "(sqrt x)" in text and "(exp ((-1) * y))" in text and "(1 + (x ^ 2))" in text
    assert "0.1" not in coq.coq_expr(sp.Float(0.1) * x)  # floats at their exact binary value
    with pytest.raises(ValueError):
        coq.coq_expr(sp.gamma(x))


def test_coq_certificates_cover_labels_of_their_claims(monkeypatch):
    """Every Coq certificate function names parts its claim has (or the whole statement)."""
    import theorems.papers.merad  # noqa: F401  (registers the claims)
    from theorems.engine.registry import all_claims

    monkeypatch.setenv("CLCHECK_COQC", "/nonexistent/coqc")  # the labels do not need coqc
    claims = {c.id: c for c in all_claims()}
    for cid, fns in certs.COQ_CERTIFICATES.items():
        labels = [str(p) for p in claims[cid].statement]
        for fn in fns:
            cert = fn()
            assert cert.method == "coq"
            assert cert.complete, (cid, cert.domain)  # a Coq proof is for every n, every x of the printed domain
            assert cert.parts is None or set(cert.parts) <= set(labels), (cid, cert.parts, labels)


# each fixed script is a .v file shipped with the plugin (package data); the certificate checks it as it is
PACKAGED = {
    "merad_lse": merad.lse_max_bounds_coq, "merad_scalar": merad.ratio_le_twice_coq,
    "merad_counting": merad.tau_plus_uniform_coq, "merad_rearrangement": merad.rearrangement_coq,
    "merad_lemma7_sharp": merad.lemma7_sharp_constant_coq, "merad_lemma3_sharp": sharp_constants.scalar_facts_coq,
    "merad_chebyshev": chebyshev_proof.coupon_chebyshev_coq, "merad_lemma12": finite_proofs.lemma1_coq,
}


def test_the_fixed_scripts_are_the_packaged_v_files(monkeypatch):
    from importlib.resources import files

    monkeypatch.setenv("CLCHECK_COQC", "/nonexistent/coqc")  # the script text does not need coqc
    shipped = sorted(p.name[:-2] for p in files("theorems.papers.merad").joinpath("coq").iterdir()
                     if p.name.endswith(".v"))
    assert shipped == sorted(PACKAGED)
    for name, fn in PACKAGED.items():
        text = coq.packaged_script("theorems.papers.merad", name)
        cert = fn()
        assert cert.details["script_name"] == f"{name}.v"
        assert cert.details["script"].startswith(text) and "Print Assumptions" not in text, name
    # a test hook changes only the statement it names, and only where it is stated
    assert merad.lse_script("1/2").count("(1 / 2)") == 3
    with pytest.raises(ValueError, match="occurs 0 times"):
        coq.restated(merad.script("merad_lse"), "no such statement", "x")


@needs_coq
def test_check_sh_rechecks_every_script_lists_axioms_per_claim_and_refuses_an_edited_one(tmp_path):
    """coq/check.sh compiles every script, prints its axioms and ends with "all scripts accepted"; the README
    says which scripts prove which claim; a script edited after certification is refused."""
    claims = {"merad.lse.max_bounds": [certs.lse_max_bounds_coq()], "merad.lemma7.steps": [certs.ratio_le_twice_coq()],
              "merad.lse.nonneg": [certs.lse_nonneg_coq()]}
    paths = coq.write_scripts((), tmp_path, claims=claims)
    assert sorted(p.name for p in paths) == ["merad_lse.v", "merad_scalar.v"]  # a script shared by claims: once
    readme = (tmp_path / "coq" / "README.md").read_text()
    assert "| `merad.lse.nonneg` | `merad_lse.v` |" in readme and "| `merad.lemma7.steps` | `merad_scalar.v` |" in readme
    assert "ClassicalDedekindReals" in readme  # the axioms Print Assumptions listed
    check = tmp_path / "coq" / "check.sh"
    done = subprocess.run(["sh", str(check)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("all scripts accepted"), done.stdout + done.stderr
    assert "axioms: ClassicalDedekindReals" in done.stdout
    assert sorted(p.name for p in (tmp_path / "coq").iterdir()) == ["README.md", "SHA256SUMS", "check.sh",
                                                                     "merad_lse.v", "merad_scalar.v"]  # no build files
    lse = tmp_path / "coq" / "merad_lse.v"
    lse.write_text(lse.read_text().replace("ln (INR (length (x :: l)))", "0"))
    edited = subprocess.run(["sh", str(check)], capture_output=True, text=True, timeout=300)
    assert edited.returncode != 0 and "all scripts accepted" not in edited.stdout


@needs_coq
def test_check_sh_refuses_a_script_resting_on_an_axiom_of_its_own(tmp_path):
    script = ("From Coq Require Import Reals.\nOpen Scope R_scope.\nAxiom cheat : forall x : R, x <= 0.\n"
              "Theorem one_le_zero : 1 <= 0.\nProof. apply cheat. Qed.\nPrint Assumptions one_le_zero.\n")
    forged = {"method": coq.METHOD, "ok": True, "statement": "1 <= 0",
              "details": {"script": script, "script_name": "forged.v", "sha256": coq.script_sha256(script)}}
    coq.write_scripts((), tmp_path, claims={"t.forged": [forged]})
    done = subprocess.run(["sh", str(tmp_path / "coq" / "check.sh")], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "REJECTED: forged.v rests on the axiom cheat" in done.stdout, done.stdout


@pytest.mark.parametrize("parts, shown", [(None, "all"), ((), "none of the printed parts"), (("a <= b",), "a <= b")])
def test_the_coq_readme_says_which_parts_a_script_covers_and_never_all_for_none(parts, shown: str) -> None:
    """A certificate's ``parts``: None covers the whole statement, an empty tuple none of it (a sharp-constant
    script); the README's table says so instead of rendering an empty list as "all"."""
    cert = {"method": coq.METHOD, "details": {"script": "Lemma x : True. Proof. exact I. Qed."}, "parts": parts,
            "ok": True, "complete": True}
    (row,) = coq._claim_rows({"t.claim": [cert]}, {coq.script_sha256(cert["details"]["script"]): "t_script"})
    assert row.split(" | ")[2] == shown, row
