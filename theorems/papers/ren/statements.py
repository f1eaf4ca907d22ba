"""Ren & Li's numbered statements that no catalog claim covers, each under its own id (issue 30).

The extracted source (``002_1392d7a5a1d595de.txt``) lost its inline formulas and most displays. Each numbered
statement below is either a definition (it asserts nothing to check: :meth:`Plugin.definition <theorems.Plugin.definition>`, with what it
defines) or ``not_encodable`` (:meth:`Plugin.not_encodable <theorems.Plugin.not_encodable>`): its reason names the lost span and why nothing
else in the source -- its proof's surviving displays, its uses elsewhere, the main-text version, the surrounding
definitions -- pins it down, and which part (if any) another claim checks, then what survives (a direction, a sign, an
ordering, a bound) and why no model or run of the checker could fail it (issue 39, item 6). The statements the source
does determine are encoded in :mod:`theorems.papers.ren.claims` and :mod:`theorems.papers.ren.reconstructed`; those
of which only a direction survives (Lemmas 5.3 and B.10) in :mod:`theorems.papers.ren.qualitative`. Ids follow
``ren.<kind>_<number>`` (:func:`theorems.numbered_id`); every page is ``proofs_md/<id>.md``.
"""

from __future__ import annotations

from theorems import Kind
from theorems.papers.ren.plugin import PLUGIN

lost, definition = PLUGIN.not_encodable, PLUGIN.definition

definition("Algorithm 3.1",
           "the training algorithm (line 48): population gradient steps on the contrastive loss (3), a small inverse "
           "temperature for T1 iterations then another for T2 (contrastive case), or the non-contrastive loss (4) until "
           "an approximate stationary point; implemented as theorems/papers/ren/model.py:train (RunSpec). Footnote 3 "
           "('changing [lost] only changes the learning rate') has its subject lost.")

lost("Lemma 4.4", Kind.INEQUALITY,
     "all four hypotheses are lost ('If [lost], [lost], [lost], and the condition number of [lost] is upper bounded by "
     "[lost]'), and so is Definition 4.1's alignment threshold; line 75 gives only their roles (the first two make the "
     "signal dominate the noise, the third gives the existence of [lost], the fourth keeps the smallest singular value "
     "of [lost] at least [lost] after normalization), and its uses (line 76, line 109 'the first two conditions of (9)', "
     "Lemma 4.5) cite it without restating it, (9) being lost too. "
     "What survives is an implication whose hypotheses' thresholds are lost (line 75: the first two make 'the "
     "signal parts dominate the noise parts', the fourth bounds the condition number): they are the lemma's "
     "existential constants, so a state can fail it only in the limit where every hypothesis holds exactly (noise "
     "parts vanishing, cosines 1). There the score is 1 - 2^-(r+1)(1 + 2^-d_xi) (the ties of z' = z; the largest "
     "any pair of maps attains, theorems/papers/ren/alignment_reach.py), at least 5/8 > 1/2: with Definition 4.1's "
     "eps lost and decided over its admissible range (0, 1/2), as ren.theorem43b's reach decides it, no model or "
     "run can fail what survives.")

lost("Lemma 5.1", Kind.DYNAMICS,
     "the display (9) is lost ('at the end of Stage 1, we have, for any [lost] and [lost], (9) [lost]'), and so are "
     "the iteration bound ('which takes at most [lost] iterations') and the width, learning-rate and sample sizes of "
     "the finite-width tracking; line 109 names the conditions of (9) only in words ('the noise-signal ratio is "
     "small, and the condition number is bounded by [lost]'), and the formal version, Lemma B.1, is lost as well. "
     "The 'Moreover' part (line 108) is Lemma B.17, which ren.lemma_b17 checks, and the qualitative end of Stage 1 "
     "in infinite width (aligned, noise ratio small, condition number grown but finite) is what ren.stagewise "
     "measures. "
     "What survives besides the 'Moreover' part is unthresholded: 'closely track' (no tolerance), 'at most "
     "[lost] iterations' (the bound lost), 'the noise-signal ratio is small' and 'bounded by [lost]' (line 109, "
     "the thresholds lost): a finite run cannot fail a tolerance, a time bound or a bound that is not given. The "
     "direction of Stage 1's convergence of the cosines is ren.lemma_b10.")

