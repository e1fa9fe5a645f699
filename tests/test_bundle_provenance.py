"""Provenance SHA-256 of the source files: computed during the merge's own read, or by the fallback hash."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.external_data_helper import set_external_data

import onnxpack.core.release.modelstage
from onnxpack.core.errors import ExternalDataError
from onnxpack.core.model.extdata.extreader import ExternalDataReader
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge.streamhash import SequentialHasher, read_in_order
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.verify.verify import verify_bundle
from tests import factory

NAMES = ["W1", "W2", "W3", "W4"]


def _model(n: int = 300) -> onnx.ModelProto:
    """Y = (((X + W1) * W2) + W3) * W4: four external-worthy initializers, in this serialization order."""
    rng = np.random.default_rng(1)
    inits = [numpy_helper.from_array(rng.standard_normal(n).astype(np.float32), w) for w in NAMES]
    nodes = [
        helper.make_node("Add", ["X", "W1"], ["a"]),
        helper.make_node("Mul", ["a", "W2"], ["b"]),
        helper.make_node("Add", ["b", "W3"], ["c"]),
        helper.make_node("Mul", ["c", "W4"], ["Y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, n])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, n])],
        initializer=inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def _save(
    folder: Path,
    placement: list[tuple[str, str]],
    *,
    gap: int = 0,
    tail: int = 0,
) -> Path:
    """Save ``_model()`` with its tensors written, file by file, in the order of ``placement``
    ((tensor, data file) pairs), ``gap`` filler bytes before each tensor and ``tail`` after the last."""
    model = _model()
    tensors = {t.name: t for t in model.graph.initializer}
    blobs: dict[str, bytearray] = {}
    filler = bytes(range(1, 256)) * 64
    for name, location in placement:
        blob = blobs.setdefault(location, bytearray())
        blob += filler[:gap]
        t = tensors[name]
        raw = t.raw_data
        set_external_data(t, location=location, offset=len(blob), length=len(raw))
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        blob += raw
    folder.mkdir(parents=True, exist_ok=True)
    for location, blob in blobs.items():
        (folder / location).write_bytes(bytes(blob) + filler[:tail])
    path = folder / "m.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def _sha(path: Path) -> tuple[int, str]:
    data = path.read_bytes()
    return len(data), hashlib.sha256(data).hexdigest()


def _bundle(model: Path, out: Path, monkeypatch: pytest.MonkeyPatch, **kw: Any) -> tuple[dict[str, Any], set[str]]:
    """Bundle ``model``; return the manifest and the names of the files the separate hash read."""
    hashed_apart: set[str] = set()
    real = onnxpack.core.release.modelstage._hash_files

    def spy(paths: list[Path], out_: dict[Path, tuple[int, str]], cancel: Any) -> None:
        hashed_apart.update(p.name for p in paths)
        real(paths, out_, cancel)

    monkeypatch.setattr(onnxpack.core.release.modelstage, "_hash_files", spy)
    kw.setdefault("run_smoke", False)
    result = build_bundle(BundleOptions(model=model, out_dir=out, version="1.0.0", source_date_epoch=1, **kw))
    with zipfile.ZipFile(result.zip_path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    assert manifest == result.manifest
    assert verify_bundle(result.zip_path).ok
    return manifest, hashed_apart


def _assert_provenance(manifest: dict[str, Any], folder: Path) -> None:
    files = manifest["provenance"]["files"]
    assert files, "no provenance recorded"
    for f in files:
        assert (f["size"], f["sha256"]) == _sha(folder / f["path"]), f["path"]
    names = {f["path"] for f in files}
    assert names == {p.name for p in folder.iterdir()}


@pytest.mark.parametrize("layout", ["single", "external"])
def test_standard_layout_is_hashed_during_the_merge(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    src = tmp_path / "src"
    model = factory.save_with_external(factory.add_model(300), src / "m.onnx")
    before = factory.snapshot(src)
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch, layout=layout)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx"}  # the data file was not read a second time
    assert factory.snapshot(src) == before


@pytest.mark.parametrize("layout", ["single", "external"])
def test_aligned_layout_with_padding_gaps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str) -> None:
    src = tmp_path / "src"
    model = factory.save_with_external(_model(), src / "m.onnx", align=4096)
    refs = resolve_external_data(load_structure(model), src).refs
    assert sorted(r.offset or 0 for r in refs) == [0, 4096, 8192, 12288]  # really gaps between tensors
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch, layout=layout)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx"}


def test_filler_gaps_and_trailing_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "src"
    model = _save(src, [(w, "w.bin") for w in NAMES], gap=1000, tail=5000)
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx"}
    assert manifest["provenance"]["files"][1]["size"] == 4 * (1000 + 1200) + 5000


def test_trailing_bytes_after_the_last_tensor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "src"
    model = factory.save_with_external(_model(), src / "m.onnx")
    with open(src / "m.onnx.data", "ab") as f:
        f.write(b"\x07" * 3_000_000)  # more than one read chunk of tail
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch, layout="external")
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx"}


@pytest.mark.parametrize("layout", ["single", "external"])
def test_tensor_order_differs_from_file_order_falls_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    src = tmp_path / "src"
    model = _save(src, [(w, "w.bin") for w in reversed(NAMES)], gap=10, tail=7)
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch, layout=layout)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx", "w.bin"}  # hashed by the background thread instead


def test_several_files_read_interleaved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """W1, W3 in a.bin and W2, W4 in b.bin: each file is still read in its own order, so both stream;
    c.bin holds W4 before W3 (out of order) and falls back alone."""
    src = tmp_path / "src"
    model = _save(src, [("W1", "a.bin"), ("W2", "b.bin"), ("W4", "c.bin"), ("W3", "c.bin")], gap=3, tail=11)
    manifest, apart = _bundle(model, tmp_path / "out", monkeypatch, run_smoke=True)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx", "c.bin"}
    assert manifest["smoke"]["equal"]["bitwise"] is True


def test_shared_region_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tensors pointing at the same bytes (overlap) cannot be hashed in one pass."""
    src = tmp_path / "src"
    model_path = _save(src, [(w, "w.bin") for w in NAMES])
    model = onnx.load(str(model_path), load_external_data=False)
    w1 = model.graph.initializer[0]
    for t in model.graph.initializer[1:2]:
        del t.external_data[:]
        t.external_data.extend(w1.external_data)
    model_path.write_bytes(model.SerializeToString())
    manifest, apart = _bundle(model_path, tmp_path / "out", monkeypatch)
    _assert_provenance(manifest, src)
    assert apart == {"m.onnx", "w.bin"}


