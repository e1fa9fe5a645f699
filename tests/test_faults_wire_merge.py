"""Issue 29 items 1 and 2: duplicated fields on the wire are read with protobuf's merge semantics; a merge never
writes the skeleton's private marker and proves its output; tensors in function attribute defaults are checked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, main
from onnxpack.core.errors import InternalError, RuntimeFailure
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.merge.merge import merge_model, plan_merge
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.model.skeleton import INLINE_KEY, read_skeleton
from onnxpack.core.model.tensors import iter_tensors, tensor_fields
from onnxpack.core.model.wire import LEN, VARINT, tag, varint


def _field(number: int, payload: bytes) -> bytes:
    return tag(number, LEN) + varint(len(payload)) + payload


def _run(argv: list[str]) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    status = int(main([*argv, "--json"], Environment(stdout=out, stderr=err, vars={})))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return status, json.loads(out.getvalue())


def _constant_model_with_split_tensor(path: Path) -> bytes:
    """A Constant whose tensor attribute ``t`` appears twice on the wire: 2 KiB of raw_data, then a second copy that
    only sets ``data_location = DEFAULT`` (protobuf merges the two: one tensor, y = 0..511)."""
    t = numpy_helper.from_array(np.arange(512, dtype=np.float32), "c")
    attr = helper.make_attribute("value", t)
    attr_bytes = attr.SerializeToString() + _field(5, tag(14, VARINT) + varint(TensorProto.DEFAULT))
    node = helper.make_node("Constant", [], ["y"])
    node_bytes = node.SerializeToString() + _field(5, attr_bytes)
    graph = helper.make_graph([], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [512])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    graph_bytes = _field(1, node_bytes) + graph.SerializeToString()
    shell = onnx.ModelProto()
    shell.CopyFrom(model)
    shell.ClearField("graph")
    data = shell.SerializeToString() + _field(7, graph_bytes)
    path.write_bytes(data)
    return data


def test_split_tensor_attribute_reads_as_protobuf_merges_it(tmp_path: Path) -> None:
    path = tmp_path / "dup.onnx"
    _constant_model_with_split_tensor(path)
    want = onnx.load(str(path))
    t = want.graph.node[0].attribute[0].t
    assert len(t.raw_data) == 2048 and t.data_location == TensorProto.DEFAULT  # what protobuf makes of it
    sk = read_skeleton(path)
    assert sk.model == want  # before: the first copy became the private marker, the second's DEFAULT won


def test_split_tensor_attribute_check_and_merge(tmp_path: Path) -> None:
    path = tmp_path / "dup.onnx"
    data = _constant_model_with_split_tensor(path)
    status, doc = _run(["check", str(path)])
    assert status == 0 and doc["ok"], doc  # before: a false ONNX_CHECKER error on a valid model
    out = tmp_path / "out" / "m.onnx"
    status, doc = _run(["merge", str(path), "-o", str(out)])
    assert status == 0 and doc["ok"]
    written = out.read_bytes()
    # before: exit 0 with a 180-byte model that had lost its data and carried the marker
    assert written == onnx.load(str(path)).SerializeToString()
    assert INLINE_KEY.encode() not in written
    assert path.read_bytes() == data


@pytest.mark.parametrize("where", ["graph", "initializer-of-duplicated-graph"])
def test_duplicated_singular_message_anywhere_is_merged(tmp_path: Path, where: str) -> None:
    """ModelProto.graph twice: the graphs merge (initializers appended, the name of the last wins)."""
    w1 = numpy_helper.from_array(np.ones(512, np.float32), "W1")
    w2 = numpy_helper.from_array(np.full(512, 2, np.float32), "W2")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [512])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [512])
    g1 = helper.make_graph([helper.make_node("Add", ["x", "W1"], ["t"])], "first", [x], [], [w1])
    g2 = helper.make_graph([helper.make_node("Add", ["t", "W2"], ["y"])], "second", [], [y], [w2])
    model = helper.make_model(helper.make_graph([], "", [], []), opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    model.ClearField("graph")
    data = model.SerializeToString() + _field(7, g1.SerializeToString())
    if where == "graph":
        data += _field(7, g2.SerializeToString())
    else:  # the second graph only repeats its name: still a merge of the first graph's tensor
        data += _field(7, _field(2, b"second"))
    path = tmp_path / "m.onnx"
    path.write_bytes(data)
    want = onnx.load(str(path))
    assert read_skeleton(path).model == want
    out = tmp_path / "o.onnx"
    merge_model(path, out)
    assert out.read_bytes() == want.SerializeToString()


def test_repeated_and_last_wins_fields_keep_the_skeleton(tmp_path: Path) -> None:
    """Repeated fields are separate messages (no merge): two initializers both stay ranges in the file; a scalar
    written twice in a tensor (data_type) is last-wins, as protobuf reads it."""
    w = numpy_helper.from_array(np.ones(512, np.float32), "W")
    tensor = w.SerializeToString() + tag(2, VARINT) + varint(TensorProto.FLOAT)  # data_type again
    graph = helper.make_graph([], "g", [], [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    model.ClearField("graph")
    graph_bytes = _field(5, tensor) + _field(5, numpy_helper.from_array(np.zeros(512, np.float32), "V")
                                              .SerializeToString()) + _field(2, b"g")
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString() + _field(7, graph_bytes))
    sk = read_skeleton(path)
    assert sk.tensors_in_file == 2
    table = resolve_external_data(sk.model, tmp_path)
    assert table.ok
    out = tmp_path / "o.onnx"
    merge_model(path, out)
    assert out.read_bytes() == onnx.load(str(path)).SerializeToString()


def test_merge_refuses_to_publish_the_private_marker(tmp_path: Path) -> None:
    """Belt and braces: a tensor that carries this process's marker without being one of its ranges stops the merge
    (an internal error) instead of writing the marker and losing the tensor."""
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(
        helper.make_graph([helper.make_node("Constant", [], ["y"], value=numpy_helper.from_array(
            np.arange(512, dtype=np.float32), "c"))], "g", [], [helper.make_tensor_value_info("y", 1, [512])]),
        opset_imports=[helper.make_opsetid("", 17)]), str(path))
    model = load_structure(path)
    t = model.graph.node[0].attribute[0].t
    assert any(e.key == INLINE_KEY for e in t.external_data)
    t.data_location = TensorProto.DEFAULT  # what the split tensor used to turn into
    from onnxpack.core.model.loaded import LoadedModel
    from onnxpack.core.model.modelfile import locate_model

    loc = locate_model(path, None)
    with pytest.raises(InternalError, match="private marker"):
        plan_merge(LoadedModel(loc, model, resolve_external_data(model, loc.data_dir)))


def test_merge_output_is_proven_before_it_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A merge whose written bytes are not the source fails (MERGE_NOT_EQUAL, exit 1) and leaves nothing."""
    from onnxpack.core.model.merge import merge as merge_mod

    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(helper.make_graph([], "g", [], [], [numpy_helper.from_array(
        np.arange(512, dtype=np.float32), "W")]), opset_imports=[helper.make_opsetid("", 17)]), str(path))
    real = merge_mod.MergePlan.write_single

    def corrupt(self: merge_mod.MergePlan, fileobj, *a, **kw):  # type: ignore[no-untyped-def]
        class Flip:
            def write(self, data):  # type: ignore[no-untyped-def]
                data = bytes(data)
                if len(data) > 1000:
                    data = data[:-1] + bytes([data[-1] ^ 1])
                return fileobj.write(data)

            def flush(self) -> None:
                fileobj.flush()

        return real(self, Flip(), *a, **kw)

    monkeypatch.setattr(merge_mod.MergePlan, "write_single", corrupt)
    with pytest.raises(RuntimeFailure, match="not the source model") as e:
        merge_model(path, tmp_path / "out" / "o.onnx")
    assert e.value.code == "MERGE_NOT_EQUAL"
    assert not (tmp_path / "out" / "o.onnx").exists()


