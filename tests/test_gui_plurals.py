"""GUI counts read the way a person writes them ("1 finding", "2 findings"), never "finding(s)": every count goes
through Qt's %n plurals, whose English forms live in resources/i18n/onnxpack_en.ts (issue 26 item 4)."""

from __future__ import annotations

import re
import tokenize
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication

from tests.gui_helpers import make_window, wait_idle

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"


def test_no_gui_string_writes_a_plural_with_brackets_outside_qt_plurals() -> None:
    """A "(s)" in the app's source only inside a %n message (Qt picks the form); "http(s)" is not a plural."""
    offenders = []
    for path in sorted((ROOT / "gui").rglob("*.py")):
        with path.open("rb") as f:
            for tok in tokenize.tokenize(f.readline):
                plural = tok.type == tokenize.STRING and re.search(r"\w\(s\)", tok.string.replace("http(s)", ""))
                if plural and "%n" not in tok.string:  # a %n message: Qt picks the form
                    offenders.append(f"{path.name}:{tok.start[0]}: {tok.string}")
    assert offenders == []


def test_every_english_plural_has_a_singular_and_a_plural_form() -> None:
    root = ET.parse(I18N / "onnxpack_en.ts").getroot()
    messages = [m for m in root.iter("message") if m.get("numerus") == "yes"]
    assert len(messages) >= 12
    for m in messages:
        forms = [f.text or "" for f in m.iter("numerusform")]
        source = m.findtext("source") or ""
        assert len(forms) == 2 and forms[0] != forms[1], source
        assert all("%n" in f and "(s)" not in f for f in forms), source
    ja = {m.findtext("source"): m for m in ET.parse(I18N / "onnxpack_ja.ts").getroot().iter("message")}
    for m in messages:  # Japanese has one form, with the number in it
        forms = [f.text or "" for f in ja[m.findtext("source")].iter("numerusform")]
        assert len(forms) == 1 and "%n" in forms[0] and "(s)" not in forms[0], m.findtext("source")


def _tr(context: str, text: str, n: int) -> str:
    return QCoreApplication.translate(context, text, "", n)


def test_counts_render_singular_and_plural(qtbot: Any, tmp_path: Path, sample_model: Path) -> None:
    from tests.test_gui_panels import _model

    w = make_window(qtbot, tmp_path)  # the app's English catalogue, as at start
    cases = {
        ("ModelPanel", "%n error(s)"): ("1 error", "2 errors"),
        ("ModelPanel", "%n warning(s)"): ("1 warning", "2 warnings"),
        ("ModelPanel", "Verification failed: %n problem(s) — see Findings."): ("1 problem —", "3 problems —"),
        ("ModelPanel", "%n tensor(s), %1 (%2 in external data)"): ("1 tensor,", "2 tensors,"),
        ("ResultPanel", "previous %1, %n change(s), needs a %2 bump (suggested %3)."): ("1 change,", "2 changes,"),
        ("MainWindow", "Inspected %1: %n finding(s)."): ("1 finding.", "0 findings."),
    }
    for (context, text), (one, many) in cases.items():
        singular = _tr(context, text, 1)
        plural = _tr(context, text, int(many.split()[0]))
        assert one in singular and "(s)" not in singular, (text, singular)
        assert many in plural and "(s)" not in plural, (text, plural)
    # in the window: the status bar and the log
    w.open_paths([_model(tmp_path / "m", "alpha")])
    wait_idle(qtbot, w)
    assert w.status_label.text().startswith("1 item · ")
    w.open_paths([sample_model])
    wait_idle(qtbot, w)
    assert w.status_label.text().startswith("2 items · ")
    log = w.log.plain_text()
    assert "(s)" not in log and re.search(r"Inspected alpha\.onnx: \d+ findings?\.", log)
    facts = w.model_panel.facts.value("Initializers")
    assert "(s)" not in facts and re.match(r"\d+ tensors?, ", facts)
    # Japanese: one form, the number inside
    from onnxpack.gui import i18n

    app = QApplication.instance()
    try:
        i18n.install_translators(app, "ja")
        assert _tr("ModelPanel", "%n error(s)", 2) == "エラー 2 件"
        assert _tr("MainWindow", "%n item(s) · %1 running · %2 queued · %3 bundled", 1).startswith("1 件")
    finally:
        i18n.install_translators(app, "en")
