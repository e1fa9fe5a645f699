"""Last-resort error handling: log unexpected exceptions to the app-data folder and show a dialog."""

from __future__ import annotations

import datetime
import sys
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QObject, QStandardPaths, Signal

__all__ = ["CrashReporter", "install_excepthook", "log_dir", "write_crash_log"]


def log_dir() -> Path:
    """``<AppDataLocation>/logs`` (e.g. %APPDATA%/onnxpack/onnxpack/logs on Windows)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not base:  # no writable location known on this platform
        base = str(Path.home() / ".onnxpack")
    return Path(base) / "logs"


def write_crash_log(text: str) -> Path | None:
    """Append ``text`` with a timestamp to today's crash log; return its path (None if it cannot be written)."""
    now = datetime.datetime.now()
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"crash-{now:%Y%m%d}.log"
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"--- {now.isoformat(timespec='seconds')} ---\n{text.rstrip()}\n\n")
        return path
    except OSError:
        return None


class CrashReporter(QObject):
    """Receives uncaught exceptions from any thread and re-emits them in the GUI thread.

    ``crashed(summary, details, log_path)`` is connected to whatever shows the dialog.
    """

    crashed = Signal(str, str, str)

    def report(
        self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
    ) -> None:
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log = write_crash_log(details)
        self.crashed.emit(f"{exc_type.__name__}: {exc}", details, str(log) if log else "")


def install_excepthook(
    show: Callable[[str, str, str], None], parent: QObject | None = None
) -> CrashReporter:
    """Route ``sys.excepthook`` and ``threading.excepthook`` to ``show(summary, details, log_path)``.

    KeyboardInterrupt keeps Python's default behaviour. Returns the reporter (keep a reference).
    """
    reporter = CrashReporter(parent)
    reporter.crashed.connect(show)
    previous = sys.excepthook

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous(exc_type, exc, tb)
            return
        try:
            reporter.report(exc_type, exc, tb)
        except Exception:  # the hook itself must never raise
            previous(exc_type, exc, tb)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        hook(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = hook
    threading.excepthook = thread_hook
    return reporter
