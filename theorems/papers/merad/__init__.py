"""Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning for
classification and its convergence: claims (Sections 3-5), certificates, experiments and
recorded witnesses.

A plugin like any outside package: the entry point ``clcheck.claims`` names its :func:`register`, which
hands over what the modules below declare (importing them registers nothing).
"""

from __future__ import annotations

from theorems import Registry
from theorems.papers.merad import claims, proofs, step_checks, sharp_constants  # noqa: F401  (they fill PLUGIN)
from theorems.papers.merad.plugin import PLUGIN


def register(registry: Registry) -> None:
    """Declare the paper and add its claims, proofs and page checks to ``registry``."""
    PLUGIN.register(registry)
