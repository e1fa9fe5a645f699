"""GUI languages: the Japanese catalogue is complete and compiled, and switching re-translates live."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from onnxpack.gui import i18n
from tests.gui_helpers import close_dialogs, make_window, wait_state

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"


def test_catalogue_covers_every_string_in_the_code():
    """lupdate over gui/ finds no source text without a finished Japanese translation."""
    r = subprocess.run([sys.executable, str(I18N / "update_translations.py"), "--check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def test_compiled_catalogue_matches_the_ts(tmp_path):
    from resources.i18n.update_translations import tool  # type: ignore[import-not-found]

    qm = tmp_path / "check.qm"
    subprocess.run([tool("lrelease"), "-silent", str(I18N / "onnxpack_ja.ts"), "-qm", str(qm)], check=True,
                   timeout=120)
    assert qm.read_bytes() == (I18N / "onnxpack_ja.qm").read_bytes(), "run resources/i18n/update_translations.py"
    assert (I18N / "qtbase_ja.qm").stat().st_size > 10_000


def test_install_translators(qapp):
    try:
        assert i18n.install_translators(qapp, "ja_JP") is True
        assert i18n.current_language() == "ja"
        assert QCoreApplication.translate("MainWindow", "&File") == "ファイル(&F)"
        assert QCoreApplication.translate("QPlatformTheme", "&Yes") != "&Yes"  # qtbase_ja is in
        # switching again replaces, never stacks, translators
        assert i18n.install_translators(qapp, "ja") is True
        assert i18n.install_translators(qapp, "fr") is False  # not offered: stays English
        assert QCoreApplication.translate("MainWindow", "&File") == "&File"
    finally:
        i18n.install_translators(qapp, "en")
    assert i18n.normalize_language("ja-JP") == "ja"
    assert i18n.normalize_language("system") in i18n.LANGUAGES


def test_switching_language_retranslates_live(qtbot, tmp_path, sample_model):
    w = make_window(qtbot, tmp_path)
    (item,) = w.open_paths([sample_model])
    wait_state(qtbot, item, ("ready",))
    try:
        w.lang_actions["ja"].trigger()
        qtbot.waitUntil(lambda: w.menu_file.title() == "ファイル(&F)", timeout=5000)
        assert w.settings.language == "ja"
        assert w.windowTitle() == "onnxpack — ONNX リリース バンドラー"
        assert w.tabs.tabText(1) == "バンドル"
        assert w.model_panel.tabs.tabText(0) == "概要"
        assert w.model_panel.tabs.tabText(3) == "外部データ (4)"
        assert w.model_panel.status.plain_text() == "バンドルできます: 問題は見つかりませんでした。"
        assert w.model_panel.interface.cell_text(0, 0) == "入力"
        assert w.queue.item(0, 2).text() == "準備完了"
        assert w.bundle_panel.bundle_button.text() == "バンドル(&B)"
        assert w.run_panel.stage_name("merge") == "統合"
        assert "2 GiB" in w.model_panel.size_bar.format() and "収まります" in w.model_panel.size_bar.format()
        assert w.lang_actions["ja"].text() == "日本語" and w.lang_actions["en"].text() == "English"
        # a dialog's standard buttons come from qtbase_ja
        w.bundle_panel.version.setValidator(None)
        w.bundle_panel.version.setText("x")
        with qtbot.waitSignal(w.error_shown, timeout=5000) as blocker:
            w.start_bundles()
        box = blocker.args[0]
        assert box.informativeText().startswith("対処法: ")
        assert box.button(QMessageBox.StandardButton.Close).text() != "Close"
        close_dialogs(w)
        # Japanese text fits: layouts grow, nothing is clipped to a fixed width
        w.resize(w.minimumSizeHint().expandedTo(w.minimumSize()))
        QApplication.processEvents()
        for button in (w.bundle_panel.bundle_button, w.run_panel.cancel_button, w.log.copy_button):
            assert button.width() >= button.fontMetrics().horizontalAdvance(button.text().replace("&", ""))
        w.lang_actions["en"].trigger()
        qtbot.waitUntil(lambda: w.menu_file.title() == "&File", timeout=5000)
        assert w.model_panel.tabs.tabText(0) == "Overview"
    finally:
        i18n.install_translators(QApplication.instance(), "en")


def test_finding_messages_render_from_the_catalog_in_japanese(qapp, tmp_path):
    """Issue 14 item 10, first codes: findings carry parameters; the app renders them from its Linguist catalog.
    The engine's English message stays what the CLI, manifests and JSON say."""
    import shutil

    from onnxpack.core.checks.validate import validate_model
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path
    from onnxpack.gui import i18n
    from onnxpack.gui.messages import GUI_MESSAGE_CODES, gui_message

    lost = tmp_path / "lost"
    lost.mkdir()
    shutil.copyfile(resource_path(*SAMPLE_MODEL), lost / "victory.onnx")  # its data file missing
    findings = [*validate_model(resource_path(*SAMPLE_MODEL), run_checker=False).findings,
                *validate_model(lost / "victory.onnx", run_checker=False).findings]  # fmt: skip
    by_code = {f.code: f for f in findings}
    assert {"EXTDATA_MISSING", "EXTDATA_UNALIGNED", "MERGE_FITS", "ORT_OLDEST"} <= set(by_code)
    try:
        i18n.install_translators(qapp, "en")
        for code in ("EXTDATA_UNALIGNED", "ORT_OLDEST", "EXTDATA_MISSING"):  # English catalog = the engine's text
            assert gui_message(by_code[code]) == by_code[code].message, code
        assert gui_message(by_code["MERGE_FITS"]) == by_code["MERGE_FITS"].message
        i18n.install_translators(qapp, "ja")
        missing = gui_message(by_code["EXTDATA_MISSING"])
        assert "見つかりません" in missing and str(lost / "victory.onnx.data") in missing
        assert "公式表" in gui_message(by_code["ORT_OLDEST"]) and "1.12" in gui_message(by_code["ORT_OLDEST"])
        rendered = [code for code in GUI_MESSAGE_CODES if code in by_code]
        assert all(gui_message(by_code[c]) != by_code[c].message for c in rendered)
        # no parameters (a finding read back from a manifest): the English message, never a broken template
        from onnxpack.core.findings import Finding

        assert gui_message(Finding.info("ORT_OLDEST", "as recorded")) == "as recorded"
        assert gui_message(Finding.info("ORT_OLDEST", "partial", model="m")) == "partial"
    finally:
        i18n.install_translators(qapp, "en")


