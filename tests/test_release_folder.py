"""A release is a folder: every model and the files the app reads beside them, in one verified bundle (schema 2)."""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path
from unittest import mock

import jsonschema
import onnx
import pytest
from onnx import TensorProto, helper

from onnxpack.core.errors import OnnxpackError
from onnxpack.core.release import folderbundle
from onnxpack.core.release.bundle import BundleOptions, build_bundle
from onnxpack.core.release.folder import MAX_RELEASE_PATH, asset_role, scan_folder
from onnxpack.core.release.manifest import RELEASE_SCHEMA, load_release_schema, load_schema, schema_errors
from onnxpack.core.release.verify.verify import verify_bundle

from .factory import add_model, save_with_external


def _classifier(classes: int = 3) -> onnx.ModelProto:
    """X [batch, 4] -> MatMul W [4, classes] -> Y [batch, classes]."""
    import numpy as np
    from onnx import numpy_helper

    w = numpy_helper.from_array(np.arange(4 * classes, dtype=np.float32).reshape(4, classes) / 10, "W")
    graph = helper.make_graph([helper.make_node("MatMul", ["X", "W"], ["Y"])], "c",
                              [helper.make_tensor_value_info("X", TensorProto.FLOAT, ["batch", 4])],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["batch", classes])], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="tests")
    model.ir_version = 8
    return model


def _label_map(path: Path, n: int) -> None:
    names = [f"class{i}" for i in range(n)]
    path.write_text(json.dumps({"label_map": {k: i for i, k in enumerate(names)},
                                "idx_to_label": {str(i): k for i, k in enumerate(names)}}), encoding="utf-8")


