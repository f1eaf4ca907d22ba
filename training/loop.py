"""The training loop: batch -> loss -> log -> backward -> step, with checkpoints that save their config.

Every training run of the project goes through :func:`optimize`: :func:`train` (encoders on
digits, synthetic data or fixed triplets) and :func:`descend` (plain gradient descent on the
papers' own models).

``step`` counts the optimizer updates already applied: the entry logged at step s
holds the loss of batch s at the parameters after s updates, so step 0 is the
untrained encoder. A checkpoint at step s holds those parameters and the RNG
states positioned to draw batch s, so resuming reproduces an uninterrupted run.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
import torch
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from torch import nn

from numerics.bounded_read import read_regular_file
from numerics.errors import AssumptionError, InputFileError
from numerics.files import atomic_path
from training import losses
from training.data import LatentClassSampler, augment, fixed_triplets, load_digits_data, synthetic_latent_classes, views
from training.device import autocast_context, deterministic_kernels, select_device
from training.encoders import EncoderConfig, build_encoder
from training.names import DATA_NAMES, LOSS_NAMES, OPTIMIZERS, POSITIVES

# fields that must agree between a checkpoint and the config that resumes it
RESUME_FIELDS = ("encoder", "loss", "n_negatives", "batch_size", "optimizer", "seed", "data", "augment",
                 "positives", "temperature", "barlow_lambda", "n_triplets")

Batch = tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # xa (B, d_in), xp (B, d_in), xn (B, N, d_in)
OnLog = Callable[[int, nn.Module, dict[str, Any]], None]


@dataclass
class TrainConfig:
    """One training run; saved (as a dict) in every checkpoint."""

    encoder: EncoderConfig = field(default_factory=EncoderConfig)  # MLP 64 -> 128 -> 32 on digits
    loss: str = "contrastive"  # L^N_un (6): the loss Section 3 bounds; one of LOSS_NAMES
    n_negatives: int = 32  # N: Lemma 2 wants N = Omega(N_C log N_C); 10 log 10 = 23 for digits, rounded up
    batch_size: int = 128  # ~14 batches per digits epoch; a CPU step takes milliseconds
    steps: int = 500  # enough for the digits loss to flatten with Adam at lr 1e-3
    lr: float = 1e-3  # Adam's usual step; for "sgd" on the SUM (11) scale it down with n
    optimizer: str = "adam"  # "sgd" is plain gradient descent (no momentum): Theorem 1's algorithm
    seed: int = 0  # fixes init, batches and augmentations: same seed on CPU -> same parameters
    device: str = "auto"  # CUDA when available, else CPU (training.device.select_device)
    data: str = "digits"  # "digits" (sklearn, offline), "synthetic" (Gaussian classes), "triplets" (Section 4)
    augment: bool = False  # off: (1) already draws positives from the latent class, no augmentation needed
    positives: str = "class"  # "class": x+ ~ D_sim (1); "views": x1, x2 in A(x), two augmentations (Huang et al.)
    log_every: int = 10  # a history entry (and on_log call) every 10 steps: cheap next to a step
    checkpoint_every: int = 0  # 0: only the final checkpoint; > 0 for long runs that may be interrupted
    out_dir: str | None = "runs/train"  # checkpoints go here; None: no checkpoints
    temperature: float = 1.0  # InfoNCE temperature; the slides (Huang et al.) have none, i.e. 1
    barlow_lambda: float = 5e-3  # off-diagonal weight of the cross-correlation loss (Zbontar et al.'s value)
    n_triplets: int = 100  # data="triplets": 3n = 300 distinct digits, so Assumption 1 holds (delta > 0)
    amp: bool = False  # mixed precision on CUDA only; off so CPU and CUDA runs compute the same losses

    def __post_init__(self) -> None:
        if isinstance(self.encoder, dict):  # from asdict / a checkpoint
            self.encoder = EncoderConfig(**self.encoder)
        for name, value, allowed in (("loss", self.loss, LOSS_NAMES), ("data", self.data, DATA_NAMES),
                                     ("optimizer", self.optimizer, OPTIMIZERS),
                                     ("positives", self.positives, POSITIVES)):
            if value not in allowed:
                raise AssumptionError(f"{name}={value!r} is unknown: use one of {allowed}")
        for name, low in (("batch_size", 1), ("steps", 0), ("log_every", 1), ("checkpoint_every", 0),
                          ("n_triplets", 1), ("n_negatives", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise AssumptionError(f"{name}={value!r}: must be an integer >= {low}")
        if not (self.lr > 0 and self.temperature > 0 and self.barlow_lambda >= 0):
            raise AssumptionError(f"lr={self.lr}, temperature={self.temperature}, barlow_lambda="
                                  f"{self.barlow_lambda}: need lr > 0, temperature > 0, barlow_lambda >= 0")
        if self.loss == "triplet" and self.data != "triplets":
            raise AssumptionError(f"loss='triplet' with data={self.data!r}: (11) is a sum over a FIXED set of "
                                  "triplets (Section 4); use data='triplets'")
        if self.loss in ("contrastive", "infonce") and self.data != "triplets" and self.n_negatives < 1:
            raise AssumptionError(f"loss={self.loss!r} with n_negatives=0: (6) needs N >= 1 negatives")
        if self.augment and self.data != "digits":
            raise AssumptionError(f"augment=True with data={self.data!r}: augmentations are 8x8-image shifts "
                                  "(data='digits'); Section 4 needs triplets fixed before training")
        if self.positives == "views" and not self.augment:
            raise AssumptionError("positives='views' without augment=True: the two views would be identical")
        if self.data in ("digits", "triplets") and self.encoder.d_in != 64:
            raise AssumptionError(f"encoder.d_in={self.encoder.d_in} with data={self.data!r}: digits have 64 pixels")

    @property
    def negatives_per_anchor(self) -> int:
        """The N actually used: 1 for fixed triplets, 0 for losses without negatives."""
        if self.loss in ("barlow", "positive"):
            return 0
        return 1 if self.data == "triplets" else self.n_negatives


@dataclass
class TrainResult:
    encoder: nn.Module  # the trained encoder (on the training device)
    history: list[dict[str, Any]]  # one entry per log: step, loss, seconds, + whatever on_log added
    checkpoint: Path | None  # out_dir/last.pt, or None when out_dir is None


class _Batches:
    """Draws batches (xa, xp, xn) on the device: from D_sim/D_neg, or the whole fixed triplet set."""

    def __init__(self, config: TrainConfig, device: torch.device) -> None:
        self.config, self.device, self.n_neg = config, device, config.negatives_per_anchor
        self.aug_rng = np.random.default_rng([config.seed, 1])  # independent of the sampler's stream
        if config.data == "synthetic":
            X, y = synthetic_latent_classes(dim=config.encoder.d_in, seed=config.seed)
        else:
            X, y = load_digits_data()
        if config.data == "triplets":
            ts = fixed_triplets(X, y, config.n_triplets, seed=config.seed)
            self.delta = ts.delta
            self.fixed: Batch = tuple(torch.tensor(a, dtype=torch.float32, device=device)  # type: ignore[assignment]
                                      for a in (ts.xa, ts.xp, ts.xn[:, None, :]))  # (n, d), (n, d), (n, 1, d)
            return
        self.X = X  # (rows, d_in) float32, numpy (augmentations run on CPU)
        self.X_t = torch.from_numpy(X).to(device)  # (rows, d_in)
        self.sampler = LatentClassSampler(X, y, seed=config.seed)

    def draw(self) -> Batch:
        if self.config.data == "triplets":
            return self.fixed
        a, p, n = self.sampler.sample(self.config.batch_size, self.n_neg)  # (B,), (B,), (B, N)
        b = len(a)
        if not self.config.augment:
            take = lambda idx: self.X_t[torch.from_numpy(idx).to(self.device)]  # noqa: E731
            return take(a), take(p), take(n.reshape(-1)).reshape(b, self.n_neg, self.X.shape[1])
        if self.config.positives == "views":
            xa, xp = views(self.X[a], self.aug_rng)  # x1, x2 in A(x): (B, 64) each
        else:
            xa, xp = augment(self.X[a], self.aug_rng), augment(self.X[p], self.aug_rng)
        if self.n_neg:
            xn = augment(self.X[n.reshape(-1)], self.aug_rng).reshape(b, self.n_neg, 64)  # (B, N, 64)
        else:  # losses without negatives (cross-correlation, positive-only): an empty (B, 0, 64)
            xn = np.zeros((b, 0, 64), dtype=self.X.dtype)
        return tuple(torch.from_numpy(t).to(self.device) for t in (xa, xp, xn))  # type: ignore[return-value]

    def rng_state(self) -> dict[str, Any]:
        sampler = None if self.config.data == "triplets" else self.sampler.rng.bit_generator.state
        return {"sampler": sampler, "augment": self.aug_rng.bit_generator.state}

    def set_rng_state(self, state: dict[str, Any]) -> None:
        if state["sampler"] is not None:
            self.sampler.rng.bit_generator.state = state["sampler"]
        self.aug_rng.bit_generator.state = state["augment"]


def encode_distinct(encoder: nn.Module, inputs: torch.Tensor) -> torch.Tensor:
    """encoder(inputs), encoding each distinct row once: f(x) of a row depends on that row alone
    (no encoder here has a batch-dependent layer), and with N negatives drawn from 1 797 digits a
    batch repeats many images (B = 64, N = 35: 2 368 rows, about 1 350 distinct). The loss and its
    gradient are the same function of the parameters; only the work shrinks."""
    found = distinct_rows(inputs)
    if found is None:  # (nearly) all distinct: grouping would not pay
        return encoder(inputs)
    representatives, inverse = found
    return encoder(inputs[representatives])[inverse]


def distinct_rows(rows: torch.Tensor, worth: float = 0.9) -> tuple[torch.Tensor, torch.Tensor] | None:
    """(first, inverse): the index of each distinct row's first occurrence, in order, and for each row
    the position of its own in ``first`` (so rows[first][inverse] == rows, bit for bit); None when more
    than ``worth`` of the rows are distinct. A function of the rows alone (the same batch order in
    every process).

    Rows are grouped by a 64-bit key of their bit patterns (a fixed random linear form, wrapping),
    which sorts one integer per row instead of comparing rows entry by entry (torch.unique(dim=0)
    took 14 % of a training run); the grouping is then checked row by row, and a key shared by two
    different rows falls back to the exact lexicographic grouping. Rows are equal when their bit
    patterns are (+0.0 and -0.0 are two rows)."""
    flat = rows.detach().reshape(rows.shape[0], -1).contiguous()
    if flat.shape[0] == 0:
        return None
    as_int = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}.get(flat.element_size())
    if as_int is not None and not flat.is_complex():
        bits = flat.view(as_int).to(torch.int64)
        keys = (bits * _key_weights(flat.shape[1], flat.device)).sum(dim=1)  # int64 wraps: a hash, checked below
        grouped = _first_occurrence(torch.unique(keys, return_inverse=True)[1], worth)
        if grouped is None or torch.equal(flat[grouped[0]][grouped[1]], flat):
            return grouped
    # no integer view of this dtype, or a key was shared: the exact lexicographic grouping
    return _first_occurrence(torch.unique(flat, dim=0, return_inverse=True)[1], worth)


@functools.lru_cache(maxsize=16)
def _key_weights(width: int, device: torch.device) -> torch.Tensor:
    """The fixed random linear form of the keys (made once per width and device: every batch uses it)."""
    generator = torch.Generator().manual_seed(0x5EED + width)
    return torch.randint(-2**62, 2**62, (width,), generator=generator, dtype=torch.int64).to(device)


def _first_occurrence(group: torch.Tensor, worth: float) -> tuple[torch.Tensor, torch.Tensor] | None:
    """Groups (labels 0..k-1, one per row) renumbered by their first row: (first index of each, new
    labels); None when k > worth * rows."""
    n, k = group.shape[0], int(group.max()) + 1
    if k > worth * n:
        return None
    first = torch.full((k,), n, dtype=torch.int64, device=group.device)
    first = first.scatter_reduce(0, group, torch.arange(n, device=group.device), reduce="amin")
    ranked = torch.argsort(first)
    rank = torch.empty_like(ranked)
    rank[ranked] = torch.arange(k, device=group.device)
    return first[ranked], rank[group]


def compute_loss(config: TrainConfig, encoder: nn.Module, batch: Batch) -> torch.Tensor:
    """Encode the batch in one forward pass and apply the configured loss (a scalar)."""
    xa, xp, xn = batch  # (B, d_in), (B, d_in), (B, N, d_in)
    b, n = xa.shape[0], (xn.shape[1] if config.negatives_per_anchor else 0)
    z = encode_distinct(encoder, torch.cat([xa, xp, xn[:, :n].flatten(0, 1)]))  # (2B + BN, d)
    za, zp, zn = z[:b], z[b:2 * b], z[2 * b:].reshape(b, n, z.shape[1])  # (B, d), (B, d), (B, N, d)
    if config.loss == "contrastive":
        return losses.contrastive_loss_n(za, zp, zn)
    if config.loss == "triplet":
        return losses.triplet_objective(za, zp, zn[:, 0])
    if config.loss == "infonce":
        return losses.infonce_loss(za, zp, zn, temperature=config.temperature)
    if config.loss == "barlow":
        return losses.cross_correlation_loss(za, zp, lam=config.barlow_lambda)
    return losses.positive_only_loss(za, zp)


def optimize(objective: Callable[[int], torch.Tensor], update: Callable[[int, torch.Tensor], None], steps: int, *,
             start: int = 0, log_every: int = 1, on_log: Callable[[int, torch.Tensor, bool], None] | None = None,
             before_step: Callable[[int], None] | None = None,
             final_objective: Callable[[], torch.Tensor] | None = None) -> int:
    """The loop every training run of the project goes through.

    At each step s = start .. steps - 1: ``before_step(s)`` (checkpoints), ``loss = objective(s)``
    (the loss at the parameters after s updates), ``on_log(s, loss, False)`` every ``log_every``
    steps, then ``update(s, loss)``. After the last update the final loss
    (``final_objective()``, default ``objective(steps)``) is logged with ``final=True``. A
    non-finite loss is logged and stops the loop (a diverged run); returns the step reached.
    Nothing runs and nothing is logged when ``start >= steps``.
    """
    if start >= steps:
        return start
    deterministic_kernels()
    for step in range(start, steps):
        if before_step is not None:
            before_step(step)
        loss = objective(step)
        finite = bool(torch.isfinite(loss.detach()).all())
        if on_log is not None and (step % log_every == 0 or not finite):
            on_log(step, loss, False)
        if not finite:
            return step
        update(step, loss)
    loss = final_objective() if final_objective is not None else objective(steps)
    if on_log is not None:
        on_log(steps, loss, True)
    return steps


def descend(params: list[torch.Tensor], objective: Callable[[int], torch.Tensor], steps: int,
            lr: float | Callable[[int], float], *, log_every: int = 1,
            on_log: Callable[[int, torch.Tensor, bool], None] | None = None) -> int:
    """Plain gradient descent p <- p - lr grad on ``params`` (leaf tensors), through :func:`optimize`:
    the dynamics of the papers' own models (full-batch GD, population SGD with fresh samples)."""
    def update(step: int, loss: torch.Tensor) -> None:
        grads = torch.autograd.grad(loss, params)
        rate = lr(step) if callable(lr) else lr
        with torch.no_grad():
            for p, g in zip(params, grads):
                p -= rate * g

    return optimize(objective, update, steps, log_every=log_every, on_log=on_log)


