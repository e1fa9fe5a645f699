"""The pieces a merge is planned from: each tensor's place on the wire, an external tensor to stream, the errors."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from onnx import ModelProto, TensorProto

from ... import classcodes
from ...errors import InternalError, OnnxpackError
from .. import codes
from ..extdata.extref import ExternalRef
from ..modelfile import PROTOBUF_LIMIT
from ..skeleton import TENSOR_HOLDERS

__all__ = ["MergeItem", "WirePath", "merge_bug", "tensor_paths", "too_large"]

#: A message's place in the model: ``(field number, index)`` steps from the ModelProto root, the index
#: being the element index of a repeated field (0 for a singular one) = which occurrence on the wire.
WirePath = tuple[tuple[int, int], ...]


def _repeated(fd: Any) -> bool:
    # protobuf >= 5.29 has is_repeated (and 7 dropped label); older versions only label.
    flag = getattr(fd, "is_repeated", None)
    return bool(flag) if flag is not None else bool(fd.label == fd.LABEL_REPEATED)
_TENSOR = TensorProto.DESCRIPTOR.full_name


def tensor_paths(model: ModelProto) -> Iterator[tuple[WirePath, TensorProto]]:
    """Every TensorProto of ``model`` with its :data:`WirePath`, in serialization order (no recursion)."""
    stack: list[tuple[Any, WirePath]] = [(model, ())]
    while stack:
        msg, path = stack.pop()
        if msg.DESCRIPTOR.full_name == _TENSOR:
            yield path, msg
            continue
        children: list[tuple[Any, WirePath]] = []
        for fd, value in msg.ListFields():
            if fd.message_type is None or fd.message_type.full_name not in TENSOR_HOLDERS:
                continue
            if _repeated(fd):
                children.extend((sub, (*path, (fd.number, i))) for i, sub in enumerate(value))
            else:
                children.append((value, (*path, (fd.number, 0))))
        stack.extend(reversed(children))


@dataclass
class MergeItem:
    """One external tensor of the input."""

    path: WirePath
    ref: ExternalRef
    length: int
    header: TensorProto  # copy of the tensor as loaded (to restore after a write)
    offset: int = 0  # in the consolidated data file (external layout)


def merge_bug(message: str) -> InternalError:
    """The error of a merge that contradicts itself (a bug in onnxpack, never a problem of the input)."""
    return classcodes.INTERNAL.error(variant="merge", detail=message)  # type: ignore[return-value]


def too_large(size: int, part: str = "", tensor: str = "") -> OnnxpackError:
    """MERGE_TOO_LARGE: the merged single file (``part`` "structure": the model without its consolidated data;
    "tensor": ``tensor`` embedded) would reach protobuf's 2 GiB limit."""
    if part == "structure":
        return codes.MERGE_TOO_LARGE.error(variant="merge_structure", bytes=size, limit=PROTOBUF_LIMIT)
    if part == "tensor":
        return codes.MERGE_TOO_LARGE.error(variant="merge_tensor", bytes=size, limit=PROTOBUF_LIMIT, tensor=tensor)
    return codes.MERGE_TOO_LARGE.error(variant="merge", bytes=size, limit=PROTOBUF_LIMIT)
