"""onnxpack desktop GUI (PySide6): drag-and-drop inspection, verification and bundling over ``core``."""

__all__: list[str] = []
