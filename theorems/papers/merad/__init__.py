"""Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning for
classification and its convergence: claims (Sections 3-5), certificates, experiments and
recorded witnesses.

A plugin like any outside package: it declares its paper and registers its claims when imported
(entry point ``clcheck.claims`` in pyproject.toml).
"""

from pathlib import Path

from theorems.engine.registry import Paper, register_paper

_PAGES = Path(__file__).resolve().parents[3] / "proofs_md"
PAPER = register_paper(Paper(
    prefix="merad", title="Merad, Yu, Bacry, Gaiffas -- About contrastive unsupervised representation learning for classification and its convergence", 
    files=("000_446b1395972c3412.txt", "001_024f140e13f62c31.txt"),
    pages=_PAGES if _PAGES.is_dir() else None,
))

from theorems.papers.merad import claims  # noqa: E402,F401  (registers the claims)
