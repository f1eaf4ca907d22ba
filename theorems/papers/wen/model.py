"""Wen & Li: the sparse coding model (Definition 2.1, with the noise variants of footnote 1), the
complementary masks (Definition 2.3), the symmetrized-ReLU learner and the contrastive loss
(Section 2.2, Definition 2.2), its exact second moments, the training runs and their metrics.

The repository writes d for the input dimension and d1 for the number of dictionary atoms (the
extracted text lost the paper's own letters). Every parameter is a field below with the passage it
rests on in ``proofs_md/wen.*.md``; nothing here is tuned to a verdict.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from training.cache import cached_run

NOISES = ("isotropic", "diagonal", "coordinate", "dense")


# == Definition 2.1 (sparse coding model) and footnote 1 =======================================
@dataclass(frozen=True)
class Data:
    """x = M z + xi.

    * M: d x d1 column-orthonormal, delocalized (Haar columns: ||M_j||_inf ~ sqrt(2 log(d d1) / d));
    * z_j i.i.d. in {-1, 0, +1}, symmetric, P(z_j != 0) = p;
    * xi ~ N(0, Sigma_xi): isotropic sigma^2 I (Definition 2.1), or a footnote-1 variant:
      ``diagonal`` (independent coordinates with variances proportional to (1 + excess)^u_k, u_k
      evenly spread over [-1, 1], mean sigma^2), ``coordinate`` (sigma^2 I + excess sigma^2 e_0 e_0^T: one coordinate
      direction with larger variance), ``dense`` (sigma^2 I + excess sigma^2 u u^T, u a fixed
      delocalized unit vector orthogonal to span M: one dense direction with larger variance).
    The noise level is set by sigma and kappa = sigma^2 / p ("p << sigma^2 << 1").
    """

    d: int = 64
    d1: int = 6
    sigma: float = 0.25
    kappa: float = 4.0
    noise: str = "isotropic"
    excess: float = 0.0
    dict_seed: int = 2022
    #: the order of the ``diagonal`` variant's variances over the coordinates: a model constant of its own (2029,
    #: the value ``dict_seed + 7`` had before the one seed rule, so the model is unchanged)
    order_seed: int = 2029

    def __post_init__(self) -> None:
        if self.noise not in NOISES:
            raise ValueError(f"noise={self.noise!r}: use one of {NOISES}")

    @property
    def p(self) -> float:
        return self.sigma ** 2 / self.kappa

    def dictionary(self) -> np.ndarray:
        return _dictionary(self.d, self.d1, self.dict_seed).copy()

    def noise_variances(self) -> np.ndarray:
        """The diagonal part of Sigma_xi (per coordinate)."""
        v = np.full(self.d, self.sigma ** 2)
        if self.noise == "diagonal":
            u = np.linspace(-1.0, 1.0, self.d)[np.random.default_rng(self.order_seed).permutation(self.d)]
            v = (1.0 + self.excess) ** u
            v = self.sigma ** 2 * v / v.mean()  # the same mean variance as the isotropic model
        return v

    def spike(self) -> tuple[np.ndarray, float] | None:
        """(u, s^2): the direction with extra variance s^2, or None."""
        if self.noise == "coordinate":
            u = np.zeros(self.d)
            u[0] = 1.0
            return u, self.excess * self.sigma ** 2
        if self.noise == "dense":
            return _dense_direction(self.d, self.d1, self.dict_seed), self.excess * self.sigma ** 2
        return None

    def atom_noise(self) -> np.ndarray:
        """Per atom the noise variance along it, M_j^T Sigma_xi M_j (sigma^2 for isotropic noise)."""
        M = self.dictionary()
        return np.einsum("kj,kl,lj->j", M, self.noise_cov(), M)

    def noise_cov(self) -> np.ndarray:
        S = np.diag(self.noise_variances())
        sp = self.spike()
        if sp is not None:
            S = S + sp[1] * np.outer(sp[0], sp[0])
        return S

    def cov(self) -> np.ndarray:
        """Sigma = E[x x^T] = p M M^T + Sigma_xi (E z_j^2 = p, the z_j independent and symmetric)."""
        M = self.dictionary()
        return self.p * M @ M.T + self.noise_cov()

    def sample(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """n samples: (x, z, xi), rows are samples."""
        z = latents(n, self.d1, self.p, rng)
        g = rng.standard_normal((n, self.d))
        xi = g * np.sqrt(self.noise_variances())
        sp = self.spike()
        if sp is not None:
            xi = xi + np.sqrt(sp[1]) * rng.standard_normal((n, 1)) * sp[0]
        return z @ self.dictionary().T + xi, z, xi

    def sample_active(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """n samples conditioned on z != 0 (the samples on which a signal exists)."""
        z = latents_active(n, self.d1, self.p, rng)
        _, _, xi = self.sample(n, rng)
        return z @ self.dictionary().T + xi, z, xi


@functools.lru_cache(maxsize=32)
def _dictionary(d: int, d1: int, seed: int) -> np.ndarray:
    """The first d1 columns of a Haar orthogonal matrix (QR of a Gaussian d x d1 with sign fix)."""
    rng = np.random.default_rng([seed, d, d1])
    q, r = np.linalg.qr(rng.standard_normal((d, d1)))
    return q * np.sign(np.diag(r))


@functools.lru_cache(maxsize=32)
def _dense_direction(d: int, d1: int, seed: int) -> np.ndarray:
    M = _dictionary(d, d1, seed)
    g = np.random.default_rng([seed, d, d1, 1]).standard_normal(d)
    g -= M @ (M.T @ g)
    return g / np.linalg.norm(g)


def latents(n: int, d1: int, p: float, rng: np.random.Generator) -> np.ndarray:
    u = rng.random((n, d1))
    return np.where(u < p / 2, -1.0, np.where(u < p, 1.0, 0.0))


def latents_active(n: int, d1: int, p: float, rng: np.random.Generator) -> np.ndarray:
    """z conditioned on z != 0 (rejection sampling in blocks)."""
    out: list[np.ndarray] = []
    have = 0
    while have < n:
        z = latents(max(4 * n, 1024), d1, p, rng)
        z = z[np.any(z != 0, axis=1)]
        out.append(z)
        have += len(z)
    return np.concatenate(out)[:n]


# == Definition 2.3: complementary masks ========================================================
def masks(n: int, d: int, rng: np.random.Generator) -> np.ndarray:
    """Diagonals of D (n x d), entries i.i.d. Bernoulli(1/2) (random bits)."""
    bits = np.unpackbits(rng.integers(0, 256, (n, (d + 7) // 8), dtype=np.uint8), axis=1)[:, :d]
    return bits.astype(np.float64)


def views(x: np.ndarray, diag: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x+ = 2 D x and x++ = 2 (I - D) x: complementary masks, (x+ + x++)/2 = x."""
    xp = 2.0 * diag * x
    return xp, 2.0 * x - xp


