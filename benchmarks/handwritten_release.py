"""The release script a user would write by hand (the reference of benchmarks/pipeline.py).

    python benchmarks/handwritten_release.py MODEL.onnx OUT.zip

onnx.load (external data included) → onnx.save as one file → InferenceSession on it + one run → zipfile.
"""

from __future__ import annotations

import os
import sys
import tempfile
import zipfile

import numpy as np
import onnx
import onnxruntime as ort


def main(src: str, out_zip: str) -> None:
    model = onnx.load(src)
    with tempfile.TemporaryDirectory() as tmp:
        merged = os.path.join(tmp, "model.onnx")
        onnx.save(model, merged)
        del model
        sess = ort.InferenceSession(merged, providers=["CPUExecutionProvider"])
        feeds = {i.name: np.random.default_rng(0).standard_normal(
            [d if isinstance(d, int) else 1 for d in i.shape]).astype(np.float32) for i in sess.get_inputs()}
        sess.run(None, feeds)
        del sess
        with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_STORED) as z:
            z.write(merged, "model.onnx")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
