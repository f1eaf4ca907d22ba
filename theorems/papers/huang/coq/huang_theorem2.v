(* Huang, Yi, Zhao, Jiang (ICLR 2023 slides, 004_86d461343230f9e1.txt), Theorem 2 (Main Result), for EVERY
   finite data distribution: n samples x with masses w x >= 0 summing to 1 and latent classes lab x < K, each
   augmentation set A(x) a finite distribution over m slots with probabilities q x i (uniform on A(x): q = 1/|A(x)|
   on |A(x)| slots, 0 elsewhere), X x i the augmented input of slot i (in R^e) and F x i = f(X x i) its embedding
   (in R^d); expectations are finite weighted sums, vectors are functions nat -> R read on 0..d-1, and
   sum n g = g 0 + ... + g (n - 1) is defined by recursion on n, so every theorem holds for every size.

   The slides print no proof. The proof here (the checker's, issue 32):
   1. main-part samples inside S_eps embed within s = L delta + 2 eps of each other (main_close);
   2. for x in C^0_k n S_eps and u = f(x_i), the class centre mu_k is a convex combination of norm-r vectors, the
      good ones (samples of C^0_k n S_eps) within s of u, the others of total weight c <= (1 - sigma) + R_eps/p_min
      (Definition 1 and R_eps); if some mu_l (l <> k) were at least as close to u as mu_k, then
      mu_k.mu_l + r^2 Delta_mu/2 >= r^2 (1 - 2c - (1 - c) t - (1 - c) D^2/2), t = s/r, D = ||u - mu_k||/r
      <= (1 - c) t + 2c (centre_lower);
   3. an inequality of real numbers (scalar_rho): 2c + (1 - c) t + (1 - c) D^2/2 <= rho + sqrt (2 rho) whenever
      rho + sqrt (2 rho) < 2, rho = rho_max = 2a + beta + (1 - a) t, a = 1 - sigma, beta = R_eps/p_min; and when
      rho + sqrt (2 rho) >= 2 the divergence condition cannot hold (|mu_k.mu_l| <= r^2, Delta_mu >= 0);
   4. so the divergence condition makes G_f correct on (C^0_1 u ... u C^0_K) n S_eps (theorem2_main_part), and
      Lemma 1's counting gives Err(G_f) <= (1 - sigma) + R_eps (theorem2).
   The printed rho_max charges R_eps/min_l p_l once, although a sample outside S_eps can pull mu_k twice as far
   as its mass (the bound f(x).mu_k >= r^2 (1 - rho_max) that a direct argument would need fails); the slack of
   the sqrt(2 rho_max) term absorbs it, which is why the theorem holds as printed.
   Standalone: coqc -q huang_theorem2.v *)
From Coq Require Import Reals Lra Lia Arith.
Open Scope R_scope.

(* sum n g = g 0 + g 1 + ... + g (n - 1), every n *)
Fixpoint sum (n : nat) (g : nat -> R) : R :=
  match n with O => 0 | S k => sum k g + g k end.

Definition dot (d : nat) (u v : nat -> R) : R := sum d (fun a => u a * v a).
Definition vnorm (d : nat) (u : nat -> R) : R := sqrt (dot d u u).
Definition vsub (u v : nat -> R) : nat -> R := fun a => u a - v a.
Definition ind (b : bool) : R := if b then 1 else 0.

(* the indicator of class k, the class masses p_k, the class centres
   mu_k = E_{x in C_k} E_{x' in A(x)} f(x') = (1/p_k) sum_x [lab x = k] w x sum_i q x i F x i,
   R_eps = P[x not in S_eps] over the samples marked outside S_eps, and rho_max as printed *)
Definition cls (lab : nat -> nat) (k x : nat) : R := if Nat.eqb (lab x) k then 1 else 0.
Definition pk (n : nat) (w : nat -> R) (lab : nat -> nat) (k : nat) : R := sum n (fun x => cls lab k x * w x).
Definition mu (n m : nat) (w : nat -> R) (q : nat -> nat -> R) (F : nat -> nat -> nat -> R) (lab : nat -> nat)
  (k : nat) : nat -> R :=
  fun a => sum n (fun x => cls lab k x * w x * sum m (fun i => q x i * F x i a)) / pk n w lab k.
Definition Reps (n : nat) (w : nat -> R) (inS : nat -> bool) : R := sum n (fun x => w x * ind (negb (inS x))).
Definition rho_max (sigma Re pmin L delta eps r : R) : R :=
  2 * (1 - sigma) + Re / pmin + sigma * (L * delta / r + 2 * eps / r).

(* -- step 3: the inequality of real numbers ------------------------------------------------------------- *)
Theorem scalar_rho : forall a beta t c D,
  0 <= a < 1 -> 0 <= beta -> 0 <= t -> 0 <= c <= 1 -> c <= a + beta -> 0 <= D <= (1 - c) * t + 2 * c ->
  2 * a + beta + (1 - a) * t + sqrt (2 * (2 * a + beta + (1 - a) * t)) < 2 ->
  2 * c + (1 - c) * t + (1 - c) * D ^ 2 / 2
    <= 2 * a + beta + (1 - a) * t + sqrt (2 * (2 * a + beta + (1 - a) * t)).
Proof.
  intros a beta t c D Ha Hb Ht Hc Hca HD Hlt.
  assert (Hat : 0 <= (1 - a) * t) by (apply Rmult_le_pos; lra).
  set (rho := 2 * a + beta + (1 - a) * t) in *.
  assert (Hrho0 : 0 <= rho) by (unfold rho; lra).
  assert (Hbr : beta <= rho) by (unfold rho; lra).
  set (S := sqrt (2 * rho)) in *.
  assert (HS0 : 0 <= S) by apply sqrt_pos.
  assert (HS2 : S * S = 2 * rho) by (apply sqrt_sqrt; lra).
  (* t <= 2, else rho > 2 *)
  assert (Ht2 : t <= 2).
  { destruct (Rle_lt_dec t 2) as [H|H]; [exact H|].
    assert (0 < (1 - a) * (t - 2)) by (apply Rmult_lt_0_compat; lra). unfold rho in Hlt. lra. }
  (* E = (1 - c) t + 2 c - rho = (c - a)(2 - t) - beta is at most beta and at most c *)
  assert (HE : (1 - c) * t + 2 * c - rho <= beta /\ (1 - c) * t + 2 * c - rho <= c).
  { replace ((1 - c) * t + 2 * c - rho) with ((c - a) * (2 - t) - beta) by (unfold rho; ring).
    destruct (Rle_lt_dec a c) as [Hac|Hac].
    - assert ((c - a) * (2 - t) <= beta * (2 - t)) by (apply Rmult_le_compat_r; lra).
      assert (0 <= beta * t) by (apply Rmult_le_pos; lra).
      assert (0 <= (c - a) * t) by (apply Rmult_le_pos; lra). nra.
    - assert ((c - a) * (2 - t) <= 0) by nra. lra. }
  destruct HE as [HEb HEc].
  assert (HD2 : D <= 2 * rho) by lra.
  assert (HDsq : D ^ 2 <= 4 * rho ^ 2) by nra.
  assert (HcD : (1 - c) * D ^ 2 <= (1 - c) * (4 * rho ^ 2)) by (apply Rmult_le_compat_l; lra).
  (* it remains: E + (1 - c) D^2 / 2 <= S *)
  destruct (Rle_lt_dec S 1) as [HS1|HS1].
  - (* rho <= 1/2: E + (1 - c) D^2/2 <= rho + 2 rho^2 <= 2 rho = S^2 <= S *)
    assert (HSS : S * S <= S) by nra.
    assert (Hr2 : 2 * rho ^ 2 <= rho) by nra.
    assert ((1 - c) * (4 * rho ^ 2) <= 4 * rho ^ 2) by nra.
    lra.
  - (* rho > 1/2: S^2 + 2 S < 4 gives S < 5/4, so S^3 < 2 and 2 rho^2 = S^4 / 2 <= S *)
    assert (HS54 : S < 5 / 4) by nra.
    assert (HS3 : S * S * S <= 2) by nra.
    assert (Hr2 : 2 * rho ^ 2 <= S).
    { replace (2 * rho ^ 2) with (S * (S * S * S) / 2) by (assert (Er : rho = S * S / 2) by lra; rewrite Er; field).
      nra. }
    assert ((1 - c) * (4 * rho ^ 2) <= (1 - c) * (2 * S)) by (apply Rmult_le_compat_l; lra).
    assert (c * 1 <= c * S) by (apply Rmult_le_compat_l; lra).
    lra.
Qed.

(* -- auxiliary: finite sums ---------------------------------------------------------------------------- *)
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

Lemma sum_scal_r : forall n c f, sum n (fun i => f i * c) = sum n f * c.
Proof. induction n as [|n IH]; intros c f; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sum_zero : forall n f, (forall i, (i < n)%nat -> f i = 0) -> sum n f = 0.
Proof.
  induction n as [|n IH]; intros f H; simpl; [reflexivity|].
  rewrite (IH f) by (intros; apply H; lia). rewrite H by lia. lra.
Qed.

Lemma sum_swap : forall n m f,
  sum n (fun i => sum m (fun j => f i j)) = sum m (fun j => sum n (fun i => f i j)).
Proof.
  induction n as [|n IH]; intros m f; simpl.
  - symmetry; apply sum_zero; reflexivity.
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

(* double sums over samples x < n and slots i < m *)
Lemma sum2_le : forall n m f g, (forall x i, (x < n)%nat -> (i < m)%nat -> f x i <= g x i) ->
  sum n (fun x => sum m (fun i => f x i)) <= sum n (fun x => sum m (fun i => g x i)).
Proof. intros n m f g H. apply sum_le; intros x Hx. apply sum_le; intros i Hi. apply H; assumption. Qed.

Lemma sum2_lin : forall n m al be f g,
  sum n (fun x => sum m (fun i => al * f x i + be * g x i))
  = al * sum n (fun x => sum m (fun i => f x i)) + be * sum n (fun x => sum m (fun i => g x i)).
Proof.
  intros. rewrite <- !sum_scal, <- sum_plus. apply sum_ext; intros x _.
  rewrite <- !sum_scal, <- sum_plus. reflexivity.
Qed.

Lemma sum2_scal : forall n m al f,
  sum n (fun x => sum m (fun i => al * f x i)) = al * sum n (fun x => sum m (fun i => f x i)).
Proof. intros. rewrite <- sum_scal. apply sum_ext; intros x _. apply sum_scal. Qed.

(* a convex combination of indicators lies in [0, 1] *)
Lemma comb_ind_bounds : forall n m (W : nat -> nat -> R) (b : nat -> nat -> bool),
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= W x i) -> sum n (fun x => sum m (fun i => W x i)) = 1 ->
  0 <= sum n (fun x => sum m (fun i => W x i * ind (b x i))) <= 1.
