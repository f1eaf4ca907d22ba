"""The choices a training run takes (torch-free, so the command line can list them cheaply)."""

ENCODER_KINDS = ("deep_relu", "mlp", "linear", "conv")
LOSS_NAMES = ("contrastive", "triplet", "infonce", "barlow", "positive")
DATA_NAMES = ("digits", "synthetic", "triplets")
OPTIMIZERS = ("adam", "sgd")
POSITIVES = ("class", "views")
