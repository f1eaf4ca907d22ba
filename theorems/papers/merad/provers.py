"""Merad et al.'s elementary facts as stand-alone provable statements (Coq, z3 and interval boxes).

**Coq** (:mod:`numerics.coq`): the log-sum-exp facts of the proofs of Lemmas 1 and 2 for *every* n (by
induction on lists), the scalar facts of Lemmas 3, 6 and 7 (-log(1-x) <= x/(1-x) <= 2x on [0, 1/2],
0 <= log(1+t) <= t on [0, 1] and the softplus bounds for every real x, ||diag(v) - v v^T|| = 2 v1 v2 <= 1/2
on the simplex), the coupon collector's mean and variance for every number of classes (geometric stages,
Coquelicot series) and tau+_N for uniform rho. Each proof is its own (no numeric step); three scripts
(:func:`lse_script`, :func:`scalar_script`, :func:`count_script`) hold them, and the functions
``*_coq`` check them with coqc.

**z3**: the log-sum-exp facts become polynomial statements with ``y_i = exp(x_i)``: exp is a bijection
R -> (0, inf) and log is increasing, so e.g. ``LSE(x) <= x_k + log n`` is equivalent to
``sum_j y_j <= n y_k`` for all y in (0, inf)^n; z3 proves them for each n <= n_max.

**Intervals**: the scalar facts of Lemmas 5-7 and the softplus bounds of Lemma 6 are proved on boxes by
the arb branch-and-bound of :mod:`numerics.interval`.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from fractions import Fraction
from typing import Any

import sympy as sp

from numerics import coq
from numerics.certificate import Certificate
from numerics.interval import combine, fraction_text, number_text, prove_nonnegative, to_fraction, truncated
from numerics.smt import max_of, prove_for_each_n, prove_polynomial, reals

_SUBST = ("Substituting y_i = exp(x_i) (exp is a bijection R -> (0, inf) and log is increasing, so the "
          "polynomial statement is equivalent)")


def _lse_fact(name: str, statement: str, polynomial: str, n_max: int, queries: Any,
              timeout_ms: int) -> Certificate:
    """A log-sum-exp fact proved for n = 1..n_max through its polynomial form."""
    return prove_for_each_n(name, statement, f"{_SUBST}: {polynomial}", n_max, queries, timeout_ms)


def lse_max_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for x in R^n, n = 1..n_max."""
    import z3

    def queries(n):
        y = reals("y", n)
        pos = [yi > 0 for yi in y]
        m, is_max = max_of("m", y)
        total = z3.Sum(y)
        return [("max <= LSE", pos + is_max, m <= total, y + [m]),
                ("LSE <= max + log n", pos + is_max, total <= n * m, y + [m])]
    return _lse_fact("lse_max_bounds", "For every n in 1..n_max and x in R^n: max_i x_i <= LSE(x) <= max_i x_i + "
                 "log n, LSE(x) = log(sum_i exp(x_i))",
                 "for y in (0, inf)^n and m = max_j y_j (m >= y_j for all j, m = y_k for some k): "
                 "m <= sum_j y_j and sum_j y_j <= n*m", n_max, queries, timeout_ms)


def lse_nonneg_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) >= 0 whenever some x_i >= 0."""
    import z3

    def queries(n):
        y = reals("y", n)
        hyps = [yi > 0 for yi in y] + [z3.Or([yi >= 1 for yi in y])]
        return [("some y_i >= 1 => sum y >= 1", hyps, z3.Sum(y) >= 1, y)]
    return _lse_fact("lse_nonneg", "For every n in 1..n_max and x in R^n with max_i x_i >= 0: LSE(x) >= 0",
                 "for y in (0, inf)^n with y_i >= 1 for some i: sum_j y_j >= 1", n_max, queries, timeout_ms)


def lse_pairwise_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) + log n for x in R^{2n}."""
    import z3

    def queries(n):
        y = reals("y", 2 * n)
        pairs = [y[2 * j] + y[2 * j + 1] for j in range(n)]
        m, is_max = max_of("m", pairs)
        hyps = [yi > 0 for yi in y] + is_max
        return [("sum_j p_j <= n max_j p_j", hyps, z3.Sum(pairs) <= n * m, y + [m])]
    return _lse_fact("lse_pairwise", "For every n in 1..n_max and x in R^{2n}: LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) "
                 "+ log n",
                 "for y in (0, inf)^{2n}, p_j = y_{2j-1} + y_{2j} and m = max_j p_j: sum_j p_j <= n*m",
                 n_max, queries, timeout_ms)


def lse_restriction_smt(n_max: int = 6, timeout_ms: int = 20000) -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S (S = first s indices, by permutation symmetry)."""
    import z3

    def queries(n):
        y = reals("y", n)
        pos = [yi > 0 for yi in y]
        return [(f"S = first {s} indices", pos, z3.Sum(y[:s]) <= z3.Sum(y), y) for s in range(1, n + 1)]
    return _lse_fact("lse_restriction", "For every n in 1..n_max, x in R^n and non-empty S subset {1..n}: "
                 "LSE(x_S) <= LSE(x) (LSE is symmetric in its arguments, so S = {1..s}, s = 1..n, covers "
                 "every S up to a permutation)",
                 "for y in (0, inf)^n: sum_{i<=s} y_i <= sum_i y_i, s = 1..n", n_max, queries, timeout_ms)


def lse_bounds_smt(n_max: int = 6, timeout_ms: int = 20000) -> list[Certificate]:
    """The four log-sum-exp facts, one Certificate per fact."""
    return [lse_max_bounds_smt(n_max, timeout_ms), lse_nonneg_smt(n_max, timeout_ms),
            lse_pairwise_smt(n_max, timeout_ms), lse_restriction_smt(n_max, timeout_ms)]


def softmax2_curvature_smt(timeout_ms: int = 20000) -> Certificate:
    """2 v1 v2 <= 1/2 for v1, v2 >= 0 with v1 + v2 = 1 (= ||diag(v) - v v^T||_2 <= 1/2 on the simplex)."""
    import z3
    v1, v2 = z3.Reals("v1 v2")
    return prove_polynomial(
        [v1 >= 0, v2 >= 0, v1 + v2 == 1], 2 * v1 * v2 <= z3.RealVal("1/2"), [v1, v2],
        "||diag(v) - v v^T||_2 <= 1/2 for v in the simplex of R^2: the spectral norm was computed in closed "
        "form for 2x2 (diag(v) - v v^T = v1 v2 [[1,-1],[-1,1]], eigenvalues 0 and 2 v1 v2), so the claim is "
        "2 v1 v2 <= 1/2 for v1, v2 >= 0, v1 + v2 = 1",
        "v1, v2 >= 0, v1 + v2 = 1", timeout_ms)


# -- scalar facts on boxes (interval branch-and-bound) ----------------------------------------

_x = sp.Symbol("x", real=True)
_t = sp.Symbol("t", real=True)


def neg_log1m_le_ratio(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """-log(1-x) <= x/(1-x) on [0, 1/2], i.e. g(x) = x/(1-x) + log(1-x) >= 0 (g(0) = 0)."""
    g = _x / (1 - _x) + sp.log(1 - _x)
    return prove_nonnegative(
        g, {_x: ("0", "1/2")},
        "-log(1-x) <= x/(1-x) for all x in [0, 1/2]  (proved as x/(1-x) + log(1-x) >= 0)",
        max_boxes, prec, domain="x in [0, 1/2]")


def ratio_le_twice(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2], i.e. 2x - x/(1-x) >= 0 (equality at both ends)."""
    g = 2 * _x - _x / (1 - _x)
    return prove_nonnegative(
        g, {_x: ("0", "1/2")},
        "x/(1-x) <= 2x for all x in [0, 1/2]  (proved as 2x - x/(1-x) >= 0)",
        max_boxes, prec, domain="x in [0, 1/2]")


def _softmax2_closed_form() -> dict[str, Any]:
    """sympy check that diag(v) - v v^T = t(1-t)[[1,-1],[-1,1]] for v = (t, 1-t), eigenvalues 0, 2t(1-t)."""
    v = sp.Matrix([_t, 1 - _t])
    M = sp.diag(_t, 1 - _t) - v * v.T
    target = _t * (1 - _t) * sp.Matrix([[1, -1], [-1, 1]])
    identity = all(sp.expand(e) == 0 for e in (M - target))
    eig = {sp.factor(k): m for k, m in M.eigenvals().items()}
    eig_ok = set(sp.expand(k) for k in eig) == {0, sp.expand(2 * _t * (1 - _t))}
    return {"matrix_identity": bool(identity), "eigenvalues": sorted(str(k) for k in eig),
            "eigenvalues_are_0_and_2t(1-t)": bool(eig_ok)}


