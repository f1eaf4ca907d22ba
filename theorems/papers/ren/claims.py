"""Claims of Ren & Li (multimodal contrastive learning with population-normalized linear learners).

Source: ``002_1392d7a5a1d595de.txt``. The extracted text lost its inline formulas; the model,
losses and metrics are reconstructed from the words and from the proofs that use them
(``theorems/papers/ren/model.py``, ``flow.py``; every reconstruction is listed with its passage in
``proofs_md/ren.*.md``). The definitions, the Section 4 example and the appendix lemmas are checked
by exact computation (:mod:`theorems.papers.ren.exact`); Theorem 4.3 and the stage-wise picture by
training runs that track the infinite-width flow (:mod:`theorems.papers.ren.dynamics`).

Every claim declares its quantifier prefix in the order the sentence binds its objects, and the
other readings the words admit (``theorems.Reading``); the experiments return measurements
only and the engine reads the verdicts.
"""

from __future__ import annotations

from theorems import MIN_SEEDS, exists, ExperimentClaim, forall, Kind, Reading, Source
from theorems.papers.ren.plugin import PLUGIN
from theorems.papers.ren import alignment_reach, dynamics, exact, qualitative, reconstructed

FILE = "002_1392d7a5a1d595de.txt"


def source(numbering: str) -> Source:
    return Source(file=FILE, numbering=numbering, paper="Ren & Li")


# -- prefix pieces ---------------------------------------------------------------------------------
#: Definitions 4.1-4.2: the thresholds of "aligned" and "balanced", constants fixed before Theorem 4.3
#: (the checker: eps = 0.05, c = 2)
#: admissible ranges (issue 39; the definitions' displays are lost, so the source fixes only a range): eps in (0, 1/2)
#: -- line 56, 'aligned' is stronger than matching, which a constant map achieves with Align = 1/2 (random tie-break)
#: -- and c >= 1 -- Bal <= r, so 'balanced' is attainable only for c >= 1. Every claim decides over these ranges
#: (ren.unbalanced_example at their ends, ren.theorem43b's reach with level_max = 1/2), never at a checker's value.
EPS_RANGE = "eps in (0, 1/2) (line 56: stronger than a constant map's Align = 1/2)"
C_RANGE = "c >= 1 (Bal <= r: balance attainable)"
EPS = exists("eps", f"{EPS_RANGE}: Definition 4.1, aligned = Align >= 1 - eps [ren.unbalanced_example: decided over "
                    "the range; the training runs: 0.05, inside it, a witness for the existential]", depends_on=())
C_DEF = exists("c", f"{C_RANGE}: Definition 4.2, balanced = Bal >= r/c [ren.unbalanced_example: decided over the "
                    "range; the training runs: 2, inside it, a witness for the existential]", depends_on=())
#: Theorem 4.3's preamble, in printed order
PREAMBLE = (
    forall("d", "input dimensions (poly(d) and d^c0 are in it)"),
    exists("m0", "widths", depends_on=("d",), asymptotic='"the network width is sufficiently large"'),
    forall("m", "widths m >= m0 [checker: 65 536, the gap to the infinite-width flow measured]"),
    exists("eta0", "learning rates", depends_on=("d", "m"), asymptotic='"the learning rate is sufficiently small"'),
    forall("eta", "learning rates eta <= eta0 [checker: 0.25 sum diag^2 / max diag^2]"),
    exists("n", "samples per step", depends_on=("d",), asymptotic='"sufficiently, but still polynomially, many"'
           " [checker: the exact population gradient]"),
    exists("c0", "small constants: sigma_max/sigma_min <= d^c0", depends_on=(), asymptotic='"some small constant"'
           " [checker: sigma_max/sigma_min <= 5]"),
)
SEED = forall("W(0)", f"initializations W_A, W_B iid N(0, 1/m) [{MIN_SEEDS} training seeds per configuration]")
MODEL_A = exists("model", "data models (1) satisfying the assumptions (sigma_max/sigma_min <= d^c0) [checker: "
                          "(k, 1, 1, 1, 1) for k in 1.1..5, geometric and two-level k = 1.5; r = d_xi = 5]")
T_POLY = exists("T", "iterations", asymptotic="poly(d) iterations")
VALID = forall("model", "valid data models (1): sigma_max/sigma_min <= d^c0 [checker: five spectra with ratio <= 5]")


