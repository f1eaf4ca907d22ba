"""The interface every family of test subjects implements.

A family draws subjects (hypothesis strategy), evaluates named quantities on
a subject in any backend, optionally exposes continuous parameters for the
adversarial search, proposes simpler subjects for shrinking, and serializes
subjects to JSON so a witness replays.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics.backend import Backend


class SubjectFamily:
    """Base class; subclasses set ``name`` and implement the methods they support."""

    name: str = "subjects"
    origin: str = "random"  # "random" draws or "learned" encoders (training module)

    # -- drawing ---------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy[Any] | None:
        """Random subjects (None: the family has only its exhaustive list, e.g. learned encoders)."""
        return None

    def exhaustive(self, quick: bool = False) -> Iterable[Any]:
        """Subjects checked one by one in addition to random draws (default: none);
        ``quick`` asks for a thinner sweep (the fast test profile)."""
        return ()

    # -- evaluation --------------------------------------------------------------
    def quantities(
        self, subject: Any, symbols: Iterable[sympy.Symbol], xp: Backend, params: Any = None
    ) -> dict[sympy.Symbol, Any]:
        """Values of ``symbols`` on ``subject``; with ``params`` (torch) use those instead."""
        raise NotImplementedError

    def cheap_to_confirm(self, subject: Any) -> bool:
        """Whether re-evaluating every part in mpmath is affordable (for the float-screen audit;
        candidates are always confirmed, whatever the cost)."""
        return True

    # -- adversarial search --------------------------------------------------------
    differentiable: frozenset[sympy.Symbol] = frozenset()

    def random_start(self, rng: np.random.Generator) -> Any | None:
        """A random subject to start gradient ascent from (None: no adversary)."""
        return None

    def params(self, subject: Any) -> list[Any]:
        """Leaf torch tensors (requires_grad) that parametrize ``subject``."""
        raise NotImplementedError

    def from_params(self, subject: Any, params: Sequence[Any]) -> Any:
        """The concrete (float64) subject at the given parameters."""
        raise NotImplementedError

    # -- shrinking and serialization ----------------------------------------------
    def shrink(self, subject: Any) -> Iterable[Any]:
        """Simpler subjects to try, simplest first (default: none)."""
        return ()

    def size(self, subject: Any) -> tuple[float, ...]:
        return ()

    def to_json(self, subject: Any) -> dict[str, Any]:
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def describe(self, subject: Any) -> str:
        return repr(subject)
