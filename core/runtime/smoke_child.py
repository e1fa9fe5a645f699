"""Code that runs inside the smoke child process: run the job (sessions, inputs, the size search, runs, compare).

The parent (core.smoke) starts :func:`child_main` with the 'spawn' start method and passes plain data
(paths, dicts, numpy arrays). Everything here may crash in native code; the parent survives that. Opening a
session safely is :mod:`.session`, the facts about outputs :mod:`.outputfacts`, the size search :mod:`.dimsearch`.
"""

from __future__ import annotations

import gc
import re
import statistics
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import steps
from ..errors import OnnxpackError
from ..steps import Said
from ..units import format_bytes
from .dimsearch import MAX_ATTEMPTS, is_batch_like, search
from .inputs import RETRY_PROFILES, GeneratedInputs, InputMeta, generate_inputs
from .outputfacts import compare_values, describe_output, digest
from .session import (
    OpenedSession,
    _pages_released,  # noqa: F401 - tests/test_proof.py imports it from here
    clean_ort_message,
    input_metas,
    load_failure_hint,
    open_by_path,
    open_session,
)

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

#: What a job imports when it needs it, imported by the waiting child before the job comes
#: (core/child/childmain.wait_for_job), while the parent inspects and merges: together about 65 ms, otherwise on a
#: small model's critical path (numpy's random generators alone about 30 ms).
IMPORT_AHEAD = (
    "numpy.random",
    "concurrent.futures",
    "onnxpack.core.model.extdata.extresolve",
    "onnxpack.core.model.extdata.extreader",
    "onnxpack.core.model.modelfile",
    "onnxpack.core.runtime.loadcost",
    "onnxpack.core.runtime.loadmatrix",
)

#: Search candidates whose generated inputs would exceed this many bytes are skipped.
MAX_SEARCH_INPUT_BYTES = 1 << 30

Send = Callable[[str, Any], None]


def _model(spec: dict[str, Any]) -> Said:
    """What progress calls a model: its name and its role (smoke.py ``_spec``)."""
    return steps.MODEL(spec.get("role") or None, name=spec.get("shown", spec["label"]))


def _elem_types(session: Any) -> dict[str, str]:
    return {o.name: o.type for o in session.get_outputs()}


def _run(session: Any, feeds: dict[str, Any]) -> tuple[list[Any], float]:
    t0 = time.perf_counter()
    out = session.run(None, feeds)
    return list(out), time.perf_counter() - t0


def _unresolved(gen: GeneratedInputs, fixed_by_user: set[str]) -> list[str]:
    return [k for k, src in gen.dim_sources.items() if src in ("default", "search") and k not in fixed_by_user]


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


class _Runner:
    """One smoke job in the child: its options, how inputs are made, the progress steps."""

    def __init__(self, job: dict[str, Any], send: Send) -> None:
        self.job, self.send = job, send
        self.opts: dict[str, Any] = job["options"]
        self.models: list[dict[str, Any]] = job["models"]
        self.runs = int(self.opts["runs"])
        self.compare_runs = int(self.opts.get("compare_runs") or self.runs)
        self.steps = (1 + self.runs) + (1 + self.compare_runs) * (len(self.models) - 1) + 1
        self.step = 0
        self.user_dims = dict(self.opts["dims"])
        self.supplied = dict(job.get("supplied") or {})
        self.metas: list[InputMeta] = []
        #: The profile a recorded recipe names (repeated exactly), else None: RETRY_PROFILES while outputs are NaN/Inf.
        self.fixed_profile: str | None = self.opts.get("inputs_profile")
        self.profile = self.fixed_profile or RETRY_PROFILES[0]
        self.bounds: dict[str, int] = {}  # integer inputs that index a table: their bound (inputhints)

    def progress(self, said: Said) -> None:
        self.step += 1
        self.send("progress", {"done": min(self.step, self.steps), "total": self.steps, "said": said})

    def make(self, search_dims: dict[str, int] | None = None) -> GeneratedInputs:
        """The inputs for the primary model (``search_dims``: a candidate of the size search, capped in bytes)."""
        opts = self.opts
        return generate_inputs(
            self.metas, seed=int(opts["seed"]), dims=self.user_dims, supplied=self.supplied, values=opts["values"],
            ranges={k: tuple(v) for k, v in opts["ranges"].items()}, default_dim=int(opts["default_dim"]),
            search_dims=search_dims, max_bytes=None if search_dims is None else MAX_SEARCH_INPUT_BYTES,
            profile=self.profile, bounds=self.bounds,
        )

    def read_bounds(self) -> None:
        """The bounds of the integer inputs that index a table, from the model's structure (not for ``plain``)."""
        if self.profile != "plain" and any((m.elem or "").startswith(("int", "uint")) for m in self.metas):
            from .inputhints import model_gather_bounds

            self.bounds = model_gather_bounds(self.models[0])


