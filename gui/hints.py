"""How to fix a problem, in the desktop app's words and language.

A remedy is registered with its code (onnxpack.core.codes) and names options as data; the app renders it in its
language with the options as its own controls (gui/catalog.py). Where the window offers a better way than a flag
("choose where it is with File → Locate data file…"), the code has the app's own remedy in the registry too
(Code.app_hint, each floor's ``apphints.py``), naming the app's controls and actions as data. An error of a class's
code (INPUT, USAGE, ...) has its remedy registered with its variant, like any other. Any other hint stays the
engine's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onnxpack.core.codes import fields

from .catalog import app_remedy_text, code_of, option_label, remedy_text, tick

__all__ = ["GUI_HINT_CODES", "gui_hint", "option_label", "tick"]

#: The codes whose hint the app words itself (see :func:`__getattr__`).
GUI_HINT_CODES: tuple[str, ...]


def gui_hint(code: str | None, hint: str | None, params: Mapping[str, Any] | None = None) -> str | None:
    """The app's hint for ``code``: the app's own remedy when the registry has one (Code.app_hint); else the
    registry's remedy in the app's language, its options named by the app's controls (when the engine gave that
    remedy: ``params`` are the values it was made with); else the engine's ``hint``."""
    entry = code_of(code)
    values = dict(params or {})
    own = app_remedy_text(entry, values) if entry is not None else None
    if own is not None:
        return own
    message_variant = values.pop("variant", None)
    variant = str(values.pop("hint_variant", None) or message_variant or "") or None
    template = entry.hint_template(variant) if entry is not None else ""
    if hint and entry is not None and template and fields(template) <= set(values) and (
        hint == entry.remedy(variant, **values)  # the registered remedy, not words of the call site's own
    ):
        text = remedy_text(entry, {**values, "variant": variant})
        if text is not None:
            return text
    return hint


def __getattr__(name: str) -> Any:
    """``GUI_HINT_CODES``: the codes whose hint the app words itself (those with an app remedy in the registry; tests
    check each has a Japanese translation). Derived on first use, so importing this module loads no registry."""
    if name == "GUI_HINT_CODES":
        from onnxpack.core import registry

        return tuple(sorted(n for n, c in registry().items() if c.app_hint))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