def mask_moment(S: np.ndarray) -> np.ndarray:
    """E_D[2D S 2(I - D)] = S - diag(S) (E[D_k (1 - D_l)] = (1 - delta_kl)/4): the positive-pair
    second moment E[x+ x++^T] when E[x x^T] = S."""
    return S - np.diag(np.diag(S))


# == stage I (bias 0): the exact linear dynamics ===================================================
def rates(data: Data) -> dict[str, Any]:
    """Exact growth rates of the expected positive-pair gradient K w (bias 0, the learner linear):
    K = Sigma - diag(Sigma) with the masks, K = Sigma without (Lemmas C.2, F.1)."""
    M = data.dictionary()
    S = data.cov()
    P = np.eye(data.d) - M @ M.T
    out: dict[str, Any] = {}
    for name, K in (("masks", mask_moment(S)), ("none", S)):
        sparse = np.einsum("kj,kl,lj->j", M, K, M)
        dense_block = P @ K @ P
        ev = np.linalg.eigvalsh(dense_block)
        # the dense block lives on span(M)^perp (d - d1 dims); its top eigenvalue among those
        vals, vecs = np.linalg.eigh(K)
        top = vecs[:, -1]
        out[name] = {"sparse_min": float(sparse.min()), "sparse_max": float(sparse.max()),
                     "dense_max": float(ev[-1]), "dense_min": float(ev[0]),
                     # the eigensolver's rounding bound on an eigenvalue: d eps ||K||_2 (backward stable)
                     "eig_error": float(data.d * np.finfo(float).eps * np.abs(vals).max()),
                     "leak": float(np.linalg.norm(P @ K @ M, 2)),
                     "top_eig": float(vals[-1]), "top_sparse_share": float(np.sum((M.T @ top) ** 2))}
    return out


