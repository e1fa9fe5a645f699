"""Benchmark `onnxpack merge` against onnx's load+save and `cp` of the same bytes, in one run.

Run on demand: `python benchmarks/merge.py [--sizes 0.1,1,1.9] [--big 2.2] [--dir DIR]`. Sizes are in
GB (10**9 bytes) of external weights; `--big` adds one consolidation above 2 GiB (external layout,
compared with `cp` only: onnx cannot save a single file that large). Targets at 1.9 GB: time <= 1.5x
`cp`, peak RSS <= 150 MB. Every command writes a fresh output; `cp` and ours are timed including
their write to the page cache; ours also fsyncs (its atomic rename needs it), so a `cp + sync` row
is printed too. The page cache is warmed first so every row reads from memory; each row keeps the
best of ``--repeat`` runs (onnx's recipe runs once).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder would come first on sys.path, and benchmarks/inspect.py would shadow the
# standard library's inspect: import the helpers as the package benchmarks.common from the project root.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import Measurement, ensure_bytecode, make_external_model, measure, print_rows  # noqa: E402

__all__ = ["main"]

ONNX_RECIPE = "import sys, onnx; onnx.save(onnx.load(sys.argv[1]), sys.argv[2])"


def _clean(*paths: Path) -> None:
    for p in paths:
        for q in (p, p.with_name(p.name + ".data")):
            if q.exists():
                q.unlink()
    os.sync()  # each row starts without the previous row's writeback pending


def _warm(folder: Path) -> None:
    for p in folder.iterdir():
        with open(p, "rb") as f:
            while f.read(64 * 2**20):
                pass


def _best(label: str, argv: list[str], repeat: int, after: list[Path]) -> Measurement:
    """Fastest of ``repeat`` runs (the machine is shared; the minimum is the least disturbed), max RSS."""
    runs = []
    for _ in range(repeat):
        runs.append(measure(label, argv))
        _clean(*after)
    best = min(runs, key=lambda m: m.seconds)
    return Measurement(label, best.seconds, max(m.peak_rss_mb for m in runs),
                       max((m.returncode for m in runs), key=abs))


def _rows(label: str, model: Path, out: Path, layout: str, with_onnx: bool, repeat: int) -> list[Measurement]:
    py = sys.executable
    data = model.with_name(model.name + ".data")
    copy = out.with_name("copy.bin")
    rows = []
    _clean(copy, out)
    rows.append(_best(f"{label}: cp of the data file", ["cp", str(data), str(copy)], repeat, [copy]))
    rows.append(_best(f"{label}: cp + sync of the data file",
                      ["sh", "-c", 'cp "$1" "$2" && sync "$2"', "sh", str(data), str(copy)], repeat, [copy]))
    rows.append(_best(f"{label}: onnxpack merge --layout {layout}",
                      [py, "-m", "onnxpack.cli", "merge", str(model), "-o", str(out), "--layout", layout],
                      repeat, [out]))
    if with_onnx:
        onnx_out = out.with_name("onnx_saved.onnx")
        rows.append(_best(f"{label}: onnx.load + onnx.save", [py, "-c", ONNX_RECIPE, str(model), str(onnx_out)],
                          1, [onnx_out]))
    return rows


def main() -> None:
    print(ensure_bytecode(), file=sys.stderr)  # what users run has bytecode (benchmarks/common.py)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="0.1,1,1.9", help="comma-separated model sizes in GB (default 0.1,1,1.9)")
    ap.add_argument("--big", type=float, default=2.2, help="size in GB of the >2 GiB consolidation (0: skip)")
    ap.add_argument("--dir", type=Path, help="folder for the temporary models (default: system temp)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per row except onnx's (best time kept; default 3)")
    ap.add_argument("--no-onnx", action="store_true", help="leave out onnx load+save (it needs ~3x the RAM)")
    args = ap.parse_args()
    sizes = [float(s) for s in args.sizes.split(",") if s.strip()]
    tmp = Path(tempfile.mkdtemp(prefix="onnxpack-bench-merge-", dir=args.dir))
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    print(f"onnxpack merge benchmark ({env_note}); temp folder {tmp}")
    summary = []
    try:
        jobs = [(f"{s:g} GB", s, "single", not args.no_onnx) for s in sizes]
        if args.big > 0:
            jobs.append((f"{args.big:g} GB", args.big, "external", False))
        for label, size, layout, with_onnx in jobs:
            folder = tmp / f"m{size:g}"
            model = make_external_model(folder, int(size * 1e9))
            out_dir = tmp / "out"
            out_dir.mkdir(exist_ok=True)
            out = out_dir / "merged.onnx"
            _warm(folder)
            os.sync()  # no dirty pages of the generated model left for the fsync of the first row to wait for
            rows = _rows(label, model, out, layout, with_onnx, max(1, args.repeat))
            print_rows(f"{label} ({model.name} + {model.name}.data, layout {layout})", rows, reference=rows[0].label)
            cp, cp_sync, ours = rows[0], rows[1], rows[2]
            summary.append((label, ours.seconds / cp.seconds, ours.seconds / cp_sync.seconds, ours.peak_rss_mb))
            shutil.rmtree(folder)
            shutil.rmtree(out_dir)
        print("\nsummary (targets at 1.9 GB: <= 1.5x cp, <= 150 MB peak RSS)")
        for label, ratio, ratio_sync, rss in summary:
            print(f"  {label:<10} ours/cp {ratio:5.2f}x   ours/(cp+sync) {ratio_sync:5.2f}x   peak RSS {rss:6.1f} MB")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
