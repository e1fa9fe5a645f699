"""A model read once — location, skeleton, validated tensor ranges — that the pipeline's stages hand each other."""

from __future__ import annotations

from dataclasses import dataclass

from onnx import ModelProto

from .extdata.extref import ExternalTable
from .modelfile import ModelLocation

__all__ = ["LoadedModel"]


@dataclass
class LoadedModel:
    """What a stage needs of a model instead of its path (like Polygraphy's loaders: a path or a loaded model).

    ``model`` is the skeleton (core/model/skeleton.py): no weights, every payload a validated range in ``table``. A
    stage that rewrites tensor headers (the merge) owns the object while it runs; give others a copy.
    """

    location: ModelLocation
    model: ModelProto
    table: ExternalTable