def run_job(job: dict[str, Any], send: Send) -> dict[str, Any]:
    """Run one smoke job (primary model, optional comparison model); return a plain-data result."""
    import onnxruntime as ort

    ort.set_default_logger_severity(4)
    _hook(job, "start")
    r = _Runner(job, send)
    send("stage", steps.SESSION(model=_model(r.models[0])))
    # the shipped model laid out as the end user has it: loaded by its path, as an app does, and that load measured
    by_path = bool(r.models[0].get("by_path"))
    primary = (open_by_path(r.models[0], files=bool(r.opts.get("load_matrix"))) if by_path
               else open_session(r.models[0], job["empty_dir"]))
    r.progress(steps.SESSION_CREATED(seconds=primary.create_s))
    _hook(job, "session")
    r.metas = input_metas(primary.session)
    r.read_bounds()
    gen = r.make()
    result: dict[str, Any] = {
        "ort_version": ort.__version__,
        "provider": (primary.session.get_providers() or ["?"])[0],
        "models": [],
        "search": {"enabled": bool(r.opts["search"]), "attempts": [], "found": None},
        "inputs_profile": r.profile,
        "failure": None,
        "compare": None,
        "arrays": None,
    }
    if primary.measured is not None:
        result["load_measured"] = primary.measured
    if gen.problems or gen.too_large:
        return _inputs_failure(result, gen)
    send("stage", steps.RUNNING(model=_model(r.models[0])))
    ran = _first_run(r, primary, gen, result)
    if ran is None:
        return result
    gen, outputs, first_s = ran
    if r.fixed_profile is None:
        gen, outputs, first_s = _finite_inputs(r, primary, ran, result)
    result["inputs_profile"] = r.profile
    result.update(inputs=gen.recipe, dims=gen.dims, dim_sources=gen.dim_sources)
    r.progress(steps.FIRST_RUN_DONE())
    result["models"].append(_timed_runs(primary, outputs, first_s, gen.feeds, r.runs, r.progress, r.models[0]))
    if r.opts.get("load_matrix") and r.models[0]["kind"] == "onnx":
        send("stage", steps.LOADING_WAYS(model=_model(r.models[0])))
        result["loads"] = _loads(job, r.models[0], primary, gen.feeds, outputs)
    names = [o.name for o in primary.session.get_outputs()]
    if job.get("return_outputs"):
        result["arrays"] = dict(zip(names, outputs, strict=True))
    if len(r.models) > 1:
        first_outputs = dict(zip(names, outputs, strict=True))
        del primary
        gc.collect()
        # The original is the source the end user's load is measured on: that one load is its session too
        measured = _measured_original(job, r.models[1], result, send)
        result["compare"] = _compare_other(job, r.models[1], gen, first_outputs, r.compare_runs, r.progress, send,
                                           measured)  # fmt: skip
        result["models"].append(result["compare"].pop("model"))
    return result


