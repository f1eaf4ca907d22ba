"""Claims of Merad, Yu, Bacry, Gaiffas -- Section 3 and the coupon collector.

Sources: ``000_446b1395972c3412.txt`` (HAL preprint, numbering "Lemma 1") and
``001_024f140e13f62c31.txt`` (conference appendix, numbering "Lemma 3.1").
Every statement is encoded as printed (see ``encoding`` for the choices made
where the print is not a finite condition); logarithms are natural.
"""

from __future__ import annotations

import numpy as np
from sympy import Abs, Eq, Ge, Gt, Le, Limit, Max, Rational, binomial, exp, harmonic, log, oo, pi, sqrt

from numerics.backend import FLOAT
from theorems.papers.merad import assumption1, at_init, lemma3_tightness
from theorems.papers.merad import lemma3_norms as l3n
from theorems.papers.merad import sharp_constants  # registers the merad.lemma3_sharp_* step certificates
from theorems.papers.merad import steps_sharp
from theorems.papers.merad import experiments
from theorems.papers.merad import observations
from theorems.papers.merad import certificates as proofs
from theorems.papers.merad import chebyshev_proof
from theorems.papers.merad import finite_proofs
from theorems.papers.merad import coupons as cp
from theorems.papers.merad import learned as lr
from theorems.papers.merad import mixtures as mx
from theorems.papers.merad import triplets as tp
from theorems.papers.merad import theorem1_reach as t1
from theorems.papers.merad import lemma7_data as l7
from theorems.papers.merad import vectors as vec
from theorems import (Assumption, Claim, exists, ExperimentClaim, forall, holds, Informative,
                      Kind, Part, parts, Reading, Sharp, Source, at_most)
from theorems.papers.merad.plugin import PLUGIN
from theorems.papers.merad.coupons import BETA_GRID, class_draws, coupon_collector, k_subsets
from theorems.papers.merad.learned import NormSnapshots
from theorems.papers.merad import training_sets as ts
from theorems.papers.merad.training_sets import LearnedTrainingSets, TrainingSets
from theorems.papers.merad.mixtures import mixture_family
from theorems.papers.merad import proof_quantities as pq
from theorems.papers.merad.triplets import Scalars, Triplets
from theorems.papers.merad.vectors import Vectors

HAL = "000_446b1395972c3412.txt"
#: the training runs per setting of the Section 5 and Theorem 1 experiments (at least theorems.MIN_SEEDS)
RUNS = len(experiments.SEEDS)
CONF = "001_024f140e13f62c31.txt"


def source(numbering: str, files: tuple[str, ...] = (HAL, CONF)) -> Source:
    return Source(file="; ".join(files), numbering=numbering, paper="Merad et al.")


# -- the objects Section 3's sentences bind (their prefixes) --------------------------------------
SETTING = forall("(C, rho, D_c)", "Section 3's setting: a finite set C of N_C latent classes, a distribution rho on C, "
                 "class distributions D_c on X")
ENCODER = forall("f", "encoders f: X -> R^d, every d >= 1")

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
    lambda s: 2 <= s.k + 1 <= s.mixture.n_classes,
)
N_COVERS = Assumption(
    "N >= N_C",
    "p_cc(N) > 0, i.e. N >= N_C: the printed N = Omega(N_C log N_C) is asymptotic; the inequality "
    "is checked for every N at which its right side is finite",
    lambda s: s.N >= s.mixture.n_classes,
)
SOME_NONNEGATIVE = Assumption(
    "some x_i >= 0", "one of the arguments of LSE is >= 0", lambda s: bool(np.max(s.x) >= 0)
)
BETA_POSITIVE = Assumption("beta > 0", "beta > 0", lambda s: s.beta > 0)

# -- log-sum-exp facts (proofs of Lemma 1 / 3.1 and Lemma 2 / 3.2) -------------------------
PLUGIN.claim(Claim(
    id="merad.lse.max_bounds", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(Le(vec.max_x, vec.lse_x), Le(vec.lse_x, vec.max_x + log(vec.n)), labels=proofs.LSE_MAX),
    subjects=(Vectors(),),
    certificates=(proofs.lse_max_bounds_smt,
                  *proofs.COQ_CERTIFICATES["merad.lse.max_bounds"]),
    prefix=(forall("n", "integers n >= 1"), forall("x", "R^n")),
    encoding="x in R^n, n = 1..10, entries from 1e-300 to 1e300 in magnitude. LSE(x) = log sum_i e^{x_i} with the "
             "natural log of Section 3 (the proof of Lemma 1 writes zeta(t) = log(1 + e^t) as LSE(0, t)); one reading: "
             "the 'log = log_2' of the proof of Proposition 1 is local to that proof (merad.prop1.part1's reading), and "
             "with a base-b LSE = log_b sum_i b^{x_i} every LSE fact reads the same (x_i scaled by ln b).",
))

PLUGIN.claim(Claim(
    id="merad.lse.nonneg", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(Ge(vec.lse_x, 0), labels=["LSE(x) >= 0"]),
    assumptions=(SOME_NONNEGATIVE,),
    subjects=(Vectors(),),
    certificates=(proofs.lse_nonneg_smt, *proofs.COQ_CERTIFICATES["merad.lse.nonneg"]),
    prefix=(forall("n", "integers n >= 1"), forall("x", "R^n with x_i >= 0 for some i")),
))

PLUGIN.claim(Claim(
    id="merad.lse.pairwise", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 1 = Lemma 3.1"),
    statement=parts(
        Eq(vec.lse_x, vec.lse_pairs), Le(vec.lse_pairs, vec.max_pair_lse + log(vec.n_pairs)),
        labels=proofs.LSE_PAIRWISE,
    ),
    subjects=(Vectors(even=True),),
    certificates=(proofs.lse_pairwise_identity, proofs.lse_pairwise_smt,
                  *proofs.COQ_CERTIFICATES["merad.lse.pairwise"]),
    prefix=(forall("n", "integers n >= 1"), forall("x", "R^(2n)")),
    encoding="x in R^{2n}; n_pairs = n is the number of consecutive pairs.",
))

PLUGIN.claim(Claim(
    id="merad.lse.restriction", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 2 = Lemma 3.2"),
    statement=parts(Le(vec.lse_x_S, vec.lse_x), labels=["LSE(x_S) <= LSE(x)"]),
    subjects=(Vectors(with_subset=True),),
    certificates=(proofs.lse_restriction_smt, *proofs.COQ_CERTIFICATES["merad.lse.restriction"]),
    prefix=(forall("n", "integers n >= 1"), forall("S", "non-empty subsets of [n]"), forall("x", "R^n")),
    encoding="S a non-empty subset of [n] (in the proof S is the set of represented classes).",
))

# -- supervised vs mean classifier ---------------------------------------------------------
PLUGIN.claim(Claim(
    id="merad.sup_le_mean", kind=Kind.INEQUALITY,
    source=source("remark after (5)", (HAL,)),
    statement=parts(Le(mx.L_sup_T, mx.L_sup_mu_T), labels=["L_sup(f,T) <= L^mu_sup(f,T)"]),
    assumptions=(RHO_POSITIVE,),
    subjects=(mixture_family(with_task=True, classes=(1, 4)),),
    certificates=(finite_proofs.sup_le_mean_coq, proofs.sup_le_mean_feasibility),
    prefix=(SETTING, ENCODER, forall("T", "tasks: non-empty subsets of C")),
    encoding="T any non-empty subset of C; L_sup is bracketed from above by the objective of (3) "
             "at the L-BFGS minimizer started from W^mu.",
))

# -- Lemma 1 (7) = Lemma 3.1 ------------------------------------------------------------
PLUGIN.claim(Claim(
    id="merad.lemma1", kind=Kind.INEQUALITY, cost=8,
    source=source("Lemma 1 (7) = Lemma 3.1"),
    statement=parts(
        Le(mx.L_sup, mx.L_sup_mu), Le(mx.L_sup_mu, mx.L_un / mx.p_min + log(mx.N_C)),
        labels=["L_sup(f,C) <= L^mu_sup(f,C)", "L^mu_sup(f,C) <= L_un(f)/p_min + log N_C"],
    ),
    assumptions=(RHO_POSITIVE,),
    subjects=(mixture_family(classes=(1, 4)), experiments.learned_section3()),
    certificates=(finite_proofs.lemma1_coq,),
    prefix=(SETTING, ENCODER),
    encoding="'For any encoder f' in Section 3's setting (rho(c) > 0 for all c): every setting and encoder are "
             "universal; one reading. The log base is not a reading here: with log_2 in (3)-(6) every loss and the "
             "term log N_C scale by the same 1/ln 2, so both bases give the same inequality (unlike Proposition 1 (1), "
             "whose printed tau+ is a base-2 value).",
))

