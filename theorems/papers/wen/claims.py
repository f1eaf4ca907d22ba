"""Claims of Wen & Li, "Toward understanding the feature learning process of self-supervised
contrastive learning" (``003_06cb9bda3a5102d9.txt``): the declarations -- each claim's source, quantifier
prefix, readings and encoding.

Exact claims (no training; Monte Carlo only as a cross-check, over MIN_SEEDS seeds): ``wen.lemma_b3``,
``wen.stage1_gradient``, ``wen.mask_decorrelation`` (their experiments in ``exact_experiments.py``).
Dynamics claims (training runs on the sparse coding model over MIN_SEEDS seeds, each configuration
measured on the trained network and on its own initialization, regime checks measured on each
configuration): ``wen.theorem32``, ``wen.footnote3``, ``wen.theorem34``, ``wen.downstream`` (Corollary 3.5),
``wen.corollary_3_3``,
``wen.footnote1`` (their experiments in ``dynamics_experiments.py``, the observations in
``observations.py``). Every experiment returns measurements (:class:`~theorems.Observation`,
:class:`~theorems.Growth`, certificates with their domain); the engine reads the verdict. The model is in
``model.py``, the exact computations in ``exact.py``, the runs, regime checks and per-seed rules in
``dynamics.py``, what each reading changes in ``readings.py``, the configurations and the runs a claim
needs in ``configs.py``, the tables and plots in ``report.py``; the reconstruction of every lost formula
and each claim's logical form are in ``proofs_md/wen.*.md``.
"""

from __future__ import annotations

import functools

from theorems import exists, ExperimentClaim, forall, Kind, Reading, Source
from theorems.papers.wen.configs import runs_needed
from theorems.papers.wen.dynamics_experiments import (downstream_experiment, footnote1_experiment, footnote3_experiment,
                                                      theorem32_experiment, theorem34_experiment)
from theorems.papers.wen.exact_experiments import (lemma_b3_experiment, mask_decorrelation_experiment,
                                                   stage1_gradient)
from theorems.papers.wen.plugin import PLUGIN
from theorems.papers.wen.readings import T32_READINGS, WHEN_READINGS, WHP_EXP, WHP_READINGS, WHP_WORDS
from theorems.papers.wen.threads import one_thread

FILE = "003_06cb9bda3a5102d9.txt"


def source(numbering: str) -> Source:
    return Source(file=FILE, numbering=numbering, paper="Wen & Li")


# == registration ============================================================================================
MODEL = ("Definition 2.1 models x = Mz + xi: M d x d1 column-orthonormal with ||M_j||_inf <= Õ(1/sqrt d), z_j i.i.d. "
         "symmetric with P(z_j != 0) = p, xi ~ N(0, sigma^2 I), p << sigma^2 = o(1)")
WHP_OVER_MASKS = "masks D ~ 𝒟 outside an event of probability <= 1/d ('with high probability', read as 1 - 1/d)"
#: "with high probability": its formula is lost in the Notations; every claim whose sentence says it reads it the same
#: way (readings.WHP_READINGS: 1 - 1/d literal, 1 - exp(-log^2 d) the other reading)
R_WHP = ("'with high probability' (the Notations' formula lost: " + WHP_WORDS + ") read as " + WHP_READINGS["1/d"]
         + "; the other reading, " + WHP_READINGS["exp(-log^2 d)"] + ", is listed")
# == reconstructions of lost displays (issue 39: `reconstructed=`) ======================================
R_LOSS = ("the contrastive loss (2.2), its display lost (lines 86-87: '(2.2) |'), inferred from Definition 2.2's words "
          "(positive pair, batch of negatives, temperature, the similarity (2.1) with StopGrad, footnote 2) as -log of "
          "the positive pair's softmax weight (model.py contrastive_loss)")
R_MASKS = ("the mask augmentation of Definition 2.3, its law and its views lost (lines 89-90: 'diagonal entries are "
           "sampled from [lost] independently ... generate [lost] and [lost]'), inferred from Section 4 and Lemma "
           "D.4's proof (line 527) as D_kk ~ Bernoulli(1/2), x+ = 2Dx, x++ = 2(I - D)x")
