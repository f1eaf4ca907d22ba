"""Wen & Li's numbered statements that no catalog claim covers, each under its own id (issue 30).

The extracted source (``003_06cb9bda3a5102d9.txt``) lost its inline formulas and most displays. Each numbered
statement below is either a definition (it asserts nothing to check: :meth:`Plugin.definition <theorems.Plugin.definition>`, with what it
defines) or ``not_encodable`` (:meth:`Plugin.not_encodable <theorems.Plugin.not_encodable>`): its reason names the lost span and why nothing
else in the source -- its proof's surviving displays, its uses elsewhere, the main-text version, the surrounding
definitions -- pins it down, and which part (if any) another claim checks. The statements the source does determine
are encoded in :mod:`theorems.papers.wen.claims`. Three lost statements whose qualitative content survives are checked in that content only
(issue 39, ``qualitative=``, :mod:`theorems.papers.wen.qualitative`): ``wen.theorem_c1``, ``wen.lemma_a2`` and
``wen.fact_f4``; every other ``not_encodable`` reason says what is lost and why no run the checker has could fail
what survives. Ids follow
``wen.<kind>_<number>`` (:func:`theorems.numbered_id`); every page is ``proofs_md/<id>.md``.
"""

from __future__ import annotations

import functools

from theorems import ExperimentClaim, forall, Kind, Source
from theorems.papers.wen.claims import FILE, R_LOSS, R_MASKS, R_SCHEDULE
from theorems.papers.wen.configs import runs_needed
from theorems.papers.wen.plugin import PLUGIN
from theorems.papers.wen.qualitative import dense_every_iteration, stage1_direction, stage2_dense_direction

lost, definition = PLUGIN.not_encodable, PLUGIN.definition

definition("Definition 2.2",
           "the contrastive loss (2.2) (line 85), its display lost: for a positive pair, a batch of negatives and a "
           "temperature, built on the similarity (2.1) Sim(a, a') = <f(a), StopGrad f(a')> of unnormalized "
           "representations (footnote 2); reconstructed as theorems/papers/wen/model.py's contrastive_loss (-log of "
           "the positive pair's softmax weight, mean over the batch). The words leave two choices open: whether the "
           "positive term is in the denominator (the checker puts it there) and whether the loss is symmetrized over "
           "the two views (the checker does not).")

lost("Remark 2.4", Kind.DYNAMICS,
     "(i) negatives are not augmented ('We do not apply any augmentation to our negative samples') and (ii) there is "
     "no positive-negative correlation to decouple ('we do not expect the augmentation to decouple any correlations "
     "other than that between positive samples') hold by the construction of the checker's model (independent "
     "negatives, never augmented: model.py's contrastive_loss); (iii) 'our theory can easily adapt to the setting "
     "where augmentations are applied to all input data' names no statement and no change to check.")

definition("Definition 3.1",
           "the downstream tasks (line 110): a regression label and a classification label of each sample ('For each "
           "[lost], we define its label [lost], where [lost]') with a condition on the coefficients ('satisfies "
           "[lost] for all [lost]'), all lost. The reconstruction used by wen.downstream and wen.corollary_3_3 (model.py's task_vector and "
           "probes) is y = <a, z> and y = sign(<a, z>) with |a_j| in [0.5, 1.5] (|a_j| = Theta(1)); the words do not "
           "force that per-coordinate condition (a_j in {+-1} or |a_j| <= O(1) fit as well), nor the label when <a, "
           "z> = 0 (the probes drop those samples).")

lost("Fact A.1", Kind.INEQUALITY,
     "the batch-size condition ('As long as [lost]'), the existential quantities ('there exist [lost]') and the "
     "inequality are lost; line 178 gives only the method ('can be easily obtained by Bernstein concentration') and "
     "the quantifier ('with high probability for all iteration [lost]'), and the fact is never cited by number, so "
     "nothing states which norm or error scale it bounds.")

