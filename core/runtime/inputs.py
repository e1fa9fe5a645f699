"""Smoke-run inputs: parse --dim/--input/--range, load .npy/.npz/.pb files, generate seeded inputs."""

from __future__ import annotations

import math
import os
import re
import sys
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..filehash import sha256_file
from ..units import format_bytes

__all__ = [
    "DEFAULT_DIM",
    "MAX_DIM",
    "MAX_RANK",
    "SEARCH_VALUES",
    "GeneratedInputs",
    "InputMeta",
    "InputSpec",
    "LoadedInput",
    "anonymous_dim_key",
    "generate_inputs",
    "load_input_file",
    "memory_limit",
    "numpy_dtype",
    "parse_dim",
    "parse_input",
    "parse_range",
    "physical_memory",
]

#: numpy's (and so onnxpack's) most dimensions of an array.
MAX_RANK = 64
#: The largest size of one dimension (ONNX dims are int64).
MAX_DIM = (1 << 63) - 1
#: Value of a symbolic or unnamed dimension nobody specified.
DEFAULT_DIM = 1
#: Values tried, in order, for unresolved dims when the default fails (bounded search).
SEARCH_VALUES = (1, 8, 16, 32, 64, 128, 224, 256, 512)
#: Integers are drawn from [0, _INT_HIGH) unless --range says otherwise: small enough to be a valid
#: index or class id in most models.
_INT_HIGH = 10
_WORDS = ("onnx", "pack", "smoke", "test", "hello", "world", "release", "model")
_NAME_RE = re.compile(r"^[^=]+$")
_NPZ_MEMBER = re.compile(r"^(?P<file>.*\.npz):(?P<member>[^:/\\]+)$", re.IGNORECASE)
_FILE_SUFFIXES = (".npy", ".npz", ".pb")

# ORT type strings ('tensor(float)') -> numpy dtype names; 'string' is an object array of str.
_ORT_ELEM = {
    "float": "float32",
    "float16": "float16",
    "double": "float64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "bool": "bool",
    "string": "object",
}


def numpy_dtype(elem: str) -> np.dtype[Any] | None:
    """numpy dtype for an ORT element type name (``float``, ``int64``…); None when numpy has none."""
    name = _ORT_ELEM.get(elem)
    return None if name is None else np.dtype(name)


def anonymous_dim_key(input_name: str, axis: int) -> str:
    """Key of an unnamed dimension in ``dims``: ``INPUT[AXIS]`` (e.g. ``--dim "x[2]=64"``)."""
    return f"{input_name}[{axis}]"


