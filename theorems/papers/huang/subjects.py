"""Augmented-data subjects for Huang et al. (finite augmentation sets, exact sums): composed families.

A subject is a :class:`~theorems.subjects.Family` subject with the parts (drawn in this order)

* ``encoder``, ``norm`` -- fixed strings: the encoder's form and normalization;
* ``r`` -- the radius of ``norm="sphere"`` (1, or drawn from RADII with ``radius=True``);
* ``data`` -- the samples, classes, masses and augmented inputs (:class:`~.augmentation.Augmentations`);
* ``f`` -- the encoder's parameters (:class:`~.augmentation.Encoder`): ``linear`` f(x') = W x' (W a random
  d x m matrix), then ``norm``: ``none``; ``sphere`` (f(x') = r W x' / ||W x'||, the claims with ||f|| = r);
  ``coord`` (each coordinate rescaled so that E_x E_{x'} f_i(x')^2 = 1); ``table``: the encoder values
  themselves (small integers with ``integer=True``, so that ties occur); ``collapsed``: every augmented input
  of class k embeds to one unit vector v_k and the samples of a class share an augmented input (sigma = 1,
  delta = 0, eps = 0, R_eps = 0);
* ``lam`` -- the cross-correlation loss's weight, drawn from {0, 0.005, 0.5, 1, 2};
* ``eps``, ``delta`` -- 0 or one of the data's own distances (alignment diameters for eps, augmentation
  distances for delta: where S_eps and the cliques change).

Inputs are ``random`` (uniform in [-1, 1]^m) or ``clustered`` (class centres plus small noise, sometimes
with an augmented input shared by the whole class). Sizes: K = 1..4, n <= 8, |A(x)| = 1..3, m <= 3,
d = 1..4. Two constructed modes reach where a bound says something: ``separated`` (Theorem 2: separated
classes at the boundary of its divergence condition, see :class:`SeparatedPlan`) and ``aligned`` (Theorem 1:
nearly aligned table encoders). Every quantity is declared once below, as a formula against the backend.
"""

from __future__ import annotations

import math
import weakref
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems import quantity
from theorems.papers.huang import augmented as ag
from theorems.papers.huang.augmentation import (AugmentedData, Augmentations, Encoder, change_points,
                                               float_setting, thresholds)
from theorems.subjects import Choice, Family, Fixed, Given, Part, Snapshots, Subject


# -- the quantities of Huang et al. (exact finite sums over an augmented setting) ----------------------
def _arr(s: Any) -> Any:
    return s.f.arrays


def _setting(s: Any) -> AugmentedSetting:
    return s.f.setting


def _float(x: Any) -> Any:
    if hasattr(x, "detach"):
        return x.detach().numpy().astype(float)
    return np.asarray(np.vectorize(float)(x) if isinstance(x, np.ndarray) else float(x), dtype=float)


def _cc(s: Any) -> dict[str, Any]:
    arr = _arr(s)
    return arr.once("cc", lambda: ag.crosscorr_parts(arr, s.lam))


def _bt(s: Any) -> dict[str, Any]:
    arr = _arr(s)
    return arr.once("bt", lambda: ag.barlow_trace_sides(arr))


def _pairs(s: Any) -> tuple[Any, Any, Any]:
    arr = _arr(s)
    return arr.once("pairs", lambda: ag.pair_terms(arr))


def _tau(s: Any, xp: Backend) -> Any:
    arr = _arr(s)
    return arr.once("tau", lambda: ag.frob_sq(arr, ag.cross_correlation(arr) - ag.centre_second_moment(arr)))


def _best_pair(dots: np.ndarray, pp: np.ndarray, score: Any) -> tuple[int, int]:
    K = dots.shape[0]
    best, arg = -np.inf, (0, 1)
    for k in range(K):
        for l in range(K):
            if k != l:
                v = score(dots[k, l], pp[k, l])
                if v > best:
                    best, arg = v, (k, l)
    return arg