PLUGIN.claim(ExperimentClaim(
    id="ren.alignment_score", kind=Kind.IDENTITY, source=source("Definition 4.1 and the note after it"),
    experiment=exact.alignment_experiment,
    prefix=(forall("law", "data laws of (x_A, x_B, x_B') (a positive pair and an independent negative)"),
            forall("f", "constant maps f_A = a, f_B = b: 'one single embedding' (a = b), and a != b; any output "
                        "dimension")),
    encoding="Align = P[||f_A(x_A) - f_B(x_B)|| < ||f_A(x_A) - f_B(x_B')||] (positive pair against an independent "
             "negative, by distance); a constant map scores exactly 0 (strict inequality) and exactly 1/2 (random "
             "tie-break), checked by exact counting over every latent triple of {+-1}^r and certified for every "
             "constant map (the two distances are one expression). One reading: the lost formula's by-distance and "
             "by-similarity forms agree on constant maps.",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.balance_score", kind=Kind.IDENTITY, source=source("Definition 4.2"),
    experiment=exact.balance_experiment,
    prefix=(forall("M", "real matrices (Sigma, the covariance of the output embeddings, or its factor)"),
            forall("c", "c >= 1 (the ratio bound of the note)")),
    encoding="Bal = stable rank ||Sigma||_F^2/||Sigma||_2^2 of the output covariance (exact on the +-1 population); "
             "the range [1, rank], equality iff equal singular values, and sigma_1/sigma_r <= c => stable rank >= r/c^2 "
             "on random matrices (evidence, not a proof: consistent at most). 'balanced if Bal >= r/c for some c' is "
             "read with c one constant fixed before the representation (if c could be chosen after it, c = r would make "
             "every representation balanced, since Bal >= 1).",
))
_EXAMPLE_TAIL = (exists("delta0", "thresholds", depends_on=("r",), asymptotic="the example's condition on delta (lost)"),
                 forall("delta", "delta <= delta0 [checker: 0.01, 0.05, 0.1]; and the replacement (delta = 1, 'directly "
                                 "recovers the latent vector')"))
