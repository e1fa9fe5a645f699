"""--prove-ort: the ONNX Runtime releases onnxpack knows (the committed table of official wheels,
core/runtime/wheeltable.py), the wheel of each for this interpreter, and where the package index keeps it.

The index is asked only where a wheel is: its JSON answer is read bounded (core/runtime/fetch.py) and checked for
shape; which releases exist and what each file must hash to come from the table, never from the index."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any
from urllib.parse import urljoin

from ..child.childproc import child_environ
from ..progress import CancelToken, check_cancel
from . import fetch, wheeltable
from . import provecodes as codes
from .wheeltable import KnownWheel

__all__ = ["MINOR", "PYPI_URL", "VERSION", "here", "index", "index_url_of", "machine", "pick_wheel",
           "resolve_releases", "tag_ranks", "vkey"]

#: The index; ``$ONNXPACK_PYPI_URL`` replaces it (a PyPI mirror with the JSON API; HTTPS only).
PYPI_URL = "https://pypi.org"
#: A full release (1.16.3) and a MAJOR.MINOR (1.16); at most 4 digits a part (a 5,000-digit "version" is no release).
VERSION = re.compile(r"\d{1,4}\.\d{1,4}\.\d{1,4}")
MINOR = re.compile(r"\d{1,4}\.\d{1,4}")


def vkey(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def index() -> str:
    return os.environ.get("ONNXPACK_PYPI_URL", PYPI_URL).rstrip("/")


_DOCS: dict[str, dict[str, Any]] = {}


def _releases(package: str, cancel: CancelToken | None) -> dict[str, Any]:
    """The index's ``releases`` object of ``package`` (PyPI's JSON API, once per process), its shape checked."""
    url = f"{index()}/pypi/{package}/json"
    if url not in _DOCS:
        doc = fetch.get_json(url, index(), cancel)
        if not isinstance(doc, dict) or not isinstance(doc.get("releases"), dict):
            raise codes.PROVE_NETWORK.error(variant="no_releases", package=package, url=url)
        _DOCS[url] = doc["releases"]
    return _DOCS[url]


def index_url_of(wheel: KnownWheel, cancel: CancelToken | None = None) -> str:
    """Where the index keeps ``wheel`` (its URL made absolute, checked by the download's policy). The index's own
    hash of the file is not used: the table's is."""
    url = f"{index()}/pypi/{wheel.package}/json"
    files = _releases(wheel.package, cancel).get(wheel.version)
    if files is None:
        raise codes.PROVE_NETWORK.error(variant="missing_file", index=index(), file=wheel.filename,
                                        version=f"{wheel.package} {wheel.version}")
    if not isinstance(files, list):
        raise codes.PROVE_NETWORK.error(variant="bad_entry", url=url, package=wheel.package, version=wheel.version)
    for f in files:
        if isinstance(f, dict) and f.get("filename") == wheel.filename:
            link = f.get("url")
            if not isinstance(link, str) or not link or len(link) > 2000:
                raise codes.PROVE_NETWORK.error(variant="bad_url", url=url, file=wheel.filename)
            return urljoin(url, link)
    raise codes.PROVE_NETWORK.error(variant="missing_file", index=index(), file=wheel.filename,
                                    version=f"{wheel.package} {wheel.version}")


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


def pick_wheel(package: str, version: str, python: str | None = None) -> KnownWheel | None:
    """The official wheel of ``package`` ``version`` (from the table) that ``python`` (None: this interpreter)
    installs best; None when the table lists none for it."""
    scored = [(s, w) for w in wheeltable.wheels(package, version)
              if (s := _wheel_score(w.filename, python)) is not None]
    return min(scored, key=lambda x: x[0])[1] if scored else None


def here(python: str | None = None) -> str:
    """The interpreter and platform a wheel is needed for, as data (a message names it): "CPython 3.11 (linux
    x86_64)"; another interpreter by its path and wheel tag."""
    import platform

    if python is not None:
        first = next(iter(tag_ranks(python)), None)
        return f"{python} ({first.interpreter if first is not None else '?'}, {sys.platform} {machine()})"
    return f"CPython {sys.version_info.major}.{sys.version_info.minor} ({sys.platform} {platform.machine()})"


def resolve_releases(items: list[str], oldest_claimed: str | None, cancel: CancelToken | None = None,
                     notes: list[str] | None = None, *, target: str | None = None) -> list[str]:
    """Full release versions for ``items`` (a MAJOR.MINOR is its newest patch with a wheel for this interpreter;
    ``newest`` the newest such release; ``auto`` = the newest patch of ``oldest_claimed``, of ``target`` (the release
    --target-ort or --target-app named: always proven) and ``newest``), among the releases onnxpack knows (the
    committed table of official wheels; the index is not asked). When ``auto`` has to take a later release than the
    one claimed or targeted (no wheel of it here), ``notes`` gets why. Each release once, oldest first."""
    check_cancel(cancel)
    usable = _Usable([v for v in wheeltable.versions("onnxruntime") if pick_wheel("onnxruntime", v)])
    out: list[str] = []
    for t in items:
        if t == "auto":
            out += usable.auto(oldest_claimed, target, notes)
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
            if prefix:
                raise codes.PROVE_NO_WHEEL.error(variant="minor", minor=prefix, here=here())
            raise codes.PROVE_NO_WHEEL.error(variant="any", here=here())
        return pool[-1]

    def _at_least(self, release: str, why: str, notes: list[str] | None) -> str | None:
        """The newest patch of MAJOR.MINOR ``release`` (or of the oldest later one with a wheel here, said in
        ``notes``); None when no release that old or newer has one."""
        key = vkey(release)[:2]
        first = next((v for v in self.versions if vkey(v)[:2] >= key), None)
        if first is None:
            return None
        chosen = self.newest_of(".".join(first.split(".")[:2]))
        if vkey(first)[:2] != key and notes is not None:
            notes.append(f"auto: {why} ONNX Runtime {release}, which has no official wheel for {here()}; the oldest "
                         f"release with one, {chosen}, was proven instead")
        return chosen

    def auto(self, oldest_claimed: str | None, target: str | None, notes: list[str] | None) -> list[str]:
        """``auto``: the newest patch of the oldest release the model claims and of the target (each, or the oldest
        later one with a wheel, said in ``notes``), then the newest release."""
        out: list[str] = []
        if target and oldest_claimed and MINOR.match(target) and MINOR.match(oldest_claimed) \
                and vkey(target)[:2] == vkey(oldest_claimed)[:2]:
            target = None  # the same release: once
        for release, why in ((oldest_claimed, "the model claims"), (target, "the target is")):
            if release and MINOR.match(release) and (got := self._at_least(release, why, notes)) is not None:
                out.append(got)
        out.append(self.newest_of(None))
        return out


def machine() -> str:
    import platform

    return platform.machine().lower() or "unknown"
