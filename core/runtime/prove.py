"""Prove a model on real ONNX Runtime releases (``check``/``bundle --prove-ort 1.16.3,1.20.1,…``).

For each release: its official CPU wheel for this platform and Python, from PyPI (the file the index's JSON API
lists, checked against the SHA-256 the index publishes), installed into an isolated virtual environment of its own
with a numpy that release accepts (numpy < 2 before ORT 1.19, which was built against numpy 1). Wheels and
environments are cached in the user's cache folder (``$ONNXPACK_CACHE_DIR``, else ``$XDG_CACHE_HOME/onnxpack``,
``~/.cache/onnxpack``; ``%LOCALAPPDATA%\\onnxpack\\Cache`` on Windows, ``~/Library/Caches/onnxpack`` on macOS) and
reused. A child process of that environment runs :data:`CHILD_SCRIPT` (plain Python, no onnxpack inside) on the
model with the same inputs as the reference run, which is the same script under the installed onnxruntime; the
outputs are compared bitwise, else within a tolerance, the largest difference recorded.

Official wheels for CPython 3.11 exist from onnxruntime 1.15.0 on (3.10: 1.12.0; 3.12: 1.16.2; 3.13: 1.20.0), for
Linux x86_64/aarch64, Windows x64 and macOS; a release without a wheel for this interpreter and platform is an
error naming what exists, never a silent skip. No network, a failed download or a wrong hash are errors too.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, RuntimeFailure
from ..filehash import sha256_file
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report

__all__ = [
    "CHILD_SCRIPT", "PROVE_SCHEMA", "ProveReport", "ReleaseProof", "cache_dir", "parse_prove_spec", "prove_model",
    "resolve_releases",
]

PROVE_SCHEMA = "onnxpack.prove/1"
_STAGE = "prove"
#: The index; ``$ONNXPACK_PYPI_URL`` replaces it (a mirror, or a dead address in tests).
PYPI_URL = "https://pypi.org"
_PACKAGE = "onnxruntime"
_NET_TIMEOUT = 60.0
_INSTALL_TIMEOUT = 900.0
RUN_TIMEOUT = 600.0
#: Outputs that are not bitwise equal must agree within this (numpy.allclose), else the release fails.
ATOL, RTOL = 1e-4, 1e-3
_VERSION = re.compile(r"\d+\.\d+\.\d+")
_MINOR = re.compile(r"\d+\.\d+")


def cache_dir() -> Path:
    """onnxpack's folder in the user's cache folder (see the module docstring)."""
    env = os.environ.get("ONNXPACK_CACHE_DIR")
    if env:
        return Path(env)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "onnxpack" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "onnxpack"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "onnxpack"


def parse_prove_spec(text: str) -> list[str]:
    """``"1.16.3, 1.20.1"`` / ``"auto"`` / ``"1.16"`` → the items (validated; resolved by :func:`resolve_releases`)."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise InputError("--prove-ort needs at least one ONNX Runtime release",
                         "Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch) or auto.", code="USAGE")
    for t in items:
        if t not in ("auto", "newest") and not (_VERSION.fullmatch(t) or _MINOR.fullmatch(t)):
            raise InputError(f"Not an ONNX Runtime release: {t!r}",
                             "Give releases like 1.16.3,1.20.1, a MAJOR.MINOR (its newest patch), newest, or auto "
                             "(the oldest release the model claims plus the newest).", code="BAD_PROVE_ORT")
    return items


def _vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


# -- the index ---------------------------------------------------------------------------------------------------


def _index() -> str:
    return os.environ.get("ONNXPACK_PYPI_URL", PYPI_URL).rstrip("/")


