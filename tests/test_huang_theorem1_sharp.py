"""Huang et al., Theorem 1: the sharp constant eta(eps) = sqrt(|A|)/eps on finite uniform augmentation sets of one
size |A| (issue 39, item 5), shown beside the checker's finite-case constant |A|/(sqrt 2 eps).

The certificate (sharp_constants.theorem1_sharp_constant: Coq huang_theorem1_sharp.v for R_eps^2 <= |A| L_align /
eps^2, sympy for the witness family's exact limit with the checker's own L_align formula) passes at |A| and fails for
a smaller constant (0.81 |A| = (0.9 sqrt|A|)^2, |A|^0.9 = (|A|^0.45)^2) and for a larger one (not sharp); the Coq
proof of a restated smaller constant is rejected; random subjects of the claim's families meet R_eps^2 <= |A|
L_align / eps^2 at 50 digits; the witness family's ratio tends to |A| exactly. coqc runs once per script text (a
temporary $CLCHECK_CACHE)."""

from __future__ import annotations

import mpmath
import pytest
import sympy
from coq_support import needs_coq, shared_coq_cache

from numerics import coq
from numerics.backend import FLOAT, mp_backend
from theorems.engine.registry import all_claims
from theorems.engine.search import sample_subjects
from theorems.engine.tightness import sharp_certified
from theorems.papers.huang import augmented as ag
from theorems.papers.huang import full_proofs as fp
from theorems.papers.huang import sharp_constants as sc
from theorems.papers.huang import subjects as aq
from theorems.papers.huang.augmented import AugArrays

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)

A = sc.A_SIZE
DPS = 50


def _claim():
    return next(c for c in all_claims(["huang"]) if c.id == "huang.theorem1")


@needs_coq
def test_certificate_passes_at_A() -> None:
    cert = sc.theorem1_sharp_constant()
    assert cert.ok and cert.complete and cert.modulo == (), cert.details
    assert all(cert.details["steps"].values()), cert.details["steps"]
    assert cert.details["witness_limit"] == "A" and not cert.details["witness_beats_constant_at_A_2"]
    upper = fp.theorem1_sharp_coq()
    assert upper.ok and upper.method == "coq" and upper.complete and upper.modulo == ()
    assert all(a.startswith(coq.ALLOWED_AXIOM_PREFIXES) for a in upper.details["assumptions"])
    main = upper.details["coq_statements"]["theorem1_sharp_main"]
    assert main.endswith("Reps n w out ^ 2 <= INR a * Lalign n a d w F / eps ^ 2")
    # the definitions are those of the checker-constant script, word for word
    for definition in ("Definition sqdist", "Definition Lalign", "Definition Reps"):
        line = next(l for l in fp.theorem1_sharp_script().splitlines() if l.startswith(definition))
        assert line in fp.script(), definition


@needs_coq
@pytest.mark.parametrize("constant", [sympy.Rational(81, 100) * A, A ** sympy.Rational(9, 10)],
                         ids=["(0.9 sqrt|A|)^2", "(|A|^0.45)^2"])
def test_a_smaller_constant_fails(constant: sympy.Expr) -> None:
    cert = sc.theorem1_sharp_constant(constant)
    assert not cert.ok
    assert cert.details["steps"]["constant >= |A| (sympy)"] is False
    assert cert.details["witness_beats_constant_at_A_2"]  # false, not only unproved: the family exceeds it


@needs_coq
def test_a_larger_constant_is_valid_but_not_sharp() -> None:
    cert = sc.theorem1_sharp_constant(2 * A)
    assert not cert.ok
    assert cert.details["steps"]["constant >= |A| (sympy)"] is True
    assert cert.details["steps"]["constant <= witness limit (sympy)"] is False


# the same proof, a statement with the constant moved to the wrong side: (theorem, old text, new text)
MUTANTS = {
    "main with 0.81 |A|": ("theorem1_sharp_main", "Reps n w out ^ 2 <= INR a * Lalign n a d w F / eps ^ 2.",
                           "Reps n w out ^ 2 <= (81 / 100) * INR a * Lalign n a d w F / eps ^ 2."),
    "step with 1.01 eps^2": ("theorem1_sharp_step", "eps ^ 2 * Reps n w out / INR a <= Lalign n a d w F.",
                             "(101 / 100) * eps ^ 2 * Reps n w out / INR a <= Lalign n a d w F."),
    "pairs with 1.01 |A|": ("pairs_ge_sharp", "INR a * sqdist d (G i) (G j) <= sum a",
                            "(101 / 100) * INR a * sqdist d (G i) (G j) <= sum a"),
}