def softmax2_curvature_le_half(max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """||diag(v) - v v^T||_2 <= 1/2 on the simplex of R^2, via 1/2 - 2t(1-t) >= 0 on [0, 1]."""
    g = sp.Rational(1, 2) - 2 * _t * (1 - _t)
    cert = prove_nonnegative(
        g, {_t: ("0", "1")},
        "||diag(v) - v v^T||_2 <= 1/2 for every v in the simplex of R^2. The spectral norm was "
        "computed in closed form for 2x2: with v = (t, 1-t), diag(v) - v v^T = t(1-t)[[1,-1],[-1,1]], "
        "whose eigenvalues are 0 and 2t(1-t) >= 0, so the norm is 2t(1-t); proved 1/2 - 2t(1-t) >= 0 "
        "for t in [0, 1]",
        max_boxes, prec, domain="v = (t, 1-t), t in [0, 1]")
    check = _softmax2_closed_form()
    closed_form_ok = check["matrix_identity"] and check["eigenvalues_are_0_and_2t(1-t)"]
    return replace(cert.with_details(closed_form_check=check), ok=cert.ok and closed_form_ok)


def lse_bounds_box(n: int, lo: Any, hi: Any, *, log_n_factor: Any = 1, max_boxes: int = 20000,
                   prec: int = 128) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for x in [lo, hi]^n, LSE(x) = log sum_i exp(x_i).

    Reduction (exact): on the region R_k = {x in [lo,hi]^n : x_k = max_j x_j} put
    u_j = x_k - x_j in [0, hi - lo] (j != k); then LSE(x) - x_k = log(1 + sum_{j!=k} e^{-u_j}).
    The right-hand side is the same function of the n-1 variables u for every k, so proving
    0 <= log(1 + sum_j e^{-u_j}) <= log n on the box [0, hi-lo]^(n-1) (which contains the image
    of every R_k) proves both bounds on all of [lo, hi]^n.  The identity is checked with sympy.
    ``log_n_factor`` replaces log n by factor*log n in the upper bound (a factor < 1 gives a false
    statement, which must not certify)."""
    start = time.perf_counter()
    if n < 2:
        raise ValueError("n >= 2 (for n = 1, LSE(x) = x)")
    flo, fhi = to_fraction(lo), to_fraction(hi)
    if flo > fhi:
        raise ValueError("lo > hi")
    factor = sp.Rational(str(to_fraction(log_n_factor)))
    D = fhi - flo
    u = sp.symbols(f"u1:{n}", real=True)
    S = 1 + sum(sp.exp(-uj) for uj in u)
    ubox = {uj: (Fraction(0), D) for uj in u}
    # sympy check of the reduction for k = n: LSE(x_k - u, x_k) - x_k == log(S)
    xk = sp.Symbol("x_k", real=True)
    lse = sp.log(sum(sp.exp(xk - uj) for uj in u) + sp.exp(xk))
    reduction_ok = bool(sp.simplify(sp.exp(lse - xk - sp.log(S)) - 1) == 0)
    dom = f"x in [{number_text(lo)}, {number_text(hi)}]^{n}"
    ustr = f"u in [0, {fraction_text(D)}]^{n - 1}"
    lower = prove_nonnegative(sp.log(S), ubox,
                              f"LSE(x) - max(x) = log(1 + sum_j exp(-u_j)) >= 0 on {ustr}",
                              max_boxes, prec, domain=ustr)
    upper = prove_nonnegative(factor * sp.log(n) - sp.log(S), ubox,
                              f"max(x) + {'' if factor == 1 else str(factor) + '*'}log({n}) - LSE(x) = "
                              f"{'' if factor == 1 else str(factor) + '*'}log({n}) - "
                              f"log(1 + sum_j exp(-u_j)) >= 0 on {ustr}",
                              max_boxes, prec, domain=ustr)
    rhs = "log" if factor == 1 else f"{factor}*log"
    statement = (f"max(x) <= LSE(x) <= max(x) + {rhs}({n}) for all x in [{number_text(lo)}, {number_text(hi)}]^{n}, "
                 f"LSE(x) = log(sum_i exp(x_i))")
    cert = combine([lower, upper], statement, dom, {
        "reduction": ("on {x_k = max}: u_j = x_k - x_j in [0, hi-lo], LSE(x) - x_k = "
                      "log(1 + sum_{j!=k} exp(-u_j)); same function for every k, so one proof "
                      "on [0, hi-lo]^(n-1) covers every region"),
        "reduction_checked_by_sympy": reduction_ok, "n": n,
    }, start)
    cert = replace(cert, ok=cert.ok and reduction_ok)
    return truncated(cert, f"proved on the box [{number_text(lo)}, {number_text(hi)}]^{n} only, not on R^{n}")


def softplus_limit_bounds(X: Any = 20.0, max_boxes: int = 20000, prec: int = 128) -> Certificate:
    """0 <= zeta(x) - x <= e^{-x} on [0, X] and 0 <= zeta(x) <= e^{x} on [-X, 0],
    zeta(x) = log(1 + e^x) (so zeta(x) ~ x at +inf and zeta(x) -> 0 at -inf)."""
    start = time.perf_counter()
    fX = to_fraction(X)
    if fX < 0:
        raise ValueError("X >= 0")
    # g(x) ~ exp(-2x)/2 is computed as a difference of O(x) terms: keep ~3x bits beyond the default
    prec = max(prec, int(3 * float(fX)) + 64)
    zeta = sp.log(1 + sp.exp(_x))
    pos, neg = (Fraction(0), fX), (-fX, Fraction(0))
    Xs = number_text(X)
    specs = [
        (zeta - _x, pos, f"zeta(x) - x >= 0 on [0, {Xs}]"),
        (sp.exp(-_x) - (zeta - _x), pos, f"zeta(x) - x <= exp(-x) on [0, {Xs}]"),
        (zeta, neg, f"zeta(x) >= 0 on [-{Xs}, 0]"),
        (sp.exp(_x) - zeta, neg, f"zeta(x) <= exp(x) on [-{Xs}, 0]"),
    ]
    parts = [prove_nonnegative(g, {_x: b}, s, max_boxes, prec,
                               domain=f"x in [{fraction_text(b[0])}, {fraction_text(b[1])}]") for g, b, s in specs]
    statement = (f"0 <= zeta(x) - x <= exp(-x) for x in [0, {Xs}] and 0 <= zeta(x) <= exp(x) for x in "
                 f"[-{Xs}, 0], zeta(x) = log(1 + exp(x))  (on these ranges: zeta(x) ~ x as x -> +inf "
                 f"and zeta(x) -> 0 as x -> -inf)")
    cert = combine(parts, statement, f"x in [-{Xs}, {Xs}]", {"X": Xs}, start)
    return truncated(cert, f"proved for |x| <= {Xs} only; the limits follow from the bounds, "
                                 "which are here certified on this range")


def ready_made_certificates() -> list[Certificate]:
    """Every ready-made interval certificate with its default parameters."""
    return [neg_log1m_le_ratio(), ratio_le_twice(), softmax2_curvature_le_half(),
            lse_bounds_box(2, -5.0, 5.0), lse_bounds_box(3, -5.0, 5.0), softplus_limit_bounds()]


# -- Coq certificates: proofs of their own, checked by coqc (numerics.coq) ------------------------
#
# Three scripts, each proving a group of facts from Coq's standard library (Reals) and, for the
# geometric stages of the coupon collector, Coquelicot's series. The statements are written so that a
# changed constant (``log_n_factor``, ``slope``, ``bound``, ``factor``) changes only the statement:
# the proof is the same text, and Coq rejects it when the statement is false.

_LSE_SCRIPT = r"""(* Merad et al., proofs of Lemmas 1 and 2: log-sum-exp facts for EVERY n, by induction on lists.
   A vector x in R^n (n >= 1) is the list x :: l; LSE(x) = ln (sum_i exp x_i). *)
From Coq Require Import Reals List Lra Lia.
Import ListNotations.
Open Scope R_scope.

Fixpoint sumexp (l : list R) : R :=
  match l with [] => 0 | x :: t => exp x + sumexp t end.
Definition lse (l : list R) : R := ln (sumexp l).
(* lmax x l = the largest entry of the non-empty list x :: l *)
Fixpoint lmax (x : R) (l : list R) : R :=
  match l with [] => x | y :: t => Rmax x (lmax y t) end.

Lemma sumexp_nonneg : forall l, 0 <= sumexp l.
Proof. induction l as [|x t IH]; simpl; [lra | pose proof (exp_pos x); lra]. Qed.

Lemma sumexp_pos : forall x l, 0 < sumexp (x :: l).
Proof. intros x l; simpl; pose proof (exp_pos x); pose proof (sumexp_nonneg l); lra. Qed.

Lemma exp_le_sumexp : forall y l, In y l -> exp y <= sumexp l.
Proof.
  intros y l; induction l as [|x t IH]; simpl; [tauto|].
  intros H; pose proof (exp_pos x); pose proof (exp_pos y); pose proof (sumexp_nonneg t).
  destruct H as [E|H]; [subst y; lra|]. specialize (IH H); lra.
Qed.

Lemma lmax_ge : forall y x l, In y (x :: l) -> y <= lmax x l.
Proof.
  intros y x l; revert x; induction l as [|z t IH]; intros x H; simpl in *.
  - destruct H as [->|[]]; lra.
  - destruct H as [->|H]; [apply Rmax_l|].
    eapply Rle_trans; [apply IH; exact H | apply Rmax_r].
Qed.

Lemma lmax_in : forall x l, In (lmax x l) (x :: l).
Proof.
  intros x l; revert x; induction l as [|z t IH]; intros x; simpl; [now left|].
  unfold Rmax; destruct (Rle_dec x (lmax z t)); [right; apply IH | now left].
Qed.

Lemma sumexp_le_bound : forall m l, (forall y, In y l -> y <= m) ->
  sumexp l <= INR (length l) * exp m.
Proof.
  intros m l; induction l as [|x t IH]; intros H; cbn [sumexp length]; [simpl; lra|].
  rewrite S_INR.
  assert (exp x <= exp m).
  { destruct (Req_dec x m) as [->|]; [lra|]. left; apply exp_increasing.
    pose proof (H x (or_introl eq_refl)); lra. }
  assert (sumexp t <= INR (length t) * exp m) by (apply IH; intros; apply H; now right).
  lra.
Qed.

(* max(x) <= LSE(x) <= max(x) + log n *)
Theorem lse_max_bounds : forall (x : R) (l : list R),
  lmax x l <= lse (x :: l) <= lmax x l + <<LOGN>>.
Proof.
  intros x l; unfold lse; split.
  - rewrite <- (ln_exp (lmax x l)) at 1.
    destruct (Req_dec (exp (lmax x l)) (sumexp (x :: l))) as [E|E]; [rewrite E; lra|].
    left; apply ln_increasing; [apply exp_pos|].
    pose proof (exp_le_sumexp _ _ (lmax_in x l)); lra.
  - assert (Hn : 0 < INR (length (x :: l))) by (apply lt_0_INR; simpl; lia).
    replace (lmax x l + ln (INR (length (x :: l)))) with (ln (INR (length (x :: l)) * exp (lmax x l)))
      by (rewrite ln_mult, ln_exp; [lra | exact Hn | apply exp_pos]).
    pose proof (sumexp_le_bound (lmax x l) (x :: l) (fun y H => lmax_ge y x l H)) as B.
    destruct B as [B|B]; [left; apply ln_increasing; [apply sumexp_pos|]; lra | rewrite B; lra].
Qed.

(* LSE(x) >= 0 when some x_i >= 0 *)
Theorem lse_nonneg : forall (l : list R) (y : R), In y l -> 0 <= y -> 0 <= lse l.
Proof.
  intros l y Hin Hy; unfold lse; rewrite <- ln_1.
  assert (1 <= sumexp l).
  { pose proof (exp_le_sumexp y l Hin). pose proof (exp_ineq1_le y). lra. }
  destruct H as [H|H]; [left; apply ln_increasing; lra | rewrite H; lra].
Qed.

(* x_S for a non-empty set S of indices is a subsequence of x: the entries at the indices of S *)
Inductive subseq : list R -> list R -> Prop :=
| subseq_nil : subseq [] []
| subseq_skip : forall x s l, subseq s l -> subseq s (x :: l)
| subseq_take : forall x s l, subseq s l -> subseq (x :: s) (x :: l).

Lemma sumexp_subseq : forall s l, subseq s l -> sumexp s <= sumexp l.
Proof.
  intros s l H; induction H; cbn [sumexp]; [lra | pose proof (exp_pos x); lra | lra].
Qed.

(* LSE(x_S) <= LSE(x) *)
Theorem lse_restriction : forall (s l : list R), subseq s l -> s <> [] -> lse s <= lse l.
Proof.
  intros s l H Hs; unfold lse. destruct s as [|x t]; [congruence|].
  destruct (sumexp_subseq _ _ H) as [E|E];
    [left; apply ln_increasing; [apply sumexp_pos | exact E] | rewrite E; lra].
Qed.

(* x in R^{2n} as the list of its n pairs (x_{2j-1}, x_{2j}) *)
Fixpoint flatten (ps : list (R * R)) : list R :=
  match ps with [] => [] | (a, b) :: t => a :: b :: flatten t end.
Definition lse2 (p : R * R) : R := lse [fst p; snd p].

Lemma exp_lse2 : forall p, exp (lse2 p) = exp (fst p) + exp (snd p).
Proof.
  intros [a b]; unfold lse2, lse; cbn [sumexp fst snd]; rewrite exp_ln; [lra|].
  pose proof (exp_pos a); pose proof (exp_pos b); lra.
Qed.

Lemma sumexp_flatten : forall ps, sumexp (flatten ps) = sumexp (map lse2 ps).
Proof.
  induction ps as [|[a b] t IH]; cbn [flatten sumexp map]; [lra|].
  rewrite exp_lse2, IH; cbn [fst snd]; lra.
Qed.

(* LSE(x) = LSE(LSE(x1, x2), ..., LSE(x_{2n-1}, x_{2n})) *)
Theorem lse_pairs_identity : forall (ps : list (R * R)), lse (flatten ps) = lse (map lse2 ps).
Proof. intros ps; unfold lse; now rewrite sumexp_flatten. Qed.

(* LSE(LSE pairs) <= max_j LSE(pair j) + log n *)
Theorem lse_pairs_bound : forall (p : R * R) (ps : list (R * R)),
  lse (map lse2 (p :: ps)) <= lmax (lse2 p) (map lse2 ps) + <<LOGN_PAIRS>>.
Proof.
  intros p ps. cbn [map].
  replace (length (p :: ps)) with (length (lse2 p :: map lse2 ps)) by (cbn [length]; now rewrite map_length).
  apply (proj2 (lse_max_bounds _ _)).
Qed.

(* LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) + log n *)
Theorem lse_pairwise : forall (p : R * R) (ps : list (R * R)),
  lse (flatten (p :: ps)) <= lmax (lse2 p) (map lse2 ps) + <<LOGN_PAIRS>>.
