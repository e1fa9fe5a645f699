"""``--target-app PATH``: the ONNX Runtime release an application embeds, read from its own lock file or manifest.

Release managers know their app, not the ORT inside it. Read, in this order of trust (a lock file says what is
built; a manifest what may be): ``Cargo.lock`` (the Rust ``ort``/``ort-sys`` crates), ``packages.lock.json``,
``*.csproj``, ``Directory.Packages.props`` (NuGet ``Microsoft.ML.OnnxRuntime*``), ``package-lock.json`` (npm
``onnxruntime-node``, ``onnxruntime-web``), ``uv.lock``, ``requirements*.txt``, ``pyproject.toml`` (PyPI
``onnxruntime*``), ``package.json``. The answer names the file and line. A ``Cargo.toml`` is refused with the path of
its ``Cargo.lock`` (beside it, or at the workspace root above it). A version range counts by its lower bound: the oldest
runtime the app may end up with is the one to target.

The Rust crates do not carry ORT's version in their own: each ``ort``/``ort-sys`` release downloads (or links) one
ONNX Runtime build, named in its sources. :data:`ORT_CRATE_RELEASES` was read from those sources, tag by tag, in
the pykeio/ort repository (github.com/pykeio/ort):
  v1.13.x–v1.16.x        build.rs ``const ORT_VERSION: &str = "…"`` (1.13.1, 1.14.0, 1.14.1, 1.15.1, 1.16.0)
  v2.0.0-alpha.1         ort-sys/build.rs download URLs ``msort-binary/1.16.2+001``
  v2.0.0-alpha.2–4       ort-sys/build.rs download URLs ``1.16.3``
  v2.0.0-rc.1            ort-sys/build.rs ``1.17.1``; rc.2: ort-sys/dist.txt ``1.17.3``; rc.3: dist.txt ``1.18.1``
  v2.0.0-rc.4–rc.10      ort-sys/build.rs ``const ONNXRUNTIME_VERSION: &str`` (1.18.1, 1.19.0, 1.19.2, 1.19.2,
                         1.19.2 for rc.8 — commit 5f6411a that set version 2.0.0-rc.8 —, 1.20.0, 1.22.0)
  v2.0.0-rc.11–rc.13     ort-sys/build/download/dist.txt / dist.tsv URLs ``ms@1.23.2``, ``ms@1.24.2``, ``ms@1.28.0``
With the ``load-dynamic`` feature the app loads whatever onnxruntime library it ships instead; the crate then only
fixes the lowest ORT API it needs (``ORT_API_VERSION``), and the message says so.

Each format is read with its own parser, never with patterns over its text: TOML (``Cargo.lock``, ``uv.lock``,
``pyproject.toml``) with ``tomllib``, requirements with ``packaging.requirements`` (a commented-out line never counts;
an environment marker counts when some plausible target — CPython 3.8–3.14 on Linux, Windows or macOS — satisfies
it), MSBuild files with expat and no document type (so no entity is ever expanded; a ``Condition`` that is plainly
false leaves its item out), JSON with ``json`` (numbers kept as text). Every file is a regular file of bounded size
(core/boundedread.py); a deep, malformed or oddly shaped file and a version number no release has are clear errors.
The line an answer names is looked up once, for the answer only, in one pass over the text.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .. import errorcodes
from ..boundedread import BoundedReadError, read_bounded, size_words
from . import codes
from .appformats import (
    MAX_DIGITS,
    VERSION,
    Found,
    Malformed,
    line_of,
    lock_packages,
    npm_lock,
    nuget_lock,
    nuget_xml,
    package_json,
    pyproject,
    read_toml,
    requirements_txt,
    short,
    toml_anchors,
    uv_lock,
    version_key,
)

__all__ = ["MAX_APP_FILE_BYTES", "ORT_CRATE_RELEASES", "AppTarget", "read_target_app", "target_from"]

#: ort / ort-sys crate version (exact, or a prefix ending in ".") → the ONNX Runtime release it uses.
ORT_CRATE_RELEASES: tuple[tuple[str, str], ...] = (
    ("1.13.", "1.13.1"),
    ("1.14.0-alpha.0", "1.13.1"),
    ("1.14.0-beta.0", "1.14.0"),
    ("1.14.0", "1.14.0"),
    ("1.14.1", "1.14.0"),
    ("1.14.", "1.14.1"),
    ("1.15.", "1.15.1"),
    ("1.16.", "1.16.0"),
    ("2.0.0-alpha.1", "1.16.2"),
    ("2.0.0-alpha.", "1.16.3"),
    ("2.0.0-rc.0", "1.17.1"),
    ("2.0.0-rc.1", "1.17.1"),
    ("2.0.0-rc.2", "1.17.3"),
    ("2.0.0-rc.3", "1.18.1"),
    ("2.0.0-rc.4", "1.18.1"),
    ("2.0.0-rc.5", "1.19.0"),
    ("2.0.0-rc.6", "1.19.2"),
    ("2.0.0-rc.7", "1.19.2"),
    ("2.0.0-rc.8", "1.19.2"),
    ("2.0.0-rc.9", "1.20.0"),
    ("2.0.0-rc.10", "1.22.0"),
    ("2.0.0-rc.11", "1.23.2"),
    ("2.0.0-rc.12", "1.24.2"),
    ("2.0.0-rc.13", "1.28.0"),
)

_SKIP_DIRS = {".git", "node_modules", "target", ".venv", "venv", "bin", "obj", "__pycache__", "dist", "build"}
#: The largest dependency file read (a big monorepo's package-lock.json is some MiB; ``/dev/zero`` is refused).
MAX_APP_FILE_BYTES = 32 << 20
#: TOML lock files: tomllib is pure Python, so the bound is lower (a large workspace's Cargo.lock is ~2 MiB).
_MAX_TOML_LOCK_BYTES = 16 << 20
#: Manifests and requirements are written by hand: a few KiB.
_MAX_MANIFEST_BYTES = 4 << 20
#: How many folders above a Cargo.toml are looked at for the workspace's Cargo.lock.
_CARGO_LOCK_LEVELS = 8


@dataclass(frozen=True)
class AppTarget:
    """The ONNX Runtime an app embeds, and where that was read."""

    version: str  # X.Y.Z (or X.Y when only that is known)
    file: Path
    line: int
    package: str  # the dependency that gave it ("ort-sys 2.0.0-rc.10", "Microsoft.ML.OnnxRuntime 1.16.3")
    note: str = ""

    @property
    def minor(self) -> str:
        m = VERSION.match(self.version)
        assert m is not None
        return f"{int(m.group(1))}.{int(m.group(2))}"

    def describe(self) -> str:
        return (f"ONNX Runtime {self.version}, from {self.package} in {self.file.name}, line {self.line}"
                + (f" ({self.note})" if self.note else ""))


def _crate_ort(version: str) -> str | None:
    for key, ort in ORT_CRATE_RELEASES:
        if version == key or (key.endswith(".") and version.startswith(key)):
            return ort
    return None


def _cargo(path: Path, text: str) -> list[Found]:
    pkgs = list(lock_packages(read_toml(text)))
    for wanted in ("ort-sys", "ort"):
        found = []
        for name, version in pkgs:
            if name != wanted:
                continue
            ort = _crate_ort(version)
            if ort is None:
                raise codes.TARGET_APP_UNKNOWN.error(path.name, file=path.name, package=name, version=short(version),
                                                     line=line_of(text, toml_anchors(name, version)))
            found.append(Found(ort, f"{name} {version}",
                                "the ONNX Runtime build the crate downloads; with its load-dynamic feature the app "
                                "loads the library it ships instead", toml_anchors(name, version)))
        if found:
            return found
    return []


# ----------------------------------------------------------------------------- which file, read how

_Reader = Callable[[Path, str], list[Found]]


def _reader(path: Path) -> tuple[_Reader, str, int] | None:
    """The reader of ``path`` by its name, its format in words and the largest size read."""
    name = path.name
    low = name.lower()
    if name == "Cargo.lock":
        return _cargo, "TOML (Cargo.lock)", _MAX_TOML_LOCK_BYTES
    if low == "packages.lock.json":
        return nuget_lock, "JSON (NuGet packages.lock.json)", MAX_APP_FILE_BYTES
    if low.endswith((".csproj", ".fsproj", ".vbproj")) or low == "directory.packages.props":
        return nuget_xml, "MSBuild XML", _MAX_MANIFEST_BYTES
    if low == "package-lock.json":
        return npm_lock, "JSON (npm package-lock.json)", MAX_APP_FILE_BYTES
    if low == "package.json":
        return package_json, "JSON (package.json)", _MAX_MANIFEST_BYTES
    if low == "uv.lock":
        return uv_lock, "TOML (uv.lock)", _MAX_TOML_LOCK_BYTES
    if low == "pyproject.toml":
        return pyproject, "TOML (pyproject.toml)", _MAX_MANIFEST_BYTES
    if low.startswith("requirements") and low.endswith((".txt", ".in")):
        return requirements_txt, "requirements syntax (pip)", _MAX_MANIFEST_BYTES
    return None


_ORDER = ("Cargo.lock", "packages.lock.json", "package-lock.json", "uv.lock", ".csproj", "Directory.Packages.props",
          "requirements", "pyproject.toml", "package.json")


def _rank(path: Path) -> int:
    for i, key in enumerate(_ORDER):
        if path.name == key or path.name.endswith(key) or path.name.startswith(key):
            return i
    return len(_ORDER)


def _candidates(root: Path) -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(root):
        depth = len(Path(folder).relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith(".")) if depth < 3 else []
        out += [Path(folder) / f for f in sorted(files) if _reader(Path(folder) / f) is not None]
    return sorted(out, key=lambda p: (_rank(p), len(p.parts), str(p)))


def _checked_version(found: Found, path: Path, text: str) -> bool:
    """Whether ``found`` names a release number (X.Y or X.Y.Z…); a number too long to be one is an error (Python's
    int() refuses more than 4,300 digits: never let it)."""
    m = VERSION.match(found.version.strip())
    if m is None:
        return False  # "*", "latest", "$(OrtVersion)" unresolved: names no release
    if any(len(g) > MAX_DIGITS for g in m.groups() if g):
        line = found.line or line_of(text, found.anchors)
        raise codes.TARGET_APP_UNREADABLE.error(path.name, variant="version", file=path.name, line=line,
                                                package=found.package.split(" ", 1)[0], version=short(found.version))
    return True


def _refuse_cargo_manifest(p: Path) -> None:
    """A Cargo.toml says which ort releases may be used; the Cargo.lock beside it (or at the workspace root above it)
    says which is built: name it."""
    folder = p.absolute().parent
    for _ in range(_CARGO_LOCK_LEVELS):
        lock = folder / "Cargo.lock"
        if lock.is_file():
            raise codes.TARGET_APP_UNREADABLE.error(p.name, variant="cargo_manifest", file=p.name, lock=lock)
        if folder.parent == folder:
            break
        folder = folder.parent
    raise codes.TARGET_APP_UNREADABLE.error(p.name, variant="cargo_no_lock", file=p.name, count=_CARGO_LOCK_LEVELS)


def _read(f: Path) -> tuple[list[Found], str]:
    """What the file ``f`` says about ONNX Runtime (OSError, UnicodeDecodeError or Malformed when it cannot say)."""
    reader = _reader(f)
    assert reader is not None
    read, _fmt, limit = reader
    text = read_bounded(f, limit).decode("utf-8-sig")
    return read(f, text), text


def read_target_app(path: str | os.PathLike[str]) -> AppTarget:
    """The ONNX Runtime release the app at ``path`` (a file above, or its folder) embeds; InputError when none."""
    p = Path(path)
    if not p.exists():
        raise codes.TARGET_APP_UNREADABLE.error(p.name, path=p)
    folder = p.is_dir()
    if not folder and p.name.lower() == "cargo.toml":
        _refuse_cargo_manifest(p)
    if not folder and _reader(p) is None:
        raise codes.TARGET_APP_UNREADABLE.error(p.name, variant="kind", file=p.name)
    files = _candidates(p) if folder else [p]
    for f in files:
        try:
            got, text = _read(f)
        except OSError as e:
            if folder:
                continue
            limit = size_words(_reader(f)[2])  # type: ignore[index]
            if isinstance(e, BoundedReadError):
                raise codes.TARGET_APP_UNREADABLE.error(f.name, variant="refused", file=f.name,
                                                        reason=e.strerror or e, limit=limit) from None
            raise codes.TARGET_APP_UNREADABLE.error(f.name, variant="unreadable", file=f.name, reason=e.strerror or e,
                                                    limit=limit) from None
        except (UnicodeDecodeError, Malformed) as e:
            if folder:
                continue
            fmt = _reader(f)[1]  # type: ignore[index]
            reason = "it is not UTF-8 text" if isinstance(e, UnicodeDecodeError) else str(e)
            raise codes.TARGET_APP_UNREADABLE.error(f.name, variant="malformed", file=f.name, format=fmt,
                                                    reason=short(reason, 200)) from None
        found = [t for t in got if _checked_version(t, f, text)]
        if found:  # the most trusted file that names the runtime decides; the oldest release it allows
            best = min(found, key=lambda t: version_key(t.version))
            line = best.line or line_of(text, best.anchors)
            return AppTarget(best.version.strip(), f, line, best.package, best.note)
    if folder:
        raise codes.TARGET_APP_NONE.error(p.name, variant="folder", count=len(files), path=p)
    raise codes.TARGET_APP_NONE.error(p.name, file=p.name)


def target_from(target_ort: str | None,
                target_app: str | os.PathLike[str] | None) -> tuple[str | None, AppTarget | None]:
    """``--target-ort`` and ``--target-app`` together: the MAJOR.MINOR to target, and what the app said."""
    if target_app is None:
        return target_ort, None
    app = read_target_app(target_app)
    if target_ort is not None:
        from .compat import parse_version

        if parse_version(target_ort) != parse_version(app.minor):
            raise errorcodes.USAGE.error(variant="target_app_disagrees", target_ort=target_ort, app=app.describe())
    return app.minor, app
