"""The worst shapes of issue 28 §1, built with onnx.helper: what inspect and check make of them (behaviour, not time).

A node with millions of attribute entries, 100k+ nodes, many small tensors, a string tensor of many entries, deep
and wide subgraphs, and a self-contained model with many nodes and big weights. The skeleton reader hands a structure
denser than its budget to protobuf whole, never walks into a message too short to hold a big payload, and keeps big
weights in the file; inspect and check walk each model once. benchmarks/inspect.py --shapes measures the time.
"""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import AttributeProto, TensorProto, helper, numpy_helper

from onnxpack.core.checks.inspection import inspect_model
from onnxpack.core.checks.validate import validate_model
from onnxpack.core.errors import ModelFormatError
from onnxpack.core.model import skeleton, tensors
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.model.skeleton import read_skeleton
from onnxpack.core.model.tensors import cached_walks, iter_graphs, iter_tensors


def _model(nodes: list[onnx.NodeProto], inits: list[TensorProto] | None = None,
           domains: tuple[tuple[str, int], ...] = (("", 17),)) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
    m = helper.make_model(helper.make_graph(nodes, "worst", [x], [y], inits or []),
                          opset_imports=[helper.make_opsetid(d, v) for d, v in domains])
    m.ir_version = 8
    return m


def _save(model: onnx.ModelProto, path: Path) -> Path:
    path.write_bytes(model.SerializeToString())
    return path


def _chain(n: int) -> list[onnx.NodeProto]:
    nodes = [helper.make_node("Add", ["x" if i == 0 else f"t{i - 1}", "x"], [f"t{i}"]) for i in range(n)]
    nodes.append(helper.make_node("Identity", [f"t{n - 1}"], ["y"]))
    return nodes


