"""onnxruntime's in-memory location marker is never accepted from a model file."""

from __future__ import annotations

from pathlib import Path


def test_ort_memory_address_marker_is_rejected(tmp_path: Path) -> None:
    """ORT reads '*/_ORT_MEM_ADDR_/*' locations as process memory: never accept them from a file."""
    from onnxpack.core.model.extdata.extresolve import resolve_external_data
    from onnxpack.core.model.modelfile import load_structure
    from tests.factory import add_model, save_with_external

    path = save_with_external(add_model(), tmp_path / "m" / "model.onnx", location="*/_ORT_MEM_ADDR_/*")
    table = resolve_external_data(load_structure(path), path.parent)
    assert not table.ok
    assert any(f.code == "EXTDATA_BAD_LOCATION" and "_ORT_MEM_ADDR_" in f.message for f in table.findings)
