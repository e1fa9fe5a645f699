"""Merge external data into one self-contained .onnx, streaming, or consolidate it into one aligned data file.

Single layout: protobuf serializes the model *structure* (external tensors get ``raw_data = b""``);
:mod:`core.wire` finds, inside that serialization, every message on the path from the root to each
external tensor, and the writer re-emits those messages with new length prefixes while streaming
each tensor's bytes from its data file in chunks. Peak memory is the structure, never the weights,
and the output is byte-identical to ``onnx.save(onnx.load(path))`` (same field order, same
``data_location = DEFAULT``). The exact size is known before the first byte is written.

External layout (``NAME.onnx`` + ``NAME.onnx.data``): only tensors that were external go to the new
data file (inline tensors stay inline; an external tensor of 0 bytes becomes inline), each at an
offset aligned to ``align``; with ``checksum`` every entry gets the SHA-1 of the whole data file,
computed while it is written, so the data file is written before the .onnx.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from onnx import ModelProto, TensorProto

from ..atomic import (
    WritebackPacer,
    atomic_file,
    check_free_space,
    check_output_path,
    output_folder,
    pending_path,
    plain_file_fd,
    refuse_inside_inputs,
)
from ..errors import ExternalDataError, InputError, InternalError, OutputError
from ..progress import CancelToken, ProgressCallback, check_cancel, report
from .extdata import CHUNK, ExternalDataReader, ExternalRef, ExternalTable, resolve_external_data
from .loaded import LoadedModel
from .mergesize import RAW_DATA_FIELD, inline_tensor, inlined_tensor_size, single_file_size
from .modelfile import PROTOBUF_LIMIT, ModelLocation, load_structure, locate_model
from .skeleton import INLINE_KEY, TENSOR_HOLDERS, inline_source
from .tensors import uses_external_data
from .wire import LEN, WireField, iter_fields, varint, varint_size

__all__ = [
    "DEFAULT_ALIGN",
    "LAYOUTS",
    "MergePlan",
    "MergeResult",
    "WirePath",
    "merge_model",
    "plan_merge",
    "tensor_paths",
]

LAYOUTS = ("auto", "single", "external")
DEFAULT_ALIGN = 65536
_MAX_ALIGN = 2**30
_STAGE = "merge"
_READ_CHUNK = 16 * 2**20  # large reads: fewer syscalls; memory stays a few chunks
_KERNEL_CHUNK = 16 * 2**20  # file-to-file copies in the kernel: cancellation/progress/writeback granularity
_SMALL_WRITE = 256 * 1024  # header pieces below this are gathered into one write

#: A message's place in the model: ``(field number, index)`` steps from the ModelProto root, the index
#: being the element index of a repeated field (0 for a singular one) = which occurrence on the wire.
WirePath = tuple[tuple[int, int], ...]


class _Sink(Protocol):
    def write(self, data: Any, /) -> Any: ...


# --------------------------------------------------------------------------- tensor paths


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


# --------------------------------------------------------------------------- the plan


@dataclass
class _Item:
    """One external tensor of the input."""

    path: WirePath
    ref: ExternalRef
    length: int
    header: TensorProto  # copy of the tensor as loaded (to restore after a write)
    offset: int = 0  # in the consolidated data file (external layout)


def _internal(message: str) -> InternalError:
    return InternalError(
        f"Internal error in merge: {message}",
        "This is a bug in onnxpack; please report it with the model's structure (no weights needed).",
        code="INTERNAL",
    )


def _too_large(what: str, size: int) -> OutputError:
    return OutputError(
        f"{what} would be {size} bytes, at or above protobuf's 2 GiB limit ({PROTOBUF_LIMIT} bytes)",
        "Use --layout external (or auto): the model then keeps one aligned data file beside it.",
        code="MERGE_TOO_LARGE",
    )


def _check_data_name(name: str) -> str:
    bad = (
        not name
        or name in (".", "..")
        or ".." in name
        or any(c in name for c in "/\\:\x00")
    )
    if bad:
        raise OutputError(
            f"Cannot name the data file {name!r}: external data locations must be a plain file name "
            "without '..', slashes or ':'",
            "Choose an output name without '..' (the data file is named after it: NAME.onnx.data).",
            code="OUTPUT_BAD_NAME",
        )
    return name


class MergePlan:
    """A validated merge: exact sizes and layout known, nothing written yet. Reusable for several writes."""

    def __init__(
        self,
        location: ModelLocation,
        model: ModelProto,
        table: ExternalTable,
        items: list[_Item],
        *,
        layout: str,
        align: int,
        checksum: bool,
        single_size: int,
        data_location: str,
    ) -> None:
        self.location = location
        self.layout = layout
        self.align = align
        self.checksum = checksum
        self.single_size = single_size
        self.data_location = data_location
        self._model = model
        self._table = table
        self._items = items
        self.data_size = 0
        self.model_size = single_size
        if layout == "external":
            pos = 0
            for it in items:
                if it.length:
                    it.offset = -(-pos // align) * align
                    pos = it.offset + it.length
            self.data_size = pos
            with self._form("external", "0" * 40 if checksum else None):
                self.model_size = int(model.ByteSize())
            if self.model_size >= PROTOBUF_LIMIT:
                raise _too_large("The model structure (without the consolidated data)", self.model_size)

    # -- facts

    @property
    def source(self) -> Path:
        return self.location.model

    @property
    def model(self) -> ModelProto:
        """The source's skeleton (read-only: the writes rewrite its tensor headers only while they run)."""
        return self._model

    @property
    def table(self) -> ExternalTable:
        """The source's validated tensor ranges."""
        return self._table

    @property
    def tensors(self) -> int:
        """Number of tensors whose data comes from external files (not the model file's own raw_data ranges)."""
        return sum(1 for it in self._items if not it.ref.inline)

    @property
    def external_bytes(self) -> int:
        return sum(it.length for it in self._items if not it.ref.inline)

    @property
    def input_files(self) -> list[Path]:
        """The model file, the folder given for it, and every external data file it uses (all only read)."""
        files = set(self.location.protected)
        files.update(r.path for r in self._table.refs if r.path is not None)
        return sorted(files)

    @property
    def read_order(self) -> list[ExternalRef]:
        """The external references with bytes, in the order both writes read them (serialization order)."""
        return [it.ref for it in self._items if it.length]

    def open_reader(self) -> ExternalDataReader:
        """A reader of this plan's validated external data, to pass to the writes (e.g. with an observer)."""
        return ExternalDataReader(self._table)

    @property
    def total_size(self) -> int:
        return self.model_size + self.data_size

    @property
    def fits_single_file(self) -> bool:
        return self.single_size < PROTOBUF_LIMIT and all(
            inlined_tensor_size(it.header, it.length) < PROTOBUF_LIMIT for it in self._items
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "layout": self.layout,
            "model_size": self.model_size,
            "data_size": self.data_size,
            "single_file_size": self.single_size,
            "fits_single_file": self.fits_single_file,
            "tensors": self.tensors,
            "external_bytes": self.external_bytes,
            "align": self.align if self.layout == "external" else None,
            "checksum": self.checksum if self.layout == "external" else False,
            "data_location": self.data_location if self.layout == "external" else None,
        }

    # -- header forms of the external tensors

    @contextlib.contextmanager
    def _form(self, form: str, checksum: str | None = None) -> Iterator[None]:
        """Temporarily rewrite the external tensors' headers for one output form, then restore them."""
        try:
            for it in self._items:
                t = it.ref.ref.tensor
                if form == "single" or it.length == 0:
                    inline_tensor(t)
                    t.raw_data = b""
                else:
                    del t.external_data[:]
                    t.data_location = TensorProto.EXTERNAL
                    entries = [("location", self.data_location), ("offset", str(it.offset)), ("length", str(it.length))]
                    if checksum is not None:
                        entries.append(("checksum", checksum))
                    for k, v in entries:  # onnx's own key order (external_data_helper.set_external_data)
                        e = t.external_data.add()
                        e.key = k
                        e.value = v
            yield
        finally:
            for it in self._items:
                it.ref.ref.tensor.CopyFrom(it.header)

    @contextlib.contextmanager
    def _reading(self, reader: ExternalDataReader | None) -> Iterator[ExternalDataReader]:
        if reader is not None:
            yield reader
            return
        with ExternalDataReader(self._table) as own:
            yield own

    # -- single file

    def write_single(
        self,
        fileobj: _Sink,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        *,
        reader: ExternalDataReader | None = None,
    ) -> int:
        """Stream the merged single-file model into ``fileobj`` (only ``write`` is used); return its size.

        ``reader``: read the external data through this one (from :meth:`open_reader`; left open).
        """
        if not self.fits_single_file:
            raise _too_large("The merged single-file model", self.single_size)
        check_cancel(cancel)
        with self._form("single"):
            buf = self._model.SerializeToString()
        ops, total = _splice(buf, self._items)
        if total != self.single_size:
            raise _internal(f"computed size {self.single_size} but the wire layout gives {total}")
        out = _Writer(fileobj, total, progress)
        view = memoryview(buf)
        with self._reading(reader) as reader:
            for op in ops:
                if isinstance(op, tuple):
                    out.write(view[op[0] : op[1]])
                elif isinstance(op, bytes):
                    out.write(op)
                else:
                    out.copy(reader, op.ref, cancel)
        out.finish(cancel)
        return total

    # -- external layout

    def write_external(
        self,
        model_fileobj: _Sink,
        data_fileobj: _Sink,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        *,
        reader: ExternalDataReader | None = None,
    ) -> str | None:
        """Write the consolidated data file, then the model referring to it; return the data file's SHA-1
        (hex) when ``checksum`` is on, else None. ``reader`` as for :meth:`write_single`."""
        check_cancel(cancel)
        total = self.data_size + self.model_size
        h = hashlib.sha1(usedforsecurity=False) if self.checksum else None
        out = _Writer(data_fileobj, total, progress, h)
        zeros = bytes(min(self.align, CHUNK))
        with self._reading(reader) as reader:
            for it in self._items:
                if not it.length:
                    continue
                pad = it.offset - out.position
                while pad > 0:
                    n = min(pad, len(zeros))
                    out.write(zeros[:n] if n < len(zeros) else zeros)
                    pad -= n
                out.copy(reader, it.ref, cancel)
        out.flush_small()
        if out.done != self.data_size:
            raise _internal(f"data file is {out.done} bytes, planned {self.data_size}")
        digest = h.hexdigest() if h is not None else None
        check_cancel(cancel)
        with self._form("external", digest):
            body = self._model.SerializeToString()
        if len(body) != self.model_size:
            raise _internal(f"model is {len(body)} bytes, planned {self.model_size}")
        out.switch(model_fileobj)
        out.write(body)
        out.finish(cancel)
        return digest


