"""The K = 1 negative setting of Arora et al. (2019), Section 4, as an outside clcheck plugin.

Source: S. Arora, H. Khandeparkar, M. Khodak, O. Plevrakis, N. Saunshi, "A Theoretical Analysis of Contrastive
Unsupervised Representation Learning", ICML 2019 (arXiv:1902.09229), Section 4 (one negative sample), in its
standard presentation; the paper itself was not at hand, so only these statements are encoded:

* latent classes c ~ rho; x, x+ ~ D_c (the same class), x- ~ D_{c-}, with c, c- ~ rho independent;
  tau = P(c = c-) = sum_c rho_c^2;
* L_un(f) = E[l(f(x)^T (f(x+) - f(x-)))] for a convex non-increasing loss l: the hinge loss max(0, 1 - v) and the
  logistic loss log2(1 + e^-v), both with l(0) = 1;
* the mean classifier's supervised loss on two-class tasks, L^mu_sup(f) = E_{c+, c- ~ rho^2 | c+ != c-}
  E_{x ~ D_{c+}} l(f(x)^T (mu_{c+} - mu_{c-})), mu_c = E_{x ~ D_c} f(x);
* Lemma 4.3: L^mu_sup(f) <= (L_un(f) - tau)/(1 - tau) for every f, and the two steps of its proof: Jensen over x+
  and x- given their classes, and the split on c = c- whose term is l(0) = 1 (the same-class term alone is >= 1,
  Jensen again: f(x+) - f(x-) has mean 0 given equal classes).

Subjects: finite mixtures (``theorems.subjects.Mixture``): 1-4 classes (2-4 where L^mu_sup is defined), d = 1-3,
1-3 support points per class, rho uniform or with masses down to 1e-12, points at scales 1e-3 to 1e3. Every
expectation is a finite sum over the support points (no Monte Carlo): a triple sum over (x, x+, x-).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from arora_claims import certificates
from theorems import Assumption, Claim, Eq, Kind, Le, Paper, Plugin, Sharp, Source, forall, parts, quantity
from theorems.subjects import Family, Mixture

PLUGIN = Plugin(Paper("arora", "Arora et al. (2019), a theoretical analysis of contrastive unsupervised "
                               "representation learning: Section 4, one negative sample", files=("arXiv:1902.09229",)))
SOURCE = "arXiv:1902.09229"


# -- the losses of Section 4 (both convex, non-increasing, l(0) = 1) ----------------------------------------------
def hinge(v: Any, xp: Any) -> Any:
    """l(v) = max(0, 1 - v)."""
    return xp.maximum(1 - v, 0 * v)


def logistic(v: Any, xp: Any) -> Any:
    """l(v) = log2(1 + e^-v)."""
    return xp.softplus(-v) / xp.log(xp.asarray(2.0))


LOSSES: dict[str, Callable[[Any, Any], Any]] = {"hinge": hinge, "logistic": logistic}


# -- the expectations, as finite sums over the support points ----------------------------------------------------
def _same(cls: np.ndarray) -> np.ndarray:
    """1 where two support points have the same class."""
    return (cls[:, None] == cls[None, :]).astype(np.float64)


def _triples(s: Any, xp: Any, loss: str, same_negative: bool) -> Any:
    """E l(f(x)^T (f(x+) - f(x-))) over x ~ D_c (mass pi_a), x+ ~ D_c (w_b), x- ~ D_{c-} (pi_n), c, c- ~ rho;
    conditioned on c = c- when ``same_negative``. Index order [a, b, n] = (x, x+, x-)."""
    m = s.mixture
    G = m.P @ xp.transpose(m.P)
    v = G[:, :, None] - G[:, None, :]
    same = _same(m.cls)
    mask = same[:, :, None] * (same[:, None, :] if same_negative else np.ones_like(same)[:, None, :])
    weight = m.pi[:, None, None] * m.w[None, :, None] * m.pi[None, None, :] * xp.asarray(mask)
    return xp.sum(weight * LOSSES[loss](v, xp)) / xp.sum(weight)


def _mean_margins(s: Any, xp: Any) -> tuple[Any, Any]:
    """v[a, k] = f(x_a)^T (mu_{c_a} - mu_k) and the pair weights pi_a rho_k."""
    m = s.mixture
    S = m.P @ xp.transpose(m.mu)
    own = xp.sum(S * m.onehot, axis=1)
    return own[:, None] - S, m.pi[:, None] * m.rho[None, :]


def _l_sup(s: Any, xp: Any, loss: str) -> Any:
    """L^mu_sup: the pairs c+ = c_a, c- = k != c_a, normalized by P(c+ != c-) = sum_{k != k'} rho_k rho_k'."""
    v, weight = _mean_margins(s, xp)
    weight = weight * (1 - s.mixture.onehot)
    return xp.sum(weight * LOSSES[loss](v, xp)) / xp.sum(weight)


def _l_mean(s: Any, xp: Any, loss: str) -> Any:
    """E_{c, c- ~ rho^2} E_{x ~ D_c} l(f(x)^T (mu_c - mu_{c-})): the right side of the Jensen step."""
    v, weight = _mean_margins(s, xp)
    return xp.sum(weight * LOSSES[loss](v, xp))


@quantity(range=(0, 1))
def tau(s: Any, xp: Any) -> Any:
    """tau = sum_c rho_c^2."""
    return xp.sum(s.mixture.rho ** 2)


@quantity(range=(0, 1))
def P_same(s: Any, xp: Any) -> Any:
    """P(c = c-) with c ~ rho and x- ~ D_neg = sum_c rho_c D_c: E_{x-} rho(class of x-)."""
    m = s.mixture
    return xp.sum(m.pi * (m.onehot @ m.rho))


def _declare(loss: str) -> dict[str, Any]:
    return {
        "L_un": quantity(f"L_un_{loss}", lambda s, xp: _triples(s, xp, loss, False), range=(0, None)),
        "L_same": quantity(f"L_same_{loss}", lambda s, xp: _triples(s, xp, loss, True), range=(0, None)),
        "L_sup": quantity(f"L_sup_mu_{loss}", lambda s, xp: _l_sup(s, xp, loss), range=(0, None)),
        "L_mean": quantity(f"L_mean_{loss}", lambda s, xp: _l_mean(s, xp, loss), range=(0, None)),
    }


Q = {loss: _declare(loss) for loss in LOSSES}
_ALL = (tau, P_same, *(q for loss in LOSSES for q in Q[loss].values()))
_SAME_CLASS = (tau, P_same, *(Q[loss][k] for loss in LOSSES for k in ("L_un", "L_same")))

# natural ranges: 1-4 classes (2-4 where a two-class task exists), d = 1-3, 1-3 points per class, rho uniform or
# skewed down to 1e-12, points at scales 1e-3..1e3 (the Mixture defaults)
any_classes = Family("finite mixtures, 1-4 classes", dims={},
                     parts={"mixture": Mixture(classes=(1, 4), dims=(1, 3), support=(1, 3))}, quantities=_SAME_CLASS)
two_plus = Family("finite mixtures, 2-4 classes", dims={},
                  parts={"mixture": Mixture(classes=(2, 4), dims=(1, 3), support=(1, 3))}, quantities=_ALL)

TWO_CLASSES = Assumption("N_C >= 2", "two distinct classes exist (tau < 1), so that a two-class task c+ != c- and "
                         "L^mu_sup are defined (Section 4)", lambda s: s.mixture.n_classes >= 2)
MIXTURE = forall("(rho, D_c)", "class distributions rho > 0 and class-conditional distributions D_c (finite supports)")
ENCODER = forall("f", "encoders: their values f(x) in R^d on the support points")
LOSS = {"hinge": "the hinge loss l(v) = max(0, 1 - v)", "logistic": "the logistic loss l(v) = log2(1 + e^-v)"}


def _prefix(loss: str) -> tuple[Any, ...]:
    return (forall("l", LOSS[loss] + " (convex, non-increasing, l(0) = 1)"), MIXTURE, ENCODER)


PLUGIN.claim(Claim(
    "arora.tau", Kind.IDENTITY, Source(SOURCE, "Section 4: tau = P(c = c-) = sum_c rho(c)^2"),
    parts(Eq(P_same, tau)), subjects=(any_classes,), prefix=(MIXTURE,),
    encoding="P(c = c-) as the chance that c ~ rho equals the class of x- ~ D_neg = sum_c rho_c D_c (a sum over the "
             "support points), against sum_c rho_c^2."))

for loss in LOSSES:
    q = Q[loss]
    PLUGIN.claim(Claim(
        f"arora.same_class.{loss}", Kind.INEQUALITY,
        Source(SOURCE, "Section 4, proof of Lemma 4.3: the c = c- term, E l(f(x)^T (f(x+) - f(x-))) >= l(0) = 1"),
        parts(Le(1, q["L_same"]), labels=[f"1 <= L_un given c = c- ({loss})"]),
        subjects=(any_classes,), prefix=_prefix(loss),
        encoding="The unsupervised loss conditioned on c = c-: x, x+, x- i.i.d. from D_c, c ~ rho (weights "
                 "rho_c^2 / tau); by Jensen, f(x+) - f(x-) has mean 0 given x, so the term is >= l(0) = 1.",
        notes="Attained: hinge -- whenever every same-class v = f(x)^T (f(x+) - f(x-)) is <= 1 (l is affine there); "
              "logistic -- when f is constant on each class (v = 0)."))

    lemma = Le(q["L_sup"], (q["L_un"] - tau) / (1 - tau))
    label = f"L^mu_sup <= (L_un - tau)/(1 - tau) ({loss})"
    PLUGIN.claim(Claim(
        f"arora.lemma_4_3.{loss}", Kind.INEQUALITY,
        Source(SOURCE, "Lemma 4.3 (Section 4): for all f, L^mu_sup(f) <= (L_un(f) - tau)/(1 - tau)"),
        parts(lemma, labels=[label]), assumptions=(TWO_CLASSES,), subjects=(two_plus,), prefix=_prefix(loss),
        certificates=(lambda loss=loss: certificates.lemma43_upper(loss),),
        sharp=(Sharp(label, "(L_un - tau)/(1 - tau)", "the printed bound: attained (equality) for f constant on "
                     "each class, any rho and class means", certified=True, sides=lemma.args, bound=lemma.args,
                     certificates=(lambda loss=loss: certificates.lemma43_upper(loss), certificates.lemma43_attained)),),
        encoding="L^mu_sup over ordered pairs (c+, c-) ~ rho^2 given c+ != c-, x ~ D_{c+} (the average over two-class "
                 "tasks with the label uniform on the task); L_un over (x, x+, x-), one negative; exact finite sums.",
        notes="Equality when f is constant on each class (x+ and x- are then fixed by their classes): support-1 "
              "mixtures attain it."))

PLUGIN.claim(Claim(
    "arora.lemma_4_3.steps", Kind.INEQUALITY,
    Source(SOURCE, "Section 4, proof of Lemma 4.3: Jensen over x+, x- given the classes, then the split on c = c-"),
    parts(*(Le(Q[loss]["L_mean"], Q[loss]["L_un"]) for loss in LOSSES),
          *(Eq(Q[loss]["L_mean"], (1 - tau) * Q[loss]["L_sup"] + tau) for loss in LOSSES),
          labels=[*(f"Jensen: E l(f(x)^T (mu_c - mu_c-)) <= L_un ({loss})" for loss in LOSSES),
                  *(f"split: E l(f(x)^T (mu_c - mu_c-)) = (1 - tau) L^mu_sup + tau ({loss})" for loss in LOSSES)]),
    assumptions=(TWO_CLASSES,), subjects=(two_plus,),
    prefix=(forall("l", "the hinge and the logistic loss (one part each)"), MIXTURE, ENCODER),
    encoding="E_{c, c- ~ rho^2} E_{x ~ D_c} l(f(x)^T (mu_c - mu_{c-})), the c = c- terms l(0) = 1 included."))


def register(registry: Any) -> None:
    """What the ``clcheck.claims`` entry point calls: the paper and its claims into ``registry`` (importing this
    module registers nothing)."""
    PLUGIN.register(registry)
