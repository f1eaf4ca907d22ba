"""Training contrastive encoders: the losses of Merad et al. (6), (11) and Huang et al., encoders, one loop.

One short module per job: ``names`` (the choices a run takes), ``device`` (device, mixed
precision, process settings), ``encoders``, ``losses``, ``data`` (digits, D_sim/D_neg sampling,
fixed triplets), ``loop`` (TrainConfig, the one training loop, checkpoints), ``cache`` (the one
cache of trained runs), ``snapshots`` (runs seen as test subjects) and ``cli`` (``train_command``).

The names below are imported on first use (PEP 562), so ``import training`` does not import torch.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "LatentClassSampler": "data", "TripletSet": "data", "augment": "data", "fixed_triplets": "data",
    "load_digits_data": "data", "synthetic_latent_classes": "data", "views": "data",
    "autocast_context": "device", "configure_process": "device", "seed_everything": "device",
    "select_device": "device",
    "ConvEncoder": "encoders", "DeepReLUEncoder": "encoders", "EncoderConfig": "encoders", "MLPEncoder": "encoders",
    "build_encoder": "encoders",
    "contrastive_loss_n": "losses", "contrastive_loss_shared_negatives": "losses", "cross_correlation_loss": "losses",
    "infonce_loss": "losses", "positive_only_loss": "losses", "triplet_objective": "losses",
    "TrainConfig": "loop", "TrainResult": "loop", "config_from_dict": "loop", "descend": "loop",
    "load_encoder": "loop", "optimize": "loop", "train": "loop",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'training' has no attribute {name!r}")
    return getattr(importlib.import_module(f"training.{module}"), name)