PLUGIN.claim(ExperimentClaim(
    id="wen.lemma_a2", kind=Kind.DYNAMICS,
    source=Source(file=FILE, numbering="Lemma A.2 (the sketch of Lemma D.4, Section A.3)", paper="Wen & Li"),
    experiment=stage2_dense_direction(), quantifier="forall",
    qualitative="the display is lost ('For neuron [lost] and spurious dense feature [lost], we have [lost]', line 217), "
                "and so is Lemma D.4's; what survives is its direction in stage II, line 218: 'after the initial "
                "stage, both [lost] and [lost] are very small compared to the sparse features [lost]. Thus [the "
                "dense-feature gradient] shall be somehow small': checked, with the masks, that over stage II (the "
                "bias rising, steps 200-400) the dense share of ||W||_F^2 falls, against the same bias schedule "
                "trained without augmentation (wen.footnote3's runs). Lost and not checked: the gradient's size and "
                "'small' against a lost quantity",
    reconstructed="trained on " + R_LOSS + ", with " + R_MASKS + " and " + R_SCHEDULE,
    prefix=(forall("model", "Definition 2.1 models in the regime (wen.theorem34's masks configurations whose bias "
                   "schedule wen.footnote3 trains without augmentation)"),
            forall("schedule", "the paper's bias schedule (formula lost): the checker's b_i = c sigma ||w_i||, c in "
                   "{1.5, 2.5}"),
            forall("seed", "training runs")),
    prerequisites=lambda quick, seed: [*runs_needed("masks", quick, seed), *runs_needed("bias", quick, seed)],
    encoding="Per seed, the dense share of ||W||_F^2 at the end of stage II (step 400) below its value at the end of "
             "stage I (step 200), with the masks; at_init: the same rule on the run of the same seed without "
             "augmentation under the same schedule (the untrained network cannot move and fails it). 'Forall': "
             "every model, schedule and seed. No threshold: a direction.",
))

lost("Lemma A.3", Kind.INEQUALITY,
     "the display is lost ('For neuron [lost] and the \"lucky\" sparse feature [lost], we have [lost]'), and so are "
     "the luckiness condition (line 219 'at initialization [lost]') and the comparisons of line 222 ('(1) [lost] is "
     "almost as large as [lost], which is much larger than [lost]'); its full version, Lemma D.3 (b) ('(lucky "
     "features)', lines 484-486), is lost as well. The ordering of line 222 survives only as words between lost "
     "symbols, so the compared quantities are unknown and no ordering can be checked. Its one surviving direction "
     "(the 'lucky' sparse features keep growing into stage II: 'This pave the way for our feature growth till stage "
     "III') is a statement about the lucky neurons, whose selection is lost; over all neurons it is the rising sparse "
     "share of stage II, which wen.lemma_a2 reads on the runs (as the falling dense share). No run can fail the "
     "ordering itself: with its three terms lost, every measured triple is consistent with some choice of them.")

definition("Definition B.1",
           "two sets of neurons 'useful for the characterization of the stochastic gradient descent trajectory' "
           "(line 248), each 'For each [lost], we define the set of neurons [lost] as: [lost]', with two constants "
           "chosen at line 246 ('We choose [lost] be two constants. (which we choose [lost], similar to the choice "
           "in [3])'): both neuron sets and the two constants are lost (deferred to [3]).")

lost("Lemma B.2", Kind.INEQUALITY,
     "all six items are lost ('(a) With high probability, for every [lost], we have [lost]' ... '(f) For each "
     "[lost], there are at most [lost] many [lost] such that [lost]'), and the proof names only techniques "
     "('chi-squared concentration', '[3, Lemma B.2]', 'Gaussian anti-concentration', 'Bernoulli concentration'). "
     "Line 447 shows that one of (a)/(b) concentrates the initial weight norm, but its width is lost, so a check "
     "would test a checker-chosen width; the uses (lines 360, 434, 444, 447, 646, 724, 783) do not restate it.")

