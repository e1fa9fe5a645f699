"""A bundle run as the Progress tab shows it, without Qt: the pipeline's stages, each stage's state and amount, the
time left, and where a failed run is shown."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from onnxpack.core.errors import OnnxpackError, OutputError
from onnxpack.core.progress import BYTES, STEPS, ProgressEvent
from onnxpack.core.release import stages as _stages

if TYPE_CHECKING:  # the engine's options, for mypy only (importing core.release.bundle loads onnx)
    from onnxpack.core.release.bundle import BundleOptions

__all__ = ["PART_UNITS", "PER_RUN", "STAGES", "EtaEstimator", "RunState", "failed_stage", "skipped_stages"]

#: Pipeline stages in order, as the engine declares them once (core/release/stages.py: the names its progress events
#: carry; "prove" is --prove-ort, its wheels fetched after validate, the releases run after the smoke run).
STAGES: tuple[str, ...] = _stages.STAGE_NAMES


def failed_stage(error: BaseException | None) -> str | None:
    """The stage a failed run is shown at when the error says where (else the stage reported last): writing the
    output is the ZIP stage; an error of --prove-ort (code PROVE_*) is the Prove on releases stage, also when it
    came before the release's first progress report (no network: the index was never reached)."""
    if isinstance(error, OutputError):
        return "zip"
    if isinstance(error, OnnxpackError) and str(error.code or "").startswith("PROVE_"):
        return "prove"
    return None


#: Stages whose amounts in this unit are one part of their work, never the whole: --prove-ort's wheel downloads
#: (bytes) come before each release's environment is made and run (steps); a download done is not the stage done.
PART_UNITS = {"prove": BYTES}


#: A release of several files (core/release/folderbundle.py) runs the stages once per model; these stages run once for
#: the whole release (its ZIP: the assets, README.txt and the manifest).
PER_RUN = frozenset({"zip"})


def skipped_stages(options: BundleOptions | None) -> list[str]:
    """The stages a run with ``options`` never reaches (shown "skipped" from its start): the engine's own rule
    (core/release/stages.py: the smoke run when turned off, --prove-ort when no release is named, the ORT format when
    not chosen)."""
    return _stages.skipped_stages(options)


class EtaEstimator:
    """Estimates the time left in a stage from the average rate since the stage began."""

    MIN_ELAPSED = 0.5  # seconds of data before an estimate is shown

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock or time.monotonic
        self._start: dict[str, tuple[float, int]] = {}

    def reset(self) -> None:
        self._start.clear()

    def seconds_left(self, stage: str, done: int, total: int) -> float | None:
        now = self._clock()
        if stage not in self._start:
            self._start[stage] = (now, done)
            return None
        t0, d0 = self._start[stage]
        elapsed = now - t0
        if elapsed < self.MIN_ELAPSED or done <= d0 or total <= 0:
            return None
        rate = (done - d0) / elapsed
        return max(0.0, (total - done) / rate)