# -- Lemma 2 (8) = Lemma 3.2 ------------------------------------------------------------
PLUGIN.claim(Claim(
    id="merad.lemma2", kind=Kind.INEQUALITY, cost=7,
    source=source("Lemma 2 (8) = Lemma 3.2"),
    statement=parts(
        Le(mx.L_sup, mx.L_sup_mu), Le(mx.L_sup_mu, mx.L_un_N / mx.p_cc),
        labels=["L_sup(f,C) <= L^mu_sup(f,C)", "L^mu_sup(f,C) <= L^N_un(f)/p_cc(N)"],
    ),
    assumptions=(RHO_POSITIVE, N_COVERS),
    subjects=(mixture_family(classes=(1, 3), negatives=(1, 6), n_at_least_classes=True, structured=0.3),
              experiments.learned_section3(negatives=True, every_step=False)),
    certificates=(finite_proofs.lemma2_coq,),
    prefix=(exists("c_N", "c_N > 0 (absolute: bound first)", depends_on=(), asymptotic="N = Omega(N_C log N_C)"),
            SETTING,
            forall("N", "integers N >= c_N N_C log N_C (the number of negatives)"), ENCODER),
    literal="the sentence as printed: 'assume that N satisfies N = Omega(N_C log N_C)' -- an absolute constant c_N "
            "(the sentence names no dependence); the check covers every reading of the constant at once (see encoding)",
    encoding="The printed hypothesis N = Omega(N_C log N_C) is a hypothesis with an asymptotic constant: N >= "
             "c_N N_C log N_C for a constant c_N > 0 the sentence does not give. Whatever c_N is, and whatever it may "
             "depend on (nothing, as printed; rho, as the paragraph after Lemma 2 suggests: 'whenever rho is "
             "sufficiently close to a uniform distribution and N = Omega(N_C log N_C)'), the N it admits with "
             "p_cc(N) > 0 are among the N >= N_C tested here; at N < N_C, p_cc(N) = 0 and the right side of (8) is "
             "+infinity (L^N_un > 0), which nothing can violate. So the readings of the constant cannot disagree "
             "and are not checked apart; the inequality is tested at every N >= N_C (where p_cc(N) > 0), which "
             "includes every N the hypothesis could allow. L^N_un by exact enumeration of the "
             "negative multisets. 30% of the draws (an integer draw 0..99 below 30) come from the structured "
             "two-class sub-family mixtures.point_vs_pair (a point mass far out, a symmetric pair near the "
             "origin), where the right inequality is nearly tight; the adversary starts from draws of the same "
             "strategy.",
))

# -- Proposition 1 = Proposition 2 = Proposition 3.3 -------------------------------------------
PLUGIN.claim(Claim(
    id="merad.prop1.part1", kind=Kind.INEQUALITY, cost=9,
    source=source("Proposition 2 (1) = Proposition 3.3 (1)"),
    statement=parts(
        Le(mx.L_sup_k, mx.L_sup_mu_k),
        Le(mx.L_sup_mu_k, mx.k / (1 - mx.tau_plus) * (mx.L_un - mx.tau_plus)),
        labels=["L_sup,k <= L^mu_sup,k", "L^mu_sup,k <= k/(1-tau+) (L_un - tau+)"],
    ),
    assumptions=(RHO_UNIFORM, K_RANGE),
    subjects=(mixture_family(uniform=True, with_k=True, classes=(2, 4), quantities=pq.QUANTITIES),
              experiments.learned_section3(uniform=True, ks=(1, 9), every_step=False, quantities=pq.QUANTITIES)),
    known_refutation="merad.prop1.part1.json",
    prefix=(forall("N_C", "integers N_C >= 2 (the classes C, rho uniform on C)"),
            forall("D_c", "class distributions D_c on X"), forall("k", "integers with 2 <= k + 1 <= N_C"),
            ENCODER),
    literal="natural logarithms in (3)-(6), the convention of Section 3 where the losses are defined (ln, "
            "zeta(x) = log(1 + e^x))",
    readings=(Reading(
        "log = log_2 throughout",
        "the proof of Proposition 1: 'then use log = log_2 without loss of generality' (HAL text, proof of "
        "Proposition 2 (1)); the words 'log = log_2' separate the readings: with log_2 in every loss (3)-(6) the "
        "c- = c term log_2(1 + 1) is 1 = the printed tau+, every loss is its natural-log value divided by ln 2",
        statement=parts(
            Le(mx.L_sup_k / log(2), mx.L_sup_mu_k / log(2)),
            Le(mx.L_sup_mu_k / log(2), mx.k / (1 - mx.tau_plus) * (mx.L_un / log(2) - mx.tau_plus)),
            # the printed labels: the printed formula is the same, only what 'log' means differs (every loss of
            # (3)-(6) in log_2 units is its natural-log value divided by ln 2, as encoded)
            labels=["L_sup,k <= L^mu_sup,k", "L^mu_sup,k <= k/(1-tau+) (L_un - tau+)"],
        ),
        known_refutation="",
        certificates=(finite_proofs.prop1_part1_log2_coq,)),),
    notes="The proof switches to log = log_2 'without loss of generality' and so counts the c- = c "
          "term as 1; with the natural log of (3)-(6) that term is log 2, and the printed bound "
          "fails (e.g. f = 0, N_C = 2, k = 1: LHS = log 2 > 2 (log 2 - 1/2)). Part (2) with N = 1 "
          "gives the correct constant tau+ log 2.",
))

PLUGIN.claim(Claim(
    id="merad.prop1.part2", kind=Kind.INEQUALITY, cost=30,
    source=source("Proposition 1 = Proposition 2 (2) = Proposition 3.3 (2)"),
    statement=parts(
        Le(mx.L_sup_k, mx.L_sup_mu_k),
        Le(mx.L_sup_mu_k, mx.k / (1 - mx.tau_plus_N) * (mx.L_un_N - mx.tau_plus_N * log(mx.N + 1))),
        labels=["L_sup,k <= L^mu_sup,k", "L^mu_sup,k <= k/(1-tau+_N) (L^N_un - tau+_N log(N+1))"],
    ),
    assumptions=(RHO_UNIFORM, K_RANGE),
    subjects=(mixture_family(uniform=True, with_k=True, classes=(2, 4), negatives=(1, 5)),
              experiments.learned_section3(uniform=True, ks=(1, 9), every_step=False),
              experiments.learned_section3(uniform=True, ks=(1, 9), negatives=True, every_step=False)),
    certificates=(finite_proofs.prop1_part2_coq,),
    prefix=(forall("N_C", "integers N_C >= 2 (the classes C, rho uniform on C)"),
            forall("D_c", "class distributions D_c on X"), forall("N", "integers N >= 1 (negatives)"),
            forall("k", "integers with 2 <= k + 1 <= N_C"), ENCODER),
    encoding="As printed: 'Assume that rho is uniform over C and that 2 <= k+1 <= N_C. Then any encoder f "
             "satisfies ...' -- N is the number of negatives of the loss the sentence considers first. One reading: "
             "the hypothesis 'rho is uniform over C' is printed in the statement (and Section 3.2 assumes it 'only in "
             "this Section'); dropping it is a different statement, not a reading of this one (issue 39), so no "
             "non-uniform rho is checked under this claim. The log base is not a reading here: every term of (2) "
             "(the losses and tau+_N log(N+1)) scales by the same 1/ln 2 under log_2, so the two bases give the "
             "same inequality (unlike part (1), whose printed tau+ is a base-2 value).",
))

# -- tau^+_N (after Proposition 1; proof of Proposition 2) --------------------------------------
PLUGIN.claim(Claim(
    id="merad.tau_plus", kind=Kind.IDENTITY,
    source=source("remark after Proposition 1; proof of Proposition 2 (2) = Proposition 3.3 (2)"),
    statement=(
        *parts(Eq(cp.P_all_same, cp.sum_rho_pow), labels=[proofs.TAU_GENERAL]),
        Part(Eq(cp.P_all_same, cp.N_C ** (-cp.N)), proofs.TAU_UNIFORM, applies=cp.uniform_rho),
    ),
    subjects=(class_draws(),),
    certificates=(proofs.tau_plus_uniform, proofs.tau_plus_independence, proofs.tau_plus_general,
                  *proofs.COQ_CERTIFICATES["merad.tau_plus"]),
    prefix=(forall("N_C", "integers N_C >= 1"), forall("rho", "distributions on the N_C classes"),
            forall("N", "integers N >= 1")),
    encoding="P(c_i = c for all i) is computed from its definition, the probability that the N+1 i.i.d. draws "
             "c, c_1..c_N are one class, as an expectation over every multiset of the N+1 draws with its "
             "multinomial mass (numerics.draws.over_draws); the second part applies to uniform rho only. The "
             "sentence after Proposition 1 says both equalities "
             "'whenever rho is uniform'; the proof of Proposition 2 (2) writes the first for the rho of the setting. "
             "The claim checks the first for every rho, which contains the uniform case: one reading (the narrower "
             "one is implied).",
))

PLUGIN.claim(Claim(
    id="merad.prop1.rearrangement", kind=Kind.IDENTITY,
    source=source("proof of Proposition 3.3 (the displays are lost in the HAL text)", (CONF,)),
    statement=parts(
        Eq(cp.count_min, binomial(cp.N_C - 2, cp.k - 1)), Eq(cp.count_max, binomial(cp.N_C - 2, cp.k - 1)),
        Eq(cp.subset_average, cp.k / (cp.N_C - 1) * cp.sum_values),
        labels=[*proofs.REARRANGE_COUNTS, proofs.REARRANGE_AVERAGE],
    ),
    subjects=(k_subsets(),),
    certificates=(proofs.rearrangement_ratio, proofs.rearrangement_counts,
                  *proofs.COQ_CERTIFICATES["merad.prop1.rearrangement"]),
    prefix=(forall("N_C", "integers N_C >= 2"), forall("c", "classes of C"),
            forall("k", "integers 1 <= k <= N_C - 1"), forall("v", "real values v_c- on C minus {c}")),
))

