"""Wen & Li: the configurations the dynamics claims train, and the runs each claim needs before it runs.

A configuration is a data model and a learner (:class:`~theorems.papers.wen.dynamics.Config`); the grids
are in :mod:`~theorems.papers.wen.dynamics`. Here every learner gets its batch size (4 d positive pairs),
and a configuration is trained only when the exact model checks put its model inside the regime -- the
same selection the observations make (:mod:`~theorems.papers.wen.observations`), so that the
prerequisites of a parallel audit are exactly the runs the claims read.
"""

from __future__ import annotations

from theorems import Prerequisite
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import model as wm
from theorems.papers.wen.model import Data
from theorems.papers.wen.report import in_regime
from training.cache import run_key


def learner_for(data: Data, base: wm.Learner) -> wm.Learner:
    """Batch = 4 d positive pairs ('fixed ratios': the gradient noise per step is kept at the
    d = 64 level; Fact A.1 takes poly(d) samples per step)."""
    return wm.with_(base, batch=4 * data.d)


def cfg(data: Data, base: wm.Learner) -> dy.Config:
    return dy.Config(data, learner_for(data, base))


def grid(kind: str, quick: bool) -> list[dy.Config]:
    grids = {"masks": dy.masks_grid, "none": dy.none_grid, "footnote": dy.footnote_grid}
    return [cfg(c.data, c.learner) for c in grids[kind](quick)]


def default(kind: str) -> dy.Config:
    return cfg(Data(), dy.MASKS if kind == "masks" else dy.NONE)


def model_in_regime(data: Data) -> bool:
    """The exact model checks of ``data`` all hold (as the engine decides them)."""
    return in_regime(dy.model_checks(data))


def runs_needed(kind: str, quick: bool, seed: int) -> list[Prerequisite]:
    """The runs a claim of this section trains (the configurations its exact model checks admit, as
    the observations select them), as prerequisites of a parallel audit."""
    if kind in ("none", "bias"):
        cfgs = grid("none", quick) if kind == "none" else [cfg(c.data, c.learner) for c in dy.bias_grid(quick)]
        cfgs = [c for c in cfgs if c.learner.bias <= 0 or model_in_regime(c.data)]
    elif kind in ("masks", "footnote"):
        cfgs = grid("masks", quick) if kind == "masks" else [default("masks"), *grid("footnote", quick)]
        cfgs = [c for c in cfgs if model_in_regime(wm.with_(c.data, noise="isotropic", excess=0.0)
                                                   if kind == "footnote" else c.data)]
    else:  # downstream: (masks, none) pairs whose model is in the regime
        cfgs = [cfg(c.data, c.learner) for pair in dy.downstream_pairs(quick) for c in pair
                if model_in_regime(cfg(pair[0].data, pair[0].learner).data)]
    runs = [wm.Run(c.data, c.learner, s) for c in cfgs for s in dy.seeds(seed, quick)]
    return [Prerequisite(f"wen-{run_key(r.spec())}", dy.evaluate, (r,), 2.0) for r in runs]
