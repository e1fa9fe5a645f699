"""The window's rows: opening paths (dialogs, the sample, drops) as rows that are inspected, read or verified off
the GUI thread, a release split into its models, a data file located, the rows checked again for another target,
and rows removed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog

from onnxpack.core.resources import SAMPLE_MODEL, resource_path

from . import engine
from .model.state import ItemState, JobKind, Kind, QueueItem
from .worker import Job

if TYPE_CHECKING:
    from .main_window import MainWindow

__all__ = ["Rows"]

translate = QCoreApplication.translate
_TARGET = re.compile(r"\d+\.\d+(\.\d+)?")


class Rows:
    """What the window does to its rows (the queue's model is the session's; the table follows it)."""

    def __init__(self, window: MainWindow) -> None:
        self.w = window
        self.warmed = False  # the engine's modules imported on the inspection thread (warm_up)

    def open_dialog(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self.w,
            translate("MainWindow", "Open models or bundles"),
            self.w.settings.open_dir,
            translate("MainWindow", "Models and bundles (*.onnx *.ort *.zip);;All files (*)"),
        )
        if files:
            self.w.settings.open_dir = str(Path(files[0]).parent)
            self.open_paths([Path(f) for f in files])

    def open_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self.w, translate("MainWindow", "Open model folder"), self.w.settings.open_dir
        )
        if folder:
            self.w.settings.open_dir = folder
            self.open_paths([Path(folder)])

    def open_sample(self) -> None:
        self.open_paths([resource_path(*SAMPLE_MODEL)])

    def warm_up(self) -> Job | None:
        """Import the engine on the inspection thread now that the window is up (see engine.warm_up_job); once."""
        if self.warmed:
            return None
        self.warmed = True
        return self.w.inspect_queue.submit(Job(engine.warm_up_job(), kind=JobKind.WARM_UP))

    def open_paths(self, paths: Iterable[Path | str]) -> list[QueueItem]:
        """Queue each path: models are inspected, bundles verified; an already listed path is refreshed."""
        added: list[QueueItem] = []
        expanded = [Path(raw).absolute() for raw in paths]
        for path in expanded:
            existing = self.w.model.find(path)
            if existing is not None and existing.busy:
                continue
            item = existing
            if item is None:
                item = self.w.model.add(path, self.w.session.kind_of(path))
                self.w.queue.add(item)
            item.error = None
            item.validation = item.report = item.release = None
            self.open_item(item)
            added.append(item)
        if added:
            self.w.stack.setCurrentIndex(1)
            self.w._select(added[0])
            self.w.show_tab("model")
            self.w.queue.setFocus()
        self.w._update_actions()
        return added

    def open_item(self, item: QueueItem, smoke: bool = False) -> None:
        """Run the item kind's opening job (a model is inspected, a bundle verified)."""
        openers: dict[JobKind, Callable[[QueueItem], None]] = {
            JobKind.INSPECT: self.inspect,
            JobKind.SCAN: self.scan,
            JobKind.VERIFY: lambda i: self.verify(i, smoke),
        }
        openers[JobKind(item.spec.opening_job)](item)

    def scan(self, item: QueueItem) -> None:
        """Read a release folder (its models, assets and what is left out) and check each model, off the GUI thread."""
        self.w._set_state(item, ItemState.INSPECTING)
        self.w._log(item, translate("MainWindow", "Reading the release folder %1").replace("%1", str(item.path)))
        target = self.w.settings.target_ort or None
        item.inspected_target = target
        job = Job(engine.release_job(item.path, target), kind=JobKind.SCAN)
        self.w.inspect_queue.submit(self.w.jobs.route(job, item))
        self.warm_up()

    def release_model_chosen(self, index: int) -> None:
        """The Model tab shows another model of the selected release (its own overview, interface and findings)."""
        item = self.w.model.selected
        if item is not None and item.release is not None and index != item.shown_model:
            item.shown_model = index
            self.w.render_selected()

    def split_selected_release(self) -> list[QueueItem]:
        """File → Bundle each model of the release on its own: the release row gives way to one row per model (each
        bundled into a ZIP of its own, as before releases of several files), checked already by the release's
        reading."""
        item = self.w.model.selected
        if item is None or item.release is None or item.busy:
            return []
        scan = item.release
        index = self.w.model.items.index(item)
        self.remove(item)
        rows: list[QueueItem] = []
        for model, val in zip(scan.tree.models, scan.validations, strict=True):
            path = Path(model.path)
            existing = self.w.model.find(path)
            if existing is not None:
                rows.append(existing)
                continue
            row = self.w.model.add(path, Kind.MODEL)
            self.w.model.items.remove(row)  # in the release row's place, in the folder's order
            self.w.model.items.insert(index + len(rows), row)
            self.rebuild_queue()
            self.w._log(
                row,
                translate("MainWindow", "%1 comes from the release %2; it is bundled on its own.")
                .replace("%1", model.member)
                .replace("%2", str(scan.tree.root)),
            )
            row.inspected_target = item.inspected_target
            self.w.session.inspected(row, val)
            rows.append(row)
        self.w._log(None, self.w.count_text("queued each", len(rows)).replace("%1", str(scan.tree.root)))
        self.w.statusBar().showMessage(self.w.count_text("own rows", len(rows)).replace("%1", item.path.name), 10_000)
        if self.w.model.items:
            self.w.stack.setCurrentIndex(1)
        if rows:
            self.w._select(rows[0])
        self.w._update_actions()
        return rows

    def rebuild_queue(self) -> None:
        """The table's rows again from the model's (a row inserted in the middle)."""
        self.w.queue.setRowCount(0)
        for row in self.w.model.items:
            self.w.queue.add(row)

    def inspect(self, item: QueueItem) -> None:
        self.w._set_state(item, ItemState.INSPECTING)
        self.w._log(item, translate("MainWindow", "Inspecting %1").replace("%1", str(item.path)))
        target = self.w.settings.target_ort or None
        item.inspected_target = target
        job = Job(engine.inspect_job(item.path, target, item.data_dir), kind=JobKind.INSPECT)
        self.w.inspect_queue.submit(self.w.jobs.route(job, item))
        # Then the rest of the engine (bundle, smoke, verify), on that thread: pressing Bundle must not import
        # them on the GUI thread (that would freeze the window when the app is started with a model to open).
        self.warm_up()

    def verify(self, item: QueueItem, smoke: bool = False) -> None:
        item.verified_with_smoke = smoke
        item.report = None
        item.error = None
        self.w._set_state(item, ItemState.VERIFYING)
        text = (
            translate("MainWindow", "Verifying %1 with a smoke run")
            if smoke
            else translate("MainWindow", "Verifying %1")
        )
        self.w._log(item, text.replace("%1", str(item.path)))
        job = Job(engine.verify_job(item.path, smoke), kind=JobKind.VERIFY)
        self.w.inspect_queue.submit(self.w.jobs.route(job, item))
        self.w._refresh_views(item)

    def locate_data_file(self) -> None:
        """File → Locate data file…: the selected model's external data is elsewhere; inspect it again with it."""
        item = self.w.model.selected
        if item is None or not item.spec.locates_data or item.busy:
            return
        start = str(item.data_dir or item.path.parent)
        title, filters = self.w.session.data_file_prompt(item)
        path, _ = QFileDialog.getOpenFileName(self.w, title, start, filters)
        if path:
            self.w.data_file_chosen(item, Path(path))

    def set_data_dir(self, item: QueueItem, folder: Path) -> None:
        """Inspect ``item`` again with its external data files looked up in ``folder`` (the bundle uses it too)."""
        item.data_dir = folder
        item.error = None
        item.validation = None
        text = translate("MainWindow", "Looking for the data files of %1 in %2")
        self.w._log(item, text.replace("%1", item.path.name).replace("%2", str(folder)))
        self.inspect(item)
        self.w._refresh_views(item)

    def retarget(self) -> list[QueueItem]:
        """Inspect again every idle model checked for another Target ONNX Runtime than the one now set (a complete
        X.Y or none): the findings, the hints and Bundle follow the target the bundle will be made for."""
        text = self.w.bundle_panel.target_ort.currentText().strip()
        if text and not _TARGET.fullmatch(text):
            return []  # still being typed
        stale = self.w.model.stale_for(text or None)
        for item in stale:
            line = translate("MainWindow", "Checking %1 again for ONNX Runtime %2")
            self.w._log(item, line.replace("%1", item.path.name).replace("%2", text or translate("MainWindow", "any")))
            self.open_item(item)
            self.w._refresh_views(item)
        return stale

    def verify_selected_with_smoke(self) -> None:
        item = self.w.model.selected
        if item is not None and item.spec.verifies_with_smoke and not item.busy:
            self.verify(item, smoke=True)

    def remove_selected(self) -> None:
        item = self.w.model.selected
        if item is None:
            return
        if item.job is not None:
            queue = self.w.bundle_queue if item.job.kind == JobKind.BUNDLE else self.w.inspect_queue
            if item.state == ItemState.RUNNING:
                self.w.cancel_bundles()
                return  # the row stays until its cancellation is confirmed
            queue.cancel(item.job)
        if item in self.w.model.items:
            self.remove(item)

    def remove(self, item: QueueItem) -> None:
        self.w._store_shown_draft()
        row = self.w.queue.row_of(item)
        selected = self.w.model.remove(item)
        self.w._syncing = True  # the table's own selection signals are not the user's: the model decides
        try:
            self.w.queue.remove_row(row)
            self.w.queue.select(selected)
        finally:
            self.w._syncing = False
        if not self.w.model.items:
            self.w.stack.setCurrentIndex(0)
        self.w.render_selected()  # Qt does not signal a selection change for a removed row: re-render from the model

    def clear_finished(self) -> None:
        for item in [i for i in self.w.model.items if not i.busy]:
            self.remove(item)
