"""`onnxpack bundle` of real and large models against the physical floor, side by side in one run (issue 40).

    python benchmarks/physical_floor.py [--model PATH ...] [--pairs 3] [--gpt2 DIR] [--synthetic-gb 1.9]
                                        [--merge | --merge-only] [--before COMMIT]

For each model, alternating pairs (floor, ours, floor, ours, ...) on a warm page cache:

* the floor: bare onnxruntime ``InferenceSession(path)`` + one run on the source (what any app pays to use the
  model at all) plus ``cp`` + ``sync`` of its files into a fresh folder (what writing it once costs);
* ours: ``onnxpack bundle MODEL -o OUT --version 1.0.N`` (the default: merge, smoke run, equality proof), its
  peak memory the whole process tree (the smoke and proof children count; polled) and its largest process;
* the memory reference: bare ORT's peak (GNU time).

With ``--before COMMIT`` the bundle of that commit runs in each round too; the order of a round's runs rotates (floor,
before, now; before, now, floor; now, floor, before), so that none always follows the same one. Printed: the median
of each, and ours / floor as ratios (time; tree and largest-process memory / bare ORT's).
Default models: the sample (resources/sample), a corpus model (``--corpus``, /work/realexports/bert/model.onnx from
``benchmarks/make_real_exports.py``) and GPT-2 medium (``benchmarks/make_gpt2_medium.py``,
/work/bigmodels/gpt2-medium/model.onnx, external data) when present; ``--synthetic-gb 1.9`` adds pipeline.py's
MatMul chain (external data), so that small and large are measured together in one command.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import ROOT, Measurement, checkout_before, ensure_bytecode, measure, measure_tree  # noqa: E402

#: Bare onnxruntime: session by path + one run, inputs by type (integers 0, floats random, free dims 1).
BARE = r"""
import sys, time, numpy as np, onnxruntime as ort
t0 = time.perf_counter()
s = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
t1 = time.perf_counter()
feeds = {}
for i in s.get_inputs():
    shape = [d if isinstance(d, int) else 1 for d in i.shape]
    if "int" in i.type:
        feeds[i.name] = np.zeros(shape, dtype=np.int64 if "int64" in i.type else np.int32)
    elif "bool" in i.type:
        feeds[i.name] = np.zeros(shape, dtype=bool)
    else:
        feeds[i.name] = np.random.default_rng(0).standard_normal(shape).astype(
            np.float16 if "float16" in i.type else np.float32)
s.run(None, feeds)
print(f"session {t1 - t0:.2f} s, run {time.perf_counter() - t1:.2f} s", file=sys.stderr)
"""


def _files(model: Path) -> list[Path]:
    """The model file and the files beside it that it names (its external data): what is copied."""
    import onnx

    proto = onnx.load(str(model), load_external_data=False)
    names = set()
    for t in proto.graph.initializer:
        for e in t.external_data:
            if e.key == "location":
                names.add(e.value)
    return [model, *sorted(model.parent / n for n in names)]


def _cp_sync(files: list[Path], work: Path) -> Measurement:
    """``cp`` + ``sync`` of the model's files into a fresh folder: what writing them once costs."""
    dst = work / "cp"
    shutil.rmtree(dst, ignore_errors=True)
    dst.mkdir()
    cp = measure("cp + sync", ["sh", "-c", 'cp "$@" && sync', "cp", *map(str, files), str(dst)])
    shutil.rmtree(dst, ignore_errors=True)
    return cp


def _floor(model: Path, files: list[Path], work: Path) -> tuple[Measurement, Measurement, Measurement]:
    """(ORT session + run, cp + sync, their sum with ORT's peak)."""
    py = sys.executable
    ort = measure("bare ORT session + run", [py, "-c", BARE, str(model)])
    cp = _cp_sync(files, work)
    total = Measurement("floor", ort.seconds + cp.seconds, ort.peak_rss_mb, max(ort.returncode, cp.returncode))
    return ort, cp, total


def _fresh(out: Path, before: Path | None) -> dict[str, str] | None:
    """An empty ``out``, and the environment that runs onnxpack as of ``before`` (None: as installed)."""
    import os

    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    return {**os.environ, "PYTHONPATH": str(before)} if before is not None else None


