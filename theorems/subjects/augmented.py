"""Augmented-data subjects for Huang et al. (finite augmentation sets, exact sums).

A subject is an :class:`~numerics.augmented.AugmentedSetting` plus how its encoder
values arise (so the high-precision and torch twins recompute them):

* ``linear``: f(x') = W x' (W a random d x m matrix), then ``norm``:
  ``none``; ``sphere`` (f(x') = r W x' / ||W x'||, the claims with ||f|| = r);
  ``coord`` (each coordinate rescaled so that E_x E_{x'} f_i(x')^2 = 1);
* ``table``: the encoder values themselves (small integers, so that ties occur);
* ``collapsed``: every augmented input of class k embeds to one unit vector v_k and the
  samples of a class share an augmented input (sigma = 1, delta = 0, eps = 0, R_eps = 0).

Inputs are ``random`` (uniform in [-1, 1]^m) or ``clustered`` (class centres plus small
noise, sometimes with an augmented input shared by the whole class). Sizes: K = 1..4,
n <= 8, |A(x)| = 1..3, m <= 3, d = 1..4. Two constructed modes reach where a bound says
something: ``separated`` (Theorem 2: separated classes at the boundary of its divergence
condition, see :class:`SeparatedPlan`) and ``aligned`` (Theorem 1: nearly aligned table encoders).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import augmented as ag
from numerics import json_fields as jf
from numerics.augmented import AugArrays, AugmentedSetting
from numerics.backend import FLOAT, Backend
from numerics.errors import AssumptionError
from theorems.engine.family import SubjectFamily
from theorems.engine.quantity import quantity

# -- the quantities of Huang et al. (exact finite sums over an augmented setting) ----------------------
L_nce = quantity("L_InfoNCE", doc="L_InfoNCE as printed")
L1_nce = quantity("L1_InfoNCE", doc="1/2 E||f(x1) - f(x2)||^2 - 1")
L2_nce = quantity("L2_InfoNCE", doc="E log(e^{f1.f2} + e^{f1.f-})")
L_cc = quantity("L_CrossCorr", range=(0, None), doc="sum (1 - C_ii)^2 + lam sum_{i != j} C_ij^2")
L1_cc = quantity("L1_CrossCorr", range=(0, None), doc="sum_i (1 - C_ii)^2")
L2_cc = quantity("L2_CrossCorr", range=(0, None), doc="||C - I_d||_F^2")
lam = quantity("lambda")
bt_lhs = quantity("norm_sum_pmumu_minus_I", range=(0, None), doc="||sum_k p_k mu_k mu_k^T - I_d||^2")
bt_gram = quantity("norm_UtU_minus_I", range=(0, None), doc="||U^T U - I_K||^2")
bt_sum = quantity("sum_kl_sq", range=(0, None), doc="sum_{k,l} (sqrt(p_k p_l) mu_k^T mu_l - delta_kl)^2")
d_dim = quantity("d", integer=True, range=(1, None))
K_cls = quantity("K", integer=True, range=(1, None))
tb_pair = quantity("max_pair_pp_dot_sq", range=(0, None), doc="max_{k != l} p_k p_l (mu_k^T mu_l)^2")
L_pos = quantity("L_positive", range=(0, None), doc="E_x E_{x1,x2} ||f(x1) - f(x2)||^2")
L_align = quantity("L_align", range=(0, None), doc="the same expectation (Theorem 1)")
tau_bt = quantity("tau", range=(0, None), doc="||C - sum_k p_k mu_k mu_k^T||^2")
th4_dot = quantity("th4_mu_k_dot_mu_l", doc="mu_k^T mu_l at the pair worst for Theorem 4")
th4_pk = quantity("th4_p_k", range=(0, 1))
th4_pl = quantity("th4_p_l", range=(0, 1))
th3_dot = quantity("th3_mu_k_dot_mu_l", doc="the same for Theorem 3")
th3_pk = quantity("th3_p_k", range=(0, 1))
th3_pl = quantity("th3_p_l", range=(0, 1))
L2s_pairs = quantity("L2_simple_pairs", doc="E f(x1)^T f(x-)")
L2s_mean = quantity("L2_simple_mean", range=(0, None), doc="||E f||^2")
nn_mismatch = quantity("nn_argmin_argmax_mismatches", integer=True, range=(0, None))
nn_gap = quantity("nn_score_gap", range=(0, None))
err_G = quantity("Err_G", range=(0, 1), doc="Err(G_f)")
err_main = quantity("Err_main_good", range=(0, 1),
                    doc="P[x in (C^0_1 u ... u C^0_K) n S_eps, G_f(x) != y(x)] (ties are mistakes)")
sigma = quantity("sigma", range=(0, 1))
R_eps = quantity("R_eps", range=(0, 1))
eps_s = quantity("epsilon", range=(0, None))
A_size = quantity("A_size", integer=True, range=(1, None), doc="|A(x)|")
main_spread = quantity("main_good_spread", range=(0, None),
                       doc="max ||f(x1) - f(y1)||, x, y in one class's C^0_k n S_eps, x1 in A(x), y1 in A(y)")
lip_L = quantity("L_lipschitz", range=(0, None), doc="max ||f(u) - f(v)|| / ||u - v|| over augmented inputs")
delta_s = quantity("delta_sigma", range=(0, None), doc="the delta of the (sigma, delta)-augmentation")


@dataclass(frozen=True, eq=False)
class AugSubject:
    setting: AugmentedSetting
    encoder: str  # linear | table | collapsed
    norm: str = "none"  # none | sphere | coord
    W: np.ndarray | None = None  # (d, m) for linear; (K, d) raw class vectors for collapsed
    raw: np.ndarray | None = None  # (n, a, d) for table
    r: float = 1.0
    lam: float = 0.5
    eps: float = 0.1
    delta: float = 0.0


def encode(subject_encoder: str, norm: str, W: Any, raw: Any, inputs: np.ndarray, labels: np.ndarray,
           n_classes: int, r: float, xp: Backend) -> Any:
    """f(x') for every augmented input, in backend ``xp`` (W / raw may be torch leaves)."""
    n, a, _ = inputs.shape
    if subject_encoder == "linear":
        X = xp.asarray(ag.writable(inputs))
        Wb = xp.asarray(W)
        Y = X @ Wb.T  # (n, a, d)
    elif subject_encoder == "collapsed":
        V = xp.asarray(W)
        V = V / xp.sqrt(xp.sum(V * V, axis=1))[:, None]
        onehot = xp.asarray((labels[:, None] == np.arange(n_classes)[None, :]).astype(float))
        per_x = onehot @ V  # (n, d)
        Y = per_x[:, None, :] * xp.asarray(np.ones((1, a, 1)))
        return Y
    else:
        Y = xp.asarray(raw)
    if norm == "sphere":
        Y = r * Y / xp.sqrt(xp.sum(Y * Y, axis=2))[:, :, None]
    elif norm == "coord":
        # E_x E_{x'} f_i^2 = 1 with the sample masses: rescaled in the backend
        return Y  # rescaled by the caller, which knows the masses
    return Y


def features(s: AugSubject, xp: Backend, params: Sequence[Any] | None = None) -> Any:
    st_ = s.setting
    W = s.W if params is None or s.encoder == "table" else params[0]
    raw = s.raw if params is None or s.encoder != "table" else params[0]
    Y = encode(s.encoder, s.norm, W, raw, st_.inputs, st_.labels, st_.n_classes, s.r, xp)
    if s.norm == "coord":
        w = xp.asarray(ag.writable(st_.mass))
        w = w / xp.sum(w)
        second = xp.sum(xp.sum(Y * Y, axis=1) / st_.a * w[:, None], axis=0)  # (d,)
        Y = Y / xp.sqrt(second)[None, None, :]
    return Y


def _float_feats(s: AugSubject) -> np.ndarray:
    return np.asarray(features(s, FLOAT), dtype=float)


def build(labels: np.ndarray, mass: np.ndarray, inputs: np.ndarray, n_classes: int, encoder: str,
          norm: str, W: np.ndarray | None, raw: np.ndarray | None, r: float, lam: float, eps: float,
          delta: float) -> AugSubject:
    probe = AugSubject(AugmentedSetting.create(labels, mass, inputs,
                                               np.zeros((inputs.shape[0], inputs.shape[1], 1)), n_classes),
                       encoder, norm, W, raw, r, lam, eps, delta)
    feats = _float_feats(probe)
    return replace(probe, setting=probe.setting.with_feats(feats))


RADII = (1.0, 0.5, 2.0)  # the radii r of the sphere encoders with ``radius=True``

#: the sizes every random mode draws (see the strategies below): n <= 8 samples, |A(x)| <= 3, m <= 3, d <= 4
RANDOM_SIZES = {"samples": (1, 8), "augmentations": (1, 3), "input_dims": (1, 3), "dims": (1, 4)}
#: the sizes of subjects built from encoders trained on digits (theorems.papers.huang.experiments: 5 images
#: per digit, the image and 2 augmented views, 8 x 8 = 64 inputs, 16 outputs), with room for larger runs
#: (20 images per digit, 4 views, 64 outputs); a learned family may pass its own ``sizes``
LEARNED_SIZES = {"samples": (1, 200), "augmentations": (1, 5), "input_dims": (1, 64), "dims": (1, 64)}


# -- quantities -------------------------------------------------------------------------------------
def _pair(dots: np.ndarray, pp: np.ndarray, score: Any) -> tuple[int, int]:
    K = dots.shape[0]
    best, arg = -np.inf, (0, 1)
    for k in range(K):
        for l in range(K):
            if k != l:
                v = score(dots[k, l], pp[k, l])
                if v > best:
                    best, arg = v, (k, l)
    return arg


def _as_float(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):
        return x.detach().numpy().astype(float)
    return np.asarray(np.vectorize(float)(x) if isinstance(x, np.ndarray) else float(x), dtype=float)


class AugmentedFamily(SubjectFamily):
    """Random augmented settings (see the module docstring)."""

    def __init__(self, encoder: str = "linear", norm: str = "none", inputs: str = "random",
                 classes: tuple[int, int] = (1, 4), integer: bool = False, radius: bool = False,
                 name: str = "", adversary: bool = True, sizes: dict[str, tuple[int, int]] | None = None) -> None:
        self.encoder, self.norm, self.input_mode = encoder, norm, inputs
        self.classes, self.integer, self.radius = classes, integer, radius
        # the bounds of n ("samples"), |A(x)| ("augmentations"), m ("input_dims") and d ("dims") that
        # validate() and from_json() enforce: as drawn, or the trained encoders' for a learned family
        default = LEARNED_SIZES if getattr(self, "origin", "random") == "learned" else RANDOM_SIZES
        self.sizes = {**default, **(sizes or {})}
        # adversary=False: random draws only (for a second family with the same parametrization as one that
        # already has the gradient search, where the search would climb the same W again)
        self.adversary = adversary
        self.name = name or f"augmented settings ({encoder}, {norm}, {inputs} inputs)"

    symbols = frozenset({L_nce, L1_nce, L2_nce, L_cc, L1_cc, L2_cc, lam, bt_lhs, bt_gram, bt_sum, d_dim, K_cls,
                         tb_pair, L_pos, L_align, tau_bt, th4_dot, th4_pk, th4_pl, th3_dot, th3_pk, th3_pl,
                         L2s_pairs, L2s_mean, nn_mismatch, nn_gap, err_G, err_main, sigma, R_eps, eps_s, A_size,
                         main_spread, lip_L, delta_s})

    @property
    def differentiable(self) -> frozenset[sympy.Symbol]:  # type: ignore[override]
        if self.encoder == "table" and self.integer:
            return frozenset()
        # the classifier's error and the (sigma, delta) cliques are discrete: no gradient
        return self.symbols - {nn_mismatch, nn_gap, err_G, err_main, sigma, R_eps, main_spread, lip_L, delta_s}

    def r_bounds(self) -> tuple[float, float]:
        """r as drawn: from RADII with ``radius``, else 1."""
        return (min(RADII), max(RADII)) if self.radius else (1.0, 1.0)

    def parameter_shapes(self, K: int, n: int, a: int, m: int, d: int) -> dict[str, tuple[int, ...] | None]:
        """The shapes of the encoder's parameters (None: absent): W (d, m) for linear, the class vectors
        (K, d) for collapsed, the table (n, a, d) for table."""
        if self.encoder == "table":
            return {"W": None, "raw": (n, a, d)}
        return {"W": (K, d) if self.encoder == "collapsed" else (d, m), "raw": None}

    def validate(self, subject: AugSubject) -> None:
        """The encoder and normalization of the family, K, n, |A(x)|, m and d within its bounds, the
        encoder's parameters of the right shapes, r, lambda, eps and delta as drawn, and the encoder values
        in the setting equal to the encoder's (the quantities read both)."""
        setting = subject.setting
        if (subject.encoder, subject.norm) != (self.encoder, self.norm):
            raise AssumptionError(f"{self.name}: a {subject.encoder}/{subject.norm} encoder is not of this family")
        if not self.classes[0] <= setting.n_classes <= self.classes[1]:
            raise AssumptionError(f"{self.name}: K = {setting.n_classes} is outside {list(self.classes)}")
        sizes = {"samples": setting.n, "augmentations": setting.a, "input_dims": int(setting.inputs.shape[2]),
                 "dims": setting.d}
        for key, value in sizes.items():
            lo, hi = self.sizes[key]
            if not lo <= value <= hi:
                raise AssumptionError(f"{self.name}: {key} = {value} is outside [{lo}, {hi}]")
        if not np.all(np.isfinite(setting.feats)):
            raise AssumptionError(f"{self.name}: the encoder values contain NaN or inf")
        shapes = self.parameter_shapes(setting.n_classes, setting.n, setting.a, int(setting.inputs.shape[2]), setting.d)
        for key, value in (("W", subject.W), ("raw", subject.raw)):
            shape = None if value is None else np.shape(value)
            if shape != shapes[key]:
                raise AssumptionError(f"{self.name}: {key} has shape {shape}; a {self.encoder} encoder needs {shapes[key]}")
            if value is not None and not np.all(np.isfinite(value)):
                raise AssumptionError(f"{self.name}: {key} contains NaN or inf")
        r_lo, r_hi = self.r_bounds()
        if not r_lo <= subject.r <= r_hi:
            raise AssumptionError(f"{self.name}: r = {subject.r!r} is outside [{r_lo}, {r_hi}]")
        for key in ("lam", "eps", "delta"):
            value = getattr(subject, key)
            if not (np.isfinite(value) and value >= 0):
                raise AssumptionError(f"{self.name}: {key} = {value!r} must be finite and >= 0")
        with np.errstate(all="ignore"):
            feats = _float_feats(subject)
        if feats.shape != setting.feats.shape or not np.allclose(feats, setting.feats, rtol=1e-9, atol=1e-12):
            raise AssumptionError(f"{self.name}: the setting's encoder values (feats) are not the encoder's values "
                                  "on its inputs")

    def range_of(self, symbol: sympy.Symbol) -> tuple[float, float]:
        """A dot product of class centres mu_k^T mu_l lies in [-r^2, r^2] when every encoder value has
        norm r (||mu_k|| <= r by Jensen, then Cauchy-Schwarz): on unit-norm encoders (collapsed, or
        projected to the sphere of radius 1) that is [-1, 1], the trivial range a bound on it must
        improve; with the radius drawn from {0.5, 1, 2}, [-4, 4]."""
        if symbol in (th3_dot, th4_dot):
            if self.encoder == "collapsed":
                return (-1.0, 1.0)
            if self.norm == "sphere":
                top = max(RADII) ** 2 if self.radius else 1.0
                return (-top, top)
        return super().range_of(symbol)

    # -- drawing ----------------------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[AugSubject]:
        if self.input_mode == "separated":
            return _separated_subjects(self)
        if self.input_mode == "aligned":
            return _aligned_subjects(self)
        return _subjects(self)

    def random_start(self, rng: np.random.Generator) -> AugSubject | None:
        if self.integer or not self.adversary:
            return None
        K = int(rng.integers(self.classes[0], self.classes[1] + 1))
        n = int(rng.integers(K, 9))
        a, m, d = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 5))
        labels = np.concatenate([np.arange(K), rng.integers(0, K, size=n - K)])
        mass = rng.uniform(0.05, 1.0, size=n)
        inputs = _inputs(self.input_mode, labels, K, a, m, rng.uniform(-1, 1, size=(n, a, m)),
                         rng.uniform(-3, 3, size=(K, m)), 0.05, bool(rng.integers(0, 2)))
        return self._make(labels, mass, inputs, K, d, rng.normal(size=(d, m)), rng.normal(size=(K, d)),
                          rng.normal(size=(n, a, d)), float(rng.choice([0.5, 1.0, 2.0])),
                          float(rng.choice([0.0, 0.5, 1.0, 2.0])), 0.1, 0.0)

    def _make(self, labels: np.ndarray, mass: np.ndarray, inputs: np.ndarray, K: int, d: int,
              W: np.ndarray | None, V: np.ndarray | None, table: np.ndarray | None, r: float, lam: float,
              eps: float, delta: float) -> AugSubject:
        if self.encoder == "collapsed":
            return build(labels, mass, inputs, K, "collapsed", "none", V, None, 1.0, lam, 0.0, 0.0)
        if self.encoder == "table":
            return build(labels, mass, inputs, K, "table", self.norm, None, table, r if self.radius else 1.0,
                         lam, eps, delta)
        return build(labels, mass, inputs, K, "linear", self.norm, W, None, r if self.radius else 1.0,
                     lam, eps, delta)

    def params(self, subject: AugSubject) -> list[Any]:
        import torch

        src = subject.raw if subject.encoder == "table" else subject.W
        return [torch.tensor(np.asarray(src, dtype=float), dtype=torch.float64, requires_grad=True)]

    def from_params(self, subject: AugSubject, params: Sequence[Any]) -> AugSubject:
        val = params[0].detach().numpy().astype(float)
        s = subject.setting
        if subject.encoder == "table":
            new = replace(subject, raw=val)
        else:
            new = replace(subject, W=val)
        return replace(new, setting=s.with_feats(_float_feats(new)))

    def quantities(self, subject: AugSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        s = subject.setting
        F = features(subject, xp, params)
        arr = AugArrays.from_setting(s, xp, feats=F)
        cache: dict[str, Any] = {}

        def once(key: str, fn: Any) -> Any:
            if key not in cache:
                cache[key] = fn()
            return cache[key]

        def cc() -> dict[str, Any]:
            return once("cc", lambda: ag.crosscorr_parts(arr, xp.asarray(subject.lam)))

        def bt() -> dict[str, Any]:
            return once("bt", lambda: ag.barlow_trace_sides(arr))

        def pairs() -> tuple[Any, Any, Any]:
            return once("pairs", lambda: ag.pair_terms(arr))

        def tau() -> Any:
            return once("tau", lambda: ag.frob_sq(arr, ag.cross_correlation(arr) - ag.centre_second_moment(arr)))

        d, K = s.d, s.n_classes

        def th4_pair() -> tuple[int, int]:
            def pick() -> tuple[int, int]:
                dots, _, pp = (_as_float(t) for t in pairs())
                base = float(_as_float(cc()["l2"])) + float(_as_float(tau())) - (d - K) / 2
                return _pair(dots, pp, lambda v, q: v - np.sqrt(max(2 / q * base, 0.0)))
            return once("p4", pick)

        def th3_pair() -> tuple[int, int]:
            def pick() -> tuple[int, int]:
                dots, _, pp = (_as_float(t) for t in pairs())
                l2 = float(_as_float(ag.infonce_l2(arr)))

                def score(v: float, q: float) -> float:
                    inner = np.exp(min(l2 / q, 700.0)) - np.e
                    return v - (np.log(inner) if inner > 0 else -np.inf)
                return _pair(dots, pp, score)
            return once("p3", pick)

        def pair_value(which: str, idx: int) -> Any:
            if K < 2:
                return xp.asarray(float("nan"))  # no pair k != l (the claims assume K >= 2)
            k, l = th4_pair() if which == "4" else th3_pair()
            dots, p, _ = pairs()
            return [dots[k, l], p[k], p[l]][idx]

        def tb() -> Any:
            dots, _, pp = pairs()
            Kc = int(dots.shape[0])
            if Kc < 2:
                return xp.asarray(float("nan"))
            vals = [pp[k, l] * dots[k, l] ** 2 for k in range(Kc) for l in range(Kc) if k != l]
            return xp.max(_stack(xp, vals))

        def nn_mis() -> Any:
            return xp.asarray(float(ag.nn_classifier_report(s)["mismatch"]))

        def err() -> Any:
            return xp.asarray(ag.classification_error(s, ag.nn_predict(s)))

        compute = {
            L_nce: lambda: ag.infonce(arr),
            L1_nce: lambda: ag.infonce_l1(arr),
            L2_nce: lambda: ag.infonce_l2(arr),
            L_cc: lambda: cc()["loss"],
            L1_cc: lambda: cc()["l1"],
            L2_cc: lambda: cc()["l2"],
            lam: lambda: xp.asarray(subject.lam),
            bt_lhs: lambda: bt()["lhs"],
            bt_gram: lambda: bt()["gram"],
            bt_sum: lambda: bt()["sum"],
            d_dim: lambda: xp.asarray(float(d)),
            K_cls: lambda: xp.asarray(float(K)),
            tb_pair: tb,
            L_pos: lambda: ag.align_loss(arr),
            L_align: lambda: ag.align_loss(arr),
            tau_bt: tau,
            th4_dot: lambda: pair_value("4", 0),
            th4_pk: lambda: pair_value("4", 1),
            th4_pl: lambda: pair_value("4", 2),
            th3_dot: lambda: pair_value("3", 0),
            th3_pk: lambda: pair_value("3", 1),
            th3_pl: lambda: pair_value("3", 2),
            L2s_pairs: lambda: ag.simple_l2_pairs(arr),
            L2s_mean: lambda: ag.simple_l2_mean(arr),
            nn_mismatch: nn_mis,
            nn_gap: lambda: ag.nn_score_gap(arr),
            err_G: err,
            err_main: lambda: xp.asarray(ag.main_good_misclassified(s, subject.delta, subject.eps)[0]),
            sigma: lambda: xp.asarray(ag.sigma_of(s, subject.delta)[0]),
            R_eps: lambda: xp.asarray(ag.r_eps(s, subject.eps)),
            eps_s: lambda: xp.asarray(subject.eps),
            A_size: lambda: xp.asarray(float(s.a)),
            main_spread: lambda: xp.asarray(ag.main_good_spread(s, subject.delta, subject.eps)),
            lip_L: lambda: xp.asarray(ag.lipschitz(s)[0]),
            delta_s: lambda: xp.asarray(subject.delta),
        }
        return {sym: compute[sym]() for sym in symbols}

    # -- shrinking / serialization ---------------------------------------------------------------------
    def shrink(self, subject: AugSubject) -> Iterable[AugSubject]:
        s = subject.setting
        for x in range(s.n):
            keep = [i for i in range(s.n) if i != x]
            labels = s.labels[keep]
            if len(set(labels.tolist())) < s.n_classes:
                continue
            raw = subject.raw[keep] if subject.raw is not None else None
            yield build(labels, s.mass[keep], s.inputs[keep], s.n_classes, subject.encoder, subject.norm,
                        subject.W, raw, subject.r, subject.lam, subject.eps, subject.delta)
        if not np.allclose(s.mass, s.mass[0]):
            yield build(s.labels, np.ones(s.n), s.inputs, s.n_classes, subject.encoder, subject.norm,
                        subject.W, subject.raw, subject.r, subject.lam, subject.eps, subject.delta)
        if subject.W is not None and subject.encoder == "linear":
            W2 = np.round(subject.W, 1)
            if not np.array_equal(W2, subject.W) and np.all(np.abs(W2) .sum(axis=1) > 0):
                yield build(s.labels, s.mass, s.inputs, s.n_classes, subject.encoder, subject.norm, W2,
                            None, subject.r, subject.lam, subject.eps, subject.delta)

    def size(self, subject: AugSubject) -> tuple[float, ...]:
        s = subject.setting
        return (s.n_classes, s.n, s.a, s.d)

    def to_json(self, subject: AugSubject) -> dict[str, Any]:
        return {"setting": subject.setting.to_json(), "encoder": subject.encoder, "norm": subject.norm,
                "W": None if subject.W is None else np.asarray(subject.W).tolist(),
                "raw": None if subject.raw is None else np.asarray(subject.raw).tolist(),
                "r": subject.r, "lam": subject.lam, "eps": subject.eps, "delta": subject.delta}

    def from_json(self, data: Any) -> AugSubject:
        where = self.name
        jf.fields(data, ("setting", "encoder", "norm", "W", "raw", "r", "lam", "eps", "delta"), (), where)
        encoder = jf.string(data, "encoder", where, choices=(self.encoder,))
        norm = jf.string(data, "norm", where, choices=(self.norm,))
        s = AugmentedSetting.from_json(data["setting"], where, "setting", classes=self.classes, **self.sizes)
        shapes = self.parameter_shapes(s.n_classes, s.n, s.a, int(s.inputs.shape[2]), s.d)
        params: dict[str, np.ndarray | None] = {}
        for key in ("W", "raw"):
            shape = shapes[key]
            if shape is None:
                if data[key] is not None:
                    raise AssumptionError(f"{where}: field {key} = {jf.show(data[key])} must be null for a "
                                          f"{self.encoder} encoder")
                params[key] = None
            else:
                params[key] = jf.real_array(data[key], key, shape, where)
        r = jf.real(data, "r", *self.r_bounds(), where)
        lam, eps, delta = (jf.real(data, key, 0.0, None, where) for key in ("lam", "eps", "delta"))
        return AugSubject(s, encoder, norm, params["W"], params["raw"], r, lam, eps, delta)

    def describe(self, subject: AugSubject) -> str:
        return (f"{subject.encoder}/{subject.norm} encoder, r={subject.r}, lambda={subject.lam}, "
                f"eps={subject.eps:.4g}, delta={subject.delta:.4g}; {subject.setting.describe()}")


def _stack(xp: Backend, vals: list[Any]) -> Any:
    """The values as a 1-d backend array (a max over it keeps gradients in torch)."""
    if xp.name == "torch":
        import torch

        return torch.stack([torch.as_tensor(v, dtype=torch.float64) for v in vals])
    out = np.empty(len(vals), dtype=object if xp.name == "mpmath" else float)
    for i, v in enumerate(vals):
        out[i] = v
    return out




def _inputs(mode: str, labels: np.ndarray, K: int, a: int, m: int, noise: np.ndarray, centres: np.ndarray,
            scale: float, share: bool) -> np.ndarray:
    if mode == "random":
        return noise
    X = centres[labels][:, None, :] + scale * noise  # (n, a, m)
    if share and a > 1:
        X[:, -1, :] = centres[labels]  # every sample of a class owns the class centre as an augmentation
    return X


@st.composite
def _subjects(draw: Any, fam: AugmentedFamily) -> AugSubject:
    K = draw(st.integers(fam.classes[0], fam.classes[1]))
    n = draw(st.integers(K, 8))
    a = draw(st.integers(1, 3))
    m = draw(st.integers(1, 3))
    d = draw(st.integers(1, 4))
    extra = draw(st.lists(st.integers(0, K - 1), min_size=n - K, max_size=n - K))
    labels = np.asarray(list(range(K)) + extra)
    uniform = draw(st.booleans())
    mass = np.ones(n) if uniform else np.asarray(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    if fam.integer:
        vals = st.integers(-1, 1).map(float)
    else:
        vals = st.floats(-1.0, 1.0)
    noise = np.asarray(draw(st.lists(vals, min_size=n * a * m, max_size=n * a * m))).reshape(n, a, m)
    centres = np.asarray(draw(st.lists(st.floats(-3.0, 3.0), min_size=K * m, max_size=K * m))).reshape(K, m)
    scale = draw(st.sampled_from([0.0, 0.01, 0.1, 0.5]))
    share = draw(st.booleans())
    inputs = _inputs(fam.input_mode, labels, K, a, m, noise, centres, scale, share)
    if fam.encoder == "collapsed":  # class k's inputs: a shared point far from the other classes
        inputs = (np.arange(K)[labels] * 10.0)[:, None, None] + np.abs(noise) * 0.5
        inputs[:, -1, :] = (np.arange(K)[labels] * 10.0)[:, None]
    # only the encoder's own parameters are drawn (as in _make): V for "collapsed", the table for "table", W
    # otherwise -- unused draws would cost time and give the shrinker choices that change nothing
    W = V = table = None
    if fam.encoder == "collapsed":
        V = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=K * d, max_size=K * d))).reshape(K, d)
        V = V + np.where(np.abs(V) < 1e-3, 0.5, 0.0)
    elif fam.encoder == "table":
        table = np.asarray(draw(st.lists(st.integers(-1, 1).map(float) if fam.integer else st.floats(-2.0, 2.0),
                                         min_size=n * a * d, max_size=n * a * d))).reshape(n, a, d)
    else:
        W = np.asarray(draw(st.lists(vals if fam.integer else st.floats(-2.0, 2.0), min_size=d * m,
                                     max_size=d * m))).reshape(d, m)
        if fam.norm in ("sphere", "coord"):
            # the projection needs W x' != 0 (sphere) and every coordinate non-zero somewhere (coord)
            W = W + np.where(np.abs(W) < 1e-3, 0.5, 0.0)
    r = draw(st.sampled_from(RADII))
    lam = draw(st.sampled_from([0.0, 0.005, 0.5, 1.0, 2.0]))
    try:
        with np.errstate(all="ignore"):
            sub = fam._make(labels, mass, inputs, K, d, W, V, table, r, lam, 0.1, 0.0)
    except AssumptionError:  # f undefined (W x' = 0 under the projection, a zero coordinate)
        from hypothesis import assume

        assume(False)
        raise
    # eps and delta: 0 or one of the data's own distances (where S_eps and the cliques change)
    diam = ag.alignment_diameters(sub.setting)
    dist = ag.augmentation_distance(sub.setting)
    eps = draw(st.sampled_from(sorted({0.0, *np.round(diam, 12).tolist(), float(np.max(diam)) + 0.1})))
    delta = draw(st.sampled_from(sorted({0.0, *np.unique(np.round(dist, 12)).tolist()})))
    return replace(sub, eps=float(eps), delta=float(delta))


