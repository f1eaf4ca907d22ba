"""Coq proofs of Merad et al.'s Lemma 1 (7), Lemma 2 (8) and Proposition 1 (2) on their printed domains
(theorems/papers/merad/finite_proofs.py): the true statements are accepted, a constant moved 1 % to the wrong
side is rejected by coqc, and the claims list the certificates.

Tests that run coqc are skipped, with the reason, when coqc is not on PATH. Within the module the results are
cached in a temporary $CLCHECK_CACHE, so each script is checked by coqc once.
"""

from __future__ import annotations

import pytest
from coq_support import needs_coq, shared_coq_cache

from numerics import coq
from theorems.papers.merad import finite_proofs as fp

session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)


ALLOWED = {"ClassicalDedekindReals.sig_forall_dec", "ClassicalDedekindReals.sig_not_dec",
           "FunctionalExtensionality.functional_extensionality_dep", "Classical_Prop.classic"}


def _accepted(cert) -> None:
    assert cert.ok, cert.details.get("reason")
    assert cert.method == "coq" and cert.complete and cert.parts is None and cert.modulo == ()
    assert set(cert.details["assumptions"]) <= ALLOWED


# each proof: (its certificate, the theorem whose printed statement to read, fragments of it), and its mutant (a
# constant moved 1 % to the wrong side, which the unchanged proof no longer proves) with the fragment it prints
PROOFS = {
    "lemma1": (fp.lemma1_coq, "lemma1_right", ("LunN d NC rho D 1 / pmin + ln (INR NC)", "pmin <= rho c"),
               lambda: fp.lemma1_coq(log_factor=fp.MUTANTS["lemma1"]), "(99 / 100) * ln (INR NC)"),
    "lemma2": (fp.lemma2_coq, "lemma2", ("(NC <= N)%nat",),
               lambda: fp.lemma2_coq(pcc_factor=fp.MUTANTS["lemma2"]), "(101 / 100) * pcc NC rho N"),
    "prop1_part2": (fp.prop1_part2_coq, "prop1_right",
                    ("INR k / (1 - tau NC rho N) * (LunN d NC rho D N - tau NC rho N * ln (INR N + 1))",),
                    lambda: fp.prop1_part2_coq(k_factor=fp.MUTANTS["prop1"]), ""),
}


@needs_coq
@pytest.mark.parametrize("name", list(PROOFS))
def test_the_printed_statement_is_accepted_and_its_mutant_rejected(name: str) -> None:
    """Lemma 1 (7) with 0.99 log N_C, Lemma 2 (8) with 1.01 p_cc(N), Proposition 1 (2) with 0.99 k/(1 - tau+_N)
    (false: both sides are log 2 at f = 0, k = 1, N = 1): each mutant is rejected."""
    prove, theorem, stated, mutant, mutated = PROOFS[name]
    cert = prove()
    _accepted(cert)
    assert all(fragment in cert.details["coq_statements"][theorem] for fragment in stated)
    wrong = mutant()
    assert not wrong.ok
    assert mutated in wrong.details["coq_statements"].get(theorem, "")


def test_scripts_have_no_admitted_or_axiom():
    for text in (fp.lemma12_script(), fp.prop1_script()):
        assert "Admitted" not in text and "Axiom" not in text and "Parameter" not in text


def test_claims_list_the_certificates():
    from theorems.papers.merad import claims  # noqa: F401  (registers the claims)
    from theorems.papers.merad.plugin import PLUGIN
    by_id = {c.id: c for c in PLUGIN.claims}
    assert fp.lemma1_coq in by_id["merad.lemma1"].certificates
    assert fp.lemma2_coq in by_id["merad.lemma2"].certificates
    assert fp.prop1_part2_coq in by_id["merad.prop1.part2"].certificates


# -- the Coq definitions, transcribed literally (same recursions), equal the checker's quantities -------------

