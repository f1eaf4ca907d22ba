"""The InfoNCE bound and the contrastive loss's gradient, as an outside clcheck plugin.

Sources: B. Poole, S. Ozair, A. van den Oord, A. Alemi, G. Tucker, "On Variational Bounds of Mutual
Information", ICML 2019 (arXiv:1905.06922), eq. (12): for any critic f and K i.i.d. pairs
(x_i, y_i) ~ p(x, y), I(X; Y) >= I_NCE = E[(1/K) sum_i log(e^{f(x_i, y_i)} / ((1/K) sum_j e^{f(x_i, y_j)}))],
and I_NCE <= log K. F. Wang and H. Liu, "Understanding the Behaviour of Contrastive Loss", CVPR 2021
(arXiv:2012.09740), Section 3.1: the contrastive loss L(x_i) = -log(e^{s_ii/tau} / sum_k e^{s_ik/tau})
has dL/ds_ii = -(1/tau) sum_{k != i} P_ik and dL/ds_ij = (1/tau) P_ij, P_ij = e^{s_ij/tau} / sum_k e^{s_ik/tau}.

It shows three public pieces: a labelled finite mixture (``Mixture``: (class, embedding) pairs are the
(Y, X) of the bound), an expectation over K independent draws (``over_draws``: exact over the multisets of
draws, in every backend) and a derivative in every backend (``xp.grad``: torch autograd, float64 through
torch, mpmath through dual numbers) -- so the gradient identity is checked against a derivative, not a
finite difference.
"""

import numpy as np
import sympy

from numerics.draws import over_draws
from theorems import Claim, Eq, Kind, Le, Paper, Plugin, Source, forall, parts, quantity
from theorems.subjects import Family, Given, Integer, Mixture, Scalar, Vector
from theorems.subjects.mixture import finite_mixture

PLUGIN = Plugin(Paper("infonce", "Poole et al. (2019) and Wang & Liu (2021): InfoNCE and the contrastive loss",
                      files=("arXiv:1905.06922", "arXiv:2012.09740")))


@quantity
def I_NCE(s, xp):
    """Poole et al. (12) on K i.i.d. pairs (z_i, c_i) ~ (f(x), class), critic t z^T mu_c."""
    F = s.t * (s.mixture.P @ xp.transpose(s.mixture.mu))[:, s.mixture.cls]  # F[a, b] = critic(z_a, c_b)

    def average(counts):  # (1/K) sum_i [F_ii - log((1/K) sum_j e^{F_ij})] over the multiset of draws
        a = np.flatnonzero(counts)
        share = xp.asarray(counts[a]) / s.K
        return xp.sum(share * (F[a, a] - xp.logsumexp(F[a][:, a] + xp.log(share)[None, :], axis=1)))
    return over_draws(xp, s.mixture.pi, s.K, average)


@quantity(range=(0, None))
def I_CZ(s, xp):
    """I(C; Z), Z = f(x) the embedding (equal embeddings are one value of Z), C its class."""
    m = s.mixture
    z = np.unique(finite_mixture(m).flat()[0], axis=0, return_inverse=True)[1].reshape(-1)
    cz = np.unique(np.stack([m.cls, z], axis=1), axis=0)  # the (c, z) pairs of positive mass
    joint = xp.asarray(((m.cls[None, :] == cz[:, :1]) & (z[None, :] == cz[:, 1:])).astype(float)) @ m.pi
    p_z = xp.asarray((z[None, :] == cz[:, 1:]).astype(float)) @ m.pi
    return xp.sum(joint * (xp.log(joint) - xp.log(m.rho[cz[:, 0]]) - xp.log(p_z)))


def _grad(s, xp):  # dL/ds_ik through the backend's derivative; L(x_i) on the row s_i., the positive s_ii first
    return xp.grad(lambda v, xq: xq.logsumexp(v / s.tau, axis=0) - v[0] / s.tau, s.sim)


def _P(s, xp):  # P_ik = e^{s_ik/tau} / sum_k e^{s_ik/tau}
    return xp.exp(s.sim / s.tau - xp.logsumexp(s.sim / s.tau, axis=0))


dL_ds_ii = quantity("dL_ds_ii", lambda s, xp: _grad(s, xp)[0])
dL_ds_ij = quantity("dL_ds_ij", lambda s, xp: _grad(s, xp)[s.j])
P_ij = quantity("P_ij", lambda s, xp: _P(s, xp)[s.j], range=(0, 1))
P_neg = quantity("P_neg", lambda s, xp: xp.sum(_P(s, xp)[1:]), range=(0, 1))  # sum_{k != i} P_ik

mixtures = Family("labelled mixtures with K draws", dims={},
                  parts={"mixture": Mixture(classes=(1, 3), dims=(1, 2), support=(1, 2)),
                         "K": Integer(2, 4), "t": Scalar(0.1, 5.0)},
                  quantities=(I_NCE, I_CZ))
rows = Family("rows of similarities", dims={"n": (2, 6)},
              parts={"sim": Vector("n"), "tau": Scalar(0.05, 2.0), "j": Given(lambda c: Integer(1, c["n"] - 1))},
              quantities=(dL_ds_ii, dL_ds_ij, P_ij, P_neg))
K, tau = mixtures.symbol("K"), rows.symbol("tau")
CRITIC = forall("f", "encoders: embeddings z = f(x) of the mixture's support points, and temperatures t > 0")
DRAWS = forall("K", "numbers K >= 2 of i.i.d. pairs (x_i, y_i) ~ p(x, y)")

PLUGIN.claim(Claim(
    "infonce.lower_bound", Kind.INEQUALITY, Source("arXiv:1905.06922", "eq. (12): I(X; Y) >= I_NCE"),
    parts(Le(I_NCE, I_CZ)), subjects=(mixtures,), prefix=(CRITIC, DRAWS),
    encoding="(X, Y) = (f(x), class) of a labelled finite mixture; critic f(z, c) = t z^T mu_c; exact over K draws."))
PLUGIN.claim(Claim(
    "infonce.log_k", Kind.INEQUALITY, Source("arXiv:1905.06922", "after eq. (12): I_NCE <= log K"),
    parts(Le(I_NCE, sympy.log(K))), subjects=(mixtures,), prefix=(CRITIC, DRAWS)))
ROW = forall("s", "rows of similarities s_i1..s_in (the positive first), temperatures tau > 0 and negatives j")
PLUGIN.claim(Claim("infonce.gradient.positive", Kind.IDENTITY, Source("arXiv:2012.09740", "Section 3.1, dL/ds_ii"),
                   parts(Eq(dL_ds_ii, -P_neg / tau)), subjects=(rows,), prefix=(ROW,)))
PLUGIN.claim(Claim("infonce.gradient.negative", Kind.IDENTITY, Source("arXiv:2012.09740", "Section 3.1, dL/ds_ij"),
                   parts(Eq(dL_ds_ij, P_ij / tau)), subjects=(rows,), prefix=(ROW,)))


def register(registry):
    """What the ``clcheck.claims`` entry point calls: the paper and its claims into ``registry``."""
    PLUGIN.register(registry)
