"""Code that runs inside the smoke child process: open ORT sessions safely, run, search dims, hash, compare.

The parent (core.smoke) starts :func:`child_main` with the 'spawn' start method and passes plain data
(paths, dicts, numpy arrays). Everything here may crash in native code; the parent survives that.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import math
import mmap
import re
import statistics
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError, OnnxpackError, RuntimeFailure
from ..units import format_bytes
from .inputs import SEARCH_VALUES, GeneratedInputs, InputMeta, generate_inputs

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_SEARCH_INPUT_BYTES",
    "OpenedSession",
    "child_main",
    "compare_values",
    "describe_output",
    "digest",
    "is_batch_like",
    "load_failure_hint",
    "open_session",
    "run_job",
]

#: At most this many runs with common sizes (the first one included) per smoke run; the sizes ONNX Runtime's
#: messages name add at most MAX_MESSAGE_ATTEMPTS more.
MAX_ATTEMPTS = 16
#: Search candidates whose generated inputs would exceed this many bytes are skipped.
MAX_SEARCH_INPUT_BYTES = 1 << 30
_BATCH_NAME = re.compile(r"(^|[^a-z])(batch|bs|n|b)([^a-z]|$)|batch", re.IGNORECASE)
_ORT_PREFIX = re.compile(r"^\[ONNXRuntimeError\]\s*:\s*\d+\s*:\s*\w+\s*:\s*")

Send = Callable[[str, Any], None]


def clean_ort_message(e: BaseException) -> str:
    """ORT's message without the '[ONNXRuntimeError] : 2 : INVALID_ARGUMENT :' prefix, on one line."""
    text = _ORT_PREFIX.sub("", str(e).strip())
    return " ".join(text.split())


@dataclass
class OpenedSession:
    """An InferenceSession plus the buffers it borrows (they must outlive it)."""

    session: Any
    create_s: float
    how: str
    keep: list[Any] = field(default_factory=list)


def _session_options(empty_dir: str) -> Any:
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.log_severity_level = 4  # errors reach the user through our messages, not ORT's console log
    # Anything ORT might still try to resolve on disk is looked up in this EMPTY folder, never next to
    # the model or in the current directory (security.md rule 3).
    so.add_session_config_entry("session.model_external_initializers_file_folder_path", empty_dir)
    return so


def _main_initializer_refs(model: Any, refs: list[Any]) -> tuple[list[Any], list[Any]]:
    """Split external refs into (main-graph initializers ORT can take as OrtValues, everything else)."""
    import onnx

    main_label = f"graph '{model.graph.name or 'main'}'"
    counts: dict[str, int] = {}
    for t in model.graph.initializer:
        counts[t.name] = counts.get(t.name, 0) + 1
    as_values, inline = [], []
    for r in refs:
        t = r.ref.tensor
        np_ok = True
        try:
            dt = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(t.data_type))
            np_ok = dt.kind in "fiub" and dt.itemsize in (1, 2, 4, 8) and dt.name != "bfloat16"
            np_ok = np_ok and onnx.helper.np_dtype_to_tensor_dtype(dt) == t.data_type
        except (KeyError, TypeError, ValueError):
            np_ok = False
        if r.ref.where == "initializer" and r.ref.graph == main_label and counts.get(t.name) == 1 and np_ok:
            as_values.append(r)
        else:
            inline.append(r)
    return as_values, inline


def _consumed_names(model: Any) -> set[str]:
    """Names ONNX Runtime keeps an initializer for: the main graph's inputs and outputs and every node input,
    in the main graph and in the subgraphs of its nodes (their outer-scope references).

    ORT removes every other main-graph initializer when it first resolves the graph ("Removing initializer
    'W'. It is not used by any node"), and ``add_external_initializers`` then fails for a name that is gone
    ("ReplaceInitializedTensorImpl Failed to find existing initializer"). Functions are not walked: their
    bodies cannot refer to graph initializers.
    """
    g = model.graph
    used = {v.name for v in g.input} | {v.name for v in g.output}
    stack = [g]
    while stack:
        graph = stack.pop()
        for node in graph.node:
            used.update(node.input)
            for attr in node.attribute:
                if attr.HasField("g"):
                    stack.append(attr.g)
                stack.extend(attr.graphs)
    return used


def _drop_initializers(model: Any, names: set[str]) -> None:
    """Remove the main-graph initializers called ``names`` from ``model`` (our private copy)."""
    inits = model.graph.initializer
    for i in range(len(inits) - 1, -1, -1):
        if inits[i].name in names:
            del inits[i]