R_SCHEDULE = "the bias schedule (line 107, lost), chosen as b_i = c sigma ||w_i|| rising after stage I"
R_TASKS = ("the downstream tasks of Definition 3.1, labels and coefficient condition lost (lines 110-111), inferred "
           "from Section 3's prose and Appendix F (line 872: the latent variables 'dictate their labels') as y = <a, z>, "
           "sign(<a, z>), |a_j| in [0.5, 1.5] (model.py task_vector)")
R_T32 = ("Theorem 3.2's display lost (line 124: 'with high probability it holds: [lost]'), inferred from line 125 ('the "
         "sparse signal are completely overwhelmed by the spurious dense signal') and Fact F.4 as ||signal part of f(x)|| "
         "<= o(1) ||noise part||")
R_T34 = ("Theorem 3.4's feature display lost (lines 137-139: 'will learn the following set of features: [lost]'), "
         "inferred from Theorem E.1 (a)-(c)'s words and line 139 ('at least [lost] many such that [lost]') as >= "
         "Omega(m/d1) singleton neurons per atom with the dense part suppressed")


C_M = forall("C_M", "the constant inside the Õ of ||M_j||_inf <= Õ(1/sqrt d) (Appendix A.1: 'the constant inside the "
             "notation of Definition 2.1')")
C_LEMMA = exists("C", "C > 0, k >= 0", depends_on=("C_M",),
                 asymptotic="Õ(1/sqrt d) = C log^k(d) / sqrt d (Notations: universal constants and polylog factors "
                            "of d)")

