"""Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive
Learning: claims and the sparse coding model with its symmetrized-ReLU learner.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from theorems.papers import declare

PAPER = declare("wen",
                "Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive Learning",
                ("003_06cb9bda3a5102d9.txt",), __name__, __file__)

from theorems.papers.wen import claims  # noqa: E402,F401  (registers the claims)