Proof.
  intros n m W b HW H1. split.
  - apply sum_nonneg; intros x Hx; apply sum_nonneg; intros i Hi.
    pose proof (HW x i Hx Hi). unfold ind; destruct (b x i); lra.
  - rewrite <- H1. apply sum2_le; intros x i Hx Hi.
    pose proof (HW x i Hx Hi). unfold ind; destruct (b x i); lra.
Qed.

(* -- auxiliary: dot, vnorm, Cauchy-Schwarz, the triangle inequality -------------------------------------- *)
Lemma dot_comm : forall d u v, dot d u v = dot d v u.
Proof. intros; unfold dot; apply sum_ext; intros; ring. Qed.

Lemma dot_ext : forall d u u' v v',
  (forall a, (a < d)%nat -> u a = u' a) -> (forall a, (a < d)%nat -> v a = v' a) ->
  dot d u v = dot d u' v'.
Proof.
  intros d u u' v v' Hu Hv; unfold dot; apply sum_ext; intros a Ha; rewrite Hu, Hv by exact Ha; reflexivity.
Qed.

Lemma vnorm_ext : forall d u u', (forall a, (a < d)%nat -> u a = u' a) -> vnorm d u = vnorm d u'.
Proof. intros d u u' H; unfold vnorm; rewrite (dot_ext d u u' u u') by exact H; reflexivity. Qed.

Lemma dot_self_nonneg : forall d u, 0 <= dot d u u.
Proof. intros; unfold dot; apply sum_nonneg; intros; apply Rle_0_sqr. Qed.

Lemma vnorm_nonneg : forall d u, 0 <= vnorm d u.
Proof. intros; apply sqrt_pos. Qed.

Lemma vnorm_sq : forall d u, vnorm d u ^ 2 = dot d u u.
Proof. intros; unfold vnorm; apply pow2_sqrt, dot_self_nonneg. Qed.

Lemma dot_scal_l : forall d c u v, dot d (fun a => c * u a) v = c * dot d u v.
Proof. intros; unfold dot; rewrite <- sum_scal; apply sum_ext; intros; ring. Qed.

Lemma dot_vsub_l : forall d u v y, dot d (vsub u v) y = dot d u y - dot d v y.
Proof. intros; unfold dot, vsub; rewrite <- sum_minus; apply sum_ext; intros; ring. Qed.

Lemma dot_vsub_self : forall d u v, dot d (vsub u v) (vsub u v) = dot d u u - 2 * dot d u v + dot d v v.
Proof.
  intros; unfold dot, vsub. rewrite <- sum_scal, <- sum_minus, <- sum_plus. apply sum_ext; intros; ring.
Qed.

Lemma dot_sum_l : forall d n (U : nat -> nat -> R) v,
  dot d (fun a => sum n (fun j => U j a)) v = sum n (fun j => dot d (U j) v).
Proof.
  intros; unfold dot.
  rewrite (sum_ext d _ (fun a => sum n (fun j => U j a * v a))) by (intros; symmetry; apply sum_scal_r).
  apply sum_swap.
Qed.

(* the dot product of a double convex combination *)
Lemma dot_comb_l : forall d n m (W : nat -> nat -> R) (V : nat -> nat -> nat -> R) y,
  dot d (fun a => sum n (fun x => sum m (fun i => W x i * V x i a))) y
  = sum n (fun x => sum m (fun i => W x i * dot d (V x i) y)).
Proof.
  intros. rewrite dot_sum_l. apply sum_ext; intros x _. rewrite dot_sum_l.
  apply sum_ext; intros i _. apply dot_scal_l.