PLUGIN.claim(ExperimentClaim(
    id="ren.unbalanced_example", kind=Kind.INEQUALITY,
    source=source("Section 4, 'Why balance representations are important?'"),
    experiment=exact.unbalanced_experiment,
    prefix=(EPS, C_DEF, forall("r", "latent dimensions r >= 1 ('in our setting': the setting's r) [checker: 1..8; the "
                                    "closed forms for every r]"), *_EXAMPLE_TAIL),
    readings=(Reading("r large enough",
                      "the example read for latent dimensions large enough that it can be aligned and unbalanced at all "
                      "(2^-r <= eps for some admissible eps < 1/2: a negative pair shares z with probability 2^-r, a tie; and r > c "
                      "for some admissible c >= 1: Bal >= 1): r >= 2; the words 'one simple example' need not hold in "
                      "every dimension of the setting",
                      prefix=(EPS, C_DEF, exists("r0", "dimensions", depends_on=("eps", "c"),
                                                 asymptotic="2^-r0 <= eps and r0 > c for some admissible eps, c [r0 = 2]"),
                              forall("r", "latent dimensions r >= r0 [checker: 2..8; the closed forms for every r]"),
                              *_EXAMPLE_TAIL),
                      experiment=exact.unbalanced_large_r, known_refutation=""),),
    known_refutation="ren.unbalanced_example.json",
    literal="the words: 'in our setting, one simple example of aligned but unbalanced representations is ...', for the "
            "setting's latent dimension r, whatever it is (the setting does not restrict r)",
    encoding="P_A = P_B proportional to diag(1, delta, ..., delta), noiseless: Align = 1 - 2^-r for every delta > 0 and Bal "
             "= 1 + (r - 1) delta^4, exact for r = 1..8 and proved in Coq for every r (coq/ren_unbalanced.v). aligned: Align "
             ">= 1 - eps, not balanced: Bal < r/c, with Definitions 4.1-4.2's constants decided over their admissible ranges "
             "eps in (0, 1/2) and c >= 1, at the ends eps -> 1/2, c = 1 that favour every configuration at once: the "
             "checker's former eps = 0.05, c = 2 are shown only); the small deltas must be aligned and not balanced, delta = 1 aligned and balanced "
             "(every configuration must hold: 'forall'). At r = 1 the example fails for every admissible constant (Align = "
             "1/2 < 1 - eps for eps < 1/2; Bal = 1 >= 1/c for c >= 1).",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_a7", kind=Kind.IDENTITY, source=source("Lemma A.7"),
    experiment=exact.lemma_a7,
    reconstructed="part (c), the reduced flow (8) and its invariance: the lemma's conclusion display and (8) of Section "
                  "5.2 are lost; inferred from Section 5.2's words (lines 86-88, 'the first term comes from the positive "
                  "pairs ...') and the loss (3) as reconstructed in model.py",
    prefix=(forall("r", "latent dimensions r >= 1"),
            forall("c", "C = P_A^T P_B = diag(c), c in R^r (noiseless infinite width)"),
            forall("beta", "inverse temperatures beta > 0"),
            forall("z", "{+-1}^r")),
    encoding="Noiseless infinite width, C = P_A^T P_B = diag(c): log E_z' exp(beta z^T C z') = sum_k log cosh(beta c_k) "
             "for every z in {+-1}^r (exact sums, r <= 10; 50 digits, r <= 4) and E_z[z E_softmax z'^T] = diag(tanh(beta c)) "
             "(r <= 8); invariance under flipping z and z' together; the reduced flow (8) equals autograd's population "
             "flow and keeps the orthogonality of (7). (a), the negative-pair factor and (b) are proved in Coq for every r, "
             "c, beta and z (coq/ren_lemma_a7.v); (c) -- the checker's reconstruction of the lemma's lost conclusion (its "
             "display, and (8) of Section 5.2, are lost in this source) -- is checked against autograd at sampled states "
             "only, so the claim is consistent, not proved.",
))
# -- numbered statements whose displays are lost, reconstructed from the words around them (issue 30) ----------
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_4_5", kind=Kind.INEQUALITY, source=source("Lemma 4.5"),
    experiment=reconstructed.lemma_4_5,
    reconstructed="the matrix (P_A), the value 1 and the bound Bal >= r sigma_r^4/(sigma_1^2 + ||Q||^2)^2: lines 76-80 "
                  "('the condition number of [lost] is close to [lost]', the display before it lost), line 60 (the "
                  "ratio of singular values as a sufficient condition) and line 117; 'aligned in the sense of Lemma "
                  "4.4' (its hypotheses lost) kept only as a small noise part",
    prefix=(forall("P_A, Q_A", "the signal and noise parts of an aligned model's normalized map (any width; P_A of rank r)"),
            forall("c", "c > 1 (Definition 4.2's constant)"),
            exists("delta", "how close to 1 the condition number must be", depends_on=("c",),
                   asymptotic='"close to [lost]"')),
    encoding="Reconstruction (lines 60, 76-80, 117: the matrix is P_A, the value 1): Cov f_A = P_A P_A^T + Q_A Q_A^T on the "
             "+-1 population (ren.balance_score's population fact) has Bal >= r sigma_r(P_A)^4 / (sigma_1(P_A)^2 + "
             "||Q_A||_2^2)^2, so cond(P_A) close to 1 and a small noise part (Lemma 4.4's 'signal dominates the noise') "
             "give Bal >= r/c; checked exactly at 120 fixed states (r = 1..6, cond 1..10, noise 0..1) and the explicit "
             "delta(c) at c = 2, r = 1..8. The reconstruction keeps of 'aligned' only its noise part.",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_b9", kind=Kind.DYNAMICS, source=source("Lemma B.9"),
    experiment=reconstructed.lemma_b9,
    reconstructed="the two dynamics compared and the setting (the infinite-width vector field of the checker's "
                  "reconstructed (8), at fixed states): the lemma's objects are lost; inferred from Section 5.3 (small "
                  "beta: the second terms of (8) vanish) -- the paper states the equivalence for its own, finite-width "
                  "Stage 1, which the source does not give",
    prefix=(forall("state", "infinite-width states of the flow (8)"), forall("beta", "inverse temperatures beta > 0"),
            exists("C", "the constant of the higher-order terms", depends_on=("state",),
                   asymptotic='"up to a multiplicative constant and some higher order terms"')),
    encoding="The words survive whole ('equivalent, up to a multiplicative constant and some higher order terms'); "
             "Section 5.3 says how (small beta: the second terms of (8) vanish, (6) is the first term up to a factor). Read "
             "on the vector field of the reconstructed infinite-width flow (8): flow(beta) = flow(non-contrastive) + lam "
             "N(beta) exactly, and |lam N(beta)| <= lam beta C(state) (|tanh x| <= |x|), at fixed states and beta in "
             "1e-3..5. The words say nothing about whole trajectories (ren.stagewise reads those).",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_c2", kind=Kind.IDENTITY, source=source("Lemma C.2"),
    experiment=reconstructed.lemma_c2,
    reconstructed="which identities the lemma lists (the tilted partition function, mean and distinct-index mixed "
                  "moment of uniform signs): the statement is '[lost] ... we have [lost]'; inferred from line 400 "
                  "('closed-form formula for some expectations'), the proof's product over coordinates and 'the last "
                  "identity' (lines 428-433) and the distinct-index use at line 470 -- inferred, not read",
    prefix=(forall("n", "dimensions n >= 1"), forall("v", "tilts v in R^n")),
    encoding="Reconstruction (line 400: 'closed-form formula for some expectations'; the proof's product over "
             "coordinates and 'the last identity'; the uses in C.3-C.5 with distinct indices): for w uniform on {+-1}^n, "
             "E e^{v.w} = prod cosh(v_j), E[w_j e^{v.w}]/E e^{v.w} = tanh(v_j), and E[w_i w_j e^{v.w}]/E e^{v.w} = "
             "tanh(v_i) tanh(v_j) for i != j; exact sums for n <= 10 and Coq for every n (coq/ren_lemma_a7.v).",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_b17", kind=Kind.DYNAMICS, source=source("Lemmas B.12, B.17"),
    experiment=exact.lemma_b17, quantifier="exists",
    reconstructed="the conclusion's lost word read as 'grown above its start' (B.17: 'the condition number ... is "
                  "[lost]'; line 108 and Lemma 5.1 'can be [large]'), and Lemma B.12's rate bound, whose display is "
                  "lost, rebuilt as the triangle inequality on the reconstructed (8)'s rate (checked by construction: "
                  "no evidence)",
    prefix=(exists("model", "data models satisfying Theorem 4.3's assumptions [checker: (kappa, 1, 1, 1, 1), "
                            "kappa <= 5]", depends_on=()),
            forall("t", "times in Stage 1 (Lemma B.12's rate bound along the path: the universal part)")),
    encoding="sigma = (kappa, 1, ..., 1): the infinite-width Stage-1 flow ends (Lemma B.1's conditions) with "
             "cond(P_A) > kappa (the printed conclusion 'the condition number ... is [lost: large]' read as grown "
             "above its start) for some admissible kappa; Lemma B.12's growth-rate bound along every path is a "
             "universal part (one failure inside the regime refutes).",
))
PLUGIN.claim(ExperimentClaim(
    id="ren.stage2_rate", kind=Kind.DYNAMICS, source=source("Lemma C.19, Corollary C.20, Section 5.4"),
    experiment=exact.stage2_rate,
    reconstructed="Lemma C.19's rate inequality (its display lost) rebuilt from Section 5.4 (line 122: the norms pushed "
                  "toward a weighted average of the T_k = tanh(beta a_k)) on the aligned noiseless infinite-width flow; "
                  "Corollary C.20's lost time bound read as 'cond < c is reached in finite time'",
    prefix=(forall("model", "admissible data models [checker: four spectra with ratio 5]"),
            forall("beta2", "Stage-2 inverse temperatures [checker: 1, 2, 5]"),
            forall("t", "times in Stage 2 from the aligned noiseless start of Section 5.4 (Lemma C.19)"),
            forall("c", "constants c > 1 [checker: 2, 1.5, 1.2, 1.1]"),
            exists("T", "flow times", depends_on=("model", "beta2", "c"),
                   asymptotic='"it takes at most [lost] amount of time"')),
    readings=(Reading("checker-derived time bound",
                      "Corollary C.20's lost time bound replaced by the checker's explicit one (derived from Lemma "
                      "C.19: a checker-derived constant, stronger than the words)",
                      experiment=exact.stage2_rate_derived),),
    literal="the words: C.19's rate inequality along the path, and C.20 as 'cond < c is reached in finite time'",
    encoding="Aligned noiseless infinite-width Stage 2: d/dt log(a_max/a_min) <= -(2 lam sigma_min^2/N^2)"
             "(tanh(beta a_max) - tanh(beta a_min)) <= 0 along the flow, and cond < c is reached for c in "
             "{2, 1.5, 1.2, 1.1}; the reading 'checker-derived time bound' asks it within the checker's explicit bound.",
))

