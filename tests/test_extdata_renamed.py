"""Issue 41 item 13: a data file renamed beside its model is named in the EXTDATA_MISSING finding (which file, was it
renamed from the name the model records), found by its ending and size without opening it, never through a link."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.model.extdata.extlocation import renamed_candidates
from onnxpack.core.model.extdata.extresolve import resolve_external_data
from onnxpack.core.model.modelfile import load_structure
from tests.factory import add_model, save_with_external

SIZE = 512  # add_model(): W1 and W2, 64 floats each, in one data file


def _renamed(tmp_path: Path, to: str = "model.onnx.data") -> Path:
    """victory.onnx records 'victory.onnx.data', which the user renamed to ``to``."""
    path = save_with_external(add_model(), tmp_path / "victory.onnx")
    os.rename(tmp_path / "victory.onnx.data", tmp_path / to)
    return path


def _missing(path: Path) -> list:  # type: ignore[type-arg]
    table = resolve_external_data(load_structure(path), path.parent)
    return [f for f in table.findings if f.code == "EXTDATA_MISSING"]


def test_a_renamed_data_file_of_the_right_size_is_named_with_the_way_back(tmp_path: Path) -> None:
    path = _renamed(tmp_path)
    (tmp_path / "notes.txt").write_bytes(b"x" * SIZE)  # not a data file's ending
    (tmp_path / "small.bin").write_bytes(b"x" * 10)  # too small to hold the model's ranges
    [f] = _missing(path)
    assert f.params["variant"] == "renamed" and f.params["found"] == "model.onnx.data"
    assert "'model.onnx.data' beside it has the size the model needs (512 B)" in f.message
    assert "was it renamed from 'victory.onnx.data'?" in f.message
    assert f.hint == ("Rename 'model.onnx.data' back to 'victory.onnx.data', the name the model records (or copy it "
                      "to that name).")


def test_several_candidates_are_listed_and_an_exact_size_wins(tmp_path: Path) -> None:
    path = _renamed(tmp_path, "a.onnx_data")
    (tmp_path / "b.pb").write_bytes(b"x" * SIZE)
    (tmp_path / "c.bin").write_bytes(b"x" * (SIZE + 1))  # larger: could hold it, but not of the exact size
    [f] = _missing(path)
    assert f.params["variant"] == "renamed_maybe" and f.params["found"] == "'a.onnx_data', 'b.pb'"
    assert "data files beside it: 'a.onnx_data', 'b.pb'. Was one of them renamed from 'victory.onnx.data'?" in f.message
    assert "--data-dir" in f.hint and "rename it back to 'victory.onnx.data'" in f.hint
    # none of the exact size: every file large enough, at most three named
    for name in ("a.onnx_data", "b.pb"):
        (tmp_path / name).unlink()
    for name in ("d.data", "e.data", "f.data"):
        (tmp_path / name).write_bytes(b"x" * (SIZE + 8))
    [f] = _missing(path)
    assert f.params["variant"] == "renamed_maybe" and f.params["found"] == "'c.bin', 'd.data', 'e.data' (+1)"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_links_folders_and_the_models_own_files_are_never_suggested(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "victory.onnx")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.data"
    os.rename(tmp_path / "victory.onnx.data", outside)
    (tmp_path / "link.data").symlink_to(outside)
    (tmp_path / "folder.data").mkdir()
    [f] = _missing(path)
    assert "variant" not in f.params and "--data-dir" in f.hint  # the plain finding, as before
    # a file the model already uses for other tensors is no candidate for the missing one
    (tmp_path / "used.data").write_bytes(b"x" * SIZE)
    assert renamed_candidates(tmp_path, SIZE, {"used.data"}) == ([], False)
    assert renamed_candidates(tmp_path, SIZE, set()) == ([("used.data", SIZE)], True)


def test_a_missing_folder_of_the_location_is_not_answered_with_the_files_beside_it(tmp_path: Path) -> None:
    path = save_with_external(add_model(), tmp_path / "victory.onnx", location="weights/victory.data")
    os.rename(tmp_path / "weights" / "victory.data", tmp_path / "victory.data")
    (tmp_path / "weights").rmdir()
    [f] = _missing(path)
    assert "variant" not in f.params


def test_the_command_line_names_the_renamed_file(tmp_path: Path) -> None:
    path = _renamed(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(path), "--json"], Environment(stdout=out, stderr=err, vars={}))
    assert code == 1
    [f] = [f for f in json.loads(out.getvalue())["findings"] if f["code"] == "EXTDATA_MISSING"]
    assert "'model.onnx.data' beside it" in f["message"] and "Rename 'model.onnx.data' back" in f["hint"]
    out = io.StringIO()
    main(["inspect", str(path)], Environment(stdout=out, stderr=err, vars={}))
    assert "model.onnx.data" in out.getvalue()
