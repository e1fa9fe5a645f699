"""Run native onnx / onnxruntime code on untrusted models in a child process with a time limit.

security.md rule 5: the checker, shape inference and ORT sessions are native code that has crashed on
malformed models. They run in a child started with multiprocessing's ``spawn`` context (works the same
on Windows and in a PyInstaller-frozen app, whose entry point calls ``multiprocessing.freeze_support()``;
``sys.executable -m`` would not, since a frozen ``sys.executable`` is the app itself). A crash, a
time-out or an exception in the child comes back as a :class:`ChildOutcome`, never kills the caller.

The child's working directory is a fresh empty temporary folder owned by the parent (removed even
if the child crashes), so a library that resolves a relative path on its own finds nothing of ours.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic import make_temp_dir
from ..child.childproc import ChildProcess, enter_child, hidden_vars, start_method, target_name
from ..errors import Cancelled
from ..progress import CancelToken

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = [
    "CHECK_TIMEOUT",
    "ChildOutcome",
    "check_structure",
    "ort_session_info",
    "run_in_child",
]

#: Default time limit (seconds) for the checker + shape inference child.
CHECK_TIMEOUT = 300.0
#: Inline tensors above this many bytes are replaced by an external placeholder before checking:
#: the checker and shape inference need their type and dims, not their values (data propagation only
#: looks at small shape tensors), and this keeps a near-2-GiB single-file model from being copied 4×.
_PLACEHOLDER_ABOVE = 64 * 1024
_PLACEHOLDER = "onnxpack-placeholder.bin"
_POLL = 0.05


@dataclass(frozen=True)
class ChildOutcome:
    """What happened in the child: ``status`` is ok / error / crashed / timeout."""

    status: str
    value: Any = None
    detail: str = ""
    exitcode: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def _child_main(conn: Connection, func: Callable[..., Any], work: str, args: tuple[Any, ...],
                hidden: tuple[str, ...] = ()) -> None:
    """Entry point of the child process (module level so that ``spawn`` can pickle it by name)."""
    try:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a crash must not leave a core file behind
        except (ImportError, ValueError, OSError):
            pass
        enter_child(work, hidden)
        os.chdir(work)
        value = func(work, *args)
        conn.send(("ok", value))
    except BaseException as e:  # everything goes back to the parent as text
        with contextlib.suppress(Exception):
            conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _stop(proc: Any) -> None:
    if proc.is_alive():
        proc.terminate()
        proc.join(2)
    if proc.is_alive():
        proc.kill()
        proc.join(2)


@contextlib.contextmanager
def _private_dir() -> Iterator[str]:
    path = make_temp_dir("child")
    try:
        yield str(path)
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _died(proc: Any) -> ChildOutcome:
    try:
        proc.join(5)
        code = proc.exitcode
    except ValueError:  # already closed by its owner (who stopped it)
        code = None
    how = f"signal {-code}" if code is not None and code < 0 else f"exit status {code}"
    return ChildOutcome("crashed", detail=f"the child process died ({how})", exitcode=code)


def _in_waiting_child(
    child: ChildProcess, func: Callable[..., Any], args: tuple[Any, ...], timeout: float, cancel: CancelToken | None
) -> ChildOutcome | None:
    """Run the task in ``child`` (a :class:`ChildProcess` that waits for work); None when it cannot take one.

    A crash or a time-out ends that child (it is discarded: its job would have nothing to run in); a
    cancellation leaves it to its owner, who discards it.
    """
    if not child.send_task(target_name(func), *args):
        return None
    proc, recv = child.proc, child.recv_conn
    deadline = time.monotonic() + timeout
    while True:
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            child.discard()
            return ChildOutcome("timeout", detail=f"no answer within {timeout:g} s")
        try:
            if not recv.poll(min(_POLL, remaining)):
                if proc.is_alive() or recv.poll(0):
                    continue
                raise EOFError  # died without a word
            kind, (status, value) = recv.recv()
        except (EOFError, OSError, ValueError):  # the child died, or its owner stopped it (closed pipe or process)
            if cancel is not None and cancel.cancelled:
                raise Cancelled() from None
            outcome = _died(proc)
            child.discard()
            return outcome
        if kind != "task":  # never: the child answers a task before it takes its job
            child.discard()
            return ChildOutcome("error", detail=f"unexpected message {kind!r} from the child")
        if status == "ok":
            return ChildOutcome("ok", value)
        return ChildOutcome("error", detail=str(value))


def run_in_child(
    func: Callable[..., Any],
    *args: Any,
    timeout: float = CHECK_TIMEOUT,
    cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
) -> ChildOutcome:
    """Call ``func(workdir, *args)`` in a spawned child; ``func`` must be a module-level function.

    Returns its value (picklable) or what went wrong. Raises :class:`Cancelled` (after killing the
    child) when ``cancel`` is set while waiting. ``child``: a :class:`ChildProcess` started earlier that
    runs the call as a task (its onnx is imported already, and it stays for its job); when it cannot take
    one, a child of its own is started.
    """
    if child is not None:
        outcome = _in_waiting_child(child, func, args, timeout, cancel)
        if outcome is not None:
            return outcome
    if start_method() != "spawn":  # a child for this one task (no resource tracker, no spawn bootstrap)
        own = ChildProcess("", preload=())
        try:
            outcome = _in_waiting_child(own, func, args, timeout, cancel)
            if outcome is not None and outcome.status in ("ok", "error") and own.proc is not None:
                own.end()  # no more tasks: it exits on its own, and says how
                outcome = dataclasses.replace(outcome, exitcode=own.proc.exitcode)
        finally:
            own.discard()
        if outcome is not None:
            return outcome
        return ChildOutcome("crashed", detail="the child process died before it took the task")
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with _private_dir() as work:
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child_main, args=(send, func, work, args, tuple(hidden_vars())), daemon=True)
        try:
            proc.start()
            send.close()
            deadline = time.monotonic() + timeout
            while True:
                if cancel is not None and cancel.cancelled:
                    raise Cancelled()
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return ChildOutcome("timeout", detail=f"no answer within {timeout:g} s")
                if recv.poll(min(_POLL, remaining)):
                    try:
                        status, value = recv.recv()
                    except (EOFError, OSError):
                        return _died(proc)
                    proc.join(10)
                    if status == "ok":
                        return ChildOutcome("ok", value, exitcode=proc.exitcode)
                    return ChildOutcome("error", detail=str(value), exitcode=proc.exitcode)
        finally:
            _stop(proc)
            recv.close()
            with contextlib.suppress(Exception):
                send.close()


# ---------------------------------------------------------------------------------------------
# Tasks run in the child. Each takes the work folder first and returns a JSON-safe dict.


def _neutralise_tensor_paths(model: Any, work: str) -> int:
    """Point every external tensor (and every large inline one) at one empty placeholder file in ``work``.

    Why not ``onnx.checker.check_model(path)``: onnx then resolves the model's external paths itself with
    rules weaker than ours (it follows hard links, stats whatever the model names) — security.md rule 3.
    And ``check_model(ModelProto)`` resolves them against the current directory. The checker only
    tests that the file exists and is regular; it never reads it. So every location is replaced by a
    placeholder we own, and the structure (types, dims, graph) is checked exactly as written.
    """
    from onnx import TensorProto

    from ..model.tensors import iter_tensors, uses_external_data

    Path(work, _PLACEHOLDER).write_bytes(b"")
    n = 0
    for ref in iter_tensors(model):
        t = ref.tensor
        big_inline = t.ByteSize() > _PLACEHOLDER_ABOVE and t.data_type != TensorProto.STRING
        if not (uses_external_data(t) or big_inline):
            continue
        for name in ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
            t.ClearField(name)
        del t.external_data[:]
        entry = t.external_data.add()
        entry.key, entry.value = "location", _PLACEHOLDER
        t.data_location = TensorProto.EXTERNAL
        n += 1
    return n


def _infer_shapes(data: bytes) -> None:
    """Strict shape inference on a serialized model, for its errors only.

    ``onnx.shape_inference.infer_shapes`` returns the inferred model parsed back into a ModelProto, which we would
    throw away: on a model of millions of attribute entries that parse is a large share of the child's time
    (measured: docs/performance.md). Its native function takes and returns the bytes.
    """
    import onnx.shape_inference

    native = getattr(getattr(onnx.shape_inference, "C", None), "infer_shapes", None)
    if native is None:  # pragma: no cover - an onnx without it: the public function, same errors
        onnx.shape_inference.infer_shapes(data, check_type=True, strict_mode=True)
        return
    native(data, True, True, False)


def _check_task(work: str, model_path: str) -> dict[str, Any]:
    import onnx

    from ..model.modelfile import load_structure

    model = load_structure(Path(model_path))
    # Nothing to neutralise: the file's own bytes. Either way serialized once, not once per check.
    data = model.SerializeToString() if _neutralise_tensor_paths(model, work) else Path(model_path).read_bytes()
    del model
    out: dict[str, Any] = {"checker": None, "inference": None}
    try:
        onnx.checker.check_model(data, full_check=False)
    except Exception as e:  # ValidationError and friends
        out["checker"] = str(e) or type(e).__name__
    try:
        _infer_shapes(data)
    except Exception as e:  # InferenceError and friends
        out["inference"] = str(e) or type(e).__name__
    return out


def check_structure(
    model_path: Path, *, timeout: float = CHECK_TIMEOUT, cancel: CancelToken | None = None,
    child: ChildProcess | None = None,
) -> ChildOutcome:
    """onnx checker + strict shape inference on the model's structure, in a child process (``child``, a
    :class:`ChildProcess` waiting for its job, when given: see :func:`run_in_child`).

    ``value`` is ``{"checker": message or None, "inference": message or None}``.
    """
    return run_in_child(_check_task, str(model_path), timeout=timeout, cancel=cancel, child=child)


def _ort_type(t: str) -> str:
    """``tensor(float)`` → ``FLOAT``; other ORT type strings are returned as they are."""
    if t.startswith("tensor(") and t.endswith(")"):
        return t[7:-1].upper()
    return t


def _ort_task(work: str, model_path: str) -> dict[str, Any]:
    import onnxruntime as ort

    data = Path(model_path).read_bytes()
    so = ort.SessionOptions()
    so.log_severity_level = 3
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.add_session_config_entry("session.load_model_format", "ORT")
    # From bytes, with the empty work folder as current directory: ORT can resolve no path of ours.
    sess = ort.InferenceSession(data, sess_options=so, providers=["CPUExecutionProvider"])

    def args(nodes: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": n.name,
                "elem_type": _ort_type(n.type),
                "shape": [d if isinstance(d, int | str) or d is None else str(d) for d in (n.shape or [])],
            }
            for n in nodes
        ]

    meta = sess.get_modelmeta()
    version = int(meta.version)
    return {
        "ort_version": ort.__version__,
        "inputs": args(sess.get_inputs()),
        "outputs": args(sess.get_outputs()),
        "producer_name": meta.producer_name,
        "graph_name": meta.graph_name,
        "domain": meta.domain,
        "description": meta.description,
        "model_version": version if 0 <= version < 2**63 - 1 else 0,  # ORT reports "unset" as INT64_MAX
        "metadata": {str(k): str(v) for k, v in meta.custom_metadata_map.items()},
    }


def ort_session_info(
    model_path: Path, *, timeout: float = CHECK_TIMEOUT, cancel: CancelToken | None = None
) -> ChildOutcome:
    """Load an ORT-format model in an onnxruntime session (child process); report its interface."""
    return run_in_child(_ort_task, str(model_path), timeout=timeout, cancel=cancel)
