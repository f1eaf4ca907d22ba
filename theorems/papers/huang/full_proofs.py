"""Coq proofs of Huang et al.'s identities and inequalities on their printed domain (issue 32).

One standalone script, ``coq/huang_finite_sums.v``, proves for EVERY dimension d, number of classes K, number
of samples n and augmentation-set size (finite sums by recursion on their length, expectations as finite
weighted sums):

* (1), proof idea of Theorem 4: the trace identity (both printed equalities) and the last step, with the sharp
  factor 2 and the printed factor 1 (``trace_gram``, ``trace_sum``, ``trace_bound_sharp``, ``trace_bound``);
* Theorem 4 with the printed constant 2 (and the constant 1, sharp for the chain) for every matrix C and every
  tau >= ||C - sum_k p_k mu_k mu_k^T||^2 (``theorem4``, ``theorem4_sharp``), the triangle inequality of the
  Frobenius norm proved from Cauchy-Schwarz (``fro_triangle``, ``cauchy_schwarz_fro``);
* Lemma 2 (``lemma2``, ``lemma2_alignment``), Cauchy-Schwarz for finite sums proved (``cauchy_schwarz``);
* the cross-correlation decomposition (``crosscorr_decomposition``);
* the nearest-centre classifier as a linear classifier, argmin and argmax as sets (``nn_argmin_argmax``,
  ``nn_scores_identity``);
* the simple contrastive loss's L'_2 (``simple_contrastive``);
* Theorem 1 with the constant the checker derives for finite uniform augmentation sets, eta(eps) = |A|/(sqrt 2 eps)
  (``theorem1_step``, ``theorem1_main``);
* the first step of Theorem 2's proof: main-part samples inside S_eps embed within L delta + 2 eps of each other
  (``main_close``, with the triangle inequality of R^d proved: ``vec_triangle``).

A second script, ``coq/huang_theorem4_encoders.v``, proves that C - sum_k p_k mu_k mu_k^T is positive
semi-definite for every encoder on every finite data distribution (the law of total covariance,
``total_covariance``, ``crosscorr_minus_centres_psd``): the step that separates encoders from arbitrary matrices C
in Theorem 4's sharp constant (sharp_constants.py, this package).

A third script, ``coq/huang_theorem1_sharp.v``, proves Theorem 1 with the sharp constant eta(eps) = sqrt(|A|)/eps on
the same finite uniform augmentation sets (``theorem1_sharp_step``, ``theorem1_sharp_main``; the variance identity
``pair_sum_vec``): :func:`theorem1_sharp_coq`, the upper side of the sharp row (sharp_constants.py, this package).

Cauchy-Schwarz and the triangle inequality are proved in the script (a non-negative quadratic in t has a
non-positive discriminant), so no certificate here has a ``modulo``. Every certificate names the whole
script's theorems in ``check_theorems``: one coqc run (and one cache entry) serves all of them.
"""

from __future__ import annotations

from typing import Any

from numerics import coq
from numerics.certificate import Certificate
from theorems.papers.huang import certificates as hc

PACKAGE = "theorems.papers.huang"
SCRIPT = "huang_finite_sums"
ALL_THEOREMS = ("cauchy_schwarz", "cauchy_schwarz_fro", "fro_triangle", "trace_gram", "trace_sum",
                "trace_bound_sharp", "trace_bound", "theorem4_sharp", "theorem4", "lemma2_alignment", "lemma2",
                "crosscorr_decomposition", "nn_scores_identity", "nn_argmin_argmax", "simple_contrastive",
                "vec_triangle", "main_close", "theorem1_step", "theorem1_main")
# the first part's label of huang.nn_classifier_linear (claims.py)
NN_SETS = "argmin_k ||f(x) - mu_k|| = argmax_k (W f(x) + b)_k as sets (ties included)"

MODEL = ("Coq: vectors and matrices are functions nat -> R read on 0..d-1 (0..K-1), sum n f = f 0 + ... + "
         "f (n - 1) defined by recursion on n, so every theorem holds for every size")
