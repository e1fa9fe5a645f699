"""--save-outputs: each output of a smoke run as a .npy file under a safe name."""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import atomic_file, check_output_path, output_error_from_oserror
from . import codes

__all__ = ["safe_output_filename", "save_outputs"]

_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)), *(f"LPT{i}" for i in range(10))}


def safe_output_filename(name: str, taken: set[str]) -> str:
    """A file name for output ``name``: ``<name>.npy`` with anything unsafe replaced by ``_``.

    Path separators, ``..``, control characters, Windows-reserved names and case-insensitive
    collisions are neutralised; ``taken`` (case-folded names) is updated.
    """
    base = unicodedata.normalize("NFC", name)
    base = re.sub(r"[^\w.\-]+", "_", base)  # separators, spaces, control characters
    base = re.sub(r"_+", "_", re.sub(r"\.\.+", "_", base))  # no '..' anywhere
    base = base.strip(". ") or "output"
    if base.split(".")[0].upper() in _RESERVED:
        base = "_" + base
    base = base[:150]
    fname = base + ".npy"
    i = 2
    while fname.casefold() in taken:
        fname = f"{base}_{i}.npy"
        i += 1
    taken.add(fname.casefold())
    return fname


def save_outputs(arrays: Mapping[str, Any], out_dir: Path, *, protected: list[Path] | None = None) -> dict[str, str]:
    """Write each output to ``out_dir/<output name>.npy`` (atomically); return {output name: file path}.

    ``out_dir`` is created if missing (with its parents, as every command does). String outputs are saved as numpy
    unicode arrays (never pickled objects); sequences and maps are not saved.
    """
    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise codes.OUTPUT_IS_FILE.error(folder=str(out_dir))
    if not out_dir.exists():
        try:
            out_dir.mkdir(parents=True)
        except OSError as e:
            raise output_error_from_oserror(e, out_dir) from None
    real_dir = Path(os.path.realpath(out_dir))
    taken: set[str] = set()
    written: dict[str, str] = {}
    for name, value in arrays.items():
        if not isinstance(value, np.ndarray):
            continue
        fname = safe_output_filename(name, taken)
        dest = out_dir / fname
        if Path(os.path.realpath(dest)).parent != real_dir:
            raise codes.OUTPUT_ESCAPES.error(name=name, folder=str(out_dir))
        check_output_path(dest, protected or [])
        arr = value.astype(str) if value.dtype.kind in "OS" else value
        with atomic_file(dest) as f:
            np.save(f, arr, allow_pickle=False)
        written[name] = str(dest)
    return written