def _th4_pair(s: Any, xp: Backend) -> tuple[int, int]:
    """The pair k != l worst for Theorem 4: the largest mu_k^T mu_l - bound."""
    def pick() -> tuple[int, int]:
        dots, _, pp = (_float(t) for t in _pairs(s))
        base = float(_float(_cc(s)["l2"])) + float(_float(_tau(s, xp))) - (_arr(s).d - s.data.n_classes) / 2
        return _best_pair(dots, pp, lambda v, q: v - np.sqrt(max(2 / q * base, 0.0)))
    return _arr(s).once("p4", pick)


def _th3_pair(s: Any, xp: Backend) -> tuple[int, int]:
    """The pair k != l worst for Theorem 3."""
    def pick() -> tuple[int, int]:
        dots, _, pp = (_float(t) for t in _pairs(s))
        l2 = float(_float(ag.infonce_l2(_arr(s))))

        def score(v: float, q: float) -> float:
            inner = np.exp(min(l2 / q, 700.0)) - np.e
            return v - (np.log(inner) if inner > 0 else -np.inf)
        return _best_pair(dots, pp, score)
    return _arr(s).once("p3", pick)


def _pair_value(which: str, idx: int) -> Any:
    def formula(s: Any, xp: Backend) -> Any:
        if s.data.n_classes < 2:
            return xp.asarray(float("nan"))  # no pair k != l (the claims assume K >= 2)
        k, l = (_th4_pair if which == "4" else _th3_pair)(s, xp)
        dots, p, _ = _pairs(s)
        return [dots[k, l], p[k], p[l]][idx]
    return formula


def _tb_pair(s: Any, xp: Backend) -> Any:
    dots, _, pp = _pairs(s)
    K = int(dots.shape[0])
    if K < 2:
        return xp.asarray(float("nan"))
    return xp.max(xp.stack([pp[k, l] * dots[k, l] ** 2 for k in range(K) for l in range(K) if k != l]))


def _exact(fn: Any) -> Any:
    """A combinatorial quantity (float64 / exact rationals on the float setting), as a backend scalar."""
    return lambda s, xp: xp.asarray(float(fn(s)))


L_nce = quantity("L_InfoNCE", lambda s, xp: ag.infonce(_arr(s)), doc="L_InfoNCE as printed")
L1_nce = quantity("L1_InfoNCE", lambda s, xp: ag.infonce_l1(_arr(s)), doc="1/2 E||f(x1) - f(x2)||^2 - 1")
L2_nce = quantity("L2_InfoNCE", lambda s, xp: ag.infonce_l2(_arr(s)), doc="E log(e^{f1.f2} + e^{f1.f-})")
L_cc = quantity("L_CrossCorr", lambda s, xp: _cc(s)["loss"], range=(0, None),
                doc="sum (1 - C_ii)^2 + lam sum_{i != j} C_ij^2")
L1_cc = quantity("L1_CrossCorr", lambda s, xp: _cc(s)["l1"], range=(0, None), doc="sum_i (1 - C_ii)^2")
L2_cc = quantity("L2_CrossCorr", lambda s, xp: _cc(s)["l2"], range=(0, None), doc="||C - I_d||_F^2")
lam = quantity("lambda", lambda s, xp: s.lam, doc="the cross-correlation loss's weight (part lam)")
bt_lhs = quantity("norm_sum_pmumu_minus_I", lambda s, xp: _bt(s)["lhs"], range=(0, None),
                  doc="||sum_k p_k mu_k mu_k^T - I_d||^2")
bt_gram = quantity("norm_UtU_minus_I", lambda s, xp: _bt(s)["gram"], range=(0, None), doc="||U^T U - I_K||^2")
bt_sum = quantity("sum_kl_sq", lambda s, xp: _bt(s)["sum"], range=(0, None),
                  doc="sum_{k,l} (sqrt(p_k p_l) mu_k^T mu_l - delta_kl)^2")
d_dim = quantity("d", lambda s, xp: xp.asarray(float(_arr(s).d)), integer=True, range=(1, None))
K_cls = quantity("K", lambda s, xp: xp.asarray(float(s.data.n_classes)), integer=True, range=(1, None))
tb_pair = quantity("max_pair_pp_dot_sq", _tb_pair, range=(0, None), doc="max_{k != l} p_k p_l (mu_k^T mu_l)^2")
L_pos = quantity("L_positive", lambda s, xp: ag.align_loss(_arr(s)), range=(0, None),
                 doc="E_x E_{x1,x2} ||f(x1) - f(x2)||^2")
