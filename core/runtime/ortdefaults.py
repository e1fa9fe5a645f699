"""Defaults of the ORT-format check, importable without onnx (the command line's flags show them)."""

from __future__ import annotations

__all__ = ["DEFAULT_ATOL", "DEFAULT_RTOL", "OPTIMIZATION_STYLES", "TARGET_PLATFORMS"]

#: Pass line of the .ort-vs-.onnx comparison: the converter re-optimizes the graph (fusions, other
#: kernels), which may change the last bits of floating-point results.
DEFAULT_ATOL = 1e-5
DEFAULT_RTOL = 1e-4
OPTIMIZATION_STYLES = ("Fixed", "Runtime")
TARGET_PLATFORMS = ("amd64", "arm")
