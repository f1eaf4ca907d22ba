"""The named quantities claims are stated over (sympy symbols).

A claim's statement is a sympy relation over these symbols; each subject
family knows how to evaluate the symbols it supports, in any backend. Users
writing their own claims import the same symbols.
"""

from __future__ import annotations

import sympy

_real = {"real": True}
_pos = {"positive": True}

# Merad et al. Section 3 (numbers are the paper's equations)
L_sup = sympy.Symbol("L_sup", **_real)  # L_sup(f, C), (3) on the task C
L_sup_mu = sympy.Symbol("L_sup_mu", **_real)  # L^mu_sup(f, C), (5)
L_sup_T = sympy.Symbol("L_sup_T", **_real)  # L_sup(f, T), (3) on the subject's task T
L_sup_mu_T = sympy.Symbol("L_sup_mu_T", **_real)  # L^mu_sup(f, T), (5)
L_sup_k = sympy.Symbol("L_sup_k", **_real)  # L_sup,k(f), (9)
L_sup_mu_k = sympy.Symbol("L_sup_mu_k", **_real)  # L^mu_sup,k(f), (10)
L_un = sympy.Symbol("L_un", **_real)  # L_un(f) = L^1_un(f), (6)
L_un_N = sympy.Symbol("L_un_N", **_real)  # L^N_un(f), (6)
p_min = sympy.Symbol("p_min", **_pos)  # p^rho_min = min_c rho(c), Lemma 1
p_cc = sympy.Symbol("p_cc", nonnegative=True)  # p^rho_cc(N), Lemma 2
tau_plus = sympy.Symbol("tau_plus", **_pos)  # tau^+ = P(c = c'), Proposition 1 (1)
tau_plus_N = sympy.Symbol("tau_plus_N", **_pos)  # tau^+_N, Proposition 1 (2)
N_C = sympy.Symbol("N_C", integer=True, positive=True)  # number of latent classes
N = sympy.Symbol("N", integer=True, positive=True)  # number of negatives in (6)
k = sympy.Symbol("k", integer=True, positive=True)  # (k+1)-way tasks, (9)-(10)

# log-sum-exp facts (proofs of Lemmas 1 and 2): a vector x in R^n
n = sympy.Symbol("n", integer=True, positive=True)
max_x = sympy.Symbol("max_x", **_real)  # max_i x_i
lse_x = sympy.Symbol("lse_x", **_real)  # LSE(x) = log sum_i e^{x_i}
lse_pairs = sympy.Symbol("lse_pairs", **_real)  # LSE(LSE(x1,x2), ..., LSE(x_{2n-1},x_{2n}))
n_pairs = sympy.Symbol("n_pairs", integer=True, positive=True)  # x in R^{2n}: n pairs
max_pair_lse = sympy.Symbol("max_pair_lse", **_real)  # max_j LSE(x_{2j-1}, x_{2j})
lse_x_S = sympy.Symbol("lse_x_S", **_real)  # LSE of the restriction x_S

# coupon collector (Section 3.1) and tau^+ (after Proposition 1)
E_T = sympy.Symbol("E_T", **_pos)  # E[T], exact
Var_T = sympy.Symbol("Var_T", nonnegative=True)  # Var(T), exact
beta = sympy.Symbol("beta", **_pos)
P_dev = sympy.Symbol("P_dev", nonnegative=True)  # P(|T - N_C H_{N_C}| >= beta N_C), exact
P_all_same = sympy.Symbol("P_all_same", nonnegative=True)  # P(c_i = c for all i), enumerated
sum_rho_pow = sympy.Symbol("sum_rho_pow", nonnegative=True)  # sum_c rho(c)^(N+1)
count_min = sympy.Symbol("count_min", integer=True, nonnegative=True)  # min over c- of #subsets with c-
count_max = sympy.Symbol("count_max", integer=True, nonnegative=True)  # max over c- of the same
subset_average = sympy.Symbol("subset_average", **_real)  # average over k-subsets of sum_i v_{c_i}
sum_values = sympy.Symbol("sum_values", **_real)  # sum over c- in C \ {c} of v_{c-}

# Merad et al. Section 4: a triplet z = (z_1, z_2, z_3) and a step z' (Lemma 3 = Lemma 5 = Lemma 4.1)
C = sympy.Symbol("C", **_pos)  # the radius of B^3 (Assumption 2)
ell = sympy.Symbol("ell", **_real)  # l(z) = zeta(z_1^T (z_3 - z_2)), (11)
ell_step = sympy.Symbol("ell_step", **_real)  # l(z + z')
grad_dot_step = sympy.Symbol("grad_dot_step", **_real)  # <grad l(z), z'>
step_sq = sympy.Symbol("step_sq", nonnegative=True)  # ||z'||^2
hess_norm = sympy.Symbol("hess_norm", nonnegative=True)  # ||Hess l(z)||_2
grad_rel_err = sympy.Symbol("grad_rel_err", nonnegative=True)  # proof's gradient vs chain rule
hess_rel_err = sympy.Symbol("hess_rel_err", nonnegative=True)  # proof's Hessian vs chain rule
dcos12_norm = sympy.Symbol("dcos12_norm", nonnegative=True)
dcos13_norm = sympy.Symbol("dcos13_norm", nonnegative=True)
dcos23_norm = sympy.Symbol("dcos23_norm", nonnegative=True)
z1_norm = sympy.Symbol("z1_norm", nonnegative=True)
z2_norm = sympy.Symbol("z2_norm", nonnegative=True)
z3_norm = sympy.Symbol("z3_norm", nonnegative=True)
softmax_curv_norm = sympy.Symbol("softmax_curv_norm", nonnegative=True)  # ||diag(v) - v v^T||
d2cos_norm_min = sympy.Symbol("d2cos_norm_min", nonnegative=True)  # min over pairs of ||d2cos_ij||
d2cos_norm_max = sympy.Symbol("d2cos_norm_max", nonnegative=True)
curv_term_norm = sympy.Symbol("curv_term_norm", nonnegative=True)  # ||(dcos_12 dcos_13) dv||
max_norm_prod = sympy.Symbol("max_norm_prod", nonnegative=True)  # max_{i,j} ||z_i|| ||z_j||

# Lemma 7 (= Lemma 4 = Lemma 4.2)
v1 = sympy.Symbol("v1", nonnegative=True)  # softmax(z_1^T z_2, z_1^T z_3)_1
v2 = sympy.Symbol("v2", nonnegative=True)  # = sigma(z_1^T (z_3 - z_2))
eps = sympy.Symbol("eps", nonnegative=True)  # max_j ||loss_{i,j}||
eta = sympy.Symbol("eta", nonnegative=True)  # min_j ||z_{i,j}||
loss1_norm = sympy.Symbol("loss1_norm", nonnegative=True)  # ||A_1^T grad l||, chain rule
loss2_norm = sympy.Symbol("loss2_norm", nonnegative=True)
loss3_norm = sympy.Symbol("loss3_norm", nonnegative=True)
loss1_printed = sympy.Symbol("loss1_printed", nonnegative=True)  # ||(v_1 - 1) z_2 + v_2 z_3||
x_scalar = sympy.Symbol("x", real=True)  # a scalar in [0, 1/2] (the elementary inequalities)

# learned encoders (Merad et al. Section 5, Figure 3 / Assumption 2)
out_norm_min = sympy.Symbol("out_norm_min", nonnegative=True)  # min_x ||f(x)|| over the data
out_norm_max = sympy.Symbol("out_norm_max", nonnegative=True)  # max_x ||f(x)|| over the data
