"""The finding and error codes that ``onnxpack.core.checks`` produces (the registry: ``onnxpack.core.codes``)."""

from __future__ import annotations

from ..codes import define
from ..findings import Severity

__all__: list[str] = []

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

# Each entry: NAME = define("NAME", SEVERITY, "message template", "remedy template") for a finding, or
# NAME = define("NAME", kind=SomeError, text="message template", hint="remedy", summary="in general words").
_ = define
