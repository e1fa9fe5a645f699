"""``python -m onnxpack.gui`` starts the desktop application."""

from onnxpack.gui.app import main

__all__: list[str] = []

main()
