"""Every command's real ``--json`` output, passing and failing, matches its schema in docs/json-schemas.md."""

from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, ExitStatus, main
from tests.factory import external_model
from tests.test_cli_inspect import ROOT, doc_schema, validate

SAMPLE = ROOT / "resources" / "sample" / "victory.onnx"


def run_json(*argv: str) -> tuple[int, dict[str, Any]]:
    out, err = io.StringIO(), io.StringIO()
    code = int(main([*argv, "--json"], Environment(stdout=out, stderr=err, vars={})))
    assert "Traceback" not in err.getvalue(), err.getvalue()
    doc = json.loads(out.getvalue())
    assert isinstance(doc, dict)
    return code, doc


def check(doc: dict[str, Any], code: int) -> None:
    """The document's schema field names its schema; ok agrees with the exit status."""
    name = doc["schema"]
    validate(doc, name)
    assert doc["ok"] is (code == ExitStatus.OK), (code, doc.get("error"))


def test_every_schema_in_the_page_is_valid_and_named() -> None:
    text = (ROOT / "docs" / "json-schemas.md").read_text(encoding="utf-8")
    names = re.findall(r"<!-- schema: (\S+) -->", text)
    assert set(names) >= {"onnxpack.inspect/1", "onnxpack.check/1", "onnxpack.smoke/1", "onnxpack.merge/1",
                          "onnxpack.ort/1", "onnxpack.bundle/1", "onnxpack.verify/1", "onnxpack.error/1"}
    for name in names:
        assert doc_schema(name)["properties"]["schema"] == {"const": name}


def _failing_model(folder: Path) -> Path:
    """A valid model ONNX Runtime cannot run: Reshape to a shape that does not fit its input."""
    folder.mkdir(parents=True)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    shape = numpy_helper.from_array(np.array([4, 4], np.int64), "shape")
    g = helper.make_graph([helper.make_node("Reshape", ["x", "shape"], ["y"])], "bad", [x], [y], [shape])
    path = folder / "bad.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def test_inspect_check_smoke_merge(tmp_path: Path) -> None:
    ext = external_model(tmp_path / "ext")
    for argv in (("inspect", str(SAMPLE)), ("inspect", str(ext)), ("check", str(SAMPLE)), ("check", str(ext)),
                 ("smoke", str(SAMPLE)), ("smoke", str(ext), "--runs", "2"),
                 ("merge", str(SAMPLE), "-o", str(tmp_path / "m" / "merged.onnx")),
                 ("merge", str(ext), "-o", str(tmp_path / "m" / "moved.onnx"), "--layout", "external",
                  "--checksum"),
                 ("smoke", str(SAMPLE), "--compare", str(tmp_path / "m" / "merged.onnx"))):
        code, doc = run_json(*argv)
        assert code == ExitStatus.OK, (argv, doc)
        check(doc, code)
    assert doc["kind"] == "compare" and doc["compare"]["bitwise_equal"] is True


def test_failing_runs_still_match(tmp_path: Path) -> None:
    bad = _failing_model(tmp_path / "bad")
    code, doc = run_json("smoke", str(bad), "--no-search")
    assert code == 1 and doc["error"]
    check(doc, code)
    # a missing data file: inspect reports it, check fails on it
    ext = external_model(tmp_path / "ext")
    for data in ext.parent.glob("*.data"):
        data.unlink()
    for cmd in ("inspect", "check"):
        code, doc = run_json(cmd, str(ext))
        assert any(f["severity"] == "error" for f in doc["findings"]), doc["findings"]
        check(doc, code)
    code, doc = run_json("bundle", str(bad), "-o", str(tmp_path / "out"), "--version", "1.0.0")
    assert code == 1
    check(doc, code)


@pytest.mark.parametrize("argv", [
    ("inspect", "/nonexistent/model.onnx"),
    ("merge", str(SAMPLE), "-o", str(SAMPLE)),
    ("bundle", str(SAMPLE), "-o", "{tmp}", "--version", "not-a-version"),
    ("verify", "{tmp}/missing.zip"),
    ("smoke", str(SAMPLE), "--dim", "nonsense"),
])
def test_unusable_input_gives_the_error_document(tmp_path: Path, argv: tuple[str, ...]) -> None:
    code, doc = run_json(*(a.replace("{tmp}", str(tmp_path)) for a in argv))
    assert code in (ExitStatus.FINDINGS, ExitStatus.USAGE) and doc["schema"] == "onnxpack.error/1"
    validate(doc, "onnxpack.error/1")


def test_bundle_and_verify(tmp_path: Path) -> None:
    code, doc = run_json("bundle", str(SAMPLE), "-o", str(tmp_path / "out"), "--version", "1.2.0")
    assert code == ExitStatus.OK
    check(doc, code)
    assert {f["role"] for f in doc["files"]} >= {"model", "manifest"}
    manifest_schema = json.loads((ROOT / "resources" / "manifest.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(manifest_schema).validate(doc["manifest"])
    assert doc["smoke"] == doc["manifest"]["smoke"]
    bundle = Path(doc["bundle"])
    code, doc = run_json("verify", str(bundle), "--smoke")
    assert code == ExitStatus.OK and doc["smoke"] is not None
    check(doc, code)
    # a second bundle against the first: the release diff is filled in
    code, doc = run_json("bundle", str(SAMPLE), "-o", str(tmp_path / "out2"), "--version", "1.3.0",
                         "--previous", str(bundle), "--no-smoke")
    assert code == ExitStatus.OK and doc["release"] is not None and doc["smoke"] is None
    check(doc, code)
    # a tampered bundle: verify fails and says why
    bad = tmp_path / "tampered.zip"
    with zipfile.ZipFile(bundle) as src, zipfile.ZipFile(bad, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".onnx"):
                data = data[:-1] + bytes([data[-1] ^ 1])
            dst.writestr(info, data)
    code, doc = run_json("verify", str(bad))
    assert code == 1 and doc["problems"]
    check(doc, code)


def test_ort_conversion(tmp_path: Path) -> None:
    code, doc = run_json("ort", str(SAMPLE), "-o", str(tmp_path / "ort"))
    assert code == ExitStatus.OK
    check(doc, code)
    validate(doc["compare"], "onnxpack.smoke/1")
    code, doc = run_json("inspect", doc["ort_model"])
    assert code == ExitStatus.OK and doc["layout"] == "ort"
    check(doc, code)
    shutil.rmtree(tmp_path / "ort")


def test_a_release_folder_bundle_gives_its_document(tmp_path: Path) -> None:
    """`bundle FOLDER --json` of a release of several files: its name and version, its models' layouts joined by
    "+" (it ended in an internal error, KeyError 'model', reading a schema-1 manifest's model section)."""
    import onnx

    from tests.factory import add_model

    folder = tmp_path / "app"
    (folder / "models").mkdir(parents=True)
    onnx.save(add_model(), str(folder / "models" / "a.onnx"))
    external_model(folder / "models" / "b")
    (folder / "config.json").write_text("{}", encoding="utf-8")
    code, doc = run_json("bundle", str(folder), "-o", str(tmp_path / "out"), "--version", "1.2.3")
    check(doc, code)
    assert code == ExitStatus.OK, doc
    assert (doc["name"], doc["version"], doc["layout"]) == ("app", "1.2.3", "single")
    assert doc["manifest"]["schema"] == "onnxpack.manifest/2" and len(doc["manifest"]["models"]) == 2
