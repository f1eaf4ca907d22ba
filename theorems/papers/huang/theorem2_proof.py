"""Coq proof of Huang et al.'s Theorem 2 (Main Result) on its printed domain (issue 32), ``coq/huang_theorem2.v``.

The slides print no proof. The script proves, for EVERY finite data distribution (n samples with masses, K
classes, finite augmentation distributions, any embedding and input dimension), every r > 0, L, sigma in (0, 1],
delta, eps >= 0:

* ``theorem2_main_part``: under the divergence condition with rho_max exactly as printed, every augmentation of
  every sample of (C^0_1 u ... u C^0_K) n S_eps is strictly closer to its class centre than to any other (G_f is
  right there; a tie would be a mistake);
* ``theorem2``: Err(G_f) <= (1 - sigma) + R_eps;
* the steps: ``scalar_rho`` (an inequality of real numbers: 2c + (1 - c) t + (1 - c) D^2/2 <= rho + sqrt(2 rho)
  whenever rho + sqrt(2 rho) < 2) and ``centre_lower`` (mu_k is a convex combination of norm-r vectors, the main
  part inside S_eps within L delta + 2 eps of f(x)).

What the proof found: the bound f(x)^T mu_k >= r^2 (1 - rho_max) that a direct argument would need fails (a sample
outside S_eps can pull mu_k by twice its mass, and rho_max charges R_eps/min_l p_l once), yet the theorem holds as
printed because the sqrt(2 rho_max) term leaves enough slack (``scalar_rho``).
"""

from __future__ import annotations

from numerics import coq
from numerics.certificate import Certificate
from theorems.papers.huang.plugin import PLUGIN

PACKAGE = "theorems.papers.huang"
SCRIPT = "huang_theorem2"
ALL_THEOREMS = ("scalar_rho", "centre_lower", "main_close", "theorem2_main_part", "theorem2")

MODEL = ("Coq: n samples with masses w x >= 0, classes lab x < K, each A(x) a finite distribution over m slots "
         "(q x i; uniform on A(x) is q = 1/|A(x)| on |A(x)| slots), augmented inputs X x i in R^e and embeddings "
         "F x i = f(X x i) in R^d; vectors are functions nat -> R, sums by recursion on their length, so every n, "
         "m, K, d and e are covered")
HYPOTHESES = ("||f(x')|| = r > 0 on every augmented input, f L-Lipschitz on them; Definition 1 with any main parts "
              "C^0_k (P[C^0_k] >= sigma P[C_k], sigma in (0, 1], d_A <= delta inside each); S_eps (any marking of "
              "eps-aligned samples: S_eps itself gives R_eps); min_l p_l > 0 (any positive lower bound of the class "
              "masses); Delta_mu (any Delta >= 1 - ||mu_k||^2/r^2 for every k); the strict divergence condition "
              "mu_l^T mu_k < r^2 (1 - rho_max - sqrt(2 rho_max) - Delta_mu/2) for l != k, rho_max = 2(1 - sigma) + "
              "R_eps/min_l p_l + sigma (L delta/r + 2 eps/r) as printed")


def script() -> str:
    """The text of ``coq/huang_theorem2.v`` (package data)."""
    return coq.packaged_script(PACKAGE, SCRIPT)


def check(theorems: tuple[str, ...], statement: str, domain: str, *, text: str | None = None,
          name: str = SCRIPT) -> Certificate:
    """coqc on the script (``text``: a restated copy, for tests of false statements) for ``theorems``; one coqc
    run serves every certificate of the script (``check_theorems`` names them all)."""
    text = script() if text is None else text
    return coq.check_script(name, text, theorems, statement, domain, complete=True, timeout=240.0,
                            coq_statements=coq.theorem_statements(text, theorems), check_theorems=ALL_THEOREMS)


def main_part_coq() -> Certificate:
    """The intermediate claim: G_f is right on (C^0_1 u ... u C^0_K) n S_eps under Theorem 2's hypotheses."""
    return check(("theorem2_main_part", "scalar_rho", "centre_lower", "main_close"),
                 "under Theorem 2's hypotheses, every augmentation x_i of every sample x in (C^0_1 u ... u C^0_K) n "
                 "S_eps satisfies ||f(x_i) - mu_{y(x)}|| < ||f(x_i) - mu_l|| for every class l != y(x): G_f(x) = y(x) "
                 "(no tie), so P[x in (C^0_1 u ... u C^0_K) n S_eps, G_f(x) != y(x)] = 0",
                 f"{HYPOTHESES}; {MODEL}")


def theorem2_coq() -> Certificate:
    """Theorem 2: Err(G_f) <= (1 - sigma) + R_eps, from the intermediate claim and Lemma 1's counting."""
    return check(("theorem2", "theorem2_main_part", "scalar_rho", "centre_lower", "main_close"),
                 "under Theorem 2's hypotheses and total mass 1, Err(G_f) = sum_x w_x err(x) <= (1 - sigma) + R_eps for "
                 "G_f reading any augmentation g(x) of each sample (the checker: the first) and every error "
                 "indicator err(x) in [0, 1] that is 0 where f(x_g(x)) is strictly closest to mu_{y(x)} (the checker's: "
                 "1 otherwise, a tie is a mistake)", f"{HYPOTHESES}; {MODEL}")


def scalar_rho_step() -> Certificate:
    """Proof step: the inequality of real numbers that absorbs the doubled pull of the samples outside S_eps."""
    return check(("scalar_rho",),
                 "for 0 <= a < 1, beta, t >= 0, 0 <= c <= min(1, a + beta), 0 <= D <= (1 - c) t + 2c and rho = 2a + "
                 "beta + (1 - a) t with rho + sqrt(2 rho) < 2: 2c + (1 - c) t + (1 - c) D^2/2 <= rho + sqrt(2 rho)",
                 "every real a, beta, t, c, D satisfying the hypotheses")


def centre_lower_step() -> Certificate:
    """Proof step: a nearest-centre mistake forces mu_k^T mu_l + r^2 Delta/2 >= r^2 (1 - 2c) - (1 - c) s r - ..."""
    return check(("centre_lower", "main_close"),
                 "for u of norm r, mu a convex combination of vectors of norm r, the good ones within s = L delta + "
                 "2 eps of u (main_close) and the others of weight c, and y of norm <= r with ||u - y|| <= D = "
                 "||u - mu||: D <= (1 - c) s + 2 c r and mu^T y + (r^2 - ||y||^2)/2 >= r^2 (1 - 2c) - (1 - c) s r - "
                 "(1 - c) D^2/2", f"every d, every finite convex combination; {MODEL}")


PLUGIN.step_certificate("huang.theorem2_scalar_rho", scalar_rho_step)
PLUGIN.step_certificate("huang.theorem2_centre_lower", centre_lower_step)
PLUGIN.step_certificate("huang.theorem2_main_part", main_part_coq)
