"""A labelled finite mixture as a part of a composed family (:class:`theorems.subjects.Family`).

The value of a :class:`Mixture` part is a :class:`numerics.mixture.FiniteMixture`: a class distribution
rho over N_C latent classes and, for each class c, a finite support of embedded points f(x) in R^d with
their masses (D_c). Every expectation over such a setting is a finite sum, so a quantity written
against the backend is exact::

    from theorems import quantity
    from theorems.subjects import Family, Given, Integer, Mixture
    from numerics import contrastive as cl

    @quantity(range=(0, None))
    def L_un(s, xp):
        '''E log(1 + e^{f(x)^T (f(x-) - f(x+))}) over (x, x+) ~ D_c, c ~ rho and x- ~ sum_c rho(c) D_c.'''
        return cl.l_un(s.mixture)

    settings = Family("finite mixtures", dims={},
                      parts={"mixture": Mixture(classes=(1, 4), dims=(1, 3), support=3),
                             "k": Given(lambda c: Integer(1, max(1, c["mixture"].n_classes - 1)))},
                      quantities=(L_un,))

A formula sees ``s.mixture`` as a :class:`MixtureView` (the backend arrays of
:class:`numerics.contrastive.MixtureArrays`: ``P`` (M, d) support points, ``cls`` (M,) their classes,
``w`` (M,) within-class masses, ``rho`` (N_C,), ``pi``, ``mu``, ``gram``, ``onehot``; every function
of :mod:`numerics.contrastive` takes it), and :func:`finite_mixture` gives the plain float64 mixture
back (for a step that is not a backend formula, e.g. an L-BFGS fit). The adversary moves the points,
the within-class masses and (unless rho is uniform) the class masses; the classes and support sizes
stay those of the start.

The field's shared library, for outsiders too (examples/infonce composes its families from it); Merad et
al.'s own Section 3 family and quantities built on it live with that paper (theorems/papers/merad/mixtures.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.contrastive import MixtureArrays
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture
from theorems.engine.errors import ClaimError
from theorems.subjects.parts import Part

#: the scales the points are drawn at (dot products from ~1e-6 up to ~1e6, far past float64's exp overflow)
SCALES = (1.0, 0.1, 10.0, 1e-3, 1e3)


@dataclass(frozen=True, eq=False)
class MixtureView(MixtureArrays):
    """A mixture as a formula sees it: :class:`numerics.contrastive.MixtureArrays` in one backend, plus
    the plain float64 mixture it was built from (None during the adversarial ascent, where the arrays
    are functions of the torch parameters)."""

    mixture: FiniteMixture | None = None

    @classmethod
    def of(cls, mix: FiniteMixture, xp: Backend) -> "MixtureView":
        return dataclasses.replace(cls.from_mixture(mix, xp), mixture=mix)


def _numpy(a: Any) -> np.ndarray:
    """A backend array as float64 numpy (torch: detached; mpmath: rounded to the nearest float)."""
    if hasattr(a, "detach"):
        return a.detach().cpu().numpy().astype(np.float64)
    return np.asarray(a, dtype=np.float64)


def finite_mixture(arr: MixtureArrays) -> FiniteMixture:
    """The plain float64 :class:`FiniteMixture` of a backend view: the one it was built from when known, else
    one rebuilt from its arrays (rho and the within-class masses renormalized in float64)."""
    if isinstance(arr, MixtureView) and arr.mixture is not None:
        return arr.mixture
    P, w, rho = _numpy(arr.P), _numpy(arr.w), _numpy(arr.rho)
    cuts = np.cumsum(np.bincount(arr.cls, minlength=rho.size))[:-1]
    return FiniteMixture.create(rho / rho.sum(), np.split(P, cuts), [x / x.sum() for x in np.split(w, cuts)])


def _bounds(value: int | tuple[int, int], name: str) -> tuple[int, int]:
    lo, hi = (1, value) if isinstance(value, int) else value
    if not 1 <= int(lo) <= int(hi):
        raise ClaimError(f"Mixture({name}={value!r}): need 1 <= min <= max")
    return int(lo), int(hi)


def _rho_strategy(n_classes: int, uniform: bool | None, decades: float) -> st.SearchStrategy[np.ndarray]:
    uniform_rho = st.just(np.full(n_classes, 1.0 / n_classes))
    if uniform:
        return uniform_rho
    # far from uniform: masses whose logs span ``decades`` decades (tiny masses included)
    raw = st.lists(st.floats(-decades, 0.0), min_size=n_classes, max_size=n_classes).map(
        lambda e: np.power(10.0, np.asarray(e)))
    skewed = raw.map(lambda r: r / r.sum())
    return st.one_of(uniform_rho, skewed) if uniform is None else skewed


@dataclass(frozen=True)
class Mixture(Part):
    """A labelled finite mixture (value: :class:`numerics.mixture.FiniteMixture`).

    Args:
        classes: (min, max) number of classes N_C.  dims: (min, max) embedding dimension d.
        support: points per class: a maximum (from 1) or (min, max).
        uniform: True for rho uniform only, False for rho drawn far from uniform (masses down to
            10^-``decades``), None (default) for a mix of both.
        scales: the scales the points are drawn at (coordinates in [-1, 1] times a scale).
        structured: the share (0..1) of the draws taken from ``structure(part)`` -- a strategy of special
            mixtures within the bounds (e.g. a sub-family where a bound is nearly tight); an integer draw
            0..99 below ``round(100 * structured)`` picks it, from the same seeded source.
        structure: that strategy's maker (required when ``structured`` > 0).

    Draws: N_C, d, a scale, rho, then per class its support size, its points and its masses (in
    [0.05, 1] before normalizing). Shrinking: drop a class, a point or a coordinate (within the bounds),
    make rho or the masses uniform, zero or round the points, round rho. JSON: ``{"rho": [...],
    "points": [[[...]]], "weights": [[...]]}`` read strictly (exact types; N_C, the support sizes and d
    checked against the bounds before any array is built).
    """

    classes: tuple[int, int] = (1, 4)
    dims: int | tuple[int, int] = (1, 3)
    support: int | tuple[int, int] = 3
    uniform: bool | None = None
    scales: tuple[float, ...] = SCALES
    decades: float = 12.0
    structured: float = 0.0
    structure: Callable[["Mixture"], st.SearchStrategy[FiniteMixture]] | None = None
    kind = "mixture"

    def __post_init__(self) -> None:
        object.__setattr__(self, "classes", _bounds(self.classes, "classes"))
        object.__setattr__(self, "dims", _bounds(self.dims, "dims"))
        object.__setattr__(self, "support", _bounds(self.support, "support"))
        if self.uniform not in (None, True, False):
            raise ClaimError(f"Mixture(uniform={self.uniform!r}): use None, True or False")
        if not 0.0 <= self.structured <= 1.0:
            raise ValueError(f"structured = {self.structured} is not a share in [0, 1]")
        if self.structured and self.structure is None:
            raise ClaimError("Mixture(structured > 0) needs structure=<maker of a strategy of mixtures>")

    # -- drawing -----------------------------------------------------------------------------------
    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        plain = self._draws()
        if not self.structured:
            return plain
        share = round(self.structured * 100)
        special = self.structure(self)  # type: ignore[misc]
        return st.integers(0, 99).flatmap(lambda i: special if i < share else plain)

    def _draws(self) -> st.SearchStrategy[FiniteMixture]:
        @st.composite
        def mixtures(draw: Any) -> FiniteMixture:
            n_classes = draw(st.integers(*self.classes))
            d = draw(st.integers(*self.dims))
            scale = draw(st.sampled_from(self.scales))
            rho = draw(_rho_strategy(n_classes, self.uniform, self.decades))
            points, weights = [], []
            for _ in range(n_classes):
                size = draw(st.integers(*self.support))
                coords = draw(st.lists(st.floats(-1.0, 1.0), min_size=size * d, max_size=size * d))
                points.append(np.asarray(coords).reshape(size, d) * scale)
                raw_w = draw(st.lists(st.floats(0.05, 1.0), min_size=size, max_size=size))
                weights.append(np.asarray(raw_w) / np.sum(raw_w))
            return FiniteMixture.create(rho, points, weights)

        return mixtures()

    # -- the domain -----------------------------------------------------------------------------------
    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        if not isinstance(value, FiniteMixture):
            raise AssumptionError(f"part {name!r} is a {type(value).__name__}, not a FiniteMixture")
        (c_lo, c_hi), (d_lo, d_hi), (s_lo, s_hi) = self.classes, self.dims, self.support
        checks = [
            (c_lo <= value.n_classes <= c_hi, f"N_C = {value.n_classes} is outside [{c_lo}, {c_hi}]"),
            (d_lo <= value.dim <= d_hi, f"d = {value.dim} is outside [{d_lo}, {d_hi}]"),
            (all(s_lo <= n <= s_hi for n in value.support_sizes),
             f"support sizes {list(value.support_sizes)} are outside [{s_lo}, {s_hi}]"),
            (not self.uniform or value.is_uniform(), "rho is not uniform"),
        ]
        for ok, message in checks:
            if not ok:
                raise AssumptionError(f"part {name!r}: {message}")

    def size_of(self, value: Any) -> int:
        """The number of support points M (what the cost of the exact sums grows with)."""
        return int(sum(value.support_sizes))

    def nonzero(self, value: Any) -> int:
        """How big the mixture is for choosing the simplest violation: classes + points + non-zero coordinates."""
        P, _, _ = value.flat()
        return int(value.n_classes + P.shape[0] + np.count_nonzero(P))

    # -- the backend ----------------------------------------------------------------------------------
    def to_backend(self, value: Any, xp: Backend) -> Any:
        return MixtureView.of(value, xp)

    def to_param(self, value: Any) -> np.ndarray:
        """One row per support point: its embedding (d), its log mass within its class, its class's log mass
        (read from the class's first row), and its class (a constant: its gradient is zero, so the ascent
        never moves it)."""
        P, klass, w = value.flat()
        return np.column_stack([P, np.log(w), np.log(value.rho)[klass], klass.astype(np.float64)])

    def from_param(self, w: Any, xp: Backend) -> Any:
        d = int(w.shape[1]) - 3
        klass = np.rint(_numpy(w[:, d + 2])).astype(np.int64)
        n_classes = int(klass.max()) + 1
        if self.uniform:
            rho = xp.asarray(np.full(n_classes, 1.0 / n_classes))
        else:
            firsts = [int(np.flatnonzero(klass == c)[0]) for c in range(n_classes)]
            logits = xp.gather(w[:, d + 1], firsts)
            e = xp.exp(logits - xp.max(logits))
            rho = e / xp.sum(e)
        return MixtureView.build(xp, w[:, :d], klass, xp.exp(w[:, d]), rho)  # build renormalizes w per class

    def from_torch(self, value: Any) -> FiniteMixture:
        return finite_mixture(value)

    # -- shrinking --------------------------------------------------------------------------------------
    def scaled(self, value: Any, factor: float) -> Any | None:
        """The mixture with every support point multiplied by ``factor`` (the embeddings' common scale)."""
        mix = value
        return FiniteMixture.create(mix.rho, [np.asarray(p, dtype=float) * factor for p in mix.points], mix.weights)

    def simpler(self, value: Any) -> Iterable[Any]:
        mix: FiniteMixture = value
        n = mix.n_classes
        if n > self.classes[0]:
            for c in range(n):
                keep = [i for i in range(n) if i != c]
                yield FiniteMixture.create(mix.rho[keep] / mix.rho[keep].sum(), [mix.points[i] for i in keep],
                                           [mix.weights[i] for i in keep])
        for c, p in enumerate(mix.points):
            if p.shape[0] > self.support[0]:
                for s in range(p.shape[0]):
                    pts, wts = list(mix.points), list(mix.weights)
                    pts[c] = np.delete(p, s, axis=0)
                    wts[c] = np.delete(wts[c], s) / np.delete(wts[c], s).sum()
                    yield FiniteMixture.create(mix.rho, pts, wts)
        if mix.dim > self.dims[0]:
            for j in range(mix.dim):
                yield FiniteMixture.create(mix.rho, [np.delete(p, j, axis=1) for p in mix.points], mix.weights)
        if not mix.is_uniform():
            yield FiniteMixture.create(np.full(n, 1.0 / n), mix.points, mix.weights)
        if any(w.size > 1 and np.ptp(w) > 0 for w in mix.weights):
            yield FiniteMixture.create(mix.rho, mix.points, None)
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1), lambda a: np.round(a, 3)):
            pts = [transform(p) for p in mix.points]
            if any(not np.array_equal(a, b) for a, b in zip(pts, mix.points)):
                yield FiniteMixture.create(mix.rho, pts, mix.weights)
        rounded = np.round(mix.rho, 2)
        if np.all(rounded > 0) and not np.array_equal(rounded / rounded.sum(), mix.rho):
            yield FiniteMixture.create(rounded / rounded.sum(), mix.points, mix.weights)

    # -- JSON ---------------------------------------------------------------------------------------------
    def to_json(self, value: Any) -> Any:
        return value.to_json()

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        """Exact JSON types; N_C, the support sizes and d within the part's bounds, checked before any array
        is built (:meth:`numerics.mixture.FiniteMixture.from_json`); the family's validate checks the rest."""
        return FiniteMixture.from_json(data, where, f"values.{name}", classes=self.classes, support=self.support,
                                       dims=self.dims)

    def from_json(self, data: Any) -> Any:
        return FiniteMixture.from_json(data, "mixture", "mixture", classes=self.classes, support=self.support,
                                       dims=self.dims)

    def describe(self, value: Any) -> str:
        return value.describe()