# -- separated classes near the boundary of Theorem 2's divergence condition ------------------------
# Random settings almost never meet the divergence condition with Err(G_f) > 0 or a bound above 0
# (every class a tight cluster, sigma = 1, R_eps = 0). These subjects are built to reach that region:
# K classes whose centres are the vertices of a regular simplex (antipodal for K = 2, so
# mu_l^T mu_k is as small as it can be), inputs near r-independent class directions and the encoder
# f(x') = r W x' / ||W x'|| with W = I (so L, the Lipschitz constant on the data, is about r and
# L delta / r about delta), main-part samples (sharing an augmented input when ``shared``: d_A = 0),
# and a few samples outside the main parts: "wrong" (embedded at another class: misclassified, in
# S_eps), "spread" (one augmentation at another class: outside S_eps, misclassified), "right" (the
# class direction at twice the radius: outside the main part, classified correctly). eps is the
# largest alignment diameter of the main samples and delta the largest d_A inside the main parts, so
# the constructed main parts lie in S_eps; sigma and R_eps are then computed from the data as for
# every subject (maximum cliques). ``toward_boundary`` moves one knob (the outliers' mass, a pull of
# every class direction toward a common one, the noise) as far as the divergence condition -- checked
# exactly as printed -- still holds (bisection), so the search tests the theorem where its hypothesis
# barely holds and its bound is not 0.
KNOBS = ("mass", "pull", "noise")
OUTLIER_KINDS = ("wrong", "spread", "right")


