"""Issue 37 item 2: the examples in the README.txt that `onnxpack bundle` writes run as written. Each is extracted from
a real bundle's README.txt (never copied into this file) and run in the extracted bundle's folder: Python in a child
interpreter; JavaScript in Node.js with onnxruntime-node, by path and from a Buffer; the browser example as a page
served from 127.0.0.1 in headless Chromium with onnxruntime-web; C++ compiled with g++ against ONNX Runtime's C/C++
API. The Rust and C# examples cannot be built here: README.txt says so.

The clients are pinned in tests/clients/package.json (+ package-lock.json), installed by .ci/run with
`npm ci --ignore-scripts`, besides Debian's chromium. A missing client fails the test where CI is set (CI must run
every example) and skips it elsewhere."""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper

from onnxpack.cli import Environment, main

pytestmark = pytest.mark.slow  # about 40 s: three browsers, five compilations

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "tests" / "clients"
NODE_MODULES = CLIENTS / "node_modules"
#: ONNX Runtime's C/C++ headers and a Linux x64 libonnxruntime.so of the same release (1.29.0), from the npm package
#: com.github.asus4.onnxruntime (ONNX Runtime for Unity), pinned in tests/clients/package.json.
ORT_C = NODE_MODULES / "com.github.asus4.onnxruntime" / "Plugins"
ORT_C_HEADERS = ORT_C / "iOS~" / "onnxruntime.xcframework" / "ios-arm64" / "onnxruntime.framework" / "Headers"
ORT_C_LIBRARY = ORT_C / "Linux" / "x64" / "libonnxruntime.so"
CHROMIUM = os.environ.get("ONNXPACK_CHROMIUM", "/usr/bin/chromium")

#: README.txt's example headings (the text before the first "("), by the client that runs them.
HEADINGS = {"python": "Python (", "node": "JavaScript (Node.js", "browser": "JavaScript (browser",
            "cpp": "C++ (", "rust": "Rust (", "csharp": "C# ("}  # fmt: skip
_PAIRS = {"(": ")", "[": "]", "{": "}"}


class SnippetError(ValueError):
    """README.txt's examples are not where or what they should be."""


