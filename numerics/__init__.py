"""Exact and certified computation of the quantities the claims are about."""

from numerics.backend import FLOAT, Backend, mp_backend, torch_backend
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture

__all__ = ["FLOAT", "Backend", "mp_backend", "torch_backend", "AssumptionError", "FiniteMixture"]
