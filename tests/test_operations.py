"""numerics.operations: every row of the operation table, in every evaluator that has a form for it, against
mpmath at 50 digits (computed here, not with the form under test); and the evaluator's map, the registration
whitelist and the interval compiler derive from the table (a made-up row shows up in all three)."""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
import numpy as np
import pytest
import sympy
from flint import arb
from sympy.codegen.cfunctions import log1p

from numerics.arb import from_value, workprec
from numerics.backend import FLOAT, MpBackend, NumpyBackend, arb_backend, mp_backend, torch_backend
from numerics.derivative import Dual
from numerics.interval import INTERVAL_FUNCTIONS, IntervalFunction, UnsupportedExpression, interval_eval
from numerics.operations import OPERATIONS, Operation, statement_names
from theorems.engine.evaluate import backend_functions, compiled
from theorems.engine.functions import SUPPORTED_FUNCTIONS, unsupported

REF_DPS = 50
MP = mp_backend(30)
ARB = arb_backend(128)
TORCH = torch_backend()
ROWS = {op.name: op for op in OPERATIONS}


def _harmonic(n: Any, m: Any = 1) -> mpmath.mpf:
    return mpmath.fsum(mpmath.mpf(i) ** -m for i in range(1, int(n) + 1))


#: the 50-digit reference of each row
REFERENCE: dict[str, Callable[..., Any]] = {
    "log": mpmath.log, "exp": mpmath.exp, "sqrt": mpmath.sqrt, "log1p": mpmath.log1p, "abs": abs,
    "maximum": max, "minimum": min, "harmonic": _harmonic, "binomial": mpmath.binomial,
    "polygamma": lambda n, x: mpmath.polygamma(int(n), x), "softplus": lambda t: mpmath.log1p(mpmath.exp(t)),
    "xlogy": lambda x, y: mpmath.mpf(0) if x == 0 else x * mpmath.log(y), "sin": mpmath.sin, "cos": mpmath.cos,
}

#: points of each row's domain, awkward ones included (tiny, huge, near a cancellation)
CASES: dict[str, list[tuple[float, ...]]] = {
    "log": [(5e-324,), (1e-300,), (0.5,), (1.0000000001,), (2.0,), (1e300,)],
    "exp": [(-700.0,), (-1e-300,), (1e-15,), (0.5,), (88.7,), (709.7,)],
    "sqrt": [(5e-324,), (1e-300,), (2.0,), (1e300,)],
    "log1p": [(1e-300,), (-1e-17,), (1e-10,), (-0.5,), (-0.9999999999,), (1.0,), (1e300,)],
    "abs": [(-1e-300,), (0.0,), (3.5,), (-1e300,)],
    "maximum": [(1e-300, -1e-300), (2.0, 3.0), (-1e300, 1e300), (0.5, 0.5)],
    "minimum": [(1e-300, -1e-300), (2.0, 3.0), (-1e300, 1e300), (0.5, 0.5)],
    "harmonic": [(0,), (1,), (10,), (10000,), (10, 2), (7, 3), (20, 0.5)],
    "binomial": [(10, 3), (50, 25), (100, 50), (3, 5), (5.5, 2), (0.5, 3), (7.25, 3.5)],
    "polygamma": [(0, 1e-300), (0, 1e-3), (0, 0.5), (1, 2.0), (2, 30.0), (1, 1e5), (3, 0.25), (0, 1e10)],
    "softplus": [(-745.0,), (-40.0,), (-1e-300,), (0.0,), (1e-10,), (30.0,), (1e4,)],
    "xlogy": [(0.0, 0.0), (0.0, 5.0), (2.0, 1e-300), (1e-300, 3.0), (3.5, 1.0000000001)],
    "sin": [(1e-300,), (0.5,), (-3.0,), (100.0,), (1e10,)],
    "cos": [(1e-300,), (0.5,), (-3.0,), (100.0,), (1e10,)],
}

#: the arguments that are integers (no derivative with respect to them)
INTEGER_ARGS = {"harmonic": {0, 1}, "binomial": {0, 1}, "polygamma": {0}}

FLOAT_ULPS = 4
#: torch's trigamma is accurate to ~1e-9 only (tests/test_backend.py): torch guides the adversary, it decides nothing
TORCH_RELATIVE = {"polygamma": 1e-8}


