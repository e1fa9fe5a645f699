"""The end user's load cost: how long ``InferenceSession(path)`` takes and how much memory it adds to its process, for
the layout a bundle ships and for the layout its source came in.

Why not anywhere: a process's peak resident memory (Linux ``VmHWM``, ``ru_maxrss``, Windows' ``PeakWorkingSetSize``)
only grows, so a load is measured where nothing before it peaked higher: a fresh process that has imported
onnxruntime, as an app's; or, on Linux, a process that has handed its freed memory back (``malloc_trim``) and reset
its peak to what it holds (``clear_refs`` 5). Either way the process's resident memory just before the load is
recorded (``baseline_bytes``) beside its peak after it, and the layouts are compared by what their load adds
(``added_bytes``), so that two processes that imported different modules compare fairly.

On Linux the smoke child measures both (core/release/endload.py): its first session is the shipped layout by its
path, created after it handed freed memory back and reset its peak, as the end user's app creates it
(:func:`load_by_path`), and run; after the run it loads the source by its path the same way, once the parent says
the bundle's own work (the proof) is done. One session of the shipped model, not two (for GPT-2 medium's merged
1.4 GB file a session takes 5 s), and no process of its own. Elsewhere (no peak reset) the shipped layout and the
source each get a fresh process of their own after the smoke run (:func:`started`, :func:`measure`), started before
it so that their onnxruntime import overlaps it, and the smoke run opens the model its own way. Each session has
plain options and the CPU provider, as an app's; the load-cost process runs no inference (loading is what differs
between layouts).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..child.childhandles import CLEAR_REFS, can_reset_peak
from ..findings import Finding
from .codes import LOAD_COST_HEAVY

__all__ = [
    "LOAD_COST_HEAVY",
    "LOAD_COST_TARGET",
    "MARGIN",
    "MIN_MEMORY_BYTES",
    "MIN_SECONDS",
    "Layouts",
    "LoadCost",
    "added_bytes",
    "can_reset_peak",
    "child_main",
    "heavier",
    "load_by_path",
    "measure",
    "noticeable",
    "peak_resident_bytes",
    "started",
]

#: The load-cost child's entry point.
LOAD_COST_TARGET = "onnxpack.core.runtime.loadcost:child_main"
#: The shipped layout costs the end user "more" beyond this ratio of the source layout's time or peak memory ...
MARGIN = 1.25
#: ... and by at least this much (a small model's loads take milliseconds, whose ratio is noise).
MIN_SECONDS = 0.25
MIN_MEMORY_BYTES = 64 * 2**20
#: A load that takes longer than this is stopped and recorded as not measured.
TIMEOUT_S = 600.0
#: A layout whose load the smoke run was to measure and did not, as recorded.
_NOT_MEASURED = {"error": "not measured: the smoke run did not load it"}
#: How every measured load is taken (the manifest's ``method`` says where after it).
_HOW = "InferenceSession(path); the memory a load adds to its process's peak: "

def peak_resident_bytes() -> int | None:
    """This process's peak resident memory so far, in bytes; None where it cannot be read."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if os.name == "nt":
        return _windows_peak()
    try:
        import resource
    except ImportError:  # pragma: no cover - every POSIX Python has it
        return None
    peak = int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    return peak if sys.platform == "darwin" else peak * 1024  # macOS counts bytes, the others KiB


def _windows_peak() -> int | None:  # pragma: no cover - Windows only
    import ctypes
    from ctypes import wintypes

    class Counters(ctypes.Structure):
        _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD),
                    ("PeakWorkingSetSize", ctypes.c_size_t), ("WorkingSetSize", ctypes.c_size_t),
                    ("QuotaPeakPagedPoolUsage", ctypes.c_size_t), ("QuotaPagedPoolUsage", ctypes.c_size_t),
                    ("QuotaPeakNonPagedPoolUsage", ctypes.c_size_t), ("QuotaNonPagedPoolUsage", ctypes.c_size_t),
                    ("PagefileUsage", ctypes.c_size_t), ("PeakPagefileUsage", ctypes.c_size_t)]

    try:
        counters = Counters()
        counters.cb = ctypes.sizeof(Counters)
        process = ctypes.windll.kernel32.GetCurrentProcess()  # type: ignore[attr-defined]
        if not ctypes.windll.psapi.GetProcessMemoryInfo(process, ctypes.byref(counters),  # type: ignore[attr-defined]
                                                        counters.cb):
            return None
        return int(counters.PeakWorkingSetSize)
    except (OSError, AttributeError):
        return None


