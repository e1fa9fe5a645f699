"""One name rule (core/names.py) for bundle members, bundle names and external-data locations (issue 16 item 7)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from onnxpack.core.errors import InputError
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.names import check_bundle_name as _check_name
from onnxpack.core.names import component_problem
from onnxpack.core.release.zipcheck import scan_archive
from tests.test_extdata import _one_tensor_model

BAD_NAMES = ["COM\u00b9.txt", "LPT\u00b3", "COM0", "lpt0.bin", "CONIN$", "conout$.x", "NUL .txt", "AUX .txt", "con",
             "x\u0085y", "a\u2028b", "evil\u202egpj.exe", "trailing.", "trailing ", "a:b", "q?.txt"]
GOOD_NAMES = ["model.onnx", "weights.onnx.data", "v1.0.0", "日本語モデル.onnx", "a b.txt", "COMPUTE.txt", "CONSOLE",
              "nul_data.bin", "LPT10"]


def _member_codes(name: str) -> list[str]:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(f"dir/{name}", b"a")
    data = buf.getvalue()
    return [p.code for p in scan_archive(io.BytesIO(data), len(data)).problems]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_names_are_refused_everywhere(name: str, tmp_path: Path) -> None:
    assert component_problem(name) is not None
    assert "ZIP_BAD_NAME" in _member_codes(name)
    if not name.endswith((".", " ")):  # a bundle name is not a file name itself: NAME.onnx is ("trailing..onnx")
        with pytest.raises(InputError) as ei:
            _check_name(name)
        assert ei.value.code == "BAD_NAME"
    table = resolve_external_data(_one_tensor_model(tmp_path, location=f"sub/{name}"), tmp_path)
    assert "EXTDATA_BAD_LOCATION" in [f.code for f in table.findings]


@pytest.mark.parametrize("name", GOOD_NAMES)
def test_ordinary_names_pass_everywhere(name: str) -> None:
    assert component_problem(name) is None
    assert _member_codes(name) == []
    assert _check_name(name) == name


def test_default_bundle_name_is_the_same_in_the_cli_and_the_gui(tmp_path):
    """The file's stem as it is: no 'model' fallback for Japanese names, no '-' for spaces (issue 14 items 10, 12)."""
    from onnxpack.core.names import default_bundle_name
    from onnxpack.core.release.bundle import default_name
    from onnxpack.gui.widgets.queue_view import default_bundle_name as gui_default

    for file, expected in (("勝利モデル.onnx", "勝利モデル"), ("My Model.onnx", "My Model"), ("v.2.ONNX", "v.2"),
                           ("net.ort", "net")):  # fmt: skip
        path = tmp_path / file
        assert default_bundle_name(path) == default_name(path) == gui_default(path) == expected
        assert _check_name(expected) == expected