class _Writer:
    """Counts bytes, gathers small pieces into one write, reports progress per large write.

    Tensor bytes go file-to-file in the kernel (``copy_file_range``) when the sink is a plain file
    and nothing needs to see them (no hash); otherwise they are read in large chunks and written.
    Either way a :class:`~core.atomic.WritebackPacer` starts the disk writeback as the file grows.
    """

    def __init__(self, sink: _Sink, total: int, progress: ProgressCallback | None, h: Any = None) -> None:
        self.total = total
        self.progress = progress
        self.hash = h
        self.done = 0  # bytes written to the current sink
        self.reported = 0  # bytes over all sinks
        self._small = bytearray()
        self.sink = sink
        fd = plain_file_fd(sink)
        self._fd = fd if h is None else None
        self._pacer = WritebackPacer(fd)

    def copy(self, reader: ExternalDataReader, ref: ExternalRef, cancel: CancelToken | None) -> None:
        """Append the bytes of one external tensor."""
        self.flush_small()
        if self._fd is None or reader.observer is not None or reader.tensor_observer is not None:  # observers see them
            for chunk in reader.iter_chunks(ref, _READ_CHUNK, cancel):
                self.write(chunk)
            return
        self.sink.flush()  # type: ignore[attr-defined]
        reader.copy_to_fd(ref, self._fd, _KERNEL_CHUNK, cancel, self._count)

    def _count(self, n: int) -> None:
        self.done += n
        self.reported += n
        self._pacer()
        report(self.progress, _STAGE, self.reported, self.total)

    @property
    def position(self) -> int:
        """Bytes written to the current sink, gathered pieces included."""
        return self.done + len(self._small)

    def write(self, data: bytes | memoryview) -> None:
        n = len(data)
        if n < _SMALL_WRITE:
            self._small += data
            if len(self._small) >= _SMALL_WRITE:
                self.flush_small()
            return
        self.flush_small()
        self._emit(data)

    def _emit(self, data: bytes | memoryview | bytearray) -> None:
        if self.hash is not None:
            self.hash.update(data)
        self.sink.write(data)
        self._count(len(data))

    def flush_small(self) -> None:
        if self._small:
            data, self._small = self._small, bytearray()
            self._emit(data)

    def switch(self, sink: _Sink) -> None:
        self.flush_small()
        self.sink = sink
        self.hash = None
        self.done = 0
        self._fd = plain_file_fd(sink)
        self._pacer = WritebackPacer(self._fd)

    def finish(self, cancel: CancelToken | None) -> None:
        check_cancel(cancel)
        self.flush_small()
        if self.reported != self.total:
            raise _internal(f"wrote {self.reported} bytes, planned {self.total}")
        report(self.progress, _STAGE, self.total, self.total)


