"""Mutation analysis (issue 40): which mutants a part has, which way each strengthens, when a survivor is true, and
``clcheck mutate`` end to end on claims an outsider would write (no paper's code)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest
import sympy

from numerics.certificate import Certificate
from theorems import Claim, Ge, Kind, Le, Sharp, Source, parts, quantity
from theorems.engine.budget import Budget
from theorems.engine.errors import ClaimError
from theorems.engine.family import SubjectFamily
from theorems.engine.mutate import (AMOUNTS, CONSTANT, DROP, EXPONENT, SCALE, STRICT, implies, mutant_claim,
                                    mutated_relation, mutations, shown_true)
from theorems.engine.registry import isolated
from theorems.subjects import Family, Scalar


@quantity(range=(0, None))
def X_mut(s, xp):
    """The subject's first value, in [0.1, 10]."""
    return s.x


@quantity(range=(0, None))
def Y_mut(s, xp):
    """The subject's second value, in [0.1, 10]."""
    return s.y


SCALARS = Family("two positive scalars", dims={}, parts={"x": Scalar(0.1, 10.0), "y": Scalar(0.1, 10.0)},
                 quantities=(X_mut, Y_mut))
SRC = Source("test", "test")
QUICK = Budget(examples=40, adversarial_starts=2, adversarial_steps=20, shrink_tries=5, quick=True)


class Listed(SubjectFamily):
    name = "listed pairs"
    symbols = frozenset({X_mut, Y_mut})

    def __init__(self, rows: list[tuple[float, float]]) -> None:
        self.rows = rows

    def exhaustive(self, quick: bool = False) -> Any:
        return iter(self.rows)

    def quantities(self, subject: Any, symbols: Any, xp: Any, params: Any = None) -> dict:
        return {s: xp.asarray(subject[0] if s == X_mut else subject[1]) for s in symbols}

    def to_json(self, subject: Any) -> list:
        return list(subject)

    def from_json(self, data: Any) -> tuple:
        return tuple(data)

    def describe(self, subject: Any) -> str:
        return f"x={subject[0]}, y={subject[1]}"


NO_SEARCH = Budget(examples=0, adversarial_starts=0, adversarial_steps=0, shrink_tries=5, quick=True)


def claim(*relations: Any, **kw: Any) -> Claim:
    return Claim("t.mut", Kind.INEQUALITY, SRC, parts(*relations), subjects=(SCALARS,), **kw)


def cert(ok: bool = True) -> Certificate:
    return Certificate(method="sympy", statement="s", domain="all", ok=ok, complete=True)


_DRAWN = random.Random(40)
CASES = [(Fraction(_DRAWN.randint(150, 1000), 100), _DRAWN.random() < 0.5) for _ in range(8)]


@pytest.mark.parametrize("c, larger", CASES)  # generated cases (the search inside draws with hypothesis itself)
def test_each_constant_moves_the_way_that_strengthens_the_part(c: Fraction, larger: bool) -> None:
    """X <= c X (c > 1) is strengthened by a smaller c; X/c <= X (written X >= X/c too) by a larger 1/c: every
    amount, each mutant strictly stronger on every subject."""
    rational = sympy.Rational(c.numerator, c.denominator)
    relation = Le(X_mut, rational * X_mut) if larger else Ge(X_mut, X_mut / rational)
    found, skipped = mutations(claim(relation), 0)
    moved = [m for m in found if m.kind == CONSTANT]
    assert [m.amount for m in moved] == list(AMOUNTS) and not skipped
    assert all((m.factor < 1) if larger else (m.factor > 1) for m in moved)
    part = claim(relation).statement[0]
    for m in moved:  # the mutant's bound is below the printed one at x = 1: stronger
        rel = mutated_relation(part, m)
        printed = part.canonical
        gap = (rel.rhs - rel.lhs - (printed.rhs - printed.lhs)).subs(X_mut, 1)
        assert sympy.nsimplify(gap) < 0


