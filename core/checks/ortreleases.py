"""The ONNX Runtime releases onnxpack knows, and the ONNX release each integrated (pure data, no onnx import)."""

from __future__ import annotations

__all__ = ["ORT_TO_ONNX", "RELEASE_VERSIONS", "ROW_EVIDENCE"]

# ORT release -> (ONNX release it integrated, derived?, overrides of (ir, ai.onnx, ai.onnx.ml) or None).
# Rows 1.0–1.20 are ORT's official "ONNX Runtime compatibility" table. Rows 1.21+ are not official ("derived"):
# each was measured on the release's own CPU wheel from PyPI with requirements/probe_ort.py, which loads a tiny
# model at every IR version / opset and records the highest accepted (the ONNX release named is the one whose
# onnx.helper.VERSION_TABLE row gives exactly those limits). Measured 2026-11-23:
#   1.21.1, 1.22.1         IR 10, opset 22, ml 5 -> onnx 1.17 (1.22 did NOT move to onnx 1.18, as ort-compat.md
#                                                  guessed from ORT PR #24449)
#   1.23.2                 IR 11, opset 23, ml 5 -> onnx 1.18 (ort-compat.md guessed 1.19)
#   1.24.4                 IR 13, opset 25, ml 5 -> onnx 1.20 (ORT PR #26579)
#   1.25.1 ... 1.31.1      IR 13, opset 26, ml 5 -> onnx 1.21 (ORT PR #27601; the ONNX 1.22 integration, ORT PR
#                                                  #28754, reached no release before 1.32)
#   1.32.0                 IR 14, opset 28, ml 5 -> onnx 1.23 (ORT PR #32359)
# Overrides: the official table gives lower limits than the ONNX release's VERSION_TABLE row for
#   1.11 (ai.onnx.ml 2, not 3), 1.15 (IR 8, not 9), 1.18–1.20 (ai.onnx.ml 4, not 5).
# tests/test_compat.py probes the installed onnxruntime the same way and fails if its row is missing or wrong,
# so upgrading the lock to a new ORT (requirements/lock) cannot ship a stale table.
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
    ("1.22", "1.17.0", True, {}),
    ("1.23", "1.18.0", True, {}),
    ("1.24", "1.20.0", True, {}),
    ("1.25", "1.21.0", True, {}),
    ("1.26", "1.21.0", True, {}),
    ("1.27", "1.21.0", True, {}),
    ("1.28", "1.21.0", True, {}),
    ("1.29", "1.21.0", True, {}),
    ("1.30", "1.21.0", True, {}),
    ("1.31", "1.21.0", True, {}),
    ("1.32", "1.23.0", True, {}),
)

#: Every known ORT release as "MAJOR.MINOR", newest first (the desktop app offers them as targets).
RELEASE_VERSIONS: tuple[str, ...] = tuple(
    sorted((row[0] for row in ORT_TO_ONNX), key=lambda v: tuple(int(x) for x in v.split(".")), reverse=True)
)

#: How each row from ORT 1.10 on is known (``onnxpack check --json`` shows it beside the limits). Rows 1.0–1.20 are
#: ORT's documentation; from 1.10 on each was also measured on the release's official wheel with
#: benchmarks/probe_releases.py (one-node models at every IR version and opset, loaded in the environments
#: `--prove-ort` caches; manylinux x86_64, 2026-11-24). CPython 3.11 has wheels from 1.15.0 on, so 1.10–1.14 were
#: measured on their CPython 3.9 wheels (``--python``), which `--prove-ort` itself (running on 3.11) cannot use:
#:   1.10.0 IR 8, opset 15, ml 2 (= docs)     1.11.1 IR 8, opset 16, ml 3 (docs: ml 2; kept)
#:   1.12.1, 1.13.1 IR 8, opset 17, ml 3 (= docs)     1.14.1 IR 8, opset 18, ml 3 (= docs)
#:   1.15.1  IR 9, opset 19, ml 3  (docs: IR 8; the documented, lower figure is kept: float8 kernels, IR 9's
#:                                  reason to exist, came with 1.16)
#:   1.16.3  IR 9, opset 19, ml 3  (= docs)
#:   1.17.3  IR 9, opset 20, ml 4  (= docs)
#:   1.18.1, 1.19.2, 1.20.1  IR 10, opset 21, ml 5  (docs: ml 4; the documented figure is kept)
#: Where a wheel loads more than the documentation says, the table keeps the documented (lower) limit.
#: Rows 1.21+ were measured the same way (the comment above ORT_TO_ONNX).
ROW_EVIDENCE: dict[str, str] = {
    "1.10": "ORT documentation; measured on 1.10.0's CPython 3.9 wheel (same limits; no CPython 3.11 wheel)",
    "1.11": "ORT documentation; measured on 1.11.1's CPython 3.9 wheel (loads ai.onnx.ml 3 too; the documented 2 "
            "is kept; no CPython 3.11 wheel)",
    "1.12": "ORT documentation; measured on 1.12.1's CPython 3.9 wheel (same limits; no CPython 3.11 wheel)",
    "1.13": "ORT documentation; measured on 1.13.1's CPython 3.9 wheel (same limits; no CPython 3.11 wheel)",
    "1.14": "ORT documentation; measured on 1.14.1's CPython 3.9 wheel (same limits; no CPython 3.11 wheel)",
    "1.15": "ORT documentation; measured on 1.15.1's wheel (loads IR 9 too; the documented IR 8 is kept)",
    "1.16": "ORT documentation; measured on 1.16.3's wheel (same limits)",
    "1.17": "ORT documentation; measured on 1.17.3's wheel (same limits)",
    "1.18": "ORT documentation; measured on 1.18.1's wheel (loads ai.onnx.ml 5 too; the documented 4 is kept)",
    "1.19": "ORT documentation; measured on 1.19.2's wheel (loads ai.onnx.ml 5 too; the documented 4 is kept)",
    "1.20": "ORT documentation; measured on 1.20.1's wheel (loads ai.onnx.ml 5 too; the documented 4 is kept)",
    **{v: "measured on the release's wheel (requirements/probe_ort.py)" for v in (
        "1.21", "1.22", "1.23", "1.24", "1.25", "1.26", "1.27", "1.28", "1.29", "1.30", "1.31", "1.32")},
}