Qed.

(* Cauchy-Schwarz: a quadratic t |-> A + 2 t B + t^2 C that is never negative has B^2 <= A C *)
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

Theorem cauchy_schwarz : forall d u v, dot d u v * dot d u v <= dot d u u * dot d v v.
Proof.
  intros d u v. apply discriminant; [apply dot_self_nonneg|]. intros t.
  replace (dot d u u + 2 * t * dot d u v + t * t * dot d v v)
    with (dot d (fun a => u a + t * v a) (fun a => u a + t * v a)).
  - apply dot_self_nonneg.
  - unfold dot. rewrite <- !sum_scal, <- !sum_plus. apply sum_ext; intros; ring.
Qed.

(* B^2 <= A C with A, C >= 0 gives B <= sqrt A sqrt C *)
Lemma le_sqrt_prod : forall A B C, 0 <= A -> 0 <= C -> B * B <= A * C -> B <= sqrt A * sqrt C.
Proof.
  intros A B C HA HC H. rewrite <- sqrt_mult_alt by exact HA.
  apply Rle_trans with (Rabs B); [apply Rle_abs|].
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr; exact H.
Qed.

Lemma dot_le_norm : forall d u v, dot d u v <= vnorm d u * vnorm d v.
Proof.
  intros; unfold vnorm; apply le_sqrt_prod; [apply dot_self_nonneg | apply dot_self_nonneg | apply cauchy_schwarz].
Qed.

Lemma dot_ge_norm : forall d u v, - (vnorm d u * vnorm d v) <= dot d u v.
Proof.
  intros d u v. cut (- dot d u v <= vnorm d u * vnorm d v); [lra|].
  unfold vnorm; apply le_sqrt_prod; [apply dot_self_nonneg | apply dot_self_nonneg |].
  pose proof (cauchy_schwarz d u v). lra.
Qed.

(* x, y >= 0 and x^2 <= y^2 give x <= y *)
Lemma sq_le_nonneg : forall x y, 0 <= y -> x * x <= y * y -> x <= y.
Proof. intros x y Hy H. destruct (Rle_lt_dec x y) as [|Hlt]; [assumption|]. nra. Qed.

Theorem vnorm_triangle : forall d u v, vnorm d (fun a => u a + v a) <= vnorm d u + vnorm d v.
Proof.
  intros d u v. pose proof (vnorm_nonneg d u). pose proof (vnorm_nonneg d v).
  apply sq_le_nonneg; [lra|].
  assert (E : dot d (fun a => u a + v a) (fun a => u a + v a) = dot d u u + 2 * dot d u v + dot d v v).
  { unfold dot. rewrite <- sum_scal, <- !sum_plus. apply sum_ext; intros; ring. }
  pose proof (vnorm_sq d u). pose proof (vnorm_sq d v). pose proof (vnorm_sq d (fun a => u a + v a)).
  pose proof (dot_le_norm d u v). nra.
Qed.

Lemma vnorm_scal : forall d c u, 0 <= c -> vnorm d (fun a => c * u a) = c * vnorm d u.
Proof.
  intros d c u Hc. unfold vnorm.
  replace (dot d (fun a => c * u a) (fun a => c * u a)) with ((c * c) * dot d u u)
    by (unfold dot; rewrite <- sum_scal; apply sum_ext; intros; ring).
  rewrite sqrt_mult_alt by (apply Rle_0_sqr). rewrite sqrt_square by exact Hc. reflexivity.
Qed.

Lemma vnorm_opp : forall d u, vnorm d (fun a => - u a) = vnorm d u.
Proof. intros; unfold vnorm, dot; f_equal; apply sum_ext; intros; ring. Qed.

Lemma vnorm_vsub_sym : forall d u v, vnorm d (vsub u v) = vnorm d (vsub v u).
Proof. intros; unfold vnorm, dot, vsub; f_equal; apply sum_ext; intros; ring. Qed.

Lemma vnorm_vsub_le : forall d u v, vnorm d (vsub u v) <= vnorm d u + vnorm d v.
Proof.
  intros d u v. rewrite <- (vnorm_opp d v). apply (vnorm_triangle d u (fun a => - v a)).
Qed.

Lemma vdist_triangle : forall d a b c, vnorm d (vsub a c) <= vnorm d (vsub a b) + vnorm d (vsub b c).
Proof.
  intros d a b c.
  replace (vnorm d (vsub a c)) with (vnorm d (fun i => vsub a b i + vsub b c i)).
  - apply vnorm_triangle.
  - apply vnorm_ext; intros; unfold vsub; ring.
Qed.

Lemma vnorm_zero : forall d, vnorm d (fun _ => 0) = 0.
Proof.
  intros d. unfold vnorm, dot. rewrite (sum_zero d) by (intros; ring). apply sqrt_0.
Qed.

(* the norm of a sum is at most the sum of the norms *)
Lemma vnorm_sum : forall d n (U : nat -> nat -> R),
  vnorm d (fun a => sum n (fun j => U j a)) <= sum n (fun j => vnorm d (U j)).
Proof.
  intros d n U. induction n as [|n IH].
  - simpl. rewrite vnorm_zero. lra.
  - simpl. eapply Rle_trans; [apply (vnorm_triangle d (fun a => sum n (fun j => U j a)) (U n))|]. lra.
Qed.

(* the norm of a (double) combination with non-negative weights *)
Lemma vnorm_comb_le : forall n m d (W : nat -> nat -> R) (Z : nat -> nat -> nat -> R),
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= W x i) ->
  vnorm d (fun a => sum n (fun x => sum m (fun i => W x i * Z x i a)))
    <= sum n (fun x => sum m (fun i => W x i * vnorm d (Z x i))).
Proof.
  intros n m d W Z HW.
  eapply Rle_trans; [apply (vnorm_sum d n (fun x a => sum m (fun i => W x i * Z x i a)))|].
  apply sum_le; intros x Hx.
  eapply Rle_trans; [apply (vnorm_sum d m (fun i a => W x i * Z x i a))|].
  apply sum_le; intros i Hi. rewrite vnorm_scal by (apply HW; assumption). lra.
Qed.

(* u minus a convex combination is the combination of the differences *)
Lemma comb_sub : forall n m (W : nat -> nat -> R) (V : nat -> nat -> R) u0,
  sum n (fun x => sum m (fun i => W x i * (u0 - V x i)))
  = sum n (fun x => sum m (fun i => W x i)) * u0 - sum n (fun x => sum m (fun i => W x i * V x i)).
Proof.
  intros. rewrite <- sum_scal_r, <- sum_minus. apply sum_ext; intros x _.
  rewrite <- sum_scal_r, <- sum_minus. apply sum_ext; intros; ring.
Qed.

(* -- step 2, with a double index (samples x < n, slots i < m), the form in which mu is built; the weight c of
   the non-good terms is named, M is the combination (coordinates below d) -- *)
