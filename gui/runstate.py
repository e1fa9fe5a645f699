"""A bundle run as the Progress tab shows it, without Qt: the pipeline's stages, each stage's state and amount, the
time left, and where a failed run is shown."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from onnxpack.core.errors import OnnxpackError, OutputError
from onnxpack.core.progress import BYTES, ProgressEvent
from onnxpack.core.release import stages as _stages

if TYPE_CHECKING:  # the engine's options, for mypy only (importing core.release.bundle loads onnx)
    from onnxpack.core.release.bundle import BundleOptions

__all__ = ["PART_UNITS", "STAGES", "EtaEstimator", "RunState", "failed_stage", "skipped_stages"]

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
    stays "running" and shows its own amount, never "100 % — done" beside "0 of 4" (issue 30 item 5).
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

    @classmethod
    def begin(cls, title: str, skipped: Iterable[str] = (), clock: Callable[[], float] = time.monotonic) -> RunState:
        skip = set(skipped)
        run = cls(title=title, running=True, started=clock())
        run.state = {stage: "skipped" if stage in skip else "waiting" for stage in STAGES}
        return run

    def apply(self, ev: ProgressEvent) -> list[str]:
        """Record a progress event; returns the stages whose display changed."""
        if ev.stage not in self.state:
            self.state[ev.stage] = "waiting"
        changed = [ev.stage]
        if ev.total <= 0:  # a message without an amount: keep the last amount of the same unit, show the message
            last = self.last.get(ev.stage)
            if last is not None and last.unit == ev.unit:
                ev = ProgressEvent(ev.stage, last.done, last.total, ev.message, ev.unit)
            # else another kind of work of the stage begins (a wheel downloaded, its environment being made): the
            # bytes of the download are not this step's amount
            if self.state[ev.stage] != "done":
                self.state[ev.stage] = "running"
        else:
            part = PART_UNITS.get(ev.stage) == ev.unit  # one download of several steps, not the stage
            self.state[ev.stage] = "done" if ev.finished and not part else "running"
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
                if state == "running":
                    self.state[stage] = "done"
                elif state == "waiting":
                    self.state[stage] = "skipped"
            elif state == "running":
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
        if ev is None or ev.total <= 0:
            return None
        return min(1.0, ev.fraction)
