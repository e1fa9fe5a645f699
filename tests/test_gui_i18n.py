"""GUI languages: the Japanese catalogue is complete and compiled, and switching re-translates live."""

from __future__ import annotations

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