def train(config: TrainConfig, on_log: OnLog | None = None, resume_from: str | Path | None = None,
          progress: bool = True) -> TrainResult:
    """Train ``build_encoder(config.encoder)`` with ``config.loss``; see the module docstring for step semantics.

    ``on_log(step, encoder, entry)`` runs at step 0, every ``log_every`` steps and after
    the last step; keys it adds to ``entry`` are kept in the history. The run seeds torch inside
    ``torch.random.fork_rng``: the caller's global RNG state is left as it was.
    """
    device = select_device(config.device)
    with torch.random.fork_rng(devices=[device] if device.type == "cuda" else []):
        torch.manual_seed(config.seed)
        return _train(config, device, on_log, resume_from, progress)


def _train(config: TrainConfig, device: torch.device, on_log: OnLog | None, resume_from: str | Path | None,
           progress: bool) -> TrainResult:
    batches = _Batches(config, device)
    encoder = build_encoder(config.encoder).to(device)
    optimizer = _optimizer(config, encoder)
    scaler = torch.amp.GradScaler("cuda", enabled=config.amp and device.type == "cuda")
    out = Path(config.out_dir) if config.out_dir else None
    start, history = 0, []
    if resume_from is not None:
        start, history = _restore(Path(resume_from), config, encoder, optimizer, scaler, batches)
    t0 = time.perf_counter()
    state: dict[str, Any] = {"ckpt": None, "loss": None, "batch": None}

    def log(step: int, value: torch.Tensor, final: bool) -> None:
        entry = {"step": step, "loss": float(value.item()), "seconds": time.perf_counter() - t0}
        if final:
            entry["final"] = True
        if not math.isfinite(entry["loss"]):
            raise AssumptionError(f"loss = {entry['loss']} at step {step}: training diverged with lr={config.lr}; "
                                  "lower lr (the triplet objective (11) is a SUM: scale lr like 1/n_triplets)")
        if on_log is not None:
            on_log(step, encoder, entry)
        history.append(entry)

    def save(step: int) -> Path:
        ckpt = _checkpoint(config, device, step, encoder, optimizer, scaler, batches, history, state["loss"])
        return _write(out, step, ckpt)  # type: ignore[arg-type]

    def before_step(step: int) -> None:
        if out is not None and config.checkpoint_every and step > start and step % config.checkpoint_every == 0:
            state["ckpt"] = save(step)

    def objective(step: int) -> torch.Tensor:
        state["batch"] = batches.draw()
        with autocast_context(device, config.amp):
            state["loss"] = compute_loss(config, encoder, state["batch"])
        return state["loss"]

    def final_objective() -> torch.Tensor:  # the last batch at the final parameters (draws no randomness)
        with torch.no_grad(), autocast_context(device, config.amp):
            return compute_loss(config, encoder, state["batch"])

    with _progress_bar(progress, config.steps, start) as advance:
        def update(step: int, loss: torch.Tensor) -> None:
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            advance(loss if step % config.log_every == 0 else None)

        optimize(objective, update, config.steps, start=start, log_every=config.log_every, on_log=log,
                 before_step=before_step, final_objective=final_objective)
    if out is not None:
        state["ckpt"] = save(max(start, config.steps))
    return TrainResult(encoder=encoder, history=history, checkpoint=state["ckpt"])


