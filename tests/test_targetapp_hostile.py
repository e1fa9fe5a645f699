"""--target-app against hostile and tricky files (issue 39 items 7-9, issue 41 item 15), through the command line:
each format read by its own parser (a commented-out, Condition="false", marker-excluded or quoted-in-a-string
version never decides), every file bounded (/dev/zero, a FIFO, a folder, a huge file refused by name), and malformed
input (deep nesting, other shapes, 5,000-digit versions) exit 2 with a code and a hint, never exit 3 or a hang."""

from __future__ import annotations

import io
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import onnx
import pytest

from onnxpack.cli import Environment, main
from onnxpack.core.checks.targetapp import read_target_app
from onnxpack.core.errors import InputError
from tests.factory import add_model

DIGITS = "9" * 5000
CSPROJ = '<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n{items}  </ItemGroup>\n</Project>\n'


def _ref(version: str, extra: str = "", name: str = "Microsoft.ML.OnnxRuntime") -> str:
    return f'    <PackageReference Include="{name}" Version="{version}"{extra} />\n'


def _sparse(path: Path, size: int) -> None:
    with open(path, "wb") as f:
        f.truncate(size)


def _json(doc: object) -> str:
    return json.dumps(doc, indent=2)


def _nuget_lock(version: str) -> str:
    return _json({"version": 1, "dependencies": {"net8.0": {"Microsoft.ML.OnnxRuntime": {
        "type": "Direct", "requested": f"[{version}, )", "resolved": version}}}})


def _npm_lock(version: str) -> str:
    return _json({"lockfileVersion": 3, "packages": {"": {}, "node_modules/onnxruntime-web": {"version": version}}})


#: name → (file name, its text, the ONNX Runtime version expected (the line too, when given as "X.Y.Z@LINE")).
DERIVED: dict[str, tuple[str, str, str]] = {
    # a commented-out older release never beats the real one
    "csproj-comment": ("App.csproj", CSPROJ.format(items="    <!--\n" + _ref("1.10.0") + "    -->\n" + _ref("1.20.1")),
                       "1.20.1@6"),
    "csproj-condition-false": ("App.csproj", CSPROJ.format(
        items=_ref("1.10.0", ' Condition="false"') + _ref("1.11.0", " Condition=\"'a' == 'b'\"") + _ref("1.20.1")),
        "1.20.1@5"),
    "csproj-itemgroup-false": ("App.csproj", '<Project>\n<ItemGroup Condition=" false ">\n' + _ref("1.10.0")
                               + "</ItemGroup>\n<ItemGroup>\n" + _ref("1.20.1") + "</ItemGroup>\n</Project>\n",
                               "1.20.1@6"),
    "csproj-version-element": ("App.csproj", '<Project>\n<ItemGroup>\n<PackageReference Include="Microsoft.ML.'
                               'OnnxRuntime.Gpu">\n  <Version>[1.18.1]</Version>\n</PackageReference>\n'
                               "</ItemGroup>\n</Project>\n", "1.18.1@3"),
    "props-property": ("Directory.Packages.props", "<Project>\n<PropertyGroup>\n<Ort>1.19.2</Ort>\n</PropertyGroup>\n"
                       '<ItemGroup>\n<PackageVersion Include="Microsoft.ML.OnnxRuntime" Version="$(Ort)" />\n'
                       "</ItemGroup>\n</Project>\n", "1.19.2@6"),
    "requirements-comment": ("requirements.txt", "# onnxruntime==1.10.0\nnumpy  # onnxruntime==1.11.0\n"
                             "onnxruntime==1.20.1 --hash=sha256:abc  # pinned\n", "1.20.1@3"),
    "requirements-marker": ("requirements.txt", 'onnxruntime==1.10.0; python_version < "3"\n'
                            'onnxruntime==1.20.1; python_version >= "3.8"\n', "1.20.1@2"),
    "requirements-platform-marker": ("requirements.txt", "onnxruntime==1.19.2; sys_platform == 'darwin'\n"
                                     "onnxruntime-gpu==1.20.1; sys_platform != 'darwin'\n", "1.19.2@1"),
    "requirements-continuation": ("requirements.txt", "numpy\nonnxruntime \\\n  >=1.17.3\n", "1.17.3@2"),
    "pyproject-multiline-string": ("pyproject.toml", '[project]\nname = "app"\ndescription = """\n'
                                   'onnxruntime==1.10.0\n"""\ndependencies = ["onnxruntime>=1.20.1"]\n', "1.20.1@6"),
    "pyproject-optional-and-poetry": ("pyproject.toml", '[project]\nname = "a"\n[project.optional-dependencies]\n'
                                      'gpu = ["onnxruntime-gpu~=1.18.0"]\n', "1.18.0@4"),
    "poetry": ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.10"\n'
               'onnxruntime = {version = "^1.17.0", optional = true}\n', "1.17.0@3"),
    "cargo-multiline-string": ("Cargo.lock", '[[package]]\nname = "x"\nversion = "1.0.0"\ndescription = """\n'
                               '[[package]]\nname = "ort"\nversion = "1.14.0"\n"""\n\n[[package]]\nname = "ort"\n'
                               'version = "2.0.0-rc.10"\n', "1.22.0@12"),
    "uv-lock": ("uv.lock", 'version = 1\n\n[[package]]\nname = "onnxruntime"\nversion = "1.20.1"\n'
                'description = """\nversion = "1.10.0"\n"""\n', "1.20.1@5"),
    "nuget-lock": ("packages.lock.json", _nuget_lock("1.17.1"), "1.17.1@8"),
    "npm-lock": ("package-lock.json", _npm_lock("1.18.0"), "1.18.0@6"),
    "npm-lock-huge-number": ("package-lock.json", _npm_lock("1.18.0")[:-2] + ', "x": 1' + DIGITS + "\n}", "1.18.0"),
    "package-json": ("package.json", _json({"dependencies": {"onnxruntime-node": ">=1.16.3 <2"}}), "1.16.3@3"),
}

