"""Read a .onnx file as a skeleton: its structure parsed by protobuf, big tensor payloads left in the file as ranges.

A self-contained model keeps its weights in ``raw_data`` fields. Parsing the file with protobuf copies every
weight into Python memory (and ``SerializeToString`` copies them again). Here the file is read on demand and
its wire format walked along the fields that can hold a tensor (derived from the onnx descriptors, the walk
core/model/merge/merge.py shares); each ``raw_data`` of at least :data:`SKELETON_MIN_BYTES` bytes is replaced, in the
bytes handed to protobuf, by external-data entries that point back into the model file itself (``location`` = the
model's name, ``offset``/``length`` = the payload's range) plus a private key whose value is a token known only to
this process (:func:`inline_source`). The payloads are never read. From then on such a tensor is an
external reference like any other: core/model/extdata/ validates its range and length (security.md rule 1) and
every stage reads its bytes through the one validated reader.

Why hand-written: protobuf-python (upb) has no lazy or partial parsing of ``bytes`` fields, and onnx_ir's lazy
tensors need the data outside the protobuf already; none parses a ModelProto leaving its weights in the file.
Small tensors stay inline (as onnx's own ``convert_model_to_external_data`` threshold does) so that shape
inference still sees the shape inputs of Reshape, Expand and friends.

The walk only goes where a big payload can be: it never enters a message shorter than :data:`SKELETON_MIN_BYTES`
(no ``raw_data`` of that size fits inside), so the nodes of a 100 000-node graph cost one field header each. Where
the structure itself is huge — millions of attribute entries (a tree ensemble keeps its trees in node attributes),
millions of ``string_data`` entries, millions of nodes — a walk in Python would cost far more than protobuf's own
parse (docs/performance.md). The walk therefore has a budget of field headers (at least
:data:`_MIN_BUDGET`, more for a bigger file: one per :data:`_BYTES_PER_FIELD` bytes); a model that needs more is
parsed whole by protobuf, exactly as ``onnx.load(path, load_external_data=False)`` parses it (its payloads inline,
as in a model whose tensors are all small). A weight-heavy model has few headers per byte and stays under the
budget, so its weights stay in the file; one that is both (say 300 000 small nodes beside 256 MB of weights) is
parsed whole, weights included, as onnx.load parses it.
"""

from __future__ import annotations

import os
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from onnx import ModelProto, TensorProto

from .tensors import tensor_fields
from .wire import I32, I64, LEN, SGROUP, VARINT, WireError, read_varint, skip_value, tag, varint

__all__ = [
    "INLINE_KEY", "SKELETON_MIN_BYTES", "TENSOR_HOLDERS", "Skeleton", "had_default_location", "inline_source",
    "read_skeleton",
]

#: raw_data payloads this big or bigger stay in the file (onnx's size_threshold for external data is 1024).
SKELETON_MIN_BYTES = 1024
#: The external_data key that marks a range inside the model file; its value is a token of this process.
INLINE_KEY = "onnxpack-inline"
#: Deeper nesting than protobuf itself accepts (100) is refused before protobuf sees it.
_MAX_DEPTH = 100
#: The walk reads at most this many field headers (or one per _BYTES_PER_FIELD bytes of a bigger model) before the
#: model is handed to protobuf whole: beyond that protobuf's C parser is faster than skipping the payloads.
_MIN_BUDGET = 30_000
_BYTES_PER_FIELD = 2048

_TOKENS: dict[str, Path] = {}
_DEFAULT_SUFFIX = b"+default"  # appended to the token when the tensor had an explicit data_location = DEFAULT

_RAW_DATA, _EXTERNAL_DATA, _DATA_LOCATION = 9, 13, 14
_TENSOR_WANTED = frozenset((_RAW_DATA, _EXTERNAL_DATA, _DATA_LOCATION))


def inline_source(token: str) -> Path | None:
    """The model file a skeleton made in this process points into with ``token`` (None for a foreign value)."""
    return _TOKENS.get(token.removesuffix(_DEFAULT_SUFFIX.decode()))


