"""Lemma 7 (= Lemma 4 = Lemma 4.2) and the data adversary (issue 38): training sets built from the adversary's lists.

Lemma 7's level 2 eps / eta is tied to the encoder's outputs through ||grad L^_un|| <= eps (issue 38, E2): it is not a
free level, so no reach row is declared; each admissible data set becomes a subject of the claim's family instead
(checked like a listed one, with the tightest eps = ||grad L^_un||).

How a labelled list [(p, y), ...] of the generic adversary (:mod:`numerics.data_adversary`) is read as a training set
(:func:`triplets_of`): two auxiliary samples u, v (indices 0 and 1); each item (p, +1) is the triplet (p, u, v) and each
item (p, -1) the triplet (p, v, u) -- the label is the orientation of the pair {u, v}, the point the anchor. So the
candidate "duplicate-both-labels" [(x, -1), (x, +1)] is the swapped pair (x, v, u), (x, u, v) (one anchor serving two
triplets whose positive and negative are exchanged, the shape of the recorded witness merad.lemma7.json), and a point
repeated with one label is one triplet listed several times. Every triplet has three distinct samples (the family's
domain). The outputs are those an optimizer reaches on that set (the family's own draw, :func:`training_sets.descend`:
projected gradient descent on L^_un in the ball of radius ``RADIUS`` from a seeded uniform start), in dimension ``DIM``.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from numerics.data_adversary import DataSpec
from theorems import DataAdversary
from theorems.papers.merad import training_sets as ts
from theorems.subjects import Subject

SPEC = DataSpec(dim=1, labels=(-1, 1), delta=1.0, min_size=1, max_size=3)
RADIUS, DIM, STEPS = 1.0, 2, 3000


def triplets_of(data: Sequence[tuple[Any, Any]]) -> tuple[int, np.ndarray]:
    """(m, T): the samples u = 0, v = 1 and one index per distinct point (in order of appearance); one triplet per
    item: (p, u, v) for label +1, (p, v, u) for label -1."""
    index: dict[Any, int] = {}
    rows = []
    for p, y in data:
        i = index.setdefault(p, 2 + len(index))
        rows.append((i, 0, 1) if y == 1 else (i, 1, 0))
    return 2 + len(index), np.asarray(rows, dtype=np.int64).reshape(-1, 3)


def subject(data: Sequence[tuple[Any, Any]], disjoint: bool = False) -> Subject:
    """The training set of the list with the outputs projected gradient descent reaches on it (seed 0 start)."""
    m, T = triplets_of(data)
    rng = np.random.default_rng(0)
    Y = ts.descend(rng.uniform(-RADIUS, RADIUS, size=(m, DIM)), T, RADIUS, STEPS, ts.LR)
    dims = {"n": int(T.shape[0]), "d": DIM} if disjoint else {"m": m, "n": int(T.shape[0]), "d": DIM}
    return Subject(dims, {"C": RADIUS, "T": T, "Y": Y}, "data adversary: training set from a labelled list")


def adversary(disjoint: bool = False) -> DataAdversary:
    """The data adversary of Lemma 7: no hypothesis on the data beyond the family's domain (Lemma 7 grants
    Assumption 2 only; the family and the claim's assumptions decide admissibility of each subject)."""
    return DataAdversary(SPEC, (), data="(X_data, T)", subject=lambda data: subject(data, disjoint))


__all__ = ["DIM", "RADIUS", "SPEC", "STEPS", "adversary", "subject", "triplets_of"]
