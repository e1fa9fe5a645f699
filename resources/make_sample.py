"""Build the sample model ``resources/sample/victory.onnx`` + ``victory.onnx.data``.

A small image classifier shaped like the one in the source documents (seed 000): RGB images
``batch_size``×3×64×128 → three convolutions → global average pool → Gemm → softmax over 3 classes,
about 370 KB of float32 weights. Saved the way PyTorch's exporter writes it: large tensors in one
``victory.onnx.data`` file, packed back to back (offsets NOT aligned), small tensors inline.

Deterministic: fixed seed, fixed names; running it twice gives byte-identical files.
Run: ``python resources/make_sample.py`` (writes into resources/sample/).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.external_data_helper import set_external_data

SEED = 20251119
NAME = "victory"
CLASSES = ["victory", "defeat", "other"]
SIZE_THRESHOLD = 1024  # bytes; like torch.onnx / onnx.save_model's size_threshold


def build() -> onnx.ModelProto:
    rng = np.random.default_rng(SEED)

    def weight(name: str, shape: tuple[int, ...]) -> TensorProto:
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else shape[0]
        arr = rng.standard_normal(shape).astype(np.float32) * np.float32(np.sqrt(2.0 / fan_in))
        return numpy_helper.from_array(arr, name)

    def bias(name: str, n: int) -> TensorProto:
        return numpy_helper.from_array((rng.standard_normal(n) * 0.01).astype(np.float32), name)

    inits = [
        weight("conv1.weight", (32, 3, 3, 3)), bias("conv1.bias", 32),
        weight("conv2.weight", (64, 32, 3, 3)), bias("conv2.bias", 64),
        weight("conv3.weight", (128, 64, 3, 3)), bias("conv3.bias", 128),
        weight("fc.weight", (3, 128)), bias("fc.bias", 3),
    ]
    conv = dict(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[1, 1])
    pool = dict(kernel_shape=[2, 2], strides=[2, 2])
    nodes = [
        helper.make_node("Conv", ["input", "conv1.weight", "conv1.bias"], ["c1"], name="/conv1/Conv", **conv),
        helper.make_node("Relu", ["c1"], ["r1"], name="/relu1/Relu"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="/pool1/MaxPool", **pool),
        helper.make_node("Conv", ["p1", "conv2.weight", "conv2.bias"], ["c2"], name="/conv2/Conv", **conv),
        helper.make_node("Relu", ["c2"], ["r2"], name="/relu2/Relu"),
        helper.make_node("MaxPool", ["r2"], ["p2"], name="/pool2/MaxPool", **pool),
        helper.make_node("Conv", ["p2", "conv3.weight", "conv3.bias"], ["c3"], name="/conv3/Conv", **conv),
        helper.make_node("Relu", ["c3"], ["r3"], name="/relu3/Relu"),
        helper.make_node("GlobalAveragePool", ["r3"], ["gap"], name="/gap/GlobalAveragePool"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="/flatten/Flatten", axis=1),
        helper.make_node("Gemm", ["flat", "fc.weight", "fc.bias"], ["logits"], name="/fc/Gemm", transB=1),
        helper.make_node("Softmax", ["logits"], ["output"], name="/softmax/Softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "victory_classifier",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch_size", 3, 64, 128])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch_size", 3])],
        initializer=inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17)],
        producer_name="onnxpack-sample",
        producer_version="1.0",
        model_version=1,
        doc_string="Sample classifier for onnxpack: RGB 64x128 screenshot -> P(victory, defeat, other).",
    )
    model.ir_version = 8
    helper.set_model_props(
        model,
        {"classes": ",".join(CLASSES), "input_layout": "NCHW RGB float32 0..1", "license": "CC0-1.0"},
    )
    onnx.checker.check_model(model, full_check=True)
    return model


def save_external(model: onnx.ModelProto, out_dir: Path) -> None:
    """Move tensors above the threshold into NAME.onnx.data, packed without alignment padding."""
    data_name = f"{NAME}.onnx.data"
    blob = bytearray()
    for t in model.graph.initializer:
        if len(t.raw_data) < SIZE_THRESHOLD:
            continue
        raw = t.raw_data
        set_external_data(t, location=data_name, offset=len(blob), length=len(raw))
        t.ClearField("raw_data")
        t.data_location = TensorProto.EXTERNAL
        blob += raw
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / data_name).write_bytes(bytes(blob))
    (out_dir / f"{NAME}.onnx").write_bytes(model.SerializeToString(deterministic=True))


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent / "sample"
    save_external(build(), out)
    print(f"wrote {out / (NAME + '.onnx')} and {out / (NAME + '.onnx.data')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