def _ours(model: Path, out: Path, i: int, extra: list[str],
          before: Path | None = None) -> tuple[Measurement, float, dict[str, object]]:
    """``onnxpack bundle`` as installed, or (``before``) the onnxpack package in that folder put first on the path."""
    env = _fresh(out, before)
    py = sys.executable
    m = measure_tree("onnxpack bundle", [py, "-m", "onnxpack.cli", "bundle", str(model), "-o", str(out), "--version",
                                         f"1.0.{i}", "--force", *extra], env=env)
    if m.returncode:
        print(f"[bundle] exit {m.returncode}: {m.stderr[-3000:]}", file=sys.stderr)
    smoke: dict[str, object] = {}
    for z in out.glob("*.zip"):
        import zipfile

        with zipfile.ZipFile(z) as zf:
            name = next((n for n in zf.namelist() if n.endswith("manifest.json")), None)
            if name:
                doc = json.loads(zf.read(name))
                models = doc.get("models") or []
                smoke = (models[0].get("smoke") or {}) if models else (doc.get("smoke") or {})
    shutil.rmtree(out, ignore_errors=True)
    return m, m.tree_peak_mb, smoke


def _merge(model: Path, out: Path, before: Path | None = None) -> Measurement:
    """``onnxpack merge MODEL -o OUT/NAME`` (the default layout: one file under 2 GiB), as installed or ``before``."""
    env = _fresh(out, before)
    m = measure("onnxpack merge", [sys.executable, "-m", "onnxpack.cli", "merge", str(model), "-o",
                                   str(out / model.name)], env=env)  # fmt: skip
    if m.returncode:
        print(f"[merge] exit {m.returncode} (run it by hand to see why)", file=sys.stderr)
    shutil.rmtree(out, ignore_errors=True)
    return m


def _merge_rows(model: Path, files: list[Path], pairs: int, work: Path, before: Path | None) -> None:
    """``merge`` against ``cp`` + ``sync`` of the same files, alternating (and ``before`` when given)."""
    cps, ours, olds = [], [], []
    for i in range(pairs):
        cp = _cp_sync(files, work)
        old = _merge(model, work / "merged", before) if before is not None else None
        m = _merge(model, work / "merged")
        cps.append(cp.seconds)
        ours.append(m.seconds)
        if old is not None:
            olds.append(old.seconds)
        print(f"  merge pair {i + 1}: cp/sync {cp.seconds:.2f} s | merge {m.seconds:.2f} s "
              f"({m.seconds / cp.seconds:.2f}x)"
              + (f" | before {old.seconds:.2f} s ({old.seconds / cp.seconds:.2f}x)" if old is not None else ""))
    med = statistics.median
    c = med(cps)
    print(f"  merge median: cp/sync {c:.2f} s, merge {med(ours):.2f} s -> {med(ours) / c:.2f}x"
          + (f"; before {med(olds):.2f} s -> {med(olds) / c:.2f}x" if olds else ""))


def run_model(label: str, model: Path, pairs: int, work: Path, extra: list[str], before: Path | None = None,
              merge: bool = False, bundle: bool = True) -> None:
    files = _files(model)
    size = sum(f.stat().st_size for f in files)
    print(f"\n{label}: {model} ({size / 1e9:.3f} GB in {len(files)} file(s)); {pairs} alternating pairs"
          + (f"; bundle {' '.join(extra)}" if extra else ""))
    for f in files:  # warm the page cache
        with open(f, "rb") as fh:
            while fh.read(64 << 20):
                pass
    if bundle:
        _bundle_rows(model, files, pairs, work, extra, before)
    if merge and len(files) > 1:
        _merge_rows(model, files, pairs, work, before)


