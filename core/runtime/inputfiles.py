"""The inputs a user gives a smoke run: parse --dim/--input/--range, read .npy/.npz/.pb files."""

from __future__ import annotations

import math
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .. import classcodes, errorcodes
from ..errors import InputError, OnnxpackError
from ..filehash import sha256_file

__all__ = [
    "MAX_DIM",
    "InputSpec",
    "LoadedInput",
    "dtype_label",
    "load_input_file",
    "parse_dim",
    "parse_input",
    "parse_range",
]

#: The largest size of one dimension (ONNX dims are int64).
MAX_DIM = (1 << 63) - 1
_NAME_RE = re.compile(r"^[^=]+$")
_NPZ_MEMBER = re.compile(r"^(?P<file>.*\.npz):(?P<member>[^:/\\]+)$", re.IGNORECASE)
_FILE_SUFFIXES = (".npy", ".npz", ".pb")


def _split(text: str, flag: str, example: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not _NAME_RE.match(name):
        raise errorcodes.USAGE.error(variant="name_value", flag=flag, text=text, example=example)
    return name, value.strip()


def parse_dim(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` -> (name, value); VALUE must be an integer ≥ 1 (a size of 0 would run on empty tensors
    and prove nothing)."""
    name, value = _split(text, "--dim", "sequence=512")
    if value.isdigit() and int(value) > MAX_DIM:
        raise errorcodes.USAGE.error(variant="dim_too_large", text=text, value=value, max=MAX_DIM)
    if not value.isdigit() or int(value) < 1:
        raise errorcodes.USAGE.error(variant="dim_not_positive", text=text, value=value)
    return name, int(value)


def parse_range(text: str) -> tuple[str, tuple[float, float]]:
    """``NAME=LO:HI`` -> (name, (lo, hi)) with lo ≤ hi, both finite."""
    name, value = _split(text, "--range", "pixel_values=0:1")
    lo_s, sep, hi_s = value.partition(":")
    try:
        lo, hi = float(lo_s), float(hi_s)
    except ValueError:
        lo = hi = math.nan
    if not sep or not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        raise errorcodes.USAGE.error(variant="range_form", text=text)
    return name, (lo, hi)


def parse_input(text: str) -> tuple[str, str]:
    """``NAME=FILE`` or ``NAME=VALUE`` -> (name, spec); the spec is resolved by :class:`InputSpec`."""
    return _split(text, "--input", "sr=16000")


@dataclass(frozen=True)
class InputSpec:
    """What the user said about one input: a file (.npy, .npz[:member], .pb) or a scalar value."""

    name: str
    file: Path | None = None
    member: str | None = None
    value: str | None = None

    @classmethod
    def parse(cls, name: str, spec: str, base_dir: Path | None = None) -> InputSpec:
        """A FILE when it exists (or looks like one: .npy/.npz/.pb suffix), else a scalar VALUE."""
        m = _NPZ_MEMBER.match(spec)
        candidates: list[tuple[str, str | None]] = [(spec, None)]
        if m:
            candidates.insert(0, (m.group("file"), m.group("member")))
        for path_text, member in candidates:
            p = Path(path_text)
            if base_dir is not None and not p.is_absolute():
                p = base_dir / p
            if p.exists():
                return cls(name, file=p, member=member)
        looks_like_file = any(c[0].lower().endswith(_FILE_SUFFIXES) for c in candidates)
        if looks_like_file:
            from . import codes  # (here, not at the top: the smoke child imports this module on every run)

            raise codes.INPUT_FILE_MISSING.error(name=name, file=candidates[0][0])
        if spec == "":
            raise errorcodes.USAGE.error(variant="input_no_value", name=name)
        return cls(name, value=spec)

    def describe(self) -> str:
        if self.file is None:
            return repr(self.value)
        return str(self.file) + (f":{self.member}" if self.member else "")


@dataclass
class LoadedInput:
    """An input array read from a user-supplied file, with the facts for the recipe."""

    name: str
    array: np.ndarray[Any, Any]
    file: Path
    format: str  # "npy" | "npz" | "pb"
    member: str | None
    sha256: str

    def recipe(self) -> dict[str, Any]:
        return {
            "source": "file",
            "file": str(self.file),
            "format": self.format,
            "member": self.member,
            "sha256": self.sha256,
            "dtype": dtype_label(self.array),
            "shape": [int(d) for d in self.array.shape],
        }


def dtype_label(a: np.ndarray[Any, Any]) -> str:
    return "string" if a.dtype.kind in "OUS" else str(a.dtype)


def _file_format(path: Path) -> str:
    with open(path, "rb") as f:
        head = f.read(8)
    if head.startswith(b"\x93NUMPY"):
        return "npy"
    if head.startswith(b"PK"):
        return "npz"
    return "pb"


def _load_pb(spec: InputSpec, path: Path) -> np.ndarray[Any, Any]:
    import onnx
    from google.protobuf.message import DecodeError
    from onnx import numpy_helper

    from ..model.tensors import uses_external_data

    t = onnx.TensorProto()
    try:
        t.ParseFromString(path.read_bytes())
    except (DecodeError, RecursionError, ValueError) as e:
        raise _format_error("", spec, path, e) from None
    if uses_external_data(t) or len(t.external_data):
        # Never resolve a path named inside a user file (security.md rule 3).
        raise _format_error("external", spec, path)
    if t.data_type == 0 or not (t.dims or t.raw_data or t.float_data or t.int32_data or t.int64_data
                                or t.double_data or t.uint64_data or t.string_data):
        raise _format_error("empty", spec, path)
    try:
        arr = numpy_helper.to_array(t)
    except Exception as e:  # onnx raises assorted errors for inconsistent tensors
        raise _format_error("inconsistent", spec, path, e) from None
    return np.asarray(arr)


def _load_npz(spec: InputSpec, path: Path) -> tuple[np.ndarray[Any, Any], str]:
    try:
        with np.load(path, allow_pickle=False) as npz:
            names = list(npz.files)
            member = spec.member
            if member is None:
                if spec.name in names:
                    member = spec.name
                elif len(names) == 1:
                    member = names[0]
                else:
                    from . import codes

                    raise codes.INPUT_FILE_MEMBER.error(name=spec.name, file=path.name, count=len(names),
                                                        members=", ".join(names[:10]), path=str(path),
                                                        member=names[0] if names else "MEMBER")
            if member not in names:
                from . import codes

                raise codes.INPUT_FILE_MEMBER.error(variant="missing", name=spec.name, file=path.name,
                                                    member=member, members=", ".join(names[:10]))
            return np.asarray(npz[member]), member
    except InputError:
        raise
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
        raise _format_error("npz", spec, path, e) from None


def load_input_file(spec: InputSpec) -> LoadedInput:
    """Read the array of a file input (.npy, .npz member, ONNX TensorProto .pb) and its SHA-256.

    Pickled object arrays are refused (``allow_pickle=False``): loading them would run code.
    """
    assert spec.file is not None
    path = spec.file
    if not path.is_file():
        raise classcodes.INPUT.error(variant="input_not_file", name=spec.name, path=str(path))
    try:
        digest = sha256_file(path).hexdigest
        fmt = _file_format(path)
    except OSError as e:
        raise classcodes.INPUT.error(variant="input_unreadable", name=spec.name, path=str(path),
                                     reason=e.strerror) from None
    member = None
    if fmt == "npy":
        try:
            arr = np.asarray(np.load(path, allow_pickle=False))
        except (ValueError, OSError, EOFError) as e:
            raise _format_error("npy", spec, path, e) from None
    elif fmt == "npz":
        arr, member = _load_npz(spec, path)
    else:
        arr = _load_pb(spec, path)
    if spec.member is not None and fmt != "npz":
        raise errorcodes.USAGE.error(variant="input_member", name=spec.name, member=spec.member, file=path.name,
                                     format=fmt)
    return LoadedInput(spec.name, arr, path, fmt, member, digest)


def _format_error(variant: str, spec: InputSpec, path: Path, e: BaseException | None = None) -> OnnxpackError:
    """INPUT_FILE_FORMAT: ``path`` (given for ``spec``) cannot be read as ``variant`` says (``e``: why)."""
    from . import codes  # (here, not at the top: the smoke child imports this module on every run)

    return codes.INPUT_FILE_FORMAT.error(variant=variant, name=spec.name, file=path.name,
                                         detail="" if e is None else str(e))
