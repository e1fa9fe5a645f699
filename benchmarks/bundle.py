"""Benchmark `onnxpack bundle --no-smoke` on a ~1.9 GB external-data model against one read + write + SHA-256.

Target (issue 5): bundle time ≤ 1.3 × the reference (a script that reads the same bytes once, hashes
them with SHA-256 and writes them once, fsync included — the bundle fsyncs its ZIP too), peak RSS
≤ 200 MB. Both run in the same session on the same (page-cached) files.

Run: ``/work/venv/bin/python benchmarks/bundle.py [--gb 1.9] [--keep DIR]``
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where benchmarks/inspect.py would shadow the
# standard library's inspect module: put the project root there instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import ROOT, Measurement, ensure_bytecode, make_external_model, measure, print_rows  # noqa: E402

_REFERENCE = r"""
import hashlib, os, sys
src, dst = sys.argv[1], sys.argv[2]
h = hashlib.sha256()
with open(src, "rb", buffering=0) as f, open(dst, "wb", buffering=0) as g:
    while chunk := f.read(16 << 20):
        h.update(chunk)
        g.write(chunk)
    os.fsync(g.fileno())
print(h.hexdigest())
"""


def main(argv: list[str]) -> int:
    print(ensure_bytecode(), file=sys.stderr)  # what users run has bytecode (benchmarks/common.py)
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--gb", type=float, default=1.9, help="weights size in GB (default 1.9)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each (the best is kept; default 3)")
    ap.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = ap.parse_args(argv)
    work = args.keep or Path(tempfile.mkdtemp(prefix="onnxpack-bench-bundle-"))
    try:
        model = make_external_model(work / "model", int(args.gb * 1e9))
        data = model.with_name(model.name + ".data")
        size = data.stat().st_size + model.stat().st_size
        out = work / "out"
        out.mkdir(exist_ok=True)
        py = sys.executable
        # warm the page cache once so both sides read cached bytes
        measure("warm-up read", [py, "-c", f"open({str(data)!r},'rb').read()"])
        rows: list[Measurement] = []
        best: dict[str, Measurement] = {}
        round_ratios: list[float] = []  # ours / reference within one round: both see the same disk state
        for i in range(args.repeat):
            ref = measure("reference: read + SHA-256 + write + fsync",
                          [py, "-c", _REFERENCE, str(data), str(work / f"copy{i}.bin")])
            (work / f"copy{i}.bin").unlink()
            os.sync()
            ours = measure("onnxpack bundle --no-smoke",
                           [py, "-m", "onnxpack.cli", "bundle", str(model), "-o", str(out), "--version", f"1.0.{i}",
                            "--no-smoke"])
            round_ratios.append(ours.seconds / ref.seconds)
            for m in (ref, ours):
                if m.label not in best or m.seconds < best[m.label].seconds:
                    best[m.label] = m
            for z in out.glob("*.zip"):
                z.unlink()
            os.sync()  # start each round with no write-back of the previous one pending
        rows = [best["reference: read + SHA-256 + write + fsync"], best["onnxpack bundle --no-smoke"]]
        print_rows(f"bundle of a {size / 1e9:.2f} GB external-data model (best of {args.repeat}; page cache warm)",
                   rows, reference=rows[0].label)
        ratio = rows[1].seconds / rows[0].seconds
        print(f"\n  ratio {ratio:.2f} (target ≤ 1.30), peak RSS {rows[1].peak_rss_mb:.0f} MB (target ≤ 200)")
        print("  per-round ratios " + " ".join(f"{r:.2f}" for r in round_ratios)
              + f"; median {statistics.median(round_ratios):.2f}")
        return 0 if ratio <= 1.3 and rows[1].peak_rss_mb <= 200 and rows[1].returncode == 0 else 1
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    _ = ROOT
    sys.exit(main(sys.argv[1:]))
