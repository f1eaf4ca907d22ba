(* Merad et al., Lemma 1 (7) and Lemma 2 (8) on their printed domain: every number of classes N_C >= 1, every
   distribution rho on them with rho(c) > 0, every dimension d, every encoder. "Any encoder f" is realized by
   the finite mixtures the losses depend on: class c is a finite distribution D c = [(w, f(x)); ...] of
   embedded points in R^d (weights >= 0 summing to 1, any number of points), so every expectation of the
   paper is an exact finite weighted sum here:
     mu_c = E_{x ~ D_c} f(x)                                                    (4)
     L_sup(f, T) = inf_W E_{(x,c) ~ D_T} [-log softmax_c(W f(x))]               (3)
     L^mu_sup(f, T) = the same objective at W = W^mu (rows mu_c)                 (5)
     L^N_un(f) = E_{(x,x+) ~ D_sim, X- ~ D_neg^N} [-log (e^{f(x)^T f(x+)} / (e^{f(x)^T f(x+)}
                 + sum_{x- in X-} e^{f(x)^T f(x-)}))],  D_sim = sum_c rho(c) D_c(x) D_c(x+),
                 D_neg = sum_c rho(c) D_c (c- = c allowed)                       (6)
     p^rho_cc(N) = P_{I ~ rho^N}(every class occurs in I)                          (Lemma 2)
   Jensen's inequality is proved here (tangent plane of the convex phi(t) = log(1 + sum_i e^{t_i}) at the
   mean, from 1 + u <= e^u), not assumed. *)
From Coq Require Import Reals List Lra Lia.
Import ListNotations.
Open Scope R_scope.

(* ---------- finite weighted sums: a finite distribution is a list of (weight, point) ---------- *)
Fixpoint E {A : Type} (P : list (R * A)) (g : A -> R) : R :=
  match P with [] => 0 | (w, a) :: t => w * g a + E t g end.
Fixpoint mass {A : Type} (P : list (R * A)) : R :=
  match P with [] => 0 | (w, _) :: t => w + mass t end.
Definition dist {A : Type} (P : list (R * A)) : Prop :=
  (forall w a, In (w, a) P -> 0 <= w) /\ mass P = 1.

Lemma E_ext : forall {A} (P : list (R * A)) f g, (forall a, f a = g a) -> E P f = E P g.
Proof. intros A P f g H; induction P as [|[w a] t IH]; simpl; [lra | rewrite H, IH; lra]. Qed.

