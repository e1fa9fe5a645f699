"""Benchmark `onnxpack inspect` against `onnx.load` with weights on a ~1.9 GB external-data model, in one run.

Run on demand: `python benchmarks/inspect.py [--gb 1.9] [--dir DIR] [--repeat 3]`. Target: `onnxpack inspect`
takes under 0.5 s and under 100 MB peak RSS MORE than a bare interpreter that has imported onnx, whatever
the weight size. Rows: the baseline (`python -c "import onnx"`), onnxpack inspect (human and --json),
`onnxpack check` for reference (reads nothing either unless a `checksum` key asks; runs the checker in a
child, whose memory is not in this row), and onnx.load with weights. Each row keeps its fastest of
``--repeat`` runs (the page cache is warm: every row reads the same files).

``--shapes`` (issue 28 §1, no worst case) instead builds the worst shapes with onnx.helper — one node with millions of
attribute entries, 200k nodes, 100k small initializers, a string tensor of 2M entries, nested and many subgraphs, a
self-contained model with 100k nodes and 256 MB of weights — and prints, for each and for every ``--model PATH``
(e.g. the 179 MB random forest of benchmarks/realmodels.py --generate), ``onnx.load(path, load_external_data=False)``
beside ``onnxpack inspect`` and check without its checker child (``validate_model(path, run_checker=False)`` in a
fresh interpreter) as ratios of time and peak RSS. Targets: <= 1.2x onnx.load's time and at most +0.5 s over it,
peak RSS <= 1.2x.

``--corpus`` (issue 40: ``inspect`` within 1.2x ``onnx.load(load_external_data=False)`` on every corpus model) runs,
on the sample, every model of /work/realexports (``--exports``) and every model of the real-model corpus
(benchmarks/realmodels.py, from its cache, both layouts) up to ``--max-mb``: ``--pairs`` rounds (the order rotates)
of a fresh ``onnxpack inspect MODEL`` (the console script beside this interpreter, else ``python -m onnxpack.cli``),
a fresh ``python -c "import onnx; onnx.load(MODEL, load_external_data=False)"`` (the reference) and the same with
``OPENBLAS_NUM_THREADS=1`` (the stricter reference: the console script sets that for itself, so numpy starts no BLAS
thread pool when onnx imports it, which the plain reference pays), and prints the median times, the median and worst
ratio of the rounds to each reference, the CPU seconds (user + system) against the stricter reference's, and the
load average; then, in this process (imports paid), the engine's
``inspect_model(MODEL).to_dict()`` against ``onnx.load`` (median of ``--pairs`` alternating runs) for context.
``--only NAME`` keeps the models whose label contains NAME; ``--before DIR`` runs an earlier onnxpack in the same
rounds (the same console script with PYTHONPATH=DIR), for before/after figures taken together.
"""

from __future__ import annotations

import sys
from pathlib import Path

# This file is named like the stdlib module `inspect` (the issue names it so). Run as a script, its folder
# would come first on sys.path and shadow the stdlib for every later `import inspect`: put the project
# root there instead and import the helpers as the package benchmarks.common (as every benchmark does).
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from benchmarks.common import Measurement, ensure_bytecode, make_external_model, measure, print_rows  # noqa: E402

__all__ = ["main"]

TARGET_SECONDS = 0.5
TARGET_MB = 100.0


def _best(label: str, argv: list[str], repeat: int) -> Measurement:
    runs = [measure(label, argv) for _ in range(repeat)]
    best = min(runs, key=lambda m: m.seconds)
    return Measurement(label, best.seconds, max(m.peak_rss_mb for m in runs), max(m.returncode for m in runs))


def _save(model: onnx.ModelProto, path: Path) -> Path:
    model.ir_version = 8
    path.write_bytes(model.SerializeToString())
    return path


def _graph_model(nodes: list[onnx.NodeProto], inits: list[onnx.TensorProto] | None = None, *,
                 domains: tuple[tuple[str, int], ...] = (("", 17),)) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
    graph = helper.make_graph(nodes, "worst", [x], [y], inits or [])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in domains])


