"""Real exports, offline, from small configs with random weights (issues 36 and 41): the folders users bring.

Never imported by the tests: it documents how ``/work/realexports`` (or ``--out DIR``) was made, and makes it again.
It needs PyTorch and the exporters, which are never installed into onnxpack's environment; run it with a separate
venv::

    python3 -m venv /work/exports-venv
    /work/exports-venv/bin/pip install torch==2.13.0
    /work/exports-venv/bin/pip install transformers optimum optimum-onnx onnx onnxruntime diffusers onnxscript
    /work/exports-venv/bin/python benchmarks/make_real_exports.py --out /work/realexports

(versions used the first time: torch 2.13.0+cpu, transformers 4.57.6, optimum 2.1.0, optimum-onnx 0.1.0,
onnx 1.23.2, onnxruntime 1.32.0, diffusers 0.39.0, onnxscript 0.7.2, tokenizers 0.22.2).

Nothing is downloaded from a model hub: every model is built from a config object with random weights (seeded) and
``save_pretrained`` to a local folder with a small tokenizer trained here (``tokenizers`` WordLevel wrapped in
``PreTrainedTokenizerFast``), then exported by Optimum's exporter (``optimum.exporters.onnx.main_export``) exactly as
``optimum-cli export onnx --model LOCALDIR OUT`` would. What it writes under OUT:

- ``t5-seq2seq/``: Optimum's seq2seq layout (``encoder_model.onnx``, ``decoder_model.onnx``,
  ``decoder_with_past_model.onnx``, ``decoder_model_merged.onnx``, ``config.json``, ``generation_config.json``,
  tokenizer files). ``t5-seq2seq-external/``: the same with every model re-saved with external data as Optimum does
  above its size threshold (``NAME.onnx_data``, one file per model, ``size_threshold=1024``).
- ``bert/`` (fill-mask), ``gpt2/`` (text-generation-with-past): Optimum exports with config and tokenizer.
- ``diffusers-style/``: a diffusers ONNX pipeline's folder (``text_encoder/model.onnx``, ``unet/model.onnx`` +
  ``unet/weights.pb``, ``vae_decoder/model.onnx``, ``tokenizer/``, ``scheduler/scheduler_config.json``,
  ``model_index.json``) from real small diffusers/transformers components exported with ``torch.onnx.export`` as
  diffusers' ``convert_stable_diffusion_checkpoint_to_onnx.py`` does.
- ``victory-app/models/victory_classifier.onnx`` + ``victory_classifier.label_map.json`` (a small CNN, 12 classes),
  ``victory-app-external/models/`` (the same re-exported with ``torch.onnx.export(..., external_data=True)``:
  ``victory_classifier.onnx`` + ``victory_classifier.onnx.data``), ``victory-app-langs/models/{en,ja}/``.
- ``README.txt``: what is there; ``DONE`` once everything exists.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# benchmarks/inspect.py would shadow the standard library's inspect (numpy and torch import it)
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
from typing import Any  # noqa: E402

SENTENCES = [
    "the quick brown fox jumps over the lazy dog",
    "translate English to German: the house is wonderful",
    "summarize: studies have shown that owning a dog is good for you",
    "a release is a folder with every model and the files the app reads",
    "victory or defeat the classifier decides from one screenshot",
    "hello world this is a small tokenizer trained offline",
]
LABELS = [
    "defeat", "victory", "draw", "loading", "menu", "lobby",
    "character_select", "stage_select", "pause", "replay", "results", "unknown",
]


def _tokenizer(folder: Path, *, kind: str) -> None:
    """A small WordLevel tokenizer trained on SENTENCES, saved as transformers saves a fast tokenizer."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    if kind == "bert":
        special = {"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]",
                   "mask_token": "[MASK]"}
    elif kind == "gpt2":
        special = {"unk_token": "<|endoftext|>", "bos_token": "<|endoftext|>", "eos_token": "<|endoftext|>"}
    elif kind == "clip":
        special = {"unk_token": "<|endoftext|>", "bos_token": "<|startoftext|>", "eos_token": "<|endoftext|>",
                   "pad_token": "<|endoftext|>"}
    else:  # t5
        special = {"pad_token": "<pad>", "eos_token": "</s>", "unk_token": "<unk>"}
    ordered = list(dict.fromkeys(special.values()))
    tok = Tokenizer(models.WordLevel(unk_token=special["unk_token"]))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(SENTENCES, trainers.WordLevelTrainer(special_tokens=ordered))
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, model_max_length=64, **special)
    fast.save_pretrained(str(folder))


def _optimum(model: Any, kind: str, task: str, out: Path, work: Path) -> None:
    from optimum.exporters.onnx import main_export

    local = work / kind
    model.save_pretrained(str(local))
    _tokenizer(local, kind=kind)
    main_export(str(local), output=str(out), task=task, local_files_only=True, do_validation=True)


