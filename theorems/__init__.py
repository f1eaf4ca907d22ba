"""clcheck: a verification-backed checker for the theory of contrastive representation learning.

The public API, for papers of your own (see the README, "Adding a paper")::

    from theorems import Claim, Kind, Source, Paper, register, register_paper, parts, quantity, Le, Ge, Eq
    from theorems.subjects import Family, Embeddings, Distribution, Scalar

Layout: ``theorems.engine`` (claim types, evaluation, search, verdicts, registry; knows no
paper), ``theorems.subjects`` (shared subject families and the generic parts), ``theorems.papers``
(the four shipped papers, plugins like any other), ``theorems.frontend`` (CLI, pytest plugin,
reports, proof pages).
"""

from numerics.errors import AssumptionError
from theorems.engine.claim import (Assumption, Claim, Eq, ExperimentClaim, Ge, Gt, Kind, Le, Lt, Part,
                                   RunContext, Source, StatementClaim, UnencodableClaim, parts)
from theorems.engine.errors import ClaimError, PluginError, WitnessError
from theorems.engine.experiment import ExperimentOutcome, RegimeCheck
from theorems.engine.informative import Informative
from theorems.engine.quantity import quantity
from theorems.engine.registry import Paper, add_structure, all_claims, get, register, register_paper
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict

__all__ = [
    "Assumption", "AssumptionError", "Claim", "ClaimError", "ClaimResult", "Eq", "ExperimentClaim",
    "ExperimentOutcome", "Ge", "Gt", "Informative", "Kind", "Le", "Lt", "Paper", "Part", "PartStatus", "PluginError",
    "RegimeCheck", "RunContext", "Source", "StatementClaim", "UnencodableClaim", "Verdict", "WitnessError", "add_structure",
    "all_claims", "get", "parts", "quantity", "register", "register_paper",
]
