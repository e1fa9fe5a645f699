"""onnxpack.core.model.wire against the protobuf library: varints, tags, field sizes and field scanning."""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import ModelProto, TensorProto, helper, numpy_helper

from onnxpack.core.model import wire
from tests import factory

EDGES = [0, 1, 127, 128, 255, 300, 16383, 16384, 2**21 - 1, 2**21, 2**28, 2**31 - 1, 2**31, 2**32, 2**35,
         2**49, 2**56 - 1, 2**56, 2**63 - 1, 2**63, 2**64 - 1]


@pytest.mark.parametrize("value", EDGES)
def test_varint_matches_protobuf(value: int) -> None:
    # ModelProto.ir_version is field 1, int64 (varint): tag 0x08 then the varint.
    if value < 2**63:
        m = ModelProto(ir_version=value)
        assert m.SerializeToString() == b"\x08" + wire.varint(value)
    # TensorProto.uint64_data is packed uint64: the whole 64-bit range.
    t = TensorProto()
    t.uint64_data.append(value)
    enc = wire.varint(value)
    assert t.SerializeToString() == wire.tag(11, wire.LEN) + wire.varint(len(enc)) + enc
    assert wire.varint_size(value) == len(enc)
    assert wire.read_varint(enc, 0) == (value, len(enc))


def test_varint_rejects_out_of_range() -> None:
    with pytest.raises(ValueError):
        wire.varint(-1)
    with pytest.raises(ValueError):
        wire.varint(2**64)
    with pytest.raises(ValueError):
        wire.varint_size(-5)


def test_read_varint_errors() -> None:
    with pytest.raises(wire.WireError):
        wire.read_varint(b"\x80\x80", 0)  # truncated
    with pytest.raises(wire.WireError):
        wire.read_varint(b"\xff" * 11, 0)  # longer than 10 bytes
    assert wire.read_varint(b"\x00\xac\x02", 1) == (300, 3)


@pytest.mark.parametrize("number", [1, 2, 9, 15, 16, 20, 25, 2047, 2048, 2**29 - 1])
def test_tag_and_field_size(number: int) -> None:
    assert wire.tag(number, wire.LEN) == wire.varint(number << 3 | 2)
    for n in (0, 5, 127, 128, 70000):
        assert wire.field_size(number, n) == len(wire.tag(number, wire.LEN)) + len(wire.varint(n)) + n
    with pytest.raises(ValueError):
        wire.tag(0, wire.LEN)
    with pytest.raises(ValueError):
        wire.tag(1, 7)


def test_tags_of_onnx_fields_match_serialization() -> None:
    m = ModelProto()
    m.functions.add().name = "f"  # field 25: a two-byte tag
    m.training_info.add()  # field 20
    data = m.SerializeToString()
    fields = list(wire.iter_fields(data))
    assert [f.number for f in fields] == [20, 25]
    f = fields[1]
    assert data[f.start : f.length_start] == wire.tag(25, wire.LEN)
    assert data[f.payload_start : f.end] == m.functions[0].SerializeToString()


def _rich_model() -> ModelProto:
    model = factory.add_model(32)
    model.doc_string = "doc"
    model.metadata_props.add(key="k", value="v")
    g = model.graph
    g.initializer.append(numpy_helper.from_array(np.arange(5, dtype=np.int64), "ints"))
    t = helper.make_tensor("f", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0])  # packed float_data
    g.initializer.append(t)
    cv = helper.make_tensor("cv", TensorProto.DOUBLE, [1], [2.5])
    g.node.append(helper.make_node("Constant", [], ["c"], value=cv))
    return model


def test_iter_fields_matches_listfields() -> None:
    model = _rich_model()
    data = model.SerializeToString()
    fields = list(wire.iter_fields(data))
    numbers = [f.number for f in fields]
    # Field-number order, one occurrence per element of a repeated message field.
    expected: list[int] = []
    for fd, value in model.ListFields():
        expected.extend([fd.number] * (len(value) if fd.message_type is not None and _rep(fd) else 1))
    assert numbers == expected
    assert fields[-1].end == len(data)
    graph = next(f for f in fields if f.number == 7)
    assert data[graph.payload_start : graph.end] == model.graph.SerializeToString()
    inits = [f for f in wire.iter_fields(data, graph.payload_start, graph.end) if f.number == 5]
    assert [data[f.payload_start : f.end] for f in inits] == [t.SerializeToString() for t in model.graph.initializer]
    assert sum(f.end - f.start for f in fields) == model.ByteSize()


def _rep(fd: object) -> bool:
    flag = getattr(fd, "is_repeated", None)
    return bool(flag) if flag is not None else fd.label == fd.LABEL_REPEATED  # type: ignore[attr-defined]


def test_iter_fields_all_wire_types_and_groups() -> None:
    # Unknown fields of every wire type (a future onnx could add them): protobuf keeps and re-emits them.
    body = (
        wire.tag(100, 0) + wire.varint(2**40)
        + wire.tag(101, 1) + b"\x01" * 8
        + wire.tag(102, 5) + b"\x02" * 4
        + wire.tag(103, 2) + wire.varint(3) + b"abc"
        + wire.tag(104, 3) + wire.tag(1, 0) + b"\x05" + wire.tag(2, 3) + wire.tag(2, 4) + wire.tag(104, 4)
    )
    t = TensorProto()
    t.ParseFromString(b"\x08\x02" + body)
    data = t.SerializeToString()
    fields = list(wire.iter_fields(data))
    assert [(f.number, f.wire_type) for f in fields] == [(1, 0), (100, 0), (101, 1), (102, 5), (103, 2), (104, 3)]
    assert fields[-1].end == len(data)
    assert data[fields[4].payload_start : fields[4].end] == b"abc"


@pytest.mark.parametrize(
    "bad",
    [b"\x0a\x05ab", b"\x00\x01", b"\x0f", b"\x0b\x08\x01", b"\x09\x01\x02"],
    ids=["len-past-end", "field-0", "wire-type-7", "unterminated-group", "short-fixed64"],
)
def test_iter_fields_rejects_malformed(bad: bytes) -> None:
    with pytest.raises(wire.WireError):
        list(wire.iter_fields(bad))


def test_random_models_roundtrip_field_boundaries() -> None:
    rng = random.Random(7)
    for _ in range(25):
        model = factory.add_model(rng.randint(1, 400))
        for i in range(rng.randint(0, 30)):
            n = rng.choice([0, 1, 15, 16, 127, 128, 2000, 20000])
            model.graph.initializer.append(numpy_helper.from_array(np.zeros(n, np.uint8), f"z{i}"))
        data = model.SerializeToString()
        parsed = ModelProto()
        rebuilt = b"".join(data[f.start : f.end] for f in wire.iter_fields(data))
        parsed.ParseFromString(rebuilt)
        assert parsed == model
        assert onnx.load_model_from_string(rebuilt) == model
