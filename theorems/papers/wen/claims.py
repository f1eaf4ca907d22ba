"""Claims of Wen & Li, "Toward understanding the feature learning process of self-supervised
contrastive learning" (``003_06cb9bda3a5102d9.txt``).

Exact claims (no training; Monte Carlo only as a cross-check, over 5 seeds): ``wen.lemma_b3``,
``wen.stage1_gradient``, ``wen.mask_decorrelation``. Dynamics claims (training runs on the sparse
coding model over 5 seeds, each configuration measured on the trained network and on its own
initialization, regime checks measured on each configuration): ``wen.theorem32``, ``wen.footnote3``,
``wen.theorem34``, ``wen.downstream``, ``wen.footnote1``. Every experiment returns measurements
(:class:`~theorems.Observation`, :class:`~theorems.Growth`,
certificates with their domain); the engine reads the verdict. The model is in ``model.py``, the exact
computations in ``exact.py``, the runs and the per-seed rules in ``dynamics.py``; the reconstruction of
every lost formula and each claim's logical form are in ``proofs_md/wen.*.md``.
"""

from __future__ import annotations

import contextlib
import functools
import math
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np
from threadpoolctl import threadpool_limits

from numerics.certificate import Certificate
from theorems import (exists, ExperimentClaim, ExperimentOutcome, forall, Growth, Kind,
                      markdown_table, median_interval_note, Observation, Prerequisite, Reading, RegimeCheck,
                      RunContext, save_figure, Source, subplots)
from theorems.papers.wen.plugin import PLUGIN
from theorems.papers.wen import dynamics as dy
from theorems.papers.wen import exact as ex
from theorems.papers.wen import model as wm
from theorems.papers.wen.model import Data
from training.cache import run_key

FILE = "003_06cb9bda3a5102d9.txt"
INIT = "the run's own initialization (w_i ~ N(0, I/d^2), with the trained network's bias rule)"


def source(numbering: str) -> Source:
    return Source(file=FILE, numbering=numbering, paper="Wen & Li")


@contextlib.contextmanager
def _one_thread() -> Iterator[None]:
    """BLAS on one thread (on 2 shared cores threaded BLAS stalls), torch likewise."""
    import torch  # heavy (1 s): only around the training runs

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with threadpool_limits(1):
            yield
    finally:
        torch.set_num_threads(threads)


def one_thread(fn: Callable[[RunContext], ExperimentOutcome]) -> Callable[[RunContext], ExperimentOutcome]:
    @functools.wraps(fn)
    def wrapped(ctx: RunContext) -> ExperimentOutcome:
        with _one_thread():
            return fn(ctx)
    return wrapped


def _clean(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _clean(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_clean(x) for x in v]
    if isinstance(v, np.ndarray):
        return _clean(v.tolist())
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return v.item()
    return v


def _regime_lines(checks: list[RegimeCheck]) -> list[str]:
    return markdown_table([(c.name, c.text, c.value, c.required, "yes" if c.holds else "**no**") for c in checks],
                          ["regime condition", "as the paper states or needs it", "measured", "required", "holds"])


def _mc_seeds(seed: int) -> list[int]:
    """The seeds of a Monte Carlo cross-check: the audit seed and the next ones (rules.MIN_SEEDS)."""
    return [seed + i for i in range(ex.MC_SEEDS)]


def _fmt(values: Any) -> str:
    if values is None:
        return "-"
    return ", ".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in values)


def _outcomes(holds: list[bool | None]) -> str:
    return "".join("+" if h else "-" if h is False else "?" for h in holds)


# == wen.lemma_b3 ===================================================================================
LEMMA_READINGS = {  # name: (uniform over the pairs, "with high probability")
    "literal": (False, "1/d"),
    "uniform over pairs": (True, "1/d"),
    "w.h.p. = 1 - exp(-log^2 d)": (True, "exp(-log^2 d)"),
}


@functools.lru_cache(maxsize=4)
def _lemma_b3_data(seed: int, quick: bool) -> dict[str, Any]:
    """The exact statistics of the Haar dictionaries (d1 = d/8) and of the coordinate contrast, and the
    Monte Carlo draws of 5 seeds (shared by the readings: they differ in the bound, not the masks)."""
    dims = ex.QUICK_LEMMA_DIMS if quick else ex.LEMMA_DIMS
    n_mc = 12 if quick else 40
    out: dict[str, Any] = {"dims": list(dims), "n_mc": n_mc, "haar": [], "contrast": []}
    for d in dims:
        M = Data(d=d, d1=ex.atoms_for(d)).dictionary()
        out["haar"].append({**ex.lemma_b3_stats(M), "draws": [ex.lemma_b3_draws(M, n_mc, s) for s in _mc_seeds(seed)]})
        C = ex.coordinate_dictionary(d, ex.atoms_for(d))
        out["contrast"].append({**ex.lemma_b3_stats(C), "draws": [ex.lemma_b3_draws(C, 2, seed)]})
    return out


def _inf_check(stats: dict[str, Any]) -> RegimeCheck:
    return RegimeCheck("||M_j||_inf small", "||M_j||_inf <= O~(1/sqrt d) (Definition 2.1, used by Lemma B.3)",
                       stats["inf_scaled"], f"max |M_kj| sqrt(d / log d) <= {ex.INF_LIMIT:g}",
                       stats["inf_scaled"] <= ex.INF_LIMIT)


def _lemma_b3_certificate() -> Certificate:
    cert = ex.certificate_lemma_b3()
    return Certificate(
        method="sympy (Rademacher signs; variance-proxy identity) + Hoeffding 1963 Thm 2 (cited)",
        statement="e_jj' = <M_j, (2D - I) M_j'> is a Rademacher sum with variance proxy s2_jj' <= ||M_j||_inf^2, so "
                  "P(|e_jj'| >= t) <= 2 exp(-t^2 / (2 s2_jj'))",
        domain="the identities symbolically at d = 4 (termwise, so for every d); the bound B(d) and its scaling "
               "computed for Haar dictionaries at the values of d in the table only -- the Õ(1/sqrt d) statement for "
               "every d is not machine-certified", ok=cert["holds"], details=cert, complete=False)


def lemma_b3_experiment(name: str) -> Callable[[RunContext], ExperimentOutcome]:
    uniform, whp = LEMMA_READINGS[name]
    delta_of, polylog = ex.WHP[whp]

    def lemma_b3(ctx: RunContext) -> ExperimentOutcome:
        """Lemma B.3 (part 1): the certified w.h.p. bound along d, with a Monte Carlo cross-check."""
        data = _lemma_b3_data(ctx.seed, ctx.quick)
        seeds = _mc_seeds(ctx.seed)
        observations, rows = [], []
        for family, stats_list in (("Haar (in regime)", data["haar"]), ("coordinate (outside)", data["contrast"])):
            for st in stats_list:
                d, delta = st["d"], delta_of(st["d"])
                bound = ex.lemma_b3_bound(st, delta, uniform)
                scaled = bound * math.sqrt(st["d"]) / polylog(st["d"])
                holds, tails = [], []
                for draw in st["draws"]:
                    n = len(draw["maxima"])
                    if uniform:  # the number of masks on which some pair exceeds the bound
                        k = int(np.sum(draw["maxima"] > bound))
                        tail = ex.binomial_tail(n, k, delta)
                    else:  # the pair exceeding its own per-pair bound most often (union over the pairs)
                        k = int(draw["pair_max_count"])
                        tail = min(1.0, st["pairs"] * ex.binomial_tail(n, k, 1.0 / d))
                    holds.append(tail >= ex.ALPHA)
                    tails.append(tail)
                row = {"family": family, "d": d, "d1": st["d1"], "inf_scaled": st["inf_scaled"],
                       "d_s2max": st["s2max"] * d, "bound": bound, "scaled": scaled,
                       "mc_median": float(np.median(np.concatenate([dr["maxima"] for dr in st["draws"]]))),
                       "mc_max": float(max(dr["maxima"].max() for dr in st["draws"])), "outcomes": _outcomes(holds),
                       "min_tail": min(tails)}
                rows.append(row)
                observations.append(Observation(
                    config={"dictionary": family, "d": d}, holds=tuple(holds),
                    seeds=tuple(seeds) if family.startswith("Haar") else (ctx.seed,),
                    regime=(_inf_check(st),), note="Monte Carlo cross-check of the certified bound",
                    values={"certified bound B(d)": bound, "B(d) sqrt(d)/polylog": scaled,
                            "MC max of max e": row["mc_max"]}))
        haar = [r for r in rows if r["family"].startswith("Haar")]
        growth = Growth(f"certified bound B(d) times sqrt(d) / {'sqrt(log d)' if whp == '1/d' else 'log d'}", "d",
                        tuple(float(r["d"]) for r in haar), tuple(r["scaled"] for r in haar),
                        bounded_slope=ex.GROWTH_LIMIT, unbounded_slope=2.5 * ex.GROWTH_LIMIT)
        contrast = [r for r in rows if not r["family"].startswith("Haar")]
        lines = [f"#### Lemma B.3 ({name}): |<M_j, (2D - I) M_j'>| <= Õ(1/sqrt d) w.h.p.", "",
                 f"Dictionaries: Haar columns, d1 = d/8 atoms; 'w.h.p.' read as probability >= 1 - delta, delta = "
                 f"{whp}; " + ("one event for every pair at once (union over the d1(d1+1)/2 pairs, j = j' included)" if uniform
                              else "for each pair (j, j') separately, as printed") + ". "
                 "Certified bound B(d): Hoeffding for the Rademacher sum e_jj' with the exact variance proxy "
                 "s2_jj' = sum_k M_jk^2 M_j'k^2. Cross-check: for each of 5 seeds, "
                 f"{data['n_mc']} masks per d; a seed fails when its exceedance count has probability < {ex.ALPHA:g} "
                 "under the certified bound (binomial tail" + ("" if uniform else ", union over the pairs") + ").", "",
                 *markdown_table([(r["family"], r["d"], r["d1"], r["inf_scaled"], r["d_s2max"], r["bound"], r["scaled"],
                                   r["mc_median"], r["mc_max"], r["outcomes"]) for r in rows],
                                 ["dictionary", "d", "d1", "||M||_max sqrt(d/log d)", "d max s2", "certified bound B(d)",
                                  "B(d) sqrt(d)/polylog", "MC median max|e|", "MC max", "per seed (+ consistent)"]), "",
                 "Outside the regime (atoms = coordinate vectors, ||M_j||_inf = 1): |e_jj| = 1 for every mask; the "
                 "premise is what makes the lemma true. The growth of the scaled bound along d is read by the engine "
                 f"(bounded: slope <= {ex.GROWTH_LIMIT:g}; unbounded: >= {2.5 * ex.GROWTH_LIMIT:g}).",
                 "Contrast scaled values: " + ", ".join(f"d = {r['d']}: {r['scaled']:.2f}" for r in contrast) + "."]
        worst = max(r["scaled"] for r in haar)
        return ExperimentOutcome(
            statistic=f"max over d of the certified bound B(d) times sqrt(d)/polylog ({name})", value=worst,
            effect_size=worst, interval=(min(r["scaled"] for r in haar), worst), seeds=seeds,
            interval_note="range of the scaled certified bound over d (exact, Hoeffding; no sampling)",
            parameters=_clean({"dims": data["dims"], "d1": "d/8", "delta": whp, "uniform": uniform,
                               "n_mc": data["n_mc"], "growth_limit": ex.GROWTH_LIMIT}),
            observations=observations, growth=[growth], certificates=[_lemma_b3_certificate()],
            markdown="\n".join(lines), map_axes=("d", "dictionary", f"Lemma B.3 over d ({name})"))

    lemma_b3.__name__ = f"lemma_b3_{name.split()[0].replace('.', '')}"
    return one_thread(lemma_b3)


