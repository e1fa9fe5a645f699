"""Issue 39 item 3: `--target-ort` judges the element types a model holds, not only the IR it declares. A model that
declares IR 7 or 10 but holds a FLOAT4E2M1 / FLOAT8E8M0 (or FLOAT8*, INT4) tensor is refused by every ONNX Runtime
built before the IR that introduced the type ("Invalid tensor data type 24"); before, it got ``loads: true``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import onnx
import pytest
from onnx import TensorProto, helper

from onnxpack.core.checks.compat import ORT_RELEASES, check_target, oldest_ort
from onnxpack.core.checks.irfeatures import TYPE_IR, element_type_irs
from onnxpack.core.checks.retarget import retarget_model
from onnxpack.core.errors import OnnxpackError


def _model(elem: int, ir: int, where: str = "initializer", opset: int = 19) -> onnx.ModelProto:
    """``y = Cast(x)``-like models whose only newer-IR feature is one element type, in ``where``."""
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    nodes: list[Any] = []
    inputs: list[Any] = []
    inits: list[Any] = []
    if where == "initializer":
        inits = [helper.make_tensor("w", elem, [2], [1, 1])]
        nodes = [helper.make_node("Cast", ["w"], ["y"], to=TensorProto.FLOAT)]
    elif where == "input":
        inputs = [helper.make_tensor_value_info("w", elem, [2])]
        nodes = [helper.make_node("Cast", ["w"], ["y"], to=TensorProto.FLOAT)]
    elif where == "cast_to":
        inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])]
        nodes = [helper.make_node("Cast", ["x"], ["q"], to=elem),
                 helper.make_node("Cast", ["q"], ["y"], to=TensorProto.FLOAT)]
    elif where == "constant":
        nodes = [helper.make_node("Constant", [], ["w"], value=helper.make_tensor("c", elem, [2], [1, 1])),
                 helper.make_node("Cast", ["w"], ["y"], to=TensorProto.FLOAT)]
    graph = helper.make_graph(nodes, "g", inputs, [out], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = ir
    return model


def _verdict(model: onnx.ModelProto, target: str) -> Any:
    compat = oldest_ort(int(model.ir_version), {"ai.onnx": model.opset_import[0].version}, model)
    return compat, check_target(compat, target, model)


def _first_with_ir(ir: int) -> tuple[str, str]:
    """The newest release whose IR is below ``ir`` and the oldest that has it (from the table, which may change)."""
    i = next(i for i, r in enumerate(ORT_RELEASES) if r.ir >= ir and r.opset >= 19)
    return ORT_RELEASES[i - 1].version, ORT_RELEASES[i].version


@pytest.mark.parametrize("where", ["initializer", "input", "cast_to", "constant"])
@pytest.mark.parametrize(
    ("elem", "ir"),
    [(TensorProto.FLOAT4E2M1, 7), (TensorProto.FLOAT4E2M1, 10), (TensorProto.FLOAT8E8M0, 7),
     (TensorProto.FLOAT8E8M0, 10), (TensorProto.INT4, 7), (TensorProto.UINT4, 9), (TensorProto.FLOAT8E4M3FN, 7)],
    ids=["f4-ir7", "f4-ir10", "e8m0-ir7", "e8m0-ir10", "int4-ir7", "uint4-ir9", "f8-ir7"],
)
def test_a_newer_element_type_bounds_the_target(elem: int, ir: int, where: str) -> None:
    model = _model(elem, ir, where)
    name = TensorProto.DataType.Name(elem)
    refused_by, loaded_by = _first_with_ir(TYPE_IR[name])
    compat, refused = _verdict(model, refused_by)
    assert refused.loads is False, refused.reason
    assert f"element type {name} (IR {TYPE_IR[name]})" in refused.reason
    assert not refused.fixable and refused.retarget is not None and not refused.retarget.possible
    assert compat.oldest is not None and compat.oldest.version == loaded_by, compat.oldest
    assert _verdict(model, loaded_by)[1].loads is True


def test_the_issues_releases_refuse_float8e8m0() -> None:
    """ORT 1.16.3-1.20.1 refuse a FLOAT8E8M0 tensor ("Invalid tensor data type 24") in a model declaring IR 7."""
    model = _model(TensorProto.FLOAT8E8M0, 7)
    for target in ("1.16", "1.17", "1.18", "1.19", "1.20"):
        assert _verdict(model, target)[1].loads is False, target


def test_element_types_of_a_known_ir_do_not_block() -> None:
    model = _model(TensorProto.BFLOAT16, 7, opset=13)
    assert element_type_irs(model) == {"BFLOAT16": 4}
    assert _verdict(model, "1.6")[1].loads is True
    assert element_type_irs(_model(TensorProto.FLOAT, 7)) == {}


def test_fix_ir_refuses_what_it_cannot_fix(tmp_path: Path) -> None:
    """bundle --target-ort 1.20 --fix-ir on a model declaring IR 7 with a FLOAT4E2M1 initializer: refused (exit 1),
    never a bundle that ORT 1.20 refuses to load."""
    from onnxpack.core.release.bundle import BundleOptions, build_bundle

    src = tmp_path / "m.onnx"
    onnx.save(_model(TensorProto.FLOAT4E2M1, 7), src)
    with pytest.raises(OnnxpackError) as e:
        build_bundle(BundleOptions(src, tmp_path / "out", "1.0.0", target_ort="1.20", fix_ir=True, run_smoke=False,
                                   source_date_epoch=0))
    assert e.value.code in ("FIX_IR_NOT_POSSIBLE", "BUNDLE_FINDINGS"), e.value
    assert "FLOAT4E2M1" in e.value.message
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.zip"))


def test_retarget_names_the_type_when_the_declared_ir_fits() -> None:
    res = retarget_model(_model(TensorProto.FLOAT8E8M0, 10), "1.20", 10, {"ai.onnx": 21}, convert=False)
    assert not res.possible
    assert res.blockers == ["the model declares IR 10 but uses element type FLOAT8E8M0 (IR 12), which ONNX Runtime "
                            "1.20 does not know"]
