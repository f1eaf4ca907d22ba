"""Claims of Ren & Li (multimodal contrastive learning with population-normalized linear learners).

Source: ``002_1392d7a5a1d595de.txt``. The extracted text lost its inline formulas; the model,
losses and metrics are reconstructed from the words and from the proofs that use them
(``theorems/papers/ren/model.py``, ``flow.py``; every reconstruction is listed with its passage in
``proofs_md/ren.*.md``). The definitions, the Section 4 example and the appendix lemmas are checked
by exact computation (:mod:`theorems.papers.ren.exact`); Theorem 4.3 and the stage-wise picture by
training runs that track the infinite-width flow (:mod:`theorems.papers.ren.dynamics`).
"""

from __future__ import annotations

from theorems.engine.claim import ExperimentClaim, Kind, Source
from theorems.engine.registry import add_structure, register
from theorems.papers.ren import dynamics, exact

FILE = "002_1392d7a5a1d595de.txt"


def source(numbering: str) -> Source:
    return Source(file=FILE, numbering=numbering, paper="Ren & Li")


register(ExperimentClaim(
    id="ren.alignment_score", kind=Kind.IDENTITY, source=source("Definition 4.1 and the note after it"),
    experiment=exact.alignment_experiment,
    encoding="Align = P[||f_A(x_A) - f_B(x_B)|| < ||f_A(x_A) - f_B(x_B')||] (positive pair against an independent "
             "negative, by distance); a constant map scores exactly 0 (strict inequality) and exactly 1/2 (random "
             "tie-break), checked by exact counting over every latent triple of {+-1}^r.",
))
register(ExperimentClaim(
    id="ren.balance_score", kind=Kind.IDENTITY, source=source("Definition 4.2"),
    experiment=exact.balance_experiment,
    encoding="Bal = stable rank ||Sigma||_F^2/||Sigma||_2^2 of the output covariance (exact on the +-1 population); "
             "the range [1, rank], equality iff equal singular values, and sigma_1/sigma_r <= c => stable rank >= r/c^2 "
             "on random matrices.",
))
register(ExperimentClaim(
    id="ren.unbalanced_example", kind=Kind.INEQUALITY,
    source=source("Section 4, 'Why balance representations are important?'"),
    experiment=exact.unbalanced_experiment,
    encoding="P_A = P_B proportional to diag(1, delta, ..., delta): exact Align >= 1 - eps and Bal < r/2 for delta <= 0.1; "
             "delta = 1 balanced.",
))
register(ExperimentClaim(
    id="ren.lemma_a7", kind=Kind.IDENTITY, source=source("Lemma A.7"),
    experiment=exact.lemma_a7,
    encoding="Noiseless infinite width, C = P_A^T P_B = diag(c): log E_z' exp(beta z^T C z') = sum_k log cosh(beta c_k) "
             "for every z in {+-1}^r (exact sums, r <= 10) and E_z[z E_softmax z'^T] = diag(tanh(beta c)) (r <= 8); 50 digits, "
             "r <= 4); invariance under flipping z and z' together; the reduced flow (8) equals autograd's population "
             "flow and keeps the orthogonality of (7).",
))
register(ExperimentClaim(
    id="ren.lemma_b17", kind=Kind.DYNAMICS, source=source("Lemmas B.12, B.17"),
    experiment=exact.lemma_b17, quantifier="exists",
    encoding="sigma = (kappa, 1, ..., 1): the infinite-width Stage-1 flow ends (Lemma B.1's conditions) with "
             "cond(P_A) > kappa and Bal < r/2 for some admissible kappa; Lemma B.12's growth-rate bound along the path.",
))
register(ExperimentClaim(
    id="ren.stage2_rate", kind=Kind.DYNAMICS, source=source("Lemma C.19, Corollary C.20, Section 5.4"),
    experiment=exact.stage2_rate,
    encoding="Aligned noiseless infinite-width Stage 2: d/dt log(a_max/a_min) <= -(2 lam sigma_min^2/N^2)"
             "(tanh(beta a_max) - tanh(beta a_min)) <= 0 along the flow, and cond < c within a derived time bound "
             "for c in {2, 1.5, 1.2, 1.1}.",
))
register(ExperimentClaim(
    id="ren.theorem43a", kind=Kind.DYNAMICS, cost=4, source=source("Theorem 4.3 (a), Lemma B.17"),
    experiment=dynamics.theorem43a, quantifier="exists",
    encoding="Population gradient descent on the non-contrastive loss (4), width 65 536, until an approximate "
             "stationary point; search over admissible data models for one that ends aligned and not balanced "
             "after a balanced initialization.",
))
register(ExperimentClaim(
    id="ren.theorem43b", kind=Kind.DYNAMICS, cost=8, source=source("Theorem 4.3 (b)"),
    experiment=dynamics.theorem43b, quantifier="exists",
    encoding="Algorithm 3.1 on the population loss (3), width 65 536: there exist (beta1, beta2) in the grid such that "
             "every admissible data model of the sweep ends aligned and balanced; the worst model is reported.",
))
register(ExperimentClaim(
    id="ren.stagewise", kind=Kind.DYNAMICS, cost=6, source=source("Sections 5.3-5.4"),
    experiment=dynamics.stagewise,
    encoding="Stage 1 aligns while cond(P_A) grows, Stage 2 lowers it: verdict map over beta1 and the length of "
             "Stage 1 on Lemma B.17's spectrum.",
))
add_structure([
    ("ren.alignment_score", "ren.unbalanced_example"), ("ren.balance_score", "ren.unbalanced_example"),
    ("ren.alignment_score", "ren.theorem43a"), ("ren.balance_score", "ren.theorem43a"),
    ("ren.alignment_score", "ren.theorem43b"), ("ren.balance_score", "ren.theorem43b"),
    ("ren.lemma_a7", "ren.stagewise"), ("ren.lemma_a7", "ren.stage2_rate"),
    ("ren.lemma_b17", "ren.theorem43a"), ("ren.stage2_rate", "ren.theorem43b"), ("ren.stagewise", "ren.theorem43b"),
])
