"""`onnxpack bundle DIR` of a release folder beside the script a user writes by hand, in alternating pairs.

    python -m benchmarks.release_folder FOLDER [FOLDER ...] [--pairs N]

The hand-written reference (``--handwritten FOLDER OUT.zip``, run as its own process): for every ``.onnx`` file
of the folder, onnx.load (external data included) → onnx.save as one file → InferenceSession on it + one run on
inputs it accepts (ones; symbolic dims 1) → every merged model and every other file (not hidden, no data file)
into one zipfile at its path. onnxpack does more (validation, the onnx checker, the proof, the manifest, checks of
names and label maps): the ratio is what that costs.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import zipfile
from pathlib import Path

from benchmarks.common import ensure_bytecode, measure

_DATA_SUFFIXES = (".data", ".onnx_data", ".pb", ".bin")


def handwritten(folder: str, out_zip: str) -> None:
    """The reference: see the module docstring."""
    import numpy as np
    import onnx
    import onnxruntime as ort

    root = Path(folder)
    types = {"tensor(float)": np.float32, "tensor(int64)": np.int64, "tensor(int32)": np.int32,
             "tensor(bool)": np.bool_, "tensor(float16)": np.float16, "tensor(double)": np.float64}
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(out_zip, "w", zipfile.ZIP_STORED) as z:
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root.parent).as_posix()
            if not path.is_file() or any(p.startswith(".") for p in path.relative_to(root).parts):
                continue
            if path.suffix == ".onnx":
                merged = os.path.join(tmp, "m.onnx")
                onnx.save(onnx.load(str(path)), merged)
                sess = ort.InferenceSession(merged, providers=["CPUExecutionProvider"])
                feeds = {i.name: np.ones([d if isinstance(d, int) else 1 for d in i.shape],
                                         dtype=types.get(i.type, np.float32)) for i in sess.get_inputs()}
                try:
                    sess.run(None, feeds)
                except Exception as e:  # a hand-written script would just report it
                    print(f"{rel}: {e}", file=sys.stderr)
                del sess
                z.write(merged, rel)
            elif not path.name.endswith(_DATA_SUFFIXES):
                z.write(path, rel)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--handwritten"]:
        handwritten(argv[1], argv[2])
        return 0
    pairs = 5
    if "--pairs" in argv:
        i = argv.index("--pairs")
        pairs = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    print(ensure_bytecode())
    exe = str(Path(sys.executable).with_name("onnxpack"))
    for folder in argv:
        ours: list[float] = []
        ref: list[float] = []
        rss_ours: list[float] = []
        rss_ref: list[float] = []
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(pairs):
                a = measure("onnxpack bundle DIR", [exe, "bundle", folder, "-o", f"{tmp}/o{i}", "--version", "1.0.0"])
                b = measure("hand-written", [sys.executable, "-m", "benchmarks.release_folder", "--handwritten", folder,
                                             f"{tmp}/h{i}.zip"])  # fmt: skip
                if a.returncode or b.returncode:
                    print(f"{folder}: exit {a.returncode} / {b.returncode}")
                    return 1
                ours.append(a.seconds)
                ref.append(b.seconds)
                rss_ours.append(a.peak_rss_mb)
                rss_ref.append(b.peak_rss_mb)
        mo, mr = statistics.median(ours), statistics.median(ref)
        print(f"{folder}: onnxpack bundle DIR {mo:.2f} s ({max(rss_ours):.0f} MB), hand-written {mr:.2f} s "
              f"({max(rss_ref):.0f} MB): {mo / mr:.2f}x time, median of {pairs} alternating pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