# == wen.stage1_gradient =============================================================================
STAGE1_MODELS = ((64, 6), (128, 6), (400, 50))
RATIO_NONE_MIN = 0.8  # "approximately equal" growth without masks: dense/sparse rate >= 0.8 (Section A.5, Lemma F.1)


def _stage1_certificates() -> list[Certificate]:
    cm, cn = ex.certificate_mask_moment(), ex.certificate_noise_cancels()
    return [
        Certificate(method="sympy", statement="E_D[2D S 2(I - D)] = S - diag(S); E[4 D_k (1 - D_l)] = 1 - delta_kl",
                    domain="every d and every symmetric S (the identity is entrywise: the per-pair factor is certified "
                           "for k = l and k != l; the matrix form symbolically at d = 3) -- the identity only, not the "
                           "claim's rates, which are computed at the models of the table", ok=cm["holds"], details=cm,
                    complete=False),
        Certificate(method="sympy", statement="Sigma = p M M^T + s I: K = p (M M^T - diag M M^T) (the isotropic noise "
                    "cancels); u^T Sigma u = p |M^T u|^2 + s |u|^2", domain="M symbolic at d = 3, d1 = 2 (entrywise: "
                    "every d) -- the identity only", ok=cn["holds"], details=cn, complete=False)]


def stage1_gradient(ctx: RunContext) -> ExperimentOutcome:
    """Stage I (bias 0): the exact expected positive-pair gradient K w on the models of the table."""
    datas = [Data(d=d, d1=d1, kappa=k) for d, d1 in STAGE1_MODELS for k in (2.0, 4.0, 8.0)]
    rows = ex.stage1_table(datas)
    seeds = _mc_seeds(ctx.seed)
    n = 40_000 if ctx.quick else 100_000
    base = Data()
    mc = [ex.monte_carlo_moment(base, n, np.random.default_rng([s, 41])) for s in seeds]
    radius = ex.z_radius(base.d * (base.d + 1))  # both moments (masks, none), the distinct entries of each
    mc_ok = [m["max_z_masks"] <= radius and m["max_z_none"] <= radius for m in mc]
    observations = []
    for r in rows:
        exact_ratio = r["sigma2"] / (r["sigma2"] + r["p"])
        ok = (r["sparse_min_masks"] > 0 and r["dense_max_masks"] <= 1e-12 and r["top_share_masks"] >= 0.9
              and abs(r["ratio_none"] - exact_ratio) <= 1e-9 and r["ratio_none"] >= RATIO_NONE_MIN)
        r["exact"] = ok
        default = r["d"] == base.d and r["d1"] == base.d1 and r["kappa"] == base.kappa
        # an exact computation (no seeds); the model the Monte Carlo cross-checks cannot tell when the
        # sampled moments contradict the exact ones on some seed
        holds = ok if not default or all(mc_ok) else None
        observations.append(Observation(
            config={"model": f"d={r['d']}, d1={r['d1']}", "kappa": r["kappa"]}, holds=(holds,),
            regime=(RegimeCheck("dense noise dominating each sparse direction", "p << sigma^2 (Lemma F.1, Section A.5)",
                                r["kappa"], f"sigma^2/p >= {dy.KAPPA_MIN:g}", r["kappa"] >= dy.KAPPA_MIN),),
            values={"min sparse rate / p (masks)": r["sparse_min_masks"] / r["p"],
                    "max dense rate (masks)": r["dense_max_masks"], "top eigvec in span M": r["top_share_masks"],
                    "dense/sparse (none)": r["ratio_none"],
                    "MC cross-check per seed": _outcomes(mc_ok) if default else "-"},
            note="exact" + (f"; Monte Carlo cross-check per seed {_outcomes(mc_ok)}" if default else "")))
    inside = [r for r in rows if r["kappa"] >= dy.KAPPA_MIN]
    lines = ["#### Stage I (bias 0): the exact expected positive-pair gradient K w", "",
             "At b = 0 the symmetrized ReLU is the identity, f(x) = W x, and the positive-pair gradient of neuron "
             "w is x+ <w, x++> (stop-gradient on the second argument): its expectation is K w with K = E[x+ x++^T] "
             "= Sigma - diag(Sigma) with the masks and K = Sigma = p M M^T + sigma^2 I without augmentation.", "",
             f"Monte Carlo cross-check at the default model (d = 64, {n} samples per seed, seeds {seeds}): max |z| "
             f"over the entries, masks {_fmt([m['max_z_masks'] for m in mc])}, none "
             f"{_fmt([m['max_z_none'] for m in mc])}; radius {radius:.2f} (Bonferroni over the "
             f"{base.d * (base.d + 1)} distinct entries, familywise false alarm 1e-3 per seed).", "",
             *markdown_table([(f"d={r['d']}, d1={r['d1']}", r["kappa"], r["p"], r["sparse_min_masks"],
                               r["dense_max_masks"], r["leak_masks"] / max(r["sparse_min_masks"], 1e-300),
                               r["top_share_masks"], r["sparse_none"], r["dense_none"], r["ratio_none"],
                               "yes" if r["exact"] else "no") for r in rows],
                             ["model", "sigma^2/p", "p", "masks: min sparse rate M_j^T K M_j",
                              "masks: max dense rate (P K P)", "masks: leak ||P K M|| / sparse rate",
                              "masks: sparse share of top eigvec", "none: sparse rate p + sigma^2",
                              "none: dense rate sigma^2", "none: dense/sparse", "rule holds"]), "",
             "Rates per unit learning rate and per 1/tau. The rule of a model: with masks every sparse rate is > 0, "
             "the dense block is negative semidefinite (exactly -p P diag(MM^T) P), the top eigenvector lies in "
             f"span(M) (share >= 0.9); without masks dense/sparse = sigma^2/(sigma^2 + p) >= {RATIO_NONE_MIN} "
             "('approximately equal', Section A.5). sigma^2/p = 2 is outside the regime p << sigma^2 (shown, not "
             "counted)."]
    default = next(r for r in rows if r["d"] == 64 and r["d1"] == 6 and r["kappa"] == 4.0)
    return ExperimentOutcome(
        statistic="with masks: min sparse rate / p at the default model (d = 64, sigma^2/p = 4)",
        value=default["sparse_min_masks"] / default["p"], effect_size=default["dense_max_masks"],
        interval=(min(r["sparse_min_masks"] / r["p"] for r in inside), max(r["sparse_min_masks"] / r["p"] for r in inside)),
        seeds=seeds, interval_note="effect size: max dense rate with masks (exact, <= 0); interval: range of "
        "the min sparse rate / p over the in-regime models (exact)",
        parameters=_clean({"models": STAGE1_MODELS, "kappas": [2, 4, 8], "sigma": base.sigma,
                           "monte_carlo": mc, "z_radius": radius}),
        observations=observations, certificates=_stage1_certificates(), markdown="\n".join(lines),
        map_axes=("kappa", "model", "Stage-I rates"))


# == wen.mask_decorrelation ===========================================================================
#: part (i) of the sentence, three readings of "independent"
DECORRELATION = {
    "literal": "independent (unconditionally, as Section 4 prints it)",
    "conditioned on D": "independent given the mask D (Lemma D.4: 'conditioned on fixed D')",
    "uncorrelated along fixed directions": "E<u, 2D xi><v, 2(I-D) xi> = 0 for fixed u, v (the catalog's parenthesis)",
}