# -- coupon collector (Section 3.1) ---------------------------------------------------------
PLUGIN.claim(Claim(
    id="merad.coupon.mean", kind=Kind.IDENTITY,
    source=source("Section 3.1, after Lemma 2", (HAL,)),
    statement=parts(Eq(cp.E_T, cp.N_C * harmonic(cp.N_C)), labels=["E[T] = N_C H_{N_C}"]),
    subjects=(coupon_collector(),),
    certificates=(proofs.coupon_mean, *proofs.COQ_CERTIFICATES["merad.coupon.mean"]),
    prefix=(forall("N_C", "integers N_C >= 1 (rho uniform on the N_C coupons)"),),
    encoding="E[T] computed exactly (rational) from the decomposition of T into geometric stages; "
             "every N_C <= 1000 is checked. 'The expectation and variance of T are respectively given by N_C H_N_C "
             "and (N_C pi)^2/6': for the mean one reading (an identity; merad.coupon.variance reads the second).",
))

PLUGIN.claim(Claim(
    id="merad.coupon.variance", kind=Kind.IDENTITY,
    source=source("Section 3.1, after Lemma 2 ('respectively given by')", (HAL,)),
    statement=parts(Eq(cp.Var_T, (cp.N_C * pi) ** 2 / 6), labels=["Var(T) = (N_C pi)^2/6"]),
    subjects=(coupon_collector(),),
    known_refutation="merad.coupon.variance.json",
    certificates=(chebyshev_proof.coupon_variance_bound_coq,),
    prefix=(forall("N_C", "integers N_C >= 1 (rho uniform on the N_C coupons)"),),
    readings=(Reading(
        "an upper bound on the variance",
        "Motwani and Raghavan, cited for it, give pi^2 N_C^2/6 as a bound; the Chebyshev step after it needs only "
        "Var(T) <= (N_C pi)^2/6",
        statement=parts(Le(cp.Var_T, (cp.N_C * pi) ** 2 / 6), labels=["Var(T) <= (N_C pi)^2/6"]),
        known_refutation=""),),
    literal="'respectively given by': the variance of T equals (N_C pi)^2/6",
    notes="The exact variance is N_C^2 H^(2)_{N_C} - N_C H_{N_C} < (N_C pi)^2 / 6: the printed value "
          "is an upper bound (which is all the Chebyshev step needs), not the variance.",
))

PLUGIN.claim(Claim(
    id="merad.coupon.chebyshev", kind=Kind.INEQUALITY, cost=25,
    source=source("Section 3.1, after Lemma 2", (HAL,)),
    statement=parts(Le(cp.P_dev, pi ** 2 / (6 * cp.beta ** 2)),
                    labels=["P(|T - N_C H_N_C| >= beta N_C) <= pi^2/(6 beta^2)"]),
    assumptions=(BETA_POSITIVE,),
    subjects=(coupon_collector(beta_grid=BETA_GRID),),
    certificates=(chebyshev_proof.coupon_chebyshev_coq,),
    prefix=(forall("N_C", "integers N_C >= 1 (rho uniform on the N_C coupons)"), forall("beta", "reals beta > 0")),
    encoding="'for any beta > 0' (one reading). P computed exactly from the distribution of T (uniform rho) for every N_C <= 1000 on a "
             "grid of beta, plus random (N_C, beta).",
))


# == Section 4: the fixed-triplet loss (11) ===================================================
def _in_ball(s: object) -> bool:
    # z_next = z + z', the point after the step (theorems.papers.merad.triplets)
    z, z_next, C = s.z, s.z_next, s.C  # type: ignore[attr-defined]
    return bool(np.all(np.linalg.norm(z, axis=1) <= C) and np.all(np.linalg.norm(z_next, axis=1) <= C))


def _base_in_ball(s: object) -> bool:
    return bool(np.all(np.linalg.norm(s.z, axis=1) <= s.C))  # type: ignore[attr-defined]


# at z' = 0 both sides of (12) are l(z), whatever the constant: such a subject checks nothing
STEP_NONZERO = Informative("z' != 0", lambda s: bool(np.any(s.z_next != s.z)))
IN_BALL = Assumption("z, z + z' in B^3", "max_j ||z_j|| <= C and max_j ||z_j + z'_j|| <= C (Lemma 3)", _in_ball)
BASE_IN_BALL = Assumption("z in B^3", "max_j ||z_j|| <= C, z' any vector of R^{3d} (Lemma 3 with (12)'s 'for any z, "
                          "z' in R^{3d}', the restriction read as one of the base point z)", _base_in_ball)
#: how far z + z' is drawn when it may leave B^3: within REACH C (a search range, not a constant of the statement)
REACH = 10.0


def _assumption2(s: object) -> bool:
    """eta = min_x ||f(x)|| > 0 and max_x ||f(x)|| <= C (the engine decides the second, with its tolerance: a
    projection onto the ball rounds)."""
    norms = np.linalg.norm(s.Y, axis=1)  # type: ignore[attr-defined]
    return float(np.min(norms)) > 0 and holds(at_most(float(np.max(norms)), float(s.C),  # type: ignore[attr-defined]
                                                      what="max_x ||f(x)|| <= C"))


def _gradient_hypothesis(s: object) -> bool:
    values = TrainingSets().quantities(s, [ts.grad_norm, ts.eta_data], FLOAT)
    return float(values[ts.grad_norm]) < float(values[ts.eta_data]) / 2


def _gradient_hypothesis_slots(s: object) -> bool:
    values = TrainingSets().quantities(s, [ts.grad_norm_slots, ts.eta_data], FLOAT)
    return float(values[ts.grad_norm_slots]) < float(values[ts.eta_data]) / 2


ASSUMPTION2 = Assumption(
    "Assumption 2", "eta <= ||f(x)|| <= C for every x of X_data, with eta = min_x ||f(x)|| > 0 and C the radius "
    "the outputs lie in (Assumption 2 of Section 4)", _assumption2)
GRADIENT_SMALL = Assumption(
    "||grad L^_un(f)|| <= eps < eta/2",
    "the gradient of L^_un(f) = sum_i l(z_i) (11) with respect to the outputs of f on X_data has norm "
    "eps < eta/2, with the tightest eps = ||grad L^_un|| (Lemma 7)", _gradient_hypothesis)
GRADIENT_SMALL_SLOTS = Assumption(
    "||grad_(z_1..z_n) L^_un|| <= eps < eta/2",
    "the gradient of L^_un = sum_i l(z_i) with respect to the 3n output slots z_i = (f(x_i), f(x_i+), f(x_i-)) (a "
    "sample's uses kept apart: the vector of the loss vectors loss_{i,j}) has norm eps < eta/2, with the tightest "
    "eps (Lemma 7 = Lemma 4.2, read as its proof reads the gradient)", _gradient_hypothesis_slots)
ON_TRIPLETS = lambda s: hasattr(s, "z")  # noqa: E731 - part guard: triplet subjects
ON_SCALARS = lambda s: hasattr(s, "x")  # noqa: E731 - part guard: scalar subjects
ON_HALF = lambda s: hasattr(s, "x") and s.x <= 0.5  # noqa: E731 - part guard: scalars in [0, 1/2]
SMOOTH = 2 + 8 * tp.C ** 2

LEMMA3_12 = Part(Le(tp.ell_step, tp.ell + tp.grad_dot_step + SMOOTH / 2 * tp.step_sq),
                 "(12): l(z+z') <= l(z) + <grad l(z), z'> + (2+8C^2)/2 ||z'||^2", informative=STEP_NONZERO)
LEMMA3_ROUTE = Part(Le(tp.hess_norm, SMOOTH), "||Hess l(z)|| <= 2 + 8C^2 on B^3 (the proof's route to (12))")
#: the Triplets the Frobenius readings of Lemma 3's proof are searched on (d up to 8: the failure needs d >= 5)
FRO_SUBJECTS = (Triplets("ball", dims=l3n.FROBENIUS_DIMS), Triplets("near_optimal", dims=l3n.FROBENIUS_DIMS))