DATA_MODEL = ("the data: n samples x with masses w x, each A(x) a finite distribution over m slots with "
              "probabilities q x i summing to 1 (uniform on A(x): q = 1/|A(x)| on |A(x)| slots, 0 elsewhere, so "
              "sets of different sizes are covered), F x i a = f_a at augmentation i of x; x1, x2 independent "
              "given x, x and x' independent; every expectation is the finite weighted sum over these")


def script() -> str:
    """The text of ``coq/huang_finite_sums.v`` (package data)."""
    return coq.packaged_script(PACKAGE, SCRIPT)


def check(theorems: tuple[str, ...], statement: str, domain: str, *, parts: tuple[str, ...] | None = None,
          text: str | None = None, name: str = SCRIPT, timeout: float = 120.0, **details: Any) -> Certificate:
    """coqc on the script (``text``: a restated copy, for tests of false statements) for ``theorems``."""
    text = script() if text is None else text
    return coq.check_script(name, text, theorems, statement, domain, parts=parts, complete=True, timeout=timeout,
                            coq_statements=coq.theorem_statements(text, theorems), details=details or None,
                            check_theorems=ALL_THEOREMS)


def trace_identity_coq() -> Certificate:
    """(1), both printed equalities, for every d, K (K > d included), p > 0 and mu_1, ..., mu_K in R^d."""
    return check(("trace_gram", "trace_sum"),
                 "||sum_k p_k mu_k mu_k^T - I_d||^2 = ||U^T U - I_K||^2 + d - K with U = [sqrt(p_k) mu_k]_k (d x K), "
                 "and ||U^T U - I_K||^2 + d - K = sum_{k,l} (sqrt(p_k p_l) mu_k^T mu_l - delta_kl)^2 + d - K",
                 f"every d >= 0, K >= 0 (K > d included), every p_1..p_K > 0 and mu_k in R^d -- so every encoder "
                 f"and data distribution (p_k the class masses, mu_k the class centres); {MODEL}",
                 parts=(hc.TRACE_GRAM, hc.TRACE_SUM))


def trace_bound_coq() -> Certificate:
    """(1), last step, as printed (factor 1), proved from the sharp factor 2 in the same script."""
    return check(("trace_bound", "trace_bound_sharp"),
                 "||sum_k p_k mu_k mu_k^T - I_d||^2 >= p_k p_l (mu_k^T mu_l)^2 + d - K for every pair k != l "
                 "(proved with the factor 2 -- the dropped (l, k) term equals the (k, l) term -- which implies the "
                 "printed factor 1 since p_k p_l (mu_k^T mu_l)^2 >= 0); so also for the pair with the largest "
                 "p_k p_l (mu_k^T mu_l)^2 (the quantity max_pair_pp_dot_sq the claim checks)",
                 f"every d, K >= 2 (K > d included), every p_1..p_K > 0, mu_k in R^d and k != l; {MODEL}")


def theorem4_coq() -> Certificate:
    """Theorem 4 with the printed constant 2 for every matrix C and every admissible tau (and the constant 1)."""
    return check(("theorem4", "theorem4_sharp"),
                 "mu_k^T mu_l <= sqrt(2/(p_k p_l) (||C - I_d||^2 + tau - (d - K)/2)) for every k != l, every d x d "
                 "matrix C and every tau >= ||C - sum_k p_k mu_k mu_k^T||^2 (also with the constant 1 in place of "
                 "2: theorem4_sharp). The chain: ||M - I|| <= ||M - C|| + ||C - I|| (the Frobenius triangle "
                 "inequality, proved from Cauchy-Schwarz in the script), (sqrt tau + sqrt L_2)^2 <= 2 (tau + L_2), "
                 "(1) with factor 2; then t^2 <= Y/(p_k p_l) and t <= |t| = sqrt(t^2)",
                 f"every d, K >= 2, p_1..p_K > 0, mu_k in R^d, k != l, every real d x d matrix C (so C = E_x E_{{x1,"
                 f"x2}} f(x1) f(x2)^T of every encoder, whatever its Lipschitz constant and (sigma, delta)) and "
                 f"every tau >= ||C - M||^2; L_2 = ||C - I_d||^2 as in the claim; {MODEL}")


