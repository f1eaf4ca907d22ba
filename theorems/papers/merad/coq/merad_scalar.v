(* Merad et al., Lemmas 3, 6 and 7: scalar facts, proved from 1 + z <= exp z (Coq's exp_ineq1_le)
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
Theorem ratio_le_twice : forall x, 0 <= x <= 1/2 -> x / (1 - x) <= 2 * x.
Proof.
  intros x Hx. assert (Hp : 0 < 1 - x) by lra.
  apply (Rmult_le_reg_r (1 - x)); [exact Hp|].
  unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

(* Lemma 6: log(1+t) <= t and 0 <= log(1+t) on [0, 1] *)
Theorem log1p_le : forall t, 0 <= t <= 1 -> ln (1 + t) <= t.
Proof. intros t Ht. pose proof (ln_le_sub1 (1 + t)). lra. Qed.

Theorem log1p_nonneg : forall t, 0 <= t <= 1 -> 0 <= ln (1 + t).
Proof.
  intros t Ht. rewrite <- ln_1. destruct (Req_dec t 0) as [->|H].
  - rewrite Rplus_0_r; lra.
  - left; apply ln_increasing; lra.
Qed.

Definition zeta (x : R) : R := ln (1 + exp x).

(* for every real x >= 0, with t = e^-x in (0, 1]: 0 <= zeta(x) - x <= e^-x *)
Theorem softplus_bounds_pos : forall x, 0 <= x -> 0 <= zeta x - x <= exp (- x).
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
Theorem softplus_bounds_neg : forall x, x <= 0 -> 0 <= zeta x <= exp x.
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
  2 * v1 * v2 <= (1 / 2) /\
  (forall u1 u2, Mu1 v1 v2 u1 u2 ^ 2 + Mu2 v1 v2 u1 u2 ^ 2 <= ((1 / 2)) ^ 2 * (u1 ^ 2 + u2 ^ 2)).
Proof.
  intros v1 v2 H1 H2 Hs.
  assert (K : 0 <= 2 * v1 * v2 <= 1/2) by (split; [nra | pose proof (pow2_ge_0 (v1 - v2)); nra]).
  split; [lra|]. intros u1 u2.
  destruct (softmax2_norm v1 v2 H1 H2 Hs) as [N _].
  eapply Rle_trans; [apply N|].
  apply Rmult_le_compat_r; [pose proof (pow2_ge_0 u1); pose proof (pow2_ge_0 u2); lra|].
  apply pow_incr; lra.
Qed.
