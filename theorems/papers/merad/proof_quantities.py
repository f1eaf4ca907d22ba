"""The intermediate quantities of Merad et al.'s printed proofs, on finite mixtures.

Each is declared once against the backend (``formula(s, xp)``, ``s.mixture`` the subject's mixture arrays)
and passed to the finite-mixture families of the claim whose proof uses them (:data:`QUANTITIES`, the
``quantities=`` of :func:`theorems.papers.merad.mixtures.mixture_family`), so a proof step between them is
evaluated (float64, 60-digit mpmath, torch) exactly like a claim.

Notation (proof of Proposition 2 = 3.3, part (1)): zeta(t) = log(1 + e^t); for a class c, a
point x of D_c and a class c-, the logit a(x, c-) = f(x)^T (mu_{c-} - mu_c).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from theorems import quantity


def _logits(arr: Any) -> Any:
    """a[m, c-] = f(x_m)^T (mu_{c-} - mu_{c(m)}) for every support point m and class c-: (M, N_C)."""
    scores = arr.P @ arr.xp.transpose(arr.mu)  # f(x_m)^T mu_c
    own = arr.xp.stack([scores[m, int(arr.cls[m])] for m in range(arr.cls.size)])
    return scores - own[:, None]


def _rows_weighted(arr: Any, values: Any) -> Any:
    """E_{c ~ rho, x ~ D_c}[values[x]] = sum_m pi_m values[m]."""
    return arr.xp.sum(arr.pi * values)


def jensen_term(s: Any, xp: Any) -> Any:
    """E_{(c, c-) ~ rho^2, x ~ D_c} zeta(f(x)^T (mu_{c-} - mu_c)): L_un after Jensen's inequality."""
    arr = s.mixture
    return _rows_weighted(arr, xp.sum(xp.softplus(_logits(arr)) * arr.rho[None, :], axis=1))


def jensen_term_distinct(s: Any, xp: Any) -> Any:
    """The same expectation conditioned on c- != c."""
    arr = s.mixture
    n = arr.n_classes
    others = xp.asarray([[0.0 if c == cm else 1.0 for cm in range(n)] for c in arr.cls.tolist()])
    weights = others * arr.rho[None, :]
    per_point = xp.sum(xp.softplus(_logits(arr)) * weights, axis=1) / xp.sum(weights, axis=1)
    mass = xp.sum(arr.pi * xp.sum(weights, axis=1))  # P(c- != c) = 1 - tau+
    return xp.sum(arr.pi * xp.sum(weights, axis=1) * per_point) / mass


def subset_sum(s: Any, xp: Any) -> Any:
    """E over (c, x ~ D_c) and a uniform k-subset {c_1..c_k} of C minus {c} of sum_i zeta(a(x, c_i))."""
    return _over_subsets(s, xp, lambda a: xp.sum(xp.softplus(a)))


def subset_lse(s: Any, xp: Any) -> Any:
    """The same with log(1 + sum_i exp(a(x, c_i))) = zeta(LSE_i a(x, c_i)) inside."""
    return _over_subsets(s, xp, lambda a: xp.softplus(xp.logsumexp(a, axis=0)))


def _over_subsets(s: Any, xp: Any, inside: Any) -> Any:
    arr = s.mixture
    n, k = arr.n_classes, s.k
    logits = _logits(arr)
    values = []
    for m in range(arr.cls.size):
        c = int(arr.cls[m])
        others = [cm for cm in range(n) if cm != c]
        subsets = list(itertools.combinations(others, k))
        total = xp.asarray(0.0)
        for subset in subsets:
            total = total + inside(xp.gather(logits[m], list(subset)))
        values.append(total / math.comb(n - 1, k))
    return _rows_weighted(arr, xp.stack(values))


J = quantity("J_jensen", jensen_term, range=(0, None), doc="E zeta(f(x)^T (mu_c- - mu_c)) over (c, c-) ~ rho^2")
J_distinct = quantity("J_distinct", jensen_term_distinct, range=(0, None), doc="the same given c- != c")
S_k = quantity("S_k", subset_sum, range=(0, None), doc="E sum_i zeta(a(x, c_i)) over k-subsets")
T_k = quantity("T_k", subset_lse, range=(0, None), doc="E log(1 + sum_i e^a(x, c_i)) over k-subsets")

#: the quantities of the proof of Proposition 2 (1), for the families of merad.prop1.part1
QUANTITIES = (J, J_distinct, S_k, T_k)
