(* Ren & Li, Definition 4.2: the balance score is the stable rank ||M||_F^2 / ||M||_2^2 = sum_i s_i^2 / s_1^2
   of a matrix with non-zero singular values s_1 >= ... >= s_r > 0 (r = rank M). For EVERY r >= 1 and every
   such list (Coq, by induction on lists): 1 <= stable rank <= r; = r when the s_i are equal; < r when they are
   not; s_1 / s_r <= c implies stable rank >= r / c^2. That ||M||_F^2 = sum_i s_i^2 and ||M||_2 = s_1 is the
   singular value decomposition, not proved here. *)
From Coq Require Import Reals List Lra Lia.
Import ListNotations.
Open Scope R_scope.

Fixpoint sumsq (l : list R) : R := match l with [] => 0 | x :: t => x * x + sumsq t end.
(* lmax s l: the largest entry of the non-empty list s :: l *)
Fixpoint lmax (x : R) (l : list R) : R := match l with [] => x | y :: t => Rmax x (lmax y t) end.
Fixpoint lmin (x : R) (l : list R) : R := match l with [] => x | y :: t => Rmin x (lmin y t) end.
Definition stable_rank (x : R) (l : list R) : R := sumsq (x :: l) / (lmax x l * lmax x l).
Definition positive (l : list R) : Prop := forall y, In y l -> 0 < y.

Lemma lmax_ge : forall y x l, In y (x :: l) -> y <= lmax x l.
Proof.
  intros y x l; revert x; induction l as [|z t IH]; intros x H; simpl in *.
  - destruct H as [->|[]]; lra.
  - destruct H as [->|H]; [apply Rmax_l|].
    eapply Rle_trans; [apply IH; exact H | apply Rmax_r].
Qed.

Lemma lmin_le : forall y x l, In y (x :: l) -> lmin x l <= y.
Proof.
  intros y x l; revert x; induction l as [|z t IH]; intros x H; simpl in *.
  - destruct H as [->|[]]; lra.
  - destruct H as [->|H]; [apply Rmin_l|].
    eapply Rle_trans; [apply Rmin_r | apply IH; exact H].
Qed.

Lemma lmax_in : forall x l, In (lmax x l) (x :: l).
Proof.
  intros x l; revert x; induction l as [|z t IH]; intros x; simpl; [now left|].
  unfold Rmax; destruct (Rle_dec x (lmax z t)); [right; apply IH | now left].
Qed.

Lemma lmin_in : forall x l, In (lmin x l) (x :: l).
Proof.
  intros x l; revert x; induction l as [|z t IH]; intros x; simpl; [now left|].
  unfold Rmin; destruct (Rle_dec x (lmin z t)); [now left | right; apply IH].
Qed.

Lemma sumsq_nonneg : forall l, 0 <= sumsq l.
Proof. induction l as [|x t IH]; simpl; nra. Qed.

(* sum of squares between length * (min)^2 and length * (max)^2, for entries in [a, b] with a >= 0 *)
Lemma sumsq_bounds : forall a b l, (forall y, In y l -> 0 <= a <= y /\ y <= b) ->
  INR (length l) * (a * a) <= sumsq l <= INR (length l) * (b * b).
Proof.
  intros a b l; induction l as [|x t IH]; intros H; cbn [sumsq length]; [simpl; lra|].
  rewrite S_INR. destruct (H x (or_introl eq_refl)) as [[Ha Hax] Hxb].
  destruct IH as [IH1 IH2]; [intros y Hy; apply H; now right|]. split; nra.
Qed.

(* strict upper bound: some entry below b *)
Lemma sumsq_lt : forall b l y, (forall z, In z l -> 0 <= z <= b) -> In y l -> y < b ->
  sumsq l < INR (length l) * (b * b).
Proof.
  intros b l; induction l as [|x t IH]; intros y H Hy Hyb; [destruct Hy|]. cbn [sumsq length]; rewrite S_INR.
  destruct (H x (or_introl eq_refl)) as [Hx0 Hxb].
  assert (Ht : forall z, In z t -> 0 <= z <= b) by (intros z Hz; apply H; now right).
  destruct Hy as [->|Hy].
  - pose proof (proj2 (sumsq_bounds 0 b t (fun z Hz => conj (conj (Rle_refl 0) (proj1 (Ht z Hz))) (proj2 (Ht z Hz))))).
    nra.
  - specialize (IH y Ht Hy Hyb). nra.
