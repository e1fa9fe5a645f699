"""Foundation modules: external-data rules (security.md rule 1/2), the tensor walk, safe model loading."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.errors import ExternalDataError, InputError, ModelFormatError
from onnxpack.core.model.extdata.extreader import ExternalDataReader
from onnxpack.core.model.extdata.extref import sha1_file
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.modelfile import FileKind, load_structure, locate_model, sniff
from onnxpack.core.model.tensors import expected_nbytes, iter_graphs, iter_tensors, uses_external_data
from onnxpack.core.progress import CancelToken
from tests.factory import add_model, save_with_external, snapshot


def _codes(table: object) -> list[str]:
    return [f.code for f in table.findings]  # type: ignore[attr-defined]


def _ext(t: TensorProto, **kv: object) -> None:
    """Mark ``t`` external with exactly these keys (values as strings, as in the proto)."""
    del t.external_data[:]
    t.ClearField("raw_data")
    for k, v in kv.items():
        e = t.external_data.add()
        e.key, e.value = k, str(v)
    t.data_location = TensorProto.EXTERNAL


def _one_tensor_model(folder: Path, data: bytes = b"\0" * 16, **kv: object) -> onnx.ModelProto:
    """A model whose initializer W (4 floats) is external with keys ``kv``; data file 'w.bin'."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "w.bin").write_bytes(data)
    w = numpy_helper.from_array(np.zeros(4, np.float32), "W")
    _ext(w, **({"location": "w.bin", "offset": 0, "length": 16} | kv))
    g = helper.make_graph(
        [helper.make_node("Identity", ["W"], ["Y"])], "g", [],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4])], initializer=[w],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


# ----------------------------------------------------------------------------- valid cases


def test_valid_external_model_resolves(ext_model: Path) -> None:
    model = load_structure(ext_model)
    table = resolve_external_data(model, ext_model.parent)
    assert table.ok and table.findings == []
    assert [r.ref.name for r in table.refs] == ["W1", "W2"]
    assert all(r.ok and r.data_length == 256 and r.expected_length == 256 for r in table.refs)
    assert table.files == {"model.onnx.data": 512}
    assert table.refs[0].aligned_4k and not table.refs[1].aligned_4k  # offsets 0 and 256
    with ExternalDataReader(table) as reader:
        w2 = np.frombuffer(reader.read(table.refs[1]), np.float32)
    full = onnx.load(str(ext_model))  # trusted test model: onnx may resolve it
    np.testing.assert_array_equal(w2, numpy_helper.to_array(full.graph.initializer[1]))


def test_length_absent_means_rest_of_file(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, offset=0)
    m.graph.initializer[0].external_data.pop()  # drop 'length'
    table = resolve_external_data(m, tmp_path)
    assert table.ok and table.refs[0].length is None and table.refs[0].data_length == 16


def test_subfolder_location_and_unicode_names(tmp_path: Path) -> None:
    folder = tmp_path / "モデル フォルダ"
    path = save_with_external(add_model(), folder / "勝利 モデル.onnx", location="重み/データ 1.bin")
    table = resolve_external_data(load_structure(path), folder)
    assert table.ok, table.findings
    assert set(table.files) == {"重み/データ 1.bin"}


def test_checksum_verified(tmp_path: Path) -> None:
    data = bytes(range(16))
    good = hashlib.sha1(data).hexdigest()
    assert resolve_external_data(_one_tensor_model(tmp_path, data, checksum=good), tmp_path).ok
    assert resolve_external_data(_one_tensor_model(tmp_path, data, checksum=good.upper()), tmp_path).ok
    bad = _one_tensor_model(tmp_path, data, checksum="0" * 40)
    assert _codes(resolve_external_data(bad, tmp_path)) == ["EXTDATA_CHECKSUM_MISMATCH"]
    assert resolve_external_data(bad, tmp_path, verify_checksums=False).ok
    junk = _one_tensor_model(tmp_path, data, checksum="xyz")
    assert _codes(resolve_external_data(junk, tmp_path)) == ["EXTDATA_BAD_CHECKSUM"]
    assert sha1_file(tmp_path / "w.bin") == good


def test_checksum_verification_is_cancellable(tmp_path: Path) -> None:
    data = bytes(16)
    m = _one_tensor_model(tmp_path, data, checksum=hashlib.sha1(data).hexdigest())
    token = CancelToken()
    token.cancel()
    from onnxpack.core.errors import Cancelled

    with pytest.raises(Cancelled):
        resolve_external_data(m, tmp_path, cancel=token)


