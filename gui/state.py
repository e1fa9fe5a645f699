"""The queue's state, now :mod:`onnxpack.gui.model.state`: this name stays for the modules that import it here
(gui/engine.py's release job)."""

from .model.state import *  # noqa: F403
from .model.state import __all__ as __all__