PLUGIN.claim(Claim(
    id="merad.lemma3", kind=Kind.INEQUALITY, cost=16,
    source=source("Lemma 3 = Lemma 5 (Section 8) = Lemma 4.1"),
    statement=(LEMMA3_12, LEMMA3_ROUTE),
    assumptions=(IN_BALL,),
    subjects=(Triplets("ball"), Triplets("near_optimal")),
    certificates=(proofs.lemma3_from_steps, sharp_constants.for_claim, sharp_constants.coq_for_claim),
    literal=f"(12) with ||z'|| Euclidean on R^{{3d}}, both z and z + z' in B^3; the proof's route with {l3n.SPECTRAL}",
    readings=(Reading(
        l3n.FROBENIUS_NAME, l3n.FROBENIUS_RESTS_ON + " -- the route part then reads ||Hess l(z)||_F <= 2 + 8C^2; the "
        "spectral route part is kept beside it (implied by it: ||H||_2 <= ||H||_F) because the sharp constant of "
        "the spectral part is reported on every reading",
        statement=(LEMMA3_12, LEMMA3_ROUTE, Part(Le(tp.hess_norm_fro, SMOOTH), l3n.HESS_F)),
        subjects=FRO_SUBJECTS, known_refutation="merad.lemma3@matrix-norms-read-as-frobenius.json",
        # proves (12) and the spectral route (their labels); the Frobenius part is searched
        certificates=(proofs.lemma3_from_steps,)),
        Reading(
        "base point in B^3, any step",
        "(12) is printed 'for any z, z' in R^{3d}'; 'the restriction of l to B^3 satisfies (12)' read as restricting "
        "the point z where the quadratic bound is anchored, the step z' free (z + z' may leave B^3); the proof's "
        "Taylor step along [z, z + z'] inside the convex B^3 does not cover it, so only the Hessian bound on B^3 keeps "
        f"its certificate and (12) is searched with z + z' within {REACH:g} C",
        assumptions=(BASE_IN_BALL,),
        prefix=(forall("d", "integers d >= 1"),
                forall("C", "C > 0, the constant of Assumption 2"),
                exists("L_smooth", "L_smooth <= 2 + 8C^2", depends_on=("d", "C")),
                forall("(z, z')", "z in B^3 = {max_j ||z_j||^2 <= C^2}, z' in R^{3d}")),
        subjects=(Triplets("ball", reach=REACH), Triplets("near_optimal", reach=REACH)),
        certificates=(proofs.lemma3_route_only,)),),
    sharp=(Sharp("||Hess l(z)|| <= 2 + 8C^2 on B^3 (the proof's route to (12))", "2 + 8C^2",
                 "sup over B^3 in [lambda(C), 1.5C^2 + sqrt 2], lambda(C) = (3C^2 + sqrt(9C^4 + 8))/4 (d >= 2; for d = 1 "
                 "only the upper end 1.5C^2 + sqrt 2 is certified, no witness): leading constant 3/2 as C -> oo, "
                 "certified from both ends; at finite C the exact sup is only bracketed", certified=True,
                 sides=(tp.hess_norm, (3 * tp.C ** 2 + sqrt(9 * tp.C ** 4 + 8)) / 4),
                 bound=(tp.hess_norm, Rational(3, 2) * tp.C ** 2 + sqrt(2)), bound_by=(sharp_constants.sharp_upper,),
                 certificates=(sharp_constants.sharp_constant, sharp_constants.scalar_facts_coq)),
           Sharp(LEMMA3_12.label, "(2 + 8C^2)/2", "in [lambda(C)/2, (1.5C^2 + sqrt 2)/2]: half the Hessian's sharp "
                 "bound on B^3 (Taylor's theorem inside the convex B^3; the lower end at interior points near the "
                 "Hessian's witness)", certified=True,
                 sides=(tp.ell_step, tp.ell + tp.grad_dot_step + (3 * tp.C ** 2 + sqrt(9 * tp.C ** 4 + 8)) / 8 * tp.step_sq),
                 bound=(tp.ell_step, tp.ell + tp.grad_dot_step + (Rational(3, 2) * tp.C ** 2 + sqrt(2)) / 2 * tp.step_sq),
                 certificates=(steps_sharp.quadratic_bound_upper, sharp_constants.sharp_lower),
                 bound_by=(steps_sharp.quadratic_bound_upper,))),
    artifacts=(lemma3_tightness.write_artifact,),
    prefix=(forall("d", "integers d >= 1"),
            forall("C", "C > 0, the constant of Assumption 2 (any C > eta > 0 for which the outputs stay in the ball)"),
            exists("L_smooth", "L_smooth <= 2 + 8C^2", depends_on=("d", "C")),
            forall("(z, z')", "z and z + z' in B^3 = {max_j ||z_j||^2 <= C^2} (the restriction of l to B^3)")),
    encoding=f"{l3n.STATEMENT_NORM}. "
             "The literal reading of the domain: 'the restriction of l to B^3 satisfies (12)' evaluates l at z and z + z' only, so both lie "
             "in B^3; Assumption 2 contributes only C (its strict eta < ||z|| < C is inside the closed ball, so that "
             "narrower reading is implied). The existential L_smooth <= 2 + 8C^2 is checked at its weakest admissible "
             "value 2 + 8C^2. The reading 'base point in B^3, any step' frees z + z'; it is searched with z + z' "
             f"within {REACH:g} C: farther out both sides of (12) grow like ||z'||^2, the left one with coefficient at "
             "most 1/sqrt 2 (l(w) <= log 2 + max(0, w_1^T(w_3 - w_2)) <= log 2 + ||w||^2/sqrt 2), the right one with 1 + 4C^2, "
             "so their ratio tends to at most 1/(sqrt 2 (1 + 4C^2)) < 1 as ||z'|| -> oo (an argument, not a certificate: "
             "the reading is decided by the search). "
             "z, z + z' drawn inside B^3 = {max_j ||z_j|| <= C} for C from 0.05 to 30 and d = 1..4; "
             "the Hessian's operator norm is also maximized over B^3 for each C "
             "(theorems/papers/merad/lemma3_tightness.py).",
))

LEMMA3_STEP_FAMILIES = (Triplets("ball"), Triplets("near_optimal"))
_AT_WITNESS = lambda: steps_sharp.equality_triplets(LEMMA3_STEP_FAMILIES[:1])  # noqa: E731
_DCOS_BOUNDS = [(norm, sqrt(2) * Max(a, b)) for norm, a, b in zip(
    (tp.dcos12_norm, tp.dcos13_norm, tp.dcos23_norm), (tp.z1_norm, tp.z1_norm, tp.z2_norm),
    (tp.z2_norm, tp.z3_norm, tp.z3_norm))]
_DCOS_SHARP = tuple(
    Sharp(label, "2", "sqrt 2 (||dcos_ij||^2 = ||z_i||^2 + ||z_j||^2; equal when ||z_i|| = ||z_j||)", certified=True,
          sides=bound, bound=bound, certificates=(steps_sharp.dcos_sharp,), attained=_AT_WITNESS)
    for label, bound in zip(proofs.LEMMA3_DCOS, _DCOS_BOUNDS))
_CURV_SHARP = (tp.curv_term_norm, Rational(3, 2) * tp.max_norm_prod)
_LAM_M = (3 * tp.max_norm_prod + sqrt(9 * tp.max_norm_prod ** 2 + 8)) / 4

PLUGIN.claim(Claim(
    id="merad.lemma3.steps", kind=Kind.INEQUALITY, cost=16,
    source=source("proof of Lemma 5 = proof of Lemma 4.1"),
    statement=parts(
        Eq(tp.grad_rel_err, 0),
        Le(tp.dcos12_norm, 2 * Max(tp.z1_norm, tp.z2_norm)),
        Le(tp.dcos13_norm, 2 * Max(tp.z1_norm, tp.z3_norm)),
        Le(tp.dcos23_norm, 2 * Max(tp.z2_norm, tp.z3_norm)),
        Le(tp.softmax_curv_norm, Rational(1, 2)),
        Eq(tp.d2cos_norm_min, 1), Eq(tp.d2cos_norm_max, 1),
        Eq(tp.hess_rel_err, 0),
        Le(tp.curv_term_norm, 8 * tp.max_norm_prod),
        Le(tp.hess_norm, 2 + 8 * tp.max_norm_prod),
        labels=["gradient = (v1-1) dcos12 + v2 dcos13 (relative error 0)",
                "||dcos12|| <= 2 max(||z1||,||z2||)", "||dcos13|| <= 2 max(||z1||,||z3||)",
                "||dcos23|| <= 2 max(||z2||,||z3||)", proofs.SOFTMAX_CURVATURE, *proofs.D2COS,
                "Hessian = (v1-1) d2cos12 + v2 d2cos13 + (dcos12 dcos13) dv (relative error 0)",
                "||(dcos12 dcos13) dv|| <= 8 max_ij ||z_i|| ||z_j|| (read as <=)",
                "||Hess l|| <= 2 + 8 max_ij ||z_i|| ||z_j|| (read as <=)"],
    ),
    subjects=LEMMA3_STEP_FAMILIES,
    certificates=(proofs.softmax_curvature_interval, proofs.d2cos_norm_symbolic,
                  proofs.lemma3_gradient_symbolic, proofs.lemma3_dcos_norms, proofs.lemma3_hessian_symbolic,
                  proofs.lemma3_curvature_norms, *proofs.COQ_CERTIFICATES["merad.lemma3.steps"]),
    prefix=(forall("d", "integers d >= 1"), forall("z", "(R^d)^3, v = softmax(z_1^T z_2, z_1^T z_3)")),
    literal=l3n.SPECTRAL,
    sharp=(*_DCOS_SHARP,
           Sharp(proofs.SOFTMAX_CURVATURE, "1/2", "1/2 (2 v1 v2 <= 1/2, equal at v = (1/2, 1/2): u = 0)", certified=True,
                 sides=(tp.softmax_curv_norm, Rational(1, 2)), bound=(tp.softmax_curv_norm, Rational(1, 2)),
                 certificates=(steps_sharp.softmax_sharp,), attained=_AT_WITNESS),
           Sharp(proofs.LEMMA3_CURV, "8", "3/2 (v1 v2 ||g||^2 <= 6M/4; equal at z_1 = C e_1, z_2 = -z_3 = C e_2)",
                 certified=True, sides=_CURV_SHARP, bound=_CURV_SHARP, certificates=(steps_sharp.curvature_sharp,),
                 attained=_AT_WITNESS),
           Sharp(proofs.LEMMA3_HESS_NORM, "2 + 8M", "in [(3M + sqrt(9M^2 + 8))/4, 3/2 M + sqrt 2] (M = max_ij ||z_i|| "
                 "||z_j||): the lower end attained at z_1 = C e_1, z_2 = -z_3 = C e_2, the upper end certified for every z",
                 certified=True, sides=(tp.hess_norm, _LAM_M),
                 bound=(tp.hess_norm, Rational(3, 2) * tp.max_norm_prod + sqrt(2)),
                 certificates=(steps_sharp.hessian_steps_upper, sharp_constants.sharp_lower),
                 bound_by=(steps_sharp.hessian_steps_upper,), attained=_AT_WITNESS)),
    readings=(Reading(
        l3n.FROBENIUS_NAME, l3n.FROBENIUS_RESTS_ON,
        statement=parts(
            Eq(tp.grad_rel_err, 0),
            Le(tp.dcos12_norm, 2 * Max(tp.z1_norm, tp.z2_norm)),
            Le(tp.dcos13_norm, 2 * Max(tp.z1_norm, tp.z3_norm)),
            Le(tp.dcos23_norm, 2 * Max(tp.z2_norm, tp.z3_norm)),
            Le(tp.softmax_curv_norm_fro, Rational(1, 2)),
            Eq(tp.d2cos_norm_min_fro, 1), Eq(tp.d2cos_norm_max_fro, 1),
            Eq(tp.hess_rel_err, 0),
            Le(tp.curv_term_norm_fro, 8 * tp.max_norm_prod),
            Le(tp.hess_norm_fro, 2 + 8 * tp.max_norm_prod),
            labels=[proofs.LEMMA3_GRADIENT, *proofs.LEMMA3_DCOS, l3n.SOFTMAX_F, *l3n.D2COS_F, proofs.LEMMA3_HESSIAN,
                    l3n.CURV_F, l3n.HESS_NORM_F]),
        subjects=FRO_SUBJECTS, known_refutation="merad.lemma3.steps@matrix-norms-read-as-frobenius.json",
        # the norm-free steps (the two identities, the vector norms of dcos_ij) keep their proofs; the matrix norms
        # are searched
        certificates=(proofs.lemma3_gradient_symbolic, proofs.lemma3_dcos_norms, proofs.lemma3_hessian_symbolic)),),
    encoding="Each intermediate fact of the proof is a part. The two norm statements the proof prints "
             "with '=' are checked here as the '<=' the proof needs; as printed ('=') they are the "
             "claim merad.lemma3.printed_equalities. max_{i,j} runs over all i, j in {1,2,3}.",
))

