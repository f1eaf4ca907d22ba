"""The printed proofs of Merad et al. as chains of checked steps (theorems.Proof).

Each :class:`Proof` follows the paper's own steps and reasons; the quantities between them are
in proof_quantities.py. The proof pages' "Proof as printed" sections are generated from these
chains by ``clcheck proofs --write-pages``.
"""

from __future__ import annotations

import sympy
from sympy import Eq, Ge, Le

from numerics.backend import FLOAT
from theorems import (convex_by_second_derivative, finite_support, implied_by_positive_multiple, Instance, JENSEN, nonnegative_by_sympy,
                      PRODUCT_BOUND, Proof, Step)
from theorems.papers.merad.plugin import PLUGIN
from theorems.papers.merad import certificates as certs
from theorems.papers.merad import proof_quantities as pq
from theorems.papers.merad import step_checks  # noqa: F401  (registers the page steps' certificates)
from theorems.papers.merad import training_sets as ts
from theorems.papers.merad import mixtures as mx

HAL, CONF = "000_446b1395972c3412.txt", "001_024f140e13f62c31.txt"
_t = sympy.Symbol("t", real=True)
_u, _k = sympy.Symbol("u", positive=True), sympy.Symbol("kappa", positive=True)
ZETA = sympy.log(1 + sympy.exp(_t))


def _jensen_softplus() -> Instance:
    return Instance(JENSEN, {
        "f is convex": lambda: convex_by_second_derivative(ZETA, _t, "zeta(t) = log(1 + e^t)"),
        "X is integrable": lambda: finite_support("f(x+), f(x-) given (c, c-, x)"),
    })


def _product_bound() -> Instance:
    return Instance(PRODUCT_BOUND, {"a_i >= 0": lambda: nonnegative_by_sympy(sympy.exp(_t), "a_i = exp(.)")})


# -- Proposition 2 (1) = Proposition 3.3 (1): L^mu_sup,k <= k/(1 - tau+) (L_un - tau+) ------------------
tau, k = mx.tau_plus, mx.k
chain_end = (1 - tau) / k * mx.L_sup_mu_k + tau
PROP1_TARGET = Le(mx.L_sup_mu_k, k / (1 - tau) * (mx.L_un - tau))

PLUGIN.proof(Proof(
    claim="merad.prop1.part1", part="L^mu_sup,k <= k/(1-tau+) (L_un - tau+)",
    where=f"Section 7, proof of Proposition 2 ({HAL}) = proof of Proposition 3.3 ({CONF}), part (1)",
    steps=(
        Step("By Jensen's inequality (then use log = log_2 without loss of generality), L_un(f) >= "
             "E_{(c,c-)~rho^2, x~D_c}[log(1 + exp(f(x)^T (mu_c- - mu_c)))]",
             Ge(mx.L_un, pq.J), "Jensen over (x+, x-) given (c, c-, x): t -> zeta(f(x)^T t) is convex",
             named=_jensen_softplus()),
        Step("Split into c- != c and c- = c: = (1 - tau+) E[... | c- != c] + tau+",
             Eq(pq.J, (1 - tau) * pq.J_distinct + tau),
             "the c- = c term is E[log(1 + exp(0))], counted as 1 (log base 2)"),
        Step("Uniform rho and the rearrangement over k-subsets: E[. | c- != c] = (1/k) E[sum_i log(1 + exp(.)) | "
             "distinct c_1..c_k]", Eq((1 - tau) * pq.J_distinct + tau, (1 - tau) / k * pq.S_k + tau),
             "each c- lies in C(N_C-2, k-1) of the C(N_C-1, k) k-subsets",
             certificates=(certs.rearrangement_average_coq, step_checks.uniform_subsets)),
        Step("prod_i (1 + e^{a_i}) >= 1 + sum_i e^{a_i}: E[sum_i log(1 + e^{a_i})] >= E[log(1 + sum_i e^{a_i})]",
             Ge((1 - tau) / k * pq.S_k + tau, (1 - tau) / k * pq.T_k + tau), "expand the product",
             named=_product_bound()),
        Step("= ((1 - tau+)/k) L^mu_sup,k(f) + tau+: (c, {c_1..c_k}) is a uniform (k+1)-way task with a uniform label",
             Eq((1 - tau) / k * pq.T_k + tau, chain_end), "re-indexing of (10) under uniform rho",
             certificates=(step_checks.uniform_task_reindexing,)),
        Step("Rearranging gives the printed bound", PROP1_TARGET, "k > 0 and 1 - tau+ > 0", kind="conclude",
             certificates=(lambda: implied_by_positive_multiple(
                 Ge(mx.L_un, chain_end), PROP1_TARGET, {tau: 1 / (1 + _u), k: _k},
                 "k >= 1 and 0 < tau+ < 1 (tau+ = 1/(1 + u), u > 0)"),)),
    ),
))


