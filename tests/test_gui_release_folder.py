"""GUI (issue 36 item 7): a folder holding a release of several files is one row of the release kind — its models,
assets and what it leaves out listed, each model's own panels — bundled into one ZIP by the engine
(BundleOptions(model=FOLDER)); the choice to bundle each model on its own gives one row per model; a verified
schema-2 bundle shows its models and assets."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.resources import SAMPLE_MODEL, resource_path
from onnxpack.gui.model.state import ItemState, Kind
from tests.gui_helpers import close_dialogs, make_window, wait_idle, wait_state

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LABELS = {"idx_to_label": {"0": "victory", "1": "defeat", "2": "other"}}


def _release(tmp_path: Path) -> Path:
    """victory/en/ and victory/ja/ (the sample model with its .data, twice) and victory/victory.label_map.json."""
    root = tmp_path / "victory"
    sample = resource_path(*SAMPLE_MODEL)
    for lang in ("en", "ja"):
        (root / lang).mkdir(parents=True)
        for f in sample.parent.glob(sample.name + "*"):
            shutil.copy(f, root / lang / f.name)
    (root / "victory.label_map.json").write_text(json.dumps(LABELS), encoding="utf-8")
    (root / ".DS_Store").write_bytes(b"litter")
    return root


def _opened(qtbot: Any, tmp_path: Path) -> tuple[Any, Any, Path]:
    w = make_window(qtbot, tmp_path)
    root = _release(tmp_path)
    (item,) = w.open_paths([root])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state is ItemState.READY, close_dialogs(w)
    return w, item, root


def test_a_release_folder_is_one_row_listing_its_models_and_assets(qtbot: Any, tmp_path: Path) -> None:
    w, item, root = _opened(qtbot, tmp_path)
    assert len(w.model.items) == 1 and item.kind is Kind.RELEASE and item.path == root
    assert w.queue.kind_text(item.kind) == "Release"
    assert w.queue.item(0, 0).text() == "victory"
    assert w.queue.item(0, 3).text() == "2 models, 1 asset"  # what it holds, until it is bundled
    assert "2 models, 1 asset" in w.queue.item(0, 0).toolTip()
    assert w.queue.status_text(item) == "Ready"
    panel = w.model_panel
    assert "victory 1.0.0 — 2 models, 1 asset" in panel.title.text()
    assert panel.tabs.isTabVisible(4) and panel.tabs.tabText(4) == "Release"
    assert [panel.release_models.cell_text(r, 0) for r in range(2)] == [
        f"victory/{lang}/victory.onnx\nwith its data: victory.onnx.data" for lang in ("en", "ja")]  # not an asset
    assert panel.release_assets.rowCount() == 1
    assert panel.release_assets.cell_text(0, 0) == "victory/victory.label_map.json"
    assert panel.release_assets.cell_text(0, 1) == "label map"
    assert panel.release_assets.cell_text(0, 2) == f"{len(json.dumps(LABELS))} B"
    assert panel.release_skipped.cell_text(0, 0) == "victory/.DS_Store"
    assert panel.release_skipped.cell_text(0, 1) == "hidden"
    # each model's own panels, chosen within the row
    assert not panel.chooser_bar.isHidden() and panel.chooser.count() == 2
    assert "Showing victory/en/victory.onnx" in panel.title.text()
    panel.chooser.activated.emit(1)
    assert item.shown_model == 1 and "Showing victory/ja/victory.onnx (model 2 of 2)" in panel.title.text()
    assert panel.interface.rowCount() == 2  # the sample's input and output
    # Bundle is on for the release as a whole; the Bundle tab names the release
    assert w.act_bundle.isEnabled() and item.draft.name == "victory"
    assert w.bundle_panel.form_box.title() == f"This release: {root.name}"  # (it said "This model")
    # another row selected: nothing of the release stays in the panels
    sample = w.open_paths([resource_path(*SAMPLE_MODEL)])[0]
    wait_state(qtbot, sample, ("ready",))
    w._select(sample)
    assert panel.chooser_bar.isHidden() and not panel.tabs.isTabVisible(4)
    assert panel.release_models.rowCount() == 0 and panel.release_assets.rowCount() == 0


def test_bundling_the_release_row_writes_one_zip_of_both_models(qtbot: Any, tmp_path: Path) -> None:
    w, item, root = _opened(qtbot, tmp_path)
    item.draft.version = "1.2.0"
    w.render_selected()
    assert "victory 1.2.0 — 2 models, 1 asset" in w.model_panel.title.text()
    started = w.start_bundles()
    assert started == [item] and item.options is not None
    assert Path(item.options.model) == root and item.options.data_dir is None  # bundle FOLDER, through the worker
    wait_state(qtbot, item, ("done", "failed"), timeout=120_000)
    assert item.state is ItemState.DONE, close_dialogs(w)
    zip_path = Path(item.result.zip_path)
    assert zip_path.name == "victory-1.2.0.zip" and w.queue.item(0, 3).text() == zip_path.name
    assert item.run is not None and item.run.title == "victory 1.2.0 — 2 models, 1 asset"
    with zipfile.ZipFile(zip_path) as z:
        names = set(z.namelist())
    assert {"victory/en/victory.onnx", "victory/ja/victory.onnx", "victory/victory.label_map.json"} <= names
    assert not any(".DS_Store" in n for n in names)
    result = w.result_panel
    assert not result.models_box.isHidden() and result.models.rowCount() == 2
    for r, lang in enumerate(("en", "ja")):
        assert result.models.cell_text(r, 0) == f"victory/{lang}/victory.onnx"
        assert "the original bit for bit; its smoke run passed" in result.models.cell_text(r, 1)
    assert result.assets.cell_text(0, 0) == "victory/victory.label_map.json"
    assert result.assets.cell_text(0, 1) == "label map"
    assert "each of the 2 models is the original" in result.proof.plain_text()
    roles = {result.files.cell_text(r, 0): result.files.cell_text(r, 1) for r in range(result.files.rowCount())}
    assert roles["victory/victory.label_map.json"] == "asset (a file the app reads)"
    outputs = [result.outputs.cell_text(r, 0) for r in range(result.outputs.rowCount())]
    assert outputs == ["victory/en/victory.onnx: output", "victory/ja/victory.onnx: output"]

    # the ZIP opened in the app: a verified schema-2 bundle shows its models and assets
    (bundle,) = w.open_paths([zip_path])
    assert bundle.kind is Kind.BUNDLE
    wait_state(qtbot, bundle, ("verified", "verify_failed", "failed"))
    assert bundle.state is ItemState.VERIFIED, close_dialogs(w)
    panel = w.model_panel
    assert panel.facts.value("Release name") == "victory" and panel.facts.value("Release version") == "1.2.0"
    assert panel.facts.value("Holds") == "2 models, 1 asset"
    assert panel.tabs.isTabVisible(4)
    assert [panel.release_models.cell_text(r, 0) for r in range(2)] == ["victory/en/victory.onnx",
                                                                         "victory/ja/victory.onnx"]
    assert panel.release_assets.cell_text(0, 1) == "label map"
    w.verify_selected_with_smoke()
    wait_state(qtbot, bundle, ("verified", "verify_failed", "failed"))
    assert all("smoke run passed" in panel.release_models.cell_text(r, 1) for r in range(2))


def test_each_model_on_its_own_gives_two_rows(qtbot: Any, tmp_path: Path) -> None:
    w, item, root = _opened(qtbot, tmp_path)
    assert w.act_split.isEnabled()
    assert w.act_split in w.queue_menu_actions(item)  # the queue's context menu offers it too
    rows = w.split_selected_release()
    assert len(rows) == 2 and item not in w.model.items
    assert [r.kind for r in w.model.items] == [Kind.MODEL, Kind.MODEL]
    assert [r.path for r in w.model.items] == [root / "en" / "victory.onnx", root / "ja" / "victory.onnx"]
    assert all(r.state is ItemState.READY for r in rows)
    assert [w.queue.item(r, 0).text() for r in range(2)] == ["en/victory.onnx", "ja/victory.onnx"]
    assert w.model.selected is rows[0] and w.model_panel.chooser_bar.isHidden()
    assert not w.act_split.isEnabled() and w.act_split not in w.queue_menu_actions(rows[1])
    assert w.model.selected is rows[1]  # the menu's row is selected first
    # each model bundles into a ZIP of its own (names told apart in the Bundle tab)
    rows[1].draft.name = "victory-ja"
    w.render_selected()  # the Bundle tab shows rows[1]'s form: the name as typed there
    assert w.start_bundles(all_ready=True) == rows
    wait_idle(qtbot, w, timeout=120_000)
    assert [r.state for r in rows] == [ItemState.DONE, ItemState.DONE], close_dialogs(w)
    for r in rows:
        with zipfile.ZipFile(r.result.zip_path) as z:
            assert not any("label_map" in n for n in z.namelist())


def test_a_folder_of_one_model_stays_a_model_row(qtbot: Any, tmp_path: Path) -> None:
    """A folder holding one model and nothing else bundles as that model (schema 1): a model row, as before."""
    w = make_window(qtbot, tmp_path)
    folder = tmp_path / "one"
    folder.mkdir()
    sample = resource_path(*SAMPLE_MODEL)
    for f in sample.parent.glob(sample.name + "*"):
        shutil.copy(f, folder / f.name)
    (item,) = w.open_paths([folder])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.kind is Kind.MODEL and item.state is ItemState.READY and item.release is None
    assert w.queue.kind_text(item.kind) == "Model"


def test_a_folder_that_cannot_ship_names_why(qtbot: Any, tmp_path: Path) -> None:
    """No model in the folder: the row fails with the engine's RELEASE_* error, said in the Model tab."""
    w = make_window(qtbot, tmp_path)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "README.md").write_text("no model here", encoding="utf-8")
    (item,) = w.open_paths([folder])
    wait_state(qtbot, item, ("failed",))
    assert item.kind is Kind.RELEASE and item.error is not None and item.error.code.startswith("RELEASE_")
    texts = close_dialogs(w)
    assert texts and not w.act_bundle.isEnabled()


def test_release_words_in_japanese(qtbot: Any, tmp_path: Path) -> None:
    w, item, _root = _opened(qtbot, tmp_path)
    w.lang_actions["ja"].trigger()
    qtbot.waitUntil(lambda: w.menu_file.title() == "ファイル(&F)", timeout=5000)
    try:
        assert w.queue.kind_text(item.kind) != "Release"
        held = w.queue.item(0, 3).text()
        assert held == "モデル 2 個、アセット 1 個", held
        panel = w.model_panel
        assert panel.tabs.tabText(4) != "Release"
        assert panel.release_assets.cell_text(0, 1) != "label map"
        assert "Showing" not in panel.title.text()
        assert w.bundle_panel.form_box.title().startswith("このリリース: ")
        assert w.act_split.text() != "Bundle each model of the release on i&ts own"
    finally:
        from PySide6.QtWidgets import QApplication

        from onnxpack.gui import i18n

        w.lang_actions["en"].trigger()
        i18n.install_translators(QApplication.instance(), "en")