L_align = quantity("L_align", lambda s, xp: ag.align_loss(_arr(s)), range=(0, None),
                   doc="the same expectation (Theorem 1)")
tau_bt = quantity("tau", _tau, range=(0, None), doc="||C - sum_k p_k mu_k mu_k^T||^2")
th4_dot = quantity("th4_mu_k_dot_mu_l", _pair_value("4", 0), doc="mu_k^T mu_l at the pair worst for Theorem 4")
th4_pk = quantity("th4_p_k", _pair_value("4", 1), range=(0, 1))
th4_pl = quantity("th4_p_l", _pair_value("4", 2), range=(0, 1))
th3_dot = quantity("th3_mu_k_dot_mu_l", _pair_value("3", 0), doc="the same for Theorem 3")
th3_pk = quantity("th3_p_k", _pair_value("3", 1), range=(0, 1))
th3_pl = quantity("th3_p_l", _pair_value("3", 2), range=(0, 1))
L2s_pairs = quantity("L2_simple_pairs", lambda s, xp: ag.simple_l2_pairs(_arr(s)), doc="E f(x1)^T f(x-)")
L2s_mean = quantity("L2_simple_mean", lambda s, xp: ag.simple_l2_mean(_arr(s)), range=(0, None), doc="||E f||^2")
# the classifier's error and the (sigma, delta) cliques are discrete: no gradient
nn_mismatch = quantity("nn_argmin_argmax_mismatches",
                       _exact(lambda s: ag.nn_classifier_report(_setting(s))["mismatch"]), integer=True,
                       range=(0, None), differentiable=False)
nn_terms = quantity("nn_score_terms", lambda s, xp: ag.nn_score_terms(_arr(s)), range=(0, None), differentiable=False,
                    doc="the largest |term| of the score identity: ||f(x) - mu_k||^2/2, f(x)^T mu_k, ||mu_k||^2/2, "
                        "||f(x)||^2/2")
nn_gap = quantity("nn_score_gap", lambda s, xp: ag.nn_score_gap(_arr(s)), range=(0, None), differentiable=False,
                  scale=nn_terms, doc="the score identity's largest residue over points and classes")
err_G = quantity("Err_G", _exact(lambda s: ag.classification_error(_setting(s), ag.nn_predict(_setting(s)))),
                 range=(0, 1), differentiable=False, doc="Err(G_f)")
err_main = quantity("Err_main_good",
                    _exact(lambda s: ag.main_good_misclassified(_setting(s), float(s.delta), float(s.eps))[0]),
                    range=(0, 1), differentiable=False,
                    doc="P[x in (C^0_1 u ... u C^0_K) n S_eps, G_f(x) != y(x)] (ties are mistakes)")


# Theorem 2 without the convention x in A(x) (issue 39): G_f evaluated at f(x), x the sample itself. A subject may
# carry a part ``raw`` -- the encoder's value at each sample x (n, d), x an input outside its own A(x); without it
# x is taken as its first augmentation (x in A(x): one admissible case of the literal reading, the only one of the
# convention's).
def _sample_points(s: Any) -> np.ndarray:
    raw = getattr(s, "raw", None)
    return _setting(s).feats[:, 0, :] if raw is None else _float(raw).reshape(_setting(s).n, -1)


def _sample_predict(s: Any) -> list[frozenset[int]]:
    if getattr(s, "raw", None) is None:
        return ag.nn_predict(_setting(s))
    return [a for a, _ in ag.nearest_centre_sets(_setting(s), _sample_points(s))]


def _main_good_misclassified_at_x(s: Any) -> float:
    st_ = _setting(s)
    _, main = ag.sigma_of(st_, float(s.delta))
    good = ag.good_alignment(st_, float(s.eps))
    pred = _sample_predict(s)
    return float(sum(st_.mass[x] for part in main for x in part
                     if good[x] and pred[x] != frozenset({int(st_.labels[x])})))


