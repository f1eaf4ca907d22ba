(* Merad et al., Section 3.1: the coupon collector's Chebyshev bound
     P(|T - N_C H_{N_C}| >= beta N_C) <= pi^2 / (6 beta^2)   for every N_C >= 1 and every beta > 0,
   T the number of uniform draws needed to see all N_C coupons.

   (a) H^(2)_N = sum_{k=1}^{N} 1/k^2 <= PI^2/6 for every N, Coq's PI: the exact identity
       H^(2)_N = PI^2/6 - 2 B_N / A_N with A_m = int_0^{PI/2} cos^{2m}, B_m = int_0^{PI/2} x^2 cos^{2m}
       (Daners' proof of Euler's sum; two integrations by parts as explicit antiderivatives) and B_N >= 0.
   (b) distributions on the naturals (a pmf with a finite second moment, Coquelicot series): the law of a sum
       of independent variables is the convolution of their laws (Cauchy product), its mean and variance add up
       (Bienayme), and Chebyshev's inequality P(|X - E X| >= r) <= Var(X)/r^2.
   (c) T = T_1 + ... + T_N, the independent geometric stages (stage i succeeds with p_i = (N-i+1)/N):
       its law is the convolution of the stage laws; E T = N H_N, Var T = N^2 H^(2)_N - N H_N, and
       P(|T - N H_N| >= beta N) <= Var T / (beta N)^2 <= PI^2 / (6 beta^2). *)
From Coquelicot Require Import Coquelicot.
From Coq Require Import Reals Lra Lia Nsatz.
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

(* ---------- (a) sum_{k=1}^{N} 1/k^2 <= PI^2/6 for every N ---------- *)