def growth_advantage(data: Data, learner: "Learner", growth: float) -> float:
    """Without masks, the exact stage-I advantage of the sparse over the dense directions accumulated
    while the dense part grows by ``growth``: F^(rho - 1), rho = log(1 + eta g (sigma^2 + p) - eta lam)
    / log(1 + eta g sigma^2 - eta lam), g = (N/(N+1))/tau the positive-pair weight near
    initialization (Lemma C.3: uniform logits)."""
    g = learner.negatives / (learner.negatives + 1) / learner.tau
    eta, lam, s2, p = learner.lr, learner.lam, data.sigma ** 2, data.p
    dense = math.log1p(eta * g * s2 - eta * lam)
    sparse = math.log1p(eta * g * (s2 + p) - eta * lam)
    if dense <= 0 or growth <= 1:
        return float("inf") if dense <= 0 else 1.0
    return float(growth ** (sparse / dense - 1.0))


# == Section 2.2: learner, loss and training =====================================================
@dataclass(frozen=True)
class Learner:
    """m symmetrized-ReLU neurons f_i(x) = ReLU(<w_i, x> - b_i) - ReLU(-<w_i, x> - b_i); w_i ~
    N(0, sigma0^2 I) with sigma0 = 1/d; SGD with fresh samples each step (footnote 6); loss (2.2)
    with temperature tau, stop-gradient on the second argument of Sim, N raw negatives per pair
    (shared by the batch; Remark 2.4: negatives are not augmented) and lam/2 ||W||_F^2.
    Bias b_i = c_t sigma ||w_i|| (set, not trained: "We manually tune bias"): c_t = 0 in stage I
    (the first ``stage1`` steps), then rising linearly to ``bias`` over the next ``ramp`` steps
    (stage II), then held (stage III) until ``steps``."""

    m: int = 42
    augment: bool = True
    bias: float = 2.5
    tau: float = 0.5
    lam: float = 1e-3
    lr: float = 1.0
    batch: int = 256
    negatives: int = 32
    steps: int = 500
    stage1: int = 200
    ramp: int = 200
    log_every: int = 25

    def bias_factor(self, step: int) -> float:
        frac = (step - self.stage1) / self.ramp
        return self.bias * min(1.0, max(0.0, frac))


@dataclass(frozen=True)
class Run:
    data: Data = field(default_factory=Data)
    learner: Learner = field(default_factory=Learner)
    seed: int = 0

    def spec(self) -> dict[str, Any]:
        return {"model": "wen-v4", "data": asdict(self.data), "learner": asdict(self.learner), "seed": self.seed}

    def init_std(self) -> float:
        return 1.0 / self.data.d


def sym_relu(u: Any, b: Any) -> Any:
    """ReLU(u - b) - ReLU(-u - b) (numpy or torch); the identity when b = 0."""
    if isinstance(u, np.ndarray):
        return np.maximum(u - b, 0.0) - np.maximum(-u - b, 0.0)
    import torch  # heavy (1 s): only training uses it

    return torch.relu(u - b) - torch.relu(-u - b)


