"""The window as the session sees it (:class:`onnxpack.gui.model.session.SessionView`): its words in the app's
language (gui/messages.py, gui/hints.py) and what it shows."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core.errors import OnnxpackError

from .hints import gui_hint, tick
from .messages import gui_message
from .model.state import ItemState, QueueItem
from .widgets.model_panel import finding_hint, release_counts

if TYPE_CHECKING:
    from onnxpack.core.release.verify.verify import VerifyReport

    from .main_window import MainWindow

__all__ = ["WindowView"]


class WindowView:
    """:class:`SessionView` of ``window``: every call is the window's own (its panels, its log, its dialogs)."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window

    def translate(self, context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
        return QCoreApplication.translate(context, text, disambiguation, n)

    def message(self, item: Any) -> str:
        return gui_message(item)

    def hint(self, code: str | None, hint: str | None, params: Any = None) -> str | None:
        return gui_hint(code, hint, params)

    def tick(self, name: str) -> str:
        return tick(name)

    def release_counts(self, models: int, assets: int) -> str:
        return release_counts(models, assets)

    def count_text(self, key: str, n: int) -> str:
        return self.w.count_text(key, n)

    def state_text(self, state: ItemState) -> str:
        return self.w.queue.state_text(state)

    def smoke_text(self, report: VerifyReport) -> str:
        return self.w.model_panel.smoke_text(report, True)[1]

    def finding_hint(self, finding: Any, gate: Any) -> str | None:
        return finding_hint(finding, gate)

    def set_state(self, item: QueueItem, state: ItemState) -> None:
        self.w._set_state(item, state)

    def refresh(self, item: QueueItem) -> None:
        self.w._refresh_views(item)

    def update_actions(self) -> None:
        self.w._update_actions()

    def log_line(self, item: QueueItem | None, line: str) -> None:
        self.w._log(item, line)

    def show_error(self, err: OnnxpackError, title: str) -> Any:
        return self.w.show_error(err, title)

    def show_tab(self, name: str) -> None:
        self.w.show_tab(name)

    def run_finished(self, outcome: str, stage: str | None = None) -> None:
        self.w.run_panel.finish(outcome, stage)

    def store_shown_draft(self) -> None:
        self.w._store_shown_draft()

    def previous_changed(self, path: str, item: QueueItem) -> None:
        self.w._previous_changed(path, item)

    def set_data_dir(self, item: QueueItem, folder: Path) -> None:
        self.w.set_data_dir(item, folder)
