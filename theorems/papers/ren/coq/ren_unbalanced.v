(* Ren & Li (002_1392d7a5a1d595de.txt), Section 4, "Why balance representations are important?", the example
   read as P_A = P_B proportional to diag(1, delta, ..., delta) (the matrices are lost in the source), for EVERY
   latent dimension r >= 1 and every delta in (0, 1] (Coq, by induction on r):
   - both modules map latent z to f(z) = (sqrt(a_k) z_k)_k with weights a_k > 0, so a positive pair is embedded at
     distance 0 and a negative pair (z' independent of z) at squared distance sum_k a_k (z_k - z'_k)^2; with z, z'
     uniform on {+-1}^r, Definition 4.1's score by strict inequality is Align = P[0 < that distance] = 1 - 2^-r
     whatever the weights (align_example), and 1 - 2^-(r+1) when ties count 1/2 (align_example_half_ties);
   - the output covariance is diag(a) (the population fact of ren_balance.v), a = (1, delta^2, ..., delta^2)
     normalized to sum 1, and the stable rank of a non-negative diagonal matrix sum_k a_k^2 / max_k a_k^2 is
     1 + (r - 1) delta^4 (balance_example; that the spectral and Frobenius norms of diag(a) are max a_k and
     sqrt(sum a_k^2) is the singular value decomposition of a diagonal matrix, not proved here).
   So the example is aligned (Align >= 1 - eps) exactly when 2^-r <= eps, and not balanced (Bal < r/c) exactly when
   1 + (r - 1) delta^4 < r/c. Standalone: coqc -q ren_unbalanced.v *)
From Coq Require Import Reals List Lra Lia.
Import ListNotations.
Open Scope R_scope.

Fixpoint cube (r : nat) (g : list R -> R) : R :=
  match r with
  | O => g []
  | S r' => (cube r' (fun w => g (1 :: w)) + cube r' (fun w => g (-1 :: w))) / 2
  end.