def load_encoder(checkpoint: str | Path | dict[str, Any], device: str = "cpu") -> tuple[nn.Module, TrainConfig]:
    """The encoder (eval mode, on ``device``) and the TrainConfig saved in a checkpoint."""
    state = checkpoint if isinstance(checkpoint, dict) else load_checkpoint(checkpoint)
    config = config_from_dict(state["config"])
    encoder = build_encoder(config.encoder)
    encoder.load_state_dict(state["state_dict"])
    return encoder.to(select_device(device)).eval(), config


def config_from_dict(d: dict[str, Any]) -> TrainConfig:
    """Inverse of ``dataclasses.asdict`` for TrainConfig (unknown keys are an error)."""
    names = {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(d) - names)
    if unknown:
        raise AssumptionError(f"config keys {unknown} are not TrainConfig fields: {sorted(names)}")
    return TrainConfig(**{**d, "encoder": EncoderConfig(**d["encoder"])})


def _optimizer(config: TrainConfig, encoder: nn.Module) -> torch.optim.Optimizer:
    if config.optimizer == "sgd":
        return torch.optim.SGD(encoder.parameters(), lr=config.lr)  # plain GD step: no momentum, no decay
    return torch.optim.Adam(encoder.parameters(), lr=config.lr)


def _checkpoint(config: TrainConfig, device: torch.device, step: int, encoder: nn.Module,
                optimizer: torch.optim.Optimizer, scaler: torch.amp.GradScaler, batches: _Batches,
                history: list[dict[str, Any]], loss: torch.Tensor | None) -> dict[str, Any]:
    rng = {"torch": torch.get_rng_state(), **batches.rng_state(),
           "cuda": torch.cuda.get_rng_state_all() if device.type == "cuda" else None}
    return {"config": asdict(config), "state_dict": encoder.state_dict(), "optimizer": optimizer.state_dict(),
            "scaler": scaler.state_dict(), "step": step, "loss": None if loss is None else float(loss.item()),
            "device": str(device), "seed": config.seed, "n_negatives": config.negatives_per_anchor,
            "data": config.data, "history": [dict(h) for h in history], "rng": rng,
            "torch_version": str(torch.__version__)}