Theorem centre_lower_double : forall (n m d : nat) (W : nat -> nat -> R) (V : nat -> nat -> nat -> R)
  (good : nat -> nat -> bool) (M u y : nat -> R) (r s c : R),
  0 < r -> 0 <= s ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= W x i) -> sum n (fun x => sum m (fun i => W x i)) = 1 ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < W x i -> vnorm d (V x i) = r) ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < W x i -> good x i = true -> vnorm d (vsub (V x i) u) <= s) ->
  (forall a, (a < d)%nat -> M a = sum n (fun x => sum m (fun i => W x i * V x i a))) ->
  c = sum n (fun x => sum m (fun i => W x i * ind (negb (good x i)))) ->
  vnorm d u = r -> vnorm d y <= r -> vnorm d (vsub u y) <= vnorm d (vsub u M) ->
  vnorm d (vsub u M) <= (1 - c) * s + 2 * c * r /\
  r ^ 2 * (1 - 2 * c) - (1 - c) * s * r - (1 - c) * vnorm d (vsub u M) ^ 2 / 2
    <= dot d M y + (r ^ 2 - dot d y y) / 2.
Proof.
  intros n m d W V good M u y r s c Hr Hs HW0 HW1 HV Hgood HM Hc Hu Hy Hclose.
  assert (Hcb : 0 <= c <= 1) by (rewrite Hc; apply comb_ind_bounds; assumption).
  pose proof (vnorm_nonneg d y) as Hh0.
  (* (i) D <= sum W ||u - V|| <= (1 - c) s + 2 c r *)
  assert (HD : vnorm d (vsub u M) <= (1 - c) * s + 2 * c * r).
  { rewrite (vnorm_ext d (vsub u M) (fun a => sum n (fun x => sum m (fun i => W x i * (u a - V x i a))))).
    2: { intros a Ha. unfold vsub. rewrite HM by exact Ha. rewrite comb_sub, HW1. ring. }
    eapply Rle_trans; [apply (vnorm_comb_le n m d W (fun x i a => u a - V x i a) HW0)|].
    eapply Rle_trans;
      [apply (sum2_le n m _ (fun x i => s * W x i + (2 * r - s) * (W x i * ind (negb (good x i)))))|].
    - intros x i Hx Hi. pose proof (HW0 x i Hx Hi) as Hw.
      destruct (Rle_lt_or_eq_dec _ _ Hw) as [Hpos|Hz]; [| rewrite <- Hz; lra].
      change (fun a => u a - V x i a) with (vsub u (V x i)).
      destruct (good x i) eqn:Eg; unfold ind; simpl.
      + rewrite vnorm_vsub_sym. pose proof (Hgood x i Hx Hi Hpos Eg).
        assert (W x i * vnorm d (vsub (V x i) u) <= W x i * s) by (apply Rmult_le_compat_l; lra). lra.
      + pose proof (vnorm_vsub_le d u (V x i)). rewrite Hu, (HV x i Hx Hi Hpos) in H.
        assert (W x i * vnorm d (vsub u (V x i)) <= W x i * (r + r)) by (apply Rmult_le_compat_l; lra). lra.
    - rewrite sum2_lin, HW1, <- Hc. lra. }
  split; [exact HD|].
  (* (ii) mu.y >= (1 - c)(u.y - s h) - c r h *)
  set (h := vnorm d y) in *. set (U := dot d u y).
  assert (Hlow : (1 - c) * (U - s * h) - c * r * h <= dot d M y).
  { rewrite (dot_ext d M _ y y HM (fun _ _ => eq_refl)), dot_comb_l.
    eapply Rle_trans;
      [|apply (sum2_le n m (fun x i => (U - s * h) * W x i
                                        + (- r * h - (U - s * h)) * (W x i * ind (negb (good x i)))))].
    - rewrite sum2_lin, HW1, <- Hc. lra.
    - intros x i Hx Hi. pose proof (HW0 x i Hx Hi) as Hw.
      destruct (Rle_lt_or_eq_dec _ _ Hw) as [Hpos|Hz]; [| rewrite <- Hz; lra].
      destruct (good x i) eqn:Eg; unfold ind; simpl.
      + pose proof (Hgood x i Hx Hi Hpos Eg) as Hg.
        pose proof (dot_ge_norm d (vsub (V x i) u) y) as Hcs. rewrite dot_vsub_l in Hcs. fold h in Hcs.
        assert (vnorm d (vsub (V x i) u) * h <= s * h) by (apply Rmult_le_compat_r; lra).
        assert (W x i * (U - s * h) <= W x i * dot d (V x i) y) by (apply Rmult_le_compat_l; unfold U; lra). lra.
      + pose proof (dot_ge_norm d (V x i) y) as Hcs. rewrite (HV x i Hx Hi Hpos) in Hcs. fold h in Hcs.
        assert (W x i * (- (r * h)) <= W x i * dot d (V x i) y) by (apply Rmult_le_compat_l; lra). lra. }
  (* (iii) 2 u.y = r^2 + h^2 - ||u - y||^2 and ||u - y|| <= D *)
  set (D := vnorm d (vsub u M)) in *.
  assert (HU : U = (r ^ 2 + h ^ 2 - vnorm d (vsub u y) ^ 2) / 2).
  { unfold U, h. rewrite !vnorm_sq, dot_vsub_self, <- Hu, vnorm_sq. field. }
  assert (Hyy : dot d y y = h ^ 2) by (unfold h; rewrite vnorm_sq; reflexivity).
  pose proof (vnorm_nonneg d (vsub u y)) as Huy0.
  assert (Hsq : vnorm d (vsub u y) ^ 2 <= D ^ 2) by nra.
  rewrite HU in Hlow. rewrite Hyy.
  (* (iv) phi(h) >= phi(r) for 0 <= h <= r *)
  assert (0 <= (1 - c) * (D ^ 2 - vnorm d (vsub u y) ^ 2)) by (apply Rmult_le_pos; lra).
  assert (0 <= c * ((r - h) * (r + h))) by (apply Rmult_le_pos; [lra | apply Rmult_le_pos; lra]).
  assert (0 <= (1 - c) * s * (r - h)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  assert (0 <= c * r * (r - h)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  nra.
Qed.

(* -- step 2 (single index): a point u of norm r and a convex combination mu of vectors of norm r, the good ones
   within s of u and the others of total weight c; y of norm <= r at least as close to u as mu: then
   mu.y + (r^2 - y.y)/2 >= r^2 (1 - 2c) - (1 - c) s r - (1 - c) D^2/2 with D = ||u - mu|| <= (1 - c) s + 2 c r. *)
Theorem centre_lower : forall (N d : nat) (W : nat -> R) (V : nat -> nat -> R) (good : nat -> bool)
  (u y : nat -> R) (r s : R),
  0 < r -> 0 <= s ->
  (forall j, (j < N)%nat -> 0 <= W j) -> sum N W = 1 ->
  (forall j, (j < N)%nat -> 0 < W j -> vnorm d (V j) = r) ->
  (forall j, (j < N)%nat -> 0 < W j -> good j = true -> vnorm d (vsub (V j) u) <= s) ->
  vnorm d u = r -> vnorm d y <= r ->
  vnorm d (vsub u y) <= vnorm d (vsub u (fun a => sum N (fun j => W j * V j a))) ->
  let c := sum N (fun j => W j * ind (negb (good j))) in
  let D := vnorm d (vsub u (fun a => sum N (fun j => W j * V j a))) in
  D <= (1 - c) * s + 2 * c * r /\
  r ^ 2 * (1 - 2 * c) - (1 - c) * s * r - (1 - c) * D ^ 2 / 2
    <= dot d (fun a => sum N (fun j => W j * V j a)) y + (r ^ 2 - dot d y y) / 2.
Proof.
  intros N d W V good u y r s Hr Hs HW0 HW1 HV Hgood Hu Hy Hclose c D.
  (* one slot per index: m = 1 *)
  apply (centre_lower_double N 1 d (fun j _ => W j) (fun j _ => V j) (fun j _ => good j)); try assumption.
  - intros j i Hj _. apply HW0; exact Hj.
  - rewrite <- HW1. apply sum_ext; intros; simpl; ring.
  - intros j i Hj _. apply HV; exact Hj.
  - intros j i Hj _. apply Hgood; exact Hj.
  - intros a _. apply sum_ext; intros; simpl; ring.
  - unfold c. apply sum_ext; intros; simpl; ring.
Qed.

(* -- auxiliary: class indicators, class weights ------------------------------------------------------------ *)
Lemma cls_01 : forall lab k x, cls lab k x = 0 \/ cls lab k x = 1.
Proof. intros; unfold cls; destruct (Nat.eqb (lab x) k); auto. Qed.

Lemma cls_one : forall lab k x, cls lab k x <> 0 -> lab x = k.
Proof. intros lab k x H; unfold cls in H; destruct (Nat.eqb_spec (lab x) k); [assumption | lra]. Qed.

(* a sample of a class below K is counted once by the K class indicators *)
Lemma sum_cls : forall K lab x, (lab x < K)%nat -> sum K (fun k => cls lab k x) = 1.
Proof.
  induction K as [|K IH]; intros lab x Hx; [lia|]. simpl.
  destruct (Nat.eq_dec (lab x) K) as [E|E].
  - rewrite sum_zero.
    + unfold cls. rewrite E, Nat.eqb_refl. ring.
    + intros k Hk. unfold cls. destruct (Nat.eqb_spec (lab x) k); [lia | reflexivity].
  - rewrite IH by lia. unfold cls. destruct (Nat.eqb_spec (lab x) K); [contradiction | ring].
Qed.

(* the weights of mu_j: cls lab j x w x q x i / p_j; sums of them against a function of the sample *)
Lemma centre_weight_sum : forall n m w q lab j (b : nat -> R),
  (forall x, (x < n)%nat -> sum m (q x) = 1) -> pk n w lab j <> 0 ->
  sum n (fun x => sum m (fun i => cls lab j x * w x * q x i / pk n w lab j * b x))
  = sum n (fun x => cls lab j x * w x * b x) / pk n w lab j.
Proof.
  intros n m w q lab j b Hq Hp. unfold Rdiv at 2. rewrite <- sum_scal_r. apply sum_ext; intros x Hx.
  transitivity (cls lab j x * w x * b x * / pk n w lab j * sum m (q x)).
  - rewrite <- sum_scal. apply sum_ext; intros; unfold Rdiv; ring.
  - rewrite Hq by exact Hx. ring.
Qed.

Lemma mu_comb : forall n m w q F lab j a,
  mu n m w q F lab j a = sum n (fun x => sum m (fun i => cls lab j x * w x * q x i / pk n w lab j * F x i a)).
Proof.
  intros. unfold mu, Rdiv. rewrite <- sum_scal_r. apply sum_ext; intros x _.
  transitivity (cls lab j x * w x * / pk n w lab j * sum m (fun i => q x i * F x i a)); [ring|].
  rewrite <- sum_scal. apply sum_ext; intros; ring.
Qed.

(* -- step 1: two main-part samples of one class inside S_eps embed within L delta + 2 eps -- *)
Theorem main_close : forall (n m d e : nat) (q : nat -> nat -> R) (X F : nat -> nat -> nat -> R)
  (lab : nat -> nat) (main inS : nat -> bool) (L delta eps : R),
  0 <= L ->
  (forall x i y j, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> (y < n)%nat -> (j < m)%nat -> 0 < q y j ->
     vnorm d (vsub (F x i) (F y j)) <= L * vnorm e (vsub (X x i) (X y j))) ->
  (forall x y, (x < n)%nat -> (y < n)%nat -> main x = true -> main y = true -> lab x = lab y ->
     exists i j, (i < m)%nat /\ (j < m)%nat /\ 0 < q x i /\ 0 < q y j /\ vnorm e (vsub (X x i) (X y j)) <= delta) ->
  (forall x i j, (x < n)%nat -> inS x = true -> (i < m)%nat -> (j < m)%nat -> 0 < q x i -> 0 < q x j ->
     vnorm d (vsub (F x i) (F x j)) <= eps) ->
  forall x i y j, (x < n)%nat -> (y < n)%nat -> (i < m)%nat -> (j < m)%nat -> 0 < q x i -> 0 < q y j ->
    main x = true -> main y = true -> inS x = true -> inS y = true -> lab x = lab y ->
    vnorm d (vsub (F x i) (F y j)) <= L * delta + 2 * eps.
Proof.
  intros n m d e q X F lab main inS L delta eps HL Hlip Hdef HS x i y j Hx Hy Hi Hj Hqi Hqj Hmx Hmy Hsx Hsy Hlab.
  destruct (Hdef x y Hx Hy Hmx Hmy Hlab) as [i' [j' [Hi' [Hj' [Hqi' [Hqj' Hd]]]]]].
  pose proof (vdist_triangle d (F x i) (F x i') (F y j)) as T1.
  pose proof (vdist_triangle d (F x i') (F y j') (F y j)) as T2.
  pose proof (HS x i i' Hx Hsx Hi Hi' Hqi Hqi') as E1. pose proof (HS y j' j Hy Hsy Hj' Hj Hqj' Hqj) as E2.
  pose proof (Hlip x i' y j' Hx Hi' Hqi' Hy Hj' Hqj') as Hxy.
  assert (L * vnorm e (vsub (X x i') (X y j')) <= L * delta) by (apply Rmult_le_compat_l; assumption).
  lra.
Qed.

(* the weights of mu_j are non-negative, sum to 1, and are positive only on slots of class-j samples with q > 0 *)
Lemma centre_weights : forall n m w q lab j,
  (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= q x i) ->
  (forall x, (x < n)%nat -> sum m (q x) = 1) -> 0 < pk n w lab j ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= cls lab j x * w x * q x i / pk n w lab j) /\
  sum n (fun x => sum m (fun i => cls lab j x * w x * q x i / pk n w lab j)) = 1 /\
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < cls lab j x * w x * q x i / pk n w lab j ->
     lab x = j /\ 0 < q x i).