# ----------------------------------------------------------------------------------------------- item 2


def _function_default_model(t: TensorProto) -> onnx.ModelProto:
    """A model-local function whose attribute default (``FunctionProto.attribute_proto``) is the tensor ``t``."""
    fn = helper.make_function("local", "F", [], ["o"], [helper.make_node("Constant", [], ["o"], value_float=0.0)],
                              [helper.make_opsetid("", 17)])
    fn.attribute_proto.append(helper.make_attribute("v", t))
    g = helper.make_graph([helper.make_node("F", [], ["y"], domain="local")], "g", [],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])])
    return helper.make_model(g, functions=[fn],
                             opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])


def _external(location: str) -> TensorProto:
    t = TensorProto(name="d", data_type=TensorProto.FLOAT, dims=[4])
    t.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", "16")):
        e = t.external_data.add()
        e.key, e.value = k, v
    return t


def test_every_place_is_labelled_in_the_users_words() -> None:
    from tests.fuzz import _seed_models

    refs = [(r.name, r.where, r.graph, r.is_initializer) for r in iter_tensors(_seed_models()["big"])]
    assert refs == [
        ("c", "attribute 'value' of node 'Constant' (Constant)", "graph 'big'", False),
        ("B", "initializer", "graph 'big'", True),
        ("k", "attribute 'value' of node 'Constant' (Constant)", "function 'local.AddDefault'", False),
        ("d", "default of attribute 'bias'", "function 'local.AddDefault'", False),
    ]


