"""Bad and hostile inputs through the CLI: a clear message, a non-zero exit, no traceback, inputs untouched."""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from onnxpack.cli import Environment, main
from tests.factory import add_model, save_with_external, snapshot


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={}))
    return int(code), out.getvalue(), err.getvalue()


def both_commands(path: Path, folder: Path) -> list[tuple[int, str]]:
    """Run inspect and check (human and --json); assert no traceback and the folder unmodified."""
    before = snapshot(folder)
    results = []
    for command in ("inspect", "check"):
        for extra in ([], ["--json"]):
            code, out, err = run(command, str(path), *extra)
            assert "Traceback" not in out + err and "Internal error" not in err, out + err
            if extra:
                doc = json.loads(out)  # always one valid JSON document on stdout
                assert doc["ok"] is (code == 0)
            results.append((code, out + err))
    assert snapshot(folder) == before
    return results


# ----------------------------------------------------------------------------- unreadable files: exit 2


def _nested_if_model(depth: int) -> bytes:
    """If nodes nested ``depth`` deep (3 protobuf levels each), serialized as bytes.

    Built top-down in place: protobuf copies (what onnx.helper does) re-parse and stop at its depth limit.
    """
    out = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
    leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "leaf", [], [out])
    model = helper.make_model(
        helper.make_graph([], "main", [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                                       helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])], [out]),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    g = model.graph
    for i in range(depth):
        node = g.node.add(op_type="If", name=f"if{i}", input=["c"], output=["y"])
        node.attribute.add(name="else_branch", type=onnx.AttributeProto.GRAPH).g.CopyFrom(leaf)
        g = node.attribute.add(name="then_branch", type=onnx.AttributeProto.GRAPH).g
        g.name = f"then{i}"
        g.output.add().CopyFrom(out)
    g.node.add().CopyFrom(leaf.node[0])
    return bytes(model.SerializeToString())


def _zip_bytes(tmp_path: Path) -> bytes:
    z = tmp_path / "z.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("model.onnx", add_model().SerializeToString())
    data = z.read_bytes()
    z.unlink()
    return data