lost("Lemma 5.2", Kind.INEQUALITY,
     "the ODE system defining the two processes ('Let [lost] and [lost] be defined as [lost] with [lost] being "
     "positive') and the conclusion ('for any [lost], we have [lost]') are lost; line 113 fixes only the shape ('we "
     "can make sure the error does not blow up', 'the exponent of the RHS is [lost], which is independent of time'), "
     "which several systems fit, and its application (line 115 'Set [lost] ... choose [lost] and apply Lemma 5.2') "
     "and its formal version, Lemma B.2 (lines 232-240), are lost too. "
     "What survives (line 113: 'the error does not blow up', 'the exponent of the RHS is [lost], which is "
     "independent of time') is a time-independent bound on a process the checker has no definition of: the lemma "
     "is about an abstract ODE system, not about the model's flow, and 'does not blow up' with its bound lost "
     "cannot fail on a finite horizon.")

lost("Lemma A.1", Kind.IDENTITY,
     "both quantified objects and the identity are lost ('For any [lost] and [lost], we have [lost]'), and so is "
     "every display of its proof (lines 188-190: 'We compute [lost]. For the first term, we have [lost]. For the "
     "second term, we have [lost]'); its only use (line 184, Lemma A.6 'as a simple corollary of Lemma A.1') has no "
     "statement text, so nothing pins which quantity it computes. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma A.2", Kind.IDENTITY,
     "the displayed gradient is lost ('We have [lost]. The formula for [lost] can be obtained by interchanging the "
     "roles of [lost] and [lost]'), and so is the loss (3) it differentiates (lines 43-44: 'We define the "
     "contrastive loss as (3)', the display lost). The checker's reconstruction of (3) has a gradient that is a "
     "function of that reconstruction alone, so checking it (ren.lemma_a7 (c) compares the reconstructed flow with "
     "autograd) could not detect an error in the printed formula; line 86 describes the resulting dynamics (5) only "
     "in words. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma A.3", Kind.IDENTITY,
     "both displays are lost ('We have [lost] and [lost]'), and so is the loss (3) (lines 43-44: 'We define the "
     "contrastive loss as (3)', the display lost) whose gradient, Lemma A.2, they follow from (line 171 'direct "
     "corollaries of Lemma A.2'); line 86 describes (5) only in words ('the first term comes from the positive "
     "pairs, and the second and third terms are from the negative pairs'). The checker's reconstruction of (3) "
     "determines its own flow, so checking that flow (ren.lemma_a7 (c) compares the reconstructed flow with "
     "autograd) could not detect an error in the printed formula. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Corollary A.4", Kind.IDENTITY,
     "the defining displays of the new matrices ('Define [lost] and [lost]') and the rewritten equation ('We have "
     "[lost]') are lost; line 175 says only 'We can rewrite the above result as follows', so which matrices are "
     "defined is a choice the words do not fix, and every later use (line 242, Lemmas B.3-B.6 and C.3-C.8) estimates "
     "them without restating them. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma A.5", Kind.IDENTITY,
     "both displays are lost ('For any [lost] and [lost], we have [lost] and [lost]'), the second index included; "
     "line 180 names only the decomposition ('each column of [lost] and [lost]', 'along the radial and tangent "
     "directions'), line 244 says the displays are written in Corollary A.4's matrices, whose definitions are lost, "
     "and its uses (line 244, line 255 'we can now simplify Lemma A.5') do not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma A.6", Kind.IDENTITY,
     "no statement text survives at all: line 185 'Lemma A.6.' is followed directly by line 186 'Omitted proof of "
     "this subsection'. Line 184 says only that it is 'a simple corollary of Lemma A.1' on 'the gradients of the "
     "non-contrastive loss', and Lemma A.1, the non-contrastive loss (4) (line 46) and the resulting dynamics (6) "
     "(lines 86-88, 'the RHS resembles the first term of (5)') are all lost. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma B.1", Kind.DYNAMICS,
     "the end-of-Stage-1 conditions ('Let [lost] be the earliest time all the following hold: [lost] where [lost] "
     "are two given parameters'), the bound on the Stage-1 time ('We have [lost]'), the bound at earlier times and "
     "the error conditions (11) are lost, and the width and inverse temperature are free ('a sufficiently "
     "(polynomially) large [lost] and a sufficiently (inverse polynomially) small [lost]'); line 229 says only that "
     "(11) means equal column norms and nearly orthogonal columns. In infinite width (11) holds exactly (line 229), "
     "the invariance ren.lemma_a7 (c) checks, and the qualitative end of Stage 1 is what ren.stagewise measures. "
     "What survives is unthresholded: 'the earliest time all the following hold' (the conditions lost), 'We have "
     "[lost]' (the time bound lost), and (11) in words ('roughly the same', 'approximately orthogonal', exact in "
     "infinite width by the reduced flow's construction): a finite run cannot fail a bound or a tolerance that "
     "is not given. The direction of the cosines' convergence in Stage 1 is ren.lemma_b10.")