def _measured_original(job: dict[str, Any], original: dict[str, Any], result: dict[str, Any],
                       send: Send) -> OpenedSession | None:
    """The source's measured load (:func:`_source_load`) as the original's session when the original compared is
    that file (ONNX Runtime finds its data beside it, as the bundle validated): one session, not two. Recorded in
    ``result["source_load_measured"]``; None when the source is not measured here, or not that file."""
    source = job["models"][0].get("source_by_path")
    if (not source or result.get("load_measured") is None or original.get("kind") != "onnx"
            or original.get("window") or Path(original["path"]) != Path(source)):
        return None
    session, measured = _source_load(source, send)
    result["source_load_measured"] = measured
    if session is None or measured is None:
        return None
    return OpenedSession(session, float(measured["load_s"]), "by path", measured=measured)


def _loads(job: dict[str, Any], model: dict[str, Any], primary: OpenedSession, feeds: dict[str, Any],
           outputs: list[Any]) -> list[dict[str, Any]]:
    """The load matrix of the primary model (core/runtime/loadmatrix.py), with plain session options as an app's (their
    idle threads blocking, not spinning: loadmatrix.NO_SPINNING)."""
    import tempfile

    import onnxruntime as ort

    from ..model.modelfile import load_structure
    from .loadmatrix import FULL_MATRIX_MAX_NODES, NO_SPINNING, Reference, Shipped, load_matrix, node_count
    from .session import _read_model_bytes

    def options() -> Any:
        so = ort.SessionOptions()
        so.log_severity_level = 4
        so.add_session_config_entry(*NO_SPINNING)  # (loadmatrix.py: two sessions at once, each on its core)
        return so

    window = model.get("window")
    path = Path(model["path"])
    source: Path | bytes = _read_model_bytes(path, (int(window[0]), int(window[1]))) if window else path
    work = tempfile.mkdtemp(prefix="onnxpack-matrix-")
    try:
        shipped = Shipped(str(model.get("file_name") or path.name), source, primary.files)
        span = (int(window[0]), int(window[1])) if window else None
        nodes = node_count(load_structure(path, span).graph)
        return load_matrix(shipped, Reference(feeds, outputs, options), work, full=nodes <= FULL_MATRIX_MAX_NODES,
                           bytes_proven=primary.how == "model bytes", path_proven=primary.how == "by path")
    finally:
        import shutil

        shutil.rmtree(work, ignore_errors=True)


def _inputs_failure(result: dict[str, Any], gen: GeneratedInputs) -> dict[str, Any]:
    """The result when no inputs can be made: an input that cannot be fed, or inputs too large for this machine."""
    result["failure"] = {"message": "; ".join(gen.problems or gen.too_large), "kind": "inputs",
                         "inputs": gen.recipe, "dims": gen.dims, "dim_sources": gen.dim_sources}
    if not gen.problems:
        result["failure"].update(kind="too_large", size=format_bytes(gen.planned_bytes),
                                 limit=format_bytes(gen.limit_bytes))
    result.update(inputs=gen.recipe, dims=gen.dims, dim_sources=gen.dim_sources)
    return result


#: A run that passed: the inputs, the outputs, the seconds it took.
_Ran = tuple[GeneratedInputs, list[Any], float]


def _first_run(r: _Runner, primary: OpenedSession, gen: GeneratedInputs,
               result: dict[str, Any]) -> _Ran | None:
    """The first run, with the size search when it fails; None (and ``result["failure"]``) when nothing passed."""
    try:
        outputs, first_s = _run(primary.session, gen.feeds)
        return gen, outputs, first_s
    except Exception as e:
        first_error = clean_ort_message(e)
    unresolved = _unresolved(gen, set(r.user_dims))
    if r.opts["search"] and unresolved:
        found = _search_sizes(r, primary, gen, unresolved, first_error, result["search"]["attempts"])
        if found is not None:
            result["search"]["found"] = found[0]
            result["search"]["initial_error"] = first_error
            return found[1]
    result["failure"] = {"message": first_error, "kind": "run", "inputs": gen.recipe, "dims": gen.dims,
                         "dim_sources": gen.dim_sources, "unresolved": unresolved}
    result.update(inputs=gen.recipe, dims=gen.dims, dim_sources=gen.dim_sources)
    return None


