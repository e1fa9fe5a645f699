"""Small reusable widgets: size bar against the 2 GiB limit, tables, status label, retranslation, scrolling."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QProgressBar,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from onnxpack.core.model.modelfile import PROTOBUF_LIMIT

from ..formatting import format_bytes

__all__ = ["DataTable", "DropOverlay", "FormScrollArea", "Retranslatable", "SizeBar", "StatusLabel", "scrolled",
           "scrolled_page"]


class Retranslatable:
    """Mixin for widgets with a ``retranslate()`` method: re-run it when the application language changes.

    List it before the Qt base class (``class Panel(Retranslatable, QWidget)``).
    """

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # type: ignore[misc]


class FormScrollArea(QScrollArea):
    """A scroll area that, when Tab moves focus into a control wider than its view, shows the control's start (the
    check box of a long check box label, the start of a field) rather than its middle, which is what
    QScrollArea.ensureWidgetVisible does (seen under Xvfb at 2× scaling: the boxes' check marks were scrolled off)."""

    MARGIN = 8

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Focus that arrives by other ways than Tab (a label's Alt+letter, a click, an error that focuses its field)
        # scrolls the field into view too: QScrollArea follows Tab only (seen under Xvfb at 2×: Alt+E typed into a
        # field out of view).
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow_focus)

    def _follow_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        try:
            inner = self.widget()
        except RuntimeError:  # this area is gone (its C++ side deleted before the connection)
            return
        if new is not None and inner is not None and inner.isAncestorOf(new):
            bar = self.horizontalScrollBar()
            keep = bar.value()
            self.ensureWidgetVisible(new, self.MARGIN, self.MARGIN)  # for its rows; sideways it would centre it
            bar.setValue(keep)  # sideways only when its start is out of view: its label, left of it, stays in view
            left = new.mapTo(inner, QPoint(0, 0)).x()
            if not keep <= left < keep + self.viewport().width() - self.MARGIN:
                bar.setValue(max(0, left - self.MARGIN))

    def _show_start(self, focused: QWidget, inner: QWidget) -> None:
        left = focused.mapTo(inner, QPoint(0, 0)).x()
        bar = self.horizontalScrollBar()
        if left < bar.value() or left + focused.width() > bar.value() + self.viewport().width():
            bar.setValue(max(0, left - self.MARGIN))

    def focusNextPrevChild(self, next: bool) -> bool:
        moved = super().focusNextPrevChild(next)
        focused, inner = QApplication.focusWidget(), self.widget()
        if moved and focused is not None and inner is not None and inner.isAncestorOf(focused):
            self._show_start(focused, inner)  # after QScrollArea's own scrolling, which centres it
        return moved


def scrolled(inner: QWidget) -> QScrollArea:
    """``inner`` in a frameless, resizable scroll area (long forms stay usable on small screens)."""
    scroll = FormScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # not a nameless Tab stop: Tab goes to the fields inside
    scroll.setWidget(inner)
    return scroll


def scrolled_page(owner: QWidget, widgets: Sequence[QWidget], buttons: QLayout) -> QScrollArea:
    """Lay out ``owner`` as a page: ``widgets`` stacked in a scroll area (returned), ``buttons`` fixed below it."""
    inner = QWidget()
    column = QVBoxLayout(inner)
    for w in widgets:
        column.addWidget(w)
    column.addStretch(1)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    area = scrolled(inner)
    layout.addWidget(area, 1)
    layout.addLayout(buttons)
    return area


class SizeBar(QProgressBar):
    """How big the merged single-file model would be, against protobuf's 2 GiB limit.

    Uses only palette colours (light/dark safe); the text always states the figures, and going over
    the limit is said in words, not by colour.
    """

    STEPS = 1000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, self.STEPS)
        self.setTextVisible(True)
        self.setMinimumWidth(120)
        self._size: int | None = None
        self.set_size(None)

    @property
    def size_bytes(self) -> int | None:
        return self._size

    def set_size(self, merged_size: int | None) -> None:
        self._size = merged_size
        self.retranslate()

    def retranslate(self) -> None:
        self.setAccessibleName(self.tr("Single-file size against the 2 GiB limit"))
        n = self._size
        if n is None:
            self.setValue(0)
            self.setFormat(self.tr("size unknown"))
        elif n < PROTOBUF_LIMIT:
            self.setValue(int(self.STEPS * n / PROTOBUF_LIMIT))
            pct = 100.0 * n / PROTOBUF_LIMIT
            self.setFormat(
                self.tr("%1 of 2 GiB (%2 %) — fits in one .onnx file")
                .replace("%1", format_bytes(n))
                .replace("%2", f"{pct:.1f}")
            )
        else:
            self.setValue(self.STEPS)
            self.setFormat(
                self.tr("%1 — over the 2 GiB limit: .onnx + one aligned data file").replace("%1", format_bytes(n))
            )
        self.setAccessibleDescription(self.format())
        self.setToolTip(self.format())


