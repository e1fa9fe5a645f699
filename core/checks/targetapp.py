"""``--target-app PATH``: the ONNX Runtime release an application embeds, read from its own lock file or manifest.

Release managers know their app, not the ORT inside it. Read, in this order of trust (a lock file says what is
built; a manifest what may be): ``Cargo.lock`` (the Rust ``ort``/``ort-sys`` crates), ``packages.lock.json``,
``*.csproj``, ``Directory.Packages.props`` (NuGet ``Microsoft.ML.OnnxRuntime*``), ``package-lock.json`` (npm
``onnxruntime-node``, ``onnxruntime-web``), ``uv.lock``, ``requirements*.txt``, ``pyproject.toml`` (PyPI
``onnxruntime*``). The answer names the file and line. A version range counts by its lower bound: the oldest
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
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from . import codes

__all__ = ["ORT_CRATE_RELEASES", "AppTarget", "read_target_app", "target_from"]

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

_NUGET = re.compile(r"^Microsoft\.ML\.OnnxRuntime(\.(Gpu|DirectML|Managed|OpenVino|Training))?$", re.I)
_PYPI = re.compile(r"^onnxruntime(-(gpu|directml|openvino|silicon|qnn|rocm|training))?$", re.I)
_NPM = ("onnxruntime-node", "onnxruntime-web", "onnxruntime-react-native", "onnxruntime-common")
_SKIP_DIRS = {".git", "node_modules", "target", ".venv", "venv", "bin", "obj", "__pycache__", "dist", "build"}
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


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
        m = _VERSION.match(self.version)
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


def _lock_packages(text: str) -> list[tuple[str, str, int]]:
    """``[[package]]`` tables of Cargo.lock / uv.lock: (name, version, line of the version)."""
    out: list[tuple[str, str, int]] = []
    name: str | None = None
    for i, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s == "[[package]]":
            name = None
        elif m := re.fullmatch(r'name\s*=\s*"([^"]+)"', s):
            name = m.group(1)
        elif (m := re.fullmatch(r'version\s*=\s*"([^"]+)"', s)) and name is not None:
            out.append((name, m.group(1), i))
            name = None
    return out


def _cargo(path: Path, text: str) -> list[AppTarget]:
    found = []
    pkgs = _lock_packages(text)
    for wanted in ("ort-sys", "ort"):
        for name, version, line in pkgs:
            if name != wanted:
                continue
            ort = _crate_ort(version)
            if ort is None:
                raise codes.TARGET_APP_UNKNOWN.error(path.name, file=path.name, line=line, package=name,
                                                     version=version)
            found.append(AppTarget(ort, path, line, f"{name} {version}",
                                   "the ONNX Runtime build the crate downloads; with its load-dynamic feature the app "
                                   "loads the library it ships instead"))
        if found:
            return found[:1]
    return found


def _find_line(text: str, needle: str, start: int = 0) -> int:
    pos = text.find(needle, start)
    return text.count("\n", 0, pos) + 1 if pos >= 0 else 1


def _nuget_xml(path: Path, text: str) -> list[AppTarget]:
    out = []
    for m in re.finditer(r'<(PackageReference|PackageVersion)\s[^>]*?Include\s*=\s*"([^"]+)"([^>]*?)(/?)>', text, re.I):
        if not _NUGET.match(m.group(2)):
            continue
        v = re.search(r'Version\s*=\s*"\[?([^",\])]+)', m.group(3))
        version = v.group(1) if v else None
        if version is None and not m.group(4):  # <Version>…</Version> inside the element
            inner = re.match(r"\s*<Version>\s*\[?([^<,\]]+)", text[m.end():])
            version = inner.group(1) if inner else None
        if version:
            found = version.strip()
            out.append(AppTarget(found, path, _find_line(text, m.group(0)), f"{m.group(2)} {found}"))
    return out


def _nuget_lock(path: Path, text: str) -> list[AppTarget]:
    doc = json.loads(text)
    out = []
    for framework, deps in (doc.get("dependencies") or {}).items():
        for name, info in (deps or {}).items():
            if _NUGET.match(name) and isinstance(info, dict) and info.get("resolved"):
                at = text.find(f'"{name}"', text.find(f'"{framework}"'))
                line = _find_line(text, '"resolved"', at)
                out.append(AppTarget(str(info["resolved"]), path, line, f"{name} {info['resolved']} ({framework})"))
    return out


def _npm_lock(path: Path, text: str) -> list[AppTarget]:
    doc = json.loads(text)
    out = []
    for key, info in (doc.get("packages") or {}).items():
        name = key.rsplit("node_modules/", 1)[-1]
        if name in _NPM and isinstance(info, dict) and info.get("version"):
            at = text.find(f'"{key}"')
            out.append(AppTarget(str(info["version"]), path, _find_line(text, '"version"', at),
                                 f"{name} {info['version']}"))
    if not out:
        for name, info in (doc.get("dependencies") or {}).items():  # lockfileVersion 1
            if name in _NPM and isinstance(info, dict) and info.get("version"):
                at = text.find(f'"{name}"')
                out.append(AppTarget(str(info["version"]), path, _find_line(text, '"version"', at),
                                     f"{name} {info['version']}"))
    return out


_REQ = re.compile(r"""^\s*["']?(onnxruntime(?:-[a-z]+)?)\s*(?:\[[^\]]*\])?\s*(===|==|~=|>=|>)\s*([0-9][0-9.]*)""",
                  re.I)
