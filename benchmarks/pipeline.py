"""The whole pipeline on a ~1.9 GB model in both layouts, against bare onnxruntime and a hand-written script.

    python benchmarks/pipeline.py [--gb 1.9] [--keep DIR] [--repeat N] [--layouts single,external]

Beyond 2 GiB (issue 28 §4: ``--gb 4.6 --layouts external``) no self-contained file can exist: the external-data
model is then written layer by layer (never whole in memory), the hand-written script (``onnx.load`` + ``onnx.save``
into one file) is left out, memory is the peak of the whole process tree (``measure_tree``: the smoke and proof
children count), and the bundle ZIP is also tested with ``unzip -t`` and Python's ``zipfile.testzip()``.

Builds a chain of MatMul+Relu layers (float32, 1024×1024 each: 475 layers for 1.9 GB) once as one
self-contained .onnx and once as .onnx + .onnx.data, then runs what the user runs — ``inspect``, ``check``,
``smoke``, ``bundle`` (the default: smoke run and equality proof included) and ``verify --smoke`` — and prints
wall time and peak RSS of the largest process beside the references: a bare interpreter importing onnx,
``benchmarks/bare_ort.py`` (InferenceSession(path) + one run) and ``benchmarks/handwritten_release.py``
(onnx.load → onnx.save → InferenceSession → zipfile). Page cache is warm for all (same run).
With ``--repeat N`` every row runs N times, round by round (each round runs every row once, so a slow spell of the
shared disk hits all rows alike); the table shows the median time and the highest peak RSS, and the per-round
times follow it.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

import numpy as np  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from benchmarks.common import Measurement, ensure_bytecode, measure, measure_tree, print_rows  # noqa: E402

WIDTH = 1024
#: Above this a self-contained .onnx cannot exist (protobuf's 2 GiB limit, with room for the structure).
_SINGLE_MAX = 2**31 - 2**24


def _chain_model(inits: list[TensorProto]) -> onnx.ModelProto:
    """x -> (MatMul w{i} -> Relu) per initializer -> y, opset 17, IR 8: the benchmark's model around ``inits``."""
    nodes, prev = [], "x"
    for i in range(len(inits)):
        nodes.append(helper.make_node("MatMul", [prev, f"w{i}"], [f"m{i}"]))
        nodes.append(helper.make_node("Relu", [f"m{i}"], [f"r{i}"]))
        prev = f"r{i}"
    nodes.append(helper.make_node("Identity", [prev], ["y"]))
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", WIDTH])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", WIDTH])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="benchmark")
    model.ir_version = 8
    return model


