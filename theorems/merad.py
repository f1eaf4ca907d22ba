"""Claims of Merad, Yu, Bacry, Gaiffas -- Section 3 and the coupon collector.

Sources: ``000_446b1395972c3412.txt`` (HAL preprint, numbering "Lemma 1") and
``001_024f140e13f62c31.txt`` (conference appendix, numbering "Lemma 3.1").
Every statement is encoded as printed (see ``encoding`` for the choices made
where the print is not a finite condition); logarithms are natural.
"""

from __future__ import annotations

import numpy as np
from sympy import Eq, Ge, Le, binomial, harmonic, log, pi

from theorems import merad_proofs as proofs
from theorems import quantities as q
from theorems.claim import Assumption, Claim, Kind, Part, Source, parts
from theorems.registry import register
from theorems.subjects.combinatorics import BETA_GRID, ClassDraws, Coupons, KSubsets
from theorems.subjects.mixtures import Mixtures
from theorems.subjects.vectors import Vectors

HAL = "000_446b1395972c3412.txt"
CONF = "001_024f140e13f62c31.txt"


def source(numbering: str, files: tuple[str, ...] = (HAL, CONF)) -> Source:
    return Source(file="; ".join(files), numbering=numbering, paper="Merad et al.")


# -- assumptions (declared as data) ------------------------------------------------------
RHO_POSITIVE = Assumption(
    "rho(c) > 0", "rho is a distribution over the finite set C with rho(c) > 0 for all c (Section 3)",
    lambda s: bool(np.all(s.mixture.rho > 0)),
)
RHO_UNIFORM = Assumption(
    "rho uniform", "rho is uniform over C (Section 3.2, Proposition 1)", lambda s: s.mixture.is_uniform()
)
K_RANGE = Assumption(
    "2 <= k+1 <= N_C", "tasks are (k+1)-way with 2 <= k+1 <= N_C (Proposition 1)",
    lambda s: 2 <= s.k + 1 <= s.n_classes,
)
N_COVERS = Assumption(
    "N >= N_C",
    "p_cc(N) > 0, i.e. N >= N_C: the printed N = Omega(N_C log N_C) is asymptotic; the inequality "
    "is checked for every N at which its right side is finite",
    lambda s: s.N >= s.n_classes,
)
SOME_NONNEGATIVE = Assumption(
    "some x_i >= 0", "one of the arguments of LSE is >= 0", lambda s: bool(np.max(s.x) >= 0)
)
BETA_POSITIVE = Assumption("beta > 0", "beta > 0", lambda s: s.beta > 0)

# -- log-sum-exp facts (proofs of Lemma 1 / 3.1 and Lemma 2 / 3.2) -------------------------
register(Claim(
    id="merad.lse.max_bounds", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(Le(q.max_x, q.lse_x), Le(q.lse_x, q.max_x + log(q.n)),
                    labels=["max(x) <= LSE(x)", "LSE(x) <= max(x) + log n"]),
    subjects=(Vectors(),),
    encoding="x in R^n, n = 1..10, entries from 1e-300 to 1e300 in magnitude.",
))

register(Claim(
    id="merad.lse.nonneg", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(Ge(q.lse_x, 0), labels=["LSE(x) >= 0"]),
    assumptions=(SOME_NONNEGATIVE,),
    subjects=(Vectors(),),
))

register(Claim(
    id="merad.lse.pairwise", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(
        Eq(q.lse_x, q.lse_pairs), Le(q.lse_pairs, q.max_pair_lse + log(q.n_pairs)),
        labels=["LSE(x) = LSE(LSE(x1,x2),...)", "LSE(LSE pairs) <= max_j LSE(pair j) + log n"],
    ),
    subjects=(Vectors(even=True),),
    encoding="x in R^{2n}; n_pairs = n is the number of consecutive pairs.",
))

register(Claim(
    id="merad.lse.restriction", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 2 = Lemma 3.2"),
    statement=parts(Le(q.lse_x_S, q.lse_x), labels=["LSE(x_S) <= LSE(x)"]),
    subjects=(Vectors(with_subset=True),),
    encoding="S a non-empty subset of [n] (in the proof S is the set of represented classes).",
))

