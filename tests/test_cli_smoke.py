"""`onnxpack smoke` and `onnxpack ort` from the command line (in-process main())."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import onnx

from onnxpack.cli import Environment, main
from tests import factory
from tests.test_smoke import _reflect_pad, inprocess  # noqa: F401  (fixture)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(out, err, {}, False))
    return int(code), out.getvalue(), err.getvalue()


def doc(text: str) -> dict[str, Any]:
    d = json.loads(text)
    assert isinstance(d, dict)
    return d


def test_smoke_sample_json_in_a_real_child(sample_model: Path) -> None:
    code, out, err = run("smoke", str(sample_model), "--runs", "1", "--json")
    assert code == 0, err
    d = doc(out)
    assert d["schema"] == "onnxpack.smoke/1" and d["ok"] is True
    assert d["provider"] == "CPUExecutionProvider"
    assert d["outputs"][0]["name"] == "output" and len(d["outputs"][0]["sha256"]) == 64
    assert d["recipe"]["inputs"]["input"]["shape"] == [1, 3, 64, 128]
    assert set(d["timings"]) >= {"session_create_s", "first_run_s", "median_run_s"}


def test_failed_run_exits_1_with_hint(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    m = _reflect_pad(tmp_path / "pad.onnx")
    code, out, _ = run("smoke", str(m), "--no-search")
    assert code == 1
    assert "FAILED" in out and "SMOKE_RUN_FAILED" in out and "--dim frames=512" in out
    code, out, _ = run("smoke", str(m), "--dim", "frames=16", "--runs", "1", "--save-outputs", str(tmp_path / "o"))
    assert code == 0 and "PASSED" in out
    assert np.load(tmp_path / "o" / "y.npy").shape == (1, 24)


def test_compare_and_recipe(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    ext = factory.external_model(tmp_path / "ext")
    single = tmp_path / "single.onnx"
    onnx.save(factory.add_model(), str(single))
    code, out, err = run("smoke", str(ext), "--compare", str(single), "--json", "--dim", "batch=2")
    assert code == 0, err
    d = doc(out)
    assert d["schema"] == "onnxpack.smoke/1" and d["kind"] == "compare"
    assert d["compare"]["bitwise_equal"] is True
    assert d["original"]["recipe"]["dims"] == {"batch": 2}
    (tmp_path / "run.json").write_text(out, encoding="utf-8")
    code, out2, err = run("smoke", str(single), "--recipe", str(tmp_path / "run.json"), "--json")
    assert code == 0, err
    assert doc(out2)["outputs"][0]["sha256"] == d["original"]["outputs"][0]["sha256"]
    other = factory.add_model()
    other.graph.initializer[2].CopyFrom(onnx.numpy_helper.from_array(np.array([0.75], np.float32), "B"))
    onnx.save(other, str(tmp_path / "other.onnx"))
    code, out, _ = run("smoke", str(single), "--compare", str(tmp_path / "other.onnx"))
    assert code == 1 and "COMPARE_MISMATCH" in out
    code, out, _ = run("smoke", str(single), "--compare", str(tmp_path / "other.onnx"), "--atol", "0.3")
    assert code == 0 and "COMPARE_NOT_BITWISE" in out


def test_usage_and_input_errors(tmp_path: Path) -> None:
    code, out, err = run("smoke", str(tmp_path / "missing.onnx"), "--json")
    assert code == 2 and doc(out)["ok"] is False and "error:" in err
    m = tmp_path / "m.onnx"
    onnx.save(factory.add_model(), str(m))
    code, _, err = run("smoke", str(m), "--dim", "batch")
    assert code == 2 and "NAME=VALUE" in err and "hint:" in err
    code, _, err = run("smoke", str(m), "--runs", "0")
    assert code == 2 and "--runs" in err
    code, _, err = run("smoke", str(m), "--input", "X=nothere.npy")
    assert code == 2 and "not found" in err
    (tmp_path / "bad.json").write_text('{"seed": 1, "seed": 2}')
    code, _, err = run("smoke", str(m), "--recipe", str(tmp_path / "bad.json"))
    assert code == 2 and "duplicate" in err
    (tmp_path / "empty.onnx").write_bytes(b"")
    code, _, err = run("smoke", str(tmp_path / "empty.onnx"))
    assert code == 2 and "empty" in err


def test_ort_command(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    ext = factory.external_model(tmp_path / "ext")
    code, out, err = run("ort", str(ext), "-o", str(tmp_path / "o"), "--json")
    assert code == 0, err
    d = doc(out)
    assert d["schema"] == "onnxpack.ort/1" and d["ok"] is True
    assert sorted(f["name"] for f in d["files"]) == ["model.ort", "required_operators.config"]
    code, out, err = run("ort", str(ext), "-o", str(tmp_path / "o"))
    assert code == 1 and "not empty" in err  # refused: the output exists


def _gather_table(path: Path, rows: int = 3, hidden: bool = False) -> Path:
    """y = table[ids]: a 3-row embedding table indexed by an int64 input of symbolic length n (``hidden``: the table is
    computed, Abs(table), so the graph does not tell its rows and generated ids are not kept below them)."""
    from onnx import TensorProto, helper, numpy_helper

    table = numpy_helper.from_array(np.arange(rows * 2, dtype=np.float32).reshape(rows, 2), "table")
    nodes = [helper.make_node("Abs", ["table"], ["computed"])] if hidden else []
    graph = helper.make_graph(
        [*nodes, helper.make_node("Gather", ["computed" if hidden else "table", "ids"], ["y"], axis=0)], "g",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 2])], [table],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_integer_range_excludes_hi(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    """Issue 13 item 1: --range ids=0:3 draws from [0, 3), as the help says, so a 3-row Gather passes."""
    m = _gather_table(tmp_path / "gather.onnx")
    for seed in range(5):
        code, out, err = run("smoke", str(m), "--range", "ids=0:3", "--dim", "n=64", "--runs", "1", "--seed",
                             str(seed), "--json")
        assert code == 0, err + out
        assert json.loads(out)["recipe"]["inputs"]["ids"]["distribution"] == "integers[0,3)"
    code, out, err = run("smoke", str(m), "--range", "ids=2:2", "--runs", "1")
    assert code == 2 and "holds no int64 value" in err


def test_index_failure_hint_suggests_range_not_sizes(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    """Issue 13 item 2: an index out of the table's bounds is answered with --range, not --dim or --input (a table
    the graph computes: generated ids stay below the rows of a table it holds, issue 41)."""
    m = _gather_table(tmp_path / "gather.onnx", hidden=True)
    failures = 0
    for argv in (["--dim", "n=64"], *(["--seed", str(s)] for s in range(8))):  # n given, and n guessed
        code, out, _ = run("smoke", str(m), "--runs", "1", "--no-search", "--json", *argv)
        if code == 0:  # a guessed n drew only small indices: nothing to hint
            continue
        failures += 1
        assert code == 1
        finding = next(f for f in json.loads(out)["findings"] if f["code"] == "SMOKE_RUN_FAILED")
        assert "--range ids=0:N" in finding["hint"] and "integers[0,10)" in finding["hint"]
        assert "--dim" not in finding["hint"] and "16000" not in finding["hint"]
    assert failures >= 2


def test_unknown_or_zero_dims_are_errors(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    """Issue 13 item 3: --dim for a name the model lacks, or a size of 0, is refused (as --input nope=1 is)."""
    m = _gather_table(tmp_path / "gather.onnx")
    code, out, err = run("smoke", str(m), "--dim", "nope=3", "--range", "ids=0:3", "--json")
    assert code == 2
    error = json.loads(out)["error"]
    assert error["code"] == "DIM_UNKNOWN" and "'nope'" in error["message"] and "n" in error["message"]
    for zero in ("n=0", "nope=0"):
        code, _, err = run("smoke", str(m), "--dim", zero)
        assert code == 2 and "positive integer" in err