Lemma E_plus : forall {A} (P : list (R * A)) f g, E P (fun a => f a + g a) = E P f + E P g.
Proof. intros A P f g; induction P as [|[w a] t IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma E_scal : forall {A} (P : list (R * A)) k f, E P (fun a => k * f a) = k * E P f.
Proof. intros A P k f; induction P as [|[w a] t IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma E_const : forall {A} (P : list (R * A)) k, E P (fun _ => k) = k * mass P.
Proof. intros A P k; induction P as [|[w a] t IH]; simpl; [lra | rewrite IH; lra]. Qed.

Lemma E_mono : forall {A} (P : list (R * A)) f g, (forall w a, In (w, a) P -> 0 <= w) ->
  (forall w a, In (w, a) P -> f a <= g a) -> E P f <= E P g.
Proof.
  intros A P f g Hw H; induction P as [|[w a] t IH]; simpl; [lra|].
  assert (0 <= w) by (apply (Hw w a); now left).
  assert (f a <= g a) by (apply (H w a); now left).
  assert (E t f <= E t g) by (apply IH; intros w' a' Hi; [apply (Hw w' a') | apply (H w' a')]; now right).
  pose proof (Rmult_le_compat_l w _ _ H0 H1). lra.
Qed.

Lemma E_swap : forall {A B} (P : list (R * A)) (Q : list (R * B)) h,
  E P (fun a => E Q (fun b => h a b)) = E Q (fun b => E P (fun a => h a b)).
Proof.
  intros A B P Q h; induction P as [|[w a] t IH]; simpl.
  - rewrite E_const; lra.
  - rewrite IH, E_plus, E_scal; reflexivity.
Qed.

Lemma E_dist_const : forall {A} (P : list (R * A)) k, dist P -> E P (fun _ => k) = k.
Proof. intros A P k [_ H]; rewrite E_const, H; lra. Qed.

Lemma E_dist_plus_const : forall {A} (P : list (R * A)) k f, dist P -> E P (fun a => k + f a) = k + E P f.
Proof. intros A P k f H; rewrite E_plus, E_dist_const; auto. Qed.

(* ---------- vectors of R^d: nat -> R, the inner product a finite sum over the d coordinates ---------- *)
Definition V := nat -> R.
Fixpoint dot (d : nat) (u v : V) : R :=
  match d with O => 0 | S d' => dot d' u v + u d' * v d' end.

Lemma dot_comm : forall d u v, dot d u v = dot d v u.
Proof. induction d as [|d IH]; intros u v; simpl; [lra | rewrite IH; lra]. Qed.

(* the mean of a finite distribution of vectors, coordinate by coordinate *)
Definition mean (P : list (R * V)) : V := fun a => E P (fun y => y a).

Lemma E_dot : forall d (P : list (R * V)) u, E P (fun y => dot d u y) = dot d u (mean P).
Proof.
  induction d as [|d IH]; intros P u; simpl.
  - rewrite E_const; lra.
  - rewrite E_plus, IH, E_scal; reflexivity.
Qed.

(* ---------- log-sum-exp ---------- *)
Fixpoint sumexp (l : list R) : R := match l with [] => 0 | x :: t => exp x + sumexp t end.
Definition lse (l : list R) : R := ln (sumexp l).
(* phi(t_1..t_N) = log(1 + sum_i exp t_i) = LSE(0, t_1, ..., t_N); phi [t] = zeta(t) = log(1 + e^t) *)
Definition phi (l : list R) : R := ln (1 + sumexp l).

Lemma ln_le' : forall x y, 0 < x -> x <= y -> ln x <= ln y.
Proof. intros x y Hx [H|H]; [left; apply ln_increasing; lra | subst; lra]. Qed.

Lemma sumexp_nonneg : forall l, 0 <= sumexp l.
Proof. induction l as [|x t IH]; simpl; [lra | pose proof (exp_pos x); lra]. Qed.

Lemma sumexp_map_shift : forall {A} (L : list A) (g : A -> R) s,
  sumexp (map (fun z => g z - s) L) = sumexp (map g L) * exp (- s).
Proof.
  intros A L g s; induction L as [|z t IH]; simpl; [lra|].
  rewrite IH. unfold Rminus. rewrite exp_plus. lra.
Qed.

Lemma phi_nonneg : forall l, 0 <= phi l.
Proof.
  intros l; unfold phi; rewrite <- ln_1. apply ln_le'; [lra|]. pose proof (sumexp_nonneg l); lra.
Qed.

(* the tangent plane of the convex function phi at m: phi t >= phi m + grad phi(m) . (t - m) *)
Fixpoint lin (t m : list R) : R :=
  match t, m with a :: t', b :: m' => exp b * (a - b) + lin t' m' | _, _ => 0 end.

Lemma exp_tangent : forall u M, exp M * (1 + u - M) <= exp u.
Proof.
  intros u M. pose proof (exp_ineq1_le (u - M)) as H. pose proof (exp_pos M) as HM.
  replace (exp u) with (exp M * exp (u - M)) by (rewrite <- exp_plus; f_equal; lra).
  apply Rmult_le_compat_l; lra.
Qed.

Lemma tangent_sum : forall t m M, length t = length m ->
  exp M * (sumexp m * (1 - M) + lin t m) <= sumexp t.
Proof.
  induction t as [|a t IH]; intros [|b m] M Hl; simpl in *; try discriminate.
  - lra.
  - injection Hl as Hl. specialize (IH m M Hl).
    pose proof (exp_tangent (a - b) M) as T. pose proof (exp_pos b) as Hb.
    assert (E1 : exp b * (exp M * (1 + (a - b) - M)) <= exp b * exp (a - b)) by (apply Rmult_le_compat_l; lra).
    replace (exp b * exp (a - b)) with (exp a) in E1 by (rewrite <- exp_plus; f_equal; lra).
    nra.
Qed.

Lemma phi_tangent : forall t m, length t = length m ->
  phi m + lin t m / (1 + sumexp m) <= phi t.
Proof.
  intros t m Hl. unfold phi. set (S := 1 + sumexp m). set (M := lin t m / S).
  assert (HS : 0 < S) by (unfold S; pose proof (sumexp_nonneg m); lra).
  pose proof (tangent_sum t m M Hl) as H.
  pose proof (exp_tangent 0 M) as H0. rewrite exp_0 in H0.
  assert (HL : lin t m = S * M) by (unfold M; field; lra).
  assert (exp M * S <= 1 + sumexp t).
  { replace (exp M * S) with (exp M * (1 - M) + exp M * (sumexp m * (1 - M) + lin t m))
      by (rewrite HL; unfold S; ring). lra. }
  replace (ln S + M) with (ln (exp M * S)) by (rewrite ln_mult, ln_exp; [lra | apply exp_pos | exact HS]).
  apply ln_le'; [pose proof (exp_pos M); nra | exact H1].
Qed.

(* ---------- Section 3's setting: N_C classes 0..N_C-1, masses rho(c) > 0 summing to 1; the class
   distribution D_c is a finite distribution of embedded points f(x) in R^d ---------- *)
Definition classes (NC : nat) (rho : nat -> R) : list (R * nat) := map (fun c => (rho c, c)) (seq 0 NC).
Definition setting (NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) : Prop :=
  (forall c, (c < NC)%nat -> 0 < rho c) /\ mass (classes NC rho) = 1 /\
  (forall c, (c < NC)%nat -> dist (D c)).

(* mu_c = E_{x ~ D_c} f(x), (4) *)
Definition mu (D : nat -> list (R * V)) (c : nat) : V := mean (D c).
(* a_{c'} = f(x)^T (mu_{c'} - mu_c) *)
Definition a (d : nat) (D : nat -> list (R * V)) (x : V) (c c' : nat) : R :=
  dot d x (mu D c') - dot d x (mu D c).

(* supervised side, (3) and (5): a task T is a list of classes, D_T(c) = rho(c) / rho(T) *)
Definition CE (d : nat) (T : list nat) (W : nat -> V) (c : nat) (y : V) : R :=
  - ln (exp (dot d (W c) y) / sumexp (map (fun c' => dot d (W c') y) T)).
Definition rhoT (rho : nat -> R) (T : list nat) : R := fold_right (fun c s => rho c + s) 0 T.
Definition J (d : nat) (rho : nat -> R) (D : nat -> list (R * V)) (T : list nat) (W : nat -> V) : R :=
  E (map (fun c => (rho c / rhoT rho T, c)) T) (fun c => E (D c) (CE d T W c)).
Definition Lsup_mu (d : nat) (rho : nat -> R) (D : nat -> list (R * V)) (T : list nat) : R :=
  J d rho D T (mu D).
Definition is_inf (S : R -> Prop) (m : R) : Prop :=
  (forall v, S v -> m <= v) /\ (forall b, (forall v, S v -> b <= v) -> b <= m).
(* L_sup(f, T) = m: m is the infimum over W of (3) *)
Definition Lsup (d : nat) (rho : nat -> R) (D : nat -> list (R * V)) (T : list nat) (m : R) : Prop :=
  is_inf (fun v => exists W, v = J d rho D T W) m.

(* unsupervised side, (6): (x, x+) ~ D_sim, X- ~ D_neg^N with D_neg = sum_c rho(c) D_c *)
Fixpoint ENeg (NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (n : nat) (g : list V -> R) : R :=
  match n with
  | O => g []
  | S n' => E (classes NC rho) (fun c => E (D c) (fun y => ENeg NC rho D n' (fun ys => g (y :: ys))))
  end.
Definition loss6 (d : nat) (x xp : V) (ys : list V) : R :=
  - ln (exp (dot d x xp) / (exp (dot d x xp) + sumexp (map (dot d x) ys))).
Definition LunN (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N : nat) : R :=
  E (classes NC rho) (fun c => E (D c) (fun x => E (D c) (fun xp => ENeg NC rho D N (loss6 d x xp)))).

(* ---------- the negatives' classes I ~ rho^N, and the negatives given their classes ---------- *)
Fixpoint EI (NC : nat) (rho : nat -> R) (n : nat) (h : list nat -> R) : R :=
  match n with O => h [] | S n' => E (classes NC rho) (fun c => EI NC rho n' (fun I => h (c :: I))) end.
Fixpoint ECls (D : nat -> list (R * V)) (I : list nat) (g : list V -> R) : R :=
  match I with [] => g [] | i :: I' => E (D i) (fun y => ECls D I' (fun ys => g (y :: ys))) end.

