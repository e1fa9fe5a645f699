"""The receiver's README.txt inside a bundle: what the model is, its interface, and how to load and run it."""

from __future__ import annotations

import posixpath
import re
from typing import Any

from ..model.layout import Layout
from .checksums import CHECKSUMS_NAME
from .manifest import MANIFEST_NAME, RELEASE_SCHEMA, model_views

__all__ = ["receiver_readme"]

#: The languages README.txt shows loading and running the model in (docs/bundle.md lists the same).
LANGUAGES = ("Python", "JavaScript (Node.js and the browser)", "C/C++", "Rust", "C#")

#: The releases whose documented API the examples that onnxpack's CI cannot build follow (Rust, C#).
RUST_ORT = "2.0.0-rc.12"
CSHARP_ORT = "1.31"

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


# ONNX element type -> (onnxruntime-node type, typed array, C++ element type).
_JS_CPP: dict[str, tuple[str, str, str]] = {
    "FLOAT": ("float32", "Float32Array", "float"),
    "DOUBLE": ("float64", "Float64Array", "double"),
    "FLOAT16": ("float16", "Uint16Array", "Ort::Float16_t"),
    "INT8": ("int8", "Int8Array", "int8_t"),
    "INT16": ("int16", "Int16Array", "int16_t"),
    "INT32": ("int32", "Int32Array", "int32_t"),
    "INT64": ("int64", "BigInt64Array", "int64_t"),
    "UINT8": ("uint8", "Uint8Array", "uint8_t"),
    "UINT16": ("uint16", "Uint16Array", "uint16_t"),
    "UINT32": ("uint32", "Uint32Array", "uint32_t"),
    "UINT64": ("uint64", "BigUint64Array", "uint64_t"),
    "BOOL": ("bool", "Uint8Array", "bool"),
}


def _count(dims: list[int]) -> int:
    n = 1
    for d in dims:
        n *= d
    return n


def _js_feeds(inputs: list[dict[str, Any]], indent: str, runtime: str) -> list[str]:
    """The `const feeds = {...};` lines of the JavaScript examples (onnxruntime-node and onnxruntime-web)."""
    lines = [f"{indent}const feeds = {{"]
    for v in inputs:
        dims, _ = _example_shape(v["shape"])
        t = v["elem_type"]
        if t == "STRING":
            value = f'new ort.Tensor("string", new Array({_count(dims)}).fill(""), {list(dims)})'
        elif t in _JS_CPP:
            kind, array, _c = _JS_CPP[t]
            value = f'new ort.Tensor("{kind}", new {array}({_count(dims)}), {list(dims)})'
        else:
            lines.append(f'{indent}  // "{v["name"]}" is {t}: {runtime} has no tensor type for it')
            continue
        note = "  // int64 takes a BigInt64Array (values are BigInt: 1n, 2n, ...)" if t == "INT64" else ""
        if t == "FLOAT16":
            note = "  // float16 values as their 16-bit patterns"
        lines.append(f'{indent}  "{v["name"]}": {value},{note}')
    return [*lines, f"{indent}}};"]


def _javascript(entry: str, inputs: list[dict[str, Any]], from_memory: bool) -> list[str]:
    lines = ["JavaScript (Node.js; npm install onnxruntime-node):",
             '    const ort = require("onnxruntime-node");',
             "    (async () => {",
             f'      const session = await ort.InferenceSession.create("{entry}");']
    if from_memory:
        lines += ["      // or from a buffer (the file is self-contained):",
                  f'      // const session = await ort.InferenceSession.create(require("fs").readFileSync("{entry}"));']
    lines += _js_feeds(inputs, "      ", "onnxruntime-node")
    lines += ["      const results = await session.run(feeds);  // output name -> ort.Tensor (.data, .dims)",
              "    })();"]
    return lines


#: Where the browser example loads onnxruntime-web from (its .wasm files are fetched from beside it).
ORT_WEB_SCRIPT = "https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/ort.min.js"


