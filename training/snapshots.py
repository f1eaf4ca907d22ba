"""Trained encoders seen through their snapshots: the runs the checker uses as test subjects.

A run (:class:`RunSpec`) trains an encoder on scikit-learn's digits with the training
module; at every logged step the embeddings of a fixed evaluation subset (``per_class``
images per digit) are kept, together with the min and max output norms over all 1 797
images. A snapshot becomes a finite-mixture subject (class c = digit, D_c uniform over
its embedded evaluation images, rho = the digits' class frequencies or uniform), so every
claim about finite mixtures can be checked on encoders that were actually trained, and a
witness found on one replays without the encoder (it is just the embedded points).

Runs are stored in the one cache of trained runs (:mod:`training.cache`), keyed by the spec,
so the audit and the tests do not retrain what they already have.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from numerics.seeds import run_seed
from training.cache import Arrays, cache_dir, cached_run, run_key

EVAL_SEED = 12345  # which digits form the evaluation subset: fixed, independent of the run seed
AUGMENT_SEED = 12346  # which augmented views of them are kept: fixed, independent of the run seed


def training_seed(stream: str, index: int, audit_seed: int) -> int:
    """The seed run ``index`` (0, 1, ...) of the training stream ``stream`` trains with in the audit at
    ``audit_seed``: the one seed rule (:func:`numerics.seeds.run_seed`), so audits at different seeds share no
    run."""
    return run_seed(audit_seed, stream, index)


@dataclass(frozen=True)
class RunSpec:
    """One training run on digits (Merad et al. Section 5 setting, scaled to this machine)."""

    name: str
    seed: int
    n_negatives: int = 1  # N of (6)
    steps: int = 300
    log_every: int = 25
    loss: str = "contrastive"
    encoder: str = "conv"  # the paper uses a small convolutional network on MNIST
    d_out: int = 16
    batch_size: int = 64
    lr: float = 1e-3
    per_class: int = 20  # evaluation images per digit (M = 10 * per_class support points)
    positives: str = "class"  # "class": x+ from the same latent class (1); "views": two augmentations
    augment: bool = False  # random shifts and noise on the inputs (training.data.augment)
    aug_views: int = 0  # > 0: also keep f on this many augmented views of each evaluation image

    def key(self) -> str:
        return run_key(asdict(self))

    def for_audit_seed(self, audit_seed: int) -> "RunSpec":
        """This run as the audit with seed ``audit_seed`` trains it (:func:`training_seed`)."""
        return replace(self, seed=training_seed(self.name, self.seed, audit_seed))


@dataclass
class Snapshot:
    """The encoder of one run at one logged step, seen through its evaluation embeddings."""

    spec: RunSpec
    step: int
    loss: float
    embeddings: np.ndarray  # (M, d) f(x) on the evaluation subset
    labels: np.ndarray  # (M,) digit of each evaluation image
    norm_min: float  # min ||f(x)|| over all 1797 images
    norm_max: float
    class_freq: np.ndarray = field(default_factory=lambda: np.full(10, 0.1))  # rho of the data
    aug_inputs: np.ndarray | None = None  # (M, 1 + aug_views, 64): each image then its views
    aug_feats: np.ndarray | None = None  # (M, 1 + aug_views, d): f on them

    def describe(self) -> str:
        return f"{self.spec.name} seed {self.spec.seed} step {self.step}"


def augmented_inputs(X: np.ndarray, views: int) -> np.ndarray:
    """Each image followed by ``views`` augmented copies (fixed seed: the same for every run)."""
    from training.data import augment  # heavy: training.data imports scipy.spatial

    rng = np.random.default_rng(AUGMENT_SEED)
    return np.stack([X] + [augment(X, rng) for _ in range(views)], axis=1)


def evaluation_indices(y: np.ndarray, per_class: int) -> np.ndarray:
    rng = np.random.default_rng(EVAL_SEED)
    out = [np.sort(rng.choice(np.flatnonzero(y == c), size=per_class, replace=False)) for c in np.unique(y)]
    return np.concatenate(out)


def run_snapshots(spec: RunSpec) -> list[Snapshot]:
    """Train (or load from the cache) and return the snapshots at every logged step."""
    data = _cached(spec)
    aug = data["aug_feats"] if "aug_feats" in data else [None] * len(data["steps"])
    inputs = data["aug_inputs"] if "aug_inputs" in data else None
    return [Snapshot(spec, int(step), float(loss), emb, data["labels"], float(lo), float(hi), data["class_freq"],
                     inputs, feats)
            for step, loss, emb, lo, hi, feats in zip(data["steps"], data["losses"], data["embeddings"],
                                                      data["norm_min"], data["norm_max"], aug)]


def _cached(spec: RunSpec) -> Arrays:
    return cached_run(f"digits-{spec.name}", asdict(spec), lambda: _train(spec))


def ensure_trained(spec: RunSpec) -> None:
    """Train the run into the cache unless it is there (a parallel audit does this ahead of the claims)."""
    _cached(spec)


def training_seconds(spec: RunSpec) -> float:
    """A rough duration of the run on one core: it encodes (2 + N) batch images per step (about
    25 000 image passes, forward and backward, per second for the conv encoder)."""
    return spec.steps * spec.batch_size * (2 + spec.n_negatives) * (1 + spec.aug_views) / 25_000


def _train(spec: RunSpec) -> Arrays:
    import torch  # heavy (1 s): only when a run is trained

    from training.data import load_digits_data  # heavy: imports scipy.spatial
    from training.encoders import EncoderConfig  # heavy: imports torch
    from training.loop import TrainConfig, train  # heavy: imports torch

    X, y = load_digits_data()
    idx = evaluation_indices(y, spec.per_class)
    freq = np.bincount(y, minlength=10) / y.size
    aug_in = augmented_inputs(X[idx], spec.aug_views) if spec.aug_views else None
    snaps: list[Snapshot] = []

    def on_log(step: int, encoder: Any, entry: dict[str, Any]) -> None:
        device = next(encoder.parameters()).device
        with torch.no_grad():
            emb = encoder(torch.as_tensor(X, device=device)).double().cpu().numpy()
            aug = None
            if aug_in is not None:
                flat = torch.as_tensor(aug_in.reshape(-1, 64), dtype=torch.float32, device=device)
                aug = encoder(flat).double().cpu().numpy().reshape(aug_in.shape[0], aug_in.shape[1], -1)
        norms = np.linalg.norm(emb, axis=1)
        snaps.append(Snapshot(spec, step, float(entry.get("loss", float("nan"))), emb[idx], y[idx],
                              float(norms.min()), float(norms.max()), freq, aug_in, aug))

    config = TrainConfig(
        encoder=EncoderConfig(kind=spec.encoder, d_in=64, d_out=spec.d_out),
        loss=spec.loss, n_negatives=spec.n_negatives, batch_size=spec.batch_size, steps=spec.steps,
        lr=spec.lr, seed=spec.seed, device="cpu", data="digits", log_every=spec.log_every,
        positives=spec.positives, augment=spec.augment,
        checkpoint_every=0, out_dir=str(cache_dir() / "checkpoints" / f"{spec.name}-{spec.key()}"),
    )
    train(config, on_log=on_log, progress=False)
    arrays = {"steps": np.array([s.step for s in snaps]), "losses": np.array([s.loss for s in snaps]),
              "embeddings": np.stack([s.embeddings for s in snaps]), "labels": snaps[0].labels,
              "norm_min": np.array([s.norm_min for s in snaps]), "norm_max": np.array([s.norm_max for s in snaps]),
              "class_freq": snaps[0].class_freq}
    if spec.aug_views:
        arrays["aug_inputs"] = snaps[0].aug_inputs
        arrays["aug_feats"] = np.stack([s.aug_feats for s in snaps])
    return arrays