@functools.lru_cache(maxsize=4)
def _decorrelation_data(seed: int, quick: bool) -> dict[str, Any]:
    base = Data()
    seeds = _mc_seeds(seed)
    n = 40_000 if quick else 100_000
    mc = [ex.decorrelation_mc(base, n, np.random.default_rng([s, 51])) for s in seeds]
    dims = ex.QUICK_LEMMA_DIMS if quick else ex.LEMMA_DIMS
    rng = np.random.default_rng([seed, 52])
    n_mc = 60 if quick else 200
    rows = [ex.retention_row(Data(d=d, d1=ex.atoms_for(d)).dictionary(), base.sigma, n_mc, rng) for d in dims]
    contrast = [ex.retention_row(ex.coordinate_dictionary(d, ex.atoms_for(d)), base.sigma, 20, rng) for d in dims]
    return {"seeds": seeds, "mc": mc, "rows": rows, "contrast": contrast, "dims": list(dims),
            "cond": ex.certificate_conditional_independence(), "normcov": ex.certificate_norm_covariance()}


def mask_decorrelation_experiment(reading: str) -> Callable[[RunContext], ExperimentOutcome]:
    def mask_decorrelation(ctx: RunContext) -> ExperimentOutcome:
        """Feature decoupling: the masked noises of the two views, and the sparse signal in both views."""
        data = _decorrelation_data(ctx.seed, ctx.quick)
        base, mc, cond, normcov = Data(), data["mc"], data["cond"], data["normcov"]
        radius_dir = ex.z_radius(36)
        cross_ok = [m["max_z"] <= radius_dir for m in mc]
        cov_ok = [abs(m["norm_cov"] - m["norm_cov_exact"]) <= ex.z_radius(1) * m["norm_cov_se"] for m in mc]
        if reading == "literal":
            prop, agree = False, cov_ok  # Cov(norms) = -4 d sigma^4 != 0 (certified): not independent
            values = {"check": "Cov of the squared norms of the two views (exact)", "exact": ex.norm_covariance(base.d, base.sigma),
                      "Monte Carlo": _fmt([m["norm_cov"] for m in mc])}
            what = "exact: Cov(||2D xi||^2, ||2(I-D) xi||^2) = -4 d sigma^4 != 0 (sympy, every d, sigma > 0)"
            valid = normcov["holds"]
        elif reading == "conditioned on D":
            prop, agree = cond["diagonal_noise_decoupled"], cross_ok
            values = {"check": "cross-covariance given D (exact: 0)", "MC max z": _fmt([m["max_z"] for m in mc])}
            what = "exact: Cov(2D xi, 2(I-D) xi | D) = 4 D Sigma_xi (I - D) = 0 for diagonal Sigma_xi (sympy, every mask)"
            valid = True
        else:
            prop, agree = cond["diagonal_noise_decoupled"], cross_ok
            values = {"check": "cross-moment along fixed directions (exact: 0)", "MC max z": _fmt([m["max_z"] for m in mc])}
            what = "exact: E[2D xi xi^T 2(I - D)] = 4 E[D Sigma_xi (I - D)] = 0 for diagonal Sigma_xi"
            valid = True
        holds_i = (prop if valid and all(agree) else None)
        observations = [Observation(
            config={"part": "(i) noise of the two views", "dictionary": "-", "d": base.d}, holds=(holds_i,),
            values={**values, "MC cross-check per seed": _outcomes(agree)}, note=what)]
        for family, rows in (("Haar (in regime)", data["rows"]), ("coordinate (outside)", data["contrast"])):
            for r in rows:
                scaled = r["inf_norm"] * math.sqrt(r["d"] / math.log(r["d"]))
                observations.append(Observation(
                    config={"part": "(ii) signal in both views", "dictionary": family, "d": r["d"]},
                    holds=(r["masked_out"] <= 1.0 / r["d"],),
                    regime=(RegimeCheck("||M_j||_inf small", "||M_j||_inf <= O~(1/sqrt d) (Definition 2.1, Lemma B.3)",
                                        scaled, f"max |M_kj| sqrt(d / log d) <= {ex.INF_LIMIT:g}",
                                        scaled <= ex.INF_LIMIT),),
                    values={"P(completely masked)": r["masked_out"], "certified P(some e_jj >= 1/2)": r["cert_lost"],
                            "MC frequency": r["mc_lost"], "decoded in both views": r["decoded_both"]},
                    note="exact: P(an atom completely masked in one view) = 2 * 2^-|supp M_j| <= 1/d"))
        rows = data["rows"]
        growth = Growth("d times the certified P(some atom keeps less than half its coefficient in a view)", "d",
                        tuple(float(r["d"]) for r in rows), tuple(max(r["cert_lost"] * r["d"], 1e-300) for r in rows),
                        bounded_slope=0.0, unbounded_slope=2.5 * ex.GROWTH_LIMIT)
        certs = [Certificate(method="sympy", statement="4 D V (I - D) = 0 for every 0/1 diagonal D and diagonal V; not 0 "
                             "for a full symbolic covariance", domain="every mask at d = 3; entrywise (D_k (1 - D_k) = 0), "
                             "so every d -- part (i) only; part (ii) is certified at the values of d in the table only",
                             ok=cond["holds"], details=cond, complete=False)]
        if reading == "literal":
            certs = [Certificate(method="sympy", statement="Cov(4 D_k xi_k^2, 4 (1 - D_k) xi_k^2) = -4 sigma^4 per "
                                 "coordinate", domain="every d and sigma > 0 (coordinates independent)",
                                 ok=normcov["holds"], details=normcov, complete=False)]
        lines = [f"#### Feature decoupling ({reading}: {DECORRELATION[reading]}) and the sparse signal in both views",
                 "", "(i) Dense noise: D(I - D) = 0 for every 0/1 diagonal D, so Cov(2D xi, 2(I-D) xi | D) = 4 D Sigma_xi "
                 f"(I - D) = 0 for diagonal Sigma_xi (sympy, all 2^3 masks: {cond['diagonal_noise_decoupled']}; with a "
                 f"full symbolic covariance the product is not 0: {not cond['correlated_noise_decoupled']}): given D the "
                 "two masked noise vectors are independent Gaussians. Unconditionally they share D: uncorrelated along "
                 "fixed directions, but Cov(||2D xi||^2, ||2(I-D) xi||^2) = -4 d sigma^4 (sympy per coordinate: "
                 f"{normcov['per_coordinate']} with s = sigma^2), so not independent.",
                 f"Monte Carlo (d = 64, sigma = {base.sigma}, seeds {data['seeds']}): cross moments along 36 pairs of "
                 f"fixed directions, max |z| per seed {_fmt([m['max_z'] for m in mc])} (radius {radius_dir:.2f}); norm "
                 f"covariance per seed {_fmt([m['norm_cov'] for m in mc])} vs exact {mc[0]['norm_cov_exact']:.3f}.", "",
                 "(ii) Sparse signal in both views: the coefficient of z_j in <M_j, x+> is 1 + e_jj, in <M_j, x++> it is "
                 "1 - e_jj (e_jj = <M_j, (2D - I) M_j>). Exact: P(an atom completely masked in one view) = "
                 "2 * 2^-|supp M_j| (the printed exception, read as <= 1/d); certified: P(some atom has |e_jj| >= 1/2) "
                 "<= sum_j 2 exp(-1/(8 sum_k M_jk^4)), whose product with d is read along d by the engine.", "",
                 *markdown_table([(r["d"], r["d1"], r["inf_norm"], r["cert_lost"], r["mc_lost"], r["masked_out"],
                                   r["decoded_both"]) for r in rows],
                                 ["d", "d1", "||M||_max", "certified P(|e_jj| >= 1/2 some j)", "MC frequency",
                                  "P(completely masked)", "decoded in both views (worst atom)"]), "",
                 "Outside the regime (atoms = coordinate vectors): every atom lies in exactly one view "
                 + ", ".join(f"(d = {r['d']}: masked out {r['masked_out']:.2f}, decoded in both {r['decoded_both']:.2f})"
                             for r in data["contrast"]) + "."]
        return ExperimentOutcome(
            statistic="certified P(some atom loses half its signal in a view) at the largest d",
            value=rows[-1]["cert_lost"], effect_size=max(m["max_z"] for m in mc),
            interval=(min(r["mc_lost"] for r in rows), max(r["mc_lost"] for r in rows)), seeds=data["seeds"],
            interval_note="effect size: max |z| of the masked noise cross-moments over the seeds; interval: range of "
            "the Monte Carlo frequency of |e_jj| >= 1/2 over d",
            parameters=_clean({"dims": data["dims"], "sigma": base.sigma, "reading": reading,
                               "certificate": cond, "norm_covariance": normcov}),
            observations=observations, growth=[growth], certificates=certs, markdown="\n".join(lines),
            map_axes=("d", "dictionary", "Signal retention over d"))

    mask_decorrelation.__name__ = "mask_decorrelation_" + reading.split()[0]
    return one_thread(mask_decorrelation)


# == dynamics: helpers ================================================================================
def _history_plot(groups: list[tuple[str, list[dict[str, Any]], str]], path: Path, title: str) -> None:
    fig, axes = subplots(1, 2, figsize=(9, 3.4))
    for label, runs, colour in groups:
        for i, r in enumerate(runs):
            kw = {"label": label} if i == 0 else {}
            axes[0].plot(r["step"], r["share"], color=colour, alpha=0.8, lw=1.2, **kw)
            axes[1].plot(r["step"], r["norm"], color=colour, alpha=0.8, lw=1.2)
    axes[0].set_xlabel("SGD step")
    axes[0].set_ylabel("mean sparse share ||M^T w||^2 / ||w||^2")
    axes[0].set_ylim(0, 1.02)
    axes[1].set_xlabel("SGD step")
    axes[1].set_ylabel("mean ||w_i||")
    axes[0].legend(fontsize=7)
    fig.suptitle(title, fontsize=9)
    save_figure(fig, path, dpi=100)


