"""onnxpack engine: inspect, validate, merge, smoke-run and bundle ONNX models (no Qt here)."""

__version__ = "0.1.0"

__all__ = ["__version__"]
