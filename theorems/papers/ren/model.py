"""Ren & Li's model as printed (Section 3), trained by Algorithm 3.1 with the project's loop.

The inline formulas of ``002_1392d7a5a1d595de.txt`` were lost in extraction; each reconstruction
below is listed with the passage it rests on in ``proofs_md/ren.*.md``.

* **Data (1).** x_A = A z + A_xi xi_A, x_B = B z + B_xi xi_B with z uniform on {+-1}^r and
  xi_A, xi_B uniform on {+-1}^{d_xi}, independent; A^T A = B^T B = diag(sigma^2),
  A_xi^T A_xi = B_xi^T B_xi = sigma_xi^2 I, range(A) orthogonal to range(A_xi) (same for B).
* **Learners.** f_A(x) = W_A x / sqrt(E ||W_A x||^2) (normalized over the population, so
  E ||f_A||^2 = 1, not per sample), f_B likewise; W_A, W_B in R^{m x d} with iid N(0, 1/m) entries.
  With M_A = W_A [A, A_xi] / N_A = [P_A, Q_A], f_A(x_A) = P_A z + Q_A xi_A -- model (2).
* **Losses.** S(x_A, x_B) = <f_A(x_A), f_B(x_B)>. Non-contrastive (4): L = -E S(x_A, x_B) over
  positive pairs. Contrastive (3), with the 1/beta rescaling of the gradient of Section 5.1:
  L = -E S(x_A, x_B) + lam / (2 beta) [E_{x_A} log E_{x_B'} e^{beta S(x_A, x_B')} +
  E_{x_B} log E_{x_A'} e^{beta S(x_A', x_B)}], negatives x' drawn independently.
* **Population, exactly.** With +-1 latents and noises, E ||W x||^2 = ||W [A, A_xi]||_F^2, E S over
  positive pairs = tr(P_A^T P_B), and E_{x_B'} e^{beta S} = prod_j cosh(beta (K^T w_A)_j) with
  K = M_A^T M_B (Lemma C.2's product over coordinates); the outer expectation is an exact sum over
  the 2^(r + d_xi) sign vectors w_A. The gradient is the population gradient of footnote 4
  ("gradient flow over population loss"; Algorithm 3.1's batches in the limit of many samples).
* **Width, exactly.** Gradient descent is equivariant under rotations of the input and output
  spaces, and the loss depends on W_A only through W_A [A, A_xi]. So the run is carried out on
  Y = W [A, A_xi] diag(sigma, sigma_xi)^-1 (iid N(0, 1/m) entries at m x (r + d_xi)), and a width-m run is
  exactly the run of the 2(r + d_xi) x 2(r + d_xi) triangular factor of [Y_A, Y_B] at
  initialization (QR): :func:`initial_factor`. ``tests/test_ren.py`` checks the equivalence step
  by step against the full m x d parametrization.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from numerics.enclosure import Enclosure
from theorems import RegimeCheck, at_most
from theorems.papers.ren import flow, ode
from training.cache import cached_run

KAPPA_MAX = 5.0  # admissible data models: sigma_max / sigma_min <= KAPPA_MAX (stands for the lost d^c bound)
NOISE_MAX = 0.1  # the model's noise-to-signal ratio d_xi sigma_xi^2 / sum sigma^2 at most 0.1

REFINE = 8  # flow points per logging interval in tracking_gap
SHIFT = Fraction(1, 10)  # the time reparametrization allowed when comparing a run with the flow (tracking_gap)
MC_RADIUS = 4  # a Monte Carlo score is known to within this many binomial standard errors (alignment_enclosure)


# -- metrics (numpy) -----------------------------------------------------------------------------
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
    """Definition 4.2 on samples: the stable rank of the covariance of the output embeddings (rows)."""
    emb = np.asarray(emb, dtype=float)
    cov = np.cov(emb, rowvar=False, bias=True)
    return stable_rank(np.atleast_2d(cov))


def alignment_score(fa: np.ndarray, fb: np.ndarray, fb_neg: np.ndarray, ties: str = "fail") -> float:
    """Definition 4.1 by distance: the fraction of anchors x_A whose positive partner is strictly
    closer than the negative one, ||f_A(x_A) - f_B(x_B)|| < ||f_A(x_A) - f_B(x_B')|| (``ties="fail"``,
    the strict inequality), or with a tie counting 1/2 (``ties="half"``, a random tie-break in
    expectation)."""
    pos = np.sum((fa - fb) ** 2, axis=1)
    neg = np.sum((fa - fb_neg) ** 2, axis=1)
    wins = (pos < neg).astype(float)
    if ties == "half":
        wins += 0.5 * (pos == neg)
    return float(np.mean(wins))


# -- the data model ------------------------------------------------------------------------------
@dataclass(frozen=True)
class DataModel:
    """Model (1): spectrum sigma of A and B, noise scale sigma_xi on d_xi coordinates, and lam."""

    sigma: tuple[float, ...] = (4.0, 1.0, 1.0, 1.0, 1.0)
    sigma_xi: float = 0.2
    d_xi: int = 5
    lam: float = 1.0

    @property
    def r(self) -> int:
        return len(self.sigma)

    @property
    def k(self) -> int:
        return self.r + self.d_xi

    @property
    def kappa(self) -> float:
        return max(self.sigma) / min(self.sigma)

    @property
    def noise_signal(self) -> float:
        """E||A_xi xi||^2 / E||A z||^2 = d_xi sigma_xi^2 / sum sigma_k^2 (the input's noise-to-signal ratio)."""
        return self.d_xi * self.sigma_xi ** 2 / float(np.sum(np.square(self.sigma)))

    def diag(self) -> np.ndarray:
        """The singular values of [A, A_xi]: sigma, then sigma_xi repeated d_xi times."""
        return np.concatenate([np.asarray(self.sigma, dtype=float), np.full(self.d_xi, self.sigma_xi)])

    def flow(self) -> flow.FlowModel:
        return flow.FlowModel(tuple(float(s) for s in self.sigma), self.sigma_xi, self.d_xi, self.lam)

    def matrices(self, d: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """Explicit A (d x r) and A_xi (d x d_xi) with the required Gram matrices, in a random basis
        (only used to check that the reduced parametrization is exact)."""
        Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
        return Q[:, :self.r] * np.asarray(self.sigma), Q[:, self.r:self.k] * self.sigma_xi

    def sample(self, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """n positive pairs in latent coordinates: w_A = (z, xi_A), w_B = (z, xi_B), and independent
        negatives w_B' = (z', xi_B'); all entries uniform signs."""
        sign = lambda *shape: rng.choice((-1.0, 1.0), size=shape)
        z, zn = sign(n, self.r), sign(n, self.r)
        return {"wa": np.hstack([z, sign(n, self.d_xi)]), "wb": np.hstack([z, sign(n, self.d_xi)]),
                "wb_neg": np.hstack([zn, sign(n, self.d_xi)])}


def b17(kappa: float, r: int = 5) -> tuple[float, ...]:
    """Lemma B.17's spectrum: the first singular value kappa, the others 1."""
    return (float(kappa),) + (1.0,) * (r - 1)


def geometric(kappa: float, r: int = 5) -> tuple[float, ...]:
    return tuple(float(x) for x in np.geomspace(kappa, 1.0, r))


def two_level(kappa: float, r: int = 5, top: int = 2) -> tuple[float, ...]:
    return (float(kappa),) * top + (1.0,) * (r - top)


# -- initialization and the learners -------------------------------------------------------------
def initial_factor(model: DataModel, m: int | None, seed: int) -> np.ndarray:
    """The 2k x 2k factor R of [Y_A, Y_B] = Q R (Y iid N(0, 1/m), m x k each; R upper triangular
    with a positive diagonal), drawn exactly by Bartlett's decomposition: R_ii = chi_{m-i} / sqrt(m),
    R_ij ~ N(0, 1/m) above the diagonal -- the law of the QR factor of the m x 2k Gaussian matrix,
    without forming it. ``m=None`` is the infinite-width initialization (orthonormal columns: R = I)."""
    p = 2 * model.k
    if m is None:
        return np.eye(p)
    if m < p:
        raise ValueError(f"width m = {m} is below 2(r + d_xi) = {p}")
    rng = np.random.default_rng([seed, 17])
    R = np.triu(rng.standard_normal((p, p)), 1)
    R[np.diag_indices(p)] = np.sqrt(rng.chisquare(m - np.arange(p)))
    return R / math.sqrt(m)


def population_maps(Y: np.ndarray, model: DataModel) -> tuple[np.ndarray, np.ndarray]:
    """M_A = [P_A, Q_A], M_B = [P_B, Q_B] (rows: output coordinates of the factor space)."""
    k = model.k
    D = model.diag()
    UA, UB = Y[:, :k] * D, Y[:, k:] * D
    return UA / np.linalg.norm(UA), UB / np.linalg.norm(UB)


def state_metrics(Y: np.ndarray, model: DataModel) -> dict[str, float]:
    """Exact population metrics of a state: cond(P_A), cond(P_B), min cosine rho_k, noise-to-signal
    ratio ||Q_A||_F^2 / ||P_A||_F^2, balance score (stable rank of Cov f_A = M_A M_A^T), E||f_A||^2."""
    r = model.r
    MA, MB = population_maps(Y, model)
    PA, PB = MA[:, :r], MB[:, :r]
    a, b = np.sum(PA * PA, axis=0), np.sum(PB * PB, axis=0)
    c = np.sum(PA * PB, axis=0)
    signal = float(np.sum(a))
    return {"cond": condition_number(PA, r), "cond_B": condition_number(PB, r),
            "rho_min": float(np.min(c / np.sqrt(a * b))), "noise_ratio": float(np.sum(MA[:, r:] ** 2)) / signal,
            "balance": stable_rank(MA @ MA.T), "second_moment": float(np.sum(MA * MA)),
            "offdiag": float(np.max(np.abs(PA.T @ PB - np.diag(c)))) if r > 1 else 0.0}


def alignment_mc(Y: np.ndarray, model: DataModel, rng: np.random.Generator, n: int,
                 ties: str = "fail") -> tuple[float, float]:
    """Definition 4.1 (by distance) on n fresh (anchor, positive, negative) triples; returns the
    score and its binomial standard error."""
    MA, MB = population_maps(Y, model)
    s = model.sample(n, rng)
    score = alignment_score(s["wa"] @ MA.T, s["wb"] @ MB.T, s["wb_neg"] @ MB.T, ties=ties)
    return score, math.sqrt(max(score * (1 - score), 1e-12) / n)


def alignment_enclosure(score: float, se: float, n: int) -> Enclosure:
    """A Monte Carlo alignment score as what it measures: the population score lies within MC_RADIUS binomial
    standard errors of it (the normal approximation: outside with probability about 6e-5), clipped to [0, 1]."""
    return Enclosure(max(0.0, score - MC_RADIUS * se), min(1.0, score + MC_RADIUS * se), alpha=6.4e-5,
                     how=f"Monte Carlo over {n} triples, +- {MC_RADIUS} standard errors")


# -- Algorithm 3.1 ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSpec:
    """One run of Algorithm 3.1 on the population loss.

    ``method`` "noncontrastive": loss (4) until an approximate stationary point (the gradient norm
    below ``stationary`` times its initial value) or ``max_steps``. ``method`` "contrastive": Stage 1
    at beta1 until the end-of-Stage-1 conditions of Lemma B.1 hold (every cosine rho_k >= 1 - tol_rho
    and noise-to-signal ratio <= tol_noise) -- then ``t1_factor`` times that many steps -- and Stage 2
    at beta2 until cond(P_A) <= cond_target or ``max_steps2`` more steps."""

    method: str
    model: DataModel = field(default_factory=DataModel)
    m: int | None = 65536  # None: the infinite-width initialization
    seed: int = 0
    eta0: float = 0.25  # learning rate = eta0 * sum(diag^2) / sigma_max^2
    beta1: float = 0.05
    beta2: float = 2.0
    t1_factor: float = 1.0
    tol_rho: float = 0.01
    tol_noise: float = 0.01
    cond_target: float = 1.1
    stationary: float = 0.01
    max_steps: int = 4000
    max_steps2: int = 3000
    chunk: int = 20

    @property
    def eta(self) -> float:
        D = self.model.diag()
        return self.eta0 * float(np.sum(D ** 2)) / float(np.max(D) ** 2)


def _torch_loss(model: DataModel, W_half: Any) -> Callable[[Any, float | None], Any]:
    import torch  # heavy (1 s): only training uses it

    k, r, lam = model.k, model.r, model.lam
    D = torch.tensor(np.concatenate([model.diag(), model.diag()]))
    log2 = math.log(2.0)

    def loss(Y: Any, beta: float | None) -> Any:
        U = Y * D
        UA, UB = U[:, :k], U[:, k:]
        K = (UA.T @ UB) / torch.sqrt((UA * UA).sum() * (UB * UB).sum())  # M_A^T M_B
        pos = torch.diagonal(K)[:r].sum()  # E S over positive pairs = tr(P_A^T P_B)
        if beta is None:
            return -pos
        Z = (beta * torch.cat([W_half @ K, W_half @ K.T], 1)).abs()  # (K^T w_A)_j and (K w_B)_i
        logcosh = (Z + torch.nn.functional.softplus(-2.0 * Z) - log2).sum() / W_half.shape[0]
        return -pos + lam / (2.0 * beta) * logcosh

    return loss


def loss_function(model: DataModel) -> Callable[[Any, float | None], Any]:
    """The population loss L(Y, beta) as a torch function (beta None: non-contrastive)."""
    import torch  # heavy (1 s): only training uses it

    half = flow.signs(model.k)[: 2 ** (model.k - 1)]  # log cosh is even: w and -w give the same term
    return _torch_loss(model, torch.tensor(np.ascontiguousarray(half)))


class _Runner:
    """Gradient descent on the factor Y through :func:`training.loop.descend`, in chunks, logging
    the exact population metrics after each chunk."""

    def __init__(self, spec: RunSpec, Y0: np.ndarray, step0: int, beta: float | None, stage: int) -> None:
        import torch  # heavy (1 s): only training uses it

        self.spec, self.loss = spec, loss_function(spec.model)
        self.Y = torch.tensor(Y0, dtype=torch.float64, requires_grad=True)
        self.step, self.beta, self.stage = step0, beta, stage
        self.rows: list[dict[str, float]] = []

    def grad_norm(self) -> float:
        import torch  # heavy (1 s): only training uses it

        g, = torch.autograd.grad(self.loss(self.Y, self.beta), [self.Y])
        return float(g.norm())

    def log(self) -> dict[str, float]:
        row = state_metrics(self.Y.detach().numpy(), self.spec.model)
        row.update(step=float(self.step), t=self.step * self.spec.eta, stage=float(self.stage),
                   beta=float("nan") if self.beta is None else float(self.beta), grad=self.grad_norm())
        self.rows.append(row)
        return row

    def chunk(self) -> dict[str, float]:
        from training.loop import descend  # heavy: imports torch

        descend([self.Y], lambda step: self.loss(self.Y, self.beta), self.spec.chunk, self.spec.eta)
        self.step += self.spec.chunk
        return self.log()

    def snapshot(self) -> np.ndarray:
        return self.Y.detach().numpy().copy()


def _stage1_done(spec: RunSpec, row: dict[str, float]) -> bool:
    return row["rho_min"] >= 1 - spec.tol_rho and row["noise_ratio"] <= spec.tol_noise


def train_noncontrastive(spec: RunSpec) -> dict[str, np.ndarray]:
    """Loss (4) until an approximate stationary point (|grad| <= ``stationary`` |grad_0|) or ``max_steps``."""
    run = _Runner(spec, initial_factor(spec.model, spec.m, spec.seed), 0, None, 1)
    first = run.log()
    Y0 = run.snapshot()
    while run.step < spec.max_steps:
        if run.chunk()["grad"] <= spec.stationary * first["grad"]:
            break
    converged = run.rows[-1]["grad"] <= spec.stationary * first["grad"]
    return _pack(run.rows, {"Y0": Y0, "Y1": run.snapshot(), "Y_end": run.snapshot()}, t1=run.step,
                 converged=converged, t_star=-1)


def train_stage1(spec: RunSpec) -> dict[str, np.ndarray]:
    """Stage 1 at beta1 until the end-of-Stage-1 conditions of Lemma B.1 first hold (T*), then on to
    T1 = t1_factor T*. A longer Stage 1 continues the run of half its factor (1 -> 2 -> 4): the
    same trajectory, computed once."""
    if spec.t1_factor > 1:
        prev = cached_stage1(replace(spec, t1_factor=max(1.0, spec.t1_factor / 2)))
        t_star = int(prev["t_star"])
        run = _Runner(spec, prev["Y1"], int(prev["t1"]), spec.beta1, 1)
        rows = [{key: float(prev[key][i]) for key in _ROW_KEYS} for i in range(len(prev["step"]))]
        Y0 = prev["Y0"]
        if t_star < 0:  # Stage 1 never ended: nothing to continue
            return prev
    else:
        run = _Runner(spec, initial_factor(spec.model, spec.m, spec.seed), 0, spec.beta1, 1)
        rows, t_star = [], -1
        run.log()
        Y0 = run.snapshot()
    while run.step < spec.max_steps:
        row = run.chunk()
        if t_star < 0 and _stage1_done(spec, row):
            t_star = run.step
        if t_star >= 0 and run.step >= spec.t1_factor * t_star:
            break
    return _pack(rows + run.rows, {"Y0": Y0, "Y1": run.snapshot()}, t1=run.step, t_star=t_star,
                 converged=t_star >= 0)


def train(spec: RunSpec) -> dict[str, np.ndarray]:
    """Algorithm 3.1 (:func:`training.loop.descend` on the population loss); the logged curves and
    snapshots Y0 (initialization), Y1 (end of Stage 1) and Y_end."""
    if spec.method == "noncontrastive":
        return train_noncontrastive(spec)
    first = cached_stage1(spec)
    run = _Runner(spec, first["Y1"], int(first["t1"]), spec.beta2, 2)
    while run.step < int(first["t1"]) + spec.max_steps2:
        if run.chunk()["cond"] <= spec.cond_target:
            break
    rows = [{key: float(first[key][i]) for key in _ROW_KEYS} for i in range(len(first["step"]))]
    return _pack(rows + run.rows, {"Y0": first["Y0"], "Y1": first["Y1"], "Y_end": run.snapshot()},
                 t1=int(first["t1"]), t_star=int(first["t_star"]), converged=bool(first["converged"]))


_ROW_KEYS = ("cond", "cond_B", "rho_min", "noise_ratio", "balance", "second_moment", "offdiag", "step", "t", "stage",
             "beta", "grad")


def _pack(rows: list[dict[str, float]], snaps: dict[str, np.ndarray], **scalars: Any) -> dict[str, np.ndarray]:
    out = {key: np.array([row[key] for row in rows]) for key in _ROW_KEYS}
    out.update(snaps)
    out.update({k: np.asarray(v) for k, v in scalars.items()})
    return out


def _key(spec: RunSpec, **drop: Any) -> dict[str, Any]:
    key = asdict(spec)
    key["model"] = asdict(spec.model)
    for name in drop:
        key.pop(name)
    return key


def cached_stage1(spec: RunSpec) -> dict[str, np.ndarray]:
    """Stage 1 of a contrastive run, cached without the Stage-2 settings (shared across beta2)."""
    return cached_run("ren-stage1", _key(spec, beta2=0, cond_target=0, max_steps2=0), lambda: train_stage1(spec))


def cached_train(spec: RunSpec) -> dict[str, np.ndarray]:
    """train(spec), stored in the cache of trained runs keyed by every parameter."""
    return cached_run("ren", _key(spec), lambda: train(spec))


def flow_twin(spec: RunSpec, run: dict[str, np.ndarray], refine: int = 1) -> dict[str, np.ndarray]:
    """The infinite-width gradient flow of the same data model and schedule (beta switched at the
    run's Stage-1 end), evaluated at the run's logged times (``refine`` points per logging interval):
    the reference the run must track. Logged point i is point i * refine of the result (``per``)."""
    from scipy.integrate import solve_ivp  # heavy (0.3 s): scipy.integrate, only the flow twin

    fm = spec.model.flow()
    logged = np.asarray(run["t"], dtype=float)
    per = refine if refine > 1 and len(logged) > 1 else 1
    times = np.concatenate([logged[:1], *(np.linspace(a, b, per + 1)[1:] for a, b in itertools.pairwise(logged))])
    contrastive = spec.method == "contrastive"
    # the Stage-1 end is a logged step: index arithmetic, no comparison of times
    i1 = int(np.flatnonzero(run["step"] == run["t1"])[0]) * per if contrastive else len(times) - 1
    stages = [(times[1:i1 + 1], spec.beta1 if contrastive else None)]
    if contrastive:
        stages.append((times[i1 + 1:], spec.beta2))
    y = flow.initial_state(fm)
    states: list[tuple[float, np.ndarray]] = [(float(times[0]), y)]
    for pts, beta in stages:
        if len(pts) == 0:
            continue
        sol = solve_ivp(lambda t, yy, beta=beta: flow.rhs(yy, fm, beta), (states[-1][0], float(pts[-1])), y,
                        t_eval=pts, **ode.settings())
        if not sol.success:
            raise RuntimeError(f"the infinite-width flow failed to integrate: {sol.message}")
        states += list(zip(sol.t, sol.y.T))
        y = sol.y[:, -1]
    qs = [flow.tracked(yy, fm) for _, yy in states]
    return {"t": np.array([t for t, _ in states]), "per": np.asarray(per), "cond": np.array([q["cond"] for q in qs]),
            "rho_min": np.array([float(q["rho"].min()) for q in qs]),
            "noise_ratio": np.array([q["noise_ratio"] for q in qs]), "balance": np.array([q["balance"] for q in qs])}


def tracking_gap(spec: RunSpec, run: dict[str, np.ndarray]) -> dict[str, float]:
    """How far the finite-width, finite-step run is from the infinite-width flow over the logged
    times: the largest |log(cond_run / cond_flow)| and |rho_min,run - rho_min,flow|, each allowing a
    shift in time of one logging interval or SHIFT of the elapsed time, whichever is larger (Stage 2
    collapses the condition number within a few intervals, where a pointwise comparison would
    measure the slope of the collapse, not the tracking).

    The windows are chosen exactly, in steps: flow point i * REFINE + k sits at the logged step s_i plus k / REFINE
    of the interval to s_(i+1), so REFINE times its step is an integer, and the closed window |s - s_i| <= max(the
    shortest logging interval, SHIFT s_i) is an inequality between integers."""
    dense = flow_twin(spec, run, refine=REFINE)
    steps = np.asarray(run["step"]).astype(np.int64)
    if not np.array_equal(steps, run["step"]):
        raise ValueError("tracking_gap: the logged steps are not integers")
    n, per = len(steps), int(dense["per"])
    # per (= REFINE) x the step of every flow point: exact integers
    starts = np.repeat(steps[:-1] * per, per) + np.tile(np.arange(per), n - 1) * np.repeat(np.diff(steps), per)
    dense_steps = np.append(starts, steps[-1] * per) if n > 1 else steps * per
    shortest = int(np.min(np.diff(steps))) if n > 1 else 0
    if len(dense_steps) != len(dense["t"]):
        raise RuntimeError(f"tracking_gap: {len(dense['t'])} flow points for {len(dense_steps)} grid points")
    shift_num, shift_den = SHIFT.numerator, SHIFT.denominator

    def gap(x: np.ndarray, y: np.ndarray) -> float:
        """max_i of the distance from x_i to the range of the (continuous) flow curve over the window."""
        worst = 0.0
        for i in range(n):
            dist = np.abs(dense_steps - steps[i] * per) * shift_den  # shift_den x REFINE x |s - s_i|
            reach = max(shortest * per * shift_den, shift_num * per * int(steps[i]))
            near = y[dist <= reach]
            worst = max(worst, float(max(0.0, x[i] - near.max(), near.min() - x[i])))
        return worst

    return {"cond_gap": gap(np.log(run["cond"]), np.log(dense["cond"])),
            "rho_gap": gap(run["rho_min"], dense["rho_min"]),
            "flow_cond_end": float(dense["cond"][-1]), "flow_balance_end": float(dense["balance"][-1]),
            "flow_cond_t1": float(dense["cond"][int(np.flatnonzero(run["step"] == run["t1"])[0]) * per]),
            "width_offset": float(abs(math.log(run["cond"][0] / spec.model.kappa)))}


def model_checks(model: DataModel) -> list[RegimeCheck]:
    """The assumptions of Theorem 4.3 on the data model itself."""
    z = flow.signs(model.r).astype(np.int64)
    exact = bool(np.all(z.sum(axis=0) == 0) and np.array_equal(z.T @ z, len(z) * np.eye(model.r, dtype=np.int64)))
    moments = float(max(np.abs(z.mean(axis=0)).max(), np.abs(z.T @ z / len(z) - np.eye(model.r)).max()))
    return [
        RegimeCheck("latent law", "z, xi uniform on {+-1}^r, {+-1}^d_xi (Lemma A.7, Lemma C.2's product form): "
                    "exact E z = 0, E z z^T = I", moments, "0 (exact sums over {+-1}^r, in integers)", exact),
        RegimeCheck("admissible spectrum", "sigma_max / sigma_min bounded (the lost assumption of Theorem 4.3, "
                    "'for some small constant'; KAPPA_MAX stands for it)", float(model.kappa),
                    f"<= {KAPPA_MAX:g}", at_most(float(model.kappa), KAPPA_MAX, what="sigma_max / sigma_min")),
        RegimeCheck("noise-to-signal ratio", "E||A_xi xi||^2 / E||A z||^2 = d_xi sigma_xi^2 / sum sigma_k^2 small "
                    "(Lemma 5.1: 'the noise-signal ratio is small')", float(model.noise_signal),
                    f"<= {NOISE_MAX:g}", at_most(float(model.noise_signal), NOISE_MAX, what="noise-to-signal ratio")),
    ]


def stage1_end(model: DataModel, beta: float | None = None, tol_rho: float = 0.01, tol_noise: float = 0.01,
               t_max: float = 5000.0) -> dict[str, Any]:
    """Integrate the infinite-width flow until the end-of-Stage-1 conditions of Lemma B.1 (every
    cosine >= 1 - tol_rho, noise-to-signal ratio <= tol_noise); returns the state, the time and the
    path (for the growth-rate check)."""
    from scipy.integrate import solve_ivp  # heavy (0.3 s): scipy.integrate, only the flow twin

    fm = model.flow()
    y0 = flow.initial_state(fm)

    def done(t: float, y: np.ndarray) -> float:
        q = flow.tracked(y, fm)
        return min(float(q["rho"].min()) - (1 - tol_rho), tol_noise - q["noise_ratio"])

    done.terminal, done.direction = True, 1  # type: ignore[attr-defined]
    sol = solve_ivp(lambda t, y: flow.rhs(y, fm, beta), (0.0, t_max), y0, events=done, dense_output=True,
                    **ode.settings())
    t1 = float(sol.t_events[0][0]) if len(sol.t_events[0]) else float("nan")
    end = sol.y_events[0][0] if len(sol.t_events[0]) else sol.y[:, -1]
    return {"t1": t1, "y1": end, "sol": sol, "reached": bool(len(sol.t_events[0]))}
