"""Evaluate a claim's statement on one subject, in one backend."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

import mpmath
import numpy as np
import sympy

from numerics.backend import Backend
from theorems.claim import Claim, Part
from theorems.tolerance import tolerance


def _harmonic_float(n: Any) -> float:
    return float(math.fsum(1.0 / i for i in range(1, int(n) + 1)))


def _binomial_float(n: Any, k: Any) -> float:
    from scipy.special import comb

    return float(comb(n, k, exact=False))


def _modules(backend: str) -> list[Any]:
    if backend == "mpmath":
        return [{"harmonic": mpmath.harmonic, "log1p": mpmath.log1p}, "mpmath"]
    if backend == "torch":
        import torch

        return [{"log": torch.log, "log1p": torch.log1p, "exp": torch.exp, "sqrt": torch.sqrt, "pi": math.pi,
                 "Max": torch.maximum, "Min": torch.minimum, "Abs": torch.abs}, "math"]
    return [{"harmonic": _harmonic_float, "binomial": _binomial_float, "log1p": np.log1p}, "numpy"]


def stable_form(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite log(1 + y) as log1p(y) before evaluation.

    log(1 + 1e-61) is 0 in float64 and noise even at 60 digits; log1p(1e-61) is exact.
    (sympy's own log1p_opt turns log(1 + e^-x) into -x + log1p(e^x), which cancels; not used.)
    """
    from sympy.codegen.cfunctions import log1p

    def is_log_one_plus(e: sympy.Expr) -> bool:
        return isinstance(e, sympy.log) and e.args[0].is_Add and sympy.S.One in e.args[0].args

    return expr.replace(is_log_one_plus, lambda e: log1p(e.args[0] - 1))


@lru_cache(maxsize=None)
def _compiled(expr: sympy.Expr, symbols: tuple[sympy.Symbol, ...], backend: str) -> Callable[..., Any]:
    return sympy.lambdify(symbols, stable_form(expr), modules=_modules(backend))


@dataclass
class PartValue:
    """One part on one subject: both sides, the margin (see tolerance.py) and the tolerance."""

    part: Part
    lhs: Any
    rhs: Any
    margin: float
    tol: float
    certain_margin: float | None = None  # smallest margin over Bracket corners (= margin if exact)
    bracketed: bool = False

    def __post_init__(self) -> None:
        if self.certain_margin is None:
            self.certain_margin = self.margin

    @property
    def slack(self) -> float:
        return -self.margin

    @property
    def ratio(self) -> float | None:
        """lhs / rhs for an inequality with rhs > 0 (None for identities: their margin says it all)."""
        if self.part.is_identity:
            return None
        lhs, rhs = float(self.lhs), float(self.rhs)
        if rhs > 0 and math.isfinite(rhs) and math.isfinite(lhs):
            return lhs / rhs
        return None

    @property
    def normalized_margin(self) -> float:
        lhs, rhs = float(self.lhs), float(self.rhs)
        return self.margin / (1.0 + max(abs(lhs), abs(rhs)))


def side_functions(part: Part, backend: str) -> tuple[tuple[sympy.Symbol, ...], Callable[..., Any], Callable[..., Any]]:
    """The part's symbols (sorted by name) and its two sides compiled for ``backend``."""
    small, large = part.sides()
    syms = tuple(sorted(part.relation.free_symbols, key=lambda s: s.name))
    return syms, _compiled(small, syms, backend), _compiled(large, syms, backend)


def applicable_parts(claim: Claim, subject: Any) -> list[Part]:
    """The parts to evaluate on ``subject``: those whose own hypothesis (``Part.applies``)
    holds; a part without free symbols (e.g. a printed limit) is for certificates only."""
    return [p for p in claim.statement
            if p.relation.free_symbols and (p.applies is None or p.applies(subject))]


def needed_symbols(parts: list[Part]) -> set[sympy.Symbol]:
    out: set[sympy.Symbol] = set()
    for p in parts:
        out |= p.relation.free_symbols
    return out


def evaluate_parts(parts: list[Part], values: dict[sympy.Symbol, Any], xp: Backend) -> list[PartValue]:
    """Both sides and the margin of each part, from quantity values in backend ``xp``."""
    out = []
    for part in parts:
        syms, f_small, f_large = side_functions(part, xp.name)
        corners = []
        for args in _corners([values[s] for s in syms], xp):
            lhs, rhs = f_small(*args), f_large(*args)
            margin = abs(lhs - rhs) if part.is_identity else lhs - rhs
            corners.append((xp.to_float(margin), lhs, rhs))
        # a Bracket-valued quantity (a Monte Carlo estimate with its confidence radius) gives
        # several corners: report the worst one, and call a violation certain only if every
        # corner violates (the statements are monotone in each bracketed quantity)
        margin_f, lhs, rhs = max(corners, key=lambda c: c[0])
        lhs_f, rhs_f = xp.to_float(lhs), xp.to_float(rhs)
        tol = tolerance(lhs_f, rhs_f) if math.isfinite(lhs_f) and math.isfinite(rhs_f) else 0.0
        if part.is_strict:  # "a < b" must hold by more than the tolerance: shift the margin by 2 tol
            corners = [(c[0] + 2 * tol, c[1], c[2]) for c in corners]
            margin_f += 2 * tol
        out.append(PartValue(part, lhs, rhs, margin_f, tol, certain_margin=min(c[0] for c in corners),
                             bracketed=len(corners) > 1))
    return out


@dataclass(frozen=True)
class Bracket:
    """A quantity known only to lie in [lo, hi] (with probability >= 1 - alpha for Monte Carlo)."""

    lo: float
    hi: float
    alpha: float = 0.0
    how: str = ""


def _corners(args: list[Any], xp: Backend) -> list[list[Any]]:
    """Every combination of the end points of the Bracket-valued arguments."""
    out: list[list[Any]] = [[]]
    for a in args:
        options = [xp.asarray(a.lo), xp.asarray(a.hi)] if isinstance(a, Bracket) else [a]
        out = [prefix + [o] for prefix in out for o in options]
    return out


def torch_margin(claim: Claim, values: dict[sympy.Symbol, Any], parts_mask: list[bool]) -> Any:
    """The largest normalized margin over the selected parts, as a differentiable tensor."""
    import torch

    best = None
    for part, use in zip(claim.statement, parts_mask):
        if not use:
            continue
        syms, f_small, f_large = side_functions(part, "torch")
        args = [values[s] for s in syms]
        lhs = torch.as_tensor(f_small(*args), dtype=torch.float64)
        rhs = torch.as_tensor(f_large(*args), dtype=torch.float64)
        diff = torch.abs(lhs - rhs) if part.is_identity else lhs - rhs
        m = diff / (1.0 + torch.maximum(lhs.abs(), rhs.abs()).detach())
        best = m if best is None else torch.maximum(best, m)
    return best

