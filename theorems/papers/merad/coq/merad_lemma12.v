(* Merad et al., Lemma 1 (7), Lemma 2 (8) and Proposition 1 (2) on their printed domain: every number of classes N_C >= 1, every
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
   mean, from 1 + u <= e^u), not assumed. Proposition 1 (2) (at the end): rho uniform, the (k+1)-way tasks
   the order-preserving sublists of length k+1 of [0; ...; N_C - 1] (each subset once), L^mu_sup,k (10) their
   uniform average, tau+_N = sum_c rho(c) rho(c)^N. *)
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

(* ---------- Proposition 1 (2): uniform rho, (k+1)-way tasks ---------- *)
(* the (k+1)-way tasks: the order-preserving sublists of length k+1 of C = [0; ...; N_C - 1], each subset once *)
Fixpoint choose (k : nat) (l : list nat) {struct l} : list (list nat) :=
  match l with
  | [] => match k with O => [[]] | S _ => [] end
  | x :: t => match k with O => [[]] | S k' => map (cons x) (choose k' t) ++ choose k t end
  end.
Fixpoint binom (n k : nat) : nat :=
  match n, k with
  | _, O => 1%nat
  | O, S _ => 0%nat
  | S n', S k' => (binom n' k' + binom n' k)%nat
  end.
Fixpoint sumL (L : list nat) (g : nat -> R) : R := match L with [] => 0 | c :: t => g c + sumL t g end.
Fixpoint sumT (Ts : list (list nat)) (F : list nat -> R) : R := match Ts with [] => 0 | T :: t => F T + sumT t F end.

Definition tasks (NC k : nat) : list (list nat) := choose (S k) (seq 0 NC).
(* (10): L^mu_sup,k(f) = E_{T ~ D^{k+1}} L^mu_sup(f, T), D^{k+1} uniform over the (k+1)-way tasks *)
Definition Lsup_mu_k (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (k : nat) : R :=
  sumT (tasks NC k) (Lsup_mu d rho D) / INR (length (tasks NC k)).
(* tau+_N = P(c_i = c for all i | (c, c_1, ..., c_N) ~ rho^(N+1)) = sum_c rho(c) rho(c)^N *)
Definition tau (NC : nat) (rho : nat -> R) (N : nat) : R := E (classes NC rho) (fun c => rho c ^ N).

Lemma choose_length : forall l k, length (choose k l) = binom (length l) k.
Proof.
  induction l as [|x t IH]; intros [|k]; try reflexivity.
  cbn [choose length]. rewrite app_length, map_length, !IH. reflexivity.
Qed.

Lemma choose_sizes : forall l k s, In s (choose k l) -> length s = k.
Proof.
  induction l as [|x t IH]; intros [|k] s H; simpl in H.
  - destruct H as [<-|[]]; reflexivity.
  - destruct H.
  - destruct H as [<-|[]]; reflexivity.
  - apply in_app_or in H. destruct H as [H|H].
    + apply in_map_iff in H. destruct H as [s' [<- Hs']]. simpl. f_equal. apply (IH k). exact Hs'.
    + apply (IH (S k)). exact H.
Qed.

Lemma choose_sub : forall l k s z, In s (choose k l) -> In z s -> In z l.
Proof.
  induction l as [|x t IH]; intros [|k] s z H Hz; simpl in H.
  - destruct H as [<-|[]]; destruct Hz.
  - destruct H.
  - destruct H as [<-|[]]; destruct Hz.
  - apply in_app_or in H. destruct H as [H|H].
    + apply in_map_iff in H. destruct H as [s' [<- Hs']]. destruct Hz as [<-|Hz]; [left; reflexivity|].
      right. exact (IH k s' z Hs' Hz).
    + right. exact (IH (S k) s z H Hz).
Qed.

