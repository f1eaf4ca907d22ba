"""Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning (ICLR 2023):
claims, certificates and experiments on trained encoders.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from pathlib import Path

from theorems.engine.registry import Paper, register_paper

_PAGES = Path(__file__).resolve().parents[3] / "proofs_md"
PAPER = register_paper(Paper(
    prefix="huang",
    title="Huang, Yi, Zhao, Jiang -- The Generalization of Contrastive Self-Supervised Learning (ICLR 2023)",
    files=("004_86d461343230f9e1.txt",),
    pages=_PAGES if _PAGES.is_dir() else None,
))

from theorems.papers.huang import claims  # noqa: E402,F401  (registers the claims)