def _seed_note(n: int) -> str:
    return median_interval_note(n) if n > 1 else "one seed: no interval over seeds"


def _setup_text(quick: bool) -> str:
    d, lm, ln = Data(), dy.MASKS, dy.NONE
    return (f"Default model: d = {d.d}, d1 = {d.d1}, sigma = {d.sigma}, sigma^2/p = {d.kappa:g} (p = {d.p:.5f}), "
            f"Haar M (seed {d.dict_seed}); m = {lm.m} neurons, w_i ~ N(0, (1/d)^2 I), tau = {lm.tau}, lambda = "
            f"{lm.lam}, lr = {lm.lr}, batch = 4d positive pairs ({lm.batch} at d = 64) with N = {lm.negatives} raw "
            f"negatives, {lm.steps} SGD steps; with masks the bias b_i = c sigma ||w_i|| is 0 for the first "
            f"{lm.stage1} steps (stage I), rises linearly to c over the next {lm.ramp} (stage II) and is then held "
            f"(stage III; default c = {lm.bias}); without augmentation b = {ln.bias} (Lemmas F.1, F.2). Seeds: "
            f"{dy.QUICK_SEEDS if quick else dy.N_SEEDS} per configuration, starting at the audit seed. Every rule is "
            f"also measured on {INIT}: where it already holds there, the configuration is uninformative.")


def _learner_for(data: Data, base: wm.Learner) -> wm.Learner:
    """Batch = 4 d positive pairs ('fixed ratios': the gradient noise per step is kept at the
    d = 64 level; Fact A.1 takes poly(d) samples per step)."""
    return wm.with_(base, batch=4 * data.d)


def _cfg(data: Data, base: wm.Learner) -> dy.Config:
    return dy.Config(data, _learner_for(data, base))


def _grid(kind: str, quick: bool) -> list[dy.Config]:
    grids = {"masks": dy.masks_grid, "none": dy.none_grid, "footnote": dy.footnote_grid}
    return [_cfg(c.data, c.learner) for c in grids[kind](quick)]


def _default(kind: str) -> dy.Config:
    return _cfg(Data(), dy.MASKS if kind == "masks" else dy.NONE)


def _in_regime(data: Data) -> bool:
    return all(c.holds for c in dy.model_checks(data))


def _runs_needed(kind: str, quick: bool, seed: int) -> list[Prerequisite]:
    """The runs a claim of this section trains (the configurations its exact model checks admit, as
    _none_obs, _masks_obs and downstream select them), as prerequisites of a parallel audit."""
    if kind in ("none", "bias"):
        cfgs = _grid("none", quick) if kind == "none" else [_cfg(c.data, c.learner) for c in dy.bias_grid(quick)]
        cfgs = [c for c in cfgs if c.learner.bias <= 0 or _in_regime(c.data)]
    elif kind in ("masks", "footnote"):
        cfgs = _grid("masks", quick) if kind == "masks" else [_default("masks"), *_grid("footnote", quick)]
        cfgs = [c for c in cfgs if _in_regime(wm.with_(c.data, noise="isotropic", excess=0.0)
                                              if kind == "footnote" else c.data)]
    else:  # downstream: (masks, none) pairs whose model is in the regime
        cfgs = [_cfg(c.data, c.learner) for pair in dy.downstream_pairs(quick) for c in pair
                if _in_regime(_cfg(pair[0].data, pair[0].learner).data)]
    runs = [wm.Run(c.data, c.learner, s) for c in cfgs for s in dy.seeds(seed, quick)]
    return [Prerequisite(f"wen-{run_key(r.spec())}", dy.evaluate, (r,), 2.0) for r in runs]


@functools.lru_cache(maxsize=64)
def _raw(data: Data, seed: int) -> dict[str, float]:
    """The raw-input probes of one seed's probe data (the trivial baseline of a linear probe)."""
    return dy.raw_baseline(data, seed)


def _table(observations: list[Observation], keys: list[str]) -> list[str]:
    """Configurations with their per-seed outcomes, at-init outcome and measured values (no verdicts: the
    engine appends the verdict map)."""
    return markdown_table([(", ".join(f"{k}={v}" for k, v in o.config.items()), _outcomes(list(o.holds)),
                            "-" if o.at_init is None else ("**holds**" if o.at_init else "fails"),
                            *(o.values.get(k, "-") for k in keys),
                            "yes" if all(c.holds for c in o.regime) else
                            "no: " + ", ".join(c.name for c in o.regime if not c.holds)) for o in observations],
                          ["configuration", "per seed (+ holds, - fails, ? cannot tell)", "at init", *keys, "in regime"])


# == wen.theorem32, wen.footnote3 ========================================================================
_RULE_32 = ("Per sample x = Mz + xi with z != 0 (4000 samples): the active neurons of f(x) and, over them, the "
            "signal part ||(W M z)_active|| and the noise part ||(W xi)_active|| (at b = 0 all neurons are active "
            "and these are ||W M z|| and ||W xi||). A seed holds when the 0.9-quantile of signal/noise is < 1 (w.h.p. "
            "the noise part exceeds the signal part), fails when the median is > 1, and cannot tell in between.")
T32_RULES = ("representation", "weights", "representation and probes")


def _t32_outcome(rule: str, r: dict[str, Any], raw: dict[str, float], init: bool = False) -> bool | None:
    """One seed under a reading of "the sparse signal overwhelmed by the dense noise": the per-sample
    representation split (Theorem 3.2 as printed), the learned weights (the catalog: "features" =
    weights, Section 2.2), or the split and Corollary 3.3's failing probes (footnote 3's "our results")."""
    pre = "init_" if init else ""
    if rule == "weights":
        return r[pre + "dense_share"] > 0.5
    out = dy.theorem32_outcome(r[pre + "ratio_q50"], r[pre + "ratio_q90"])
    if rule == "representation and probes":
        probes = dy.corollary33(r[pre + "r2"], r[pre + "acc"], raw)
        return False if not probes else out
    return out


def _none_obs(cfgs: list[dy.Config], seeds: list[int], rule: str
              ) -> tuple[list[Observation], dict[dy.Config, list[dict[str, Any]]]]:
    """Theorem 3.2's rule per configuration, on the trained runs and on their initialization. A raised
    bias outside the model's regime is not trained (it could not be evidence either way)."""
    observations, results = [], {}
    for cfg in cfgs:
        config = {"d": cfg.data.d, "kappa": cfg.data.kappa, "bias": cfg.learner.bias}
        model = dy.model_checks(cfg.data)
        if cfg.learner.bias > 0 and not all(c.holds for c in model):
            observations.append(Observation(config=config, holds=(), regime=tuple(model),
                                            note="not run: outside the regime by the exact model checks"))
            continue
        runs = dy.runs_of(cfg, seeds)
        results[cfg] = runs
        raws = [_raw(cfg.data, s) for s in seeds] if rule == "representation and probes" else [{}] * len(seeds)
        init = [_t32_outcome(rule, r, raw, init=True) for r, raw in zip(runs, raws)]
        regime = dy.checks_none(cfg, runs) + (dy.raw_checks(cfg.data) if rule == "representation and probes" else [])
        observations.append(Observation(
            config=config, holds=tuple(_t32_outcome(rule, r, raw) for r, raw in zip(runs, raws)), seeds=tuple(seeds),
            at_init=any(o is True for o in init), baseline=INIT, regime=tuple(regime),
            values={"q50": dy.mean(runs, "ratio_q50"), "q90": dy.mean(runs, "ratio_q90"),
                    "q90 at init": dy.mean(runs, "init_ratio_q90"), "dense share": dy.mean(runs, "dense_share"),
                    "dense share at init": dy.mean(runs, "init_dense_share"), "R^2": dy.mean(runs, "r2"),
                    "acc": dy.mean(runs, "acc"), "init holds": f"{sum(o is True for o in init)}/{len(init)}"}))
    return observations, results


_T32_KEYS = ["q50", "q90", "q90 at init", "dense share", "dense share at init", "R^2", "acc", "init holds"]


