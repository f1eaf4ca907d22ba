"""Real vectors x in R^n for the log-sum-exp facts used in the proofs of Lemmas 1 and 2.

A composed :class:`~theorems.subjects.Family` (:func:`Vectors`): the size n (or n_pairs, x in R^{2 n_pairs}),
the part ``x`` (a :class:`~theorems.subjects.reals.WideVector`: entries from tiny to 1e300 -- exp
overflows in naive float code at 710) and, for the restriction fact, a non-empty subset ``S`` of the
indices given n (a :class:`~theorems.subjects.mixture.Subset`).
"""

from __future__ import annotations

from typing import Any

from theorems import quantity
from theorems.subjects.compose import Family
from theorems.subjects.mixture import Subset
from theorems.subjects.parts import Given
from theorems.subjects.reals import WideVector


def _length(s: Any) -> int:
    return int(s.x.shape[0])


def _pairs(s: Any, xp: Any) -> Any:
    return xp.logsumexp(s.x.reshape(_length(s) // 2, 2), axis=1)


# -- log-sum-exp facts (proofs of Lemmas 1 and 2 of Merad et al.): a vector x in R^n ---------------
n = quantity("n", lambda s, xp: xp.asarray(_length(s)), integer=True, range=(1, None), doc="the length of x")
max_x = quantity("max_x", lambda s, xp: xp.max(s.x), doc="max_i x_i")
lse_x = quantity("lse_x", lambda s, xp: xp.logsumexp(s.x, axis=0), doc="LSE(x) = log sum_i e^{x_i}")
lse_pairs = quantity("lse_pairs", lambda s, xp: xp.logsumexp(_pairs(s, xp), axis=0),
                     doc="LSE(LSE(x1,x2), ..., LSE(x_{2n-1},x_{2n}))")
n_pairs = quantity("n_pairs", lambda s, xp: xp.asarray(_length(s) // 2), integer=True, range=(1, None),
                   doc="x in R^{2n}: n pairs")
max_pair_lse = quantity("max_pair_lse", lambda s, xp: xp.max(_pairs(s, xp)), doc="max_j LSE(x_{2j-1}, x_{2j})")
lse_x_S = quantity("lse_x_S", lambda s, xp: xp.logsumexp(s.x[list(s.S)], axis=0), doc="LSE of the restriction x_S")


def Vectors(max_len: int = 10, even: bool = False, with_subset: bool = False) -> Family:
    """Random vectors of length 1..``max_len``; ``even``: x in R^{2 n_pairs} (the pairwise fact, n_pairs up to
    max_len // 2); ``with_subset``: a non-empty index set S (the restriction fact)."""
    size = "n_pairs" if even else "n"
    parts: dict[str, Any] = {"x": WideVector(size, factor=2 if even else 1)}
    quantities = [n, max_x, lse_x]
    if even:
        quantities += [n_pairs, lse_pairs, max_pair_lse]
    if with_subset:
        if even:
            raise ValueError("Vectors(even=True, with_subset=True): S indexes the entries of x; use one of the two")
        parts["S"] = Given(lambda c: Subset(c["n"]))
        quantities.append(lse_x_S)
    return Family("random vectors" + (" (even length)" if even else ""),
                  dims={size: (1, max_len // 2 if even else max_len)}, parts=parts, quantities=quantities)


__all__ = ["Vectors", "lse_pairs", "lse_x", "lse_x_S", "max_pair_lse", "max_x", "n", "n_pairs"]
