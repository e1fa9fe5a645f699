"""GPT-2 medium (355 M parameters, ~1.42 GB float32) exported offline with random weights (issue 40): a real
transformer at the size where the layout and the way a model is loaded cost seconds.

Never imported by the tests: it documents how ``/work/bigmodels/gpt2-medium`` (or ``--out DIR``) was made. It needs
PyTorch and transformers, which are never installed into onnxpack's environment; run it with the exports venv
(benchmarks/make_real_exports.py says how it was made)::

    /work/exports-venv/bin/python benchmarks/make_gpt2_medium.py [--out /work/bigmodels/gpt2-medium]

Nothing is downloaded: the model is ``GPT2LMHeadModel(GPT2Config(n_layer=24, n_embd=1024, n_head=16))`` with seeded
random weights (vocabulary 50257, 1024 positions, as the published checkpoint), no KV cache, exported by
``torch.onnx.export(..., dynamo=True, external_data=True)``: ``model.onnx`` (the graph) + ``model.onnx.data`` (the
weights), input ``input_ids`` [batch, sequence] int64, output ``logits``. ``--layers N`` makes a smaller or larger
variant (56 layers: a 3.03 GB export).
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# benchmarks/inspect.py would shadow the standard library's inspect (numpy and torch import it)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import time  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/bigmodels/gpt2-medium"))
    parser.add_argument("--layers", type=int, default=24)
    args = parser.parse_args()

    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    cfg = GPT2Config(n_layer=args.layers, n_embd=1024, n_head=16, use_cache=False)
    model = GPT2LMHeadModel(cfg).eval()

    class Logits(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = model

        def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
            return self.m(input_ids=input_ids, use_cache=False, return_dict=False)[0]

    t0 = time.perf_counter()
    ids = torch.randint(0, cfg.vocab_size, (1, 8), dtype=torch.int64)
    batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence", max=cfg.n_positions)
    with torch.no_grad():
        torch.onnx.export(Logits().eval(), (ids,), str(out / "model.onnx"), input_names=["input_ids"],
                          output_names=["logits"], dynamic_shapes=({0: batch, 1: seq},), dynamo=True,
                          external_data=True)
    files = sorted(p for p in out.iterdir() if p.is_file())
    print(f"exported in {time.perf_counter() - t0:.1f} s:")
    for p in files:
        print(f"  {p.name}  {p.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
