"""Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning
(ICLR 2023): claims, certificates and experiments on trained encoders.

A plugin like any outside package: the entry point ``clcheck.claims`` names its :func:`register`, which
hands over what the modules below declare (importing them registers nothing).
"""

from __future__ import annotations

from theorems import Registry
from theorems.papers.huang import claims, sharp_constants, step_checks  # noqa: F401  (their declarations fill PLUGIN)
from theorems.papers.huang.plugin import PLUGIN


def register(registry: Registry) -> None:
    """Declare the paper and add its claims, proofs and page checks to ``registry``."""
    PLUGIN.register(registry)
