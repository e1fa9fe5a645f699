"""Finding and error messages in the desktop app's language.

A finding (or an error that repeats one) carries a stable code plus the values in its message by name; in Japanese
the app renders it from its template in the engine's registry of codes (onnxpack.core.codes), translated in Qt
Linguist's "Findings" context (gui/catalog.py). An error is worded by its code's general words (its registry
summary, "Errors"), and the engine's exact English goes into the dialog's details. In English the app shows the
engine's own message, word for word as the command line, manifests and JSON have it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core import registry
from onnxpack.core.errors import InputError, OnnxpackError

from .catalog import code_of, summary_text, translated_message
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


def _error_texts() -> dict[str, str]:
    """General words for the error codes the registry cannot hold: ``PATH_<errno>`` (an operating-system error on
    a path, one code per errno name; onnxpack.core.errors.from_os_error). Every other code's general words are its
    registry ``summary`` ("Errors" context)."""
    return {"PATH_": QCoreApplication.translate("Errors", "A path cannot be used")}


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
    text = summary_text(entry) if entry is not None else None
    return text if text is not None else _error_texts().get(code)


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
        for key in (code, "PATH_" if code.startswith("PATH_") else "", getattr(type(item), "code", "")):
            if key and (text := _error_text(key)) is not None:
                return text
    return english


def _get(item: Any, name: str, default: Any) -> Any:
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def _stage_texts() -> list[tuple[re.Pattern[str], str]]:
    """The engine's progress details (``ProgressEvent.message``) → the app's words; ``%1``… are the groups.

    Written by hand: the engine reports plain English strings (the command line prints them), a handful of fixed
    texts with a name or number in them; a test checks the ones a bundle and a verification report."""
    table = [
        (r"done", QCoreApplication.translate("Stages", "done")),
        (r"inspecting", QCoreApplication.translate("Stages", "inspecting")),
        (r"structure", QCoreApplication.translate("Stages", "checking the structure")),
        (r"checker", QCoreApplication.translate("Stages", "running the onnx checker")),
        (r"reading (.+)", QCoreApplication.translate("Stages", "reading %1")),
        (r"hashing (.+)", QCoreApplication.translate("Stages", "hashing %1")),
        (r"waiting for the onnx checker", QCoreApplication.translate("Stages", "waiting for the onnx checker")),
        (r"comparing the tensor hashes", QCoreApplication.translate("Stages", "comparing the tensor hashes")),
        (r"measuring the end user's load time and memory",
         QCoreApplication.translate("Stages", "measuring the end user's load time and memory")),
        (
            r"writing README\.txt and manifest\.json",
            QCoreApplication.translate("Stages", "writing README.txt and manifest.json"),
        ),
        (r"validating and copying the model", QCoreApplication.translate("Stages", "validating and copying the model")),
        (r"converting with onnxruntime", QCoreApplication.translate("Stages", "converting with onnxruntime")),
        (
            r"smoke-running the \.ort against the \.onnx",
            QCoreApplication.translate("Stages", "smoke-running the .ort against the .onnx"),
        ),
        (r"moving the results into place", QCoreApplication.translate("Stages", "moving the results into place")),
        (
            r"starting ONNX Runtime in a child process",
            QCoreApplication.translate("Stages", "starting ONNX Runtime in a child process"),
        ),
        (
            r"creating the ONNX Runtime session for (.+)",
            QCoreApplication.translate("Stages", "creating the ONNX Runtime session for %1"),
        ),
        # --prove-ort (core/runtime/prove.py): before "running (.+)", which would take "running on onnxruntime X" too
        (
            r"looking up onnxruntime (\S+) on (\S+)",
            QCoreApplication.translate("Stages", "looking up onnxruntime %1 on %2"),
        ),
        (r"downloading (.+)", QCoreApplication.translate("Stages", "downloading %1")),
        (
            r"creating the environment of onnxruntime (\S+)",
            QCoreApplication.translate("Stages", "creating the environment of onnxruntime %1"),
        ),
        (
            r"installing onnxruntime (\S+) and (.+)",
            QCoreApplication.translate("Stages", "installing onnxruntime %1 and %2"),
        ),
        (r"onnxruntime (\S+): preparing", QCoreApplication.translate("Stages", "onnxruntime %1: preparing")),
        (
            r"reference run \(installed onnxruntime\)",
            QCoreApplication.translate("Stages", "reference run (installed onnxruntime)"),
        ),
        (r"running on onnxruntime (\S+)", QCoreApplication.translate("Stages", "running on onnxruntime %1")),
        # the load matrix (core/runtime/smoke_child.py), a release of several files (core/release/folderbundle.py,
        # keep.py): before "running (.+)" and "downloading (.+)"
        (
            r"loading (.+) the ways apps load it",
            QCoreApplication.translate("Stages", "loading %1 the ways apps load it"),
        ),
        (r"model (\d+) of (\d+): (.+)", QCoreApplication.translate("Stages", "model %1 of %2: %3")),
        (r"copying the files as they are", QCoreApplication.translate("Stages", "copying the files as they are")),
        (r"adding (.+)", QCoreApplication.translate("Stages", "adding %1")),
        (r"running (.+)", QCoreApplication.translate("Stages", "running %1")),
        (r"searching sizes for (.+)", QCoreApplication.translate("Stages", "searching sizes for %1")),
        (r"session created \(([\d.]+) s\)", QCoreApplication.translate("Stages", "session created (%1 s)")),
        (r"first run done", QCoreApplication.translate("Stages", "first run done")),
        (r"run (\d+)/(\d+) of (.+)", QCoreApplication.translate("Stages", "run %1/%2 of %3")),
    ]
    return [(re.compile(pattern), text) for pattern, text in table]


def stage_detail(message: str) -> str:
    """A progress detail of the engine in the app's language (as it is in English, or when it is not known)."""
    if not message or current_language() == "en":
        return message
    for pattern, text in _stage_texts():
        m = pattern.fullmatch(message)
        if m is not None:
            for i, group in enumerate(m.groups(), 1):
                text = text.replace(f"%{i}", _model_label(group))
            return text
    return message


def _model_label(text: str) -> str:
    """The smoke run names its two models "original NAME" and "other NAME" (the merged or converted one); a bundle's
    comparison "bundled NAME" and "original NAME"."""
    for prefix, label in (
        ("bundled ", QCoreApplication.translate("Stages", "bundled %1")),
        ("original ", QCoreApplication.translate("Stages", "original %1")),
        ("other ", QCoreApplication.translate("Stages", "compared %1")),
    ):
        if text.startswith(prefix):
            return label.replace("%1", text[len(prefix) :])
    return text
