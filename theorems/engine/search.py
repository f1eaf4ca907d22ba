"""Where counterexamples come from: a seeded random search (hypothesis, which also shrinks what
it finds), the family's exhaustive list, and an adversarial search (torch autograd, gradient
ascent on the margin through the same formulas) from many seeded starts."""

from __future__ import annotations

import contextlib
import itertools
import math
from typing import Any, Callable, Iterator

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings, target
from hypothesis import seed as hypothesis_seed
from hypothesis.errors import Flaky, Unsatisfiable

try:  # Hypothesis 6.131 on draws literals from the source of local modules (see seed_only_draws)
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.constants_ast import Constants
except ImportError:  # a Hypothesis without them: nothing to pin (tests/test_hypothesis_pin.py says if that changes)
    providers = Constants = None

from numerics.backend import torch_backend
from numerics.errors import AssumptionError
from theorems.engine.culprit import blame
from theorems.engine.errors import CulpritError
from numerics.seeds import Stream
from theorems.engine.budget import Budget
from theorems.engine.claim import StatementClaim
from theorems.engine.evaluate import applicable_parts, needed_symbols, torch_margin
from theorems.engine.probe import Tracker
from theorems.engine.family import SubjectFamily


class _Violation(Exception):
    """Raised inside the hypothesis test so that hypothesis shrinks the example."""


def admissible(claim: StatementClaim, family: SubjectFamily, subject: Any) -> bool:
    """The subject lies in the family's domain, meets the claim's hypotheses and has a part to check."""
    try:
        family.validate(subject)
    except AssumptionError:
        return False
    where = lambda: f"on the subject {family.describe(subject)[:200]} of family {family.name!r}"  # noqa: E731
    for a in claim.assumptions:
        try:
            held = blame(f"hypothesis {a.name!r}", lambda: bool(a.holds(subject)), where)
        except AssumptionError:
            return False
        if not held:
            return False
    return bool(blame("a part's own hypothesis (Part.applies)", lambda: applicable_parts(claim, subject), where))


@contextlib.contextmanager
def seed_only_draws() -> Iterator[None]:
    """Hypothesis draws made from the seed and the strategy alone.

    Hypothesis (6.131 on) also draws literals it finds in the source of every "local" module the
    process has imported (anything outside site-packages: this package when installed with -e, a
    user's plugin, pytest's test files), and caches them under ./.hypothesis/constants. A search
    would then depend on what else its process ran: the same seed gave a claim other draws after
    another paper's claim had run in the same worker, so a parallel audit, ``--paper`` or
    ``pytest -m theorems`` could report other examples than ``--jobs 1``. Inside this context that
    pool is empty (and nothing is written to the working directory).

    The one use of Hypothesis's private internals in clcheck, kept because nothing public empties the
    pool (Hypothesis 6.170): no setting or environment variable turns it off, and the documented
    extension point -- a PrimitiveProvider registered in AVAILABLE_PROVIDERS and chosen with
    ``settings(backend=...)`` -- replaces the provider only for fresh generation: the engine shrinks
    and replays with its own HypothesisProvider (whose random fill-ins read the pool), and for any
    backend but "hypothesis" it also drops mutation and the target phase this search relies on. So
    pyproject.toml pins Hypothesis to the tested range, and tests/test_hypothesis_pin.py fails when
    the installed version leaves it or the behaviour patched here changes (Hypothesis stops drawing
    local literals, or this no longer stops it)."""
    if providers is None:  # a Hypothesis without source constants: nothing to pin
        yield
        return
    saved = providers._get_local_constants
    empty = Constants()
    providers._get_local_constants = lambda: empty
    providers.CONSTANTS_CACHE.cache.clear()  # allowed constants per draw type, from the pool
    try:
        yield
    finally:
        providers._get_local_constants = saved
        providers.CONSTANTS_CACHE.cache.clear()


def random_search(claim: StatementClaim, family: SubjectFamily, examples: int, stream: Stream,
                  tracker: Tracker) -> None:
    """``examples`` hypothesis draws seeded from ``stream``; the first confirmed violation is shrunk by hypothesis."""
    state: dict[str, Any] = {"shrinking": False, "culprit": None}

    @hypothesis_seed(stream.seed(0))
    @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
              phases=(Phase.generate, Phase.target, Phase.shrink), print_blob=False,
              report_multiple_bugs=False)  # with True it looks on for up to 10 s of wall clock
    @given(family.strategy())
    def search(subject: Any) -> None:
        if state["culprit"] is not None:  # the claim's own code failed: nothing more to learn from draws
            return
        try:
            _draw(subject)
        except CulpritError as exc:  # raised past hypothesis (which would take a nondeterministic one as flaky)
            state["culprit"] = exc

    def _draw(subject: Any) -> None:
        if not admissible(claim, family, subject):
            if not state["shrinking"]:
                tracker.rejected += 1
            reject()
        p = tracker.probe(family, subject)
        target(max(v.normalized_margin for v in p.best))
        if not state["shrinking"]:
            tracker.record(p)
        if p.violated:  # one raise site: hypothesis tells failures apart by where they are raised
            state["shrinking"] = True
            tracker.hypothesis_minimal = p
            raise _Violation

    try:
        with seed_only_draws():
            search()
    except _Violation:
        pass
    except (Unsatisfiable, Flaky) as exc:  # every draw was rejected, or a replay differed: the search ended
        # (any other Hypothesis error -- InvalidArgument, ... -- is a fault of the check: it propagates)
        tracker.search_notes.append(f"hypothesis ({family.name}): {type(exc).__name__}")
    except BaseExceptionGroup as group:  # several distinct failures were shrunk: all must be _Violation
        rest = group.subgroup(lambda e: not isinstance(e, _Violation))
        if rest is not None:
            raise rest
    if state["culprit"] is not None:
        raise state["culprit"]