def theorem32_experiment(rule: str) -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def theorem32(ctx: RunContext) -> ExperimentOutcome:
        """Theorem 3.2: trained without augmentation (b = 0), over the models of the map."""
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, results = _none_obs(_grid("none", ctx.quick), seeds, rule)
        default = _default("none")
        base_runs = results[default]
        growth = []
        trend = [c for c in results if c.data.kappa == default.data.kappa and c.data.d in dy.TREND_DIMS]
        trend.sort(key=lambda c: c.data.d)
        trend = [c for c in trend if all(r.holds for r in dy.checks_none(c, results[c]))]  # inside the regime only
        if rule == "representation" and len(trend) >= 3:  # "o(1)": the ratio must not grow with d
            growth.append(Growth("0.9-quantile of signal/noise of f(x) (mean over seeds)", "d",
                                 tuple(float(c.data.d) for c in trend),
                                 tuple(dy.mean(results[c], "ratio_q90") for c in trend),
                                 bounded_slope=0.0, unbounded_slope=2.5 * ex.GROWTH_LIMIT))
        rule_text = {"representation": _RULE_32 + " 'o(1)': the 0.9-quantile (mean over seeds) along d = "
                                       f"{', '.join(map(str, dy.TREND_DIMS))} must not grow (log-log slope <= 0), "
                                       "read on the values of d inside the regime when there are at least 3 of them "
                                       f"(here: {', '.join(str(c.data.d) for c in trend) or 'none'}).",
                     "weights": "Catalog reading ('the learned features are dominated by the dense noise', features = "
                                "the weights, Section 2.2): a seed holds when more than half of ||W||_F^2 lies outside "
                                "span(M)."}[rule]
        lines = [f"#### Theorem 3.2 ({rule}): without augmentation the sparse signal is overwhelmed by the dense noise",
                 "", _setup_text(ctx.quick), "",
                 "Every run is trained at bias b = 0, as the proof trains without augmentation (Lemmas F.1, F.2; "
                 "footnote 4: 'the bias will decrease if no augmentation is used'); footnote 3's raised biases are the "
                 "separate claim wen.footnote3.", "", rule_text, "",
                 "Regime of the default configuration:", *_regime_lines(dy.checks_none(default, base_runs)), "",
                 *_table(observations, _T32_KEYS),
                 "", "Trend along d at init (q90, mean over seeds): " + ", ".join(
                     f"d = {c.data.d}: {dy.mean(results[c], 'init_ratio_q90'):.3f}" for c in trend) + "."]
        if ctx.out_dir is not None and rule == "representation":
            _history_plot([("none (b = 0)", base_runs, "tab:red"),
                           ("masks (c = 2.5)", dy.runs_of(_default("masks"), seeds), "tab:blue")],
                          Path(ctx.out_dir) / "wen.theorem32.png", "Wen & Li: default model, with and without masks")
            lines += ["", "![training history](wen.theorem32.png)"]
        q90 = np.array([r["ratio_q90"] for r in base_runs])
        return ExperimentOutcome(
            statistic="0.9-quantile over samples (z != 0) of ||signal part|| / ||noise part|| of f(x), default "
            "configuration, mean over seeds", value=float(q90.mean()), effect_size=float(np.median(1 - q90)),
            interval=(float((1 - q90).min()), float((1 - q90).max())), seeds=seeds,
            interval_note=_seed_note(len(seeds)) + "; effect = 1 - q90 (> 0: the noise part dominates w.h.p.)",
            parameters=_clean(dy.parameters()), observations=observations, growth=growth,
            regime=dy.checks_none(default, base_runs), markdown="\n".join(lines),
            map_axes=("kappa", "d", "Theorem 3.2 (b = 0)"))

    theorem32.__name__ = "theorem32_" + rule.split()[0]
    return theorem32


def footnote3_experiment(rule: str) -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def footnote3(ctx: RunContext) -> ExperimentOutcome:
        """Footnote 3: raised biases without augmentation, judged by Theorem 3.2's rule."""
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, results = _none_obs([_cfg(c.data, c.learner) for c in dy.bias_grid(ctx.quick)], seeds, rule)
        biased = [(cfg, runs) for cfg, runs in results.items() if cfg.learner.bias > 0]
        worst_cfg, worst = max(biased, key=lambda item: dy.mean(item[1], "ratio_q50"))
        q50 = np.array([r["ratio_q50"] for r in worst])
        extra = ("" if rule == "representation" else " Reading 'our results = Theorem 3.2 and Corollary 3.3': a seed "
                 "also fails when the probes on the features beat the raw-input probes by more than "
                 f"{dy.TOL} or leave the failing levels (wen.downstream's Corollary 3.3 rule).")
        lines = ["#### Footnote 3: without augmentation, 'the biases can be tuned arbitrarily as long as the neurons "
                 "are not killed. It will not affect our results.'", "", _setup_text(ctx.quick), "",
                 "The no-augmentation learner with the bias threshold raised as with masks (b_i = c sigma ||w_i|| after "
                 "stage I, c = 0, 1.5, 2.5), judged by Theorem 3.2's rule. " + _RULE_32 + extra + " The footnote "
                 "quantifies over every bias that keeps the neurons alive (checked: every neuron active on >= "
                 f"{dy.ALIVE_MIN:g} of the samples), so the map is read 'for all'.", "",
                 f"Regime of the largest-median configuration ({worst_cfg.label()}):",
                 *_regime_lines(dy.checks_none(worst_cfg, worst)), "", *_table(observations, _T32_KEYS)]
        return ExperimentOutcome(
            statistic="median over samples (z != 0) of ||signal part|| / ||noise part|| of f(x), at the raised bias "
            "where it is largest, mean over seeds", value=float(q50.mean()),
            effect_size=float(np.median(1 - q50)), interval=(float((1 - q50).min()), float((1 - q50).max())),
            seeds=seeds, interval_note=_seed_note(len(seeds)) + "; effect = 1 - median (< 0: the signal part exceeds "
            "the noise part for most samples)", parameters=_clean(dy.parameters()), observations=observations,
            markdown="\n".join(lines),  # the regime is each configuration's own (a biased run may kill neurons)
            map_axes=("bias", "kappa", "Footnote 3 (no augmentation)"))

    footnote3.__name__ = "footnote3_" + rule.split()[0]
    return footnote3


# == wen.theorem34, wen.footnote1 ========================================================================
WHEN = {"some": "some stage-III iterate T (as printed: 'for some iterations T')",
        "every": "every logged stage-III iterate", "final": "the final iterate (the end of training)"}


def _masks_obs(cfgs: list[dy.Config], seeds: list[int], when: str, base_model: bool = False
               ) -> tuple[list[Observation], dict[dy.Config, list[dict[str, Any]]]]:
    """Theorem 3.4's rule per configuration, at the stage-III iterates ``when`` says and at the run's
    initialization. ``base_model``: the model checks read the isotropic part of the noise (footnote 1
    itself allows directions with larger variance than sigma^2)."""
    observations, results = [], {}
    for cfg in cfgs:
        config = {"bias": cfg.learner.bias, "setting": f"d={cfg.data.d} k={cfg.data.kappa:g}"
                  + ("" if cfg.data.noise == "isotropic" else f" {cfg.data.noise}"),
                  "noise": cfg.data.noise, "excess": cfg.data.excess}
        model = dy.model_checks(wm.with_(cfg.data, noise="isotropic", excess=0.0) if base_model else cfg.data)
        if not all(c.holds for c in model):
            observations.append(Observation(config=config, holds=(), regime=tuple(model),
                                            note="not run: outside the regime by the exact model checks"))
            continue
        runs = dy.runs_of(cfg, seeds)
        results[cfg] = runs
        d1, k = cfg.data.d1, wm.needed_per_atom(cfg.learner.m, cfg.data.d1)
        init = [dy.theorem34_at_init(r, d1, k) for r in runs]
        observations.append(Observation(
            config=config, holds=tuple(dy.stage3_outcome(r, d1, k, when) for r in runs), seeds=tuple(seeds),
            at_init=any(init), baseline=INIT,
            regime=(*model, dy.width_check(cfg.learner.m, d1), dy.alive_check(runs, cfg.learner)),
            values={"k": k, "min singletons per atom": _fmt([r["min_count"] for r in runs]),
                    "atoms covered": _fmt([r["covered"] for r in runs]),
                    "dense share": _fmt([round(r["dense_share"], 3) for r in runs]),
                    "stage-III min count (min over T)": _fmt([int(min(r["s3_min_count"])) for r in runs]),
                    "dense share at init": dy.mean(runs, "init_dense_share"),
                    "noise fire": dy.mean(runs, "noise_fire")}))
    return observations, results


_T34_KEYS = ["k", "min singletons per atom", "atoms covered", "dense share", "stage-III min count (min over T)",
             "dense share at init", "noise fire"]


def _rule34(k: int, m: int, d1: int) -> str:
    return (f"A neuron is a singleton on atom j when <w, M_j>^2 >= {wm.SINGLETON} ||w||^2. A seed holds at an iterate "
            f"when every atom has >= k = ceil(m / (4 d1)) singleton neurons ('Omega(m/d1)', checker-derived constant "
            f"1/4; k = {k} at m = {m}, d1 = {d1}) and at most {dy.DENSE_MAX:.0%} of ||W||_F^2 lies outside span(M); "
            f"fails when an atom has no singleton neuron (no constant of Omega(m/d1) helps) or more than "
            f"{dy.DENSE_FAIL:.0%} lies outside span(M); cannot tell otherwise.")


def theorem34_experiment(when: str) -> Callable[[RunContext], ExperimentOutcome]:
    @one_thread
    def theorem34(ctx: RunContext) -> ExperimentOutcome:
        """Theorem 3.4: trained with the masks and a rising bias, over the map of models and thresholds."""
        seeds = dy.seeds(ctx.seed, ctx.quick)
        observations, results = _masks_obs(_grid("masks", ctx.quick), seeds, when)
        default = _default("masks")
        base = results[default]
        k = wm.needed_per_atom(default.learner.m, default.data.d1)
        lines = [f"#### Theorem 3.4 at {WHEN[when]}: atoms learned by singleton neurons, dense features suppressed", "",
                 _setup_text(ctx.quick), "", _rule34(k, default.learner.m, default.data.d1),
                 f" Stage-III iterates: steps {', '.join(str(int(s)) for s in base[0]['s3_step'])}.", "",
                 "Regime of the default configuration:", *_regime_lines(dy.checks_masks(default, base)), "",
                 *_table(observations, _T34_KEYS),
                 "", "(noise fire: fraction of (sample, neuron) pairs active on the noise xi alone.)"]
        mins = np.array([r["min_count"] for r in base], dtype=float)
        return ExperimentOutcome(
            statistic="min over atoms of the number of singleton neurons at the final iterate, default "
            "configuration, mean over seeds", value=float(mins.mean()), effect_size=float(np.median(mins - k)),
            interval=(float((mins - k).min()), float((mins - k).max())), seeds=seeds,
            interval_note=_seed_note(len(seeds)) + f"; effect = min count - k (k = {k}; >= 0: every atom has "
            "Omega(m/d1) singleton neurons)", parameters=_clean(dy.parameters()), observations=observations,
            regime=dy.checks_masks(default, base), markdown="\n".join(lines),
            map_axes=("bias", "setting", f"Theorem 3.4 ({when} iterate)"))

    theorem34.__name__ = f"theorem34_{when}"
    return theorem34