def _reset_peak() -> None:
    """Hand the memory the last session freed back to the system and start the peak from what is held now."""
    import ctypes
    import gc

    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # (the C library is loaded: no ctypes.util.find_library, which
        ctypes.CDLL(None).malloc_trim(0)  # runs `ldconfig -p` in a subprocess to name it)
    with open(CLEAR_REFS, "w", encoding="ascii") as f:
        f.write("5")


def load_by_path(ort: Any, path: str, reset: bool = False) -> tuple[Any, dict[str, Any]]:
    """A CPU session of ``path`` created as an app creates it (plain options), with its load measured: ``(session,
    {"load_s", "peak_bytes", "baseline_bytes"})``, or ``(None, {"error": text})`` when ONNX Runtime refuses it.
    ``reset``: hand freed memory back and reset the peak first (:func:`can_reset_peak`)."""
    if reset:
        _reset_peak()
    baseline = peak_resident_bytes()
    so = ort.SessionOptions()
    so.log_severity_level = 4
    t0 = time.perf_counter()
    try:
        session = ort.InferenceSession(path, sess_options=so, providers=["CPUExecutionProvider"])
    except Exception as e:  # ONNX Runtime refuses this layout: recorded, not a failure of the bundle
        return None, {"error": " ".join(str(e).split())[:300] or type(e).__name__}
    load_s = time.perf_counter() - t0
    return session, {"load_s": round(load_s, 3), "peak_bytes": peak_resident_bytes(), "baseline_bytes": baseline}


def added_bytes(side: Mapping[str, Any]) -> int | None:
    """What a measured load added to its process's resident memory: its peak less what the process held before it
    (the peak itself for a record without a baseline); None when not measured."""
    peak, base = side.get("peak_bytes"), side.get("baseline_bytes")
    if not isinstance(peak, int):
        return None
    return max(peak - base, 0) if isinstance(base, int) else peak


def child_main(conn: Any, job: dict[str, Any]) -> None:
    """In a fresh process that has imported onnxruntime: create a session from each of ``job["paths"]`` in turn (the
    peak reset between them: :func:`can_reset_peak`) and send ``("result", [{"load_s", "peak_bytes",
    "baseline_bytes"} or {"error": text}, ...])``."""
    try:
        import onnxruntime as ort

        ort.set_default_logger_severity(4)
        out = []
        for i, path in enumerate(job["paths"]):
            session, measured = load_by_path(ort, str(path), reset=i > 0)
            del session
            out.append(measured)
        conn.send(("result", out))
    finally:
        with contextlib.suppress(Exception):
            conn.close()


@dataclass(frozen=True)
class Layouts:
    """The two files to load by path: ``shipped`` (the model as the bundle ships it, its data files beside it, in a
    private folder) and ``source`` (the source model in its own folder, None when ONNX Runtime cannot find its data
    from its path: a --data-dir elsewhere), with what each layout is ("single", "external"). ``same``: the shipped
    file is the source file byte for byte (bundled as it came), so one load stands for both: the source is not
    loaded again."""

    shipped: Path
    shipped_layout: str
    source: Path | None
    source_layout: str
    same: bool = False


@dataclass
class LoadCost:
    """The load-cost children, started early (:func:`started`); :meth:`measure` gives them their layouts."""

    children: list[Any]

    def discard(self) -> None:
        for child in self.children:
            if child is not None:
                child.discard()
        self.children = []


