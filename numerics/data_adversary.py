"""The data adversary: the labelled data sets a claim's hypotheses literally admit.

A universal over data is an adversary's move like any other (../shared/LOGICAL-FORM.md, "Deciding the main
theorems", item 3).  From the data's declared structure (:class:`DataSpec`: dimension, label set, separation
scale ``delta``, list sizes) :func:`candidates` builds the lists a careless reading forgets -- a point listed
twice (same label, both labels), a point repeated many times, two points exactly ``delta`` apart, a
``delta``-chain, two points extremely far apart, the fewest samples, single-class lists -- plus a few random
lists, each tagged with what it tries; :func:`propose` keeps those that pass every hypothesis (Python
predicates on the list), each with the names of the checks it passed.  Deterministic given ``seed``
(``numpy.random.default_rng``).  Nothing here knows a paper: the proposals depend on the spec only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["DataSpec", "Hypothesis", "Proposal", "candidates", "propose", "distance", "min_separation",
           "point_set_separated", "listed_points_distinct_and_separated", "every_label_present"]

Point = float | tuple[float, ...]
Data = tuple[tuple[Point, Any], ...]


@dataclass(frozen=True)
class DataSpec:
    """The declared structure of the data: points in R^dim (floats when ``dim == 1``, tuples otherwise),
    labels from ``labels``, a separation scale ``delta`` (None: none declared), list lengths in
    ``[min_size, max_size]``, and ``far`` (in units of ``delta``, or absolute without one) for extreme
    separation."""

    dim: int = 1
    labels: tuple[Any, ...] = (-1, 1)
    delta: float | None = None
    min_size: int = 1
    max_size: int = 16
    far: float = 1e6

    @property
    def unit(self) -> float:
        return float(self.delta) if self.delta else 1.0


@dataclass(frozen=True)
class Hypothesis:
    """A named predicate on a labelled list (True: the list is admissible)."""

    name: str
    holds: Callable[[Data], bool]


@dataclass(frozen=True)
class Proposal:
    """A candidate data set: ``kind`` a short id, ``tries`` what it tries, the checks it ``passed`` and ``failed``."""

    data: Data
    kind: str
    tries: str
    passed: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()

    @property
    def admissible(self) -> bool:
        return not self.failed


# ----------------------------------------------------------------------------- distances and hypotheses

def distance(p: Point, q: Point) -> float:
    """Euclidean distance of two points (floats or tuples)."""
    if isinstance(p, tuple):
        return math.dist(p, q)
    return abs(float(p) - float(q))


def min_separation(points: Sequence[Point]) -> float:
    """The least distance between two *distinct* points (inf with fewer than two)."""
    distinct = list(dict.fromkeys(points))
    return min((distance(a, b) for i, a in enumerate(distinct) for b in distinct[i + 1:]), default=math.inf)


def point_set_separated(delta: float) -> Hypothesis:
    """The point *set* is delta-separated: distinct points are >= delta apart (a point may recur)."""
    return Hypothesis(f"point set {delta}-separated", lambda data: min_separation([p for p, _ in data]) >= delta)


def listed_points_distinct_and_separated(delta: float) -> Hypothesis:
    """The *listed* points are pairwise distinct and delta-separated (no point recurs)."""
    def holds(data: Data) -> bool:
        pts = [p for p, _ in data]
        return len(set(pts)) == len(pts) and min_separation(pts) >= delta
    return Hypothesis(f"listed points distinct and {delta}-separated", holds)


def every_label_present(labels: Sequence[Any]) -> Hypothesis:
    """Every label of ``labels`` occurs in the list."""
    return Hypothesis(f"every label of {tuple(labels)} present", lambda data: set(labels) <= {y for _, y in data})


# ----------------------------------------------------------------------------- proposals

class _Builder:
    """Points of the spec's space: a base point from the rng, offsets along the first axis."""

    def __init__(self, spec: DataSpec, rng: np.random.Generator):
        self.spec = spec
        self.rng = rng
        self.base = [float(c) * spec.unit for c in rng.integers(-3, 4, size=spec.dim)]

    def point(self, coords: Sequence[float]) -> Point:
        return float(coords[0]) if self.spec.dim == 1 else tuple(float(c) for c in coords)

    def at(self, offset: float) -> Point:
        """The base point moved by ``offset`` along the first axis, nudged up so that it is >= offset away."""
        c = list(self.base)
        c[0] = self.base[0] + offset
        while offset > 0 and distance(self.point(c), self.point(self.base)) < offset:
            c[0] = math.nextafter(c[0], math.inf)
        return self.point(c)

    def chain(self, k: int, spacing: float) -> list[Point]:
        """k points, consecutive ones ``spacing`` apart (each nudged to be at least that far from the last)."""
        pts = [self.point(self.base)]
        for _ in range(k - 1):
            c = list(pts[-1]) if isinstance(pts[-1], tuple) else [pts[-1]]
            c[0] += spacing
            while distance(self.point(c), pts[-1]) < spacing:
                c[0] = math.nextafter(c[0], math.inf)
            pts.append(self.point(c))
        return pts

    def random(self, k: int) -> list[Point]:
        """k points of the lattice of spacing 2 * unit around the origin (so any two distinct ones are
        >= 2 * unit apart; a point may recur)."""
        m = max(1, math.ceil(k ** (1 / self.spec.dim)))
        return [self.point(2 * self.spec.unit * self.rng.integers(-m, m + 1, size=self.spec.dim)) for _ in range(k)]


