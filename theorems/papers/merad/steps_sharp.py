"""The sharp constants of the steps of Lemma 3's proof (merad.lemma3.steps) and the proved bounds under (12), for
the claims' ``Sharp`` rows: each certifies a bound tighter than the printed one, and where it is attained.

With M = max_ij ||z_i|| ||z_j|| (i = j allowed, so M >= every ||z_i||^2) and the witness z_1 = C e_1, z_2 = C e_2,
z_3 = -C e_2 of :mod:`theorems.papers.merad.sharp_constants` (u = 0, ||g||^2 = 6 C^2, M = C^2):

* ||dcos_ij|| = sqrt(||z_i||^2 + ||z_j||^2) <= sqrt 2 max(||z_i||, ||z_j||), equal when ||z_i|| = ||z_j||
  (printed: 2);
* ||diag(v) - v v^T|| = 2 v1 v2 <= 1/2, equal at u = 0 (printed 1/2: sharp);
* ||(dcos12 dcos13) dv|| = v1 v2 ||g||^2 <= (1/4) 6 M = 3/2 M, equal at the witness (printed: 8 M);
* ||Hess l|| <= sigma' ||g||^2 + sigma ||Hess u|| <= 3/2 M + sqrt 2, and >= lam(M) = (3M + sqrt(9M^2 + 8))/4 at the
  witness (printed: 2 + 8 M): bracketed, as Lemma 3's own constant is;
* (12) with the Hessian's certified bound 1.5 C^2 + sqrt 2 on B^3 in place of 2 + 8 C^2 (Taylor's theorem along
  [z, z + z'], inside the convex B^3).
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any, Sequence

import numpy as np
import sympy
import z3

from numerics.certificate import Certificate
from theorems.papers.merad import certificates as mc
from theorems.papers.merad import sharp_constants as sc

#: the radii of the equality cases (the claims' families draw C from 0.05 to 30)
WITNESS_RADII = (0.05, 0.5, 1.0, 5.0, 30.0)


def _unsat(*constraints: Any) -> bool:
    solver = z3.SolverFor("QF_NRA")
    solver.add(*constraints)
    return solver.check() == z3.unsat


@functools.cache
def dcos_sharp(square: Fraction = Fraction(2)) -> Certificate:
    """||dcos_ij|| <= sqrt 2 max(||z_i||, ||z_j||) for every d and z, with equality when ||z_i|| = ||z_j||: the blocks
    of dcos_ij are z_j, z_i and 0 (lemma3_dcos_norms), so ||dcos_ij||^2 = a^2 + b^2 <= 2 m^2 (z3; sqrt is increasing)
    and a = b = m gives 2 m^2 (sympy)."""
    blocks = mc.lemma3_dcos_norms()
    a, b, m = z3.Reals("a b m")
    upper = _unsat(a >= 0, b >= 0, m >= a, m >= b, z3.Or(m == a, m == b),
                   z3.Not(a * a + b * b <= z3.RealVal(str(square)) * m * m))
    t = sympy.Symbol("t", nonnegative=True)
    equal = sympy.simplify(sympy.sqrt(t ** 2 + t ** 2) - sympy.sqrt(2) * t) == 0
    return Certificate(method="sympy (matrix calculus, symbolic d) + z3",
                       statement="||dcos_ij||^2 = ||z_i||^2 + ||z_j||^2 <= 2 max(||z_i||, ||z_j||)^2, equal when "
                                 "||z_i|| = ||z_j||: the sharp constant is sqrt 2 (printed 2)",
                       domain="every d >= 1 and every z in (R^d)^3", ok=bool(blocks.ok and upper and equal),
                       details={"blocks (lemma3_dcos_norms)": blocks.ok, "a^2 + b^2 <= 2 m^2 (z3)": bool(upper),
                                "equality at a = b (sympy)": bool(equal)})


@functools.cache
def softmax_sharp() -> Certificate:
    """||diag(v) - v v^T|| = 2 v_1 v_2 <= 1/2 (softmax_curvature_interval: interval branch-and-bound on the simplex),
    with equality at v = (1/2, 1/2), i.e. u = 0 (sympy: 2 (1/2)(1/2) = 1/2): the printed 1/2 is sharp."""
    upper = mc.softmax_curvature_interval()
    half = sympy.Rational(1, 2)
    equal = 2 * half * (1 - half) == half
    return Certificate(method=f"{upper.method} + sympy", statement="2 v_1 v_2 <= 1/2 on the simplex, = 1/2 at v_1 = v_2",
                       domain="every v on the simplex of R^2 (every z: v = softmax(z_1^T z_2, z_1^T z_3))",
                       ok=bool(upper.ok and equal), complete=upper.complete,
                       details={"upper (interval)": upper.ok, "equality at v = (1/2, 1/2) (sympy)": bool(equal)})


def _witness_values() -> dict[str, bool]:
    """At the witness z_1 = C e_1, z_2 = C e_2, z_3 = -C e_2 (d = 2; zero padding keeps every norm and inner product,
    so every d >= 2), symbolic C > 0: u = 0, ||g||^2 = 6 C^2 and M = max_ij ||z_i|| ||z_j|| = C^2 (sympy)."""
    C = sympy.Symbol("C", positive=True)
    z = [sympy.Matrix(row) for row in sc.witness(C, 2)]
    g = sympy.Matrix.vstack(z[2] - z[1], -z[0], z[0])
    norms = [sympy.sqrt((v.T * v)[0]) for v in z]
    return {"u = 0": sympy.simplify((z[0].T * (z[2] - z[1]))[0]) == 0,
            "||g||^2 = 6 C^2": sympy.simplify((g.T * g)[0] - 6 * C ** 2) == 0,
            "M = C^2": sympy.simplify(sympy.Max(*[a * b for a in norms for b in norms]) - C ** 2) == 0}


@functools.cache
def curvature_sharp(leading: Fraction = Fraction(3, 2)) -> Certificate:
    """v1 v2 ||g||^2 <= 3/2 M for every z (z3: 4 v1 v2 <= 1, ||g||^2 = b^2 + c^2 - 2p + 2a^2, p^2 <= b^2 c^2, M >= each
    squared norm), with equality at the witness, where u = 0 (v1 v2 = 1/4), ||g||^2 = 6 C^2 and M = C^2 (sympy)."""
    steps = mc.lemma3_curvature_norms()  # the rank-one form v1 v2 g g^T and grad u's blocks
    w, a, b, c, p, M = z3.Reals("w a b c p M")
    upper = _unsat(w >= 0, 4 * w <= 1, a >= 0, b >= 0, c >= 0, p * p <= b * b * c * c, M >= a * a, M >= b * b,
                   M >= c * c, z3.Not(w * (b * b + c * c - 2 * p + 2 * a * a) <= z3.RealVal(str(leading)) * M))
    at_witness = _witness_values()
    return Certificate(method="z3 + sympy (symbolic C)",
                       statement="||(dcos12 dcos13) dv|| = v1 v2 ||g||^2 <= 3/2 max_ij ||z_i|| ||z_j||, equal at z_1 = C e_1, "
                                 "z_2 = C e_2, z_3 = -C e_2: the sharp constant is 3/2 (printed 8)",
                       domain="every d >= 1 and every z in (R^d)^3 (the equality case: every d >= 2)",
                       ok=bool(steps.ok and upper and all(at_witness.values())),
                       modulo=(mc.CAUCHY_SCHWARZ, mc.RANK_ONE_NORM),
                       details={"rank-one form (lemma3_curvature_norms)": steps.ok, "<= 3/2 M (z3)": bool(upper),
                                **{f"witness: {k}": v for k, v in at_witness.items()}})


@functools.cache
def hessian_steps_upper(leading: Fraction = Fraction(3, 2)) -> Certificate:
    """||Hess l|| <= 3/2 M + sqrt 2 for every z. M = max_ij ||z_i|| ||z_j|| = C_z^2 with C_z = max_i ||z_i||, and z
    lies in its own ball B^3(C_z): sharp_constants' upper certificate at C = C_z -- the Hessian's form, ||Hess u|| =
    sqrt 2, 0 <= sigma' <= 1/4, 0 < sigma < 1, ||g||^2 <= 6 C^2 (z3) and the triangle inequality composed (z3). The
    lower end lam(M) = (3M + sqrt(9M^2 + 8))/4 is sharp_constants.sharp_lower's, at M = C^2."""
    pieces = {"Hessian form": sc.hessian_form(), "sigma facts": sc.sigma_facts(), "||Hess u|| = sqrt 2": sc.hess_u_norm(),
              "||g||^2 <= 6 C_z^2 (z3)": sc.grad_norm_bound(), "composition (z3)": sc.composition_z3(leading)}
    return Certificate(method="sympy + z3",
                       statement="||Hess l|| <= 3/2 max_ij ||z_i|| ||z_j|| + sqrt 2 for every z (printed 2 + 8M): "
                                 "sharp_constants' bound on B^3(C) at C = max_i ||z_i||, where C^2 = M",
                       domain="every d >= 1 and every z in (R^d)^3",
                       ok=all(c_.ok for c_ in pieces.values()), complete=all(c_.complete for c_ in pieces.values()),
                       modulo=(mc.CAUCHY_SCHWARZ, mc.RANK_ONE_NORM, mc.NORM_TRIANGLE, mc.SPECTRAL_NORM),
                       details={k: c_.ok for k, c_ in pieces.items()})


