(* Ren & Li (002_1392d7a5a1d595de.txt), Lemma A.7, the facts its proof prints, for EVERY latent dimension r
   (Coq, by induction on r): in the noiseless infinite-width case C = P_A^T P_B = diag(c), the similarity of a
   pair with latents z, z' is S = z^T C z' = sum_k c_k z_k z'_k; z, z' uniform on {+-1}^r (cube r g is the average
   of g over the 2^r sign vectors of length r). Then
   (a) E_z' exp(beta S) = prod_k cosh(beta c_k) for every sign vector z: it does not depend on z
       (a7_partition; with logarithms, a7_log_partition: sum_k ln cosh(beta c_k));
   the softmax mean E_{z' ~ softmax_z}[z'_k] = z_k tanh(beta c_k) (a7_softmax_mean), so the negative-pair factor
       E_z[z E_softmax[z']^T] = diag(tanh(beta c)) (a7_negative_factor): again not depending on z;
   (b) flipping the signs of z and z' simultaneously leaves S, hence every softmax weight, unchanged (a7_flip).
   tanh is written sinh/cosh. Standalone: coqc -q ren_lemma_a7.v *)
From Coq Require Import Reals List Lra Lia.
Import ListNotations.
Open Scope R_scope.

(* cube r g: the average of g over the 2^r sign vectors of length r *)
Fixpoint cube (r : nat) (g : list R -> R) : R :=
  match r with
  | O => g []
  | S r' => (cube r' (fun w => g (1 :: w)) + cube r' (fun w => g (-1 :: w))) / 2
  end.

(* S = sum_k c_k z_k z'_k *)
Fixpoint sim (c z z' : list R) : R :=
  match c, z, z' with ck :: c', zk :: z1, wk :: z1' => ck * zk * wk + sim c' z1 z1' | _, _, _ => 0 end.
Fixpoint prod_cosh (beta : R) (c : list R) : R :=
  match c with [] => 1 | ck :: c' => cosh (beta * ck) * prod_cosh beta c' end.
Fixpoint sum_ln_cosh (beta : R) (c : list R) : R :=
  match c with [] => 0 | ck :: c' => ln (cosh (beta * ck)) + sum_ln_cosh beta c' end.
Definition signs (z : list R) : Prop := forall s, In s z -> s = 1 \/ s = -1.
Definition tanh (x : R) : R := sinh x / cosh x.
Fixpoint mult2 (s z : list R) : list R :=
  match s, z with a :: s', b :: z' => a * b :: mult2 s' z' | _, _ => [] end.

(* -- auxiliary lemmas on cube (adapted from ren_balance.v) and on cosh/sinh -- *)

(* cube only depends on the values of g *)
Lemma cube_ext : forall r f g, (forall w, f w = g w) -> cube r f = cube r g.
Proof.
  induction r as [|r IH]; intros f g H; simpl; [apply H|].
  rewrite (IH (fun w => f (1 :: w)) (fun w => g (1 :: w))) by (intros; apply H).
  rewrite (IH (fun w => f (-1 :: w)) (fun w => g (-1 :: w))) by (intros; apply H). reflexivity.
Qed.

(* cube r only evaluates g at sign vectors of length r *)
Lemma cube_ext_signs : forall r f g, (forall w, length w = r -> signs w -> f w = g w) -> cube r f = cube r g.
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

(* constants factor out of cube (on the left) *)
Lemma cube_scale : forall r k f, cube r (fun w => k * f w) = k * cube r f.
Proof.
  induction r as [|r IH]; intros k f; simpl; [reflexivity|].
  rewrite (IH k (fun w => f (1 :: w))), (IH k (fun w => f (-1 :: w))). lra.
Qed.

(* constants factor out of cube (on the right) *)
Lemma cube_scale_r : forall r k f, cube r (fun w => f w * k) = cube r f * k.
Proof.
  intros r k f. rewrite (cube_ext r _ (fun w => k * f w)) by (intros; ring).
  rewrite cube_scale. ring.
Qed.

(* E_z[z_j z_k] = [j = k] over the uniform sign vectors of length r *)
Lemma cube_nth_nth : forall r j k, (j < r)%nat -> (k < r)%nat ->
  cube r (fun z => nth j z 0 * nth k z 0) = if Nat.eqb j k then 1 else 0.
Proof.
  induction r as [|r IH]; intros j k Hj Hk; [lia|].
  destruct j as [|j]; destruct k as [|k]; simpl.
  - rewrite !cube_const. lra.
  - rewrite !cube_scale. lra.
  - rewrite !cube_scale_r. lra.
  - rewrite !IH by lia. destruct (Nat.eqb j k); lra.
Qed.

(* cosh is positive *)
Lemma cosh_pos : forall x, 0 < cosh x.
Proof. intros x; unfold cosh; pose proof (exp_pos x); pose proof (exp_pos (- x)); lra. Qed.

(* a product of cosh's is positive *)
Lemma prod_cosh_pos : forall beta c, 0 < prod_cosh beta c.
Proof.
  intros beta; induction c as [|ck c IH]; simpl; [lra|].
  apply Rmult_lt_0_compat; [apply cosh_pos | exact IH].
Qed.

(* exp of beta * (a + x) splits as a product *)
Lemma exp_split : forall b a x, exp (b * (a + x)) = exp (b * a) * exp (b * x).
Proof. intros; rewrite Rmult_plus_distr_l, exp_plus; reflexivity. Qed.

(* for a sign s: the average of exp(x s) and exp(- x s) is cosh x *)
Lemma cosh_avg : forall x s, s = 1 \/ s = -1 ->
  (exp (x * s) + exp (x * - s)) / 2 = cosh x.
Proof.
  intros x s Hs. replace (x * - s) with (- (x * s)) by ring. destruct Hs as [-> | ->]; unfold cosh.
  - rewrite Rmult_1_r. reflexivity.
  - replace (x * -1) with (- x) by ring. rewrite Ropp_involutive. lra.
Qed.

(* for a sign s: half the difference of exp(x s) and exp(- x s) is s sinh x *)
Lemma sinh_avg : forall x s, s = 1 \/ s = -1 ->
  (exp (x * s) - exp (x * - s)) / 2 = s * sinh x.
Proof.
  intros x s Hs. replace (x * - s) with (- (x * s)) by ring. destruct Hs as [-> | ->]; unfold sinh.
  - rewrite Rmult_1_r. lra.
  - replace (x * -1) with (- x) by ring. rewrite Ropp_involutive. lra.
Qed.

(* the tail of a sign vector is a sign vector *)
Lemma signs_tail : forall s z, signs (s :: z) -> signs z.
Proof. intros s z H x Hx; apply H; now right. Qed.

(* the head of a sign vector is a sign *)
Lemma signs_head : forall s z, signs (s :: z) -> s = 1 \/ s = -1.
Proof. intros s z H; apply H; now left. Qed.

Theorem a7_partition : forall beta c z, length z = length c -> signs z ->
  cube (length c) (fun z' => exp (beta * sim c z z')) = prod_cosh beta c.
Proof.
  intros beta c; induction c as [|ck c IH]; intros [|zk z] Hl Hs; simpl in Hl; try discriminate.
  - simpl. rewrite Rmult_0_r, exp_0. reflexivity.
  - injection Hl as Hl. pose proof (signs_head _ _ Hs) as Hzk. apply signs_tail in Hs.
    assert (E : forall s, cube (length c) (fun w => exp (beta * (ck * zk * s + sim c z w)))
                          = exp (beta * (ck * zk * s)) * prod_cosh beta c).
    { intros s. rewrite <- (IH z Hl Hs), <- cube_scale. apply cube_ext; intros w; apply exp_split. }
    simpl. rewrite (E 1), (E (-1)), <- (cosh_avg (beta * ck) zk Hzk).
    replace (beta * (ck * zk * 1)) with (beta * ck * zk) by ring.
    replace (beta * (ck * zk * -1)) with (beta * ck * - zk) by ring. field.
Qed.

Theorem a7_log_partition : forall beta c z, length z = length c -> signs z ->
  ln (cube (length c) (fun z' => exp (beta * sim c z z'))) = sum_ln_cosh beta c.
Proof.
  intros beta c z Hl Hs. rewrite (a7_partition beta c z Hl Hs). clear z Hl Hs.
  induction c as [|ck c IH]; simpl; [apply ln_1|].
  rewrite ln_mult by (apply cosh_pos || apply prod_cosh_pos). rewrite IH. reflexivity.
Qed.

Theorem a7_softmax_mean : forall beta c z k, length z = length c -> signs z -> (k < length c)%nat ->
  cube (length c) (fun z' => nth k z' 0 * exp (beta * sim c z z'))
  = nth k z 0 * tanh (beta * nth k c 0) * cube (length c) (fun z' => exp (beta * sim c z z')).
Proof.
  intros beta c; induction c as [|ck c IH]; intros [|zk z] k Hl Hs Hk; simpl in Hl, Hk; try discriminate; [lia|].
  injection Hl as Hl. pose proof (signs_head _ _ Hs) as Hzk. apply signs_tail in Hs.
  (* the first coordinate of z' factors out of the partition function *)
  assert (E : forall s, cube (length c) (fun w => exp (beta * (ck * zk * s + sim c z w)))
                        = exp (beta * (ck * zk * s)) * prod_cosh beta c).
  { intros s. rewrite <- (a7_partition beta c z Hl Hs), <- cube_scale. apply cube_ext; intros w; apply exp_split. }
  destruct k as [|k].
  - (* k = 0: the first coordinate gives zk sinh(beta ck) against cosh(beta ck) *)
    simpl. rewrite (E 1), (E (-1)), !cube_scale, (E 1), (E (-1)).
    replace (beta * (ck * zk * 1)) with (beta * ck * zk) by ring.
    replace (beta * (ck * zk * -1)) with (beta * ck * - zk) by ring.
    assert (Hc : (exp (beta * ck * zk) * prod_cosh beta c + exp (beta * ck * - zk) * prod_cosh beta c) / 2
                 = cosh (beta * ck) * prod_cosh beta c)
      by (rewrite <- (cosh_avg (beta * ck) zk Hzk); field).
    rewrite Hc.
    assert (Hsn : (1 * (exp (beta * ck * zk) * prod_cosh beta c) + -1 * (exp (beta * ck * - zk) * prod_cosh beta c)) / 2
                  = zk * sinh (beta * ck) * prod_cosh beta c)
      by (rewrite <- (sinh_avg (beta * ck) zk Hzk); field).
    rewrite Hsn. unfold tanh. pose proof (cosh_pos (beta * ck)). field. lra.
  - (* k = S k: the first coordinate factors out of both sides *)
    assert (Hk' : (k < length c)%nat) by lia.
    assert (F : forall s, cube (length c) (fun w => nth k w 0 * exp (beta * (ck * zk * s + sim c z w)))
                          = exp (beta * (ck * zk * s)) *
                            (nth k z 0 * tanh (beta * nth k c 0) * prod_cosh beta c)).
    { intros s. rewrite <- (a7_partition beta c z Hl Hs), <- (IH z k Hl Hs Hk'), <- cube_scale.
      apply cube_ext; intros w. rewrite exp_split. ring. }
    simpl. rewrite (F 1), (F (-1)), (E 1), (E (-1)). field.
Qed.

Theorem a7_negative_factor : forall beta c j k, (j < length c)%nat -> (k < length c)%nat ->
  cube (length c) (fun z => nth j z 0 * (cube (length c) (fun z' => nth k z' 0 * exp (beta * sim c z z'))
                                         / cube (length c) (fun z' => exp (beta * sim c z z'))))
  = if Nat.eqb j k then tanh (beta * nth k c 0) else 0.
Proof.
  intros beta c j k Hj Hk.
  (* on sign vectors z the inner ratio is z_k tanh(beta c_k) *)
  rewrite (cube_ext_signs _ _ (fun z => tanh (beta * nth k c 0) * (nth j z 0 * nth k z 0))).
  2: { intros z Hl Hs. rewrite (a7_softmax_mean beta c z k Hl Hs Hk), (a7_partition beta c z Hl Hs).
       pose proof (prod_cosh_pos beta c). field. lra. }
  rewrite cube_scale, (cube_nth_nth _ j k Hj Hk). destruct (Nat.eqb j k); ring.
Qed.

Theorem a7_flip : forall c z z' s, length z = length c -> length z' = length c -> length s = length c ->
  signs s -> sim c (mult2 s z) (mult2 s z') = sim c z z'.
Proof.
  induction c as [|ck c IH]; intros [|zk z] [|wk z'] [|sk s] Hz Hz' Hs Hsg; simpl in *; try discriminate;
    [reflexivity|].
  injection Hz as Hz; injection Hz' as Hz'; injection Hs as Hs.
  rewrite (IH z z' s Hz Hz' Hs (signs_tail _ _ Hsg)).
  destruct (signs_head _ _ Hsg) as [-> | ->]; ring.
Qed.

(* -- Lemma C.2 (the checker's reconstruction: the closed-form tilted moments of uniform signs). With the tilt
   v = beta c o z (every v in R^r is one), (i) is a7_partition, (ii) a7_softmax_mean, and (iii) for i <> j the
   mixed moment E[w_i w_j e^{v.w}] / E[e^{v.w}] = tanh(v_i) tanh(v_j): *)
Theorem c2_mixed_moment : forall beta c z i j, length z = length c -> signs z ->
  (i < length c)%nat -> (j < length c)%nat -> i <> j ->
  cube (length c) (fun z' => nth i z' 0 * nth j z' 0 * exp (beta * sim c z z'))
  = nth i z 0 * tanh (beta * nth i c 0) * (nth j z 0 * tanh (beta * nth j c 0))
    * cube (length c) (fun z' => exp (beta * sim c z z')).
Proof.
  intros beta c; induction c as [|ck c IH]; intros [|zk z] i j Hl Hs Hi Hj Hij; simpl in Hl, Hi, Hj;
    try discriminate; [lia|].
  injection Hl as Hl. pose proof (signs_head _ _ Hs) as Hzk. apply signs_tail in Hs.
  assert (E : forall s, cube (length c) (fun w => exp (beta * (ck * zk * s + sim c z w)))
                        = exp (beta * (ck * zk * s)) * prod_cosh beta c).
  { intros s. rewrite <- (a7_partition beta c z Hl Hs), <- cube_scale. apply cube_ext; intros w; apply exp_split. }
  (* the moment of one later coordinate, with the first coordinate's factor pulled out *)
  assert (F : forall k s, (k < length c)%nat ->
            cube (length c) (fun w => nth k w 0 * exp (beta * (ck * zk * s + sim c z w)))
            = exp (beta * (ck * zk * s)) * (nth k z 0 * tanh (beta * nth k c 0) * prod_cosh beta c)).
  { intros k s Hk. rewrite <- (a7_partition beta c z Hl Hs), <- (a7_softmax_mean beta c z k Hl Hs Hk), <- cube_scale.
    apply cube_ext; intros w. rewrite exp_split. ring. }
  assert (Hc : forall P, (exp (beta * (ck * zk * 1)) * P + exp (beta * (ck * zk * -1)) * P) / 2
                         = cosh (beta * ck) * P).
  { intros P. rewrite <- (cosh_avg (beta * ck) zk Hzk).
    replace (beta * (ck * zk * 1)) with (beta * ck * zk) by ring.
    replace (beta * (ck * zk * -1)) with (beta * ck * - zk) by ring. field. }
  assert (Hsn : forall P, (1 * (exp (beta * (ck * zk * 1)) * P) + -1 * (exp (beta * (ck * zk * -1)) * P)) / 2
                          = zk * sinh (beta * ck) * P).
  { intros P. rewrite <- (sinh_avg (beta * ck) zk Hzk).
    replace (beta * (ck * zk * 1)) with (beta * ck * zk) by ring.
    replace (beta * (ck * zk * -1)) with (beta * ck * - zk) by ring. field. }
  pose proof (cosh_pos (beta * ck)) as Hcp.
  destruct i as [|i]; destruct j as [|j]; [lia | | | ].
  - (* i = 0 < j: the first coordinate gives zk sinh, the later one its softmax mean *)
    assert (Hj' : (j < length c)%nat) by lia.
    simpl. rewrite (cube_ext _ _ (fun w => 1 * (nth j w 0 * exp (beta * (ck * zk * 1 + sim c z w))))) by (intros; ring).
    rewrite (cube_ext _ (fun w => -1 * nth j w 0 * exp (beta * (ck * zk * -1 + sim c z w)))
                       (fun w => -1 * (nth j w 0 * exp (beta * (ck * zk * -1 + sim c z w))))) by (intros; ring).
    rewrite !cube_scale, (F j 1 Hj'), (F j (-1) Hj'), (E 1), (E (-1)).
    rewrite (Hc (prod_cosh beta c)).
    replace (1 * (exp (beta * (ck * zk * 1)) * (nth j z 0 * tanh (beta * nth j c 0) * prod_cosh beta c)) +
             -1 * (exp (beta * (ck * zk * -1)) * (nth j z 0 * tanh (beta * nth j c 0) * prod_cosh beta c)))
      with (1 * (exp (beta * (ck * zk * 1)) * (nth j z 0 * tanh (beta * nth j c 0) * prod_cosh beta c)) +
            -1 * (exp (beta * (ck * zk * -1)) * (nth j z 0 * tanh (beta * nth j c 0) * prod_cosh beta c))) by ring.
    rewrite (Hsn (nth j z 0 * tanh (beta * nth j c 0) * prod_cosh beta c)).
    pose proof (cosh_pos (beta * nth j c 0)). unfold tanh. field. lra.
  - (* j = 0 < i: symmetric *)
    assert (Hi' : (i < length c)%nat) by lia.
    simpl. rewrite (cube_ext _ _ (fun w => 1 * (nth i w 0 * exp (beta * (ck * zk * 1 + sim c z w))))) by (intros; ring).
    rewrite (cube_ext _ (fun w => nth i w 0 * -1 * exp (beta * (ck * zk * -1 + sim c z w)))
                       (fun w => -1 * (nth i w 0 * exp (beta * (ck * zk * -1 + sim c z w))))) by (intros; ring).
    rewrite !cube_scale, (F i 1 Hi'), (F i (-1) Hi'), (E 1), (E (-1)).
    rewrite (Hc (prod_cosh beta c)).
    rewrite (Hsn (nth i z 0 * tanh (beta * nth i c 0) * prod_cosh beta c)).
    pose proof (cosh_pos (beta * nth i c 0)). unfold tanh. field. lra.
  - (* both later: the first coordinate factors out of both sides *)
    assert (Hi' : (i < length c)%nat) by lia. assert (Hj' : (j < length c)%nat) by lia.
    assert (G : forall s, cube (length c) (fun w => nth i w 0 * nth j w 0 * exp (beta * (ck * zk * s + sim c z w)))
                          = exp (beta * (ck * zk * s)) * (nth i z 0 * tanh (beta * nth i c 0) *
                              (nth j z 0 * tanh (beta * nth j c 0)) * prod_cosh beta c)).
    { intros s. rewrite <- (a7_partition beta c z Hl Hs), <- (IH z i j Hl Hs Hi' Hj' ltac:(lia)), <- cube_scale.
      apply cube_ext; intros w. rewrite exp_split. ring. }
    simpl. rewrite (G 1), (G (-1)), (E 1), (E (-1)). field.
Qed.
