"""The one exception family of onnxpack: every error says what went wrong and how to fix it."""

from __future__ import annotations

from typing import Any

__all__ = [
    "Cancelled",
    "ExternalDataError",
    "InputError",
    "InternalError",
    "ModelFormatError",
    "OnnxpackError",
    "OutputError",
    "RefusedError",
    "RuntimeFailure",
    "from_os_error",
]


class OnnxpackError(Exception):
    """Base of all onnxpack errors.

    ``message`` says what went wrong (naming the file or tensor), ``hint`` how to fix it,
    ``code`` is a stable identifier for scripts, ``details`` carries extra text (e.g. the
    underlying library's message) for "show details" views. ``params`` holds the values in ``message`` by name when
    the error repeats a finding (its code, ``subject`` and parameters), so the desktop app can word it in its own
    language; it is not serialised.
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
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code
        self.details = details
        self.params: dict[str, Any] = dict(params or {})

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


class RefusedError(OnnxpackError):
    """onnxpack will not do what was asked: error-level findings, a version not above the previous release,
    an output that exists without --force. Exit status 1, like a failed check (2 is for usage errors)."""

    code = "REFUSED"
    exit_status = 1


class OutputError(RefusedError):
    """The output cannot be written (exists, inside the input, a link, no space, read-only, ...)."""

    code = "OUTPUT"


class InternalError(OnnxpackError):
    """A bug in onnxpack: an invariant of its own does not hold. Exit status 3; please report it."""

    code = "INTERNAL"
    exit_status = 3


class RuntimeFailure(OnnxpackError):
    """ONNX Runtime could not load or run the model (or its child process died or timed out)."""

    code = "RUNTIME"
    exit_status = 1


class Cancelled(OnnxpackError):
    """The operation was cancelled by the caller; nothing was left behind."""

    code = "CANCELLED"
    exit_status = 130

    def __init__(self, message: str | None = None, hint: str | None = None, **kw: Any) -> None:
        if message is None:  # the registry's words (core/classcodes.py CANCELLED), imported late: it imports this
            from .classcodes import CANCELLED

            message = CANCELLED.message()
        super().__init__(message, hint, **kw)


def from_os_error(e: OSError) -> OnnxpackError | None:
    """An error family member for a file-system error on a user's path (its ``PATH_<ERRNO>`` code of
    core/classcodes.py); None for errors that mean a bug."""
    from .classcodes import PATH_CODES

    code = PATH_CODES.get(e.errno) if e.errno is not None else None
    if code is None:
        return None
    return code.error(variant="named" if e.filename else None, path=e.filename)
