"""The queue: one row per dropped model or bundle with its own status and result."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QContextMenuEvent, QPainter, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ..icons import status_icon
from ..messages import gui_message
from ..model.state import BUSY_STATES, ItemState, Kind, QueueItem, QueueModel, default_bundle_name
from .common import Retranslatable
from .model_panel import release_counts

__all__ = ["BUSY_STATES", "ItemState", "QueueItem", "QueueTable", "default_bundle_name", "display_names",
           "distinct_elide"]

ELLIPSIS = "\u2026"


def display_names(paths: Sequence[Path]) -> list[str]:
    """What the Item column calls each row: its file name, with as many parent folders as make it differ from the
    other rows of the same file name ("encoder/model.onnx", "decoder/model.onnx")."""
    names = [p.name for p in paths]
    for depth in range(1, 8):
        clash = {n for n in names if names.count(n) > 1}
        if not clash:
            break
        names = [("/".join(p.parts[-depth - 1:]) if n in clash and len(p.parts) > depth else n)
                 for p, n in zip(paths, names, strict=True)]
    return names


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def distinct_elide(text: str, others: Sequence[str], width: int, advance: Callable[[str], int]) -> str:
    """``text`` shortened to ``width`` (measured by ``advance``) keeping the part that tells it from ``others``:
    "decoder_with_past_model.onnx" beside "decoder_model.onnx" becomes "…with_past_model.onnx", never the
    "decoder_…del.onnx" that both rows read when cut in the middle. The part that differs is kept
    whole when it fits (else its start); the rest of the width goes to the text after it, then before it; "…" marks
    each cut. None of it differs (no other row is like it): cut in the middle."""
    if advance(text) <= width:
        return text
    n = len(text)
    start = max((_common_prefix(text, o) for o in others if o != text), default=0)
    end = n - max((_common_prefix(text[::-1], o[::-1]) for o in others if o != text), default=0)
    if start >= end or (start == 0 and end == n):
        return _middle(text, width, advance)

    def shown(a: int, b: int) -> str:
        return (ELLIPSIS if a > 0 else "") + text[a:b] + (ELLIPSIS if b < n else "")

    a, b = start, end
    while b > a + 1 and advance(shown(a, b)) > width:  # the differing part alone is too wide: keep its start
        b -= 1
    while b < n and advance(shown(a, b + 1)) <= width:
        b += 1
    while a > 0 and advance(shown(a - 1, b)) <= width:
        a -= 1
    return shown(a, b)


def _middle(text: str, width: int, advance: Callable[[str], int]) -> str:
    keep = len(text)
    while keep > 1:
        keep -= 1
        head = (keep + 1) // 2
        candidate = text[:head] + ELLIPSIS + text[len(text) - (keep - head):]
        if advance(candidate) <= width:
            return candidate
    return ELLIPSIS


class _NameDelegate(QStyledItemDelegate):
    """Paints the Item column with :func:`distinct_elide` against the other rows' names."""

    def __init__(self, table: QueueTable) -> None:
        super().__init__(table)
        self.table = table

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        others = [t for r, t in enumerate(self.table.names) if r != index.row()]
        fm = opt.fontMetrics  # type: ignore[attr-defined]
        # a character to spare: text that fills the width exactly is cut again by Qt (its layout rounds up)
        width = rect.width() - 2 * margin - fm.averageCharWidth()
        opt.text = distinct_elide(opt.text, others, width, fm.horizontalAdvance)  # type: ignore[attr-defined]
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)

