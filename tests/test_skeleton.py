"""The skeleton reader agrees with protobuf: same model once the ranges are read back; clean errors on bad bytes."""

from __future__ import annotations

import contextlib
import io
import random
from pathlib import Path

import numpy as np
import onnx
import pytest
from google.protobuf.message import DecodeError
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, main
from onnxpack.core.checks.inspection import inspect_model
from onnxpack.core.errors import ModelFormatError
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.modelfile import load_structure
from onnxpack.core.model.skeleton import INLINE_KEY, SKELETON_MIN_BYTES, had_default_location, read_skeleton
from onnxpack.core.model.tensors import iter_tensors
from onnxpack.core.model.wire import WireError
from tests import fuzz


def _big(name: str, n: int = 512, seed: int = 0) -> TensorProto:
    return numpy_helper.from_array(np.random.default_rng(seed).standard_normal(n).astype(np.float32), name)


def _corpus() -> dict[str, onnx.ModelProto]:
    """Every place a tensor can live, big and small, plus the fuzzer's seed models."""
    models = dict(fuzz._seed_models())
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [512])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [512])
    # a function whose body holds a big Constant, a subgraph with a big Constant, a big sparse initializer,
    # a training_info graph with a big initializer, a tiny initializer that must stay inline
    fn = helper.make_function(
        "local", "AddConst", ["a"], ["b"],
        [helper.make_node("Constant", [], ["k"], value=_big("k", seed=1)), helper.make_node("Add", ["a", "k"], ["b"])],
        [helper.make_opsetid("", 17)],
    )
    then_g = helper.make_graph(
        [helper.make_node("Constant", [], ["t"], value=_big("tc", seed=2))], "then", [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [512])],
    )
    else_g = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["e"])], "else", [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [512])],
    )
    sparse = helper.make_sparse_tensor(
        _big("sv", n=400, seed=3), numpy_helper.from_array(np.arange(0, 800, 2, dtype=np.int64), "si"), [800]
    )
    nodes = [
        helper.make_node("AddConst", ["x"], ["f"], domain="local"),
        helper.make_node("Greater", ["f", "zero"], ["c"]),
        helper.make_node("ReduceMin", ["c_f"], ["cond"], keepdims=0),
        helper.make_node("Cast", ["c"], ["c_f"], to=TensorProto.FLOAT),
        helper.make_node("Cast", ["cond"], ["cond_b"], to=TensorProto.BOOL),
        helper.make_node("If", ["cond_b"], ["y"], then_branch=then_g, else_branch=else_g),
    ]
    inits = [_big("W"), numpy_helper.from_array(np.zeros(1, np.float32), "zero")]
    g = helper.make_graph(nodes, "everything", [x], [y], inits, sparse_initializer=[sparse])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
                          functions=[fn])
    ti = onnx.TrainingInfoProto()
    ti.initialization.CopyFrom(helper.make_graph([], "init", [], [], [_big("train_w", seed=4)]))
    m.training_info.append(ti)
    models["everything"] = m
    # what onnx.load of an external-data model and every merge write: data_location = DEFAULT set explicitly
    explicit = onnx.ModelProto()
    explicit.CopyFrom(m)
    for ref in iter_tensors(explicit):
        if ref.tensor.raw_data:
            ref.tensor.data_location = TensorProto.DEFAULT
    models["explicit_default_location"] = explicit
    return models


def _restore(model: onnx.ModelProto, path: Path) -> onnx.ModelProto:
    """Put every range's bytes back as raw_data: must give what protobuf parsed from the whole file."""
    data = path.read_bytes()
    for ref in iter_tensors(model):
        t = ref.tensor
        kv = {e.key: e.value for e in t.external_data}
        if INLINE_KEY in kv:
            off, n = int(kv["offset"]), int(kv["length"])
            t.raw_data = data[off:off + n]
            explicit = had_default_location(t)
            del t.external_data[:]
            t.ClearField("data_location")
            if explicit:
                t.data_location = TensorProto.DEFAULT
    return model


@pytest.mark.parametrize("name", sorted(_corpus()))
def test_skeleton_plus_ranges_is_what_protobuf_parses(tmp_path: Path, name: str) -> None:
    model = _corpus()[name]
    path = tmp_path / "m.onnx"
    path.write_bytes(model.SerializeToString())
    sk = read_skeleton(path)
    reference = onnx.load(str(path))
    big = [r for r in iter_tensors(reference) if len(r.tensor.raw_data) >= SKELETON_MIN_BYTES]
    small = [r for r in iter_tensors(reference) if 0 < len(r.tensor.raw_data) < SKELETON_MIN_BYTES]
    assert sk.tensors_in_file == len(big) and sk.bytes_in_file == sum(len(r.tensor.raw_data) for r in big)
    assert sk.structure_bytes < path.stat().st_size - sk.bytes_in_file + 200 * max(1, len(big))
    left_inline = [r for r in iter_tensors(sk.model) if r.tensor.HasField("raw_data")]
    assert len(left_inline) == len(small)  # small tensors stay inline for shape inference
    if name == "explicit_default_location":
        assert sk.tensors_in_file == len(big) > 0  # the explicit DEFAULT does not keep the weights in memory
    if name == "everything":
        wheres = {r.where for r in iter_tensors(sk.model) if INLINE_KEY in {e.key for e in r.tensor.external_data}}
        assert len(wheres) >= 4, wheres  # initializer, sparse values, Constant attribute, training initializer
    assert _restore(sk.model, path) == reference


