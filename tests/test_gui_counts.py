"""Counts the app shows read right: the model overview's nodes and kinds are Qt plurals ("1 node of 1 kind").
(--prove-ort's "i of N" is the engine's count: tests/test_prove.py checks that N stays the number of releases.)"""

from __future__ import annotations

from pathlib import Path

import onnx
from onnx import TensorProto, helper
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from onnxpack.gui import i18n
from tests.gui_helpers import make_window, wait_idle


def _one_node_model(path: Path) -> Path:
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph([helper.make_node("Relu", ["X"], ["Y"])], "one", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(path))
    return path


def test_operators_read_one_node_of_one_kind(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    w.open_paths([_one_node_model(tmp_path / "m" / "relu.onnx")])
    wait_idle(qtbot, w)
    assert w.model_panel.facts.value("Operators") == "1 node of 1 kind: Relu ×1"

    def tr(text: str, n: int) -> str:
        return QCoreApplication.translate("ModelPanel", text, "", n)

    assert tr("%n node(s)", 5) == "5 nodes" and tr("%1 of %n kind(s): %2", 3) == "%1 of 3 kinds: %2"
    try:
        i18n.install_translators(QApplication.instance(), "ja")
        assert tr("%n node(s)", 1) == "1 ノード" and tr("%1 of %n kind(s): %2", 1) == "%1、1 種類: %2"
    finally:
        i18n.install_translators(QApplication.instance(), "en")