FOOTNOTE1 = {"all": ("diagonal", "coordinate", "dense"), "independent coordinates": ("diagonal", "coordinate")}


def footnote1_experiment(family: str) -> Callable[[RunContext], ExperimentOutcome]:
    noises = FOOTNOTE1[family]

    @one_thread
    def footnote1(ctx: RunContext) -> ExperimentOutcome:
        """Footnote 1: Theorem 3.4's rule with non-spherical noise (the noise variants of the map)."""
        seeds = dy.seeds(ctx.seed, ctx.quick)
        variants = [c for c in _grid("footnote", ctx.quick) if c.data.noise in noises]
        observations, results = _masks_obs(variants, seeds, "some", base_model=True)
        exact = ex.stage1_table([c.data for c in [_default("masks"), *variants]])
        iso, _ = _masks_obs([_default("masks")], seeds, "some")
        lines = ["#### Footnote 1: non-spherical noise, directions with larger variance (with masks)", "",
                 _setup_text(ctx.quick), "",
                 "Noise variants (all with the default sigma^2/p = 4 on the isotropic part): diagonal = independent "
                 "coordinates with variances sigma^2 (1 + e)^u_k / mean, u_k evenly spread in [-1, 1] (same mean "
                 "variance, ratio (1 + e)^2 between the extremes); coordinate = one coordinate with variance (1 + e) "
                 "sigma^2; dense = one delocalized direction u (orthogonal to span M) with variance (1 + e) sigma^2. "
                 f"Variants read here: {', '.join(noises)}. Each configuration is judged by the Theorem 3.4 rule at "
                 "some stage-III iterate (see wen.theorem34). " + _rule34(2, dy.MASKS.m, Data().d1), "",
                 "The exact stage-I rates predict the outcome: with masks K = p(MM^T - diag MM^T) + (Sigma_xi - diag "
                 "Sigma_xi); a diagonal Sigma_xi cancels exactly, a spike e sigma^2 u u^T adds the dense rate e sigma^2 "
                 "(1 - sum_k u_k^4).", "",
                 *markdown_table([(r["noise"], r["excess"], r["sparse_min_masks"], r["dense_max_masks"],
                                   r["top_share_masks"]) for r in exact],
                                 ["noise", "excess e", "exact sparse rate (masks)", "exact max dense rate (masks)",
                                  "top eigvec in span M"]), "",
                 "The isotropic model (not a witness of a non-spherical one; shown for comparison):",
                 *_table(iso, _T34_KEYS), "", "The variants:", *_table(observations, _T34_KEYS)]
        dense = np.array([r["dense_share"] for runs in results.values() for r in runs])
        return ExperimentOutcome(
            statistic="largest dense share of ||W||^2 over the noise variants and seeds (final iterate)",
            value=float(dense.max()), effect_size=float(np.median(dy.DENSE_MAX - dense)),
            interval=(float((dy.DENSE_MAX - dense).min()), float((dy.DENSE_MAX - dense).max())), seeds=seeds,
            interval_note=_seed_note(len(seeds)) + f"; effect = {dy.DENSE_MAX} - dense share, over every run",
            parameters=_clean({**dy.parameters(), "variants": [c.data.noise + f" x{c.data.excess:g}" for c in variants]}),
            observations=observations, regime=dy.checks_masks(_default("masks"), dy.runs_of(_default("masks"), seeds)),
            markdown="\n".join(lines), map_axes=("excess", "noise", "Footnote 1"))

    footnote1.__name__ = "footnote1_" + family.split()[0]
    return footnote1


# == wen.downstream ======================================================================================
@one_thread
def downstream(ctx: RunContext) -> ExperimentOutcome:
    """Corollaries 3.3 and 3.5: linear probes on the frozen features, against the raw-input probes."""
    seeds = dy.seeds(ctx.seed, ctx.quick)
    observations, base = [], None
    for mcfg, ncfg in dy.downstream_pairs(ctx.quick):
        mcfg, ncfg = _cfg(mcfg.data, mcfg.learner), _cfg(ncfg.data, ncfg.learner)
        data = mcfg.data
        setting = f"d={data.d} d1={data.d1} k={data.kappa:g} c={mcfg.learner.bias:g}"
        model = dy.model_checks(data)
        checks = [*model, *dy.raw_checks(data)]
        if not all(c.holds for c in model):
            for cor in ("3.5 (masks)", "3.3 (none)"):
                observations.append(Observation(config={"setting": setting, "corollary": cor}, holds=(),
                                                regime=tuple(checks), note="not run"))
            continue
        aug, none = dy.runs_of(mcfg, seeds), dy.runs_of(ncfg, seeds)
        raws = [_raw(data, s) for s in seeds]
        for cor, runs, learner, test in (("3.5 (masks)", aug, mcfg.learner, dy.corollary35),
                                         ("3.3 (none)", none, ncfg.learner, dy.corollary33)):
            regime = [*checks, dy.alive_check(runs, learner)] + ([dy.width_check(learner.m, data.d1)]
                                                                if learner.augment else [])
            init = [test(r["init_r2"], r["init_acc"], raw) for r, raw in zip(runs, raws)]
            observations.append(Observation(
                config={"setting": setting, "corollary": cor}, holds=tuple(test(r["r2"], r["acc"], raw)
                                                                           for r, raw in zip(runs, raws)),
                seeds=tuple(seeds), at_init=any(init), baseline=INIT + " and the raw input x",
                regime=tuple(regime),
                values={"R^2": _fmt([r["r2"] for r in runs]), "acc": _fmt([r["acc"] for r in runs]),
                        "R^2 at init": _fmt([r["init_r2"] for r in runs]),
                        "acc at init": _fmt([r["init_acc"] for r in runs]),
                        "raw R^2": _fmt([raw["r2"] for raw in raws]), "raw acc": _fmt([raw["acc"] for raw in raws]),
                        "oracle raw R^2": raws[0]["oracle_r2"], "oracle raw acc": wm.oracle_raw_accuracy(data)}))
        if base is None:  # the first pair is the default: the downstream model, masks c = 2.5 / none b = 0
            base = (aug, raws, checks)
    base_aug, base_raws, regime = base
    gap = np.array([a["r2"] - raw["r2"] for a, raw in zip(base_aug, base_raws)])
    d = dy.DOWNSTREAM_DATA
    lines = ["#### Corollaries 3.3 and 3.5: linear probes on the frozen features, against raw inputs and chance", "",
             _setup_text(ctx.quick),
             f"Downstream model (the default pair): the same with d1 = {d.d1} atoms and m = {dy.DOWNSTREAM_M} "
             f"neurons (sigma^2 d1 = {d.sigma ** 2 * d.d1:g}), where a linear classifier on raw inputs fails.", "",
             f"Tasks (Definition 3.1): y = <a, z>, |a_j| in [0.5, 1.5], random signs; regression by ridge (test R^2, "
             f"chance 0) and classification of sign(y) among y != 0 by logistic regression (test accuracy, chance "
             f"0.5); {wm.N_PROBE} training and {wm.N_PROBE} test samples; raw baseline: the same probes on x (per "
             f"seed), and the oracle linear predictors. Corollary 3.5 holds in a seed when both probes on the features "
             f"learned with masks beat the raw-input probes by more than {dy.TOL} and leave the failing levels "
             f"(R^2 > {dy.RAW_R2_MAX}, error < {dy.RAW_ERR_MIN}); Corollary 3.3 when neither probe on the features "
             f"learned without augmentation beats the raw-input probes by more than {dy.TOL} and both stay at failing "
             f"levels (R^2 <= {dy.RAW_R2_MAX}, error >= {dy.RAW_ERR_MIN}). Each corollary is also measured on the "
             "features of the untrained network: at b = 0 those are a random linear map of x, so the probes equal the "
             "raw-input probes and Corollary 3.3 already holds there (uninformative).", "",
             "Regime of the default pair:", *_regime_lines(regime), "",
             *_table(observations, ["R^2", "acc", "R^2 at init", "acc at init", "raw R^2", "raw acc"])]
    return ExperimentOutcome(
        statistic="ridge R^2 on the features learned with masks, default pair, mean over seeds",
        value=float(np.mean([a["r2"] for a in base_aug])), effect_size=float(np.median(gap)),
        interval=(float(gap.min()), float(gap.max())), seeds=seeds,
        interval_note=_seed_note(len(seeds)) + "; effect = R^2(masks) - R^2(raw input), per seed",
        parameters=_clean({**dy.parameters(), "downstream_data": d, "downstream_m": dy.DOWNSTREAM_M}),
        observations=observations, regime=regime, markdown="\n".join(lines),
        map_axes=("corollary", "setting", "Corollaries 3.3, 3.5"))


# == registration ============================================================================================
MODEL = ("Definition 2.1 models x = Mz + xi: M d x d1 column-orthonormal with ||M_j||_inf <= Õ(1/sqrt d), z_j i.i.d. "
         "symmetric with P(z_j != 0) = p, xi ~ N(0, sigma^2 I), p << sigma^2 = o(1)")
