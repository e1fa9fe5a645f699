"""Shared fixtures: every test model is built with onnx.helper in tmp_path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests import factory  # noqa: E402


@pytest.fixture(autouse=True)
def _no_hidden_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """Variables hidden from children (a signing test's password variable) stay hidden for the process, by design:
    each test starts without any, so that a signed bundle earlier in the run does not stop later tests forking."""
    from onnxpack.core.child import childproc

    monkeypatch.setattr(childproc, "_HIDDEN", set())


@pytest.fixture
def sample_model() -> Path:
    """The committed sample model (read-only: tests must never modify it)."""
    return ROOT / "resources" / "sample" / "victory.onnx"


@pytest.fixture
def ext_model(tmp_path: Path) -> Path:
    """A small external-data model (two external initializers, one inline) in tmp_path/model/."""
    return factory.external_model(tmp_path / "model")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout with the locked build backend (once per run: packaging and no-Qt tests)."""
    out = tmp_path_factory.mktemp("wheel")
    # A copy of the sources, so the build's egg-info and build/ never touch the checkout.
    src = out / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", ".ci", "build", "dist", "*.egg-info",
                                                               "__pycache__", ".mypy_cache", ".ruff_cache", "out"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                        "-w", str(out), str(src)], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    (whl,) = out.glob("onnxpack-*.whl")
    return whl
