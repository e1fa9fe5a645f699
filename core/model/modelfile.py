"""Find a model on disk, recognise its format by content, and parse its structure safely."""

from __future__ import annotations

import enum
import functools
import os
import stat
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import classcodes
from ..errors import InputError
from . import codes

if TYPE_CHECKING:
    from google.protobuf.message import Message
    from onnx import ModelProto

    from .skeleton import Skeleton

# onnx and protobuf are imported inside the functions that parse: locating and sniffing a file (what
# the desktop app does before its window shows) must not pay for importing onnx (measured: docs/performance.md).

__all__ = [
    "PROTOBUF_LIMIT",
    "FileKind",
    "ModelLocation",
    "Window",
    "is_torch_member",
    "load_structure",
    "locate_model",
    "refuse_non_bundle",
    "refuse_non_previous",
    "require_regular_file",
    "sniff",
]

#: Protobuf cannot serialize or parse a message of 2 GiB or more.
PROTOBUF_LIMIT = 2**31


class FileKind(str, enum.Enum):
    """What a file is, judged by its content (never by its extension)."""

    ONNX = "onnx"
    ORT = "ort"
    ZIP = "zip"
    PYTORCH = "pytorch"  # a torch.save checkpoint: a ZIP holding <name>/data.pkl, or (legacy) a pickle
    EMPTY = "empty"
    TEXT = "text"
    UNKNOWN = "unknown"


#: A model stored as a byte range of a bigger file (e.g. a stored ZIP entry): (start, length).
Window = tuple[int, int]


@dataclass(frozen=True)
class ModelLocation:
    """A model file and the folder its external data is resolved against."""

    model: Path
    data_dir: Path  # the model's folder unless the user gave --data-dir
    folder: Path | None = None  # the folder the user named instead of the model file, if any

    @property
    def model_dir(self) -> Path:
        return self.model.parent

    @property
    def protected(self) -> list[Path]:
        """What an output may not be or lie inside: the model, and the folder given for it."""
        return [self.model, *([self.folder] if self.folder is not None else [])]


def sniff(path: Path, window: Window | None = None) -> FileKind:
    """Recognise the file kind from its first bytes (of ``window`` = (start, length) inside the file, if given).

    An ORT-format model is a FlatBuffer whose file identifier ``ORTM`` sits at bytes 4–8.
    """
    with open(path, "rb") as f:
        if window is not None:
            f.seek(window[0])
        head = f.read(64 if window is None else min(64, window[1]))
    if not head:
        return FileKind.EMPTY
    if len(head) >= 8 and head[4:8] == b"ORTM":
        return FileKind.ORT
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08"):
        return FileKind.PYTORCH if window is None and _is_torch_zip(path) else FileKind.ZIP
    if window is None and _is_pickle(head):
        return FileKind.PYTORCH
    # A serialized ModelProto starts with a field tag; ir_version (field 1, varint) is 0x08, but
    # writers may order fields freely, so any plausible tag byte is accepted and parsing decides.
    text = _decode_head(head)
    if text is None:
        return FileKind.ONNX
    if text.startswith("\ufeff"):  # UTF-8 byte order mark: a text file from a Windows editor
        return FileKind.TEXT
    if text.isprintable() or all(c.isprintable() or c in "\r\n\t" for c in text):
        return FileKind.TEXT
    return FileKind.ONNX


#: A central directory larger than this is not read to look for a PyTorch checkpoint's data.pkl (a checkpoint's
#: has one entry per tensor: some KiB).
_TORCH_CD_MAX = 4 << 20


def is_torch_member(name: str | bytes) -> bool:
    """``archive/data.pkl`` (or ``<name>/data.pkl``): the pickle torch.save writes first into its ZIP."""
    b = name.encode("utf-8", "surrogateescape") if isinstance(name, str) else name
    return b == b"data.pkl" or (b.endswith(b"/data.pkl") and b.count(b"/") == 1)


