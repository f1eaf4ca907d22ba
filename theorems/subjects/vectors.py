"""Real vectors x in R^n for the log-sum-exp facts used in the proofs of Lemmas 1 and 2.

Entries range from tiny to 1e300 (exp overflows in naive float code at 710);
an optional subset S of [n] (non-empty) for the restriction fact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Sequence

import numpy as np
import sympy
from hypothesis import strategies as st

from numerics import json_fields as jf
from numerics.backend import Backend
from numerics.errors import AssumptionError
from theorems.engine.family import SubjectFamily, check_fields
from theorems.engine.quantity import quantity

# -- log-sum-exp facts (proofs of Lemmas 1 and 2 of Merad et al.): a vector x in R^n ---------------
n = quantity("n", integer=True, range=(1, None), doc="the length of x")
max_x = quantity("max_x", doc="max_i x_i")
lse_x = quantity("lse_x", doc="LSE(x) = log sum_i e^{x_i}")
lse_pairs = quantity("lse_pairs", doc="LSE(LSE(x1,x2), ..., LSE(x_{2n-1},x_{2n}))")
n_pairs = quantity("n_pairs", integer=True, range=(1, None), doc="x in R^{2n}: n pairs")
max_pair_lse = quantity("max_pair_lse", doc="max_j LSE(x_{2j-1}, x_{2j})")
lse_x_S = quantity("lse_x_S", doc="LSE of the restriction x_S")


@dataclass(frozen=True, eq=False)
class VectorSubject:
    """x in R^n and a non-empty index set S (used only by the restriction fact)."""

    x: np.ndarray
    S: tuple[int, ...] = ()


_ENTRY = st.one_of(
    st.floats(-10.0, 10.0),
    st.floats(-1e4, 1e4),
    st.floats(-1e300, 1e300),
    st.sampled_from([0.0, -0.0, 709.0, 710.0, -745.0, 1e-300]),
)


class Vectors(SubjectFamily):
    """Random vectors; ``even`` keeps n even (x in R^{2n} for the pairwise fact)."""

    def __init__(self, max_len: int = 10, even: bool = False, with_subset: bool = False) -> None:
        self.max_len = max_len
        self.even = even
        self.with_subset = with_subset
        self.name = "random vectors" + (" (even length)" if even else "")

    def strategy(self) -> st.SearchStrategy[VectorSubject]:
        return _vector_subjects(self)

    symbols = frozenset({n, n_pairs, max_x, lse_x, lse_pairs, max_pair_lse, lse_x_S})
    differentiable = symbols

    def validate(self, subject: VectorSubject) -> None:
        size = subject.x.size
        if not 1 <= size <= self.max_len or (self.even and size % 2):
            raise AssumptionError(f"{self.name}: length {size} is outside 1..{self.max_len}"
                                  + (" or odd" if self.even else ""))
        if not np.all(np.isfinite(subject.x)):
            raise AssumptionError(f"{self.name}: x contains NaN or inf")
        S = list(subject.S)
        if self.with_subset and (not S or not all(0 <= i < size for i in S) or len(set(S)) != len(S)):
            raise AssumptionError(f"{self.name}: S = {S} must be a non-empty subset of 0..{size - 1}")
        if not self.with_subset and S:
            raise AssumptionError(f"{self.name}: S = {S}: this family's subjects have no index set")

    def quantities(self, subject: VectorSubject, symbols: Iterable[sympy.Symbol], xp: Backend,
                   params: Any = None) -> dict[sympy.Symbol, Any]:
        x = xp.asarray(subject.x) if params is None else params[0]
        length = int(subject.x.size)

        def pairs() -> Any:
            return xp.logsumexp(x.reshape(length // 2, 2), axis=1)

        compute = {
            n: lambda: xp.asarray(length),
            n_pairs: lambda: xp.asarray(length // 2),
            max_x: lambda: xp.max(x),
            lse_x: lambda: xp.logsumexp(x, axis=0),
            lse_pairs: lambda: xp.logsumexp(pairs(), axis=0),
            max_pair_lse: lambda: xp.max(pairs()),
            lse_x_S: lambda: xp.logsumexp(x[list(subject.S)], axis=0),
        }
        return {s: compute[s]() for s in symbols}

    def random_start(self, rng: np.random.Generator) -> VectorSubject:
        n = int(rng.integers(1, self.max_len // 2 + 1)) * 2 if self.even else int(rng.integers(1, self.max_len + 1))
        x = rng.normal(size=n) * float(rng.choice([0.1, 1.0, 10.0]))
        S = tuple(sorted(rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False).tolist()))
        return VectorSubject(x, S if self.with_subset else ())

    def params(self, subject: VectorSubject) -> list[Any]:
        import torch

        return [torch.tensor(subject.x, dtype=torch.float64, requires_grad=True)]

    def from_params(self, subject: VectorSubject, params: Sequence[Any]) -> VectorSubject:
        return replace(subject, x=params[0].detach().numpy().astype(np.float64))

    def shrink(self, subject: VectorSubject) -> Iterable[VectorSubject]:
        x, n = subject.x, subject.x.size
        step = 2 if self.even else 1
        for i in range(0, n, step):
            if n - step >= 1:
                keep = [j for j in range(n) if not i <= j < i + step]
                S = tuple(keep.index(j) for j in subject.S if j in keep)
                if not self.with_subset or S:
                    yield VectorSubject(x[keep], S)
        for transform in (np.zeros_like, np.round, lambda a: np.round(a, 1)):
            y = transform(x)
            if not np.array_equal(y, x):
                yield replace(subject, x=y)

    def size(self, subject: VectorSubject) -> tuple[float, ...]:
        return (subject.x.size, len(subject.S))

    def to_json(self, subject: VectorSubject) -> dict[str, Any]:
        return {"x": [float(v) for v in subject.x], "S": list(subject.S)}

    def from_json(self, data: Any) -> VectorSubject:
        where = self.name
        check_fields(data, ("x",), ("S",), where)
        x = jf.real_array(data["x"], "x", ((1, self.max_len),), where, ("n (entries)",))
        S = jf.integer_list(data.get("S", []), "S", (1 if self.with_subset else 0, x.size if self.with_subset else 0),
                            0, x.size - 1, where, unique=True)
        return VectorSubject(x, tuple(S))

    def describe(self, subject: VectorSubject) -> str:
        shown = np.array2string(subject.x, precision=4, threshold=8)
        return f"n={subject.x.size}, x={shown}" + (f", S={list(subject.S)}" if subject.S else "")


@st.composite
def _vector_subjects(draw: Any, family: Vectors) -> VectorSubject:
    if family.even:
        n = 2 * draw(st.integers(1, family.max_len // 2))
    else:
        n = draw(st.integers(1, family.max_len))
    x = np.asarray(draw(st.lists(_ENTRY, min_size=n, max_size=n)), dtype=np.float64)
    S: tuple[int, ...] = ()
    if family.with_subset:
        S = tuple(sorted(draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))))
    return VectorSubject(x, S)