def _split(text: str, flag: str, example: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name or not _NAME_RE.match(name):
        raise InputError(f"{flag} {text!r} is not of the form NAME=VALUE", f"Example: {flag} {example}", code="USAGE")
    return name, value.strip()


def parse_dim(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` -> (name, value); VALUE must be an integer ≥ 1 (a size of 0 would run on empty tensors
    and prove nothing)."""
    name, value = _split(text, "--dim", "sequence=512")
    if value.isdigit() and int(value) > MAX_DIM:
        raise InputError(f"--dim {text!r}: {value} is more than a dimension can be (ONNX dims are int64: at most "
                         f"{MAX_DIM})", "Example: --dim sequence=512", code="USAGE")
    if not value.isdigit() or int(value) < 1:
        raise InputError(
            f"--dim {text!r}: {value!r} is not a positive integer (a size of 0 runs on empty tensors, which "
            "proves nothing)",
            "Example: --dim sequence=512", code="USAGE"
        )
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
        raise InputError(
            f"--range {text!r}: expected LO:HI with finite numbers and LO ≤ HI", "Example: --range x=0:1", code="USAGE"
        )
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
            raise InputError(
                f"--input {name}: file not found: {candidates[0][0]}",
                "Check the path (relative paths are relative to the current folder).",
                code="INPUT_FILE_MISSING",
            )
        if spec == "":
            raise InputError(f"--input {name}= has no value", "Example: --input sr=16000", code="USAGE")
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
            "dtype": _dtype_label(self.array),
            "shape": [int(d) for d in self.array.shape],
        }


def _dtype_label(a: np.ndarray[Any, Any]) -> str:
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
        raise InputError(
            f"--input {spec.name}: {path.name} is neither .npy, .npz nor an ONNX TensorProto (.pb): {e}",
            "Save the input with numpy.save() or onnx.numpy_helper.from_array(...).SerializeToString().",
            code="INPUT_FILE_FORMAT",
        ) from None
    if uses_external_data(t) or len(t.external_data):
        # Never resolve a path named inside a user file (security.md rule 3).
        raise InputError(
            f"--input {spec.name}: {path.name} refers to external data, which onnxpack does not follow",
            "Save the tensor with its data inline.",
            code="INPUT_FILE_FORMAT",
        )
    if t.data_type == 0 or not (t.dims or t.raw_data or t.float_data or t.int32_data or t.int64_data
                                or t.double_data or t.uint64_data or t.string_data):
        raise InputError(
            f"--input {spec.name}: {path.name} does not hold a tensor (empty or not a TensorProto)",
            "Give a .npy/.npz file or an ONNX TensorProto .pb file such as test_data_set_0/input_0.pb.",
            code="INPUT_FILE_FORMAT",
        )
    try:
        arr = numpy_helper.to_array(t)
    except Exception as e:  # onnx raises assorted errors for inconsistent tensors
        raise InputError(
            f"--input {spec.name}: the tensor in {path.name} is inconsistent: {e}",
            "Save the tensor again with onnx.numpy_helper.from_array().",
            code="INPUT_FILE_FORMAT",
        ) from None
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
                    raise InputError(
                        f"--input {spec.name}: {path.name} holds {len(names)} arrays ({', '.join(names[:10])}) "
                        "and none is named after the input",
                        f"Name the member: --input {spec.name}={path}:{names[0] if names else 'MEMBER'}",
                        code="INPUT_FILE_MEMBER",
                    )
            if member not in names:
                raise InputError(
                    f"--input {spec.name}: {path.name} has no array {member!r} (it has: {', '.join(names[:10])})",
                    "Use one of the listed member names after the colon.",
                    code="INPUT_FILE_MEMBER",
                )
            return np.asarray(npz[member]), member
    except InputError:
        raise
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
        raise InputError(
            f"--input {spec.name}: cannot read {path.name} as .npz: {e}",
            "Object (pickled) arrays are refused for safety; save plain arrays with numpy.savez().",
            code="INPUT_FILE_FORMAT",
        ) from None


def load_input_file(spec: InputSpec) -> LoadedInput:
    """Read the array of a file input (.npy, .npz member, ONNX TensorProto .pb) and its SHA-256.

    Pickled object arrays are refused (``allow_pickle=False``): loading them would run code.
    """
    assert spec.file is not None
    path = spec.file
    if not path.is_file():
        raise InputError(f"--input {spec.name}: {path} is not a regular file", "Give a .npy, .npz or .pb file.")
    try:
        digest = sha256_file(path).hexdigest
        fmt = _file_format(path)
    except OSError as e:
        raise InputError(
            f"--input {spec.name}: cannot read {path}: {e.strerror}", "Check the file permissions."
        ) from None
    member = None
    if fmt == "npy":
        try:
            arr = np.asarray(np.load(path, allow_pickle=False))
        except (ValueError, OSError, EOFError) as e:
            raise InputError(
                f"--input {spec.name}: cannot read {path.name} as .npy: {e}",
                "Object (pickled) arrays are refused for safety; save a plain array with numpy.save().",
                code="INPUT_FILE_FORMAT",
            ) from None
    elif fmt == "npz":
        arr, member = _load_npz(spec, path)
    else:
        arr = _load_pb(spec, path)
    if spec.member is not None and fmt != "npz":
        raise InputError(
            f"--input {spec.name}: ':{spec.member}' selects an .npz member, but {path.name} is a {fmt} file",
            "Remove the ':member' part.",
            code="USAGE",
        )
    return LoadedInput(spec.name, arr, path, fmt, member, digest)


@dataclass(frozen=True)
class InputMeta:
    """One model input as ONNX Runtime describes it (``session.get_inputs()``)."""

    name: str
    type: str  # e.g. "tensor(float)", "optional(tensor(int64))", "seq(tensor(float))"
    shape: list[int | str | None]
    overridable: bool = False  # an input that also has an initializer (a default value)

    @property
    def kind(self) -> str:
        return self.type.split("(", 1)[0]

    @property
    def elem(self) -> str | None:
        """Element type of a tensor input (``float``, ``int64``…), None for other kinds."""
        m = re.fullmatch(r"tensor\((\w+)\)", self.type)
        return m.group(1) if m else None


@dataclass
class GeneratedInputs:
    """The feeds for one run and the recipe entries that describe them."""

    feeds: dict[str, Any]
    recipe: dict[str, dict[str, Any]]
    dims: dict[str, int]  # every dim value used, by name (named dims) or INPUT[AXIS] (unnamed)
    dim_sources: dict[str, str]  # "option" | "input:NAME" | "default" | "search"
    problems: list[str] = field(default_factory=list)  # inputs that cannot be fed (type/shape mismatch)
    #: Set when the generated inputs would exceed the limit (nothing was allocated): the largest, described.
    too_large: list[str] = field(default_factory=list)
    planned_bytes: int = 0  # bytes of the generated (not supplied) inputs
    limit_bytes: int = 0  # the limit they were checked against

    @property
    def nbytes(self) -> int:
        return sum(int(getattr(a, "nbytes", 0)) for a in self.feeds.values())


def _rng(seed: int, name: str) -> np.random.Generator:
    """Per-input generator: the same seed and input name give the same values on every platform."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(name.encode("utf-8")),)))


def _generate(meta: InputMeta, shape: list[int], dtype: np.dtype[Any], seed: int,
              rng_range: tuple[float, float] | None) -> tuple[np.ndarray[Any, Any], str]:
    value, dist = _draw(meta, shape, dtype, seed, rng_range)
    # numpy's generators return a scalar (numpy.bool, str...) for shape []: ONNX Runtime wants an array,
    # also for a 0-d input ("Unable to handle object of type <class 'numpy.bool'>").
    return np.asarray(value, dtype=dtype), dist


def _draw(meta: InputMeta, shape: list[int], dtype: np.dtype[Any], seed: int,
          rng_range: tuple[float, float] | None) -> tuple[Any, str]:
    rng = _rng(seed, meta.name)
    if dtype.kind == "f":
        if rng_range is None:
            return rng.standard_normal(shape).astype(dtype), "normal(0,1)"
        lo, hi = rng_range
        top = float(np.finfo(dtype).max)
        if not (-top <= lo <= hi <= top):
            raise InputError(
                f"--range {meta.name}={lo:g}:{hi:g} goes beyond what {dtype} holds (±{top:g})",
                f"Give a range within ±{top:g}, e.g. --range {meta.name}=-1:1.",
                code="USAGE",
            )
        if not math.isfinite(hi - lo):  # [-1e308, 1e308] of float64: numpy's uniform refuses the width
            return (rng.uniform(lo / 2, hi / 2, shape) * 2).astype(dtype), f"uniform[{lo:g},{hi:g})"
        return rng.uniform(lo, hi, shape).astype(dtype), f"uniform[{lo:g},{hi:g})"
    if dtype.kind in "iu":
        # The integers x with LO <= x < HI, as --range promises ([LO, HI), like Python's range).
        lo_i, hi_x = (0, _INT_HIGH) if rng_range is None else (math.ceil(rng_range[0]), math.ceil(rng_range[1]))
        info = np.iinfo(dtype)
        lo_i, hi_x = max(lo_i, int(info.min)), min(hi_x, int(info.max) + 1)
        if hi_x <= lo_i:
            raise InputError(
                f"--range {meta.name}={rng_range[0] if rng_range else 0:g}:{rng_range[1] if rng_range else 0:g} "
                f"holds no {dtype} value (the range is [LO, HI): HI is excluded)",
                f"Widen it, e.g. --range {meta.name}={lo_i}:{lo_i + 1} for the single value {lo_i}.",
                code="USAGE",
            )
        return rng.integers(lo_i, hi_x, shape, dtype=dtype), f"integers[{lo_i},{hi_x})"
    if dtype.kind == "b":
        return rng.random(shape) < 0.5, "bool(p=0.5)"
    words = np.array(_WORDS, dtype=object)
    return words[rng.integers(0, len(_WORDS), shape)], "words"


def _scalar(meta: InputMeta, text: str, dtype: np.dtype[Any]) -> Any:
    try:
        if dtype.kind == "f":
            return float(text)
        if dtype.kind in "iu":
            v = int(text, 0)
            info = np.iinfo(dtype)
            if not info.min <= v <= info.max:
                raise InputError(
                    f"--input {meta.name}={text}: out of the range of {meta.elem} ({info.min} to {info.max})",
                    f"Give a value {meta.name} can hold.", code="INPUT_VALUE")
            return v
        if dtype.kind == "b":
            low = text.lower()
            if low not in ("0", "1", "true", "false"):
                raise ValueError(text)
            return low in ("1", "true")
    except ValueError:
        example = "true" if dtype.kind == "b" else "0.5" if dtype.kind == "f" else "16000"
        what = "true, false, 1 or 0" if dtype.kind == "b" else "a number"
        raise InputError(
            f"--input {meta.name}={text}: not a valid {meta.elem} value (and no such file)",
            f"Give {what} for {meta.name} (e.g. --input {meta.name}={example}) or a .npy/.npz/.pb file.",
            code="INPUT_VALUE",
        ) from None
    return text


def _compatible(supplied: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> bool:
    if dtype.kind == "O":
        return supplied.dtype.kind in "OUS"
    return bool(supplied.dtype == dtype)


def generate_inputs(
    metas: list[InputMeta],
    *,
    seed: int = 0,
    dims: Mapping[str, int] | None = None,
    supplied: Mapping[str, np.ndarray[Any, Any]] | None = None,
    values: Mapping[str, str] | None = None,
    ranges: Mapping[str, tuple[float, float]] | None = None,
    default_dim: int = DEFAULT_DIM,
    search_dims: Mapping[str, int] | None = None,
    max_bytes: int | None = None,
) -> GeneratedInputs:
    """Build the feeds for ``metas``: supplied arrays, scalar values, else seeded generated data.

    Dimension values, in order of precedence: ``dims`` (``--dim``), the shape of a supplied array
    (so ``batch`` read from one input applies to every input that names ``batch``), ``search_dims``
    (the automatic search), then ``default_dim``. Unnamed dimensions are keyed ``INPUT[AXIS]``.
    Optional-typed inputs with nothing supplied are omitted (ORT treats them as absent), and so are
    inputs backed by an initializer (the model's default value is used). Raises
    InputError for a supplied file or value that does not fit the model. Inputs of more than ``max_bytes`` in all
    (default: :func:`memory_limit`) are not made: ``too_large`` says why.
    """
    dims = dict(dims or {})
    supplied = dict(supplied or {})
    values = dict(values or {})
    ranges = dict(ranges or {})
    search_dims = dict(search_dims or {})
    known = {m.name for m in metas}
    for name in list(supplied) + list(values) + list(ranges):
        if name not in known:
            raise InputError(
                f"The model has no input named {name!r} (inputs: {', '.join(sorted(known)) or 'none'})",
                "Check the spelling; names are case-sensitive.",
                code="INPUT_UNKNOWN",
            )
    symbolic = sorted({d if isinstance(d, str) and d else anonymous_dim_key(m.name, axis)
                       for m in metas for axis, d in enumerate(m.shape) if not (isinstance(d, int) and d >= 0)})
    unknown = sorted(set(dims) - set(symbolic))
    if unknown:
        listing = ", ".join(symbolic) if symbolic else "none: every input has a fixed shape"
        raise InputError(
            f"The model has no symbolic dimension named {', '.join(map(repr, unknown))} (its symbolic dimensions: "
            f"{listing})",
            "Check the spelling (names are case-sensitive); an unnamed dimension is INPUT[AXIS], e.g. "
            '--dim "x[0]=1".',
            code="DIM_UNKNOWN",
        )
    used: dict[str, int] = {}
    sources: dict[str, str] = {}
    for k, v in dims.items():
        used[k] = v
        sources[k] = "option"
    # Pass 1: supplied arrays bind symbolic dims and must fit fixed ones.
    for meta in metas:
        arr = supplied.get(meta.name)
        if arr is None:
            continue
        dtype = numpy_dtype(meta.elem or "")
        if meta.kind not in ("tensor", "optional") or dtype is None:
            raise InputError(f"Input {meta.name} has type {meta.type}, which onnxpack cannot feed from a file",
                             "Only tensor inputs can be supplied.", code="INPUT_UNSUPPORTED")
        if not _compatible(arr, dtype):
            raise InputError(
                f"--input {meta.name}: the file holds {_dtype_label(arr)} data, but the model wants {meta.type}",
                f"Convert it, e.g. numpy.save(path, array.astype('{dtype}')).",
                code="INPUT_DTYPE",
            )
        if meta.shape and len(meta.shape) != arr.ndim:
            raise InputError(
                f"--input {meta.name}: the array has shape {list(arr.shape)} (rank {arr.ndim}), but the model "
                f"wants rank {len(meta.shape)} {meta.shape}",
                "Reshape the array to the model's input shape.",
                code="INPUT_SHAPE",
            )
        for axis, (want, got) in enumerate(zip(meta.shape, arr.shape, strict=False)):
            if isinstance(want, int) and want >= 0 and want != got:
                raise InputError(
                    f"--input {meta.name}: axis {axis} has size {got}, but the model fixes it at {want} "
                    f"(model shape {meta.shape})",
                    "Give an array of the model's input shape.",
                    code="INPUT_SHAPE",
                )
            if isinstance(want, str) and want:
                if want in used and used[want] != got:
                    raise InputError(
                        f"--input {meta.name}: axis {axis} ({want}) has size {got}, but {want} = {used[want]} "
                        f"({sources[want]})",
                        f"Make the inputs agree on {want}, or drop --dim {want}.",
                        code="INPUT_SHAPE",
                    )
                used[want] = int(got)
                sources.setdefault(want, f"input:{meta.name}")
    feeds: dict[str, Any] = {}
    recipe: dict[str, dict[str, Any]] = {}
    problems: list[str] = []

    def resolve(meta: InputMeta) -> list[int]:
        shape: list[int] = []
        for axis, d in enumerate(meta.shape):
            if isinstance(d, int) and d >= 0:
                shape.append(d)
                continue
            key = d if isinstance(d, str) and d else anonymous_dim_key(meta.name, axis)
            if key not in used:
                if key in search_dims:
                    used[key], sources[key] = search_dims[key], "search"
                else:
                    used[key], sources[key] = default_dim, "default"
            shape.append(used[key])
        return shape

    planned: list[tuple[InputMeta, list[int], np.dtype[Any]]] = []  # what is still to allocate
    for meta in metas:
        name = meta.name
        if name in supplied:
            feeds[name] = supplied[name]
            continue  # recipe entry added by the caller, which knows the file
        dtype = numpy_dtype(meta.elem or "")
        if meta.overridable:
            if name in values:
                raise InputError(
                    f"--input {name}={values[name]}: {name} is an input with a default value (an initializer); "
                    "give a file to override it",
                    f"Use --input {name}=FILE.npy with an array of the initializer's shape.",
                    code="INPUT_VALUE",
                )
            recipe[name] = {"source": "initializer", "reason": "input with a default value in the model; not fed"}
            continue
        if meta.kind == "optional" and name not in values:
            recipe[name] = {"source": "omitted", "reason": f"optional input ({meta.type}); ORT treats it as absent"}
            continue
        if meta.kind not in ("tensor", "optional") or dtype is None:
            problems.append(
                f"input {name} has type {meta.type}, which onnxpack cannot generate"
                + ("" if meta.kind in ("tensor", "optional") else "; only tensors are supported")
            )
            recipe[name] = {"source": "unsupported", "type": meta.type}
            continue
        shape = resolve(meta)
        if len(shape) > MAX_RANK:
            problems.append(f"input {name} has {len(shape)} dimensions; onnxpack makes arrays of at most {MAX_RANK} "
                            "(numpy's limit)")
            recipe[name] = {"source": "unsupported", "type": meta.type, "rank": len(shape)}
            continue
        planned.append((meta, shape, dtype))
    # Sizes are checked before anything is allocated: a fixed shape of 2**31 x 2**31, or a recipe's dim of 2**62,
    # is a clear finding, not numpy's "array is too big" or an out-of-memory kill.
    limit = memory_limit() if max_bytes is None else max_bytes
    sizes = [(meta, shape, math.prod(shape) * (dtype.itemsize if dtype.kind != "O" else 16)) for meta, shape, dtype
             in planned]
    total = sum(n for _m, _s, n in sizes)
    if total > limit:
        biggest = sorted(sizes, key=lambda x: -x[2])[:3]
        too_large = [f"input {m.name} {_fmt_dims(s)} would take {format_bytes(n)}" for m, s, n in biggest]
        for meta, shape, dtype in planned:
            recipe[meta.name] = {"source": "too large", "dtype": "string" if dtype.kind == "O" else str(dtype),
                                 "shape": shape}
        return GeneratedInputs(feeds, recipe, used, sources, problems, too_large=too_large, planned_bytes=total,
                               limit_bytes=limit)
    for meta, shape, dtype in planned:
        name = meta.name
        if name in values:
            v = _scalar(meta, values[name], dtype)
            arr = np.full(shape, v, dtype=dtype)
            feeds[name] = arr
            recipe[name] = {"source": "value", "value": values[name], "dtype": _dtype_label(arr), "shape": shape}
            continue
        arr, dist = _generate(meta, shape, dtype, seed, ranges.get(name))
        feeds[name] = arr
        recipe[name] = {"source": "generated", "distribution": dist, "dtype": _dtype_label(arr), "shape": shape}
    return GeneratedInputs(feeds, recipe, used, sources, problems, planned_bytes=total, limit_bytes=limit)


def _fmt_dims(shape: list[int]) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def physical_memory() -> int | None:
    """This machine's physical memory in bytes, None when it cannot be told."""
    if sys.platform == "win32":
        import ctypes

        class _Status(ctypes.Structure):
            _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                        ("ullTotalPhys", ctypes.c_ulonglong), ("ullAvailPhys", ctypes.c_ulonglong),
                        ("ullTotalPageFile", ctypes.c_ulonglong), ("ullAvailPageFile", ctypes.c_ulonglong),
                        ("ullTotalVirtual", ctypes.c_ulonglong), ("ullAvailVirtual", ctypes.c_ulonglong),
                        ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]

        status = _Status()
        status.dwLength = ctypes.sizeof(_Status)
        ok = ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status))  # type: ignore[attr-defined,unused-ignore]
        return int(status.ullTotalPhys) if ok else None
    try:
        pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return pages * page if pages > 0 and page > 0 else None


def memory_limit() -> int:
    """The most bytes of generated inputs a run may ask for: half this machine's physical memory (float values are
    drawn as float64 first, and ONNX Runtime needs memory beside them)."""
    mem = physical_memory()
    return mem // 2 if mem else 1 << 62
