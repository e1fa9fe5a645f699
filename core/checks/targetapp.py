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

Each format is read with its own parser, never with patterns over its text: TOML (``Cargo.lock``, ``uv.lock``,
``pyproject.toml``) with ``tomllib``, requirements with ``packaging.requirements`` (a commented-out line never counts;
an environment marker counts when some plausible target — CPython 3.8–3.14 on Linux, Windows or macOS — satisfies
it), MSBuild files with expat and no document type (so no entity is ever expanded; a ``Condition`` that is plainly
false leaves its item out), JSON with ``json`` (numbers kept as text). Every file is a regular file of bounded size
(core/boundedread.py); a deep, malformed or oddly shaped file and a version number no release has are clear errors.
The line an answer names is looked up once, for the answer only, in one pass over the text.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.parsers import expat

from ..boundedread import BoundedReadError, read_bounded, size_words
from ..errors import InputError
from . import codes

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

_NUGET = re.compile(r"^Microsoft\.ML\.OnnxRuntime(\.(Gpu|DirectML|Managed|OpenVino|Training))?$", re.I)
_PYPI = re.compile(r"^onnxruntime([-_.](gpu|directml|openvino|silicon|qnn|rocm|training))?$", re.I)
_NPM = ("onnxruntime-node", "onnxruntime-web", "onnxruntime-react-native", "onnxruntime-common")
_SKIP_DIRS = {".git", "node_modules", "target", ".venv", "venv", "bin", "obj", "__pycache__", "dist", "build"}
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")
#: A release number's parts have at most this many digits (ONNX Runtime's have 1–2; a crate's pre-release a few).
_MAX_DIGITS = 6
#: The largest dependency file read (a big monorepo's package-lock.json is some MiB; ``/dev/zero`` is refused).
MAX_APP_FILE_BYTES = 32 << 20
#: TOML lock files: tomllib is pure Python (16 MiB: ~4 s; a large workspace's Cargo.lock is ~2 MiB).
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
        m = _VERSION.match(self.version)
        assert m is not None
        return f"{int(m.group(1))}.{int(m.group(2))}"

    def describe(self) -> str:
        return (f"ONNX Runtime {self.version}, from {self.package} in {self.file.name}, line {self.line}"
                + (f" ({self.note})" if self.note else ""))


@dataclass(frozen=True)
class _Found:
    """A dependency on ONNX Runtime as a reader found it; its line is looked up only if it is the answer."""

    version: str
    package: str
    note: str = ""
    #: Where it is: patterns searched one after the other in the text (multi-line mode), the last match's line.
    anchors: tuple[str, ...] = ()
    line: int = 0  # known already (the XML reader has it from expat)


class _Malformed(ValueError):
    """A file that its format's parser refuses, or of a shape the format does not have."""


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _q(text: str) -> str:
    """A JSON/TOML string value as a pattern (its plain spelling)."""
    return '"' + re.escape(text) + '"'


def _line_of(text: str, anchors: tuple[str, ...]) -> int:
    pos = 0
    line_at = -1
    for pattern in anchors:
        m = re.compile(pattern, re.M).search(text, pos)
        if m is None:
            break
        line_at, pos = m.start(), m.end()
    return text.count("\n", 0, line_at) + 1 if line_at >= 0 else 1


def _crate_ort(version: str) -> str | None:
    for key, ort in ORT_CRATE_RELEASES:
        if version == key or (key.endswith(".") and version.startswith(key)):
            return ort
    return None


# ----------------------------------------------------------------------------- parsers