PLUGIN.claim(ExperimentClaim(
    id="wen.lemma_b3", kind=Kind.INEQUALITY, source=source("Lemma B.3 (part 1)"),
    experiment=lemma_b3_experiment("literal"), quantifier="settings",
    reconstructed="Lemma B.3 (part 1)'s display lost (lines 281-283: 'it holds: - 1.'), inferred from its title "
                  "('correlation from augmentation'), the catalog row and its uses (lines 396, 784) as |<M_j, (2D - I) "
                  "M_j'>| <= Õ(1/sqrt d) w.h.p.; " + R_WHP + "; and " + R_MASKS,
    prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", MODEL.split(":")[0] + " dictionaries "
            "with constant C_M"), C_LEMMA, forall("j, j'", "pairs of atoms in [d1] (j = j' included)"),
            forall("D", WHP_OVER_MASKS + ", for this pair")),
    literal="'for each j, j' in [d1], with high probability we have [the bound]': a w.h.p. event per pair (j, j'), "
            "probability >= 1 - 1/d",
    readings=(
        Reading("uniform over pairs", "the catalog row 'for every pair of dictionary atoms' and the way the proofs "
                "use the lemma (all pairs at once, Lemma C.2): one w.h.p. event for every pair (a union bound)",
                experiment=lemma_b3_experiment("uniform over pairs"),
                prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", "dictionaries with "
                        "constant C_M"), C_LEMMA, forall("D", WHP_OVER_MASKS + ", one event for all pairs"),
                        forall("j, j'", "pairs of atoms in [d1]"))),
        Reading("per pair, " + WHP_EXP, WHP_WORDS + " read as " + WHP_READINGS["exp(-log^2 d)"] + "; per pair, as "
                "printed ('for each j, j' in [d1], with high probability')",
                experiment=lemma_b3_experiment("per pair, " + WHP_EXP),
                prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", "dictionaries with "
                        "constant C_M"), C_LEMMA, forall("j, j'", "pairs of atoms in [d1] (j = j' included)"),
                        forall("D", "masks outside an event of probability <= exp(-log^2 d), for this pair"))),
        Reading(WHP_EXP, WHP_WORDS + " read as " + WHP_READINGS["exp(-log^2 d)"] + "; uniform over pairs (the "
                "proofs' use, as the reading 'uniform over pairs')",
                experiment=lemma_b3_experiment(WHP_EXP),
                prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", "dictionaries with "
                        "constant C_M"), C_LEMMA, forall("D", "masks outside an event of probability <= "
                        "exp(-log^2 d), one event for all pairs"), forall("j, j'", "pairs of atoms in [d1]")))),
    encoding="|<M_j, (2D - I) M_j'>| <= Õ(1/sqrt d) w.h.p.: for Haar dictionaries with d1 = d/8 at d = 100..1600 the "
             "certified Hoeffding bound B(d) (exact variance proxies), its growth along d after dividing by the "
             "polylog the bound carries (sqrt(log d) for delta = 1/d, log d for delta = exp(-log^2 d)) read by the "
             "engine (bounded: log-log slope <= 0.1; unbounded: >= 0.25), and a Monte Carlo cross-check per d over 5 "
             "seeds (a seed fails when the exceedance count has probability < 1e-3 under the bound). The premise "
             "||M_j||_inf <= Õ(1/sqrt d) is a regime check; coordinate atoms (outside it) are shown. The Õ constant C "
             "may depend on the premise's constant C_M only (Notations: O hides universal constants w.r.t. d, Õ "
             "polylog factors of d): it is bound before d, M and the pairs. Quantifier 'settings': the d values are "
             "the checker's points of the family; the asymptotic statement is the growth. Certificates cover the "
             "bound for every d and every dictionary of the premise (issue 38): |e_jj'| <= ||M_j||_inf sqrt(2 lam(d)) with "
             "probability >= 1 - delta, lam(d) = log(2d), 3 log(2d), (1 + log(2d))^2 per reading (sympy for a symbolic "
             "d), so |e_jj'| <= sqrt(6) C_M polylog(d)/sqrt(d): proved modulo Hoeffding's inequality (cited); the "
             "table and the growth are the same bound on Haar dictionaries, and the Monte Carlo cross-check.",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.stage1_gradient", kind=Kind.INEQUALITY,
    source=Source(file=FILE, numbering="Lemma C.2, Sections A.2 and A.5, Lemma F.1 (its bias-0 part)", paper="Wen & Li",
                  covers=("Lemma C.2", "Lemma F.1")),
    experiment=one_thread(stage1_gradient), quantifier="forall",
    reconstructed="the displays of Lemmas C.2 and F.1 are lost; the stage-I rates are the expected positive-pair "
                  "gradient K w of " + R_LOSS + ", with " + R_MASKS,
    prefix=(forall("model", MODEL + "; regime p << sigma^2 read as sigma^2/p >= 4"),
            forall("i, t", "a neuron i at an iteration t <= T1 of stage I (bias b = 0)"),
            forall("j, r", "sparse directions M_j (j in [d1]) and dense directions M⊥_r"),
            exists("err", "the lower-order terms of '≈' in Lemmas C.2, F.1", depends_on=("model",),
                   asymptotic="≈ (Õ error terms)")),
    encoding="At bias 0 the expected positive-pair gradient is K w with K = E[x+ x++^T]: K = Sigma - diag(Sigma) with "
             "the masks (sympy, entrywise: every d), K = Sigma without. Exact on the models d = 64, 128, 400 and "
             "sigma^2/p = 2 (outside the regime), 4, 8: with masks every sparse rate > 0, the dense block negative "
             "semidefinite and the top eigenvector in span(M); without masks dense/sparse = sigma^2/(sigma^2 + p) >= "
             "0.8 ('approximately equal', a checker threshold). Monte Carlo cross-check over 5 seeds at the default "
             "model (Bonferroni radius). Per model two observations (issue 39): the dictionary-dependent part (sparse rates "
             "> 0, top eigenvector in span(M)) and the part that holds by the encoding's algebra inside the regime "
             "(dense block -p P diag(MM^T) P <= 0; sigma^2/(sigma^2 + p) >= 0.8 follows from sigma^2/p >= 4: "
             "by_construction, no evidence). Quantifier 'forall': the lemmas hold for every model of Definition 2.1 in "
             "the regime; the models are a sample of them. One reading: the lemmas' '≈' are the only vague words and "
             "the encoding reads the signs and the share, not the error terms. Certificates cover the identities "
             "only: at most consistent.",
))

