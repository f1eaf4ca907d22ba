"""How hard to search: the budget of one claim's check, and the named profiles (one place).

``quick`` is what ``pytest -m theorems`` runs (thin exhaustive sweeps, short training runs),
``audit`` what ``clcheck audit`` runs by default, ``deep`` a longer search for either.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from theorems.engine.errors import OptionError


@dataclass(frozen=True)
class Budget:
    """Random examples per claim, adversarial starts and steps, shrink attempts, whether exhaustive
    sweeps and experiments take their quick (thin) form, and the tightness search's starts and discrete
    moves (theorems.engine.tightness)."""

    examples: int = 200
    adversarial_starts: int = 8
    adversarial_steps: int = 150
    shrink_tries: int = 400
    quick: bool = False
    tightness_starts: int = 3  # per inequality part and family: the best subjects seen, then strategy draws
    tightness_moves: int = 60  # discrete neighbour evaluations per start

    def __post_init__(self) -> None:
        for name in ("examples", "adversarial_starts", "adversarial_steps", "shrink_tries", "tightness_starts",
                     "tightness_moves"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise OptionError(f"{name} = {value!r}: must be an integer >= 0")

    def with_overrides(self, **values: int | None) -> "Budget":
        """The same budget with the given fields replaced (None keeps the profile's value)."""
        return replace(self, **{k: v for k, v in values.items() if v is not None})


PROFILES: dict[str, Budget] = {
    "quick": Budget(examples=100, adversarial_starts=4, adversarial_steps=100, quick=True, tightness_starts=2,
                    tightness_moves=30),
    "audit": Budget(examples=200, adversarial_starts=8, adversarial_steps=150),
    "deep": Budget(examples=400, adversarial_starts=16, adversarial_steps=250, tightness_starts=6, tightness_moves=120),
}


def profile(name: str) -> Budget:
    try:
        return PROFILES[name]
    except KeyError:
        raise OptionError(f"unknown profile {name!r}: use one of {', '.join(PROFILES)}") from None
