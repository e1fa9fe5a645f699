"""`pip install onnxpack` is the engine and the CLI without Qt: proven in a real environment with no PySide6.

The environment is a new venv whose site-packages holds this interpreter's packages except PySide6/shiboken6 and
onnxpack's own editable install, plus onnxpack from a wheel built from this checkout: so `import PySide6` fails
there, as it does after `pip install -r requirements/cli.txt`, and every child process onnxpack starts (checker,
smoke) runs in it too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT_DISTS = re.compile(r"^(pyside6|shiboken6)", re.IGNORECASE)
OURS = re.compile(r"^(onnxpack|__editable__.*onnxpack|_onnxpack)", re.IGNORECASE)


@pytest.fixture(scope="module")
def no_qt_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("noqt") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())  # fmt: skip
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if QT_DISTS.match(entry.name) or OURS.match(entry.name) or entry.name.endswith(".pth"):
            continue
        (site / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    return python


def _run(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_environment_has_no_qt(no_qt_python: Path, tmp_path: Path) -> None:
    r = _run(no_qt_python, "-c", "import onnxpack.cli, onnxpack.core, importlib.util as u; "
             "print(u.find_spec('PySide6'), onnxpack.cli.__file__)", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    spec, where = r.stdout.split()
    assert spec == "None"
    assert not Path(where).resolve().is_relative_to(ROOT)  # the wheel's copy, not the checkout


def test_cli_bundles_and_verifies_without_qt(no_qt_python: Path, tmp_path: Path) -> None:
    """The README's first command's work (bundle the sample, then verify --smoke) with no Qt installed."""
    sample = tmp_path / "sample"
    shutil.copytree(ROOT / "resources" / "sample", sample)
    r = _run(no_qt_python, "-m", "onnxpack.cli", "bundle", str(sample / "victory.onnx"), "-o", str(tmp_path / "out"),
             "--version", "1.0.0", "--json", "-q", cwd=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    assert doc["ok"] is True
    (bundle,) = (tmp_path / "out").glob("*.zip")
    r = _run(no_qt_python, "-m", "onnxpack.cli", "verify", str(bundle), "--smoke", "--json", "-q", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["ok"] is True


def test_gui_entry_point_without_qt_says_how_to_get_it(no_qt_python: Path, tmp_path: Path) -> None:
    r = _run(no_qt_python, "-m", "onnxpack.gui.launch", cwd=tmp_path)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert "PySide6" in r.stderr and "[gui]" in r.stderr and "requirements/app.txt" in r.stderr


def test_wheel_requires_qt_only_for_the_gui_extra(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (meta,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        lines = zf.read(meta).decode().splitlines()
    qt = [ln for ln in lines if ln.startswith("Requires-Dist:") and "pyside6" in ln.lower()]
    assert qt and all('extra == "gui"' in ln for ln in qt), qt
    assert "Provides-Extra: gui" in lines


def test_the_cli_lock_has_no_qt_and_the_app_lock_has_it() -> None:
    def names(lock: str) -> set[str]:
        text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
        return {m.group(1).lower() for m in re.finditer(r"^([A-Za-z0-9_.-]+)==", text, re.MULTILINE)}

    pinned = {lock: names(lock) for lock in ("cli.txt", "app.txt", "dev.txt", "windows.txt")}
    assert "pyside6-essentials" not in pinned["cli.txt"] and "shiboken6" not in pinned["cli.txt"]
    for name in ("app.txt", "dev.txt", "windows.txt"):
        assert "pyside6-essentials" in pinned[name], name
    assert pinned["cli.txt"] <= pinned["app.txt"]  # the same versions, minus Qt
