"""A bundle's recorded smoke recipe, bounded before it runs: its values, its input files' headers and the size of
the inputs its dims make (a recipe is untrusted: nothing it names is allocated before it is judged)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from ...errors import InputError, OnnxpackError
from .. import codes
from ..zipcheck import iter_member, scan_archive
from .verify_manifest import ToHash
from .verify_report import VerifyReport, reported

__all__ = [
    "MAX_RECIPE_INPUT_BYTES",
    "Interface",
    "input_file_bytes",
    "judge_recipe",
    "manifest_interface",
    "recipe_files",
    "recipe_problem",
    "recorded_recipe",
]

#: The most bytes of inputs a bundle's recipe may make a smoke re-run hold (the dim search's own cap): a recipe
#: is untrusted, so its dims and input files are bounded before anything is allocated.
MAX_RECIPE_INPUT_BYTES = 1 << 30
#: numpy's (and so the smoke run's) highest array rank.
_MAX_RANK = 64
_NPY_MAGIC = b"\x93NUMPY"
_NPY_HEADER_MAX = 1 << 17  # numpy's own cap on a header it parses is 10,000 bytes by default; stay above it


def recorded_recipe(doc: dict[str, Any]) -> dict[str, Any] | None:
    smoke = doc.get("smoke")
    recipe = smoke.get("recipe") if isinstance(smoke, dict) else None
    return recipe if isinstance(recipe, dict) else None


def recipe_files(recipe: dict[str, Any] | None) -> dict[str, str]:
    """``{input name: member}`` of the recipe's file inputs."""
    out: dict[str, str] = {}
    for name, e in ((recipe or {}).get("inputs") or {}).items():
        if isinstance(e, dict) and e.get("source") == "file" and isinstance(e.get("file"), str):
            out[str(name)] = e["file"]
    return out


def _itemsize(elem: str) -> int:
    """Bytes per element of an ONNX element type name (``FLOAT``...); 8 for strings (an object pointer each) and
    for types numpy has no dtype for (an upper bound for every ONNX type)."""
    import numpy as np
    import onnx

    try:
        return int(np.dtype(onnx.helper.tensor_dtype_to_np_dtype(onnx.TensorProto.DataType.Value(elem))).itemsize)
    except (KeyError, TypeError, ValueError):
        return 8


Interface = list[tuple[str, str, list[int | str | None]]]


def _model_interface(model: Any) -> Interface:
    """The inputs a smoke run feeds: ``(name, element type name, shape)``; inputs backed by an initializer are
    not fed (their default is used) and non-tensor inputs cannot be generated."""
    from onnx import TensorProto

    inits = {t.name for t in model.graph.initializer}
    out: Interface = []
    for vi in model.graph.input:
        if vi.name in inits or not vi.type.HasField("tensor_type"):
            continue
        tt = vi.type.tensor_type
        shape: list[int | str | None] = []
        for d in tt.shape.dim:
            if d.HasField("dim_value") and d.dim_value >= 0:
                shape.append(int(d.dim_value))
            else:
                shape.append(d.dim_param or None)
        try:
            elem = str(TensorProto.DataType.Name(tt.elem_type))
        except ValueError:
            elem = "UNDEFINED"
        out.append((vi.name, elem, shape))
    return out


def manifest_interface(doc: dict[str, Any]) -> Interface:
    """The model's inputs as the manifest's inspection records them (when the model cannot be read in place)."""
    out: Interface = []
    for v in ((doc.get("inspection") or {}).get("inputs") or []):
        if not isinstance(v, dict):
            continue
        shape = [d if isinstance(d, (int, str)) and not isinstance(d, bool) else None for d in v.get("shape") or []]
        out.append((str(v.get("name")), str(v.get("elem_type")), shape))
    return out


def _npy_header(head: bytes) -> tuple[tuple[int, ...], Any, int]:
    """``(shape, dtype, header length)`` of the .npy whose first bytes are ``head`` (raises ValueError)."""
    import io

    from numpy.lib import format as npformat

    fh = io.BytesIO(head)
    version = npformat.read_magic(fh)  # type: ignore[no-untyped-call]
    # numpy's own header reader (public for versions 1.0 and 2.0; the one behind them also reads 3.0)
    reader: Any = getattr(npformat, "_read_array_header", None)
    if reader is None:
        raise ValueError("this numpy cannot read .npy headers")
    shape, _fortran, dtype = reader(fh, version, max_header_size=_NPY_HEADER_MAX)
    return tuple(int(d) for d in shape), dtype, fh.tell()


def _npy_bytes(head: bytes, stored: int, what: str) -> int:
    """Bytes the array of a .npy of ``stored`` bytes takes once loaded, from its header alone (raises ValueError
    saying why it cannot be loaded safely)."""
    shape, dtype, header = _npy_header(head)
    if dtype.hasobject:
        raise ValueError(f"{what} holds Python objects (a pickle), which are never loaded")
    if len(shape) > _MAX_RANK:
        raise ValueError(f"{what} has rank {len(shape)}, above {_MAX_RANK}")
    count = 1
    for d in shape:
        count *= d
    nbytes = count * max(int(dtype.itemsize), 0)
    if nbytes > MAX_RECIPE_INPUT_BYTES:
        raise ValueError(f"{what} declares a {list(shape)} {dtype} array of {nbytes} bytes, above the "
                         f"{MAX_RECIPE_INPUT_BYTES} bytes a recipe may make a smoke run load")
    if header + nbytes != stored:
        raise ValueError(f"{what} declares {nbytes} bytes of array data but holds {stored - header}")
    return nbytes