Lemma classes_in : forall NC rho w c, In (w, c) (classes NC rho) -> w = rho c /\ (c < NC)%nat.
Proof.
  intros NC rho w c H. unfold classes in H. apply in_map_iff in H. destruct H as [c' [E' Hc]].
  injection E' as <- <-. apply in_seq in Hc. split; [reflexivity | lia].
Qed.

Lemma setting_w : forall NC rho D, setting NC rho D -> forall w c, In (w, c) (classes NC rho) -> 0 <= w.
Proof.
  intros NC rho D [Hr _] w c H. apply classes_in in H. destruct H as [-> Hc]. left; apply Hr; exact Hc.
Qed.

Lemma EI_ext : forall NC rho n h h', (forall I, h I = h' I) -> EI NC rho n h = EI NC rho n h'.
Proof.
  intros NC rho n; induction n as [|n IH]; intros h h' H; simpl; [apply H|].
  apply E_ext; intros c; apply IH; intros I; apply H.
Qed.

Lemma ECls_ext : forall D I g g', (forall ys, g ys = g' ys) -> ECls D I g = ECls D I g'.
Proof.
  intros D I; induction I as [|i I IH]; intros g g' H; simpl; [apply H|].
  apply E_ext; intros y; apply IH; intros ys; apply H.
Qed.

Lemma E_EI_swap : forall {A} NC rho n (P : list (R * A)) h,
  E P (fun z => EI NC rho n (fun I => h z I)) = EI NC rho n (fun I => E P (fun z => h z I)).
Proof.
  intros A NC rho n; induction n as [|n IH]; intros P h; simpl; [reflexivity|].
  rewrite E_swap. apply E_ext; intros c. apply IH.
Qed.

Lemma ENeg_EI : forall NC rho D n g, ENeg NC rho D n g = EI NC rho n (fun I => ECls D I g).
Proof.
  intros NC rho D n; induction n as [|n IH]; intros g; simpl; [reflexivity|].
  apply E_ext; intros c.
  rewrite (E_ext (D c) _ (fun y => EI NC rho n (fun I => ECls D I (fun ys => g (y :: ys))))) by (intros; apply IH).
  apply E_EI_swap.
Qed.

