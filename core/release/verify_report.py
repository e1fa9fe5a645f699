"""What :func:`~onnxpack.core.release.verify.verify_bundle` found: each file's status and the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import OnnxpackError
from ..findings import Finding, Severity

__all__ = ["HINT_TAMPER", "VERIFY_SCHEMA", "FileStatus", "VerifyReport", "reported"]

VERIFY_SCHEMA = "onnxpack.verify/1"
#: The remedy of a bundle that is not what its manifest or signature says (the registry's entries repeat it).
HINT_TAMPER = "The bundle was modified after it was built. Get it again from its publisher, or rebuild it."


def reported(error: OnnxpackError, subject: str, code: str | None = None) -> Finding:
    """An error raised while judging the bundle (its recipe, its signature), reported as the bundle's problem: with
    its own code (or ``code``), message and hint (the tamper hint when it has none)."""
    # Built directly, not from the registry: the error's words were rendered from its code when it was raised (or
    # are a class code's own), and are repeated here unchanged.
    return Finding.error(code or error.code, error.message, error.hint or HINT_TAMPER, subject)


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
    problems: list[Finding] = field(default_factory=list)
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