def test_tensor_places_come_from_the_descriptors() -> None:
    """Every message field through which onnx lets a TensorProto be reached is walked (no hand list)."""
    fields = tensor_fields()
    assert 11 in fields["onnx.FunctionProto"]  # attribute_proto
    for holder, kids in fields.items():
        for number, (kind, _repeated) in kids.items():
            assert kind in fields, (holder, number)
    # every AttributeProto field of a message type that leads to a tensor
    attr = onnx.AttributeProto.DESCRIPTOR
    assert {f.name for f in attr.fields if f.number in fields["onnx.AttributeProto"]} == {
        "t", "g", "tensors", "graphs", "sparse_tensor", "sparse_tensors"}


@pytest.mark.parametrize("location", ["/etc/hostname", "x/_ORT_MEM_ADDR_/y"])
def test_function_default_external_location_is_refused(tmp_path: Path, location: str) -> None:
    path = tmp_path / "m.onnx"
    path.write_bytes(_function_default_model(_external(location)).SerializeToString())
    refs = [r for r in iter_tensors(load_structure(path))]
    assert [r.where for r in refs] == ["default of attribute 'v'"] and refs[0].graph == "function 'local.F'"
    status, doc = _run(["check", str(path)])
    assert status == 1, doc  # before: exit 0, "0 external"
    codes = {f["code"] for f in doc["findings"]}
    assert codes & {"EXTDATA_ABSOLUTE", "EXTDATA_BAD_LOCATION"}
    status, doc = _run(["merge", str(path), "-o", str(tmp_path / "o.onnx")])
    assert status == 1 and not (tmp_path / "o.onnx").exists()  # before: exit 3 "was not validated"


def test_function_default_big_tensor_merges_and_bundles(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(_function_default_model(numpy_helper.from_array(np.arange(512, dtype=np.float32), "d")), str(path))
    assert read_skeleton(path).tensors_in_file == 1  # the 2 KiB default stays in the file as a range
    out = tmp_path / "o.onnx"
    status, doc = _run(["merge", str(path), "-o", str(out)])
    assert status == 0, doc  # before: exit 3 "external tensor 'd' was not validated"
    assert out.read_bytes() == onnx.load(str(path)).SerializeToString()
    status, doc = _run(["bundle", str(path), "-o", str(tmp_path / "rel"), "--version", "1.0.0"])
    assert status == 0, doc


def test_function_default_external_tensor_is_embedded_by_merge(tmp_path: Path) -> None:
    """A function attribute default stored as external data is validated and embedded like every other tensor
    (onnx.load's own external-data loader walks initializers and node attributes only and leaves it external)."""
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "w.bin").write_bytes(np.arange(4, dtype=np.float32).tobytes())
    path = folder / "m.onnx"
    path.write_bytes(_function_default_model(_external("w.bin")).SerializeToString())
    out = tmp_path / "o.onnx"
    status, doc = _run(["merge", str(path), "-o", str(out)])
    assert status == 0 and doc["tensors"] == 1, doc
    t = onnx.load(str(out), load_external_data=False).functions[0].attribute_proto[0].t
    assert t.raw_data == np.arange(4, dtype=np.float32).tobytes() and not t.external_data
    assert t.data_location == TensorProto.DEFAULT
