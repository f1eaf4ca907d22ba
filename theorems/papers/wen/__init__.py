"""Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive
Learning: claims and the sparse coding model with its symmetrized-ReLU learner.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from pathlib import Path

from theorems.engine.registry import Paper, register_paper

_PAGES = Path(__file__).resolve().parents[3] / "proofs_md"
PAPER = register_paper(Paper(
    prefix="wen",
    title="Wen & Li -- Toward Understanding the Feature Learning Process of Self-supervised Contrastive Learning",
    files=("003_06cb9bda3a5102d9.txt",),
    pages=_PAGES if _PAGES.is_dir() else None,
))

from theorems.papers.wen import claims  # noqa: E402,F401  (registers the claims)
