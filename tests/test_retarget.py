"""Retargeting for an older ONNX Runtime (bundle --target-ort X.Y --fix-ir; core/checks/retarget.py): IR-10-only
metadata dropped or moved and recorded, opset_import rewritten when the schemas are the same, onnx.version_converter
otherwise, and a refusal naming the node when neither works."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.checks.compat import ORT_RELEASES
from onnxpack.core.checks.retarget import retarget_model
from onnxpack.core.checks.validate import validate_model
from onnxpack.core.errors import RefusedError
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.manifest import schema_errors
from onnxpack.core.release.verify.verify import verify_bundle

EPOCH = 1_700_000_000


def _release(version: str) -> Any:
    return next(r for r in ORT_RELEASES if r.version == version)


def _limits(version: str) -> tuple[str, int, dict[str, int]]:
    rel = _release(version)
    return rel.version, rel.ir, {"ai.onnx": rel.opset, "ai.onnx.ml": rel.ml_opset}


def _props(holder: Any, **kv: str) -> None:
    for k, v in kv.items():
        holder.metadata_props.add(key=k, value=v)


def ir10_model(producer: str = "pytorch") -> onnx.ModelProto:
    """IR 10, opset 20, what torch's dynamo exporter writes: metadata_props on the graph, nodes and value_info, and
    a weight big enough to stay in the file when onnxpack reads the model's skeleton."""
    w = numpy_helper.from_array(np.arange(32 * 32, dtype=np.float32).reshape(32, 32) / 1000, "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"], name="fc"),
             helper.make_node("Relu", ["h"], ["y"], name="act")]
    _props(nodes[0], **{"pkg.torch.onnx.stack_trace": "File model.py, line 7\n" + "x" * 300, "namespace": "fc"})
    _props(nodes[1], namespace="act")
    graph = helper.make_graph(nodes, "main_graph", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32])], [w],
                              value_info=[helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, 32])])
    _props(graph, **{"pkg.torch.export.graph_signature": "# inputs\nx: USER_INPUT"})
    _props(graph.value_info[0], **{"pkg.torch.onnx.fx_node": "%mm"})
    _props(graph.input[0], **{"pkg.torch.onnx.fx_node": "%x"})
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=10,
                              producer_name=producer, producer_version="2.13.0")
    onnx.checker.check_model(model)
    return model


def test_retarget_drops_ir10_metadata_and_rewrites_the_opset() -> None:
    model = ir10_model()
    res = retarget_model(model, *_limits("1.16"))
    assert res.possible and res.model is not None
    out = res.model
    assert (out.ir_version, [(o.domain, o.version) for o in out.opset_import]) == (9, [("", 19)])
    assert res.opset_method == "exact"  # MatMul-13 and Relu-14 are the same schemas at opset 19
    # exactly what was dropped or moved, where
    items = {(d.action, d.where, d.key) for d in res.dropped}
    assert items == {
        ("moved", "graph 'main_graph'", "pkg.torch.export.graph_signature"),
        ("dropped", "node 'fc' (MatMul) in graph 'main_graph'", "pkg.torch.onnx.stack_trace"),
        ("dropped", "node 'fc' (MatMul) in graph 'main_graph'", "namespace"),
        ("dropped", "node 'act' (Relu) in graph 'main_graph'", "namespace"),
        ("dropped", "value_info 'h' of graph 'main_graph'", "pkg.torch.onnx.fx_node"),
        ("dropped", "input 'x' of graph 'main_graph'", "pkg.torch.onnx.fx_node"),
    }
    trace = next(d for d in res.dropped if d.key == "pkg.torch.onnx.stack_trace")
    assert trace.chars == len("File model.py, line 7\n") + 300 and trace.value.endswith("…")
    moved = {p.key: p.value for p in out.metadata_props}
    assert moved == {"pkg.torch.export.graph_signature": "# inputs\nx: USER_INPUT"}
    assert not any(len(n.metadata_props) for n in out.graph.node) and not len(out.graph.metadata_props)
    assert not any(len(v.metadata_props) for v in [*out.graph.input, *out.graph.value_info])
    onnx.checker.check_model(out)
    # the source is untouched
    assert model.ir_version == 10 and len(model.graph.node[0].metadata_props) == 2
    codes = [f["code"] for f in res.fixes()]
    assert codes == ["IR_FEATURES_DROPPED", "IR_LOWERED", "OPSET_LOWERED"]