def test_a_part_gets_its_strict_form_its_sides_scaled_and_only_the_terms_whose_drop_strengthens() -> None:
    """X <= X + Y: dropping either positive term strengthens it; X <= 2X - Y/100: dropping -Y/100 from the larger
    side weakens it (skipped, with why), dropping 2X strengthens it."""
    both = claim(Le(X_mut, X_mut + Y_mut), Le(X_mut, 2 * X_mut - Y_mut / 100))
    found, skipped = mutations(both, 0)
    first, second = (str(p) for p in both.statement)
    assert {m.kind for m in found if m.part == first} == {STRICT, SCALE, DROP}
    assert sorted(m.what for m in found if m.part == first and m.kind == DROP) == ["X_mut", "Y_mut"]
    assert [m.what for m in found if m.part == second and m.kind == DROP] == ["2*X_mut"]
    assert [s.what for s in skipped if s.part == second and s.kind == DROP] == ["-Y_mut/100"]
    assert all("weakening" in s.why for s in skipped if s.kind == DROP)


def test_a_move_stronger_on_some_subjects_and_weaker_on_others_is_skipped_with_why() -> None:
    """x <= x^2 + 1: moving the exponent 2 makes x^2 larger above 1 and smaller below 1: no strengthening."""
    found, skipped = mutations(claim(Le(X_mut, X_mut ** 2 + 1)), 0)
    assert not any(m.kind == EXPONENT for m in found)
    (skip,) = [s for s in skipped if s.kind == EXPONENT]
    assert "stronger on some subjects and weaker on others" in skip.why


def test_a_mutant_claim_keeps_the_hypotheses_and_only_the_search_decides_it() -> None:
    from theorems import Assumption, Reading

    shipped = claim(Le(X_mut, 2 * X_mut), Le(Y_mut, 3 * Y_mut), certificates=(cert,),
                    assumptions=(Assumption("x below y", "x <= y", lambda s: s.x <= s.y),),
                    readings=(Reading("other", "another reading"),),
                    sharp=(Sharp(str(parts(Le(X_mut, 2 * X_mut))[0]), "2", "1", certified=True,
                                 sides=(X_mut, X_mut), certificates=(cert,)),))
    found, _ = mutations(shipped, 0)
    m = next(m for m in found if m.kind == CONSTANT and "Y" in m.part)
    mutant = mutant_claim(shipped, m)
    assert len(mutant.statement) == 1 and "mutant" in str(mutant.statement[0])
    assert mutant.assumptions == shipped.assumptions and mutant.prefix == shipped.prefix
    assert not (mutant.certificates or mutant.readings or mutant.sharp) and mutant.known_refutation is None


@pytest.mark.parametrize("sharp_c, certified, bound_by, true", [
    (1, True, None, True),  # the proved bound Y <= 1 X implies Y <= 1.6 X
    (1, False, None, False),  # the same bound, its certificate failing: not shown
    ("19/10", True, None, False),  # Y <= 1.9 X does not imply Y <= 1.6 X
    (1, True, True, True),  # the bound's own certificates pass (the row's other ones need not be complete)
    (1, True, False, False),  # the row's certificates pass, the bound's own fail: not shown
    (1, True, "sides", False),  # sides alone (a ratio's yardstick, maybe a bracket's lower end) prove nothing
])
def test_a_survivor_is_true_only_when_a_certified_bound_of_its_part_implies_it(sharp_c: Any, certified: bool,
                                                                               bound_by: Any, true: bool) -> None:
    part_label = str(parts(Le(Y_mut, 2 * X_mut))[0])
    c = sympy.Rational(sharp_c)
    sides = (Y_mut, c * X_mut)
    extra: dict[str, Any] = {"bound": sides} if bound_by != "sides" else {}
    if isinstance(bound_by, bool):
        extra["bound_by"] = (lambda: cert(bound_by),)
    shipped = claim(Le(Y_mut, 2 * X_mut), sharp=(Sharp(part_label, "2", str(c), certified=True, sides=sides,
                                                      certificates=(lambda: cert(certified),), **extra),))
    found, _ = mutations(shipped, 0)
    twenty = next(m for m in found if m.kind == CONSTANT and m.amount == Fraction(1, 5))
    assert bool(shown_true(shipped, twenty)) is true


