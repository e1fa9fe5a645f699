"""A real PyTorch export retargeted to an older ONNX Runtime and proven on real releases (issue 27).

A default ``torch.onnx.export(..., dynamo=True)`` of a small CNN and of an ``nn.TransformerEncoder`` (IR 10, opset
20, metadata_props on the graph, nodes and value_info) is bundled with
``onnxpack bundle --target-ort 1.16 --fix-ir --prove-ort 1.16.3,1.20.1,newest`` and the script prints what was
changed, what each release did and how long it took (first run: downloads; second run: from the cache).

PyTorch is never installed into onnxpack's environment: the export runs in a separate venv (``--torch-python``,
default ``/tmp/torchvenv/bin/python``; make it with ``python -m venv /tmp/torchvenv &&
/tmp/torchvenv/bin/pip install torch onnxscript``).

Run: ``python benchmarks/torch_retarget.py [--torch-python PY] [--keep DIR] [--prove 1.16.3,1.20.1,newest]``
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import zipfile  # noqa: E402

_EXPORT = r"""
import sys, torch, torch.nn as nn
out = sys.argv[1]
torch.manual_seed(0)

class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
                               nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                               nn.Linear(32, 10))
    def forward(self, x):
        return self.f(x).softmax(-1)

cnn = CNN().eval()
torch.onnx.export(cnn, (torch.randn(1, 3, 64, 64),), f"{out}/cnn.onnx", dynamo=True)
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(128, 4, 256, batch_first=True), 2).eval()
torch.onnx.export(enc, (torch.randn(1, 32, 128),), f"{out}/transformer.onnx", dynamo=True)
print(torch.__version__)
"""


def _model_facts(path: Path) -> str:
    import onnx

    m = onnx.load(path, load_external_data=False)
    md = len(m.graph.metadata_props) + sum(len(n.metadata_props) for n in m.graph.node) + sum(
        len(v.metadata_props) for v in [*m.graph.input, *m.graph.output, *m.graph.value_info])
    ops = ", ".join(f"{o.domain or 'ai.onnx'} {o.version}" for o in m.opset_import)
    return f"IR {m.ir_version}, opset {ops}, {len(m.graph.node)} nodes, {md} IR-10 metadata_props"


def _bundle(model: Path, out: Path, prove: str) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "onnxpack.cli", "bundle", str(model), "-o", str(out), "--version", "1.0.0",
           "--target-ort", "1.16", "--fix-ir", "--prove-ort", prove, "--force", "--json", "-q"]
    t = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True)
    took = time.perf_counter() - t
    if run.returncode != 0:
        raise SystemExit(f"bundle failed ({run.returncode}): {run.stderr.strip()}")
    return took, json.loads(run.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--torch-python", default="/tmp/torchvenv/bin/python")
    ap.add_argument("--prove", default="1.16.3,1.20.1,newest")
    ap.add_argument("--keep", type=Path, help="keep the exports and bundles in this folder")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="onnxpack-torch-")) if args.keep is None else args.keep
    work.mkdir(parents=True, exist_ok=True)
    try:
        t = time.perf_counter()
        exp = subprocess.run([args.torch_python, "-c", _EXPORT, str(work)], capture_output=True, text=True)
        if exp.returncode != 0:
            raise SystemExit(f"torch export failed: {exp.stderr.strip()[-2000:]}")
        print(f"torch {exp.stdout.strip().splitlines()[-1]}: exported both models in {time.perf_counter() - t:.1f} s")
        for name in ("cnn", "transformer"):
            model = work / f"{name}.onnx"
            print(f"\n{name}.onnx (+ .onnx.data): {_model_facts(model)}")
            for label in ("first run", "second run (cached environments)"):
                took, doc = _bundle(model, work / "out", args.prove)
                print(f"  bundle --target-ort 1.16 --fix-ir --prove-ort {args.prove}, {label}: {took:.1f} s")
            man = doc["manifest"]
            for fx in man["fixes"]:
                extra = f" ({len(fx['before'])} items)" if fx["code"] == "IR_FEATURES_DROPPED" else (
                    f" {fx['before']} -> {fx['after']}")
                print(f"    fix {fx['code']}{extra}")
            p = man["prove_ort"]
            print(f"    reference: onnxruntime {p['reference_ort']}; tolerance atol {p['atol']}, rtol {p['rtol']}")
            for r in p["releases"]:
                same = "bitwise equal" if r["outputs_bitwise_equal"] else f"max abs diff {r['max_abs_diff']:.3g}"
                print(f"    onnxruntime {r['version']} (numpy {r['numpy']}): loaded={r['loaded']}, {same}, "
                      f"session {r['load_s']:.3f} s, run {r['run_s'] * 1000:.1f} ms")
            with zipfile.ZipFile(doc["bundle"]) as zf:
                readme = zf.read("README.txt").decode()
            print("    README.txt: " + " | ".join(ln.strip() for ln in readme.splitlines()[3:8] if ln.strip()))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
