"""`bundle --prove-ort` end to end with two stand-in releases (this interpreter's onnxruntime under other names, no
download): the same input gives the same ZIP byte for byte (issue 41 §2: the manifest once recorded load/run times;
they are in the JSON result now), a relative -o works (issue 39 §4: the reference run got a relative path), and
`--target-app Cargo.lock --prove-ort auto` proves the app's own release (issue 41 §11)."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest

from onnxpack.cli import main
from onnxpack.core.runtime import prove, wheeltable
from onnxpack.core.runtime.releaseenvs import ReleaseEnv
from tests.test_retarget import ir10_model

EPOCH = 1_700_000_000


@pytest.fixture
def stand_ins(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A table of stand-in releases; each "installs" as this interpreter, and its run reports its own version."""
    versions = ["7.1.0", "7.1.3", "7.4.2", "7.9.0"]
    table = {"onnxruntime": {v: {"py3-none-any": "a" * 64} for v in versions},
             "numpy": {"2.99.0": {"py3-none-any": "b" * 64}}}
    monkeypatch.setattr(wheeltable, "table", lambda: table)

    def ensure(version: str, *_: Any, **__: Any) -> ReleaseEnv:
        return ReleaseEnv(version, Path(sys.executable), f"onnxruntime-{version}-py3-none-any.whl", "a" * 64,
                          np.__version__)

    real = prove._run_child

    def run_child(python: str, model: Path, window: Any, inputs: Any, tmp: Path, label: str, *a: Any) -> Any:
        raw = real(python, model, window, inputs, tmp, label, *a)
        if label.startswith("ort-"):
            raw["ort_version"] = label[4:]
        return raw

    monkeypatch.setattr(prove, "ensure_release", ensure)
    monkeypatch.setattr(prove, "_run_child", run_child)
    return versions


def _model(folder: Path) -> Path:
    model = ir10_model()
    model.ir_version = 8
    onnx.save(model, folder / "m.onnx")
    return folder / "m.onnx"


def test_two_prove_ort_bundles_are_the_same_bytes(stand_ins: list[str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    model = _model(tmp_path)
    docs = []
    for out in ("a", "b"):
        code = main(["bundle", str(model), "-o", str(tmp_path / out), "--version", "1.0.0", "--prove-ort",
                     "7.1.3,7.9.0", "--no-load-cost", "--json", "-q"])
        assert code == 0
        docs.append(json.loads(capsys.readouterr().out))
    a, b = (tmp_path / "a" / "m-1.0.0.zip").read_bytes(), (tmp_path / "b" / "m-1.0.0.zip").read_bytes()
    assert a == b
    with zipfile.ZipFile(tmp_path / "a" / "m-1.0.0.zip") as zf:
        manifest = json.loads(zf.read("manifest.json"))
    releases = manifest["prove_ort"]["releases"]
    assert [r["version"] for r in releases] == ["7.1.3", "7.9.0"] and all(r["ok"] for r in releases)
    assert not {"load_s", "run_s"} & {k for r in releases for k in r}  # no times in the ZIP
    timings = docs[0]["prove_ort_timings"]  # they are in the JSON result
    assert [t["version"] for t in timings["releases"]] == ["7.1.3", "7.9.0"]
    assert all(isinstance(t["load_s"], float) and isinstance(t["run_s"], float) for t in timings["releases"])
    assert isinstance(timings["reference"]["run_s"], float)


def test_a_relative_output_folder_with_prove_ort(stand_ins: list[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """-o dist (relative): every run finds the model (the children work in folders of their own)."""
    _model(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["bundle", "m.onnx", "-o", "dist", "--version", "1.0.0", "--prove-ort", "7.4", "-q"]) == 0
    with zipfile.ZipFile(tmp_path / "dist" / "m-1.0.0.zip") as zf:
        (rel,) = json.loads(zf.read("manifest.json"))["prove_ort"]["releases"]
    assert (rel["version"], rel["ok"]) == ("7.4.2", True)


def test_auto_proves_the_release_the_app_embeds(stand_ins: list[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's Cargo.lock names ort 2.0.0-rc.10 (ONNX Runtime 1.22): `auto` proves 1.22 as well as the oldest the
    model claims and the newest. The stand-in table holds 1.22 under its real name here, beside stand-ins."""
    from onnxpack.core.checks.targetapp import ORT_CRATE_RELEASES

    crate, ort = ORT_CRATE_RELEASES[-1]
    minor = ".".join(ort.split(".")[:2])
    table = wheeltable.table()
    table["onnxruntime"][f"{minor}.99"] = {"py3-none-any": "c" * 64}
    table["onnxruntime"]["99.0.0"] = {"py3-none-any": "d" * 64}
    lock = tmp_path / "Cargo.lock"
    lock.write_text(f'version = 3\n\n[[package]]\nname = "ort"\nversion = "{crate}"\n', encoding="utf-8")
    _model(tmp_path)
    code = main(["bundle", str(tmp_path / "m.onnx"), "-o", str(tmp_path / "out"), "--version", "1.0.0",
                 "--target-app", str(lock), "--prove-ort", "auto", "-q"])
    assert code == 0
    with zipfile.ZipFile(tmp_path / "out" / "m-1.0.0.zip") as zf:
        proven = [r["version"] for r in json.loads(zf.read("manifest.json"))["prove_ort"]["releases"]]
        readme = zf.read("README.txt").decode()
    assert f"{minor}.99" in proven and "99.0.0" in proven, proven
    assert f"{minor}.99" in readme


def test_a_frozen_app_bundles_proven_on_the_onnxruntime_it_carries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`bundle --prove-ort` in the frozen app: the release it carries needs no environment (the gate once asked for
    one first, and so for a Python), the manifest names no wheel for it and says why, README.txt too; another
    release is refused before any work."""
    from onnxpack.core.checks.compat import ort_package_version
    from onnxpack.core.release.verify.verify import verify_bundle

    def no_env(version: str, *_: Any, **__: Any) -> ReleaseEnv:
        raise AssertionError(f"an environment of {version} was made")

    monkeypatch.setattr(prove, "_frozen", lambda: True)
    monkeypatch.setattr(prove, "ensure_release", no_env)
    monkeypatch.delenv("ONNXPACK_PYTHON", raising=False)
    carried = str(ort_package_version())
    model = _model(tmp_path)
    code = main(["bundle", str(model), "-o", str(tmp_path / "out"), "--version", "1.0.0", "--prove-ort", carried,
                 "--no-load-cost", "-q"])
    out = capsys.readouterr().out
    assert code == 0 and f"    {carried}: loaded, bitwise-equal outputs (carried by this frozen onnxpack)" in out, out
    zip_path = tmp_path / "out" / "m-1.0.0.zip"
    with zipfile.ZipFile(zip_path) as zf:
        manifest = json.loads(zf.read("manifest.json"))
        readme = zf.read("README.txt").decode("utf-8")
    section = manifest["prove_ort"]
    assert section["ok"] is True and section["reference_ort"] == carried
    assert [(r["version"], r["wheel"], r["wheel_sha256"]) for r in section["releases"]] == [(carried, None, None)]
    assert len(section["notes"]) == 1 and "this frozen onnxpack carries" in section["notes"][0]
    assert "carried by the frozen onnxpack" in readme and "each its official wheel" not in readme
    assert verify_bundle(zip_path).ok

    code = main(["bundle", str(model), "-o", str(tmp_path / "other"), "--version", "1.0.0", "--prove-ort", "1.20.1",
                 "--no-load-cost", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "needs a Python interpreter" in err and f"--prove-ort {carried}" in err
    assert not (tmp_path / "other").exists()