MASK_PREFIX = (forall("model", MODEL + " (diagonal Sigma_xi in the footnote-1 variants)"),
               forall("d", "the input dimension"))
PLUGIN.claim(ExperimentClaim(
    id="wen.mask_decorrelation", kind=Kind.INEQUALITY,
    source=source("Definition 2.3, Section 4 (Feature Decoupling), Lemmas B.3, D.4"),
    experiment=mask_decorrelation_experiment("literal"), quantifier="forall",
    reconstructed="the two objects of Section 4's sentence are lost ('the dense signals [lost] and [lost] of [lost] "
                  "and [lost]'), read as 2D xi and 2(I - D) xi under " + R_MASKS,
    known_refutation="wen.mask_decorrelation.json",
    prefix=(*MASK_PREFIX, forall("(D, xi)", "the mask and the noise drawn jointly: the law of the pair (2D xi, "
                                 "2(I - D) xi)"),
            forall("j", "an atom with z_j != 0"),
            forall("D'", "masks outside an event of probability <= 1/d ('unless in very rare case M_j is completely "
                   "masked')")),
    literal="Section 4: 'such data augmentations can make the dense signals [2D xi] and [2(I - D) xi] of x+ and x++ "
            "independent to each other' -- independence of the pair, unconditionally",
    readings=(
        Reading("conditioned on D", "Lemma D.4's proof: 'after the augmentations, [2D xi] and [2(I-D) xi] are "
                "independent (conditioned on fixed D)'; Lemma C.2's proof likewise",
                experiment=mask_decorrelation_experiment("conditioned on D"),
                prefix=(*MASK_PREFIX, forall("D", "a fixed mask: the conditional law of (2D xi, 2(I - D) xi) given D"),
                        forall("j", "an atom with z_j != 0"),
                        forall("D'", "masks outside an event of probability <= 1/d"))),
        Reading("uncorrelated along fixed directions", "the catalog row's parenthesis 'independent (zero correlation "
                "along any fixed direction)'",
                experiment=mask_decorrelation_experiment("uncorrelated along fixed directions"),
                prefix=(*MASK_PREFIX, forall("u, v", "fixed directions: E<u, 2D xi><v, 2(I - D) xi> over (D, xi)"),
                        forall("j", "an atom with z_j != 0"),
                        forall("D'", "masks outside an event of probability <= 1/d")))),
    encoding="(i) the masked noises of the two views: unconditionally (literal; the exact covariance of their squared "
             "norms is -4 d sigma^4, sympy per coordinate, so they are not independent), given D (zero "
             "cross-covariance, sympy over all masks), or along fixed directions (zero cross-moment); Monte Carlo "
             "cross-checks over 5 seeds; (ii) in the regime ||M_j||_inf <= O~(1/sqrt d), no atom is completely masked "
             "(exact, <= 1/d at every d) and d times the certified probability that some atom keeps less than half of "
             "its coefficient in a view must not grow along d (engine: log-log slope); coordinate atoms (outside the "
             "regime) are shown. Quantifier 'forall': every part must hold. At most consistent (finite d).",
))

def _t32_prefix(whp: str = "1/d") -> tuple:
    """Theorem 3.2's prefix with "with high probability" read as ``whp`` (readings.WHP_READINGS)."""
    if whp == "1/d":
        return T32_PREFIX
    return (*T32_PREFIX[:-2], forall("x", "a sample x = Mz + xi with z != 0, outside an event of probability <= "
                                     "exp(-log^2 d) ('with high probability' read as 1 - exp(-log^2 d))"),
            T32_PREFIX[-1])