def features(W: np.ndarray, b: np.ndarray, x: np.ndarray) -> np.ndarray:
    return sym_relu(x @ W.T, b[None, :])


def contrastive_loss(W: Any, b: Any, xp: Any, xpp: Any, xneg: Any, tau: float) -> Any:
    """Definition 2.2 on a batch: logits Sim(x+_i, x++_i) and Sim(x+_i, x_n), n = 1..N, with
    Sim(a, a') = <f(a), stopgrad f(a')>; mean over the batch of -log softmax of the positive."""
    import torch  # heavy (1 s): only training uses it

    linear = not bool(torch.any(b > 0))
    up = xp @ W.T
    with torch.no_grad():
        upp, un = xpp @ W.T, xneg @ W.T
        fpp, fn = (upp, un) if linear else (sym_relu(upp, b), sym_relu(un, b))
    fp = up if linear else sym_relu(up, b)
    logits = torch.cat([(fp * fpp).sum(1, keepdim=True), fp @ fn.T], dim=1) / tau
    return (torch.logsumexp(logits, dim=1) - logits[:, 0]).mean()


def train(run: Run) -> dict[str, np.ndarray]:
    """SGD (``training.loop.descend``) on the contrastive objective + lam/2 ||W||^2, a fresh batch
    every step. Data and masks come from the run's seed (the same seed and d give the same data
    stream to every configuration: paired comparisons), the initialization from the seed too."""
    import torch  # heavy (1 s): only training uses it

    from training.loop import descend  # heavy: imports torch

    data, lrn = run.data, run.learner
    M = data.dictionary()
    W = torch.from_numpy(initial_weights(run)).requires_grad_(True)
    rng = np.random.default_rng([run.seed, data.d, 2])
    mask_rng = np.random.default_rng([run.seed, data.d, 3])
    hist: dict[str, list[float]] = {"step": [], "share": [], "norm": [], "loss": []}
    snaps: list[np.ndarray] = []  # W at every logged step of stage III (the iterates T of Theorem 3.4)
    snap_steps: list[int] = []

    def objective(step: int) -> Any:
        x, _, _ = data.sample(lrn.batch + lrn.negatives, rng)
        x = torch.from_numpy(x)
        xpos, xneg = x[:lrn.batch], x[lrn.batch:]
        if lrn.augment:
            D = torch.from_numpy(masks(lrn.batch, data.d, mask_rng))
            xp = 2.0 * D * xpos
            xpp = 2.0 * xpos - xp
        else:  # "Without data augmentation, we simply have x+ = x++ = x"
            xp = xpp = xpos
        with torch.no_grad():
            b = lrn.bias_factor(step) * data.sigma * W.norm(dim=1)
        return contrastive_loss(W, b, xp, xpp, xneg, lrn.tau) + 0.5 * lrn.lam * (W ** 2).sum()

    def on_log(step: int, loss: Any, final: bool) -> None:
        Wn = W.detach().numpy()
        hist["step"].append(step)
        hist["share"].append(float(np.mean(sparse_share(Wn, M))))
        hist["norm"].append(float(np.mean(np.linalg.norm(Wn, axis=1))))
        hist["loss"].append(float(loss.detach()))
        if step >= lrn.stage1 + lrn.ramp:
            snaps.append(Wn.copy())
            snap_steps.append(step)

    descend([W], objective, lrn.steps, lrn.lr, log_every=lrn.log_every, on_log=on_log)
    Wf = W.detach().numpy().copy()
    b = lrn.bias_factor(lrn.steps) * data.sigma * np.linalg.norm(Wf, axis=1)
    return {"W": Wf, "b": b, **{k: np.array(v) for k, v in hist.items()},
            "W_stage3": np.array(snaps), "step_stage3": np.array(snap_steps)}


