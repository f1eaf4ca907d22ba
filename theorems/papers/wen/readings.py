"""Wen & Li: the readings of the paper's sentences -- what each reading changes in its claim's experiment.

* Lemma B.3 (:data:`LEMMA_READINGS`): the event per pair or uniform over the pairs, and "with high
  probability" as 1 - 1/d or 1 - exp(-log^2 d);
* the mask decorrelation of Section 4 (:data:`DECORRELATION`): "independent" unconditionally, given the
  mask D, or uncorrelated along fixed directions;
* Theorem 3.2 and footnote 3 (:data:`T32_RULES`, :func:`t32_outcome`): the sparse signal overwhelmed in
  the representation, in the weights, or in the representation with Corollary 3.3's failing probes;
* Theorem 3.4 (:data:`WHEN`): some, every or the final stage-III iterate;
* footnote 1 (:data:`FOOTNOTE1`): every non-spherical noise variant, or those with independent coordinates.
"""

from __future__ import annotations

from typing import Any

from theorems import AllOf, Comparison, above, holds
from theorems.papers.wen import dynamics as dy

# == wen.lemma_b3 ===================================================================================
LEMMA_READINGS = {  # name: (uniform over the pairs, "with high probability")
    "literal": (False, "1/d"),
    "uniform over pairs": (True, "1/d"),
    "w.h.p. = 1 - exp(-log^2 d)": (True, "exp(-log^2 d)"),
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


def t32_outcome(rule: str, r: dict[str, Any], raw: dict[str, float], init: bool = False
                ) -> Comparison | AllOf | None:
    """One seed under a reading of "the sparse signal overwhelmed by the dense noise": the per-sample
    representation split (Theorem 3.2 as printed), the learned weights (the catalog: "features" =
    weights, Section 2.2), or the split and Corollary 3.3's failing probes (footnote 3's "our results").
    A measured relation (the engine decides it) or None when the run cannot tell."""
    pre = "init_" if init else ""
    if rule == "weights":
        return above(r[pre + "dense_share"], DENSE_WEIGHTS, what="dense share of ||W||_F^2")
    out = dy.theorem32_outcome(r[pre + "ratio_q50"], r[pre + "ratio_q90"])
    if rule == "representation and probes":
        probes = dy.corollary33(r[pre + "r2"], r[pre + "acc"], raw)
        if not holds(probes):
            return probes  # the probes beat the raw input: the seed fails whatever the split says
        return None if out is None else probes & out
    return out


# == wen.theorem34, wen.footnote1 =====================================================================
WHEN = {"some": "some stage-III iterate T (as printed: 'for some iterations T')",
        "every": "every logged stage-III iterate", "final": "the final iterate (the end of training)"}

FOOTNOTE1 = {"all": ("diagonal", "coordinate", "dense"), "independent coordinates": ("diagonal", "coordinate")}
