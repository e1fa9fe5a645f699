"""Error dialogs: the message, how to fix it, and expandable details — opened without blocking."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from onnxpack.core.errors import OnnxpackError

from .hints import gui_hint
from .messages import gui_message

__all__ = ["error_box", "error_from_exception"]



def error_from_exception(exc: BaseException) -> OnnxpackError:
    if isinstance(exc, OnnxpackError):
        return exc
    from .worker import internal_error

    return internal_error(exc)


def error_box(parent: QWidget | None, title: str, err: OnnxpackError) -> QMessageBox:
    """A window-modal message box for ``err``; call ``.open()`` (never ``exec()`` from a slot under test).

    The hint is the informative text; ``details`` (library message or traceback) and the stable
    error code go into the expandable "Show Details…" area (its buttons are translated by qtbase).
    """
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle(title)
    text = gui_message(err)  # the app's language; the engine's exact English then goes into the details
    box.setText(text)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    hint = gui_hint(err.code, err.hint, err.params) or QCoreApplication.translate(
        "Dialogs", "No fix is known for this problem; the details below may help."
    )
    box.setInformativeText(QCoreApplication.translate("Dialogs", "How to fix: %1").replace("%1", hint))
    details = [QCoreApplication.translate("Dialogs", "Error code: %1").replace("%1", err.code)]
    if text != err.message:
        details.append(QCoreApplication.translate("Dialogs", "The message in English:") + "\n" + str(err))
    if err.details:
        details.append(err.details)
    box.setDetailedText("\n\n".join(details))
    box.setStandardButtons(QMessageBox.StandardButton.Close)
    # Enter and Esc close it: without a default button Enter would press "Show Details…".
    box.setDefaultButton(QMessageBox.StandardButton.Close)
    box.setEscapeButton(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.setAccessibleName(title)
    box.setAccessibleDescription(text)
    return box