def _write(out: Path, step: int, state: dict[str, Any]) -> Path:
    """Write out/ckpt_<step>.pt and out/last.pt (each via a temporary file and an atomic rename)."""
    out.mkdir(parents=True, exist_ok=True)
    for path in (out / f"ckpt_{step}.pt", out / "last.pt"):
        with atomic_path(path) as tmp:
            torch.save(state, tmp)
    return out / "last.pt"


MAX_CHECKPOINT_BYTES = 2**30  # the encoders here save a few MB; a file past 1 GiB is not one of ours
CHECKPOINT_FIELDS = ("config", "state_dict", "optimizer", "scaler", "step", "history", "rng")


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    """A checkpoint written by :func:`train`, or an AssumptionError naming the file and what is wrong
    with it (missing, not a regular file, too large, truncated or not a checkpoint, fields missing,
    a configuration this version cannot read)."""
    try:
        data = read_regular_file(path, MAX_CHECKPOINT_BYTES, "checkpoint")
    except InputFileError as exc:
        raise AssumptionError(str(exc)) from None
    try:
        state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - random bytes, a truncated zip, a pickle weights_only refuses
        first = str(exc).strip().splitlines()[0].split(". ")[0][:160] if str(exc).strip() else ""
        raise AssumptionError(f"checkpoint {str(path)!r} cannot be read (truncated, or not a checkpoint): "
                              f"{type(exc).__name__}: {first}") from None
    missing = [k for k in CHECKPOINT_FIELDS if not isinstance(state, dict) or k not in state]
    if missing:
        raise AssumptionError(f"checkpoint {str(path)!r} is not a clcheck training checkpoint: it lacks "
                              f"{', '.join(missing)}")
    try:
        config_from_dict(state["config"])
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise AssumptionError(f"checkpoint {str(path)!r} holds a configuration this version cannot read: {exc}") from None
    return state


