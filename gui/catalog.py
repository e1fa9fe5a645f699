"""The engine's registry of codes in the desktop app's language: messages, remedies and error summaries.

Every text comes from ``onnxpack.core.codes`` (one entry per code); Qt Linguist translates it in the contexts
"Findings" (messages and their variants), "Hints" (remedies) and "Errors" (an error code's general words):
``resources/i18n/update_translations.py`` extracts them from the registry. A message has its code as the
disambiguation (the same words, e.g. ``{detail}``, mean another thing under another code); a remedy or a summary is
translated once per wording, whichever codes give it (the same sentence, one translation).
A remedy naming an option (``{opt:fix_ir}``) names the app's own control here; the command line names the flag.
A code's app remedy (Code.app_hint, where the app has a better way than a flag) is translated in "Hints" too, its
options worded as what to do with the control (:func:`tick`) and its actions (``{act:NAME}``) as the menu reads."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from onnxpack.core import registry
from onnxpack.core.codes import Code, render
from onnxpack.core.steps import BY_NAME as STEPS
from onnxpack.core.steps import Said

from .i18n import current_language, i18n_dir

__all__ = [
    "APP_REMEDY",
    "CHECKBOX_OPTIONS",
    "CONTEXTS",
    "action_label",
    "app_remedy_text",
    "code_of",
    "disambiguation",
    "gui_option",
    "option_label",
    "remedy_text",
    "source_of",
    "step_text",
    "summary_text",
    "tick",
    "translated_message",
]

#: The Linguist context of each kind of registry text (a progress step's template: "Stages").
CONTEXTS = {"text": "Findings", "hint": "Hints", "summary": "Errors", "step": "Stages"}

# The variant key of a code's app remedy in resources/i18n/registry_sources.json (no message variant is named so).
APP_REMEDY = ":app"

#: The options the Bundle tab has a checkbox for (each sets one option: replacing a bundle never
#: also lets a version go backwards); a remedy naming one of them names the box the user sees.
CHECKBOX_OPTIONS = frozenset({"fix_ir", "force", "allow_version_not_greater", "allow_unmatched_labels"})


@functools.cache
def _codes() -> dict[str, Code]:
    return registry()


def code_of(name: str | None) -> Code | None:
    """The registry's entry for ``name`` (None for a code the engine does not register, e.g. the app's own)."""
    return _codes().get(name or "")


def option_label(name: str) -> str:
    """The Bundle tab's checkbox for option ``name`` as it reads there (KeyError: the app has no such box)."""
    return {
        "fix_ir": QCoreApplication.translate(
            "BundlePanel", "Retarget for the target runtime (lower the IR version and opset where exact)"
        ),
        "force": QCoreApplication.translate("BundlePanel", "Replace an existing bundle"),
        "allow_version_not_greater": QCoreApplication.translate(
            "BundlePanel", "Allow a version not above the previous release"
        ),
        "allow_unmatched_labels": QCoreApplication.translate("BundlePanel", "Keep class labels that fit no output"),
    }[name]


def gui_option(name: str) -> str:
    """How a remedy names option ``name`` in the app: its checkbox, quoted, else the command-line flag (which the
    window's "Copy CLI command" uses too)."""
    if name in CHECKBOX_OPTIONS:
        return QCoreApplication.translate("Hints", "“%1”").replace("%1", option_label(name))
    from onnxpack.core.codes import OPTION_FLAGS

    return OPTION_FLAGS.get(name, name)


def tick(name: str) -> str:
    """'tick "<the box>" in the Bundle tab', in the app's language: how an app remedy names a checkbox option."""
    return QCoreApplication.translate("Hints", 'tick "%1" in the Bundle tab').replace("%1", option_label(name))


def _app_option(name: str) -> str:
    """How an app remedy names option ``name``: what to do with its checkbox, else as any remedy does."""
    return tick(name) if name in CHECKBOX_OPTIONS else gui_option(name)


def _plain(text: str) -> str:
    """A menu text without its mnemonic ("&File" → "File", "ファイル(&F)" → "ファイル")."""
    start = text.find("(&")
    if start >= 0 and text[start + 3 : start + 4] == ")":
        text = text[:start] + text[start + 4 :]
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def action_label(name: str) -> str:
    """An action of the app (``{act:NAME}``, onnxpack.core.codes APP_ACTIONS) as its menu reads, in the app's language:
    "File → Locate data file…" (KeyError: the app has no such action)."""
    menu, item = {
        "locate_data_file": (QCoreApplication.translate("MainWindow", "&File"),
                             QCoreApplication.translate("MainWindow", "Locate &data file…")),
    }[name]  # fmt: skip
    return f"{_plain(menu)} → {_plain(item)}"


