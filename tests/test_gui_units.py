"""GUI building blocks: worker jobs and cancellation, the event loop during long work, crash hook, formatting,
icons."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QImageReader

from onnxpack.core.errors import InputError
from onnxpack.core.progress import ProgressEvent, report
from onnxpack.gui.formatting import EtaEstimator, format_duration, format_shape
from onnxpack.gui.worker import Job, JobQueue
from tests.gui_helpers import make_window

ROOT = Path(__file__).resolve().parent.parent


def _run(qtbot, queue: JobQueue, job: Job) -> dict:
    out: dict = {"progress": []}
    job.signals.succeeded.connect(lambda r: out.setdefault("result", r))
    job.signals.failed.connect(lambda e: out.setdefault("error", e))
    job.signals.cancelled.connect(lambda: out.setdefault("cancelled", True))
    job.signals.progress.connect(out["progress"].append)
    with qtbot.waitSignal(job.signals.finished, timeout=30_000):
        queue.submit(job)
    return out


def test_job_outcomes(qtbot):
    q = JobQueue()

    def ok(progress, cancel):
        for i in range(3):
            report(progress, "merge", i + 1, 3)
        return threading.current_thread() is threading.main_thread()

    out = _run(qtbot, q, Job(ok))
    assert out["result"] is False  # ran off the GUI thread
    assert [e.done for e in out["progress"]][-1] == 3

    def bad(progress, cancel):
        raise InputError("no such model", "check the path")

    out = _run(qtbot, q, Job(bad))
    assert out["error"].message == "no such model" and out["error"].hint == "check the path"


def test_unexpected_exception_becomes_error_with_log(qtbot):
    def bug(progress, cancel):
        raise ZeroDivisionError("oops")

    out = _run(qtbot, JobQueue(), Job(bug))
    err = out["error"]
    assert err.code == "INTERNAL" and "ZeroDivisionError" in err.message
    assert "Traceback" in err.details and "bug in onnxpack" in err.hint


def test_cancel_running_and_queued_jobs(qtbot):
    q = JobQueue()
    started = threading.Event()

    def slow(progress, cancel):
        started.set()
        while not cancel.wait(0.01):
            pass
        cancel.raise_if_cancelled()

    first, second = Job(slow), Job(slow)
    results = []
    first.signals.cancelled.connect(lambda: results.append("first"))
    second.signals.cancelled.connect(lambda: results.append("second"))
    q.submit(first)
    q.submit(second)
    assert started.wait(10)
    t0 = time.monotonic()
    with qtbot.waitSignals([first.signals.finished, second.signals.finished], timeout=5000):
        q.cancel_all()
    assert time.monotonic() - t0 < 1.0  # stops within a second
    assert sorted(results) == ["first", "second"] and not q.busy


def test_event_loop_keeps_turning_during_long_job(qtbot):
    """A QTimer keeps ticking while a job holds the worker busy (fake slow job)."""
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    running = threading.Event()

    def slow(progress, cancel):
        running.set()
        end = time.monotonic() + 1.0
        while time.monotonic() < end:  # busy CPU work, no cooperation with Qt
            sum(range(20_000))
        return True

    job = Job(slow)
    queue = JobQueue()  # keep a reference: destroying a queue waits for its jobs
    with qtbot.waitSignal(job.signals.finished, timeout=30_000):
        queue.submit(job)
    timer.stop()
    assert running.is_set()
    assert len(ticks) >= 10
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(gaps) < 0.5


def test_event_loop_keeps_turning_during_real_merge(qtbot, tmp_path):
    """The window stays responsive while core.merge merges a 96 MiB external-data model on a worker."""
    from benchmarks.common import make_external_model
    from onnxpack.core.model.merge.merge import merge_model

    model = make_external_model(tmp_path / "big", 96 * 2**20, tensor_bytes=16 * 2**20)
    w = make_window(qtbot, tmp_path)
    ticks_at_progress: list[int] = []
    ticks = [0]
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start(5)

    def merge(progress, cancel):
        def slowed(ev: ProgressEvent) -> None:
            progress(ev)
            time.sleep(0.02)  # a slow disk: each chunk takes a while

        return merge_model(model, tmp_path / "merged.onnx", progress=slowed, cancel=cancel)

    job = Job(merge)
    job.signals.progress.connect(lambda ev: ticks_at_progress.append(ticks[0]))
    with qtbot.waitSignal(job.signals.finished, timeout=120_000):
        w.bundle_queue.submit(job)
    timer.stop()
    assert (tmp_path / "merged.onnx").stat().st_size > 96 * 2**20
    assert len(ticks_at_progress) >= 3
    # the timer advanced between progress reports: the GUI thread was never blocked by the merge
    assert ticks_at_progress[-1] > ticks_at_progress[0]


def test_crash_hook_logs_and_shows_dialog(qtbot, tmp_path, monkeypatch):
    from onnxpack.gui.crash import install_excepthook, log_dir

    shown = []
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    reporter = install_excepthook(lambda s, d, log: shown.append((s, d, log)))
    try:
        raise ValueError("boom")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    qtbot.waitUntil(lambda: len(shown) == 1, timeout=5000)
    summary, details, log = shown[0]
    assert summary == "ValueError: boom" and "Traceback" in details
    assert Path(log).parent == log_dir() and "ValueError: boom" in Path(log).read_text(encoding="utf-8")
    t = threading.Thread(target=lambda: 1 / 0)
    t.start()
    t.join()
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=5000)  # delivered to the GUI thread
    assert "ZeroDivisionError" in shown[1][0]
    del reporter


def test_window_shows_crash_as_dialog(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    with qtbot.waitSignal(w.error_shown, timeout=5000) as blocker:
        w.show_crash("KeyError: 'x'", "Traceback ...", "/logs/crash.log")
    box = blocker.args[0]
    assert "KeyError" in box.text() and "/logs/crash.log" in box.informativeText()
    assert "Traceback" in box.detailedText()
    box.done(0)


def test_formatting(qapp):
    from onnxpack.gui import i18n

    i18n.install_translators(qapp, "en")  # a Japanese test before this one may have left its translators installed
    assert format_duration(5) == "5 s" and format_duration(185) == "3 min 05 s"
    assert format_duration(3725) == "1 h 02 min"
    assert format_shape(["batch", 3, None]) == "[batch, 3, ?]" and format_shape(None) == "?"
    now = [0.0]
    eta = EtaEstimator(clock=lambda: now[0])
    assert eta.seconds_left("merge", 0, 100) is None
    now[0] = 1.0
    assert eta.seconds_left("merge", 25, 100) == pytest.approx(3.0)


def _pixels(data: bytes) -> list[tuple[int, int, int, int]]:
    """Decoded RGBA pixels of a PNG (un-premultiplied), row by row."""
    from PySide6.QtGui import QImage

    image = QImage.fromData(data, "PNG").convertToFormat(QImage.Format.Format_RGBA8888)
    assert not image.isNull()
    raw = bytes(image.constBits())[: image.sizeInBytes()]
    w, h, stride = image.width(), image.height(), image.bytesPerLine()
    return [tuple(raw[y * stride + 4 * x: y * stride + 4 * x + 4]) for y in range(h) for x in range(w)]  # type: ignore[misc]


# Qt's rasteriser picks SIMD code paths by CPU (SSE4/AVX2/AVX-512), and its anti-aliased edges differ by a step or
# two between them (seen: 8 edge pixels of the 32/48/256 px icons on an AMD EPYC with AVX-512). So the committed
# icons are compared with a fresh render by what they mean: same size, same encoding, every pixel within a few
# levels of 255 per channel, and only edge pixels (a small share) allowed to differ at all.
ICON_LEVELS = 4  # largest allowed per-channel difference of one pixel (of 255)
ICON_SHARE = 0.03  # largest share of pixels allowed to differ at all


def _assert_same_picture(fresh: bytes, committed: bytes, name: str) -> None:
    a, b = _pixels(fresh), _pixels(committed)
    assert len(a) == len(b), f"{name}: size differs"
    diffs = [max(abs(x - y) for x, y in zip(p, q, strict=True)) for p, q in zip(a, b, strict=True) if p != q]
    assert max(diffs, default=0) <= ICON_LEVELS, f"{name}: a pixel differs by {max(diffs)} levels"
    assert len(diffs) <= ICON_SHARE * len(a), f"{name}: {len(diffs)} of {len(a)} pixels differ"


def _ico_entries(data: bytes) -> list[tuple[int, bytes]]:
    import struct

    reserved, kind, count = struct.unpack_from("<HHH", data, 0)
    assert (reserved, kind) == (0, 1)
    out = []
    for i in range(count):
        w, h, colors, res, planes, bpp, length, offset = struct.unpack_from("<BBBBHHII", data, 6 + 16 * i)
        assert w == h and (colors, res, planes, bpp) == (0, 0, 1, 32)
        out.append((w or 256, data[offset: offset + length]))
    return out


def test_icons_are_reproducible(tmp_path):
    """The committed icons are what resources/icons/make_icons.py renders (pixels within a stated tolerance,
    never bytes: Qt's anti-aliasing depends on the CPU), the SVG master byte for byte."""
    sys.path.insert(0, str(ROOT / "resources" / "icons"))
    try:
        import make_icons  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    make_icons.main(tmp_path)
    committed = ROOT / "resources" / "icons"
    fresh_names = sorted(p.name for p in tmp_path.iterdir())
    assert fresh_names == sorted(p.name for p in committed.iterdir() if p.suffix in {".png", ".ico", ".svg"})
    assert (tmp_path / "onnxpack.svg").read_bytes() == (committed / "onnxpack.svg").read_bytes()
    for size in make_icons.PNG_SIZES:
        name = f"onnxpack-{size}.png"
        _assert_same_picture((tmp_path / name).read_bytes(), (committed / name).read_bytes(), name)
    fresh_ico, committed_ico = _ico_entries((tmp_path / "onnxpack.ico").read_bytes()), _ico_entries(
        (committed / "onnxpack.ico").read_bytes())
    assert [s for s, _ in fresh_ico] == [s for s, _ in committed_ico] == list(make_icons.ICO_SIZES)
    for (size, fresh), (_, old) in zip(fresh_ico, committed_ico, strict=True):
        _assert_same_picture(fresh, old, f"onnxpack.ico[{size}]")
        _assert_same_picture(old, (committed / f"onnxpack-{size}.png").read_bytes(), f"onnxpack.ico[{size}] vs png")
    reader = QImageReader(str(committed / "onnxpack.ico"))
    sizes = []
    for i in range(reader.imageCount()):
        reader.jumpToImage(i)
        sizes.append(reader.read().width())
    assert sizes == [16, 24, 32, 48, 64, 128, 256]


def test_icon_comparison_catches_a_changed_picture(tmp_path):
    """The tolerance is not so wide that a real change passes: a recoloured icon fails."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage

    committed = (ROOT / "resources" / "icons" / "onnxpack-32.png").read_bytes()
    image = QImage.fromData(committed, "PNG")
    for x in range(8, 24):
        for y in range(8, 24):
            image.setPixelColor(x, y, QColor("#ff0000"))
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    with pytest.raises(AssertionError):
        _assert_same_picture(bytes(data.data()), committed, "recoloured")


def test_create_app_names_the_application(qapp):
    from onnxpack.gui.app import _paths_from, create_app

    assert create_app(["onnxpack-gui"]) is qapp  # reuses the running application
    assert qapp.organizationName() == "onnxpack" and qapp.applicationName() == "onnxpack"
    assert not qapp.windowIcon().isNull()
    assert _paths_from(["a.onnx", "-platform", "b.zip"]) == [Path("a.onnx"), Path("b.zip")]


def test_screenshot_script_produces_every_state(tmp_path):
    """docs/make_screenshots.py (the README pictures) runs end to end with the real engine."""
    import os
    import subprocess

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "make_screenshots.py"), str(tmp_path)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    names = {p.name for p in tmp_path.glob("*.png")}
    assert {"empty.png", "inspected.png", "running.png", "done.png", "error.png"} <= names
    assert all(QImageReader(str(p)).size().width() >= 1000 for p in tmp_path.glob("*.png"))


def test_startup_log_is_written_once_the_window_is_shown(tmp_path):
    """ONNXPACK_STARTUP_LOG: the real app (a subprocess, offscreen) writes process creation → window shown."""
    import json
    import os
    import subprocess

    log = tmp_path / "startup.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ONNXPACK_STARTUP_LOG": str(log), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "onnxpack.gui.app"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not log.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.1)
        doc = json.loads(log.read_text(encoding="utf-8"))
    finally:
        proc.kill()
        proc.wait()
    assert doc["platform"] == "offscreen" and doc["startup_clock"] in ("proc", "GetProcessTimes")
    assert 0 < doc["startup_seconds"] < 60


def test_queue_state_is_an_enum_and_a_misspelt_state_raises(qtbot, tmp_path):
    """Issue 14 item 12: the 12 queue states are one Enum (equal to their old strings); a typo fails loudly."""
    from onnxpack.gui.widgets.queue_view import BUSY_STATES, ItemState, QueueItem

    w = make_window(qtbot, tmp_path)
    item = w.model.add(tmp_path / "m.onnx", "model")
    assert isinstance(item, QueueItem)
    w.queue.add(item)
    w._set_state(item, "ready")
    assert item.state is ItemState.READY and item.state == "ready" and f"{item.state}" == "ready"
    assert w.queue.item(0, 2).text() == "Ready"
    with pytest.raises(ValueError):
        w._set_state(item, "bundeled")
    assert item.state is ItemState.READY
    assert {s.value for s in BUSY_STATES} == {"inspecting", "verifying", "queued", "running", "cancelling"}
    assert all(w.queue.state_text(s) != s.value for s in ItemState)  # every state has a display text


def test_the_gui_reads_engine_results_by_typed_attributes():
    """Issue 14 item 12: no name-string lookups with a silent default on engine objects (the old ``field()``);
    the GUI reads them as attributes, which mypy checks against the engine's classes (imported under
    TYPE_CHECKING), and only plain JSON (manifests, smoke results) by key."""
    import ast
    from pathlib import Path

    import onnxpack.gui.widgets.model_panel as model_panel

    gui = Path(__file__).resolve().parent.parent / "gui"
    lookups = []
    for path in sorted(gui.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("field", "getattr")
                    and len(node.args) >= 2 and isinstance(node.args[0], ast.Attribute)
                    and node.args[0].attr in ("validation", "result", "report", "options", "last_success")):
                lookups.append(f"{path.name}:{node.lineno}")  # fmt: skip
    assert not lookups
    assert not hasattr(model_panel, "field")
