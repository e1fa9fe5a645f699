"""Frozen-app budget: onedir size and cold start to main window shown, ours (build_spec/onnxpack.spec) vs a naive build.

    python benchmarks/freeze.py [--runs 3] [--keep DIR]

The reference is what `pyinstaller --onedir --windowed` gives for the same entry script with no filtering.
Start-up is the self-test's ``startup_seconds``: from process creation (as the OS records it) to the main window
shown (offscreen platform). "cold" runs drop the page cache first when allowed (root, /proc/sys/vm/drop_caches);
otherwise the first run after the build is reported and the cache state is said so.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `python benchmarks/freeze.py` puts benchmarks/ first on sys.path, where inspect.py would shadow the stdlib.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "build_spec"))

from benchmarks.common import drop_caches, measure  # noqa: E402
from build_spec import ci_check  # noqa: E402

__all__ = ["main"]

SEP = ";" if sys.platform == "win32" else ":"


def build_ours(work: Path) -> Path:
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "ERROR",
                    "--workpath", str(work / "build"), "--distpath", str(work / "dist"),
                    str(ROOT / "build_spec" / "onnxpack.spec")], check=True, cwd=ROOT)  # fmt: skip
    return work / "dist" / "onnxpack"


def build_naive(work: Path) -> Path:
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "ERROR",
                    "--onedir", "--windowed", "--name", "onnxpack-gui", "--paths", str(ROOT),
                    "--add-data", f"{ROOT / 'resources'}{SEP}resources",
                    "--collect-submodules", "core", "--collect-submodules", "gui",
                    "--workpath", str(work / "build"), "--distpath", str(work / "dist"),
                    "--specpath", str(work), str(ROOT / "build_spec" / "onnxpack_gui.py")],
                   check=True, cwd=ROOT)  # fmt: skip
    return work / "dist" / "onnxpack-gui"


def startups(folder: Path, runs: int, work: Path) -> tuple[list[float], bool, float, bool]:
    """start-up seconds of each run, whether caches were dropped, peak RSS MiB, all self-tests passed."""
    exe = folder / ("onnxpack-gui.exe" if sys.platform == "win32" else "onnxpack-gui")
    env = ci_check.scrubbed_env(work)
    values, dropped, rss, ok = [], True, 0.0, True
    for i in range(runs):
        dropped = drop_caches() and dropped
        report = work / f"report-{i}.json"
        m = measure(f"{folder.name} self-test", [str(exe), "--self-test", str(report)], env=env)
        doc = json.loads(report.read_text(encoding="utf-8"))
        values.append(float(doc["startup_seconds"]))
        rss = max(rss, m.peak_rss_mb)
        if m.returncode != 0 or not doc["ok"]:
            ok = False
            for c in doc["checks"]:
                if not c["ok"]:
                    print(f"[{folder.name}] run {i}: {c['name']} failed: {c['error']}\n{c['detail']}", file=sys.stderr)
    return values, dropped, rss, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None, help="build here and keep the builds")
    args = parser.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="onnxpack-bench-freeze-"))
    try:
        rows = []
        for label, build in (
            ("naive pyinstaller --onedir --windowed", build_naive),
            ("ours (onnxpack.spec)", build_ours),
        ):
            sub = work / build.__name__
            folder = build(sub)
            size = ci_check.folder_size(folder) / ci_check.MIB
            values, dropped, rss, ok = startups(folder, args.runs, sub)
            rows.append((label, size, values, dropped, rss, ok))
        print(f"\nFrozen onedir app ({sys.platform}, {args.runs} runs each; start-up = process creation -> main "
              "window shown, offscreen)")  # fmt: skip
        head = f"{'size MiB':>9} {'first s':>8} {'median s':>9} {'max s':>6} {'peak RSS MiB':>13}"
        print(f"  {'build':<40} {head}  self-test")
        for label, size, values, _dropped, rss, ok in rows:
            print(f"  {label:<40} {size:9.1f} {values[0]:8.2f} {statistics.median(values):9.2f} {max(values):6.2f} "
                  f"{rss:13.1f}  {'passed' if ok else 'FAILED'}")  # fmt: skip
        cache = "dropped before every run (cold)" if all(r[3] for r in rows) else "not droppable here (warm)"
        print(f"  page cache: {cache}")
        print(f"  budget: size <= {ci_check.cfg.SIZE_TARGET_MB:g} MB target ({ci_check.cfg.size_budget_mib():g} MiB CI "
              f"guard on this platform), start-up <= "
              f"{ci_check.cfg.STARTUP_BUDGET_S:g} s")  # fmt: skip
        return 0 if all(r[5] for r in rows) else 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
