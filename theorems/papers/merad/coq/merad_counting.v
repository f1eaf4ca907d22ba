(* Merad et al., Section 3.1 and Proposition 2: the coupon collector's mean and variance for EVERY
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
  /\ sum1 (fun i => / p_stage n i) n = INR n * harm 1 n.
Proof.
  intros n. split; [intros i Hi; apply geom_mean, p_stage_range, Hi | apply coupon_mean_sum].
Qed.

(* Var(T) = sum_i Var(T_i) = n^2 H^(2)_n - n H_n: every stage variance is E[T_i^2] - E[T_i]^2 =
   (1 - p_i)/p_i^2, and these add up to n^2 H^(2)_n - n H_n *)
Theorem coupon_variance : forall n : nat,
  (forall i, (1 <= i <= n)%nat ->
     is_series (fun t => INR (S t) ^ 2 * geom_pmf (p_stage n i) t) ((2 - p_stage n i) / p_stage n i ^ 2)
     /\ (2 - p_stage n i) / p_stage n i ^ 2 - (/ p_stage n i) ^ 2 = (1 - p_stage n i) / p_stage n i ^ 2)
  /\ sum1 (fun i => (1 - p_stage n i) / (p_stage n i) ^ 2) n = (INR n) ^ 2 * harm 2 n - INR n * harm 1 n.
Proof.
  intros n. split; [|apply coupon_variance_sum].
  intros i Hi. pose proof (p_stage_range n i Hi).
  split; [apply geom_second_moment | apply geom_variance]; lra.
Qed.

(* tau+_N = sum_{c=1}^{N_C} rho(c)^(N+1) with rho(c) = 1/N_C: = N_C^(-N) *)
Theorem tau_plus_uniform : forall NC N : nat, (1 <= NC)%nat ->
  sum1 (fun _ => (/ INR NC) ^ (N + 1)) NC = / (INR NC) ^ N.
Proof.
  intros NC N H. rewrite sum1_const.
  assert (0 < INR NC) by (apply lt_0_INR; lia).
  assert (INR NC ^ N <> 0) by (apply pow_nonzero; lra).
  rewrite pow_add, pow_1, pow_inv. field. split; lra.
Qed.