def _balanced(code: str, comment: str) -> bool:
    """Brackets pair up outside string literals and line comments."""
    stack: list[str] = []
    for line in code.splitlines():
        quote = ""
        i = 0
        while i < len(line):
            c = line[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'":
                quote = c
            elif line.startswith(comment, i):
                break
            elif c in _PAIRS:
                stack.append(_PAIRS[c])
            elif c in _PAIRS.values() and (not stack or stack.pop() != c):
                return False
            i += 1
        if quote:
            return False
    return not stack


def extract_snippets(readme: str) -> list[dict[str, str]]:
    """Each "Loading and running the model" section's examples, language -> code without its 4-space indent.

    Raises SnippetError when an example is missing, doubled, empty, not indented, or its brackets do not pair up."""
    sections = readme.split("\nLoading and running the model\n")[1:]
    if not sections:
        raise SnippetError("README.txt has no 'Loading and running the model' section")
    found = []
    for n, section in enumerate(sections, 1):
        lines = section.splitlines()
        snippets: dict[str, str] = {}
        for i, line in enumerate(lines):
            kind = next((k for k, h in HEADINGS.items() if line.startswith(h) and line.endswith(":")), None)
            if kind is None:
                continue
            if kind in snippets:
                raise SnippetError(f"section {n}: two {kind} examples")
            block: list[str] = []
            for body in lines[i + 1:]:
                if not body.strip():
                    break
                if not body.startswith("    "):
                    raise SnippetError(f"section {n}: the {kind} example's line {body!r} is not indented 4 spaces")
                block.append(body[4:])
            if not block:
                raise SnippetError(f"section {n}: the {kind} example is empty")
            code = "\n".join(block) + "\n"
            if not _balanced(code, "#" if kind == "python" else "//"):
                raise SnippetError(f"section {n}: the {kind} example's brackets or quotes do not pair up")
            snippets[kind] = code
        missing = [k for k in HEADINGS if k not in snippets]
        if missing:
            raise SnippetError(f"section {n}: no {', '.join(missing)} example")
        found.append(snippets)
    return found


def from_buffer(node: str) -> str:
    """The Node.js example loading the model from a Buffer, as its own comment says: the commented-out line replaces
    the line that loads by path."""
    lines = node.splitlines()
    alt = [i for i, line in enumerate(lines) if re.match(r"\s*// const session = .*readFileSync\(", line)]
    path = [i for i, line in enumerate(lines) if re.match(r"\s*const session = await ort\.InferenceSession\.create\(",
                                                             line)]  # fmt: skip
    if len(alt) != 1 or len(path) != 1:
        raise SnippetError("the Node.js example has no single commented-out way to load from a buffer")
    lines[path[0]] = lines[alt[0]].replace("// ", "", 1)
    del lines[alt[0]]
    return "\n".join(ln for ln in lines if "// or from a buffer" not in ln) + "\n"


# --- the clients ---------------------------------------------------------------------------------------------------


def _need(what: str, ok: bool, how: str) -> None:
    """Skip locally, fail in CI, when a client is missing."""
    if ok:
        return
    message = f"{what} is missing: {how}"
    if os.environ.get("CI") or os.environ.get("ONNXPACK_CLIENT_TESTS"):
        pytest.fail(f"{message} (.ci/run installs it; CI must run README.txt's every example)")
    pytest.skip(message)


def _need_node() -> str:
    node = shutil.which("node")
    _need("Node.js", node is not None, "apt-get install nodejs")
    _need("tests/clients/node_modules", (NODE_MODULES / "onnxruntime-node").is_dir(),
          "cd tests/clients && npm ci --ignore-scripts")  # fmt: skip
    return node or "node"


def _run(argv: list[str], cwd: Path, timeout: float = 180, **env: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **env})  # fmt: skip
    assert done.returncode == 0, f"{' '.join(argv)} in {cwd} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


_PY_HARNESS = """
import json, sys
code = open(sys.argv[1], encoding="utf-8").read()
ns = {"__name__": "__main__"}
exec(compile(code, "README.txt (Python example)", "exec"), ns)
last = code.rstrip().splitlines()[-1]
names = [n.strip() for n in last.split(" = ", 1)[0].split(",") if n.strip()]
values = [ns[n] for n in names]
out = {o.name: {"dims": list(v.shape), "data": v.ravel().tolist()} for o, v in zip(ns["session"].get_outputs(), values)}
import onnxruntime
print(json.dumps({"version": onnxruntime.__version__, "runs": [out]}))
"""


def run_python(code: str, folder: Path) -> dict[str, Any]:
    """Runs the Python example in a child interpreter in the bundle's folder; returns the outputs it assigned."""
    (folder / "example.py").write_text(code, encoding="utf-8")
    done = _run([sys.executable, "-c", _PY_HARNESS, "example.py"], folder)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_node(code: str, folder: Path, name: str = "example.js") -> dict[str, Any]:
    node = _need_node()
    (folder / name).write_text(code, encoding="utf-8")
    results = folder / f"{name}.json"
    _run([node, "-r", str(CLIENTS / "record.js"), name], folder, NODE_PATH=str(NODE_MODULES),
         ONNXPACK_RESULTS=str(results))  # fmt: skip
    result: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    return result


@functools.cache
def _quiet_handler(folder: str) -> type[http.server.SimpleHTTPRequestHandler]:
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=folder, **kwargs)

        def log_message(self, format: str, *args: Any) -> None:  # the base class's name
            pass

    return Handler


