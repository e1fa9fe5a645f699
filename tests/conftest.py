"""Shared fixtures: every test model is built with onnx.helper in tmp_path."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests import factory  # noqa: E402


@pytest.fixture
def sample_model() -> Path:
    """The committed sample model (read-only: tests must never modify it)."""
    return ROOT / "resources" / "sample" / "victory.onnx"


@pytest.fixture
def ext_model(tmp_path: Path) -> Path:
    """A small external-data model (two external initializers, one inline) in tmp_path/model/."""
    return factory.external_model(tmp_path / "model")
