"""`onnxpack merge` in-process: output, JSON, exit codes, progress bar."""

from __future__ import annotations

import io
import json
from pathlib import Path

import onnx

from onnxpack.cli import Environment, main
from tests import factory


def run(*argv: str, tty: bool = False) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), Environment(stdout=out, stderr=err, vars={}, stderr_isatty=tty))
    return int(status), out.getvalue(), err.getvalue()


def test_merge_single_json(ext_model: Path, tmp_path: Path) -> None:
    before = factory.snapshot(ext_model.parent)
    out = tmp_path / "merged.onnx"
    status, stdout, stderr = run("merge", str(ext_model), "-o", str(out), "--json")
    assert status == 0, stderr
    doc = json.loads(stdout)
    assert doc["schema"] == "onnxpack.merge/1" and doc["ok"] is True
    assert doc["layout"] == "single" and doc["model_size"] == out.stat().st_size and doc["data_path"] is None
    assert doc["tensors"] == 2
    assert out.read_bytes() == onnx.load(str(ext_model)).SerializeToString()
    assert factory.snapshot(ext_model.parent) == before


def test_merge_external_human_and_progress_bar(ext_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.onnx"
    status, stdout, stderr = run(
        "merge", str(ext_model), "-o", str(out), "--layout", "external", "--align", "4096", "--checksum", tty=True
    )
    assert status == 0, stderr
    assert "x.onnx.data" in stdout and "aligned to 4096" in stdout and "SHA-1" in stdout
    assert "merge" in stderr and "100.0%" in stderr  # the terminal progress bar
    assert (tmp_path / "x.onnx.data").exists()
    assert onnx.load(str(out)).SerializeToString() == onnx.load(str(ext_model)).SerializeToString()


def test_stage_lines_when_not_a_terminal_and_quiet(ext_model: Path, tmp_path: Path) -> None:
    status, stdout, stderr = run("merge", str(ext_model), "-o", str(tmp_path / "m.onnx"))
    assert status == 0 and "single file" in stdout
    assert stderr.startswith("onnxpack [") and "] merge: " in stderr and "\r" not in stderr and "\x1b" not in stderr
    assert len(stderr.splitlines()) == 1  # one line for the one stage of a quick merge
    status, stdout, stderr = run("merge", str(ext_model), "-o", str(tmp_path / "q.onnx"), "--quiet")
    assert status == 0 and stderr == "" and "single file" in stdout


def test_existing_output_and_force(ext_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.onnx"
    out.write_bytes(b"keep me")
    status, stdout, stderr = run("merge", str(ext_model), "-o", str(out), "--json")
    assert status == 1 and out.read_bytes() == b"keep me"  # refused, as README's exit codes say
    doc = json.loads(stdout)
    assert doc["ok"] is False and doc["error"]["code"] == "OUTPUT_EXISTS" and "--force" in stderr
    status, _, _ = run("merge", str(ext_model), "-o", str(out), "--force")
    assert status == 0 and out.read_bytes() != b"keep me"


def test_errors_have_exit_codes(ext_model: Path, tmp_path: Path) -> None:
    # usage errors: exit 2
    assert run("merge", str(ext_model))[0] == 2  # -o missing
    status, _, stderr = run("merge", str(ext_model), "-o", str(tmp_path / "a.onnx"), "--align", "3")
    assert status == 2 and "power of two" in stderr
    assert run("merge", str(ext_model), "-o", str(tmp_path / "a.onnx"), "--align", "x")[0] == 2
    assert run("merge", str(ext_model), "-o", str(tmp_path / "a.onnx"), "--layout", "zip")[0] == 2
    assert run("merge", str(tmp_path / "missing.onnx"), "-o", str(tmp_path / "a.onnx"))[0] == 2
    status, _, stderr = run("merge", str(ext_model), "-o", str(ext_model), "--force")
    assert status == 1 and "same file as the input" in stderr  # refused
    # hostile/broken external data: exit 1 with the finding's code, no traceback
    (ext_model.parent / "model.onnx.data").write_bytes(b"short")
    status, stdout, stderr = run("merge", str(ext_model), "-o", str(tmp_path / "a.onnx"), "--json")
    assert status == 1 and json.loads(stdout)["error"]["code"] == "EXTDATA_OUT_OF_RANGE"
    assert "Traceback" not in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]


def test_help_lists_merge() -> None:
    status, stdout, _ = run("merge", "--help")  # help goes to the command's own stdout
    assert status == 0 and "--layout" in stdout and "--checksum" in stdout and "--force" in stdout


def test_outputs_inside_a_model_folder_given_as_model_are_refused(ext_model: Path, tmp_path: Path) -> None:
    """MODEL given as a folder: merge and ort do not write into it (issue 16 B), where a later run would find their
    .onnx beside the model. A bundle's .zip is never read as a model: issue 26 lets it go there
    (tests/test_usage_output.py)."""
    folder = ext_model.parent
    before = factory.snapshot(folder)
    entries = sorted(p.name for p in folder.rglob("*"))
    for argv in (
        ["merge", str(folder), "-o", str(folder / "merged.onnx")],
        ["ort", str(folder), "-o", str(folder / "ort")],
    ):
        status, stdout, stderr = run(*argv, "--json")
        assert status != 0, argv
        assert json.loads(stdout)["error"]["code"] in ("OUTPUT_INSIDE_INPUT", "OUTPUT_IS_INPUT"), (argv, stderr)
        assert factory.snapshot(folder) == before and sorted(p.name for p in folder.rglob("*")) == entries, argv
    # beside the folder is fine
    status, _, stderr = run("merge", str(folder), "-o", str(tmp_path / "merged.onnx"))
    assert status == 0, stderr


def test_every_command_creates_a_missing_output_folder(ext_model: Path, tmp_path: Path) -> None:
    """Issue 13 item 9: merge, like bundle, creates a missing output folder (and removes it when it fails)."""
    status, _, stderr = run("merge", str(ext_model), "-o", str(tmp_path / "new" / "deeper" / "m.onnx"))
    assert status == 0, stderr
    assert (tmp_path / "new" / "deeper" / "m.onnx").is_file()
    status, _, stderr = run("ort", str(ext_model), "-o", str(tmp_path / "o1" / "o2"))
    assert status == 0, stderr
    assert (tmp_path / "o1" / "o2" / "model.ort").is_file()
    # a failing run leaves no folder behind
    (ext_model.parent / "model.onnx.data").write_bytes(b"short")
    status, _, _ = run("merge", str(ext_model), "-o", str(tmp_path / "gone" / "m.onnx"))
    assert status == 1 and not (tmp_path / "gone").exists()
    # and a missing folder inside the input folder is never created
    status, _, _ = run("merge", str(ext_model.parent), "-o", str(ext_model.parent / "sub" / "m.onnx"))
    assert status == 1 and not (ext_model.parent / "sub").exists()