def open_session(model: dict[str, Any], empty_dir: str) -> OpenedSession:
    """Create a CPU InferenceSession without ever letting ORT resolve an external-data path.

    * ORT-format and self-contained ONNX files: ORT gets the bytes we read.
    * External data: the structure is validated (core.extdata, security.md rule 1) and ORT gets the
      model bytes plus the validated tensor bytes — main-graph initializers as OrtValues over a
      read-only memory map (``add_external_initializers``, no copy on our side), every other
      external tensor (subgraphs, Constant attributes, sparse parts, exotic types) inlined into
      our private copy of the proto. Their locations are rewritten to a name that exists nowhere,
      and ORT's lookup folder is an empty directory.
    """
    import onnxruntime as ort

    from ..model.extdata import ExternalDataReader, resolve_external_data
    from ..model.modelfile import PROTOBUF_LIMIT, load_structure
    from ..model.tensors import uses_external_data

    path = Path(model["path"])
    so = _session_options(empty_dir)
    keep: list[Any] = []
    maps: list[mmap.mmap] = []
    t0 = time.perf_counter()
    if model["kind"] == "ort":
        data: bytes = path.read_bytes()
        so.add_session_config_entry("session.load_model_format", "ORT")
        how = "ort-format bytes"
    else:
        window = model.get("window")
        window = (int(window[0]), int(window[1])) if window else None
        proto = load_structure(path, window)
        table = resolve_external_data(proto, Path(model["data_dir"]))
        table.raise_if_invalid()
        if not table.refs:
            del proto, table  # (a structure of millions of attribute entries is larger than the file: not kept)
            data = _read_model_bytes(path, window)
            how = "model bytes"
        else:
            as_values, inline = _main_initializer_refs(proto, table.refs)
            # An initializer no node uses is removed by ORT before it takes ours: never read or give it.
            consumed = _consumed_names(proto)
            unused = {r.ref.tensor.name for r in as_values if r.ref.tensor.name not in consumed}
            as_values = [r for r in as_values if r.ref.tensor.name not in unused]
            names: list[str] = []
            values: list[Any] = []
            import onnx

            with ExternalDataReader(table) as reader:
                for r in inline:
                    t = r.ref.tensor
                    t.raw_data = reader.read(r)
                    del t.external_data[:]
                    t.data_location = onnx.TensorProto.DEFAULT
                for r in as_values:
                    t = r.ref.tensor
                    dt = np.dtype(onnx.helper.tensor_dtype_to_np_dtype(t.data_type))
                    arr = np.frombuffer(reader.view(r), dtype=dt).reshape([int(d) for d in t.dims])
                    keep.append(arr)
                    names.append(t.name)
                    values.append(ort.OrtValue.ortvalue_from_numpy(arr))
                    for entry in t.external_data:
                        if entry.key == "location":
                            entry.value = "onnxpack-supplied-in-memory.bin"
                maps = reader.mapped()
            for r in as_values:
                if not uses_external_data(r.ref.tensor):  # pragma: no cover - defensive
                    raise RuntimeFailure("internal: initializer lost its external marker")
            _drop_initializers(proto, unused)
            if proto.ByteSize() >= PROTOBUF_LIMIT:
                raise RuntimeFailure(
                    f"{path.name}: the tensors that must be embedded make the model exceed 2 GiB",
                    "Large tensors inside subgraphs or Constant nodes cannot be smoke-run in memory; "
                    "move them to main-graph initializers.",
                    code="SMOKE_TOO_LARGE",
                )
            data = proto.SerializeToString()
            del proto
            keep.extend(values)
            if names:
                so.add_external_initializers(names, values)
            how = f"model bytes + {len(as_values)} in-memory initializer(s) + {len(inline)} inlined tensor(s)"
            if unused:
                how += f"; {len(unused)} initializer(s) that no node uses left out (ONNX Runtime removes them)"
    try:
        with _pages_released(maps):
            session = ort.InferenceSession(data, sess_options=so, providers=["CPUExecutionProvider"])
    except Exception as e:
        raise _load_failure(model, e) from None
    return OpenedSession(session, time.perf_counter() - t0, how, keep)


def _read_model_bytes(path: Path, window: tuple[int, int] | None) -> bytes:
    """A small model's bytes (one with no tensor left in the file), whole or from its byte range."""
    if window is None:
        return path.read_bytes()
    with open(path, "rb") as f:
        f.seek(window[0])
        data = f.read(window[1])
    if len(data) != window[1]:
        raise RuntimeFailure(f"{path.name} got shorter while it was read", "Run the command again.",
                             code="MODEL_TRUNCATED")
    return data


