"""GUI: the Bundle tab's release options — --prove-ort (field, progress, Cancel, the Result tab's section), the three
separate permissions that replaced the one "Replace…" box, the retarget box's words, the checksums role and the
signing hint (issue 27 §2, issue 26 items 3 and 5)."""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QValidator

from onnxpack.core.release.manifest import ROLES
from onnxpack.gui.model.state import STAGES, skipped_stages
from tests.gui_helpers import close_dialogs, make_window, wait_state


def _inspected(qtbot: Any, w: Any, path: Path) -> Any:
    (item,) = w.open_paths([path])
    wait_state(qtbot, item, ("ready", "invalid", "failed"))
    assert item.state == "ready", item.error
    return item


def _japanese(qtbot: Any, w: Any) -> None:
    w.lang_actions["ja"].trigger()
    qtbot.waitUntil(lambda: w.menu_file.title() == "ファイル(&F)", timeout=5000)


def _english(qtbot: Any, w: Any) -> None:
    from PySide6.QtWidgets import QApplication

    from onnxpack.gui import i18n

    w.lang_actions["en"].trigger()
    qtbot.waitUntil(lambda: w.menu_file.title() == "&File", timeout=5000)
    i18n.install_translators(QApplication.instance(), "en")


# --- Qt-free ------------------------------------------------------------------------------------------------------
def test_skipped_stages_follow_the_options() -> None:
    """The Progress tab says "skipped" from the start for every stage the options turn off; "prove" (--prove-ort)
    sits between the smoke run and the ORT format, the order the engine runs them."""
    assert STAGES.index("smoke") < STAGES.index("prove") < STAGES.index("ort")
    opts = SimpleNamespace(run_smoke=True, prove_ort=None, ort_format=False)
    assert skipped_stages(opts) == ["prove", "ort"]  # type: ignore[arg-type]
    opts = SimpleNamespace(run_smoke=False, prove_ort="newest", ort_format=True)
    assert skipped_stages(opts) == ["smoke"]  # type: ignore[arg-type]
    assert skipped_stages(None) == []


# --- the form -----------------------------------------------------------------------------------------------------
def test_prove_ort_field_goes_into_the_options_and_the_cli_command(qtbot: Any, tmp_path: Path,
                                                                    sample_model: Path) -> None:
    w = make_window(qtbot, tmp_path)
    bp = w.bundle_panel
    item = _inspected(qtbot, w, sample_model)
    assert bp.options_box.isAncestorOf(bp.prove_ort)  # a batch setting, in "Every model bundled"
    assert bp.prove_label.buddy() is bp.prove_ort and "&" in bp.prove_label.text()
    validator = bp.prove_ort.validator()
    for text in ("", "auto", "newest", "1.16.3,1.20.1", "1.16, newest", "1.16."):
        assert validator.validate(text, 0)[0] != QValidator.State.Invalid, text
    for text in ("latest", "1.16.3;1.20.1", "x"):
        assert validator.validate(text, 0)[0] == QValidator.State.Invalid, text
    bp.prove_ort.setText(" 1.16.3 , newest ")
    assert bp.shared_options()["prove_ort"] == "1.16.3,newest"
    assert w.settings.text("prove_ort") == "1.16.3,newest"  # remembered, like the target
    options = w._options_for(item, bp.shared_options())
    assert options.prove_ort == "1.16.3,newest"
    from onnxpack.gui.engine import cli_command

    assert "--prove-ort 1.16.3,newest" in cli_command(options)
    bp.prove_ort.clear()
    options = w._options_for(item, bp.shared_options())
    assert options.prove_ort is None and "--prove-ort" not in cli_command(options)
    # the retarget box says what the engine does now
    assert bp.fix_ir.text().startswith("Retarget") and "opset" in bp.fix_ir.text()
    assert "metadata" in bp.fix_ir.toolTip() and "opset" in bp.fix_ir.toolTip() and "--fix-ir" in bp.fix_ir.toolTip()
    chain = bp.focus_chain()  # Tab goes down the form as it is drawn: target, prove, then the boxes below
    at = chain.index(bp.prove_ort)
    assert chain[at - 1] is bp.target_ort and chain[at + 1] is bp.fix_ir
    assert chain[chain.index(bp.run_smoke) + 1:chain.index(bp.run_smoke) + 4] == [
        bp.force, bp.allow_version_not_greater, bp.allow_unmatched_labels]