# ----------------------------------------------------------------------------- hostile locations


@pytest.mark.parametrize(
    ("location", "code"),
    [
        ("/etc/passwd", "EXTDATA_ABSOLUTE"),
        ("\\\\server\\share\\w.bin", "EXTDATA_ABSOLUTE"),
        ("C:\\w.bin", "EXTDATA_ABSOLUTE"),
        ("C:w.bin", "EXTDATA_ABSOLUTE"),
        ("../w.bin", "EXTDATA_OUTSIDE_DIR"),
        ("sub/../../w.bin", "EXTDATA_OUTSIDE_DIR"),
        ("..\\w.bin", "EXTDATA_OUTSIDE_DIR"),
        ("w..bin", "EXTDATA_BAD_LOCATION"),  # not a '..' component, but onnx refuses it (ORT accepts it)
        ("", "EXTDATA_NO_LOCATION"),
        ("w.bin\x00.txt", "EXTDATA_BAD_LOCATION"),
        ("sub//w.bin", "EXTDATA_BAD_LOCATION"),
        ("w.bin:stream", "EXTDATA_BAD_LOCATION"),  # NTFS alternate data stream
        ("CON", "EXTDATA_BAD_LOCATION"),  # Windows device names
        ("sub/nul.bin", "EXTDATA_BAD_LOCATION"),
        ("w.bin.", "EXTDATA_BAD_LOCATION"),  # Windows strips trailing dots/spaces: another file
    ],
)
def test_bad_locations_rejected_without_touching_files(tmp_path: Path, location: str, code: str) -> None:
    m = _one_tensor_model(tmp_path, location=location)
    table = resolve_external_data(m, tmp_path)
    assert code in _codes(table)
    assert not table.ok and table.refs[0].path is None
    with pytest.raises(ExternalDataError):
        ExternalDataReader(table)


def test_missing_location_key(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path)
    t = m.graph.initializer[0]
    _ext(t, offset=0, length=16)
    assert _codes(resolve_external_data(m, tmp_path)) == ["EXTDATA_NO_LOCATION"]