# -- a Stage-2 statement whose display is lost: only its direction is checked (issue 39, item 6) -------------------
_S2_PREFIX = (forall("model", "admissible data models [checker: (k, 1, 1, 1, 1) for k = 2, 5; geometric k = 5; "
                              "sigma_xi = 0.2, d_xi = 5, lam = 1]"),
              exists("beta1", "inverse temperatures of Stage 1", depends_on=("model",),
                     asymptotic='"a sufficiently (inverse polynomially) small [beta1]" (Lemma B.1) [checker: 0.05, a '
                                "witness]"),
              exists("beta2", "inverse temperatures of Stage 2", depends_on=("model",),
                     asymptotic="Theorem 4.3 (b)'s 'there exist [beta1] and [beta2]' (Lemma 5.3's own words on it are "
                                "lost; line 117: '[beta2] is no longer [small]') [checker: 2, a witness]"),
              forall("t", "times in Stage 2, from the end of Stage 1 (Lemma B.1's conditions, contrastive flow at "
                          "beta1 = 0.05) [checker: beta2 = 2, until cond <= 1.001 or flow time 20000]"))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_5_3", kind=Kind.DYNAMICS, source=source("Lemma 5.3"),
    experiment=qualitative.stage2_from_stage1,
    prefix=_S2_PREFIX,
    one_sided="beta1 and beta2 are the theorem's existential constants (Theorem 4.3 (b), Lemma B.1), lost in Lemma 5.3: "
              "a fall missing at the checker's beta1 = 0.05, beta2 = 2 would refute only that choice",
    qualitative="survives: line 117 'reduce the condition number of [lost] to approximately [lost]' and line 396 'at "
                "the end of Stage 2, the condition number is close to [lost]' -- checked as the direction, cond(P_A) at "
                "the end of Stage 2 below its value at the start, on the infinite-width flow, against the same start "
                "continued without Stage 2; not checked: line 396's 'the noise-signal ratio still remain[s] small' (its "
                "threshold is lost: see ren.lemma_c18); lost: (10), the target value, the iteration bound and the finite-width sizes "
                "(ren.stage2_rate checks cond < c in finite time from the noiseless start of Section 5.4)",
    encoding="Infinite-width flow from the end of Stage 1 at beta1 = 0.05, Stage 2 at beta2 = 2: cond(P_A) at the end "
             "of Stage 2 < at its start; baseline: the non-contrastive continuation for the same flow time (Lemma 5.1: "
             "the condition number 'can be large'), which must not show the fall for the check to be informative. The "
             "noise ratio along Stage 2 is shown beside it, not decided (see ren.lemma_c18).",
))