T32_PREFIX = (forall("model", MODEL + "; regime checks: sigma^2/p >= 4, E||xi||^2 >= 4"),
              forall("N", "negatives, N = poly(d)"),
              forall("lambda, eta", "'where lambda can be arbitrary. The learning rate can also be arbitrary' "
                     "(instantiated at lambda = 1e-3, eta = 1)"),
              forall("f", "the network trained without augmentation (b = 0, as the proof trains: Lemmas F.1, F.2)"),
              forall("x", "a sample x = Mz + xi with z != 0, outside an event of probability <= 1/d ('with high "
                     "probability', the shared reading 1 - 1/d)"),
              exists("o1", "the o(1): a function of d vanishing as d -> infinity (of d alone: the model, which fixes d, "
                     "may not choose it)", depends_on=(),
                     asymptotic="o(1): ||signal part of f(x)|| <= o(1) ||noise part||"))

PLUGIN.claim(ExperimentClaim(
    id="wen.theorem32", kind=Kind.DYNAMICS, source=source("Theorem 3.2 (with Appendices A.5, F)"),
    experiment=theorem32_experiment("representation"), quantifier="forall", prefix=T32_PREFIX,
    reconstructed=R_T32 + "; " + R_WHP + "; trained on " + R_LOSS,
    prerequisites=functools.partial(runs_needed, "none"),
    literal="'given a data sample x, with high probability it holds: [lost]', reconstructed as the signal part of "
            "f(x) <= o(1) times its noise part (Fact F.4 and the sentence after the theorem)",
    readings=(*(Reading(name, rests_on, experiment=theorem32_experiment(rule))
                for name, (rule, rests_on) in T32_READINGS.items()),
              Reading(WHP_EXP, WHP_WORDS + " read as " + WHP_READINGS["exp(-log^2 d)"] + " (shared with wen.lemma_b3)",
                      experiment=theorem32_experiment("representation", "exp(-log^2 d)"),
                      prefix=_t32_prefix("exp(-log^2 d)"))),
    encoding="SGD on (2.2) with x+ = x++ = x at bias 0 (Lemmas F.1, F.2); per sample (z != 0) the signal part "
             "||(WMz)_active|| of f(x) against its noise part ||(W xi)_active||: a seed holds when the (1 - 1/d)-"
             "quantile of their ratio is below 1 ('with high probability' as 1 - 1/d, the reading wen.lemma_b3's "
             "literal takes; issue 39: the former 0.9-quantile read no reading of the Notations), fails when the "
             "median exceeds 1 (under every reading of w.h.p.), over 5 seeds, for all models of the map (noise "
             "levels, d: 'forall', every model of Definition 2.1); o(1) read as the growth of the (1 - 1/d)-quantile "
             "along d = 64, 128, 256 (must not grow). The finite-d cut-off 1 is the weakest value the o(1) factor can "
             "take eventually: a failing seed would rest on o(1) <= 1 at that d (checker-chosen), a holding one does "
             "not. Under 1 - exp(-log^2 d) no run of 4000 samples shows holding (one-sided). Each seed's rule is also "
             "measured on the untrained network (ratio ~ ||z||/||xi||): where the property holds before training the "
             "configuration is uninformative (issue 27, item 5).",
))

FOOTNOTE3_B = forall("b", "bias schedules without augmentation that keep every neuron alive ('the biases can be tuned "
                     "arbitrarily as long as the neurons are not killed'); instantiated as b_i = c sigma ||w_i|| after "
                     "stage I, c = 0, 1.5, 2.5, alive = active on >= 1 % of the samples")

