(* Merad et al., proof of Proposition 3.3 (uniform rho): the rearrangement over k-subsets, for EVERY N_C and k.
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