def test_a_bound_is_declared_with_the_certificates_that_prove_it() -> None:
    with pytest.raises(ClaimError, match="an estimate"):
        Sharp("p", "2", "1", certified=False, bound=(X_mut, X_mut))
    with pytest.raises(ClaimError, match="bound_by"):
        Sharp("p", "2", "1", certified=True, certificates=(lambda: cert(True),), bound_by=(lambda: cert(True),))


def test_implication_reads_square_roots_as_real_and_never_guesses() -> None:
    stronger = Le(Y_mut, sympy.sqrt(2 * X_mut / (X_mut + Y_mut)))
    assert implies(stronger, Le(Y_mut, sympy.sqrt(3 * X_mut / (X_mut + Y_mut))))
    assert not implies(stronger, Le(Y_mut, sympy.sqrt(sympy.Rational(9, 5) * X_mut / (X_mut + Y_mut))))
    assert not implies(Le(Y_mut, X_mut), Le(Y_mut, X_mut ** 2))  # true only for x >= 1: not implied
    # numbers that sympy's sign rules leave undecided inside a sum (20 - 10 sqrt 2 + 49 X): grouped term by term
    assert implies(Le(Y_mut, sympy.sqrt(2) + sympy.Rational(3, 2) * X_mut), Le(Y_mut, 2 + sympy.Rational(32, 5) * X_mut))
    assert not implies(Le(Y_mut, sympy.sqrt(2) + sympy.Rational(3, 2) * X_mut),
                       Le(Y_mut, sympy.Rational(141, 100) + 8 * X_mut))  # 1.41 < sqrt 2 at X = 0
    assert not implies(Le(Y_mut, sympy.sqrt(2) * X_mut), Le(Y_mut, sympy.Rational(8, 5) * X_mut - Y_mut))  # Y = sqrt 2 X
    assert implies(Le(Y_mut, sympy.sqrt(2) * sympy.Max(X_mut, Y_mut)), Le(Y_mut, sympy.Rational(8, 5) * sympy.Max(X_mut, Y_mut)))
    # a scaled side: Y <= sqrt 2 X gives 1.01 Y <= 1.01 sqrt 2 X <= 2 X (the stronger gap times 1.01), not 1.5 Y <= 2 X
    assert implies(Le(Y_mut, sympy.sqrt(2) * X_mut), Le(sympy.Rational(101, 100) * Y_mut, 2 * X_mut))
    assert not implies(Le(Y_mut, sympy.sqrt(2) * X_mut), Le(sympy.Rational(3, 2) * Y_mut, 2 * X_mut))
    # strict: Y <= sqrt 2 + X gives Y < 2 + 8X (a positive constant left over), Y <= sqrt 2 X never Y < 2X (X = Y = 0)
    assert implies(Le(Y_mut, sympy.sqrt(2) + X_mut), sympy.Lt(Y_mut, 2 + 8 * X_mut))
    assert not implies(Le(Y_mut, sympy.sqrt(2) * X_mut), sympy.Lt(Y_mut, 2 * X_mut))
    free = quantity("free_mut", range=(None, None), doc="a value of either sign")
    assert implies(Le(Y_mut, X_mut), Le(Y_mut, 2 * X_mut))  # X >= 0 declared
    assert implies(Le(Y_mut, free), Le(Y_mut, 2 * free))  # Y >= 0 declared, so free >= Y >= 0: lam = 2 shows it
    assert not implies(Le(free, X_mut), Le(2 * free, X_mut))  # false at free = 0.9 X: no sign to lean on


