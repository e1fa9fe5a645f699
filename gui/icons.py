"""Icons that follow the platform theme (QStyle standard icons) plus the application icon."""

from __future__ import annotations

from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QStyle

from onnxpack.core.findings import Severity
from onnxpack.core.resources import resource_path

__all__ = ["app_icon", "severity_icon", "status_icon"]

_SP = QStyle.StandardPixmap


def _std(pixmap: QStyle.StandardPixmap) -> QIcon:
    style = QApplication.style()
    return style.standardIcon(pixmap) if style is not None else QIcon()


def severity_icon(severity: Severity | str) -> QIcon:
    value = severity.value if isinstance(severity, Severity) else str(severity)
    return _std(
        {
            "error": _SP.SP_MessageBoxCritical,
            "warning": _SP.SP_MessageBoxWarning,
        }.get(value, _SP.SP_MessageBoxInformation)
    )


def status_icon(state: str) -> QIcon:
    """Icon for a queue state; always shown together with the state's text (never colour alone)."""
    return _std(
        {
            "ok": _SP.SP_DialogApplyButton,
            "done": _SP.SP_DialogApplyButton,
            "ready": _SP.SP_FileIcon,
            "failed": _SP.SP_MessageBoxCritical,
            "warning": _SP.SP_MessageBoxWarning,
            "cancelled": _SP.SP_DialogCancelButton,
            "running": _SP.SP_MediaPlay,
            "queued": _SP.SP_MediaPause,
            "busy": _SP.SP_BrowserReload,
        }.get(state, _SP.SP_FileIcon)
    )


def app_icon() -> QIcon:
    """The onnxpack icon from resources/icons (SVG plus pre-rendered PNG sizes)."""
    icon = QIcon()
    folder = resource_path("icons")
    for png in sorted(folder.glob("onnxpack-*.png")):
        icon.addFile(str(png))
    svg = folder / "onnxpack.svg"
    if svg.exists():
        icon.addFile(str(svg))
    return icon