def simplex_directions(K: int, d: int) -> np.ndarray:
    """K unit vectors in R^d with pairwise dot -1/(K - 1) (K = 2: +-e_1; K = 3 needs d >= 2; K = 4, d >= 3)."""
    base = {2: [[1.0], [-1.0]],
            3: [[1.0, 0.0], [-0.5, np.sqrt(3) / 2], [-0.5, -np.sqrt(3) / 2]],
            4: (np.array([[1, 1, 1], [1, -1, -1], [-1, 1, -1], [-1, -1, 1]], dtype=float) / np.sqrt(3)).tolist()}
    V = np.asarray(base[K], dtype=float)
    if V.shape[1] > d:
        raise AssumptionError(f"{K} simplex directions need d >= {V.shape[1]}, got d = {d}")
    return np.concatenate([V, np.zeros((K, d - V.shape[1]))], axis=1)


@dataclass(frozen=True, eq=False)
class SeparatedPlan:
    """Every random choice of one separated subject; :meth:`subject` builds it at knob position t."""

    K: int
    d: int
    a: int
    r: float
    shared: bool
    labels: np.ndarray  # (n,)
    kinds: tuple[str, ...]  # per sample: main | wrong | spread | right
    target: np.ndarray  # (n,) the class an outlier imitates
    mass: np.ndarray  # (n,) before normalization
    V: np.ndarray  # (K, d) class directions (rotated simplex)
    pull_dir: np.ndarray  # (d,) unit
    gauss: np.ndarray  # (n, a, d) standard normal input noise
    noise: float
    knob: str

    def subject(self, t: float) -> AugSubject:
        V = self.V + (1.5 * t if self.knob == "pull" else 0.0) * self.pull_dir[None, :]
        V = V / np.linalg.norm(V, axis=1, keepdims=True)
        noise = self.noise + (0.15 * t if self.knob == "noise" else 0.0)
        out = np.array([k != "main" for k in self.kinds])
        mass = self.mass * np.where(out, 1.0 + (20.0 * t if self.knob == "mass" else 0.0), 1.0)
        n = self.labels.size
        X = np.empty((n, self.a, self.d))
        for x in range(n):
            k, kind = int(self.labels[x]), self.kinds[x]
            centre = {"main": V[k], "wrong": V[self.target[x]], "spread": V[k], "right": 2 * V[k]}[kind]
            X[x] = centre[None, :] + noise * self.gauss[x]
            if kind == "spread":
                X[x, 0] = V[self.target[x]] + noise * self.gauss[x, 0]
            if kind == "main" and self.shared:
                X[x, -1] = V[k]  # the class's shared augmented input (d_A = 0 inside the main part)
        sub = build(self.labels, mass, X, self.K, "linear", "sphere", np.eye(self.d), None, self.r, 0.5, 0.0, 0.0)
        main = [x for x in range(n) if self.kinds[x] == "main"]
        eps = float(np.max(ag.alignment_diameters(sub.setting)[main]))
        delta = 0.0
        if not self.shared:
            dist = ag.augmentation_distance(sub.setting)
            same = [dist[i, j] for i in main for j in main if i < j and self.labels[i] == self.labels[j]]
            delta = float(max(same, default=0.0))
        return replace(sub, eps=eps, delta=delta)

    def condition_holds(self, t: float) -> bool:
        s = self.subject(t)
        return ag.divergence_terms(s.setting, s.r, s.delta, s.eps).holds_robustly

    def toward_boundary(self, steps: int = 18) -> AugSubject:
        """The subject at the largest knob position (bisection over [0, 1]) where the divergence
        condition still holds; the base subject (t = 0) when it fails there already."""
        if not self.condition_holds(0.0):
            return self.subject(0.0)
        if self.condition_holds(1.0):
            return self.subject(1.0)
        lo, hi = 0.0, 1.0
        for _ in range(steps):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if self.condition_holds(mid) else (lo, mid)
        return self.subject(lo)