def theorem4_sharp_coq() -> Certificate:
    """Theorem 4 with the constant 1 (the sharp constant of the proof's chain) for every matrix C and admissible tau."""
    return check(("theorem4_sharp",),
                 "mu_k^T mu_l <= sqrt(1/(p_k p_l) (||C - I_d||^2 + tau - (d - K)/2)) for every k != l, every d x d "
                 "matrix C and every tau >= ||C - sum_k p_k mu_k mu_k^T||^2: the chain of Theorem 4's proof (Frobenius "
                 "triangle inequality, proved from Cauchy-Schwarz; (sqrt tau + sqrt L_2)^2 <= 2 (tau + L_2); (1) with "
                 "the sharp factor 2)",
                 f"every d, K >= 2, p_1..p_K > 0, mu_k in R^d, k != l, every real d x d matrix C (encoders' "
                 f"cross-correlations included) and every tau >= ||C - M||^2; {MODEL}")


ENCODERS_SCRIPT = "huang_theorem4_encoders"
ENCODERS_THEOREMS = ("total_covariance", "crosscorr_minus_centres_psd")


def encoders_script() -> str:
    """The text of ``coq/huang_theorem4_encoders.v`` (package data)."""
    return coq.packaged_script(PACKAGE, ENCODERS_SCRIPT)


def crosscorr_psd_coq(text: str | None = None, name: str = ENCODERS_SCRIPT) -> Certificate:
    """C - sum_k p_k mu_k mu_k^T >= 0 (PSD) for every encoder on every finite data distribution whose classes
    partition the samples: v^T (C - M) v = sum_k sum_{x in C_k} w_x ((m(x) - mu_k)^T v)^2 (``text``: a restated
    copy, for tests of false statements)."""
    text = encoders_script() if text is None else text
    return coq.check_script(
        name, text, ENCODERS_THEOREMS,
        "v^T (C - sum_k p_k mu_k mu_k^T) v = sum_k sum_{x in C_k} w_x ((m(x) - mu_k)^T v)^2 >= 0 for every v in R^d "
        "(the law of total covariance), C_ab = sum_x w_x sum_{i,j} q_xi q_xj F_xia F_xjb = E_x E_{x1,x2 in A(x)} "
        "f_a(x1) f_b(x2) (x1, x2 independent given x), m(x) = E_{x' in A(x)} f(x'), p_k = sum_{x in C_k} w_x, "
        "mu_k = sum_{x in C_k} w_x m(x) / p_k: C - M is positive semi-definite",
        f"every n, |A(x)| (any slot probabilities q), d, K, every encoder, masses w_x >= 0 with every class mass p_k "
        f"> 0, labels lab x < K (each sample in exactly one class: the classes partition the samples, as in the "
        f"checker's settings and the slides' latent classes C_1..C_K); every v in R^d; {MODEL}",
        complete=True, coq_statements=coq.theorem_statements(text, ENCODERS_THEOREMS))


def lemma2_coq() -> Certificate:
    """Lemma 2 on every finite data distribution with E f_i^2 = 1 for each i (Cauchy-Schwarz proved)."""
    return check(("lemma2", "lemma2_alignment", "cauchy_schwarz"),
                 "L_positive = E_x E_{x1,x2} ||f(x1) - f(x2)||^2 = sum_i (2 E f_i^2 - 2 C_ii) (lemma2_alignment) and, "
                 "when E_x E_{x' in A(x)} f_i(x')^2 = 1 for each i, L_positive <= 2 sqrt(d L_1), L_1 = sum_i "
                 "(1 - C_ii)^2, C_ii = E_x E_{x1,x2} f_i(x1) f_i(x2); sum_i (1 - C_ii) <= sqrt(d L_1) by "
                 "Cauchy-Schwarz for finite sums, proved in the script",
                 f"every d, n, |A(x)| and every encoder; {DATA_MODEL}; {MODEL}")