@functools.cache
def quadratic_bound_upper() -> Certificate:
    """(12) with (1.5 C^2 + sqrt 2)/2 in place of (2 + 8C^2)/2 when z and z + z' lie in B^3: sup_{B^3} ||Hess l|| <=
    1.5 C^2 + sqrt 2 (sharp_constants.sharp_upper) and Taylor's theorem with integral remainder along [z, z + z'],
    which lies in the convex B^3. The smallest constant is at least lam((1 - e) C)/2 for every e > 0 (the witness's
    eigenvector at an interior point: sharp_constants.sharp_lower)."""
    upper = sc.sharp_upper()
    return Certificate(method=upper.method + " + Taylor's theorem",
                       statement="l(z+z') <= l(z) + <grad l(z), z'> + (1.5C^2 + sqrt 2)/2 ||z'||^2 for z, z + z' in B^3: "
                                 "the Hessian's certified bound on B^3 under Taylor's integral remainder",
                       domain="every d >= 1, C > 0, z and z + z' in B^3", ok=upper.ok, complete=upper.complete,
                       modulo=(*upper.modulo, mc.TAYLOR), details={"sup ||Hess l|| <= 1.5C^2 + sqrt 2": upper.ok})


def equality_triplets(families: Sequence[Any]) -> list[tuple[Any, Any]]:
    """The witness z_1 = C e_1, z_2 = C e_2, z_3 = -C e_2 (d = 2, step 0) at each radius of WITNESS_RADII, as a
    subject of each triplet family: every step bound above is attained there (the Hessian's lower end)."""
    out = []
    for family in families:
        for radius in WITNESS_RADII:
            z = np.array(sc.witness(radius, 2), dtype=float).tolist()
            out.append((family, family.from_json({"dims": {"d": 2}, "values": {"C": radius, "z": z, "z_next": z}})))
    return out