PLUGIN.claim(ExperimentClaim(
    id="wen.footnote3", kind=Kind.DYNAMICS, source=source("footnote 3 of Section 2 (training without augmentation)"),
    experiment=footnote3_experiment("representation"), quantifier="forall",
    reconstructed="footnote 3's 'our results' is Theorem 3.2, whose " + R_T32 + "; " + R_WHP + "; trained on " + R_LOSS,
    prefix=(FOOTNOTE3_B, *T32_PREFIX),
    prerequisites=functools.partial(runs_needed, "bias"),
    literal="'It will not affect our results': Theorem 3.2's conclusion (the representation split) under every such "
            "bias",
    readings=(Reading("our results = Theorem 3.2 and Corollary 3.3", "'our results' without augmentation are "
                      "Theorem 3.2 and its Corollary 3.3 (the probes fail): a seed also needs the probes on the "
                      "features to fail as in wen.corollary_3_3",
                      experiment=footnote3_experiment("representation and probes")),
              # Theorem 3.2's own readings (shared definitions): footnote 3's "our results" are its conclusion
              *(Reading(name, "Theorem 3.2's reading: " + rests_on, experiment=footnote3_experiment(rule))
                for name, (rule, rests_on) in T32_READINGS.items()),
              Reading(WHP_EXP, WHP_WORDS + " read as " + WHP_READINGS["exp(-log^2 d)"] + " (Theorem 3.2's reading)",
                      experiment=footnote3_experiment("representation", "exp(-log^2 d)"),
                      prefix=(FOOTNOTE3_B, *_t32_prefix("exp(-log^2 d)")))),
    encoding="Theorem 3.2's rule on the no-augmentation learner with the bias raised as with masks (c = 0, 1.5, 2.5), "
             "for all biases that keep every neuron active on >= 1 % of the samples ('as long as the neurons are not "
             "killed'; 'arbitrarily': read 'forall'), 5 seeds, each also measured on the untrained network with the "
             "same bias rule.",
))

T34_PREFIX_HEAD = (forall("model", MODEL + "; regime checks: sigma^2/p >= 4, sigma = o(1), ||M||_inf small"),
                   forall("m", "neurons, m >> d1 (checked: every atom is the top atom of >= ceil(m/(4 d1)) neurons at "
                          "initialization with probability >= 0.9)"),
                   forall("N", "negatives, N = poly(d)"),
                   forall("schedule", "the paper's bias schedule (formula lost): the checker's b_i = c sigma ||w_i||, "
                          "c in {1.5, 2.5} (free settings)"),
                   exists("c_small", "the 'small constant c' of the objective guarantee (not checked: lost)"))
T34_PREFIX_TAIL = (forall("i", "neurons"), forall("j", "atoms in [d1]"),
                   exists("c_Omega", "the per-atom count's constant", depends_on=(),
                          asymptotic="Omega(m/d1) singleton neurons per atom (universal; checker-derived 1/4 for "
                                     "'holds', any c > 0 for 'fails')"))


def _t34_prefix(when: str) -> tuple:
    T = {"some": exists("T", "an iteration in [T3, T4] (stage III): 'for some iterations T'"),
         "every": forall("T", "every iteration in [T3, T4] (stage III)"),
         "final": forall("T", "T = the end of training")}[when]
    return (*T34_PREFIX_HEAD, T, *T34_PREFIX_TAIL)


PLUGIN.claim(ExperimentClaim(
    id="wen.theorem34", kind=Kind.DYNAMICS, source=source("Theorem 3.4 (with Appendices A.2-A.4, E)"),
    experiment=theorem34_experiment("some"), quantifier="settings", prefix=_t34_prefix("some"),
    reconstructed=R_T34 + "; trained on " + R_LOSS + ", with " + R_MASKS + " and " + R_SCHEDULE,
    one_sided="'some iterations T in [T3, T4]' with T3, T4 lost and 'm >> d1' a limit: runs that lack the features at "
              "the logged iterates of one schedule at finite m/d1 do not show that no T in [T3, T4] has them",
    prerequisites=functools.partial(runs_needed, "masks"),
    literal="'then for some small constant c, and some iterations T in [T3, T4] ... contrastive learning will learn "
            "the following set of features': the features at some stage-III iterate T (the logged iterates, steps "
            "400..500 every 25); the map over models and the checker's bias thresholds read 'settings'",
    readings=(
        *(Reading(name, rests_on, experiment=theorem34_experiment(when), prefix=_t34_prefix(when))
          for name, (when, rests_on) in WHEN_READINGS.items()),
        Reading("every configuration", "the theorem is stated for every model of Definition 2.1; the bias threshold c "
                "read as part of the model (the printed schedule is lost): one refuted configuration refutes",
                quantifier="forall")),
    encoding="SGD on (2.2) with the complementary masks and a rising bias; per seed, every atom has >= ceil(m/(4 d1)) "
             "singleton neurons (cos^2 >= 0.8) and <= 20 % of ||W||_F^2 lies outside span(M) (fails: an atom without "
             "any singleton neuron, or > 50 % outside span(M)); 5 seeds, a map of bias thresholds, noise levels and "
             "d. Quantifier 'settings': the map mixes models (universal) with bias thresholds the checker chose where "
             "the printed schedule is lost; the reading 'every configuration' reads it 'forall'. The untrained "
             "network fails the rule (no singleton neurons, ~90 % dense): informative.",
))

