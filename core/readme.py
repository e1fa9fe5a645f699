"""The receiver's README.txt inside a bundle: what the model is, its interface, and how to load and run it."""

from __future__ import annotations

import re
from typing import Any

from .manifest import MANIFEST_NAME

__all__ = ["receiver_readme"]

# ONNX element type -> (numpy dtype, Rust type, C# type). Types without a plain array type in a client get None.
_TYPES: dict[str, tuple[str, str | None, str | None]] = {
    "FLOAT": ("np.float32", "f32", "float"),
    "DOUBLE": ("np.float64", "f64", "double"),
    "FLOAT16": ("np.float16", "half::f16", "Float16"),
    "BFLOAT16": ("np.float32  # bfloat16: convert", None, "BFloat16"),
    "INT8": ("np.int8", "i8", "sbyte"),
    "INT16": ("np.int16", "i16", "short"),
    "INT32": ("np.int32", "i32", "int"),
    "INT64": ("np.int64", "i64", "long"),
    "UINT8": ("np.uint8", "u8", "byte"),
    "UINT16": ("np.uint16", "u16", "ushort"),
    "UINT32": ("np.uint32", "u32", "uint"),
    "UINT64": ("np.uint64", "u64", "ulong"),
    "BOOL": ("np.bool_", "bool", "bool"),
    "STRING": ("object", "String", "string"),
}


def _example_shape(shape: list[Any] | None) -> tuple[list[int], list[str]]:
    """A concrete example shape (named or unknown dims become 1) and the names that were filled in."""
    dims, named = [], []
    for d in shape or []:
        if isinstance(d, int) and d >= 0:
            dims.append(d)
        else:
            dims.append(1)
            if isinstance(d, str) and d:
                named.append(d)
    return dims, named


def _ident(name: str, i: int) -> str:
    """A variable name for an input (models name inputs anything, e.g. "input:0")."""
    text = re.sub(r"\W+", "_", name).strip("_").lower()
    return text if text and not text[0].isdigit() else f"input{i}"