def _is_torch_zip(path: Path) -> bool:
    """Whether the ZIP at ``path`` is a PyTorch checkpoint (torch.save since 1.6, or torch.jit.save): its first member
    is ``*/data.pkl``, or its central directory (read only when small and not ZIP64) lists one and no
    ``manifest.json`` (an onnxpack bundle's)."""
    with open(path, "rb") as f:
        local = f.read(30)
        if len(local) == 30 and local[:4] == b"PK\x03\x04":
            name_len = struct.unpack("<H", local[26:28])[0]
            if is_torch_member(f.read(name_len)):
                return True
        size = os.fstat(f.fileno()).st_size
        tail_len = min(size, 65536 + 22)
        f.seek(size - tail_len)
        tail = f.read(tail_len)
        at = tail.rfind(b"PK\x05\x06")
        if at < 0 or len(tail) - at < 22:
            return False
        cd_size, cd_offset = struct.unpack("<II", tail[at + 12:at + 20])
        if cd_size > _TORCH_CD_MAX or cd_offset + cd_size > size:
            return False
        f.seek(cd_offset)
        cd = f.read(cd_size)
    found = False
    pos = 0
    while pos + 46 <= len(cd) and cd[pos:pos + 4] == b"PK\x01\x02":
        n, m, k = struct.unpack("<HHH", cd[pos + 28:pos + 34])
        name = cd[pos + 46:pos + 46 + n]
        if name == b"manifest.json":
            return False
        found = found or is_torch_member(name)
        pos += 46 + n + m + k
    return found


def _is_zip_head(path: Path) -> bool:
    with open(path, "rb") as f:
        return f.read(2) == b"PK"


def _is_pickle(head: bytes) -> bool:
    """A Python pickle of protocol 2-5 (torch.save's legacy format starts with protocol 2 and its magic number); no
    ONNX model starts so (0x80 0x02..0x05 would be field 32+, which ModelProto does not have)."""
    return len(head) >= 3 and head[0] == 0x80 and 2 <= head[1] <= 5


def _decode_head(head: bytes) -> str | None:
    """UTF-8 text of the first bytes, tolerating a multi-byte character cut at the end (None if not UTF-8)."""
    for cut in range(4 if len(head) >= 64 else 1):
        try:
            return head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None


def require_regular_file(path: Path, *, bundle: bool = False) -> os.stat_result:
    """``os.stat(path)`` when it is a regular file; otherwise InputError naming it as the model file (``bundle``: as
    the bundle)."""
    what = "bundle_" if bundle else "model_"  # INPUT's variants
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise classcodes.INPUT.error(variant=what + "not_found", path=str(path)) from None
    except OSError as e:
        raise classcodes.INPUT.error(variant=what + "stat_unreadable", path=str(path), reason=e.strerror) from None
    if not stat.S_ISREG(st.st_mode):
        raise classcodes.INPUT.error(variant=what + "not_regular", path=str(path))
    return st


def locate_model(path: str | os.PathLike[str], data_dir: str | os.PathLike[str] | None = None) -> ModelLocation:
    """Resolve ``path`` (a model file or a folder holding exactly one model) and the data folder."""
    p = Path(path)
    folder: Path | None = None
    if not p.exists():
        raise classcodes.INPUT.error(variant="no_such_path", path=str(p))
    if p.is_dir():
        folder = p.absolute()
        candidates = sorted(
            c for c in p.iterdir() if c.suffix.lower() in (".onnx", ".ort") and c.is_file()
        )
        onnx_files = [c for c in candidates if c.suffix.lower() == ".onnx"]
        chosen = onnx_files or candidates
        if not chosen:
            raise classcodes.INPUT.error(variant="no_model_in_folder", path=str(p))
        if len(chosen) > 1:
            names = ", ".join(c.name for c in chosen)
            raise classcodes.INPUT.error(variant="several_models", path=str(p), names=names)
        p = chosen[0]
    require_regular_file(p)
    if data_dir is None:
        d = p.parent
    else:
        d = Path(data_dir)
        if not d.is_dir():
            raise classcodes.INPUT.error(variant="no_data_dir", path=str(d))
    return ModelLocation(p.absolute(), d.absolute(), folder)


#: The kinds of file that are no .onnx model, each with its error.
_REFUSED_KINDS = {
    FileKind.ORT: codes.MODEL_IS_ORT,
    FileKind.ZIP: codes.MODEL_IS_ZIP,
    FileKind.TEXT: codes.MODEL_IS_TEXT,
}