def had_default_location(tensor: TensorProto) -> bool:
    """Whether the file wrote ``data_location = DEFAULT`` for this skeleton tensor (a merge writes it back)."""
    return any(e.key == INLINE_KEY and e.value.endswith(_DEFAULT_SUFFIX.decode()) for e in tensor.external_data)


_FIELDS = tensor_fields()
#: Message types that can (transitively) hold a TensorProto (TensorProto included).
TENSOR_HOLDERS = frozenset(_FIELDS)
_TENSOR = TensorProto.DESCRIPTOR.full_name


@dataclass
class Skeleton:
    """What :func:`read_skeleton` made: the parsed structure and how much stayed in the file."""

    model: ModelProto
    tensors_in_file: int  # raw_data payloads left in the file as ranges
    bytes_in_file: int
    structure_bytes: int  # bytes handed to protobuf
    parsed_whole: bool = False  # the structure had more field headers than the walk's budget: protobuf parsed it all
    fields_walked: int = 0  # field headers the walk read


class _TooDense(Exception):
    """The walk used up its budget of field headers."""


class _Walk:
    def __init__(self, buf: _File, name: str, token: str, budget: int | None = None) -> None:
        self.buf = buf
        self.name = name.encode("utf-8")
        self.token = token.encode("ascii")
        self.count = 0
        self.bytes = 0
        self.merged_fields = 0  # singular message fields that occur more than once (left to protobuf)
        self.fields = 0  # field headers read
        self.budget = budget

    # The walk's inner loop stays flat (C901): with the varint and wire-type decoding in helper functions it is
    # measurably slower (measured: docs/performance.md).
    def scan(self, start: int, end: int, wanted: Container[int]) -> list[tuple[int, int, int, int, int]]:  # noqa: C901
        """``(number, wire type, start, payload start, end)`` of the fields of ``buf[start:end]`` whose number is in
        ``wanted`` (every field is checked as :func:`wire.iter_fields` checks it; the others are only skipped).

        The same decoding as :func:`wire.iter_fields`, on blocks of the file read into memory (one call per field
        header instead of one per byte): the walk's inner loop.
        """
        out: list[tuple[int, int, int, int, int]] = []
        src = self.buf
        size = src.size
        block = src.BLOCK
        buf = b""
        base = n = 0
        pos = start
        fields = self.fields
        budget = self.budget
        try:
            while pos < end:
                i = pos - base
                if i < 0 or i >= n or (i + 24 > n and base + n < size):
                    base = pos
                    buf = src.read(pos, min(block, size - pos))
                    n = len(buf)
                    i = 0
                key = buf[i]
                i += 1
                if key >= 0x80:
                    key &= 0x7F
                    shift = 7
                    while True:
                        b = buf[i]
                        i += 1
                        key |= (b & 0x7F) << shift
                        if b < 0x80:
                            break
                        shift += 7
                        if shift >= 70:
                            raise WireError("varint longer than 10 bytes")
                p = base + i
                if p > end:
                    raise WireError("truncated varint")
                number, wire_type = key >> 3, key & 7
                if number == 0:
                    raise WireError("field number 0")
                fields += 1
                if wire_type == LEN:
                    length = buf[i]
                    i += 1
                    if length >= 0x80:
                        length &= 0x7F
                        shift = 7
                        while True:
                            b = buf[i]
                            i += 1
                            length |= (b & 0x7F) << shift
                            if b < 0x80:
                                break
                            shift += 7
                            if shift >= 70:
                                raise WireError("varint longer than 10 bytes")
                    payload = base + i
                    if payload > end:
                        raise WireError("truncated varint")
                    field_end = payload + length
                elif wire_type == VARINT:
                    payload = p
                    count = 0
                    while buf[i] >= 0x80:
                        i += 1
                        count += 1
                        if count >= 10:
                            raise WireError("varint longer than 10 bytes")
                    field_end = base + i + 1
                    if field_end > end:
                        raise WireError("truncated varint")
                elif wire_type == I64:
                    payload, field_end = p, p + 8
                elif wire_type == I32:
                    payload, field_end = p, p + 4
                elif wire_type == SGROUP:  # never written by ONNX: the general reader
                    payload, field_end = skip_value(src, p, end, wire_type)
                else:
                    raise WireError(f"unexpected wire type {wire_type}")
                if field_end > end:
                    raise WireError("field runs past the end of the message")
                if number in wanted:
                    out.append((number, wire_type, pos, payload, field_end))
                pos = field_end
                if budget is not None and fields > budget:
                    raise _TooDense
        except IndexError:  # a varint cut by the end of the file
            raise WireError("truncated varint") from None
        finally:
            self.fields = fields
        return out

    def entry(self, key: bytes, value: bytes) -> bytes:
        body = tag(1, LEN) + varint(len(key)) + key + tag(2, LEN) + varint(len(value)) + value
        return tag(_EXTERNAL_DATA, LEN) + varint(len(body)) + body

    def message(self, start: int, end: int, kind: str, depth: int) -> tuple[list[bytes | tuple[int, int]], int]:
        """The chunks of the rewritten message in ``buf[start:end]`` and their total length."""
        if depth > _MAX_DEPTH:
            raise WireError(f"messages nested more than {_MAX_DEPTH} deep")
        if kind == _TENSOR:
            return self.tensor(start, end)
        subs = _FIELDS.get(kind, {})
        fields = [f for f in self.scan(start, end, subs) if f[1] == LEN]
        # Protobuf *merges* the occurrences of a singular message field (sub-messages merged, scalars last-wins,
        # repeated fields appended): a tensor split over two occurrences is one tensor only after that merge. Such
        # fields are handed to protobuf as written, never rewritten, so the parse is exactly protobuf's.
        seen: dict[int, int] = {}
        for f in fields:
            seen[f[0]] = seen.get(f[0], 0) + 1
        merged = {n for n, count in seen.items() if count > 1 and not subs[n][1]}
        chunks: list[bytes | tuple[int, int]] = []
        total = 0
        copy_from = start  # verbatim run not yet emitted
        for number, _wire, f_start, f_payload, f_end in fields:
            if f_end - f_payload < SKELETON_MIN_BYTES:
                continue  # too short to hold a payload the walk would leave in the file: stays verbatim
            if number in merged:
                self.merged_fields += 1
                continue
            inner, n = self.message(f_payload, f_end, subs[number][0], depth + 1)
            if n == f_end - f_payload and len(inner) == 1:
                continue  # unchanged: stays part of the verbatim run
            if f_start > copy_from:
                chunks.append((copy_from, f_start))
                total += f_start - copy_from
            head = tag(number, LEN) + varint(n)
            chunks.append(head)
            chunks.extend(inner)
            total += len(head) + n
            copy_from = f_end
        if copy_from == start:
            return [(start, end)], end - start
        if end > copy_from:
            chunks.append((copy_from, end))
            total += end - copy_from
        return chunks, total

    def tensor(self, start: int, end: int) -> tuple[list[bytes | tuple[int, int]], int]:
        fields = self.scan(start, end, _TENSOR_WANTED)
        raw = [f for f in fields if f[0] == _RAW_DATA]
        locations = [f for f in fields if f[0] == _DATA_LOCATION]
        # ``data_location = DEFAULT`` written out (proto2 keeps an explicitly set field: onnx.load and every merge
        # write it) still means raw_data; anything else that hints at external data does not.
        explicit_default = bool(locations) and all(
            f[1] == VARINT and read_varint(self.buf, f[3], f[4])[0] == TensorProto.DEFAULT for f in locations
        )
        external = any(f[0] == _EXTERNAL_DATA for f in fields) or (bool(locations) and not explicit_default)
        whole: tuple[list[bytes | tuple[int, int]], int] = ([(start, end)], end - start)
        # Exactly one raw_data, length-delimited, big, and no external-data fields: anything else stays as it
        # is, so that protobuf and the validator see (and report) the oddity exactly as written.
        if len(raw) != 1 or external or raw[0][1] != LEN:
            return whole
        _number, _wire, f_start, f_payload, f_end = raw[0]
        length = f_end - f_payload
        if length < SKELETON_MIN_BYTES:
            return whole
        marker = (
            self.entry(b"location", self.name)
            + self.entry(b"offset", str(f_payload).encode())
            + self.entry(b"length", str(length).encode())
            + self.entry(INLINE_KEY.encode(), self.token + (_DEFAULT_SUFFIX if explicit_default else b""))
            + tag(_DATA_LOCATION, VARINT) + varint(TensorProto.EXTERNAL)
        )
        self.count += 1
        self.bytes += length
        chunks: list[bytes | tuple[int, int]] = [(start, f_start), (f_end, end), marker]
        return chunks, (f_start - start) + (end - f_end) + len(marker)