err_G_x = quantity("Err_G_at_x", _exact(lambda s: ag.classification_error(_setting(s), _sample_predict(s))),
                   range=(0, 1), differentiable=False,
                   doc="Err(G_f), G_f(x) = argmin_k ||f(x) - mu_k|| at the sample x itself (x need not be in A(x))")
err_main_x = quantity("Err_main_good_at_x", _exact(_main_good_misclassified_at_x), range=(0, 1), differentiable=False,
                      doc="P[x in (C^0_1 u ... u C^0_K) n S_eps, G_f(x) != y(x)], G_f at the sample x itself")
sigma = quantity("sigma", _exact(lambda s: ag.sigma_of(_setting(s), float(s.delta))[0]), range=(0, 1),
                 differentiable=False)
R_eps = quantity("R_eps", _exact(lambda s: ag.r_eps(_setting(s), float(s.eps))), range=(0, 1), differentiable=False)
eps_s = quantity("epsilon", lambda s, xp: s.eps, range=(0, None))
A_size = quantity("A_size", lambda s, xp: xp.asarray(float(s.data.a)), integer=True, range=(1, None), doc="|A(x)|")
main_spread = quantity("main_good_spread",
                       _exact(lambda s: ag.main_good_spread(_setting(s), float(s.delta), float(s.eps))),
                       range=(0, None), differentiable=False,
                       doc="max ||f(x1) - f(y1)||, x, y in one class's C^0_k n S_eps, x1 in A(x), y1 in A(y)")
lip_L = quantity("L_lipschitz", _exact(lambda s: ag.lipschitz(_setting(s))[0]), range=(0, None), differentiable=False,
                 doc="max ||f(u) - f(v)|| / ||u - v|| over augmented inputs")
delta_s = quantity("delta_sigma", lambda s, xp: s.delta, range=(0, None), differentiable=False,
                   doc="the delta of the (sigma, delta)-augmentation")

QUANTITIES = (L_nce, L1_nce, L2_nce, L_cc, L1_cc, L2_cc, lam, bt_lhs, bt_gram, bt_sum, d_dim, K_cls, tb_pair, L_pos,
              L_align, tau_bt, th4_dot, th4_pk, th4_pl, th3_dot, th3_pk, th3_pl, L2s_pairs, L2s_mean, nn_mismatch,
              nn_gap, nn_terms, err_G, err_main, err_G_x, err_main_x, sigma, R_eps, eps_s, A_size, main_spread, lip_L,
              delta_s)

RADII = (1.0, 0.5, 2.0)  # the radii r of the sphere encoders with ``radius=True``
LAMBDAS = (0.0, 0.005, 0.5, 1.0, 2.0)  # the weights lambda of the cross-correlation loss drawn

#: the sizes every random mode draws: n <= 8 samples, |A(x)| <= 3, m <= 3, d <= 4
RANDOM_SIZES = {"samples": (1, 8), "augmentations": (1, 3), "input_dims": (1, 3), "dims": (1, 4)}
#: the sizes of subjects built from encoders trained on digits (theorems.papers.huang.experiments: 5 images
#: per digit, the image and 2 augmented views, 8 x 8 = 64 inputs, 16 outputs), with room for larger runs
#: (20 images per digit, 4 views, 64 outputs)
LEARNED_SIZES = {"samples": (1, 200), "augmentations": (1, 5), "input_dims": (1, 64), "dims": (1, 64)}


# -- subjects ---------------------------------------------------------------------------------------
_SUBJECT_SETTINGS: "weakref.WeakKeyDictionary[Subject, AugmentedSetting]" = weakref.WeakKeyDictionary()


def setting(subject: Subject) -> AugmentedSetting:
    """The float64 numerics setting of a subject: its data with the encoder's values (what its hypotheses and
    combinatorial quantities read)."""
    out = _SUBJECT_SETTINGS.get(subject)
    if out is None:
        v = subject.values
        out = float_setting(v["encoder"], v["norm"], float(v["r"]), v["data"], v["f"])
        _SUBJECT_SETTINGS[subject] = out
    return out


