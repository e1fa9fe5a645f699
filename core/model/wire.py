"""The few protobuf wire-format pieces a streaming merge needs: varints, tags, field scanning.

Why hand-written: protobuf-python (upb) can only serialize a whole in-memory message, so embedding
a tensor's ``raw_data`` with the library means holding every weight in memory (onnx's load+save
holds about three copies). The wire format lets a length-delimited field be written as
``tag, varint(length), payload`` with the payload streamed, as long as the length is known up
front. We let protobuf serialize the model *structure* and use this module only to (a) find the
byte ranges of the fields on the path to each big tensor inside that serialization and (b) write
new length prefixes. Everything here is specified in https://protobuf.dev/programming-guides/encoding/
and tested against the library in tests/test_wire.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "LEN",
    "VARINT",
    "ByteSource",
    "WireError",
    "WireField",
    "field_size",
    "iter_fields",
    "read_varint",
    "skip_value",
    "tag",
    "varint",
    "varint_size",
]



class ByteSource(Protocol):
    """What the readers index: bytes, a memoryview, or a file read on demand (core/model/skeleton.py)."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int, /) -> int: ...


Buf = bytes | memoryview | ByteSource

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5
_MAX_VARINT_BYTES = 10


class WireError(ValueError):
    """The bytes are not valid protobuf wire format."""


def varint(value: int) -> bytes:
    """Base-128 varint encoding of a non-negative integer (< 2**64)."""
    if value < 0 or value >= 1 << 64:
        raise ValueError(f"varint out of range: {value}")
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def varint_size(value: int) -> int:
    """Number of bytes :func:`varint` uses for ``value``."""
    if value < 0:
        raise ValueError(f"varint out of range: {value}")
    return max(1, (value.bit_length() + 6) // 7)


def tag(field_number: int, wire_type: int) -> bytes:
    """The key of a field: ``varint(field_number << 3 | wire_type)``."""
    if field_number < 1 or field_number >= 1 << 29 or not 0 <= wire_type <= 5:
        raise ValueError(f"bad field number {field_number} or wire type {wire_type}")
    return varint(field_number << 3 | wire_type)


def field_size(field_number: int, payload_length: int) -> int:
    """Bytes of a whole length-delimited field: tag + length prefix + payload."""
    return varint_size(field_number << 3 | LEN) + varint_size(payload_length) + payload_length


def read_varint(buf: Buf, pos: int, end: int | None = None) -> tuple[int, int]:
    """Decode the varint at ``pos``; return ``(value, position after it)``."""
    end = len(buf) if end is None else end
    result = 0
    shift = 0
    for i in range(_MAX_VARINT_BYTES):
        if pos + i >= end:
            raise WireError("truncated varint")
        b = buf[pos + i]
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos + i + 1
        shift += 7
    raise WireError("varint longer than 10 bytes")


@dataclass(frozen=True)
class WireField:
    """One top-level field of a serialized message: where its tag, payload and end are."""

    number: int
    wire_type: int
    start: int  # first byte of the tag
    payload_start: int  # first byte after the tag (and after the length prefix for LEN fields)
    end: int  # one past the last byte of the field

    @property
    def length_start(self) -> int:
        """For LEN fields: first byte of the length prefix (= end of the tag)."""
        return self.start + varint_size(self.number << 3 | self.wire_type)


def _skip(buf: Buf, pos: int, end: int, wire_type: int) -> tuple[int, int]:
    """Skip one field's value; return ``(payload start, end of field)``."""
    if wire_type == VARINT:
        return pos, read_varint(buf, pos, end)[1]
    if wire_type == I64:
        return pos, pos + 8
    if wire_type == I32:
        return pos, pos + 4
    if wire_type == LEN:
        length, p = read_varint(buf, pos, end)
        return p, p + length
    if wire_type == SGROUP:
        depth, p = 1, pos
        while depth:
            if p >= end:
                raise WireError("unterminated group")
            key, p = read_varint(buf, p, end)
            if key & 7 == SGROUP:
                depth += 1
            elif key & 7 == EGROUP:
                depth -= 1
            else:
                p = _skip(buf, p, end, key & 7)[1]
        return pos, p
    raise WireError(f"unexpected wire type {wire_type}")


def skip_value(buf: Buf, pos: int, end: int, wire_type: int) -> tuple[int, int]:
    """Skip the value of a ``wire_type`` field whose tag ends at ``pos``: ``(payload start, end of field)``."""
    return _skip(buf, pos, end, wire_type)


def iter_fields(buf: Buf, start: int = 0, end: int | None = None) -> Iterator[WireField]:
    """Yield the top-level fields of the message serialized in ``buf[start:end]``, in order.

    Group fields (deprecated, never written by ONNX) are skipped over as one field, nesting included.
    """
    end = len(buf) if end is None else end
    pos = start
    while pos < end:
        key, p = read_varint(buf, pos, end)
        number, wire_type = key >> 3, key & 7
        if number == 0:
            raise WireError("field number 0")
        payload_start, field_end = _skip(buf, p, end, wire_type)
        if field_end > end:
            raise WireError("field runs past the end of the message")
        yield WireField(number, wire_type, pos, payload_start, field_end)
        pos = field_end
