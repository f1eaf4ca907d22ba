(* Huang, Yi, Zhao, Jiang (ICLR 2023 slides, 004_86d461343230f9e1.txt), Theorem 1: the sharp constant of
   R_eps^2 <= eta(eps)^2 L_align for finite uniform augmentation sets of one size a, eta(eps) = sqrt(a)/eps
   (huang_finite_sums.v proves the checker's finite-case constant a/(sqrt 2 eps)). For EVERY number of samples n,
   size a >= 1 and dimension d: finite sums by recursion on their length. The definitions of sqdist, Lalign and
   Reps are those of huang_finite_sums.v, word for word. The argument: the a^2 ordered pairs of a sample sum to
   2 a times its variance about the mean of its views (pair_sum_vec); a sample outside S_eps has two views more
   than eps apart, and ||u - m||^2 + ||v - m||^2 >= ||u - v||^2/2 (sqdist_mid), so its pairs sum to at least
   a eps^2 (pairs_ge_sharp); then L_align >= eps^2 R_eps / a (theorem1_sharp_step) and R_eps^2 <= R_eps
   (theorem1_sharp_main). Standalone: coqc -q huang_theorem1_sharp.v *)
From Coq Require Import Reals Lra Lia Arith.
Open Scope R_scope.

(* sum n f = f 0 + f 1 + ... + f (n - 1), every n *)
Fixpoint sum (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S k => sum k f + f k end.

Lemma sum_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [reflexivity|].
  rewrite (IH f g) by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma sum_plus : forall n f g, sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. induction n as [|n IH]; intros f g; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum_scal : forall n c f, sum n (fun i => c * f i) = c * sum n f.
Proof. induction n as [|n IH]; intros c f; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum_const : forall n c, sum n (fun _ => c) = INR n * c.
Proof. induction n as [|n IH]; intros c; [simpl; lra | cbn [sum]; rewrite IH, S_INR; lra]. Qed.

Lemma sum_swap : forall n m f,
  sum n (fun i => sum m (fun j => f i j)) = sum m (fun j => sum n (fun i => f i j)).
Proof.
  induction n as [|n IH]; intros m f; simpl.
  - rewrite sum_const; lra.
  - rewrite IH. rewrite <- sum_plus. reflexivity.
Qed.

Lemma sum_nonneg : forall n f, (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sum n f.
Proof.
  induction n as [|n IH]; intros f H; simpl; [lra|].
  pose proof (IH f (fun i Hi => H i ltac:(lia))). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma sum_le : forall n f g, (forall i, (i < n)%nat -> f i <= g i) -> sum n f <= sum n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [lra|].
  pose proof (IH f g (fun i Hi => H i ltac:(lia))). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma sum_zero : forall n f, (forall i, (i < n)%nat -> f i = 0) -> sum n f = 0.
Proof. intros n f H. rewrite (sum_ext n f (fun _ => 0)) by exact H. rewrite sum_const; lra. Qed.

Lemma sum_ge_one : forall n f k, (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat -> f k <= sum n f.
Proof.
  induction n as [|n IH]; intros f k H Hk; [lia|]. cbn [sum].
  pose proof (sum_nonneg n f (fun i Hi => H i ltac:(lia))).
  destruct (Nat.eq_dec k n) as [->|Hne]; [lra|].
  pose proof (IH f k (fun i Hi => H i ltac:(lia)) ltac:(lia)). pose proof (H n ltac:(lia)). lra.
Qed.

Lemma sum_ge_two : forall n f k l, (forall i, (i < n)%nat -> 0 <= f i) -> (k < n)%nat -> (l < n)%nat ->
  k <> l -> f k + f l <= sum n f.
Proof.
  induction n as [|n IH]; intros f k l H Hk Hl Hkl; [lia|]. cbn [sum].
  destruct (Nat.eq_dec k n) as [->|Hk'].
  - pose proof (sum_ge_one n f l (fun i Hi => H i ltac:(lia)) ltac:(lia)). lra.
  - destruct (Nat.eq_dec l n) as [->|Hl'].
    + pose proof (sum_ge_one n f k (fun i Hi => H i ltac:(lia)) ltac:(lia)). lra.
    + pose proof (IH f k l (fun i Hi => H i ltac:(lia)) ltac:(lia) ltac:(lia) Hkl). pose proof (H n ltac:(lia)). lra.
Qed.

(* -- the checker's quantities (as in huang_finite_sums.v): n samples with masses w x, each A(x) uniform on a
   augmentations with embeddings F x i in R^d; L_align = E_x E_{x1, x2 in A(x)} ||f(x1) - f(x2)||^2 (all a^2
   ordered pairs), R_eps = the mass of the samples outside S_eps -- *)
Definition sqdist (d : nat) (u v : nat -> R) : R := sum d (fun c => (u c - v c) ^ 2).
Definition Lalign (n a d : nat) (w : nat -> R) (F : nat -> nat -> nat -> R) : R :=
  sum n (fun x => w x * (sum a (fun i => sum a (fun j => sqdist d (F x i) (F x j))) / (INR a * INR a))).
Definition Reps (n : nat) (w : nat -> R) (out : nat -> bool) : R :=
  sum n (fun x => w x * (if out x then 1 else 0)).

Lemma sqdist_nonneg : forall d u v, 0 <= sqdist d u v.
Proof. intros; unfold sqdist; apply sum_nonneg; intros; apply pow2_ge_0. Qed.

Lemma sqdist_self : forall d u, sqdist d u u = 0.
Proof. intros; unfold sqdist; apply sum_zero; intros; ring. Qed.

(* -- the variance identity: the a^2 ordered pairs of a sample sum to 2 a times the squared distances to the
   mean of its views -- *)
Lemma sum_sq_shift : forall n (x : nat -> R) c,
  sum n (fun j => (x j - c) ^ 2) = sum n (fun j => x j ^ 2) - 2 * c * sum n x + INR n * c ^ 2.
Proof. induction n as [|n IH]; intros x c; [simpl; ring|]. cbn [sum]. rewrite IH, S_INR. ring. Qed.

Lemma sum_quad : forall n (x : nat -> R) A B C,
  sum n (fun i => A * x i ^ 2 - 2 * x i * B + C) = A * sum n (fun i => x i ^ 2) - 2 * sum n x * B + INR n * C.
Proof. induction n as [|n IH]; intros x A B C; [simpl; ring|]. cbn [sum]. rewrite IH, S_INR. ring. Qed.

Lemma pair_sum_coord : forall a (x : nat -> R),
  sum a (fun i => sum a (fun j => (x i - x j) ^ 2))
  = 2 * INR a * sum a (fun j => x j ^ 2) - 2 * sum a x * sum a x.
Proof.
  intros a x.
  rewrite (sum_ext a (fun i => sum a (fun j => (x i - x j) ^ 2))
                     (fun i => INR a * x i ^ 2 - 2 * x i * sum a x + sum a (fun j => x j ^ 2))).
  - rewrite sum_quad. ring.
  - intros i _. rewrite (sum_ext a (fun j => (x i - x j) ^ 2) (fun j => (x j - x i) ^ 2)) by (intros; ring).
    rewrite sum_sq_shift. ring.
Qed.

Lemma pair_sum_var : forall a (x : nat -> R), (1 <= a)%nat ->
  sum a (fun i => sum a (fun j => (x i - x j) ^ 2)) = 2 * INR a * sum a (fun j => (x j - sum a x / INR a) ^ 2).
Proof.
  intros a x Ha. assert (Hne : INR a <> 0) by (apply not_0_INR; lia).
  rewrite pair_sum_coord, sum_sq_shift. field. exact Hne.
Qed.

Definition mean (a : nat) (G : nat -> nat -> R) : nat -> R := fun c => sum a (fun k => G k c) / INR a.

Lemma pair_sum_vec : forall a d (G : nat -> nat -> R), (1 <= a)%nat ->
  sum a (fun i => sum a (fun j => sqdist d (G i) (G j))) = 2 * INR a * sum a (fun k => sqdist d (G k) (mean a G)).
Proof.
  intros a d G Ha. unfold sqdist, mean.
  transitivity (sum a (fun i => sum d (fun c => sum a (fun j => (G i c - G j c) ^ 2)))).
  { apply sum_ext; intros i _. exact (sum_swap a d (fun j c => (G i c - G j c) ^ 2)). }
  transitivity (sum d (fun c => sum a (fun i => sum a (fun j => (G i c - G j c) ^ 2)))).
  { exact (sum_swap a d (fun i c => sum a (fun j => (G i c - G j c) ^ 2))). }
  transitivity (sum d (fun c => 2 * INR a * sum a (fun k => (G k c - sum a (fun k' => G k' c) / INR a) ^ 2))).
  { apply sum_ext; intros c _. exact (pair_sum_var a (fun k => G k c) Ha). }
  transitivity (2 * INR a * sum d (fun c => sum a (fun k => (G k c - sum a (fun k' => G k' c) / INR a) ^ 2))).
  { exact (sum_scal d (2 * INR a) (fun c => sum a (fun k => (G k c - sum a (fun k' => G k' c) / INR a) ^ 2))). }
  f_equal. symmetry.
  exact (sum_swap a d (fun k c => (G k c - sum a (fun k' => G k' c) / INR a) ^ 2)).
Qed.

(* ||u - v||^2 <= 2 (||u - m||^2 + ||v - m||^2): the parallelogram law, (u + v - 2m)^2 >= 0 per coordinate *)
Lemma sqdist_mid : forall d u v m, sqdist d u v <= 2 * (sqdist d u m + sqdist d v m).
Proof.
  intros d u v m. unfold sqdist. rewrite <- sum_plus, <- sum_scal. apply sum_le. intros c _.
  pose proof (pow2_ge_0 (u c + v c - 2 * m c)). nra.
Qed.

(* one sample: its a^2 ordered pairs sum to at least a times the squared distance of any two of its views *)
Lemma pairs_ge_sharp : forall a d (G : nat -> nat -> R) i j, (i < a)%nat -> (j < a)%nat ->
  INR a * sqdist d (G i) (G j) <= sum a (fun i' => sum a (fun j' => sqdist d (G i') (G j'))).
Proof.
  intros a d G i j Hi Hj. destruct (Nat.eq_dec i j) as [->|Hij].
  - rewrite sqdist_self, Rmult_0_r. apply sum_nonneg; intros; apply sum_nonneg; intros; apply sqdist_nonneg.
  - assert (Ha : (1 <= a)%nat) by lia. rewrite pair_sum_vec by exact Ha.
    pose proof (sum_ge_two a (fun k => sqdist d (G k) (mean a G)) i j (fun k _ => sqdist_nonneg d _ _) Hi Hj Hij)
      as Htwo.
    pose proof (sqdist_mid d (G i) (G j) (mean a G)) as Hmid.
    pose proof (pos_INR a) as Hpos. cbv beta in Htwo. nra.
Qed.

Theorem theorem1_sharp_step : forall n a d (w : nat -> R) (F : nat -> nat -> nat -> R) (out : nat -> bool) (eps : R),
  (1 <= a)%nat -> (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x, (x < n)%nat -> out x = true ->
     exists i j, (i < a)%nat /\ (j < a)%nat /\ eps ^ 2 < sqdist d (F x i) (F x j)) ->
  eps ^ 2 * Reps n w out / INR a <= Lalign n a d w F.
Proof.
  intros n a d w F out eps Ha Hw Hout. unfold Lalign, Reps.
  assert (Ha0 : 0 < INR a) by (apply lt_0_INR; lia).
  assert (Hne : INR a <> 0) by lra.
  assert (Hpos : 0 < INR a * INR a) by nra.
  unfold Rdiv at 1. rewrite Rmult_comm, <- sum_scal, <- sum_scal. apply sum_le. intros x Hx.
  specialize (Hw x Hx).
  assert (Hs : 0 <= sum a (fun i => sum a (fun j => sqdist d (F x i) (F x j))))
    by (apply sum_nonneg; intros; apply sum_nonneg; intros; apply sqdist_nonneg).
  destruct (out x) eqn:Eo.
  - destruct (Hout x Hx Eo) as [i [j [Hi [Hj Hfar]]]].
    pose proof (pairs_ge_sharp a d (F x) i j Hi Hj) as Hp.
    assert (Hae : INR a * eps ^ 2 <= sum a (fun i => sum a (fun j => sqdist d (F x i) (F x j)))) by nra.
    replace (/ INR a * (eps ^ 2 * (w x * 1))) with (w x * (INR a * eps ^ 2 / (INR a * INR a)))
      by (field; exact Hne).
    apply Rmult_le_compat_l; [exact Hw|]. unfold Rdiv.
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; exact Hpos | exact Hae].
  - replace (/ INR a * (eps ^ 2 * (w x * 0))) with 0 by ring.
    apply Rmult_le_pos; [exact Hw|]. unfold Rdiv; apply Rmult_le_pos; [exact Hs | left; apply Rinv_0_lt_compat; lra].
Qed.

Theorem theorem1_sharp_main : forall n a d (w : nat -> R) (F : nat -> nat -> nat -> R) (out : nat -> bool) (eps : R),
  (1 <= a)%nat -> 0 < eps -> (forall x, (x < n)%nat -> 0 <= w x) -> sum n w = 1 ->
  (forall x, (x < n)%nat -> out x = true ->
     exists i j, (i < a)%nat /\ (j < a)%nat /\ eps ^ 2 < sqdist d (F x i) (F x j)) ->
  Reps n w out ^ 2 <= INR a * Lalign n a d w F / eps ^ 2.
Proof.
  intros n a d w F out eps Ha He Hw Hsum Hout.
  assert (Ha0 : 0 < INR a) by (apply lt_0_INR; lia).
  assert (Hne : INR a <> 0) by lra.
  assert (He2 : 0 < eps ^ 2) by (apply pow_lt; exact He).
  assert (Hepsne : eps ^ 2 <> 0) by lra.
  assert (Heps0 : eps <> 0) by lra.
  pose proof (theorem1_sharp_step n a d w F out eps Ha Hw Hout) as Hstep.
  assert (Hr0 : 0 <= Reps n w out)
    by (unfold Reps; apply sum_nonneg; intros x Hx; destruct (out x); pose proof (Hw x Hx); lra).
  assert (Hr1 : Reps n w out <= 1).
  { rewrite <- Hsum. unfold Reps. apply sum_le. intros x Hx. pose proof (Hw x Hx). destruct (out x); lra. }
  assert (Hsq : Reps n w out ^ 2 <= Reps n w out) by nra.
  apply Rle_trans with (1 := Hsq).
  apply (Rmult_le_reg_r (eps ^ 2 / INR a)).
  - unfold Rdiv; apply Rmult_lt_0_compat; [exact He2 | apply Rinv_0_lt_compat; exact Ha0].
  - replace (INR a * Lalign n a d w F / eps ^ 2 * (eps ^ 2 / INR a)) with (Lalign n a d w F)
      by (field; repeat split; assumption).
    replace (Reps n w out * (eps ^ 2 / INR a)) with (eps ^ 2 * Reps n w out / INR a) by (field; exact Hne).
    exact Hstep.
Qed.