class _ResultDelegate(QStyledItemDelegate):
    """The Result column: a path is cut in the middle (its file name's end tells ZIPs apart), what a release holds at
    its end ("4 models, 5 a…": "4 mod…ssets" said nothing), the whole in the tooltip either way."""

    def __init__(self, table: QueueTable) -> None:
        super().__init__(table)
        self.table = table

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        item = self.table.item_at(index.row())
        if item is not None and item.release is not None and self.table.result_path(item) is None:
            option.textElideMode = Qt.TextElideMode.ElideRight  # type: ignore[attr-defined]


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

    #: a row's context menu is asked for: (the row's QueueItem, where to show it on the screen)
    menu_requested = Signal(object, QPoint)

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
        # four columns always fit the pane and nothing hides behind a horizontal scroll bar.
        header.setMinimumSectionSize(self.MIN_COLUMN)
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.names: list[str] = []  # the Item column's texts, by row (display_names)
        self.setItemDelegateForColumn(0, _NameDelegate(self))
        self.setItemDelegateForColumn(3, _ResultDelegate(self))
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
        words = {Kind.MODEL: self.tr("Model"), Kind.BUNDLE: self.tr("Bundle"), Kind.RELEASE: self.tr("Release")}
        return words[Kind(kind)]

    def row_names(self) -> list[str]:
        """The Item column's texts: each row's name (display_names; a release folder's is the folder's)."""
        return display_names([i.path for i in self.entries])

    @staticmethod
    def contents_text(item: QueueItem) -> str:
        """What a release folder holds ("2 models, 1 asset"), once read; "" for other rows."""
        return release_counts(item.release.models, item.release.assets) if item.release is not None else ""

    NAME_WIDTH = 150
    NAME_FLOOR_CHARS = 7  # a narrow pane takes width from the name (cut, whole in its tooltip) before the status
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
        if name + status > room:  # the name gives way first (down to a few characters), then the status
            floor = min(name, max(self.MIN_COLUMN, self.fontMetrics().averageCharWidth() * self.NAME_FLOOR_CHARS))
            name = max(floor, room - status)
            status = max(self.MIN_COLUMN, room - name)
        for column, width in ((0, name), (1, kind), (2, status)):
            if self.columnWidth(column) != width:
                self.setColumnWidth(column, width)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """The menu of the row under the pointer, or, from the keyboard (the Menu key), of the selected row below it
        (Qt places a keyboard's menu at the middle of the table, over whichever row lies there)."""
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            item = self.selected()
            if item is None:
                return
            rect = self.visualRect(self.model().index(self.row_of(item), 0))
            where = self.viewport().mapToGlobal(rect.bottomLeft())
        else:
            item = self.item_at(self.rowAt(event.pos().y()))
            where = event.globalPos()
        if item is not None:
            self.menu_requested.emit(item, where)
            event.accept()

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
        self.names = self.row_names()  # a name may no longer need its folder
        for r, text in enumerate(self.names):
            cell = self.item(r, 0)
            if cell is not None:
                cell.setText(text)

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

    def result_path(self, item: QueueItem) -> Path | None:
        """The ZIP the Result column names (its file name; the folder in its tooltip), if any."""
        if item.state == "done" and item.result is not None:
            return Path(item.result.zip_path)
        if item.state in ("cancelled", "failed") and item.last_success is not None and item.error is None:
            return Path(item.last_success.zip_path)  # its earlier bundle is there
        return None

    def result_text(self, item: QueueItem) -> str:
        if item.error is not None and item.state in ("failed",):
            return gui_message(item.error)
        if item.state == "running":
            return item.progress
        zip_path = self.result_path(item)
        if zip_path is not None:
            return zip_path.name  # "/tmp/g….0.zip" said nothing: the file name, the folder in the tooltip
        # nothing bundled yet: no result to show (the planned name is in the Bundle tab); a release says what it holds
        # (the Item column has no room for it at 1024×768: "models — 2 …")
        return self.contents_text(item)

    def result_tooltip(self, item: QueueItem) -> str:
        zip_path = self.result_path(item)
        text = self.result_text(item)
        if zip_path is None or item.state == "running":
            return text
        return self.tr("%1 in %2").replace("%1", zip_path.name).replace("%2", str(zip_path.parent))

    def status_text(self, item: QueueItem) -> str:
        """The Status column: the state's words, and its warnings when it has any ("Bundled, 1 warning")."""
        text = self.state_text(item.state)
        n = len(item.warnings)
        return self.tr("%1, %n warning(s)", "", n).replace("%1", text) if n else text

    def refresh(self, item: QueueItem) -> None:
        row = self.row_of(item)
        names = self.row_names()
        renamed = names != self.names
        self.names = names
        values = [names[row], self.kind_text(item.kind), self.status_text(item), self.result_text(item)]
        for col, text in enumerate(values):
            cell = self.item(row, col)
            if cell is None:
                cell = QTableWidgetItem()
                cell.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                self.setItem(row, col, cell)
            cell.setText(text)
            if col == 0:
                cell.setToolTip(f"{item.path}\n{self.contents_text(item)}" if item.release else str(item.path))
            if col == 2:
                icon = "warning" if item.warnings else _ICON.get(item.state, "ready")  # a warning is never green
                cell.setIcon(status_icon(icon))
                if cell.toolTip() != text:  # a new state: its words may need another width
                    cell.setToolTip(text)
                    self._fit_columns()
            if col == 3:
                cell.setToolTip(self.result_tooltip(item))
        if renamed:  # another row's name changed what this one's must show
            for r, other in enumerate(self.entries):
                cell = self.item(r, 0)
                if other is not item and cell is not None:
                    cell.setText(names[r])
            self.viewport().update()