def _unreadable(path: Path, e: OSError) -> InputError:
    return classcodes.INPUT.error(variant="model_unreadable", path=str(path), reason=e.strerror)  # type: ignore[return-value]


def load_structure(path: Path, window: Window | None = None) -> ModelProto:
    """Parse a .onnx file as a skeleton (core/model/skeleton.py); every parse failure becomes ModelFormatError.

    Neither external data nor the big ``raw_data`` payloads of a self-contained file are read: the latter become
    references into the model file itself (``ExternalRef.inline``), validated like external data.
    ``window`` = (start, length): the model is that byte range of ``path`` (a stored ZIP entry, read in place).
    """
    _refuse_non_model(path, window)
    skeleton = _parse(path, window)
    model = skeleton.model
    if not model.HasField("graph") or model.ir_version <= 0:
        _refuse_external_data(path, window)
        raise classcodes.MODEL_FORMAT.error(variant="no_graph", file=path.name, ir_version=model.ir_version)
    bad_field = _invalid_utf8_field(model, skeleton.structure_bytes)
    if bad_field is not None:
        raise codes.MODEL_BAD_TEXT.error(path.name, file=path.name, field=bad_field)
    return model


def _refuse_non_model(path: Path, window: Window | None) -> None:
    """Raise when the content of ``path`` (or its ``window``) is no ONNX model protobuf could parse: empty, text,
    an ORT model, a ZIP archive, 2 GiB or more, or external data given instead of its model."""
    try:
        kind = sniff(path, window)
        size = path.stat().st_size
    except OSError as e:
        raise _unreadable(path, e) from None
    if window is not None:
        if window[0] < 0 or window[1] < 0 or window[0] + window[1] > size:
            raise codes.MODEL_TRUNCATED.error(path.name, file=path.name, start=window[0], end=window[0] + window[1])
        size = window[1]
    if kind in (FileKind.EMPTY, FileKind.TEXT):  # weights can be empty, or happen to look like text
        _refuse_external_data(path, window)
    if kind is FileKind.EMPTY:
        raise classcodes.MODEL_FORMAT.error(variant="empty", file=path.name)
    if kind is FileKind.PYTORCH:
        raise codes.MODEL_IS_PYTORCH.error(path.name, variant=None if _is_zip_head(path) else "pickle", file=path.name)
    refused = _REFUSED_KINDS.get(kind)
    if refused is not None:
        raise refused.error(path.name, file=path.name)
    if size >= PROTOBUF_LIMIT:
        raise codes.MODEL_TOO_LARGE.error(path.name, file=path.name, size=size)


def _parse(path: Path, window: Window | None) -> Skeleton:
    """The skeleton of ``path`` (core/model/skeleton.py); a parse failure is a ModelFormatError."""
    from google.protobuf.message import DecodeError

    from .skeleton import read_skeleton
    from .wire import WireError

    try:
        return read_skeleton(path, window)
    except OSError as e:
        raise _unreadable(path, e) from None
    except (DecodeError, RecursionError, WireError) as e:
        _refuse_external_data(path, window)
        raise classcodes.MODEL_FORMAT.error(variant="unparsable", file=path.name, reason=str(e or type(e).__name__),
                                            details=repr(e)) from None
    except Exception as e:  # onnx wraps some parse failures in its own or generic errors
        raise classcodes.MODEL_FORMAT.error(variant="unreadable", file=path.name, reason=str(e),
                                            details=repr(e)) from None


#: Name endings of external-data files (PyTorch writes model.onnx.data, onnx's own examples .bin / .onnx_data).
_DATA_SUFFIXES = (".data", ".onnx_data", ".bin", ".weights", ".weight", ".extdata")
#: At most this many .onnx files beside a data file are read to find the one that refers to it.
_MAX_REFERRER_CANDIDATES = 16


def _refuse_external_data(path: Path, window: Window | None) -> None:
    """Raise MODEL_IS_DATA when ``path``, which is no ONNX model, is the external data of one (a .onnx beside it
    refers to it) or is named like external data. Returns when neither holds (the caller's error applies)."""
    if window is not None:
        return
    referrers = _referrers(path)
    if referrers:
        names = ", ".join(r.name for r in referrers)
        raise codes.MODEL_IS_DATA.error(variant=None if len(referrers) == 1 else "several", file=path.name,
                                        model=names, referrer=str(referrers[0]))
    lower = path.name.lower()
    if lower.endswith(_DATA_SUFFIXES) or ".onnx." in lower:
        raise codes.MODEL_IS_DATA.error(variant="named", file=path.name, model="")