@dataclass(frozen=True)
class Subset(Part):
    """A non-empty set of distinct indices in 0..``n`` - 1, sorted (e.g. a task: a set of classes); the value
    is a tuple. ``empty=True`` also admits the empty tuple (then meaning, by the family's convention, all
    of them). Usually drawn conditionally: ``Given(lambda c: Subset(c["mixture"].n_classes))``."""

    n: int
    empty: bool = False
    continuous = False
    kind = "subset"

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        members = st.lists(st.integers(0, self.n - 1), min_size=1, unique=True)
        return members.map(lambda m: tuple(sorted(m)))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        items = list(value)
        if not items and not self.empty:
            raise AssumptionError(f"part {name!r} is empty")
        if any(isinstance(t, bool) or int(t) != t or not 0 <= t < self.n for t in items):
            raise AssumptionError(f"part {name!r} = {items} names an index outside [0, {self.n - 1}]")
        if len(set(items)) != len(items):
            raise AssumptionError(f"part {name!r} = {items} repeats an index")

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return tuple(int(t) for t in value)

    def size_of(self, value: Any) -> int:
        return len(value)

    def nonzero(self, value: Any) -> int:
        return len(value)

    def simpler(self, value: Any) -> Iterable[Any]:
        if len(value) > 1:
            for t in value:
                yield tuple(u for u in value if u != t)

    def to_json(self, value: Any) -> Any:
        return [int(t) for t in value]

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        return tuple(jf.integer_list(data, f"values.{name}", (0 if self.empty else 1, self.n), 0, self.n - 1, where,
                                     unique=True))

    def from_json(self, data: Any) -> Any:
        return tuple(int(t) for t in data)

    def describe(self, value: Any) -> str:
        return str(list(value))


__all__ = ["Mixture", "MixtureView", "SCALES", "Subset", "finite_mixture"]
