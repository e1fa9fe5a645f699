"""SHA256SUMS: a bundle member that lets a receiver check the files without onnxpack (``sha256sum -c SHA256SUMS``).

One line per file the manifest lists (every member but manifest.json, SHA256SUMS itself and the signature), sorted
by path, in GNU coreutils' format: 64 lowercase hex digits, two spaces, the path, a line feed. The manifest lists
SHA256SUMS with its own SHA-256, so it cannot list the manifest in turn; ``onnxpack verify`` checks both, and that
they agree. Member names are portable (core/names.py: no control characters, no backslash), so no line needs
coreutils' escaping.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["CHECKSUMS_NAME", "CHECKSUMS_ROLE", "sha256sums", "sha256sums_problems"]

CHECKSUMS_NAME = "SHA256SUMS"
CHECKSUMS_ROLE = "checksums"
_LINE = re.compile(r"([0-9a-f]{64})  (.+)")


def sha256sums(files: Iterable[Mapping[str, Any]]) -> bytes:
    """The SHA256SUMS text of ``files`` (manifest entries with "path" and "sha256"), sorted by path."""
    entries = sorted((f["path"], f["sha256"]) for f in files if f.get("role") != CHECKSUMS_ROLE)
    return "".join(f"{sha}  {path}\n" for path, sha in entries).encode("utf-8")


def sha256sums_problems(data: bytes, files: Iterable[Mapping[str, Any]]) -> list[str]:
    """How ``data`` (a bundle's SHA256SUMS) disagrees with the manifest's ``files``: lines it cannot read, files it
    misses or adds, digests that differ. Empty when it lists exactly the manifest's files with their SHA-256."""
    listed = {f["path"]: f["sha256"] for f in files if f.get("role") != CHECKSUMS_ROLE}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [f"{CHECKSUMS_NAME} is not UTF-8 text"]
    problems: list[str] = []
    seen: dict[str, str] = {}
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        m = _LINE.fullmatch(line)
        if m is None:
            problems.append(f"{CHECKSUMS_NAME} line {n} is not '<sha256>  <file>'")
            continue
        sha, path = m.groups()
        if path in seen:
            problems.append(f"{CHECKSUMS_NAME} lists {path} twice")
        seen[path] = sha
    for path in sorted(set(listed) | set(seen)):
        if path not in seen:
            problems.append(f"{CHECKSUMS_NAME} does not list {path}")
        elif path not in listed:
            problems.append(f"{CHECKSUMS_NAME} lists {path}, which the manifest does not")
        elif seen[path] != listed[path]:
            problems.append(f"{CHECKSUMS_NAME} gives {path} another SHA-256 than the manifest")
    return problems