PLUGIN.claim(Claim(
    id="merad.lemma3.printed_equalities", kind=Kind.IDENTITY, cost=9,
    source=source("proof of Lemma 5 = proof of Lemma 4.1 (the two norm displays)"),
    statement=parts(
        Eq(tp.curv_term_norm, 8 * tp.max_norm_prod),
        Eq(tp.hess_norm, 2 + 8 * tp.max_norm_prod),
        labels=["printed: ||(dcos12 dcos13) dv|| = 8 max_ij ||z_i|| ||z_j||",
                "printed: ||Hess l|| = 2 + 8 max_ij ||z_i|| ||z_j||"],
    ),
    subjects=(Triplets("ball"),),
    known_refutation="merad.lemma3.printed_equalities.json",
    prefix=(forall("d", "integers d >= 1"), forall("z", "(R^d)^3, v = softmax(z_1^T z_2, z_1^T z_3)")),
    readings=(Reading(
        "'=' read as '<='", "the proof's use of the two displays: it needs only the upper bounds (the claim "
        "merad.lemma3.steps checks them with the other steps)",
        statement=parts(Le(tp.curv_term_norm, 8 * tp.max_norm_prod), Le(tp.hess_norm, 2 + 8 * tp.max_norm_prod),
                        labels=[proofs.LEMMA3_CURV, proofs.LEMMA3_HESS_NORM]),
        known_refutation="",
        # the step certificate of merad.lemma3.steps proves exactly these two bounds (spectral norm)
        certificates=(proofs.lemma3_curvature_norms,)),
        Reading(
        f"{l3n.FROBENIUS_NAME}, as printed", l3n.FROBENIUS_RESTS_ON + ", the two displays with '='",
        statement=parts(Eq(tp.curv_term_norm_fro, 8 * tp.max_norm_prod), Eq(tp.hess_norm_fro, 2 + 8 * tp.max_norm_prod),
                        labels=[l3n.PRINTED_CURV_F, l3n.PRINTED_HESS_F]),
        subjects=(FRO_SUBJECTS[0],), certificates=(),
        known_refutation="merad.lemma3.printed_equalities@matrix-norms-read-as-frobenius-as-printed.json"),
        Reading(
        f"{l3n.FROBENIUS_NAME}, '=' read as '<='", l3n.FROBENIUS_RESTS_ON + ", the two displays as the upper bounds "
        "the proof uses",
        statement=parts(Le(tp.curv_term_norm_fro, 8 * tp.max_norm_prod), Le(tp.hess_norm_fro, 2 + 8 * tp.max_norm_prod),
                        labels=[l3n.CURV_F, l3n.HESS_NORM_F]),
        subjects=(FRO_SUBJECTS[0],), certificates=(),
        known_refutation="merad.lemma3.printed_equalities@matrix-norms-read-as-frobenius-read-as.json")),
    literal=f"the two displays as printed, with '=', {l3n.SPECTRAL}",
    notation_slip="the proof prints '=' for two norm bounds; read as '<=' they hold for the spectral norm "
                  "(merad.lemma3.steps) and are all the proof of Lemma 3 uses (read with Frobenius norms the Hessian "
                  "bound fails for d >= 5 whatever the sign: that is the norm reading, not the slip)",
    notes="Step-level finding: the proof prints these norms with '='; they hold only as upper bounds "
          "(e.g. z = 0 gives 0 = 0 but z_1 = (1), z_2 = z_3 = (0) gives 1/2 vs 8).",
))

PLUGIN.claim(Claim(
    id="merad.lemma7", kind=Kind.INEQUALITY, cost=9,
    source=source("Lemma 4 = Lemma 7 (Section 8) = Lemma 4.2"),
    statement=parts(Le(ts.max_loss, 2 * ts.grad_norm / ts.eta_data), labels=["l(z_i) <= 2 eps / eta for every i"]),
    assumptions=(ASSUMPTION2, GRADIENT_SMALL),
    subjects=(TrainingSets(), LearnedTrainingSets(experiments.triplet_outputs, "Theorem 1 GD runs on digits",
                                                       experiments.theorem1_prerequisites)),
    known_refutation="merad.lemma7.json",
    prefix=(forall("(X_data, T)", "training sets: samples X_data and n triplets (x_i, x_i+, x_i-) of distinct samples; "
                   "a sample may serve several triplets"),
            forall("f", "encoders; their outputs f(x), x in X_data"),
            forall("(eta, C)", "constants 0 < eta < C with eta < ||f(x)|| < C on X_data (Assumption 2)"),
            forall("eps", "eps with ||grad L^_un(f)|| <= eps < eta/2"),
            forall("i", "triplets i = 1..n")),
    readings=(Reading(
        "every sample in one triplet",
        "Theorem 1's setting, where Lemma 7 is applied: Assumption 1 asks all samples of X_data to be separated, "
        "'in particular, distinct', which 'would be invalidated simply by reusing a sample in two different "
        "triples' (the paragraph after Lemma 4)",
        prefix=(forall("(X_data, T)", "training sets: n triplets of 3n distinct samples (every sample in one triplet)"),
                forall("f", "encoders; their outputs f(x), x in X_data"),
                forall("(eta, C)", "constants 0 < eta < C with eta < ||f(x)|| < C on X_data (Assumption 2)"),
                forall("eps", "eps with ||grad L^_un(f)|| <= eps < eta/2"),
                forall("i", "triplets i = 1..n")),
        subjects=(TrainingSets(samples=(3, 9), disjoint=True),
                  LearnedTrainingSets(experiments.triplet_outputs, "Theorem 1 GD runs on digits",
                                      experiments.theorem1_prerequisites)),
        data_adversary=(l7.adversary(disjoint=True),),
        known_refutation="", certificates=(proofs.lemma7_disjoint_from_steps,)),
        Reading(
        "gradient in the 3n output slots",
        "the proof of Lemma 7: 'loss_i = grad_z l(z_i)' with z_i = (f(x_i), f(x_i+), f(x_i-)), 'we obtain a triplet of "
        "loss vectors for each data triple', and 'max_ij ||loss_ij|| <= eps': the outputs of the sentence before "
        "Lemma 4 ('the gradient is taken w.r.t. the outputs of f') read as the network's 3n outputs on the triplets, "
        "one per position (Allen-Zhu et al.'s one output per input), so a sample's two uses are two coordinates; "
        "the training sets and hypotheses are the literal ones (a sample may serve several triplets)",
        assumptions=(ASSUMPTION2, GRADIENT_SMALL_SLOTS),
        statement=parts(Le(ts.max_loss, 2 * ts.grad_norm_slots / ts.eta_data),
                        labels=["l(z_i) <= 2 eps / eta for every i"]),
        prefix=(forall("(X_data, T)", "training sets: samples X_data and n triplets (x_i, x_i+, x_i-) of distinct "
                       "samples; a sample may serve several triplets"),
                forall("f", "encoders; their outputs f(x), x in X_data"),
                forall("(eta, C)", "constants 0 < eta < C with eta < ||f(x)|| < C on X_data (Assumption 2)"),
                forall("eps", "eps with ||grad_(z_1..z_n) L^_un|| <= eps < eta/2 (the gradient in the 3n output slots)"),
                forall("i", "triplets i = 1..n")),
        known_refutation="", certificates=(proofs.lemma7_slots_from_steps,)),),
    data_adversary=(l7.adversary(),),
    literal="Lemma 7's hypotheses as printed: Assumption 2 and the gradient bound, nothing on how the triplets share "
            "samples",
    notes="Refuted as printed: when a sample serves two triplets their loss vectors can cancel in the gradient "
          "(x_2 anchoring (x_2, x_1, x_0) and (x_2, x_0, x_1) with f(x_0) = f(x_1): the gradient is 0 while "
          "l = log 2). The proof's step 1 (a citation) is where it breaks; with every sample in one triplet, as "
          "in Theorem 1's setting, the gradient's blocks are the loss vectors and the lemma holds.",
    encoding="As printed (and as ../shared/CLAIMS.md now gives it): the hypothesis is on the gradient of L^_un "
             "over the training set of n triplets with respect to the outputs of f (the sentence before Lemma 4: "
             "'the gradient is taken w.r.t. the outputs of f', so not the encoder's parameters -- one reading there; "
             "the Euclidean norm of that gradient), under Assumption 2 only. The outputs of f are read literally as "
             "one output per sample of X_data (a sample serving two triplets sums its two loss vectors); the reading "
             "'gradient in the 3n output slots' keeps them apart, as the proof's loss vectors do. "
             "eps = ||grad L^_un|| and eta = min ||f(x)|| over X_data are the tightest constants the hypotheses "
             "allow. A sample may serve several triplets: nothing in Lemma 7's hypotheses forbids it. The proof's "
             "step 1 (||grad|| <= eps implies max_ij ||loss_ij|| <= eps, by citation) is checked as a step.",
))

