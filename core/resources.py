"""Locate files shipped in ``resources/`` (source tree, editable install, or PyInstaller bundle)."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["SAMPLE_MODEL", "resource_path", "resources_dir"]


def resources_dir() -> Path:
    """The ``resources/`` folder: beside the executable when frozen, else at the project root."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root is not None:
        return Path(frozen_root) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)


#: The bundled sample model (external-data layout: victory.onnx + victory.onnx.data).
SAMPLE_MODEL = ("sample", "victory.onnx")