DOWNSTREAM_MODEL = forall("model", MODEL + "; regime: a linear probe on raw inputs fails (oracle R^2 <= 0.25, oracle "
                          "classifier error >= 10 %)")
DOWNSTREAM_TASKS = forall("a", "downstream tasks y = <a, z> and sign(<a, z>) with |a_j| = Theta(1) (Definition 3.1)")

PLUGIN.claim(ExperimentClaim(
    id="wen.downstream", kind=Kind.DYNAMICS, source=source("Corollary 3.5"), experiment=downstream_experiment("3.5"),
    quantifier="settings",
    reconstructed="Corollary 3.5's bounds are lost ('with sample complexity at most [lost], we can obtain [lost] such "
                  "that [lost]', lines 142-146), read as probes beating the raw-input probes and leaving the failing "
                  "levels; on " + R_TASKS + "; trained on " + R_LOSS + ", with " + R_MASKS + " and " + R_SCHEDULE,
    one_sided="Corollary 3.5's 'sample complexity at most [lost]' is an existential n: probes that fail to beat the raw "
              "inputs at n = 20000 do not refute an unspecified n",
    prefix=(DOWNSTREAM_MODEL, DOWNSTREAM_TASKS,
            exists("n (3.5)", "a sample size 'with sample complexity at most [lost]' (n = 20000 here)",
                   depends_on=("model", "a")),
            exists("u (3.5)", "the linear head found by the convex downstream objective", depends_on=("model", "a"))),
    prerequisites=functools.partial(runs_needed, "downstream"),
    encoding="Corollary 3.5 (the catalog row's 'solve ... with augmentation'; its 'fail without' is Corollary 3.3, "
             "wen.corollary_3_3 since issue 39): ridge (R^2) and logistic (accuracy) probes on the frozen features "
             "learned with masks against the raw-input probes of the same seed: both beat raw inputs by more than "
             "the margin and leave the failing levels, 5 seeds, one observation per pair of the map (quantifier "
             "'settings', as wen.theorem34: bias thresholds are the checker's). Also measured on the untrained "
             "network (at_init): it fails the rule (random linear features = raw input), so the observations are "
             "informative. The margin over raw inputs is not printed (the bounds are lost; Section 3: 'more efficient "
             "than using raw inputs'): literal 0, decided over every margin in [0, 0.02] (a seed holds only when it "
             "holds at 0.02, fails only when it fails at 0; dynamics.TOL_RANGE), the observations show the largest "
             "margin each seed clears. One reading: the probes' sample size is the only instantiated quantifier "
             "(20000).",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.corollary_3_3", kind=Kind.DYNAMICS, source=source("Corollary 3.3"), experiment=downstream_experiment("3.3"),
    quantifier="settings",
    reconstructed="Corollary 3.3's bounds are lost ('For regression, we have [lost]; For classification, we have "
                  "[lost]', lines 127-129), read as probes that do not beat the raw-input probes and stay at the "
                  "failing levels; on " + R_TASKS + "; trained on " + R_LOSS,
    prefix=(DOWNSTREAM_MODEL, DOWNSTREAM_TASKS,
            forall("n (3.3)", "labeled samples, 'no matter how many' (instantiated at n = 20000), and the minimizing "
                   "linear head")),
    prerequisites=functools.partial(runs_needed, "downstream"),
    encoding="Corollary 3.3 (split from wen.downstream in issue 39): ridge (R^2) and logistic (accuracy) probes on the "
             "frozen features learned without augmentation (b = 0, as the proof of Corollary 3.3) against the "
             "raw-input probes of the same seed: neither beats raw inputs by more than the margin and both stay at "
             "failing levels, 5 seeds, one observation per pair of the map. The margin is not printed ('fail to "
             "achieve meaningful l2-loss/accuracy'): literal 0, decided over every margin in [0, 0.02] (a seed holds "
             "only when it holds at 0, fails only when it fails at 0.02). Also measured on the untrained network "
             "(at_init): at b = 0 its features are a random linear map of x, so the probes equal the raw-input "
             "probes and the property already holds there: untested (uninformative), whatever the trained run "
             "shows. One reading: 'no matter how many' is instantiated at n = 20000.",
))