lost("Lemma B.2", Kind.INEQUALITY,
     "as for Lemma 5.2, its informal version: the ODE system ('Let [lost] and [lost] be defined as [lost] with "
     "[lost] being positive') and the conclusion ('for any [lost], we have [lost]') are lost; the Remark (line 236) "
     "fixes only the shape ('if the error growth rate depends on the progress ... we can make sure the error does "
     "not blow up'), the proof's displays (lines 238-240) are lost, and both uses (lines 334 and 378 'by Lemma B.2, "
     "we have [lost]') cite it without restating it. "
     "What survives ('we can make sure the error does not blow up', 'we do not need a very tight estimation') is "
     "a time-independent bound on an abstract process with its system lost: there is no model of the checker it "
     "is about, and 'does not blow up' cannot fail on a finite horizon.")

lost("Lemma B.3", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]'), the estimate ('In Stage 1, we have [lost] and the same "
     "is also true for [lost]') and the meaning of its error notation ('[lost] means an [lost] quantity that can "
     "depend on [lost] but not on [lost] or [lost]') are lost; line 244 gives only its origin ('in Stage 1, [lost] "
     "is small. Hence, [lost]'), the proof's displays (lines 267-271) are lost, and its use in Lemma B.5's proof "
     "(line 281) does not restate it. "
     "What survives ('in Stage 1, [lost] is small', line 244) has no threshold, and its object is lost: nothing "
     "a run could fail.")

lost("Lemma B.4", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]', one of Corollary A.4's lost matrices) and the estimate "
     "('In Stage 1, we have [lost]') are lost, and so is every display of the proof (lines 274-277: 'Since [lost] "
     "and [lost], we have [lost]'); its uses (line 255 for Lemma B.6, lines 298-299 in Corollary B.8's proof, line "
     "403) cite it without restating it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma B.5", Kind.INEQUALITY,
     "the two estimated objects (title 'Estimations for [lost] and [lost]', matrices of Corollary A.4) and the "
     "estimate ('In Stage 1, we have [lost]') are lost; the proof (lines 280-282) keeps only 'if some quantity does "
     "not depend on [lost], then [lost]', which does not pin the estimate, and its uses in Corollary B.8's proof "
     "(lines 301, 304) do not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma B.6", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]') and the estimate ('In Stage 1, we have [lost]') are "
     "lost, there is no proof (line 255: 'essentially the same as the proof of Lemma B.4 so we omit it', and that "
     "proof's displays are lost), and its use in Corollary B.7's proof (line 292 'by Lemma B.6, we have') is a lost "
     "display. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Corollary B.7", Kind.INEQUALITY,
     "it is Lemma A.5 (lost) simplified with lost Stage-1 error terms ('In Stage 1, for any [lost] and [lost], we "
     "have [lost]'); line 255 says only 'we can now simplify Lemma A.5 as follows', every display of the proof "
     "(lines 284-293) is lost, and its use in Lemma B.13's proof (line 342) does not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Corollary B.8", Kind.INEQUALITY,
     "the formula and its error terms are lost ('In Stage 1, we have [lost]. Interchange the roles of [lost] and "
     "[lost] and one can obtain the formulas for [lost] and [lost]'); every display of the proof (lines 296-305) is "
     "lost, and its use in Lemma B.15's proof (line 348 'By Corollary B.8, we have') does not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma B.11", Kind.INEQUALITY,
     "the quantity is lost: lines 311-313 say the lemma tracks a substitute for the noise-signal ratio ('instead of "
     "characterizing the dynamics of [lost], we consider [lost]. Note that we always have [lost]'), and the rate "
     "('In Stage 1, we have [lost]') is lost; the proof is empty (line 319 'Proof of Lemma B.11.' is followed by the "
     "next section's heading) and its use (line 361) is a lost display. "
     "What survives is line 242's 'the noise-signal ratio converge[s] to [lost]' (its limit lost) and the "
     "lemma's rate for a lost substitute that bounds the ratio from above ('we always have [lost]'): no "
     "direction of the ratio itself is printed (a rate for an upper bound does not make the ratio monotone), and "
     "convergence to a lost limit cannot fail on a finite run. The ratio along the finite-width Stage-1 runs is "
     "shown beside ren.lemma_b10, not decided.")

