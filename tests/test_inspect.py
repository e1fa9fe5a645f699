"""Inspection: layout, files, sizes (exact merged size), versions, interface, operators; weights never read."""

from __future__ import annotations

import builtins
import os
import shutil
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.checks.inspection import inspect_model
from onnxpack.core.errors import Cancelled, InputError, ModelFormatError
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge.mergesize import (
    MergedSizer,
    external_lengths,
    inline_tensor,
    single_file_size,
    varint_size,
)
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.model.tensors import iter_tensors, uses_external_data
from onnxpack.core.progress import CancelToken
from tests.factory import add_model, save_with_external, snapshot


def real_merged_size(path: Path) -> int:
    """Size of the model really merged in memory (trusted test models only).

    Done by hand because onnx.load skips tensors in functions and sparse tensors; the header change is
    merge's canonical one (core.mergesize.inline_tensor: byte-identical to onnx.load for the tensors it loads).
    """
    model = onnx.load(str(path), load_external_data=False)
    for ref in iter_tensors(model):
        t = ref.tensor
        if uses_external_data(t):
            kv = {e.key: e.value for e in t.external_data}
            with open(path.parent / kv["location"], "rb") as f:
                f.seek(int(kv.get("offset", 0)))
                data = f.read(int(kv["length"]))
            inline_tensor(t)
            t.raw_data = data
    return len(model.SerializeToString())


def make_ort_file(src: onnx.ModelProto, dest: Path) -> Path:
    """Convert a (trusted) model to ORT format with onnxruntime itself."""
    tmp = dest.parent / "src_for_ort.onnx"
    tmp.write_bytes(src.SerializeToString())
    so = ort.SessionOptions()
    so.optimized_model_filepath = str(dest)
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.add_session_config_entry("session.save_model_format", "ORT")
    ort.InferenceSession(str(tmp), so, providers=["CPUExecutionProvider"])
    tmp.unlink()
    return dest


def test_sample_model(sample_model: Path) -> None:
    before = snapshot(sample_model.parent)
    insp = inspect_model(sample_model.parent)  # a folder is accepted
    assert insp.layout == "external" and insp.ok
    assert [f["path"] for f in insp.files] == ["victory.onnx", "victory.onnx.data"]
    assert insp.files[1]["size"] == (sample_model.parent / "victory.onnx.data").stat().st_size
    assert insp.total_size == sum(f["size"] for f in insp.files)
    assert insp.merged_size == real_merged_size(sample_model) and insp.merged_size_exact and insp.fits_single_file
    assert (insp.ir_version, insp.opsets) == (8, {"ai.onnx": 17})
    assert insp.producer_name == "onnxpack-sample" and insp.model_version == 1
    assert insp.metadata["classes"] == "victory,defeat,other"
    assert insp.inputs == [{"name": "input", "elem_type": "FLOAT", "shape": ["batch_size", 3, 64, 128]}]
    assert insp.outputs == [{"name": "output", "elem_type": "FLOAT", "shape": ["batch_size", 3]}]
    s = insp.initializers
    assert (s.count, s.external_count, s.inline_count) == (8, 4, 4)
    assert s.external_bytes == insp.files[1]["size"]
    assert {"domain": "ai.onnx", "op_type": "Conv", "count": 3} in insp.operators
    assert insp.node_count == 12 and insp.subgraph_count == 0 and insp.functions == []
    assert insp.compat is not None and insp.compat.oldest is not None and insp.compat.oldest.version == "1.12"
    rows = [r.to_dict() for r in insp.external.refs] if insp.external else []
    assert [r["offset"] for r in rows] == [0, 3456, 77184, 372096]
    assert [r["aligned_4k"] for r in rows] == [True, False, False, False]
    assert snapshot(sample_model.parent) == before


def test_single_file_model(tmp_path: Path) -> None:
    p = tmp_path / "m.onnx"
    p.write_bytes(add_model().SerializeToString())
    insp = inspect_model(p)
    assert insp.layout == "single" and len(insp.files) == 1
    assert insp.merged_size == p.stat().st_size == insp.total_size
    assert insp.initializers.inline_bytes == 64 * 4 * 2 + 4
    assert insp.inputs[0]["shape"] == ["batch", 64]


