"""The printed proofs of Merad et al. as chains of checked steps (see theorems/engine/proof.py).

Each :class:`Proof` follows the paper's own steps and reasons; the quantities between them are
in proof_quantities.py. The proof pages' "Proof as printed" sections are generated from these
chains by ``clcheck proofs --write-pages``.
"""

from __future__ import annotations

import sympy
from sympy import Eq, Ge, Le

from theorems.engine.named_results import (JENSEN, PRODUCT_BOUND, convex_by_second_derivative, finite_support,
                                           implied_by_positive_multiple, nonnegative_by_sympy)
from theorems.engine.proof import Instance, Proof, Step
from theorems.engine.registry import register_proof
from theorems.papers.merad import certificates as certs
from theorems.papers.merad import proof_quantities as pq
from theorems.subjects import mixtures as mx

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

register_proof(Proof(
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
             certificates=(certs.rearrangement_ratio,)),
        Step("prod_i (1 + e^{a_i}) >= 1 + sum_i e^{a_i}: E[sum_i log(1 + e^{a_i})] >= E[log(1 + sum_i e^{a_i})]",
             Ge((1 - tau) / k * pq.S_k + tau, (1 - tau) / k * pq.T_k + tau), "expand the product",
             named=_product_bound()),
        Step("= ((1 - tau+)/k) L^mu_sup,k(f) + tau+: (c, {c_1..c_k}) is a uniform (k+1)-way task with a uniform label",
             Eq((1 - tau) / k * pq.T_k + tau, chain_end), "re-indexing of (10) under uniform rho"),
        Step("Rearranging gives the printed bound", PROP1_TARGET, "k > 0 and 1 - tau+ > 0", kind="conclude",
             certificates=(lambda: implied_by_positive_multiple(
                 Ge(mx.L_un, chain_end), PROP1_TARGET, {tau: 1 / (1 + _u), k: _k},
                 "k >= 1 and 0 < tau+ < 1 (tau+ = 1/(1 + u), u > 0)"),)),
    ),
))
