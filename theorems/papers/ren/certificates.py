"""Coq certificates of Ren & Li's exact facts, for every latent dimension r: Definition 4.2 (``coq/ren_balance.v``),
Lemma A.7's printed facts (``coq/ren_lemma_a7.v``) and the closed forms of the Section 4 example
(``coq/ren_unbalanced.v``).

The stable rank ``||M||_F^2 / ||M||_2^2`` is ``sum_i s_i^2 / s_1^2`` over the non-zero singular values: the
script proves the facts of the note after Definition 4.2 about that ratio for every list of positive
singular values, so the certificates rest on the singular value decomposition (``modulo``). The population
fact (the covariance of ``f = M w``, w uniform on {+-1}^r, is ``M M^T``) is proved outright.
"""

from __future__ import annotations

from dataclasses import replace

from numerics import coq
from numerics.certificate import Certificate, covering
from theorems.papers.ren.plugin import PLUGIN

SCRIPT = "ren_balance"
THEOREMS = ("stable_rank_range", "stable_rank_equal", "stable_rank_unequal", "stable_rank_ratio",
            "cube_mean_zero", "cube_second_moment")
SVD = "the singular value decomposition (||M||_F^2 = sum_i s_i^2, ||M||_2 = s_1)"
SVD_DIAGONAL = "the singular values of a non-negative diagonal matrix are its diagonal entries"

# the facts as balance_experiment's observations name them (an observation's config["fact"])
RANGE = "1 <= ||M||_F^2/||M||_2^2 <= rank M"
EQUAL = "equal nonzero singular values => stable rank = rank"
UNEQUAL = "unequal singular values => stable rank < rank"
RATIO = "sigma_1/sigma_r <= c => stable rank >= r/c^2"
POPULATION = "Cov(M w) = M M^T for w uniform on {+-1}^r (Bal = stable rank of M M^T)"


def _check(theorems: tuple[str, ...], statement: str, script: str | None = None, name: str = SCRIPT,
           modulo: tuple[str, ...] = (), everything: tuple[str, ...] = THEOREMS,
           domain: str = "every rank r >= 1 (Coq, by induction on lists)") -> Certificate:
    """coqc on the packaged script ``name`` (``script``: a restated copy, for tests of false statements); one coqc
    run serves every certificate of a script (``everything`` names all its theorems)."""
    text = script if script is not None else coq.packaged_script("theorems.papers.ren", name)
    cert = coq.check_script(name, text, theorems, statement, domain,
                            coq_statements=coq.theorem_statements(text, theorems), check_theorems=everything)
    return replace(cert, modulo=modulo)


def stable_rank_facts() -> Certificate:
    """The four facts of the note after Definition 4.2, for every list of positive singular values."""
    return covering(_check(THEOREMS[:4], "for s_1, ..., s_r > 0 and sr = sum_i s_i^2 / max_i s_i^2: 1 <= sr <= r; "
                           "sr = r if the s_i are equal; sr < r if some s_i < max; max/min <= c => sr >= r/c^2",
                           modulo=(SVD,)), RANGE, EQUAL, UNEQUAL, RATIO)


def population_covariance() -> Certificate:
    """E_w[u.w] = 0 and E_w[(u.w)(v.w)] = u.v over w uniform on {+-1}^r, every r: Cov(M w) = M M^T."""
    return covering(_check(THEOREMS[4:], "E_w[(u.w)(v.w)] = u.v and E_w[u.w] = 0 for w uniform on {+-1}^r, every r "
                           "and u, v in R^r: the covariance of f = M w is M M^T entry by entry"), POPULATION)


def stable_rank_range_step() -> Certificate:
    """Proof step 1 of the page: 1 <= sr <= r, = r iff the singular values are equal."""
    return covering(_check(THEOREMS[:3], "1 <= sum s_i^2 / max s_i^2 <= r, = r if equal, < r if not, every r",
                           modulo=(SVD,)), RANGE, EQUAL, UNEQUAL)