Lemma EI_mono : forall NC rho D n h h', setting NC rho D ->
  (forall I, Forall (fun i => (i < NC)%nat) I -> h I <= h' I) -> EI NC rho n h <= EI NC rho n h'.
Proof.
  intros NC rho D n; induction n as [|n IH]; intros h h' Hs H; simpl; [apply H; constructor|].
  apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c Hc. apply classes_in in Hc.
  apply IH; [exact Hs|]. intros I HI. apply H. constructor; [tauto | exact HI].
Qed.

Lemma EI_scal_r : forall NC rho n h k, EI NC rho n (fun I => h I * k) = EI NC rho n h * k.
Proof.
  intros NC rho n; induction n as [|n IH]; intros h k; simpl; [reflexivity|].
  rewrite (E_ext _ _ (fun c => k * EI NC rho n (fun I => h (c :: I)))) by (intros; rewrite IH; lra).
  rewrite E_scal; lra.
Qed.

Lemma ECls_mono : forall D I g g', (forall i, In i I -> dist (D i)) ->
  (forall ys, length ys = length I -> g ys <= g' ys) -> ECls D I g <= ECls D I g'.
Proof.
  intros D I; induction I as [|i I IH]; intros g g' HD H; simpl; [apply H; reflexivity|].
  apply E_mono; [apply (HD i (or_introl eq_refl))|]. intros w y _.
  apply IH; [intros j Hj; apply HD; now right|]. intros ys Hl. apply H. simpl; lia.
Qed.

Lemma ECls_plus_const : forall D I k g, (forall i, In i I -> dist (D i)) ->
  ECls D I (fun ys => k + g ys) = k + ECls D I g.
Proof.
  intros D I; induction I as [|i I IH]; intros k g HD; simpl; [reflexivity|].
  rewrite (E_ext _ _ (fun y => k + ECls D I (fun ys => g (y :: ys))))
    by (intros; apply IH; intros j Hj; apply HD; now right).
  apply E_dist_plus_const. apply HD; now left.
Qed.

Lemma ECls_scal_r : forall D I k g, ECls D I (fun ys => g ys * k) = ECls D I g * k.
Proof.
  intros D I; induction I as [|i I IH]; intros k g; simpl; [reflexivity|].
  rewrite (E_ext _ _ (fun y => k * ECls D I (fun ys => g (y :: ys)))) by (intros; rewrite IH; lra).
  rewrite E_scal; lra.
Qed.

(* the linear part of the tangent plane averages out: E over the negatives given their classes I *)
Lemma ECls_lin : forall d D x c s I, (forall i, In i I -> dist (D i)) ->
  ECls D I (fun ys => lin (map (fun y => dot d x y - s) ys) (map (a d D x c) I))
  = sumexp (map (a d D x c) I) * (dot d x (mu D c) - s).
Proof.
  intros d D x c s I; induction I as [|i I IH]; intros HD; simpl; [lra|].
  rewrite (E_ext _ _ (fun y => exp (a d D x c i) * (dot d x y - s - a d D x c i)
      + ECls D I (fun ys => lin (map (fun y => dot d x y - s) ys) (map (a d D x c) I)))).
  2:{ intros y. simpl. rewrite ECls_plus_const; [reflexivity|]. intros j Hj; apply HD; now right. }
  rewrite E_plus, E_scal, IH by (intros j Hj; apply HD; now right).
  assert (HDi : dist (D i)) by (apply HD; now left).
  rewrite (E_ext _ _ (fun y => dot d x y + - (s + a d D x c i))) by (intros; lra).
  rewrite E_plus, E_dist_const, E_dot by exact HDi.
  rewrite E_dist_const by exact HDi. unfold a, mu. ring.
Qed.

Lemma loss6_phi : forall d x xp ys, loss6 d x xp ys = phi (map (fun y => dot d x y - dot d x xp) ys).
Proof.
  intros d x xp ys. unfold loss6, phi. rewrite sumexp_map_shift.
  set (s := dot d x xp). set (S := sumexp (map (dot d x) ys)).
  assert (HS : 0 <= S) by apply sumexp_nonneg. pose proof (exp_pos s) as Hs.
  replace (exp s / (exp s + S)) with (/ (1 + S * exp (- s))).
  - rewrite ln_Rinv; [lra|]. pose proof (exp_pos (- s)). nra.
  - rewrite exp_Ropp. field. split; lra.
Qed.

(* Jensen's inequality for the convex phi, given the classes I of the negatives (tangent plane at the mean) *)
Lemma jensen_I : forall d NC rho D x c I, setting NC rho D -> (c < NC)%nat ->
  Forall (fun i => (i < NC)%nat) I ->
  phi (map (a d D x c) I) <= E (D c) (fun xp => ECls D I (loss6 d x xp)).
Proof.
  intros d NC rho D x c I Hs Hc HI.
  assert (HD : forall i, In i I -> dist (D i)).
  { intros i Hi. destruct Hs as [_ [_ H]]. apply H. rewrite Forall_forall in HI. apply HI, Hi. }
  assert (HDc : dist (D c)) by (destruct Hs as [_ [_ H]]; apply H, Hc).
  set (m := map (a d D x c) I). set (S := 1 + sumexp m).
  assert (HS : 0 < S) by (unfold S; pose proof (sumexp_nonneg m); lra).
  apply Rle_trans with
    (E (D c) (fun xp => ECls D I (fun ys => phi m + lin (map (fun y => dot d x y - dot d x xp) ys) m * / S))).
  - rewrite (E_ext _ _ (fun xp => phi m + sumexp m * (dot d x (mu D c) - dot d x xp) * / S)).
    2:{ intros xp. rewrite ECls_plus_const by exact HD. rewrite ECls_scal_r. unfold m. rewrite ECls_lin by exact HD.
        reflexivity. }
    rewrite E_dist_plus_const by exact HDc.
    rewrite (E_ext _ _ (fun xp => sumexp m * / S * (dot d x (mu D c) + - dot d x xp))) by (intros; ring).
    rewrite E_scal, E_plus, E_dist_const by exact HDc.
    rewrite (E_ext _ _ (fun xp => -1 * dot d x xp)) by (intros; ring).
    rewrite E_scal, E_dot. unfold mu. right; ring.
  - apply E_mono; [apply HDc|]. intros w xp _. apply ECls_mono; [exact HD|]. intros ys Hl.
    rewrite loss6_phi. apply phi_tangent. unfold m. rewrite !map_length. exact Hl.
Qed.

(* the Jensen step shared by Lemma 1, Lemma 2 and Proposition 1 (2):
   L^N_un(f) >= E_{c ~ rho, x ~ D_c, I ~ rho^N} phi(a_{I_1}, ..., a_{I_N}) *)
Lemma jensen_lower : forall d NC rho D N, setting NC rho D ->
  E (classes NC rho) (fun c => E (D c) (fun x => EI NC rho N (fun I => phi (map (a d D x c) I))))
  <= LunN d NC rho D N.
Proof.
  intros d NC rho D N Hs. unfold LunN.
  apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c Hc. apply classes_in in Hc. destruct Hc as [_ Hc].
  assert (HDc : dist (D c)) by (destruct Hs as [_ [_ H]]; apply H, Hc).
  apply E_mono; [apply HDc|]. intros w' x _.
  rewrite (E_ext _ _ (fun xp => EI NC rho N (fun I => ECls D I (loss6 d x xp)))) by (intros; apply ENeg_EI).
  rewrite E_EI_swap. apply (EI_mono _ _ D); [exact Hs|]. intros I HI. apply jensen_I with (rho := rho) (NC := NC); assumption.
Qed.

Lemma E_ext_in : forall {A} (P : list (R * A)) f g, (forall w z, In (w, z) P -> f z = g z) -> E P f = E P g.
Proof.
  intros A P f g H; induction P as [|[w z] t IH]; simpl; [lra|].
  rewrite (H w z (or_introl eq_refl)), IH; [lra|]. intros w' z' Hi; apply (H w' z'); now right.
Qed.

Lemma setting_NC : forall NC rho D, setting NC rho D -> (1 <= NC)%nat.
Proof. intros NC rho D [_ [H _]]. destruct NC; [simpl in H; lra | lia]. Qed.

Lemma setting_dist : forall NC rho D, setting NC rho D -> dist (classes NC rho).
Proof. intros NC rho D Hs. split; [apply (setting_w _ _ _ Hs) | apply Hs]. Qed.

Lemma rhoT_mass : forall rho L, rhoT rho L = mass (map (fun c => (rho c, c)) L).
Proof. intros rho L; induction L as [|c L IH]; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma sumexp_pos : forall x l, 0 < sumexp (x :: l).
Proof. intros x l; simpl; pose proof (exp_pos x); pose proof (sumexp_nonneg l); lra. Qed.

(* -log softmax_c(W^mu f(x)) = LSE_{c' in T}(f(x)^T (mu_{c'} - mu_c)) *)
Lemma CE_mu : forall d D T c x, T <> [] -> CE d T (mu D) c x = lse (map (a d D x c) T).
Proof.
  intros d D T c x HT. unfold CE, lse, a.
  rewrite (map_ext (fun c' => dot d (mu D c') x) (fun c' => dot d x (mu D c'))) by (intros; apply dot_comm).
  rewrite (dot_comm d (mu D c) x). rewrite sumexp_map_shift.
  set (S := sumexp (map (fun c' => dot d x (mu D c')) T)). set (s := dot d x (mu D c)).
  assert (HS : 0 < S) by (unfold S; destruct T as [|t T]; [congruence | apply sumexp_pos]).
  pose proof (exp_pos s). pose proof (exp_pos (- s)).
  replace (exp s / S) with (/ (S * exp (- s))) by (rewrite exp_Ropp; field; lra).
  rewrite ln_Rinv; [lra | nra].
