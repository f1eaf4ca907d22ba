"""Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning: claims and the data
model with its normalized linear learners.

A plugin like any outside package: the entry point ``clcheck.claims`` names its :func:`register`, which
hands over what the modules below declare (importing them registers nothing).
"""

from __future__ import annotations

from theorems import Registry
from theorems.papers.ren import claims, statements  # noqa: F401  (their declarations fill PLUGIN)
from theorems.papers.ren.plugin import PLUGIN


def register(registry: Registry) -> None:
    """Declare the paper and add its claims, proofs and page checks to ``registry``."""
    PLUGIN.register(registry)