def input_file_bytes(path: Path, member: str | None, what: str) -> int:
    """Bytes the recipe's input file ``path`` loads into memory, judged from its headers and sizes before anything
    is loaded (raises ValueError saying why it cannot be loaded safely)."""
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(_NPY_HEADER_MAX)
        if head.startswith(_NPY_MAGIC):
            return _npy_bytes(head, size, what)
        if not head.startswith(b"PK"):  # an ONNX TensorProto: parsed whole, so its size is what it takes
            if size > MAX_RECIPE_INPUT_BYTES:
                raise ValueError(f"{what} has {size} bytes, above {MAX_RECIPE_INPUT_BYTES}")
            return size
        fh.seek(0)
        scan = scan_archive(fh, size)  # the .npz is a ZIP: judged by the same rules as a bundle
        bad = [p for p in scan.problems if p.code != "ZIP_RATIO"]  # the sizes are bounded below instead
        if bad:
            raise ValueError(f"{what} is not a sound .npz archive: {bad[0].message}")
        loads: dict[str, int] = {}
        for m in scan.members:
            label = f"{what} member {m.name!r} (stored {m.compressed_size} bytes, {m.size} unpacked)"
            if m.size > MAX_RECIPE_INPUT_BYTES + _NPY_HEADER_MAX:
                raise ValueError(f"{label} unpacks above the {MAX_RECIPE_INPUT_BYTES} bytes a recipe may make a "
                                 "smoke run load")
            first = b""
            for chunk in iter_member(fh, m):
                first += chunk
                if len(first) >= _NPY_HEADER_MAX:
                    break
            loads[m.name.removesuffix(".npy")] = _npy_bytes(first, m.size, label)
        chosen = [loads[member]] if member in loads else list(loads.values())
        return max(chosen, default=0)


def recipe_problem(doc: dict[str, Any], files: dict[str, Path], interface: Interface | None) -> str | None:
    """Why the bundle's recorded smoke recipe cannot be repeated safely (None when it can): the input files'
    headers and sizes, and the inputs its dims make, bounded by :data:`MAX_RECIPE_INPUT_BYTES` before anything is
    allocated. ``files``: the recipe's input files, extracted; ``interface``: the model's inputs."""
    recipe = recorded_recipe(doc)
    if recipe is None:
        return None
    for name, (lo, hi) in ((k, v) for k, v in (recipe.get("ranges") or {}).items() if isinstance(v, list)):
        span = float(hi) - float(lo)
        if span != span or span in (float("inf"), float("-inf")):
            return f"the value range of {name!r} [{lo}, {hi}] is wider than a float can hold"
    total = 0
    for name, path in sorted(files.items()):
        member = ((recipe.get("inputs") or {}).get(name) or {}).get("member")
        try:
            total += input_file_bytes(path, member if isinstance(member, str) else None, f"input file {path.name}")
        except ValueError as e:
            return str(e)
        except OSError as e:
            return f"input file {path.name} cannot be read: {e.strerror}"
    dims = {str(k): v for k, v in (recipe.get("dims") or {}).items() if isinstance(v, int)}
    default = recipe.get("default_dim", 1)
    default = default if isinstance(default, int) and not isinstance(default, bool) else 1
    for name, elem, shape in interface or []:
        if name in files:
            continue
        if len(shape) > _MAX_RANK:
            return f"input {name!r} has rank {len(shape)}, above {_MAX_RANK}"
        count = 1
        resolved = []
        for axis, d in enumerate(shape):
            n = d if isinstance(d, int) else dims.get(d or f"{name}[{axis}]", default)
            resolved.append(n)
            count *= max(n, 0)
        total += count * _itemsize(elem)
        if total > MAX_RECIPE_INPUT_BYTES:
            return (f"its inputs would take more than {MAX_RECIPE_INPUT_BYTES} bytes (input {name!r} alone: "
                    f"{elem} {resolved}, {count * _itemsize(elem)} bytes)")
    return None


def judge_recipe(doc: dict[str, Any], archive: Path, to_hash: ToHash, tmp: Path | None, files: dict[str, str],
                 rep: VerifyReport) -> None:
    """Report a recorded recipe that could not be repeated safely (plain verify too): its values, the members it
    names, its input files' headers and the size of the inputs its dims make for the model's interface (read from
    the model itself when it is stored uncompressed or extracted, else from the manifest's inspection)."""
    from ...runtime.smoke import SmokeOptions

    recipe = recorded_recipe(doc)
    assert recipe is not None
    entry = doc["model"]["entry"]
    members = set(files.values()) if tmp is not None else set()
    try:
        SmokeOptions.from_recipe(recipe, base_dir=tmp, members=members)
    except InputError as e:  # the bundle's fault, never a usage error of the command line
        rep.problems.append(reported(e, entry, "RECIPE" if e.code == "USAGE" else None))
        return
    interface = _stored_interface(entry, archive, to_hash, tmp)
    extracted = {n: tmp / m for n, m in files.items()} if tmp is not None else {}
    why = recipe_problem(doc, extracted, interface if interface is not None else manifest_interface(doc))
    if why is not None:
        rep.problems.append(codes.SMOKE_FAILED.finding(entry, variant="recipe_inputs", detail=why))


def _stored_interface(entry: str, archive: Path, to_hash: ToHash, tmp: Path | None) -> Interface | None:
    """The model's inputs read from the model itself: extracted into ``tmp``, or in place in the archive when it
    is stored uncompressed (None when neither, or when it cannot be read)."""
    from ...model.modelfile import load_structure

    stored = to_hash.get(entry)
    with contextlib.suppress(OnnxpackError):
        if tmp is not None and (tmp / entry).is_file():
            return _model_interface(load_structure(tmp / entry))
        if stored is not None and stored[1].method == 0:
            return _model_interface(load_structure(archive, (stored[1].data_offset, stored[1].size)))
    return None
