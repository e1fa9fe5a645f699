"""The merge into the ZIP with its digests, with core/release/zipwriter.py as of a commit and as it is, beside
`cp` + `sync` of the same weights, alternating in one run (issue 40 item 2).

    python benchmarks/zip_digests.py MODEL [--before COMMIT] [--pairs 5]

Each round runs, in this order: ``cp`` + ``sync`` of the model's files (the floor), ``onnxpack bundle --no-smoke`` with
the zipwriter of ``--before`` (the module's source from ``git show COMMIT:core/release/zipwriter.py``, put in place
of the installed one in the child), and ``onnxpack bundle --no-smoke`` as it is now. Printed: the medians and the ratios
to the floor. The default model is GPT-2 medium (benchmarks/make_gpt2_medium.py). The default ``--before`` is 54e0a46,
whose zipwriter computed a stored entry's CRC-32 on a helper thread beside its SHA-256 and let an immutable chunk's
digests catch up during the next write; it was reverted: 7.49 -> 6.15 s, 8.85 -> 9.95 s and
10.91 -> 10.89 s median in three runs of this script on the shared 2-core machine, no measurable gain.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

from benchmarks.common import ROOT, ensure_bytecode, measure  # noqa: E402
from benchmarks.physical_floor import _files  # noqa: E402

#: The child: bundle --no-smoke, with the zipwriter module's source from a file when one is given.
CHILD = r"""
import sys, types
src, model, out = sys.argv[1], sys.argv[2], sys.argv[3]
if src:
    import onnxpack.core.release as pkg
    name = "onnxpack.core.release.zipwriter"
    mod = types.ModuleType(name)
    mod.__package__ = "onnxpack.core.release"
    mod.__file__ = src
    sys.modules[name] = mod
    exec(compile(open(src).read(), src, "exec"), mod.__dict__)
    pkg.zipwriter = mod
from pathlib import Path
from onnxpack.core.release.bundle import build_bundle
from onnxpack.core.release.options import BundleOptions
build_bundle(BundleOptions(model=Path(model), out_dir=Path(out), version="1.0.0", force=True, run_smoke=False))
"""


def main() -> None:
    print(ensure_bytecode(), file=sys.stderr)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", type=Path, nargs="?", default=Path("/work/bigmodels/gpt2-medium/model.onnx"))
    ap.add_argument("--before", default="54e0a46", help="the commit whose zipwriter is 'before'")
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="onnxpack-zipdigests-"))
    try:
        old = work / "zipwriter_before.py"
        old.write_text(subprocess.run(["git", "-C", str(ROOT), "show", f"{args.before}:core/release/zipwriter.py"],
                                      check=True, capture_output=True, text=True).stdout)
        files = _files(args.model)
        for f in files:
            with open(f, "rb") as fh:
                while fh.read(64 << 20):
                    pass
        py = sys.executable
        rows: dict[str, list[float]] = {"cp + sync": [], "before": [], "now": []}
        for i in range(args.pairs):
            dst = work / "cp"
            dst.mkdir()
            rows["cp + sync"].append(measure("cp", ["sh", "-c", 'cp "$@" && sync', "cp", *map(str, files),
                                                    str(dst)]).seconds)
            shutil.rmtree(dst)
            for label, src in (("before", str(old)), ("now", "")):
                out = work / "out"
                out.mkdir()
                m = measure(label, [py, "-c", CHILD, src, str(args.model), str(out)])
                if m.returncode:
                    raise SystemExit(f"{label} failed")
                rows[label].append(m.seconds)
                shutil.rmtree(out)
            print(f"  round {i + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in rows.items()), flush=True)
        floor = statistics.median(rows["cp + sync"])
        size = sum(f.stat().st_size for f in files) / 1e9
        print(f"\nbundle --no-smoke of {args.model} ({size:.2f} GB), median of {args.pairs} alternating rounds:")
        for k, v in rows.items():
            print(f"  {k:<12} {statistics.median(v):6.2f} s  {statistics.median(v) / floor:5.2f}x cp + sync")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