def _referrers(path: Path) -> list[Path]:
    """The .onnx files in ``path``'s folder whose tensors keep their data in ``path`` (an empty list if none, or if
    the folder cannot be read). Each candidate is parsed as a skeleton (its weights are not read)."""
    from onnx import TensorProto

    from .skeleton import read_skeleton
    from .tensors import iter_tensors

    try:
        candidates = sorted(
            c for c in path.parent.iterdir()
            if c.suffix.lower() == ".onnx" and c.name != path.name and c.is_file() and not c.is_symlink()
        )[:_MAX_REFERRER_CANDIDATES]
    except OSError:
        return []
    found = []
    for candidate in candidates:
        try:
            if candidate.stat().st_size >= PROTOBUF_LIMIT:
                continue
            model = read_skeleton(candidate).model
            for ref in iter_tensors(model):
                t = ref.tensor
                if t.data_location != TensorProto.EXTERNAL:
                    continue
                location = next((e.value for e in t.external_data if e.key == "location"), "")
                if location.replace("\\", "/").removeprefix("./") == path.name:
                    found.append(candidate)
                    break
        except Exception:  # an unreadable neighbour only means it does not refer to this file
            continue
    return found


def _what_file(path: Path) -> tuple[str, str] | None:
    """What a file that should be a bundle is, as (words, key): key "model", "manifest", "text", "empty" or "other";
    None when it starts like a ZIP archive (then it is a bundle, perhaps a damaged one) or cannot be read."""
    try:
        kind = sniff(path)
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if kind is FileKind.ZIP:
        return None
    if kind is FileKind.ORT:
        return "an ORT-format model", "model"
    if kind is FileKind.PYTORCH:
        return "a PyTorch checkpoint (torch.save)" if head[:2] == b"PK" else "a Python pickle (PyTorch's legacy " \
            "torch.save format)", "pytorch"
    if kind is FileKind.EMPTY:
        return "an empty file", "empty"
    if kind is FileKind.TEXT:
        text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
        if text.startswith("{") and '"onnxpack.manifest/' in text:
            return "a manifest taken out of a bundle", "manifest"
        return ("a JSON file" if text.startswith(("{", "[")) else "a text file"), "text"
    if path.suffix.lower() == ".onnx" or head[:1] == b"\x08":  # ir_version, the field ONNX exporters write first
        return "an ONNX model", "model"
    return "not a ZIP archive", "other"


def refuse_non_bundle(path: Path) -> None:
    """Raise BUNDLE_NOT_ZIP (a usage error) when ``path``, given where a bundle is expected, is no ZIP archive and not
    named like one either (a model, an extracted manifest.json). A ``.zip`` that holds no archive is a damaged or
    crafted bundle instead, which the archive checks report."""
    if path.suffix.lower() == ".zip":
        try:
            if sniff(path) is not FileKind.PYTORCH:  # a PyTorch checkpoint named .zip is still named as one
                return
        except OSError:
            return
    what = _what_file(path)
    if what is None:
        return
    words, key = what
    is_ = "is " if key != "other" else ""
    variant = key if key in ("model", "manifest", "pytorch") else None
    raise codes.BUNDLE_NOT_ZIP.error(variant=variant, file=path.name, what=is_ + words, path=str(path))


def refuse_non_previous(path: Path) -> None:
    """Raise PREVIOUS_NOT_BUNDLE when ``path``, given as the previous release, is neither a bundle ZIP nor a manifest
    (a model, a text file): ``--previous`` takes the earlier release's .zip. Returns for a ZIP or a JSON file."""
    what = _what_file(path)
    if what is None or what[1] == "manifest" or what[0] == "a JSON file":
        return
    words, key = what
    is_ = "is " if key != "other" else ""
    raise codes.PREVIOUS_NOT_BUNDLE.error(file=path.name, what=is_ + words)