def _browser(entry: str, data: str | None, inputs: list[dict[str, Any]]) -> list[str]:
    """A web page that loads the model with onnxruntime-web; a model's data file is named in externalData under the
    name the model stores (onnxruntime-web fetches nothing on its own)."""
    lines = ["JavaScript (browser; onnxruntime-web; a page served over http(s) from the folder this file is in):",
             f'    <script src="{ORT_WEB_SCRIPT}"></script>',
             "    <script>",
             "      (async () => {"]
    if data:
        stored = posixpath.relpath(data, posixpath.dirname(entry) or ".")
        lines += [f'        const session = await ort.InferenceSession.create("{entry}", {{',
                  f'          externalData: [{{ path: "{stored}", data: "{data}" }}],  '
                  "// path: the name stored in the model",
                  "        });"]
    else:
        lines.append(f'        const session = await ort.InferenceSession.create("{entry}");')
    lines += _js_feeds(inputs, "        ", "onnxruntime-web")
    lines += ["        const results = await session.run(feeds);  // output name -> ort.Tensor (.data, .dims)",
              "      })();",
              "    </script>"]
    return lines


def _cpp(entry: str, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> list[str]:
    ctypes = {t: c for t, (_k, _a, c) in _JS_CPP.items()} | {"BFLOAT16": "Ort::BFloat16_t"}
    lines = ["C/C++ (onnxruntime_cxx_api.h from the ONNX Runtime release; link with onnxruntime):",
             "    #include <onnxruntime_cxx_api.h>",
             "    #include <memory>",
             "    #include <vector>",
             "    int main() {",
             "      Ort::Env env;",
             "      Ort::SessionOptions options;",
             f'      Ort::Session session(env, ORT_TSTR("{entry}"), options);',
             "      auto memory = Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault);",
             "      std::vector<Ort::Value> inputs;"]
    if any(v["elem_type"] == "STRING" for v in inputs):
        lines.append("      Ort::AllocatorWithDefaultOptions allocator;  // owns the string tensors' memory")
    names = []
    for i, v in enumerate(inputs):
        dims, _ = _example_shape(v["shape"])
        var = _ident(v["name"], i)
        t = v["elem_type"]
        n = _count(dims)
        shape = f"      std::vector<int64_t> {var}_shape{{{', '.join(map(str, dims))}}};"
        if t == "STRING":
            lines += [shape,
                      f"      std::vector<const char*> {var}_data({n}, \"\");",
                      f"      Ort::Value {var}_value = Ort::Value::CreateTensor(allocator, {var}_shape.data(), "
                      f"{var}_shape.size(),",
                      "          ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING);",
                      f"      {var}_value.FillStringTensor({var}_data.data(), {var}_data.size());",
                      f"      inputs.push_back(std::move({var}_value));"]
            names.append(v["name"])
            continue
        if t not in ctypes:
            lines.append(f'      // "{v["name"]}" is {t}: add its value to inputs and its name to input_names')
            continue
        ctype = ctypes[t]
        if ctype == "bool":  # std::vector<bool> has no data()
            lines.append(f"      std::unique_ptr<bool[]> {var}_data(new bool[{n}]());")
            data = f"{var}_data.get()"
        else:
            lines.append(f"      std::vector<{ctype}> {var}_data({n});")
            data = f"{var}_data.data()"
        lines += [shape,
                  f"      inputs.push_back(Ort::Value::CreateTensor<{ctype}>(memory, {data}, {n},",
                  f"          {var}_shape.data(), {var}_shape.size()));"]
        names.append(v["name"])
    in_names = ", ".join(f'"{n}"' for n in names)
    out_names = ", ".join(f'"{o["name"]}"' for o in outputs)
    lines += [f"      const char* input_names[] = {{{in_names}}};" if names
              else "      const char* const* input_names = nullptr;",
              f"      const char* output_names[] = {{{out_names}}};",
              "      auto outputs = session.Run(Ort::RunOptions{nullptr}, input_names, inputs.data(), inputs.size(),",
              f"                                 output_names, {len(outputs)});"]
    first = ctypes.get(outputs[0]["elem_type"]) if outputs else None
    if first is not None and first != "bool":
        lines.append(f"      const {first}* {_ident(outputs[0]['name'], 0)}_values = "
                     f"outputs[0].GetTensorData<{first}>();")
    lines += ["      return 0;", "    }"]
    return lines


def _rust(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
    lines = [f"Rust (ort crate {RUST_ORT}, in a function returning ort::Result<()>; not compiled by onnxpack's CI):",
             "    use ort::{session::Session, value::Tensor};",
             f'    let mut session = Session::builder()?.commit_from_file("{entry}")?;']
    feeds = []
    for i, v in enumerate(inputs):
        dims, _ = _example_shape(v["shape"])
        rust = _TYPES.get(v["elem_type"], ("", None, None))[1]
        var = _ident(v["name"], i)
        if rust is None or rust == "String":
            how = "Tensor::from_string_array" if rust == "String" else "ort::value"
            lines.append(f'    // "{v["name"]}" is {v["elem_type"]}: build its value with {how}')
            continue
        count = 1
        for d in dims:
            count *= d
        default = f"{rust}::default()" if "::" not in rust else f"{rust}::ZERO"
        shape = f"[{', '.join([f'{dims[0]}usize', *map(str, dims[1:])])}]" if dims else "[0usize; 0]"
        lines.append(f"    let {var} = Tensor::from_array(({shape}, vec![{default}; {count}]))?;")
        feeds.append(f'"{v["name"]}" => {var}')
    lines.append(f"    let outputs = session.run(ort::inputs![{', '.join(feeds)}])?;")
    return lines


def _csharp(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
    lines = [f"C# (NuGet Microsoft.ML.OnnxRuntime {CSHARP_ORT}; not compiled by onnxpack's CI):",
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
                     f"new DenseTensor<{cs}>(new int[] {{ {', '.join(map(str, dims))} }})),")
    lines += ["    };", "    using var results = session.Run(feeds);"]
    return lines


def receiver_readme(manifest: dict[str, Any]) -> str:
    """README.txt for the people who receive the bundle (plain text, English, one Japanese line on the data file)."""
    if manifest.get("schema") == RELEASE_SCHEMA:
        return _release_readme(manifest)
    lines: list[str] = []
    for section in _SECTIONS:
        lines += section(manifest)
    return "\n".join(lines) + "\n"


def _release_readme(manifest: dict[str, Any]) -> str:
    """README.txt of a release of several files: what it holds, then each model's interface, loading examples and
    layout, then the assets, the files and how to check them."""
    b = manifest["bundle"]
    title = f"{b['name']} {b['version']}"
    root = b["root"]
    models, assets = manifest["models"], manifest["assets"]
    where = f"the folder {root}/" if root else "the top of the archive"
    lines = [title, "=" * len(title), "",
             f"{len(models)} ONNX model{'s' if len(models) != 1 else ''} and {len(assets)} file"
             f"{'s' if len(assets) != 1 else ''} the app reads beside them, at their paths in {where}.",
             f"Extract this archive where the app expects {where}: every model and file keeps its path; onnxpack's",
             f"own files ({MANIFEST_NAME}, README.txt, {CHECKSUMS_NAME}, smoke/) stay beside that folder, not in it.",
             "", "Models:"]
    for m in models:
        oldest = m["compatibility"]["oldest_ort"]
        layout = "self-contained" if m["model"]["layout"] == Layout.SINGLE else f"weights in {m['model']['data']}"
        lines.append(f"  {m['model']['entry']}  ({layout}" + (f"; ONNX Runtime {oldest} or newer)" if oldest else ")"))
    if assets:
        lines += ["", "Files the app reads beside the models:"]
        lines += [f"  {a['path']}  ({a['role']}, {a['size']} bytes)" for a in assets]
    views = model_views(manifest)
    lines += _about(views[0])
    for view in views:
        entry = view["model"]["entry"]
        heading = f"Model {entry}"
        lines += ["", "", heading, "=" * len(heading)]
        lines += _heading(view)[3:]
        lines += _proven(view)
        lines += _interface(view)
        lines += _examples(view)
        lines += _layout(view)
        lines += _loads(view)
    lines += _files(manifest)
    named = {**views[0], "model": {**views[0]["model"], "name": b["name"], "version": b["version"]}}
    lines += _checking(named)
    lines += _made_by(manifest)
    return "\n".join(lines) + "\n"


def _shape(v: dict[str, Any]) -> str:
    if v["shape"] is None:
        return "?"
    return "[" + ", ".join("?" if d is None else str(d) for d in v["shape"]) + "]"


def _heading(manifest: dict[str, Any]) -> list[str]:
    """The title, the model's description, what it is and which ONNX Runtime loads it."""
    m, insp = manifest["model"], manifest["inspection"]
    title = f"{m['name']} {m['version']}"
    lines = [title, "=" * len(title), ""]
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
    return lines


def _proven(manifest: dict[str, Any]) -> list[str]:
    """The ONNX Runtime releases the model was proven on (--prove-ort)."""
    proven = manifest.get("prove_ort")
    if not proven:
        return []
    lines = [f"Proven on these ONNX Runtime releases (each its official wheel from PyPI, outputs compared with "
             f"ONNX Runtime {proven['reference_ort']}):"]
    for p in proven["releases"]:
        same = ("bitwise-equal outputs" if p["outputs_bitwise_equal"]
                else f"outputs within {proven['atol']:g} (largest difference {p['max_abs_diff']:.3g})")
        lines.append(f"  {p['version']}: {'loads it, ' + same if p['ok'] else 'FAILED: ' + str(p['message'])}")
    return lines + [f"  ({note})" for note in proven.get("notes") or []]


def _about(manifest: dict[str, Any]) -> list[str]:
    """The release metadata: licence, authors, homepage, class labels."""
    about = manifest.get("about")
    if not about:
        return []
    lines = ["", "About this release", "------------------"]
    if about.get("license"):
        lines.append(f"License: {about['license']} (SPDX)")
    if about.get("authors"):
        lines.append("Authors: " + "; ".join(about["authors"]))
    if about.get("homepage"):
        lines.append(f"Homepage: {about['homepage']}")
    if about.get("labels"):
        lines.append(f"Class labels, in output order ({len(about['labels'])}):")
        lines += [f"  {i}: {label}" for i, label in enumerate(about["labels"])]
    return lines


def _interface(manifest: dict[str, Any]) -> list[str]:
    insp = manifest["inspection"]
    lines = ["", "Interface", "---------", "Inputs:"]
    for v in insp["inputs"]:
        opt = " (optional)" if v.get("optional") else ""
        lines.append(f"  {v['name']}: {v['elem_type']} {_shape(v)}{opt}")
    lines.append("Outputs:")
    for v in insp["outputs"]:
        lines.append(f"  {v['name']}: {v['elem_type']} {_shape(v)}")
    symbolic = sorted({d for v in insp["inputs"] + insp["outputs"] for d in (v["shape"] or []) if isinstance(d, str)})
    if symbolic:
        lines.append(f"Named dimensions ({', '.join(symbolic)}) can take any size; the same name means the same size.")
    return lines


def _files(manifest: dict[str, Any]) -> list[str]:
    lines = ["", "Files", "-----"]
    for f in sorted(manifest["files"], key=lambda f: f["path"]):
        lines.append(f"  {f['path']}  ({f['role']}, {f['size']} bytes)")
    lines.append("  README.txt  (this file)")
    lines.append(f"  {CHECKSUMS_NAME}  (the SHA-256 of every file above; check with `sha256sum -c {CHECKSUMS_NAME}`)")
    lines.append(f"  {MANIFEST_NAME}  (sizes and SHA-256 of every file; check with `onnxpack verify`)")
    return lines


def _examples(manifest: dict[str, Any]) -> list[str]:
    """Loading and running the model in each language."""
    m, insp = manifest["model"], manifest["inspection"]
    entry = m["entry"]
    lines = ["", "Loading and running the model", "-----------------------------",
             f"In {', '.join(LANGUAGES[:-1])} and {LANGUAGES[-1]}: each example loads the model by its file path",
             "and runs it once on zeros of the right type and shape (named dimensions are set to 1). onnxpack's CI",
             "runs the Python, JavaScript and C/C++ examples of bundles like this one; the Rust and C# examples",
             f"follow the documented APIs of the ort crate {RUST_ORT} and Microsoft.ML.OnnxRuntime {CSHARP_ORT}",
             "but are not compiled by onnxpack's CI.", ""]
    lines += _python(entry, insp["inputs"], insp["outputs"])
    lines += [""]
    lines += _javascript(entry, insp["inputs"], m["layout"] == Layout.SINGLE)
    lines += [""]
    lines += _browser(entry, m.get("data") if m["layout"] == Layout.EXTERNAL else None, insp["inputs"])
    lines += [""]
    lines += _cpp(entry, insp["inputs"], insp["outputs"])
    lines += [""]
    lines += _rust(entry, insp["inputs"])
    lines += [""]
    lines += _csharp(entry, insp["inputs"])
    return lines


def _layout(manifest: dict[str, Any]) -> list[str]:
    """Whether the model is self-contained, or where its weights are; the ORT-format variant."""
    m = manifest["model"]
    entry = m["entry"]
    if m["layout"] == Layout.SINGLE:
        lines = [
            "",
            f"{entry} is self-contained: all weights are inside it, so it can also be embedded in an",
            "application and loaded from memory (commit_from_memory / CreateSessionFromArray, or a buffer in",
            "InferenceSession.create in JavaScript).",
        ]
    else:
        lines = [
            "",
            f"IMPORTANT: the weights are in {m['data']}, which must stay in the same folder as {entry}",
            "and keep its name. Load the model from its file path; it cannot be loaded from memory",
            "(commit_from_memory / CreateSessionFromArray, a buffer in JavaScript), because ONNX Runtime then",
            "cannot find the data file.",
            f"重要: {m['data']} は {entry} と同じフォルダーに同じ名前で置いてください。",
        ]
    if m.get("ort_entry"):
        lines += [
            "",
            f"{m['ort_entry']} is the same model in ONNX Runtime's ORT format (for minimal/mobile builds of",
            "ONNX Runtime); load it the same way as the .onnx file. Unlike the other files it is not",
            "byte-for-byte reproducible: ONNX Runtime's converter orders some of its tables differently in",
            "every run, so rebuilding this bundle gives the same model in different .ort bytes (and another line",
            f"for it in {CHECKSUMS_NAME}).",
        ]
    return lines


#: The load matrix's modes as README.txt words them.
_LOAD_WORDS = {
    "path": "by its path", "other-cwd": "by a relative path from another working directory",
    "bytes": "from bytes (commit_from_memory, CreateSessionFromArray, a buffer)",
    "bytes-folder": "from bytes, with the session option naming its folder",
    "symlink": "through a symbolic link (as a Hugging Face cache links its files)",
    "non-ascii": "from a folder named with Japanese characters and a space",
}


def _loads(manifest: dict[str, Any]) -> list[str]:
    """Which ways of loading the model were proven (the smoke run's load matrix), and what to do where one fails."""
    smoke = manifest.get("smoke") or {}
    rows = smoke.get("loads")
    if not rows:
        return []
    lines = ["", f"Proven ways to load {manifest['model']['entry']} (ONNX Runtime {smoke['ort_version']}, each giving "
                 "the reference outputs bit for bit):"]
    for row in rows:
        words = _LOAD_WORDS.get(row["mode"], row["mode"])
        lines.append(f"  {words}: " + ("yes" if row["ok"] else f"NO. {row.get('remedy', '')}"))
    return lines


def _checking(manifest: dict[str, Any]) -> list[str]:
    """How to check the bundle, with onnxpack and without; how to check its signature."""
    m = manifest["model"]
    zip_name = f"{m['name']}-{m['version']}.zip"
    lines = [
        "",
        "Checking this bundle",
        "--------------------",
        f"    onnxpack verify {zip_name}          (sizes, SHA-256, archive safety)",
        f"    onnxpack verify {zip_name} --smoke  (also re-runs the recorded test inference)",
        f"Without onnxpack, in the folder the bundle was extracted to (every file but {MANIFEST_NAME}):",
        f"    sha256sum -c {CHECKSUMS_NAME}             (Linux; on macOS: shasum -a 256 -c {CHECKSUMS_NAME})",
        f"    Get-FileHash {m['entry']} -Algorithm SHA256",
        f"        (Windows PowerShell: compare each file's hash with its line in {CHECKSUMS_NAME})",
        "",
    ]
    sig = manifest.get("signature")
    if sig:
        lines += [
            f"The bundle is signed: {sig['file']} signs every other file with the publisher's key (OpenSSF",
            f"model-signing; public key SHA-256 {sig['public_key_sha256']}). Check it with the publisher's",
            "public key, obtained from the publisher directly (not from this bundle):",
            f"    onnxpack verify {zip_name} --key PUBLISHER.pub",
            "or, in the extracted folder, with model-signing itself:",
            f"    model_signing verify key . --signature {sig['file']} --public_key PUBLISHER.pub",
            "",
        ]
    return lines


def _made_by(manifest: dict[str, Any]) -> list[str]:
    return [f"Made by {manifest['tool']['name']} {manifest['tool']['version']}."]


#: The README's sections, in order.
_SECTIONS = (_heading, _proven, _about, _interface, _files, _examples, _layout, _loads, _checking, _made_by)
