"""``python -m core`` runs the onnxpack command line."""

from .cli import run

run()