(* A_m = int_0^{PI/2} cos^{2m} x dx and B_m = int_0^{PI/2} x^2 cos^{2m} x dx (Coquelicot's Riemann integral) *)
Definition wA (m : nat) : R := RInt (fun x => (cos x ^ 2) ^ m) 0 (PI / 2).
Definition wB (m : nat) : R := RInt (fun x => x ^ 2 * (cos x ^ 2) ^ m) 0 (PI / 2).

Lemma cont_R : forall (f : R -> R) x, ex_derive f x -> continuous f x.
Proof. intros f x H. exact (ex_derive_continuous (K := R_AbsRing) (V := R_NormedModule) f x H). Qed.

Lemma FTC_half : forall F f, (forall x, is_derive F x (f x)) -> (forall x, continuous f x) ->
  is_RInt f 0 (PI / 2) (F (PI / 2) - F 0).
Proof. intros F f HF Hc. apply (is_RInt_derive F f); intros; auto. Qed.

Lemma wA_is : forall m, is_RInt (fun x => (cos x ^ 2) ^ m) 0 (PI / 2) (wA m).
Proof.
  intros m. unfold wA, wB. apply (RInt_correct (V := R_CompleteNormedModule)).
  apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply cont_R. auto_derive. exact I.
Qed.

Lemma wB_is : forall m, is_RInt (fun x => x ^ 2 * (cos x ^ 2) ^ m) 0 (PI / 2) (wB m).
Proof.
  intros m. unfold wA, wB. apply (RInt_correct (V := R_CompleteNormedModule)).
  apply (ex_RInt_continuous (V := R_CompleteNormedModule)). intros z _.
  apply cont_R. auto_derive. exact I.
Qed.

Lemma wA_0 : wA 0 = PI / 2.
Proof.
  apply is_RInt_unique.
  replace (PI / 2) with ((fun x => x) (PI / 2) - (fun x => x) 0) at 2 by (simpl; ring).
  apply (is_RInt_ext (fun x => 1)); [intros; simpl; reflexivity|].
  apply (FTC_half (fun x => x)).
  - intros x. auto_derive; [exact I|]. ring.
  - intros x. apply cont_R. auto_derive. exact I.
Qed.

Lemma wB_0 : wB 0 = PI ^ 3 / 24.
Proof.
  apply is_RInt_unique.
  replace (PI ^ 3 / 24) with ((fun x => x ^ 3 / 3) (PI / 2) - (fun x => x ^ 3 / 3) 0) by (simpl; field).
  apply (is_RInt_ext (fun x => x ^ 2)); [intros; simpl; ring|].
  apply (FTC_half (fun x => x ^ 3 / 3)).
  - intros x. auto_derive; [exact I|]. simpl. field.
  - intros x. apply cont_R. auto_derive. exact I.
Qed.

Lemma powS : forall x n, x ^ S n = x * x ^ n.
Proof. reflexivity. Qed.

Lemma sin_sq : forall x, sin x * sin x = 1 - cos x * cos x.
Proof. intros x. pose proof (sin2_cos2 x). unfold Rsqr in H. lra. Qed.

(* d/dx [sin x cos^{2m+1} x] = (2m+2) cos^{2m+2} x - (2m+1) cos^{2m} x *)
Lemma wallis_deriv : forall m x, is_derive (fun x => sin x * cos x * (cos x ^ 2) ^ m) x
  (2 * INR (S m) * (cos x ^ 2) ^ S m - INR (2 * m + 1) * (cos x ^ 2) ^ m).
Proof.
  intros m x. auto_derive; [exact I|].
  replace (cos x * (cos x * 1)) with (cos x ^ 2) by ring.
  rewrite plus_INR, mult_INR, S_INR. simpl INR.
  destruct m as [|k].
  - simpl. pose proof (sin_sq x). nra.
  - cbn [Init.Nat.pred]. rewrite S_INR. pose proof (sin_sq x).
    rewrite (powS (cos x ^ 2) (S k)), (powS (cos x ^ 2) k).
    set (u := (cos x ^ 2) ^ k). set (r := INR k). rewrite !powS in *. clearbody u r. nsatz.
Qed.

(* d/dx [x cos^{2m+2} x + (m+1) x^2 sin x cos^{2m+1} x]
     = cos^{2m+2} x + 2 (m+1)^2 x^2 cos^{2m+2} x - (m+1)(2m+1) x^2 cos^{2m} x *)
Lemma key_deriv : forall m x, is_derive
  (fun x => x * (cos x ^ 2) ^ S m + INR (S m) * x ^ 2 * sin x * cos x * (cos x ^ 2) ^ m) x
  ((cos x ^ 2) ^ S m + 2 * INR (S m) ^ 2 * (x ^ 2 * (cos x ^ 2) ^ S m)
   - INR (S m) * INR (2 * m + 1) * (x ^ 2 * (cos x ^ 2) ^ m)).
Proof.
  intros m x. auto_derive; [exact I|]. pose proof (sin_sq x).
  destruct m as [|k].
  - simpl. set (s := sin x) in *. set (c := cos x) in *. clearbody s c. nsatz.
  - cbn [Init.Nat.pred].
    replace (cos x * (cos x * 1)) with (cos x ^ 2) by ring.
    rewrite (powS (cos x ^ 2) (S k)), (powS (cos x ^ 2) k).
    set (u := (cos x ^ 2) ^ k). rewrite plus_INR, mult_INR. repeat rewrite S_INR. set (r := INR k).
    rewrite !powS, !pow_O in *. clearbody u r. simpl INR. nsatz.
Qed.

Lemma RInt_zero : forall F f, (forall x, is_derive F x (f x)) -> (forall x, continuous f x) ->
  F (PI / 2) = 0 -> F 0 = 0 -> is_RInt f 0 (PI / 2) 0.
Proof.
  intros F f HF Hc H1 H0. pose proof (FTC_half F f HF Hc) as H. rewrite H1, H0, Rminus_0_r in H. exact H.
Qed.

(* Wallis: 2 (m+1) A_{m+1} = (2m+1) A_m (integrate wallis_deriv over [0, PI/2]; the antiderivative vanishes at both ends) *)
Lemma wallis : forall m, 2 * INR (S m) * wA (S m) = INR (2 * m + 1) * wA m.
Proof.
  intros m.
  assert (H1 : is_RInt (fun x => 2 * INR (S m) * (cos x ^ 2) ^ S m - INR (2 * m + 1) * (cos x ^ 2) ^ m) 0 (PI / 2)
                       (2 * INR (S m) * wA (S m) - INR (2 * m + 1) * wA m)).
  { exact (is_RInt_minus _ _ _ _ _ _ (is_RInt_scal _ _ _ _ _ (wA_is (S m))) (is_RInt_scal _ _ _ _ _ (wA_is m))). }
  assert (H2 : is_RInt (fun x => 2 * INR (S m) * (cos x ^ 2) ^ S m - INR (2 * m + 1) * (cos x ^ 2) ^ m) 0 (PI / 2) 0).
  { apply (RInt_zero (fun x => sin x * cos x * (cos x ^ 2) ^ m)).
    - intros x. apply wallis_deriv.
    - intros x. apply cont_R. auto_derive. exact I.
    - cbv beta. in_R. rewrite cos_PI2. ring.
    - cbv beta. in_R. rewrite sin_0. ring. }
  apply (is_RInt_unique (V := R_CompleteNormedModule)) in H1.
  apply (is_RInt_unique (V := R_CompleteNormedModule)) in H2. rewrite H2 in H1.
  change (@eq R 0 (2 * INR (S m) * wA (S m) - INR (2 * m + 1) * wA m)) in H1. lra.
Qed.

(* A_{m+1} = (m+1)(2m+1) B_m - 2 (m+1)^2 B_{m+1} (integrate key_deriv) *)
Lemma key : forall m, wA (S m) = INR (S m) * INR (2 * m + 1) * wB m - 2 * INR (S m) ^ 2 * wB (S m).
Proof.
  intros m.
  assert (H1 : is_RInt (fun x => (cos x ^ 2) ^ S m + 2 * INR (S m) ^ 2 * (x ^ 2 * (cos x ^ 2) ^ S m)
                 - INR (S m) * INR (2 * m + 1) * (x ^ 2 * (cos x ^ 2) ^ m)) 0 (PI / 2)
                       (wA (S m) + 2 * INR (S m) ^ 2 * wB (S m) - INR (S m) * INR (2 * m + 1) * wB m)).
  { exact (is_RInt_minus _ _ _ _ _ _ (is_RInt_plus _ _ _ _ _ _ (wA_is (S m)) (is_RInt_scal _ _ _ _ _ (wB_is (S m))))
             (is_RInt_scal _ _ _ _ _ (wB_is m))). }
  assert (H2 : is_RInt (fun x => (cos x ^ 2) ^ S m + 2 * INR (S m) ^ 2 * (x ^ 2 * (cos x ^ 2) ^ S m)
                 - INR (S m) * INR (2 * m + 1) * (x ^ 2 * (cos x ^ 2) ^ m)) 0 (PI / 2) 0).
  { apply (RInt_zero (fun x => x * (cos x ^ 2) ^ S m + INR (S m) * x ^ 2 * sin x * cos x * (cos x ^ 2) ^ m)).
    - intros x. apply key_deriv.
    - intros x. apply cont_R. auto_derive. exact I.
    - cbv beta. in_R. rewrite cos_PI2. simpl. ring.
    - simpl. ring. }
  apply (is_RInt_unique (V := R_CompleteNormedModule)) in H1.
  apply (is_RInt_unique (V := R_CompleteNormedModule)) in H2. rewrite H2 in H1.
  change (@eq R 0 (wA (S m) + 2 * INR (S m) ^ 2 * wB (S m) - INR (S m) * INR (2 * m + 1) * wB m)) in H1. lra.
Qed.

Lemma wA_pos : forall m, 0 < wA m.
Proof.
  induction m as [|m IH]; [rewrite wA_0; pose proof PI_RGT_0; lra|].
  pose proof (wallis m) as W. assert (0 < INR (S m)) by (apply lt_0_INR; lia).
  assert (0 < INR (2 * m + 1)) by (apply lt_0_INR; lia). nra.
Qed.

Lemma wB_nonneg : forall m, 0 <= wB m.
Proof.
  intros m. apply (is_RInt_ge_0 (fun x => x ^ 2 * (cos x ^ 2) ^ m) 0 (PI / 2)); [pose proof PI_RGT_0; lra | apply wB_is |].
  intros x _. apply Rmult_le_pos; [apply pow2_ge_0 | apply pow_le, pow2_ge_0].
Qed.

(* sum_{k=1}^{N} 1/k^2 = pi^2/6 - 2 B_N / A_N (Daners' telescoping of Wallis-type integrals) *)
Lemma harm2_identity : forall N, harm 2 N = PI ^ 2 / 6 - 2 * wB N / wA N.
Proof.
  unfold harm. induction N as [|N IH].
  - rewrite wA_0, wB_0. simpl. pose proof PI_RGT_0. field. lra.
  - cbn [sum1]. rewrite IH.
    pose proof (wallis N) as W. pose proof (key N) as K.
    pose proof (wA_pos N). pose proof (wA_pos (S N)).
    assert (0 < INR (S N)) by (apply lt_0_INR; lia).
    assert (E : INR (2 * N + 1) = 2 * INR (S N) - 1).
    { rewrite plus_INR, mult_INR, (S_INR N). change (INR 2) with 2. change (INR 1) with 1. ring. }
    rewrite E in W, K.
    assert (0 < 2 * INR (S N) - 1) by (rewrite <- E; apply lt_0_INR; lia).
    assert (A0 : wA N = 2 * INR (S N) * wA (S N) / (2 * INR (S N) - 1)) by (rewrite W; field; lra).
    rewrite A0. field_simplify; [|lra..]. rewrite K. field. lra.
Qed.

(* (a): H^(2)_N <= PI^2/6 for every N, since B_N >= 0 < A_N *)
Theorem harm2_le_pi2_6 : forall N, harm 2 N <= PI ^ 2 / 6.
Proof.
  intros N. rewrite harm2_identity. pose proof (wA_pos N). pose proof (wB_nonneg N).
  assert (0 <= 2 * wB N / wA N) by (apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]). lra.
Qed.

(* ---------- (c, first half) the geometric stages of the coupon collector ---------- *)

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


(* ---------- (b) distributions on the naturals: convolution (Bienayme) and Chebyshev ---------- *)

(* a is a probability mass function on {0, 1, 2, ...} with mean m1 and second moment m2 *)
Definition moments (a : nat -> R) (m1 m2 : R) : Prop :=
  (forall t, 0 <= a t) /\ is_series a 1 /\ is_series (fun t => INR t * a t) m1
  /\ is_series (fun t => INR t ^ 2 * a t) m2.

(* the law of X + Y for independent X ~ a, Y ~ b: P(X + Y = n) = sum_{k=0}^{n} P(X = k) P(Y = n - k) *)
Definition conv (a b : nat -> R) (n : nat) : R := sum_f_R0 (fun k => a k * b (n - k)%nat) n.

Lemma zero_series : is_series (fun _ : nat => 0) 0.
Proof.
  assert (Hq : Rabs 0 < 1) by (rewrite Rabs_R0; lra).
  pose proof (is_series_scal_r 0 _ _ (is_series_geom 0 Hq)) as H.
  rewrite Rmult_0_r in H. apply is_series_ext with (2 := H). intros n. in_R. ring.
Qed.

Lemma conv_nonneg : forall a b, (forall t, 0 <= a t) -> (forall t, 0 <= b t) -> forall n, 0 <= conv a b n.
Proof. intros a b Ha Hb n. apply cond_pos_sum. intros k. apply Rmult_le_pos; auto. Qed.

Lemma mult_pos_series : forall a b la lb, (forall t, 0 <= a t) -> (forall t, 0 <= b t) ->
  is_series a la -> is_series b lb -> is_series (fun n => sum_f_R0 (fun k => a k * b (n - k)%nat) n) (la * lb).
Proof. intros a b la lb Ha Hb H1 H2. exact (is_series_mult_pos a b la lb H1 H2 Ha Hb). Qed.

(* Bienayme for two independent variables: means and variances add up *)
Theorem conv_moments : forall a b m1 m2 n1 n2, moments a m1 m2 -> moments b n1 n2 ->
  moments (conv a b) (m1 + n1) (m2 + 2 * (m1 * n1) + n2).
Proof.
  intros a b m1 m2 n1 n2 [Ha [Ha0 [Ha1 Ha2]]] [Hb [Hb0 [Hb1 Hb2]]].
  assert (Pa1 : forall t, 0 <= INR t * a t) by (intros; apply Rmult_le_pos; [apply pos_INR | auto]).
  assert (Pb1 : forall t, 0 <= INR t * b t) by (intros; apply Rmult_le_pos; [apply pos_INR | auto]).
  assert (Pa2 : forall t, 0 <= INR t ^ 2 * a t) by (intros; apply Rmult_le_pos; [apply pow2_ge_0 | auto]).
  assert (Pb2 : forall t, 0 <= INR t ^ 2 * b t) by (intros; apply Rmult_le_pos; [apply pow2_ge_0 | auto]).
  split; [apply conv_nonneg; auto|]. split; [|split].
  - replace 1 with (1 * 1) by ring. exact (mult_pos_series a b 1 1 Ha Hb Ha0 Hb0).
  - pose proof (is_series_plus _ _ _ _ (mult_pos_series _ _ _ _ Pa1 Hb Ha1 Hb0)
                                      (mult_pos_series _ _ _ _ Ha Pb1 Ha0 Hb1)) as H.
    replace (m1 + n1) with (m1 * 1 + 1 * n1) by ring.
    apply is_series_ext with (2 := H). intros n. in_R. unfold conv.
    rewrite scal_sum, <- plus_sum. apply sum_eq. intros k Hk.
    rewrite minus_INR by exact Hk. ring.
  - pose proof (is_series_plus _ _ _ _ (mult_pos_series _ _ _ _ Pa2 Hb Ha2 Hb0)
                 (is_series_plus _ _ _ _ (is_series_scal_l 2 _ _ (mult_pos_series _ _ _ _ Pa1 Pb1 Ha1 Hb1))
                                         (mult_pos_series _ _ _ _ Ha Pb2 Ha0 Hb2))) as H.
    replace (m2 + 2 * (m1 * n1) + n2) with (m2 * 1 + (2 * (m1 * n1) + 1 * n2)) by ring.
    apply is_series_ext with (2 := H). intros n. in_R. unfold conv.
    change (sum_f_R0 (fun k => INR k ^ 2 * a k * b (n - k)%nat) n
      + (2 * sum_f_R0 (fun k => INR k * a k * (INR (n - k) * b (n - k)%nat)) n
         + sum_f_R0 (fun k => a k * (INR (n - k) ^ 2 * b (n - k)%nat)) n) = INR n ^ 2 * conv a b n). unfold conv.
    rewrite !scal_sum, <- !plus_sum. apply sum_eq. intros k Hk.
    rewrite minus_INR by exact Hk. ring.
Qed.

(* Chebyshev's inequality: P(|X - E X| >= r) <= Var(X) / r^2, the event's probability a convergent series *)
Definition dev_event (a : nat -> R) (c r : R) (t : nat) : R :=
  if Rle_dec r (Rabs (INR t - c)) then a t else 0.

Theorem chebyshev : forall a m1 m2 r, moments a m1 m2 -> 0 < r ->
  ex_series (dev_event a m1 r) /\ Series (dev_event a m1 r) <= (m2 - m1 ^ 2) / r ^ 2.
Proof.
  intros a m1 m2 r [Ha [Ha0 [Ha1 Ha2]]] Hr.
  set (b := fun t => (INR t - m1) ^ 2 / r ^ 2 * a t).
  assert (Hb : is_series b ((m2 - m1 ^ 2) / r ^ 2)).
  { pose proof (is_series_plus _ _ _ _ (is_series_minus _ _ _ _ Ha2 (is_series_scal_l (2 * m1) _ _ Ha1))
                                      (is_series_scal_l (m1 ^ 2) _ _ Ha0)) as H.
    pose proof (is_series_scal_r (/ r ^ 2) _ _ H) as H'.
    replace ((m2 - m1 ^ 2) / r ^ 2) with ((plus (plus m2 (opp (scal (2 * m1) m1))) (scal (m1 ^ 2) 1)) * / r ^ 2)
      by (unfold plus, opp, scal; simpl; unfold mult; simpl; field; lra).
    apply is_series_ext with (2 := H'). intros n. unfold b, plus, opp, scal; simpl; unfold mult; simpl.
    field. lra. }
  assert (Hle : forall t, 0 <= dev_event a m1 r t <= b t).
  { intros t. unfold dev_event, b. assert (0 < r ^ 2) by (apply pow_lt; lra).
    assert (0 <= (INR t - m1) ^ 2 / r ^ 2) by (apply Rmult_le_pos; [apply pow2_ge_0 | apply Rlt_le, Rinv_0_lt_compat; lra]).
    destruct (Rle_dec r (Rabs (INR t - m1))) as [Hd|Hd].
    - split; [apply Ha|]. rewrite <- (Rmult_1_l (a t)) at 1. apply Rmult_le_compat_r; [apply Ha|].
      assert (Hsq : r ^ 2 <= (INR t - m1) ^ 2) by (rewrite <- (pow2_abs (INR t - m1)); apply pow_incr; lra).
      unfold Rdiv. apply (Rmult_le_reg_r (r ^ 2)); [lra|].
      rewrite Rmult_assoc, Rinv_l, Rmult_1_l, Rmult_1_r by lra. exact Hsq.
    - split; [lra|]. apply Rmult_le_pos; [auto | apply Ha]. }
  assert (Hex : ex_series (dev_event a m1 r)).
  { apply (ex_series_le (K := R_AbsRing) (V := R_CompleteNormedModule) _ b); [|exists ((m2 - m1 ^ 2) / r ^ 2); exact Hb].
    intros n. change (Rabs (dev_event a m1 r n) <= b n).
    rewrite Rabs_pos_eq; apply Hle. }
  split; [exact Hex|]. rewrite <- (is_series_unique b _ Hb).
  apply Series_le; [exact Hle | exists ((m2 - m1 ^ 2) / r ^ 2); exact Hb].
Qed.

(* ---------- (c) the coupon collector: T = T_1 + ... + T_N, independent geometric stages ---------- *)

(* the law of stage T_i on {1, 2, ...}: P(T_i = t + 1) = p (1 - p)^t, P(T_i = 0) = 0 *)
Definition stage_pmf (p : R) (t : nat) : R := match t with O => 0 | S s => geom_pmf p s end.

Lemma series_shift : forall (a : nat -> R) l, a 0%nat = 0 -> is_series (fun k => a (S k)) l -> is_series a l.
Proof.
  intros a l H0 H. apply is_series_decr_1. rewrite H0.
  match goal with |- is_series _ ?x => replace x with l; [exact H|] end.
  change (@eq R l (Rplus l (Ropp 0))). rewrite Ropp_0, Rplus_0_r. reflexivity.
Qed.

Lemma stage_moments : forall p, 0 < p <= 1 -> moments (stage_pmf p) (/ p) ((2 - p) / p ^ 2).
Proof.
  intros p Hp. assert (Hq : Rabs (1 - p) < 1) by (rewrite Rabs_pos_eq; lra).
  split; [|split; [|split]].
  - intros [|t]; simpl; [lra|]. unfold geom_pmf. apply Rmult_le_pos; [lra | apply pow_le; lra].
  - apply series_shift; [reflexivity|]. replace 1 with (/ (1 - (1 - p)) * p) by (field; lra).
    apply is_series_ext with (2 := is_series_scal_r p _ _ (is_series_geom (1 - p) Hq)).
    intros n. in_R. simpl. unfold geom_pmf. ring.
  - apply series_shift; [simpl; ring|].
    apply is_series_ext with (2 := geom_mean p Hp). intros n. reflexivity.
  - apply series_shift; [simpl; ring|].
    apply is_series_ext with (2 := geom_second_moment p Hp). intros n. reflexivity.
Qed.

(* the law of the constant 0: P(X = 0) = 1 (0 ^ 0 = 1) *)
Definition delta0 (t : nat) : R := 0 ^ t.

Lemma delta0_moments : moments delta0 0 0.
Proof.
  assert (Hq : Rabs 0 < 1) by (rewrite Rabs_R0; lra).
  split; [|split; [|split]].
  - intros t. apply pow_le. lra.
  - replace 1 with (/ (1 - 0)) by (field). exact (is_series_geom 0 Hq).
  - apply is_series_ext with (2 := zero_series). intros [|t]; in_R; unfold delta0; simpl; ring.
  - apply is_series_ext with (2 := zero_series). intros [|t]; in_R; unfold delta0; simpl; ring.
Qed.

(* the law of T_1 + ... + T_m (stage i succeeds with p_i = (n - i + 1)/n): the convolution of the stage laws *)
Fixpoint stages_law (n m : nat) : nat -> R :=
  match m with O => delta0 | S k => conv (stages_law n k) (stage_pmf (p_stage n (S k))) end.

(* P(T = t) for the coupon collector with n coupons *)
Definition coupon_law (n : nat) : nat -> R := stages_law n n.

Lemma stages_law_moments : forall n m, (m <= n)%nat ->
  exists m2, moments (stages_law n m) (sum1 (fun i => / p_stage n i) m) m2
    /\ m2 - (sum1 (fun i => / p_stage n i) m) ^ 2 = sum1 (fun i => (1 - p_stage n i) / p_stage n i ^ 2) m.
Proof.
  intros n m. induction m as [|m IH]; intros Hm.
  - exists 0. split; [exact delta0_moments | simpl; ring].
  - destruct IH as [m2 [Hmo Hv]]; [lia|].
    pose proof (p_stage_range n (S m) ltac:(lia)) as Hp.
    set (M1 := sum1 (fun i => / p_stage n i) m) in *. set (p := p_stage n (S m)) in *.
    exists (m2 + 2 * (M1 * / p) + (2 - p) / p ^ 2). split.
    + cbn [stages_law sum1]. fold M1 p. apply conv_moments; [exact Hmo | apply stage_moments; exact Hp].
    + cbn [sum1]. fold M1 p. rewrite <- Hv. field. lra.
Qed.

Lemma harm_nonneg : forall m n, 0 <= harm m n.
Proof.
  intros m n. unfold harm. induction n as [|n IH]; cbn [sum1]; [lra|].
  assert (0 < INR (S n)) by (apply lt_0_INR; lia).
  assert (0 < / INR (S n) ^ m) by (apply Rinv_0_lt_compat, pow_lt; lra). lra.
Qed.

(* T's law is a probability distribution with E T = n H_n and Var T = n^2 H^(2)_n - n H_n *)
Theorem coupon_law_moments : forall n : nat, exists m2,
  moments (coupon_law n) (INR n * harm 1 n) m2
  /\ m2 - (INR n * harm 1 n) ^ 2 = INR n ^ 2 * harm 2 n - INR n * harm 1 n.
Proof.
  intros n. destruct (stages_law_moments n n (le_n n)) as [m2 [Hm Hv]].
  rewrite coupon_mean_sum in Hm, Hv. rewrite coupon_variance_sum in Hv. exists m2. split; assumption.
Qed.

(* Chebyshev with the exact variance: P(|T - n H_n| >= beta n) <= (n^2 H^(2)_n - n H_n) / (beta n)^2 *)
Theorem coupon_chebyshev_variance : forall (N : nat) (beta : R), (1 <= N)%nat -> 0 < beta ->
  ex_series (fun t => if Rle_dec (beta * INR N) (Rabs (INR t - INR N * harm 1 N)) then coupon_law N t else 0)
  /\ Series (fun t => if Rle_dec (beta * INR N) (Rabs (INR t - INR N * harm 1 N)) then coupon_law N t else 0)
     <= (INR N ^ 2 * harm 2 N - INR N * harm 1 N) / (beta * INR N) ^ 2.
Proof.
  intros N beta HN Hb. destruct (coupon_law_moments N) as [m2 [Hm Hv]].
  assert (0 < INR N) by (apply lt_0_INR; lia).
  rewrite <- Hv. exact (chebyshev _ _ _ (beta * INR N) Hm ltac:(apply Rmult_lt_0_compat; lra)).
Qed.

(* Merad et al., Section 3.1: P(|T - N H_N| >= beta N) <= pi^2 / (6 beta^2) for every N >= 1 and beta > 0 *)
Theorem coupon_chebyshev : forall (N : nat) (beta : R), (1 <= N)%nat -> 0 < beta ->
  ex_series (fun t => if Rle_dec (beta * INR N) (Rabs (INR t - INR N * harm 1 N)) then coupon_law N t else 0)
  /\ Series (fun t => if Rle_dec (beta * INR N) (Rabs (INR t - INR N * harm 1 N)) then coupon_law N t else 0)
     <= PI ^ 2 / (6 * beta ^ 2).
Proof.
  intros N beta HN Hb. destruct (coupon_chebyshev_variance N beta HN Hb) as [Hex Hle].
  split; [exact Hex|]. eapply Rle_trans; [exact Hle|].
  assert (0 < INR N) by (apply lt_0_INR; lia).
  pose proof (harm_nonneg 1 N). pose proof (harm2_le_pi2_6 N).
  assert (0 < (beta * INR N) ^ 2) by (apply pow_lt, Rmult_lt_0_compat; lra).
  replace (PI ^ 2 / (6 * beta ^ 2)) with ((INR N ^ 2 * (PI ^ 2 / 6)) / (beta * INR N) ^ 2) by (field; lra).
  unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|].
  assert (0 <= INR N * harm 1 N) by (apply Rmult_le_pos; lra).
  assert (INR N ^ 2 * harm 2 N <= INR N ^ 2 * (PI ^ 2 / 6)) by (apply Rmult_le_compat_l; [apply pow2_ge_0 | exact H1]).
  lra.
Qed.

(* Section 3.1's variance, read as the bound the Chebyshev step needs: Var T <= (N pi)^2 / 6 for every N *)
Theorem coupon_variance_le : forall N : nat, exists m2,
  moments (coupon_law N) (INR N * harm 1 N) m2 /\ m2 - (INR N * harm 1 N) ^ 2 <= (INR N * PI) ^ 2 / 6.
Proof.
  intros N. destruct (coupon_law_moments N) as [m2 [Hm Hv]]. exists m2. split; [exact Hm|]. rewrite Hv.
  pose proof (pos_INR N). pose proof (harm_nonneg 1 N). pose proof (harm2_le_pi2_6 N).
  assert (0 <= INR N * harm 1 N) by (apply Rmult_le_pos; lra).
  assert (INR N ^ 2 * harm 2 N <= INR N ^ 2 * (PI ^ 2 / 6)) by (apply Rmult_le_compat_l; [apply pow2_ge_0 | lra]).
  replace ((INR N * PI) ^ 2 / 6) with (INR N ^ 2 * (PI ^ 2 / 6)) by field. lra.
Qed.
