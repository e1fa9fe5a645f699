"""Starting and stopping bundles from the window: the Bundle tab's form and the selected rows become a batch of jobs
(the checks and outcomes are the session's, gui/model/session.py), Bundle all's question, Cancel, and the version a
previous release suggests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox

from onnxpack.core.errors import OnnxpackError

from . import engine
from .hints import tick
from .model.state import BatchPlan, ItemState, JobKind, QueueItem
from .worker import Job

if TYPE_CHECKING:
    from .main_window import MainWindow

__all__ = ["Bundler"]

translate = QCoreApplication.translate


class Bundler:
    """The window's bundle runs: ``start`` (Bundle, Bundle all), ``cancel_running``/``cancel_all``, and the
    previous release of a row (its suggested version)."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window

    def start(self, all_ready: bool = False) -> list[QueueItem]:
        """Queue the selected model (or every inspected, idle model) for bundling, one after another.

        Bundle all sets aside the rows that made their ZIP already and asks before running the others:
        the question is ``self.w.skip_question``; its answer starts them (or nothing)."""
        self.w._store_shown_draft()
        fix_ir = self.w._fix_ir()
        if all_ready:
            items = self.w.model.ready(fix_ir)
        else:
            sel = self.w.model.selected
            items = [sel] if sel is not None and self.w.model.can_bundle(sel, fix_ir) else []
        if not items:
            return []
        shared = self.w.bundle_panel.shared_options()
        try:
            options = {item: self.w._options_for(item, shared) for item in items}
            plan = self.w.model.plan(items, shared["out_dir"], force=bool(shared.get("force")), skip_bundled=all_ready)
            self.w.session.check_plan(plan, self.w.queue.names)
        except OnnxpackError as e:
            self.w.show_error(e, translate("MainWindow", "Cannot start bundling"))
            return []
        if plan.already_bundled:
            self.ask_to_skip(plan, options)
            return []
        return self.run_plan(plan, options)

    def ask_to_skip(self, plan: BatchPlan, options: dict[QueueItem, Any]) -> None:
        done = [target.name for _, target in plan.already_bundled]
        box = QMessageBox(self.w)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(translate("MainWindow", "Bundle all"))
        box.setText(self.w.count_text("bundled already", len(done)).replace("%1", ", ".join(done)))
        box.setInformativeText(
            self.w.count_text("skip others", len(plan.run))
            if plan.run
            else translate("MainWindow", "Every ready model is bundled already. To make a bundle again, %1.").replace(
                "%1", tick("force")
            )
        )
        skip = (
            box.addButton(translate("MainWindow", "&Skip bundled rows"), QMessageBox.ButtonRole.AcceptRole)
            if plan.run
            else None
        )
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(skip or cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: Any) -> None:
            self.w.skip_question = None
            if skip is not None and button is skip:
                for item, target in plan.already_bundled:
                    text = translate("MainWindow", "Skipped %1: bundled already as %2")
                    self.w._log(item, text.replace("%1", item.path.name).replace("%2", str(target)))
                self.run_plan(plan, options)

        box.buttonClicked.connect(answered)
        self.w.skip_question = box
        box.open()

    def run_plan(self, plan: BatchPlan, options: dict[QueueItem, Any]) -> list[QueueItem]:
        self.w.session.batch = plan.items
        self.w.session.batch_failures = []
        for item in plan.items:
            item.options = options[item]
            if item.result is not None:
                item.last_success = item.result
            item.result = None
            item.error = None
            item.progress = ""
            self.w._set_state(item, ItemState.QUEUED)
            job = Job(engine.bundle_job(options[item]), kind=JobKind.BUNDLE)
            self.w.bundle_queue.submit(self.w.jobs.route(job, item))
        self.w.render_selected()
        return plan.items

    def cancel_running(self) -> None:
        """Esc, File → Cancel running bundle, the Progress tab's Cancel: cancel the running bundle only; the queued
        rows stay queued and the next one starts. The engine removes its partial output."""
        item = self.w.session.running_bundle(self.w.bundle_queue.jobs)
        if item is not None and item.state is not ItemState.CANCELLING:
            self.cancel_rows([item])

    def cancel_all(self) -> None:
        """File → Cancel all bundles (Shift+Esc): the running bundle and every queued one."""
        self.cancel_rows(self.w.session.bundle_rows(self.w.bundle_queue.jobs))

    def cancel_rows(self, items: list[QueueItem]) -> None:
        if not items:
            return
        for item in items:
            if item.state == ItemState.RUNNING:
                self.w._set_state(item, ItemState.CANCELLING)
                self.w.run_panel.stopping()
        for item in reversed(items):
            if item.job is not None:
                self.w.bundle_queue.cancel(item.job)
        self.w._update_actions()

    def previous_changed(self, path: str, item: QueueItem | None = None) -> None:
        item = item or self.w.bundle_panel.draft_owner
        if item is None or not item.spec.bundles or item.validation is None:
            if item is not None and item.release is not None:
                item.draft.previous = path  # the release's diff is made by the bundle run (its Result tab)
            return
        item.draft.previous = path
        item.draft.suggested = ""
        if self.w.bundle_panel.draft_owner is item:
            self.w.bundle_panel.set_suggestion("")
        if not path:
            return
        location = item.validation.inspection.location
        target = self.w.bundle_panel.target_ort.currentText().strip() or None
        job = Job(
            engine.suggest_job(Path(path), location.model, location.data_dir, target),
            kind=JobKind.SUGGEST,
        )
        # A suggestion job does not change the row's state; it runs beside inspections.
        job.payload = item
        job.signals.succeeded.connect(self.w.jobs.succeeded)
        job.signals.failed.connect(self.w.jobs.failed)
        item.job = job
        self.w.inspect_queue.submit(job)