def build_shapes(folder: Path, scale: float = 1.0) -> dict[str, Path]:
    """The worst shapes of issue 28 §1, as self-contained files in ``folder`` (``scale`` multiplies their counts)."""
    n = lambda k: max(1, int(k * scale))  # noqa: E731
    out: dict[str, Path] = {}
    # One node with millions of attribute entries (a tree ensemble keeps its trees so): ints, floats, strings.
    node = helper.make_node("Bag", ["x"], ["y"], domain="custom")
    ints = onnx.AttributeProto(name="ids", type=onnx.AttributeProto.INTS)
    ints.ints.extend(np.arange(n(4_000_000), dtype=np.int64) % 100_000)
    floats = onnx.AttributeProto(name="values", type=onnx.AttributeProto.FLOATS)
    floats.floats.extend(np.linspace(0, 1, n(4_000_000), dtype=np.float32))
    strings = onnx.AttributeProto(name="modes", type=onnx.AttributeProto.STRINGS)
    strings.strings.extend([b"BRANCH_LEQ", b"LEAF"] * n(1_000_000))
    node.attribute.extend([ints, floats, strings])
    out["attributes: 9M entries in 1 node"] = _save(_graph_model([node], domains=(("", 17), ("custom", 1))),
                                                   folder / "attributes.onnx")
    # 200k nodes
    nodes = [helper.make_node("Add", ["x" if i == 0 else f"t{i - 1}", "x"], [f"t{i}"]) for i in range(n(200_000))]
    nodes.append(helper.make_node("Identity", [nodes[-1].output[0]], ["y"]))
    out["nodes: 200k"] = _save(_graph_model(nodes), folder / "nodes.onnx")
    # 100k small initializers
    inits = [numpy_helper.from_array(np.full(4, i, np.float32), f"w{i}") for i in range(n(100_000))]
    out["small tensors: 100k initializers"] = _save(
        _graph_model([helper.make_node("Add", ["x", "w0"], ["y"])], inits), folder / "small_tensors.onnx")
    # a string tensor of 2M entries
    words = helper.make_tensor("words", TensorProto.STRING, [n(2_000_000)], [b"w%d" % (i % 1000)
                                                                         for i in range(n(2_000_000))])
    out["string tensor: 2M entries"] = _save(
        _graph_model([helper.make_node("Identity", ["x"], ["y"])], [words]), folder / "strings.onnx")
    # subgraphs: 25 nested If levels (protobuf allows 100 levels of messages), each with a 4 KiB Constant, and
    # 3000 If nodes side by side
    def branch(name: str, inner: list[onnx.NodeProto]) -> onnx.GraphProto:
        return helper.make_graph(inner, name, [], [helper.make_tensor_value_info(f"{name}_o", TensorProto.FLOAT, [4])])
    body = branch("leaf", [helper.make_node("Constant", [], ["leaf_o"], value=numpy_helper.from_array(
        np.ones(1024, np.float32), "c"))])
    for level in range(25):
        name = f"l{level}"
        body = branch(name, [
            helper.make_node("Constant", [], [f"{name}_c"], value=numpy_helper.from_array(np.full(1024, level,
                                                                                                   np.float32))),
            helper.make_node("If", ["cond"], [f"{name}_o"], then_branch=body, else_branch=branch(f"{name}_e", [
                helper.make_node("Identity", ["x"], [f"{name}_e_o"])]))])
    wide = [helper.make_node("If", ["cond"], [f"w{i}_o"], then_branch=branch(f"w{i}", [
        helper.make_node("Identity", ["x"], [f"w{i}_o"])]), else_branch=branch(f"e{i}", [
            helper.make_node("Identity", ["x"], [f"e{i}_o"])])) for i in range(n(3000))]
    deep = [helper.make_node("Constant", [], ["cond"], value=helper.make_tensor("b", TensorProto.BOOL, [], [True])),
            helper.make_node("If", ["cond"], ["y"], then_branch=body, else_branch=body), *wide]
    out["subgraphs: 25 deep + 3000 wide"] = _save(_graph_model(deep), folder / "subgraphs.onnx")
    # 100k nodes and 256 MB of weights in one file: the weights must stay in the file
    rng = np.random.default_rng(0)
    heavy = [numpy_helper.from_array(rng.standard_normal(2**20, dtype=np.float32), f"big{i}")
             for i in range(n(64))]
    nodes = [helper.make_node("Add", ["x" if i == 0 else f"t{i - 1}", "x"], [f"t{i}"]) for i in range(n(100_000))]
    nodes.append(helper.make_node("Identity", [nodes[-1].output[0]], ["y"]))
    out["100k nodes + 256 MB weights"] = _save(_graph_model(nodes, heavy), folder / "nodes_weights.onnx")
    return out


