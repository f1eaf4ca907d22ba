"""What the other readings of Huang et al.'s sentences need (issue 27): subjects and measurements.

* **Theorem 2, "encoder f with norm r" read as the norm of the function f** (sup_x ||f(x)|| = r: every
  value in the ball of radius r, some on its sphere) instead of ||f(x)|| = r for every x (the literal
  reading, the slides' "(||f|| = 1)" of the InfoNCE slide). :func:`ball_witnesses` lists constructed
  subjects of that wider class: two classes that share one embedded point v inside the ball, and one
  light sample of class 1, far away in the input space (so L stays small), embedded on the sphere. The
  class centres then differ a little, the divergence condition holds, sigma is 1 - 2m and R_0 = 0, so
  the bound is 2m -- while G_f puts every class-1 sample at v into class 0 (Err ~ 1/2).
* **Theorem 1, the constant of eta(eps) = O(1/eps)**: along two parametric witness families the ratio
  R_eps^2 eps^2 / L_align (the square of the constant the inequality needs) grows without bound; sympy
  gives the limits. The first (:func:`spike_family`) is the witness family of the reading whose constant is
  uniform over the augmentation sets; the second (the tent) is huang.theorem1.general's (continuous.py); both are
  shown in the report (:func:`theorem1_growth_artifact`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics.backend import FLOAT
from theorems import Assumption, Parametric, RunContext, at_most, equal, holds
from theorems.subjects import Choice, Family, Fixed, Subject
from theorems.papers.huang import augmented as ag
from theorems.papers.huang.augmentation import AugmentedData, Augmentations
from theorems.papers.huang.subjects import QUANTITIES, augmented_parts, make_subject, setting

# -- Theorem 2 under the sup-norm reading ------------------------------------------------------------
BALL_NORMS = (0.5, 0.7)  # the norm of the shared point v (r = 1)
BALL_MASSES = (1e-3, 1e-2)  # the mass m of the class-1 sample on the sphere


def ball_witness(inner: float, m: float, d: int = 2) -> Subject:
    """K = 2, |A(x)| = 1 (so R_0 = 0), r = 1: class 0 = one sample at v = (inner, 0, ...), class 1 = one
    sample at v (mass 1/2 - m) and one at e_2 (mass m, norm exactly 1, input 100 away); eps = delta = 0."""
    data = AugmentedData.create([0, 1, 1], [0.5, 0.5 - m, m], [[[0.0]], [[1.0]], [[100.0]]], 2)
    table = np.zeros((3, 1, d))
    table[0, 0, 0] = table[1, 0, 0] = inner
    table[2, 0, 1] = 1.0
    return make_subject("table", "none", data, table, r=1.0, lam=0.0, eps=0.0, delta=0.0, samples=False)


BALL_WITNESSES = tuple(ball_witness(inner, m) for inner in BALL_NORMS for m in BALL_MASSES)


def _ball_data(n: int | None, part: Augmentations) -> st.SearchStrategy[AugmentedData]:
    """The witnesses' data, each carrying its table (the family draws only its constructed subjects)."""
    return st.sampled_from([AugmentedData.create(w.data.labels, w.data.mass, w.data.inputs, w.data.n_classes,
                                                 planned={"f": w.f}) for w in BALL_WITNESSES])


def ball_witnesses() -> Family:
    """Encoders with values in the ball of radius r = 1, some on its sphere (sup-norm reading of Theorem 2):
    the constructed subjects of :func:`ball_witness` (a fixed list: the examples, and every draw one of them).
    Its domain is every table encoder with K = 2..4, n <= 8, |A(x)| <= 3, m <= 3, d <= 4 (what a witness of
    it may be); r = 1, lambda and eps, delta >= 0 as the witnesses have them (0)."""
    name = "ball-valued encoders, one class-1 sample on the sphere (sup-norm reading)"
    zero = Choice((0.0,), lo=0.0, hi=math.inf)
    parts = augmented_parts("table", "none", Augmentations(samples=None, classes=(2, 4), inputs=_ball_data),
                            Fixed(1.0), zero, zero, zero, search=False, samples=None)
    listed = Family(name, {}, parts, QUANTITIES)
    # constructed subjects: no gradient search
    return Family(name, {}, parts, QUANTITIES, examples=[listed.to_json(w) for w in BALL_WITNESSES], adversary=False)