WHP_OVER_MASKS = "masks D ~ 𝒟 outside an event of probability <= 1/d ('with high probability', read as 1 - 1/d)"
C_M = forall("C_M", "the constant inside the Õ of ||M_j||_inf <= Õ(1/sqrt d) (Appendix A.1: 'the constant inside the "
             "notation of Definition 2.1')")
C_LEMMA = exists("C", "C > 0, k >= 0", depends_on=("C_M",),
                 asymptotic="Õ(1/sqrt d) = C log^k(d) / sqrt d (Notations: universal constants and polylog factors "
                            "of d)")

PLUGIN.claim(ExperimentClaim(
    id="wen.lemma_b3", kind=Kind.INEQUALITY, source=source("Lemma B.3 (part 1)"),
    experiment=lemma_b3_experiment("literal"), quantifier="settings",
    prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", MODEL.split(":")[0] + " dictionaries "
            "with constant C_M"), C_LEMMA, forall("j, j'", "pairs of atoms in [d1] (j = j' included)"),
            forall("D", WHP_OVER_MASKS + ", for this pair")),
    literal="'for each j, j' in [d1], with high probability we have [the bound]': a w.h.p. event per pair (j, j'), "
            "probability >= 1 - 1/d",
    readings=(
        Reading("uniform over pairs", "the catalog row 'for every pair of dictionary atoms' and the way the proofs "
                "use the lemma (all pairs at once, Lemma C.2): one w.h.p. event for every pair (a union bound)",
                experiment=lemma_b3_experiment("uniform over pairs"),
                prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", "dictionaries with "
                        "constant C_M"), C_LEMMA, forall("D", WHP_OVER_MASKS + ", one event for all pairs"),
                        forall("j, j'", "pairs of atoms in [d1]"))),
        Reading("w.h.p. = 1 - exp(-log^2 d)", "the Notations' lost formula read with the convention of Allen-Zhu & "
                "Li (probability >= 1 - e^{-Omega(log^2 d)}) instead of 1 - 1/d; uniform over pairs",
                experiment=lemma_b3_experiment("w.h.p. = 1 - exp(-log^2 d)"),
                prefix=(C_M, forall("d", "the input dimension, d -> infinity"), forall("M", "dictionaries with "
                        "constant C_M"), C_LEMMA, forall("D", "masks outside an event of probability <= "
                        "exp(-log^2 d), one event for all pairs"), forall("j, j'", "pairs of atoms in [d1]")))),
    encoding="|<M_j, (2D - I) M_j'>| <= Õ(1/sqrt d) w.h.p.: for Haar dictionaries with d1 = d/8 at d = 100..1600 the "
             "certified Hoeffding bound B(d) (exact variance proxies), its growth along d after dividing by the "
             "polylog the bound carries (sqrt(log d) for delta = 1/d, log d for delta = exp(-log^2 d)) read by the "
             "engine (bounded: log-log slope <= 0.1; unbounded: >= 0.25), and a Monte Carlo cross-check per d over 5 "
             "seeds (a seed fails when the exceedance count has probability < 1e-3 under the bound). The premise "
             "||M_j||_inf <= Õ(1/sqrt d) is a regime check; coordinate atoms (outside it) are shown. The Õ constant C "
             "may depend on the premise's constant C_M only (Notations: O hides universal constants w.r.t. d, Õ "
             "polylog factors of d): it is bound before d, M and the pairs. Quantifier 'settings': the d values are "
             "the checker's points of the family; the asymptotic statement is the growth. Certificates cover the "
             "identities for every d but the bound only at the d computed: at most consistent.",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.stage1_gradient", kind=Kind.INEQUALITY,
    source=Source(file=FILE, numbering="Lemma C.2, Sections A.2 and A.5, Lemma F.1 (its bias-0 part)", paper="Wen & Li",
                  covers=("Lemma C.2", "Lemma F.1")),
    experiment=one_thread(stage1_gradient), quantifier="forall",
    prefix=(forall("model", MODEL + "; regime p << sigma^2 read as sigma^2/p >= 4"),
            forall("i, t", "a neuron i at an iteration t <= T1 of stage I (bias b = 0)"),
            forall("j, r", "sparse directions M_j (j in [d1]) and dense directions M⊥_r"),
            exists("err", "the lower-order terms of '≈' in Lemmas C.2, F.1", depends_on=("model",),
                   asymptotic="≈ (Õ error terms)")),
    encoding="At bias 0 the expected positive-pair gradient is K w with K = E[x+ x++^T]: K = Sigma - diag(Sigma) with "
             "the masks (sympy, entrywise: every d), K = Sigma without. Exact on the models d = 64, 128, 400 and "
             "sigma^2/p = 2 (outside the regime), 4, 8: with masks every sparse rate > 0, the dense block negative "
             "semidefinite and the top eigenvector in span(M); without masks dense/sparse = sigma^2/(sigma^2 + p) >= "
             "0.8 ('approximately equal', a checker threshold). Monte Carlo cross-check over 5 seeds at the default "
             "model (Bonferroni radius). Quantifier 'forall': the lemmas hold for every model of Definition 2.1 in "
             "the regime; the models are a sample of them. One reading: the lemmas' '≈' are the only vague words and "
             "the encoding reads the signs and the share, not the error terms. Certificates cover the identities "
             "only: at most consistent.",
))

MASK_PREFIX = (forall("model", MODEL + " (diagonal Sigma_xi in the footnote-1 variants)"),
               forall("d", "the input dimension"))
PLUGIN.claim(ExperimentClaim(
    id="wen.mask_decorrelation", kind=Kind.INEQUALITY,
    source=source("Definition 2.3, Section 4 (Feature Decoupling), Lemmas B.3, D.4"),
    experiment=mask_decorrelation_experiment("literal"), quantifier="forall",
    known_refutation="wen.mask_decorrelation.json",
    prefix=(*MASK_PREFIX, forall("(D, xi)", "the mask and the noise drawn jointly: the law of the pair (2D xi, "
                                 "2(I - D) xi)"),
            forall("j", "an atom with z_j != 0"),
            forall("D'", "masks outside an event of probability <= 1/d ('unless in very rare case M_j is completely "
                   "masked')")),
    literal="Section 4: 'such data augmentations can make the dense signals [2D xi] and [2(I - D) xi] of x+ and x++ "
            "independent to each other' -- independence of the pair, unconditionally",
    readings=(
        Reading("conditioned on D", "Lemma D.4's proof: 'after the augmentations, [2D xi] and [2(I-D) xi] are "
                "independent (conditioned on fixed D)'; Lemma C.2's proof likewise",
                experiment=mask_decorrelation_experiment("conditioned on D"),
                prefix=(*MASK_PREFIX, forall("D", "a fixed mask: the conditional law of (2D xi, 2(I - D) xi) given D"),
                        forall("j", "an atom with z_j != 0"),
                        forall("D'", "masks outside an event of probability <= 1/d"))),
        Reading("uncorrelated along fixed directions", "the catalog row's parenthesis 'independent (zero correlation "
                "along any fixed direction)'",
                experiment=mask_decorrelation_experiment("uncorrelated along fixed directions"),
                prefix=(*MASK_PREFIX, forall("u, v", "fixed directions: E<u, 2D xi><v, 2(I - D) xi> over (D, xi)"),
                        forall("j", "an atom with z_j != 0"),
                        forall("D'", "masks outside an event of probability <= 1/d")))),
    encoding="(i) the masked noises of the two views: unconditionally (literal; the exact covariance of their squared "
             "norms is -4 d sigma^4, sympy per coordinate, so they are not independent), given D (zero "
             "cross-covariance, sympy over all masks), or along fixed directions (zero cross-moment); Monte Carlo "
             "cross-checks over 5 seeds; (ii) in the regime ||M_j||_inf <= O~(1/sqrt d), no atom is completely masked "
             "(exact, <= 1/d at every d) and d times the certified probability that some atom keeps less than half of "
             "its coefficient in a view must not grow along d (engine: log-log slope); coordinate atoms (outside the "
             "regime) are shown. Quantifier 'forall': every part must hold. At most consistent (finite d).",
))

T32_PREFIX = (forall("model", MODEL + "; regime checks: sigma^2/p >= 4, E||xi||^2 >= 4"),
              forall("N", "negatives, N = poly(d)"),
              forall("lambda, eta", "'where lambda can be arbitrary. The learning rate can also be arbitrary' "
                     "(instantiated at lambda = 1e-3, eta = 1)"),
              forall("f", "the network trained without augmentation (b = 0, as the proof trains: Lemmas F.1, F.2)"),
              forall("x", "a sample x = Mz + xi with z != 0, outside an event of small probability (w.h.p.)"),
              exists("o(1)", "a function of d vanishing as d -> infinity", depends_on=("model",),
                     asymptotic="o(1): ||signal part of f(x)|| <= o(1) ||noise part||"))