def _non_finite(outputs: list[Any]) -> list[int]:
    """The positions of the float outputs that hold NaN or Inf."""
    return [i for i, v in enumerate(outputs)
            if isinstance(v, np.ndarray) and v.dtype.kind in "fc" and not bool(np.isfinite(v).all())]


def _finite_inputs(r: _Runner, primary: OpenedSession, ran: _Ran, result: dict[str, Any]) -> _Ran:
    """When the outputs of ``ran`` hold NaN/Inf, the next plausible inputs (RETRY_PROFILES, same sizes) until a run's
    outputs are finite: that run, else ``ran`` itself. ``result["inputs_tried"]`` lists each profile tried and its
    outputs with NaN/Inf (or its error); ``r.profile`` is the one whose run is returned."""
    gen, outputs, _secs = ran
    bad = _non_finite(outputs)
    if not bad:
        return ran
    names = [o.name for o in primary.session.get_outputs()]
    tried = [{"profile": r.profile, "non_finite": [names[i] for i in bad]}]
    result["inputs_tried"] = tried
    first_profile = r.profile
    sizes = {k: gen.dims[k] for k in _unresolved(gen, set(r.user_dims))}
    for profile in RETRY_PROFILES[RETRY_PROFILES.index(first_profile) + 1:]:
        r.profile = profile
        cand = r.make(sizes or None)
        if cand.problems or cand.too_large or cand.recipe == gen.recipe:
            continue  # nothing to feed, or the same inputs again
        r.send("stage", steps.TRYING_INPUTS(profile=profile))
        try:
            again, secs = _run(primary.session, cand.feeds)
        except Exception as e:
            tried.append({"profile": profile, "error": clean_ort_message(e)})
            continue
        still = _non_finite(again)
        tried.append({"profile": profile, "non_finite": [names[i] for i in still]})
        if not still:
            return cand, again, secs
    r.profile = first_profile
    return ran


def _search_sizes(r: _Runner, primary: OpenedSession, gen: GeneratedInputs, unresolved: list[str], first_error: str,
                  attempts: list[dict[str, Any]]) -> tuple[dict[str, int], _Ran] | None:
    """Sizes for the ``unresolved`` dims with which the run passes (dimsearch.search), and that run; else None."""
    r.send("stage", steps.SEARCHING_SIZES(dims=", ".join(unresolved)))
    passed: dict[str, Any] = {}

    def attempt(plan: dict[str, int]) -> str | None:
        cand = r.make(plan)  # nothing is allocated when the inputs would exceed MAX_SEARCH_INPUT_BYTES
        if cand.too_large or cand.problems:
            return "skipped: inputs would exceed 1 GiB" if cand.too_large else "skipped: " + cand.problems[0]
        try:
            passed["outputs"], passed["first_s"] = _run(primary.session, cand.feeds)
        except Exception as e:
            return clean_ort_message(e)
        passed["gen"] = cand
        return None

    found = search(unresolved, {k: gen.dims[k] for k in unresolved}, first_error, attempt, attempts)
    if found is None:
        return None
    return found, (passed["gen"], passed["outputs"], passed["first_s"])


