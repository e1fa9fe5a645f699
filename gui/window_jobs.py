"""A worker job's signals, routed in the GUI thread to the session (gui/model/session.py) and the Progress tab."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, QObject

from onnxpack.core.errors import OnnxpackError
from onnxpack.core.progress import ProgressEvent

from .messages import stage_detail
from .model.state import ItemState, JobKind, QueueItem, skipped_stages
from .worker import Job

if TYPE_CHECKING:
    from .main_window import MainWindow

__all__ = ["JobRouter"]

translate = QCoreApplication.translate


class JobRouter(QObject):
    """Connects each job of a row to the outcome the session gives it (a job's row is its ``payload``)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.w = window

    def route(self, job: Job, item: QueueItem) -> Job:
        """Route ``job``'s signals (it works for ``item``) to the session."""
        job.payload = item
        item.job = job
        job.signals.started.connect(self.started)
        job.signals.progress.connect(self.progress)
        job.signals.succeeded.connect(self.succeeded)
        job.signals.failed.connect(self.failed)
        job.signals.cancelled.connect(self.cancelled)
        return job

    def _job_of_sender(self) -> Job | None:
        signals = self.sender()
        for item in self.w.model.items:
            if item.job is not None and item.job.signals is signals:
                return cast(Job, item.job)
        return None

    def _item_for_sender(self) -> tuple[Job, QueueItem] | None:
        job = self._job_of_sender()
        if job is None or not isinstance(job.payload, QueueItem):
            return None
        return job, job.payload

    def started(self) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        if job.kind != JobKind.BUNDLE:
            return
        self.w.session.current_bundle = item
        title = self.w.session.run_title(item)
        skipped = skipped_stages(item.options)
        if self.w.model.selected is None:  # the user's selection stays where they put it: it never jumps from
            self.w._select(item)  # row to row with a batch, nor stays on another row after it
        scan = item.release
        models = [scan.member(i) for i in range(scan.models)] if scan is not None else []
        item.run = self.w.run_panel.start(title, skipped=skipped, show=self.w.model.selected is item, models=models)
        self.w._set_state(item, ItemState.RUNNING)  # after the panel: the queue row and the panel agree
        self.w._log(
            item,
            translate("MainWindow", "Bundling %1 as %2 %3")
            .replace("%1", str(item.path))
            .replace("%2", item.draft.name)
            .replace("%3", item.draft.version),
        )
        if self.w.model.selected is item:
            self.w.show_tab("progress")
        self.w._refresh_views(item)

    def progress(self, ev: ProgressEvent) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        if job.kind != JobKind.BUNDLE or item.state == ItemState.CANCELLING:
            return
        self.w.run_panel.on_progress(ev)
        fraction = item.run.fraction(ev.stage) if item.run is not None else None  # None: no amount (installing…)
        name = self.w.run_panel.stage_name(ev.stage)
        if fraction is None:  # no amount (installing a release's wheels): say what is being done
            detail = stage_detail(ev) if ev.message else ""
            item.progress = f"{name}: {detail} …" if detail else f"{name} …"
        else:
            item.progress = f"{name} {fraction * 100:.0f} %"
        self.w.queue.refresh(item)

    def succeeded(self, result: Any) -> None:
        found = self._item_for_sender()
        if found is None:
            return
        job, item = found
        item.job = None
        s = self.w.session
        outcomes: dict[JobKind, Callable[[QueueItem, Any], None]] = {
            JobKind.INSPECT: s.inspected,
            JobKind.SCAN: s.scanned,
            JobKind.VERIFY: s.verified,
            JobKind.BUNDLE: s.bundled,
            JobKind.SUGGEST: s.suggested,
        }
        outcomes[JobKind(job.kind)](item, result)
        self.w._refresh_views(item)

    def failed(self, err: OnnxpackError) -> None:
        found = self._item_for_sender()
        if found is not None:
            found[1].job = None
            self.w.session.failed(found[1], JobKind(found[0].kind), err)

    def cancelled(self) -> None:
        found = self._item_for_sender()
        if found is not None:
            found[1].job = None
            self.w.session.cancelled(found[1], JobKind(found[0].kind))