@needs_coq
@pytest.mark.parametrize("name", list(MUTANTS))
def test_coq_rejects_a_smaller_constant(name: str) -> None:
    theorem, old, new = MUTANTS[name]
    text = coq.restated(fp.theorem1_sharp_script(), old, new)
    cert = fp.theorem1_sharp_coq(text=text, name="huang_theorem1_sharp_mutant")
    assert not cert.ok and cert.details["reason"] == "Coq rejected the script", theorem


def test_witness_family_ratio_tends_to_A_exactly() -> None:
    ratio, limit, checks = sc.theorem1_witness_ratio()
    h = sympy.Symbol("h", positive=True)
    assert sympy.simplify(ratio - A / (1 + h) ** 2) == 0 and limit == A
    assert checks["mean_is_midpoint"] and checks["diameter_above_eps"] and checks["checker_r_eps_is_1"]
    assert all(checks["checker_formula_matches"].values()) and set(checks["checker_formula_matches"]) == set(
        sc.WITNESS_SIZES)
    # the float path of the checker (r_eps, align_loss) agrees and approaches |A| from below
    for a in (2, 3, 7):
        eps = 0.37
        ratios = []
        for hh in (1e-1, 1e-3, 1e-6):
            s = sc.theorem1_witness_setting(a, eps, hh, spacing=5.0)
            R = ag.r_eps(s, eps)
            align = float(ag.align_loss(AugArrays.from_setting(s, FLOAT)))
            ratios.append(R ** 2 * eps ** 2 / align)
        assert ratios == sorted(ratios) and all(r <= a * (1 + 1e-12) for r in ratios)
        assert ratios[-1] == pytest.approx(a, rel=1e-5)


def _outside_mass_and_align(subject) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf, int]:
    """(R_eps, L_align, eps, |A|) at DPS digits: R_eps from squared diameters compared with eps^2 in mpmath."""
    st = aq.setting(subject)
    arr = AugArrays.from_setting(st, mp_backend(DPS))
    with mpmath.workdps(DPS):
        eps = mpmath.mpf(float(subject.eps))
        align = ag.align_loss(arr)
        R = mpmath.mpf(0)
        for x in range(st.n):
            F = [[mpmath.mpf(float(v)) for v in st.feats[x, i]] for i in range(st.a)]
            diam_sq = max(sum((u - v) ** 2 for u, v in zip(F[i], F[j])) for i in range(st.a) for j in range(st.a))
            if diam_sq > eps ** 2:
                R += arr.w[x]
        return R, align, eps, st.a


@pytest.mark.parametrize("index", [0, 1, 2, 4])  # the claim's families but the learned encoders (trained, slow)
def test_random_subjects_meet_the_sharp_bound(index: int) -> None:
    claim = _claim()
    family = claim.subjects[index]
    worst, kept = 0.0, 0
    for subject in sample_subjects(family, 25, 7):
        if not all(asm.holds(subject) for asm in claim.assumptions):  # eps > 0 (Theorem 1)
            continue
        kept += 1
        R, align, eps, a = _outside_mass_and_align(subject)
        with mpmath.workdps(DPS):
            bound = a * align / eps ** 2
            assert R ** 2 <= bound * (1 + mpmath.mpf(10) ** (10 - DPS)), (R, bound)
            if R > 0:
                worst = max(worst, float(R ** 2 / bound))
    assert kept > 0 and worst <= 1.0


def test_the_claim_declares_two_sharp_rows_for_its_part() -> None:
    claim = _claim()
    rows = claim.sharp
    assert len(rows) == 2 and rows[0].part == rows[1].part == str(claim.statement[0])
    assert rows[0].certificates == (fp.theorem1_coq,) and "|A|/(sqrt(2) eps)" in rows[0].sharp
    assert "not sharp" in rows[0].sharp and "estimate" not in rows[0].sharp
    assert rows[1].certificates == (sc.theorem1_sharp_constant,) and rows[1].sharp.startswith("eta(eps) = sqrt(|A|)/eps")
    assert all(r.certified for r in rows)
    # the sharp row's sides: R_eps^2 <= |A| L_align / eps^2
    assert sympy.simplify(rows[1].sides[1] - aq.A_size * aq.L_align / aq.eps_s ** 2) == 0
    assert sympy.simplify(rows[0].sides[1] - aq.A_size ** 2 / 2 * aq.L_align / aq.eps_s ** 2) == 0


@needs_coq
def test_both_sharp_rows_are_labelled_certified() -> None:
    assert [sharp_certified(r) for r in _claim().sharp] == [True, True]


def test_finite_case_constant_is_at_least_the_sharp_one() -> None:
    """|A|/sqrt 2 >= sqrt|A| for |A| >= 2 (equal at 2): the first row's constant is valid, the second's is smaller."""
    assert sympy.simplify((A / sympy.sqrt(2)) ** 2 - A).subs(A, 2) == 0
    assert all((sympy.Integer(a) / sympy.sqrt(2)) ** 2 > a for a in range(3, 30))