#: name → (file name, its text or a function making the file, the error code expected).
REFUSED: dict[str, tuple[str, str | Callable[[Path], None], str]] = {
    "json-deep": ("package-lock.json", "[" * 100_000 + "]" * 100_000, "TARGET_APP_UNREADABLE"),
    "json-list": ("package-lock.json", "[1, 2]", "TARGET_APP_UNREADABLE"),
    "json-dependencies-list": ("packages.lock.json", _json({"dependencies": ["x"]}), "TARGET_APP_UNREADABLE"),
    "json-framework-string": ("packages.lock.json", _json({"dependencies": {"net8.0": "x"}}), "TARGET_APP_UNREADABLE"),
    "json-version-number": ("package-lock.json", _json({"packages": {"node_modules/onnxruntime-node": {"version": 5}}}),
                            "TARGET_APP_NONE"),
    "json-broken": ("packages.lock.json", '{"dependencies": {', "TARGET_APP_UNREADABLE"),
    "toml-deep": ("uv.lock", "a = " + "[" * 50_000 + "]" * 50_000 + "\n", "TARGET_APP_UNREADABLE"),
    "toml-huge-int": ("Cargo.lock", "a = 1" + DIGITS + "\n", "TARGET_APP_UNREADABLE"),
    "toml-package-string": ("Cargo.lock", 'package = "ort"\n', "TARGET_APP_UNREADABLE"),
    "digits-requirements": ("requirements.txt", f"onnxruntime==1.{DIGITS}\n", "TARGET_APP_UNREADABLE"),
    "digits-uv": ("uv.lock", f'[[package]]\nname = "onnxruntime"\nversion = "1.{DIGITS}"\n', "TARGET_APP_UNREADABLE"),
    "digits-csproj": ("App.csproj", CSPROJ.format(items=_ref(f"1.{DIGITS}")), "TARGET_APP_UNREADABLE"),
    "digits-nuget-lock": ("packages.lock.json", _nuget_lock(f"{DIGITS}.1"), "TARGET_APP_UNREADABLE"),
    "digits-npm-lock": ("package-lock.json", _npm_lock(f"1.{DIGITS}.0"), "TARGET_APP_UNREADABLE"),
    "digits-cargo": ("Cargo.lock", f'[[package]]\nname = "ort"\nversion = "2.{DIGITS}"\n', "TARGET_APP_UNKNOWN"),
    "xml-entities": ("App.csproj", '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY a "1.10.0">]>\n'
                     + CSPROJ.format(items=_ref("&a;")), "TARGET_APP_UNREADABLE"),
    "xml-broken": ("App.csproj", "<Project><ItemGroup>", "TARGET_APP_UNREADABLE"),
    "not-utf8": ("requirements.txt", "onnxruntime==1.20\n\udcff\n", "TARGET_APP_UNREADABLE"),
    "many-requirements": ("requirements.txt", "".join(f"onnxruntime=={i}.0\n" for i in range(1, 400)),
                          "TARGET_APP_UNREADABLE"),
    "only-commented": ("requirements.txt", "# onnxruntime==1.10.0\n", "TARGET_APP_NONE"),
    "marker-never": ("requirements.txt", "onnxruntime==1.10.0; python_version < '3'\n", "TARGET_APP_NONE"),
    "huge-file": ("Cargo.lock", lambda p: _sparse(p, 1 << 30), "TARGET_APP_UNREADABLE"),
    "folder-named-like-a-lock": ("Cargo.lock", lambda p: p.mkdir(), "TARGET_APP_NONE"),  # searched as a folder
    "dev-zero": ("Cargo.lock", lambda p: p.symlink_to("/dev/zero"), "TARGET_APP_UNREADABLE"),
    "fifo": ("Cargo.lock", lambda p: os.mkfifo(p), "TARGET_APP_UNREADABLE"),
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), Environment(stdout=out, stderr=err, vars={}))
    return int(code), out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("model") / "m.onnx"
    onnx.save(add_model(), path)  # IR 8, ai.onnx 17: every release named here loads it
    return path


