"""The app's widgets: the queue table and the panels (Model, Bundle, Progress, Result), each a rendering of the
selected row through one ``render_row_view(row)`` (:class:`onnxpack.gui.model.rowview.RowView`), and the small
widgets they
share (:mod:`.common`). They render and forward the user's actions; the state and its rules are in gui/model/."""

from .common import (
    DataTable,
    DropOverlay,
    FormScrollArea,
    Retranslatable,
    SizeBar,
    StatusLabel,
    scrolled,
    scrolled_page,
)

__all__ = ["DataTable", "DropOverlay", "FormScrollArea", "Retranslatable", "SizeBar", "StatusLabel", "scrolled",
           "scrolled_page"]