def _attribute_heavy(entries: int) -> onnx.ModelProto:
    """One node whose attributes hold ``entries`` ints, floats and strings each (a tree ensemble's shape)."""
    node = helper.make_node("Bag", ["x"], ["y"], domain="custom")
    ints = AttributeProto(name="ids", type=AttributeProto.INTS)
    ints.ints.extend(range(entries))
    floats = AttributeProto(name="values", type=AttributeProto.FLOATS)
    floats.floats.extend(np.linspace(0, 1, entries, dtype=np.float32).tolist())
    strings = AttributeProto(name="modes", type=AttributeProto.STRINGS)
    strings.strings.extend([b"BRANCH_LEQ", b"LEAF"] * (entries // 2))
    node.attribute.extend([ints, floats, strings])
    return _model([node], domains=(("", 17), ("custom", 1)))


def test_a_node_with_a_million_attribute_entries_is_parsed_whole(tmp_path: Path) -> None:
    path = _save(_attribute_heavy(400_000), tmp_path / "attrs.onnx")
    sk = read_skeleton(path)
    assert sk.parsed_whole and sk.tensors_in_file == 0
    assert sk.fields_walked <= skeleton._MIN_BUDGET + 1  # it stopped at its budget, not after a million headers
    assert sk.model == onnx.load(str(path), load_external_data=False)
    insp = inspect_model(path)
    assert insp.node_count == 1 and insp.operators == [{"domain": "custom", "op_type": "Bag", "count": 1}]
    assert insp.merged_size == path.stat().st_size and insp.fits_single_file  # sized when asked
    val = validate_model(path, run_checker=False)
    assert not [f for f in val.findings if f.code in ("MERGE_TOO_LARGE", "MODEL_BAD_TEXT")]


def test_a_hundred_thousand_nodes(tmp_path: Path) -> None:
    path = _save(_model(_chain(100_000)), tmp_path / "nodes.onnx")
    sk = read_skeleton(path)
    assert sk.parsed_whole  # 100k node headers are more than the budget of a 3 MB file
    insp = inspect_model(path)
    assert insp.node_count == 100_001
    assert {(o["op_type"], o["count"]) for o in insp.operators} == {("Add", 100_000), ("Identity", 1)}
    assert all(o["domain"] == "ai.onnx" for o in insp.operators)
    val = validate_model(path, run_checker=False)
    assert val.ok, [f.code for f in val.findings]


@pytest.mark.parametrize("where", ["top", "subgraph"])
def test_invalid_utf8_in_a_mid_size_structure_is_named(tmp_path: Path, where: str) -> None:
    """A structure of tens of KB (here inside an If's branch, which the top-level count does not see) is checked by
    the proto3 twin's parse too: the field is named all the same, and a good model loads as onnx.load loads it."""
    from onnxpack.core.model import modelfile

    def build(marker: str) -> onnx.ModelProto:
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
        branch = helper.make_graph(_chain(2000), "then", [], [y])
        cond = helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch, name="if")
        nodes = [cond] if where == "subgraph" else _chain(2000)
        model = _model(nodes)
        target = model.graph.node[0].attribute[0].g.node[321] if where == "subgraph" else model.graph.node[321]
        target.name = marker
        return model

    good = build("zz-marker")
    low, high = modelfile._UTF8_PARSE_BYTES
    assert len(good.graph.node) < modelfile._UTF8_WALK_MAX and low < good.ByteSize() <= high  # the twin's path
    path = tmp_path / "bad.onnx"
    path.write_bytes(good.SerializeToString().replace(b"zz-marker", b"zz-\xff\xfeaker"))
    with pytest.raises(ModelFormatError) as ei:
        load_structure(path)
    assert ei.value.code == "MODEL_BAD_TEXT" and "'name'" in str(ei.value)
    saved = _save(good, tmp_path / "good.onnx")
    assert load_structure(saved) == onnx.load(str(saved))


def test_invalid_utf8_in_a_big_graph_is_named(tmp_path: Path) -> None:
    """Beyond the walk's limit the UTF-8 check is one parse as onnx.proto's proto3 twin; the field is still named."""
    model = _model(_chain(6000))
    model.graph.node[4321].name = "zz-marker"
    data = model.SerializeToString().replace(b"zz-marker", b"zz-\xff\xfeaker")  # same length
    path = tmp_path / "bad.onnx"
    path.write_bytes(data)
    with pytest.raises(ModelFormatError) as ei:
        load_structure(path)
    assert ei.value.code == "MODEL_BAD_TEXT" and "'name'" in str(ei.value)
    good = _save(_model(_chain(6000)), tmp_path / "good.onnx")
    assert load_structure(good) == onnx.load(str(good))


@pytest.mark.parametrize("built", ["appended syntax", "edited copy"])
def test_utf8_twin_either_way(monkeypatch: pytest.MonkeyPatch, built: str) -> None:
    """The proto3 twin is onnx.proto's own descriptor with ``syntax = "proto3"`` appended, or, should that not build,
    a copy edited field by field: either refuses invalid UTF-8 in any string field and parses a good model."""
    from google.protobuf.message import DecodeError

    from onnxpack.core.model import modelfile

    if built == "edited copy":  # a syntax protobuf does not know: the first way fails
        monkeypatch.setattr(modelfile, "_PROTO3_SYNTAX", b"\x62\x06proto9")
    modelfile._utf8_twin.cache_clear()
    try:
        twin = modelfile._utf8_twin()
        good = _model(_chain(3))
        good.graph.node[1].name = "zz-marker"
        assert twin.FromString(good.SerializeToString()).graph.node[1].name == "zz-marker"
        with pytest.raises(DecodeError):
            twin.FromString(good.SerializeToString().replace(b"zz-marker", b"zz-\xff\xfeaker"))
    finally:
        modelfile._utf8_twin.cache_clear()


def test_many_small_tensors(tmp_path: Path) -> None:
    inits = [numpy_helper.from_array(np.full(4, i, np.float32), f"w{i}") for i in range(40_000)]
    path = _save(_model([helper.make_node("Add", ["x", "w0"], ["y"])], inits), tmp_path / "small.onnx")
    insp = inspect_model(path)
    assert insp.initializers.count == 40_000 and insp.initializers.inline_bytes == 40_000 * 16
    assert insp.initializers.external_count == 0 and insp.layout == "single"
    val = validate_model(path, run_checker=False)
    assert val.ok, [f.code for f in val.findings]
    # every place is labelled in the user's words, as when the walk labelled each one by itself
    refs = list(iter_tensors(insp.model))  # type: ignore[arg-type]
    assert {(r.where, r.graph, r.is_initializer) for r in refs} == {("initializer", "graph 'worst'", True)}


def test_a_string_tensor_of_many_entries(tmp_path: Path) -> None:
    words = helper.make_tensor("words", TensorProto.STRING, [300_000], [b"w%d" % (i % 100) for i in range(300_000)])
    path = _save(_model([helper.make_node("Identity", ["x"], ["y"])], [words]), tmp_path / "strings.onnx")
    assert read_skeleton(path).parsed_whole
    insp = inspect_model(path)
    assert insp.initializers.count == 1
    assert validate_model(path, run_checker=False).ok


def _deep_and_wide(depth: int, wide: int) -> onnx.ModelProto:
    def branch(name: str, inner: list[onnx.NodeProto]) -> onnx.GraphProto:
        return helper.make_graph(inner, name, [], [helper.make_tensor_value_info(f"{name}_o", TensorProto.FLOAT, [4])])

    body = branch("leaf", [helper.make_node("Constant", [], ["leaf_o"],
                                            value=numpy_helper.from_array(np.ones(1024, np.float32), "c"))])
    for level in range(depth):
        name = f"l{level}"
        body = branch(name, [
            helper.make_node("Constant", [], [f"{name}_c"],
                             value=numpy_helper.from_array(np.full(1024, level, np.float32), f"k{level}")),
            helper.make_node("If", ["cond"], [f"{name}_o"], then_branch=body,
                             else_branch=branch(f"{name}_e", [helper.make_node("Identity", ["x"], [f"{name}_e_o"])]))])
    side = [helper.make_node("If", ["cond"], [f"w{i}_o"],
                             then_branch=branch(f"w{i}", [helper.make_node("Identity", ["x"], [f"w{i}_o"])]),
                             else_branch=branch(f"e{i}", [helper.make_node("Identity", ["x"], [f"e{i}_o"])]))
            for i in range(wide)]
    nodes = [helper.make_node("Constant", [], ["cond"], value=helper.make_tensor("b", TensorProto.BOOL, [], [True])),
             helper.make_node("If", ["cond"], ["y"], then_branch=body, else_branch=body), *side]
    return _model(nodes)


def test_deep_and_wide_subgraphs_keep_their_big_constants_in_the_file(tmp_path: Path) -> None:
    depth, wide = 25, 2000
    path = _save(_deep_and_wide(depth, wide), tmp_path / "subgraphs.onnx")
    sk = read_skeleton(path)
    assert not sk.parsed_whole
    # every 4 KiB Constant (twice per level: the then- and else-branch are the same body) stays in the file
    assert sk.tensors_in_file == 2 * (depth + 1)
    insp = inspect_model(path)
    assert insp.subgraph_count == 2 * (2 * depth + 1) + 2 * wide
    assert insp.constants.count == 2 * (depth + 1) + 1 and insp.constants.inline_bytes == 2 * (depth + 1) * 4096 + 1
    val = validate_model(path, run_checker=False)
    assert val.ok, [f.code for f in val.findings]


def test_many_nodes_and_big_weights_keep_the_weights_in_the_file(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk does not enter the 20k small nodes and leaves the 8 MB of weights in the file: no read of the
    model file is as long as a weight (security of memory: weights never pass through Python memory)."""
    rng = np.random.default_rng(0)
    weights = [numpy_helper.from_array(rng.standard_normal(2**18, dtype=np.float32), f"big{i}") for i in range(8)]
    path = _save(_model(_chain(20_000), weights), tmp_path / "heavy.onnx")
    reads: list[int] = []
    real_open = builtins.open

    class Spy:
        def __init__(self, fh: Any) -> None:
            self.fh = fh

        def __getattr__(self, name: str) -> Any:
            return getattr(self.fh, name)

        def __enter__(self) -> Spy:
            return self

        def __exit__(self, *exc: object) -> None:
            self.fh.close()

        def read(self, n: int = -1) -> bytes:
            data = self.fh.read(n)
            reads.append(len(data))
            return bytes(data)

    def spy_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = real_open(file, mode, *args, **kwargs)
        return Spy(fh) if Path(str(file)) == path and "b" in mode else fh

    monkeypatch.setattr(builtins, "open", spy_open)
    sk = read_skeleton(path)
    monkeypatch.undo()
    assert not sk.parsed_whole and sk.tensors_in_file == 8 and sk.bytes_in_file == 8 * 2**20
    assert reads and max(reads) < 2**20  # the structure in blocks, never a weight
    assert sk.fields_walked < 30_000  # the graph's headers; no node was entered
    insp = inspect_model(path)
    assert insp.node_count == 20_001 and insp.initializers.count == 8
    assert insp.initializers.inline_bytes == 8 * 2**20


def test_each_walk_runs_once_in_inspect_and_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _save(_deep_and_wide(3, 10), tmp_path / "m.onnx")
    calls = {"tensors": 0, "graphs": 0}
    real_tensors, real_graphs = tensors._iter_tensors, tensors._iter_graphs

    def count_tensors(model: onnx.ModelProto) -> Any:
        calls["tensors"] += 1
        return real_tensors(model)

    def count_graphs(model: onnx.ModelProto) -> Any:
        calls["graphs"] += 1
        return real_graphs(model)

    monkeypatch.setattr(tensors, "_iter_tensors", count_tensors)
    monkeypatch.setattr(tensors, "_iter_graphs", count_graphs)
    validate_model(path, run_checker=False)
    assert calls == {"tensors": 1, "graphs": 1}
    assert not tensors._ACTIVE  # nothing kept once the scopes closed
    model = load_structure(path)
    with cached_walks(model):
        first = list(iter_graphs(model))
        assert list(iter_graphs(model)) == first
    assert list(iter_graphs(model)) == first  # uncached again, same answer