def initial_weights(run: Run) -> np.ndarray:
    """The run's initialization w_i ~ N(0, sigma0^2 I), sigma0 = 1/d, from its seed (the untrained
    network every dynamics claim is compared with)."""
    import torch  # heavy (1 s): only training uses it

    data, lrn = run.data, run.learner
    init = torch.Generator().manual_seed(int(np.random.SeedSequence([run.seed, data.d, 1]).generate_state(1)[0]))
    return (run.init_std() * torch.randn(lrn.m, data.d, dtype=torch.float64, generator=init)).numpy()


def run_cached(run: Run) -> dict[str, np.ndarray]:
    return cached_run("wen", run.spec(), lambda: train(run))


# == metrics ========================================================================================
def sparse_share(W: np.ndarray, M: np.ndarray) -> np.ndarray:
    """Per neuron ||M^T w||^2 / ||w||^2 (the rest lies in span(M)^perp, the dense features)."""
    W = np.atleast_2d(W)
    return np.sum((W @ M) ** 2, axis=1) / np.sum(W ** 2, axis=1)


SINGLETON = 0.8  # a neuron is a singleton on atom j when <w, M_j>^2 >= 0.8 ||w||^2 (the rest o(1))
PER_ATOM = 0.25  # Omega(m/d1) read as >= ceil(PER_ATOM m / d1) singleton neurons per atom


def atom_table(W: np.ndarray, M: np.ndarray) -> dict[str, Any]:
    """Per neuron its top atom and cos^2; per atom the number of singleton neurons."""
    cos2 = (W @ M) ** 2 / np.sum(W ** 2, axis=1, keepdims=True)
    top = np.argmax(cos2, axis=1)
    single = cos2.max(axis=1) >= SINGLETON
    counts = np.bincount(top[single], minlength=M.shape[1])
    return {"singletons": int(single.sum()), "counts": counts, "covered": int(np.sum(counts > 0)),
            "min_count": int(counts.min()), "max_count": int(counts.max()),
            "dense_share": float(1.0 - np.sum((W @ M) ** 2) / np.sum(W ** 2))}


def needed_per_atom(m: int, d1: int) -> int:
    return max(1, math.ceil(PER_ATOM * m / d1))


def lottery_probability(m: int, d1: int, k: int) -> float:
    """Exact P(every atom is the top atom of at least k of m i.i.d. Gaussian neurons at
    initialization): the top atoms are i.i.d. uniform over the d1 atoms (rotation invariance), so
    this is a multinomial probability, computed by dynamic programming over the atoms."""
    # ways[j][n] = number of sequences placing n labelled neurons on the first j atoms, each >= k
    ways = [0] * (m + 1)
    ways[0] = 1
    for _ in range(d1):
        new = [0] * (m + 1)
        for n in range(m + 1):
            if ways[n]:
                for c in range(k, m - n + 1):
                    new[n + c] += ways[n] * math.comb(m - n, c)
        ways = new
    return float(ways[m] / d1 ** m)


def representation_split(W: np.ndarray, b: np.ndarray, data: Data, n: int, rng: np.random.Generator
                         ) -> dict[str, np.ndarray]:
    """Per sample (z != 0) the signal part ||f(x) - f(xi)|| and the noise part ||f(x) - f(Mz)|| of
    the representation (at bias 0: ||W M z|| and ||W xi||)."""
    x, z, xi = data.sample_active(n, rng)
    s = z @ data.dictionary().T
    fx, fs, fn = features(W, b, x), features(W, b, s), features(W, b, xi)
    return {"signal": np.linalg.norm(fx - fn, axis=1), "noise": np.linalg.norm(fx - fs, axis=1),
            "fire_x": float(np.mean(fx != 0)), "fire_noise": float(np.mean(fn != 0)),
            "fire_signal": float(np.mean(fs != 0))}