def _sup_norm_condition(s: Any) -> bool:
    """sup_x ||f(x')|| = r (every norm <= r and the largest = r, as the engine decides them: to its tolerance,
    ~1e-9 r) and the divergence condition with that r, holding by more than CONDITION_MARGIN r^2 = 1e-6 r^2 (as
    for the literal reading)."""
    st_ = setting(s)
    norms = np.linalg.norm(st_.feats, axis=2)
    r = float(s.r)
    if not holds(at_most(norms, r, what="||f(x')||") & equal(float(np.max(norms)), r, what="sup_x ||f(x')||")):
        return False
    return ag.divergence_terms(st_, r, s.delta, s.eps).holds_robustly


THEOREM2_SUP_HYP = Assumption(
    "divergence condition, ||f|| = sup_x ||f(x)|| = r",
    "every encoder value in the ball of radius r and the largest on its sphere (to 1e-9 relative); L = the "
    "Lipschitz constant on the augmented inputs; the divergence condition as printed (every term as in the "
    "literal reading, r the sup norm), holding by more than 1e-6 r^2", _sup_norm_condition)


# -- Theorem 2 without the convention x in A(x) (issue 39) -----------------------------------------------
# The slides never say that a sample is one of its own augmentations; the checker's G_f(x) at the first augmentation
# (augmented.py) and the Coq proof assume it. Without it G_f(x) = argmin_k ||f(x) - mu_k|| reads f at the sample
# itself, which the hypotheses (all about f on the augmented inputs, ||f|| = r and L aside) do not tie to its class.
SAMPLE_RAW = np.array([[-1.0], [-1.0], [1.0]])  # f(x) at the three samples themselves (each the other class's centre)


def sample_witness() -> Subject:
    """K = 2, d = 1, r = 1, |A(x)| = 1 (R_0 = 0), eps = delta = 0: class 0 = samples at inputs 0 (mass 0.45) and 5
    (mass 0.05), both embedded at +1; class 1 = one sample at input 10 (mass 0.5) embedded at -1. sigma = 0.9 (the
    two class-0 samples share no augmentation), mu_0 = 1, mu_1 = -1, so mu_0 mu_1 = -1 < 1 - rho_max - sqrt(2
    rho_max) ~ 0.17 (rho_max = 0.2, Delta_mu = 0): the divergence condition holds, the bound is 0.1. Each sample x
    itself is an input outside A(x) (say 100, 105, 110: f stays Lipschitz, and L enters the condition only
    through L delta = 0) embedded at the other class's centre (norm 1 = r): G_f(x) is wrong everywhere, Err = 1."""
    data = AugmentedData.create([0, 0, 1], [0.45, 0.05, 0.5], [[[0.0]], [[5.0]], [[10.0]]], 2)
    table = np.array([[[1.0]], [[1.0]], [[-1.0]]])
    s = make_subject("table", "none", data, table, r=1.0, lam=0.0, eps=0.0, delta=0.0, samples=False)
    return Subject(s.dims, {**s.values, "raw": SAMPLE_RAW.copy()}, s.source)


def _sample_data(n: int | None, part: Augmentations) -> st.SearchStrategy[AugmentedData]:
    w = sample_witness()
    return st.just(AugmentedData.create(w.data.labels, w.data.mass, w.data.inputs, w.data.n_classes,
                                        planned={"f": w.f}))