def make_subject(encoder: str, norm: str, data: AugmentedData, f: Any, r: float = 1.0, lam: float = 0.0,
                 eps: float = 0.0, delta: float = 0.0, samples: bool = True, source: str = "") -> Subject:
    """A subject of the augmented families (``samples``: the family counts the samples with its size n)."""
    dims = {"n": data.n} if samples else {}
    values = {"encoder": encoder, "norm": norm, "r": float(r), "data": data, "f": np.asarray(f, dtype=float),
              "lam": float(lam), "eps": float(eps), "delta": float(delta)}
    return Subject(dims, values, source)


def _features_of(c: Mapping[str, Any]) -> AugmentedSetting:
    return float_setting(c["encoder"], c["norm"], float(c["r"]), c["data"], c["f"])


def _eps_candidates(c: Mapping[str, Any]) -> tuple[float, ...]:
    """0, both sides of every alignment diameter (where S_eps changes) and one beyond the largest."""
    if "eps" in c["data"].planned:
        return (float(c["data"].planned["eps"]),)
    diam = ag.alignment_diameters(_features_of(c))
    return change_points([0.0, *diam, float(np.max(diam)) + 0.1])


def _delta_candidates(c: Mapping[str, Any]) -> tuple[float, ...]:
    """0 and both sides of every augmentation distance between two samples (where the cliques change)."""
    if "delta" in c["data"].planned:
        return (float(c["data"].planned["delta"]),)
    return change_points([0.0, *ag.augmentation_distance(_features_of(c)).ravel()])


def _aligned_eps(c: Mapping[str, Any]) -> tuple[float, ...]:
    """A positive alignment diameter, or just below one (that sample leaves S_eps)."""
    diam = ag.alignment_diameters(_features_of(c))
    return thresholds([e * t for e in thresholds(diam[diam > 0]) for t in (1.0, 0.999, 0.9, 0.5)])


def augmented_parts(encoder: str, norm: str, data: Part, r: Part, lam: Part, eps: Part, delta: Part,
                    integer: bool = False, search: bool = True, dims: tuple[int, int] = (1, 4),
                    samples: str | None = "n", draw: Any = None) -> dict[str, Part]:
    """The parts of an augmented family, in drawing order (the encoder's parameters ``f`` drawn given the
    data and r; eps and delta given everything before them)."""
    return {
        "encoder": Fixed(encoder), "norm": Fixed(norm), "r": r, "data": data,
        "f": Given(lambda c: Encoder(c["encoder"], c["data"], norm=c["norm"], r=float(c["r"]), dims=dims,
                                     integer=integer, search=search, samples=samples, draw=draw)),
        "lam": lam, "eps": eps, "delta": delta,
    }


def dot_ranges(encoder: str, norm: str, radius: bool) -> dict[Any, tuple[float, float]]:
    """The family's trivial range of a class-centre dot product mu_k^T mu_l: [-r^2, r^2] when every encoder value
    has norm r (||mu_k|| <= r by Jensen, then Cauchy-Schwarz): on unit-norm encoders (collapsed, or projected to
    the sphere of radius 1) that is [-1, 1], the trivial range a bound on it must improve; with the radius drawn
    from {0.5, 1, 2}, [-4, 4]; none tighter than the declared one otherwise."""
    top = 1.0 if encoder == "collapsed" else (max(RADII) ** 2 if radius else 1.0) if norm == "sphere" else None
    return {} if top is None else {th3_dot: (-top, top), th4_dot: (-top, top)}