(* sum_k a_k (z_k - z'_k)^2 *)
Fixpoint gap (a z z' : list R) : R :=
  match a, z, z' with ak :: a', zk :: z1, wk :: z1' => ak * (zk - wk) ^ 2 + gap a' z1 z1' | _, _, _ => 0 end.
Definition strict (x : R) : R := if Rlt_dec 0 x then 1 else 0.
Definition half_ties (x : R) : R := if Rlt_dec 0 x then 1 else if Req_EM_T x 0 then / 2 else 0.

(* -- auxiliary definitions and lemmas (cube lemmas adapted from ren_balance.v) -- *)

(* z is a sign vector: every entry is +1 or -1 *)
Definition signv (z : list R) : Prop := forall s, In s z -> s = 1 \/ s = -1.

(* the tail of a sign vector is a sign vector *)
Lemma signv_tail : forall s z, signv (s :: z) -> signv z.
Proof. intros s z H x Hx; apply H; now right. Qed.

(* the head of a sign vector is a sign *)
Lemma signv_head : forall s z, signv (s :: z) -> s = 1 \/ s = -1.
Proof. intros s z H; apply H; now left. Qed.

(* cube only depends on the values of g *)
Lemma cube_ext : forall r f g, (forall w, f w = g w) -> cube r f = cube r g.
Proof.
  induction r as [|r IH]; intros f g H; simpl; [apply H|].
  rewrite (IH (fun w => f (1 :: w)) (fun w => g (1 :: w))) by (intros; apply H).
  rewrite (IH (fun w => f (-1 :: w)) (fun w => g (-1 :: w))) by (intros; apply H). reflexivity.
Qed.

(* cube r only evaluates g at sign vectors of length r *)
Lemma cube_ext_signs : forall r f g, (forall w, length w = r -> signv w -> f w = g w) -> cube r f = cube r g.
Proof.
  induction r as [|r IH]; intros f g H; simpl.
  - apply H; [reflexivity | intros s []].
  - rewrite (IH (fun w => f (1 :: w)) (fun w => g (1 :: w))).
    2: { intros w Hl Hs; apply H; [simpl; now rewrite Hl | intros s [<-|Hin]; [now left | now apply Hs]]. }
    rewrite (IH (fun w => f (-1 :: w)) (fun w => g (-1 :: w))).
    2: { intros w Hl Hs; apply H; [simpl; now rewrite Hl | intros s [<-|Hin]; [now right | now apply Hs]]. }
    reflexivity.
Qed.

(* the average of a constant is that constant *)
Lemma cube_const : forall r k, cube r (fun _ => k) = k.
Proof. induction r as [|r IH]; intros k; simpl; [reflexivity | rewrite !IH; lra]. Qed.

(* the squared distance is non-negative when the weights are *)
Lemma gap_nonneg : forall a z z', (forall x, In x a -> 0 < x) -> 0 <= gap a z z'.
Proof.
  induction a as [|ak a IH]; intros [|zk z] [|wk z'] H; cbn [gap]; try lra.
  pose proof (H ak (or_introl eq_refl)).
  pose proof (IH z z' (fun x Hx => H x (or_intror Hx))).
  assert (0 <= ak * (zk - wk) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]). lra.
Qed.

(* for a sign vector z and any score h with h 0 = h0 and h x = 1 for x > 0:
   E_z'[h (gap a z z')] = 1 - (1 - h0) / 2^r (only z' = z gives gap 0) *)
Lemma inner_avg : forall (h : R -> R) h0, h 0 = h0 -> (forall x, 0 < x -> h x = 1) ->
  forall a z, (forall x, In x a -> 0 < x) -> length z = length a -> signv z ->
  cube (length a) (fun z' => h (gap a z z')) = 1 - (1 - h0) / 2 ^ length a.
Proof.
  intros h h0 Hh0 Hh1 a; induction a as [|ak a IH]; intros [|zk z] Hpos Hl Hs; simpl in Hl; try discriminate.
  - simpl. rewrite Hh0. field.
  - injection Hl as Hl. pose proof (signv_head _ _ Hs) as Hzk. apply signv_tail in Hs.
    assert (Hak : 0 < ak) by (apply Hpos; now left).
    assert (Hpos' : forall x, In x a -> 0 < x) by (intros x Hx; apply Hpos; now right).
    (* the first coordinate of z' equals zk: the first term vanishes *)
    assert (Same : cube (length a) (fun w => h (ak * (zk - zk) ^ 2 + gap a z w)) = 1 - (1 - h0) / 2 ^ length a).
    { rewrite <- (IH z Hpos' Hl Hs). apply cube_ext; intros w. f_equal. ring. }
    (* the first coordinate of z' differs from zk: the distance is >= 4 ak > 0 *)
    assert (Diff : forall s, (s = 1 \/ s = -1) -> s <> zk ->
                   cube (length a) (fun w => h (ak * (zk - s) ^ 2 + gap a z w)) = 1).
    { intros s Hs' Hne. rewrite <- (cube_const (length a) 1). apply cube_ext; intros w. apply Hh1.
      pose proof (gap_nonneg a z w Hpos').
      assert (0 < (zk - s) ^ 2) by (destruct Hzk, Hs'; subst; try lra; simpl; lra). nra. }
    assert (Hp : 0 < 2 ^ length a) by (apply pow_lt; lra).
    cbn [cube length gap]. destruct Hzk as [Hz|Hz]; subst zk.
    + rewrite Same, (Diff (-1)) by lra. rewrite <- tech_pow_Rmult. field. lra.
    + rewrite Same, (Diff 1) by lra. rewrite <- tech_pow_Rmult. field. lra.
Qed.

(* strict vanishes at 0 *)
Lemma strict_0 : strict 0 = 0.
Proof. unfold strict; destruct (Rlt_dec 0 0); [lra | reflexivity]. Qed.

(* strict is 1 on positive numbers *)
Lemma strict_pos : forall x, 0 < x -> strict x = 1.
Proof. intros x H; unfold strict; destruct (Rlt_dec 0 x); [reflexivity | contradiction]. Qed.

(* half_ties is 1/2 at 0 *)
Lemma half_ties_0 : half_ties 0 = / 2.
Proof.
  unfold half_ties; destruct (Rlt_dec 0 0); [lra|]. destruct (Req_EM_T 0 0); [reflexivity | contradiction].
Qed.

(* half_ties is 1 on positive numbers *)
Lemma half_ties_pos : forall x, 0 < x -> half_ties x = 1.
Proof. intros x H; unfold half_ties; destruct (Rlt_dec 0 x); [reflexivity | contradiction]. Qed.

Theorem align_example : forall a, (forall x, In x a -> 0 < x) ->
  cube (length a) (fun z => cube (length a) (fun z' => strict (gap a z z'))) = 1 - / 2 ^ length a.
Proof.
  intros a Hpos.
  rewrite (cube_ext_signs _ _ (fun _ => 1 - / 2 ^ length a)); [apply cube_const|].
  intros z Hl Hs. rewrite (inner_avg strict 0 strict_0 strict_pos a z Hpos Hl Hs).
  field. apply pow_nonzero; lra.
Qed.

Theorem align_example_half_ties : forall a, (forall x, In x a -> 0 < x) ->
  cube (length a) (fun z => cube (length a) (fun z' => half_ties (gap a z z'))) = 1 - / 2 ^ S (length a).
Proof.
  intros a Hpos.
  rewrite (cube_ext_signs _ _ (fun _ => 1 - / 2 ^ S (length a))); [apply cube_const|].
  intros z Hl Hs. rewrite (inner_avg half_ties (/ 2) half_ties_0 half_ties_pos a z Hpos Hl Hs).
  rewrite <- tech_pow_Rmult. field. apply pow_nonzero; lra.
Qed.

Fixpoint sumsq (l : list R) : R := match l with [] => 0 | x :: t => x * x + sumsq t end.
Fixpoint lmax (x : R) (l : list R) : R := match l with [] => x | y :: t => Rmax x (lmax y t) end.
(* the normalized spectrum of the example, a = (1, delta^2, ..., delta^2) / (1 + (r - 1) delta^2), r = 1 + n *)
Definition spectrum (n : nat) (delta : R) : R * list R :=
  (1 / (1 + INR n * delta ^ 2), repeat (delta ^ 2 / (1 + INR n * delta ^ 2)) n).

(* the largest entry of x :: repeat y n is x when y <= x *)
Lemma lmax_repeat : forall n x y, y <= x -> lmax x (repeat y n) = x.
Proof.
  induction n as [|n IH]; intros x y H; cbn [repeat lmax]; [reflexivity|].
  rewrite (IH y y (Rle_refl y)). unfold Rmax; destruct (Rle_dec x y); lra.
Qed.

(* the sum of squares of n copies of y *)
Lemma sumsq_repeat : forall y n, sumsq (repeat y n) = INR n * (y * y).
Proof.
  intros y; induction n as [|n IH]; cbn [repeat sumsq]; [simpl; ring|].
  rewrite S_INR, IH. ring.
Qed.

Theorem balance_example : forall n delta, 0 < delta <= 1 ->
  let (x, l) := spectrum n delta in sumsq (x :: l) / (lmax x l * lmax x l) = 1 + INR n * delta ^ 4.
Proof.
  intros n delta [Hd0 Hd1]. unfold spectrum.
  assert (Hn : 0 <= INR n) by apply pos_INR.
  assert (Hd2 : 0 < delta ^ 2 <= 1) by (simpl; split; nra).
  assert (HN : 0 < 1 + INR n * delta ^ 2) by nra.
  rewrite lmax_repeat.
  2: { unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; exact HN | lra]. }
  cbn [sumsq]. rewrite sumsq_repeat. field. lra.
Qed.

(* -- what the claim asks, for every r: with Definitions 4.1-4.2's constants eps and c, the example is aligned and
   not balanced for every small delta once 2^-r <= eps and 1 <= c < r (example_large_r), the replacement delta = 1 is
   aligned and balanced (replacement_balanced), and for 2^-r > eps no delta makes it aligned (example_small_r). *)
Lemma spectrum_positive : forall n delta, 0 < delta ->
  let (x, l) := spectrum n delta in forall y, In y (x :: l) -> 0 < y.
Proof.
  intros n delta Hd. unfold spectrum.
  assert (HN : 0 < 1 + INR n * delta ^ 2) by (pose proof (pos_INR n); pose proof (pow2_ge_0 delta); nra).
  intros y [<-|Hy]; [apply Rdiv_lt_0_compat; lra|].
  apply repeat_spec in Hy. subst y. apply Rdiv_lt_0_compat; [apply pow_lt|]; lra.
Qed.

Lemma spectrum_length : forall n delta, let (x, l) := spectrum n delta in length (x :: l) = S n.
Proof. intros n delta. unfold spectrum. simpl. now rewrite repeat_length. Qed.

Lemma align_spectrum : forall n delta, 0 < delta ->
  let (x, l) := spectrum n delta in
  cube (S n) (fun z => cube (S n) (fun z' => strict (gap (x :: l) z z'))) = 1 - / 2 ^ S n.
Proof.
  intros n delta Hd. pose proof (spectrum_positive n delta Hd) as P. pose proof (spectrum_length n delta) as L.
  destruct (spectrum n delta) as [x l]. rewrite <- L. apply align_example. exact P.
Qed.

Theorem example_large_r : forall n eps c, 0 < eps -> / 2 ^ S n <= eps -> 1 <= c -> c < INR (S n) ->
  exists d0, 0 < d0 <= 1 /\ forall delta, 0 < delta <= d0 ->
    let (x, l) := spectrum n delta in
    1 - eps <= cube (S n) (fun z => cube (S n) (fun z' => strict (gap (x :: l) z z'))) /\
    sumsq (x :: l) / (lmax x l * lmax x l) < INR (S n) / c.
Proof.
  intros n eps c He H2 Hc1 Hcr.
  set (g := (INR (S n) / c - 1) / (2 * INR (S n))).
  assert (HSn : 0 < INR (S n)) by (apply lt_0_INR; lia).
  assert (Hq : 1 < INR (S n) / c) by (apply (Rmult_lt_reg_r c); [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
  assert (Hg : 0 < g) by (unfold g; apply Rdiv_lt_0_compat; lra).
  exists (Rmin 1 g). split; [split; [apply Rmin_glb_lt; lra | apply Rmin_l]|].
  intros delta [Hd0 Hd1].
  pose proof (align_spectrum n delta Hd0) as A. pose proof (balance_example n delta) as B.
  assert (Hd1' : delta <= 1) by (eapply Rle_trans; [exact Hd1 | apply Rmin_l]).
  assert (Hdg : delta <= g) by (eapply Rle_trans; [exact Hd1 | apply Rmin_r]).
  specialize (B (conj Hd0 Hd1')).
  destruct (spectrum n delta) as [x l]. rewrite A, B. split; [lra|].
  rewrite S_INR in *.
  assert (H4 : delta ^ 4 <= delta).
  { replace (delta ^ 4) with (delta * (delta * delta * delta)) by ring.
    assert (delta * delta * delta <= 1) by (assert (delta * delta <= 1) by nra; nra). nra. }
  pose proof (pos_INR n).
  assert (INR n * delta ^ 4 <= INR n * g) by (apply Rmult_le_compat_l; lra).
  assert (E : (INR n + 1) * g = (INR (S n) / c - 1) / 2) by (unfold g; rewrite S_INR; field; lra).
  rewrite S_INR in E.
  assert (INR n * g <= (INR n + 1) * g) by nra.
  lra.
Qed.

Theorem replacement_balanced : forall n eps c, / 2 ^ S n <= eps -> 1 <= c ->
  let (x, l) := spectrum n 1 in
  1 - eps <= cube (S n) (fun z => cube (S n) (fun z' => strict (gap (x :: l) z z'))) /\
  INR (S n) / c <= sumsq (x :: l) / (lmax x l * lmax x l).
Proof.
  intros n eps c H2 Hc.
  pose proof (align_spectrum n 1 ltac:(lra)) as A. pose proof (balance_example n 1 ltac:(lra)) as B.
  destruct (spectrum n 1) as [x l]. rewrite A, B. split; [lra|].
  rewrite S_INR. pose proof (pos_INR n).
  apply (Rmult_le_reg_r c); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

Theorem example_small_r : forall n eps delta, 0 < delta -> eps < / 2 ^ S n ->
  let (x, l) := spectrum n delta in
  cube (S n) (fun z => cube (S n) (fun z' => strict (gap (x :: l) z z'))) < 1 - eps.
Proof.
  intros n eps delta Hd H2. pose proof (align_spectrum n delta Hd) as A.
  destruct (spectrum n delta) as [x l]. rewrite A. lra.
Qed.