def build_external(folder: Path, gb: float) -> Path:
    """``folder/external/chain.onnx`` + ``chain.onnx.data``, written one layer at a time (for any size)."""
    from onnx.external_data_helper import set_external_data

    layers = max(1, int(gb * 1e9 // (WIDTH * WIDTH * 4)))
    rng = np.random.default_rng(0)
    external = folder / "external" / "chain.onnx"
    external.parent.mkdir(parents=True)
    inits, offset, nbytes = [], 0, WIDTH * WIDTH * 4
    with open(external.with_name("chain.onnx.data"), "wb") as f:
        for i in range(layers):
            f.write((rng.standard_normal((WIDTH, WIDTH), dtype=np.float32) / np.float32(32)).tobytes())
            t = TensorProto(name=f"w{i}", data_type=TensorProto.FLOAT, dims=[WIDTH, WIDTH])
            t.raw_data = b""  # onnx >= 1.23's set_external_data requires the field to be present
            set_external_data(t, location="chain.onnx.data", offset=offset, length=nbytes)
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            inits.append(t)
            offset += nbytes
    external.write_bytes(_chain_model(inits).SerializeToString())
    print(f"model: {layers} MatMul+Relu layers, {offset / 1e9:.2f} GB of external data (written layer by layer)")
    return external


def _zip_tests(zip_path: Path) -> list[str]:
    """What ``unzip -t`` and Python's ``zipfile`` say of the bundle (each: ok / the failure), with their times."""
    import subprocess
    import time
    import zipfile

    lines = []
    if shutil.which("unzip"):
        start = time.perf_counter()
        r = subprocess.run(["unzip", "-t", str(zip_path)], capture_output=True, text=True)
        tail = (r.stdout.strip().splitlines() or [""])[-1]
        lines.append(f"unzip -t: exit {r.returncode} ({tail.strip()}), {time.perf_counter() - start:.1f} s")
    else:
        lines.append("unzip -t: unzip not installed")
    start = time.perf_counter()
    with zipfile.ZipFile(zip_path) as z:
        bad = z.testzip()
        sizes = ", ".join(f"{i.filename} {i.file_size}" for i in z.infolist() if i.file_size >= 2**32)
    verdict = "ok" if bad is None else f"bad member {bad}"
    lines.append(f"zipfile.testzip(): {verdict}, {time.perf_counter() - start:.1f} s; members of 4 GiB or more: "
                 f"{sizes or 'none'}")
    return lines


def build(folder: Path, gb: float) -> tuple[Path, Path]:
    """``folder/single/chain.onnx`` (self-contained) and ``folder/external/chain.onnx`` + ``chain.onnx.data``."""
    layers = max(1, int(gb * 1e9 // (WIDTH * WIDTH * 4)))
    rng = np.random.default_rng(0)
    inits = []
    for i in range(layers):
        w = (rng.standard_normal((WIDTH, WIDTH), dtype=np.float32) / np.float32(32)).astype(np.float32)
        inits.append(numpy_helper.from_array(w, f"w{i}"))
    model = _chain_model(inits)
    single = folder / "single" / "chain.onnx"
    external = folder / "external" / "chain.onnx"
    single.parent.mkdir(parents=True)
    external.parent.mkdir(parents=True)
    single.write_bytes(model.SerializeToString())
    onnx.save(model, external, save_as_external_data=True, all_tensors_to_one_file=True, location="chain.onnx.data")
    print(f"model: {layers} MatMul+Relu layers, {single.stat().st_size / 1e9:.2f} GB")
    return single, external


def _summary(ms: list[Measurement]) -> Measurement:
    """Median wall time, highest peak RSS, worst exit status of one row's rounds."""
    times = sorted(m.seconds for m in ms)
    mid = len(times) // 2
    median = times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2
    return Measurement(ms[0].label, median, max(m.peak_rss_mb for m in ms), max(m.returncode for m in ms))


def main() -> None:
    print(ensure_bytecode(), file=sys.stderr)  # what users run has bytecode (benchmarks/common.py)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gb", type=float, default=1.9)
    ap.add_argument("--keep", type=Path, help="build the models here and keep them")
    ap.add_argument("--repeat", type=int, default=1, help="rounds per row (median time, highest peak RSS)")
    ap.add_argument("--reuse", action="store_true", help="with --keep: use the models already built there")
    ap.add_argument("--layouts", default="single,external", help="comma-separated: single, external")
    args = ap.parse_args()
    layouts = [x.strip() for x in args.layouts.split(",") if x.strip()]
    big = args.gb * 1e9 >= _SINGLE_MAX
    if big and "single" in layouts:
        print(f"{args.gb} GB cannot be one self-contained .onnx (2 GiB limit): external layout only")
        layouts = ["external"]
    work = args.keep or Path(tempfile.mkdtemp(prefix="onnxpack-pipeline-"))
    py = sys.executable
    cli = [py, "-m", "onnxpack.cli"]  # the scripts run with -P: this folder's inspect.py must not shadow the stdlib
    try:
        single, external = work / "single" / "chain.onnx", work / "external" / "chain.onnx"
        if not (args.reuse and args.keep is not None and external.exists()):
            if big:
                external = build_external(work, args.gb)
            else:
                single, external = build(work, args.gb)
        models = [("self-contained .onnx", single)] if "single" in layouts else []
        models += [("external data", external)] if "external" in layouts else []
        for label, model in models:
            out = work / f"out-{model.parent.name}"
            bare, hand = str(_HERE / "bare_ort.py"), str(_HERE / "handwritten_release.py")
            commands: list[tuple[str, list[str]]] = [
                ("python -c 'import onnx' (baseline)", [py, "-c", "import onnx"]),
                ("bare onnxruntime: session + one run", [py, "-P", bare, str(model)]),
                *([] if big else [("hand-written release script",
                                   [py, "-P", hand, str(model), str(work / "hand.zip")])]),
                ("onnxpack inspect", [*cli, "inspect", str(model)]),
                ("onnxpack check", [*cli, "check", str(model)]),
                ("onnxpack smoke", [*cli, "smoke", str(model)]),
                ("onnxpack bundle (default)", [*cli, "bundle", str(model), "-o", str(out), "--version", "1.0.0",
                                               "--force"]),
                ("onnxpack verify --smoke", [*cli, "verify", str(out / "chain-1.0.0.zip"), "--smoke"]),
            ]
            rounds: dict[str, list[Measurement]] = {name: [] for name, _ in commands}
            for _ in range(max(1, args.repeat)):
                for name, argv in commands:
                    if big:  # the whole process tree: the smoke and proof children count
                        m = measure_tree(name, argv)
                        if m.returncode:
                            print(f"[{name}] exit {m.returncode}: {m.stderr[-2000:]}", file=sys.stderr)
                        rounds[name].append(Measurement(name, m.seconds, max(m.peak_rss_mb, m.tree_peak_mb),
                                                        m.returncode))
                    else:
                        rounds[name].append(measure(name, argv))
            rows = [_summary(ms) for ms in rounds.values()]
            on_disk = sum(f.stat().st_size for f in model.parent.iterdir() if f.name.startswith("chain.onnx"))
            title = f"{label} ({on_disk / 1e9:.2f} GB on disk)"
            if args.repeat > 1:
                title += f", median of {args.repeat} rounds"
            print_rows(title, rows, reference="bare onnxruntime: session + one run" if big
                       else "hand-written release script")
            if big:
                print("  (peak RSS: the whole process tree)")
                for line in _zip_tests(out / "chain-1.0.0.zip"):
                    print(f"  {line}")
            if args.repeat > 1:
                for name, ms in rounds.items():
                    print(f"    {name:<44} " + " ".join(f"{m.seconds:6.2f}" for m in ms))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
