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
n <= 8, |A(x)| = 1..3, m <= 3, d = 1..4.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import augmented as ag
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
sigma = quantity("sigma", range=(0, 1))
R_eps = quantity("R_eps", range=(0, 1))
eps_s = quantity("epsilon", range=(0, None))
A_size = quantity("A_size", integer=True, range=(1, None), doc="|A(x)|")


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
        X = xp.asarray(inputs)
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
        w = xp.asarray(st_.mass)
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
                 name: str = "") -> None:
        self.encoder, self.norm, self.input_mode = encoder, norm, inputs
        self.classes, self.integer, self.radius = classes, integer, radius
        self.name = name or f"augmented settings ({encoder}, {norm}, {inputs} inputs)"

    symbols = frozenset({L_nce, L1_nce, L2_nce, L_cc, L1_cc, L2_cc, lam, bt_lhs, bt_gram, bt_sum, d_dim, K_cls,
                         tb_pair, L_pos, L_align, tau_bt, th4_dot, th4_pk, th4_pl, th3_dot, th3_pk, th3_pl,
                         L2s_pairs, L2s_mean, nn_mismatch, nn_gap, err_G, sigma, R_eps, eps_s, A_size})

    @property
    def differentiable(self) -> frozenset[sympy.Symbol]:  # type: ignore[override]
        if self.encoder == "table" and self.integer:
            return frozenset()
        # the classifier's error and the (sigma, delta) cliques are discrete: no gradient
        return self.symbols - {nn_mismatch, nn_gap, err_G, sigma, R_eps}

    def validate(self, subject: AugSubject) -> None:
        setting = subject.setting
        if (subject.encoder, subject.norm) != (self.encoder, self.norm):
            raise AssumptionError(f"{self.name}: a {subject.encoder}/{subject.norm} encoder is not of this family")
        if not self.classes[0] <= setting.n_classes <= self.classes[1]:
            raise AssumptionError(f"{self.name}: K = {setting.n_classes} is outside {list(self.classes)}")
        if not np.all(np.isfinite(setting.feats)):
            raise AssumptionError(f"{self.name}: the encoder values contain NaN or inf")

    # -- drawing ----------------------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[AugSubject]:
        return _subjects(self)

    def random_start(self, rng: np.random.Generator) -> AugSubject | None:
        if self.integer:
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
              W: np.ndarray, V: np.ndarray, table: np.ndarray, r: float, lam: float, eps: float,
              delta: float) -> AugSubject:
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
            sigma: lambda: xp.asarray(ag.sigma_of(s, subject.delta)[0]),
            R_eps: lambda: xp.asarray(ag.r_eps(s, subject.eps)),
            eps_s: lambda: xp.asarray(subject.eps),
            A_size: lambda: xp.asarray(float(s.a)),
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

    def from_json(self, data: dict[str, Any]) -> AugSubject:
        s = AugmentedSetting.from_json(data["setting"])
        W = None if data["W"] is None else np.asarray(data["W"], dtype=float)
        raw = None if data["raw"] is None else np.asarray(data["raw"], dtype=float)
        return AugSubject(s, data["encoder"], data["norm"], W, raw, float(data["r"]), float(data["lam"]),
                          float(data["eps"]), float(data["delta"]))

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
    W = np.asarray(draw(st.lists(vals if fam.integer else st.floats(-2.0, 2.0), min_size=d * m,
                                 max_size=d * m))).reshape(d, m)
    V = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=K * d, max_size=K * d))).reshape(K, d)
    table = np.asarray(draw(st.lists(st.integers(-1, 1).map(float) if fam.integer else st.floats(-2.0, 2.0),
                                     min_size=n * a * d, max_size=n * a * d))).reshape(n, a, d)
    if fam.encoder == "linear" and fam.norm in ("sphere", "coord"):
        # the projection needs W x' != 0 (sphere) and every coordinate non-zero somewhere (coord)
        W = W + np.where(np.abs(W) < 1e-3, 0.5, 0.0)
    if fam.encoder == "collapsed":
        V = V + np.where(np.abs(V) < 1e-3, 0.5, 0.0)
    r = draw(st.sampled_from([1.0, 0.5, 2.0]))
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
