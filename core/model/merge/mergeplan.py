"""A merge planned: the model and its external data validated, the output's layout and exact sizes known.

Single layout: protobuf serializes the model *structure* (external tensors get ``raw_data = b""``), and the
recipe of :mod:`.splice` streams each tensor's bytes into its place. The output is byte-identical to
``onnx.save(onnx.load(path))`` (same field order, same ``data_location = DEFAULT``); its exact size is known before
the first byte is written.

External layout (``NAME.onnx`` + ``NAME.onnx.data``): only tensors that were external go to the new
data file (inline tensors stay inline; an external tensor of 0 bytes becomes inline), each at an
offset aligned to ``align``; with ``checksum`` every entry gets the SHA-1 of the whole data file,
computed while it is written, so the data file is written before the .onnx.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onnx import ModelProto, TensorProto

from ... import errorcodes
from ...progress import CancelToken, ProgressCallback, check_cancel
from .. import codes
from ..extdata.extreader import ExternalDataReader
from ..extdata.extref import CHUNK, ExternalRef, ExternalTable
from ..extdata.extresolve import resolve_external_data
from ..layout import AUTO, DEFAULT_ALIGN, LAYOUTS, Layout
from ..loaded import LoadedModel
from ..modelfile import PROTOBUF_LIMIT, ModelLocation, load_structure, locate_model
from ..skeleton import INLINE_KEY, inline_source
from ..tensors import uses_external_data
from .mergeparts import MergeItem, merge_bug, tensor_paths, too_large
from .mergesize import inline_tensor, inlined_tensor_size, single_file_size
from .mergewrite import Copied, Sink, Writer
from .splice import splice

__all__ = ["DEFAULT_ALIGN", "MergeOutput", "MergePlan", "plan_merge"]

_MAX_ALIGN = 2**30


@dataclass(frozen=True)
class MergeOutput:
    """What a merge writes: its layout, and for the external layout the data file's name, alignment and checksum."""

    layout: Layout
    align: int
    checksum: bool
    data_location: str


class MergePlan:
    """A validated merge: exact sizes and layout known, nothing written yet. Reusable for several writes."""

    def __init__(
        self,
        location: ModelLocation,
        model: ModelProto,
        table: ExternalTable,
        items: list[MergeItem],
        output: MergeOutput,
        single_size: int,
    ) -> None:
        self.location = location
        self.layout = output.layout
        self.align = output.align
        self.checksum = output.checksum
        self.single_size = single_size
        self.data_location = output.data_location
        self._model = model
        self._table = table
        self._items = items
        self.data_size = 0
        self.model_size = single_size
        if self.layout is Layout.EXTERNAL:
            pos = 0
            for it in items:
                if it.length:
                    it.offset = -(-pos // self.align) * self.align
                    pos = it.offset + it.length
            self.data_size = pos
            with self._form(Layout.EXTERNAL, "0" * 40 if self.checksum else None):
                self.model_size = int(model.ByteSize())
            if self.model_size >= PROTOBUF_LIMIT:
                raise too_large(self.model_size, "structure")

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
            "layout": self.layout.value,
            "model_size": self.model_size,
            "data_size": self.data_size,
            "single_file_size": self.single_size,
            "fits_single_file": self.fits_single_file,
            "tensors": self.tensors,
            "external_bytes": self.external_bytes,
            "align": self.align if self.layout is Layout.EXTERNAL else None,
            "checksum": self.checksum if self.layout is Layout.EXTERNAL else False,
            "data_location": self.data_location if self.layout is Layout.EXTERNAL else None,
        }

    # -- header forms of the external tensors

    @contextlib.contextmanager
    def _form(self, form: Layout, checksum: str | None = None) -> Iterator[None]:
        """Temporarily rewrite the external tensors' headers for one output form, then restore them."""
        try:
            for it in self._items:
                t = it.ref.ref.tensor
                if form is Layout.SINGLE or it.length == 0:
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
        fileobj: Sink,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        *,
        reader: ExternalDataReader | None = None,
        copied: Copied | None = None,
    ) -> int:
        """Stream the merged single-file model into ``fileobj`` (only ``write`` is used); return its size.

        ``reader``: read the external data through this one (from :meth:`open_reader`; left open). ``copied``: told
        of each external tensor written (mergewrite.Copied).
        """
        if not self.fits_single_file:
            raise too_large(self.single_size)
        check_cancel(cancel)
        with self._form(Layout.SINGLE):
            buf = self._model.SerializeToString()
        ops, total = splice(buf, self._items)
        if total != self.single_size:
            raise merge_bug(f"computed size {self.single_size} but the wire layout gives {total}")
        out = Writer(fileobj, total, progress, copied=copied)
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
        model_fileobj: Sink,
        data_fileobj: Sink,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
        *,
        reader: ExternalDataReader | None = None,
        copied: Copied | None = None,
    ) -> str | None:
        """Write the consolidated data file, then the model referring to it; return the data file's SHA-1
        (hex) when ``checksum`` is on, else None. ``reader``, ``copied`` (offsets in the data file) as for
        :meth:`write_single`."""
        check_cancel(cancel)
        total = self.data_size + self.model_size
        h = hashlib.sha1(usedforsecurity=False) if self.checksum else None
        out = Writer(data_fileobj, total, progress, h, copied)
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
            raise merge_bug(f"data file is {out.done} bytes, planned {self.data_size}")
        digest = h.hexdigest() if h is not None else None
        check_cancel(cancel)
        with self._form(Layout.EXTERNAL, digest):
            body = self._model.SerializeToString()
        if len(body) != self.model_size:
            raise merge_bug(f"model is {len(body)} bytes, planned {self.model_size}")
        out.switch(model_fileobj)
        out.write(body)
        out.finish(cancel)
        return digest