PLUGIN.claim(ExperimentClaim(
    id="wen.theorem32", kind=Kind.DYNAMICS, source=source("Theorem 3.2 (with Appendices A.5, F)"),
    experiment=theorem32_experiment("representation"), quantifier="forall", prefix=T32_PREFIX,
    prerequisites=functools.partial(_runs_needed, "none"),
    literal="'given a data sample x, with high probability it holds: [lost]', reconstructed as the signal part of "
            "f(x) <= o(1) times its noise part (Fact F.4 and the sentence after the theorem)",
    readings=(Reading("features = weights", "the catalog row 'the learned features are dominated by the dense noise' "
                      "with Section 2.2's 'we call the learned weights of neural networks features': more than half "
                      "of ||W||_F^2 outside span(M)", experiment=theorem32_experiment("weights")),),
    encoding="SGD on (2.2) with x+ = x++ = x at bias 0 (Lemmas F.1, F.2); per sample (z != 0) the signal part "
             "||(WMz)_active|| of f(x) against its noise part ||(W xi)_active||: a seed holds when the 0.9-quantile of "
             "their ratio is below 1, over 5 seeds, for all models of the map (noise levels, d: 'forall', every "
             "model of Definition 2.1); o(1) read as the growth of the 0.9-quantile along d = 64, 128, 256 (must not "
             "grow). Each seed's rule is also measured on the untrained network: the ratio there is ~ ||z||/||xi||, "
             "so the property holds before training and the configurations are uninformative (issue 27, item 5).",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.footnote3", kind=Kind.DYNAMICS, source=source("footnote 3 of Section 2 (training without augmentation)"),
    experiment=footnote3_experiment("representation"), quantifier="forall",
    prefix=(forall("b", "bias schedules without augmentation that keep every neuron alive ('the biases can be tuned "
                   "arbitrarily as long as the neurons are not killed'); instantiated as b_i = c sigma ||w_i|| after "
                   "stage I, c = 0, 1.5, 2.5, alive = active on >= 1 % of the samples"), *T32_PREFIX),
    prerequisites=functools.partial(_runs_needed, "bias"),
    literal="'It will not affect our results': Theorem 3.2's conclusion (the representation split) under every such "
            "bias",
    readings=(Reading("our results = Theorem 3.2 and Corollary 3.3", "'our results' without augmentation are "
                      "Theorem 3.2 and its Corollary 3.3 (the probes fail): a seed also needs the probes on the "
                      "features to fail as in wen.downstream",
                      experiment=footnote3_experiment("representation and probes")),),
    encoding="Theorem 3.2's rule on the no-augmentation learner with the bias raised as with masks (c = 0, 1.5, 2.5), "
             "for all biases that keep every neuron active on >= 1 % of the samples ('as long as the neurons are not "
             "killed'; 'arbitrarily': read 'forall'), 5 seeds, each also measured on the untrained network with the "
             "same bias rule.",
))

T34_PREFIX_HEAD = (forall("model", MODEL + "; regime checks: sigma^2/p >= 4, sigma = o(1), ||M||_inf small"),
                   forall("m", "neurons, m >> d1 (checked: every atom is the top atom of >= ceil(m/(4 d1)) neurons at "
                          "initialization with probability >= 0.9)"),
                   forall("N", "negatives, N = poly(d)"),
                   forall("schedule", "the paper's bias schedule (formula lost): the checker's b_i = c sigma ||w_i||, "
                          "c in {1.5, 2.5} (free settings)"),
                   exists("c_small", "the 'small constant c' of the objective guarantee (not checked: lost)"))
T34_PREFIX_TAIL = (forall("i", "neurons"), forall("j", "atoms in [d1]"),
                   exists("c_Omega", "the per-atom count's constant", depends_on=(),
                          asymptotic="Omega(m/d1) singleton neurons per atom (universal; checker-derived 1/4 for "
                                     "'holds', any c > 0 for 'fails')"))


def _t34_prefix(when: str) -> tuple:
    T = {"some": exists("T", "an iteration in [T3, T4] (stage III): 'for some iterations T'"),
         "every": forall("T", "every iteration in [T3, T4] (stage III)"),
         "final": forall("T", "T = the end of training")}[when]
    return (*T34_PREFIX_HEAD, T, *T34_PREFIX_TAIL)


PLUGIN.claim(ExperimentClaim(
    id="wen.theorem34", kind=Kind.DYNAMICS, source=source("Theorem 3.4 (with Appendices A.2-A.4, E)"),
    experiment=theorem34_experiment("some"), quantifier="settings", prefix=_t34_prefix("some"),
    prerequisites=functools.partial(_runs_needed, "masks"),
    literal="'then for some small constant c, and some iterations T in [T3, T4] ... contrastive learning will learn "
            "the following set of features': the features at some stage-III iterate T (the logged iterates, steps "
            "400..500 every 25); the map over models and the checker's bias thresholds read 'settings'",
    readings=(
        Reading("every stage-III iterate", "the lost symbol after 'for each neuron i and' read as every t in [T3, T]",
                experiment=theorem34_experiment("every"), prefix=_t34_prefix("every")),
        Reading("final iterate", "the previous encoding and the catalog row ('the neurons learn'): the network at the "
                "end of training", experiment=theorem34_experiment("final"), prefix=_t34_prefix("final")),
        Reading("every configuration", "the theorem is stated for every model of Definition 2.1; the bias threshold c "
                "read as part of the model (the printed schedule is lost): one refuted configuration refutes",
                quantifier="forall")),
    encoding="SGD on (2.2) with the complementary masks and a rising bias; per seed, every atom has >= ceil(m/(4 d1)) "
             "singleton neurons (cos^2 >= 0.8) and <= 20 % of ||W||_F^2 lies outside span(M) (fails: an atom without "
             "any singleton neuron, or > 50 % outside span(M)); 5 seeds, a map of bias thresholds, noise levels and "
             "d. Quantifier 'settings': the map mixes models (universal) with bias thresholds the checker chose where "
             "the printed schedule is lost; the reading 'every configuration' reads it 'forall'. The untrained "
             "network fails the rule (no singleton neurons, ~90 % dense): informative.",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.downstream", kind=Kind.DYNAMICS, source=source("Corollaries 3.3, 3.5"), experiment=downstream,
    quantifier="settings",
    prefix=(forall("model", MODEL + "; regime: a linear probe on raw inputs fails (oracle R^2 <= 0.25, oracle "
                   "classifier error >= 10 %)"),
            forall("a", "downstream tasks y = <a, z> and sign(<a, z>) with |a_j| = Theta(1) (Definition 3.1)"),
            forall("n (3.3)", "labeled samples, 'no matter how many' (instantiated at n = 20000), and the minimizing "
                   "linear head"),
            exists("n (3.5)", "a sample size 'with sample complexity at most [lost]' (n = 20000 here)",
                   depends_on=("model", "a")),
            exists("u (3.5)", "the linear head found by the convex downstream objective", depends_on=("model", "a"))),
    prerequisites=functools.partial(_runs_needed, "downstream"),
    encoding="Ridge (R^2) and logistic (accuracy) probes on frozen features against the raw-input probes of the same "
             "seed: with masks both beat raw inputs by more than 0.02 (Corollary 3.5), without augmentation neither "
             "does (Corollary 3.3), 5 seeds, one observation per corollary and pair of the map (quantifier "
             "'settings', as wen.theorem34: bias thresholds are the checker's). Each corollary is also measured on "
             "the untrained network: Corollary 3.3 holds there (random linear features = raw input), so its "
             "observations are uninformative and the verdict rests on Corollary 3.5. One reading: the probes' sample "
             "size is the only instantiated quantifier (20000 for both corollaries).",
))

PLUGIN.claim(ExperimentClaim(
    id="wen.footnote1", kind=Kind.DYNAMICS, source=source("footnote 1 of Section 2 (Definition 2.1)"),
    experiment=footnote1_experiment("all"), quantifier="forall",
    known_refutation="wen.footnote1.json",
    prefix=(forall("Sigma_xi", "noise covariances that are 'non-spherical Gaussian or [have] certain directions with "
                   "larger variance than [sigma^2]' (instantiated: diagonal, one coordinate spike, one delocalized "
                   "spike orthogonal to span M)"), *_t34_prefix("some")),
    prerequisites=functools.partial(_runs_needed, "footnote"),
    literal="'One can also assume the noise vector to be non-spherical Gaussian or has certain directions with larger "
            "variance than [sigma^2]': the results hold under that assumption, i.e. for every such noise",
    readings=(
        Reading("independent coordinates", "Section 4's reason for the decoupling, 'different coordinate of our dense "
                "noise are independent to each other': every non-spherical noise with independent coordinates "
                "(diagonal Sigma_xi, including a coordinate direction with larger variance)",
                experiment=footnote1_experiment("independent coordinates"),
                prefix=(forall("Sigma_xi", "diagonal noise covariances (independent coordinates): variances of "
                               "unequal size, one coordinate with larger variance"), *_t34_prefix("some"))),
        Reading("exists", "'Although our theory tolerates a wider range of these parameters' names no range: some "
                "non-spherical noise (or direction with larger variance) on which Theorem 3.4 still holds",
                quantifier="exists",
                prefix=(exists("Sigma_xi", "some non-spherical noise covariance or direction with larger variance",
                               depends_on=()), *_t34_prefix("some")))),
    encoding="Theorem 3.4's rule (some stage-III iterate, as wen.theorem34's literal reading) with the masks on noise "
             "variants: independent coordinates of unequal variances, one coordinate direction with larger variance, "
             "one delocalized direction with larger variance (two strengths); 5 seeds; exact stage-I rates beside "
             "each run. Literal 'forall' (one refuted variant refutes); readings: diagonal covariances only, and "
             "'there exists' (a consistent variant is a witness).",
))

PLUGIN.edges([
    ("wen.lemma_b3", "wen.mask_decorrelation"),
    ("wen.lemma_b3", "wen.stage1_gradient"),
    ("wen.mask_decorrelation", "wen.theorem34"),
    ("wen.stage1_gradient", "wen.theorem34"),
    ("wen.stage1_gradient", "wen.theorem32"),
    ("wen.theorem32", "wen.downstream"),
    ("wen.theorem34", "wen.downstream"),
    ("wen.theorem34", "wen.footnote1"),
    ("wen.theorem32", "wen.footnote3"),
])