lost("Lemma B.13", Kind.INEQUALITY,
     "the defined quantity (line 322 'we define [lost]') and its growth bound ('In Stage 1, we have [lost]') are "
     "lost; line 323 says only 'Note that [lost], with equality attained iff [lost]' and that it starts 'arbitrarily "
     "close to [lost]', the proof's displays (lines 342-345) are lost, and its use (line 367, giving (14)) is a lost "
     "display. It bounds a finite-width error of (11), which holds exactly in the infinite-width limit (line 229), "
     "so no infinite-width check carries the bound. "
     "What survives is 'Note that [lost], with equality attained iff [lost]' (both sides lost) and line 375's "
     "'[lost] remain small throughout Stage 1' (no threshold): a finite run cannot fail 'remains small' without "
     "its bound, and in infinite width the two norms are equal by the reduced flow's symmetry (exactly, not as "
     "evidence).")

lost("Lemma B.14", Kind.INEQUALITY,
     "the defined quantity ('Define [lost]') and the bound ('In Stage 1, we have [lost]') are lost; line 327 gives "
     "only why it is simple ('for the noises, the [lost]'s for different coordinates are the same'), there is no "
     "proof, and its use (line 369, giving (15)) is a lost display. It bounds a finite-width error of (11), which "
     "holds exactly in the infinite-width limit (line 229). "
     "What survives is line 376's '[lost] remains small in Stage 1' (no threshold) and 'the [rates] for "
     "different coordinates are the same': in infinite width the noise columns share one norm by the reduced "
     "flow's construction, and 'remains small' without its bound cannot fail on a finite run.")

lost("Lemma B.15", Kind.INEQUALITY,
     "the defined quantity ('For any [lost], define [lost]') and its growth bound ('In Stage 1, we have [lost]') are "
     "lost; line 334 says only that, by Lemma B.2, '[lost] will not blow up', the proof's displays (lines 348-357) "
     "are lost apart from 'Namely, it is negative semi-definite', and its use (line 372, giving (16)) is a lost "
     "display. In infinite width the orthogonality it controls is exact and invariant, which ren.lemma_a7 (c) "
     "checks; that is not the bound. "
     "What survives is 'will not blow up' and 'still small at the end of Stage 1' (line 334, no threshold) and "
     "the sign 'negative semi-definite' of a lost matrix (line 357): the first two cannot fail on a finite run "
     "without their bound, the third has no object the checker can evaluate.")

lost("Lemma B.16", Kind.INEQUALITY,
     "the defined quantities ('For any [lost] and [lost], define [lost] and define [lost] similarly'; 'For any "
     "[lost], define [lost]') and both growth bounds ('In Stage 1, we have [lost]') are lost, there is no proof, and "
     "its use (line 372) is a lost display; line 334 says only that 'The proof follows the same spirit' as Lemma "
     "B.15. In infinite width the orthogonality it controls is exact (line 229), so no infinite-width check carries "
     "the bound. "
     "What survives ('The proof follows the same spirit', line 334) carries no direction or bound: nothing a run "
     "could fail.")