def _raw(spec: DataSpec, rng: np.random.Generator) -> list[tuple[str, str, list[tuple[Point, Any]]]]:
    """(kind, tries, data) for every structural candidate, in a fixed order."""
    b, labels, out = _Builder(spec, rng), list(spec.labels), []
    x, y0 = b.point(b.base), labels[0]
    many = max(spec.min_size, min(spec.max_size, 64))
    wide = 2 * spec.unit
    for y in labels:
        out.append(("fewest", f"the fewest samples ({spec.min_size}), one class ({y})",
                    [(p, y) for p in b.chain(max(spec.min_size, 1), wide)]))
        k = max(spec.min_size, 2)
        out.append(("single-class", f"a single-class list of {k} separated points ({y})",
                    [(p, y) for p in b.chain(k, wide)]))
    out.append(("duplicate-same-label", "a point listed twice with the same label", [(x, y0), (x, y0)]))
    if len(labels) >= 2:
        out.append(("duplicate-both-labels", "a point listed twice with both labels",
                    [(x, labels[0]), (x, labels[1])]))
    if len(labels) >= 3:
        out.append(("duplicate-every-label", "a point listed once with every label", [(x, y) for y in labels]))
    out.append(("repeated", f"a point repeated {many} times (one label)", [(x, y0)] * many))
    if len(labels) >= 2:
        out.append(("repeated-mixed", f"a point repeated {many} times with alternating labels",
                    [(x, labels[i % 2]) for i in range(many)]))
        pts = b.chain(max(spec.min_size - 1, 2), wide)
        out.append(("separated-plus-duplicate", "a separated list with one point listed again with another label",
                    [(p, labels[i % 2]) for i, p in enumerate(pts)] + [(pts[0], labels[1])]))
    if spec.delta:
        q = b.at(spec.unit)
        out.append(("min-separation", f"two points exactly {spec.delta} apart, different labels",
                    [(x, labels[0]), (q, labels[-1])]))
        out.append(("min-separation-same-label", f"two points exactly {spec.delta} apart, one label", [(x, y0), (q, y0)]))
        k = max(spec.min_size, min(spec.max_size, 8))
        out.append(("delta-chain", f"{k} points {spec.delta} apart in a line, alternating labels",
                    [(p, labels[i % len(labels)]) for i, p in enumerate(b.chain(k, spec.unit))]))
    out.append(("extreme-separation", f"two points {spec.far:g} units apart, different labels",
                [(x, labels[0]), (b.at(spec.far * spec.unit), labels[-1])]))
    for i in range(3):
        k = int(rng.integers(spec.min_size, spec.max_size + 1))
        out.append((f"random-{i}", f"a random list of {k} lattice points, random labels (baseline)",
                    [(p, labels[int(rng.integers(len(labels)))]) for p in b.random(k)]))
    return out


def _checks(data: Data, spec: DataSpec, hypotheses: Sequence[Hypothesis]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    passed, failed = [], []
    size = f"size in [{spec.min_size}, {spec.max_size}]"
    (passed if spec.min_size <= len(data) <= spec.max_size else failed).append(size)
    for h in hypotheses:
        try:
            ok = bool(h.holds(data))
        except Exception as exc:  # a predicate that cannot judge a list does not admit it
            failed.append(f"{h.name} (error: {type(exc).__name__})")
            continue
        (passed if ok else failed).append(h.name)
    return tuple(passed), tuple(failed)


def candidates(spec: DataSpec, hypotheses: Sequence[Hypothesis] = (), seed: int = 0) -> list[Proposal]:
    """Every structural candidate with the checks it passed and failed (duplicates removed)."""
    seen, out = set(), []
    for kind, tries, items in _raw(spec, np.random.default_rng(seed)):
        data = tuple(items)
        if data in seen:
            continue
        seen.add(data)
        passed, failed = _checks(data, spec, hypotheses)
        out.append(Proposal(data=data, kind=kind, tries=tries, passed=passed, failed=failed))
    return out


def propose(spec: DataSpec, hypotheses: Sequence[Hypothesis] = (), seed: int = 0) -> list[Proposal]:
    """The admissible candidates: those passing every hypothesis (and the declared sizes)."""
    return [p for p in candidates(spec, hypotheses, seed) if p.admissible]
