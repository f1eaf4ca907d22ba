(* Huang, Yi, Zhao, Jiang (ICLR 2023 slides, 004_86d461343230f9e1.txt): the Barlow Twins identities and
   inequalities ((1), Lemma 2, Theorem 4, the cross-correlation decomposition), the linear form of the
   nearest-centre classifier, the simple contrastive loss, Theorem 1 with the checker's constant and the first
   step of Theorem 2's proof, for EVERY dimension d, number of classes K,
   number of samples n and augmentation-set size: finite sums by recursion on their length, expectations as
   finite weighted sums. Cauchy-Schwarz and the triangle inequality of the Frobenius norm are proved here
   (a non-negative quadratic has a non-positive discriminant), not assumed. Standalone: coqc -q huang_finite_sums.v *)
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

(* (x - delta)^2 = x^2 - 2 delta x + delta: delta is 0 or 1 *)
Lemma sq_minus_delta : forall x i j, (x - delta i j) ^ 2 = x ^ 2 - 2 * (delta i j * x) + delta i j.
Proof. intros x i j; unfold delta; destruct (Nat.eqb i j); ring. Qed.

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

(* -- Cauchy-Schwarz, proved: a quadratic t |-> A + 2 t B + t^2 C that is never negative has B^2 <= A C -- *)
Lemma discriminant : forall A B C, 0 <= C -> (forall t, 0 <= A + 2 * t * B + t * t * C) -> B * B <= A * C.
Proof.
  intros A B C HC H. destruct (Rle_lt_or_eq_dec 0 C HC) as [Hpos|Hzero].
  - specialize (H (- B / C)).
    replace (A + 2 * (- B / C) * B + - B / C * (- B / C) * C) with (A - B * B / C) in H by (field; lra).
    assert (0 <= (A - B * B / C) * C) by (apply Rmult_le_pos; lra).
    replace ((A - B * B / C) * C) with (A * C - B * B) in H0 by (field; lra). lra.
  - subst C. destruct (Req_dec B 0) as [->|HB]; [lra|].
    specialize (H (- (Rabs A + 1) / (2 * B))).
    replace (A + 2 * (- (Rabs A + 1) / (2 * B)) * B + - (Rabs A + 1) / (2 * B) * (- (Rabs A + 1) / (2 * B)) * 0)
      with (A - (Rabs A + 1)) in H by (field; lra).
    pose proof (Rle_abs A). lra.
Qed.

Theorem cauchy_schwarz : forall n u v,
  sum n (fun i => u i * v i) * sum n (fun i => u i * v i) <= sum n (fun i => u i ^ 2) * sum n (fun i => v i ^ 2).
Proof.
  intros n u v. apply discriminant.
  - apply sum_nonneg; intros; apply pow2_ge_0.
  - intros t.
    replace (sum n (fun i => u i ^ 2) + 2 * t * sum n (fun i => u i * v i) + t * t * sum n (fun i => v i ^ 2))
      with (sum n (fun i => (u i + t * v i) ^ 2)).
    + apply sum_nonneg; intros; apply pow2_ge_0.
    + rewrite <- !sum_scal, <- !sum_plus. apply sum_ext; intros; ring.
Qed.