Qed.

Section StableRank.
Variables (x : R) (l : list R).
Hypothesis pos : positive (x :: l).
Let m := lmax x l.
Let r := INR (length (x :: l)).

Lemma m_pos : 0 < m.
Proof. apply pos, lmax_in. Qed.

Lemma entries : forall y, In y (x :: l) -> 0 <= y <= m.
Proof. intros y Hy; split; [left; apply pos, Hy | apply lmax_ge, Hy]. Qed.

Theorem stable_rank_range : 1 <= stable_rank x l <= r.
Proof.
  unfold stable_rank; fold m; fold r. pose proof m_pos as Hm.
  assert (Hsq : 0 < m * m) by nra.
  assert (Hin : m * m <= sumsq (x :: l)).
  { (* m is an entry, the others contribute >= 0 *)
    assert (forall l0, In m l0 -> m * m <= sumsq l0) as Hgen.
    { induction l0 as [|y t IH]; intros Hm0; [destruct Hm0|]. simpl. pose proof (sumsq_nonneg t).
      destruct Hm0 as [->|Ht]; [nra | specialize (IH Ht); nra]. }
    apply Hgen, lmax_in. }
  pose proof (proj2 (sumsq_bounds 0 m (x :: l) (fun y Hy => conj (conj (Rle_refl 0) (proj1 (entries y Hy)))
                                                                       (proj2 (entries y Hy))))) as Hup.
  assert (E : sumsq (x :: l) / (m * m) * (m * m) = sumsq (x :: l)) by (field; lra).
  split; apply (Rmult_le_reg_r (m * m)); try exact Hsq; rewrite E; unfold r; lra.
Qed.

Theorem stable_rank_equal : (forall y, In y (x :: l) -> y = x) -> stable_rank x l = r.
Proof.
  intros Heq. unfold stable_rank; fold m; fold r. pose proof m_pos as Hm.
  assert (Hmx : m = x) by (apply Heq, lmax_in).
  assert (Hs : sumsq (x :: l) = r * (x * x)).
  { pose proof (sumsq_bounds x x (x :: l)) as B.
    assert (Hb : forall y, In y (x :: l) -> 0 <= x <= y /\ y <= x).
    { intros y Hy; rewrite (Heq y Hy); split; [split; [left; rewrite <- Hmx; exact Hm | lra] | lra]. }
    destruct (B Hb); unfold r; lra. }
  rewrite Hs, Hmx. field. rewrite <- Hmx; lra.
Qed.

Theorem stable_rank_unequal : forall y, In y (x :: l) -> y < m -> stable_rank x l < r.
Proof.
  intros y Hy Hlt. unfold stable_rank; fold m; fold r. pose proof m_pos as Hm.
  pose proof (sumsq_lt m (x :: l) y entries Hy Hlt) as H.
  assert (E : sumsq (x :: l) / (m * m) * (m * m) = sumsq (x :: l)) by (field; lra).
  apply (Rmult_lt_reg_r (m * m)); [nra|]. rewrite E. fold r in H; lra.
Qed.

Theorem stable_rank_ratio : forall c, 0 < c -> m <= c * lmin x l -> r / (c * c) <= stable_rank x l.
Proof.
  intros c Hc Hratio. unfold stable_rank; fold m; fold r. pose proof m_pos as Hm.
  set (a := lmin x l). assert (Ha : 0 < a) by (apply pos, lmin_in).
  pose proof (proj1 (sumsq_bounds a m (x :: l) (fun y Hy => conj (conj (Rlt_le _ _ Ha) (lmin_le y x l Hy))
                                                                      (proj2 (entries y Hy))))) as Hlow.
  fold r in Hlow.
  assert (Hr : 0 <= r) by (unfold r; apply pos_INR).
  assert (Hm0 : 0 <= m) by lra.
  assert (Hma0 : m * m <= (c * a) * (c * a)) by (apply Rmult_le_compat; [exact Hm0 | exact Hm0 | exact Hratio | exact Hratio]).
  assert (Hma : m * m <= c * c * (a * a)) by (replace (c * c * (a * a)) with ((c * a) * (c * a)) by ring; exact Hma0).
  apply (Rmult_le_reg_r (c * c * (m * m))); [apply Rmult_lt_0_compat; apply Rmult_lt_0_compat; lra|].
  unfold Rdiv. replace (r * / (c * c) * (c * c * (m * m))) with (r * (m * m)) by (field; lra).
  replace (sumsq (x :: l) * / (m * m) * (c * c * (m * m))) with (c * c * sumsq (x :: l)) by (field; lra).
  nra.