def test_missing_file(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, location="nope.bin")
    table = resolve_external_data(m, tmp_path)
    assert _codes(table) == ["EXTDATA_MISSING"]
    assert "nope.bin" in table.findings[0].message


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_symlinked_file_and_folder_rejected(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.bin").write_bytes(b"\1" * 16)
    model_dir = tmp_path / "m"
    m = _one_tensor_model(model_dir, location="link.bin")
    (model_dir / "link.bin").symlink_to(outside / "secret.bin")
    assert _codes(resolve_external_data(m, model_dir)) == ["EXTDATA_SYMLINK"]
    # a link to a file INSIDE the folder is refused too (no symlink at any level)
    (model_dir / "inner.bin").symlink_to(model_dir / "w.bin")
    m2 = _one_tensor_model(model_dir, location="inner.bin")
    assert _codes(resolve_external_data(m2, model_dir)) == ["EXTDATA_SYMLINK"]
    (model_dir / "sub").symlink_to(outside, target_is_directory=True)
    m3 = _one_tensor_model(model_dir, location="sub/secret.bin")
    assert _codes(resolve_external_data(m3, model_dir)) == ["EXTDATA_SYMLINK"]


def test_hard_link_rejected(tmp_path: Path) -> None:
    outside = tmp_path / "secret.bin"
    outside.write_bytes(b"\1" * 16)
    model_dir = tmp_path / "m"
    m = _one_tensor_model(model_dir, location="hl.bin")
    os.link(outside, model_dir / "hl.bin")
    assert _codes(resolve_external_data(m, model_dir)) == ["EXTDATA_HARDLINK"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_rejected_without_blocking(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, location="pipe")
    os.mkfifo(tmp_path / "pipe")
    assert _codes(resolve_external_data(m, tmp_path, verify_checksums=True)) == ["EXTDATA_NOT_REGULAR"]


def test_directory_rejected(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, location="adir")
    (tmp_path / "adir").mkdir()
    assert _codes(resolve_external_data(m, tmp_path)) == ["EXTDATA_NOT_REGULAR"]


def test_file_component_used_as_folder(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, location="w.bin/x")
    assert _codes(resolve_external_data(m, tmp_path)) == ["EXTDATA_MISSING"]


# ----------------------------------------------------------------------------- hostile keys


@pytest.mark.parametrize(
    ("keys", "code"),
    [
        ({"offset": -1}, "EXTDATA_BAD_KEY"),
        ({"length": -16}, "EXTDATA_BAD_KEY"),
        ({"offset": "zero"}, "EXTDATA_BAD_KEY"),
        ({"length": "1e3"}, "EXTDATA_BAD_KEY"),
        ({"offset": "٣"}, "EXTDATA_BAD_KEY"),  # a non-ASCII digit
        ({"offset": 17}, "EXTDATA_OUT_OF_RANGE"),
        ({"offset": 8, "length": 16}, "EXTDATA_OUT_OF_RANGE"),
        ({"length": 2**70}, "EXTDATA_OUT_OF_RANGE"),
        ({"length": 12}, "EXTDATA_LENGTH_MISMATCH"),
        ({"offset": 4, "length": 8}, "EXTDATA_LENGTH_MISMATCH"),
    ],
)
def test_bad_keys(tmp_path: Path, keys: dict[str, object], code: str) -> None:
    table = resolve_external_data(_one_tensor_model(tmp_path, **keys), tmp_path)
    assert code in _codes(table), table.findings
    assert not table.ok
    assert "'W'" in table.findings[0].message or "W (" in table.findings[0].message


def test_length_absent_and_file_too_long_is_a_mismatch(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, b"\0" * 20)
    m.graph.initializer[0].external_data.pop()
    assert _codes(resolve_external_data(m, tmp_path)) == ["EXTDATA_LENGTH_MISMATCH"]


def test_unknown_and_duplicate_keys(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, basepath="/etc")
    table = resolve_external_data(m, tmp_path)
    assert _codes(table) == ["EXTDATA_UNKNOWN_KEY"]  # ONNX Runtime refuses the model: so do we
    assert not table.ok and not table.refs[0].ok and table.refs[0].unknown_keys == ["basepath"]
    t = m.graph.initializer[0]
    e = t.external_data.add()
    e.key, e.value = "location", "../x"
    assert "EXTDATA_DUPLICATE_KEY" in _codes(resolve_external_data(m, tmp_path))


def test_external_string_and_inline_data_conflicts(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path)
    m.graph.initializer[0].raw_data = b"\0" * 16
    assert "EXTDATA_ALSO_INLINE" in _codes(resolve_external_data(m, tmp_path))
    s = helper.make_tensor("S", TensorProto.STRING, [1], [b"x"])
    _ext(s, location="w.bin", offset=0, length=1)
    m.graph.initializer.append(s)
    assert "EXTDATA_STRING" in _codes(resolve_external_data(m, tmp_path))


def test_stray_entries_without_external_location_warn(tmp_path: Path) -> None:
    m = add_model()
    e = m.graph.initializer[0].external_data.add()
    e.key, e.value = "location", "/etc/passwd"
    table = resolve_external_data(m, tmp_path)
    assert _codes(table) == ["EXTDATA_IGNORED"] and table.refs == []


def test_overlapping_tensors_warn(tmp_path: Path) -> None:
    m = _one_tensor_model(tmp_path, b"\0" * 24)
    w2 = TensorProto(name="W2", data_type=TensorProto.FLOAT, dims=[4])
    _ext(w2, location="w.bin", offset=8, length=16)
    m.graph.initializer.append(w2)
    assert _codes(resolve_external_data(m, tmp_path)) == ["EXTDATA_OVERLAP"]


# ----------------------------------------------------------------------------- every tensor (rule 2)


def _everywhere_model() -> onnx.ModelProto:
    """External-worthy tensors in: initializer, sparse initializer, Constant, If subgraph, function, training."""
    big = np.arange(16, dtype=np.float32)
    init = numpy_helper.from_array(big, "init")
    sparse = helper.make_sparse_tensor(
        numpy_helper.from_array(big, "sp"), numpy_helper.from_array(np.arange(16, dtype=np.int64), "sp_idx"), [32]
    )
    const = helper.make_node("Constant", [], ["c"], name="const", value=numpy_helper.from_array(big, "cval"))
    sub_const = helper.make_node("Constant", [], ["t"], name="subconst", value=numpy_helper.from_array(big, "subval"))
    then_g = helper.make_graph([sub_const], "then", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [16])],
                               initializer=[numpy_helper.from_array(big, "sub_init")])
    else_g = helper.make_graph([helper.make_node("Identity", ["init"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [16])])
    if_node = helper.make_node("If", ["cond"], ["y"], name="if", then_branch=then_g, else_branch=else_g)
    fn_const = helper.make_node("Constant", [], ["fc"], value=numpy_helper.from_array(big, "fval"))
    fn = helper.make_function("local", "F", [], ["fc"], [fn_const], [helper.make_opsetid("", 17)])
    g = helper.make_graph(
        [const, if_node, helper.make_node("F", [], ["fo"], domain="local")], "main",
        [helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [16])],
        initializer=[init], sparse_initializer=[sparse],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
                          functions=[fn])
    ti = onnx.TrainingInfoProto()
    ti_init = [numpy_helper.from_array(big, "ti")]
    ti.initialization.CopyFrom(helper.make_graph([], "init_g", [], [], initializer=ti_init))
    m.training_info.append(ti)
    return m