Qed.

(* L^mu_sup(f, C) of (5), written out *)
Lemma Lsup_mu_C : forall d NC rho D, setting NC rho D ->
  Lsup_mu d rho D (seq 0 NC) = E (classes NC rho) (fun c => E (D c) (fun x => lse (map (a d D x c) (seq 0 NC)))).
Proof.
  intros d NC rho D Hs. unfold Lsup_mu, J.
  assert (H1 : rhoT rho (seq 0 NC) = 1) by (rewrite rhoT_mass; apply Hs).
  rewrite H1. rewrite (map_ext (fun c => (rho c / 1, c)) (fun c => (rho c, c))) by (intros; unfold Rdiv; rewrite Rinv_1, Rmult_1_r; reflexivity).
  fold (classes NC rho). apply E_ext; intros c. apply E_ext; intros x. apply CE_mu.
  pose proof (setting_NC _ _ _ Hs). destruct NC; [lia | discriminate].
Qed.

(* ---------- Lemma 1 ---------- *)
Fixpoint zsum (L : list nat) (g : nat -> R) : R := match L with [] => 0 | c :: t => phi [g c] + zsum t g end.

Lemma zeta_ge : forall t, t <= phi [t].
Proof.
  intros t. unfold phi. simpl. rewrite <- (ln_exp t) at 1. apply ln_le'; [apply exp_pos|]. pose proof (exp_pos t); lra.
Qed.

Lemma zsum_nonneg : forall L g, 0 <= zsum L g.
Proof. induction L as [|c t IH]; intros g; simpl; [lra | pose proof (phi_nonneg [g c]); specialize (IH g); lra]. Qed.

Lemma zsum_ge : forall L g c, In c L -> phi [g c] <= zsum L g.
Proof.
  induction L as [|z t IH]; intros g c H; [destruct H|]. simpl. destruct H as [<-|H].
  - pose proof (zsum_nonneg t g); lra.
  - pose proof (phi_nonneg [g z]); specialize (IH g c H); lra.
