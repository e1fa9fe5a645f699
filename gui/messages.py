"""Finding and error messages in the desktop app's language.

A finding (or an error that repeats one) carries a stable code plus the values in its message by name; in Japanese
the app renders it from its template in the engine's registry of codes (onnxpack.core.codes), translated in Qt
Linguist's "Findings" context (gui/catalog.py). An error is worded by its code's general words (its registry
summary, "Errors"), and the engine's exact English goes into the dialog's details. In English the app shows the
engine's own message, word for word as the command line, manifests and JSON have it. A progress event names its
step (onnxpack.core.steps) and values: the app renders the step's template translated in "Stages"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core import registry
from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.core.progress import ProgressEvent
from onnxpack.core.steps import Said

from .catalog import code_of, step_text, summary_text, translated_message
from .formatting import format_bytes
from .i18n import current_language

__all__ = [
    "GUI_MESSAGE_CODES",
    "WordedError",
    "WordedInputError",
    "gui_message",
    "stage_detail",
]


class WordedError(OnnxpackError):
    """An error the app words itself, already in its language (shown as it is)."""

    worded = True


class WordedInputError(InputError):
    """An input problem the app words itself, already in its language (shown as it is)."""

    worded = True


def _size(p: dict[str, Any]) -> dict[str, str]:
    size = format_bytes(int(p["bytes"]))
    if p.get("approx"):
        size = QCoreApplication.translate("Findings", "about {size}").replace("{size}", size)
    return {"size": size}


def _ort_source(p: dict[str, Any]) -> dict[str, str]:
    ml = ""
    if p.get("ml_opset") is not None:
        ml = QCoreApplication.translate("Findings", ", ai.onnx.ml opset {ml_opset}")
        ml = ml.replace("{ml_opset}", str(p["ml_opset"]))
    source = (
        QCoreApplication.translate("Findings", "limits measured on that release, not from ORT's official table")
        if p["derived"]
        else QCoreApplication.translate("Findings", "ORT's official table")
    )
    return {"ml": ml, "source": source}


# Placeholders some codes compute from their parameters (a size in words, the ORT table's source).
_DERIVED: dict[str, Callable[[dict[str, Any]], dict[str, str]]] = {
    "MERGE_FITS": _size,
    "MERGE_TOO_LARGE": _size,
    "TENSOR_NOT_EMBEDDABLE": _size,
    "ORT_OLDEST": _ort_source,
}


# The finding codes the app renders in its own language (from the registry; tests check each has a translation).
GUI_MESSAGE_CODES = tuple(sorted(n for n, c in registry().items() if c.severity is not None))


def _render(code: str, subject: str, params: dict[str, Any]) -> str | None:
    """``code``'s message in the app's language from its registry template (None: no translation, or a value the
    template names is missing, e.g. a finding read back from a manifest)."""
    entry = code_of(code)
    if entry is None:
        return None
    derive = _DERIVED.get(code)
    try:
        values = {"subject": subject, **params, **(derive(params) if derive is not None else {})}
    except (KeyError, TypeError, ValueError):
        return None
    return translated_message(entry, str(params.get("variant") or "") or None, values)


def _error_text(code: str) -> str | None:
    """An error code's general words in the app's language (its registry summary)."""
    entry = code_of(code)
    return summary_text(entry) if entry is not None else None


def gui_message(item: Any) -> str:
    """The message of ``item`` (a Finding, an OnnxpackError, or either's dict form) in the app's language.

    English: the engine's message. Otherwise the catalog's text for its code and values; for an error lacking them,
    its code's (or its class's) general text; the English message only when the catalog has nothing."""
    english = str(_get(item, "message", ""))
    if current_language() == "en" or getattr(item, "worded", False):
        return english
    code = str(_get(item, "code", "") or "")
    params = dict(_get(item, "params", None) or {})
    subject = str(params.pop("subject", None) or _get(item, "subject", "") or "")
    text = _render(code, subject, params)
    if text is not None:
        return text
    if isinstance(params.get("findings"), list):  # an error listing findings (BUNDLE_FINDINGS): word each of them
        listing = "; ".join(gui_message(f) for f in params["findings"])
        if params.get("more"):
            listing += QCoreApplication.translate("Errors", " (and %1 more)").replace("%1", str(params["more"]))
        general = _error_text(code) or english
        return QCoreApplication.translate("Errors", "%1: %2").replace("%1", general).replace("%2", listing)
    if isinstance(item, BaseException):
        for key in (code, getattr(type(item), "code", "")):
            if key and (text := _error_text(key)) is not None:
                return text
    return english


def _get(item: Any, name: str, default: Any) -> Any:
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def stage_detail(event: ProgressEvent | Said | str) -> str:
    """A progress detail of the engine in the app's language: its step's template translated ("Stages"), filled with
    its values (English: the engine's message; a bare text, which names no step, as it is)."""
    if isinstance(event, str):
        return event
    said = event if isinstance(event, Said) else Said(event.step, event.values, event.variant) if event.step else None
    if said is None:
        return event.message if isinstance(event, ProgressEvent) else ""
    if current_language() == "en":
        return event.message if isinstance(event, ProgressEvent) else str(said)
    text = step_text(said)
    return text if text is not None else (event.message if isinstance(event, ProgressEvent) else str(said))