@contextlib.contextmanager
def _pages_released(maps: list[mmap.mmap], every: float = 0.05) -> Iterator[None]:
    """While ORT creates the session, keep dropping the weight pages it has read from this process's memory.

    ORT copies (pre-packs) the initializers it gets as OrtValues while it creates the session; the mapped pages it
    read them from stay counted in the process's resident memory although they are clean page cache, so the peak
    was the weights twice (1.9 GB model: 3.79 GB, bare onnxruntime 3.4 GB). ``MADV_DONTNEED`` every 50 ms hands
    them back (the maps are read-only views of files: a later read faults the same bytes in from the page cache),
    so the peak is ORT's own copy (2.0 GB). Where ``mmap.madvise`` is missing (Windows) nothing is done.
    """
    if not maps or not hasattr(mmap.mmap, "madvise") or not hasattr(mmap, "MADV_DONTNEED"):
        yield
        return
    stop = threading.Event()

    def release() -> None:
        for m in maps:
            with contextlib.suppress(ValueError, OSError):  # a map closed meanwhile: nothing to hand back
                m.madvise(mmap.MADV_DONTNEED)

    def loop() -> None:
        while not stop.wait(every):
            release()

    worker = threading.Thread(target=loop, name="onnxpack-release-pages", daemon=True)
    worker.start()
    try:
        yield
    finally:
        stop.set()
        worker.join()
        release()


def _load_failure(model: dict[str, Any], e: BaseException) -> RuntimeFailure:
    msg = clean_ort_message(e)
    label = model.get("label") or Path(model["path"]).name
    return RuntimeFailure(f"ONNX Runtime cannot load {label}: {msg}", load_failure_hint(msg), code="ORT_LOAD",
                          details=str(e))


def load_failure_hint(msg: str) -> str:
    """What to do about ONNX Runtime's reason ``msg`` for refusing to create a session: the hint says what the
    message says (a missing host locale is not a malformed model)."""
    low = msg.lower()
    locale = re.search(r"locale with name:\s*([^:\s]*)", msg)
    if locale or "_s_create_c_locale" in low:
        name = locale.group(1) if locale and locale.group(1) else "it names"
        return (f"The model is not at fault: it needs the locale {name} (a StringNormalizer's), which this machine "
                "does not have. Install it (Debian/Ubuntu: add it to /etc/locale.gen and run locale-gen) and run "
                "again; every machine that runs the model needs it too.")
    m = re.search(r"([\w.]*):(\w+)\(-?\d+\) is not a registered function/op", msg)
    if m or "not a registered function/op" in msg:
        domain = (m.group(1) or "ai.onnx") if m else ""
        what = f"operator {m.group(2)} of domain '{domain}'" if m else "an operator"
        if domain == "ai.onnx.preview.training":
            return (f"The model uses {what}, an ONNX training operator that ONNX Runtime's inference packages do "
                    "not implement; export the model for inference (without training operators).")
        if domain.startswith("ai.onnx.preview"):
            return (f"The model uses {what}, an ONNX preview operator this ONNX Runtime does not implement: a newer "
                    "ONNX Runtime may, or re-export the model without it.")
        if domain in ("ai.onnx", "ai.onnx.ml"):
            return (f"The model uses {what}, which this ONNX Runtime does not know at the model's opset: a newer "
                    "ONNX Runtime may, or re-export the model with a lower opset.")
        return (f"The model uses {what}, which this ONNX Runtime does not implement. It needs a custom-op library "
                "(onnxpack does not load those) or a re-export with standard ONNX operators.")
    kernel = re.search(r"(?:Could not find an implementation for|Failed to find kernel for) (\w+)\((\d+)\)", msg)
    if kernel and int(kernel.group(2)) < 7:
        return (f"The model uses {kernel.group(1)} of opset {kernel.group(2)}, older than ONNX Runtime implements "
                "(opset 7 and newer): convert it to a newer opset (onnx.version_converter.convert_version).")
    if kernel:
        return (f"ONNX Runtime's CPU provider has no kernel for {kernel.group(1)} (opset {kernel.group(2)}) with the "
                "element types this model uses: a newer ONNX Runtime may have one; otherwise re-export the model "
                "with supported types (e.g. float instead of float8, int4 or bfloat16).")
    if "unsupported model ir version" in low or ("ir version" in low and "support" in low):
        return ("The model's IR version is newer than this ONNX Runtime reads: use a newer ONNX Runtime, or "
                "`onnxpack bundle --target-ort X.Y --fix-ir` if `onnxpack check` says lowering it is enough.")
    if "opset" in low and ("support" in low or "unknown" in low):
        return "The model's opset is newer than this ONNX Runtime supports; run `onnxpack check` for the details."
    if "protobuf parsing failed" in low:
        return "The file is not a valid ONNX model (damaged or truncated); export it again."
    if "shapeinferenceerror" in low or "typeinferenceerror" in low or "type error" in low:
        return ("ONNX Runtime's type and shape inference rejects the model: its graph is inconsistent. Run "
                "`onnxpack check` on it (the onnx checker names the node) and fix or re-export the model.")
    if "not supported" in low or "unsupported" in low:
        return ("This ONNX Runtime does not support what the model asks of an operator (the message says what): a "
                "newer ONNX Runtime may, or re-export the model without it (e.g. an RNN with layout=0).")
    return "Run `onnxpack check` on the model; it may need a newer ONNX Runtime or be malformed."


