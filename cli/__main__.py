"""``python -m onnxpack.cli`` runs the onnxpack command line."""

from onnxpack.cli import run

__all__: list[str] = []

run()