lost("Lemma B.4", Kind.INEQUALITY,
     "the variables ('Let [lost], and [lost]. Denoting [lost]'), thresholds and bounds of all four parts are lost, "
     "and the proof (lines 316-329) names only techniques (Hoeffding, Chebychev, Bernstein, 'concentration of "
     "Gaussian variables, and then use Chernoff bound'). Part 4 ('high probability bound for dense signal') reads as "
     "a Gaussian tail of a masked-noise pre-activation, but its printed scale is lost, and none of the uses (lines "
     "396, 427, 533, 550, 723, 730, 782, 826, 860) restores a formula. A Gaussian tail of unknown scale is no "
     "checkable bound (any scale the checker chose would decide it). No run could fail what survives: given the "
     "mask D the masked noise pre-activation <w, 2D xi> is exactly Gaussian (variance 4 sigma^2 ||D w||^2), so a "
     "Gaussian tail at its own scale holds by construction on every run; only the lost scale could be wrong.")

lost("Lemma B.5", Kind.INEQUALITY,
     "the three hypotheses ('[lost] for no more than [lost] many [lost]', twice, and '[lost]') and the conclusion "
     "('Then for any [lost]: [lost]') are lost; the proof defers to [3] ('Our proof follows from similar arguments "
     "in [3]') and keeps only 'The augmented noise [lost], which follows from Gaussian distribution with variance "
     "[lost]', and its uses (lines 533, 726, 792, 826) do not restate it.")

lost("Lemma B.6", Kind.INEQUALITY,
     "the hypotheses ('there exist a set [lost] such that [lost], and [lost] for [lost]; [lost]') and the conclusion "
     "('Then for any [lost], [lost]') are lost, there is no proof, and its uses (Fact E.3 at line 689, lines 825-826 "
     "and 860) do not restate it.")

PLUGIN.claim(ExperimentClaim(
    id="wen.theorem_c1", kind=Kind.DYNAMICS, source=Source(file=FILE, numbering="Theorem C.1", paper="Wen & Li"),
    experiment=stage1_direction(), quantifier="forall",
    qualitative="all five conclusions ('(a) [lost] for all [lost]' ... '(e) For each [lost] and [lost], we have "
                "[lost]'), T1 (line 360 'the iteration when [lost] for all the neurons') and every display of the "
                "proof (lines 446-448) are lost; what survives is Section A.2's direction (line 202: 'the weights of "
                "neurons will mostly consist of the sparse features rather than the dense features'): checked, with "
                "the masks, that the sparse share of ||W||_F^2 at the end of stage I exceeds its value at "
                "initialization. Lost and not checked: the magnitudes, and 'mostly' (> 1/2) at T1 -- T1 is lost, so "
                "the share at the checker's stage-I end (step 200) would be read at an iteration the checker chose "
                "(shown, not judged)",
    reconstructed="trained on " + R_LOSS + ", with " + R_MASKS,
    prefix=(forall("model", "Definition 2.1 models in the regime (the masks configurations of wen.theorem34's map)"),
            forall("seed", "training runs (the randomness of initialization and SGD)")),
    prerequisites=functools.partial(runs_needed, "masks"),
    encoding="Per seed of wen.theorem34's masks runs (one per model: the bias acts only after stage I), the mean "
             "sparse share of the weights at the last logged step of stage I (bias 0, step 200) against its value at "
             "initialization; at_init: the untrained network compared with itself (the direction cannot hold "
             "without a step). Quantifier 'forall': every model, every seed.",
))

