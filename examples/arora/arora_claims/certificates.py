"""sympy certificates for Lemma 4.3 of Arora et al. (2019), Section 4: the bound holds (upper side, modulo Jensen's
inequality and the law of total expectation) and it is attained (lower side: f constant on each class).

Proof of L^mu_sup(f) <= (L_un(f) - tau)/(1 - tau), as in Section 4: given the classes (c, c-), Jensen over x+ and x-
(l convex) gives E l(f(x)^T (f(x+) - f(x-))) >= E_x l(f(x)^T (mu_c - mu_{c-})); splitting on the event c = c-
(probability tau) gives (1 - tau) L^mu_sup(f) + tau l(0), and l(0) = 1. The certificates check the hypotheses
sympy can decide -- l convex, l(0) = 1 -- and name the two standard results they rest on.
"""

from __future__ import annotations

import sympy

from numerics.certificate import Certificate
from theorems import convex_by_second_derivative

JENSEN = "Jensen's inequality (a convex l, a finite expectation)"
TOTAL_EXPECTATION = "the law of total expectation over the event c = c- (probability tau)"
MAX_AFFINE = "a maximum of affine functions is convex"

_v, _a, _b, _t = sympy.symbols("v a b t", real=True)
#: the two losses of Section 4, as sympy expressions in v
LOSSES = {"hinge": sympy.Max(0, 1 - _v), "logistic": sympy.log(1 + sympy.exp(-_v)) / sympy.log(2)}


def _convex(loss: str) -> tuple[bool, dict[str, str], tuple[str, ...]]:
    """Whether sympy shows l convex, its details, and what it rests on."""
    if loss == "logistic":
        cert = convex_by_second_derivative(LOSSES[loss], _v, "log2(1 + e^-v)")
        return cert.ok, dict(cert.details), ()
    # hinge: t max(0, 1-a) + (1-t) max(0, 1-b) is >= each convex combination of the two affine pieces, and the
    # combination of the pieces 1 - a, 1 - b is the piece at t a + (1 - t) b
    piece = sympy.expand(_t * (1 - _a) + (1 - _t) * (1 - _b) - (1 - (_t * _a + (1 - _t) * _b))) == 0
    zero = sympy.expand(_t * 0 + (1 - _t) * 0) == 0
    return piece and zero, {"affine_piece": str(piece), "zero_piece": str(zero)}, (MAX_AFFINE,)


def lemma43_upper(loss: str) -> Certificate:
    """L^mu_sup(f) <= (L_un(f) - tau)/(1 - tau) for every f, every finite mixture with >= 2 classes: l convex
    (sympy) and l(0) = 1 (sympy), modulo Jensen and the law of total expectation."""
    convex, details, rests_on = _convex(loss)
    at_zero = sympy.simplify(LOSSES[loss].subs(_v, 0) - 1) == 0
    return Certificate(
        method="sympy (convexity, l(0) = 1) + named results",
        statement=f"{loss}: (1 - tau) L^mu_sup(f) + tau l(0) <= L_un(f), l convex, l(0) = 1",
        domain="every encoder f, every class distribution rho with >= 2 classes, every D_c",
        ok=bool(convex and at_zero), details={**details, "l(0) = 1": str(at_zero)},
        modulo=(JENSEN, TOTAL_EXPECTATION, *rests_on))


def _constant_encoder_gap(n_classes: int) -> sympy.Expr:
    """(L_un - tau)/(1 - tau) - L^mu_sup for f constant on each class (f = mu_c on D_c), symbolic rho (summing to 1)
    and symbolic loss values g_{kk'} = l(mu_k^T (mu_k - mu_k')), g_kk = l(0) = 1."""
    rho = list(sympy.symbols(f"rho1:{n_classes}", positive=True))
    rho.append(1 - sum(rho))
    g = {(k, j): (sympy.Integer(1) if k == j else sympy.Symbol(f"g{k}{j}", real=True))
         for k in range(n_classes) for j in range(n_classes)}
    tau = sum(r ** 2 for r in rho)
    l_un = sum(rho[k] * rho[j] * g[k, j] for k in range(n_classes) for j in range(n_classes))
    l_sup = sum(rho[k] * rho[j] * g[k, j] for k in range(n_classes) for j in range(n_classes) if k != j) / (1 - tau)
    return sympy.simplify((l_un - tau) / (1 - tau) - l_sup)


def lemma43_attained() -> Certificate:
    """Lemma 4.3 is an equality when f is constant on each class: x+ and x- are then fixed by their classes, so
    the Jensen step is an equality, and the rest is an identity in rho (checked for 2, 3 and 4 classes)."""
    gaps = {k: _constant_encoder_gap(k) for k in (2, 3, 4)}
    return Certificate(
        method="sympy (exact identity)",
        statement="(L_un - tau)/(1 - tau) = L^mu_sup for f constant on each class, any loss with l(0) = 1",
        domain="N_C = 2, 3, 4 classes, every rho, every class means (the attaining family)",
        ok=all(g == 0 for g in gaps.values()), details={str(k): str(g) for k, g in gaps.items()})
