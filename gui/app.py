"""GUI entry point: ``create_app(argv)`` builds the QApplication, ``run()`` shows the window (onnxpack-gui)."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from onnxpack.core import __version__

from . import i18n
from .crash import install_excepthook
from .icons import app_icon
from .settings import AppSettings

__all__ = ["STARTUP_LOG_ENV", "create_app", "main", "run"]

ORGANIZATION = "onnxpack"
APPLICATION = "onnxpack"
# Set to a file path, the app writes there how long it took from process creation to the main window shown on the
# real platform (benchmarks/windows_startup.py under Wine; the self-test measures the same offscreen).
STARTUP_LOG_ENV = "ONNXPACK_STARTUP_LOG"


def create_app(argv: Sequence[str] | None = None) -> QApplication:
    """Create (or return the existing) QApplication, named for QSettings/QStandardPaths, with the
    app icon and the translators for the saved language choice (or the system language)."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        app = existing
    else:
        # Qt 6 is always high-DPI aware; pass fractional scale factors (125 %, 150 %) through unrounded.
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(list(argv) if argv is not None else sys.argv[:1])
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APPLICATION)
    QCoreApplication.setApplicationVersion(__version__)
    # No applicationDisplayName: X11/Wayland append it to every window title ("onnxpack — … — onnxpack").
    QGuiApplication.setDesktopFileName("onnxpack")
    app.setWindowIcon(app_icon())
    # No style sheet and no hard-coded colours: the platform style and palette follow the system's
    # light/dark scheme (and switch live when it changes).
    i18n.install_translators(app, AppSettings().language)
    return app


def _paths_from(argv: Sequence[str]) -> list[Path]:
    """Files given on the command line (also what dropping files onto the executable's icon gives)."""
    return [Path(a) for a in argv if not a.startswith("-")]


def _write_startup_log(path: str, started_at: float | None) -> None:
    from .selftest import process_start_time

    started, clock = process_start_time(started_at)
    doc = {"startup_seconds": round(time.time() - started, 3), "startup_clock": clock,
           "platform": QGuiApplication.platformName()}  # fmt: skip
    try:
        Path(path).write_text(json.dumps(doc), encoding="utf-8")
    except OSError as e:  # a measurement aid: never a reason for the app not to start
        print(f"onnxpack-gui: cannot write {STARTUP_LOG_ENV}={path}: {e}", file=sys.stderr)


def run(argv: Sequence[str] | None = None, *, started_at: float | None = None) -> int:
    """Start the GUI; arguments are models, folders or bundles to open at once.

    ``--self-test [REPORT.json]`` runs the self-test instead (the same for the pip-installed ``onnxpack-gui`` and
    the frozen executable).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--self-test"]:
        from .selftest import main as self_test

        return self_test(args[1:], started_at=started_at)
    app = create_app([sys.argv[0], *args])
    from .main_window import MainWindow

    window = MainWindow()
    hook_owner = install_excepthook(window.show_crash, window)
    window.show()
    startup_log = os.environ.get(STARTUP_LOG_ENV)
    if startup_log:  # written once the first show has been processed
        QTimer.singleShot(0, lambda: _write_startup_log(startup_log, started_at))
    paths = _paths_from(app.arguments()[1:])
    if paths:
        window.open_paths(paths)
    else:
        # After the first paint: import the engine in the background (a model given on the command
        # line already does it through its inspection).
        QTimer.singleShot(0, window.warm_up)
    code = app.exec()
    del hook_owner
    from onnxpack.core.child.childproc import reap_children

    reap_children()  # no zombie python3 left behind by the checker and smoke children
    return int(code)


def main() -> None:
    sys.exit(run())


if __name__ == "__main__":
    main()
