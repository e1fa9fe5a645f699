"""Issue 26 item 3: one meaning of `-o/--output` for every command, the natural `bundle . -o dist` works, and
`--force` only replaces an existing output (the version and label checks have flags of their own)."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from onnxpack.cli import Environment, build_parser, main
from onnxpack.cli.cmd_bundle import options_from_args
from onnxpack.core.release.bundle import cli_command
from tests import factory


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={"SOURCE_DATE_EPOCH": "1700000000"}))
    return int(code), out.getvalue(), err.getvalue()


def _json(*argv: str) -> tuple[int, dict[str, Any]]:
    code, out, _ = _run(*argv, "--json")
    return code, json.loads(out)


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_every_command_spells_it_o_output_and_takes_out_too() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for command in ("bundle", "merge", "ort", "keygen"):
        action = next(a for a in sub.choices[command]._actions if a.dest == "output")  # type: ignore[attr-defined]
        assert action.option_strings == ["-o", "--output", "--out"], command


def test_bundle_o_names_a_folder_or_the_zip_file(ext_model: Path, tmp_path: Path) -> None:
    base = ["bundle", str(ext_model), "--version", "1.0.0", "--no-smoke", "-q"]
    code, doc = _json(*base, "-o", str(tmp_path / "new.zip"))  # "this file", never a folder named new.zip
    assert code == 0 and (tmp_path / "new.zip").is_file() and doc["bundle"] == str(tmp_path / "new.zip")
    code, _, err = _run("verify", str(tmp_path / "new.zip"))
    assert code == 0, err
    (tmp_path / "dist").mkdir()
    code, _, err = _run(*base, "--output", str(tmp_path / "dist"))  # an existing folder: inside it
    assert code == 0 and _files(tmp_path / "dist") == ["model-1.0.0.zip"], err
    code, _, err = _run(*base, "--out", str(tmp_path / "more" / "new"))  # a new folder (the README's `-o out`)
    assert code == 0 and _files(tmp_path / "more") == ["new", "new/model-1.0.0.zip"], err
    before = _files(tmp_path)
    for wrong, said in ((ext_model, "is an existing file"), (tmp_path / "model.onnx", "looks like a file name")):
        code, doc = _json(*base, "-o", str(wrong))
        assert code == 2 and doc["error"]["code"] == "OUTPUT_AMBIGUOUS", doc
        assert said in doc["error"]["message"] and "takes a folder to write NAME-VERSION.zip into, or a file name " \
            "ending in .zip" in doc["error"]["message"] and "-o dist/NAME.zip" in doc["error"]["hint"]
    assert _files(tmp_path) == before
    code, doc = _json(*base, "-o", str(tmp_path / "NUL.zip"))  # Windows would write to its null device
    assert code == 2 and doc["error"]["code"] == "OUTPUT_BAD_NAME" and "reserved Windows device name" in \
        doc["error"]["message"]
    assert _files(tmp_path) == before


def test_merge_o_names_a_folder_or_the_onnx_file(ext_model: Path, tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    code, doc = _json("merge", str(ext_model), "-o", str(tmp_path / "out"))  # an existing folder: inside it
    assert code == 0 and doc["model_path"] == str(tmp_path / "out" / "model.onnx")
    code, doc = _json("merge", str(ext_model), "--out", str(tmp_path / "m.onnx"))  # this file
    assert code == 0 and doc["model_path"] == str(tmp_path / "m.onnx")
    code, doc = _json("merge", str(ext_model), "-o", str(tmp_path / "m.onnx"))  # it exists now: --force replaces
    assert code == 1 and doc["error"]["code"] == "OUTPUT_EXISTS"
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    code, doc = _json("merge", str(ext_model), "-o", str(tmp_path / "notes.txt"))
    assert code == 2 and doc["error"]["code"] == "OUTPUT_AMBIGUOUS" and "merge -o" in doc["error"]["message"]


def test_ort_and_keygen_refuse_a_file_name(ext_model: Path, tmp_path: Path) -> None:
    code, doc = _json("ort", str(ext_model), "-o", str(tmp_path / "model.ort"))
    assert code == 2 and doc["error"]["code"] == "OUTPUT_AMBIGUOUS"
    assert "takes a folder to write NAME.ort and required_operators.config into" in doc["error"]["message"]
    code, doc = _json("keygen", "-o", str(tmp_path / "release.key"))
    assert code == 2 and doc["error"]["code"] == "OUTPUT_AMBIGUOUS" and "--name" in doc["error"]["hint"]
    assert _files(tmp_path) == ["model", "model/model.onnx", "model/model.onnx.data"]


@pytest.mark.parametrize("model_arg", [".", "model.onnx"])
def test_bundle_from_the_model_folder_into_dist(
    ext_model: Path, model_arg: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The natural first try: nothing a bundle writes (a .zip, its work folder) is ever read as a model."""
    folder = ext_model.parent
    before = factory.snapshot(folder)
    monkeypatch.chdir(folder)
    code, _, err = _run("bundle", model_arg, "-o", "dist", "--version", "1.0.0", "-q")
    assert code == 0, err
    code, _, err = _run("bundle", model_arg, "-o", ".", "--version", "1.0.1", "--no-smoke", "-q")
    assert code == 0, err
    assert sorted(p.name for p in folder.iterdir()) == ["dist", "model-1.0.1.zip", "model.onnx", "model.onnx.data"]
    assert {k: v for k, v in factory.snapshot(folder).items() if k in before} == before
    code, _, err = _run("verify", "dist/model-1.0.0.zip", "--smoke")
    assert code == 0, err


