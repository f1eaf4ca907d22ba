"""Wen & Li: the readings of the paper's sentences -- what each reading changes in its claim's experiment.

* "with high probability" (:data:`WHP_READINGS`, the Notations of Section 2: "if the event happens with
  probability at least [lost]"), one definition for every claim whose sentence says it (wen.lemma_b3,
  wen.theorem32, wen.footnote3): 1 - 1/d (literal) or 1 - exp(-log^2 d);
* Lemma B.3 (:data:`LEMMA_READINGS`): the event per pair or uniform over the pairs, times the two
  readings of "with high probability";
* the mask decorrelation of Section 4 (:data:`DECORRELATION`): "independent" unconditionally, given the
  mask D, or uncorrelated along fixed directions;
* Theorem 3.2 and footnote 3 (:data:`T32_RULES`, :func:`t32_outcome`): the sparse signal overwhelmed in
  the representation, in the weights, or in the representation with Corollary 3.3's failing probes;
* Theorem 3.2 (:data:`T32_READINGS`), shared with footnote 3: the representation split or the weights;
* Theorem 3.4 (:data:`WHEN`, :data:`WHEN_READINGS`), shared with footnote 1: some, every or the final
  stage-III iterate;
* footnote 1 (:data:`FOOTNOTE1`): every non-spherical noise variant, or those with independent coordinates.
"""

from __future__ import annotations

from typing import Any

from theorems import AllOf, Comparison, above, holds
from theorems.papers.wen import dynamics as dy

# == "with high probability" (Notations, Section 2), shared ========================================
#: the probability bound's formula is lost ("happens with probability at least [lost]"); the literal reading is
#: the one the checker's whole encoding uses (1 - 1/d), the other the convention of the paper's reference [3]
#: (Allen-Zhu & Li: 1 - e^{-Omega(log^2 d)}). Key: the failure probability delta(d).
WHP_READINGS = {
    "1/d": "probability >= 1 - 1/d (the checker's reading of the Notations' lost formula)",
    "exp(-log^2 d)": "probability >= 1 - exp(-log^2 d) (the convention of [3], Allen-Zhu & Li, the paper the proofs "
                     "follow: 'similar to the choice in [3]', line 246)",
}
WHP_WORDS = "'We say an event happens with high probability (or w.h.p. for short) if the event happens with " \
            "probability at least [lost]' (Notations, Section 2)"
WHP_EXP = "w.h.p. = 1 - exp(-log^2 d)"  # the reading's name wherever a claim reads "with high probability"


# == wen.lemma_b3 ===================================================================================
LEMMA_READINGS = {  # name: (uniform over the pairs, "with high probability")
    "literal": (False, "1/d"),
    "uniform over pairs": (True, "1/d"),
    "per pair, " + WHP_EXP: (False, "exp(-log^2 d)"),
    WHP_EXP: (True, "exp(-log^2 d)"),
}

# == wen.mask_decorrelation ===========================================================================
#: part (i) of the sentence, three readings of "independent"
DECORRELATION = {
    "literal": "independent (unconditionally, as Section 4 prints it)",
    "conditioned on D": "independent given the mask D (Lemma D.4: 'conditioned on fixed D')",
    "uncorrelated along fixed directions": "E<u, 2D xi><v, 2(I-D) xi> = 0 for fixed u, v (the catalog's parenthesis)",
}

# == wen.theorem32, wen.footnote3 =====================================================================
T32_RULES = ("representation", "weights", "representation and probes")
DENSE_WEIGHTS = 0.5  # "features = weights" dominated by the dense noise: more than half of ||W||_F^2 outside span(M)


def t32_outcome(rule: str, r: dict[str, Any], raw: dict[str, float], init: bool = False, whp: str = "1/d"
                ) -> Comparison | AllOf | None:
    """One seed under a reading of "the sparse signal overwhelmed by the dense noise": the per-sample
    representation split (Theorem 3.2 as printed), the learned weights (the catalog: "features" =
    weights, Section 2.2), or the split and Corollary 3.3's failing probes (footnote 3's "our results");
    the split's "with high probability" read as ``whp`` (:data:`WHP_READINGS`): at delta = 1/d the
    (1 - 1/d)-quantile (``q_whp``, :func:`~theorems.papers.wen.dynamics.split_tail`) decides holding; at
    delta = exp(-log^2 d) (< 1e-7 at d >= 64) no run of N_REP = 4000 samples can show it, so only a
    failure (the median) decides. A measured relation (the engine decides it) or None when the run
    cannot tell."""
    pre = "init_" if init else ""
    if rule == "weights":
        return above(r[pre + "dense_share"], DENSE_WEIGHTS, what="dense share of ||W||_F^2")
    q = r.get(pre + "q_whp") if whp == "1/d" else None
    out = dy.theorem32_outcome(r[pre + "ratio_q50"], q)
    if rule == "representation and probes":
        probes = dy.corollary33(r[pre + "r2"], r[pre + "acc"], raw)
        if probes is not None and not holds(probes):
            return probes  # the probes beat the raw input: the seed fails whatever the split says
        return None if out is None or probes is None else probes & out
    return out


#: Theorem 3.2's readings of "the sparse signal overwhelmed", one definition for wen.theorem32 and wen.footnote3
#: (footnote 3's "our results" are Theorem 3.2's): name -> (rule, the words it rests on)
T32_READINGS = {
    "features = weights": ("weights", "the catalog row 'the learned features are dominated by the dense noise' with "
                           "Section 2.2's 'we call the learned weights of neural networks features': more than half "
                           "of ||W||_F^2 outside span(M)"),
}

# == wen.theorem34, wen.footnote1 =====================================================================
WHEN = {"some": "some stage-III iterate T (as printed: 'for some iterations T')",
        "every": "every logged stage-III iterate", "final": "the final iterate (the end of training)"}
#: Theorem 3.4's readings of "for some iterations T in [T3, T4]", one definition for wen.theorem34 and
#: wen.footnote1 (footnote 1's "results" are Theorem 3.4's): name -> (WHEN key, the words it rests on)
WHEN_READINGS = {
    "every stage-III iterate": ("every", "the lost symbol after 'for each neuron i and' read as every t in [T3, T]"),
    "final iterate": ("final", "the previous encoding and the catalog row ('the neurons learn'): the network at the "
                      "end of training"),
}

FOOTNOTE1 = {"all": ("diagonal", "coordinate", "dense"), "independent coordinates": ("diagonal", "coordinate")}
