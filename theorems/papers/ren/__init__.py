"""Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning: claims and the data model with its normalized linear learners.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from pathlib import Path

from theorems.engine.registry import Paper, register_paper

_PAGES = Path(__file__).resolve().parents[3] / "proofs_md"
PAPER = register_paper(Paper(
    prefix="ren",
    title="Ren & Li -- On the Importance of Contrastive Loss in Multimodal Learning",
    files=("002_1392d7a5a1d595de.txt",),
    pages=_PAGES if _PAGES.is_dir() else None,
))

from theorems.papers.ren import claims  # noqa: E402,F401  (registers the claims)
