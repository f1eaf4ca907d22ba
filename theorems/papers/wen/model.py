"""Wen & Li: the sparse coding model, the complementary masks, the symmetrized-ReLU learner,
the contrastive loss (Definition 2.2), the metrics and the training runs.

Every modelling choice is a module constant below; proofs_md/wen.*.md gives, for each, the
sentence of the paper it implements (the paper's inline formulas were lost in extraction).
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

# == Definition 2.1: x = M z + xi ===============================================================
D_IN = 100  # input dimension d
D_DICT = 10  # dictionary size d1 (M is d x d1, column-orthonormal)
P_ACTIVE = 0.1  # P(z_j != 0); z_j in {-1, 0, +1}, symmetric: P(z_j = +1) = P(z_j = -1) = P_ACTIVE / 2
SIGMA = 0.25  # xi ~ N(0, SIGMA^2 I_d): isotropic, ||xi|| ~ SIGMA sqrt(d) = 2.5 vs sqrt(E||Mz||^2) = sqrt(d1 p) = 1
DICT_SEED = 2022  # M is the same for every run (the data distribution is fixed; the seed varies the learner)

# == Section 2.2: learner and training ============================================================
WIDTH = 20  # m neurons
INIT_STD = 1e-3  # w_i ~ N(0, INIT_STD^2 I): "small" initialisation
TAU = 0.5  # temperature of (2.2)
LAMBDA = 1e-3  # the regularization parameter (lambda/2 ||W||_F^2)
LR = 0.05  # SGD step size
BATCH = 128  # positive pairs per step; each pair's negatives are the other batch members (raw, Remark 2.4)
STEPS = 3000
QUICK_STEPS = STEPS  # measured: at 1200 steps the no-augmentation share is still 0.97 (the dense phase starts ~1500)
LOG_EVERY = 50
BIAS_START = 0.5  # fraction of training with b = 0 (initial stage: A.2), then the bias grows
BIAS_MAX = 2.5  # b_i = c_t * SIGMA * ||w_i|| (detached), c_t rising linearly from 0 to BIAS_MAX: P(|<w,xi>| > b) = 1.2%

# == Definition 3.1: downstream tasks ============================================================
N_PROBE_TRAIN = 2000
N_PROBE_TEST = 2000
PROBE_SEED = 777
RIDGE_ALPHA = 1.0
LOGISTIC_C = 1.0
SINGLETON = 0.9  # a neuron is "near a single atom" if max_j |<w/||w||, M_j>| > SINGLETON


def dictionary(d: int | None = None, d1: int | None = None, seed: int | None = None) -> np.ndarray:
    """A d x d1 column-orthonormal M (the first d1 columns of a Haar orthogonal matrix)."""
    return _dictionary(d or D_IN, d1 or D_DICT, DICT_SEED if seed is None else seed).copy()


@functools.lru_cache(maxsize=8)
def _dictionary(d: int, d1: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    q, r = np.linalg.qr(rng.standard_normal((d, d)))
    q = q * np.sign(np.diag(r))
    return q[:, :d1]


def sample(n: int, rng: np.random.Generator, M: np.ndarray | None = None, sigma: float | None = None,
           p: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n samples of Definition 2.1: returns (x, z, xi) with x = z M^T + xi (rows are samples)."""
    M = dictionary() if M is None else M
    sigma = SIGMA if sigma is None else sigma
    p = P_ACTIVE if p is None else p
    d, d1 = M.shape
    u = rng.random((n, d1))
    z = np.where(u < p / 2, -1.0, np.where(u < p, 1.0, 0.0))
    xi = sigma * rng.standard_normal((n, d))
    return z @ M.T + xi, z, xi


