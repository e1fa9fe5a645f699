"""Refresh the translations: lupdate gui/**/*.py → onnxpack_ja.ts, lrelease → .qm, copy Qt's qtbase_ja.qm.

English is the source language, but its plurals need a catalogue too: ``onnxpack_en.ts`` holds only the ``%n``
messages (lupdate ``-pluralonly``) with their English singular and plural ("1 bundle exists already", "2 bundles
exist already"); without it Qt shows the source text, "1 bundle(s) exist already".

Usage: python resources/i18n/update_translations.py [--check]

Translators edit ``onnxpack_ja.ts`` with Qt Linguist (``pyside6-linguist``); this script keeps the
source strings in step with the code and compiles the catalogues. ``qtbase_ja.qm`` (standard buttons
and dialogs) is copied from the PySide6 installation so frozen builds can ship it from resources/.
``--check`` only reports whether the .ts lacks strings or translations (exit 1 if so).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

__all__ = ["LANGS", "SOURCES", "gui_sources", "main", "registry_keys", "registry_strings", "sources_json", "tool",
           "untranslated"]

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
LANGS = ("ja",)
#: gui modules that are not part of the user interface (never shown to users).
NOT_UI = {"selftest.py", "screenshots.py"}


def tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease beside the running Python (venv) or on PATH."""
    here = Path(sys.executable).parent
    for candidate in (here / f"pyside6-{name}", here / f"pyside6-{name}.exe"):
        if candidate.exists():
            return str(candidate)
    found = shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"pyside6-{name} not found: install PySide6-Essentials")
    return found


def gui_sources() -> list[str]:
    return [str(p) for p in sorted((ROOT / "gui").rglob("*.py")) if p.name not in NOT_UI]


def untranslated(ts: Path) -> list[str]:
    """Source texts without a finished translation."""
    missing = []
    for msg in ET.parse(ts).getroot().iter("message"):
        tr = msg.find("translation")
        source = msg.findtext("source") or ""
        forms = [f.text or "" for f in tr.iter("numerusform")] if tr is not None else []
        text = "".join(forms) if forms else (tr.text or "") if tr is not None else ""
        if tr is None or not text.strip() or tr.get("type") in ("unfinished", "obsolete", "vanished"):
            missing.append(source)
    return missing


def registry_keys() -> list[tuple[str, str, str, str]]:
    """(context, code, variant, source text) of every text in the engine's registries that the app shows: a
    finding's message template and variants ("Findings"), every remedy ("Hints"; a code's app remedy, Code.app_hint,
    too, as variant gui/catalog.py APP_REMEDY), an error's general words ("Errors"; the app shows those with the
    engine's exact English message in the details), and every progress step's template ("Stages",
    onnxpack.core.steps). Variant "" is the main text."""
    from onnxpack.core import registry
    from onnxpack.core.steps import BY_NAME
    from onnxpack.gui.catalog import APP_REMEDY

    out = []
    for name, code in registry().items():
        if code.severity is not None:
            out += [("Findings", name, v, t) for v, t in (("", code.text), *code.variants.items()) if t]
        out += [("Hints", name, v, h) for v, h in (("", code.hint), *code.variant_hints.items()) if h]
        out += [("Hints", name, APP_REMEDY, code.app_hint)] if code.app_hint else []
        out += [("Errors", name, "", code.summary)] if code.summary else []
    for name, step in BY_NAME.items():
        out += [("Stages", name, v, t) for v, t in (("", step.text), *step.variants.items())]
    return out


def registry_strings() -> list[tuple[str, str, str]]:
    """(context, source text, code) of every registry text the app translates (:func:`registry_keys`)."""
    return [(ctx, text, code) for ctx, code, _, text in registry_keys()]


#: The app's record of what each registry text was when it was extracted (gui/catalog.py looks translations up by
#: code and variant through it, never by the engine's current English); shipped beside the .qm files.
SOURCES = HERE / "registry_sources.json"


def sources_json() -> str:
    """The text of registry_sources.json for the registry as it is now: [context, code, variant, source text] rows."""
    rows = [json.dumps(list(row), ensure_ascii=False) for row in sorted(set(registry_keys()))]
    return "[\n" + ",\n".join(rows) + "\n]\n"


def _registry_source(folder: Path) -> Path:
    """A Python file with one translate call per registry text, for lupdate to read beside gui/**/*.py (the registry's
    texts live in core/, which lupdate does not read: core never imports Qt). A message has its code as the
    disambiguation (the .ts's ``<comment>``, gui/catalog.py ``disambiguation``): the same words under two codes get a
    translation each, and translators see the code."""
    from onnxpack.gui.catalog import disambiguation

    lines = []
    for ctx, text, code in registry_strings():
        args = [ctx, text] + [d for d in [disambiguation(ctx, code)] if d is not None]
        lines.append(f"QCoreApplication.translate({', '.join(json.dumps(a, ensure_ascii=False) for a in args)})")
    path = folder / "registry_strings.py"
    path.write_text("from PySide6.QtCore import QCoreApplication\n\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lupdate(ts: Path, lang: str) -> None:
    target = {"ja": "ja_JP", "en": "en_US"}.get(lang, lang)
    with tempfile.TemporaryDirectory() as tmp:
        extra = [] if lang == "en" else [str(_registry_source(Path(tmp)))]
        subprocess.run(
            [tool("lupdate"), *gui_sources(), *extra, "-ts", str(ts), "-target-language", target,
             *(["-pluralonly"] if lang == "en" else []), "-no-obsolete", "-locations", "none", "-silent"],
            check=True,
        )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    status = 0
    current = SOURCES.read_text(encoding="utf-8") if SOURCES.exists() else ""
    if current != sources_json():
        if "--check" in args:
            print(f"{SOURCES.name} is out of date: the registry changed (run this script)")
            status = 1
        else:
            SOURCES.write_text(sources_json(), encoding="utf-8")
    for lang in (*LANGS, "en"):
        ts = HERE / f"onnxpack_{lang}.ts"
        if "--check" in args:
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / ts.name
                shutil.copyfile(ts, copy)
                _lupdate(copy, lang)
                missing = untranslated(copy)
            if missing:
                print(f"{ts.name}: {len(missing)} string(s) without translation:", *missing, sep="\n  ")
                status = 1
            continue
        _lupdate(ts, lang)
        subprocess.run([tool("lrelease"), "-silent", str(ts), "-qm", str(HERE / f"onnxpack_{lang}.qm")], check=True)
        if lang != "en":  # Qt's own widgets are English already
            from PySide6.QtCore import QLibraryInfo

            qt_dir = Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))
            shutil.copyfile(qt_dir / f"qtbase_{lang}.qm", HERE / f"qtbase_{lang}.qm")
        missing = untranslated(ts)
        if missing:
            print(f"{ts.name}: {len(missing)} string(s) still need a translation (open it in pyside6-linguist)")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
