"""``--self-test [REPORT.json]``: prove an installed or frozen onnxpack works, end to end, and say so in JSON.

Order matters and mirrors the app: PySide6 first, the main window offscreen (start-up time measured from
process creation to the window shown), then the engine stack (numpy, onnx, onnxruntime and its CPU
provider), a ``spawn`` child process (the engine's checker and smoke runs need one; a frozen app must
call ``multiprocessing.freeze_support()`` for it), the Japanese translation, and a real round trip:
bundle the embedded sample (with its smoke run in a child process) and verify the ZIP, in a temporary
folder that is removed afterwards. Exit status 0 only when every check passed.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["SCHEMA", "Check", "SelfTestReport", "main", "process_start_time", "run_self_test"]

SCHEMA = "onnxpack.selftest/1"
_MODULE_LOADED_AT = time.time()


@dataclass
class Check:
    name: str
    ok: bool
    seconds: float
    detail: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "seconds": round(self.seconds, 3), "detail": self.detail,
                "error": self.error}  # fmt: skip


@dataclass
class SelfTestReport:
    checks: list[Check] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    startup_seconds: float | None = None
    startup_clock: str = ""
    total_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "ok": self.ok,
            "frozen": bool(getattr(sys, "frozen", False)),
            "executable": sys.executable,
            "bundle_dir": getattr(sys, "_MEIPASS", None),
            "platform": platform.platform(),
            "versions": self.versions,
            "startup_seconds": None if self.startup_seconds is None else round(self.startup_seconds, 3),
            "startup_clock": self.startup_clock,
            "total_seconds": round(self.total_seconds, 3),
            "checks": [c.to_dict() for c in self.checks],
            "failed": [c.name for c in self.checks if not c.ok],
        }


def process_start_time(started_at: float | None = None) -> tuple[float, str]:
    """Wall-clock time (``time.time()`` scale) at which this process was created, and how it was known.

    The OS knows it (the interpreter and the frozen bootloader run before any Python line). Where it does not
    (Wine records no creation time), ``started_at`` — the frozen entry script's first line — is the clock; the
    last resort is when this module was imported.
    """
    created, clock = _os_process_start()
    if started_at is not None and (clock == "module-import" or started_at < created):
        return started_at, "entry-script"
    return created, clock


def _os_process_start() -> tuple[float, str]:
    """The OS's record of the process creation, else when this module was imported."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = Path("/proc/self/stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            start_ticks = int(fields[19])  # field 22 (starttime), counted after "pid (comm)"
            uptime = float(Path("/proc/uptime").read_text().split()[0])
            now = time.time()
            return now - (uptime - start_ticks / os.sysconf("SC_CLK_TCK")), "proc"
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        ft = [wintypes.FILETIME() for _ in range(4)]
        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        if kernel32.GetProcessTimes(kernel32.GetCurrentProcess(), *(ctypes.byref(f) for f in ft)):
            created = (ft[0].dwHighDateTime << 32) | ft[0].dwLowDateTime  # 100 ns since 1601-01-01
            return created / 1e7 - 11644473600.0, "GetProcessTimes"
    return _MODULE_LOADED_AT, "module-import"


def _spawn_probe() -> dict[str, Any]:
    """Runs in the spawned child: where it runs and that it is a separate process."""
    return {"pid": os.getpid(), "frozen": bool(getattr(sys, "frozen", False)), "executable": sys.executable}


