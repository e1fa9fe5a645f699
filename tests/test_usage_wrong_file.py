"""Issue 26 item 2: the wrong file gets the right message — a usage error (exit 2) that says what the file is and
what the command takes, while a damaged or crafted bundle keeps its alarm (exit 1)."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from tests import factory


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    return int(code), out.getvalue(), err.getvalue()


def _error(*argv: str) -> tuple[int, dict[str, str], str]:
    code, out, err = _run(*argv, "--json")
    return code, json.loads(out)["error"], err


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bundle of a small external-data model (model.onnx + model.onnx.data in its folder m/)."""
    root = tmp_path_factory.mktemp("release")
    model = factory.external_model(root / "m")
    code, _, err = _run("bundle", str(model), "-o", str(root / "dist"), "--version", "1.0.0", "--no-smoke", "-q")
    assert code == 0, err
    return root


def test_inspect_of_the_data_file_names_the_model_that_uses_it(release: Path) -> None:
    data = release / "m" / "model.onnx.data"
    for command in ("inspect", "check"):
        code, error, err = _error(command, str(data))
        assert code == 2 and error["code"] == "MODEL_IS_DATA", (command, error)
        assert error["message"] == "model.onnx.data is external data (the weights) of model.onnx, not a model"
        assert str(release / "m" / "model.onnx") in error["hint"] and "Traceback" not in err
        assert "protobuf" not in error["message"] and "export it again" not in error["hint"]


def test_a_data_file_alone_is_still_recognised_by_its_name(release: Path, tmp_path: Path) -> None:
    alone = tmp_path / "weights.onnx.data"
    shutil.copyfile(release / "m" / "model.onnx.data", alone)
    code, error, _ = _error("inspect", str(alone))
    assert code == 2 and error["code"] == "MODEL_IS_DATA"
    assert "no .onnx beside it refers to it" in error["message"] and ".onnx model file" in error["hint"]
    # bytes that are no model and not named like data keep the parse error
    junk = tmp_path / "junk.onnx"
    shutil.copyfile(alone, junk)
    code, error, _ = _error("inspect", str(junk))
    assert code == 2 and error["code"] == "MODEL_FORMAT" and "protobuf could not parse it" in error["message"]


def test_verify_of_a_model_or_a_manifest_is_a_usage_error(release: Path, tmp_path: Path) -> None:
    code, error, _ = _error("verify", str(release / "m" / "model.onnx"))
    assert code == 2 and error["code"] == "BUNDLE_NOT_ZIP"
    assert error["message"] == "model.onnx is an ONNX model: a bundle .zip is expected"
    assert "onnxpack check" in error["hint"]
    with zipfile.ZipFile(release / "dist" / "model-1.0.0.zip") as zf:
        (tmp_path / "manifest.json").write_bytes(zf.read("manifest.json"))
    code, out, err = _run("verify", str(tmp_path / "manifest.json"))
    assert code == 2 and out == ""
    assert "error: manifest.json is a manifest taken out of a bundle: a bundle .zip is expected" in err
    assert "do not use this bundle" not in err + out and "crafted" not in err


def test_a_damaged_or_fake_zip_keeps_its_alarm(release: Path, tmp_path: Path) -> None:
    fake = tmp_path / "release.zip"  # named as a bundle but holding no archive: the download went wrong
    fake.write_bytes(b"<html>not found</html>")
    code, out, _ = _run("verify", str(fake))
    assert code == 1 and "ZIP_NOT_ZIP" in out and "FAILED: do not use this bundle." in out
    cut = tmp_path / "cut.bin"  # a truncated bundle under another name still starts like a ZIP
    cut.write_bytes((release / "dist" / "model-1.0.0.zip").read_bytes()[:300])
    code, out, _ = _run("verify", str(cut))
    assert code == 1 and "damaged or crafted" in out


def test_previous_takes_the_earlier_release_zip(release: Path, tmp_path: Path) -> None:
    model = release / "m" / "model.onnx"
    code, error, _ = _error("bundle", str(model), "-o", str(tmp_path / "o"), "--version", "1.1.0", "--no-smoke",
                            "--previous", str(model))
    assert code == 2 and error["code"] == "PREVIOUS_NOT_BUNDLE"
    assert error["message"].startswith("model.onnx is an ONNX model, not a previous release: --previous takes the "
                                       "earlier release's bundle .zip")
    assert "damaged or edited by hand" not in error["message"] + error["hint"]
    notes = tmp_path / "notes.txt"
    notes.write_text("release notes\n", encoding="utf-8")
    code, error, _ = _error("bundle", str(model), "-o", str(tmp_path / "o"), "--version", "1.1.0", "--no-smoke",
                            "--previous", str(notes))
    assert code == 2 and error["code"] == "PREVIOUS_NOT_BUNDLE" and "notes.txt is a text file" in error["message"]
    assert not (tmp_path / "o").exists()
    # the earlier release's zip (and its manifest.json) still work
    code, _, err = _run("bundle", str(model), "-o", str(tmp_path / "o"), "--version", "1.1.0", "--no-smoke", "-q",
                        "--previous", str(release / "dist" / "model-1.0.0.zip"))
    assert code == 0, err


def test_a_data_file_that_looks_like_text_or_is_empty_is_still_data(tmp_path: Path) -> None:
    model = factory.external_model(tmp_path / "m")
    data = model.parent / "model.onnx.data"
    for content in (b"", b"weights as printable bytes " * 10):
        data.write_bytes(content)
        code, error, _ = _error("inspect", str(data))
        assert code == 2 and error["code"] == "MODEL_IS_DATA", (content[:8], error)
        assert error["message"] == "model.onnx.data is external data (the weights) of model.onnx, not a model"
