"""Languages: load onnxpack's and Qt's own translations (English built in, Japanese from resources/i18n)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLibraryInfo, QLocale, QTranslator

from onnxpack.core.resources import resource_path

__all__ = [
    "LANGUAGES",
    "current_language",
    "i18n_dir",
    "install_translators",
    "normalize_language",
    "system_language",
]

# Languages offered in the menu: code → name written in that language (never translated).
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}

_installed: list[QTranslator] = []
_current = "en"


def i18n_dir() -> Path:
    return resource_path("i18n")


def system_language() -> str:
    """The first of the system's UI languages that we offer (English when none is)."""
    for name in QLocale.system().uiLanguages():
        code = name.replace("-", "_").split("_")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


# Qt's own Japanese catalog (qtbase_ja) lacks two labels of the file dialog as Qt 6 words them (with mnemonics);
# lupdate takes these into onnxpack's catalog, which is searched before Qt's, so the dialog is Japanese throughout.
QT_CATALOG_GAPS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)


def normalize_language(locale_name: str | None) -> str:
    """``'ja_JP'``/``'ja-JP'``/``'ja'`` → ``'ja'``; ``''``/``'system'``/None → the system language."""
    if not locale_name or locale_name == "system":
        return system_language()
    return locale_name.replace("-", "_").split("_")[0].lower()


def current_language() -> str:
    return _current


def install_translators(app: QCoreApplication, locale_name: str | None) -> bool:
    """Switch ``app`` to ``locale_name`` (e.g. 'ja', 'ja_JP', 'en', 'system').

    Removes the translators installed before, then installs onnxpack's own and Qt's ``qtbase``
    catalogue (standard buttons and dialogs). Installing makes Qt send ``LanguageChange`` to every
    widget, which re-translates the open windows live. Returns True when the language is fully
    available (English always is); on False the UI stays in English.
    """
    global _current
    for tr in _installed:
        app.removeTranslator(tr)
    _installed.clear()
    lang = normalize_language(locale_name)
    if lang == "en":
        _current = "en"
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        plurals = QTranslator(app)  # English plurals of the %n messages ("1 bundle exists", "2 bundles exist")
        if plurals.load("onnxpack_en", str(i18n_dir())):
            app.installTranslator(plurals)
            _installed.append(plurals)
        return True
    ours = QTranslator(app)
    if not ours.load(f"onnxpack_{lang}", str(i18n_dir())):
        _current = "en"
        return False
    qt = QTranslator(app)
    # Our copy in resources/i18n (frozen builds), else the one shipped with PySide6.
    qt_ok = qt.load(f"qtbase_{lang}", str(i18n_dir())) or qt.load(
        f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    )
    for tr in (qt, ours) if qt_ok else (ours,):
        app.installTranslator(tr)
        _installed.append(tr)
    _current = lang
    QLocale.setDefault(QLocale(lang))
    return qt_ok
