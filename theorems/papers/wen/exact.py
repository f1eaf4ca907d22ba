"""Wen & Li: the claims that need no training -- exact second moments under the masks, certified
(Hoeffding) bounds for Lemma B.3, and sympy certificates -- with Monte Carlo only as a cross-check.

* Lemma B.3: e_jj' = <M_j, (2D - I) M_j'> = sum_k (2 D_k - 1) M_jk M_j'k is a Rademacher sum with
  variance proxy s2_jj' = sum_k M_jk^2 M_j'k^2 <= ||M_j||_inf^2 (Cauchy-Schwarz with ||M_j'|| = 1);
  Hoeffding: P(|e_jj'| >= t) <= 2 exp(-t^2 / (2 s2_jj')), so with probability >= 1 - delta every pair
  obeys |e_jj'| <= sqrt(2 s2_max log(2 P / delta)) (union over the P pairs).
* Stage I (bias 0, the learner linear): the expected positive-pair gradient of neuron w is K w,
  K = E[x+ x++^T] = Sigma - diag(Sigma) with the masks (E[D_k (1 - D_l)] = (1 - delta_kl)/4),
  K = Sigma without augmentation.
* Mask decorrelation: D (I - D) = 0 for every 0/1 diagonal D, so given D the two masked noise
  vectors of a Gaussian with diagonal covariance have zero cross-covariance: independent.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import sympy as sp

from theorems import MIN_SEEDS
from theorems.papers.wen.model import Data, mask_moment, masks, rates

LEMMA_DIMS = (100, 200, 400, 800, 1600)
QUICK_LEMMA_DIMS = (100, 400, 1600)
INF_LIMIT = 3.0  # regime: ||M||_max sqrt(d / log d) <= 3 ("||M_j||_inf <= O~(1/sqrt d)")
GROWTH_LIMIT = 0.1  # "stays bounded": fitted exponent of the scaled bound in d at most 0.1


def atoms_for(d: int) -> int:
    """d1 = d / 8 atoms in the lemma's dictionaries (the ratio of the training model, 6/64 ~ 1/10)."""
    return max(2, d // 8)


def coordinate_dictionary(d: int, d1: int) -> np.ndarray:
    """The contrast outside the regime: atoms equal to coordinate vectors (||M_j||_inf = 1)."""
    M = np.zeros((d, d1))
    M[np.arange(d1), np.arange(d1)] = 1.0
    return M


def z_radius(tests: int, alpha: float = 1e-3) -> float:
    """The |z| radius of a Monte Carlo cross-check over ``tests`` entries with familywise false-alarm
    rate ``alpha`` per seed (Bonferroni, two-sided normal)."""
    from scipy.special import ndtri  # heavy (0.15 s): scipy.special, only the Monte Carlo radius

    return float(ndtri(1.0 - alpha / (2.0 * tests)))


# == Lemma B.3 ======================================================================================
#: "with high probability" (Notations: "with probability at least [lost]"), two readings: 1 - 1/d (the
#: weakest 1 - 1/poly(d)) and 1 - exp(-log^2 d) (the convention of Allen-Zhu & Li); the polylog factor
#: the Hoeffding bound then carries is sqrt(log(1/delta)) = sqrt(log d), resp. log d
WHP = {"1/d": (lambda d: 1.0 / d, lambda d: math.sqrt(math.log(d))),
       "exp(-log^2 d)": (lambda d: math.exp(-math.log(d) ** 2), lambda d: math.log(d))}
MC_SEEDS = MIN_SEEDS  # the Monte Carlo cross-checks are read over as many seeds as a verdict needs
ALPHA = 1e-3  # a cross-check fails a seed when its count is this improbable under the certified bound


def lemma_b3_stats(M: np.ndarray) -> dict[str, Any]:
    """The exact variance proxies of e_jj' = <M_j, (2D - I) M_j'>: s2[j, j'] = sum_k M_jk^2 M_j'k^2."""
    d, d1 = M.shape
    sq = M ** 2
    s2 = sq.T @ sq
    return {"d": d, "d1": d1, "pairs": d1 * (d1 + 1) // 2, "s2": s2, "s2max": float(s2.max()),
            "inf_norm": float(np.abs(M).max()), "inf_scaled": float(np.abs(M).max() * math.sqrt(d / math.log(d)))}


def lemma_b3_bound(stats: dict[str, Any], delta: float, uniform: bool) -> float:
    """Hoeffding: P(|e_jj'| >= t) <= 2 exp(-t^2 / (2 s2_jj')). Per pair (``uniform`` False) each pair
    is within sqrt(2 s2_jj' log(2 / delta)) <= the returned bound with probability >= 1 - delta; uniform:
    every pair at once within sqrt(2 s2_max log(2 P / delta)) (union over the P pairs, j = j' included)."""
    events = stats["pairs"] if uniform else 1
    return math.sqrt(2.0 * stats["s2max"] * math.log(2.0 * events / delta))


def lemma_b3_draws(M: np.ndarray, n: int, seed: int) -> dict[str, np.ndarray]:
    """n masks from the seed: per draw max_{j,j'} |e_jj'| and the whole |e| matrix's per-pair counts of
    exceeding the pair's own per-pair bound at delta = 1/d (the literal, per-pair reading)."""
    d, d1 = M.shape
    rng = np.random.default_rng([seed, 31, d])
    s2 = (M ** 2).T @ (M ** 2)
    own = np.sqrt(2.0 * s2 * math.log(2.0 * d))  # per pair, delta = 1/d
    maxima, counts = np.empty(n), np.zeros((d1, d1))
    for i in range(n):
        eps = 2.0 * masks(1, d, rng)[0] - 1.0
        e = np.abs(M.T @ (eps[:, None] * M))
        maxima[i] = e.max()
        counts += e > own
    return {"maxima": maxima, "pair_max_count": float(np.triu(counts).max())}


def binomial_tail(n: int, k: int, p: float) -> float:
    """P(Binomial(n, p) >= k)."""
    from scipy.stats import binom  # heavy (0.5 s): scipy.stats, only this tail

    return 1.0 if k <= 0 else float(binom.sf(k - 1, n, min(1.0, p)))


def certificate_lemma_b3() -> dict[str, Any]:
    """sympy: (a) E[2 D_k - 1] = 0 and (2 D_k - 1)^2 = 1 for D_k in {0, 1} (Rademacher signs);
    (b) sum_k a_k^2 b_k^2 <= max_k a_k^2 sum_k b_k^2 (the variance proxy bound), as the identity
    max a^2 sum b^2 - sum a^2 b^2 = sum (max a^2 - a_k^2) b_k^2 with nonnegative terms (d = 4);
    (c) Hoeffding's inequality for Rademacher sums (a theorem, cited: Hoeffding 1963, Thm 2)."""
    signs = [2 * v - 1 for v in (0, 1)]
    rademacher = sum(signs) == 0 and all(s ** 2 == 1 for s in signs)
    a = sp.symbols("a0:4", real=True)
    b = sp.symbols("b0:4", real=True)
    A = sp.Symbol("A", nonnegative=True)  # A = max_k a_k^2
    gap = A * sum(bk ** 2 for bk in b) - sum(ak ** 2 * bk ** 2 for ak, bk in zip(a, b))
    terms = sum((A - ak ** 2) * bk ** 2 for ak, bk in zip(a, b))
    variance = sp.expand(gap - terms) == 0
    return {"rademacher": bool(rademacher), "variance_identity": bool(variance),
            "holds": bool(rademacher and variance)}


def certificate_lemma_b3_every_d(uniform: bool, whp: str) -> dict[str, Any]:
    """sympy, for a symbolic d >= 2 (issue 38): the polylog factor of the Hoeffding bound under a reading.

    With probability >= 1 - delta (Hoeffding, cited; a union over the P <= d1^2 <= d^2 pairs when ``uniform``),
    |e_jj'| <= sqrt(2 s2_jj' log(2 P / delta)) and s2_jj' <= ||M_j||_inf^2 ||M_j'||_2^2 = ||M_j||_inf^2
    (:func:`certificate_lemma_b3`, termwise: every d). So |e_jj'| <= ||M_j||_inf sqrt(2 lam(d)) with lam(d) >=
    log(2 P / delta), where, with L = log(2d): lam = L (per pair, delta = 1/d), 3 L (uniform, delta = 1/d),
    (1 + L)^2 (uniform, delta = exp(-log^2 d)). Checked here: log(2 P / delta) <= lam(d) at the largest P, for every
    d >= 1 (the difference is a positive expression in log d >= 0). With the premise ||M_j||_inf <= C_M
    log^k(d)/sqrt(d), |e_jj'| <= sqrt(2) C_M log^k(d) sqrt(lam(d)) / sqrt(d) (sqrt(6) C_M when uniform with
    delta = 1/d): O~(1/sqrt d) with a constant of C_M alone, every dictionary of the premise, every d."""
    ell = sp.Symbol("ell", nonnegative=True)  # log d, d >= 1
    L = sp.log(2) + ell  # log(2d)
    events = 2 * ell if uniform else sp.Integer(0)  # log P at P = d^2 (uniform) or P = 1
    log_inv_delta = {"1/d": ell, "exp(-log^2 d)": ell ** 2}[whp]  # log(1/delta)
    log_term = sp.log(2) + events + log_inv_delta  # log(2 P / delta)
    lam = {(False, "1/d"): L, (True, "1/d"): 3 * L, (True, "exp(-log^2 d)"): (1 + L) ** 2,
           (False, "exp(-log^2 d)"): (1 + L) ** 2}[(uniform, whp)]
    gap = sp.expand(lam - log_term)
    dominated = gap == 0 or bool(gap.is_nonnegative)
    variance = certificate_lemma_b3()["holds"]
    return {"log(2P/delta)": str(log_term), "lam(d)": str(lam), "lam - log(2P/delta)": str(gap),
            "dominated": bool(dominated), "variance_proxy": bool(variance), "holds": bool(dominated and variance),
            "constant": "sqrt(6) C_M" if uniform and whp == "1/d" else "sqrt(2) C_M"}


# == stage I: exact second moments ==================================================================
def certificate_mask_moment(d: int = 3) -> dict[str, Any]:
    """sympy: E_D[(2 D x)(2 (I - D) x)^T] = S - diag(S) for a symbolic symmetric S = E[x x^T],
    averaging over all 2^d masks (d = 3), and the per-pair factor E[4 D_k (1 - D_l)] = 1 - delta_kl."""
    S = sp.Matrix(d, d, lambda i, k: sp.Symbol(f"S{min(i, k)}{max(i, k)}", real=True))
    acc = sp.zeros(d, d)
    for bits in itertools.product((0, 1), repeat=d):
        Dm = sp.diag(*bits)
        acc += 2 * Dm * S * 2 * (sp.eye(d) - Dm)
    K = acc / 2 ** d
    target = S - sp.diag(*[S[i, i] for i in range(d)])
    moment = all(sp.simplify(e) == 0 for e in (K - target))
    off_diagonal = sp.Rational(sum(4 * dk * (1 - dl) for dk, dl in itertools.product((0, 1), repeat=2)), 4)
    on_diagonal = sp.Rational(sum(4 * dk * (1 - dk) for dk in (0, 1)), 2)
    factor = off_diagonal == 1 and on_diagonal == 0
    return {"moment": bool(moment), "factor": bool(factor), "holds": bool(moment and factor)}


def certificate_noise_cancels() -> dict[str, Any]:
    """sympy: for Sigma = p M M^T + s I (M symbolic, d = 3, d1 = 2) the masked moment is
    p (M M^T - diag(M M^T)): the isotropic noise cancels exactly; without masks the rate along a
    unit column M_j is p + s (M^T M = I) and along a unit v orthogonal to M it is s."""
    p, s = sp.symbols("p s", positive=True)
    M = sp.Matrix(3, 2, lambda i, j: sp.Symbol(f"m{i}{j}", real=True))
    S = p * M * M.T + s * sp.eye(3)
    K = S - sp.diag(*[S[i, i] for i in range(3)])
    MMt = M * M.T
    cancels = all(sp.expand(e) == 0 for e in (K - p * (MMt - sp.diag(*[MMt[i, i] for i in range(3)]))))
    # without masks: u^T S u = p |M^T u|^2 + s |u|^2
    u = sp.Matrix(sp.symbols("u0:3", real=True))
    quad = sp.expand((u.T * S * u)[0, 0] - p * (M.T * u).dot(M.T * u) - s * u.dot(u)) == 0
    return {"noise_cancels": bool(cancels), "quadratic_form": bool(quad), "holds": bool(cancels and quad)}


def monte_carlo_moment(data: Data, n: int, rng: np.random.Generator) -> dict[str, float]:
    """Cross-check: the sample mean of x+ x++^T against Sigma - diag(Sigma), in units of the
    per-entry standard error (max over entries)."""
    x, _, _ = data.sample(n, rng)
    D = masks(n, data.d, rng)
    xp, xpp = 2.0 * D * x, 2.0 * (1.0 - D) * x
    est = xp.T @ xpp / n
    K = mask_moment(data.cov())
    # per-entry standard error from the sample second moment of the products
    se = np.sqrt(np.maximum((xp ** 2).T @ (xpp ** 2) / n - est ** 2, 1e-300) / n)
    z = np.abs(est - K) / se
    est0 = x.T @ x / n
    se0 = np.sqrt(np.maximum((x ** 2).T @ (x ** 2) / n - est0 ** 2, 1e-300) / n)
    z0 = np.abs(est0 - data.cov()) / se0
    return {"n": n, "max_z_masks": float(z.max()), "max_z_none": float(z0.max()),
            "max_abs_masks": float(np.abs(est - K).max())}


def stage1_table(configs: list[Data]) -> list[dict[str, Any]]:
    rows = []
    for data in configs:
        r = rates(data)
        p, s2 = data.p, data.sigma ** 2
        rows.append({"d": data.d, "d1": data.d1, "kappa": data.kappa, "noise": data.noise, "excess": data.excess,
                     "p": p, "sigma2": s2,
                     "sparse_min_masks": r["masks"]["sparse_min"], "sparse_max_masks": r["masks"]["sparse_max"],
                     "dense_max_masks": r["masks"]["dense_max"], "eig_error_masks": r["masks"]["eig_error"],
                     "leak_masks": r["masks"]["leak"],
                     "top_share_masks": r["masks"]["top_sparse_share"],
                     "sparse_none": r["none"]["sparse_min"], "dense_none": r["none"]["dense_max"],
                     "ratio_none": r["none"]["dense_max"] / r["none"]["sparse_min"],
                     "top_share_none": r["none"]["top_sparse_share"]})
    return rows


# == mask decorrelation ==============================================================================
def certificate_conditional_independence(d: int = 3) -> dict[str, Any]:
    """sympy: for every 0/1 diagonal D (all 2^d, d = 3) and symbolic diagonal noise covariance
    V = diag(v): Cov(2 D xi, 2 (I - D) xi | D) = 4 D V (I - D) = 0 (jointly Gaussian given D, so
    independent given D); and with a symbolic full covariance the same product is not 0 in general
    (the masks decouple only independent coordinates)."""
    v = sp.symbols(f"v0:{d}", positive=True)
    V = sp.diag(*v)
    C = sp.Matrix(d, d, lambda i, k: sp.Symbol(f"c{min(i, k)}{max(i, k)}", real=True))
    zero, full_zero = True, True
    for bits in itertools.product((0, 1), repeat=d):
        Dm = sp.diag(*bits)
        zero &= (4 * Dm * V * (sp.eye(d) - Dm)) == sp.zeros(d, d)
        full_zero &= (4 * Dm * C * (sp.eye(d) - Dm)) == sp.zeros(d, d)
    return {"diagonal_noise_decoupled": bool(zero), "correlated_noise_decoupled": bool(full_zero),
            "holds": bool(zero and not full_zero)}


def certificate_norm_covariance() -> dict[str, Any]:
    """sympy: per coordinate k, with D_k ~ Bernoulli(1/2) independent of xi_k ~ N(0, s) (E xi^2 = s,
    E xi^4 = 3 s^2), Cov(4 D_k xi_k^2, 4 (1 - D_k) xi_k^2) = -4 s^2; the coordinates are independent,
    so Cov(||2 D xi||^2, ||2 (I - D) xi||^2) = -4 d sigma^4 for every d and sigma > 0: the two masked
    noise vectors are not independent unconditionally (they share D)."""
    s = sp.Symbol("s", positive=True)  # sigma^2
    m2, m4 = s, 3 * s ** 2  # E xi^2, E xi^4
    half = sp.Rational(1, 2)
    e_prod = sum(half * 16 * dk * (1 - dk) * m4 for dk in (0, 1))  # E[4 D xi^2 * 4 (1 - D) xi^2] = 0
    e_a = sum(half * 4 * dk * m2 for dk in (0, 1))
    e_b = sum(half * 4 * (1 - dk) * m2 for dk in (0, 1))
    cov = sp.simplify(e_prod - e_a * e_b)
    return {"per_coordinate": str(cov), "holds": bool(sp.simplify(cov + 4 * s ** 2) == 0)}


def norm_covariance(d: int, sigma: float) -> float:
    """Exact Cov(||2 D xi||^2, ||2 (I - D) xi||^2) = -4 d sigma^4 for xi ~ N(0, sigma^2 I): the two
    masked noises share D, so they are uncorrelated along fixed directions, independent given D,
    but not independent unconditionally."""
    return -4.0 * d * sigma ** 4


def decorrelation_mc(data: Data, n: int, rng: np.random.Generator) -> dict[str, Any]:
    """Cross-checks: E<u, 2 D xi><v, 2 (I - D) xi> for fixed directions (3 atoms, 3 random unit
    vectors, all 6 x 6 pairs) in standard errors; the norm covariance against its exact value."""
    M = data.dictionary()
    U = np.concatenate([M[:, :3].T, rng.standard_normal((3, data.d))])
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    _, _, xi = data.sample(n, rng)
    D = masks(n, data.d, rng)
    a, b = (2.0 * D * xi) @ U.T, (2.0 * (1.0 - D) * xi) @ U.T
    prod = a[:, :, None] * b[:, None, :]
    mean, se = prod.mean(0), prod.std(0) / math.sqrt(n)
    na, nb = np.sum((2.0 * D * xi) ** 2, axis=1), np.sum((2.0 * (1.0 - D) * xi) ** 2, axis=1)
    cov = float(np.mean((na - na.mean()) * (nb - nb.mean())))
    cov_se = float(np.std((na - na.mean()) * (nb - nb.mean())) / math.sqrt(n))
    return {"n": n, "max_z": float(np.max(np.abs(mean) / se)), "max_abs": float(np.abs(mean).max()),
            "unmasked": float(np.mean(np.sum((xi @ U.T) ** 2, axis=1) / len(U))),
            "norm_cov": cov, "norm_cov_se": cov_se, "norm_cov_exact": norm_covariance(data.d, data.sigma)}


def retention_row(M: np.ndarray, sigma: float, n_mc: int, rng: np.random.Generator) -> dict[str, Any]:
    """The sparse signal in each view: the coefficient of z_j in <M_j, x+> is <M_j, 2 D M_j> =
    1 + e_jj, in <M_j, x++> it is 1 - e_jj. Certified: P(some atom has |e_jj| >= 1/2) <=
    sum_j 2 exp(-1/(8 sum_k M_jk^4)) (Hoeffding); exact: P(M_j completely masked in one view) =
    2 * 2^-|supp M_j|. Monte Carlo: the frequency of |e_jj| >= 1/2 and the probability that a
    present atom (z_j = +-1, the others 0) is decoded by the threshold 1/2 in both views at noise
    sigma (Gaussian given D, exact; averaged over D)."""
    from scipy.special import ndtr  # heavy (0.15 s): the normal CDF (scipy.stats.norm.cdf's core, 0.5 s)

    d, d1 = M.shape
    q = np.sum(M ** 4, axis=0)
    cert = float(min(1.0, np.sum(2.0 * np.exp(-1.0 / (8.0 * q)))))
    support = np.sum(M != 0, axis=0)
    masked_out = float(np.max(np.minimum(1.0, 2.0 * 0.5 ** support)))
    lost, both = np.zeros(n_mc), np.zeros(n_mc)
    for i in range(n_mc):
        Dv = masks(1, d, rng)[0]
        e = np.einsum("kj,k,kj->j", M, 2.0 * Dv - 1.0, M)
        lost[i] = np.any(np.abs(e) >= 0.5)
        ok = 1.0
        for c in (1.0 + e, 1.0 - e):  # coefficient of z_j in view + and view ++
            sd = sigma * np.sqrt(2.0 * np.maximum(c, 0.0))  # <M_j, 2 D xi> ~ N(0, 4 sigma^2 sum_k D_k M_jk^2)
            pr = np.where(sd > 0, ndtr((c - 0.5) / np.where(sd > 0, sd, 1.0)), (c > 0.5).astype(float))
            ok = ok * pr
        both[i] = float(np.min(ok))
    return {"d": d, "d1": d1, "inf_norm": float(np.abs(M).max()), "cert_lost": cert, "masked_out": masked_out,
            "mc_lost": float(lost.mean()), "decoded_both": float(np.mean(both)), "n_mc": n_mc}
