"""Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning: claims and the data
model with its normalized linear learners.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from theorems.papers import declare

PAPER = declare("ren",
                "Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning",
                ("002_1392d7a5a1d595de.txt",), __name__, __file__)

from theorems.papers.ren import claims  # noqa: F401  (registers the claims)
