"""Bad input to numerics.mixture / numerics.contrastive raises AssumptionError naming the problem."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics import contrastive as C
from numerics.backend import FLOAT
from numerics.errors import AssumptionError
from numerics.mixture import FiniteMixture, check_k, check_negatives

GOOD_POINTS = [[[1.0, 0.0], [0.0, 1.0]], [[-1.0, 0.5]], [[0.3, -0.2]]]
GOOD_RHO = [0.5, 0.25, 0.25]


def test_good_input_is_accepted() -> None:
    mix = FiniteMixture.create(GOOD_RHO, GOOD_POINTS, [[0.25, 0.75], [1.0], [1.0]])
    assert mix.n_classes == 3 and mix.dim == 2 and mix.support_sizes == (2, 1, 1)
    assert issubclass(AssumptionError, ValueError)


# -- rho --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rho,match",
    [
        ([0.7, -0.2, 0.5], r"rho\[1\] = -0\.2 is negative"),
        ([0.5, 0.25, 0.2], r"rho sums to 0\.95.*not 1"),
        ([0.5, 0.5, 0.5], r"rho sums to 1\.5.*not 1"),
        ([0.5, 0.5, 0.0], r"rho\[2\] = 0.*rho\(c\) > 0"),
        ([1.0, -0.0, 0.0], r"rho\[1\] = 0.*rho\(c\) > 0"),
        ([0.5, float("nan"), 0.5], r"rho = .*NaN or inf"),
        ([0.5, float("inf"), 0.5], r"rho = .*NaN or inf"),
        ([0.5, float("-inf"), 0.5], r"rho = .*NaN or inf"),
        ([], r"rho must be a non-empty 1-d vector"),
        ([[0.5, 0.5]], r"rho must be a non-empty 1-d vector"),
    ],
    ids=["negative", "sum<1", "sum>1", "zero-mass", "minus-zero", "nan", "inf", "-inf", "empty",
         "2d"],
)
def test_bad_rho(rho: list, match: str) -> None:
    points = GOOD_POINTS if len(rho) == 3 else GOOD_POINTS[:1]
    with pytest.raises(AssumptionError, match=match):
        FiniteMixture.create(rho, points)


def test_rho_sum_tolerance_boundary() -> None:
    """|sum(rho) - 1| <= 1e-9 is accepted, 1e-6 is not."""
    FiniteMixture.create([0.5, 0.5 - 1e-12], GOOD_POINTS[:2])
    with pytest.raises(AssumptionError, match=r"not 1"):
        FiniteMixture.create([0.5, 0.5 - 1e-6], GOOD_POINTS[:2])


# -- points -------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")], ids=["nan", "inf", "-inf"])
def test_nonfinite_embeddings(bad: float) -> None:
    points = [[[1.0, 0.0], [0.0, bad]], [[-1.0, 0.5]], [[0.3, -0.2]]]
    with pytest.raises(AssumptionError, match=r"points\[0\] contains NaN or inf"):
        FiniteMixture.create(GOOD_RHO, points)


def test_mismatched_dimensions() -> None:
    points = [[[1.0, 0.0]], [[-1.0, 0.5, 2.0]], [[0.3, -0.2]]]
    with pytest.raises(AssumptionError, match=r"points\[1\] has dimension d = 3 but points\[0\] has d = 2"):
        FiniteMixture.create(GOOD_RHO, points)


@pytest.mark.parametrize("n_supports", [2, 4])
def test_wrong_number_of_class_supports(n_supports: int) -> None:
    points = (GOOD_POINTS + [[[0.0, 0.0]]])[:n_supports]
    with pytest.raises(AssumptionError, match=rf"rho has 3 classes but points has {n_supports}"):
        FiniteMixture.create(GOOD_RHO, points)


@pytest.mark.parametrize(
    "empty", [[], np.zeros((0, 2))], ids=["list", "zeros(0,2)"]
)
def test_empty_support(empty: object) -> None:
    points = [GOOD_POINTS[0], empty, GOOD_POINTS[2]]
    with pytest.raises(AssumptionError, match=r"points\[1\] must be a non-empty"):
        FiniteMixture.create(GOOD_RHO, points)


def test_zero_dimensional_embeddings() -> None:
    with pytest.raises(AssumptionError, match=r"d >= 1"):
        FiniteMixture.create([1.0], [np.zeros((2, 0))])


# -- weights ------------------------------------------------------------------------------


def test_weights_wrong_number_of_classes() -> None:
    with pytest.raises(AssumptionError, match=r"weights has 2 entries for 3 classes"):
        FiniteMixture.create(GOOD_RHO, GOOD_POINTS, [[0.5, 0.5], [1.0]])


def test_weights_wrong_length_for_support() -> None:
    with pytest.raises(AssumptionError, match=r"weights\[0\] has 3 masses for 2 points"):
        FiniteMixture.create(GOOD_RHO, GOOD_POINTS, [[0.25, 0.25, 0.5], [1.0], [1.0]])


@pytest.mark.parametrize(
    "w0,match",
    [
        ([0.5, 0.25], r"weights\[0\] sums to 0\.75.*not 1"),
        ([0.75, 0.75], r"weights\[0\] sums to 1\.5.*not 1"),
        ([1.5, -0.5], r"weights\[0\]\[1\] = -0\.5 is negative"),
        ([1.0, 0.0], r"weights\[0\]\[1\] = 0"),
        ([float("nan"), 1.0], r"weights\[0\] = .*NaN or inf"),
    ],
    ids=["sum<1", "sum>1", "negative", "zero", "nan"],
)
def test_bad_weights(w0: list, match: str) -> None:
    with pytest.raises(AssumptionError, match=match):
        FiniteMixture.create(GOOD_RHO, GOOD_POINTS, [w0, [1.0], [1.0]])


# -- k and N ------------------------------------------------------------------------------


@pytest.mark.parametrize("k,n_classes", [(0, 3), (-1, 3), (3, 3), (5, 3), (1, 1)])
def test_check_k_out_of_range(k: int, n_classes: int) -> None:
    with pytest.raises(AssumptionError, match=rf"k = {k} is out of range.*2 <= k \+ 1 <= N_C = {n_classes}"):
        check_k(k, n_classes)


@pytest.mark.parametrize("k", [1.0, 1.5, "1"])
def test_check_k_non_integer(k: object) -> None:
    with pytest.raises(AssumptionError, match=r"out of range"):
        check_k(k, 3)  # type: ignore[arg-type]


def test_check_k_in_range() -> None:
    assert check_k(1, 2) == 1 and check_k(2, 3) == 2 and check_k(np.int64(1), 3) == 1
    with pytest.raises(AssumptionError, match=r"k = 3 is out of range"):
        C.l_sup_mu_k(C.MixtureArrays.from_mixture(FiniteMixture.create(GOOD_RHO, GOOD_POINTS), FLOAT), 3)


@pytest.mark.parametrize("N", [0, -1, 1.5, 2.0], ids=["0", "-1", "1.5", "2.0"])
def test_check_negatives_out_of_range(N: object) -> None:
    with pytest.raises(AssumptionError, match=rf"N = {N} is out of range.*N >= 1"):
        check_negatives(N)  # type: ignore[arg-type]


def test_check_negatives_ok_and_used_everywhere() -> None:
    assert check_negatives(1) == 1 and check_negatives(np.int64(4)) == 4
    arr = C.MixtureArrays.from_mixture(FiniteMixture.create(GOOD_RHO, GOOD_POINTS), FLOAT)
    mix = FiniteMixture.create(GOOD_RHO, GOOD_POINTS)
    with pytest.raises(AssumptionError, match=r"N = 0 is out of range"):
        C.l_un_n(arr, 0)
    with pytest.raises(AssumptionError, match=r"N = 0 is out of range"):
        C.tau_plus(arr.rho, FLOAT, 0)
    with pytest.raises(AssumptionError, match=r"N = 1.5 is out of range"):
        C.l_un_n_monte_carlo(mix, 1.5, samples=10, seed=0)  # type: ignore[arg-type]


# -- exact enumeration limit and Monte Carlo ----------------------------------------------------


def test_l_un_n_over_enumeration_limit_points_to_monte_carlo() -> None:
    mix = FiniteMixture.create(GOOD_RHO, GOOD_POINTS)  # M = 4 support points
    arr = C.MixtureArrays.from_mixture(mix, FLOAT)
    # N = 60 over M = 4 points: C(63, 3) = 39711 multisets > 20000 (default limit)
    assert math.comb(63, 3) > C.MAX_COMPOSITIONS
    with pytest.raises(AssumptionError, match=r"39711 multisets.*limit 20000.*l_un_n_monte_carlo"):
        C.l_un_n(arr, 60)
    # an explicit limit: N = 3 over M = 4 gives C(6, 3) = 20 multisets
    with pytest.raises(AssumptionError, match=r"20 multisets.*limit 19.*l_un_n_monte_carlo"):
        C.l_un_n(arr, 3, max_compositions=19)
    C.l_un_n(arr, 3, max_compositions=20)  # at the limit: fine


@pytest.mark.parametrize("samples", [0, -5])
def test_monte_carlo_needs_samples(samples: int) -> None:
    mix = FiniteMixture.create(GOOD_RHO, GOOD_POINTS)
    with pytest.raises(AssumptionError, match=rf"samples = {samples}.*at least one sample"):
        C.l_un_n_monte_carlo(mix, 2, samples=samples, seed=0)


# -- the public Mixture part (theorems.subjects.mixture) --------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402

from numerics.backend import mp_backend, torch_backend  # noqa: E402
from theorems import quantity  # noqa: E402
from theorems.subjects import Family, Given, Integer, Mixture, Subset  # noqa: E402
from theorems.subjects.mixture import finite_mixture  # noqa: E402

L_un_part = quantity("L_un_part", lambda s, xp: C.l_un(s.mixture), range=(0, None))
k_part = quantity("k_part", lambda s, xp: xp.asarray(s.k), integer=True)
SETTINGS = Family("finite mixtures (part test)", dims={},
                  parts={"mixture": Mixture(classes=(2, 3), dims=(1, 2), support=(1, 2)),
                         "k": Given(lambda c: Integer(1, c["mixture"].n_classes - 1)),
                         "task": Given(lambda c: Subset(c["mixture"].n_classes))},
                  quantities=(L_un_part, k_part))
FEW = settings(max_examples=25, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))


@FEW
@given(SETTINGS.strategy())
def test_a_mixture_part_draws_in_its_bounds_and_survives_the_adversarys_parametrization(s: object) -> None:
    SETTINGS.validate(s)
    mix = s.mixture
    assert 2 <= mix.n_classes <= 3 and 1 <= mix.dim <= 2 and set(mix.support_sizes) <= {1, 2}
    assert 1 <= s.k <= mix.n_classes - 1 and s.task and set(s.task) <= set(range(mix.n_classes))
    torch = torch_backend()
    params = SETTINGS.params(s)
    at_start = float(SETTINGS.quantities(s, [L_un_part], torch, params=params)[L_un_part].detach())
    assert at_start == pytest.approx(float(SETTINGS.quantities(s, [L_un_part], FLOAT)[L_un_part]), rel=1e-12, abs=1e-12)
    back = SETTINGS.from_params(s, params)  # the parametrization's image of the start is the start
    np.testing.assert_allclose(back.mixture.flat()[0], mix.flat()[0])
    np.testing.assert_allclose(back.mixture.rho, mix.rho, rtol=1e-12)
    np.testing.assert_allclose(np.concatenate(back.mixture.weights), np.concatenate(mix.weights), rtol=1e-12)
    assert back.mixture.support_sizes == mix.support_sizes and back.k == s.k and back.task == s.task
    for simpler in SETTINGS.shrink(s):
        try:
            SETTINGS.validate(simpler)
        except AssumptionError:  # e.g. a class dropped under k = N_C - 1: the shrinker skips it
            continue
        assert simpler.mixture.n_classes >= 2


def test_a_mixture_view_gives_the_plain_mixture_back_and_the_backends_agree() -> None:
    mix = FiniteMixture.create(GOOD_RHO, GOOD_POINTS, [[0.25, 0.75], [1.0], [1.0]])
    s = SETTINGS.from_json({"dims": {}, "values": {"mixture": mix.to_json(), "k": 2, "task": [0, 2]}})
    mp = mp_backend(40)
    with mp.precision():
        exact = SETTINGS.quantities(s, [L_un_part], mp)[L_un_part]
    assert float(exact) == pytest.approx(float(SETTINGS.quantities(s, [L_un_part], FLOAT)[L_un_part]), rel=1e-13)
    view = Mixture().to_backend(s.mixture, FLOAT)
    assert finite_mixture(view) is s.mixture  # a formula that needs a float64 step (a fit) gets the mixture itself
    rebuilt = finite_mixture(C.MixtureArrays.from_mixture(mix, FLOAT))
    np.testing.assert_allclose(rebuilt.rho, mix.rho)
    np.testing.assert_allclose(rebuilt.points[0], mix.points[0])


def test_a_uniform_mixture_part_keeps_rho_uniform_under_the_adversary() -> None:
    part = Mixture(classes=(3, 3), uniform=True)
    mix = FiniteMixture.create([1 / 3] * 3, GOOD_POINTS)
    torch = torch_backend()
    import torch as th  # heavy: only the adversary's parametrization needs it

    w = th.tensor(part.to_param(mix), dtype=th.float64) + 0.3  # every coordinate moved
    arr = part.from_param(w, torch)
    assert np.allclose(arr.rho.numpy(), 1 / 3)
    part.validate(part.from_torch(arr), (), "mixture")
    with pytest.raises(AssumptionError, match="rho is not uniform"):
        part.validate(FiniteMixture.create(GOOD_RHO, GOOD_POINTS), (), "mixture")


@pytest.mark.parametrize("values, fragment", [
    ({"mixture": {"rho": [1.0], "points": [[[0.0]]], "weights": [[1.0]]}, "k": 1, "task": [0]}, "N_C (classes) = 1"),
    ({"mixture": {"rho": [0.5, 0.5], "points": [[[0.0, 0, 0]], [[1.0, 0, 0]]], "weights": [[1.0], [1.0]]}, "k": 1,
      "task": [0]}, "values.mixture.points[0]"),
    ({"mixture": {"rho": [0.5, 0.5], "points": [[[0.0]], [[1.0]]], "weights": [[1.0], [1.0]]}, "k": 2, "task": [0]},
     "values.k = 2"),
    ({"mixture": {"rho": [0.5, 0.5], "points": [[[0.0]], [[1.0]]], "weights": [[1.0], [1.0]]}, "k": 1, "task": []},
     "values.task"),
    ({"mixture": {"rho": [0.5, 0.5], "points": [[[0.0]], [[1.0]]], "weights": [[1.0], [1.0]]}, "k": 1, "task": [2]},
     "values.task[0] = 2"),
    ({"mixture": {"rho": [0.5, 0.5], "points": [[[0.0]], [[1.0]]], "weights": [[1.0], [1.0]]}, "k": True, "task": [0]},
     "values.k = true"),
], ids=["N_C below the bounds", "d above the bounds", "k = N_C", "empty task", "task class missing", "k boolean"])
def test_a_mixture_family_reads_its_json_strictly(values: dict, fragment: str) -> None:
    with pytest.raises(AssumptionError) as info:
        SETTINGS.from_json({"dims": {}, "values": values})
    assert fragment in str(info.value)