Lemma choose_NoDup : forall l k s, NoDup l -> In s (choose k l) -> NoDup s.
Proof.
  induction l as [|x t IH]; intros [|k] s Hnd H; simpl in H.
  - destruct H as [<-|[]]; constructor.
  - destruct H.
  - destruct H as [<-|[]]; constructor.
  - inversion Hnd as [|x' t' Hx Ht]; subst. apply in_app_or in H. destruct H as [H|H].
    + apply in_map_iff in H. destruct H as [s' [<- Hs']]. constructor.
      * intros Hin. apply Hx. exact (choose_sub t k s' x Hs' Hin).
      * exact (IH k s' Ht Hs').
    + exact (IH (S k) s Ht H).
Qed.

Lemma sumT_app : forall A B F, sumT (A ++ B) F = sumT A F + sumT B F.
Proof. induction A as [|T A IH]; intros B F; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumT_cons : forall x Ts F, sumT (map (cons x) Ts) F = sumT Ts (fun T => F (x :: T)).
Proof. induction Ts as [|T Ts IH]; intros F; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma sumT_ext : forall Ts F G, (forall T, In T Ts -> F T = G T) -> sumT Ts F = sumT Ts G.
Proof.
  induction Ts as [|T Ts IH]; intros F G H; simpl; [reflexivity|].
  rewrite (H T (or_introl eq_refl)), (IH F G); [reflexivity|]. intros; apply H; now right.
Qed.

Lemma sumT_mono : forall Ts F G, (forall T, In T Ts -> F T <= G T) -> sumT Ts F <= sumT Ts G.
Proof.
  induction Ts as [|T Ts IH]; intros F G H; simpl; [lra|].
  pose proof (H T (or_introl eq_refl)). assert (sumT Ts F <= sumT Ts G) by (apply IH; intros; apply H; now right). lra.
Qed.

Lemma sumT_plus : forall Ts F G, sumT Ts (fun T => F T + G T) = sumT Ts F + sumT Ts G.
Proof. induction Ts as [|T Ts IH]; intros F G; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumT_scal : forall Ts k F, sumT Ts (fun T => k * F T) = k * sumT Ts F.
Proof. induction Ts as [|T Ts IH]; intros k F; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumL_plus : forall L f g, sumL L (fun c => f c + g c) = sumL L f + sumL L g.
Proof. induction L as [|c L IH]; intros f g; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumL_ext : forall L f g, (forall c, In c L -> f c = g c) -> sumL L f = sumL L g.
Proof.
  induction L as [|c L IH]; intros f g H; simpl; [reflexivity|].
  rewrite (H c (or_introl eq_refl)), (IH f g); [reflexivity|]. intros; apply H; now right.
Qed.

(* each k-subset: sum over the k-subsets S of sum_{i in S} v_i = C(m - 1, k - 1) sum_i v_i *)
Lemma subsets_total : forall l v k,
  sumT (choose (S k) l) (fun s => sumL s v) = INR (binom (length l - 1) k) * sumL l v.
