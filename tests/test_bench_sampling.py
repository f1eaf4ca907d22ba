"""The fast categorical sampler behind the Monte Carlo bracket of L^N_un (numerics.contrastive._choice)
draws exactly what numpy's Generator.choice draws: the same stream, the same indices."""

from __future__ import annotations

import numpy as np
import pytest

from numerics.contrastive import _choice


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("kind", ["uniform", "dirichlet", "tiny", "one", "steep"])
def test_choice_is_numpy_choice(seed: int, kind: str) -> None:
    rng = np.random.default_rng(100 + seed)
    p = {"uniform": np.full(200, 1 / 200), "dirichlet": rng.dirichlet(np.full(37, 0.3)),
         "tiny": np.array([1e-300, 0.5, 1e-12, 0.5 - 1e-12]), "one": np.array([1.0]),
         "steep": 2.0 ** -np.arange(60.0)}[kind]
    p = p / p.sum()
    for shape in (1, 1000, (3000, 7)):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        want = a.choice(p.size, size=shape, p=p)
        got = _choice(b, p, shape)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert np.array_equal(got, want)
        assert a.random() == b.random()  # the same stream consumed
