"""Windows executable under Wine: cold start to the main window shown (real ``qwindows`` window on Xvfb), side by
side with bare Wine starting a trivial Windows program, plus a screenshot of the window.

    ONNXPACK_WINDOWS_KEEP=1 bash .ci/windows          # leaves the Wine prefix it built with (path printed at the end)
    python benchmarks/windows_startup.py --prefix /tmp/onnxpack-windows.XXXX/prefix [--runs 5] [--screenshot OUT.png]

Start-up is timed from launching ``wine onnxpack-gui.exe`` to its top-level window being mapped (``xdotool search
--onlyvisible``), so it includes Wine's own process start; the reference row is ``wine cmd.exe /c exit`` on the same
prefix. The app's own figure (process creation as Windows records it → window shown, ``ONNXPACK_STARTUP_LOG``) is
printed beside it: that is the part a real Windows also pays, without Wine's launcher. "cold" drops the page cache
before each run when allowed (root); otherwise it says so. The self-test's own
figure (process creation → window shown, offscreen) is in build/windows/reports/self-test-onnxpack-gui.json.
Needs Debian's xvfb, xdotool and, for a decorated window, openbox; the screenshot is grabbed with this venv's Qt.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.common import drop_caches  # noqa: E402

__all__ = ["main"]


def start_display(env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    """Xvfb (+ openbox when installed) on a free display number; sets DISPLAY in ``env``."""
    for number in range(90, 110):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            break
    procs = [subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]  # fmt: skip
    env["DISPLAY"] = f":{number}"
    deadline = time.monotonic() + 10
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        if time.monotonic() > deadline:
            raise SystemExit("Xvfb did not start")
        time.sleep(0.05)
    if shutil.which("openbox"):
        procs.append(subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
    return procs


def visible_window(env: dict[str, str], name: str) -> str | None:
    r = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", name], env=env, capture_output=True,
                       text=True)  # fmt: skip
    ids = r.stdout.split()
    return ids[0] if ids else None


def time_to_window(
    cmd: list[str], env: dict[str, str], name: str, timeout: float
) -> tuple[float, str, subprocess.Popen[bytes]]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    while True:
        window = visible_window(env, name)
        if window:
            return time.perf_counter() - start, window, proc
        if proc.poll() is not None or time.perf_counter() - start > timeout:
            out = proc.stdout.read().decode(errors="replace") if proc.stdout else ""
            raise SystemExit(f"no window named {name!r} (exit {proc.poll()}): {out[-2000:]}")
        time.sleep(0.01)


def app_startup(log: Path, timeout: float = 10.0) -> tuple[float, str]:
    """(seconds, clock) the app logged: clock "GetProcessTimes" (process creation) or, where Wine does not record
    it, "entry-script" (the frozen entry script's first line, after the bootloader started Python)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            doc = json.loads(log.read_text(encoding="utf-8"))
            return float(doc["startup_seconds"]), str(doc["startup_clock"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.05)
    raise SystemExit(f"the app wrote no start-up log to {log}")


def close_all(env: dict[str, str]) -> None:
    subprocess.run(["wineserver", "-k"], env=env, check=False)
    subprocess.run(["wineserver", "-w"], env=env, check=False)


def stop(proc: subprocess.Popen[bytes], env: dict[str, str], name: str) -> None:
    """End the app (the Windows process is this Unix process under Wine) and wait for its window to go."""
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 10
    while visible_window(env, name) and time.monotonic() < deadline:
        time.sleep(0.05)


def screenshot(env: dict[str, str], out: Path) -> None:
    """The whole X screen as PNG, grabbed by Qt's xcb platform (this venv's PySide6) from the Xvfb display."""
    code = ("import sys; from PySide6.QtGui import QGuiApplication; app = QGuiApplication([]); "
            "sys.exit(0 if app.primaryScreen().grabWindow(0).save(sys.argv[1]) else 1)")  # fmt: skip
    subprocess.run([sys.executable, "-c", code, str(out)], env={**env, "QT_QPA_PLATFORM": "xcb"}, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, required=True, help="WINEPREFIX with the test stand-ins (.ci/windows)")
    parser.add_argument("--dist", type=Path, default=ROOT / "build" / "windows" / "dist" / "onnxpack")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, default=None, help="PNG of the window with the sample inspected")
    parser.add_argument("--warm", action="store_true", help="keep the page cache (default: drop it before each run)")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args(argv)

    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env.update(WINEPREFIX=str(args.prefix), WINEARCH="win64", WINEDEBUG="-all", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               WINEDLLOVERRIDES="mscoree,mshtml=;mscms=n,b")  # fmt: skip
    procs = start_display(env)
    gui = str(args.dist / "onnxpack-gui.exe")
    try:
        # Like a Windows session that is already up: one persistent wineserver with its services started, so each
        # run pays what starting a program costs, not booting Wine.
        close_all(env)
        subprocess.Popen(["wineserver", "-p"], env=env).wait()
        subprocess.run(["wine", "cmd.exe", "/c", "exit"], env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # fmt: skip
        launch, app_side = "wine onnxpack-gui.exe -> window mapped", "  of which in the app"
        rows: dict[str, list[float]] = {"wine cmd.exe /c exit (reference)": [], launch: [], app_side: []}
        log = Path(tempfile.mkdtemp(prefix="onnxpack-startup-")) / "startup.json"
        env["ONNXPACK_STARTUP_LOG"] = "Z:" + str(log).replace("/", "\\")
        cold = True
        for _ in range(args.runs):
            cold = not args.warm and drop_caches() and cold
            start = time.perf_counter()
            subprocess.run(["wine", "cmd.exe", "/c", "exit"], env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # fmt: skip
            rows["wine cmd.exe /c exit (reference)"].append(time.perf_counter() - start)
            cold = not args.warm and drop_caches() and cold
            log.unlink(missing_ok=True)
            seconds, _window, proc = time_to_window(["wine", gui], env, "onnxpack", args.timeout)
            rows[launch].append(seconds)
            seconds, clock = app_startup(log)
            rows[app_side].append(seconds)
            stop(proc, env, "onnxpack")
        rows[f"{app_side} ({clock} -> shown)"] = rows.pop(app_side)
        state = "cold (page cache dropped before each)" if cold else "page cache NOT dropped"
        print(f"Wine, {args.runs} runs, {state}")
        print(f"{'':42} {'median':>8} {'min':>8} {'max':>8}")
        for label, values in rows.items():
            print(f"{label:42} {statistics.median(values):7.2f}s {min(values):7.2f}s {max(values):7.2f}s")
        if args.screenshot is not None:
            sample = args.dist / "_internal" / "resources" / "sample" / "victory.onnx"
            _seconds, window, proc = time_to_window(["wine", gui, str(sample)], env, "onnxpack", args.timeout)
            subprocess.run(["xdotool", "windowsize", window, "1180", "820"], env=env, check=False)
            subprocess.run(["xdotool", "windowmove", window, "40", "30"], env=env, check=False)
            time.sleep(6)  # the inspection runs on its thread
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            screenshot(env, args.screenshot)
            print(f"screenshot: {args.screenshot}")
            stop(proc, env, "onnxpack")
    finally:
        close_all(env)
        for p in reversed(procs):
            p.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