def augmented_family(encoder: str = "linear", norm: str = "none", inputs: str = "random",
                     classes: tuple[int, int] = (1, 4), integer: bool = False, radius: bool = False,
                     name: str = "") -> Family:
    """Random augmented settings (see the module docstring), composed from the parts of
    :func:`augmented_parts`. The adversary climbs the encoder's parameters from the family's own draws, except
    on integer encoders (their values are the point: ties)."""
    name = name or f"augmented settings ({encoder}, {norm}, {inputs} inputs)"
    r_part: Part = Choice(RADII, lo=min(RADII), hi=max(RADII)) if radius else Fixed(1.0)
    sizes = RANDOM_SIZES
    lam_part = Choice(LAMBDAS, lo=0.0, hi=math.inf)
    draw = None
    eps_part: Part = Given(lambda c: Choice(_eps_candidates(c), lo=0.0, hi=math.inf))
    delta_part: Part = Given(lambda c: Choice(_delta_candidates(c), lo=0.0, hi=math.inf))
    samples: str | None = "n"
    if inputs == "separated":
        K = (max(2, classes[0]), min(4, classes[1]))
        data: Part = Given(lambda c: Augmentations(samples=None, classes=K, n=sizes["samples"],
                                                   inputs=_separated_draw(float(c["r"]))))
        dims: dict[str, tuple[int, int]] = {}
        samples = None
    elif inputs == "aligned":
        data = Augmentations(classes=classes, inputs=_aligned_data)
        dims = {"n": (max(2, classes[0]), sizes["samples"][1])}
        draw = _aligned_table
        eps_part = Given(lambda c: Choice(_aligned_eps(c), lo=0.0, hi=math.inf))
        delta_part = Choice((0.0,), lo=0.0, hi=math.inf)
    else:
        data = Augmentations(classes=classes, integer=integer, inputs="collapsed" if encoder == "collapsed" else inputs)
        dims = {"n": (max(1, classes[0]), sizes["samples"][1])}
    parts = augmented_parts(encoder, norm, data, r_part, lam_part, eps_part, delta_part, integer=integer,
                            dims=sizes["dims"], samples=samples, draw=draw)
    # an integer encoder's values are the point (ties): no gradient search on it
    return Family(name, dims, parts, QUANTITIES, ranges=dot_ranges(encoder, norm, radius), adversary=not integer)


AugmentedFamily = augmented_family  # the name the family had as a class


def learned_family(name: str, norm: str, lam_value: float, snapshots: Snapshots) -> Family:
    """Encoders trained on digits: table encoders (their values on the augmented inputs), K = 10 digits, the
    subjects the snapshots of ``snapshots`` (no random draws, no adversary, no shrinking)."""
    sizes = LEARNED_SIZES
    data = Augmentations(samples=None, classes=(1, 10), augmentations=sizes["augmentations"],
                         input_dims=sizes["input_dims"], n=sizes["samples"])
    parts = augmented_parts("table", norm, data, Fixed(1.0), Fixed(lam_value), Choice((), lo=0.0),
                            Choice((), lo=0.0), dims=sizes["dims"], samples=None, search=False)
    # n = 50 samples, |A| = 3, d = 16: InfoNCE has 67 500 terms; max_confirm_size=0 skips the periodic mpmath
    # audit of the float screen on them (candidates are still confirmed)
    return Family(name, {}, parts, QUANTITIES, snapshots=snapshots, max_confirm_size=0,
                  ranges=dot_ranges("table", norm, False))


# -- nearly aligned encoders (Theorem 1 where its bound is below 1) --------------------------------
# Random encoders spread every sample's augmentations, so |A|^2 L_align / (2 eps^2) is almost always
# >= 1 and R_eps^2 <= 1 says nothing there. Here most samples embed all their augmentations to one
# point (diameter 0) and a few spread them by a small, drawn amount; eps is one of the spread samples'
# alignment diameters (or just below one), so R_eps > 0 while L_align stays of order eps^2 R_eps.
@st.composite
def _aligned_data_draw(draw: Any, part: Augmentations, n: int) -> AugmentedData:
    K = draw(st.integers(part.classes[0], min(part.classes[1], n)))
    a = draw(st.integers(2, 3))
    labels = np.asarray(list(range(K)) + draw(st.lists(st.integers(0, K - 1), min_size=n - K, max_size=n - K)))
    mass = np.asarray(draw(st.lists(st.floats(0.05, 1.0), min_size=n, max_size=n)))
    inputs = np.arange(n * a, dtype=float).reshape(n, a, 1)  # distinct inputs (the inputs play no role here)
    return AugmentedData.create(labels, mass, inputs, K)