def t5(out: Path, work: Path) -> None:
    from transformers import T5Config, T5ForConditionalGeneration

    cfg = T5Config(d_model=64, d_kv=32, num_layers=2, num_decoder_layers=2, num_heads=2, d_ff=128, vocab_size=1000,
                   decoder_start_token_id=0, pad_token_id=0, eos_token_id=1)
    _optimum(T5ForConditionalGeneration(cfg).eval(), "t5", "text2text-generation-with-past", out, work)


def external_copy(src: Path, dst: Path) -> None:
    """Every model of ``src`` re-saved as Optimum saves one above its threshold: ``NAME.onnx`` + ``NAME.onnx_data``."""
    import onnx

    shutil.copytree(src, dst)
    for path in sorted(dst.glob("*.onnx")):
        model = onnx.load(str(path))
        onnx.save(model, str(path), save_as_external_data=True, all_tensors_to_one_file=True,
                  location=path.name + "_data", size_threshold=1024)


def bert(out: Path, work: Path) -> None:
    from transformers import BertConfig, BertForMaskedLM

    cfg = BertConfig(vocab_size=1000, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=128, max_position_embeddings=128, type_vocab_size=2)
    _optimum(BertForMaskedLM(cfg).eval(), "bert", "fill-mask", out, work)


def gpt2(out: Path, work: Path) -> None:
    from transformers import GPT2Config, GPT2LMHeadModel

    cfg = GPT2Config(vocab_size=1000, n_positions=128, n_embd=64, n_layer=2, n_head=2, bos_token_id=0,
                     eos_token_id=0)
    _optimum(GPT2LMHeadModel(cfg).eval(), "gpt2", "text-generation-with-past", out, work)