def _timed_runs(
    opened: OpenedSession, outputs: list[Any], first_s: float, feeds: dict[str, Any], runs: int,
    progress: Callable[[Said], None], model: dict[str, Any],
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
        progress(steps.RUN_OF(run=i + 1, runs=runs, model=_model(model)))
    descs = []
    for n, v in zip(names, outputs, strict=True):
        descs.append(describe_output(n, v, _elem_name(types.get(n, ""))))
    return {
        "label": model["label"],
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
    progress: Callable[[Said], None], send: Send, other: OpenedSession | None = None,
) -> dict[str, Any]:
    """Run the original (``other``: its session already made, else opened now) on the same inputs and compare."""
    opts = job["options"]
    if other is None:
        send("stage", steps.SESSION(model=_model(model)))
        other = open_session(model, job["empty_dir"])
    progress(steps.SESSION_CREATED(seconds=other.create_s))
    metas = input_metas(other.session)
    wanted = {m.name for m in metas if not m.overridable and m.kind != "optional"}
    missing = sorted(wanted - set(gen.feeds))
    if missing:
        from . import codes  # (here, not at the top: the smoke child imports this module on every run)

        raise codes.COMPARE_INPUTS.error(model=model["label"], missing=", ".join(missing),
                                         original=job["models"][0]["label"])
    names_other = {m.name for m in metas}
    feeds = {k: v for k, v in gen.feeds.items() if k in names_other}
    send("stage", steps.RUNNING(model=_model(model)))
    try:
        outputs, first_s = _run(other.session, feeds)
    except Exception as e:
        from . import codes

        raise codes.COMPARE_RUN.error(model=model["label"], original=job["models"][0]["label"],
                                      detail=clean_ort_message(e)) from None
    progress(steps.FIRST_RUN_DONE())
    desc = _timed_runs(other, outputs, first_s, feeds, runs, progress, model)
    names = [o.name for o in other.session.get_outputs()]
    theirs = dict(zip(names, outputs, strict=True))
    rows = []
    for name, a in first.items():
        if name not in theirs:
            rows.append({"name": name, "bitwise_equal": False, "max_abs": None, "max_rel": None, "mismatched": None,
                         "within_tolerance": False, "problem": "missing in the other model",
                         "differs": {"kind": "missing"}})
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
        source = job["models"][0].get("source_by_path")
        if (source and result.get("load_measured") is not None and result.get("failure") is None
                and "source_load_measured" not in result):  # (not made already as the original's session)
            session, result["source_load_measured"] = _source_load(source, send)
            del session
        send("result", result)
    except OnnxpackError as e:
        send("error", _error_payload(e))
    except BaseException as e:
        send("error", _error_message(e))
    finally:
        try:
            conn.close()
        finally:
            sys.stdout.flush()


def _source_load(path: str, send: Send) -> tuple[Any, dict[str, Any] | None]:
    """The end user's load of the source by its path, measured as the shipped model's was (loadcost.load_by_path),
    once the run's sessions are gone and the parent says its own work is done (core/child/childask.py): (its
    session or None when ONNX Runtime refused it, the measurement); (None, None) when the parent says not to."""
    import onnxruntime as ort

    from ..child.childask import ask_parent
    from .loadcost import can_reset_peak, load_by_path

    gc.collect()
    if not ask_parent("measure-source"):
        return None, None
    send("stage", steps.MEASURING_LOAD_COST())
    return load_by_path(ort, path, reset=can_reset_peak())


def _error_message(e: BaseException) -> dict[str, Any]:
    """The ('error', ...) message for an exception that is not onnxpack's: out of memory, or a bug."""
    from . import codes  # (here, not at the top: the smoke child imports this module on every run)

    if isinstance(e, MemoryError):
        err = codes.SMOKE_MEMORY.error()
    else:
        err = codes.SMOKE_CHILD_ERROR.error(error=f"{type(e).__name__}: {e}",
                                            details="".join(traceback.format_exception(e)))
    return _error_payload(err)


def _error_payload(err: OnnxpackError) -> dict[str, Any]:
    """The ('error', ...) message of ``err``: its class, its dict and its values (the app words it by them)."""
    return {"class": type(err).__name__, **err.to_dict(), "params": err.params}
