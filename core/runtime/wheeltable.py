"""The official wheels --prove-ort may install, with their SHA-256: ``resources/ort_wheels.json``, committed with
onnxpack and refreshed from PyPI by ``benchmarks/refresh_wheel_hashes.py``.

This table, not the package index, says which releases exist and what each wheel's bytes must hash to: an index
(or a proxy, or a mirror) that sends another file is caught, and a release the table does not list is refused
(``PROVE_NO_RELEASE``'s ``unknown``) rather than installed unverified.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..resources import resource_path

__all__ = ["KnownWheel", "load", "versions", "wheels"]

_SHA = re.compile(r"[0-9a-f]{64}")
_REST = re.compile(r"[A-Za-z0-9_.]+-[A-Za-z0-9_.]+-[A-Za-z0-9_.]+")
_VERSION = re.compile(r"\d{1,4}\.\d{1,4}\.\d{1,4}")


@dataclass(frozen=True)
class KnownWheel:
    """One official wheel: its file name and SHA-256."""

    package: str
    version: str
    filename: str
    sha256: str


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, dict[str, str]]]:
    doc: Any = json.loads(resource_path("ort_wheels.json").read_text(encoding="utf-8"))
    return load(doc)


def load(doc: Any) -> dict[str, dict[str, dict[str, str]]]:
    """The table's ``packages`` ({package: {version: {tags: sha256}}}), every entry checked (a malformed one is a
    bug in the committed file: ValueError)."""
    packages = doc.get("packages") if isinstance(doc, dict) else None
    if not isinstance(packages, dict):
        raise ValueError("ort_wheels.json has no 'packages'")
    for package, releases in packages.items():
        for version, files in releases.items():
            if not _VERSION.fullmatch(version) or not isinstance(files, dict):
                raise ValueError(f"ort_wheels.json: {package} {version!r}")
            for rest, sha in files.items():
                if not _REST.fullmatch(rest) or not isinstance(sha, str) or not _SHA.fullmatch(sha):
                    raise ValueError(f"ort_wheels.json: {package} {version} {rest!r}")
    return packages


def table() -> dict[str, dict[str, dict[str, str]]]:
    """The committed table (tests replace this function)."""
    return _table()


def versions(package: str) -> list[str]:
    """The releases of ``package`` the table lists, oldest first."""
    return sorted(table().get(package, {}), key=lambda v: tuple(int(x) for x in v.split(".")))


def wheels(package: str, version: str) -> list[KnownWheel]:
    """The official wheels of ``package`` ``version`` (empty when the table does not list that release)."""
    files = table().get(package, {}).get(version, {})
    return [KnownWheel(package, version, f"{package}-{version}-{rest}.whl", sha) for rest, sha in files.items()]
