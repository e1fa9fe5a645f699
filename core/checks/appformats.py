"""The readers of ``--target-app`` (core/checks/targetapp.py), one per format, each with the format's own parser.

TOML with ``tomllib``, JSON with ``json`` (numbers kept as text), MSBuild XML with expat and no document type,
requirements with ``packaging``. A reader returns what the file says about ONNX Runtime as :class:`Found` entries (the
version, the dependency, where it is); a file its parser refuses, or of a shape the format does not have, is
:class:`Malformed`. Nothing here reads a file: the caller hands over its text, read with a bound.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.parsers import expat

__all__ = ["MAX_DIGITS", "NPM", "NUGET", "PYPI", "VERSION", "Found", "Malformed", "line_of", "lock_packages",
           "npm_lock", "nuget_lock", "nuget_xml", "package_json", "pyproject", "read_json", "read_toml",
           "requirements_txt", "short", "toml_anchors", "uv_lock", "version_key"]

NUGET = re.compile(r"^Microsoft\.ML\.OnnxRuntime(\.(Gpu|DirectML|Managed|OpenVino|Training))?$", re.I)
PYPI = re.compile(r"^onnxruntime([-_.](gpu|directml|openvino|silicon|qnn|rocm|training))?$", re.I)
NPM = ("onnxruntime-node", "onnxruntime-web", "onnxruntime-react-native", "onnxruntime-common")
VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")
#: A release number's parts have at most this many digits (ONNX Runtime's have 1–2; a crate's pre-release a few).
MAX_DIGITS = 6

@dataclass(frozen=True)
class Found:
    """A dependency on ONNX Runtime as a reader found it; its line is looked up only if it is the answer."""

    version: str
    package: str
    note: str = ""
    #: Where it is: patterns searched one after the other in the text (multi-line mode), the last match's line.
    anchors: tuple[str, ...] = ()
    line: int = 0  # known already (the XML reader has it from expat)


class Malformed(ValueError):
    """A file that its format's parser refuses, or of a shape the format does not have."""


def short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _q(text: str) -> str:
    """A JSON/TOML string value as a pattern (its plain spelling)."""
    return '"' + re.escape(text) + '"'


def line_of(text: str, anchors: tuple[str, ...]) -> int:
    pos = 0
    line_at = -1
    for pattern in anchors:
        m = re.compile(pattern, re.M).search(text, pos)
        if m is None:
            break
        line_at, pos = m.start(), m.end()
    return text.count("\n", 0, line_at) + 1 if line_at >= 0 else 1




