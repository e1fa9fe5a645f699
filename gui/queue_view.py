"""The queue: one row per dropped model or bundle with its own status and result."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from .icons import status_icon
from .messages import gui_message
from .state import BUSY_STATES, ItemState, Kind, QueueItem, QueueModel, default_bundle_name
from .widgets import Retranslatable

__all__ = ["BUSY_STATES", "ItemState", "QueueItem", "QueueTable", "default_bundle_name"]

#: state → icon kind (the text is always shown too)
_ICON = {
    ItemState.INSPECTING: "busy",
    ItemState.VERIFYING: "busy",
    ItemState.READY: "ready",
    ItemState.INVALID: "failed",  # error findings: the same red mark as the Model tab's status and Findings tab
    ItemState.QUEUED: "queued",
    ItemState.RUNNING: "running",
    ItemState.CANCELLING: "busy",
    ItemState.DONE: "done",
    ItemState.VERIFIED: "ok",
    ItemState.VERIFY_FAILED: "failed",
    ItemState.FAILED: "failed",
    ItemState.CANCELLED: "cancelled",
}


class QueueTable(Retranslatable, QTableWidget):
    """Rows of the QueueModel's items: name, kind, status (icon + words), result. The table holds no state of its
    own: its rows are ``model.items``, in order."""

    def __init__(self, model: QueueModel | None = None, parent: QWidget | None = None) -> None:
        super().__init__(0, 4, parent)
        self.model_ = model if model is not None else QueueModel()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().setVisible(False)
        self.setWordWrap(False)
        self.setTabKeyNavigation(False)
        header = self.horizontalHeader()
        # The name gets its width (at most NAME_WIDTH; a longer one is cut in the middle, whole in its tooltip), the
        # kind and status theirs (the status uncapped), the result the rest (stretched, cut in the middle, whole in
        # its tooltip). When the pane is narrow, name and status give way so the Result column keeps RESULT_MIN: the
        # four columns always fit the pane and nothing hides behind a horizontal scroll bar (issue 30 item 12).
        header.setMinimumSectionSize(self.MIN_COLUMN)
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.retranslate()

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels([self.tr("Item"), self.tr("Kind"), self.tr("Status"), self.tr("Result")])
        self.setAccessibleName(self.tr("Queue of models and bundles"))
        for item in self.entries:
            self.refresh(item)
        self._fit_columns()

    def state_text(self, state: str) -> str:
        return {
            "inspecting": self.tr("Inspecting…"),
            "verifying": self.tr("Verifying…"),
            "ready": self.tr("Ready"),
            "invalid": self.tr("Has errors"),
            "queued": self.tr("Queued"),
            "running": self.tr("Bundling…"),
            "cancelling": self.tr("Cancelling…"),
            "done": self.tr("Bundled"),
            "verified": self.tr("Verified"),
            "verify_failed": self.tr("Verification failed"),
            "failed": self.tr("Failed"),
            "cancelled": self.tr("Cancelled"),
        }.get(state, state)

    @property
    def entries(self) -> list[QueueItem]:
        return self.model_.items

    def kind_text(self, kind: Kind) -> str:
        return {Kind.MODEL: self.tr("Model"), Kind.BUNDLE: self.tr("Bundle")}[Kind(kind)]

    NAME_WIDTH = 150
    RESULT_MIN = 90  # the Result column never gets less (a path or message cut in the middle, whole in its tooltip)
    MIN_COLUMN = 36

    def add(self, item: QueueItem) -> int:
        """Show ``item``, which the model has just added (its last row)."""
        row = self.rowCount()
        self.insertRow(row)
        self.refresh(item)
        self._fit_columns()
        return row

    def result_min(self) -> int:
        """The Result column's floor: RESULT_MIN, or a quarter of a narrow pane (2× scaling), so the names keep room."""
        return min(self.RESULT_MIN, self.viewport().width() // 4)

    def _wanted(self, column: int) -> int:
        """The width ``column``'s contents and header ask for."""
        return max(self.sizeHintForColumn(column), self.horizontalHeader().sectionSizeHint(column))

    def _fit_columns(self) -> None:
        """Name, kind and status get what they ask for (the name capped; the status as wide as its words in this
        language and font, never cut to a fixed width: "バン…済み"); when that leaves the Result column less than
        result_min() of the pane, name and status shrink in proportion (never below MIN_COLUMN)."""
        kind = self._wanted(1)
        name, status = min(self._wanted(0), self.NAME_WIDTH), self._wanted(2)
        room = self.viewport().width() - kind - self.result_min()
        if name + status > room:
            name = max(self.MIN_COLUMN, room * name // (name + status))
            status = max(self.MIN_COLUMN, room - name)
        for column, width in ((0, name), (1, kind), (2, status)):
            if self.columnWidth(column) != width:
                self.setColumnWidth(column, width)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_columns()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:  # a vertical scroll bar came or went: the pane's width changed
            self._fit_columns()
        return super().viewportEvent(event)

    def remove_row(self, row: int) -> None:
        """The model removed the item of ``row``: drop the row (the window selects what the model selected)."""
        self.removeRow(row)

    def row_of(self, item: QueueItem) -> int:
        return self.entries.index(item)

    def item_at(self, row: int) -> QueueItem | None:
        return self.entries[row] if 0 <= row < len(self.entries) else None

    def selected(self) -> QueueItem | None:
        rows = self.selectionModel().selectedRows()
        return self.item_at(rows[0].row()) if rows else None

    def select(self, item: QueueItem | None) -> None:
        if item is None:
            self.clearSelection()
        else:
            self.selectRow(self.row_of(item))

    def result_text(self, item: QueueItem) -> str:
        if item.error is not None and item.state in ("failed",):
            return gui_message(item.error)
        if item.state == "running":
            return item.progress
        if item.state == "done" and item.result is not None:
            return str(item.result.zip_path)
        if item.state in ("cancelled", "failed") and item.last_success is not None:  # its earlier bundle is there
            return str(item.last_success.zip_path)
        return ""  # nothing bundled yet: no result to show (the planned name is in the Bundle tab)

    def refresh(self, item: QueueItem) -> None:
        row = self.row_of(item)
        values = [item.path.name, self.kind_text(item.kind), self.state_text(item.state), self.result_text(item)]
        for col, text in enumerate(values):
            cell = self.item(row, col)
            if cell is None:
                cell = QTableWidgetItem()
                cell.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                self.setItem(row, col, cell)
            cell.setText(text)
            if col == 0:
                cell.setToolTip(str(item.path))
            if col == 2:
                cell.setIcon(status_icon(_ICON.get(item.state, "ready")))
                if cell.toolTip() != text:  # a new state: its words may need another width
                    cell.setToolTip(text)
                    self._fit_columns()
            if col == 3:
                cell.setToolTip(text)