@dataclass
class _Node:
    """A length-delimited field on the path to an external tensor, inside the structure's serialization."""

    wire: WireField | None  # None for the root (the whole ModelProto)
    payload_start: int
    end: int
    kids: dict[int, _Node] = field(default_factory=dict)  # by the field's start offset
    item: _Item | None = None  # set on a tensor's raw_data field: its bytes are streamed
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


_Op = tuple[int, int] | bytes | _Item


def _splice(buf: bytes, items: list[_Item]) -> tuple[list[_Op], int]:
    """Output recipe for ``buf`` with each item's empty ``raw_data`` replaced by its external bytes.

    Returns the operations (a byte range of ``buf``, literal bytes, or an item to stream) and the total size.
    """
    root = _Node(None, 0, len(buf))
    order: list[_Node] = [root]
    for it in items:
        node = root
        for number, index in (*it.path, (RAW_DATA_FIELD, 0)):
            fields = node.occurrences(buf).get(number, [])
            if index >= len(fields):
                raise _internal(f"field {number}[{index}] not found on the wire (tensor {it.ref.ref.name!r})")
            f = fields[index]
            child = node.kids.get(f.start)
            if child is None:
                child = node.kids[f.start] = _Node(f, f.payload_start, f.end)
                order.append(child)
            node = child
        if node.end != node.payload_start or node.item is not None:
            raise _internal(f"raw_data of tensor {it.ref.ref.name!r} is not the empty placeholder")
        node.item = it
    for node in reversed(order):  # children were created after their parents: bottom-up
        if node.item is not None:
            node.new_length = node.item.length
            continue
        n = node.end - node.payload_start
        for k in node.kids.values():
            assert k.wire is not None
            n += varint_size(k.new_length) + k.new_length - (k.end - k.wire.length_start)
        node.new_length = n
    ops: list[_Op] = []
    stack: list[tuple[_Node, Iterator[_Node], int]] = [(root, iter(sorted(root.kids.values(), key=_start)), 0)]
    while stack:
        node, kids, pos = stack.pop()
        nxt = next(kids, None)
        if nxt is None:
            ops.append((pos, node.end))
            continue
        k = nxt
        assert k.wire is not None
        ops.append((pos, k.wire.length_start))
        ops.append(varint(k.new_length))
        stack.append((node, kids, k.end))
        if k.item is not None:
            ops.append(k.item)
        else:
            stack.append((k, iter(sorted(k.kids.values(), key=_start)), k.payload_start))
    return [op for op in ops if not (isinstance(op, tuple) and op[0] == op[1])], root.new_length