#: Above this many nodes, initializers and value infos the UTF-8 check parses the structure again (C speed) instead
#: of walking every message in Python; also for a structure of these many bytes (subgraphs count there): the walk of
#: the real models' 30-700 KB took 1-45 ms, the parse under 1 ms after 4 ms once per process to make the proto3 twin.
#: Above the upper bound the structure is mostly a few huge fields (a tree ensemble's attributes, a string tensor's
#: entries), which the walk passes at once and protobuf would parse entry by entry.
_UTF8_WALK_MAX = 5000
_UTF8_PARSE_BYTES = (32 * 1024, 4 * 2**20)


def _invalid_utf8_field(model: ModelProto, structure_bytes: int) -> str | None:
    """Name of a string field holding invalid UTF-8, or None.

    onnx.proto is proto2: protobuf accepts invalid UTF-8 in string fields and hands it back as
    ``bytes`` instead of ``str``, which would break every later use of names. One iterative walk; for a structure of
    many messages (a graph of 200 000 nodes: seconds of Python; see :data:`_UTF8_PARSE_BYTES`) first one parse of it
    as the proto3 twin of onnx.proto (:func:`_utf8_twin`), which protobuf refuses exactly when a string field holds
    invalid UTF-8: only then the walk names the field.
    """
    from google.protobuf.descriptor import FieldDescriptor
    from google.protobuf.message import DecodeError

    g = model.graph
    messages = len(g.node) + len(g.initializer) + len(g.value_info) + sum(len(f.node) for f in model.functions)
    # (structure_bytes: what protobuf parsed, known at no cost; ByteSize() would serialize a structure of millions of
    # entries, 0.2 s for 9 M attribute entries)
    if messages > _UTF8_WALK_MAX or _UTF8_PARSE_BYTES[0] < structure_bytes <= _UTF8_PARSE_BYTES[1]:
        try:
            _utf8_twin().FromString(model.SerializeToString())
            return None
        except DecodeError:
            pass  # some string field is not UTF-8 (the walk below says which)

    message_type, string_type = FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING
    stack: list[Message] = [model]
    while stack:
        msg = stack.pop()
        for fd, value in msg.ListFields():
            if fd.type == message_type:
                if fd.is_repeated:
                    stack.extend(value)
                else:
                    stack.append(value)
            elif fd.type == string_type:
                if fd.is_repeated:
                    if any(type(v) is bytes for v in value):
                        return str(fd.name)
                elif type(value) is bytes:
                    return str(fd.name)
    return None


#: ``syntax = "proto3"`` as a field of FileDescriptorProto (field 12, a string): written after onnx.proto's own
#: descriptor, it is the value protobuf keeps (the last occurrence of a singular field wins).
_PROTO3_SYNTAX = b"\x62\x06proto3"


@functools.cache
def _utf8_twin() -> Any:
    """onnx.proto's ModelProto declared as proto3 (in a pool of its own): same fields, and protobuf checks UTF-8.

    onnx.proto's serialized descriptor with the proto3 syntax appended, or (should that descriptor not be valid proto3)
    its copy edited field by field, which imports descriptor_pb2 (what the first way spares every process)."""
    from google.protobuf import descriptor_pool, message_factory
    from onnx import ModelProto

    pool = descriptor_pool.DescriptorPool()
    try:
        pool.AddSerializedFile(bytes(ModelProto.DESCRIPTOR.file.serialized_pb) + _PROTO3_SYNTAX)
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(ModelProto.DESCRIPTOR.full_name))
    except Exception:  # (e.g. a default value, which proto3 does not have: the copy below drops them)
        pass
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto()
    ModelProto.DESCRIPTOR.file.CopyToProto(fdp)
    package = "onnxpack_utf8_twin"
    old_prefix = f".{fdp.package}."
    fdp.name, fdp.package, fdp.syntax = f"{package}.proto", package, "proto3"
    stack = list(fdp.message_type)
    while stack:
        message = stack.pop()
        stack.extend(message.nested_type)
        for f in message.field:
            f.ClearField("default_value")  # (proto3 has none; onnx.proto sets none today)
            if f.type_name.startswith(old_prefix):
                f.type_name = f".{package}.{f.type_name[len(old_prefix):]}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{package}.ModelProto"))
