"""`onnxpack inspect` / `onnxpack check` in-process: human output, --json against the documented schemas, exit codes."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import onnx
import pytest

from onnxpack.cli import Environment, ExitStatus, main
from tests.factory import add_model, save_with_external

ROOT = Path(__file__).resolve().parent.parent


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={}))
    return int(code), out.getvalue(), err.getvalue()


def doc_schema(name: str) -> dict[str, Any]:
    """The JSON Schema published in docs/json-schemas.md under ``<!-- schema: NAME -->``."""
    text = (ROOT / "docs" / "json-schemas.md").read_text(encoding="utf-8")
    m = re.search(rf"<!-- schema: {re.escape(name)} -->\s*```json\n(.*?)```", text, re.S)
    assert m, f"schema {name} missing from docs/json-schemas.md"
    schema: dict[str, Any] = json.loads(m.group(1))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def validate(doc: dict[str, Any], name: str) -> None:
    jsonschema.Draft202012Validator(doc_schema(name)).validate(doc)


def test_inspect_human(sample_model: Path) -> None:
    code, out, err = run("inspect", str(sample_model))
    assert code == ExitStatus.OK and err == ""
    for text in ("victory.onnx  (ONNX, external data)", "victory.onnx.data", "IR 8; ai.onnx 17",
                 "oldest ORT   1.12", "[batch_size, 3, 64, 128]", "Conv ×3", "External data (4 tensors)",
                 "classes", "fits under"):
        assert text in out, text


def test_inspect_json_matches_schema(sample_model: Path) -> None:
    code, out, _ = run("inspect", str(sample_model.parent), "--json")
    assert code == 0
    doc = json.loads(out)
    validate(doc, "onnxpack.inspect/1")
    assert doc["schema"] == "onnxpack.inspect/1" and doc["ok"] is True
    assert doc["layout"] == "external" and doc["compat"]["oldest_ort"] == "1.12"


def test_check_json_matches_schema(sample_model: Path) -> None:
    code, out, _ = run("check", str(sample_model), "--json", "--target-ort", "1.17")
    assert code == 0
    doc = json.loads(out)
    validate(doc, "onnxpack.check/1")
    validate(doc["inspection"], "onnxpack.inspect/1")
    assert doc["ok"] and doc["target"]["loads"] is True and doc["checker"]["status"] == "ok"


def test_check_human_ok_and_failed(sample_model: Path) -> None:
    code, out, _ = run("check", str(sample_model))
    assert code == 0 and "Result: OK" in out and "ORT_OLDEST" in out
    code, out, _ = run("check", str(sample_model), "--target-ort", "1.11")
    assert code == ExitStatus.FINDINGS
    assert "target ORT   1.11: NO" in out and "ERROR ORT_TARGET_UNSUPPORTED" in out and "Result: FAILED" in out
    assert out.index("ERROR") < out.index("info ")  # errors first


def test_check_error_findings_json(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "m.onnx")
    (tmp_path / "m.onnx.data").unlink()
    code, out, _ = run("check", str(path), "--json")
    assert code == 1
    doc = json.loads(out)
    validate(doc, "onnxpack.check/1")
    assert doc["ok"] is False and doc["summary"]["errors"] == 1
    assert doc["findings"][0]["code"] == "EXTDATA_MISSING" and "m.onnx.data" in doc["findings"][0]["message"]
    code, out, _ = run("inspect", str(path), "--json")
    assert code == 1 and json.loads(out)["files"][1]["size"] is None


@pytest.mark.parametrize("command", ["inspect", "check"])
def test_unreadable_input_exit_2(tmp_path: Path, command: str) -> None:
    code, out, err = run(command, str(tmp_path / "missing.onnx"))
    assert code == ExitStatus.USAGE and "missing.onnx" in err and "Traceback" not in out + err
    code, out, _ = run(command, str(tmp_path / "missing.onnx"), "--json")
    doc = json.loads(out)
    assert code == 2 and doc["ok"] is False and doc["error"]["code"] == "INPUT"


def test_usage_errors(sample_model: Path) -> None:
    code, _, err = run("check", str(sample_model), "--target-ort", "newest")
    assert code == 2 and "newest" in err and "hint:" in err
    code, _, err = run("inspect")
    assert code == 2 and "MODEL" in err
    code, _, err = run("check", str(sample_model), "--bogus")
    assert code == 2


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("inspect", "check"):
        code, out, _ = run(command, "--help")
        out += capsys.readouterr().out  # argparse prints help on the process's stdout
        assert code == 0 and "Exit status: 0 fine, 1 error-level findings, 2" in " ".join(out.split())


def test_separate_data_dir(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "model" / "m.onnx")
    (tmp_path / "data").mkdir()
    (tmp_path / "model" / "m.onnx.data").rename(tmp_path / "data" / "m.onnx.data")
    code, out, _ = run("check", str(path), "--data-dir", str(tmp_path / "data"))
    assert code == 0 and "data folder" in out


def test_ort_file_inspect_and_check(tmp_path: Path) -> None:
    from tests.test_inspect import make_ort_file

    path = make_ort_file(add_model(), tmp_path / "model.onnx")  # an .ort named .onnx
    code, out, _ = run("inspect", str(path))
    assert code == 0 and "(ORT format, single file)" in out and "[batch, 64]" in out
    code, out, _ = run("check", str(path), "--json")
    doc = json.loads(out)
    validate(doc, "onnxpack.check/1")
    assert code == 0 and doc["inspection"]["format"] == "ort"


def test_check_text_says_what_became_of_checker_and_shape_inference(sample_model: Path, tmp_path: Path) -> None:
    """Issue 13 item 6: the text output says whether the checker and shape inference ran, passed, failed or
    were skipped."""
    from onnx import TensorProto, helper

    code, out, _ = run("check", str(sample_model))
    assert code == 0
    assert re.search(r"^onnx checker: passed \(\d+\.\d\d s\)$", out, re.M)
    assert re.search(r"^shape inference: passed$", out, re.M)
    # inconsistent types: the checker passes, shape inference fails
    bad = helper.make_model(helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["z"])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("y", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2])]), opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(bad, str(tmp_path / "bad.onnx"))
    code, out, _ = run("check", str(tmp_path / "bad.onnx"))
    assert code == 1 and re.search(r"^shape inference: failed$", out, re.M)
    # newer than the installed onnx knows: both skipped, with the reason
    new = helper.make_model(helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])]), opset_imports=[helper.make_opsetid("", 99)])
    onnx.save(new, str(tmp_path / "new.onnx"))
    code, out, _ = run("check", str(tmp_path / "new.onnx"), "--json")
    checker = json.loads(out)["checker"]
    assert checker["onnx_checker"] == checker["shape_inference"] == "skipped" and "opset 99" in checker["reason"]


def test_inspect_shows_declared_lengths_and_refused_files(tmp_path: Path) -> None:
    """Issue 13 item 10: a missing file keeps its declared length; a refused location is not called MISSING."""
    folder = tmp_path / "m"
    path = save_with_external(add_model(), folder / "model.onnx")
    (folder / "model.onnx.data").unlink()
    code, out, _ = run("inspect", str(path))
    assert code == 1
    assert "model.onnx.data MISSING" in out
    row = next(line for line in out.splitlines() if line.strip().startswith("W1"))
    assert " 256 " in f" {row} "  # 64 floats: the declared length, not "-"
    # a location refused by the rules (onnx's "..", here in a name) while the file exists
    m = onnx.load(str(path), load_external_data=False)
    for t in m.graph.initializer:
        for e in t.external_data:
            if e.key == "location":
                e.value = "w..bin"
    path.write_bytes(m.SerializeToString())
    (folder / "w..bin").write_bytes(b"\0" * 1024)
    code, out, _ = run("inspect", str(path), "--json")
    files = {f["path"]: f for f in json.loads(out)["files"]}
    assert files["w..bin"]["state"] == "refused" and files["w..bin"]["size"] is None
    code, out, _ = run("inspect", str(path))
    assert "w..bin REFUSED" in out and "MISSING" not in out