def firing(W: np.ndarray, b: np.ndarray, data: Data, n: int, rng: np.random.Generator) -> np.ndarray:
    """Per neuron, the fraction of samples x on which it is active."""
    x, _, _ = data.sample(n, rng)
    return np.mean(features(W, b, x) != 0, axis=0)


# == downstream tasks (Definition 3.1) and linear probes ============================================
N_PROBE = 20_000  # probe samples (train and test each); ~ 9 % have z != 0
RIDGE_ALPHA = 1e-3  # relative ridge (times the trace of the Gram matrix / n_features)
LOGISTIC_C = 1.0


def task_vector(d1: int, seed: int = 777) -> np.ndarray:
    """a with |a_j| in [0.5, 1.5] and random signs (|a_j| = Theta(1))."""
    rng = np.random.default_rng([seed, d1])
    return rng.choice([-1.0, 1.0], d1) * rng.uniform(0.5, 1.5, d1)


def probe_data(data: Data, seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng([seed, data.d, 4])
    xtr, ztr, _ = data.sample(N_PROBE, rng)
    xte, zte, _ = data.sample(N_PROBE, rng)
    return xtr, ztr, xte, zte


def probes(ftr: np.ndarray, ztr: np.ndarray, fte: np.ndarray, zte: np.ndarray) -> dict[str, float]:
    """Regression y = <a, z> (ridge, test R^2; chance 0) and classification y = sign(<a, z>) among
    the samples with <a, z> != 0 (logistic regression, test accuracy; chance 1/2), on standardized
    features; the probe never sees the encoder's training data."""
    from sklearn.linear_model import LogisticRegression  # heavy (0.7 s): only the probes fit it

    a = task_vector(ztr.shape[1])
    ytr, yte = ztr @ a, zte @ a
    mu, sd = ftr.mean(0), ftr.std(0)
    sd[sd == 0] = 1.0
    Ftr, Fte = (ftr - mu) / sd, (fte - mu) / sd
    G = Ftr.T @ Ftr
    alpha = RIDGE_ALPHA * np.trace(G) / max(1, G.shape[0])
    beta = np.linalg.solve(G + alpha * np.eye(G.shape[0]), Ftr.T @ (ytr - ytr.mean()))
    pred = Fte @ beta + ytr.mean()
    r2 = float(1.0 - np.mean((yte - pred) ** 2) / np.var(yte))
    mtr, mte = ytr != 0, yte != 0
    clf = LogisticRegression(C=LOGISTIC_C, max_iter=1000).fit(Ftr[mtr], ytr[mtr] > 0)
    acc = float(np.mean(clf.predict(Fte[mte]) == (yte[mte] > 0)))
    return {"r2": r2, "acc": acc}


def oracle_raw_r2(data: Data) -> float:
    """The best linear predictor of <a, z> from raw x, exactly: R^2 = p a^T M^T Sigma^-1 M a / ||a||^2
    (= p / (p + sigma^2) for isotropic noise)."""
    M, a = data.dictionary(), task_vector(data.d1)
    S = data.cov()
    c = data.p * M @ a
    return float(c @ np.linalg.solve(S, c) / (data.p * a @ a))


ORACLE_SAMPLES = 100_000  # Monte Carlo samples of the oracle linear classifier's accuracy


@functools.lru_cache(maxsize=32)
def oracle_raw_accuracy(data: Data, n: int = ORACLE_SAMPLES) -> float:
    """Accuracy of the oracle linear classifier sign(<M a, x>) of sign(<a, z>) on samples with
    <a, z> != 0 (Monte Carlo with a fixed seed: a property of the model, not of a run)."""
    rng = np.random.default_rng([data.dict_seed, data.d, data.d1, 6])
    x, z, _ = data.sample_active(n, rng)
    a = task_vector(data.d1)
    y = z @ a
    keep = y != 0
    return float(np.mean(np.sign(x[keep] @ (data.dictionary() @ a)) == np.sign(y[keep])))


def with_(obj: Any, **changes: Any) -> Any:
    return replace(obj, **changes)