def masks(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """Diagonals of D (n x d): entries i.i.d. Bernoulli(1/2) (Definition 2.3)."""
    return (rng.random((n, d)) < 0.5).astype(float)


def views(x: np.ndarray, diag: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x+ = 2 D x and x++ = 2 (I - D) x: complementary masks, 1/2 (x+ + x++) = x."""
    return 2.0 * diag * x, 2.0 * (1.0 - diag) * x


def sym_relu(u: Any, b: Any) -> Any:
    """The symmetrized ReLU: ReLU(u - b) - ReLU(-u - b) (numpy or torch)."""
    if isinstance(u, np.ndarray):
        return np.maximum(u - b, 0.0) - np.maximum(-u - b, 0.0)
    import torch

    return torch.relu(u - b) - torch.relu(-u - b)


def features(W: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    """f(x)_i = sym_relu(<w_i, x>, b_i) for rows x."""
    return sym_relu(x @ W.T, b[None, :])


def sparse_share(W: np.ndarray, M: np.ndarray | None = None) -> np.ndarray:
    """Per neuron ||M^T w||^2 / ||w||^2: the share of ||w||^2 inside span(M) (the rest is in span(M)^perp)."""
    M = dictionary() if M is None else M
    W = np.atleast_2d(W)
    return np.sum((W @ M) ** 2, axis=1) / np.sum(W ** 2, axis=1)


def atom_alignment(W: np.ndarray, M: np.ndarray | None = None) -> np.ndarray:
    """Per neuron max_j |<w/||w||, M_j>|."""
    M = dictionary() if M is None else M
    W = np.atleast_2d(W)
    return np.max(np.abs(W @ M), axis=1) / np.linalg.norm(W, axis=1)


def singletons(W: np.ndarray, M: np.ndarray | None = None, level: float | None = None) -> tuple[int, int]:
    """(number of neurons with alignment > level, number of distinct atoms they cover)."""
    M = dictionary() if M is None else M
    a = atom_alignment(W, M)
    near = a > (SINGLETON if level is None else level)
    atoms = set(np.argmax(np.abs(W @ M), axis=1)[near].tolist())
    return int(near.sum()), len(atoms)


def bias_factor(step: int, steps: int) -> float:
    """c_t: 0 during the first BIAS_START of training, then linear up to BIAS_MAX."""
    start = BIAS_START * steps
    if step <= start:
        return 0.0
    return BIAS_MAX * min(1.0, (step - start) / max(1.0, steps - start))


@dataclass(frozen=True)
class WenRun:
    augment: bool
    seed: int
    steps: int = STEPS

    def params(self) -> dict[str, Any]:
        return {"d": D_IN, "d1": D_DICT, "p": P_ACTIVE, "sigma": SIGMA, "dict_seed": DICT_SEED, "m": WIDTH,
                "init_std": INIT_STD, "tau": TAU, "lambda": LAMBDA, "lr": LR, "batch": BATCH,
                "bias_start": BIAS_START, "bias_max": BIAS_MAX, "log_every": LOG_EVERY, **asdict(self)}


def contrastive_loss(W: Any, b: Any, xp: Any, xpp: Any, xneg: Any, tau: float = TAU) -> Any:
    """Definition 2.2 on a batch: Sim(a, a') = <f(a), stopgrad f(a')>; for pair i the logits are
    Sim(x+_i, x++_i) (positive) and Sim(x+_i, x_j), j != i (negatives: the other raw samples)."""
    import torch

    fp = sym_relu(xp @ W.T, b)
    fpp = sym_relu(xpp @ W.T, b).detach()
    fneg = sym_relu(xneg @ W.T, b).detach()
    pos = (fp * fpp).sum(1, keepdim=True)  # (B, 1)
    neg = fp @ fneg.T  # (B, B); the diagonal (x+_i against its own raw x_i) is excluded
    n = neg.shape[0]
    neg = neg.masked_fill(torch.eye(n, dtype=torch.bool), float("-inf"))
    logits = torch.cat([pos, neg], dim=1) / tau
    return -(logits[:, 0] - torch.logsumexp(logits, dim=1)).mean()


def train(run: WenRun) -> dict[str, Any]:
    """SGD on the contrastive loss + lambda/2 ||W||^2, fresh samples every step (population SGD);
    the logged loss is that whole objective."""
    import torch

    from training.loop import descend

    M = dictionary()
    rng = np.random.default_rng(10_000 + run.seed)
    init = torch.Generator().manual_seed(run.seed)
    W = (INIT_STD * torch.randn(WIDTH, D_IN, dtype=torch.float64, generator=init)).requires_grad_(True)
    hist_steps, hist_share, hist_loss = [], [], []

    def objective(step: int) -> Any:
        with torch.no_grad():
            b = bias_factor(step, run.steps) * SIGMA * W.norm(dim=1)
        x, _, _ = sample(BATCH, rng, M)
        xp, xpp = views(x, masks(BATCH, D_IN, rng)) if run.augment else (x, x)  # no augmentation: x+ = x++ = x
        xt, xpt, xppt = (torch.from_numpy(a) for a in (x, xp, xpp))
        return contrastive_loss(W, b, xpt, xppt, xt) + 0.5 * LAMBDA * (W ** 2).sum()

    def on_log(step: int, loss: Any, final: bool) -> None:
        hist_steps.append(step)
        hist_share.append(float(np.mean(sparse_share(W.detach().numpy(), M))))
        hist_loss.append(float(loss.item()))

    descend([W], objective, run.steps, LR, log_every=LOG_EVERY, on_log=on_log)
    Wf = W.detach().numpy().copy()
    bf = (bias_factor(run.steps, run.steps) * SIGMA * np.linalg.norm(Wf, axis=1))
    return {"W": Wf, "b": bf, "steps": np.array(hist_steps), "share": np.array(hist_share),
            "loss": np.array(hist_loss)}


def run_cached(run: WenRun) -> dict[str, Any]:
    from training.cache import cached_run

    return cached_run("wen", run.params(), lambda: train(run))


# == downstream probes (Definition 3.1) ==========================================================
def task_vector(seed: int = PROBE_SEED) -> np.ndarray:
    """a with |a_j| in [0.5, 1.5] and random signs (|a_j| = Theta(1)), so <a, z> = 0 only when z = 0."""
    rng = np.random.default_rng(seed)
    return rng.choice([-1.0, 1.0], D_DICT) * rng.uniform(0.5, 1.5, D_DICT)


def probe_data(seed: int = PROBE_SEED) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed + 1)
    xtr, ztr, _ = sample(N_PROBE_TRAIN, rng)
    xte, zte, _ = sample(N_PROBE_TEST, rng)
    return xtr, ztr, xte, zte


def probes(feat_tr: np.ndarray, ztr: np.ndarray, feat_te: np.ndarray, zte: np.ndarray) -> dict[str, float]:
    """Ridge regression of y = <a, z> (test R^2) and logistic regression of sign(<a, z>) among the
    samples with <a, z> != 0 (test accuracy), both on standardized features."""
    from sklearn.linear_model import LogisticRegression, Ridge
    from sklearn.metrics import r2_score
    from sklearn.preprocessing import StandardScaler

    a = task_vector()
    ytr, yte = ztr @ a, zte @ a
    sc = StandardScaler().fit(feat_tr)
    ftr, fte = sc.transform(feat_tr), sc.transform(feat_te)
    ftr, fte = np.nan_to_num(ftr), np.nan_to_num(fte)
    reg = Ridge(alpha=RIDGE_ALPHA).fit(ftr, ytr)
    r2 = float(r2_score(yte, reg.predict(fte)))
    mtr, mte = ytr != 0, yte != 0
    clf = LogisticRegression(C=LOGISTIC_C, max_iter=2000).fit(ftr[mtr], ytr[mtr] > 0)
    acc = float(np.mean(clf.predict(fte[mte]) == (yte[mte] > 0)))
    return {"r2": r2, "acc": acc}


def probe_run(W: np.ndarray, b: np.ndarray) -> dict[str, float]:
    xtr, ztr, xte, zte = probe_data()
    return probes(features(W, b, xtr), ztr, features(W, b, xte), zte)


def probe_raw() -> dict[str, float]:
    """The same probes on the raw input x (the baseline of Section 3)."""
    xtr, ztr, xte, zte = probe_data()
    return probes(xtr, ztr, xte, zte)