Proof.
  intros n m w q lab j Hw Hq0 Hq1 Hp. split; [|split].
  - intros x i Hx Hi. pose proof (Hw x Hx). pose proof (Hq0 x i Hx Hi).
    unfold Rdiv. apply Rmult_le_pos; [|left; apply Rinv_0_lt_compat; exact Hp].
    destruct (cls_01 lab j x) as [E|E]; rewrite E; [lra|].
    apply Rmult_le_pos; lra.
  - rewrite (sum_ext n _ (fun x => sum m (fun i => cls lab j x * w x * q x i / pk n w lab j * (fun _ => 1) x)))
      by (intros; apply sum_ext; intros; ring).
    rewrite centre_weight_sum by (assumption || lra).
    rewrite (sum_ext n _ (fun x => cls lab j x * w x)) by (intros; cbv beta; ring).
    change (pk n w lab j / pk n w lab j = 1). field. lra.
  - intros x i Hx Hi Hpos. split.
    + apply (cls_one lab j x). intro E. rewrite E in Hpos. unfold Rdiv in Hpos. lra.
    + destruct (Rle_lt_or_eq_dec _ _ (Hq0 x i Hx Hi)) as [H|H]; [exact H|].
      rewrite <- H in Hpos. unfold Rdiv in Hpos. lra.