def test_mutate_runs_end_to_end_and_reads_the_sensitivity() -> None:
    """X <= 1.03 X: the 1 % and 2 % mutants are true (nothing shows it: they survive), the 5 % one and stronger are
    false at every subject; the search kills the 5 % mutant and the stronger ones by its witness."""
    from theorems.frontend import mutation as mt

    with isolated() as registry:
        shipped = claim(Le(X_mut, sympy.Rational(103, 100) * X_mut))
        registry.claims[shipped.id] = shipped
        planned = mt.plan([shipped], 0)
        outcomes = mt.run(planned.mutants, (0,), QUICK, 1, 120.0)
        table = mt.summarize(outcomes)
    by = {(o["kind"], o["amount"]): o for o in outcomes}
    assert [by[(CONSTANT, str(a))]["outcome"] for a in AMOUNTS] == ["survived", "survived", "killed", "killed", "killed"]
    assert by[(CONSTANT, "1/10")]["found_by"].startswith("the witness of a weaker mutant")
    (s,) = table["t.mut"].values()
    assert s["refuted_at"] == "1/20" and s["survives_at"] == "1/50" and s["witness"] is not None
    data = mt.mutate_json(outcomes, table, planned, (0,), "quick")
    assert json.loads(json.dumps(data, default=str))["sensitivity"]["t.mut"]
    assert "a 5 % strengthening is refuted by this search; a 2 % strengthening survives" in mt.markdown(data)


def test_an_equality_that_holds_whatever_the_constants_is_no_best_ratio() -> None:
    """X Y + 1 <= 2 X Y + 1 is an equality at X = 0 whatever the constant 2 (a degenerate subject, like a zero
    encoder: it says nothing of how sharp the 2 is): the best ratio comes from the other subjects, the equality is
    reported apart; an equality that depends on every constant (Y <= 2 X at y = 2x) stays the best ratio."""
    from theorems.engine.check import check_claim

    none = NO_SEARCH
    sandwich = Claim("t.degenerate", Kind.INEQUALITY, SRC, parts(Le(X_mut * Y_mut + 1, 2 * X_mut * Y_mut + 1)),
                     subjects=(Listed([(0.0, 1.0), (1.0, 1.0), (2.0, 3.0)]),))
    (row,) = check_claim(sandwich, none).tightness
    assert row["best_ratio"] == pytest.approx(2 / 3) and row["degenerate"]["subjects"] == 1
    assert "x=0.0" in row["degenerate"]["example"]
    attained = Claim("t.attained", Kind.INEQUALITY, SRC, parts(Le(Y_mut, 2 * X_mut)),
                     subjects=(Listed([(1.0, 2.0), (2.0, 3.0)]),))
    (row,) = check_claim(attained, none).tightness
    assert row["best_ratio"] == pytest.approx(1.0) and "degenerate" not in row


