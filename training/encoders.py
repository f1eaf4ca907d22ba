"""Encoders f: R^{d_in} -> R^{d_out}: the deep ReLU network of Merad et al. Section 4, an MLP, a small CNN.

Every encoder accepts its input flattened, (n, d_in), or as images
(n, 1, 8, 8) / (n, 8, 8), and returns (n, d_out).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from numerics.errors import AssumptionError
from training.names import ENCODER_KINDS



class DeepReLUEncoder(nn.Module):
    """The encoder of Merad et al. Section 4 (after Allen-Zhu et al. 2019), with no biases:

    g_0 = A x, h_0 = ReLU(g_0), g_l = W_l h_{l-1}, h_l = ReLU(g_l) (l = 1..L), y = B h_L,

    A in R^{m x d_in}, W_l in R^{m x m}, B in R^{d_out x m}. Initialisation as in
    Allen-Zhu et al.: A, W_l entries ~ N(0, 2/m), B entries ~ N(0, 1/d_out).
    """

    def __init__(self, d_in: int, width: int, depth: int, d_out: int) -> None:
        super().__init__()
        _check_positive(d_in=d_in, width=width, depth=depth, d_out=d_out)
        self.d_in, self.width, self.depth, self.d_out = d_in, width, depth, d_out
        self.A = nn.Parameter(torch.empty(width, d_in))  # (m, d_in)
        self.W = nn.ParameterList([nn.Parameter(torch.empty(width, width)) for _ in range(depth)])  # L x (m, m)
        self.B = nn.Parameter(torch.empty(d_out, width))  # (d_out, m)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """A, W_l ~ N(0, 2/m) and B ~ N(0, 1/d_out), entrywise (Allen-Zhu et al. 2019)."""
        with torch.no_grad():
            self.A.normal_(0.0, math.sqrt(2.0 / self.width))
            for w in self.W:
                w.normal_(0.0, math.sqrt(2.0 / self.width))
            self.B.normal_(0.0, math.sqrt(1.0 / self.d_out))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.reshape(x.shape[0], -1)  # (n, d_in)
        h = F.relu(x @ self.A.T)  # h_0 = ReLU(A x): (n, m)
        for w in self.W:
            h = F.relu(h @ w.T)  # h_l = ReLU(W_l h_{l-1}): (n, m)
        return h @ self.B.T  # y = B h_L: (n, d_out)


class MLPEncoder(nn.Module):
    """Linear -> ReLU -> ... -> Linear with biases; ``hidden=()`` is a linear map."""

    def __init__(self, d_in: int, hidden: tuple[int, ...], d_out: int) -> None:
        super().__init__()
        _check_positive(d_in=d_in, d_out=d_out, **{f"hidden[{i}]": h for i, h in enumerate(hidden)})
        dims = (d_in, *hidden, d_out)
        layers: list[nn.Module] = []
        for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
            layers.append(nn.Linear(a, b))
            if i < len(dims) - 2:
                layers.append(nn.ReLU())
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x.reshape(x.shape[0], -1))  # (n, d_in) -> (n, d_out)


class ConvEncoder(nn.Module):
    """Two 3x3 conv layers and a linear head for 1x8x8 images (sklearn digits)."""

    def __init__(self, d_out: int, channels: tuple[int, int] = (16, 32)) -> None:
        super().__init__()
        _check_positive(d_out=d_out, c1=channels[0], c2=channels[1])
        self.conv1 = nn.Conv2d(1, channels[0], 3, padding=1)  # (n, c1, 8, 8)
        self.conv2 = nn.Conv2d(channels[0], channels[1], 3, stride=2, padding=1)  # (n, c2, 4, 4)
        self.head = nn.Linear(channels[1] * 16, d_out)  # (n, c2*16) -> (n, d_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if math.prod(x.shape[1:]) != 64:
            raise AssumptionError(f"ConvEncoder input of shape {tuple(x.shape)}: expected (n, 64), (n, 8, 8) "
                                  "or (n, 1, 8, 8) images")
        x = x.reshape(x.shape[0], 1, 8, 8)  # (n, 1, 8, 8)
        h = F.relu(self.conv1(x))  # (n, c1, 8, 8)
        h = F.relu(self.conv2(h))  # (n, c2, 4, 4)
        return self.head(h.flatten(1))  # (n, d_out)


class Normalized(nn.Module):
    """Wraps an encoder and L2-normalizes its outputs, ||f(x)|| = 1 (InfoNCE, Huang et al.)."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.normalize(self.net(x), dim=-1)  # (n, d_out), unit rows


@dataclass(frozen=True)
class EncoderConfig:
    """Which encoder to build; every field is saved in checkpoints."""

    kind: str = "mlp"  # "deep_relu" (Section 4), "mlp", "linear" (mlp with hidden=()), "conv" (8x8 images)
    d_in: int = 64  # sklearn digits are 8x8 = 64 pixels
    d_out: int = 32  # representation dimension d: small enough for 1797 digits, enough for 10 classes
    width: int = 256  # deep_relu width m: Section 4 needs m >> n; 256 keeps a CPU step well under 10 ms
    depth: int = 2  # deep_relu depth L (number of W_l): the smallest depth with a hidden-to-hidden layer
    hidden: tuple[int, ...] = (128,)  # mlp hidden sizes: one hidden layer is enough for digits
    normalize: bool = False  # L2-normalize outputs; off because (6) and (11) use unnormalized f

    def __post_init__(self) -> None:
        if self.kind not in ENCODER_KINDS:
            raise AssumptionError(f"encoder kind={self.kind!r} is unknown: use one of {ENCODER_KINDS}")
        object.__setattr__(self, "hidden", tuple(int(h) for h in self.hidden))  # lists from JSON/asdict
        if self.kind == "conv" and self.d_in != 64:
            raise AssumptionError(f"encoder kind='conv' with d_in={self.d_in}: ConvEncoder takes 8x8 images, d_in=64")


def build_encoder(config: EncoderConfig) -> nn.Module:
    """The encoder described by ``config`` (initialised from torch's current RNG state)."""
    if config.kind == "deep_relu":
        net: nn.Module = DeepReLUEncoder(config.d_in, config.width, config.depth, config.d_out)
    elif config.kind == "mlp":
        net = MLPEncoder(config.d_in, config.hidden, config.d_out)
    elif config.kind == "linear":
        net = MLPEncoder(config.d_in, (), config.d_out)
    else:
        net = ConvEncoder(config.d_out)
    return Normalized(net) if config.normalize else net


def _check_positive(**sizes: int) -> None:
    for name, value in sizes.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise AssumptionError(f"{name}={value!r}: layer sizes and depth must be positive integers")