Qed.

(* a class centre mu_j (p_j > 0) is a convex combination of norm-r vectors: ||mu_j|| <= r *)
Lemma mu_norm_le : forall n m d w q F lab j r,
  (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= q x i) ->
  (forall x, (x < n)%nat -> sum m (q x) = 1) -> 0 < pk n w lab j ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> vnorm d (F x i) = r) ->
  vnorm d (mu n m w q F lab j) <= r.
Proof.
  intros n m d w q F lab j r Hw Hq0 Hq1 Hp HF.
  destruct (centre_weights n m w q lab j Hw Hq0 Hq1 Hp) as [HW0 [HW1 HWpos]].
  rewrite (vnorm_ext d _ _ (fun a _ => mu_comb n m w q F lab j a)).
  eapply Rle_trans; [apply vnorm_comb_le; exact HW0|].
  eapply Rle_trans; [apply (sum2_le n m _ (fun x i => r * (cls lab j x * w x * q x i / pk n w lab j)))|].
  - intros x i Hx Hi. destruct (Rle_lt_or_eq_dec _ _ (HW0 x i Hx Hi)) as [Hpos|Hz].
    + rewrite (HF x i Hx Hi (proj2 (HWpos x i Hx Hi Hpos))). lra.
    + rewrite <- Hz. lra.
  - rewrite sum2_scal, HW1. lra.
Qed.

(* the weight of mu_k on samples outside C^0_k n S_eps is at most (1 - sigma) + R_eps / p_k *)
Lemma bad_weight_le : forall n m w q lab (main inS : nat -> bool) k sigma,
  (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x, (x < n)%nat -> sum m (q x) = 1) -> 0 < pk n w lab k ->
  sum n (fun x => cls lab k x * w x * ind (main x)) >= sigma * pk n w lab k ->
  sum n (fun x => sum m (fun i => cls lab k x * w x * q x i / pk n w lab k * ind (negb (andb (main x) (inS x)))))
    <= (1 - sigma) + Reps n w inS / pk n w lab k.
Proof.
  intros n m w q lab main inS k sigma Hw Hq1 Hp Hdef.
  rewrite (centre_weight_sum n m w q lab k (fun x => ind (negb (andb (main x) (inS x))))) by (assumption || lra).
  assert (Hsum : sum n (fun x => cls lab k x * w x * ind (negb (andb (main x) (inS x))))
                 <= sum n (fun x => cls lab k x * w x - cls lab k x * w x * ind (main x)) + Reps n w inS).
  { unfold Reps. rewrite <- sum_plus. apply sum_le; intros x Hx. pose proof (Hw x Hx).
    unfold ind; destruct (main x), (inS x); simpl; destruct (cls_01 lab k x) as [E|E]; rewrite E; lra. }
  rewrite sum_minus in Hsum. fold (pk n w lab k) in Hsum.
  apply (Rmult_le_reg_r (pk n w lab k)); [exact Hp|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
  replace (((1 - sigma) + Reps n w inS * / pk n w lab k) * pk n w lab k)
    with ((1 - sigma) * pk n w lab k + Reps n w inS) by (field; lra).
  lra.
Qed.

(* -- Theorem 2, its intermediate claim: the divergence condition makes G_f correct on the main parts inside
   S_eps. Hypotheses, in the order of the slides: the data (masses, augmentation distributions, classes; pmin
   any positive lower bound of the class masses, min_l p_l being one); the encoder (||f(x')|| = r on every
   augmented input, L-Lipschitz on them); Definition 1 with the main parts C^0_k = {x : main x = true} (any
   subsets satisfying it); the samples marked inS are eps-aligned (S_eps itself is one such marking, and then
   Reps is R_eps); Delta any number >= 1 - ||mu_k||^2/r^2 for every k (Delta_mu is one); the divergence
   condition with rho_max as printed. Conclusion: every slot of every main-part sample inside S_eps is strictly
   closer to its own class centre than to any other (a tie would be a mistake). *)
Theorem theorem2_main_part : forall (n m K d e : nat) (w : nat -> R) (q : nat -> nat -> R)
  (X F : nat -> nat -> nat -> R) (lab : nat -> nat) (main inS : nat -> bool)
  (r L sigma delta eps pmin Delta : R),
  (forall x, (x < n)%nat -> 0 <= w x) ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= q x i) ->
  (forall x, (x < n)%nat -> sum m (q x) = 1) ->
  (forall x, (x < n)%nat -> (lab x < K)%nat) ->
  0 < pmin -> (forall k, (k < K)%nat -> pmin <= pk n w lab k) ->
  0 < r -> 0 <= L ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> vnorm d (F x i) = r) ->
  (forall x i y j, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> (y < n)%nat -> (j < m)%nat -> 0 < q y j ->
     vnorm d (vsub (F x i) (F y j)) <= L * vnorm e (vsub (X x i) (X y j))) ->
  0 < sigma <= 1 -> 0 <= delta ->
  (forall k, (k < K)%nat -> sum n (fun x => cls lab k x * w x * ind (main x)) >= sigma * pk n w lab k) ->
  (forall x y, (x < n)%nat -> (y < n)%nat -> main x = true -> main y = true -> lab x = lab y ->
     exists i j, (i < m)%nat /\ (j < m)%nat /\ 0 < q x i /\ 0 < q y j /\ vnorm e (vsub (X x i) (X y j)) <= delta) ->
  0 <= eps ->
  (forall x i j, (x < n)%nat -> inS x = true -> (i < m)%nat -> (j < m)%nat -> 0 < q x i -> 0 < q x j ->
     vnorm d (vsub (F x i) (F x j)) <= eps) ->
  (forall k, (k < K)%nat -> 1 - dot d (mu n m w q F lab k) (mu n m w q F lab k) / r ^ 2 <= Delta) ->
  (forall k l, (k < K)%nat -> (l < K)%nat -> k <> l ->
     dot d (mu n m w q F lab l) (mu n m w q F lab k)
       < r ^ 2 * (1 - rho_max sigma (Reps n w inS) pmin L delta eps r
                    - sqrt (2 * rho_max sigma (Reps n w inS) pmin L delta eps r) - Delta / 2)) ->
  forall x i l, (x < n)%nat -> main x = true -> inS x = true -> (i < m)%nat -> 0 < q x i -> (l < K)%nat ->
    l <> lab x ->
    vnorm d (vsub (F x i) (mu n m w q F lab (lab x))) < vnorm d (vsub (F x i) (mu n m w q F lab l)).
