"""The process environment a command runs in (streams, variables), replaceable in tests."""

from __future__ import annotations

import contextlib
import enum
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["Environment", "ExitStatus"]


class ExitStatus(enum.IntEnum):
    """Exit codes (documented in the README)."""

    OK = 0
    FINDINGS = 1  # error-level findings, a failed smoke run, a verify mismatch
    USAGE = 2  # usage error or unreadable input
    INTERNAL = 3  # a bug in onnxpack
    CANCELLED = 130
    BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of stdout went away


@dataclass
class Environment:
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    vars: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    stderr_isatty: bool = False

    @classmethod
    def from_process(cls) -> Environment:
        for stream in (sys.stdout, sys.stderr):
            # Japanese paths and messages must print on any console (Windows cp932/cp1252 included).
            reconfigure = getattr(stream, "reconfigure", None)
            if reconfigure is not None:
                with contextlib.suppress(ValueError, OSError):
                    reconfigure(errors="backslashreplace")
        return cls(sys.stdout, sys.stderr, dict(os.environ), bool(getattr(sys.stderr, "isatty", lambda: False)()))
