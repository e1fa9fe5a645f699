"""onnxpack.core.model.merge.merge: the oracle (merged == original with its external data loaded, byte for byte), sizes,
safety."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import onnxpack.core.model.merge.merge as merge_mod
from onnxpack.core import atomic
from onnxpack.core.errors import Cancelled, ExternalDataError, InputError, ModelFormatError, OutputError
from onnxpack.core.model.extdata.extreader import ExternalDataReader
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge import mergesize, mergewrite
from onnxpack.core.model.merge.merge import MergePlan, merge_model, plan_merge
from onnxpack.core.model.modelfile import PROTOBUF_LIMIT
from onnxpack.core.model.tensors import expected_nbytes, iter_tensors, uses_external_data
from onnxpack.core.progress import CancelToken, ProgressEvent
from tests import factory

# --------------------------------------------------------------------------- helpers


def oracle(path: Path, data_dir: Path | None = None) -> bytes:
    """The original model with its external data loaded, read independently of core.merge.

    Same form as onnx.load produces (external_data removed, data_location = DEFAULT), but covering
    every tensor (onnx.load skips sparse tensors).
    """
    model = onnx.load(str(path), load_external_data=False)
    base = data_dir or path.parent
    for ref in iter_tensors(model):
        t = ref.tensor
        if not uses_external_data(t):
            continue
        kv = {e.key: e.value for e in t.external_data}
        with open(base / kv["location"], "rb") as f:
            f.seek(int(kv.get("offset", "0")))
            raw = f.read(int(kv["length"])) if "length" in kv else f.read()
        t.raw_data = raw
        t.data_location = TensorProto.DEFAULT
        del t.external_data[:]
    return model.SerializeToString()


def onnx_recipe(path: Path) -> bytes:
    """What onnx's own load + save writes."""
    buf = io.BytesIO()
    onnx.save(onnx.load(str(path)), buf)
    return buf.getvalue()


def merged_bytes(path: Path, data_dir: Path | None = None) -> bytes:
    plan = plan_merge(path, data_dir, layout="single")
    buf = io.BytesIO()
    n = plan.write_single(buf)
    data = buf.getvalue()
    assert n == len(data) == plan.model_size == plan.single_size
    return data


def check_oracle(path: Path, data_dir: Path | None = None, *, onnx_can_load: bool = True) -> bytes:
    data = merged_bytes(path, data_dir)
    assert data == oracle(path, data_dir)
    if onnx_can_load:
        assert data == onnx_recipe(path)  # byte-identical to onnx.save(onnx.load(original))
    merged = onnx.load_model_from_string(data)
    assert not any(uses_external_data(r.tensor) or len(r.tensor.external_data) for r in iter_tensors(merged))
    # The inspect helper's size arithmetic gives the same number.
    model = onnx.load(str(path), load_external_data=False)
    table = resolve_external_data(model, data_dir or path.parent)
    assert mergesize.single_file_size(model, table) == (len(data), True)
    return data


def externalize(model: onnx.ModelProto, path: Path, **kw: Any) -> Path:
    return factory.save_with_external(model, path, **kw)


def arr(name: str, n: int, dtype: Any = np.float32, seed: int = 0) -> TensorProto:
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array((rng.standard_normal(n) * 10).astype(dtype), name)


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --------------------------------------------------------------------------- the oracle


def test_mixed_inline_and_external(ext_model: Path) -> None:
    model = onnx.load(str(ext_model), load_external_data=False)
    kinds = [uses_external_data(t) for t in model.graph.initializer]
    assert kinds == [True, True, False]
    check_oracle(ext_model)


def test_sample_model(sample_model: Path, tmp_path: Path) -> None:
    before = factory.snapshot(sample_model.parent)
    check_oracle(sample_model)
    r = merge_model(sample_model, tmp_path / "victory.onnx")
    assert r.layout == "single" and r.tensors == 4
    assert (tmp_path / "victory.onnx").read_bytes() == onnx_recipe(sample_model)
    assert factory.snapshot(sample_model.parent) == before


def test_many_small_tensors(tmp_path: Path) -> None:
    model = factory.add_model(8)
    for i in range(600):
        model.graph.initializer.append(arr(f"s{i}", i % 7 + 1, seed=i))
    p = externalize(model, tmp_path / "m.onnx", threshold=0)
    assert sum(uses_external_data(t) for t in onnx.load(str(p), load_external_data=False).graph.initializer) == 603
    check_oracle(p)