Proof.
  intros n m K d e w q X F lab main inS r L sigma delta eps pmin Delta
    Hw Hq0 Hq1 Hlab Hpmin Hpk Hr HL HF Hlip Hsig Hdelta Hdef Hdef2 Heps HS HDelta Hdiv
    x i l Hx Hmain HinS Hi Hqi Hl Hlx.
  set (k := lab x) in *.
  assert (Hk : (k < K)%nat) by (apply Hlab; exact Hx).
  assert (Hpk_k : 0 < pk n w lab k) by (pose proof (Hpk k Hk); lra).
  assert (Hpk_l : 0 < pk n w lab l) by (pose proof (Hpk l Hl); lra).
  pose proof (mu_norm_le n m d w q F lab k r Hw Hq0 Hq1 Hpk_k HF) as Hmk.
  pose proof (mu_norm_le n m d w q F lab l r Hw Hq0 Hq1 Hpk_l HF) as Hml.
  pose proof (vnorm_nonneg d (mu n m w q F lab k)) as Hmk0.
  pose proof (vnorm_nonneg d (mu n m w q F lab l)) as Hml0.
  pose proof (Hdiv k l Hk Hl (fun E => Hlx (eq_sym E))) as Hd.
  pose proof (HDelta k Hk) as HDk. pose proof (HDelta l Hl) as HDl.
  set (mk := mu n m w q F lab k) in *. set (ml := mu n m w q F lab l) in *.
  (* rho_max = 2a + beta + (1 - a) t *)
  assert (HRe : 0 <= Reps n w inS).
  { unfold Reps. apply sum_nonneg; intros x' Hx'. pose proof (Hw x' Hx').
    unfold ind; destruct (negb (inS x')); lra. }
  assert (Hrho : rho_max sigma (Reps n w inS) pmin L delta eps r
                 = 2 * (1 - sigma) + Reps n w inS / pmin + (1 - (1 - sigma)) * ((L * delta + 2 * eps) / r))
    by (unfold rho_max; field; lra).
  rewrite Hrho in Hd. clear Hrho.
  set (a := 1 - sigma) in *. set (beta := Reps n w inS / pmin) in *. set (t := (L * delta + 2 * eps) / r) in *.
  set (rho := 2 * a + beta + (1 - a) * t) in *.
  assert (Hs : 0 <= L * delta + 2 * eps) by (pose proof (Rmult_le_pos L delta HL Hdelta); lra).
  assert (Hst : L * delta + 2 * eps = r * t) by (unfold t; field; lra).
  assert (Ht : 0 <= t) by (unfold t, Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (Hbeta : 0 <= beta) by (unfold beta, Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  (* Delta_mu bounds: r^2 - ||mu_j||^2 <= r^2 Delta *)
  assert (Hr2 : 0 < r ^ 2) by (apply pow_lt; exact Hr).
  assert (HDk' : r ^ 2 - dot d mk mk <= r ^ 2 * Delta).
  { replace (r ^ 2 - dot d mk mk) with (r ^ 2 * (1 - dot d mk mk / r ^ 2)) by (field; lra).
    apply Rmult_le_compat_l; lra. }
  assert (HDl' : r ^ 2 - dot d ml ml <= r ^ 2 * Delta).
  { replace (r ^ 2 - dot d ml ml) with (r ^ 2 * (1 - dot d ml ml / r ^ 2)) by (field; lra).
    apply Rmult_le_compat_l; lra. }
  apply Rnot_le_lt. intro Hclose.
  destruct (Rlt_or_le (rho + sqrt (2 * rho)) 2) as [Hsmall|Hbig].
  2: { (* rho + sqrt (2 rho) >= 2: the divergence condition cannot hold, |mu_l.mu_k| <= r^2 and Delta >= 0 *)
    pose proof (dot_ge_norm d ml mk) as Hcs.
    assert (Hmm : vnorm d ml * vnorm d mk <= r * r) by (apply Rmult_le_compat; assumption).
    assert (HDelta0 : 0 <= Delta).
    { assert (dot d mk mk <= r ^ 2) by (rewrite <- vnorm_sq; nra). nra. }
    nra. }
  (* rho + sqrt (2 rho) < 2: step 2 with u = F x i, mu = mu_k, y = mu_l *)
  destruct (centre_weights n m w q lab k Hw Hq0 Hq1 Hpk_k) as [HW0 [HW1 HWpos]].
  set (c := sum n (fun x' => sum m (fun i' => cls lab k x' * w x' * q x' i' / pk n w lab k
                                              * ind (negb (andb (main x') (inS x')))))).
  assert (HV : forall x' i', (x' < n)%nat -> (i' < m)%nat -> 0 < cls lab k x' * w x' * q x' i' / pk n w lab k ->
                vnorm d (F x' i') = r).
  { intros x' i' Hx' Hi' Hpos. apply HF; [assumption | assumption | apply (HWpos x' i' Hx' Hi' Hpos)]. }
  assert (Hgood : forall x' i', (x' < n)%nat -> (i' < m)%nat -> 0 < cls lab k x' * w x' * q x' i' / pk n w lab k ->
                    andb (main x') (inS x') = true -> vnorm d (vsub (F x' i') (F x i)) <= L * delta + 2 * eps).
  { intros x' i' Hx' Hi' Hpos Hg. destruct (HWpos x' i' Hx' Hi' Hpos) as [Hlab' Hq'].
    apply andb_prop in Hg. destruct Hg as [Hm' Hs'].
    apply (main_close n m d e q X F lab main inS L delta eps HL Hlip Hdef2 HS); assumption. }
  destruct (centre_lower_double n m d (fun x' i' => cls lab k x' * w x' * q x' i' / pk n w lab k) F
              (fun x' _ => andb (main x') (inS x')) mk (F x i) ml r (L * delta + 2 * eps) c Hr Hs HW0 HW1 HV Hgood
              (fun a0 _ => mu_comb n m w q F lab k a0) eq_refl (HF x i Hx Hi Hqi) Hml Hclose)
    as [HD Hlow].
  (* the bad weight c: 0 <= c <= 1, c <= a + beta *)
  assert (Hcb : 0 <= c <= 1)
    by (apply (comb_ind_bounds n m _ (fun x' _ => negb (andb (main x') (inS x'))) HW0 HW1)).
  assert (Hca : c <= a + beta).
  { eapply Rle_trans; [apply (bad_weight_le n m w q lab main inS k sigma Hw Hq1 Hpk_k (Hdef k Hk))|].
    unfold a, beta. apply Rplus_le_compat_l. unfold Rdiv. apply Rmult_le_compat_l; [exact HRe|].
    apply Rinv_le_contravar; [exact Hpmin | apply Hpk; exact Hk]. }
  set (Dr := vnorm d (vsub (F x i) mk)) in *.
  assert (HD' : 0 <= Dr / r <= (1 - c) * t + 2 * c).
  { split; [unfold Rdiv; apply Rmult_le_pos; [apply vnorm_nonneg | left; apply Rinv_0_lt_compat; lra]|].
    apply (Rmult_le_reg_l r); [exact Hr|]. replace (r * (Dr / r)) with Dr by (field; lra). nra. }
  assert (Ha : 0 <= a < 1) by (unfold a; lra).
  pose proof (scalar_rho a beta t c (Dr / r) Ha Hbeta Ht Hcb Hca HD' Hsmall) as Hsc. fold rho in Hsc.
  assert (Hsc' : r ^ 2 * (2 * c + (1 - c) * t + (1 - c) * (Dr / r) ^ 2 / 2) <= r ^ 2 * (rho + sqrt (2 * rho)))
    by (apply Rmult_le_compat_l; lra).
  replace (r ^ 2 * (2 * c + (1 - c) * t + (1 - c) * (Dr / r) ^ 2 / 2))
    with (2 * c * r ^ 2 + (1 - c) * (r * t) * r + (1 - c) * Dr ^ 2 / 2) in Hsc' by (field; lra).
  rewrite <- Hst in Hsc'. rewrite dot_comm in Hlow.
  lra.
Qed.

(* Definition 1 summed over the classes: the mass outside the main parts is at most 1 - sigma *)
Lemma main_mass : forall n K w lab (main : nat -> bool) sigma,
  (forall x, (x < n)%nat -> (lab x < K)%nat) -> sum n w = 1 ->
  (forall k, (k < K)%nat -> sum n (fun x => cls lab k x * w x * ind (main x)) >= sigma * pk n w lab k) ->
  sum n (fun x => w x * (1 - ind (main x))) <= 1 - sigma.
Proof.
  intros n K w lab main sigma Hlab Hw1 Hdef.
  rewrite (sum_ext n _ (fun x => sum K (fun k => cls lab k x * w x - cls lab k x * w x * ind (main x)))).
  2: { intros x Hx. transitivity (sum K (fun k => cls lab k x) * (w x * (1 - ind (main x)))).
       - rewrite sum_cls by (apply Hlab; exact Hx). ring.
       - rewrite <- sum_scal_r. apply sum_ext; intros; ring. }
  rewrite sum_swap.
  apply Rle_trans with (sum K (fun k => (1 - sigma) * pk n w lab k)).
  - apply sum_le; intros k Hk. rewrite sum_minus. fold (pk n w lab k). pose proof (Hdef k Hk). lra.
  - rewrite sum_scal. unfold pk. rewrite <- sum_swap.
    rewrite (sum_ext n _ w); [rewrite Hw1; lra|].
    intros x Hx. rewrite sum_scal_r, sum_cls by (apply Hlab; exact Hx). ring.
Qed.

(* -- Theorem 2: Err(G_f) = sum_x w x err x <= (1 - sigma) + R_eps, with the total mass 1, G_f reading the slot
   g x of each sample (the checker: the first augmentation) and err x in [0, 1] any error indicator that is 0
   where G_f is right, i.e. where f(x_{g x}) is strictly closer to mu_{lab x} than to every other centre (the
   checker's err: 1 unless so; a tie is a mistake). *)
Theorem theorem2 : forall (n m K d e : nat) (w : nat -> R) (q : nat -> nat -> R)
  (X F : nat -> nat -> nat -> R) (lab : nat -> nat) (main inS : nat -> bool)
  (r L sigma delta eps pmin Delta : R) (g : nat -> nat) (err : nat -> R),
  (forall x, (x < n)%nat -> 0 <= w x) -> sum n w = 1 ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 <= q x i) ->
  (forall x, (x < n)%nat -> sum m (q x) = 1) ->
  (forall x, (x < n)%nat -> (lab x < K)%nat) ->
  0 < pmin -> (forall k, (k < K)%nat -> pmin <= pk n w lab k) ->
  0 < r -> 0 <= L ->
  (forall x i, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> vnorm d (F x i) = r) ->
  (forall x i y j, (x < n)%nat -> (i < m)%nat -> 0 < q x i -> (y < n)%nat -> (j < m)%nat -> 0 < q y j ->
     vnorm d (vsub (F x i) (F y j)) <= L * vnorm e (vsub (X x i) (X y j))) ->
  0 < sigma <= 1 -> 0 <= delta ->
  (forall k, (k < K)%nat -> sum n (fun x => cls lab k x * w x * ind (main x)) >= sigma * pk n w lab k) ->
  (forall x y, (x < n)%nat -> (y < n)%nat -> main x = true -> main y = true -> lab x = lab y ->
     exists i j, (i < m)%nat /\ (j < m)%nat /\ 0 < q x i /\ 0 < q y j /\ vnorm e (vsub (X x i) (X y j)) <= delta) ->
  0 <= eps ->
  (forall x i j, (x < n)%nat -> inS x = true -> (i < m)%nat -> (j < m)%nat -> 0 < q x i -> 0 < q x j ->
     vnorm d (vsub (F x i) (F x j)) <= eps) ->
  (forall k, (k < K)%nat -> 1 - dot d (mu n m w q F lab k) (mu n m w q F lab k) / r ^ 2 <= Delta) ->
  (forall k l, (k < K)%nat -> (l < K)%nat -> k <> l ->
     dot d (mu n m w q F lab l) (mu n m w q F lab k)
       < r ^ 2 * (1 - rho_max sigma (Reps n w inS) pmin L delta eps r
                    - sqrt (2 * rho_max sigma (Reps n w inS) pmin L delta eps r) - Delta / 2)) ->
  (forall x, (x < n)%nat -> (g x < m)%nat /\ 0 < q x (g x)) ->
  (forall x, (x < n)%nat -> 0 <= err x <= 1) ->
  (forall x, (x < n)%nat ->
     (forall l, (l < K)%nat -> l <> lab x ->
        vnorm d (vsub (F x (g x)) (mu n m w q F lab (lab x))) < vnorm d (vsub (F x (g x)) (mu n m w q F lab l))) ->
     err x = 0) ->
  sum n (fun x => w x * err x) <= (1 - sigma) + Reps n w inS.
Proof.
  intros n m K d e w q X F lab main inS r L sigma delta eps pmin Delta g err
    Hw Hw1 Hq0 Hq1 Hlab Hpmin Hpk Hr HL HF Hlip Hsig Hdelta Hdef Hdef2 Heps HS HDelta Hdiv Hg Herr Herr0.
  (* err x <= [x outside the main parts] + [x outside S_eps]: theorem2_main_part on (C^0_1 u ... u C^0_K) n S_eps *)
  apply Rle_trans with (sum n (fun x => w x * (1 - ind (main x)) + w x * ind (negb (inS x)))).
  - apply sum_le; intros x Hx. pose proof (Hw x Hx) as Hwx. pose proof (Herr x Hx) as Herrx.
    destruct (main x) eqn:Em, (inS x) eqn:Ei; unfold ind; simpl.
    + rewrite Herr0 by (exact Hx || (intros l Hl Hne; destruct (Hg x Hx) as [Hgx Hqg];
        exact (theorem2_main_part n m K d e w q X F lab main inS r L sigma delta eps pmin Delta
                 Hw Hq0 Hq1 Hlab Hpmin Hpk Hr HL HF Hlip Hsig Hdelta Hdef Hdef2 Heps HS HDelta Hdiv
                 x (g x) l Hx Em Ei Hgx Hqg Hl Hne))). lra.
    (* nra with only the two facts it needs: with the whole context it takes 9 s *)
    + clear - Hwx Herrx; nra.
    + clear - Hwx Herrx; nra.
    + clear - Hwx Herrx; nra.
  - rewrite sum_plus. fold (Reps n w inS).
    pose proof (main_mass n K w lab main sigma Hlab Hw1 Hdef). lra.
Qed.