_POETRY = re.compile(
    r"""^\s*(onnxruntime(?:-[a-z]+)?)\s*=\s*(?:\{[^}]*version\s*=\s*)?["']([\^~>=]*)\s*([0-9][0-9.]*)""", re.I)


def _python_reqs(path: Path, text: str) -> list[AppTarget]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0]
        for piece in re.split(r"[,\[]\s*(?=[\"'])", code):
            m = _REQ.match(piece) or _POETRY.match(piece)
            if m and _PYPI.match(m.group(1)):
                op, version = m.group(2), m.group(3).rstrip(".")
                note = "" if op in ("==", "===") else f"{op}{version}: the oldest release the range allows"
                out.append(AppTarget(version, path, i, f"{m.group(1)} {op}{version}", note))
    return out


def _uv_lock(path: Path, text: str) -> list[AppTarget]:
    return [AppTarget(v, path, line, f"{name} {v}") for name, v, line in _lock_packages(text) if _PYPI.match(name)]


def _reader(path: Path) -> object | None:
    name = path.name
    low = name.lower()
    if name == "Cargo.lock":
        return _cargo
    if low == "packages.lock.json":
        return _nuget_lock
    if low.endswith(".csproj") or low.endswith(".fsproj") or low == "directory.packages.props":
        return _nuget_xml
    if low == "package-lock.json":
        return _npm_lock
    if low == "uv.lock":
        return _uv_lock
    if low == "pyproject.toml" or (low.startswith("requirements") and low.endswith((".txt", ".in"))):
        return _python_reqs
    return None


_ORDER = ("Cargo.lock", "packages.lock.json", "package-lock.json", "uv.lock", ".csproj", "Directory.Packages.props",
          "requirements", "pyproject.toml")


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


def read_target_app(path: str | os.PathLike[str]) -> AppTarget:
    """The ONNX Runtime release the app at ``path`` (a file above, or its folder) embeds; InputError when none."""
    p = Path(path)
    if not p.exists():
        raise codes.TARGET_APP_UNREADABLE.error(p.name, path=p)
    files = _candidates(p) if p.is_dir() else [p]
    if not p.is_dir() and _reader(p) is None:
        raise codes.TARGET_APP_UNREADABLE.error(p.name, variant="kind", file=p.name)
    found: list[AppTarget] = []
    for f in files:
        reader = _reader(f)
        try:
            text = f.read_text(encoding="utf-8-sig")
            got = reader(f, text) if callable(reader) else []
        except (OSError, UnicodeDecodeError, ValueError) as e:
            if not p.is_dir():
                raise codes.TARGET_APP_UNREADABLE.error(f.name, variant="unreadable", file=f.name, reason=e) from None
            continue
        found += [t for t in got if _VERSION.match(t.version)]
        if found:
            break  # the most trusted file that names the runtime decides
    if not found:
        if p.is_dir():
            raise codes.TARGET_APP_NONE.error(p.name, variant="folder", count=len(files), path=p)
        raise codes.TARGET_APP_NONE.error(p.name, file=p.name)
    return min(found, key=lambda t: tuple(int(x or 0) for x in _VERSION.match(t.version).groups()))  # type: ignore[union-attr]


def target_from(target_ort: str | None,
                target_app: str | os.PathLike[str] | None) -> tuple[str | None, AppTarget | None]:
    """``--target-ort`` and ``--target-app`` together: the MAJOR.MINOR to target, and what the app said."""
    if target_app is None:
        return target_ort, None
    app = read_target_app(target_app)
    if target_ort is not None:
        from .compat import parse_version

        if parse_version(target_ort) != parse_version(app.minor):
            raise InputError(f"--target-ort {target_ort} and --target-app ({app.describe()}) disagree",
                             "Give one of them.", code="USAGE")
    return app.minor, app
