"""Open an ONNX Runtime session safely (inside the smoke child): no path the model names is ever resolved by ORT.

Also what ONNX Runtime's refusal to load a model means (:func:`load_failure_hint`) and the model's inputs as it
sees them (:func:`input_metas`).
"""

from __future__ import annotations

import contextlib
import mmap
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import classcodes
from ..errors import OnnxpackError, RuntimeFailure
from ..model import codes as model_codes
from .inputs import InputMeta

__all__ = [
    "MAPPED_INLINE_BYTES", "OpenedSession", "clean_ort_message", "input_metas", "load_failure_hint",
    "load_failure_remedy", "open_by_path", "open_session",
]

#: From this size a model file the parent wrote itself with its tensors inside (``inline``, the single-file layout)
#: is not handed to ONNX Runtime as bytes: its structure is parsed and its tensors given as OrtValues over a read-only
#: memory map of the file (or of its stored ZIP entry): as bytes the peak holds the bytes, the parsed proto and
#: ORT's tensors; mapped it is faster and smaller than both bytes and ``InferenceSession(path)``. Below it bytes are
#: the fastest (measured: docs/performance.md).
MAPPED_INLINE_BYTES = 256 * 2**20

_ORT_PREFIX = re.compile(r"^\[ONNXRuntimeError\]\s*:\s*\d+\s*:\s*\w+\s*:\s*")


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
    #: The validated external-data files by location (the load matrix lays them out beside the model).
    files: dict[str, Path] = field(default_factory=dict)
    #: The end user's load, measured (:func:`open_by_path`): ``{"load_s", "peak_bytes", "baseline_bytes"}``.
    measured: dict[str, Any] | None = None


def _session_options(empty_dir: str) -> Any:
    import onnxruntime as ort

    # Windows: ORT's ETW events (elsewhere ORT_DISABLE_TELEMETRY, core/child/childproc.py)
    ort.disable_telemetry_events()
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

    * ORT-format and self-contained ONNX files: ORT gets the bytes we read (not parsed first when they are ``inline``:
      a file the parent wrote itself, with no external data in it, smaller than :data:`MAPPED_INLINE_BYTES`; a larger
      one is parsed and its tensors mapped as below, never a multi-GB copy as bytes).
    * External data: the structure is validated (core.extdata, security.md rule 1) and ORT gets the
      model bytes plus the validated tensor bytes — main-graph initializers as OrtValues over a
      read-only memory map (``add_external_initializers``, no copy on our side), every other
      external tensor (subgraphs, Constant attributes, sparse parts, exotic types) inlined into
      our private copy of the proto. Their locations are rewritten to a name that exists nowhere,
      and ORT's lookup folder is an empty directory.
    """
    import onnxruntime as ort

    path = Path(model["path"])
    so = _session_options(empty_dir)
    t0 = time.perf_counter()
    if model["kind"] == "ort":
        so.add_session_config_entry("session.load_model_format", "ORT")
        given = _Given(path.read_bytes(), "ort-format bytes")
    else:
        window = model.get("window")
        span = (int(window[0]), int(window[1])) if window else None
        given = _onnx_bytes(path, Path(model["data_dir"]), span, bool(model.get("inline")))
        if given.names:
            so.add_external_initializers(given.names, given.values)
    try:
        with _pages_released(given.maps):
            session = ort.InferenceSession(given.data, sess_options=so, providers=["CPUExecutionProvider"])
    except Exception as e:
        raise _load_failure(model, e) from None
    return OpenedSession(session, time.perf_counter() - t0, given.how, given.keep, given.files)


def open_by_path(model: dict[str, Any], files: bool = False) -> OpenedSession:
    """A CPU session of the shipped model created from ``model["by_path"]`` as the end user's app creates it (plain
    options, ONNX Runtime finds the external data beside it), its load measured (core/runtime/loadcost.py).
    ``files``: also name its external-data files (what the load matrix lays out beside it).

    Only for a layout the parent laid out itself in a private folder and validated (security.md rules 1 and 3 hold:
    every external-data reference is a file the bundle wrote beside it), never for a user's model.
    """
    import onnxruntime as ort

    from .loadcost import can_reset_peak, load_by_path

    ort.disable_telemetry_events()  # Windows: ORT's ETW events (elsewhere ORT_DISABLE_TELEMETRY)
    path = Path(model["by_path"])
    session, measured = load_by_path(ort, str(path), reset=can_reset_peak())
    if session is None:
        raise _load_failure(model, RuntimeError(measured["error"]))
    data: dict[str, Path] = {}
    if files and not model.get("inline"):
        from ..model.extdata.extresolve import resolve_external_data
        from ..model.modelfile import load_structure

        data = _data_files(resolve_external_data(load_structure(path), path.parent))
    return OpenedSession(session, float(measured["load_s"]), "by path", [], data, measured)


def _data_files(table: Any) -> dict[str, Path]:
    """The validated external-data files of ``table`` by location."""
    return {r.location: Path(r.path) for r in table.refs if r.location and r.path is not None and not r.inline}


@dataclass
class _Given:
    """What ORT is given to create a session: the model's bytes, initializers as OrtValues over memory maps."""

    data: bytes
    how: str
    names: list[str] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    keep: list[Any] = field(default_factory=list)  # arrays and OrtValues that must outlive the session
    maps: list[mmap.mmap] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)  # the validated external-data files by location