class _CheckFailed(Exception):
    """A check that ran but found the wrong thing (reported with its details, without a traceback)."""

    def __init__(self, message: str, detail: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.detail = detail or {}


def _run(report: SelfTestReport, name: str, fn: Callable[[], dict[str, Any]]) -> Check:
    start = time.perf_counter()
    try:
        check = Check(name, True, time.perf_counter() - start, fn())
    except _CheckFailed as e:
        check = Check(name, False, time.perf_counter() - start, _jsonable(e.detail), str(e))
    except Exception as e:  # a self-test reports every failure, it never stops at the first
        msg = getattr(e, "message", None) or str(e)
        hint = getattr(e, "hint", "")
        check = Check(name, False, time.perf_counter() - start, {"traceback": traceback.format_exc(limit=8)},
                      f"{type(e).__name__}: {msg}" + (f" ({hint})" if hint else ""))  # fmt: skip
    check.seconds = time.perf_counter() - start
    report.checks.append(check)
    return check


def run_self_test(report_path: Path | None = None, *, started_at: float | None = None) -> SelfTestReport:
    """Run every check (in this process; reuses a running QApplication) and write the JSON report."""
    t_begin = time.perf_counter()
    report = SelfTestReport()
    proc_start, clock = process_start_time(started_at)
    report.startup_clock = clock
    report.versions["onnxpack"] = _package_version()
    report.versions["python"] = platform.python_version()
    state: dict[str, Any] = {}

    # 1. Qt first, as the app does; the window offscreen so a self-test never pops up on a desktop.
    os.environ["QT_QPA_PLATFORM"] = "offscreen"

    def qt() -> dict[str, Any]:
        import PySide6
        from PySide6.QtCore import qVersion
        from PySide6.QtWidgets import QApplication

        app = QApplication.instance()
        created = app is None
        if app is None:
            try:
                from onnxpack.gui.app import create_app
            except ImportError:  # only while gui.app is not written yet
                app = QApplication([sys.argv[0] if sys.argv else "onnxpack"])
            else:
                app = create_app([sys.argv[0] if sys.argv else "onnxpack", "-platform", "offscreen"])
        state["app"] = app
        report.versions["PySide6"] = PySide6.__version__
        report.versions["Qt"] = qVersion()
        return {"platform_plugin": QApplication.platformName(), "created_app": created}

    def window() -> dict[str, Any]:
        app = state["app"]
        from onnxpack.gui.main_window import MainWindow

        win = MainWindow()
        win.show()
        app.processEvents()
        shown = time.time()
        report.startup_seconds = shown - proc_start
        detail = {"class": f"{type(win).__module__}.{type(win).__qualname__}", "title": win.windowTitle(),
                  "visible": win.isVisible(), "size": [win.width(), win.height()]}  # fmt: skip
        state["window"] = win
        if not win.isVisible():
            raise _CheckFailed("the main window did not become visible", detail)
        return detail

    def engine() -> dict[str, Any]:
        import numpy
        import onnx
        import onnxruntime

        report.versions.update(numpy=numpy.__version__, onnx=onnx.__version__, onnxruntime=onnxruntime.__version__)
        providers = list(onnxruntime.get_available_providers())
        if "CPUExecutionProvider" not in providers:
            raise _CheckFailed("onnxruntime has no CPUExecutionProvider", {"providers": providers})
        return {"providers": providers}

    def spawn() -> dict[str, Any]:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(1) as pool:
            child = pool.apply_async(_spawn_probe).get(timeout=120)
        if child["pid"] == os.getpid():
            raise _CheckFailed("the spawn child ran in this process", child)
        if child["frozen"] != bool(getattr(sys, "frozen", False)):
            raise _CheckFailed("the spawn child is not the same kind of executable", child)
        return child

    def translation() -> dict[str, Any]:
        from PySide6.QtCore import QCoreApplication

        from onnxpack.gui.i18n import i18n_dir, install_translators

        app = state["app"]
        files = sorted(p.name for p in i18n_dir().glob("*.qm")) if i18n_dir().is_dir() else []
        try:
            ok = install_translators(app, "ja_JP")
            # A string every Qt build translates in qtbase (the standard "&Yes" button).
            sample = QCoreApplication.translate("QPlatformTheme", "&Yes")
        finally:
            install_translators(app, "en")
        detail = {"files": files, "qtbase_yes": sample}
        if not ok:
            raise _CheckFailed("install_translators(app, 'ja_JP') returned False", detail)
        if sample == "&Yes":
            raise _CheckFailed("the Japanese Qt translation loaded but translates nothing", detail)
        return detail

    def bundle() -> dict[str, Any]:
        tmp = Path(tempfile.mkdtemp(prefix="onnxpack-selftest-"))
        state["tmp"] = tmp
        try:
            return _bundle_round_trip(tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            if tmp.exists():
                raise _CheckFailed(f"could not remove the temporary folder {tmp}")

    for name, fn in (("qt", qt), ("window", window), ("engine", engine), ("spawn", spawn),
                     ("translation", translation), ("bundle", bundle)):  # fmt: skip
        if name in ("window", "translation") and "app" not in state:
            report.checks.append(Check(name, False, 0.0, error="skipped: no QApplication (the qt check failed)"))
            continue
        _run(report, name, fn)
    win = state.get("window")
    if win is not None:
        win.close()
        win.deleteLater()
    report.total_seconds = time.perf_counter() - t_begin
    if report_path is not None:
        _write_report(report_path, report.to_dict())
    return report


def _bundle_round_trip(tmp: Path) -> dict[str, Any]:
    """Bundle the embedded sample, then verify the ZIP (both with a smoke run in a child process)."""
    from onnxpack.core import __version__
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path

    sample = resource_path(*SAMPLE_MODEL)
    if not sample.is_file():
        raise _CheckFailed(f"the embedded sample model is missing: {sample}")
    try:
        from onnxpack.core.release.bundle import BundleOptions, build_bundle
        from onnxpack.core.release.verify.verify import verify_bundle
    except ImportError:  # only while core.bundle/core.verify are not written yet
        return _pipeline_without_bundle(sample, tmp)
    out = tmp / "out"
    out.mkdir()
    result = build_bundle(BundleOptions(model=None, out_dir=out, version=__version__))
    verified = verify_bundle(result.zip_path, smoke=True)
    detail = {
        "zip": Path(result.zip_path).name,
        "zip_bytes": Path(result.zip_path).stat().st_size,
        "bundle": _jsonable(result.to_dict()),
        "verify_ok": verified.ok,
        "problems": [_jsonable(p.to_dict()) if hasattr(p, "to_dict") else str(p) for p in verified.problems],
    }
    if not verified.ok:
        raise _CheckFailed("verify_bundle found problems in the bundle built from the sample", detail)
    return detail


def _pipeline_without_bundle(sample: Path, tmp: Path) -> dict[str, Any]:
    """Fallback while core.bundle is missing: inspect, merge and compare with what exists (never passes)."""
    done: dict[str, Any] = {}
    with contextlib.suppress(ImportError):
        from onnxpack.core.checks.inspection import inspect_model

        done["inspect"] = inspect_model(sample).layout
    with contextlib.suppress(ImportError):
        from onnxpack.core.model.merge.merge import merge_model

        merged = tmp / "merged.onnx"
        merge_model(sample, merged)
        done["merge_bytes"] = merged.stat().st_size
        with contextlib.suppress(ImportError):
            from onnxpack.core.runtime.smoke import compare_models

            done["compare_ok"] = compare_models(sample, merged).ok
    raise _CheckFailed("onnxpack.core.release.bundle / core.verify are not available in this build", done)


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _package_version() -> str:
    try:
        from onnxpack.core import __version__
    except ImportError:
        return "unknown"
    return __version__


def _write_report(path: Path, doc: dict[str, Any]) -> None:
    from onnxpack.core.atomic import atomic_file

    with atomic_file(path) as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False).encode("utf-8") + b"\n")