def test_iter_tensors_covers_every_place() -> None:
    names = sorted(r.name for r in iter_tensors(_everywhere_model()))
    assert names == sorted(["init", "sp", "sp_idx", "cval", "subval", "sub_init", "fval", "ti"])
    labels = [label for label, _g, _n in iter_graphs(_everywhere_model())]
    assert any(label.startswith("subgraph 'then'") for label in labels)
    assert any(label.startswith("function 'local.F'") for label in labels)


def test_rules_apply_to_every_tensor(tmp_path: Path) -> None:
    m = _everywhere_model()
    save_with_external(m, tmp_path / "m.onnx", threshold=16)
    m = load_structure(tmp_path / "m.onnx")
    table = resolve_external_data(m, tmp_path)
    assert table.ok
    assert len(table.refs) == 8 and all(uses_external_data(r.ref.tensor) for r in table.refs)
    # corrupt every location: one error per tensor, naming it
    for r in table.refs:
        for e in r.ref.tensor.external_data:
            if e.key == "location":
                e.value = "../escape.bin"
    bad = resolve_external_data(m, tmp_path)
    assert _codes(bad) == ["EXTDATA_OUTSIDE_DIR"] * 8
    assert {f.subject for f in bad.findings} == {"init", "sp", "sp_idx", "cval", "subval", "sub_init", "fval", "ti"}


def test_deep_nesting_walk_is_iterative() -> None:
    m = onnx.ModelProto()
    g = m.graph
    for i in range(3000):  # far deeper than Python's recursion limit; built top-down in O(n)
        node = g.node.add(op_type="If", name=f"if{i}")
        attr = node.attribute.add(name="then_branch", type=onnx.AttributeProto.GRAPH)
        g = attr.g
        g.name = f"g{i}"
    g.initializer.add(name="deepest", data_type=TensorProto.FLOAT, dims=[1], float_data=[1.0])
    assert sum(1 for _ in iter_graphs(m)) == 3001
    assert [r.name for r in iter_tensors(m)] == ["deepest"]


# ----------------------------------------------------------------------------- expected_nbytes


@pytest.mark.parametrize(
    ("dtype", "dims", "nbytes"),
    [
        (TensorProto.FLOAT, [2, 3], 24),
        (TensorProto.FLOAT16, [5], 10),
        (TensorProto.BFLOAT16, [5], 10),
        (TensorProto.DOUBLE, [1], 8),
        (TensorProto.BOOL, [3], 3),
        (TensorProto.INT4, [3], 2),
        (TensorProto.UINT4, [4], 2),
        (TensorProto.FLOAT4E2M1, [1], 1),
        (TensorProto.FLOAT8E4M3FN, [7], 7),
        (TensorProto.COMPLEX64, [2], 16),
        (TensorProto.INT64, [], 8),
        (TensorProto.FLOAT, [0, 5], 0),
    ],
)
def test_expected_nbytes(dtype: int, dims: list[int], nbytes: int) -> None:
    assert expected_nbytes(TensorProto(data_type=dtype, dims=dims)) == nbytes


def test_expected_nbytes_unknown_types() -> None:
    assert expected_nbytes(TensorProto(data_type=TensorProto.STRING, dims=[3])) is None
    assert expected_nbytes(TensorProto(data_type=999, dims=[3])) is None


# ----------------------------------------------------------------------------- modelfile


def test_sniff_by_content(tmp_path: Path) -> None:
    cases = {
        "empty.onnx": b"",
        "ort.onnx": b"\x10\x00\x00\x00ORTM" + b"\0" * 32,
        "zip.onnx": b"PK\x03\x04" + b"\0" * 40,
        "text.onnx": b"hello, this is not a model\n",
        "model.txt": add_model().SerializeToString(),
        "jp.onnx": ("これはモデルではありません。" * 10).encode(),  # multibyte cut at byte 64
        "bom.onnx": b"\xef\xbb\xbfir_version: 8\nproducer_name: 'x'\n",
    }
    kinds = {}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        kinds[name] = sniff(tmp_path / name)
    assert kinds == {
        "empty.onnx": FileKind.EMPTY,
        "ort.onnx": FileKind.ORT,
        "zip.onnx": FileKind.ZIP,
        "text.onnx": FileKind.TEXT,
        "model.txt": FileKind.ONNX,
        "jp.onnx": FileKind.TEXT,
        "bom.onnx": FileKind.TEXT,
    }