def test_clcheck_mutate_end_to_end_replays_its_witnesses_and_feeds_the_audit(tmp_path, monkeypatch) -> None:
    """`clcheck mutate` on a shipped claim: mutate.json and report.md written, each killed mutant's witness replays
    (the mutant rebuilt from the claim), the sensitivity kept for the next audit's report; bad options are exit 2."""
    from typer.testing import CliRunner

    from theorems.frontend.cli import app

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()
    assert runner.invoke(app, ["mutate", "--seeds", "0", "--out", str(tmp_path / "x")]).exit_code == 2  # no selection
    for bad in ("4-1", "a", "0,0", "70000"):
        res = runner.invoke(app, ["mutate", "--claim", "merad.lse.max_bounds", "--seeds", bad, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and "--seeds" in res.output
    out = tmp_path / "mut"
    res = runner.invoke(app, ["mutate", "--claim", "merad.lse.max_bounds", "--seeds", "0", "--profile", "quick",
                              "--jobs", "1", "--out", str(out), "--max-survivor", "1"])
    assert res.exit_code == 0, res.output
    data = json.loads((out / "mutate.json").read_text())
    table = data["sensitivity"]["merad.lse.max_bounds"]
    assert set(table) == {"max(x) <= LSE(x)", "LSE(x) <= max(x) + log n"} and all(s["survived"] == 0 for s in table.values())
    witnesses = sorted((out / "witnesses").glob("*.json"))
    assert witnesses and "Mutation analysis" in (out / "report.md").read_text()
    replayed = runner.invoke(app, ["replay", str(witnesses[0])])
    assert replayed.exit_code == 0 and "still refutes merad.lse.max_bounds.mutant" in replayed.output
    audit = tmp_path / "audit"
    assert runner.invoke(app, ["audit", "--claim", "merad.lse.max_bounds", "--profile", "quick", "--jobs", "1",
                               "--out", str(audit)]).exit_code == 0
    rows = json.loads((audit / "report.json").read_text())["claims"][0]["tightness"]
    assert all(r["sensitivity"]["mutants"] >= 3 and r["sensitivity"]["seeds"] == [0] for r in rows)


def test_a_part_edited_since_mutate_reads_not_measured(tmp_path, monkeypatch) -> None:
    from types import SimpleNamespace

    from theorems.frontend import mutation as mt

    monkeypatch.setenv("CLCHECK_CACHE", str(tmp_path))
    mt.store({"t.mut": {"X <= 2 X": {"relation": "X <= 2*X", "refuted_at": "1/20", "survives_at": None,
                                      "mutants": 3, "killed": 3, "true": 0, "survived": 0, "error": 0}}}, (0,), "audit")
    same = SimpleNamespace(id="t.mut", tightness=[{"part": "X <= 2 X", "relation": "X <= 2*X"}])
    edited = SimpleNamespace(id="t.mut", tightness=[{"part": "X <= 2 X", "relation": "X <= 3*X"}])
    mt.annotate([same, edited])
    assert same.tightness[0]["sensitivity"]["refuted_at"] == "1/20" and edited.tightness[0]["sensitivity"] is None
    (tmp_path / "sensitivity.json").write_text("{not json")
    assert mt.read_store() == {}  # a damaged store reads as nothing measured, never an error


def test_the_best_subjects_kept_are_distinct_local_optima_one_per_shape() -> None:
    """The tracker keeps, per part, the best subject of each shape (a family's dimensions and support) among its
    three best: two near-copies of one optimum never crowd out a subject of another shape (the climb's starts)."""
    from theorems.engine.probe import Tracker, probe

    class Shaped(SubjectFamily):
        name = "shaped pairs"
        symbols = frozenset({X_mut, Y_mut})

        def quantities(self, subject: Any, symbols: Any, xp: Any, params: Any = None) -> dict:
            return {s: xp.asarray(subject[0] if s == X_mut else subject[1]) for s in symbols}

        def size(self, subject: Any) -> tuple:
            return (subject[2],)

        def cheap_to_confirm(self, subject: Any) -> bool:
            return False

    family = Shaped()
    part = Le(X_mut, 2 * Y_mut)
    tracker = Tracker(claim(part))
    for subject in [(1.0, 1.0, "a"), (1.1, 1.0, "a"), (1.2, 1.0, "a"), (0.5, 1.0, "b"), (0.4, 1.0, "c")]:
        tracker.record(probe(tracker.claim, family, subject, confirm=False))
    kept = [p.subject for p in tracker.best_for(str(tracker.claim.statement[0]))]
    assert kept == [(1.2, 1.0, "a"), (0.5, 1.0, "b"), (0.4, 1.0, "c")]


def test_a_best_subject_whose_larger_side_is_not_positive_at_high_precision_has_no_ratio_and_no_error() -> None:
    """A kept subject whose ratio is gone once confirmed (a larger side 1e-17 in float64 that is exactly 0) is simply
    not a best ratio; the check does not fail (it did: mutants of hyper.uniform_range read `error`)."""
    from theorems.engine.evaluate import PartValue
    from theorems.engine.probe import Probe, Tracker
    from theorems.engine.tightness import best_ratio

    class Large(SubjectFamily):
        name = "large subjects"

        def cheap_to_confirm(self, subject: Any) -> bool:
            return False  # no high-precision twin: the kept values decide

    shipped = claim(Le(X_mut, Y_mut))
    part = shipped.statement[0]
    tracker = Tracker(shipped)
    confirmed = Probe(Large(), (-1.0,), [PartValue(part, -1.0, 0.0, -1.0, 1e-9)],
                      confirmed=[PartValue(part, -1.0, 0.0, -1.0, 1e-9)])
    tracker.best[str(part)] = [(-1e17, confirmed)]
    assert best_ratio(shipped, tracker, str(part)) == (None, None, "float64")


def test_a_sharp_constants_equality_cases_are_probed_on_the_claim_and_on_each_mutant_of_its_part() -> None:
    """Y <= 2 X on listed subjects that never reach equality: its 5 % mutant survives a run with no search; the sharp
    row's equality case (x, y) = (1, 2) kills it (found by that case, confirmed like any subject), and on the claim
    itself the case is the best ratio, 1. An equality case of a family the claim does not search is a ClaimError."""
    from theorems.engine.check import check_claim, equality_cases
    from theorems.engine.errors import ClaimError
    from theorems.engine.verdict import Verdict

    listed = Listed([(1.0, 1.0), (2.0, 1.0)])
    label = str(parts(Le(Y_mut, 2 * X_mut))[0])

    def shipped(cases: Any) -> Claim:
        sharp = Sharp(label, "2", "2", certified=False, attained=cases)
        return Claim("t.eq", Kind.INEQUALITY, SRC, parts(Le(Y_mut, 2 * X_mut)), subjects=(listed,), sharp=(sharp,))

    with_cases, without = shipped(lambda: [(listed, (1.0, 2.0))]), shipped(None)
    five = next(m for m in mutations(with_cases, 0)[0] if m.kind == CONSTANT and m.amount == Fraction(1, 20))
    killed = check_claim(mutant_claim(with_cases, five), NO_SEARCH)
    assert killed.verdict == Verdict.REFUTED and killed.witness["found_by"] == "equality case of a sharp constant"
    assert check_claim(mutant_claim(without, five), NO_SEARCH).verdict != Verdict.REFUTED
    (row,) = check_claim(with_cases, NO_SEARCH).tightness
    assert row["best_ratio"] == pytest.approx(1.0)
    stranger = Listed([])
    stranger.name = "another family"
    with pytest.raises(ClaimError, match="not one of the claim's subjects"):
        equality_cases(shipped(lambda: [(stranger, (1.0, 2.0))]))


@quantity(range=(None, 0))
def Q_mut(s, xp):
    """-t/2, a value below 0."""
    return -s.t / 2


@pytest.mark.parametrize("lo", [0.1, 0.0])
def test_a_family_scalars_sign_counts_in_the_implication(lo: float) -> None:
    """-2t <= Q implies -3.2t <= Q only where t >= 0: shown from the scalar's range on the claim's family (the
    mutant is audited on those subjects only), and never without a sign."""
    family = Family(f"t from {lo}", dims={}, parts={"t": Scalar(lo, 5.0)}, quantities=(Q_mut,))
    t = family.symbol("t")
    label = str(parts(Le(-4 * t, Q_mut))[0])
    shipped = Claim("t.mut_sign", Kind.INEQUALITY, SRC, parts(Le(-4 * t, Q_mut)), subjects=(family,),
                    sharp=(Sharp(label, "4", "2", certified=True, bound=(-2 * t, Q_mut), certificates=(lambda: cert(True),)),))
    twenty = next(m for m in mutations(shipped, 0)[0] if m.kind == CONSTANT and m.amount == Fraction(1, 5))
    assert shown_true(shipped, twenty)
    bound, moved = Le(-2 * t, Q_mut), Le(-sympy.Rational(16, 5) * t, Q_mut)
    assert implies(bound, moved, {t: lo}) and not implies(bound, moved) and not implies(bound, moved, {t: -1.0})
