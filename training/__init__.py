"""Training contrastive encoders: the losses of Merad et al. (6), (11) and Huang et al., encoders, a small loop.

One short module per job: ``device`` (device, mixed precision, seeds), ``encoders``,
``losses``, ``data`` (digits, D_sim/D_neg sampling, fixed triplets), ``loop``
(TrainConfig, train, checkpoints) and ``cli`` (``train_command``).
"""

from training.data import (LatentClassSampler, TripletSet, augment, fixed_triplets, load_digits_data,
                           synthetic_latent_classes, views)
from training.device import autocast_context, seed_everything, select_device
from training.encoders import ConvEncoder, DeepReLUEncoder, EncoderConfig, MLPEncoder, build_encoder
from training.losses import (contrastive_loss_n, contrastive_loss_shared_negatives, cross_correlation_loss,
                             infonce_loss, positive_only_loss, triplet_objective)
from training.loop import TrainConfig, TrainResult, config_from_dict, load_encoder, train

__all__ = [
    "ConvEncoder", "DeepReLUEncoder", "EncoderConfig", "LatentClassSampler", "MLPEncoder", "TrainConfig",
    "TrainResult", "TripletSet", "augment", "autocast_context", "build_encoder", "config_from_dict",
    "contrastive_loss_n", "contrastive_loss_shared_negatives", "cross_correlation_loss", "fixed_triplets",
    "infonce_loss", "load_digits_data", "load_encoder", "positive_only_loss", "seed_everything", "select_device",
    "synthetic_latent_classes", "train", "triplet_objective", "views",
]