(* the same for a d x d matrix's entries (the Frobenius inner product) *)
Definition fro (d : nat) (X : nat -> nat -> R) : R := sum d (fun a => sum d (fun b => X a b ^ 2)).
Definition frodot (d : nat) (X Y : nat -> nat -> R) : R := sum d (fun a => sum d (fun b => X a b * Y a b)).

Lemma fro_nonneg : forall d X, 0 <= fro d X.
Proof. intros; unfold fro; apply sum_nonneg; intros; apply sum_nonneg; intros; apply pow2_ge_0. Qed.

Theorem cauchy_schwarz_fro : forall d X Y, frodot d X Y * frodot d X Y <= fro d X * fro d Y.
Proof.
  intros d X Y. apply discriminant; [apply fro_nonneg|]. intros t.
  replace (fro d X + 2 * t * frodot d X Y + t * t * fro d Y) with (fro d (fun a b => X a b + t * Y a b)).
  + apply fro_nonneg.
  + unfold fro, frodot. rewrite <- !sum_scal, <- !sum_plus. apply sum_ext; intros a _.
    rewrite <- !sum_scal, <- !sum_plus. apply sum_ext; intros; ring.
Qed.

(* B^2 <= A C with A, C >= 0 gives B <= sqrt A sqrt C *)
Lemma le_sqrt_prod : forall A B C, 0 <= A -> 0 <= C -> B * B <= A * C -> B <= sqrt A * sqrt C.
Proof.
  intros A B C HA HC H. rewrite <- sqrt_mult_alt by exact HA.
  apply Rle_trans with (Rabs B); [apply Rle_abs|].
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr; exact H.
Qed.

(* the triangle inequality of the Frobenius norm, proved from Cauchy-Schwarz *)
Theorem fro_triangle : forall d X Y,
  sqrt (fro d (fun a b => X a b + Y a b)) <= sqrt (fro d X) + sqrt (fro d Y).
Proof.
  intros d X Y. pose proof (fro_nonneg d X) as HX. pose proof (fro_nonneg d Y) as HY.
  pose proof (le_sqrt_prod _ _ _ HX HY (cauchy_schwarz_fro d X Y)) as Hcs.
  assert (E : fro d (fun a b => X a b + Y a b) = fro d X + 2 * frodot d X Y + fro d Y).
  { unfold fro, frodot. rewrite <- sum_scal, <- !sum_plus. apply sum_ext; intros a _.
    rewrite <- sum_scal, <- !sum_plus. apply sum_ext; intros; ring. }
  rewrite <- (sqrt_pow2 (sqrt (fro d X) + sqrt (fro d Y))) by (pose proof (sqrt_pos (fro d X)); pose proof (sqrt_pos (fro d Y)); lra).
  apply sqrt_le_1_alt. rewrite E.
  replace ((sqrt (fro d X) + sqrt (fro d Y)) ^ 2) with
    (sqrt (fro d X) * sqrt (fro d X) + 2 * (sqrt (fro d X) * sqrt (fro d Y)) + sqrt (fro d Y) * sqrt (fro d Y)) by ring.
  rewrite !sqrt_sqrt by assumption. lra.
Qed.

(* -- (1), proof idea of Theorem 4: the trace identity for every d and K (K > d included) -- *)
(* sum_k p_k mu_k mu_k^T, entry (a, b); mu a k is coordinate a of the centre mu_k *)
Definition cmom (K : nat) (p : nat -> R) (mu : nat -> nat -> R) (a b : nat) : R :=
  sum K (fun k => p k * mu a k * mu b k).
(* mu_k^T mu_l in R^d *)
Definition dot (d : nat) (mu : nat -> nat -> R) (k l : nat) : R := sum d (fun a => mu a k * mu a l).

Lemma fro_minus_delta : forall n X,
  fro n (fun a b => X a b - delta a b) = fro n X - 2 * sum n (fun a => X a a) + INR n.
Proof.
  intros n X. unfold fro.
  rewrite (sum_ext n _ (fun a => sum n (fun b => X a b ^ 2) - 2 * X a a + 1)).
  - rewrite sum_plus, sum_minus, sum_scal, sum_const. ring.
  - intros a Ha. rewrite (sum_ext n _ (fun b => X a b ^ 2 - 2 * (delta a b * X a b) + delta a b * 1))
      by (intros; rewrite sq_minus_delta; ring).
    rewrite sum_plus, sum_minus, sum_scal, sum_delta_r, sum_delta_r by exact Ha. ring.
Qed.

Lemma sum_sq : forall n f, sum n f ^ 2 = sum n (fun i => sum n (fun j => f i * f j)).
Proof. intros n f. rewrite <- sum_mult. ring. Qed.

Lemma swap4 : forall n1 n2 n3 n4 g,
  sum n1 (fun a => sum n2 (fun b => sum n3 (fun k => sum n4 (fun l => g a b k l))))
  = sum n3 (fun k => sum n4 (fun l => sum n1 (fun a => sum n2 (fun b => g a b k l)))).
Proof.
  intros n1 n2 n3 n4 g.
  transitivity (sum n1 (fun a => sum n3 (fun k => sum n4 (fun l => sum n2 (fun b => g a b k l))))).
  { apply sum_ext; intros a _. rewrite sum_swap. apply sum_ext; intros k _. apply sum_swap. }
  rewrite sum_swap. apply sum_ext; intros k _. apply sum_swap.
Qed.

(* ||U U^T - I_d||^2 = ||U^T U - I_K||^2 + d - K for every d x K matrix U *)
Lemma trace_identity_U : forall d K U,
  fro d (fun a b => sum K (fun k => U a k * U b k) - delta a b)
  = fro K (fun k l => sum d (fun a => U a k * U a l) - delta k l) + INR d - INR K.
Proof.
  intros d K U. rewrite !fro_minus_delta.
  assert (Q : fro d (fun a b => sum K (fun k => U a k * U b k)) = fro K (fun k l => sum d (fun a => U a k * U a l))).
  { unfold fro.
    rewrite (sum_ext d _ (fun a => sum d (fun b => sum K (fun k => sum K (fun l => U a k * U b k * (U a l * U b l))))))
      by (intros; apply sum_ext; intros; apply sum_sq).
    rewrite swap4. apply sum_ext; intros k _. apply sum_ext; intros l _. rewrite sum_sq.
    apply sum_ext; intros; apply sum_ext; intros; ring. }
  assert (T : sum d (fun a => sum K (fun k => U a k * U a k)) = sum K (fun k => sum d (fun a => U a k * U a k)))
    by apply sum_swap.
  rewrite Q, T. ring.
Qed.

Theorem trace_gram : forall d K p mu, (forall k, (k < K)%nat -> 0 < p k) ->
  fro d (fun a b => cmom K p mu a b - delta a b)
  = fro K (fun k l => sum d (fun a => (sqrt (p k) * mu a k) * (sqrt (p l) * mu a l)) - delta k l) + INR d - INR K.
Proof.
  intros d K p mu Hp. rewrite <- (trace_identity_U d K (fun a k => sqrt (p k) * mu a k)).
  unfold fro. apply sum_ext; intros a _. apply sum_ext; intros b _. unfold cmom. do 2 f_equal.
  apply sum_ext; intros k Hk.
  replace (sqrt (p k) * mu a k * (sqrt (p k) * mu b k)) with (sqrt (p k) * sqrt (p k) * mu a k * mu b k) by ring.
  rewrite sqrt_sqrt by (left; apply Hp; exact Hk). reflexivity.
Qed.

Theorem trace_sum : forall d K p mu, (forall k, (k < K)%nat -> 0 < p k) ->
  fro K (fun k l => sum d (fun a => (sqrt (p k) * mu a k) * (sqrt (p l) * mu a l)) - delta k l) + INR d - INR K
  = fro K (fun k l => sqrt (p k * p l) * dot d mu k l - delta k l) + INR d - INR K.
Proof.
  intros d K p mu Hp. apply (f_equal (fun r => r + INR d - INR K)). unfold fro.
  apply sum_ext; intros k Hk. apply sum_ext; intros l Hl. do 2 f_equal.
  rewrite sqrt_mult_alt by (left; apply Hp; exact Hk). unfold dot. rewrite <- sum_scal.
  apply sum_ext; intros; ring.
Qed.

(* (1), last step, with the sharp factor 2: the dropped (l, k) term equals the (k, l) term *)
Theorem trace_bound_sharp : forall d K p mu k l, (forall j, (j < K)%nat -> 0 < p j) ->
  (k < K)%nat -> (l < K)%nat -> k <> l ->
  fro d (fun a b => cmom K p mu a b - delta a b) >= 2 * (p k * p l * dot d mu k l ^ 2) + INR d - INR K.
Proof.
  intros d K p mu k l Hp Hk Hl Hkl. rewrite trace_gram by exact Hp. rewrite trace_sum by exact Hp.
  set (h := fun k' l' => (sqrt (p k' * p l') * dot d mu k' l' - delta k' l') ^ 2).
  assert (Hh : forall k' l', 0 <= h k' l') by (intros; apply pow2_ge_0).
  assert (Hrow : forall k' l', (l' < K)%nat -> h k' l' <= sum K (fun j => h k' j))
    by (intros; apply (sum_ge_one K (fun j => h k' j)); [intros; apply Hh | assumption]).
  assert (H2 : sum K (fun j => h k j) + sum K (fun j => h l j) <= fro K (fun k' l' => sqrt (p k' * p l') * dot d mu k' l' - delta k' l'))
    by (apply (sum_ge_two K (fun i => sum K (fun j => h i j))); auto; intros; apply sum_nonneg; intros; apply Hh).
  assert (Ekl : h k l = p k * p l * dot d mu k l ^ 2).
  { unfold h, delta. destruct (Nat.eqb_spec k l) as [E|_]; [contradiction|].
    rewrite Rminus_0_r, Rpow_mult_distr, pow2_sqrt; [reflexivity|].
    apply Rmult_le_pos; left; apply Hp; assumption. }
  assert (Elk : h l k = p k * p l * dot d mu k l ^ 2).
  { unfold h, delta. destruct (Nat.eqb_spec l k) as [E|_]; [symmetry in E; contradiction|].
    rewrite Rminus_0_r, Rpow_mult_distr, pow2_sqrt by (apply Rmult_le_pos; left; apply Hp; assumption).
    unfold dot. rewrite (sum_ext d (fun a => mu a l * mu a k) (fun a => mu a k * mu a l)) by (intros; ring). ring. }
  pose proof (Hrow k l Hl). pose proof (Hrow l k Hk). lra.
Qed.

(* (1) as printed: factor 1 (implied by the sharp factor 2) *)
Theorem trace_bound : forall d K p mu k l, (forall j, (j < K)%nat -> 0 < p j) ->
  (k < K)%nat -> (l < K)%nat -> k <> l ->
  fro d (fun a b => cmom K p mu a b - delta a b) >= p k * p l * dot d mu k l ^ 2 + INR d - INR K.
Proof.
  intros d K p mu k l Hp Hk Hl Hkl. pose proof (trace_bound_sharp d K p mu k l Hp Hk Hl Hkl).
  assert (0 <= p k * p l * dot d mu k l ^ 2).
  { apply Rmult_le_pos; [apply Rmult_le_pos; left; apply Hp; assumption | apply pow2_ge_0]. }
  lra.
Qed.

(* -- Theorem 4: for every matrix C (the cross-correlation of any encoder), every d, K, p > 0, mu, k <> l and every
   tau >= ||C - sum_k p_k mu_k mu_k^T||^2 -- *)
(* the chain: ||M - I|| <= ||M - C|| + ||C - I|| <= sqrt tau + sqrt L_2, (sqrt tau + sqrt L_2)^2 <= 2 (tau + L_2),
   and (1) with the sharp factor 2 *)
Lemma theorem4_chain : forall d K p mu (C : nat -> nat -> R) tau k l, (forall j, (j < K)%nat -> 0 < p j) ->
  (k < K)%nat -> (l < K)%nat -> k <> l ->
  fro d (fun a b => C a b - cmom K p mu a b) <= tau ->
  p k * p l * dot d mu k l ^ 2 <= fro d (fun a b => C a b - delta a b) + tau - (INR d - INR K) / 2.
Proof.
  intros d K p mu C tau k l Hp Hk Hl Hkl Htau.
  pose proof (fro_triangle d (fun a b => cmom K p mu a b - C a b) (fun a b => C a b - delta a b)) as Htri.
  assert (E1 : fro d (fun a b => cmom K p mu a b - C a b + (C a b - delta a b))
               = fro d (fun a b => cmom K p mu a b - delta a b))
    by (unfold fro; apply sum_ext; intros; apply sum_ext; intros; f_equal; ring).
  assert (E2 : fro d (fun a b => cmom K p mu a b - C a b) = fro d (fun a b => C a b - cmom K p mu a b))
    by (unfold fro; apply sum_ext; intros; apply sum_ext; intros; ring).
  cbv beta in Htri. rewrite E1, E2 in Htri.
  pose proof (trace_bound_sharp d K p mu k l Hp Hk Hl Hkl) as Htb.
  revert Htri Htb Htau.
  generalize (fro d (fun a b => cmom K p mu a b - delta a b)) (fro_nonneg d (fun a b => cmom K p mu a b - delta a b)).
  generalize (fro d (fun a b => C a b - cmom K p mu a b)) (fro_nonneg d (fun a b => C a b - cmom K p mu a b)).
  generalize (fro d (fun a b => C a b - delta a b)) (fro_nonneg d (fun a b => C a b - delta a b)).
  intros L2 HL2 T HT X2 HX2 Htri Htb Htau.
  assert (Hst : sqrt T <= sqrt tau) by (apply sqrt_le_1_alt; exact Htau).
  pose proof (sqrt_pos X2). pose proof (sqrt_pos tau). pose proof (sqrt_pos L2).
  assert (Hsq : sqrt X2 * sqrt X2 <= (sqrt tau + sqrt L2) * (sqrt tau + sqrt L2))
    by (apply Rmult_le_compat; lra).
  assert (Hs2 : (sqrt tau + sqrt L2) * (sqrt tau + sqrt L2) <= 2 * (sqrt tau * sqrt tau + sqrt L2 * sqrt L2))
    by (pose proof (Rle_0_sqr (sqrt tau - sqrt L2)); unfold Rsqr in *; nra).
  rewrite sqrt_sqrt in Hsq by exact HX2. rewrite !sqrt_sqrt in Hs2 by lra. lra.
Qed.

(* p t^2 <= Y with p > 0 and c >= 1 give t <= sqrt(c / p Y) *)
Lemma solve_for_t : forall c pp t Y, 0 < pp -> 1 <= c -> pp * t ^ 2 <= Y -> t <= sqrt (c / pp * Y).
Proof.
  intros c pp t Y Hpp Hc HY.
  assert (HY0 : 0 <= Y) by (pose proof (pow2_ge_0 t); nra).
  assert (Htt : t * t <= c / pp * Y).
  { replace (t * t) with (1 / pp * (pp * t ^ 2)) by (field; lra).
    replace (c / pp * Y) with (c * (1 / pp * Y)) by (field; lra).
    assert (0 < 1 / pp) by (apply Rdiv_lt_0_compat; lra).
    assert (1 / pp * (pp * t ^ 2) <= 1 / pp * Y) by (apply Rmult_le_compat_l; lra).
    assert (0 <= 1 / pp * Y) by (apply Rmult_le_pos; lra). nra. }
  apply Rle_trans with (Rabs t); [apply Rle_abs|].
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr. exact Htt.
Qed.

(* the constant 1 (sharp for the chain) *)
Theorem theorem4_sharp : forall d K p mu (C : nat -> nat -> R) tau k l, (forall j, (j < K)%nat -> 0 < p j) ->
  (k < K)%nat -> (l < K)%nat -> k <> l ->
  fro d (fun a b => C a b - cmom K p mu a b) <= tau ->
  dot d mu k l <= sqrt (1 / (p k * p l) * (fro d (fun a b => C a b - delta a b) + tau - (INR d - INR K) / 2)).
Proof.
  intros d K p mu C tau k l Hp Hk Hl Hkl Htau. apply solve_for_t.
  - apply Rmult_lt_0_compat; apply Hp; assumption.
  - lra.
  - exact (theorem4_chain d K p mu C tau k l Hp Hk Hl Hkl Htau).
Qed.

(* Theorem 4 as printed: the constant 2 *)
Theorem theorem4 : forall d K p mu (C : nat -> nat -> R) tau k l, (forall j, (j < K)%nat -> 0 < p j) ->
  (k < K)%nat -> (l < K)%nat -> k <> l ->
  fro d (fun a b => C a b - cmom K p mu a b) <= tau ->
  dot d mu k l <= sqrt (2 / (p k * p l) * (fro d (fun a b => C a b - delta a b) + tau - (INR d - INR K) / 2)).
Proof.
  intros d K p mu C tau k l Hp Hk Hl Hkl Htau. apply solve_for_t.
  - apply Rmult_lt_0_compat; apply Hp; assumption.
  - lra.
  - exact (theorem4_chain d K p mu C tau k l Hp Hk Hl Hkl Htau).
Qed.

(* -- Lemma 2, the alignment of Barlow Twins -- *)
(* The data: n samples x with masses w x; each sample's augmentation set A(x) is a finite distribution over m
   slots with probabilities q x i (uniform on A(x): q x i = 1/|A(x)| on |A(x)| slots, 0 on the others);
   F x i a = f_a at augmentation i of x (coordinate a of f, a < d); x1, x2 independent given x. *)
Definition Lpos n m d (w : nat -> R) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R) : R :=
  sum n (fun x => w x * sum m (fun i => sum m (fun j => q x i * q x j * sum d (fun a => (F x i a - F x j a) ^ 2)))).
(* C_aa = E_x E_{x1, x2} f_a(x1) f_a(x2) *)
Definition Cdiag n m (w : nat -> R) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R) (a : nat) : R :=
  sum n (fun x => w x * sum m (fun i => sum m (fun j => q x i * q x j * (F x i a * F x j a)))).
(* E_x E_{x' in A(x)} f_a(x')^2 *)
Definition Esq n m (w : nat -> R) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R) (a : nat) : R :=
  sum n (fun x => w x * sum m (fun i => q x i * F x i a ^ 2)).
(* L_1 = sum_a (1 - C_aa)^2 *)
Definition L1 n m d w q F : R := sum d (fun a => (1 - Cdiag n m w q F a) ^ 2).

(* step 1: L_positive = sum_a (2 E f_a^2 - 2 C_aa) *)
Theorem lemma2_alignment : forall n m d w q F, (forall x, (x < n)%nat -> sum m (q x) = 1) ->
  Lpos n m d w q F = sum d (fun a => 2 * Esq n m w q F a - 2 * Cdiag n m w q F a).
Proof.
  intros n m d w q F Hq. unfold Lpos, Esq, Cdiag.
  rewrite (sum_ext d _ (fun a => sum n (fun x => w x * (2 * sum m (fun i => q x i * F x i a ^ 2)
      - 2 * sum m (fun i => sum m (fun j => q x i * q x j * (F x i a * F x j a))))))).
  2: { intros a _. rewrite <- !sum_scal, <- sum_minus. apply sum_ext; intros; ring. }
  rewrite <- sum_swap. apply sum_ext; intros x Hx. rewrite sum_scal. f_equal.
  (* one sample x: sum_ij q_i q_j ||F_i - F_j||^2 = sum_a (2 sum_i q_i F_ia^2 - 2 sum_ij q_i q_j F_ia F_ja) *)
  assert (Hsq : forall a, sum m (fun i => q x i * F x i a ^ 2)
                          = sum m (fun i => sum m (fun j => q x i * q x j * F x i a ^ 2))).
  { intros a. rewrite <- (Rmult_1_r (sum m (fun i => q x i * F x i a ^ 2))), <- (Hq x Hx), sum_mult.
    apply sum_ext; intros; apply sum_ext; intros; ring. }
  assert (Hsq' : forall a, sum m (fun i => q x i * F x i a ^ 2)
                           = sum m (fun i => sum m (fun j => q x i * q x j * F x j a ^ 2))).
  { intros a. rewrite <- (Rmult_1_l (sum m (fun i => q x i * F x i a ^ 2))), <- (Hq x Hx), sum_mult.
    apply sum_ext; intros; apply sum_ext; intros; ring. }
  rewrite (sum_ext d _ (fun a => sum m (fun i => sum m (fun j => q x i * q x j * F x i a ^ 2))
      + sum m (fun i => sum m (fun j => q x i * q x j * F x j a ^ 2))
      - 2 * sum m (fun i => sum m (fun j => q x i * q x j * (F x i a * F x j a))))).
  2: { intros a _. rewrite <- Hsq, <- Hsq'. ring. }
  rewrite sum_minus, sum_plus, sum_scal.
  rewrite (sum_swap d m), (sum_swap d m), (sum_swap d m).
  rewrite <- sum_scal, <- sum_plus, <- sum_minus. apply sum_ext; intros i _.
  rewrite (sum_swap d m), (sum_swap d m), (sum_swap d m).
  rewrite <- sum_scal, <- sum_plus, <- sum_minus. apply sum_ext; intros j _.
  rewrite <- sum_scal. rewrite <- !sum_scal, <- sum_plus, <- sum_minus. apply sum_ext; intros; ring.
Qed.

(* Lemma 2: under E f_a^2 = 1 for each a, L_positive <= 2 sqrt(d L_1) *)
Theorem lemma2 : forall n m d w q F, (forall x, (x < n)%nat -> sum m (q x) = 1) ->
  (forall a, (a < d)%nat -> Esq n m w q F a = 1) ->
  Lpos n m d w q F <= 2 * sqrt (INR d * L1 n m d w q F).
Proof.
  intros n m d w q F Hq HE. rewrite lemma2_alignment by exact Hq.
  rewrite (sum_ext d _ (fun a => 2 * ((1 - Cdiag n m w q F a) * 1))) by (intros a Ha; rewrite HE by exact Ha; ring).
  rewrite sum_scal. apply Rmult_le_compat_l; [lra|].
  pose proof (cauchy_schwarz d (fun a => 1 - Cdiag n m w q F a) (fun _ => 1)) as Hcs. cbv beta in Hcs.
  rewrite (sum_ext d (fun _ => 1 ^ 2) (fun _ => 1)) in Hcs by (intros; ring). rewrite sum_const in Hcs.
  unfold L1. rewrite Rmult_comm, sqrt_mult_alt by (apply sum_nonneg; intros; apply pow2_ge_0).
  apply le_sqrt_prod; [apply sum_nonneg; intros; apply pow2_ge_0 | apply pos_INR | lra].
Qed.

(* -- the cross-correlation decomposition: every d, every matrix C, every lambda -- *)
Theorem crosscorr_decomposition : forall d (C : nat -> nat -> R) lam,
  sum d (fun i => (1 - C i i) ^ 2) + lam * sum d (fun i => sum d (fun j => (1 - delta i j) * C i j ^ 2))
  = (1 - lam) * sum d (fun i => (1 - C i i) ^ 2) + lam * fro d (fun i j => C i j - delta i j).
Proof.
  intros d C lam. unfold fro.
  assert (H : forall i, (i < d)%nat -> sum d (fun j => (C i j - delta i j) ^ 2)
                = sum d (fun j => (1 - delta i j) * C i j ^ 2) + (1 - C i i) ^ 2).
  { intros i Hi. rewrite (sum_ext d _ (fun j => (1 - delta i j) * C i j ^ 2 + delta i j * (1 - C i j) ^ 2))
      by (intros; unfold delta; destruct (Nat.eqb i i0); ring).
    rewrite sum_plus, sum_delta_r by exact Hi. reflexivity. }
  rewrite (sum_ext d _ _ H), sum_plus. ring.
Qed.

(* -- the NN classifier is linear: argmin_k ||z - mu_k|| = argmax_k (W z + b)_k as sets, W_k = mu_k,
      b_k = -||mu_k||^2/2 (every d, K, z; ties included) -- *)
Definition score d (mu : nat -> nat -> R) (z : nat -> R) (k : nat) : R :=
  sum d (fun a => mu a k * z a) + - (1 / 2) * sum d (fun a => mu a k ^ 2).
Definition dist d (mu : nat -> nat -> R) (z : nat -> R) (k : nat) : R := sqrt (sum d (fun a => (z a - mu a k) ^ 2)).

Lemma dist_score : forall d mu z k, sum d (fun a => (z a - mu a k) ^ 2) = sum d (fun a => z a ^ 2) - 2 * score d mu z k.
Proof.
  intros. unfold score. rewrite <- !sum_scal, <- sum_plus, <- sum_scal, <- sum_minus. apply sum_ext; intros; field.
Qed.

(* the score identity behind it: -||z - mu_k||^2/2 = (W z + b)_k - ||z||^2/2 *)
Theorem nn_scores_identity : forall d mu z k,
  - sum d (fun a => (z a - mu a k) ^ 2) / 2 = score d mu z k - sum d (fun a => z a ^ 2) / 2.
Proof. intros. rewrite dist_score. field. Qed.

Theorem nn_argmin_argmax : forall d K mu z k, (k < K)%nat ->
  ((forall j, (j < K)%nat -> dist d mu z k <= dist d mu z j) <->
   (forall j, (j < K)%nat -> score d mu z j <= score d mu z k)).
Proof.
  intros d K mu z k Hk. unfold dist. split; intros H j Hj; specialize (H j Hj).
  - apply sqrt_le_0 in H; try (apply sum_nonneg; intros; apply pow2_ge_0).
    rewrite !dist_score in H. lra.
  - apply sqrt_le_1_alt. rewrite !dist_score. lra.
Qed.

(* -- the simple contrastive loss: x, x' independent (masses w x w x'), x1 in A(x) and x- in A(x')
      (probabilities q x i, q x' l): E f(x1)^T f(x-) = ||E_x E_{x1} f(x1)||^2, every n, m, d -- *)
Theorem simple_contrastive : forall n m d (w : nat -> R) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R),
  sum n (fun x => sum n (fun y => w x * w y * sum m (fun i => sum m (fun l =>
      q x i * q y l * sum d (fun a => F x i a * F y l a)))))
  = sum d (fun a => sum n (fun x => w x * sum m (fun i => q x i * F x i a)) ^ 2).
Proof.
  intros n m d w q F.
  set (G := fun a x y i l => w x * w y * (q x i * q y l * (F x i a * F y l a))).
  (* both sides are the same 5-fold finite sum over (a, x, y, i, l) *)
  transitivity (sum n (fun x => sum n (fun y => sum m (fun i => sum m (fun l => sum d (fun a => G a x y i l)))))).
  { apply sum_ext; intros x _; apply sum_ext; intros y _. rewrite <- sum_scal.
    apply sum_ext; intros i _. rewrite <- sum_scal. apply sum_ext; intros l _. rewrite <- !sum_scal.
    apply sum_ext; intros; unfold G; ring. }
  etransitivity.
  { apply sum_ext; intros x _; apply sum_ext; intros y _; apply sum_ext; intros i _; apply sum_swap. }
  etransitivity. { apply sum_ext; intros x _; apply sum_ext; intros y _; apply sum_swap. }
  etransitivity. { apply sum_ext; intros x _; apply sum_swap. }
  rewrite sum_swap. apply sum_ext; intros a _. rewrite sum_sq. apply sum_ext; intros x _. apply sum_ext; intros y _.
  replace (w x * sum m (fun i => q x i * F x i a) * (w y * sum m (fun i => q y i * F y i a)))
    with (w x * w y * (sum m (fun i => q x i * F x i a) * sum m (fun i => q y i * F y i a))) by ring.
  rewrite sum_mult, <- sum_scal. apply sum_ext; intros i _. rewrite <- sum_scal. apply sum_ext; intros; unfold G; ring.
Qed.

(* -- Theorem 2, the first step of its proof (not printed in the slides): main-part samples inside S_eps are
   embedded within L delta + 2 eps of each other. Vectors of R^m (inputs) and R^d (embeddings) are functions
   nat -> R; f is any map; A(x), A(y) are the finite augmentation sets (lists); L is a Lipschitz constant of f on
   the augmented inputs; d_A(x, y) <= delta (x, y in one main part C^0_k) gives x' in A(x), y' in A(y) with
   ||x' - y'|| <= delta; x, y in S_eps bound the spread of f on A(x) and A(y) by eps. -- *)
From Coq Require Import List.

Definition vnorm (n : nat) (u : nat -> R) : R := sqrt (sum n (fun i => u i ^ 2)).
Definition vsub (u v : nat -> R) : nat -> R := fun i => u i - v i.

Lemma vnorm_nonneg : forall n u, 0 <= vnorm n u.
Proof. intros; apply sqrt_pos. Qed.

Theorem vec_triangle : forall n u v, vnorm n (fun i => u i + v i) <= vnorm n u + vnorm n v.
Proof.
  intros n u v. unfold vnorm.
  assert (Hu : 0 <= sum n (fun i => u i ^ 2)) by (apply sum_nonneg; intros; apply pow2_ge_0).
  assert (Hv : 0 <= sum n (fun i => v i ^ 2)) by (apply sum_nonneg; intros; apply pow2_ge_0).
  pose proof (le_sqrt_prod _ _ _ Hu Hv (cauchy_schwarz n u v)) as Hcs.
  assert (E : sum n (fun i => (u i + v i) ^ 2)
              = sum n (fun i => u i ^ 2) + 2 * sum n (fun i => u i * v i) + sum n (fun i => v i ^ 2)).
  { rewrite <- sum_scal, <- !sum_plus. apply sum_ext; intros; ring. }
  rewrite <- (sqrt_pow2 (sqrt (sum n (fun i => u i ^ 2)) + sqrt (sum n (fun i => v i ^ 2))))
    by (pose proof (sqrt_pos (sum n (fun i => u i ^ 2))); pose proof (sqrt_pos (sum n (fun i => v i ^ 2))); lra).
  apply sqrt_le_1_alt. rewrite E.
  replace ((sqrt (sum n (fun i => u i ^ 2)) + sqrt (sum n (fun i => v i ^ 2))) ^ 2) with
    (sqrt (sum n (fun i => u i ^ 2)) * sqrt (sum n (fun i => u i ^ 2))
     + 2 * (sqrt (sum n (fun i => u i ^ 2)) * sqrt (sum n (fun i => v i ^ 2)))
     + sqrt (sum n (fun i => v i ^ 2)) * sqrt (sum n (fun i => v i ^ 2))) by ring.
  rewrite !sqrt_sqrt by assumption. lra.
Qed.

Lemma vdist_triangle : forall n a b c, vnorm n (vsub a c) <= vnorm n (vsub a b) + vnorm n (vsub b c).
Proof.
  intros n a b c. unfold vsub.
  replace (vnorm n (fun i => a i - c i)) with (vnorm n (fun i => (a i - b i) + (b i - c i))).
  - apply vec_triangle.
  - unfold vnorm; f_equal; apply sum_ext; intros; ring_simplify; reflexivity.
Qed.

Theorem main_close : forall (m d : nat) (f : (nat -> R) -> (nat -> R)) (L delta eps : R)
  (Ax Ay : list (nat -> R)) (x1 y1 : nat -> R),
  0 <= L ->
  (forall a b, In a (Ax ++ Ay) -> In b (Ax ++ Ay) -> vnorm d (vsub (f a) (f b)) <= L * vnorm m (vsub a b)) ->
  (exists x' y', In x' Ax /\ In y' Ay /\ vnorm m (vsub x' y') <= delta) ->
  (forall a b, In a Ax -> In b Ax -> vnorm d (vsub (f a) (f b)) <= eps) ->
  (forall a b, In a Ay -> In b Ay -> vnorm d (vsub (f a) (f b)) <= eps) ->
  In x1 Ax -> In y1 Ay ->
  vnorm d (vsub (f x1) (f y1)) <= L * delta + 2 * eps.
Proof.
  intros m d f L delta eps Ax Ay x1 y1 HL Hlip [x' [y' [Hx' [Hy' Hd]]]] HSx HSy Hx1 Hy1.
  pose proof (vdist_triangle d (f x1) (f x') (f y1)) as T1.
  pose proof (vdist_triangle d (f x') (f y') (f y1)) as T2.
  pose proof (HSx x1 x' Hx1 Hx') as E1. pose proof (HSy y' y1 Hy' Hy1) as E2.
  pose proof (Hlip x' y' ltac:(apply in_or_app; now left) ltac:(apply in_or_app; now right)) as Hxy.
  assert (L * vnorm m (vsub x' y') <= L * delta) by (apply Rmult_le_compat_l; assumption).
  lra.
Qed.

(* -- Theorem 1 with the constant the checker derives for finite uniform augmentation sets: n samples with masses
   w x >= 0 summing to 1, each A(x) uniform on a >= 1 augmentations with embeddings F x i in R^d;
   L_align = E_x E_{x1, x2 in A(x)} ||f(x1) - f(x2)||^2 (all a^2 ordered pairs), R_eps = the mass of the samples
   outside S_eps, i.e. with some pair of augmentations embedded more than eps apart. Then
   L_align >= 2 eps^2 R_eps / a^2 (theorem1_step) and R_eps^2 <= a^2/2 * L_align / eps^2 (theorem1_main):
   eta(eps) = a / (sqrt 2 eps) = O(1/eps). -- *)
Definition sqdist (d : nat) (u v : nat -> R) : R := sum d (fun c => (u c - v c) ^ 2).
Definition Lalign (n a d : nat) (w : nat -> R) (F : nat -> nat -> nat -> R) : R :=
  sum n (fun x => w x * (sum a (fun i => sum a (fun j => sqdist d (F x i) (F x j))) / (INR a * INR a))).
Definition Reps (n : nat) (w : nat -> R) (out : nat -> bool) : R :=
  sum n (fun x => w x * (if out x then 1 else 0)).

Lemma sqdist_nonneg : forall d u v, 0 <= sqdist d u v.
Proof. intros; unfold sqdist; apply sum_nonneg; intros; apply pow2_ge_0. Qed.

Lemma sqdist_self : forall d u, sqdist d u u = 0.
Proof. intros; unfold sqdist; apply sum_zero; intros; ring. Qed.

Lemma sqdist_sym : forall d u v, sqdist d u v = sqdist d v u.
Proof. intros; unfold sqdist; apply sum_ext; intros; ring. Qed.

(* one sample outside S_eps: its a^2 ordered pairs hold the far pair and its reverse *)
Lemma pairs_ge : forall a d (G : nat -> nat -> R) (eps : R) i j, (i < a)%nat -> (j < a)%nat ->
  eps ^ 2 < sqdist d (G i) (G j) ->
  2 * eps ^ 2 <= sum a (fun i' => sum a (fun j' => sqdist d (G i') (G j'))).
Proof.
  intros a d G eps i j Hi Hj Hfar.
  assert (Hij : i <> j) by (intros ->; rewrite sqdist_self in Hfar; pose proof (pow2_ge_0 eps); lra).
  assert (Hrows : forall i', (i' < a)%nat -> 0 <= sum a (fun j' => sqdist d (G i') (G j')))
    by (intros; apply sum_nonneg; intros; apply sqdist_nonneg).
  pose proof (sum_ge_two a (fun i' => sum a (fun j' => sqdist d (G i') (G j'))) i j Hrows Hi Hj Hij) as Htwo.
  pose proof (sum_ge_one a (fun j' => sqdist d (G i) (G j')) j (fun j' _ => sqdist_nonneg d _ _) Hj) as Hrow_i.
  pose proof (sum_ge_one a (fun j' => sqdist d (G j) (G j')) i (fun j' _ => sqdist_nonneg d _ _) Hi) as Hrow_j.
  simpl in Hrow_i, Hrow_j. rewrite sqdist_sym in Hrow_j. lra.
Qed.

Theorem theorem1_step : forall n a d (w : nat -> R) (F : nat -> nat -> nat -> R) (out : nat -> bool) (eps : R),
  (1 <= a)%nat -> (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x, (x < n)%nat -> out x = true ->
     exists i j, (i < a)%nat /\ (j < a)%nat /\ eps ^ 2 < sqdist d (F x i) (F x j)) ->
  2 * eps ^ 2 * Reps n w out / (INR a * INR a) <= Lalign n a d w F.
Proof.
  intros n a d w F out eps Ha Hw Hout. unfold Lalign, Reps.
  assert (Hpos : 0 < INR a * INR a) by (assert (0 < INR a) by (apply lt_0_INR; lia); nra).
  unfold Rdiv at 1. rewrite Rmult_comm, <- sum_scal, <- sum_scal. apply sum_le. intros x Hx.
  specialize (Hw x Hx).
  assert (Hs : 0 <= sum a (fun i => sum a (fun j => sqdist d (F x i) (F x j))))
    by (apply sum_nonneg; intros; apply sum_nonneg; intros; apply sqdist_nonneg).
  destruct (out x) eqn:Eo.
  - destruct (Hout x Hx Eo) as [i [j [Hi [Hj Hfar]]]].
    pose proof (pairs_ge a d (F x) eps i j Hi Hj Hfar) as Hp.
    assert (Hne : INR a <> 0) by (apply not_0_INR; lia).
    replace (/ (INR a * INR a) * (2 * eps ^ 2 * (w x * 1))) with (w x * (2 * eps ^ 2 / (INR a * INR a)))
      by (field; exact Hne).
    apply Rmult_le_compat_l; [exact Hw|]. unfold Rdiv.
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; exact Hpos | exact Hp].
  - replace (/ (INR a * INR a) * (2 * eps ^ 2 * (w x * 0))) with 0 by ring.
    apply Rmult_le_pos; [exact Hw|]. unfold Rdiv; apply Rmult_le_pos; [exact Hs | left; apply Rinv_0_lt_compat; lra].
Qed.

Theorem theorem1_main : forall n a d (w : nat -> R) (F : nat -> nat -> nat -> R) (out : nat -> bool) (eps : R),
  (1 <= a)%nat -> 0 < eps -> (forall x, (x < n)%nat -> 0 <= w x) -> sum n w = 1 ->
  (forall x, (x < n)%nat -> out x = true ->
     exists i j, (i < a)%nat /\ (j < a)%nat /\ eps ^ 2 < sqdist d (F x i) (F x j)) ->
  Reps n w out ^ 2 <= INR a ^ 2 / 2 * Lalign n a d w F / eps ^ 2.
Proof.
  intros n a d w F out eps Ha He Hw Hsum Hout.
  assert (Hne : INR a <> 0) by (apply not_0_INR; lia).
  assert (Hepsne : eps <> 0) by (apply Rgt_not_eq; exact He).
  pose proof (theorem1_step n a d w F out eps Ha Hw Hout) as Hstep.
  assert (Hr0 : 0 <= Reps n w out)
    by (unfold Reps; apply sum_nonneg; intros x Hx; destruct (out x); pose proof (Hw x Hx); lra).
  assert (Hr1 : Reps n w out <= 1).
  { rewrite <- Hsum. unfold Reps. apply sum_le. intros x Hx. pose proof (Hw x Hx). destruct (out x); lra. }
  assert (Ha0 : 0 < INR a) by (apply lt_0_INR; lia).
  assert (He2 : 0 < eps ^ 2) by (apply pow_lt; exact He).
  assert (Hsq : Reps n w out ^ 2 <= Reps n w out) by nra.
  apply Rle_trans with (1 := Hsq).
  apply (Rmult_le_reg_r (2 * eps ^ 2 / (INR a * INR a))).
  - unfold Rdiv; apply Rmult_lt_0_compat; [lra | apply Rinv_0_lt_compat; nra].
  - replace (INR a ^ 2 / 2 * Lalign n a d w F / eps ^ 2 * (2 * eps ^ 2 / (INR a * INR a)))
      with (Lalign n a d w F) by (field; split; assumption).
    replace (Reps n w out * (2 * eps ^ 2 / (INR a * INR a))) with (2 * eps ^ 2 * Reps n w out / (INR a * INR a))
      by (field; exact Hne).
    exact Hstep.
Qed.
