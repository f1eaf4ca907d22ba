"""Merad et al., the norms of Lemma 3 (= Lemma 5 of Section 8 = Lemma 4.1 of the conference appendix), defined once
(issue 39 item 3): merad.lemma3, merad.lemma3.steps and merad.lemma3.printed_equalities import these.

What is printed. Lemma 3's statement names vector norms only: ||z_j||_2 in B^3 and ||z'|| in (12) on R^{3d} (no
subscript; the Euclidean norm, the one B^3 names and the one of Allen-Zhu et al.'s smoothness condition that (12)
copies -- one reading). No matrix norm appears in the statement. The proof ("We will prove this result by bounding
the norm of the Hessian matrix") prints three matrix norms without a subscript: "the matrix diag(v) - v v^T has norm
at most 1/2", "||d2cos_ij|| = 1" and "||d^2 l/dz^2|| = 2 + 8 max_ij ||z_i|| ||z_j||"; the vector norms ||dcos_ij||
and ||z_i|| are Euclidean (B^3). Nothing on the encoder's parameters: Lemma 3 is about l as a function of the outputs.

The readings of the unsubscripted matrix norm:

* spectral (the literal one, the norm the proof's values and its use fix): the operator norm induced by the
  Euclidean norm of (12) -- the one for which z'^T H z' <= ||H|| ||z'||^2 turns the Hessian bound into (12) with
  L_smooth = 2 + 8C^2, and for which the printed ||d2cos_ij|| = 1 holds (S = d2cos_ij is symmetric with S^2 a
  projector);
* Frobenius: the other norm a reader may take for "the norm of the Hessian matrix" (it also bounds the quadratic
  form). It makes ||diag(v) - v v^T||_F = 2 v_1 v_2 <= 1/2 and the rank-one curvature term unchanged, but
  ||d2cos_ij||_F = sqrt(2d) (never 1) and ||Hess l(0)||_F = ||M/2||_F = sqrt(d) > 2 = 2 + 8 max_ij ||z_i|| ||z_j|| at
  z = 0 for every d >= 5: the proof read so fails, and so does its route part ||Hess l|| <= 2 + 8C^2 on B^3 at small C.

Not encoded as a reading (no sign of it in the proof, whose vector norms are Euclidean): the l_oo-induced norm (max
row sum; = the l_1-induced one on these symmetric matrices). It also gives ||d2cos_ij|| = 1 and ||diag(v) - v v^T|| =
2 v_1 v_2 and bounds the quadratic form, but the rank-one curvature term has l_oo norm v_1 v_2 ||g||_oo ||g||_1, which
grows like sqrt(d): at z_1 = (C/sqrt d) 1, z_3 = -z_2 = C e_1 (C = 1) it is 7.84 at d = 49 and 8.86 > 8 at d = 64, and
||Hess l||_oo = 11.99 > 10 = 2 + 8C^2 at d = 100 -- so that reading fails too, at large d only, on a structured point
the random triplet draws do not reach (and at 3d >= 192 the high-precision confirmation of the family's spectral
quantities is out of budget).
"""

from __future__ import annotations

SEPARATING_WORDS = ("'bounding the norm of the Hessian matrix', 'diag(v) - v v^T has norm at most 1/2', "
                    "'||d2cos_ij|| = 1', '||d^2 l/dz^2|| = 2 + 8 max_ij ||z_i|| ||z_j||' (||.|| of a matrix, no "
                    "subscript)")
SPECTRAL = ("matrix norms read as the spectral norm (the operator norm induced by the Euclidean norm of (12)): the "
            "norm for which the printed ||d2cos_ij|| = 1 holds and the Hessian bound gives (12)")
FROBENIUS_NAME = "matrix norms read as Frobenius"
FROBENIUS_RESTS_ON = (f"the proof's unsubscripted matrix norms {SEPARATING_WORDS}, read as the Frobenius norm "
                      "(also an upper bound of the quadratic form z'^T H z' / ||z'||^2); vector norms Euclidean")
#: the dimensions the Frobenius readings are searched over: ||Hess l(0)||_F = sqrt(d) exceeds 2 from d = 5 on
FROBENIUS_DIMS = (1, 8)
STATEMENT_NORM = ("Lemma 3's statement names vector norms only (||z_j||_2 in B^3, ||z'|| in (12) on R^{3d}: Euclidean, "
                  "one reading); its matrix norm is the proof's, read as in theorems.papers.merad.lemma3_norms "
                  "(spectral, literal; Frobenius, a reading)")

HESS_F = "||Hess l(z)||_F <= 2 + 8C^2 on B^3 (the proof's route, Frobenius)"
SOFTMAX_F = "||diag(v) - v v^T||_F <= 1/2"
D2COS_F = ("min_ij ||d2cos_ij||_F = 1", "max_ij ||d2cos_ij||_F = 1")
CURV_F = "||(dcos12 dcos13) dv||_F <= 8 max_ij ||z_i|| ||z_j|| (read as <=)"
HESS_NORM_F = "||Hess l||_F <= 2 + 8 max_ij ||z_i|| ||z_j|| (read as <=)"
PRINTED_CURV_F = "printed: ||(dcos12 dcos13) dv||_F = 8 max_ij ||z_i|| ||z_j||"
PRINTED_HESS_F = "printed: ||Hess l||_F = 2 + 8 max_ij ||z_i|| ||z_j||"
