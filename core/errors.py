"""The one exception family of onnxpack: every error says what went wrong and how to fix it."""

from __future__ import annotations

from typing import Any

__all__ = [
    "Cancelled",
    "ExternalDataError",
    "InputError",
    "ModelFormatError",
    "OnnxpackError",
    "OutputError",
    "RuntimeFailure",
]


class OnnxpackError(Exception):
    """Base of all onnxpack errors.

    ``message`` says what went wrong (naming the file or tensor), ``hint`` how to fix it,
    ``code`` is a stable identifier for scripts, ``details`` carries extra text (e.g. the
    underlying library's message) for "show details" views.
    """

    code = "ERROR"
    #: exit status the command line uses for this error (2 = usage error or unreadable input).
    exit_status = 2

    def __init__(
        self,
        message: str,
        hint: str | None = None,
        *,
        code: str | None = None,
        details: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code
        self.details = details

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message}\nHint: {self.hint}"
        return self.message

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "details": self.details,
        }


class InputError(OnnxpackError):
    """A path or option given by the user cannot be used (missing file, wrong kind, bad value)."""

    code = "INPUT"


class ModelFormatError(InputError):
    """The file is not a readable ONNX / ORT model (empty, truncated, random bytes, a ZIP, ...)."""

    code = "MODEL_FORMAT"


class ExternalDataError(OnnxpackError):
    """External data cannot be used safely (missing, escaping the folder, out of range, ...)."""

    code = "EXTERNAL_DATA"
    exit_status = 1


class OutputError(OnnxpackError):
    """The output cannot be written (exists, inside the input, no space, ...)."""

    code = "OUTPUT"


class RuntimeFailure(OnnxpackError):
    """ONNX Runtime could not load or run the model (or its child process died or timed out)."""

    code = "RUNTIME"
    exit_status = 1


class Cancelled(OnnxpackError):
    """The operation was cancelled by the caller; nothing was left behind."""

    code = "CANCELLED"
    exit_status = 130

    def __init__(self, message: str = "Cancelled.", hint: str | None = None, **kw: Any) -> None:
        super().__init__(message, hint, **kw)
