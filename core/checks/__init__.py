"""What a model is and whether it is sound: inspection, validation, the onnx checker child, ORT compatibility
and retargeting."""

__all__: list[str] = []
