"""A PyTorch checkpoint given where a model or a bundle is expected (issue 41 item 12): named as one, with
torch.onnx.export as the way forward, by inspect, check and bundle (MODEL_IS_PYTORCH) and by verify (BUNDLE_NOT_ZIP,
variant "pytorch": a usage error, not "FAILED: do not use this bundle"). torch is not needed: the files are made as
torch.save writes them (a ZIP whose first member is <name>/data.pkl; the legacy format, a protocol-2 pickle starting
with torch's magic number)."""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.model.modelfile import FileKind, sniff
from tests.factory import add_model

TORCH_LEGACY_MAGIC = 0x1950A86A20F9469CFC6C


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={}))
    return int(code), out.getvalue(), err.getvalue()


def _checkpoint(path: Path, stem: str = "victory_classifier", data_first: bool = True) -> Path:
    members = [(f"{stem}/data.pkl", pickle.dumps({"fc.weight": 1}, protocol=2)), (f"{stem}/byteorder", b"little"),
               (f"{stem}/data/0", b"\0" * 256), (f"{stem}/version", b"3\n")]
    if not data_first:
        members.reverse()
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members:
            z.writestr(name, data)
    return path


def _legacy(path: Path) -> Path:
    path.write_bytes(pickle.dumps(TORCH_LEGACY_MAGIC, protocol=2) + pickle.dumps({"a": 1}, protocol=2))
    return path


FILES = {
    "zip": lambda p: _checkpoint(p / "victory_classifier.pth"),
    "zip-archive-data-last": lambda p: _checkpoint(p / "model.pt", "archive", data_first=False),
    "zip-named-zip": lambda p: _checkpoint(p / "ckpt.zip", "archive"),
    "legacy-pickle": lambda p: _legacy(p / "old.pth"),
}


@pytest.mark.parametrize("case", sorted(FILES))
def test_inspect_check_and_bundle_name_a_pytorch_checkpoint(case: str, tmp_path: Path) -> None:
    path = FILES[case](tmp_path)
    assert sniff(path) is FileKind.PYTORCH
    for argv in (["inspect", str(path)], ["check", str(path)],
                 ["bundle", str(path), "-o", str(tmp_path / "dist"), "--version", "1.0.0"]):
        code, out, err = run(*argv, "--json")
        assert code == 2, (argv, out, err)
        error = json.loads(out)["error"]
        assert error["code"] == "MODEL_IS_PYTORCH", error
        assert path.name in error["message"] and "torch.onnx.export" in error["hint"]
        assert ("PyTorch checkpoint" if case != "legacy-pickle" else "legacy torch.save") in error["message"]
        assert "extract the model" not in error["hint"]
    assert not (tmp_path / "dist").exists()


@pytest.mark.parametrize("case", sorted(FILES))
def test_verify_says_it_is_a_checkpoint_not_a_broken_bundle(case: str, tmp_path: Path) -> None:
    path = FILES[case](tmp_path)
    code, out, err = run("verify", str(path))
    assert code == 2, out + err
    assert "FAILED" not in out + err and "not an onnxpack bundle" in err and "torch.onnx.export" in err


def test_other_zips_and_models_are_not_taken_for_checkpoints(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(add_model().SerializeToString())
    assert sniff(model) is FileKind.ONNX
    other = tmp_path / "models.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("m.onnx", model.read_bytes())
        z.writestr("notes/data.pkl", b"x")  # data.pkl, but not torch's first member, and...
        z.writestr("manifest.json", b"{}")  # ...an onnxpack bundle's manifest: a (broken) bundle, not a checkpoint
    assert sniff(other) is FileKind.ZIP
    code, out, _err = run("inspect", str(other), "--json")
    assert code == 2 and json.loads(out)["error"]["code"] == "MODEL_IS_ZIP"