# -- a Stage-1 statement whose display is lost: only the direction of its convergence is checked (issue 39, item 6) ---
_B10_PREFIX = (forall("model", "admissible data models [checker: isotropic, B17, geometric, two-level and one-small "
                               "spectra, kappa = 5; sigma_xi = 0.2, d_xi = 5, lam = 1]"),
               exists("m", "widths", asymptotic='"a sufficiently (polynomially) large [m]" (Lemma B.1) [checker: 65 536, '
                                                "its distance to the infinite-width flow measured as regime]"),
               exists("beta1", "inverse temperatures of Stage 1", depends_on=("model",),
                      asymptotic='"a sufficiently (inverse polynomially) small [beta1] that may depend on" the lemma\'s '
                                 "quantities (Lemma B.1) [checker: 0.05, lam beta1 <= 0.1 as regime]"),
               exists("eta", "learning rates", asymptotic='"the learning rate is sufficiently small" (Theorem 4.3, '
                                                        "whose assumptions Lemma B.1 takes) [checker: 0.25 sum diag^2 / "
                                                        "max diag^2, its tracking of the flow measured as regime]"),
               SEED,
               forall("k", "latent coordinates k = 1..r ('for any [lost]')"),
               forall("t", "times in Stage 1, until Lemma B.1's end conditions [checker: the logged steps, every 20]"))