def test_float8_is_refused_naming_the_node() -> None:
    model = ir10_model()
    model.graph.node.append(helper.make_node("Cast", ["y"], ["y8"], name="to_fp8", to=TensorProto.FLOAT8E4M3FN))
    res = retarget_model(model, *_limits("1.15"))  # IR 8: no float8
    assert not res.possible and res.model is None
    assert any("node 'to_fp8' (Cast)" in b and "FLOAT8E4M3FN (IR 9)" in b for b in res.blockers)
    assert "1.15" in res.hint


def test_operator_without_an_older_version_names_node_and_opset() -> None:
    model = ir10_model()
    model.graph.node.append(helper.make_node("Gelu", ["y"], ["g"], name="gelu"))  # Gelu came with opset 20
    model.graph.output[0].name = "g"
    res = retarget_model(model, *_limits("1.16"))
    assert not res.possible
    assert any("node 'gelu' (Gelu)" in b and "does not exist at opset 19" in b for b in res.blockers)
    assert "torch.onnx.export(..., opset_version=19)" in res.hint
    other = ir10_model("someexporter")
    other.graph.node.extend(model.graph.node[2:])
    other.graph.output[0].name = "g"
    assert retarget_model(other, *_limits("1.16")).hint.startswith("Re-export the model for ai.onnx opset 19")


def test_version_converter_when_a_schema_changed() -> None:
    # ReduceMax-20 (opset 20) differs from ReduceMax-18: the converter rewrites it, checked by the onnx checker
    model = ir10_model()
    model.graph.node.append(helper.make_node("ReduceMax", ["y"], ["m"], name="rmax", keepdims=1))
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("m", TensorProto.FLOAT, [1, 1]))
    res = retarget_model(model, *_limits("1.16"))
    assert res.possible and res.opset_method == "version_converter", res.blockers
    assert res.model is not None and res.model.opset_import[0].version == 19 and res.model.ir_version == 9
    analysis = retarget_model(model, *_limits("1.16"), convert=False)
    assert analysis.possible and analysis.converter_pending


def test_check_says_fix_ir_retargets(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    onnx.save(ir10_model(), path)
    val = validate_model(path, target_ort="1.16")
    f = next(f for f in val.findings if f.code == "ORT_TARGET_UNSUPPORTED")
    assert "--fix-ir" in f.hint and "retargets" in f.hint
    assert val.target is not None and val.target.fixable


def test_bundle_retargets_for_1_16_and_records_the_drops(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    onnx.save(ir10_model(), src / "m.onnx", save_as_external_data=True, location="m.onnx.data", size_threshold=0)
    out = tmp_path / "out"
    r = build_bundle(BundleOptions(model=src / "m.onnx", out_dir=out, version="1.0.0", target_ort="1.16",
                                   fix_ir=True, source_date_epoch=EPOCH))
    with zipfile.ZipFile(r.zip_path) as zf:
        bundled = onnx.load_from_string(zf.read("m.onnx"))
        manifest = json.loads(zf.read("manifest.json"))
    assert schema_errors(manifest) == []
    assert (bundled.ir_version, bundled.opset_import[0].version) == (9, 19)
    assert not any(len(n.metadata_props) for n in bundled.graph.node)
    assert manifest["inspection"]["ir_version"] == 9 and manifest["inspection"]["opsets"] == {"ai.onnx": 19}
    assert (manifest["compatibility"]["target_ort"], manifest["compatibility"]["target_ok"]) == ("1.16", True)
    fixes = {f["code"]: f for f in manifest["fixes"]}
    assert set(fixes) == {"IR_FEATURES_DROPPED", "IR_LOWERED", "OPSET_LOWERED"}
    assert len(fixes["IR_FEATURES_DROPPED"]["before"]) == 6
    assert fixes["OPSET_LOWERED"]["before"] == {"ai.onnx": 20} and fixes["OPSET_LOWERED"]["after"] == {"ai.onnx": 19}
    # the weights are the source's, bit for bit, and the outputs bitwise equal
    assert manifest["smoke"]["equal"]["bitwise"] and "outputs" in manifest["smoke"]["equal"]["methods"]
    assert verify_bundle(r.zip_path).ok


def test_bundle_refuses_what_cannot_be_retargeted(tmp_path: Path) -> None:
    model = ir10_model()
    model.graph.node.append(helper.make_node("Gelu", ["y"], ["g"], name="gelu"))
    model.graph.output[0].name = "g"
    onnx.save(model, tmp_path / "m.onnx")
    with pytest.raises(RefusedError) as e:
        build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   target_ort="1.16", fix_ir=True, source_date_epoch=EPOCH))
    assert "gelu" in e.value.message and "opset_version=19" in (e.value.hint or "")