def _restore(path: Path, config: TrainConfig, encoder: nn.Module, optimizer: torch.optim.Optimizer,
             scaler: torch.amp.GradScaler, batches: _Batches) -> tuple[int, list[dict[str, Any]]]:
    """Load parameters, optimizer, scaler and RNG states; return (step, history without its final entry)."""
    state = load_checkpoint(path)
    saved = config_from_dict(state["config"])
    differ = [f for f in RESUME_FIELDS if getattr(saved, f) != getattr(config, f)]
    if differ:
        raise AssumptionError(f"cannot resume from {str(path)!r}: config fields {differ} differ from the checkpoint "
                              f"({ {f: getattr(saved, f) for f in differ} })")
    encoder.load_state_dict(state["state_dict"])
    optimizer.load_state_dict(state["optimizer"])
    scaler.load_state_dict(state["scaler"])
    torch.set_rng_state(state["rng"]["torch"])
    if state["rng"]["cuda"] is not None and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["rng"]["cuda"])
    batches.set_rng_state(state["rng"])
    return int(state["step"]), [h for h in state["history"] if not h.get("final")]


@contextlib.contextmanager
def _progress_bar(enabled: bool, total: int, done: int) -> Iterator[Callable[[torch.Tensor | None], None]]:
    """Yields advance(loss_or_None): a rich progress bar showing the last logged loss, or a no-op."""
    if not enabled:
        yield lambda loss: None
        return
    columns = (TextColumn("train"), BarColumn(), MofNCompleteColumn(), TextColumn("loss {task.fields[loss]}"),
               TimeElapsedColumn())
    with Progress(*columns) as bar:
        task = bar.add_task("train", total=total, completed=done, loss="-")

        def advance(loss: torch.Tensor | None) -> None:
            bar.update(task, advance=1, **({} if loss is None else {"loss": f"{loss.item():.4f}"}))

        yield advance
