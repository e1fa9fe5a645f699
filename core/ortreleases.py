"""The ONNX Runtime releases onnxpack knows, and the ONNX release each integrated (pure data, no onnx import)."""

from __future__ import annotations

__all__ = ["ORT_TO_ONNX", "RELEASE_VERSIONS"]

# ORT release -> (ONNX release it integrated, derived?, overrides of (ir, ai.onnx, ai.onnx.ml) or None).
# Rows 1.0–1.20 are ORT's official "ONNX Runtime compatibility" table; 1.21+ are derived (ort-compat.md).
# Overrides: the official table gives lower limits than the ONNX release's VERSION_TABLE row for
#   1.11 (ai.onnx.ml 2, not 3), 1.15 (IR 8, not 9), 1.18–1.20 (ai.onnx.ml 4, not 5).
ORT_TO_ONNX: tuple[tuple[str, str, bool, dict[str, int]], ...] = (
    ("1.0", "1.6.0", False, {}),
    ("1.1", "1.6.0", False, {}),
    ("1.2", "1.6.0", False, {}),
    ("1.3", "1.7.0", False, {}),
    ("1.4", "1.7.0", False, {}),
    ("1.5", "1.7.0", False, {}),
    ("1.6", "1.8.0", False, {}),
    ("1.7", "1.8.0", False, {}),
    ("1.8", "1.9.0", False, {}),
    ("1.9", "1.10.0", False, {}),
    ("1.10", "1.10.0", False, {}),
    ("1.11", "1.11.0", False, {"ml": 2}),
    ("1.12", "1.12.0", False, {}),
    ("1.13", "1.12.0", False, {}),
    ("1.14", "1.13.0", False, {}),
    ("1.15", "1.14.0", False, {"ir": 8}),
    ("1.16", "1.14.1", False, {}),
    ("1.17", "1.15.0", False, {}),
    ("1.18", "1.16.0", False, {"ml": 4}),
    ("1.19", "1.16.1", False, {"ml": 4}),
    ("1.20", "1.16.1", False, {"ml": 4}),
    ("1.21", "1.17.0", True, {}),
    ("1.22", "1.18.0", True, {}),
    ("1.23", "1.19.0", True, {}),
    ("1.24", "1.20.0", True, {}),
    ("1.25", "1.21.0", True, {}),
)

#: Every known ORT release as "MAJOR.MINOR", newest first (the desktop app offers them as targets).
RELEASE_VERSIONS: tuple[str, ...] = tuple(
    sorted((row[0] for row in ORT_TO_ONNX), key=lambda v: tuple(int(x) for x in v.split(".")), reverse=True)
)
