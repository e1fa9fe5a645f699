"""Drop a model onto the GUI: time until its inspection is shown, the GUI process's memory, the longest GUI stall.

    python benchmarks/gui_drop.py MODEL [MODEL …]        (e.g. the models benchmarks/pipeline.py --keep DIR built)

Each model is opened in a fresh process (offscreen Qt, the real MainWindow, the same path a drop takes:
``MainWindow.open_paths``). Printed per model: seconds from the drop until the Model tab shows the inspection,
the process's peak RSS over the whole run (window included) beside its RSS before the drop, and the longest gap
between ticks of a 10 ms QTimer on the GUI thread while the inspection ran (a frozen window shows as a long gap).
Reference: the same process's start-up (import + window) before the drop.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def rss_mb() -> float:
    """This process's resident memory now, MB (/proc: no import that would itself grow it)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _child(model: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.perf_counter()
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from onnxpack.gui.main_window import MainWindow
    from onnxpack.gui.settings import AppSettings

    app = QApplication.instance() or QApplication([])
    settings = AppSettings(QSettings(str(Path(os.environ["ONNXPACK_BENCH_TMP"]) / "s.ini"),
                                     QSettings.Format.IniFormat))
    window = MainWindow(settings, open_url=lambda _url: True)
    window.show()
    app.processEvents()
    startup = time.perf_counter() - start
    before = rss_mb()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)
    t0 = time.perf_counter()
    (item,) = window.open_paths([model])
    while item.state not in ("ready", "invalid", "failed"):
        app.processEvents()
        time.sleep(0.002)
    shown = time.perf_counter() - t0
    timer.stop()
    print(json.dumps({
        "model": str(model), "state": item.state, "startup_s": round(startup, 3), "inspection_shown_s": round(shown, 3),
        "rss_before_mb": round(before, 1), "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                                                / 1024, 1),
        "longest_gui_gap_ms": round(max(gaps, default=0.0) * 1000, 1),
    }))
    window.close()


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]))
        return
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    import tempfile

    print(f"  {'model':<48} {'shown s':>8} {'start-up s':>10} {'RSS before':>10} {'peak RSS MB':>11} {'gap ms':>7}")
    for arg in sys.argv[1:]:
        model = Path(arg).resolve()
        with tempfile.TemporaryDirectory(prefix="onnxpack-guibench-") as tmp:
            env = {**os.environ, "ONNXPACK_BENCH_TMP": tmp, "QT_QPA_PLATFORM": "offscreen"}
            # -P: this folder's inspect.py must not shadow the standard library's
            out = subprocess.run([sys.executable, "-P", str(Path(__file__).resolve()), "--child", str(model)], env=env,
                                 capture_output=True, text=True, check=False)
        if out.returncode != 0:
            print(f"  {model}: exit {out.returncode}\n{out.stderr[-2000:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        size = sum(f.stat().st_size for f in model.parent.iterdir() if f.name.startswith(model.name)) / 1e9
        label = f"{model.parent.name}/{model.name} ({size:.2f} GB on disk)"
        print(f"  {label:<48} {r['inspection_shown_s']:8.2f} {r['startup_s']:10.2f} {r['rss_before_mb']:10.1f} "
              f"{r['peak_rss_mb']:11.1f} {r['longest_gui_gap_ms']:7.1f}   [{r['state']}]")


if __name__ == "__main__":
    main()
