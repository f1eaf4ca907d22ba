(* Merad et al., Lemma 3 (= Lemma 5 = Lemma 4.1): the scalar facts of its sharp constant.
   sigma = zeta' (Coquelicot derivatives), 0 < sigma < 1, sigma' = sigma (1 - sigma) <= 1/4, the bound
   ||g||^2 <= 6 C^2 on B^3 from the norms, the triangle inequality composed into 1.5 C^2 + sqrt 2, and
   the witness value (3 C^2 + sqrt(9 C^4 + 8)) / 4 >= 1.5 C^2 with its eigenvalue equation. *)
From Coq Require Import Reals Lra Psatz.
From Coquelicot Require Import Coquelicot.
Open Scope R_scope.

Definition sigma (u : R) : R := / (1 + exp (- u)).
Definition zeta (u : R) : R := ln (1 + exp u).

Lemma sigma_bounds : forall u, 0 < sigma u < 1.
Proof.
  intros u. unfold sigma. pose proof (exp_pos (- u)) as E. split.
  - apply Rinv_0_lt_compat; lra.
  - rewrite <- Rinv_1. apply Rinv_lt_contravar; lra.
Qed.

Lemma zeta_derive : forall u, is_derive zeta u (sigma u).
Proof.
  intros u. unfold zeta, sigma. auto_derive.
  - pose proof (exp_pos u); lra.
  - rewrite exp_Ropp. pose proof (exp_pos u). field. lra.
Qed.

Lemma sigma_derive : forall u, is_derive sigma u (sigma u * (1 - sigma u)).
Proof.
  intros u. unfold sigma. auto_derive.
  - pose proof (exp_pos (- u)); lra.
  - pose proof (exp_pos (- u)). field. lra.
Qed.

Lemma sigma_curvature : forall u, sigma u * (1 - sigma u) <= 1 / 4.
Proof. intros u. pose proof (pow2_ge_0 (sigma u - 1 / 2)). nra. Qed.

Lemma sigma_zero : sigma 0 = 1 / 2.
Proof. unfold sigma. rewrite Ropp_0, exp_0. field. Qed.

(* ||g||^2 = ||z3 - z2||^2 + 2 ||z1||^2 = b^2 + c^2 - 2 p + 2 a^2: a, b, c the norms, p = z2.z3, p^2 <= (b c)^2 *)
Lemma grad_sq_bound : forall a b c p C, 0 <= a <= C -> 0 <= b <= C -> 0 <= c <= C ->
  p * p <= (b * c) * (b * c) -> b * b + c * c - 2 * p + 2 * a * a <= 6 * C ^ 2.
Proof.
  intros a b c p C Ha Hb Hc Hp.
  assert (Hbc : 0 <= b * c) by nra.
  assert (Hq : - p <= b * c) by nra.
  nra.
Qed.

(* the triangle inequality composed: ||Hess l|| <= sigma' ||g||^2 + sigma ||M||, ||M|| = sqrt 2 *)
Theorem hess_upper : forall u G H C, 0 <= G <= 6 * C ^ 2 ->
  H <= sigma u * (1 - sigma u) * G + sigma u * sqrt 2 -> H <= 3 / 2 * C ^ 2 + sqrt 2.
Proof.
  intros u G H C HG HH. pose proof (sigma_bounds u). pose proof (sigma_curvature u).
  pose proof (sqrt_pos 2). nra.
Qed.

(* the witness: u = 0, ||g||^2 = 6 C^2; on the plane span{z, g}, Hess l z = g / 2 and
   Hess l g = (3/2) C^2 g + z, so lam with lam^2 = (3/2) C^2 lam + 1/2 is an eigenvalue *)
Theorem witness_eigen : forall C, 0 < C ->
  let lam := (3 * C ^ 2 + sqrt (9 * C ^ 4 + 8)) / 4 in
  lam * lam = sigma 0 * (1 - sigma 0) * (6 * C ^ 2) * lam + sigma 0 /\ 3 / 2 * C ^ 2 < lam.
Proof.
  intros C HC lam. rewrite sigma_zero.
  assert (Hs : 0 <= 9 * C ^ 4 + 8) by (pose proof (pow2_ge_0 (C ^ 2)); nra).
  pose proof (sqrt_sqrt _ Hs) as Q. pose proof (sqrt_pos (9 * C ^ 4 + 8)) as P.
  assert (Hgt : 3 * C ^ 2 < sqrt (9 * C ^ 4 + 8)).
  { apply Rsqr_incrst_0; [unfold Rsqr; rewrite Q; nra | nra | lra]. }
  split; unfold lam; [nra | lra].
Qed.