def _toml(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10: the tomli backport, where installed
        try:
            import importlib

            tomllib = importlib.import_module("tomli")
        except ImportError:
            raise _Malformed("reading TOML needs Python 3.11 or newer (or the tomli package)") from None
    try:
        return dict(tomllib.loads(text))
    except RecursionError:
        raise _Malformed("nested deeper than the TOML parser allows") from None
    except ValueError as e:  # tomllib.TOMLDecodeError, and int() of a number beyond Python's 4,300 digits
        raise _Malformed(str(e) or type(e).__name__) from None


def _json(text: str) -> Any:
    try:  # numbers stay text: a 5,000-digit one is no error of ours (versions are strings anyway)
        return json.loads(text, parse_int=str, parse_float=str, parse_constant=str)
    except RecursionError:
        raise _Malformed("nested deeper than the JSON parser allows") from None
    except ValueError as e:
        raise _Malformed(str(e)) from None


def _obj(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is a JSON object / TOML table (or absent: empty), else a shape error naming ``where``."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else "a string or number" if isinstance(value, str) else "a value"
        raise _Malformed(f"{where} is {kind}, not an object")
    return value


def _lock_packages(doc: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(name, version) of each ``[[package]]`` table of Cargo.lock / uv.lock."""
    packages = doc.get("package", [])
    if not isinstance(packages, list):
        raise _Malformed("'package' is not an array of tables")
    for pkg in packages:
        if isinstance(pkg, dict) and isinstance(pkg.get("name"), str) and isinstance(pkg.get("version"), str):
            yield pkg["name"], pkg["version"]


def _toml_anchors(name: str, version: str) -> tuple[str, ...]:
    return (r"^\s*name\s*=\s*" + _q(name) + r"\s*$", r"^\s*version\s*=\s*" + _q(version) + r"\s*$")


def _cargo(path: Path, text: str) -> list[_Found]:
    pkgs = list(_lock_packages(_toml(text)))
    for wanted in ("ort-sys", "ort"):
        found = []
        for name, version in pkgs:
            if name != wanted:
                continue
            ort = _crate_ort(version)
            if ort is None:
                raise codes.TARGET_APP_UNKNOWN.error(path.name, file=path.name, package=name, version=_short(version),
                                                     line=_line_of(text, _toml_anchors(name, version)))
            found.append(_Found(ort, f"{name} {version}",
                                "the ONNX Runtime build the crate downloads; with its load-dynamic feature the app "
                                "loads the library it ships instead", _toml_anchors(name, version)))
        if found:
            return found
    return []


def _uv_lock(path: Path, text: str) -> list[_Found]:
    return [_Found(v, f"{name} {v}", anchors=_toml_anchors(name, v))
            for name, v in _lock_packages(_toml(text)) if _PYPI.match(name)]


def _nuget_lock(path: Path, text: str) -> list[_Found]:
    doc = _obj(_json(text), "the file")
    out = []
    for framework, deps in _obj(doc.get("dependencies"), "'dependencies'").items():
        for name, info in _obj(deps, f"'dependencies.{_short(framework)}'").items():
            if _NUGET.match(name) and isinstance(info, dict) and isinstance(info.get("resolved"), str):
                version = info["resolved"]
                out.append(_Found(version, f"{name} {version} ({framework})",
                                  anchors=(_q(framework) + r"\s*:", _q(name) + r"\s*:", r'"resolved"\s*:')))
    return out


def _npm_lock(path: Path, text: str) -> list[_Found]:
    doc = _obj(_json(text), "the file")
    out = []
    for key, info in _obj(doc.get("packages"), "'packages'").items():
        name = key.rsplit("node_modules/", 1)[-1]
        if name in _NPM and isinstance(info, dict) and isinstance(info.get("version"), str):
            out.append(_Found(info["version"], f"{name} {info['version']}",
                              anchors=(_q(key) + r"\s*:", r'"version"\s*:')))
    if not out:
        for name, info in _obj(doc.get("dependencies"), "'dependencies'").items():  # lockfileVersion 1
            if name in _NPM and isinstance(info, dict) and isinstance(info.get("version"), str):
                out.append(_Found(info["version"], f"{name} {info['version']}",
                                  anchors=(_q(name) + r"\s*:", r'"version"\s*:')))
    return out


_RANGE_PART = re.compile(r"^(\^|~>|~=|~|>=|==|=|v|>)?\s*v?(\d+\.\d+(?:\.\d+)?)")


def _range_floor(spec: str) -> tuple[str, str] | None:
    """The lowest version an npm / Poetry / Cargo range allows, and the operator it came with; None for none
    (``*``, ``latest``, an upper bound only, a tag or URL)."""
    floors = []
    for alternative in spec.split("||"):
        for part in re.split(r"[\s,]+", alternative.strip()):
            m = _RANGE_PART.match(part)
            if m:
                floors.append(((m.group(1) or "").replace("v", ""), m.group(2)))
                break  # a hyphen range "A - B" and "A <B": the first comparator is the floor
    if not floors:
        return None
    return min(floors, key=lambda f: _version_key(f[1]))


def _package_json(path: Path, text: str) -> list[_Found]:
    doc = _obj(_json(text), "the file")
    out = []
    for section in ("dependencies", "optionalDependencies", "peerDependencies", "devDependencies"):
        for name, spec in _obj(doc.get(section), f"'{section}'").items():
            if name in _NPM and isinstance(spec, str) and (floor := _range_floor(spec)):
                op, version = floor
                note = "" if op in ("", "=") else f"{spec}: the oldest release the range allows"
                out.append(_Found(version, f"{name} {spec}", note, anchors=(_q(section) + r"\s*:", _q(name) + r"\s*:")))
    return out


# --- MSBuild (.csproj, Directory.Packages.props): expat, no DTD, Conditions that are plainly false leave items out

_CONDITION_LITERAL = re.compile(r"^\s*'([^'$@%]*)'\s*(==|!=)\s*'([^'$@%]*)'\s*$")


def _condition(text: str | None) -> bool | None:
    """True/False for a Condition that has one meaning everywhere (``false``, ``'a' == 'b'``); None when it depends
    on the build (a property): then the item counts, as the oldest release it may pull in must."""
    if text is None:
        return True
    t = text.strip().lower()
    if t in ("true", "'true'"):
        return True
    if t in ("false", "'false'"):
        return False
    if not t:
        return True  # an empty Condition holds
    m = _CONDITION_LITERAL.match(t)
    if m:
        return (m.group(1).strip() == m.group(3).strip()) == (m.group(2) == "==")
    return None


def _nuget_version(value: str) -> str | None:
    """The lowest version a NuGet version or range allows: ``1.16.3``, ``[1.16.3]``, ``[1.16,2)``, ``1.16.*``."""
    v = value.strip()
    if v.startswith(("[", "(")):
        v = v[1:].split(",", 1)[0].rstrip("])").strip()
    v = v.replace("*", "0")
    return v or None


class _MSBuild:
    """The ONNX Runtime package items of an MSBuild file, read by expat (which never expands an entity here: a
    document type is refused before any is declared), with the line of each and the properties it defines."""

    def __init__(self) -> None:
        self.parser = expat.ParserCreate()
        self.items: list[dict[str, Any]] = []  # name, version (maybe "$(Prop)"), line, note
        self.props: dict[str, str] = {}
        self.stack: list[tuple[str, bool]] = []  # (element, it and every element above it may apply)
        self.item: dict[str, Any] | None = None  # the ONNX Runtime item whose children are being read
        self.chars: list[str] = []
        self.parser.StartDoctypeDeclHandler = self._refuse_dtd
        self.parser.EntityDeclHandler = self._refuse_dtd
        self.parser.StartElementHandler = self._start
        self.parser.EndElementHandler = self._end
        self.parser.CharacterDataHandler = self._data

    @staticmethod
    def _refuse_dtd(*_args: Any) -> None:
        raise _Malformed("it declares a document type (DOCTYPE/ENTITY), which MSBuild files never need")

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        local = name.rsplit(":", 1)[-1]
        condition = _condition(attrs.get("Condition"))
        applies = (not self.stack or self.stack[-1][1]) and condition is not False
        self.stack.append((local, applies))
        self.chars.clear()
        include = (attrs.get("Include") or attrs.get("Update") or "").strip()
        if applies and local in ("PackageReference", "PackageVersion") and _NUGET.match(include):
            note = "" if condition else (f"counted although its Condition {_short(attrs['Condition'], 60)!r} may "
                                         "not hold")
            self.item = {"name": include, "version": attrs.get("VersionOverride") or attrs.get("Version"),
                         "line": self.parser.CurrentLineNumber, "note": note}
            self.items.append(self.item)

    def _end(self, _name: str) -> None:
        local, applies = self.stack.pop()
        value = "".join(self.chars).strip()
        self.chars.clear()
        parent = self.stack[-1][0] if self.stack else ""
        if not applies:
            return
        if local in ("PackageReference", "PackageVersion"):
            self.item = None
        elif local in ("Version", "VersionOverride") and self.item is not None and value:
            if local == "VersionOverride" or not self.item["version"]:
                self.item["version"] = value
        elif parent == "PropertyGroup":
            self.props[local.lower()] = value

    def _data(self, text: str) -> None:
        if len(self.chars) < 4096:
            self.chars.append(text)

    def read(self, text: str) -> list[_Found]:
        try:
            self.parser.Parse(text, True)
        except expat.ExpatError as e:
            raise _Malformed(str(e)) from None
        out = []
        for item in self.items:
            raw = item["version"]
            if not isinstance(raw, str):
                continue
            resolved = re.sub(r"\$\(([A-Za-z_][\w.-]*)\)", lambda m: self.props.get(m.group(1).lower(), m.group(0)),
                              raw)
            version = _nuget_version(resolved)
            if version:
                via = f"{raw.strip()} = {resolved.strip()}" if "$(" in raw else ""
                note = "; ".join(n for n in (_short(via, 80), item["note"]) if n)
                out.append(_Found(version, f"{item['name']} {_short(resolved.strip())}", note, line=item["line"]))
        return out


def _nuget_xml(path: Path, text: str) -> list[_Found]:
    return _MSBuild().read(text)


# --- Python: requirements files and pyproject.toml with packaging's parser; markers for plausible targets

_PLATFORMS = (("linux", "Linux", "x86_64", "posix"), ("linux", "Linux", "aarch64", "posix"),
              ("win32", "Windows", "AMD64", "nt"), ("darwin", "Darwin", "arm64", "posix"),
              ("darwin", "Darwin", "x86_64", "posix"))
_PYTHONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14")


@functools.lru_cache(maxsize=256)
def _marker_may_hold(marker: str) -> bool:
    """Whether the environment marker holds on some plausible target (CPython 3.8–3.14 on Linux/Windows/macOS)."""
    from packaging.markers import InvalidMarker, Marker, UndefinedComparison, UndefinedEnvironmentName

    try:
        m = Marker(marker)
    except InvalidMarker:
        return True
    for py in _PYTHONS:
        for sys_platform, system, machine, os_name in _PLATFORMS:
            env = {"python_version": py, "python_full_version": py + ".0", "sys_platform": sys_platform,
                   "platform_system": system, "platform_machine": machine, "os_name": os_name,
                   "implementation_name": "cpython", "platform_python_implementation": "CPython",
                   "implementation_version": py + ".0", "platform_release": "", "platform_version": "", "extra": ""}
            try:
                if m.evaluate(env):
                    return True
            except (UndefinedComparison, UndefinedEnvironmentName, ValueError):
                return True
    return False


@functools.lru_cache(maxsize=4096)
def _requirement(text: str) -> tuple[str, str, str, str] | None:
    """(name, operator, version, the specifier as written) of a PEP 508 requirement on ONNX Runtime with a lower
    bound; None for another package, a requirement without a floor, one whose marker no target meets, or no
    requirement at all."""
    from packaging.requirements import InvalidRequirement, Requirement

    name = _NAME.match(text)
    if name is None or not _PYPI.match(name.group(1)):  # packaging's parser is slow: only ORT's lines reach it
        return None
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    if not _PYPI.match(req.name):
        return None
    if req.marker is not None and not _marker_may_hold(str(req.marker)):
        return None
    floors = [(s.operator, s.version) for s in req.specifier if s.operator in ("==", "===", "~=", ">=", ">")]
    floors = [(op, v.rstrip(".*").rstrip(".")) for op, v in floors]
    floors = [f for f in floors if _VERSION.match(f[1])]
    if not floors:
        return None
    op, version = max(floors, key=lambda f: _version_key(f[1]))  # ">=1.16,>=1.17": 1.17 is the floor
    return req.name, op, version, str(req.specifier)


def _ort_line(line: str) -> bool:
    name = _NAME.match(line)
    return name is not None and _PYPI.match(name.group(1)) is not None


def _python_found(name: str, op: str, version: str, written: str, anchors: tuple[str, ...] = (),
                  line: int = 0) -> _Found:
    note = "" if op in ("==", "===") else f"{op}{version}: the oldest release the range allows"
    return _Found(version, f"{name} {written}", note, anchors, line)


_COMMENT = re.compile(r"(^|\s+)#.*$")
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
#: More requirements on ONNX Runtime than this in one file is no app's file (each costs packaging's parser).
_MAX_ORT_LINES = 256
_OPTIONS = re.compile(r"\s+--?[A-Za-z]")


def _requirements_txt(path: Path, text: str) -> list[_Found]:
    out = []
    ort_lines = 0  # lines on ONNX Runtime that give no floor (no version, a marker no target meets)
    logical = ""
    first = 0
    for i, raw in enumerate(text.splitlines(), 1):
        if not logical:
            first = i
        if raw.endswith("\\") and not _COMMENT.search(raw[:-1]):
            logical += raw[:-1] + " "
            continue
        line = _COMMENT.sub("", logical + raw).strip()
        logical = ""
        if not line or line.startswith("-"):  # -r, -c, -e, --index-url: options, not requirements
            continue
        line = line[: m.start()] if (m := _OPTIONS.search(line)) else line  # per-requirement --hash=…
        got = _requirement(line)
        if got is not None:
            out.append(_python_found(*got, line=first))
        elif _ort_line(line):
            ort_lines += 1
        if len(out) + ort_lines > _MAX_ORT_LINES:
            raise _Malformed(f"more than {_MAX_ORT_LINES} lines name ONNX Runtime")
    return out


def _pyproject(path: Path, text: str) -> list[_Found]:
    doc = _toml(text)
    out = []
    strings: list[str] = []
    project = _obj(doc.get("project"), "[project]")
    deps = project.get("dependencies", [])
    strings += deps if isinstance(deps, list) else []
    for group in _obj(project.get("optional-dependencies"), "[project.optional-dependencies]").values():
        strings += group if isinstance(group, list) else []
    for group in _obj(doc.get("dependency-groups"), "[dependency-groups]").values():
        strings += group if isinstance(group, list) else []
    if sum(1 for s in strings if isinstance(s, str) and _ort_line(s)) > _MAX_ORT_LINES:
        raise _Malformed(f"more than {_MAX_ORT_LINES} requirements name ONNX Runtime")
    for s in strings:
        if isinstance(s, str) and (got := _requirement(s)):
            out.append(_python_found(*got, anchors=("[\"']" + re.escape(s) + "[\"']",)))
    poetry = _obj(_obj(doc.get("tool"), "[tool]").get("poetry"), "[tool.poetry]")
    tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
    tables += [g.get("dependencies") for g in _obj(poetry.get("group"), "[tool.poetry.group]").values()
               if isinstance(g, dict)]
    for table in tables:
        if not isinstance(table, dict):
            continue
        for name, spec in table.items():
            if not _PYPI.match(name):
                continue
            for one in spec if isinstance(spec, list) else [spec]:
                version = one.get("version") if isinstance(one, dict) else one
                if isinstance(version, str) and (floor := _range_floor(version)):
                    op, v = floor
                    out.append(_Found(v, f"{name} {_short(version)}",
                                      "" if op in ("", "=", "==") else
                                      f"{_short(version)}: the oldest release the range allows",
                                      anchors=(r"^\s*" + re.escape(name) + r"\s*=",)))
    return out


# ----------------------------------------------------------------------------- which file, read how

_Reader = Callable[[Path, str], list[_Found]]


def _reader(path: Path) -> tuple[_Reader, str, int] | None:
    """The reader of ``path`` by its name, its format in words and the largest size read."""
    name = path.name
    low = name.lower()
    if name == "Cargo.lock":
        return _cargo, "TOML (Cargo.lock)", _MAX_TOML_LOCK_BYTES
    if low == "packages.lock.json":
        return _nuget_lock, "JSON (NuGet packages.lock.json)", MAX_APP_FILE_BYTES
    if low.endswith((".csproj", ".fsproj", ".vbproj")) or low == "directory.packages.props":
        return _nuget_xml, "MSBuild XML", _MAX_MANIFEST_BYTES
    if low == "package-lock.json":
        return _npm_lock, "JSON (npm package-lock.json)", MAX_APP_FILE_BYTES
    if low == "package.json":
        return _package_json, "JSON (package.json)", _MAX_MANIFEST_BYTES
    if low == "uv.lock":
        return _uv_lock, "TOML (uv.lock)", _MAX_TOML_LOCK_BYTES
    if low == "pyproject.toml":
        return _pyproject, "TOML (pyproject.toml)", _MAX_MANIFEST_BYTES
    if low.startswith("requirements") and low.endswith((".txt", ".in")):
        return _requirements_txt, "requirements syntax (pip)", _MAX_MANIFEST_BYTES
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


def _version_key(version: str) -> tuple[int, ...]:
    """X.Y.Z as numbers to compare; a part too long to be a release number counts as larger than any (and is refused
    when it is the answer): int() is never given more than a few digits."""
    m = _VERSION.match(version.strip())
    assert m is not None
    parts = (m.group(1), m.group(2), m.group(3) or "0")
    return tuple(int(g) if len(g) <= _MAX_DIGITS else 10**_MAX_DIGITS for g in parts)


def _checked_version(found: _Found, path: Path, text: str) -> bool:
    """Whether ``found`` names a release number (X.Y or X.Y.Z…); a number too long to be one is an error (Python's
    int() refuses more than 4,300 digits: never let it)."""
    m = _VERSION.match(found.version.strip())
    if m is None:
        return False  # "*", "latest", "$(OrtVersion)" unresolved: names no release
    if any(len(g) > _MAX_DIGITS for g in m.groups() if g):
        line = found.line or _line_of(text, found.anchors)
        raise codes.TARGET_APP_UNREADABLE.error(path.name, variant="version", file=path.name, line=line,
                                                package=found.package.split(" ", 1)[0], version=_short(found.version))
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


def _read(f: Path) -> tuple[list[_Found], str]:
    """What the file ``f`` says about ONNX Runtime (OSError, UnicodeDecodeError or _Malformed when it cannot say)."""
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
            limit = _reader(f)[2]  # type: ignore[index]
            variant = "refused" if isinstance(e, BoundedReadError) else "unreadable"
            raise codes.TARGET_APP_UNREADABLE.error(f.name, variant=variant, file=f.name, reason=e.strerror or e,
                                                    limit=size_words(limit)) from None
        except (UnicodeDecodeError, _Malformed) as e:
            if folder:
                continue
            fmt = _reader(f)[1]  # type: ignore[index]
            reason = "it is not UTF-8 text" if isinstance(e, UnicodeDecodeError) else str(e)
            raise codes.TARGET_APP_UNREADABLE.error(f.name, variant="malformed", file=f.name, format=fmt,
                                                    reason=_short(reason, 200)) from None
        found = [t for t in got if _checked_version(t, f, text)]
        if found:  # the most trusted file that names the runtime decides; the oldest release it allows
            best = min(found, key=lambda t: _version_key(t.version))
            line = best.line or _line_of(text, best.anchors)
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
            raise InputError(f"--target-ort {target_ort} and --target-app ({app.describe()}) disagree",
                             "Give one of them.", code="USAGE")
    return app.minor, app
