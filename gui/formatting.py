"""Human-readable numbers for the GUI: sizes, durations, shapes, and a time-left estimator per stage."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from onnxpack.core.units import format_bytes

from .model.state import EtaEstimator  # Qt-free, with the run state it belongs to

__all__ = ["EtaEstimator", "format_bytes", "format_duration", "format_shape"]



def format_duration(seconds: float) -> str:
    """'45 s', '3 min 05 s', '1 h 02 min' (translated units)."""
    s = max(0, round(seconds))
    if s < 60:
        return QCoreApplication.translate("Format", "%1 s").replace("%1", str(s))
    if s < 3600:
        text = QCoreApplication.translate("Format", "%1 min %2 s")
        return text.replace("%1", str(s // 60)).replace("%2", f"{s % 60:02d}")
    text = QCoreApplication.translate("Format", "%1 h %2 min")
    return text.replace("%1", str(s // 3600)).replace("%2", f"{s % 3600 // 60:02d}")


def format_shape(shape: Sequence[int | str | None] | None) -> str:
    """``[1, 'batch', None]`` → ``[1, batch, ?]``; None (unknown rank) → ``?``."""
    if shape is None:
        return "?"
    return "[" + ", ".join("?" if d is None else str(d) for d in shape) + "]"