PLUGIN.claim(Claim(
    id="merad.lemma7.steps", kind=Kind.INEQUALITY,
    source=source("proof of Lemma 7 = proof of Lemma 4.2"),
    statement=(
        Part(Eq(tp.loss1_norm, tp.loss1_printed), "||loss_1|| = ||(v1-1) z2 + v2 z3||", ON_TRIPLETS),
        Part(Eq(tp.loss2_norm, Abs(tp.v1 - 1) * tp.z1_norm), "||loss_2|| = |v1-1| ||z1||", ON_TRIPLETS),
        Part(Eq(tp.loss3_norm, tp.v2 * tp.z1_norm), "||loss_3|| = v2 ||z1||", ON_TRIPLETS),
        Part(Eq(tp.ell, -log(1 - tp.v2)), "zeta(z1^T(z3-z2)) = -log(1 - v2)", ON_TRIPLETS),
        Part(Le(-log(1 - tp.x_scalar), tp.x_scalar / (1 - tp.x_scalar)), proofs.NEG_LOG, ON_SCALARS),
        Part(Le(tp.x_scalar / (1 - tp.x_scalar), 2 * tp.x_scalar), proofs.RATIO, ON_HALF),
    ),
    subjects=(Triplets("near_optimal"), Triplets("ball"), Scalars(0.0, 0.5), Scalars(0.0, 1 - 1e-9)),
    certificates=(proofs.lemma7_loss_vectors_symbolic, proofs.neg_log1m_symbolic, proofs.neg_log1m_interval,
                  proofs.ratio_le_twice_interval, *proofs.COQ_CERTIFICATES["merad.lemma7.steps"]),
    prefix=(forall("d", "integers d >= 1"), forall("z", "(R^d)^3, v = softmax(z_1^T z_2, z_1^T z_3)"),
            forall("x", "reals 0 <= x < 1 (-log(1-x) <= x/(1-x), as printed); 0 <= x <= 1/2 (x/(1-x) <= 2x, "
                   "where the proof uses it: x = v_2 <= eps/eta < 1/2)")),
    encoding="One reading per step. The inequality -log(1-x) <= x/(1-x) is printed 'for 0 <= x < 1' and is "
             "checked and certified there (the interval certificate covers [0, 1/2] only, the range the "
             "proof uses, and say so); x/(1-x) <= 2x holds on [0, 1/2] only, which 'the assumption that "
             "eps < eta/2' gives.",
))

PLUGIN.claim(Claim(
    id="merad.softplus.limits", kind=Kind.IDENTITY,
    source=source("proof of Lemma 6 = proof of Lemma B.1"),
    statement=(
        Part(Eq(Limit(log(1 + exp(tp.x_scalar)) / tp.x_scalar, tp.x_scalar, oo), 1), proofs.SOFTPLUS_LIMITS[0]),
        Part(Eq(Limit(log(1 + exp(tp.x_scalar)), tp.x_scalar, -oo), 0), proofs.SOFTPLUS_LIMITS[1]),
        # zeta(x) - x = log(1 + e^-x) >= 0 is automatic; the parts test the upper bounds
        Part(Le(log(1 + exp(-tp.x_scalar)), exp(-tp.x_scalar)), proofs.SOFTPLUS_BOUNDS[0], lambda s: s.x >= 0),
        Part(Le(log(1 + exp(tp.x_scalar)), exp(tp.x_scalar)), proofs.SOFTPLUS_BOUNDS[1], lambda s: s.x <= 0),
    ),
    subjects=(Scalars(-700.0, 700.0),),
    certificates=(proofs.softplus_limits_symbolic, proofs.softplus_bounds_interval,
                  *proofs.COQ_CERTIFICATES["merad.softplus.limits"]),
    prefix=(forall("x", "reals x (the limits x -> +oo and x -> -oo; the bounds for x >= 0 and x <= 0)"),),
    encoding="One reading. The printed limits are certified symbolically (sympy limit); the quantitative bounds "
             "0 <= log(1 + e^-|x|) <= e^-|x| that imply them are tested numerically and certified for all x "
             "through t = e^-|x| in (0, 1] by interval arithmetic.",
))


# how Section 4 fits together beyond the step tags of the proof pages (used, user)
LEMMA6 = "merad.lemma6 (Allen-Zhu et al. Thm 6)"
PLUGIN.edges([
    ("merad.lemma3", LEMMA6),
    ("merad.softplus.limits", LEMMA6),
    (LEMMA6, "merad.theorem1"),
    ("merad.lemma7", "merad.theorem1"),
    ("merad.lemma3.steps", "merad.lemma3"),
    ("merad.lemma7.steps", "merad.lemma7"),
])


# == Section 5: what the paper reports seeing on trained encoders (observations) ==============
PLUGIN.claim(Claim(
    id="merad.fig1", kind=Kind.OBSERVATION,
    source=source("Section 5, Figure 1", (HAL,)),
    statement=(Part(Le(mx.L_sup_mu, mx.L_un / mx.p_min), "L^mu_sup(f,C) <= L_un(f)/p_min (no log N_C)",
                    informative=at_init.mixture_part_at_init(mx.L_sup_mu, mx.L_un / mx.p_min, mx.evaluate)),),
    subjects=(experiments.learned_section3(),),
    artifacts=(experiments.figure1,),
    prefix=(forall("run", f"the training runs the figure displays (here: {RUNS} seeds on digits, the checker's stand-in for MNIST)"), forall("t", "logged training steps (step 0 included)")),
    encoding="'Inequality (7) is satisfied on these experiments, even when the log N_C term is discarded': every "
             "displayed run at every displayed iteration. The caption's other object, the runs' average curve, "
             "is not checked apart: p_min is the same on every run (the same data), so the inequality on every "
             "run implies it on the average (the average reading can only be weaker). "
             f"Checked at every logged step of {RUNS} training runs (N = 1) on digits; the losses are exact on "
             "the evaluation subset (20 images per digit), rho = the digits' class frequencies. Baseline (issue 39, "
             "as merad.fig1.trend's at_init): a snapshot is informative only when its run's initialization (step 0) "
             "does not already satisfy the inequality (theorems.papers.merad.at_init); where the untrained encoder "
             "already does, the run cannot show it and the claim is untested (uninformative).",
))

PLUGIN.claim(Claim(
    id="merad.fig2", kind=Kind.OBSERVATION, cost=20,
    source=source("Section 5, Figure 2", (HAL,)),
    statement=(Part(Le(mx.L_sup_mu, mx.L_un_N), "L^mu_sup(f,C) <= L^N_un(f) (no 1/p_cc)",
                    informative=at_init.mixture_part_at_init(mx.L_sup_mu, mx.L_un_N, mx.evaluate)),),
    subjects=(experiments.learned_section3(negatives=True),),
    artifacts=(experiments.figure2,),
    prefix=(forall("N", "N = 15, 25, 35 (the figure's values)"), forall("run", f"the training runs the figure displays (here: {RUNS} seeds on digits, the checker's stand-in for MNIST)"),
            forall("t", "logged training steps (step 0 included)")),
    encoding="'Inequality (8) seems to hold even without the 1/p_cc term': every displayed N, run and iteration "
             "(the average curve is implied, as for merad.fig1). "
             f"N = 15, 25, 35, {RUNS} runs each; L^N_un is a Monte Carlo bracket (100 000 samples, Hoeffding "
             "radius at alpha = 1e-9): a violation counts only if the whole bracket violates. Baseline as for "
             "merad.fig1: a snapshot is informative only when its run's initialization does not certainly satisfy "
             "the inequality (L^mu_sup above the bracket's lower end at step 0).",
))

# -- the readings of Assumption 2's "during and at the end of the training", defined once: merad.assumption2 and
# merad.assumption2.constants read the same printed words
ASSUMPTION2_END = "at the end of training only"
ASSUMPTION2_END_RESTS_ON = "'at the end of the training' alone (the point where Lemma 7 uses eta)"
ASSUMPTION2_LITERAL = "'during and at the end of the training': every logged step of every run"