def test_separate_data_folder(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "a" / "m.onnx")
    data_dir = tmp_path / "weights"
    data_dir.mkdir()
    shutil.move(tmp_path / "a" / "m.onnx.data", data_dir / "m.onnx.data")
    missing = inspect_model(path)
    assert not missing.ok and [f.code for f in missing.findings] == ["EXTDATA_MISSING"]
    assert missing.files[1]["size"] is None and not missing.merged_size_exact
    insp = inspect_model(path, data_dir)
    assert insp.ok and insp.location.data_dir == data_dir.absolute() and insp.files[1]["size"] == 512


def test_inspection_never_reads_weights(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def spy_open(file: object, *a: object, **k: object) -> object:
        opened.append(str(file))
        return real_open(file, *a, **k)  # type: ignore[call-overload]

    def spy_os_open(file: object, *a: object, **k: object) -> int:
        opened.append(str(file))
        return real_os_open(file, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "open", spy_os_open)
    insp = inspect_model(path)
    assert insp.ok and insp.layout == "external"
    assert not [p for p in opened if p.endswith(".data")]


def test_checksums_are_not_read_by_inspect(tmp_path: Path) -> None:
    m = add_model()
    path = save_with_external(m, tmp_path / "m.onnx")
    model = load_structure(path)
    for t in model.graph.initializer[:2]:
        e = t.external_data.add()
        e.key, e.value = "checksum", "0" * 40
    path.write_bytes(model.SerializeToString())
    assert inspect_model(path).ok
    assert not inspect_model(path, verify_checksums=True).ok


def _rich_model(n: int) -> onnx.ModelProto:
    """Six external-worthy tensors: initializer, sparse values + indices, Constant, If branch, function."""
    arr = np.arange(n, dtype=np.float32)
    init = numpy_helper.from_array(arr, "init")
    sparse = helper.make_sparse_tensor(numpy_helper.from_array(arr, "spv"),
                                       numpy_helper.from_array(np.arange(n, dtype=np.int64), "spi"), [2 * n])
    const = helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(arr, "cv"))
    then_g = helper.make_graph([helper.make_node("Constant", [], ["t"], value=numpy_helper.from_array(arr, "tv"))],
                               "then", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [n])])
    else_g = helper.make_graph([helper.make_node("Identity", ["init"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [n])])
    fn = helper.make_function("loc", "F", [], ["o"], [helper.make_node(
        "Constant", [], ["o"], value=numpy_helper.from_array(arr, "fv"))], [helper.make_opsetid("", 17)])
    g = helper.make_graph(
        [const, helper.make_node("If", ["b"], ["y"], then_branch=then_g, else_branch=else_g),
         helper.make_node("F", [], ["z"], domain="loc")],
        "main", [helper.make_tensor_value_info("b", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])], initializer=[init], sparse_initializer=[sparse],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("loc", 1)], functions=[fn])
    m.ir_version = 8
    return m


# sizes chosen so tensors and graphs cross varint boundaries (127/128 and 16383/16384 bytes)
@pytest.mark.parametrize("n", [1, 31, 32, 33, 4095, 4096, 5000])
def test_merged_size_is_exact_everywhere(tmp_path: Path, n: int) -> None:
    path = save_with_external(_rich_model(n), tmp_path / "m.onnx", threshold=1)
    insp = inspect_model(path)
    assert insp.ok and insp.external is not None and len(insp.external.refs) == 6
    assert insp.merged_size == real_merged_size(path)
    assert insp.subgraph_count == 2 and len(insp.functions) == 1
    assert insp.sparse_initializer_count == 1 and insp.constants.count == 3


def test_merged_sizer_per_message(tmp_path: Path) -> None:
    path = save_with_external(_rich_model(40), tmp_path / "m.onnx", threshold=1)
    model = load_structure(path)
    lengths, exact = external_lengths(resolve_external_data(model, tmp_path))
    assert exact
    sizer = MergedSizer(lengths)
    merged = onnx.load(str(path), load_external_data=False)
    for ref in iter_tensors(merged):
        if uses_external_data(ref.tensor):
            kv = {e.key: e.value for e in ref.tensor.external_data}
            inline_tensor(ref.tensor)
            ref.tensor.raw_data = b"\0" * int(kv["length"])
    assert sizer.size(model.graph) == merged.graph.ByteSize()
    assert sizer.size(model.functions[0]) == merged.functions[0].ByteSize()
    assert [varint_size(v) for v in (0, 127, 128, 16383, 16384, 2**31)] == [1, 1, 2, 2, 3, 5]