def _if_node(name: str, depth: int) -> onnx.NodeProto:
    """If node whose branches hold initializers, Constant tensors and (recursively) more If nodes."""
    def branch(tag: str) -> onnx.GraphProto:
        nodes = [helper.make_node("Constant", [], [f"{name}{tag}c"], value=arr(f"{name}{tag}cv", 40, seed=depth))]
        if depth > 0:
            nodes.append(_if_node(f"{name}{tag}i", depth - 1))
        nodes.append(helper.make_node("Add", [f"{name}{tag}c", f"{name}{tag}w"], [f"{name}{tag}out"]))
        return helper.make_graph(
            nodes, f"{name}_{tag}", [],
            [helper.make_tensor_value_info(f"{name}{tag}out", TensorProto.FLOAT, [40])],
            initializer=[arr(f"{name}{tag}w", 40, seed=depth + 100)],
        )
    return helper.make_node("If", ["cond"], [f"{name}_y"], name=name, then_branch=branch("t"), else_branch=branch("e"))


def test_subgraphs_loops_and_functions(tmp_path: Path) -> None:
    loop_body = helper.make_graph(
        [helper.make_node("Constant", [], ["lc"], value=arr("lcv", 50, seed=3)),
         helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["v_in", "lc"], ["v_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [50])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [50])],
        initializer=[arr("lw", 30, seed=4)],
    )
    func = helper.make_function(
        "local", "Scale", ["x"], ["y"],
        [helper.make_node("Constant", [], ["k"], value=arr("fk", 64, seed=5)),
         helper.make_node("Mul", ["x", "k"], ["y"])],
        opset_imports=[helper.make_opsetid("", 17)],
    )
    nodes = [
        _if_node("if0", 3),
        helper.make_node("Loop", ["trip", "cond", "v0"], ["v_final"], body=loop_body),
        helper.make_node("Scale", ["v0"], ["scaled"], domain="local"),
    ]
    graph = helper.make_graph(
        nodes, "main",
        [helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("if0_y", TensorProto.FLOAT, [40])],
        initializer=[arr("v0", 50, seed=6), numpy_helper.from_array(np.array(3, np.int64), "trip")],
    )
    model = helper.make_model(
        graph, functions=[func],
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
    )
    p = externalize(model, tmp_path / "m.onnx", threshold=64)
    stored = onnx.load(str(p), load_external_data=False)
    n_ext = sum(uses_external_data(r.tensor) for r in iter_tensors(stored))
    assert n_ext >= 20  # initializers and Constants at every nesting level, loop body, function
    plan = plan_merge(p)
    assert plan.tensors == n_ext
    check_oracle(p)


def test_deeply_nested_subgraphs(tmp_path: Path) -> None:
    """A chain of 30 nested If bodies (90 message levels), each with its own external tensor."""
    inner: onnx.NodeProto | None = None
    for level in range(30):
        nodes = [helper.make_node("Constant", [], [f"c{level}"], value=arr(f"cv{level}", 20, seed=level))]
        if inner is not None:
            nodes.append(inner)
        body = helper.make_graph(nodes, f"b{level}", [], [helper.make_tensor_value_info(f"c{level}", 1, [20])])
        empty = helper.make_graph([helper.make_node("Constant", [], [f"c{level}"], value_float=1.0)], f"e{level}",
                                  [], [helper.make_tensor_value_info(f"c{level}", 1, [])])
        inner = helper.make_node("If", ["cond"], [f"c{level}"], then_branch=body, else_branch=empty)
    assert inner is not None
    graph = helper.make_graph([inner], "main", [helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
                              [helper.make_tensor_value_info("c29", TensorProto.FLOAT, [20])])
    p = externalize(helper.make_model(graph), tmp_path / "m.onnx", threshold=64)
    assert plan_merge(p).tensors == 30
    check_oracle(p)


def test_sparse_initializer_and_sparse_attribute(tmp_path: Path) -> None:
    values = arr("sv", 40, seed=8)
    indices = numpy_helper.from_array(np.arange(0, 80, 2, dtype=np.int64), "si")
    sparse_init = helper.make_sparse_tensor(values, indices, [80])
    svalues = arr("av", 30, dtype=np.float64, seed=9)
    sindices = numpy_helper.from_array(np.arange(30, dtype=np.int64), "ai")
    const = helper.make_node("Constant", [], ["sc"], sparse_value=helper.make_sparse_tensor(svalues, sindices, [60]))
    graph = helper.make_graph(
        [const, helper.make_node("Identity", ["sv"], ["Y"])], "g", [],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [80])],
    )
    graph.sparse_initializer.append(sparse_init)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    p = externalize(model, tmp_path / "m.onnx", threshold=1)
    stored = onnx.load(str(p), load_external_data=False)
    assert uses_external_data(stored.graph.sparse_initializer[0].values)
    assert uses_external_data(stored.graph.node[0].attribute[0].sparse_tensor.indices)
    data = check_oracle(p, onnx_can_load=False)  # onnx.load does not load sparse tensors' external data
    merged = onnx.load_model_from_string(data)
    np.testing.assert_array_equal(numpy_helper.to_array(merged.graph.sparse_initializer[0].values),
                                  numpy_helper.to_array(values))
    np.testing.assert_array_equal(numpy_helper.to_array(merged.graph.node[0].attribute[0].sparse_tensor.indices),
                                  numpy_helper.to_array(sindices))


ALL_TYPES = [
    name for name in TensorProto.DataType.keys()  # noqa: SIM118 (protobuf enum wrapper)
    if name not in ("UNDEFINED", "STRING") and not name.startswith("FLOAT6")
]


def test_every_element_type_and_empty_tensors(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    inits = []
    for i, name in enumerate(ALL_TYPES):
        dtype = getattr(TensorProto, name)
        for dims in ([7, 3], [0], [5, 0]):
            t = TensorProto(name=f"{name}_{i}_{len(dims)}{dims[0]}", data_type=dtype, dims=dims)
            n = expected_nbytes(t)
            assert n is not None, name
            t.raw_data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
            inits.append(t)
    strings = helper.make_tensor("names", TensorProto.STRING, [3], [b"a", "日本".encode(), b""])
    graph = helper.make_graph([], "g", [], [], initializer=[*inits, strings])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)])
    p = externalize(model, tmp_path / "m.onnx", threshold=0)
    stored = onnx.load(str(p), load_external_data=False)
    ext = [t for t in stored.graph.initializer if uses_external_data(t)]
    assert len(ext) == 3 * len(ALL_TYPES)  # empty ones too; the STRING tensor stays inline
    assert {"INT4", "UINT4", "FLOAT8E4M3FN", "BFLOAT16", "FLOAT16", "BOOL", "COMPLEX128", "DOUBLE"} <= set(ALL_TYPES)
    check_oracle(p)
    # External layout: empty tensors become inline, the rest aligned in one data file.
    out = tmp_path / "out" / "x.onnx"
    out.parent.mkdir()
    r = merge_model(p, out, layout="external", align=4096)
    back = onnx.load(str(out), load_external_data=False)
    table = resolve_external_data(back, out.parent)
    assert table.ok and len(table.refs) == len(ALL_TYPES)
    assert all(ref.offset is not None and ref.offset % 4096 == 0 for ref in table.refs)
    assert r.tensors == 3 * len(ALL_TYPES)
    assert onnx.load(str(out)).SerializeToString() == onnx_recipe(p)


