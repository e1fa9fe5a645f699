"""Issue 40 item 1: a large model the parent wrote itself (``inline``, the single-file layout) reaches ONNX Runtime the
cheapest correct way: its tensors as OrtValues over a memory map of the file (or of its stored ZIP entry), never the
whole file as bytes; a small one still goes as its bytes (the fastest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests import factory


def _spec(path: Path, **extra: Any) -> dict[str, Any]:
    return {"path": str(path), "data_dir": str(path.parent), "kind": "onnx", "label": path.name, "window": None,
            "inline": True, **extra}


def _run(opened: Any) -> Any:
    x = np.arange(256, dtype=np.float32).reshape(1, 256)
    return opened.session.run(None, {"X": x})[0]


def test_a_large_inline_model_is_mapped_not_read_as_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from onnxpack.core.runtime import session

    path = tmp_path / "m.onnx"
    path.write_bytes(factory.add_model(256).SerializeToString())
    empty = tmp_path / "empty"
    empty.mkdir()
    small = session.open_session(_spec(path), str(empty))
    assert small.how == "model bytes"
    expected = _run(small)

    monkeypatch.setattr(session, "MAPPED_INLINE_BYTES", path.stat().st_size)  # this file is now "large"
    read: list[Path] = []
    real = session._read_model_bytes
    monkeypatch.setattr(session, "_read_model_bytes", lambda p, w: read.append(p) or real(p, w))
    large = session.open_session(_spec(path), str(empty))
    assert read == []  # never read whole
    assert large.how.startswith("model bytes + 2 in-memory initializer(s)")
    assert np.array_equal(_run(large), expected)


def test_a_large_inline_model_in_a_window_is_mapped_from_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In place: the model is a byte range of a larger file (a stored ZIP entry); only that range is the model."""
    from onnxpack.core.runtime import session

    data = factory.add_model(256).SerializeToString()
    path = tmp_path / "bundle.bin"
    path.write_bytes(b"\x00" * 4096 + data + b"\xff" * 100)
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setattr(session, "MAPPED_INLINE_BYTES", 1024)
    opened = session.open_session(_spec(path, window=[4096, len(data)]), str(empty))
    assert "in-memory initializer" in opened.how
    plain = tmp_path / "m.onnx"
    plain.write_bytes(data)
    monkeypatch.setattr(session, "MAPPED_INLINE_BYTES", 1 << 40)
    assert np.array_equal(_run(opened), _run(session.open_session(_spec(plain), str(empty))))