Proof.
  induction l as [|x t IH]; intros v k; [simpl; lra|].
  cbn [choose]. rewrite sumT_app, sumT_cons.
  rewrite (sumT_ext _ _ (fun T => v x + sumL T v)) by reflexivity. rewrite sumT_plus.
  assert (Hc : forall Ts c, sumT Ts (fun _ => c) = INR (length Ts) * c).
  { induction Ts as [|T Ts IHT]; intros c; simpl; [lra | rewrite IHT; destruct (length Ts); simpl; lra]. }
  rewrite Hc, choose_length.
  replace (length (x :: t) - 1)%nat with (length t) by (simpl; lia). cbn [sumL].
  destruct k as [|k].
  - rewrite (IH v 0%nat). assert (B : forall n, binom n 0 = 1%nat) by (intros [|n]; reflexivity).
    rewrite !B. assert (Z : sumT (choose 0 t) (fun s => sumL s v) = 0) by (destruct t; simpl; lra).
    rewrite Z. cbn [INR]. lra.
  - rewrite !IH. destruct t as [|z t'].
    + simpl. lra.
    + replace (length (z :: t') - 1)%nat with (length t') by (simpl; lia).
      replace (length (z :: t')) with (S (length t')) by reflexivity. cbn [binom]. rewrite plus_INR.
      lra.
Qed.

(* the pair sum PS(T) = sum_{c in T} sum_{j in T} H(c, j) *)
Definition PS (H : nat -> nat -> R) (T : list nat) : R := sumL T (fun c => sumL T (H c)).

Lemma PS_cons : forall H x T, PS H (x :: T) = H x x + sumL T (fun j => H x j + H j x) + PS H T.
Proof.
  intros H x T. unfold PS. cbn [sumL]. rewrite sumL_plus, sumL_plus. lra.
Qed.

Lemma PS_single : forall H t, (forall c, H c c = 0) -> sumT (choose 1 t) (PS H) = 0.
Proof.
  intros H t Hd. induction t as [|z t IH]; [reflexivity|].
  cbn [choose]. rewrite sumT_app, sumT_cons. assert (E0 : choose 0 t = [[]]) by (destruct t; reflexivity).
  rewrite E0. simpl. rewrite IH. unfold PS. simpl. rewrite Hd. lra.
Qed.

(* every ordered pair of distinct positions lies in exactly C(m - 2, k - 1) of the (k+1)-subsets *)
Lemma pair_count : forall L H j, (forall c, H c c = 0) ->
  sumT (choose (S (S j)) L) (PS H) = INR (binom (length L - 2) j) * PS H L.
Proof.
  induction L as [|x t IH]; intros H j Hd; [unfold PS; simpl; lra|].
  cbn [choose]. rewrite sumT_app, sumT_cons.
  rewrite (sumT_ext _ _ (fun T => sumL T (fun c => H x c + H c x) + PS H T))
    by (intros T _; rewrite PS_cons, Hd; lra).
  rewrite sumT_plus, subsets_total, IH by exact Hd. rewrite PS_cons, Hd.
  replace (length (x :: t) - 2)%nat with (length t - 1)%nat by (simpl; lia).
  destruct j as [|j].
  - rewrite PS_single by exact Hd. assert (B : forall n, binom n 0 = 1%nat) by (intros [|n]; reflexivity).
    rewrite !B. simpl. lra.
  - rewrite IH by exact Hd.
    destruct t as [|z [|z' t']].
    + unfold PS; simpl; lra.
    + unfold PS; simpl. rewrite Hd. lra.
    + replace (length (z :: z' :: t') - 1)%nat with (S (length t')) by (simpl; lia).
      replace (length (z :: z' :: t') - 2)%nat with (length t') by (simpl; lia).
      cbn [binom]. rewrite plus_INR. lra.
Qed.

Lemma binom_absorb : forall n k, (binom (S n) (S k) * S k = S n * binom n k)%nat.
Proof.
  induction n as [|n IH]; intros k.
  - destruct k; simpl; lia.
  - destruct k as [|k].
    + assert (B0 : forall m, binom m 0 = 1%nat) by (intros [|m]; reflexivity).
      pose proof (IH 0%nat) as H1. change (binom (S (S n)) 1) with (binom (S n) 0 + binom (S n) 1)%nat.
      rewrite !B0 in *. lia.
    + pose proof (IH k) as H1. pose proof (IH (S k)) as H2.
      change (binom (S (S n)) (S (S k))) with (binom (S n) (S k) + binom (S n) (S (S k)))%nat.
      change (binom (S n) (S k)) with (binom n k + binom n (S k))%nat in *. nia.
Qed.

Lemma binom_pos : forall m j, (j <= m)%nat -> (0 < binom m j)%nat.
Proof.
  induction m as [|m IH]; intros [|j] H; simpl; try lia.
  pose proof (IH j ltac:(lia)). lia.
Qed.

Definition uniform (NC : nat) (rho : nat -> R) : Prop := forall c, (c < NC)%nat -> rho c = / INR NC.

Lemma sumL_scal : forall L k g, sumL L (fun c => k * g c) = k * sumL L g.
Proof. induction L as [|c L IH]; intros k g; simpl; [lra | rewrite IH; lra]. Qed.

Lemma sumL_mono : forall L f g, (forall c, In c L -> f c <= g c) -> sumL L f <= sumL L g.
Proof.
  induction L as [|c L IH]; intros f g H; simpl; [lra|].
  pose proof (H c (or_introl eq_refl)). assert (sumL L f <= sumL L g) by (apply IH; intros; apply H; now right). lra.
Qed.

Lemma E_map_sumL : forall L (w : nat -> R) g, E (map (fun c => (w c, c)) L) g = sumL L (fun c => w c * g c).
Proof. induction L as [|c L IH]; intros w g; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma E_uniform : forall NC rho g, uniform NC rho -> E (classes NC rho) g = / INR NC * sumL (seq 0 NC) g.
Proof.
  intros NC rho g Hu. unfold classes. rewrite E_map_sumL, <- sumL_scal. apply sumL_ext.
  intros c Hc. apply in_seq in Hc. rewrite Hu by lia. reflexivity.
Qed.

Lemma sumL_split : forall L c A B, sumL L (fun j => if (j =? c)%nat then A else B j) =
  INR (count_occ Nat.eq_dec L c) * A + sumL L (fun j => if (j =? c)%nat then 0 else B j).
Proof.
  induction L as [|j L IH]; intros c A B; simpl; [lra|]. rewrite IH.
  destruct (Nat.eq_dec j c) as [->|Hn].
  - rewrite Nat.eqb_refl, S_INR. lra.
  - rewrite (proj2 (Nat.eqb_neq j c) Hn). lra.
Qed.

Lemma count_seq : forall NC c, (c < NC)%nat -> count_occ Nat.eq_dec (seq 0 NC) c = 1%nat.
Proof.
  intros NC c Hc. apply (proj1 (NoDup_count_occ' Nat.eq_dec (seq 0 NC)) (seq_NoDup NC 0)). apply in_seq. lia.
Qed.

Lemma a_self : forall d D x c, a d D x c c = 0.
Proof. intros; unfold a; ring. Qed.

Lemma EI_const : forall NC rho D n k, setting NC rho D -> EI NC rho n (fun _ => k) = k.
Proof.
  intros NC rho D n k Hs; induction n as [|n IH]; simpl; [reflexivity|].
  rewrite (E_ext _ _ (fun _ => k)) by (intros; apply IH). apply E_dist_const, (setting_dist _ _ _ Hs).
Qed.

(* Z_c(x) = sum_{j != c} zeta(a_j) *)
Definition Zc (d NC : nat) (D : nat -> list (R * V)) (x : V) (c : nat) : R :=
  sumL (seq 0 NC) (fun j => if (j =? c)%nat then 0 else phi [a d D x c j]).

(* the split "all c_i = c" / "some c_i != c" with the first index i* where c_i* != c, by induction on N:
   E_I log(L + sum_i e^{a_{I_i}}) >= q^N log(L + N) + (1 - q^N)/(N_C - 1) Z_c(x), q = 1/N_C, L >= 1 *)
Lemma first_index : forall d NC rho D x c n Lr, setting NC rho D -> uniform NC rho -> (2 <= NC)%nat ->
  (c < NC)%nat -> 1 <= Lr ->
  (/ INR NC) ^ n * ln (Lr + INR n) + (1 - (/ INR NC) ^ n) / (INR NC - 1) * Zc d NC D x c
  <= EI NC rho n (fun I => ln (Lr + sumexp (map (a d D x c) I))).
Proof.
  intros d NC rho D x c n. induction n as [|n IH]; intros Lr Hs Hu H2 Hc HL.
  - simpl. right. field. assert (2 <= INR NC) by (replace 2 with (INR 2) by (simpl; lra); apply le_INR; exact H2). lra.
  - assert (HN : 2 <= INR NC) by (replace 2 with (INR 2) by (simpl; lra); apply le_INR; exact H2).
    simpl EI.
    apply Rle_trans with (E (classes NC rho) (fun c1 => if (c1 =? c)%nat then
      (/ INR NC) ^ n * ln ((Lr + 1) + INR n) + (1 - (/ INR NC) ^ n) / (INR NC - 1) * Zc d NC D x c
      else phi [a d D x c c1])).
    + rewrite E_uniform by exact Hu. rewrite sumL_split, count_seq by exact Hc. unfold Zc. rewrite S_INR.
      replace (Lr + (INR n + 1)) with (Lr + 1 + INR n) by ring.
      right. simpl pow. change (INR 1) with 1.
      generalize (sumL (seq 0 NC) (fun j => if (j =? c)%nat then 0 else phi [a d D x c j])) as Z.
      generalize (ln (Lr + 1 + INR n)) as L0. intros L0 Z. field. lra.
    + apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c1 Hc1. apply classes_in in Hc1. destruct Hc1 as [_ Hc1].
      destruct (c1 =? c)%nat eqn:Ec.
      * apply Nat.eqb_eq in Ec. subst c1.
        rewrite (EI_ext _ _ _ _ (fun I => ln ((Lr + 1) + sumexp (map (a d D x c) I)))).
        -- apply IH; auto. lra.
        -- intros I. simpl. rewrite a_self, exp_0. f_equal. ring.
      * rewrite <- (EI_const NC rho D n (phi [a d D x c c1]) Hs). apply (EI_mono _ _ D); [exact Hs|]. intros I _.
        unfold phi. simpl. apply ln_le'; [pose proof (exp_pos (a d D x c c1)); lra|].
        pose proof (sumexp_nonneg (map (a d D x c) I)). lra.
Qed.

Lemma sumexp_sumL : forall L g, sumexp (map g L) = sumL L (fun j => exp (g j)).
Proof. induction L as [|c L IH]; intros g; simpl; [reflexivity | rewrite IH; reflexivity]. Qed.

Lemma one_plus_le_exp : forall L (y z : nat -> R), (forall j, 0 <= y j) -> (forall j, exp (z j) = 1 + y j) ->
  1 + sumL L y <= exp (sumL L z).
Proof.
  induction L as [|j L IH]; intros y z Hy Hz; simpl; [rewrite exp_0; lra|].
  rewrite exp_plus, Hz. pose proof (IH y z Hy Hz). pose proof (Hy j).
  assert (0 <= sumL L y) by (clear IH H; induction L as [|i L IHL]; simpl; [lra | pose proof (Hy i); lra]).
  nra.
Qed.

(* LSE_{j in T}(a_j) <= sum_{j in T, j != c} zeta(a_j) for a task T containing c once (a_c = 0) *)
Lemma lse_task : forall d D x c T, NoDup T -> In c T ->
  lse (map (a d D x c) T) <= sumL T (fun j => if (j =? c)%nat then 0 else phi [a d D x c j]).
Proof.
  intros d D x c T Hnd Hin. unfold lse. rewrite sumexp_sumL.
  rewrite (sumL_ext T _ (fun j => if (j =? c)%nat then 1 else exp (a d D x c j))).
  2:{ intros j _. destruct (j =? c)%nat eqn:E1; [apply Nat.eqb_eq in E1; subst; rewrite a_self, exp_0|]; reflexivity. }
  rewrite sumL_split. rewrite (proj1 (NoDup_count_occ' Nat.eq_dec T) Hnd c Hin). rewrite Rmult_1_l.
  set (s := sumL T (fun j => if (j =? c)%nat then 0 else phi [a d D x c j])).
  rewrite <- (ln_exp s). apply ln_le'.
  - assert (0 <= sumL T (fun j => if (j =? c)%nat then 0 else exp (a d D x c j))).
    { clear s. induction T as [|i T IHT]; simpl; [lra|].
      assert (0 <= (if (i =? c)%nat then 0 else exp (a d D x c i))) by (destruct (i =? c)%nat; [lra | left; apply exp_pos]).
      assert (0 <= sumL T (fun j => if (j =? c)%nat then 0 else exp (a d D x c j))).
      { clear IHT Hnd Hin. induction T as [|i' T IH']; simpl; [lra|].
        assert (0 <= (if (i' =? c)%nat then 0 else exp (a d D x c i'))) by (destruct (i' =? c)%nat; [lra | left; apply exp_pos]).
        lra. }
      lra. }
    lra.
  - apply one_plus_le_exp.
    + intros j. destruct (j =? c)%nat; [lra | left; apply exp_pos].
    + intros j. destruct (j =? c)%nat; [rewrite exp_0; lra|]. unfold phi. rewrite exp_ln; simpl; [lra|].
      pose proof (exp_pos (a d D x c j)); lra.
Qed.

Lemma setting_D : forall NC rho D c, setting NC rho D -> (c < NC)%nat -> dist (D c).
Proof. intros NC rho D c [_ [_ H]] Hc. apply H, Hc. Qed.

Lemma INR_NC2 : forall NC, (2 <= NC)%nat -> 2 <= INR NC.
Proof. intros NC H. replace 2 with (INR 2) by (simpl; lra). apply le_INR; exact H. Qed.

(* H(c, j) = [j != c] E_{x ~ D_c} zeta(f(x)^T (mu_j - mu_c)) *)
Definition Hpair (d : nat) (D : nat -> list (R * V)) (c j : nat) : R :=
  if (j =? c)%nat then 0 else E (D c) (fun x => phi [a d D x c j]).

Lemma E_sumL : forall {A} (P : list (R * A)) L (g : A -> nat -> R),
  E P (fun x => sumL L (g x)) = sumL L (fun j => E P (fun x => g x j)).
Proof.
  intros A P L g; induction L as [|j L IH]; simpl; [rewrite E_const; ring|]. rewrite E_plus, IH; reflexivity.
Qed.

Lemma E_if_zero : forall (P : list (R * V)) j c (g : V -> R),
  E P (fun x => if (j =? c)%nat then 0 else g x) = if (j =? c)%nat then 0 else E P g.
Proof. intros P j c g. destruct (j =? c)%nat; [rewrite E_const; ring | reflexivity]. Qed.

Lemma X_PS : forall d NC rho D, uniform NC rho ->
  E (classes NC rho) (fun c => E (D c) (fun x => Zc d NC D x c)) = / INR NC * PS (Hpair d D) (seq 0 NC).
Proof.
  intros d NC rho D Hu. rewrite E_uniform by exact Hu. unfold PS. f_equal. apply sumL_ext. intros c _.
  unfold Zc. rewrite E_sumL. apply sumL_ext. intros j _. rewrite E_if_zero. reflexivity.
Qed.

Lemma rhoT_uniform : forall rho T q, (forall c, In c T -> rho c = q) -> rhoT rho T = INR (length T) * q.
Proof.
  intros rho T q; induction T as [|c T IH]; intros H; simpl; [lra|].
  rewrite IH by (intros; apply H; now right). rewrite (H c (or_introl eq_refl)).
  destruct (length T); simpl; lra.
Qed.

(* for a (k+1)-way task T: L^mu_sup(f, T) <= 1/(k+1) sum_{c in T} sum_{j in T, j != c} E_{D_c} zeta(a_j) *)
Lemma task_bound : forall d NC rho D k T, setting NC rho D -> uniform NC rho -> In T (tasks NC k) ->
  Lsup_mu d rho D T <= / INR (S k) * PS (Hpair d D) T.
Proof.
  intros d NC rho D k T Hs Hu HT. unfold tasks in HT.
  assert (Hin : forall c, In c T -> (c < NC)%nat).
  { intros c Hc. pose proof (choose_sub _ _ _ _ HT Hc) as H'. apply in_seq in H'. lia. }
  assert (Hl : length T = S k) by apply (choose_sizes _ _ _ HT).
  assert (Hnd : NoDup T) by (apply (choose_NoDup (seq 0 NC) (S k)); [apply seq_NoDup | exact HT]).
  assert (HN : 0 < INR NC) by (apply lt_0_INR; pose proof (setting_NC _ _ _ Hs); lia).
  assert (Hk : 0 < INR (S k)) by (apply lt_0_INR; lia).
  unfold Lsup_mu, J. rewrite (rhoT_uniform rho T (/ INR NC)) by (intros c Hc; apply Hu, Hin, Hc).
  rewrite Hl, E_map_sumL. unfold PS. rewrite <- sumL_scal. apply sumL_mono. intros c Hc.
  replace (rho c / (INR (S k) * / INR NC)) with (/ INR (S k))
    by (rewrite Hu by (apply Hin, Hc); field; split; lra).
  apply Rmult_le_compat_l; [left; apply Rinv_0_lt_compat, Hk|].
  rewrite (E_ext (D c) _ (fun x => lse (map (a d D x c) T))).
  2:{ intros x. apply CE_mu. destruct T; [destruct Hc | discriminate]. }
  apply Rle_trans with (E (D c) (fun x => sumL T (fun j => if (j =? c)%nat then 0 else phi [a d D x c j]))).
  - apply E_mono; [apply (setting_D NC rho D c Hs (Hin c Hc))|]. intros w x _. apply lse_task; assumption.
  - rewrite E_sumL. right. apply sumL_ext. intros j _. rewrite E_if_zero. reflexivity.
Qed.

(* averaging over the tasks: L^mu_sup,k <= k/(N_C - 1) (1/N_C) sum_c sum_{j != c} E_{D_c} zeta(a_j) *)
Lemma Lsup_mu_k_bound : forall d NC rho D k, setting NC rho D -> uniform NC rho -> (1 <= k)%nat -> (k + 1 <= NC)%nat ->
  Lsup_mu_k d NC rho D k <= INR k / (INR NC - 1) * (/ INR NC * PS (Hpair d D) (seq 0 NC)).
Proof.
  intros d NC rho D k Hs Hu Hk1 HkN. destruct k as [|j]; [lia|]. destruct NC as [|[|m]]; [lia|lia|].
  unfold Lsup_mu_k.
  assert (Hsum : sumT (tasks (S (S m)) (S j)) (fun T => / INR (S (S j)) * PS (Hpair d D) T)
                 = / INR (S (S j)) * (INR (binom m j) * PS (Hpair d D) (seq 0 (S (S m))))).
  { rewrite sumT_scal. unfold tasks. rewrite pair_count.
    - rewrite seq_length. replace (S (S m) - 2)%nat with m by lia. reflexivity.
    - intros c. unfold Hpair. rewrite Nat.eqb_refl. reflexivity. }
  assert (Hlen : length (tasks (S (S m)) (S j)) = binom (S (S m)) (S (S j)))
    by (unfold tasks; rewrite choose_length, seq_length; reflexivity).
  pose proof (binom_absorb (S m) (S j)) as B1. pose proof (binom_absorb m j) as B2.
  assert (Hid : (binom (S (S m)) (S (S j)) * S (S j) * S j = S (S m) * S m * binom m j)%nat) by nia.
  apply (f_equal INR) in Hid. rewrite !mult_INR in Hid.
  assert (Hpos : 0 < INR (binom (S (S m)) (S (S j)))) by (apply lt_0_INR, binom_pos; lia).
  rewrite Hlen.
  apply Rle_trans with (sumT (tasks (S (S m)) (S j)) (fun T => / INR (S (S j)) * PS (Hpair d D) T)
                        / INR (binom (S (S m)) (S (S j)))).
  - apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat, Hpos|].
    apply sumT_mono. intros T HT. apply (task_bound d (S (S m)) rho D (S j) T Hs Hu HT).
  - rewrite Hsum. right.
    set (Bt := INR (binom (S (S m)) (S (S j)))) in *.
    assert (Hb : INR (binom m j) = Bt * INR (S (S j)) * INR (S j) / (INR (S (S m)) * INR (S m))).
    { rewrite Hid. field. rewrite !S_INR. pose proof (pos_INR m). split; lra. }
    rewrite Hb. generalize (PS (Hpair d D) (seq 0 (S (S m)))) as P. intros P.
    rewrite !S_INR. pose proof (pos_INR m). pose proof (pos_INR j). field. repeat split; lra.
Qed.

Lemma pow_le_one : forall x n, 0 <= x <= 1 -> x ^ n <= 1.
Proof.
  intros x n Hx; induction n as [|n IH]; simpl; [lra|].
  assert (0 <= x ^ n) by (apply pow_le; lra). nra.
Qed.

(* ============ Proposition 1 (2): L_sup,k <= L^mu_sup,k <= k/(1 - tau+_N) (L^N_un - tau+_N log(N + 1)) ============ *)
Theorem prop1_left : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (k : nat) (ms : list nat -> R),
  (k + 1 <= NC)%nat -> (forall T, In T (tasks NC k) -> Lsup d rho D T (ms T)) ->
  sumT (tasks NC k) ms / INR (length (tasks NC k)) <= Lsup_mu_k d NC rho D k.
Proof.
  intros d NC rho D k ms Hk H. unfold Lsup_mu_k. apply Rmult_le_compat_r.
  - left. apply Rinv_0_lt_compat, lt_0_INR. unfold tasks. rewrite choose_length, seq_length. apply binom_pos. lia.
  - apply sumT_mono. intros T HT. apply lemma1_left, H, HT.
Qed.

Theorem prop1_right : forall (d NC : nat) (rho : nat -> R) (D : nat -> list (R * V)) (N k : nat),
  setting NC rho D -> uniform NC rho -> (2 <= k + 1 <= NC)%nat -> (1 <= N)%nat ->
  Lsup_mu_k d NC rho D k <= INR k / (1 - tau NC rho N) * (LunN d NC rho D N - tau NC rho N * ln (INR N + 1)).
Proof.
  intros d NC rho D N k Hs Hu Hk HN.
  assert (H2 : (2 <= NC)%nat) by lia. pose proof (INR_NC2 NC H2) as HNC.
  assert (Htau : tau NC rho N = (/ INR NC) ^ N).
  { unfold tau. rewrite (E_ext_in _ _ (fun _ => (/ INR NC) ^ N)).
    - apply E_dist_const, (setting_dist _ _ _ Hs).
    - intros w c Hc. apply classes_in in Hc. destruct Hc as [_ Hc]. rewrite Hu by exact Hc. reflexivity. }
  assert (Hq : 0 < / INR NC < 1).
  { split; [apply Rinv_0_lt_compat; lra|]. assert (/ INR NC * INR NC = 1) by (field; lra).
    pose proof (Rinv_0_lt_compat (INR NC) ltac:(lra)). nra. }
  assert (HqN : 0 < (/ INR NC) ^ N < 1).
  { split; [apply pow_lt; lra|]. destruct N as [|N]; [lia|]. simpl.
    pose proof (pow_le_one (/ INR NC) N ltac:(lra)). nra. }
  pose proof (X_PS d NC rho D Hu) as HX.
  pose proof (Lsup_mu_k_bound d NC rho D k Hs Hu ltac:(lia) ltac:(lia)) as Hk_bound. rewrite <- HX in Hk_bound.
  set (X := E (classes NC rho) (fun c => E (D c) (fun x => Zc d NC D x c))) in *.
  assert (Hun : (1 - (/ INR NC) ^ N) / (INR NC - 1) * X + (/ INR NC) ^ N * ln (1 + INR N) <= LunN d NC rho D N).
  { apply Rle_trans with (2 := jensen_lower d NC rho D N Hs). unfold X. rewrite <- E_affine_classes by exact Hs.
    apply E_mono; [apply (setting_w _ _ _ Hs)|]. intros w c Hc. apply classes_in in Hc. destruct Hc as [_ Hc].
    apply E_mono; [apply (setting_D _ _ _ _ Hs Hc)|]. intros w' x _.
    pose proof (first_index d NC rho D x c N 1 Hs Hu H2 Hc (Rle_refl 1)) as F. unfold phi. lra. }
  rewrite Htau. apply Rle_trans with (1 := Hk_bound).
  replace (INR k / (INR NC - 1) * X)
    with (INR k / (1 - (/ INR NC) ^ N) * ((1 - (/ INR NC) ^ N) / (INR NC - 1) * X)) by (field; lra).
  apply Rmult_le_compat_l.
  - apply Rmult_le_pos; [apply pos_INR | left; apply Rinv_0_lt_compat; lra].
  - rewrite (Rplus_comm (INR N) 1). lra.
Qed.
