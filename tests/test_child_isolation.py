"""Child processes: native output never reaches our stdout; their temporary files go with them (issue 16 C, 11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper


def _cli(*argv: str, tmpdir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TMPDIR": str(tmpdir), "TMP": str(tmpdir), "TEMP": str(tmpdir)}
    return subprocess.run([sys.executable, "-m", "onnxpack.cli", *argv], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def test_checker_warnings_on_stdout_do_not_break_json(tmp_path: Path) -> None:
    """The onnx checker prints "Warning: Model contains experimental ops" to file descriptor 1 of its process."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    graph = helper.make_graph([helper.make_node("Scale", ["x"], ["y"], scale=2.0)], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 1)])
    model.ir_version = 3
    path = tmp_path / "scale.onnx"
    onnx.save(model, str(path))
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _cli("check", str(path), "--json", tmpdir=tmpdir)
    doc = json.loads(proc.stdout)  # the whole of stdout is one JSON document
    assert doc["schema"] == "onnxpack.check/1"
    assert "experimental ops" in proc.stderr  # moved, not lost
    assert list(tmpdir.iterdir()) == []


def test_smoke_child_leaves_nothing_in_the_temporary_folder(tmp_path: Path, sample_model: Path) -> None:
    """onnxruntime creates $TMPDIR/.ses on import and never removes it: the child's private folder goes."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    proc = _cli("smoke", str(sample_model), "--runs", "1", "--json", tmpdir=tmpdir)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ok"] is True
    assert list(tmpdir.iterdir()) == []
