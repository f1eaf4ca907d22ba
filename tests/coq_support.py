"""What the Coq tests share: the skip marker when coqc is missing, and a certificate cache fresh for the test session
(every script is checked by coqc once in the session, then reused by every module that checks it; a module that tests
the cache itself takes one fresh for the module, ``coq_cache``). A module uses them as

    from coq_support import needs_coq, shared_coq_cache
    session_cache = pytest.fixture(scope="module", autouse=True)(shared_coq_cache)
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from numerics import coq

needs_coq = pytest.mark.skipif(
    coq.coqc_path() is None,
    reason="coqc not found on PATH (apt-get install coq libcoq-interval libcoq-coquelicot): the Coq "
           "certificates stay tested")


def coq_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh $CLCHECK_CACHE for the module, with no coqc or cache override from the environment."""
    yield from _cache_at(tmp_path_factory.mktemp("clcheck-cache"))


def shared_coq_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A $CLCHECK_CACHE fresh for the test session and shared by its modules and xdist workers (the session's
    temporary root): each script is checked by coqc once per session, not once per module that checks it."""
    root = tmp_path_factory.getbasetemp()
    if root.name.startswith("popen-gw"):  # an xdist worker's own folder: the session's root is its parent
        root = root.parent
    folder = root / "clcheck-cache-shared"
    folder.mkdir(exist_ok=True)
    yield from _cache_at(folder)


def _cache_at(folder: Path) -> Iterator[Path]:
    mp = pytest.MonkeyPatch()
    mp.setenv("CLCHECK_CACHE", str(folder))
    mp.delenv("CLCHECK_COQ_CACHE", raising=False)
    mp.delenv("CLCHECK_COQC", raising=False)
    yield folder
    mp.undo()
