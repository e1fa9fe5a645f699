"""The end user's load of a bundled model, measured while it is bundled (core/runtime/loadcost.py): where the smoke
run measures it (Linux) and what it waits for, the shipped file on disk, the manifest's ``smoke.load_cost``.

On Linux the smoke child measures both layouts itself: its first session is the shipped layout by its path, and
after the run it loads the source by its path. Nothing else of the bundle runs beside either load: until the first
session is created the bundle's one-load lock is held and the proof's hashing waits (:meth:`MeasuredLoads.wait`);
before the source's load the child asks, and is answered once the proof is done and the lock is held again
(:meth:`MeasuredLoads.answer`). Elsewhere a process of its own loads each layout after the smoke run.
"""

from __future__ import annotations

import dataclasses
import posixpath
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import classcodes, steps
from ..model.layout import Layout
from ..progress import STEPS, CancelToken, ProgressCallback, ProgressEvent, report
from ..runtime import loadcost
from .plan import BundlePlan
from .smokerun import Smoked, SmokeTarget

__all__ = ["ONE_LOAD_AT_A_TIME", "MeasuredLoads", "load_cost", "shipped_file", "source_by_path"]

#: The end user's loads are measured one at a time in this process (a release's models run two at a time:
#: core/release/folderparallel.py).
ONE_LOAD_AT_A_TIME = threading.Lock()
#: The smoke child's question before it loads the source (core/runtime/smoke_child.py).
MEASURE_SOURCE = "measure-source"


class MeasuredLoads:
    """The smoke child's measured loads (see the module): :meth:`progress` passes the run's reports on and sees the
    first session created; :meth:`answer` answers the child's question before the source's load (``before``: what
    must be done first, the proof); :meth:`done` when the smoke run has ended, however."""

    def __init__(self, progress: ProgressCallback | None, measured: bool, before: Callable[[], Any]) -> None:
        self._progress = progress
        self._before = before
        self._created = threading.Event()
        self._lock = threading.Lock()
        self._held = measured and ONE_LOAD_AT_A_TIME.acquire()
        if not measured:
            self._created.set()

    def progress(self, event: ProgressEvent) -> None:
        if event.step == "SESSION_CREATED" and not self._created.is_set():
            self._created.set()
            self._release()
        if self._progress is not None:
            self._progress(event)

    def answer(self, question: Any) -> bool:
        """The child may load the source now: the proof is done and no other load runs (until :meth:`done`)."""
        if question != MEASURE_SOURCE:
            return False
        self._before()
        with self._lock:
            if not self._held:
                self._held = ONE_LOAD_AT_A_TIME.acquire()
        return True

    def done(self) -> None:
        self._created.set()
        self._release()

    def wait(self, stop: CancelToken) -> None:
        """Until the first session is created (at once when nothing is measured)."""
        while not self._created.wait(0.1):
            stop.raise_if_cancelled()

    def _release(self) -> None:
        with self._lock:
            if self._held:
                self._held = False
                ONE_LOAD_AT_A_TIME.release()


def shipped_file(target: SmokeTarget, teed: Path | None, source: Path | None = None) -> Path:
    """The shipped model as the end user has it on disk: run in place (its stored entry, which the proof reads), the
    copy ``teed`` into the work folder from the buffers the entry was written from, or (none teed) ``source``, the
    source file when the entry is it byte for byte; else the copy the smoke run reads, its data files beside it."""
    if target.window is None:
        return target.path
    shipped = teed if teed is not None else source
    if shipped is None:
        raise classcodes.INTERNAL.error(variant="entry_not_teed")
    return shipped


def source_by_path(plan: BundlePlan) -> Path | None:
    """The source model when ONNX Runtime can load it by its path (its data beside it, validated by the bundle:
    security.md rule 1), else None (a --data-dir elsewhere)."""
    loc = plan.location
    return loc.model if loc.data_dir.resolve() == loc.model.parent.resolve() else None


def load_cost(plan: BundlePlan, layout: Layout, target: SmokeTarget, smoked: Smoked, run: Any,
              cost: loadcost.LoadCost | None, shipped: Path, same: bool = False) -> Smoked:
    """``smoked`` with the end user's load cost (``load_cost``) and its finding: the shipped layout by its path
    (``shipped``: :func:`shipped_file`) against the source by its own path. As the smoke child measured them
    (``smoked.shipped_load`` and ``source_load``), else loaded now by ``cost``'s processes. ``same``: the shipped file
    is the source file byte for byte, so the source is not loaded again (loadcost.Layouts)."""
    if cost is not None:  # the loads are made now (else the smoke child said it measured them)
        report(run.progress, "smoke", 1, 1, steps.MEASURING_LOAD_COST, unit=STEPS)
    loc = plan.location
    source_layout = Layout.EXTERNAL if any(p != loc.model for p in target.source_files) else Layout.SINGLE
    layouts = loadcost.Layouts(shipped, layout.value, source_by_path(plan), source_layout.value, same)
    with ONE_LOAD_AT_A_TIME:
        doc = loadcost.measure(cost, layouts, str(smoked.doc.get("ort_version", "")), run.cancel,
                               shipped=smoked.shipped_load, source=smoked.source_load)  # fmt: skip
    found = loadcost.heavier(doc, posixpath.basename(plan.model_entry))
    return dataclasses.replace(smoked, doc={**smoked.doc, "load_cost": doc}, findings=(*smoked.findings, *found))