def sample_witnesses() -> Family:
    """Samples outside their own augmentation sets (Theorem 2 without x in A(x)): the constructed subject of
    :func:`sample_witness`, with the part ``raw`` (f at each sample itself); r = 1, lambda = eps = delta = 0."""
    name = "samples outside their own augmentation sets, embedded at another class's centre"
    zero = Choice((0.0,), lo=0.0, hi=math.inf)
    parts = augmented_parts("table", "none", Augmentations(samples=None, classes=(2, 4), inputs=_sample_data),
                            Fixed(1.0), zero, zero, zero, search=False, samples=None)
    parts = {**parts, "raw": Fixed(SAMPLE_RAW)}
    listed = Family(name, {}, parts, QUANTITIES)
    return Family(name, {}, parts, QUANTITIES, examples=[listed.to_json(sample_witness())], adversary=False)


def sample_norms_ok(s: Any) -> bool:
    """||f(x)|| = r at every sample x itself too (where the subject carries f there: part ``raw``)."""
    raw = s.values.get("raw") if hasattr(s, "values") else None
    if raw is None:
        return True
    return holds(equal(np.linalg.norm(np.asarray(raw, dtype=float), axis=1), float(s.r), what="||f(x)||"))


# -- Theorem 1: the constant of eta(eps) = O(1/eps) along witness families
def spike_setting(a: int, eps: float = 1.0) -> ag.AugmentedSetting:
    """One sample, |A(x)| = a augmented inputs; f = 2 eps e_1 on the first (input 0), 0 on the others
    (inputs 1 + j/a): f is (2 eps)-Lipschitz on the inputs whatever a is, and the sample is outside S_eps."""
    inputs = np.concatenate([[0.0], 1.0 + np.arange(1, a) / a])[None, :, None]
    feats = np.zeros((1, a, 1))
    feats[0, 0, 0] = 2 * eps
    return ag.AugmentedSetting.create([0], [1.0], inputs, feats, 1)


def spike_ratio(a: int, eps: float = 1.0) -> dict[str, float]:
    """R_eps^2 eps^2 / L_align, R_eps, L_align and L on :func:`spike_setting` (exact sums of augmented.py)."""
    s = spike_setting(a, eps)
    R = ag.r_eps(s, eps)
    align = float(ag.align_loss(ag.AugArrays.from_setting(s, FLOAT)))
    return {"a": a, "R_eps": R, "L_align": align, "L": ag.lipschitz(s)[0], "ratio": R ** 2 * eps ** 2 / align}


def spike_ratio_formula() -> tuple[sympy.Expr, sympy.Expr]:
    """The family's ratio in closed form, a^2 / (8 (a - 1)), and its limit a -> oo (sympy): R_eps = 1 and
    L_align = 2 (a - 1)/a^2 (2 eps)^2 (the (1, j) and (j, 1) pairs, j != 1)."""
    a, eps = sympy.symbols("a epsilon", positive=True)
    align = 2 * (a - 1) / a ** 2 * (2 * eps) ** 2
    ratio = sympy.simplify(eps ** 2 / align)
    return ratio, sympy.limit(ratio, a, sympy.oo)


def tent_ratio_formula() -> tuple[sympy.Expr, sympy.Expr]:
    """A(x) = [0, 1] with the uniform distribution, f a tent of slope L and height h = 2 eps at 1/2
    (L-Lipschitz; the sample is outside S_eps, R_eps = 1): L_align = 2 Var f = 2 (2h^3/(3L) - h^4/L^2),
    valid for eps <= L/4 (the tent fits). The ratio eps^2 / L_align and its limit eps -> 0+ (sympy)."""
    eps, L, t = sympy.symbols("epsilon L t", positive=True)
    h = 2 * eps
    f = h - L * sympy.Abs(t - sympy.Rational(1, 2))
    lo, hi = sympy.Rational(1, 2) - h / L, sympy.Rational(1, 2) + h / L
    mean = sympy.integrate(f, (t, lo, hi))
    second = sympy.integrate(f ** 2, (t, lo, hi))
    align = sympy.simplify(2 * (second - mean ** 2))
    ratio = sympy.simplify(eps ** 2 / align)
    return ratio, sympy.limit(ratio, eps, 0, "+")


SPIKE_SIZES = (2, 4, 8, 16, 32, 64)


