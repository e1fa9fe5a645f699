"""Benchmark `onnxpack inspect` against `onnx.load` with weights on a ~1.9 GB external-data model, in one run.

Run on demand: `python benchmarks/inspect.py [--gb 1.9] [--dir DIR] [--repeat 3]`. Target: `onnxpack inspect`
takes under 0.5 s and under 100 MB peak RSS MORE than a bare interpreter that has imported onnx, whatever
the weight size. Rows: the baseline (`python -c "import onnx"`), onnxpack inspect (human and --json),
`onnxpack check` for reference (reads nothing either unless a `checksum` key asks; runs the checker in a
child, whose memory is not in this row), and onnx.load with weights. Each row keeps its fastest of
``--repeat`` runs (the page cache is warm: every row reads the same files).
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named like the stdlib module `inspect` (the issue names it so). Run as a script, its folder
# would come first on sys.path and shadow the stdlib for every later `import inspect`: put the project
# root there instead and import the helpers as the package benchmarks.common (as every benchmark does).
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import Measurement, make_external_model, measure, print_rows  # noqa: E402

__all__ = ["main"]

TARGET_SECONDS = 0.5
TARGET_MB = 100.0


def _best(label: str, argv: list[str], repeat: int) -> Measurement:
    runs = [measure(label, argv) for _ in range(repeat)]
    best = min(runs, key=lambda m: m.seconds)
    return Measurement(label, best.seconds, max(m.peak_rss_mb for m in runs), max(m.returncode for m in runs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gb", type=float, default=1.9, help="weights in GB (10**9 bytes; default 1.9)")
    ap.add_argument("--dir", type=Path, help="folder for the temporary model (default: system temp)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per row except onnx.load's (default 3)")
    args = ap.parse_args()
    py = sys.executable
    work = Path(tempfile.mkdtemp(prefix="onnxpack-bench-inspect-", dir=args.dir))
    try:
        model = make_external_model(work, int(args.gb * 10**9))
        data_size = model.with_name(model.name + ".data").stat().st_size
        print(f"model: {model.name} + {data_size / 10**9:.2f} GB external data, in {work}")
        base = _best("baseline: python -c 'import onnx'", [py, "-c", "import onnx"], args.repeat)
        rows = [
            base,
            _best("onnxpack inspect", [py, "-m", "onnxpack.cli", "inspect", str(model)], args.repeat),
            _best("onnxpack inspect --json", [py, "-m", "onnxpack.cli", "inspect", str(model), "--json"], args.repeat),
            _best("onnxpack check (checker in a child)", [py, "-m", "onnxpack.cli", "check", str(model)], args.repeat),
            measure("onnx.load with weights", [py, "-c", "import sys, onnx; onnx.load(sys.argv[1])", str(model)]),
        ]
        print_rows(f"inspect, {data_size / 10**9:.2f} GB of weights (fastest of {args.repeat})", rows,
                   reference="onnx.load with weights")
        ours = rows[1]
        extra_s, extra_mb = ours.seconds - base.seconds, ours.peak_rss_mb - base.peak_rss_mb
        verdict = "met" if extra_s < TARGET_SECONDS and extra_mb < TARGET_MB and ours.returncode == 0 else "MISSED"
        print(f"\n  onnxpack inspect above the baseline: +{extra_s:.2f} s, +{extra_mb:.1f} MB "
              f"(target < {TARGET_SECONDS} s, < {TARGET_MB:.0f} MB): {verdict}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