def _start(n: _Node) -> int:
    return n.payload_start


def plan_merge(
    path: str | os.PathLike[str] | LoadedModel,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    layout: str = "auto",
    align: int = DEFAULT_ALIGN,
    checksum: bool = False,
    data_location: str | None = None,
    cancel: CancelToken | None = None,
) -> MergePlan:
    """Validate the model and its external data (security.md rule 1) and compute exact output sizes.

    ``layout``: "single" (refused at or above 2 GiB), "external", or "auto" (single below 2 GiB).
    ``data_location``: file name of the consolidated data file (default: ``<model file name>.data``).
    ``path`` may be a model already read and validated (:class:`~core.loaded.LoadedModel`): nothing is read again,
    and the plan owns its skeleton from then on. Writes nothing.
    """
    if layout not in LAYOUTS:
        raise InputError(f"Unknown layout {layout!r}", f"Use one of: {', '.join(LAYOUTS)}.", code="USAGE")
    if isinstance(align, bool) or not isinstance(align, int) or align < 1 or align & (align - 1) or align > _MAX_ALIGN:
        raise InputError(
            f"Alignment {align!r} is not a power of two between 1 and {_MAX_ALIGN}",
            "Use e.g. --align 65536 (the default; Windows and POSIX can map such offsets) or 4096.",
            code="USAGE",
        )
    if isinstance(path, LoadedModel):
        loc, model, table = path.location, path.model, path.table
    else:
        loc = locate_model(path, data_dir)
        model = load_structure(loc.model)
        check_cancel(cancel)
        table = resolve_external_data(model, loc.data_dir, verify_checksums=True, cancel=cancel)
    table.raise_if_invalid()
    by_id = {id(r.ref.tensor): r for r in table.refs}
    items: list[_Item] = []
    for wpath, t in tensor_paths(model):
        if not uses_external_data(t):
            if any(e.key == INLINE_KEY and inline_source(e.value) is not None for e in t.external_data):
                # The skeleton's private marker on a tensor that is not one of its ranges: writing the model
                # would publish the marker and lose the tensor's bytes.
                raise _internal(f"tensor {t.name!r} carries the skeleton's private marker but no range")
            continue
        ref = by_id.pop(id(t), None)
        if ref is None or ref.data_length is None:
            raise _internal(f"external tensor {t.name!r} was not validated")
        header = TensorProto()
        header.CopyFrom(t)
        items.append(_Item(wpath, ref, ref.data_length, header))
    if by_id:
        raise _internal("validated tensors not found in the model")
    check_cancel(cancel)
    single_size, exact = single_file_size(model, table)
    if not exact:
        raise _internal("single-file size is not exact for a valid model")
    fits = single_size < PROTOBUF_LIMIT
    if layout == "auto":
        layout = "single" if fits else "external"
    if layout == "single":
        for it in items:
            size = inlined_tensor_size(it.header, it.length)
            if size >= PROTOBUF_LIMIT:
                raise _too_large(f"Tensor {it.ref.ref.label} embedded", size)
        if not fits:
            raise _too_large("The merged single-file model", single_size)
    name = data_location if data_location is not None else loc.model.name + ".data"
    if layout == "external":
        _check_data_name(name)
    return MergePlan(
        loc, model, table, items,
        layout=layout, align=align, checksum=checksum, single_size=single_size, data_location=name,
    )