# -- Lemma 7 (= Lemma 4 = Lemma 4.2): l(z_i) <= 2 eps / eta ---------------------------------------------
v2, loss_vec, grad, eta = ts.max_v2, ts.max_loss_vector, ts.grad_norm, ts.eta_data
NEG_LOG = -sympy.log(1 - v2)


def _v2_at_most_half(s: object) -> bool:
    """Where the scalar steps are stated: x = v_2 in [0, 1/2] (the third fact)."""
    return float(ts.TrainingSets().quantities(s, [v2], FLOAT)[v2]) <= 0.5

PLUGIN.proof(Proof(
    claim="merad.lemma7", where=f"Section 8, proof of Lemma 7 ({HAL}) = proof of Lemma 4.2 ({CONF})",
    steps=(
        Step("Since ||grad L^_un(f)|| <= eps, this also implies max_{i,j} ||loss_{i,j}|| <= eps (Theorem 3 of "
             "Allen-Zhu et al. (2019) and its variant in appendix A)", Le(loss_vec, grad),
             "a citation; checked here as a relation on the training sets the lemma's hypotheses allow",
             kind="fact"),
        Step("||loss_{i,3}|| = v_2 ||z_{i,1}|| and ||z_{i,1}|| >= eta give v_2 <= eps/eta",
             Le(v2, loss_vec / eta), "the loss-vector formula of step 2 (merad.lemma7.steps)", kind="fact",
             certificates=(step_checks.lemma7_v2_bound,)),
        Step("v_2 <= eps/eta < 1/2, by the assumption eps < eta/2", Le(v2, sympy.Rational(1, 2)),
             "the two facts above and the hypothesis", kind="fact"),
        Step("zeta(z_1^T (z_3 - z_2)) = -log(1 - v_2)", Eq(ts.max_loss, NEG_LOG),
             "zeta(u) = -log sigma(-u) = -log(1 - v_2); both sides increase with u, so the max is taken at the same i",
             certificates=(step_checks.lemma7_max_loss_identity,)),
        Step("-log(1 - x) <= x/(1 - x) for 0 <= x <= 1/2", Le(NEG_LOG, v2 / (1 - v2)),
             "with x = v_2 in [0, 1/2] (the third fact)", certificates=(certs.neg_log1m_symbolic,),
             applies=_v2_at_most_half),
        Step("x/(1 - x) <= 2x for 0 <= x <= 1/2", Le(v2 / (1 - v2), 2 * v2),
             "with x = v_2 in [0, 1/2]", certificates=(certs.ratio_le_twice_interval,), applies=_v2_at_most_half),
        Step("2 v_2 <= 2 eps/eta", Le(2 * v2, 2 * loss_vec / eta), "the second fact, doubled",
             certificates=(step_checks.lemma7_v2_bound_doubled,)),
        Step("eps bounds the loss vectors (the first fact): 2 max ||loss_ij|| / eta <= 2 ||grad|| / eta",
             Le(2 * loss_vec / eta, 2 * grad / eta), "the first fact, divided by eta/2 > 0"),
    ),
))


# -- facts proved part by part: the log-sum-exp facts (stated without proof) and the steps of Lemma 7 -------
def _part_by_part(claim_id: str, where: str, steps: dict[str, tuple[str, str, tuple]], not_printed: bool) -> None:
    """One chain per part of ``claim_id``: a single link from the part's left side to its right side, with the
    argument (printed, or the standard one where the paper gives none) and the certificates that prove it for
    every size (Coq by induction on lists, sympy with symbolic dimension). The link *is* the part, so the chain
    composes by construction; what the chain adds is that each step's certificate is checked on its own."""
    claim = PLUGIN.claim_named(claim_id)
    for part in claim.statement:
        text, reason, certificates = steps[str(part)]
        PLUGIN.proof(Proof(claim=claim_id, part=str(part), where=where, not_printed=not_printed, steps=(
            Step(text, part.relation, reason, certificates=certificates, applies=part.applies),)))


