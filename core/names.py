"""One rule for file names onnxpack writes or accepts: bundle members, bundle names, external-data locations."""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePath

__all__ = ["bundle_file_name", "bundle_name_problem", "check_bundle_name", "component_problem", "default_bundle_name",
           "folded"]

# Windows opens a device, not a file, for these names in any folder and with any extension, also when
# spaces follow the name before the extension ("NUL .txt"). The superscript digits count as digits there
# (COM¹ is a serial port), and COM0/LPT0 are reserved since Windows 11's name rules.
_WIN_DEVICE = re.compile(r"(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)", re.IGNORECASE)
_WIN_FORBIDDEN = set('<>:"|?*\\')
# Characters that make a name display as something it is not: line and paragraph separators, and the
# bidirectional controls (U+202E turns "gpj.exe" into "exe.jpg" on screen).
_DECEPTIVE = {"\u2028", "\u2029", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)),
              *map(chr, range(0x2066, 0x206A))}


def component_problem(part: str) -> str | None:
    """Why ``part`` (one path component) is not a portable, honest file name; None when it is.

    The names must work and mean the same on Windows, macOS and Linux, because bundles are made on one
    and opened on another.
    """
    if part in ("", ".", ".."):
        return f"has an empty, '.' or '..' component ({part!r})"
    for c in part:
        if unicodedata.category(c) == "Cc":  # C0 and C1 controls, DEL
            return f"contains the control character U+{ord(c):04X}"
        if c in _DECEPTIVE:
            return f"contains the invisible formatting character U+{ord(c):04X}"
        if c in _WIN_FORBIDDEN:
            return f"contains {c!r}, which Windows does not allow in file names"
    if part.endswith((" ", ".")):
        return f"has a component ending in a dot or space ({part!r}); Windows would open a different file"
    stem = part.split(".", 1)[0].rstrip(" ")
    if _WIN_DEVICE.fullmatch(stem):
        return f"uses the reserved Windows device name {stem!r} ({part!r})"
    return None


def folded(name: str) -> str:
    """``name`` as a case-insensitive, Unicode-normalizing file system sees it: two names with the same folded form
    are one file on Windows and macOS."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def default_bundle_name(model: str | PurePath) -> str:
    """The bundle name when none is given (the CLI and the GUI alike): the model file's stem, as it is
    ("My Model.onnx" → "My Model", "勝利モデル.onnx" → "勝利モデル"); a folder's own name."""
    path = PurePath(model)
    return path.stem if path.suffix.lower() in (".onnx", ".ort") else path.name


def bundle_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a bundle (NAME.onnx, NAME-VERSION.zip), or None."""
    if not 1 <= len(name) <= 100:
        return "must have 1 to 100 characters"
    if name.startswith(".") or name.startswith("-"):
        return "must not start with '.' or '-'"
    if "/" in name or "\\" in name:
        return "contains a path separator"
    return component_problem(f"{name}.onnx")


def check_bundle_name(name: str) -> str:
    """``name`` when it can name a bundle; otherwise InputError(BAD_NAME) saying why and what to use."""
    why = bundle_name_problem(name)
    if why is not None:
        from . import errorcodes  # (here, as before: this module imports nothing of onnxpack at load)

        raise errorcodes.BAD_NAME.error(name, name=name, why=why)
    return name


def bundle_file_name(name: str, version: object) -> str:
    """The bundle's file name, NAME-VERSION.zip (the GUI checks it before starting a batch)."""
    return f"{name}-{version}.zip"
