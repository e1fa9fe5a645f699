"""Benchmark `onnxpack smoke` against a bare `InferenceSession(path)` + `run()` script, one run each.

Run on demand: `python benchmarks/smoke.py [--keep DIR]`. Models: the bundled sample, a ~100 MB and a
~1 GB synthetic external-data model. Target: our time beyond ORT's own work <= 10 % plus process start.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder would come first on sys.path, and benchmarks/inspect.py would shadow the
# standard library's inspect: import the helpers as the package benchmarks.common from the project root.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import ROOT, Measurement, make_external_model, measure, print_rows  # noqa: E402

__all__ = ["main"]

BARE = r"""
import sys, numpy as np, onnxruntime as ort
s = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
feeds = {}
for i in s.get_inputs():
    shape = [d if isinstance(d, int) else 1 for d in i.shape]
    feeds[i.name] = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
s.run(None, feeds)
"""
START = "import numpy, onnx, onnxruntime, core.smoke"


def _rows(label: str, model: Path) -> list[Measurement]:
    py = sys.executable
    return [
        measure(f"{label}: bare InferenceSession + run", [py, "-c", BARE, str(model)]),
        measure(f"{label}: onnxpack smoke --runs 1", [py, "-m", "core", "smoke", str(model), "--runs", "1"]),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--keep", type=Path, help="folder for the synthetic models (default: a temporary folder)")
    ap.add_argument("--skip-1g", action="store_true", help="leave out the ~1 GB model")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="onnxpack-bench-") as tmp:
        base = args.keep or Path(tmp)
        models = [("sample", ROOT / "resources" / "sample" / "victory.onnx")]
        models.append(("100 MB", make_external_model(base / "m100", 100 * 2**20, tensor_bytes=16 * 2**20)))
        if not args.skip_1g:
            models.append(("1 GB", make_external_model(base / "g1", 2**30)))
        starts = [measure("process start", [sys.executable, "-c", START]) for _ in range(3)]
        start = min(m.seconds for m in starts)
        print(f"python {sys.version.split()[0]}; one warm process start with imports = {start:.2f} s "
              "(onnxpack starts one more than the bare script: the spawn child)")
        for label, model in models:
            _rows(label, model)  # warm the page cache and imports so both sides read from memory
            rows = _rows(label, model)
            print_rows(f"{label} ({model.name})", rows, reference=rows[0].label)
            bare, ours = rows[0].seconds, rows[1].seconds
            overhead = ours - bare - start
            print(f"  overhead beyond ORT's work and the extra process start: {overhead:+.2f} s "
                  f"({overhead / bare * 100:+.0f} % of the bare run)")


if __name__ == "__main__":
    main()