lost("Lemma C.1", Kind.DYNAMICS,
     "no statement text survives: line 397 'Lemma C.1 (Stage 2).' is followed directly by 'The rest of this section "
     "is organized as follows', and its display (17), cited at line 398 ('the last two conditions of (17)', 'the "
     "first two conditions of (17)'), appears nowhere in the file; line 396 gives only the gist ('the discretization "
     "error and the noise-signal ratio still remain small, and, at the end of Stage 2, the condition number is close "
     "to [lost]'). That qualitative end state, in the aligned noiseless infinite-width flow, is what ren.stage2_rate "
     "checks. "
     "What survives of C.1 is line 396's gist: 'still remain small' (no threshold: cannot fail on a finite run, "
     "see ren.lemma_c18) and 'the condition number is close to [lost]' at the end of Stage 2, whose direction "
     "ren.lemma_5_3 (its informal version) checks.")

lost("Lemma C.3", Kind.INEQUALITY,
     "the defined quantity ('Define [lost]') and both estimates ('In Stage 2, we have [lost] and [lost]') are lost; "
     "line 403 says only that it handles the error that 'comes from the noises', every display of the proof (lines "
     "435-446) is lost, and its use in Lemma C.6's proof (line 476) does not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.4", Kind.INEQUALITY,
     "the defined quantity and the estimate are lost ('Define [lost]. In Stage 2, we have [lost]'); line 408 says "
     "only that it handles 'the error comes from the non-diagonalness of [lost]', every display of the proof (lines "
     "449-457) is lost, and its uses in Lemma C.5's proof (lines 462-463) do not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.5", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]'), the defined quantities ('Define [lost] and [lost]'), "
     "the estimate and its particular form ('In particular, we have [lost]') are lost, as is every display of the "
     "proof (lines 460-472); its uses (line 520, and lines 541-542 'we will use the actual form of [lost] we "
     "obtained in Lemma C.5') do not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.6", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]') and the estimate with its particular form ('for any "
     "[lost] and [lost], we have [lost]. In particular, we have [lost]') are lost; the proof (lines 475-486) keeps "
     "only a sign-flip step (line 482 'by flipping the sign of [lost] simultaneously, we flip the sign of [lost]'), "
     "which does not pin the estimate, and its uses (lines 517, 553, 556) do not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.7", Kind.INEQUALITY,
     "the estimated object (title 'Estimations for [lost]') and the estimate ('In Stage 2, for any [lost], we have "
     "[lost]') are lost; the proof (lines 488-491) keeps only 'none of these [lost]'s depends on both [lost] and "
     "[lost]. Therefore, the first term is [lost]', and its use in Lemma C.13's proof (line 559) does not restate it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.8", Kind.INEQUALITY,
     "nothing beyond 'In Stage 2, we have [lost]' survives: the estimated object (title 'Estimations for [lost]') "
     "and the estimate are lost, there is no proof, and the lemma is cited nowhere else in the source. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Corollary C.9", Kind.INEQUALITY,
     "the norm dynamics and their error terms are lost ('In Stage 2, we have [lost]. The formulas for [lost] and "
     "[lost] can be obtained by interchanging the roles of [lost] and [lost]'), even which norms; line 423 says only "
     "that the estimates simplify 'the formulas for the norms', and the proof is empty (line 493 'Proof of Corollary "
     "C.9.' is followed by the next section's heading). The infinite-width consequence in the aligned noiseless "
     "case, that the dynamics push the norms toward their average (line 122) and lower the condition number, is what "
     "ren.stage2_rate checks. "
     "What survives, the title 'Dynamics of the norms', carries no direction (which norms, and their "
     "equations, are lost); the direction Section 5.4 gives in words is ren.stage2_rate's.")

lost("Lemma C.10", Kind.INEQUALITY,
     "the evolution equation is lost ('In Stage 2, for any [lost], we have [lost]'); line 495 says only that it "
     "governs 'the evolution of the off-diagonal terms', every display of the proof (lines 515-526) is lost, and its "
     "use in Lemma C.12's proof (line 539) does not restate it. The off-diagonal terms are finite-width errors that "
     "vanish in the infinite-width limit (line 229), so no infinite-width check carries it. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.11", Kind.INEQUALITY,
     "both equations are lost ('In Stage 2, for any [lost], we have [lost] and [lost]'); every display of the proof "
     "(lines 529-534) is lost and its use in Lemma C.12's proof (line 539) does not restate it. Like Lemma C.10 it "
     "governs finite-width off-diagonal terms, which vanish in the infinite-width limit. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.12", Kind.INEQUALITY,
     "the defined quantity ('For any [lost], define [lost]') and its bound ('In Stage 2, we have [lost]') are lost; "
     "line 505 gives only orders ('the LHS is of order [lost]'), the proof's displays (lines 536-548) are lost apart "
     "from 'the coefficient of the first term is negative', and its use in Lemma C.1's proof (line 599) is a lost "
     "display. It bounds a finite-width orthogonality error, exact in the infinite-width limit. "
     "What survives ('the LHS is of order [lost]', 'the coefficient of the first term is negative') is an order "
     "and a sign inside a lost equation: no object the checker can evaluate.")