def sample_subjects(family: SubjectFamily, n: int, seed: int) -> list[Any]:
    """``n`` seeded subjects of ``family``: hypothesis draws, or the first of its exhaustive list."""
    strategy = family.strategy()
    if strategy is None:
        return list(itertools.islice(family.exhaustive(quick=True), n))

    out: list[Any] = []

    @hypothesis_seed(seed)
    @settings(max_examples=n, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(subject: Any) -> None:
        out.append(subject)

    with seed_only_draws():
        collect()
    return out[:n]


def exhaustive_search(claim: StatementClaim, family: SubjectFamily, quick: bool, tracker: Tracker) -> None:
    """Every subject of the family's exhaustive list (thinner when ``quick``)."""
    for subject in family.exhaustive(quick=quick):
        if admissible(claim, family, subject):
            tracker.record(tracker.probe(family, subject, found_by="exhaustive", always=True))
        else:
            tracker.rejected += 1


def adversarial_starts(family: SubjectFamily, n: int, stream: Stream) -> list[Any]:
    """Where the adversary starts: draws of the family's own seeded strategy -- the one sampler the random
    search uses too -- taken from the later draws of a seeded run (Hypothesis draws its simplest examples
    first) and chosen with the seed; a family without a strategy starts from its ``random_start``."""
    first = family.random_start(np.random.default_rng(stream.seed(0)))
    if first is not None:  # a family with a sampler of its own
        return [first] + [family.random_start(np.random.default_rng(stream.seed(i))) for i in range(1, n)]
    if family.strategy() is None:
        return []
    draws = sample_subjects(family, 4 * n + 8, stream.child("draws").seed())
    later = distinct(family, draws[len(draws) // 4:] or draws)  # a start drawn twice is one start
    rng = np.random.default_rng(stream.child("picks").seed())
    picks = rng.choice(len(later), size=min(n, len(later)), replace=False)
    return [later[int(i)] for i in picks]


def distinct(family: SubjectFamily, subjects: list[Any]) -> list[Any]:
    """The subjects without repeats, in order (by their JSON form; a family without one: by identity)."""
    out, seen = [], set()
    for subject in subjects:
        try:
            key = repr(family.to_json(subject))
        except Exception:  # noqa: BLE001 - a family without a JSON form: identity
            key = str(id(subject))
        if key not in seen:
            seen.add(key)
            out.append(subject)
    return out


def adversarial_search(claim: StatementClaim, family: SubjectFamily, budget: Budget, stream: Stream,
                       tracker: Tracker) -> None:
    """Adam ascent on the largest normalized margin of the differentiable parts, from
    ``budget.adversarial_starts`` seeded starts; the best point inside the hypotheses is probed."""
    if not claim.adversarial or budget.adversarial_starts <= 0:
        return
    if not any(p.free_symbols <= family.differentiable for p in claim.statement if p.free_symbols):
        return  # no part the torch adversary can climb on this family: draw no starts
    starts = adversarial_starts(family, budget.adversarial_starts, stream.child("starts"))
    if not starts:
        return
    import torch  # heavy: only the adversary needs it

    xp = torch_backend()
    for start, subject in enumerate(starts):
        torch.manual_seed(stream.child("ascent").seed(start))
        if subject is None:
            continue
        if not admissible(claim, family, subject):
            tracker.rejected += 1
            continue
        parts = [p for p in applicable_parts(claim, subject) if p.free_symbols <= family.differentiable]
        if not parts:
            return
        symbols = needed_symbols(parts)
        end = ascend(claim, family, subject, budget.adversarial_steps,
                     lambda params: torch_margin(parts, family.quantities(subject, symbols, xp, params=params), xp))
        if admissible(claim, family, end):
            tracker.record(tracker.probe(family, end, found_by="adversarial", record_only=True), adversarial=True)


def ascend(claim: StatementClaim, family: SubjectFamily, subject: Any, steps: int,
           score: Callable[[list[Any]], Any]) -> Any:
    """Adam ascent of ``score(params)`` (a differentiable tensor) over the family's continuous parameters
    from ``subject``; the best point visited inside the hypotheses (the start if none is better)."""
    import torch  # heavy: only an ascent needs it

    from numerics.ascent import DecayingAdam  # heavy: imports torch

    params = family.params(subject)
    if not params:
        return subject
    # fused: one kernel per step, under half the unfused cost; the step decays to 1% of its start
    # so that the ascent settles on thin maxima
    opt = DecayingAdam([(params, 0.05)], gamma=0.01 ** (1 / max(1, steps)), fused=True)
    best_value, best_params = -math.inf, [t.detach().clone() for t in params]
    for _ in range(steps):
        opt.zero_grad()
        value_t = score(params)
        if not torch.isfinite(value_t):
            break
        value = value_t.item()
        if value > best_value and admissible(claim, family, family.from_params(subject, params)):
            best_value = value  # the best point visited inside the hypotheses
            best_params = [t.detach().clone() for t in params]
        if not value_t.requires_grad:
            break  # the score depends on no continuous parameter: nothing to climb
        (-value_t).backward()
        opt.step()
        if not all(bool(torch.isfinite(t).all()) for t in params):
            break  # a step left the finite domain (a gradient through sqrt at 0): keep the best point so far
    return family.from_params(subject, best_params)