_LSE_WHERE = f"used in the proofs of Lemmas 1 and 2 ({HAL}, Section 7), stated without proof"
_part_by_part("merad.lse.max_bounds", _LSE_WHERE, {
    certs.LSE_MAX[0]: ("e^{max_i x_i} is one of the terms of sum_i e^{x_i}, all positive; take logs",
                       "exp > 0, log increasing", (certs.lse_max_bounds_coq,)),
    certs.LSE_MAX[1]: ("every term e^{x_i} <= e^{max_i x_i}, so sum_i e^{x_i} <= n e^{max_i x_i}; take logs",
                       "log increasing, log(n e^m) = m + log n", (certs.lse_max_bounds_coq,)),
}, not_printed=True)
_part_by_part("merad.lse.nonneg", _LSE_WHERE, {
    "LSE(x) >= 0": ("if x_j >= 0 then sum_i e^{x_i} >= e^{x_j} >= 1, so its log is >= 0",
                    "the hypothesis: some x_j >= 0", (certs.lse_nonneg_coq,)),
}, not_printed=True)
_part_by_part("merad.lse.pairwise", _LSE_WHERE, {
    certs.LSE_PAIRWISE[0]: ("sum_i e^{x_i} = sum_j (e^{x_{2j-1}} + e^{x_{2j}}) = sum_j e^{LSE(x_{2j-1}, x_{2j})}",
                            "regroup the sum by pairs; exp(log y) = y", (certs.lse_pairwise_coq,)),
    certs.LSE_PAIRWISE[1]: ("the upper bound of merad.lse.max_bounds applied to the n pair values",
                            "LSE(y) <= max(y) + log n for y in R^n", (certs.lse_pairwise_coq,)),
}, not_printed=True)
_part_by_part("merad.lse.restriction", f"used in the proof of Lemma 2 ({HAL}, Section 7), stated without proof", {
    "LSE(x_S) <= LSE(x)": ("sum_{i in S} e^{x_i} <= sum_{i in [n]} e^{x_i}: every dropped term is positive; "
                           "take logs", "exp > 0, log increasing", (certs.lse_restriction_coq,)),
}, not_printed=True)

_LEMMA7_WHERE = f"Section 8, proof of Lemma 7 ({HAL}) = proof of Lemma 4.2 ({CONF})"
_TRIPLETS = "chain rule through u = z_1^T (z_3 - z_2), zeta' = sigma, v = softmax(z_1^T z_2, z_1^T z_3)"
_part_by_part("merad.lemma7.steps", _LEMMA7_WHERE, {
    certs.LEMMA7_TRIPLET_PARTS[0]: ("loss_{i,1} = sigma(u)(z_3 - z_2) = (v_1 - 1) z_2 + v_2 z_3", _TRIPLETS,
                                    (certs.lemma7_loss_vectors_symbolic,)),
    certs.LEMMA7_TRIPLET_PARTS[1]: ("loss_{i,2} = -sigma(u) z_1, of norm |v_1 - 1| ||z_1|| (= v_2 ||z_1||)", _TRIPLETS,
                                    (certs.lemma7_loss_vectors_symbolic,)),
    certs.LEMMA7_TRIPLET_PARTS[2]: ("loss_{i,3} = sigma(u) z_1, of norm v_2 ||z_1||", _TRIPLETS,
                                    (certs.lemma7_loss_vectors_symbolic,)),
    certs.LEMMA7_TRIPLET_PARTS[3]: ("zeta(u) = log(1 + e^u) = -log sigma(-u) = -log(1 - v_2)", "sigma(-u) = 1 - sigma(u)",
                                    (certs.lemma7_loss_vectors_symbolic,)),
    certs.NEG_LOG: ("-log(1 - x) <= x/(1 - x) for 0 <= x < 1", "log(1 + t) <= t with t = x/(1 - x)",
                    (certs.neg_log1m_symbolic,)),
    certs.RATIO: ("x/(1 - x) <= 2x for 0 <= x <= 1/2", "1/(1 - x) <= 2 for x <= 1/2",
                  (certs.ratio_le_twice_interval, certs.ratio_le_twice_coq)),
}, not_printed=False)