# -- supervised vs mean classifier ---------------------------------------------------------
register(Claim(
    id="merad.sup_le_mean", kind=Kind.INEQUALITY,
    source=source("remark after (5)", (HAL,)),
    statement=parts(Le(q.L_sup_T, q.L_sup_mu_T), labels=["L_sup(f,T) <= L^mu_sup(f,T)"]),
    assumptions=(RHO_POSITIVE,),
    subjects=(Mixtures(with_task=True, classes=(1, 4)),),
    certificates=(proofs.sup_le_mean_feasibility,),
    encoding="T any non-empty subset of C; L_sup is bracketed from above by the objective of (3) "
             "at the L-BFGS minimizer started from W^mu.",
))

# -- Lemma 1 (7) = Lemma 3.1 ------------------------------------------------------------
register(Claim(
    id="merad.lemma1", kind=Kind.INEQUALITY,
    source=source("Lemma 1 (7) = Lemma 3.1"),
    statement=parts(
        Le(q.L_sup, q.L_sup_mu), Le(q.L_sup_mu, q.L_un / q.p_min + log(q.N_C)),
        labels=["L_sup(f,C) <= L^mu_sup(f,C)", "L^mu_sup(f,C) <= L_un(f)/p_min + log N_C"],
    ),
    assumptions=(RHO_POSITIVE,),
    subjects=(Mixtures(classes=(1, 4)),),
))

# -- Lemma 2 (8) = Lemma 3.2 ------------------------------------------------------------
register(Claim(
    id="merad.lemma2", kind=Kind.INEQUALITY,
    source=source("Lemma 2 (8) = Lemma 3.2"),
    statement=parts(
        Le(q.L_sup, q.L_sup_mu), Le(q.L_sup_mu, q.L_un_N / q.p_cc),
        labels=["L_sup(f,C) <= L^mu_sup(f,C)", "L^mu_sup(f,C) <= L^N_un(f)/p_cc(N)"],
    ),
    assumptions=(RHO_POSITIVE, N_COVERS),
    subjects=(Mixtures(classes=(1, 3), negatives=(1, 6), n_at_least_classes=True),),
    encoding="The printed hypothesis N = Omega(N_C log N_C) is asymptotic and constrains no single "
             "instance; the inequality is tested at every N >= N_C (where p_cc(N) > 0), which "
             "includes every N the hypothesis could allow. L^N_un by exact enumeration of the "
             "negative multisets.",
))

# -- Proposition 1 = Proposition 2 = Proposition 3.3 -------------------------------------------
register(Claim(
    id="merad.prop1.part1", kind=Kind.INEQUALITY,
    source=source("Proposition 2 (1) = Proposition 3.3 (1)"),
    statement=parts(
        Le(q.L_sup_k, q.L_sup_mu_k),
        Le(q.L_sup_mu_k, q.k / (1 - q.tau_plus) * (q.L_un - q.tau_plus)),
        labels=["L_sup,k <= L^mu_sup,k", "L^mu_sup,k <= k/(1-tau+) (L_un - tau+)"],
    ),
    assumptions=(RHO_UNIFORM, K_RANGE),
    subjects=(Mixtures(uniform=True, with_k=True, classes=(2, 4)),),
    known_refutation="merad.prop1.part1.json",
    notes="The proof switches to log = log_2 'without loss of generality' and so counts the c- = c "
          "term as 1; with the natural log of (3)-(6) that term is log 2, and the printed bound "
          "fails (e.g. f = 0, N_C = 2, k = 1: LHS = log 2 > 2 (log 2 - 1/2)). Part (2) with N = 1 "
          "gives the correct constant tau+ log 2.",
))