Qed.

Lemma sumexp_le_bound : forall (L : list nat) g M, (forall c, In c L -> g c <= M) ->
  sumexp (map g L) <= INR (length L) * exp M.
Proof.
  induction L as [|c t IH]; intros g M H; cbn [map sumexp length]; [simpl; lra|]. rewrite S_INR.
  assert (exp (g c) <= exp M).
  { destruct (Req_dec (g c) M) as [->|]; [lra|]. left; apply exp_increasing. pose proof (H c (or_introl eq_refl)); lra. }
  assert (sumexp (map g t) <= INR (length t) * exp M) by (apply IH; intros; apply H; now right). lra.
Qed.

(* LSE(a) <= log n + sum_j zeta(a_j) *)
Lemma lse_le_zsum : forall (L : list nat) g, L <> [] -> lse (map g L) <= ln (INR (length L)) + zsum L g.
Proof.
  intros L g HL. unfold lse.
  assert (Hn : 0 < INR (length L)) by (apply lt_0_INR; destruct L; [congruence | simpl; lia]).
  replace (ln (INR (length L)) + zsum L g) with (ln (INR (length L) * exp (zsum L g)))
    by (rewrite ln_mult, ln_exp; [lra | exact Hn | apply exp_pos]).
  apply ln_le'; [destruct L as [|c t]; [congruence | apply sumexp_pos]|].
  apply sumexp_le_bound. intros c Hc. pose proof (zeta_ge (g c)). pose proof (zsum_ge L g c Hc). lra.
Qed.

Lemma E_pmin : forall (L : list nat) rho g pmin, 0 <= pmin -> (forall c, In c L -> pmin <= rho c) ->
  pmin * zsum L g <= E (map (fun c => (rho c, c)) L) (fun c => phi [g c]).
Proof.
  induction L as [|c t IH]; intros rho g pmin Hp H; simpl; [lra|].
  pose proof (phi_nonneg [g c]). pose proof (H c (or_introl eq_refl)).
  assert (pmin * zsum t g <= E (map (fun c => (rho c, c)) t) (fun c => phi [g c])) by (apply IH; auto; intros; apply H; now right).
  nra.
Qed.

Lemma lemma1_pointwise : forall d NC rho D x c pmin, setting NC rho D -> 0 < pmin ->
  (forall c, (c < NC)%nat -> pmin <= rho c) ->
  pmin * (lse (map (a d D x c) (seq 0 NC)) - ln (INR NC)) <= EI NC rho 1 (fun I => phi (map (a d D x c) I)).