@dataclass
class RunState:
    """One bundle run as the Progress tab shows it: kept per queue row, so the tab shows the *selected* row's run
    (live while it runs) rather than whichever job ran last.

    A stage is "done" only when the engine said so (a finished event: done == total) or when the whole run
    succeeded; a stage the pipeline moved past without finishing it (the checker still running beside the merge)
    stays "running" and shows its own amount, never "100 % — done" beside "0 of 4".
    """

    title: str = ""
    running: bool = False
    started: float = 0.0
    outcome: str | None = None  # 'done', 'failed', 'cancelled' once finished; None while running or never run
    stopping: bool = False
    ended: float = 0.0
    state: dict[str, str] = field(default_factory=lambda: dict.fromkeys(STAGES, "waiting"))
    last: dict[str, ProgressEvent] = field(default_factory=dict)
    eta: EtaEstimator = field(default_factory=EtaEstimator)
    current: str | None = None  # the stage the pipeline reported last: where a failure is shown
    last_at: float = 0.0  # when the pipeline reported last (a long step, installing a wheel, reports nothing)
    # A release of several files: how many models (0: a run of one model), the one running now (1-based), each
    # model's path in the release, and which model each stage's last report was of.
    models: int = 0
    model: int = 0
    entries: dict[int, str] = field(default_factory=dict)
    of_model: dict[str, int] = field(default_factory=dict)
    _written: int = 0  # the models whose files the pipeline began to write (merge or copy) so far
    _retargeted: bool = False  # the model begun last was retargeted (--fix-ir), its merge still to come

    @property
    def release(self) -> bool:
        """The run bundles a release of several models (each stage but the ZIP runs once per model)."""
        return self.models > 1

    @property
    def entry(self) -> str:
        """The path of the model running now ('' in a run of one model)."""
        return self.entries.get(self.model, "")

    def _which_model(self, ev: ProgressEvent) -> ProgressEvent:
        """Follow which model of a release the pipeline works on: it inspects and validates each model in turn
        ("model N of M: PATH" first), then writes each in turn, from its merge (or copy) on: a model's first merge
        report (nothing done yet) after a report of another stage begins the next model, or its retargeting
        (--fix-ir), which comes before its merge."""
        m = ev.values if ev.stage == "inspect" and ev.step == "MODEL_OF" else None  # core/steps.py MODEL_OF
        if m is not None:
            self.model, self.models = int(m["index"]), int(m["count"])
            self.entries[self.model] = str(m["entry"])
            return replace(ev, done=0, total=1, unit=STEPS)  # this model's own inspection begins
        if not self.release:
            return ev
        retargets = ev.stage == "validate" and ev.step == "RETARGETING"  # --fix-ir: first
        merges = ev.stage == "merge" and ev.done == 0 and self.current != "merge"
        if retargets or (merges and not self._retargeted):
            self._written = min(self._written + 1, self.models)
            self.model = self._written
        self._retargeted = retargets or (self._retargeted and not merges)
        return ev

    @classmethod
    def begin(cls, title: str, skipped: Iterable[str] = (), clock: Callable[[], float] = time.monotonic,
              models: Sequence[str] = ()) -> RunState:
        """``models``: a release's model paths, in the order the engine runs them (its reports name them too)."""
        skip = set(skipped)
        run = cls(title=title, running=True, started=clock())
        if len(models) > 1:
            run.models = len(models)
            run.entries = {i: m for i, m in enumerate(models, 1)}
        run.state = {stage: "skipped" if stage in skip else "waiting" for stage in STAGES}
        return run

    def apply(self, ev: ProgressEvent) -> list[str]:
        """Record a progress event; returns the stages whose display changed."""
        if ev.stage not in self.state:
            self.state[ev.stage] = "waiting"
        changed = [ev.stage]
        ev = self._which_model(ev)
        per_model = self.release and ev.stage not in PER_RUN
        same_model = not per_model or self.of_model.get(ev.stage) == self.model
        if ev.total <= 0:  # a message without an amount: keep the last amount of the same unit, show the message
            last = self.last.get(ev.stage)
            if last is not None and last.unit == ev.unit and same_model:  # never the amount of the model before
                ev = replace(ev, done=last.done, total=last.total)
            # else another kind of work of the stage begins (a wheel downloaded, its environment being made): the
            # bytes of the download are not this step's amount
            if self.state[ev.stage] != "done":
                self.state[ev.stage] = "running"
        else:
            part = PART_UNITS.get(ev.stage) == ev.unit  # one download of several steps, not the stage
            finished = ev.finished and not part
            # a release's stage done for one model runs again for the next: done only after the last model's
            if finished and per_model and self.model < self.models:
                self.state[ev.stage] = "partly"
            else:
                self.state[ev.stage] = "done" if finished else "running"
        if per_model:
            self.of_model[ev.stage] = self.model
        self.last[ev.stage] = ev
        self.current = ev.stage
        self.last_at = time.monotonic()
        return changed

    def finish(self, outcome: str, failed_stage: str | None = None,
               clock: Callable[[], float] = time.monotonic) -> None:
        """``outcome``: 'done', 'failed' or 'cancelled'. On success every stage that ran is done and the stages
        never reached are skipped. A failure is shown at one stage: ``failed_stage`` when the error says where
        (writing the output is the ZIP stage), else the stage reported last; the other stages still running
        are "stopped". After Cancel the running stages are "cancelled"; none is ever shown done unless it was.
        Once the run has ended no stage is "waiting": the stages a failed or cancelled run never reached are
        "not run" (nothing waits for them any more)."""
        self.running = False
        self.stopping = False
        self.outcome = outcome
        self.ended = clock()
        where = (failed_stage or self.current) if outcome == "failed" else None
        if where is None and outcome == "failed":
            where = next((s for s, st in self.state.items() if st == "waiting"), STAGES[0])
        for stage, state in self.state.items():
            if outcome == "done":
                if state in ("running", "partly"):
                    self.state[stage] = "done"
                elif state == "waiting":
                    self.state[stage] = "skipped"
            elif state in ("running", "partly"):
                self.state[stage] = "cancelled" if outcome == "cancelled" else "stopped"
        if where is not None:
            self.state[where] = "failed"
        for stage, state in self.state.items():
            if state == "waiting":
                self.state[stage] = "not run"

    def fraction(self, stage: str) -> float | None:
        """The share of ``stage`` done as shown (1.0 only for a stage that is done), or None without an amount."""
        ev = self.last.get(stage)
        state = self.state.get(stage, "waiting")
        if state == "done":
            return 1.0
        if self.release and stage not in PER_RUN and stage in self.of_model:  # the models before count in full
            own = 1.0 if state == "partly" else (min(1.0, ev.fraction) if ev is not None and ev.total > 0 else 0.0)
            return (self.of_model[stage] - 1 + own) / self.models
        if ev is None or ev.total <= 0:
            return None
        return min(1.0, ev.fraction)
