"""Architecture rules: the engine never imports Qt (checked statically and at run time)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "gui")


def test_core_source_has_no_qt_or_gui_imports() -> None:
    offenders = []
    for path in (ROOT / "core").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_the_whole_engine_loads_no_qt() -> None:
    code = (
        "import pkgutil, importlib, sys, core\n"
        "for m in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    if m.name != 'core.__main__': importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'gui')]\n"
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
        "from gui.app import create_app\n"
        "app = create_app(['onnxpack-gui'])\n"
        "from gui.main_window import MainWindow\n"
        "w = MainWindow(); w.show(); app.processEvents()\n"
    )
    assert _loaded_after(code) == []


def test_the_engine_warm_up_imports_it_and_stops_when_cancelled() -> None:
    run = "from gui import engine\nfrom core.progress import CancelToken\nt = CancelToken()\n"
    assert _loaded_after(run + "engine.warm_up_job()(None, t)") == ["numpy", "onnx", "onnxruntime"]
    assert _loaded_after(run + "t.cancel()\nengine.warm_up_job()(None, t)") == []


def test_cli_commands_that_need_no_model_parsing_stay_light() -> None:
    """`onnxpack smoke` starts its child before importing the engine (see core/cli/cmd_smoke.py)."""
    assert _loaded_after("from core.cli import build_parser\nbuild_parser(['smoke', 'm.onnx'])") == []