PLUGIN.claim(Claim(
    id="merad.assumption2", kind=Kind.OBSERVATION,
    source=source("Section 5, Figure 3 (Assumption 2)", (HAL,)),
    statement=(Part(Gt(lr.out_norm_min, 0), "min_x ||f(x)|| > 0 at every logged step",
                    informative=at_init.norm_positive_at_init()),),
    subjects=(NormSnapshots(experiments.FIG1_RUNS + experiments.FIG2_RUNS,
                            experiments.QUICK_N1 + experiments.QUICK_N15),),
    artifacts=(experiments.figure3,),
    prefix=(forall("run", f"the Section 5 runs (N = 1 and N = 15, 25, 35; {RUNS} seeds each, digits)"),
            exists("(eta, C)", "constants 0 < eta < C < +oo", depends_on=("run",)),
            forall("t", "logged training steps ('during and at the end of the training')"),
            forall("x", "the data")),
    literal=ASSUMPTION2_LITERAL,
    readings=(Reading(ASSUMPTION2_END, ASSUMPTION2_END_RESTS_ON,
                      statement=(Part(Gt(lr.out_norm_min, 0), "min_x ||f(x)|| > 0 at the last logged step",
                                      informative=at_init.norm_positive_at_init()),),
                      prefix=(forall("run", f"the Section 5 runs (N = 1 and N = 15, 25, 35; {RUNS} seeds each, digits)"),
                              exists("(eta, C)", "constants 0 < eta < C < +oo", depends_on=("run",)),
                              forall("x", "the data at the last logged step")),
                      subjects=(NormSnapshots(experiments.FIG1_RUNS + experiments.FIG2_RUNS,
                                              experiments.QUICK_N1 + experiments.QUICK_N15, end_only=True),)),),
    encoding="The binding of the constants on finite runs: 'for some constants 0 < eta < C' at the end of the sentence binds the "
             "constants before x and t (uniform over the run); bound after them (per x and step) it would ask only "
             "f(x) != 0, and over finitely many x and steps the two coincide (the minimum of finitely many positive "
             "norms is a uniform eta). 'During and at the end' is every logged step. "
             "Over a finite run every positive minimum is a constant eta and every maximum a constant C, so "
             "the observation is that the minimum output norm over the data stays > 0 (by more than the "
             "tolerance) at every logged step of every run; eta and C are reported. Baseline (issue 39, as the twin "
             "merad.assumption2.constants's at_init): a snapshot is informative only when its run's initialization "
             "does not already have min ||f(x)|| > 0 (theorems.papers.merad.at_init): an untrained ReLU network's "
             "outputs already have positive norms, so the runs cannot show that training keeps them.",
))


# -- Assumption 1 and the paper's remark about it (issue 30) -----------------------------------------------------
PLUGIN.claim(ExperimentClaim(
    id="merad.assumption_1", kind=Kind.INEQUALITY,
    source=Source(file=HAL, numbering="Assumption 1, and the remark about it before Section 5", paper="Merad et al.",
                  covers=("Assumption 1",)),
    experiment=assumption1.assumption1,
    prefix=(forall("(X_data, T)", "training sets of n triples; a sample may serve several"),),
    readings=(Reading(assumption1.POSITIONS_NAME,
                      f"{assumption1.POSITIONS_RESTS_ON}: Assumption 1 read as {assumption1.POSITIONS}; the words that "
                      f"separate the readings: {assumption1.SEPARATING_WORDS} (shared with merad.theorem1)",
                      experiment=assumption1.assumption1_positions, known_refutation=""),
              Reading(assumption1.ANY_PAIR_NAME, f"{assumption1.ANY_PAIR_RESTS_ON}: {assumption1.ANY_PAIR}",
                      experiment=assumption1.assumption1_any_pair, known_refutation="")),
    literal=f"the words: Assumption 1 read as {assumption1.SET} (the reading merad.theorem1's literal reading uses), "
            "and the remark 'it would be invalidated simply by reusing a sample in two different triples'",
    known_refutation="merad.assumption_1.json",
    encoding="Assumption 1 asserts nothing by itself (it is a hypothesis of Lemma 6 and Theorem 1); the remark about it "
             "does. Exact on one training set: triples (0, 1, 2) and (0, 3, 4) of the unit vectors e_0..e_4.",
))

PLUGIN.claim(ExperimentClaim(
    id="merad.assumption2.constants", kind=Kind.OBSERVATION,
    source=source("Assumption 2 (Section 4) and Figure 3 (Section 5)", (HAL,)),
    experiment=observations.assumption2_constants, prerequisites=experiments.assumption2_prerequisites,
    quantifier="settings",
    prefix=(forall("run", f"the runs (Section 5: N = 1, 15, 25, 35; Theorem 1: widths m), {RUNS} seeds each -- the "
                   "checker's stand-ins for the paper's runs"),
            exists("(eta, C)", "constants 0 < eta < C < +oo", depends_on=("run",)),
            forall("t", "logged steps 'during and at the end of the training'"), forall("x", "X_data")),
    readings=(Reading(ASSUMPTION2_END, ASSUMPTION2_END_RESTS_ON,
                      prefix=(forall("run", f"the runs (Section 5 and Theorem 1), {RUNS} seeds each"),
                              exists("(eta, C)", "constants 0 < eta < C < +oo", depends_on=("run",)),
                              forall("x", "X_data at the last logged step")),
                      experiment=observations.assumption2_constants_at_end),
              Reading("(eta, C) uniform over eps",
                      "the uniformity Theorem 1 needs: 'Grant both Assumptions 1 and 2, let eps > 0' binds the "
                      "constants of Assumption 2 before eps, so one (eta, C) must serve the runs reaching every eps",
                      prefix=(exists("(eta, C)", "constants 0 < eta < C < +oo, one pair for every eps", depends_on=()),
                              forall("eps", "eps > 0 (Theorem 1's level)"),
                              exists("run", "a Theorem 1 run reaching L^_un <= eps", depends_on=("eps",)),
                              forall("t", "logged steps 'during and at the end of the training'"),
                              forall("x", "X_data")),
                      reach=(t1.assumption2_box(),),
                      known_refutation="merad.assumption2.constants@eta-c-uniform-over-eps.json"),),
    one_sided="over a finite run a positive minimum and a finite maximum of the output norms always exist: a run "
              "can only show constants, never their absence (unless a norm is exactly 0)",
    literal=ASSUMPTION2_LITERAL,
    encoding=f"eta = min ||f(x)|| > 0 and a finite C = max ||f(x)||: over every logged step of the {4 * RUNS} "
             f"Section 5 runs and of the {len(experiments.WIDTHS) * RUNS} Theorem 1 runs (their norms on X_data are "
             "logged every 10 GD steps). One "
             "observation per group of runs (an N or a width), one outcome per seed; the baseline is each run's "
             "initialization. The readings of 'for some constants' (bound before or after x and t, per run or "
             "across runs) coincide on finitely many runs and steps; the uniformity they imply across widths and "
             "eps matters in Theorem 1, whose prefix binds eta and C before eps and m: the reading '(eta, C) uniform "
             "over eps' is decided by the reach row of merad.theorem1 (one triplet's term zeta(t), t in [-2C^2, 2C^2]: "
             "the exact infimum log(1 + e^{-2C^2}) is positive for every C > 0, so with C chosen before eps the "
             "runs reaching small eps cannot keep one C: C_min(eps)^2 = 1/2 log(1/(e^{eps/n} - 1)) -> +oo). "
             "An asymptotic part (C_needed = O(1) as eps -> 0+) would say the same, but asymptotic parts are "
             "statement-claim fields. Quantifier 'settings': the "
             "runs are the checker's stand-ins (digits, a small conv net) for the paper's.",
))

PLUGIN.claim(ExperimentClaim(
    id="merad.fig1.trend", kind=Kind.OBSERVATION,
    source=source("Section 5, Figure 1: 'both losses follow a similar trend'", (HAL,)),
    experiment=observations.figure1_trend, prerequisites=experiments.figure1_prerequisites,
    quantifier="settings",
    prefix=(forall("run", f"the training runs the figure displays (here: {RUNS} seeds on digits, the checker's stand-in for MNIST)"), forall("t", "logged training steps (the curves)")),
    readings=(Reading("the runs' average curves",
                      "the caption: '5 runs are displayed together with their average'",
                      prefix=(forall("t", "logged training steps of the average of the displayed runs"),),
                      experiment=observations.figure1_trend_average),),
    literal="'both losses follow a similar trend' along every displayed run",
    encoding="Baseline (the untrained model has no trend of its own): the untrained encoder's outputs rescaled "
             "along the run's own mean output norm, a trajectory that learns nothing but the scale; where it meets "
             "the reading on every seed the observation is uninformative. Quantifier 'settings': the runs are the "
             "checker's stand-ins (digits) for the paper's MNIST runs. "
             "Read as: along every run, the Spearman correlation of L_un and L^mu_sup(f,C) over the logged steps "
             "is positive and both change in the same direction from the first to the last logged step "
             f"(the {RUNS} runs of merad.fig1), one outcome per seed.",
))

PLUGIN.claim(ExperimentClaim(
    id="merad.fig2.trend", kind=Kind.OBSERVATION, cost=7,
    source=source("Section 5, Figure 2: 'both losses behave similarly'", (HAL,)),
    experiment=observations.figure2_trend, prerequisites=experiments.figure2_prerequisites,
    quantifier="settings",
    prefix=(forall("N", "N = 15, 25, 35 (the figure's values)"), forall("run", f"the training runs the figure displays (here: {RUNS} seeds on digits, the checker's stand-in for MNIST)"),
            forall("t", "logged training steps (the curves)")),
    readings=(Reading("the runs' average curves",
                      "the caption: '5 runs are displayed together with their average'",
                      prefix=(forall("N", "N = 15, 25, 35"),
                              forall("t", "logged training steps of the average of the displayed runs")),
                      experiment=observations.figure2_trend_average),),
    literal="'both losses behave similarly' along every displayed run, for each N",
    encoding=f"The reading of merad.fig1.trend on the {3 * RUNS} runs of merad.fig2 (N = 15, 25, 35), with L^N_un the "
             "centre of a 10 000-sample Monte Carlo estimate (its Hoeffding radius is reported).",
))