lost("Lemma C.13", Kind.INEQUALITY,
     "the defined quantity ('For any [lost] and [lost], define [lost]') and the bound ('In Stage 2, we have [lost]') "
     "are lost; the proof's displays (lines 550-566) are lost apart from 'The first matrix is negative "
     "semi-definite', and its use in Lemma C.1's proof (line 599) is a lost display. "
     "What survives ('The first matrix is negative semi-definite', line 565) is the sign of a lost matrix: no "
     "object the checker can evaluate.")

lost("Lemma C.14", Kind.INEQUALITY,
     "nothing beyond 'In Stage 2, for any [lost], we have [lost]' survives: the proof is empty (line 567 'Proof of "
     "Lemma C.14.' is followed by the next section's heading) and its use in Lemma C.1's proof (line 599) is a lost "
     "display. "
     "Nothing qualitative survives: no direction, sign, ordering or bound is left in its words, so there is "
     "nothing a model or run could be checked against.")

lost("Lemma C.15", Kind.INEQUALITY,
     "the maintained quantity and its bound are lost ('In Stage 2, we have [lost]'), as are the section's subject "
     "(line 568 'C.3 Maintaining [lost]') and the conditions (17) it maintains (line 398 'the first two conditions "
     "of (17)', (17) absent from the file); the proof's displays (lines 578-582) are lost and its use in Lemma C.1's "
     "proof (line 600, giving (18)) is a lost display. "
     "What survives is 'Maintaining [lost]' and line 569's 'we show that [lost], [lost], and [lost] also [lost] "
     "throughout Stage 2': the maintained objects and their bounds are lost, and 'maintained' without a bound "
     "cannot fail on a finite run.")

lost("Lemma C.16", Kind.INEQUALITY,
     "the defined quantities and the bound are lost ('Define [lost] and [lost]. In Stage 2, we have [lost]'); the "
     "proof is empty (line 584 'Proof of Lemma C.16.' is followed by the next section's heading), its use in Lemma "
     "C.1's proof (line 600) is a lost display, and (17), whose conditions Section C.3 maintains, is absent from the "
     "file. "
     "Its only surviving words are those of Section C.3 ('we show that [lost], [lost], and [lost] also [lost] "
     "throughout Stage 2'): objects and bounds lost, nothing a run could fail.")

lost("Lemma C.17", Kind.INEQUALITY,
     "the defined quantities and the bound are lost ('For any [lost], define [lost] and [lost]. In Stage 2, we have "
     "[lost]'); there is no proof, its use in Lemma C.1's proof (line 600) is a lost display, and (17), whose "
     "conditions Section C.3 maintains, is absent from the file. "
     "Its only surviving words are those of Section C.3 ('we show that [lost], [lost], and [lost] also [lost] "
     "throughout Stage 2'): objects and bounds lost, nothing a run could fail.")

lost("Lemma C.18", Kind.INEQUALITY,
     "the inequality is lost ('Let [lost] be the smallest among all [lost]. For any [lost], in Stage 2, we have "
     "[lost]'); line 586 says only that 'the noise-signal ratio remains small throughout Stage 2', with no threshold "
     "or rate, there is no proof, and its use in Lemma C.1's proof (line 602 'By Lemma C.18, we have') is a lost "
     "display. What survives, 'remains small' with its threshold lost, is a time-independent bound whose value is "
     "not given: on a finite horizon every continuous path is bounded, so no run can fail it, and reading it as a "
     "direction (never above its value at the start of Stage 2) adds a statement the words do not make -- on the "
     "infinite-width flow from the end of Stage 1 that direction FAILS (ren.lemma_5_3's run: the ratio rises from "
     "about 0.002 to about 0.025 at k = 5, shown there, not decided), which refutes nothing printed.")
