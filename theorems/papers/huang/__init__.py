"""Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning
(ICLR 2023): claims, certificates and experiments on trained encoders.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from theorems.papers import declare

PAPER = declare("huang",
                "Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning (ICLR 2023)",
                ("004_86d461343230f9e1.txt",), __name__, __file__)

from theorems.papers.huang import claims, sharp_constants, step_checks  # noqa: E402,F401  (claims, step checks)
