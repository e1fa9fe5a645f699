"""onnxpack.core.atomic: the writeback pacer used by the merge and the ZIP writer, and the plain-file test."""

from __future__ import annotations

import io
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from onnx import helper

import onnxpack.core.atomic as atomic
import onnxpack.core.model.merge.mergewrite as mergewrite
from onnxpack.core.atomic import WritebackPacer, atomic_file, plain_file_fd
from onnxpack.core.model.merge.merge import merge_model
from onnxpack.core.release.zipwriter import DeterministicZip
from tests import factory


class Recorder:
    """Stands in for sync_file_range(2): records (fd, offset, nbytes, flags)."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, int, int]] = []

    def __call__(self, fd: int, offset: int, nbytes: int, flags: int) -> int:
        self.calls.append((fd, offset, nbytes, flags))
        return 0

    def covered(self) -> list[tuple[int, int]]:
        return [(off, off + n) for _fd, off, n, _fl in self.calls]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    rec = Recorder()
    monkeypatch.setattr(atomic, "_SYNC_FILE_RANGE", rec)
    return rec


def contiguous(ranges: list[tuple[int, int]], start: int) -> int:
    """Assert the ranges follow each other from ``start`` without gap or overlap; return the end."""
    pos = start
    for a, b in ranges:
        assert a == pos and b > a
        pos = b
    return pos


def test_plain_file_fd(tmp_path: Path) -> None:
    with open(tmp_path / "f.bin", "wb") as f:
        assert plain_file_fd(f) == f.fileno()
    with open(tmp_path / "g.bin", "wb", buffering=0) as raw:
        assert plain_file_fd(raw) == raw.fileno()
    assert plain_file_fd(io.BytesIO()) is None
    with zipfile.ZipFile(tmp_path / "z.zip", "w") as z, z.open("member", "w") as member:
        assert plain_file_fd(member) is None  # its fileno() is the archive's, not where the bytes land
    r, w = os.pipe()
    try:
        with os.fdopen(w, "wb") as pipe:
            assert plain_file_fd(pipe) is None
    finally:
        os.close(r)


def test_pacer_starts_writeback_step_by_step(tmp_path: Path, recorder: Recorder) -> None:
    with open(tmp_path / "out.bin", "wb", buffering=0) as f:
        f.write(b"h" * 10)  # written before the pacer exists: not its business
        fd = f.fileno()
        pacer = WritebackPacer(fd, step=100)
        assert pacer.active
        f.write(b"a" * 60)
        pacer()
        assert recorder.calls == []  # less than a step so far
        f.write(b"b" * 60)
        pacer()
        f.write(b"c" * 250)
        pacer()
        f.write(b"d" * 5)
        pacer()
        assert contiguous(recorder.covered(), 10) == 380
        pacer(force=True)
        assert contiguous(recorder.covered(), 10) == 385
        pacer(force=True)  # nothing new: no call
        assert len(recorder.calls) == 3
    assert {fl for *_x, fl in recorder.calls} == {2}  # SYNC_FILE_RANGE_WRITE only: never waits
    assert {d for d, *_x in recorder.calls} == {fd}
    assert (tmp_path / "out.bin").read_bytes() == b"h" * 10 + b"a" * 60 + b"b" * 60 + b"c" * 250 + b"d" * 5


def test_pacer_is_inert_without_a_file_or_the_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = Recorder()
    monkeypatch.setattr(atomic, "_SYNC_FILE_RANGE", rec)
    none = WritebackPacer(None, step=1)
    none(force=True)
    assert not none.active
    if os.name == "posix":  # a pipe is not seekable there (Windows' CRT may report a position for it)
        r, w = os.pipe()
        try:
            pipe = WritebackPacer(w, step=1)
            os.write(w, b"xx")
            pipe(force=True)
            assert not pipe.active  # lseek failed: the pacer turned itself off
        finally:
            os.close(r)
            os.close(w)
    monkeypatch.setattr(atomic, "_SYNC_FILE_RANGE", None)  # Windows, macOS: no such call
    with open(tmp_path / "f.bin", "wb", buffering=0) as f:
        off = WritebackPacer(f.fileno(), step=1)
        f.write(b"x" * 10)
        off(force=True)
        assert not off.active
    assert rec.calls == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sync_file_range(2) is Linux-only")
def test_real_sync_file_range_is_found_and_harmless(tmp_path: Path) -> None:
    assert atomic._load_sync_file_range() is not None
    data = os.urandom(3 * 4096 + 17)
    with atomic_file(tmp_path / "out.bin") as f:
        pacer = WritebackPacer(plain_file_fd(f), step=4096)
        assert pacer.active
        for i in range(0, len(data), 1000):
            f.write(data[i : i + 1000])
            f.flush()
            pacer()
        pacer(force=True)
    assert (tmp_path / "out.bin").read_bytes() == data


def _big_external_model(tmp_path: Path) -> Path:
    rng = np.random.default_rng(3)
    weights = [rng.standard_normal(5000).astype(np.float32) for _ in range(4)]
    model = factory.add_model(16)
    for i, w in enumerate(weights):
        model.graph.initializer.append(helper.make_tensor(f"extra{i}", 1, [w.size], w.tobytes(), raw=True))
    return factory.save_with_external(model, tmp_path / "src" / "m.onnx", threshold=16)


@pytest.mark.parametrize("layout", ["single", "external"])
def test_merge_paces_the_whole_output(tmp_path: Path, recorder: Recorder, monkeypatch: pytest.MonkeyPatch,
                                      layout: str) -> None:
    """Every byte streamed after the header is handed to the writeback in order, without gaps."""
    src = _big_external_model(tmp_path)
    monkeypatch.setattr(mergewrite, "_KERNEL_CHUNK", 4096)
    real_init = WritebackPacer.__init__

    def small_steps(self: WritebackPacer, fd: int | None, step: int = 0) -> None:
        real_init(self, fd, step=4096)

    monkeypatch.setattr(WritebackPacer, "__init__", small_steps)
    out = tmp_path / "out" / "m.onnx"
    out.parent.mkdir()
    result: Any = merge_model(src, out, layout=layout)
    target = out if layout == "single" else out.with_name("m.onnx.data")
    size = target.stat().st_size
    fd = recorder.calls[0][0]
    ranges = [(off, off + n) for f, off, n, _ in recorder.calls if f == fd]
    assert len(ranges) >= 15
    start = ranges[0][0]
    assert start < 4096 * 2  # starts right after the first (header) write
    assert size - 4096 < contiguous(ranges, start) <= size  # the rest is the final fsync's
    assert result.model_path == out


def test_zip_entries_are_paced(tmp_path: Path, recorder: Recorder) -> None:
    payload = os.urandom(5 * 2**20)
    with open(tmp_path / "b.zip", "wb") as f, DeterministicZip(f, epoch=0) as z:
        z._pacer = WritebackPacer(plain_file_fd(f), step=2**20)
        with z.entry("model.onnx", len(payload)) as sink:
            for i in range(0, len(payload), 2**20):
                sink.write(payload[i : i + 2**20])
    assert len(recorder.calls) >= 4
    contiguous(recorder.covered(), recorder.calls[0][1])
    with zipfile.ZipFile(tmp_path / "b.zip") as z:
        assert z.read("model.onnx") == payload
