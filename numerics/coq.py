"""Formal certificates from the Coq proof assistant: a proof script is written, ``coqc`` checks it.

A :class:`~numerics.certificate.Certificate` with ``method="coq"`` is ``ok`` only when

1. ``coqc`` is on PATH (Coq is optional at run time: without it the certificate is not ok and
   says ``coqc not found: the step stays tested`` -- never certified);
2. ``coqc -q <name>.v`` accepts the script (exit code 0) within the time limit;
3. ``Print Assumptions`` of the theorems the certificate names lists only the axioms of Coq's
   standard real numbers (``ClassicalDedekindReals.sig_forall_dec``, ``sig_not_dec``,
   ``FunctionalExtensionality.functional_extensionality_dep``, ``Classical_Prop.classic``) and,
   for proofs by the Interval library, the specifications of Coq's primitive integers and floats
   (``PrimInt63``, ``Uint63``, ``PrimFloat``, ``FloatAxioms``, ``Sint63``): an ``Admitted`` lemma
   or an ``Axiom`` of the script shows up there and fails the certificate.  (Scripts that
   :func:`prove_box` generates whole, whose only proof step is the ``interval`` tactic, skip this
   check: it takes ~15 s there and cannot find anything.)

The script is kept in ``details["script"]`` with its SHA-256, the coqc version, the libraries'
fingerprint, the theorems, their assumptions and the one-line command that re-checks it
(``coqc -q <name>.v``); :func:`write_scripts` writes the
scripts of a run into a report folder (``coq/<name>.v``, plus ``coq/check.sh``).

Cache: Coq is deterministic, so a result is stored under ``$CLCHECK_CACHE/coq/<sha256>.json``
(default ``.clcheck-cache/coq``), one JSON record (format :data:`RECORD_FORMAT`)::

    {"format": 2,
     "key": {"sha256": <script>, "coqc_version": ..., "libraries": <fingerprint>, "print_assumptions": bool},
     "result": {"returncode": int, "assumptions": [...], "closed": bool, "output": <tail>,
                "ok": bool, "reason": str | null},
     "coqc_seconds": float, "checked_at": "<ISO time>",
     "checksum": <SHA-256 of the canonical JSON of all the above>}

It is reused only for the same script, the same ``coqc --version`` *and* the same compiled
libraries (a fingerprint of the ``.vo`` files under ``coqc -where``/user-contrib), and only when
it verifies: the checksum (over the canonical JSON -- sorted keys, no spaces -- of the whole
record, its key included) matches, the key is the one asked for, every field has its type, and
``ok``/``reason`` are what the rule that wrote them (:func:`_judge`) derives from the stored
return code, assumptions and "Closed under the global context" flag -- so a record cannot say
more than its own fields.  Anything else (a record edited, truncated, copied over another script's
file, written by an older version) is treated as absent: coqc runs again and the record is
rewritten.  The checksum protects against accidents -- corruption, truncation, an entry copied
under another key, a hand edit of one field; it is not a signature: someone who edits a record
on purpose and recomputes the checksum (the recipe is this docstring) is not stopped, as anyone
who can write the cache can also replace ``coqc`` on PATH.  Whether the cache answered, the record's
path, the coqc path, the time of the original check and coqc's seconds are in
``Certificate.volatile`` (``cache``: "hit", "miss", "disabled" or "not used"), not in ``details``:
two identical audits write the same report.  :func:`compilations` counts the coqc runs of this
process.  A time-out is never cached.  Pass ``use_cache=False`` (or set ``CLCHECK_COQ_CACHE=0``) to
always run coqc.  Stale temporaries of killed writers in the cache folder are removed the first
time a process opens it (:func:`numerics.files.remove_stale_temporaries`).

:func:`prove_box` builds a script for ``g(x) >= 0`` on a box from a sympy expression and proves it
with the ``interval`` tactic (Coq's formally verified interval arithmetic).  The tactic needs a
goal whose two sides do not touch on the box (``-ln(1-x) - 2x <= 0`` fails at ``x = 0``):
reformulate such a statement (divide by the vanishing factor, or prove it by hand as the scripts of
``theorems/papers/merad/coq/`` do) rather than widen it. A plugin ships its fixed scripts as ``.v`` files
(:func:`packaged_script` reads them); only scripts generated from data (:func:`prove_box`) are built here.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
from fractions import Fraction
from importlib.resources import files
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import sympy as sp

from numerics import env
from numerics.certificate import Certificate
from numerics.files import cache_root, current_umask, remove_stale_temporaries_once, write_text_atomic
from numerics.proc import run_group
from numerics.interval import to_fraction  # exact endpoints, as the arb prover reads them

METHOD = "coq"
NOT_FOUND = "coqc not found: the step stays tested"
DEFAULT_TIMEOUT = 120.0
RECHECK = "coqc -q {file}"

# the axioms a certificate may rest on (see the module doc); anything else fails it
ALLOWED_AXIOM_PREFIXES = (
    "ClassicalDedekindReals.", "FunctionalExtensionality.", "Classical_Prop.",
    "PrimInt63.", "Uint63.", "Sint63.", "PrimFloat.", "FloatAxioms.",
)

__all__ = [
    "METHOD", "NOT_FOUND", "coqc_path", "coqc_version", "script_sha256", "cache_dir",
    "check_script", "write_scripts", "prove_box", "coq_expr", "coq_number", "valid_name", "compilations",
    "RECORD_FORMAT", "packaged_script", "restated", "theorem_statements",
]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


# ----------------------------------------------------------------------------- coqc

def coqc_path() -> str | None:
    """The coqc executable on PATH (or ``$CLCHECK_COQC``), None when Coq is not installed."""
    explicit = os.environ.get("CLCHECK_COQC")
    if explicit:
        return shutil.which(explicit) or (explicit if os.path.isfile(explicit) else None)
    return shutil.which("coqc")


@functools.lru_cache(maxsize=8)
def _version_of(path: str) -> str | None:
    try:
        out = run_group([path, "--version"], 60)
    except OSError:
        return None
    text = " ".join(out.stdout.split())
    return (text or None) if not out.timed_out else None


@functools.lru_cache(maxsize=8)
def _libraries_of(path: str) -> str:
    """A fingerprint of the compiled libraries coqc loads (``coqc -where``/user-contrib: Interval,
    Coquelicot, Flocq, ...): the SHA-256 of every ``.vo`` file's path and size. Part of the cache key,
    so that an upgraded library re-runs the scripts."""
    try:
        done = run_group([path, "-where"], 60)
    except OSError:
        return "unknown"
    if done.timed_out:
        return "unknown"
    where = done.stdout.strip()
    root = Path(where) / "user-contrib"
    h = hashlib.sha256(where.encode())
    if root.is_dir():
        for vo in sorted(root.rglob("*.vo")):
            try:
                h.update(f"{vo.relative_to(root)}:{vo.stat().st_size}\n".encode())
            except OSError:
                continue
    return h.hexdigest()


def coqc_version() -> str | None:
    """``coqc --version`` on one line (e.g. "The Coq Proof Assistant, version 8.16.1 compiled
    with OCaml 4.13.1"), None without coqc."""
    path = coqc_path()
    return _version_of(path) if path else None


def script_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def valid_name(name: str) -> bool:
    """A script name usable as a Coq module name and a file name."""
    return bool(_NAME.match(name))


def cache_dir() -> Path:
    return cache_root() / "coq"


def _cache_enabled(use_cache: bool) -> bool:
    return use_cache and env.flag("CLCHECK_COQ_CACHE", default=True)


RECORD_FORMAT = 2  # 2: a checksum over the canonical record (key included); ok re-derived on read
_COMPILATIONS = 0


def compilations() -> int:
    """How many times this process has run coqc on a script (cache misses and uncached checks)."""
    return _COMPILATIONS


def _canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _record_checksum(record: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the record without its ``checksum`` field."""
    return hashlib.sha256(_canonical({k: v for k, v in record.items() if k != "checksum"}).encode()).hexdigest()


def _judge(*, returncode: int | None, timed_out: bool, assumptions: Sequence[str], closed: bool,
           print_assumptions: bool, timeout: float) -> str | None:
    """Why a coqc run does not certify its theorems (None: it does). The one rule, applied when a
    run ends and again to a cached record's fields."""
    bad = [a for a in assumptions if not a.startswith(ALLOWED_AXIOM_PREFIXES)]
    if timed_out:
        return f"coqc did not finish within {timeout:g} s"
    if returncode != 0:
        return "Coq rejected the script"
    if bad:
        return f"the proof rests on assumptions outside the standard axioms: {', '.join(bad)}"
    if print_assumptions and not assumptions and not closed:
        return "Print Assumptions printed nothing: the theorems' assumptions could not be checked"
    return None


def _cache_path(sha: str) -> Path:
    folder = cache_dir()
    remove_stale_temporaries_once(folder)  # temporaries of killed writers, once per process
    return folder / f"{sha}.json"


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _verified(record: Any, key: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record's result when it verifies (checksum, key, types, ok re-derived; see the module
    doc), else None."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        return None
    if not isinstance(record.get("checksum"), str) or record["checksum"] != _record_checksum(record):
        return None  # edited, or written by another version
    if record.get("key") != dict(key):
        return None  # another script (a record copied over this one's file), another Coq or libraries
    result = record.get("result")
    if not isinstance(result, dict):
        return None
    rc, assumptions, closed = result.get("returncode"), result.get("assumptions"), result.get("closed")
    if not (_is_int(rc) and isinstance(assumptions, list) and all(isinstance(a, str) for a in assumptions)
            and isinstance(closed, bool) and isinstance(result.get("output"), str)
            and isinstance(result.get("ok"), bool) and (result.get("reason") is None or isinstance(result["reason"], str))
            and isinstance(record.get("coqc_seconds"), (int, float)) and isinstance(record.get("checked_at"), str)):
        return None
    reason = _judge(returncode=rc, timed_out=False, assumptions=assumptions, closed=closed,
                    print_assumptions=bool(key["print_assumptions"]), timeout=0.0)
    if result["ok"] != (reason is None) or result.get("reason") != reason:
        return None  # the record says more (or other) than its own fields
    return {**result, "coqc_seconds": record["coqc_seconds"], "checked_at": record["checked_at"]}


def _cache_read(sha: str, key: Mapping[str, Any]) -> dict[str, Any] | None:
    try:
        return _verified(json.loads(_cache_path(sha).read_text()), key)
    except Exception:  # noqa: BLE001 - absent, unreadable, truncated, too deep, a NaN: recomputed, never fatal
        return None


def _cache_write(sha: str, key: Mapping[str, Any], result: Mapping[str, Any], coqc_seconds: float,
                 checked_at: str) -> None:
    record: dict[str, Any] = {"format": RECORD_FORMAT, "key": dict(key), "result": dict(result),
                              "coqc_seconds": coqc_seconds, "checked_at": checked_at}
    record["checksum"] = _record_checksum(record)
    try:
        write_text_atomic(_cache_path(sha), json.dumps(record, indent=1, sort_keys=True))
    except (OSError, ValueError):
        pass  # an unwritable cache only costs time


def _axioms(output: str) -> list[str]:
    """The axiom names listed by the ``Print Assumptions`` blocks of coqc's output."""
    names: list[str] = []
    in_block = False
    for line in output.splitlines():
        if line.startswith("Axioms:"):
            in_block = True
            continue
        if line.startswith("Closed under the global context"):
            in_block = False
            continue
        if not in_block or not line.strip():
            continue
        if line[0].isspace():
            continue  # the continuation of a type
        name = line.split(" : ", 1)[0].strip()
        if name and not name.startswith(("File ", "Warning", "[")):
            names.append(name)
    return sorted(set(names))


def _run_coqc(path: str, name: str, script: str, timeout: float) -> dict[str, Any]:
    global _COMPILATIONS
    _COMPILATIONS += 1
    with tempfile.TemporaryDirectory(prefix="clcheck-coq-") as tmp:
        file = Path(tmp) / f"{name}.v"
        file.write_text(script)
        start = time.perf_counter()
        done = run_group([path, "-q", file.name], timeout, cwd=tmp)  # its process group dies with it
        return {"returncode": done.returncode, "timed_out": done.timed_out, "stdout": done.stdout,
                "stderr": done.stderr, "coqc_seconds": time.perf_counter() - start}


def _tail(text: str, limit: int = 4000) -> str:
    return text if len(text) <= limit else "..." + text[-limit:]


BUNDLE = "clcheck_certified"


def _with_assumption_checks(script: str, theorems: Sequence[str]) -> str:
    """The script followed by ``Print Assumptions`` of every theorem, through one bundle
    (``Definition clcheck_certified := (t1, t2, ...)``: one traversal of the dependencies instead of
    one per theorem, which costs about a second each once Coquelicot is loaded)."""
    tail = [script.rstrip("\n"), ""]
    if len(theorems) == 1:
        tail.append(f"Print Assumptions {theorems[0]}.")
    else:
        tail.append(f"Definition {BUNDLE} := ({', '.join(theorems)}).")
        tail.append(f"Print Assumptions {BUNDLE}.")
    return "\n".join(tail) + "\n"


def check_script(name: str, script: str, theorems: Sequence[str], statement: str, domain: str, *,
                 parts: tuple[str, ...] | None = None, complete: bool = True,
                 timeout: float = DEFAULT_TIMEOUT, use_cache: bool = True,
                 coq_statements: Mapping[str, str] | None = None,
                 details: Mapping[str, Any] | None = None,
                 check_theorems: Sequence[str] | None = None,
                 print_assumptions: bool = True) -> Certificate:
    """Check a Coq proof script with coqc; ``ok`` only if Coq accepts it and the theorems rest on
    allowed axioms only (see the module doc).

    ``name`` is the file name (``<name>.v``, a Coq identifier); ``theorems`` the names of the
    theorems that make up the certified statement (``Print Assumptions`` of them is appended);
    ``statement``/``domain``/``parts``/``complete`` as in :class:`Certificate` -- ``complete``
    should be True only when the Coq theorems cover the claim's whole domain (every n, every x).
    ``coq_statements`` maps theorem names to their Coq statement (shown beside the script).
    ``check_theorems`` (default: ``theorems``) are the theorems whose assumptions are printed and
    checked: a script shared by several certificates names all its theorems there, so that the
    script -- and its cache entry -- is the same for each of them.  ``print_assumptions=False``
    skips that check: only for scripts generated whole by this module (:func:`prove_box`, whose only
    proof step is the ``interval`` tactic), where it costs ~15 s and cannot find anything."""
    start = time.perf_counter()
    if not valid_name(name):
        raise ValueError(f"Coq script name {name!r} is not an identifier")
    if not theorems:
        raise ValueError("a Coq certificate names at least one theorem")
    checked = list(check_theorems) if check_theorems else list(theorems)
    missing = [t for t in theorems if t not in checked]
    if missing:
        raise ValueError(f"theorems {missing} are not among the checked ones")
    full = _with_assumption_checks(script, checked) if print_assumptions else script.rstrip("\n") + "\n"
    sha = script_sha256(full)
    info: dict[str, Any] = {
        "script_name": f"{name}.v", "script": full, "sha256": sha, "theorems": list(theorems),
        "theorems_checked": checked if print_assumptions else [],
        "recheck": RECHECK.format(file=f"{name}.v"), "timeout_seconds": timeout,
    }
    if coq_statements:
        info["coq_statements"] = dict(coq_statements)
    if details:
        info.update(details)

    def cert(ok: bool, volatile: Mapping[str, Any], **extra: Any) -> Certificate:
        return Certificate(method=METHOD, statement=statement, domain=domain, ok=ok,
                           details={**info, **extra}, seconds=time.perf_counter() - start,
                           parts=parts, complete=complete, volatile=dict(volatile))

    path = coqc_path()
    version = _version_of(path) if path else None
    if path is None or version is None:
        return cert(False, {"cache": "not used", "coqc": None}, reason=NOT_FOUND, coqc_version=None)
    libraries = _libraries_of(path)
    info.update(coqc_version=version, libraries=libraries)
    key = {"sha256": sha, "coqc_version": version, "libraries": libraries,
           "print_assumptions": bool(print_assumptions)}

    caching = _cache_enabled(use_cache)
    record = _cache_read(sha, key) if caching else None
    if record is not None:
        return cert(record["ok"], {"cache": "hit", "cache_file": str(_cache_path(sha)), "coqc": path,
                                   "checked_at": record["checked_at"], "coqc_seconds": record["coqc_seconds"]},
                    returncode=record["returncode"], assumptions=record["assumptions"], output=record["output"],
                    **({"reason": record["reason"]} if record["reason"] is not None else {}))

    run = _run_coqc(path, name, full, timeout)
    output = (run["stdout"] or "") + (run["stderr"] or "")
    assumptions = _axioms(run["stdout"] or "")
    closed = "Closed under the global context" in output
    reason = _judge(returncode=run["returncode"], timed_out=run["timed_out"], assumptions=assumptions,
                    closed=closed, print_assumptions=print_assumptions, timeout=timeout)
    ok = reason is None
    result = {"returncode": run["returncode"], "assumptions": assumptions, "closed": closed,
              "output": _tail(output), "ok": ok, "reason": reason}
    checked_at = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    volatile: dict[str, Any] = {"cache": "miss" if caching else "disabled", "coqc": path,
                                "checked_at": checked_at, "coqc_seconds": run["coqc_seconds"]}
    if caching and not run["timed_out"]:
        _cache_write(sha, key, result, run["coqc_seconds"], checked_at)
        volatile["cache_file"] = str(_cache_path(sha))
    return cert(ok, volatile, returncode=run["returncode"], assumptions=assumptions, output=result["output"],
                **({"reason": reason} if reason else {}))


# ----------------------------------------------------------------------------- scripts shipped as files

def packaged_script(package: str, name: str) -> str:
    """The text of the Coq script ``<name>.v`` in the ``coq/`` folder of ``package`` (package data: a
    plugin ships its fixed proofs as .v files, which ``coqc`` checks as they are)."""
    return files(package).joinpath("coq", f"{name}.v").read_text(encoding="utf-8")


def restated(script: str, old: str, new: str, count: int = 1) -> str:
    """``script`` with a statement changed from ``old`` to ``new`` (a test hook: the unchanged proof of a
    false statement must be rejected); ``old`` must occur exactly ``count`` times."""
    found = script.count(old)
    if found != count:
        raise ValueError(f"{old!r} occurs {found} times in the script, not {count}: the statement to change "
                         "is not where the caller expects it")
    return script.replace(old, new)


def theorem_statements(script: str, names: Sequence[str]) -> dict[str, str]:
    """The statement of each named theorem (or lemma), as the script writes it, on one line."""
    out = {}
    for name in names:
        m = re.search(rf"(?:Theorem|Lemma) {name} :(.*?)\.\nProof\.", script, re.S)
        if m:
            out[name] = " ".join(m.group(1).split())
    return out


# ----------------------------------------------------------------------------- report folder

def _as_dict(cert: Certificate | Mapping[str, Any]) -> Mapping[str, Any]:
    return cert.to_json() if isinstance(cert, Certificate) else cert


def write_scripts(certs: Iterable[Certificate | Mapping[str, Any]], folder: str | Path,
                  claims: Mapping[str, Iterable[Certificate | Mapping[str, Any]]] | None = None) -> list[Path]:
    """Write the Coq scripts of ``certs`` (Certificates or their JSON) into ``folder/coq``.

    Each script goes to ``coq/<name>.v`` (a name used twice with different scripts gets its
    SHA-256 prefix appended). ``coq/check.sh`` re-checks them all with one command (``sh coq/check.sh``):
    it first compares every file with the SHA-256 it was certified under (``SHA256SUMS``), then runs
    ``coqc -q`` on each, prints the axioms its ``Print Assumptions`` lists and fails on any outside
    :data:`ALLOWED_AXIOM_PREFIXES`; it ends with "all scripts accepted". ``coq/README.md`` lists each
    script with its statement, theorems, axioms and the result of this run, and, when ``claims`` maps
    claim ids to their certificates, which scripts each claim rests on. Returns the ``.v`` paths."""
    out = Path(folder) / "coq"
    written: dict[str, str] = {}  # stem -> sha
    stem_of: dict[str, str] = {}  # sha -> stem
    rows: list[str] = []
    paths: list[Path] = []
    for raw in list(certs) + [c for group in (claims or {}).values() for c in group]:
        c = _as_dict(raw)
        d = c.get("details") or {}
        if c.get("method") != METHOD or "script" not in d:
            continue
        script, sha = d["script"], d.get("sha256") or script_sha256(d["script"])
        if sha in stem_of:
            continue
        stem = Path(d.get("script_name", "proof.v")).stem
        if stem in written:
            stem = f"{stem}_{sha[:8]}"
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{stem}.v"
        write_text_atomic(path, script)
        written[stem], stem_of[sha] = sha, stem
        paths.append(path)
        status = "accepted by coqc" if c.get("ok") else f"not certified ({d.get('reason', 'failed')})"
        axioms = ", ".join(d.get("assumptions") or []) or ("none (closed)" if c.get("ok") else "-")
        rows.append(f"| `{stem}.v` | {_cell(c.get('statement', ''))} | {', '.join(d.get('theorems', []))} | "
                    f"{_cell(axioms)} | {status} | `{sha[:16]}` |")
    if not paths:
        return paths
    write_text_atomic(out / "SHA256SUMS", "".join(f"{sha}  {stem}.v\n" for stem, sha in written.items()))
    write_text_atomic(out / "check.sh", _check_sh(list(written)))
    os.chmod(out / "check.sh", 0o777 & ~current_umask())  # executable, within the user's umask
    per_claim = _claim_rows(claims or {}, stem_of)
    write_text_atomic(out / "README.md",
        "# Coq certificates\n\nRe-check all of them: `sh coq/check.sh`. It compares every script with the SHA-256 "
        "it was certified under (`SHA256SUMS`), compiles each with `coqc -q`, prints the axioms each script's "
        "`Print Assumptions` lists, fails on any axiom outside the standard axioms of Coq's reals (and, for the "
        "`interval` tactic, the specifications of primitive integers and floats), and ends with \"all scripts "
        "accepted\".\n\n"
        "| script | statement | theorems | axioms (Print Assumptions) | this run | sha256 |\n"
        "| --- | --- | --- | --- | --- | --- |\n" + "\n".join(rows) + "\n"
        + (("\n## Which scripts prove which claim\n\n| claim | scripts | parts covered | complete | modulo |\n"
            "| --- | --- | --- | --- | --- |\n" + "\n".join(per_claim) + "\n") if per_claim else ""))
    return paths


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _claim_rows(claims: Mapping[str, Iterable[Certificate | Mapping[str, Any]]], stem_of: Mapping[str, str]) -> list[str]:
    """One row per (claim, script): the parts the script's certificate covers, whether on the whole domain."""
    rows = []
    for claim_id, group in claims.items():
        for raw in group:
            c = _as_dict(raw)
            d = c.get("details") or {}
            if c.get("method") != METHOD or "script" not in d:
                continue
            stem = stem_of.get(d.get("sha256") or script_sha256(d["script"]))
            parts = c.get("parts")
            covers = "all" if parts is None else (_cell("; ".join(parts)) if parts else "none of the printed parts")
            rows.append(f"| `{claim_id}` | `{stem}.v` | {covers} | "
                        f"{'yes' if c.get('complete', True) and c.get('ok') else 'no'} | "
                        f"{_cell(', '.join(c.get('modulo') or ())) or '-'} |")
    return rows


def _check_sh(stems: Sequence[str]) -> str:
    """The script that re-checks every ``.v`` file of the folder with coqc (POSIX sh)."""
    allowed = "|".join(re.escape(p) for p in ALLOWED_AXIOM_PREFIXES)
    return (
        "#!/bin/sh\n# re-check every Coq certificate of this report (needs coqc on PATH)\n"
        'cd "$(dirname "$0")" || exit 1\n'
        'command -v coqc >/dev/null 2>&1 || { echo "coqc not found on PATH"; exit 2; }\n'
        "if command -v sha256sum >/dev/null 2>&1; then\n"
        '  sha256sum -c --quiet SHA256SUMS || { echo "a script differs from the one certified"; exit 1; }\n'
        "fi\n"
        f"for f in {' '.join(f'{stem}.v' for stem in stems)}; do\n"
        '  echo "coqc -q $f"\n'
        '  out=$(coqc -q "$f" 2>&1); rc=$?\n'
        '  rm -f "${f%.v}.vo" "${f%.v}.vok" "${f%.v}.vos" "${f%.v}.glob" ".${f%.v}.aux"  # keep only the scripts\n'
        '  [ $rc -eq 0 ] || { printf \'%s\\n\' "$out"; echo "REJECTED: $f"; exit 1; }\n'
        "  axioms=$(printf '%s\\n' \"$out\" | awk '/^Axioms:/{a=1;next} /^Closed under/{a=0} "
        "a && /^[^ \\t]/ {print $1}' | sort -u)\n"
        '  for ax in $axioms; do\n'
        f"    echo \"$ax\" | grep -Eq '^({allowed})' || {{ echo \"REJECTED: $f rests on the axiom $ax\"; exit 1; }}\n"
        '  done\n'
        '  echo "  axioms: ${axioms:-none (closed under the global context)}" | tr "\\n" " "; echo\n'
        "done\n"
        "rm -f .lia.cache .nia.cache .nra.cache\n"
        'echo "all scripts accepted"\n')


# ----------------------------------------------------------------------------- sympy -> Coq (interval tactic)

def coq_number(q: Fraction | int) -> str:
    """An exact rational as a Coq real: ``3``, ``(-3)``, ``(1 / 3)``, ``(-(1 / 3))``."""
    q = Fraction(q)
    sign = "-" if q < 0 else ""
    p, d = abs(q.numerator), q.denominator
    body = f"{p}" if d == 1 else f"({p} / {d})"
    return f"({sign}{body})" if sign else body


def coq_expr(e: Any, names: Mapping[sp.Symbol, str] | None = None) -> str:
    """A sympy expression as a Coq real expression (Reals: ``ln``, ``exp``, ``sqrt``, ``Rabs``,
    ``PI``, integer powers ``^``, ``Rmax``/``Rmin``).  Floats are taken at their exact binary
    value; other functions raise ``ValueError``."""
    names = names or {}
    e = sp.sympify(e)
    if e.is_Symbol:
        return names.get(e, str(e))
    if e.is_Integer or e.is_Rational:
        return coq_number(Fraction(int(e.p), int(e.q)))
    if e.is_Float:
        r = sp.Rational(e)
        return coq_number(Fraction(int(r.p), int(r.q)))
    if e is sp.pi:
        return "PI"
    if e is sp.E:
        return "(exp 1)"
    if e.is_Add:
        return "(" + " + ".join(coq_expr(a, names) for a in e.args) + ")"
    if e.is_Mul:
        num, den = [], []
        for a in e.args:
            if a.is_Pow and a.exp.is_Integer and a.exp < 0:
                den.append(coq_expr(a.base ** (-a.exp), names))
            elif a.is_Rational and a.q != 1 and not a.is_Integer:
                num.append(coq_expr(sp.Integer(a.p), names))
                den.append(coq_expr(sp.Integer(a.q), names))
            else:
                num.append(coq_expr(a, names))
        top = " * ".join(num) if num else "1"
        return f"({top})" if not den else f"({top} / ({' * '.join(den)}))"
    if e.is_Pow:
        base, expo = e.base, e.exp
        if expo.is_Integer:
            n = int(expo)
            return f"({coq_expr(base, names)} ^ {n})" if n >= 0 else f"(/ ({coq_expr(base, names)} ^ {-n}))"
        if expo == sp.Rational(1, 2):
            return f"(sqrt {coq_expr(base, names)})"
        if expo == sp.Rational(-1, 2):
            return f"(/ sqrt {coq_expr(base, names)})"
        raise ValueError(f"power {e} has no Coq form here (integer and half-integer exponents only)")
    if isinstance(e, sp.exp):
        return f"(exp {coq_expr(e.args[0], names)})"
    if isinstance(e, sp.log):
        if len(e.args) != 1:
            raise ValueError("log with a base")
        return f"(ln {coq_expr(e.args[0], names)})"
    if isinstance(e, sp.Abs):
        return f"(Rabs {coq_expr(e.args[0], names)})"
    if isinstance(e, (sp.Max, sp.Min)):
        fn = "Rmax" if isinstance(e, sp.Max) else "Rmin"
        out = coq_expr(e.args[0], names)
        for a in e.args[1:]:
            out = f"({fn} {out} {coq_expr(a, names)})"
        return out
    if isinstance(e, sp.sin):
        return f"(sin {coq_expr(e.args[0], names)})"
    if isinstance(e, sp.cos):
        return f"(cos {coq_expr(e.args[0], names)})"
    raise ValueError(f"no Coq form for {type(e).__name__}: {e}")


def prove_box(expr: Any, box: Mapping[sp.Symbol, tuple[Any, Any]], statement: str, *, name: str,
              domain: str | None = None, bisect: bool = True, taylor: bool = True, depth: int = 15,
              degree: int | None = None, parts: tuple[str, ...] | None = None,
              timeout: float = DEFAULT_TIMEOUT, use_cache: bool = True) -> Certificate:
    """Prove ``expr >= 0`` on a box in Coq with the ``interval`` tactic (Interval library).

    The script states ``forall x.., lo <= x <= hi -> .. -> 0 <= expr`` and proves it with
    ``interval with (i_bisect x, i_taylor x, i_depth depth)``; the tactic fails (and so does the
    certificate) when it cannot separate the two sides, e.g. where they touch on the box."""
    variables = list(box)
    names = {v: f"x{i}" for i, v in enumerate(variables)}
    hyps = []
    for v in variables:
        lo, hi = to_fraction(box[v][0]), to_fraction(box[v][1])
        if lo > hi:
            raise ValueError(f"empty range for {v}")
        hyps.append(f"{coq_number(lo)} <= {names[v]} <= {coq_number(hi)}")
    goal = f"0 <= {coq_expr(expr, names)}"
    binders = " ".join(names[v] for v in variables)
    coq_statement = f"forall {binders} : R, " + " -> ".join(hyps + [goal])
    opts = []
    for v in variables:
        if bisect:
            opts.append(f"i_bisect {names[v]}")
        if taylor:
            opts.append(f"i_taylor {names[v]}")
    opts.append(f"i_depth {int(depth)}")
    if degree is not None:
        opts.append(f"i_degree {int(degree)}")
    intro = " ".join(names[v] for v in variables) + " " + " ".join(f"H{i}" for i in range(len(variables)))
    script = "\n".join([
        "From Coq Require Import Reals.",
        "From Interval Require Import Tactic.",
        "Open Scope R_scope.",
        "",
        f"(* {statement} *)",
        f"(* variables: {', '.join(f'{names[v]} = {v}' for v in variables)} *)",
        f"Theorem box_goal : {coq_statement}.",
        "Proof.",
        f"  intros {intro}.",
        f"  interval with ({', '.join(opts)}).",
        "Qed.",
    ])
    if domain is None:
        domain = ", ".join(f"{v} in [{box[v][0]}, {box[v][1]}]" for v in variables)
    return check_script(name, script, ["box_goal"], statement, domain, parts=parts, timeout=timeout,
                        use_cache=use_cache, coq_statements={"box_goal": coq_statement},
                        details={"expression": str(sp.sympify(expr)), "tactic": "interval",
                                 "assumptions_note": "not printed: the script is generated here and its only "
                                                     "proof step is the interval tactic"},
                        print_assumptions=False)
