"""Coq certificates of Ren & Li's Definition 4.2 facts (``coq/ren_balance.v``), for every rank r.

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

# the facts as balance_experiment's observations name them (an observation's config["fact"])
RANGE = "1 <= ||M||_F^2/||M||_2^2 <= rank M"
EQUAL = "equal nonzero singular values => stable rank = rank"
UNEQUAL = "unequal singular values => stable rank < rank"
RATIO = "sigma_1/sigma_r <= c => stable rank >= r/c^2"
POPULATION = "Cov(M w) = M M^T for w uniform on {+-1}^r (Bal = stable rank of M M^T)"


def _check(theorems: tuple[str, ...], statement: str, script: str | None = None, name: str = SCRIPT,
           modulo: tuple[str, ...] = ()) -> Certificate:
    text = script if script is not None else coq.packaged_script("theorems.papers.ren", SCRIPT)
    cert = coq.check_script(name, text, theorems, statement, "every rank r >= 1 (Coq, by induction on lists)",
                            coq_statements=coq.theorem_statements(text, theorems), check_theorems=THEOREMS)
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



PLUGIN.step_certificate("ren.stable_rank_range", stable_rank_range_step)
PLUGIN.step_certificate("ren.stable_rank_ratio", stable_rank_ratio_step)