def read_toml(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10: the tomli backport, where installed
        try:
            import importlib

            tomllib = importlib.import_module("tomli")
        except ImportError:
            raise Malformed("reading TOML needs Python 3.11 or newer (or the tomli package)") from None
    try:
        return dict(tomllib.loads(text))
    except RecursionError:
        raise Malformed("nested deeper than the TOML parser allows") from None
    except ValueError as e:  # tomllib.TOMLDecodeError, and int() of a number beyond Python's 4,300 digits
        raise Malformed(str(e) or type(e).__name__) from None


def read_json(text: str) -> Any:
    try:  # numbers stay text: a 5,000-digit one is no error of ours (versions are strings anyway)
        return json.loads(text, parse_int=str, parse_float=str, parse_constant=str)
    except RecursionError:
        raise Malformed("nested deeper than the JSON parser allows") from None
    except ValueError as e:
        raise Malformed(str(e)) from None


def _obj(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is a JSON object / TOML table (or absent: empty), else a shape error naming ``where``."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        kind = "an array" if isinstance(value, list) else "a string or number" if isinstance(value, str) else "a value"
        raise Malformed(f"{where} is {kind}, not an object")
    return value


def lock_packages(doc: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(name, version) of each ``[[package]]`` table of Cargo.lock / uv.lock."""
    packages = doc.get("package", [])
    if not isinstance(packages, list):
        raise Malformed("'package' is not an array of tables")
    for pkg in packages:
        if isinstance(pkg, dict) and isinstance(pkg.get("name"), str) and isinstance(pkg.get("version"), str):
            yield pkg["name"], pkg["version"]


def toml_anchors(name: str, version: str) -> tuple[str, ...]:
    # [ \t]*, never \s*: across a run of blank lines \s* made every line's start scan to the run's end (quadratic)
    return (r"^[ \t]*name[ \t]*=[ \t]*" + _q(name) + r"[ \t]*$", r"^[ \t]*version[ \t]*=[ \t]*" + _q(version)
            + r"[ \t]*$")


def uv_lock(path: Path, text: str) -> list[Found]:
    return [Found(v, f"{name} {v}", anchors=toml_anchors(name, v))
            for name, v in lock_packages(read_toml(text)) if PYPI.match(name)]


def nuget_lock(path: Path, text: str) -> list[Found]:
    doc = _obj(read_json(text), "the file")
    out = []
    for framework, deps in _obj(doc.get("dependencies"), "'dependencies'").items():
        for name, info in _obj(deps, f"'dependencies.{short(framework)}'").items():
            if NUGET.match(name) and isinstance(info, dict) and isinstance(info.get("resolved"), str):
                version = info["resolved"]
                out.append(Found(version, f"{name} {version} ({framework})",
                                  anchors=(_q(framework) + r"\s*:", _q(name) + r"\s*:", r'"resolved"\s*:')))
    return out


def npm_lock(path: Path, text: str) -> list[Found]:
    doc = _obj(read_json(text), "the file")
    out = []
    for key, info in _obj(doc.get("packages"), "'packages'").items():
        name = key.rsplit("node_modules/", 1)[-1]
        if name in NPM and isinstance(info, dict) and isinstance(info.get("version"), str):
            out.append(Found(info["version"], f"{name} {info['version']}",
                              anchors=(_q(key) + r"\s*:", r'"version"\s*:')))
    if not out:
        for name, info in _obj(doc.get("dependencies"), "'dependencies'").items():  # lockfileVersion 1
            if name in NPM and isinstance(info, dict) and isinstance(info.get("version"), str):
                out.append(Found(info["version"], f"{name} {info['version']}",
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
    return min(floors, key=lambda f: version_key(f[1]))


def package_json(path: Path, text: str) -> list[Found]:
    doc = _obj(read_json(text), "the file")
    out = []
    for section in ("dependencies", "optionalDependencies", "peerDependencies", "devDependencies"):
        for name, spec in _obj(doc.get(section), f"'{section}'").items():
            if name in NPM and isinstance(spec, str) and (floor := _range_floor(spec)):
                op, version = floor
                note = "" if op in ("", "=") else f"{short(spec)}: the oldest release the range allows"
                out.append(Found(version, f"{name} {short(spec)}", note,
                                 anchors=(_q(section) + r"\s*:", _q(name) + r"\s*:")))
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
        raise Malformed("it declares a document type (DOCTYPE/ENTITY), which MSBuild files never need")

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        local = name.rsplit(":", 1)[-1]
        condition = _condition(attrs.get("Condition"))
        applies = (not self.stack or self.stack[-1][1]) and condition is not False
        self.stack.append((local, applies))
        self.chars.clear()
        include = (attrs.get("Include") or attrs.get("Update") or "").strip()
        if applies and local in ("PackageReference", "PackageVersion") and NUGET.match(include):
            note = "" if condition else (f"counted although its Condition {short(attrs['Condition'], 60)!r} may "
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

    def read(self, text: str) -> list[Found]:
        try:
            self.parser.Parse(text, True)
        except expat.ExpatError as e:
            raise Malformed(str(e)) from None
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
                note = "; ".join(n for n in (short(via, 80), item["note"]) if n)
                out.append(Found(version, f"{item['name']} {short(resolved.strip())}", note, line=item["line"]))
        return out


def nuget_xml(path: Path, text: str) -> list[Found]:
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
    if name is None or not PYPI.match(name.group(1)):  # packaging's parser is slow: only ORT's lines reach it
        return None
    try:
        req = Requirement(text)
    except InvalidRequirement:
        return None
    if not PYPI.match(req.name):
        return None
    if req.marker is not None and not _marker_may_hold(str(req.marker)):
        return None
    floors = [(s.operator, s.version) for s in req.specifier if s.operator in ("==", "===", "~=", ">=", ">")]
    floors = [(op, v.rstrip(".*").rstrip(".")) for op, v in floors]
    floors = [f for f in floors if VERSION.match(f[1])]
    if not floors:
        return None
    op, version = max(floors, key=lambda f: version_key(f[1]))  # ">=1.16,>=1.17": 1.17 is the floor
    return req.name, op, version, str(req.specifier)


def _ort_line(line: str) -> bool:
    name = _NAME.match(line)
    return name is not None and PYPI.match(name.group(1)) is not None


def _python_found(name: str, op: str, version: str, written: str, anchors: tuple[str, ...] = (),
                  line: int = 0) -> Found:
    note = "" if op in ("==", "===") else f"{op}{version}: the oldest release the range allows"
    return Found(version, f"{name} {written}", note, anchors, line)


# A lookbehind, never (^|\s+): a long run of whitespace without a "#" backtracked from every start (quadratic).
_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$")
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
#: More requirements on ONNX Runtime than this in one file is no app's file (each costs packaging's parser).
_MAX_ORT_LINES = 256
_OPTIONS = re.compile(r"(?<=\s)--?[A-Za-z]")


def requirements_txt(path: Path, text: str) -> list[Found]:
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
        line = line[: m.start()].rstrip() if (m := _OPTIONS.search(line)) else line  # per-requirement --hash=…
        got = _requirement(line)
        if got is not None:
            out.append(_python_found(*got, line=first))
        elif _ort_line(line):
            ort_lines += 1
        if len(out) + ort_lines > _MAX_ORT_LINES:
            raise Malformed(f"more than {_MAX_ORT_LINES} lines name ONNX Runtime")
    return out


def pyproject(path: Path, text: str) -> list[Found]:
    doc = read_toml(text)
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
        raise Malformed(f"more than {_MAX_ORT_LINES} requirements name ONNX Runtime")
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
            if not PYPI.match(name):
                continue
            for one in spec if isinstance(spec, list) else [spec]:
                version = one.get("version") if isinstance(one, dict) else one
                if isinstance(version, str) and (floor := _range_floor(version)):
                    op, v = floor
                    out.append(Found(v, f"{name} {short(version)}",
                                      "" if op in ("", "=", "==") else
                                      f"{short(version)}: the oldest release the range allows",
                                      anchors=(r"^\s*" + re.escape(name) + r"\s*=",)))
    return out


def version_key(version: str) -> tuple[int, ...]:
    """X.Y.Z as numbers to compare; a part too long to be a release number counts as larger than any (and is refused
    when it is the answer): int() is never given more than a few digits."""
    m = VERSION.match(version.strip())
    assert m is not None
    parts = (m.group(1), m.group(2), m.group(3) or "0")
    return tuple(int(g) if len(g) <= MAX_DIGITS else 10**MAX_DIGITS for g in parts)