PLUGIN.claim(ExperimentClaim(
    id="ren.lemma_b10", kind=Kind.DYNAMICS, cost=2, source=source("Lemma B.10"),
    experiment=qualitative.stage1_convergence,
    prefix=_B10_PREFIX,
    reconstructed="the converging quantity, read as the cosines rho_k = <p_k, q_k>/(|p_k||q_k|) with limit 1: the "
                  "title's object ('Convergence rate of [lost]') and the display are lost; inferred from line 242 ('the "
                  "rate at which [lost] and the noise-signal ratio converge to [lost]', the other quantity being Lemma "
                  "B.11's), line 113 (the progress 'the maximum between [lost] and the noise-signal ratio'), Section B's "
                  "(a) ('[lost] after Stage 1') and Lemma B.1's end conditions; the runs are Algorithm 3.1 on the "
                  "checker's reconstruction of the loss (3) (model.py)",
    qualitative="survives: the title 'Convergence rate of [lost]', 'In Stage 1, we have, for any [lost], [lost]' and "
                "line 242's 'converge to [lost]' -- a rate of convergence, checked as its sign: every rho_k moves toward "
                "its limit 1 throughout Stage 1 (min_k rho_k rises over every logged interval of the finite-width "
                "runs that starts short of 1), against the untrained run; lost: the display, the rate, the error terms "
                "a finite-width display may carry (the check reads the direction without them)",
    one_sided="Lemma B.1 chooses the width 'sufficiently large' and beta1 'sufficiently small' (and Theorem 4.3 the "
              "learning rate): a fall at the checker's width 65 536, beta1 = 0.05 and step would refute only that "
              "choice (a larger width, a smaller beta1 or step may keep the direction); on the infinite-width flow, where both choices are at their limits, the "
              "direction holds by the reconstruction's form and is no evidence",
    encoding="Algorithm 3.1 on the population loss (3) at width 65 536, beta1 = 0.05, the shared training seeds, "
             "until Lemma B.1's end conditions: min_k rho_k at the end of each logged interval (20 steps) > at its "
             "start, on the first interval and every one that starts with 1 - min rho_k > 1e-6 (later ones are "
             "converged to within the comparison's resolution and shown); a fall of any rho_k below the previous "
             "minimum lowers the minimum, so a fall of the minimum is a fall of some rho_k. Baseline: the untrained run (min rho_k stays "
             "at its start: the direction fails there, so a held check is informative). The infinite-width flow's "
             "per-k direction is shown as holding by construction; the noise-signal ratio (Lemma B.11's subject, its "
             "quantity a lost substitute) is shown, not decided.",
))

_43A_PREFIX = (EPS, C_DEF, *PREAMBLE, MODEL_A, T_POLY, SEED)
PLUGIN.claim(ExperimentClaim(
    id="ren.theorem43a", kind=Kind.DYNAMICS, cost=4, source=source("Theorem 4.3 (a), Lemma B.17"),
    experiment=dynamics.theorem43a, quantifier="exists",
    prefix=_43A_PREFIX,
    one_sided="an existential data model and unspecified m0, eta0, n: a search that finds no model ending aligned "
              "and not balanced at width 65 536 refutes nothing (another model, a larger width may)",
    readings=(
        Reading("c chosen with the model",
                "Definition 4.2's 'balanced if Bal >= r/c for some c' read with c chosen together with the data model "
                "of (a) (the checker tries c in 1.5, 2, 3), not one constant shared with (b)",
                prefix=(EPS, *PREAMBLE, MODEL_A, exists("c", "c > 0: the balance constant [checker: 1.5, 2, 3]",
                                                        depends_on=("d", "c0", "model")), T_POLY, SEED),
                experiment=dynamics.theorem43a_c_with_model),
        Reading("imbalance produced by training",
                "the abstract ('the positive pairs will drive the model to align the representations at the cost of "
                "increasing the condition number') and Lemma 5.1 ('with only non-contrastive pairs, the final "
                "condition number can be [large]'): a model counts only if its initialization is still balanced",
                experiment=dynamics.theorem43a_from_training),
    ),
    literal="the words: (a) there exists a data model; 'not balanced' is Bal < r/c for Definition 4.2's constant c, the "
            "one (b) uses",
    encoding="Population gradient descent on the non-contrastive loss (4), width 65 536, until an approximate "
             f"stationary point, {MIN_SEEDS} training seeds; search over admissible data models for one whose runs end aligned and "
             "not balanced (Bal < r/2) on every seed. The untrained model is measured too (not aligned: informative).",
))

