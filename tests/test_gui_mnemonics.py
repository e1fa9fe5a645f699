"""Alt shortcuts: no mnemonic of a tab's labels and buttons repeats one of the menu bar's or another of the same tab
(Alt+V opened the View menu instead of going to Version:, Alt+H and Alt+L likewise), in English and Japanese."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QGroupBox, QLabel, QWidget

from onnxpack.gui import i18n
from tests.gui_helpers import make_window

_MNEMONIC = re.compile(r"&([^&\s])")


def _mnemonic(text: str) -> str | None:
    found = _MNEMONIC.search(text.replace("&&", ""))
    return found.group(1).upper() if found else None


def _page_mnemonics(page: QWidget) -> dict[str, list[str]]:
    """mnemonic letter → the texts of the page's labels, buttons and group boxes that use it."""
    texts = [w.text() for w in page.findChildren(QLabel)] + [w.text() for w in page.findChildren(QAbstractButton)]
    texts += [box.title() for box in page.findChildren(QGroupBox)]
    found: dict[str, list[str]] = {}
    for text in texts:
        letter = _mnemonic(text)
        if letter is not None:
            found.setdefault(letter, []).append(text)
    return found


@pytest.mark.parametrize("language", ["en", "ja"])
def test_no_mnemonic_repeats_on_a_tab_or_in_the_menu_bar(qtbot, tmp_path, language):
    w = make_window(qtbot, tmp_path)
    try:
        i18n.install_translators(QApplication.instance(), language)
        QApplication.processEvents()
        menus = [_mnemonic(a.text()) for a in w.menuBar().actions()]
        assert None not in menus and len(set(menus)) == len(menus), menus
        w.bundle_panel.set_ready_count(2)  # "Bundle all" shown, with its mnemonic
        for page in (w.tabs.widget(i) for i in range(w.tabs.count())):
            used = _page_mnemonics(page)
            repeated = {k: v for k, v in used.items() if len(v) > 1 or k in menus}
            assert not repeated, (language, repeated, menus)
    finally:
        i18n.install_translators(QApplication.instance(), "en")