register(Claim(
    id="merad.prop1.part2", kind=Kind.INEQUALITY,
    source=source("Proposition 1 = Proposition 2 (2) = Proposition 3.3 (2)"),
    statement=parts(
        Le(q.L_sup_k, q.L_sup_mu_k),
        Le(q.L_sup_mu_k, q.k / (1 - q.tau_plus_N) * (q.L_un_N - q.tau_plus_N * log(q.N + 1))),
        labels=["L_sup,k <= L^mu_sup,k", "L^mu_sup,k <= k/(1-tau+_N) (L^N_un - tau+_N log(N+1))"],
    ),
    assumptions=(RHO_UNIFORM, K_RANGE),
    subjects=(Mixtures(uniform=True, with_k=True, classes=(2, 4), negatives=(1, 5)),),
))

# -- tau^+_N (after Proposition 1; proof of Proposition 2) --------------------------------------
register(Claim(
    id="merad.tau_plus", kind=Kind.IDENTITY,
    source=source("remark after Proposition 1; proof of Proposition 2 (2) = Proposition 3.3 (2)"),
    statement=(
        *parts(Eq(q.P_all_same, q.sum_rho_pow), labels=["P(c_i = c for all i) = sum_c rho(c)^(N+1)"]),
        Part(Eq(q.P_all_same, q.N_C ** (-q.N)), "uniform rho: = N_C^(-N)", applies=lambda s: s.uniform),
    ),
    subjects=(ClassDraws(),),
    certificates=(proofs.tau_plus_uniform, proofs.tau_plus_general),
    encoding="P(c_i = c for all i) is computed by enumerating all (N+1)-tuples of classes; the "
             "second part applies to uniform rho only.",
))

register(Claim(
    id="merad.prop1.rearrangement", kind=Kind.IDENTITY,
    source=source("proof of Proposition 3.3 (the displays are lost in the HAL text)", (CONF,)),
    statement=parts(
        Eq(q.count_min, binomial(q.N_C - 2, q.k - 1)), Eq(q.count_max, binomial(q.N_C - 2, q.k - 1)),
        Eq(q.subset_average, q.k / (q.N_C - 1) * q.sum_values),
        labels=["min over c- of #k-subsets containing c- = C(N_C-2,k-1)",
                "max over c- of #k-subsets containing c- = C(N_C-2,k-1)",
                "average over k-subsets of sum_i v_ci = k/(N_C-1) sum_c- v_c-"],
    ),
    subjects=(KSubsets(),),
    certificates=(proofs.rearrangement_ratio, proofs.rearrangement_counts),
))

# -- coupon collector (Section 3.1) ---------------------------------------------------------
register(Claim(
    id="merad.coupon.mean", kind=Kind.IDENTITY,
    source=source("Section 3.1, after Lemma 2", (HAL,)),
    statement=parts(Eq(q.E_T, q.N_C * harmonic(q.N_C)), labels=["E[T] = N_C H_{N_C}"]),
    subjects=(Coupons(),),
    certificates=(proofs.coupon_mean,),
    encoding="E[T] computed exactly (rational) from the decomposition of T into geometric stages; "
             "every N_C <= 1000 is checked.",
))

register(Claim(
    id="merad.coupon.variance", kind=Kind.IDENTITY,
    source=source("Section 3.1, after Lemma 2 ('respectively given by')", (HAL,)),
    statement=parts(Eq(q.Var_T, (q.N_C * pi) ** 2 / 6), labels=["Var(T) = (N_C pi)^2/6"]),
    subjects=(Coupons(),),
    known_refutation="merad.coupon.variance.json",
    notes="The exact variance is N_C^2 H^(2)_{N_C} - N_C H_{N_C} < (N_C pi)^2 / 6: the printed value "
          "is an upper bound (which is all the Chebyshev step needs), not the variance.",
))

register(Claim(
    id="merad.coupon.chebyshev", kind=Kind.INEQUALITY,
    source=source("Section 3.1, after Lemma 2", (HAL,)),
    statement=parts(Le(q.P_dev, pi ** 2 / (6 * q.beta ** 2)),
                    labels=["P(|T - N_C H_N_C| >= beta N_C) <= pi^2/(6 beta^2)"]),
    assumptions=(BETA_POSITIVE,),
    subjects=(Coupons(beta_grid=BETA_GRID),),
    encoding="P computed exactly from the distribution of T (uniform rho) for every N_C <= 1000 on a "
             "grid of beta, plus random (N_C, beta).",
))
