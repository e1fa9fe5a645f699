"""Issue 26 item 5: what the receiver gets — a README.txt that loads and runs the model in Python, JavaScript, C++,
Rust and C#, and a SHA256SUMS member that `sha256sum -c` accepts, listed in the manifest and checked by verify."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, main
from onnxpack.core.release import readme, snippets
from onnxpack.core.release.checksums import sha256sums_problems
from onnxpack.core.release.verify.verify import verify_bundle
from tests import factory

ROOT = Path(__file__).resolve().parent.parent


def _bundle(model: Path | None, out: Path, *flags: str) -> Path:
    argv = ["bundle", *([str(model)] if model else []), "-o", str(out), "--version", "1.0.0", "-q", *flags]
    stdout, stderr = io.StringIO(), io.StringIO()
    code = main(argv, Environment(stdout=stdout, stderr=stderr, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    assert code == 0, stderr.getvalue()
    return next(out.glob("*.zip"))


def _members(zip_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(zip_path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _rezip(members: dict[str, bytes], path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in sorted(members.items()):
            zf.writestr(name, data)
    return path


def _ids_model(folder: Path) -> Path:
    """int64 and bool inputs, weights in a data file: y = where(mask, float(ids) + W, 0)."""
    w = numpy_helper.from_array(np.full(4, 2.0, dtype=np.float32), "W")
    z = numpy_helper.from_array(np.zeros(1, dtype=np.float32), "Z")
    nodes = [helper.make_node("Cast", ["ids"], ["f"], to=TensorProto.FLOAT), helper.make_node("Add", ["f", "W"], ["a"]),
             helper.make_node("Where", ["mask", "a", "Z"], ["y"])]  # fmt: skip
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, ["batch", 4]),
                                           helper.make_tensor_value_info("mask", TensorProto.BOOL, ["batch", 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4])],
                              initializer=[w, z])  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return factory.save_with_external(model, folder / "ids.onnx", threshold=8)


@pytest.fixture(scope="module")
def sample_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _bundle(None, tmp_path_factory.mktemp("sample"))


def _section(text: str, title: str) -> str:
    """One language's example in README.txt, without its 4-space indent."""
    block = text.split(f"\n{title}", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line[4:] for line in block.splitlines()[1:])


def test_sha256sums_is_what_sha256sum_checks_and_the_manifest_lists(sample_zip: Path, tmp_path: Path) -> None:
    members = _members(sample_zip)
    manifest = json.loads(members["manifest.json"])
    listed = {f["path"]: f for f in manifest["files"]}
    assert listed["SHA256SUMS"]["role"] == "checksums"
    assert listed["SHA256SUMS"]["sha256"] == hashlib.sha256(members["SHA256SUMS"]).hexdigest()
    lines = members["SHA256SUMS"].decode().splitlines()
    # coreutils' format: digest, two spaces, path; every member but the manifest, the signature and itself
    assert [ln.split("  ", 1)[1] for ln in lines] == sorted(set(members) - {"manifest.json", "SHA256SUMS"})
    for line in lines:
        digest, name = re.fullmatch(r"([0-9a-f]{64})  (.+)", line).groups()  # type: ignore[union-attr]
        assert hashlib.sha256(members[name]).hexdigest() == digest
    assert sha256sums_problems(members["SHA256SUMS"], manifest["files"]) == []
    if shutil.which("sha256sum"):  # the receiver's own tool, where the machine has it
        with zipfile.ZipFile(sample_zip) as zf:
            zf.extractall(tmp_path)
        done = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout.count(": OK") == len(lines), done.stdout + done.stderr


def test_sha256sums_keeps_bundles_byte_identical(tmp_path: Path) -> None:
    """(Without the end user's load cost, whose measured times differ per run: --no-load-cost.)"""
    first = _bundle(None, tmp_path / "a", "--no-load-cost")
    again = _bundle(None, tmp_path / "b", "--no-load-cost")
    assert again.read_bytes() == first.read_bytes()


