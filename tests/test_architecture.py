"""Architecture rules: which of our packages may import which (checked statically and at run time).

- the engine (``onnxpack.core``) imports neither Qt nor the CLI nor the GUI;
- the GUI (``onnxpack.gui``) does not import the CLI;
- the CLI (``onnxpack.cli``) does not import Qt or the GUI;
- nothing shipped imports ``benchmarks``, ``tests`` or the old top-level ``core``/``gui``/``cli`` names
  (everything is ``onnxpack.*``, so a second distribution's ``core`` can never shadow ours).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6")
NEVER = ("core", "gui", "cli", "benchmarks", "tests", "build_spec")  # top-level names nothing shipped may import
RULES = {
    "core": (*QT, *NEVER, "onnxpack.cli", "onnxpack.gui"),
    "cli": (*QT, *NEVER, "onnxpack.gui"),
    "gui": (*NEVER, "onnxpack.cli"),
}


def _imports(path: Path, package: str, root: Path = ROOT) -> list[str]:
    """Every module ``path`` imports, relative imports resolved against ``onnxpack.<package>`` (in ``root``)."""
    rel = path.relative_to(root / package).with_suffix("")
    parts = ["onnxpack", package, *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    else:
        parts.pop()  # a module's own package
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = parts[: len(parts) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
                names += [module] * bool(node.module) + [f"{module}.{a.name}" for a in node.names]
            elif node.module:
                names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


def _forbidden(name: str, rules: tuple[str, ...]) -> bool:
    return any(name == r or name.startswith(r + ".") for r in rules)


@pytest.mark.parametrize("package", sorted(RULES))
def test_package_imports_follow_the_rules(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in _imports(path, package)
        if _forbidden(name, RULES[package])
    ]
    assert offenders == []


def test_the_rules_catch_what_they_forbid(tmp_path: Path) -> None:
    """The checker itself: a relative import out of the engine into the CLI is resolved and caught."""
    (tmp_path / "core").mkdir()
    mod = tmp_path / "core" / "x.py"
    mod.write_text("from ..cli import main\nfrom ..gui.formatting import f\nimport benchmarks.common\n")
    names = _imports(mod, "core", root=tmp_path)
    assert [n for n in names if _forbidden(n, RULES["core"])] == [
        "onnxpack.cli", "onnxpack.cli.main", "onnxpack.gui.formatting", "onnxpack.gui.formatting.f", "benchmarks.common"
    ]


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


# The engine's floors, lowest first: a module imports from its own floor and the floors below, never above
# (onnxpack.core's own modules are the ground floor: shared basics every floor may use).
CORE_FLOORS = ("", "model", "checks", "runtime", "release")


def _floor(path: Path) -> str:
    rel = path.relative_to(ROOT / "core")
    return rel.parts[0] if len(rel.parts) > 1 else ""


def test_core_subpackages_import_downwards_only() -> None:
    offenders = []
    facade = ROOT / "core" / "__init__.py"  # re-exports the public API (lazily): the one module that may look up
    for path in sorted((ROOT / "core").rglob("*.py")):
        if path == facade:
            continue
        here = CORE_FLOORS.index(_floor(path))
        for name in _imports(path, "core"):
            parts = name.split(".")
            if parts[:2] != ["onnxpack", "core"] or len(parts) < 3 or parts[2] not in CORE_FLOORS:
                continue
            if CORE_FLOORS.index(parts[2]) > here:
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []


def test_core_has_only_the_known_floors() -> None:
    """A new folder in core/ gets its place in CORE_FLOORS (and in pyproject's packages) on purpose."""
    folders = {p.name for p in (ROOT / "core").iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == set(CORE_FLOORS) - {""}
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for floor in folders:
        assert f'"onnxpack.core.{floor}"' in text, floor


def test_no_core_module_shadows_the_standard_library() -> None:
    shadowing = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "core").rglob("*.py")
                       if p.stem in sys.stdlib_module_names)  # fmt: skip
    assert shadowing == []


def test_the_floor_rule_catches_an_upward_import(tmp_path: Path) -> None:
    """The checker itself: a relative import that climbs from a lower floor to a higher one is resolved to it."""
    (tmp_path / "core" / "model").mkdir(parents=True)
    mod = tmp_path / "core" / "model" / "x.py"
    mod.write_text("from ..release.bundle import build_bundle\nfrom .wire import tag\n"
                   "from ..errors import InputError\n")
    names = _imports(mod, "core", root=tmp_path)
    assert {"onnxpack.core.release.bundle", "onnxpack.core.model.wire", "onnxpack.core.errors"} <= set(names)
    assert CORE_FLOORS.index("release") > CORE_FLOORS.index("model")


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