def _onnx_bytes(path: Path, data_dir: Path, window: tuple[int, int] | None, inline: bool = False) -> _Given:
    """An ONNX model for ORT: its bytes, or with external data the validated tensors in memory (see open_session).

    ``inline``: the parent wrote the file itself with no external data, so it is not parsed to find some, unless it
    is large (:data:`MAPPED_INLINE_BYTES`): then its tensors are mapped from the file, never read into bytes."""
    from ..model.extdata.extresolve import resolve_external_data
    from ..model.modelfile import load_structure

    if inline and (window[1] if window is not None else path.stat().st_size) < MAPPED_INLINE_BYTES:
        return _Given(_read_model_bytes(path, window), "model bytes")
    proto = load_structure(path, window)
    table = resolve_external_data(proto, data_dir)
    table.raise_if_invalid()
    if not table.refs:
        del proto, table  # (a structure of millions of attribute entries is larger than the file: not kept)
        return _Given(_read_model_bytes(path, window), "model bytes")
    return _external_data_bytes(path, proto, table)


def _external_data_bytes(path: Path, proto: Any, table: Any) -> _Given:
    import onnx
    import onnxruntime as ort

    from ..model.extdata.extreader import ExternalDataReader
    from ..model.modelfile import PROTOBUF_LIMIT
    from ..model.tensors import uses_external_data

    as_values, inline = _main_initializer_refs(proto, table.refs)
    # An initializer no node uses is removed by ORT before it takes ours: never read or give it.
    consumed = _consumed_names(proto)
    unused = {r.ref.tensor.name for r in as_values if r.ref.tensor.name not in consumed}
    as_values = [r for r in as_values if r.ref.tensor.name not in unused]
    given = _Given(b"", "")
    given.files = _data_files(table)
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
            given.keep.append(arr)
            given.names.append(t.name)
            given.values.append(ort.OrtValue.ortvalue_from_numpy(arr))
            for entry in t.external_data:
                if entry.key == "location":
                    entry.value = "onnxpack-supplied-in-memory.bin"
        given.maps = reader.mapped()
    for r in as_values:
        if not uses_external_data(r.ref.tensor):  # pragma: no cover - defensive
            raise classcodes.RUNTIME.error(variant="lost_marker")
    _drop_initializers(proto, unused)
    if proto.ByteSize() >= PROTOBUF_LIMIT:
        from . import codes  # (here, not at the top: the smoke child imports this module on every run)

        raise codes.SMOKE_TOO_LARGE.error(file=path.name)
    given.data = proto.SerializeToString()
    del proto
    given.keep.extend(given.values)
    given.how = f"model bytes + {len(as_values)} in-memory initializer(s) + {len(inline)} inlined tensor(s)"
    if unused:
        given.how += f"; {len(unused)} initializer(s) that no node uses left out (ONNX Runtime removes them)"
    return given


def _read_model_bytes(path: Path, window: tuple[int, int] | None) -> bytes:
    """A small model's bytes (one with no tensor left in the file), whole or from its byte range."""
    if window is None:
        return path.read_bytes()
    with open(path, "rb") as f:
        f.seek(window[0])
        data = f.read(window[1])
    if len(data) != window[1]:
        # a race, not a bad input: a RuntimeFailure (MODEL_TRUNCATED's kind is ModelFormatError), in its words
        truncated, params = model_codes.MODEL_TRUNCATED, {"subject": path.name, "file": path.name}
        raise RuntimeFailure(truncated.message("shrunk", **params), truncated.remedy("shrunk", **params),
                             code=truncated.name, params={**params, "variant": "shrunk"})
    return data