lost("Lemma C.3", Kind.INEQUALITY,
     "the determined core is elementary: similarities within eps of 0 (|Sim|/tau <= eps) give softmax weights within "
     "e^{+-2eps}/(N+1), the uniform logits that model.py's growth_advantage uses; but the lemma's hypothesis 'near "
     "initialization' ('Letting [lost] for each [lost], suppose we have [lost]'), hence the size of eps and of the "
     "probability ('with high probability over the randomness of [lost]'), and the display itself are lost, and "
     "1/(N+1) presumes the positive term is in the denominator of Definition 2.2's lost loss. Its qualitative "
     "content (near-uniform softmax weights near initialization) is not checked: at the runs' own initialization "
     "(w_i ~ N(0, I/d^2), a scale the checker chose) |Sim|/tau is small by that choice, so a check would hold by "
     "construction; the eps that would make it informative is lost.")

lost("Induction Hypothesis C.4", Kind.DYNAMICS,
     "all three properties are lost ('(a) [lost]; (b) [lost], moreover, we have [lost]; (c)', item (c) empty in the "
     "source), as is their range ('for all [lost]'); every display of the proof (lines 424-444) is lost, and its "
     "uses (lines 446-447, 889, 896) cite it without restating it.")

lost("Induction Hypothesis D.1", Kind.DYNAMICS,
     "all five items are lost apart from the words of (c) ('there are at most [lost] many [lost] such that [lost]'), "
     "and so is the iteration range ('For all iterations [lost]'); every display of its proof (lines 549-610) is "
     "lost, and it enters Lemmas D.3, D.4 and Theorem D.5 only as a hypothesis, never restated.")

definition("Definition D.2",
           "notations (D.1) and (D.2) for stage II, built 'given [lost] as in Definition 2.1, and [lost] as in "
           "Definition 2.3' for each [lost]: both displays are lost (lines 472-473), and the later references (line "
           "488 'the subscript for neuron index in (D.2)') do not restate them.")

lost("Lemma D.3", Kind.INEQUALITY,
     "the events and quantities it defines ('we denote events [lost] and quantities as [lost]') and both "
     "inequalities with their conditions ('(a) (all features) For all [lost], if [lost], we have [lost]'; '(b) "
     "(lucky features) If [lost], we have [lost]') are lost, and its hypothesis, Induction Hypothesis D.1, is lost "
     "too; every display of the proofs (lines 487-522) is lost, and its uses (lines 550, 568, 751, 826) do not "
     "restate it.")

lost("Lemma D.4", Kind.INEQUALITY,
     "its display is lost ('suppose Induction Hypothesis D.1 holds for the current iteration [lost], we have [lost]. "
     "For dense features [lost], [lost], we have similar results: [lost]'), as is Induction Hypothesis D.1 it "
     "assumes; wen.mask_decorrelation checks one sentence of its proof (line 527: the two masked noises 'are "
     "independent (conditioned on fixed [lost])'), independence given D, not the lemma; its sketch, Lemma A.2, is "
     "checked in the direction that survives ('shall be somehow small', line 218: the dense share of the weights "
     "falls over stage II, wen.lemma_a2). The lemma's two displays (the sparse and the dense gradient) are lost with "
     "their terms, so nothing beyond that direction could fail on a run.")

lost("Theorem D.5", Kind.DYNAMICS,
     "the three conclusions ('(a) For each [lost], if [lost], then [lost]; (b) [lost]; (c) Let [lost], then there is "
     "a constant [lost] such that [lost] for all [lost]'), the iteration at which they hold and the end of stage II "
     "(line 536) are lost, as are the bias schedule (line 107) and every display of the proof (lines 612-648); what "
     "survives ('Emergence of singletons', line 204 'how the growth of bias drive the neurons to become singletons') "
     "is the trajectory whose end state wen.theorem34 reads. Its monotone content (singletons emerge over stage II "
     "as the bias grows) is not checked: the runs log the sparse share of the weights at every 25th step (read over "
     "stage II by wen.lemma_a2) but keep W itself only at the stage-III iterates (from step 400), and a singleton "
     "count needs W; storing stage-II snapshots changes every run's cache key (all runs retrained). What no existing "
     "run can fail: the count at the start of stage III against initialization (0 singletons there) is wen.theorem34's "
     "end state, not D.5's monotonicity; and D.5's own conclusions (a)-(c) have lost conditions, so a non-monotone "
     "count would contradict only the words 'Emergence of singletons', not a printed inequality.")