def stable_rank_ratio_step() -> Certificate:
    """Proof step 2 of the page: s_1/s_r <= c gives sr >= r/c^2."""
    return covering(_check(THEOREMS[3:4], "max/min <= c => sum s_i^2 / max s_i^2 >= r/c^2, every r",
                           modulo=(SVD,)), RATIO)



# -- Lemma A.7: the facts its proof prints ---------------------------------------------------------------------
A7_SCRIPT = "ren_lemma_a7"
A7_THEOREMS = ("a7_partition", "a7_log_partition", "a7_softmax_mean", "a7_negative_factor", "a7_flip",
               "c2_mixed_moment")
# the facts as lemma_a7's observations name them
A7_PARTITION = "(a) log E_z' e^{beta z^T C z'} = sum_k log cosh(beta c_k), every z"
A7_NEGATIVE = "(a) E_z[z E_softmax z'^T] = diag tanh(beta c)"
A7_FLIP = "(b) flipping the signs of z and z' together leaves z^T C z' unchanged"
A7_FLOW = "(c) the reduced flow (8) is autograd's population flow and keeps (7)"


def a7_facts() -> Certificate:
    """Lemma A.7 (a), the negative-pair factor and (b) for every r, every real c and beta, every sign vector z."""
    return covering(_check(A7_THEOREMS, "with z, z' uniform on {+-1}^r and C = diag(c): E_z' exp(beta z^T C z') = prod_k "
                           "cosh(beta c_k) and its log sum_k ln cosh(beta c_k) for every sign vector z; E_softmax[z'_k | z] = "
                           "z_k tanh(beta c_k); E_z[z_j E_softmax[z'_k | z]] = tanh(beta c_k) if j = k, else 0; "
                           "(z o s)^T C (z' o s) = z^T C z' for every sign vector s",
                           name=A7_SCRIPT, everything=A7_THEOREMS,
                           domain="every latent dimension r, every real c_1..c_r and beta, every z in {+-1}^r (Coq, by "
                                  "induction on r)"), A7_PARTITION, A7_NEGATIVE, A7_FLIP)


# -- Lemma C.2 (reconstructed): the tilted moments of uniform signs, in the same script --------------------------
C2_PARTITION = "(i) E[e^{v.w}] = prod_j cosh(v_j)"
C2_MEAN = "(ii) E[w_j e^{v.w}] / E[e^{v.w}] = tanh(v_j)"
C2_MIXED = "(iii) E[w_i w_j e^{v.w}] / E[e^{v.w}] = tanh(v_i) tanh(v_j), i != j"


def c2_moments() -> Certificate:
    """Lemma C.2's three identities for every n and every tilt v (v = beta c o z with z a sign vector is every v)."""
    return covering(_check(("a7_partition", "a7_softmax_mean", "c2_mixed_moment"),
                           "for w uniform on {+-1}^n and the tilt v = beta c o z: E e^{v.w} = prod_j cosh(v_j) "
                           "(a7_partition), E[w_j e^{v.w}] = tanh(v_j) E e^{v.w} (a7_softmax_mean), E[w_i w_j e^{v.w}] = "
                           "tanh(v_i) tanh(v_j) E e^{v.w} for i != j (c2_mixed_moment)",
                           name=A7_SCRIPT, everything=A7_THEOREMS,
                           domain="every n >= 1 and every tilt v in R^n (c = v/beta, z = (1, ..., 1)); Coq, by induction "
                                  "on n"), C2_PARTITION, C2_MEAN, C2_MIXED)


def _a7_step(theorem: str, statement: str) -> Certificate:
    return _check((theorem,), statement, name=A7_SCRIPT, everything=A7_THEOREMS,
                  domain="every latent dimension r, every real c and beta, every z in {+-1}^r (Coq)")


def a7_partition_step() -> Certificate:
    """Proof step (a): E_z' exp(beta S) = prod_k cosh(beta c_k) for every sign vector z."""
    return _a7_step("a7_partition", "E_z' exp(beta z^T diag(c) z') = prod_k cosh(beta c_k), every z in {+-1}^r")


