"""The recipe of a merged single-file model: the structure's serialization with each empty ``raw_data`` replaced.

:mod:`core.wire` finds, inside the structure's serialization, every message on the path from the root to each
external tensor; the recipe re-emits those messages with new length prefixes around each tensor's bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from ..wire import LEN, WireField, iter_fields, varint, varint_size
from .mergeparts import MergeItem, merge_bug
from .mergesize import RAW_DATA_FIELD

__all__ = ["Op", "splice"]


@dataclass
class _Node:
    """A length-delimited field on the path to an external tensor, inside the structure's serialization."""

    wire: WireField | None  # None for the root (the whole ModelProto)
    payload_start: int
    end: int
    kids: dict[int, _Node] = field(default_factory=dict)  # by the field's start offset
    item: MergeItem | None = None  # set on a tensor's raw_data field: its bytes are streamed
    new_length: int = 0
    _occ: dict[int, list[WireField]] | None = None

    def occurrences(self, buf: bytes) -> dict[int, list[WireField]]:
        if self._occ is None:
            occ: dict[int, list[WireField]] = {}
            for f in iter_fields(buf, self.payload_start, self.end):
                if f.wire_type == LEN:
                    occ.setdefault(f.number, []).append(f)
            self._occ = occ
        return self._occ



#: One step of the recipe: a byte range of the serialization, literal bytes, or an item whose bytes are streamed.
Op = tuple[int, int] | bytes | MergeItem


def splice(buf: bytes, items: list[MergeItem]) -> tuple[list[Op], int]:
    """Output recipe for ``buf`` with each item's empty ``raw_data`` replaced by its external bytes.

    Returns the operations (a byte range of ``buf``, literal bytes, or an item to stream) and the total size.
    """
    root = _tree(buf, items)
    _size(root)
    return _ops(root), root.new_length


def _tree(buf: bytes, items: list[MergeItem]) -> _Node:
    """The length-delimited fields on the paths to the items' ``raw_data``, as a tree under the root."""
    root = _Node(None, 0, len(buf))
    for it in items:
        node = root
        for number, index in (*it.path, (RAW_DATA_FIELD, 0)):
            fields = node.occurrences(buf).get(number, [])
            if index >= len(fields):
                raise merge_bug(f"field {number}[{index}] not found on the wire (tensor {it.ref.ref.name!r})")
            f = fields[index]
            child = node.kids.get(f.start)
            if child is None:
                child = node.kids[f.start] = _Node(f, f.payload_start, f.end)
            node = child
        if node.end != node.payload_start or node.item is not None:
            raise merge_bug(f"raw_data of tensor {it.ref.ref.name!r} is not the empty placeholder")
        node.item = it
    return root


def _size(root: _Node) -> None:
    """Set every node's new payload length, children before their parents."""
    order: list[_Node] = []
    stack = [root]
    while stack:  # parents before children (no recursion: paths can be deep)
        node = stack.pop()
        order.append(node)
        stack.extend(node.kids.values())
    for node in reversed(order):
        if node.item is not None:
            node.new_length = node.item.length
            continue
        n = node.end - node.payload_start
        for k in node.kids.values():
            assert k.wire is not None
            n += varint_size(k.new_length) + k.new_length - (k.end - k.wire.length_start)
        node.new_length = n


def _ops(root: _Node) -> list[Op]:
    """The operations writing the tree in order: unchanged ranges, new length prefixes, streamed items."""
    ops: list[Op] = []
    stack: list[tuple[_Node, Iterator[_Node], int]] = [(root, iter(sorted(root.kids.values(), key=_start)), 0)]
    while stack:
        node, kids, pos = stack.pop()
        k = next(kids, None)
        if k is None:
            ops.append((pos, node.end))
            continue
        assert k.wire is not None
        ops.append((pos, k.wire.length_start))
        ops.append(varint(k.new_length))
        stack.append((node, kids, k.end))
        if k.item is not None:
            ops.append(k.item)
        else:
            stack.append((k, iter(sorted(k.kids.values(), key=_start)), k.payload_start))
    return [op for op in ops if not (isinstance(op, tuple) and op[0] == op[1])]


def _start(n: _Node) -> int:
    return n.payload_start
