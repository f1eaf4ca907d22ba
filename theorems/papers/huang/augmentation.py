"""Parts for augmented data (Huang et al.'s setting): samples with latent classes and finite augmentation
sets, and the encoder that embeds the augmented inputs.

* ``Augmentations(...)`` -- the data: n samples with class labels 0..K-1 (every class non-empty), sample masses
  (> 0, normalized) and for each sample ``a`` equally likely augmented inputs in R^m (the first one is the
  sample itself). Its value is an :class:`AugmentedData`. With ``samples="n"`` the samples are the family's
  size ``n`` (shrinking deletes a sample from every part on that axis).
* ``Encoder(form, data, norm=, r=)`` -- the parameters of an encoder f on those inputs, drawn with
  ``Given(lambda c: Encoder(c["encoder"], c["data"], norm=c["norm"], r=c["r"]))``: ``"linear"`` f(x') = W x'
  (W of shape (d, m)), ``"table"`` the values themselves (n, a, d), ``"collapsed"`` one vector per class
  (K, d) normalized to the sphere; then ``norm``: ``"none"``, ``"sphere"`` (f = r g / ||g||) or ``"coord"``
  (every coordinate rescaled so that E_x E_{x'} f_i(x')^2 = 1). A formula gets ``s.f`` as an
  :class:`Encoded`: ``s.f.F`` the values f(x') (n, a, d) in the backend, ``s.f.arrays`` the setting's
  backend arrays (:class:`theorems.papers.huang.augmented.AugArrays`) and ``s.f.setting`` the float64
  :class:`theorems.papers.huang.augmented.AugmentedSetting` for combinatorial quantities (cliques, argmin sets). The
  adversary climbs the parameters (W, the table, the class vectors).

Thresholds such as eps and delta are drawn among the data's own distances by a ``Given`` part built from
the parts before it: ``Given(lambda c: Choice(thresholds(...), lo=0.0, hi=math.inf))``
(:class:`theorems.subjects.Choice`). A sampler that constructs the data together with what follows it (an
encoder, thresholds) puts those values in :attr:`AugmentedData.planned`; the later parts then draw exactly
them (``Encoder`` the planned ``"f"``, a ``Choice`` built from ``data.planned``). ``planned`` is not part of
the value's JSON or of its checks.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import FLOAT, Backend
from numerics.errors import AssumptionError
from theorems import ClaimError
from theorems.papers.huang import augmented as ag
from theorems.papers.huang.augmented import AugArrays
from theorems.subjects import Part

Bounds = tuple[int, int]
ENCODERS = ("linear", "table", "collapsed")
NORMS = ("none", "sphere", "coord")


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class AugmentedData:
    """n samples: ``labels`` (n,) in 0..K-1, ``mass`` (n,) > 0 summing to 1, ``inputs`` (n, a, m) the augmented
    inputs of each sample (A(x), x itself first), ``n_classes`` K. Arrays are read-only."""

    labels: np.ndarray
    mass: np.ndarray
    inputs: np.ndarray
    n_classes: int
    planned: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def create(cls, labels: Any, mass: Any, inputs: Any, n_classes: int, planned: Mapping[str, Any] | None = None
               ) -> "AugmentedData":
        """The data with the masses normalized; raises AssumptionError for data outside the setting (an empty
        class, a mass <= 0, a non-finite input, mismatched shapes)."""
        data = cls.unchecked(labels, mass, inputs, n_classes, planned)
        data.check()
        return data

    @classmethod
    def unchecked(cls, labels: Any, mass: Any, inputs: Any, n_classes: int,
                  planned: Mapping[str, Any] | None = None) -> "AugmentedData":
        mass = np.asarray(mass, dtype=float)
        total = float(mass.sum()) if mass.size else 1.0
        return cls(_frozen(np.asarray(labels, dtype=int)), _frozen(mass / (total if total > 0 else 1.0)),
                   _frozen(np.asarray(inputs, dtype=float)), int(n_classes), dict(planned or {}))

    def check(self) -> None:
        n, K = self.labels.size, self.n_classes
        if self.labels.ndim != 1 or n == 0:
            raise AssumptionError(f"labels must be a non-empty 1-d array, got shape {self.labels.shape}")
        if K < 1 or self.labels.min() < 0 or self.labels.max() >= K:
            raise AssumptionError(f"labels must lie in 0..{K - 1}, got {self.labels.tolist()}")
        missing = sorted(set(range(K)) - set(self.labels.tolist()))
        if missing:
            raise AssumptionError(f"class(es) {missing} have no sample: every latent class needs P[C_k] > 0")
        if self.mass.shape != (n,) or not np.all(np.isfinite(self.mass)) or np.any(self.mass <= 0):
            raise AssumptionError(f"sample masses must be {n} finite numbers > 0, got {self.mass.tolist()}")
        if self.inputs.ndim != 3 or self.inputs.shape[0] != n or min(self.inputs.shape[1:], default=0) < 1:
            raise AssumptionError(f"inputs must have shape (n={n}, a>=1, m>=1), got {self.inputs.shape}")
        if not np.all(np.isfinite(self.inputs)):
            raise AssumptionError("the augmented inputs must be finite")

    @property
    def n(self) -> int:
        return int(self.labels.size)

    @property
    def a(self) -> int:
        return int(self.inputs.shape[1])

    @property
    def m(self) -> int:
        return int(self.inputs.shape[2])

    @property
    def class_mass(self) -> np.ndarray:
        return np.bincount(self.labels, weights=self.mass, minlength=self.n_classes)

    def without(self, index: int) -> "AugmentedData":
        """The data without sample ``index`` (masses renormalized; unchecked: a class may become empty)."""
        keep = [i for i in range(self.n) if i != index]
        return AugmentedData.unchecked(self.labels[keep], self.mass[keep], self.inputs[keep], self.n_classes)

    def with_feats(self, feats: np.ndarray) -> ag.AugmentedSetting:
        """The numerics setting of this data with encoder values ``feats`` (n, a, d)."""
        return ag.AugmentedSetting.create(self.labels, self.mass, self.inputs, feats, self.n_classes)

    def describe(self) -> str:
        return (f"K={self.n_classes}, |A|={self.a}, m={self.m}, p={np.round(self.class_mass, 4).tolist()}, "
                f"labels={self.labels.tolist()}")


# -- the data part ---------------------------------------------------------------------------------
INPUT_MODES = ("random", "clustered", "collapsed")


@dataclass(frozen=True)
class Augmentations(Part):
    """The data of an augmented setting (an :class:`AugmentedData`).

    Args:
        samples: the family's size that counts the samples (its axis), or None (then ``n`` bounds them).
        classes, augmentations, input_dims, n: the bounds of K, |A(x)|, m and (without ``samples``) n.
        inputs: how the augmented inputs are drawn: ``"random"`` (uniform in [-1, 1]^m), ``"clustered"``
            (class centres in [-3, 3]^m plus noise of a drawn scale, sometimes with one augmented input shared
            by a whole class), ``"collapsed"`` (class k's inputs at 10 k plus noise, sharing the point 10 k);
            or a function ``(n, part) -> strategy`` of :class:`AugmentedData` (constructed settings).
        integer: inputs' noise in {-1, 0, 1} (frequent ties).
    """

    samples: str | None = "n"
    classes: Bounds = (1, 4)
    augmentations: Bounds = (1, 3)
    input_dims: Bounds = (1, 3)
    n: Bounds = (1, 8)
    inputs: str | Callable[[int | None, "Augmentations"], st.SearchStrategy[AugmentedData]] = "random"
    integer: bool = False
    continuous = False
    kind = "augmented data"

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.samples,) if self.samples else ()

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        n = shape[0] if self.samples else None
        if callable(self.inputs):
            return self.inputs(n, self)
        return _drawn_data(self, n if n is not None else None)

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return value  # formulas read the data through the encoder's view (s.f.arrays, s.f.setting)

    def size_of(self, value: Any) -> int:
        return int(value.labels.size + value.mass.size + value.inputs.size)

    def nonzero(self, value: Any) -> int:
        return int(np.count_nonzero(value.inputs) + 2 * value.n)

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        if not isinstance(value, AugmentedData):
            raise AssumptionError(f"part {name!r} is a {type(value).__name__}, not AugmentedData")
        value.check()
        bounds = {"K": (value.n_classes, self.classes), "|A(x)|": (value.a, self.augmentations),
                  "m": (value.m, self.input_dims)}
        if self.samples:
            if (value.n,) != tuple(shape):
                raise AssumptionError(f"part {name!r} has {value.n} samples; its size {self.samples} = {shape[0]}")
        else:
            bounds["n"] = (value.n, self.n)
        for key, (v, (lo, hi)) in bounds.items():
            if not lo <= v <= hi:
                raise AssumptionError(f"part {name!r}: {key} = {v} is outside [{lo}, {hi}]")

    def simpler(self, value: Any) -> Iterable[Any]:
        if np.any(value.mass != value.mass[0]):  # not yet equal masses (exactly: equal masses normalize alike)
            yield AugmentedData.unchecked(value.labels, np.ones(value.n), value.inputs, value.n_classes)

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return value.without(index)

    def to_json(self, value: Any) -> Any:
        return {"labels": value.labels.tolist(), "mass": value.mass.tolist(), "inputs": value.inputs.tolist(),
                "n_classes": value.n_classes}

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        """Exact JSON types, K, n, |A(x)| and m within the part's bounds, every list's length checked before
        any array is built."""
        jf.fields(data, ("labels", "mass", "inputs", "n_classes"), (), where, f"values.{name}")
        K = jf.as_integer(data["n_classes"], f"values.{name}.n_classes", *self.classes, where)
        n_axis = shape[0] if self.samples else self.n
        labels = jf.integer_array(data["labels"], f"values.{name}.labels", (n_axis,), where, ("n (samples)",), 0, K - 1)
        n = labels.size
        mass = jf.real_array(data["mass"], f"values.{name}.mass", (n,), where, ("n (one mass per sample)",))
        inputs = jf.real_array(data["inputs"], f"values.{name}.inputs", (n, self.augmentations, self.input_dims),
                               where, ("n (samples)", "|A(x)| (augmentations)", "m (input dimension)"))
        try:
            return AugmentedData.create(labels, mass, inputs, K)
        except AssumptionError as exc:
            raise AssumptionError(f"{where}: field values.{name}: {exc}") from None

    def describe(self, value: Any) -> str:
        return value.describe()


def _inputs(mode: str, labels: np.ndarray, noise: np.ndarray, centres: np.ndarray, scale: float,
            share: bool) -> np.ndarray:
    a = noise.shape[1]
    if mode == "collapsed":  # class k's inputs: a shared point 10 k, far from the other classes
        X = (labels * 10.0)[:, None, None] + np.abs(noise) * 0.5
        X[:, -1, :] = (labels * 10.0)[:, None]
        return X
    if mode == "random":
        return noise
    X = centres[labels][:, None, :] + scale * noise  # (n, a, m)
    if share and a > 1:
        X[:, -1, :] = centres[labels]  # every sample of a class owns the class centre as an augmentation
    return X


@st.composite
def _drawn_data(draw: Any, part: Augmentations, n: int | None) -> AugmentedData:
    if n is None:
        n = draw(st.integers(*part.n))
    K = draw(st.integers(part.classes[0], min(part.classes[1], n)))
    a = draw(st.integers(*part.augmentations))
    m = draw(st.integers(*part.input_dims))
    extra = draw(st.lists(st.integers(0, K - 1), min_size=n - K, max_size=n - K))
    labels = np.asarray(list(range(K)) + extra)
    uniform = draw(st.booleans())
    mass = np.ones(n) if uniform else np.asarray(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    vals = st.integers(-1, 1).map(float) if part.integer else st.floats(-1.0, 1.0)
    noise = np.asarray(draw(st.lists(vals, min_size=n * a * m, max_size=n * a * m))).reshape(n, a, m)
    centres = np.asarray(draw(st.lists(st.floats(-3.0, 3.0), min_size=K * m, max_size=K * m))).reshape(K, m)
    scale = draw(st.sampled_from([0.0, 0.01, 0.1, 0.5]))
    share = draw(st.booleans())
    assert isinstance(part.inputs, str)
    return AugmentedData.create(labels, mass, _inputs(part.inputs, labels, noise, centres, scale, share), K)


# -- the encoder -----------------------------------------------------------------------------------
def encode(form: str, norm: str, params: Any, data: AugmentedData, r: Any, xp: Backend) -> Any:
    """f(x') for every augmented input (n, a, d) in backend ``xp`` (``params`` a backend array)."""
    if form == "linear":
        Y = xp.asarray(np.array(data.inputs)) @ params.T
    elif form == "collapsed":
        V = params / xp.sqrt(xp.sum(params * params, axis=1))[:, None]
        onehot = xp.asarray((data.labels[:, None] == np.arange(data.n_classes)[None, :]).astype(float))
        return (onehot @ V)[:, None, :] * xp.asarray(np.ones((1, data.a, 1)))
    else:
        Y = params
    if norm == "sphere":
        Y = r * Y / xp.sqrt(xp.sum(Y * Y, axis=2))[:, :, None]
    elif norm == "coord":  # E_x E_{x'} f_i^2 = 1 with the sample masses
        w = xp.asarray(np.array(data.mass))
        w = w / xp.sum(w)
        second = xp.sum(xp.sum(Y * Y, axis=1) / data.a * w[:, None], axis=0)  # (d,)
        Y = Y / xp.sqrt(second)[None, None, :]
    return Y


_SETTINGS: "collections.OrderedDict[tuple, tuple[Any, Any, ag.AugmentedSetting]]" = collections.OrderedDict()


def float_setting(form: str, norm: str, r: float, data: AugmentedData, params: np.ndarray) -> ag.AugmentedSetting:
    """The float64 numerics setting of ``data`` embedded by the encoder (raises AssumptionError where f is
    undefined or not finite). Remembered for the last few (data, parameters) pairs, so that its memoized
    combinatorics (cliques, nearest-centre sets) are shared by every evaluation of one subject."""
    key = (id(data), id(params), form, norm, float(r))
    hit = _SETTINGS.get(key)
    if hit is not None and hit[0] is data and hit[1] is params:
        _SETTINGS.move_to_end(key)
        return hit[2]
    with np.errstate(all="ignore"):
        feats = np.asarray(encode(form, norm, np.asarray(params, dtype=float), data, float(r), FLOAT), dtype=float)
    if not np.all(np.isfinite(feats)):
        raise AssumptionError(f"the {form}/{norm} encoder's values contain NaN or inf (f undefined on the inputs)")
    setting = data.with_feats(feats)
    _SETTINGS[key] = (data, params, setting)  # holding both keeps their ids from being reused
    if len(_SETTINGS) > 64:
        _SETTINGS.popitem(last=False)
    return setting


class Encoded:
    """The encoder as a formula sees it (``s.f``): ``F`` (n, a, d) in the backend, ``params`` the
    parameters it came from, ``arrays`` the backend arrays of the setting, ``setting`` the float64 setting."""

    def __init__(self, part: "Encoder", params: Any, xp: Backend, plain: np.ndarray | None) -> None:
        self.part, self.params, self.xp, self._plain = part, params, xp, plain
        self.F = encode(part.form, part.norm, params, part.data, part.r, xp)
        self._arrays: AugArrays | None = None
        self._setting: ag.AugmentedSetting | None = None

    @property
    def arrays(self) -> AugArrays:
        if self._arrays is None:
            data, xp = self.part.data, self.xp
            w = xp.asarray(np.array(data.mass))
            onehot = xp.asarray((data.labels[:, None] == np.arange(data.n_classes)[None, :]).astype(float))
            self._arrays = AugArrays(xp, self.F, w / xp.sum(w), onehot, np.array(data.labels))
        return self._arrays

    @property
    def setting(self) -> ag.AugmentedSetting:
        if self._setting is None:
            plain = self._plain if self._plain is not None else _plain(self.params)
            self._setting = float_setting(self.part.form, self.part.norm, self.part.r, self.part.data, plain)
        return self._setting


def _plain(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):
        return x.detach().cpu().numpy().astype(np.float64)
    return np.vectorize(float, otypes=[float])(x) if isinstance(x, np.ndarray) and x.dtype == object else \
        np.asarray(x, dtype=np.float64)


@dataclass(frozen=True)
class Encoder(Part):
    """The parameters of an encoder of ``data`` (see the module docstring); the value is the parameter array:
    W (d, m) for ``"linear"``, the table (n, a, d) for ``"table"``, the class vectors (K, d) for
    ``"collapsed"``.

    Args:
        form, norm: the encoder ("linear", "table", "collapsed") and its normalization; ``r`` the radius of
            ``norm="sphere"``.
        data: the :class:`AugmentedData` it embeds (the part before it, through ``Given``).
        dims: the bounds of the output dimension d.
        integer: entries in {-1, 0, 1} (and no adversary: the values are the point).
        search: whether the adversary climbs the parameters.
        samples: the family's size counting the samples (a table's first axis), or None.
        draw: a function ``(part) -> strategy`` of parameter arrays replacing the random draws (constructed
            encoders); a planned ``"f"`` of the data comes first.
    """

    form: str
    data: AugmentedData
    norm: str = "none"
    r: float = 1.0
    dims: Bounds = (1, 4)
    integer: bool = False
    search: bool = True
    samples: str | None = "n"
    draw: Callable[["Encoder"], st.SearchStrategy[np.ndarray]] | None = None
    kind = "encoder"

    def __post_init__(self) -> None:
        if self.form not in ENCODERS or self.norm not in NORMS:
            raise ClaimError(f"Encoder({self.form!r}, norm={self.norm!r}): the form is one of {ENCODERS}, "
                             f"the norm one of {NORMS}")

    @property
    def axes(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.samples,) if self.form == "table" and self.samples else ()

    @property
    def continuous(self) -> bool:  # type: ignore[override]
        return self.search and not self.integer

    def param_shape(self, d: int | None) -> tuple[Any, ...]:
        data = self.data
        return {"linear": (d, data.m), "table": (data.n, data.a, d), "collapsed": (data.n_classes, d)}[self.form]

    def strategy(self, shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if "f" in self.data.planned:
            return st.just(np.asarray(self.data.planned["f"], dtype=float))
        return _drawn_params(self)

    def features(self, value: Any) -> np.ndarray:
        """f(x') in float64 (raises AssumptionError where f is undefined)."""
        return float_setting(self.form, self.norm, self.r, self.data, value).feats

    def to_backend(self, value: Any, xp: Backend) -> Any:
        return Encoded(self, xp.asarray(np.array(value, dtype=float)), xp,
                       value if isinstance(value, np.ndarray) else None)

    def to_param(self, value: Any) -> np.ndarray:
        return np.asarray(value, dtype=float)

    def from_param(self, w: Any, xp: Backend) -> Any:
        return Encoded(self, w, xp, None)

    def from_torch(self, value: Any) -> np.ndarray:
        return _plain(value.params)

    def size_of(self, value: Any) -> int:
        return int(np.size(value))

    def validate(self, value: Any, shape: tuple[int, ...], name: str) -> None:
        arr = np.asarray(value, dtype=float)
        d = None if arr.ndim == 0 else int(arr.shape[0] if self.form == "linear" else arr.shape[-1])
        want = self.param_shape(d)
        if arr.shape != want:
            raise AssumptionError(f"part {name!r} has shape {arr.shape}; a {self.form} encoder of this data needs "
                                  f"{want[:-1] + ('d',) if self.form != 'linear' else ('d', want[1])}")
        if not self.dims[0] <= d <= self.dims[1]:
            raise AssumptionError(f"part {name!r}: d = {d} is outside [{self.dims[0]}, {self.dims[1]}]")
        if not np.all(np.isfinite(arr)):
            raise AssumptionError(f"part {name!r} contains NaN or inf")
        try:
            self.features(value)
        except AssumptionError as exc:
            raise AssumptionError(f"part {name!r}: {exc}") from None

    def simpler(self, value: Any) -> Iterable[Any]:
        if self.form == "linear":
            W2 = np.round(np.asarray(value, dtype=float), 1)
            if not np.array_equal(W2, value) and np.all(np.abs(W2).sum(axis=1) > 0):
                yield W2

    def delete(self, value: Any, axis: int, index: int) -> Any:
        return np.delete(np.asarray(value, dtype=float), index, axis=axis)

    def to_json(self, value: Any) -> Any:
        return np.asarray(value, dtype=float).tolist()

    def read(self, data: Any, shape: tuple[int, ...], name: str, where: str) -> Any:
        want = self.param_shape(self.dims)
        labels = {"linear": ("d", "m (input dimension)"), "table": ("n (samples)", "|A(x)|", "d"),
                  "collapsed": ("K (classes)", "d")}[self.form]
        return jf.real_array(data, f"values.{name}", want, where, labels)

    def describe(self, value: Any) -> str:
        try:
            feats = self.features(value)
        except AssumptionError:
            return f"{self.form}/{self.norm} encoder (undefined)"
        return f"{self.form}/{self.norm} encoder, d={feats.shape[2]}, f={np.round(feats, 4).tolist()}"


@st.composite
def _drawn_params(draw: Any, part: Encoder) -> np.ndarray:
    if part.draw is not None:
        value = draw(part.draw(part))
    else:
        d = draw(st.integers(*part.dims))
        shape = part.param_shape(d)
        size = int(np.prod(shape))
        if part.form == "collapsed":
            value = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=size, max_size=size))).reshape(shape)
            value = value + np.where(np.abs(value) < 1e-3, 0.5, 0.0)
        else:
            entries = st.integers(-1, 1).map(float) if part.integer else st.floats(-2.0, 2.0)
            value = np.asarray(draw(st.lists(entries, min_size=size, max_size=size))).reshape(shape)
            if part.form == "linear" and part.norm in ("sphere", "coord"):
                # the projection needs W x' != 0 (sphere) and every coordinate non-zero somewhere (coord)
                value = value + np.where(np.abs(value) < 1e-3, 0.5, 0.0)
    try:
        part.features(value)
    except AssumptionError:  # f undefined (W x' = 0 under the projection, a zero coordinate)
        assume(False)
    return value


# -- thresholds -------------------------------------------------------------------------------------
def thresholds(values: Sequence[float]) -> tuple[float, ...]:
    """Sorted distinct values rounded to 12 digits (the data's own distances as threshold candidates)."""
    return tuple(sorted({float(v) for v in np.round(np.asarray(values, dtype=float), 12)}))


AT, BELOW = 1e-12, 1e-9  # relative offsets of a change point's two sides (float64 distances are exact to ~1e-16)


def change_points(values: Sequence[float]) -> tuple[float, ...]:
    """Both sides of each distance where a threshold's set changes (a sample enters S_eps at eps = its diameter; two
    samples share a main part from delta = their d_A on): the distance itself, nudged up by ``AT`` so that the
    sample is inside at any precision, and just below it (``BELOW``), where it is outside -- the side where a bound
    that charges the threshold is closest to failing (a supremum approached from below, never attained). 0 stays 0."""
    out: set[float] = set()
    for v in thresholds(values):
        out.update((v * (1 + AT), v * (1 - BELOW)) if v > 0 else (0.0,))
    return tuple(sorted(out))


__all__ = ["AugmentedData", "Augmentations", "Encoded", "Encoder", "change_points", "encode", "float_setting",
           "thresholds"]
