"""Architecture rules: which of our packages may import which (checked statically and at run time).

The static rules are import-linter contracts in pyproject.toml (``[tool.importlinter]``), run here:

- the engine (``onnxpack.core``) imports neither Qt nor the CLI nor the GUI, and its floors import downwards only
  (its basics < ``model`` < ``checks`` < ``runtime`` < ``release``);
- the CLI (``onnxpack.cli``) imports neither Qt nor the GUI; the GUI does not import the CLI;
- the app's window is over its widgets, over its Qt-free model (``gui/model``, which imports no Qt);
- nothing shipped imports ``benchmarks``, ``tests`` or the old top-level ``core``/``gui``/``cli`` names
  (everything is ``onnxpack.*``, so a second distribution's ``core`` can never shadow ours).

What import-linter cannot say stays below: what importing a module loads at run time, the 500-line cap.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports(cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run import-linter on the contracts of ``cwd``/pyproject.toml (no cache: each run reads the tree afresh)."""
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([sys.executable, "-c", code, "--no-cache"], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_the_import_contracts_are_kept() -> None:
    r = _lint_imports(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout and r.stdout.count(" KEPT") >= 6, r.stdout


def test_the_contracts_catch_what_they_forbid(tmp_path: Path) -> None:
    """The contracts themselves, on a copy of the tree with forbidden imports of each kind: the engine importing the
    CLI (relatively) and a top-level ``benchmarks``, a floor importing the floor above it, the CLI importing Qt,
    the app's model importing a widget (and so Qt)."""
    for package in ("core", "cli", "gui"):
        shutil.copytree(ROOT / package, tmp_path / "onnxpack" / package,
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    pkg = tmp_path / "onnxpack"
    (pkg / "core" / "x.py").write_text("from ..cli import main\nimport benchmarks.common\n")
    (pkg / "core" / "model" / "y.py").write_text("from ..release.bundle import build_bundle\n")
    (pkg / "cli" / "z.py").write_text("import PySide6.QtCore\n")
    (pkg / "gui" / "model" / "w.py").write_text("from ..widgets import common\n")
    r = _lint_imports(tmp_path, pythonpath=tmp_path)
    out = r.stdout
    assert r.returncode == 1, out + r.stderr
    for broken in ("onnxpack.core is not allowed to import onnxpack.cli",
                   "onnxpack.core is not allowed to import benchmarks",
                   "onnxpack.core.model is not allowed to import onnxpack.core.release",
                   "onnxpack.cli is not allowed to import PySide6",
                   "onnxpack.gui.model is not allowed to import onnxpack.gui.widgets",
                   "onnxpack.gui.model is not allowed to import PySide6"):  # fmt: skip
        assert broken in out, broken + "\n" + out


def test_importing_the_whole_engine_loads_no_qt_cli_or_gui() -> None:
    code = (
        "import pkgutil, importlib, sys\n"
        "import onnxpack.core as core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'onnxpack.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'core', 'gui', 'cli')\n"
        "       or m.startswith(('onnxpack.gui', 'onnxpack.cli'))]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def _loaded_after(code: str) -> list[str]:
    """Which of onnx, numpy, onnxruntime are imported after running ``code`` in a fresh interpreter."""
    probe = code + "\nimport sys; print(sorted(m for m in ('onnx', 'numpy', 'onnxruntime') if m in sys.modules))"
    env = {**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"}
    r = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    return list(ast.literal_eval(r.stdout.strip().splitlines()[-1]))


def test_the_window_shows_without_importing_the_engine() -> None:
    """Start-up: building the main window imports neither onnx nor numpy nor onnxruntime (~0.4 s)."""
    code = (
        "from onnxpack.gui.app import create_app\n"
        "app = create_app(['onnxpack-gui'])\n"
        "from onnxpack.gui.main_window import MainWindow\n"
        "w = MainWindow(); w.show(); app.processEvents()\n"
    )
    assert _loaded_after(code) == []


def test_the_engine_warm_up_imports_it_and_stops_when_cancelled() -> None:
    run = "from onnxpack.gui import engine\nfrom onnxpack.core.progress import CancelToken\nt = CancelToken()\n"
    # onnxruntime stays out of the GUI process: it runs in child processes only (issue 14 item 9: a GIL-held import)
    assert _loaded_after(run + "engine.warm_up_job()(None, t)") == ["numpy", "onnx"]
    assert _loaded_after(run + "t.cancel()\nengine.warm_up_job()(None, t)") == []


def test_cli_commands_that_need_no_model_parsing_stay_light() -> None:
    """`onnxpack smoke` starts its child before importing the engine (see core/cli/cmd_smoke.py)."""
    assert _loaded_after("from onnxpack.cli import build_parser\nbuild_parser().parse_args(['smoke', 'm.onnx'])") == []


# The engine's floors, lowest first (the layers contract in pyproject.toml orders them).
CORE_FLOORS = ("child", "model", "checks", "runtime", "release")


def test_core_has_only_the_known_floors() -> None:
    """A new folder in core/ gets its place in CORE_FLOORS (and in pyproject's packages) on purpose."""
    folders = {p.name for p in (ROOT / "core").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(CORE_FLOORS)
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for floor in folders:
        assert f'"onnxpack.core.{floor}"' in text, floor


def test_no_core_module_shadows_the_standard_library() -> None:
    shadowing = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "core").rglob("*.py")
                       if p.stem in sys.stdlib_module_names)  # fmt: skip
    assert shadowing == []


def test_the_public_api_resolves_from_onnxpack_core() -> None:
    import importlib

    import onnxpack.core as core

    for name in core.__all__:
        value = getattr(core, name)
        if name != "__version__":
            assert getattr(importlib.import_module(f"onnxpack.core.{core._API[name]}"), name) is value, name
    with pytest.raises(AttributeError):
        core.no_such_name  # noqa: B018


def test_importing_the_engine_package_loads_no_model_library() -> None:
    code = "import sys, onnxpack.core; print(sorted(m for m in ('onnx', 'onnxruntime', 'numpy') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_no_core_module_grows_past_500_lines() -> None:
    """A module of the engine is about one thing (issue 31): past ~500 lines it is about two; split it by meaning."""
    long = sorted(f"{p.relative_to(ROOT)}: {n}" for p in (ROOT / "core").rglob("*.py")
                  if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500)  # fmt: skip
    assert long == []