def _print(text: str) -> None:
    stream = sys.stdout
    if stream is None:  # a windowed executable on Windows has no console
        return
    with contextlib.suppress(OSError, ValueError):
        stream.write(text + "\n")
        stream.flush()


def main(argv: Sequence[str] | None = None, *, started_at: float | None = None) -> int:
    """``onnxpack[-gui] --self-test [REPORT.json]`` (argv excludes ``--self-test``). Returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "--self-test":
        args = args[1:]
    if len(args) > 1 or (args and args[0].startswith("-") and args[0] != "-"):
        _print("usage: onnxpack --self-test [REPORT.json]")
        return 2
    report_path = Path(args[0]) if args and args[0] != "-" else None
    if report_path is not None and not report_path.parent.is_dir():
        _print(f"Cannot write the report: the folder {report_path.parent} does not exist.")
        return 2
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        report = run_self_test(report_path, started_at=started_at)
    except Exception as e:  # writing the report failed (OutputError etc.): say so, no traceback
        _print(f"self-test: could not complete: {getattr(e, 'message', None) or e}")
        return 1
    for c in report.checks:
        _print(f"{'PASS' if c.ok else 'FAIL'}  {c.name:<12} {c.seconds:6.2f}s" + (f"  {c.error}" if c.error else ""))
    startup = "n/a" if report.startup_seconds is None else f"{report.startup_seconds:.2f}s ({report.startup_clock})"
    _print(f"start-up to window shown: {startup}; frozen: {bool(getattr(sys, 'frozen', False))}")
    if args and args[0] == "-":
        _print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    _print("self-test passed" if report.ok else f"self-test FAILED: {', '.join(report.to_dict()['failed'])}")
    return 0 if report.ok else 1
