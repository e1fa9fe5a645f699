"""Bundle through the GUI: the longest GUI-thread stall, the GUI process's memory, and how fast Cancel stops.

    python -P benchmarks/gui_bundle.py [--mb 512] [--keep DIR]

Builds a ``--mb`` MB model in both layouts (self-contained ``.onnx`` and ``.onnx`` + ``.onnx.data``, an MLP whose
every weight is used) and, for each, in a fresh offscreen process with the real MainWindow:

1. **bundle**: open the model, wait half a second once its inspection is shown, press Bundle (``start_bundles``,
   what the button does), wait until it is bundled.
   A 10 ms QTimer on the GUI thread records the longest gap between its ticks (a frozen window is a long gap) and
   samples the GUI process's RSS (the worker threads are in it; the checker and smoke runs are child processes
   and are reported apart, from their own peak).
2. **cancel**: the same with "replace" ticked, cancelled (``cancel_bundles``, what Cancel does) at given moments —
   10 % into the merge, right after the merge (the smoke run starting), and during the smoke run — timing Cancel →
   the row says Cancelled, and checking that nothing was left in the output folder.

Targets (issue 14 item 9): no GUI-thread stall over 100 ms, Cancel under 1 s at any moment, the GUI process under
300 MB whatever the model size. The reference row is the same process idle (window shown, nothing running).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))

from benchmarks.gui_drop import rss_mb  # noqa: E402


def _child(model: Path, out: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import threading

    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from onnxpack.gui.main_window import MainWindow
    from onnxpack.gui.settings import AppSettings

    sampled = {"max": 0.0, "at": ""}
    stage = {"now": "start"}

    def sampler() -> None:  # every 2 ms, independent of the GUI thread (a stalled GUI cannot hide a spike)
        while True:
            rss = rss_mb()
            if rss > sampled["max"]:
                sampled["max"], sampled["at"] = rss, stage["now"]
            time.sleep(0.002)

    threading.Thread(target=sampler, daemon=True).start()
    app = QApplication.instance() or QApplication([])
    settings = AppSettings(QSettings(str(out.parent / "s.ini"), QSettings.Format.IniFormat))
    settings.output_dir = str(out)
    window = MainWindow(settings, open_url=lambda _url: True)
    window.show()
    app.processEvents()
    state = {"gaps": [], "rss": [], "last": time.perf_counter()}

    worst: list[tuple[float, str]] = []

    def tick() -> None:
        now = time.perf_counter()
        worst.append((now - state["last"], stage["now"]))
        worst.sort(reverse=True)
        del worst[5:]
        state["gaps"].append(now - state["last"])
        state["rss"].append(rss_mb())
        state["last"] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)

    def spin(until: float | None = None, cond: object = None, limit: float = 600.0) -> None:
        end = time.perf_counter() + limit
        while time.perf_counter() < end:
            app.processEvents()
            if until is not None and time.perf_counter() >= until:
                return
            if cond is not None and cond():  # type: ignore[operator]
                return
            time.sleep(0.002)
        raise SystemExit("timed out")

    # idle reference: 1 s with the window shown
    spin(until=time.perf_counter() + 1.0)
    idle = {"gap_ms": max(state["gaps"]) * 1000, "rss_mb": max(state["rss"])}
    stage["now"] = "inspection"
    (item,) = window.open_paths([model])
    spin(cond=lambda: item.state in ("ready", "invalid", "failed"))
    inspected = {"rss_max_mb": sampled["max"], "at": sampled["at"]}
    # as a person would: read the inspection for a moment (the engine finishes importing meanwhile), then press
    window.inspect_queue.wait(60_000)
    spin(until=time.perf_counter() + 0.5)
    stage["now"] = "bundle"
    window.bundle_panel.version.setText("1.0.0")
    state["gaps"].clear()
    state["rss"].clear()
    state["last"] = time.perf_counter()
    t0 = time.perf_counter()
    window.start_bundles()
    press_ms = (time.perf_counter() - t0) * 1000  # the GUI thread's own work when Bundle is pressed
    item.job.signals.progress.connect(  # type: ignore[union-attr]
        lambda e: stage.__setitem__("now", f"bundle: {e.stage}"))
    spin(cond=lambda: item.state in ("done", "failed", "cancelled"))
    bundle = {"state": item.state, "seconds": time.perf_counter() - t0, "press_ms": press_ms,
              "gap_ms": max(state["gaps"]) * 1000, "rss_mb": max(state["rss"]),
              "error": item.error.message if item.error else None}  # fmt: skip

    def cancel_at(moment: str) -> dict[str, object]:
        """Start again (replacing), press Cancel at ``moment``, time it until the row says Cancelled."""
        before = sorted(p.name for p in out.iterdir())
        events: list[tuple[str, float, float | None]] = []
        first_smoke = [float("inf")]
        state["gaps"].clear()
        state["last"] = time.perf_counter()
        window.start_bundles()

        def note(e: object) -> None:
            events.append((e.stage, e.done, e.total))  # type: ignore[attr-defined]
            stage["now"] = f"cancel run: {e.stage}"  # type: ignore[attr-defined]
            if e.stage == "smoke" and first_smoke[0] == float("inf"):  # type: ignore[attr-defined]
                first_smoke[0] = time.perf_counter()

        item.job.signals.progress.connect(note)  # type: ignore[union-attr]

        def reached() -> bool:
            if item.state in ("done", "failed", "cancelled"):
                return True
            if moment == "merge 10 %":
                return any(s == "merge" and t and d / t >= 0.1 for s, d, t in events)
            if moment == "merge done":
                return any(s in ("smoke", "zip") or (s == "merge" and t and d >= t) for s, d, t in events)
            return time.perf_counter() - first_smoke[0] > 0.3  # smoke running for 0.3 s

        spin(cond=reached)
        if item.state in ("done", "failed"):
            return {"moment": moment, "missed": True}
        t_cancel = time.perf_counter()
        window.cancel_bundles()
        spin(cond=lambda: item.state in ("cancelled", "done", "failed"))
        left = sorted(set(p.name for p in out.iterdir()) - set(before))
        return {"moment": moment, "state": item.state, "seconds": time.perf_counter() - t_cancel,
                "gap_ms": max(state["gaps"]) * 1000, "left_behind": left}  # fmt: skip

    window.bundle_panel.force.setChecked(True)
    cancels = [cancel_at(moment) for moment in ("merge 10 %", "merge done", "smoke running")]
    timer.stop()
    print(json.dumps({"idle": idle, "bundle": bundle, "cancels": cancels, "inspected": inspected,
                      "worst_gaps": [(round(g * 1000, 1), at) for g, at in worst],
                      "sampled_peak_rss_mb": sampled["max"], "sampled_peak_at": sampled["at"],
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "children_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
    window.close()


def build(folder: Path, mb: int) -> list[Path]:
    import onnx
    from onnx.external_data_helper import convert_model_from_external_data

    from benchmarks.common import make_mlp_model

    external = make_mlp_model(folder / "external", mb * 10**6, width=2048, name="mlp")
    single = folder / "single" / "mlp.onnx"
    single.parent.mkdir(parents=True, exist_ok=True)
    model = onnx.load(str(external))
    convert_model_from_external_data(model)  # otherwise onnx.save writes the weights out again as external data
    onnx.save(model, str(single))
    return [single, external]


def main() -> None:
    if len(sys.argv) > 3 and sys.argv[1] == "--child":
        _child(Path(sys.argv[2]), Path(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=512)
    parser.add_argument("--keep", type=Path, default=None, help="build (or reuse) the models here")
    parser.add_argument("--model", type=Path, action="append", metavar="MODEL",
                        help="bundle this model instead of building two (repeatable; --sample: the sample model)")
    parser.add_argument("--sample", action="store_true", help="bundle the sample model (issue 28 §2)")
    parser.add_argument("--runs", type=int, default=1, help="fresh processes per model (each printed)")
    args = parser.parse_args()
    if args.sample or args.model:
        models = [m.resolve() for m in args.model or []]
        if args.sample:
            models.append(_HERE.parent / "resources" / "sample" / "victory.onnx")
        what = ", ".join(m.name for m in models)
    else:
        root = args.keep or Path(tempfile.mkdtemp(prefix="onnxpack-guibundle-"))
        models = [root / "single" / "mlp.onnx", root / "external" / "mlp.onnx"]
        if not all(m.exists() for m in models):
            models = build(root, args.mb)
        what = f"{args.mb} MB model"
    models = [m for m in models for _ in range(args.runs)]
    print(f"GUI bundle benchmark, {what} (targets: stall ≤ 100 ms, Cancel < 1 s, GUI process < 300 MB)")
    for model in models:
        with tempfile.TemporaryDirectory(prefix="onnxpack-guibundle-out-") as tmp:
            out = Path(tmp) / "out"
            out.mkdir()
            env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
            r = subprocess.run([sys.executable, "-P", str(Path(__file__).resolve()), "--child", str(model), str(out)],
                               env=env, capture_output=True, text=True, check=False)  # fmt: skip
        if r.returncode != 0:
            print(f"  {model}: exit {r.returncode}\n{r.stderr[-3000:]}")
            continue
        d = json.loads(r.stdout.strip().splitlines()[-1])
        b, idle = d["bundle"], d["idle"]
        layout = model.parent.name
        print(f"\n  {layout}: {model.name} ({sum(f.stat().st_size for f in model.parent.iterdir()) / 1e6:.0f} MB)")
        print(f"    {'':34} {'seconds':>8} {'GUI stall ms':>12} {'GUI RSS MB':>10}")
        print(f"    {'idle window (reference)':34} {'':>8} {idle['gap_ms']:12.1f} {idle['rss_mb']:10.1f}")
        print(f"    {'bundle (' + b['state'] + ')':34} {b['seconds']:8.2f} {b['gap_ms']:12.1f} {b['rss_mb']:10.1f}")
        for c in d["cancels"]:
            if c.get("missed"):
                print(f"    cancel at {c['moment']:24} (finished before that moment)")
                continue
            left = "nothing left" if not c["left_behind"] else f"LEFT {c['left_behind']}"
            print(f"    {'cancel at ' + c['moment']:34} {c['seconds']:8.2f} {c['gap_ms']:12.1f} {'':>10}  "
                  f"{c['state']}, {left}")
        print(f"    pressing Bundle took {b['press_ms']:.1f} ms on the GUI thread")
        print("    longest GUI stalls: " + ", ".join(f"{g} ms ({at})" for g, at in d["worst_gaps"]))
        # (not ru_maxrss: Linux carries it across exec, so it would include this parent's model building)
        print(f"    GUI process peak RSS {d['sampled_peak_rss_mb']:.1f} MB (sampled every 2 ms on its own thread, "
              f"during {d['sampled_peak_at']}); child processes' peak {d['children_peak_rss_mb']:.1f} MB "
              "(checker, smoke runs)")


if __name__ == "__main__":
    main()