def run_browser(pages: list[tuple[Path, str]]) -> list[dict[str, Any]]:
    """Each page (the browser example as README.txt shows it) served from 127.0.0.1 out of its bundle's folder."""
    node = _need_node()
    _need("Chromium", Path(CHROMIUM).is_file(), "apt-get install chromium (or set ONNXPACK_CHROMIUM)")
    _need("playwright-core", (NODE_MODULES / "playwright-core").is_dir(), "cd tests/clients && npm ci --ignore-scripts")
    servers, urls = [], []
    try:
        for i, (folder, html) in enumerate(pages):
            (folder / f"example{i}.html").write_text(html, encoding="utf-8")
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _quiet_handler(str(folder)))
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            urls.append(f"http://127.0.0.1:{server.server_address[1]}/example{i}.html")
        done = _run([node, str(CLIENTS / "browser.js"), *urls], CLIENTS, timeout=300, ONNXPACK_CHROMIUM=CHROMIUM)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    report = json.loads(done.stdout)
    for page in report["pages"]:
        assert page["done"] and not page["error"], json.dumps(page, indent=1)[:4000]
    return [{"version": p["version"], "browser": report["browser"], "runs": [p["results"]]} for p in report["pages"]]


def run_cpp(code: str, folder: Path) -> None:
    """Compiles the C++ example with g++ against ONNX Runtime's headers and library and runs it in the folder
    (an uncaught Ort::Exception aborts it)."""
    gxx = shutil.which("g++")
    _need("g++", gxx is not None, "apt-get install g++")
    _need("ONNX Runtime's C/C++ headers and library", ORT_C_LIBRARY.is_file() and ORT_C_HEADERS.is_dir(),
          "cd tests/clients && npm ci --ignore-scripts (com.github.asus4.onnxruntime)")  # fmt: skip
    lib = folder / "ort-lib"  # the library under its soname, so the program finds it at run time
    lib.mkdir(exist_ok=True)
    for name in ("libonnxruntime.so", "libonnxruntime.so.1"):
        if not (lib / name).exists():
            (lib / name).symlink_to(ORT_C_LIBRARY)
    (folder / "example.cpp").write_text(code, encoding="utf-8")
    _run([gxx or "g++", "-std=c++17", "-O0", "-Werror=return-type", "-I", str(ORT_C_HEADERS), "example.cpp",
          "-L", str(lib), "-lonnxruntime", f"-Wl,-rpath,{lib}", "-o", "example"], folder)  # fmt: skip
    _run([str(folder / "example")], folder, timeout=120)


# --- the bundles -----------------------------------------------------------------------------------------------------


