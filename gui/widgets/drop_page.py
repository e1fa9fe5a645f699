"""The empty window: what can be dropped, with buttons for keyboard and mouse users."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..icons import app_icon
from .common import Retranslatable

__all__ = ["DropPage"]


class DropPage(Retranslatable, QWidget):
    """The empty state: what can be dropped, with buttons for keyboard and mouse users."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.icon.setPixmap(app_icon().pixmap(96, 96))
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.subtitle = QLabel()
        self.subtitle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.subtitle.setWordWrap(True)
        self.open_button = QPushButton()
        self.sample_button = QPushButton()
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.open_button)
        row.addWidget(self.sample_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.icon)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        layout.addSpacing(12)
        layout.addLayout(row)
        layout.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Drop ONNX models here"))
        self.subtitle.setText(
            self.tr(
                "Drop one or more .onnx or .ort files or a model folder to inspect and bundle them, "
                "or an onnxpack .zip bundle to verify it."
            )
        )
        self.open_button.setText(self.tr("&Open…"))
        self.sample_button.setText(self.tr("Try the &sample model"))
        self.setAccessibleName(self.tr("Drop area"))

