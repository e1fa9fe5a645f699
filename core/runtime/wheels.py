"""--prove-ort: ONNX Runtime's releases on the package index and the official wheel of each for this interpreter."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

from ..childproc import child_environ
from ..progress import CancelToken, check_cancel
from . import codes

__all__ = ["MINOR", "NET_TIMEOUT", "PYPI_URL", "VERSION", "here", "index", "machine", "pick_wheel", "release_files",
           "resolve_releases", "tag_ranks", "vkey"]

#: The index; ``$ONNXPACK_PYPI_URL`` replaces it (a mirror, or a dead address in tests).
PYPI_URL = "https://pypi.org"
_PACKAGE = "onnxruntime"
NET_TIMEOUT = 60.0
#: A full release (1.16.3) and a MAJOR.MINOR (1.16).
VERSION = re.compile(r"\d+\.\d+\.\d+")
MINOR = re.compile(r"\d+\.\d+")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def index() -> str:
    return os.environ.get("ONNXPACK_PYPI_URL", PYPI_URL).rstrip("/")


def _get_json(url: str) -> Any:
    try:
        with urllib.request.urlopen(url, timeout=NET_TIMEOUT) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise codes.PROVE_NETWORK.error(variant="status", status=e.code, url=url) from None
    except (urllib.error.URLError, OSError, TimeoutError) as e:
        reason = getattr(e, "reason", e)
        raise codes.PROVE_NETWORK.error(index=index(), reason=str(reason), details=str(e)) from None
    except ValueError as e:
        raise codes.PROVE_NETWORK.error(variant="not_json", url=url, details=str(e)) from None


_RELEASES: dict[str, dict[str, list[dict[str, Any]]]] = {}


def release_files() -> dict[str, list[dict[str, Any]]]:
    """Every release of onnxruntime on the index and its files (PyPI's JSON API, once per process); each file's
    ``url`` made absolute (a mirror may give it relative to the document)."""
    from urllib.parse import urljoin

    url = f"{index()}/pypi/{_PACKAGE}/json"
    if url not in _RELEASES:
        doc = _get_json(url)
        if not isinstance(doc, dict) or not isinstance(doc.get("releases"), dict):
            raise codes.PROVE_NETWORK.error(variant="no_releases", package=_PACKAGE, url=url)
        releases = {}
        for version, files in doc["releases"].items():
            releases[str(version)] = [{**f, "url": urljoin(url, str(f.get("url", "")))} for f in files
                                      if isinstance(f, dict)]
        _RELEASES[url] = releases
    return _RELEASES[url]


_TAGS: dict[str, dict[Any, int]] = {}


def tag_ranks(python: str | None) -> dict[Any, int]:
    """The wheel tags ``python`` (None: this interpreter) installs, best first, as {tag: rank}."""
    from packaging.tags import parse_tag, sys_tags

    key = python or ""
    if key not in _TAGS:
        if python is None:
            tags = list(sys_tags())
        else:  # another interpreter: the tags of the packaging its pip vendors
            code = "from pip._vendor.packaging.tags import sys_tags; print('\\n'.join(map(str, sys_tags())))"
            try:
                out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                                     env=child_environ())  # fmt: skip
            except (OSError, subprocess.SubprocessError) as e:
                raise codes.PROVE_NO_PYTHON.error(variant="tags", python=python, error=str(e)) from None
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
    ranks = tag_ranks(python)
    found = [ranks[t] for t in tags if t in ranks]
    return min(found) if found else None


def pick_wheel(version: str, files: list[dict[str, Any]], python: str | None = None) -> dict[str, Any] | None:
    wheels = [(s, f) for f in files if f.get("packagetype") == "bdist_wheel" and not f.get("yanked")
              and (s := _wheel_score(str(f.get("filename", "")), python)) is not None]
    return min(wheels, key=lambda x: x[0])[1] if wheels else None


def here(python: str | None = None) -> str:
    import platform

    if python is not None:
        first = next(iter(tag_ranks(python)), None)
        return f"{python} ({first.interpreter if first is not None else 'unknown'}) on {sys.platform} {machine()}"
    return f"CPython {sys.version_info.major}.{sys.version_info.minor} on {sys.platform} {platform.machine()}"


def resolve_releases(items: list[str], oldest_claimed: str | None,
                     cancel: CancelToken | None = None, notes: list[str] | None = None) -> list[str]:
    """Full release versions for ``items`` (a MAJOR.MINOR is its newest patch with a wheel for this interpreter;
    ``newest`` the newest such release; ``auto`` = the newest patch of ``oldest_claimed`` plus ``newest``). When
    ``auto`` has to take a later release than the one claimed (no wheel of it here), ``notes`` gets why. Each release
    once, oldest first."""
    need_index = any(not VERSION.fullmatch(t) for t in items)
    releases: dict[str, list[dict[str, Any]]] = {}
    if need_index:
        releases = release_files()
        check_cancel(cancel)
    usable = _Usable(sorted((v for v, files in releases.items() if VERSION.fullmatch(v) and pick_wheel(v, files)),
                            key=vkey))
    out: list[str] = []
    for t in items:
        if t == "auto":
            out += usable.auto(oldest_claimed, notes)
        elif t == "newest":
            out.append(usable.newest_of(None))
        elif MINOR.fullmatch(t):
            out.append(usable.newest_of(t))
        else:
            out.append(t)
    return sorted(set(out), key=vkey)  # oldest first, whatever order they were named in ("auto,1.20.1")


class _Usable:
    """The releases with a wheel for this interpreter, oldest first."""

    def __init__(self, versions: list[str]) -> None:
        self.versions = versions

    def newest_of(self, prefix: str | None) -> str:
        """The newest release of MAJOR.MINOR ``prefix`` (None: of all)."""
        pool = [v for v in self.versions if prefix is None or v.startswith(prefix + ".")]
        if not pool:
            what = f"ONNX Runtime {prefix}" if prefix else "any ONNX Runtime release"
            raise codes.PROVE_NO_WHEEL.error(variant="any", what=what, here=here())
        return pool[-1]

    def auto(self, oldest_claimed: str | None, notes: list[str] | None) -> list[str]:
        """``auto``: the newest patch of the oldest release the model claims (or the oldest later one with a wheel,
        said in ``notes``), then the newest release."""
        out: list[str] = []
        if oldest_claimed:
            key = vkey(oldest_claimed)[:2]
            first = next((v for v in self.versions if vkey(v)[:2] >= key), None)
            if first is not None:
                out.append(self.newest_of(".".join(first.split(".")[:2])))
                if vkey(first)[:2] != key and notes is not None:
                    notes.append(f"auto: the model claims ONNX Runtime {oldest_claimed}, which has no official "
                                 f"wheel for {here()}; the oldest release with one, {out[-1]}, was proven "
                                 "instead")
        out.append(self.newest_of(None))
        return out


def machine() -> str:
    import platform

    return platform.machine().lower() or "unknown"
