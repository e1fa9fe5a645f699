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

__all__ = ["CHECKSUMS_NAME", "CHECKSUMS_ROLE", "MAX_LISTED_PER_KIND", "sha256sums", "sha256sums_problems"]

CHECKSUMS_NAME = "SHA256SUMS"
CHECKSUMS_ROLE = "checksums"
_LINE = re.compile(r"([0-9a-f]{64})  (.+)")


def sha256sums(files: Iterable[Mapping[str, Any]]) -> bytes:
    """The SHA256SUMS text of ``files`` (manifest entries with "path" and "sha256"), sorted by path."""
    entries = sorted((f["path"], f["sha256"]) for f in files if f.get("role") != CHECKSUMS_ROLE)
    return "".join(f"{sha}  {path}\n" for path, sha in entries).encode("utf-8")


#: The most problems of one kind (unreadable lines, repeats, missing, added, other digests) listed one by one; the
#: rest are counted in one line (a crafted SHA256SUMS of a million bad lines gives 20 lines and a count, not a
#: million findings).
MAX_LISTED_PER_KIND = 20


class _Problems:
    """Problems by kind, each kind's first :data:`MAX_LISTED_PER_KIND` in words and the rest counted."""

    def __init__(self) -> None:
        self.listed: list[str] = []
        self.counts: dict[str, int] = {}

    def add(self, kind: str, text: str) -> None:
        n = self.counts[kind] = self.counts.get(kind, 0) + 1
        if n <= MAX_LISTED_PER_KIND:
            self.listed.append(text)

    def result(self) -> list[str]:
        more = [f"{CHECKSUMS_NAME}: and {n - MAX_LISTED_PER_KIND:,} more {kind}" for kind, n in self.counts.items()
                if n > MAX_LISTED_PER_KIND]
        return self.listed + more


def sha256sums_problems(data: bytes, files: Iterable[Mapping[str, Any]]) -> list[str]:
    """How ``data`` (a bundle's SHA256SUMS) disagrees with the manifest's ``files``: lines it cannot read, files it
    misses or adds, digests that differ. Empty when it lists exactly the manifest's files with their SHA-256. At most
    :data:`MAX_LISTED_PER_KIND` problems of a kind are worded, then one line counts the rest."""
    listed = {f["path"]: f["sha256"] for f in files if f.get("role") != CHECKSUMS_ROLE}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return [f"{CHECKSUMS_NAME} is not UTF-8 text"]
    problems = _Problems()
    seen: dict[str, str] = {}
    for n, line in enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"), 1):
        m = _LINE.fullmatch(line)
        if m is None:
            problems.add("lines that are not '<sha256>  <file>'",
                         f"{CHECKSUMS_NAME} line {n} is not '<sha256>  <file>'")
            continue
        sha, path = m.groups()
        if path in seen:
            problems.add("files listed twice", f"{CHECKSUMS_NAME} lists {path} twice")
        seen[path] = sha
    for path in sorted(set(listed) | set(seen)):
        if path not in seen:
            problems.add("files of the manifest not listed", f"{CHECKSUMS_NAME} does not list {path}")
        elif path not in listed:
            problems.add("files the manifest does not list",
                         f"{CHECKSUMS_NAME} lists {path}, which the manifest does not")
        elif seen[path] != listed[path]:
            problems.add("files with another SHA-256 than the manifest's",
                         f"{CHECKSUMS_NAME} gives {path} another SHA-256 than the manifest")
    return problems.result()