# -- the hasher itself ------------------------------------------------------------------------------


def _reader(tmp_path: Path, placement: list[tuple[str, str]], **kw: Any) -> tuple[ExternalDataReader, list[Any]]:
    model = _save(tmp_path, placement, **kw)
    table = resolve_external_data(load_structure(model), tmp_path)
    by_name = {r.ref.name: r for r in table.refs}
    return ExternalDataReader(table), [by_name[w] for w in NAMES]


def test_hasher_covers_gaps_and_tail(tmp_path: Path) -> None:
    reader, refs = _reader(tmp_path, [(w, "w.bin") for w in NAMES], gap=100, tail=50)
    assert read_in_order(refs) == {tmp_path / "w.bin"}
    with reader:
        seq = SequentialHasher(reader, read_in_order(refs))
        reader.observer = seq
        for r in refs:
            assert len(b"".join(reader.iter_chunks(r, 7))) == 1200  # small chunks: many observer calls
        assert seq.finish() == {tmp_path / "w.bin": _sha(tmp_path / "w.bin")}


def test_hasher_drops_a_file_read_backwards(tmp_path: Path) -> None:
    reader, refs = _reader(tmp_path, [(w, "w.bin") for w in NAMES])
    with reader:
        seq = SequentialHasher(reader, {tmp_path / "w.bin"})
        reader.observer = seq
        for r in reversed(refs):  # read against file order although predicted in order
            reader.read(r)
        assert seq.finish() == {}
    assert read_in_order(list(reversed(refs))) == set()


def test_hasher_of_a_file_never_read_reads_it_whole(tmp_path: Path) -> None:
    reader, _refs = _reader(tmp_path, [(w, "w.bin") for w in NAMES], tail=3)
    with reader:
        assert SequentialHasher(reader, {tmp_path / "w.bin"}).finish() == {tmp_path / "w.bin": _sha(tmp_path / "w.bin")}


def test_read_range_refuses_files_outside_the_table(tmp_path: Path) -> None:
    reader, _refs = _reader(tmp_path, [(w, "w.bin") for w in NAMES])
    with reader, pytest.raises(ExternalDataError):
        list(reader.read_range(tmp_path / "m.onnx", 0, 10))


def test_read_range_raises_when_the_file_is_shorter(tmp_path: Path) -> None:
    reader, _refs = _reader(tmp_path, [(w, "w.bin") for w in NAMES])
    with reader, pytest.raises(ExternalDataError) as e:
        list(reader.read_range(tmp_path / "w.bin", 4000, 1000))
    assert e.value.code == "EXTDATA_OUT_OF_RANGE"
