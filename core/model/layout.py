"""How a model's bytes are laid out in files (one .onnx, .onnx + one data file, or the ORT format) and their names."""

from __future__ import annotations

import enum

__all__ = ["AUTO", "BUNDLE_LAYOUTS", "DEFAULT_ALIGN", "KEEP", "LAYOUTS", "Layout"]


class Layout(str, enum.Enum):
    """A model's layout. A ``str``: it equals (and prints, and goes into JSON as) its value, e.g. ``"single"``."""

    #: One self-contained ``NAME.onnx`` (protobuf refuses it at 2 GiB).
    SINGLE = "single"
    #: ``NAME.onnx`` plus its tensor bytes in ``NAME.onnx.data`` beside it.
    EXTERNAL = "external"
    #: An ORT-format model, ``NAME.ort`` (one FlatBuffer).
    ORT = "ort"

    def __str__(self) -> str:  # as enum.StrEnum does (Python 3.11+): f"{layout}" is "single", not "Layout.SINGLE"
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)

    @staticmethod
    def data_name(model_name: str) -> str:
        """The name of the data file of the model file ``model_name`` (``NAME.onnx`` → ``NAME.onnx.data``)."""
        return model_name + ".data"

    def model_name(self, stem: str) -> str:
        """The model file's name for ``stem`` (``NAME.onnx``, or ``NAME.ort`` for the ORT format)."""
        return f"{stem}.ort" if self is Layout.ORT else f"{stem}.onnx"

    def entry_names(self, stem: str) -> tuple[str, ...]:
        """The files this layout takes for a model named ``stem``: the model file first, then its data file."""
        model = self.model_name(stem)
        return (model, Layout.data_name(model)) if self is Layout.EXTERNAL else (model,)


#: What ``--layout`` chooses among: "auto" (single file below 2 GiB, else external) or a layout of the .onnx model.
AUTO = "auto"
LAYOUTS = (AUTO, Layout.SINGLE.value, Layout.EXTERNAL.value)
#: bundle only: ship the model's files as they are (validated and proven, not merged).
KEEP = "keep"
BUNDLE_LAYOUTS = (*LAYOUTS, KEEP)

#: The external layout's default alignment of each tensor's offset, in bytes (merge --align).
DEFAULT_ALIGN = 65536