def crosscorr_coq() -> Certificate:
    """L_Cross-Corr = (1 - lambda) L_1 + lambda L_2 for every d, every matrix C and every lambda."""
    return check(("crosscorr_decomposition",),
                 "sum_i (1 - C_ii)^2 + lambda sum_{i != j} C_ij^2 = (1 - lambda) sum_i (1 - C_ii)^2 + lambda "
                 "||C - I_d||^2 (sum_{i != j} written sum_i sum_j (1 - delta_ij) C_ij^2)",
                 f"every d, every real lambda and every real d x d matrix C (so the cross-correlation of every "
                 f"encoder, normalized or not, on every data distribution); {MODEL}", parts=(hc.CROSSCORR,))


def nn_classifier_coq() -> Certificate:
    """argmin_k ||z - mu_k|| = argmax_k (W z + b)_k as sets, and the score identity, for every d, K, z, mu."""
    return check(("nn_argmin_argmax", "nn_scores_identity"),
                 "for every k < K: (||z - mu_k|| <= ||z - mu_j|| for all j < K) <-> ((W z + b)_j <= (W z + b)_k for "
                 "all j < K), W_k = mu_k, b_k = -||mu_k||^2/2, ||.|| = sqrt of the sum of squares -- the argmin and "
                 "argmax sets are equal, ties included; and -||z - mu_k||^2/2 = (W z + b)_k - ||z||^2/2",
                 f"every d, K, every point z in R^d (z = f(x) for every encoder and input) and every mu_1..mu_K in "
                 f"R^d (the class centres of every data distribution); {MODEL}", parts=(NN_SETS, hc.NN_SCORES))


def simple_contrastive_coq() -> Certificate:
    """L'_2 = ||E_x E_{x1} f(x1)||^2 for every n, |A(x)|, d: bilinearity and the independence of x, x'."""
    return check(("simple_contrastive",),
                 "sum_{x,x'} w_x w_x' sum_{i,l} q_xi q_x'l f(x_i)^T f(x'_l) = sum_a (sum_x w_x sum_i q_xi f_a(x_i))^2, "
                 "i.e. E_{x,x'} E_{x1 in A(x), x- in A(x')} f(x1)^T f(x-) = ||E_x E_{x1 in A(x)} f(x1)||^2 with x, x' "
                 "independent",
                 f"every n, |A(x)|, d, every encoder and every mass and augmentation distribution; {DATA_MODEL}; "
                 f"{MODEL}", parts=(hc.SIMPLE,))


def main_close_coq() -> Certificate:
    """Theorem 2, first step: ||f(x1) - f(y1)|| <= L delta + 2 eps for x, y in one main part inside S_eps."""
    return check(("main_close", "vec_triangle"),
                 "for x, y in one main part C^0_k (so d_A(x, y) <= delta: some x' in A(x), y' in A(y) with ||x' - y'|| "
                 "<= delta), both in S_eps (the embeddings of A(x), and of A(y), lie within eps of each other), L >= 0 "
                 "a Lipschitz constant of f on the augmented inputs, and every x1 in A(x), y1 in A(y): ||f(x1) - f(y1)|| "
                 "<= L delta + 2 eps (the triangle inequality of R^d, proved from Cauchy-Schwarz in the script, twice)",
                 f"every input dimension m, embedding dimension d, map f, delta, eps, finite augmentation sets and "
                 f"Lipschitz constant L >= 0; {MODEL}")


def cauchy_schwarz_coq() -> Certificate:
    """The named result Cauchy-Schwarz for finite sums, every length (the proof of step_checks.CAUCHY_SCHWARZ)."""
    return check(("cauchy_schwarz", "cauchy_schwarz_fro"),
                 "(sum_i u_i v_i)^2 <= (sum_i u_i^2)(sum_i v_i^2) for every n and u, v in R^n, and the same for the "
                 "Frobenius inner product of d x d matrices (a non-negative quadratic in t has a non-positive "
                 "discriminant)", f"every n (every d); {MODEL}", parts=())