def diffusers_style(out: Path, work: Path) -> None:
    """Small real diffusers components exported the way diffusers' ONNX conversion script does."""
    import onnx
    import torch
    from diffusers import AutoencoderKL, PNDMScheduler, UNet2DConditionModel
    from transformers import CLIPTextConfig, CLIPTextModel

    out.mkdir(parents=True, exist_ok=True)
    text_cfg = CLIPTextConfig(vocab_size=1000, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                              num_attention_heads=2, max_position_embeddings=77, projection_dim=32)
    text_encoder = CLIPTextModel(text_cfg).eval()
    unet = UNet2DConditionModel(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                                block_out_channels=(32, 64), down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"), cross_attention_dim=32,
                                attention_head_dim=8, norm_num_groups=8).eval()
    vae = AutoencoderKL(in_channels=3, out_channels=3, latent_channels=4, block_out_channels=(32, 64),
                        down_block_types=("DownEncoderBlock2D",) * 2, up_block_types=("UpDecoderBlock2D",) * 2,
                        layers_per_block=1, norm_num_groups=8).eval()

    class TextEncoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = text_encoder

        def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            o = self.m(input_ids=input_ids)
            return o.last_hidden_state, o.pooler_output

    class Unet(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = unet

        def forward(self, sample: torch.Tensor, timestep: torch.Tensor,
                    encoder_hidden_states: torch.Tensor) -> torch.Tensor:
            return self.m(sample, timestep, encoder_hidden_states, return_dict=False)[0]

    class VaeDecoder(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.m = vae

        def forward(self, latent_sample: torch.Tensor) -> torch.Tensor:
            return self.m.decode(latent_sample, return_dict=False)[0]

    def export(module: torch.nn.Module, args: tuple[Any, ...], path: Path, inputs: list[str], outputs: list[str],
               axes: dict[str, dict[int, str]]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with torch.no_grad():
            torch.onnx.export(module, args, str(path), input_names=inputs, output_names=outputs, dynamic_axes=axes,
                              opset_version=14, do_constant_folding=True, dynamo=False)

    seq = 16
    export(TextEncoder(), (torch.zeros(1, seq, dtype=torch.int32),), out / "text_encoder" / "model.onnx",
           ["input_ids"], ["last_hidden_state", "pooler_output"], {"input_ids": {0: "batch", 1: "sequence"}})
    export(Unet(), (torch.randn(2, 4, 8, 8), torch.tensor([1.0] * 2), torch.randn(2, seq, 32)),
           work / "unet" / "model.onnx", ["sample", "timestep", "encoder_hidden_states"], ["out_sample"],
           {"sample": {0: "batch", 1: "channels", 2: "height", 3: "width"}, "timestep": {0: "batch"},
            "encoder_hidden_states": {0: "batch", 1: "sequence"}})
    # diffusers' script: onnx.save_model(..., save_as_external_data=True, all_tensors_to_one_file=True,
    # location="weights.pb", convert_attribute=False)
    unet_model = onnx.load(str(work / "unet" / "model.onnx"))
    (out / "unet").mkdir(parents=True, exist_ok=True)
    onnx.save_model(unet_model, str(out / "unet" / "model.onnx"), save_as_external_data=True,
                    all_tensors_to_one_file=True, location="weights.pb", convert_attribute=False)
    export(VaeDecoder(), (torch.randn(1, 4, 8, 8),), out / "vae_decoder" / "model.onnx", ["latent_sample"],
           ["sample"], {"latent_sample": {0: "batch", 1: "channels", 2: "height", 3: "width"}})
    _tokenizer(out / "tokenizer", kind="clip")
    scheduler = PNDMScheduler(skip_prk_steps=True)
    scheduler.save_pretrained(str(out / "scheduler"))
    (out / "model_index.json").write_text(json.dumps({
        "_class_name": "OnnxStableDiffusionPipeline", "_diffusers_version": "0.39.0",
        "feature_extractor": [None, None], "requires_safety_checker": False, "safety_checker": [None, None],
        "scheduler": ["diffusers", "PNDMScheduler"], "text_encoder": ["diffusers", "OnnxRuntimeModel"],
        "tokenizer": ["transformers", "CLIPTokenizer"], "unet": ["diffusers", "OnnxRuntimeModel"],
        "vae_decoder": ["diffusers", "OnnxRuntimeModel"], "vae_encoder": [None, None]}, indent=2) + "\n")


def _classifier(seed: int) -> Any:
    import torch

    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, stride=2, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 32, 3, stride=2, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 64, 3, stride=2, padding=1), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(64, len(LABELS)),
    ).eval()


def _victory(models: Path, seed: int, *, external: bool) -> None:
    import torch

    models.mkdir(parents=True, exist_ok=True)
    path = models / "victory_classifier.onnx"
    with torch.no_grad():
        torch.onnx.export(_classifier(seed), (torch.rand(1, 3, 224, 224),), str(path), input_names=["input"],
                          output_names=["output"], dynamic_shapes=({0: torch.export.Dim("batch")},), dynamo=True,
                          external_data=external)
    label_map = {"label_map": {name: i for i, name in enumerate(LABELS)},
                 "idx_to_label": {str(i): name for i, name in enumerate(LABELS)}}
    (models / "victory_classifier.label_map.json").write_text(json.dumps(label_map, indent=2) + "\n")


def victory(out: Path) -> None:
    _victory(out / "victory-app" / "models", 0, external=False)
    _victory(out / "victory-app-external" / "models", 0, external=True)
    _victory(out / "victory-app-langs" / "models" / "en", 0, external=False)
    _victory(out / "victory-app-langs" / "models" / "ja", 1, external=False)


def readme(out: Path) -> None:
    lines = ["Real exports made offline from small configs with random weights by benchmarks/make_real_exports.py",
             "(onnxpack repository; see its docstring for the venv and the versions). Files:", ""]
    for path in sorted(p for p in out.rglob("*") if p.is_file() and p.name not in ("README.txt", "DONE")):
        lines.append(f"  {path.relative_to(out)}  ({path.stat().st_size:,} bytes)")
    lines += ["", "t5-seq2seq: Optimum text2text-generation-with-past export of T5 (d_model 64, 2 layers, vocab 1000).",
              "t5-seq2seq-external: the same, each model re-saved with NAME.onnx_data (size_threshold 1024).",
              "bert: Optimum fill-mask export of BertForMaskedLM (hidden 64, 2 layers, vocab 1000).",
              "gpt2: Optimum text-generation-with-past export of GPT2LMHeadModel (n_embd 64, 2 layers, vocab 1000).",
              "diffusers-style: CLIP text encoder, UNet2DConditionModel (external data unet/weights.pb) and",
              "  AutoencoderKL decoder exported with torch.onnx.export (TorchScript exporter, opset 14).",
              "victory-app*: a small CNN classifier (input 'input' [batch,3,224,224] in [0,1], 12 classes) exported",
              "  with torch.onnx.export(dynamo=True); -external with external_data=True; -langs en, ja (other seed).",
              ""]
    (out / "README.txt").write_text("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/work/realexports"))
    parser.add_argument("--only", action="append", default=[],
                        help="t5, bert, gpt2, diffusers, victory (repeatable; default all)")
    args = parser.parse_args()
    import torch

    torch.manual_seed(0)
    torch.set_num_threads(1)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    only = set(args.only) or {"t5", "bert", "gpt2", "diffusers", "victory"}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if "victory" in only:
            victory(out)
        if "t5" in only:
            t5(out / "t5-seq2seq", work)
            external_copy(out / "t5-seq2seq", out / "t5-seq2seq-external")
        if "bert" in only:
            bert(out / "bert", work)
        if "gpt2" in only:
            gpt2(out / "gpt2", work)
        if "diffusers" in only:
            diffusers_style(out / "diffusers-style", work)
    readme(out)
    (out / "DONE").write_text("all folders written; see README.txt\n")


if __name__ == "__main__":
    main()
