"""`onnxpack bundle` and `onnxpack verify` on the command line (in-process), exit codes and JSON."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from onnxpack.cli import Environment, main
from tests import factory


def _run(argv: list[str], env_vars: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(stdout=out, stderr=err, vars=env_vars or {"SOURCE_DATE_EPOCH": "1700000000"})
    code = main(argv, env)
    return int(code), out.getvalue(), err.getvalue()


def _json(argv: list[str]) -> tuple[int, dict[str, Any]]:
    code, out, _err = _run([*argv, "--json"])
    return code, json.loads(out)


def test_bundle_sample_then_verify(tmp_path: Path) -> None:
    tmp_path = tmp_path / "out"  # the README's command: -o names a folder that does not exist yet
    code, doc = _json(["bundle", "-o", str(tmp_path), "--version", "1.0.0"])
    assert code == 0
    assert (doc["schema"], doc["ok"], doc["name"], doc["version"]) == ("onnxpack.bundle/1", True, "victory", "1.0.0")
    assert doc["equal"]["bitwise"] is True
    zip_path = tmp_path / "victory-1.0.0.zip"
    assert doc["bundle"] == str(zip_path)
    assert doc["manifest"]["created"] == "2023-11-14T22:13:20Z"
    code, rep = _json(["verify", str(zip_path), "--smoke"])
    assert code == 0 and rep["schema"] == "onnxpack.verify/1" and rep["ok"] is True
    code, out, _ = _run(["verify", str(zip_path)])
    assert code == 0 and "OK: the bundle is intact." in out


def test_the_tensor_proof_says_the_tensors_were_compared_byte_for_byte(tmp_path: Path) -> None:
    """A model merged from external data is proven by its structure and its tensors' bytes: the output says they were
    compared byte for byte (the SHA-256 digests are only the manifest's fingerprint)."""
    model = factory.external_model(tmp_path / "m", n=4096)
    code, text, err = _run(["bundle", str(model), "-o", str(tmp_path / "out"), "--version", "1.0.0",
                            "--compare-outputs", "never"])
    assert code == 0, err
    assert "equality proof: same structure and 3 tensors" in text
    assert "compared byte for byte with the original's" in text and "SHA-256" not in text.split("equality proof")[1]


def test_human_output_and_options(tmp_path: Path) -> None:
    model = factory.external_model(tmp_path / "m")
    out = tmp_path / "out"
    out.mkdir()
    code, text, err = _run(["bundle", str(model), "-o", str(out), "--version", "0.1.0", "--name", "adder",
                            "--no-smoke", "--compress", "--layout", "external", "--set-model-version"])
    assert code == 0, err
    assert "Wrote" in text and "adder-0.1.0.zip" in text and "layout external" in text and "skipped" in text
    with zipfile.ZipFile(out / "adder-0.1.0.zip") as zf:
        assert sorted(zf.namelist()) == ["README.txt", "SHA256SUMS", "adder.onnx", "adder.onnx.data", "manifest.json"]
    # the same release again: the file exists -> refused (exit 1, not a usage error); with --force it is replaced
    code, _, err = _run(["bundle", str(model), "-o", str(out), "--version", "0.1.0", "--name", "adder",
                         "--no-smoke"])
    assert code == 1 and "already exists" in err
    code, _, _ = _run(["bundle", str(model), "-o", str(out), "--version", "0.2.0", "--name", "adder", "--no-smoke",
                       "--previous", str(out / "adder-0.1.0.zip")])
    assert code == 0
    code, text, err = _run(["bundle", str(model), "-o", str(out), "--version", "0.1.5", "--name", "adder",
                            "--no-smoke", "--previous", str(out / "adder-0.2.0.zip")])
    assert code == 1 and text == "" and "not greater than the previous release 0.2.0" in err
    code, _, _ = _run(["bundle", str(model), "-o", str(out), "--version", "0.1.0", "--name", "adder",
                       "--no-smoke", "--force"])
    assert code == 0
    assert sorted(p.name for p in out.iterdir()) == ["adder-0.1.0.zip", "adder-0.2.0.zip"]


def test_verify_failure_exit_codes(tmp_path: Path) -> None:
    model = factory.external_model(tmp_path / "m")
    code, _, _ = _run(["bundle", str(model), "-o", str(tmp_path), "--version", "1.0.0", "--no-smoke"])
    assert code == 0
    good = tmp_path / "model-1.0.0.zip"
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        dst.writestr("extra.bin", b"x")
    code, rep = _json(["verify", str(bad)])
    assert code == 1 and rep["ok"] is False
    assert [(p["code"], p["subject"]) for p in rep["problems"]] == [("FILE_EXTRA", "extra.bin")]
    code, text, _ = _run(["verify", str(bad)])
    assert code == 1 and "FILE_EXTRA" in text and "FAILED" in text
    code, out, err = _run(["verify", str(tmp_path / "nope.zip"), "--json"])
    assert code == 2 and json.loads(out)["ok"] is False and "not found" in err


def test_usage_errors_are_clean(tmp_path: Path) -> None:
    code, out, err = _run(["bundle", "-o", str(tmp_path), "--version", "1.0", "--json"])
    assert code == 2 and json.loads(out)["error"]["code"] == "BAD_VERSION" and "Traceback" not in err
    code, _, err = _run(["bundle", "-o", str(tmp_path), "--version", "1.0.0", "--dim", "batch"])
    assert code == 2 and "Traceback" not in err
    code, _, err = _run(["bundle", "-o", str(tmp_path), "--version", "1.0.0"], {"SOURCE_DATE_EPOCH": "soon"})
    assert code == 2 and "SOURCE_DATE_EPOCH" in err
    code, _, err = _run(["bundle", "--version", "1.0.0"])
    assert code == 2 and "-o" in err
    assert list(tmp_path.iterdir()) == []


def test_release_diff_of_an_identical_source_says_nothing_changed(tmp_path: Path) -> None:
    """Issue 13 item 7: not "none change, suggested 0.1.1"."""
    model = factory.external_model(tmp_path / "m")
    out = tmp_path / "out"
    assert _run(["bundle", str(model), "-o", str(out), "--version", "0.1.0", "--no-smoke"])[0] == 0
    code, text, err = _run(["bundle", str(model), "-o", str(out), "--version", "0.1.1", "--no-smoke",
                            "--previous", str(out / "model-0.1.0.zip")])
    assert code == 0, err
    assert "release diff vs 0.1.0: nothing changed; a re-release takes the next patch version, 0.1.1" in text
    assert "none change" not in text


def test_error_classes_carry_the_readme_exit_codes() -> None:
    """Issue 13 item 8: refused work exits 1, usage and unreadable input 2, onnxpack's own bugs 3."""
    from onnxpack.core import errors

    assert errors.RefusedError("x").exit_status == 1
    assert errors.OutputError("x").exit_status == 1 and issubclass(errors.OutputError, errors.RefusedError)
    assert errors.InputError("x").exit_status == 2
    assert errors.InternalError("x").exit_status == 3
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    assert "**1** error-level findings / failed run / verify mismatch / refused" in readme
    assert "**2** usage error or unreadable input, **3** internal bug" in readme