def triangle_coq() -> Certificate:
    """The named result: the triangle inequality of the Euclidean norm of R^n and of the Frobenius norm."""
    return check(("vec_triangle", "fro_triangle"),
                 "||u + v|| <= ||u|| + ||v|| for the Euclidean norm of R^n and ||X + Y||_F <= ||X||_F + ||Y||_F for d x d "
                 "matrices, proved from Cauchy-Schwarz", f"every n and d; {MODEL}", parts=())


def theorem1_coq() -> Certificate:
    """Theorem 1, both parts with the checker-derived constant: L_align >= 2 eps^2 R_eps/|A|^2 and R_eps^2 <=
    |A|^2/2 L_align/eps^2, every finite data distribution with uniform augmentation sets of one size |A|."""
    return check(("theorem1_step", "theorem1_main"),
                 "L_align >= 2 eps^2 R_eps / |A|^2 (theorem1_step: a sample outside S_eps has a pair of augmentations "
                 "embedded more than eps apart, and its reverse, among its |A|^2 ordered pairs) and, for eps > 0, "
                 "R_eps^2 <= |A|^2/2 * L_align / eps^2 (theorem1_main: R_eps <= 1), i.e. R_eps^2 <= eta(eps)^2 L_align "
                 "with eta(eps) = |A|/(sqrt 2 eps)",
                 f"every n, |A| >= 1, d, every encoder and every sample masses summing to 1, each A(x) uniform on |A| "
                 f"augmentations, every eps (> 0 for theorem1_main); {MODEL}", parts=(hc.THEOREM1_MAIN, hc.THEOREM1_STEP))


SHARP1_SCRIPT = "huang_theorem1_sharp"
SHARP1_THEOREMS = ("pair_sum_vec", "sqdist_mid", "pairs_ge_sharp", "theorem1_sharp_step", "theorem1_sharp_main")


def theorem1_sharp_script() -> str:
    """The text of ``coq/huang_theorem1_sharp.v`` (package data)."""
    return coq.packaged_script(PACKAGE, SHARP1_SCRIPT)


def theorem1_sharp_coq(text: str | None = None, name: str = SHARP1_SCRIPT) -> Certificate:
    """Theorem 1 with eta(eps) = sqrt(|A|)/eps: L_align >= eps^2 R_eps/|A| and R_eps^2 <= |A| L_align/eps^2, every
    finite data distribution with uniform augmentation sets of one size |A| (``text``: a restated copy, for tests of
    false statements). Covers no part on its own: the claim's part 1 is the weaker |A|^2/2 (theorem1_coq)."""
    text = theorem1_sharp_script() if text is None else text
    return coq.check_script(
        name, text, ("theorem1_sharp_step", "theorem1_sharp_main"),
        "L_align >= eps^2 R_eps / |A| (theorem1_sharp_step: the |A|^2 ordered pairs of a sample sum to 2 |A| times "
        "the squared distances of its views to their mean (pair_sum_vec, proved), and a sample outside S_eps has two "
        "views u, v more than eps apart with ||u - m||^2 + ||v - m||^2 >= ||u - v||^2/2 (sqdist_mid), so its pairs "
        "sum to at least |A| eps^2 (pairs_ge_sharp)) and, for eps > 0, R_eps^2 <= |A| * L_align / eps^2 "
        "(theorem1_sharp_main: R_eps <= 1), i.e. R_eps^2 <= eta(eps)^2 L_align with eta(eps) = sqrt(|A|)/eps",
        f"every n, |A| >= 1, d, every encoder (no Lipschitz hypothesis is used) and every sample masses >= 0 summing "
        f"to 1, each A(x) uniform on the same number |A| of augmentations (the checker's settings: one size for every "
        f"sample), R_eps the mass of the samples with two augmentations embedded more than eps apart, every eps > 0; "
        f"{MODEL}",
        parts=(), complete=True, coq_statements=coq.theorem_statements(text, SHARP1_THEOREMS),
        check_theorems=SHARP1_THEOREMS)