def test_verify_checks_sha256sums_against_the_manifest(sample_zip: Path, tmp_path: Path) -> None:
    assert verify_bundle(sample_zip).ok
    members = _members(sample_zip)
    # SHA256SUMS rewritten consistently with the manifest's record of it, but not with the files: caught
    wrong = members["SHA256SUMS"].replace(members["SHA256SUMS"][:8], b"00000000", 1)
    manifest = json.loads(members["manifest.json"])
    for f in manifest["files"]:
        if f["path"] == "SHA256SUMS":
            f["sha256"] = hashlib.sha256(wrong).hexdigest()
    bad = _rezip({**members, "SHA256SUMS": wrong, "manifest.json": json.dumps(manifest).encode()},
                 tmp_path / "bad.zip")  # fmt: skip
    rep = verify_bundle(bad)
    assert [p.code for p in rep.problems] == ["CHECKSUMS_MISMATCH"] and not rep.ok
    assert "another SHA-256 than the manifest" in rep.problems[0].message
    # a bundle made before SHA256SUMS existed still verifies
    manifest = json.loads(members["manifest.json"])
    manifest["files"] = [f for f in manifest["files"] if f["path"] != "SHA256SUMS"]
    old = {k: v for k, v in members.items() if k != "SHA256SUMS"}
    assert verify_bundle(_rezip({**old, "manifest.json": json.dumps(manifest).encode()}, tmp_path / "old.zip")).ok


def test_sha256sums_problems_names_each_disagreement() -> None:
    files: list[dict[str, Any]] = [{"path": "a.onnx", "sha256": "a" * 64, "role": "model"},
                                   {"path": "README.txt", "sha256": "b" * 64, "role": "readme"}]  # fmt: skip
    text = f"{'a' * 64}  a.onnx\n{'c' * 64}  extra.bin\nnot a line\n".encode()
    assert sha256sums_problems(text, files) == [
        "SHA256SUMS line 3 is not '<sha256>  <file>'",
        "SHA256SUMS does not list README.txt",
        "SHA256SUMS lists extra.bin, which the manifest does not",
    ]


