(* Huang et al., Lemma 1 (error rate), for EVERY finite data distribution (Coq, by induction on lists).
   The data are classes C_1 .. C_K, each a list of samples; a sample has a mass p >= 0 and three facts:
   whether it lies in the main part C^0_k of its class, whether it lies in S_eps, and whether the
   classifier G is correct on it (G(x) = k). Definition 1 ((sigma, delta)-augmentation) gives
   P[C^0_k] >= sigma P[C_k] for every k. If G is correct at every sample of (C^0_1 u ... u C^0_K) n S_eps,
   then Err(G) = sum_k P[G(x) <> k, x in C_k] <= (1 - sigma) P[total] + P[not S_eps]; with total mass 1
   that is (1 - sigma) + P[not S_eps]. *)
From Coq Require Import Reals List Lra.
Import ListNotations.
Open Scope R_scope.

Record sample := { mass : R; main : bool; in_S : bool; correct : bool }.

Definition ind (b : bool) : R := if b then 1 else 0.
Fixpoint total (f : sample -> R) (c : list sample) : R := match c with [] => 0 | x :: t => f x + total f t end.
Fixpoint over_classes (f : sample -> R) (cs : list (list sample)) : R :=
  match cs with [] => 0 | c :: t => total f c + over_classes f t end.

Definition P (x : sample) := mass x.
Definition P_main (x : sample) := mass x * ind (main x).
Definition P_not_S (x : sample) := mass x * ind (negb (in_S x)).
Definition P_error (x : sample) := mass x * ind (negb (correct x)).

Lemma total_le : forall f g c, (forall x, In x c -> f x <= g x) -> total f c <= total g c.
Proof.
  intros f g c; induction c as [|x t IH]; intros H; simpl; [lra|].
  pose proof (H x (or_introl eq_refl)); pose proof (IH (fun y Hy => H y (or_intror Hy))); lra.
Qed.

Lemma total_plus : forall f g c, total (fun x => f x + g x) c = total f c + total g c.
Proof. intros f g c; induction c as [|x t IH]; simpl; lra. Qed.

Lemma total_minus : forall f g c, total (fun x => f x - g x) c = total f c - total g c.
Proof. intros f g c; induction c as [|x t IH]; simpl; lra. Qed.

(* one sample: an error lies outside the main parts or outside S_eps *)
Lemma error_outside : forall x, 0 <= mass x -> (main x = true -> in_S x = true -> correct x = true) ->
  P_error x <= (P x - P_main x) + P_not_S x.
Proof.
  intros x Hp H; unfold P_error, P, P_main, P_not_S, ind.
  destruct (main x), (in_S x), (correct x); simpl in *; try lra.
  all: specialize (H eq_refl eq_refl); discriminate.
Qed.

Theorem lemma1 : forall (sigma : R) (cs : list (list sample)),
  (forall c x, In c cs -> In x c -> 0 <= mass x) ->
  (forall c, In c cs -> total P_main c >= sigma * total P c) ->
  (forall c x, In c cs -> In x c -> main x = true -> in_S x = true -> correct x = true) ->
  over_classes P_error cs <= (1 - sigma) * over_classes P cs + over_classes P_not_S cs.
Proof.
  intros sigma cs; induction cs as [|c t IH]; intros Hp Hdef Hcorrect; simpl; [lra|].
  assert (Hc : total P_error c <= (total P c - total P_main c) + total P_not_S c).
  { rewrite <- total_minus, <- total_plus. apply total_le.
    intros x Hx. apply error_outside; [apply (Hp c x (or_introl eq_refl) Hx)|].
    apply (Hcorrect c x (or_introl eq_refl) Hx). }
  pose proof (Hdef c (or_introl eq_refl)) as Hsigma.
  pose proof (IH (fun c' x H => Hp c' x (or_intror H)) (fun c' H => Hdef c' (or_intror H))
                 (fun c' x H => Hcorrect c' x (or_intror H))).
  lra.
Qed.

(* with total mass 1 (a distribution): Err(G) <= (1 - sigma) + P[not S_eps] *)
Corollary lemma1_distribution : forall (sigma : R) (cs : list (list sample)),
  (forall c x, In c cs -> In x c -> 0 <= mass x) -> over_classes P cs = 1 ->
  (forall c, In c cs -> total P_main c >= sigma * total P c) ->
  (forall c x, In c cs -> In x c -> main x = true -> in_S x = true -> correct x = true) ->
  over_classes P_error cs <= (1 - sigma) + over_classes P_not_S cs.
Proof.
  intros sigma cs Hp Hone Hdef Hcorrect.
  pose proof (lemma1 sigma cs Hp Hdef Hcorrect) as H. rewrite Hone in H. lra.
Qed.
