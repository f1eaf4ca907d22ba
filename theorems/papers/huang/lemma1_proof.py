"""Huang et al.'s Lemma 1 (error rate) proved in Coq for every finite data distribution
(``coq/huang_lemma1.v``): every classifier G correct on (C^0_1 u ... u C^0_K) n S_eps has
Err(G) <= (1 - sigma) + P[not S_eps], whenever the main parts satisfy Definition 1's mass condition
P[C^0_k] >= sigma P[C_k]. The checker's subjects take G = G_f; the proof covers every such G."""

from __future__ import annotations

from numerics import coq
from numerics.certificate import Certificate

SCRIPT = "huang_lemma1"
THEOREMS = ("lemma1", "lemma1_distribution")


def lemma1_coq(script: str | None = None, name: str = SCRIPT) -> Certificate:
    """Lemma 1 for every finite distribution, every choice of main parts meeting Definition 1, every G."""
    text = script if script is not None else coq.packaged_script("theorems.papers.huang", SCRIPT)
    return coq.check_script(
        name, text, THEOREMS,
        "Err(G) = sum_k P[G(x) != k, x in C_k] <= (1 - sigma) + P[not S_eps] for every classifier G correct at every "
        "sample of (C^0_1 u ... u C^0_K) n S_eps, when P[C^0_k] >= sigma P[C_k] for every k (Definition 1's mass "
        "condition; its diameter condition is not used): per sample, an error lies outside the main parts or "
        "outside S_eps; per class, P[C_k minus C^0_k] <= (1 - sigma) P[C_k]; summed over the classes",
        "every finite data distribution (classes as lists of samples with masses >= 0 summing to 1), every sigma, "
        "every choice of main parts and of S_eps, every G (Coq, by induction on the lists)",
        coq_statements=coq.theorem_statements(text, THEOREMS))
