"""What every panel renders: the selected row and what the session decided about it (its gate, whether it can be
edited and bundled, its words), so each panel's one ``render_row_view(row)`` needs nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from onnxpack.core.findings import Finding

from .state import Gate, QueueItem

__all__ = ["RowPanel", "RowView"]


@dataclass(frozen=True)
class RowView:
    """The selected row as the panels see it; ``item`` None: no row is selected (every panel clears)."""

    item: QueueItem | None
    gate: Gate | None = None  # the bundle gate of the row (of a release: of the model shown)
    can_bundle: bool = False
    editable: bool = False  # the Bundle tab's form can be edited
    title: str = ""  # a release's title: "victory 1.2.0 — 2 models, 1 asset"
    warnings: Sequence[Finding] = ()  # the warnings the Model tab shows (of a release: the model shown's)
    failure: str = ""  # the row's error, worded, with how to fix it
    no_result: str | None = None  # what the Result tab says instead of a bundle (None: the panel's own words)
    recorded: Any = None  # a bundle row's manifest (the Result tab lists what it records)


class RowPanel(Protocol):
    """The protocol of the window's panels: ``render_row_view(row)`` shows the selected row (or clears the panel)."""

    def render_row_view(self, row: RowView) -> None: ...