class DataTable(QTableWidget):
    """A read-only, sortable-free, copy-friendly table that fits its rows to the text."""

    def __init__(self, columns: int, parent: QWidget | None = None) -> None:
        super().__init__(0, columns, parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.setTabKeyNavigation(False)  # Tab moves on to the next control; arrows move within the table
        self.setWordWrap(True)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        # Labels at the start of their column: a wide last column (SHA-256) scrolled partly out of view still shows
        # its label, where a centred one was drawn off the view and the header looked blank.
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.setTabKeyNavigation(False)  # Tab leaves the table (keyboard users), arrows move inside
        self._wrapped: tuple[int, ...] = ()

    WRAP_MIN_CHARS = 16  # a wrapped column is never narrower than this many characters (then the table scrolls)

    def wrap_columns(self, *columns: int) -> None:
        """``columns`` (long sentences: a finding's message, how to fix it) share the width the other columns leave
        in the view and wrap their text, rows as tall as it needs: the Findings' "How to fix" column is never cut
        off at the right edge, for the very error the user must fix."""
        self._wrapped = tuple(columns)
        self.horizontalHeader().setStretchLastSection(False)
        self._fit_wrapped()

    def _fit_wrapped(self) -> None:
        if not self._wrapped:
            return
        others = sum(self.columnWidth(c) for c in range(self.columnCount()) if c not in self._wrapped)
        floor = self.fontMetrics().averageCharWidth() * self.WRAP_MIN_CHARS
        share = max(floor, (self.viewport().width() - others) // len(self._wrapped))
        for c in self._wrapped:
            self.setColumnWidth(c, share)
        self.resizeRowsToContents()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_wrapped()

    def fit_height(self, fit: bool = True) -> None:
        """Grow with the rows instead of scrolling (for short tables inside a scrolling page)."""
        if fit:
            self.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def set_headers(self, headers: Sequence[str]) -> None:
        self.setHorizontalHeaderLabels(list(headers))

    def set_rows(self, rows: Sequence[Sequence[Any]], icons: Sequence[QIcon | None] | None = None) -> None:
        self.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                item = QTableWidgetItem("" if value is None else str(value))
                item.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
                if c == 0 and icons is not None and icons[r] is not None:
                    item.setIcon(icons[r])  # type: ignore[arg-type]
                self.setItem(r, c, item)
        self.resizeColumnsToContents()
        for c in range(self.columnCount() - 1):
            if self.columnWidth(c) > 360:
                self.setColumnWidth(c, 360)
        self.resizeRowsToContents()
        self._fit_wrapped()

    def cell_text(self, row: int, column: int) -> str:
        item = self.item(row, column)
        return item.text() if item is not None else ""


class StatusLabel(QWidget):
    """An icon and a sentence side by side (pass/fail is never shown by colour alone)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.icon = QLabel(self)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.text, 1)

    def set_status(self, icon: QIcon | None, text: str) -> None:
        size = self.fontMetrics().height() + 4
        if icon is None or icon.isNull():
            self.icon.clear()
        else:
            self.icon.setPixmap(icon.pixmap(size, size))
        self.text.setText(text)
        self.setAccessibleName(text)
        self.icon.setVisible(icon is not None and not icon.isNull())

    def plain_text(self) -> str:
        return self.text.text()


class DropOverlay(QLabel):
    """Covers its parent while files are dragged over the window: the highlight colour of the current palette (light
    or dark), translucent, with a line saying what a drop does. Mouse events pass through."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAutoFillBackground(True)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        font.setBold(True)
        self.setFont(font)
        self.hide()

    def show_over(self, text: str) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        base = parent.palette() if parent is not None else self.palette()
        pal = self.palette()
        fill = QColor(base.color(QPalette.ColorRole.Highlight))
        fill.setAlpha(170)
        pal.setColor(QPalette.ColorRole.Window, fill)
        pal.setColor(QPalette.ColorRole.WindowText, base.color(QPalette.ColorRole.HighlightedText))
        self.setPalette(pal)
        self.setText(text)
        self.raise_()
        self.show()