@pytest.fixture()
def app(tmp_path: Path) -> Path:
    """The app's models/ folder: en/ and ja/ variants of one classifier (same file name), each with its label map, the
    en one in PyTorch's external-data layout; a config, OS litter and a leftover data file."""
    models = tmp_path / "app" / "models"
    (models / "ja").mkdir(parents=True)
    save_with_external(_classifier(), models / "en" / "victory_classifier.onnx")
    onnx.save(_classifier(), models / "ja" / "victory_classifier.onnx")
    _label_map(models / "en" / "victory_classifier.label_map.json", 3)
    _label_map(models / "ja" / "victory_classifier.label_map.json", 3)
    (models / "settings.json").write_text("{}", encoding="utf-8")
    (models / ".DS_Store").write_bytes(b"\0")
    (models / "__pycache__").mkdir()
    (models / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (models / "old.onnx.data").write_bytes(b"\0" * 64)
    return models


def _bundle(model: Path, out: Path, **kw: object) -> object:
    return build_bundle(BundleOptions(model=model, out_dir=out, version=str(kw.pop("version", "1.2.0")), **kw))


def test_a_folder_is_one_release_with_its_models_and_assets_at_their_paths(app: Path, tmp_path: Path):
    before = {p: p.read_bytes() for p in app.rglob("*") if p.is_file()}
    result = _bundle(app, tmp_path / "dist")
    names = zipfile.ZipFile(result.zip_path).namelist()
    assert sorted(n for n in names if n.startswith("models/")) == [
        "models/en/victory_classifier.label_map.json", "models/en/victory_classifier.onnx",
        "models/ja/victory_classifier.label_map.json", "models/ja/victory_classifier.onnx", "models/settings.json"]
    # onnxpack's own members stay beside the app's folder, never in it; no data file: the en model was merged
    assert {n.split("/")[0] for n in names} == {"models", "smoke", "README.txt", "SHA256SUMS", "manifest.json"}
    doc = result.manifest
    assert doc["schema"] == RELEASE_SCHEMA and not schema_errors(doc)
    jsonschema.validate(doc, load_release_schema(), cls=jsonschema.Draft202012Validator)
    assert doc["bundle"]["name"] == "models" and doc["bundle"]["root"] == "models"
    assert [m["model"]["entry"] for m in doc["models"]] == ["models/en/victory_classifier.onnx",
                                                           "models/ja/victory_classifier.onnx"]
    assert all(m["smoke"]["equal"]["ok"] for m in doc["models"])
    assert doc["models"][0]["provenance"]["layout"] == "external"
    roles = {a["path"]: a["role"] for a in doc["assets"]}
    assert roles["models/en/victory_classifier.label_map.json"] == "label-map"
    assert roles["models/settings.json"] == "config"
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert set(skipped) == {"models/.DS_Store", "models/__pycache__/", "models/old.onnx.data"}
    assert any(f["code"] == "RELEASE_DATA_UNREFERENCED" and "old.onnx.data" in f["message"] for f in doc["findings"])
    sums = zipfile.ZipFile(result.zip_path).read("SHA256SUMS").decode()
    assert all(f["path"] in sums for f in doc["files"] if f["role"] != "checksums")
    readme = zipfile.ZipFile(result.zip_path).read("README.txt").decode()
    assert "models/ja/victory_classifier.onnx" in readme and "models/settings.json" in readme
    assert {p: p.read_bytes() for p in app.rglob("*") if p.is_file()} == before  # inputs never modified
    rep = verify_bundle(result.zip_path, smoke=True)
    assert rep.ok, [p.message for p in rep.problems]
    assert [m["model"] for m in rep.smoke["models"]] == ["models/en/victory_classifier.onnx",
                                                         "models/ja/victory_classifier.onnx"]
    assert all(m["ok"] for m in rep.smoke["models"])


def test_the_unzipped_release_loads_each_model_by_its_relative_path(app: Path, tmp_path: Path):
    import onnxruntime as ort

    result = _bundle(app, tmp_path / "dist")
    out = tmp_path / "unzipped"
    zipfile.ZipFile(result.zip_path).extractall(out)
    os.chdir(out)
    for entry in ("models/en/victory_classifier.onnx", "models/ja/victory_classifier.onnx"):
        session = ort.InferenceSession(entry, providers=["CPUExecutionProvider"])
        assert session.get_outputs()[0].shape[-1] == 3


def test_the_same_folder_gives_the_same_bytes(app: Path, tmp_path: Path):
    """Without the end user's load cost (measured times: --no-load-cost), every byte repeats; the models run two at
    a time (core/release/folderparallel.py) and the bytes are those of a run one after another."""
    a = _bundle(app, tmp_path / "a", load_cost=False).zip_path.read_bytes()
    b = _bundle(app, tmp_path / "b", load_cost=False).zip_path.read_bytes()
    assert a == b
    with mock.patch.object(folderbundle, "PARALLEL_MAX_BYTES", 0):  # one model after another
        c = _bundle(app, tmp_path / "c", load_cost=False).zip_path.read_bytes()
    assert c == a


def test_a_tampered_asset_fails_verify_naming_it(app: Path, tmp_path: Path):
    result = _bundle(app, tmp_path / "dist")
    src = zipfile.ZipFile(result.zip_path)
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w", zipfile.ZIP_STORED) as z:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "models/settings.json":
                data = b'{"x":1}'  # the same size would be caught by the SHA-256; another size by the size
            z.writestr(info, data)
    rep = verify_bundle(bad)
    assert not rep.ok
    assert any("models/settings.json" in p.message for p in rep.problems)


def test_a_label_map_with_the_wrong_class_count_is_refused_unless_allowed(app: Path, tmp_path: Path):
    _label_map(app / "ja" / "victory_classifier.label_map.json", 5)
    with pytest.raises(OnnxpackError) as e:
        _bundle(app, tmp_path / "dist")
    assert e.value.code == "RELEASE_LABELS"
    assert "models/ja/victory_classifier.label_map.json" in e.value.message and "5" in e.value.message
    assert not (tmp_path / "dist" / "models-1.2.0.zip").exists()
    result = _bundle(app, tmp_path / "dist", allow_unmatched_labels=True)
    assert any(f["code"] == "RELEASE_LABELS" and f["severity"] == "error" for f in result.manifest["findings"])


def test_two_data_files_that_differ_only_in_case_are_refused_naming_both(tmp_path: Path):
    if sys.platform != "linux":
        pytest.skip("needs a case-sensitive file system to make the two files")
    folder = tmp_path / "m"
    save_with_external(add_model(), folder / "a.onnx", location="W.bin")
    save_with_external(add_model(), folder / "b.onnx", location="w.bin")
    with pytest.raises(OnnxpackError) as e:
        scan_folder(folder)
    assert e.value.code == "RELEASE_COLLISION"
    assert "m/W.bin" in e.value.message and "m/w.bin" in e.value.message


def test_a_missing_data_file_is_refused_naming_model_and_file(tmp_path: Path):
    folder = tmp_path / "m"
    save_with_external(add_model(), folder / "a.onnx")
    (folder / "a.onnx.data").unlink()
    (folder / "labels.txt").write_text("x\n", encoding="utf-8")
    with pytest.raises(OnnxpackError) as e:
        scan_folder(folder)
    assert "m/a.onnx" in e.value.message and "a.onnx.data" in e.value.message


def test_a_data_file_outside_the_folder_is_refused(tmp_path: Path):
    folder = tmp_path / "m"
    save_with_external(add_model(), folder / "sub" / "a.onnx", location="../../shared.bin")
    assert (tmp_path / "shared.bin").is_file()
    (folder / "labels.txt").write_text("x\n", encoding="utf-8")
    with pytest.raises(OnnxpackError) as e:
        _bundle(folder, tmp_path / "dist")
    assert "m/sub/a.onnx" in e.value.message and "shared.bin" in e.value.message
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").iterdir())


def test_links_and_long_paths_are_refused(tmp_path: Path):
    folder = tmp_path / "m"
    folder.mkdir()
    onnx.save(_classifier(), folder / "a.onnx")
    (folder / "link.json").symlink_to(folder / "a.onnx")
    with pytest.raises(OnnxpackError) as e:
        scan_folder(folder)
    assert e.value.code == "RELEASE_LINK" and "m/link.json" in e.value.message
    (folder / "link.json").unlink()
    deep = folder / ("d" * 100) / ("e" * 100)
    deep.mkdir(parents=True)
    (deep / "x.txt").write_text("x", encoding="utf-8")
    with pytest.raises(OnnxpackError) as e:
        scan_folder(folder)
    assert e.value.code == "RELEASE_PATH" and str(MAX_RELEASE_PATH) in e.value.message


def test_exclude_leaves_files_out_and_names_them(app: Path, tmp_path: Path):
    tree = scan_folder(app, exclude=["settings.json", "ja/*"])
    assert [m.member for m in tree.models] == ["models/en/victory_classifier.onnx"]
    assert "models/settings.json" not in {a.member for a in tree.assets}
    reasons = dict(tree.skipped)
    assert reasons["models/settings.json"] == "excluded by --exclude settings.json"


def test_a_single_model_with_an_asset_keeps_both_beside_each_other(tmp_path: Path):
    folder = tmp_path / "models"
    folder.mkdir()
    onnx.save(_classifier(), folder / "victory_classifier.onnx")
    _label_map(folder / "victory_classifier.label_map.json", 3)
    result = _bundle(folder / "victory_classifier.onnx", tmp_path / "dist",
                     assets=[folder / "victory_classifier.label_map.json"])
    names = zipfile.ZipFile(result.zip_path).namelist()
    assert "models/victory_classifier.onnx" in names and "models/victory_classifier.label_map.json" in names
    assert result.manifest["bundle"]["name"] == "victory_classifier"
    assert verify_bundle(result.zip_path).ok


def test_a_single_model_without_assets_bundles_as_before(tmp_path: Path):
    folder = tmp_path / "one"
    save_with_external(add_model(), folder / "model.onnx")
    result = _bundle(folder, tmp_path / "dist")
    assert result.manifest["schema"] == "onnxpack.manifest/1"
    assert sorted(zipfile.ZipFile(result.zip_path).namelist())[-1] == "smoke/outputs/Y.npy"
    jsonschema.validate(result.manifest, load_schema(), cls=jsonschema.Draft202012Validator)


def test_previous_names_an_added_model_and_suggests_a_minor_version(app: Path, tmp_path: Path):
    first = _bundle(app, tmp_path / "v1", exclude=["ja"])
    assert [m["model"]["entry"] for m in first.manifest["models"]] == ["models/en/victory_classifier.onnx"]
    second = _bundle(app, tmp_path / "v2", version="1.3.0", previous=first.zip_path)
    rel = second.manifest["release"]
    assert rel["bump"] == "minor" and rel["suggested_version"] == "1.3.0"
    added = [c for c in rel["changes"] if c["kind"] == "model_added"]
    assert [c["subject"] for c in added] == ["models/ja/victory_classifier.onnx"]


def test_a_schema_1_bundle_still_verifies(tmp_path: Path):
    folder = tmp_path / "one"
    save_with_external(add_model(), folder / "model.onnx")
    result = _bundle(folder, tmp_path / "dist")
    assert verify_bundle(result.zip_path, smoke=True).ok


@pytest.mark.parametrize(("name", "role"), [
    ("victory_classifier.label_map.json", "label-map"), ("labels.txt", "label-map"), ("tokenizer.json", "tokenizer"),
    ("tokenizer_config.json", "tokenizer"), ("spiece.model", "tokenizer"), ("vocab.txt", "tokenizer"),
    ("config.json", "config"), ("generation_config.json", "config"), ("model_index.json", "config"),
    ("notes.md", "other")])
def test_asset_roles_follow_the_names_exporters_give(name: str, role: str):
    assert asset_role(name) == role


def test_layout_keep_ships_the_files_as_they_are_and_still_proves_and_runs_them(app: Path, tmp_path: Path):
    result = _bundle(app, tmp_path / "dist", layout="keep")
    z = zipfile.ZipFile(result.zip_path)
    for rel in ("en/victory_classifier.onnx", "en/victory_classifier.onnx.data", "ja/victory_classifier.onnx"):
        assert z.read(f"models/{rel}") == (app / rel).read_bytes()
    en = result.manifest["models"][0]
    assert en["model"]["layout"] == "external" and en["model"]["data"] == "models/en/victory_classifier.onnx.data"
    assert en["smoke"]["equal"]["weights"]["method"] == "file-sha256"
    rep = verify_bundle(result.zip_path, smoke=True)
    assert rep.ok, [p.message for p in rep.problems]


def test_layout_keep_refuses_an_option_that_changes_the_model(tmp_path: Path):
    folder = tmp_path / "one"
    save_with_external(add_model(), folder / "model.onnx")
    with pytest.raises(OnnxpackError) as e:
        _bundle(folder / "model.onnx", tmp_path / "dist", layout="keep", set_model_version=True)
    assert e.value.code == "LAYOUT_KEEP_CHANGED"
    assert not (tmp_path / "dist").exists() or not list((tmp_path / "dist").glob("*.zip"))


def test_a_single_model_in_the_keep_layout_verifies(tmp_path: Path):
    folder = tmp_path / "one"
    save_with_external(add_model(), folder / "model.onnx")
    result = _bundle(folder / "model.onnx", tmp_path / "dist", layout="keep")
    assert result.manifest["model"]["data"] == "model.onnx.data"
    assert verify_bundle(result.zip_path, smoke=True).ok
