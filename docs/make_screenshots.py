"""Take the README screenshots of the main window's states with the real engine (docs/screenshots/*.png).

Usage (a display is needed for realistic fonts; Xvfb works):
    xvfb-run -a -s "-screen 0 1280x900x24" python docs/make_screenshots.py [OUT_DIR]
or with Qt's offscreen platform: QT_QPA_PLATFORM=offscreen python docs/make_screenshots.py

A development tool (it builds a synthetic model with benchmarks/common.py), so it lives beside the pictures and
is not part of the shipped ``onnxpack.gui`` package.

States: empty, inspected (English and Japanese), a failed check in Japanese (the data file missing: the findings,
and the Bundle tab saying why it cannot be queued), running (a 256 MiB synthetic model mid-merge, then
cancelled), done (the sample bundled, with the smoke proof), error (a truncated model dropped; again in Japanese
with the details open).
Each picture is a QWidget.grab() of the window; an open dialog is painted over it where it sits.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchmarks/ (a folder of the repository, never installed)

from benchmarks.common import make_external_model  # noqa: E402

__all__ = ["main", "take_screenshots"]

SIZE = (1180, 760)


def _settle(app: Any, seconds: float) -> None:
    """Process events for ``seconds`` (timers the window set when it was shown fire)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def _wait(app: Any, cond: Callable[[], bool], timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError("the window did not reach the expected state")
        app.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()


def _save(window: Any, path: Path, dialog: Any = None) -> Path:
    from PySide6.QtGui import QPainter, QPalette

    window.repaint()
    pixmap = window.grab()
    if dialog is not None and dialog.isVisible():
        dialog.adjustSize()
        shot = dialog.grab()
        painter = QPainter(pixmap)
        x = (pixmap.width() / pixmap.devicePixelRatio() - shot.width() / shot.devicePixelRatio()) / 2
        y = (pixmap.height() / pixmap.devicePixelRatio() - shot.height() / shot.devicePixelRatio()) / 3
        painter.drawPixmap(int(x), int(y), shot)
        painter.setPen(window.palette().color(QPalette.ColorRole.Dark))  # the window frame a desktop would draw
        painter.drawRect(int(x), int(y), int(shot.width() / shot.devicePixelRatio()) - 1,
                         int(shot.height() / shot.devicePixelRatio()) - 1)
        painter.end()
    if not pixmap.save(str(path), "PNG"):
        raise OSError(f"could not write {path}")
    return path


def take_screenshots(out_dir: Path) -> list[Path]:
    from PySide6.QtCore import QSettings, QStandardPaths
    from PySide6.QtWidgets import QApplication

    from onnxpack.core.resources import SAMPLE_MODEL, resource_path
    from onnxpack.gui import engine, i18n
    from onnxpack.gui.app import create_app
    from onnxpack.gui.main_window import MainWindow
    from onnxpack.gui.settings import AppSettings

    QStandardPaths.setTestModeEnabled(True)  # never touch the user's settings or logs
    app = create_app([sys.argv[0]])
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="onnxpack-shots-"))
    shots: list[Path] = []
    try:
        i18n.install_translators(app, "en")

        def new_window() -> MainWindow:
            settings = AppSettings(QSettings(str(work / "settings.ini"), QSettings.Format.IniFormat))
            settings.output_dir = str(work / "releases")
            w = MainWindow(settings, open_url=lambda url: True)
            w.show()
            _settle(app, 0.6)  # the window fits itself to the screen once shown
            # (MainWindow.fit_to_screen, again when the frame is known) ...
            w.setMinimumSize(0, 0)  # ... and is then given the picture's size, whatever screen takes the pictures
            w.resize(*SIZE)
            app.processEvents()
            return w

        # 1. empty
        w = new_window()
        shots.append(_save(w, out_dir / "empty.png"))

        # 2. inspected (English), then the same window in Japanese
        (item,) = w.open_paths([resource_path(*SAMPLE_MODEL)])
        _wait(app, lambda: item.state == "ready")
        shots.append(_save(w, out_dir / "inspected.png"))
        w.set_language("ja")
        _wait(app, lambda: w.menu_file.title() != "&File")
        shots.append(_save(w, out_dir / "inspected-ja.png"))
        w.tabs.setCurrentIndex(1)
        shots.append(_save(w, out_dir / "bundle-form-ja.png"))
        # a failed check, in Japanese: the model's data file is missing, so it cannot be queued
        lost = work / "lost"
        lost.mkdir()
        shutil.copyfile(resource_path(*SAMPLE_MODEL), lost / "victory.onnx")  # without victory.onnx.data
        (lost_item,) = w.open_paths([lost / "victory.onnx"])
        _wait(app, lambda: lost_item.state in ("invalid", "failed"))
        w.tabs.setCurrentIndex(0)
        w.model_panel.tabs.setCurrentIndex(2)  # Findings
        shots.append(_save(w, out_dir / "failed-check-ja.png"))
        w.tabs.setCurrentIndex(1)
        shots.append(_save(w, out_dir / "failed-check-bundle-ja.png"))
        w._remove(lost_item)
        w.queue.select(item)
        w.set_language("en")
        _wait(app, lambda: w.menu_file.title() == "&File")

        # 3. done: the sample bundled with its smoke run and equality proof
        w.tabs.setCurrentIndex(1)
        w.bundle_panel.version.setText("1.0.0")
        w.start_bundles()
        _wait(app, lambda: item.state in ("done", "failed"))
        if item.state != "done":
            raise RuntimeError(f"bundling the sample failed: {item.error}")
        shots.append(_save(w, out_dir / "done.png"))

        # 4. running: a larger synthetic model, grabbed mid-merge (a slowed progress shows time left)
        big = make_external_model(work / "big", 256 * 2**20, tensor_bytes=16 * 2**20, name="encoder")
        real = engine.bundle_job

        def slowed_job(options: Any) -> Any:
            body = real(options)

            def run(progress: Any, cancel: Any) -> Any:
                def slow(ev: Any) -> None:
                    progress(ev)
                    if ev.stage == "merge":
                        cancel.wait(0.08)

                return body(slow, cancel)

            return run

        engine.bundle_job = slowed_job  # type: ignore[assignment]
        try:
            (big_item,) = w.open_paths([big])
            _wait(app, lambda: big_item.state == "ready")
            w.bundle_panel.version.setText("2.0.0")
            w.start_bundles()

            def mid_merge() -> bool:
                if big_item.state != "running" or w.run_panel.stage_state("merge") != "running":
                    return False
                ev = w.run_panel._last.get("merge")
                return ev is not None and ev.total > 0 and ev.done / ev.total > 0.4

            _wait(app, mid_merge)
            shots.append(_save(w, out_dir / "running.png"))
            w.cancel_bundles()
            _wait(app, lambda: big_item.state in ("cancelled", "done", "failed"))
        finally:
            engine.bundle_job = real  # type: ignore[assignment]

        # 5. error: a truncated model dropped on the window
        bad = work / "broken" / "detector.onnx"
        bad.parent.mkdir()
        bad.write_bytes((resource_path(*SAMPLE_MODEL)).read_bytes()[:700])
        (bad_item,) = w.open_paths([bad])
        _wait(app, lambda: bad_item.state == "failed" and w.last_error is not None)
        error_box = w.last_error
        assert error_box is not None
        shots.append(_save(w, out_dir / "error.png", error_box))
        error_box.done(0)
        # ... and in Japanese, with the details open: the engine's English message is kept there
        w.set_language("ja")
        _wait(app, lambda: w.menu_file.title() != "&File")
        bad_ja = work / "broken-ja" / "detector.onnx"
        bad_ja.parent.mkdir()
        bad_ja.write_bytes(bad.read_bytes())
        (bad_ja_item,) = w.open_paths([bad_ja])
        _wait(app, lambda: bad_ja_item.state == "failed" and w.last_error is not error_box)
        error_box = w.last_error
        assert error_box is not None
        for button in error_box.buttons():  # "Show Details…"
            if error_box.buttonRole(button) == error_box.ButtonRole.ActionRole:
                button.click()
        _wait(app, lambda: True)
        shots.append(_save(w, out_dir / "error-ja.png", error_box))
        error_box.done(0)
        w.close()
        QApplication.processEvents()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return shots


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else ROOT / "docs" / "screenshots"
    for path in take_screenshots(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