def test_readme_python_example_runs_as_written(sample_zip: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(sample_zip) as zf:
        zf.extractall(tmp_path)
    text = (tmp_path / "README.txt").read_text(encoding="utf-8")
    code = _section(text, "Python (pip install onnxruntime numpy):") + "\nprint(output.shape)\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "(1, 3)", done.stderr


def test_readme_javascript_and_cpp_for_int64_bool_and_external_data(tmp_path: Path) -> None:
    zip_path = _bundle(_ids_model(tmp_path / "m"), tmp_path / "out", "--layout", "external")
    text = _members(zip_path)["README.txt"].decode()
    js = _section(text, "JavaScript (Node.js; npm install onnxruntime-node):")
    assert 'ort.InferenceSession.create("ids.onnx")' in js
    assert 'new ort.Tensor("int64", new BigInt64Array(4), [1, 4])' in js and "BigInt64Array (values are BigInt" in js
    assert 'new ort.Tensor("bool", new Uint8Array(4), [1, 4])' in js and "await session.run(feeds)" in js
    assert "readFileSync" not in js  # the weights are in ids.onnx.data: no loading from a buffer
    assert "a buffer in JavaScript" in text
    cpp = _section(text, "C++ (onnxruntime_cxx_api.h from the ONNX Runtime release; link with onnxruntime):")
    for piece in ("int main() {", 'Ort::Session session(env, ORT_TSTR("ids.onnx"), options);',
                  "std::vector<int64_t> ids_data(4);", "std::unique_ptr<bool[]> mask_data(new bool[4]());",
                  "Ort::Value::CreateTensor<int64_t>(memory, ids_data.data(), 4,",
                  "Ort::Value::CreateTensor<bool>(memory, mask_data.get(), 4,",
                  'const char* input_names[] = {"ids", "mask"};', 'const char* output_names[] = {"y"};',
                  "session.Run(Ort::RunOptions{nullptr}, input_names, inputs.data(), inputs.size(),",
                  "const float* y_values = outputs[0].GetTensorData<float>();"):  # fmt: skip
        assert piece in cpp, piece
    assert cpp.count("{") == cpp.count("}") and cpp.count("(") == cpp.count(")")
    if shutil.which("node"):  # the example is valid JavaScript, where the machine has node
        (tmp_path / "example.js").write_text(js, encoding="utf-8")
        done = subprocess.run(["node", "--check", str(tmp_path / "example.js")], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_single_file_model_also_loads_from_a_buffer_in_javascript(sample_zip: Path) -> None:
    text = _members(sample_zip)["README.txt"].decode()
    js = _section(text, "JavaScript (Node.js; npm install onnxruntime-node):")
    assert 'ort.InferenceSession.create(require("fs").readFileSync("victory.onnx"))' in js
    assert 'new ort.Tensor("float32", new Float32Array(24576), [1, 3, 64, 128])' in js


def test_docs_list_the_same_languages_as_readme_txt() -> None:
    assert readme.LANGUAGES == ("Python", "JavaScript (Node.js and the browser)", "C++", "Rust", "C#")
    row = next(line for line in (ROOT / "docs" / "bundle.md").read_text(encoding="utf-8").splitlines()
               if line.startswith("| `README.txt` |"))  # fmt: skip
    for language in ("Python", "JavaScript (Node.js", "onnxruntime-web", "C++", "Rust", "C#"):
        assert language in row, language
    assert "not compiled by onnxpack's CI" in row
    readme_md = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(language.split(" (")[0] in readme_md for language in readme.LANGUAGES)


def test_no_hint_sends_users_to_an_index_that_lacks_onnxpack() -> None:
    offenders = [str(p.relative_to(ROOT)) for folder in ("core", "cli", "docs") for p in (ROOT / folder).rglob("*")
                 if p.suffix in (".py", ".md") and "pip install 'onnxpack[sign]'" in p.read_text(encoding="utf-8")]
    assert offenders == []
    from onnxpack.core.release import signing

    assert "pip install '.[sign]'" in signing._INSTALL_HINT and ".whl[sign]" in signing._INSTALL_HINT


def test_every_element_type_gets_a_value_or_says_what_to_do() -> None:
    inputs = [{"name": "text", "elem_type": "STRING", "shape": ["n"]},
              {"name": "half", "elem_type": "FLOAT16", "shape": [2, 2]},
              {"name": "b16", "elem_type": "BFLOAT16", "shape": [2]},
              {"name": "z", "elem_type": "COMPLEX64", "shape": [2]},
              {"name": "flag", "elem_type": "BOOL", "shape": []}]  # fmt: skip
    outputs = [{"name": "out:0", "elem_type": "FLOAT", "shape": [1]}]
    cpp = "\n".join(snippets.cpp("m.onnx", inputs, outputs))
    for piece in ("Ort::AllocatorWithDefaultOptions allocator;", 'std::vector<const char*> text_data(1, "");',
                  "ONNX_TENSOR_ELEMENT_DATA_TYPE_STRING);", "text_value.FillStringTensor(text_data.data(), "
                  "text_data.size());", "inputs.push_back(std::move(text_value));",
                  "CreateTensor<Ort::Float16_t>(memory, half_data.data(), 4,",
                  "CreateTensor<Ort::BFloat16_t>(memory, b16_data.data(), 2,",
                  '// "z" is COMPLEX64: add its value to inputs and its name to input_names',
                  'const char* input_names[] = {"text", "half", "b16", "flag"};',
                  "const float* out_0_values = outputs[0].GetTensorData<float>();"):  # fmt: skip
        assert piece in cpp, piece
    js = "\n".join(snippets.javascript("m.onnx", inputs, from_memory=False))
    assert '"text": new ort.Tensor("string", new Array(1).fill(""), [1]),' in js
    assert '"half": new ort.Tensor("float16", new Uint16Array(4), [2, 2]),' in js
    assert '// "b16" is BFLOAT16: onnxruntime-node has no tensor type for it' in js
    assert '"flag": new ort.Tensor("bool", new Uint8Array(1), []),' in js
    no_inputs = "\n".join(snippets.cpp("m.onnx", [], outputs))
    assert "const char* const* input_names = nullptr;" in no_inputs  # C++ has no empty arrays