# --------------------------------------------------------------------------- files on disk


@dataclass
class MergeResult:
    """What ``merge_model`` wrote."""

    source: Path
    model_path: Path
    data_path: Path | None
    layout: str
    model_size: int
    data_size: int
    tensors: int
    external_bytes: int
    align: int | None
    checksum: str | None
    seconds: float
    plan: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": str(self.source),
            "model_path": str(self.model_path),
            "data_path": str(self.data_path) if self.data_path else None,
            "layout": self.layout,
            "model_size": self.model_size,
            "data_size": self.data_size,
            "total_size": self.model_size + self.data_size,
            "tensors": self.tensors,
            "external_bytes": self.external_bytes,
            "align": self.align,
            "checksum": self.checksum,
            "seconds": round(self.seconds, 3),
        }


def merge_model(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    data_dir: str | os.PathLike[str] | None = None,
    *,
    layout: str = "auto",
    align: int = DEFAULT_ALIGN,
    checksum: bool = False,
    force: bool = False,
    progress: ProgressCallback | None = None,
    cancel: CancelToken | None = None,
) -> MergeResult:
    """Merge ``path`` into ``out`` (and ``out``.data for the external layout), atomically.

    Refuses an output equal to the model or one of its data files, an existing output unless
    ``force`` (then it is replaced atomically), and a folder without the free space needed.
    A failed or cancelled run leaves no file behind.
    """
    start = time.perf_counter()
    out_path = Path(out)
    if out_path.is_dir():
        raise OutputError(f"Output {out_path} is a folder", "Give the path of the .onnx file to write.",
                          code="OUTPUT_IS_DIR")
    plan = plan_merge(path, data_dir, layout=layout, align=align, checksum=checksum,
                      data_location=out_path.name + ".data", cancel=cancel)
    inputs = plan.input_files
    targets = [out_path]
    if plan.layout == "external":
        targets.append(out_path.with_name(plan.data_location))
    for t in targets:  # before a missing output folder is created, which must not be inside an input either
        refuse_inside_inputs(t, inputs)
    with output_folder(out_path.parent):
        return _write_merged(plan, targets, inputs, force, progress, cancel, start)