def test_merged_size_above_2gib_without_data(tmp_path: Path) -> None:
    """Sizes are computed, not serialized: a 3 GiB sparse data file costs nothing."""
    n = 3 * 2**30 // 4
    t = TensorProto(name="huge", data_type=TensorProto.FLOAT, dims=[n])
    (tmp_path / "h.bin").touch()
    os.truncate(tmp_path / "h.bin", n * 4)
    for k, v in (("location", "h.bin"), ("offset", "0"), ("length", str(n * 4))):
        e = t.external_data.add()
        e.key, e.value = k, v
    t.data_location = TensorProto.EXTERNAL
    g = helper.make_graph([helper.make_node("Identity", ["huge"], ["y"])], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])], initializer=[t])
    m = helper.make_model(g)
    (tmp_path / "h.onnx").write_bytes(m.SerializeToString())
    insp = inspect_model(tmp_path / "h.onnx")
    assert insp.ok and not insp.fits_single_file
    size, exact = single_file_size(load_structure(tmp_path / "h.onnx"), insp.external)  # type: ignore[arg-type]
    structure = m.ByteSize()
    assert exact and size == insp.merged_size
    # the tensor gains raw_data (1 + 5 + n*4), loses its external fields; the graph/model prefixes grow
    assert n * 4 - 64 < size - structure < n * 4 + 64


def test_ort_format_is_detected_by_content(tmp_path: Path) -> None:
    path = make_ort_file(add_model(), tmp_path / "disguised.onnx")
    insp = inspect_model(path)
    assert insp.layout == "ort" and insp.is_ort and insp.model is None
    assert insp.inputs == [{"name": "X", "elem_type": "FLOAT", "shape": ["batch", 64]}]
    assert insp.outputs[0]["name"] == "Y" and insp.producer_name == "tests"
    assert insp.total_size == path.stat().st_size
    assert [f.code for f in insp.findings] == ["ORT_FORMAT"]
    d = insp.to_dict()
    assert d["format"] == "ort" and d["ir_version"] is None and d["ort"]["ort_version"] == ort.__version__


def test_broken_ort_file_is_a_finding(tmp_path: Path) -> None:
    path = make_ort_file(add_model(), tmp_path / "m.ort")
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data[: len(data) // 2]))
    insp = inspect_model(path)
    assert insp.layout == "ort" and not insp.ok
    assert "ORT_LOAD_FAILED" in [f.code for f in insp.findings]


def test_value_types_are_described(tmp_path: Path) -> None:
    m = add_model()
    m.graph.output.append(helper.make_value_info("seq", helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(TensorProto.INT64, None))))
    m.graph.output.append(helper.make_tensor_value_info("unk", TensorProto.FLOAT16, [None, "n", 3]))
    (tmp_path / "m.onnx").write_bytes(m.SerializeToString())
    outs = inspect_model(tmp_path / "m.onnx").outputs
    assert outs[1] == {"name": "seq", "elem_type": "sequence(INT64)", "shape": []}
    assert outs[2] == {"name": "unk", "elem_type": "FLOAT16", "shape": [None, "n", 3]}


def test_errors_for_unusable_input(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        inspect_model(tmp_path / "nope.onnx")
    (tmp_path / "e.onnx").write_bytes(b"")
    with pytest.raises(ModelFormatError):
        inspect_model(tmp_path / "e.onnx")


def test_cancel(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        inspect_model(path, cancel=token)


def test_external_tensors_counted_once(tmp_path: Path) -> None:
    path = save_with_external(_rich_model(16), tmp_path / "m.onnx", threshold=1)
    insp = inspect_model(path)
    assert insp.initializers.external_count + insp.constants.external_count == 6
    assert all(uses_external_data(r.ref.tensor) for r in insp.external.refs)  # type: ignore[union-attr]