def test_every_catalog_text_has_a_japanese_translation():
    import re
    from pathlib import Path

    ts = (Path(__file__).resolve().parent.parent / "resources" / "i18n" / "onnxpack_ja.ts").read_text(encoding="utf-8")
    for context in ("Findings", "Hints", "Errors", "Stages"):
        block = ts.split(f"<name>{context}</name>", 1)[1].split("</context>", 1)[0]
        assert block.count("<message") >= 6
        assert 'type="unfinished"' not in block and not re.search(r"<translation>\s*</translation>", block)



def test_stage_details_of_a_real_bundle_and_verification_read_in_japanese(qapp, tmp_path):
    """Every progress detail the engine reports while bundling and verifying the sample is worded in Japanese."""
    from onnxpack.core.progress import ProgressEvent
    from onnxpack.core.release.bundle import BundleOptions, build_bundle
    from onnxpack.core.release.verify.verify import verify_bundle
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path
    from onnxpack.gui.messages import stage_detail

    events: dict[str, ProgressEvent] = {}
    result = build_bundle(BundleOptions(resource_path(*SAMPLE_MODEL), tmp_path / "out", "1.0.0"),
                          progress=lambda e: events.setdefault(e.message, e))  # fmt: skip
    verify_bundle(result.zip_path, smoke=True, progress=lambda e: events.setdefault(e.message, e))
    events.pop("", None)
    details = set(events)
    assert {"checker", "reading victory.onnx", "run 2/3 of bundled victory.onnx"} <= details
    try:
        i18n.install_translators(qapp, "en")
        assert all(stage_detail(events[d]) == d for d in details)  # English: the engine's words
        i18n.install_translators(qapp, "ja")
        words = {d: stage_detail(events[d]) for d in details}
        assert not [d for d, w in words.items() if w.isascii()], words
        assert words["run 2/3 of bundled victory.onnx"] == "バンドルされた victory.onnx の実行 2/3"
    finally:
        i18n.install_translators(qapp, "en")


