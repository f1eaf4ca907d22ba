"""Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning for
classification and its convergence: claims (Sections 3-5), certificates, experiments and
recorded witnesses.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from theorems.papers import declare

PAPER = declare("merad", "Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning "
                "for classification and its convergence",
                ("000_446b1395972c3412.txt", "001_024f140e13f62c31.txt"), __name__, __file__)

from theorems.papers.merad import claims, proofs  # noqa: E402,F401  (register the claims and proofs)
