"""``python -m gui`` starts the desktop application."""

from gui.app import main

__all__: list[str] = []

main()
