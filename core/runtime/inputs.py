"""Smoke-run inputs made for a model: seeded generated values, scalar values, supplied arrays checked against it.

The inputs a user gives (--dim/--input/--range, .npy/.npz/.pb files) are read by :mod:`.inputfiles`.
"""

from __future__ import annotations

import math
import os
import re
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from .. import errorcodes
from ..units import format_bytes
from .inputfiles import (
    MAX_DIM,
    InputSpec,
    LoadedInput,
    dtype_label,
    load_input_file,
    parse_dim,
    parse_input,
    parse_range,
)
from .inputhints import PROFILES, RETRY_PROFILES, sum_terms

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .inputhints import Conventions

__all__ = [
    "DEFAULT_DIM",
    "MAX_DIM",
    "MAX_RANK",
    "PROFILES",
    "RETRY_PROFILES",
    "SEARCH_VALUES",
    "GeneratedInputs",
    "InputMeta",
    "InputRequest",
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
#: Value of a symbolic or unnamed dimension nobody specified.
DEFAULT_DIM = 1
#: Values tried, in order, for unresolved dims when the default fails (bounded search).
SEARCH_VALUES = (1, 8, 16, 32, 64, 128, 224, 256, 512)
#: Integers are drawn from [0, _INT_HIGH) unless --range (or the table an input indexes) says otherwise: small enough
#: to be a valid index or class id in most models.
_INT_HIGH = 10
_WORDS = ("onnx", "pack", "smoke", "test", "hello", "world", "release", "model")

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
            raise errorcodes.USAGE.error(variant="range_beyond", name=meta.name, lo=f"{lo:g}", hi=f"{hi:g}",
                                         dtype=dtype, top=f"{top:g}")
        if not math.isfinite(hi - lo):  # [-1e308, 1e308] of float64: numpy's uniform refuses the width
            return (rng.uniform(lo / 2, hi / 2, shape) * 2).astype(dtype), f"uniform[{lo:g},{hi:g})"
        return rng.uniform(lo, hi, shape).astype(dtype), f"uniform[{lo:g},{hi:g})"
    if dtype.kind in "iu":
        # The integers x with LO <= x < HI, as --range promises ([LO, HI), like Python's range).
        lo_i, hi_x = (0, _INT_HIGH) if rng_range is None else (math.ceil(rng_range[0]), math.ceil(rng_range[1]))
        info = np.iinfo(dtype)
        lo_i, hi_x = max(lo_i, int(info.min)), min(hi_x, int(info.max) + 1)
        if hi_x <= lo_i:
            lo_text, hi_text = (f"{rng_range[0]:g}", f"{rng_range[1]:g}") if rng_range else ("0", "0")
            raise errorcodes.USAGE.error(variant="range_empty", name=meta.name, lo=lo_text, hi=hi_text, dtype=dtype,
                                         low=lo_i, high=lo_i + 1)
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
                from . import codes  # (here, not at the top: the smoke child imports this module on every run)

                raise codes.INPUT_VALUE.error(variant="range", name=meta.name, value=text, elem=meta.elem, low=info.min,
                                              high=info.max)
            return v
        if dtype.kind == "b":
            low = text.lower()
            if low not in ("0", "1", "true", "false"):
                raise ValueError(text)
            return low in ("1", "true")
    except ValueError:
        from . import codes

        example = "true" if dtype.kind == "b" else "0.5" if dtype.kind == "f" else "16000"
        raise codes.INPUT_VALUE.error(variant="bool" if dtype.kind == "b" else None, name=meta.name, value=text,
                                      elem=meta.elem, example=example) from None
    return text


def _compatible(supplied: np.ndarray[Any, Any], dtype: np.dtype[Any]) -> bool:
    if dtype.kind == "O":
        return supplied.dtype.kind in "OUS"
    return bool(supplied.dtype == dtype)


class InputRequest(TypedDict, total=False):
    """What :func:`generate_inputs` is asked (keyword arguments, all optional): see there."""

    seed: int
    dims: Mapping[str, int] | None
    supplied: Mapping[str, np.ndarray[Any, Any]] | None
    values: Mapping[str, str] | None
    ranges: Mapping[str, tuple[float, float]] | None
    default_dim: int
    search_dims: Mapping[str, int] | None
    max_bytes: int | None
    profile: str
    bounds: Mapping[str, int] | None


def generate_inputs(metas: list[InputMeta], **request: Unpack[InputRequest]) -> GeneratedInputs:
    """Build the feeds for ``metas``: supplied arrays, scalar values, else seeded generated data.

    Dimension values, in order of precedence: ``dims`` (``--dim``), the shape of a supplied array
    (so ``batch`` read from one input applies to every input that names ``batch``), ``search_dims``
    (the automatic search), then ``default_dim`` (default: DEFAULT_DIM). Unnamed dimensions are keyed
    ``INPUT[AXIS]``. Optional-typed inputs with nothing supplied are omitted (ORT treats them as absent), and so are
    inputs backed by an initializer (the model's default value is used). Raises
    InputError for a supplied file or value that does not fit the model. Inputs of more than ``max_bytes`` in all
    (default: :func:`memory_limit`) are not made: ``too_large`` says why. ``seed`` (default 0) seeds the values,
    ``values`` gives scalar values by input, ``ranges`` the (lo, hi) of generated values.

    ``profile`` (one of PROFILES, default ``model``) says how the other values are made: ``model`` follows what the
    model says about its inputs (:class:`.inputhints.Conventions`: masks ones, ``input_ids`` below ``bounds[name]``,
    the rows of the table it indexes, images in [0, 1)…; a dim named by a sum of dims is that sum).
    """
    dims = dict(request.get("dims") or {})
    supplied = dict(request.get("supplied") or {})
    values = dict(request.get("values") or {})
    ranges = dict(request.get("ranges") or {})
    _check_names(metas, dims, [*supplied, *values, *ranges])
    profile = request.get("profile", "model")
    if profile not in PROFILES:
        raise ValueError(f"unknown input profile {profile!r}")
    state = _Dims(dims, dict(request.get("search_dims") or {}), request.get("default_dim", DEFAULT_DIM),
                  derive=profile != "plain")
    # Pass 1: supplied arrays bind symbolic dims and must fit fixed ones.
    for meta in metas:
        arr = supplied.get(meta.name)
        if arr is not None:
            state.bind(meta, arr)
    out = GeneratedInputs({}, {}, state.used, state.sources, [])
    planned = _plan(metas, supplied, values, state, out)
    # Sizes are checked before anything is allocated: a fixed shape of 2**31 x 2**31, or a recipe's dim of 2**62,
    # is a clear finding, not numpy's "array is too big" or an out-of-memory kill.
    max_bytes = request.get("max_bytes")
    out.limit_bytes = memory_limit() if max_bytes is None else max_bytes
    sizes = [(meta, shape, math.prod(shape) * (dtype.itemsize if dtype.kind != "O" else 16)) for meta, shape, dtype
             in planned]
    out.planned_bytes = sum(n for _m, _s, n in sizes)
    if out.planned_bytes > out.limit_bytes:
        biggest = sorted(sizes, key=lambda x: -x[2])[:3]
        out.too_large = [f"input {m.name} {_fmt_dims(s)} would take {format_bytes(n)}" for m, s, n in biggest]
        for meta, shape, dtype in planned:
            out.recipe[meta.name] = {"source": "too large", "dtype": "string" if dtype.kind == "O" else str(dtype),
                                     "shape": shape}
        return out
    conventions = None
    if profile != "plain":
        from .inputhints import Conventions, past_length  # (the other profiles only)

        conventions = Conventions(profile, dict(request.get("bounds") or {}), past_length(metas, state.used),
                                  _generate, _INT_HIGH)
    _fill(planned, values, ranges, request.get("seed", 0), out, conventions)
    return out


def _check_names(metas: list[InputMeta], dims: dict[str, int], named: list[str]) -> None:
    """Every input ``named`` (supplied, valued or ranged) and every dim given is one of the model's."""
    known = {m.name for m in metas}
    for name in named:
        if name not in known:
            from . import codes  # (here, not at the top: the smoke child imports this module on every run)

            raise codes.INPUT_UNKNOWN.error(name=name, inputs=", ".join(sorted(known)) or "none")
    symbolic = sorted({d if isinstance(d, str) and d else anonymous_dim_key(m.name, axis)
                       for m in metas for axis, d in enumerate(m.shape) if not (isinstance(d, int) and d >= 0)})
    unknown = sorted(set(dims) - set(symbolic))
    if unknown:
        from . import codes

        raise codes.DIM_UNKNOWN.error(variant=None if symbolic else "fixed", names=", ".join(map(repr, unknown)),
                                      listing=", ".join(symbolic))


def _check_supplied(meta: InputMeta, arr: np.ndarray[Any, Any]) -> None:
    """A supplied array is of a type and rank the input takes."""
    dtype = numpy_dtype(meta.elem or "")
    if meta.kind not in ("tensor", "optional") or dtype is None:
        from . import codes  # (here, not at the top: the smoke child imports this module on every run)

        raise codes.INPUT_UNSUPPORTED.error(name=meta.name, type=meta.type)
    if not _compatible(arr, dtype):
        from . import codes

        raise codes.INPUT_DTYPE.error(name=meta.name, got=dtype_label(arr), type=meta.type, dtype=str(dtype))
    if meta.shape and len(meta.shape) != arr.ndim:
        from . import codes

        raise codes.INPUT_SHAPE.error(name=meta.name, shape=list(arr.shape), rank=arr.ndim,
                                      want_rank=len(meta.shape), want=meta.shape)


class _Dims:
    """The size of every symbolic or unnamed dim (``used``) and where it came from (``sources``: "option",
    "input:NAME", "search" or "default")."""

    def __init__(self, dims: dict[str, int], search_dims: dict[str, int], default_dim: int,
                 derive: bool = False) -> None:
        self.used: dict[str, int] = {}
        self.sources: dict[str, str] = {}
        for k, v in dims.items():
            self.used[k] = v
            self.sources[k] = "option"
        self.search_dims = search_dims
        self.default_dim = default_dim
        self.derive = derive  # a dim named by a sum of other dims is that sum ("derived")

    def bind(self, meta: InputMeta, arr: np.ndarray[Any, Any]) -> None:
        """Check a supplied array against its input; its sizes of symbolic dims are used for every input."""
        _check_supplied(meta, arr)
        for axis, (want, got) in enumerate(zip(meta.shape, arr.shape, strict=False)):
            if isinstance(want, int) and want >= 0 and want != got:
                from . import codes  # (here, not at the top: the smoke child imports this module on every run)

                raise codes.INPUT_SHAPE.error(variant="axis", name=meta.name, axis=axis, got=got, want=want,
                                              shape=meta.shape)
            if isinstance(want, str) and want:
                if want in self.used and self.used[want] != got:
                    from . import codes

                    raise codes.INPUT_SHAPE.error(
                        variant="agree", name=meta.name, axis=axis, dim=want, got=got, value=self.used[want],
                        source=self.sources[want],
                    )
                self.used[want] = int(got)
                self.sources.setdefault(want, f"input:{meta.name}")

    def resolve(self, meta: InputMeta) -> list[int]:
        """The shape ``meta`` gets: its fixed sizes, and a size for every other dim (named once for all inputs)."""
        shape: list[int] = []
        for axis, d in enumerate(meta.shape):
            if isinstance(d, int) and d >= 0:
                shape.append(d)
                continue
            key = d if isinstance(d, str) and d else anonymous_dim_key(meta.name, axis)
            shape.append(self.value(key))
        return shape

    def value(self, key: str) -> int:
        """The size of the dim ``key``, chosen now if nothing chose it yet (a sum of dims: their sum)."""
        if key not in self.used:
            terms = sum_terms(key) if self.derive else None
            if key in self.search_dims:
                self.used[key], self.sources[key] = self.search_dims[key], "search"
            elif terms is not None:
                total = sum(t if isinstance(t, int) else self.value(t) for t in terms)
                self.used[key], self.sources[key] = (total, "derived") if total >= 1 else (self.default_dim, "default")
            else:
                self.used[key], self.sources[key] = self.default_dim, "default"
        return self.used[key]


#: An input to make: its description, shape and numpy dtype.
_Planned = tuple[InputMeta, list[int], np.dtype[Any]]


def _plan(metas: list[InputMeta], supplied: dict[str, np.ndarray[Any, Any]], values: dict[str, str], state: _Dims,
          out: GeneratedInputs) -> list[_Planned]:
    """Feed the supplied arrays, record the inputs that are not fed; return the inputs still to make."""
    planned: list[_Planned] = []
    for meta in metas:
        name = meta.name
        if name in supplied:
            out.feeds[name] = supplied[name]
            continue  # recipe entry added by the caller, which knows the file
        dtype = numpy_dtype(meta.elem or "")
        if _not_fed(meta, dtype, values, out) or dtype is None:  # (_not_fed is True when dtype is None)
            continue
        shape = state.resolve(meta)
        if len(shape) > MAX_RANK:
            out.problems.append(f"input {name} has {len(shape)} dimensions; onnxpack makes arrays of at most "
                                f"{MAX_RANK} (numpy's limit)")
            out.recipe[name] = {"source": "unsupported", "type": meta.type, "rank": len(shape)}
            continue
        planned.append((meta, shape, dtype))
    return planned


def _not_fed(meta: InputMeta, dtype: np.dtype[Any] | None, values: dict[str, str], out: GeneratedInputs) -> bool:
    """Record an input that is not fed (it has a default value, it is an optional one, or of a type onnxpack cannot
    make); True if so."""
    name = meta.name
    if meta.overridable:
        if name in values:
            from . import codes  # (here, not at the top: the smoke child imports this module on every run)

            raise codes.INPUT_VALUE.error(variant="default", name=name, value=values[name])
        out.recipe[name] = {"source": "initializer", "reason": "input with a default value in the model; not fed"}
        return True
    if meta.kind == "optional" and name not in values:
        out.recipe[name] = {"source": "omitted", "reason": f"optional input ({meta.type}); ORT treats it as absent"}
        return True
    if meta.kind not in ("tensor", "optional") or dtype is None:
        out.problems.append(
            f"input {name} has type {meta.type}, which onnxpack cannot generate"
            + ("" if meta.kind in ("tensor", "optional") else "; only tensors are supported")
        )
        out.recipe[name] = {"source": "unsupported", "type": meta.type}
        return True
    return False


def _fill(planned: list[_Planned], values: dict[str, str], ranges: dict[str, tuple[float, float]], seed: int,
          out: GeneratedInputs, conventions: Conventions | None = None) -> None:
    """Make the planned inputs: a given scalar value everywhere, else seeded generated values (as ``conventions``
    say, when given and the input has no --range)."""
    for meta, shape, dtype in planned:
        name = meta.name
        if name in values:
            v = _scalar(meta, values[name], dtype)
            arr = np.full(shape, v, dtype=dtype)
            out.feeds[name] = arr
            out.recipe[name] = {"source": "value", "value": values[name], "dtype": dtype_label(arr), "shape": shape}
            continue
        made = None if conventions is None or name in ranges else conventions.make(meta, shape, dtype, seed)
        why = ""
        if made is not None:
            arr, dist, why = made
        else:
            arr, dist = _generate(meta, shape, dtype, seed, ranges.get(name))
        out.feeds[name] = arr
        out.recipe[name] = {"source": "generated", "distribution": dist, "dtype": dtype_label(arr), "shape": shape}
        if why:
            out.recipe[name]["why"] = why


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