def _aligned_data(n: int | None, part: Augmentations) -> st.SearchStrategy[AugmentedData]:
    assert n is not None
    return _aligned_data_draw(part, n)


@st.composite
def _aligned_table_draw(draw: Any, part: Encoder) -> np.ndarray:
    n, a = part.data.n, part.data.a
    d = draw(st.integers(1, 3))
    base = np.asarray(draw(st.lists(st.floats(-2.0, 2.0), min_size=n * d, max_size=n * d))).reshape(n, 1, d)
    spread = np.asarray(draw(st.lists(st.sampled_from([0.0, 0.0, 0.0, 0.01, 0.1, 0.5]), min_size=n, max_size=n)))
    if not np.any(spread > 0):
        spread[draw(st.integers(0, n - 1))] = 0.1
    dirs = np.asarray(draw(st.lists(st.floats(-1.0, 1.0), min_size=n * a * d, max_size=n * a * d))).reshape(n, a, d)
    table = base + spread[:, None, None] * dirs
    assume(bool(np.any(ag.alignment_diameters(float_setting("table", part.norm, part.r, part.data, table)) > 0)))
    return table


def _aligned_table(part: Encoder) -> st.SearchStrategy[np.ndarray]:
    return _aligned_table_draw(part)


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
class Constructed:
    """A constructed setting: its data, the encoder f(x') = r W x'/||W x'|| (W = I), eps and delta."""

    data: AugmentedData
    W: np.ndarray
    r: float
    eps: float
    delta: float

    @property
    def setting(self) -> AugmentedSetting:
        return float_setting("linear", "sphere", self.r, self.data, self.W)

    def planned(self) -> AugmentedData:
        """The data carrying the encoder and thresholds the construction chose (drawn by the parts after it)."""
        d = self.data
        return AugmentedData.create(d.labels, d.mass, d.inputs, d.n_classes,
                                    planned={"f": self.W, "eps": self.eps, "delta": self.delta})

    def subject(self, lam: float = 0.5) -> Subject:
        return make_subject("linear", "sphere", self.data, self.W, self.r, lam, self.eps, self.delta, samples=False)


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

    def subject(self, t: float) -> Constructed:
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
        data = AugmentedData.create(self.labels, mass, X, self.K)
        W = np.eye(self.d)
        s = float_setting("linear", "sphere", self.r, data, W)
        main = [x for x in range(n) if self.kinds[x] == "main"]
        eps = float(np.max(ag.alignment_diameters(s)[main]))
        delta = 0.0
        if not self.shared:
            dist = ag.augmentation_distance(s)
            same = [dist[i, j] for i in main for j in main if i < j and self.labels[i] == self.labels[j]]
            delta = float(max(same, default=0.0))
        return Constructed(data, W, self.r, eps, delta)

    def condition_holds(self, t: float) -> bool:
        c = self.subject(t)
        return ag.divergence_terms(c.setting, c.r, c.delta, c.eps).holds_robustly

    def toward_boundary(self, steps: int = 18) -> Constructed:
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
def _separated_data(draw: Any, part: Augmentations, r: float) -> AugmentedData:
    K = draw(st.integers(*part.classes))
    seed = draw(st.integers(0, 2 ** 32 - 1))
    knob = draw(st.sampled_from(KNOBS))
    boundary = draw(st.booleans())
    plan = separated_plan(np.random.default_rng(seed), K, r, knob)
    with np.errstate(all="ignore"):
        built = plan.toward_boundary() if boundary else plan.subject(0.0)
    return built.planned()


def _separated_draw(r: float) -> Any:
    return lambda n, part: _separated_data(part, r)


__all__ = ["AugmentedFamily", "Constructed", "KNOBS", "LAMBDAS", "LEARNED_SIZES", "OUTLIER_KINDS", "QUANTITIES",
           "RADII", "RANDOM_SIZES", "SeparatedPlan", "augmented_family", "augmented_parts", "learned_family",
           "make_subject", "separated_plan", "setting", "simplex_directions", "dot_ranges"]
