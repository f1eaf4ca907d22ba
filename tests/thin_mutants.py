"""Thin false statements: shipped inequalities with a constant moved 1-3 % past its sharp value (issue 29).

Each mutant keeps one part of a shipped claim, its subject families and hypotheses, and moves one constant
just past the value where the inequality stops holding; its *twin* moves the same constant 2-5 % to the safe
side, where the statement is still true. A search with the power the checker promises refutes every mutant on
every audit seed and never its twin. ``benchmarks/run.py --only search`` measures the fraction refuted and the time
to the first refutation against the search without the tightness pass. (The search-power test,
``tests/test_search_power.py``, takes its cases from `clcheck mutate` instead: issue 40.)

Test data about the shipped claims, kept with the tests: the tests import it from here (none imports
``benchmarks/``), and ``benchmarks/bench_search.py`` puts ``tests/`` on its path to read it.

A mutant claim carries no certificate, reading, recorded witness or sharp constant of the shipped claim, and only
its drawn subject families (learned snapshots are fixed data the search does not move, and would cost training
runs): only the search decides it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

import sympy
from sympy import Rational, sqrt

from theorems import StatementClaim, get


@dataclass(frozen=True)
class ThinMutant:
    """One shipped part with a constant moved: ``relation(factor)`` builds it; ``mutant`` is the factor past the
    sharp value (false), ``twin`` the factor on the safe side (true); ``why`` says where it fails and ``sharp``
    gives the sharp value."""

    name: str
    claim: str
    part: str
    relation: Callable[[Any], sympy.core.relational.Relational]
    mutant: Any
    twin: Any
    why: str
    sharp: str

    def claim_with(self, factor: Any, role: str) -> StatementClaim:
        """The shipped claim reduced to this part, with ``factor`` in place of the printed constant."""
        shipped = get(self.claim)
        part = next(p for p in shipped.statement if str(p) == self.part)  # its own applies= and informative= kept
        drawn = tuple(f for f in shipped.subjects if f.origin != "learned")  # the search's space: no training runs
        return dataclasses.replace(
            shipped, id=f"{self.claim}.{role}.{self.name}", subjects=drawn,
            statement=(dataclasses.replace(part, relation=self.relation(factor), label=f"{self.part} [{role}]"),),
            certificates=(), known_refutation=None, readings=(), sharp=(), vacuity=(), unsatisfiable=(),
            artifacts=(), notation_slip="", derived="")

    def false(self) -> StatementClaim:
        return self.claim_with(self.mutant, "mutant")

    def true(self) -> StatementClaim:
        return self.claim_with(self.twin, "twin")


def _sides(claim_id: str, label: str) -> tuple[Any, Any]:
    part = next(p for p in get(claim_id).statement if str(p) == label)
    return part.relation.lhs, part.relation.rhs


def _scaled(claim_id: str, label: str, term: Callable[[dict[str, Any]], Any]) -> Callable[[Any], Any]:
    """The part with ``term`` (a sub-expression of its relation, built from its symbols by name) multiplied by
    the factor."""
    def build(factor: Any) -> Any:
        part = next(p for p in get(claim_id).statement if str(p) == label)
        old = term({s.name: s for s in part.relation.free_symbols})
        rel = part.relation.xreplace({old: factor * old})
        if rel == part.relation and factor != 1:
            raise ValueError(f"{claim_id}: {old} does not occur in {label!r}")
        return rel
    return build


def _theorem4(factor: Any) -> Any:
    """mu_k^T mu_l <= sqrt(c/(p_k p_l) (L_2 + tau - (d - K)/2)) with c = ``factor``."""
    from theorems.papers.huang import subjects as aq
    return sympy.Le(aq.th4_dot, sqrt(factor / (aq.th4_pk * aq.th4_pl) * (aq.L2_cc + aq.tau_bt - (aq.d_dim - aq.K_cls) / 2)),
                    evaluate=False)


def _variance(factor: Any) -> Any:
    from theorems.papers.merad import coupons as cp
    return sympy.Le(cp.Var_T, factor * (cp.N_C * sympy.pi) ** 2 / 6, evaluate=False)


def _hessian(factor: Any) -> Any:
    """||Hess l|| <= factor * lambda(C) (mutant) or factor * (1.5 C^2 + sqrt 2) (twin: factor > 1)."""
    from theorems.papers.merad import triplets as tp
    bound = (3 * tp.C ** 2 + sqrt(9 * tp.C ** 4 + 8)) / 4 if factor < 1 else Rational(3, 2) * tp.C ** 2 + sqrt(2)
    return sympy.Le(tp.hess_norm, factor * bound, evaluate=False)


def _theorem1_step(factor: Any) -> Any:
    from theorems.papers.huang import subjects as aq
    return sympy.Ge(aq.L_align, factor * aq.eps_s ** 2 * aq.R_eps / aq.A_size ** 2, evaluate=False)


LSE_UPPER = "LSE(x) <= max(x) + log n"
MUTANTS = (
    ThinMutant("lse_log_n", "merad.lse.max_bounds", LSE_UPPER, _scaled("merad.lse.max_bounds", LSE_UPPER, lambda s: sympy.log(s["n"])),
               Rational(98, 100), Rational(103, 100),
               "LSE(x) = max(x) + log n when the n entries are equal; 0.98 log n fails within ~1e-2 of equality",
               "1 (equality at equal entries)"),
    ThinMutant("lse_pairs_log", "merad.lse.pairwise", "LSE(LSE pairs) <= max_j LSE(pair j) + log n",
               _scaled("merad.lse.pairwise", "LSE(LSE pairs) <= max_j LSE(pair j) + log n", lambda s: sympy.log(s["n_pairs"])),
               Rational(98, 100), Rational(103, 100), "equality when every pair has the same LSE", "1"),
    ThinMutant("lemma7_two_x", "merad.lemma7.steps", "x/(1-x) <= 2x on [0,1/2]",
               _scaled("merad.lemma7.steps", "x/(1-x) <= 2x on [0,1/2]", lambda s: 2 * s["x"]), Rational(985, 1000), Rational(103, 100),
               "x/(1-x) = 2x at x = 1/2; 1.97x fails only on (0.4924, 0.5]", "2 (attained at x = 1/2)"),
    ThinMutant("lemma7_log", "merad.lemma7.steps", "-log(1-x) <= x/(1-x) on [0,1)",
               _scaled("merad.lemma7.steps", "-log(1-x) <= x/(1-x) on [0,1)", lambda s: s["x"] / (1 - s["x"])), Rational(98, 100),
               Rational(103, 100), "-log(1-x) / (x/(1-x)) -> 1 as x -> 0; 0.98 fails for x below ~0.04",
               "1 (the limit at x = 0)"),
    ThinMutant("trace_factor", "huang.barlow.trace_bound",
               "||sum p mu mu^T - I_d||^2 >= p_k p_l (mu_k^T mu_l)^2 + d - K (every k != l)",
               _scaled("huang.barlow.trace_bound",
                       "||sum p mu mu^T - I_d||^2 >= p_k p_l (mu_k^T mu_l)^2 + d - K (every k != l)", lambda s: s["max_pair_pp_dot_sq"]),
               Rational(204, 100), Rational(195, 100),
               "the factor 2 is attained (K = 2, every other term of the double sum zero); 2.04 fails near there",
               "2 (certified both sides)"),
    ThinMutant("lemma2_constant", "huang.lemma2", "L_positive <= 2 sqrt(d L_1)",
               _scaled("huang.lemma2", "L_positive <= 2 sqrt(d L_1)", lambda s: 2 * sqrt(s["L1_CrossCorr"] * s["d"])), Rational(98, 100), Rational(103, 100),
               "Cauchy-Schwarz is an equality when the 1 - C_ii are equal", "2"),
    ThinMutant("theorem4_c", "huang.theorem4", "mu_k^T mu_l <= sqrt(2/(p_k p_l) (L_2 + tau - (d - K)/2))", _theorem4,
               Rational(735, 1000), Rational(102, 100),
               "a constant encoder needs c = 3/4 (sharp_constants.theorem4_encoder_witness); c = 1 is certified",
               "in [3/4, 1] for encoders (3/4 an estimate)"),
    ThinMutant("coupon_variance", "merad.coupon.variance", "Var(T) = (N_C pi)^2/6", _variance, Rational(98, 100),
               Rational(102, 100), "Var(T) / (N_C pi)^2/6 = (H2 - H/N_C) 6/pi^2 -> 1 (0.995 at N_C = 1000)",
               "1 (the limit N_C -> oo)"),
    ThinMutant("lemma1_scale", "merad.lemma1", "L^mu_sup(f,C) <= L_un(f)/p_min + log N_C",
               _scaled("merad.lemma1", "L^mu_sup(f,C) <= L_un(f)/p_min + log N_C", lambda s: s["L_un"] / s["p_min"]), Rational(98, 100),
               Rational(103, 100), "N_C = 2, one point per class, large scale: the ratio tends to 1",
               "1 (the large-scale limit)"),
    ThinMutant("prop1_k", "merad.prop1.part2", "L^mu_sup,k <= k/(1-tau+_N) (L^N_un - tau+_N log(N+1))",
               _scaled("merad.prop1.part2", "L^mu_sup,k <= k/(1-tau+_N) (L^N_un - tau+_N log(N+1))", lambda s: s["k"]),
               Rational(99, 100), Rational(103, 100), "an equality at f = 0, k = 1, N = 1 (both sides log 2)",
               "1 (attained at f = 0)"),
    ThinMutant("lemma3_hessian", "merad.lemma3", "||Hess l(z)|| <= 2 + 8C^2 on B^3 (the proof's route to (12))",
               _hessian, Rational(98, 100), Rational(102, 100),
               "||Hess l|| = lambda(C) at z1 = C e1, z2 = C e2, z3 = -C e2 (certified); the twin is 1.02 (1.5C^2 + sqrt 2)",
               "sup in [lambda(C), 1.5C^2 + sqrt 2]"),
    ThinMutant("theorem1_step", "huang.theorem1", "L_align >= 2 eps^2 R_eps / |A|^2 (the combinatorial step)",
               _theorem1_step, Rational(204, 100), Rational(195, 100),
               "equality as the far pair's distance tends to eps with every other pair at 0", "2 (a supremum, not attained)"),
)

# mutants the search does not yet refute on every audit seed 0-4, kept for the benchmark and left out of the test: none
# (theorem1_step became certain once eps and delta are drawn on both sides of each distance where S_eps or the
# cliques change -- before, the side below depended on how a distance rounded; trace_factor is found at 1.004-1.012
# of its mutant bound on every seed)
OPEN: tuple[str, ...] = ()
