"""The distribution: one import package ``onnxpack`` (core, cli, gui, resources), no top-level ``core``/``gui``.

The wheel is built from this checkout with the locked build backend (no network, no build isolation) and its
file list is read; the installed console scripts are run as a user would run them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheel_installs_only_the_onnxpack_package(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"onnxpack"}, sorted(tops)
    assert not any(n.startswith(("core/", "gui/", "cli/", "tests/", "benchmarks/", "build_spec/")) for n in names)
    for needed in ("onnxpack/core/__init__.py", "onnxpack/cli/__init__.py", "onnxpack/gui/__init__.py",
                   "onnxpack/resources/sample/victory.onnx", "onnxpack/resources/sample/victory.onnx.data",
                   "onnxpack/resources/i18n/onnxpack_ja.qm", "onnxpack/resources/manifest.schema.json",
                   "onnxpack/core/py.typed"):  # fmt: skip
        assert needed in names, needed
    assert "onnxpack/__init__.py" not in names  # a namespace package: nothing to shadow or collide with
    assert not any(n.startswith("onnxpack/gui/") and "screenshots" in n for n in names)  # a dev tool, not shipped


def test_the_entry_points_name_the_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (ep,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = zf.read(ep).decode()
    assert "onnxpack = onnxpack.cli:run" in text
    assert "onnxpack-gui = onnxpack.gui.launch:run" in text


def test_the_wheel_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    """Unpacked on its own (no checkout on sys.path): the CLI inspects the sample that ships inside it."""
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "PYTHONSAFEPATH": "1"}
    code = ("import onnxpack.core.resources as r, onnxpack.cli as c, sys; m = r.resource_path(*r.SAMPLE_MODEL); "
            "print(m); sys.exit(c.main(['inspect', str(m), '--json']))")  # fmt: skip
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    first, rest = r.stdout.split("\n", 1)
    assert Path(first).resolve().is_relative_to(site.resolve())
    assert json.loads(rest)["ok"] is True


def _script(name: str) -> str:
    bindir = Path(sys.executable).parent
    found = shutil.which(name, path=str(bindir))
    if found is None:
        pytest.fail(f"{name} is not installed beside {sys.executable}: install the project (see the README)")
    return found


def test_installed_gui_script_runs_the_self_test(tmp_path: Path) -> None:
    """`onnxpack-gui --self-test REPORT` of a pip install behaves like the frozen executable's."""
    report = tmp_path / "report.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    r = subprocess.run([_script("onnxpack-gui"), "--self-test", str(report)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["ok"] is True and doc["frozen"] is False
    assert {c["name"] for c in doc["checks"]} == {"qt", "window", "engine", "spawn", "translation", "bundle"}