def plan_merge(
    path: str | os.PathLike[str] | LoadedModel,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    layout: str = AUTO,
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
    _check_settings(layout, align)
    if isinstance(path, LoadedModel):
        loc, model, table = path.location, path.model, path.table
    else:
        loc = locate_model(path, data_dir)
        model = load_structure(loc.model)
        check_cancel(cancel)
        table = resolve_external_data(model, loc.data_dir, verify_checksums=True, cancel=cancel)
    table.raise_if_invalid()
    items = _items(model, table)
    check_cancel(cancel)
    single_size, exact = single_file_size(model, table)
    if not exact:
        raise merge_bug("single-file size is not exact for a valid model")
    chosen = _choose_layout(layout, items, single_size)
    name = data_location if data_location is not None else Layout.data_name(loc.model.name)
    if chosen is Layout.EXTERNAL:
        _check_data_name(name)
    return MergePlan(loc, model, table, items, MergeOutput(chosen, align, checksum, name), single_size)


def _check_settings(layout: str, align: int) -> None:
    if layout not in LAYOUTS:
        raise errorcodes.USAGE.error(variant="merge_layout", layout=layout, layouts=", ".join(LAYOUTS))
    if isinstance(align, bool) or not isinstance(align, int) or align < 1 or align & (align - 1) or align > _MAX_ALIGN:
        raise errorcodes.USAGE.error(variant="align", align=align, max=_MAX_ALIGN)


def _items(model: ModelProto, table: ExternalTable) -> list[MergeItem]:
    """The model's external tensors in serialization order, each with its validated reference."""
    by_id = {id(r.ref.tensor): r for r in table.refs}
    items: list[MergeItem] = []
    for wpath, t in tensor_paths(model):
        if not uses_external_data(t):
            if any(e.key == INLINE_KEY and inline_source(e.value) is not None for e in t.external_data):
                # The skeleton's private marker on a tensor that is not one of its ranges: writing the model
                # would publish the marker and lose the tensor's bytes.
                raise merge_bug(f"tensor {t.name!r} carries the skeleton's private marker but no range")
            continue
        ref = by_id.pop(id(t), None)
        if ref is None or ref.data_length is None:
            raise merge_bug(f"external tensor {t.name!r} was not validated")
        header = TensorProto()
        header.CopyFrom(t)
        items.append(MergeItem(wpath, ref, ref.data_length, header))
    if by_id:
        raise merge_bug("validated tensors not found in the model")
    return items


def _choose_layout(layout: str, items: list[MergeItem], single_size: int) -> Layout:
    """The layout asked for ("auto": single below 2 GiB, else external); a single file must fit protobuf's limit."""
    fits = single_size < PROTOBUF_LIMIT
    if layout == AUTO:
        return Layout.SINGLE if fits else Layout.EXTERNAL
    chosen = Layout(layout)
    if chosen is Layout.SINGLE:
        for it in items:
            size = inlined_tensor_size(it.header, it.length)
            if size >= PROTOBUF_LIMIT:
                raise too_large(size, "tensor", it.ref.ref.label)
        if not fits:
            raise too_large(single_size)
    return chosen


def _check_data_name(name: str) -> str:
    bad = (
        not name
        or name in (".", "..")
        or ".." in name
        or any(c in name for c in "/\\:\x00")
    )
    if bad:
        raise codes.OUTPUT_BAD_NAME.error(name, name=name)
    return name