CASES: dict[str, tuple[Callable[[Path], bytes], str]] = {
    "empty": (lambda _p: b"", "is empty (0 bytes)"),
    "random": (lambda _p: bytes(np.random.default_rng(1).integers(0, 256, 10000, dtype=np.uint8)),
               "not a valid ONNX model"),
    "truncated": (lambda _p: add_model(4096).SerializeToString()[:9000], "not a valid ONNX model"),
    "text": (lambda _p: b"ir_version: 8\ngraph { name: 'g' }\n", "is a text file"),
    "japanese text": (lambda _p: ("これはモデルではありません。\n" * 20).encode(), "is a text file"),
    "zip": (_zip_bytes, "is a ZIP archive"),
    "too deep": (lambda _p: _nested_if_model(40), "nested deeper than protobuf allows"),
    "bad utf-8": (lambda _p: add_model().SerializeToString().replace(b"W1", b"\xff\xfe"), "not valid UTF-8"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_unreadable_model(tmp_path: Path, case: str) -> None:
    make, message = CASES[case]
    path = tmp_path / "in" / "model.onnx"
    path.parent.mkdir()
    path.write_bytes(make(tmp_path))
    for code, text in both_commands(path, path.parent):
        assert code == 2, text
        assert message in text and "model.onnx" in text and "hint:" in text


def test_nesting_just_under_the_limit_works(tmp_path: Path) -> None:
    path = tmp_path / "in" / "deep.onnx"
    path.parent.mkdir()
    path.write_bytes(_nested_if_model(30))
    results = both_commands(path, path.parent)
    assert results[0][0] == 0 and "If ×30" in results[0][1]
    assert all(code in (0, 1) for code, _ in results)


def test_ort_named_onnx_is_reported_as_ort(tmp_path: Path) -> None:
    from tests.test_inspect import make_ort_file

    path = make_ort_file(add_model(), tmp_path / "model.onnx")
    results = both_commands(path, tmp_path)
    assert [code for code, _ in results] == [0, 0, 0, 0]
    assert "ORT format" in results[0][1] and "ORT_FORMAT" in results[2][1]


def test_folder_and_fifo_as_model(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path))
    assert code == 2 and "No .onnx or .ort model" in err
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.onnx")
        code, _, err = run("inspect", str(tmp_path / "pipe.onnx"))
        assert code == 2 and "not a regular file" in err


# ----------------------------------------------------------------------------- hostile external data: exit 1


def _ext_model(folder: Path) -> Path:
    return save_with_external(add_model(), folder / "model.onnx")


def _set_key(path: Path, key: str, value: str, tensor: int = 0) -> None:
    m = onnx.load(str(path), load_external_data=False)
    entries = m.graph.initializer[tensor].external_data
    for e in entries:
        if e.key == key:
            e.value = value
            break
    else:
        e = entries.add()
        e.key, e.value = key, value
    path.write_bytes(m.SerializeToString())


def _missing(folder: Path, path: Path) -> None:
    (folder / "model.onnx.data").unlink()


def _escaping(folder: Path, path: Path) -> None:
    (folder.parent / "secret.bin").write_bytes(b"\0" * 512)
    _set_key(path, "location", "../secret.bin")


def _absolute(folder: Path, path: Path) -> None:
    _set_key(path, "location", str(folder / "model.onnx.data"))


def _symlink(folder: Path, path: Path) -> None:
    (folder.parent / "real.data").write_bytes((folder / "model.onnx.data").read_bytes())
    (folder / "model.onnx.data").unlink()
    (folder / "model.onnx.data").symlink_to(folder.parent / "real.data")


def _hardlink(folder: Path, path: Path) -> None:
    os.link(folder / "model.onnx.data", folder.parent / "elsewhere.data")


def _fifo(folder: Path, path: Path) -> None:
    (folder / "model.onnx.data").unlink()
    os.mkfifo(folder / "model.onnx.data")


def _directory(folder: Path, path: Path) -> None:
    (folder / "model.onnx.data").unlink()
    (folder / "model.onnx.data").mkdir()


EXT_CASES: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "missing": (_missing, "EXTDATA_MISSING"),
    "escaping": (_escaping, "EXTDATA_OUTSIDE_DIR"),
    "absolute": (_absolute, "EXTDATA_ABSOLUTE"),
    "symlink": (_symlink, "EXTDATA_SYMLINK"),
    "hardlink": (_hardlink, "EXTDATA_HARDLINK"),
    "fifo": (_fifo, "EXTDATA_NOT_REGULAR"),
    "directory": (_directory, "EXTDATA_NOT_REGULAR"),
    "offset out of range": (lambda _f, p: _set_key(p, "offset", "100000"), "EXTDATA_OUT_OF_RANGE"),
    "length out of range": (lambda _f, p: _set_key(p, "length", str(2**63)), "EXTDATA_OUT_OF_RANGE"),
    "negative offset": (lambda _f, p: _set_key(p, "offset", "-256"), "EXTDATA_BAD_KEY"),
    "non-numeric length": (lambda _f, p: _set_key(p, "length", "256 bytes"), "EXTDATA_BAD_KEY"),
    "length mismatch": (lambda _f, p: _set_key(p, "length", "128"), "EXTDATA_LENGTH_MISMATCH"),
}


@pytest.mark.parametrize("case", sorted(EXT_CASES))
def test_hostile_external_data(tmp_path: Path, case: str) -> None:
    if case == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this OS")
    breaker, code_name = EXT_CASES[case]
    folder = tmp_path / "model"
    path = _ext_model(folder)
    breaker(folder, path)
    results = both_commands(path, folder)
    for code, text in results:
        assert code == 1, text
        assert code_name in text and ("W1" in text or "model.onnx.data" in text)
    check_human = results[2][1]
    assert "hint:" in check_human and "Result: FAILED" in check_human