def test_already_single_file(tmp_path: Path) -> None:
    p = tmp_path / "single.onnx"
    onnx.save(factory.add_model(16), str(p))
    plan = plan_merge(p)
    assert plan.tensors == 0 and plan.layout == "single"
    assert merged_bytes(p) == p.read_bytes()
    r = merge_model(p, tmp_path / "o.onnx", layout="external")
    assert r.data_size == 0 and (tmp_path / "o.onnx.data").stat().st_size == 0
    assert onnx.load(str(tmp_path / "o.onnx")).SerializeToString() == p.read_bytes()


def test_data_in_another_folder(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "a")
    data = tmp_path / "weights"
    data.mkdir()
    (p.parent / "model.onnx.data").rename(data / "model.onnx.data")
    with pytest.raises(ExternalDataError):
        plan_merge(p)
    check_oracle(p, data, onnx_can_load=False)
    r = merge_model(p, tmp_path / "out.onnx", data_dir=data)
    assert (tmp_path / "out.onnx").read_bytes() == oracle(p, data)
    assert r.tensors == 2


def test_folder_input_and_subfolder_location(tmp_path: Path) -> None:
    model = factory.add_model(32)
    p = externalize(model, tmp_path / "m" / "model.onnx", location="weights/w.bin")
    check_oracle(p)
    r = merge_model(tmp_path / "m", tmp_path / "o.onnx")
    assert r.source == p.absolute()