def _python(entry: str, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> list[str]:
    lines = ["Python (pip install onnxruntime numpy):",
             "    import numpy as np",
             "    import onnxruntime as ort",
             f'    session = ort.InferenceSession("{entry}", providers=["CPUExecutionProvider"])',
             "    feeds = {"]
    for v in inputs:
        dims, named = _example_shape(v["shape"])
        dtype = _TYPES.get(v["elem_type"], ("None", None, None))[0]
        note = []
        if named:
            note.append(f"set {', '.join(named)}")
        if v.get("optional"):
            note.append("optional: may be left out")
        if v["elem_type"] not in _TYPES:
            note.append(f"{v['elem_type']}: build this value yourself")
        comment = f"  # {'; '.join(note)}" if note else ""
        value = (f"np.zeros({tuple(dims)!r}, dtype={dtype})" if v["elem_type"] in _TYPES
                 else "...")
        lines.append(f'        "{v["name"]}": {value},{comment}')
    names = ", ".join(_ident(o["name"], i) for i, o in enumerate(outputs)) or "outputs"
    lines += ["    }",
              f"    {names}{',' if len(outputs) == 1 else ''} = session.run(None, feeds)"]
    return lines


def _rust(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
    lines = ["Rust (ort crate, 2.x):",
             "    use ort::{session::Session, value::Tensor};",
             f'    let mut session = Session::builder()?.commit_from_file("{entry}")?;']
    feeds = []
    for i, v in enumerate(inputs):
        dims, _ = _example_shape(v["shape"])
        rust = _TYPES.get(v["elem_type"], ("", None, None))[1]
        var = _ident(v["name"], i)
        if rust is None:
            lines.append(f'    // "{v["name"]}" is {v["elem_type"]}: build its value with ort::value')
            continue
        count = 1
        for d in dims:
            count *= d
        default = '"".to_string()' if rust == "String" else (f"{rust}::default()" if "::" not in rust else
                                                                 f"{rust}::ZERO")
        lines.append(f"    let {var} = Tensor::from_array(({list(dims)}, vec![{default}; {count}]))?;")
        feeds.append(f'"{v["name"]}" => {var}')
    lines.append(f"    let outputs = session.run(ort::inputs![{', '.join(feeds)}])?;")
    return lines


def _csharp(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
    lines = ["C# (NuGet Microsoft.ML.OnnxRuntime):",
             "    using Microsoft.ML.OnnxRuntime;",
             "    using Microsoft.ML.OnnxRuntime.Tensors;",
             f'    using var session = new InferenceSession("{entry}");',
             "    var feeds = new List<NamedOnnxValue> {"]
    for v in inputs:
        dims, _ = _example_shape(v["shape"])
        cs = _TYPES.get(v["elem_type"], ("", None, None))[2]
        if cs is None:
            lines.append(f'        // "{v["name"]}" is {v["elem_type"]}: build its value yourself')
            continue
        lines.append(f'        NamedOnnxValue.CreateFromTensor("{v["name"]}", '
                     f"new DenseTensor<{cs}>(new[] {{ {', '.join(map(str, dims))} }})),")
    lines += ["    };", "    using var results = session.Run(feeds);"]
    return lines


def receiver_readme(manifest: dict[str, Any]) -> str:
    """README.txt for the people who receive the bundle (plain text, English, one Japanese line on the data file)."""
    m = manifest["model"]
    insp = manifest["inspection"]
    name, entry = m["name"], m["entry"]

    def shape(v: dict[str, Any]) -> str:
        if v["shape"] is None:
            return "?"
        return "[" + ", ".join("?" if d is None else str(d) for d in v["shape"]) + "]"

    lines = [f"{name} {m['version']}", "=" * len(f"{name} {m['version']}"), ""]
    if insp["doc_string"]:
        lines += [insp["doc_string"].strip(), ""]
    lines += [
        f"An ONNX model (IR version {insp['ir_version']}, opsets "
        + ", ".join(f"{d} {v}" for d, v in sorted(insp["opsets"].items()))
        + f"), produced by {insp['producer_name'] or 'an unknown exporter'} {insp['producer_version']}".rstrip()
        + ".",
    ]
    oldest = manifest["compatibility"]["oldest_ort"]
    if oldest:
        lines.append(f"It loads in ONNX Runtime {oldest} or newer.")
    proven = manifest.get("prove_ort")
    if proven:
        lines.append(f"Proven on these ONNX Runtime releases (each its official wheel from PyPI, outputs compared with "
                     f"ONNX Runtime {proven['reference_ort']}):")
        for p in proven["releases"]:
            same = ("bitwise-equal outputs" if p["outputs_bitwise_equal"]
                    else f"outputs within {proven['atol']:g} (largest difference {p['max_abs_diff']:.3g})")
            lines.append(f"  {p['version']}: {'loads it, ' + same if p['ok'] else 'FAILED: ' + str(p['message'])}")
        lines += [f"  ({note})" for note in proven.get("notes") or []]
    about = manifest.get("about")
    if about:
        lines += ["", "About this release", "------------------"]
        if about.get("license"):
            lines.append(f"License: {about['license']} (SPDX)")
        if about.get("authors"):
            lines.append("Authors: " + "; ".join(about["authors"]))
        if about.get("homepage"):
            lines.append(f"Homepage: {about['homepage']}")
        if about.get("labels"):
            lines.append(f"Class labels, in output order ({len(about['labels'])}):")
            lines += [f"  {i}: {label}" for i, label in enumerate(about["labels"])]
    lines += ["", "Interface", "---------", "Inputs:"]
    for v in insp["inputs"]:
        opt = " (optional)" if v.get("optional") else ""
        lines.append(f"  {v['name']}: {v['elem_type']} {shape(v)}{opt}")
    lines.append("Outputs:")
    for v in insp["outputs"]:
        lines.append(f"  {v['name']}: {v['elem_type']} {shape(v)}")
    symbolic = sorted({d for v in insp["inputs"] + insp["outputs"] for d in (v["shape"] or []) if isinstance(d, str)})
    if symbolic:
        lines.append(f"Named dimensions ({', '.join(symbolic)}) can take any size; the same name means the same size.")
    lines += ["", "Files", "-----"]
    for f in sorted(manifest["files"], key=lambda f: f["path"]):
        lines.append(f"  {f['path']}  ({f['role']}, {f['size']} bytes)")
    lines.append(f"  {MANIFEST_NAME}  (sizes and SHA-256 of every file; check with `onnxpack verify`)")
    lines += ["", "Loading and running the model", "-----------------------------",
              "Every client below loads the model by its file path (the examples feed zeros of the right",
              "type and shape; named dimensions are set to 1).", ""]
    lines += _python(entry, insp["inputs"], insp["outputs"])
    lines += ["", "C/C++ (onnxruntime_cxx_api.h):",
              "    Ort::Env env; Ort::SessionOptions options;",
              f'    Ort::Session session(env, ORT_TSTR("{entry}"), options);', ""]
    lines += _rust(entry, insp["inputs"])
    lines += [""]
    lines += _csharp(entry, insp["inputs"])
    if m["layout"] == "single":
        lines += [
            "",
            f"{entry} is self-contained: all weights are inside it, so it can also be embedded in an",
            "application and loaded from memory (commit_from_memory / CreateSessionFromArray).",
        ]
    else:
        lines += [
            "",
            f"IMPORTANT: the weights are in {m['data']}, which must stay in the same folder as {entry}",
            "and keep its name. Load the model from its file path; it cannot be loaded from memory",
            "(commit_from_memory / CreateSessionFromArray), because ONNX Runtime then cannot find the data file.",
            f"重要: {m['data']} は {entry} と同じフォルダーに同じ名前で置いてください。",
        ]
    if m.get("ort_entry"):
        lines += [
            "",
            f"{m['ort_entry']} is the same model in ONNX Runtime's ORT format (for minimal/mobile builds of",
            "ONNX Runtime); load it the same way as the .onnx file. Unlike the other files it is not",
            "byte-for-byte reproducible: ONNX Runtime's converter orders some of its tables differently in",
            "every run, so rebuilding this bundle gives the same model in different .ort bytes.",
        ]
    lines += [
        "",
        "Checking this bundle",
        "--------------------",
        f"    onnxpack verify {name}-{m['version']}.zip          (sizes, SHA-256, archive safety)",
        f"    onnxpack verify {name}-{m['version']}.zip --smoke  (also re-runs the recorded test inference)",
        "",
    ]
    sig = manifest.get("signature")
    if sig:
        lines += [
            f"The bundle is signed: {sig['file']} signs every other file with the publisher's key (OpenSSF",
            f"model-signing; public key SHA-256 {sig['public_key_sha256']}). Check it with the publisher's",
            "public key, obtained from the publisher directly (not from this bundle):",
            f"    onnxpack verify {name}-{m['version']}.zip --key PUBLISHER.pub",
            "or, in the extracted folder, with model-signing itself:",
            f"    model_signing verify key . --signature {sig['file']} --public_key PUBLISHER.pub",
            "",
        ]
    lines += [
        f"Made by {manifest['tool']['name']} {manifest['tool']['version']}.",
    ]
    return "\n".join(lines) + "\n"
