"""The app's controller logic without Qt (gui/model/session.py): a batch's failures, the Bundle tab's reasons and what
the panels render, through a recording view instead of the window."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from onnxpack.core.errors import InputError, OnnxpackError
from onnxpack.gui.model.rowview import RowView
from onnxpack.gui.model.session import Session
from onnxpack.gui.model.state import ItemState, JobKind, Kind, QueueItem


class WordedError(OnnxpackError):
    worded = True


class WordedInputError(InputError):
    worded = True


class RecordingView:
    """The window's part, recorded: English words (%n and %1 as the window would fill them), every log line, every
    error shown and every tab asked for."""

    def __init__(self) -> None:
        self.lines: list[tuple[QueueItem | None, str]] = []
        self.errors: list[tuple[OnnxpackError, str]] = []
        self.tabs: list[str] = []
        self.finished: list[tuple[str, str | None]] = []

    def translate(self, context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
        assert context == "MainWindow"  # the window's texts keep their Qt Linguist context
        return text.replace("%n", str(n))

    def message(self, item: Any) -> str:
        return str(item.message)

    def hint(self, code: str | None, hint: str | None, params: Any = None) -> str | None:
        return hint

    def tick(self, name: str) -> str:
        return f'tick "{name}"'

    def release_counts(self, models: int, assets: int) -> str:
        return f"{models} models, {assets} assets"

    def count_text(self, key: str, n: int) -> str:
        return f"{key}: {n}"

    def state_text(self, state: ItemState) -> str:
        return str(state)

    def smoke_text(self, report: Any) -> str:
        return "smoke"

    def finding_hint(self, finding: Any, gate: Any) -> str | None:
        return None

    def set_state(self, item: QueueItem, state: ItemState) -> None:
        item.state = state

    def refresh(self, item: QueueItem) -> None:
        pass

    def update_actions(self) -> None:
        pass

    def log_line(self, item: QueueItem | None, line: str) -> None:
        self.lines.append((item, line))

    def show_error(self, err: OnnxpackError, title: str) -> None:
        self.errors.append((err, title))

    def show_tab(self, name: str) -> None:
        self.tabs.append(name)

    def run_finished(self, outcome: str, stage: str | None = None) -> None:
        self.finished.append((outcome, stage))

    def store_shown_draft(self) -> None:
        pass

    def previous_changed(self, path: str, item: QueueItem) -> None:
        pass

    def set_data_dir(self, item: QueueItem, folder: Path) -> None:
        pass


class BundleJob:
    kind = JobKind.BUNDLE


def _session() -> tuple[Session, RecordingView]:
    view = RecordingView()
    return Session(view, WordedError, WordedInputError), view


def test_the_session_imports_no_qt() -> None:
    code = ("import sys, onnxpack.gui.model.session, onnxpack.gui.model.rowview\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_a_batch_names_all_its_failures_once_when_it_is_over(tmp_path: Path) -> None:
    session, view = _session()
    rows = [session.model.add(tmp_path / f"{name}.onnx", Kind.MODEL) for name in ("a", "b", "c")]
    session.batch = list(rows)
    for row in rows:
        row.state, row.job = ItemState.RUNNING, BundleJob()
    rows[0].job = None
    session.failed(rows[0], JobKind.BUNDLE, InputError("a broke", "fix a"))
    assert rows[0].state is ItemState.FAILED and rows[0].error is not None
    assert view.errors == []  # b and c still run: no dialog per model in a batch
    rows[1].job = rows[2].job = None  # c ended well, b fails last
    session.failed(rows[1], JobKind.BUNDLE, InputError("b broke"))
    assert len(view.errors) == 1
    summary, title = view.errors[0]
    assert summary.code == "BATCH_FAILED" and title == "Bundling failed"
    assert summary.message.startswith("2 of 3 bundles failed:")
    assert "a.onnx: a broke" in summary.message and "b.onnx: b broke" in summary.message
    assert session.batch == [] and session.batch_failures == []
    assert [outcome for outcome, _ in view.finished] == ["failed", "failed"]
    assert (rows[0], "Error: a broke") in view.lines and (rows[1], "Error: b broke") in view.lines


def test_a_single_failure_is_shown_at_once_with_the_title_of_its_job(tmp_path: Path) -> None:
    session, view = _session()
    row = session.model.add(tmp_path / "m.onnx", Kind.MODEL)
    session.failed(row, JobKind.INSPECT, InputError("not a model", "export it again"))
    assert row.state is ItemState.FAILED
    assert [(e.message, t) for e, t in view.errors] == [("not a model", "Cannot read this model")]
    assert [line for _, line in view.lines] == ["Error: not a model", "How to fix: export it again"]


def test_the_bundle_tab_says_why_it_cannot_bundle(tmp_path: Path) -> None:
    session, _ = _session()
    assert session.blocked_reason(None, False) == "Select a model in the queue to bundle it."
    bundle = session.model.add(tmp_path / "r-1.0.0.zip", Kind.BUNDLE)
    assert session.blocked_reason(bundle, False) == "This row is a bundle: it is verified, not bundled."
    model = session.model.add(tmp_path / "m.onnx", Kind.MODEL)
    assert session.blocked_reason(model, False) == "Busy: inspecting"


def test_every_panel_renders_the_row_view_the_session_makes(tmp_path: Path) -> None:
    session, _ = _session()
    assert session.row_view(None, False) == RowView(None)
    bundle = session.model.add(tmp_path / "r-1.0.0.zip", Kind.BUNDLE)
    view = session.row_view(bundle, False)
    assert view.item is bundle and not view.can_bundle and not view.editable
    assert view.no_result is not None and view.no_result.startswith("This row is a bundle")
    model = session.model.add(tmp_path / "m.onnx", Kind.MODEL)
    model.error = InputError("not a model", "export it again")
    failed = session.row_view(model, False)
    assert failed.failure == "not a model\nHow to fix: export it again"
    assert not failed.editable  # nothing was read: the form stays off


def test_the_result_tab_of_a_failed_bundle_says_how_to_fix_it(tmp_path: Path) -> None:
    """A row whose latest bundle failed: the Result tab says the error, what to do about it (it was only in the
    dialog and the log), and where the bundle made before it still is."""
    from onnxpack.gui.model.runstate import RunState

    session, _ = _session()
    row = session.model.add(tmp_path / "m.onnx", Kind.MODEL)
    row.run = RunState()
    row.run.finish("failed", "smoke")
    session.failed(row, JobKind.BUNDLE, InputError("ONNX Runtime cannot load it", "install the locale"))
    said = session.no_result_text(row)
    assert said == "The latest bundle of this row failed: ONNX Runtime cannot load it\nHow to fix: install the locale"
    assert session.row_view(row, False).no_result == said

    class Made:
        zip_path = tmp_path / "m-1.0.0.zip"

    row.last_success = Made()  # type: ignore[assignment]
    assert session.no_result_text(row) == said + f"\nThe bundle made before it is still there: {Made.zip_path}"
    row.error = InputError("no hint here")
    assert session.no_result_text(row) == ("The latest bundle of this row failed: no hint here\n"
                                           f"The bundle made before it is still there: {Made.zip_path}")
