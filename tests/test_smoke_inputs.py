"""Smoke inputs that real exports accept (issue 41): what the model says about its inputs, the next plausible inputs
after NaN/Inf outputs, and recipes that repeat them (an older recipe, without ``inputs_profile``, as before).

Every model is built with onnx.helper; the Hugging Face layouts are imitated by their input names and shapes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.core.runtime.dimsearch import search
from onnxpack.core.runtime.inputhints import gather_bounds
from onnxpack.core.runtime.inputs import InputMeta, generate_inputs
from onnxpack.core.runtime.outputfacts import describe_output
from onnxpack.core.runtime.smoke import SmokeOptions, smoke_test
from tests.test_smoke import inprocess  # noqa: F401  (fixture: the smoke child runs in this process)

IN_PROCESS = pytest.mark.usefixtures("inprocess")

V = helper.make_tensor_value_info


def _model(nodes: list[Any], inputs: list[Any], outputs: list[Any], inits: list[Any] | None = None,
           path: Path | None = None) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=inits or [])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        onnx.save(model, str(path))
    return model


def _table(name: str, rows: int, width: int = 4) -> onnx.TensorProto:
    return numpy_helper.from_array(np.arange(rows * width, dtype=np.float32).reshape(rows, width) / 100, name)


def _embedding(vocab: int) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
    """input_ids -> Gather(embedding of ``vocab`` rows); attention_mask -> Softmax(Log(mask)) (NaN where all 0)."""
    nodes = [
        helper.make_node("Gather", ["emb", "input_ids"], ["hidden"]),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Log", ["maskf"], ["bias"]),
        helper.make_node("Softmax", ["bias"], ["probs"], axis=-1),
    ]
    inputs = [V("input_ids", TensorProto.INT64, ["batch", "seq"]),
              V("attention_mask", TensorProto.INT64, ["batch", "seq"])]
    outputs = [V("hidden", TensorProto.FLOAT, ["batch", "seq", 4]), V("probs", TensorProto.FLOAT, ["batch", "seq"])]
    return nodes, inputs, outputs, [_table("emb", vocab)]


# --- what the graph says: gather_bounds -------------------------------------------------------------------------


def test_gather_bounds_follow_value_keeping_ops_constants_subgraphs_and_axes() -> None:
    then = helper.make_graph([helper.make_node("Gather", ["emb", "ids2"], ["t_out"])], "then", [],
                             [V("t_out", TensorProto.FLOAT, None)])
    els = helper.make_graph([helper.make_node("Identity", ["x"], ["e_out"])], "else", [],
                            [V("e_out", TensorProto.FLOAT, None)])
    const = helper.make_tensor("tt", TensorProto.FLOAT, [2, 3], [0.0] * 6)
    nodes = [
        helper.make_node("Cast", ["input_ids"], ["ids32"], to=TensorProto.INT32),
        helper.make_node("Unsqueeze", ["ids32", "ax"], ["ids2"]),
        helper.make_node("Gather", ["emb", "ids32"], ["h"]),
        helper.make_node("Constant", [], ["types"], value=const),
        helper.make_node("Gather", ["types", "token_type_ids"], ["t"]),
        helper.make_node("Gather", ["wide", "col"], ["c"], axis=1),
        helper.make_node("Gather", ["emb", "small"], ["s"]),
        helper.make_node("Gather", ["small_table", "small"], ["s2"]),
        helper.make_node("Gather", ["x", "not_a_table"], ["n"]),
        helper.make_node("Add", ["input_ids", "input_ids"], ["sum"]),
        helper.make_node("If", ["flag"], ["branch"], then_branch=then, else_branch=els),
    ]
    ints = [V(n, TensorProto.INT64, [1]) for n in ("input_ids", "token_type_ids", "col", "small", "not_a_table")]
    graph = _model(nodes, [*ints, V("x", TensorProto.FLOAT, [3, 4]), V("flag", TensorProto.BOOL, [])],
                   [V("h", TensorProto.FLOAT, None)],
                   [_table("emb", 50), _table("small_table", 7), numpy_helper.from_array(np.zeros((3, 9), np.float32),
                                                                                        "wide"),
                    numpy_helper.from_array(np.array([0], np.int64), "ax")]).graph
    assert gather_bounds(graph) == {"input_ids": 50, "token_type_ids": 2, "col": 9, "small": 7}


# --- generated values: generate_inputs ----------------------------------------------------------------------------


def _hf_metas() -> list[InputMeta]:
    return [
        InputMeta("input_ids", "tensor(int64)", ["batch_size", "sequence_length"]),
        InputMeta("past_key_values.0.key", "tensor(float)", ["batch_size", 2, "past_sequence_length", 8]),
        InputMeta("attention_mask", "tensor(int64)", ["batch_size", "past_sequence_length + sequence_length"]),
        InputMeta("token_type_ids", "tensor(int64)", ["batch_size", "sequence_length"]),
        InputMeta("position_ids", "tensor(int64)", ["batch_size", "sequence_length"]),
        InputMeta("use_cache_branch", "tensor(bool)", [1]),
        InputMeta("pixel_values", "tensor(float)", ["batch_size", 3, "height", "width"]),
        InputMeta("input", "tensor(float)", ["batch", 3, 224, 224]),
        InputMeta("latent", "tensor(float)", ["batch", 4, 8, 8]),
    ]


def test_hugging_face_inputs_follow_what_the_model_says() -> None:
    g = generate_inputs(_hf_metas(), dims={"sequence_length": 3, "past_sequence_length": 2},
                        bounds={"input_ids": 50, "position_ids": 4})
    f = g.feeds
    ids = f["input_ids"]
    assert ids.shape == (1, 3) and ids.min() >= 0 and ids.max() < 50
    assert g.recipe["input_ids"]["distribution"] == "integers[0,50)"
    assert f["attention_mask"].shape == (1, 5) and (f["attention_mask"] == 1).all()  # past 2 + new 3
    assert g.dims["past_sequence_length + sequence_length"] == 5
    assert g.dim_sources["past_sequence_length + sequence_length"] == "derived"
    assert (f["token_type_ids"] == 0).all()
    assert f["position_ids"].tolist() == [[2, 3, 0]]  # after the 2 past tokens, wrapped into the 4 rows
    assert f["use_cache_branch"].tolist() == [True]
    for name in ("pixel_values", "input"):
        assert f[name].dtype == np.float32 and f[name].min() >= 0 and f[name].max() < 1, name
        assert g.recipe[name]["distribution"] == "uniform[0,1)" and g.recipe[name]["why"] == "an image"
    assert f["latent"].min() < 0 and g.recipe["latent"]["distribution"] == "normal(0,1)"  # 4 channels: not an image
    assert f["past_key_values.0.key"].shape == (1, 2, 2, 8)
    assert g.recipe["attention_mask"]["why"].startswith("a mask")


def test_ids_without_a_table_stay_small_and_other_indices_within_ten() -> None:
    g = generate_inputs([InputMeta("input_ids", "tensor(int64)", [64]), InputMeta("label", "tensor(int32)", [64])],
                        bounds={"label": 1000})
    assert g.feeds["input_ids"].max() < 10
    assert g.feeds["label"].max() < 10 and g.recipe["label"]["distribution"] == "integers[0,10)"


def test_ranges_and_values_given_by_the_user_win_over_the_conventions() -> None:
    metas = [InputMeta("attention_mask", "tensor(int64)", [8]), InputMeta("input_ids", "tensor(int64)", [8])]
    g = generate_inputs(metas, values={"attention_mask": "0"}, ranges={"input_ids": (5, 6)}, bounds={"input_ids": 50})
    assert (g.feeds["attention_mask"] == 0).all() and (g.feeds["input_ids"] == 5).all()


def test_plain_profile_is_the_generator_of_older_recipes() -> None:
    metas = _hf_metas()
    plain = generate_inputs(metas, profile="plain", dims={"past_sequence_length + sequence_length": 1})
    assert plain.recipe["attention_mask"]["distribution"] == "integers[0,10)"
    assert plain.recipe["input"]["distribution"] == "normal(0,1)"
    assert plain.recipe["use_cache_branch"]["distribution"] == "bool(p=0.5)"
    assert "why" not in plain.recipe["input_ids"]
    # a sum of dims is a name like any other in a plain run (an older recipe fixed every dim it used)
    assert plain.dim_sources["past_sequence_length + sequence_length"] == "option"
    with pytest.raises(ValueError):
        generate_inputs(metas, profile="nonsense")


def test_next_profiles_draw_floats_in_unit_range_then_integers_one() -> None:
    metas = [InputMeta("x", "tensor(float)", [16]), InputMeta("n", "tensor(int64)", [4]),
             InputMeta("b", "tensor(bool)", [4]), InputMeta("row", "tensor(int64)", [4])]
    unit = generate_inputs(metas, profile="model-unit", bounds={"row": 1})
    assert unit.feeds["x"].min() >= 0 and unit.feeds["x"].max() < 1
    ones = generate_inputs(metas, profile="model-ones", bounds={"row": 1})
    assert (ones.feeds["n"] == 1).all() and ones.feeds["b"].all() and (ones.feeds["row"] == 0).all()


# --- smoke runs ---------------------------------------------------------------------------------------------------


@IN_PROCESS
def test_embedding_ids_stay_within_the_table_and_masks_are_ones(tmp_path: Path) -> None:
    path = tmp_path / "emb.onnx"
    _model(*_embedding(5), path=path)  # [0, 10) would pass the 5 rows of the table
    r = smoke_test(path, options=SmokeOptions(runs=1, dims={"seq": 16}))
    assert r.ok, r.findings
    assert all(o["finite"] for o in r.outputs)
    inputs = r.recipe["inputs"]
    assert inputs["input_ids"]["distribution"] == "integers[0,5)"
    assert inputs["attention_mask"]["distribution"] == "ones"
    assert r.recipe["inputs_profile"] == "model" and "inputs_tried" not in r.recipe
    assert not [f for f in r.findings if f.code == "SMOKE_NON_FINITE"]


@IN_PROCESS
def test_nan_outputs_try_the_next_plausible_inputs_and_the_recipe_repeats_them(tmp_path: Path) -> None:
    path = tmp_path / "log.onnx"  # log(x): NaN for the negative half of normal(0,1), finite on [0, 1)
    _model([helper.make_node("Log", ["x"], ["y"])], [V("x", TensorProto.FLOAT, [32])],
           [V("y", TensorProto.FLOAT, [32])], path=path)
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert r.ok and r.outputs[0]["finite"] is True
    assert r.recipe["inputs_profile"] == "model-unit"
    assert r.recipe["inputs_tried"] == [{"profile": "model", "non_finite": ["y"]},
                                        {"profile": "model-unit", "non_finite": []}]
    assert r.recipe["inputs"]["x"]["distribution"] == "uniform[0,1)"
    again = smoke_test(path, options=SmokeOptions.from_recipe(r.recipe))  # as verify --smoke repeats it
    assert again.outputs[0]["sha256"] == r.outputs[0]["sha256"]
    assert "inputs_tried" not in again.recipe  # a recorded profile is used as it is, never searched again


@IN_PROCESS
def test_a_recipe_without_a_profile_repeats_the_plain_inputs(tmp_path: Path) -> None:
    path = tmp_path / "emb.onnx"
    _model(*_embedding(50), path=path)
    old = {"schema": "onnxpack.smoke-recipe/1", "seed": 0, "runs": 1, "dims": {"batch": 1, "seq": 4}, "inputs": {}}
    r = smoke_test(path, options=SmokeOptions.from_recipe(old))
    assert r.recipe["inputs_profile"] == "plain"
    assert r.recipe["inputs"]["attention_mask"]["distribution"] == "integers[0,10)"
    with pytest.raises(Exception, match="inputs_profile"):
        SmokeOptions.from_recipe({**old, "inputs_profile": "future"})


@IN_PROCESS
def test_outputs_nan_for_every_input_say_what_was_tried_and_never_none(tmp_path: Path) -> None:
    path = tmp_path / "nan.onnx"  # log(-|x| - 1) is NaN whatever x is
    _model([helper.make_node("Abs", ["x"], ["a"]), helper.make_node("Neg", ["a"], ["n"]),
            helper.make_node("Sub", ["n", "one"], ["m"]), helper.make_node("Log", ["m"], ["y"])],
           [V("x", TensorProto.FLOAT, [8])], [V("y", TensorProto.FLOAT, [8])],
           [numpy_helper.from_array(np.array([1.0], np.float32), "one")], path=path)
    r = smoke_test(path, options=SmokeOptions(runs=1))
    assert r.ok  # a warning, not an error
    assert r.recipe["inputs_profile"] == "model"  # the first inputs are kept and reported
    assert [t["profile"] for t in r.recipe["inputs_tried"]] == ["model", "model-unit", "model-ones"]
    by = {f.code: f for f in r.findings}
    assert "tried 3 kinds of generated inputs" in by["SMOKE_NON_FINITE"].hint
    assert by["SMOKE_CONSTANT_OUTPUT"].message.endswith("constant everywhere (NaN)")
    assert all("None" not in f.message for f in r.findings)


def test_constant_non_finite_values_are_named() -> None:
    assert describe_output("y", np.full(4, np.nan, np.float32), "FLOAT")["constant_value"] == "NaN"
    assert describe_output("y", np.full(4, -np.inf, np.float32), "FLOAT")["constant_value"] == "-Inf"
    assert describe_output("y", np.full(4, 2.5, np.float32), "FLOAT")["constant_value"] == 2.5


# --- the size search ----------------------------------------------------------------------------------------------


def test_the_search_keeps_sizes_that_got_past_a_failure() -> None:
    """A UNet: the channels a Conv names get the run to a Concat that needs a larger size; going back to the Conv's
    failure (another reading of the Concat's message changing the channels) is no progress."""
    conv = "Conv node. Input channels C is not equal to kernel channels * group. C: {c} kernel channels: 4 group: 1"
    concat = "Concat node. Non concat axis dimensions must match: Axis 2 has mismatched dimensions of 2 and 1"

    def attempt(dims: dict[str, int]) -> str | None:
        if dims["channels"] != 4:
            return conv.format(c=dims["channels"])
        return concat if dims["height"] < 8 or dims["width"] < 8 else None

    attempts: list[dict[str, Any]] = []
    base = {"batch": 1, "channels": 1, "height": 1, "width": 1}
    found = search(list(base), base, conv.format(c=1), attempt, attempts)
    assert found is not None and found["channels"] == 4 and found["height"] >= 8