def reference(name: str, args: tuple[float, ...]) -> mpmath.mpf:
    with mpmath.workdps(REF_DPS):
        return REFERENCE[name](*[mpmath.mpf(a) for a in args])


def cases(column: str) -> list[Any]:
    return [pytest.param(op.name, args, id=f"{op.name}{args}") for op in OPERATIONS if op.has(column)
            for args in CASES[op.name]]


def test_every_row_has_a_reference_and_points() -> None:
    assert set(REFERENCE) == set(CASES) == set(ROWS)


# -- each form against the 50-digit reference ------------------------------------------------------------------

def _within_ulps(value: float, ref: mpmath.mpf, ulps: float) -> bool:
    with mpmath.workdps(REF_DPS):
        return abs(mpmath.mpf(value) - ref) <= ulps * math.ulp(float(ref))


@pytest.mark.parametrize(("name", "args"), cases("float64"))
def test_the_float64_form_is_within_a_few_ulps(name: str, args: tuple[float, ...]) -> None:
    value = getattr(FLOAT, name)(*args)
    assert isinstance(value, (np.ndarray, np.floating))
    assert _within_ulps(float(value), reference(name, args), FLOAT_ULPS)


@pytest.mark.parametrize(("name", "args"), cases("torch"))
def test_the_torch_form_is_within_a_few_ulps(name: str, args: tuple[float, ...]) -> None:
    value = getattr(TORCH, name)(*args)
    ref = reference(name, args)
    assert str(value.dtype) == "torch.float64"
    if name in TORCH_RELATIVE:
        assert abs(float(value) - float(ref)) <= TORCH_RELATIVE[name] * abs(float(ref))
    else:
        assert _within_ulps(float(value), ref, FLOAT_ULPS)


@pytest.mark.parametrize(("name", "args"), cases("mpmath"))
def test_the_mpmath_form_is_exact_to_the_working_precision(name: str, args: tuple[float, ...]) -> None:
    value = getattr(MP, name)(*args)
    ref = reference(name, args)
    with mpmath.workdps(REF_DPS):
        assert isinstance(value, mpmath.mpf) and abs(value - ref) <= mpmath.mpf(10) ** -(MP.dps - 2) * abs(ref)


def _encloses(ball: arb, ref: mpmath.mpf) -> bool:
    """The ball contains the 50-digit value (converted exactly) and is tight (128 bits leave at least 100)."""
    with workprec(1024):
        point = from_value(ref)
        return bool(ball.contains(point)) and (ball.rad() == 0 or ball.rad() <= abs(ball.mid()) * arb(2) ** -100)


@pytest.mark.parametrize(("name", "args"), cases("arb"))
def test_the_arb_ball_contains_the_value(name: str, args: tuple[float, ...]) -> None:
    with ARB.precision():
        assert _encloses(getattr(ARB, name)(*args), reference(name, args))


def _sympy_function(op: Operation) -> Any:
    return log1p if op.sympy == "log1p" else getattr(sympy, op.sympy)


@pytest.mark.parametrize(("name", "args"), cases("interval"))
def test_the_interval_enclosure_contains_the_value(name: str, args: tuple[float, ...]) -> None:
    """The interval compiler's enclosure of ``f(x0, x1, ...)`` at the exact point contains f there."""
    symbols = sympy.symbols(f"x0:{len(args)}")
    expr = _sympy_function(ROWS[name])(*symbols)
    ball = interval_eval(expr, dict(zip(symbols, args)), prec=128).ball
    assert _encloses(ball, reference(name, args))


def _differentiable(name: str, args: tuple[float, ...], j: int) -> bool:
    """Points where the derivative in argument j exists (not at a tie of Max, |x| at 0, log 0 in xlogy)."""
    if j in INTEGER_ARGS.get(name, ()):
        return False
    return not ((ROWS[name].fold and args[0] == args[1]) or (name == "abs" and args[0] == 0)
                or (name == "xlogy" and args[1] == 0))


def _seeded(args: tuple[float, ...], j: int) -> list[Dual]:
    return [Dual(mpmath.mpf(a), 1 if i == j else 0) for i, a in enumerate(args)]