def test_duplicate_initializers(tmp_path: Path) -> None:
    m = add_model()
    m.graph.initializer.append(numpy_helper.from_array(np.zeros(64, np.float32), "W1"))
    path = tmp_path / "m.onnx"
    path.write_bytes(m.SerializeToString())
    results = both_commands(path, tmp_path)
    assert results[0][0] == 0  # inspect describes it
    assert results[2][0] == 1 and "DUPLICATE_INITIALIZER" in results[2][1] and "'W1'" in results[2][1]


# ----------------------------------------------------------------------------- names that must work


def test_spaces_and_japanese_paths_work(tmp_path: Path) -> None:
    folder = tmp_path / "リリース 候補" / "モデル フォルダ"
    path = save_with_external(add_model(), folder / "勝利 判定.onnx", location="勝利 判定.onnx.data")
    results = both_commands(path, folder)
    assert [code for code, _ in results] == [0, 0, 0, 0]
    assert "勝利 判定.onnx.data" in results[0][1]
    doc = json.loads(results[1][1])
    assert doc["files"][1]["path"] == "勝利 判定.onnx.data" and doc["model"]["name"] == "勝利 判定.onnx"
    code, out, _ = run("check", str(folder))  # the folder is accepted too
    assert code == 0 and "Result: OK" in out


def test_negative_dims_without_a_valid_length_are_a_finding(tmp_path: Path) -> None:
    """Issue 16 item 1: the size estimate for the merge plan must not crash on negative dims."""
    folder = tmp_path / "model"
    path = _ext_model(folder)
    m = onnx.load(str(path), load_external_data=False)
    t = m.graph.initializer[0]
    t.dims[0] = -t.dims[0]
    kept = [e for e in t.external_data if e.key != "length"]
    del t.external_data[:]
    t.external_data.extend(kept)
    path.write_bytes(m.SerializeToString())
    for code, text in both_commands(path, folder):
        assert code == 1, text
        assert "Traceback" not in text and "internal error" not in text.lower()


def test_a_length_no_float_can_hold(tmp_path: Path) -> None:
    """Found by tests/fuzz.py: a size beyond float range must be reported, not crash the message formatting."""
    folder = tmp_path / "model"
    path = _ext_model(folder)
    m = onnx.load(str(path), load_external_data=False)
    t = m.graph.initializer[0]
    for e in t.external_data:
        if e.key == "location":
            e.value = "1" * 30  # no such file: the merged size falls back to the declared length
        if e.key == "length":
            e.value = "1" * 400
    path.write_bytes(m.SerializeToString())
    for code, text in both_commands(path, folder):
        assert code == 1, text
        assert "Internal error" not in text


# ----------------------------------------------------------------------------- small files named by an option: bounded


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _huge(p: Path) -> None:
    with open(p, "wb") as f:
        f.truncate(1 << 30)


SMALL_FILE_CASES: dict[str, Callable[[Path], object]] = {
    "dev-zero": lambda p: p.symlink_to("/dev/zero"),
    "fifo": _fifo,
    "folder": lambda p: p.mkdir(),
    "1-GiB": _huge,
}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize("option", ["--sign-key", "--labels-file"])
@pytest.mark.parametrize("case", sorted(SMALL_FILE_CASES))
def test_key_and_labels_files_are_read_with_a_bound(option: str, case: str, tmp_path: Path) -> None:
    """Issue 39 item 7: --sign-key and --labels-file on /dev/zero filled memory (exit 3) and a FIFO blocked forever,
    as --previous, --input and verify did not: now each is refused by name, exit 2, before any reading."""
    if option == "--sign-key":
        pytest.importorskip("model_signing")
    model = tmp_path / "m.onnx"
    model.write_bytes(add_model().SerializeToString())
    hostile = tmp_path / "hostile"
    SMALL_FILE_CASES[case](hostile)
    code, out, err = run("bundle", str(model), "-o", str(tmp_path / "dist"), "--version", "1.0.0", "--license", "MIT",
                         "--author", "x", option, str(hostile))
    assert code == 2, out + err
    assert "Traceback" not in out + err and "Internal error" not in err
    assert str(hostile) in err and ("folder" in err or "regular file" in err or "larger than" in err), err
    assert not (tmp_path / "dist").exists() or not any((tmp_path / "dist").iterdir())
