"""The whole pipeline on a ~1.9 GB model in both layouts, against bare onnxruntime and a hand-written script.

    python benchmarks/pipeline.py [--gb 1.9] [--keep DIR]

Builds a chain of MatMul+Relu layers (float32, 1024×1024 each: 475 layers for 1.9 GB) once as one
self-contained .onnx and once as .onnx + .onnx.data, then runs what the user runs — ``inspect``, ``check``,
``smoke``, ``bundle`` (the default: smoke run and equality proof included) and ``verify --smoke`` — and prints
wall time and peak RSS of the largest process beside the references: a bare interpreter importing onnx,
``benchmarks/bare_ort.py`` (InferenceSession(path) + one run) and ``benchmarks/handwritten_release.py``
(onnx.load → onnx.save → InferenceSession → zipfile). Page cache is warm for all (same run).
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

from benchmarks.common import Measurement, measure, print_rows  # noqa: E402

WIDTH = 1024


def build(folder: Path, gb: float) -> tuple[Path, Path]:
    """``folder/single/chain.onnx`` (self-contained) and ``folder/external/chain.onnx`` + ``chain.onnx.data``."""
    layers = max(1, int(gb * 1e9 // (WIDTH * WIDTH * 4)))
    rng = np.random.default_rng(0)
    nodes, inits = [], []
    prev = "x"
    for i in range(layers):
        w = (rng.standard_normal((WIDTH, WIDTH), dtype=np.float32) / np.float32(32)).astype(np.float32)
        inits.append(numpy_helper.from_array(w, f"w{i}"))
        nodes.append(helper.make_node("MatMul", [prev, f"w{i}"], [f"m{i}"]))
        nodes.append(helper.make_node("Relu", [f"m{i}"], [f"r{i}"]))
        prev = f"r{i}"
    nodes.append(helper.make_node("Identity", [prev], ["y"]))
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", WIDTH])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", WIDTH])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="benchmark")
    model.ir_version = 8
    single = folder / "single" / "chain.onnx"
    external = folder / "external" / "chain.onnx"
    single.parent.mkdir(parents=True)
    external.parent.mkdir(parents=True)
    single.write_bytes(model.SerializeToString())
    onnx.save(model, external, save_as_external_data=True, all_tensors_to_one_file=True, location="chain.onnx.data")
    print(f"model: {layers} MatMul+Relu layers, {single.stat().st_size / 1e9:.2f} GB")
    return single, external


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gb", type=float, default=1.9)
    ap.add_argument("--keep", type=Path, help="build the models here and keep them")
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="onnxpack-pipeline-"))
    py = sys.executable
    cli = [py, "-m", "onnxpack.cli"]  # the scripts run with -P: this folder's inspect.py must not shadow the stdlib
    try:
        single, external = build(work, args.gb)
        base = measure("python -c 'import onnx' (baseline)", [py, "-c", "import onnx"])
        for label, model in (("self-contained .onnx", single), ("external data", external)):
            out = work / f"out-{model.parent.name}"
            rows: list[Measurement] = [base]
            bare, hand = str(_HERE / "bare_ort.py"), str(_HERE / "handwritten_release.py")
            rows.append(measure("bare onnxruntime: session + one run", [py, "-P", bare, str(model)]))
            rows.append(measure("hand-written release script",
                                [py, "-P", hand, str(model), str(work / f"hand-{model.parent.name}.zip")]))
            rows.append(measure("onnxpack inspect", [*cli, "inspect", str(model)]))
            rows.append(measure("onnxpack check", [*cli, "check", str(model)]))
            rows.append(measure("onnxpack smoke", [*cli, "smoke", str(model)]))
            rows.append(measure("onnxpack bundle (default)", [*cli, "bundle", str(model), "-o", str(out),
                                                               "--version", "1.0.0", "--force"]))
            rows.append(measure("onnxpack verify --smoke", [*cli, "verify", str(out / "chain-1.0.0.zip"), "--smoke"]))
            print_rows(f"{label} ({model.stat().st_size / 1e9:.2f} GB model file)", rows,
                       reference="hand-written release script")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