Proof.
  intros d NC rho D x c pmin Hs Hp Hmin. simpl. unfold classes.
  pose proof (lse_le_zsum (seq 0 NC) (a d D x c)) as B. rewrite seq_length in B.
  assert (seq 0 NC <> []) by (pose proof (setting_NC _ _ _ Hs); destruct NC; [lia | discriminate]).
  specialize (B H).
  pose proof (E_pmin (seq 0 NC) rho (a d D x c) pmin (Rlt_le _ _ Hp)) as C.
  assert (pmin * zsum (seq 0 NC) (a d D x c) <= E (map (fun c => (rho c, c)) (seq 0 NC)) (fun c' => phi [a d D x c c'])).
  { apply C. intros c' Hc'. apply Hmin. apply in_seq in Hc'. lia. }
  apply Rle_trans with (pmin * zsum (seq 0 NC) (a d D x c)); [apply Rmult_le_compat_l; lra|].
  apply Rle_trans with (1 := H0). right. apply E_ext. intros c'. reflexivity.
Qed.

Lemma E_affine_classes : forall NC rho D (G : nat -> V -> R) p q, setting NC rho D ->
  E (classes NC rho) (fun c => E (D c) (fun x => p * G c x + q)) =
  p * E (classes NC rho) (fun c => E (D c) (G c)) + q.
Proof.
  intros NC rho D G p q Hs.
  rewrite (E_ext_in _ _ (fun c => p * E (D c) (G c) + q)).
  - rewrite E_plus, E_scal, E_dist_const by apply (setting_dist _ _ _ Hs). reflexivity.
  - intros w c Hc. apply classes_in in Hc. destruct Hc as [_ Hc].
    assert (dist (D c)) by (apply Hs, Hc). rewrite E_plus, E_scal, E_dist_const by assumption. reflexivity.
Qed.

(* ============ Lemma 1 (7): L_sup(f, C) <= L^mu_sup(f, C) <= L_un(f) / p_min + log N_C ============ *)
Theorem lemma1_left : forall (d : nat) (rho : nat -> R) (D : nat -> list (R * V)) (T : list nat) (m : R),
  Lsup d rho D T m -> m <= Lsup_mu d rho D T.
Proof. intros d rho D T m [H _]. apply H. exists (mu D). reflexivity. Qed.

Theorem lemma1_right : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (pmin : R),
  setting NC rho D -> 0 < pmin -> (forall c, (c < NC)%nat -> pmin <= rho c) ->
  Lsup_mu d rho D (seq 0 NC) <= LunN d NC rho D 1 / pmin + ln (INR NC).
Proof.
  intros d NC rho D pmin Hs Hp Hmin.
  pose proof (jensen_lower d NC rho D 1 Hs) as Jl.
  assert (Hl : E (classes NC rho) (fun c => E (D c) (fun x => pmin * lse (map (a d D x c) (seq 0 NC)) + - pmin * ln (INR NC)))
               <= LunN d NC rho D 1).
  { apply Rle_trans with (2 := Jl). apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c Hc.
    apply classes_in in Hc. destruct Hc as [_ Hc]. apply E_mono; [apply Hs, Hc|]. intros w' x _.
    pose proof (lemma1_pointwise d NC rho D x c pmin Hs Hp Hmin). lra. }
  rewrite E_affine_classes, <- Lsup_mu_C in Hl by exact Hs.
  apply (Rmult_le_reg_l pmin); [exact Hp|].
  replace (pmin * (LunN d NC rho D 1 / pmin + ln (INR NC))) with (LunN d NC rho D 1 + pmin * ln (INR NC)) by (field; lra).
  lra.
Qed.

(* ---------- Lemma 2 ---------- *)
(* I covers C: every class 0..N_C-1 occurs among the negatives' classes I *)
Definition covers (NC : nat) (I : list nat) : bool := forallb (fun c => existsb (Nat.eqb c) I) (seq 0 NC).
(* p^rho_cc(N) = P_{I ~ rho^N}(every class is drawn): all coupons after N draws from rho *)
Definition pcc (NC : nat) (rho : nat -> R) (N : nat) : R := EI NC rho N (fun I => if covers NC I then 1 else 0).

Lemma sumexp_app : forall l1 l2, sumexp (l1 ++ l2) = sumexp l1 + sumexp l2.
Proof. induction l1 as [|x t IH]; intros l2; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumexp_incl : forall (S L : list nat) g, NoDup S -> incl S L -> sumexp (map g S) <= sumexp (map g L).
Proof.
  induction S as [|s S IH]; intros L g Hnd Hi; simpl; [apply sumexp_nonneg|].
  inversion Hnd as [|s' S' Hs HS]; subst.
  destruct (in_split s L (Hi s (or_introl eq_refl))) as [L1 [L2 ->]].
  rewrite map_app, sumexp_app. cbn [map sumexp].
  assert (sumexp (map g S) <= sumexp (map g (L1 ++ L2))).
  { apply IH; [exact HS|]. intros z Hz. assert (Hz' : In z (L1 ++ s :: L2)) by (apply Hi; now right).
    apply in_app_or in Hz'. apply in_or_app. destruct Hz' as [H|[H|H]]; [now left | subst; contradiction | now right]. }
  rewrite map_app, sumexp_app in H. lra.
Qed.

Lemma covers_incl : forall NC I, covers NC I = true -> incl (seq 0 NC) I.
Proof.
  intros NC I H c Hc. unfold covers in H. rewrite forallb_forall in H. specialize (H c Hc).
  apply existsb_exists in H. destruct H as [z [Hz E']]. apply Nat.eqb_eq in E'. subst; exact Hz.
Qed.

Lemma lemma2_pointwise : forall d NC rho D x c N, setting NC rho D ->
  pcc NC rho N * lse (map (a d D x c) (seq 0 NC)) <= EI NC rho N (fun I => phi (map (a d D x c) I)).
Proof.
  intros d NC rho D x c N Hs. unfold pcc. rewrite <- EI_scal_r. apply (EI_mono _ _ D); [exact Hs|]. intros I _.
  destruct (covers NC I) eqn:Hc.
  - rewrite Rmult_1_l. unfold lse, phi. apply ln_le'.
    + pose proof (setting_NC _ _ _ Hs). destruct NC; [lia | apply sumexp_pos].
    + pose proof (sumexp_incl (seq 0 NC) I (a d D x c) (seq_NoDup NC 0) (covers_incl NC I Hc)). lra.
  - rewrite Rmult_0_l. apply phi_nonneg.
Qed.

(* ============ Lemma 2 (8): L^mu_sup(f, C) <= L^N_un(f) / p^rho_cc(N) ============ *)
Theorem lemma2_product : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N : nat),
  setting NC rho D -> pcc NC rho N * Lsup_mu d rho D (seq 0 NC) <= LunN d NC rho D N.
Proof.
  intros d NC rho D N Hs. apply Rle_trans with (2 := jensen_lower d NC rho D N Hs).
  rewrite Lsup_mu_C by exact Hs.
  replace (pcc NC rho N * E (classes NC rho) (fun c => E (D c) (fun x => lse (map (a d D x c) (seq 0 NC)))))
    with (E (classes NC rho) (fun c => E (D c) (fun x => pcc NC rho N * lse (map (a d D x c) (seq 0 NC)) + 0)))
    by (rewrite E_affine_classes by exact Hs; ring).
  apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c Hc. apply classes_in in Hc. destruct Hc as [_ Hc].
  apply E_mono; [apply Hs, Hc|]. intros w' x _. rewrite Rplus_0_r. apply lemma2_pointwise, Hs.
Qed.

Theorem lemma2_right : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N : nat),
  setting NC rho D -> 0 < pcc NC rho N ->
  Lsup_mu d rho D (seq 0 NC) <= LunN d NC rho D N / pcc NC rho N.
Proof.
  intros d NC rho D N Hs Hp. pose proof (lemma2_product d NC rho D N Hs).
  apply (Rmult_le_reg_l (pcc NC rho N)); [exact Hp|].
  replace (pcc NC rho N * (LunN d NC rho D N / pcc NC rho N)) with (LunN d NC rho D N) by (field; lra). exact H.
Qed.

(* p^rho_cc(N) > 0 for every N >= N_C (the draws I = (0, 1, ..., N_C - 1, ...) have positive mass) *)
Definition covS (S I : list nat) : bool := forallb (fun c => existsb (Nat.eqb c) I) S.

Lemma E_nonneg : forall {A} (P : list (R * A)) g, (forall w z, In (w, z) P -> 0 <= w * g z) -> 0 <= E P g.
Proof.
  intros A P g H; induction P as [|[w z] t IH]; simpl; [lra|].
  pose proof (H w z (or_introl eq_refl)). assert (0 <= E t g) by (apply IH; intros; apply (H w0 z0); now right). lra.
Qed.

Lemma E_term : forall (L : list nat) rho g c0, In c0 L -> (forall c, In c L -> 0 <= rho c * g c) ->
  rho c0 * g c0 <= E (map (fun c => (rho c, c)) L) g.
Proof.
  induction L as [|c t IH]; intros rho g c0 Hin H; [destruct Hin|]. simpl.
  assert (Ht : 0 <= E (map (fun c => (rho c, c)) t) g).
  { apply E_nonneg. intros w z Hz. apply in_map_iff in Hz. destruct Hz as [z' [E' Hz']]. injection E' as <- <-.
    apply H; now right. }
  destruct Hin as [<-|Hin]; [lra|].
  pose proof (H c (or_introl eq_refl)). assert (rho c0 * g c0 <= E (map (fun c => (rho c, c)) t) g)
    by (apply IH; auto; intros; apply H; now right). lra.
Qed.

Lemma EI_nonneg : forall NC rho D n h, setting NC rho D -> (forall I, 0 <= h I) -> 0 <= EI NC rho n h.
Proof.
  intros NC rho D n; induction n as [|n IH]; intros h Hs H; simpl; [apply H|].
  apply E_nonneg. intros w c Hc. apply classes_in in Hc. destruct Hc as [-> Hc].
  assert (0 < rho c) by (apply Hs, Hc). assert (0 <= EI NC rho n (fun I => h (c :: I))) by (apply IH; auto).
  nra.
Qed.

Lemma covS_pos : forall NC rho D n S, setting NC rho D -> (forall c, In c S -> (c < NC)%nat) -> (length S <= n)%nat ->
  0 < EI NC rho n (fun I => if covS S I then 1 else 0).
Proof.
  intros NC rho D n; induction n as [|n IH]; intros S Hs HS Hl.
  - destruct S; [simpl; lra | simpl in Hl; lia].
  - simpl. set (c0 := match S with [] => O | s :: _ => s end).
    assert (Hc0 : (c0 < NC)%nat) by (unfold c0; destruct S as [|s S']; [apply (setting_NC _ _ _ Hs) | apply HS; now left]).
    set (S' := match S with [] => [] | _ :: t => t end).
    assert (Hpos : 0 < EI NC rho n (fun I => if covS S' I then 1 else 0)).
    { apply IH; [exact Hs | | ].
      - intros c Hc. apply HS. unfold S' in Hc. destruct S; [destruct Hc | now right].
      - unfold S'. destruct S; simpl in *; lia. }
    assert (Hge : EI NC rho n (fun I => if covS S' I then 1 else 0) <= EI NC rho n (fun I => if covS S (c0 :: I) then 1 else 0)).
    { apply (EI_mono _ _ D); [exact Hs|]. intros I _. unfold S', c0. destruct S as [|s t]; [simpl; lra|].
      destruct (covS t I) eqn:E1; [|destruct (covS (s :: t) (s :: I)); lra].
      assert (covS (s :: t) (s :: I) = true).
      { unfold covS in *. simpl. rewrite Nat.eqb_refl. simpl. rewrite forallb_forall in *. intros z Hz.
        specialize (E1 z Hz). simpl. rewrite E1. destruct (z =? s)%nat; reflexivity. }
      rewrite H; lra. }
    assert (0 < rho c0) by (apply Hs, Hc0).
    apply Rlt_le_trans with (rho c0 * EI NC rho n (fun I => if covS S (c0 :: I) then 1 else 0)); [nra|].
    apply (E_term (seq 0 NC) rho (fun c => EI NC rho n (fun I => if covS S (c :: I) then 1 else 0)) c0).
    + apply in_seq; lia.
    + intros c Hc. apply in_seq in Hc. assert (0 < rho c) by (apply Hs; lia).
      assert (0 <= EI NC rho n (fun I => if covS S (c :: I) then 1 else 0)) by (apply (EI_nonneg _ _ D); [exact Hs | intros; destruct (covS S (c :: I)); lra]).
      nra.
Qed.

Theorem pcc_pos : forall (NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N : nat),
  setting NC rho D -> (NC <= N)%nat -> 0 < pcc NC rho N.
Proof.
  intros NC rho D N Hs HN. apply (covS_pos NC rho D N (seq 0 NC) Hs).
  - intros c Hc; apply in_seq in Hc; lia.
  - rewrite seq_length; exact HN.
Qed.

(* ============ Lemma 2 (8) at every N >= N_C ============ *)
Theorem lemma2 : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N : nat),
  setting NC rho D -> (NC <= N)%nat ->
  Lsup_mu d rho D (seq 0 NC) <= LunN d NC rho D N / pcc NC rho N.
Proof. intros d NC rho D N Hs HN. apply lemma2_right; [exact Hs | apply (pcc_pos NC rho D N Hs HN)]. Qed.
