"""What the Coq tests share: the skip marker when coqc is missing, and a fresh certificate cache per module (every
script is checked by coqc once in the module, then reused). A module uses them as

    from coq_support import coq_cache, needs_coq
    session_cache = pytest.fixture(scope="module", autouse=True)(coq_cache)
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
    mp = pytest.MonkeyPatch()
    folder = tmp_path_factory.mktemp("clcheck-cache")
    mp.setenv("CLCHECK_CACHE", str(folder))
    mp.delenv("CLCHECK_COQ_CACHE", raising=False)
    mp.delenv("CLCHECK_COQC", raising=False)
    yield folder
    mp.undo()
