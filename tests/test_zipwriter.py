"""The deterministic streaming ZIP writer: fixed metadata, sorted directory, hashes, ZIP64, cleanup."""

from __future__ import annotations

import hashlib
import io
import stat
import struct
import zipfile
from pathlib import Path

import pytest

from onnxpack.core.atomic import atomic_file
from onnxpack.core.errors import Cancelled, InputError
from onnxpack.core.progress import CancelToken, ProgressEvent
from onnxpack.core.release.zipcheck import iter_member, scan_archive
from onnxpack.core.release.zipwriter import ZIP_MIN_EPOCH, DeterministicZip, source_date_epoch, zip_date_time


def _build(epoch: int | None = None, compress: bool = False) -> bytes:
    buf = io.BytesIO()
    with DeterministicZip(buf, epoch=epoch, compress=compress) as z:
        with z.entry("b/model.onnx", 5000) as sink:
            for _ in range(5):
                sink.write(b"\x01" * 1000)
        z.write_bytes("README.txt", "日本語 ok\n".encode())
        z.write_bytes("a.json", b"{}")
    return buf.getvalue()


def test_same_input_gives_identical_bytes() -> None:
    assert _build(1_700_000_000) == _build(1_700_000_000)
    assert _build(1_700_000_000, compress=True) == _build(1_700_000_000, compress=True)
    assert _build(1_700_000_000) != _build(1_700_000_002)


def test_fixed_metadata_and_sorted_directory() -> None:
    data = _build(1_700_000_000)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        for i in infos:
            assert i.create_system == 3
            assert i.external_attr >> 16 == stat.S_IFREG | 0o644
            assert i.date_time == (2023, 11, 14, 22, 13, 20)
            assert i.compress_type == zipfile.ZIP_STORED
            assert i.extra == b""
            assert i.comment == b""
        assert zf.read("b/model.onnx") == b"\x01" * 5000
        assert zf.read("README.txt").decode() == "日本語 ok\n"
        assert zf.testzip() is None
    assert scan_archive(io.BytesIO(data), len(data)).problems == []


def test_records_hash_while_streaming() -> None:
    buf = io.BytesIO()
    tee = io.BytesIO()
    with DeterministicZip(buf) as z, z.entry("m.onnx", 6, tee=tee) as sink:
        sink.write(b"abc")
        sink.write(memoryview(b"def"))
    rec = z.records[0]
    assert (rec.name, rec.size, rec.sha256) == ("m.onnx", 6, hashlib.sha256(b"abcdef").hexdigest())
    assert tee.getvalue() == b"abcdef"


def test_compress_deflates_and_reads_back() -> None:
    data = _build(compress=True)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in zf.infolist())
        assert zf.getinfo("b/model.onnx").compress_size < 5000
    scan = scan_archive(io.BytesIO(data), len(data))
    assert scan.problems == []
    m = scan.by_name()["b/model.onnx"]
    assert b"".join(iter_member(io.BytesIO(data), m)) == b"\x01" * 5000


def test_timestamps_clamped_and_default() -> None:
    assert zip_date_time(0) == (1980, 1, 1, 0, 0, 0)
    assert zip_date_time(None) == (1980, 1, 1, 0, 0, 0)
    assert zip_date_time(ZIP_MIN_EPOCH + 3) == (1980, 1, 1, 0, 0, 2)
    assert zip_date_time(10**11)[0] == 2107


def test_source_date_epoch_parsing() -> None:
    assert source_date_epoch({}) is None
    assert source_date_epoch({"SOURCE_DATE_EPOCH": " 1700000000 "}) == 1_700_000_000
    with pytest.raises(InputError):
        source_date_epoch({"SOURCE_DATE_EPOCH": "yesterday"})


def test_zip64_chosen_from_announced_size() -> None:
    """A large announced size switches the entry to ZIP64 up front (local header has the ZIP64 extra)."""
    buf = io.BytesIO()
    z = DeterministicZip(buf)
    info = z._info("big.bin", 5 * 2**30, None)  # what entry() would announce for a 5 GiB model
    handle = z._zf.open(info, "w")
    assert handle._zip64  # type: ignore[attr-defined]
    handle.write(b"x")
    handle.close()
    z.finish()
    data = buf.getvalue()
    (n_len, e_len) = struct.unpack_from("<HH", data, 26)
    extra = data[30 + n_len : 30 + n_len + e_len]
    assert struct.unpack_from("<H", extra)[0] == 0x0001
    assert scan_archive(io.BytesIO(data), len(data)).problems == []


def test_wrong_announced_size_is_an_error() -> None:
    z = DeterministicZip(io.BytesIO())
    with pytest.raises(RuntimeError, match="announced"), z.entry("m", 4) as sink:
        sink.write(b"abc")
    z.abort()


def test_cancel_and_progress_while_streaming(tmp_path: Path) -> None:
    token = CancelToken()
    events: list[ProgressEvent] = []

    def progress(ev: ProgressEvent) -> None:
        events.append(ev)
        if ev.done >= 3 << 20:
            token.cancel()

    dest = tmp_path / "out.zip"
    with (
        pytest.raises(Cancelled),
        atomic_file(dest) as f,
        DeterministicZip(f) as z,
        z.entry("m", 8 << 20, progress=progress, cancel=token) as sink,
    ):
        for _ in range(8):
            sink.write(b"\0" * (1 << 20))
    assert events and events[0].stage == "zip" and events[0].total == 8 << 20
    assert list(tmp_path.iterdir()) == []