def _get_json(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=_NET_TIMEOUT) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise RuntimeFailure(f"The package index answered {e.code} for {url}",
                             "Try again later, or set ONNXPACK_PYPI_URL to a PyPI mirror.",
                             code="PROVE_NETWORK") from None
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        reason = getattr(e, "reason", e)
        raise RuntimeFailure(
            f"Cannot reach the package index ({_index()}) to fetch ONNX Runtime wheels: {reason}",
            "--prove-ort downloads each release's official wheel once (then it is cached): connect to the internet, "
            "set ONNXPACK_PYPI_URL to a reachable PyPI mirror, or leave --prove-ort out.",
            code="PROVE_NETWORK", details=str(e)) from None
    except ValueError as e:
        raise RuntimeFailure(f"The package index sent something that is not JSON for {url}",
                             "Try again later, or set ONNXPACK_PYPI_URL to a PyPI mirror.", code="PROVE_NETWORK",
                             details=str(e)) from None


_RELEASES: dict[str, dict[str, list[dict[str, Any]]]] = {}


def _release_files() -> dict[str, list[dict[str, Any]]]:
    """Every release of onnxruntime on the index and its files (PyPI's JSON API, once per process); each file's
    ``url`` made absolute (a mirror may give it relative to the document)."""
    from urllib.parse import urljoin

    url = f"{_index()}/pypi/{_PACKAGE}/json"
    if url not in _RELEASES:
        doc = _get_json(url)
        if not isinstance(doc, dict) or not isinstance(doc.get("releases"), dict):
            raise RuntimeFailure(f"The package index has no release list of {_PACKAGE} at {url}",
                                 "Set ONNXPACK_PYPI_URL to a PyPI mirror with the JSON API, or unset it.",
                                 code="PROVE_NETWORK")
        releases = {}
        for version, files in doc["releases"].items():
            releases[str(version)] = [{**f, "url": urljoin(url, str(f.get("url", "")))} for f in files
                                      if isinstance(f, dict)]
        _RELEASES[url] = releases
    return _RELEASES[url]


_TAGS: dict[str, dict[Any, int]] = {}


def _tag_ranks(python: str | None) -> dict[Any, int]:
    """The wheel tags ``python`` (None: this interpreter) installs, best first, as {tag: rank}."""
    from packaging.tags import parse_tag, sys_tags

    key = python or ""
    if key not in _TAGS:
        if python is None:
            tags = list(sys_tags())
        else:  # another interpreter: the tags of the packaging its pip vendors
            code = "from pip._vendor.packaging.tags import sys_tags; print('\\n'.join(map(str, sys_tags())))"
            try:
                out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True, timeout=60)
            except (OSError, subprocess.SubprocessError) as e:
                raise InputError(f"Cannot ask {python} which wheels it installs: {e}",
                                 "Give a CPython interpreter with pip.", code="PROVE_NO_PYTHON") from None
            tags = [t for line in out.stdout.split() for t in parse_tag(line)]
        _TAGS[key] = {t: i for i, t in enumerate(tags)}
    return _TAGS[key]


def _wheel_score(filename: str, python: str | None = None) -> int | None:
    """Rank of a wheel among the interpreter's tags (lower is better); None when it cannot be installed there."""
    from packaging.utils import InvalidWheelFilename, parse_wheel_filename

    try:
        _n, _v, _b, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename:
        return None
    ranks = _tag_ranks(python)
    found = [ranks[t] for t in tags if t in ranks]
    return min(found) if found else None


def _pick_wheel(version: str, files: list[dict[str, Any]], python: str | None = None) -> dict[str, Any] | None:
    wheels = [(s, f) for f in files if f.get("packagetype") == "bdist_wheel" and not f.get("yanked")
              and (s := _wheel_score(str(f.get("filename", "")), python)) is not None]
    return min(wheels, key=lambda x: x[0])[1] if wheels else None


def _here(python: str | None = None) -> str:
    import platform

    if python is not None:
        first = next(iter(_tag_ranks(python)), None)
        return f"{python} ({first.interpreter if first is not None else 'unknown'}) on {sys.platform} {_machine()}"
    return f"CPython {sys.version_info.major}.{sys.version_info.minor} on {sys.platform} {platform.machine()}"


