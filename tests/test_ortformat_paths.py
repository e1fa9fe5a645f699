"""`--ort-format` / `onnxpack ort` with relative paths: nothing may depend on the current folder."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.runtime.ortformat import convert_to_ort
from tests import factory


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    return int(code), out.getvalue(), err.getvalue()


def _config_header(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.startswith("#")]


def test_ort_cli_relative_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`onnxpack ort m/model.onnx -o out` run from the model's parent folder (the issue's report)."""
    factory.external_model(tmp_path / "m")
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(["ort", "m/model.onnx", "-o", "out", "--json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["ok"] is True
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["model.ort", "required_operators.config"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m", "out"]  # no temporary folder left behind
    # The config names the model file, not the temporary folder it was converted in.
    header = _config_header((tmp_path / "out" / "required_operators.config").read_text(encoding="utf-8"))
    assert header == ["# Generated from model/s:", "# - model.ort"]


def test_ort_relative_output_below_a_subfolder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    factory.external_model(tmp_path / "m")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "m")
    res = convert_to_ort("model.onnx", Path("..") / "sub" / "out")
    assert res.ok
    assert sorted(p.name for p in (tmp_path / "sub" / "out").iterdir()) == ["model.ort", "required_operators.config"]
    assert res.ort_model.is_file() and res.ort_model.is_absolute()


def test_bundle_cli_relative_output_with_ort_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`onnxpack bundle m.onnx -o out --version 1.0.0 --ort-format` from the model's folder."""
    factory.external_model(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, _out, err = _run(["bundle", "model.onnx", "-o", "out", "--version", "1.0.0", "--ort-format"])
    assert code == 0, err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["model-1.0.0.zip"]
    with zipfile.ZipFile(tmp_path / "out" / "model-1.0.0.zip") as zf:
        assert zf.read("model.ort")[4:8] == b"ORTM"
        config = zf.read("model.required_operators.config").decode("utf-8")
    assert _config_header(config) == ["# Generated from model/s:", "# - model.ort"]
    code, _out, err = _run(["verify", "out/model-1.0.0.zip", "--smoke"])
    assert code == 0, err
