(* Merad et al., Proposition 2: tau+_N for uniform rho, for every N_C and N. (The coupon collector's mean and
   variance are proved from T's law in merad_chebyshev.v.) *)
From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

(* sum_{i=1}^{n} f i *)
Fixpoint sum1 (f : nat -> R) (n : nat) : R :=
  match n with O => 0 | S k => sum1 f k + f (S k) end.

Lemma sum1_const : forall c n, sum1 (fun _ => c) n = INR n * c.
Proof. intros c n; induction n as [|n IH]; [simpl; lra | cbn [sum1]; rewrite IH, S_INR; lra]. Qed.

(* tau+_N = sum_{c=1}^{N_C} rho(c)^(N+1) with rho(c) = 1/N_C: = N_C^(-N) *)
Theorem tau_plus_uniform : forall NC N : nat, (1 <= NC)%nat ->
  sum1 (fun _ => (/ INR NC) ^ (N + 1)) NC = / (INR NC) ^ N.
Proof.
  intros NC N H. rewrite sum1_const.
  assert (0 < INR NC) by (apply lt_0_INR; lia).
  assert (INR NC ^ N <> 0) by (apply pow_nonzero; lra).
  rewrite pow_add, pow_1, pow_inv. field. split; lra.
Qed.