def resolve_releases(items: list[str], oldest_claimed: str | None,
                     cancel: CancelToken | None = None, notes: list[str] | None = None) -> list[str]:
    """Full release versions for ``items`` (a MAJOR.MINOR is its newest patch with a wheel for this interpreter;
    ``newest`` the newest such release; ``auto`` = the newest patch of ``oldest_claimed`` plus ``newest``). When
    ``auto`` has to take a later release than the one claimed (no wheel of it here), ``notes`` gets why."""
    need_index = any(not _VERSION.fullmatch(t) for t in items)
    releases: dict[str, list[dict[str, Any]]] = {}
    if need_index:
        releases = _release_files()
        check_cancel(cancel)
    usable = sorted((v for v, files in releases.items() if _VERSION.fullmatch(v) and _pick_wheel(v, files)),
                    key=_vkey)

    def newest_of(prefix: str | None) -> str:
        pool = [v for v in usable if prefix is None or v.startswith(prefix + ".")]
        if not pool:
            what = f"ONNX Runtime {prefix}" if prefix else "any ONNX Runtime release"
            raise InputError(f"PyPI has no wheel of {what} for {_here()}",
                             "Official CPython 3.11 wheels exist from onnxruntime 1.15.0 on (3.10: 1.12.0, 3.12: "
                             "1.16.2); prove an available release, or run onnxpack on another Python.",
                             code="PROVE_NO_WHEEL")
        return pool[-1]

    out: list[str] = []
    for t in items:
        if t == "auto":
            if oldest_claimed:
                key = _vkey(oldest_claimed)[:2]
                first = next((v for v in usable if _vkey(v)[:2] >= key), None)
                if first is not None:
                    out.append(newest_of(".".join(first.split(".")[:2])))
                    if _vkey(first)[:2] != key and notes is not None:
                        notes.append(f"auto: the model claims ONNX Runtime {oldest_claimed}, which has no official "
                                     f"wheel for {_here()}; the oldest release with one, {out[-1]}, was proven "
                                     "instead")
            out.append(newest_of(None))
        elif t == "newest":
            out.append(newest_of(None))
        elif _MINOR.fullmatch(t):
            out.append(newest_of(t))
        else:
            out.append(t)
    seen: list[str] = []
    for v in out:
        if v not in seen:
            seen.append(v)
    return seen


# -- wheels and environments -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Env:
    version: str
    python: Path
    wheel: str
    sha256: str
    numpy: str


def _numpy_spec(version: str) -> str:
    return "numpy<2" if _vkey(version)[:2] < (1, 19) else "numpy"