def test_length_key_absent_and_overlapping_tensors(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    blob = np.arange(64, dtype=np.float32).tobytes()
    (folder / "d.bin").write_bytes(blob)
    a = TensorProto(name="a", data_type=TensorProto.FLOAT, dims=[64])
    b = TensorProto(name="b", data_type=TensorProto.FLOAT, dims=[32])
    c = TensorProto(name="c", data_type=TensorProto.FLOAT, dims=[32])
    for t, kv in ((a, {"location": "d.bin"}), (b, {"location": "d.bin", "offset": "0", "length": "128"}),
                  (c, {"location": "d.bin", "offset": "128"})):
        t.data_location = TensorProto.EXTERNAL
        for k, v in kv.items():
            t.external_data.add(key=k, value=v)
    graph = helper.make_graph([], "g", [], [], initializer=[a, b, c])
    p = folder / "m.onnx"
    p.write_bytes(helper.make_model(graph).SerializeToString())
    data = check_oracle(p)
    m = onnx.load_model_from_string(data)
    assert [len(t.raw_data) for t in m.graph.initializer] == [256, 128, 128]


def test_unknown_fields_are_kept(tmp_path: Path) -> None:
    """A model from a newer onnx (unknown fields) merges like onnx.load + save (protobuf keeps them)."""
    p = factory.external_model(tmp_path / "m")
    unknown = bytes([0x98, 0x06, 0x05])  # field 99, varint 5
    p.write_bytes(p.read_bytes() + unknown)
    check_oracle(p)
    assert merged_bytes(p).endswith(unknown)


def test_external_layout_oracle_alignment_checksum(tmp_path: Path) -> None:
    model = factory.add_model(1000)
    model.graph.initializer.append(arr("odd", 33, seed=2))
    p = externalize(model, tmp_path / "in" / "model.onnx")
    before = factory.snapshot(tmp_path / "in")
    out = tmp_path / "out" / "big.onnx"
    out.parent.mkdir()
    r = merge_model(p, out, layout="external", checksum=True)
    assert (r.layout, r.align, r.data_path) == ("external", 65536, out.with_name("big.onnx.data"))
    assert files_in(out.parent) == ["big.onnx", "big.onnx.data"]
    data = r.data_path.read_bytes() if r.data_path else b""
    assert r.checksum == hashlib.sha1(data).hexdigest()
    assert (out.stat().st_size, len(data)) == (r.model_size, r.data_size)
    back = onnx.load(str(out), load_external_data=False)
    table = resolve_external_data(back, out.parent)  # verifies every checksum key
    assert table.ok and [f.code for f in table.findings] == []
    assert [ref.offset for ref in table.refs] == [0, 65536, 131072]
    assert all(ref.location == "big.onnx.data" and ref.checksum == r.checksum for ref in table.refs)
    assert not uses_external_data(back.graph.initializer[2])  # B was inline and stays inline
    with ExternalDataReader(table) as reader:
        loaded = [reader.read(ref) for ref in table.refs]
    original = onnx.load_model_from_string(oracle(p))
    assert loaded == [t.raw_data for t in original.graph.initializer if t.name != "B"]
    assert onnx.load(str(out)).SerializeToString() == onnx_recipe(p)
    assert factory.snapshot(tmp_path / "in") == before
    # the consolidated model merges to the same single file
    assert merged_bytes(out) == onnx_recipe(p)


def test_align_one_packs_tightly(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    r = merge_model(p, tmp_path / "o.onnx", layout="external", align=1)
    assert r.data_size == r.external_bytes == 512


# --------------------------------------------------------------------------- sizes and the 2 GiB limit


def _huge_model(folder: Path, lengths: list[int]) -> Path:
    """A model whose external tensors are declared huge; the data file is sparse (nothing written)."""
    folder.mkdir()
    total = sum(lengths)
    with open(folder / "w.bin", "wb") as f:
        f.truncate(total)
    inits, off = [], 0
    for i, n in enumerate(lengths):
        t = TensorProto(name=f"w{i}", data_type=TensorProto.UINT8, dims=[n])
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", "w.bin"), ("offset", str(off)), ("length", str(n))):
            t.external_data.add(key=k, value=v)
        inits.append(t)
        off += n
    p = folder / "huge.onnx"
    p.write_bytes(helper.make_model(helper.make_graph([], "g", [], [], initializer=inits)).SerializeToString())
    return p


def test_two_gib_refusal_through_computed_size(tmp_path: Path) -> None:
    half = 2**30 + 5
    p = _huge_model(tmp_path / "m", [half, half])
    plan = plan_merge(p)  # auto: external above the limit
    assert plan.layout == "external" and not plan.fits_single_file
    assert plan.single_size >= PROTOBUF_LIMIT
    assert plan.data_size == 2**30 + 65536 + half  # second tensor aligned to 64 KiB
    with pytest.raises(OutputError) as e:
        plan_merge(p, layout="single")
    assert e.value.code == "MERGE_TOO_LARGE" and "--layout external" in (e.value.hint or "")
    with pytest.raises(OutputError):
        plan.write_single(io.BytesIO())
    with pytest.raises(OutputError):
        merge_model(p, tmp_path / "o.onnx", layout="single")
    assert not (tmp_path / "o.onnx").exists()


def test_size_just_under_and_over_the_limit(tmp_path: Path) -> None:
    """The exact size decides: find the tensor length where the merged model reaches 2**31 bytes."""
    p = _huge_model(tmp_path / "m", [2**31 - 200])
    plan = plan_merge(p)
    overhead = plan.single_size - (2**31 - 200)
    assert plan.layout == "single" and plan.single_size < PROTOBUF_LIMIT
    q = _huge_model(tmp_path / "n", [2**31 - overhead])
    plan_q = plan_merge(q)
    assert plan_q.single_size == PROTOBUF_LIMIT and plan_q.layout == "external"
    r = _huge_model(tmp_path / "o", [2**31 - overhead - 1])
    assert plan_merge(r).single_size == PROTOBUF_LIMIT - 1 and plan_merge(r).layout == "single"


def test_single_tensor_over_limit_named(tmp_path: Path) -> None:
    p = _huge_model(tmp_path / "m", [2**31 + 1])
    with pytest.raises(OutputError) as e:
        plan_merge(p, layout="single")
    assert "w0" in e.value.message


def test_free_space_checked_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = factory.external_model(tmp_path / "m")
    out = tmp_path / "out"
    out.mkdir()

    class Usage:
        free = 100

    monkeypatch.setattr("onnxpack.core.atomic.shutil.disk_usage", lambda _p: Usage())
    with pytest.raises(OutputError) as e:
        merge_model(p, out / "o.onnx")
    assert e.value.code == "OUTPUT_NO_SPACE"
    assert files_in(out) == []


# --------------------------------------------------------------------------- safety


class _FullDisk:
    """File object that fails with ENOSPC after ``limit`` bytes (wraps the real temp file)."""

    def __init__(self, f: Any, limit: int) -> None:
        self.f, self.limit, self.n = f, limit, 0

    def write(self, data: Any) -> int:
        self.n += len(data)
        if self.n > self.limit:
            raise OSError(errno.ENOSPC, "No space left on device")
        return int(self.f.write(data))


def _patch_full_disk(monkeypatch: pytest.MonkeyPatch, fail_on: str, limit: int) -> None:
    real = merge_mod.atomic_file

    @contextlib.contextmanager
    def fake(dest: Path, *, overwrite: bool = True) -> Iterator[Any]:
        with real(dest, overwrite=overwrite) as f:
            if not dest.name.endswith(fail_on):
                yield f
                return
            full = _FullDisk(f, limit)
            atomic._PENDING[full] = atomic.pending_path(f)  # the stand-in names the same temp file as the real one
            yield full

    monkeypatch.setattr(merge_mod, "atomic_file", fake)


@pytest.mark.parametrize(("layout", "fail_on"), [("single", ".onnx"), ("external", ".data"), ("external", ".onnx")])
def test_enospc_cleans_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str, fail_on: str) -> None:
    p = factory.external_model(tmp_path / "m", n=5000)
    before = factory.snapshot(tmp_path / "m")
    out = tmp_path / "out"
    out.mkdir()
    _patch_full_disk(monkeypatch, fail_on, 100)
    with pytest.raises(OutputError) as e:
        merge_model(p, out / "o.onnx", layout=layout)
    assert e.value.code == "OUTPUT_NO_SPACE" and "removed" in e.value.message
    assert files_in(out) == []
    assert factory.snapshot(tmp_path / "m") == before


@pytest.mark.parametrize("layout", ["single", "external"])
def test_cancel_mid_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str) -> None:
    monkeypatch.setattr(mergewrite, "_READ_CHUNK", 1024)
    monkeypatch.setattr(mergewrite, "_KERNEL_CHUNK", 1024)
    monkeypatch.setattr(mergewrite, "_SMALL_WRITE", 64)
    p = factory.external_model(tmp_path / "m", n=20000)
    before = factory.snapshot(tmp_path / "m")
    out = tmp_path / "out"
    out.mkdir()
    token = CancelToken()
    events: list[ProgressEvent] = []

    def progress(ev: ProgressEvent) -> None:
        events.append(ev)
        if ev.done > 20000:
            token.cancel()

    with pytest.raises(Cancelled):
        merge_model(p, out / "o.onnx", layout=layout, progress=progress, cancel=token)
    assert 0 < events[-1].done < events[-1].total
    assert files_in(out) == []
    assert factory.snapshot(tmp_path / "m") == before
    # the proof's comparison threads end with the merge, not after it
    assert [t.name for t in threading.enumerate() if t.name.startswith("onnxpack-proof")] == []


