"""onnxpack.core.model.layout: the layout type equals, prints and serializes as its string, and names its files."""

from __future__ import annotations

import json

from onnxpack.core.model.layout import AUTO, LAYOUTS, Layout


def test_a_layout_is_its_string() -> None:
    assert Layout.SINGLE == "single" and Layout("external") is Layout.EXTERNAL and Layout.ORT == "ort"
    assert f"{Layout.EXTERNAL}" == str(Layout.EXTERNAL) == "external" and f"{Layout.ORT:>4}" == " ort"
    assert json.dumps({"layout": Layout.SINGLE}) == '{"layout": "single"}'
    assert LAYOUTS == (AUTO, "single", "external")


def test_a_layout_names_its_files() -> None:
    assert Layout.SINGLE.entry_names("m") == ("m.onnx",)
    assert Layout.EXTERNAL.entry_names("m") == ("m.onnx", "m.onnx.data")
    assert Layout.ORT.entry_names("m") == ("m.ort",)
    assert Layout.data_name("out.onnx") == "out.onnx.data"
