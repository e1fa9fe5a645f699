"""The model file: wire format, skeleton reader, tensors and their places, external data, merging and its proof."""

__all__: list[str] = []