def test_the_three_permissions_each_set_one_engine_flag(qtbot: Any, tmp_path: Path, sample_model: Path) -> None:
    """Issue 26 item 3: replacing an existing bundle no longer also lets a version go backwards or keeps labels that
    fit no output; each box has its own words and tooltip (English and Japanese) and its own CLI flag."""
    w = make_window(qtbot, tmp_path)
    bp = w.bundle_panel
    item = _inspected(qtbot, w, sample_model)
    from onnxpack.gui.engine import cli_command

    boxes = {"force": (bp.force, "--force"),
             "allow_version_not_greater": (bp.allow_version_not_greater, "--allow-version-not-greater"),
             "allow_unmatched_labels": (bp.allow_unmatched_labels, "--allow-unmatched-labels")}  # fmt: skip
    assert len({box.text() for box, _ in boxes.values()}) == 3
    for name, (box, flag) in boxes.items():
        assert flag in box.toolTip()
        for other, _ in boxes.values():
            other.setChecked(other is box)
        options = w._options_for(item, bp.shared_options())
        assert {n: getattr(options, n) for n in boxes} == {n: n == name for n in boxes}
        command = cli_command(options).split()
        assert [f for _, f in boxes.values() if f in command] == [flag]
    # the hints name the one box that does what they ask
    from onnxpack.gui.hints import gui_hint

    assert bp.force.text() in gui_hint("OUTPUT_EXISTS", "")
    assert bp.allow_version_not_greater.text() in gui_hint("VERSION_NOT_GREATER", "")
    assert bp.force.text() not in gui_hint("VERSION_NOT_GREATER", "")
    assert bp.allow_unmatched_labels.text() in gui_hint("ABOUT_LABELS", "")
    english = [box.text() for box, _ in boxes.values()] + [bp.fix_ir.text()]
    _japanese(qtbot, w)
    try:
        japanese = [box.text() for box, _ in boxes.values()] + [bp.fix_ir.text()]
        assert all(j != e and j for j, e in zip(japanese, english, strict=True))
        assert all(box.toolTip() and "--" in box.toolTip() for box, _ in boxes.values())
        assert japanese[1] in gui_hint("VERSION_NOT_GREATER", "")
    finally:
        _english(qtbot, w)
    close_dialogs(w)