@contextlib.contextmanager
def started(count: int | None = None) -> Iterator[LoadCost]:
    """``count`` load-cost children started now (their onnxruntime import overlaps the caller's work); None: one
    where a process can measure both layouts (:func:`can_reset_peak`), else two."""
    from ..child.childproc import ChildProcess

    cost = LoadCost([])
    if count is None:
        count = 1 if can_reset_peak() else 2
    try:
        for _i in range(count):
            try:
                cost.children.append(ChildProcess(LOAD_COST_TARGET, preload=("onnxruntime",), fork=False))
            except OSError:  # no process can be started: the loads are run without a head start, or not at all
                cost.children.append(None)
        yield cost
    finally:
        cost.discard()


def _loads(cost: LoadCost, index: int, paths: list[Path], cancel: Any) -> list[dict[str, Any]]:
    """Each of ``paths`` loaded in turn in load-cost child ``index``: ``{"load_s", "peak_bytes", "baseline_bytes"}``
    or ``{"error"}`` each."""
    from ..errors import Cancelled, OnnxpackError
    from .childrun import run_in_child

    child = cost.children[index] if index < len(cost.children) else None
    try:
        raw = run_in_child(LOAD_COST_TARGET, {"paths": [os.path.abspath(p) for p in paths]}, timeout=TIMEOUT_S,
                           what=f"Loading {paths[0].name} by its path", cancel=cancel, progress=None, child=child)
    except Cancelled:
        raise
    except OnnxpackError as e:  # a crash or a time-out: the end user's load of these layouts is not measured
        return [{"error": e.message[:300]} for _ in paths]
    finally:
        if child is not None:
            cost.children[index] = None
    return [dict(r) for r in raw]