def _step(name: str, args: tuple[float, ...], j: int) -> mpmath.mpf:
    """mpmath.diff's step: 2^-90 times the distance from argument j to the nearest point where the row is not
    smooth in it (log's pole at 0, the kink of Max where the arguments meet, ...), at most max(1, |x|)."""
    rough = {"log": [0.0], "sqrt": [0.0], "log1p": [-1.0], "polygamma": [0.0], "abs": [0.0],
             "xlogy": [0.0] if j == 1 else []}.get(name, [])
    if ROWS[name].fold:
        rough = [args[1 - j]]
    x = mpmath.mpf(args[j])
    return min([max(mpmath.mpf(1), abs(x))] + [abs(x - p) for p in rough]) * mpmath.mpf(2) ** -90


def _reference_derivative(name: str, args: tuple[float, ...], j: int) -> mpmath.mpf:
    def along(t: mpmath.mpf) -> mpmath.mpf:
        return REFERENCE[name](*[t if i == j else mpmath.mpf(a) for i, a in enumerate(args)])

    with mpmath.workdps(REF_DPS):
        return mpmath.diff(along, mpmath.mpf(args[j]), h=_step(name, args, j), addprec=110)  # the step costs ~90 bits


@pytest.mark.parametrize(("name", "args"), cases("dual"))
def test_the_dual_form_gives_the_value_and_the_derivative(name: str, args: tuple[float, ...]) -> None:
    """Seeded in each argument in turn: the value and the tangent against mpmath and mpmath.diff; an integer
    argument takes plain values and refuses a seed."""
    form, ref = ROWS[name].dual, reference(name, args)
    with mpmath.workdps(MP.dps):
        plain = form(*[mpmath.mpf(a) for a in args])
    assert abs(plain - ref) <= mpmath.mpf(10) ** -(MP.dps - 2) * abs(ref)
    for j in range(len(args)):
        with mpmath.workdps(MP.dps):
            if j in INTEGER_ARGS.get(name, ()):
                with pytest.raises(ValueError, match="integer"):
                    form(*_seeded(args, j))
                continue
            if not _differentiable(name, args, j):
                continue
            out = Dual.lift(form(*_seeded(args, j)))
        with mpmath.workdps(REF_DPS):
            slope = _reference_derivative(name, args, j)
            assert abs(out.value - ref) <= mpmath.mpf(10) ** -(MP.dps - 2) * abs(ref)
            assert abs(out.tangent - slope) <= mpmath.mpf(10) ** -(MP.dps - 4) * abs(slope), (j, out, slope)


def _first_differentiable(name: str) -> tuple[tuple[float, ...], int] | None:
    return next(((args, j) for args in CASES[name] for j in range(len(args)) if _differentiable(name, args, j)), None)


@pytest.mark.parametrize("name", [op.name for op in OPERATIONS if op.has("dual") and _first_differentiable(op.name)])
def test_the_backends_differentiate_through_the_dual_forms(name: str) -> None:
    """xp.grad in mpmath and float64 uses the table's dual forms: the derivative at the row's first
    differentiable point against mpmath.diff (harmonic and binomial are functions of integers: none)."""
    args, j = _first_differentiable(name)

    def fn(v: Any, xq: Any) -> Any:
        return getattr(xq, name)(*[v[0] if i == j else a for i, a in enumerate(args)])

    slope = _reference_derivative(name, args, j)
    with mpmath.workdps(REF_DPS):
        assert abs(MP.grad(fn, np.array([mpmath.mpf(args[j])], dtype=object))[0] - slope) <= 1e-25 * abs(slope)
    assert _within_ulps(float(FLOAT.grad(fn, np.array([args[j]]))[0]), slope, 1)


BACKEND_COLUMNS = ("float64", "mpmath", "arb", "torch")


@pytest.mark.parametrize("op", [op for op in OPERATIONS if not all(op.has(c) for c in BACKEND_COLUMNS)],
                         ids=lambda op: op.name)
def test_an_absent_form_is_refused_with_its_reason(op: Operation) -> None:
    for xp in (FLOAT, MP, ARB, TORCH):
        if not op.has(xp.column):
            with pytest.raises(NotImplementedError, match=f"the {xp.name} backend has no {op.name}: "):
                getattr(xp, op.name)(*CASES[op.name][0])


