"""Exact byte size of a model once its external data is merged into one file, without reading weights.

Protobuf's own ``ByteSize()`` cannot be used on the merged model: that model is never built in memory
(weights are streamed), and ``ByteSize()`` raises above 2 GiB anyway. Instead we take the size of the
structure we have (external tensors carry no bytes) and add, along the path from every external tensor
up to the model, the change that inlining makes: the tensor loses its ``external_data`` entries, its
``data_location`` becomes DEFAULT (as ``onnx.load`` leaves it) and it gains a ``raw_data`` field
(tag + varint(length) + bytes); every enclosing
message's length prefix grows accordingly. This module is the single definition of that arithmetic —
the merge writer uses :func:`inline_tensor` and :class:`MergedSizer` so both agree to the byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import attrgetter
from typing import Any

from google.protobuf.message import Message
from onnx import (
    ModelProto,
    NodeProto,
    TensorProto,
)

from ..extdata.extref import ExternalRef, ExternalTable
from ..skeleton import INLINE_KEY, had_default_location
from ..tensors import holders, tensor_fields, uses_external_data
from ..wire import varint_size

__all__ = [
    "RAW_DATA_FIELD",
    "MergedSizer",
    "external_lengths",
    "inline_tensor",
    "inlined_tensor_size",
    "length_key",
    "lengths_exact",
    "single_file_size",
    "varint_size",
]

_NODE = NodeProto.DESCRIPTOR
_ATTRIBUTES = attrgetter("attribute")
#: TensorProto.raw_data is field 9, wire type 2 (length-delimited): its tag is one byte.
RAW_DATA_FIELD = 9
_RAW_DATA_TAG_BYTES = 1


def _embedded(n: int) -> int:
    """Length prefix plus payload of a length-delimited field whose payload is ``n`` bytes (tag excluded)."""
    return varint_size(n) + n


def inline_tensor(tensor: TensorProto) -> None:
    """The canonical header change when a tensor's external data is inlined (raw bytes are set by the caller).

    ``external_data`` is removed and ``data_location`` set to DEFAULT (proto2 serializes it, two bytes),
    exactly as ``onnx.load`` does, so a merged model is byte-identical to ``onnx.save(onnx.load(path))``.
    Merge applies exactly this before setting ``raw_data``. A ``raw_data`` that the skeleton reader left
    in a self-contained file (core/model/skeleton.py) had no ``data_location`` field: it gets none back, so a merge of a
    self-contained model is byte-identical to the file protobuf would write.
    """
    was_inline = any(e.key == INLINE_KEY for e in tensor.external_data)
    explicit = had_default_location(tensor)
    tensor.ClearField("external_data")
    if was_inline and not explicit:
        tensor.ClearField("data_location")
    else:
        tensor.data_location = TensorProto.DEFAULT


def inlined_tensor_size(tensor: TensorProto, data_length: int) -> int:
    """Serialized size of ``tensor`` after :func:`inline_tensor` and ``raw_data`` of ``data_length`` bytes."""
    stripped = TensorProto()
    stripped.CopyFrom(tensor)
    inline_tensor(stripped)
    stripped.ClearField("raw_data")
    return int(stripped.ByteSize()) + _RAW_DATA_TAG_BYTES + _embedded(data_length)


def length_key(tensor: TensorProto) -> bytes:
    """Key identifying an external tensor's header (its structure bytes; it carries no weights)."""
    return bytes(tensor.SerializeToString(deterministic=True))


def external_lengths(table: ExternalTable) -> tuple[dict[bytes, int], bool]:
    """``{length_key(tensor): byte count}`` for every external tensor, and whether all counts are exact.

    The count is the validated effective length; for an invalid reference it falls back to the
    declared length or dims × element size (then the result is an estimate, flagged by ``False``).
    """
    lengths: dict[bytes, int] = {}
    exact = True
    for r in table.refs:
        n = r.data_length
        if n is None or not _exact_length(r):
            exact = False
            n = r.length if r.length is not None else (r.expected_length or 0)
            n = max(n, 0)  # dims can be negative in a broken model: the estimate must stay a size
        lengths[length_key(r.ref.tensor)] = n
    return lengths, exact