def measure(cost: LoadCost | None, layouts: Layouts, ort_version: str, cancel: Any = None,
            shipped: Mapping[str, Any] | None = None, source: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The manifest's ``smoke.load_cost``: each layout's time, peak and added memory (or why it was not measured), and
    the shipped layout's ratios to the source's. ``shipped``/``source``: the loads as the smoke child measured them
    (Linux: its own session of the shipped layout, then the source by path; each after its peak was reset); a layout
    without one is loaded by ``cost``'s processes: the shipped layout first in a fresh process, the source then in the
    same one after its peak was reset (Linux), else in a fresh one of its own; with ``layouts.same`` the shipped
    layout's load is the source's too."""
    second: dict[str, Any] | None
    if layouts.same:
        first, second, method = _one_load(cost, layouts, shipped, cancel)
    elif shipped is not None and (source is not None or layouts.source is None or cost is None):
        first = dict(shipped)
        second = dict(source) if source is not None else None
        if second is None and layouts.source is not None:
            second = dict(_NOT_MEASURED)
        method = (_HOW + "both in the smoke run's process, each after its freed memory was handed back and the peak "
                  "reset: the shipped layout by the run's own session, the source after the run")
    elif cost is None:  # nothing measured either layout (never expected: recorded, not a failure of the bundle)
        first = dict(_NOT_MEASURED)
        second = dict(first) if layouts.source is not None else None
        method = "InferenceSession(path): not measured"
    elif shipped is not None:
        first = dict(shipped)
        second = _loads(cost, 0, [layouts.source], cancel)[0] if layouts.source is not None else None
        method = _HOW + ("the shipped layout by the smoke run's own session (its peak reset before), the source in a "
                         "fresh process")
    else:
        together = len(cost.children) == 1
        if layouts.source is None:
            first, second = _loads(cost, 0, [layouts.shipped], cancel)[0], None
        elif together:
            first, second = _loads(cost, 0, [layouts.shipped, layouts.source], cancel)
        else:
            first = _loads(cost, 0, [layouts.shipped], cancel)[0]
            second = _loads(cost, 1, [layouts.source], cancel)[0]
        method = _HOW + "the shipped layout first in a fresh process, " + (
            "then the source in it, its freed memory handed back and the peak reset" if together
            else "the source in another")
    if second is None:
        second = {"error": "its external data is not beside it: ONNX Runtime cannot load it by path"}
    doc: dict[str, Any] = {"method": method, "ort_version": ort_version,
                           "shipped": _with_added({"layout": layouts.shipped_layout, **first}),
                           "source": _with_added({"layout": layouts.source_layout, **second})}
    a, b = doc["shipped"], doc["source"]
    if "error" not in a and "error" not in b:
        doc["time_ratio"] = round(a["load_s"] / max(b["load_s"], 1e-3), 2)
        if isinstance(a.get("added_bytes"), int) and isinstance(b.get("added_bytes"), int):
            # below the measurement's noise a load counts as MIN_MEMORY_BYTES: a small model's second load in a
            # process adds next to nothing (the first paid ONNX Runtime's own start), and 12 MiB / 0 says nothing
            doc["memory_ratio"] = round(max(a["added_bytes"], MIN_MEMORY_BYTES) / max(b["added_bytes"],
                                                                                    MIN_MEMORY_BYTES), 2)
    return doc


def _one_load(cost: LoadCost | None, layouts: Layouts, shipped: Mapping[str, Any] | None,
              cancel: Any) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Both sides and the method of a source shipped as it came (``layouts.same``): the shipped layout's one load,
    as the smoke run measured it or loaded now in a fresh process."""
    if shipped is not None:
        first = dict(shipped)
    elif cost is not None:
        first = _loads(cost, 0, [layouts.shipped], cancel)[0]
    else:
        first = dict(_NOT_MEASURED)
    second = {**first, "same_as_shipped": True} if "error" not in first else dict(first)
    how = ("by the smoke run's own session, its freed memory handed back and the peak reset before"
           if shipped is not None else "in a fresh process")
    return first, second, (_HOW + f"the shipped layout {how}; the source is the shipped file byte for byte, so "
                           "that load is the source's too")


def _with_added(side: dict[str, Any]) -> dict[str, Any]:
    added = added_bytes(side) if "error" not in side else None
    return {**side, "added_bytes": added} if added is not None else side


def noticeable(doc: Any) -> bool:
    """Whether the two layouts' measured loads differ by more than noise: by :data:`MIN_SECONDS` in time or by
    :data:`MIN_MEMORY_BYTES` in peak memory (a small model's ratios, of milliseconds, say nothing)."""
    if not isinstance(doc, Mapping):
        return False
    shipped, source = doc.get("shipped") or {}, doc.get("source") or {}
    if "load_s" not in shipped or "load_s" not in source:
        return False
    if abs(float(shipped["load_s"]) - float(source["load_s"])) >= MIN_SECONDS:
        return True
    a, b = added_bytes(shipped), added_bytes(source)
    return isinstance(a, int) and isinstance(b, int) and abs(a - b) >= MIN_MEMORY_BYTES


def heavier(doc: dict[str, Any] | None, subject: str) -> list[Finding]:
    """LOAD_COST_HEAVY when the shipped single file costs the end user more than :data:`MARGIN` times the time or
    memory of the source's external-data layout (and by at least :data:`MIN_SECONDS` / :data:`MIN_MEMORY_BYTES`)."""
    from ..units import format_bytes

    if not doc or doc["shipped"].get("layout") != "single" or doc["source"].get("layout") != "external":
        return []
    shipped, source = doc["shipped"], doc["source"]
    if "time_ratio" not in doc:
        return []
    slower = doc["time_ratio"] > MARGIN and shipped["load_s"] - source["load_s"] >= MIN_SECONDS
    mem_ratio = doc.get("memory_ratio")
    more, less = added_bytes(shipped), added_bytes(source)
    larger = (mem_ratio is not None and more is not None and less is not None and mem_ratio > MARGIN
              and more - less >= MIN_MEMORY_BYTES)
    if not (slower or larger):
        return []
    return [LOAD_COST_HEAVY.finding(subject, time_ratio=f"{doc['time_ratio']:.2f}",
                                    memory_ratio=f"{mem_ratio:.2f}" if mem_ratio is not None else "?",
                                    shipped_s=f"{shipped['load_s']:.2f}", source_s=f"{source['load_s']:.2f}",
                                    shipped_mem=format_bytes(more or 0), source_mem=format_bytes(less or 0),
                                    ort_version=doc["ort_version"])]