def _theorem1_prefix(after_assumption2: tuple[str, ...]) -> tuple:
    """Theorem 1's prefix in printed order; ``after_assumption2`` is what the constants of Omega, Theta and O may
    depend on beyond the displayed n, L, delta, d and eps (nothing as printed; eta and C as proved)."""
    return (forall("X_data", f"n fixed triplets (x_i, x_i+, x_i-), Assumption 1 read as {assumption1.SET} (the "
                   "literal reading of merad.assumption_1), depth L, output dimension d"),
            forall("delta", "delta > 0 with ||x - x'|| >= delta on X_data (Assumption 1, a hypothesis)"),
            forall("(eta, C)", "0 < eta < C < +oo with eta < ||f(x)|| < C during and at the end of training "
                   "(Assumption 2, a hypothesis: granted, so bound before eps and m)"),
            forall("eps", "eps > 0"),
            exists("c_m", "the constant (and polynomial) of the width bound", depends_on=after_assumption2,
                   asymptotic="m >= Omega(poly(n, L, 1/delta) d / eps)"),
            forall("m", "widths m >= c_m poly(n, L, 1/delta) d / eps"),
            forall("theta_0", "the random initialization of A, W_1..W_L, B (every one: the sentence does not say "
                   "'with high probability')"),
            exists("nu", "a learning rate", depends_on=("X_data", "delta", "m") + after_assumption2,
                   asymptotic="nu = Theta(d delta / (poly(n, L) m))"),
            exists("T", "a number of GD steps", depends_on=("X_data", "delta", "eps") + after_assumption2,
                   asymptotic="T = O(poly(n, L) / (delta^2 eps^2))"))


THEOREM1_PREFIX = _theorem1_prefix(())
THEOREM1_PREFIX_PROOF = _theorem1_prefix(("(eta, C)",))
POSITIONS_DATA = ("X_data", f"n fixed triplets, Assumption 1 read as {assumption1.POSITIONS} (every sample in one "
                  "triplet, as the remark after Lemma 4 reads it; the reading merad.assumption_1 names "
                  f"'{assumption1.POSITIONS_NAME}'), depth L, output dimension d")
THEOREM1_PREFIX_POSITIONS = (forall(*POSITIONS_DATA),) + THEOREM1_PREFIX[1:]
THEOREM1_PREFIX_RUN = (
    forall(*POSITIONS_DATA),
    forall("delta", "delta > 0 with ||x - x'|| >= delta over the 3n samples (Assumption 1, a hypothesis)"),
    forall("eps", "eps > 0"),
    exists("c_m", "the constant (and polynomial) of the width bound", depends_on=(),
           asymptotic="m >= Omega(poly(n, L, 1/delta) d / eps)"),
    forall("m", "widths m >= c_m poly(n, L, 1/delta) d / eps"),
    forall("theta_0", "the random initialization of A, W_1..W_L, B"),
    exists("nu", "a learning rate", depends_on=("X_data", "delta", "m"), asymptotic="nu = Theta(d delta / (poly(n, L) m))"),
    exists("T", "a number of GD steps", depends_on=("X_data", "delta", "eps"),
           asymptotic="T = O(poly(n, L) / (delta^2 eps^2))"),
    exists("(eta, C)", "0 < eta < C < +oo with eta < ||f(x)|| < C during and at the end of this run (Assumption 2 read "
           "as a property of the run: its own constants)", depends_on=("X_data", "delta", "eps", "m", "theta_0", "nu", "T")))
#: the premise-conclusion checks (theorems.papers.merad.theorem1_reach)
THEOREM1_REACH = (t1.assumption2_box(),)
THEOREM1_SET_ADVERSARY = (t1.adversary(t1.ASSUMPTION1_SET),)
THEOREM1_POSITIONS_ADVERSARY = (t1.adversary(t1.ASSUMPTION1_POSITIONS),)
THEOREM1_ONE_SIDED = ("a run that does not reach eps cannot tell: m and T may lie below the unspecified thresholds of "
                      "Omega and O, so the runs can support the theorem but never refute it")

PLUGIN.claim(ExperimentClaim(
    id="merad.theorem1", kind=Kind.DYNAMICS,
    source=source("Theorem 1 (Section 4)"),
    experiment=experiments.theorem1, prerequisites=experiments.theorem1_prerequisites,
    quantifier="forall",
    prefix=THEOREM1_PREFIX,
    one_sided=THEOREM1_ONE_SIDED,
    reach=THEOREM1_REACH,
    data_adversary=THEOREM1_SET_ADVERSARY,
    readings=(Reading(
        "constants depending on eta and C",
        "the proof of Theorem 1: Lemma 6 applied with eps eta/(2n) instead of eps puts 1/eta into the width and "
        "1/eta^2 into the number of steps (step merad.theorem1_lemma6_price), which poly(n, L, 1/delta) cannot absorb",
        prefix=THEOREM1_PREFIX_PROOF, experiment=experiments.theorem1),
        Reading(
        f"{assumption1.POSITIONS_NAME}, Assumption 2 granted before eps",
        f"Assumption 1 read as in merad.assumption_1's reading '{assumption1.POSITIONS_NAME}' "
        f"({assumption1.POSITIONS_RESTS_ON}), with 'Grant both Assumptions 1 and 2' as printed: (eta, C) bound before "
        "eps",
        prefix=THEOREM1_PREFIX_POSITIONS, data_adversary=THEOREM1_POSITIONS_ADVERSARY),
        Reading(
        f"{assumption1.POSITIONS_NAME}, (eta, C) of the run",
        "Assumption 1 over the 3n positions as above, and Assumption 2 read as what the run itself shows (Figure 3: 'one can indeed "
        "assume these norms to be lower and upper bounded by constants'): (eta, C) chosen after the run, hence after "
        "eps -- the only reading the reachability check leaves standing",
        prefix=THEOREM1_PREFIX_RUN, data_adversary=THEOREM1_POSITIONS_ADVERSARY, known_refutation=""),
        Reading(assumption1.ANY_PAIR_NAME,
                f"merad.assumption_1's reading '{assumption1.ANY_PAIR_NAME}' ({assumption1.ANY_PAIR_RESTS_ON}): "
                f"{assumption1.ANY_PAIR} -- no data set grants it, so Theorem 1 is vacuous under it",
                unsatisfiable=(assumption1.any_pair_unsatisfiable,), known_refutation="")),
    known_refutation="merad.theorem1.json",
    literal="Theorem 1 as printed (HAL, Section 4; the conference appendix prints only its proof): 'Grant both "
            "Assumptions 1 and 2, let eps > 0 ... assuming m >= Omega(poly(n, L, 1/delta) d/eps), gradient descent "
            "with nu = Theta(d delta/(poly(n, L) m)) and T = O(poly(n, L)/(delta^2 eps^2)) finds f with "
            "L^_un(f) <= eps' -- the constants of Omega, Theta and O absolute, eta and C bound before eps",
    encoding="The printed widths and step counts are poly(n, L, 1/delta) with unspecified constants, so "
             "the theorem is checked as a dynamics claim: full-batch gradient descent on (11) with the "
             f"Section 4 network (n = 20 digit triplets, L = 2, d = 8) over {RUNS} seeds. For each eps of a grid (the "
             "universal 'let eps > 0'), the runs at the largest width (the closest to 'm large enough') either "
             "reach L^_un <= eps (the property held) or not (the run cannot tell: m or T may lie below the "
             "unspecified thresholds), so this experiment can support the theorem but never refute it. "
             "Assumptions 1 and 2 are the regime, measured on the runs (delta-separation; eta > 0 and finite C at "
             "every logged step). The printed dependence of T on eps is checked along the grid (T(eps) eps^2 at "
             "the largest width). The initialization is quantified as printed ('the gradient descent "
             "algorithm ... finds': every random initialization, every seed); Allen-Zhu et al.'s Theorem 6, "
             f"which the proof cites, holds with high probability over it -- a reading {RUNS} seeds cannot separate "
             "from the literal one when every seed reaches eps. "
             "Premise against conclusion (issue 38, theorems.papers.merad.theorem1_reach), with the hypotheses granted: "
             "(i) reach row -- Assumption 2 granted gives ||f(x)|| < C on X_data at the end of training, so one "
             "triplet's argument t lies in [-2C^2, 2C^2] (Cauchy-Schwarz) and L^_un >= n log(1 + e^{-2C^2}) >= "
             "log(1 + e^{-2C^2}) for every n >= 1, every width, every run; with (eta, C) bound before eps (as "
             "printed, and in the proof's reading) every eps below it is unreachable. A run reaching eps needs "
             "C >= C_min(eps), C_min^2 = 1/2 log(1/(e^{eps/n} - 1)) -> +oo, so only a reading in which C is the "
             "run's own (chosen after eps) survives; in it Lemma 3's smoothness 2 + 8C^2 grows like 4 log(n/eps), "
             "so the printed Omega and O hide polylog(1/eps) factors (not a refutation: nu and T are existential). "
             "(ii) data adversary -- labelled lists read as triplet data sets (one anchor; (+1) points positives, "
             "(-1) points negatives, a triplet per pair) on the unit circle; Assumption 1 as printed constrains the "
             "union SET, which admits the triplet (a, b, b): t = 0 for every f, L^_un = log 2, every eps < log 2 is "
             "unreachable whatever m, nu, T, C. Read over the 3n positions (every sample in one triplet) no sample "
             "repeats and no admissible set refutes. The readings separate on two word groups: "
             f"{assumption1.SEPARATING_WORDS} -- the readings of Assumption 1 are merad.assumption_1's, defined once in "
             "theorems.papers.merad.assumption1; its reading without the convention x != x' "
             f"('{assumption1.ANY_PAIR_NAME}') makes Assumption 1 unsatisfiable and Theorem 1 vacuous under it (a "
             "reading of its own, decided by the certificate assumption1.any_pair_unsatisfiable) -- and 'Grant both "
             "Assumptions ... let eps > 0' "
             "((eta, C) before eps vs the run's own constants).",
))