_43B_TAIL = (T_POLY, SEED)
#: Definition 4.1's eps read as FIXED before the theorem at the checker's value (the definition fixes it; the theorem
#: does not choose it): the literal reading of (b) and its per-model variant
EPS_FIXED = forall("eps", f"Definition 4.1's constant, fixed by the (lost) definition before the theorem, somewhere in "
                          f"its admissible range {EPS_RANGE}; not the theorem's to choose, nor the checker's: a row "
                          "refutes only if no admissible eps is reachable (level_max = 1/2)")
#: the valid model's latent and noise dimensions: part of 'any valid [model]', bound with it (forall forall commute)
DIMS = forall("r, d_xi", "the valid model's latent dimension r >= 1 and noise dimension d_xi >= 1 (model (1) does not "
                         "restrict them) [checker's sweep: r = d_xi = 5]")
DIMS_R0 = forall("r, d_xi", "the valid model's dimensions, r >= r0 [checker's sweep: r = 5 >= r0(0.05) = 4]")
_43B_ONE_SIDED = ("an existential (beta1, beta2) and unspecified m0, eta0, n: a grid with no good pair, or a run at "
                  "width 65 536, does not refute")
PLUGIN.claim(ExperimentClaim(
    id="ren.theorem43b", kind=Kind.DYNAMICS, cost=8, source=source("Theorem 4.3 (b)"),
    experiment=dynamics.theorem43b, quantifier="exists",
    prefix=(EPS_FIXED, C_DEF, *PREAMBLE,
            exists("beta1", "inverse temperatures (Stage 1)", asymptotic='"a small inverse temperature" (Section 5)'),
            exists("beta2", "inverse temperatures (Stage 2)"),
            DIMS, VALID, *_43B_TAIL),
    reach=(alignment_reach.MISALIGNMENT,),
    one_sided=_43B_ONE_SIDED,
    readings=(Reading("betas chosen per model",
                      "Lemma B.1: 'a sufficiently (inverse polynomially) small [beta1] that may depend on the [quantities] "
                      "that appear in this lemma', a lemma stated for one data model: (beta1, beta2) read as chosen "
                      "after the model",
                      prefix=(EPS_FIXED, C_DEF, *PREAMBLE, DIMS, VALID,
                              exists("beta1", "inverse temperatures (Stage 1), chosen for the model",
                                     asymptotic='"a small inverse temperature"'),
                              exists("beta2", "inverse temperatures (Stage 2), chosen for the model"), *_43B_TAIL),
                      experiment=dynamics.theorem43b_per_model, quantifier="forall"),
              Reading("r >= r0(eps)",
                      "'for any valid [model]' read, as ren.unbalanced_example's 'r large enough', for latent dimensions "
                      "large enough that alignment is possible at all: no pair of maps gets 1 - Align below "
                      "2^-(r+1)(1 + 2^-d_xi) (the ties of z' = z), so 'aligned' at eps needs r >= r0(eps) (r0(0.05) = 4); "
                      "the words 'any valid' do not restrict r, this reading does",
                      prefix=(forall("eps", f"Definition 4.1's constant, fixed before the theorem, in {EPS_RANGE}"),
                              C_DEF, exists("r0", "latent dimensions", depends_on=("eps",),
                                            asymptotic="2^-(r0+1)(1 + 2^-d_xi) <= eps [checker: 4 at eps = 0.05]"),
                              *PREAMBLE,
                              exists("beta1", "inverse temperatures (Stage 1)",
                                     asymptotic='"a small inverse temperature" (Section 5)'),
                              exists("beta2", "inverse temperatures (Stage 2)"),
                              DIMS_R0, VALID, *_43B_TAIL),
                      reach=(alignment_reach.MISALIGNMENT_R0,), known_refutation=""),),
    literal="the words: there exist beta1 and beta2 such that, for any valid data model (the pair may not depend on "
            "the model), with Definition 4.1's eps a constant of its admissible range (0, 1/2) fixed before the "
            "theorem (a definition's constant, lost in this source: the reach refutes only above 1/2)",
    encoding=f"Algorithm 3.1 on the population loss (3), width 65 536, {MIN_SEEDS} training seeds: there exist (beta1, beta2) in the "
             "grid such that every admissible data model of the sweep ends aligned and balanced on every seed (one "
             "configuration per pair; the models are inside it, as printed: the pair comes before the model). "
             "Reachability (theorems/papers/ren/alignment_reach.py): for ANY maps, on z' = z (probability 2^-r) the "
             "positive and the negative are i.i.d. given x_A (model.py's sampler: independent uniform-sign noises), so "
             "1 - Align >= 2^-(r+1)(1 + 2^-d_xi), exactly, attained by linear maps -- no run needed. Issue 38 refuted "
             "the literal reading at the checker's eps = 0.05 (r <= 3: bound >= 1/16 > 0.05); eps is lost in this "
             "source and admissible in (0, 1/2), so the rows are decided with level_max = 1/2: the largest bound, 3/8 "
             "(r = 1, d_xi = 1), is below 1/2 -- no admissible eps is out of reach, and the reach refutes nothing. The reading 'r >= r0(eps)' "
             "lets the claim choose r0 after eps: each row is the bound at r = r0 (the adversary's worst r), reached "
             "at eps = 0.1 for r0 >= 4.",
))

