"""Ren & Li (multimodal contrastive learning, normalized linear learners): data model, learners,
losses, metrics and the training of Algorithm 3.1.

The paper's inline formulas were lost in extraction; every choice below is documented in
``proofs_md/ren.*.md`` with the sentence of the paper it implements.

* Data (model (1)): x_A = A z + A_xi xi_A, x_B = B z + B_xi xi_B, z and the noises independent,
  uniform (z uniform on the cube, scaled to unit variance per coordinate). A = U_A diag(s),
  B = U_B diag(s) with U_A, U_B random d x r with orthonormal columns, s geometric from 1 to
  kappa (condition number kappa); A_xi, B_xi = sigma_xi times an orthonormal basis of the
  complement of range(A) (resp. range(B)), restricted to d - r columns.
* Learners: f_A(x) = W_A x / ||W_A x||, f_B(x) = W_B x / ||W_B x|| (outputs on the unit sphere),
  W_A, W_B in R^{m x d} initialised iid N(0, 1/m).
* Losses: S_ij = <f_A(x_A^i), f_B(x_B^j)> on a batch of n pairs; non-contrastive
  L = -mean_i S_ii; contrastive (symmetric, CLIP-style, rescaled by 1/beta)
  L = mean_i [ -S_ii + (lam/beta) log((1/n) sum_j exp(beta S_ij)) ] averaged over the A->B and
  B->A directions.
* Metrics: alignment score (Definition 4.1) = P[S(pos) > S(neg)] on held-out pairs (ties count as
  failures; ``ties="half"`` counts them as 1/2); balance score (Definition 4.2) = stable rank
  ||Sigma||_F^2 / ||Sigma||_2^2 of the covariance of f_A's outputs; condition number of W_A A.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


# -- metrics (numpy, exact on finite sets) -----------------------------------------------------
def stable_rank(M: np.ndarray) -> float:
    """||M||_F^2 / ||M||_2^2 (0 for the zero matrix)."""
    s = np.linalg.svd(np.asarray(M, dtype=float), compute_uv=False)
    if s.size == 0 or s[0] == 0:
        return 0.0
    return float(np.sum(s ** 2) / s[0] ** 2)


def condition_number(M: np.ndarray, rank: int | None = None) -> float:
    """sigma_1 / sigma_k with k = rank (default: the smaller dimension); inf if sigma_k = 0."""
    s = np.linalg.svd(np.asarray(M, dtype=float), compute_uv=False)
    k = min(M.shape) if rank is None else rank
    return float(s[0] / s[k - 1]) if s[k - 1] > 0 else float("inf")


def balance_score(emb: np.ndarray) -> float:
    """Definition 4.2: the stable rank of the covariance matrix of the output embeddings (rows)."""
    emb = np.asarray(emb, dtype=float)
    cov = np.cov(emb, rowvar=False, bias=True)
    return stable_rank(np.atleast_2d(cov))


def alignment_score(fa: np.ndarray, fb: np.ndarray, fb_neg: np.ndarray, ties: str = "fail") -> float:
    """Definition 4.1: accuracy of telling the positive pair (fa_i, fb_i) from the negative pair
    (fa_i, fb_neg_i) by their inner products (cosines for unit outputs); a tie is a failure
    (``ties="fail"``, strict inequality) or half a success (``ties="half"``, random tie-break)."""
    pos = np.sum(fa * fb, axis=1)
    neg = np.sum(fa * fb_neg, axis=1)
    wins = (pos > neg).astype(float)
    if ties == "half":
        wins += 0.5 * (pos == neg)
    return float(np.mean(wins))


# -- data model ----------------------------------------------------------------------------
@dataclass(frozen=True)
class DataModel:
    r: int = 5  # latent dimension
    d: int = 20  # input dimension
    kappa: float = 10.0  # condition number of A and B
    sigma_xi: float = 0.1  # noise scale

    def matrices(self, seed: int) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(10_000 + seed)
        s = np.geomspace(1.0, self.kappa, self.r)[::-1]  # sigma_1 = kappa >= ... >= sigma_r = 1
        out = {}
        for name in ("A", "B"):
            Q, _ = np.linalg.qr(rng.standard_normal((self.d, self.d)))
            out[name] = Q[:, :self.r] * s  # orthogonal columns with norms s
            out[name + "_xi"] = self.sigma_xi * Q[:, self.r:]  # noise in the complement of range
        return out

    def sample(self, mats: dict[str, np.ndarray], n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """n positive pairs (x_A^i, x_B^i) sharing z^i; noises independent."""
        u = lambda k: np.sqrt(3.0) * rng.uniform(-1.0, 1.0, size=(n, k))  # noqa: E731 (unit variance)
        z = u(self.r)
        xa = z @ mats["A"].T + u(self.d - self.r) @ mats["A_xi"].T
        xb = z @ mats["B"].T + u(self.d - self.r) @ mats["B_xi"].T
        return {"z": z, "xa": xa, "xb": xb}


# -- training (Algorithm 3.1) ----------------------------------------------------------------
@dataclass(frozen=True)
class TrainSpec:
    method: str  # "contrastive" or "noncontrastive"
    seed: int = 0
    r: int = 5
    d: int = 20
    m: int = 32  # output (embedding) dimension
    kappa: float = 10.0
    sigma_xi: float = 0.1
    batch: int = 256
    lr: float = 0.5
    steps1: int = 1500  # stage 1 (contrastive: beta = beta1); the whole run when non-contrastive
    steps2: int = 1500  # stage 2 (contrastive: beta = beta2); non-contrastive keeps training
    beta1: float = 0.05
    beta2: float = 5.0
    lam: float = 1.0  # weight of the negative pairs
    log_every: int = 50
    n_eval: int = 2000



def _loss(fa: Any, fb: Any, spec: TrainSpec, beta: float) -> Any:
    import torch

    S = fa @ fb.T
    pos = torch.diagonal(S)
    if spec.method == "noncontrastive":
        return -pos.mean()
    n = S.shape[0]
    lse_a = torch.logsumexp(beta * S, dim=1) - np.log(n)
    lse_b = torch.logsumexp(beta * S, dim=0) - np.log(n)
    return (-pos + spec.lam / beta * 0.5 * (lse_a + lse_b)).mean()


def evaluate(WA: np.ndarray, WB: np.ndarray, mats: dict[str, np.ndarray], ev: dict[str, np.ndarray],
             r: int) -> dict[str, float]:
    """Alignment (held-out positive vs shifted negative pairs), balance and cond(W_A A)."""
    def f(W: np.ndarray, x: np.ndarray) -> np.ndarray:
        y = x @ W.T
        return y / np.linalg.norm(y, axis=1, keepdims=True)

    fa, fb = f(WA, ev["xa"]), f(WB, ev["xb"])
    fb_neg = np.roll(fb, 1, axis=0)  # pairs (x_A^i, x_B^{i-1}): independent latents
    return {"align": alignment_score(fa, fb, fb_neg), "balance": balance_score(fa),
            "cond": condition_number(WA @ mats["A"], r), "cond_B": condition_number(WB @ mats["B"], r),
            "cos_pos": float(np.mean(np.sum(fa * fb, axis=1)))}


def train(spec: TrainSpec) -> dict[str, np.ndarray]:
    """Run Algorithm 3.1; returns the logged curves (step, align, balance, cond, cond_B, cos_pos)."""
    import torch

    from training.loop import descend

    model = DataModel(spec.r, spec.d, spec.kappa, spec.sigma_xi)
    mats = model.matrices(spec.seed)
    rng = np.random.default_rng(spec.seed)
    ev = model.sample(mats, spec.n_eval, np.random.default_rng(99_000 + spec.seed))
    WA = torch.tensor(rng.standard_normal((spec.m, spec.d)) / np.sqrt(spec.m), requires_grad=True)
    WB = torch.tensor(rng.standard_normal((spec.m, spec.d)) / np.sqrt(spec.m), requires_grad=True)
    log: list[dict[str, float]] = []

    def objective(step: int) -> Any:
        beta = spec.beta1 if step < spec.steps1 else spec.beta2
        batch = model.sample(mats, spec.batch, rng)
        ya, yb = torch.from_numpy(batch["xa"]) @ WA.T, torch.from_numpy(batch["xb"]) @ WB.T
        return _loss(ya / ya.norm(dim=1, keepdim=True), yb / yb.norm(dim=1, keepdim=True), spec, beta)

    def on_log(step: int, loss: Any, final: bool) -> None:
        row = evaluate(WA.detach().numpy(), WB.detach().numpy(), mats, ev, spec.r)
        row["step"] = step
        log.append(row)

    descend([WA, WB], objective, spec.steps1 + spec.steps2, spec.lr, log_every=spec.log_every, on_log=on_log)
    return {k: np.array([row[k] for row in log]) for k in log[0]}


def cached_train(spec: TrainSpec) -> dict[str, np.ndarray]:
    """train(spec), stored in the cache of trained runs keyed by every parameter."""
    from training.cache import cached_run

    return cached_run("ren", asdict(spec), lambda: train(spec))
