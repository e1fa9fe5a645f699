"""Findings: one validation result with severity, stable code, message and fix hint."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FIXED_BY_RETARGET", "Finding", "Severity", "worst"]

#: The findings ``bundle --fix-ir`` clears when it can make the target load the model (Validation.bundle_gate; the
#: GUI names the box that does it). Here, with no heavy import, so the GUI's Qt-free state can use it at start-up.
FIXED_BY_RETARGET = frozenset({"ORT_TARGET_UNSUPPORTED", "IR_LOWERABLE"})


class Severity(str, enum.Enum):
    """How bad a finding is; ``error`` makes `check` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True)
class Finding:
    """A single validation finding; ``subject`` names the file or tensor concerned."""

    severity: Severity
    code: str
    message: str
    hint: str = ""
    subject: str = ""
    #: The values in ``message`` by name, for a translated rendering (the desktop app's catalog); not serialised:
    #: manifests and JSON output keep the English ``message``.
    params: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def message_params(self) -> dict[str, Any]:
        """``params`` plus ``subject``: what an error repeating this finding carries (OnnxpackError.params)."""
        return {"subject": self.subject, **self.params}

    def to_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "subject": self.subject,
        }

    @classmethod
    def error(cls, code: str, message: str, hint: str = "", subject: str = "", **params: Any) -> Finding:
        return cls(Severity.ERROR, code, message, hint, subject, params)

    @classmethod
    def warning(cls, code: str, message: str, hint: str = "", subject: str = "", **params: Any) -> Finding:
        return cls(Severity.WARNING, code, message, hint, subject, params)

    @classmethod
    def info(cls, code: str, message: str, hint: str = "", subject: str = "", **params: Any) -> Finding:
        return cls(Severity.INFO, code, message, hint, subject, params)


def worst(findings: list[Finding]) -> Severity | None:
    """The most severe level among ``findings`` (None when empty)."""
    if not findings:
        return None
    return max((f.severity for f in findings), key=lambda s: s.rank)