def _coq_definitions(mix, d: int):
    """LunN, Lsup_mu, pcc, tau and Lsup_mu_k of merad_lemma12.v as nested finite sums."""
    import itertools
    import math

    import numpy as np

    rho = [float(r) for r in mix.rho]
    D = [list(zip(map(float, w), map(np.asarray, p))) for p, w in zip(mix.points, mix.weights)]
    NC = len(rho)
    classes = list(enumerate(rho))
    dot = lambda u, v: float(sum(u[i] * v[i] for i in range(d)))  # noqa: E731
    mu = [sum(w * y for w, y in D[c]) for c in range(NC)]

    def ENeg(n, g):
        if n == 0:
            return g([])
        return sum(r * sum(w * ENeg(n - 1, lambda ys, y=y: g([y] + ys)) for w, y in D[c]) for c, r in classes)

    def loss6(x, xp, ys):
        s = dot(x, xp)
        return -math.log(math.exp(s) / (math.exp(s) + sum(math.exp(dot(x, y)) for y in ys)))

    def LunN(N):
        return sum(r * sum(w * sum(wp * ENeg(N, lambda ys: loss6(x, xp, ys)) for wp, xp in D[c]) for w, x in D[c])
                   for c, r in classes)

    def CE(T, W, c, y):
        return -math.log(math.exp(dot(W[c], y)) / sum(math.exp(dot(W[cp], y)) for cp in T))

    def Lsup_mu(T):
        rT = sum(rho[c] for c in T)
        return sum(rho[c] / rT * sum(w * CE(T, mu, c, x) for w, x in D[c]) for c in T)

    def EI(n, h):
        return h([]) if n == 0 else sum(r * EI(n - 1, lambda I, c=c: h([c] + I)) for c, r in classes)

    def pcc(N):
        return EI(N, lambda I: 1.0 if all(c in I for c in range(NC)) else 0.0)

    def tau(N):
        return sum(r * r ** N for c, r in classes)

    def Lsup_mu_k(k):
        tasks = list(itertools.combinations(range(NC), k + 1))
        return sum(Lsup_mu(list(T)) for T in tasks) / len(tasks)

    return LunN, Lsup_mu, pcc, tau, Lsup_mu_k


@pytest.mark.parametrize("uniform", [False, True])
def test_coq_definitions_are_the_checkers_quantities(uniform):
    import numpy as np

    from numerics import contrastive as cl
    from theorems.papers.merad import coupon
    from numerics.backend import FLOAT
    from numerics.contrastive import MixtureArrays
    from numerics.mixture import FiniteMixture

    rng = np.random.default_rng(3)
    NC, d = 3, 2
    rho = np.full(NC, 1 / NC) if uniform else rng.uniform(0.2, 1.0, NC)
    mix = FiniteMixture.create(rho / rho.sum(), [rng.normal(size=(int(m), d)) for m in (1, 2, 2)],
                               [w / w.sum() for w in (rng.uniform(0.2, 1.0, int(m)) for m in (1, 2, 2))])
    arr = MixtureArrays.from_mixture(mix, FLOAT)
    LunN, Lsup_mu, pcc, tau, Lsup_mu_k = _coq_definitions(mix, d)
    for N in (1, 2, 3):
        assert LunN(N) == pytest.approx(float(cl.l_un_n(arr, N) if N > 1 else cl.l_un(arr)), rel=1e-12)
        assert pcc(N) == pytest.approx(coupon.p_cc(np.asarray(mix.rho), N), rel=1e-9, abs=1e-300)
        assert tau(N) == pytest.approx(float(cl.tau_plus(arr.rho, FLOAT, N)), rel=1e-12)
    assert Lsup_mu(list(range(NC))) == pytest.approx(float(cl.l_sup_mu(arr)), rel=1e-12)
    for k in (1, 2):
        assert Lsup_mu_k(k) == pytest.approx(float(cl.l_sup_mu_k(arr, k)), rel=1e-12)


# the other theorems of merad_lemma12.v that certify something on their own, each with a constant moved 1 % the
# wrong way: lemma1_left (merad.sup_le_mean) and jensen_lower (the Jensen step the merad pages cite by name)
LEMMA12_MUTANTS = {
    "lemma1_left": ("Lsup d rho D T m -> m <= Lsup_mu d rho D T.",
                    "Lsup d rho D T m -> m <= 99 / 100 * Lsup_mu d rho D T."),
    "jensen_lower": ("  <= LunN d NC rho D N.\nProof.\n  intros d NC rho D N Hs. unfold LunN.",
                     "  <= 99 / 100 * LunN d NC rho D N.\nProof.\n  intros d NC rho D N Hs. unfold LunN."),
}


@needs_coq
def test_sup_le_mean_and_the_jensen_step_are_proved():
    for cert in (fp.sup_le_mean_coq(), fp.jensen_coq()):
        assert cert.ok and cert.complete and cert.modulo == (), cert.details.get("reason")


@needs_coq
@pytest.mark.parametrize("theorem", list(LEMMA12_MUTANTS))
def test_lemma12_mutants_are_rejected(theorem: str):
    old, new = LEMMA12_MUTANTS[theorem]
    cert = fp._check(f"merad_lemma12_{theorem}_mutant", coq.restated(fp.lemma12_script(), old, new), (theorem,),
                     fp.LEMMA12_THEOREMS, "mutant", "mutant", 120.0)
    assert not cert.ok and cert.details["reason"] == "Coq rejected the script"
