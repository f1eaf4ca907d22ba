(* Merad et al., proofs of Lemmas 1 and 2: log-sum-exp facts for EVERY n, by induction on lists.
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
  lmax x l <= lse (x :: l) <= lmax x l + ln (INR (length (x :: l))).
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
  lse (map lse2 (p :: ps)) <= lmax (lse2 p) (map lse2 ps) + ln (INR (length (p :: ps))).
Proof.
  intros p ps. cbn [map].
  replace (length (p :: ps)) with (length (lse2 p :: map lse2 ps)) by (cbn [length]; now rewrite map_length).
  apply (proj2 (lse_max_bounds _ _)).
Qed.

(* LSE(x) <= max_j LSE(x_{2j-1}, x_{2j}) + log n *)
Theorem lse_pairwise : forall (p : R * R) (ps : list (R * R)),
  lse (flatten (p :: ps)) <= lmax (lse2 p) (map lse2 ps) + ln (INR (length (p :: ps))).
Proof. intros p ps. rewrite lse_pairs_identity. apply lse_pairs_bound. Qed.