def a7_flip_step() -> Certificate:
    """Proof step (b): flipping the signs of z and z' together leaves S unchanged."""
    return _a7_step("a7_flip", "(z o s)^T diag(c) (z' o s) = z^T diag(c) z' for every sign vector s")


def a7_negative_factor_step() -> Certificate:
    """Proof step: the negative-pair factor E_z[z E_softmax[z']^T] = diag(tanh(beta c))."""
    return _a7_step("a7_negative_factor", "E_z[z_j E_softmax[z'_k | z]] = tanh(beta c_k) if j = k, else 0")


# -- the Section 4 example ---------------------------------------------------------------------------------------
EXAMPLE_SCRIPT = "ren_unbalanced"
EXAMPLE_THEOREMS = ("align_example", "align_example_half_ties", "balance_example", "example_large_r",
                    "replacement_balanced", "example_small_r")
EXAMPLE = "the example (small delta): aligned and not balanced"
REPLACEMENT = "the replacement (delta = 1): aligned and balanced"


def unbalanced_closed_forms(r_min: int, r0: int) -> Certificate:
    """The example's closed forms for every r (Align = 1 - 2^-r, Bal = 1 + (r - 1) delta^4); from r0 on (2^-r <= eps,
    r > c) they prove both observed facts for every r >= r0; below r0 they prove nothing the claim asks (the example
    is not aligned there: ``example_small_r``)."""
    cert = _check(EXAMPLE_THEOREMS, "P_A = P_B proportional to diag(1, delta, ..., delta), z, z' uniform on {+-1}^r: Align = "
                  "1 - 2^-r for every delta > 0 (1 - 2^-(r+1) with ties counted 1/2); Bal = 1 + (r - 1) delta^4 for delta "
                  "in (0, 1]; for 2^-r <= eps and 1 <= c < r some delta0 > 0 makes every delta <= delta0 aligned and not "
                  "balanced, and delta = 1 is aligned and balanced; for 2^-r > eps no delta is aligned",
                  name=EXAMPLE_SCRIPT, everything=EXAMPLE_THEOREMS, modulo=(SVD_DIAGONAL,),
                  domain=f"every latent dimension r >= {max(r_min, 1)}, every delta in (0, 1], every eps in (0, 1) and c >= "
                         "1 (Coq, by induction on r)")
    return covering(cert, EXAMPLE, REPLACEMENT) if r_min >= r0 else covering(cert)


def example_align_step() -> Certificate:
    """Proof step: the example's alignment score is 1 - 2^-r for every r and every delta > 0."""
    return _check(("align_example",), "Align = 1 - 2^-r for f(z) = (sqrt(a_k) z_k)_k, a_k > 0, z, z' uniform on {+-1}^r",
                  name=EXAMPLE_SCRIPT, everything=EXAMPLE_THEOREMS, domain="every r >= 1 and weights a_k > 0 (Coq)")


def example_balance_step() -> Certificate:
    """Proof step: the example's balance score is 1 + (r - 1) delta^4 (modulo the SVD of a diagonal matrix)."""
    return _check(("balance_example",), "sum_k a_k^2 / max_k a_k^2 = 1 + (r - 1) delta^4 for a = (1, delta^2, ..., "
                  "delta^2) / (1 + (r - 1) delta^2)", name=EXAMPLE_SCRIPT, everything=EXAMPLE_THEOREMS,
                  modulo=(SVD_DIAGONAL,), domain="every r >= 1 and delta in (0, 1] (Coq)")


PLUGIN.step_certificate("ren.stable_rank_range", stable_rank_range_step)
PLUGIN.step_certificate("ren.stable_rank_ratio", stable_rank_ratio_step)
PLUGIN.step_certificate("ren.a7_partition", a7_partition_step)
PLUGIN.step_certificate("ren.a7_flip", a7_flip_step)
PLUGIN.step_certificate("ren.a7_negative_factor", a7_negative_factor_step)
PLUGIN.step_certificate("ren.example_align", example_align_step)
PLUGIN.step_certificate("ren.example_balance", example_balance_step)
