"""How far any pair of maps can get from "aligned": 1 - Align >= 2^-(r+1) (1 + 2^-d_xi), exactly (issue 38, item 2).

Definition 4.1 (``alignment_score`` in :mod:`theorems.papers.ren.model`): Align = P[||f_A(x_A) - f_B(x_B)|| <
||f_A(x_A) - f_B(x_B')||], the positive pair against an independent negative, strict inequality. The data model's
sampler (``DataModel.sample``): z, z' uniform on {+-1}^r, the noises xi_A, xi_B, xi_B' uniform on {+-1}^d_xi, all
independent; x_B = B z + B_xi xi_B, x_B' = B z' + B_xi xi_B'.

For ANY maps f_A, f_B (any learner, width, step, time):

* on the event z' = z (probability 2^-r) the positive x_B and the negative x_B' are i.i.d. given x_A (same z,
  independent uniform noises), so the two distances D+, D- are i.i.d. given x_A: P[D+ < D-] = P[D- < D+] =
  (1 - p)/2 with p = P[D+ = D- | z' = z] the tie probability, and the failure probability there is (1 + p)/2;
* p >= P[xi_B = xi_B'] = 2^-d_xi (equal inputs, equal outputs), and p <= 1;
* on z' != z the failure probability q is anything in [0, 1].

So 1 - Align = 2^-r (1 + p)/2 + (1 - 2^-r) q with (p, q) in [2^-d_xi, 1] x [0, 1] -- a relaxation (every pair of
maps gives such a (p, q)) whose infimum 2^-(r+1) (1 + 2^-d_xi) is attained by linear maps of model (2): P_A = P_B
(q = 0 for a small enough noise part) and Q_A = Q_B = delta diag(1, 2, 4, ...) (||Q_A xi_A - Q_B xi_B||^2 =
4 delta^2 sum over the disagreeing coordinates k of 4^k: distinct for distinct xi_B, so ties only when xi_B = xi_B').
The two terms share no variable: :func:`numerics.reach.sum_infimum` bounds them apart (exact, sympy).
"""

from __future__ import annotations

import sympy

from theorems import Reach

r = sympy.Symbol("r", positive=True, integer=True)
r0 = sympy.Symbol("r0", positive=True, integer=True)
d_xi = sympy.Symbol("d_xi", positive=True, integer=True)
p_tie = sympy.Symbol("p_tie", real=True)  # P[D+ = D- | z' = z]
q_fail = sympy.Symbol("q_fail", real=True)  # P[D+ >= D- | z' != z]


def misalignment_terms(dim: sympy.Symbol) -> tuple[sympy.Expr, sympy.Expr]:
    """1 - Align as the sum of its two terms, on z' = z and on z' != z, for a latent dimension ``dim``."""
    return 2 ** (-dim) * (1 + p_tie) / 2, (1 - 2 ** (-dim)) * q_fail


def bound(r_value: int, d_xi_value: int) -> sympy.Rational:
    """The exact infimum 2^-(r+1) (1 + 2^-d_xi) of 1 - Align over all pairs of maps."""
    return sympy.Rational(1, 2 ** (r_value + 1)) * (1 + sympy.Rational(1, 2 ** d_xi_value))


def r0_for(eps: sympy.Rational, d_xi_value: int) -> int:
    """The least r with 2^-(r+1) (1 + 2^-d_xi) <= eps."""
    k = 1
    while bound(k, d_xi_value) > eps:
        k += 1
    return k


BOX = {p_tie: (2 ** (-d_xi), 1), q_fail: (0, 1)}
_TERMS = misalignment_terms(r)
_TERMS_R0 = misalignment_terms(r0)

#: Definition 4.1's eps is lost in this source; its admissible range is (0, 1/2) (line 56: 'aligned' is stronger than
#: a constant map's Align = 1/2), so a row refutes only if its certified infimum exceeds 1/2 (issue 39: a refutation
#: must follow from the statement, not from the checker's former eps = 0.05). The r tried are those that refuted at
#: 0.05 (r <= 3); the largest bound, 3/8 at r = 1, d_xi = 1, is below 1/2.
EPS_MAX = sympy.Rational(1, 2)
FIXED_EPS_R = (1, 2, 3)
D_XI_VALUES = (1, 5)  # the most ties (d_xi = 1) and the checker's models (d_xi = 5)

MISALIGNMENT = Reach(
    "1 - Align over every pair of maps f_A, f_B (any learner, width, step, time): 2^-r (1 + p)/2 + (1 - 2^-r) q, "
    "p = P[tie | z' = z] in [2^-d_xi, 1], q = P[fail | z' != z] in [0, 1]",
    sum(_TERMS), BOX, "eps", {"r": FIXED_EPS_R, "d_xi": D_XI_VALUES}, about="the learned maps f_A, f_B",
    terms=_TERMS, level_max=EPS_MAX)

#: the reading "r >= r0(eps)": the claim picks r0 after eps; the adversary's worst admissible r is r0 (the bound
#: decreases in r), so each configuration is a value of r0 the claim may choose -- never a refutation
MISALIGNMENT_R0 = Reach(
    "1 - Align over every pair of maps, at the adversary's worst admissible latent dimension r = r0: "
    "2^-r0 (1 + p)/2 + (1 - 2^-r0) q, p in [2^-d_xi, 1], q in [0, 1]",
    sum(_TERMS_R0), BOX, "eps", {"r0": (4, 5, 6), "d_xi": D_XI_VALUES}, about="the learned maps f_A, f_B",
    terms=_TERMS_R0, level_max=EPS_MAX)
