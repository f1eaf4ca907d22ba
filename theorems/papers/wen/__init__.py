"""Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive
Learning: claims and the sparse coding model with its symmetrized-ReLU learner.

A plugin like any outside package: the entry point ``clcheck.claims`` names its :func:`register`, which
hands over what the modules below declare (importing them registers nothing).
"""

from __future__ import annotations

from theorems import Registry
from theorems.papers.wen import claims, statements  # noqa: F401  (their declarations fill PLUGIN)
from theorems.papers.wen.plugin import PLUGIN


def register(registry: Registry) -> None:
    """Declare the paper and add its claims, proofs and page checks to ``registry``."""
    PLUGIN.register(registry)
