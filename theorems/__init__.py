"""clcheck: a verification-backed checker for the theory of contrastive representation learning.

The public API, for papers of your own (see the README, "Adding a paper")::

    from theorems import Claim, Kind, Source, Paper, Plugin, parts, quantity, Le, Ge, Eq
    from theorems import forall, exists, Reading          # the logical form: prefix and readings
    from theorems import big_o, Parametric, Reach         # asymptotic parts, witness families, reachability
    from theorems import Observation, Growth               # what an experiment measures
    from theorems.subjects import Family, Embeddings, Distribution, Scalar

Layout: ``theorems.engine`` (claim types, evaluation, search, verdicts, registry; knows no
paper), ``theorems.subjects`` (shared subject families and the generic parts), ``theorems.papers``
(the four shipped papers, plugins like any other), ``theorems.frontend`` (CLI, pytest plugin,
reports, proof pages).
"""

import os as _os
import sys as _sys


def _drop_working_directory() -> None:
    """``python -m theorems.frontend.cli`` puts the working directory first on ``sys.path``, so a module
    file there -- one placed beside a witness -- would shadow any later import. While ``-m`` locates the
    command (``sys.argv == ["-m"]``) that entry is removed, unless it is where this package itself lives
    (a source checkout run from its root). The console script never has it."""
    if _sys.argv[:1] != ["-m"] or not _sys.path:
        return
    first = _os.path.abspath(_sys.path[0] or _os.curdir)
    here = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    if first == _os.path.abspath(_os.curdir) and first != here:
        del _sys.path[0]


_drop_working_directory()

from numerics.errors import AssumptionError, ClcheckError  # noqa: E402
from theorems.engine.claim import (Assumption, Claim, DefinitionClaim, Eq, ExperimentClaim, Ge, Gt, Kind, Le, Lt,
                                   Part, RunContext, Sharp, Source, StatementClaim, UnencodableClaim, numbered_id,
                                   parts)
from theorems.engine.errors import ClaimError, PluginError, WitnessError  # noqa: E402
from theorems.engine.experiment import (MIN_SEEDS, ExperimentOutcome, Growth, Observation,  # noqa: E402
                                       RegimeCheck, markdown_table, median_interval_note, seed_interval)
from theorems.engine.measure import AllOf, Comparison, above, at_least, at_most, below, equal  # noqa: E402
from theorems.engine.rules.compare import decide as holds  # noqa: E402
from theorems.engine.figures import colormap, save_figure, subplots  # noqa: E402
from theorems.engine.named_results import (CHEBYSHEV, JENSEN, MONOTONE, PRODUCT_BOUND,  # noqa: E402
                                           convex_by_second_derivative, finite_support, implied_by_positive_multiple,
                                           nonnegative_by_sympy)
from theorems.engine.prerequisite import Prerequisite  # noqa: E402
from theorems.engine.proof import Cited, Instance, NamedResult, Proof, Step  # noqa: E402
from theorems.engine.informative import Informative  # noqa: E402
from theorems.engine.logic import Bound, Reading, exists, forall  # noqa: E402
from theorems.engine.asymptotic import Asymptotic, Parametric, big_o, big_omega, big_theta  # noqa: E402
from theorems.engine.reach import DataAdversary, Reach  # noqa: E402
from theorems.engine.quantity import quantity  # noqa: E402
from theorems.engine.registry import Paper, Plugin, Registry, all_claims, get  # noqa: E402
from theorems.engine.verdict import ClaimResult, PartStatus, Verdict  # noqa: E402

__all__ = [
    # claims, their logical form, the registry
    "Assumption", "AssumptionError", "Bound", "ClcheckError", "Claim", "ClaimError", "ClaimResult", "DefinitionClaim",
    "Eq", "ExperimentClaim", "ExperimentOutcome", "Ge", "Growth", "Gt", "Informative", "Kind", "Le", "Lt", "Observation",
    "Paper", "Part", "PartStatus", "Plugin", "PluginError", "Reading", "RegimeCheck", "Registry", "RunContext",
    "Sharp", "Source", "StatementClaim", "UnencodableClaim", "Verdict", "WitnessError", "all_claims", "exists", "forall",
    "get", "numbered_id", "parts", "quantity",
    # main theorems: asymptotic parts along parametric families, reachability of a conclusion, the data adversary
    "Asymptotic", "DataAdversary", "Parametric", "Reach", "big_o", "big_omega", "big_theta",
    # experiments: what they measure (relations the engine decides: theorems.holds), how many seeds a verdict
    # reads, the shared tables and figures, the training runs several claims share
    "AllOf", "MIN_SEEDS", "Comparison", "above", "at_least", "at_most", "below", "equal", "holds", "Prerequisite", "colormap", "markdown_table", "median_interval_note", "save_figure", "seed_interval", "subplots",
    # printed proofs: chains of steps, named results and the certificates of their hypotheses
    "CHEBYSHEV", "Cited", "Instance", "JENSEN", "MONOTONE", "NamedResult", "PRODUCT_BOUND", "Proof", "Step",
    "convex_by_second_derivative", "finite_support", "implied_by_positive_multiple", "nonnegative_by_sympy",
]