def test_a_japanese_error_dialog_keeps_the_engines_english_in_its_details(qapp, tmp_path):
    """The dialog words the error by its code and values in Japanese; the exact English (as the CLI prints it, for a
    bug report or a search) is in Show Details, with the code."""
    from onnxpack.core.errors import OnnxpackError
    from onnxpack.core.release.bundle import BundleOptions, build_bundle
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path
    from onnxpack.gui.dialogs import error_box

    lost = tmp_path / "lost"
    lost.mkdir()
    shutil.copyfile(resource_path(*SAMPLE_MODEL), lost / "victory.onnx")
    try:
        build_bundle(BundleOptions(lost / "victory.onnx", tmp_path / "out", "1.0.0"))
    except OnnxpackError as e:
        err = e
    else:
        raise AssertionError("a missing data file must fail the bundle")
    assert err.code == "BUNDLE_FINDINGS" and "EXTDATA_MISSING" in err.message
    try:
        i18n.install_translators(qapp, "ja")
        box = error_box(None, "onnxpack", err)
        assert "見つかりません" in box.text() and "victory.onnx.data" in box.text()  # the finding, in Japanese
        assert box.text().startswith("モデルにエラーの所見があるため"), box.text()
        assert not box.informativeText().isascii()  # the hint too
        assert f"Error code: {err.code}" not in box.detailedText()  # translated label …
        assert err.code in box.detailedText() and err.message in box.detailedText()  # … the English message kept
        box.deleteLater()
        i18n.install_translators(qapp, "en")
        box = error_box(None, "onnxpack", err)
        assert box.text() == err.message and "The message in English" not in box.detailedText()
        box.deleteLater()
    finally:
        i18n.install_translators(qapp, "en")


def test_a_model_that_fails_to_open_reads_in_japanese_in_the_dialog_and_the_queue(qtbot, tmp_path, sample_model):
    """A truncated model dropped on the Japanese window: the dialog's message and hint, and the queue's Result
    cell, are Japanese; the engine's English is in the dialog's details."""
    w = make_window(qtbot, tmp_path)
    bad = tmp_path / "broken" / "detector.onnx"
    bad.parent.mkdir()
    bad.write_bytes(sample_model.read_bytes()[:700])
    try:
        w.lang_actions["ja"].trigger()
        qtbot.waitUntil(lambda: w.menu_file.title() == "ファイル(&F)", timeout=5000)
        with qtbot.waitSignal(w.error_shown, timeout=10000) as blocker:
            (item,) = w.open_paths([bad])
        box = blocker.args[0]
        wait_state(qtbot, item, ("failed",))
        assert box.text() == "このファイルは読み込める ONNX または ORT のモデルではありません"
        assert box.informativeText().startswith("対処法: ファイルが途中で切れているか")
        assert item.error is not None and item.error.message in box.detailedText()
        result = w.queue.item(w.queue.row_of(item), 3).text()
        assert result == box.text() and not result.isascii()
        close_dialogs(w)
        w.lang_actions["en"].trigger()
        qtbot.waitUntil(lambda: w.menu_file.title() == "&File", timeout=5000)
        assert w.queue.item(w.queue.row_of(item), 3).text() == item.error.message  # re-worded on the switch
    finally:
        i18n.install_translators(QApplication.instance(), "en")


def test_the_file_dialog_is_japanese_throughout(qapp):
    """Qt's qtbase_ja lacks the file dialog's "&Look in:" and "Files of &type:"; onnxpack's catalog fills them."""
    from PySide6.QtWidgets import QFileDialog, QLabel

    try:
        i18n.install_translators(qapp, "ja")
        dialog = QFileDialog()
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)
        labels = {label.objectName(): label.text() for label in dialog.findChildren(QLabel)}
        assert labels["lookInLabel"] == "場所(&L):" and labels["fileTypeLabel"] == "ファイルの種類(&T):"
        assert not labels["fileNameLabel"].replace("&N", "").isascii()  # Qt's own translation
        dialog.deleteLater()
    finally:
        i18n.install_translators(qapp, "en")