def spike_family(R: sympy.Symbol, L_align: sympy.Symbol, eps: sympy.Symbol) -> Parametric:
    """The witness family of the reading "the constant of eta(eps) = O(1/eps) is uniform over the augmentation
    sets" (it may depend on L only): one sample, |A(x)| = a growing, f = 2 eps on one augmented input and 0 on the
    others, at eps = 1/4 (inputs 0 and 1 + j/a: f is 1/2-Lipschitz for every a, so the prefix's L = 1/2 stays
    fixed): R_eps = 1 and L_align = 2 (a - 1)/a^2 (2 eps)^2 in closed form (the exact sums of
    augmented.py give the same values: :func:`spike_ratio`), so the engine takes the limit of R_eps eps /
    sqrt(L_align) = a / sqrt(8 (a - 1)) as a -> oo itself. It moves the augmentation sets and the encoder."""
    quarter = sympy.Rational(1, 4)
    return Parametric("one sample, |A(x)| = a augmented inputs, f = 2 eps on one of them (eps = 1/4, L = 1/2)",
                      ("data", "f"), values=lambda a: {R: sympy.Integer(1), eps: quarter,
                                                       L_align: 2 * (a - 1) / a ** 2 * (2 * quarter) ** 2},
                      index=sympy.Symbol("a", positive=True), limit=sympy.oo)


def theorem1_growth_artifact(ctx: RunContext) -> str:
    """The report section: both witness families, their ratios and limits, and what each refutes."""
    spike, spike_lim = spike_ratio_formula()
    tent, tent_lim = tent_ratio_formula()
    rows = [spike_ratio(a) for a in (2, 4, 8, 16, 32, 64)]
    lines = ["#### Theorem 1: the constant of eta(eps) = O(1/eps) along witness families", "",
             "The ratio R_eps^2 eps^2 / L_align(f) is the square of the constant c that R_eps^2 <= (c/eps)^2 "
             "L_align(f) needs. A family along which it grows without bound refutes every reading whose c "
             "is uniform over that family (the engine decides it: the family's closed forms, sympy's limit, rule "
             "asymptotic.limit, and whether the prefix lets the family move its objects, asymptotic.family_valid). "
             "The first family is the witness of the reading 'uniform over the augmentation sets' of huang.theorem1 "
             "(its verdict is in the readings above; the engine's part is R_eps <= (c/eps) sqrt(L_align), ratio "
             "a / sqrt(8 (a - 1)) at eps = 1/4, the square root of the ratio below); the second is the witness of "
             "the reading 'eta uniform over f' of huang.theorem1.general (continuous subjects).", "",
             f"1. **Finite augmentation sets, |A(x)| = a growing** (one sample; f = 2 eps e_1 on one augmented "
             f"input, 0 on the other a - 1; f is (2 eps)-Lipschitz for every a): ratio = `{spike}`, "
             f"limit a -> oo: `{spike_lim}` (sympy). It refutes a constant uniform over the augmentation "
             "sets (c depending on L alone, or on nothing); c = |A|/sqrt(2), which the literal and the "
             "uniform-over-f readings allow, covers it (a^2/8/(a-1) <= a^2/2).", "",
             "| a | R_eps | L_align | L | ratio (exact sums) |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {r['a']} | {r['R_eps']:.3g} | {r['L_align']:.6g} | {r['L']:.3g} | {r['ratio']:.6g} |" for r in rows]
    lines += ["", f"2. **A continuous augmentation distribution** (A(x) = [0, 1], uniform; f a tent of slope L, "
                  f"height 2 eps): ratio = `{tent}`, limit eps -> 0+: `{tent_lim}` (sympy). For one fixed "
                  "augmentation distribution and one L, no c works for every L-Lipschitz f: it refutes the "
                  "reading 'eta(eps) uniform over f' outside finite augmentation sets (huang.theorem1.general, "
                  "where the engine takes the limit from the exact closed forms of theorems/papers/huang/"
                  "continuous.py at L = 1; the finite subjects of huang.theorem1 cannot represent it)."]
    return "\n".join(lines)