def _make(folder: Path, name: str, content: str | Callable[[Path], None]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if callable(content):
        content(path)
    else:
        path.write_bytes(content.encode("utf-8", "surrogateescape"))
    return path


@pytest.mark.parametrize("case", sorted(DERIVED))
def test_the_real_dependency_decides(case: str, tmp_path: Path, model: Path) -> None:
    name, text, expected = DERIVED[case]
    path = _make(tmp_path, name, text)
    version, _, line = expected.partition("@")
    code, out, err = run("check", str(model), "--target-app", str(path), "--json", "-q")
    assert code in (0, 1), err
    assert json.loads(out)["target"]["target_ort"] == ".".join(version.split(".")[:2])
    found = read_target_app(path)
    assert found.version == version, found
    if line:
        assert found.line == int(line), found.describe()


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_hostile_files_are_clear_errors(case: str, tmp_path: Path, model: Path) -> None:
    name, content, error = REFUSED[case]
    path = _make(tmp_path, name, content)
    start = time.monotonic()
    code, out, err = run("check", str(model), "--target-app", str(path), "--json", "-q")
    assert time.monotonic() - start < 20
    assert code == 2, (code, out, err)
    doc = json.loads(out)
    assert doc["error"]["code"] == error and doc["error"]["hint"], doc
    assert "Traceback" not in out + err and "Internal error" not in err
    assert len(doc["error"]["message"]) < 400  # a 5,000-digit version is shortened, not printed whole


def test_a_folder_skips_what_it_cannot_read(tmp_path: Path, model: Path) -> None:
    app = tmp_path / "app"
    _make(app / "weird", "Cargo.lock", lambda p: os.mkfifo(p))  # most trusted kind, but a FIFO: skipped, not waited on
    _make(app, "requirements.txt", "onnxruntime==1.19.2\n")
    assert read_target_app(app).version == "1.19.2"


def test_cargo_toml_names_its_lock_file(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    _make(workspace, "Cargo.lock", '[[package]]\nname = "ort"\nversion = "2.0.0-rc.10"\n')
    member = _make(workspace / "crates" / "app", "Cargo.toml", '[package]\nname = "app"\n[dependencies]\nort = "2"\n')
    with pytest.raises(InputError) as e:
        read_target_app(member)
    assert str(workspace / "Cargo.lock") in e.value.message and str(workspace / "Cargo.lock") in (e.value.hint or "")
    assert "--target-app" in (e.value.hint or "")
    alone = _make(tmp_path / "alone", "Cargo.toml", '[package]\nname = "app"\n')
    code, out, _err = run("check", str(alone), "--target-app", str(alone), "--json", "-q")
    assert code == 2 and "cargo generate-lockfile" in json.loads(out)["error"]["hint"]


def test_a_4_mib_packages_lock_is_read_in_linear_time(tmp_path: Path) -> None:
    """Issue 39 item 7: many frameworks each with the runtime was quadratic (4 MiB: 158 s on the campaign's machine,
    87 s here); now one parse and one search for the answer's line."""
    deps = {f"net{i}.0": {"Microsoft.ML.OnnxRuntime": {"type": "Direct", "requested": "[1.17.1, )",
                                                        "resolved": "1.17.1"}} for i in range(30_000)}
    path = _make(tmp_path, "packages.lock.json", _json({"version": 1, "dependencies": deps}))
    assert path.stat().st_size > 4 << 20
    start = time.monotonic()
    t = read_target_app(path)
    assert time.monotonic() - start < 5
    assert (t.version, t.line) == ("1.17.1", 8)