def _download(url: str, dest: Path, sha256: str, progress: ProgressCallback | None, cancel: CancelToken | None,
              label: str) -> None:
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    h = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=_NET_TIMEOUT) as r, open(tmp, "wb") as f:
            total = int(r.headers.get("Content-Length") or 0)
            done = 0
            while chunk := r.read(1 << 20):
                check_cancel(cancel)
                f.write(chunk)
                h.update(chunk)
                done += len(chunk)
                report(progress, _STAGE, done, total or done, f"downloading {label}")
        if h.hexdigest() != sha256:
            raise RuntimeFailure(
                f"The download of {dest.name} does not match the SHA-256 the package index publishes "
                f"({h.hexdigest()} instead of {sha256}); it was deleted",
                "Try again (a proxy may have altered it); if it repeats, do not trust that network path.",
                code="PROVE_WHEEL_HASH")
        os.replace(tmp, dest)
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        raise RuntimeFailure(f"Cannot download {dest.name}: {getattr(e, 'reason', e)}",
                             "Check the internet connection (or ONNXPACK_PYPI_URL) and try again.",
                             code="PROVE_NETWORK", details=str(e)) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _env_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def _wait(proc: subprocess.Popen[bytes], timeout: float, cancel: CancelToken | None, *, poll: float) -> bool:
    """Wait for ``proc``; kill it and return False at ``timeout``, kill it and raise Cancelled on ``cancel``."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None:
        if (cancel is not None and cancel.cancelled) or time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            check_cancel(cancel)
            return False
        time.sleep(poll)
    return True


def _run(cmd: list[str], what: str, timeout: float, cancel: CancelToken | None) -> None:
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if not _wait(proc, timeout, cancel, poll=0.1):
            raise RuntimeFailure(f"{what} did not finish within {timeout:g} s", "Try again.", code="PROVE_ENV")
        if proc.returncode != 0:
            log.seek(0)
            tail = log.read()[-2000:].decode("utf-8", "replace").strip()
            last = tail.splitlines()[-1] if tail else f"exit status {proc.returncode}"
            raise RuntimeFailure(f"{what} failed: {last}", "Check the internet connection and try again; the "
                                 "details show pip's output.", code="PROVE_ENV", details=tail)


def _python_for_envs() -> str:
    if getattr(sys, "frozen", False):
        exe = os.environ.get("ONNXPACK_PYTHON")
        if not exe:
            raise InputError("--prove-ort needs a Python interpreter to create environments, and this is the frozen "
                             "onnxpack executable", "Set ONNXPACK_PYTHON to a CPython 3.10+ executable, or run "
                             "onnxpack installed with pip.", code="PROVE_NO_PYTHON")
        return exe
    return sys.executable


def ensure_release(version: str, progress: ProgressCallback | None = None,
                   cancel: CancelToken | None = None, python: str | None = None) -> _Env:
    """The cached environment of onnxruntime ``version`` (made now when missing: download, verify, install).

    ``python``: another CPython to make it with (benchmarks/probe_releases.py measures releases that have no wheel
    for this one); by default this interpreter."""
    root = cache_dir() / "ort-releases"
    if python is None:
        tag = f"cp{sys.version_info.major}{sys.version_info.minor}-{sys.platform}-{_machine()}"
    else:
        first = next(iter(_tag_ranks(python)), None)
        tag = f"{first.interpreter if first is not None else 'py'}-{sys.platform}-{_machine()}"
    env = root / "envs" / f"{version}-{tag}"
    stamp = env / "onnxpack-ready.json"
    if stamp.is_file() and _env_python(env).exists():
        with contextlib.suppress(ValueError, OSError, KeyError):
            d = json.loads(stamp.read_text(encoding="utf-8"))
            return _Env(version, _env_python(env), d["wheel"], d["sha256"], d["numpy"])
    report(progress, _STAGE, 0, 0, f"looking up onnxruntime {version} on {_index()}", unit=STEPS)
    files = _release_files().get(version)
    if files is None:
        raise InputError(f"onnxruntime {version} is not on the package index", "Give a released version, e.g. "
                         "1.16.3 (see https://pypi.org/project/onnxruntime/#history).", code="PROVE_NO_RELEASE")
    wheel = _pick_wheel(version, files, python)
    if wheel is None:
        names = ", ".join(sorted({str(f.get("filename", "")).split("-")[2] for f in files
                                  if f.get("packagetype") == "bdist_wheel"})) or "none"
        raise InputError(f"onnxruntime {version} has no official wheel for {_here(python)} (its wheels are for: "
                         f"{names})",
                         "Prove another release (CPython 3.11 wheels exist from 1.15.0 on), or run onnxpack on a "
                         "Python that release has wheels for.", code="PROVE_NO_WHEEL")
    sha = str((wheel.get("digests") or {}).get("sha256") or "")
    if not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise RuntimeFailure(f"The package index gives no SHA-256 for {wheel['filename']}",
                             "Use the official index (unset ONNXPACK_PYPI_URL).", code="PROVE_WHEEL_HASH")
    wheels = root / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    dest = wheels / str(wheel["filename"])
    if not dest.is_file() or sha256_file(dest).hexdigest != sha:
        _download(str(wheel["url"]), dest, sha, progress, cancel, str(wheel["filename"]))
    check_cancel(cancel)
    work = root / "envs" / f".{version}-{tag}.{os.getpid()}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    work.parent.mkdir(parents=True, exist_ok=True)
    try:
        report(progress, _STAGE, 0, 0, f"creating the environment of onnxruntime {version}", unit=STEPS)
        _run([python or _python_for_envs(), "-m", "venv", str(work)], f"Creating a virtual environment for onnxruntime "
             f"{version}", _INSTALL_TIMEOUT, cancel)
        py = str(_env_python(work))
        numpy = _numpy_spec(version)
        report(progress, _STAGE, 0, 0, f"installing onnxruntime {version} and {numpy}", unit=STEPS)
        # --no-deps for onnxruntime: running a session needs numpy only (coloredlogs, sympy… serve its tools)
        _run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", str(dest)],
             f"Installing {dest.name}", _INSTALL_TIMEOUT, cancel)
        _run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:", numpy],
             f"Installing {numpy} for onnxruntime {version}", _INSTALL_TIMEOUT, cancel)
        stamp_doc = {"version": version, "wheel": dest.name, "sha256": sha, "numpy": numpy}
        (work / "onnxpack-ready.json").write_text(json.dumps(stamp_doc), encoding="utf-8")
        try:
            os.replace(work, env)
        except OSError:  # another run made it meanwhile
            if not stamp.is_file():
                shutil.rmtree(env, ignore_errors=True)
                os.replace(work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return _Env(version, _env_python(env), dest.name, sha, numpy)


def _machine() -> str:
    import platform

    return platform.machine().lower() or "unknown"


# -- running ----------------------------------------------------------------------------------------------------

#: Run in the release's own environment (any numpy, any onnxruntime): load, run, save the outputs as .npy.
CHILD_SCRIPT = r'''
import json, os, sys, time
job = json.load(open(sys.argv[1], encoding="utf-8"))
res = {"ort_version": None, "numpy_version": None, "loaded": False, "message": None, "outputs": [],
       "load_s": None, "run_s": None}
try:
    import numpy as np
    res["numpy_version"] = np.__version__
    import onnxruntime as ort
    res["ort_version"] = ort.__version__
    so = ort.SessionOptions()
    so.log_severity_level = 3
    t = time.perf_counter()
    if job.get("window"):
        with open(job["model"], "rb") as f:
            f.seek(job["window"][0])
            data = f.read(job["window"][1])
        sess = ort.InferenceSession(data, sess_options=so, providers=["CPUExecutionProvider"])
    else:
        sess = ort.InferenceSession(job["model"], sess_options=so, providers=["CPUExecutionProvider"])
    res["load_s"] = time.perf_counter() - t
    res["loaded"] = True
    feeds = {k: np.load(v, allow_pickle=False) for k, v in job["inputs"].items()}
    t = time.perf_counter()
    outs = sess.run(None, feeds)
    res["run_s"] = time.perf_counter() - t
    for i, (meta, value) in enumerate(zip(sess.get_outputs(), outs)):
        path = os.path.join(job["out"], "%02d.npy" % i)
        try:
            arr = np.asarray(value)
            if arr.dtype.kind == "O":
                arr = arr.astype(str)
            np.save(path, arr, allow_pickle=False)
            res["outputs"].append({"name": meta.name, "file": path})
        except Exception as e:
            res["outputs"].append({"name": meta.name, "file": None, "message": "%s: %s" % (type(e).__name__, e)})
except Exception as e:
    res["message"] = ("%s: %s" % (type(e).__name__, e)).strip()
with open(job["result"], "w", encoding="utf-8") as f:
    json.dump(res, f)
'''


@dataclass
class ReleaseProof:
    """What one release did with the model."""

    version: str
    wheel: str | None
    wheel_sha256: str | None
    numpy: str | None
    loaded: bool
    message: str | None  # ORT's own message when it did not load or run
    outputs: list[dict[str, Any]] = field(default_factory=list)
    load_s: float | None = None
    run_s: float | None = None

    @property
    def equal(self) -> bool:
        return self.loaded and not self.message and all(o.get("bitwise_equal") for o in self.outputs)

    @property
    def ok(self) -> bool:
        return self.loaded and not self.message and all(o.get("within_tolerance") for o in self.outputs)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version, "wheel": self.wheel, "wheel_sha256": self.wheel_sha256, "numpy": self.numpy,
            "loaded": self.loaded, "message": self.message, "ok": self.ok, "outputs_bitwise_equal": self.equal,
            "max_abs_diff": max((float(o["max_abs"]) for o in self.outputs if o.get("max_abs") is not None),
                                default=None),
            "outputs": list(self.outputs),
            "load_s": None if self.load_s is None else round(self.load_s, 4),
            "run_s": None if self.run_s is None else round(self.run_s, 4),
        }


@dataclass
class ProveReport:
    """The manifest's ``prove_ort`` section: the reference run, the tolerance, and each release."""

    reference: ReleaseProof
    releases: list[ReleaseProof]
    requested: str
    inputs: dict[str, dict[str, Any]]
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.reference.ok and all(r.ok for r in self.releases)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": PROVE_SCHEMA, "requested": self.requested, "ok": self.ok,
            "reference_ort": self.reference.version, "atol": ATOL, "rtol": RTOL,
            "comparison": "bitwise, else numpy.allclose(atol, rtol) with the largest difference recorded",
            "inputs": self.inputs,
            "notes": list(self.notes),
            "releases": [r.to_dict() for r in self.releases],
        }


