"""The four papers clcheck ships with, each a plugin found through the ``clcheck.claims`` entry points
exactly like an outside package: ``merad`` (Merad, Yu, Bacry, Gaiffas), ``huang`` (Huang, Yi, Zhao, Jiang),
``ren`` (Ren & Li), ``wen`` (Wen & Li). Each package's ``register(registry)`` hands over what its modules
declare to their :class:`~theorems.Plugin` (``<paper>/plugin.py``); importing a module registers nothing."""

from __future__ import annotations

from pathlib import Path

from theorems import Paper

#: the shipped papers keep their proof pages in the repository's proofs_md/
PAGES = Path(__file__).resolve().parents[2] / "proofs_md"


def paper(prefix: str, title: str, files: tuple[str, ...], module: str, module_file: str) -> Paper:
    """A shipped paper: witnesses beside its package, pages in proofs_md/ (when present)."""
    return Paper(prefix, title, files, witnesses=Path(module_file).resolve().parent / "witnesses",
                 pages=PAGES if PAGES.is_dir() else None, module=module)