lost("Theorem E.1", Kind.DYNAMICS,
     "qualitatively (a)-(c) are Theorem 3.4's feature statement, which wen.theorem34 checks by training; but the "
     "case conditions and magnitudes of (a)-(c) ('(a) If [lost], then [lost]'; '(c) For all dense feature [lost], we "
     "have [lost]'), the iteration range ('At iteration [lost] for [lost]') and all of (d) ('We have the loss "
     "convergence guarantees: let [lost], for any [lost], we have [lost]') are lost, and Theorem 3.4's own displays "
     "are lost too. The loss of (d) is logged along every run, but (d) names no quantity (the optimum of Definition "
     "E.10 and the bound are lost), so 'the loss decreases' would be a different, weaker statement. No run can fail "
     "(d): it bounds the loss at the end by a lost gap above the loss of the lost optimal learner (Definition E.10, "
     "Lemma E.11), so any logged loss -- falling, or rising as the bias is raised in stage II -- is within some "
     "choice of the two lost quantities.")

lost("Induction Hypothesis E.2", Kind.DYNAMICS,
     "all seven items are lost ('1. If [lost], then [lost]' ... '7. The bias [lost]'), and so is their range ('For "
     "all [lost]'); the proof (lines 824-851) says '(7) is an immediate result of our update scheme', and that "
     "scheme (line 107) is lost too. It enters Fact E.3, Lemmas E.5-E.9 and E.11 only as a hypothesis, never "
     "restated.")

lost("Fact E.3", Kind.INEQUALITY,
     "the notation ('For any [lost], we denote [lost]'), the high-probability statement ('with high probability over "
     "[lost] and [lost]: [lost]') and its consequence ('which implies that [lost]') are lost, as are its parent "
     "Lemma B.6 (line 689 'a simple corollary of Lemma B.6') and its hypothesis, Induction Hypothesis E.2; its uses "
     "(lines 719, 742, 758, 782, 813, 819, 828) do not restate it.")

definition("Definition E.4",
           "the expansion of the stage-III gradient ('For each [lost], [lost], we expand [lost] as: [lost]') and the "
           "terms (E.1) and (E.2) it defines: the expansion and every defined term are lost, and their uses (lines "
           "736-737, 749, 801, 811) do not restate them.")

lost("Lemma E.5", Kind.INEQUALITY,
     "the bounded quantity (title 'lower bound for [lost]'), the constants and the threshold ('there exist [lost] "
     "such that if [lost]') and the bound are lost, and so are the proof's displays (E.3)-(E.5) (lines 707-752, "
     "ending 'The constant in the statement can be defined as [lost]'); its uses (lines 766, 814, 818, 839, 864, "
     "867) do not restate it.")

lost("Lemma E.6", Kind.INEQUALITY,
     "the quantity (title 'upper bound of [lost]'), the constant, the condition and both bounds ('there exist a "
     "constant [lost], if [lost], we have [lost]. Similarly, for [lost], we have [lost]') are lost; the proof (lines "
     "757-774) keeps only a Jensen step in words, and its uses (lines 819, 837) do not restate it.")

lost("Lemma E.7", Kind.INEQUALITY,
     "the bounded term (title 'bounds for [lost]'), its range and the bound ('for each [lost], we have [lost]') are "
     "lost; the proof (lines 780-793) keeps only techniques (symmetry about zero, Fact E.3, Lemmas B.4 and B.5), and "
     "its uses (lines 799, 814, 826, 829, 833, 837) do not restate it.")