def _bundle_rows(model: Path, files: list[Path], pairs: int, work: Path, extra: list[str],
                 before: Path | None) -> None:
    """``bundle`` against the floor, alternating (and ``before`` when given)."""
    floors, orts, cps, ours, trees = [], [], [], [], []
    olds: list[tuple[Measurement, float]] = []
    for i in range(pairs):
        avg = Path("/proc/loadavg")
        if avg.exists():
            print(f"  pair {i + 1}: load average {' '.join(avg.read_text().split()[:3])}")
        # The order rotates each round (floor, before, now; then before, now, floor; …): on this machine a process
        # that follows one which just freed gigabytes gets its memory cheaper (docs/performance.md), so a fixed
        # order favoured whichever side came after the floor's bare ORT session.
        runs: dict[str, Any] = {}
        order = ["floor", "before", "now"] if before is not None else ["floor", "now"]
        for side in order[i % len(order):] + order[:i % len(order)]:
            if side == "floor":
                runs[side] = _floor(model, files, work)
            else:
                runs[side] = _ours(model, work / "out", i, extra, before if side == "before" else None)
        ort, cp, floor = runs["floor"]
        if before is not None:
            old, old_tree, _ = runs["before"]
            olds.append((old, old_tree))
            print(f"  pair {i + 1}: before: bundle {old.seconds:6.2f} s, largest process {old.peak_rss_mb:7.0f} MB, "
                  f"tree {old_tree:7.0f} MB | ratio {old.seconds / floor.seconds:.2f}x")
        m, tree, smoke = runs["now"]
        cost = smoke.get("load_cost") if isinstance(smoke, dict) else None
        if isinstance(cost, dict):  # the end user's load of each layout, as the bundle measured it
            sides = [(k, cost.get(k) or {}) for k in ("shipped", "source")]
            print(f"  pair {i + 1}: end user's load by path: " + ", ".join(
                f"{k} ({v.get('layout')}) {v.get('load_s', '?')} s, {(v.get('peak_bytes') or 0) / 2**20:.0f} MiB"
                for k, v in sides))
        floors.append(floor)
        orts.append(ort)
        cps.append(cp)
        ours.append(m)
        trees.append(tree)
        print(f"  pair {i + 1}: floor {floor.seconds:6.2f} s (ORT {ort.seconds:.2f} + cp/sync {cp.seconds:.2f}), "
              f"ORT peak {ort.peak_rss_mb:7.0f} MB | bundle {m.seconds:6.2f} s, largest process "
              f"{m.peak_rss_mb:7.0f} MB, tree {tree:7.0f} MB | ratio {m.seconds / floor.seconds:.2f}x")
    med = statistics.median
    f_s, o_s = med(x.seconds for x in floors), med(x.seconds for x in ours)
    ort_mb = max(x.peak_rss_mb for x in orts)
    big_mb, tree_mb = max(x.peak_rss_mb for x in ours), max(trees)
    print(f"  median: floor {f_s:.2f} s (ORT {med(x.seconds for x in orts):.2f} + cp/sync "
          f"{med(x.seconds for x in cps):.2f}), bundle {o_s:.2f} s -> time {o_s / f_s:.2f}x the floor; "
          f"memory: largest process {big_mb:.0f} MB = {big_mb / ort_mb:.2f}x bare ORT's {ort_mb:.0f} MB, "
          f"tree {tree_mb:.0f} MB = {tree_mb / ort_mb:.2f}x")
    if olds:
        b_s = med(o.seconds for o, _ in olds)
        b_big, b_tree = max(o.peak_rss_mb for o, _ in olds), max(t for _, t in olds)
        print(f"  before: bundle {b_s:.2f} s -> time {b_s / f_s:.2f}x the floor; memory: largest process "
              f"{b_big:.0f} MB = {b_big / ort_mb:.2f}x, tree {b_tree:.0f} MB = {b_tree / ort_mb:.2f}x; "
              f"now / before {o_s / b_s:.2f}x")


def main() -> None:
    print(ensure_bytecode(), file=sys.stderr)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, action="append", default=[], help="a model to bundle (repeatable)")
    ap.add_argument("--gpt2", type=Path, default=Path("/work/bigmodels/gpt2-medium/model.onnx"))
    ap.add_argument("--corpus", type=Path, default=Path("/work/realexports/bert/model.onnx"),
                    help="a corpus model (benchmarks/make_real_exports.py), bundled when present")
    ap.add_argument("--no-sample", action="store_true")
    ap.add_argument("--synthetic-gb", type=float, default=0.0, help="add pipeline.py's MatMul chain of this size")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--bundle-arg", action="append", default=[], help="extra argument for bundle (repeatable)")
    ap.add_argument("--merge", action="store_true", help="also time `onnxpack merge` of each model with external "
                    "data against cp + sync of its files")
    ap.add_argument("--merge-only", action="store_true", help="time only `onnxpack merge` (implies --merge)")
    ap.add_argument("--before", metavar="COMMIT", help="also bundle with onnxpack as of COMMIT (git archive into a "
                    "temporary folder put first on PYTHONPATH), in the same alternating rounds")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="onnxpack-floor-"))
    try:
        before = checkout_before(args.before, work) if args.before else None
        models: list[tuple[str, Path]] = []
        if not args.no_sample:
            models.append(("sample", ROOT / "resources" / "sample" / "victory.onnx"))
        if args.corpus.exists() and not args.model:
            models.append((f"corpus {args.corpus.parent.name}", args.corpus))
        if args.gpt2.exists() and not args.model:
            models.append(("GPT-2 medium", args.gpt2))
        models += [(p.parent.name, p) for p in args.model]
        if args.synthetic_gb:
            from benchmarks.pipeline import build_external

            models.append((f"synthetic {args.synthetic_gb} GB", build_external(work / "synthetic", args.synthetic_gb)))
        for label, model in models:
            run_model(label, model, args.pairs, work, args.bundle_arg, before, args.merge or args.merge_only,
                      bundle=not args.merge_only)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