def _bundle(model: Path | None, out: Path, *flags: str) -> Path:
    """`onnxpack bundle [MODEL] -o OUT --version 1.0.0 [FLAGS]`, extracted into OUT/x; returns that folder."""
    argv = ["bundle", *([str(model)] if model else []), "-o", str(out), "--version", "1.0.0", "-q", *flags]
    stderr = io.StringIO()
    code = main(argv, Environment(stdout=io.StringIO(), stderr=stderr, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    assert code == 0, stderr.getvalue()
    with zipfile.ZipFile(next(out.glob("*.zip"))) as zf:
        zf.extractall(out / "x")
    return out / "x"


def _int64_model(folder: Path) -> Path:
    """int64 and bool inputs with a named dimension: y = where(mask, float(ids) * 0.5 + 1, -1)."""
    from onnx import numpy_helper

    inits = [numpy_helper.from_array(np.array(v, dtype=np.float32), n) for n, v in (("h", [0.5]), ("o", [1.0]),
                                                                                    ("m", [-1.0]))]  # fmt: skip
    nodes = [helper.make_node("Cast", ["ids"], ["f"], to=TensorProto.FLOAT), helper.make_node("Mul", ["f", "h"], ["g"]),
             helper.make_node("Add", ["g", "o"], ["a"]), helper.make_node("Where", ["mask", "a", "m"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", 4]),
                                           helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
                              initializer=inits)  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "ids.onnx"
    path.write_bytes(model.SerializeToString())
    return path


#: The bundles whose examples run: the sample (self-contained and with its weights in a data file) and a model with
#: int64 and bool inputs.
BUNDLES = {"sample": (), "sample-external": ("--layout", "external"), "int64": ()}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for name, flags in BUNDLES.items():
        base = tmp_path_factory.mktemp(name)
        model = _int64_model(base / "model") if name == "int64" else None
        out[name] = _bundle(model, base / "out", *flags)
    return out


@pytest.fixture(scope="module")
def snippets(bundles: dict[str, Path]) -> dict[str, dict[str, str]]:
    found = {}
    for name, folder in bundles.items():
        (one,) = extract_snippets((folder / "README.txt").read_text(encoding="utf-8"))
        found[name] = one
    return found


@pytest.fixture(scope="module")
def python_outputs(bundles: dict[str, Path], snippets: dict[str, dict[str, str]]) -> dict[str, dict[str, Any]]:
    return {name: run_python(snippets[name]["python"], folder) for name, folder in bundles.items()}


def _same_outputs(got: dict[str, Any], want: dict[str, Any], client: str) -> None:
    assert got.keys() == want.keys(), client
    for name in want:
        assert got[name]["dims"] == want[name]["dims"], (client, name)
        np.testing.assert_allclose(np.array(got[name]["data"], dtype=np.float64),
                                   np.array(want[name]["data"], dtype=np.float64), rtol=1e-5, atol=1e-6,
                                   err_msg=f"{client}: {name}")  # fmt: skip


# --- the tests -------------------------------------------------------------------------------------------------------


def test_python_examples_run_as_written(python_outputs: dict[str, dict[str, Any]]) -> None:
    sample = python_outputs["sample"]["runs"][0]
    assert sample["output"]["dims"] == [1, 3] and abs(sum(sample["output"]["data"]) - 1) < 1e-5  # probabilities
    _same_outputs(python_outputs["sample-external"]["runs"][0], sample, "Python, external data")
    assert python_outputs["int64"]["runs"][0]["y"]["data"] == [-1.0] * 4  # the mask of zeros picks -1


def test_node_examples_run_by_path_and_from_a_buffer(bundles: dict[str, Path], snippets: dict[str, dict[str, str]],
                                                     python_outputs: dict[str, dict[str, Any]]) -> None:  # fmt: skip
    for name, folder in bundles.items():
        code = snippets[name]["node"]
        by_path = run_node(code, folder)
        assert len(by_path["runs"]) == 1, name
        _same_outputs(by_path["runs"][0], python_outputs[name]["runs"][0], f"Node.js by path, {name}")
        if "external" in name:  # the weights are in a data file: README.txt shows no buffer
            assert "readFileSync" not in code
            with pytest.raises(SnippetError):
                from_buffer(code)
            continue
        from_memory = run_node(from_buffer(code), folder, "example-buffer.js")
        _same_outputs(from_memory["runs"][0], python_outputs[name]["runs"][0], f"Node.js from a Buffer, {name}")


def test_browser_examples_run_in_headless_chromium(bundles: dict[str, Path], snippets: dict[str, dict[str, str]],
                                                   python_outputs: dict[str, dict[str, Any]]) -> None:  # fmt: skip
    assert 'externalData: [{ path: "victory.onnx.data", data: "victory.onnx.data" }]' in snippets["sample-external"][
        "browser"]
    results = run_browser([(folder, snippets[name]["browser"]) for name, folder in bundles.items()])
    for (name, _), got in zip(bundles.items(), results, strict=True):
        _same_outputs(got["runs"][0], python_outputs[name]["runs"][0], f"Chromium, {name}")


def test_cpp_examples_compile_and_run(bundles: dict[str, Path], snippets: dict[str, dict[str, str]]) -> None:
    for name, folder in bundles.items():
        run_cpp(snippets[name]["cpp"], folder)


def test_readme_txt_says_which_examples_ci_does_not_build(snippets: dict[str, dict[str, str]],
                                                          bundles: dict[str, Path]) -> None:  # fmt: skip
    text = (bundles["sample"] / "README.txt").read_text(encoding="utf-8")
    rust = "Rust (ort crate 2.0.0-rc.12, in a function returning ort::Result<()>; not compiled by onnxpack's CI):"
    assert rust in text
    assert "C# (NuGet Microsoft.ML.OnnxRuntime 1.31; not compiled by onnxpack's CI):" in text
    assert "runs the Python, JavaScript and C++ examples" in " ".join(text.split())
    assert "Tensor::from_array(([1usize, 3, 64, 128], vec![f32::default(); 24576]))?" in snippets["sample"]["rust"]
    assert "new DenseTensor<float>(new int[] { 1, 3, 64, 128 })" in snippets["sample"]["csharp"]


def test_extraction_refuses_a_broken_readme(bundles: dict[str, Path]) -> None:
    text = (bundles["sample"] / "README.txt").read_text(encoding="utf-8")
    assert len(extract_snippets(text)) == 1
    broken = {
        "a line dropped": text.replace("      };\n", "", 1),
        "a heading renamed": text.replace("\nC++ (", "\nC/C++ (", 1),
        "a line not indented": text.replace("    import numpy as np", "import numpy as np", 1),
        "a quote lost": text.replace('create("victory.onnx");', 'create("victory.onnx);', 1),
        "no examples": text.replace("Loading and running the model", "Loading the model"),
        "an example doubled": text.replace("\nRust (", "\nPython (x):\n    pass\n\nRust (", 1),
    }
    for what, mangled in broken.items():
        assert mangled != text, what
        with pytest.raises(SnippetError):
            extract_snippets(mangled)


def test_a_broken_example_fails_its_run(bundles: dict[str, Path], snippets: dict[str, dict[str, str]]) -> None:
    """The runners report failure: a wrong file name in the Python example is an error, not a pass."""
    with pytest.raises(AssertionError, match="exited 1"):
        run_python(snippets["sample"]["python"].replace('"victory.onnx"', '"missing.onnx"'), bundles["sample"])


def test_a_release_of_several_models_runs_each_models_examples(tmp_path: Path) -> None:
    """A folder release (README.txt with a section per model, paths from the archive's top, the weights in data
    files): every model's examples run from the folder README.txt is in."""
    models = tmp_path / "app" / "models"
    models.mkdir(parents=True)
    sample = ROOT / "resources" / "sample"
    shutil.copy(sample / "victory.onnx", models / "a.onnx")
    shutil.copy(sample / "victory.onnx.data", models)  # the name a.onnx stores
    _int64_model(models)
    (tmp_path / "app" / "labels.txt").write_text("victory\n", encoding="utf-8")
    folder = _bundle(tmp_path / "app", tmp_path / "out", "--layout", "external")
    sections = extract_snippets((folder / "README.txt").read_text(encoding="utf-8"))
    assert len(sections) == 2
    assert 'externalData: [{ path: "a.onnx.data", data: "app/models/a.onnx.data" }]' in sections[0]["browser"]
    want = [run_python(s["python"], folder)["runs"][0] for s in sections]
    assert want[0]["output"]["dims"] == [1, 3] and want[1]["y"]["data"] == [-1.0] * 4
    for i, s in enumerate(sections):
        _same_outputs(run_node(s["node"], folder, f"example{i}.js")["runs"][0], want[i], f"Node.js, model {i}")
    for i, got in enumerate(run_browser([(folder, s["browser"]) for s in sections])):
        _same_outputs(got["runs"][0], want[i], f"Chromium, model {i}")
    run_cpp(sections[1]["cpp"], folder)
