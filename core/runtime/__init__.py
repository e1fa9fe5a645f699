"""Running a model with ONNX Runtime: inputs, the smoke run and its child, the ORT format, proof on releases."""

__all__: list[str] = []