def test_ranges_are_validated_like_external_data(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    path.write_bytes(_corpus()["everything"].SerializeToString())
    model = load_structure(path)
    table = resolve_external_data(model, tmp_path)
    assert table.ok and table.refs and all(r.inline and r.path == path.resolve() for r in table.refs)
    assert table.external_refs == [] and table.files == {}
    insp = inspect_model(path)
    assert insp.layout == "single" and insp.to_dict()["external_data"] == []
    assert insp.initializers.external_count == 0 and insp.initializers.inline_bytes >= 512 * 4


def test_a_raw_data_length_that_does_not_match_the_dims_is_an_error(tmp_path: Path) -> None:
    w = _big("W")
    w.dims[:] = [1024]  # 512 floats of raw_data declared as 1024
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1024])
    g = helper.make_graph([helper.make_node("Add", ["x", "W"], ["y"])], "g", [x],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1024])], [w])
    path = tmp_path / "m.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    codes = {f.code for f in inspect_model(path).findings}
    assert "TENSOR_SIZE_MISMATCH" in codes
    out, err = io.StringIO(), io.StringIO()
    assert main(["smoke", str(path)], Environment(stdout=out, stderr=err, vars={})) == 1
    assert "2,048 bytes of raw_data" in err.getvalue() and "Traceback" not in err.getvalue()


def test_self_contained_model_is_smoke_run_from_a_memory_map(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(fuzz._seed_models()["plain"], path)
    w = _big("W2", n=4096)
    m = helper.make_model(
        helper.make_graph([helper.make_node("Add", ["x", "W2"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4096])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4096])], [w]),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    onnx.save(m, path)
    out, err = io.StringIO(), io.StringIO()
    assert main(["smoke", str(path), "--json", "-q"], Environment(stdout=out, stderr=err, vars={})) == 0, err.getvalue()
    assert "1 in-memory initializer" in out.getvalue()
    merged = tmp_path / "o" / "merged.onnx"
    assert main(["merge", str(path), "-o", str(merged), "-q"], Environment(stdout=out, stderr=err, vars={})) == 0
    assert merged.read_bytes() == onnx.load(str(path)).SerializeToString()


@pytest.mark.parametrize("name", ["everything", "explicit_default_location"])
def test_merging_a_self_contained_model_gives_its_own_bytes(tmp_path: Path, name: str) -> None:
    """Whether ``data_location = DEFAULT`` is written out or not, the merge writes the file protobuf would."""
    path = tmp_path / "m.onnx"
    path.write_bytes(_corpus()[name].SerializeToString())
    merged = tmp_path / "o" / "merged.onnx"
    out, err = io.StringIO(), io.StringIO()
    assert main(["merge", str(path), "-o", str(merged), "-q"], Environment(stdout=out, stderr=err, vars={})) == 0
    assert merged.read_bytes() == path.read_bytes()


def test_malformed_bytes_give_clean_errors_and_agree_with_protobuf(tmp_path: Path) -> None:
    """Truncations, flips and splices of every corpus model: the reader fails cleanly or agrees with protobuf."""
    rnd = random.Random(11)
    path = tmp_path / "m.onnx"
    agreed = failed = 0
    for model in _corpus().values():
        good = model.SerializeToString()
        for _ in range(60):
            data = bytearray(good)
            op = rnd.choice(("cut", "flip", "splice"))
            if op == "cut":
                del data[rnd.randrange(1, len(data)):]
            elif op == "flip":
                for _ in range(rnd.randint(1, 4)):
                    data[rnd.randrange(len(data))] = rnd.randrange(256)
            else:
                i = rnd.randrange(len(data))
                data[i:i] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
            path.write_bytes(bytes(data))
            try:
                reference = onnx.ModelProto.FromString(bytes(data))
            except DecodeError:
                reference = None
            try:
                sk = read_skeleton(path)
            except (WireError, DecodeError):
                failed += 1
                continue
            if reference is None:
                # protobuf refused the whole file; the skeleton may parse only when the damage sat inside a
                # payload the skeleton never hands to protobuf (then the range is what later rules check)
                assert sk.tensors_in_file > 0
                continue
            assert _restore(sk.model, path) == reference
            agreed += 1
            with contextlib.suppress(ModelFormatError):  # the later checks may refuse it; never anything else
                load_structure(path)
    assert agreed > 20 and failed > 20, (agreed, failed)