def input_metas(session: Any) -> list[InputMeta]:
    metas = [InputMeta(i.name, i.type, list(i.shape)) for i in session.get_inputs()]
    metas += [
        InputMeta(i.name, i.type, list(i.shape), overridable=True) for i in session.get_overridable_initializers()
    ]
    return metas


def _hash_into(h: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "OUS":
            for item in value.reshape(-1, order="C"):
                raw = (item.decode("utf-8", "surrogateescape") if isinstance(item, bytes) else str(item)).encode(
                    "utf-8", "surrogateescape"
                )
                h.update(len(raw).to_bytes(8, "little"))
                h.update(raw)
        else:
            h.update(np.ascontiguousarray(value).data)
    elif isinstance(value, (list, tuple)):
        h.update(b"[%d" % len(value))
        for v in value:
            _hash_into(h, np.asarray(v))
    elif isinstance(value, dict):
        h.update(b"{%d" % len(value))
        for k in sorted(value, key=repr):
            h.update(repr(k).encode("utf-8"))
            _hash_into(h, np.asarray(value[k]))
    else:
        _hash_into(h, np.asarray(value))


def digest(value: Any) -> str:
    """SHA-256 of an output's bytes.

    Tensors: the raw bytes of the array in C (row-major) order and its native little-endian dtype
    (``numpy.ascontiguousarray(a).tobytes()``); shape and dtype are reported separately. String
    tensors: each element (C order) as UTF-8, prefixed by its byte length as 8-byte little-endian.
    Sequences/maps: a canonical concatenation of their elements.
    """
    h = hashlib.sha256()
    _hash_into(h, value)
    return h.hexdigest()


def _float_or_none(x: Any) -> float | None:
    v = float(x)
    return v if math.isfinite(v) else None


def describe_output(name: str, value: Any, elem_type: str) -> dict[str, Any]:
    """Facts about one output: type, shape, finiteness, constancy, digest (JSON-safe)."""
    d: dict[str, Any] = {"name": name, "elem_type": elem_type, "sha256": digest(value)}
    if not isinstance(value, np.ndarray):
        d.update(dtype=type(value).__name__, shape=None, finite=None, nan_count=0, inf_count=0, constant=None,
                 min=None, max=None, size=len(value) if hasattr(value, "__len__") else None)
        return d
    a = value
    d.update(
        dtype="string" if a.dtype.kind in "OUS" else str(a.dtype), shape=[int(s) for s in a.shape], size=int(a.size)
    )
    nan = inf = 0
    finite: bool | None = None
    lo = hi = None
    if a.dtype.kind in "fc":
        nan = int(np.count_nonzero(np.isnan(a)))
        inf = int(np.count_nonzero(np.isinf(a)))
        finite = nan == 0 and inf == 0
        fin = a[np.isfinite(a)] if not finite else a
        if fin.size:
            lo, hi = _float_or_none(np.min(fin)), _float_or_none(np.max(fin))
    elif a.dtype.kind in "iub" and a.size:
        lo, hi = float(np.min(a)), float(np.max(a))
    constant: bool | None = None
    if a.size > 1:
        flat = a.reshape(-1)
        constant = True if a.dtype.kind in "fc" and nan == a.size else bool(np.all(flat == flat[0]))
    d.update(finite=finite, nan_count=nan, inf_count=inf, constant=constant, min=lo, max=hi)
    if constant:
        first = a.reshape(-1)[0]
        d["constant_value"] = (
            str(first) if a.dtype.kind in "OUS" else (_float_or_none(first) if a.dtype.kind in "fc" else first.item())
        )
    return d


def compare_values(name: str, a: Any, b: Any, atol: float, rtol: float) -> dict[str, Any]:
    """Compare one output of the original (``a``) with the other model's (``b``).

    Pass line (numpy.isclose with ``a`` as reference): ``|b - a| <= atol + rtol * |a|``, NaN only
    where the original has NaN, infinities equal. ``max_rel`` is ``max |b - a| / |a|`` over elements
    with ``a != 0``.
    """
    r: dict[str, Any] = {"name": name, "bitwise_equal": False, "max_abs": None, "max_rel": None,
                         "mismatched": None, "within_tolerance": False, "problem": None}
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
        eq = digest(a) == digest(b)
        r.update(bitwise_equal=eq, within_tolerance=eq, problem=None if eq else "non-tensor outputs differ")
        return r
    if a.shape != b.shape:
        r["problem"] = f"shape {list(a.shape)} vs {list(b.shape)}"
        return r
    a_str, b_str = a.dtype.kind in "OUS", b.dtype.kind in "OUS"
    if a.dtype != b.dtype and not (a_str and b_str):
        r["problem"] = f"dtype {a.dtype} vs {b.dtype}"
        return r
    if a_str:
        eq = digest(a) == digest(b)
        mism = int(np.count_nonzero(a.astype(str) != b.astype(str))) if a.size else 0
        r.update(bitwise_equal=eq, within_tolerance=eq, mismatched=mism)
        return r
    bitwise = bool(np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes())
    r["bitwise_equal"] = bitwise
    if bitwise:
        r.update(max_abs=0.0, max_rel=0.0, mismatched=0, within_tolerance=True)
        return r
    af, bf = a.astype(np.float64), b.astype(np.float64)
    nan_a, nan_b = np.isnan(af), np.isnan(bf)
    same_special = (nan_a & nan_b) | (np.isinf(af) & (af == bf))
    with np.errstate(invalid="ignore", over="ignore"):
        diff = np.where(same_special, 0.0, np.abs(bf - af))
    diff = np.where(nan_a ^ nan_b, np.inf, diff)
    fin = diff[np.isfinite(diff)]
    r["max_abs"] = float(fin.max()) if fin.size else 0.0
    nz = (af != 0) & np.isfinite(af) & np.isfinite(diff)
    r["max_rel"] = float((diff[nz] / np.abs(af[nz])).max()) if np.any(nz) else 0.0
    ok = diff <= atol + rtol * np.abs(np.where(np.isfinite(af), af, 0.0))
    mism = int(np.count_nonzero(~ok))
    r["mismatched"] = mism
    r["within_tolerance"] = mism == 0
    if not np.all(np.isfinite(diff)):
        r["problem"] = "NaN/Inf in different places"
    return r


def _elem_types(session: Any) -> dict[str, str]:
    return {o.name: o.type for o in session.get_outputs()}


def _run(session: Any, feeds: dict[str, Any]) -> tuple[list[Any], float]:
    t0 = time.perf_counter()
    out = session.run(None, feeds)
    return list(out), time.perf_counter() - t0


def _unresolved(gen: GeneratedInputs, fixed_by_user: set[str]) -> list[str]:
    return [k for k, src in gen.dim_sources.items() if src in ("default", "search") and k not in fixed_by_user]


def is_batch_like(name: str) -> bool:
    """Dims named like a batch size stay 1 in the first search pass (they rarely have a minimum)."""
    return bool(_BATCH_NAME.search(name))


def _search_plan(keys: list[str], budget: int) -> Iterator[dict[str, int]]:
    """Candidate dim assignments: non-batch dims uniformly over SEARCH_VALUES (batch-like dims at 1),
    then all dims together; bounded by ``budget``."""
    batch = [k for k in keys if is_batch_like(k)]
    other = [k for k in keys if k not in batch]
    plans: list[dict[str, int]] = []
    if other:
        for v in SEARCH_VALUES[1:]:
            plans.append({**{k: v for k in other}, **{k: 1 for k in batch}})
    if batch:
        for v in SEARCH_VALUES[1:]:
            plans.append({k: v for k in keys})
    seen: set[tuple[tuple[str, int], ...]] = set()
    for p in plans:
        key = tuple(sorted(p.items()))
        if key in seen:
            continue
        seen.add(key)
        if budget <= 0:
            return
        budget -= 1
        yield p


#: At most this many attempts of the search follow sizes named in ONNX Runtime's messages (on top of the
#: MAX_ATTEMPTS - 1 with common sizes, which a message full of numbers thus cannot crowd out).
MAX_MESSAGE_ATTEMPTS = 6
#: Sizes taken from a message are at most this (a larger number is an index, a byte count...).
_MAX_MESSAGE_DIM = 1 << 16
_SOURCE_LOCATION = re.compile(r"[\w./\\-]+\.(?:h|hh|hpp|c|cc|cpp|cu):\d+")
_SHAPE_TEXT = re.compile(r"[{\[(]\s*(-?\d+(?:\s*,\s*-?\d+)*)\s*[}\])]")
_INDEX_WORDS = ("idx", "indices", "index", "out of bound", "out-of-bound", "out of range")


def _message_sizes(message: str, current: dict[str, int]) -> list[int]:
    """Sizes ONNX Runtime's ``message`` names that differ from the current dims, most telling first.

    First the values where two shapes of the same rank differ ("Input W must have shape {1,16,1}.
    Actual:{1,16,266}" names 266 where we gave 1), then every other number in order of appearance. Source
    locations ("matmul_helper.h:59"), values of 0 or 1, values we already use and values above 65536 are not
    sizes. A message about an index out of bounds names the table's size, not a dim: nothing is taken from it.
    """
    text = _SOURCE_LOCATION.sub(" ", message)
    if any(w in text.lower() for w in _INDEX_WORDS):
        return []
    used = set(current.values())
    out: list[int] = []

    def add(v: int) -> None:
        if 2 <= v <= _MAX_MESSAGE_DIM and v not in used and v not in out:
            out.append(v)

    shapes = [[int(x) for x in m.split(",")] for m in _SHAPE_TEXT.findall(text)]
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            if len(a) == len(b):
                for x, y in zip(a, b, strict=True):
                    if x != y and x in used:
                        add(y)
                    elif x != y and y in used:
                        add(x)
    for m in re.finditer(r"(?<![\w.])-?\d+(?![\w.])", text):
        add(abs(int(m.group())))
    return out


def _message_plans(message: str, base: dict[str, int]) -> list[dict[str, int]]:
    """Assignments that give one unresolved dim a size the message names (the other dims stay as in ``base``);
    non-batch dims first."""
    keys = sorted(base, key=is_batch_like)
    return [{**base, k: v} for v in _message_sizes(message, base) for k in keys]


def _same_failure(a: str | None, b: str | None) -> bool:
    """Two messages that differ only in their numbers report the same failure."""
    return a is not None and b is not None and re.sub(r"\d+", "#", a) == re.sub(r"\d+", "#", b)


def _search(unresolved: list[str], base: dict[str, int], first_error: str,
            attempt: Callable[[dict[str, int]], str | None], attempts: list[dict[str, Any]]) -> dict[str, int] | None:
    """Try sizes for the ``unresolved`` dims until a run passes; return the sizes that worked, or None.

    The sizes ONNX Runtime's error names come first (an LSTM whose input size is a symbolic dim fails with
    "Input W must have shape {1,16,1}. Actual:{1,16,266}": 266 is tried for each dim), and a failed attempt
    with a new failure adds what its message names (depth first: the runtime leads the way); at most
    MAX_MESSAGE_ATTEMPTS of them. Then the common sizes of :func:`_search_plan`, at most MAX_ATTEMPTS - 1.
    ``attempt(dims)`` runs and returns None or the error.
    """
    tried = {tuple(sorted(base.items()))}
    queue: list[tuple[dict[str, int], str]] = [(p, first_error) for p in _message_plans(first_error, base)]
    budgets = {"runtime message": MAX_MESSAGE_ATTEMPTS, "common sizes": MAX_ATTEMPTS - 1}
    pinned: dict[str, int] = {}  # sizes from messages that got the run past a failure (a Conv's channels)

    def common() -> Iterator[dict[str, int]]:
        for p in _search_plan(unresolved, MAX_ATTEMPTS - 1):
            if pinned:
                yield {**p, **pinned}  # the common sizes for the other dims
            yield p

    generic = common()
    while True:
        if queue and budgets["runtime message"] > 0:
            (plan, before), source = queue.pop(0), "runtime message"
        else:
            nxt = next(generic, None)
            if nxt is None or budgets["common sizes"] <= 0:
                return None
            plan, before, source = nxt, "", "common sizes"
        key = tuple(sorted(plan.items()))
        if key in tried:
            continue
        tried.add(key)
        budgets[source] -= 1
        error = attempt(plan)
        attempts.append({"dims": plan, "ok": error is None, "error": error, "source": source})
        if error is None:
            return plan
        if error.startswith("skipped:") or _same_failure(error, before or first_error):
            continue  # the same failure names the same numbers again
        if source == "runtime message":  # it got past ``before``: that message's other readings are moot
            pinned.update({k: v for k, v in plan.items() if v != base[k]})
            queue = [q for q in queue if q[1] != before]
        queue[:0] = [(p, error) for p in _message_plans(error, plan) if tuple(sorted(p.items())) not in tried]


def _hook(job: dict[str, Any], when: str) -> None:
    """Test-only fault injection (set by tests through core.smoke._TEST_HOOK)."""
    hook = job.get("hook")
    if not hook or hook.get("when") != when:
        return
    if hook["action"] == "segfault":
        import ctypes

        ctypes.string_at(0)  # NULL dereference: a real native crash, on every OS
    elif hook["action"] == "sleep":
        time.sleep(float(hook.get("seconds", 3600)))
    elif hook["action"] == "raise":
        raise ValueError("injected failure")


def run_job(job: dict[str, Any], send: Send) -> dict[str, Any]:
    """Run one smoke job (primary model, optional comparison model); return a plain-data result."""
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    _hook(job, "start")
    opts = job["options"]
    models = job["models"]
    runs = int(opts["runs"])
    steps = (1 + runs) * len(models) + 1
    step = [0]

    def progress(msg: str) -> None:
        step[0] += 1
        send("progress", {"done": min(step[0], steps), "total": steps, "message": msg})

    send("stage", f"creating the ONNX Runtime session for {models[0]['label']}")
    primary = open_session(models[0], job["empty_dir"])
    progress(f"session created ({primary.create_s:.2f} s)")
    _hook(job, "session")
    metas = input_metas(primary.session)
    user_dims = dict(opts["dims"])
    supplied = dict(job.get("supplied") or {})

    def make(search_dims: dict[str, int] | None = None) -> GeneratedInputs:
        return generate_inputs(
            metas, seed=int(opts["seed"]), dims=user_dims, supplied=supplied, values=opts["values"],
            ranges={k: tuple(v) for k, v in opts["ranges"].items()}, default_dim=int(opts["default_dim"]),
            search_dims=search_dims, max_bytes=None if search_dims is None else MAX_SEARCH_INPUT_BYTES,
        )

    gen = make()
    result: dict[str, Any] = {
        "ort_version": ort.__version__,
        "provider": (primary.session.get_providers() or ["?"])[0],
        "models": [],
        "search": {"enabled": bool(opts["search"]), "attempts": [], "found": None},
        "failure": None,
        "compare": None,
        "arrays": None,
    }
    if gen.problems or gen.too_large:
        result["failure"] = {"message": "; ".join(gen.problems or gen.too_large), "kind": "inputs",
                             "inputs": gen.recipe, "dims": gen.dims, "dim_sources": gen.dim_sources}
        if not gen.problems:
            result["failure"].update(kind="too_large", size=format_bytes(gen.planned_bytes),
                                     limit=format_bytes(gen.limit_bytes))
        result.update(inputs=gen.recipe, dims=gen.dims, dim_sources=gen.dim_sources)
        return result
    send("stage", f"running {models[0]['label']}")
    attempts: list[dict[str, Any]] = result["search"]["attempts"]
    first_error: str | None = None
    outputs: list[Any] | None = None
    first_s = 0.0
    try:
        outputs, first_s = _run(primary.session, gen.feeds)
    except Exception as e:
        first_error = clean_ort_message(e)
    if outputs is None:
        first_gen = gen
        unresolved = _unresolved(gen, set(user_dims))
        if opts["search"] and unresolved and first_error is not None:
            send("stage", f"searching sizes for {', '.join(unresolved)}")
            passed: dict[str, Any] = {}

            def attempt(plan: dict[str, int]) -> str | None:
                cand = make(plan)  # nothing is allocated when the inputs would exceed MAX_SEARCH_INPUT_BYTES
                if cand.too_large or cand.problems:
                    return "skipped: inputs would exceed 1 GiB" if cand.too_large else "skipped: " + cand.problems[0]
                try:
                    passed["outputs"], passed["first_s"] = _run(primary.session, cand.feeds)
                except Exception as e:
                    return clean_ort_message(e)
                passed["gen"] = cand
                return None

            found = _search(unresolved, {k: gen.dims[k] for k in unresolved}, first_error, attempt, attempts)
            if found is not None:
                result["search"]["found"] = found
                gen, outputs, first_s = passed["gen"], passed["outputs"], passed["first_s"]
        if outputs is None:
            result["failure"] = {"message": first_error, "kind": "run", "inputs": first_gen.recipe,
                                 "dims": first_gen.dims, "dim_sources": first_gen.dim_sources,
                                 "unresolved": unresolved}
            result.update(inputs=first_gen.recipe, dims=first_gen.dims, dim_sources=first_gen.dim_sources)
            return result
        result["search"]["initial_error"] = first_error
    result.update(inputs=gen.recipe, dims=gen.dims, dim_sources=gen.dim_sources)
    progress("first run done")
    assert outputs is not None
    result["models"].append(_timed_runs(primary, outputs, first_s, gen.feeds, runs, progress, models[0]["label"]))
    if job.get("return_outputs"):
        names = [o.name for o in primary.session.get_outputs()]
        result["arrays"] = dict(zip(names, outputs, strict=True))
    if len(models) > 1:
        first_outputs = dict(zip([o.name for o in primary.session.get_outputs()], outputs, strict=True))
        del primary
        gc.collect()
        result["compare"] = _compare_other(job, models[1], gen, first_outputs, runs, progress, send)
        result["models"].append(result["compare"].pop("model"))
    return result


def _timed_runs(
    opened: OpenedSession, outputs: list[Any], first_s: float, feeds: dict[str, Any], runs: int,
    progress: Callable[[str], None], label: str,
) -> dict[str, Any]:
    session = opened.session
    names = [o.name for o in session.get_outputs()]
    types = _elem_types(session)
    first_digests = [digest(v) for v in outputs]
    times = [first_s]
    nondet: set[str] = set()
    for i in range(1, runs):
        again, secs = _run(session, feeds)
        times.append(secs)
        for n, v, d in zip(names, again, first_digests, strict=True):
            if digest(v) != d:
                nondet.add(n)
        progress(f"run {i + 1}/{runs} of {label}")
    descs = []
    for n, v in zip(names, outputs, strict=True):
        descs.append(describe_output(n, v, _elem_name(types.get(n, ""))))
    return {
        "label": label,
        "load": opened.how,
        "create_s": opened.create_s,
        "first_run_s": first_s,
        "run_times": times,
        "median_run_s": statistics.median(times),
        "outputs": descs,
        "nondeterministic": sorted(nondet),
    }


def _elem_name(ort_type: str) -> str:
    """'tensor(float)' -> 'FLOAT' (ONNX TensorProto names, as `inspect` reports them)."""
    m = re.fullmatch(r"tensor\((\w+)\)", ort_type)
    if not m:
        return ort_type.upper() or "UNKNOWN"
    return {"float": "FLOAT", "double": "DOUBLE", "float16": "FLOAT16", "bfloat16": "BFLOAT16"}.get(
        m.group(1), m.group(1).upper()
    )


def _compare_other(
    job: dict[str, Any], model: dict[str, Any], gen: GeneratedInputs, first: dict[str, Any], runs: int,
    progress: Callable[[str], None], send: Send,
) -> dict[str, Any]:
    opts = job["options"]
    send("stage", f"creating the ONNX Runtime session for {model['label']}")
    other = open_session(model, job["empty_dir"])
    progress(f"session created ({other.create_s:.2f} s)")
    metas = input_metas(other.session)
    wanted = {m.name for m in metas if not m.overridable and m.kind != "optional"}
    missing = sorted(wanted - set(gen.feeds))
    if missing:
        raise InputError(
            f"{model['label']} needs input(s) {', '.join(missing)} that {job['models'][0]['label']} does not have",
            "Only models with the same inputs can be compared.",
            code="COMPARE_INPUTS",
        )
    names_other = {m.name for m in metas}
    feeds = {k: v for k, v in gen.feeds.items() if k in names_other}
    send("stage", f"running {model['label']}")
    try:
        outputs, first_s = _run(other.session, feeds)
    except Exception as e:
        raise RuntimeFailure(
            f"{model['label']} failed on the inputs that {job['models'][0]['label']} accepted: "
            f"{clean_ort_message(e)}",
            "The two models do not behave alike; check that you compare the right files.",
            code="COMPARE_RUN",
        ) from None
    progress("first run done")
    desc = _timed_runs(other, outputs, first_s, feeds, runs, progress, model["label"])
    names = [o.name for o in other.session.get_outputs()]
    theirs = dict(zip(names, outputs, strict=True))
    rows = []
    for name, a in first.items():
        if name not in theirs:
            rows.append({"name": name, "bitwise_equal": False, "max_abs": None, "max_rel": None, "mismatched": None,
                         "within_tolerance": False, "problem": "missing in the other model"})
            continue
        rows.append(compare_values(name, a, theirs[name], float(opts["atol"]), float(opts["rtol"])))
    extra = sorted(set(theirs) - set(first))
    return {"model": desc, "outputs": rows, "extra_outputs": extra}


def child_main(conn: Any, job: dict[str, Any]) -> None:
    """Entry point of the child process: run the job, send ('result', dict) or ('error', dict)."""

    def send(kind: str, payload: Any) -> None:
        conn.send((kind, payload))

    try:
        result = run_job(job, send)
        send("result", result)
    except OnnxpackError as e:
        send("error", {"class": type(e).__name__, **e.to_dict()})
    except MemoryError:
        send("error", {"class": "RuntimeFailure", "code": "SMOKE_MEMORY", "message": "Out of memory in the smoke run",
                       "hint": "Use smaller --dim values or run on a machine with more memory.", "details": None})
    except BaseException as e:
        send("error", {"class": "RuntimeFailure", "code": "SMOKE_CHILD_ERROR",
                       "message": f"The smoke run failed unexpectedly: {type(e).__name__}: {e}",
                       "hint": "This is probably a bug in onnxpack; please report it with the details.",
                       "details": "".join(traceback.format_exception(e))})
    finally:
        try:
            conn.close()
        finally:
            sys.stdout.flush()
