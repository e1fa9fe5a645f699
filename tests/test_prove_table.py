"""The compatibility table reaches back to ORT 1.10, every row saying how it is known (issue 27 §4)."""

from __future__ import annotations

from onnxpack.core.checks.compat import ORT_RELEASES
from onnxpack.core.checks.ortreleases import ROW_EVIDENCE


def test_rows_from_1_10_say_where_they_come_from() -> None:
    rows = [r for r in ORT_RELEASES if r.key >= (1, 10) and r.version in ROW_EVIDENCE]
    assert rows[0].version == "1.10"
    for r in rows:
        evidence = r.to_dict()["evidence"]
        assert "measured on" in evidence, r.version
        if r.key < (1, 15):  # CPython 3.11 has official wheels from 1.15.0 on: measured on an older Python's
            assert "CPython 3.9 wheel" in evidence and "no CPython 3.11 wheel" in evidence
        if r.key <= (1, 20):
            assert evidence.startswith("ORT documentation; ")
        assert r.derived == (r.key >= (1, 21)), r.version  # the official table stops at 1.20
    # what the 3.11 wheels showed, where it is looser than the documentation, is recorded and the docs kept
    by = {r.version: r for r in ORT_RELEASES}
    assert by["1.15"].ir == 8 and "IR 9" in ROW_EVIDENCE["1.15"]
    assert by["1.18"].ml_opset == 4 and "ai.onnx.ml 5" in ROW_EVIDENCE["1.18"]
    assert by["1.11"].ml_opset == 2 and "ai.onnx.ml 3" in ROW_EVIDENCE["1.11"]