class _File:
    """A file read on demand: single bytes from a small block cache, ranges with one read each.

    Not a memory map: mapping a large file and touching only its field headers still counts a large share of the
    file as mapped pages against the process when the file has just been written (large page-cache folios are mapped
    whole, whatever madvise says; docs/performance.md). Reads keep the resident memory at the structure's size.
    """

    BLOCK = 1 << 16

    def __init__(self, fh: BinaryIO, size: int) -> None:
        self.fh, self.size = fh, size
        self.blocks: dict[int, bytes] = {}

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: int, /) -> int:
        if not 0 <= index < self.size:
            raise IndexError(index)
        n = index // self.BLOCK
        block = self.blocks.get(n)
        if block is None:
            if len(self.blocks) >= 8:
                self.blocks.pop(next(iter(self.blocks)))
            block = self.blocks[n] = self.read(n * self.BLOCK, min(self.BLOCK, self.size - n * self.BLOCK))
        return block[index - n * self.BLOCK]

    def read(self, start: int, length: int) -> bytes:
        self.fh.seek(start)
        data = self.fh.read(length)
        if len(data) != length:
            raise WireError("the file changed size while it was read")
        return data


def read_skeleton(path: Path, window: tuple[int, int] | None = None) -> Skeleton:
    """Parse ``path`` leaving every big ``raw_data`` in the file (raises WireError or protobuf's DecodeError).

    ``window`` = (start, length): parse that byte range of the file (e.g. a stored ZIP entry); the ranges left in
    the file are then offsets of the whole file.
    """
    token = os.urandom(16).hex()  # (secrets.token_hex's own source, without importing secrets and its hmac)
    with open(path, "rb", buffering=0) as fh:
        size = fh.seek(0, 2)
        start, end = (0, size) if window is None else (window[0], window[0] + window[1])
        if end > size or start < 0 or end < start:
            raise WireError("the model's byte range lies outside the file")
        if end == start:
            raise WireError("empty file")
        src = _File(fh, size)
        walk = _Walk(src, path.name, token, max(_MIN_BUDGET, (end - start) // _BYTES_PER_FIELD))
        try:
            chunks, total = walk.message(start, end, ModelProto.DESCRIPTOR.full_name, 0)
        except _TooDense:  # a structure this dense is parsed faster by protobuf, payloads and all (see above)
            data = src.read(start, end - start)
            model = ModelProto()
            model.ParseFromString(data)
            return Skeleton(model, 0, 0, len(data), parsed_whole=True, fields_walked=walk.fields)
        data = b"".join(c if isinstance(c, bytes) else src.read(c[0], c[1] - c[0]) for c in chunks)
    model = ModelProto()
    model.ParseFromString(data)
    del data
    if walk.count:
        _TOKENS[token] = path.resolve()
    return Skeleton(model, walk.count, walk.bytes, total, fields_walked=walk.fields)