_SW_HEAD = (forall("model", "data models under Theorem 4.3's assumptions [checker: Lemma B.17's (5, 1, 1, 1, 1)]"),)
_SW_TAIL = (exists("beta2", "inverse temperatures (Stage 2) [checker: 2]"), SEED)
PLUGIN.claim(ExperimentClaim(
    id="ren.stagewise", kind=Kind.DYNAMICS, cost=6, source=source("Sections 5.3-5.4"),
    experiment=dynamics.stagewise, quantifier="settings",
    prefix=(*_SW_HEAD,
            exists("beta1", "inverse temperatures (Stage 1) [checker: lam beta1 <= 0.1]",
                   asymptotic='"a small inverse temperature"'),
            *_SW_TAIL),
    readings=(
        Reading("every small beta1, any Stage-1 length",
                "Algorithm 3.1 'run the process for T1 iterations' with T1 a free poly(d) budget (Lemma 5.1: Stage 1 "
                "'takes at most [poly] iterations'), beta1 'small' fixed before T1: the picture for every Stage-1 "
                "length T1 >= T* at every beta1 with lam beta1 <= 0.1",
                prefix=(*_SW_HEAD,
                        exists("beta1_0", "thresholds of 'small' [checker: 0.1 / lam]", asymptotic='"small"'),
                        forall("beta1", "beta1 <= beta1_0"), forall("T1", "Stage-1 lengths T1 >= T* [checker: 1, 2, 4 T*]"),
                        *_SW_TAIL),
                experiment=dynamics.stagewise_any_length, quantifier="forall"),
        Reading("beta1 small relative to the Stage-1 length",
                "Section 5.3 'we use a small [beta1] in Stage 1. As a result, [tanh(beta1 c) is small] for all [t]' "
                "and Lemma B.1's beta1 that 'may depend on the [quantities] that appear in this lemma' (T1 among them): "
                "beta1 chosen after T1, small for the whole stage (lam beta1 T1/T* <= 0.1)",
                prefix=(*_SW_HEAD, forall("T1", "Stage-1 lengths T1 >= T* [checker: 1, 2, 4 T*]"),
                        exists("beta1", "inverse temperatures (Stage 1)", depends_on=("model", "T1"),
                               asymptotic='"small" for the stage: lam beta1 T1/T* <= 0.1'),
                        *_SW_TAIL),
                experiment=dynamics.stagewise_relative, quantifier="forall"),
    ),
    literal="the words: 'we first choose a small inverse temperature [beta1] and run gradient descent for [T1] "
            "iterations', T1 the end of Stage 1 of Lemma B.1 ('the earliest time all the following hold')",
    encoding="Stage 1 aligns while cond(P_A) grows, Stage 2 lowers it, on Lemma B.17's spectrum, "
             f"{MIN_SEEDS} training seeds per "
             "(beta1, T1/T*); the literal reading keeps T1 = T* (longer Stage 1 outside its regime), the readings "
             "differ in the Stage-1 length they allow.",
))
PLUGIN.edges([
    ("ren.alignment_score", "ren.unbalanced_example"), ("ren.balance_score", "ren.unbalanced_example"),
    ("ren.alignment_score", "ren.theorem43a"), ("ren.balance_score", "ren.theorem43a"),
    ("ren.alignment_score", "ren.theorem43b"), ("ren.balance_score", "ren.theorem43b"),
    ("ren.lemma_a7", "ren.stagewise"), ("ren.lemma_a7", "ren.stage2_rate"),
    ("ren.lemma_b17", "ren.theorem43a"), ("ren.stage2_rate", "ren.theorem43b"), ("ren.stagewise", "ren.theorem43b"),
])
