"""`onnxpack bundle` of every small model against the hand-written release script, alternating (issue 40 §4).

    python benchmarks/small_models.py [--pairs 3] [--only NAME]... [--max-mb 100] [--before COMMIT] [--now COMMIT]
                                      [--realexports DIR] [--cache DIR] [--bundle-arg ARG]...

Models: the sample (resources/sample/victory.onnx), every corpus model of ``benchmarks/realmodels.py`` up to
``--max-mb`` (as shipped, from its cache; nothing is downloaded: run ``realmodels.py --list`` once to fill it) and
every ``*.onnx`` under ``--realexports`` (``benchmarks/make_real_exports.py``) up to that size, external data counted.

For each model, ``--pairs`` alternating pairs: the script (``benchmarks/handwritten_release.py``: onnx.load →
onnx.save → InferenceSession + one run → zipfile), then ``onnxpack bundle MODEL -o OUT --version 1.0.0`` run as a
user runs it (the console script beside this interpreter, a fresh process every time, an empty OUT), then (with
``--before COMMIT``) the bundle of onnxpack as of that commit (``--now COMMIT``: the bundle measured is that
commit's too, not the working tree's, so that the tree may change while it runs). Printed per model: the median
wall time of each, the median of the pairs' ratios bundle ÷ script (and before ÷ script), the 1-minute load average
at each pair; at the end the median and the largest ratio over the models and the load average. The page cache
is warm (same run).
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from benchmarks.common import ROOT, Measurement, checkout_before, ensure_bytecode, measure  # noqa: E402
from benchmarks.physical_floor import _files  # noqa: E402
from benchmarks.realmodels import corpus, load_average, machine  # noqa: E402

SCRIPT = _HERE / "handwritten_release.py"


def models(args: argparse.Namespace) -> tuple[list[tuple[str, Path, float]], list[str]]:
    """(label, path, MB with external data) of every model to run, and notes on those left out."""
    found: list[tuple[str, Path]] = [("sample", ROOT / "resources" / "sample" / "victory.onnx")]
    listed, notes = corpus(args.cache.expanduser(), offline=True)
    found += [(m.id, m.single) for m in listed]
    if args.realexports.is_dir():
        found += [(str(p.relative_to(args.realexports).with_suffix("")), p)
                  for p in sorted(args.realexports.rglob("*.onnx"))]
    out = []
    for label, path in found:
        if args.only and not any(w.lower() in label.lower() for w in args.only):
            continue
        mb = sum(f.stat().st_size for f in _files(path)) / 1e6
        if mb > args.max_mb:
            notes.append(f"{label}: {mb:.0f} MB, over --max-mb {args.max_mb:g}")
            continue
        out.append((label, path, mb))
    return out, notes


def _bundle(exe: list[str], model: Path, out: Path, extra: list[str], env: dict[str, str] | None) -> Measurement:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    m = measure("bundle", [*exe, "bundle", str(model), "-o", str(out), "--version", "1.0.0", *extra], env=env)
    shutil.rmtree(out, ignore_errors=True)
    return m


def run_model(label: str, model: Path, mb: float, args: argparse.Namespace, work: Path,
              before: Path | None, now: Path | None) -> dict[str, float] | None:
    """Alternating pairs on one model; prints its row and returns the median ratios (None: nothing to compare)."""
    exe = [str(Path(sys.executable).with_name("onnxpack"))]
    before_env = {**os.environ, "PYTHONPATH": str(before)} if before is not None else None
    now_env = {**os.environ, "PYTHONPATH": str(now)} if now is not None else None
    times: dict[str, list[float]] = {"script": [], "bundle": [], "before": []}
    ratios: dict[str, list[float]] = {"bundle": [], "before": []}
    loads: list[str] = []
    failed: dict[str, str] = {}
    for _ in range(args.pairs):
        loads.append(f"{os.getloadavg()[0]:.2f}")
        script = measure("script", [sys.executable, "-P", str(SCRIPT), str(model), str(work / "hand.zip")])
        (work / "hand.zip").unlink(missing_ok=True)
        got = {"script": script, "bundle": _bundle(exe, model, work / "out", args.bundle_arg, now_env)}
        if before is not None:
            got["before"] = _bundle(exe, model, work / "out", args.bundle_arg, before_env)
        for key, m in got.items():
            if m.returncode:
                failed[key] = f"exit {m.returncode}"
            else:
                times[key].append(m.seconds)
        for key in ratios:
            if key in got and not got[key].returncode and not script.returncode:
                ratios[key].append(got[key].seconds / script.seconds)
    med = statistics.median
    cells = [f"{label:<46} {mb:7.2f}"]
    for key in ("script", "bundle", "before"):
        if key == "before" and before is None:
            continue
        cells.append(f"{med(times[key]):6.2f}" if times[key] else "  FAIL")
    result: dict[str, float] = {}
    for key in ("bundle", "before"):
        if key == "before" and before is None:
            continue
        if ratios[key]:
            result[key] = med(ratios[key])
            cells.append(f"{result[key]:5.2f}x")
        else:
            cells.append("    –")
    note = "; ".join(f"{k} failed ({v})" for k, v in failed.items())
    print("  ".join(cells) + f"   load {' '.join(loads)}" + (f"   {note}" if note else ""), flush=True)
    return result or None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--only", action="append", metavar="NAME", help="models whose label contains NAME (repeatable)")
    ap.add_argument("--max-mb", type=float, default=100, help="leave out models larger than this (default 100)")
    ap.add_argument("--realexports", type=Path, default=Path("/work/realexports"))
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "onnxpack-bench",
                    help="realmodels.py's cache of the corpus")
    ap.add_argument("--bundle-arg", action="append", default=[], help="extra argument for bundle (repeatable)")
    ap.add_argument("--before", metavar="COMMIT", help="also bundle with onnxpack as of COMMIT, in the same pairs")
    ap.add_argument("--now", metavar="COMMIT", help="bundle with onnxpack as of COMMIT, not as installed")
    args = ap.parse_args(argv)
    print(ensure_bytecode(), file=sys.stderr)
    work = Path(tempfile.mkdtemp(prefix="onnxpack-small-"))
    try:
        before = checkout_before(args.before, work / "before") if args.before else None
        now = checkout_before(args.now, work / "now") if args.now else None
        todo, notes = models(args)
        print(f"Machine: {machine()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {load_average()}")
        print(f"{len(todo)} models, {args.pairs} alternating pairs each (script, bundle"
              + (f" as of {args.now}" if now else "") + (f", bundle as of {args.before}" if before else "")
              + "); times are medians in seconds, ratios the "
              "median of the pairs' ratios to the script\n")
        head = f"{'model':<46} {'MB':>7}  {'script':>6}  {'bundle':>6}"
        head += f"  {'before':>6}  {'ratio':>6}  {'before':>6}" if before else f"  {'ratio':>6}"
        print(head + "   1-min load at each pair")
        results = [(label, run_model(label, path, mb, args, work, before, now)) for label, path, mb in todo]
        print()
        for key in ("bundle", "before"):
            got = [(r[key], label) for label, r in results if r and key in r]
            if not got:
                continue
            worst = max(got)
            print(f"{key} ÷ script over {len(got)} models: median {statistics.median(r for r, _ in got):.2f}x, "
                  f"max {worst[0]:.2f}x ({worst[1]})")
        skipped = [label for label, r in results if not r]
        if skipped:
            print(f"no ratio (a side failed in every pair): {', '.join(skipped)}")
        print(f"at the end: {load_average()}")
        for n in notes:
            print(f"not run: {n}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
