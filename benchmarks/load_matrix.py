"""What the load matrix adds to a bundle's smoke stage: the smoke run of a model with and without it, alternating.

    python -m benchmarks.load_matrix [MODEL ...] [--pairs N]

Each run is ``core.runtime.smoke.smoke_test`` of the model as a bundle runs it (one child, three runs), with
``SmokeOptions.load_matrix`` off and on; the default model is the sample. Prints the medians and their ratio.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path


def _once(model: Path, matrix: bool) -> float:
    from onnxpack.core.runtime.smoke import SmokeOptions, smoke_test

    t0 = time.perf_counter()
    res = smoke_test(model, options=SmokeOptions(load_matrix=matrix))
    seconds = time.perf_counter() - t0
    if not res.ok or (matrix and not res.loads):
        raise SystemExit(f"{model}: the smoke run failed: {res.error}")
    return seconds


def main(argv: list[str]) -> int:
    pairs = 9
    if "--pairs" in argv:
        i = argv.index("--pairs")
        pairs = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    from onnxpack.core.resources import SAMPLE_MODEL, resource_path

    models = [Path(a) for a in argv] or [resource_path(*SAMPLE_MODEL)]
    for model in models:
        _once(model, True)  # warm the page cache and the imports' files
        off: list[float] = []
        on: list[float] = []
        for _ in range(pairs):
            off.append(_once(model, False))
            on.append(_once(model, True))
        a, b = statistics.median(off), statistics.median(on)
        print(f"{model.name}: smoke stage {a:.3f} s without the load matrix, {b:.3f} s with it: "
              f"{b / a:.2f}x (+{(b - a) * 1000:.0f} ms), median of {pairs} alternating pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