def _write_merged(plan: MergePlan, targets: list[Path], inputs: list[Path], force: bool,
                  progress: ProgressCallback | None, cancel: CancelToken | None, start: float) -> MergeResult:
    dests = [_check_target(t, inputs, force) for t in targets]
    _check_writable(dests[0].parent)
    check_free_space(dests[0].parent, plan.total_size)
    digest: str | None = None
    from .proof import hash_model_tensors, prove_same_model

    def prove(written: Any) -> None:
        """The output is the source (same structure, every tensor's SHA-256: core/model/proof.py) before it takes its
        final name. The tensors are copied in the kernel, so the source's digests come from a read of their own."""
        written.flush()
        check_cancel(cancel)
        pending = pending_path(written)
        try:
            prove_same_model(plan.model, plan.table, hash_model_tensors(plan.table, cancel), pending,
                             dests[0].parent, cancel)
        except (InputError, ExternalDataError):
            if not pending.exists():  # not a problem of the input: the output vanished under us
                raise OutputError(
                    f"Cannot write {dests[0]}: the output folder (or the file being written) was removed while the "
                    "merge ran; nothing was written",
                    "Keep the output folder in place until the merge ends, then run it again.",
                    code="OUTPUT_WRITE",
                ) from None
            raise

    if plan.layout == "single":
        with atomic_file(dests[0], overwrite=force) as f:
            plan.write_single(f, progress, cancel)
            prove(f)
    else:
        committed_data = False
        try:
            with atomic_file(dests[0], overwrite=force) as mf:
                with atomic_file(dests[1], overwrite=force) as df:
                    digest = plan.write_external(mf, df, progress, cancel)
                committed_data = True  # the data file is in place; the model's rename follows
                prove(mf)
        except BaseException:
            if committed_data:
                with contextlib.suppress(OSError):
                    dests[1].unlink()
            raise
    return MergeResult(
        source=plan.source,
        model_path=dests[0],
        data_path=dests[1] if plan.layout == "external" else None,
        layout=plan.layout,
        model_size=plan.model_size,
        data_size=plan.data_size,
        tensors=plan.tensors,
        external_bytes=plan.external_bytes,
        align=plan.align if plan.layout == "external" else None,
        checksum=digest,
        seconds=time.perf_counter() - start,
        plan=plan.to_dict(),
    )


def _check_writable(folder: Path) -> None:
    """A read-only folder or file system is said to be one (its free space reads 0 there: not "no space")."""
    read_only = False
    with contextlib.suppress(OSError, AttributeError):
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    if read_only or not os.access(folder, os.W_OK):
        why = "is on a read-only file system" if read_only else "is read-only"
        raise OutputError(
            f"Cannot write into {folder}: the folder {why}",
            "Choose an output folder you can write to.",
            code="OUTPUT_WRITE",
        )


def _check_target(target: Path, inputs: list[Path], force: bool) -> Path:
    dest = check_output_path(target, inputs, overwrite=force)
    with contextlib.suppress(FileNotFoundError):
        mode = os.lstat(dest).st_mode
        if not stat.S_ISREG(mode):  # a FIFO, device or socket: --force replaces files, nothing else
            raise OutputError(
                f"Output {target} exists and is not a regular file (a FIFO, device or socket); it is never replaced",
                "Give the path of a regular file (or of a new one) for the merged model.",
                code="OUTPUT_WRITE",
            )
    for inp in inputs:
        with contextlib.suppress(OSError):
            if dest.exists() and os.path.samefile(dest, inp):
                raise OutputError(
                    f"Output {target} is the same file as the input {inp} (a hard link)",
                    "Choose another output path; onnxpack never modifies its inputs.",
                    code="OUTPUT_IS_INPUT",
                )
    return dest

