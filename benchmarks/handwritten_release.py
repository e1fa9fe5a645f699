"""The release script a user would write by hand (the reference of benchmarks/pipeline.py and small_models.py).

    python benchmarks/handwritten_release.py MODEL.onnx OUT.zip

onnx.load (external data included) → onnx.save as one file → InferenceSession on it + one run → zipfile. Each input
gets what a user writes for its declared type: floats random normal, integers zeros, booleans False. A symbolic dim
is 1 (a sum of them, as GPT-2's attention mask declares, the count of its terms); when ONNX Runtime refuses that
(an image model that cannot shrink to 1×1), the user tries the other dims at 32, then 64, 256, 512, the batch size
(a name any input leads with, which an RNN state repeats in its middle) staying 1.
"""

from __future__ import annotations

import os
import sys
import tempfile
import zipfile

import numpy as np
import onnx
import onnxruntime as ort

TYPES = {"float": np.float32, "float16": np.float16, "double": np.float64, "int64": np.int64, "int32": np.int32,
         "int16": np.int16, "int8": np.int8, "uint8": np.uint8, "bool": np.bool_}


def feeds(sess: ort.InferenceSession, size: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    batch = {str(i.shape[0]) for i in sess.get_inputs() if i.shape}  # the leading dims' names: batch size 1
    out = {}
    for i in sess.get_inputs():
        shape = [d if isinstance(d, int) else size if size > 1 and k and str(d) not in batch else len(str(d).split("+"))
                 for k, d in enumerate(i.shape)]
        dtype = TYPES[i.type[len("tensor("):-1]]  # "tensor(int64)" -> np.int64
        if np.issubdtype(dtype, np.floating):
            out[i.name] = rng.standard_normal(shape).astype(dtype)
        else:
            out[i.name] = np.zeros(shape, dtype=dtype)
    return out


def main(src: str, out_zip: str) -> None:
    model = onnx.load(src)
    with tempfile.TemporaryDirectory() as tmp:
        merged = os.path.join(tmp, "model.onnx")
        onnx.save(model, merged)
        del model
        sess = ort.InferenceSession(merged, providers=["CPUExecutionProvider"])
        for size in (1, 32, 64, 256, 512):
            try:
                sess.run(None, feeds(sess, size))
                break
            except Exception:
                if size == 512:
                    raise
        del sess
        with zipfile.ZipFile(out_zip, "w", zipfile.ZIP_STORED) as z:
            z.write(merged, "model.onnx")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