def test_checksums_role_and_signing_hint_in_both_languages(qtbot: Any, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Every member role of a bundle has words in English and Japanese (SHA256SUMS is "checksums"); without the
    signing library the key field says how to install the sign extra from what onnxpack came from."""
    import onnxpack.core.release.signing as signing
    from onnxpack.gui.widgets.model_panel import role_text

    monkeypatch.setattr(signing, "installed", lambda: False)
    w = make_window(qtbot, tmp_path)
    assert "checksums" in ROLES
    assert "checksums" in role_text("checksums") and "sha256sum" in role_text("checksums")
    tip = w.bundle_panel.sign_key.toolTip()
    assert "pip install '.[sign]'" in tip and "pip-installed" not in tip and "onnxpack[sign]" not in tip
    assert not w.bundle_panel.sign_key.isEnabled()
    _japanese(qtbot, w)
    try:
        for role in ROLES:
            assert role_text(role) != role, role  # each role in Japanese words, none left as the raw role
        assert "pip install '.[sign]'" in w.bundle_panel.sign_key.toolTip()
        assert w.bundle_panel.sign_key.toolTip() != tip
    finally:
        _english(qtbot, w)


# --- the Result tab -----------------------------------------------------------------------------------------------
def _result(tmp_path: Path, prove: dict[str, Any] | None) -> Any:
    zip_path = tmp_path / "m-1.0.0.zip"
    zip_path.write_bytes(b"PK")
    manifest: dict[str, Any] = {"files": []}
    if prove is not None:
        manifest["prove_ort"] = prove
    return SimpleNamespace(zip_path=zip_path, files=[{"path": "SHA256SUMS", "role": "checksums", "size": 80,
                                                       "sha256": "0" * 64}],
                           manifest=manifest, smoke={}, equal={}, release=None)


def test_result_tab_shows_each_proven_release(qtbot: Any, tmp_path: Path) -> None:
    w = make_window(qtbot, tmp_path)
    rp = w.result_panel
    prove = {"requested": "auto", "reference_ort": "1.32.0", "atol": 1e-4, "rtol": 1e-3, "releases": [
        {"version": "1.16.3", "loaded": True, "message": None, "ok": True, "outputs_bitwise_equal": False,
         "max_abs_diff": 2.1e-7, "wheel": "onnxruntime-1.16.3-cp311-cp311-manylinux.whl"},
        {"version": "1.32.0", "loaded": True, "message": None, "ok": True, "outputs_bitwise_equal": True,
         "max_abs_diff": 0.0, "wheel": "onnxruntime-1.32.0-cp311-cp311-manylinux.whl"},
    ]}  # fmt: skip
    rp.show_result(_result(tmp_path, prove))
    assert not rp.prove_box.isHidden()
    rows = [[rp.prove.cell_text(r, c) for c in range(4)] for r in range(rp.prove.rowCount())]
    assert rows[0][:3] == ["1.16.3", "yes", "largest difference 2.1e-07"]
    assert rows[1][:3] == ["1.32.0", "yes", "bitwise equal"] and rows[1][3].startswith("onnxruntime-1.32.0")
    assert "auto" in rp.prove_note.text() and "1.32.0" in rp.prove_note.text()
    assert rp.files.cell_text(0, 1) == role_words("checksums")
    rp.show_result(_result(tmp_path, None))  # a bundle not proven: no section, nothing of the last one
    assert rp.prove_box.isHidden() and rp.prove.rowCount() == 0
    rp.show_result(None)
    assert rp.prove_box.isHidden() and rp.prove.rowCount() == 0


def role_words(role: str) -> str:
    from onnxpack.gui.widgets.model_panel import role_text

    return role_text(role)


# --- progress and Cancel during a first download ------------------------------------------------------------------
class _SlowIndex:
    """A package index on localhost whose one wheel downloads slowly (64 KiB every 50 ms): a first download."""

    SIZE = 64 << 20

    def __init__(self) -> None:
        from packaging.tags import sys_tags

        tag = next(iter(sys_tags()))
        self.wheel = f"onnxruntime-9.9.9-{tag.interpreter}-{tag.abi}-{tag.platform}.whl"
        doc = json.dumps({"info": {"name": "onnxruntime"}, "releases": {"9.9.9": [
            {"filename": self.wheel, "url": f"/files/{self.wheel}", "packagetype": "bdist_wheel",
             "digests": {"sha256": hashlib.sha256(b"").hexdigest()}}]}}).encode()  # fmt: skip
        self.stopped = threading.Event()
        size, stopped = self.SIZE, self.stopped

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                if self.path == "/pypi/onnxruntime/json":
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(doc)))
                    self.end_headers()
                    self.wfile.write(doc)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(size))
                self.end_headers()
                try:
                    for _ in range(size >> 16):
                        if stopped.is_set():
                            return
                        self.wfile.write(b"\0" * (1 << 16))
                        time.sleep(0.05)
                except OSError:
                    return  # the client went away (cancelled)

            def log_message(self, *_a: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def slow_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[_SlowIndex]:
    from onnxpack.core.runtime import fetch, wheeltable
    from tests.test_prove_index import loosen

    monkeypatch.setenv("ONNXPACK_CACHE_DIR", str(tmp_path / "cache"))
    idx = _SlowIndex()
    monkeypatch.setenv("ONNXPACK_PYPI_URL", idx.url)
    policy = loosen(monkeypatch)  # plain HTTP on 127.0.0.1 (the tests' hook), with the table of the stand-in release
    rest = idx.wheel[len("onnxruntime-9.9.9-"):-len(".whl")]
    table = {"onnxruntime": {"9.9.9": {rest: "0" * 64}}, "numpy": {"2.99.0": {"py3-none-any": "0" * 64}}}
    monkeypatch.setattr(wheeltable, "table", lambda: table)
    monkeypatch.setattr(fetch, "POLICY", dataclasses.replace(policy, wheel_deadline=120.0))
    yield idx
    idx.stopped.set()
    idx.server.shutdown()


def test_prove_ort_download_shows_progress_and_cancel_stops_it(qtbot: Any, tmp_path: Path, sample_model: Path,
                                                               slow_index: _SlowIndex) -> None:
    """A first --prove-ort run downloads a wheel: the Progress tab's "Prove on releases" row shows the bytes with the
    wheel's name, the queue row says so, and Cancel stops the download within a second, leaving no ZIP and no
    partial wheel."""
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    bp = w.bundle_panel
    bp.prove_ort.setText("newest")
    bp.bundle_button.click()
    wait_state(qtbot, item, ("running", "failed", "done"))
    rows = w.run_panel.rows
    qtbot.waitUntil(lambda: "downloading" in rows["prove"][3].text() or item.state != "running", timeout=60_000)
    assert item.state == "running", item.error and item.error.message
    qtbot.waitUntil(lambda: rows["prove"][2].value() > 0, timeout=10_000)
    detail = rows["prove"][3].text()
    assert slow_index.wheel[:20] in detail and " of " in detail and "MiB" in detail
    assert w.run_panel.stage_state("prove") == "running" and w.run_panel.stage_state("merge") == "waiting"
    assert w.run_panel.stage_state("ort") == "skipped"
    assert "Prove on releases" in w.queue.item(w.queue.row_of(item), 3).text()
    assert w.run_panel.cancel_button.isEnabled()
    start = time.monotonic()
    qtbot.mouseClick(w.run_panel.cancel_button, Qt.MouseButton.LeftButton)
    wait_state(qtbot, item, ("cancelled", "failed", "done"), timeout=10_000)
    took = time.monotonic() - start
    assert item.state == "cancelled" and took < 2.0, (item.state, took)
    assert w.run_panel.stage_state("prove") == "cancelled"
    assert not (tmp_path / "out" / "model-1.0.0.zip").exists()
    wheels = tmp_path / "cache" / "ort-releases" / "wheels"
    assert not wheels.exists() or not any(wheels.iterdir())  # the partial download was removed
    close_dialogs(w)


# --- a real release (network) -------------------------------------------------------------------------------------
def _pypi_or_skip() -> None:
    try:
        urllib.request.urlopen("https://pypi.org/pypi/onnxruntime/json", timeout=15).close()
    except OSError as e:
        pytest.skip(f"PyPI is unreachable ({e}); --prove-ort on a real release needs it")


@pytest.mark.slow
def test_bundle_proven_on_the_newest_release_through_the_window(qtbot: Any, tmp_path: Path,
                                                                sample_model: Path) -> None:
    """--prove-ort newest from the Bundle tab (the wheel cached in the user's cache folder, as the app uses it): the
    bundle is made, the Result tab lists the release with its outcome, Copy CLI command repeats the option."""
    _pypi_or_skip()
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    w.bundle_panel.prove_ort.setText("newest")
    w.bundle_panel.bundle_button.click()
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=600_000)
    assert item.state == "done", item.error and item.error.message
    assert w.run_panel.stage_state("prove") == "done"
    rp = w.result_panel
    assert not rp.prove_box.isHidden() and rp.prove.rowCount() == 1
    outcome = rp.prove.cell_text(0, 2)
    assert rp.prove.cell_text(0, 1) == "yes"
    assert outcome == "bitwise equal" or outcome.startswith("largest difference"), outcome
    rp.copy_button.click()
    assert "--prove-ort newest" in QGuiApplication.clipboard().text()
    close_dialogs(w)


def test_a_finished_download_is_not_the_prove_stage_done() -> None:
    """Seen under Xvfb: --prove-ort's wheel download reached its size and the row said "100 % — done" while the
    release's environment was still being made. A download is one part of the stage; the stage is done when the
    engine says so in steps, and a message after the download does not keep the download's bytes as its amount."""
    from onnxpack.core.progress import STEPS, ProgressEvent
    from onnxpack.gui.model.state import RunState

    run = RunState.begin("m 1.0.0")
    run.apply(ProgressEvent("prove", 0, 0, "looking up onnxruntime 1.32.0", STEPS))
    run.apply(ProgressEvent("prove", 10, 10, "downloading onnxruntime-1.32.0.whl"))  # bytes, finished
    assert run.state["prove"] == "running" and run.fraction("prove") == 1.0
    run.apply(ProgressEvent("prove", 0, 0, "installing onnxruntime 1.32.0 and numpy", STEPS))
    assert run.state["prove"] == "running" and run.fraction("prove") is None
    assert run.last["prove"].message.startswith("installing")
    run.apply(ProgressEvent("prove", 1, 2, "running on onnxruntime 1.32.0", STEPS))
    run.apply(ProgressEvent("prove", 0, 0, "still running", STEPS))  # same unit: the amount stays
    assert (run.last["prove"].done, run.last["prove"].total) == (1, 2)
    run.apply(ProgressEvent("prove", 2, 2, "done", STEPS))
    assert run.state["prove"] == "done"
    run.apply(ProgressEvent("merge", 5, 5, "done"))  # other stages: a finished amount in bytes is the stage done
    assert run.state["merge"] == "done"


def test_prove_progress_details_read_in_japanese(qapp: Any) -> None:
    """The details --prove-ort reports (core/runtime/prove.py) are worded in Japanese, numbers and names kept."""
    from onnxpack.core import steps
    from onnxpack.core.progress import STEPS, ProgressEvent
    from onnxpack.gui import i18n
    from onnxpack.gui.messages import stage_detail

    details = [
        (steps.FETCHING(version="1.32.0", numpy="1.26.4", index="https://pypi.org"), ("1.32.0", "https://pypi.org")),
        (steps.DOWNLOADING(file="onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl"),
         ("onnxruntime-1.32.0-cp311",)),
        (steps.CREATING_ENV(version="1.16.3"), ("1.16.3",)),
        (steps.INSTALLING(ort="onnxruntime-1.16.3.whl", numpy="numpy<2"), ("1.16.3", "numpy<2")),
        (steps.PROVE_PREPARING(version="1.20.1"), ("1.20.1",)),
        (steps.PROVE_REFERENCE(), ()),
        (steps.PROVE_RUNNING(version="1.20.1"), ("1.20.1",)),
    ]
    try:
        i18n.install_translators(qapp, "ja")
        for said, kept in details:
            message = str(said)
            words = stage_detail(ProgressEvent("prove", 0, 0, message, STEPS, said.step, said.values))
            assert words != message and any(ord(ch) > 0x3000 for ch in words), (message, words)
            assert all(k in words for k in kept), (message, words)
        assert "実行" in stage_detail(steps.PROVE_RUNNING(version="1.20.1"))
    finally:
        i18n.install_translators(qapp, "en")


def test_no_network_for_prove_ort_is_a_clear_error_at_the_prove_row(qtbot: Any, tmp_path: Path, sample_model: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """No package index: the run fails before any work with the engine's PROVE_NETWORK error in the app's words
    (English and its hint), shown at the Prove on releases row; no ZIP, no traceback."""
    monkeypatch.setenv("ONNXPACK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ONNXPACK_PYPI_URL", "http://127.0.0.1:9")  # nothing listens there
    w = make_window(qtbot, tmp_path)
    item = _inspected(qtbot, w, sample_model)
    w.bundle_panel.prove_ort.setText("newest")
    w.bundle_panel.bundle_button.click()
    wait_state(qtbot, item, ("done", "failed", "cancelled"), timeout=60_000)
    assert item.state == "failed" and item.error is not None and item.error.code == "PROVE_NETWORK"
    qtbot.waitUntil(lambda: w.last_error is not None and w.last_error.isVisible(), timeout=10_000)
    texts = close_dialogs(w)
    assert texts and "package index" in texts[0] and "Traceback" not in texts[0]
    assert w.run_panel.stage_state("prove") == "failed" and w.run_panel.stage_state("merge") == "not run"
    assert not (tmp_path / "out" / "model-1.0.0.zip").exists()


def test_failed_stage_is_named_by_the_error() -> None:
    from onnxpack.core.errors import InputError, OutputError, RuntimeFailure
    from onnxpack.gui.model.state import failed_stage

    assert failed_stage(OutputError("cannot write", "", code="PATH_EACCES")) == "zip"
    assert failed_stage(RuntimeFailure("no index", "", code="PROVE_NETWORK")) == "prove"
    assert failed_stage(InputError("bad", "", code="PROVE_NO_WHEEL")) == "prove"
    assert failed_stage(InputError("bad", "", code="USAGE")) is None and failed_stage(None) is None


def test_the_permissions_are_not_remembered_the_other_batch_settings_are(qtbot: Any, tmp_path: Path) -> None:
    """As the box's note says: the prove releases and the option boxes come back in the next session; the three
    permissions never do (each is chosen for the run it is meant for)."""
    w = make_window(qtbot, tmp_path)
    bp = w.bundle_panel
    assert "except the last three boxes" in bp.batch_note.text()
    bp.prove_ort.setText("1.16.3,newest")
    bp.prove_ort.editingFinished.emit()
    bp.fix_ir.setChecked(True)
    for box in (bp.force, bp.allow_version_not_greater, bp.allow_unmatched_labels):
        box.setChecked(True)
    w.close()
    again = make_window(qtbot, tmp_path).bundle_panel
    assert again.prove_ort.text() == "1.16.3,newest" and again.fix_ir.isChecked()
    assert not any(box.isChecked() for box in (again.force, again.allow_version_not_greater,
                                                again.allow_unmatched_labels))


def test_tab_into_a_wide_box_shows_its_start_in_a_narrow_form(qtbot: Any, tmp_path: Path, sample_model: Path) -> None:
    """Seen under Xvfb at 2× scaling: Tab to a check box wider than the form's view scrolled to the box's middle,
    its check mark off the left edge. The form shows the start of the control Tab moved to."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    w = make_window(qtbot, tmp_path)
    _inspected(qtbot, w, sample_model)
    w.tabs.setCurrentIndex(1)
    w.resize(700, 500)
    w.splitter.setSizes([460, 240])
    QApplication.processEvents()
    bp = w.bundle_panel
    from onnxpack.gui.widgets import FormScrollArea

    (scroll,) = bp.findChildren(FormScrollArea)
    bar = scroll.horizontalScrollBar()
    assert bar.maximum() > 0  # the form is wider than its view
    bp.run_smoke.setFocus()
    QApplication.processEvents()
    for box in (bp.force, bp.allow_version_not_greater, bp.allow_unmatched_labels):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        QApplication.processEvents()
        assert QApplication.focusWidget() is box
        left = box.mapTo(scroll.widget(), box.rect().topLeft()).x()
        assert bar.value() <= left < bar.value() + scroll.viewport().width(), (box.text(), left, bar.value())


def test_alt_letter_scrolls_the_form_to_its_field(qtbot: Any, tmp_path: Path, sample_model: Path) -> None:
    """Seen under Xvfb at 2× scaling: Alt+E (the --prove-ort field's label) put the focus into a field out of view, and
    the typed text landed unseen; QScrollArea follows Tab only. The form scrolls to a field that gets the focus by its
    label's mnemonic (Qt.ShortcutFocusReason), as it does for Tab."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QLabel

    from onnxpack.gui.widgets import FormScrollArea

    w = make_window(qtbot, tmp_path)
    _inspected(qtbot, w, sample_model)
    w.tabs.setCurrentIndex(1)
    w.resize(700, 420)
    QApplication.processEvents()
    bp = w.bundle_panel
    (scroll,) = bp.findChildren(FormScrollArea)
    vbar = scroll.verticalScrollBar()
    assert vbar.maximum() > 0  # the form is taller than its view
    vbar.setValue(0)
    QApplication.processEvents()
    labels = [lab for lab in bp.findChildren(QLabel) if lab.buddy() is not None and "&" in lab.text()]
    target = max(labels, key=lambda lab: lab.buddy().mapTo(scroll.widget(), lab.buddy().rect().topLeft()).y())
    field = target.buddy()
    top = field.mapTo(scroll.widget(), field.rect().topLeft()).y()
    assert top > vbar.value() + scroll.viewport().height()  # out of view before
    letter = target.text()[target.text().index("&") + 1].lower()
    w.activateWindow()
    QTest.keyClick(w, letter, Qt.KeyboardModifier.AltModifier)
    QApplication.processEvents()
    if QApplication.focusWidget() is not field:  # no active window on this platform: the same focus, given directly
        field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        QApplication.processEvents()
    assert QApplication.focusWidget() is field
    shown = (vbar.value(), vbar.value() + scroll.viewport().height())
    assert shown[0] <= top and top + field.height() <= shown[1], (top, shown)
