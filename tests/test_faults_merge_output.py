"""Issue 29, smaller: merge's output side. --force never replaces a FIFO or device; a read-only folder is said to be
read-only (not "not enough free space"); an output folder removed mid-run is an output error (not exit 2 INPUT)."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from onnxpack.cli import Environment, main
from onnxpack.core.model.merge import merge as merge_mod


def _model(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "m.onnx"
    onnx.save(helper.make_model(helper.make_graph([], "g", [], [], [numpy_helper.from_array(
        np.arange(512, dtype=np.float32), "W")]), opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def _run(argv: list[str]) -> tuple[int, dict]:
    out, err = io.StringIO(), io.StringIO()
    status = int(main([*argv, "--json"], Environment(stdout=out, stderr=err, vars={})))
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return status, json.loads(out.getvalue())


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_force_never_replaces_a_fifo(tmp_path: Path) -> None:
    src = _model(tmp_path / "in")
    fifo = tmp_path / "out.onnx"
    os.mkfifo(fifo)
    status, doc = _run(["merge", str(src), "-o", str(fifo), "--force"])
    assert status == 1 and doc["error"]["code"] == "OUTPUT_WRITE", doc  # before: replaced by a regular file
    assert "not a regular file" in doc["error"]["message"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "out.onnx"]


def test_a_read_only_file_system_is_named_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a read-only mount statvfs says ST_RDONLY and 0 bytes available."""
    src = _model(tmp_path / "in")
    out_dir = tmp_path / "ro"
    out_dir.mkdir()
    real = os.statvfs

    def statvfs(path: str | os.PathLike[str]) -> object:
        st = real(path)
        if Path(path) == out_dir:
            return SimpleNamespace(f_flag=st.f_flag | os.ST_RDONLY, f_bavail=0, f_frsize=st.f_frsize,
                                   f_blocks=st.f_blocks, f_bfree=0)
        return st

    monkeypatch.setattr(os, "statvfs", statvfs)
    status, doc = _run(["merge", str(src), "-o", str(out_dir / "o.onnx")])
    assert status == 1 and doc["error"]["code"] == "OUTPUT_WRITE", doc  # before: OUTPUT_NO_SPACE
    assert "read-only file system" in doc["error"]["message"]
    assert list(out_dir.iterdir()) == []


def test_an_output_folder_removed_mid_run_is_an_output_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    src = _model(tmp_path / "in")
    before = src.read_bytes()
    real = merge_mod.MergePlan.write_single

    def write_then_remove(self: merge_mod.MergePlan, f, *a, **k):  # type: ignore[no-untyped-def]
        n = real(self, f, *a, **k)
        shutil.rmtree(tmp_path / "out")
        return n

    monkeypatch.setattr(merge_mod.MergePlan, "write_single", write_then_remove)
    status, doc = _run(["merge", str(src), "-o", str(tmp_path / "out" / "sub" / "o.onnx")])
    assert status == 1 and doc["error"]["code"] == "OUTPUT_WRITE", doc  # before: exit 2, code INPUT
    assert "removed while the merge ran" in doc["error"]["message"]
    assert not (tmp_path / "out").exists() and src.read_bytes() == before


def test_a_bundle_output_folder_removed_mid_run_is_an_output_error(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """before: exit 2, code INPUT ("No such file or folder: …/.onnxpack-tmp-…", the smoke run of the vanished
    entry)."""
    real = merge_mod.MergePlan.write_single

    def write_then_remove(self: merge_mod.MergePlan, f, *a, **k):  # type: ignore[no-untyped-def]
        n = real(self, f, *a, **k)
        shutil.rmtree(tmp_path / "out")
        return n

    monkeypatch.setattr(merge_mod.MergePlan, "write_single", write_then_remove)
    status, doc = _run(["bundle", "-o", str(tmp_path / "out"), "--version", "1.0.0"])
    assert status == 1 and doc["error"]["code"] == "OUTPUT_WRITE", doc
    assert not (tmp_path / "out").exists()