Proof. intros p ps. rewrite lse_pairs_identity. apply lse_pairs_bound. Qed.
"""

_SCALAR_SCRIPT = r"""(* Merad et al., Lemmas 3, 6 and 7: scalar facts, proved from 1 + z <= exp z (Coq's exp_ineq1_le)
   and by nonlinear real arithmetic; no numerics. *)
From Coq Require Import Reals Lra Psatz.
Open Scope R_scope.

(* ln y <= y - 1 for y > 0 *)
Lemma ln_le_sub1 : forall y, 0 < y -> ln y <= y - 1.
Proof. intros y Hy. pose proof (exp_ineq1_le (ln y)). rewrite exp_ln in H by exact Hy. lra. Qed.

(* Lemma 7: -log(1-x) <= x/(1-x) on [0, 1/2]  (ln(1/(1-x)) <= 1/(1-x) - 1) *)
Theorem neg_log1m_le_ratio : forall x, 0 <= x <= 1/2 -> - ln (1 - x) <= x / (1 - x).
Proof.
  intros x Hx. assert (Hp : 0 < 1 - x) by lra.
  rewrite <- ln_Rinv by exact Hp.
  pose proof (ln_le_sub1 (/ (1 - x)) (Rinv_0_lt_compat _ Hp)).
  replace (x / (1 - x)) with (/ (1 - x) - 1) by (field; lra). exact H.
Qed.

(* Lemma 7: x/(1-x) <= 2x on [0, 1/2]  (x <= 2x(1-x), i.e. x(1-2x) >= 0) *)
Theorem ratio_le_twice : forall x, 0 <= x <= 1/2 -> x / (1 - x) <= <<RATIO_FACTOR>> * x.
Proof.
  intros x Hx. assert (Hp : 0 < 1 - x) by lra.
  apply (Rmult_le_reg_r (1 - x)); [exact Hp|].
  unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

(* Lemma 6: log(1+t) <= t and 0 <= log(1+t) on [0, 1] *)
Theorem log1p_le : forall t, 0 <= t <= 1 -> ln (1 + t) <= <<SLOPE>>t.
Proof. intros t Ht. pose proof (ln_le_sub1 (1 + t)). lra. Qed.

Theorem log1p_nonneg : forall t, 0 <= t <= 1 -> 0 <= ln (1 + t).
Proof.
  intros t Ht. rewrite <- ln_1. destruct (Req_dec t 0) as [->|H].
  - rewrite Rplus_0_r; lra.
  - left; apply ln_increasing; lra.
Qed.

Definition zeta (x : R) : R := ln (1 + exp x).

(* for every real x >= 0, with t = e^-x in (0, 1]: 0 <= zeta(x) - x <= e^-x *)
Theorem softplus_bounds_pos : forall x, 0 <= x -> 0 <= zeta x - x <= <<SLOPE>>exp (- x).
Proof.
  intros x Hx. unfold zeta.
  assert (E : ln (1 + exp x) - x = ln (1 + exp (- x))).
  { replace (1 + exp x) with (exp x * (1 + exp (- x))).
    - rewrite ln_mult, ln_exp; [lra | apply exp_pos | pose proof (exp_pos (- x)); lra].
    - rewrite Rmult_plus_distr_l, <- exp_plus. replace (x + - x) with 0 by lra. rewrite exp_0; lra. }
  rewrite E. assert (0 < exp (- x) <= 1).
  { split; [apply exp_pos|]. rewrite <- exp_0. destruct (Req_dec x 0) as [->|H].
    - rewrite Ropp_0; lra.
    - left; apply exp_increasing; lra. }
  split; [apply log1p_nonneg | apply log1p_le]; lra.
Qed.

(* for every real x <= 0, with t = e^x in (0, 1]: 0 <= zeta(x) <= e^x *)
Theorem softplus_bounds_neg : forall x, x <= 0 -> 0 <= zeta x <= <<SLOPE>>exp x.
Proof.
  intros x Hx. unfold zeta. assert (0 < exp x <= 1).
  { split; [apply exp_pos|]. rewrite <- exp_0. destruct (Req_dec x 0) as [->|H]; [lra|].
    left; apply exp_increasing; lra. }
  split; [apply log1p_nonneg | apply log1p_le]; lra.
Qed.

(* Lemma 3: M = diag(v) - v v^T for v = (v1, v2) in the simplex; (Mu1, Mu2) = M u *)
Definition Mu1 (v1 v2 u1 u2 : R) : R := (v1 - v1 * v1) * u1 + (- v1 * v2) * u2.
Definition Mu2 (v1 v2 u1 u2 : R) : R := (- v2 * v1) * u1 + (v2 - v2 * v2) * u2.

(* ||M||_2 = 2 v1 v2: ||M u|| <= 2 v1 v2 ||u|| for every u, with equality at u = (1, -1) *)
Theorem softmax2_norm : forall v1 v2, 0 <= v1 -> 0 <= v2 -> v1 + v2 = 1 ->
  (forall u1 u2, Mu1 v1 v2 u1 u2 ^ 2 + Mu2 v1 v2 u1 u2 ^ 2 <= (2 * v1 * v2) ^ 2 * (u1 ^ 2 + u2 ^ 2))
  /\ Mu1 v1 v2 1 (-1) = 2 * v1 * v2 * 1 /\ Mu2 v1 v2 1 (-1) = 2 * v1 * v2 * (-1).
Proof.
  intros v1 v2 H1 H2 Hs. unfold Mu1, Mu2.
  assert (Hv : v2 = 1 - v1) by lra.
  split; [|split; subst v2; ring].
  intros u1 u2.
  replace (((v1 - v1 * v1) * u1 + - v1 * v2 * u2) ^ 2 + (- v2 * v1 * u1 + (v2 - v2 * v2) * u2) ^ 2)
    with ((v1 * v2) ^ 2 * (2 * (u1 - u2) ^ 2)) by (subst v2; ring).
  replace ((2 * v1 * v2) ^ 2 * (u1 ^ 2 + u2 ^ 2)) with ((v1 * v2) ^ 2 * (4 * (u1 ^ 2 + u2 ^ 2))) by ring.
  apply Rmult_le_compat_l; [apply pow2_ge_0|]. pose proof (pow2_ge_0 (u1 + u2)). nra.
Qed.

(* ||diag(v) - v v^T||_2 = 2 v1 v2 <= 1/2 on the simplex of R^2 *)
Theorem softmax2_curvature : forall v1 v2, 0 <= v1 -> 0 <= v2 -> v1 + v2 = 1 ->
  2 * v1 * v2 <= <<CURV_BOUND>> /\
  (forall u1 u2, Mu1 v1 v2 u1 u2 ^ 2 + Mu2 v1 v2 u1 u2 ^ 2 <= (<<CURV_BOUND>>) ^ 2 * (u1 ^ 2 + u2 ^ 2)).
Proof.
  intros v1 v2 H1 H2 Hs.
  assert (K : 0 <= 2 * v1 * v2 <= 1/2) by (split; [nra | pose proof (pow2_ge_0 (v1 - v2)); nra]).
  split; [lra|]. intros u1 u2.
  destruct (softmax2_norm v1 v2 H1 H2 Hs) as [N _].
  eapply Rle_trans; [apply N|].
  apply Rmult_le_compat_r; [pose proof (pow2_ge_0 u1); pose proof (pow2_ge_0 u2); lra|].
  apply pow_incr; lra.
Qed.
"""

_COUNT_SCRIPT = r"""(* Merad et al., Section 3.1 and Proposition 2: the coupon collector's mean and variance for EVERY
   number of classes n, from its geometric stages, and tau+_N for uniform rho for every N_C, N. *)
From Coquelicot Require Import Coquelicot.
From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

(* Coquelicot states its generic lemmas in a normed module: restate such an equation in R *)
Ltac in_R := match goal with |- ?a = ?b => change (@eq R a b) end.

(* sum_{i=1}^{n} f i *)
Fixpoint sum1 (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S k => sum1 f k + f (S k) end.

(* H^(m)_n = sum_{k=1}^{n} 1/k^m *)
Definition harm (m n : nat) : R := sum1 (fun k => / (INR k) ^ m) n.

Lemma sum1_ext : forall f g n, (forall i, (1 <= i <= n)%nat -> f i = g i) -> sum1 f n = sum1 g n.
Proof.
  intros f g n; induction n as [|n IH]; intros H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H (S n)) by lia. reflexivity.
Qed.

Lemma sum1_minus : forall f g n, sum1 (fun i => f i - g i) n = sum1 f n - sum1 g n.
Proof. intros f g n; induction n as [|n IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum1_scal : forall c f n, sum1 (fun i => c * f i) n = c * sum1 f n.
Proof. intros c f n; induction n as [|n IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum1_const : forall c n, sum1 (fun _ => c) n = INR n * c.
Proof. intros c n; induction n as [|n IH]; [simpl; lra | cbn [sum1]; rewrite IH, S_INR; lra]. Qed.

Lemma sum1_shift : forall f n, sum1 f (S n) = f 1%nat + sum1 (fun i => f (S i)) n.
Proof. intros f n; induction n as [|n IH]; [simpl; lra | cbn [sum1] in *; rewrite IH; lra]. Qed.

(* reindexing i -> n + 1 - i, a bijection of {1..n} *)
Lemma sum1_rev : forall g n, sum1 (fun i => g (S n - i)%nat) n = sum1 g n.
Proof.
  intros g n; induction n as [|n IH]; [reflexivity|].
  rewrite sum1_shift. replace (S (S n) - 1)%nat with (S n) by lia.
  rewrite (sum1_ext (fun i => g (S (S n) - S i)%nat) (fun i => g (S n - i)%nat)) by (intros; f_equal; lia).
  rewrite IH. cbn [sum1]. lra.
Qed.

(* -- geometric stages: T_i ~ Geom(p) on {1, 2, ...}, P(T_i = t + 1) = p (1 - p)^t -- *)
Definition geom_pmf (p : R) (t : nat) : R := p * (1 - p) ^ t.

Lemma is_series_Rminus : forall a b la lb, is_series a la -> is_series b lb ->
  is_series (fun n => a n - b n) (la - lb).
Proof. intros a b la lb Ha Hb. exact (is_series_minus a b la lb Ha Hb). Qed.

Lemma is_series_Rscal : forall c a l, is_series a l -> is_series (fun n => c * a n) (c * l).
Proof. intros c a l H. exact (is_series_scal_l c a l H). Qed.

Lemma series_pos_abs : forall a l, (forall n, 0 <= a n) -> is_series a l -> ex_series (fun n => Rabs (a n)).
Proof.
  intros a l Ha H. exists l. apply is_series_ext with a; [|exact H].
  intros n; rewrite Rabs_pos_eq; [reflexivity | apply Ha].
Qed.

Lemma sum_f_R0_succ : forall n, sum_f_R0 (fun k => INR (S k)) n = INR (S n) * INR (S (S n)) / 2.
Proof. induction n as [|n IH]; [simpl; lra|]. rewrite tech5, IH. rewrite !S_INR. field. Qed.

(* sum_{t>=0} (t+1) q^t = 1/(1-q)^2: the Cauchy product of the geometric series with itself *)
Lemma series_lin : forall q, 0 <= q < 1 -> is_series (fun t => INR (S t) * q ^ t) (/ (1 - q) ^ 2).
Proof.
  intros q Hq. assert (Hq' : Rabs q < 1) by (rewrite Rabs_pos_eq; lra).
  assert (Hpos : forall n, 0 <= q ^ n) by (intros; apply pow_le; lra).
  pose proof (series_pos_abs _ _ Hpos (is_series_geom q Hq')) as Habs.
  pose proof (is_series_mult _ _ _ _ (is_series_geom q Hq') (is_series_geom q Hq') Habs Habs) as H.
  replace (/ (1 - q) ^ 2) with (/ (1 - q) * / (1 - q)) by (field; lra).
  apply is_series_ext with (2 := H).
  intros n. in_R. rewrite (sum_eq _ (fun _ => q ^ n)) by (intros i Hi; cbv beta; rewrite <- pow_add; f_equal; lia).
  rewrite sum_cte; ring.
Qed.

(* sum_{t>=0} (t+1)(t+2)/2 q^t = 1/(1-q)^3 *)
Lemma series_tri : forall q, 0 <= q < 1 -> is_series (fun t => INR (S t) * INR (S (S t)) / 2 * q ^ t) (/ (1 - q) ^ 3).
Proof.
  intros q Hq. assert (Hq' : Rabs q < 1) by (rewrite Rabs_pos_eq; lra).
  assert (Hpos : forall n, 0 <= q ^ n) by (intros; apply pow_le; lra).
  assert (Hpos2 : forall n, 0 <= INR (S n) * q ^ n) by (intros; apply Rmult_le_pos; [apply pos_INR | apply Hpos]).
  pose proof (series_pos_abs _ _ Hpos (is_series_geom q Hq')) as Habs.
  pose proof (series_pos_abs _ _ Hpos2 (series_lin q Hq)) as Habs2.
  pose proof (is_series_mult _ _ _ _ (series_lin q Hq) (is_series_geom q Hq') Habs2 Habs) as H.
  replace (/ (1 - q) ^ 3) with (/ (1 - q) ^ 2 * / (1 - q)) by (field; lra).
  apply is_series_ext with (2 := H).
  intros n. in_R. rewrite (sum_eq _ (fun k => INR (S k) * q ^ n))
    by (intros i Hi; cbv beta; rewrite Rmult_assoc, <- pow_add; do 2 f_equal; lia).
  rewrite <- scal_sum, sum_f_R0_succ. ring.
Qed.

(* E[Geom(p)] = sum_{t>=0} (t+1) P(T = t+1) = 1/p *)
Theorem geom_mean : forall p, 0 < p <= 1 -> is_series (fun t => INR (S t) * geom_pmf p t) (/ p).
Proof.
  intros p Hp. unfold geom_pmf.
  apply is_series_ext with (fun t => (INR (S t) * (1 - p) ^ t) * p); [intros; in_R; ring|].
  replace (/ p) with (/ (1 - (1 - p)) ^ 2 * p) by (field; lra).
  apply is_series_scal_r, series_lin; lra.
Qed.

(* E[Geom(p)^2] = (2 - p)/p^2, so Var = (2 - p)/p^2 - 1/p^2 = (1 - p)/p^2 *)
Theorem geom_second_moment : forall p, 0 < p <= 1 ->
  is_series (fun t => INR (S t) ^ 2 * geom_pmf p t) ((2 - p) / p ^ 2).
Proof.
  intros p Hp. unfold geom_pmf.
  apply is_series_ext with (fun t => (2 * (INR (S t) * INR (S (S t)) / 2 * (1 - p) ^ t) - INR (S t) * (1 - p) ^ t) * p).
  { intros t. in_R. rewrite (S_INR (S t)). field. }
  replace ((2 - p) / p ^ 2) with ((2 * / (1 - (1 - p)) ^ 3 - / (1 - (1 - p)) ^ 2) * p) by (field; lra).
  apply is_series_scal_r. apply is_series_Rminus; [apply is_series_Rscal, series_tri | apply series_lin]; lra.
Qed.

Theorem geom_variance : forall p, 0 < p <= 1 -> (2 - p) / p ^ 2 - (/ p) ^ 2 = (1 - p) / p ^ 2.
Proof. intros p Hp. field. lra. Qed.

(* -- the coupon collector with n classes: stage i = 1..n succeeds with p_i = (n - i + 1)/n -- *)
Definition p_stage (n i : nat) : R := INR (n - i + 1) / INR n.

Lemma p_stage_range : forall n i, (1 <= i <= n)%nat -> 0 < p_stage n i <= 1.
Proof.
  intros n i Hi. unfold p_stage.
  assert (0 < INR n) by (apply lt_0_INR; lia).
  assert (0 < INR (n - i + 1)) by (apply lt_0_INR; lia).
  assert (INR (n - i + 1) <= INR n) by (apply le_INR; lia).
  split; [apply Rdiv_lt_0_compat; lra|]. apply (Rmult_le_reg_r (INR n)); [lra|].
  unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma coupon_mean_sum : forall n : nat, sum1 (fun i => / p_stage n i) n = INR n * harm 1 n.
Proof.
  intros n. destruct n as [|m]; [simpl; unfold harm; simpl; lra|].
  unfold harm. rewrite <- sum1_scal, <- (sum1_rev (fun k => INR (S m) * / INR k ^ 1)).
  apply sum1_ext; intros i Hi. unfold p_stage.
  replace (S m - i + 1)%nat with (S (S m) - i)%nat by lia.
  assert (0 < INR (S (S m) - i)) by (apply lt_0_INR; lia).
  assert (0 < INR (S m)) by (apply lt_0_INR; lia).
  field; lra.
Qed.

Lemma coupon_variance_sum : forall n : nat,
  sum1 (fun i => (1 - p_stage n i) / (p_stage n i) ^ 2) n = (INR n) ^ 2 * harm 2 n - INR n * harm 1 n.
Proof.
  intros n. destruct n as [|m]; [unfold harm; simpl; lra|].
  transitivity (sum1 (fun k => INR (S m) ^ 2 * / INR k ^ 2 - INR (S m) * / INR k ^ 1) (S m)).
  2: { unfold harm. rewrite sum1_minus, !sum1_scal. reflexivity. }
  rewrite <- (sum1_rev (fun k => INR (S m) ^ 2 * / INR k ^ 2 - INR (S m) * / INR k ^ 1)).
  apply sum1_ext; intros i Hi. unfold p_stage.
  replace (S m - i + 1)%nat with (S (S m) - i)%nat by lia.
  assert (0 < INR (S (S m) - i)) by (apply lt_0_INR; lia).
  assert (0 < INR (S m)) by (apply lt_0_INR; lia).
  rewrite minus_INR in * by lia.
  field; lra.
Qed.

(* E[T] = sum_i E[T_i] = n H_n: every stage mean is the series sum 1/p_i, and the means add up to n H_n *)
Theorem coupon_mean : forall n : nat,
  (forall i, (1 <= i <= n)%nat -> is_series (fun t => INR (S t) * geom_pmf (p_stage n i) t) (/ p_stage n i))
  /\ sum1 (fun i => / p_stage n i) n = <<MEAN_RHS>>.
Proof.
  intros n. split; [intros i Hi; apply geom_mean, p_stage_range, Hi | apply coupon_mean_sum].
Qed.

(* Var(T) = sum_i Var(T_i) = n^2 H^(2)_n - n H_n: every stage variance is E[T_i^2] - E[T_i]^2 =
   (1 - p_i)/p_i^2, and these add up to n^2 H^(2)_n - n H_n *)
Theorem coupon_variance : forall n : nat,
  (forall i, (1 <= i <= n)%nat ->
     is_series (fun t => INR (S t) ^ 2 * geom_pmf (p_stage n i) t) ((2 - p_stage n i) / p_stage n i ^ 2)
     /\ (2 - p_stage n i) / p_stage n i ^ 2 - (/ p_stage n i) ^ 2 = (1 - p_stage n i) / p_stage n i ^ 2)
  /\ sum1 (fun i => (1 - p_stage n i) / (p_stage n i) ^ 2) n = <<VAR_RHS>>.
Proof.
  intros n. split; [|apply coupon_variance_sum].
  intros i Hi. pose proof (p_stage_range n i Hi).
  split; [apply geom_second_moment | apply geom_variance]; lra.
Qed.

(* tau+_N = sum_{c=1}^{N_C} rho(c)^(N+1) with rho(c) = 1/N_C: = N_C^(-N) *)
Theorem tau_plus_uniform : forall NC N : nat, (1 <= NC)%nat ->
  sum1 (fun _ => (/ INR NC) ^ (N + 1)) NC = <<TAU_RHS>>.
Proof.
  intros NC N H. rewrite sum1_const.
  assert (0 < INR NC) by (apply lt_0_INR; lia).
  assert (INR NC ^ N <> 0) by (apply pow_nonzero; lra).
  rewrite pow_add, pow_1, pow_inv. field. split; lra.
Qed.
"""

_REARRANGE_SCRIPT = r"""(* Merad et al., proof of Proposition 3.3 (uniform rho): the rearrangement over k-subsets, for EVERY N_C and k.
   C minus {c} is a list l of m = N_C - 1 distinct classes; its k-subsets are enumerated by [choose k l], the
   order-preserving sublists of length k (each k-subset once). *)
From Coq Require Import List Arith Lia Reals Lra.
Import ListNotations.
Open Scope R_scope.

Fixpoint choose (k : nat) (l : list nat) {struct l} : list (list nat) :=
  match l with
  | [] => match k with O => [[]] | S _ => [] end
  | x :: t => match k with O => [[]] | S k' => map (cons x) (choose k' t) ++ choose k t end
  end.

Fixpoint binom (n k : nat) : nat :=
  match n, k with
  | _, O => 1%nat
  | O, S _ => 0%nat
  | S n', S k' => (binom n' k' + binom n' k)%nat
  end.

Lemma choose_length : forall l k, length (choose k l) = binom (length l) k.
Proof.
  induction l as [|x t IH]; intros [|k]; try reflexivity.
  cbn [choose length]. rewrite app_length, map_length, !IH. reflexivity.
Qed.

Lemma choose_sizes : forall l k s, In s (choose k l) -> length s = k.
Proof.
  induction l as [|x t IH]; intros [|k] s H; simpl in H.
  - destruct H as [<-|[]]; reflexivity.
  - destruct H.
  - destruct H as [<-|[]]; reflexivity.
  - apply in_app_or in H. destruct H as [H|H].
    + apply in_map_iff in H. destruct H as [s' [<- Hs']]. simpl. f_equal. apply (IH k). exact Hs'.
    + apply (IH (S k)). exact H.
Qed.

Lemma choose_sub : forall l k s z, In s (choose k l) -> In z s -> In z l.
Proof.
  induction l as [|x t IH]; intros [|k] s z H Hz; simpl in H.
  - destruct H as [<-|[]]; destruct Hz.
  - destruct H.
  - destruct H as [<-|[]]; destruct Hz.
  - apply in_app_or in H. destruct H as [H|H].
    + apply in_map_iff in H. destruct H as [s' [<- Hs']]. destruct Hz as [<-|Hz]; [left; reflexivity|].
      right. exact (IH k s' z Hs' Hz).
    + right. exact (IH (S k) s z H Hz).
Qed.

Definition has (y : nat) (s : list nat) : bool := existsb (Nat.eqb y) s.
Definition count_in (y : nat) (L : list (list nat)) : nat := length (filter (has y) L).

Lemma has_iff : forall y s, has y s = true <-> In y s.
Proof.
  intros y s. unfold has. rewrite existsb_exists. split.
  - intros [z [Hz E]]. apply Nat.eqb_eq in E. subst. exact Hz.
  - intros H. exists y. split; [exact H | apply Nat.eqb_refl].
Qed.

Lemma count_app : forall y A B, count_in y (A ++ B) = (count_in y A + count_in y B)%nat.
Proof. intros. unfold count_in. rewrite filter_app, app_length. reflexivity. Qed.

Lemma count_cons_same : forall x L, count_in x (map (cons x) L) = length L.
Proof.
  intros x L. unfold count_in. induction L as [|s L IH]; [reflexivity|].
  assert (Hs : has x (x :: s) = true) by (unfold has; simpl; rewrite Nat.eqb_refl; reflexivity).
  cbn [map filter]. rewrite Hs. cbn [length]. f_equal. exact IH.
Qed.

Lemma count_cons_other : forall x y L, x <> y -> count_in y (map (cons x) L) = count_in y L.
Proof.
  intros x y L Hxy. unfold count_in. induction L as [|s L IH]; [reflexivity|].
  assert (E : Nat.eqb y x = false) by (apply Nat.eqb_neq; congruence).
  assert (Hs : has y (x :: s) = has y s) by (unfold has; simpl; rewrite E; reflexivity).
  cbn [map filter]. rewrite Hs. destruct (has y s); cbn [length]; [f_equal|]; exact IH.
Qed.

Lemma count_absent : forall y L, (forall s, In s L -> ~ In y s) -> count_in y L = 0%nat.
Proof.
  intros y L H. unfold count_in. induction L as [|s L IH]; simpl; [reflexivity|].
  destruct (has y s) eqn:E.
  - apply has_iff in E. exfalso. exact (H s (or_introl eq_refl) E).
  - apply IH. intros s' Hs'. apply H. right. exact Hs'.
Qed.

(* parts 1-2: each c- of C minus {c} lies in exactly C(N_C - 2, k - 1) of the k-subsets *)
Theorem subsets_containing : forall l y k, NoDup l -> In y l ->
  count_in y (choose (S k) l) = binom (length l - 1) k.
Proof.
  induction l as [|x t IH]; intros y k Hnd Hy; [destruct Hy|].
  inversion Hnd as [|x' t' Hx Ht]; subst.
  cbn [choose]. rewrite count_app. replace (length (x :: t) - 1)%nat with (length t) by (simpl; lia).
  destruct (Nat.eq_dec x y) as [<-|Hxy].
  - rewrite count_cons_same, choose_length.
    rewrite (count_absent x (choose (S k) t)); [lia|].
    intros s Hs HxS. exact (Hx (choose_sub t (S k) s x Hs HxS)).
  - destruct Hy as [Hy|Hy]; [contradiction|].
    rewrite count_cons_other by exact Hxy. rewrite (IH y k Ht Hy).
    destruct k as [|k].
    + rewrite (count_absent y (choose 0 t)).
      * destruct t as [|z t']; [destruct Hy|]. simpl. destruct (length t'); reflexivity.
      * intros s Hs. destruct t; simpl in Hs; destruct Hs as [<-|[]]; simpl; auto.
    + destruct t as [|z t']; [destruct Hy|].
      replace (length (z :: t') - 1)%nat with (length t') by (simpl; lia).
      rewrite (IH y k Ht Hy). replace (length (z :: t') - 1)%nat with (length t') by (simpl; lia).
      replace (length (z :: t')) with (S (length t')) by reflexivity. cbn [binom]. lia.
Qed.

Fixpoint sumv (v : nat -> R) (s : list nat) : R :=
  match s with [] => 0 | i :: t => v i + sumv v t end.
Fixpoint total (v : nat -> R) (L : list (list nat)) : R :=
  match L with [] => 0 | s :: t => sumv v s + total v t end.

Lemma total_app : forall v A B, total v (A ++ B) = total v A + total v B.
Proof. intros v A B. induction A as [|s A IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma total_cons : forall v x L, total v (map (cons x) L) = INR (length L) * v x + total v L.
Proof.
  intros v x L. induction L as [|s L IH]; [simpl; lra|].
  cbn [map total sumv length]. rewrite IH, S_INR. lra.
Qed.

(* part 3 (with the sympy ratio C(N_C-2,k-1)/C(N_C-1,k) = k/(N_C-1)):
   sum over the k-subsets S of sum_{i in S} v_i = C(m - 1, k - 1) sum_i v_i *)
Theorem subsets_total : forall l v k,
  total v (choose (S k) l) = INR (binom (length l - 1) k) * sumv v l.
Proof.
  induction l as [|x t IH]; intros v k; [simpl; lra|].
  cbn [choose]. rewrite total_app, total_cons, choose_length.
  replace (length (x :: t) - 1)%nat with (length t) by (simpl; lia). cbn [sumv].
  destruct k as [|k].
  - rewrite (IH v 0%nat). assert (B : forall n, binom n 0 = 1%nat) by (intros [|n]; reflexivity).
    rewrite !B. assert (Z : total v (choose 0 t) = 0) by (destruct t; simpl; lra).
    rewrite Z. cbn [INR]. lra.
  - rewrite !IH. destruct t as [|z t'].
    + simpl. lra.
    + replace (length (z :: t') - 1)%nat with (length t') by (simpl; lia).
      replace (length (z :: t')) with (S (length t')) by reflexivity. cbn [binom]. rewrite plus_INR.
      lra.
Qed.
"""

_SHARP_SCRIPT = r"""(* Merad et al., proof of Lemma 7: the sharp constant of its scalar step. -log(1-x) <= c x on [0, 1/2] holds with
   c = 2 ln 2 (about 1.386), and with no smaller c (equality at x = 1/2); the proof uses c = 2. *)
From Coq Require Import Reals Lra Psatz.
Open Scope R_scope.

Lemma ln_le_sub1 : forall y, 0 < y -> ln y <= y - 1.
Proof. intros y Hy. pose proof (exp_ineq1_le (ln y)). rewrite exp_ln in H by exact Hy. lra. Qed.

(* -ln(1-x) <= x/(1-x) *)
Lemma neg_log1m : forall x, 0 <= x < 1 -> - ln (1 - x) <= x / (1 - x).
Proof.
  intros x Hx. assert (Hp : 0 < 1 - x) by lra.
  rewrite <- ln_Rinv by exact Hp.
  pose proof (ln_le_sub1 (/ (1 - x)) (Rinv_0_lt_compat _ Hp)).
  replace (x / (1 - x)) with (/ (1 - x) - 1) by (field; lra). exact H.
Qed.

(* ln(1+t) >= t/(1+t) for t >= 0 *)
Lemma log1p_ge : forall t, 0 <= t -> t / (1 + t) <= ln (1 + t).
Proof.
  intros t Ht. assert (Hp : 0 < 1 + t) by lra.
  pose proof (ln_le_sub1 (/ (1 + t)) (Rinv_0_lt_compat _ Hp)) as H.
  rewrite ln_Rinv in H by exact Hp.
  replace (t / (1 + t)) with (- (/ (1 + t) - 1)) by (field; lra). lra.
Qed.

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

(* the upper certificate: -ln(1-x) <= 2 ln 2 x on [0, 1/2]; the case split at x* = 1 - 1/(2 ln 2) is exact:
   below it the bound x/(1-x) suffices, above it ln(1-x) = ln(1+2y) - ln 2 with y = 1/2 - x *)
Theorem neg_log1m_sharp : forall x, 0 <= x <= 1/2 -> - ln (1 - x) <= 2 * ln 2 * x.
Proof.
  intros x Hx. pose proof ln2_pos as L.
  destruct (Rle_dec (2 * ln 2 * (1 - x)) 1) as [C|C].
  - (* (1 - x) <= 1/(2 ln 2): ln(1 - x) = ln(1 + 2y) - ln 2 >= 2y/(1+2y) - ln 2 >= 2 ln 2 y - ln 2 *)
    set (y := 1 / 2 - x).
    assert (Hy : 0 <= y) by (unfold y; lra).
    assert (E : 1 - x = (1 + 2 * y) / 2) by (unfold y; field).
    rewrite E. unfold Rdiv. rewrite ln_mult by lra. rewrite ln_Rinv by lra.
    pose proof (log1p_ge (2 * y) ltac:(lra)) as G.
    assert (K : 2 * ln 2 * y <= 2 * y / (1 + 2 * y)).
    { assert (A : ln 2 * (1 + 2 * y) <= 1) by (unfold y in *; nra).
      replace (2 * y / (1 + 2 * y)) with (2 * y * / (1 + 2 * y)) by reflexivity.
      assert (Hi : 0 < / (1 + 2 * y)) by (apply Rinv_0_lt_compat; lra).
      assert (Hm : (1 + 2 * y) * / (1 + 2 * y) = 1) by (field; lra).
      nra. }
    unfold y in *. lra.
  - (* 2 ln 2 (1 - x) > 1: -ln(1-x) <= x/(1-x) <= 2 ln 2 x *)
    apply Rnot_le_lt in C.
    eapply Rle_trans; [apply neg_log1m; lra|].
    apply (Rmult_le_reg_r (1 - x)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

(* the lower certificate: at x = 1/2 both sides are ln 2, so no constant below 2 ln 2 works *)
Theorem neg_log1m_sharp_attained : - ln (1 - 1/2) = 2 * ln 2 * (1/2).
Proof.
  replace (1 - 1/2) with (/ 2) by field. rewrite ln_Rinv by lra. field.
Qed.

Theorem neg_log1m_no_smaller : forall c, c < 2 * ln 2 -> ~ (forall x, 0 <= x <= 1/2 -> - ln (1 - x) <= c * x).
Proof.
  intros c Hc H. specialize (H (1/2) ltac:(lra)). rewrite neg_log1m_sharp_attained in H. lra.
Qed.
"""

LSE_THEOREMS = ("lse_max_bounds", "lse_nonneg", "lse_restriction", "lse_pairs_identity", "lse_pairs_bound",
                "lse_pairwise")
SCALAR_THEOREMS = ("neg_log1m_le_ratio", "ratio_le_twice", "log1p_le", "log1p_nonneg", "softplus_bounds_pos",
                   "softplus_bounds_neg", "softmax2_norm", "softmax2_curvature")
COUNT_THEOREMS = ("geom_mean", "geom_second_moment", "geom_variance", "coupon_mean", "coupon_variance",
                  "tau_plus_uniform")
REARRANGE_THEOREMS = ("choose_length", "choose_sizes", "subsets_containing", "subsets_total")
SHARP_THEOREMS = ("neg_log1m_sharp", "neg_log1m_sharp_attained", "neg_log1m_no_smaller")


def _coq_q(v: Any) -> str:
    """An exact number as Coq text (``1``, ``(1 / 2)``)."""
    return coq.coq_number(to_fraction(v))


def _scaled(term: str, factor: Any) -> str:
    q = to_fraction(factor)
    return term if q == 1 else f"{term} * {_coq_q(q)}"


def _prefix(factor: Any) -> str:
    q = to_fraction(factor)
    return "" if q == 1 else f"{_coq_q(q)} * "


def _coq_statements(script: str, names: tuple[str, ...]) -> dict[str, str]:
    """The statement of each named theorem, as written in the script."""
    out = {}
    for name in names:
        m = re.search(rf"(?:Theorem|Lemma) {name} :(.*?)\.\nProof\.", script, re.S)
        if m:
            out[name] = " ".join(m.group(1).split())
    return out


def lse_script(log_n_factor: Any = 1) -> str:
    """The log-sum-exp script; ``log_n_factor`` multiplies log n in the upper bounds (a factor < 1 makes
    the statement false, and Coq must reject the unchanged proof)."""
    body = (_LSE_SCRIPT.replace("<<LOGN>>", _scaled("ln (INR (length (x :: l)))", log_n_factor))
            .replace("<<LOGN_PAIRS>>", _scaled("ln (INR (length (p :: ps)))", log_n_factor)))
    return body


def scalar_script(*, slope: Any = 1, ratio_factor: Any = 2, curvature_bound: Any = "1/2") -> str:
    """The scalar-facts script; ``slope`` (log(1+t) <= slope t), ``ratio_factor`` (x/(1-x) <= factor x)
    and ``curvature_bound`` (2 v1 v2 <= bound) change only the statements."""
    body = (_SCALAR_SCRIPT.replace("<<SLOPE>>", _prefix(slope))
            .replace("<<RATIO_FACTOR>>", _coq_q(ratio_factor))
            .replace("<<CURV_BOUND>>", _coq_q(curvature_bound)))
    return body


def count_script(*, mean_factor: Any = 1) -> str:
    """The coupon-collector and tau+ script; ``mean_factor`` multiplies n H_n (a test hook)."""
    body = (_COUNT_SCRIPT.replace("<<MEAN_RHS>>", _scaled("INR n * harm 1 n", mean_factor))
            .replace("<<VAR_RHS>>", "(INR n) ^ 2 * harm 2 n - INR n * harm 1 n")
            .replace("<<TAU_RHS>>", "/ (INR NC) ^ N"))
    return body


def _coq(name: str, script: str, theorems: tuple[str, ...], statement: str, domain: str, *,
         complete: bool = True, timeout: float = 120.0, **extra: Any) -> Certificate:
    every = next(group for group in (LSE_THEOREMS, SCALAR_THEOREMS, COUNT_THEOREMS, REARRANGE_THEOREMS, SHARP_THEOREMS)
                 if theorems[0] in group)
    return coq.check_script(name, script, theorems, statement, domain, complete=complete, timeout=timeout,
                            coq_statements=_coq_statements(script, theorems), details=extra or None,
                            check_theorems=every)


def _script_name(base: str, *params: Any) -> str:
    """A script's file name; a changed constant (a test of a false statement) gets its own name."""
    changed = [str(p).replace("/", "_").replace("-", "m").replace(".", "p") for p in params if p is not None]
    return base if not changed else base + "_" + "_".join(changed)


def lse_max_bounds_coq(log_n_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """max(x) <= LSE(x) <= max(x) + log n for every n >= 1 and x in R^n (Coq, induction on lists)."""
    f = to_fraction(log_n_factor)
    rhs = "log n" if f == 1 else f"{f} * log n"
    return _coq(_script_name("merad_lse", None if f == 1 else f), lse_script(f), ("lse_max_bounds",),
                f"For every n >= 1 and x in R^n: max_i x_i <= LSE(x) <= max_i x_i + {rhs}, "
                "LSE(x) = log(sum_i exp(x_i)) (Coq: x is a list, by induction on it)",
                "every n >= 1 and every x in R^n (Coq, by induction)", timeout=timeout)


def lse_nonneg_coq(timeout: float = 120.0) -> Certificate:
    """LSE(x) >= 0 whenever some x_i >= 0, for every n (Coq)."""
    return _coq("merad_lse", lse_script(), ("lse_nonneg",),
                "For every n >= 1 and x in R^n with x_i >= 0 for some i: LSE(x) >= 0 (Coq)",
                "every n >= 1 and every x in R^n with some x_i >= 0 (Coq, by induction)", timeout=timeout)


def lse_restriction_coq(timeout: float = 120.0) -> Certificate:
    """LSE(x_S) <= LSE(x) for every non-empty S, for every n (Coq: x_S is a subsequence of x)."""
    return _coq("merad_lse", lse_script(), ("lse_restriction",),
                "For every n >= 1, x in R^n and non-empty S subset {1..n}: LSE(x_S) <= LSE(x), x_S the "
                "entries of x at the indices in S (Coq: a subsequence of the list x)",
                "every n >= 1, every x in R^n and every non-empty S (Coq, by induction)", timeout=timeout)


def lse_pairwise_coq(log_n_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """LSE(x) = LSE(LSE pairs) and LSE(LSE pairs) <= max_j LSE(pair j) + log n for x in R^{2n}, every n."""
    f = to_fraction(log_n_factor)
    rhs = "log n" if f == 1 else f"{f} * log n"
    return _coq(_script_name("merad_lse", None if f == 1 else f), lse_script(f),
                ("lse_pairs_identity", "lse_pairs_bound", "lse_pairwise"),
                f"For every n >= 1 and x in R^(2n): LSE(x) = LSE(LSE(x1,x2), ..., LSE(x_(2n-1),x_(2n))) and "
                f"LSE(x) <= max_j LSE(x_(2j-1), x_(2j)) + {rhs} (Coq: x as the list of its n pairs)",
                "every n >= 1 and every x in R^(2n) (Coq, by induction)", timeout=timeout)


def softmax2_curvature_coq(bound: Any = "1/2", timeout: float = 120.0) -> Certificate:
    """||diag(v) - v v^T||_2 = 2 v1 v2 <= 1/2 on the simplex of R^2 (Coq, from the operator norm)."""
    b = to_fraction(bound)
    return _coq(_script_name("merad_scalar", None if b == Fraction(1, 2) else f"curv{b}"),
                scalar_script(curvature_bound=b), ("softmax2_norm", "softmax2_curvature"),
                f"||diag(v) - v v^T||_2 = 2 v1 v2 <= {b} for every v in the simplex of R^2 (Coq: ||M u||^2 <= "
                "(2 v1 v2)^2 ||u||^2 for every u in R^2 with equality at u = (1, -1), and 2 v1 v2 <= "
                f"{b}; M written entry by entry)",
                "every v1, v2 >= 0 with v1 + v2 = 1 and every u in R^2 (Coq)", timeout=timeout)


def neg_log1m_le_ratio_coq(timeout: float = 120.0) -> Certificate:
    """-log(1-x) <= x/(1-x) on [0, 1/2] (Coq: ln y <= y - 1 at y = 1/(1-x))."""
    return _coq("merad_scalar", scalar_script(), ("neg_log1m_le_ratio",),
                "-log(1-x) <= x/(1-x) for every x in [0, 1/2] (Coq: ln y <= y - 1 at y = 1/(1-x), from "
                "1 + z <= exp z)", "every real x in [0, 1/2] (Coq)", timeout=timeout)


def ratio_le_twice_coq(factor: Any = 2, timeout: float = 120.0) -> Certificate:
    """x/(1-x) <= 2x on [0, 1/2] (Coq: x(1-2x) >= 0 by nra)."""
    f = to_fraction(factor)
    return _coq(_script_name("merad_scalar", None if f == 2 else f"ratio{f}"), scalar_script(ratio_factor=f),
                ("ratio_le_twice",),
                f"x/(1-x) <= {f}x for every x in [0, 1/2] (Coq: multiply by 1 - x > 0, then nonlinear "
                "arithmetic)", "every real x in [0, 1/2] (Coq)", timeout=timeout)


def softplus_bounds_coq(slope: Any = 1, timeout: float = 120.0) -> Certificate:
    """0 <= log(1+t) <= t on [0, 1], hence 0 <= zeta(x) - x <= e^-x (x >= 0) and 0 <= zeta(x) <= e^x
    (x <= 0) for every real x, through t = e^-|x| (Coq)."""
    s = to_fraction(slope)
    t_rhs = "t" if s == 1 else f"{s} t"
    e_rhs = ("e^-x", "e^x") if s == 1 else (f"{s} e^-x", f"{s} e^x")
    return _coq(_script_name("merad_scalar", None if s == 1 else f"slope{s}"), scalar_script(slope=s),
                ("log1p_le", "log1p_nonneg", "softplus_bounds_pos", "softplus_bounds_neg"),
                f"0 <= log(1+t) <= {t_rhs} for t in [0, 1]; with t = e^-x (x >= 0): 0 <= zeta(x) - x <= "
                f"{e_rhs[0]}, with t = e^x (x <= 0): 0 <= zeta(x) <= {e_rhs[1]}, zeta(x) = log(1 + e^x) (Coq)",
                "every real x (x >= 0 and x <= 0 respectively; Coq)", timeout=timeout)


def coupon_mean_coq(mean_factor: Any = 1, timeout: float = 120.0) -> Certificate:
    """E[T] = n H_n for every n: each geometric stage has mean 1/p_i (a series, Coquelicot) and
    sum_{i=1}^{n} n/(n-i+1) = n H_n (Coq, by induction)."""
    f = to_fraction(mean_factor)
    return _coq(_script_name("merad_counting", None if f == 1 else f"mean{f}"), count_script(mean_factor=f),
                ("geom_mean", "coupon_mean"),
                "E[T] = N_C H_{N_C} for every N_C: T is the sum of its geometric stages T_i (success "
                "probability p_i = (N_C - i + 1)/N_C), E[T_i] = sum_t t p_i (1-p_i)^(t-1) = 1/p_i (Coq, "
                "Coquelicot series) and sum_{i=1}^{N_C} N_C/(N_C - i + 1) = N_C H_{N_C} (Coq, by induction); "
                "E[T] = sum_i E[T_i] is linearity of expectation over the decomposition (the model)",
                "every integer N_C >= 1 (Coq)", timeout=timeout)


def coupon_variance_coq(timeout: float = 120.0) -> Certificate:
    """Var(T) = n^2 H^(2)_n - n H_n for every n, from sum_i (1 - p_i)/p_i^2 (Coq). Not the printed
    (N_C pi)^2 / 6: this certificate covers no part of merad.coupon.variance."""
    return replace(_coq("merad_counting", count_script(), ("geom_second_moment", "geom_variance",
                                                         "coupon_variance"),
                        "Var(T) = N_C^2 H^(2)_{N_C} - N_C H_{N_C} for every N_C: Var(T_i) = E[T_i^2] - E[T_i]^2 = "
                        "(2 - p_i)/p_i^2 - 1/p_i^2 = (1 - p_i)/p_i^2 (Coq, Coquelicot series) and "
                        "sum_i (1 - p_i)/p_i^2 = N_C^2 H^(2)_{N_C} - N_C H_{N_C} (Coq, by induction); "
                        "Var(T) = sum_i Var(T_i) is the independence of the stages (the model)",
                        "every integer N_C >= 1 (Coq)", timeout=timeout), parts=())


def tau_plus_uniform_coq(timeout: float = 120.0) -> Certificate:
    """sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) for every N_C >= 1 and N >= 0 (Coq)."""
    return _coq("merad_counting", count_script(), ("tau_plus_uniform",),
                "sum_{c=1}^{N_C} (1/N_C)^(N+1) = N_C^(-N) (Coq)",
                "every integer N_C >= 1 and N >= 0 (Coq, by induction on N_C)", timeout=timeout)


def coq_certificates() -> list[Certificate]:
    """Every Coq certificate of Merad et al.'s facts (three scripts; the cache makes repeats free)."""
    return [lse_max_bounds_coq(), lse_nonneg_coq(), lse_restriction_coq(), lse_pairwise_coq(),
            softmax2_curvature_coq(), neg_log1m_le_ratio_coq(), ratio_le_twice_coq(), softplus_bounds_coq(),
            coupon_mean_coq(), coupon_variance_coq(), tau_plus_uniform_coq()]


def rearrangement_coq(timeout: float = 120.0) -> Certificate:
    """The k-subset counts of the proof of Proposition 3.3 for every N_C and k (Coq, induction on lists): the
    k-subsets of a list of m distinct classes (order-preserving sublists of length k) number C(m, k), each class
    lies in exactly C(m-1, k-1) of them, and sum_S sum_{i in S} v_i = C(m-1, k-1) sum_i v_i."""
    return _coq("merad_rearrangement", _REARRANGE_SCRIPT, REARRANGE_THEOREMS,
                "For every m = N_C - 1 >= 1 and 1 <= k <= m, with the k-subsets of C minus {c} enumerated as the "
                "order-preserving sublists of length k of a list of m distinct classes: there are C(m, k) of them, "
                "every class lies in exactly C(m-1, k-1) = C(N_C-2, k-1) of them, and sum_S sum_{i in S} v_i = "
                "C(m-1, k-1) sum_i v_i for every v (Coq, by induction on the list)",
                "every integer N_C >= 2, 1 <= k <= N_C - 1, every v (Coq, by induction)", timeout=timeout)


def lemma7_sharp_constant_coq(timeout: float = 120.0) -> Certificate:
    """The sharp constant of Lemma 7's scalar step: -log(1-x) <= 2 ln 2 x on [0, 1/2] (upper certificate) and no
    c < 2 ln 2 works (lower certificate: equality at x = 1/2), both in Coq."""
    return _coq("merad_lemma7_sharp", _SHARP_SCRIPT, SHARP_THEOREMS,
                "Sharp constant of the scalar step of Lemma 7: -log(1-x) <= 2 ln 2 x for every x in [0, 1/2] (upper "
                "certificate), with equality at x = 1/2, so no c < 2 ln 2 satisfies -log(1-x) <= c x on [0, 1/2] "
                "(lower certificate); the proof's chain -log(1-x) <= x/(1-x) <= 2x uses c = 2 (Coq)",
                "every real x in [0, 1/2]; every real c < 2 ln 2 (Coq)", timeout=timeout)
