"""The ``onnxpack-gui`` entry point: start the desktop app, or say how to get Qt when it is not installed."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence

__all__ = ["MISSING_QT", "run"]

# `pip install onnxpack` is the engine and the command line; the desktop app is the `gui` extra (PySide6). The
# hint names what a user has: the checkout or wheel they installed from, or the project's locked app set.
MISSING_QT = (
    "onnxpack-gui: the desktop app needs Qt (PySide6-Essentials), which is not installed here.\n"
    "hint: install the `gui` extra from what you installed onnxpack from — in a checkout: "
    "`pip install -r requirements/app.txt` (locked, with hashes) or `pip install '.[gui]'`; "
    "from a wheel: `pip install 'onnxpack-VERSION-py3-none-any.whl[gui]'`. "
    "The command line (`onnxpack`) works without it."
)


def run(argv: Sequence[str] | None = None) -> int:
    """Start the GUI (``onnxpack.gui.app.run``); exit 2 with a hint when PySide6 is missing."""
    if importlib.util.find_spec("PySide6") is None:
        print(MISSING_QT, file=sys.stderr)
        return 2
    from .app import run as run_app

    return run_app(argv)


if __name__ == "__main__":
    sys.exit(run())
