(* Merad et al., proof of Lemma 7: the sharp constant of its scalar step. -log(1-x) <= c x on [0, 1/2] holds with
   c = 2 ln 2 (about 1.386), and with no smaller c (equality at x = 1/2); the proof uses c = 2. *)
From Coq Require Import Reals Lra Psatz.
Open Scope R_scope.

Lemma ln_le_sub1 : forall y, 0 < y -> ln y <= y - 1.
Proof. intros y Hy. pose proof (exp_ineq1_le (ln y)). rewrite exp_ln in H by exact Hy. lra. Qed.

(* -ln(1-x) <= x/(1-x) *)
Lemma neg_log1m : forall x, 0 <= x < 1 -> - ln (1 - x) <= x / (1 - x).
Proof.
  intros x Hx. assert (Hp : 0 < 1 - x) by lra.
  rewrite <- ln_Rinv by exact Hp.
  pose proof (ln_le_sub1 (/ (1 - x)) (Rinv_0_lt_compat _ Hp)).
  replace (x / (1 - x)) with (/ (1 - x) - 1) by (field; lra). exact H.
Qed.

(* ln(1+t) >= t/(1+t) for t >= 0 *)
Lemma log1p_ge : forall t, 0 <= t -> t / (1 + t) <= ln (1 + t).
Proof.
  intros t Ht. assert (Hp : 0 < 1 + t) by lra.
  pose proof (ln_le_sub1 (/ (1 + t)) (Rinv_0_lt_compat _ Hp)) as H.
  rewrite ln_Rinv in H by exact Hp.
  replace (t / (1 + t)) with (- (/ (1 + t) - 1)) by (field; lra). lra.
Qed.

Lemma ln2_pos : 0 < ln 2.
Proof. rewrite <- ln_1. apply ln_increasing; lra. Qed.

(* the upper certificate: -ln(1-x) <= 2 ln 2 x on [0, 1/2]; the case split at x* = 1 - 1/(2 ln 2) is exact:
   below it the bound x/(1-x) suffices, above it ln(1-x) = ln(1+2y) - ln 2 with y = 1/2 - x *)
Theorem neg_log1m_sharp : forall x, 0 <= x <= 1/2 -> - ln (1 - x) <= 2 * ln 2 * x.
Proof.
  intros x Hx. pose proof ln2_pos as L.
  destruct (Rle_dec (2 * ln 2 * (1 - x)) 1) as [C|C].
  - (* (1 - x) <= 1/(2 ln 2): ln(1 - x) = ln(1 + 2y) - ln 2 >= 2y/(1+2y) - ln 2 >= 2 ln 2 y - ln 2 *)
    set (y := 1 / 2 - x).
    assert (Hy : 0 <= y) by (unfold y; lra).
    assert (E : 1 - x = (1 + 2 * y) / 2) by (unfold y; field).
    rewrite E. unfold Rdiv. rewrite ln_mult by lra. rewrite ln_Rinv by lra.
    pose proof (log1p_ge (2 * y) ltac:(lra)) as G.
    assert (K : 2 * ln 2 * y <= 2 * y / (1 + 2 * y)).
    { assert (A : ln 2 * (1 + 2 * y) <= 1) by (unfold y in *; nra).
      replace (2 * y / (1 + 2 * y)) with (2 * y * / (1 + 2 * y)) by reflexivity.
      assert (Hi : 0 < / (1 + 2 * y)) by (apply Rinv_0_lt_compat; lra).
      assert (Hm : (1 + 2 * y) * / (1 + 2 * y) = 1) by (field; lra).
      nra. }
    unfold y in *. lra.
  - (* 2 ln 2 (1 - x) > 1: -ln(1-x) <= x/(1-x) <= 2 ln 2 x *)
    apply Rnot_le_lt in C.
    eapply Rle_trans; [apply neg_log1m; lra|].
    apply (Rmult_le_reg_r (1 - x)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

(* the lower certificate: at x = 1/2 both sides are ln 2, so no constant below 2 ln 2 works *)
Theorem neg_log1m_sharp_attained : - ln (1 - 1/2) = 2 * ln 2 * (1/2).
Proof.
  replace (1 - 1/2) with (/ 2) by field. rewrite ln_Rinv by lra. field.
Qed.

Theorem neg_log1m_no_smaller : forall c, c < 2 * ln 2 -> ~ (forall x, 0 <= x <= 1/2 -> - ln (1 - x) <= c * x).
Proof.
  intros c Hc H. specialize (H (1/2) ltac:(lra)). rewrite neg_log1m_sharp_attained in H. lra.
Qed.