FOOTNOTE1_SIGMA = forall("Sigma_xi", "noise covariances that are 'non-spherical Gaussian or [have] certain directions "
                         "with larger variance than [sigma^2]' (instantiated: diagonal, one coordinate spike, one "
                         "delocalized spike orthogonal to span M)")

PLUGIN.claim(ExperimentClaim(
    id="wen.footnote1", kind=Kind.DYNAMICS, source=source("footnote 1 of Section 2 (Definition 2.1)"),
    experiment=footnote1_experiment("all"), quantifier="forall",
    reconstructed="footnote 1's 'results' are Theorem 3.4's, whose " + R_T34 + "; trained on " + R_LOSS + ", with "
                  + R_MASKS + " and " + R_SCHEDULE,
    known_refutation="wen.footnote1.json",
    prefix=(FOOTNOTE1_SIGMA, *_t34_prefix("some")),
    prerequisites=functools.partial(runs_needed, "footnote"),
    literal="'One can also assume the noise vector to be non-spherical Gaussian or has certain directions with larger "
            "variance than [sigma^2]': the results hold under that assumption, i.e. for every such noise",
    readings=(
        Reading("independent coordinates", "Section 4's reason for the decoupling, 'different coordinate of our dense "
                "noise are independent to each other': every non-spherical noise with independent coordinates "
                "(diagonal Sigma_xi, including a coordinate direction with larger variance)",
                experiment=footnote1_experiment("independent coordinates"),
                prefix=(forall("Sigma_xi", "diagonal noise covariances (independent coordinates): variances of "
                               "unequal size, one coordinate with larger variance"), *_t34_prefix("some"))),
        Reading("exists", "'Although our theory tolerates a wider range of these parameters' names no range: some "
                "non-spherical noise (or direction with larger variance) on which Theorem 3.4 still holds",
                quantifier="exists",
                prefix=(exists("Sigma_xi", "some non-spherical noise covariance or direction with larger variance",
                               depends_on=()), *_t34_prefix("some"))),
        # Theorem 3.4's own readings of "for some iterations T" (shared definitions): footnote 1's "results" are its
        *(Reading(name, "Theorem 3.4's reading: " + rests_on, experiment=footnote1_experiment("all", when),
                  prefix=(FOOTNOTE1_SIGMA, *_t34_prefix(when)))
          for name, (when, rests_on) in WHEN_READINGS.items())),
    encoding="Theorem 3.4's rule (some stage-III iterate, as wen.theorem34's literal reading) with the masks on noise "
             "variants: independent coordinates of unequal variances, one coordinate direction with larger variance, "
             "one delocalized direction with larger variance (two strengths); 5 seeds; exact stage-I rates beside "
             "each run. Literal 'forall' (one refuted variant refutes); readings: diagonal covariances only, "
             "'there exists' (a consistent variant is a witness), and Theorem 3.4's readings of 'some iterations T' "
             "(every stage-III iterate, the final iterate; shared with wen.theorem34).",
))

PLUGIN.edges([
    ("wen.lemma_b3", "wen.mask_decorrelation"),
    ("wen.lemma_b3", "wen.stage1_gradient"),
    ("wen.mask_decorrelation", "wen.theorem34"),
    ("wen.stage1_gradient", "wen.theorem34"),
    ("wen.stage1_gradient", "wen.theorem32"),
    ("wen.theorem32", "wen.corollary_3_3"),
    ("wen.theorem34", "wen.downstream"),
    ("wen.theorem34", "wen.footnote1"),
    ("wen.theorem32", "wen.footnote3"),
])