def test_what_stays_refused_is_what_is_really_unsafe(ext_model: Path, tmp_path: Path) -> None:
    base = ["bundle", str(ext_model), "--no-smoke", "-q"]
    assert _run(*base, "-o", str(tmp_path / "v1.zip"), "--version", "1.0.0")[0] == 0
    previous = tmp_path / "v1.zip"
    code, doc = _json(*base, "-o", str(previous), "--version", "1.1.0", "--previous", str(previous), "--force")
    assert code == 1 and doc["error"]["code"] == "OUTPUT_IS_INPUT", doc  # the zip it reads


def test_force_only_replaces_the_output(ext_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    base = ["bundle", str(ext_model), "-o", str(out), "--no-smoke", "-q"]
    assert _run(*base, "--version", "1.1.0")[0] == 0
    previous = str(out / "model-1.1.0.zip")
    code, doc = _json(*base, "--version", "1.0.0", "--previous", previous, "--force")
    assert code == 1 and doc["error"]["code"] == "VERSION_NOT_GREATER", doc  # --force does not let it go backwards
    assert "--allow-version-not-greater" in doc["error"]["hint"] and "--force" not in doc["error"]["hint"]
    code, doc = _json(*base, "--version", "1.0.0", "--previous", previous, "--allow-version-not-greater")
    assert code == 0 and doc["release"]["forced"] is True
    assert "VERSION_NOT_GREATER" in [f["code"] for f in doc["findings"]]
    code, doc = _json(*base, "--version", "1.0.0", "--previous", previous, "--allow-version-not-greater")
    assert code == 1 and doc["error"]["code"] == "OUTPUT_EXISTS"  # replacing is still --force's alone
    labels = ["--labels", "a,b,c"]  # the model's output ends in 64 classes
    code, doc = _json(*base, "--version", "1.0.0", *labels, "--force")
    assert code == 2 and doc["error"]["code"] == "ABOUT_LABELS" and "--allow-unmatched-labels" in doc["error"]["hint"]
    code, doc = _json(*base, "--version", "1.0.0", *labels, "--force", "--allow-unmatched-labels")
    assert code == 0 and doc["manifest"]["about"]["labels"] == ["a", "b", "c"]


def test_cli_command_round_trips_the_zip_file_and_the_split_flags(tmp_path: Path) -> None:
    env = Environment(stdout=io.StringIO(), stderr=io.StringIO(), vars={})
    argv = ["bundle", "model.onnx", "-o", str(tmp_path / "v2.zip"), "--version", "2.0.0", "--force",
            "--allow-version-not-greater", "--allow-unmatched-labels"]
    opts = options_from_args(build_parser().parse_args(argv), env)
    assert (opts.out_dir, opts.zip_name) == (tmp_path, "v2.zip")
    assert opts.force and opts.allow_version_not_greater and opts.allow_unmatched_labels
    command = cli_command(opts)
    assert f"-o {shlex.quote(str(tmp_path / 'v2.zip'))}" in command
    again = options_from_args(build_parser().parse_args(shlex.split(command)[1:]), env)
    assert again == opts
    only_force = options_from_args(build_parser().parse_args([*argv[:6], "--force"]), env)
    words = shlex.split(cli_command(only_force))
    assert "--force" in words and not [w for w in words if w.startswith("--allow")]


def test_merge_into_a_folder_given_as_the_model_says_why_and_what_works(ext_model: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """What stays refused says why, and the hint's way out works."""
    folder = ext_model.parent
    code, doc = _json("merge", str(folder), "-o", str(folder / "merged.onnx"))
    assert code == 1 and doc["error"]["code"] == "OUTPUT_INSIDE_INPUT"
    assert "a later run given it would otherwise find the output among its models" in doc["error"]["message"]
    assert "give the model file itself instead of its folder" in doc["error"]["hint"]
    monkeypatch.chdir(folder)
    code, doc = _json("merge", "model.onnx", "-o", "../dist")  # both of the hint's ways
    assert code == 0 and doc["model_path"] == str(tmp_path / "dist" / "model.onnx")
    code, doc = _json("merge", "model.onnx", "-o", "merged.onnx")
    assert code == 0 and (folder / "merged.onnx").is_file()
