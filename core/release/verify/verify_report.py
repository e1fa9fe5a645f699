"""What :func:`~onnxpack.core.release.verify.verify.verify_bundle` found: each file's status and the report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsIndex

from ...errors import OnnxpackError
from ...findings import Finding, Severity
from .. import codes
from ..codes import HINT_TAMPER

__all__ = ["HINT_TAMPER", "MAX_FINDINGS_PER_CODE", "VERIFY_SCHEMA", "BoundedFindings", "FileStatus", "VerifyReport",
           "reported"]

VERIFY_SCHEMA = "onnxpack.verify/1"
#: The most findings of one code a verify report lists; the rest are counted in one FINDINGS_OMITTED finding (a
#: crafted bundle must not turn each of its million lines into a finding).
MAX_FINDINGS_PER_CODE = 50


def reported(error: OnnxpackError, subject: str, code: str | None = None) -> Finding:
    """An error raised while judging the bundle (its recipe, its signature), reported as the bundle's problem: with
    its own code (or ``code``), message and hint (the tamper hint when it has none)."""
    # Built directly, not from the registry: the error's words were rendered from its code when it was raised (or
    # are a class code's own), and are repeated here unchanged.
    return Finding.error(code or error.code, error.message, error.hint or HINT_TAMPER, subject)


class BoundedFindings(list[Finding]):
    """A list of findings that keeps the first :data:`MAX_FINDINGS_PER_CODE` of each code and counts the rest in one
    FINDINGS_OMITTED finding per code, placed where the first omitted one would have been."""

    def __init__(self, findings: Iterable[Finding] = (), cap: int = MAX_FINDINGS_PER_CODE) -> None:
        super().__init__()
        self.cap = cap
        self.counts: dict[str, int] = {}
        self.omitted: dict[str, int] = {}
        self.extend(findings)

    def append(self, finding: Finding) -> None:
        n = self.counts[finding.code] = self.counts.get(finding.code, 0) + 1
        if n <= self.cap or finding.code == "FINDINGS_OMITTED":
            super().append(finding)
            return
        more = self.omitted[finding.code] = self.omitted.get(finding.code, 0) + 1
        summary = codes.FINDINGS_OMITTED.finding(kind=finding.code, more=f"{more:,}", listed=self.cap)
        at = self._summary_index(finding.code)
        if at is None:
            super().append(summary)
        else:
            super().__setitem__(at, summary)

    def _summary_index(self, code: str) -> int | None:
        for i in range(len(self) - 1, -1, -1):  # it is the last or near it: findings arrive grouped by kind
            f = self[i]
            if f.code == "FINDINGS_OMITTED" and f.params.get("kind") == code:
                return i
        return None

    def extend(self, findings: Iterable[Finding]) -> None:
        for f in findings:
            self.append(f)

    def __iadd__(self, findings: Iterable[Finding]) -> BoundedFindings:  # type: ignore[override,misc]
        self.extend(findings)
        return self

    def insert(self, index: SupportsIndex, finding: Finding) -> None:
        n = self.counts[finding.code] = self.counts.get(finding.code, 0) + 1
        if n <= self.cap:
            super().insert(index, finding)


@dataclass
class FileStatus:
    """One file listed in the manifest or present in the archive, and what verification found."""

    path: str
    role: str | None
    size: int | None  # as listed in the manifest
    sha256: str | None  # as listed in the manifest
    actual_size: int | None = None
    actual_sha256: str | None = None
    status: str = "unchecked"  # ok | missing | extra | size-mismatch | hash-mismatch | damaged | unchecked

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "role": self.role,
            "size": self.size,
            "sha256": self.sha256,
            "actual_size": self.actual_size,
            "actual_sha256": self.actual_sha256,
            "status": self.status,
        }


@dataclass
class VerifyReport:
    """Outcome of :func:`verify_bundle`; ``ok`` when no error-level problem was found."""

    path: Path
    problems: list[Finding] = field(default_factory=BoundedFindings)
    manifest: dict[str, Any] | None = None
    files: list[FileStatus] = field(default_factory=list)
    archive: dict[str, Any] = field(default_factory=dict)
    smoke: dict[str, Any] | None = None
    #: "unsigned", "signed-not-checked" or "valid" (an invalid or missing signature is a problem instead).
    signature: dict[str, Any] = field(default_factory=lambda: {"status": "unsigned"})

    @property
    def ok(self) -> bool:
        return not any(p.severity is Severity.ERROR for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        model = (self.manifest or {}).get("model") or {}
        return {
            "schema": VERIFY_SCHEMA,
            "ok": self.ok,
            "bundle": str(self.path),
            "model": {"name": model.get("name"), "version": model.get("version")} if self.manifest else None,
            "archive": self.archive,
            "files": [f.to_dict() for f in self.files],
            "problems": [p.to_dict() for p in self.problems],
            "smoke": self.smoke,
            "signature": self.signature,
            "manifest": self.manifest,
        }