@contextlib.contextmanager
def _pages_released(maps: list[mmap.mmap], every: float = 0.05) -> Iterator[None]:
    """While ORT creates the session, keep dropping the weight pages it has read from this process's memory.

    ORT copies (pre-packs) the initializers it gets as OrtValues while it creates the session; the mapped pages it
    read them from stay counted in the process's resident memory although they are clean page cache, so the peak
    would be the weights twice. ``MADV_DONTNEED`` every 50 ms hands them back (the maps are read-only views of
    files: a later read faults the same bytes in from the page cache), so the peak is ORT's own copy (measured:
    docs/performance.md). Where ``mmap.madvise`` is missing (Windows) nothing is done.
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


def _load_failure(model: dict[str, Any], e: BaseException) -> OnnxpackError:
    from . import codes  # (here, not at the top: the smoke child imports this module on every run)

    msg = clean_ort_message(e)
    label = model.get("label") or Path(model["path"]).name
    variant, values = load_failure_remedy(msg)
    params: dict[str, Any] = {"model": label, "detail": msg, **values}
    return codes.ORT_LOAD.error(hint_variant=variant, details=str(e), **params)


def load_failure_hint(msg: str) -> str:
    """What to do about ONNX Runtime's reason ``msg`` for refusing to create a session: the hint says what the
    message says (a missing host locale is not a malformed model)."""
    from . import codes  # (as in _load_failure)

    variant, values = load_failure_remedy(msg)
    return codes.ORT_LOAD.remedy(variant, **values)


def load_failure_remedy(msg: str) -> tuple[str | None, dict[str, str]]:
    """The ORT_LOAD remedy that ONNX Runtime's reason ``msg`` calls for: its variant (None: the code's own) and
    values."""
    low = msg.lower()
    for found in (_locale_remedy(msg, low), _operator_remedy(msg), _kernel_remedy(msg)):
        if found is not None:
            return found
    return next(((variant, {}) for applies, variant in _LOAD_REMEDIES if applies(low)), (None, {}))


def _locale_remedy(msg: str, low: str) -> tuple[str, dict[str, str]] | None:
    locale = re.search(r"locale with name:\s*([^:\s]*)", msg)
    if not (locale or "_s_create_c_locale" in low):
        return None
    return "locale", {"locale": locale.group(1) if locale and locale.group(1) else "it names"}


def _operator_remedy(msg: str) -> tuple[str, dict[str, str]] | None:
    m = re.search(r"([\w.]*):(\w+)\(-?\d+\) is not a registered function/op", msg)
    if not m:
        return ("op_unnamed", {}) if "not a registered function/op" in msg else None
    values = {"op": m.group(2), "domain": m.group(1) or "ai.onnx"}
    domain = values["domain"]
    if domain == "ai.onnx.preview.training":
        return "op_training", values
    if domain.startswith("ai.onnx.preview"):
        return "op_preview", values
    return ("op_opset" if domain in ("ai.onnx", "ai.onnx.ml") else "op_custom"), values


def _kernel_remedy(msg: str) -> tuple[str, dict[str, str]] | None:
    kernel = re.search(r"(?:Could not find an implementation for|Failed to find kernel for) (\w+)\((\d+)\)", msg)
    if not kernel:
        return None
    values = {"op": kernel.group(1), "opset": kernel.group(2)}
    return ("kernel_old" if int(kernel.group(2)) < 7 else "kernel_types"), values


#: The other reasons, by words of the lower-cased message, in order: (does it apply, the ORT_LOAD remedy's variant).
_LOAD_REMEDIES: tuple[tuple[Callable[[str], bool], str], ...] = (
    (lambda low: "unsupported model ir version" in low or ("ir version" in low and "support" in low), "ir"),
    (lambda low: "opset" in low and ("support" in low or "unknown" in low), "opset"),
    (lambda low: "protobuf parsing failed" in low, "not_onnx"),
    (lambda low: "shapeinferenceerror" in low or "typeinferenceerror" in low or "type error" in low, "inference"),
    (lambda low: "not supported" in low or "unsupported" in low, "unsupported"),
)


def input_metas(session: Any) -> list[InputMeta]:
    metas = [InputMeta(i.name, i.type, list(i.shape)) for i in session.get_inputs()]
    metas += [
        InputMeta(i.name, i.type, list(i.shape), overridable=True) for i in session.get_overridable_initializers()
    ]
    return metas
