(* Huang, Yi, Zhao, Jiang (ICLR 2023 slides, 004_86d461343230f9e1.txt), Theorem 4 over encoders: for the
   cross-correlation C = E_x E_{x1,x2 in A(x)} f(x1) f(x2)^T (x1, x2 independent given x) of EVERY encoder on EVERY
   finite data distribution whose latent classes partition the samples, C - sum_k p_k mu_k mu_k^T is positive
   semi-definite: v^T (C - M) v = sum_k sum_{x in C_k} w_x ((m(x) - mu_k)^T v)^2 (the law of total covariance,
   m(x) = E_{x' in A(x)} f(x')), for every n, |A(x)| (slot probabilities q x i), d, K. Standalone:
   coqc -q huang_theorem4_encoders.v *)
From Coq Require Import Reals Lra Lia Arith.
Open Scope R_scope.

(* sum n f = f 0 + f 1 + ... + f (n - 1), every n *)
Fixpoint sum (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S k => sum k f + f k end.

(* the Kronecker delta, the entries of the identity matrix *)
Definition delta (i j : nat) : R := if Nat.eqb i j then 1 else 0.

Lemma sum_ext : forall n f g, (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof.
  induction n as [|n IH]; intros f g H; simpl; [reflexivity|].
  rewrite (IH f g) by (intros; apply H; lia). rewrite (H n) by lia. reflexivity.
Qed.

Lemma sum_plus : forall n f g, sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. induction n as [|n IH]; intros f g; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum_minus : forall n f g, sum n (fun i => f i - g i) = sum n f - sum n g.
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

Lemma sum_mult : forall n m f g, sum n f * sum m g = sum n (fun i => sum m (fun j => f i * g j)).
Proof.
  intros n m f g. rewrite Rmult_comm, <- sum_scal.
  apply sum_ext; intros i _. rewrite Rmult_comm, <- sum_scal. reflexivity.
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

Lemma sum_delta_r : forall n i g, (i < n)%nat -> sum n (fun j => delta i j * g j) = g i.
Proof.
  induction n as [|n IH]; intros i g Hi; [lia|]. cbn [sum]. unfold delta at 2.
  destruct (Nat.eqb_spec i n) as [->|Hne].
  - rewrite sum_zero; [lra|]. intros j Hj. unfold delta.
    destruct (Nat.eqb_spec n j); [lia | lra].
  - rewrite IH by lia. lra.
Qed.

Lemma delta_sym : forall i j, delta i j = delta j i.
Proof. intros i j; unfold delta; rewrite Nat.eqb_sym; reflexivity. Qed.

Lemma sum_delta_l : forall n i g, (i < n)%nat -> sum n (fun j => delta j i * g j) = g i.
Proof.
  intros n i g Hi. rewrite <- (sum_delta_r n i g Hi). apply sum_ext; intros j _. rewrite delta_sym; reflexivity.
Qed.

Lemma sum_sq : forall n f, sum n f ^ 2 = sum n (fun i => sum n (fun j => f i * f j)).
Proof. intros n f. rewrite <- sum_mult. ring. Qed.

(* -- the data (the checker's augmented settings): n samples x with masses w x >= 0 and class labels lab x < K
      (the classes partition the samples), A(x) a finite distribution over m slots with probabilities q x i,
      F x i a = f_a at slot i of x (coordinate a < d) -- *)
(* m(x)_a = E_{x' in A(x)} f_a(x') *)
Definition mean (m : nat) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R) (x a : nat) : R :=
  sum m (fun i => q x i * F x i a).
(* C_ab = E_x E_{x1, x2 in A(x)} f_a(x1) f_b(x2), x1 and x2 independent given x (every ordered pair of slots) *)
Definition crosscorr n m (w : nat -> R) q F (a b : nat) : R :=
  sum n (fun x => w x * sum m (fun i => sum m (fun j => q x i * q x j * (F x i a * F x j b)))).
(* [x in C_k] *)
Definition ind (lab : nat -> nat) (k x : nat) : R := delta (lab x) k.
(* p_k = P[C_k] *)
Definition pk n (w : nat -> R) lab (k : nat) : R := sum n (fun x => ind lab k x * w x).
(* mu_k = E_{x in C_k} m(x), coordinate a *)
Definition centre n m w q F lab (k a : nat) : R :=
  sum n (fun x => ind lab k x * w x * mean m q F x a) / pk n w lab k.
(* M_ab = (sum_k p_k mu_k mu_k^T)_ab *)
Definition cmomE n m K w q F lab (a b : nat) : R :=
  sum K (fun k => pk n w lab k * centre n m w q F lab k a * centre n m w q F lab k b).
(* v^T X v *)
Definition quad (d : nat) (X : nat -> nat -> R) (v : nat -> R) : R :=
  sum d (fun a => sum d (fun b => v a * v b * X a b)).

Lemma crosscorr_mean : forall n m w q F a b,
  crosscorr n m w q F a b = sum n (fun x => w x * (mean m q F x a * mean m q F x b)).
Proof.
  intros. unfold crosscorr, mean. apply sum_ext; intros x _. rewrite sum_mult. f_equal.
  apply sum_ext; intros i _. apply sum_ext; intros j _. ring.
Qed.

(* v^T (sum_x w_x g_x g_x^T) v = sum_x w_x (g_x^T v)^2, every d and n *)
Lemma quad_gram : forall d n (w : nat -> R) (g : nat -> nat -> R) v,
  quad d (fun a b => sum n (fun x => w x * (g x a * g x b))) v
  = sum n (fun x => w x * sum d (fun a => v a * g x a) ^ 2).
Proof.
  intros. unfold quad.
  transitivity (sum d (fun a => sum n (fun x => sum d (fun b => w x * ((v a * g x a) * (v b * g x b)))))).
  { apply sum_ext; intros a _. rewrite sum_swap. apply sum_ext; intros b _. rewrite <- sum_scal.
    apply sum_ext; intros; ring. }
  rewrite sum_swap. apply sum_ext; intros x _. rewrite sum_sq, <- sum_scal. apply sum_ext; intros a _.
  rewrite <- sum_scal. apply sum_ext; intros; ring.
Qed.

Lemma quad_minus : forall d X Y v, quad d (fun a b => X a b - Y a b) v = quad d X v - quad d Y v.
Proof.
  intros. unfold quad. rewrite <- sum_minus. apply sum_ext; intros a _. rewrite <- sum_minus.
  apply sum_ext; intros; ring.
Qed.

(* the classes partition the samples: sum_k [x in C_k] g_x = g_x *)
Lemma sum_classes : forall n K lab (g : nat -> R), (forall x, (x < n)%nat -> (lab x < K)%nat) ->
  sum n g = sum K (fun k => sum n (fun x => ind lab k x * g x)).
Proof.
  intros n K lab g Hlab. rewrite sum_swap. apply sum_ext; intros x Hx. unfold ind.
  rewrite (sum_delta_r K (lab x) (fun _ => g x) (Hlab x Hx)). reflexivity.
Qed.

(* one class: sum_{x in C_k} w_x (s_x - sbar)^2 = sum_{x in C_k} w_x s_x^2 - p sbar^2, sbar = sum_{x in C_k} w_x s_x / p *)
Lemma class_variance : forall n (c w s : nat -> R) p, 0 < p -> p = sum n (fun x => c x * w x) ->
  sum n (fun x => c x * w x * (s x - sum n (fun y => c y * w y * s y) / p) ^ 2)
  = sum n (fun x => c x * w x * s x ^ 2) - p * (sum n (fun y => c y * w y * s y) / p) ^ 2.
Proof.
  intros n c w s p Hp Hsum. set (S1 := sum n (fun y => c y * w y * s y)).
  transitivity (sum n (fun x => c x * w x * s x ^ 2) - 2 * (S1 / p) * S1 + (S1 / p) ^ 2 * sum n (fun x => c x * w x)).
  { rewrite <- !sum_scal. unfold S1. rewrite <- sum_scal. rewrite <- sum_minus, <- sum_plus.
    apply sum_ext; intros; ring. }
  rewrite <- Hsum. field. lra.
Qed.

(* the law of total covariance for the cross-correlation of an encoder *)
Theorem total_covariance : forall n m d K (w : nat -> R) q F lab v,
  (forall x, (x < n)%nat -> (lab x < K)%nat) -> (forall k, (k < K)%nat -> 0 < pk n w lab k) ->
  quad d (fun a b => crosscorr n m w q F a b - cmomE n m K w q F lab a b) v
  = sum K (fun k => sum n (fun x => ind lab k x * w x *
      (sum d (fun a => v a * mean m q F x a) - sum d (fun a => v a * centre n m w q F lab k a)) ^ 2)).
Proof.
  intros n m d K w q F lab v Hlab Hp. rewrite quad_minus.
  set (s := fun x => sum d (fun a => v a * mean m q F x a)).
  assert (HC : quad d (crosscorr n m w q F) v = sum n (fun x => w x * s x ^ 2)).
  { transitivity (quad d (fun a b => sum n (fun x => w x * (mean m q F x a * mean m q F x b))) v).
    { unfold quad. apply sum_ext; intros a _. apply sum_ext; intros b _. rewrite crosscorr_mean. reflexivity. }
    rewrite quad_gram. reflexivity. }
  (* sbar_k = mu_k^T v = (sum_{x in C_k} w_x s_x) / p_k *)
  assert (Hbar : forall k, sum d (fun a => v a * centre n m w q F lab k a)
                           = sum n (fun x => ind lab k x * w x * s x) / pk n w lab k).
  { intros k. unfold centre, s.
    rewrite (sum_ext d _ (fun a => / pk n w lab k * (v a * sum n (fun x => ind lab k x * w x * mean m q F x a))))
      by (intros; unfold Rdiv; ring).
    rewrite sum_scal. unfold Rdiv. rewrite Rmult_comm. f_equal.
    transitivity (sum d (fun a => sum n (fun x => ind lab k x * w x * (v a * mean m q F x a)))).
    { apply sum_ext; intros a _. rewrite <- sum_scal. apply sum_ext; intros; ring. }
    rewrite sum_swap. apply sum_ext; intros x _. rewrite <- sum_scal. reflexivity. }
  assert (HM : quad d (cmomE n m K w q F lab) v
               = sum K (fun k => pk n w lab k * (sum n (fun x => ind lab k x * w x * s x) / pk n w lab k) ^ 2)).
  { transitivity (quad d (fun a b => sum K (fun k => pk n w lab k * (centre n m w q F lab k a
                                                                      * centre n m w q F lab k b))) v).
    { unfold quad, cmomE. apply sum_ext; intros a _. apply sum_ext; intros b _. f_equal.
      apply sum_ext; intros; ring. }
    rewrite (quad_gram d K (pk n w lab) (fun k a => centre n m w q F lab k a) v).
    apply sum_ext; intros k _. rewrite Hbar. reflexivity. }
  rewrite HC, HM, (sum_classes n K lab _ Hlab), <- sum_minus.
  apply sum_ext; intros k Hk. rewrite Hbar.
  pose proof (class_variance n (fun x => ind lab k x) w s (pk n w lab k) (Hp k Hk) eq_refl) as Hv.
  cbv beta in Hv.
  transitivity (sum n (fun x => ind lab k x * w x * s x ^ 2)
                - pk n w lab k * (sum n (fun y => ind lab k y * w y * s y) / pk n w lab k) ^ 2).
  { f_equal. apply sum_ext; intros; ring. }
  rewrite <- Hv. reflexivity.
Qed.

Lemma ind_nonneg : forall lab k x, 0 <= ind lab k x.
Proof. intros; unfold ind, delta; destruct (Nat.eqb (lab x) k); lra. Qed.

(* C - sum_k p_k mu_k mu_k^T is positive semi-definite, for every encoder and finite data distribution *)
Theorem crosscorr_minus_centres_psd : forall n m d K (w : nat -> R) q F lab v,
  (forall x, (x < n)%nat -> 0 <= w x) -> (forall x, (x < n)%nat -> (lab x < K)%nat) ->
  (forall k, (k < K)%nat -> 0 < pk n w lab k) ->
  0 <= quad d (fun a b => crosscorr n m w q F a b - cmomE n m K w q F lab a b) v.
Proof.
  intros n m d K w q F lab v Hw Hlab Hp. rewrite (total_covariance n m d K w q F lab v Hlab Hp).
  apply sum_nonneg; intros k _. apply sum_nonneg; intros x Hx.
  apply Rmult_le_pos; [apply Rmult_le_pos; [apply ind_nonneg | apply Hw; exact Hx] | apply pow2_ge_0].
Qed.