def separated_plan(rng: np.random.Generator, K: int, r: float, knob: str) -> SeparatedPlan:
    """One random plan: K classes (1-2 main samples each), up to 3 outliers or one balanced outlier per
    class (the same fraction of every class: Err(G_f) = 1 - sigma), |A| = 1..3, n <= 8."""
    d = int(rng.integers({2: 1, 3: 2, 4: 3}[K], 4))
    Q, _ = np.linalg.qr(rng.normal(size=(d, d)))
    V = simplex_directions(K, d) @ Q.T
    a = int(rng.integers(1, 4))
    shared = a >= 2 and bool(rng.random() < 0.5)
    labels, kinds, target, mass = [], [], [], []

    def other(k: int) -> int:
        return int((k + rng.integers(1, K)) % K)

    if K <= 4 and rng.random() < 0.25:  # balanced: one misplaced sample per class, the same fraction
        frac = float(rng.uniform(0.02, 0.2))
        for k in range(K):
            m = float(rng.uniform(0.5, 1.0))
            labels += [k, k]
            kinds += ["main", "wrong"]
            target += [k, other(k)]
            mass += [m * (1 - frac), m * frac]
    else:
        per_class = [int(rng.integers(1, 3)) for _ in range(K)]
        while sum(per_class) > 8:
            per_class[int(np.argmax(per_class))] -= 1
        for k, c in enumerate(per_class):
            labels += [k] * c
            kinds += ["main"] * c
            target += [k] * c
            mass += rng.uniform(0.5, 1.0, size=c).tolist()
        for _ in range(int(rng.integers(0, min(3, 8 - sum(per_class)) + 1))):
            k = int(rng.integers(0, K))
            labels.append(k)
            kinds.append(str(rng.choice(OUTLIER_KINDS)))
            target.append(other(k))
            mass.append(float(rng.uniform(0.01, 0.3)))
    n = len(labels)
    u = rng.normal(size=d)
    return SeparatedPlan(K, d, a, r, shared, np.asarray(labels), tuple(kinds), np.asarray(target),
                         np.asarray(mass, dtype=float), V, u / np.linalg.norm(u), rng.normal(size=(n, a, d)),
                         float(rng.choice([0.0, 0.005, 0.02, 0.05])), knob)


