"""clcheck's claim engine: claims, subjects, verdicts, and the registry.

Public API for users who register claims of their own::

    from theorems import Claim, Kind, Source, parts, register, quantities as q
"""

from numerics.errors import AssumptionError
from theorems import quantities
from theorems.claim import Assumption, Claim, Kind, Part, Source, parts
from theorems.registry import all_claims, get, register
from theorems.verdict import ClaimResult, Verdict

__all__ = [
    "AssumptionError", "Assumption", "Claim", "ClaimResult", "Kind", "Part", "Source", "Verdict",
    "all_claims", "get", "parts", "quantities", "register",
]