@pytest.mark.parametrize("layout", ["single", "external"])
def test_the_proof_compares_every_tensor_byte_for_byte(tmp_path: Path, layout: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The merge proves its output by comparing each tensor's bytes, as the written file's own parse finds them, with
    the source's: those written from the source's data files as each is written (earlycompare.py), the rest after the
    write; it hashes no tensor (a SHA-256 pass cost a core-second per 1.1-1.5 GB: issue 40)."""
    import hashlib

    from onnxpack.core.model.merge import earlycompare, proof

    p = factory.external_model(tmp_path / "m", n=4096)
    compared: list[tuple[int, int, int | None]] = []
    real = proof.first_different

    def spy(source, source_table, written, written_table, cancel=None, chunk=proof.COMPARE_CHUNK,  # type: ignore[no-untyped-def]
            threads=None, skip=()):
        got = real(source, source_table, written, written_table, cancel, chunk, threads, skip)
        compared.append((sum(c is not None for c in written), len(skip), got))
        return got

    early: list[str] = []
    real_compare = earlycompare.EarlyComparison._compare

    def spy_early(self, source, ref, path, offset, bufs):  # type: ignore[no-untyped-def]
        got = real_compare(self, source, ref, path, offset, bufs)
        early.append(ref.ref.name if got is not None else "different")
        return got

    hashed: list[int] = []
    real_sha = hashlib.sha256

    def counting_sha(data: bytes = b"", **kw: Any) -> Any:
        hashed.append(len(data))
        return real_sha(data, **kw)

    monkeypatch.setattr(proof, "first_different", spy)
    monkeypatch.setattr(earlycompare.EarlyComparison, "_compare", spy_early)
    monkeypatch.setattr(hashlib, "sha256", counting_sha)
    res = merge_model(p, tmp_path / "o.onnx", layout=layout)
    assert res.model_path.exists()
    assert sorted(early) == ["W1", "W2"]  # the two tensors in the data file, each as it was written
    assert compared == [(3, 2, None)]  # all three tensors, the two compared early not read again, none different
    assert hashed == []


def test_cancel_before_start(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        merge_model(p, tmp_path / "o.onnx", cancel=token)
    assert not (tmp_path / "o.onnx").exists()


def test_progress_reports_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mergewrite, "_READ_CHUNK", 4096)
    monkeypatch.setattr(mergewrite, "_KERNEL_CHUNK", 4096)
    monkeypatch.setattr(mergewrite, "_SMALL_WRITE", 64)
    p = factory.external_model(tmp_path / "m", n=10000)
    events: list[ProgressEvent] = []
    r = merge_model(p, tmp_path / "o.onnx", progress=events.append)
    assert {e.stage for e in events} == {"merge"}
    assert all(e.total == r.model_size for e in events)
    done = [e.done for e in events]
    assert done == sorted(done) and done[-1] == r.model_size and len(done) > 5
    events.clear()
    r = merge_model(p, tmp_path / "x.onnx", layout="external", progress=events.append)
    assert events[-1].done == events[-1].total == r.model_size + r.data_size


@pytest.mark.parametrize(
    ("mutate", "code"),
    [
        (lambda t, d: t.external_data[0].__setattr__("value", "../model.onnx.data"), "EXTDATA_OUTSIDE_DIR"),
        (lambda t, d: t.external_data[0].__setattr__("value", "/etc/passwd"), "EXTDATA_ABSOLUTE"),
        (lambda t, d: t.external_data[0].__setattr__("value", "C:\\x.bin"), "EXTDATA_ABSOLUTE"),
        (lambda t, d: t.external_data[2].__setattr__("value", "999999"), "EXTDATA_OUT_OF_RANGE"),
        (lambda t, d: t.external_data[2].__setattr__("value", "12"), "EXTDATA_LENGTH_MISMATCH"),
        (lambda t, d: t.external_data[1].__setattr__("value", "-4"), "EXTDATA_BAD_KEY"),
        (lambda t, d: t.external_data.add(key="checksum", value="0" * 40), "EXTDATA_CHECKSUM_MISMATCH"),
        (lambda t, d: t.external_data[0].__setattr__("value", "missing.bin"), "EXTDATA_MISSING"),
        (lambda t, d: (os.symlink(d / "model.onnx.data", d / "link.bin"),
                       t.external_data[0].__setattr__("value", "link.bin")), "EXTDATA_SYMLINK"),
        (lambda t, d: (os.link(d / "model.onnx.data", d.parent / "outside.bin")), "EXTDATA_HARDLINK"),
        (lambda t, d: (os.mkfifo(d / "fifo"), t.external_data[0].__setattr__("value", "fifo")),
         "EXTDATA_NOT_REGULAR"),
    ],
    ids=["dotdot", "absolute", "drive", "offset", "length", "negative", "checksum", "missing", "symlink",
         "hardlink", "fifo"],
)
def test_hostile_external_data_refused(tmp_path: Path, mutate: Any, code: str) -> None:
    p = factory.external_model(tmp_path / "m")
    model = onnx.load(str(p), load_external_data=False)
    mutate(model.graph.initializer[0], p.parent)
    p.write_bytes(model.SerializeToString())
    before = factory.snapshot(tmp_path / "m")
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(ExternalDataError) as e:
        merge_model(p, out / "o.onnx")
    assert e.value.code == code
    with pytest.raises(ExternalDataError):
        plan_merge(p)
    assert files_in(out) == []
    assert factory.snapshot(tmp_path / "m") == before


def test_string_tensor_marked_external_refused(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    model = onnx.load(str(p), load_external_data=False)
    model.graph.initializer[0].data_type = TensorProto.STRING
    p.write_bytes(model.SerializeToString())
    with pytest.raises(ExternalDataError) as e:
        merge_model(p, tmp_path / "o.onnx")
    assert e.value.code == "EXTDATA_STRING"


@pytest.mark.parametrize("content", [b"", b"hello world, not a model", b"\x08\x08\xff\xff\xff"])
def test_not_a_model(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "bad.onnx"
    p.write_bytes(content)
    with pytest.raises(ModelFormatError):
        merge_model(p, tmp_path / "o.onnx")
    assert files_in(tmp_path) == ["bad.onnx"]


def test_output_is_input_or_its_data_refused(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    before = factory.snapshot(tmp_path / "m")
    for target in (p, p.parent / "model.onnx.data"):
        with pytest.raises(OutputError) as e:
            merge_model(p, target, force=True)
        assert e.value.code == "OUTPUT_IS_INPUT"
    # external layout: the NEW data file would be the input's data file
    with pytest.raises(OutputError) as e:
        merge_model(p, p, layout="external", force=True)
    assert e.value.code == "OUTPUT_IS_INPUT"
    other = factory.external_model(tmp_path / "n")
    (other.parent / "model.onnx.data").rename(other.parent / "x.onnx.data")
    model = onnx.load(str(other), load_external_data=False)
    for t in model.graph.initializer:
        if t.external_data:
            t.external_data[0].value = "x.onnx.data"
    other.write_bytes(model.SerializeToString())
    with pytest.raises(OutputError) as e:
        merge_model(other, other.parent / "x.onnx", layout="external", force=True)
    assert e.value.code == "OUTPUT_IS_INPUT"
    # a hard link to the input is the input too
    os.link(p.parent / "model.onnx.data", tmp_path / "alias.onnx")
    with pytest.raises((OutputError, ExternalDataError)):
        merge_model(p, tmp_path / "alias.onnx", force=True)
    (tmp_path / "alias.onnx").unlink()
    assert factory.snapshot(tmp_path / "m") == before


def test_existing_output_needs_force(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    out = tmp_path / "o.onnx"
    out.write_bytes(b"old")
    with pytest.raises(OutputError) as e:
        merge_model(p, out)
    assert e.value.code == "OUTPUT_EXISTS" and out.read_bytes() == b"old"
    merge_model(p, out, force=True)
    assert out.read_bytes() == onnx_recipe(p)


def test_stale_data_file_needs_force_and_is_replaced(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    out = tmp_path / "o.onnx"
    stale = tmp_path / "o.onnx.data"
    stale.write_bytes(b"stale bytes that onnx.save would append to" * 1000)
    with pytest.raises(OutputError) as e:
        merge_model(p, out, layout="external")
    assert e.value.code == "OUTPUT_EXISTS" and not out.exists()
    r = merge_model(p, out, layout="external", force=True)
    assert stale.stat().st_size == r.data_size
    assert onnx.load(str(out)).SerializeToString() == onnx_recipe(p)
    # a stale data file does not matter for a single-file output
    merge_model(p, tmp_path / "s.onnx")
    (tmp_path / "s.onnx.data").write_bytes(b"x")
    merge_model(p, tmp_path / "s.onnx", force=True)
    assert (tmp_path / "s.onnx.data").read_bytes() == b"x"


def test_bad_options(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    for align in (0, 3, -2, 2**31, True):
        with pytest.raises(InputError):
            plan_merge(p, align=align)
    with pytest.raises(InputError):
        plan_merge(p, layout="zip")
    with pytest.raises(OutputError) as e:
        merge_model(p, tmp_path / "a..b.onnx", layout="external")
    assert e.value.code == "OUTPUT_BAD_NAME"
    (tmp_path / "afile").write_bytes(b"x")
    with pytest.raises(OutputError):  # a missing folder is created, but not where a file stands
        merge_model(p, tmp_path / "afile" / "o.onnx")
    with pytest.raises(OutputError):
        merge_model(p, tmp_path)
    with pytest.raises(InputError):
        merge_model(tmp_path / "nope.onnx", tmp_path / "o.onnx")
    assert files_in(tmp_path) == ["afile", "m"]


# --------------------------------------------------------------------------- sinks and plans


class _WriteOnly:
    """A sink with write() and nothing else (no seek, tell, fileno)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def write(self, data: Any) -> int:
        self.parts.append(bytes(data))
        return len(data)


def test_non_seekable_sinks(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m", n=3000)
    plan = plan_merge(p)
    sink = _WriteOnly()
    assert not hasattr(sink, "seek") and not hasattr(sink, "tell")
    plan.write_single(sink)
    assert b"".join(sink.parts) == onnx_recipe(p)
    z = tmp_path / "b.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf, zf.open("model.onnx", "w", force_zip64=True) as entry:
        plan.write_single(entry)
    with zipfile.ZipFile(z) as zf:
        assert zf.read("model.onnx") == onnx_recipe(p)
    msink, dsink = _WriteOnly(), _WriteOnly()
    plan_ext = plan_merge(p, layout="external", data_location="model.onnx.data")
    plan_ext.write_external(msink, dsink)
    assert len(b"".join(dsink.parts)) == plan_ext.data_size


def test_plan_is_reusable_and_unchanged(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    plan = plan_merge(p, layout="external", checksum=True)
    assert isinstance(plan, MergePlan)
    snapshot = plan._model.SerializeToString()
    a, b = io.BytesIO(), io.BytesIO()
    plan.write_single(a)
    plan.write_single(b)
    assert a.getvalue() == b.getvalue() == onnx_recipe(p)
    m1, d1 = io.BytesIO(), io.BytesIO()
    digest = plan.write_external(m1, d1)
    assert digest == hashlib.sha1(d1.getvalue()).hexdigest()
    assert len(m1.getvalue()) == plan.model_size and len(d1.getvalue()) == plan.data_size
    assert plan._model.SerializeToString() == snapshot
    d = plan.to_dict()
    assert d["layout"] == "external" and d["data_location"] == "model.onnx.data" and d["tensors"] == 2


@pytest.mark.parametrize("broken", [(), ("copy_file_range",), ("copy_file_range", "sendfile")])
def test_kernel_copy_fallbacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, broken: tuple[str, ...]) -> None:
    """File-to-file copies fall back from copy_file_range to sendfile to read+write, same bytes."""
    monkeypatch.setattr(mergewrite, "_KERNEL_CHUNK", 3000)
    calls: list[str] = []
    for name in ("copy_file_range", "sendfile"):
        real = getattr(os, name, None)
        if real is None:
            continue

        def fake(*a: Any, _name: str = name, _real: Any = real) -> int:
            calls.append(_name)
            if _name in broken:
                raise OSError(errno.EXDEV if _name == "copy_file_range" else errno.EINVAL, "unsupported")
            return int(_real(*a))

        monkeypatch.setattr(os, name, fake)
    p = factory.external_model(tmp_path / "m", n=5000)
    r = merge_model(p, tmp_path / "o.onnx")
    assert (tmp_path / "o.onnx").read_bytes() == onnx_recipe(p)
    assert calls  # the plain-file sink took the kernel path
    r = merge_model(p, tmp_path / "x.onnx", layout="external")
    assert r.data_path is not None and onnx.load(str(tmp_path / "x.onnx")).SerializeToString() == onnx_recipe(p)


def test_compressing_sink_is_not_bypassed(tmp_path: Path) -> None:
    """A wrapper with a fileno() (gzip) must get the bytes through write(), never via its descriptor."""
    import gzip

    p = factory.external_model(tmp_path / "m", n=3000)
    with open(tmp_path / "m.gz", "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as gz:
        plan_merge(p).write_single(gz)
    assert gzip.decompress((tmp_path / "m.gz").read_bytes()) == onnx_recipe(p)


def test_write_failure_in_sink_restores_plan(tmp_path: Path) -> None:
    p = factory.external_model(tmp_path / "m")
    plan = plan_merge(p)
    snapshot = plan._model.SerializeToString()

    class Boom:
        def write(self, data: Any) -> int:
            raise OSError(errno.EIO, "I/O error")

    with pytest.raises(OSError):
        plan.write_single(Boom())
    assert plan._model.SerializeToString() == snapshot
    assert merged_bytes(p) == onnx_recipe(p)