def test_bundle_with_the_converter_compares_outputs_with_the_original(tmp_path: Path) -> None:
    model = ir10_model()
    model.graph.node.append(helper.make_node("ReduceMax", ["y"], ["m"], name="rmax", keepdims=1))
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("m", TensorProto.FLOAT, [1, 1]))
    onnx.save(model, tmp_path / "m.onnx")
    r = build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   target_ort="1.16", fix_ir=True, compare_outputs=False, source_date_epoch=EPOCH))
    fixes = {f["code"]: f for f in r.manifest["fixes"]}
    assert "onnx.version_converter" in fixes["OPSET_LOWERED"]["message"]
    # --compare-outputs never is overridden: a converted model is never shipped without its outputs compared
    assert "outputs" in r.manifest["smoke"]["equal"]["methods"]


def _metadata_heavy(nodes: int, per_node: int) -> onnx.ModelProto:
    """What a large torch export writes: a stack trace (and more) on every node, IR 10, opset 20."""
    graph = helper.make_graph([], "main_graph", [helper.make_tensor_value_info("t0", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info(f"t{nodes}", TensorProto.FLOAT, [1, 4])])
    trace = 'File "/src/model.py", line {i}, in forward\n' + "    x = self.act(x)\n" * 20
    for i in range(nodes):
        node = graph.node.add(op_type="Relu", name=f"/model/layers.{i}/act/Relu", input=[f"t{i}"], output=[f"t{i + 1}"])
        for j in range(per_node):
            node.metadata_props.add(key="pkg.torch.onnx.stack_trace" + (f"_{j}" if j else ""), value=trace.format(i=i))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=10,
                             producer_name="pytorch")


def test_dropped_metadata_is_listed_bounded_and_counted_by_key() -> None:
    from onnxpack.core.checks.retarget import MAX_LISTED_DROPPED

    res = retarget_model(_metadata_heavy(1000, 3), *_limits("1.16"))
    assert res.possible and len(res.dropped) == 3000
    fix = next(f for f in res.fixes() if f["code"] == "IR_FEATURES_DROPPED")
    assert len(fix["before"]) == MAX_LISTED_DROPPED
    assert fix["message"].startswith("3,000 item(s) of IR 10")
    assert (f"the first {MAX_LISTED_DROPPED} are listed, the other 2,900 by key: pkg.torch.onnx.stack_trace_1 967, "
            "pkg.torch.onnx.stack_trace_2 967, pkg.torch.onnx.stack_trace 966") in fix["message"]
    assert res.to_dict()["dropped_count"] == 3000 and len(res.to_dict()["dropped"]) == MAX_LISTED_DROPPED
    # keys by the thousand: the count names the 20 most frequent, the rest together
    many = retarget_model(_metadata_heavy(200, 0), *_limits("1.16"))
    assert many.dropped == []
    unique = _metadata_heavy(500, 0)
    for i, node in enumerate(unique.graph.node):
        node.metadata_props.add(key=f"k{i:04d}" + "x" * 500, value="v")
    fix = next(f for f in retarget_model(unique, *_limits("1.16")).fixes() if f["code"] == "IR_FEATURES_DROPPED")
    assert "(and 380 other keys 380)" in fix["message"] and len(fix["message"]) < 4000
    assert all(len(item["key"]) <= 161 for item in fix["before"])


def test_fix_ir_on_50k_stack_traces_writes_a_bundle_verify_accepts(tmp_path: Path) -> None:
    """Issue 39 item 2: 50,000 node metadata items (a large torch export) bundled with --target-ort 1.16 --fix-ir.
    Before: exit 0 with a 22 MB manifest.json that verify refused (MANIFEST_TOO_LARGE, cap 16 MiB); after: a
    ~50 KB manifest listing 100 items and counting the others by key, and the bundle verifies."""
    onnx.save(_metadata_heavy(25_000, 2), tmp_path / "m.onnx")
    r = build_bundle(BundleOptions(model=tmp_path / "m.onnx", out_dir=tmp_path / "out", version="1.0.0",
                                   target_ort="1.16", fix_ir=True, run_smoke=False, source_date_epoch=EPOCH))
    with zipfile.ZipFile(r.zip_path) as zf:
        raw = zf.read("manifest.json")
    assert len(raw) < 200_000, len(raw)
    fix = next(f for f in json.loads(raw)["fixes"] if f["code"] == "IR_FEATURES_DROPPED")
    assert "49,900 by key: pkg.torch.onnx.stack_trace 24,950, pkg.torch.onnx.stack_trace_1 24,950" in fix["message"]
    rep = verify_bundle(r.zip_path)
    assert rep.ok, rep.problems
