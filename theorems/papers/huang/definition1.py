"""Huang et al., Definition 1 ((sigma, delta)-augmentation) and the two facts the slide asserts after it (issue 30):

* "For any A' containing A, d_A'(x1, x2) <= d_A(x1, x2) for any x1, x2" (more augmentations, a smaller distance);
* "Given delta, we can compute sigma by finding the maximum clique of the graph, where each node corresponds to a
  sample and edge (x1, x2) exists if d_A(x1, x2) <= delta".

The definition's sigma is the largest with P[C^0_k] >= sigma P[C_k] for some C^0_k of d_A-diameter <= delta in every
class: min_k of the largest mass of such a subset of C_k over P[C_k] -- a maximum-WEIGHT clique per class
(augmented.py:main_parts, which the checker's sigma uses). "The maximum clique" read as printed is the one
with the most samples; the two agree when the samples are equally likely and can differ otherwise. Every check is
exact (brute force over every subset of classes of at most 6 samples) on fixed settings drawn once from
``STATES_SEED``, and on one constructed setting where the readings part.
"""

from __future__ import annotations

import itertools

import numpy as np

from theorems import AllOf, ExperimentOutcome, Observation, RunContext, at_most, equal, holds, markdown_table
from theorems.papers.huang import augmented as ag

STATES_SEED = 20230501
MONOTONE = "d_A'(x1, x2) <= d_A(x1, x2) for A' containing A"
LARGEST_SIGMA = "sigma from the maximum clique of {d_A <= delta} equals the largest sigma of Definition 1"
# issue 39: checks that cannot fail (no evidence either way; the one-line proofs are on the page)
BY_CONSTRUCTION_MONOTONE = (
    "d_A is computed as a minimum over pairs of augmented inputs (augmented.py:augmentation_distance, the slides' "
    "definition); A' = A plus one input gives a minimum over a superset of the same pairs, so d_A' <= d_A cannot fail")
BY_CONSTRUCTION_VALID = (
    "Definition 1's largest sigma (augmented.py:sigma_of) is a maximum of P[S]/P[C_k] over every subset S of pairwise "
    "d_A <= delta, the maximum clique is one such subset, so its sigma is at most the largest by construction")
VALID_SIGMA = ("sigma from the maximum clique of {d_A <= delta} is a valid sigma of Definition 1 (at most the largest: "
               "the clique is a main part)")


def _setting(labels: list[int], mass: list[float], inputs: np.ndarray) -> ag.AugmentedSetting:
    feats = np.zeros(inputs.shape[:2] + (1,))  # the encoder plays no role in Definition 1
    return ag.AugmentedSetting.create(labels, mass, inputs, feats)


def cardinality_sigma(s: ag.AugmentedSetting, delta: float) -> float:
    """sigma from the maximum clique as printed: per class, the cliques with the most samples (the best of them).
    Definition 1's largest sigma is :func:`theorems.papers.huang.augmented.sigma_of` (maximum-mass cliques, by brute force over
    every subset of a class of at most 10 samples)."""
    dist = ag.augmentation_distance(s)
    ratios = []
    for k in range(s.n_classes):
        members = [int(x) for x in np.flatnonzero(s.labels == k)]
        cliques = [sub for r in range(1, len(members) + 1) for sub in itertools.combinations(members, r)
                   if all(dist[i, j] <= delta for i, j in itertools.combinations(sub, 2))]
        size = max(len(c) for c in cliques)
        ratios.append(max(float(np.sum(s.mass[list(c)])) for c in cliques if len(c) == size) / float(s.class_mass[k]))
    return min(ratios)


def _draws(uniform: bool) -> list[ag.AugmentedSetting]:
    """Fixed settings: 1-3 classes of 1-6 samples, 2-3 augmentations in R^2, masses equal or drawn."""
    rng = np.random.default_rng([STATES_SEED, int(uniform)])
    out = []
    for _ in range(40):
        sizes = rng.integers(1, 7, size=int(rng.integers(1, 4)))  # 1-3 classes of 1-6 samples
        labels = [k for k, size in enumerate(sizes) for _ in range(int(size))]
        a = int(rng.integers(2, 4))
        inputs = rng.normal(size=(len(labels), a, 2))
        mass = [1.0] * len(labels) if uniform else list(rng.uniform(0.05, 1.0, len(labels)))
        out.append(_setting(labels, mass, inputs))
    return out