def test_locate_model(tmp_path: Path, ext_model: Path) -> None:
    assert locate_model(ext_model.parent).model == ext_model.absolute()
    assert locate_model(ext_model).data_dir == ext_model.parent.absolute()
    other = tmp_path / "data"
    other.mkdir()
    assert locate_model(ext_model, other).data_dir == other.absolute()
    with pytest.raises(InputError, match="No such file"):
        locate_model(tmp_path / "nope.onnx")
    with pytest.raises(InputError, match="Data folder"):
        locate_model(ext_model, tmp_path / "nope")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match=r"No \.onnx"):
        locate_model(empty)
    (ext_model.parent / "second.onnx").write_bytes(b"")
    with pytest.raises(InputError, match="several models"):
        locate_model(ext_model.parent)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_locate_model_refuses_fifo(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "m.onnx")
    with pytest.raises(InputError, match="not a regular file"):
        locate_model(tmp_path / "m.onnx")


def test_load_structure_never_loads_external_data(ext_model: Path) -> None:
    (ext_model.parent / "model.onnx.data").unlink()  # would fail if onnx tried to read it
    m = load_structure(ext_model)
    assert all(uses_external_data(t) for t in m.graph.initializer[:2])


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "MODEL_FORMAT"),
        (b"\x10\x00\x00\x00ORTM" + b"\0" * 32, "MODEL_IS_ORT"),
        (b"PK\x03\x04" + b"\0" * 40, "MODEL_IS_ZIP"),
        (b"graph { node { op_type: 'Add' } }\n", "MODEL_IS_TEXT"),
        (bytes(np.random.default_rng(5).integers(0, 256, 4096, dtype=np.uint8)), "MODEL_FORMAT"),
        (b"\x08\x08", "MODEL_FORMAT"),  # parses (ir_version only) but holds no graph
    ],
)
def test_load_structure_rejects(tmp_path: Path, data: bytes, code: str) -> None:
    p = tmp_path / "m.onnx"
    p.write_bytes(data)
    with pytest.raises(ModelFormatError) as ei:
        load_structure(p)
    assert ei.value.code == code
    assert "m.onnx" in ei.value.message and ei.value.hint


def test_load_structure_rejects_invalid_utf8(tmp_path: Path) -> None:
    m = add_model()
    m.graph.initializer[0].name = "ZZZZ"
    p = tmp_path / "m.onnx"
    p.write_bytes(m.SerializeToString().replace(b"ZZZZ", b"\xff\xfeZZ"))
    with pytest.raises(ModelFormatError, match="UTF-8") as ei:
        load_structure(p)
    assert ei.value.code == "MODEL_BAD_TEXT"


def test_load_structure_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "m.onnx"
    p.write_bytes(add_model().SerializeToString())

    def denied(*_a: object, **_k: object) -> None:
        raise PermissionError(13, "Permission denied")

    # (tests run as root in CI, where chmod 0 doesn't stop reads: simulate the OS refusing)
    # load_structure imports it when it parses
    monkeypatch.setattr("onnxpack.core.model.skeleton.read_skeleton", denied)
    with pytest.raises(InputError, match=r"Cannot read model file .*Permission denied"):
        load_structure(p)
    monkeypatch.setattr("onnxpack.core.model.modelfile.sniff", denied)
    with pytest.raises(InputError, match="Permission denied"):
        load_structure(p)


def test_reader_rechecks_file_and_reads_chunks(ext_model: Path) -> None:
    before = snapshot(ext_model.parent)
    table = resolve_external_data(load_structure(ext_model), ext_model.parent)
    with ExternalDataReader(table) as reader:
        chunks = list(reader.iter_chunks(table.refs[0], chunk=100))
        assert [len(c) for c in chunks] == [100, 100, 56]
        sink = bytearray()
        assert reader.copy_to(table.refs[1], sink.extend) == 256
    # a file that shrank after validation is detected, not silently short
    (ext_model.parent / "model.onnx.data").write_bytes(b"\0" * 300)
    with ExternalDataReader(table) as reader, pytest.raises(ExternalDataError, match="shorter"):
        reader.read(table.refs[1])
    assert set(before) == set(snapshot(ext_model.parent))
