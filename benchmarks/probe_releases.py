"""Measure the IR/opset limits of older ONNX Runtime releases on their official wheels (core/checks/ortreleases.py).

requirements/probe_ort.py measures the installed onnxruntime; this does the same for any release with a wheel for
this Python, in the environments ``--prove-ort`` caches (core/runtime/prove.py): one-node Relu models at each IR
version and opset are built here and loaded from bytes there. Prints one line per release.

Run: ``python benchmarks/probe_releases.py [--python PY] 1.15.1 1.16.3 1.17.3 1.18.1 1.19.2 1.20.1``
(``--python``: another CPython to build the environments with, for releases without a wheel for this one, e.g. a
3.9 for ORT 1.10–1.14.)
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import json  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

_CHILD = r"""
import json, sys, onnxruntime as ort
models = json.load(open(sys.argv[1]))
so = ort.SessionOptions(); so.log_severity_level = 4
ok = {}
for key, path in models.items():
    try:
        ort.InferenceSession(open(path, "rb").read(), so, providers=["CPUExecutionProvider"])
        ok[key] = True
    except Exception:
        ok[key] = False
print(json.dumps({"onnxruntime": ort.__version__, "ok": ok}))
"""


def _models(folder: Path) -> dict[str, str]:
    from onnx import TensorProto, helper

    def make(ir: int, opset: int, ml: int | None) -> str:
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
        graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "probe", [x], [y])
        ops = [helper.make_opsetid("", opset)] + ([helper.make_opsetid("ai.onnx.ml", ml)] if ml else [])
        m = helper.make_model(graph, opset_imports=ops)
        m.ir_version = ir
        path = folder / f"ir{ir}-op{opset}-ml{ml}.onnx"
        path.write_bytes(m.SerializeToString())
        return str(path)

    out = {f"ir:{i}": make(i, 13, None) for i in range(3, 15)}
    out.update({f"opset:{o}": make(8, o, None) for o in range(7, 30)})
    out.update({f"ml:{o}": make(8, 13, o) for o in range(1, 8)})
    return out


def main() -> int:
    import argparse

    from onnxpack.core.runtime.prove import ensure_release

    ap = argparse.ArgumentParser()
    ap.add_argument("--python", help="another CPython to make the environments with")
    ap.add_argument("versions", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        models = _models(Path(d))
        (Path(d) / "models.json").write_text(json.dumps(models))
        (Path(d) / "child.py").write_text(_CHILD)
        for version in args.versions:
            env = ensure_release(version, python=args.python)
            run = subprocess.run([str(env.python), "-I", "-B", str(Path(d) / "child.py"), str(Path(d) / "models.json")],
                                 capture_output=True, text=True, check=True)
            res = json.loads(run.stdout.strip().splitlines()[-1])
            ok = res["ok"]

            def top(kind: str, ok: dict[str, bool] = ok) -> int:
                return max(int(k.split(":")[1]) for k, v in ok.items() if v and k.startswith(kind + ":"))

            print(json.dumps({"onnxruntime": res["onnxruntime"], "wheel": env.wheel, "ir_version": top("ir"),
                              "ai_onnx_opset": top("opset"), "ai_onnx_ml_opset": top("ml")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
