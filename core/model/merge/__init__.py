"""Merging a model's external data (planned, sized, spliced, written) and the proof the result is the source model."""

__all__: list[str] = []
