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


def _before_tree(commit: str, work: str) -> Path:
    """onnxpack as of ``commit`` (git archive) in ``work``/before, to be put first on PYTHONPATH."""
    import compileall
    import subprocess

    root = Path(__file__).resolve().parent.parent
    before = Path(work) / "before"
    (before / "onnxpack").mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(before / "onnxpack")], input=archive, check=True)
    compileall.compile_dir(str(before / "onnxpack"), quiet=1)
    return before


def _option(argv: list[str], name: str, default: str | None = None) -> tuple[list[str], str | None]:
    if name not in argv:
        return argv, default
    i = argv.index(name)
    return argv[:i] + argv[i + 2:], argv[i + 1]


def main(argv: list[str]) -> int:
    """``FOLDER... [--pairs N] [--before COMMIT] [--bundle-arg ARG]``: per folder, in alternating rounds, onnxpack
    (and onnxpack as of COMMIT) beside the hand-written script; medians, and the load average before each round."""
    if argv[:1] == ["--handwritten"]:
        handwritten(argv[1], argv[2])
        return 0
    argv, pairs_text = _option(argv, "--pairs", "5")
    argv, commit = _option(argv, "--before")
    extra: list[str] = []
    while "--bundle-arg" in argv:
        argv, arg = _option(argv, "--bundle-arg")
        extra.append(str(arg))
    pairs = int(pairs_text or 5)
    print(ensure_bytecode())
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        before = _before_tree(commit, tmp) if commit else None
        for folder in argv:
            times: dict[str, list[float]] = {"now": [], "before": [], "hand-written": []}
            rss: dict[str, list[float]] = {"now": [], "before": [], "hand-written": []}
            for i in range(pairs):
                avg = Path("/proc/loadavg")
                load = " ".join(avg.read_text().split()[:3]) if avg.exists() else "?"
                runs = {"now": measure("onnxpack bundle DIR", [py, "-m", "onnxpack.cli", "bundle", folder, "-o",
                                                                f"{tmp}/o{i}", "--version", "1.0.0", *extra])}
                if before is not None:
                    runs["before"] = measure("onnxpack bundle DIR (before)",
                                             [py, "-m", "onnxpack.cli", "bundle", folder, "-o", f"{tmp}/b{i}",
                                              "--version", "1.0.0"], env={**os.environ, "PYTHONPATH": str(before)})
                runs["hand-written"] = measure("hand-written", [py, "-m", "benchmarks.release_folder",
                                                                "--handwritten", folder, f"{tmp}/h{i}.zip"])
                for key, m in runs.items():
                    if m.returncode:
                        print(f"{folder}: {key} exit {m.returncode}")
                        return 1
                    times[key].append(m.seconds)
                    rss[key].append(m.peak_rss_mb)
                print(f"  round {i + 1} (load average {load}): "
                      + ", ".join(f"{k} {m.seconds:.2f} s" for k, m in runs.items()), flush=True)
            med = {k: statistics.median(v) for k, v in times.items() if v}
            ref = med["hand-written"]
            print(f"{folder}: " + "; ".join(f"{k} {v:.2f} s ({max(rss[k]):.0f} MB, {v / ref:.2f}x the script)"
                                             for k, v in med.items())
                  + f"; median of {pairs} alternating rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