lost("Lemma E.8", Kind.INEQUALITY,
     "the bound and both quantities are lost ('for all [lost], we have [lost]. The same bound holds for [lost], with "
     "[lost] changing to [lost]'); the proof (line 799) only lists its differences from Lemma E.7, which is lost as "
     "well, and its uses (lines 814, 826, 829, 833, 837) do not restate it.")

lost("Lemma E.9", Kind.INEQUALITY,
     "the hypothesis ('we suppose for all [lost], at some [lost]'), the two iteration ranges and both bounds ('for "
     "iteration [lost]: [lost]') are lost, every display of the proof (lines 811-823) is lost, and its one citation "
     "(footnote 9, line 845) refers to the proof's upper bound, not to a restated formula.")

definition("Definition E.10",
           "the 'optimal' learner (line 853): weights defined by cases ('[lost] if [lost], and [lost] if [lost]') "
           "and the optimal feature map ('the [lost]-th neuron of [lost] given weight [lost] is [lost] and [lost] is "
           "just [lost]'): the case conditions, the weights and the bias are lost, and its use in Lemma E.11 (line "
           "863) does not restate them.")

lost("Lemma E.11", Kind.INEQUALITY,
     "the pseudo loss ('defining a pseudo loss function by [lost]'), the parameter choice ('by choosing [lost], and "
     "suppose [lost]') and the loss guarantee with its parts (a) and (b) are lost, as is the optimal learner of "
     "Definition E.10; the proof (lines 860-865) names only Lemmas B.4, B.6, Bernoulli concentration and a union "
     "bound, and the result it feeds (line 855), Theorem E.1 (d), is lost.")

lost("Lemma F.2", Kind.INEQUALITY,
     "the norm ('has norm [lost]'), the side condition ('such that [lost] for all [lost]') and the loss bound ('then "
     "[lost]') are lost, as is the bias setting before it (line 880 'setting bias [lost]'); the proof keeps only 'By "
     "Johnson-Lindenstrauss lemma, with high probability we have [lost]', and line 888 contrasts it without "
     "restating it.")

lost("Lemma F.3", Kind.DYNAMICS,
     "the whole content is lost ('For each [lost], for some [lost], we have [lost]'); line 889 says only that it is "
     "'a norm result for all the neurons [lost]' proved 'by similar analysis as in the proof of Induction Hypothesis "
     "C.4, which we skip here', and that hypothesis is lost as well.")

PLUGIN.claim(ExperimentClaim(
    id="wen.fact_f4", kind=Kind.DYNAMICS, source=Source(file=FILE, numbering="Fact F.4", paper="Wen & Li"),
    experiment=dense_every_iteration(), quantifier="forall",
    qualitative="the inequality is lost ('At each iteration [lost], the learned network without augmentations "
                "satisfies for each [lost], we have [lost]'), its proof skipped, and what it 'directly leads to' "
                "(line 897) is Theorem 3.2's lost display; what survives is a time-independent direction -- at each "
                "iteration, without augmentation, the network is dominated by the dense noise (Theorem 3.2's "
                "sentence, line 125). Checked on the weights (Section 2.2: 'we call the learned weights of neural "
                "networks features'): less than half of ||W||_F^2 in span(M) at every logged iteration. Lost: the "
                "quantity bounded and its size (the per-sample representation split is wen.theorem32)",
    reconstructed="trained on " + R_LOSS,
    prefix=(forall("model", "Definition 2.1 models in the regime (wen.theorem32's map, bias 0)"),
            forall("t", "every iteration ('At each iteration'; read at the logged steps 0, 25, ..., 500)"),
            forall("seed", "training runs")),
    prerequisites=functools.partial(runs_needed, "none"),
    encoding="Per seed of wen.theorem32's runs without augmentation, the largest sparse share of ||W||_F^2 over the "
             "logged iterations below 1/2 ('dominated'); at_init: the untrained network's share (~ d1/d) below 1/2 "
             "-- it holds there, so the configurations are uninformative (untested) unless a run leaves it.",
))
