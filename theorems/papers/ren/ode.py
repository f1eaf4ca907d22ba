"""Ren & Li: how the infinite-width flow is integrated, stated once, and the error this implies.

Every integration of the flow (:mod:`theorems.papers.ren.flow`) uses scipy's DOP853 with the tolerances below.
They bound the *local* error per step; what a claim reads is a quantity of the integrated state (cond(P_A), its
logarithm, a cosine rho_k, a time at which cond(P_A) crosses a level), and its *global* error is what matters.
Measured against the same flows integrated at rtol 1e-13, atol 1e-15 (``tests/test_ren.py::
test_the_stated_ode_error_bounds_the_global_error``: every data model of the sweeps, Stage 1 at beta = None,
0.02, 0.1 and Stage 2 at beta = 2, 400 times each, and the aligned Stage-2 start of Lemma C.19), the global
error of log cond(P_A) and of min rho_k stays below 1.2e-6 -- up to a thousand times the solver's rtol: the
ratios a_i / a_j of nearly equal a_k (Lemma B.17's geometric spectrum at kappa = 1.5, Stage 2 near cond = 1) are
sensitive to the error of each step. :data:`ERROR` states 1e-5 as the error of such a quantity (the test
requires the measured global error to stay below half of it): absolute for values of size at most 1 (log cond,
cosines), relative above (:func:`error`). Each Comparison that reads an integrated value passes it as its
``error``.
"""

from __future__ import annotations

#: the solver settings of every flow integration (scipy.integrate.solve_ivp, method DOP853)
METHOD = "DOP853"
RTOL = 1e-9
ATOL = 1e-12
#: the finer settings of the Stage-2 flows of Lemma C.19 / Corollary C.20 (long horizons, finite differences)
STAGE2_RTOL = 1e-10
STAGE2_ATOL = 1e-13

#: the stated error of a quantity read off an integrated state (see the module docstring)
ERROR = 1e-5


def settings(stage2: bool = False) -> dict[str, object]:
    """The keyword arguments of solve_ivp for a flow integration."""
    if stage2:
        return {"method": METHOD, "rtol": STAGE2_RTOL, "atol": STAGE2_ATOL}
    return {"method": METHOD, "rtol": RTOL, "atol": ATOL}


def error(value: float = 1.0) -> float:
    """The stated error of ``value``, a quantity read off an integrated state: :data:`ERROR` times max(1, |value|)."""
    return ERROR * max(1.0, abs(float(value)))