_CHECK = ("import sys; from onnxpack.core.checks.validate import validate_model; "
          "validate_model(sys.argv[1], run_checker=False)")
_LOAD = "import sys, onnx; onnx.load(sys.argv[1], load_external_data=False)"


def shapes(args: argparse.Namespace) -> None:
    py = sys.executable
    work = Path(tempfile.mkdtemp(prefix="onnxpack-bench-shapes-", dir=args.dir))
    try:
        models = build_shapes(work, args.scale)
        for m in args.model:
            models[Path(m).name] = Path(m)
        print(f"fastest of {args.repeat}; peak RSS of the process; ratios to onnx.load(load_external_data=False)")
        print(f"  {'model':<36} {'MB':>6} | {'onnx.load':>16} | {'inspect':>16} {'x time':>6} {'x mem':>6} | "
              f"{'check -checker':>16} {'x time':>6} {'x mem':>6}")
        for label, path in models.items():
            ref = _best("onnx.load", [py, "-c", _LOAD, str(path)], args.repeat)
            ins = _best("inspect", [py, "-m", "onnxpack.cli", "inspect", str(path)], args.repeat)
            chk = _best("check", [py, "-c", _CHECK, str(path)], args.repeat)
            cells = [f"{m.seconds:6.2f} s {m.peak_rss_mb:6.0f} MB" for m in (ref, ins, chk)]
            ratio = [f"{m.seconds / ref.seconds:5.2f}x {m.peak_rss_mb / ref.peak_rss_mb:5.2f}x" for m in (ins, chk)]
            fails = "".join(f"  ({m.label} exit {m.returncode})" for m in (ref, ins, chk) if m.returncode)
            print(f"  {label:<36} {path.stat().st_size / 1e6:6.0f} | {cells[0]} | {cells[1]} {ratio[0]} | "
                  f"{cells[2]} {ratio[1]}{fails}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _load_average() -> str:
    return "load average " + " / ".join(f"{x:.2f}" for x in os.getloadavg())


def corpus_models(exports: Path | None, cache: Path, max_mb: float) -> dict[str, Path]:
    """The sample, the real exports and the real-model corpus (both layouts, from its cache; nothing downloaded)."""
    from benchmarks.realmodels import corpus

    root = Path(__file__).resolve().parent.parent
    out: dict[str, Path] = {"sample/victory (external)": root / "resources" / "sample" / "victory.onnx"}
    if exports is not None and exports.is_dir():
        for p in sorted(exports.rglob("*.onnx")):
            out[f"exports/{p.relative_to(exports)}"] = p
    models, notes = corpus(cache, offline=True)
    for m in models:
        for layout, path in (("single", m.single), ("external", m.external)):
            if path is not None:
                out[f"{m.id} ({layout})"] = path
    for n in notes:
        print(f"  not in the corpus run: {n}", file=sys.stderr)

    def weight(p: Path) -> int:
        return sum(f.stat().st_size for f in p.parent.iterdir() if f.is_file())

    return {k: v for k, v in out.items() if weight(v) <= max_mb * 1e6}


def _run(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, children included) and exit status of a fresh process. The CPU
    time is what the command itself costs, less disturbed than the wall time by other work on a shared machine."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def _in_process(path: Path, runs: int) -> tuple[float, float]:
    """Median seconds of ``inspect_model(path).to_dict()`` and of ``onnx.load(path, load_external_data=False)`` in
    this process, alternating."""
    from onnxpack.core.checks.inspection import inspect_model

    ours, ref = [], []
    for i in range(runs):
        for which in ((0, 1) if i % 2 == 0 else (1, 0)):
            start = time.perf_counter()
            if which == 0:
                onnx.load(str(path), load_external_data=False)
                ref.append(time.perf_counter() - start)
            else:
                inspect_model(path).to_dict()
                ours.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(ref)


def _rate(rounds: list[dict[str, tuple[float, float]]], ref: str, what: int, ours: str = "ours") -> tuple[float, float]:
    """Median and worst of the rounds' ratios of ``ours`` to ``ref`` (``what``: 0 wall time, 1 CPU time)."""
    per = [r[ours][what] / r[ref][what] for r in rounds]
    return statistics.median(per), max(per)


def corpus_run(args: argparse.Namespace) -> int:
    py = sys.executable
    models = corpus_models(args.exports, args.cache.expanduser(), args.max_mb)
    if args.only:
        models = {k: v for k, v in models.items() if any(w.lower() in k.lower() for w in args.only)}
    one_blas = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    script = Path(sys.executable).with_name("onnxpack")  # the console script users run, beside this interpreter
    ours = [str(script)] if script.exists() else [py, "-m", "onnxpack.cli"]
    print(f"{len(models)} models; {args.pairs} rounds each (fresh processes, the order rotates); {_load_average()}")
    print("  ref = python -c 'import onnx; onnx.load(MODEL, load_external_data=False)'; ref1 = the same with "
          f"OPENBLAS_NUM_THREADS=1; ours = {' '.join(ours)} inspect MODEL\n"
          "  x ref / x ref1: median (worst) of the rounds' wall-time ratios; cpu: user + system seconds;\n"
          "  in-process: inspect_model(MODEL).to_dict() vs onnx.load (imports paid), median")
    print(f"  {'model':<52} {'MB':>5} | {'ref s':>5} {'ref1 s':>5} {'ours s':>5} | {'x ref':>12} | {'x ref1':>12} | "
          f"{'ref1 cpu':>5} {'ours cpu':>5} {'x':>5} | {'ref ms':>6} {'ours ms':>6} | load")
    ratios: list[tuple[float, float, float, float, float, float, str]] = []
    earlier: list[tuple[float, float, float, float, float, float, str]] = []  # --before's
    # --before DIR: an earlier onnxpack (DIR/onnxpack/{core,cli}, e.g. from git archive) run by the same console script
    before = None if args.before is None else {**os.environ, "PYTHONPATH": str(args.before)}
    failed: list[str] = []
    for label, path in models.items():
        argvs = {"ref": ([py, "-c", _LOAD, str(path)], None), "ref1": ([py, "-c", _LOAD, str(path)], one_blas),
                 "ours": ([*ours, "inspect", str(path)], None)}
        if before is not None:
            argvs["before"] = ([*ours, "inspect", str(path)], before)
        keys = list(argvs)
        rounds: list[dict[str, tuple[float, float]]] = []
        for i in range(args.pairs):
            got = {}
            for key in keys[i % len(keys):] + keys[:i % len(keys)]:
                argv, env = argvs[key]
                got[key] = _run(argv, env)
            # inspect exits 1 when the model has findings (it was inspected all the same)
            if got["ref"][2] or got["ref1"][2] or any(m[2] not in (0, 1) for k, m in got.items() if k[0] != "r"):
                failed.append(f"{label}: " + ", ".join(f"{k} exit {m[2]}" for k, m in got.items()))
                break
            rounds.append({k: (m[0], m[1]) for k, m in got.items()})
        if not rounds:
            continue

        ratios.append((*_rate(rounds, "ref", 0), *_rate(rounds, "ref1", 0), *_rate(rounds, "ref1", 1), label))
        if before is not None:
            earlier.append((*_rate(rounds, "ref", 0, "before"), *_rate(rounds, "ref1", 0, "before"),
                            *_rate(rounds, "ref1", 1, "before"), label))
        eng, load = _in_process(path, args.pairs)
        mb = sum(f.stat().st_size for f in path.parent.iterdir() if f.is_file()) / 1e6
        med = {k: statistics.median(r[k][0] for r in rounds) for k in keys}
        cpu = {k: statistics.median(r[k][1] for r in rounds) for k in keys}
        r = ratios[-1]
        print(f"  {label[:52]:<52} {mb:5.1f} | {med['ref']:5.3f} {med['ref1']:5.3f} {med['ours']:5.3f} | "
              f"{r[0]:4.2f}x ({r[1]:4.2f}x) | {r[2]:4.2f}x ({r[3]:4.2f}x) | {cpu['ref1']:5.3f} {cpu['ours']:5.3f} "
              f"{r[4]:4.2f}x | {load * 1e3:6.1f} {eng * 1e3:6.1f} | {os.getloadavg()[0]:.2f}", flush=True)
        if before is not None:
            b = earlier[-1]
            print(f"  {'  before: ' + label[:42]:<52} {'':5} | {'':5} {'':5} {med['before']:5.3f} | "
                  f"{b[0]:4.2f}x ({b[1]:4.2f}x) | {b[2]:4.2f}x ({b[3]:4.2f}x) | {'':5} {cpu['before']:5.3f} "
                  f"{b[4]:4.2f}x |", flush=True)
    for who, rows in (("inspect", ratios), ("inspect before (--before)", earlier)):
        for col, name in ((0, "onnx.load, wall"), (2, "onnx.load with OPENBLAS_NUM_THREADS=1, wall"),
                          (4, "onnx.load with OPENBLAS_NUM_THREADS=1, CPU")):
            if not rows:
                break
            meds = [r[col] for r in rows]
            top = max(rows, key=lambda r: r[col])
            over = [f"{r[6]} {r[col]:.2f}x" for r in rows if r[col] > 1.2]
            print(f"\n{who} / {name} (fresh processes): median of the models' medians "
                  f"{statistics.median(meds):.2f}x, highest median {top[col]:.2f}x ({top[6]}), highest single round "
                  f"{max(r[col + 1] for r in rows):.2f}x")
            print(f"models over 1.2x (median): {len(over)} of {len(rows)}" + (": " + "; ".join(over) if over else ""))
    for f in failed:
        print(f"FAILED: {f}")
    print(f"at the end: {_load_average()}")
    return 1 if failed else 0


def main() -> None:
    print(ensure_bytecode(), file=sys.stderr)  # what users run has bytecode (benchmarks/common.py)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gb", type=float, default=1.9, help="weights in GB (10**9 bytes; default 1.9)")
    ap.add_argument("--dir", type=Path, help="folder for the temporary model (default: system temp)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per row except onnx.load's (default 3)")
    ap.add_argument("--shapes", action="store_true", help="the worst shapes of issue 28 §1 instead (see above)")
    ap.add_argument("--scale", type=float, default=1.0, help="with --shapes: multiply the shapes' counts")
    ap.add_argument("--model", action="append", default=[], help="with --shapes: also this model (repeatable)")
    ap.add_argument("--corpus", action="store_true", help="issue 40: the sample, the real exports and the corpus")
    ap.add_argument("--pairs", type=int, default=5, help="with --corpus: alternating pairs per model (default 5)")
    ap.add_argument("--exports", type=Path, default=Path("/work/realexports"),
                    help="with --corpus: a folder of real exports, every .onnx under it (default /work/realexports)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "onnxpack-bench",
                    help="with --corpus: benchmarks/realmodels.py's cache (nothing is downloaded)")
    ap.add_argument("--max-mb", type=float, default=100.0, help="with --corpus: models up to this size (default 100)")
    ap.add_argument("--only", action="append", default=[], help="with --corpus: labels containing this (repeatable)")
    ap.add_argument("--before", type=Path, help="with --corpus: also an earlier onnxpack, DIR/onnxpack/{core,cli} "
                    "(git archive COMMIT core cli gui resources | tar -x -C DIR/onnxpack; compile it with compileall)")
    args = ap.parse_args()
    if args.corpus:
        sys.exit(corpus_run(args))
    if args.shapes:
        shapes(args)
        return
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