Qed.
End StableRank.

(* -- the population: for w uniform on {+-1}^r, E[M w] = 0 and E[(M w)(M w)^T] = M M^T, entry by entry:
   E_w[(u . w)(v . w)] = u . v and E_w[u . w] = 0 for EVERY r and all u, v in R^r (by induction on r: the
   average over {+-1}^(r+1) is the mean of the averages over {+-1}^r with the first sign +1 and -1). So the
   covariance of the embeddings f = M w is M M^T, and the balance score is the stable rank of M M^T. *)

(* cube r g: the average of g over the 2^r sign vectors of length r *)
Fixpoint cube (r : nat) (g : list R -> R) : R :=
  match r with
  | O => g []
  | S r' => (cube r' (fun w => g (1 :: w)) + cube r' (fun w => g (-1 :: w))) / 2
  end.

Fixpoint dot (u w : list R) : R :=
  match u, w with a :: u', s :: w' => a * s + dot u' w' | _, _ => 0 end.

Lemma cube_ext : forall r f g, (forall w, f w = g w) -> cube r f = cube r g.
Proof.
  induction r as [|r IH]; intros f g H; simpl; [apply H|].
  rewrite (IH (fun w => f (1 :: w)) (fun w => g (1 :: w))) by (intros; apply H).
  rewrite (IH (fun w => f (-1 :: w)) (fun w => g (-1 :: w))) by (intros; apply H). reflexivity.
Qed.

Lemma cube_const : forall r k, cube r (fun _ => k) = k.
Proof. induction r as [|r IH]; intros k; simpl; [reflexivity | rewrite !IH; lra]. Qed.

Lemma cube_plus : forall r f g, cube r (fun w => f w + g w) = cube r f + cube r g.
Proof.
  induction r as [|r IH]; intros f g; simpl; [reflexivity|].
  rewrite (IH (fun w => f (1 :: w)) (fun w => g (1 :: w))), (IH (fun w => f (-1 :: w)) (fun w => g (-1 :: w))). lra.
Qed.

Lemma cube_scale : forall r k f, cube r (fun w => k * f w) = k * cube r f.
Proof.
  induction r as [|r IH]; intros k f; simpl; [reflexivity|].
  rewrite (IH k (fun w => f (1 :: w))), (IH k (fun w => f (-1 :: w))). lra.
Qed.

Theorem cube_mean_zero : forall u, cube (length u) (fun w => dot u w) = 0.
Proof.
  induction u as [|a u IH]; simpl; [reflexivity|].
  rewrite (cube_plus _ (fun _ => a * 1) (fun w => dot u w)), (cube_plus _ (fun _ => a * -1) (fun w => dot u w)).
  rewrite !cube_const, IH. lra.
Qed.

Theorem cube_second_moment : forall u v, length u = length v ->
  cube (length u) (fun w => dot u w * dot v w) = dot u v.
Proof.
  induction u as [|a u IH]; intros [|b v] Hl; simpl in *; try discriminate; [lra|].
  injection Hl as Hl.
  assert (E : forall s, s * s = 1 -> forall w, (a * s + dot u w) * (b * s + dot v w)
                 = a * b + (a * s) * dot v w + (b * s) * dot u w + dot u w * dot v w).
  { intros s Hs w. replace (a * b) with (a * b * (s * s)) at 1 by (rewrite Hs; ring). ring. }
  rewrite (cube_ext _ _ _ (E 1 ltac:(lra))), (cube_ext _ _ _ (E (-1) ltac:(lra))).
  rewrite !cube_plus, !cube_const, !cube_scale.
  rewrite (IH v Hl). lra.
Qed.