def _run_child(python: str, model: Path, window: tuple[int, int] | None, inputs: dict[str, Path], tmp: Path,
               label: str, cancel: CancelToken | None, timeout: float) -> dict[str, Any]:
    out = tmp / label
    out.mkdir()
    script = tmp / "prove_child.py"
    if not script.exists():
        script.write_text(CHILD_SCRIPT, encoding="utf-8")
    job = {"model": str(model), "window": list(window) if window else None,
           "inputs": {k: str(v) for k, v in inputs.items()}, "out": str(out), "result": str(out / "result.json")}
    (out / "job.json").write_text(json.dumps(job), encoding="utf-8")
    env = dict(os.environ)
    for var in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):
        env.pop(var, None)
    for var in ("TMPDIR", "TMP", "TEMP"):
        env[var] = str(out)
    with open(out / "log.txt", "wb") as log:
        proc = subprocess.Popen([python, "-I", str(script), str(out / "job.json")], cwd=str(out), env=env,
                                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if not _wait(proc, timeout, cancel, poll=0.05):
            return {"loaded": False, "message": f"no answer within {timeout:g} s (stopped)", "outputs": []}
    try:
        result: dict[str, Any] = json.loads((out / "result.json").read_text(encoding="utf-8"))
        return result
    except (OSError, ValueError):
        tail = (out / "log.txt").read_bytes()[-1500:].decode("utf-8", "replace").strip()
        return {"loaded": False, "outputs": [],
                "message": f"the process ended with status {proc.returncode} without a result"
                           + (f": {tail.splitlines()[-1]}" if tail else "")}


def _compare(ref: dict[str, Any], got: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    mine = {o["name"]: o for o in got.get("outputs", [])}
    for o in ref.get("outputs", []):
        row: dict[str, Any] = {"name": o["name"], "bitwise_equal": False, "within_tolerance": False,
                               "max_abs": None, "max_rel": None}
        other = mine.get(o["name"])
        if other is None or not other.get("file") or not o.get("file"):
            row["message"] = (other or {}).get("message") or "no such output"
            rows.append(row)
            continue
        a = np.load(o["file"], allow_pickle=False)
        b = np.load(other["file"], allow_pickle=False)
        if a.shape != b.shape or a.dtype != b.dtype:
            row["message"] = f"{b.dtype}{list(b.shape)} instead of {a.dtype}{list(a.shape)}"
            rows.append(row)
            continue
        row["bitwise_equal"] = a.tobytes() == b.tobytes()
        if row["bitwise_equal"]:
            row.update(within_tolerance=True, max_abs=0.0, max_rel=0.0)
        elif a.dtype.kind in "fc":
            fa, fb = a.astype(np.float64), b.astype(np.float64)
            diff = np.abs(fa - fb)
            finite = np.isfinite(diff)
            row["max_abs"] = float(diff[finite].max()) if finite.any() else None
            denom = np.maximum(np.abs(fa), np.abs(fb))
            with np.errstate(divide="ignore", invalid="ignore"):
                rel = np.where(denom > 0, diff / denom, 0.0)
            row["max_rel"] = float(rel[finite].max()) if finite.any() else None
            row["within_tolerance"] = bool(np.allclose(fa, fb, atol=ATOL, rtol=RTOL, equal_nan=True))
        elif a.dtype.kind in "iub":
            row["max_abs"] = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
        rows.append(row)
    return rows


def _proof(version: str, env: _Env | None, raw: dict[str, Any], ref: dict[str, Any] | None) -> ReleaseProof:
    p = ReleaseProof(version, env.wheel if env else None, env.sha256 if env else None,
                     raw.get("numpy_version"), bool(raw.get("loaded")), raw.get("message"),
                     load_s=raw.get("load_s"), run_s=raw.get("run_s"))
    if ref is not None and p.loaded and not p.message:
        p.outputs = _compare(ref, raw)
    elif ref is None and p.loaded and not p.message:
        p.outputs = [{"name": o["name"], "bitwise_equal": True, "within_tolerance": True, "max_abs": 0.0,
                      "max_rel": 0.0} for o in raw.get("outputs", [])]
    return p


def _inputs_for(model: Any, dims: dict[str, int] | None, seed: int, tmp: Path) -> tuple[dict[str, Path],
                                                                                         dict[str, dict[str, Any]]]:
    from ..checks.inspection import describe_type
    from .inputs import InputMeta, generate_inputs

    inits = {t.name for t in model.graph.initializer}
    metas = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        elem, shape = describe_type(vi.type)
        metas.append(InputMeta(vi.name, f"tensor({elem.lower()})", list(shape)))
    gen = generate_inputs(metas, seed=seed, dims=dims or {})
    if gen.problems or gen.too_large:
        raise InputError(f"Cannot make inputs to prove the model with: {'; '.join(gen.problems + gen.too_large)}",
                         "Give the sizes the model needs with --dim NAME=VALUE.", code="PROVE_INPUTS")
    paths = {}
    for i, (name, arr) in enumerate(sorted(gen.feeds.items())):
        paths[name] = tmp / f"in{i:02d}.npy"
        np.save(paths[name], np.asarray(arr), allow_pickle=False)
    return paths, {k: {"dtype": str(np.asarray(v).dtype), "shape": list(np.asarray(v).shape)}
                   for k, v in gen.feeds.items()}


def prove_model(
    model_path: Path,
    model: Any,
    releases: list[str],
    *,
    requested: str = "",
    window: tuple[int, int] | None = None,
    dims: dict[str, int] | None = None,
    seed: int = 0,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
    timeout: float = RUN_TIMEOUT,
    notes: list[str] | None = None,
) -> ProveReport:
    """Run ``model_path`` (the model ``model`` describes; ``window`` = its byte range in that file, e.g. a ZIP entry)
    under the installed onnxruntime (the reference) and each of ``releases``; compare every output."""
    if not releases:
        raise InputError("--prove-ort names no release", "Give releases like 1.16.3,1.20.1.", code="USAGE")
    tmp = Path(tempfile.mkdtemp(prefix=f"onnxpack-prove-{os.getpid()}-"))
    try:
        inputs, described = _inputs_for(model, dims, seed, tmp)
        envs = []
        for i, v in enumerate(releases):  # every environment first: a missing wheel fails before any run
            report(progress, _STAGE, i, len(releases), f"onnxruntime {v}: preparing", unit=STEPS)
            envs.append(ensure_release(v, progress, cancel))
            check_cancel(cancel)
        report(progress, _STAGE, 0, len(releases) + 1, "reference run (installed onnxruntime)", unit=STEPS)
        ref_raw = _run_child(_reference_python(), model_path, window, inputs, tmp, "reference", cancel, timeout)
        from ..checks.compat import ort_package_version

        reference = _proof(str(ref_raw.get("ort_version") or ort_package_version() or "installed"), None, ref_raw,
                           None)
        if not reference.ok:
            raise RuntimeFailure(f"The reference run with the installed onnxruntime failed: {reference.message}",
                                 "Run `onnxpack smoke` on the model to see why.", code="PROVE_REFERENCE")
        proofs = []
        for i, env in enumerate(envs):
            report(progress, _STAGE, i + 1, len(envs) + 1, f"running on onnxruntime {env.version}", unit=STEPS)
            raw = _run_child(str(env.python), model_path, window, inputs, tmp, f"ort-{env.version}", cancel,
                             timeout)
            if raw.get("ort_version") and raw["ort_version"] != env.version and raw.get("loaded"):
                raw["message"] = f"the environment runs onnxruntime {raw['ort_version']}, not {env.version}"
            proofs.append(_proof(env.version, env, raw, ref_raw))
        report(progress, _STAGE, len(envs) + 1, len(envs) + 1, "done", unit=STEPS)
        return ProveReport(reference, proofs, requested, described, list(notes or []))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _reference_python() -> str:
    """The interpreter of the reference run: this one (it has the installed onnxruntime); in a frozen executable,
    which cannot run a script, the cached environment of the same onnxruntime release."""
    if getattr(sys, "frozen", False):
        from ..checks.compat import ort_package_version

        version = ort_package_version()
        if version is None or not _VERSION.fullmatch(version):
            raise RuntimeFailure("The frozen onnxpack cannot tell which onnxruntime it carries, so it has no reference "
                                 "to prove against", "Run onnxpack installed with pip.", code="PROVE_REFERENCE")
        return str(ensure_release(version).python)
    return sys.executable


def prove_findings(report_: ProveReport, name: str) -> list[Any]:
    """One finding per release: it loads the model and gives the same outputs, or what went wrong."""
    from ..findings import Finding

    out = []
    for r in report_.releases:
        if not r.loaded or (r.message and not r.outputs):
            out.append(Finding.error(
                "PROVE_ORT_NOT_LOADED", f"ONNX Runtime {r.version} (its official wheel) cannot run {name}: {r.message}",
                f"`onnxpack bundle --target-ort {'.'.join(r.version.split('.')[:2])} --fix-ir --prove-ort {r.version}` "
                "retargets the released copy and proves it on that release.",
                f"ORT {r.version}", model=name, version=r.version, detail=r.message or "",
            ))
        elif not r.ok:
            worst = max((o["max_abs"] for o in r.outputs if o.get("max_abs") is not None), default=None)
            out.append(Finding.error(
                "PROVE_ORT_MISMATCH",
                f"ONNX Runtime {r.version} runs {name} but its outputs differ from ONNX Runtime "
                f"{report_.reference.version}'s beyond atol {ATOL:g} / rtol {RTOL:g} (largest difference {worst})",
                "Do not ship the model for that release without checking the difference matters; report it to the "
                "ONNX Runtime project if it should not.", f"ORT {r.version}", model=name, version=r.version,
                reference=report_.reference.version, difference=str(worst),
            ))
        else:
            same = ("bitwise-equal outputs" if r.equal else
                    f"outputs within tolerance (largest difference {r.to_dict()['max_abs_diff']:.3g})")
            out.append(Finding.info(
                "PROVE_ORT_OK", f"ONNX Runtime {r.version} (its official wheel) runs {name}: {same} with ONNX "
                f"Runtime {report_.reference.version}", "", f"ORT {r.version}", model=name, version=r.version,
                reference=report_.reference.version, detail=same,
            ))
    return out


def prove_file(model_path: Path, data_dir: Path | None, model: Any, spec: str, oldest_claimed: str | None, *,
               progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> ProveReport:
    """``check --prove-ort``: prove the model as it is. It is first merged into a private folder (onnxpack's own
    reader and its external-data rules), so no ONNX Runtime ever resolves a path the model names."""
    from ..model.merge import merge_model

    notes: list[str] = []
    releases = resolve_releases(parse_prove_spec(spec), oldest_claimed, cancel, notes)
    tmp = Path(tempfile.mkdtemp(prefix=f"onnxpack-prove-{os.getpid()}-"))
    try:
        merged = tmp / "model.onnx"
        merge_model(model_path, merged, data_dir, progress=progress, cancel=cancel)
        return prove_model(merged, model, releases, requested=spec, progress=progress, cancel=cancel, notes=notes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

