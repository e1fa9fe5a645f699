"""--prove-ort: the cached virtual environment of each ONNX Runtime release (its wheel downloaded, checked, installed).

Wheels and environments are cached in the user's cache folder (:func:`cache_dir`) and reused.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..childproc import child_environ
from ..filehash import sha256_file
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from . import codes
from .wheels import NET_TIMEOUT, here, index, machine, pick_wheel, release_files, tag_ranks, vkey

__all__ = ["ReleaseEnv", "cache_dir", "ensure_release", "wait"]

_STAGE = "prove"
_INSTALL_TIMEOUT = 900.0


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


@dataclass(frozen=True)
class ReleaseEnv:
    version: str
    python: Path
    wheel: str
    sha256: str
    numpy: str


def _numpy_spec(version: str) -> str:
    return "numpy<2" if vkey(version)[:2] < (1, 19) else "numpy"


def _download(url: str, dest: Path, sha256: str, progress: ProgressCallback | None, cancel: CancelToken | None,
              label: str) -> None:
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    h = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=NET_TIMEOUT) as r, open(tmp, "wb") as f:
            total = int(r.headers.get("Content-Length") or 0)
            done = 0
            while chunk := r.read(1 << 20):
                check_cancel(cancel)
                f.write(chunk)
                h.update(chunk)
                done += len(chunk)
                report(progress, _STAGE, done, total or done, f"downloading {label}")
        if h.hexdigest() != sha256:
            raise codes.PROVE_WHEEL_HASH.error(file=dest.name, actual=h.hexdigest(), expected=sha256)
        os.replace(tmp, dest)
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        raise codes.PROVE_NETWORK.error(
            variant="download", file=dest.name, reason=str(getattr(e, "reason", e)), details=str(e),
        ) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _env_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def wait(proc: subprocess.Popen[bytes], timeout: float, cancel: CancelToken | None, *, poll: float) -> bool:
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
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=child_environ())  # fmt: skip
        if not wait(proc, timeout, cancel, poll=0.1):
            raise codes.PROVE_ENV.error(variant="timeout", what=what, timeout=f"{timeout:g}")
        if proc.returncode != 0:
            log.seek(0)
            tail = log.read()[-2000:].decode("utf-8", "replace").strip()
            last = tail.splitlines()[-1] if tail else f"exit status {proc.returncode}"
            raise codes.PROVE_ENV.error(what=what, last=last, details=tail)


def _python_for_envs() -> str:
    if getattr(sys, "frozen", False):
        exe = os.environ.get("ONNXPACK_PYTHON")
        if not exe:
            raise codes.PROVE_NO_PYTHON.error()
        return exe
    return sys.executable


def ensure_release(version: str, progress: ProgressCallback | None = None,
                   cancel: CancelToken | None = None, python: str | None = None) -> ReleaseEnv:
    """The cached environment of onnxruntime ``version`` (made now when missing: download, verify, install).

    ``python``: another CPython to make it with (benchmarks/probe_releases.py measures releases that have no wheel
    for this one); by default this interpreter."""
    root = cache_dir() / "ort-releases"
    tag = _env_tag(python)
    env = root / "envs" / f"{version}-{tag}"
    cached = _cached(env, version)
    if cached is not None:
        return cached
    report(progress, _STAGE, 0, 0, f"looking up onnxruntime {version} on {index()}", unit=STEPS)
    wheel, sha = _wheel(version, python)
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
        numpy = _install(work, version, dest, python, progress, cancel)
        stamp_doc = {"version": version, "wheel": dest.name, "sha256": sha, "numpy": numpy}
        (work / "onnxpack-ready.json").write_text(json.dumps(stamp_doc), encoding="utf-8")
        try:
            os.replace(work, env)
        except OSError:  # another run made it meanwhile
            if not (env / "onnxpack-ready.json").is_file():
                shutil.rmtree(env, ignore_errors=True)
                os.replace(work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ReleaseEnv(version, _env_python(env), dest.name, sha, numpy)


def _env_tag(python: str | None) -> str:
    """The interpreter and platform an environment is made for, in its folder's name."""
    if python is None:
        return f"cp{sys.version_info.major}{sys.version_info.minor}-{sys.platform}-{machine()}"
    first = next(iter(tag_ranks(python)), None)
    return f"{first.interpreter if first is not None else 'py'}-{sys.platform}-{machine()}"


def _cached(env: Path, version: str) -> ReleaseEnv | None:
    """The environment made earlier in ``env`` (complete: its stamp is written last), else None."""
    stamp = env / "onnxpack-ready.json"
    if stamp.is_file() and _env_python(env).exists():
        with contextlib.suppress(ValueError, OSError, KeyError):
            d = json.loads(stamp.read_text(encoding="utf-8"))
            return ReleaseEnv(version, _env_python(env), d["wheel"], d["sha256"], d["numpy"])
    return None


def _wheel(version: str, python: str | None) -> tuple[dict[str, Any], str]:
    """The index's entry of the wheel of ``version`` to install for ``python`` (None: this one), and its SHA-256."""
    files = release_files().get(version)
    if files is None:
        raise codes.PROVE_NO_RELEASE.error(version=version)
    wheel = pick_wheel(version, files, python)
    if wheel is None:
        names = ", ".join(sorted({str(f.get("filename", "")).split("-")[2] for f in files
                                  if f.get("packagetype") == "bdist_wheel"})) or "none"
        raise codes.PROVE_NO_WHEEL.error(version=version, here=here(python), platforms=names)
    sha = str((wheel.get("digests") or {}).get("sha256") or "")
    if not re.fullmatch(r"[0-9a-f]{64}", sha):
        raise codes.PROVE_WHEEL_HASH.error(variant="missing", file=str(wheel["filename"]))
    return wheel, sha


def _install(work: Path, version: str, wheel: Path, python: str | None, progress: ProgressCallback | None,
             cancel: CancelToken | None) -> str:
    """Make a virtual environment in ``work`` with onnxruntime ``version`` (its ``wheel``) and a numpy it accepts;
    return that numpy's requirement."""
    report(progress, _STAGE, 0, 0, f"creating the environment of onnxruntime {version}", unit=STEPS)
    _run([python or _python_for_envs(), "-m", "venv", str(work)], f"Creating a virtual environment for onnxruntime "
         f"{version}", _INSTALL_TIMEOUT, cancel)
    py = str(_env_python(work))
    numpy = _numpy_spec(version)
    report(progress, _STAGE, 0, 0, f"installing onnxruntime {version} and {numpy}", unit=STEPS)
    # --no-deps for onnxruntime: running a session needs numpy only (coloredlogs, sympy… serve its tools)
    _run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", str(wheel)],
         f"Installing {wheel.name}", _INSTALL_TIMEOUT, cancel)
    _run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--only-binary=:all:", numpy],
         f"Installing {numpy} for onnxruntime {version}", _INSTALL_TIMEOUT, cancel)
    return numpy
