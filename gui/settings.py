"""Persistent GUI settings (output folder, language, options, window layout) over QSettings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QStandardPaths

__all__ = ["AppSettings"]


def _to_bool(value: object, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    return str(value).lower() in ("1", "true", "yes")


class AppSettings:
    """Typed access to the keys onnxpack stores. Pass a QSettings (e.g. an INI file) to isolate tests."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.qs = qsettings if qsettings is not None else QSettings()

    def _get_str(self, key: str, default: str = "") -> str:
        value = self.qs.value(key, default)
        return default if value is None else str(value)

    def _set(self, key: str, value: object) -> None:
        self.qs.setValue(key, value)
        self.qs.sync()

    # --- folders ------------------------------------------------------------------------------
    @property
    def output_dir(self) -> str:
        default = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return self._get_str("bundle/output_dir", str(Path(default or Path.home()) / "onnxpack"))

    @output_dir.setter
    def output_dir(self, value: str) -> None:
        self._set("bundle/output_dir", value)

    @property
    def open_dir(self) -> str:
        return self._get_str("files/open_dir", str(Path.home()))

    @open_dir.setter
    def open_dir(self, value: str) -> None:
        self._set("files/open_dir", value)

    # --- language -----------------------------------------------------------------------------
    @property
    def language(self) -> str:
        """'system' (follow the OS), or a language code such as 'en' or 'ja'."""
        return self._get_str("ui/language", "system")

    @language.setter
    def language(self, value: str) -> None:
        self._set("ui/language", value)

    # --- bundle options -----------------------------------------------------------------------
    @property
    def target_ort(self) -> str:
        return self._get_str("bundle/target_ort", "")

    @target_ort.setter
    def target_ort(self, value: str) -> None:
        self._set("bundle/target_ort", value)

    def flag(self, name: str, default: bool = False) -> bool:
        return _to_bool(self.qs.value(f"bundle/{name}"), default)

    def set_flag(self, name: str, value: bool) -> None:
        self._set(f"bundle/{name}", bool(value))

    def text(self, name: str) -> str:
        """A remembered bundle text field (signing key *path*, licence, authors, homepage); never a key itself."""
        return self._get_str(f"bundle/{name}", "")

    def set_text(self, name: str, value: str) -> None:
        self._set(f"bundle/{name}", value)

    # --- window -------------------------------------------------------------------------------
    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        geometry = self.qs.value("window/geometry")
        state = self.qs.value("window/state")
        return (
            geometry if isinstance(geometry, QByteArray) else None,
            state if isinstance(state, QByteArray) else None,
        )

    def save_window_state(self, geometry: QByteArray, state: QByteArray) -> None:
        self.qs.setValue("window/geometry", geometry)
        self.qs.setValue("window/state", state)
        self.qs.sync()