def test_interval_forms_refuse_balls_off_their_domain() -> None:
    x, n = sympy.symbols("x n")
    for expr, box in ((sympy.log(x), (-1, 1)), (sympy.sqrt(x), ("-1/2", 1)), (log1p(x), (-2, 0)),
                      (sympy.polygamma(1, x), (-1, 1)), (sympy.harmonic(x, sympy.Rational(1, 2)), (1, 2))):
        with pytest.raises(ValueError):
            interval_eval(expr, {x: box})
    with pytest.raises(ValueError, match="exact integer"):
        interval_eval(sympy.polygamma(n, x), {n: (0, 1), x: 2})
    at_2, at_3 = (float(interval_eval(sympy.polygamma(1, x), {x: b}).ball.mid()) for b in (2, 3))
    box = interval_eval(sympy.polygamma(1, x), {x: (2, 3)}).ball  # decreasing: [psi1(3), psi1(2)], not arb's wide ball
    assert box.contains(arb(at_2)) and box.contains(arb(at_3)) and float(box.rad()) < 0.51 * (at_2 - at_3)


def test_max_and_min_fold_over_any_number_of_arguments() -> None:
    x, y, z = sympy.symbols("x y z")
    expr = sympy.Max(x, y, z) - sympy.Min(x, y, z)
    assert float(interval_eval(expr, {x: 1, y: -2, z: "1/2"}).ball.mid()) == 3.0
    for xp in (FLOAT, MP, TORCH):
        assert float(compiled(expr, (x, y, z), xp)(1.0, -2.0, 0.5)) == 3.0


# -- the whitelist, the evaluator's map and the interval compiler are the table ---------------------------------

def test_the_whitelist_the_evaluators_map_and_the_interval_compiler_are_the_tables_rows() -> None:
    statement = [op for op in OPERATIONS if op.sympy and all(op.has(c) for c in ("float64", "mpmath", "torch"))]
    names = tuple(op.sympy for op in statement)
    assert SUPPORTED_FUNCTIONS == statement_names() == names
    assert names == ("log", "exp", "sqrt", "log1p", "Abs", "Max", "Min", "harmonic", "binomial", "polygamma")
    for xp in (FLOAT, MP, TORCH):
        functions = backend_functions(xp)
        assert set(functions) - {"_finite_sum"} == set(names)
        assert all(functions[op.sympy] == getattr(xp, op.name) for op in statement if not op.fold)
    assert INTERVAL_FUNCTIONS == tuple(op.sympy for op in OPERATIONS if op.sympy and op.has("interval"))
    assert set(names) <= set(INTERVAL_FUNCTIONS)  # every statement row has an interval form today
    assert unsupported(sympy.sin(sympy.Symbol("x"))) == ["sin"]  # interval proofs only


class cube(sympy.Function):  # noqa: N801 -- a made-up sympy function, named as sympy names its own
    """x^3."""


CUBE = Operation(
    "cube", "cube", "xp.cube(x): x^3.",
    float64=lambda x: x ** 3, mpmath=lambda x: x ** 3, arb=lambda x: x ** 3, torch=lambda torch, x: x ** 3,
    dual=lambda x: x * x * x, interval=lambda x: x ** 3,
)
EXTENDED = OPERATIONS + (CUBE,)


class CubeFloat(NumpyBackend):
    operations = EXTENDED


class CubeMp(MpBackend):
    operations = EXTENDED


def test_a_new_row_shows_up_in_the_backends_the_whitelist_the_evaluator_and_the_interval_compiler() -> None:
    x = sympy.Symbol("x")
    assert unsupported(cube(x)) == ["cube"] and unsupported(cube(x), EXTENDED) == []
    xf, xm = CubeFloat(), CubeMp(dps=30)
    assert xf.cube(2.0) == 8.0 and xm.cube(2) == 8 and CubeMp.cube.__doc__ == "xp.cube(x): x^3."
    assert float(xm.grad(lambda v, xq: xq.sum(xq.cube(v)), np.array([2.0], dtype=object))[0]) == 12.0
    assert backend_functions(xf)["cube"](3.0) == 27.0 and "cube" not in backend_functions(FLOAT)
    assert float(compiled(cube(x) + 1, (x,), xf)(2.0)) == 9.0
    assert IntervalFunction([cube(x)], [x], 64, operations=EXTENDED)(arb(2))[0] == 8
    with pytest.raises(UnsupportedExpression):
        IntervalFunction([cube(x)], [x], 64)


def test_a_backend_class_cannot_write_a_row_of_its_own() -> None:
    with pytest.raises(TypeError, match="declare its form there"):
        type("Rogue", (NumpyBackend,), {"log": lambda self, x: np.log(x)})
