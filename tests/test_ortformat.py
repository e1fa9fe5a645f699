"""ORT-format conversion: onnxruntime's converter on a validated copy, then a smoke comparison."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from onnxpack.core.errors import OnnxpackError, OutputError, RuntimeFailure
from onnxpack.core.model.modelfile import FileKind, sniff
from onnxpack.core.runtime import ortformat
from onnxpack.core.runtime.ortformat import convert_to_ort
from onnxpack.core.runtime.smoke import SmokeOptions, smoke_test
from tests import factory
from tests.test_smoke import inprocess  # noqa: F401  (fixture)


def test_sample_to_ort_fixed(tmp_path: Path, sample_model: Path) -> None:
    before = factory.snapshot(sample_model.parent)
    events: list[str] = []
    out = tmp_path / "ort"
    res = convert_to_ort(sample_model, out, progress=lambda e: events.append(e.stage))
    assert res.ok, res.findings
    assert sorted(p.name for p in out.iterdir()) == ["required_operators.config", "victory.ort"]
    assert sniff(out / "victory.ort") is FileKind.ORT
    assert "Add" in (out / "required_operators.config").read_text() or "Gemm" in (
        out / "required_operators.config"
    ).read_text()
    row = res.compare.outputs[0]
    assert row["within_tolerance"] and (row["max_abs"] or 0) <= 1e-5
    assert res.compare.atol == 1e-5 and res.compare.rtol == 1e-4
    assert "ort" in events and "smoke" in events
    assert factory.snapshot(sample_model.parent) == before
    assert [p.name for p in tmp_path.iterdir()] == ["ort"]  # no temporary folders left behind
    d = res.to_dict()
    assert d["schema"] == "onnxpack.ort/1" and d["ok"] is True


def test_runtime_style_frozen_path_and_ort_smoke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 inprocess: None) -> None:  # noqa: F811
    model = factory.external_model(tmp_path / "m")
    monkeypatch.setattr(ortformat, "_frozen", lambda: True)  # converter runs in a spawn child, not `python -m`
    res = convert_to_ort(model, tmp_path / "out", optimization_style="Runtime", target_platform="arm")
    assert res.ok
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["model.with_runtime_opt.ort", "required_operators.with_runtime_opt.config"]
    # Both conversions the config was made from are named by file only (one was in a temporary folder).
    config = (tmp_path / "out" / "required_operators.with_runtime_opt.config").read_text(encoding="utf-8")
    assert [ln for ln in config.splitlines() if ln.startswith("#")] == [
        "# Generated from model/s:", "# - model.ort", "# - model.with_runtime_opt.ort"
    ]
    assert str(tmp_path) not in config
    r = smoke_test(tmp_path / "out" / "model.with_runtime_opt.ort", options=SmokeOptions(runs=1))
    assert r.ok and r.load == "ort-format bytes" and r.outputs[0]["shape"] == [1, 64]


def test_frozen_converter_writes_its_config_in_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The frozen app's converter child makes the converter's text files UTF-8: under Windows' locale encoding its
    config, which lists the converted files' paths, could not be written in a folder named in Japanese."""
    import builtins
    import multiprocessing

    from onnxruntime.tools.ort_format_model import utils as ort_utils

    monkeypatch.setattr(ort_utils, "open", builtins.open, raising=False)  # (the child sets it: undone after the test)
    folder = tmp_path / "フリーズ テスト"
    src, out = folder / "src", folder / "出力"
    src.mkdir(parents=True)
    onnx.save(onnx.load(str(factory.external_model(tmp_path / "m"))), str(src / "モデル.onnx"))
    parent, child = multiprocessing.Pipe()
    job = {"src": str(src), "out": str(out), "style": "Fixed", "target": None}
    ortformat._converter_child(child, job)  # what the frozen app's spawned child runs, here in this process
    kind, result = parent.recv()
    assert kind == "result" and result["returncode"] == 0, result["log"]
    assert ort_utils.open is ortformat._utf8_text_open
    config = (out / "required_operators.config").read_bytes().decode("utf-8")
    assert "モデル.ort" in config and "フリーズ テスト" in config
    with ortformat._utf8_text_open(tmp_path / "t.txt", "w") as f:
        assert f.encoding == "utf-8"  # asked for (the locale's default reads "UTF-8" here, cp1252 on Windows)
    with ortformat._utf8_text_open(tmp_path / "t.txt", "rb") as b:  # binary files as open's
        assert b.read() == b""
    with ortformat._utf8_text_open(tmp_path / "t.txt", "r", encoding="latin-1") as f:  # a caller's encoding kept
        assert f.encoding == "latin-1"


def test_refusals_leave_nothing_behind(tmp_path: Path, inprocess: None) -> None:  # noqa: F811
    model = factory.external_model(tmp_path / "m")
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x.txt").write_text("keep")
    with pytest.raises(OutputError, match="not empty"):
        convert_to_ort(model, busy)
    with pytest.raises(OnnxpackError, match="optimization-style"):
        convert_to_ort(model, tmp_path / "o", optimization_style="Fast")
    # A model ORT cannot load: the converter fails, no output folder appears.
    graph = helper.make_graph([helper.make_node("Frob", ["x"], ["y"], domain="com.acme")], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])])
    bad = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.acme", 1)])
    bad.ir_version = 8
    onnx.save(bad, str(tmp_path / "bad.onnx"))
    with pytest.raises(RuntimeFailure) as e:
        convert_to_ort(tmp_path / "bad.onnx", tmp_path / "o2")
    assert e.value.code == "ORT_CONVERT" and "Frob" in (e.value.details or e.value.message)
    assert not (tmp_path / "o2").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.onnx", "busy", "m"]
    assert (busy / "x.txt").read_text() == "keep"
    # Missing external data: refused before converting.
    (model.parent / "model.onnx.data").unlink()
    with pytest.raises(OnnxpackError):
        convert_to_ort(model, tmp_path / "o3")
    assert not (tmp_path / "o3").exists()