def app_remedy_text(code: Code, values: Mapping[str, Any]) -> str | None:
    """``code``'s app remedy (Code.app_hint) in the app's language, its options as what to do with the controls and
    its actions as the menus read (the registry's English in English or when the catalog lacks it; None: no app
    remedy, or a value it names is missing). An option or action that begins it begins with a capital."""
    if not code.app_hint:
        return None
    english = current_language() == "en"
    text = (None if english else _translated("Hints", code.app_hint, code, APP_REMEDY)) or code.app_hint
    filled = _fill(text, values, _app_option, action_label)
    if filled and text.startswith("{"):
        filled = filled[:1].upper() + filled[1:]
    return filled


def _fill(template: str, values: Mapping[str, Any], option: Callable[[str], str] = gui_option,
          action: Callable[[str], str] | None = None) -> str | None:
    try:
        return render(template, values, option, action or action_label)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # made without every value
        return None


def disambiguation(context: str, code: str) -> str | None:
    """The Linguist disambiguation of a registry text of ``code`` in ``context``: the code for a message, none else."""
    return code if context == "Findings" else None


def source_of(context: str, code: str, variant: str | None, current: str) -> str:
    """The text the catalog translates for ``code``'s (and ``variant``'s) text in ``context``: as it was extracted
    (resources/i18n/registry_sources.json), so the app finds its translation by code and variant, whatever the
    engine's English says now; ``current`` (the registry's English) for a text added since the last extraction."""
    return _sources().get((context, code, variant or ""), current)


@functools.cache
def _sources() -> dict[tuple[str, str, str], str]:
    """resources/i18n/registry_sources.json (written with onnxpack_ja.ts by update_translations.py) by key."""
    try:
        rows = json.loads((i18n_dir() / "registry_sources.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):  # not shipped: the registry's own English is the key
        return {}
    return {(ctx, code, variant): text for ctx, code, variant, text in rows}


def _translated(context: str, source: str, code: Code, variant: str | None = None) -> str | None:
    """``code``'s text ``source`` (of ``variant``) in the app's language; None when the catalog lacks it (outside
    English, where the source is the text)."""
    key = source_of(context, code.name, variant, source)
    text = QCoreApplication.translate(context, key, disambiguation(context, code.name))
    return text if text != key or current_language() == "en" else None


def translated_message(code: Code, variant: str | None, values: Mapping[str, Any]) -> str | None:
    """``code``'s message in the app's language with ``values`` (None: no translation, or a value it names is
    missing)."""
    try:
        text = _translated("Findings", code.template(variant), code, variant)
    except KeyError:  # a variant this code does not have (e.g. read back from an older manifest)
        return None
    return None if text is None else _fill(text, values)


def remedy_text(code: Code, values: Mapping[str, Any]) -> str | None:
    """``code``'s remedy in the app's language, its options named by the app's controls (None: no remedy, no
    translation, or a value it names is missing)."""
    variant = str(values.get("hint_variant") or values.get("variant") or "") or None
    template = code.hint_template(variant)
    own = variant if variant in code.variant_hints else None  # a variant without its own remedy has the code's
    text = _translated("Hints", template, code, own) if template else None
    return None if text is None else _fill(text, values)


def summary_text(code: Code) -> str | None:
    """An error code's general words in the app's language (None when the registry has none)."""
    if not code.summary:
        return None
    return QCoreApplication.translate("Errors", source_of("Errors", code.name, None, code.summary))


def step_text(said: Said) -> str | None:
    """A progress step (onnxpack.core.steps) with its values in the app's language, a value that is itself a step
    worded the same way (None: a step or variant the engine does not register, or a value it names is missing)."""
    entry = STEPS.get(said.step)
    if entry is None or (said.variant and said.variant not in entry.variants):
        return None
    values: dict[str, Any] = {}
    for key, value in said.values.items():
        inner = step_text(value) if isinstance(value, Said) else value
        if inner is None:
            return None
        values[key] = inner
    source = source_of("Stages", entry.name, said.variant, entry.template(said.variant))
    return _fill(QCoreApplication.translate("Stages", source), values)