@st.composite
def _separated_subjects(draw: Any, fam: AugmentedFamily) -> AugSubject:
    K = draw(st.integers(max(2, fam.classes[0]), min(4, fam.classes[1])))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    knob = draw(st.sampled_from(KNOBS))
    r = draw(st.sampled_from(RADII)) if fam.radius else 1.0
    boundary = draw(st.booleans())
    plan = separated_plan(np.random.default_rng(seed), K, r, knob)
    with np.errstate(all="ignore"):
        return plan.toward_boundary() if boundary else plan.subject(0.0)


# -- nearly aligned encoders (Theorem 1 where its bound is below 1) --------------------------------
# Random encoders spread every sample's augmentations, so |A|^2 L_align / (2 eps^2) is almost always
# >= 1 and R_eps^2 <= 1 says nothing there. Here most samples embed all their augmentations to one
# point (diameter 0) and a few spread them by a small, drawn amount; eps is one of the spread samples'
# alignment diameters (or just below one), so R_eps > 0 while L_align stays of order eps^2 R_eps.
@st.composite
def _aligned_subjects(draw: Any, fam: AugmentedFamily) -> AugSubject:
    K = draw(st.integers(fam.classes[0], fam.classes[1]))
    n = draw(st.integers(max(K, 2), 8))
    a = draw(st.integers(2, 3))
    d = draw(st.integers(1, 3))
    labels = np.asarray(list(range(K)) + draw(st.lists(st.integers(0, K - 1), min_size=n - K, max_size=n - K)))
    mass = np.asarray(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    base = np.asarray(draw(st.lists(st.floats(-2.0, 2.0), min_size=n * d, max_size=n * d))).reshape(n, 1, d)
    spread = np.asarray(draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.01, 0.1, 0.5]), min_size=n, max_size=n)))
    if not np.any(spread > 0):
        spread[draw(st.integers(0, n - 1))] = 0.1
    dirs = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=n * a * d, max_size=n * a * d))).reshape(n, a, d)
    table = base + spread[:, None, None] * dirs
    inputs = np.arange(n * a, dtype=float).reshape(n, a, 1)  # distinct inputs (the inputs play no role here)
    sub = build(labels, mass, inputs, K, "table", fam.norm, None, table, 1.0, 0.5, 0.1, 0.0)
    diam = ag.alignment_diameters(sub.setting)
    pos = sorted(set(np.round(diam[diam > 0], 12).tolist()))
    if not pos:  # every spread direction vanished
        from hypothesis import assume

        assume(False)
    eps = draw(st.sampled_from(pos))
    eps = eps * draw(st.sampled_from([1.0, 0.999, 0.9, 0.5]))  # just below a diameter: that sample leaves S_eps
    return replace(sub, eps=float(eps))
