"""A release's models two at a time (core/release/folderparallel.py): the bundle's bytes do not depend on which model
finishes first, a failing model stops the release and leaves nothing, cancel too, and progress follows one model at
a time in the release's order."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any
from unittest import mock

import onnx
import pytest

from onnxpack.core import steps
from onnxpack.core.errors import Cancelled, OnnxpackError
from onnxpack.core.progress import CancelToken, ProgressEvent, report
from onnxpack.core.release import folderbundle, folderparallel
from onnxpack.core.release.bundle import BundleOptions, build_bundle

from .factory import add_model, save_with_external


@pytest.fixture()
def release(tmp_path: Path) -> Path:
    """Three small models (one with external data) and a config beside them."""
    root = tmp_path / "app" / "models"
    (root / "b").mkdir(parents=True)
    save_with_external(add_model(32), root / "a.onnx")
    onnx.save(add_model(16), str(root / "b" / "b.onnx"))
    onnx.save(add_model(8), str(root / "c.onnx"))
    (root / "settings.json").write_text("{}", encoding="utf-8")
    return root


def _bundle(root: Path, out: Path, **kw: Any) -> Any:
    return build_bundle(BundleOptions(model=root, out_dir=out, version="1.0.0", source_date_epoch=1_700_000_000,
                                      load_cost=False, **kw), progress=kw.pop("progress", None))


def _slow_first(seconds: float) -> Any:
    """model_stage, with the release's first model finishing last."""
    real = folderparallel.model_stage

    def stage(plan: Any, *args: Any) -> Any:
        run = args[2]
        report(run.progress, "merge", 0, 1, steps.COPIED, file=f"begin {plan.model_entry}")
        if plan.model_entry.endswith("a.onnx"):
            time.sleep(seconds)
        done = real(plan, *args)
        report(run.progress, "merge", 1, 1, steps.COPIED, file=f"end {plan.model_entry}")
        return done

    return stage


def test_the_bytes_do_not_depend_on_which_model_finishes_first(release: Path, tmp_path: Path) -> None:
    with mock.patch.object(folderbundle, "PARALLEL_MAX_BYTES", 0):
        alone = _bundle(release, tmp_path / "seq").zip_path.read_bytes()
    with mock.patch.object(folderparallel, "model_stage", _slow_first(1.5)):
        both = _bundle(release, tmp_path / "par").zip_path.read_bytes()
    assert both == alone


def test_progress_follows_one_model_at_a_time_in_order(release: Path, tmp_path: Path) -> None:
    seen: list[ProgressEvent] = []
    lock = threading.Lock()

    def progress(ev: ProgressEvent) -> None:
        with lock:
            seen.append(ev)

    with mock.patch.object(folderparallel, "model_stage", _slow_first(1.0)):
        r = build_bundle(BundleOptions(model=release, out_dir=tmp_path / "o", version="1.0.0", load_cost=False),
                         progress=progress)
    order = r.manifest["bundle"]["models"]
    assert order[0] == "models/a.onnx" and len(order) == 3  # the slow one first: the others finish before it
    tags = [ev.message for ev in seen if ev.message.startswith(("begin ", "end "))]
    assert tags == [f"{what} {entry}" for entry in order for what in ("begin", "end")]


def test_a_failing_model_stops_the_release_and_leaves_nothing(release: Path, tmp_path: Path) -> None:
    real = folderparallel.model_stage

    def stage(plan: Any, *args: Any) -> Any:
        if plan.model_entry.endswith("b.onnx"):
            from onnxpack.core.errors import RuntimeFailure

            raise RuntimeFailure("injected", "none", code="INTERNAL")
        return real(plan, *args)

    out = tmp_path / "out"
    out.mkdir()
    with mock.patch.object(folderparallel, "model_stage", stage), pytest.raises(OnnxpackError) as e:
        _bundle(release, out)
    assert "injected" in e.value.message and "models/b/b.onnx" in e.value.message
    assert list(out.iterdir()) == []


def test_cancel_stops_every_model_and_leaves_nothing(release: Path, tmp_path: Path) -> None:
    cancel = CancelToken()
    real = folderparallel.model_stage

    def stage(plan: Any, *args: Any) -> Any:
        cancel.cancel()
        return real(plan, *args)

    out = tmp_path / "out"
    out.mkdir()
    with mock.patch.object(folderparallel, "model_stage", stage), pytest.raises(Cancelled):
        build_bundle(BundleOptions(model=release, out_dir=out, version="1.0.0", load_cost=False), cancel=cancel)
    assert list(out.iterdir()) == []
