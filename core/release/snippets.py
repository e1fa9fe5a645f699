"""The loading examples README.txt shows for a model, one builder per language (Python, JavaScript for Node.js and
the browser, C++, Rust, C#): each loads the model by its path and runs it once on zeros of its inputs' types and
shapes. tests/test_receiver_snippets.py runs the Python, JavaScript and C++ ones as written."""

from __future__ import annotations

import posixpath
import re
from typing import Any

__all__ = ["CSHARP_ORT", "LANGUAGES", "ORT_WEB_SCRIPT", "RUST_ORT", "browser", "cpp", "csharp", "javascript", "python",
           "rust"]

#: The languages README.txt shows loading and running the model in (docs/bundle.md lists the same).
LANGUAGES = ("Python", "JavaScript (Node.js and the browser)", "C++", "Rust", "C#")

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


def python(entry: str, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> list[str]:
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


def javascript(entry: str, inputs: list[dict[str, Any]], from_memory: bool) -> list[str]:
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


def browser(entry: str, data: str | None, inputs: list[dict[str, Any]]) -> list[str]:
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


def cpp(entry: str, inputs: list[dict[str, Any]], outputs: list[dict[str, Any]]) -> list[str]:
    ctypes = {t: c for t, (_k, _a, c) in _JS_CPP.items()} | {"BFLOAT16": "Ort::BFloat16_t"}
    lines = ["C++ (onnxruntime_cxx_api.h from the ONNX Runtime release; link with onnxruntime):",
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


def rust(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
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


def csharp(entry: str, inputs: list[dict[str, Any]]) -> list[str]:
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