def parting_setting() -> ag.AugmentedSetting:
    """One class: sample 0 (mass 0.6) far from samples 1 and 2 (mass 0.2 each), which share an augmented input. At
    delta = 0 the maximum clique is {1, 2} (two samples, mass 0.4) and the largest sigma is 0.6 ({0})."""
    inputs = np.array([[[10.0, 0.0], [11.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.0, -1.0]]])
    return _setting([0, 0, 0], [0.6, 0.2, 0.2], inputs)


def definition1(ctx: RunContext, masses: str = "any", fact: str = "valid") -> ExperimentOutcome:
    """The two facts of the slide after Definition 1: exact on fixed settings (``masses``: "any" -- drawn masses and the
    constructed setting -- or "equal", samples equally likely). ``fact``: "valid" (the words: "we can compute sigma by
    finding the maximum clique" -- the clique's sigma satisfies Definition 1, i.e. is at most Definition 1's largest
    sigma, computed independently by maximising the mass over every subset of d_A-diameter <= delta) or "largest" (the
    clique's sigma is the largest)."""
    settings = _draws(uniform=True) + ([] if masses == "equal" else _draws(uniform=False) + [parting_setting()])
    mono_worst, wide_sides, narrow_sides, agree, failures = 0.0, [], [], [], []
    for i, s in enumerate(settings):
        # A' = A plus one more augmentation per sample (a fixed point of the input space)
        extra = np.concatenate([s.inputs, np.full(s.inputs.shape[:1] + (1, s.inputs.shape[2]), 0.5)], axis=1)
        wider = _setting(s.labels.tolist(), s.mass.tolist(), extra)
        d_wide, d_narrow = ag.augmentation_distance(wider), ag.augmentation_distance(s)
        wide_sides.append(d_wide.ravel())
        narrow_sides.append(d_narrow.ravel())
        mono_worst = max(mono_worst, float(np.max(d_wide - d_narrow)))
        for delta in sorted(set(np.round(d_narrow.ravel(), 12)))[:6]:  # the first six distinct distances
            best, card = ag.sigma_of(s, float(delta))[0], cardinality_sigma(s, float(delta))
            what = f"setting {i}, delta {float(delta):.6g}: sigma of the maximum clique"
            same = equal(card, best, what=what) if fact == "largest" else at_most(card, best, what=what)
            agree.append(same)
            if not holds(same):
                failures.append((i, float(delta), best, card))
    # every pair of every setting, elementwise: d_A'(x1, x2) <= d_A(x1, x2)
    monotone = at_most(np.concatenate(wide_sides), np.concatenate(narrow_sides), what="d_A' vs d_A, every pair")
    observations = [
        Observation({"fact": MONOTONE, "settings": len(settings)}, holds=(monotone,),
                    values={"max d_A' - d_A": mono_worst}, by_construction=BY_CONSTRUCTION_MONOTONE),
        Observation({"fact": LARGEST_SIGMA if fact == "largest" else VALID_SIGMA, "masses": masses,
                     "settings": len(settings)}, holds=(AllOf(tuple(agree)),),
                    by_construction="" if fact == "largest" else BY_CONSTRUCTION_VALID,
                    values={"settings where they differ": len(failures)}),
    ]
    word = "the largest" if fact == "largest" else "a valid"
    md = [f"#### Definition 1: the maximum clique and {word} sigma (masses: {masses})", "",
          f"{len(settings)} fixed settings; d_A' - d_A <= {mono_worst:g} everywhere (A' = A plus one augmentation).", "",
          *(markdown_table(failures[:8], ("setting", "delta", "largest sigma (max-mass clique)",
                                          "sigma of the maximum clique (most samples)"))
            if failures else [f"The maximum clique gives {word} sigma on every setting and delta."])]
    return ExperimentOutcome(statistic=f"settings where the maximum clique's sigma is not {word} sigma",
                             value=float(len(failures)), effect_size=mono_worst, interval=(0.0, float(len(failures))),
                             seeds=[], interval_note="exact (fixed settings, no seed)", observations=observations,
                             parameters={"states_seed": STATES_SEED, "masses": masses, "fact": fact},
                             markdown="\n".join(md))


def definition1_largest(ctx: RunContext) -> ExperimentOutcome:
    """The reading 'the maximum clique gives the largest sigma' (any masses)."""
    return definition1(ctx, masses="any", fact="largest")


def definition1_equal_masses(ctx: RunContext) -> ExperimentOutcome:
    """The reading 'the maximum clique gives the largest sigma, each node a sample, the samples equally likely' (an
    empirical distribution)."""
    return definition1(ctx, masses="equal", fact="largest")