def _exact_length(r: ExternalRef) -> bool:
    return r.data_length is not None and r.ok


def lengths_exact(table: ExternalTable) -> bool:
    """Whether :func:`external_lengths` (and so :func:`single_file_size`) is exact for ``table``, without sizing."""
    return all(_exact_length(r) for r in table.refs)


class MergedSizer:
    """Sizes of messages after inlining external data: ``size(msg)`` for a model, graph, node, tensor, ...

    ``lengths`` maps :func:`length_key` of each external tensor to its byte count. A tensor marked
    external but missing from ``lengths`` raises KeyError (the table must cover every tensor).
    Recursion follows message nesting, which protobuf's parser caps at 100 levels.
    """

    def __init__(self, lengths: Mapping[bytes, int]) -> None:
        self._lengths = lengths

    def size(self, msg: Message) -> int:
        return int(msg.ByteSize()) + self.delta(msg)

    def delta(self, msg: Message) -> int:
        """How many bytes inlining adds to ``msg``'s own serialized size."""
        if isinstance(msg, TensorProto):
            if not uses_external_data(msg):
                return 0
            return inlined_tensor_size(msg, self._lengths[length_key(msg)]) - int(msg.ByteSize())
        return sum(self._child_delta(c) for c in self._children(msg))

    def _child_delta(self, child: Message) -> int:
        d = self.delta(child)
        if d == 0:
            return 0
        old = int(child.ByteSize())
        return _embedded(old + d) - _embedded(old)

    @staticmethod
    def _children(msg: Message) -> Iterable[Message]:
        # Only the fields through which a TensorProto can be reached, from onnx's descriptors (core/model/tensors.py).
        fields = tensor_fields().get(msg.DESCRIPTOR.full_name, {})
        for fd, value in msg.ListFields():
            if fd.number in fields:
                if fields[fd.number][1]:
                    # a node without attributes holds no tensor (a graph can have millions of nodes)
                    yield from filter(_ATTRIBUTES, value) if fd.message_type is _NODE else value
                else:
                    yield value


def single_file_size(model: ModelProto, table: ExternalTable) -> tuple[int, bool]:
    """Exact size in bytes of ``model`` saved as one file with all external data inlined.

    Returns ``(size, exact)``; ``exact`` is False only when some external reference is invalid and
    its length had to be taken from the declaration or the tensor's dims.
    """
    lengths, exact = external_lengths(table)
    size = _size_by_holders(model, table, lengths)
    return (size if size is not None else MergedSizer(lengths).size(model)), exact


def _size_by_holders(model: ModelProto, table: ExternalTable, lengths: Mapping[bytes, int]) -> int | None:
    """:class:`MergedSizer`'s size of ``model``, the same arithmetic on the messages that hold an external tensor, as
    the walk that found it knows them (:func:`holders`), instead of a walk of every message that could hold one (every
    node and attribute of the graph). None when a reference was not found in ``model`` by a
    walk."""
    # id(message) -> [message, id(its holder) or None for the model, depth, bytes its own serialization grows by]
    grown: dict[int, list[Any]] = {}
    for r in table.refs:
        chain = holders(r.ref)
        if chain is None or chain[-1] is not model:
            return None
        tensor = r.ref.tensor
        d = inlined_tensor_size(tensor, lengths[length_key(tensor)]) - int(tensor.ByteSize())
        grown[id(tensor)] = [tensor, id(chain[0]), len(chain), d]
        for i, holder in enumerate(chain):
            if id(holder) in grown:
                break  # (and so are its own holders)
            grown[id(holder)] = [holder, id(chain[i + 1]) if i + 1 < len(chain) else None, len(chain) - 1 - i, 0]
    if not grown:
        return int(model.ByteSize())
    size = 0
    for msg, holder, _depth, d in sorted(grown.values(), key=lambda e: -e[2]):  # the innermost first
        old = int(msg.ByteSize())
        if holder is None:
            size = old + d
        elif d:
            grown[holder][3] += _embedded(old + d) - _embedded(old)
    return size
